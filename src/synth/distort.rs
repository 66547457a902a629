//! The predictions: a [`Distorter`] turns each truth invoice into one
//! model's prediction record (omissions, invented values and items,
//! typos, swapped digits, reordering, raw model text) and notes which
//! values it got wrong, for their confidences.
//!
//! Owns: the errors a profile's rates cause and the forms that are not
//! errors (money as text, day-first dates). May depend on the profile,
//! the invoice, the tables, `values` and `random`.

use super::invoice::{price, Invoice, Item};
use super::profile::{draw_confidence, ConfidenceStyle, ModelProfile};
use super::random::{fill, pick, sample, shuffle, swap_digits, typo};
use super::tables::{
    EXTRA_LINES, HS_CODES, MAX_ITEMS, NOT_FOUND, PRODUCTS, REFUSALS, SKU_PATTERNS,
};
use super::values::{decimal, format_money, iso, put, round_div};
use chrono::{Datelike, Days, NaiveDate};
use fastrand::Rng;
use serde_json::{json, Map, Value};

/// Share of money values written as formatted text (not an error, §2.1).
const MONEY_AS_TEXT_RATE: f64 = 0.08;
/// Share of dates written day first with `.` or `/` (not an error, §2.1).
const DATE_REFORMAT_RATE: f64 = 0.15;
/// Share of raw outputs that do not parse.
const UNPARSEABLE_SHARE: f64 = 0.1;

/// Turns truth records into one model's predictions.
pub(super) struct Distorter<'a> {
    pub(super) rng: Rng,
    pub(super) profile: &'a ModelProfile,
    /// Errors made so far (a typo, swapped digits, an omission, an
    /// invented value or item): a value is wrong when this grew while it
    /// was written.
    pub(super) errors: u32,
    /// The last record's fields: (path, written with an error).
    pub(super) marks: Vec<(String, bool)>,
    /// The last record's items, in their final order: written with an
    /// error (or invented).
    pub(super) item_marks: Vec<bool>,
}

impl Distorter<'_> {
    pub(super) fn chance(&mut self, p: f64) -> bool {
        self.rng.f64() < p
    }

    /// One prediction record, plain or as raw model text.
    pub(super) fn record(&mut self, inv: &Invoice) -> Value {
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
    pub(super) fn field(
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
    pub(super) fn add_confidences(&self, rng: &mut Rng, record: &mut Value) {
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
    pub(super) fn present(&mut self, value: impl FnOnce(&mut Self) -> Value) -> Option<Value> {
        if self.chance(self.profile.omission_rate) {
            self.errors += 1;
            self.absent()
        } else {
            Some(value(self))
        }
    }

    /// A value that may be absent in the truth: when it is, invented at
    /// `hallucination_rate`, else answered absent.
    pub(super) fn optional<T>(
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
    pub(super) fn absent(&mut self) -> Option<Value> {
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

    pub(super) fn text(&mut self, truth: &str) -> Value {
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

    pub(super) fn date(&mut self, truth: NaiveDate) -> Value {
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
    pub(super) fn swapped(&mut self, s: String) -> String {
        match swap_digits(&mut self.rng, &s) {
            Some(t) => {
                self.errors += 1;
                t
            }
            None => s,
        }
    }

    /// An amount in minor units of the invoice's currency.
    pub(super) fn money(&mut self, inv: &Invoice, minor: i64) -> Value {
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

    pub(super) fn quantity(&mut self, hundredths: i64) -> Value {
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
    pub(super) fn codes(&mut self, truth: &[&str]) -> Option<Value> {
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
    pub(super) fn items(&mut self, inv: &Invoice) -> Value {
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

    pub(super) fn item(&mut self, inv: &Invoice, item: &Item) -> Value {
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

    pub(super) fn extra_item(&mut self, inv: &Invoice) -> Value {
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
    pub(super) fn raw_text(&mut self, payload: &Map<String, Value>, plant: bool) -> String {
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
