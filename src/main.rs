//! The browser app's entry point: a panic hook, then mount the app.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    fieldscope::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("fieldscope-web is the browser app: build and serve it with `bash .ci/serve`.");
    std::process::exit(2);
}
