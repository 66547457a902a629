//! The browser app's exporter, as a Web Worker of its own (built by Trunk
//! with `data-type="worker"`, loaded the first time someone exports a table,
//! the HTML report or a PDF). It carries what only exports need — svg2pdf
//! with the embedded font, and the Markdown, LaTeX, CSV and HTML writers —
//! so the page's first download does not.
//!
//! Protocol (`fieldscope::worker::serve`): once loaded, the worker posts
//! `"ready"`; then the page posts one request at a time, an array:
//! - `["pdf", svg]`: a chart's SVG, converted by
//!   `crate::export::pdf::svg_to_pdf` (as `fieldscope figures` does);
//! - `["text", json]`: a `crate::export::TextExport` as JSON, rendered by
//!   `TextExport::render` (as `fieldscope eval --format` does).
//!
//! The answer is the file's bytes (a `Uint8Array`) or, when the request
//! fails, a string saying why.

#[cfg(target_arch = "wasm32")]
fn main() {
    use wasm_bindgen::JsValue;
    fieldscope::worker::serve(|data| match answer(&data) {
        Ok(bytes) => js_sys::Uint8Array::from(bytes.as_slice()).into(),
        Err(message) => JsValue::from_str(&message),
    });
}

/// The file a request asks for, or why there is none.
#[cfg(target_arch = "wasm32")]
fn answer(data: &wasm_bindgen::JsValue) -> Result<Vec<u8>, String> {
    use wasm_bindgen::JsCast;
    let request = data
        .dyn_ref::<js_sys::Array>()
        .filter(|r| r.length() == 2)
        .and_then(|r| Some((r.get(0).as_string()?, r.get(1).as_string()?)));
    match request {
        Some((kind, svg)) if kind == "pdf" => {
            fieldscope::export::pdf::svg_to_pdf(&svg).map_err(|e| e.to_string())
        }
        Some((kind, json)) if kind == "text" => {
            fieldscope::export::TextExport::render_json(&json).map(String::into_bytes)
        }
        _ => Err("the exporter was sent something that is not a request".to_string()),
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "fieldscope-export is the browser app's export worker; natively, use `fieldscope eval --format` and `fieldscope figures`."
    );
    std::process::exit(2);
}
