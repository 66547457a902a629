//! The schema worker's queue's native tests: the sequences that matter
//! (issue 33), each with the commands the page carries out: the queue
//! alone, then with the page (`Page::on`) around it.

use super::*;
use crate::protocol::{Request, ValidityStatus};
use crate::report_state::tests::{ready, run_of, validity_job};
use crate::report_state::{Command, Event, Page};
use crate::session::{validity_answer_from_json, SettingsEdit};
use serde_json::Map;

fn job(version: u64) -> SchemaJob {
    SchemaJob {
        version,
        files: vec![
            (0, "truth.jsonl".into(), Role::Truth),
            (1, "model-a.jsonl".into(), Role::Predictions),
        ],
        id_field: Some("id".into()),
        schema_by: None,
    }
}

fn start(version: u64, after_draw: bool) -> SchemaCommand {
    SchemaCommand::Start {
        job: job(version),
        after_draw,
    }
}

fn answered(version: u64) -> SchemaEvent {
    SchemaEvent::Answered {
        version,
        answer: format!("{{\"valid\":[\"{version}\"]}}"),
    }
}

fn relay(version: u64) -> SchemaCommand {
    SchemaCommand::Relay {
        version,
        answer: format!("{{\"valid\":[\"{version}\"]}}"),
    }
}

/// Runs `events` from `queue`; every command said, in order.
fn run(queue: SchemaQueue, events: Vec<SchemaEvent>) -> (SchemaQueue, Vec<SchemaCommand>) {
    events
        .into_iter()
        .fold((queue, Vec::new()), |(queue, mut all), event| {
            let (queue, said) = queue.on(event);
            all.extend(said);
            (queue, all)
        })
}

/// A queue whose worker has loaded (answered job 1) under a shown report.
fn loaded() -> SchemaQueue {
    let (queue, said) = run(
        SchemaQueue::default(),
        vec![
            SchemaEvent::ReportShown(true),
            SchemaEvent::Job(job(1)),
            answered(1),
        ],
    );
    assert_eq!(said, vec![start(1, false), relay(1)]);
    queue
}

/// The first job, before any report is drawn, is held (the worker's
/// module then compiles after the page's first report, not beside it);
/// the report drawn starts it, in a task after the draw.
#[test]
fn the_first_job_is_held_until_a_report_is_drawn() {
    let (queue, said) = SchemaQueue::default().on(SchemaEvent::Job(job(1)));
    assert_eq!(said, vec![]);
    assert_eq!(queue.waiting(), Some(1));
    assert!(!queue.is_checking());
    // A newer job replaces the held one.
    let (queue, said) = queue.on(SchemaEvent::Job(job(2)));
    assert_eq!(said, vec![]);
    assert_eq!(queue.waiting(), Some(2));
    let (queue, said) = queue.on(SchemaEvent::ReportShown(true));
    assert_eq!(said, vec![start(2, true)]);
    assert_eq!(queue.waiting(), None);
    assert!(queue.is_checking());
    // Told again that a report is shown (it still is): nothing new.
    let (queue, said) = queue.on(SchemaEvent::ReportShown(true));
    assert_eq!(said, vec![]);
    let (queue, said) = queue.on(answered(2));
    assert_eq!(said, vec![relay(2)]);
    assert!(!queue.is_checking());
}

/// With a report shown, the first job starts at once (not after a draw).
#[test]
fn a_job_under_a_shown_report_starts_at_once() {
    let (queue, said) = run(
        SchemaQueue::default(),
        vec![SchemaEvent::ReportShown(true), SchemaEvent::Job(job(1))],
    );
    assert_eq!(said, vec![start(1, false)]);
    assert!(queue.is_checking());
}

/// One job at a time: jobs made while the worker checks wait, each
/// replacing the one before; the answer to the job checked is not
/// relayed (the evaluation worker keeps only its newest job), and the
/// newest waiting starts.
#[test]
fn a_job_while_busy_replaces_the_queued_one() {
    let (queue, said) = loaded().on(SchemaEvent::Job(job(2)));
    assert_eq!(said, vec![start(2, false)]);
    let (queue, said) = run(
        queue,
        vec![SchemaEvent::Job(job(3)), SchemaEvent::Job(job(4))],
    );
    assert_eq!(said, vec![]);
    assert_eq!(queue.waiting(), Some(4));
    let (queue, said) = queue.on(answered(2));
    assert_eq!(said, vec![start(4, false)]);
    let (queue, said) = queue.on(answered(4));
    assert_eq!(said, vec![relay(4)]);
    assert_eq!(queue, {
        let mut idle = loaded();
        idle.checking = None;
        idle
    });
}

/// An answer for no job checked, or for another version than the one
/// checked, is not relayed; the worker is free again after it.
#[test]
fn an_answer_for_a_stale_job_is_not_relayed() {
    let (queue, said) = loaded().on(answered(1));
    assert_eq!(said, vec![], "job 1 was answered already");
    let (queue, said) = run(queue, vec![SchemaEvent::Job(job(2)), answered(7)]);
    assert_eq!(said, vec![start(2, false)], "7 is not the job checked");
    assert!(!queue.is_checking());
}

/// The worker failing: its failure goes on as the answer (an error the
/// evaluation worker reads: the validity failed); it counts as not loaded
/// again, so with no report shown the next job waits for one.
#[test]
fn the_worker_failing() {
    let (queue, said) = run(
        loaded(),
        vec![
            SchemaEvent::Job(job(2)),
            SchemaEvent::Failed {
                version: 2,
                reason: "the schema validator could not be loaded or failed".into(),
            },
        ],
    );
    let [SchemaCommand::Start { .. }, SchemaCommand::Relay { version: 2, answer }] = &said[..]
    else {
        panic!("not a start and a relay: {said:?}");
    };
    let read = validity_answer_from_json(answer).unwrap_err();
    assert_eq!(
        read.message,
        "the schema validator could not be loaded or failed"
    );
    assert_eq!(read.kind, ErrorKind::Input);
    // The report failed meanwhile (none shown): the next job is held.
    let (queue, said) = run(
        queue,
        vec![SchemaEvent::ReportShown(false), SchemaEvent::Job(job(3))],
    );
    assert_eq!(said, vec![]);
    assert_eq!(queue.waiting(), Some(3));
    let (_, said) = queue.on(SchemaEvent::ReportShown(true));
    assert_eq!(said, vec![start(3, true)]);
}

/// A loaded worker checks at once even with no report shown (a report
/// failed): holding is only for its module's first compile.
#[test]
fn a_loaded_worker_checks_without_a_report() {
    let (_, said) = run(
        loaded(),
        vec![SchemaEvent::ReportShown(false), SchemaEvent::Job(job(2))],
    );
    assert_eq!(said, vec![start(2, false)]);
}

/// The evaluation worker started again numbers its jobs from 1: the old
/// worker's job checked is answered but not relayed (it could pass for
/// one of the new worker's jobs), its waiting job is dropped, and the new
/// worker's job 1 starts once the schema worker is free.
#[test]
fn a_restarted_evaluation_worker() {
    let (queue, said) = run(
        loaded(),
        vec![
            SchemaEvent::Job(job(2)),
            SchemaEvent::Job(job(3)),
            SchemaEvent::Restarted,
        ],
    );
    assert_eq!(said, vec![start(2, false)]);
    assert_eq!(queue.waiting(), None);
    let (queue, said) = queue.on(SchemaEvent::Job(job(1)));
    assert_eq!(said, vec![]);
    let (queue, said) = queue.on(answered(2));
    assert_eq!(said, vec![start(1, false)]);
    let (_, said) = queue.on(answered(1));
    assert_eq!(said, vec![relay(1)]);
    // The old job's answer before the new worker's first job reaches the
    // page (that job may be on its way): not relayed either.
    let (queue, _) = loaded().on(SchemaEvent::Job(job(2)));
    let (queue, said) = run(queue, vec![SchemaEvent::Restarted, answered(2)]);
    assert_eq!(said, vec![]);
    assert!(!queue.is_checking());
}

/// Unicode names and fields pass through untouched.
#[test]
fn unicode_jobs_pass_through() {
    let unicode = SchemaJob {
        version: 1,
        files: vec![(5, "Ünïcödé 請求書.jsonl".into(), Role::Truth)],
        id_field: Some("番号".into()),
        schema_by: Some("型".into()),
    };
    let (_, said) = run(
        SchemaQueue::default(),
        vec![
            SchemaEvent::Job(unicode.clone()),
            SchemaEvent::ReportShown(true),
        ],
    );
    assert_eq!(
        said,
        vec![SchemaCommand::Start {
            job: unicode,
            after_draw: true
        }]
    );
}

/// The schema worker failing: its failure goes to the evaluation worker
/// as the answer (the validity failed). A new report asked while a job
/// runs leaves the job running; its answer is relayed.
#[test]
fn the_schema_worker_failing_and_a_report_while_it_checks() {
    let (page, c) = Page::opening(Map::new(), false);
    let g = run_of(&c);
    let (page, _) = page.on(ready(g, 50, ValidityStatus::Pending));
    let (page, c) = page.on(validity_job(1));
    assert!(matches!(c[..], [Command::CheckSchema { version: 1, .. }]));
    let (page, c) = page.on(Event::SchemaFailed {
        version: 1,
        reason: "the schema validator could not be loaded or failed".into(),
    });
    let [Command::Post(Request::Validity { version: 1, answer })] = &c[..] else {
        panic!("no validity posted: {c:?}");
    };
    let why = validity_answer_from_json(answer).unwrap_err();
    assert_eq!(
        why.message,
        "the schema validator could not be loaded or failed"
    );
    // The next job (a report is shown) starts; a settings change while
    // it runs asks for a report and nothing of the schema worker.
    let (page, c) = page.on(validity_job(2));
    assert!(matches!(c[..], [Command::CheckSchema { version: 2, .. }]));
    let (page, c) = page.on(Event::Settings(SettingsEdit::Preset("strict".into())));
    assert!(
        matches!(
            c[..],
            [Command::ShowSettings(_), Command::Post(Request::Run { .. })]
        ),
        "the settings shown and the run only: {c:?}"
    );
    assert!(page.schema().is_checking());
    let (_, c) = page.on(Event::SchemaAnswered {
        version: 2,
        answer: "{}".into(),
    });
    assert_eq!(
        c,
        vec![Command::Post(Request::Validity {
            version: 2,
            answer: "{}".into()
        })]
    );
}

/// The evaluation worker restarted while the schema worker checks one of
/// the old worker's jobs: that answer is not relayed to the new worker
/// (which numbers its jobs from 1 again); the new worker's job follows.
#[test]
fn a_schema_answer_across_a_restart() {
    let (page, c) = Page::opening(Map::new(), false);
    let g = run_of(&c);
    let (page, _) = page.on(ready(g, 50, ValidityStatus::Pending));
    let (page, _) = page.on(validity_job(1));
    let (page, _) = page.on(Event::WorkerFailed {
        reason: "boom".into(),
    });
    let (page, c) = page.on(Event::Again);
    assert!(matches!(c[0], Command::Restart { .. }));
    let (page, c) = page.on(validity_job(1));
    assert_eq!(c, vec![], "the schema worker is busy");
    let (page, c) = page.on(Event::SchemaAnswered {
        version: 1,
        answer: "{\"valid\":[\"0\"]}".into(),
    });
    assert!(
        matches!(c[..], [Command::CheckSchema { version: 1, .. }]),
        "the old answer not relayed, the new job started: {c:?}"
    );
    let (_, c) = page.on(Event::SchemaAnswered {
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
}
