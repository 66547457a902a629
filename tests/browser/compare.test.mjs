// The "Compare two models" panel in headless Chromium: pick a baseline and
// a candidate, run the one-sided paired bootstrap tests, and every number
// of the table (values, differences, p-values, Holm-adjusted p-values,
// verdicts) equals `fieldscope gate --baseline B --json` on the same files
// (the built-in example is `fieldscope synth --documents 50 --seed 19
// --paradox`) to 1e-12; the flipped documents and the Markdown summary
// agree too. A screenshot is saved to tests/browser/screenshots/compare.png.
//
// Run (after `trunk build` and `cargo build --bin fieldscope`; `bash .ci/test` does both):
//   node --test tests/browser/compare.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, SHOTS, openApp, startApp, stopApp, writeBuiltIn } from './harness.mjs';

const TOLERANCE = 1e-12;

let server;
let browser;
let tmp;

before(async () => {
  ({ server, browser, tmp } = await startApp('fieldscope-compare-'));
});

after(() => stopApp({ server, browser, tmp }));

/** `fieldscope gate --baseline BASELINE --json` on the page's example: (status, Markdown, JSON). */
function cliGate(baseline, candidate) {
  const dir = join(tmp, 'example50');
  if (!existsSync(dir)) writeBuiltIn(dir);
  const json = join(tmp, `gate-${baseline}-${candidate}.json`);
  const args = [
    'gate', '--truth', 'truth.jsonl',
    '--pred', `${baseline}=${baseline}.jsonl`, '--pred', `${candidate}=${candidate}.jsonl`,
    '--schema', 'invoice.schema.json', '--config', 'config.json', '--baseline', baseline, '--json', json,
  ];
  const run = spawnSync(CLI, args, { cwd: dir, encoding: 'utf8' });
  assert.ok(run.status === 0 || run.status === 1, run.stderr);
  return { status: run.status, markdown: run.stdout, report: JSON.parse(readFileSync(json, 'utf8')) };
}

async function readTable(page) {
  return page.$$eval('[data-testid=compare-table] tbody tr', (trs) =>
    trs.map((tr) => {
      const cells = {};
      for (const td of tr.querySelectorAll('td[data-key]')) cells[td.dataset.key] = td.dataset.value === 'null' ? null : Number(td.dataset.value);
      return { metric: tr.dataset.metric, passed: tr.dataset.passed === 'true', ...cells };
    }),
  );
}

function close(actual, expected, where) {
  if (expected === null) assert.equal(actual, null, where);
  else assert.ok(Math.abs(actual - expected) <= TOLERANCE, `${where}: ${actual} vs ${expected}`);
}

for (const [baseline, candidate] of [['good', 'aggressive'], ['conservative', 'good']]) {
  test(`compare ${candidate} with ${baseline}: the numbers of fieldscope gate`, async (t) => {
    const { page, assertNoErrors } = await openApp(t, { browser, server });
    await page.selectOption('[data-testid=compare-baseline]', baseline);
    await page.selectOption('[data-testid=compare-candidate]', candidate);
    await page.click('[data-testid=compare-start]');
    await page.waitForSelector('[data-testid=compare-table] tbody tr', { timeout: 120_000 });

    const cli = cliGate(baseline, candidate);
    const expected = cli.report.checks.filter((c) => c.model === candidate);
    const rows = await readTable(page);
    assert.deepEqual(rows.map((r) => r.metric), expected.map((c) => c.metric), 'the same checks, in order');
    rows.forEach((row, i) => {
      const e = expected[i];
      for (const key of ['baseline_value', 'value', 'difference', 'p_value', 'p_holm']) close(row[key], e[key], `${e.metric} ${key}`);
      assert.equal(row.passed, e.passed, `${e.metric} verdict`);
    });
    assert.equal(await page.getAttribute('[data-testid=compare-verdict]', 'data-passed'), String(cli.report.passed));

    // The flipped documents.
    const flips = cli.report.comparisons[0];
    assert.equal(Number(await page.getAttribute('[data-testid=compare-flips]', 'data-regressions')), flips.regressions.length);
    assert.equal(Number(await page.getAttribute('[data-testid=compare-flips]', 'data-fixes')), flips.fixes.length);
    if (flips.regressions.length > 0) {
      const shown = await page.$$eval('[data-testid=compare-regressions] tbody tr', (trs) => trs.map((tr) => [tr.dataset.document, tr.dataset.field]));
      assert.deepEqual(shown, flips.regressions.slice(0, 20).map((f) => [f.id, f.field]));
      // A flipped document opens in the document browser, its detail in view.
      const last = flips.regressions[Math.min(flips.regressions.length, 20) - 1];
      await page.locator('[data-testid=compare-regressions] tbody tr [data-testid=flip-open]').nth(Math.min(flips.regressions.length, 20) - 1).click();
      const detail = page.locator('[data-testid=document-detail]');
      await detail.waitFor();
      assert.equal((await detail.locator('h3').textContent()).trim(), `Document ${last.id}`);
      assert.equal(await page.locator(`[data-testid=document-browser] tbody tr.selected[data-doc="${last.id}"]`).count(), 1, 'its row is selected on the page shown');
      assert.ok(await detail.isVisible());
    }

    // The Markdown summary is the CLI's: the verdict, every row of the
    // checks table and the flipped documents, word for word (the line that
    // lists the models and the warnings may differ: the page evaluates all
    // three models of the example, the CLI these two).
    const lines = (text) => text.split('\n').filter((l) => /^(\||##|\*\*(?!Warnings))/.test(l));
    const markdown = await page.inputValue('[data-testid=compare-markdown]');
    assert.deepEqual(lines(markdown), lines(cli.markdown));
    assert.ok(lines(markdown).length > 5);

    await page.locator('[data-testid=compare]').screenshot({ path: join(SHOTS, `compare-${baseline}-${candidate}.png`) });
    assertNoErrors();
  });
}
