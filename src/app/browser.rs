//! The only file that touches the browser's APIs (web_sys, gloo):
//! downloading exports, the URL fragment that holds the settings, and the
//! app's three Web Workers (the evaluation worker, which reads the dropped
//! files itself; the exporter; the schema validator). Nothing here panics: every browser call that can
//! fail returns an `Option`/`Result` that the caller turns into a message.

use crate::protocol::Role;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

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

/// Holds `el` at least as tall as it is now (its `min-height`), so that
/// replacing its content cannot make the page shorter meanwhile. Set
/// through the style object: the page's Content-Security-Policy ignores
/// a `style` attribute written as text.
pub fn hold_height(el: &web_sys::HtmlElement) {
    let height = el.offset_height();
    if height > 0 {
        let _ = el
            .style()
            .set_property("min-height", &format!("{height}px"));
    }
}

/// Ends [`hold_height`]; touches the style only when a height is held
/// (a style change makes the browser recompute the column's styles).
pub fn release_height(el: &web_sys::HtmlElement) {
    let style = el.style();
    if style
        .get_property_value("min-height")
        .is_ok_and(|v| !v.is_empty())
    {
        let _ = style.remove_property("min-height");
    }
}

/// Runs `f` in a task of its own after this one (a zero-delay timer:
/// such timers run in the order they were set).
pub fn next_task(f: impl FnOnce() + 'static) {
    leptos::prelude::set_timeout(f, std::time::Duration::ZERO);
}

/// Runs `f` once the page has painted its next frame (an animation
/// frame, then a task after it).
pub fn after_next_paint(f: impl FnOnce() + 'static) {
    let _ = leptos::prelude::request_animation_frame_with_handle(move || {
        leptos::prelude::set_timeout(f, std::time::Duration::ZERO);
    });
}

/// The bytes at `url` (beside the page), or `None` if they cannot be had;
/// the fetch starts at once, not when first awaited.
pub fn fetch_bytes(url: &str) -> impl std::future::Future<Output = Option<Vec<u8>>> {
    let response = web_sys::window()
        .map(|window| wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(url)));
    async move {
        let response = response?.await.ok()?.dyn_into::<web_sys::Response>().ok()?;
        if !response.ok() {
            return None;
        }
        let buffer = wasm_bindgen_futures::JsFuture::from(response.array_buffer().ok()?)
            .await
            .ok()?;
        Some(js_sys::Uint8Array::new(&buffer).to_vec())
    }
}

/// Marks a moment on the page's performance timeline
/// (`performance.mark`), for the benchmark's breakdown of the time from a
/// drop to the report (`tests/browser/bench.mjs`); nothing else reads it.
pub fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(name);
    }
}

/// Milliseconds since the page opened (`performance.now()`; 0 without it).
pub fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
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

/// Whether the page's query names `flag` (`?panic-test`,
/// `?worker-panic-test`: used by the browser tests to check the panic
/// panel and a crash of the evaluation worker; nothing else reads them).
pub fn query_flag(flag: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|s| s.trim_start_matches('?').split('&').any(|p| p == flag))
}

/// One of the app's on-demand Web Workers (a wasm module of its own,
/// built by Trunk with `data-type="worker"`), started the first time it
/// is asked for something and kept for the next time; one job at a time
/// (the caller waits for each answer before asking again). Held by the
/// app's state ([`Helpers`]); clones share the worker.
#[derive(Clone)]
pub struct WorkerSlot {
    /// The worker's script: `assets/workers/worker-loader.js` naming the
    /// module Trunk builds (workers keep their plain names, no hash).
    url: &'static str,
    /// What it is called in messages, e.g. "the PDF converter".
    what: &'static str,
    worker: Rc<RefCell<Option<web_sys::Worker>>>,
}

/// The page's on-demand workers: `src/bin/export_worker.rs`, started on
/// the first export asked for, and `src/bin/schema_worker.rs`, on the
/// first schema loaded.
#[derive(Clone)]
pub struct Helpers {
    pub export: WorkerSlot,
    pub schema: WorkerSlot,
}

impl Default for Helpers {
    fn default() -> Self {
        let slot = |url, what| WorkerSlot {
            url,
            what,
            worker: Rc::default(),
        };
        Helpers {
            export: slot(
                "./worker-loader.js?worker=fieldscope-export",
                "the exporter",
            ),
            schema: slot(
                "./worker-loader.js?worker=fieldscope-schema",
                "the schema validator",
            ),
        }
    }
}

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
        let existing = self.worker.borrow().clone();
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
                *self.worker.borrow_mut() = Some(worker.clone());
                worker
            }
        };
        let answer = next_message(&worker, self.what, Some((message, transfer))).await;
        if answer.is_err() {
            let failed = self.worker.borrow_mut().take();
            if let Some(w) = failed {
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
async fn export_in_worker(
    exporter: &WorkerSlot,
    kind: &str,
    payload: &str,
) -> Result<Vec<u8>, String> {
    let request = js_sys::Array::of2(
        &wasm_bindgen::JsValue::from_str(kind),
        &wasm_bindgen::JsValue::from_str(payload),
    );
    let value = exporter.ask(request.into(), js_sys::Array::new()).await?;
    match value.dyn_into::<js_sys::Uint8Array>() {
        Ok(bytes) => Ok(bytes.to_vec()),
        Err(value) => Err(value
            .as_string()
            .unwrap_or_else(|| "the exporter gave no file".to_string())),
    }
}

/// Converts a chart's SVG to PDF bytes in the export worker.
pub async fn svg_to_pdf(exporter: &WorkerSlot, svg: &str) -> Result<Vec<u8>, String> {
    export_in_worker(exporter, "pdf", svg).await
}

/// Renders a text export (a `crate::export::TextExport` as JSON) in the
/// export worker.
pub async fn render_text_export(exporter: &WorkerSlot, json: &str) -> Result<Vec<u8>, String> {
    export_in_worker(exporter, "text", json).await
}

/// The schema worker's answer (`session::validity_answer_to_json`'s
/// text) for `files` (names and roles, their bytes in `buffers`, handed
/// over as the evaluation worker sent them), `id_field` and `schema_by`
/// (SPEC §7.2); `Err` (why) if the worker could not start or failed (it
/// is dropped, to be started again by the next job).
pub async fn schema_check(
    validator: &WorkerSlot,
    files: Vec<(String, Role)>,
    buffers: Vec<JsValue>,
    id_field: Option<String>,
    schema_by: Option<String>,
) -> Result<String, String> {
    let message = js_sys::Array::new();
    let transfer = js_sys::Array::new();
    for text in [&id_field, &schema_by] {
        message.push(&match text {
            Some(t) => JsValue::from_str(t),
            None => JsValue::NULL,
        });
    }
    for ((name, role), bytes) in files.iter().zip(buffers) {
        message.push(&JsValue::from_str(name));
        message.push(&JsValue::from_str(role.name()));
        if let Some(array) = bytes.dyn_ref::<js_sys::Uint8Array>() {
            transfer.push(&array.buffer());
        }
        message.push(&bytes);
    }
    let answer = validator.ask(message.into(), transfer).await?;
    Ok(answer.as_string().unwrap_or_default())
}

/// What the evaluation worker sent: its answer's bytes and the buffers
/// beside it, or why it stopped (it could not start, or panicked).
pub type WorkerMessage = Result<(Vec<u8>, Vec<JsValue>), String>;

/// The evaluation worker (`src/bin/eval_worker.rs`), started when the page
/// loads. Messages posted before it is ready wait here; dropping it
/// stops the worker.
pub struct EvalWorker {
    worker: web_sys::Worker,
    /// Cleared when dropped: a failure it reported late is not said.
    alive: Rc<std::cell::Cell<bool>>,
    /// `Some` until the worker says it is ready.
    waiting: Rc<RefCell<Option<Vec<js_sys::Array>>>>,
    /// Started with `open`: it makes the example's report unasked
    /// (`protocol::OPENING_RUN`).
    opens: bool,
    /// Started with `wait` (as it is with `open`): its module loads only
    /// once told "go" ([`EvalWorker::go`]); cleared once told.
    waits: std::cell::Cell<bool>,
    /// The fetch of the build's answers to that run
    /// (`protocol::OPENING_FILE`), started with the worker: its bytes if
    /// it is done, and its promise; taken once.
    opening: RefCell<Option<(Option<js_sys::ArrayBuffer>, js_sys::Promise)>>,
    _on_message: Closure<dyn Fn(web_sys::MessageEvent)>,
    _on_error: Closure<dyn Fn(JsValue)>,
}

impl EvalWorker {
    /// Starts the worker — takes over the one `start-eval-worker.js`
    /// started while the page loaded, the first time — and `on` gets each
    /// of its messages (those it sent before, first, once the caller's
    /// task is done: the caller sets up what they go to).
    pub fn start(on: impl Fn(WorkerMessage) + 'static) -> Result<EvalWorker, String> {
        let EarlyWorker {
            worker,
            early,
            opens,
            opening,
        } = match early_worker() {
            Some(started) => started,
            None => EarlyWorker {
                worker: web_sys::Worker::new("./worker-loader.js?worker=fieldscope-eval")
                    .map_err(|_| "the browser could not start the evaluation worker".to_string())?,
                early: js_sys::Array::new(),
                opens: false,
                opening: None,
            },
        };
        let waiting: Rc<RefCell<Option<Vec<js_sys::Array>>>> =
            Rc::new(RefCell::new(Some(Vec::new())));
        let on: Rc<dyn Fn(WorkerMessage)> = Rc::new(on);
        let (target, queue, on_answer) = (worker.clone(), Rc::clone(&waiting), Rc::clone(&on));
        let receive = move |data: JsValue| {
            if let Some(text) = data.as_string() {
                if text == crate::worker::READY {
                    let queued = queue.borrow_mut().take().unwrap_or_default();
                    for message in queued {
                        post_to(&target, &message);
                    }
                } else {
                    on_answer(Err(text
                        .strip_prefix("failed: ")
                        .unwrap_or(&text)
                        .to_string()));
                }
                return;
            }
            let Some(parts) = data.dyn_ref::<js_sys::Array>() else {
                return;
            };
            let Ok(bytes) = parts.get(0).dyn_into::<js_sys::Uint8Array>() else {
                return;
            };
            let rest = (1..parts.length()).map(|i| parts.get(i)).collect();
            on_answer(Ok((bytes.to_vec(), rest)));
        };
        // An error event (a module that failed, or the trap after a
        // panic) is said a moment later: the panic hook's own "failed:
        // panicked at …" message, which may arrive after it, says more
        // and is said first (the report state keeps the first reason).
        // Not said at all if this worker was replaced meanwhile.
        let on_failure = Rc::clone(&on);
        let alive = Rc::new(std::cell::Cell::new(true));
        let still = Rc::clone(&alive);
        let failed = move |event: &JsValue| {
            let message = js_sys::Reflect::get(event, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_else(|| "the evaluation worker stopped".to_string());
            let (on, still) = (Rc::clone(&on_failure), Rc::clone(&still));
            gloo::timers::callback::Timeout::new(REASON_WAIT_MS, move || {
                if still.get() {
                    on(Err(message));
                }
            })
            .forget();
        };
        let receive = Rc::new(receive);
        let failed = Rc::new(failed);
        let (r, f) = (Rc::clone(&receive), Rc::clone(&failed));
        let on_message =
            Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
                r(event.data())
            });
        let on_error = Closure::<dyn Fn(JsValue)>::new(move |event: JsValue| f(&event));
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        wasm_bindgen_futures::spawn_local(async move {
            for event in early.iter() {
                match event.dyn_ref::<web_sys::MessageEvent>() {
                    Some(message) => receive(message.data()),
                    None => failed(&event),
                }
            }
        });
        Ok(EvalWorker {
            worker,
            alive,
            waiting,
            opens,
            waits: std::cell::Cell::new(opens),
            opening: RefCell::new(opening),
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    /// Whether it makes the example's report unasked.
    pub fn opens(&self) -> bool {
        self.opens
    }

    /// Lets a worker started with `wait` load its module (at once for
    /// one that did not wait, and after the first time).
    pub fn go(&self) {
        if self.waits.replace(false) {
            // A failure to post shows as the worker's error.
            let _ = self.worker.post_message(&JsValue::from_str(GO));
        }
    }

    /// The build's answers to the opening run (`protocol::OPENING_FILE`),
    /// fetched by `start-eval-worker.js` while the page loaded: here, or
    /// still coming (`None` then if the fetch fails); `None` if there was
    /// no such fetch, or they were taken before.
    pub fn opening(&self) -> Option<Opening> {
        let (bytes, promise) = self.opening.borrow_mut().take()?;
        if let Some(buffer) = bytes {
            return Some(Opening::Here(js_sys::Uint8Array::new(&buffer).to_vec()));
        }
        Some(Opening::Coming(Box::pin(async move {
            let buffer = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
            let buffer = buffer.dyn_into::<js_sys::ArrayBuffer>().ok()?;
            Some(js_sys::Uint8Array::new(&buffer).to_vec())
        })))
    }

    /// Posts a request's bytes and the files it names — `File`s, or the
    /// `Uint8Array`s of a bundle's files — which the worker reads; nothing
    /// of them is read here.
    pub fn post(&self, request: &[u8], files: &[JsValue]) {
        self.go();
        let message = js_sys::Array::new();
        message.push(&js_sys::Uint8Array::from(request));
        for file in files {
            message.push(file);
        }
        match self.waiting.borrow_mut().as_mut() {
            Some(queue) => queue.push(message),
            None => post_to(&self.worker, &message),
        }
    }
}

impl Drop for EvalWorker {
    fn drop(&mut self) {
        self.alive.set(false);
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

/// How long a worker's error event waits for the panic message that may
/// follow it, in milliseconds.
const REASON_WAIT_MS: u32 = 100;

/// The build's answers to the opening run, as [`EvalWorker::opening`]
/// has them.
pub enum Opening {
    Here(Vec<u8>),
    Coming(std::pin::Pin<Box<dyn std::future::Future<Output = Option<Vec<u8>>>>>),
}

/// What a worker started with `wait` waits for before it loads its
/// module (`assets/workers/worker-loader.js`).
const GO: &str = "go";

/// What `start-eval-worker.js` left: the worker, what it said since,
/// whether it was started with `open` (and so `wait`), and the opening
/// answers' fetch.
struct EarlyWorker {
    worker: web_sys::Worker,
    early: js_sys::Array,
    opens: bool,
    opening: Option<(Option<js_sys::ArrayBuffer>, js_sys::Promise)>,
}

/// What `start-eval-worker.js` left while the page loaded (see
/// [`EarlyWorker`]); taken once (a restart starts anew).
fn early_worker() -> Option<EarlyWorker> {
    let window = web_sys::window()?;
    let key = JsValue::from_str("fieldscopeEvalWorker");
    let started = js_sys::Reflect::get(&window, &key).ok()?;
    let _ = js_sys::Reflect::delete_property(&window, &key);
    let field = |name: &str| js_sys::Reflect::get(&started, &JsValue::from_str(name)).ok();
    let opening = field("opening")
        .and_then(|o| o.dyn_into::<js_sys::Promise>().ok())
        .map(|promise| {
            let bytes =
                field("openingBytes").and_then(|b| b.dyn_into::<js_sys::ArrayBuffer>().ok());
            (bytes, promise)
        });
    Some(EarlyWorker {
        worker: field("worker")?.dyn_into::<web_sys::Worker>().ok()?,
        early: field("early")?.dyn_into::<js_sys::Array>().ok()?,
        opens: field("open").and_then(|o| o.as_bool()).unwrap_or(false),
        opening,
    })
}

/// Posts `message`, handing over its request's buffer.
fn post_to(worker: &web_sys::Worker, message: &js_sys::Array) {
    let transfer = js_sys::Array::new();
    if let Ok(bytes) = message.get(0).dyn_into::<js_sys::Uint8Array>() {
        transfer.push(&bytes.buffer());
    }
    // A failure to post shows as the worker's error.
    let _ = worker.post_message_with_transfer(message, &transfer);
}
