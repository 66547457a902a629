//! The service's native tests: the sequences the page and the schema
//! worker put the evaluation worker through.

use super::*;
use crate::protocol::OPENING_RUN;
use crate::session::{compute_validity, validity_answer_to_json};
use serde_json::Map;

/// Run `generation` of `task`, as the worker runs it: its answer.
fn run(service: &mut Service, generation: Generation, task: Task) -> Answer {
    let mut answers = service.answer_now(Request::Run { generation, task });
    answers.retain(|a| !matches!(a, Answer::ValidityJob { .. }));
    answers.pop().expect("an answer")
}

fn report_task() -> Task {
    Task::Report {
        settings: Map::new(),
    }
}

/// The answers to `request`.
fn ask(
    service: &mut Service,
    request: Request,
    bytes: Vec<Vec<u8>>,
) -> (Vec<Answer>, Option<(Generation, Task)>) {
    let mut answers = Vec::new();
    let run = service.handle(request, bytes, &mut |a| answers.push(a));
    (answers, run)
}

/// The example's report: provisional until the schema worker's answer
/// (relayed by the page) arrives; then finished (not evaluated again),
/// equal to a fresh evaluation's.
/// The schema worker's answer to the job among `answers` (relayed by the
/// page), computed from the bytes the service sends with it.
fn schema_answer(service: &Service, answers: &[Answer]) -> Request {
    let (version, files, id_field) = answers
        .iter()
        .find_map(|a| match a {
            Answer::ValidityJob {
                version,
                files,
                id_field,
                ..
            } => Some((*version, files.clone(), id_field.clone())),
            _ => None,
        })
        .expect("a schema job");
    let files: Vec<_> = files
        .iter()
        .zip(service.job_bytes())
        .map(|((_, name, role), b)| (name.clone(), *role, b))
        .collect();
    let answer = validity_answer_to_json(&compute_validity(&files, id_field.as_deref(), None));
    Request::Validity { version, answer }
}

#[test]
fn the_examples_report_pending_then_finished() {
    let mut service = Service::default();
    let (answers, _) = ask(&mut service, Request::LoadExample, vec![]);
    let first = run(&mut service, 1, report_task());
    let Answer::Report { validity, .. } = &first else {
        panic!("no report: {first:?}");
    };
    assert_eq!(*validity, ValidityStatus::Pending);
    let validity = schema_answer(&service, &answers);
    let (answers, again) = ask(&mut service, validity, vec![]);
    assert_eq!(again, None, "finished, not evaluated again");
    let Some(Answer::Report {
        generation,
        report,
        validity,
        ..
    }) = answers
        .into_iter()
        .find(|a| matches!(a, Answer::Report { .. }))
    else {
        panic!("no report");
    };
    assert_eq!((generation, validity), (1, ValidityStatus::Final));
    let mut session = Session::example();
    session.compute_validity_now();
    assert_eq!(*report, session.evaluate().unwrap());
}

/// The validity in while the report is evaluated: the finished report
/// alone goes out (its details would otherwise cross twice), with the
/// run's time, equal to a fresh evaluation's.
#[test]
fn a_validity_in_during_the_run_sends_only_the_finished_report() {
    let mut service = Service::default();
    let (answers, _) = ask(&mut service, Request::LoadExample, vec![]);
    let request = Request::Run {
        generation: 1,
        task: report_task(),
    };
    let (generation, task) = service.handle(request, vec![], &mut |_| {}).expect("a run");
    let run = service.start(generation, task).expect("a run");
    let validity = schema_answer(&service, &answers);
    let (_, again) = ask(&mut service, validity, vec![]);
    assert_eq!(again, None);
    let clock = std::cell::Cell::new(0.0);
    let now = || {
        clock.set(clock.get() + 5.0);
        clock.get()
    };
    let (answer, kept) = run_now(run.run(&mut NoPause, &now)).expect("never waits");
    let (answers, again) = service.finish(generation, answer, kept);
    assert_eq!(again, None);
    let reports: Vec<_> = answers
        .iter()
        .filter(|a| matches!(a, Answer::Report { .. }))
        .collect();
    let [Answer::Report {
        generation: 1,
        report,
        validity: ValidityStatus::Final,
        evaluation_ms,
        ..
    }] = reports.as_slice()
    else {
        panic!("not the finished report alone: {} reports", reports.len());
    };
    assert!(*evaluation_ms > 0.0, "the run's time: {evaluation_ms}");
    let mut session = Session::example();
    session.compute_validity_now();
    assert_eq!(**report, session.evaluate().unwrap());
}

/// A provisional report is answered whole, with every document's details
/// (the worker sends them after it, in parts: `protocol::in_parts`), and
/// kept whole to be finished when the validity arrives.
#[test]
fn a_provisional_report_carries_its_details() {
    let mut service = Service::default();
    let request = Request::Run {
        generation: 1,
        task: report_task(),
    };
    let (generation, task) = service.handle(request, vec![], &mut |_| {}).expect("a run");
    let run = service.start(generation, task).expect("a run");
    let (answer, kept) = run_now(run.run(&mut NoPause, &|| 0.0)).expect("never waits");
    let (answers, _) = service.finish(generation, answer, kept);
    let kept_whole = service
        .provisional
        .clone()
        .and_then(|(_, r)| r)
        .expect("kept");
    let [Answer::Report {
        generation: 1,
        report,
        validity: ValidityStatus::Pending,
        details_follow: false,
        ..
    }] = &answers[..]
    else {
        panic!("not the report alone: {} answers", answers.len());
    };
    assert_eq!(**report, kept_whole);
    assert!(report
        .models
        .iter()
        .all(|m| m.document_details.as_ref().map(Vec::len) == Some(50)));
}

/// Dropped files replace the example; roles and names given when the
/// page posts its files again are kept.
#[test]
fn a_drop_replaces_the_example_and_reposts_keep_roles() {
    let mut service = Service::default();
    let truth = br#"{"id":"a","total":1}"#.to_vec();
    let pred = br#"{"id":"a","total":2}"#.to_vec();
    let (answers, _) = ask(
        &mut service,
        Request::AddFiles {
            files: vec![
                NewFile {
                    id: 100,
                    name: "t.jsonl".into(),
                    role: None,
                    model: None,
                    cost: None,
                },
                NewFile {
                    id: 101,
                    name: "p.jsonl".into(),
                    role: None,
                    model: None,
                    cost: None,
                },
            ],
            replace_example: true,
        },
        vec![truth.clone(), pred.clone()],
    );
    let Some(Answer::Files {
        files,
        shows_example,
        ..
    }) = answers.first()
    else {
        panic!("no file list: {answers:?}");
    };
    assert!(!shows_example);
    assert_eq!(
        files.iter().map(|f| (f.id, f.role)).collect::<Vec<_>>(),
        vec![(100, Role::Truth), (101, Role::Predictions)]
    );
    // A restarted worker gets them back with the user's choices.
    let mut restarted = Service::default();
    ask(
        &mut restarted,
        Request::AddFiles {
            files: vec![
                NewFile {
                    id: 100,
                    name: "t.jsonl".into(),
                    role: Some(Role::Predictions),
                    model: Some("renamed".into()),
                    cost: Some(2.0),
                },
                NewFile {
                    id: 101,
                    name: "p.jsonl".into(),
                    role: Some(Role::Truth),
                    model: Some("p".into()),
                    cost: None,
                },
            ],
            replace_example: true,
        },
        vec![truth, pred],
    );
    let f = &restarted.session.files;
    assert_eq!(f.len(), 2);
    assert_eq!(
        (f[0].role, f[0].model.as_str(), f[0].cost),
        (Role::Predictions, "renamed", Some(2.0))
    );
    assert_eq!(f[1].role, Role::Truth);
    let Answer::Report { report, .. } = run(&mut restarted, 1, report_task()) else {
        panic!("no report");
    };
    assert_eq!(report.models[0].name, "renamed");
}

/// A bundle dropped brings files the page never held: the worker
/// names them all (`Opened`) and hands their bytes over, and a
/// restarted worker given those bytes with the listed roles makes the
/// same report.
#[test]
fn a_bundles_files_go_to_the_page_for_a_restart() {
    let mut example = {
        let mut s = Session::example();
        s.compute_validity_now();
        s
    };
    let bundle = example.to_bundle().into_bytes();
    let mut service = Service::default();
    let dropped = NewFile {
        id: 1 << 20,
        name: "inputs.fieldscope.json".into(),
        role: None,
        model: None,
        cost: None,
    };
    let (answers, _) = ask(
        &mut service,
        Request::AddFiles {
            files: vec![dropped],
            replace_example: true,
        },
        vec![bundle],
    );
    let ids = answers
        .iter()
        .find_map(|a| match a {
            Answer::Opened { ids } => Some(ids.clone()),
            _ => None,
        })
        .expect("the bundle's files named");
    assert_eq!(ids.len(), example.files.len());
    let bytes = service.bytes_of(&ids);
    for (b, f) in bytes.iter().zip(&example.files) {
        assert_eq!(**b, *f.bytes, "{}", f.name);
    }
    let Answer::Files { files, .. } = service.files(None) else {
        panic!("no list");
    };
    let mut restarted = Service::default();
    ask(
        &mut restarted,
        Request::AddFiles {
            files: files.iter().map(FileSummary::again).collect(),
            replace_example: true,
        },
        bytes.iter().map(|b| b.to_vec()).collect(),
    );
    // Asked for a bundle before any report: the page's settings go in.
    let mut settings = Map::new();
    settings.insert("preset".into(), "exact".into());
    let (answers, _) = ask(
        &mut restarted,
        Request::Bundle {
            for_html: false,
            settings: settings.clone(),
        },
        vec![],
    );
    let Some(Answer::Bundle {
        bundle: Ok(text), ..
    }) = answers.first()
    else {
        panic!("no bundle: {answers:?}");
    };
    let bundle: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(bundle["settings"], serde_json::Value::Object(settings));
    restarted.session.settings = Map::new();
    restarted.session.compute_validity_now();
    service.session.compute_validity_now();
    assert_eq!(
        restarted.session.evaluate().unwrap(),
        service.session.evaluate().unwrap()
    );
    assert_eq!(
        restarted.session.evaluate().unwrap(),
        example.evaluate().unwrap()
    );
}

/// A newer run of the same lane, or a Cancel, makes a run stale; a
/// panel's run is not made stale by a report's.
#[test]
fn staleness_by_lane_and_cancel() {
    let mut service = Service::default();
    ask(
        &mut service,
        Request::Run {
            generation: 3,
            task: Task::Literature,
        },
        vec![],
    );
    ask(
        &mut service,
        Request::Run {
            generation: 4,
            task: report_task(),
        },
        vec![],
    );
    assert!(!service.is_stale(3, Lane::Panel));
    ask(
        &mut service,
        Request::Run {
            generation: 5,
            task: report_task(),
        },
        vec![],
    );
    assert!(service.is_stale(4, Lane::Report));
    ask(&mut service, Request::Cancel { generation: 3 }, vec![]);
    assert!(service.is_stale(3, Lane::Panel));
}

/// Every panel's computation answers with its result.
#[test]
fn panels_answer() {
    let mut service = Service::default();
    service.session.compute_validity_now();
    assert!(matches!(
        run(&mut service, 1, Task::Details),
        Answer::Report { .. }
    ));
    let Answer::Literature { models, .. } = run(&mut service, 2, Task::Literature) else {
        panic!("no literature");
    };
    assert_eq!(models.len(), 3);
    let sweep = Task::Sweep {
        param: crate::eval::sweep::SweepParam::Similarity,
        values: vec![0.5, 0.9],
    };
    assert!(matches!(run(&mut service, 3, sweep), Answer::Sweep { .. }));
    let names: Vec<String> = service
        .session
        .files
        .iter()
        .filter(|f| f.role == Role::Predictions)
        .map(|f| f.model.clone())
        .collect();
    let gate = Task::Gate {
        baseline: names[0].clone(),
        candidate: names[1].clone(),
    };
    assert!(matches!(run(&mut service, 4, gate), Answer::Gate { .. }));
    assert!(matches!(
        run(&mut service, 5, Task::Bootstrap),
        Answer::Bootstrap { .. }
    ));
}

/// The answers the build ships for the page's opening (`opening_answers`)
/// are the worker's own first answers to `OPENING_RUN`: the example's file
/// list, then its report without details, pending the schema, exactly as
/// a worker's run makes it; and the page decodes from the file what it
/// decodes from the worker's messages (fields that never travel, such as
/// the bootstrap's tallies, stay behind in both).
#[test]
fn the_opening_answers_are_the_workers() {
    let opening = opening_answers();
    let answers = opening.first.clone();
    let [Answer::Files {
        files,
        shows_example: true,
        ..
    }, Answer::Report {
        generation: OPENING_RUN,
        report,
        validity: ValidityStatus::Pending,
        evaluation_ms,
        details_follow: true,
    }] = answers.as_slice()
    else {
        panic!("the file list and the report: {answers:?}");
    };
    assert_eq!(*evaluation_ms, 0.0);
    let names: Vec<_> = files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        Service::default()
            .session
            .files
            .iter()
            .map(|f| f.name.as_str())
            .collect::<Vec<_>>()
    );
    assert!(crate::protocol::lacks_details(report));

    // The worker's run, its details taken off as the worker sends them
    // (the parts that follow are `protocol::in_parts`'s tests').
    let Answer::Report {
        report: mut whole, ..
    } = run(&mut Service::default(), OPENING_RUN, report_task())
    else {
        panic!("no report");
    };
    crate::protocol::split_details(&mut whole);
    assert_eq!(**report, *whole);
    // SPEC §3.1's strict micro F1 from the counts it carries (default
    // `["fp", "fn"]`): P = COR/|Pred|, R = COR/|Truth|, so
    // F1 = 2·COR / (|Pred| + |Truth|).
    for model in &report.models {
        let c = &model.counts;
        assert_eq!(
            model.truth_count,
            c.exact + c.partial + c.incorrect + c.missed
        );
        let f1 = 2.0 * c.exact as f64 / (model.pred_count + model.truth_count) as f64;
        assert!((model.micro.f1 - f1).abs() < 1e-12, "{}", model.name);
    }
    use crate::protocol::{decode, encode};
    let from_file: Vec<Answer> = decode(&encode(&answers)).unwrap();
    let from_worker: Vec<Answer> = answers
        .iter()
        .map(|a| decode(&encode(a)).unwrap())
        .collect();
    assert_eq!(from_file, from_worker);
    assert!(matches!(&from_file[1], Answer::Report { report, .. } if report.models.len() == 3));

    // The details file: the parts the worker sends after that report,
    // which put back on it give the worker's whole report.
    let Answer::Report {
        report: mut with_details,
        ..
    } = run(&mut Service::default(), OPENING_RUN, report_task())
    else {
        panic!("no report");
    };
    let whole = (*with_details).clone();
    let details = crate::protocol::split_details(&mut with_details).unwrap();
    let mut joined: Vec<Option<Vec<crate::eval::report::DocumentDetail>>> = Vec::new();
    let mut from = 0;
    for (i, part) in opening.details.iter().enumerate() {
        let Answer::Details {
            generation: OPENING_RUN,
            from: at,
            details,
            last,
        } = part.clone()
        else {
            panic!("not a details part of the opening run: {part:?}");
        };
        assert_eq!((at, last), (from, i + 1 == opening.details.len()));
        from += crate::protocol::documents_in(&details);
        crate::protocol::append_details(&mut joined, details);
    }
    assert_eq!(from, 50, "the example's 50 documents");
    assert_eq!(joined, details);
    let mut rejoined = (**report).clone();
    crate::protocol::join_details(&mut rejoined, joined);
    assert_eq!(rejoined, whole);
    let from_file: Vec<Answer> = decode(&encode(&opening.details)).unwrap();
    assert_eq!(from_file, opening.details);
}

/// The "Check the truth" panel's corrections (SPEC §9.3): set by the page,
/// applied to every run, written out as the corrected truth, kept by a
/// bundle and posted back to the page when the bundle opens.
#[test]
fn corrections_are_applied_written_out_and_kept_by_a_bundle() {
    let mut service = Service::new(crate::report_state::truth::tests::planted());
    let list = serde_json::json!([{"id": "b", "field": "name", "from": null, "to": "Zed"}]);
    let (answers, started) = ask(
        &mut service,
        Request::SetCorrections {
            corrections: list.clone(),
        },
        Vec::new(),
    );
    assert!(started.is_none());
    assert!(answers.iter().all(|a| !matches!(a, Answer::Notice { .. })));
    let Answer::Report { report, .. } = run_report(&mut service, 1) else {
        panic!("a report");
    };
    // b.name now "Zed": m0 and m1 have 5 exact of 7 values (a.total and
    // a.items[1].qty still wrong: P = R = 5/7).
    assert!((report.models[0].micro.f1 - 5.0 / 7.0).abs() < 1e-12);
    assert!(report.warnings[0].starts_with("corrections.json: correction 1 (id \"b\""));
    // The corrected truth, as `fieldscope correct` writes it.
    let (answers, _) = ask(&mut service, Request::CorrectedTruth, Vec::new());
    assert_eq!(
        answers,
        vec![Answer::CorrectedTruth {
            file: Ok((
                "truth.corrected.jsonl".into(),
                "{\"id\":\"a\",\"total\":100,\"items\":[{\"qty\":1,\"sku\":\"X\"},{\"qty\":2,\"sku\":\"Y\"}]}\n{\"id\":\"b\",\"total\":5,\"name\":\"Zed\"}\n".into()
            ))
        }]
    );
    // A list that does not read: a notice, the corrections kept.
    let (answers, _) = ask(
        &mut service,
        Request::SetCorrections {
            corrections: serde_json::json!("no"),
        },
        Vec::new(),
    );
    assert!(matches!(answers[..], [Answer::Notice { .. }]));
    // The bundle keeps them; opened by another worker, they come back.
    let (answers, _) = ask(
        &mut service,
        Request::Bundle {
            for_html: false,
            settings: Map::new(),
        },
        Vec::new(),
    );
    let Some(Answer::Bundle {
        bundle: Ok(bundle), ..
    }) = answers.into_iter().next()
    else {
        panic!("a bundle");
    };
    let mut other = Service::new(Session::default());
    let (answers, _) = ask(
        &mut other,
        Request::AddFiles {
            files: vec![NewFile {
                id: 0,
                name: "fieldscope-bundle.json".into(),
                role: None,
                model: None,
                cost: None,
            }],
            replace_example: false,
        },
        vec![bundle.into_bytes()],
    );
    assert!(answers.contains(&Answer::Corrections { corrections: list }));
    let Answer::Report { report: again, .. } = run_report(&mut other, 1) else {
        panic!("a report");
    };
    assert_eq!(again.models, report.models);
    // Without the corrections, for the panel's baseline: the report
    // before (b.name missing: 8/13), the corrections still in force.
    let Answer::Report { report: before, .. } = run(&mut other, 2, Task::Uncorrected) else {
        panic!("a report");
    };
    assert!((before.models[0].micro.f1 - 8.0 / 13.0).abs() < 1e-12);
    assert_eq!(before.suspected_truth_errors.len(), 3);
    assert_eq!(other.session.corrections().len(), 1);
    let Answer::Report { report: third, .. } = run_report(&mut other, 3) else {
        panic!("a report");
    };
    assert_eq!(third.models, report.models);
}

fn run_report(service: &mut Service, generation: Generation) -> Answer {
    run(service, generation, report_task())
}
