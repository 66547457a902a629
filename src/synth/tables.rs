//! The synthetic invoices' vocabularies: the vendors' countries (their
//! currencies, addresses, VAT ids, payment terms and money styles), the
//! customers, the products and the lines a model invents, HS codes, SKU
//! patterns and refusals, with the size limits of a record.
//!
//! Owns: data only (constant tables and their row types). Depends on
//! nothing; every other part of `synth` reads it.

/// The most items a truth or prediction record has.
pub(super) const MAX_ITEMS: usize = 30;
/// The most codes a truth record has.
pub(super) const MAX_CODES: usize = 4;
pub(super) const NOT_FOUND: &str = "NOT_FOUND";

/// How a country writes an amount as text. Every style reads back to the
/// same number under SPEC §2.1 (currency symbols are category Sc, spaces
/// and thousands separators are dropped, the decimal separator is last).
#[derive(Debug)]
pub(super) struct MoneyStyle {
    pub(super) symbol: &'static str,
    pub(super) symbol_first: bool,
    pub(super) group: char,
    pub(super) decimal: char,
}

pub(super) const fn style(
    symbol: &'static str,
    symbol_first: bool,
    group: char,
    decimal: char,
) -> MoneyStyle {
    MoneyStyle {
        symbol,
        symbol_first,
        group,
        decimal,
    }
}

#[derive(Debug)]
pub(super) struct Country {
    /// Relative frequency among vendors.
    pub(super) weight: u32,
    pub(super) currency: &'static str,
    /// Digits after the decimal point of the currency.
    pub(super) decimals: u32,
    /// Units of the currency per euro (prices are listed in euros).
    pub(super) per_euro: f64,
    /// Tax rate in percent.
    pub(super) tax_percent: i64,
    /// Probability that an invoice shows no tax amount.
    pub(super) tax_absent: f64,
    pub(super) invoice_prefix: &'static str,
    pub(super) vendors: &'static [&'static str],
    /// `{n}` is replaced by a house number.
    pub(super) streets: &'static [&'static str],
    pub(super) cities: &'static [&'static str],
    /// Patterns: `9` a digit, `A` an uppercase letter.
    pub(super) postcode: &'static str,
    pub(super) vat_id: Option<&'static str>,
    /// A plausible id to invent when the country has none.
    pub(super) invented_tax_id: &'static str,
    /// Payment terms and the days until the due date.
    pub(super) terms: &'static [(&'static str, u64)],
    pub(super) money: &'static [MoneyStyle],
}

pub(super) static COUNTRIES: [Country; 7] = [
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

pub(super) const CUSTOMERS: &[&str] = &[
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
pub(super) enum Unit {
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
pub(super) struct Product {
    pub(super) description: &'static str,
    pub(super) price: (i64, i64),
    pub(super) unit: Unit,
}

pub(super) const fn product(description: &'static str, price: (i64, i64), unit: Unit) -> Product {
    Product {
        description,
        price,
        unit,
    }
}

pub(super) static PRODUCTS: [Product; 30] = [
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
pub(super) const EXTRA_LINES: [Product; 6] = [
    product("Shipping & handling", (5, 60), Unit::Piece),
    product("Versandkosten", (5, 40), Unit::Piece),
    product("Frais de port", (5, 40), Unit::Piece),
    product("Expresszuschlag", (10, 80), Unit::Piece),
    product("送料", (5, 30), Unit::Piece),
    product("Environmental fee", (1, 15), Unit::Piece),
];

pub(super) const HS_CODES: &[&str] = &[
    "HS-8471", "HS-8517", "HS-8443", "HS-9403", "HS-4819", "HS-8504", "HS-3926", "HS-6109",
    "HS-0901", "HS-8528", "HS-9018", "HS-8708", "HS-4011", "HS-3004", "HS-2204", "HS-8414",
];

pub(super) const SKU_PATTERNS: &[&str] = &["SKU-99999", "AA-9999-A", "999-99999", "AAA9999"];

pub(super) const REFUSALS: &[&str] = &[
    "I'm sorry, but I can't read the invoice in this image.",
    "The document does not appear to be an invoice.",
    "Error: the page is blank or unreadable.",
];
