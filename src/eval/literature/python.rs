//! The few pieces of Python semantics the reference implementations rely
//! on, for JSON values as Python's `json` module reads them: `str(x)`,
//! `==`, `str.strip()` and `str.split()` with Python's notion of
//! whitespace.
//!
//! And numpy's float64 summation ([`numpy_sum`]), which `np.mean` uses.
//!
//! Owns: those five functions. Depends on: `serde_json`. Pure.
//!
//! Known limits (the reader differs, not these functions): serde_json reads
//! an integer outside the 64-bit range as a float and `-0` as `-0.0`, where
//! Python keeps an exact integer (`0` for `-0`); their texts then differ.

use serde_json::{Number, Value};

/// Python's `str.isspace()` for one character: Unicode `White_Space` plus
/// U+001C–U+001F (bidirectional class B/S, which Python counts and Rust's
/// `char::is_whitespace` does not).
pub fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `s.strip()` (no argument).
pub fn python_strip(s: &str) -> &str {
    s.trim_matches(is_python_space)
}

/// Python's `" ".join(s.split())`: runs of whitespace become one space,
/// leading and trailing whitespace goes.
pub fn python_split_join(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split(is_python_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Python's `str(x)` of a JSON scalar as `json.loads` returns it: a string
/// as it is, `True`/`False`, `None`, an integer in decimal, a float in
/// Python's shortest `repr`. (Containers are not needed and give their JSON
/// text.)
pub fn py_str(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Bool(true) => "True".to_string(),
        Value::Bool(false) => "False".to_string(),
        Value::Null => "None".to_string(),
        Value::Number(n) => number_str(n),
        other => other.to_string(),
    }
}

fn number_str(n: &Number) -> String {
    if let Some(i) = n.as_i64() {
        i.to_string()
    } else if let Some(u) = n.as_u64() {
        u.to_string()
    } else {
        float_repr(n.as_f64().unwrap_or(f64::NAN))
    }
}

/// Python's `repr(float)` (`float_repr_style = 'short'`): the shortest
/// digits that round-trip, in fixed notation when the decimal exponent
/// `decpt` (value = 0.d₁d₂… × 10^decpt) satisfies −4 < decpt ≤ 16, else as
/// `d.ddde±XX` (at least two exponent digits); an integral fixed value
/// gets `.0`. (CPython `Python/pystrtod.c`, `format_float_short`.)
///
/// ```
/// use fieldscope::eval::literature::python::float_repr;
/// assert_eq!(float_repr(1.0), "1.0");
/// assert_eq!(float_repr(1e16), "1e+16");
/// assert_eq!(float_repr(1234567890123456.0), "1234567890123456.0");
/// assert_eq!(float_repr(0.0001), "0.0001");
/// assert_eq!(float_repr(0.00001), "1e-05");
/// assert_eq!(float_repr(-2.5e-7), "-2.5e-07");
/// assert_eq!(float_repr(0.1 + 0.2), "0.30000000000000004");
/// ```
pub fn float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.to_string();
    }
    // Rust's `{:e}` prints the shortest round-trip digits, e.g. "1.5e-7".
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let decpt = exp + 1;
    let mut out = String::new();
    if x < 0.0 {
        out.push('-');
    }
    if decpt <= -4 || decpt > 16 {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let e = decpt - 1;
        out.push('e');
        out.push(if e < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", e.abs()));
    } else if decpt <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-decpt) as usize));
        out.push_str(&digits);
    } else {
        let point = decpt as usize;
        if point >= digits.len() {
            out.push_str(&digits);
            out.extend(std::iter::repeat_n('0', point - digits.len()));
            out.push_str(".0");
        } else {
            out.push_str(&digits[..point]);
            out.push('.');
            out.push_str(&digits[point..]);
        }
    }
    out
}

/// `np.sum` of a float64 array (`np.add.reduce`): numpy's pairwise
/// summation (`numpy/_core/src/umath/loops_utils.h.src`,
/// `pairwise_sum`): fewer than 8 values are added left to right from 0;
/// up to 128 in eight interleaved partial sums combined as
/// ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), then the rest left to right; more
/// are split in two (the first half a multiple of 8) and summed
/// recursively. `np.mean(x)` is `np.sum(x) / len(x)`. (Checked against
/// numpy 2.4 on 3,000 random arrays of 1–400 values: all bit-identical.)
pub fn numpy_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        a.iter().fold(0.0, |s, x| s + x)
    } else if n <= 128 {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&a[..8]);
        let mut i = 8;
        while i < n - n % 8 {
            for (j, rj) in r.iter_mut().enumerate() {
                *rj += a[i + j];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for x in &a[i..] {
            res += x;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        numpy_sum(&a[..n2]) + numpy_sum(&a[n2..])
    }
}

/// Python's `a == b` for values `json.loads` returns: numbers compare by
/// exact value across int and float, `True == 1` and `False == 0`, objects
/// compare as dicts (key order ignored), lists element-wise.
pub fn python_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| python_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| python_eq(v, w)))
        }
        (Value::Bool(_) | Value::Number(_), Value::Bool(_) | Value::Number(_)) => {
            match (numeric(a), numeric(b)) {
                (Some(x), Some(y)) => x == y,
                _ => false,
            }
        }
        _ => false,
    }
}

/// A JSON number or boolean as an exact value: an integer, or a float.
#[derive(Debug, Clone, Copy)]
enum Num {
    Int(i128),
    Float(f64),
}

impl PartialEq for Num {
    fn eq(&self, other: &Num) -> bool {
        match (*self, *other) {
            (Num::Int(x), Num::Int(y)) => x == y,
            (Num::Float(x), Num::Float(y)) => x == y,
            (Num::Int(i), Num::Float(f)) | (Num::Float(f), Num::Int(i)) => {
                // Exact comparison, as Python does: an integral float within
                // range equals the integer it converts to without rounding.
                f.is_finite() && f.fract() == 0.0 && f.abs() < 1.7e38 && f as i128 == i
            }
        }
    }
}

fn numeric(v: &Value) -> Option<Num> {
    match v {
        Value::Bool(b) => Some(Num::Int(i128::from(*b))),
        Value::Number(n) => Some(if let Some(i) = n.as_i64() {
            Num::Int(i128::from(i))
        } else if let Some(u) = n.as_u64() {
            Num::Int(i128::from(u))
        } else {
            Num::Float(n.as_f64()?)
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn python_equality() {
        assert!(python_eq(&json!(1), &json!(1.0)));
        assert!(python_eq(&json!(true), &json!(1)));
        assert!(python_eq(&json!(false), &json!(0.0)));
        assert!(!python_eq(&json!("1"), &json!(1)));
        assert!(python_eq(
            &json!({"a": 1, "b": [1, 2]}),
            &json!({"b": [1.0, 2], "a": true})
        ));
        assert!(!python_eq(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        // 2**53 + 1 is not equal to the float 2**53 in Python.
        assert!(!python_eq(
            &json!(9007199254740993u64),
            &json!(9007199254740992.0)
        ));
    }

    #[test]
    fn numpy_sums_pairwise() {
        // Nine values 1e16, 1, …, 1 (the spacing of doubles at 1e16 is 2,
        // ties round to an even significand; 1e16/2 is even). Pairwise:
        // r0 = 1e16, r1..r7 = 1; ((1e16 + 1) + 2) + (2 + 2): 1e16 + 1 ties
        // to 1e16, + 2 = 1e16 + 2, + 4 = 1e16 + 6; the ninth 1 ties between
        // 1e16 + 6 and 1e16 + 8, and (1e16 + 8)/2 is even: 1e16 + 8 (numpy
        // 2.4 prints 1.0000000000000008e+16). Left to right every 1 is lost.
        let mut a = vec![1e16];
        a.extend([1.0; 8]);
        assert_eq!(numpy_sum(&a), 1e16 + 8.0);
        assert_eq!(a.iter().fold(0.0, |s, x| s + x), 1e16);
        assert_eq!(numpy_sum(&[]), 0.0);
        assert_eq!(numpy_sum(&[0.5; 300]), 150.0);
    }

    #[test]
    fn python_whitespace() {
        assert_eq!(python_split_join("  a\u{1c}b\t\n c\u{3000}"), "a b c");
        assert_eq!(python_strip("\u{1f} x \u{85}"), "x");
        // Not whitespace in Python: U+200B, U+180E.
        assert_eq!(python_split_join("a\u{200b}b"), "a\u{200b}b");
    }

    #[test]
    fn python_str_of_scalars() {
        assert_eq!(py_str(&json!(true)), "True");
        assert_eq!(py_str(&json!(12)), "12");
        assert_eq!(py_str(&json!(1e22)), "1e+22");
        assert_eq!(py_str(&json!(123.456)), "123.456");
        assert_eq!(py_str(&json!(-1.5e-10)), "-1.5e-10");
        assert_eq!(py_str(&json!(1e100)), "1e+100");
    }
}
