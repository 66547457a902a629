// The threshold-sweep panel in headless Chromium: pick a threshold, start,
// cancel, run to the end; every number of the table equals `fieldscope
// sweep --format json` on the same files (the built-in example is
// `fieldscope synth --documents 50 --seed 19 --paradox`), to 1e-12; the charts are
// there with their downloads; a screenshot is saved to
// tests/browser/screenshots/sweep.png.
//
// Run (after `trunk build` and `cargo build --bin fieldscope`; `bash .ci/test` does both):
//   node --test tests/browser/sweep.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST } from './server.mjs';
import { BUILT_IN_ARGS, openApp, startApp, startThen, stopApp, writeBuiltIn } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const SHOTS = join(HERE, 'screenshots');
const CLI = join(ROOT, 'target/debug/fieldscope');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const TOLERANCE = 1e-12;


let server;
let browser;
let tmp;

before(async () => {
  ({ server, browser, tmp } = await startApp('fieldscope-sweep-'));
});

after(() => stopApp({ server, browser, tmp }));

/** `fieldscope sweep --param PARAM --format json` on the page's example. */
function cliSweep(param) {
  const dir = join(tmp, 'example50');
  if (!existsSync(dir)) writeBuiltIn(dir);
  const args = [...BUILT_IN_ARGS];
  const out = execFileSync(CLI, ['sweep', ...args, '--param', param, '--format', 'json'], { cwd: dir, encoding: 'utf8' });
  return JSON.parse(out);
}

/** Every cell of the sweep table: {t, model, metric, value}. */
async function readSweepTable(page) {
  return page.$$eval('[data-testid=sweep-table] tbody tr', (trs) =>
    trs.flatMap((tr) =>
      [...tr.querySelectorAll('td')].map((td) => ({
        t: Number(tr.dataset.value),
        model: td.dataset.model,
        metric: td.dataset.metric,
        value: td.dataset.value === 'null' ? null : Number(td.dataset.value),
      })),
    ),
  );
}

function expectedCells(report) {
  const metrics = ['micro_f1', 'micro_accuracy', 'macro_documents_f1'];
  const items = report.models.some((m) => m.points.some((p) => p.item_f1 !== undefined));
  if (items) metrics.push('item_f1', 'item_count_accuracy');
  const n = report.models[0].points.length;
  const cells = [];
  for (let i = 0; i < n; i++) {
    for (const m of report.models) {
      for (const metric of metrics) {
        cells.push({ t: m.points[i].value, model: m.name, metric, value: m.points[i][metric] ?? null });
      }
    }
  }
  return cells;
}

function assertCells(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: number of cells`);
  actual.forEach((a, i) => {
    const e = expected[i];
    const where = `${what}: t = ${e.t}, ${e.model}, ${e.metric}`;
    assert.equal(a.model, e.model, where);
    assert.equal(a.metric, e.metric, where);
    assert.ok(Math.abs(a.t - e.t) <= TOLERANCE, `${where}: t ${a.t}`);
    if (e.value === null) assert.equal(a.value, null, where);
    else assert.ok(Math.abs(a.value - e.value) <= TOLERANCE, `${where}: ${a.value} vs ${e.value}`);
  });
}

test('threshold sweep: progress, cancel, then the CLI\'s numbers, charts and downloads', async (t) => {
  const { page, errors } = await openApp(t, { browser, server });

  // Cancel: start, stop after the first values.
  await page.click('[data-testid=sweep-param-cer]');
  await startThen(page, 'sweep', { click: 'sweep-cancel' });
  const cancelled = await page.waitForSelector('[data-testid=sweep-cancelled]');
  assert.match(await cancelled.textContent(), /^Cancelled after \d+ of 21 thresholds\.$/);
  // The worker lets go of the run (it stops, or had just finished).
  await page.waitForSelector('[data-testid=sweep-cancelled][data-settled]');

  // The CER sweep to the end: the CLI's numbers.
  await page.click('[data-testid=sweep-start]');
  await page.waitForSelector('[data-testid=sweep-table] tbody tr', { timeout: 120_000 });
  assert.equal(await page.getAttribute('[data-testid=sweep-table]', 'data-param'), 'cer');
  assertCells(await readSweepTable(page), expectedCells(cliSweep('cer')), 'cer');
  for (const id of ['sweep_cer_micro_f1', 'sweep_cer_micro_accuracy']) {
    const svg = await page.locator(`[data-testid=chart-${id}] svg`);
    assert.equal(await svg.count(), 1, id);
  }
  await page.locator('[data-testid=sweep]').screenshot({ path: join(SHOTS, 'sweep.png') });

  // The SVG download is the chart shown.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[data-testid=svg-sweep_cer_micro_f1]'),
  ]);
  assert.equal(download.suggestedFilename(), 'fieldscope-sweep_cer_micro_f1.svg');
  const svg = readFileSync(await download.path(), 'utf8');
  assert.match(svg, /^<svg width="672"/);
  assert.ok(svg.includes(`configured t = ${cliSweep('cer').configured}`), 'the configured CER threshold is marked');

  // The item threshold (the example has line items): item columns too.
  await page.click('[data-testid=sweep-param-item]');
  await page.click('[data-testid=sweep-start]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=sweep-table]')?.dataset.param === 'item',
    null,
    { timeout: 120_000 },
  );
  assertCells(await readSweepTable(page), expectedCells(cliSweep('item')), 'item');
  await page.locator('[data-testid=chart-sweep_item_item_f1]').screenshot({ path: join(SHOTS, 'sweep-item.png') });

  assert.deepEqual(errors, [], 'no uncaught errors on the page');
});

test('PDF download: a separate worker loaded on demand, %PDF with embedded TrueType fonts', async (t) => {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 900 } });
  t.after(() => context.close());
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const requests = [];
  context.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-testid=model-table] tr[data-model]', { timeout: 30_000 });
  // The page's first load does not fetch the exporter.
  assert.deepEqual(requests.filter((p) => p.includes('fieldscope-export')), [], 'no export worker before an export is asked for');

  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.click('[data-testid=pdf-metric_bars]'),
  ]);
  assert.equal(download.suggestedFilename(), 'fieldscope-metric_bars.pdf');
  const pdf = readFileSync(await download.path());
  assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
  const text = pdf.toString('latin1');
  assert.ok(text.includes('/CIDFontType2') && text.includes('/FontFile2'), 'an embedded TrueType font');
  assert.ok(/\/BaseFont \/[A-Z]{6}\+LiberationSans/.test(text), 'Liberation Sans, subsetted');
  assert.ok(!text.includes('/Type3'), 'no Type 3 font');
  // 672 px at 96 per inch = 504 pt.
  assert.match(text, /\/MediaBox \[0 0 504 /);
  assert.ok(requests.some((p) => p.endsWith('/fieldscope-export_bg.wasm')), 'the worker was loaded now');
  // The same bytes' fonts as poppler sees them (pdffonts: poppler-utils,
  // installed by .ci/setup).
  const file = join(tmp, 'metric_bars.pdf');
  writeFileSync(file, pdf);
  const fonts = spawnSync('pdffonts', [file], { encoding: 'utf8' });
  assert.equal(fonts.status, 0, `pdffonts: ${fonts.stderr}`);
  const rows = fonts.stdout.trim().split('\n').slice(2);
  assert.ok(rows.length > 0, fonts.stdout);
  for (const row of rows) {
    const cols = row.trim().split(/\s+/);
    assert.equal(cols[cols.length - 5], 'yes', `embedded: ${row}`);
    assert.ok(!row.includes('Type 3'), row);
  }
  assert.deepEqual(errors, [], 'no uncaught errors on the page');
});
