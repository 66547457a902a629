//! The PDF converter of the browser app, as a Web Worker of its own (built
//! by Trunk with `data-type="worker"`, loaded only when someone asks for a
//! PDF, so the page's first download does not carry svg2pdf and the font).
//!
//! Protocol: once loaded, the worker posts `"ready"`; then the page posts
//! a chart's SVG (a string) at a time, and the worker answers
//! with the PDF's bytes (a `Uint8Array`) or, when the conversion fails, a
//! string saying why. Conversion is `crate::export::pdf::svg_to_pdf`, the
//! same as `fieldscope figures`, so the page's PDFs equal the CLI's.

/// The worker's first message (see `app/browser.rs`).
#[cfg(target_arch = "wasm32")]
const READY: &str = "ready";

#[cfg(target_arch = "wasm32")]
fn main() {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};
    let Ok(scope) = js_sys::global().dyn_into::<web_sys::DedicatedWorkerGlobalScope>() else {
        return;
    };
    let reply = scope.clone();
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            let answer: JsValue = match event.data().as_string() {
                None => JsValue::from_str("the PDF converter expects an SVG document as text"),
                Some(svg) => match fieldscope::export::pdf::svg_to_pdf(&svg) {
                    Ok(bytes) => js_sys::Uint8Array::from(bytes.as_slice()).into(),
                    Err(e) => JsValue::from_str(&e.to_string()),
                },
            };
            // Nothing to do if the page is gone.
            let _ = reply.post_message(&answer);
        });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    // Messages that arrive before the handler is set are lost, so the page
    // waits for this before sending the first SVG.
    let _ = scope.post_message(&JsValue::from_str(READY));
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "fieldscope-pdf is the browser app's PDF worker; natively, use `fieldscope figures`."
    );
    std::process::exit(2);
}
