//! The page's style sheet, inline in its `<style>` (and scoped by
//! `export::fragment` for notebooks).
//!
//! Owns: the CSS only. Depends on nothing.

/// The page's style: light on screen whatever the system theme, black on
/// white in print. No `<` or `&` in it, so the page stays well-formed XML.
pub(crate) const STYLE: &str = r#"
:root { color-scheme: light; --ink: #1b1f24; --muted: #4f5863; --rule: #d5dae0; --head: #f1f4f7; --accent: #1d4f91; --warn: #fff6dc; --warn-rule: #c98f00; }
* { box-sizing: border-box; }
html { background: #ffffff; }
body { margin: 0 auto; max-width: 76rem; padding: 2rem 1.5rem 4rem; color: var(--ink); background: #ffffff; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 2rem; margin: 0 0 0.75rem; letter-spacing: -0.01em; }
h2 { font-size: 1.35rem; margin: 2.5rem 0 0.75rem; padding-bottom: 0.3rem; border-bottom: 2px solid var(--rule); }
h3 { font-size: 1.05rem; margin: 1.75rem 0 0.4rem; }
p, li { max-width: 52rem; overflow-wrap: break-word; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.9em; }
a { color: var(--accent); }
dl.summary { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1.25rem; margin: 0 0 1rem; }
dl.summary dt { font-weight: 600; color: var(--muted); }
dl.summary dd { margin: 0; }
nav.contents { margin: 1rem 0 0; padding: 0.6rem 1rem; background: var(--head); border-radius: 4px; font-size: 0.9rem; }
nav.contents ol { margin: 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; }
section.warnings { background: var(--warn); border-left: 4px solid var(--warn-rule); padding: 0.25rem 1rem 0.5rem; margin-top: 1.5rem; }
section.warnings h2 { border: 0; margin-top: 0.75rem; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.25rem 0 1.5rem; min-width: min(100%, 44rem); font-variant-numeric: tabular-nums; }
caption { caption-side: top; text-align: left; color: var(--muted); font-size: 0.88rem; padding: 0 0 0.5rem; max-width: 60rem; }
th, td { padding: 0.3rem 0.65rem; border-bottom: 1px solid var(--rule); vertical-align: top; }
thead th { background: var(--head); border-bottom: 2px solid #9aa4ae; font-weight: 600; text-align: right; white-space: nowrap; }
thead th:first-child { text-align: left; }
tbody th { text-align: left; font-weight: 600; max-width: 24rem; overflow-wrap: break-word; }
td { text-align: right; white-space: nowrap; }
table.wide th, table.wide td { padding: 0.3rem 0.45rem; }
table.intervals td { white-space: normal; min-width: 6.5em; }
td strong { font-weight: 700; }
table.text td { text-align: left; white-space: normal; }
table.text thead th { text-align: left; }
table.defs { table-layout: fixed; width: 100%; }
table.defs thead th:nth-child(1) { width: 22%; }
table.defs thead th:nth-child(2) { width: 36%; }
table.defs td.formula { color: #0f2f57; }
.paradox { border-left: 4px solid var(--accent); padding: 0.1rem 1rem; margin-bottom: 1.25rem; background: #f5f8fc; }
figure { margin: 1.5rem 0; }
figure svg { display: block; max-width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: 0.88rem; margin-top: 0.4rem; max-width: 60rem; }
.refused { border: 1px dashed var(--warn-rule); padding: 0.75rem 1rem; }
footer { margin-top: 3rem; color: var(--muted); font-size: 0.8rem; }
table.matrix { width: 100%; min-width: 0; table-layout: fixed; }
table.matrix.many { width: auto; table-layout: auto; }
table.matrix thead th { white-space: normal; overflow-wrap: anywhere; }
table.matrix thead th:first-child { width: 30%; }
table.matrix tbody th { max-width: none; overflow-wrap: anywhere; font-weight: 500; }
table.matrix td small { color: var(--muted); }
p.folded { color: var(--muted); }
details.group, details.model { border: 1px solid var(--rule); border-radius: 4px; padding: 0.35rem 0.8rem; margin: 0.4rem 0; }
details > summary { cursor: pointer; }
details > summary .name { font-weight: 600; }
details > summary small { color: var(--muted); margin-left: 0.5rem; }
details.folded p { max-width: none; font-size: 0.88rem; color: var(--muted); }
@page { margin: 14mm 12mm; }
@media print {
  :root { --ink: #000000; --muted: #000000; --rule: #999999; --head: #ffffff; --accent: #000000; --warn: #ffffff; --warn-rule: #000000; }
  html, body { background: #ffffff; color: #000000; }
  body { max-width: none; padding: 0; font-size: 9pt; }
  nav.contents { display: none; }
  section.major { break-before: page; }
  h2, h3, caption { break-after: avoid; }
  table, figure, .paradox, .refused { break-inside: avoid; page-break-inside: avoid; }
  figure { margin: 0 0 1rem; }
  figcaption { break-before: avoid; }
  table.long { break-inside: auto; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; }
  .scroll { overflow: visible; }
  th, td { padding: 0.15rem 0.4rem; }
  thead th { white-space: normal; }
  thead th { border-bottom: 1.5px solid #000000; }
  section.warnings, .paradox { border: 1px solid #000000; background: #ffffff; }
  a { color: #000000; text-decoration: none; }
  table.defs td.formula { color: #000000; }
  details::details-content { content-visibility: visible; display: block; }
  details { border: 0; padding: 0; }
}
"#;
