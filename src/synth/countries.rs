//! The vendor's country as a top-level truth key, and a model that is
//! weak on one country (SPEC §9.2's slices have something to find).
//!
//! Owns: [`SynthOptions::vendor_country`]'s two effects, both after the
//! parent has made its records, so that every other value of the data is
//! the one made without them (the parent's streams draw nothing more):
//! the truth's `vendor_country` (the ISO 3166 code of the vendor's
//! country, right after `currency`), and [`WEAK_MODEL`]'s extra errors on
//! [`WEAK_COUNTRY`]'s invoices, drawn from a stream of their own: each of
//! [`WEAKENED`] that the prediction has is replaced, with probability
//! [`WEAK_RATE`], by an invented code (`AB-1234`), which no comparison
//! takes for the truth. A record written as raw model text is left as it
//! is. The models do not predict `vendor_country`: it is for slicing
//! (put it in `ignored_fields`, as SPEC §9.2 suggests).
//!
//! [`SynthOptions::vendor_country`]: super::SynthOptions::vendor_country

use super::random::{fill, stream_seed};
use super::tables::{Country, COUNTRIES};
use fastrand::Rng;
use serde_json::{Map, Value};

/// The truth key.
pub const KEY: &str = "vendor_country";
/// The model with a weakness, and where.
pub const WEAK_MODEL: &str = "good";
pub const WEAK_COUNTRY: &str = "DE";
/// The top-level fields the weak model gets wrong there.
pub const WEAKENED: [&str; 5] = [
    "invoice_number",
    "invoice_date",
    "total",
    "tax",
    "payment_terms",
];
/// How often each of them is wrong there.
pub const WEAK_RATE: f64 = 0.6;

/// The ISO 3166 code of each of the parent's countries, in their order.
const CODES: [&str; 7] = ["DE", "FR", "DK", "JP", "US", "GB", "SE"];

/// The code of `country` (one of the parent's [`COUNTRIES`]).
pub(super) fn code(country: &Country) -> &'static str {
    COUNTRIES
        .iter()
        .position(|c| std::ptr::eq(c, country))
        .and_then(|i| CODES.get(i))
        .copied()
        .unwrap_or("XX")
}

/// The truth record with `vendor_country` inserted after `currency`.
pub(super) fn with_country(record: Value, country: &Country) -> Value {
    let Value::Object(map) = record else {
        return record;
    };
    let mut out = Map::with_capacity(map.len() + 1);
    for (k, v) in map {
        let after = k == "currency";
        out.insert(k, v);
        if after {
            out.insert(KEY.into(), Value::String(code(country).into()));
        }
    }
    Value::Object(out)
}

/// The stream of [`weaken`]'s draws for `model` (none but [`WEAK_MODEL`]).
pub(super) fn weak_stream(seed: u64, model: &str) -> Option<Rng> {
    (model == WEAK_MODEL).then(|| Rng::with_seed(stream_seed(seed, &format!("weak:{model}"))))
}

/// [`WEAK_MODEL`]'s extra errors on an invoice of [`WEAK_COUNTRY`].
pub(super) fn weaken(rng: &mut Rng, country: &Country, record: &mut Value) {
    if code(country) != WEAK_COUNTRY {
        return;
    }
    let Value::Object(map) = record else {
        return;
    };
    for key in WEAKENED {
        let wrong = rng.f64() < WEAK_RATE;
        let invented = fill(rng, "AA-9999");
        if let Some(v) = map.get_mut(key) {
            if wrong && (v.is_string() || v.is_number()) {
                *v = Value::String(invented);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{evaluate, Config, EvalInput, ModelInput};
    use crate::synth::{generate, SynthOptions};
    use serde_json::json;

    fn lines(text: &str) -> Vec<Value> {
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn the_key_and_the_weakness_change_nothing_else() {
        let plain = generate(&SynthOptions {
            documents: 200,
            seed: 5,
            ..SynthOptions::default()
        });
        let sliced = generate(&SynthOptions {
            documents: 200,
            seed: 5,
            vendor_country: true,
            ..SynthOptions::default()
        });
        let (a, b) = (lines(&plain.truth_jsonl), lines(&sliced.truth_jsonl));
        let mut german = Vec::new();
        for (x, mut y) in a.into_iter().zip(b) {
            let code = y[KEY].as_str().unwrap().to_string();
            assert!(CODES.contains(&code.as_str()));
            // Right after `currency`.
            let keys: Vec<&String> = y.as_object().unwrap().keys().collect();
            let at = keys.iter().position(|k| *k == "currency").unwrap();
            assert_eq!(keys[at + 1], KEY);
            y.as_object_mut().unwrap().remove(KEY);
            assert_eq!(x, y);
            german.push(code == WEAK_COUNTRY);
        }
        assert!(german.iter().filter(|g| **g).count() > 20);
        for ((name, p), (_, q)) in plain.predictions.iter().zip(&sliced.predictions) {
            let (p, q) = (lines(p), lines(q));
            for (d, (x, y)) in p.iter().zip(&q).enumerate() {
                if name != WEAK_MODEL || !german[d] {
                    assert_eq!(x, y, "{name} document {d}");
                }
            }
            // The weak model differs on German invoices.
            let changed = p.iter().zip(&q).filter(|(x, y)| x != y).count();
            assert_eq!(changed > 0, name == WEAK_MODEL, "{name}");
        }
    }

    #[test]
    fn slice_discovery_finds_the_planted_weakness() {
        let data = generate(&SynthOptions {
            documents: 300,
            seed: 11,
            vendor_country: true,
            ..SynthOptions::default()
        });
        let file =
            |name: &str, text: &str| crate::io::parse_records(name, text.as_bytes()).unwrap();
        let input = EvalInput {
            truth: file("truth.jsonl", &data.truth_jsonl),
            models: data
                .predictions
                .iter()
                .map(|(n, t)| ModelInput::new(n.clone(), file(n, t)))
                .collect(),
            schema: None,
            schemas: Vec::new(),
        };
        let config = Config::from_json(&json!({
            "slice_by": [KEY], "ignored_fields": [KEY], "slices": {"resamples": 300}
        }))
        .unwrap();
        let report = evaluate(&input, &config, false).unwrap();
        let slices = report.slices.unwrap();
        let good = slices.models.iter().find(|m| m.name == WEAK_MODEL).unwrap();
        assert_eq!(good.slices[0].value, json!(WEAK_COUNTRY));
        assert!(good.slices[0].weak, "{:?}", good.slices[0]);
        for m in &slices.models {
            let german = m
                .slices
                .iter()
                .find(|r| r.value == json!(WEAK_COUNTRY))
                .unwrap();
            assert_eq!(german.weak, m.name == WEAK_MODEL, "{}", m.name);
        }
    }
}
