//! k/1000 for k in 0..=1000, read from a table where a division would
//! cost 15–20 cycles: confidences are usually written with at most three
//! decimals, and both the parser's short path for a record's trailing
//! confidences (`tree::tail`) and the pair log (`confidence::log`) ask for
//! one per value (10,000 × 3 documents: 646,000 entries read and 1.4
//! million pairs logged).
//!
//! Owns: [`THOUSANDTHS`]. Pure: depends on nothing.

/// `THOUSANDTHS[k]` = k/1000 correctly rounded to an f64 — the very
/// bits of `k as f64 / 1000.0`: the table is made by that division (in
/// constant evaluation, IEEE 754 to the bit). A decimal d/10^j with
/// j ≤ 3 and m = d·10^(3−j) ≤ 1000 is the same rational as m/1000, so its
/// correctly rounded value is `THOUSANDTHS[m]` too.
pub const THOUSANDTHS: [f64; 1001] = {
    let mut table = [0.0; 1001];
    let mut k = 0;
    while k <= 1000 {
        table[k] = k as f64 / 1000.0;
        k += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::THOUSANDTHS;

    #[test]
    fn each_entry_is_the_quotient_a_division_gives_and_reads_back_as_written() {
        for (k, &v) in THOUSANDTHS.iter().enumerate() {
            // `black_box`: a division at run time, not folded by the compiler.
            let divided = std::hint::black_box(k as f64) / std::hint::black_box(1000.0);
            assert_eq!(v.to_bits(), divided.to_bits(), "k = {k}");
            // The shortest text of each is the decimal it stands for.
            let text = format!("{}", k as f64 / 1000.0);
            assert_eq!(text.parse::<f64>().unwrap().to_bits(), v.to_bits());
        }
        assert_eq!(THOUSANDTHS[0].to_bits(), 0.0f64.to_bits());
        assert_eq!(THOUSANDTHS[1000], 1.0);
        assert_eq!(THOUSANDTHS[983], 0.983);
        assert_eq!(THOUSANDTHS[100], 0.1);
        // 0.3 is not 0.1 · 3 in binary: the table holds 0.3's own bits.
        assert_eq!(THOUSANDTHS[300], 0.3);
        assert_ne!(THOUSANDTHS[300], 0.1 * 3.0);
    }

    #[test]
    fn a_decimal_with_fewer_places_is_the_same_number_scaled() {
        // "0.5" = 5/10 = 500/1000, "0.25" = 25/100 = 250/1000, as serde_json
        // reads them.
        for (text, m) in [
            ("0.5", 500),
            ("0.25", 250),
            ("0.07", 70),
            ("1.0", 1000),
            ("0.1", 100),
        ] {
            let read: f64 = serde_json::from_str(text).unwrap();
            assert_eq!(read.to_bits(), THOUSANDTHS[m].to_bits(), "{text}");
        }
    }
}
