//! The prepared evaluation: when a settings change reuses it, sweeps,
//! freeing it, the limit on the documents it keeps, keeping them while
//! idle, and raw output parsed into its copy.

use super::*;

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
