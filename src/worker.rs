//! The Web Worker side of the browser app's two workers (the schema
//! validator, `src/bin/schema_worker.rs`, and the exporter,
//! `src/bin/export_worker.rs`): [`serve`] answers each message the page
//! posts with what a handler returns. The page's side is `app::browser`
//! (`WorkerSlot`).
//!
//! Protocol shared by both: once its handler is set, the worker posts
//! [`READY`] (messages posted before that would be lost, so the page waits
//! for it); then each message from the page gets exactly one answer.
//! Depends on web-sys and js-sys only; nothing here panics.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// A worker's first message.
pub const READY: &str = "ready";

/// Answers every message posted to this worker with `handler`'s value,
/// after posting [`READY`]. Does nothing outside a dedicated worker.
pub fn serve(handler: impl Fn(JsValue) -> JsValue + 'static) {
    let Ok(scope) = js_sys::global().dyn_into::<web_sys::DedicatedWorkerGlobalScope>() else {
        return;
    };
    let reply = scope.clone();
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            // Nothing to do if the page is gone.
            let _ = reply.post_message(&handler(event.data()));
        });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str(READY));
}
