// What every browser test file starts and stops: checks that dist/ holds a
// release build (not `trunk serve`'s), builds the CLI when missing, serves
// dist/ on 127.0.0.1 (server.mjs) and launches Debian's Chromium headless
// with the flags this machine needs as root. Used from `before`/`after`:
//
//   let server, browser, tmp;
//   before(async () => ({ server, browser, tmp } = await startApp('fieldscope-e2e-')));
//   after(() => stopApp({ server, browser, tmp }));

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, DIST } from './server.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '../..');
export const SHOTS = join(HERE, 'screenshots');
export const CLI = join(ROOT, 'target/debug/fieldscope');

/** The built-in example's metrics config (`session::EXAMPLE_CONFIG`): sliced by the vendor's country, which is no scored field. */
export const BUILT_IN_CONFIG = '{"slice_by": ["vendor_country"], "ignored_fields": ["vendor_country"]}\n';

/** The CLI's arguments for the built-in example's files (run in the directory `writeBuiltIn` wrote). */
export const BUILT_IN_ARGS = [
  '--truth', 'truth.jsonl', '--pred', 'good.jsonl', '--pred', 'conservative.jsonl', '--pred', 'aggressive.jsonl',
  '--schema', 'invoice.schema.json', '--config', 'config.json',
];

/** Writes the built-in example's files to `dir`: `fieldscope synth --documents 50 --seed 19 --paradox --vendor-country` and its config.json. */
export function writeBuiltIn(dir) {
  execFileSync(CLI, ['synth', '--documents', '50', '--seed', '19', '--paradox', '--vendor-country', '--out', dir]);
  writeFileSync(join(dir, 'config.json'), BUILT_IN_CONFIG);
}
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
/** Chromium's flags as root on a machine with no network but the registries. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const { chromium } = await import(join(ROOT, '.tools/node_modules/playwright-core/index.mjs'));

/** The server, the browser and a fresh temporary folder named `prefix…`. */
export async function startApp(prefix) {
  assert.ok(existsSync(join(DIST, 'index.html')), `no built app in ${DIST}: run trunk build (bash .ci/test does)`);
  // `trunk serve` writes its live-reload script (a WebSocket to the dev
  // server) into dist/index.html; that is not the page people get.
  const index = readFileSync(join(DIST, 'index.html'), 'utf8');
  assert.ok(
    !index.includes('.well-known/trunk/ws'),
    `${DIST}/index.html was written by \`trunk serve\` (it has the live-reload WebSocket script): ` +
      'build with `trunk build` (or set FIELDSCOPE_DIST to another build) before these tests',
  );
  if (!existsSync(CLI)) {
    execFileSync('cargo', ['build', '--bin', 'fieldscope'], { cwd: ROOT, stdio: 'inherit' });
  }
  mkdirSync(SHOTS, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  return { server, browser, tmp };
}

/** Closes what `startApp` started and removes its folder. */
export async function stopApp({ server, browser, tmp }) {
  await browser?.close();
  await server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}

/**
 * Where a benchmark's time went: the page's performance marks (app/browser.rs
 * `mark`) since `window.__benchStart`, as [name, ms after it], and the time
 * spent evaluating (every evaluation-start → evaluation-end span: a
 * provisional report, then its completion with the schema validity).
 */
export async function benchMarks(page) {
  const marks = await page.evaluate(() =>
    performance
      .getEntriesByType('mark')
      .filter((m) => m.name.startsWith('fieldscope:') && m.startTime >= window.__benchStart)
      .map((m) => [m.name.slice('fieldscope:'.length), Math.round(m.startTime - window.__benchStart)]),
  );
  let evaluationMs = 0;
  let started = null;
  for (const [name, t] of marks) {
    if (name === 'evaluation-start') started = t;
    if (name === 'evaluation-end' && started !== null) {
      evaluationMs += t - started;
      started = null;
    }
  }
  return { marks, evaluationMs, text: marks.map(([n, t]) => `${n} ${t}`).join(', ') };
}

/**
 * A fresh page (own context, downloads accepted) with the app's report
 * rendered, the schema worker's validity included (the example has a
 * schema); closed after test `t`. Uncaught errors and console errors (but
 * a 404) are collected for `assertNoErrors`.
 */
export async function openApp(t, { browser, server }, { url } = {}) {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 900 } });
  t.after(() => context.close());
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource.*404/.test(m.text())) errors.push(`console: ${m.text()}`);
  });
  await page.goto(url ?? server.url + '/');
  await page.waitForSelector('[data-testid=model-table] tr[data-model]', { timeout: 30_000 });
  await page.waitForSelector('[data-testid=document-scores]', { timeout: 30_000 });
  return {
    page,
    context,
    errors,
    assertNoErrors: () => assert.deepEqual(errors, [], 'no uncaught errors on the page'),
  };
}

/**
 * A fresh context and page whose requests for `held` (a URL glob, say one
 * worker's wasm) wait until `release()` is called; uncaught page errors
 * go to `errors`. The page is not opened yet.
 */
export async function holdBack(t, browser, held) {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 900 } });
  t.after(() => context.close());
  let release;
  const gate = new Promise((resolve) => {
    release = resolve;
  });
  await context.route(held, async (route) => {
    await gate;
    await route.continue();
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { page, errors, release };
}

/** How close a page's number must be to the CLI's (relative for large magnitudes). */
export const TOLERANCE = 1e-12;

/**
 * Drops files on the page-wide drop zone, as a person would: each file is
 * { name, b64 } or { name, bytes }. Resolves to { highlighted }: whether the
 * zone showed that it takes the drop.
 */
export async function dropFiles(page, files) {
  const given = files.map((f) => ({ name: f.name, b64: f.b64 ?? Buffer.from(f.bytes).toString('base64') }));
  const dataTransfer = await page.evaluateHandle((files) => {
    const type = (name) => (name.endsWith('.csv') ? 'text/csv' : name.endsWith('.html') ? 'text/html' : 'application/json');
    const dt = new DataTransfer();
    for (const f of files) {
      const bytes = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: type(f.name) }));
    }
    return dt;
  }, given);
  const zone = '[data-testid=drop-zone]';
  await page.dispatchEvent(zone, 'dragenter', { dataTransfer });
  await page.dispatchEvent(zone, 'dragover', { dataTransfer });
  const highlighted = await page.$eval(zone, (el) => el.classList.contains('dragging'));
  await page.dispatchEvent(zone, 'drop', { dataTransfer });
  await dataTransfer.dispose();
  return { highlighted };
}

/**
 * Clicks `{panel}-start` and, in the page task that first shows the
 * `{panel}-progress` line, does `then`: `{ click: testid }` or
 * `{ select: testid, value }` (a change event, as a person's choice
 * fires). The worker may finish a small run within one of the test's
 * round trips (it did on a 2-core machine), so a test that must act while
 * the run is under way acts from inside the page.
 */
export async function startThen(page, panel, then) {
  await page.evaluate(async ({ panel, then }) => {
    document.querySelector(`[data-testid=${panel}-start]`).click();
    while (!document.querySelector(`[data-testid=${panel}-progress]`)) await new Promise((r) => setTimeout(r, 0));
    if (then.click) {
      document.querySelector(`[data-testid=${then.click}]`).click();
    } else {
      const select = document.querySelector(`[data-testid=${then.select}]`);
      select.value = then.value;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    }
  }, { panel, then });
}

/** Waits until `n` files are listed, nothing waits for the schema worker, and the model table shows `models`, in order. */
export async function waitForLoaded(page, n, models) {
  await page.waitForFunction(
    ({ n, models }) => {
      if (document.querySelectorAll('[data-testid=file-entry]').length !== n) return false;
      if (document.querySelector('[data-testid=validity-pending]')) return false;
      const rows = [...document.querySelectorAll('[data-testid=model-table] tbody tr[data-model]')];
      return JSON.stringify(rows.map((r) => r.dataset.model)) === JSON.stringify(models);
    },
    { n, models },
    { timeout: 20_000 },
  );
}

/** A table's number cells: [{ model, values: { metric: number|null } }]. */
export async function readTable(page, testid) {
  const rows = await page.$$eval(`[data-testid=${testid}] tbody tr[data-model]`, (trs) =>
    trs.map((tr) => ({
      model: tr.dataset.model,
      values: Object.fromEntries([...tr.querySelectorAll('td[data-metric]')].map((td) => [td.dataset.metric, td.dataset.value])),
    })),
  );
  for (const r of rows) for (const [k, v] of Object.entries(r.values)) r.values[k] = v === 'null' ? null : Number(v);
  return rows;
}

/**
 * Every difference between two JSON values, numbers compared to TOLERANCE
 * (relative for large magnitudes), everything else exactly.
 */
export function differences(actual, expected, path = '$', out = []) {
  if (typeof expected === 'number' && typeof actual === 'number') {
    const scale = Math.max(1, Math.abs(expected));
    if (!(Math.abs(actual - expected) <= TOLERANCE * scale)) out.push(`${path}: ${actual} != ${expected}`);
  } else if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      out.push(`${path}: ${JSON.stringify(actual)?.slice(0, 200)} != ${JSON.stringify(expected).slice(0, 200)}`);
    } else {
      expected.forEach((e, i) => differences(actual[i], e, `${path}[${i}]`, out));
    }
  } else if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      out.push(`${path}: ${JSON.stringify(actual)?.slice(0, 200)} is not an object`);
    } else {
      const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
      for (const k of keys) {
        if (!(k in actual)) out.push(`${path}.${k}: missing in the page's value`);
        else if (!(k in expected)) out.push(`${path}.${k}: not in the CLI's value`);
        else differences(actual[k], expected[k], `${path}.${k}`, out);
      }
    }
  } else if (actual !== expected) {
    out.push(`${path}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`);
  }
  return out;
}

/** Asserts that the page's value equals the CLI's (see `differences`). */
export function assertClose(actual, expected, what) {
  const diffs = differences(actual, expected);
  assert.deepEqual(diffs, [], `${what} differs from the CLI:\n${diffs.slice(0, 30).join('\n')}`);
}

/** Clicks a download button; resolves to { name, text, path }. */
export async function download(page, testid) {
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.click(`[data-testid=${testid}]`)]);
  const path = await dl.path();
  return { name: dl.suggestedFilename(), text: readFileSync(path, "utf8"), path };
}
