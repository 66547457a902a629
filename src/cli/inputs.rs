//! The inputs of an evaluating command: the configuration (config file,
//! `--field-type`, `--schema-by`, `--slice-by`, `--preset`), the truth and
//! prediction files (held in memory, or a JSONL file streamed one record
//! at a time: [`Source`]), the schemas, the costs, and the usage errors of
//! those flags.
//!
//! Owns: turning [`InputArgs`] into a [`Config`] and an [`EvalInput`]; the
//! files are opened on the command's threads ([`open_all`]). Depends on
//! `args` and `files`, `crate::io` and `crate::eval`.

use super::args::InputArgs;
use super::files::{config_file, display_name, read_file, read_file_into};
use crate::error::{Error, ErrorKind};
use crate::eval::source::{RecordInfo, RecordSource};
use crate::eval::tree::{Forest, NodeId};
use crate::eval::{Config, DocFile, EvalInput, ModelInput, NamedSchema, Preset};
use crate::io::{format_of_name, parse_docs, parse_json_value, FileFormat, JsonlIndex};
use std::path::{Path, PathBuf};

/// `--stream auto` streams JSONL files of this many bytes or more: below
/// it, holding the file (about 1.8× its size) is cheap and the in-memory
/// passes are faster than reading the file again for each.
pub const STREAM_AUTO_BYTES: u64 = 256 << 20;

/// When `eval` streams a JSONL file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stream {
    Auto,
    Always,
    Never,
}

impl Stream {
    pub(super) fn parse(text: &str) -> Result<Stream, Error> {
        match text.trim() {
            "auto" => Ok(Stream::Auto),
            "always" => Ok(Stream::Always),
            "never" => Ok(Stream::Never),
            other => Err(Error::new(
                ErrorKind::Usage,
                format!("--stream {other:?}: expected auto, always or never"),
            )),
        }
    }
}

/// A file as `eval` reads it: held in memory, or an indexed JSONL file
/// read one record at a time.
#[derive(Debug)]
pub(super) enum Source {
    Memory(DocFile),
    Stream(JsonlIndex<std::fs::File>),
}

impl Source {
    /// Opens `path`: streamed when `when` says so and it is JSONL by its
    /// name, else read (into `buf`) and parsed whole.
    pub(super) fn open(path: &Path, when: Stream, buf: &mut Vec<u8>) -> Result<Source, Error> {
        let name = display_name(path);
        let jsonl = format_of_name(&name) == Some(FileFormat::Jsonl);
        let stream = jsonl
            && match when {
                Stream::Never => false,
                Stream::Always => true,
                Stream::Auto => std::fs::metadata(path).is_ok_and(|m| m.len() >= STREAM_AUTO_BYTES),
            };
        if stream {
            let file = std::fs::File::open(path).map_err(|e| {
                Error::new(ErrorKind::Io, format!("cannot read the file: {e}")).in_file(&*name)
            })?;
            Ok(Source::Stream(JsonlIndex::new(&name, file)?))
        } else {
            read_file_into(path, buf)?;
            Ok(Source::Memory(parse_docs(&name, buf)?))
        }
    }
}

impl RecordSource for Source {
    fn name(&self) -> &str {
        match self {
            Source::Memory(f) => f.name(),
            Source::Stream(f) => f.name(),
        }
    }

    fn len(&self) -> usize {
        match self {
            Source::Memory(f) => f.len(),
            Source::Stream(f) => f.len(),
        }
    }

    fn info(&self, i: usize) -> RecordInfo<'_> {
        match self {
            Source::Memory(f) => f.info(i),
            Source::Stream(f) => f.info(i),
        }
    }

    fn fetch(&mut self, i: usize) -> Result<NodeId, Error> {
        match self {
            Source::Memory(f) => f.fetch(i),
            Source::Stream(f) => f.fetch(i),
        }
    }

    fn forest(&self) -> &Forest {
        match self {
            Source::Memory(f) => f.forest(),
            Source::Stream(f) => f.forest(),
        }
    }

    fn forest_mut(&mut self) -> &mut Forest {
        match self {
            Source::Memory(f) => f.forest_mut(),
            Source::Stream(f) => f.forest_mut(),
        }
    }

    fn resident(&self) -> bool {
        match self {
            Source::Memory(f) => f.resident(),
            Source::Stream(f) => f.resident(),
        }
    }

    fn as_doc_file(&self) -> Option<&DocFile> {
        match self {
            Source::Memory(f) => Some(f),
            Source::Stream(_) => None,
        }
    }

    fn digest(&mut self) -> Result<u64, Error> {
        match self {
            Source::Memory(f) => f.digest(),
            Source::Stream(f) => f.digest(),
        }
    }

    fn shrink(&mut self) {
        match self {
            Source::Memory(f) => f.shrink(),
            Source::Stream(f) => f.shrink(),
        }
    }
}

/// `NAME=FILE`, or `FILE` named by its stem.
pub(super) fn split_pred(spec: &str) -> Result<(String, PathBuf), Error> {
    if let Some((name, path)) = spec.split_once('=') {
        if !Path::new(spec).exists() {
            let name = name.trim();
            if name.is_empty() {
                return Err(Error::new(
                    ErrorKind::Usage,
                    format!("--pred {spec:?}: the model name before `=` is empty"),
                ));
            }
            return Ok((name.to_string(), PathBuf::from(path)));
        }
    }
    let path = PathBuf::from(spec);
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| spec.to_string());
    Ok((stem, path))
}

/// Reads the files of `input` and builds the configuration (the config
/// file, then `--preset`), for `sweep`: every file in memory.
pub(super) fn load_inputs(args: &InputArgs) -> Result<(Config, EvalInput<DocFile>), Error> {
    load_inputs_with(args, |path, buf| {
        read_file_into(path, buf)?;
        parse_docs(&display_name(path), buf)
    })
}

/// [`load_inputs`] with `open` reading each records file (on the
/// command's threads, the errors then taken in the order truth, schema,
/// predictions, so that the first error is the same whatever `open` does;
/// a file read whole goes into the buffer `open` is lent, see
/// [`open_all`]).
pub(super) fn load_inputs_with<S: Send>(
    args: &InputArgs,
    open: impl Fn(&Path, &mut Vec<u8>) -> Result<S, Error> + Sync,
) -> Result<(Config, EvalInput<S>), Error> {
    let mut builder = config_file(args.config.as_deref())?;
    if !args.field_types.is_empty() {
        builder = builder.layer(&field_types_layer(&args.field_types)?)?;
    }
    if let Some(key) = &args.schema_by {
        if key.trim().is_empty() {
            return Err(Error::new(
                ErrorKind::Usage,
                "--schema-by: expected `id` or the name of a top-level truth field",
            ));
        }
        builder = builder.layer(&serde_json::json!({ "schema_by": key.trim() }))?;
    }
    if !args.slice_by.is_empty() {
        builder = builder.layer(&serde_json::json!({ "slice_by": slice_keys(&args.slice_by)? }))?;
    }
    if let Some(name) = &args.preset {
        builder = builder.preset(
            Preset::parse(name)
                .map_err(|e| Error::new(ErrorKind::Usage, format!("--preset: {}", e.message)))?,
        );
    }
    let config = builder.build()?;
    check_schemas(args, &config)?;

    let specs: Vec<Result<(String, PathBuf), Error>> =
        args.preds.iter().map(|spec| split_pred(spec)).collect();
    let paths: Vec<&Path> = std::iter::once(args.truth.as_path())
        .chain(specs.iter().flatten().map(|(_, path)| path.as_path()))
        .collect();
    let mut opened = open_all(&paths, &open).into_iter();
    let missing = || Error::new(ErrorKind::Io, "a file was not opened");
    let truth = opened.next().ok_or_else(missing)??;
    let mut schemas = Vec::with_capacity(args.schema.len());
    for path in &args.schema {
        let schema = parse_json_value(&display_name(path), &read_file(path)?)?;
        schemas.push(NamedSchema::new(file_stem(path), schema));
    }
    // One schema is the whole dataset's (SPEC §1.2); several, each
    // document's own (SPEC §7.2).
    let schema = match schemas.len() {
        1 => schemas.pop().map(|s| s.schema),
        _ => None,
    };
    let mut models = Vec::with_capacity(args.preds.len());
    for spec in specs {
        let (name, _) = spec?;
        let file = opened.next().ok_or_else(missing)??;
        models.push(ModelInput::new(name, file));
    }
    for spec in &args.costs {
        let Some((name, value)) = spec.split_once('=') else {
            return Err(Error::new(
                ErrorKind::Usage,
                format!("--cost {spec:?}: expected NAME=VALUE"),
            ));
        };
        let value: f64 = value
            .trim()
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::Usage,
                    format!("--cost {spec:?}: {value:?} is not a number"),
                )
            })?;
        let names: Vec<String> = models.iter().map(|m| m.name.clone()).collect();
        let Some(model) = models.iter_mut().find(|m| m.name == name.trim()) else {
            return Err(Error::new(
                ErrorKind::Usage,
                format!(
                    "--cost {spec:?}: no model is named {:?}; the models are: {}",
                    name.trim(),
                    names.join(", ")
                ),
            ));
        };
        model.cost = Some(value);
    }

    let input = EvalInput {
        truth,
        models,
        schema,
        schemas,
    };
    Ok((config, input))
}

/// A `--schema` file's name as a schema (SPEC §7.2): its file name
/// without the last extension (`x.schema.json` → `x.schema`).
pub(super) fn file_stem(path: &Path) -> String {
    let name = path
        .file_name()
        .map_or_else(|| display_name(path), |n| n.to_string_lossy().into_owned());
    crate::eval::schema_stem(&name)
}

/// SPEC §7.2's usage errors, before any file is read: several `--schema`
/// files without `--schema-by` (or the config's `schema_by`), and two
/// files with the same stem.
pub(super) fn check_schemas(args: &InputArgs, config: &Config) -> Result<(), Error> {
    if args.schema.len() > 1 && config.schema_by.is_none() {
        return Err(Error::new(
            ErrorKind::Usage,
            format!(
                "{} --schema files are given but not how a document picks its own: add --schema-by id (a document's id is its schema's file stem) or --schema-by FIELD (a top-level truth field whose value is the stem), or set schema_by in the config (SPEC §7.2)",
                args.schema.len()
            ),
        ));
    }
    let mut seen: Vec<(String, &Path)> = Vec::new();
    for path in &args.schema {
        let stem = file_stem(path);
        if let Some((_, first)) = seen.iter().find(|(s, _)| *s == stem) {
            return Err(Error::new(
                ErrorKind::Usage,
                format!(
                    "--schema {} and --schema {} have the same file stem {stem:?}: a schema is named by its file stem, so give each a distinct one",
                    display_name(first),
                    display_name(path)
                ),
            ));
        }
        seen.push((stem, path));
    }
    Ok(())
}

/// A schema error naming the `--schema` file it is about: the only one,
/// or among several the one the evaluation names by its stem.
pub(super) fn schema_error(args: &InputArgs, e: Error) -> Error {
    if e.kind != ErrorKind::Schema {
        return e;
    }
    match args.schema.as_slice() {
        [one] => e.in_file(display_name(one)),
        several => match several
            .iter()
            .find(|p| e.file.as_deref() == Some(file_stem(p).as_str()))
        {
            Some(path) => e.in_file(display_name(path)),
            None => e,
        },
    }
}

/// `--field-type PATH=TYPE …` as a config layer `{"field_types": {…}}`.
pub(super) fn field_types_layer(specs: &[String]) -> Result<serde_json::Value, Error> {
    let mut types = serde_json::Map::new();
    for spec in specs {
        let usage =
            |why: String| Error::new(ErrorKind::Usage, format!("--field-type {spec:?}: {why}"));
        let Some((path, ty)) = spec.rsplit_once('=') else {
            return Err(usage("expected PATH=TYPE".into()));
        };
        if crate::eval::config::FieldType::parse(ty.trim()).is_none() {
            return Err(usage(format!(
                "{:?} is not a type; the types are: number, integer, date, numeric_string, string, boolean",
                ty.trim()
            )));
        }
        types.insert(path.trim().to_string(), ty.trim().into());
    }
    Ok(serde_json::json!({ "field_types": types }))
}

/// `--slice-by KEY` (repeatable, each a comma-separated list): the keys,
/// trimmed, in the order given; an empty one is a usage error.
pub(super) fn slice_keys(flags: &[String]) -> Result<Vec<String>, Error> {
    flags
        .iter()
        .flat_map(|f| f.split(','))
        .map(|k| {
            let k = k.trim();
            if k.is_empty() {
                Err(Error::new(
                    ErrorKind::Usage,
                    "--slice-by: expected a top-level truth key or _items, _fields, _schema (a comma-separated list or the flag repeated)",
                ))
            } else {
                Ok(k.to_string())
            }
        })
        .collect()
}

/// `open` of every path, on the current pool's threads; the results in
/// the order of `paths`. Each call is lent a buffer for the file's bytes
/// from a pool as large as the threads reading at once, so that a thread
/// reading its next file reuses the memory the last one touched instead of
/// faulting in fresh pages (10,000 × 3 at one job: 7,700 fewer page
/// faults, peak memory 99 against 106 MB with confidences, 77 against 87
/// MB without); the pool goes when all are read.
pub(super) fn open_all<S: Send>(
    paths: &[&Path],
    open: &(impl Fn(&Path, &mut Vec<u8>) -> Result<S, Error> + Sync),
) -> Vec<Result<S, Error>> {
    use rayon::prelude::*;
    let pool = std::sync::Mutex::new(Vec::<Vec<u8>>::new());
    paths
        .par_iter()
        .map(|path| {
            let mut buf = pool
                .lock()
                .ok()
                .and_then(|mut p| p.pop())
                .unwrap_or_default();
            let opened = open(path, &mut buf);
            if let Ok(mut p) = pool.lock() {
                p.push(buf);
            }
            opened
        })
        .collect()
}
