//! The HTML report as a fragment for someone else's page (issue 32): what
//! a notebook shows for a report (`Report._repr_html_` in Python). The
//! same sections as the page (`html::push_body`), inside one root element
//! `<div class="fieldscope-report">`, with the page's style rewritten so
//! that every rule applies only inside that root ([`scope`]): nothing of
//! the notebook around it changes (no `body`, `html`, `*`, `h1` or
//! `@page` rule reaches outside).
//!
//! Owns: the fragment's wrapping and the scoping of `html::STYLE`. The
//! full page stays `super::page::render`'s (`to_html()`, `--format html`).
//!
//! Depends on: `super::html` (the layout and style), `crate::eval::report`.

use super::html::{self, Parts};
use super::ExportOptions;
use crate::eval::report::Report;

/// The class of the fragment's root element; every rule of its style
/// starts with `.fieldscope-report`.
pub const ROOT_CLASS: &str = "fieldscope-report";

/// Properties the page leaves to the browser's defaults, which a host
/// page's own rules (`h1 { color: … }`, `table { border: … }`) would
/// otherwise set inside the fragment: put back to what a page of its own
/// shows. Scoped like the page's style and written before it, so the
/// page's rules (same specificity, later) win wherever they set one.
const RESET: &str =
    "h1, h2, h3, p, li, dt, dd, th, td, caption, figcaption, footer { color: inherit; }\n\
     table { border: 0; border-spacing: 0; }\n\
     code { background: none; color: inherit; }\n\
     section, header, footer, nav { background: none; }\n";

/// The report as one `<div class="fieldscope-report">` holding its scoped
/// `<style>` and the page's sections (no document, head, script or
/// embedded inputs). Also well-formed XML. Ends with a newline.
pub fn render(report: &Report, options: &ExportOptions, parts: &Parts) -> String {
    let mut out = String::with_capacity(32 * 1024);
    out.push_str(&format!("<div class=\"{ROOT_CLASS}\">\n<style>"));
    out.push_str(&scope(RESET, &format!(".{ROOT_CLASS}")));
    out.push_str(&scope(html::STYLE, &format!(".{ROOT_CLASS}")));
    out.push_str("</style>\n");
    let parts = Parts {
        inputs: None,
        ..*parts
    };
    html::push_body(&mut out, report, options, &parts);
    out.push_str("</div>\n");
    out
}

/// `css` (a style sheet of plain rules, `@media` blocks of plain rules and
/// `@page` rules, no comments or strings holding braces: `html::STYLE`)
/// with every selector confined to `root`:
///
/// * `:root`, `html` and `body` become `root` itself (the variables, font
///   and width the page sets on them are the fragment's own);
/// * `*` becomes `root, root *`;
/// * any other selector `s` becomes `root s`;
/// * `@page` rules are dropped (a fragment does not set the printed page),
///   `@media` blocks are kept with their rules scoped the same way.
///
/// A rule whose selectors all collapse onto `root` keeps one copy of it.
pub fn scope(css: &str, root: &str) -> String {
    let mut out = String::with_capacity(css.len() + css.len() / 2);
    scope_rules(css, root, &mut out, "");
    out
}

fn scope_rules(css: &str, root: &str, out: &mut String, indent: &str) {
    let mut rest = css;
    while let Some(open) = rest.find('{') {
        let prelude = rest[..open].trim();
        let Some(len) = block_len(&rest[open..]) else {
            break;
        };
        // The block's content, between its braces.
        let content = &rest[open + 1..open + len - 1];
        rest = &rest[open + len..];
        if prelude.starts_with("@page") {
            continue;
        }
        if prelude.starts_with("@media") {
            out.push_str(&format!("{indent}{prelude} {{\n"));
            scope_rules(content, root, out, "  ");
            out.push_str(&format!("{indent}}}\n"));
            continue;
        }
        let mut selectors: Vec<String> = Vec::new();
        for s in prelude.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let scoped: Vec<String> = match s {
                ":root" | "html" | "body" => vec![root.to_string()],
                "*" => vec![root.to_string(), format!("{root} *")],
                s => vec![format!("{root} {s}")],
            };
            for s in scoped {
                if !selectors.contains(&s) {
                    selectors.push(s);
                }
            }
        }
        if selectors.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "{indent}{} {{ {} }}\n",
            selectors.join(", "),
            content.trim()
        ));
    }
}

/// The length of the block `text` starts with (`{` … its matching `}`),
/// or `None` when it is not closed.
fn block_len(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_are_confined_to_the_root() {
        let css = ":root { --ink: #111; }\n* { box-sizing: border-box; }\nhtml { background: #fff; }\n\
                   body { margin: 0 auto; }\nh1, table.defs td { font-size: 2rem; }\n\
                   @page { margin: 14mm; }\n@media print {\n  html, body { color: #000; }\n  nav.contents { display: none; }\n}\n";
        assert_eq!(
            scope(css, ".r"),
            ".r { --ink: #111; }\n\
             .r, .r * { box-sizing: border-box; }\n\
             .r { background: #fff; }\n\
             .r { margin: 0 auto; }\n\
             .r h1, .r table.defs td { font-size: 2rem; }\n\
             @media print {\n  .r { color: #000; }\n  .r nav.contents { display: none; }\n}\n"
        );
    }

    #[test]
    fn an_unclosed_block_ends_the_sheet() {
        assert_eq!(scope("a { x: 1; }\nb { y: 2;", ".r"), ".r a { x: 1; }\n");
        assert_eq!(scope("", ".r"), "");
    }

    /// Every rule of the page's own style, scoped: each selector starts
    /// with the root class, and no rule names `body`, `html`, `:root` or a
    /// bare `*`, or sets the printed page.
    #[test]
    fn the_page_style_scoped_has_no_global_rule() {
        let scoped = scope(html::STYLE, ".fieldscope-report");
        assert!(!scoped.contains("@page"));
        let mut rules = 0;
        for line in scoped.lines() {
            let Some((selectors, _)) = line.split_once('{') else {
                continue;
            };
            let selectors = selectors.trim();
            if selectors.starts_with("@media") {
                continue;
            }
            for s in selectors.split(',').map(str::trim) {
                rules += 1;
                assert!(
                    s == ".fieldscope-report" || s.starts_with(".fieldscope-report "),
                    "{s:?} in {line:?}"
                );
                for global in ["body", "html", ":root"] {
                    assert!(!s.split_whitespace().any(|w| w == global), "{line}");
                }
            }
        }
        // The page's style has about fifty rules; all of them came through.
        assert!(rules > 50, "{rules}");
    }
}
