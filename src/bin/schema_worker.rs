//! The browser app's schema validator, as a Web Worker of its own (built by
//! Trunk with `data-type="worker"`, started when a JSON Schema is loaded).
//! It carries the JSON Schema validator (`jsonschema` and its two regular
//! expression engines with their Unicode tables, about half of all the
//! app's code), so the page's own module stays small and shows a report
//! before the validator has even loaded (`crate::session` explains the
//! provisional report).
//!
//! Protocol (`fieldscope::worker::serve`): once loaded, the worker posts
//! `"ready"`; then the page posts a job at a time, an array `[id_field |
//! null, schema_by | null, name, role, bytes, name, role, bytes, …]`
//! (`schema_by`: SPEC §7.2's, for several schemas; role as in
//! `data-role`, bytes a `Uint8Array`), and the worker answers with
//! `crate::session::validity_answer_to_json`'s text.
//! The work is `crate::session::compute_validity`, tested natively.

#[cfg(target_arch = "wasm32")]
fn main() {
    use fieldscope::session::{compute_validity, validity_answer_to_json};
    fieldscope::worker::serve(|data| {
        let answer = match read_job(&data) {
            Some((files, id_field, schema_by)) => {
                compute_validity(&files, id_field.as_deref(), schema_by.as_deref())
            }
            None => Err(fieldscope::error::Error::new(
                fieldscope::error::ErrorKind::Input,
                "the schema validator was sent something that is not a job",
            )),
        };
        wasm_bindgen::JsValue::from_str(&validity_answer_to_json(&answer))
    });
}

/// A job's files, id field and `schema_by`, or `None` when `data` is not
/// a job.
#[cfg(target_arch = "wasm32")]
fn read_job(
    data: &wasm_bindgen::JsValue,
) -> Option<(
    Vec<fieldscope::session::JobFile>,
    Option<String>,
    Option<String>,
)> {
    use wasm_bindgen::JsCast;
    let parts: &js_sys::Array = data.dyn_ref()?;
    if parts.length() < 2 || (parts.length() - 2) % 3 != 0 {
        return None;
    }
    let id_field = parts.get(0).as_string();
    let schema_by = parts.get(1).as_string();
    let mut files = Vec::new();
    let mut i = 2;
    while i + 2 < parts.length() {
        let name = parts.get(i).as_string()?;
        let role = fieldscope::session::Role::parse(&parts.get(i + 1).as_string()?)?;
        let bytes: js_sys::Uint8Array = parts.get(i + 2).dyn_into().ok()?;
        files.push((name, role, std::sync::Arc::new(bytes.to_vec())));
        i += 3;
    }
    Some((files, id_field, schema_by))
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("fieldscope-schema is the browser app's schema worker; natively, use `fieldscope eval --schema`.");
    std::process::exit(2);
}
