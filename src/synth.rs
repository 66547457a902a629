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

use chrono::{Datelike, Days, NaiveDate};
use fastrand::Rng;
use serde_json::{json, Map, Value};

pub mod countries;
pub mod types;

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

/// How an imaginary model gets things wrong. Rates are probabilities in
/// 0..=1, drawn independently.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelProfile {
    /// The model's name: the prediction file's name in [`SynthData`], and
    /// part of the seed of its predictions.
    pub name: String,
    /// Per string value: one character substituted, deleted or inserted.
    pub typo_rate: f64,
    /// Per value: two different adjacent digits swapped (identifiers,
    /// postcodes, dates, amounts, quantities); no-op when there are none.
    pub digit_swap_rate: f64,
    /// Per value present in the truth: the model answers absent instead.
    pub omission_rate: f64,
    /// Per value absent in the truth (`NOT_FOUND`, missing `tax`, empty
    /// `codes`): the model invents a plausible value. Also adds an extra
    /// code to a non-empty `codes` at this rate, and an unknown top-level
    /// key `iban` at a tenth of it.
    pub hallucination_rate: f64,
    /// Whether half of the documents get their items in shuffled order.
    pub item_reorder: bool,
    /// Per truth item: the item is left out.
    pub item_drop_rate: f64,
    /// Per truth item (once for a document without items): an invented
    /// item (shipping, discount, a product) follows it.
    pub item_extra_rate: f64,
    /// Per record: written as raw model text
    /// `{"id": …, "output": "```json\n{…}\n```", "cost": …}` (SPEC §1.3);
    /// with [`Self::unparseable_raw`], a tenth of those do not parse (a
    /// refusal or a truncated answer).
    pub raw_output_rate: f64,
    /// Whether a tenth of its raw outputs are planted not to parse (a
    /// deliberate fault, which the evaluation warns about); `good` plants
    /// none, so its data gives no such warning. The random draws are the
    /// same either way: only those records' text differs.
    pub unparseable_raw: bool,
    /// Mean `cost` of one record; the actual cost grows with the number of
    /// items (longer output) and varies ±10 %.
    pub cost_per_doc: f64,
    /// How its confidences behave, when [`SynthOptions::confidence`] asks
    /// for them.
    pub confidence: ConfidenceStyle,
}

/// How a synthetic model's confidences behave (SPEC §8). Each value's
/// confidence comes from a noisy signal of whether the model got it right:
/// s = 1 (right) or 0 (wrong) plus a normal error (σ = 0.45), and the
/// calibrated confidence is the chance of being right given s when a share
/// π of values are right, P = π·φ(s − 1) / (π·φ(s − 1) + (1 − π)·φ(s))
/// (π about what the kind of profile gets right: 0.95, 0.85, 0.8), rounded
/// to 3 decimals. A record written as raw model text carries none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfidenceStyle {
    /// The calibrated confidence, on every value and line item.
    Calibrated,
    /// Overconfident: 1 − (1 − P)/4, so that most values claim 0.9 or more.
    Overconfident,
    /// Calibrated, on the top-level scalar fields only (no vendor or
    /// customer fields, codes or line items).
    Partial,
}

impl ModelProfile {
    /// Accurate and fairly expensive: few errors of any kind.
    pub fn good() -> Self {
        ModelProfile {
            name: "good".into(),
            typo_rate: 0.02,
            digit_swap_rate: 0.01,
            omission_rate: 0.03,
            hallucination_rate: 0.05,
            item_reorder: true,
            item_drop_rate: 0.02,
            item_extra_rate: 0.02,
            raw_output_rate: 0.05,
            unparseable_raw: false,
            cost_per_doc: 0.012,
            confidence: ConfidenceStyle::Calibrated,
        }
    }

    /// Says `NOT_FOUND` whenever unsure: many omissions and dropped items,
    /// almost no hallucination — high accuracy on NOT_FOUND-heavy fields,
    /// low recall (SPEC's M0).
    pub fn conservative() -> Self {
        ModelProfile {
            name: "conservative".into(),
            typo_rate: 0.02,
            digit_swap_rate: 0.01,
            omission_rate: 0.20,
            hallucination_rate: 0.01,
            item_reorder: false,
            item_drop_rate: 0.12,
            item_extra_rate: 0.005,
            raw_output_rate: 0.02,
            unparseable_raw: true,
            cost_per_doc: 0.006,
            confidence: ConfidenceStyle::Partial,
        }
    }

    /// Cheap and eager: always answers, often wrongly — typos, swapped
    /// digits, invented values and items, sloppy raw output.
    pub fn aggressive() -> Self {
        ModelProfile {
            name: "aggressive".into(),
            typo_rate: 0.08,
            digit_swap_rate: 0.05,
            omission_rate: 0.02,
            hallucination_rate: 0.50,
            item_reorder: true,
            item_drop_rate: 0.03,
            item_extra_rate: 0.12,
            raw_output_rate: 0.15,
            unparseable_raw: true,
            cost_per_doc: 0.002,
            confidence: ConfidenceStyle::Overconfident,
        }
    }

    /// [`Self::conservative`] on the paradox data: a little fewer
    /// omissions and dropped items. Higher accuracy than
    /// [`Self::aggressive_paradox`] (its true negatives), lower recall and F1.
    pub fn conservative_paradox() -> Self {
        ModelProfile {
            omission_rate: 0.19,
            item_drop_rate: 0.11,
            ..Self::conservative()
        }
    }

    /// [`Self::aggressive`] on the paradox data: invents a value for most
    /// absent fields (70 %), with fewer typos, swapped digits and invented
    /// items. Higher F1 than [`Self::conservative_paradox`], lower accuracy.
    pub fn aggressive_paradox() -> Self {
        ModelProfile {
            typo_rate: 0.03,
            digit_swap_rate: 0.02,
            hallucination_rate: 0.70,
            item_extra_rate: 0.10,
            ..Self::aggressive()
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

/// The most items a truth or prediction record has.
const MAX_ITEMS: usize = 30;
/// The most codes a truth record has.
const MAX_CODES: usize = 4;
const NOT_FOUND: &str = "NOT_FOUND";
/// Share of money values written as formatted text (not an error, §2.1).
const MONEY_AS_TEXT_RATE: f64 = 0.08;
/// Share of dates written day first with `.` or `/` (not an error, §2.1).
const DATE_REFORMAT_RATE: f64 = 0.15;
/// Share of raw outputs that do not parse.
const UNPARSEABLE_SHARE: f64 = 0.1;

// ---------------------------------------------------------------------------
// Vocabularies

/// How a country writes an amount as text. Every style reads back to the
/// same number under SPEC §2.1 (currency symbols are category Sc, spaces
/// and thousands separators are dropped, the decimal separator is last).
#[derive(Debug)]
struct MoneyStyle {
    symbol: &'static str,
    symbol_first: bool,
    group: char,
    decimal: char,
}

const fn style(symbol: &'static str, symbol_first: bool, group: char, decimal: char) -> MoneyStyle {
    MoneyStyle {
        symbol,
        symbol_first,
        group,
        decimal,
    }
}

#[derive(Debug)]
struct Country {
    /// Relative frequency among vendors.
    weight: u32,
    currency: &'static str,
    /// Digits after the decimal point of the currency.
    decimals: u32,
    /// Units of the currency per euro (prices are listed in euros).
    per_euro: f64,
    /// Tax rate in percent.
    tax_percent: i64,
    /// Probability that an invoice shows no tax amount.
    tax_absent: f64,
    invoice_prefix: &'static str,
    vendors: &'static [&'static str],
    /// `{n}` is replaced by a house number.
    streets: &'static [&'static str],
    cities: &'static [&'static str],
    /// Patterns: `9` a digit, `A` an uppercase letter.
    postcode: &'static str,
    vat_id: Option<&'static str>,
    /// A plausible id to invent when the country has none.
    invented_tax_id: &'static str,
    /// Payment terms and the days until the due date.
    terms: &'static [(&'static str, u64)],
    money: &'static [MoneyStyle],
}

static COUNTRIES: [Country; 7] = [
    Country {
        weight: 30,
        currency: "EUR",
        decimals: 2,
        per_euro: 1.0,
        tax_percent: 19,
        tax_absent: 0.08,
        invoice_prefix: "RE",
        vendors: &[
            "Müller GmbH",
            "Schäfer & Söhne KG",
            "Bürotechnik Weiß AG",
            "Großhandel Köhler e.K.",
            "Nordlicht Handels GmbH",
            "Elektro Jäger GmbH & Co. KG",
        ],
        streets: &[
            "Hauptstraße {n}",
            "Bahnhofstraße {n}",
            "Königsallee {n}",
            "Lindenweg {n}",
            "Am Mühlbach {n}",
        ],
        cities: &[
            "Berlin",
            "München",
            "Köln",
            "Düsseldorf",
            "Nürnberg",
            "Hamburg",
        ],
        postcode: "99999",
        vat_id: Some("DE999999999"),
        invented_tax_id: "DE999999999",
        terms: &[
            ("14 Tage netto", 14),
            ("30 Tage netto", 30),
            ("Zahlbar sofort ohne Abzug", 0),
        ],
        money: &[style("€", false, '.', ','), style("€", true, ',', '.')],
    },
    Country {
        weight: 15,
        currency: "EUR",
        decimals: 2,
        per_euro: 1.0,
        tax_percent: 20,
        tax_absent: 0.08,
        invoice_prefix: "FA",
        vendors: &[
            "Société Générale de Fournitures",
            "Lefèvre & Fils SARL",
            "Boulangerie Crème Brûlée SAS",
            "Électricité Dupré",
            "Papeterie Hélène",
        ],
        streets: &[
            "{n} rue de la République",
            "{n} avenue des Champs-Élysées",
            "{n} boulevard Saint-Michel",
            "{n} place de l'Église",
        ],
        cities: &["Paris", "Lyon", "Marseille", "Orléans", "Besançon", "Nîmes"],
        postcode: "99999",
        vat_id: Some("FR99999999999"),
        invented_tax_id: "FR99999999999",
        terms: &[
            ("Paiement à 30 jours", 30),
            ("45 jours fin de mois", 45),
            ("Paiement comptant", 0),
        ],
        money: &[style("€", false, ' ', ','), style("€", false, '.', ',')],
    },
    Country {
        weight: 10,
        currency: "DKK",
        decimals: 2,
        per_euro: 7.46,
        tax_percent: 25,
        tax_absent: 0.08,
        invoice_prefix: "FAK",
        vendors: &[
            "Øresund Logistik ApS",
            "Nørrebro Design A/S",
            "Ærø Fiskeri",
            "Søndergaard & Co.",
        ],
        streets: &[
            "Østergade {n}",
            "Nørregade {n}",
            "Strandvejen {n}",
            "Åboulevard {n}",
        ],
        cities: &["København", "Aarhus", "Aalborg", "Odense", "Helsingør"],
        postcode: "9999",
        vat_id: Some("DK99999999"),
        invented_tax_id: "DK99999999",
        terms: &[
            ("Netto 30 dage", 30),
            ("Netto 8 dage", 8),
            ("Løbende måned + 30 dage", 60),
        ],
        money: &[style("", false, '.', ',')],
    },
    Country {
        weight: 10,
        currency: "JPY",
        decimals: 0,
        per_euro: 160.0,
        tax_percent: 10,
        tax_absent: 0.08,
        invoice_prefix: "INV",
        vendors: &[
            "東京商事株式会社",
            "大阪電機工業",
            "株式会社さくら物産",
            "京都オフィス用品",
        ],
        streets: &[
            "千代田区丸の内1-{n}",
            "中央区銀座4-{n}",
            "北区梅田2-{n}",
            "下京区烏丸通{n}",
        ],
        cities: &["東京", "大阪", "京都", "横浜", "名古屋"],
        postcode: "999-9999",
        vat_id: Some("T9999999999999"),
        invented_tax_id: "T9999999999999",
        terms: &[("月末締め翌月末払い", 30), ("請求書受領後30日以内", 30)],
        money: &[style("¥", true, ',', '.'), style("￥", true, ',', '.')],
    },
    Country {
        weight: 20,
        currency: "USD",
        decimals: 2,
        per_euro: 1.08,
        tax_percent: 7,
        tax_absent: 0.5,
        invoice_prefix: "INV",
        vendors: &[
            "Acme Supply Co.",
            "Blue Ridge Industrial LLC",
            "Pacific Office Solutions Inc.",
            "Great Lakes Packaging",
            "Lone Star Components",
            "José Álvarez Consulting",
        ],
        streets: &[
            "{n} Market Street",
            "{n} Main St",
            "{n} Elm Avenue, Suite 200",
            "{n} Industrial Pkwy",
        ],
        cities: &["Springfield", "Austin", "Portland", "Columbus", "San José"],
        postcode: "99999",
        vat_id: None,
        invented_tax_id: "99-9999999",
        terms: &[
            ("Net 30", 30),
            ("Net 15", 15),
            ("Due on receipt", 0),
            ("2/10 Net 30", 30),
        ],
        money: &[style("$", true, ',', '.')],
    },
    Country {
        weight: 10,
        currency: "GBP",
        decimals: 2,
        per_euro: 0.85,
        tax_percent: 20,
        tax_absent: 0.08,
        invoice_prefix: "INV",
        vendors: &[
            "Thames Components Ltd",
            "Highland Tweed & Co.",
            "Brontë Stationers",
            "Mersey Freight plc",
        ],
        streets: &[
            "{n} High Street",
            "{n} King's Road",
            "{n} Victoria Embankment",
            "Unit {n}, Riverside Park",
        ],
        cities: &["London", "Manchester", "Leeds", "Edinburgh", "Bristol"],
        postcode: "AA9 9AA",
        vat_id: Some("GB999999999"),
        invented_tax_id: "GB999999999",
        terms: &[
            ("30 days net", 30),
            ("Net 60", 60),
            ("Payment due on receipt", 0),
        ],
        money: &[style("£", true, ',', '.')],
    },
    Country {
        weight: 5,
        currency: "SEK",
        decimals: 2,
        per_euro: 11.3,
        tax_percent: 25,
        tax_absent: 0.08,
        invoice_prefix: "F",
        vendors: &[
            "Björk & Ström AB",
            "Göteborgs Kontorsmaterial",
            "Malmö Möbler AB",
        ],
        streets: &["Storgatan {n}", "Drottninggatan {n}", "Kungsgatan {n}"],
        cities: &["Stockholm", "Göteborg", "Malmö", "Västerås"],
        postcode: "999 99",
        vat_id: Some("SE999999999901"),
        invented_tax_id: "SE999999999901",
        terms: &[("30 dagar netto", 30), ("10 dagar netto", 10)],
        money: &[style("", false, ' ', ',')],
    },
];

const CUSTOMERS: &[&str] = &[
    "Société Générale",
    "Zürcher Versicherungs-AG",
    "Stadtwerke Lüneburg",
    "Acme Retail Inc.",
    "Universität Tübingen",
    "Nordic Shipping A/S",
    "三井物産株式会社",
    "Café Olé SARL",
    "Riverside Medical Group",
    "Fjällräven Outdoor AB",
    "Hôtel du Lac",
    "Bright Future Academy",
];

/// How a product is counted on an invoice.
#[derive(Debug, Clone, Copy)]
enum Unit {
    /// 1–10 pieces, sometimes up to 50.
    Piece,
    /// Consumables: 5–200.
    Bulk,
    /// Work: 0.5–12 hours in half hours.
    Hour,
    /// Subscriptions: 1–12 months.
    Month,
}

/// A product line: its description, its unit price range in whole euros and
/// how it is counted.
#[derive(Debug)]
struct Product {
    description: &'static str,
    price: (i64, i64),
    unit: Unit,
}

const fn product(description: &'static str, price: (i64, i64), unit: Unit) -> Product {
    Product {
        description,
        price,
        unit,
    }
}

static PRODUCTS: [Product; 30] = [
    product("Laptop 14\" Business", (750, 2200), Unit::Piece),
    product("USB-C Docking Station", (90, 260), Unit::Piece),
    product("Bürostuhl ergonomisch", (180, 900), Unit::Piece),
    product("Kaffeebohnen, geröstet 1 kg", (12, 35), Unit::Bulk),
    product("Câble HDMI 2 m", (4, 19), Unit::Bulk),
    product("Papier A4 80 g/m² (500 Blatt)", (3, 9), Unit::Bulk),
    product("Toner cartridge black", (35, 140), Unit::Piece),
    product("Wartungsvertrag (monatlich)", (49, 450), Unit::Month),
    product("Consulting services – hours", (85, 220), Unit::Hour),
    product("Écran 27 pouces", (160, 650), Unit::Piece),
    product("Skrivebordslampe LED", (25, 120), Unit::Piece),
    product("ノートパソコンスタンド", (20, 80), Unit::Piece),
    product("ワイヤレスマウス", (9, 60), Unit::Piece),
    product("Stehtisch Eiche", (300, 1400), Unit::Piece),
    product("Server rack 42U", (600, 2500), Unit::Piece),
    product("Netzwerkkabel Cat6 5 m", (3, 15), Unit::Bulk),
    product("Lizenz Office-Suite (1 Jahr)", (60, 300), Unit::Piece),
    product("Cloud storage 1 TB / month", (5, 25), Unit::Month),
    product("Déplacement technicien", (45, 120), Unit::Hour),
    product("Smørrebrød catering", (6, 18), Unit::Bulk),
    product("Headset with microphone", (25, 180), Unit::Piece),
    product("Whiteboard 120×90 cm", (60, 240), Unit::Piece),
    product("Kopierpapier Recycling", (3, 8), Unit::Bulk),
    product("Kontorsstol", (150, 700), Unit::Piece),
    product("Installation & Einrichtung", (60, 150), Unit::Hour),
    product("Software support – annual", (400, 5000), Unit::Piece),
    product("Étiquettes adhésives (rouleau)", (2, 12), Unit::Bulk),
    product("プリンター用紙", (3, 10), Unit::Bulk),
    product("Reinigungsservice", (25, 60), Unit::Hour),
    product("Ersatzteil Pumpe Ø 40 mm", (15, 180), Unit::Piece),
];

/// Lines a model invents when it adds an item.
const EXTRA_LINES: [Product; 6] = [
    product("Shipping & handling", (5, 60), Unit::Piece),
    product("Versandkosten", (5, 40), Unit::Piece),
    product("Frais de port", (5, 40), Unit::Piece),
    product("Expresszuschlag", (10, 80), Unit::Piece),
    product("送料", (5, 30), Unit::Piece),
    product("Environmental fee", (1, 15), Unit::Piece),
];

const HS_CODES: &[&str] = &[
    "HS-8471", "HS-8517", "HS-8443", "HS-9403", "HS-4819", "HS-8504", "HS-3926", "HS-6109",
    "HS-0901", "HS-8528", "HS-9018", "HS-8708", "HS-4011", "HS-3004", "HS-2204", "HS-8414",
];

const SKU_PATTERNS: &[&str] = &["SKU-99999", "AA-9999-A", "999-99999", "AAA9999"];

const REFUSALS: &[&str] = &[
    "I'm sorry, but I can't read the invoice in this image.",
    "The document does not appear to be an invoice.",
    "Error: the page is blank or unreadable.",
];

// ---------------------------------------------------------------------------
// Ground truth

/// One invoice, with amounts in minor units (cents, or yen).
#[derive(Debug)]
struct Invoice {
    id: String,
    country: &'static Country,
    invoice_number: String,
    invoice_date: NaiveDate,
    due_date: Option<NaiveDate>,
    vendor_name: &'static str,
    street: String,
    city: &'static str,
    postcode: String,
    vat_id: Option<String>,
    customer: &'static str,
    total: i64,
    tax: Option<i64>,
    po_number: Option<String>,
    payment_terms: Option<&'static str>,
    codes: Vec<&'static str>,
    items: Vec<Item>,
    /// The paradox data's fields are written ([`SynthOptions::paradox`]).
    paradox: bool,
    delivery_date: Option<NaiveDate>,
    vendor_phone: Option<String>,
    customer_vat_id: Option<String>,
    customer_reference: Option<String>,
}

#[derive(Debug)]
struct Item {
    description: &'static str,
    /// Hundredths of a unit (150 = 1.5 hours).
    quantity: i64,
    unit_price: i64,
    amount: i64,
    /// Not printed on most invoices (`NOT_FOUND` in the truth).
    sku: Option<String>,
}

impl Invoice {
    fn random(rng: &mut Rng, index: usize, paradox: bool) -> Invoice {
        let country = pick_country(rng);
        let first_day = NaiveDate::from_ymd_opt(2023, 1, 1).expect("a valid date");
        let invoice_date = first_day + Days::new(rng.u64(0..1096));
        let invoice_number = format!(
            "{}-{}-{:05}",
            country.invoice_prefix,
            invoice_date.year(),
            rng.u32(1..100_000)
        );
        let terms = (rng.f64() < 0.75).then(|| *pick(rng, country.terms));
        let due_date = match terms {
            Some((_, days)) if rng.f64() < 0.7 => Some(invoice_date + Days::new(days)),
            _ => None,
        };
        let street = pick(rng, country.streets).replace("{n}", &rng.u32(1..200).to_string());
        let vat_id = match country.vat_id {
            Some(pattern) if rng.f64() < 0.7 => Some(fill(rng, pattern)),
            _ => None,
        };

        let n_items = item_count(rng);
        let items: Vec<Item> = (0..n_items)
            .map(|_| Item::random(rng, country, paradox))
            .collect();
        let subtotal = if items.is_empty() {
            price(rng, country, (80, 4000))
        } else {
            items.iter().map(|i| i.amount).sum()
        };
        let tax = (rng.f64() >= country.tax_absent)
            .then(|| round_div(subtotal * country.tax_percent, 100));
        let po_number = (rng.f64() < 0.2).then(|| {
            let pattern = *pick(rng, &["PO-45999999", "4500999999"]);
            fill(rng, pattern)
        });
        let n_codes = code_count(rng);
        let codes = sample(rng, HS_CODES, n_codes);
        // The paradox data's fields most invoices do not print, drawn only
        // for it (the default data stays as it was).
        let (mut delivery_date, mut vendor_phone) = (None, None);
        let (mut customer_vat_id, mut customer_reference) = (None, None);
        if paradox {
            delivery_date = (rng.f64() < 0.3).then(|| invoice_date - Days::new(rng.u64(0..=10)));
            vendor_phone = (rng.f64() < 0.35).then(|| fill(rng, "+99 99 9999 999"));
            customer_vat_id = (rng.f64() < 0.2)
                .then(|| fill(rng, country.vat_id.unwrap_or(country.invented_tax_id)));
            customer_reference = (rng.f64() < 0.15).then(|| fill(rng, "REF-99999"));
        }

        Invoice {
            id: format!("inv_{:05}", index + 1),
            country,
            invoice_number,
            invoice_date,
            due_date,
            vendor_name: pick::<&str>(rng, country.vendors),
            street,
            city: pick::<&str>(rng, country.cities),
            postcode: fill(rng, country.postcode),
            vat_id,
            customer: pick::<&str>(rng, CUSTOMERS),
            total: subtotal + tax.unwrap_or(0),
            tax,
            po_number,
            payment_terms: terms.map(|(text, _)| text),
            codes,
            items,
            paradox,
            delivery_date,
            vendor_phone,
            customer_vat_id,
            customer_reference,
        }
    }

    /// The truth record: absent values are `"NOT_FOUND"`, except `tax`,
    /// whose key is missing, and `codes`, which is empty.
    fn truth(&self) -> Value {
        let decimals = self.country.decimals;
        let mut record = Map::new();
        record.insert("id".into(), json!(self.id));
        record.insert("invoice_number".into(), json!(self.invoice_number));
        record.insert("invoice_date".into(), json!(iso(self.invoice_date)));
        record.insert("due_date".into(), or_not_found(self.due_date.map(iso)));
        if self.paradox {
            record.insert(
                "delivery_date".into(),
                or_not_found(self.delivery_date.map(iso)),
            );
        }
        record.insert("currency".into(), json!(self.country.currency));
        let mut vendor = json!({
            "name": self.vendor_name,
            "address": {"street": self.street, "city": self.city, "postcode": self.postcode},
            "vat_id": or_not_found(self.vat_id.clone()),
        });
        let mut customer = json!({ "name": self.customer });
        if self.paradox {
            vendor["phone"] = or_not_found(self.vendor_phone.clone());
            customer["vat_id"] = or_not_found(self.customer_vat_id.clone());
            customer["reference"] = or_not_found(self.customer_reference.clone());
        }
        record.insert("vendor".into(), vendor);
        record.insert("customer".into(), customer);
        record.insert("total".into(), decimal(self.total, decimals));
        if let Some(tax) = self.tax {
            record.insert("tax".into(), decimal(tax, decimals));
        }
        record.insert("po_number".into(), or_not_found(self.po_number.clone()));
        record.insert(
            "payment_terms".into(),
            or_not_found(self.payment_terms.map(String::from)),
        );
        record.insert("codes".into(), json!(self.codes));
        let items = self
            .items
            .iter()
            .map(|item| {
                json!({
                    "description": item.description,
                    "quantity": decimal(item.quantity, 2),
                    "unit_price": decimal(item.unit_price, decimals),
                    "amount": decimal(item.amount, decimals),
                    "sku": or_not_found(item.sku.clone()),
                })
            })
            .collect();
        record.insert("items".into(), Value::Array(items));
        Value::Object(record)
    }
}

impl Item {
    /// One line item; on the paradox data most have no SKU.
    fn random(rng: &mut Rng, country: &Country, paradox: bool) -> Item {
        let product = pick(rng, &PRODUCTS);
        let quantity = match product.unit {
            Unit::Piece if rng.f64() < 0.85 => rng.i64(1..=10) * 100,
            Unit::Piece => rng.i64(11..=50) * 100,
            Unit::Bulk => rng.i64(1..=40) * 500,
            Unit::Hour => rng.i64(1..=24) * 50,
            Unit::Month => rng.i64(1..=12) * 100,
        };
        let unit_price = price(rng, country, product.price);
        let pattern = *pick(rng, SKU_PATTERNS);
        let sku = fill(rng, pattern);
        Item {
            description: product.description,
            quantity,
            unit_price,
            amount: round_div(quantity * unit_price, 100),
            sku: (!paradox || rng.f64() < 0.4).then_some(sku),
        }
    }
}

/// 0–30 items, mostly a handful: mean about 6.7.
fn item_count(rng: &mut Rng) -> usize {
    let r = rng.f64();
    if r < 0.06 {
        0
    } else if r < 0.80 {
        rng.u64(1..=8) as usize
    } else if r < 0.96 {
        rng.u64(9..=20) as usize
    } else {
        rng.u64(21..=MAX_ITEMS as u64) as usize
    }
}

/// 0–4 codes: 25 % none, 30 % one, 25 % two, 12 % three, 8 % four.
fn code_count(rng: &mut Rng) -> usize {
    let r = rng.f64();
    [0.25, 0.55, 0.80, 0.92]
        .iter()
        .position(|&limit| r < limit)
        .unwrap_or(MAX_CODES)
}

/// A price in minor units of the country's currency, for a range in whole
/// euros: skewed towards the low end, with a shop-like ending (.00, .50,
/// .90, .95, .99; whole tens of yen).
fn price(rng: &mut Rng, country: &Country, (low, high): (i64, i64)) -> i64 {
    let u = rng.f64();
    let euros = low as f64 + u * u * (high - low) as f64;
    let local = euros * country.per_euro;
    if country.decimals == 0 {
        return ((local / 10.0).round() as i64).max(1) * 10;
    }
    let cents = *pick(rng, &[0, 0, 50, 90, 95, 99]);
    (local as i64).max(1) * 100 + cents
}

fn pick_country(rng: &mut Rng) -> &'static Country {
    let total: u32 = COUNTRIES.iter().map(|c| c.weight).sum();
    let mut r = rng.u32(0..total);
    for country in &COUNTRIES {
        if r < country.weight {
            return country;
        }
        r -= country.weight;
    }
    unreachable!("r < total weight")
}

// ---------------------------------------------------------------------------
// Predictions

/// Turns truth records into one model's predictions.
struct Distorter<'a> {
    rng: Rng,
    profile: &'a ModelProfile,
    /// Errors made so far (a typo, swapped digits, an omission, an
    /// invented value or item): a value is wrong when this grew while it
    /// was written.
    errors: u32,
    /// The last record's fields: (path, written with an error).
    marks: Vec<(String, bool)>,
    /// The last record's items, in their final order: written with an
    /// error (or invented).
    item_marks: Vec<bool>,
}

impl Distorter<'_> {
    fn chance(&mut self, p: f64) -> bool {
        self.rng.f64() < p
    }

    /// One prediction record, plain or as raw model text.
    fn record(&mut self, inv: &Invoice) -> Value {
        let p = self.profile;
        self.marks.clear();
        self.item_marks.clear();
        let mut payload = Map::new();
        self.field(&mut payload, "invoice_number", "", |d| {
            d.present(|d| d.text(&inv.invoice_number))
        });
        self.field(&mut payload, "invoice_date", "", |d| {
            d.present(|d| d.date(inv.invoice_date))
        });
        self.field(&mut payload, "due_date", "", |d| {
            d.optional(inv.due_date, Self::date, |d| {
                let days = *pick(&mut d.rng, &[14, 30, 30, 60]);
                d.date(inv.invoice_date + Days::new(days))
            })
        });
        if inv.paradox {
            self.field(&mut payload, "delivery_date", "", |d| {
                d.optional(inv.delivery_date, Self::date, |d| {
                    let days = d.rng.u64(0..=10);
                    d.date(inv.invoice_date - Days::new(days))
                })
            });
        }
        self.field(&mut payload, "currency", "", |d| {
            d.present(|d| d.text(inv.country.currency))
        });

        let mut address = Map::new();
        self.field(&mut address, "street", "vendor.address.", |d| {
            d.present(|d| d.text(&inv.street))
        });
        self.field(&mut address, "city", "vendor.address.", |d| {
            d.present(|d| d.text(inv.city))
        });
        self.field(&mut address, "postcode", "vendor.address.", |d| {
            d.present(|d| d.text(&inv.postcode))
        });
        let mut vendor = Map::new();
        self.field(&mut vendor, "name", "vendor.", |d| {
            d.present(|d| d.text(inv.vendor_name))
        });
        vendor.insert("address".into(), Value::Object(address));
        self.field(&mut vendor, "vat_id", "vendor.", |d| {
            d.optional(inv.vat_id.as_deref(), Self::text, |d| {
                let id = fill(
                    &mut d.rng,
                    inv.country.vat_id.unwrap_or(inv.country.invented_tax_id),
                );
                Value::String(id)
            })
        });
        if inv.paradox {
            self.field(&mut vendor, "phone", "vendor.", |d| {
                d.optional(inv.vendor_phone.as_deref(), Self::text, |d| {
                    Value::String(fill(&mut d.rng, "+99 99 9999 999"))
                })
            });
        }
        payload.insert("vendor".into(), Value::Object(vendor));
        let mut customer = Map::new();
        self.field(&mut customer, "name", "customer.", |d| {
            d.present(|d| d.text(inv.customer))
        });
        if inv.paradox {
            self.field(&mut customer, "vat_id", "customer.", |d| {
                d.optional(inv.customer_vat_id.as_deref(), Self::text, |d| {
                    let pattern = inv.country.vat_id.unwrap_or(inv.country.invented_tax_id);
                    Value::String(fill(&mut d.rng, pattern))
                })
            });
            self.field(&mut customer, "reference", "customer.", |d| {
                d.optional(inv.customer_reference.as_deref(), Self::text, |d| {
                    Value::String(fill(&mut d.rng, "REF-99999"))
                })
            });
        }
        payload.insert("customer".into(), Value::Object(customer));

        self.field(&mut payload, "total", "", |d| {
            d.present(|d| d.money(inv, inv.total))
        });
        self.field(&mut payload, "tax", "", |d| {
            d.optional(
                inv.tax,
                |d, tax| d.money(inv, tax),
                |d| {
                    let rate = inv.country.tax_percent;
                    d.money(inv, round_div(inv.total * rate, 100 + rate))
                },
            )
        });
        self.field(&mut payload, "po_number", "", |d| {
            d.optional(inv.po_number.as_deref(), Self::text, |d| {
                Value::String(fill(&mut d.rng, "PO-45999999"))
            })
        });
        self.field(&mut payload, "payment_terms", "", |d| {
            d.optional(inv.payment_terms, Self::text, |d| {
                Value::String(pick(&mut d.rng, inv.country.terms).0.to_string())
            })
        });
        self.field(&mut payload, "codes", "", |d| d.codes(&inv.codes));
        payload.insert("items".into(), self.items(inv));
        if self.chance(p.hallucination_rate * 0.1) {
            let iban = fill(&mut self.rng, "AA99 9999 9999 9999 9999 99");
            payload.insert("iban".into(), Value::String(iban));
        }

        let jitter = 0.9 + 0.2 * self.rng.f64();
        let cost = p.cost_per_doc * (0.7 + 0.045 * inv.items.len() as f64) * jitter;
        let cost = json!((cost * 1e6).round() / 1e6);

        if self.chance(p.raw_output_rate) {
            let text = self.raw_text(&payload, p.unparseable_raw);
            json!({"id": inv.id, "output": text, "cost": cost})
        } else {
            let mut record = Map::new();
            record.insert("id".into(), json!(inv.id));
            record.extend(payload);
            record.insert("cost".into(), cost);
            Value::Object(record)
        }
    }

    /// Writes `value` (a field's answer, `None`: no key) at `key` of `map`
    /// and notes whether it was written with an error, at `prefix` + `key`.
    fn field(
        &mut self,
        map: &mut Map<String, Value>,
        key: &str,
        prefix: &str,
        value: impl FnOnce(&mut Self) -> Option<Value>,
    ) {
        let before = self.errors;
        let v = value(self);
        if v.is_some() {
            self.marks
                .push((format!("{prefix}{key}"), self.errors > before));
        }
        put(map, key, v);
    }

    /// Adds the record's confidences beside its fields (SPEC §8.1), drawn
    /// from `rng` as [`ConfidenceStyle`] says: one per field written, and
    /// one per line item (`items[0]`, …) unless the style is `Partial`. A
    /// raw-text record gets none.
    fn add_confidences(&self, rng: &mut Rng, record: &mut Value) {
        let Value::Object(map) = record else { return };
        if map.contains_key("output") {
            return;
        }
        let style = self.profile.confidence;
        let partial = style == ConfidenceStyle::Partial;
        let mut confidences = Map::new();
        for (path, wrong) in &self.marks {
            if partial && (path.contains('.') || path == "codes") {
                continue;
            }
            confidences.insert(path.clone(), json!(draw_confidence(rng, *wrong, style)));
        }
        if !partial {
            for (i, wrong) in self.item_marks.iter().enumerate() {
                confidences.insert(
                    format!("items[{i}]"),
                    json!(draw_confidence(rng, *wrong, style)),
                );
            }
        }
        map.insert("_confidence".into(), Value::Object(confidences));
    }

    /// A value present in the truth: omitted at `omission_rate`, else
    /// `value` (which applies the errors).
    fn present(&mut self, value: impl FnOnce(&mut Self) -> Value) -> Option<Value> {
        if self.chance(self.profile.omission_rate) {
            self.errors += 1;
            self.absent()
        } else {
            Some(value(self))
        }
    }

    /// A value that may be absent in the truth: when it is, invented at
    /// `hallucination_rate`, else answered absent.
    fn optional<T>(
        &mut self,
        truth: Option<T>,
        value: impl FnOnce(&mut Self, T) -> Value,
        invent: impl FnOnce(&mut Self) -> Value,
    ) -> Option<Value> {
        match truth {
            Some(t) => self.present(|d| value(d, t)),
            None if self.chance(self.profile.hallucination_rate) => {
                self.errors += 1;
                Some(invent(self))
            }
            None => self.absent(),
        }
    }

    /// An absent answer; `None` is a missing key.
    fn absent(&mut self) -> Option<Value> {
        let r = self.rng.f64();
        if r < 0.80 {
            Some(json!(NOT_FOUND))
        } else if r < 0.90 {
            None
        } else if r < 0.95 {
            Some(Value::Null)
        } else {
            Some(json!("N/A"))
        }
    }

    fn text(&mut self, truth: &str) -> Value {
        let mut s = truth.to_string();
        if self.chance(self.profile.typo_rate) {
            s = typo(&mut self.rng, &s);
            self.errors += 1;
        }
        if self.chance(self.profile.digit_swap_rate) {
            s = self.swapped(s);
        }
        Value::String(s)
    }

    fn date(&mut self, truth: NaiveDate) -> Value {
        let (y, m, d) = (truth.year(), truth.month(), truth.day());
        let mut s = if self.chance(DATE_REFORMAT_RATE) {
            let sep = if self.rng.bool() { '.' } else { '/' };
            format!("{d:02}{sep}{m:02}{sep}{y:04}")
        } else {
            iso(truth)
        };
        if self.chance(self.profile.digit_swap_rate) {
            s = self.swapped(s);
        }
        Value::String(s)
    }

    /// `s` with two adjacent digits swapped (an error), or as it is when
    /// it has none.
    fn swapped(&mut self, s: String) -> String {
        match swap_digits(&mut self.rng, &s) {
            Some(t) => {
                self.errors += 1;
                t
            }
            None => s,
        }
    }

    /// An amount in minor units of the invoice's currency.
    fn money(&mut self, inv: &Invoice, minor: i64) -> Value {
        let mut minor = minor;
        if self.chance(self.profile.digit_swap_rate) {
            if let Some(swapped) = swap_digits(&mut self.rng, &minor.to_string()) {
                minor = swapped.parse().expect("digits only");
                self.errors += 1;
            }
        }
        let decimals = inv.country.decimals;
        if self.chance(MONEY_AS_TEXT_RATE) {
            let style = pick(&mut self.rng, inv.country.money);
            Value::String(format_money(minor, decimals, style))
        } else {
            decimal(minor, decimals)
        }
    }

    fn quantity(&mut self, hundredths: i64) -> Value {
        let mut q = hundredths;
        if self.chance(self.profile.digit_swap_rate) {
            if let Some(swapped) = swap_digits(&mut self.rng, &(q / 100).to_string()) {
                q = swapped.parse::<i64>().expect("digits only") * 100 + q % 100;
                self.errors += 1;
            }
        }
        decimal(q, 2)
    }

    /// A set field: codes dropped, mistyped, invented, reordered.
    fn codes(&mut self, truth: &[&str]) -> Option<Value> {
        let p = self.profile;
        if truth.is_empty() {
            if self.chance(p.hallucination_rate) {
                self.errors += 1;
                let n = self.rng.u64(1..=2) as usize;
                return Some(json!(sample(&mut self.rng, HS_CODES, n)));
            }
            let r = self.rng.f64();
            return if r < 0.8 {
                Some(json!([]))
            } else if r < 0.9 {
                None
            } else {
                Some(Value::Null)
            };
        }
        let mut out = Vec::new();
        for code in truth {
            if self.chance(p.omission_rate) {
                self.errors += 1;
                continue;
            }
            out.push(self.text(code));
        }
        if self.chance(p.hallucination_rate) {
            let unused: Vec<&str> = HS_CODES
                .iter()
                .copied()
                .filter(|c| !truth.contains(c))
                .collect();
            if !unused.is_empty() {
                self.errors += 1;
                let extra = *pick(&mut self.rng, &unused);
                let at = self.rng.u64(..=out.len() as u64) as usize;
                out.insert(at, json!(extra));
            }
        }
        if p.item_reorder && self.rng.bool() {
            shuffle(&mut self.rng, &mut out);
        }
        Some(Value::Array(out))
    }

    /// The item list: items dropped, invented, distorted, reordered; never
    /// more than [`MAX_ITEMS`] (as if the output were cut at a limit).
    fn items(&mut self, inv: &Invoice) -> Value {
        let p = self.profile;
        // (item, written with an error or invented)
        let mut out = Vec::new();
        for item in &inv.items {
            if !self.chance(p.item_drop_rate) {
                let before = self.errors;
                let written = self.item(inv, item);
                out.push((written, self.errors > before));
            }
            if self.chance(p.item_extra_rate) {
                out.push((self.extra_item(inv), true));
            }
        }
        if inv.items.is_empty() && self.chance(p.item_extra_rate) {
            out.push((self.extra_item(inv), true));
        }
        out.truncate(MAX_ITEMS);
        if p.item_reorder && self.rng.bool() {
            shuffle(&mut self.rng, &mut out);
        }
        self.item_marks = out.iter().map(|(_, wrong)| *wrong).collect();
        Value::Array(out.into_iter().map(|(item, _)| item).collect())
    }

    fn item(&mut self, inv: &Invoice, item: &Item) -> Value {
        let mut m = Map::new();
        put(
            &mut m,
            "description",
            self.present(|d| d.text(item.description)),
        );
        put(
            &mut m,
            "quantity",
            self.present(|d| d.quantity(item.quantity)),
        );
        put(
            &mut m,
            "unit_price",
            self.present(|d| d.money(inv, item.unit_price)),
        );
        put(
            &mut m,
            "amount",
            self.present(|d| d.money(inv, item.amount)),
        );
        put(
            &mut m,
            "sku",
            self.optional(item.sku.as_deref(), Self::text, |d| {
                let pattern = *pick(&mut d.rng, SKU_PATTERNS);
                Value::String(fill(&mut d.rng, pattern))
            }),
        );
        Value::Object(m)
    }

    fn extra_item(&mut self, inv: &Invoice) -> Value {
        let product = if self.rng.bool() {
            pick(&mut self.rng, &EXTRA_LINES)
        } else {
            pick(&mut self.rng, &PRODUCTS)
        };
        let description = product.description;
        let price = price(&mut self.rng, inv.country, product.price);
        let sku = if self.rng.bool() {
            let pattern = *pick(&mut self.rng, SKU_PATTERNS);
            json!(fill(&mut self.rng, pattern))
        } else {
            json!(NOT_FOUND)
        };
        json!({
            "description": description,
            "quantity": 1,
            "unit_price": decimal(price, inv.country.decimals),
            "amount": decimal(price, inv.country.decimals),
            "sku": sku,
        })
    }

    /// The payload as a model would write it: fenced, chatty or bare JSON;
    /// when `plant`, a tenth of the time a refusal or a truncated answer
    /// that does not parse (no balanced `{…}` block in it at all). Without
    /// `plant` those records are bare JSON, drawn with the same draws, so
    /// that every other record is the same.
    fn raw_text(&mut self, payload: &Map<String, Value>, plant: bool) -> String {
        let pretty = serde_json::to_string_pretty(payload).expect("a JSON value always serialises");
        if self.chance(UNPARSEABLE_SHARE) {
            let broken = if self.rng.bool() {
                pick(&mut self.rng, REFUSALS).to_string()
            } else {
                // Cut before the first nested object opens, so nothing balances.
                let limit = pretty[1..].find('{').map_or(pretty.len() - 1, |i| i + 1);
                let mut cut = self.rng.u64(2..=limit.max(2) as u64) as usize;
                while !pretty.is_char_boundary(cut) {
                    cut -= 1;
                }
                format!("```json\n{}", &pretty[..cut])
            };
            return if plant { broken } else { pretty };
        }
        match self.rng.u8(0..3) {
            0 => format!("```json\n{pretty}\n```"),
            1 => format!("Here is the extracted invoice data:\n\n```json\n{pretty}\n```\n\nLet me know if you need anything else."),
            _ => pretty,
        }
    }
}

// ---------------------------------------------------------------------------
// Schema

/// The schema of the truth records (with the paradox data's fields when
/// `paradox`).
fn schema(paradox: bool) -> Value {
    let string = json!({"type": ["string", "null"]});
    let number = json!({"type": ["number", "string", "null"]});
    let date = json!({"type": ["string", "null"], "format": "date"});
    let mut schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Invoice",
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "invoice_number": string,
            "invoice_date": date,
            "due_date": date,
            "currency": string,
            "vendor": {
                "type": "object",
                "properties": {
                    "name": string,
                    "address": {
                        "type": "object",
                        "properties": {"street": string, "city": string, "postcode": string}
                    },
                    "vat_id": string
                }
            },
            "customer": {"type": "object", "properties": {"name": string}},
            "total": number,
            "tax": number,
            "po_number": string,
            "payment_terms": string,
            "codes": {"type": ["array", "null"], "items": {"type": "string"}},
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "description": string,
                        "quantity": number,
                        "unit_price": number,
                        "amount": number,
                        "sku": string
                    }
                }
            }
        },
        "required": ["invoice_number", "invoice_date", "total", "items"],
        "additionalProperties": false
    });
    if paradox {
        let properties = &mut schema["properties"];
        properties["vendor"]["properties"]["phone"] = string.clone();
        properties["customer"]["properties"]["vat_id"] = string.clone();
        properties["customer"]["properties"]["reference"] = string;
        // `delivery_date` after `due_date`, as in the records.
        if let Value::Object(map) = properties {
            let mut ordered = Map::new();
            for (key, value) in std::mem::take(map) {
                let due = key == "due_date";
                ordered.insert(key, value);
                if due {
                    ordered.insert("delivery_date".into(), date.clone());
                }
            }
            *map = ordered;
        }
    }
    schema
}

// ---------------------------------------------------------------------------
// Small helpers

/// One value's confidence (see [`ConfidenceStyle`]): the noisy signal
/// s = right + 0.45·z (z standard normal, Box–Muller), the calibrated
/// P(right | s) for a model right on 85 % of values, made overconfident
/// or not, rounded to 3 decimals.
fn draw_confidence(rng: &mut Rng, wrong: bool, style: ConfidenceStyle) -> f64 {
    const SIGMA: f64 = 0.45;
    // About the share of values each kind of profile gets right.
    let right_share = match style {
        ConfidenceStyle::Calibrated => 0.95,
        ConfidenceStyle::Partial => 0.85,
        ConfidenceStyle::Overconfident => 0.8,
    };
    let (u1, u2) = (1.0 - rng.f64(), rng.f64());
    let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
    let s = if wrong { 0.0 } else { 1.0 } + SIGMA * z;
    let density = |x: f64| (-x * x / (2.0 * SIGMA * SIGMA)).exp();
    let right = right_share * density(s - 1.0);
    let p = right / (right + (1.0 - right_share) * density(s));
    let c = match style {
        ConfidenceStyle::Overconfident => 1.0 - (1.0 - p) / 4.0,
        ConfidenceStyle::Calibrated | ConfidenceStyle::Partial => p,
    };
    ((c * 1000.0).round() / 1000.0).clamp(0.0, 1.0)
}

fn push_line(out: &mut String, value: &Value) {
    out.push_str(&value.to_string());
    out.push('\n');
}

fn put(map: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    if let Some(value) = value {
        map.insert(key.into(), value);
    }
}

fn or_not_found(value: Option<String>) -> Value {
    Value::String(value.unwrap_or_else(|| NOT_FOUND.into()))
}

fn iso(date: NaiveDate) -> String {
    format!("{:04}-{:02}-{:02}", date.year(), date.month(), date.day())
}

/// `minor / 10^decimals` as a JSON number; an integer when it is whole.
fn decimal(minor: i64, decimals: u32) -> Value {
    let scale = 10i64.pow(decimals);
    if minor % scale == 0 {
        json!(minor / scale)
    } else {
        json!(minor as f64 / scale as f64)
    }
}

/// Rounds `a / b` half up, for non-negative `a` and positive `b`.
fn round_div(a: i64, b: i64) -> i64 {
    (a + b / 2) / b
}

/// `123450` with 2 decimals in a style: `"1.234,50 €"`, `"$1,234.50"`.
fn format_money(minor: i64, decimals: u32, style: &MoneyStyle) -> String {
    let scale = 10i64.pow(decimals);
    let digits = (minor / scale).to_string();
    let mut number = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            number.push(style.group);
        }
        number.push(c);
    }
    if decimals > 0 {
        number.push(style.decimal);
        number.push_str(&format!(
            "{:0width$}",
            minor % scale,
            width = decimals as usize
        ));
    }
    match (style.symbol, style.symbol_first) {
        ("", _) => number,
        (symbol, true) => format!("{symbol}{number}"),
        (symbol, false) => format!("{number} {symbol}"),
    }
}

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.u64(..items.len() as u64) as usize]
}

/// `n` distinct elements in random order.
fn sample<T: Copy>(rng: &mut Rng, items: &[T], n: usize) -> Vec<T> {
    let mut all = items.to_vec();
    shuffle(rng, &mut all);
    all.truncate(n);
    all
}

/// Fills a pattern: `9` becomes a digit, `A` an uppercase ASCII letter.
fn fill(rng: &mut Rng, pattern: &str) -> String {
    pattern
        .chars()
        .map(|c| match c {
            '9' => rng.digit(10),
            'A' => letter(rng, b'A'),
            c => c,
        })
        .collect()
}

/// One character substituted (a digit by a digit, anything else by a
/// letter), deleted or inserted. The result always differs from `s`.
fn typo(rng: &mut Rng, s: &str) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    if chars.is_empty() {
        return letter(rng, b'a').to_string();
    }
    let i = rng.u64(..chars.len() as u64) as usize;
    match rng.u8(0..3) {
        0 => {
            let old = chars[i];
            chars[i] = loop {
                let new = if old.is_ascii_digit() {
                    rng.digit(10)
                } else if old.is_uppercase() {
                    letter(rng, b'A')
                } else {
                    letter(rng, b'a')
                };
                if new != old {
                    break new;
                }
            };
        }
        1 if chars.len() > 1 => {
            chars.remove(i);
        }
        _ => chars.insert(i, letter(rng, b'a')),
    }
    chars.into_iter().collect()
}

/// Swaps two different adjacent ASCII digits; `None` when there are none.
fn swap_digits(rng: &mut Rng, s: &str) -> Option<String> {
    let mut chars: Vec<char> = s.chars().collect();
    let spots: Vec<usize> = chars
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0].is_ascii_digit() && w[1].is_ascii_digit() && w[0] != w[1])
        .map(|(i, _)| i)
        .collect();
    if spots.is_empty() {
        return None;
    }
    let i = *pick(rng, &spots);
    chars.swap(i, i + 1);
    Some(chars.into_iter().collect())
}

/// An independent seed for each stream (truth, each model) so that one
/// stream's draws never shift another's.
fn stream_seed(seed: u64, stream: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325; // FNV-1a
    for byte in stream.bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    splitmix64(seed ^ splitmix64(hash))
}

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A random ASCII letter from `base` (`b'A'` or `b'a'`), drawn as
/// `fastrand::Rng::uppercase` and `lowercase` draw it natively (an index
/// below 26) but from a 64-bit number on every platform, for the reason
/// given at [`shuffle`].
fn letter(rng: &mut Rng, base: u8) -> char {
    char::from(base + rng.u64(..26) as u8)
}

/// Fisher–Yates as `fastrand::Rng::shuffle` does it, but drawing 64-bit
/// numbers on every platform: fastrand draws `usize`s from 32-bit numbers
/// on wasm32, which would make the browser's example differ from
/// `fieldscope synth` run natively. (Every `usize` range in this module is
/// drawn as a `u64` range for the same reason.)
fn shuffle<T>(rng: &mut Rng, slice: &mut [T]) {
    for i in 1..slice.len() {
        slice.swap(i, rng.u64(..=i as u64) as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::dataset::parse_model_output;
    use crate::eval::{
        compile_schema, evaluate, Config, EvalInput, ModelInput, RecordFile, Report,
    };
    use std::collections::BTreeMap;

    fn options(documents: usize, seed: u64) -> SynthOptions {
        SynthOptions {
            documents,
            seed,
            ..SynthOptions::default()
        }
    }

    fn objects(jsonl: &str) -> Vec<Map<String, Value>> {
        jsonl
            .lines()
            .map(|line| match serde_json::from_str(line) {
                Ok(Value::Object(map)) => map,
                other => panic!("not a JSON object: {other:?}: {line}"),
            })
            .collect()
    }

    /// The predicted fields of a record (raw output parsed), `None` when the
    /// raw output does not parse.
    fn payload(record: &Map<String, Value>) -> Option<Map<String, Value>> {
        match record.get("output") {
            Some(Value::String(text)) => parse_model_output(text),
            _ => {
                let mut fields = record.clone();
                fields.remove("id");
                fields.remove("cost");
                Some(fields)
            }
        }
    }

    fn is_present(value: Option<&Value>) -> bool {
        match value {
            None | Some(Value::Null) => false,
            Some(Value::String(s)) => !["NOT_FOUND", "N/A", ""].contains(&s.trim()),
            Some(Value::Array(a)) => !a.is_empty(),
            Some(_) => true,
        }
    }

    fn at<'a>(record: &'a Map<String, Value>, path: &str) -> Option<&'a Value> {
        let mut parts = path.split('.');
        let mut value = record.get(parts.next()?)?;
        for part in parts {
            value = value.get(part)?;
        }
        Some(value)
    }

    fn record_file(name: &str, jsonl: &str) -> RecordFile {
        crate::io::parse_records(&format!("{name}.jsonl"), jsonl.as_bytes()).unwrap()
    }

    fn evaluate_data(data: &SynthData) -> Report {
        let input = EvalInput {
            truth: record_file("truth", &data.truth_jsonl),
            models: data
                .predictions
                .iter()
                .map(|(name, jsonl)| ModelInput::new(name.clone(), record_file(name, jsonl)))
                .collect(),
            schema: Some(serde_json::from_str(&data.schema_json).unwrap()),
            schemas: Vec::new(),
        };
        evaluate(&input, &Config::default(), false).unwrap()
    }

    /// The module's invariant: no I/O, no clock, no environment, no global
    /// random state (fastrand's free functions use a thread-local one).
    #[test]
    fn the_generator_does_no_io_and_uses_only_its_seeded_rng() {
        let source = include_str!("synth.rs");
        let code = source.split("#[cfg(test)]").next().unwrap();
        let forbidden = [
            "std::fs",
            "std::io",
            "std::net",
            "std::process",
            "std::env",
            "std::time",
            "SystemTime",
            "Instant",
            "thread_rng",
            "HashMap",
            "HashSet",
        ];
        for (n, line) in code.lines().enumerate() {
            let line = line.split("//").next().unwrap();
            for word in forbidden {
                assert!(!line.contains(word), "synth.rs:{}: {word}", n + 1);
            }
            if line.contains("fastrand::") {
                assert_eq!(line.trim(), "use fastrand::Rng;", "synth.rs:{}", n + 1);
            }
        }
    }

    #[test]
    fn same_seed_same_bytes_different_seed_different_bytes() {
        let a = generate(&options(40, 7));
        let b = generate(&options(40, 7));
        assert_eq!(a, b);
        let c = generate(&options(40, 8));
        assert_ne!(a.truth_jsonl, c.truth_jsonl);
        for (pa, pc) in a.predictions.iter().zip(&c.predictions) {
            assert_eq!(pa.0, pc.0);
            assert_ne!(pa.1, pc.1);
        }
        assert_eq!(a.schema_json, c.schema_json);
    }

    #[test]
    fn adding_or_reordering_models_changes_no_other_file() {
        let one = generate(&SynthOptions {
            models: vec![ModelProfile::conservative()],
            ..options(30, 3)
        });
        let three = generate(&SynthOptions {
            models: vec![
                ModelProfile::aggressive(),
                ModelProfile::good(),
                ModelProfile::conservative(),
            ],
            ..options(30, 3)
        });
        assert_eq!(one.truth_jsonl, three.truth_jsonl);
        assert_eq!(one.predictions[0], three.predictions[2]);
        let names: Vec<&str> = three.predictions.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["aggressive", "good", "conservative"]);
    }

    #[test]
    fn zero_documents_give_empty_files() {
        let data = generate(&options(0, 1));
        assert_eq!(data.truth_jsonl, "");
        assert!(data.predictions.iter().all(|(_, jsonl)| jsonl.is_empty()));
    }

    #[test]
    fn every_line_is_an_object_with_the_truth_ids_in_order_and_a_cost() {
        let data = generate(&options(200, 11));
        let truth = objects(&data.truth_jsonl);
        assert_eq!(truth.len(), 200);
        assert_eq!(truth[0]["id"], "inv_00001");
        assert_eq!(truth[199]["id"], "inv_00200");
        for (name, jsonl) in &data.predictions {
            let preds = objects(jsonl);
            assert_eq!(preds.len(), 200, "{name}");
            for (p, t) in preds.iter().zip(&truth) {
                assert_eq!(p["id"], t["id"], "{name}");
                assert!(p["cost"].as_f64().unwrap() > 0.0, "{name}");
            }
        }
    }

    #[test]
    fn the_truth_has_the_documented_shape() {
        let truth = objects(&generate(&options(1000, 5)).truth_jsonl);
        let keys: Vec<&str> = truth[0].keys().map(String::as_str).collect();
        let expected = [
            "id",
            "invoice_number",
            "invoice_date",
            "due_date",
            "currency",
            "vendor",
            "customer",
            "total",
        ];
        assert_eq!(keys[..8], expected);
        let mut item_counts = Vec::new();
        let mut not_found = BTreeMap::new();
        let mut non_ascii = 0;
        for t in &truth {
            let number = t["invoice_number"].as_str().unwrap();
            assert!(number.contains("-202"), "{number}");
            assert!(
                NaiveDate::parse_from_str(t["invoice_date"].as_str().unwrap(), "%Y-%m-%d").is_ok()
            );
            let codes = t["codes"].as_array().unwrap();
            assert!(codes.len() <= MAX_CODES);
            for code in codes {
                let code = code.as_str().unwrap();
                assert!(code.len() == 7 && code.starts_with("HS-"), "{code}");
            }
            let items = t["items"].as_array().unwrap();
            item_counts.push(items.len());
            // amount = quantity × unit_price and total = Σ amount + tax, to the cent.
            let mut sum = 0.0;
            for item in items {
                let [q, u, a] =
                    ["quantity", "unit_price", "amount"].map(|k| item[k].as_f64().unwrap());
                assert!((q * u - a).abs() <= 0.5 + 1e-9, "{item}");
                sum += a;
                assert!(item["sku"].as_str().is_some_and(|s| !s.is_empty()));
            }
            let tax = t.get("tax").map_or(0.0, |v| v.as_f64().unwrap());
            if !items.is_empty() {
                assert!(
                    (t["total"].as_f64().unwrap() - sum - tax).abs() < 1e-6,
                    "{}",
                    t["id"]
                );
            }
            for path in ["due_date", "vendor.vat_id", "po_number", "payment_terms"] {
                if at(t, path) == Some(&json!("NOT_FOUND")) {
                    *not_found.entry(path).or_insert(0) += 1;
                }
            }
            if t.get("tax").is_none() {
                *not_found.entry("tax").or_insert(0) += 1;
            }
            non_ascii += usize::from(!t["vendor"]["name"].as_str().unwrap().is_ascii());
        }
        assert!(item_counts.iter().all(|&n| n <= MAX_ITEMS));
        assert!(item_counts.contains(&0));
        assert!(item_counts.iter().any(|&n| n > 20));
        let mean = item_counts.iter().sum::<usize>() as f64 / 1000.0;
        assert!((5.5..8.0).contains(&mean), "mean items {mean}");
        // The NOT_FOUND-heavy fields, as the module doc says (±5 points).
        let share = |path| f64::from(not_found[path]) / 1000.0;
        assert!((0.75..0.85).contains(&share("po_number")), "{not_found:?}");
        assert!((0.40..0.50).contains(&share("due_date")), "{not_found:?}");
        assert!(
            (0.20..0.30).contains(&share("payment_terms")),
            "{not_found:?}"
        );
        assert!((0.12..0.22).contains(&share("tax")), "{not_found:?}");
        assert!(
            (0.35..0.50).contains(&share("vendor.vat_id")),
            "{not_found:?}"
        );
        assert!(
            non_ascii > 200,
            "{non_ascii} vendor names with non-ASCII text"
        );
    }

    #[test]
    fn the_schema_compiles_and_every_truth_record_is_valid() {
        let data = generate(&options(300, 2));
        let schema: Value = serde_json::from_str(&data.schema_json).unwrap();
        assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
        assert_eq!(
            schema["properties"]["total"]["type"],
            json!(["number", "string", "null"])
        );
        assert_eq!(schema["properties"]["invoice_date"]["format"], "date");
        let validator = compile_schema(&schema).unwrap();
        for t in objects(&data.truth_jsonl) {
            assert!(validator.is_valid(&Value::Object(t.clone())), "{t:?}");
        }
        assert!(!validator.is_valid(&json!({"invoice_number": "X", "invoice_date": "2024-01-01", "total": 1, "items": [], "iban": "X"})));
        assert!(
            !validator.is_valid(&json!({"invoice_date": "2024-01-01", "total": 1, "items": []}))
        );
    }

    /// Per-profile behaviour measured on the files themselves.
    #[derive(Debug, Default)]
    struct Behaviour {
        invented: f64,
        omitted: f64,
        raw: usize,
        unparseable: usize,
        truth_items: usize,
        pred_items: usize,
        max_pred_items: usize,
        cost: f64,
    }

    fn behaviour(data: &SynthData, model: usize) -> Behaviour {
        let truth = objects(&data.truth_jsonl);
        let mut b = Behaviour::default();
        let (mut absent, mut invented, mut present, mut omitted) = (0u32, 0u32, 0u32, 0u32);
        for (t, p) in truth.iter().zip(objects(&data.predictions[model].1)) {
            b.cost += p["cost"].as_f64().unwrap();
            b.raw += usize::from(p.contains_key("output"));
            let Some(p) = payload(&p) else {
                b.unparseable += 1;
                continue;
            };
            for path in [
                "due_date",
                "vendor.vat_id",
                "po_number",
                "payment_terms",
                "tax",
            ] {
                if !is_present(at(t, path)) {
                    absent += 1;
                    invented += u32::from(is_present(at(&p, path)));
                }
            }
            for path in [
                "invoice_number",
                "invoice_date",
                "currency",
                "total",
                "vendor.name",
                "customer.name",
            ] {
                present += 1;
                omitted += u32::from(!is_present(at(&p, path)));
            }
            b.truth_items += t["items"].as_array().unwrap().len();
            let n = p["items"].as_array().unwrap().len();
            b.pred_items += n;
            b.max_pred_items = b.max_pred_items.max(n);
        }
        b.invented = f64::from(invented) / f64::from(absent);
        b.omitted = f64::from(omitted) / f64::from(present);
        b
    }

    #[test]
    fn the_three_profiles_differ_in_the_expected_direction() {
        let data = generate(&options(1000, 9));
        let [good, conservative, aggressive] = [0, 1, 2].map(|m| behaviour(&data, m));
        // Hallucination on NOT_FOUND truth fields: rates 0.50 > 0.05 > 0.01.
        assert!(
            (0.45..0.55).contains(&aggressive.invented),
            "{aggressive:?}"
        );
        assert!((0.03..0.07).contains(&good.invented), "{good:?}");
        assert!(conservative.invented < 0.02, "{conservative:?}");
        // Omission on fields present in the truth: 0.20 > 0.03 > 0.02.
        assert!(
            (0.17..0.23).contains(&conservative.omitted),
            "{conservative:?}"
        );
        assert!(good.omitted < 0.05 && aggressive.omitted < 0.05);
        // Items: conservative drops 12 %, aggressive adds 12 %.
        let ratio = |b: &Behaviour| b.pred_items as f64 / b.truth_items as f64;
        assert!(
            (0.84..0.92).contains(&ratio(&conservative)),
            "{conservative:?}"
        );
        assert!((1.05..1.13).contains(&ratio(&aggressive)), "{aggressive:?}");
        assert!((0.97..1.03).contains(&ratio(&good)), "{good:?}");
        assert!([&good, &conservative, &aggressive]
            .iter()
            .all(|b| b.max_pred_items <= MAX_ITEMS));
        // Raw model output: 15 % > 5 % > 2 %, a tenth of it unparseable.
        assert!((110..190).contains(&aggressive.raw), "{aggressive:?}");
        assert!((25..75).contains(&good.raw), "{good:?}");
        assert!(conservative.raw < 40, "{conservative:?}");
        assert!(aggressive.unparseable > 0 && aggressive.unparseable < aggressive.raw / 4);
        // `good` plants no unparseable output: its data gives no such warning.
        assert_eq!(good.unparseable, 0, "{good:?}");
        // Cost per document ≈ cost_per_doc (items make output longer).
        assert!((0.010..0.014).contains(&(good.cost / 1000.0)), "{good:?}");
        assert!(aggressive.cost < conservative.cost && conservative.cost < good.cost);
    }

    /// A model that makes no error still writes amounts as text, dates day
    /// first, and absent values four ways; SPEC §2.1 and §1.4 read all of
    /// them back, so it scores perfectly.
    #[test]
    fn a_profile_without_errors_scores_one_everywhere() {
        let perfect = ModelProfile {
            name: "perfect".into(),
            typo_rate: 0.0,
            digit_swap_rate: 0.0,
            omission_rate: 0.0,
            hallucination_rate: 0.0,
            item_reorder: false,
            item_drop_rate: 0.0,
            item_extra_rate: 0.0,
            raw_output_rate: 0.0,
            unparseable_raw: false,
            cost_per_doc: 0.01,
            confidence: ConfidenceStyle::Calibrated,
        };
        let data = generate(&SynthOptions {
            models: vec![perfect],
            ..options(150, 4)
        });
        let jsonl = &data.predictions[0].1;
        assert!(
            jsonl.contains(" €\"") && jsonl.contains("\"$") && jsonl.contains("\"¥"),
            "money as text"
        );
        assert!(
            jsonl.contains("\"N/A\"") && jsonl.contains(":null"),
            "absent written several ways"
        );
        let dotted = objects(jsonl)
            .iter()
            .filter(|p| p["invoice_date"].as_str().is_some_and(|d| d.contains('.')))
            .count();
        assert!(dotted > 0, "dates written day first");
        let report = evaluate_data(&data);
        let m = &report.models[0];
        assert_eq!(
            m.counts.incorrect + m.counts.missed + m.counts.spurious + m.counts.partial,
            0,
            "{:?}",
            m.counts
        );
        assert_eq!(m.micro.f1, 1.0);
        assert_eq!(m.micro.accuracy, 1.0);
        assert_eq!(m.numeric_precision, Some(1.0));
        assert_eq!(m.schema_validity_rate, 1.0);
        assert_eq!(m.items.as_ref().unwrap().item_count_accuracy, 1.0);
    }

    #[test]
    fn the_evaluation_ranks_the_profiles_as_intended() {
        use crate::eval::rates::{ABSTENTION_RATE, HALLUCINATION_RATE};
        let report = evaluate_data(&generate(&options(300, 12)));
        let [good, conservative, aggressive] = [0, 1, 2].map(|i| &report.models[i]);
        assert_eq!(
            [&good.name, &conservative.name, &aggressive.name],
            ["good", "conservative", "aggressive"]
        );
        assert!(good.micro.f1 > conservative.micro.f1 && good.micro.f1 > aggressive.micro.f1);
        assert!(HALLUCINATION_RATE.value(conservative) < HALLUCINATION_RATE.value(good));
        assert!(HALLUCINATION_RATE.value(good) < HALLUCINATION_RATE.value(aggressive));
        assert!(ABSTENTION_RATE.value(conservative) > ABSTENTION_RATE.value(good));
        assert!(ABSTENTION_RATE.value(conservative) > ABSTENTION_RATE.value(aggressive));
        assert!(aggressive.schema_validity_rate < good.schema_validity_rate);
        assert!(aggressive.cost.unwrap() < conservative.cost.unwrap());
        let items = |m: &crate::eval::ModelReport| m.items.as_ref().unwrap().pred_items;
        assert!(items(conservative) < items(good) && items(good) < items(aggressive));
    }

    /// SPEC §8 in the example's data: the same values with and without
    /// confidences; good calibrated (a small ECE), aggressive overconfident
    /// (a larger one, most values claimed at 0.9 or more), conservative on
    /// its top-level fields only; raw-text records carry none.
    #[test]
    fn confidences_follow_each_profile() {
        let with = generate(&SynthOptions::paradox(200, 8));
        let without = generate(&SynthOptions {
            confidence: false,
            ..SynthOptions::paradox(200, 8)
        });
        assert_eq!(with.truth_jsonl, without.truth_jsonl);
        for ((_, a), (_, b)) in with.predictions.iter().zip(&without.predictions) {
            let stripped: Vec<Map<String, Value>> = objects(a)
                .into_iter()
                .map(|mut r| {
                    r.remove("_confidence");
                    r
                })
                .collect();
            assert_eq!(stripped, objects(b));
        }
        let report = evaluate_data(&with);
        let c = |m: usize| report.models[m].confidence.clone().unwrap();
        let (good, conservative, aggressive) = (c(0), c(1), c(2));
        assert!(good.ece < 0.06, "{}", good.ece);
        assert!(
            aggressive.ece > 2.0 * good.ece,
            "{} {}",
            aggressive.ece,
            good.ece
        );
        assert!(aggressive.mean_confidence > aggressive.accuracy + 0.05);
        assert!(good.auroc.unwrap() > 0.8);
        assert!(conservative
            .fields
            .keys()
            .all(|f| !f.contains('.') && !f.contains('[')));
        assert!(good.fields.contains_key("items[].amount"));
        assert!(conservative.with_confidence < 0.5 && good.with_confidence > 0.8);
        for (_, jsonl) in &with.predictions {
            for record in objects(jsonl) {
                assert_eq!(
                    record.contains_key("output"),
                    !record.contains_key("_confidence")
                );
            }
        }
    }

    #[test]
    fn raw_outputs_parse_unless_meant_not_to() {
        let noisy = ModelProfile {
            raw_output_rate: 1.0,
            ..ModelProfile::aggressive()
        };
        let data = generate(&SynthOptions {
            models: vec![noisy],
            ..options(300, 6)
        });
        let preds = objects(&data.predictions[0].1);
        let keys: Vec<&str> = preds[0].keys().map(String::as_str).collect();
        assert_eq!(keys, ["id", "output", "cost"]);
        let parsed = preds.iter().filter(|p| payload(p).is_some()).count();
        assert!((255..295).contains(&parsed), "{parsed} of 300 parse");
        let fenced = preds
            .iter()
            .filter(|p| p["output"].as_str().unwrap().starts_with("```json\n{"))
            .count();
        assert!(fenced > 50);
    }

    #[test]
    fn money_text_reads_back_as_the_same_number() {
        use crate::eval::normalize::parse_number_str;
        let cases = [
            (123450, 2, style("€", false, '.', ','), "1.234,50 €"),
            (123450, 2, style("$", true, ',', '.'), "$1,234.50"),
            (99, 2, style("£", true, ',', '.'), "£0.99"),
            (123456705, 2, style("€", false, ' ', ','), "1 234 567,05 €"),
            (12300, 0, style("¥", true, ',', '.'), "¥12,300"),
            (950, 0, style("￥", true, ',', '.'), "￥950"),
            (100000, 2, style("", false, '.', ','), "1.000,00"),
        ];
        for (minor, decimals, style, text) in cases {
            assert_eq!(format_money(minor, decimals, &style), text);
            let value = minor as f64 / 10f64.powi(decimals as i32);
            assert_eq!(parse_number_str(text), Some(value), "{text}");
        }
    }

    #[test]
    fn typos_and_digit_swaps_always_change_the_text() {
        let mut rng = Rng::with_seed(1);
        for s in ["a", "Müller GmbH", "東京商事株式会社", "80331", "x"] {
            for _ in 0..50 {
                assert_ne!(typo(&mut rng, s), s);
            }
        }
        let swapped = swap_digits(&mut rng, "INV-2024-0000").unwrap();
        assert!([
            "INV-0224-0000",
            "INV-2204-0000",
            "INV-2042-0000",
            "INV-2020-4000"
        ]
        .contains(&swapped.as_str()));
        assert_eq!(swap_digits(&mut rng, "1111"), None);
        assert_eq!(swap_digits(&mut rng, "no digits"), None);
        assert_eq!(swap_digits(&mut rng, "a12b"), Some("a21b".into()));
        let mut rng = Rng::with_seed(2);
        for _ in 0..50 {
            let s = swap_digits(&mut rng, "2024-01-15").unwrap();
            assert_ne!(s, "2024-01-15");
            assert_eq!(s.len(), 10);
        }
    }

    #[test]
    fn decimals_are_integers_when_whole() {
        assert_eq!(decimal(1500, 2).to_string(), "15");
        assert_eq!(decimal(1550, 2).to_string(), "15.5");
        assert_eq!(decimal(1, 2).to_string(), "0.01");
        assert_eq!(decimal(12300, 0).to_string(), "12300");
        assert_eq!(round_div(125, 10), 13);
    }

    /// The paradox data: the four extra NOT_FOUND-heavy fields in the
    /// documented shares, most SKUs absent, every record valid under its
    /// schema; the default data has none of it.
    #[test]
    fn the_paradox_data_has_its_documented_shape() {
        let data = generate(&SynthOptions::paradox(1000, 5));
        let truth = objects(&data.truth_jsonl);
        let keys: Vec<&str> = truth[0].keys().map(String::as_str).collect();
        assert_eq!(keys[3..6], ["due_date", "delivery_date", "currency"]);
        let mut not_found = BTreeMap::new();
        let (mut skus, mut not_found_skus) = (0, 0);
        for t in &truth {
            for path in [
                "delivery_date",
                "vendor.phone",
                "customer.vat_id",
                "customer.reference",
            ] {
                let value = at(t, path).unwrap_or_else(|| panic!("{path} in {}", t["id"]));
                *not_found.entry(path).or_insert(0) += usize::from(value == "NOT_FOUND");
            }
            for item in t["items"].as_array().unwrap() {
                skus += 1;
                not_found_skus += usize::from(item["sku"] == "NOT_FOUND");
            }
        }
        // The documented shares, ±6 points.
        for (path, share) in [
            ("delivery_date", 0.70),
            ("vendor.phone", 0.65),
            ("customer.vat_id", 0.80),
            ("customer.reference", 0.85),
        ] {
            let seen = not_found[path] as f64 / 1000.0;
            assert!((seen - share).abs() < 0.06, "{path}: {not_found:?}");
        }
        let sku_share = not_found_skus as f64 / skus as f64;
        assert!((0.55..0.65).contains(&sku_share), "{sku_share}");
        let schema: Value = serde_json::from_str(&data.schema_json).unwrap();
        let validator = compile_schema(&schema).unwrap();
        assert!(truth
            .iter()
            .all(|t| validator.is_valid(&Value::Object(t.clone()))));
        assert!(schema["properties"]["customer"]["properties"]["reference"].is_object());
        // The default data: none of the extra fields, every SKU given.
        let plain = generate(&options(200, 5));
        assert!(
            !plain.truth_jsonl.contains("delivery_date")
                && !plain.schema_json.contains("delivery_date")
        );
        for t in objects(&plain.truth_jsonl) {
            assert!(t["items"]
                .as_array()
                .unwrap()
                .iter()
                .all(|i| i["sku"] != "NOT_FOUND"));
        }
    }

    /// M0's accuracy paradox, which the paradox profiles are tuned to show
    /// over many documents: the aggressive model has the higher F1 (it
    /// answers more present values), the conservative one the higher
    /// accuracy (its true negatives, where the aggressive model
    /// hallucinates). The default profiles on the default data do not.
    #[test]
    fn on_the_paradox_data_accuracy_and_f1_rank_the_models_differently() {
        let report = evaluate_data(&generate(&SynthOptions::paradox(2000, 3)));
        let [good, conservative, aggressive] = [0, 1, 2].map(|i| &report.models[i]);
        assert!(aggressive.micro.f1 > conservative.micro.f1 + 0.005);
        assert!(conservative.micro.accuracy > aggressive.micro.accuracy + 0.005);
        assert!(
            good.micro.f1 > aggressive.micro.f1
                && good.micro.accuracy > conservative.micro.accuracy
        );
        // Where the difference comes from: true negatives and hallucinations.
        let tn =
            |m: &crate::eval::ModelReport| m.counts.true_negative as f64 / m.counts.total() as f64;
        assert!(tn(conservative) > 0.15 && tn(conservative) > tn(aggressive) + 0.05);
        let hallucination = |m| crate::eval::rates::HALLUCINATION_RATE.value(m);
        assert!(hallucination(aggressive) > 0.6 && hallucination(conservative) < 0.05);
        let plain = evaluate_data(&generate(&options(2000, 3)));
        let [_, c, a] = [0, 1, 2].map(|i| &plain.models[i]);
        assert!(a.micro.f1 > c.micro.f1 && a.micro.accuracy > c.micro.accuracy);
    }
}
