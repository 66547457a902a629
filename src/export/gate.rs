//! The gate's outputs (issue 17): the Markdown summary for a pull request,
//! the JSON of every check, and JUnit XML for CI test reports.
//!
//! Owns: rendering a [`GateReport`] and the flipped documents of its
//! comparisons; escaping user text (model, field and document names,
//! values) for Markdown ([`markdown::escape`]) and XML ([`xml_escape`]).
//! Depends on `eval::gate` and the number helpers of `export`.
//!
//! **JUnit** (the format GitHub's test-report actions, GitLab's
//! `artifacts:reports:junit` and Jenkins' JUnit plugin read; schema in
//! `tests/data/junit.xsd`): one `<testsuites>` root with the totals, one
//! `<testsuite>` per model (the baseline's too, even with no checks), one
//! `<testcase>` per check whose `name` says the model and the metric or
//! field and whose `classname` is `fieldscope.gate.MODEL`, and a
//! `<failure message="…" type="threshold|regression">` holding the numbers
//! when the check failed. No times or timestamps: the same inputs give the
//! same file.

use super::markdown;
use super::{fixed, ExportOptions};
pub use crate::escape::xml as xml_escape;
use crate::eval::gate::flips::{Comparison, Flip};
use crate::eval::gate::metric::Op;
use crate::eval::gate::{Check, CheckKind, GateReport};
use crate::eval::report::Outcome;

/// How many regressions and fixes of each comparison the Markdown lists.
pub const MARKDOWN_FLIPS: usize = 20;

/// The longest value shown in a Markdown cell, in characters.
const VALUE_CHARS: usize = 60;

fn number(x: Option<f64>, options: &ExportOptions) -> String {
    match x {
        Some(x) if x.is_finite() => fixed(x, options.decimals),
        Some(_) | None => "null".to_string(),
    }
}

/// A signed number: `+0.0100`, `−0.0100` (a true minus sign), `0.0000`.
fn signed(x: f64, options: &ExportOptions) -> String {
    let text = fixed(x, options.decimals);
    if let Some(rest) = text.strip_prefix('-') {
        format!("\u{2212}{rest}")
    } else if x > 0.0 && text.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        format!("+{text}")
    } else {
        text
    }
}

fn p_value(p: f64) -> String {
    if p < 0.0001 {
        format!("{p:.1e}")
    } else {
        format!("{p:.4}")
    }
}

/// What a check tested, in words (plain text, escaped by each format).
pub fn check_title(c: &Check) -> String {
    match c.kind {
        CheckKind::Require => format!(
            "{}: {} {} {}",
            c.model,
            c.metric,
            c.op.map_or("", |o| o.symbol()),
            c.threshold.map_or(String::new(), |t| t.to_string())
        ),
        CheckKind::NoRegression => format!(
            "{}: no regression of {} against {}",
            c.model,
            c.metric,
            c.baseline.as_deref().unwrap_or("")
        ),
    }
}

/// The numbers of a check in one line of plain text.
pub fn check_numbers(c: &Check, report: &GateReport, options: &ExportOptions) -> String {
    let interval = c.interval.map_or(String::new(), |b| {
        let f = |x| match c.kind {
            CheckKind::Require => fixed(x, options.decimals),
            CheckKind::NoRegression => signed(x, options),
        };
        format!(
            ", {} % interval [{}, {}]",
            report.level * 100.0,
            f(b.low),
            f(b.high)
        )
    });
    match c.kind {
        CheckKind::Require => match c.value {
            Some(v) => format!(
                "value {} {} threshold {}{interval}",
                fixed(v, options.decimals),
                if c.passed { "meets" } else { "does not meet" },
                format_args!(
                    "{} {}",
                    c.op.map_or("", |o| o.symbol()),
                    c.threshold.unwrap_or(f64::NAN)
                )
            ),
            None => "value null (not applicable): the requirement cannot hold".to_string(),
        },
        CheckKind::NoRegression => format!(
            "{} {} → {} {} (difference {}{interval}), drop {}, one-sided p {}, Holm-adjusted p {} ({} alpha {}; min drop {})",
            c.baseline.as_deref().unwrap_or(""),
            number(c.baseline_value, options),
            c.model,
            number(c.value, options),
            signed(c.difference.unwrap_or(0.0), options),
            number(c.drop, options),
            p_value(c.p_value.unwrap_or(1.0)),
            p_value(c.p_holm.unwrap_or(1.0)),
            if c.p_holm.is_some_and(|p| p <= report.alpha) { "≤" } else { ">" },
            report.alpha,
            report.min_drop
        ),
    }
}

/// The failed checks first, then the others, each group in the report's
/// order.
fn failures_first(report: &GateReport) -> impl Iterator<Item = &Check> {
    let failed = report.checks.iter().filter(|c| !c.passed);
    failed.chain(report.checks.iter().filter(|c| c.passed))
}

/// The Markdown summary: verdict, every check (failures first) with its
/// value, threshold or difference, interval and adjusted p, then each
/// candidate's flipped documents (the first [`MARKDOWN_FLIPS`] each way),
/// then the warnings.
pub fn markdown(report: &GateReport, options: &ExportOptions) -> String {
    let esc = markdown::escape;
    let total = report.checks.len();
    let mut out = String::new();
    if report.passed {
        out.push_str(&format!(
            "## ✅ fieldscope gate passed: {total} of {total} checks\n\n"
        ));
    } else {
        out.push_str(&format!(
            "## ❌ fieldscope gate failed: {} of {total} checks failed\n\n",
            report.checks_failed
        ));
    }
    let models: Vec<String> = report.models.iter().map(|m| esc(m)).collect();
    out.push_str(&format!(
        "{} documents; models: {}",
        report.documents,
        models.join(", ")
    ));
    if let Some(b) = &report.baseline {
        out.push_str(&format!(
            "; baseline: {}. No regression: paired bootstrap over documents ({} resamples, seed {}), one-sided (candidate worse), Holm-adjusted over each candidate's checks; a check fails when the adjusted p ≤ {} and the drop > {}",
            esc(b),
            report.resamples,
            report.seed,
            report.alpha,
            report.min_drop
        ));
    }
    out.push_str(&format!(
        ". Intervals: {} % percentile bootstrap.\n\n",
        report.level * 100.0
    ));
    if total > 0 {
        out.push_str("| | Model | Check | Value | Threshold / difference | ");
        out.push_str(&format!(
            "{} % interval | Adjusted p |\n|---|---|---|---:|---|---|---:|\n",
            report.level * 100.0
        ));
    }
    for c in failures_first(report) {
        let verdict = if c.passed { "✅ pass" } else { "❌ fail" };
        let interval = c.interval.map_or("—".to_string(), |b| {
            let f = |x| match c.kind {
                CheckKind::Require => fixed(x, options.decimals),
                CheckKind::NoRegression => signed(x, options),
            };
            format!("[{}, {}]", f(b.low), f(b.high))
        });
        let (check, against, p) = match c.kind {
            CheckKind::Require => (
                esc(&c.metric),
                format!(
                    "{} {}",
                    c.op.map_or("", |o| match o {
                        Op::Ge => "≥",
                        Op::Gt => "\\>",
                        Op::Le => "≤",
                        Op::Lt => "\\<",
                        Op::Eq => "=",
                    }),
                    c.threshold.unwrap_or(f64::NAN)
                ),
                "—".to_string(),
            ),
            CheckKind::NoRegression => (
                format!("no regression of {}", esc(&c.metric)),
                format!(
                    "{} vs {} {}",
                    signed(c.difference.unwrap_or(0.0), options),
                    esc(c.baseline.as_deref().unwrap_or("")),
                    number(c.baseline_value, options)
                ),
                p_value(c.p_holm.unwrap_or(1.0)),
            ),
        };
        out.push_str(&format!(
            "| {verdict} | {} | {check} | {} | {against} | {interval} | {p} |\n",
            esc(&c.model),
            number(c.value, options),
        ));
    }
    for comparison in &report.comparisons {
        push_flips_markdown(&mut out, comparison, MARKDOWN_FLIPS);
    }
    if !report.warnings.is_empty() {
        out.push_str("\n**Warnings**\n\n");
        for w in &report.warnings {
            out.push_str(&format!("- {}\n", esc(w)));
        }
    }
    out
}

/// A JSON value for a Markdown cell: compact, at most [`VALUE_CHARS`]
/// characters (then `…`), escaped.
fn cell_value(v: &serde_json::Value) -> String {
    let text = match v {
        serde_json::Value::Null => "(none)".to_string(),
        v => serde_json::to_string(v).unwrap_or_default(),
    };
    let mut short: String = text.chars().take(VALUE_CHARS).collect();
    if text.chars().count() > VALUE_CHARS {
        short.push('…');
    }
    markdown::escape(&short)
}

fn outcome(o: Option<Outcome>) -> &'static str {
    o.map_or("no row", Outcome::name)
}

/// A comparison's flipped documents as Markdown: counts per field, then
/// the first `limit` regressions and fixes.
pub fn push_flips_markdown(out: &mut String, c: &Comparison, limit: usize) {
    let esc = markdown::escape;
    out.push_str(&format!(
        "\n### Flipped documents: {} against {}\n\n{} regressions (exact → not exact) and {} fixes (not exact → exact) over {} documents.\n",
        esc(&c.candidate),
        esc(&c.baseline),
        c.regressions.len(),
        c.fixes.len(),
        c.documents
    ));
    if c.fields.is_empty() {
        return;
    }
    out.push_str("\n| Field | Regressions | Fixes |\n|---|---:|---:|\n");
    for f in &c.fields {
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            esc(&f.field),
            f.regressions,
            f.fixes
        ));
    }
    for (title, list) in [("Regressions", &c.regressions), ("Fixes", &c.fixes)] {
        if list.is_empty() {
            continue;
        }
        let shown = list.len().min(limit);
        out.push_str(&format!(
            "\n**{title}** ({})\n\n| Document | Field | Truth | {} | {} |\n|---|---|---|---|---|\n",
            if shown < list.len() {
                format!("first {shown} of {}", list.len())
            } else {
                format!("all {}", list.len())
            },
            esc(&c.baseline),
            esc(&c.candidate)
        ));
        for f in list.iter().take(limit) {
            push_flip_row(out, f);
        }
    }
}

fn push_flip_row(out: &mut String, f: &Flip) {
    let field = match f.truth_item {
        Some(i) => format!("{} (item {})", f.field, i + 1),
        None => f.field.clone(),
    };
    out.push_str(&format!(
        "| {} | {} | {} | {} ({}) | {} ({}) |\n",
        markdown::escape(&f.id),
        markdown::escape(&field),
        cell_value(&f.truth),
        cell_value(&f.baseline_prediction),
        outcome(f.baseline_outcome),
        cell_value(&f.candidate_prediction),
        outcome(f.candidate_outcome),
    ));
}

/// Every check, the verdict and every flipped document, as pretty JSON.
pub fn json(report: &GateReport) -> String {
    let mut text = serde_json::to_string_pretty(report).unwrap_or_default();
    text.push('\n');
    text
}

/// The JUnit XML report (see the module documentation).
pub fn junit(report: &GateReport, options: &ExportOptions) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<testsuites name=\"fieldscope gate\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n",
        report.checks.len(),
        report.checks_failed
    ));
    for model in &report.models {
        let checks: Vec<&Check> = report.checks.iter().filter(|c| &c.model == model).collect();
        let failures = checks.iter().filter(|c| !c.passed).count();
        out.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">\n",
            xml_escape(&format!("fieldscope gate: {model}")),
            checks.len()
        ));
        let classname = xml_escape(&format!("fieldscope.gate.{model}"));
        for c in checks {
            let name = xml_escape(&check_title(c));
            if c.passed {
                out.push_str(&format!(
                    "    <testcase classname=\"{classname}\" name=\"{name}\"/>\n"
                ));
                continue;
            }
            let numbers = xml_escape(&check_numbers(c, report, options));
            let kind = match c.kind {
                CheckKind::Require => "threshold",
                CheckKind::NoRegression => "regression",
            };
            out.push_str(&format!(
                "    <testcase classname=\"{classname}\" name=\"{name}\">\n      <failure message=\"{numbers}\" type=\"{kind}\">{name}: {numbers}</failure>\n    </testcase>\n"
            ));
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}
