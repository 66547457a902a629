// The "Check the truth" panel (SPEC §9.3, issue 31) in headless Chromium:
// files with planted truth errors (two of three models agree on a.total
// 200 and a.items[1].qty 3 against the truth's 100 and 2; all three on a
// name "Zoë Ltd" the truth of b lacks) are dropped; the suspects are
// listed most support first with each model's value; accept one, edit
// one, reject one, undo; every number equals `fieldscope eval
// --corrections` on the same files, corrections.json and the corrected
// truth equal what the CLI reads and `fieldscope correct` writes, and a
// bundle re-opens with the corrections. Screenshots go to
// tests/browser/screenshots/truth-check*.png.
//
// Run (after `trunk build` and `cargo build --bin fieldscope`):
//   node --test tests/browser/truth_check.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, SHOTS, download, dropFiles, openApp, startApp, stopApp, waitForLoaded } from './harness.mjs';

let server;
let browser;
let tmp;

before(async () => {
  ({ server, browser, tmp } = await startApp('fieldscope-truth-'));
});

after(() => stopApp({ server, browser, tmp }));

const TRUTH =
  '{"id":"a","total":100,"items":[{"qty":1,"sku":"X"},{"qty":2,"sku":"Y"}]}\n' +
  '{"id":"b","total":5}\n';
const MODELS = [
  ['m0', 200, 3],
  ['m1', 200, 3],
  ['m2', 300, 4],
];
const NAME = 'Zoë Ltd';

function writeInputs() {
  writeFileSync(join(tmp, 'truth.jsonl'), TRUTH);
  for (const [m, total, qty] of MODELS) {
    writeFileSync(
      join(tmp, `${m}.jsonl`),
      `{"id":"a","total":${total},"items":[{"qty":1,"sku":"X"},{"qty":${qty},"sku":"Y"}]}\n` +
        `{"id":"b","total":5,"name":${JSON.stringify(NAME)}}\n`,
    );
  }
}

const FILES = ['truth.jsonl', 'm0.jsonl', 'm1.jsonl', 'm2.jsonl'];
const PREDS = MODELS.flatMap(([m]) => ['--pred', `${m}.jsonl`]);

/** `fieldscope eval --corrections FILE` (corrections.json unless named; or without) in tmp. */
function cliEval(corrections, file = 'corrections.json') {
  const args = ['eval', '--truth', 'truth.jsonl', ...PREDS];
  if (corrections) {
    writeFileSync(join(tmp, file), JSON.stringify(corrections));
    args.push('--corrections', file);
  }
  return JSON.parse(execFileSync(CLI, args, { cwd: tmp, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** The page's JSON report against the CLI's: every model's scores and counts, the suspects, the warnings. */
async function assertSameNumbers(page, expected, what) {
  const json = JSON.parse((await download(page, 'export-json')).text);
  for (const [i, m] of expected.models.entries()) {
    const got = json.models[i];
    assert.equal(got.name, m.name, what);
    for (const key of ['micro', 'macro_documents', 'macro_fields', 'counts']) {
      assert.deepEqual(got[key], m[key], `${what}: ${m.name} ${key}`);
    }
  }
  assert.deepEqual(json.suspected_truth_errors, expected.suspected_truth_errors, `${what}: suspects`);
  assert.deepEqual(json.warnings, expected.warnings, `${what}: warnings`);
  return json;
}

async function rows(page) {
  return page.$$eval('[data-testid=truth-row]', (trs) =>
    trs.map((tr) => ({
      id: tr.dataset.id,
      field: tr.dataset.field,
      decision: tr.dataset.decision,
      truth: tr.querySelector('[data-testid=truth-value]').dataset.value,
      models: Object.fromEntries([...tr.querySelectorAll('td.truth-model')].map((td) => [td.dataset.model, td.dataset.value])),
    })),
  );
}

const row = (page, id, field) => page.locator(`[data-testid=truth-row][data-id="${id}"][data-field="${field}"]`);

/** Waits until the report is drawn (not evaluating) with `n` truth values corrected. */
async function settled(page, n) {
  await page.waitForFunction(
    (n) => {
      if (document.querySelector('.content')?.getAttribute('aria-busy') === 'true') return false;
      const line = document.querySelector('[data-testid=truth-summary]');
      return n === 0 ? !line : line?.dataset.corrected === String(n);
    },
    n,
    { timeout: 30_000 },
  );
}

test('accept, edit, reject and undo: the numbers and files of the command line', async (t) => {
  writeInputs();
  const { page, assertNoErrors } = await openApp(t, { browser, server });
  await dropFiles(page, FILES.map((name) => ({ name, bytes: readFileSync(join(tmp, name)) })));
  await waitForLoaded(page, 4, ['m0', 'm1', 'm2']);
  await page.waitForSelector('[data-testid=truth-check] [data-testid=truth-row]');

  // The suspects, most support first, each model's value beside the truth.
  const before = cliEval(null);
  await assertSameNumbers(page, before, 'before');
  const listed = await rows(page);
  assert.deepEqual(
    listed.map((r) => [r.id, r.field, r.decision, r.truth]),
    [
      ['b', 'name', 'open', 'null'],
      ['a', 'items[1].qty', 'open', '2'],
      ['a', 'total', 'open', '100'],
    ],
  );
  assert.deepEqual(listed[0].models, { m0: JSON.stringify(NAME), m1: JSON.stringify(NAME), m2: JSON.stringify(NAME) });
  assert.deepEqual(listed[2].models, { m0: '200', m1: '200', m2: '300' });
  // The character diff of a value against the truth (100 → 200).
  assert.equal(await row(page, 'a', 'total').locator('td.truth-model[data-model=m2] ins').count() > 0, true);

  // Accept b.name; edit a.total to 250; reject a.items[1].qty. The 250 is
  // typed before the accept: the panel draws its rows anew after each
  // decision (and again when the document details arrive), and what is
  // typed in a row stays until Set sends it.
  await row(page, 'a', 'total').locator('[data-testid=truth-edit-input]').fill('250');
  await row(page, 'b', 'name').locator('[data-testid=truth-accept]').click();
  await settled(page, 1);
  assert.equal(await row(page, 'a', 'total').locator('[data-testid=truth-edit-input]').inputValue(), '250', 'typed text kept across the re-evaluation');
  await row(page, 'a', 'total').locator('[data-testid=truth-edit]').click();
  await settled(page, 2);
  await row(page, 'a', 'items[1].qty').locator('[data-testid=truth-reject]').click();
  await page.waitForSelector('[data-testid=truth-row][data-field="items[1].qty"][data-decision=rejected]');
  assert.deepEqual(
    (await rows(page)).map((r) => r.decision),
    ['accepted', 'rejected', 'edited'],
  );

  const corrections = [
    { id: 'b', field: 'name', from: null, to: NAME },
    { id: 'a', field: 'total', from: 100, to: 250 },
  ];
  const after = cliEval(corrections);
  const json = await assertSameNumbers(page, after, 'accepted and edited');
  // The summary's line: m0's micro F1 8/13 → (5 exact of 7: P = R = 5/7).
  const line = (await page.textContent('[data-testid=truth-summary]')).trim();
  const f = (x) => x.toFixed(4);
  assert.equal(
    line,
    `2 truth values corrected; micro F1 of m0 moves from ${f(before.models[0].micro.f1)} to ${f(json.models[0].micro.f1)}, ` +
      `of m1 from ${f(before.models[1].micro.f1)} to ${f(json.models[1].micro.f1)}, ` +
      `of m2 from ${f(before.models[2].micro.f1)} to ${f(json.models[2].micro.f1)}`,
  );
  assert.equal(f(before.models[0].micro.f1), f(8 / 13));
  assert.equal(f(json.models[0].micro.f1), f(5 / 7));

  // The downloads: corrections.json is what the CLI read; the corrected
  // truth is `fieldscope correct`'s file, byte for byte.
  const file = await download(page, 'truth-download-corrections');
  assert.equal(file.name, 'corrections.json');
  assert.deepEqual(JSON.parse(file.text), corrections);
  writeFileSync(join(tmp, 'corrections.json'), file.text);
  execFileSync(CLI, ['correct', '--truth', 'truth.jsonl', '--corrections', 'corrections.json', '--out', 'fixed.jsonl'], {
    cwd: tmp,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const truth = await download(page, 'truth-download-truth');
  assert.equal(truth.name, 'truth.corrected.jsonl');
  assert.equal(truth.text, readFileSync(join(tmp, 'fixed.jsonl'), 'utf8'));
  await page.locator('[data-testid=truth-check]').screenshot({ path: join(SHOTS, 'truth-check.png') });
  // The summary and its line about the corrections.
  await page.locator('[data-testid=summary]').scrollIntoViewIfNeeded();
  const top = await page.locator('[data-testid=summary]').boundingBox();
  const bottom = await page.locator('[data-testid=truth-summary]').boundingBox();
  await page.screenshot({
    path: join(SHOTS, 'truth-check-summary.png'),
    clip: { x: top.x, y: top.y, width: Math.max(top.width, bottom.width), height: bottom.y + bottom.height - top.y },
  });

  // Undo: the rejection (no new report: it corrected nothing), then the edit.
  await page.click('[data-testid=truth-undo]');
  await page.waitForSelector('[data-testid=truth-row][data-field="items[1].qty"][data-decision=open]');
  await page.click('[data-testid=truth-undo]');
  await settled(page, 1);
  assert.deepEqual(
    (await rows(page)).map((r) => r.decision),
    ['accepted', 'open', 'open'],
  );
  await assertSameNumbers(page, cliEval(corrections.slice(0, 1)), 'after two undos');

  // A bundle keeps the corrections: a fresh page shows the same numbers
  // and lists each correction for review.
  await row(page, 'a', 'total').locator('[data-testid=truth-accept]').click();
  await settled(page, 2);
  const both = [corrections[0], { id: 'a', field: 'total', from: 100, to: 200 }];
  await assertSameNumbers(page, cliEval(both), 'accepted twice');
  const bundle = await download(page, 'export-bundle');
  assert.deepEqual(JSON.parse(bundle.text).corrections, both);
  const fresh = await openApp(t, { browser, server });
  await dropFiles(fresh.page, [{ name: bundle.name, bytes: Buffer.from(bundle.text) }]);
  await waitForLoaded(fresh.page, 4, ['m0', 'm1', 'm2']);
  await settled(fresh.page, 2);
  await assertSameNumbers(fresh.page, cliEval(both), 'the bundle re-opened');
  // The worker evaluates once more without the corrections: the suspects
  // and the scores before come back, each correction on its suspect.
  await fresh.page.waitForFunction(() => document.querySelector('[data-testid=truth-summary]')?.textContent.includes('moves from'), null, {
    timeout: 30_000,
  });
  assert.deepEqual(
    (await rows(fresh.page)).map((r) => [r.id, r.field, r.decision]),
    [
      ['b', 'name', 'accepted'],
      ['a', 'items[1].qty', 'open'],
      ['a', 'total', 'accepted'],
    ],
  );
  // m0 before: 8/13; after both: 6 of 7 exact (a.items[1].qty still 2
  // against 3): P = R = 6/7.
  assert.ok(
    (await fresh.page.textContent('[data-testid=truth-summary]')).includes(`micro F1 of m0 moves from ${f(8 / 13)} to ${f(6 / 7)}`),
  );
  await fresh.page.locator('[data-testid=truth-check]').screenshot({ path: join(SHOTS, 'truth-check-bundle.png') });
  // A correction reviewed and rejected there: the other stays.
  await row(fresh.page, 'a', 'total').locator('[data-testid=truth-reject]').click();
  await settled(fresh.page, 1);
  await assertSameNumbers(fresh.page, cliEval(both.slice(0, 1)), 'the bundle, one correction rejected');
  fresh.assertNoErrors();
  assertNoErrors();
});

test('an HTML report written with --embed-inputs --corrections re-opens with the corrected scores and the corrections to review', async (t) => {
  writeInputs();
  // The user's own file name: the re-opened report's warnings name it, as the CLI's do.
  const corrections = [{ id: 'a', field: 'items[1].qty', from: 2, to: 3 }];
  writeFileSync(join(tmp, 'label fixes.json'), JSON.stringify(corrections));
  const html = execFileSync(
    CLI,
    ['eval', '--truth', 'truth.jsonl', ...PREDS, '--corrections', 'label fixes.json', '--format', 'html', '--embed-inputs'],
    { cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const { page, assertNoErrors } = await openApp(t, { browser, server });
  await dropFiles(page, [{ name: 'report.html', bytes: html }]);
  await waitForLoaded(page, 4, ['m0', 'm1', 'm2']);
  await settled(page, 1);
  const reopened = await assertSameNumbers(page, cliEval(corrections, 'label fixes.json'), 'the HTML report re-opened');
  assert.match(reopened.warnings[0], /^label fixes\.json: correction 1 /);
  await page.waitForFunction(() => document.querySelector('[data-testid=truth-summary]')?.textContent.includes('moves from'), null, {
    timeout: 30_000,
  });
  assert.deepEqual(
    (await rows(page)).map((r) => [r.id, r.field, r.decision]),
    [
      ['b', 'name', 'open'],
      ['a', 'items[1].qty', 'accepted'],
      ['a', 'total', 'open'],
    ],
  );
  assert.deepEqual((await rows(page))[1].models, { m0: '3', m1: '3', m2: '4' });
  assertNoErrors();
});
