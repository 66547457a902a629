//! The session's native tests: loading, roles, settings, the caches,
//! validity, bundles and fragments, one child module per topic (`files`,
//! `settings`, `validity`, `prepared`, `slices`); here the helpers they
//! share.
use super::*;
use crate::eval::config::MatchMethod;
use crate::synth::{generate, SynthOptions};
use serde_json::json;

mod files;
mod prepared;
mod settings;
mod slices;
mod validity;

/// Every preset and a value other than the default of every setting
/// (the settings panel's keys).
fn settings_to_try() -> Vec<(&'static str, Value)> {
    vec![
        ("preset", json!("exact")),
        ("preset", json!("not-found")),
        ("preset", json!("invoice-cer")),
        ("preset", json!("standard")),
        ("id_field", json!("id")),
        ("id_field", json!("no_such_field")),
        ("id_field", Value::Null),
        ("absent_values", json!(["NOT_FOUND"])),
        ("ignored_fields", json!(["notes"])),
        ("numeric_string_fields", json!(["invoice_number"])),
        ("date_fields", json!(["due_date"])),
        ("date_order", json!("mdy")),
        ("case_sensitive", json!(true)),
        ("numeric_tolerance", json!(0.01)),
        ("string_match.method", json!("cer")),
        ("string_match.cer_threshold", json!(0.3)),
        ("partial_matching.string.exact_threshold", json!(0.9)),
        ("partial_matching.string.partial_threshold", json!(0.2)),
        ("incorrect_counts_as", json!(["fp"])),
        ("zero_division", json!(1)),
        ("empty_document_score", json!(0)),
        ("macro_f1", json!("mean")),
        ("item_f1_threshold", json!(0.5)),
        ("top_k", json!([1, 2])),
        (
            "document_extraction_score.weights.schema_validity",
            json!(0.5),
        ),
        ("field_weights", json!({"total": 2})),
    ]
}

/// Pauses at every slice, stops at the `stop_at`-th (if any), and
/// records what it was told.
struct Recording {
    stop_at: Option<usize>,
    seen: Vec<(usize, usize)>,
}

impl Pace for Recording {
    fn pause(&mut self, done: usize, total: usize) -> Option<crate::eval::pace::PauseFuture> {
        use std::ops::ControlFlow;
        self.seen.push((done, total));
        let go = if Some(self.seen.len()) == self.stop_at {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        };
        Some(Box::pin(std::future::ready(go)))
    }
}

/// The session's evaluation, all at once, and how many pauses it asked
/// for: 450 when it prepared (the example: 50 documents, 4 forests),
/// 50 when it reused what was prepared.
fn evaluated(s: &mut Session, details: bool) -> (Report, usize) {
    let mut pace = Recording {
        stop_at: None,
        seen: Vec::new(),
    };
    let evaluation = s.evaluation(details).unwrap();
    let (report, kept) = on_page(|| run_now(evaluation.run(&mut pace))).unwrap();
    s.keep(kept.unwrap());
    (report.unwrap().unwrap(), pace.seen.len())
}

/// Runs `f` on one thread, as the page runs (wasm32 has one): natively
/// the comparison pass would otherwise run on rayon's pool in batches,
/// pausing once a batch rather than once a document.
fn on_page<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool")
        .install(f)
}

/// The core's evaluation of the session's files from scratch, the
/// schema validity computed by the core itself.
fn fresh_report(s: &Session, details: bool) -> Report {
    let (input, config) = s.inputs().unwrap();
    crate::eval::evaluate_owned(input, &config, details).unwrap()
}
