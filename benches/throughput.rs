//! Throughput and memory of an evaluation, measured against the targets
//! "10,000 documents × 3 models in under 1 s single-threaded; peak memory
//! under 3× the input size".
//!
//! Not a timed test: a program that prints figures. Run it with
//!
//! ```text
//! cargo bench --bench throughput                              # 10,000 documents
//! FIELDSCOPE_BENCH_DOCS=500 cargo bench --bench throughput    # a quick run
//! ```
//!
//! 1. Generates `FIELDSCOPE_BENCH_DOCS` invoices (default 10,000) and the
//!    predictions of three models (`good`, `conservative`, `aggressive`)
//!    with `fieldscope::synth` into `$TMPDIR/fieldscope-bench-<pid>/`.
//! 2. Core alone: reads, parses and evaluates them in-process with the crate
//!    API. This phase runs in a child process (this same program, started
//!    with `FIELDSCOPE_BENCH_CORE=<dir>`), so that its peak memory (`VmHWM`
//!    of `/proc/self/status`) is not inflated by the generator's.
//! 3. Whole CLI run: `target/release/fieldscope eval …` under
//!    `/usr/bin/time`, when that binary exists.
//! 4. `--jobs 1` against `--jobs 2` (issue 16; target: ≥ 1.7× faster at 2
//!    jobs, peak memory ≤ 1.2×; five alternating runs each, medians), at
//!    this size and at ten times it
//!    (`FIELDSCOPE_BENCH_LARGE=0` skips the larger one).
//! 5. Partial results on the larger data: `fieldscope learn`, ten
//!    `eval --partial` shards of a tenth each, `fieldscope merge` of the ten
//!    (time, peak memory, the partials' bytes per document), and a check
//!    that the merged report equals the single run's.
//!
//! The directory is removed at the end unless `FIELDSCOPE_BENCH_KEEP=1`.

use fieldscope::eval::{evaluate_owned, Config, DocFile, EvalInput, ModelInput};
use fieldscope::io::parse_docs;
use fieldscope::synth::{generate, SynthOptions};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

mod common;

const TARGET: &str =
    "10,000 documents × 3 models in under 1 s single-threaded; peak memory under 3× the input size";
const MODELS: [&str; 3] = ["good", "conservative", "aggressive"];
const MB: f64 = 1e6;

fn main() {
    if let Ok(dir) = std::env::var("FIELDSCOPE_BENCH_CORE") {
        core(Path::new(&dir));
        return;
    }
    let documents = common::env_count("FIELDSCOPE_BENCH_DOCS", 10_000);

    println!("fieldscope throughput benchmark");
    println!("target: {TARGET}");
    println!();

    // 1. Data.
    let dir = std::env::temp_dir().join(format!("fieldscope-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create the benchmark directory");
    let started = Instant::now();
    let data = generate(&SynthOptions {
        documents,
        seed: 2024,
        ..SynthOptions::default()
    });
    let mut input_bytes = 0;
    let mut write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).expect("write a benchmark file");
        input_bytes += text.len();
    };
    write("truth.jsonl", &data.truth_jsonl);
    write("schema.json", &data.schema_json);
    for (name, jsonl) in &data.predictions {
        write(&format!("{name}.jsonl"), jsonl);
    }
    drop(data);
    println!(
        "input: {documents} documents × {} models, {:.1} MB in {} (generated in {:.2} s)",
        MODELS.len(),
        input_bytes as f64 / MB,
        dir.display(),
        started.elapsed().as_secs_f64()
    );
    println!();

    // 2. Core alone, in a child process.
    let status = Command::new(std::env::current_exe().expect("the benchmark's own path"))
        .env("FIELDSCOPE_BENCH_CORE", &dir)
        .status()
        .expect("start the core measurement");
    assert!(status.success(), "the core measurement failed: {status}");
    println!();

    // 3. Whole CLI run.
    cli(&dir, documents, input_bytes);
    println!();

    // 4, 5. Threads and partial results.
    if let Some(binary) = release_binary() {
        jobs(&binary, &dir, documents);
        if std::env::var("FIELDSCOPE_BENCH_LARGE").as_deref() != Ok("0") {
            let large = dir.join("large");
            write_data(&large, documents * 10);
            jobs(&binary, &large, documents * 10);
            shards(&binary, &large, documents * 10);
        }
    }
    println!();
    println!("target: {TARGET}");

    if std::env::var("FIELDSCOPE_BENCH_KEEP").as_deref() == Ok("1") {
        println!("files kept in {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Reads, parses and evaluates the files in `dir`, and prints the figures.
fn core(dir: &Path) {
    let hwm_start = vm_hwm_kb();
    let mut input_bytes = 0;
    let mut read_secs = 0.0;
    let mut parse_secs = 0.0;
    let mut load = |name: &str| -> Vec<u8> {
        let started = Instant::now();
        let bytes = std::fs::read(dir.join(name)).expect("read a benchmark file");
        read_secs += started.elapsed().as_secs_f64();
        input_bytes += bytes.len();
        bytes
    };
    let mut parse = |name: &str, bytes: Vec<u8>| -> DocFile {
        let started = Instant::now();
        let file = parse_docs(name, &bytes).unwrap_or_else(|e| panic!("{e}"));
        parse_secs += started.elapsed().as_secs_f64();
        file
    };

    let bytes = load("truth.jsonl");
    let truth = parse("truth.jsonl", bytes);
    let schema_bytes = load("schema.json");
    let schema: Value = serde_json::from_slice(&schema_bytes).expect("the schema parses");
    let mut models = Vec::new();
    for model in MODELS {
        let name = format!("{model}.jsonl");
        let bytes = load(&name);
        models.push(ModelInput::new(model, parse(&name, bytes)));
    }
    let documents = truth.records.len();
    let input = EvalInput {
        truth,
        models,
        schema: Some(schema),
        schemas: Vec::new(),
    };

    let hwm_parsed = vm_hwm_kb();

    let started = Instant::now();
    // One thread, as the target says (the default pool has every core).
    let report = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool")
        .install(|| evaluate_owned(input, &Config::default(), false))
        .expect("the evaluation runs");
    let eval_secs = started.elapsed().as_secs_f64();
    let hwm_end = vm_hwm_kb();

    let core_secs = parse_secs + eval_secs;
    let mb = input_bytes as f64 / MB;
    println!("core alone (in-process, single thread: parse + evaluate)");
    println!("  read files      {read_secs:8.3} s   (not counted)");
    println!("  parse JSONL     {parse_secs:8.3} s");
    println!("  evaluate        {eval_secs:8.3} s");
    println!(
        "  parse+evaluate  {core_secs:8.3} s   target < 1 s for 10,000 documents{}",
        verdict(core_secs * 10_000.0 / documents.max(1) as f64 <= 1.0)
    );
    println!(
        "  throughput      {:8.0} documents/s (each against {} models), {:.1} MB/s",
        documents as f64 / core_secs,
        report.models.len(),
        mb / core_secs
    );
    match (hwm_start, hwm_parsed, hwm_end) {
        (Some(start), Some(parsed), Some(end)) => {
            let increase = end.saturating_sub(start) as f64 * 1024.0 / MB;
            println!(
                "  peak memory     {:8.1} MB VmHWM ({:.1} MB at start; increase {:.1} MB = {:.2}× the {:.1} MB input, target < 3×{})",
                end as f64 * 1024.0 / MB,
                start as f64 * 1024.0 / MB,
                increase,
                increase / mb,
                mb,
                verdict(increase / mb < 3.0)
            );
            println!(
                "                  of which {:.1} MB holding the parsed records ({:.2}× the input), {:.1} MB more while evaluating",
                parsed.saturating_sub(start) as f64 * 1024.0 / MB,
                parsed.saturating_sub(start) as f64 * 1024.0 / MB / mb,
                end.saturating_sub(parsed) as f64 * 1024.0 / MB,
            );
        }
        _ => println!("  peak memory     unknown (no VmHWM in /proc/self/status)"),
    }
    let m: Vec<String> = report
        .models
        .iter()
        .map(|m| format!("{} f1 {:.3}", m.name, m.micro.f1))
        .collect();
    println!(
        "  (sanity: {} documents; {})",
        report.documents,
        m.join(", ")
    );
}

/// Runs the release binary on the files, when it exists.
fn cli(dir: &Path, documents: usize, input_bytes: usize) {
    println!("whole CLI run (target/release/fieldscope eval, one process)");
    let Some(binary) = release_binary() else {
        println!(
            "  skipped: target/release/fieldscope not found; build it with `cargo build --release`"
        );
        return;
    };
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        println!("  skipped: /usr/bin/time not found (Debian: `apt-get install time`)");
        return;
    }
    let times = dir.join("time.txt");
    // A real report file, not /dev/null, so that a binary which does
    // nothing cannot pass for a fast one.
    let out = dir.join("report.json");
    let mut command = Command::new(time);
    command
        .arg("-o")
        .arg(&times)
        .args(["-f", "%e %M"])
        .arg(&binary)
        .arg("eval")
        .arg("--truth")
        .arg(dir.join("truth.jsonl"));
    for model in MODELS {
        command.arg("--pred").arg(format!(
            "{model}={}",
            dir.join(format!("{model}.jsonl")).display()
        ));
    }
    command
        .arg("--schema")
        .arg(dir.join("schema.json"))
        .args(["--format", "json", "--out"])
        .arg(&out);
    println!("  {}", shown(&command));
    let output = command.output().expect("run /usr/bin/time");
    let report_ok =
        std::fs::read_to_string(&out).is_ok_and(|r| r.contains("\"fieldscope_report\""));
    if !output.status.success() || !report_ok {
        println!(
            "  no report from the CLI (status {}): is `fieldscope eval` implemented in this build? Rebuild with `cargo build --release`.",
            output.status
        );
        for line in String::from_utf8_lossy(&output.stderr).lines().take(10) {
            println!("  | {line}");
        }
        return;
    }
    let figures = std::fs::read_to_string(&times).unwrap_or_default();
    let mut fields = figures.split_whitespace();
    let (Some(Ok(secs)), Some(Ok(max_kb))) = (
        fields.next().map(str::parse::<f64>),
        fields.next().map(str::parse::<u64>),
    ) else {
        println!("  could not read /usr/bin/time's figures: {figures:?}");
        return;
    };
    let mb = input_bytes as f64 / MB;
    let rss = max_kb as f64 * 1024.0 / MB;
    println!(
        "  wall time       {secs:8.2} s   target < 1 s for 10,000 documents{}",
        verdict(secs * 10_000.0 / documents.max(1) as f64 <= 1.0)
    );
    println!(
        "  throughput      {:8.0} documents/s, {:.1} MB/s",
        documents as f64 / secs.max(0.01),
        mb / secs.max(0.01)
    );
    println!(
        "  peak RSS        {rss:8.1} MB = {:.2}× the {mb:.1} MB input, target < 3×{}",
        rss / mb,
        verdict(rss / mb < 3.0)
    );
}

/// `target/release/fieldscope` beside this benchmark's own binary
/// (`target/release/deps/throughput-…`), else under the package.
fn release_binary() -> Option<PathBuf> {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("fieldscope")));
    let in_package = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/fieldscope");
    beside.into_iter().chain([in_package]).find(|p| p.is_file())
}

/// The process's peak resident set size so far, in kB.
fn vm_hwm_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn verdict(met: bool) -> &'static str {
    if met {
        "  [met]"
    } else {
        "  [NOT met]"
    }
}

fn shown(command: &Command) -> String {
    let mut s = command.get_program().to_string_lossy().into_owned();
    for arg in command.get_args() {
        s.push(' ');
        s.push_str(&arg.to_string_lossy());
    }
    s
}

/// Writes `documents` invoices and their predictions into `dir`.
fn write_data(dir: &Path, documents: usize) {
    std::fs::create_dir_all(dir).expect("create the benchmark directory");
    let data = generate(&SynthOptions {
        documents,
        seed: 2024,
        ..SynthOptions::default()
    });
    std::fs::write(dir.join("truth.jsonl"), &data.truth_jsonl).expect("write");
    std::fs::write(dir.join("schema.json"), &data.schema_json).expect("write");
    for (name, jsonl) in &data.predictions {
        std::fs::write(dir.join(format!("{name}.jsonl")), jsonl).expect("write");
    }
}

/// `fieldscope ARGS` under `/usr/bin/time`: (seconds, peak RSS in MB),
/// or `None` (and a message) when it fails.
fn timed(binary: &Path, args: &[String]) -> Option<(f64, f64)> {
    let times = std::env::temp_dir().join(format!("fieldscope-bench-time-{}", std::process::id()));
    let output = Command::new("/usr/bin/time")
        .arg("-o")
        .arg(&times)
        .args(["-f", "%e %M"])
        .arg(binary)
        .args(args)
        .output()
        .ok()?;
    if !output.status.success() {
        println!(
            "  fieldscope {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr)
        );
        return None;
    }
    let figures = std::fs::read_to_string(&times).ok()?;
    let mut fields = figures.split_whitespace();
    let secs: f64 = fields.next()?.parse().ok()?;
    let kb: f64 = fields.next()?.parse().ok()?;
    Some((secs, kb * 1024.0 / MB))
}

/// `--truth DIR/TRUTH --pred M=DIR/M…`, the schema.
fn eval_args(dir: &Path, truth: &str, suffix: &str) -> Vec<String> {
    let mut args = vec!["--truth".to_string(), dir.join(truth).display().to_string()];
    for model in MODELS {
        args.push("--pred".into());
        args.push(format!(
            "{model}={}",
            dir.join(format!("{model}{suffix}.jsonl")).display()
        ));
    }
    args.push("--schema".into());
    args.push(dir.join("schema.json").display().to_string());
    args
}

/// 4. `eval --jobs 1` against `--jobs 2` on the files in `dir`.
fn jobs(binary: &Path, dir: &Path, documents: usize) {
    // Alternating runs, medians: one run each is at the mercy of whatever
    // else the machine does for that second.
    const RUNS: usize = 5;
    println!(
        "--jobs 1 against --jobs 2 ({documents} documents × {} models, whole CLI run, {RUNS} alternating runs each, medians)",
        MODELS.len()
    );
    let mut times = [Vec::new(), Vec::new()];
    let mut peaks = [0.0f64, 0.0f64];
    let mut reports = Vec::new();
    for run in 0..RUNS {
        for (k, jobs) in ["1", "2"].into_iter().enumerate() {
            let out = dir.join(format!("report-{jobs}.json"));
            let mut args = vec!["eval".to_string()];
            args.extend(eval_args(dir, "truth.jsonl", ""));
            args.extend(["--jobs", jobs, "--out"].map(String::from));
            args.push(out.display().to_string());
            let Some((secs, rss)) = timed(binary, &args) else {
                return;
            };
            times[k].push(secs);
            peaks[k] = peaks[k].max(rss);
            if run == 0 {
                reports.push(std::fs::read(&out).unwrap_or_default());
            }
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for (k, jobs) in ["1", "2"].into_iter().enumerate() {
        let runs: Vec<String> = times[k].iter().map(|t| format!("{t:.2}")).collect();
        let secs = median(&mut times[k]);
        println!(
            "  --jobs {jobs}   {secs:7.2} s   {:8.0} documents/s   peak RSS {:7.1} MB   (runs: {} s)",
            documents as f64 / secs.max(0.01),
            peaks[k],
            runs.join(", ")
        );
    }
    let speedup = times[0][RUNS / 2] / times[1][RUNS / 2].max(0.01);
    let memory = peaks[1] / peaks[0];
    println!(
        "  speed-up {speedup:.2}× (target ≥ 1.7×{}), memory {memory:.2}× (target ≤ 1.2×{}); reports identical: {}",
        verdict(speedup >= 1.7),
        verdict(memory <= 1.2),
        reports[0] == reports[1] && !reports[0].is_empty()
    );
}

/// 5. Ten shards of the files in `dir`: learn, ten partials, merge.
fn shards(binary: &Path, dir: &Path, documents: usize) {
    const SHARDS: usize = 10;
    println!(
        "partial results: learn, {SHARDS} × eval --partial of {} documents, merge",
        documents / SHARDS
    );
    let split = |name: &str| {
        let text = std::fs::read_to_string(dir.join(name)).expect("read");
        let lines: Vec<&str> = text.lines().collect();
        let per = lines.len().div_ceil(SHARDS);
        for (k, chunk) in lines.chunks(per.max(1)).enumerate() {
            let mut out = chunk.join("\n");
            out.push('\n');
            let stem = name.trim_end_matches(".jsonl");
            std::fs::write(dir.join(format!("{stem}{k}.jsonl")), out).expect("write");
        }
    };
    split("truth.jsonl");
    for model in MODELS {
        split(&format!("{model}.jsonl"));
    }
    let learned = dir.join("learned.cbor").display().to_string();
    let mut args = vec!["learn".to_string()];
    args.extend(eval_args(dir, "truth.jsonl", ""));
    args.extend(["--out".to_string(), learned.clone()]);
    let Some((secs, rss)) = timed(binary, &args) else {
        return;
    };
    println!("  learn            {secs:7.2} s   peak RSS {rss:7.1} MB");
    let (mut total, mut peak, mut bytes) = (0.0, 0.0f64, 0u64);
    let mut partials = Vec::new();
    for k in 0..SHARDS {
        let partial = dir.join(format!("p{k}.cbor")).display().to_string();
        let mut args = vec!["eval".to_string()];
        args.extend(eval_args(dir, &format!("truth{k}.jsonl"), &k.to_string()));
        args.extend([
            "--learned".to_string(),
            learned.clone(),
            "--partial".into(),
            partial.clone(),
            "--jobs".into(),
            "1".into(),
        ]);
        let Some((secs, rss)) = timed(binary, &args) else {
            return;
        };
        total += secs;
        peak = peak.max(rss);
        bytes += std::fs::metadata(&partial).map_or(0, |m| m.len());
        partials.push(partial);
    }
    println!(
        "  eval --partial   {total:7.2} s for the {SHARDS} (--jobs 1, one after the other)   peak RSS {peak:7.1} MB (one shard)"
    );
    println!(
        "  partial files    {:7.1} MB = {:.0} bytes per document ({} models, no details)",
        bytes as f64 / MB,
        bytes as f64 / documents.max(1) as f64,
        MODELS.len()
    );
    let merged = dir.join("merged.json");
    let mut args = vec!["merge".to_string()];
    args.extend(partials);
    args.extend(["--out".to_string(), merged.display().to_string()]);
    let Some((secs, rss)) = timed(binary, &args) else {
        return;
    };
    let same = std::fs::read(&merged).ok() == std::fs::read(dir.join("report-1.json")).ok();
    println!(
        "  merge            {secs:7.2} s   {:8.0} documents/s   peak RSS {rss:7.1} MB; equals the single run's report: {same}",
        documents as f64 / secs.max(0.01)
    );
}
