// Starts one of the app's Web Workers (src/bin/eval_worker.rs,
// src/bin/schema_worker.rs, src/bin/export_worker.rs): `new Worker("./worker-loader.js?worker=NAME")`
// loads NAME.js (wasm-bindgen's glue, built by Trunk) and NAME_bg.wasm.
// The worker's Rust code posts "ready" once it listens; if the module
// cannot be loaded or started, this posts "failed: WHY" instead, so the
// page says so rather than waiting (a rejected promise in a worker raises
// no error event on the page's side).
//
// With `wait` in its address (the evaluation worker of a page that first
// draws the example's report made at build time), the module loads only
// once the page posts "go" (app/browser.rs, `EvalWorker::go`), or after
// WAIT_AT_MOST_MS if it never does.
const WORKERS = ['fieldscope-eval', 'fieldscope-schema', 'fieldscope-export'];
const WAIT_AT_MOST_MS = 3000;
const params = new URLSearchParams(self.location.search);
const name = params.get('worker');
function load() {
  try {
    importScripts(`./${name}.js`);
    wasm_bindgen({ module_or_path: `./${name}_bg.wasm` }).catch((e) => self.postMessage(`failed: ${e}`));
  } catch (e) {
    self.postMessage(`failed: ${e}`);
  }
}
if (!WORKERS.includes(name)) {
  self.postMessage(`failed: no worker is named ${JSON.stringify(name)}`);
} else if (params.has('wait')) {
  let loading = false;
  const go = () => {
    if (!loading) {
      loading = true;
      load();
    }
  };
  // Replaced by the module's own handler once it listens.
  self.onmessage = (event) => event.data === 'go' && go();
  setTimeout(go, WAIT_AT_MOST_MS);
} else {
  load();
}
