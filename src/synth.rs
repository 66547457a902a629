//! Synthetic evaluation data: invoices, their ground truth, the predictions
//! of imaginary models and the JSON Schema of the records, all generated
//! deterministically from a seed.
//!
//! Owns: the invoice vocabularies, the ground-truth generator, the model
//! profiles ([`ModelProfile`]) and the distortions they apply, and the
//! schema. The throughput benchmark, tests and demos use it to get realistic
//! data of any size without shipping files.
//!
//! Invariants, stated as absences: no I/O (every file comes back as a
//! `String`), no clock, no global or thread-local random state. The same
//! [`SynthOptions`] give byte-identical [`SynthData`] on every run. A model's
//! predictions depend only on the seed, the documents and that model's name
//! and profile, so adding a model changes no other file.
//!
//! ## The documents
//!
//! One invoice per JSONL line, keys in this order: `id` (`"inv_00001"`),
//! `invoice_number` (`"INV-2024-00123"`), `invoice_date` (ISO date),
//! `due_date` (ISO date, `"NOT_FOUND"` in about 45 % of the truth),
//! `currency`, `vendor` {`name`, `address` {`street`, `city`, `postcode`},
//! `vat_id`}, `customer` {`name`}, `total` (number), `tax` (number; the key
//! is missing from about 17 % of the truth), `po_number` (`"NOT_FOUND"` in
//! about 80 %), `payment_terms` (`"NOT_FOUND"` in about 25 %), `codes` (0–4
//! HS codes such as `"HS-8471"`: a set field, SPEC §3.3) and `items` (0–30
//! line items {`description`, `quantity`, `unit_price`, `amount`, `sku`}: an
//! item list, SPEC §3.4).
//!
//! [`SynthOptions::paradox`] (the browser app's built-in example, `fieldscope
//! synth --paradox`) adds four NOT_FOUND-heavy fields — `delivery_date`
//! (`"NOT_FOUND"` in about 70 %), `vendor.phone` (65 %), `customer.vat_id`
//! (80 %), `customer.reference` (85 %) — and leaves the SKU out of about
//! 60 % of the line items (most invoices print none), so that about a
//! quarter of all values are absent and true negatives weigh in accuracy as
//! they do on real invoices; its conservative and aggressive models are
//! tuned so that, over many documents, accuracy and F1 rank them
//! differently (M0's accuracy paradox). The default data keeps its shape,
//! so the benchmarks measure what they always did. Vendors come from seven countries, each with its
//! own currency, address and VAT-id formats and its own names, so strings
//! include non-ASCII text (`"Müller GmbH"`, `"Øresund Logistik ApS"`,
//! `"東京商事株式会社"`). Amounts are kept in minor units and add up:
//! `amount` = `quantity` × `unit_price`, `total` = Σ `amount` + `tax`.
//!
//! ## The predictions
//!
//! Each [`ModelProfile`] turns every truth record into one prediction record
//! with the same `id` and a `cost`. Its rates are per field (or per item, or
//! per record) probabilities; see the fields of [`ModelProfile`]. Two
//! changes are *not* errors under SPEC §2.1 and are applied at fixed rates
//! for every profile, so that the data exercises the normalisation: about
//! 8 % of money values are written as text with currency symbols and
//! thousands separators in the vendor country's style (`"$1,234.50"`,
//! `"1.234,50 €"`, `"1 234,50"`, `"¥12,300"` — only forms that §2.1 reads
//! back to the same number), and about 15 % of dates as `"15.01.2024"` or
//! `"15/01/2024"` (day first, the default `date_order`). An absent answer is
//! written as `"NOT_FOUND"` (80 %), a missing key (10 %), `null` (5 %) or
//! `"N/A"` (5 %); an absent set is `[]`, a missing key or `null`.
//!
//! ## The schema, and why number fields also allow strings
//!
//! `schema_json` is a draft-07 schema of the truth records. Number fields
//! are `"type": ["number", "string", "null"]`, string fields
//! `["string", "null"]`, because that is what a realistic extraction setup
//! declares: the prompt asks the model to answer `"NOT_FOUND"` when a value
//! is not in the document, and a schema of `"number"` alone would mark
//! exactly that requested answer schema-invalid; a formatted amount such as
//! `"$1,234.50"` is judged by `numeric_precision` after §2.1 reads it,
//! rather than being punished a second time through `schema_validity`. The
//! first type listed, `number`, is the one the evaluation uses to decide how
//! values compare (SPEC §2.1). Schema validity then measures structure: the
//! output parsed (raw outputs can fail), the required keys
//! (`invoice_number`, `invoice_date`, `total`, `items`) are there, `codes`
//! and `items` are arrays, and no unknown top-level key was added
//! (`additionalProperties: false`; hallucinating models sometimes add an
//! `iban`). Optional fields are not `required`. `format: date` is present as
//! the annotation the evaluation reads to compare dates as dates.
//!
//! ```
//! use fieldscope::synth::{generate, SynthOptions};
//! let data = generate(&SynthOptions { documents: 3, ..SynthOptions::default() });
//! assert_eq!(data.truth_jsonl.lines().count(), 3);
//! assert_eq!(data.predictions.len(), 3); // good, conservative, aggressive
//! assert!(data.truth_jsonl.starts_with(r#"{"id":"inv_00001","invoice_number":"#));
//! ```

use fastrand::Rng;

pub mod countries;
mod distort;
mod invoice;
mod profile;
mod random;
mod schema;
mod tables;
pub mod types;
mod values;

use distort::Distorter;
use invoice::Invoice;
pub use profile::{ConfidenceStyle, ModelProfile};
use random::stream_seed;
use schema::schema;
use values::push_line;

/// What to generate.
#[derive(Debug, Clone, PartialEq)]
pub struct SynthOptions {
    /// Number of invoices (truth records); each model predicts every one.
    pub documents: usize,
    /// The seed of every random choice.
    pub seed: u64,
    /// One prediction file per profile, in this order.
    pub models: Vec<ModelProfile>,
    /// The accuracy-paradox data (see the module doc): four more
    /// NOT_FOUND-heavy fields and SKUs mostly absent. [`SynthOptions::paradox`]
    /// also gives the models tuned for it.
    pub paradox: bool,
    /// Write each model's confidences beside its fields (SPEC §8.1), as
    /// its [`ModelProfile::confidence`] says. Set by
    /// [`SynthOptions::paradox`] (the app's example), off by default.
    pub confidence: bool,
    /// The truth's top-level `vendor_country` and the `good` model weak
    /// on one country's invoices (SPEC §9.2's slices; see
    /// [`countries`]). Off by default; every other value is the same
    /// with it or without.
    pub vendor_country: bool,
}

impl SynthOptions {
    /// The browser app's built-in example's kind of data: `documents`
    /// NOT_FOUND-heavy invoices (`paradox` set) and the profiles tuned for
    /// them (`good`, [`ModelProfile::conservative_paradox`],
    /// [`ModelProfile::aggressive_paradox`]), with which accuracy and F1
    /// rank the conservative and the aggressive model differently.
    pub fn paradox(documents: usize, seed: u64) -> Self {
        SynthOptions {
            documents,
            seed,
            models: vec![
                ModelProfile::good(),
                ModelProfile::conservative_paradox(),
                ModelProfile::aggressive_paradox(),
            ],
            paradox: true,
            confidence: true,
            vendor_country: false,
        }
    }
}

impl Default for SynthOptions {
    /// 100 documents, seed 42, the three profiles `good`, `conservative`,
    /// `aggressive`.
    fn default() -> Self {
        SynthOptions {
            documents: 100,
            seed: 42,
            models: vec![
                ModelProfile::good(),
                ModelProfile::conservative(),
                ModelProfile::aggressive(),
            ],
            paradox: false,
            confidence: false,
            vendor_country: false,
        }
    }
}

/// The generated files, as text.
#[derive(Debug, Clone, PartialEq)]
pub struct SynthData {
    /// The ground truth, JSONL, one invoice per line, ending in a newline.
    pub truth_jsonl: String,
    /// `(model name, JSONL)` in the order of [`SynthOptions::models`].
    pub predictions: Vec<(String, String)>,
    /// A JSON Schema (draft-07) of the truth records, pretty-printed.
    pub schema_json: String,
}

/// Generates the truth, one prediction file per model and the schema.
pub fn generate(options: &SynthOptions) -> SynthData {
    let mut rng = Rng::with_seed(stream_seed(options.seed, "truth"));
    let invoices: Vec<Invoice> = (0..options.documents)
        .map(|i| Invoice::random(&mut rng, i, options.paradox))
        .collect();

    let mut truth_jsonl = String::new();
    for invoice in &invoices {
        let record = invoice.truth();
        let record = if options.vendor_country {
            countries::with_country(record, invoice.country)
        } else {
            record
        };
        push_line(&mut truth_jsonl, &record);
    }
    let predictions = options
        .models
        .iter()
        .map(|profile| {
            let seed = stream_seed(options.seed, &format!("model:{}", profile.name));
            let mut model = Distorter {
                rng: Rng::with_seed(seed),
                profile,
                errors: 0,
                marks: Vec::new(),
                item_marks: Vec::new(),
            };
            // A stream of its own: the values are the same with or without
            // confidences.
            let confidence_seed =
                stream_seed(options.seed, &format!("confidence:{}", profile.name));
            let mut confidence_rng = Rng::with_seed(confidence_seed);
            let mut weak = options
                .vendor_country
                .then(|| countries::weak_stream(options.seed, &profile.name))
                .flatten();
            let mut jsonl = String::new();
            for invoice in &invoices {
                let mut record = model.record(invoice);
                if let Some(rng) = &mut weak {
                    countries::weaken(rng, invoice.country, &mut record);
                }
                if options.confidence {
                    model.add_confidences(&mut confidence_rng, &mut record);
                }
                push_line(&mut jsonl, &record);
            }
            (profile.name.clone(), jsonl)
        })
        .collect();
    let schema_json = serde_json::to_string_pretty(&schema(options.paradox))
        .expect("a JSON value always serialises");
    SynthData {
        truth_jsonl,
        predictions,
        schema_json,
    }
}

#[cfg(test)]
mod tests;
