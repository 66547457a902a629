//! The session's native tests: loading, roles, settings, the caches,
//! validity, bundles and fragments.
use super::*;
use crate::eval::config::MatchMethod;
use serde_json::json;

#[test]
fn the_example_has_truth_three_models_and_a_schema() {
    let mut s = Session::example();
    let roles: Vec<Role> = s.files.iter().map(|f| f.role).collect();
    assert_eq!(
        roles,
        [
            Role::Truth,
            Role::Predictions,
            Role::Predictions,
            Role::Predictions,
            Role::Schema,
            Role::Config
        ]
    );
    assert!(s.files.iter().all(|f| f.parsed.is_ok()));
    let r = s.evaluate().unwrap();
    assert_eq!(r.documents, 50);
    assert_eq!(r.models.len(), 3);
    assert!(r.models.iter().all(|m| m.items.is_some()));
}

/// The example is sliced by `vendor_country` (its config file, not the
/// page's settings layer), which is no scored field, and the good model's
/// German invoices are its weak slice: 12 of the 50 documents, F1 0.902
/// against 0.953 elsewhere, p (Holm) 0.006 (the CLI's report of `synth
/// --documents 50 --seed 19 --paradox --vendor-country` with its schema
/// and that config).
#[test]
fn the_example_has_a_weak_slice_to_show() {
    let r = Session::example().evaluate().unwrap();
    assert_eq!(r.config.slice_by, ["vendor_country"]);
    assert!(r
        .models
        .iter()
        .all(|m| m.fields.iter().all(|f| f.field != "vendor_country")));
    let slices = r.slices.as_ref().expect("slices");
    let weak: Vec<(&str, &serde_json::Value, usize)> = slices
        .models
        .iter()
        .flat_map(|m| {
            m.slices
                .iter()
                .filter(|s| s.weak)
                .map(move |s| (m.name.as_str(), &s.value, s.documents))
        })
        .collect();
    assert_eq!(weak, [("good", &serde_json::json!("DE"), 12)]);
    let de = &slices.models[0].slices[0];
    assert_eq!(format!("{:.3}", de.micro.f1), "0.902");
    assert_eq!(format!("{:.3}", de.micro.f1 + de.delta.unwrap()), "0.953");
    assert_eq!(format!("{:.3}", de.p_holm.unwrap()), "0.006");
}

/// The example shows M0's accuracy paradox to a newcomer: the
/// conservative model has the better accuracy, the aggressive one the
/// better F1 (as printed, four decimals), so the report explains it.
#[test]
fn the_example_shows_the_accuracy_paradox() {
    let r = Session::example().evaluate().unwrap();
    let names: Vec<&str> = r.models.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["good", "conservative", "aggressive"]);
    let (c, a) = (&r.models[1], &r.models[2]);
    assert!(c.micro.accuracy - a.micro.accuracy > 0.005, "{c:?} {a:?}");
    assert!(a.micro.f1 - c.micro.f1 > 0.005, "{c:?} {a:?}");
    assert!(c.counts.true_negative > a.counts.true_negative);
    assert!(a.counts.spurious > 10 * c.counts.spurious);
    let options = crate::export::ExportOptions::default();
    let html = crate::export::html::render(&r, &options, &Default::default());
    assert_eq!(html.matches("<section id=\"accuracy-paradox\">").count(), 1);
}

/// Issue 14: the first drop of the user's own files replaces the
/// example (the example's truth must not become a model named
/// "truth"); files dropped after that are added to the user's set; a
/// bundle replaces everything as before; "Load example" brings the
/// example back.
#[test]
fn the_first_drop_replaces_the_example_and_later_drops_add() {
    let mut s = Session::example();
    assert!(s.shows_example);
    s.settings
        .insert("case_sensitive".into(), Value::Bool(true));
    let truth = b"{\"id\":\"a\",\"total\":1}\n{\"id\":\"b\",\"total\":2}\n".to_vec();
    let pred = b"{\"id\":\"a\",\"total\":1}\n{\"id\":\"b\",\"total\":3}\n".to_vec();
    s.load("truth.jsonl", truth).unwrap();
    assert!(!s.shows_example);
    s.load("mine.jsonl", pred.clone()).unwrap();
    let names: Vec<&str> = s.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["truth.jsonl", "mine.jsonl"]);
    assert_eq!(s.settings.get("case_sensitive"), Some(&Value::Bool(true)));
    let r = s.evaluate().unwrap();
    assert_eq!(r.documents, 2);
    assert_eq!(r.models.len(), 1);
    assert_eq!(r.models[0].counts.exact, 1);
    assert_eq!(r.models[0].counts.incorrect, 1);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    // A later drop adds to the user's files.
    s.load("other.jsonl", pred).unwrap();
    assert_eq!(s.files.len(), 3);
    assert_eq!(s.evaluate().unwrap().models.len(), 2);
    // Clearing is not the example either.
    let mut e = Session::example();
    e.clear();
    assert!(!e.shows_example && e.files.is_empty());
}

#[test]
fn roles_are_detected_by_name_and_content() {
    let mut s = Session::default();
    s.add_file("preds.jsonl", b"{\"id\":\"a\",\"x\":1}\n".to_vec());
    assert_eq!(
        s.files[0].role,
        Role::Truth,
        "the first records file is the truth"
    );
    s.add_file("model.jsonl", b"{\"id\":\"a\",\"x\":2}\n".to_vec());
    assert_eq!(s.files[1].role, Role::Predictions);
    s.add_file("gold.jsonl", b"{\"id\":\"a\",\"x\":1}\n".to_vec());
    assert_eq!(s.files[2].role, Role::Truth);
    assert_eq!(
        s.files[0].role,
        Role::Predictions,
        "a named truth file takes over"
    );
    s.add_file(
        "s.json",
        br#"{"type":"object","properties":{"x":{"type":"number"}}}"#.to_vec(),
    );
    assert_eq!(s.files[3].role, Role::Schema);
    s.add_file("m.json", br#"{"preset":"exact"}"#.to_vec());
    assert_eq!(s.files[4].role, Role::Config);
    assert_eq!(s.files[1].model, "model");
}

#[test]
fn a_failed_file_keeps_its_error_and_the_rest_still_evaluates() {
    let mut s = Session::default();
    s.add_file("truth.jsonl", b"{\"id\":\"a\",\"x\":\"1\"}\n".to_vec());
    s.add_file("good.jsonl", b"{\"id\":\"a\",\"x\":\"1\"}\n".to_vec());
    let bad = s.add_file("bad.jsonl", b"{\"id\":\"a\",\n".to_vec());
    let f = s.files.iter().find(|f| f.id == bad).unwrap();
    assert_eq!(
        f.error().unwrap().to_string(),
        "bad.jsonl:1:10: unexpected end of line while parsing a value (is it truncated?)"
    );
    let r = s.evaluate().unwrap();
    assert_eq!(r.models.len(), 1);
    assert_eq!(r.models[0].micro.f1, 1.0);
}

#[test]
fn settings_are_the_top_layer_and_bad_settings_say_so() {
    let mut s = Session::default();
    s.add_file("truth.jsonl", b"{\"id\":\"a\",\"x\":\"abcdef\"}\n".to_vec());
    s.add_file("m.jsonl", b"{\"id\":\"a\",\"x\":\"abcxyz\"}\n".to_vec());
    s.add_file("c.json", br#"{"preset":"standard"}"#.to_vec());
    assert_eq!(s.evaluate().unwrap().models[0].counts.partial, 1);
    s.set_setting("string_match.method", Some(Value::String("exact".into())));
    let r = s.evaluate().unwrap();
    assert_eq!(r.models[0].counts.incorrect, 1);
    assert_eq!(r.config.string_match.method, MatchMethod::Exact);
    s.set_setting("string_match.method", None);
    assert_eq!(s.evaluate().unwrap().models[0].counts.partial, 1);
    s.set_setting("zero_division", Some(Value::String("x".into())));
    assert_eq!(
        s.evaluate().unwrap_err(),
        "settings: key `zero_division` expects a number, found a string \"x\""
    );
}

#[test]
fn rename_cost_remove() {
    let mut s = Session::default();
    s.add_file("truth.jsonl", b"{\"id\":\"a\",\"x\":1}\n".to_vec());
    let m = s.add_file("m.jsonl", b"{\"id\":\"a\",\"x\":1,\"cost\":0.5}\n".to_vec());
    s.rename_model(m, " GPT ");
    s.set_cost(m, Some(2.0));
    let r = s.evaluate().unwrap();
    assert_eq!(r.models[0].name, "GPT");
    assert_eq!(r.models[0].cost, Some(2.0));
    s.set_cost(m, None);
    assert_eq!(s.evaluate().unwrap().models[0].cost, Some(0.5));
    s.remove(m);
    assert!(s.evaluate().unwrap().models.is_empty());
    s.clear();
    assert_eq!(
        s.evaluate().unwrap_err(),
        "Load a ground-truth file to see a report."
    );
}

#[test]
fn settings_round_trip_through_the_fragment() {
    let mut s = Session::default();
    assert_eq!(settings_to_fragment(&s.settings), "");
    s.set_setting("preset", Some(Value::String("exact".into())));
    s.set_setting(
        "partial_matching.string.exact_threshold",
        Some(serde_json::json!(0.9)),
    );
    let f = settings_to_fragment(&s.settings);
    assert_eq!(
        f,
        r#"settings={"preset":"exact","partial_matching":{"string":{"exact_threshold":0.9}}}"#
    );
    assert_eq!(settings_from_fragment(&f), Some(s.settings.clone()));
    assert_eq!(settings_from_fragment("settings={\"bogus\":1}"), None);
    assert_eq!(settings_from_fragment("other"), None);
}

#[test]
fn a_bundle_reopens_to_the_same_report() {
    let mut s = Session::example();
    let m = s.files[2].id;
    s.rename_model(m, "renamed");
    s.set_cost(m, Some(3.5));
    s.set_setting("preset", Some(Value::String("exact".into())));
    s.add_file("broken.jsonl", vec![0xff, 0xfe, 0x00]);
    let bundle = s.to_bundle();
    let mut t = Session::default();
    t.load("fieldscope-bundle.json", bundle.into_bytes())
        .unwrap();
    assert_eq!(t.files.len(), s.files.len());
    assert_eq!(t.evaluate().unwrap(), s.evaluate().unwrap());
    assert!(t.files.last().unwrap().error().is_some());
    assert_eq!(t.settings, s.settings);
}

/// A report computed with the schema validity kept from the previous
/// evaluation is byte-identical to one computed from scratch, for every
/// key of the settings (each preset and a non-default value of every
/// other key, one at a time and accumulated), for id-field changes
/// (which change the validity) and for file changes in between.
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

#[test]
fn cached_validity_gives_the_reports_of_a_fresh_evaluation() {
    let settings = settings_to_try();
    // Fresh: the core validating every payload itself.
    let fresh = |s: &Session| {
        let (input, config) = s.inputs().unwrap();
        let report = crate::eval::evaluate_owned(input, &config, true);
        serde_json::to_string(&report.map_err(|e| s.schema_error(e))).unwrap()
    };
    // Stored: the session's evaluation with the validity computed as
    // the schema worker computes it, and only when it is not stored.
    let stored = |s: &mut Session| {
        s.compute_validity_now();
        assert!(!s.validity_pending());
        serde_json::to_string(&s.evaluate()).unwrap()
    };
    let mut s = Session::example();
    assert!(s.validity_pending());
    assert_eq!(stored(&mut s), fresh(&s));
    let mut cumulative = s.clone();
    for (path, value) in &settings {
        let mut one = s.clone();
        one.set_setting(path, Some(value.clone()));
        // No setting but the id field asks for the validity again.
        if *path != "id_field" {
            assert!(!one.validity_pending(), "{path} = {value}");
        }
        assert!(one.evaluate().is_ok(), "{path} = {value}");
        assert_eq!(stored(&mut one), fresh(&one), "{path} = {value}");
        cumulative.set_setting(path, Some(value.clone()));
        assert_eq!(
            stored(&mut cumulative),
            fresh(&cumulative),
            "accumulated up to {path} = {value}"
        );
    }
    // The validity does change with the files: a model removed, a
    // prediction file made the truth, the schema removed.
    let ids: Vec<u32> = s.files.iter().map(|f| f.id).collect();
    s.remove(ids[2]);
    assert!(s.validity_pending());
    assert_eq!(stored(&mut s), fresh(&s));
    s.set_role(ids[1], Role::Truth);
    assert!(s.validity_pending());
    assert_eq!(stored(&mut s), fresh(&s));
    s.remove(ids[4]);
    assert!(!s.validity_pending(), "no schema, nothing to validate");
    assert_eq!(stored(&mut s), fresh(&s));
}

/// The files of a drop are added before they are parsed, so the schema
/// worker's job starts at once; its answer is kept when every file
/// parses, and asked again when one does not (the evaluated files
/// changed).
#[test]
fn a_drops_validity_job_starts_before_parsing_and_is_kept_after() {
    let example = Session::example();
    let fresh = |s: &Session| {
        let (input, config) = s.inputs().unwrap();
        serde_json::to_string(&crate::eval::evaluate_owned(input, &config, true).unwrap()).unwrap()
    };
    for broken in [false, true] {
        let mut s = Session::default();
        let mut ids = Vec::new();
        for f in &example.files {
            let mut bytes = f.bytes.to_vec();
            if broken && f.name == "conservative.jsonl" {
                bytes.extend_from_slice(b"{not json\n");
            }
            ids.push(s.load_pending(&f.name, bytes).unwrap().unwrap());
        }
        assert!(s.files.iter().all(LoadedFile::is_pending));
        let roles: Vec<Role> = s.files.iter().map(|f| f.role).collect();
        assert_eq!(
            roles,
            example.files.iter().map(|f| f.role).collect::<Vec<_>>()
        );
        assert!(s.inputs().is_err(), "nothing to evaluate before parsing");
        // The worker's job, with every file, before any is parsed.
        let job = s.validity_job().unwrap();
        assert_eq!(job.files.len(), 5);
        let answer = compute_validity(
            &job.files,
            job.id_field.as_deref(),
            job.schema_by.as_deref(),
        );
        assert_eq!(
            answer.is_err(),
            broken,
            "the worker parses the broken file too"
        );
        s.store_validity(job, answer);
        for id in ids {
            s.parse_file(id);
        }
        assert!(!s.files.iter().any(LoadedFile::is_pending));
        assert_eq!(s.validity_pending(), broken);
        s.compute_validity_now();
        assert!(!s.validity_pending());
        assert_eq!(
            serde_json::to_string(&s.evaluate().unwrap()).unwrap(),
            fresh(&s)
        );
        assert_eq!(
            s.evaluate().unwrap().models.len(),
            if broken { 2 } else { 3 }
        );
    }
}

/// The worker's answer survives its trip as text: validity, no schema,
/// a schema error with its file, and anything unreadable.
#[test]
fn validity_answers_round_trip_through_text() {
    let valid = SchemaValidity::Known(vec![vec![true, false, true], vec![]]);
    let text = validity_answer_to_json(&Ok(valid.clone()));
    assert_eq!(text, r#"{"valid":["101",""]}"#);
    assert_eq!(validity_answer_from_json(&text), Ok(valid));
    let none = SchemaValidity::NoSchema;
    assert_eq!(
        validity_answer_from_json(&validity_answer_to_json(&Ok(none.clone()))),
        Ok(none)
    );
    let e = Error::new(
        ErrorKind::Schema,
        "the schema is not a valid JSON Schema (draft-07): x",
    )
    .in_file("s.json");
    assert_eq!(
        validity_answer_from_json(&validity_answer_to_json(&Err(e.clone()))),
        Err(e)
    );
    for junk in [
        "",
        "[]",
        r#"{"valid":["12"]}"#,
        r#"{"valid":[1]}"#,
        r#"{"other":1}"#,
    ] {
        let e = validity_answer_from_json(junk).unwrap_err();
        assert_eq!(
            e.message, "the schema validator gave an answer this page cannot read",
            "{junk}"
        );
    }
}

/// A provisional report, finished when the validity arrives, is the
/// report a fresh evaluation gives, for every setting, with and without
/// details (the hidden per-document tallies included).
#[test]
fn a_provisional_report_finished_with_the_validity_equals_a_fresh_evaluation() {
    for (path, value) in settings_to_try() {
        for details in [true, false] {
            let mut s = Session::example();
            s.set_setting(path, Some(value.clone()));
            assert!(s.validity_pending());
            let mut finished = s.evaluate_with(details).unwrap();
            assert!(finished.models.iter().all(|m| m.exact_if_valid.is_some()));
            s.compute_validity_now();
            let (input, config) = s.inputs().unwrap();
            let validity = s.known_validity().unwrap();
            crate::eval::complete_provisional(&mut finished, &validity, &config).unwrap();
            let fresh = crate::eval::evaluate_owned(input, &config, details).unwrap();
            assert!(finished == fresh, "{path} = {value}, details {details}");
            assert_eq!(
                serde_json::to_string(&finished).unwrap(),
                serde_json::to_string(&fresh).unwrap()
            );
        }
    }
    // A rename between the two evaluates again (the provisional report
    // has the old name).
    let mut s = Session::example();
    s.evaluate().unwrap();
    s.compute_validity_now();
    let id = s.files.iter().find(|f| f.model == "good").unwrap().id;
    s.rename_model(id, "renamed");
    let finished = s.evaluate().unwrap();
    assert!(finished.models.iter().any(|m| m.name == "renamed"));
    let (input, config) = s.inputs().unwrap();
    assert!(finished == crate::eval::evaluate_owned(input, &config, true).unwrap());
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

/// A settings change reuses the prepared evaluation (only the
/// comparison pass runs) unless the setting is read before comparing
/// (the ids, the absent values, the paths, the types, the
/// normalisation) or a model is renamed; either way the report is the
/// one evaluated from scratch, setting after setting.
#[test]
fn a_settings_change_reuses_the_prepared_evaluation_only_when_it_may() {
    let prepares_again = [
        "id_field",
        "absent_values",
        "ignored_fields",
        "numeric_string_fields",
        "date_fields",
        "date_order",
        "case_sensitive",
    ];
    let mut s = Session::example();
    s.compute_validity_now();
    assert_eq!(evaluated(&mut s, false).1, 450);
    assert_eq!(evaluated(&mut s, true).1, 50, "the details too");
    for (path, value) in settings_to_try() {
        s.set_setting(path, Some(value.clone()));
        s.compute_validity_now();
        let (report, pauses) = evaluated(&mut s, true);
        let expected = if prepares_again.contains(&path) {
            450
        } else {
            50
        };
        assert_eq!(pauses, expected, "{path} = {value}");
        assert!(report == fresh_report(&s, true), "{path} = {value}");
    }
    let good = s.files.iter().find(|f| f.model == "good").unwrap().id;
    s.set_cost(good, Some(2.5));
    let (report, pauses) = evaluated(&mut s, false);
    assert_eq!((pauses, report.models[0].cost), (50, Some(2.5)));
    assert!(report == fresh_report(&s, false));
    s.rename_model(good, "better");
    let (report, pauses) = evaluated(&mut s, false);
    assert_eq!((pauses, report.models[0].name.as_str()), (450, "better"));
    assert!(report == fresh_report(&s, false));
}

/// A threshold sweep prepares the files once and reuses them at every
/// value: each point is still the full evaluation with that value.
#[test]
fn every_point_of_a_sweep_is_the_fresh_evaluation_at_its_value() {
    use crate::eval::sweep::{SweepParam, SweepRun};
    let mut s = Session::example();
    s.compute_validity_now();
    let (input, config) = s.inputs().unwrap();
    let validity = s.known_validity().unwrap();
    for param in SweepParam::ALL {
        let values = vec![0.3, 0.6, 0.9];
        let mut run = SweepRun::new(&input, &config, param, values.clone(), validity.clone());
        while !run.step(&input).unwrap() {}
        let report = run.finish();
        for (i, &value) in values.iter().enumerate() {
            let at = param.apply(&config, value).unwrap();
            let fresh = crate::eval::evaluate_owned(input.clone(), &at, false).unwrap();
            for (curve, model) in report.models.iter().zip(&fresh.models) {
                let point = &curve.points[i];
                assert_eq!(point.micro_f1, model.micro.f1, "{param:?} {value}");
                assert_eq!(point.micro_accuracy, model.micro.accuracy);
                assert_eq!(point.macro_documents_f1, model.macro_documents.f1);
                assert_eq!(point.item_f1, model.items.as_ref().map(|i| i.f1));
            }
        }
    }
}

/// Removing files frees the prepared evaluation, even one that an
/// evaluation under way holds (it is not taken back).
#[test]
fn removing_files_frees_the_prepared_evaluation() {
    let held = |s: &Session| s.prepared.0.is_some();
    let mut s = Session::example();
    s.compute_validity_now();
    assert!(!held(&s));
    evaluated(&mut s, false);
    assert!(held(&s));
    let schema = s.files.iter().find(|f| f.role == Role::Schema).unwrap().id;
    s.remove(schema);
    assert!(!held(&s));
    assert_eq!(evaluated(&mut s, false).1, 450, "prepared anew");
    assert!(held(&s));
    // A file removed while an evaluation runs: the report is made, the
    // prepared evaluation not kept.
    let evaluation = s.evaluation(true).unwrap();
    assert!(!held(&s), "the evaluation holds it");
    let model = s
        .files
        .iter()
        .find(|f| f.role == Role::Predictions)
        .unwrap()
        .id;
    s.remove(model);
    let (report, kept) = run_now(evaluation.run(&mut NoPause)).unwrap();
    assert!(matches!(report, Some(Ok(_))));
    s.keep(kept.unwrap());
    assert!(!held(&s));
}

/// Prepared without keeping the flattened documents (over the limit),
/// an evaluation flattens them again and gives the same report; one
/// under settings the preparation did not have is refused.
#[test]
fn a_prepared_evaluation_over_the_limit_flattens_again() {
    use crate::eval::evaluate::prepare_paced;
    let mut s = Session::example();
    s.compute_validity_now();
    let validity = s.known_validity().unwrap();
    let input = s.input().unwrap();
    let config = s.config().unwrap();
    let costs = vec![None; input.models.len()];
    let mut prepared = run_now(prepare_paced(input.clone(), &config, 0, &mut NoPause))
        .flatten()
        .unwrap()
        .unwrap();
    let mut kept = run_now(prepare_paced(input, &config, usize::MAX, &mut NoPause))
        .flatten()
        .unwrap()
        .unwrap();
    assert_eq!((prepared.stored_bytes(), kept.stored_bytes()), (0, 0));
    for (i, preset) in ["exact", "invoice-cer", "standard"].into_iter().enumerate() {
        s.set_setting("preset", Some(json!(preset)));
        let config = s.config().unwrap();
        for p in [&mut prepared, &mut kept] {
            let report = run_now(p.evaluate_paced(&costs, &config, true, &validity, &mut NoPause))
                .flatten()
                .unwrap()
                .unwrap();
            assert!(report == fresh_report(&s, true), "{preset}");
        }
        // Kept by the second evaluation (the first leaves them to
        // `keep_documents`), unless over the limit.
        assert_eq!(prepared.stored_bytes(), 0);
        assert_eq!(kept.stored_bytes() > 0, i > 0, "{preset}");
    }
    s.set_setting("case_sensitive", Some(json!(true)));
    let config = s.config().unwrap();
    let refused = run_now(prepared.evaluate_paced(&costs, &config, false, &validity, &mut NoPause))
        .flatten()
        .unwrap();
    assert!(refused.is_err());
}

/// Over the limit already by the rate of the first documents kept
/// (100 documents: the rate is checked after 64), the evaluation stops
/// keeping them at once and still gives the fresh report.
#[test]
fn a_prepared_evaluation_projected_over_the_limit_keeps_nothing() {
    use crate::eval::evaluate::prepare_paced;
    let data = generate(&SynthOptions::paradox(100, 3));
    let mut s = Session::default();
    s.add_file("truth.jsonl", data.truth_jsonl.into_bytes());
    for (name, jsonl) in data.predictions {
        s.add_file(&format!("{name}.jsonl"), jsonl.into_bytes());
    }
    let (input, config) = s.inputs().unwrap();
    let costs = vec![None; input.models.len()];
    let validity = SchemaValidity::default();
    for (limit, kept) in [(1, false), (usize::MAX, true)] {
        let mut prepared = run_now(prepare_paced(input.clone(), &config, limit, &mut NoPause))
            .flatten()
            .unwrap()
            .unwrap();
        // The second evaluation keeps them.
        for _ in 0..2 {
            let report =
                run_now(prepared.evaluate_paced(&costs, &config, true, &validity, &mut NoPause))
                    .flatten()
                    .unwrap()
                    .unwrap();
            assert!(report == fresh_report(&s, true), "limit {limit}");
        }
        assert_eq!(prepared.stored_bytes() > 0, kept, "limit {limit}");
    }
}

/// The documents kept a slice at a time after the first report (what
/// the page does while idle): then an evaluation only loads them; an
/// evaluation that starts half-way keeps them itself; either way the
/// reports are the fresh ones.
#[test]
fn documents_kept_while_idle_serve_the_next_evaluation() {
    let mut s = Session::example();
    s.compute_validity_now();
    assert_eq!(s.keep_documents(7), None, "nothing prepared yet");
    assert_eq!(evaluated(&mut s, false).1, 450);
    // 50 documents, 7 at a time: done at the eighth call.
    let calls: Vec<Option<bool>> = (0..9).map(|_| s.keep_documents(7)).collect();
    assert_eq!(calls[..7], [Some(false); 7]);
    assert_eq!(calls[7..], [Some(true); 2]);
    let stored = |s: &Session| s.prepared.0.as_ref().map_or(0, |(_, p)| p.stored_bytes());
    assert!(stored(&s) > 0);
    let mut pace = Recording {
        stop_at: None,
        seen: Vec::new(),
    };
    s.set_setting("preset", Some(json!("invoice-cer")));
    let (report, kept) = run_now(s.evaluation(true).unwrap().run(&mut pace)).unwrap();
    s.keep(kept.unwrap());
    let report = report.unwrap().unwrap();
    assert!(
        pace.seen.iter().all(|&(_, total)| total == 2 * 4 * 50),
        "loaded"
    );
    assert!(report == fresh_report(&s, true));
    // Another setting read before comparing: kept half-way, then an
    // evaluation (which keeps them itself), then nothing left to keep.
    s.set_setting("case_sensitive", Some(json!(true)));
    assert_eq!(evaluated(&mut s, false).1, 450);
    assert_eq!(s.keep_documents(20), Some(false));
    let (report, pauses) = evaluated(&mut s, true);
    assert_eq!(pauses, 50);
    assert!(report == fresh_report(&s, true));
    assert_eq!(s.keep_documents(20), Some(true));
    // Other settings than the prepared evaluation's: not for it.
    s.set_setting("case_sensitive", None);
    assert_eq!(s.keep_documents(20), None);
}

/// Raw model output is parsed into the prepared evaluation's copy of
/// the file (copy on write): the session's own file stays as read.
#[test]
fn raw_output_parsed_for_an_evaluation_leaves_the_sessions_file_as_read() {
    let truth = "{\"id\": \"a\", \"total\": \"5\"}\n{\"id\": \"b\", \"total\": \"7\"}\n";
    let preds = "{\"id\": \"a\", \"output\": \"```json\\n{\\\"total\\\": \\\"5\\\"}\\n```\"}\n{\"id\": \"b\", \"output\": \"no JSON here\"}\n";
    let mut s = Session::default();
    s.add_file("truth.jsonl", truth.as_bytes().to_vec());
    s.add_file("raw.jsonl", preds.as_bytes().to_vec());
    let read = crate::io::parse_docs("raw.jsonl", preds.as_bytes()).unwrap();
    let (report, pauses) = evaluated(&mut s, true);
    assert_eq!(pauses, 2 * 2 + 2 * 2 + 2);
    let counts = report.models[0].counts;
    assert_eq!((counts.exact, counts.missed), (1, 1));
    s.set_setting("preset", Some(json!("exact")));
    let (again, pauses) = evaluated(&mut s, true);
    assert_eq!(pauses, 2, "reused");
    assert!(again == fresh_report(&s, true));
    let file = s.files.iter().find(|f| f.name == "raw.jsonl").unwrap();
    match &file.parsed {
        Ok(Parsed::Records(r)) => assert!(r.forest.same_content(&read.forest)),
        other => panic!("not records: {other:?}"),
    }
}

/// The worker's evaluation, run with a pace, gives the report the
/// session gives at once, in each validity state; a pace that stops
/// it gives none; its progress climbs to the whole.
#[test]
fn an_evaluation_run_in_slices_equals_one_run_at_once_and_can_be_stopped() {
    let sliced = |s: &mut Session, details: bool| {
        let mut pace = Recording {
            stop_at: None,
            seen: Vec::new(),
        };
        let evaluation = s.evaluation(details).unwrap();
        let (documents, models) = evaluation.size();
        let (report, kept) = on_page(|| run_now(evaluation.run(&mut pace))).unwrap();
        s.keep(kept.unwrap());
        (report.unwrap().unwrap(), pace.seen, documents, models)
    };
    let mut s = Session::example();
    s.set_setting("preset", Some(json!("invoice-cer")));
    // Validity pending: the provisional report.
    let (report, seen, documents, models) = sliced(&mut s, true);
    assert_eq!((documents, models), (50, 3));
    assert!(report == s.clone().evaluate_with(true).unwrap());
    // Preparing: one pause per record and file while the ids are read,
    // one per document and forest while the kinds are learnt, then one
    // per document in the comparison pass, which flattens the
    // documents as it goes (worth four units a forest); the units
    // climb to (but not past) the total of 6 × forests × records.
    assert_eq!(seen.len(), 4 * 50 + 4 * 50 + 50);
    assert!(seen.iter().all(|&(_, total)| total == 6 * 4 * 50));
    assert!(seen.windows(2).all(|w| w[0].0 < w[1].0));
    assert_eq!(seen[200].0, 4 * 50, "the kinds pass starts after the ids");
    assert_eq!(
        seen[400].0,
        2 * 4 * 50,
        "the comparison pass after the kinds"
    );
    assert_eq!(seen.last().unwrap().0, 2 * 4 * 50 + 4 * 4 * 49);
    // Validity known: the files and the settings read before comparing
    // are the same: only the comparison pass runs, its units the
    // whole, loading the documents (two units a forest) kept while
    // the worker was idle; the reports are the fresh ones.
    s.compute_validity_now();
    while s.keep_documents(7) == Some(false) {}
    for details in [false, true] {
        let (again, seen, ..) = sliced(&mut s, details);
        assert_eq!(seen.len(), 50);
        assert!(seen.iter().all(|&(_, total)| total == 2 * 4 * 50));
        assert_eq!(seen.last().unwrap().0, 2 * 4 * 49);
        assert!(again == fresh_report(&s, details), "details {details}");
    }
    // No schema.
    let schema = s.files.iter().find(|f| f.role == Role::Schema).unwrap().id;
    s.remove(schema);
    let (report, ..) = sliced(&mut s, false);
    assert!(report == s.clone().evaluate_with(false).unwrap());
    // Stopped: no report, and the pace was asked no further. Stopped
    // while preparing (each time under other absent values, so
    // prepared anew), the next evaluation prepares again; stopped
    // while comparing, the next reuses what was prepared.
    for (stop_at, next) in [(1, 450), (120, 450), (300, 450), (420, 50)] {
        let absent = json!(["NOT_FOUND", "N/A", "", format!("none {stop_at}")]);
        s.set_setting("absent_values", Some(absent));
        let mut pace = Recording {
            stop_at: Some(stop_at),
            seen: Vec::new(),
        };
        let evaluation = s.evaluation(false).unwrap();
        let (stopped, kept) = on_page(|| run_now(evaluation.run(&mut pace))).unwrap();
        assert!(stopped.is_none());
        if let Some(kept) = kept {
            s.keep(kept);
        }
        assert_eq!(pace.seen.len(), stop_at);
        let (report, seen, ..) = sliced(&mut s, false);
        assert_eq!(seen.len(), next, "stopped at {stop_at}");
        let (input, config) = s.inputs().unwrap();
        assert!(report == crate::eval::evaluate_owned(input, &config, false).unwrap());
    }
    // No truth: no evaluation, the session's message. A schema the
    // worker rejects is that file's error; the rest evaluates.
    let mut small = Session::default();
    assert_eq!(
        small.evaluation(false).err(),
        small.evaluate_with(false).err()
    );
    small.add_file("truth.jsonl", b"{\"id\": \"a\", \"x\": 1}\n".to_vec());
    small.add_file("broken.schema.json", br#"{"type": 7}"#.to_vec());
    small.compute_validity_now();
    let (report, _) = run_now(small.evaluation(false).unwrap().run(&mut NoPause)).unwrap();
    assert_eq!(
        report.as_ref().map(|r| r.as_ref().map(|r| r.documents)),
        Some(Ok(1))
    );
    assert_eq!(report, Some(small.evaluate_with(false)));
}

/// The page's parse, a line at a time, keeps what parse_file keeps; its
/// progress climbs through the file's bytes; a result for a file that
/// was given another role or replaced meanwhile is not kept.
#[test]
fn a_file_parsed_in_slices_equals_one_parsed_at_once() {
    let data = generate(&SynthOptions {
        documents: 20,
        seed: 5,
        ..SynthOptions::default()
    });
    let bytes = data.truth_jsonl.clone().into_bytes();
    let mut at_once = Session::default();
    at_once.add_file("truth.jsonl", bytes.clone());
    let mut sliced = Session::default();
    let id = sliced.add_file_pending("truth.jsonl", bytes.clone());
    let job = sliced.parse_job(id).unwrap();
    let mut pace = Recording {
        stop_at: None,
        seen: Vec::new(),
    };
    let parsed = run_now(job.run(&mut pace)).unwrap().unwrap();
    sliced.store_parsed(parsed);
    assert!(sliced.parse_job(id).is_none(), "parsed: no job left");
    assert_eq!(sliced.files[0].records(), Some(20));
    assert!(sliced.evaluate().unwrap() == at_once.evaluate().unwrap());
    // A pause before every line (and the empty one after the last).
    assert_eq!(pace.seen.len(), 21);
    assert!(pace.seen.iter().all(|&(_, total)| total == bytes.len()));
    assert!(pace.seen.windows(2).all(|w| w[0].0 < w[1].0));
    assert_eq!(pace.seen[20].0, bytes.len());
    // Stopped: nothing to store.
    let mut other = Session::default();
    let id = other.add_file_pending("good.jsonl", data.predictions[0].1.clone().into_bytes());
    let mut stop = Recording {
        stop_at: Some(3),
        seen: Vec::new(),
    };
    assert!(run_now(other.parse_job(id).unwrap().run(&mut stop))
        .unwrap()
        .is_none());
    // A result that comes back after the file was given another role
    // is not kept (the file is read again for its new role).
    let job = other.parse_job(id).unwrap();
    assert_eq!(other.files[0].role, Role::Truth, "the first records file");
    let parsed = run_now(job.run(&mut NoPause)).unwrap().unwrap();
    other.set_role(id, Role::Predictions);
    other.store_parsed(parsed);
    assert!(other.files[0].is_pending());
    other.parse_file(id);
    assert_eq!(other.files[0].records(), Some(20));
    // Or after it was removed.
    let id = other.add_file_pending("again.jsonl", bytes);
    let job = other.parse_job(id).unwrap();
    other.remove(id);
    other.store_parsed(run_now(job.run(&mut NoPause)).unwrap().unwrap());
    assert_eq!(other.files.len(), 1);
}

/// Before the worker's answer the report is provisional in the
/// validity-dependent values only.
#[test]
fn a_provisional_report_differs_only_where_validity_counts() {
    let mut s = Session::example();
    assert!(s.validity_pending());
    let provisional = s.evaluate().unwrap();
    assert!(s.known_validity().is_err());
    s.compute_validity_now();
    let last = s.evaluate().unwrap();
    let validity = s.known_validity().unwrap();
    let per_model = validity.per_model().unwrap();
    assert_eq!(per_model.len(), 3);
    assert!(per_model.iter().all(|m| m.len() == 50));
    for (p, f) in provisional.models.iter().zip(&last.models) {
        assert_eq!(p.name, f.name);
        assert_eq!(
            serde_json::to_value(p.micro).unwrap(),
            serde_json::to_value(f.micro).unwrap()
        );
        assert_eq!(p.macro_documents.f1, f.macro_documents.f1);
        assert_eq!(p.numeric_precision, f.numeric_precision);
        // Every payload of the example parses, so provisionally all
        // are valid; the schema then says which are not.
        assert_eq!(p.schema_validity_rate, 1.0);
        let invalid = per_model[last.models.iter().position(|m| m.name == f.name).unwrap()]
            .iter()
            .filter(|v| !**v)
            .count();
        assert_eq!(f.schema_validity_rate, 1.0 - invalid as f64 / 50.0);
    }
    let aggressive = last.models.iter().find(|m| m.name == "aggressive").unwrap();
    assert!(aggressive.schema_validity_rate < 1.0);
}

/// A worker that fails (here: cannot be loaded) leaves the provisional
/// report, says why, and is not asked again for the same files.
#[test]
fn a_failed_worker_leaves_the_provisional_report_and_says_why() {
    let mut s = Session::example();
    let provisional = s.evaluate().unwrap();
    let job = s.validity_job().unwrap();
    let why = "the schema validator could not be loaded or failed";
    s.store_validity(job, Err(Error::new(ErrorKind::Input, why)));
    assert_eq!(s.validity_failure().as_deref(), Some(why));
    assert!(!s.validity_pending());
    assert!(s.validity_job().is_none(), "not asked again");
    let report = s.evaluate().unwrap();
    assert_eq!(
        serde_json::to_string(&report).unwrap(),
        serde_json::to_string(&provisional).unwrap()
    );
    // Other files: asked again, and the failure is gone.
    let id = s.files.iter().find(|f| f.model == "good").unwrap().id;
    s.remove(id);
    assert!(s.validity_pending());
    assert_eq!(s.validity_failure(), None);
}

/// A schema that is not JSON Schema is found by the worker and shown
/// as that file's error; the rest is evaluated without it.
#[test]
fn a_schema_the_worker_rejects_becomes_that_files_error() {
    let mut s = Session::example();
    let schema = s.files.iter().find(|f| f.role == Role::Schema).unwrap().id;
    s.remove(schema);
    s.add_file("bad.schema.json", br#"{"type": 12}"#.to_vec());
    assert!(s.files.last().unwrap().parsed.is_ok());
    assert!(s.validity_pending());
    s.compute_validity_now();
    let bad = s.files.last().unwrap();
    let message = bad.error().unwrap().to_string();
    assert!(
        message.starts_with("bad.schema.json: the schema is not a valid JSON Schema (draft-07)"),
        "{message}"
    );
    assert!(!s.validity_pending());
    let report = s.evaluate().unwrap();
    assert_eq!(report.models.len(), 3);
    assert!(report.models.iter().all(|m| m.schema_validity_rate == 1.0));
}

#[test]
fn file_stems() {
    assert_eq!(file_stem("preds/gpt-4o.jsonl"), "gpt-4o");
    assert_eq!(file_stem("a.b.json"), "a.b");
    assert_eq!(file_stem(".hidden"), ".hidden");
    assert_eq!(file_stem("C:\\x\\m.csv"), "m");
}
