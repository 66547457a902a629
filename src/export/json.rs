//! JSON export: the report as pretty-printed JSON, the machine-readable
//! contract of SPEC §5.
//!
//! Owns: nothing but the call to `serde_json`; the shape is the serde form
//! of [`Report`]. Numbers are written unrounded (shortest round-trip form)
//! and "not applicable" as `null`, so [`ExportOptions`] is ignored. There is
//! nothing to escape beyond what JSON strings already escape.
//!
//! Depends on: `crate::eval::report` only.

use super::ExportOptions;
use crate::eval::report::Report;

/// The report as pretty-printed JSON followed by a newline.
pub fn render(report: &Report, _options: &ExportOptions) -> String {
    // The confidence views (charts, slider) are not SPEC §8.5's keys.
    let has_views = report
        .models
        .iter()
        .any(|m| m.confidence.as_ref().is_some_and(|c| c.views.is_some()));
    let stripped;
    let report = if has_views {
        let mut copy = report.clone();
        for c in copy.models.iter_mut().filter_map(|m| m.confidence.as_mut()) {
            c.views = None;
        }
        stripped = copy;
        &stripped
    } else {
        report
    };
    // The report holds only strings, numbers, booleans and string-keyed
    // maps, so serialisation cannot fail (serde_json writes a non-finite
    // float as null rather than failing).
    let mut text = serde_json::to_string_pretty(report).expect("a Report always serialises");
    text.push('\n');
    text
}
