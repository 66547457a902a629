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
    const open = location.hash.length <= 1;
    const worker = new Worker(`./worker-loader.js?worker=fieldscope-eval${open ? '&open' : ''}`);
    const early = [];
    worker.onmessage = (event) => early.push(event);
    worker.onerror = (event) => early.push(event);
    self.fieldscopeEvalWorker = { worker, early, open };
  } catch {
    // The page's code starts it, or says why it cannot.
  }
})();
