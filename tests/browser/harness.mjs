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
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, DIST } from './server.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '../..');
export const SHOTS = join(HERE, 'screenshots');
export const CLI = join(ROOT, 'target/debug/fieldscope');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
/** Chromium's flags as root on a machine with no network but the registries. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const { chromium } = await import(join(ROOT, '.tools/node_modules/playwright-core/index.mjs'));

/** The server, the browser and a fresh temporary folder named `prefix…`. */
export async function startApp(prefix) {
  assert.ok(existsSync(join(DIST, 'index.html')), `no built app in ${DIST}: run trunk build --release`);
  // `trunk serve` writes its live-reload script (a WebSocket to the dev
  // server) into dist/index.html; that is not the page people get.
  const index = readFileSync(join(DIST, 'index.html'), 'utf8');
  assert.ok(
    !index.includes('.well-known/trunk/ws'),
    `${DIST}/index.html was written by \`trunk serve\` (it has the live-reload WebSocket script): ` +
      'build with `trunk build --release` (or set FIELDSCOPE_DIST to a release build) before these tests',
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
