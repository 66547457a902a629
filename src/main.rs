//! The browser app's entry point: mount the app (which installs its panic
//! hook first).

#[cfg(target_arch = "wasm32")]
fn main() {
    fieldscope::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("fieldscope-web is the browser app: build and serve it with `bash .ci/serve`.");
    std::process::exit(2);
}
