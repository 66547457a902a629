//! The command-line tool: arguments, files and exit codes only.
//!
//! Owns: parsing `fieldscope eval`, `sweep`, `figures`, `synth`, `gate`
//! (in `cli/gate.rs`; exit 1 when a check fails), `learn` and `merge`
//! (with `clap`; the last two and `--jobs` in `shards`), reading and
//! writing the files, calling [`crate::io`], [`crate::eval`],
//! [`crate::export`] and [`crate::pipeline`] (what `eval`, `sweep`,
//! `figures` and `merge` compute and print, shared with the Python
//! package), and turning errors into a message and exit status 2. Native
//! only (never compiled to wasm).
//!
//! `eval` reads a large JSONL file (or any, with `--stream always`) one
//! record at a time ([`crate::io::JsonlIndex`] over the open file) instead
//! of holding it: the report is the same either way.
//!
//! This file holds the subcommands ([`run`]); each has its module (`eval`,
//! `sweep`, `figures`, `synth`, `gate`, `correct`, and `learn` and `merge`
//! in `shards`), on the arguments of `args`, the inputs of `inputs` and
//! the helpers of `files`.

use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;

mod args;
mod correct;
mod eval;
mod figures;
mod files;
mod gate;
mod inputs;
mod shards;
mod sweep;
mod synth;

use args::{EvalArgs, FiguresArgs, SweepArgs, SynthArgs};
use eval::eval_command;
use figures::figures_command;
pub use files::{EXIT_BAD_INPUT, EXIT_OK};
pub use inputs::STREAM_AUTO_BYTES;
use sweep::sweep_command;
use synth::synth_command;

#[derive(Debug, Parser)]
#[command(
    name = "fieldscope",
    version,
    about = "Evaluate structured-data extraction: precision, recall, F1, accuracy, CER and line items, as SPEC.md defines them.",
    after_help = "Exit status: 0 on success, 1 when a check of fieldscope gate failed, 2 on bad input or usage (the message says which file, line and column)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Compare a ground-truth file with one prediction file per model and print the report.
    #[command(
        after_help = "Example:\n  fieldscope eval --truth truth.jsonl --pred gpt=gpt.jsonl --pred claude=claude.jsonl \\\n      --schema invoice.schema.json --preset invoice-cer --format markdown"
    )]
    Eval(EvalArgs),
    /// Write a synthetic dataset (invoices with nested vendors, 0–30 line items, code lists, NOT_FOUND-heavy fields; the models `good`, `conservative` and `aggressive`; a JSON Schema) to try the tool or measure it.
    #[command(
        after_help = "Writes DIR/truth.jsonl, DIR/good.jsonl, DIR/conservative.jsonl, DIR/aggressive.jsonl and DIR/invoice.schema.json. The same seed gives the same files.\n\nPlanted faults: conservative and aggressive write some records as raw model text (2 % and 15 %), a tenth of which is a refusal or a truncated answer that does not parse, so `eval` warns about them on purpose; good's raw text always parses.\n\nExample:\n  fieldscope synth --documents 10000 --out bench-data\n  fieldscope eval --truth bench-data/truth.jsonl --pred good=bench-data/good.jsonl --schema bench-data/invoice.schema.json"
    )]
    Synth(SynthArgs),
    /// Evaluate again at every value of one threshold (string similarity, CER or item F1) and print F1 and accuracy per model at each: how much a ranking depends on the threshold.
    #[command(
        after_help = "Each point is a full evaluation with that one configuration key changed: similarity sets partial_matching.string.exact_threshold (and string_match.method = similarity), cer sets string_match.cer_threshold (and method = cer), item sets item_f1_threshold.\n\nExample:\n  fieldscope sweep --truth truth.jsonl --pred gpt=gpt.jsonl --param cer --format markdown"
    )]
    Sweep(SweepArgs),
    /// Write every chart of the report, and the threshold-sweep line charts, as SVG and PDF at a paper's sizes, with their captions in captions.md.
    #[command(
        after_help = "Writes DIR/ID.svg and DIR/ID.pdf for each chart (metric_bars, outcome_distribution, field_f1_heatmap, pred_vs_truth, cer_distribution, item_metrics when there are line items, reliability_diagram_N for the N-th model and risk_coverage when models have confidences, sweep_similarity_*, sweep_cer_*, sweep_item_* when there are line items) and DIR/captions.md. Text is 8.5 pt at the chosen width; PDFs embed Liberation Sans (TrueType, subsetted; never Type 3).\n\nExample:\n  fieldscope figures --truth truth.jsonl --pred gpt=gpt.jsonl --pred claude=claude.jsonl --out figures --size column"
    )]
    Figures(FiguresArgs),
    /// Check thresholds and regressions against a baseline for CI: a Markdown summary on standard output, exit 0 (every check passed), 1 (a check failed) or 2 (bad input or usage).
    #[command(
        after_help = "Example:\n  fieldscope gate --truth truth.jsonl --pred main=main.jsonl --pred pr=pr.jsonl \\\n      --baseline main --require 'pr:micro.f1 >= 0.8' --json gate.json --junit gate.xml\n\nNo regression: paired bootstrap over documents (the resamples of eval --bootstrap), one-sided (candidate worse), Holm-adjusted over each candidate's checks; a check fails when the adjusted p <= --alpha and the drop > --min-drop. See docs/gate.md."
    )]
    Gate(gate::GateArgs),
    /// Learn the fields of every document (ids, kinds, warnings, costs) once, for `eval --partial --learned FILE` runs over shards of them.
    #[command(
        after_help = "Example (two shards; docs/partial-results.md):\n  fieldscope learn --truth truth.jsonl --pred gpt=gpt.jsonl --out learned.cbor\n  fieldscope eval --truth part1.jsonl --pred gpt=gpt1.jsonl --learned learned.cbor --partial p1.cbor\n  fieldscope eval --truth part2.jsonl --pred gpt=gpt2.jsonl --learned learned.cbor --partial p2.cbor\n  fieldscope merge p1.cbor p2.cbor --format markdown"
    )]
    Learn(shards::LearnArgs),
    /// Merge partial results (eval --partial) into the report one `eval` over all their documents writes, byte for byte.
    Merge(shards::MergeArgs),
    /// Write the ground truth with corrections applied (SPEC §9.3), in the input's own shape: JSON array, id map, JSONL or CSV, untouched records byte for byte.
    #[command(
        after_help = "Example:\n  fieldscope correct --truth truth.jsonl --corrections corrections.json --out truth.corrected.jsonl\n\nThe corrections file is a JSON list of {\"id\", \"field\", \"from\", \"to\"}; see docs/truth-audit.md. `eval --corrections FILE` evaluates the same corrected truth."
    )]
    Correct(correct::CorrectArgs),
}

/// Runs the tool with `args` (including the program name), writing the
/// report to `stdout` (or `--out`) and messages to `stderr`. Returns the
/// exit status.
pub fn run(
    args: impl IntoIterator<Item = OsString>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                EXIT_BAD_INPUT
            } else {
                EXIT_OK
            };
            let text = e.render().to_string();
            let _ = if e.use_stderr() {
                write!(stderr, "{text}")
            } else {
                write!(stdout, "{text}")
            };
            return code;
        }
    };
    let jobs = match &cli.command {
        Command::Synth(args) => return synth_command(args, stderr),
        Command::Gate(args) => args.input.jobs,
        Command::Eval(args) => args.input.jobs,
        Command::Sweep(args) => args.input.jobs,
        Command::Figures(args) => args.input.jobs,
        Command::Learn(args) => args.input.jobs,
        Command::Merge(_) => Some(1),
        Command::Correct(args) => {
            return match correct::correct_command(args) {
                Ok(warnings) => {
                    for w in warnings {
                        let _ = writeln!(stderr, "warning: {w}");
                    }
                    EXIT_OK
                }
                Err(e) => {
                    let _ = writeln!(stderr, "error: {e}");
                    EXIT_BAD_INPUT
                }
            }
        }
    };
    let pool = match shards::pool(jobs) {
        Ok(pool) => pool,
        Err(e) => {
            let _ = writeln!(stderr, "error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    // The command runs on the pool (its messages kept until it ends).
    let mut messages = Vec::new();
    if let Command::Gate(args) = &cli.command {
        let mut out = Vec::new();
        let code = pool.install(|| gate::gate_command(args, &mut out, &mut messages));
        let _ = stdout.write_all(&out);
        let _ = stderr.write_all(&messages);
        return code;
    }
    let (result, out) = pool.install(|| match cli.command {
        Command::Eval(args) => (eval_command(&args, &mut messages), args.out),
        Command::Sweep(args) => (sweep_command(&args, &mut messages), args.out),
        Command::Figures(args) => (figures_command(&args, &mut messages), None),
        Command::Learn(args) => (shards::learn_command(&args), None),
        Command::Merge(args) => (shards::merge_command(&args, &mut messages), args.out),
        Command::Synth(_) | Command::Gate(_) | Command::Correct(_) => (Ok(String::new()), None),
    });
    let _ = stderr.write_all(&messages);
    match result {
        Ok(text) => match &out {
            Some(path) => match std::fs::write(path, text) {
                Ok(()) => EXIT_OK,
                Err(e) => {
                    let _ = writeln!(stderr, "error: cannot write {}: {e}", path.display());
                    EXIT_BAD_INPUT
                }
            },
            None => match stdout.write_all(text.as_bytes()) {
                Ok(()) => EXIT_OK,
                Err(e) => {
                    let _ = writeln!(stderr, "error: cannot write the report: {e}");
                    EXIT_BAD_INPUT
                }
            },
        },
        Err(e) => {
            let _ = writeln!(stderr, "error: {e}");
            EXIT_BAD_INPUT
        }
    }
}
