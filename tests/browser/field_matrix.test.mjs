// Issue 34 item 4 in the browser app: the field matrix of a wide benchmark
// (`fieldscope synth --types 40 --fields-per-type 30`, three models, one
// schema per type, `schema_by: doc_type` in a dropped config file). Checks
// the by-type table names every type, the matrix's F1 values are the
// CLI's, only the rows in view are drawn, the search keeps the matching
// paths (as many as the CLI's report has), a header click sorts, and the
// page never scrolls sideways at 1,300 px. Screenshots of the matrix (with
// a search) go to tests/browser/screenshots/.
//
// Run (after `trunk build` and `cargo build --bin fieldscope`):
//   node --test tests/browser/field_matrix.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, download, dropFiles, openApp as openPage, SHOTS, startApp, stopApp, waitForLoaded } from './harness.mjs';

let server;
let browser;
let tmp;

before(async () => {
  ({ server, browser, tmp } = await startApp('fieldscope-matrix-'));
});

after(() => stopApp({ server, browser, tmp }));

const MODELS = ['sys_1', 'sys_2', 'sys_3'];

/** The CLI's report of the generated files, as `format`. */
function cliText(dir, schemas, format) {
  const args = ['eval', '--truth', 'truth.jsonl', ...MODELS.flatMap((m) => ['--pred', `${m}.jsonl`])];
  for (const s of schemas) args.push('--schema', join('schemas', s));
  args.push('--schema-by', 'doc_type', '--format', format);
  return execFileSync(CLI, args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
}

/** The CLI's JSON report of the generated files. */
function cliReport(dir, schemas) {
  return JSON.parse(cliText(dir, schemas, 'json'));
}

/** The "By document type" section of an HTML report: its heading to the end of its table. */
function byTypeSection(html) {
  const start = html.indexOf('<h3 id="by-type">');
  assert.ok(start >= 0, 'the report has a "By document type" section');
  return html.slice(start, html.indexOf('</table>', start));
}

/** The drawn matrix rows: [{ field, f1: [per model], support: [per model] }]. */
async function drawnRows(page) {
  return page.$$eval('[data-testid=matrix-table] tr.field-line', (trs) =>
    trs.map((tr) => ({
      field: tr.dataset.field,
      f1: [...tr.querySelectorAll('td[data-metric=f1]')].map((td) => (td.dataset.value === 'null' ? null : Number(td.dataset.value))),
      support: [...tr.querySelectorAll('td[data-metric=support]')].map((td) => (td.textContent === '—' ? null : Number(td.textContent))),
    })),
  );
}

/** Every drawn row's F1 and support are the CLI report's. */
function assertRowsAreTheCli(rows, report, what) {
  for (const r of rows) {
    report.models.forEach((m, i) => {
      const f = m.fields.find((x) => x.field === r.field);
      assert.equal(r.f1[i], f ? f.f1 : null, `${what}: F1 of ${r.field} for ${m.name}`);
      const c = f?.counts;
      assert.equal(r.support[i], c ? c.exact + c.partial + c.incorrect + c.missed : null, `${what}: support of ${r.field} for ${m.name}`);
    });
  }
}

test('the field matrix of 40 types × 30 fields: the CLI’s numbers, windowed rows, search, sort, no sideways scrolling', async (t) => {
  const dir = join(tmp, 'wide');
  execFileSync(CLI, ['synth', '--types', '40', '--fields-per-type', '30', '--documents-per-type', '3', '--systems', '3', '--out', dir]);
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ schema_by: 'doc_type' }));
  const schemas = readdirSync(join(dir, 'schemas')).filter((n) => n.endsWith('.json')).sort();
  assert.equal(schemas.length, 40);
  const report = cliReport(dir, schemas);

  const { page, assertNoErrors } = await openPage(t, { browser, server });
  await page.setViewportSize({ width: 1300, height: 900 });
  const files = [
    ...['truth.jsonl', ...MODELS.map((m) => `${m}.jsonl`), 'config.json'].map((name) => ({ name, bytes: readFileSync(join(dir, name)) })),
    ...schemas.map((name) => ({ name, bytes: readFileSync(join(dir, 'schemas', name)) })),
  ];
  await dropFiles(page, files);
  await waitForLoaded(page, files.length, MODELS);
  await page.waitForSelector('[data-testid=by-type-table] tr[data-type]', { timeout: 20_000 });

  // Every field of the report, once (the union over the models).
  const fields = [...new Set(report.models.flatMap((m) => m.fields.map((f) => f.field)))];
  const exact = new Set(
    fields.filter((p) =>
      report.models.every((m) => {
        const c = m.fields.find((f) => f.field === p)?.counts;
        return c && c.partial + c.incorrect + c.missed + c.spurious === 0;
      }),
    ),
  );
  const card = page.locator('[data-testid=field-matrix]');
  assert.equal(Number(await card.getAttribute('data-fields')), fields.length);
  assert.ok(fields.length > 1000, `a wide report: ${fields.length} fields`);
  const buildMs = Number(await card.getAttribute('data-build-ms'));
  // Reported, not asserted: speed is measured in benchmarks, never in tests.
  t.diagnostic(`matrix of ${fields.length} fields × ${MODELS.length} models built in ${buildMs} ms`);

  // The by-type table: one row per schema, named by its stem.
  const types = await page.$$eval('[data-testid=by-type-table] tr[data-type]', (trs) => trs.map((tr) => tr.dataset.type));
  assert.deepEqual([...types].sort(), schemas.map((s) => s.replace(/\.json$/, '')).sort());

  // The app's HTML and Markdown exports carry the same table as the CLI's.
  const html = (await download(page, 'export-html')).text;
  const section = byTypeSection(html);
  assert.equal(section, byTypeSection(cliText(dir, schemas, 'html')), 'the app\'s by-type table = the CLI\'s');
  assert.equal((section.match(/<tr><th scope="row">/g) ?? []).length, schemas.length, 'one row per type');
  const markdown = (await download(page, 'export-markdown')).text;
  assert.ok(markdown.includes('By document type'), 'the Markdown export has the by-type table');

  // The status line: the rows not exact for every model are shown.
  const status = async () => (await page.textContent('[data-testid=matrix-status]')).replace(/\s+/g, ' ');
  assert.match(await status(), new RegExp(`^${fields.length - exact.size} of ${fields.length} fields shown`));

  // Windowed: far fewer rows in the page than fields; they are the CLI's.
  let rows = await drawnRows(page);
  assert.ok(rows.length > 10 && rows.length < 80, `${rows.length} rows drawn`);
  assertRowsAreTheCli(rows, report, 'top of the matrix');
  // The first row matters most: its importance max(spread, 1 − best F1) is
  // at least every other drawn row's of the first group.
  const importance = (r) => {
    const f = r.f1.filter((x) => x !== null);
    return Math.max(Math.max(...f) - Math.min(...f), 1 - Math.max(...f));
  };
  const firstGroup = await page.$eval('[data-testid=matrix-table] tr.group-line', (tr) => tr.dataset.group);
  const groupRows = await page.$$eval('[data-testid=matrix-table] tbody tr', (trs, g) => {
    const out = [];
    let inGroup = false;
    for (const tr of trs) {
      if (tr.classList.contains('group-line')) inGroup = tr.dataset.group === g;
      else if (inGroup && tr.classList.contains('field-line')) out.push(tr.dataset.field);
    }
    return out;
  }, firstGroup);
  const imp = groupRows.map((f) => importance(rows.find((r) => r.field === f)));
  for (let i = 1; i < imp.length; i++) assert.ok(imp[i - 1] >= imp[i] - 1e-9, `what matters first: ${imp}`);

  // Scrolling draws the rows further down (and the spacer keeps the height).
  const box = page.locator('[data-testid=matrix-scroll]');
  const { scrollHeight, clientHeight } = await box.evaluate((el) => ({ scrollHeight: el.scrollHeight, clientHeight: el.clientHeight }));
  assert.ok(scrollHeight > 28 * (fields.length - exact.size), `scroll height ${scrollHeight} holds every line`);
  assert.ok(clientHeight <= 560);
  await box.evaluate((el) => { el.scrollTop = el.scrollHeight / 2; el.dispatchEvent(new Event('scroll')); });
  await page.waitForFunction((first) => document.querySelector('[data-testid=matrix-table] tr.field-line')?.dataset.field !== first, rows[0].field);
  const middle = await drawnRows(page);
  assert.ok(middle.length < 80);
  assertRowsAreTheCli(middle, report, 'middle of the matrix');
  const visible = await box.evaluate((el) => {
    const top = el.getBoundingClientRect().top;
    return [...el.querySelectorAll('tr.field-line')].some((tr) => {
      const r = tr.getBoundingClientRect();
      return r.bottom > top + 40 && r.top < top + el.clientHeight;
    });
  });
  assert.ok(visible, 'rows are drawn where the box is scrolled to');

  // No sideways scrolling at 1,300 px.
  const overflow = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth }));
  assert.ok(overflow.sw <= overflow.cw, `page ${overflow.sw} px wide in ${overflow.cw} px`);

  // Search: the start of the first drawn row's path (its type's name),
  // upper-cased (the search ignores case): only matching rows, as many as
  // the CLI's report has; then the whole path, that row alone.
  const target = rows[0].field;
  const shownCount = () => page.$eval('[data-testid=matrix-status]', (el) => Number(/^\s*(\d+) of/.exec(el.textContent)?.[1]));
  for (const query of [target.slice(0, 12).toUpperCase(), target]) {
    await page.fill('[data-testid=matrix-search]', query);
    const expected = fields.filter((f) => f.toLowerCase().includes(query.toLowerCase()) && !exact.has(f));
    await page.waitForFunction((n) => /^\s*(\d+) of/.exec(document.querySelector('[data-testid=matrix-status]').textContent)?.[1] === String(n), expected.length);
    assert.equal(await shownCount(), expected.length);
    const found = await drawnRows(page);
    assert.ok(found.length > 0);
    for (const r of found) assert.ok(r.field.toLowerCase().includes(query.toLowerCase()), `${r.field} matches ${query}`);
    if (expected.length < 30) assert.deepEqual([...new Set(found.map((r) => r.field))].sort(), [...expected].sort());
    assert.ok(found.some((r) => r.field === target));
    assertRowsAreTheCli(found, report, `search ${query}`);
    if (query !== target) await card.screenshot({ path: join(SHOTS, 'field-matrix-search.png') });
  }

  // A click on the row shows its counts per model, the CLI's.
  await page.click(`[data-testid=matrix-table] tr.field-line[data-field="${target}"] th button`);
  const detail = await page.$$eval('[data-testid=matrix-detail] tbody tr[data-model]', (trs) =>
    trs.map((tr) => [tr.dataset.model, [...tr.querySelectorAll('td.num')].slice(0, 6).map((td) => Number(td.textContent))]),
  );
  assert.deepEqual(
    detail,
    report.models.map((m) => {
      const c = m.fields.find((f) => f.field === target).counts;
      return [m.name, [c.exact, c.partial, c.incorrect, c.missed, c.spurious, c.true_negative]];
    }),
  );

  // Sort by sys_2's F1 (ascending, then descending) over the whole matrix.
  await page.fill('[data-testid=matrix-search]', '');
  await page.click('[data-testid=matrix-sort-f1-1]');
  await page.waitForSelector('[data-testid=matrix-sort-default]');
  const f1Of = (rs) => rs.map((r) => r.f1[1]).filter((x) => x !== null);
  const asc = f1Of(await drawnRows(page));
  assert.ok(asc.length > 5);
  const firstGroupAsc = await page.$$eval('[data-testid=matrix-table] tbody tr', (trs) => {
    const out = [];
    let groups = 0;
    for (const tr of trs) {
      if (tr.classList.contains('group-line')) groups += 1;
      else if (groups === 1 && tr.classList.contains('field-line')) {
        const v = tr.querySelectorAll('td[data-metric=f1]')[1].dataset.value;
        if (v !== 'null') out.push(Number(v));
      }
    }
    return out;
  });
  for (let i = 1; i < firstGroupAsc.length; i++) assert.ok(firstGroupAsc[i - 1] <= firstGroupAsc[i], `ascending: ${firstGroupAsc}`);
  assert.equal(await page.getAttribute('[data-testid=matrix-sort-f1-1] >> xpath=..', 'aria-sort'), 'ascending');
  await page.click('[data-testid=matrix-sort-f1-1]');
  await page.waitForFunction(() => document.querySelector('[data-testid=matrix-sort-f1-1]').parentElement.getAttribute('aria-sort') === 'descending');
  const firstGroupDesc = await page.$$eval('[data-testid=matrix-table] tbody tr', (trs) => {
    const out = [];
    let groups = 0;
    for (const tr of trs) {
      if (tr.classList.contains('group-line')) groups += 1;
      else if (groups === 1 && tr.classList.contains('field-line')) {
        const v = tr.querySelectorAll('td[data-metric=f1]')[1].dataset.value;
        if (v !== 'null') out.push(Number(v));
      }
    }
    return out;
  });
  for (let i = 1; i < firstGroupDesc.length; i++) assert.ok(firstGroupDesc[i - 1] >= firstGroupDesc[i], `descending: ${firstGroupDesc}`);
  assertRowsAreTheCli(await drawnRows(page), report, 'sorted');

  // The fold: showing the exact rows adds them to the count.
  if (exact.size > 0) {
    await page.click('[data-testid=matrix-show-exact]');
    await page.waitForFunction((n) => /^\s*(\d+) of/.exec(document.querySelector('[data-testid=matrix-status]').textContent)?.[1] === String(n), fields.length);
  }
  const after = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth }));
  assert.ok(after.sw <= after.cw, `page ${after.sw} px wide in ${after.cw} px`);
  await card.screenshot({ path: join(SHOTS, 'field-matrix.png') });
  await page.screenshot({ path: join(SHOTS, 'field-matrix-page.png') });

  // A report this wide is drawn in stages (its overview first, each later
  // section in a frame of its own). A re-evaluation keeps the reader's
  // place: read at the field matrix, change the preset; while the new
  // report draws, the page never gets shorter than it was (so the scroll
  // position is never cut back) and, once drawn, it is where it was.
  await card.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  const before = await page.evaluate(() => ({ y: Math.round(window.scrollY), h: document.documentElement.scrollHeight }));
  assert.ok(before.y > 900, `read far down the page (${before.y} px)`);
  await page.evaluate(() => {
    window.__lowest = Infinity;
    const watch = () => {
      window.__lowest = Math.min(window.__lowest, document.documentElement.scrollHeight);
      if (window.__watching) requestAnimationFrame(watch);
    };
    window.__watching = true;
    requestAnimationFrame(watch);
  });
  await page.selectOption('[data-testid=preset-select]', 'exact');
  await page.waitForFunction(() => {
    const sections = document.querySelector('section.content');
    return !document.querySelector('[data-testid=busy]') && document.querySelector('[data-testid=export-bundle]') && sections && !sections.style.minHeight;
  }, null, { timeout: 60_000 });
  await page.waitForFunction(() => document.querySelector('[data-testid=field-matrix] [data-testid=matrix-table] tr.field-line'));
  const redrawn = await page.evaluate(() => {
    window.__watching = false;
    return { y: Math.round(window.scrollY), lowest: window.__lowest };
  });
  assert.ok(redrawn.lowest >= Math.min(before.h, before.y + 900), `the page kept its height while drawing (lowest ${redrawn.lowest} px, was ${before.h} px)`);
  assert.equal(redrawn.y, before.y, 'the scroll position is kept');
  assertNoErrors();
});
