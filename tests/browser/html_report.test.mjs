// The HTML report in the browser: the app's "HTML report" export is the
// CLI's `eval --format html`, byte for byte (with the inputs embedded too,
// through the export panel's checkbox), and a report the CLI wrote with
// `--embed-inputs`, dropped onto the page, re-opens the evaluation — files,
// model names, costs, settings — with the CLI's numbers. Also saves a
// screenshot of the CLI's report with scripts disabled
// (tests/browser/screenshots/html-report.png).
//
// Run (after `trunk build` and `cargo build --bin fieldscope`; `bash .ci/test` does both):
//   node --test tests/browser/html_report.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  assertClose, CLI, download, dropFiles, openApp as openPage, readTable, ROOT, SHOTS, startApp, stopApp, waitForLoaded,
} from './harness.mjs';

const EXAMPLE = join(ROOT, 'tests/data/example');
const EXAMPLE_FILES = ['truth.jsonl', 'careful.jsonl', 'eager.json', 'schema.json'];
const EXAMPLE_ARGS = ['--truth', 'truth.jsonl', '--pred', 'careful.jsonl', '--pred', 'eager.json', '--schema', 'schema.json'];

let server;
let browser;
let tmp;

before(async () => {
  ({ server, browser, tmp } = await startApp('fieldscope-html-'));
});

after(() => stopApp({ server, browser, tmp }));

/** `fieldscope eval ARGS --format FORMAT` run in the example's folder (so file names match the page's). */
function cli(args, format) {
  return execFileSync(CLI, ['eval', ...args, '--format', format], { cwd: EXAMPLE, encoding: 'utf8', maxBuffer: 1 << 28 });
}

/** The model table (macro over documents) and the paradox table (micro) against the CLI's JSON report. */
async function assertTablesMatch(page, report, what) {
  assertClose(
    await readTable(page, 'model-table'),
    report.models.map((m) => ({
      model: m.name,
      values: {
        m_total: m.m_total,
        pred_count: m.pred_count,
        truth_count: m.truth_count,
        precision: m.macro_documents.precision,
        recall: m.macro_documents.recall,
        f1: m.macro_documents.f1,
        cost: m.cost,
      },
    })),
    `${what}: model table`,
  );
  assertClose(
    await readTable(page, 'paradox-table'),
    report.models.map((m) => ({
      model: m.name,
      values: {
        precision: m.micro.precision,
        recall: m.micro.recall,
        f1: m.micro.f1,
        accuracy: m.micro.accuracy,
        hallucination_rate: m.hallucination_rate,
        abstention_rate: m.abstention_rate,
      },
    })),
    `${what}: paradox table`,
  );
}

async function exampleFiles() {
  return Promise.all(EXAMPLE_FILES.map(async (name) => ({ name, bytes: await readFile(join(EXAMPLE, name)) })));
}

test('1. the app writes the CLI\'s HTML report, byte for byte, with and without the inputs embedded', async (t) => {
  const { page, assertNoErrors } = await openPage(t, { browser, server });
  await page.click('[data-testid=clear-files]');
  await dropFiles(page, await exampleFiles());
  await waitForLoaded(page, 4, ['careful', 'eager']);

  const plain = await download(page, 'export-html');
  assert.equal(plain.name, 'fieldscope-report.html');
  assert.ok(plain.text === cli(EXAMPLE_ARGS, 'html'), 'the app\'s HTML report = fieldscope eval --format html');
  assert.equal((plain.text.match(/<figure id="chart-/g) ?? []).length, 6, 'every chart');
  assert.ok(!plain.text.includes('<template'), 'nothing embedded without the checkbox');

  await page.check('[data-testid=export-embed-inputs]');
  const embedded = await download(page, 'export-html');
  assert.ok(embedded.text === cli([...EXAMPLE_ARGS, '--embed-inputs'], 'html'), 'with the checkbox = --embed-inputs');
  assert.ok(embedded.text.includes('<template id="fieldscope-inputs" data-encoding="zlib+base64"'));
  assertNoErrors();
});

test('2. a report the CLI wrote with --embed-inputs re-opens in the app with the CLI\'s numbers', async (t) => {
  const { page, assertNoErrors } = await openPage(t, { browser, server });
  // Costs, a preset and a renamed model travel with the report.
  const args = ['--truth', 'truth.jsonl', '--pred', 'cautious=careful.jsonl', '--pred', 'eager.json', '--schema', 'schema.json', '--preset', 'not-found', '--cost', 'cautious=1.25'];
  const html = cli([...args, '--embed-inputs'], 'html');
  const report = JSON.parse(cli(args, 'json'));
  assert.equal(report.config.preset, 'not-found');
  await writeFile(join(tmp, 'shared-report.html'), html);

  // Dropped onto the page showing the built-in example: it replaces it.
  await dropFiles(page, [{ name: 'shared-report.html', bytes: Buffer.from(html) }]);
  await waitForLoaded(page, 4, ['cautious', 'eager']);
  const files = await page.$$eval('[data-testid=file-entry]', (els) =>
    els.map((el) => [el.querySelector('.file-name')?.textContent, el.dataset.role, el.dataset.status]),
  );
  assert.deepEqual(files, [
    ['truth.jsonl', 'truth', 'ok'],
    ['careful.jsonl', 'predictions', 'ok'],
    ['eager.json', 'predictions', 'ok'],
    ['schema.json', 'schema', 'ok'],
  ]);
  assert.deepEqual(
    await page.$$eval('[data-testid=file-entry][data-role=predictions] [data-testid=model-name]', (els) => els.map((e) => e.value)),
    ['cautious', 'eager'],
  );
  assert.match((await page.textContent('[data-testid=summary]')).trim(), /^3 documents · 2 models · preset not-found\b/);
  await assertTablesMatch(page, report, 'the re-opened report');
  assert.equal((await readTable(page, 'model-table'))[0].values.cost, 1.25);

  // A report without its inputs says why it cannot re-open; the page keeps what it shows.
  await dropFiles(page, [{ name: 'plain.html', bytes: Buffer.from(cli(EXAMPLE_ARGS, 'html')) }]);
  await page.waitForFunction(() => /no inputs embedded/.test(document.body.textContent), null, { timeout: 10_000 });
  await waitForLoaded(page, 4, ['cautious', 'eager']);
  assertNoErrors();
});

test('3. the CLI\'s report reads with scripts disabled (screenshot)', async () => {
  const path = join(tmp, 'report.html');
  await writeFile(path, cli([...EXAMPLE_ARGS, '--bootstrap', '200', '--metrics', 'all'], 'html'));
  const context = await browser.newContext({ javaScriptEnabled: false });
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  await page.goto('file://' + path);
  // The six charts of the Charts section and the error types' bars in
  // "Where it fails" (SPEC §9.1).
  assert.equal(await page.locator('figure svg').count(), 7);
  assert.equal(await page.locator('#errors figure svg').count(), 1);
  assert.equal(await page.locator('#bootstrap table tbody tr').count(), 2);
  assert.equal(await page.locator('#literature table tbody tr').count(), 2);
  await page.screenshot({ path: join(SHOTS, 'html-report.png'), fullPage: true });
  assert.deepEqual(requests, ['file://' + path], 'the page loads nothing else');
  await context.close();
});
