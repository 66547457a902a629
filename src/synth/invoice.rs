//! The ground truth: one random invoice ([`Invoice`]) drawn from the
//! tables, with its line items, and its truth record.
//!
//! Owns: how many items and codes an invoice has, prices, the choice of
//! the vendor's country, and the truth record's keys and order. May
//! depend on the tables, `values` and `random`; never on the models.

use super::random::{fill, pick, sample};
use super::tables::{
    Country, Unit, COUNTRIES, CUSTOMERS, HS_CODES, MAX_CODES, MAX_ITEMS, PRODUCTS, SKU_PATTERNS,
};
use super::values::{decimal, iso, or_not_found, round_div};
use chrono::{Datelike, Days, NaiveDate};
use fastrand::Rng;
use serde_json::{json, Map, Value};

/// One invoice, with amounts in minor units (cents, or yen).
#[derive(Debug)]
pub(super) struct Invoice {
    pub(super) id: String,
    pub(super) country: &'static Country,
    pub(super) invoice_number: String,
    pub(super) invoice_date: NaiveDate,
    pub(super) due_date: Option<NaiveDate>,
    pub(super) vendor_name: &'static str,
    pub(super) street: String,
    pub(super) city: &'static str,
    pub(super) postcode: String,
    pub(super) vat_id: Option<String>,
    pub(super) customer: &'static str,
    pub(super) total: i64,
    pub(super) tax: Option<i64>,
    pub(super) po_number: Option<String>,
    pub(super) payment_terms: Option<&'static str>,
    pub(super) codes: Vec<&'static str>,
    pub(super) items: Vec<Item>,
    /// The paradox data's fields are written ([`SynthOptions::paradox`]).
    pub(super) paradox: bool,
    pub(super) delivery_date: Option<NaiveDate>,
    pub(super) vendor_phone: Option<String>,
    pub(super) customer_vat_id: Option<String>,
    pub(super) customer_reference: Option<String>,
}

#[derive(Debug)]
pub(super) struct Item {
    pub(super) description: &'static str,
    /// Hundredths of a unit (150 = 1.5 hours).
    pub(super) quantity: i64,
    pub(super) unit_price: i64,
    pub(super) amount: i64,
    /// Not printed on most invoices (`NOT_FOUND` in the truth).
    pub(super) sku: Option<String>,
}

impl Invoice {
    pub(super) fn random(rng: &mut Rng, index: usize, paradox: bool) -> Invoice {
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
    pub(super) fn truth(&self) -> Value {
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
    pub(super) fn random(rng: &mut Rng, country: &Country, paradox: bool) -> Item {
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
pub(super) fn item_count(rng: &mut Rng) -> usize {
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
pub(super) fn code_count(rng: &mut Rng) -> usize {
    let r = rng.f64();
    [0.25, 0.55, 0.80, 0.92]
        .iter()
        .position(|&limit| r < limit)
        .unwrap_or(MAX_CODES)
}

/// A price in minor units of the country's currency, for a range in whole
/// euros: skewed towards the low end, with a shop-like ending (.00, .50,
/// .90, .95, .99; whole tens of yen).
pub(super) fn price(rng: &mut Rng, country: &Country, (low, high): (i64, i64)) -> i64 {
    let u = rng.f64();
    let euros = low as f64 + u * u * (high - low) as f64;
    let local = euros * country.per_euro;
    if country.decimals == 0 {
        return ((local / 10.0).round() as i64).max(1) * 10;
    }
    let cents = *pick(rng, &[0, 0, 50, 90, 95, 99]);
    (local as i64).max(1) * 100 + cents
}

pub(super) fn pick_country(rng: &mut Rng) -> &'static Country {
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
