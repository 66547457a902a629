//! The Confidence panel's state: the slider, typed thresholds, the model
//! chosen for the download, the readings and sentences, on the hand-worked
//! dataset of `tests/suite/confidence.rs` and on the built-in example.

use super::*;
use crate::eval::{self, Config, EvalInput, ModelInput};

const TRUTH: &str = r#"{"id": "d1", "total": "10.00", "date": "2024-01-05", "items": [{"desc": "pen", "amount": 2}, {"desc": "ink", "amount": 5}]}
{"id": "d2", "total": "7.50", "date": "2024-02-01", "items": []}
{"id": "d3", "total": "3.00", "date": null, "items": [{"desc": "cap", "amount": 1}]}
"#;

const PRED: &str = r#"{"id": "d1", "total": {"_value": "10.00", "_confidence": 0.9, "_page": 1}, "date": {"_value": "March", "_confidence": 0.8}, "items": {"_value": [{"desc": "pen", "amount": 2}, {"desc": "ink", "amount": {"_value": 6, "_confidence": 0.3}}], "_confidence": 0.6}}
{"id": "d2", "total": "7.50", "date": "2024-02-01", "_confidence": {"total": 0.95, "date": 0.4}}
{"id": "d3", "total": "3.00", "date": null, "_confidence": 0.99}
"#;

/// Model "plain" has no confidence, "m" the hand-worked pairs, and
/// "m<script>" the same pairs under a hostile name.
fn hand() -> Report {
    let truth = crate::io::parse_records("truth.jsonl", TRUTH.as_bytes()).unwrap();
    let pred = |name: &str| crate::io::parse_records(name, PRED.as_bytes()).unwrap();
    let plain = crate::io::parse_records("plain.jsonl", TRUTH.as_bytes()).unwrap();
    let input = EvalInput {
        truth,
        models: vec![
            ModelInput::new("plain", plain),
            ModelInput::new("m", pred("m.jsonl")),
            ModelInput::new("m<script>", pred("x.jsonl")),
        ],
        schema: None,
        schemas: Vec::new(),
    };
    eval::evaluate(&input, &Config::default(), false).unwrap()
}

fn slide(panel: &mut ConfidencePanel, report: &Report, value: &str) {
    panel.update(report, Message::Slide(value.into()));
}

#[test]
fn starts_at_the_configured_straight_through_threshold_on_the_first_model_with_confidences() {
    let report = hand();
    let panel = ConfidencePanel::new(&report);
    assert_eq!(panel.step(), 95);
    assert_eq!(panel.threshold(), 0.95);
    assert_eq!(panel.model(), 1);
    assert!(!panel.edited());
    // The readings at 0.95 are the report's straight-through documents.
    let r = &panel.readings(&report)[0];
    let st = &report.models[1]
        .confidence
        .as_ref()
        .unwrap()
        .straight_through;
    assert_eq!((r.documents, st.documents), (1, 1));
}

/// At τ = 0.6: 8 of 10 values accepted, 7 right; d3 alone goes through
/// (its lowest confidence 0.99), and it is wrong (its truth item missed).
#[test]
fn the_readings_at_0_60_are_the_hand_worked_numbers() {
    let report = hand();
    let mut panel = ConfidencePanel::new(&report);
    slide(&mut panel, &report, "0.6");
    assert_eq!(panel.step(), 60);
    let readings = panel.readings(&report);
    // Only the models with confidences.
    assert_eq!(
        readings.iter().map(|r| r.name).collect::<Vec<_>>(),
        ["m", "m<script>"]
    );
    let r = &readings[0];
    assert_eq!(
        (r.threshold, r.pairs, r.accepted, r.correct),
        (0.6, 10, 8, 7)
    );
    assert_eq!((r.documents, r.documents_right, r.all_documents), (1, 0, 3));
    assert_eq!(r.approved(), Some(0.8));
    assert_eq!(r.accuracy(), Some(0.875));
    assert_eq!(r.errors_per_1000(), Some(100.0));
    assert_eq!(r.straight_through(), Some(1.0 / 3.0));
    // Mean confidence 0.713 against accuracy 0.8: within 0.1 but not 0.05.
    assert_eq!(r.calibration, Calibration::Underconfident);
    assert_eq!(
        r.sentence(),
        "At confidence ≥ 0.60, m is right 88 % of the time (7 of 8 values approved); over all its 10 values it is underconfident (mean confidence 0.71 against accuracy 0.80)."
    );
}

#[test]
fn the_slider_takes_hundredths_and_ignores_what_is_not_a_threshold() {
    let report = hand();
    let mut panel = ConfidencePanel::new(&report);
    for (text, step) in [
        ("0", 0),
        ("1", 100),
        ("0.333", 33),
        ("0.005", 1),
        (" 0.42 ", 42),
        ("-0.1", 42),
        ("1.01", 42),
        ("NaN", 42),
        ("inf", 42),
        ("", 42),
        ("x", 42),
    ] {
        slide(&mut panel, &report, text);
        assert_eq!(panel.step(), step, "{text:?}");
    }
    // At 1: nothing accepted, no accuracy, no errors let through.
    slide(&mut panel, &report, "1");
    let r = &panel.readings(&report)[0];
    assert_eq!(
        (r.accepted, r.accuracy(), r.errors_per_1000()),
        (0, None, Some(0.0))
    );
    assert_eq!(
        r.sentence(),
        "At confidence ≥ 1.00, m approves none of its values; over all its 10 values it is underconfident (mean confidence 0.71 against accuracy 0.80)."
    );
    // At 0: everything.
    slide(&mut panel, &report, "0");
    let r = &panel.readings(&report)[0];
    assert_eq!(
        (r.accepted, r.correct, r.documents, r.documents_right),
        (10, 8, 3, 1)
    );
    assert_eq!(r.errors_per_1000(), Some(200.0));
}

#[test]
fn typed_thresholds_go_into_the_config_of_the_chosen_model() {
    let report = hand();
    let mut panel = ConfidencePanel::new(&report);
    // No field reaches min_pairs: nothing recommended, every input empty.
    let rows = panel.field_rows(&report);
    assert_eq!(rows.len(), 8);
    assert!(rows.iter().all(|r| r.text.is_empty() && !r.edited));
    assert_eq!(
        panel.thresholds_config(&report).unwrap(),
        "{\n  \"confidence\": {\n    \"field_thresholds\": {}\n  }\n}\n"
    );
    let edit = |model: usize, path: &str, text: &str| Message::Edit {
        model,
        path: path.into(),
        text: text.into(),
    };
    panel.update(&report, edit(1, "total", "0.9"));
    panel.update(&report, edit(1, "items[].amount", " 0.35 "));
    panel.update(&report, edit(2, "date", "0.5"));
    // A field or model the report does not have is not taken.
    panel.update(&report, edit(1, "nowhere", "0.5"));
    panel.update(&report, edit(0, "total", "0.5"));
    panel.update(&report, edit(9, "total", "0.5"));
    assert!(panel.edited());
    let config: serde_json::Value =
        serde_json::from_str(&panel.thresholds_config(&report).unwrap()).unwrap();
    assert_eq!(
        config,
        serde_json::json!({"confidence": {"field_thresholds": {"items[].amount": 0.35, "total": 0.9}}})
    );
    // The config reads as a metrics config.
    crate::eval::ConfigBuilder::new()
        .layer(&config)
        .unwrap()
        .build()
        .unwrap();
    // The other model's.
    panel.update(&report, Message::Choose("2".into()));
    assert_eq!(panel.model(), 2);
    let config: serde_json::Value =
        serde_json::from_str(&panel.thresholds_config(&report).unwrap()).unwrap();
    assert_eq!(
        config["confidence"]["field_thresholds"],
        serde_json::json!({"date": 0.5})
    );
    // A model without confidences, or none at all, is not chosen.
    for text in ["0", "7", "x", ""] {
        panel.update(&report, Message::Choose(text.into()));
        assert_eq!(panel.model(), 2, "{text:?}");
    }
    // A threshold that does not read names its field.
    panel.update(&report, edit(2, "total", "95"));
    assert_eq!(
        panel.thresholds_config(&report),
        Err("The threshold of total (95) is not usable: a threshold is between 0 and 1.".into())
    );
    panel.update(&report, edit(2, "total", "high"));
    assert!(panel
        .thresholds_config(&report)
        .unwrap_err()
        .ends_with("not a number."));
    // Emptied, the field is left out.
    panel.update(&report, edit(2, "total", "  "));
    assert!(panel.thresholds_config(&report).is_ok());
    panel.update(&report, Message::Reset);
    assert!(!panel.edited());
}

#[test]
fn thresholds_read_as_numbers_in_0_1() {
    assert_eq!(parse_threshold(""), Ok(None));
    assert_eq!(parse_threshold(" 0.9 "), Ok(Some(0.9)));
    assert_eq!(parse_threshold("0"), Ok(Some(0.0)));
    assert_eq!(parse_threshold("1"), Ok(Some(1.0)));
    assert_eq!(parse_threshold("1e-1"), Ok(Some(0.1)));
    for bad in ["1.5", "-0", "-0.1", "NaN", "inf", "90 %", "0,9"] {
        let r = parse_threshold(bad);
        // -0 is 0 in [0, 1]; everything else is refused.
        if bad == "-0" {
            assert_eq!(r, Ok(Some(-0.0)));
        } else {
            assert!(r.is_err(), "{bad:?}");
        }
    }
}

/// Accepted values each claim at least τ: an accuracy more than 0.05
/// below τ makes them overconfident whatever the model is overall.
#[test]
fn overconfident_at_a_threshold_when_accuracy_falls_more_than_0_05_below_it() {
    let report = hand();
    let mut panel = ConfidencePanel::new(&report);
    slide(&mut panel, &report, "0.9");
    let mut r = panel.readings(&report)[0].clone();
    assert_eq!((r.accepted, r.correct), (4, 4));
    assert!(!r.overconfident_here());
    for (correct, here) in [(3, true), (4, false)] {
        // 580 approved at 0.90: 0.85 (493) is exactly the margin below.
        r.accepted = 580;
        r.correct = correct * 580 / 4;
        assert_eq!(r.overconfident_here(), here, "{correct}");
    }
    r.correct = 493;
    assert!(!r.overconfident_here());
    r.correct = 492;
    assert!(r.overconfident_here());
    r.correct = 412;
    r.pairs = 2250;
    r.mean_confidence = 0.92;
    r.accuracy_overall = 0.79;
    r.calibration = Calibration::Overconfident;
    r.name = "aggressive";
    assert_eq!(
        r.sentence(),
        "At confidence ≥ 0.90, aggressive is right 71 % of the time (412 of 580 values approved): overconfident there, as every value approved claims at least 0.90; over all its 2250 values it is overconfident (mean confidence 0.92 against accuracy 0.79)."
    );
    // One value.
    (r.accepted, r.correct, r.pairs) = (1, 0, 1);
    assert_eq!(
        r.sentence(),
        "At confidence ≥ 0.90, aggressive is right 0 % of the time (0 of 1 value approved): overconfident there, as every value approved claims at least 0.90; over all its 1 value it is overconfident (mean confidence 0.92 against accuracy 0.79)."
    );
    // Nothing approved: nothing to say at the threshold.
    r.accepted = 0;
    r.correct = 0;
    assert!(!r.overconfident_here());
}

#[test]
fn whole_percent_never_rounds_to_all_or_nothing() {
    assert_eq!(whole_percent(71, 100), "71 %");
    assert_eq!(whole_percent(7, 8), "88 %");
    assert_eq!(whole_percent(8, 8), "100 %");
    assert_eq!(whole_percent(0, 8), "0 %");
    assert_eq!(whole_percent(996, 1000), "99.6 %");
    assert_eq!(whole_percent(4, 1000), "0.4 %");
    assert_eq!(whole_percent(0, 0), "—");
}

#[test]
fn calibration_is_mean_confidence_against_accuracy_with_a_margin_of_0_05() {
    let mut c = hand().models[1].confidence.clone().unwrap();
    for (mean, acc, word) in [
        (0.93, 0.71, "overconfident"),
        (0.80, 0.80, "calibrated"),
        (0.85, 0.80, "calibrated"),
        (0.75, 0.80, "calibrated"),
        (0.55, 0.50, "calibrated"),
        (0.86, 0.80, "overconfident"),
        (0.70, 0.80, "underconfident"),
    ] {
        c.mean_confidence = mean;
        c.accuracy = acc;
        assert_eq!(Calibration::of(&c).word(), word, "{mean} vs {acc}");
    }
}

/// The example carries confidences for all three models: good calibrated,
/// aggressive overconfident; conservative on its top-level fields only.
#[test]
fn the_example_shows_the_panel() {
    let report = crate::session::Session::example()
        .evaluate_with(false)
        .unwrap();
    let mut panel = ConfidencePanel::new(&report);
    slide(&mut panel, &report, "0.9");
    let readings = panel.readings(&report);
    let words: Vec<(&str, &str)> = readings
        .iter()
        .map(|r| (r.name, r.calibration.word()))
        .collect();
    assert_eq!(readings.len(), 3, "{words:?}");
    let word = |name: &str| words.iter().find(|w| w.0 == name).map(|w| w.1);
    assert_eq!(word("good"), Some("calibrated"));
    assert_eq!(word("aggressive"), Some("overconfident"));
    for r in &readings {
        assert!(r.accepted <= r.pairs && r.correct <= r.accepted);
        assert!(r.documents_right <= r.documents && r.documents <= r.all_documents);
    }
    // Some field has enough pairs for a recommended threshold, which the
    // config writes as it is.
    let rows = panel.field_rows(&report);
    let recommended: Vec<_> = rows.iter().filter(|r| !r.text.is_empty()).collect();
    assert!(!recommended.is_empty());
    for r in &recommended {
        assert_eq!(r.threshold().unwrap(), r.field.recommended_threshold);
    }
}
