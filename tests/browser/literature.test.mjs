// End-to-end test of the app's literature panel (ANLS*, nTED, Donut F1) in
// headless Chromium: the page computes them on request, a slice at a time
// with progress and cancel, and shows the numbers of
// `fieldscope eval --metrics anls_star,nted,donut_f1` on the same files
// (to 1e-12); once computed they are in the Markdown, LaTeX and HTML
// exports exactly as the CLI prints them.
//
// Run (after `trunk build` and `cargo build --bin fieldscope`; `bash .ci/test` does both):
//   node --test tests/browser/literature.test.mjs
// Same setup as app.test.mjs (playwright-core in .tools/, /usr/bin/chromium).
// The screenshot goes to tests/browser/screenshots/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST } from './server.mjs';
import { BUILT_IN_ARGS, openApp as openPage, startApp, startThen, stopApp, writeBuiltIn } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const EXAMPLE = join(ROOT, 'tests/data/example');
const SHOTS = join(HERE, 'screenshots');
const CLI = join(ROOT, 'target/debug/fieldscope');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const TOLERANCE = 1e-12;
const METRICS = ['--metrics', 'anls_star,nted,donut_f1'];


let server;
let browser;
let tmp;

before(async () => {
  ({ server, browser, tmp } = await startApp('fieldscope-literature-'));
});

after(() => stopApp({ server, browser, tmp }));

// ---------------------------------------------------------------- helpers

function cli(args, format, cwd) {
  return execFileSync(CLI, ['eval', ...args, '--format', format], { cwd, encoding: 'utf8' });
}

/** A fresh page with the app rendered (harness.mjs). */
function openApp(t) {
  return openPage(t, { browser, server });
}

/** Replaces the loaded files by `names` from `dir`, dropped on the page. */
async function dropFiles(page, dir, names, models) {
  await page.click('[data-testid=clear-files]');
  await page.waitForSelector('[data-testid=no-report]');
  const files = await Promise.all(names.map(async (name) => ({ name, b64: (await readFile(join(dir, name))).toString('base64') })));
  const dataTransfer = await page.evaluateHandle((files) => {
    const dt = new DataTransfer();
    for (const f of files) {
      const bytes = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: 'application/json' }));
    }
    return dt;
  }, files);
  for (const type of ['dragenter', 'dragover', 'drop']) await page.dispatchEvent('[data-testid=drop-zone]', type, { dataTransfer });
  await dataTransfer.dispose();
  await page.waitForFunction(
    ({ n, models }) =>
      !document.querySelector('[data-testid=validity-pending]') &&
      document.querySelectorAll('[data-testid=file-entry]').length === n &&
      JSON.stringify([...document.querySelectorAll('[data-testid=model-table] tbody tr[data-model]')].map((r) => r.dataset.model)) ===
        JSON.stringify(models),
    { n: names.length, models },
    { timeout: 30_000 },
  );
}

/** The literature table: [{ model, values: { metric: number|null } }]. */
async function readLiterature(page) {
  const rows = await page.$$eval('[data-testid=literature-table] tbody tr[data-model]', (trs) =>
    trs.map((tr) => ({
      model: tr.dataset.model,
      values: Object.fromEntries([...tr.querySelectorAll('td[data-metric]')].map((td) => [td.dataset.metric, td.dataset.value])),
    })),
  );
  for (const r of rows) for (const [k, v] of Object.entries(r.values)) r.values[k] = v === 'null' ? null : Number(v);
  return rows;
}

/** What the table must show for a CLI report run with METRICS. */
function expected(report) {
  return report.models.map((m) => ({
    model: m.name,
    values: { anls_star: m.literature.anls_star, nted: m.literature.nted, donut_f1: m.literature.donut_f1 },
  }));
}

function assertClose(actual, want, what) {
  assert.equal(actual.length, want.length, `${what}: rows`);
  for (let i = 0; i < want.length; i++) {
    assert.equal(actual[i].model, want[i].model, `${what}: row ${i}`);
    assert.deepEqual(Object.keys(actual[i].values).sort(), Object.keys(want[i].values).sort(), `${what}: ${want[i].model} metrics`);
    for (const [k, v] of Object.entries(want[i].values)) {
      const got = actual[i].values[k];
      if (v === null) assert.equal(got, null, `${what}: ${want[i].model}.${k}`);
      else assert.ok(typeof got === 'number' && Math.abs(got - v) <= TOLERANCE, `${what}: ${want[i].model}.${k}: page ${got}, CLI ${v}`);
    }
  }
}

async function download(page, testid) {
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), page.click(`[data-testid=${testid}]`)]);
  return readFile(await dl.path(), 'utf8');
}

// ---------------------------------------------------------------- tests

test('literature metrics in the page equal the CLI --metrics, on the built-in example and on dropped files; exports carry them once computed', async (t) => {
  const { page, assertNoErrors } = await openApp(t);

  // The built-in example's own files, as the page holds them (its bundle
  // export), are byte for byte `fieldscope synth --documents 50 --seed
  // 19 --paradox` run natively: the generator draws every index and letter from
  // 64-bit numbers, so wasm32 and native draw the same.
  const dir = join(tmp, 'example50');
  mkdirSync(dir);
  const bundle = JSON.parse(await download(page, 'export-bundle'));
  for (const f of bundle.files) writeFileSync(join(dir, f.name), f.text);
  const native = join(tmp, 'example50-native');
  writeBuiltIn(native);
  assert.equal(bundle.files.length, 6);
  for (const f of bundle.files) {
    assert.equal(f.text, readFileSync(join(native, f.name), 'utf8'), `${f.name}: the page's example = fieldscope synth`);
  }
  const synthArgs = [...BUILT_IN_ARGS];
  const report50 = JSON.parse(cli([...synthArgs, ...METRICS], 'json', dir));

  // Nothing is computed before it is asked for, and the exports are the
  // default ones.
  assert.equal(await page.locator('[data-testid=literature-table]').count(), 0);
  const plainMd = await download(page, 'export-markdown');
  assert.equal(plainMd, cli(synthArgs, 'markdown', dir), 'Markdown export before computing = CLI default');

  await page.click('[data-testid=literature-start]');
  await page.waitForSelector('[data-testid=literature-table] tbody tr', { timeout: 60_000 });
  assertClose(await readLiterature(page), expected(report50), 'built-in example');
  await page.locator('[data-testid=literature]').screenshot({ path: join(SHOTS, 'literature.png') });

  // Exports now carry the table, exactly as the CLI with --metrics prints it.
  assert.equal(await download(page, 'export-markdown'), cli([...synthArgs, ...METRICS], 'markdown', dir), 'Markdown export = CLI --metrics');
  assert.equal(await download(page, 'export-latex'), cli([...synthArgs, ...METRICS], 'latex', dir), 'LaTeX export = CLI --metrics');
  const html = await download(page, 'export-html');
  assert.ok(html.includes('<section id="literature">') && html.includes('<h2>Literature metrics</h2>'), 'HTML report has the section');
  assert.ok(html.includes('<a href="#literature">'), 'and lists it in its contents');
  assert.ok(html === cli([...synthArgs, ...METRICS], 'html', dir), 'HTML export = CLI --metrics, byte for byte');
  // JSON stays the default report (SPEC §5).
  assert.ok(!(await download(page, 'export-json')).includes('"literature"'));

  // Dropped files: the example of tests/data/example.
  const names = ['truth.jsonl', 'careful.jsonl', 'eager.json', 'schema.json'];
  await dropFiles(page, EXAMPLE, names, ['careful', 'eager']);
  // A new report forgets the old metrics.
  assert.equal(await page.locator('[data-testid=literature-table]').count(), 0);
  await page.click('[data-testid=literature-start]');
  await page.waitForSelector('[data-testid=literature-table] tbody tr', { timeout: 60_000 });
  const exampleArgs = ['--truth', 'truth.jsonl', '--pred', 'careful.jsonl', '--pred', 'eager.json', '--schema', 'schema.json', ...METRICS];
  const report = JSON.parse(cli(exampleArgs, 'json', EXAMPLE));
  assertClose(await readLiterature(page), expected(report), 'dropped example');
  // The references' own values (tests/suite/literature.rs, from anls_star
  // 1.0.1 and donut-python 1.0.9 on these records).
  const careful = (await readLiterature(page))[0].values;
  assert.equal(careful.anls_star, 0.7934583934583935);
  assert.equal(careful.nted, 0.7919111693368633);
  assert.equal(careful.donut_f1, 0.7076923076923077);
  assertNoErrors();
});

test('a larger dataset is computed a slice at a time, with progress and cancel', async (t) => {
  const { page, assertNoErrors } = await openApp(t);
  // 40 documents: 120 document–model pairs, each a slice of the job (the
  // cancel comes after the first); the CLI (a debug build in the test run)
  // needs about 2 s a run.
  const dir = join(tmp, 'synth40');
  execFileSync(CLI, ['synth', '--documents', '40', '--seed', '7', '--out', dir]);
  const names = ['truth.jsonl', 'good.jsonl', 'conservative.jsonl', 'aggressive.jsonl'];
  await dropFiles(page, dir, names, ['good', 'conservative', 'aggressive']);

  await startThen(page, 'literature', { click: 'literature-cancel' });
  const cancelled = await page.waitForSelector('[data-testid=literature-cancelled]');
  assert.match(await cancelled.textContent(), /^Cancelled after \d+ documents?\.$/);
  await page.waitForSelector('[data-testid=literature-cancelled][data-settled]');
  assert.equal(await page.locator('[data-testid=literature-table]').count(), 0);

  await page.click('[data-testid=literature-start]');
  await page.waitForSelector('[data-testid=literature-table] tbody tr', { timeout: 120_000 });
  const args = ['--truth', 'truth.jsonl', '--pred', 'good.jsonl', '--pred', 'conservative.jsonl', '--pred', 'aggressive.jsonl', ...METRICS];
  assertClose(await readLiterature(page), expected(JSON.parse(cli(args, 'json', dir))), '40 documents');

  // A setting changed while a run is under way: the run belonged to the
  // old report and stops quietly (its panel is gone); the new report has
  // no literature metrics until asked, and the page keeps working.
  await page.selectOption('[data-testid=preset-select]', 'not-found');
  await page.waitForFunction(() => document.querySelector('[data-testid=summary]')?.textContent.includes('preset not-found'));
  await startThen(page, 'literature', { select: 'preset-select', value: 'exact' });
  await page.waitForFunction(() => document.querySelector('[data-testid=summary]')?.textContent.includes('preset exact'));
  assert.equal(await page.locator('[data-testid=literature-progress]').count(), 0);
  assert.equal(await page.locator('[data-testid=literature-table]').count(), 0);
  await page.click('[data-testid=literature-start]');
  await page.waitForSelector('[data-testid=literature-table] tbody tr', { timeout: 120_000 });
  assertClose(await readLiterature(page), expected(JSON.parse(cli([...args, '--preset', 'exact'], 'json', dir))), '40 documents, preset exact');
  assertNoErrors();
});
