//! What confidences cost (issue 29): the same evaluation with and without
//! them, against the target "at most 10 % over the same run without
//! confidences, at 1 and 2 jobs".
//!
//! Not a timed test: a program that prints figures. Run it with
//!
//! ```text
//! cargo build --release --bin fieldscope
//! cargo bench --bench confidence                              # 10,000 documents
//! FIELDSCOPE_BENCH_DOCS=1000 cargo bench --bench confidence   # a quick run
//! ```
//!
//! Generates `FIELDSCOPE_BENCH_DOCS` invoices (default 10,000) and three
//! models with `fieldscope::synth` twice — once with confidences on every
//! value and line item of every record (no raw-text records, every model
//! calibrated or overconfident), once the very same values without them —
//! then times `target/release/fieldscope eval --schema …` on each, at
//! `--jobs 1` and `--jobs 2`, in alternating runs (medians of
//! `FIELDSCOPE_BENCH_RUNS`, default 5).

use fieldscope::synth::{generate, ConfidenceStyle, ModelProfile, SynthOptions};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

mod common;

const TARGET: &str =
    "confidences cost at most 10 % over the same run without them, at 1 and 2 jobs";

fn main() {
    let documents = common::env_count("FIELDSCOPE_BENCH_DOCS", 10_000);
    let runs = common::env_count("FIELDSCOPE_BENCH_RUNS", 5);
    let binary = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/release/fieldscope");
    println!("fieldscope confidence benchmark");
    println!("target: {TARGET}");
    if !binary.exists() {
        println!("skipped: build target/release/fieldscope first (cargo build --release --bin fieldscope)");
        return;
    }
    let dir = std::env::temp_dir().join(format!(
        "fieldscope-confidence-bench-{}",
        std::process::id()
    ));
    let profiles: Vec<ModelProfile> = [
        (ModelProfile::good(), ConfidenceStyle::Calibrated),
        (ModelProfile::conservative(), ConfidenceStyle::Calibrated),
        (ModelProfile::aggressive(), ConfidenceStyle::Overconfident),
    ]
    .into_iter()
    .map(|(p, confidence)| ModelProfile {
        raw_output_rate: 0.0,
        confidence,
        ..p
    })
    .collect();
    let mut sizes = Vec::new();
    for (name, confidence) in [("with", true), ("without", false)] {
        let data = generate(&SynthOptions {
            documents,
            seed: 2024,
            models: profiles.clone(),
            paradox: false,
            confidence,
            vendor_country: false,
        });
        let sub = dir.join(name);
        std::fs::create_dir_all(&sub).expect("create the benchmark directory");
        let mut bytes = data.truth_jsonl.len() + data.schema_json.len();
        std::fs::write(sub.join("truth.jsonl"), &data.truth_jsonl).expect("write");
        std::fs::write(sub.join("schema.json"), &data.schema_json).expect("write");
        for (model, jsonl) in &data.predictions {
            bytes += jsonl.len();
            std::fs::write(sub.join(format!("{model}.jsonl")), jsonl).expect("write");
        }
        sizes.push(bytes);
    }
    println!(
        "data: {documents} documents × 3 models; {:.1} MB with confidences, {:.1} MB without",
        sizes[0] as f64 / 1e6,
        sizes[1] as f64 / 1e6
    );
    for jobs in ["1", "2"] {
        let mut times = [Vec::new(), Vec::new()];
        for _ in 0..runs {
            for (k, name) in ["with", "without"].into_iter().enumerate() {
                times[k].push(run(&binary, &dir.join(name), jobs));
            }
        }
        let [with, without] = times.map(median);
        let overhead = (with / without - 1.0) * 100.0;
        println!(
            "--jobs {jobs}: with {with:.3} s, without {without:.3} s (medians of {runs}): {overhead:+.1} % — {}",
            if overhead <= 10.0 { "met" } else { "NOT met" }
        );
    }
    if std::env::var("FIELDSCOPE_BENCH_KEEP").is_ok_and(|v| v == "1") {
        println!("files kept in {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// One `eval` of the files in `dir` at `jobs`: its wall time in seconds.
fn run(binary: &Path, dir: &Path, jobs: &str) -> f64 {
    let mut command = Command::new(binary);
    command
        .arg("eval")
        .arg("--truth")
        .arg(dir.join("truth.jsonl"));
    for model in ["good", "conservative", "aggressive"] {
        command.arg("--pred").arg(format!(
            "{model}={}",
            dir.join(format!("{model}.jsonl")).display()
        ));
    }
    command
        .arg("--schema")
        .arg(dir.join("schema.json"))
        .args(["--jobs", jobs, "--out"])
        .arg(dir.join("report.json"));
    let started = Instant::now();
    let status = command.status().expect("run fieldscope");
    assert!(
        status.success(),
        "fieldscope eval failed in {}",
        dir.display()
    );
    started.elapsed().as_secs_f64()
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}
