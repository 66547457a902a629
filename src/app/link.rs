//! What the page holds beside the report state ([`Link`]): the
//! evaluation worker, the user's files as web objects, and the callbacks
//! waiting for answers (a panel's [`PanelSink`], a bundle's
//! [`BundleSink`]).
//!
//! Owns: the holder's shape; `evaluation` fills and reads it. Depends on
//! `browser` (the worker) and the protocol only.

use super::browser::EvalWorker;
use crate::protocol::{Answer, Generation};
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// What a panel does with the answers to its run.
pub type PanelSink = Rc<dyn Fn(Answer)>;

/// What to do with a bundle the worker made (or why it made none).
pub type BundleSink = Box<dyn FnOnce(Result<String, String>)>;

/// What the page holds beside the [`Page`]: web objects, callbacks.
#[derive(Default)]
pub struct Link {
    pub(super) worker: Option<EvalWorker>,
    /// The user's files, by id: the dropped `File`s, and the bytes of the
    /// files a bundle brought (`Uint8Array`s, as the worker sent them):
    /// posted to the worker, and again to a restarted one.
    pub(super) files: Vec<(u32, JsValue)>,
    /// The files of the last drop, in order (for "Parsing … (2 of 5)").
    pub(super) dropped: Vec<u32>,
    /// The sink of the panel run asked for next, and those of the runs
    /// under way.
    pub(super) next_panel: Option<PanelSink>,
    pub(super) panels: Vec<(Generation, PanelSink)>,
    /// What to do with the bundle asked for.
    pub(super) bundle: Option<BundleSink>,
    /// The bytes beside the newest schema job (its version), until the
    /// job is handed to the schema worker or replaced: the queue itself is
    /// the page state's (`report_state::schema_queue`).
    pub(super) job_buffers: Option<(u64, Vec<JsValue>)>,
    /// The report with its details, joined while the report drawn without
    /// them is not yet painted: shown after that paint
    /// (`evaluation::show_details_after_paint`).
    pub(super) details_waiting: Option<std::sync::Arc<crate::eval::report::Report>>,
}
