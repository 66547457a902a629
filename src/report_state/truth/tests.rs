use super::*;
use crate::session::Session;

/// The truth and three models of `tests/suite/corrections_cli.rs`: m0 and
/// m1 agree on `a.total` 200 and `a.items[1].qty` 3 (the truth: 100 and
/// 2), all three on `b.name` "Zed" (the truth has none).
pub(crate) fn planted() -> Session {
    let mut s = Session::default();
    s.add_file(
        "truth.jsonl",
        b"{\"id\":\"a\",\"total\":100,\"items\":[{\"qty\":1,\"sku\":\"X\"},{\"qty\":2,\"sku\":\"Y\"}]}\n{\"id\":\"b\",\"total\":5}\n".to_vec(),
    );
    for (m, total, qty) in [("m0", 200, 3), ("m1", 200, 3), ("m2", 300, 4)] {
        s.add_file(
            &format!("{m}.jsonl"),
            format!(
                "{{\"id\":\"a\",\"total\":{total},\"items\":[{{\"qty\":1,\"sku\":\"X\"}},{{\"qty\":{qty},\"sku\":\"Y\"}}]}}\n{{\"id\":\"b\",\"total\":5,\"name\":\"Zed\"}}\n"
            )
            .into_bytes(),
        );
    }
    s
}

fn checked() -> (TruthCheck, Report) {
    let report = planted().evaluate().unwrap();
    let check = TruthCheck {
        baseline: Some(Baseline::of(&report)),
        ..TruthCheck::default()
    };
    (check, report)
}

fn accept(id: &str, field: &str) -> Message {
    Message::Accept {
        id: id.into(),
        field: field.into(),
    }
}

#[test]
fn the_baseline_holds_the_suspects_most_support_first_and_each_f1() {
    let (check, _) = checked();
    let b = check.baseline.as_ref().unwrap();
    let slots: Vec<(&str, &str, usize)> = b
        .suspects
        .iter()
        .map(|s| (s.id.as_str(), s.field.as_str(), s.support))
        .collect();
    // b.name: all 3 agree; a's two slots: m0 and m1 (max(2, ⌈1.5⌉) = 2).
    assert_eq!(
        slots,
        [
            ("b", "name", 3),
            ("a", "items[1].qty", 2),
            ("a", "total", 2)
        ]
    );
    // Each model: P = 4/7, R = 4/6, F1 = 8/13 (corrections_cli.rs).
    assert_eq!(b.f1.len(), 3);
    assert!(b.f1.iter().all(|(_, f1)| (f1 - 8.0 / 13.0).abs() < 1e-12));
}

#[test]
fn accept_edit_reject_and_undo_move_the_corrections() {
    let (mut check, _) = checked();
    assert_eq!(check.corrections(), json!([]));
    // Accept: the proposed value.
    assert!(check.update(accept("b", "name")));
    assert_eq!(
        check.corrections(),
        json!([{"id": "b", "field": "name", "from": null, "to": "Zed"}])
    );
    // Edit: typed JSON is JSON, anything else the text.
    assert!(check.update(Message::Edit {
        id: "a".into(),
        field: "total".into(),
        text: " 250 ".into()
    }));
    assert!(check.update(Message::Edit {
        id: "a".into(),
        field: "items[1].qty".into(),
        text: "three".into()
    }));
    assert_eq!(
        check.corrections(),
        json!([{"id": "b", "field": "name", "from": null, "to": "Zed"},
               {"id": "a", "field": "total", "from": 100, "to": 250},
               {"id": "a", "field": "items[1].qty", "from": 2, "to": "three"}])
    );
    assert_eq!(check.corrected(), 3);
    // Reject a corrected slot: its correction goes, the decision stays.
    assert!(check.update(Message::Reject {
        id: "a".into(),
        field: "items[1].qty".into()
    }));
    assert_eq!(check.corrected(), 2);
    assert_eq!(
        check.decision("a", "items[1].qty").map(|d| d.to.clone()),
        Some(None)
    );
    // The same decision again changes nothing (and adds no undo step).
    assert!(!check.update(Message::Reject {
        id: "a".into(),
        field: "items[1].qty".into()
    }));
    // Undo: back to "three", then to no edit of the total…
    assert!(check.update(Message::Undo));
    assert_eq!(check.corrected(), 3);
    assert!(check.update(Message::Undo));
    assert!(check.update(Message::Undo));
    assert_eq!(
        check.corrections(),
        json!([{"id": "b", "field": "name", "from": null, "to": "Zed"}])
    );
    assert!(check.update(Message::Undo));
    assert_eq!(check.corrections(), json!([]));
    // Nothing left to undo.
    assert!(!check.can_undo());
    assert!(!check.update(Message::Undo));
    // Clear drops every decision; Undo brings them back.
    check.update(accept("b", "name"));
    check.update(Message::Reject {
        id: "a".into(),
        field: "total".into(),
    });
    assert!(check.update(Message::Clear));
    assert!(check.decisions().is_empty());
    assert!(!check.update(Message::Clear));
    assert!(check.update(Message::Undo));
    assert_eq!(check.decisions().len(), 2);
    assert_eq!(check.corrected(), 1);
}

#[test]
fn what_does_not_fit_changes_nothing() {
    let (mut check, _) = checked();
    // No such suspect; nothing typed.
    assert!(!check.update(accept("a", "items[0].qty")));
    assert!(!check.update(Message::Edit {
        id: "a".into(),
        field: "total".into(),
        text: "   ".into()
    }));
    // Rejecting a suspect never corrected changes no correction, but is
    // kept (dismissed) and can be undone.
    assert!(!check.update(Message::Reject {
        id: "b".into(),
        field: "name".into()
    }));
    assert_eq!(check.decisions().len(), 1);
    assert!(check.can_undo());
    // No baseline: nothing to accept.
    let mut empty = TruthCheck::default();
    assert!(!empty.update(accept("b", "name")));
}

#[test]
fn typed_values_read_as_json_else_as_text() {
    assert_eq!(read_typed("3"), Some(json!(3)));
    assert_eq!(read_typed("\"3\""), Some(json!("3")));
    assert_eq!(read_typed("null"), Some(Value::Null));
    assert_eq!(read_typed(" Zürich "), Some(json!("Zürich")));
    assert_eq!(read_typed("007"), Some(json!("007")));
    assert_eq!(read_typed(""), None);
}

#[test]
fn a_bundles_corrections_are_loaded_and_reviewable() {
    let (mut check, _) = checked();
    check.update(accept("b", "name"));
    let list = json!([{"id": "a", "field": "total", "from": 100, "to": 200},
                      {"id": 7, "field": "x", "from": null, "to": "é"}]);
    check.load(&list);
    assert_eq!(check.baseline, None);
    assert!(!check.can_undo());
    assert_eq!(
        check.corrections(),
        json!([{"id": "a", "field": "total", "from": 100, "to": 200},
               {"id": "7", "field": "x", "from": null, "to": "é"}])
    );
    // A loaded correction can be rejected (and the rejection undone)
    // without a baseline.
    assert!(check.update(Message::Reject {
        id: "a".into(),
        field: "total".into()
    }));
    assert_eq!(check.corrected(), 1);
    assert!(check.update(Message::Undo));
    assert_eq!(check.corrected(), 2);
    check.reset();
    assert_eq!(check, TruthCheck::default());
}

#[test]
fn the_summary_line_says_how_far_each_f1_moves() {
    let (mut check, _) = checked();
    let mut session = planted();
    let fmt = |x: f64| format!("{x:.2}");
    assert_eq!(check.summary(&session.evaluate().unwrap(), fmt), None);
    for (id, field) in [("b", "name"), ("a", "items[1].qty"), ("a", "total")] {
        check.update(accept(id, field));
    }
    session.set_corrections(&check.corrections()).unwrap();
    let after = session.evaluate().unwrap();
    // m0, m1: 7 of 7 exact, F1 = 1; m2: 5 of 7, F1 = 5/7 = 0.714…;
    // before, 8/13 = 0.615… each.
    assert_eq!(
        check.summary(&after, fmt).unwrap(),
        "3 truth values corrected; micro F1 of m0 moves from 0.62 to 1.00, \
         of m1 from 0.62 to 1.00, of m2 from 0.62 to 0.71"
    );
    check.baseline = None;
    assert_eq!(
        check.summary(&after, fmt).unwrap(),
        "3 truth values corrected"
    );
}

// The page's state machine with the panel (`Page::on`).
mod page {
    use super::*;
    use crate::protocol::{Answer, Generation, Request, Task, ValidityStatus};
    use crate::report_state::{Command, Event, Page};
    use crate::session::SettingsEdit;

    fn run_of(commands: &[Command]) -> Generation {
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

    fn answer(generation: Generation, report: &Report) -> Event {
        Event::Answer(Answer::Report {
            generation,
            report: Box::new(report.clone()),
            validity: ValidityStatus::Final,
            evaluation_ms: 1.0,
            details_follow: false,
        })
    }

    fn decide(message: Message) -> Event {
        Event::Truth(message)
    }

    fn corrections_posted(commands: &[Command]) -> Option<Value> {
        commands.iter().find_map(|c| match c {
            Command::Post(Request::SetCorrections { corrections }) => Some(corrections.clone()),
            _ => None,
        })
    }

    /// The page as the planted files' report (uncorrected) came in.
    fn shown() -> (Page, Report, Report) {
        let mut session = planted();
        let before = session.evaluate().unwrap();
        session
            .set_corrections(&json!([{"id": "b", "field": "name", "from": null, "to": "Zed"}]))
            .unwrap();
        let after = session.evaluate().unwrap();
        let (page, commands) = Page::default().on(Event::Again);
        let (page, _) = page.on(answer(run_of(&commands), &before));
        (page, before, after)
    }

    #[test]
    fn a_decision_posts_the_corrections_then_asks_for_the_report() {
        let (page, before, after) = shown();
        assert_eq!(page.truth.baseline, Some(Baseline::of(&before)));
        let (page, commands) = page.on(decide(accept("b", "name")));
        // The corrections first, then the report run (never on the page).
        assert_eq!(commands.len(), 2);
        assert_eq!(
            corrections_posted(&commands[..1]),
            Some(json!([{"id": "b", "field": "name", "from": null, "to": "Zed"}]))
        );
        let run = run_of(&commands[1..]);
        assert!(page.report.is_evaluating());
        // The corrected report is shown; the baseline stays the one before.
        let (page, _) = page.on(answer(run, &after));
        assert_eq!(
            page.report.report().map(|r| r.models[2].micro.f1),
            Some(after.models[2].micro.f1)
        );
        assert_eq!(page.truth.baseline, Some(Baseline::of(&before)));
        // Undo: no corrections, and the next report is the baseline again.
        let (page, commands) = page.on(decide(Message::Undo));
        assert_eq!(corrections_posted(&commands), Some(json!([])));
        let (page, _) = page.on(answer(run_of(&commands), &before));
        assert_eq!(page.truth.corrected(), 0);
        // Rejecting a suspect never corrected asks for nothing.
        let (page, commands) = page.on(decide(Message::Reject {
            id: "a".into(),
            field: "total".into(),
        }));
        assert!(commands.is_empty());
        assert!(!page.report.is_evaluating());
        assert!(page.truth.can_undo());
    }

    #[test]
    fn other_inputs_drop_the_baseline_while_corrections_are_in_force() {
        let (page, _, after) = shown();
        let (page, commands) = page.on(decide(accept("b", "name")));
        let (page, _) = page.on(answer(run_of(&commands), &after));
        // A setting changes: the report before is of other settings.
        let (page, commands) = page.on(Event::Settings(SettingsEdit::Preset("exact".into())));
        assert_eq!(page.truth.baseline, None);
        // Its report is corrected: it is no baseline either.
        let (page, _) = page.on(answer(run_of(&commands), &after));
        assert_eq!(page.truth.baseline, None);
        assert_eq!(page.truth.corrected(), 1);
        // Cleared files take the decisions with them.
        let (page, _) = page.on(Event::Edited {
            edits: vec![Request::Clear],
        });
        assert_eq!(page.truth, TruthCheck::default());
    }

    #[test]
    fn a_bundles_corrections_come_with_its_files() {
        let (page, _, after) = shown();
        let after = after.clone();
        let (page, commands) = page.on(Event::Dropped { files: Vec::new() });
        let list = json!([{"id": "b", "field": "name", "from": null, "to": "Zed"}]);
        let (page, commands2) = page.on(Event::Answer(Answer::Corrections {
            corrections: list.clone(),
        }));
        assert!(commands2.is_empty());
        assert_eq!(page.truth.corrections(), list);
        // The report of the bundle is corrected: no baseline from it; the
        // worker is asked for the report without the corrections, once.
        let (page, commands) = page.on(answer(run_of(&commands), &after));
        assert_eq!(page.truth.baseline, None);
        let uncorrected: Vec<Generation> = commands
            .iter()
            .filter_map(|c| match c {
                Command::Post(Request::Run {
                    generation,
                    task: Task::Uncorrected,
                }) => Some(*generation),
                _ => None,
            })
            .collect();
        assert_eq!(uncorrected.len(), 1);
        let (page, again) = page.on(Event::Answer(Answer::Report {
            generation: uncorrected[0] - 1,
            report: Box::new(after.clone()),
            validity: ValidityStatus::Final,
            evaluation_ms: 1.0,
            details_follow: false,
        }));
        assert!(again.is_empty(), "asked once");
        // Its answer is the baseline, and the report shown stays.
        let before = planted().evaluate().unwrap();
        let (page, commands) = page.on(answer(uncorrected[0], &before));
        assert!(commands.is_empty());
        assert_eq!(page.truth.baseline, Some(Baseline::of(&before)));
        assert_eq!(
            page.report.report().map(|r| r.models[0].micro.f1),
            Some(after.models[0].micro.f1)
        );
        // The corrected truth asked for goes to the download.
        let file = Ok(("t.corrected.jsonl".to_string(), "{}\n".to_string()));
        let (_, commands) = page.on(Event::Answer(Answer::CorrectedTruth { file: file.clone() }));
        assert_eq!(commands, vec![Command::CorrectedTruth(file)]);
    }

    #[test]
    fn a_restarted_worker_gets_the_corrections_again() {
        let (page, _, _) = shown();
        let (page, _) = page.on(decide(accept("b", "name")));
        let (page, _) = page.on(Event::WorkerFailed {
            reason: "a panic".into(),
        });
        let (_, commands) = page.on(decide(Message::Edit {
            id: "a".into(),
            field: "total".into(),
            text: "200".into(),
        }));
        assert!(matches!(commands[0], Command::Restart { .. }));
        // Once after the restart (the list so far), then the new list.
        let posted: Vec<Value> = commands
            .iter()
            .filter_map(|c| match c {
                Command::Post(Request::SetCorrections { corrections }) => Some(corrections.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(posted.len(), 2);
        assert_eq!(posted[1].as_array().map(Vec::len), Some(2));
        run_of(&commands);
    }
}
