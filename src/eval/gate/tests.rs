//! The gate's unit tests: thresholds, no-regression checks and their verdicts.

use super::*;
use crate::eval::{evaluate, EvalInput, ModelInput, Record, RecordFile};
use serde_json::{json, Value};

fn file(name: &str, values: Vec<Value>) -> RecordFile {
    RecordFile {
        name: name.into(),
        records: values
            .into_iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Object(map) => Record::new(i, map),
                _ => unreachable!("test records are objects"),
            })
            .collect(),
    }
}

/// Ten documents of three string fields `a`, `b`, `c`; the truth is
/// `x`. The baseline is right on `a` and `b` and wrong on `c`; the
/// candidate's fields are right (`x`) or wrong (`y`) as `wrong` says.
fn family(wrong: [bool; 3]) -> Report {
    let doc = |i: usize, w: [bool; 3]| {
        let v = |bad: bool| if bad { "yyyyy" } else { "xxxxx" };
        json!({"id": format!("d{i}"), "a": v(w[0]), "b": v(w[1]), "c": v(w[2])})
    };
    let truth = (0..10).map(|i| doc(i, [false; 3])).collect();
    let base = (0..10).map(|i| doc(i, [false, false, true])).collect();
    let cand = (0..10).map(|i| doc(i, wrong)).collect();
    let input = EvalInput {
        truth: file("truth.json", truth),
        models: vec![
            ModelInput::new("base", file("base.json", base)),
            ModelInput::new("cand", file("cand.json", cand)),
        ],
        schema: None,
        schemas: Vec::new(),
    };
    evaluate(&input, &Config::default(), true).unwrap()
}

fn gate(report: &Report, alpha: f64, min_drop: f64) -> GateReport {
    let spec = GateSpec {
        baseline: Some("base".into()),
        no_regression: Some(vec![MetricPath::parse("fields[*].f1").unwrap()]),
        ..GateSpec::default()
    };
    let options = GateOptions {
        resamples: 19,
        alpha,
        min_drop,
        ..GateOptions::default()
    };
    run_gate(report, &Config::default(), &spec, &options).unwrap()
}

fn column(r: &GateReport, get: fn(&Check) -> Option<f64>) -> Vec<f64> {
    r.checks.iter().map(|c| get(c).unwrap()).collect()
}

#[test]
fn one_sided_p_by_hand() {
    // d = 0.3: resamples with d_b − 0.3 ≥ 0.3 are 0.6 and 0.9: (1 + 2)/(4 + 1).
    assert_eq!(one_sided_p(0.3, &[0.6, 0.59, 0.3, 0.9]), 0.6);
    // No drop observed (equal or better): p = 1.
    assert_eq!(one_sided_p(0.0, &[0.5, -0.5]), 1.0);
    assert_eq!(one_sided_p(-0.2, &[0.5]), 1.0);
}

#[test]
fn holm_over_a_candidates_checks_by_hand() {
    // Candidate wrong on `a` everywhere, like the baseline on `b`,
    // right on `c` (the baseline is wrong there): field F1 of a drops
    // 1 → 0 on every resample, so no resample has d_b − 1 ≥ 1 and
    // p = 1/(19 + 1) = 0.05; b: d = 0, p = 1; c: better, p = 1.
    let r = family([true, false, false]);
    let g = gate(&r, 0.2, 0.0);
    let metrics: Vec<&str> = g.checks.iter().map(|c| c.metric.as_str()).collect();
    assert_eq!(metrics, ["fields[a].f1", "fields[b].f1", "fields[c].f1"]);
    assert_eq!(column(&g, |c| c.p_value), [0.05, 1.0, 1.0]);
    assert_eq!(column(&g, |c| c.difference), [-1.0, 0.0, 1.0]);
    // Holm, m = 3: sorted 0.05, 1, 1 → 3·0.05, 2·1 → 1, 1·1.
    let holm = column(&g, |c| c.p_holm);
    assert!((holm[0] - 0.15).abs() < 1e-15, "{holm:?}");
    assert_eq!(&holm[1..], [1.0, 1.0]);
    // 0.15 ≤ 0.2 and a drop of 1 > 0: only `a` fails.
    assert_eq!(
        g.checks.iter().map(|c| c.passed).collect::<Vec<_>>(),
        [false, true, true]
    );
    assert!(!g.passed && g.checks_failed == 1);
    // 0.15 > 0.1: nothing fails; nor with a minimum drop of 1 (1 > 1 is false).
    assert!(gate(&r, 0.1, 0.0).passed);
    assert!(gate(&r, 0.2, 1.0).passed);
    // Interval of the difference: −1 on every resample.
    let i = g.checks[0].interval.unwrap();
    assert_eq!((i.low, i.high), (-1.0, -1.0));
    // With 19 resamples and 3 checks the smallest adjusted p, 3/20, is
    // above alpha 0.1: a warning says so.
    let w = gate(&r, 0.1, 0.0).warnings;
    assert!(w.iter().any(|w| w.contains("3/20 > alpha 0.1")), "{w:?}");

    // Wrong on a and b: p = 0.05, 0.05, 1 → 3·0.05 = 0.15, max(0.15,
    // 2·0.05) = 0.15, 1.
    let g = gate(&family([true, true, false]), 0.2, 0.0);
    let holm = column(&g, |c| c.p_holm);
    assert!((holm[0] - 0.15).abs() < 1e-15 && (holm[1] - 0.15).abs() < 1e-15);
    assert_eq!(holm[2], 1.0);
    assert_eq!(g.checks_failed, 2);
}

#[test]
fn stepping_in_slices_gives_the_same_report() {
    let r = family([true, false, false]);
    let spec = GateSpec {
        requirements: vec![Requirement::parse("micro.f1 >= 0.5").unwrap()],
        baseline: Some("base".into()),
        no_regression: None,
    };
    let options = GateOptions {
        resamples: 50,
        ..GateOptions::default()
    };
    let config = Config::default();
    let once = run_gate(&r, &config, &spec, &options).unwrap();
    let mut run = GateRun::new(&r, &config, &spec, &options).unwrap();
    assert_eq!((run.done(), run.resamples()), (0, 50));
    assert_eq!(run.step(7), 7);
    assert_eq!(run.step(30), 37);
    assert_eq!(run.step(100), 50);
    assert_eq!(run.finish().unwrap(), once);
    // micro.f1 >= 0.5 on the candidate only (not the baseline), with
    // its interval; then the candidate's five no-regression checks.
    assert_eq!(once.checks.len(), 1 + 5);
    assert_eq!(once.checks[0].kind, CheckKind::Require);
    assert!(once.checks[0].interval.is_some());
}

#[test]
fn usage_errors_name_what_is_wrong() {
    let r = family([false; 3]);
    let run = |spec: GateSpec| {
        run_gate(&r, &Config::default(), &spec, &GateOptions::default()).unwrap_err()
    };
    let e = run(GateSpec::default());
    assert!(e.message.contains("nothing to check"), "{e}");
    let e = run(GateSpec {
        baseline: Some("nope".into()),
        ..GateSpec::default()
    });
    assert!(e.message.contains("no model is named \"nope\""), "{e}");
    let e = run(GateSpec {
        requirements: vec![Requirement::parse("fields[d].f1 >= 0.5").unwrap()],
        ..GateSpec::default()
    });
    assert!(e.message.contains("no field `d`"), "{e}");
    let e = run(GateSpec {
        baseline: Some("base".into()),
        no_regression: Some(vec![MetricPath::parse("cer").unwrap()]),
        ..GateSpec::default()
    });
    assert!(e.message.contains("--no-regression `cer`"), "{e}");
    let e = run(GateSpec {
        baseline: Some("base".into()),
        no_regression: Some(vec![MetricPath::parse("items.f1").unwrap()]),
        ..GateSpec::default()
    });
    assert!(e.message.contains("has no line items"), "{e}");
    assert!(r.models.iter().all(|m| m.items.is_none()));
}
