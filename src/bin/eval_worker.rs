//! The browser app's evaluation worker (built by Trunk with
//! `data-type="worker"`, started through `assets/workers/worker-loader.js`
//! when the page loads): it holds the files, their parsed forms, the
//! prepared evaluation and the schema validity, and runs every
//! computation (`fieldscope::service`, tested natively). This file is only
//! the web glue: messages in and out, files read, a pace that lets
//! messages in between documents.
//!
//! Protocol (`fieldscope::protocol`): once listening, the worker posts
//! `"ready"` (and, started with `open` in its address, makes the
//! example's report at once, unasked: `protocol::OPENING_RUN`); then
//! each message from the page is an array `[request, file…]`: the
//! request's CBOR bytes (a `Uint8Array`) and the `File`s (or
//! `ArrayBuffer`s) it names, read here. Each answer is an array `[answer,
//! buffer…]`: the answer's CBOR bytes and, beside a schema job, the
//! files' bytes for the schema worker (handed over, not copied again). A
//! panic posts `"failed: WHY"` before the module stops.

#[cfg(target_arch = "wasm32")]
mod web {
    use fieldscope::eval::pace::{Pace, PauseFuture};
    use fieldscope::protocol::{
        decode, encode, in_parts, opening_request, Answer, Generation, Lane, Request, Task,
    };
    use fieldscope::service::Service;
    use std::cell::RefCell;
    use std::collections::VecDeque;
    use std::ops::ControlFlow;
    use std::rc::Rc;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};

    /// Work between two looks at the inbox, in milliseconds: a Cancel or a
    /// newer request waits at most this long (plus one document).
    const CHECK_EVERY_MS: f64 = 15.0;
    /// Progress is posted at most this often.
    const PROGRESS_EVERY_MS: f64 = 100.0;
    /// A file is read this many bytes at a time (no second whole copy).
    const READ_CHUNK: f64 = 16.0 * 1024.0 * 1024.0;

    struct Worker {
        service: RefCell<Service>,
        runs: RefCell<VecDeque<(Generation, Task)>>,
        running: std::cell::Cell<bool>,
        /// The run whose `Stopped` the pace already posted: said as soon
        /// as the run is found stale, before the run frees what it built
        /// (a detailed evaluation's documents take tens of milliseconds),
        /// so a Cancel shows at once; the run's own `Stopped` is not sent
        /// again.
        stop_said: std::cell::Cell<Option<Generation>>,
        scope: web_sys::DedicatedWorkerGlobalScope,
        /// The one channel through which the worker posts to itself to let
        /// the inbox in ([`Worker::next_task`]); `None` if it could not be
        /// made (the worker then does not wait).
        inbox: Option<Inbox>,
    }

    /// A `MessageChannel` made once: a message posted to `port2` comes back
    /// on `port1` after the messages already waiting, and resolves every
    /// promise waiting in `waiting`.
    struct Inbox {
        channel: web_sys::MessageChannel,
        waiting: Rc<RefCell<Vec<js_sys::Function>>>,
    }

    impl Inbox {
        fn new() -> Option<Inbox> {
            let channel = web_sys::MessageChannel::new().ok()?;
            let waiting: Rc<RefCell<Vec<js_sys::Function>>> = Rc::default();
            let wake = Rc::clone(&waiting);
            let on_message = Closure::<dyn Fn()>::new(move || {
                for resolve in wake.take() {
                    let _ = resolve.call0(&JsValue::NULL);
                }
            });
            channel
                .port1()
                .set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            on_message.forget();
            Some(Inbox { channel, waiting })
        }
    }

    pub fn start() {
        let Ok(scope) = js_sys::global().dyn_into::<web_sys::DedicatedWorkerGlobalScope>() else {
            return;
        };
        let panic_scope = scope.clone();
        std::panic::set_hook(Box::new(move |info| {
            let _ = panic_scope.post_message(&JsValue::from_str(&format!("failed: {info}")));
        }));
        let worker = Rc::new(Worker {
            service: RefCell::new(Service::default()),
            runs: RefCell::new(VecDeque::new()),
            running: std::cell::Cell::new(false),
            stop_said: std::cell::Cell::new(None),
            scope: scope.clone(),
            inbox: Inbox::new(),
        });
        let me = Rc::clone(&worker);
        let on_message =
            Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
                me.receive(event.data());
            });
        scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        let _ = scope.post_message(&JsValue::from_str(fieldscope::worker::READY));
        let files = worker.service.borrow().files(None);
        worker.post(files);
        if opens_example(&scope) {
            // Made while the page's own code still loads; the page waits
            // for this run instead of asking.
            worker.take(opening_request(), Vec::new());
        }
    }

    /// Whether the worker was started with `open` in its address
    /// (`start-eval-worker.js`, for a page whose link carries no settings:
    /// it opens on the example under the empty settings layer).
    fn opens_example(scope: &web_sys::DedicatedWorkerGlobalScope) -> bool {
        js_sys::Reflect::get(scope, &JsValue::from_str("location"))
            .and_then(|location| js_sys::Reflect::get(&location, &JsValue::from_str("search")))
            .ok()
            .and_then(|search| search.as_string())
            .is_some_and(|search| search.split(['?', '&']).any(|part| part == "open"))
    }

    /// Posts `answer` and `files` (copied out of this module's memory once,
    /// their buffers handed over).
    fn send(
        scope: &web_sys::DedicatedWorkerGlobalScope,
        answer: &Answer,
        files: &[std::sync::Arc<Vec<u8>>],
    ) {
        let message = js_sys::Array::new();
        message.push(&js_sys::Uint8Array::from(encode(answer).as_slice()));
        let transfer = js_sys::Array::new();
        for bytes in files {
            let array = js_sys::Uint8Array::from(bytes.as_slice());
            transfer.push(&array.buffer());
            message.push(&array);
        }
        // Nothing to do if the page is gone.
        let _ = scope.post_message_with_transfer(&message, &transfer);
    }

    /// The bytes of a `File`/`Blob` (read in chunks), an `ArrayBuffer` or a
    /// `Uint8Array` (a bundle's file posted again).
    fn read(value: &JsValue) -> Vec<u8> {
        if let Some(buffer) = value.dyn_ref::<js_sys::ArrayBuffer>() {
            return js_sys::Uint8Array::new(buffer).to_vec();
        }
        if let Some(array) = value.dyn_ref::<js_sys::Uint8Array>() {
            return array.to_vec();
        }
        let (Some(blob), Ok(reader)) = (
            value.dyn_ref::<web_sys::Blob>(),
            web_sys::FileReaderSync::new(),
        ) else {
            return Vec::new();
        };
        let size = blob.size();
        let mut bytes = vec![0u8; size as usize];
        let mut at = 0.0;
        while at < size {
            let end = (at + READ_CHUNK).min(size);
            let Ok(part) = blob.slice_with_f64_and_f64(at, end) else {
                return Vec::new();
            };
            let Ok(buffer) = reader.read_as_array_buffer(&part) else {
                return Vec::new();
            };
            js_sys::Uint8Array::new(&buffer).copy_to(&mut bytes[at as usize..end as usize]);
            at = end;
        }
        bytes
    }

    impl Worker {
        /// Posts `answer`, with the schema job's files beside a
        /// [`Answer::ValidityJob`]; a report's details after it, in parts
        /// ([`in_parts`]).
        fn post(&self, answer: Answer) {
            let files = match &answer {
                Answer::ValidityJob { .. } => self.service.borrow().job_bytes(),
                Answer::Opened { ids } => self.service.borrow().bytes_of(ids),
                _ => Vec::new(),
            };
            for part in in_parts(answer) {
                send(&self.scope, &part, &files);
            }
        }

        fn receive(self: &Rc<Self>, data: JsValue) {
            let Some(parts) = data.dyn_ref::<js_sys::Array>() else {
                return;
            };
            let request = parts
                .get(0)
                .dyn_into::<js_sys::Uint8Array>()
                .map_err(|_| "a message without a request".to_string())
                .and_then(|bytes| decode::<Request>(&bytes.to_vec()));
            let request = match request {
                Ok(request) => request,
                Err(message) => {
                    self.post(Answer::Notice { message });
                    return;
                }
            };
            let files = (1..parts.length()).map(|i| read(&parts.get(i))).collect();
            self.take(request, files);
        }

        /// Handles `request` (with the bytes of the files it names) and
        /// queues the run it asks for.
        fn take(self: &Rc<Self>, request: Request, files: Vec<Vec<u8>>) {
            // A schema job and a bundle's files go out with their bytes
            // once the service is free again; the rest at once (a file
            // list after each file parsed).
            let mut jobs = Vec::new();
            let run = self
                .service
                .borrow_mut()
                .handle(request, files, &mut |answer| {
                    if matches!(answer, Answer::ValidityJob { .. } | Answer::Opened { .. }) {
                        jobs.push(answer);
                    } else {
                        for part in in_parts(answer) {
                            send(&self.scope, &part, &[]);
                        }
                    }
                });
            for job in jobs {
                self.post(job);
            }
            if let Some(run) = run {
                self.runs.borrow_mut().push_back(run);
                if !self.running.replace(true) {
                    let me = Rc::clone(self);
                    wasm_bindgen_futures::spawn_local(async move { me.run_all().await });
                }
            }
        }

        /// Runs the queued runs in turn, skipping those made stale; then,
        /// while nothing else is asked, keeps the prepared evaluation's
        /// documents for the next evaluation (a slice between two looks
        /// at the inbox).
        async fn run_all(self: Rc<Self>) {
            loop {
                let next = self.runs.borrow_mut().pop_front();
                let Some((generation, task)) = next else {
                    let more = self.service.borrow_mut().idle_step();
                    if !more {
                        break;
                    }
                    self.next_task().await;
                    continue;
                };
                // The messages already waiting are handled first: a Cancel
                // or a newer request posted just after this run's finds it
                // before it starts, however short the run.
                self.next_task().await;
                let lane = task.lane();
                let (answer, kept) = if self.service.borrow().is_stale(generation, lane) {
                    (Answer::stopped_uncounted(generation), None)
                } else {
                    let started = self.service.borrow_mut().start(generation, task);
                    match started {
                        Ok(run) => {
                            let mut pace = WorkerPace {
                                worker: Rc::clone(&self),
                                generation,
                                lane,
                                checked: js_sys::Date::now(),
                                shown: js_sys::Date::now(),
                            };
                            run.run(&mut pace, &js_sys::Date::now).await
                        }
                        Err(answer) => (answer, None),
                    }
                };
                let (answers, again) = self.service.borrow_mut().finish(generation, answer, kept);
                let said = self.stop_said.take();
                answers
                    .into_iter()
                    .filter(|a| !(matches!(a, Answer::Stopped { .. }) && a.generation() == said))
                    .for_each(|a| self.post(a));
                if let Some(again) = again {
                    self.runs.borrow_mut().push_back(again);
                }
            }
            self.running.set(false);
        }
    }

    /// Lets the inbox in every [`CHECK_EVERY_MS`] and stops a run made
    /// stale meanwhile; posts the progress.
    struct WorkerPace {
        worker: Rc<Worker>,
        generation: Generation,
        lane: Lane,
        checked: f64,
        shown: f64,
    }

    impl Pace for WorkerPace {
        fn pause(&mut self, done: usize, total: usize) -> Option<PauseFuture> {
            let now = js_sys::Date::now();
            if now - self.checked < CHECK_EVERY_MS {
                return None;
            }
            self.checked = now;
            if now - self.shown >= PROGRESS_EVERY_MS {
                self.shown = now;
                self.worker.post(Answer::Progress {
                    generation: self.generation,
                    done,
                    total,
                });
            }
            let (worker, generation, lane) = (Rc::clone(&self.worker), self.generation, self.lane);
            Some(Box::pin(async move {
                worker.next_task().await;
                if worker.service.borrow().is_stale(generation, lane) {
                    worker.post(Answer::Stopped {
                        generation,
                        done,
                        total,
                    });
                    worker.stop_said.set(Some(generation));
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            }))
        }
    }

    impl Worker {
        /// Resolves after the messages waiting have been handled: a
        /// message to itself through its [`Inbox`] (no timer clamping).
        async fn next_task(&self) {
            let Some(inbox) = &self.inbox else {
                return;
            };
            let promise = js_sys::Promise::new(&mut |resolve, _| {
                inbox.waiting.borrow_mut().push(resolve);
                let _ = inbox.channel.port2().post_message(&JsValue::NULL);
            });
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    web::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "fieldscope-eval is the browser app's evaluation worker; natively, use `fieldscope eval`."
    );
    std::process::exit(2);
}
