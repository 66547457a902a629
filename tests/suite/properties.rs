//! Property tests: invariants that hold for any data.
//!
//! * shuffling documents, prediction records or models never changes a score;
//! * every ratio lies in [0, 1] (CER excepted);
//! * the per-field counts add up to the model's counts;
//! * |Truth|, |Pred| and M_total follow from the counts.

use super::common::records;
use fieldscope::eval::rates::{ABSTENTION_RATE, HALLUCINATION_RATE};
use fieldscope::eval::{evaluate, Config, EvalInput, ModelInput, ModelReport, Preset, Report};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(null)),
        Just(json!("NOT_FOUND")),
        Just(json!("n/a")),
        Just(json!("")),
        Just(json!("ACME Corp")),
        Just(json!("acme corp.")),
        Just(json!("Müller GmbH")),
        Just(json!("Mu\u{0308}ller GmbH")),
        Just(json!("𝔸cme")),
        Just(json!(1500)),
        Just(json!("1.500,00 €")),
        Just(json!(12.5)),
        Just(json!("2025-01-15")),
        Just(json!("15.01.2025")),
        Just(json!(true)),
    ]
}

fn codes() -> impl Strategy<Value = Value> {
    prop::collection::vec(
        prop_oneof![Just("A1"), Just("B2"), Just("c3"), Just("C3")],
        0..4,
    )
    .prop_map(|v| json!(v))
}

fn items() -> impl Strategy<Value = Value> {
    prop::collection::vec(
        (
            prop_oneof![
                Just("Widget"),
                Just("widget"),
                Just("Gadget"),
                Just("Gizmo")
            ],
            0u8..4,
            prop_oneof![Just(json!(1)), Just(json!("2")), Just(json!(null))],
        ),
        0..4,
    )
    .prop_map(|v| {
        json!(v
            .into_iter()
            .map(|(d, q, p)| json!({"desc": d, "qty": q, "price": p}))
            .collect::<Vec<_>>())
    })
}

fn record(id: usize) -> impl Strategy<Value = Value> {
    (
        scalar(),
        scalar(),
        scalar(),
        codes(),
        items(),
        any::<bool>(),
    )
        .prop_map(move |(a, b, c, k, it, has_vendor)| {
            let mut m = Map::new();
            m.insert("id".into(), json!(format!("d{id}")));
            m.insert("a".into(), a);
            m.insert("total".into(), b);
            if has_vendor {
                m.insert("vendor".into(), json!({"name": c}));
            }
            m.insert("codes".into(), k);
            m.insert("items".into(), it);
            Value::Object(m)
        })
}

fn dataset() -> impl Strategy<Value = (Vec<Value>, Vec<Value>, Vec<Value>)> {
    (1usize..6).prop_flat_map(|n| {
        let docs = |n: usize| (0..n).map(record).collect::<Vec<_>>();
        (docs(n), docs(n), docs(n))
    })
}

fn run(truth: &[Value], models: &[(&str, &[Value])], config: &Config) -> Report {
    let input = EvalInput {
        truth: records("truth.json", truth.to_vec()),
        models: models
            .iter()
            .map(|(name, p)| ModelInput::new(*name, records(&format!("{name}.json"), p.to_vec())))
            .collect(),
        schema: None,
        schemas: Vec::new(),
    };
    evaluate(&input, config, false).expect("evaluation succeeds")
}

fn ratios(m: &ModelReport) -> Vec<(String, f64)> {
    let mut v = vec![
        ("micro.precision".to_string(), m.micro.precision),
        ("micro.recall".into(), m.micro.recall),
        ("micro.f1".into(), m.micro.f1),
        ("micro.accuracy".into(), m.micro.accuracy),
        (
            "macro_documents.precision".into(),
            m.macro_documents.precision,
        ),
        ("macro_documents.recall".into(), m.macro_documents.recall),
        ("macro_documents.f1".into(), m.macro_documents.f1),
        (
            "macro_documents.accuracy".into(),
            m.macro_documents.accuracy,
        ),
        ("macro_fields.precision".into(), m.macro_fields.precision),
        ("macro_fields.recall".into(), m.macro_fields.recall),
        ("macro_fields.f1".into(), m.macro_fields.f1),
        ("macro_fields.accuracy".into(), m.macro_fields.accuracy),
        ("partial.precision".into(), m.partial.precision),
        ("partial.recall".into(), m.partial.recall),
        ("partial.f1".into(), m.partial.f1),
        ("hallucination_rate".into(), HALLUCINATION_RATE.value(m)),
        ("abstention_rate".into(), ABSTENTION_RATE.value(m)),
        ("schema_validity_rate".into(), m.schema_validity_rate),
        ("exact_match_rate".into(), m.exact_match_rate),
        (
            "document_extraction_score".into(),
            m.document_extraction_score,
        ),
    ];
    if let Some(np) = m.numeric_precision {
        v.push(("numeric_precision".into(), np));
    }
    for f in &m.fields {
        v.push((format!("{}.precision", f.field), f.precision));
        v.push((format!("{}.recall", f.field), f.recall));
        v.push((format!("{}.f1", f.field), f.f1));
        v.push((format!("{}.accuracy", f.field), f.accuracy));
    }
    for (path, s) in &m.sets {
        for (k, x) in [
            ("precision", s.precision),
            ("recall", s.recall),
            ("f1", s.f1),
            ("accuracy", s.accuracy),
            ("legacy", s.legacy_accuracy),
        ] {
            v.push((format!("{path}.{k}"), x));
        }
        for (k, h) in &s.hit_at_k {
            v.push((format!("{path}.hit@{k}"), *h));
        }
    }
    if let Some(i) = &m.items {
        for (k, x) in [
            ("precision", i.precision),
            ("recall", i.recall),
            ("f1", i.f1),
            ("count_acc", i.item_count_accuracy),
            ("count_match", i.item_count_match_rate),
        ] {
            v.push((format!("items.{k}"), x));
        }
    }
    v
}

/// The model-level numbers, compared with a tolerance because summing in
/// another order may change the last bit.
fn assert_same_scores(a: &ModelReport, b: &ModelReport) {
    assert_eq!(a.counts, b.counts);
    assert_eq!(a.fields.len(), b.fields.len());
    for ((ka, va), (kb, vb)) in ratios(a).iter().zip(ratios(b).iter()) {
        assert_eq!(ka, kb);
        assert!((va - vb).abs() < 1e-9, "{ka}: {va} vs {vb}");
    }
    assert_eq!(a.cer.is_some(), b.cer.is_some());
    if let (Some(x), Some(y)) = (a.cer, b.cer) {
        assert!((x - y).abs() < 1e-9);
    }
}

fn configs() -> impl Strategy<Value = Config> {
    (prop::sample::select(Preset::ALL.to_vec()), any::<bool>()).prop_map(|(p, zd)| {
        let mut c = Config::preset(p);
        if zd {
            c.zero_division = 1.0;
        }
        c
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn shuffling_documents_records_and_models_changes_nothing(
        (truth, p1, p2) in dataset(),
        config in configs(),
        seed in any::<u64>(),
    ) {
        let base = run(&truth, &[("one", &p1), ("two", &p2)], &config);
        let mut rng = fastrand_like(seed);
        let mut t2 = truth.clone();
        let mut q1 = p1.clone();
        let mut q2 = p2.clone();
        shuffle(&mut t2, &mut rng);
        shuffle(&mut q1, &mut rng);
        shuffle(&mut q2, &mut rng);
        let shuffled = run(&t2, &[("two", &q2), ("one", &q1)], &config);
        assert_same_scores(&base.models[0], &shuffled.models[1]);
        assert_same_scores(&base.models[1], &shuffled.models[0]);
    }

    #[test]
    fn ratios_lie_in_the_unit_interval_and_counts_add_up(
        (truth, p1, _) in dataset(),
        config in configs(),
    ) {
        let r = run(&truth, &[("m", &p1)], &config);
        let m = &r.models[0];
        for (name, v) in ratios(m) {
            prop_assert!((0.0..=1.0).contains(&v), "{} = {}", name, v);
        }
        let summed: fieldscope::eval::Counts = m.fields.iter().map(|f| f.counts).sum();
        prop_assert_eq!(summed, m.counts);
        prop_assert_eq!(m.truth_count, m.counts.exact + m.counts.partial + m.counts.incorrect + m.counts.missed);
        prop_assert_eq!(m.pred_count, m.counts.exact + m.counts.partial + m.counts.incorrect + m.counts.spurious);
        prop_assert!((m.m_total - (m.counts.exact as f64 + 0.5 * m.counts.partial as f64)).abs() < 1e-12);
        if let Some(cer) = m.cer {
            prop_assert!(cer >= 0.0);
        }
    }

    #[test]
    fn a_model_that_copies_the_truth_is_perfect((truth, _, _) in dataset()) {
        let r = run(&truth, &[("copy", &truth)], &Config::default());
        let m = &r.models[0];
        prop_assert_eq!(m.counts.partial + m.counts.incorrect + m.counts.missed + m.counts.spurious, 0);
        prop_assert_eq!(m.exact_match_rate, 1.0);
        prop_assert_eq!(m.macro_documents.precision, 1.0);
        if let Some(cer) = m.cer {
            prop_assert_eq!(cer, 0.0);
        }
    }
}

/// A tiny deterministic generator for the shuffles (seeded by proptest).
fn fastrand_like(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed | 1;
    move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    }
}

fn shuffle<T>(v: &mut [T], rng: &mut impl FnMut(usize) -> usize) {
    for i in (1..v.len()).rev() {
        let j = rng(i + 1);
        v.swap(i, j);
    }
}
