// SPEC §7 in the browser app, used as a person would: the suggestions card
// (§7.4) and its one-click Apply, the type menu of a field row and the
// settings panel's list of typed fields (§7.1), the URL fragment that
// carries them. Every number the page shows is checked against the CLI run
// with the same `--field-type`s on the same files.
//
// Run (after `trunk build` and `cargo build --bin fieldscope`; `bash .ci/test` does both):
//   node --test tests/browser/spec7.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertClose, CLI, dropFiles, openApp as openPage, readTable, ROOT, SHOTS, startApp, stopApp, waitForLoaded,
} from './harness.mjs';

let server;
let browser;
let tmp;

before(async () => {
  ({ server, browser, tmp } = await startApp('fieldscope-spec7-'));
});

after(() => stopApp({ server, browser, tmp }));

/**
 * Six invoices whose amounts and due dates the truth keeps as strings and
 * the model writes as numbers or in other formats. Worked by hand: as a
 * number, `amount` is exact in d1–d5 ("905,179" = 905179, "12,50" = 12.5,
 * "$1,500.00" = 1500) and incorrect in d6 (41 ≠ 42); as a date, `due` is
 * exact but in d5 (26 ≠ 25 May).
 */
const TRUTH = [
  { id: 'd1', amount: '1108605.0', due: '2023-01-05', name: 'Acme Ltd' },
  { id: 'd2', amount: '905179.0', due: '2023-02-10', name: 'Globex' },
  { id: 'd3', amount: '698991.0', due: '2023-03-15', name: 'Initech' },
  { id: 'd4', amount: '12.5', due: '2023-04-20', name: 'Umbrella' },
  { id: 'd5', amount: '1500', due: '2023-05-25', name: 'Hooli' },
  { id: 'd6', amount: '42.0', due: '2023-06-30', name: 'Stark' },
];
const MODEL = [
  { id: 'd1', amount: 1108605, due: '05.01.2023', name: 'Acme Ltd' },
  { id: 'd2', amount: '905,179', due: '10/02/2023', name: 'Globex' },
  { id: 'd3', amount: 698991, due: '2023-03-15', name: 'Initech Inc' },
  { id: 'd4', amount: '12,50', due: '20.04.2023', name: 'Umbrella' },
  { id: 'd5', amount: '$1,500.00', due: '2023-05-26', name: 'Hooli' },
  { id: 'd6', amount: 41, due: '30/06/2023', name: 'Stark' },
];

const jsonl = (records) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

function cliJson(args, cwd) {
  return JSON.parse(execFileSync(CLI, ['eval', ...args, '--format', 'json'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
}

/** The CLI's report on the invoices with `types` ({ path: type }) as --field-type. */
function invoicesReport(types) {
  const typeArgs = Object.entries(types).flatMap(([p, t]) => ['--field-type', `${p}=${t}`]);
  return cliJson(['--truth', 'truth.jsonl', '--pred', 'm.jsonl', ...typeArgs], tmp);
}

/** The model table and the paradox table (micro, accuracy included) as the CLI's report says. */
async function assertScoresMatch(page, report, what) {
  assertClose(
    await readTable(page, 'model-table'),
    report.models.map((m) => ({
      model: m.name,
      values: {
        m_total: m.m_total, pred_count: m.pred_count, truth_count: m.truth_count,
        precision: m.macro_documents.precision, recall: m.macro_documents.recall, f1: m.macro_documents.f1, cost: m.cost,
      },
    })),
    `${what}: model table`,
  );
  assertClose(
    await readTable(page, 'paradox-table'),
    report.models.map((m) => ({
      model: m.name,
      values: {
        precision: m.micro.precision, recall: m.micro.recall, f1: m.micro.f1, accuracy: m.micro.accuracy,
        hallucination_rate: m.hallucination_rate, abstention_rate: m.abstention_rate,
      },
    })),
    `${what}: paradox table`,
  );
}

/** A field row of the field table: its type menu's value and its six counts. */
async function fieldRow(page, field) {
  return page.$eval(`[data-testid=field-table] tr[data-field="${field}"]`, (tr) => {
    const n = [...tr.querySelectorAll('td.num')].map((td) => Number(td.textContent));
    return {
      type: tr.querySelector('[data-testid=field-type]').value,
      counts: { exact: n[0], partial: n[1], incorrect: n[2], missed: n[3], spurious: n[4], true_negative: n[5] },
    };
  });
}

/** The CLI report's counts of `field` for its first model. */
function cliCounts(report, field) {
  const c = report.models[0].fields.find((f) => f.field === field).counts;
  return { exact: c.exact, partial: c.partial, incorrect: c.incorrect, missed: c.missed, spurious: c.spurious, true_negative: c.true_negative };
}

async function suggestions(page) {
  return page.$$eval('[data-testid=suggestion]', (els) => els.map((el) => ({ field: el.dataset.field, type: el.dataset.type, share: Number(el.dataset.share) })));
}

async function typedFields(page) {
  return page.$$eval('[data-testid=typed-field]', (els) =>
    els.map((el) => [el.dataset.field, el.querySelector('[data-testid=field-type]').value]),
  );
}

/** Waits until the field row of `field` shows `exact` exact outcomes. */
async function waitForExact(page, field, exact) {
  await page.waitForFunction(
    ({ field, exact }) => {
      const tr = document.querySelector(`[data-testid=field-table] tr[data-field="${field}"]`);
      return tr && Number(tr.querySelector('td.num')?.textContent) === exact;
    },
    { field, exact },
    { timeout: 20_000 },
  );
}

async function dropInvoices(page) {
  writeFileSync(join(tmp, 'truth.jsonl'), jsonl(TRUTH));
  writeFileSync(join(tmp, 'm.jsonl'), jsonl(MODEL));
  await dropFiles(page, ['truth.jsonl', 'm.jsonl'].map((name) => ({ name, bytes: readFileSync(join(tmp, name)) })));
  await waitForLoaded(page, 2, ['m']);
}

test('suggestions, the type menu and the typed-field list set field_types, as the CLI computes them', async (t) => {
  const { page, assertNoErrors } = await openApp(t);
  await dropInvoices(page);

  // §7.4: both string-kept fields are suggested, each read entirely.
  assert.deepEqual(await suggestions(page), [
    { field: 'amount', type: 'number', share: 1 },
    { field: 'due', type: 'date', share: 1 },
  ]);
  assert.equal((await page.textContent('[data-testid=suggestions-link]')).trim(), '2 suggestions');
  assert.equal(await page.locator('[data-testid=apply-all-suggestions]').count(), 1);
  const plain = invoicesReport({});
  assert.deepEqual(plain.suggestions.map((s) => [s.field, s.type, s.share]), [['amount', 'number', 1], ['due', 'date', 1]]);
  await assertScoresMatch(page, plain, 'no field types');
  assert.deepEqual(await fieldRow(page, 'amount'), { type: '', counts: cliCounts(plain, 'amount') });
  assert.deepEqual(await typedFields(page), []);
  await page.locator('[data-testid=suggestions]').screenshot({ path: join(SHOTS, 'spec7-suggestions.png') });

  // §7.1: the type menu of the `amount` row.
  await page.selectOption('[data-testid=field-table] tr[data-field="amount"] [data-testid=field-type]', 'number');
  await waitForExact(page, 'amount', 5);
  const amountNumber = invoicesReport({ amount: 'number' });
  assert.deepEqual(cliCounts(amountNumber, 'amount'), { exact: 5, partial: 0, incorrect: 1, missed: 0, spurious: 0, true_negative: 0 });
  assert.deepEqual(await fieldRow(page, 'amount'), { type: 'number', counts: cliCounts(amountNumber, 'amount') });
  await assertScoresMatch(page, amountNumber, 'amount as a number');
  assert.deepEqual(await typedFields(page), [['amount', 'number']]);
  // A typed field is no longer suggested.
  assert.deepEqual((await suggestions(page)).map((s) => s.field), ['due']);
  assert.equal(await page.locator('[data-testid=apply-all-suggestions]').count(), 0);
  // The URL fragment carries the type.
  const fragment = decodeURIComponent(new URL(page.url()).hash);
  assert.ok(fragment.includes('"field_types":{"amount":"number"}'), fragment);

  // §7.4: one click applies the remaining suggestion.
  await page.click('[data-testid=suggestion][data-field=due] [data-testid=apply-suggestion]');
  await waitForExact(page, 'due', 5);
  const both = invoicesReport({ amount: 'number', due: 'date' });
  assert.deepEqual(cliCounts(both, 'due'), { exact: 5, partial: 0, incorrect: 1, missed: 0, spurious: 0, true_negative: 0 });
  await assertScoresMatch(page, both, 'amount as a number, due as a date');
  assert.deepEqual(await typedFields(page), [['amount', 'number'], ['due', 'date']]);
  assert.equal(await page.locator('[data-testid=suggestions]').count(), 0);
  assert.equal(await page.locator('[data-testid=suggestions-link]').count(), 0);
  await page.locator('[data-testid=field-table]').screenshot({ path: join(SHOTS, 'spec7-types.png') });

  // The settings list: × clears `amount`; a path typed by name comes back.
  await page.click('[data-testid=typed-field][data-field=amount] [data-testid=clear-field-type]');
  await waitForExact(page, 'amount', cliCounts(plain, 'amount').exact);
  await assertScoresMatch(page, invoicesReport({ due: 'date' }), 'due as a date');
  assert.deepEqual(await typedFields(page), [['due', 'date']]);
  await page.fill('[data-testid=new-field-type-path]', 'name');
  await page.selectOption('[data-testid=new-field-type]', 'string');
  await page.click('[data-testid=add-field-type]');
  await page.waitForSelector('[data-testid=typed-field][data-field=name]');
  assert.deepEqual(await typedFields(page), [['due', 'date'], ['name', 'string']]);
  await assertScoresMatch(page, invoicesReport({ due: 'date', name: 'string' }), 'due as a date, name as a string');

  // "Apply all" after a reset gives both suggestions at once.
  await page.click('[data-testid=reset-settings]');
  await page.waitForSelector('[data-testid=apply-all-suggestions]');
  await page.click('[data-testid=apply-all-suggestions]');
  await waitForExact(page, 'due', 5);
  await waitForExact(page, 'amount', 5);
  await assertScoresMatch(page, both, 'after Apply all');
  await page.screenshot({ path: join(SHOTS, 'spec7-settings.png') });
  assertNoErrors();
});

test('a link with field types in its fragment opens with them set', async (t) => {
  const settings = { field_types: { 'vendor.name': 'string', total: 'number' } };
  const url = `${server.url}/#settings=${encodeURIComponent(JSON.stringify(settings))}`;
  const { page, assertNoErrors } = await openApp(t, { url });
  assert.deepEqual(await typedFields(page), [['total', 'number'], ['vendor.name', 'string']]);
  assert.equal(await page.$eval('[data-testid=field-table] tr[data-field="total"] [data-testid=field-type]', (s) => s.value), 'number');
  assertNoErrors();
});

/**
 * SPEC §7.2: two document types, each with its schema, named by the
 * truth's `kind` (" invoice " trimmed); d4 names none. The receipt schema
 * requires `store` to be a string, so m's d3 (`store`: 7) is invalid.
 */
const TYPED_TRUTH = [
  { id: 'd1', kind: ' invoice ', total: 10, due: '2023-01-05' },
  { id: 'd2', kind: 'invoice', total: 20, due: '2023-02-01' },
  { id: 'd3', kind: 'receipt', store: 'Aldi', paid: 4.5 },
  { id: 'd4', kind: 'memo', note: 'hello' },
];
const TYPED_MODEL = [
  { id: 'd1', kind: 'invoice', total: 10, due: '05.01.2023' },
  { id: 'd2', kind: 'invoice', total: 21 },
  { id: 'd3', kind: 'receipt', store: 7, paid: 4.5 },
  { id: 'd4', kind: 'memo', note: 'hello' },
];
const SCHEMAS = {
  'invoice.json': { type: 'object', properties: { kind: { type: 'string' }, total: { type: 'number' }, due: { type: 'string', format: 'date' }, vat: { type: 'number' } } },
  'receipt.json': { type: 'object', properties: { kind: { type: 'string' }, store: { type: 'string' }, paid: { type: 'number' } } },
};

test('several schemas: a selector picks schema_by, each schema says how many documents it serves, the numbers are the CLI’s', async (t) => {
  const dir = join(tmp, 'typed');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'truth.jsonl'), jsonl(TYPED_TRUTH));
  writeFileSync(join(dir, 'm.jsonl'), jsonl(TYPED_MODEL));
  for (const [name, schema] of Object.entries(SCHEMAS)) writeFileSync(join(dir, name), JSON.stringify(schema));
  const { page, assertNoErrors } = await openApp(t);
  const names = ['truth.jsonl', 'm.jsonl', 'invoice.json', 'receipt.json'];
  await dropFiles(page, names.map((name) => ({ name, bytes: readFileSync(join(dir, name)) })));
  // Two schemas and no schema_by: no report, and the page says where to choose.
  await page.waitForSelector('[data-testid=schema-by-panel]');
  await page.waitForFunction(() => /2 schemas are loaded/.test(document.querySelector('[data-testid=no-report]')?.textContent ?? ''));
  assert.deepEqual(await page.$$eval('[data-testid=schema-by] option', (os) => os.map((o) => o.value)), ['', 'id', 'due', 'kind', 'note', 'paid', 'store', 'total']);
  await page.selectOption('[data-testid=schema-by]', 'kind');
  await waitForLoaded(page, 4, ['m']);
  const served = await page.$$eval('[data-testid=file-entry][data-role=schema]', (els) =>
    els.map((el) => [el.querySelector('.file-name').textContent, Number(el.querySelector('[data-testid=schema-serves]').dataset.count)]),
  );
  assert.deepEqual(served, [['invoice.json', 2], ['receipt.json', 1]]);
  assert.match(await page.textContent('[data-testid=schema-unserved]'), /^1 document names no loaded schema \(d4\)/);
  const report = cliJson(['--truth', 'truth.jsonl', '--pred', 'm.jsonl', '--schema', 'invoice.json', '--schema', 'receipt.json', '--schema-by', 'kind'], dir);
  // By hand: d3's store 7 breaks the receipt schema; the others are valid.
  assert.equal(report.models[0].schema_validity_rate, 0.75);
  await assertScoresMatch(page, report, 'several schemas');
  const metrics = ['document_extraction_score', 'numeric_precision', 'field_f1_partial', 'schema_validity_rate', 'exact_match_rate', 'cer'];
  assertClose(
    await readTable(page, 'document-scores'),
    report.models.map((m) => ({ model: m.name, values: Object.fromEntries(metrics.map((k) => [k, m[k]])) })),
    'document-level scores with several schemas',
  );
  // Own field sets: `vat` (only in the invoice schema) is compared in d1
  // and d2 alone — two true negatives, none from the receipt or the memo.
  assert.deepEqual((await fieldRow(page, 'vat')).counts, cliCounts(report, 'vat'));
  assert.equal(cliCounts(report, 'vat').true_negative, 2);
  for (const field of ['kind', 'total', 'due', 'store', 'paid', 'note']) {
    assert.deepEqual((await fieldRow(page, field)).counts, cliCounts(report, field), field);
  }
  await page.locator('aside.sidebar').screenshot({ path: join(SHOTS, 'spec7-schemas.png') });
  // schema_by by id: no document is named by its id, so none has a schema.
  await page.selectOption('[data-testid=schema-by]', 'id');
  await page.waitForFunction(() => document.querySelector('[data-testid=schema-unserved]')?.dataset.count === '4');
  assertNoErrors();
});

const FINRAG = join(ROOT, '..', 'shared', 'data', 'finrag-revenue');

test('real data (finrag-revenue): Apply all gives the CLI numbers with the suggested types', async (t) => {
  if (!existsSync(join(FINRAG, 'truth.jsonl'))) {
    t.skip(`${FINRAG} is missing`);
    return;
  }
  const { page, assertNoErrors } = await openApp(t);
  const names = ['truth.jsonl', 'gpt-4o.jsonl', 'claude-3-opus-20240229.jsonl'];
  await dropFiles(page, names.map((name) => ({ name, bytes: readFileSync(join(FINRAG, name)) })));
  await waitForLoaded(page, 3, ['gpt-4o', 'claude-3-opus-20240229']);
  const args = ['--truth', 'truth.jsonl', '--pred', 'gpt-4o.jsonl', '--pred', 'claude-3-opus-20240229.jsonl'];
  const before = cliJson(args, FINRAG);
  const shown = await suggestions(page);
  assert.deepEqual(shown.map((s) => s.field), ['answers[].duration', 'answers[].main_question']);
  assert.deepEqual(shown, before.suggestions.map((s) => ({ field: s.field, type: s.type, share: s.share })));
  await assertScoresMatch(page, before, 'finrag without field types');
  await page.click('[data-testid=apply-all-suggestions]');
  await page.waitForSelector('[data-testid=suggestions]', { state: 'detached' });
  const typeArgs = shown.flatMap((s) => ['--field-type', `${s.field}=${s.type}`]);
  const after = cliJson([...args, ...typeArgs], FINRAG);
  await page.waitForFunction(
    (f1) => Number(document.querySelector('[data-testid=paradox-table] tr[data-model] td[data-metric=f1]')?.dataset.value) === f1,
    after.models[0].micro.f1,
    { timeout: 20_000 },
  );
  await assertScoresMatch(page, after, 'finrag with the suggested field types');
  assert.ok(after.models[0].micro.f1 > before.models[0].micro.f1 + 0.1, 'the types raise gpt-4o’s micro F1');
  await page.screenshot({ path: join(SHOTS, 'spec7-finrag.png'), fullPage: true });
  assertNoErrors();
});

function openApp(t, options) {
  return openPage(t, { browser, server }, options);
}
