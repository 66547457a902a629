//! `fieldscope::io`: bytes → records (SPEC §1.1). Every error test checks
//! the exact message, file, line and column.

use fieldscope::eval::model::{Record, RecordFile};
use fieldscope::eval::tree::Json;
use fieldscope::io::{
    decode_text, detect_format, nfc_value, parse_docs, parse_json_value, parse_records, FileFormat,
};
use fieldscope::{Error, ErrorKind};
use serde_json::{json, Map, Value};

/// Parses, panicking with the error (tests only).
fn parse(name: &str, text: &str) -> RecordFile {
    match parse_records(name, text.as_bytes()) {
        Ok(file) => file,
        Err(e) => panic!("{name} should parse: {e}"),
    }
}

/// Parses, expecting an error of `kind`; returns its display.
fn parse_err(name: &str, bytes: &[u8], kind: ErrorKind) -> String {
    match parse_records(name, bytes) {
        Ok(file) => panic!("{name} should not parse, got {:?}", file.records),
        Err(e) => {
            assert_eq!(e.kind, kind, "{e}");
            assert_eq!(e.file.as_deref(), Some(name));
            e.to_string()
        }
    }
}

fn fields(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

fn record(index: usize, line: Option<usize>, key: Option<&str>, value: Value) -> Record {
    Record {
        index,
        line,
        key: key.map(str::to_owned),
        fields: fields(value),
    }
}

// ---------------------------------------------------------------- JSON ---

#[test]
fn json_array_of_records() {
    let text = "[\n  {\"id\": \"a\", \"total\": 10.5, \"items\": [{\"sku\": 1}]},\n\n  {\"id\": \"b\", \"total\": null}\n]\n";
    let file = parse("truth.json", text);
    assert_eq!(file.name, "truth.json");
    assert_eq!(
        file.records,
        [
            record(
                0,
                Some(2),
                None,
                json!({"id": "a", "total": 10.5, "items": [{"sku": 1}]})
            ),
            record(1, Some(4), None, json!({"id": "b", "total": null})),
        ]
    );
    // Key order is the file's order.
    let keys: Vec<&str> = file.records[0].fields.keys().map(String::as_str).collect();
    assert_eq!(keys, ["id", "total", "items"]);
}

#[test]
fn json_empty_array_has_zero_records() {
    assert!(parse("t.json", "[]").records.is_empty());
    assert!(parse("t.json", " [ \n ] \n").records.is_empty());
}

#[test]
fn json_id_map_keys_are_trimmed_ids() {
    let text = "{\n \" doc_1 \": {\"total\": 1},\n \"doc_2\":\n   {\"total\": 2}\n}";
    let file = parse("preds.json", text);
    assert_eq!(
        file.records,
        [
            record(0, Some(2), Some("doc_1"), json!({"total": 1})),
            record(1, Some(4), Some("doc_2"), json!({"total": 2})),
        ]
    );
}

#[test]
fn json_id_map_keeps_duplicate_ids_for_the_evaluation_to_warn() {
    let file = parse("p.json", r#"{"a": {"v": 1}, "b": {}, "a": {"v": 2}}"#);
    let keys: Vec<Option<&str>> = file.records.iter().map(|r| r.key.as_deref()).collect();
    assert_eq!(keys, [Some("a"), Some("b"), Some("a")]);
    assert_eq!(file.records[2].fields, fields(json!({"v": 2})));
}

#[test]
fn json_empty_object_is_an_empty_id_map() {
    assert!(parse("t.json", "{}").records.is_empty());
}

#[test]
fn json_element_that_is_not_an_object() {
    let text = "[\n {\"id\": 1},\n {\"id\": 2},\n \"oops\"\n]";
    assert_eq!(
        parse_err("t.json", text.as_bytes(), ErrorKind::Shape),
        "t.json:4: record 3: expected a record (a JSON object), found a string"
    );
    assert_eq!(
        parse_err("t.json", b"[{}, [1]]", ErrorKind::Shape),
        "t.json:1: record 2: expected a record (a JSON object), found an array"
    );
}

#[test]
fn json_wrong_top_level_shape() {
    for (text, found) in [
        ("\"hello\"", "a string"),
        ("42", "a number"),
        ("-1.5e3", "a number"),
        ("true", "a boolean"),
        ("null", "null"),
    ] {
        assert_eq!(
            parse_err("t.json", text.as_bytes(), ErrorKind::Shape),
            format!(
                "t.json: expected an array of records or an object mapping id → record, \
                 found {found}"
            )
        );
    }
}

#[test]
fn json_single_record_object_is_not_an_id_map() {
    assert_eq!(
        parse_err(
            "t.json",
            b"{\"vendor\": {\"name\": \"x\"},\n \"total\": 3}",
            ErrorKind::Shape
        ),
        "t.json:2: record \"total\": expected a record (a JSON object) for this id, \
         found a number"
    );
    assert_eq!(
        parse_err("t.json", b"{\"id\": \"a\", \"total\": 3}", ErrorKind::Shape),
        "t.json:1: expected an array of records or an object mapping id → record, \
         found an object whose values are not records (\"id\" is a string); to give a \
         single record, wrap it in [ ] or save it as .jsonl"
    );
}

#[test]
fn json_syntax_error_names_line_and_column() {
    let text = "[\n  {\"id\": \"a\"},\n  {\"id\" \"b\"}\n]";
    assert_eq!(
        parse_err("t.json", text.as_bytes(), ErrorKind::Syntax),
        "t.json:3:9: expected `:`"
    );
    assert_eq!(
        parse_err("t.json", b"[{\"a\": 1,}]", ErrorKind::Syntax),
        "t.json:1:10: trailing comma"
    );
}

#[test]
fn json_syntax_error_column_counts_characters() {
    // "é" and "€" are 2 and 3 bytes; the stray `x` is the 13th character.
    let text = "[{\"é\": \"€\", x}]";
    assert_eq!(
        parse_err("t.json", text.as_bytes(), ErrorKind::Syntax),
        "t.json:1:13: key must be a string"
    );
}

#[test]
fn json_truncated() {
    assert_eq!(
        parse_err(
            "t.json",
            b"[\n  {\"id\": \"a\"},\n  {\"id\": \"b",
            ErrorKind::Syntax
        ),
        "t.json:3:11: unexpected end of file while parsing a string (is it truncated?)"
    );
    assert_eq!(
        parse_err("t.json", b"[{\"a\": 1}", ErrorKind::Syntax),
        "t.json:1:9: unexpected end of file while parsing a list (is it truncated?)"
    );
}

#[test]
fn json_text_after_the_document() {
    assert_eq!(
        parse_err("t.json", b"[{}]\n]", ErrorKind::Syntax),
        "t.json:2:1: unexpected text after the end of the JSON document"
    );
}

#[test]
fn json_nan_and_infinity_are_errors() {
    for (text, at) in [
        ("[{\"a\": NaN}]", "1:8"),
        ("[{\"a\": nan}]", "1:8"),
        ("[{\"a\": Infinity}]", "1:8"),
        ("[{\"a\": -Infinity}]", "1:8"),
        ("[{\"a\": +INF}]", "1:8"),
        ("[{\"a\":\n  -inf}]", "2:3"),
    ] {
        assert_eq!(
            parse_err("t.json", text.as_bytes(), ErrorKind::Syntax),
            format!(
                "t.json:{at}: NaN and Infinity are not valid JSON numbers; write null or a string"
            ),
            "{text}"
        );
    }
    // Other bare words are named, at their first character.
    assert_eq!(
        parse_err("t.json", b"[{\"a\": nope}]", ErrorKind::Syntax),
        "t.json:1:8: invalid literal `nope`: expected a JSON value (strings need double \
         quotes; the only bare words are true, false and null)"
    );
}

#[test]
fn json_number_out_of_range() {
    assert_eq!(
        parse_err("t.json", b"[{\"total\": 1e400}]", ErrorKind::Syntax),
        "t.json:1:12: number out of range: JSON numbers must lie within ±1.8e308 \
         (write larger numbers as strings)"
    );
    assert_eq!(
        parse_err("t.jsonl", b"{\"total\": -1e400}", ErrorKind::Syntax),
        "t.jsonl:1:11: number out of range: JSON numbers must lie within ±1.8e308 \
         (write larger numbers as strings)"
    );
}

#[test]
fn json_nesting_too_deep() {
    // The top-level array and the record are levels 1 and 2; the 126th
    // `[` (column 8 + 125) is level 128, one too many.
    let deep = format!("[{{\"a\": {}1{}}}]", "[".repeat(200), "]".repeat(200));
    assert_eq!(
        parse_err("t.json", deep.as_bytes(), ErrorKind::Syntax),
        "t.json:1:133: nesting too deep: arrays and objects may be nested at most 127 levels deep"
    );
    let ok = format!("[{{\"a\": {}1{}}}]", "[".repeat(125), "]".repeat(125));
    assert_eq!(parse("t.json", &ok).records.len(), 1);
    // Far deeper input still fails cleanly (no stack overflow).
    let deeper = "[".repeat(1_000_000);
    assert_eq!(
        parse_err("t.json", deeper.as_bytes(), ErrorKind::Syntax),
        "t.json:1:128: nesting too deep: arrays and objects may be nested at most 127 levels deep"
    );
    let deeper_line = format!("{{\"a\": {}", "{\"a\": ".repeat(100_000));
    assert!(
        parse_err("t.jsonl", deeper_line.as_bytes(), ErrorKind::Syntax).ends_with(
            "nesting too deep: arrays and objects may be nested at most 127 levels deep"
        )
    );
}

#[test]
fn json_file_holding_jsonl_is_read_as_jsonl() {
    let file = parse("t.json", "{\"id\": 1}\n\n{\"id\": 2}\n");
    assert_eq!(
        file.records,
        [
            record(0, Some(1), None, json!({"id": 1})),
            record(1, Some(3), None, json!({"id": 2})),
        ]
    );
    // Its errors are then JSONL errors.
    assert_eq!(
        parse_err(
            "t.json",
            b"{\"id\": 1}\n{\"id\": 2}\n{\"id\": }\n",
            ErrorKind::Syntax
        ),
        "t.json:3:8: expected value"
    );
}

#[test]
fn json_empty_file_is_an_error() {
    for text in ["", "  \n\t\n"] {
        assert_eq!(
            parse_err("t.json", text.as_bytes(), ErrorKind::Syntax),
            "t.json: empty file: expected an array of records or an object mapping id → record"
        );
    }
}

// --------------------------------------------------------------- JSONL ---

#[test]
fn jsonl_blank_lines_are_skipped_and_lines_kept() {
    let text = "\n{\"id\": \"a\"}\n   \n\t\r\n{\"id\": \"b\", \"n\": [1, 2]}\r\n\n{\"id\": \"c\"}";
    let file = parse("p.jsonl", text);
    assert_eq!(
        file.records,
        [
            record(0, Some(2), None, json!({"id": "a"})),
            record(1, Some(5), None, json!({"id": "b", "n": [1, 2]})),
            record(2, Some(7), None, json!({"id": "c"})),
        ]
    );
    assert_eq!(file.records[2].describe(), "record 3 (line 7)");
}

#[test]
fn jsonl_bad_line_in_the_middle() {
    let text = "{\"id\": 1}\n\n{\"id\": 2}\n{\"id\": 3, \"x\": [1 2]}\n{\"id\": 4}\n";
    assert_eq!(
        parse_err("p.ndjson", text.as_bytes(), ErrorKind::Syntax),
        "p.ndjson:4:19: expected `,` or `]`"
    );
}

#[test]
fn jsonl_truncated_last_line() {
    let text = "{\"id\": 1}\n{\"id\": 2, \"vendor\": {\"name\": \"Ac";
    assert_eq!(
        parse_err("p.jsonl", text.as_bytes(), ErrorKind::Syntax),
        "p.jsonl:2:32: unexpected end of line while parsing a string (is it truncated?)"
    );
    assert_eq!(
        parse_err("p.jsonl", b"{\"id\": 1}\n{\"id\": 2", ErrorKind::Syntax),
        "p.jsonl:2:8: unexpected end of line while parsing an object (is it truncated?)"
    );
}

#[test]
fn jsonl_pretty_printed_record_is_an_error_on_its_first_line() {
    assert_eq!(
        parse_err("p.jsonl", b"{\n  \"id\": 1\n}\n", ErrorKind::Syntax),
        "p.jsonl:1:1: this record continues on the next line: JSONL holds one record \
         per line (pretty-printed JSON? save it as .json, or write each record on one line)"
    );
    // A record that never ends is truncated, not pretty-printed.
    assert_eq!(
        parse_err("p.jsonl", b"{\n  \"id\": 1\n", ErrorKind::Syntax),
        "p.jsonl:1:1: unexpected end of line while parsing an object (is it truncated?)"
    );
}

#[test]
fn jsonl_line_that_is_not_an_object() {
    let text = "{\"id\": 1}\n\n[{\"id\": 2}]\n";
    assert_eq!(
        parse_err("p.jsonl", text.as_bytes(), ErrorKind::Shape),
        "p.jsonl:3: record 2: expected a record (a JSON object) on each line, found an array"
    );
    assert_eq!(
        parse_err("p.jsonl", b"\"text\"", ErrorKind::Shape),
        "p.jsonl:1: record 1: expected a record (a JSON object) on each line, found a string"
    );
}

#[test]
fn jsonl_two_records_on_one_line() {
    assert_eq!(
        parse_err("p.jsonl", b"{\"id\": 1} {\"id\": 2}\n", ErrorKind::Syntax),
        "p.jsonl:1:11: unexpected text after the record (each line holds one JSON object)"
    );
}

#[test]
fn jsonl_nan() {
    assert_eq!(
        parse_err(
            "p.jsonl",
            b"{\"id\": 1}\n{\"score\": NaN}\n",
            ErrorKind::Syntax
        ),
        "p.jsonl:2:11: NaN and Infinity are not valid JSON numbers; write null or a string"
    );
}

#[test]
fn jsonl_and_csv_empty_files_have_zero_records() {
    for name in ["p.jsonl", "p.csv"] {
        for text in ["", "\n\n  \n"] {
            let file = parse(name, text);
            assert_eq!(file.name, name);
            assert!(file.records.is_empty(), "{name} {text:?}");
        }
    }
}

// ----------------------------------------------------------------- CSV ---

#[test]
fn csv_rows_become_string_records() {
    let text = "id , total,date\ndoc_1,10.50,2024-01-02\ndoc_2,,007\n";
    let file = parse("t.csv", text);
    assert_eq!(
        file.records,
        [
            record(
                0,
                Some(2),
                None,
                json!({"id": "doc_1", "total": "10.50", "date": "2024-01-02"})
            ),
            record(
                1,
                Some(3),
                None,
                json!({"id": "doc_2", "total": "", "date": "007"})
            ),
        ]
    );
}

#[test]
fn csv_header_only_has_zero_records() {
    assert!(parse("t.csv", "id,total\n").records.is_empty());
}

#[test]
fn csv_quoted_commas_newlines_and_quotes() {
    let text = "id,name,note\r\n1,\"Acme, Inc.\",\"two\r\nlines\"\r\n\r\n2,\"say \"\"hi\"\"\",27\" screen\r\n";
    let file = parse("t.csv", text);
    assert_eq!(
        file.records,
        [
            record(
                0,
                Some(2),
                None,
                json!({"id": "1", "name": "Acme, Inc.", "note": "two\r\nlines"})
            ),
            record(
                1,
                Some(5),
                None,
                json!({"id": "2", "name": "say \"hi\"", "note": "27\" screen"})
            ),
        ]
    );
}

#[test]
fn csv_ragged_rows() {
    let text = "id,total\n1,2\n\n3,4,5\n";
    assert_eq!(
        parse_err("t.csv", text.as_bytes(), ErrorKind::Syntax),
        "t.csv:4: this row has 3 fields but the header row has 2 (quote values that contain commas)"
    );
    assert_eq!(
        parse_err("t.csv", b"id,total\r\n1,2\r\n3\r\n", ErrorKind::Syntax),
        "t.csv:3: this row has 1 field but the header row has 2"
    );
}

#[test]
fn csv_unclosed_quote() {
    // The quote swallows the rest of the file, yet the row has two fields.
    let text = "id,name\n1,\"Acme, Inc\n2,Beta\n";
    assert_eq!(
        parse_err("t.csv", text.as_bytes(), ErrorKind::Syntax),
        "t.csv:2:3: this quoted field is never closed (no closing `\"` before the end of the file)"
    );
    // Here it makes the row too short; the quote is still the cause named.
    let text = "id,name,total\n1,\"Acme,3\n2,Beta,4\n";
    assert_eq!(
        parse_err("t.csv", text.as_bytes(), ErrorKind::Syntax),
        "t.csv:2:3: this quoted field is never closed (no closing `\"` before the end of the file)"
    );
    assert_eq!(
        parse_err("t.csv", b"id,\"name\n", ErrorKind::Syntax),
        "t.csv:1:4: this quoted field is never closed (no closing `\"` before the end of the file)"
    );
}

#[test]
fn csv_duplicate_and_empty_header_names() {
    assert_eq!(
        parse_err("t.csv", b"\nid,total, id\n1,2,3\n", ErrorKind::Shape),
        "t.csv:2: column 3 of the header row repeats the name \"id\" (column 1); \
         column names must be unique"
    );
    assert_eq!(
        parse_err("t.csv", b"id,,total\n1,2,3\n", ErrorKind::Shape),
        "t.csv:1: column 2 of the header row has no name; every column needs one"
    );
}

#[test]
fn csv_header_names_equal_after_nfc_are_duplicates() {
    assert_eq!(
        parse_err(
            "t.csv",
            "caf\u{e9},cafe\u{301}\n1,2\n".as_bytes(),
            ErrorKind::Shape
        ),
        "t.csv:1: column 2 of the header row repeats the name \"café\" (column 1); \
         column names must be unique"
    );
}

// ------------------------------------------------------------ encoding ---

#[test]
fn utf8_bom_is_skipped() {
    let json = parse_records("t.json", b"\xEF\xBB\xBF[{\"id\": 1}]");
    assert_eq!(
        json.map(|f| f.records),
        Ok(vec![record(0, Some(1), None, json!({"id": 1}))])
    );
    let csv = parse_records("t.csv", b"\xEF\xBB\xBFid,total\n1,2\n");
    assert_eq!(
        csv.map(|f| f.records),
        Ok(vec![record(
            0,
            Some(2),
            None,
            json!({"id": "1", "total": "2"})
        )])
    );
    let jsonl = parse_records("t.jsonl", b"\xEF\xBB\xBF{\"id\": 1}\n");
    assert_eq!(
        jsonl.map(|f| f.records),
        Ok(vec![record(0, Some(1), None, json!({"id": 1}))])
    );
    assert_eq!(decode_text("t", b"\xEF\xBB\xBFabc"), Ok("abc"));
    assert_eq!(decode_text("t", b""), Ok(""));
}

#[test]
fn utf16_is_reported() {
    let le: Vec<u8> = "\u{feff}[{\"id\": 1}]"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    assert_eq!(
        parse_err("t.json", &le, ErrorKind::Encoding),
        "t.json:1:1: the file is not UTF-8: it looks like UTF-16 (little-endian \
         byte-order mark at byte offset 0); save it as UTF-8"
    );
    let be: Vec<u8> = "\u{feff}id\n"
        .encode_utf16()
        .flat_map(u16::to_be_bytes)
        .collect();
    assert_eq!(
        parse_err("t.csv", &be, ErrorKind::Encoding),
        "t.csv:1:1: the file is not UTF-8: it looks like UTF-16 (big-endian \
         byte-order mark at byte offset 0); save it as UTF-8"
    );
    // Without a BOM, ASCII in UTF-16 is valid UTF-8 full of NUL bytes.
    let no_bom: Vec<u8> = "[{\"id\": 1}]"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    assert_eq!(
        parse_err("t.json", &no_bom, ErrorKind::Encoding),
        "t.json:1:2: the file is not UTF-8: it looks like UTF-16 (it contains NUL \
         bytes, the first at byte offset 1); save it as UTF-8"
    );
}

#[test]
fn invalid_utf8_names_the_first_bad_byte() {
    // Latin-1 "é" (0xE9) on line 2, after "  \"caf" (6 characters).
    let bytes = b"[\n  \"caf\xE9\"]";
    assert_eq!(
        parse_err("t.json", bytes, ErrorKind::Encoding),
        "t.json:2:7: the file is not UTF-8: invalid byte 0xE9 at byte offset 8; \
         save it as UTF-8 (it may be Latin-1 or Windows-1252)"
    );
    // The offset counts a BOM; the column counts characters.
    let bytes = b"\xEF\xBB\xBFid,name\n1,\xC3\xA9\xFF\n";
    assert_eq!(
        parse_err("t.csv", bytes, ErrorKind::Encoding),
        "t.csv:2:4: the file is not UTF-8: invalid byte 0xFF at byte offset 15; \
         save it as UTF-8 (it may be Latin-1 or Windows-1252)"
    );
    // A multi-byte sequence cut off by the end of the file.
    let e = decode_text("t.jsonl", b"{\"a\": \"\xE2\x82");
    assert_eq!(
        e.map_err(|e| e.to_string()),
        Err(
            "t.jsonl:1:8: the file is not UTF-8: incomplete UTF-8 sequence (byte 0xE2) \
             at the end of the file at byte offset 7; save it as UTF-8 (it may be Latin-1 \
             or Windows-1252)"
                .to_owned()
        )
    );
}

// ----------------------------------------------------------------- NFC ---

#[test]
fn nfd_input_becomes_nfc_in_keys_and_values() {
    let nfd_key = "cafe\u{301}";
    let nfd_value = "Jose\u{301} Mu\u{308}ller";
    let expected = json!({"café": "José Müller", "items": [{"né": ["e\u{301}"]}]});
    let expected = {
        // Build the expectation from NFC literals only.
        let mut e = expected;
        e["items"][0]["né"] = json!(["é"]);
        e
    };

    let jsonl = format!(
        "{{\"{nfd_key}\": \"{nfd_value}\", \"items\": [{{\"ne\u{301}\": [\"e\u{301}\"]}}]}}\n"
    );
    assert_eq!(
        parse("p.jsonl", &jsonl).records[0].fields,
        fields(expected.clone())
    );
    let json = format!("[{}]", jsonl.trim());
    assert_eq!(
        parse("p.json", &json).records[0].fields,
        fields(expected.clone())
    );
    // JSON escapes that decode to NFD are normalised too.
    let escaped =
        r#"[{"cafe\u0301": "Jose\u0301 Mu\u0308ller", "items": [{"ne\u0301": ["e\u0301"]}]}]"#;
    assert_eq!(parse("p.json", escaped).records[0].fields, fields(expected));

    let id_map = format!("{{\" {nfd_key} \": {{\"{nfd_key}\": 1}}}}");
    let file = parse("p.json", &id_map);
    assert_eq!(file.records[0].key.as_deref(), Some("café"));
    assert_eq!(file.records[0].fields, fields(json!({"café": 1})));

    let csv = format!("id,{nfd_key}\n1,{nfd_value}\n");
    assert_eq!(
        parse("p.csv", &csv).records[0].fields,
        fields(json!({"id": "1", "café": "José Müller"}))
    );
}

#[test]
fn characters_outside_the_bmp_are_preserved() {
    let text = "[{\"🎵\": \"𝄞 clef 😀\", \"esc\": \"\\ud834\\udd1e\"}]";
    let file = parse("t.json", text);
    assert_eq!(
        file.records[0].fields,
        fields(json!({"🎵": "𝄞 clef 😀", "esc": "𝄞"}))
    );
    let csv = parse("t.csv", "k,𝄞\n😀,𠀋\n");
    assert_eq!(csv.records[0].fields, fields(json!({"k": "😀", "𝄞": "𠀋"})));
}

#[test]
fn nfc_value_in_place() {
    let mut v = json!(["A\u{30a}", {"a\u{308}": {"o\u{308}": null}}, 1, true]);
    nfc_value(&mut v);
    assert_eq!(v, json!(["Å", {"ä": {"ö": null}}, 1, true]));
}

// -------------------------------------------------------- JSON values ---

#[test]
fn parse_json_value_normalises_and_reports() {
    let value = parse_json_value(
        "schema.json",
        "\u{feff}{\"e\u{301}\": [\"n\u{303}\"]}".as_bytes(),
    );
    assert_eq!(value, Ok(json!({"é": ["ñ"]})));
    // Any JSON document is fine, not only records.
    assert_eq!(parse_json_value("c.json", b" 3 "), Ok(json!(3)));
    let err = parse_json_value("metrics_config.json", b"{\n  \"cer_threshold\": 0.15,\n}");
    assert_eq!(
        err.map_err(|e| e.to_string()),
        Err("metrics_config.json:3:1: trailing comma".to_owned())
    );
    let err = parse_json_value("c.json", b"");
    assert_eq!(
        err.map_err(|e| e.to_string()),
        Err("c.json: empty file: expected a JSON document".to_owned())
    );
    let err = parse_json_value("c.json", b"{\"a\": 1e999}");
    assert_eq!(err.as_ref().map_err(|e| e.kind), Err(ErrorKind::Syntax));
}

// ------------------------------------------------------------- formats ---

#[test]
fn format_by_extension_then_sniffed() {
    assert_eq!(detect_format("truth.JSON", ""), FileFormat::Json);
    assert_eq!(detect_format("p.NDJSON", ""), FileFormat::Jsonl);
    assert_eq!(detect_format("p.Csv", "[1]"), FileFormat::Csv);
    assert_eq!(detect_format("p.txt", "[{}]"), FileFormat::Json);
    assert_eq!(
        detect_format("p", "{\"a\": 1}\n{\"a\": 2}"),
        FileFormat::Jsonl
    );
    assert_eq!(detect_format("p", "{\n \"a\": {}\n}"), FileFormat::Json);
    assert_eq!(detect_format("p", "id,a\n1,2"), FileFormat::Csv);
}

#[test]
fn unknown_extension_files_parse_as_sniffed() {
    assert_eq!(parse("-", "[{\"id\": 1}]").records.len(), 1);
    let file = parse("-", "{\"id\": 1}\n{\"id\": 2}\n");
    assert_eq!(file.records[1].line, Some(2));
    // One line holding one record is a one-line JSONL file...
    let file = parse("out.txt", "{\"id\": \"a\", \"total\": 3}\n");
    assert_eq!(
        file.records,
        [record(0, Some(1), None, json!({"id": "a", "total": 3}))]
    );
    // ...unless it maps ids to records.
    let file = parse("out.txt", "{\"a\": {\"total\": 3}}");
    assert_eq!(
        file.records,
        [record(0, Some(1), Some("a"), json!({"total": 3}))]
    );
    let file = parse("data", "id,total\n1,2\n");
    assert_eq!(
        file.records,
        [record(0, Some(2), None, json!({"id": "1", "total": "2"}))]
    );
}

#[test]
fn errors_are_typed() {
    let e: Error = match parse_records("t.jsonl", b"{") {
        Err(e) => e,
        Ok(_) => panic!("should fail"),
    };
    assert_eq!((e.line, e.column), (Some(1), Some(1)));
    assert_eq!(e.record, None);
}

// ---------------------------------------------------------- properties ---

mod properties {
    use super::*;
    use proptest::prelude::*;
    use unicode_normalization::is_nfc;

    const NAMES: [&str; 5] = ["f.json", "f.jsonl", "f.csv", "f.txt", "f"];

    /// Every string and key of `value` is NFC.
    fn all_nfc(value: &Value) -> bool {
        match value {
            Value::String(s) => is_nfc(s),
            Value::Array(items) => items.iter().all(all_nfc),
            Value::Object(map) => map.iter().all(|(k, v)| is_nfc(k) && all_nfc(v)),
            _ => true,
        }
    }

    fn check_file(file: &RecordFile) -> Result<(), TestCaseError> {
        for (i, r) in file.records.iter().enumerate() {
            prop_assert_eq!(r.index, i);
            prop_assert!(all_nfc(&Value::Object(r.fields.clone())));
            prop_assert!(r.key.as_deref().is_none_or(is_nfc));
        }
        Ok(())
    }

    /// Text made of the characters that matter to the parsers.
    fn jsonish() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop::sample::select(vec![
                "{", "}", "[", "]", "\"", ",", ":", "\n", "\r", " ", "\\", "\\u", "0", "1e", "9",
                "-", ".", "a", "id", "NaN", "Infinity", "null", "true", "e\u{301}", "\u{301}", "é",
                "𝄞", "\u{feff}", "\0", "'", "\t",
            ]),
            0..60,
        )
        .prop_map(|parts| parts.concat())
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            for name in NAMES {
                if let Ok(file) = parse_records(name, &bytes) {
                    check_file(&file)?;
                }
                let _ = parse_json_value(name, &bytes);
            }
        }

        #[test]
        fn jsonish_text_never_panics(text in jsonish()) {
            for name in NAMES {
                match parse_records(name, text.as_bytes()) {
                    Ok(file) => check_file(&file)?,
                    Err(e) => {
                        prop_assert_eq!(e.file.as_deref(), Some(name));
                        prop_assert!(e.line.is_none_or(|l| l >= 1 && l <= text.split('\n').count()));
                        prop_assert!(e.column.is_none_or(|c| c >= 1));
                    }
                }
                if let Ok(mut value) = parse_json_value(name, text.as_bytes()) {
                    prop_assert!(all_nfc(&value));
                    nfc_value(&mut value);
                }
            }
        }

        #[test]
        fn jsonl_round_trips_with_lines(
            records in proptest::collection::vec(
                proptest::collection::btree_map("[a-zé]{1,4}", "\\PC{0,6}", 0..4),
                0..6,
            ),
            blanks in proptest::collection::vec(0usize..3, 6),
        ) {
            let mut text = String::new();
            let mut lines = Vec::new();
            let mut line = 1;
            for (i, r) in records.iter().enumerate() {
                for _ in 0..blanks[i] {
                    text.push_str("  \n");
                    line += 1;
                }
                text.push_str(&serde_json::to_string(r).unwrap_or_default());
                text.push('\n');
                lines.push(Some(line));
                line += 1;
            }
            let file = parse_records("r.jsonl", text.as_bytes());
            prop_assert!(file.is_ok(), "{:?}", file);
            let file = file.unwrap_or_else(|_| RecordFile { name: String::new(), records: vec![] });
            prop_assert_eq!(file.records.len(), records.len());
            for (got, (want, line)) in file.records.iter().zip(records.iter().zip(&lines)) {
                prop_assert_eq!(got.line, *line);
                let want: Map<String, Value> = want
                    .iter()
                    .map(|(k, v)| (nfc(k), Value::String(nfc(v))))
                    .collect();
                prop_assert_eq!(&got.fields, &want);
            }
        }

        #[test]
        fn csv_round_trips(
            rows in proptest::collection::vec(
                proptest::collection::vec("[ -~é\u{301}\n\r\",]{0,8}", 3),
                0..6,
            ),
        ) {
            let mut writer = csv::Writer::from_writer(Vec::new());
            let header = ["id", "name", "total"];
            let mut ok = writer.write_record(header).is_ok();
            for row in &rows {
                ok &= writer.write_record(row).is_ok();
            }
            let bytes = writer.into_inner().unwrap_or_default();
            prop_assert!(ok);
            let file = parse_records("r.csv", &bytes);
            prop_assert!(file.is_ok(), "{:?}", file);
            let file = file.unwrap_or_else(|_| RecordFile { name: String::new(), records: vec![] });
            let got: Vec<Vec<String>> = file
                .records
                .iter()
                .map(|r| r.fields.values().map(|v| v.as_str().unwrap_or("?").to_owned()).collect())
                .collect();
            let want: Vec<Vec<String>> = rows
                .iter()
                .map(|row| row.iter().map(|c| nfc(c)).collect())
                .collect();
            prop_assert_eq!(got, want);
        }
    }

    fn nfc(s: &str) -> String {
        unicode_normalization::UnicodeNormalization::nfc(s).collect()
    }
}

// ------------------------------------------------- compact forests ---

/// `parse_docs` reads the records `parse_records` reads, or fails with the
/// same error.
fn docs_agree(name: &str, text: &str) {
    match (
        parse_records(name, text.as_bytes()),
        parse_docs(name, text.as_bytes()),
    ) {
        (Ok(records), Ok(docs)) => {
            assert_eq!(docs.to_records(), records, "{name}: {text:?}");
            // Member by member, in order: no key twice in an object.
            for (d, r) in docs.records.iter().zip(&records.records) {
                same_members(docs.forest.get(d.root), &Value::Object(r.fields.clone()));
            }
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "{name}: {text:?}"),
        (a, b) => panic!("{name}: {text:?}: records {a:?}, docs {b:?}"),
    }
}

/// `json` holds `value`, object members in the same order and each key once.
fn same_members(json: Json<'_>, value: &Value) {
    match value {
        Value::Object(map) => {
            let entries: Vec<(&str, Json<'_>)> = json.entries().collect();
            assert_eq!(entries.len(), map.len(), "{value}");
            for ((k, j), (key, v)) in entries.into_iter().zip(map) {
                assert_eq!(k, key);
                same_members(j, v);
            }
        }
        Value::Array(items) => {
            assert_eq!(json.len(), items.len());
            for (j, v) in json.elements().zip(items) {
                same_members(j, v);
            }
        }
        other => assert_eq!(&json.to_value(), other),
    }
}

#[test]
fn docs_agree_with_records_on_every_format() {
    for (name, text) in [
        (
            "t.jsonl",
            "{\"id\": \"a\", \"x\": 1}\r\n\r\n  \n{\"id\": \"b\"}",
        ),
        (
            "t.jsonl",
            "{\"a\": 1, \"a\": 2, \"b\": {\"c\": [1, {\"d\": null}]}}\n",
        ),
        (
            "t.jsonl",
            "{\"cafe\u{301}\": 1, \"café\": 2, \"cafe\\u0301\": 3}\n",
        ),
        ("t.jsonl", "{\"a\": 1}\n[1]\n"),
        ("t.jsonl", "{\"a\": 1}\n{\"a\" 1}\n"),
        ("t.jsonl", "{\"a\": NaN}\n"),
        ("t.jsonl", "{\"a\": 1e400}\n"),
        ("t.jsonl", "{\"a\": 1} x\n"),
        ("t.jsonl", ""),
        ("t.json", "[{\"id\": \"a\"}, {\"id\": \"b\", \"n\": -0.0}]"),
        ("t.json", "{\"a\": {\"x\": 1}, \"a\": {\"x\": 2}}"),
        ("t.json", "{\"x\": 1}\n{\"x\": 2}\n"),
        ("t.csv", "id,total\na,10.50\n"),
        ("data", "{\"a\": 1}\n{\"a\": 2}\n"),
    ] {
        docs_agree(name, text);
    }
}

mod forests {
    use super::docs_agree;
    use proptest::prelude::*;

    fn scalar() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "null",
            "true",
            "false",
            "0",
            "-0",
            "7",
            "-12",
            "1.0",
            "-0.0",
            "1e3",
            "2E-2",
            "0.1",
            "123456789.123456789",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "\"\"",
            "\"a\"",
            "\" A  b \"",
            "\"é\"",
            "\"e\u{301}\"",
            "\"e\\u0301\"",
            "\"\\u00e9\"",
            "\"\\ud83d\\ude00\"",
            "\"𝔸\"",
            "\"NOT_FOUND\"",
            "\"tab\\tq\\\"\"",
            "\"1.500,00 €\"",
        ])
        .prop_map(str::to_owned)
    }

    fn key() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "\"a\"",
            "\"b\"",
            "\"id\"",
            "\"é\"",
            "\"e\u{301}\"",
            "\"e\\u0301\"",
            "\"a.b\"",
            "\"\"",
        ])
        .prop_map(str::to_owned)
    }

    fn value() -> impl Strategy<Value = String> {
        scalar().prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4)
                    .prop_map(|v| format!("[{}]", v.join(", "))),
                prop::collection::vec((key(), inner), 0..4).prop_map(|v| {
                    let members: Vec<String> =
                        v.into_iter().map(|(k, v)| format!("{k}: {v}")).collect();
                    format!("{{{}}}", members.join(", "))
                }),
            ]
        })
    }

    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            8 => prop::collection::vec((key(), value()), 0..5).prop_map(|v| {
                let members: Vec<String> = v.into_iter().map(|(k, v)| format!("{k}:{v}")).collect();
                format!("{{{}}}", members.join(","))
            }),
            1 => Just(String::new()),
            1 => Just("  ".to_owned()),
            1 => value(),
            1 => Just("{\"a\": }".to_owned()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn parse_docs_reads_what_parse_records_reads(
            lines in prop::collection::vec(line(), 0..6),
            crlf in any::<bool>(),
        ) {
            let text = lines.join(if crlf { "\r\n" } else { "\n" });
            docs_agree("p.jsonl", &text);
            docs_agree("p.json", &format!("[{}]", lines.iter().filter(|l| !l.trim().is_empty()).cloned().collect::<Vec<_>>().join(",")));
        }
    }
}
