//! The HTML report's "Per-field results" overview (issue 34): reports stay
//! readable at benchmark scale (dozens of document types, hundreds of
//! fields, several models). `super::html` opens the section, calls
//! [`push_overview`] and adds each model's collapsed table.
//!
//! Owns, in page order:
//! * with several schemas, the **By document type** table
//!   (`eval::groups::type_table`): one row per type, its documents and
//!   each model's micro F1 and accuracy, the best model in bold;
//! * the **field matrix** (`eval::groups::field_matrix`): one row per
//!   field, each model's F1 and support in its column, the rows that
//!   matter first (where the models disagree most or all fall short), at
//!   most [`MATRIX_TOP`] of them; the rows exact for every model folded
//!   into one line;
//! * one collapsible `<details>` section per **group** of fields (the
//!   document type, or the path's first segment): its matrix rows, its
//!   heatmap when given, its folded rows by name — with several schemas or
//!   in a wide report (more fields than one heatmap shows); otherwise the
//!   matrix holds every row and only the folded rows' names follow;
//!
//! Everything collapsible is a `<details>` element: it opens without a
//! script, and the page's print style shows its content (sections print
//! expanded). The matrix of at most [`FIXED_MODELS`] models is laid out
//! to the page's width (no sideways scrolling); a wider one scrolls inside
//! its box. Depends on `crate::escape` (the one HTML escaper) and
//! `eval::groups` for every figure and order; never on its parent or on
//! `super::html` (the caller passes the ratio format and the figures).

use crate::escape::html as escape;
use crate::eval::groups::{self, DocTypes, FieldMatrix, Group, MatrixRow};
use crate::eval::report::Report;

/// How the page prints a ratio (`Number::Ratio(x).format(options)`, given
/// by the caller so that this module needs nothing of its parent).
pub type Ratio<'a> = &'a dyn Fn(f64) -> String;

/// What a missing value reads as (as in the page's other tables).
const NONE: &str = "—";

/// Tables with more rows than this may break across printed pages (the
/// page's other tables use the same number).
const LONG_TABLE: usize = 20;

/// The most matrix rows shown outside the collapsed sections.
pub const MATRIX_TOP: usize = 50;

/// The most models whose matrix is laid out to the page's width.
pub const FIXED_MODELS: usize = 6;

/// The section's overview: the by-type table (with `types`), the field
/// matrix and the groups, each group's heatmaps being `group_figures[i]`
/// (the figures' markup; none when shorter). The caller opens the section
/// and adds the per-model tables.
pub fn push_overview(
    out: &mut String,
    report: &Report,
    types: Option<&DocTypes>,
    ratio: Ratio,
    group_figures: &[String],
) {
    let matrix = groups::field_matrix(report);
    let groups = groups::groups(&matrix, types);
    push_type_table(out, report, types, ratio, &groups);
    push_matrix_overview(out, &matrix, ratio);
    push_groups(out, &matrix, ratio, &groups, types, group_figures);
}

fn push_type_table(
    out: &mut String,
    report: &Report,
    types: Option<&DocTypes>,
    ratio: Ratio,
    groups: &[Group],
) {
    let rows = groups::type_table(report, types);
    if rows.is_empty() {
        return;
    }
    let from_slices = report
        .slices
        .as_ref()
        .is_some_and(|s| s.by.iter().any(|k| k == crate::eval::slices::SCHEMA));
    let how = if from_slices {
        "micro scores over the type's documents (the report's <code>_schema</code> slices, SPEC §9.2)"
    } else {
        "micro scores of the counts pooled over the type's own fields (those its schema names \
         and no other schema does: a field several schemas name, such as the selector, is \
         pooled over all their documents and left out here; evaluate with \
         <code>--slice-by _schema</code> for scores over each type's documents)"
    };
    out.push_str("<h3 id=\"by-type\">By document type</h3>\n");
    open_table(
        out,
        report,
        rows.len(),
        &format!(
            "One row per document type (schema): its documents and each model's F1 with its \
             accuracy below it, {how}. Bold: the best F1 of the row; — : no outcome. The \
             type's name opens its fields below."
        ),
        &["Type", "Documents"],
    );
    for r in &rows {
        let name = match groups.iter().position(|g| g.name == r.name) {
            Some(i) => format!("<a href=\"#group-{}\">{}</a>", i + 1, escape(&r.name)),
            None => escape(&r.name),
        };
        out.push_str(&format!(
            "<tr><th scope=\"row\">{name}</th><td>{}</td>",
            r.documents
        ));
        for (m, s) in r.scores.iter().enumerate() {
            match s {
                None => out.push_str(&format!("<td>{NONE}</td>")),
                Some(s) => out.push_str(&format!(
                    "<td>{}<br /><small>acc. {}</small></td>",
                    bold_if(r.best.contains(&m), ratio(s.f1)),
                    ratio(s.accuracy)
                )),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
}

fn bold_if(bold: bool, text: String) -> String {
    if bold {
        format!("<strong>{text}</strong>")
    } else {
        text
    }
}

/// Opens a matrix-style table: its box, caption and header (`first`
/// columns, then one per model), up to the `<tbody>`.
fn open_table(out: &mut String, report: &Report, rows: usize, caption: &str, first: &[&str]) {
    let long = if rows > LONG_TABLE { " long" } else { "" };
    out.push_str(&format!(
        "<div class=\"scroll\">\n<table class=\"{}{long}\">\n<caption>{caption}</caption>\n<thead><tr>",
        matrix_class(report.models.len())
    ));
    for h in first {
        out.push_str(&format!("<th scope=\"col\">{h}</th>"));
    }
    for m in &report.models {
        out.push_str(&format!("<th scope=\"col\">{}</th>", escape(&m.name)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
}

fn matrix_class(models: usize) -> &'static str {
    if models <= FIXED_MODELS {
        "matrix"
    } else {
        "matrix many"
    }
}

fn push_matrix_overview(out: &mut String, matrix: &FieldMatrix, ratio: Ratio) {
    out.push_str("<h3 id=\"field-matrix\">Fields that matter</h3>\n");
    let total = matrix.rows.len() + matrix.exact.len();
    let shown = matrix.rows.len().min(MATRIX_TOP);
    out.push_str(&format!(
        "<p class=\"folded\">{}</p>\n",
        folded_sentence(matrix.exact.len(), total)
    ));
    if matrix.rows.is_empty() {
        return;
    }
    let rest = if matrix.rows.len() > shown {
        format!(
            " The first {shown} of the {} fields not exact for every model; the others are in \
             their groups below.",
            matrix.rows.len()
        )
    } else {
        String::new()
    };
    let rows: Vec<&MatrixRow> = matrix.rows.iter().take(shown).collect();
    let caption = format!(
        "The field matrix: each model's F1 per field, with the field's support (true values \
         present) in parentheses; bold: the row's best. Ordered by importance = max(spread, 1 − \
         best F1), spread being the best F1 minus the worst, so fields where the models disagree \
         most and fields every model fails come first.{rest}"
    );
    push_matrix(out, matrix, &rows, &caption, ratio);
}

/// "N fields are exact for every model" (of the total).
fn folded_sentence(exact: usize, total: usize) -> String {
    match (exact, total) {
        (_, 0) => "No fields.".to_string(),
        (e, t) if e == t => format!("All {t} fields are exact for every model."),
        (0, t) => format!("None of the {t} fields is exact for every model."),
        (1, t) => format!("1 of the {t} fields is exact for every model and folded away."),
        (e, t) => format!("{e} of the {t} fields are exact for every model and folded away."),
    }
}

/// The matrix rows `rows` as a table.
fn push_matrix(
    out: &mut String,
    matrix: &FieldMatrix,
    rows: &[&MatrixRow],
    caption: &str,
    ratio: Ratio,
) {
    let long = if rows.len() > LONG_TABLE { " long" } else { "" };
    out.push_str(&format!(
        "<div class=\"scroll\">\n<table class=\"{}{long}\">\n<caption>{caption}</caption>\n<thead><tr><th scope=\"col\">Field</th>",
        matrix_class(matrix.models.len())
    ));
    for name in &matrix.models {
        out.push_str(&format!("<th scope=\"col\">{}</th>", escape(name)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        let best = row.best();
        out.push_str(&format!(
            "<tr><th scope=\"row\">{}</th>",
            escape(&row.field)
        ));
        for (m, cell) in row.cells.iter().enumerate() {
            match cell {
                None => out.push_str(&format!("<td>{NONE}</td>")),
                Some(c) => {
                    // Bold marks a row's best only where the models differ.
                    let bold = best.contains(&m) && best.len() < row.cells.len();
                    out.push_str(&format!(
                        "<td>{} <small>({})</small></td>",
                        bold_if(bold, ratio(c.f1)),
                        c.support
                    ));
                }
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
}

fn push_groups(
    out: &mut String,
    matrix: &FieldMatrix,
    ratio: Ratio,
    groups: &[Group],
    types: Option<&DocTypes>,
    group_figures: &[String],
) {
    let wide = crate::charts::is_wide(matrix.len());
    if types.is_none() && !wide && matrix.rows.len() <= MATRIX_TOP {
        // A narrow report without types: every row is in the matrix
        // already; only the folded rows' names remain to be shown.
        let all = Group {
            name: String::new(),
            rows: Vec::new(),
            exact: (0..matrix.exact.len()).collect(),
            documents: None,
        };
        push_folded(out, matrix, &all);
        return;
    }
    let kind = if types.is_some() {
        "document type"
    } else {
        "first segment of the path"
    };
    out.push_str(&format!(
        "<h3 id=\"groups\">By group</h3>\n<p>The fields grouped by {kind}; open a group to see \
         its fields not exact for every model{}, and the names of the others.</p>\n",
        if group_figures.is_empty() {
            ""
        } else {
            " and their heatmap"
        }
    ));
    for (i, g) in groups.iter().enumerate() {
        let documents = g
            .documents
            .map(|d| format!("{d} document{} · ", if d == 1 { "" } else { "s" }))
            .unwrap_or_default();
        out.push_str(&format!(
            "<details class=\"group\" id=\"group-{}\">\n<summary><span class=\"name\">{}</span> \
             <small>{documents}{} field{} · {} not exact for every model</small></summary>\n",
            i + 1,
            escape(&g.name),
            g.rows.len() + g.exact.len(),
            if g.rows.len() + g.exact.len() == 1 {
                ""
            } else {
                "s"
            },
            g.rows.len()
        ));
        if !g.rows.is_empty() {
            let rows: Vec<&MatrixRow> = g.rows.iter().map(|&r| &matrix.rows[r]).collect();
            let caption = format!(
                "The fields of <bdi>{}</bdi> not exact for every model, in the field matrix's \
                 order (F1, support in parentheses; bold: the row's best).",
                escape(&g.name)
            );
            push_matrix(out, matrix, &rows, &caption, ratio);
        }
        if let Some(figures) = group_figures.get(i) {
            out.push_str(figures);
        }
        push_folded(out, matrix, g);
        out.push_str("</details>\n");
    }
}

/// The names of the group's rows exact for every model, folded.
fn push_folded(out: &mut String, matrix: &FieldMatrix, g: &Group) {
    if g.exact.is_empty() {
        return;
    }
    let names: Vec<String> = g
        .exact
        .iter()
        .map(|&r| format!("<code>{}</code>", escape(&matrix.exact[r].field)))
        .collect();
    let n = names.len();
    out.push_str(&format!(
        "<details class=\"folded\">\n<summary>{n} field{} exact for every model</summary>\n<p>{}</p>\n</details>\n",
        if n == 1 { "" } else { "s" },
        names.join(", ")
    ));
}
