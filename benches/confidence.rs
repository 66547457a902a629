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
//! `--jobs 1` and `--jobs 2`, in alternating runs (`FIELDSCOPE_BENCH_RUNS`
//! pairs, default 5).
//!
//! On a shared machine the same run's wall time can vary by more than the
//! 10 % measured, so beside the ratio of the medians it prints the ratio of
//! each run with confidences to the run without them that follows it (the
//! median of those paired ratios and the bounds that hold their true
//! median with 95 % confidence each way, [`median_bounds`]) and of the
//! fastest runs. The verdict is "met" when the upper bound is at most
//! 10 %, "NOT met" when the lower bound is above, and otherwise says the
//! noise decides. At 15 pairs the bounds are the quartiles (the middle
//! half, the rule before 2026-12-06); more pairs bring them closer to the
//! median, which the quartiles of a noisy machine never are.
//! With `FIELDSCOPE_BENCH_INSTRUCTIONS=1` and valgrind installed, it also
//! counts the instructions of one run of each at `--jobs 1` (callgrind), a
//! figure the machine's load does not change.

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
        let paired = median_and_bounds(
            times[0]
                .iter()
                .zip(&times[1])
                .map(|(w, wo)| percent_over(*w, *wo))
                .collect(),
        );
        let fastest = percent_over(minimum(&times[0]), minimum(&times[1]));
        let (bounds, verdict) = match median_bounds(runs) {
            Some(_) => ("95 % bounds on it", verdict(paired)),
            None => (
                "range",
                "too few pairs for 95 % bounds on the median (5 at least)",
            ),
        };
        let [with, without] = times.map(|t| quartiles(t)[1]);
        let overhead = percent_over(with, without);
        println!(
            "--jobs {jobs}: with {with:.3} s, without {without:.3} s (medians of {runs}): {overhead:+.1} %; \
             paired runs: median {:+.1} %, {bounds} {:+.1} … {:+.1} %; fastest runs {fastest:+.1} % — {}",
            paired[1],
            paired[0],
            paired[2],
            verdict
        );
    }
    if std::env::var("FIELDSCOPE_BENCH_INSTRUCTIONS").is_ok_and(|v| v == "1") {
        let [with, without] =
            ["with", "without"].map(|name| instructions(&binary, &dir.join(name)));
        match (with, without) {
            (Some(with), Some(without)) => println!(
                "instructions (callgrind, --jobs 1): with {with}, without {without}: {:+.2} %",
                percent_over(with as f64, without as f64)
            ),
            _ => println!("instructions: skipped (valgrind did not run)"),
        }
    }
    if std::env::var("FIELDSCOPE_BENCH_KEEP").is_ok_and(|v| v == "1") {
        println!("files kept in {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// One `eval` of the files in `dir` at `jobs`: its wall time in seconds.
fn run(binary: &Path, dir: &Path, jobs: &str) -> f64 {
    let mut command = eval_command(Command::new(binary), dir, jobs);
    let started = Instant::now();
    let status = command.status().expect("run fieldscope");
    assert!(
        status.success(),
        "fieldscope eval failed in {}",
        dir.display()
    );
    started.elapsed().as_secs_f64()
}

/// The instructions one `eval` of the files in `dir` executes at one job,
/// counted by valgrind's callgrind; `None` when valgrind cannot run.
fn instructions(binary: &Path, dir: &Path) -> Option<u64> {
    let out = dir.join("callgrind.out");
    let mut valgrind = Command::new("valgrind");
    valgrind
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(binary)
        .stderr(std::process::Stdio::null());
    let status = eval_command(valgrind, dir, "1").status().ok()?;
    if !status.success() {
        return None;
    }
    // The profile's "totals:" line (older valgrinds: "summary:").
    let text = std::fs::read_to_string(&out).ok()?;
    text.lines()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|n| n.trim().parse().ok())
}

/// `command` (fieldscope, or a program that runs it) with the arguments of
/// an `eval` of the files in `dir` at `jobs`.
fn eval_command(mut command: Command, dir: &Path, jobs: &str) -> Command {
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
    command
}

/// How much `a` is over `b`, in percent.
fn percent_over(a: f64, b: f64) -> f64 {
    (a / b - 1.0) * 100.0
}

fn minimum(xs: &[f64]) -> f64 {
    xs.iter().copied().fold(f64::INFINITY, f64::min)
}

/// The lower quartile, the median and the upper quartile of `xs` (not
/// empty), each an element of it: the ones at ⌊n/4⌋, ⌊n/2⌋ and
/// ⌊3n/4⌋ once sorted.
fn quartiles(mut xs: Vec<f64>) -> [f64; 3] {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    [xs[n / 4], xs[n / 2], xs[(3 * n / 4).min(n - 1)]]
}

/// The median of `xs` (not empty) between the order statistics that
/// bound the true median with 95 % confidence each way
/// ([`median_bounds`]): [lower bound, median, upper bound]; with fewer
/// than 5 pairs, which cannot, the smallest and the largest (and the
/// verdict says so).
fn median_and_bounds(mut xs: Vec<f64>) -> [f64; 3] {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    let (low, high) = median_bounds(n).unwrap_or((0, n - 1));
    [xs[low], xs[n / 2], xs[high]]
}

/// For n paired ratios sorted, the 0-based indices (l, u) of the order
/// statistics below and above which their true median lies with at least
/// 95 % confidence each way, whatever their distribution: with B the
/// count of ratios under the median, B ~ Binomial(n, ½), and the median
/// is at most the ratio at index u exactly when B ≤ u, so u is the
/// smallest index with P(B ≤ u) ≥ 0.95, and l = n − 1 − u by symmetry.
/// n = 15 gives (3, 11), the quartiles ⌊n/4⌋ and ⌊3n/4⌋; n = 5 the
/// extremes (0, 4); n = 40, (14, 25). None under 5 pairs (even the
/// largest bounds the median with only 1 − 2^−n < 95 %).
fn median_bounds(n: usize) -> Option<(usize, usize)> {
    let mut term = 0.5f64.powi(n as i32); // P(B = 0)
    let mut below = 0.0;
    for u in 0..n {
        below += term;
        if below >= 0.95 {
            return Some((n - 1 - u, u));
        }
        term *= (n - u) as f64 / (u + 1) as f64;
    }
    None
}

/// The target read off the bounds on the paired ratios' median (percent).
fn verdict([low, _, high]: [f64; 3]) -> &'static str {
    if high <= 10.0 {
        "met"
    } else if low > 10.0 {
        "NOT met"
    } else {
        "undecided: the machine's noise spans the target (more runs narrow the bounds; or the instructions)"
    }
}
