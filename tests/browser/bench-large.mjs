// The browser app with one large file (prints figures; asserts nothing
// about time): `fieldscope synth --documents N` (175,000 gives a 199 MB
// truth and a 207 MB prediction file), then the truth, the `good` model
// and the schema chosen in the page's file input in headless Chromium.
// Prints the time from the input's `change` event to the full report, the
// browser's peak resident memory (every Chromium process, from /proc) and
// whether the page stayed alive.
//
// Run after `trunk build --release` and `cargo build --release --bin fieldscope`:
//   node tests/browser/bench-large.mjs [DOCUMENTS]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, DIST } from './server.mjs';
import { benchMarks, CHROMIUM_ARGS } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const DOCUMENTS = Number(process.argv[2] ?? 175000);
const CLI = [join(ROOT, 'target/release/fieldscope'), join(ROOT, 'target/debug/fieldscope')].find(existsSync);
if (!CLI) throw new Error('build the CLI first: cargo build --release --bin fieldscope');
if (!existsSync(join(DIST, 'index.html'))) throw new Error(`no built app in ${DIST}: run trunk build --release`);
const { chromium } = await import(join(ROOT, '.tools/node_modules/playwright-core/index.mjs'));

const data = mkdtempSync(join(tmpdir(), 'fieldscope-large-'));
execFileSync(CLI, ['synth', '--documents', String(DOCUMENTS), '--out', data]);
const files = ['truth.jsonl', 'good.jsonl', 'invoice.schema.json'].map((f) => join(data, f));
for (const f of files) console.log(`${f.split('/').pop().padEnd(22)} ${(statSync(f).size / 1e6).toFixed(1)} MB`);

// Resident memory of every Chromium process, in MB.
function chromiumRssMB() {
  let kb = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('chromium')) continue;
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) kb += Number(m[1]);
    } catch {
      // the process ended meanwhile
    }
  }
  return kb / 1024;
}

const server = await startServer();
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: CHROMIUM_ARGS,
});
let peak = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, chromiumRssMB());
}, 200);
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('crash', () => errors.push('the page crashed'));
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-testid=model-table] tr[data-model]', { timeout: 60_000 });
  await page.click('[data-testid=clear-files]');
  await page.waitForSelector('[data-testid=no-report]');
  const idle = chromiumRssMB();
  await page.evaluate(() => {
    document.querySelector('[data-testid=file-input]').addEventListener('change', () => {
      window.__benchStart = performance.now();
    }, { capture: true });
    // Every stretch of 50 ms or more in which the page could not answer
    // input ("long tasks"), to print the longest ones.
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(e.duration);
    }).observe({ type: 'longtask' });
  });
  await page.setInputFiles('[data-testid=file-input]', files);
  const done = await page.waitForFunction(
    (documents) => {
      const rows = document.querySelectorAll('[data-testid=model-table] tbody tr[data-model]');
      const summary = document.querySelector('[data-testid=summary]')?.textContent ?? '';
      // Full: the document-level scores wait for the schema worker.
      const settled = document.querySelector('[data-testid=document-scores]');
      if (rows.length === 1 && summary.startsWith(`${documents} documents`) && !document.querySelector('[data-testid=busy]') && settled) {
        return [performance.now() - window.__benchStart];
      }
      return false;
    },
    DOCUMENTS,
    { polling: 1000, timeout: 900_000 },
  );
  const [ms] = await done.jsonValue();
  const longTasks = await page.evaluate(() => window.__longTasks.sort((a, b) => b - a));
  // Where the time went, and the evaluation's share.
  const { text: marks, evaluationMs: evalMs } = await benchMarks(page);
  const validity = await page.$eval('[data-testid=document-scores] tbody tr[data-model] td[data-metric=schema_validity_rate]', (td) => td.dataset.value);
  const f1 = await page.$eval('[data-testid=model-table] tbody tr[data-model] td[data-metric=f1]', (td) => td.dataset.value);
  await page.screenshot({ path: join(HERE, 'screenshots', 'bench-large-report.png') }).catch(() => {});
  const cli = JSON.parse(execFileSync(CLI, ['eval', '--truth', files[0], '--pred', `good=${files[1]}`, '--schema', files[2]], { maxBuffer: 1 << 30 }).toString());
  console.log(`\ndrop to full report: ${(ms / 1000).toFixed(1)} s (evaluation ${(evalMs / 1000).toFixed(1)} s)`);
  console.log(`Chromium resident memory: ${idle.toFixed(0)} MB before the drop, ${peak.toFixed(0)} MB at the peak`);
  console.log(`marks (ms after the change event): ${marks}`);
  console.log(`the page busy 50 ms or more at a stretch: ${longTasks.length} times; the longest ${longTasks.slice(0, 5).map((d) => `${Math.round(d)} ms`).join(', ')}`);
  console.log(`macro F1 in the page ${f1}, in the CLI ${cli.models[0].macro_documents.f1}`);
  console.log(`schema validity rate in the page ${validity}, in the CLI ${cli.models[0].schema_validity_rate}`);
  console.log(`page errors: ${errors.length ? errors.join('; ') : 'none'}`);
} finally {
  clearInterval(sampler);
  await browser.close();
  await server.close();
  rmSync(data, { recursive: true, force: true });
}
