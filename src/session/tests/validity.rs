//! The schema validity: kept between evaluations, the worker's job and
//! its answers, provisional reports and their completion.

use super::*;

/// A report computed with the schema validity kept from the previous
/// evaluation is byte-identical to one computed from scratch, for every
/// key of the settings (each preset and a non-default value of every
/// other key, one at a time and accumulated), for id-field changes
/// (which change the validity) and for file changes in between.
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
    // The example's files with 16 invoices: 26 settings, each evaluated
    // four times, are the longest unit test at 50 (issue 32).
    let mut s = Session::example_of(16);
    assert!(s.validity_pending());
    assert_eq!(stored(&mut s), fresh(&s));
    let report = s.evaluate().unwrap();
    assert!(
        report.models.iter().any(|m| m.schema_validity_rate < 1.0),
        "some prediction is invalid, so that validity counts"
    );
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
            // Fewer invoices than the example's 50, as above; some of
            // them invalid (asserted there).
            let mut s = Session::example_of(16);
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
