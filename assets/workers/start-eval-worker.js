// Starts the evaluation worker (src/bin/eval_worker.rs) as soon as the
// page's HTML is read, so that its module loads while the page's own does
// (the page's code would start it only once it has loaded itself). What
// the worker says before the page's code takes it over
// (app/browser.rs, `EvalWorker::start`) waits in `early`.
(() => {
  try {
    // `open`: the worker makes the example's report as soon as it is
    // ready, unasked (protocol::OPENING_RUN), unless the link carries
    // settings (its fragment); the page's code then waits for that run.
    // `wait`: with `open`, its module loads only once the page says "go"
    // — after it has painted the example's report from opening.cbor — so
    // that the two modules do not compile on the same cores at once.
    const open = location.hash.length <= 1;
    const worker = new Worker(`./worker-loader.js?worker=fieldscope-eval${open ? '&open&wait' : ''}`);
    const early = [];
    worker.onmessage = (event) => early.push(event);
    worker.onerror = (event) => early.push(event);
    const started = { worker, early, open, opening: null, openingBytes: null };
    // What the worker answers first to that run, made when the app was
    // built (opening.cbor, protocol::OPENING_FILE, preloaded by
    // index.html): the page draws the example's report from it while the
    // worker still starts — in its first frame when `openingBytes` is
    // there by then; `null` if it cannot be had (the page then waits for
    // the worker). Fetched even with settings in the link (the page then
    // leaves it unused), so that the preload is always used.
    started.opening = fetch('./opening.cbor')
      .then((r) => (r.ok ? r.arrayBuffer() : null))
      .then((bytes) => (started.openingBytes = bytes))
      .catch(() => null);
    self.fieldscopeEvalWorker = started;
  } catch {
    // The page's code starts it, or says why it cannot.
  }
})();
