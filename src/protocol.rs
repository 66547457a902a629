//! The browser app's one protocol between the page and its evaluation
//! worker (`src/bin/eval_worker.rs`): what the page asks ([`Request`]) and
//! what the worker answers ([`Answer`]), as serde enums shared by both
//! sides, sent as CBOR ([`encode`], [`decode`]: floats bit for bit, so every
//! number the page shows is the worker's).
//!
//! Every computation is a [`Request::Run`] tagged with a [`Generation`]
//! (the page's counter, one per [`Lane`]): a newer run in the same lane
//! makes the older one stop at its next check, and every answer names the
//! generation it is for, so the page drops stale ones. File bytes never
//! travel in these messages: they go beside them as transferred
//! `ArrayBuffer`s (or `File`s), in the order of [`Request::AddFiles`]'s
//! list.
//!
//! Pure: serde types and their encoding, no web types, no evaluation.

use crate::eval::bootstrap::BootstrapReport;
use crate::eval::gate::GateReport;
use crate::eval::report::{DocumentDetail, LiteratureReport};
use crate::eval::sweep::{SweepParam, SweepReport};
use crate::eval::Report;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

mod compact;
mod listing;

/// A request's number in its lane: the page counts them, and an answer
/// with an older number than the lane's newest is stale.
pub type Generation = u64;

/// The report run a worker started with `open` in its address makes
/// unasked, as soon as it is ready: the built-in example's report under
/// the empty settings layer, answered as if the page had asked for it
/// (`start-eval-worker.js` starts it so for a page whose link carries no
/// settings; the page then waits for this run instead of asking, and
/// numbers its own requests after it).
pub const OPENING_RUN: Generation = 1;

/// The request a worker started with `open` makes itself: the report of
/// [`OPENING_RUN`] under the empty settings layer (the example, as the
/// page opens on it). The build's `OPENING_FILE` answers this same
/// request.
pub fn opening_request() -> Request {
    Request::Run {
        generation: OPENING_RUN,
        task: Task::Report {
            settings: Map::new(),
        },
    }
}

/// The file, beside the page in the built app, that holds what the worker
/// answers first to [`OPENING_RUN`] (a CBOR `Vec<Answer>`: the example's
/// file list and its report without details), made by the same code
/// (`service::opening_answers`; kept in `assets/opening/`, which a test
/// holds equal to it and Trunk copies beside the page): the page draws the
/// example's report from it while its worker still starts.
pub const OPENING_FILE: &str = "opening.cbor";

/// The file, beside [`OPENING_FILE`], that holds the example's document
/// details as the worker sends them after that report (a CBOR
/// `Vec<Answer>` of [`Answer::Details`] parts): fetched once the page has
/// painted the report, so that the document browser's rows need not wait
/// for the worker's module to load and evaluate.
pub const OPENING_DETAILS_FILE: &str = "opening-details.cbor";

/// Where a run stands against others: a newer run stops the older runs of
/// its own lane only (a new report stops the report under way, not the
/// bootstrap the user asked for, which stops when the report changes
/// anyway because the page asks again).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lane {
    /// The report of the files and settings.
    Report,
    /// What a panel asks for (details, bootstrap, literature, sweep, gate).
    Panel,
}

pub use listing::{Role, SchemaOverview};

/// A file the page hands over: its bytes follow the message as a
/// transferred buffer. `role`, `model` and `cost` are set when the page
/// posts a file again (a restarted worker), so the user's choices stay;
/// `None` lets the worker detect the role and name the model after the
/// file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewFile {
    pub id: u32,
    pub name: String,
    pub role: Option<Role>,
    pub model: Option<String>,
    pub cost: Option<f64>,
}

/// What the page shows of a loaded file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileSummary {
    pub id: u32,
    pub name: String,
    pub role: Role,
    /// Size in bytes.
    pub bytes: u64,
    /// The records parsed (truth and predictions).
    pub records: Option<usize>,
    /// Not parsed yet.
    pub pending: bool,
    /// Why it did not parse (with file, line and column).
    pub error: Option<String>,
    pub model: String,
    pub cost: Option<f64>,
    /// A metrics config's JSON (the page's settings read the layers).
    pub config: Option<Value>,
}

impl FileSummary {
    /// The file as posted again to a restarted worker: with the role,
    /// model name and cost the user has now.
    pub fn again(&self) -> NewFile {
        NewFile {
            id: self.id,
            name: self.name.clone(),
            role: Some(self.role),
            model: Some(self.model.clone()),
            cost: self.cost,
        }
    }
}

/// A computation the page asks for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Task {
    /// The report of the files under these settings (the settings panel's
    /// layer), with every document's details up to
    /// `service::DETAILS_UP_TO` documents.
    Report { settings: Map<String, Value> },
    /// The bootstrap's intervals and tests (`fieldscope eval --bootstrap`'s
    /// defaults).
    Bootstrap,
    /// ANLS\*, nTED and Donut's F1 (`--metrics anls_star,nted,donut_f1`).
    Literature,
    /// The report with every document's details (answered as
    /// [`Answer::Report`]): the document browser of a large dataset.
    Details,
    /// A threshold sweep at `values`.
    Sweep { param: SweepParam, values: Vec<f64> },
    /// `fieldscope gate`'s checks, `candidate` against `baseline`.
    Gate { baseline: String, candidate: String },
    /// The report without the corrections of the truth, without details
    /// (answered as [`Answer::Report`]): the "Check the truth" panel's
    /// suspects and scores before, when the corrections came with the
    /// files (a bundle) or the files or settings changed under them.
    Uncorrected,
}

impl Task {
    /// The lane it runs in.
    pub fn lane(&self) -> Lane {
        match self {
            Task::Report { .. } => Lane::Report,
            _ => Lane::Panel,
        }
    }
}

/// What the page sends its evaluation worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Files to add, their bytes beside the message in this order (a
    /// bundle, or an HTML report with its inputs embedded, replaces
    /// everything). With `replace_example`, the built-in example's files
    /// go first.
    AddFiles {
        files: Vec<NewFile>,
        replace_example: bool,
    },
    SetRole {
        id: u32,
        role: Role,
    },
    RenameModel {
        id: u32,
        name: String,
    },
    SetCost {
        id: u32,
        cost: Option<f64>,
    },
    Remove {
        id: u32,
    },
    /// Every file removed.
    Clear,
    /// The built-in example, replacing every file.
    LoadExample,
    /// Run `task`; a newer run in its lane stops this one.
    Run {
        generation: Generation,
        task: Task,
    },
    /// Stop the run of this generation (a Cancel button).
    Cancel {
        generation: Generation,
    },
    /// The files and these settings (the page's) as a bundle
    /// (`Session::to_bundle`), answered with [`Answer::Bundle`];
    /// `for_html` checks the size limit of inputs embedded in an HTML
    /// report first.
    Bundle {
        for_html: bool,
        settings: Map<String, Value>,
    },
    /// The schema worker's answer to [`Answer::ValidityJob`] `version`
    /// (`session::validity_answer_to_json`'s text).
    Validity {
        version: u64,
        answer: String,
    },
    /// The corrections of the truth to apply before every evaluation from
    /// now on (SPEC §9.3's corrections file: a JSON list of `{"id",
    /// "field", "from", "to"}`; the "Check the truth" panel's decisions).
    /// A list that does not read is answered with [`Answer::Notice`].
    SetCorrections {
        corrections: Value,
    },
    /// The corrected truth in the input's shape, answered with
    /// [`Answer::CorrectedTruth`].
    CorrectedTruth,
    /// Make the worker panic: the browser test of a crash and a restart
    /// (the page sends it only when opened with `?worker-panic-test`).
    PanicTest,
}

/// What the page's [`ReportState`](crate::report_state::ReportState)
/// knows of the schema validity of a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ValidityStatus {
    /// Final: no schema, or the schema worker's answer is in.
    Final,
    /// The schema worker is still checking: the validity-dependent values
    /// are not shown; the worker sends the finished report when it
    /// answers.
    Pending,
    /// The schema worker failed; the reason.
    Failed(String),
}

/// What the evaluation worker answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Answer {
    /// The files as they are now, after every change.
    Files {
        files: Vec<FileSummary>,
        shows_example: bool,
        /// With several schemas (SPEC §7.2): what the file list shows.
        schemas: Option<Box<SchemaOverview>>,
        /// The settings of a bundle just opened (`None` otherwise).
        settings: Option<Map<String, Value>>,
    },
    /// A request that could not be done (an unreadable bundle, say).
    Notice { message: String },
    /// The schema worker should check these files (ids and roles) with
    /// this id field; its answer comes back as [`Request::Validity`].
    ValidityJob {
        version: u64,
        files: Vec<(u32, String, Role)>,
        id_field: Option<String>,
        schema_by: Option<String>,
    },
    /// The files a bundle (or an HTML report with its inputs) brought,
    /// their bytes beside the message in this order: the page keeps them,
    /// to post them again to a restarted worker.
    Opened { ids: Vec<u32> },
    /// The corrections of the truth a bundle (or an HTML report with its
    /// inputs) just opened brought (an empty list when none): the "Check
    /// the truth" panel's decisions from now on.
    Corrections { corrections: Value },
    /// The corrected truth asked for ([`Request::CorrectedTruth`]): its
    /// file name and text, or why there is none.
    CorrectedTruth {
        file: Result<(String, String), String>,
    },
    /// The bundle asked for, or why there is none.
    Bundle {
        for_html: bool,
        bundle: Result<String, String>,
    },
    /// How far run `generation` got (`done` of `total` units).
    Progress {
        generation: Generation,
        done: usize,
        total: usize,
    },
    /// A run stopped before its end (cancelled, or made stale).
    Stopped {
        generation: Generation,
        done: usize,
        total: usize,
    },
    /// Why run `generation` has no result.
    Failed {
        generation: Generation,
        reason: String,
    },
    /// A report (for [`Task::Report`]; again, finished, when the schema
    /// validity arrives while it is pending).
    Report {
        generation: Generation,
        report: Box<Report>,
        validity: ValidityStatus,
        /// How long the worker took, in milliseconds.
        evaluation_ms: f64,
        /// The report's document details were taken out and follow in
        /// [`Answer::Details`] parts ([`in_parts`]).
        details_follow: bool,
    },
    /// Some documents' details of the [`Answer::Report`] just sent for
    /// `generation` ([`in_parts`]): documents `from..` of each model, in
    /// the report's model order; `last` on the final part. A report's
    /// details go out after it, so that its tables are drawn without
    /// waiting for them (for 50 documents × 3 models they are 98 % of the
    /// bytes), and in parts of about [`DETAILS_PART_FIELDS`] compared
    /// values, so that the page reads no part for longer than a few tens
    /// of milliseconds (2,000 documents × 3 models in one message held it
    /// for half a second).
    Details {
        generation: Generation,
        from: usize,
        #[serde(with = "compact")]
        details: Vec<Option<Vec<DocumentDetail>>>,
        last: bool,
    },
    Bootstrap {
        generation: Generation,
        result: Box<BootstrapReport>,
    },
    /// Each model's literature metrics (in the report's order) and the
    /// warnings about documents too large to score.
    Literature {
        generation: Generation,
        models: Vec<(String, LiteratureReport)>,
        warnings: Vec<String>,
    },
    Sweep {
        generation: Generation,
        result: Box<SweepReport>,
    },
    Gate {
        generation: Generation,
        result: Box<GateReport>,
    },
}

impl Answer {
    /// A `Stopped` without a count (0 of 0): run `generation` stopped
    /// before it counted anything, or the page settles a cancelled run
    /// that the worker answered otherwise. A panel keeps the count it
    /// showed (`report_state::panel::Progress::answer`).
    pub fn stopped_uncounted(generation: Generation) -> Answer {
        Answer::Stopped {
            generation,
            done: 0,
            total: 0,
        }
    }

    /// The run it answers, if it answers one.
    pub fn generation(&self) -> Option<Generation> {
        match self {
            Answer::Progress { generation, .. }
            | Answer::Stopped { generation, .. }
            | Answer::Failed { generation, .. }
            | Answer::Report { generation, .. }
            | Answer::Details { generation, .. }
            | Answer::Bootstrap { generation, .. }
            | Answer::Literature { generation, .. }
            | Answer::Sweep { generation, .. }
            | Answer::Gate { generation, .. } => Some(*generation),
            Answer::Files { .. }
            | Answer::Notice { .. }
            | Answer::Bundle { .. }
            | Answer::Corrections { .. }
            | Answer::CorrectedTruth { .. }
            | Answer::Opened { .. }
            | Answer::ValidityJob { .. } => None,
        }
    }
}

/// Whether no model of `report` carries document details (a report
/// [`split_details`] took them from, or one computed without them).
pub fn lacks_details(report: &Report) -> bool {
    report.models.iter().all(|m| m.document_details.is_none())
}

/// Takes every model's document details out of `report`, in model
/// order; `None` when it has none.
pub fn split_details(report: &mut Report) -> Option<Vec<Option<Vec<DocumentDetail>>>> {
    if lacks_details(report) {
        return None;
    }
    Some(
        report
            .models
            .iter_mut()
            .map(|m| m.document_details.take())
            .collect(),
    )
}

/// Puts back what [`split_details`] took out of `report`.
pub fn join_details(report: &mut Report, details: Vec<Option<Vec<DocumentDetail>>>) {
    for (model, details) in report.models.iter_mut().zip(details) {
        model.document_details = details;
    }
}

/// About this many compared values (a document's details count one plus
/// its fields, per model) go in one [`Answer::Details`] part, each read by
/// the page in a task of its own. 10,000 took the page's release build
/// 20–40 ms on invoices, but up to about 80 ms on a wide benchmark's
/// longer values (issue 34), hence 4,000.
pub const DETAILS_PART_FIELDS: usize = 4_000;

/// `answer` as the worker posts it: a report with document details goes
/// out without them (`details_follow`), then its details in
/// [`Answer::Details`] parts of whole documents, each about
/// [`DETAILS_PART_FIELDS`] compared values (at least one document; one
/// empty part for a report of no documents); any other answer as it is.
pub fn in_parts(answer: Answer) -> Vec<Answer> {
    in_parts_of(answer, DETAILS_PART_FIELDS)
}

/// [`in_parts`] with parts of about `part_fields` compared values.
pub(crate) fn in_parts_of(answer: Answer, part_fields: usize) -> Vec<Answer> {
    let Answer::Report {
        generation,
        mut report,
        validity,
        evaluation_ms,
        details_follow,
    } = answer
    else {
        return vec![answer];
    };
    let Some(details) = split_details(&mut report) else {
        return vec![Answer::Report {
            generation,
            report,
            validity,
            evaluation_ms,
            details_follow,
        }];
    };
    let documents = documents_in(&details);
    let mut ends = Vec::new();
    let mut weight = 0;
    for d in 0..documents {
        weight += details
            .iter()
            .flatten()
            .filter_map(|model| model.get(d))
            .map(|detail| 1 + detail.fields.len())
            .sum::<usize>();
        if weight >= part_fields {
            ends.push(d + 1);
            weight = 0;
        }
    }
    if ends.last() != Some(&documents) {
        ends.push(documents);
    }
    let mut answers = vec![Answer::Report {
        generation,
        report,
        validity,
        evaluation_ms,
        details_follow: true,
    }];
    let mut models: Vec<_> = details
        .into_iter()
        .map(|model| model.map(Vec::into_iter))
        .collect();
    let mut from = 0;
    for (i, &end) in ends.iter().enumerate() {
        let details = models
            .iter_mut()
            .map(|model| model.as_mut().map(|m| m.take(end - from).collect()))
            .collect();
        answers.push(Answer::Details {
            generation,
            from,
            details,
            last: i + 1 == ends.len(),
        });
        from = end;
    }
    answers
}

/// How many documents `details` (per model) hold.
pub fn documents_in(details: &[Option<Vec<DocumentDetail>>]) -> usize {
    details.iter().flatten().map(Vec::len).max().unwrap_or(0)
}

/// Details parts ([`in_parts`]) put back together: each model's documents
/// of `part` after those of `so_far`.
pub fn append_details(
    so_far: &mut Vec<Option<Vec<DocumentDetail>>>,
    part: Vec<Option<Vec<DocumentDetail>>>,
) {
    if so_far.is_empty() {
        *so_far = part;
        return;
    }
    for (model, more) in so_far.iter_mut().zip(part) {
        if let (Some(model), Some(more)) = (model, more) {
            model.extend(more);
        }
    }
}

/// A message as bytes (CBOR).
pub fn encode<T: Serialize>(message: &T) -> Vec<u8> {
    let mut bytes = Vec::new();
    // Writing into a Vec fails only for types serde cannot represent,
    // which these enums are not; an empty message then reads as an error.
    let _ = ciborium::into_writer(message, &mut bytes);
    bytes
}

/// A message from [`encode`]'s bytes, or why it is not one.
pub fn decode<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Result<T, String> {
    ciborium::from_reader(bytes).map_err(|e| format!("an unreadable message: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;

    /// A report survives the trip bit for bit (floats included), so the
    /// page shows exactly the worker's numbers.
    #[test]
    fn a_report_round_trips_exactly() {
        let mut session = Session::example();
        session.compute_validity_now();
        let report = session.evaluate().unwrap();
        let answer = Answer::Report {
            generation: 7,
            report: Box::new(report),
            validity: ValidityStatus::Final,
            evaluation_ms: 0.1 + 0.2,
            details_follow: false,
        };
        let back: Answer = decode(&encode(&answer)).unwrap();
        assert_eq!(back.generation(), Some(7));
        assert_eq!(
            serde_json::to_string(&back).unwrap(),
            serde_json::to_string(&answer).unwrap()
        );
    }

    /// The details split off a report and joined back give the report.
    #[test]
    fn details_split_and_join_back() {
        let mut session = Session::example();
        let whole = session.evaluate_with(true).unwrap();
        let mut report = whole.clone();
        let details = split_details(&mut report).expect("details");
        assert_eq!(details.len(), 3);
        assert!(details.iter().all(|d| d.as_ref().map(Vec::len) == Some(50)));
        assert!(lacks_details(&report));
        assert_eq!(split_details(&mut report.clone()), None);
        join_details(&mut report, details);
        assert_eq!(report, whole);
    }

    /// A report's details go out after it in parts of whole documents,
    /// each closed by the document that brings it to the size; put back
    /// together they give the report.
    #[test]
    fn a_reports_details_go_in_parts_and_come_back_whole() {
        let whole = Session::example().evaluate_with(true).unwrap();
        let report = |details_follow| Answer::Report {
            generation: 4,
            report: Box::new(whole.clone()),
            validity: ValidityStatus::Pending,
            evaluation_ms: 2.5,
            details_follow,
        };
        // Each document's weight: one per model plus its compared values.
        let models: Vec<&Vec<DocumentDetail>> = whole
            .models
            .iter()
            .map(|m| m.document_details.as_ref().unwrap())
            .collect();
        let weight = |d: usize| models.iter().map(|m| 1 + m[d].fields.len()).sum::<usize>();
        let part_fields = weight(0) + weight(1) + weight(2);
        let mut answers = in_parts_of(report(false), part_fields).into_iter();
        let Some(Answer::Report {
            report: first,
            details_follow: true,
            generation: 4,
            evaluation_ms: 2.5,
            ..
        }) = answers.next()
        else {
            panic!("the report first, its details to follow");
        };
        assert!(lacks_details(&first));
        let mut joined = Vec::new();
        let mut next = 0;
        let parts: Vec<Answer> = answers.collect();
        for (i, part) in parts.iter().enumerate() {
            let Answer::Details {
                generation: 4,
                from,
                details,
                last,
            } = part.clone()
            else {
                panic!("details parts after the report");
            };
            assert_eq!(from, next);
            assert_eq!(last, i + 1 == parts.len());
            let n = details[0].as_ref().unwrap().len();
            assert!(details.iter().all(|d| d.as_ref().unwrap().len() == n));
            let sum: usize = (from..from + n).map(weight).sum();
            if !last {
                // Big enough, and not without its last document.
                assert!(sum >= part_fields);
                assert!(sum - weight(from + n - 1) < part_fields);
            }
            next = from + n;
            append_details(&mut joined, details);
        }
        // The first part is the first three documents exactly.
        assert!(matches!(&parts[0], Answer::Details { details, .. }
            if details[0].as_ref().unwrap().len() == 3));
        assert_eq!(next, 50);
        let mut back = *first;
        join_details(&mut back, joined);
        assert_eq!(back, whole);
        // The default size: the example's 50 documents (3 models, about
        // 7,000 compared values) go in two parts after the report.
        let total: usize = (0..50).map(weight).sum();
        assert!(
            total > DETAILS_PART_FIELDS && total < 2 * DETAILS_PART_FIELDS,
            "{total}"
        );
        assert_eq!(in_parts(report(false)).len(), 3);
    }

    /// A report without details, a report of no documents and any other
    /// answer.
    #[test]
    fn in_parts_leaves_other_answers_alone() {
        let mut bare = Session::example().evaluate_with(false).unwrap();
        assert!(lacks_details(&bare));
        let plain = Answer::Report {
            generation: 1,
            report: Box::new(bare.clone()),
            validity: ValidityStatus::Final,
            evaluation_ms: 1.0,
            details_follow: false,
        };
        assert_eq!(in_parts(plain.clone()), vec![plain]);
        let progress = Answer::Progress {
            generation: 1,
            done: 1,
            total: 2,
        };
        assert_eq!(in_parts(progress.clone()), vec![progress]);
        for model in &mut bare.models {
            model.document_details = Some(Vec::new());
        }
        let empty = in_parts(Answer::Report {
            generation: 2,
            report: Box::new(bare),
            validity: ValidityStatus::Final,
            evaluation_ms: 1.0,
            details_follow: false,
        });
        assert_eq!(empty.len(), 2);
        assert_eq!(
            empty[1],
            Answer::Details {
                generation: 2,
                from: 0,
                details: vec![Some(Vec::new()); 3],
                last: true,
            }
        );
    }

    /// A details part crosses as tuples, not maps: back bit for bit, in
    /// far fewer bytes than the report's own (named) form.
    #[test]
    fn details_cross_compactly_and_come_back_exactly() {
        let mut report = Session::example().evaluate_with(true).unwrap();
        let details = split_details(&mut report).unwrap();
        let part = Answer::Details {
            generation: 3,
            from: 0,
            details: details.clone(),
            last: true,
        };
        let bytes = encode(&part);
        let back: Answer = decode(&bytes).unwrap();
        assert_eq!(back, part);
        assert_eq!(
            serde_json::to_string(&back).unwrap(),
            serde_json::to_string(&part).unwrap()
        );
        // The example's 150 documents' details: 231,408 bytes against
        // 830,416 with their field names (336,027 with each compared
        // field's name in every value instead of once per part).
        let named = encode(&details).len();
        assert!(bytes.len() * 3 < named, "{} against {named}", bytes.len());
    }

    #[test]
    fn requests_round_trip() {
        let mut settings = Map::new();
        settings.insert("preset".into(), Value::from("lenient"));
        for request in [
            Request::AddFiles {
                files: vec![NewFile {
                    id: 3,
                    name: "a.jsonl".into(),
                    role: Some(Role::Predictions),
                    model: Some("m".into()),
                    cost: Some(0.25),
                }],
                replace_example: true,
            },
            Request::Run {
                generation: 2,
                task: Task::Report { settings },
            },
            Request::Run {
                generation: 3,
                task: Task::Sweep {
                    param: SweepParam::Similarity,
                    values: vec![0.5, 0.75],
                },
            },
            Request::Cancel { generation: 3 },
        ] {
            assert_eq!(decode::<Request>(&encode(&request)), Ok(request));
        }
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(decode::<Request>(b"\xff\x00garbage").is_err());
        assert!(decode::<Answer>(&[]).is_err());
    }
}
