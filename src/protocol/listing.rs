//! What the worker tells the page about the loaded files, beside each
//! file's summary: what a file is for ([`Role`], `data-role`'s names) and,
//! with several schemas, what the file list shows ([`SchemaOverview`]).
//! Wire types, shared by the worker's session (which decides them) and
//! the page (which shows them). Depends on `eval::groups` (`DocTypes`)
//! and serde; no web types, no evaluation.

use crate::eval::groups::DocTypes;
use serde::{Deserialize, Serialize};

/// What a loaded file is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    Truth,
    Predictions,
    Schema,
    Config,
}

impl Role {
    pub const ALL: [Role; 4] = [Role::Truth, Role::Predictions, Role::Schema, Role::Config];

    /// The name used in `data-role` and the role selector.
    pub fn name(self) -> &'static str {
        match self {
            Role::Truth => "truth",
            Role::Predictions => "predictions",
            Role::Schema => "schema",
            Role::Config => "config",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Role::Truth => "Ground truth",
            Role::Predictions => "Predictions",
            Role::Schema => "JSON Schema",
            Role::Config => "Metrics config",
        }
    }

    pub fn parse(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// What the file list shows when several schemas are loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SchemaOverview {
    /// The config's `schema_by`, if set.
    pub schema_by: Option<String>,
    /// Each parsed schema file (its id) with the number of documents that
    /// name it; `None` until `schema_by` is set (or when the truth cannot
    /// be read).
    pub served: Vec<(u32, Option<usize>)>,
    /// The documents that name no schema (evaluated without one) and the
    /// first five of their ids; `(0, [])` until `schema_by` is set.
    pub unserved: (usize, Vec<String>),
    /// What `schema_by` can be: `"id"`, then the truth's top-level fields
    /// with a string or number value, the `MAX_CHOICES` (`session::schemas`) in the most
    /// records (sorted by name), then the current `schema_by` if it is not
    /// among them.
    pub choices: Vec<String>,
    /// The document types the report's field matrix groups by
    /// (`eval::groups::DocTypes`, as the CLI's HTML report reads them);
    /// `None` until `schema_by` is set.
    pub types: Option<DocTypes>,
}
