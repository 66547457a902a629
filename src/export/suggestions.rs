//! SPEC §7.4's suggestions as the reports show them (issue 32): the HTML
//! page's and the Markdown report's "Suggestions" section, worded as the
//! app's suggestions card words them — what a suggestion changes, then the
//! one line of configuration that applies it.
//!
//! Owns: that wording ([`Wording`], [`HINT`]) and the two sections;
//! `export::html` calls [`push_html`] (and lists [`SECTION`] in its
//! contents), `export::markdown` calls [`push_markdown`]. A report without
//! suggestions gets neither, so its output is byte-identical to before.
//! Every user string (a field path is one) goes through the format's own
//! escaper (`html::escape`, `markdown::escape`).
//!
//! Depends on: `crate::eval::report`.

use crate::eval::report::{Report, Suggestion};

/// The section's id and heading, for the HTML page's contents list.
pub const SECTION: (&str, &str) = ("suggestions", "Suggestions");

/// The sentence under the heading: SPEC §7.4's rule, as the app says it.
pub const HINT: &str = "Fields whose truth values are all strings, at least 5, of which at least \
     95 % read as numbers (or dates). A type makes them compared as such; suggestions never \
     change a score until applied.";

/// One suggestion in words, unescaped: each format escapes the parts.
#[derive(Debug, Clone, PartialEq)]
pub struct Wording {
    /// The field path.
    pub field: String,
    /// "a number" or "a date".
    pub as_type: &'static str,
    /// What it changes: "100.0 % of its truth values are strings that read
    /// as numbers; compared as strings, equal numbers written differently
    /// count as wrong."
    pub proposal: String,
    /// The suggestion's `config` as one line of JSON
    /// (`{"field_types":{"total":"number"}}`), to merge into a config file.
    pub config: String,
}

impl Wording {
    /// The words of `s` (the app's `field_types::proposal`; the share with
    /// one decimal, as `app::format::percent`).
    pub fn of(s: &Suggestion) -> Wording {
        let (as_type, what) = match s.r#type.as_str() {
            "date" => ("a date", "dates"),
            _ => ("a number", "numbers"),
        };
        Wording {
            field: s.field.clone(),
            as_type,
            proposal: format!(
                "{:.1} % of its truth values are strings that read as {what}; compared as \
                 strings, equal {what} written differently count as wrong.",
                100.0 * s.share
            ),
            config: s.config.to_string(),
        }
    }
}

/// Appends the HTML section (after the warnings) when the report has
/// suggestions; nothing otherwise.
pub fn push_html(out: &mut String, report: &Report) {
    use crate::escape::html as escape;
    if report.suggestions.is_empty() {
        return;
    }
    out.push_str(&format!(
        "<section id=\"{}\">\n<h2>{}</h2>\n<p>{}</p>\n<ul>\n",
        SECTION.0,
        SECTION.1,
        escape(HINT)
    ));
    for w in report.suggestions.iter().map(Wording::of) {
        out.push_str(&format!(
            "<li>Treat <code>{}</code> as {}: {} Config: <code>{}</code></li>\n",
            escape(&w.field),
            w.as_type,
            escape(&w.proposal),
            escape(&w.config)
        ));
    }
    out.push_str("</ul>\n</section>\n");
}

/// Appends the Markdown section ("## Suggestions", one list item each)
/// when the report has suggestions; nothing otherwise.
pub fn push_markdown(out: &mut String, report: &Report) {
    use crate::escape::markdown as escape;
    if report.suggestions.is_empty() {
        return;
    }
    out.push_str("\n## Suggestions\n\n");
    out.push_str(&escape(HINT));
    out.push_str("\n\n");
    for w in report.suggestions.iter().map(Wording::of) {
        out.push_str(&format!(
            "- Treat {} as {}: {} Config: {}\n",
            escape(&w.field),
            w.as_type,
            escape(&w.proposal),
            escape(&w.config)
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn suggestion(field: &str, ty: &str, share: f64) -> Suggestion {
        Suggestion {
            field: field.into(),
            r#type: ty.into(),
            share,
            config: json!({"field_types": {field: ty}}),
        }
    }

    fn report(suggestions: Vec<Suggestion>) -> Report {
        let mut r: Report = serde_json::from_value(json!({
            "fieldscope_report": 1,
            "config": crate::eval::Config::default().to_json(),
            "warnings": [], "suggestions": [],
            "documents": 0, "models": []
        }))
        .expect("a minimal report");
        r.suggestions = suggestions;
        r
    }

    #[test]
    fn wording_says_the_share_and_the_config() {
        // 19 of 20 values read as numbers: 19/20 = 0.95 → "95.0 %".
        let w = Wording::of(&suggestion("total", "number", 0.95));
        assert_eq!(w.as_type, "a number");
        assert_eq!(
            w.proposal,
            "95.0 % of its truth values are strings that read as numbers; compared as strings, \
             equal numbers written differently count as wrong."
        );
        assert_eq!(w.config, r#"{"field_types":{"total":"number"}}"#);
        let d = Wording::of(&suggestion("issued", "date", 1.0));
        assert_eq!(d.as_type, "a date");
        assert!(d
            .proposal
            .starts_with("100.0 % of its truth values are strings that read as dates;"));
    }

    #[test]
    fn no_suggestions_no_section() {
        let (mut html, mut md) = (String::new(), String::new());
        push_html(&mut html, &report(vec![]));
        push_markdown(&mut md, &report(vec![]));
        assert_eq!(html, "");
        assert_eq!(md, "");
    }

    #[test]
    fn hostile_field_paths_are_escaped_in_both_formats() {
        let r = report(vec![suggestion("<b>x</b>|`y`", "number", 1.0)]);
        let mut html = String::new();
        push_html(&mut html, &r);
        assert!(html.contains("<li>Treat <code>&lt;b&gt;x&lt;/b&gt;|`y`</code> as a number: "));
        assert!(html.contains(
            "Config: <code>{&quot;field_types&quot;:{&quot;&lt;b&gt;x&lt;/b&gt;|`y`&quot;:&quot;number&quot;}}</code></li>"
        ));
        assert!(!html.contains("<b>"));
        let mut md = String::new();
        push_markdown(&mut md, &r);
        let item = md
            .lines()
            .find(|l| l.starts_with("- Treat"))
            .expect("an item");
        // `<` before a letter or `/` gets a backslash (inert, readable).
        assert!(
            item.starts_with("- Treat \\<b>x\\</b>\\|\\`y\\` as a number: 100.0 % "),
            "{item}"
        );
    }

    #[test]
    fn unicode_paths_are_kept() {
        let r = report(vec![suggestion("montant_€.valeur", "number", 1.0)]);
        let mut md = String::new();
        push_markdown(&mut md, &r);
        assert!(md.contains("- Treat montant\\_€.valeur as a number: "));
        assert!(md.contains(r#"Config: {"field\_types":{"montant\_€.valeur":"number"}}"#));
    }
}
