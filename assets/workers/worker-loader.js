// Starts one of the app's Web Workers (src/bin/eval_worker.rs,
// src/bin/schema_worker.rs, src/bin/export_worker.rs): `new Worker("./worker-loader.js?worker=NAME")`
// loads NAME.js (wasm-bindgen's glue, built by Trunk) and NAME_bg.wasm.
// The worker's Rust code posts "ready" once it listens; if the module
// cannot be loaded or started, this posts "failed: WHY" instead, so the
// page says so rather than waiting (a rejected promise in a worker raises
// no error event on the page's side).
const WORKERS = ['fieldscope-eval', 'fieldscope-schema', 'fieldscope-export'];
const name = new URLSearchParams(self.location.search).get('worker');
if (!WORKERS.includes(name)) {
  self.postMessage(`failed: no worker is named ${JSON.stringify(name)}`);
} else {
  try {
    importScripts(`./${name}.js`);
    wasm_bindgen({ module_or_path: `./${name}_bg.wasm` }).catch((e) => self.postMessage(`failed: ${e}`));
  } catch (e) {
    self.postMessage(`failed: ${e}`);
  }
}
