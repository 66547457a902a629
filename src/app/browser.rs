//! The only file that touches the browser's APIs (web_sys, gloo): reading
//! dropped or picked files, downloading exports, the URL fragment that
//! holds the settings, and the app's two Web Workers (the exporter and the
//! schema validator). Nothing here panics: every browser call that can
//! fail returns an `Option`/`Result` that the caller turns into a message.

use crate::error::{Error, ErrorKind};
use crate::eval::SchemaValidity;
use crate::session::{validity_answer_from_json, ValidityJob};
use gloo::file::callbacks::FileReader;
use std::cell::RefCell;
use wasm_bindgen::JsCast;

thread_local! {
    /// Readers in flight; a `FileReader` dropped early cancels its read.
    static READERS: RefCell<Vec<FileReader>> = const { RefCell::new(Vec::new()) };
}

/// One read file: its name and its bytes, or why the browser could not
/// read it.
pub type ReadFile = (String, Result<Vec<u8>, String>);

/// Reads every file of a `FileList` and calls `done` once, with the files in
/// the order the user gave them (reads finish in any order).
pub fn read_files(files: Vec<web_sys::File>, done: impl Fn(Vec<ReadFile>) + 'static) {
    use std::rc::Rc;
    if files.is_empty() {
        return;
    }
    let slots: Rc<RefCell<Vec<Option<ReadFile>>>> = Rc::new(RefCell::new(vec![None; files.len()]));
    let done = Rc::new(done);
    for (index, file) in files.into_iter().enumerate() {
        let name = file.name();
        let gfile = gloo::file::File::from(file);
        let slots = slots.clone();
        let done = done.clone();
        let reader = gloo::file::callbacks::read_as_bytes(&gfile, move |result| {
            let complete = {
                let mut slots = slots.borrow_mut();
                if let Some(slot) = slots.get_mut(index) {
                    *slot = Some((
                        name,
                        result.map_err(|e| format!("the browser could not read the file: {e}")),
                    ));
                }
                slots.iter().all(Option::is_some)
            };
            if complete {
                let all: Vec<ReadFile> = slots.borrow_mut().drain(..).flatten().collect();
                done(all);
            }
        });
        READERS.with(|r| {
            let mut r = r.borrow_mut();
            // Finished readers are harmless to keep; bound the list anyway.
            if r.len() > 256 {
                r.drain(..128);
            }
            r.push(reader);
        });
    }
}

/// Offers `contents` as a download named `name`.
pub fn download(name: &str, mime: &str, contents: &[u8]) -> Result<(), String> {
    let array = js_sys::Uint8Array::from(contents);
    let parts = js_sys::Array::of1(&array);
    let bag = web_sys::BlobPropertyBag::new();
    bag.set_type(mime);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &bag)
        .map_err(|_| "the browser could not create the file".to_string())?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)
        .map_err(|_| "the browser could not create a download link".to_string())?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|_| "no link element".to_string())?
        .dyn_into()
        .map_err(|_| "no link element".to_string())?;
    a.set_href(&url);
    a.set_download(name);
    a.set_attribute("data-testid", "download-link").ok();
    a.style().set_property("display", "none").ok();
    if let Some(body) = document.body() {
        body.append_child(&a).ok();
        a.click();
        body.remove_child(&a).ok();
    }
    // Revoke later: revoking at once can cancel the download in some browsers.
    let url_later = url.clone();
    gloo::timers::callback::Timeout::new(60_000, move || {
        web_sys::Url::revoke_object_url(&url_later).ok();
    })
    .forget();
    Ok(())
}

/// The URL fragment without `#`, decoded.
pub fn read_fragment() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let raw = hash.strip_prefix('#').unwrap_or(&hash);
    if raw.is_empty() {
        return None;
    }
    js_sys::decode_uri_component(raw)
        .ok()
        .and_then(|s| s.as_string())
}

/// Replaces the URL fragment (no new history entry).
pub fn write_fragment(text: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let encoded: String = js_sys::encode_uri_component(text).into();
    let location = window.location();
    let base = format!(
        "{}{}",
        location.pathname().unwrap_or_default(),
        location.search().unwrap_or_default()
    );
    let url = if text.is_empty() {
        base
    } else {
        format!("{base}#{encoded}")
    };
    if let Ok(history) = window.history() {
        history
            .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
            .ok();
    }
}

/// Renders an SVG to a PNG of `scale` × its size (e.g. 300/96 for 300 dpi)
/// through an off-screen canvas, and offers it as a download.
pub fn download_svg_as_png(
    name: &str,
    svg: &str,
    width: u32,
    height: u32,
    scale: f64,
) -> Result<(), String> {
    use wasm_bindgen::closure::Closure;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let canvas: web_sys::HtmlCanvasElement = document
        .create_element("canvas")
        .map_err(|_| "no canvas".to_string())?
        .dyn_into()
        .map_err(|_| "no canvas".to_string())?;
    let (w, h) = (
        (width as f64 * scale).round() as u32,
        (height as f64 * scale).round() as u32,
    );
    canvas.set_width(w.max(1));
    canvas.set_height(h.max(1));
    let image = web_sys::HtmlImageElement::new().map_err(|_| "no image".to_string())?;
    let encoded: String = js_sys::encode_uri_component(svg).into();
    let name = name.to_string();
    let img = image.clone();
    let onload = Closure::once(move || {
        let Ok(Some(ctx)) = canvas.get_context("2d") else {
            return;
        };
        let Ok(ctx) = ctx.dyn_into::<web_sys::CanvasRenderingContext2d>() else {
            return;
        };
        ctx.set_fill_style_str("#ffffff");
        ctx.fill_rect(0.0, 0.0, w as f64, h as f64);
        if ctx
            .draw_image_with_html_image_element_and_dw_and_dh(&img, 0.0, 0.0, w as f64, h as f64)
            .is_err()
        {
            return;
        }
        let Ok(url) = canvas.to_data_url_with_type("image/png") else {
            return;
        };
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Ok(a) = document.create_element("a") else {
            return;
        };
        let Ok(a) = a.dyn_into::<web_sys::HtmlAnchorElement>() else {
            return;
        };
        a.set_href(&url);
        a.set_download(&name);
        if let Some(body) = document.body() {
            body.append_child(&a).ok();
            a.click();
            body.remove_child(&a).ok();
        }
    });
    image.set_onload(Some(onload.as_ref().unchecked_ref()));
    onload.forget();
    image.set_src(&format!("data:image/svg+xml;charset=utf-8,{encoded}"));
    Ok(())
}

/// Marks a moment on the page's performance timeline
/// (`performance.mark`), for the benchmark's breakdown of the time from a
/// drop to the report (`tests/browser/bench.mjs`); nothing else reads it.
/// Scrolls the element with `data-testid=ID` into view once the page has
/// drawn it (the next animation frame); nothing if there is none.
pub fn scroll_to_test_id(id: &'static str) {
    let _ = leptos::prelude::request_animation_frame_with_handle(move || {
        let found = web_sys::window().and_then(|w| w.document()).and_then(|d| {
            d.query_selector(&format!("[data-testid={id}]"))
                .ok()
                .flatten()
        });
        if let Some(el) = found {
            el.scroll_into_view();
        }
    });
}

pub fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(name);
    }
}

/// Milliseconds on the page's clock (`performance.now()`, else
/// `Date.now()`), for measuring slices of work.
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or_else(js_sys::Date::now, |p| p.now())
}

/// Gives the browser its turn — input, timers, a paint if one is due —
/// and comes back as soon as it has had it: a message to itself through a
/// `MessageChannel`, which, unlike a zero timeout, is not clamped to 4 ms
/// when repeated. (A zero timeout if the channel cannot be made.)
pub async fn yield_now() {
    let Ok(channel) = web_sys::MessageChannel::new() else {
        gloo_timers::future::TimeoutFuture::new(0).await;
        return;
    };
    let arrived = js_sys::Promise::new(&mut |resolve, _reject| {
        channel.port1().set_onmessage(Some(&resolve));
        if channel
            .port2()
            .post_message(&wasm_bindgen::JsValue::UNDEFINED)
            .is_err()
        {
            let _ = resolve.call0(&wasm_bindgen::JsValue::UNDEFINED);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(arrived).await;
    channel.port1().set_onmessage(None);
}

/// Gives the browser a moment to paint (and handle input) before the next
/// slice of synchronous work.
pub async fn yield_to_browser() {
    gloo_timers::future::TimeoutFuture::new(20).await;
}

/// Total size of files in a human unit (`12.4 MB`).
pub fn human_size(bytes: usize) -> String {
    let b = bytes as f64;
    if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.0} kB", b / 1e3)
    } else {
        format!("{bytes} B")
    }
}

/// Installs the panic hook: the message goes to the console (as
/// `console_error_panic_hook` writes it) and into a panel on the page that
/// says what happened and offers a reload, instead of a page that silently
/// stops responding. The panel is plain DOM with the message as text.
pub fn install_panic_panel() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_panic_panel(&info.to_string());
    }));
}

fn show_panic_panel(message: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(body) = document.body() else {
        return;
    };
    let element = |tag: &str, text: &str| {
        let e = document.create_element(tag).ok()?;
        e.set_text_content(Some(text));
        Some(e)
    };
    let Some(panel) = element("div", "") else {
        return;
    };
    panel.set_class_name("panic-panel");
    panel.set_attribute("role", "alert").ok();
    panel.set_attribute("data-testid", "panic-panel").ok();
    let reload_href = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let parts = [
        element("h2", "fieldscope stopped because of an internal error"),
        element(
            "p",
            "This is a bug in fieldscope, not a problem with your files. Nothing was sent anywhere. Reload the page to start again (your settings are kept in the address); if it happens again, please report the message below.",
        ),
        element("pre", message),
        element("a", "Reload the page"),
    ];
    for part in parts.into_iter().flatten() {
        if part.tag_name() == "A" {
            part.set_attribute("href", &reload_href).ok();
            part.set_class_name("button primary");
        }
        panel.append_child(&part).ok();
    }
    body.append_child(&panel).ok();
}

/// Whether the page was opened with `?panic-test` (used by the browser
/// tests to check the panic panel; nothing else reads it).
pub fn panic_test_requested() -> bool {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|s| s.contains("panic-test"))
}

/// One of the app's Web Workers (a wasm module of its own, built by
/// Trunk with `data-type="worker"`), started the first time it is asked
/// for something and kept for the next time; one job at a time (the caller
/// waits for each answer before asking again).
struct WorkerSlot {
    /// The worker's script: `assets/workers/worker-loader.js` naming the
    /// module Trunk builds (workers keep their plain names, no hash).
    url: &'static str,
    /// What it is called in messages, e.g. "the PDF converter".
    what: &'static str,
    worker: &'static std::thread::LocalKey<RefCell<Option<web_sys::Worker>>>,
}

thread_local! {
    static EXPORT_WORKER: RefCell<Option<web_sys::Worker>> = const { RefCell::new(None) };
    static SCHEMA_WORKER: RefCell<Option<web_sys::Worker>> = const { RefCell::new(None) };
}

/// `src/bin/export_worker.rs`, started on the first export asked for.
const EXPORT: WorkerSlot = WorkerSlot {
    url: "./worker-loader.js?worker=fieldscope-export",
    what: "the exporter",
    worker: &EXPORT_WORKER,
};

/// `src/bin/schema_worker.rs`, started on the first schema loaded.
const SCHEMA: WorkerSlot = WorkerSlot {
    url: "./worker-loader.js?worker=fieldscope-schema",
    what: "the schema validator",
    worker: &SCHEMA_WORKER,
};

/// The next message from `worker` (after posting `send` with `transfer`,
/// if any); `Err` if the worker fails to load or run.
async fn next_message(
    worker: &web_sys::Worker,
    what: &'static str,
    send: Option<(wasm_bindgen::JsValue, js_sys::Array)>,
) -> Result<wasm_bindgen::JsValue, String> {
    use wasm_bindgen::closure::Closure;
    let target = worker.clone();
    let mut send = send;
    let promise = js_sys::Promise::new(&mut move |resolve, reject| {
        let on_message = Closure::once_into_js(move |event: web_sys::MessageEvent| {
            let _ = resolve.call1(&wasm_bindgen::JsValue::NULL, &event.data());
        });
        let on_error = Closure::once_into_js(move |_event: wasm_bindgen::JsValue| {
            let _ = reject.call1(&wasm_bindgen::JsValue::NULL, &wasm_bindgen::JsValue::NULL);
        });
        target.set_onmessage(Some(on_message.unchecked_ref()));
        target.set_onerror(Some(on_error.unchecked_ref()));
        if let Some((message, transfer)) = send.take() {
            // A failure to post shows as the worker's error.
            let _ = target.post_message_with_transfer(&message, &transfer);
        }
    });
    let answer = wasm_bindgen_futures::JsFuture::from(promise).await;
    worker.set_onmessage(None);
    worker.set_onerror(None);
    answer.map_err(|_| format!("{what} could not be loaded or failed"))
}

impl WorkerSlot {
    /// Posts `message` (handing over the buffers in `transfer`) to the
    /// worker, starting it and waiting for its `"ready"` the first time,
    /// and returns its answer. A worker that fails is dropped, to be
    /// started again next time.
    async fn ask(
        &self,
        message: wasm_bindgen::JsValue,
        transfer: js_sys::Array,
    ) -> Result<wasm_bindgen::JsValue, String> {
        let existing = self.worker.with(|w| w.borrow().clone());
        let worker = match existing {
            Some(worker) => worker,
            None => {
                let Ok(worker) = web_sys::Worker::new(self.url) else {
                    return Err(format!("the browser could not start {}", self.what));
                };
                // "ready", or the loader's "failed: why".
                let first = next_message(&worker, self.what, None).await;
                let started = match first {
                    Ok(message) if message.as_string().as_deref() == Some(crate::worker::READY) => {
                        Ok(())
                    }
                    Ok(message) => Err(format!(
                        "{} could not start ({})",
                        self.what,
                        message.as_string().unwrap_or_default()
                    )),
                    Err(e) => Err(e),
                };
                if let Err(e) = started {
                    worker.terminate();
                    return Err(e);
                }
                self.worker.with(|w| *w.borrow_mut() = Some(worker.clone()));
                worker
            }
        };
        let answer = next_message(&worker, self.what, Some((message, transfer))).await;
        if answer.is_err() {
            if let Some(w) = self.worker.with(|w| w.borrow_mut().take()) {
                w.terminate();
            }
        }
        answer
    }
}

/// A file made by the export worker (a separate wasm module, loaded the
/// first time; see `src/bin/export_worker.rs`) for a request of `kind`
/// (`"pdf"` with an SVG, `"text"` with a `crate::export::TextExport` as
/// JSON): its bytes, or why there are none.
async fn export_in_worker(kind: &str, payload: &str) -> Result<Vec<u8>, String> {
    let request = js_sys::Array::of2(
        &wasm_bindgen::JsValue::from_str(kind),
        &wasm_bindgen::JsValue::from_str(payload),
    );
    let value = EXPORT.ask(request.into(), js_sys::Array::new()).await?;
    match value.dyn_into::<js_sys::Uint8Array>() {
        Ok(bytes) => Ok(bytes.to_vec()),
        Err(value) => Err(value
            .as_string()
            .unwrap_or_else(|| "the exporter gave no file".to_string())),
    }
}

/// Converts a chart's SVG to PDF bytes in the export worker.
pub async fn svg_to_pdf(svg: &str) -> Result<Vec<u8>, String> {
    export_in_worker("pdf", svg).await
}

/// Renders a text export (a `crate::export::TextExport` as JSON) in the
/// export worker.
pub async fn render_text_export(json: &str) -> Result<Vec<u8>, String> {
    export_in_worker("text", json).await
}

/// Computes a [`ValidityJob`] in the schema worker (a separate wasm
/// module, loaded the first time; see `src/bin/schema_worker.rs`): the
/// files' bytes are copied into the job, whose buffers are handed over.
pub async fn schema_validity(job: &ValidityJob) -> Result<SchemaValidity, Error> {
    let message = js_sys::Array::new();
    let transfer = js_sys::Array::new();
    for text in [&job.id_field, &job.schema_by] {
        message.push(&match text {
            Some(t) => wasm_bindgen::JsValue::from_str(t),
            None => wasm_bindgen::JsValue::NULL,
        });
    }
    for (name, role, bytes) in &job.files {
        let array = js_sys::Uint8Array::from(bytes.as_slice());
        message.push(&wasm_bindgen::JsValue::from_str(name));
        message.push(&wasm_bindgen::JsValue::from_str(role.name()));
        transfer.push(&array.buffer());
        message.push(&array);
    }
    let answer = SCHEMA
        .ask(message.into(), transfer)
        .await
        .map_err(|e| Error::new(ErrorKind::Input, e))?;
    validity_answer_from_json(&answer.as_string().unwrap_or_default())
}
