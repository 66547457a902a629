//! Issue 16: `--jobs N` and partial results. The report must be byte for
//! byte the same for every number of threads (every table-driven case,
//! `synth` data with and without a schema, details and the bootstrap, held
//! and streamed), and `fieldscope merge` of any split of the documents into
//! shards must write exactly the report of one `eval` over them; partials
//! that do not belong together are refused (exit 2, naming what differs).

use super::common::{records, run_cli as fieldscope};
use fieldscope::eval::bootstrap::{bootstrap_report, BootstrapOptions};
use fieldscope::eval::evaluate::{evaluate_partial, learn, merge_partials, MergeOptions};
use fieldscope::eval::{evaluate, evaluate_owned, ConfigBuilder, EvalInput, ModelInput, Report};
use fieldscope::io::parse_docs;
use fieldscope::synth::{generate, SynthOptions};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A fresh directory for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("fieldscope-parallel-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// Runs `f` on a pool of `threads` threads.
fn on_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool starts")
        .install(f)
}

/// The report as JSON text with its hidden per-document tallies, so that
/// equal text means equal bits.
fn fingerprint(report: &Report) -> String {
    let tallies: Vec<String> = report
        .models
        .iter()
        .map(|m| format!("{:?}", m.document_tallies))
        .collect();
    format!(
        "{}\n{}",
        serde_json::to_string(report).unwrap(),
        tallies.join("\n")
    )
}

#[test]
fn every_case_gives_the_same_report_on_1_2_3_and_8_threads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cases");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 10, "expected the table-driven cases");
    for path in cases {
        let case: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut builder = ConfigBuilder::new();
        if let Some(c) = case.get("config") {
            builder = builder.layer(c).unwrap();
        }
        let config = builder.build().unwrap();
        let models = case["predictions"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(name, preds)| {
                let preds = preds.as_array().cloned().unwrap_or_default();
                ModelInput::new(name.clone(), records(&format!("{name}.json"), preds))
            })
            .collect();
        let input = EvalInput {
            truth: records(
                "truth.json",
                case["truth"].as_array().cloned().unwrap_or_default(),
            ),
            models,
            schema: case.get("schema").cloned(),
            schemas: super::cases::named_schemas(&case),
        };
        let reports: Vec<String> = [1, 2, 3, 8]
            .into_iter()
            .map(|threads| {
                on_threads(threads, || {
                    let mut report = evaluate(&input, &config, true).unwrap();
                    report.bootstrap = Some(bootstrap_report(
                        &report,
                        &config,
                        BootstrapOptions {
                            resamples: 50,
                            ..BootstrapOptions::default()
                        },
                    ));
                    fingerprint(&report)
                })
            })
            .collect();
        for (i, r) in reports.iter().enumerate().skip(1) {
            assert!(
                r == &reports[0],
                "{}: thread count #{i} differs",
                path.display()
            );
        }
    }
}

/// `synth` data of `documents` invoices, in memory.
/// The truth is given errors the models do not share (SPEC §9.3's
/// suspected truth errors then appear in every report these tests
/// compare): every fourth document's `total` plus 1000 and its first
/// item's quantity plus 7, and the next document's `currency` absent.
fn synth_data(documents: usize, seed: u64) -> fieldscope::synth::SynthData {
    let mut data = generate(&SynthOptions {
        documents,
        seed,
        ..SynthOptions::default()
    });
    let mut truth = String::new();
    for (i, line) in data.truth_jsonl.lines().enumerate() {
        let mut record: Value = serde_json::from_str(line).unwrap();
        if i % 4 == 1 {
            if let Some(total) = record["total"].as_f64() {
                record["total"] = serde_json::json!(total + 1000.0);
            }
            if let Some(q) = record.pointer("/items/0/quantity").and_then(Value::as_f64) {
                record["items"][0]["quantity"] = serde_json::json!(q + 7.0);
            }
        }
        if i % 4 == 2 {
            record["currency"] = Value::Null;
        }
        truth.push_str(&record.to_string());
        truth.push('\n');
    }
    data.truth_jsonl = truth;
    data
}

/// A records file parsed from `text`.
fn doc_file(name: &str, text: &str) -> fieldscope::eval::DocFile {
    parse_docs(name, text.as_bytes()).unwrap()
}

/// Writes `synth` data of `documents` invoices into `dir`.
fn synth(dir: &Path, documents: usize, seed: u64) -> fieldscope::synth::SynthData {
    let data = synth_data(documents, seed);
    std::fs::write(dir.join("truth.jsonl"), &data.truth_jsonl).unwrap();
    for (name, text) in &data.predictions {
        std::fs::write(dir.join(format!("{name}.jsonl")), text).unwrap();
    }
    std::fs::write(dir.join("schema.json"), &data.schema_json).unwrap();
    data
}

/// `--truth DIR/truth.jsonl --pred NAME=DIR/NAME.jsonl …` (and the schema).
fn inputs(dir: &Path, truth: &str, suffix: &str, schema: bool) -> Vec<String> {
    let mut args = vec!["--truth".to_string(), s(&dir.join(truth))];
    for name in ["good", "conservative", "aggressive"] {
        args.push("--pred".into());
        args.push(format!(
            "{name}={}",
            s(&dir.join(format!("{name}{suffix}.jsonl")))
        ));
    }
    if schema {
        args.extend(["--schema".to_string(), s(&dir.join("schema.json"))]);
    }
    args
}

fn with(base: &[String], extra: &[&str]) -> Vec<String> {
    base.iter()
        .cloned()
        .chain(extra.iter().map(|x| x.to_string()))
        .collect()
}

/// Runs `eval` with `extra` on every (jobs, stream) of `runs` and asserts
/// that status, report and warnings are the same each time.
fn same_for_every_run(base: &[String], extra: &[&str], runs: &[(&str, &str)]) -> String {
    let mut expected: Option<(i32, String, String)> = None;
    for (jobs, stream) in runs {
        let mut args = vec!["eval".to_string()];
        args.extend(base.iter().cloned());
        args.extend(extra.iter().map(|x| x.to_string()));
        args.extend(["--jobs", jobs, "--stream", stream].map(String::from));
        let got = fieldscope(&args);
        assert_eq!(got.0, 0, "{}", got.2);
        match &expected {
            None => expected = Some(got),
            Some(e) => {
                assert!(
                    e.1 == got.1,
                    "report at --jobs {jobs} --stream {stream} ({base:?})"
                );
                assert_eq!(e.2, got.2, "warnings at --jobs {jobs} --stream {stream}");
            }
        }
    }
    expected.map(|e| e.1).unwrap_or_default()
}

#[test]
fn synth_data_gives_the_same_report_for_every_jobs_count_held_and_streamed() {
    let dir = scratch("jobs");
    // 160 documents: two batches of the parallel pass at one thread (8
    // units of 16), one at more; the 600 below are several at 2 threads.
    synth(&dir, 160, 7);
    let runs = [
        ("1", "never"),
        ("2", "never"),
        ("3", "never"),
        ("8", "never"),
        ("1", "always"),
        ("3", "always"),
    ];
    for schema in [true, false] {
        let base = inputs(&dir, "truth.jsonl", "", schema);
        let report = same_for_every_run(&base, &["--details", "--bootstrap", "40"], &runs);
        let report: Value = serde_json::from_str(&report).unwrap();
        assert_eq!(report["documents"], 160);
        let suspects = report["suspected_truth_errors"].as_array().unwrap();
        assert!(suspects.len() > 50, "{} suspects", suspects.len());
        assert_eq!(
            report["models"][0]["document_details"]
                .as_array()
                .unwrap()
                .len(),
            160
        );
        assert!(report["bootstrap"].is_object());
        same_for_every_run(&base, &["--format", "markdown"], &runs[..3]);
        // SPEC §9.2's slices: the same on every thread count (each slice
        // tested with its own seeded generator).
        let sliced = same_for_every_run(
            &base,
            &["--slice-by", "_items,currency", "--slice-by", "_fields"],
            &runs[..4],
        );
        let sliced: Value = serde_json::from_str(&sliced).unwrap();
        assert_eq!(
            sliced["slices"]["by"],
            serde_json::json!(["_items", "currency", "_fields"])
        );
        assert!(
            sliced["slices"]["models"][0]["slices"]
                .as_array()
                .unwrap()
                .len()
                > 8
        );
    }
    // More than two batches of the parallel pass at 2 threads (2 × 8 units
    // of 16 documents: 256), the last one partial, held and streamed.
    let big = scratch("jobs-big");
    synth(&big, 600, 8);
    let base = inputs(&big, "truth.jsonl", "", true);
    same_for_every_run(
        &base,
        &["--details"],
        &[("1", "never"), ("2", "never"), ("2", "always")],
    );

    let mut args = vec!["eval".to_string()];
    args.extend(inputs(&dir, "truth.jsonl", "", false));
    args.extend(["--jobs".to_string(), "0".to_string()]);
    let (code, _, err) = fieldscope(&args);
    assert_eq!(code, 2);
    assert!(err.contains("--jobs 0"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&big);
}

/// Splits lines into shards at `cuts` (sorted positions).
/// `sweep` (whose first evaluation keeps the flattened documents, on
/// every thread, and whose later ones load them) prints the same table at
/// 1, 2, 3 and 8 threads — 300 documents: two batches at 2 threads —
/// for a string threshold and the item threshold, with the schema.
#[test]
fn sweep_gives_the_same_table_for_every_jobs_count() {
    let dir = scratch("sweep");
    synth(&dir, 300, 9);
    let base = inputs(&dir, "truth.jsonl", "", true);
    for (param, values) in [("similarity", "0.5,0.8,0.95"), ("item", "0,0.5,1")] {
        let mut tables = Vec::new();
        for jobs in ["1", "2", "3", "8"] {
            let args: Vec<String> = [
                "sweep", "--param", param, "--values", values, "--jobs", jobs,
            ]
            .iter()
            .map(|x| x.to_string())
            .chain(base.iter().cloned())
            .collect();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, out, err) = fieldscope(&args);
            assert_eq!(code, 0, "{err}");
            tables.push(out);
        }
        let table: Value = serde_json::from_str(&tables[0]).unwrap();
        assert_eq!(table["documents"], 300);
        assert_eq!(table["models"][0]["points"].as_array().unwrap().len(), 3);
        for (k, t) in tables.iter().enumerate().skip(1) {
            assert!(*t == tables[0], "{param}: table {k} differs");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn split_lines(text: &str, cuts: &[usize]) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut bounds = vec![0];
    bounds.extend_from_slice(cuts);
    bounds.push(lines.len());
    bounds
        .windows(2)
        .map(|w| lines[w[0]..w[1]].iter().map(|l| format!("{l}\n")).collect())
        .collect()
}

/// Random shard boundaries: 1–7 shards of uneven sizes, one of them of a
/// single document when there are several.
fn random_cuts(rng: &mut fastrand::Rng, documents: usize) -> Vec<usize> {
    let shards = rng.usize(1..=7);
    let mut cuts: Vec<usize> = (1..shards).map(|_| rng.usize(1..documents)).collect();
    if shards > 1 {
        let one = rng.usize(0..documents - 1);
        cuts.extend([one, one + 1]);
    }
    cuts.sort_unstable();
    cuts.dedup();
    cuts.retain(|&c| c > 0 && c < documents);
    cuts
}

#[test]
fn merged_shards_give_the_single_runs_report_byte_for_byte() {
    let dir = scratch("merge");
    let documents = 60;
    let data = synth(&dir, documents, 11);
    let mut rng = fastrand::Rng::with_seed(16);
    for round in 0..6 {
        let schema = round % 2 == 0;
        let cuts = random_cuts(&mut rng, documents);
        // The shards, in a shuffled order: the single run reads the truth
        // (and predictions) in that order too.
        let mut order: Vec<usize> = (0..=cuts.len()).collect();
        rng.shuffle(&mut order);
        let truth_shards = split_lines(&data.truth_jsonl, &cuts);
        let pred_shards: Vec<Vec<String>> = data
            .predictions
            .iter()
            .map(|(_, text)| split_lines(text, &cuts))
            .collect();
        let mut whole_truth = String::new();
        let mut whole_preds = vec![String::new(); 3];
        for (k, &i) in order.iter().enumerate() {
            std::fs::write(dir.join(format!("t{k}.jsonl")), &truth_shards[i]).unwrap();
            whole_truth.push_str(&truth_shards[i]);
            for (m, (name, _)) in data.predictions.iter().enumerate() {
                std::fs::write(dir.join(format!("{name}{k}.jsonl")), &pred_shards[m][i]).unwrap();
                whole_preds[m].push_str(&pred_shards[m][i]);
            }
        }
        std::fs::write(dir.join("all.jsonl"), &whole_truth).unwrap();
        for (m, (name, _)) in data.predictions.iter().enumerate() {
            std::fs::write(dir.join(format!("{name}all.jsonl")), &whole_preds[m]).unwrap();
        }
        let mut whole = inputs(&dir, "all.jsonl", "all", schema);
        // SPEC §9.2's slices in the last rounds: each partial carries its
        // documents' slice values, merged into the single run's slices.
        let slicing: Vec<String> = if round >= 3 {
            vec!["--slice-by".into(), "currency,_items,_fields".into()]
        } else {
            Vec::new()
        };
        whole.extend(slicing.iter().cloned());
        let learned = s(&dir.join("learned.cbor"));
        let (code, _, err) = fieldscope(&with(
            &[vec!["learn".to_string()], whole.clone()].concat(),
            &["--out", &learned],
        ));
        assert_eq!(code, 0, "{err}");
        let mut partials = Vec::new();
        for k in 0..order.len() {
            let mut shard = inputs(&dir, &format!("t{k}.jsonl"), &k.to_string(), schema);
            shard.extend(slicing.iter().cloned());
            let partial = s(&dir.join(format!("p{k}.cbor")));
            let jobs = ["1", "2", "3"][k % 3];
            let (code, out, err) = fieldscope(&with(
                &[vec!["eval".to_string()], shard].concat(),
                &[
                    "--learned",
                    &learned,
                    "--partial",
                    &partial,
                    "--details",
                    "--jobs",
                    jobs,
                ],
            ));
            assert_eq!((code, out.as_str()), (0, ""), "{err}");
            partials.push(partial);
        }
        for (format, extra) in [
            ("json", &["--details"][..]),
            ("json", &["--bootstrap", "30", "--seed", "5"][..]),
            ("markdown", &["--bootstrap", "30"][..]),
            ("csv", &[][..]),
            ("latex", &[][..]),
            ("html", &["--details"][..]),
        ] {
            let mut eval = with(
                &[vec!["eval".to_string()], whole.clone()].concat(),
                &["--format", format],
            );
            eval.extend(extra.iter().map(|x| x.to_string()));
            let single = fieldscope(&eval);
            assert_eq!(single.0, 0, "{}", single.2);
            let mut merge = vec!["merge".to_string()];
            merge.extend(partials.iter().cloned());
            merge.extend(["--format".to_string(), format.to_string()]);
            merge.extend(extra.iter().map(|x| x.to_string()));
            let merged = fieldscope(&merge);
            assert_eq!(merged.0, 0, "{}", merged.2);
            assert!(
                merged.1 == single.1,
                "round {round} ({} shards, cuts {cuts:?}, order {order:?}, schema {schema}): {format} {extra:?} differs",
                order.len()
            );
            assert_eq!(merged.2, single.2, "warnings");
            if format == "json" && round >= 3 {
                let report: Value = serde_json::from_str(&single.1).unwrap();
                assert!(report["slices"]["models"][0]["slices"].is_array());
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_library_merges_partial_bytes_without_files() {
    let data = synth_data(40, 3);
    let config = ConfigBuilder::new().build().unwrap();
    let file = doc_file;
    let input = |truth: &str, preds: Vec<String>| EvalInput {
        truth: file("truth.jsonl", truth),
        models: data
            .predictions
            .iter()
            .zip(preds)
            .map(|((name, _), text)| {
                ModelInput::new(name.clone(), file(&format!("{name}.jsonl"), &text))
            })
            .collect(),
        schema: Some(serde_json::from_str(&data.schema_json).unwrap()),
        schemas: Vec::new(),
    };
    let all: Vec<String> = data.predictions.iter().map(|(_, t)| t.clone()).collect();
    let learned = learn(input(&data.truth_jsonl, all.clone()), &config).unwrap();
    let cuts = [13, 14, 30];
    let truth = split_lines(&data.truth_jsonl, &cuts);
    let preds: Vec<Vec<String>> = all.iter().map(|t| split_lines(t, &cuts)).collect();
    let partials: Vec<Vec<u8>> = (0..truth.len())
        .map(|i| {
            let shard = input(&truth[i], preds.iter().map(|p| p[i].clone()).collect());
            evaluate_partial(shard, &config, Some(&learned), false).unwrap()
        })
        .collect();
    let named: Vec<(&str, &[u8])> = partials.iter().map(|p| ("part", p.as_slice())).collect();
    let merged = merge_partials(&named, &MergeOptions::default()).unwrap();
    let single = evaluate_owned(input(&data.truth_jsonl, all), &config, false).unwrap();
    assert!(!single.suspected_truth_errors.is_empty());
    assert!(serde_json::to_string(&merged).unwrap() == serde_json::to_string(&single).unwrap());
    assert_eq!(merged.documents, 40);
}

#[test]
fn partials_that_do_not_belong_together_are_refused() {
    let dir = scratch("refuse");
    let data = synth(&dir, 30, 5);
    let cuts = [10, 20];
    let truth = split_lines(&data.truth_jsonl, &cuts);
    for (i, t) in truth.iter().enumerate() {
        std::fs::write(dir.join(format!("t{i}.jsonl")), t).unwrap();
        for (name, text) in &data.predictions {
            std::fs::write(
                dir.join(format!("{name}{i}.jsonl")),
                &split_lines(text, &cuts)[i],
            )
            .unwrap();
        }
    }
    let learned = s(&dir.join("learned.cbor"));
    let whole = inputs(&dir, "truth.jsonl", "", true);
    assert_eq!(
        fieldscope(&with(
            &[vec!["learn".to_string()], whole].concat(),
            &["--out", &learned]
        ))
        .0,
        0
    );
    let partial = |k: usize, name: &str, extra: &[&str]| {
        let path = s(&dir.join(name));
        let mut args = with(
            &[
                vec!["eval".to_string()],
                inputs(&dir, &format!("t{k}.jsonl"), &k.to_string(), true),
            ]
            .concat(),
            &["--partial", &path],
        );
        args.extend(extra.iter().map(|x| x.to_string()));
        let (code, _, err) = fieldscope(&args);
        (code, err, path)
    };
    let (_, _, p0) = partial(0, "p0.cbor", &["--learned", &learned]);
    let (_, _, p1) = partial(1, "p1.cbor", &["--learned", &learned]);
    let (_, _, p2) = partial(2, "p2.cbor", &["--learned", &learned]);
    let merge = |files: &[&str], extra: &[&str]| {
        let mut args = vec!["merge".to_string()];
        args.extend(files.iter().map(|f| f.to_string()));
        args.extend(extra.iter().map(|x| x.to_string()));
        fieldscope(&args)
    };
    assert_eq!(merge(&[&p0, &p1, &p2], &[]).0, 0);

    // Another configuration: refused when the shard runs (--learned) and
    // when merged (no --learned).
    let (code, err, _) = partial(1, "x.cbor", &["--learned", &learned, "--preset", "exact"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("configuration differs") && err.contains("preset"),
        "{err}"
    );
    let (code, _, exact) = partial(1, "exact.cbor", &["--preset", "exact"]);
    assert_eq!(code, 0);
    let (code, _, err) = merge(&[&p0, &exact], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("exact.cbor") && err.contains("configuration differs (keys: preset"),
        "{err}"
    );

    // Shards learnt alone: not the whole run's decisions.
    let (_, _, a0) = partial(0, "a0.cbor", &[]);
    let (_, _, a1) = partial(1, "a1.cbor", &[]);
    let (code, _, err) = merge(&[&a0, &a1], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("learnt from other documents"), "{err}");

    // The same documents twice; a shard missing; the wrong order.
    let (code, _, err) = merge(&[&p0, &p0, &p2], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("is in two partial results"), "{err}");
    let (code, _, err) = merge(&[&p0, &p2], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("hold 20 documents; the learnt fields list 30"),
        "{err}"
    );
    let (code, _, err) = merge(&[&p1, &p0, &p2], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("in the order of the truth that was learnt"),
        "{err}"
    );

    // Other model names.
    let renamed = with(
        &[
            vec!["eval".to_string()],
            inputs(&dir, "t1.jsonl", "1", true),
        ]
        .concat(),
        &[],
    );
    let renamed: Vec<String> = renamed
        .into_iter()
        .map(|a| a.replace("good=", "best="))
        .collect();
    let out = s(&dir.join("renamed.cbor"));
    let (code, _, err) = fieldscope(&with(&renamed, &["--partial", &out, "--learned", &learned]));
    assert_eq!(code, 2);
    assert!(err.contains("model names differ"), "{err}");

    // Another fieldscope version (the header's version string changed).
    let bytes = std::fs::read(&p1).unwrap();
    let version = env!("CARGO_PKG_VERSION").as_bytes();
    let at = bytes
        .windows(version.len())
        .position(|w| w == version)
        .unwrap();
    let mut other = bytes.clone();
    other[at..at + version.len()].copy_from_slice(&vec![b'9'; version.len()]);
    let other_path = dir.join("other.cbor");
    std::fs::write(&other_path, other).unwrap();
    let (code, _, err) = merge(&[&p0, &s(&other_path), &p2], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("other.cbor") && err.contains("written by fieldscope 9"),
        "{err}"
    );

    // Not a partial result; details not kept; flags that belong to merge.
    let (code, _, err) = merge(&[&s(&dir.join("t0.jsonl"))], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("t0.jsonl") && err.contains("not a fieldscope partial result"),
        "{err}"
    );
    let (code, _, err) = merge(&[&p0, &p1, &p2], &["--details"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--details needs partial results made with --details"),
        "{err}"
    );
    let (code, err, _) = partial(0, "b.cbor", &["--bootstrap"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--bootstrap belongs to `fieldscope merge`"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// SPEC §7.4 over shards: each partial carries its shard's tallies, `merge`
/// sums them and decides once, so the suggestions are the single run's
/// even where a shard alone decides otherwise. Truth values are strings
/// (as in finrag): 12 documents, shards of 8 and 4.
#[test]
fn merged_suggestions_are_the_single_runs_not_a_shards() {
    let line = |i: usize| {
        // `amount`: one "see note" in 12 (11/12 = 91.7 % < 95 %: no suggestion),
        // but the first 8 all read as numbers; `ref`: a JSON number in
        // document 9 (no suggestion); `total` and `paid_on`: 12 of 12.
        let amount = if i == 10 {
            "see note".to_string()
        } else {
            format!("{},5", 1000 + i)
        };
        let reference = if i == 9 {
            "7".to_string()
        } else {
            format!("\"{}\"", 100 + i)
        };
        format!(
            "{{\"id\":\"d{i:02}\",\"amount\":\"{amount}\",\"ref\":{reference},\"total\":\"{}.25\",\"paid_on\":\"2024-03-{i:02}\"}}\n",
            2 * i
        )
    };
    let all: String = (1..=12).map(line).collect();
    let first: String = (1..=8).map(line).collect();
    let second: String = (9..=12).map(line).collect();
    let config = ConfigBuilder::new().build().unwrap();
    let input = |truth: &str| EvalInput {
        truth: parse_docs("truth.jsonl", truth.as_bytes()).unwrap(),
        models: vec![ModelInput::new(
            "m",
            parse_docs("m.jsonl", truth.as_bytes()).unwrap(),
        )],
        schema: None,
        schemas: Vec::new(),
    };
    let fields = |r: &Report| -> Vec<(String, String, f64)> {
        r.suggestions
            .iter()
            .map(|s| (s.field.clone(), s.r#type.clone(), s.share))
            .collect()
    };
    let single = evaluate_owned(input(&all), &config, false).unwrap();
    let expected = vec![
        ("paid_on".to_string(), "date".to_string(), 1.0),
        ("total".to_string(), "number".to_string(), 1.0),
    ];
    assert_eq!(fields(&single), expected);
    // Alone, the first shard suggests `amount` and `ref` as numbers (8 of
    // 8); the second suggests nothing (4 values, fewer than 5).
    let alone = evaluate_owned(input(&first), &config, false).unwrap();
    assert_eq!(
        fields(&alone),
        vec![
            ("amount".to_string(), "number".to_string(), 1.0),
            ("paid_on".to_string(), "date".to_string(), 1.0),
            ("ref".to_string(), "number".to_string(), 1.0),
            ("total".to_string(), "number".to_string(), 1.0),
        ]
    );
    let alone = evaluate_owned(input(&second), &config, false).unwrap();
    assert_eq!(fields(&alone), vec![]);

    let learned = learn(input(&all), &config).unwrap();
    let partials: Vec<Vec<u8>> = [&first, &second]
        .iter()
        .map(|t| evaluate_partial(input(t), &config, Some(&learned), false).unwrap())
        .collect();
    let named: Vec<(&str, &[u8])> = partials.iter().map(|p| ("part", p.as_slice())).collect();
    let merged = merge_partials(&named, &MergeOptions::default()).unwrap();
    assert_eq!(fields(&merged), expected);
    assert!(serde_json::to_string(&merged).unwrap() == serde_json::to_string(&single).unwrap());
    // Each shard merged with itself (its own learnt fields) is that shard.
    let own = evaluate_partial(input(&first), &config, None, false).unwrap();
    let merged = merge_partials(&[("own", own.as_slice())], &MergeOptions::default()).unwrap();
    assert_eq!(
        fields(&merged),
        fields(&evaluate_owned(input(&first), &config, false).unwrap())
    );
}

/// The passes that learn paths, kinds, item fields and §7.4's tallies
/// learn on several threads exactly what they learn on one (the bytes of
/// `fieldscope learn`'s file: every path in id order with its kind,
/// presence, item list and tally), with and without a schema — 300
/// documents, so that every forest is cut into several runs at 2, 3 and 8
/// threads — and on a field whose strings turn into a number midway,
/// where the tally must stop reading strings at that document.
#[test]
fn learning_on_threads_learns_what_one_thread_learns() {
    let data = synth_data(300, 5);
    let config = ConfigBuilder::new().build().unwrap();
    let file = doc_file;
    let input = |schema: bool| EvalInput {
        truth: file("truth.jsonl", &data.truth_jsonl),
        models: data
            .predictions
            .iter()
            .map(|(name, text)| ModelInput::new(name.clone(), file(name, text)))
            .collect(),
        schema: schema.then(|| serde_json::from_str(&data.schema_json).unwrap()),
        schemas: Vec::new(),
    };
    for schema in [false, true] {
        let one = on_threads(1, || learn(input(schema), &config).unwrap());
        for threads in [2, 3, 8] {
            let many = on_threads(threads, || learn(input(schema), &config).unwrap());
            assert!(
                many.to_bytes() == one.to_bytes(),
                "{threads} threads, schema {schema}"
            );
        }
    }

    // "amount": strings that read as numbers, one JSON number at document
    // 150, strings again; "tags" first absent, a set from document 200.
    let lines = |model: bool| -> String {
        (0..300)
            .map(|i| {
                let amount = if i == 150 {
                    serde_json::json!(7)
                } else {
                    serde_json::json!(format!("{i}.5"))
                };
                let tags = if i >= 200 && !model {
                    serde_json::json!(["a", "b"])
                } else {
                    serde_json::json!(null)
                };
                serde_json::json!({"id": format!("d{i}"), "amount": amount, "tags": tags})
                    .to_string()
                    + "\n"
            })
            .collect()
    };
    let tallied = |threads: usize| {
        on_threads(threads, || {
            let input = EvalInput {
                truth: file("truth.jsonl", &lines(false)),
                models: vec![ModelInput::new("m", file("m.jsonl", &lines(true)))],
                schema: None,
                schemas: Vec::new(),
            };
            learn(input, &config).unwrap()
        })
    };
    let one = tallied(1);
    let amount = one.paths.iter().find(|p| p.name == "amount").unwrap();
    // 300 present; 1 not a string; the 150 strings before it read as
    // numbers, none after it is read.
    assert_eq!(
        (
            amount.tally.present,
            amount.tally.non_strings,
            amount.tally.numbers
        ),
        (300, 1, 150)
    );
    let tags = one.paths.iter().find(|p| p.name == "tags").unwrap();
    assert_eq!(tags.kind.as_deref(), Some("set"));
    for threads in [2, 3, 8] {
        assert!(
            tallied(threads).to_bytes() == one.to_bytes(),
            "{threads} threads"
        );
    }
}
