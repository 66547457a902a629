// The browser app on a wide benchmark (issue 34; prints figures, asserts
// nothing about time): `fieldscope synth --types T --fields-per-type F`
// (default 100 × 100 = 10,000 fields), three systems, one schema per type
// and a config with `schema_by: doc_type`, chosen in the page's file
// input in headless Chromium. Prints, for each action, how long it took
// and the page's longest main-thread task while it ran (a
// `PerformanceObserver` for `longtask`, rendering included; 0 when no
// task reached 50 ms):
//
//   1. the drop: from the input's `change` event to the field matrix
//      showing its status line over every field (and the matrix's own
//      build time, its `data-build-ms`);
//   2. scrolling the matrix from top to bottom in 40 steps (each step
//      waits for the rows drawn at that height);
//   3. a search typed key by key (the first 12 characters of a path),
//      to the status line's count of the matching rows;
//   4. a sort by the second system's F1, to the sorted rows;
//   5. showing the folded exact rows, to the status line's count.
//
// Run after `trunk build --release` and `cargo build --release --bin fieldscope`:
//   node tests/browser/bench-wide.mjs [TYPES] [FIELDS_PER_TYPE]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, DIST } from './server.mjs';
import { CHROMIUM, CHROMIUM_ARGS, ROOT } from './harness.mjs';

const TYPES = Number(process.argv[2] ?? 100);
const PER_TYPE = Number(process.argv[3] ?? 100);
const CLI = [join(ROOT, 'target/release/fieldscope'), join(ROOT, 'target/debug/fieldscope')].find(existsSync);
if (!CLI) throw new Error('build the CLI first: cargo build --release --bin fieldscope');
if (!existsSync(join(DIST, 'index.html'))) throw new Error(`no built app in ${DIST}: run trunk build --release`);
const { chromium } = await import(join(ROOT, '.tools/node_modules/playwright-core/index.mjs'));

const data = mkdtempSync(join(tmpdir(), 'fieldscope-wide-'));
execFileSync(CLI, ['synth', '--types', String(TYPES), '--fields-per-type', String(PER_TYPE), '--documents-per-type', '3', '--systems', '3', '--out', data]);
execFileSync('sh', ['-c', `printf '{"schema_by": "doc_type"}' > ${JSON.stringify(join(data, 'config.json'))}`]);
const schemas = readdirSync(join(data, 'schemas')).map((n) => join(data, 'schemas', n));
const files = [...['truth.jsonl', 'sys_1.jsonl', 'sys_2.jsonl', 'sys_3.jsonl', 'config.json'].map((f) => join(data, f)), ...schemas];
const mb = files.reduce((s, f) => s + statSync(f).size, 0) / 1e6;
console.log(`wide input: ${TYPES} types × ${PER_TYPE} fields, 3 systems, ${files.length} files, ${mb.toFixed(1)} MB (${DIST})`);

const server = await startServer();
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
const figures = [];
try {
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-testid=model-table] tr[data-model]', { timeout: 120_000 });
  await page.click('[data-testid=clear-files]');
  await page.waitForSelector('[data-testid=no-report]');

  /** Runs `action`, then waits for `done` (a page function); returns [ms, longest task ms]. */
  const measure = async (what, action, done, arg) => {
    await page.evaluate(() => {
      window.__longest = 0;
      window.__observer?.disconnect();
      window.__observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
      });
      window.__observer.observe({ type: 'longtask' });
      window.__benchStart = performance.now();
    });
    await action();
    await page.waitForFunction(done, arg, { polling: 'raf', timeout: 600_000 });
    const ms = await page.evaluate(() => performance.now() - window.__benchStart);
    await page.waitForTimeout(300);
    const task = await page.evaluate(() => window.__longest);
    figures.push([what, ms, task]);
    return ms;
  };
  const status = () => page.$eval('[data-testid=matrix-status]', (el) => el.textContent.replace(/\s+/g, ' ').trim());

  await measure(
    'drop to the field matrix',
    () => page.setInputFiles('[data-testid=file-input]', files),
    () => {
      const card = document.querySelector('[data-testid=field-matrix]');
      return card && !document.querySelector('[data-testid=busy]') && Number(card.dataset.fields) > 0 && document.querySelector('[data-testid=matrix-table] tr.field-line');
    },
  );
  const card = page.locator('[data-testid=field-matrix]');
  const fields = Number(await card.getAttribute('data-fields'));
  console.log(`matrix: ${fields} fields, built in ${await card.getAttribute('data-build-ms')} ms; ${await status()}`);

  const box = page.locator('[data-testid=matrix-scroll]');
  const scrollHeight = await box.evaluate((el) => el.scrollHeight);
  await measure(
    'scroll the matrix top to bottom (40 steps)',
    async () => {
      for (let i = 1; i <= 40; i++) {
        const first = await page.$eval('[data-testid=matrix-table] tr.field-line', (tr) => tr.dataset.field);
        await box.evaluate((el, y) => { el.scrollTop = y; el.dispatchEvent(new Event('scroll')); }, (scrollHeight * i) / 40);
        await page.waitForFunction((f) => document.querySelector('[data-testid=matrix-table] tr.field-line')?.dataset.field !== f, first, { polling: 'raf' }).catch(() => {});
      }
    },
    () => true,
  );
  const rows = await page.$$eval('[data-testid=matrix-table] tr.field-line', (trs) => trs.length);
  console.log(`rows in the page at the bottom: ${rows}`);

  await box.evaluate((el) => { el.scrollTop = 0; el.dispatchEvent(new Event('scroll')); });
  const path = await page.$eval('[data-testid=matrix-table] tr.field-line', (tr) => tr.dataset.field);
  const query = path.slice(0, 12);
  await measure(
    `search typed key by key ("${query}")`,
    () => page.locator('[data-testid=matrix-search]').pressSequentially(query),
    (q) => document.querySelector('[data-testid=matrix-table] tr.field-line') && [...document.querySelectorAll('[data-testid=matrix-table] tr.field-line')].every((tr) => tr.dataset.field.toLowerCase().includes(q.toLowerCase())) && document.querySelector('[data-testid=matrix-search]').value === q,
    query,
  );
  console.log(`search: ${await status()}`);
  await page.fill('[data-testid=matrix-search]', '');

  await measure(
    "sort by sys_2's F1",
    () => page.click('[data-testid=matrix-sort-f1-1]'),
    () => document.querySelector('[data-testid=matrix-sort-f1-1]')?.parentElement.getAttribute('aria-sort') === 'ascending',
  );
  if (await page.$('[data-testid=matrix-show-exact]')) {
    await measure(
      'show the exact rows',
      () => page.click('[data-testid=matrix-show-exact]'),
      (n) => /^\s*(\d+) of/.exec(document.querySelector('[data-testid=matrix-status]').textContent)?.[1] === String(n),
      fields,
    );
  }
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  console.log(`sideways overflow: ${wide} px; page errors: ${errors.length ? errors.join('; ') : 'none'}`);
  console.log('\n| action | time | longest main-thread task |\n|---|---|---|');
  for (const [what, ms, task] of figures) console.log(`| ${what} | ${(ms / 1000).toFixed(2)} s | ${task.toFixed(0)} ms |`);
} finally {
  await browser.close();
  server.close();
  rmSync(data, { recursive: true, force: true });
}
