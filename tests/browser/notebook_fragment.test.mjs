// Issue 32: the notebook display and the report's "open in the app" line.
//
// 1. `Report._repr_html_()` (Python) is a fragment whose style applies only
//    inside its root `<div class="fieldscope-report">`: inserted into a page
//    with styles of its own (as a notebook's output cell is), nothing
//    outside it changes — the computed styles of every outside element, the
//    body's and the root element's, and their sizes — while the report
//    inside is styled by its own rules. Screenshot:
//    tests/browser/screenshots/notebook-fragment.png.
// 2. `fieldscope eval --format html --app-url URL --embed-inputs` shows an
//    "App" line linking to URL with how to re-open the report there.
//    Screenshot: tests/browser/screenshots/report-app-link.png.
//
// Needs no built app (no dist/): only Chromium, the CLI
// (target/debug/fieldscope) and the Python package installed in
// .tools/venv (or $FIELDSCOPE_PYTHON).
//
// Run: node --test tests/browser/notebook_fragment.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM, CHROMIUM_ARGS, CLI, ROOT, SHOTS } from './harness.mjs';

const { chromium } = await import(join(ROOT, '.tools/node_modules/playwright-core/index.mjs'));
const PYTHON = process.env.FIELDSCOPE_PYTHON ?? join(ROOT, '.tools/venv/bin/python');
const EXAMPLE = join(ROOT, 'tests/data/example');

let browser;
before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  if (!existsSync(CLI)) execFileSync('cargo', ['build', '--bin', 'fieldscope'], { cwd: ROOT, stdio: 'inherit' });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
});
after(() => browser?.close());

/** The example's report as a notebook shows it, with a suggestion added
 * to the data (six amounts written as strings). */
function fragment() {
  const script = `
import json, sys, warnings
import fieldscope
truth = [{"id": str(i), "amount": a} for i, a in enumerate(["10.0", "2,500", "7", "12.5", "$3", "9"])]
pred = {"<good> & co": [{"id": str(i), "amount": a} for i, a in enumerate([10, 2500, 7, 12.5, 3, 8])]}
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    report = fieldscope.evaluate(truth, pred)
sys.stdout.write(report._repr_html_())
`;
  return execFileSync(PYTHON, ['-c', script], { encoding: 'utf8', maxBuffer: 1 << 28 });
}

/** A notebook-like page: its own styles on body, html, headings, tables,
 * paragraphs, code, sections and every element. */
const HOST = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>
html { background: rgb(240, 240, 230); }
body { margin: 12px 30px; width: 900px; font: 13px/1.3 Georgia, serif; color: rgb(20, 30, 40); background: rgb(250, 250, 245); }
h1 { font-size: 22px; color: rgb(120, 0, 0); margin: 4px 0; }
h2, h3 { font-size: 16px; color: rgb(0, 80, 0); border: 0; }
p, li { color: rgb(60, 60, 60); max-width: none; }
table { border-collapse: separate; border: 1px solid rgb(0, 0, 200); }
td, th { padding: 2px; text-align: center; }
code { font-family: monospace; background: rgb(230, 230, 255); }
a { color: rgb(200, 0, 200); }
section, header, footer, nav { display: block; margin: 6px 0; padding: 0; background: none; }
.cell { border: 1px dashed rgb(150, 150, 150); padding: 4px; }
</style></head><body>
<header id="o-header"><h1 id="o-h1">A notebook</h1></header>
<p id="o-p">Text of the notebook, with <code id="o-code">code</code> and <a id="o-a" href="#x">a link</a>.</p>
<section id="o-section"><h2 id="o-h2">Results</h2><h3 id="o-h3">Table</h3>
<table id="o-table"><thead><tr><th id="o-th">a</th></tr></thead><tbody><tr><td id="o-td">1</td></tr></tbody></table>
<ul id="o-ul"><li id="o-li">item</li></ul></section>
<div class="cell" id="cell"></div>
<nav id="o-nav"><p id="o-p2">after the cell</p></nav>
<footer id="o-footer">notebook footer</footer>
</body></html>`;

const PROPS = [
  'color', 'background-color', 'font-family', 'font-size', 'line-height', 'font-weight', 'margin-top', 'margin-bottom',
  'margin-left', 'padding-top', 'padding-left', 'border-top-width', 'border-bottom-width', 'border-collapse', 'text-align',
  'box-sizing', 'max-width', 'width', 'display', 'letter-spacing', 'color-scheme', 'white-space',
];

/** Every outside element's computed style and box, and the page's width. */
async function outside(page) {
  return page.evaluate((props) => {
    const out = {};
    const cell = document.getElementById('cell');
    for (const el of [document.documentElement, document.body, ...document.body.querySelectorAll('*')]) {
      if (cell.contains(el) && el !== cell) continue;
      const cs = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      const key = el === document.documentElement ? 'html' : el === document.body ? 'body' : `#${el.id || el.tagName}`;
      out[key] = { ...Object.fromEntries(props.map((p) => [p, cs.getPropertyValue(p)])), boxWidth: r.width, left: r.left };
    }
    out.bodyClientWidth = document.body.clientWidth;
    out.scrollWidth = document.documentElement.scrollWidth;
    return out;
  }, PROPS);
}

test('1. the notebook display changes nothing outside its own root', async () => {
  const html = fragment();
  assert.ok(html.startsWith('<div class="fieldscope-report">\n<style>'), html.slice(0, 80));
  const page = await browser.newPage({ viewport: { width: 1000, height: 1400 } });
  await page.setContent(HOST);
  const before = await outside(page);
  assert.equal(before.body['width'], '900px');
  await page.evaluate((h) => {
    document.getElementById('cell').innerHTML = h;
  }, html);
  const after = await outside(page);
  // The cell grows in height only; everything else, styles and boxes, is as it was.
  assert.deepEqual(after, before);

  // Inside, the report's own style applies (not the notebook's).
  const inside = await page.evaluate(() => {
    const root = document.querySelector('.fieldscope-report');
    const h1 = root.querySelector('h1');
    const td = root.querySelector('td');
    const sug = root.querySelector('#suggestions li');
    return {
      rootFont: getComputedStyle(root).fontSize,
      rootWidth: root.getBoundingClientRect().width,
      h1Size: getComputedStyle(h1).fontSize,
      h1Color: getComputedStyle(h1).color,
      tdAlign: getComputedStyle(td).textAlign,
      tableCollapse: getComputedStyle(root.querySelector('table')).borderCollapse,
      tableBorder: getComputedStyle(root.querySelector('table')).borderTopWidth,
      suggestion: sug?.textContent,
      model: root.querySelector('#comparison tbody th')?.textContent,
    };
  });
  assert.equal(inside.rootFont, '15px');
  assert.equal(inside.h1Size, '32px'); // 2rem of the page's 16 px root
  // Not the host's `h1 { color }`: the fragment puts back what its own
  // page shows (its --ink, #1b1f24), and its tables have no host border.
  assert.equal(inside.h1Color, 'rgb(27, 31, 36)');
  assert.equal(inside.tableBorder, '0px');
  assert.equal(inside.tdAlign, 'right');
  assert.equal(inside.tableCollapse, 'collapse');
  assert.ok(inside.rootWidth <= 900, `${inside.rootWidth}`);
  assert.match(inside.suggestion, /^Treat amount as a number: 100\.0 % of its truth values/);
  assert.equal(inside.model, '<good> & co');
  await page.screenshot({ path: join(SHOTS, 'notebook-fragment.png'), fullPage: false });
  await page.close();
});

test('2. the HTML report links to the app given by --app-url', async () => {
  const url = 'https://fieldscope.example.org/app/';
  const report = execFileSync(
    CLI,
    ['eval', '--truth', 'truth.jsonl', '--pred', 'careful.jsonl', '--pred', 'eager.json', '--format', 'html',
      '--embed-inputs', '--app-url', url],
    { cwd: EXAMPLE, encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  const page = await browser.newPage({ viewport: { width: 1100, height: 700 }, javaScriptEnabled: false });
  await page.setContent(report);
  const app = await page.evaluate(() => {
    const dd = document.getElementById('app');
    const a = dd.querySelector('a');
    return { text: dd.textContent, href: a.href, dt: dd.previousElementSibling.textContent };
  });
  assert.equal(app.dt, 'App');
  assert.equal(app.href, url);
  assert.equal(
    app.text,
    `${url}: open it and drop this file onto its page to re-open the evaluation with its inputs and settings.`,
  );
  await page.locator('header').screenshot({ path: join(SHOTS, 'report-app-link.png') });
  await page.close();
});
