//! What the page shows beside the report, as the report state holds it
//! (issue 33: the panels send [`Event::View`] rather than writing a
//! signal): notices, the files being read, the average, the document
//! browser's destination, and the panels' results, which go with the
//! report they were computed for.

use super::*;
use crate::report_state::failures::Browse;

/// The page's commands after `event`: the view's, every one of them.
fn view(page: Page, event: ViewEvent) -> (Page, Vec<ViewCommand>) {
    let (page, commands) = page.on(Event::View(event));
    let said = commands
        .into_iter()
        .map(|c| match c {
            Command::View(v) => v,
            other => panic!("a view event asks for {other:?}"),
        })
        .collect();
    (page, said)
}

/// The panels' results drawn again (set or forgotten) by `commands`.
fn shows_results(commands: &[Command]) -> bool {
    commands
        .iter()
        .any(|c| matches!(c, Command::View(ViewCommand::ShowResults(_))))
}

/// The panels' results forgotten by `commands`.
fn forgets_results(commands: &[Command]) -> bool {
    commands.contains(&Command::View(ViewCommand::ShowResults(
        PanelResults::default(),
    )))
}

fn intervals() -> Arc<crate::eval::bootstrap::BootstrapReport> {
    let report = crate::session::Session::example()
        .evaluate_with(true)
        .unwrap();
    let options = crate::eval::bootstrap::BootstrapOptions {
        resamples: 20,
        ..Default::default()
    };
    Arc::new(crate::eval::bootstrap::bootstrap_report(
        &report,
        &report.config,
        options,
    ))
}

#[test]
fn a_notice_and_the_files_being_read_are_said_in_their_lines() {
    let (page, _) = Page::opening(Map::new(), false);
    let (page, c) = view(page, ViewEvent::Notice("chart.pdf: no exporter".into()));
    assert_eq!(
        c,
        vec![ViewCommand::Notice("chart.pdf: no exporter".into())]
    );
    // Two files of 2,500,000 bytes read, one refused: the refusal in the
    // notice line, the reading in the status line.
    let (page, c) = view(
        page,
        ViewEvent::Reading {
            files: 2,
            bytes: 2_500_000,
            refused: vec!["big.jsonl is 3.0 GB and was not loaded.".into()],
        },
    );
    assert_eq!(
        c,
        vec![
            ViewCommand::Notice("big.jsonl is 3.0 GB and was not loaded.".into()),
            ViewCommand::Busy(Some("Reading 2 files (2.5 MB)…".into())),
        ]
    );
    // One file of 800 bytes, none refused: the notice line is emptied.
    let (page, c) = view(
        page,
        ViewEvent::Reading {
            files: 1,
            bytes: 800,
            refused: vec![],
        },
    );
    assert_eq!(
        c,
        vec![
            ViewCommand::ClearNotice,
            ViewCommand::Busy(Some("Reading 1 file (800 B)…".into()))
        ]
    );
    // Every file refused: said, and nothing is read.
    let (_, c) = view(
        page,
        ViewEvent::Reading {
            files: 0,
            bytes: 0,
            refused: vec!["a.bin is empty.".into()],
        },
    );
    assert_eq!(c, vec![ViewCommand::Notice("a.bin is empty.".into())]);
}

#[test]
fn the_average_is_shown_when_it_changes_and_kept_across_reports() {
    let (page, c) = Page::opening(Map::new(), false);
    let (page, _) = page.on(ready(run_of(&c), 3, ValidityStatus::Final));
    assert_eq!(page.view.average, AverageView::MacroDocuments);
    let (page, c) = view(page, ViewEvent::Average(AverageView::Micro));
    assert_eq!(c, vec![ViewCommand::ShowAverage(AverageView::Micro)]);
    // The same again: nothing to draw.
    let (page, c) = view(page, ViewEvent::Average(AverageView::Micro));
    assert_eq!(c, vec![]);
    // Another report keeps the reader's choice.
    let (page, c) = page.on(Event::Settings(SettingsEdit::Preset("exact".into())));
    let (page, _) = page.on(ready(run_of(&c), 4, ValidityStatus::Final));
    assert_eq!(page.view.average, AverageView::Micro);
}

#[test]
fn the_document_browser_is_sent_where_a_panel_asks() {
    let (page, _) = Page::opening(Map::new(), false);
    let (page, c) = view(
        page,
        ViewEvent::Navigate(Navigate::OpenDocument("inv-7".into())),
    );
    assert_eq!(
        c,
        vec![ViewCommand::Navigate(Navigate::OpenDocument(
            "inv-7".into()
        ))]
    );
    let browse = Browse::segment(0, Some("total"), crate::eval::report::ErrorType::Missed);
    let (_, c) = view(page, ViewEvent::Navigate(Navigate::Browse(browse.clone())));
    assert_eq!(c, vec![ViewCommand::Navigate(Navigate::Browse(browse))]);
}

#[test]
fn a_panels_results_go_with_the_report_they_were_computed_for() {
    let (page, c) = Page::opening(Map::new(), false);
    let (page, _) = page.on(ready(run_of(&c), 3, ValidityStatus::Final));
    let b = intervals();
    let (page, c) = view(page, ViewEvent::Bootstrap(Arc::clone(&b)));
    let with_intervals = PanelResults {
        bootstrap: Some(Arc::clone(&b)),
        literature: None,
    };
    assert_eq!(c, vec![ViewCommand::ShowResults(with_intervals.clone())]);
    let literature: LiteratureComputed = Arc::new((vec![], vec!["one warning".into()]));
    let (page, c) = view(page, ViewEvent::Literature(Arc::clone(&literature)));
    let both = PanelResults {
        bootstrap: Some(Arc::clone(&b)),
        literature: Some(Arc::clone(&literature)),
    };
    assert_eq!(c, vec![ViewCommand::ShowResults(both.clone())]);
    // Another event keeps them; so does a new evaluation under way (the
    // report drawn is still the one they belong to).
    let (page, c) = view(page, ViewEvent::Average(AverageView::Micro));
    assert_eq!(c, vec![ViewCommand::ShowAverage(AverageView::Micro)]);
    let (page, c) = page.on(Event::Settings(SettingsEdit::Preset("exact".into())));
    assert!(!shows_results(&c));
    assert_eq!(page.view.results, both);
    // The new report drawn: they are forgotten, once.
    let (page, c) = page.on(ready(run_of(&c), 4, ValidityStatus::Final));
    assert!(forgets_results(&c));
    assert_eq!(page.view.results, PanelResults::default());
    let (_, c) = view(page, ViewEvent::Average(AverageView::MacroFields));
    assert_eq!(c, vec![ViewCommand::ShowAverage(AverageView::MacroFields)]);
}

#[test]
fn a_reports_details_joining_it_keep_its_panels_results() {
    let (page, c) = Page::opening(Map::new(), false);
    let generation = run_of(&c);
    let (_, events) = in_parts(generation, ValidityStatus::Final);
    let mut events = events.into_iter();
    let (mut page, _) = page.on(events.next().unwrap());
    let (p, _) = view(page, ViewEvent::Bootstrap(intervals()));
    page = p;
    let kept = page.view.results.clone();
    assert!(kept.bootstrap.is_some());
    for event in events {
        let (p, c) = page.on(event);
        page = p;
        assert!(!shows_results(&c));
    }
    assert!(has_details(&page));
    assert_eq!(page.view.results, kept);
    // A failure after it: nothing is drawn of that report any more.
    let (page, c) = page.on(Event::WorkerFailed {
        reason: "out of memory".into(),
    });
    assert!(forgets_results(&c));
    assert_eq!(page.view.results, PanelResults::default());
}
