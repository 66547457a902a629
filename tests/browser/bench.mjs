// Benchmark of the browser app in headless Chromium (prints figures; it
// asserts nothing about time). It measures what a person waits for, for
// this build (dist/) and, when FIELDSCOPE_OLD_DIST names another build
// (say, the previous round's), for that one too in the same run, side by
// side, the builds alternating run by run:
//
//   1. page load: from the navigation's start to the example's model
//      table drawn (checked every frame in the page, `performance.now()`;
//      Playwright's `waitForSelector` retries 0, 20, 50, 100, 100, then
//      every 500 ms, which moved this figure in steps), and to the
//      document browser's rows;
//   2. drop to full report: 10,000 synthetic invoices × 3 models + schema
//      (`fieldscope synth`, about 47 MB) chosen with the file input, from
//      the input's `change` event to the model table showing all three
//      models over 10,000 documents and the document-level scores (which
//      wait for the schema worker's validity); beside it the native CLI's
//      wall time on the same files (`fieldscope eval`, release build if
//      there is one);
//   3. re-evaluation after a settings change (the preset), from the
//      select's `change` event to the new numbers in the model table;
//   4. Cancel: from the click on the bootstrap's Cancel to the worker's
//      answer that it stopped (the line's `data-settled`; the line itself
//      says "Cancelled" at the click), while the documents are evaluated
//      and while it resamples;
//   5. the page's longest main-thread task (a `PerformanceObserver` for
//      `longtask`, rendering included) while each of these runs: the
//      drop, the re-evaluation, a threshold sweep, the bootstrap, the
//      document details computed on demand for the 10,000 documents
//      (with the time to the document browser's rows), a drop of 2,000
//      documents × 3 models (up to `DETAILS_UP_TO` the report carries
//      every document's details: to the browser's rows and the
//      validity), and (with FIELDSCOPE_BENCH_LARGE=N) a drop of N
//      documents' truth and one model, `N = 175000` being about 400 MB;
//   6. the gzipped size of the wasm + JS the page loads (with the
//      example's report made at build time, opening.cbor), and of each
//      worker.
//
// Run after `trunk build --release` and `cargo build --bin fieldscope`:
//   FIELDSCOPE_OLD_DIST=/path/to/old/dist node tests/browser/bench.mjs [DOCUMENTS]
// Needs playwright-core in .tools/ and /usr/bin/chromium, like the tests.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { startServer, DIST } from './server.mjs';
import { CHROMIUM_ARGS } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const DOCUMENTS = Number(process.argv[2] ?? 10000);
const RUNS = Number(process.env.FIELDSCOPE_BENCH_RUNS ?? 3);
const LARGE = Number(process.env.FIELDSCOPE_BENCH_LARGE ?? 0);
const OLD = process.env.FIELDSCOPE_OLD_DIST ? resolve(process.env.FIELDSCOPE_OLD_DIST) : null;
const CLI = [join(ROOT, 'target/release/fieldscope'), join(ROOT, 'target/debug/fieldscope')].find(existsSync);
if (!CLI) throw new Error('build the CLI first: cargo build --bin fieldscope');
const BUILDS = [['new', DIST], ...(OLD ? [['old', OLD]] : [])];
for (const [, dist] of BUILDS) {
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`no built app in ${dist}: run trunk build --release`);
}

const { chromium } = await import(join(ROOT, '.tools/node_modules/playwright-core/index.mjs'));

const fmtMs = (ms) => (ms == null ? '—' : `${(ms / 1000).toFixed(2)} s`);
const fmtTask = (ms) => (ms == null ? '—' : `${Math.round(ms)} ms`);
const median = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : null);

// ------------------------------------------------------------ bundle size
// The page's own module (fieldscope-web*) and each worker's: the
// evaluation worker (fieldscope-eval*, started with the page), the schema
// validator (fieldscope-schema*, started when a schema is loaded) and the
// exporter (fieldscope-export*, on the first export).
function sizes(dist) {
  const part = (f) => (f === 'opening-details.cbor' ? 'details' : ['eval', 'schema', 'export'].find((w) => f.startsWith(`fieldscope-${w}`)) ?? 'page');
  const gz = { page: 0, eval: 0, schema: 0, export: 0, details: 0 };
  // The page's part includes opening.cbor (the example's report made at
  // build time, preloaded); the example's document details
  // (opening-details.cbor, fetched after the first paint) are data, apart.
  for (const f of readdirSync(dist).filter((f) => /\.(wasm|js|cbor)$/.test(f))) {
    gz[part(f)] += gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
  }
  return gz;
}

// ------------------------------------------------------------ data
const data = mkdtempSync(join(tmpdir(), 'fieldscope-app-bench-'));
execFileSync(CLI, ['synth', '--documents', String(DOCUMENTS), '--out', data]);
const files = ['truth.jsonl', 'good.jsonl', 'conservative.jsonl', 'aggressive.jsonl', 'invoice.schema.json'].map((f) => join(data, f));
const inputMB = files.reduce((s, f) => s + statSync(f).size, 0) / 1e6;
console.log(`input: ${DOCUMENTS} documents × 3 models + schema, ${inputMB.toFixed(1)} MB (fieldscope synth)`);
const detailedDir = join(data, 'detailed');
execFileSync(CLI, ['synth', '--documents', '2000', '--seed', '5', '--out', detailedDir]);
const detailedFiles = ['truth.jsonl', 'good.jsonl', 'conservative.jsonl', 'aggressive.jsonl', 'invoice.schema.json'].map((f) => join(detailedDir, f));
let largeFiles = null;
if (LARGE) {
  const dir = join(data, 'large');
  execFileSync(CLI, ['synth', '--documents', String(LARGE), '--out', dir]);
  largeFiles = ['truth.jsonl', 'good.jsonl', 'invoice.schema.json'].map((f) => join(dir, f));
  const mb = largeFiles.reduce((s, f) => s + statSync(f).size, 0) / 1e6;
  console.log(`large input: ${LARGE} documents × 1 model + schema, ${mb.toFixed(0)} MB`);
}

// The CLI on the same files, wall time (after the browsers: the release
// build if there is one by then).
const cliTimes = [];
function timeCli() {
  const cli = [join(ROOT, 'target/release/fieldscope'), CLI].find(existsSync);
  console.log(`CLI timed: ${cli}`);
  for (let run = 0; run < RUNS; run++) {
    const t = process.hrtime.bigint();
    execFileSync(cli, ['eval', '--truth', files[0], '--pred', files[1], '--pred', files[2], '--pred', files[3], '--schema', files[4]], { stdio: ['ignore', 'ignore', 'inherit'] });
    cliTimes.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
}

/** Starts recording the page's long tasks under `window.__longest`. */
async function watchLongTasks(page) {
  await page.evaluate(() => {
    window.__longest = 0;
    if (window.__observer) return;
    window.__observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
    });
    window.__observer.observe({ type: 'longtask' });
  });
}

/** The longest task since `watchLongTasks`, once the last has ended. */
async function longest(page) {
  await page.waitForTimeout(300);
  return page.evaluate(() => window.__longest);
}

/** Starts the clock at the next `change` event of `selector`. */
async function clockOnChange(page, selector) {
  await page.evaluate((selector) => {
    document.querySelector(selector).addEventListener('change', () => (window.__benchStart = performance.now()), { capture: true, once: true });
  }, selector);
}

/** Chooses `paths` with the file input, the clock and the long-task watch started. */
async function chooseFiles(page, paths) {
  await watchLongTasks(page);
  await clockOnChange(page, '[data-testid=file-input]');
  await page.setInputFiles('[data-testid=file-input]', paths);
}

/** A build's server, browser and figures (filled by `measureRun`, `measureLarge`). */
async function openBuild(label, dist) {
  const server = await startServer(dist);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const f = { load: [], loadDetails: [], drop: [], reeval: [], cancel: [], cancelResampling: [], dropTask: [], reevalTask: [], sweepTask: [], bootstrapTask: [], details: [], detailsTask: [], detailedDrop: [], detailedDropTask: [], large: [], largeTask: [] };
  return { label, dist, server, browser, f };
}

/**
 * The selector of a Cancel the worker has answered: a build whose line
 * shows at the click marks the answer with `data-settled`; an older one
 * shows the line only once stopped.
 */
function cancelledSelector(dist) {
  const settles = readdirSync(dist).some((name) => name.endsWith('.wasm') && readFileSync(join(dist, name)).includes('data-settled'));
  return settles ? '[data-testid=bootstrap-cancelled][data-settled]' : '[data-testid=bootstrap-cancelled]';
}

/** Run number `run` of one build's figures. */
async function measureRun({ label, dist, server, browser, f }, run) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(server.url + '/', { waitUntil: 'commit' });
  const drawn = (selector) => page
    .waitForFunction((selector) => document.querySelector(selector) && performance.now(), selector, { polling: 'raf', timeout: 60_000 })
    .then((t) => t.jsonValue());
  f.load.push(await drawn('[data-testid=model-table] tr[data-model]'));
  f.loadDetails.push(await drawn('[data-testid=document-browser] tbody tr[data-doc]'));
  await page.waitForSelector('[data-testid=document-scores]', { timeout: 60_000 });
  await page.click('[data-testid=clear-files]');
  await page.waitForSelector('[data-testid=no-report]');

  // Drop to report.
  await chooseFiles(page, files);
  const drop = await page.waitForFunction(
    (documents) => {
      const rows = document.querySelectorAll('[data-testid=model-table] tbody tr[data-model]');
      const summary = document.querySelector('[data-testid=summary]')?.textContent ?? '';
      const busy = document.querySelector('[data-testid=busy]');
      const settled = document.querySelector('[data-testid=document-scores]');
      return rows.length === 3 && summary.startsWith(`${documents} documents`) && !busy && settled && performance.now() - window.__benchStart;
    },
    DOCUMENTS,
    { polling: 'raf', timeout: 300_000 },
  );
  f.drop.push(await drop.jsonValue());
  f.dropTask.push(await longest(page));
  if (run === 0 && label === 'new') await page.screenshot({ path: join(HERE, 'screenshots', 'bench-10k-report.png') }).catch(() => {});

  // Re-evaluation after a preset change.
  const before = await page.$eval('[data-testid=model-table] tbody tr[data-model] td[data-metric=f1]', (td) => td.dataset.value);
  await watchLongTasks(page);
  await clockOnChange(page, '[data-testid=preset-select]');
  const presets = await page.$$eval('[data-testid=preset-select] option', (os) => os.map((o) => o.value));
  await page.selectOption('[data-testid=preset-select]', presets.find((p) => p === 'strict') ?? presets.find((p) => p && p !== 'standard'));
  const reeval = await page.waitForFunction(
    (before) => {
      const td = document.querySelector('[data-testid=model-table] tbody tr[data-model] td[data-metric=f1]');
      return td && td.dataset.value !== before && performance.now() - window.__benchStart;
    },
    before,
    { polling: 'raf', timeout: 120_000 },
  );
  f.reeval.push(await reeval.jsonValue());
  f.reevalTask.push(await longest(page));
  await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 120_000 });

  // Cancel: the bootstrap started, then stopped once it shows
  // progress; from the click to the page saying it stopped.
  // Twice: while the documents are evaluated first (no resample
  // done yet), then while resampling.
  for (const [key, resampling] of run === 0 ? [['cancel', false], ['cancelResampling', true]] : []) {
    await page.click('[data-testid=bootstrap-start]');
    await page.waitForFunction(
      (resampling) => {
        const bar = document.querySelector('[data-testid=bootstrap-progress] progress');
        return bar && (resampling ? Number(bar.value) > 0 : true);
      },
      resampling,
      { polling: 'raf', timeout: 120_000 },
    );
    if (!resampling) await page.waitForTimeout(300);
    const cancelled = await page.evaluate(async (stopped) => {
      const t = performance.now();
      document.querySelector('[data-testid=bootstrap-cancel]').click();
      while (!document.querySelector(stopped)) await new Promise((r) => requestAnimationFrame(r));
      return performance.now() - t;
    }, cancelledSelector(dist));
    f[key].push(cancelled);
  }

  // A threshold sweep, then the bootstrap: the longest task each.
  for (const [start, done, key] of [
    ['sweep-start', '[data-testid=sweep-table]', 'sweepTask'],
    ['bootstrap-start', '[data-testid=bootstrap-table]', 'bootstrapTask'],
  ]) {
    if (run > 0) break;
    await watchLongTasks(page);
    await page.click(`[data-testid=${start}]`);
    await page.waitForSelector(done, { timeout: 600_000 });
    f[key].push(await longest(page));
  }
  if (run === 0) {
    // The document details on demand, then a drop whose report carries
    // them: to the document browser's rows (and, for the drop, the
    // validity), and the longest task.
    const rowsShown = () => page.waitForFunction(
      () => document.querySelector('[data-testid=document-browser] tbody tr[data-doc]') && !document.querySelector('[data-testid=validity-pending]') && performance.now() - window.__benchStart,
      null,
      { polling: 'raf', timeout: 300_000 },
    ).then((t) => t.jsonValue());
    await watchLongTasks(page);
    await page.evaluate(() => (window.__benchStart = performance.now()));
    await page.click('[data-testid=load-document-details]');
    f.details.push(await rowsShown());
    f.detailsTask.push(await longest(page));
    await page.click('[data-testid=clear-files]');
    await page.waitForSelector('[data-testid=no-report]');
    await chooseFiles(page, detailedFiles);
    f.detailedDrop.push(await rowsShown());
    f.detailedDropTask.push(await longest(page));
  }
  if (errors.length) throw new Error(`${label}: page errors: ${errors.join('; ')}`);
  await context.close();
}

/** The large drop (FIELDSCOPE_BENCH_LARGE), once. */
async function measureLarge({ server, browser, f }) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-testid=model-table] tr[data-model]', { timeout: 60_000 });
  await page.click('[data-testid=clear-files]');
  await chooseFiles(page, largeFiles);
  const done = await page.waitForFunction(
    (documents) => {
      const summary = document.querySelector('[data-testid=summary]')?.textContent ?? '';
      return summary.startsWith(`${documents} documents`) && !document.querySelector('[data-testid=busy]') && performance.now() - window.__benchStart;
    },
    LARGE,
    { polling: 1000, timeout: 900_000 },
  );
  f.large.push(await done.jsonValue());
  f.largeTask.push(await longest(page));
  await context.close();
}

// The builds alternate run by run, so that a drift of the machine's speed
// falls on both alike.
const results = {};
const builds = [];
try {
  for (const [label, dist] of BUILDS) builds.push(await openBuild(label, dist));
  for (let run = 0; run < RUNS; run++) {
    for (const b of builds) {
      console.log(`run ${run + 1} of ${RUNS}: the ${b.label} build (${b.dist})…`);
      await measureRun(b, run);
    }
  }
  if (largeFiles) {
    for (const b of builds) {
      console.log(`the large drop: the ${b.label} build…`);
      await measureLarge(b);
    }
  }
  for (const b of builds) results[b.label] = { ...b.f, gz: sizes(b.dist) };
  timeCli();
} finally {
  for (const b of builds) {
    await b.browser.close();
    await b.server.close();
  }
  rmSync(data, { recursive: true, force: true });
}

const labels = BUILDS.map(([l]) => l);
const row = (name, key, fmt = fmtMs, note = '') => {
  const cells = labels.map((l) => fmt(median(results[l][key])).padStart(10));
  const each = labels.map((l) => `${l}: ${results[l][key].map(fmt).join(', ')}`).join('; ');
  console.log(`  ${name.padEnd(38)}${cells.join('')}   ${note}${each ? `[${each}]` : ''}`);
};
console.log(`\nheadless Chromium, ${RUNS} runs (median; then each run)${' '.repeat(2)}${labels.map((l) => l.padStart(10)).join('')}`);
row('page load to the example\'s report', 'load');
row('  … to its document browser', 'loadDetails');
row(`drop to full report (${DOCUMENTS} × 3)`, 'drop', fmtMs, `CLI ${fmtMs(median(cliTimes))}, ratio ${labels.map((l) => `${l} ${(median(results[l].drop) / median(cliTimes)).toFixed(2)}×`).join(', ')} `);
row('re-evaluation (preset)', 'reeval');
row('Cancel to stopped: evaluating', 'cancel', fmtTask);
row('Cancel to stopped: resampling', 'cancelResampling', fmtTask);
row('longest task: drop', 'dropTask', fmtTask);
row('longest task: re-evaluation', 'reevalTask', fmtTask);
row('longest task: sweep', 'sweepTask', fmtTask);
row('longest task: bootstrap', 'bootstrapTask', fmtTask);
row(`document details on demand (${DOCUMENTS} × 3)`, 'details');
row('longest task: document details', 'detailsTask', fmtTask);
row('drop with details (2000 × 3) to its rows', 'detailedDrop');
row('longest task: drop with details', 'detailedDropTask', fmtTask);
if (LARGE) {
  row(`large drop (${LARGE} documents)`, 'large');
  row('longest task: large drop', 'largeTask', fmtTask);
}
console.log('\ngzipped wasm + JS (+ opening.cbor for the page; gzip -9); details: opening-details.cbor');
for (const part of ['page', 'eval', 'schema', 'export', 'details']) {
  console.log(`  ${part.padEnd(10)}${labels.map((l) => `${(results[l].gz[part] / 1024).toFixed(0)} KB`.padStart(10)).join('')}`);
}
