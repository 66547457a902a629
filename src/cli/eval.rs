//! `fieldscope eval`: the report of one evaluation in a format, with the
//! literature's metrics, the bootstrap, `--compare`, corrections,
//! embedded inputs (the app's bundle of the same files) and the document
//! types of several schemas; `--partial` hands over to `shards`.
//!
//! Owns: the `eval` flags' checks and what it includes in the report.
//! Depends on `args`, `files`, `inputs`, `correct`, `shards`,
//! `crate::pipeline` and `crate::session` (the bundle format).

use super::args::{EvalArgs, InputArgs};
use super::files::{display_name, print_notes, read_file};
use super::inputs::{load_inputs_with, schema_error, slice_keys, split_pred, Source, Stream};
use super::{correct, shards};
use crate::error::{Error, ErrorKind};
use crate::eval::literature;
use crate::eval::{Config, ModelInput, NamedSchema, Preset};
use crate::export::{Format, HtmlInclude};
use crate::io::parse_docs;
use crate::pipeline::{evaluate_report, render_report_including, ReportOptions};
use std::io::Write;

pub(super) fn eval_command(args: &EvalArgs, stderr: &mut dyn Write) -> Result<String, Error> {
    let format: Format = args.format.parse()?;

    let metrics = match &args.metrics {
        Some(list) => literature::Metrics::parse(list)?,
        None => literature::Metrics::default(),
    };
    let mut stream = Stream::parse(&args.stream)?;
    // The literature metrics read each file whole, as their reference
    // implementations do: with --metrics nothing is streamed.
    if metrics.any() {
        if stream == Stream::Always {
            return Err(Error::new(
                ErrorKind::Usage,
                "--metrics reads every file whole: it cannot be combined with --stream always",
            ));
        }
        stream = Stream::Never;
    }
    if args.embed_inputs && format != Format::Html {
        return Err(Error::new(
            ErrorKind::Usage,
            "--embed-inputs puts the inputs into the HTML report: use it with --format html",
        ));
    }
    if args.embed_inputs {
        check_embedded_size(&args.input)?;
    }
    let corrections = args
        .corrections
        .as_deref()
        .map(correct::read_corrections)
        .transpose()?;
    if corrections.is_some() && args.partial.is_some() {
        return Err(Error::new(
            ErrorKind::Usage,
            "--corrections cannot be combined with --partial: write the corrected truth with `fieldscope correct` and give it as --truth",
        ));
    }
    let (mut config, mut input) =
        load_inputs_with(&args.input, |path, buf| Source::open(path, stream, buf))?;
    if let Some(url) = &args.app_url {
        config.app_url = Some(
            crate::eval::config::check_app_url(url)
                .map_err(|e| Error::new(ErrorKind::Usage, format!("--app-url: {}", e.message)))?,
        );
    }
    let mut corrected = Vec::new();
    if let Some(corrections) = &corrections {
        let (truth, warnings) = correct::corrected_truth(&args.input.truth, corrections, &config)?;
        input.truth = Source::Memory(truth);
        corrected = warnings;
    }
    if let Some(path) = &args.partial {
        return shards::partial_command(args, path, &config, input);
    }
    let include = HtmlInclude {
        charts: true,
        inputs: (args.embed_inputs)
            .then(|| {
                embedded_bundle(
                    &args.input,
                    &input.models,
                    args.corrections
                        .as_deref()
                        .zip(corrections.as_ref())
                        .map(|(path, (_, list))| (file_name(path), list.as_slice())),
                )
            })
            .transpose()?,
        types: match format {
            Format::Html | Format::Markdown => doc_types(&args.input, &config, &input.schemas),
            _ => None,
        },
    };
    shards::check_bootstrap(args.bootstrap, args.alpha)?;
    let compare = match &args.compare {
        Some(pair) => match pair.split_once(',') {
            Some((b, c)) if !b.trim().is_empty() && !c.trim().is_empty() => {
                Some((b.trim().to_string(), c.trim().to_string()))
            }
            _ => {
                return Err(Error::new(
                    ErrorKind::Usage,
                    format!("--compare {pair:?}: expected BASELINE,CANDIDATE (two model names)"),
                ))
            }
        },
        None => None,
    };
    let options = ReportOptions {
        details: args.details,
        metrics,
        bootstrap: args.bootstrap,
        seed: args.seed,
        alpha: args.alpha,
        compare,
    };
    let mut report =
        evaluate_report(input, &config, &options).map_err(|e| schema_error(&args.input, e))?;
    report.warnings.splice(0..0, corrected);
    print_notes(&report, stderr);
    Ok(render_report_including(&report, format, &include))
}

/// With several schemas (SPEC §7.2), the document types the HTML and
/// Markdown reports group by (`eval::groups::DocTypes`): each schema with
/// the truth documents that pick it (the truth file read once more, as the
/// evaluation reads it). `None` otherwise, and when the truth cannot be
/// read: the evaluation then says why, as it always did.
pub(super) fn doc_types(
    args: &InputArgs,
    config: &Config,
    schemas: &[NamedSchema],
) -> Option<crate::eval::groups::DocTypes> {
    let by = config.schema_by.as_deref()?;
    if schemas.len() < 2 {
        return None;
    }
    let truth = parse_docs(&display_name(&args.truth), &read_file(&args.truth).ok()?).ok()?;
    let chosen =
        crate::eval::documents_by_schema(truth, config.id_field.as_deref(), schemas, by).ok()?;
    let choices: Vec<Option<usize>> = chosen.into_iter().map(|(_, c)| c).collect();
    Some(crate::eval::groups::DocTypes::of(schemas, &choices))
}

/// `--embed-inputs` refuses inputs over 50 MB together, before reading any.
pub(super) fn check_embedded_size(args: &InputArgs) -> Result<(), Error> {
    let mut paths = vec![args.truth.clone()];
    for spec in &args.preds {
        paths.push(split_pred(spec)?.1);
    }
    paths.extend(args.schema.iter().chain(&args.config).cloned());
    let total = paths
        .iter()
        .map(|path| std::fs::metadata(path).map_or(0, |m| m.len()))
        .sum();
    crate::export::embed::check_size(total).map_err(|e| {
        Error::new(
            ErrorKind::Usage,
            format!("--embed-inputs: {e}; leave the flag out and share the input files instead"),
        )
    })
}

/// A file's name without its folder, as a bundle names its files.
fn file_name(path: &std::path::Path) -> String {
    path.file_name()
        .map_or_else(|| display_name(path), |n| n.to_string_lossy().into_owned())
}

/// `--embed-inputs`: the bundle the browser app writes for the same files,
/// model names, costs and settings (`Session::to_bundle`; the config file
/// as a file, `--preset` as the settings; each file under its own name,
/// without its folder; the truth as given, with `--corrections` as the
/// bundle's corrections, which the app applies as this report did).
pub(super) fn embedded_bundle<S>(
    args: &InputArgs,
    models: &[ModelInput<S>],
    corrections: Option<(String, &[crate::eval::corrections::Correction])>,
) -> Result<String, Error> {
    use crate::session::{Role, Session};
    let mut files = vec![(args.truth.clone(), Role::Truth, None, None)];
    for (spec, model) in args.preds.iter().zip(models) {
        let path = split_pred(spec)?.1;
        files.push((
            path,
            Role::Predictions,
            Some(model.name.clone()),
            model.cost,
        ));
    }
    files.extend(
        args.schema
            .iter()
            .map(|p| (p.clone(), Role::Schema, None, None)),
    );
    files.extend(
        args.config
            .iter()
            .map(|p| (p.clone(), Role::Config, None, None)),
    );
    let mut read = Vec::with_capacity(files.len());
    for (path, role, model, cost) in files {
        read.push((file_name(&path), read_file(&path)?, role, model, cost));
    }
    let mut settings = serde_json::Map::new();
    if let Some(name) = &args.preset {
        let preset = Preset::parse(name).map_err(|e| Error::new(ErrorKind::Usage, e.message))?;
        settings.insert("preset".into(), preset.name().into());
    }
    if let Some(key) = &args.schema_by {
        settings.insert("schema_by".into(), key.trim().into());
    }
    if !args.slice_by.is_empty() {
        settings.insert("slice_by".into(), slice_keys(&args.slice_by)?.into());
    }
    let mut session = Session::of_files(read, settings);
    if let Some((file, list)) = corrections {
        session
            .set_corrections_from(Some(&file), &crate::session::corrections_json(list))
            .map_err(|e| Error::new(ErrorKind::Input, e))?;
    }
    Ok(session.to_bundle())
}
