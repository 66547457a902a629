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
//!
//! The directory is removed at the end unless `FIELDSCOPE_BENCH_KEEP=1`.

use fieldscope::eval::{evaluate_owned, Config, DocFile, EvalInput, ModelInput};
use fieldscope::io::parse_docs;
use fieldscope::synth::{generate, SynthOptions};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const TARGET: &str =
    "10,000 documents × 3 models in under 1 s single-threaded; peak memory under 3× the input size";
const MODELS: [&str; 3] = ["good", "conservative", "aggressive"];
const MB: f64 = 1e6;

fn main() {
    if let Ok(dir) = std::env::var("FIELDSCOPE_BENCH_CORE") {
        core(Path::new(&dir));
        return;
    }
    let documents: usize = match std::env::var("FIELDSCOPE_BENCH_DOCS") {
        Ok(n) => n
            .parse()
            .unwrap_or_else(|_| panic!("FIELDSCOPE_BENCH_DOCS={n:?} is not a number")),
        Err(_) => 10_000,
    };

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
    };

    let hwm_parsed = vm_hwm_kb();

    let started = Instant::now();
    let report = evaluate_owned(input, &Config::default(), false).expect("the evaluation runs");
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
