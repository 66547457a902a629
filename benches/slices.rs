//! What SPEC §9.2's slice discovery costs (issue 30): 10,000 documents ×
//! 3 models × 50 slices × 1,000 resamples, against the target "in
//! seconds on 2 cores".
//!
//! Not a timed test: a program that prints figures. Run it with
//!
//! ```text
//! cargo bench --bench slices                               # 10,000 documents
//! FIELDSCOPE_BENCH_DOCS=1000 cargo bench --bench slices    # a quick run
//! ```
//!
//! Builds `FIELDSCOPE_BENCH_DOCS` documents' counts for three models
//! (each document 20 fields, each right with a probability that depends
//! on the model and, for one model, on the slice: a planted weakness) and
//! one key with 50 values (so 50 slices of about 200 documents, every one
//! tested), then times `eval::slices::slices_report` — the cut, each
//! slice's micro scores, the bootstrap tests and Holm — on a rayon pool of
//! 1 and of 2 threads (medians of `FIELDSCOPE_BENCH_RUNS`, default 3), and
//! checks that both give the same report.

use fieldscope::eval::report::Counts;
use fieldscope::eval::slices::slices_report;
use fieldscope::eval::Config;
use std::time::Instant;

mod common;

const TARGET: &str =
    "slice discovery on 10,000 documents × 3 models × 50 slices × 1,000 resamples in seconds on 2 cores";

fn main() {
    let documents = common::env_count("FIELDSCOPE_BENCH_DOCS", 10_000);
    let runs = common::env_count("FIELDSCOPE_BENCH_RUNS", 3);
    println!("fieldscope slices benchmark");
    println!("target: {TARGET}");
    let slices = 50;
    let mut rng = fastrand::Rng::with_seed(7);
    let texts: Vec<Vec<Option<String>>> = (0..documents)
        .map(|d| vec![Some(format!("\"v{:02}\"", d % slices))])
        .collect();
    let models: Vec<(String, Vec<Counts>)> = [0.9, 0.8, 0.7]
        .iter()
        .enumerate()
        .map(|(m, &right)| {
            let counts = (0..documents)
                .map(|d| {
                    // Model 2 is weaker on slice v07.
                    let p = if m == 2 && d % slices == 7 {
                        right - 0.2
                    } else {
                        right
                    };
                    let exact = (0..20).filter(|_| rng.f64() < p).count() as u64;
                    let wrong = 20 - exact;
                    Counts {
                        exact,
                        incorrect: wrong / 2,
                        missed: wrong - wrong / 2,
                        ..Counts::default()
                    }
                })
                .collect();
            (format!("model{m}"), counts)
        })
        .collect();
    let config = Config::from_json(&serde_json::json!({"slice_by": ["v"]})).expect("config");
    let named: Vec<(&str, &[Counts])> = models
        .iter()
        .map(|(n, c)| (n.as_str(), c.as_slice()))
        .collect();
    println!(
        "{documents} documents × {} models × {slices} slices × {} resamples",
        models.len(),
        config.slices.resamples
    );
    let mut reports = Vec::new();
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        let mut times = Vec::new();
        let mut report = None;
        for _ in 0..runs {
            let start = Instant::now();
            report = Some(pool.install(|| slices_report(&texts, &named, &config)));
            times.push(start.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        println!("{threads} thread(s): median {median:.3} s over {runs} runs ({times:.3?})");
        reports.push(report);
    }
    assert_eq!(reports[0], reports[1], "1 and 2 threads differ");
    if let Some(Some(report)) = reports.first() {
        for m in &report.models {
            let weak: Vec<String> = m
                .slices
                .iter()
                .filter(|r| r.weak)
                .map(|r| {
                    format!(
                        "{}={} (δ {:.4})",
                        r.key,
                        r.value,
                        r.delta.unwrap_or(f64::NAN)
                    )
                })
                .collect();
            println!(
                "{}: weak slices: {}",
                m.name,
                if weak.is_empty() {
                    "none".to_string()
                } else {
                    weak.join(", ")
                }
            );
        }
    }
}
