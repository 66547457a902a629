//! SPEC §8.5 with `--bootstrap` (issue 29): intervals of ece, brier,
//! auroc and aurc for each model with confidences and a paired test on
//! aurc between each two of them — a resample worked out by hand, seeds,
//! the estimate inside its interval, the test's sign, and the same bytes
//! at `--jobs 1` and `2` and from merged partial results.

use super::common::{close, run_cli as fieldscope};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// A fresh directory for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "fieldscope-confidence-bootstrap-{test}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

fn jsonl(values: &[Value]) -> String {
    values.iter().map(|v| format!("{v}\n")).collect()
}

fn eval(args: &[&str]) -> String {
    let mut all = vec!["eval"];
    all.extend(args);
    let (code, out, err) = fieldscope(&all);
    assert_eq!(code, 0, "{err}");
    out
}

/// Two documents of fields `a` and `b`, the predictions inline wrappers:
/// D1 — a right at 0.9, b wrong at 0.7; D2 — a right at 0.6, b right at
/// 0.2 (beside the fields).
fn two_documents(dir: &Path) -> (String, String) {
    let truth = [
        json!({"id": "d1", "a": "x", "b": "y"}),
        json!({"id": "d2", "a": "x", "b": "z"}),
    ];
    let pred = [
        json!({"id": "d1", "a": {"_value": "x", "_confidence": 0.9},
               "b": {"_value": "q", "_confidence": 0.7}}),
        json!({"id": "d2", "a": "x", "b": "z", "_confidence": {"a": 0.6, "b": 0.2}}),
    ];
    let (t, p) = (dir.join("truth.jsonl"), dir.join("m.jsonl"));
    std::fs::write(&t, jsonl(&truth)).unwrap();
    std::fs::write(&p, jsonl(&pred)).unwrap();
    (s(&t), format!("m={}", s(&p)))
}

/// The type-7 quantile of sorted values (as numpy's default).
fn quantile(v: &[f64], q: f64) -> f64 {
    let h = (v.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(v.len() - 1);
    v[lo] + (h - lo as f64) * (v[hi] - v[lo])
}

/// With two documents a resample is D1 twice, D1 and D2, or D2 twice; a
/// document drawn twice gives the same scores as once (each bin, each
/// tie group doubles). By hand, 10 equal-width bins:
/// - D1 {(0.9 ✓), (0.7 ✗)}: ece ½·0.1 + ½·0.7 = 0.4; brier (0.01 +
///   0.49)/2 = 0.25; auroc 1; aurc: risk ½ over coverage ½ → 0.25.
/// - D2 {(0.6 ✓), (0.2 ✓)}: ece ½·0.4 + ½·0.8 = 0.6; brier (0.16 +
///   0.64)/2 = 0.4; auroc undefined (all right); aurc 0.
/// - both: ece (0.1 + 0.7 + 0.4 + 0.8)/4 = 0.5; brier 1.3/4 = 0.325;
///   auroc ⅓ (0.9 above 0.7; 0.6 and 0.2 below); aurc ½·¼ + ⅓·¼ + ¼·¼.
#[test]
fn resamples_of_two_documents_by_hand() {
    let dir = scratch("hand");
    let (t, p) = two_documents(&dir);
    let b = 7;
    let out = eval(&[
        "--truth",
        &t,
        "--pred",
        &p,
        "--bootstrap",
        &b.to_string(),
        "--seed",
        "4",
    ]);
    let r: Value = serde_json::from_str(&out).unwrap();
    let c = &r["bootstrap"]["models"][0]["confidence"];
    // Seed 4's draws, as `fastrand` gives them to every platform: how
    // many times D1 is drawn (of 2) in each resample.
    let mut rng = fastrand::Rng::with_seed(4);
    let d1: Vec<u32> = (0..b)
        .map(|_| (0..2).map(|_| u32::from(rng.u64(0..2) == 0)).sum())
        .collect();
    // Per resample: (ece, brier, auroc, aurc); None where undefined.
    let aurc_both = 0.5 * 0.25 + 0.25 / 3.0 + 0.25 * 0.25;
    let by_d1 = |k: u32| match k {
        2 => (0.4, 0.25, Some(1.0), 0.25),
        1 => (0.5, 0.325, Some(1.0 / 3.0), aurc_both),
        _ => (0.6, 0.4, None, 0.0),
    };
    let scores: Vec<_> = d1.iter().map(|&k| by_d1(k)).collect();
    // The draws hold each kind of resample, so every branch is checked.
    for k in 0..=2 {
        assert!(d1.contains(&k), "{d1:?}");
    }
    let check = |key: &str, mut values: Vec<f64>, estimate: f64| {
        values.sort_by(f64::total_cmp);
        close(c[key]["estimate"].as_f64().unwrap(), estimate);
        close(c[key]["low"].as_f64().unwrap(), quantile(&values, 0.025));
        close(c[key]["high"].as_f64().unwrap(), quantile(&values, 0.975));
    };
    // One resample alone: the first draw's ece, from its weights.
    let first = scores[0].0;
    assert_eq!(first, [0.6, 0.5, 0.4][d1[0] as usize]);
    check("ece", scores.iter().map(|x| x.0).collect(), 0.5);
    check("brier", scores.iter().map(|x| x.1).collect(), 0.325);
    check("aurc", scores.iter().map(|x| x.3).collect(), aurc_both);
    // auroc over the resamples where it is defined (D1 drawn at least once).
    let auroc: Vec<f64> = scores.iter().filter_map(|x| x.2).collect();
    assert_eq!(c["resamples"], json!(b));
    assert_eq!(c["auroc_resamples"], json!(auroc.len()));
    check("auroc", auroc, 1.0 / 3.0);
    // The estimates are the report's own numbers, bit for bit.
    let own = &r["models"][0]["confidence"];
    for key in ["ece", "brier", "auroc", "aurc"] {
        assert_eq!(c[key]["estimate"], own[key], "{key}");
    }
    // One model: no paired test.
    assert_eq!(r["bootstrap"]["paired"], json!([]));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `documents` documents of five fields; `ranked` gives right values a
/// high confidence and wrong ones a low one, `reversed` the opposite (the
/// same values), `plain` the same values without confidences. About 70 %
/// of the values are right. Fields `a`–`c` inline, `d` and `e` beside.
fn ranked_and_reversed(dir: &Path, documents: usize) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(29);
    let fields = ["a", "b", "c", "d", "e"];
    let (mut truth, mut ranked, mut reversed, mut plain) = (vec![], vec![], vec![], vec![]);
    for i in 0..documents {
        let id = format!("d{i}");
        let mut t = json!({"id": id});
        let mut r = json!({"id": id});
        let mut v = json!({"id": id});
        let mut p = json!({"id": id});
        let (mut beside_r, mut beside_v) = (json!({}), json!({}));
        for (k, f) in fields.iter().enumerate() {
            let truth_value = format!("{f}{i}");
            let right = rng.f64() < 0.7;
            let value = if right {
                truth_value.clone()
            } else {
                format!("{f}{i}-wrong")
            };
            let (high, low) = (0.6 + 0.4 * rng.f64(), 0.5 * rng.f64());
            let (cr, cv) = if right { (high, low) } else { (low, high) };
            t[f] = json!(truth_value);
            p[f] = json!(value);
            if k < 3 {
                r[f] = json!({"_value": value, "_confidence": cr});
                v[f] = json!({"_value": value, "_confidence": cv});
            } else {
                r[f] = json!(value);
                v[f] = json!(value);
                beside_r[f] = json!(cr);
                beside_v[f] = json!(cv);
            }
        }
        r["_confidence"] = beside_r;
        v["_confidence"] = beside_v;
        truth.push(t);
        ranked.push(r);
        reversed.push(v);
        plain.push(p);
    }
    let mut args = vec!["--truth".to_string(), s(&dir.join("truth.jsonl"))];
    std::fs::write(dir.join("truth.jsonl"), jsonl(&truth)).unwrap();
    for (name, values) in [
        ("ranked", &ranked),
        ("reversed", &reversed),
        ("plain", &plain),
    ] {
        let path = dir.join(format!("{name}.jsonl"));
        std::fs::write(&path, jsonl(values)).unwrap();
        args.extend(["--pred".to_string(), format!("{name}={}", s(&path))]);
    }
    args
}

fn strings(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[test]
fn the_better_ranking_model_wins_the_paired_aurc_test() {
    let dir = scratch("paired");
    let base = ranked_and_reversed(&dir, 40);
    let mut args = strings(&base);
    args.extend(["--bootstrap", "200", "--seed", "3"]);
    let r: Value = serde_json::from_str(&eval(&args)).unwrap();
    let boot = &r["bootstrap"];
    // `plain` has no confidences: no `confidence` key in its intervals
    // (the other keys as before) and no test on aurc.
    let plain = &boot["models"][2];
    assert_eq!(plain["name"], "plain");
    assert!(plain.get("confidence").is_none(), "{plain}");
    let tests: Vec<&Value> = boot["paired"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["metric"] == "confidence.aurc")
        .collect();
    assert_eq!(tests.len(), 1);
    let t = tests[0];
    assert_eq!((&t["a"], &t["b"]), (&json!("ranked"), &json!("reversed")));
    // ranked − reversed < 0: a right value is never less confident than a
    // wrong one for `ranked`, so its AURC is the smallest possible.
    let aurc = |m: usize| r["models"][m]["confidence"]["aurc"].as_f64().unwrap();
    assert_eq!(t["difference"].as_f64().unwrap(), aurc(0) - aurc(1));
    assert!(aurc(0) < 0.1 && aurc(1) > 0.5, "{} {}", aurc(0), aurc(1));
    assert_eq!(r["models"][0]["confidence"]["auroc"], json!(1.0));
    assert_eq!(r["models"][1]["confidence"]["auroc"], json!(0.0));
    // Every resample keeps the order: p = 1/(B + 1); one pair, Holm = p.
    assert_eq!(t["p_value"], json!(1.0 / 201.0));
    assert_eq!(t["p_holm"], t["p_value"]);
    assert_eq!(t["significant"], json!(true));
    // The estimate lies in its interval, for every score of both models.
    for m in 0..2 {
        let c = &boot["models"][m]["confidence"];
        assert_eq!(c["resamples"], json!(200));
        for key in ["ece", "brier", "auroc", "aurc"] {
            let (e, low, high) = (
                c[key]["estimate"].as_f64().unwrap(),
                c[key]["low"].as_f64().unwrap(),
                c[key]["high"].as_f64().unwrap(),
            );
            assert!(low <= e && e <= high, "{m} {key}: {c}");
            assert_eq!(c[key]["estimate"], r["models"][m]["confidence"][key]);
        }
        // The ece and brier intervals have width: documents differ.
        assert!(c["ece"]["low"].as_f64() < c["ece"]["high"].as_f64());
    }
    // auroc is 1 (0) on every resample: a point interval.
    let auroc = &boot["models"][0]["confidence"]["auroc"];
    assert_eq!((&auroc["low"], &auroc["high"]), (&json!(1.0), &json!(1.0)));

    // Markdown: the confidence intervals' table after its caption, one
    // row per model with confidences (plain has none), † on the worse
    // AURC only.
    args.extend(["--format", "markdown"]);
    let md = eval(&args);
    let caption = "95 % bootstrap intervals of the confidence scores";
    let table: Vec<&str> = md[md.find(caption).expect("the caption")..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert_eq!(table.len(), 4, "{md}");
    assert_eq!(table[0], "| Model | ECE | Brier | AUROC | AURC |");
    assert!(table[2].starts_with("| ranked | ") && !table[2].contains('†'));
    assert!(table[3].starts_with("| reversed | ") && table[3].ends_with("] † |"));
    assert_eq!(table[3].matches('†').count(), 1, "{}", table[3]);
    // ranked's AUROC is 1 on every resample.
    assert!(
        table[2].contains(" | 1.0000 [1.0000, 1.0000] | "),
        "{}",
        table[2]
    );
    // LaTeX: the same table (after the headline one), its own label, the
    // mark after the estimate.
    let n = args.len();
    args[n - 1] = "latex";
    let tex = eval(&args);
    assert!(
        tex.contains("\\label{tab:fieldscope-bootstrap-confidence}"),
        "{tex}"
    );
    assert!(
        tex.contains("    Model & ECE & Brier & AUROC & AURC \\\\\n"),
        "{tex}"
    );
    let row = tex
        .lines()
        .rfind(|l| l.starts_with("    reversed & ") && l.contains("{\\footnotesize"))
        .unwrap();
    assert_eq!(row.matches("$^\\dagger$").count(), 1, "{row}");
    assert!(row.contains("$^\\dagger$~{\\footnotesize ["), "{row}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_seed_gives_the_same_intervals_and_another_seed_others() {
    let dir = scratch("seed");
    let base = ranked_and_reversed(&dir, 25);
    let run = |seed: &str| {
        let mut args = strings(&base);
        args.extend(["--bootstrap", "100", "--seed", seed]);
        eval(&args)
    };
    let (one, again, other) = (run("9"), run("9"), run("10"));
    assert!(one == again);
    let conf = |text: &str| {
        let r: Value = serde_json::from_str(text).unwrap();
        r["bootstrap"]["models"][0]["confidence"].clone()
    };
    assert_ne!(conf(&one)["ece"], conf(&other)["ece"]);
    assert_eq!(
        conf(&one)["ece"]["estimate"],
        conf(&other)["ece"]["estimate"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn jobs_and_merged_partials_give_the_same_bytes() {
    let dir = scratch("shards");
    let documents = 30;
    let base = ranked_and_reversed(&dir, documents);
    let extra = ["--bootstrap", "60", "--seed", "2"];
    for format in ["json", "markdown", "latex"] {
        let run = |jobs: &str| {
            let mut args = strings(&base);
            args.extend(extra);
            args.extend(["--format", format, "--jobs", jobs]);
            eval(&args)
        };
        let one = run("1");
        assert!(one == run("2"), "{format}: --jobs 2 differs");
    }
    // Shards of 12, 1 and 17 documents, each evaluated on its own against
    // what `learn` learnt from all.
    let lines = |name: &str| -> Vec<String> {
        std::fs::read_to_string(dir.join(format!("{name}.jsonl")))
            .unwrap()
            .lines()
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let cuts = [0, 12, 13, documents];
    let names = ["truth", "ranked", "reversed", "plain"];
    let learned = s(&dir.join("learned.cbor"));
    let mut learn = vec!["learn".to_string()];
    learn.extend(base.iter().cloned());
    learn.extend(["--out".to_string(), learned.clone()]);
    let (code, _, err) = fieldscope(&learn);
    assert_eq!(code, 0, "{err}");
    let mut partials = Vec::new();
    for k in 0..cuts.len() - 1 {
        let mut args = vec!["eval".to_string()];
        for name in names {
            let path = dir.join(format!("{name}{k}.jsonl"));
            std::fs::write(&path, lines(name)[cuts[k]..cuts[k + 1]].concat()).unwrap();
            if name == "truth" {
                args.extend(["--truth".to_string(), s(&path)]);
            } else {
                args.extend(["--pred".to_string(), format!("{name}={}", s(&path))]);
            }
        }
        let partial = s(&dir.join(format!("p{k}.cbor")));
        args.extend(["--learned", &learned, "--partial", &partial, "--details"].map(String::from));
        let (code, out, err) = fieldscope(&args);
        assert_eq!((code, out.as_str()), (0, ""), "{err}");
        partials.push(partial);
    }
    for format in ["json", "markdown"] {
        let mut single = strings(&base);
        single.extend(extra);
        single.extend(["--format", format]);
        let mut merge = vec!["merge"];
        merge.extend(partials.iter().map(String::as_str));
        merge.extend(extra);
        merge.extend(["--format", format]);
        let (code, merged, err) = fieldscope(&merge);
        assert_eq!(code, 0, "{err}");
        assert!(merged == eval(&single), "{format}: merged differs");
        if format == "json" {
            let r: Value = serde_json::from_str(&merged).unwrap();
            assert!(r["bootstrap"]["models"][0]["confidence"]["aurc"].is_object());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `fieldscope gate --no-regression confidence.*` (beyond `--require`'s
/// point values): the same resamples, a smaller ECE, Brier or AURC being
/// better.
#[test]
fn the_gate_checks_confidence_scores_for_regressions() {
    let dir = scratch("gate");
    let base = ranked_and_reversed(&dir, 40);
    let json = s(&dir.join("gate.json"));
    let gate = |baseline: &str, metrics: &str, extra: &[&str]| {
        let mut args = vec!["gate"];
        args.extend(strings(&base));
        args.extend([
            "--baseline",
            baseline,
            "--no-regression",
            metrics,
            "--resamples",
            "300",
            "--json",
            &json,
        ]);
        args.extend(extra);
        let (code, out, err) = fieldscope(&args);
        (code, out, err)
    };
    let metrics = "confidence.aurc,confidence.ece,confidence.brier,confidence.auroc";
    // plain has no confidences: named in a usage error.
    let (code, _, err) = gate("ranked", metrics, &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--no-regression `confidence.aurc`: model \"plain\" has no confidences"),
        "{err}"
    );
    // Without plain: reversed regresses on all four against ranked.
    let base: Vec<String> = base[..base.len() - 2].to_vec();
    let gate = |baseline: &str| {
        let mut args = vec!["gate"];
        args.extend(strings(&base));
        args.extend([
            "--baseline",
            baseline,
            "--no-regression",
            metrics,
            "--resamples",
            "300",
            "--require",
            "confidence.ece <= 0.9",
            "--json",
            &json,
        ]);
        let (code, _, err) = fieldscope(&args);
        let r: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        (code, err, r)
    };
    let (code, err, r) = gate("ranked");
    assert_eq!(code, 1, "{err}");
    let checks: Vec<&Value> = r["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "no_regression")
        .collect();
    assert_eq!(checks.len(), 4);
    for c in &checks {
        assert_eq!(c["model"], "reversed");
        assert_eq!(c["passed"], json!(false), "{c}");
        assert!(c["drop"].as_f64().unwrap() > 0.0, "{c}");
        let lower = c["metric"] != "confidence.auroc";
        assert_eq!(c["lower_is_better"], json!(lower), "{c}");
        // Every resample keeps the order: p = 1/301, Holm over four.
        assert_eq!(c["p_value"], json!(1.0 / 301.0), "{c}");
        assert_eq!(c["p_holm"], json!(4.0 / 301.0), "{c}");
    }
    // The threshold (on every model but the baseline) carries the
    // bootstrap's interval: the same seed (1) and resamples.
    let mut eval_args = strings(&base);
    eval_args.extend(["--bootstrap", "300"]);
    let e: Value = serde_json::from_str(&eval(&eval_args)).unwrap();
    let ece = &e["bootstrap"]["models"][1]["confidence"]["ece"];
    let check = r["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "require")
        .unwrap();
    assert_eq!(check["model"], "reversed");
    assert_eq!(check["value"], ece["estimate"]);
    assert_eq!(check["interval"]["low"], ece["low"]);
    assert_eq!(check["interval"]["high"], ece["high"]);
    // The other way round, ranked is better on all four: it passes.
    let (code, err, r) = gate("reversed");
    assert_eq!(code, 0, "{err}");
    assert!(r["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "no_regression")
        .all(|c| c["passed"] == json!(true) && c["drop"].as_f64().unwrap() < 0.0));
    let _ = std::fs::remove_dir_all(&dir);
}
