//! What the page shows beside the report that the panels change, as a
//! pure state ([`View`]): the notice line, the status line while a drop's
//! files are read, which average the tables and charts show, where the
//! document browser is sent, and the panels' results that belong to the
//! report drawn (bootstrap intervals, literature scores).
//!
//! Owns: [`ViewEvent`] (what a panel says happened) and [`View::on`],
//! which answers with the page's [`Command`]s; the rule that a panel's
//! results are forgotten when another report is drawn
//! ([`View::report_drawn`]). `Page::on` moves it (`Event::View`); panels
//! never write these signals themselves. Depends on `eval` (the results'
//! types) and the sibling `failures` (`Browse`); no web types.

use super::failures::Browse;
use crate::eval::bootstrap::BootstrapReport;
use crate::eval::report::LiteratureReport;
use std::sync::Arc;

/// Which average the model table and the bar chart show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AverageView {
    #[default]
    MacroDocuments,
    Micro,
    MacroFields,
}

impl AverageView {
    pub const ALL: [AverageView; 3] = [
        AverageView::MacroDocuments,
        AverageView::Micro,
        AverageView::MacroFields,
    ];

    pub fn key(self) -> &'static str {
        match self {
            AverageView::MacroDocuments => "macro_documents",
            AverageView::Micro => "micro",
            AverageView::MacroFields => "macro_fields",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            AverageView::MacroDocuments => "Macro over documents",
            AverageView::Micro => "Micro",
            AverageView::MacroFields => "Macro over fields",
        }
    }
}

/// The literature metrics computed for a report (per model, by name),
/// and the warnings about documents too large to score.
pub type LiteratureComputed = Arc<(Vec<(String, LiteratureReport)>, Vec<String>)>;

/// What the panels computed for the report drawn.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PanelResults {
    /// 95 % intervals and paired tests (the uncertainty panel).
    pub bootstrap: Option<Arc<BootstrapReport>>,
    /// The literature metrics (the literature panel).
    pub literature: Option<LiteratureComputed>,
}

/// Where a panel sends the document browser.
#[derive(Debug, Clone, PartialEq)]
pub enum Navigate {
    /// Open this document (by id), the filters cleared (the compare
    /// panel's document links).
    OpenDocument(String),
    /// Show these documents ("Where it fails": a segment's or a slice's).
    Browse(Browse),
}

/// What a panel says happened.
#[derive(Debug, Clone, PartialEq)]
pub enum ViewEvent {
    /// Something to tell the user in the notice line (an export that
    /// failed, a chart that could not be copied, a file refused…).
    Notice(String),
    /// A drop's files are being read: `files` of `bytes` in all (none:
    /// nothing to read); `refused` says why the others are not (an empty
    /// list clears the notice line).
    Reading {
        files: usize,
        bytes: usize,
        refused: Vec<String>,
    },
    /// The average the tables and charts show.
    Average(AverageView),
    /// Send the document browser somewhere.
    Navigate(Navigate),
    /// The uncertainty panel's result came in.
    Bootstrap(Arc<BootstrapReport>),
    /// The literature panel's result came in.
    Literature(LiteratureComputed),
}

/// What the view asks the page to draw (`Page::on` passes each on as
/// the page's `Command::View`).
#[derive(Debug, Clone, PartialEq)]
pub enum ViewCommand {
    /// Say this in the notice line.
    Notice(String),
    /// Empty the notice line.
    ClearNotice,
    /// Say this in the status line (`None`: nothing is under way).
    Busy(Option<String>),
    /// Show this average in the tables and charts.
    ShowAverage(AverageView),
    /// Send the document browser there.
    Navigate(Navigate),
    /// The panels' results for the report drawn (none: forgotten).
    ShowResults(PanelResults),
}

/// The view's state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct View {
    pub average: AverageView,
    pub results: PanelResults,
    /// The report drawn, by identity (its address; 0 for none): a report
    /// the page draws is alive until the next is, so two reports drawn
    /// one after the other never share one.
    drawn: usize,
}

impl View {
    /// Moves the view by `event`; the commands say what to draw.
    pub fn on(&mut self, event: ViewEvent, commands: &mut Vec<ViewCommand>) {
        match event {
            ViewEvent::Notice(message) => commands.push(ViewCommand::Notice(message)),
            ViewEvent::Reading {
                files,
                bytes,
                refused,
            } => {
                commands.push(if refused.is_empty() {
                    ViewCommand::ClearNotice
                } else {
                    ViewCommand::Notice(refused.join(" "))
                });
                if files > 0 {
                    commands.push(ViewCommand::Busy(Some(format!(
                        "Reading {files} file{} ({})…",
                        if files == 1 { "" } else { "s" },
                        human_size(bytes)
                    ))));
                }
            }
            ViewEvent::Average(average) => {
                if average != self.average {
                    self.average = average;
                    commands.push(ViewCommand::ShowAverage(average));
                }
            }
            ViewEvent::Navigate(to) => commands.push(ViewCommand::Navigate(to)),
            ViewEvent::Bootstrap(result) => {
                self.results.bootstrap = Some(result);
                commands.push(ViewCommand::ShowResults(self.results.clone()));
            }
            ViewEvent::Literature(result) => {
                self.results.literature = Some(result);
                commands.push(ViewCommand::ShowResults(self.results.clone()));
            }
        }
    }

    /// The page draws `report` (by its address, 0 for none): another
    /// report than the one drawn forgets the panels' results, which
    /// belong to the report they were computed for — unless it is the
    /// drawn report with its document details `joined` (the same report).
    pub fn report_drawn(&mut self, report: usize, joined: bool, commands: &mut Vec<ViewCommand>) {
        if report == self.drawn {
            return;
        }
        self.drawn = report;
        if joined {
            return;
        }
        if self.results != PanelResults::default() {
            self.results = PanelResults::default();
            commands.push(ViewCommand::ShowResults(PanelResults::default()));
        }
    }
}

/// A size for the status line: "3.2 MB", "15 kB", "800 B".
pub fn human_size(bytes: usize) -> String {
    let b = bytes as f64;
    if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.0} kB", b / 1e3)
    } else {
        format!("{bytes} B")
    }
}
