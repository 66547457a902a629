//! The report state's native tests: the sequences of events that matter
//! (issue 14's list), each with the commands the page carries out.

use super::*;

mod settings;
mod view;

pub(super) fn settings(preset: &str) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("preset".into(), Value::from(preset));
    m
}

fn report(documents: usize) -> Box<Report> {
    let mut session = crate::session::Session::example();
    session.compute_validity_now();
    let mut r = session.evaluate_with(false).unwrap();
    r.documents = documents;
    Box::new(r)
}

pub(super) fn ready(generation: Generation, documents: usize, validity: ValidityStatus) -> Event {
    Event::Answer(Answer::Report {
        generation,
        report: report(documents),
        validity,
        evaluation_ms: 1.0,
        details_follow: false,
    })
}

/// The generation of the report run in `commands`.
pub(super) fn run_of(commands: &[Command]) -> Generation {
    commands
        .iter()
        .find_map(|c| match c {
            Command::Post(Request::Run {
                generation,
                task: Task::Report { .. },
            }) => Some(*generation),
            _ => None,
        })
        .expect("a report run is asked for")
}

fn shown_documents(page: &Page) -> Option<usize> {
    page.report.report().map(|r| r.documents)
}

/// The example's report with details, as the worker posts it for
/// `generation`: the report, then its details in parts of about 300
/// compared values (`protocol::in_parts`): several parts.
fn in_parts(generation: Generation, validity: ValidityStatus) -> (Report, Vec<Event>) {
    let whole = crate::session::Session::example()
        .evaluate_with(true)
        .unwrap();
    let answer = Answer::Report {
        generation,
        report: Box::new(whole.clone()),
        validity,
        evaluation_ms: 3.0,
        details_follow: false,
    };
    let events: Vec<Event> = crate::protocol::in_parts_of(answer, 300)
        .into_iter()
        .map(Event::Answer)
        .collect();
    assert!(events.len() > 3, "several parts");
    (whole, events)
}

fn has_details(page: &Page) -> bool {
    page.report
        .report()
        .is_some_and(|r| r.models.iter().all(|m| m.document_details.is_some()))
}

/// A report's details come in parts after it: the report is drawn at
/// once, its details once, whole, with the last part; parts of an older
/// run, or out of order, change nothing.
#[test]
fn details_come_in_parts_and_join_the_report_once_whole() {
    let (page, c) = Page::opening(Map::new(), false);
    let first = run_of(&c);
    let (_, older) = in_parts(first, ValidityStatus::Pending);
    let (page, c) = page.on(Event::Settings(SettingsEdit::Preset("exact".into())));
    let second = run_of(&c);
    let (whole, events) = in_parts(second, ValidityStatus::Pending);
    let mut events = events.into_iter();
    let (page, _) = page.on(events.next().unwrap());
    let shown = page.report.report().cloned().expect("drawn at once");
    assert!(lacks_details(&shown));
    let (mut page, _) = page.on(older[1].clone());
    let parts: Vec<Event> = events.collect();
    // The second part before the first: dropped.
    (page, _) = page.on(parts[1].clone());
    for part in &parts[..parts.len() - 1] {
        (page, _) = page.on(part.clone());
        assert!(Arc::ptr_eq(page.report.report().unwrap(), &shown));
    }
    // An older run's last part: nothing.
    (page, _) = page.on(older.last().unwrap().clone());
    assert!(!has_details(&page));
    let commands;
    (page, commands) = page.on(parts.last().unwrap().clone());
    // Only the details are drawn: the tables (and a panel's run) stay.
    assert_eq!(commands, vec![Command::ShowDetails]);
    assert!(has_details(&page));
    assert_eq!(**page.report.report().unwrap(), whole);
    assert!(matches!(
        page.report,
        ReportState::Ready {
            validity: ValidityStatus::Pending,
            ..
        }
    ));
    assert!(page.coming.is_empty());
}

/// The report finished when the validity is in comes again with its
/// details in parts: the one shown, with its details, stays until they
/// are all in, so the document browser never goes blank.
#[test]
fn the_finished_report_waits_for_its_details() {
    let (page, _) = Page::opening(Map::new(), true);
    let (_, events) = in_parts(OPENING_RUN, ValidityStatus::Pending);
    let mut page = page;
    for event in events {
        (page, _) = page.on(event);
    }
    let provisional = page.report.report().cloned().unwrap();
    assert!(has_details(&page));
    let (whole, events) = in_parts(OPENING_RUN, ValidityStatus::Final);
    let last = events.len() - 1;
    for (i, event) in events.into_iter().enumerate() {
        let commands;
        (page, commands) = page.on(event);
        // A new report (the validity is in): drawn whole, tables too.
        assert!(!commands.contains(&Command::ShowDetails));
        if i < last {
            assert!(Arc::ptr_eq(page.report.report().unwrap(), &provisional));
            assert!(matches!(
                page.report,
                ReportState::Ready {
                    validity: ValidityStatus::Pending,
                    ..
                }
            ));
        }
    }
    assert!(matches!(
        page.report,
        ReportState::Ready {
            validity: ValidityStatus::Final,
            ..
        }
    ));
    assert_eq!(**page.report.report().unwrap(), whole);
}

/// The document browser's report with every detail (a panel's run): the
/// panel gets it once, whole, with the last part, and its run ends then;
/// a new report run drops the parts still to come.
#[test]
fn a_panels_report_reaches_it_whole() {
    let (page, c) = Page::opening(Map::new(), false);
    let (page, _) = page.on(ready(run_of(&c), 50, ValidityStatus::Final));
    let (mut page, commands) = page.on(Event::Panel(Task::Details));
    let [Command::Post(Request::Run {
        generation,
        task: Task::Details,
    })] = commands.as_slice()
    else {
        panic!("the panel's run is asked for: {commands:?}");
    };
    let (whole, events) = in_parts(*generation, ValidityStatus::Final);
    let last = events.len() - 1;
    for (i, event) in events.clone().into_iter().enumerate() {
        let commands;
        (page, commands) = page.on(event);
        if i < last {
            assert_eq!(commands, vec![]);
            assert_eq!(page.panel_runs(), &[*generation]);
        } else {
            assert_eq!(
                commands,
                vec![Command::ToPanel(Answer::Report {
                    generation: *generation,
                    report: Box::new(whole.clone()),
                    validity: ValidityStatus::Final,
                    evaluation_ms: 3.0,
                    details_follow: false,
                })]
            );
            assert_eq!(page.panel_runs(), &[] as &[Generation]);
        }
    }
    // Half its parts, then a new report: the rest are dropped.
    let (mut page, commands) = page.on(Event::Panel(Task::Details));
    let Some(Command::Post(Request::Run { generation, .. })) = commands.first().cloned() else {
        panic!("a panel run");
    };
    let (_, events) = in_parts(generation, ValidityStatus::Final);
    for event in &events[..2] {
        (page, _) = page.on(event.clone());
    }
    (page, _) = page.on(Event::Settings(SettingsEdit::Preset("exact".into())));
    for event in &events[2..] {
        let commands;
        (page, commands) = page.on(event.clone());
        assert!(!commands.iter().any(|c| matches!(c, Command::ToPanel(_))));
    }
    assert!(page.coming.is_empty());
}

#[test]
fn the_page_opens_on_the_examples_report() {
    // A worker that opens makes the report under the empty settings
    // unasked: the page waits for that run.
    let (page, commands) = Page::opening(Map::new(), true);
    assert_eq!(commands, vec![]);
    assert!(matches!(
        page.report,
        ReportState::Evaluating { previous: None, .. }
    ));
    let (page, _) = page.on(ready(OPENING_RUN, 50, ValidityStatus::Pending));
    assert_eq!(shown_documents(&page), Some(50));
    // The next request is numbered after it.
    let (_, c) = page.on(Event::Settings(SettingsEdit::Preset("exact".into())));
    assert_eq!(run_of(&c), OPENING_RUN + 1);

    // Settings from the link: asked for, and the worker's own run
    // (made under other settings) is stale.
    let (page, c) = Page::opening(settings("exact"), true);
    let asked = run_of(&c);
    assert_eq!(asked, OPENING_RUN + 1);
    let (page, _) = page.on(ready(OPENING_RUN, 50, ValidityStatus::Pending));
    assert_eq!(shown_documents(&page), None);
    let (page, _) = page.on(ready(asked, 7, ValidityStatus::Pending));
    assert_eq!(shown_documents(&page), Some(7));

    // A worker started without `open` (the page's own fallback).
    let (page, commands) = Page::opening(Map::new(), false);
    assert!(page.shows_example);
    let g = run_of(&commands);
    assert!(matches!(
        page.report,
        ReportState::Evaluating { previous: None, .. }
    ));
    let (page, _) = page.on(ready(g, 50, ValidityStatus::Pending));
    assert!(matches!(
        page.report,
        ReportState::Ready {
            validity: ValidityStatus::Pending,
            ..
        }
    ));
}

/// The opening answers made when the app was built are drawn while the
/// opening run is awaited; the worker's equal report keeps the one shown
/// (nothing drawn twice) and its details join it. Too late (the worker's
/// report shown, with its details) or stale (a drop, settings from the
/// link), they change nothing.
#[test]
fn the_prebuilt_opening_answers() {
    let opening = crate::service::opening_answers();
    let prebuilt = opening.first.clone();
    let Some(Answer::Report { report: built, .. }) = prebuilt.last().cloned() else {
        panic!("the opening answers end with the report");
    };
    let (page, _) = Page::opening(Map::new(), true);
    let (page, commands) = page.on(Event::Prebuilt {
        answers: prebuilt.clone(),
    });
    // The example's files, then its config file under the settings.
    assert!(matches!(
        commands.as_slice(),
        [Command::ShowFiles { files, .. }, Command::ShowSettings(settings)]
            if files.len() == 6 && settings.config_files().len() == 1 && settings.layer.is_empty()
    ));
    assert!(page.shows_example);
    let ReportState::Ready {
        report: shown,
        validity: ValidityStatus::Pending,
    } = page.report.clone()
    else {
        panic!("the prebuilt report is shown, its validity pending");
    };
    assert_eq!(*shown, *built);
    assert!(lacks_details(&shown));

    // The worker's own report, equal: the same `Arc` stays; then its
    // details, in parts, join it.
    let (whole, events) = in_parts(OPENING_RUN, ValidityStatus::Pending);
    let mut events = events.into_iter();
    let (mut page, _) = page.on(events.next().unwrap());
    assert!(Arc::ptr_eq(page.report.report().unwrap(), &shown));
    for event in events {
        (page, _) = page.on(event);
    }
    let joined = page.report.report().cloned().unwrap();
    assert_eq!(*joined, whole);
    // Arriving now (a slow fetch), they are too late: the details stay.
    let (page, commands) = page.on(Event::Prebuilt {
        answers: prebuilt.clone(),
    });
    assert_eq!(commands, vec![]);
    assert!(Arc::ptr_eq(page.report.report().unwrap(), &joined));

    // The build's details, fetched once the report is painted, join it
    // before the worker is even ready: the worker's own report and
    // details, equal, then change nothing shown.
    let (page, _) = Page::opening(Map::new(), true);
    let (page, _) = page.on(Event::Prebuilt {
        answers: prebuilt.clone(),
    });
    let (page, commands) = page.on(Event::Prebuilt {
        answers: opening.details.clone(),
    });
    assert_eq!(commands, vec![Command::ShowDetails]);
    let joined = page.report.report().cloned().unwrap();
    assert_eq!(*joined, whole);
    let (whole_again, events) = in_parts(OPENING_RUN, ValidityStatus::Pending);
    assert_eq!(whole_again, whole);
    let mut page = page;
    for event in events {
        let commands;
        (page, commands) = page.on(event);
        assert_eq!(commands, vec![]);
    }
    assert!(Arc::ptr_eq(page.report.report().unwrap(), &joined));
    // After the worker's report with the validity in (its own details
    // coming), the build's provisional details are not taken.
    let (page, _) = Page::opening(Map::new(), true);
    let (page, _) = page.on(Event::Prebuilt {
        answers: prebuilt.clone(),
    });
    let (final_whole, events) = in_parts(OPENING_RUN, ValidityStatus::Final);
    let mut events = events.into_iter();
    let (page, _) = page.on(events.next().unwrap());
    let (page, commands) = page.on(Event::Prebuilt {
        answers: opening.details.clone(),
    });
    assert_eq!(commands, vec![]);
    let mut page = page;
    for event in events {
        (page, _) = page.on(event);
    }
    assert_eq!(**page.report.report().unwrap(), final_whole);

    // A drop before they arrive: stale.
    let (page, _) = Page::opening(Map::new(), true);
    let (page, _) = page.on(Event::Dropped { files: vec![] });
    let (page, commands) = page.on(Event::Prebuilt {
        answers: prebuilt.clone(),
    });
    assert_eq!(commands, vec![]);
    assert_eq!(shown_documents(&page), None);
    // Settings from the link: the example under other settings is not
    // the prebuilt one.
    let (page, _) = Page::opening(settings("exact"), true);
    let (page, _) = page.on(Event::Prebuilt { answers: prebuilt });
    assert_eq!(shown_documents(&page), None);
}

/// A settings change during an evaluation: the old report stays in
/// view, the old run's answers are dropped, the new one's shown.
#[test]
fn a_settings_change_during_an_evaluation() {
    let (page, c) = Page::opening(Map::new(), false);
    let first = run_of(&c);
    let (page, _) = page.on(ready(first, 1, ValidityStatus::Final));
    let (page, c) = page.on(Event::Settings(SettingsEdit::Preset("strict".into())));
    let second = run_of(&c);
    assert_eq!(shown_documents(&page), Some(1));
    let (page, c) = page.on(Event::Settings(SettingsEdit::Preset("lenient".into())));
    let third = run_of(&c);
    assert!(second < third);
    // The stale run's progress and report change nothing.
    let (page, _) = page.on(Event::Answer(Answer::Progress {
        generation: second,
        done: 5,
        total: 10,
    }));
    assert_eq!(
        page.report,
        ReportState::Evaluating {
            previous: page.report.report().cloned(),
            progress: None
        }
    );
    let (page, _) = page.on(ready(second, 2, ValidityStatus::Final));
    assert!(page.report.is_evaluating());
    assert_eq!(shown_documents(&page), Some(1));
    let (page, _) = page.on(Event::Answer(Answer::Progress {
        generation: third,
        done: 5,
        total: 10,
    }));
    assert!(matches!(
        page.report,
        ReportState::Evaluating {
            progress: Some((5, 10)),
            ..
        }
    ));
    let (page, _) = page.on(ready(third, 3, ValidityStatus::Final));
    assert_eq!(shown_documents(&page), Some(3));
    assert!(!page.report.is_evaluating());
}

/// Two quick changes: each asks the worker (which stops the older at
/// its next check); only the newest's answer counts, whatever order
/// the answers come in.
#[test]
fn two_quick_changes() {
    let page = Page::default();
    let (page, a) = page.on(Event::Settings(SettingsEdit::Preset("strict".into())));
    let (page, b) = page.on(Event::Settings(SettingsEdit::Preset("lenient".into())));
    let (a, b) = (run_of(&a), run_of(&b));
    let (page, _) = page.on(ready(b, 2, ValidityStatus::Final));
    let (page, _) = page.on(Event::Answer(Answer::Stopped {
        generation: a,
        done: 1,
        total: 9,
    }));
    let (page, _) = page.on(ready(a, 1, ValidityStatus::Final));
    assert_eq!(shown_documents(&page), Some(2));
}

pub(super) fn validity_job(version: u64) -> Event {
    Event::Answer(Answer::ValidityJob {
        version,
        files: vec![(0, "truth.jsonl".into(), Role::Truth)],
        id_field: None,
        schema_by: None,
    })
}

/// The schema worker's answer is relayed to the evaluation worker;
/// arriving after the report, the finished report (same run) replaces
/// the pending one; arriving before, the report comes final. The first
/// job waits for the page's first report (the schema worker's module
/// then compiles after it is drawn); once loaded, a job starts at once.
#[test]
fn the_schema_answer_before_and_after_the_report() {
    let (page, c) = Page::opening(Map::new(), false);
    let g = run_of(&c);
    let (page, c) = page.on(validity_job(1));
    assert_eq!(c, vec![]);
    // After: pending (the held job starts after the draw), then final.
    let (after, c) = page.on(ready(g, 50, ValidityStatus::Pending));
    assert!(matches!(
        c[..],
        [Command::CheckSchema {
            version: 1,
            after_draw: true,
            ..
        }]
    ));
    let (after, c) = after.on(Event::SchemaAnswered {
        version: 1,
        answer: "{}".into(),
    });
    assert_eq!(
        c,
        vec![Command::Post(Request::Validity {
            version: 1,
            answer: "{}".into()
        })]
    );
    let (after, _) = after.on(ready(g, 50, ValidityStatus::Final));
    assert!(matches!(
        after.report,
        ReportState::Ready {
            validity: ValidityStatus::Final,
            ..
        }
    ));
    // Before: a new report under other files; the loaded schema worker
    // checks at once and answers while the run is under way.
    let (before, c) = after.clone().on(Event::Edited {
        edits: vec![Request::Remove { id: 2 }],
    });
    let g2 = run_of(&c);
    let (before, c) = before.on(validity_job(2));
    assert!(matches!(
        c[..],
        [Command::CheckSchema {
            version: 2,
            after_draw: false,
            ..
        }]
    ));
    let (before, c) = before.on(Event::SchemaAnswered {
        version: 2,
        answer: "{}".into(),
    });
    assert_eq!(c.len(), 1);
    assert!(before.report.is_evaluating());
    let (before, _) = before.on(ready(g2, 50, ValidityStatus::Final));
    assert_eq!(before.report, after.report);
}

/// A file removed mid-evaluation: the removal goes to the worker
/// before the new run, and the old run's report is dropped.
#[test]
fn a_file_removed_mid_evaluation() {
    let (page, c) = Page::opening(Map::new(), false);
    let old = run_of(&c);
    let (page, c) = page.on(Event::Edited {
        edits: vec![Request::Remove { id: 2 }],
    });
    assert_eq!(c[0], Command::Post(Request::Remove { id: 2 }));
    let new = run_of(&c);
    let (page, _) = page.on(ready(old, 3, ValidityStatus::Final));
    assert!(page.report.is_evaluating());
    let (page, _) = page.on(ready(new, 2, ValidityStatus::Final));
    assert_eq!(shown_documents(&page), Some(2));
}

/// A worker crash: the error panel's reason, the panel's run failed;
/// the next request restarts the worker with every file listed, in
/// their roles, names and costs, before asking again.
#[test]
fn a_worker_crash_and_the_restart() {
    let (page, c) = Page::opening(Map::new(), false);
    let g = run_of(&c);
    let files = vec![FileSummary {
        id: 4,
        name: "gold.jsonl".into(),
        role: Role::Truth,
        bytes: 10,
        records: Some(1),
        pending: false,
        error: None,
        model: "gold".into(),
        cost: None,
        config: None,
    }];
    let (page, _) = page.on(Event::Answer(Answer::Files {
        files,
        shows_example: false,
        settings: None,
        schemas: None,
    }));
    let (page, _) = page.on(ready(g, 1, ValidityStatus::Final));
    let (page, c) = page.on(Event::Panel(Task::Bootstrap));
    assert!(c.iter().all(|c| !matches!(c, Command::Restart { .. })));
    let (page, c) = page.on(Event::WorkerFailed {
        reason: "panicked at src/service.rs:1:2:\nwhy".into(),
    });
    assert_eq!(page.worker(), Worker::Down);
    let failed = ReportState::Failed {
        reason: "The evaluation stopped: panicked at src/service.rs:1:2:\nwhy".into(),
    };
    assert_eq!(page.report, failed);
    assert!(matches!(c[..], [Command::ToPanel(Answer::Failed { .. })]));
    // The trap's error event after the panic's message: the first
    // reason stays, nothing more is done.
    let (page, c) = page.on(Event::WorkerFailed {
        reason: "Uncaught RuntimeError: unreachable".into(),
    });
    assert_eq!((&page.report, c), (&failed, vec![]));
    let (page, c) = page.on(Event::Again);
    assert_eq!(
        c[0],
        Command::Restart {
            files: vec![NewFile {
                id: 4,
                name: "gold.jsonl".into(),
                role: Some(Role::Truth),
                model: Some("gold".into()),
                cost: None,
            }],
            example: false,
        }
    );
    run_of(&c);
    assert_eq!(page.worker(), Worker::Running);
}

/// The example is replaced by the first drop; later drops add.
#[test]
fn the_example_replaced_by_a_drop() {
    let (page, _) = Page::opening(Map::new(), false);
    let file = |id| NewFile {
        id,
        name: format!("f{id}.jsonl"),
        role: None,
        model: None,
        cost: None,
    };
    let drop = |files| Event::Dropped { files };
    let (page, c) = page.on(drop(vec![file(10), file(11)]));
    assert!(matches!(
        &c[0],
        Command::Post(Request::AddFiles {
            replace_example: true,
            ..
        })
    ));
    let (page, c) = page.on(drop(vec![file(12)]));
    assert!(matches!(
        &c[0],
        Command::Post(Request::AddFiles {
            replace_example: false,
            ..
        })
    ));
    // "Load example" brings it back; the next drop replaces it again.
    let (page, _) = page.on(Event::Edited {
        edits: vec![Request::LoadExample],
    });
    let (_, c) = page.on(drop(vec![file(13)]));
    assert!(matches!(
        &c[0],
        Command::Post(Request::AddFiles {
            replace_example: true,
            ..
        })
    ));
}

/// A panel's answers go to the panel; a new report stops its run, and
/// its late answers are dropped.
#[test]
fn a_panel_run_and_a_report_change() {
    let (page, c) = Page::opening(Map::new(), false);
    let g = run_of(&c);
    let (page, _) = page.on(ready(g, 1, ValidityStatus::Final));
    let (page, c) = page.on(Event::Panel(Task::Literature));
    let Command::Post(Request::Run { generation: p, .. }) = c[0] else {
        panic!("no run: {c:?}");
    };
    let progress = Answer::Progress {
        generation: p,
        done: 1,
        total: 2,
    };
    let (page, c) = page.on(Event::Answer(progress.clone()));
    assert_eq!(c, vec![Command::ToPanel(progress)]);
    let (page, c) = page.on(Event::Again);
    assert_eq!(c[0], Command::Post(Request::Cancel { generation: p }));
    let (_, c) = page.on(Event::Answer(Answer::Stopped {
        generation: p,
        done: 1,
        total: 2,
    }));
    assert!(c.is_empty());
    assert_eq!(shown_documents(&Page::default()), None);
}

/// The page after `task` is asked for, and the run's generation.
fn panel_run(page: Page, task: Task) -> (Page, Generation) {
    let (page, c) = page.on(Event::Panel(task));
    match c.last() {
        Some(Command::Post(Request::Run { generation, .. })) => (page, *generation),
        other => panic!("no run: {other:?}"),
    }
}

/// What the panel is told when the worker let go of a cancelled run
/// without a `Stopped` of its own.
fn settled(generation: Generation) -> Vec<Command> {
    vec![Command::ToPanel(Answer::Stopped {
        generation,
        done: 0,
        total: 0,
    })]
}

/// The panel's run, started and its Cancel clicked: the Cancel is posted
/// once (a report asked next does not post it again); the run's late
/// progress is dropped; the worker's `Stopped` goes to the panel (which
/// already says "Cancelled"), once.
#[test]
fn a_cancelled_panel_run_is_settled_by_its_stopped() {
    let (page, _) = Page::opening(Map::new(), false);
    let (page, p) = panel_run(page, Task::Bootstrap);
    let (page, c) = page.on(Event::CancelPanel);
    assert_eq!(c, vec![Command::Post(Request::Cancel { generation: p })]);
    assert_eq!(page.panel_runs(), [] as [Generation; 0]);
    assert_eq!(page.panels_listening(), [p]);
    let (page, c) = page.on(Event::CancelPanel);
    assert!(c.is_empty(), "{c:?}");
    let (page, c) = page.on(Event::Answer(Answer::Progress {
        generation: p,
        done: 300,
        total: 1000,
    }));
    assert!(c.is_empty(), "{c:?}");
    let stopped = Answer::Stopped {
        generation: p,
        done: 340,
        total: 1000,
    };
    let (page, c) = page.on(Event::Answer(stopped.clone()));
    assert_eq!(c, vec![Command::ToPanel(stopped.clone())]);
    assert!(page.panels_listening().is_empty());
    let (_, c) = page.on(Event::Answer(stopped));
    assert!(c.is_empty(), "{c:?}");
}

/// The worker finished the run before the Cancel reached it: its result
/// is not shown (the user cancelled); the panel is told the worker let
/// go of the run.
#[test]
fn a_result_after_cancel_is_dropped_and_settles_the_panel() {
    let (page, _) = Page::opening(Map::new(), false);
    let (page, p) = panel_run(page, Task::Literature);
    let (page, _) = page.on(Event::CancelPanel);
    let failed = Answer::Failed {
        generation: p,
        reason: "finished anyway".into(),
    };
    let (page, c) = page.on(Event::Answer(failed));
    assert_eq!(c, settled(p));
    assert!(page.panels_listening().is_empty());
    // A worker that fails with a cancelled run pending settles it too.
    let (page, q) = panel_run(page, Task::Bootstrap);
    let (page, _) = page.on(Event::CancelPanel);
    let (page, c) = page.on(Event::WorkerFailed {
        reason: "unreachable".into(),
    });
    assert_eq!(c, settled(q));
    assert!(page.panels_listening().is_empty());
}

/// A second panel run stops the first in the worker: the first's
/// `Stopped` still reaches its own panel (by generation).
#[test]
fn a_newer_panel_run_and_the_olders_stop() {
    let (page, _) = Page::opening(Map::new(), false);
    let (page, a) = page.on(Event::Panel(Task::Bootstrap));
    let (page, b) = page.on(Event::Panel(Task::Literature));
    let run = |c: &[Command]| match c.last() {
        Some(Command::Post(Request::Run { generation, .. })) => *generation,
        other => panic!("no run: {other:?}"),
    };
    let (a, b) = (run(&a), run(&b));
    assert_eq!(page.panel_runs(), [a, b]);
    let stopped = Answer::Stopped {
        generation: a,
        done: 3,
        total: 2000,
    };
    let (page, c) = page.on(Event::Answer(stopped.clone()));
    assert_eq!(c, vec![Command::ToPanel(stopped)]);
    assert_eq!(page.panel_runs(), [b]);
}
