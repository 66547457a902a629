//! `fieldscope synth`: the synthetic data of `crate::synth` written to a
//! directory (invoices, or several document types with `--types`).
//!
//! Owns: the files' names. Depends on `args`, `files` and `crate::synth`.

use super::args::SynthArgs;
use super::files::write_files;
use std::io::Write;

/// `fieldscope synth`: writes the generated files into `--out`.
pub(super) fn synth_command(args: &SynthArgs, stderr: &mut dyn Write) -> i32 {
    if let Some(types) = args.types {
        return write_files(&args.out, types_files(args, types), stderr);
    }
    let mut options = if args.paradox {
        crate::synth::SynthOptions::paradox(args.documents, args.seed)
    } else {
        crate::synth::SynthOptions {
            documents: args.documents,
            seed: args.seed,
            confidence: args.confidence,
            ..crate::synth::SynthOptions::default()
        }
    };
    options.vendor_country = args.vendor_country;
    let data = crate::synth::generate(&options);
    let mut files = vec![("truth.jsonl".to_string(), data.truth_jsonl)];
    files.extend(
        data.predictions
            .into_iter()
            .map(|(name, jsonl)| (format!("{name}.jsonl"), jsonl)),
    );
    files.push(("invoice.schema.json".into(), data.schema_json));
    write_files(&args.out, files, stderr)
}

/// `synth --types N`'s files: truth, one file per model, `schemas/*.json`.
pub(super) fn types_files(args: &SynthArgs, types: usize) -> Vec<(String, String)> {
    let data = crate::synth::types::generate(&crate::synth::types::TypesOptions {
        types,
        fields_per_type: args.fields_per_type,
        documents_per_type: args.documents_per_type,
        models: args.systems,
        seed: args.seed,
    });
    let mut files = vec![("truth.jsonl".to_string(), data.truth_jsonl)];
    files.extend(
        data.predictions
            .into_iter()
            .map(|(name, jsonl)| (format!("{name}.jsonl"), jsonl)),
    );
    files.extend(
        data.schemas
            .into_iter()
            .map(|(name, schema)| (format!("schemas/{name}.json"), schema)),
    );
    files
}
