// The "Where it fails" view (SPEC §9.1–§9.2, issue 30) in headless Chromium:
//  1. on first load the built-in example (`fieldscope synth --documents 50
//     --seed 19 --paradox --vendor-country` with its config.json, sliced by
//     vendor_country) shows each model's error types as stacked bars, and
//     per field, with the CLI's counts; every slice of every model with the
//     CLI's documents, F1, δ, p and p (Holm); good's weak slice
//     (vendor_country = DE) in one sentence with the CLI's numbers;
//  2. a click on a segment (good's `wrong` errors) filters the document
//     browser to the documents the CLI's --details give that error type;
//     a click on the DE slice to the truth's German invoices;
//  3. the slice_by picker writes `slice_by` to the URL fragment and the
//     slices then are the CLI's with --slice-by;
//  4. a swapped value shows in the document view as "value of `due_date`
//     put in `invoice_date`" (a small hand-made dataset, as the CLI types it).
// Screenshots go to tests/browser/screenshots/where-*.png.
//
// Run (after `trunk build` and `cargo build --bin fieldscope`):
//   node --test tests/browser/where_it_fails.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BUILT_IN_ARGS, CLI, SHOTS, assertClose, dropFiles, openApp as openPage, startApp, stopApp, waitForLoaded, writeBuiltIn,
} from './harness.mjs';

let server;
let browser;
let tmp;

before(async () => {
  ({ server, browser, tmp } = await startApp('fieldscope-where-'));
  mkdirSync(SHOTS, { recursive: true });
});

after(() => stopApp({ server, browser, tmp }));

function openApp(t, options) {
  return openPage(t, { browser, server }, options);
}

/** `fieldscope eval … --format json` in `cwd`. */
function cliJson(args, cwd) {
  return JSON.parse(execFileSync(CLI, ['eval', ...args, '--format', 'json'], { cwd, encoding: 'utf8', maxBuffer: 1 << 26 }));
}

/** The built-in example's files and the CLI's report (with details) on them. */
function builtIn() {
  const dir = join(tmp, 'example50');
  writeBuiltIn(dir);
  return { dir, report: cliJson([...BUILT_IN_ARGS, '--details'], dir) };
}

/** Every segment drawn: { model, field, error, count }. */
function readSegments(page) {
  return page.$$eval('[data-testid=error-segment]', (els) => els.map((e) => ({
    model: Number(e.dataset.modelIndex),
    field: e.dataset.field,
    error: e.dataset.error,
    count: Number(e.dataset.count),
  })));
}

/** Every slice table: [{ model, rows: [{ key, value, documents, f1, delta, p_value, p_holm, weak }] }]. */
function readSlices(page) {
  return page.$$eval('[data-testid=slice-table]', (tables) => tables.map((t) => ({
    model: t.dataset.model,
    rows: [...t.querySelectorAll('tbody tr')].map((tr) => {
      const v = (m) => tr.querySelector(`td[data-metric=${m}]`).dataset.value;
      const num = (m) => (v(m) === 'null' ? null : Number(v(m)));
      return {
        key: tr.dataset.key,
        value: JSON.parse(tr.dataset.value),
        documents: num('documents'),
        f1: num('f1'),
        delta: num('delta'),
        p_value: num('p_value'),
        p_holm: num('p_holm'),
        weak: v('weak') === 'true',
      };
    }),
  })));
}

/** The slices the CLI report has, in the table's form. */
function expectedSlices(report) {
  return report.slices.models.map((m) => ({
    model: m.name,
    rows: m.slices.map((s) => ({
      key: s.key, value: s.value, documents: s.documents, f1: s.micro.f1, delta: s.delta, p_value: s.p_value, p_holm: s.p_holm, weak: s.weak,
    })),
  }));
}

/** The ids the document browser lists (every page). */
async function listedIds(page) {
  const card = page.locator('[data-testid=document-browser]');
  const ids = [];
  for (;;) {
    ids.push(...await card.locator('tbody tr[data-doc]').evaluateAll((trs) => trs.map((tr) => tr.dataset.doc)));
    const next = card.locator('.pager button', { hasText: 'Next' });
    if (await next.isDisabled()) return ids;
    await next.click();
  }
}

/** The settings in the page's URL fragment. */
function fragmentSettings(page) {
  const hash = new URL(page.url()).hash.slice(1);
  const text = decodeURIComponent(hash);
  assert.ok(text.startsWith('settings='), `fragment: ${text}`);
  return JSON.parse(text.slice('settings='.length));
}

test('1–3. the example: bars, slices and the weak slice equal the CLI; segments and slices filter the documents; the picker writes the fragment', async (t) => {
  const { dir, report } = builtIn();
  const { page, assertNoErrors } = await openApp(t);
  const view = page.locator('[data-testid=where-it-fails]');
  await view.waitFor();
  // The documents' details are in (the browser lists them).
  await page.locator('[data-testid=document-browser] tbody tr[data-doc]').first().waitFor({ timeout: 30_000 });

  // 1. The bars: every non-zero count of every model, and of every field.
  // A model's bars per field are drawn when its section is first opened
  // (issue 34): none before; open each, read, close them again.
  assert.equal(await view.locator('[data-testid=field-errors] [data-testid=error-segment]').count(), 0, 'closed sections draw no bars');
  const summaries = await view.locator('[data-testid=field-errors] summary').all();
  for (const summary of summaries) await summary.click();
  const segments = await readSegments(page);
  for (const summary of summaries) await summary.click();
  const expected = [];
  for (const [i, m] of report.models.entries()) {
    for (const [error, count] of Object.entries(m.errors)) if (count > 0) expected.push({ model: i, field: '', error, count });
  }
  for (const [i, m] of report.models.entries()) {
    for (const f of m.fields) {
      for (const [error, count] of Object.entries(f.errors)) if (count > 0) expected.push({ model: i, field: f.field, error, count });
    }
  }
  assert.deepEqual(segments, expected, 'segments = the CLI report\'s errors (models, then fields)');
  // good: 2 near miss, 44 wrong, 93 missed, 50 spurious (the CLI's).
  assert.deepEqual(report.models[0].errors, { format: 0, scale: 0, swapped: 0, near_miss: 2, wrong: 44, missed: 93, spurious: 50 });
  const label = await view.locator('[data-testid=error-segment][data-model-index="0"][data-field=""][data-error=wrong]').getAttribute('aria-label');
  assert.equal(label, 'good: 44 wrong errors (23.3 %), show the documents'); // 44 / 189 = 0.2328

  // The slices: every row of every model, in the report's order.
  assertClose(await readSlices(page), expectedSlices(report), 'slice tables');
  const sentences = await view.locator('[data-testid=weak-slice-sentence]').allTextContents();
  const de = report.slices.models[0].slices[0];
  assert.equal(de.value, 'DE');
  assert.ok(de.weak);
  const p = de.p_holm < 0.0005 ? 'p < 0.001' : `p = ${de.p_holm.toFixed(3)}`;
  // (The condition is set as code: no backticks on the page.)
  assert.deepEqual(sentences, [
    `On vendor_country = DE (${de.documents} documents) good's F1 is ${de.micro.f1.toFixed(2)} against ${(de.micro.f1 + de.delta).toFixed(2)} elsewhere; ${p} after Holm.`,
  ]);
  // By hand from the CLI's report: 12 documents, 0.90 against 0.95, p = 0.006.
  assert.equal(sentences[0], 'On vendor_country = DE (12 documents) good\'s F1 is 0.90 against 0.95 elsewhere; p = 0.006 after Holm.');
  await view.screenshot({ path: join(SHOTS, 'where-view.png') });

  // 2. A segment: good's wrong errors → the documents with a wrong value.
  const wrongIds = report.models[0].document_details
    .filter((d) => d.fields.some((f) => f.error_type === 'wrong'))
    .map((d) => d.id);
  assert.ok(wrongIds.length > 0);
  await view.locator('[data-testid=error-segment][data-model-index="0"][data-field=""][data-error=wrong]').click();
  const browserCard = page.locator('[data-testid=document-browser]');
  await browserCard.locator('[data-testid=doc-narrowing]').waitFor();
  assert.equal((await browserCard.locator('[data-testid=doc-narrowing]').textContent()).trim(), 'Only the documents of wrong errors show all');
  assert.equal(await browserCard.locator('[data-testid=doc-model]').inputValue(), '0');
  assert.equal((await browserCard.locator('[data-testid=doc-count]').textContent()).trim(), `${wrongIds.length} documents`);
  assert.deepEqual(await listedIds(page), wrongIds);
  await browserCard.screenshot({ path: join(SHOTS, 'where-segment-documents.png') });

  // A per-field segment sets the field filter too: aggressive's 3 missed
  // totals (the CLI's).
  const aggressive = report.models[2];
  const field = aggressive.fields.find((f) => f.field === 'total');
  assert.equal(field.errors.missed, 3);
  await view.locator('[data-testid=field-errors][data-model=aggressive] summary').click();
  await view.locator(`[data-testid=error-segment][data-model-index="2"][data-field="${field.field}"][data-error=missed]`).click();
  await page.waitForFunction((f) => document.querySelector('[data-testid=doc-field]').value === f, field.field);
  const missedIds = aggressive.document_details
    .filter((d) => d.fields.some((f) => f.field === field.field && f.error_type === 'missed'))
    .map((d) => d.id);
  assert.equal(await browserCard.locator('[data-testid=doc-model]').inputValue(), '2');
  assert.equal(missedIds.length, 3);
  assert.deepEqual(await listedIds(page), missedIds);

  // A set field's segment (`codes`, SPEC §3.3): its missed elements have
  // no error type of their own in the details, yet the segment lists the
  // documents with at least one: a missed or incorrect set, or a partial
  // one with a truth code the prediction lacks (codes compare trimmed and
  // case-folded).
  const setModel = report.models.findIndex((m) => m.fields.find((f) => f.field === 'codes')?.errors.missed > 0);
  assert.ok(setModel >= 0, 'a model misses codes');
  const norm = (x) => String(x).trim().toLowerCase();
  const codesMissed = report.models[setModel].document_details
    .filter((d) => d.fields.some((f) => f.field === 'codes' && (
      f.outcome === 'missed' || f.outcome === 'incorrect'
      || (f.outcome === 'partial' && f.truth.some((t) => !f.prediction.map(norm).includes(norm(t)))))))
    .map((d) => d.id);
  assert.ok(codesMissed.length > 0);
  const setName = report.models[setModel].name;
  await view.locator(`[data-testid=field-errors][data-model=${setName}] summary`).click();
  await view.locator(`[data-testid=error-segment][data-model-index="${setModel}"][data-field="codes"][data-error=missed]`).click();
  await page.waitForFunction((n) => document.querySelector('[data-testid=doc-field]').value === 'codes' && document.querySelector('[data-testid=doc-count]')?.textContent.trim() === `${n} documents`, codesMissed.length);
  assert.deepEqual(await listedIds(page), codesMissed);

  // A slice: good's DE → the truth's German invoices.
  const truth = readFileSync(join(dir, 'truth.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const german = truth.filter((r) => r.vendor_country === 'DE').map((r) => r.id);
  assert.equal(german.length, 12);
  await view.locator('[data-testid=slice-table][data-model=good] tr[data-value="\\"DE\\""] [data-testid=slice-documents]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=doc-narrowing]')?.textContent.includes('slice vendor_country = DE'));
  assert.equal(await browserCard.locator('[data-testid=doc-model]').inputValue(), '0');
  assert.equal(await browserCard.locator('[data-testid=doc-field]').inputValue(), '');
  assert.deepEqual(await listedIds(page), german);
  await browserCard.screenshot({ path: join(SHOTS, 'where-slice-documents.png') });
  // "show all" lifts it: all 50 again.
  await browserCard.locator('[data-testid=doc-narrowing-clear]').click();
  assert.equal((await browserCard.locator('[data-testid=doc-count]').textContent()).trim(), '50 documents');

  // 3. The picker: tick _items, then untick vendor_country.
  assert.deepEqual(await view.locator('[data-testid=slice-key]:checked').evaluateAll((els) => els.map((e) => e.dataset.key)), ['vendor_country']);
  await view.locator('[data-testid=slice-key][data-key=_items]').check();
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=slice-table] tbody tr')].some((tr) => tr.dataset.key === '_items'));
  assert.deepEqual(fragmentSettings(page), { slice_by: ['vendor_country', '_items'] });
  await page.locator('[data-testid=where-it-fails] [data-testid=slice-key][data-key=vendor_country]').uncheck();
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=slice-table] tbody tr')].every((tr) => tr.dataset.key === '_items'));
  assert.deepEqual(fragmentSettings(page), { slice_by: ['_items'] });
  const byItems = cliJson([...BUILT_IN_ARGS, '--slice-by', '_items'], dir);
  assertClose(await readSlices(page), expectedSlices(byItems), 'slices by _items');
  assert.deepEqual(byItems.slices.by, ['_items']);
  await page.locator('[data-testid=where-it-fails]').screenshot({ path: join(SHOTS, 'where-by-items.png') });

  // The link reproduces the view: a fresh page with that fragment.
  const again = await openApp(t, { url: page.url() });
  await again.page.waitForFunction(() => [...document.querySelectorAll('[data-testid=slice-table] tbody tr')].some((tr) => tr.dataset.key === '_items'));
  assert.deepEqual(await again.page.locator('[data-testid=slice-key]:checked').evaluateAll((els) => els.map((e) => e.dataset.key)), ['_items']);
  assertClose(await readSlices(again.page), expectedSlices(byItems), 'slices by _items, from the link');
  again.assertNoErrors();
  assertNoErrors();
});

test('4. a swapped value shows whose value it is, as the CLI types it', async (t) => {
  const dir = join(tmp, 'swapped');
  mkdirSync(dir, { recursive: true });
  const truth = [
    { id: 'a1', invoice_date: '2025-01-15', due_date: '2024-12-31', vendor: 'Ünïcødé GmbH' },
    { id: 'a2', invoice_date: '2025-03-01', due_date: '2025-04-01', vendor: 'Acme' },
  ];
  const pred = [
    { id: 'a1', invoice_date: '2024-12-31', due_date: '2024-12-31', vendor: 'Ünïcødé GmbH' },
    { id: 'a2', invoice_date: '2025-03-01', due_date: '2025-04-01', vendor: 'Acme' },
  ];
  const jsonl = (rows) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  writeFileSync(join(dir, 'truth.jsonl'), jsonl(truth));
  writeFileSync(join(dir, 'm.jsonl'), jsonl(pred));
  const report = cliJson(['--truth', 'truth.jsonl', '--pred', 'm.jsonl', '--details'], dir);
  const swapped = report.models[0].document_details[0].fields.find((f) => f.error_type === 'swapped');
  assert.deepEqual([swapped.field, swapped.belongs_to], ['invoice_date', 'due_date']);

  const { page, assertNoErrors } = await openApp(t);
  // A drop replaces the example's files.
  await dropFiles(page, [
    { name: 'truth.jsonl', bytes: Buffer.from(jsonl(truth)) },
    { name: 'm.jsonl', bytes: Buffer.from(jsonl(pred)) },
  ]);
  await waitForLoaded(page, 2, ['m']);
  const view = page.locator('[data-testid=where-it-fails]');
  // One swapped error: a bar of one segment.
  const segments = await readSegments(page);
  assert.deepEqual(segments.filter((s) => s.field === ''), [{ model: 0, field: '', error: 'swapped', count: 1 }]);
  // Its segment lists the one document; open it.
  await view.locator('[data-testid=error-segment][data-field=""][data-error=swapped]').click();
  const card = page.locator('[data-testid=document-browser]');
  await card.locator('[data-testid=doc-narrowing]').waitFor();
  assert.deepEqual(await listedIds(page), ['a1']);
  await card.locator('tbody tr[data-doc=a1] button').click();
  const note = page.locator('[data-testid=document-detail] [data-testid=swapped-note]');
  assert.equal(await note.textContent(), 'value of due_date put in invoice_date');
  assert.deepEqual(await note.locator('code').allTextContents(), ['due_date', 'invoice_date']);
  assert.equal(await page.locator('[data-testid=document-detail] td[data-error-type=swapped]').count(), 1);
  await page.locator('[data-testid=document-detail]').screenshot({ path: join(SHOTS, 'where-swapped.png') });
  // No slice_by: the picker, and no slice table.
  assert.equal(await view.locator('[data-testid=slice-table]').count(), 0);
  assert.equal(await view.locator('[data-testid=no-slices]').count(), 1);
  assertNoErrors();
});
