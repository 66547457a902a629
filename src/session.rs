//! The app's session: what the user loaded and set, as plain Rust
//! (tested natively). The worker owns it; the page holds only its
//! settings ([`Settings`], `settings`).
//!
//! Owns: [`Session`] (defined in `store`; this file only declares and
//! re-exports, so the children import from siblings) — the file store
//! ([`files`]: roles, parsing) and the
//! settings layer (SPEC §4: the highest-precedence config layer, written
//! through [`Layered`]) — and the built-in example. Its jobs live in child modules: the evaluation
//! (`evaluating`), schema validity apart from it (`validity`, run in the
//! schema worker), the caches between evaluations (`caches`) and the
//! bundle and URL-fragment codecs (`codecs`) and the corrections of the
//! truth applied before evaluating (`corrections`, SPEC §9.3). A file that fails keeps its
//! error beside it and every other file stays loaded and evaluated.
//! Depends on `io`, `eval`, `synth`; knows no web types.

use crate::error::{Error, ErrorKind};
use crate::eval::evaluate::{prepare_paced, Prepared, STORED_LIMIT_BYTES};
use crate::eval::literature;
use crate::eval::pace::{run_now, NoPause, Pace};
use crate::eval::{
    schema_stem, schema_validity_by, Config, ConfigBuilder, DocFile, EvalInput, ModelInput,
    NamedSchema, Report, SchemaValidity,
};
use crate::io::{parse_docs, parse_docs_paced, parse_json_value};
use serde_json::{Map, Value};
use std::sync::Arc;

mod field_types;
mod schemas;
mod settings;
pub use field_types::{declared_type, declared_types};
pub use schemas::SchemaOverview;
pub use settings::{layered_config, Layered, Settings, SettingsEdit};
mod caches;
mod codecs;
mod corrections;
mod evaluating;
mod files;
mod store;
mod validity;
pub use caches::Kept;
use caches::{PreparedKey, ValidityKey};
pub use codecs::{settings_from_fragment, settings_to_fragment, GivenFile, BUNDLE_KEY};
pub use corrections::{corrections_json, CORRECTIONS_FILE};
pub use evaluating::Evaluation;
use files::parse_as;
pub use files::{file_stem, LoadedFile, ParseJob, Parsed, ParsedFile, Role};
pub use store::{Session, EXAMPLE_CONFIG};
use validity::one_or_several;
pub use validity::{
    compute_validity, validity_answer_from_json, validity_answer_to_json, JobFile, ValidityJob,
};

#[cfg(test)]
mod tests;
