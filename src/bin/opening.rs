//! Build step of the browser app (Trunk's pre-build hook, `Trunk.toml`):
//! writes what the evaluation worker answers first when the page opens on
//! the built-in example (`fieldscope::service::opening_answers`: the
//! example's file list and report, made natively by the worker's own code)
//! to `protocol::OPENING_FILE` in Trunk's staging directory (or the
//! directory given), so that the page draws the example's report while its
//! worker still starts. Natively only; it reads and writes nothing else.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use fieldscope::protocol::{encode, OPENING_FILE};
    let Some(dir) = std::env::args_os()
        .nth(1)
        .or_else(|| std::env::var_os("TRUNK_STAGING_DIR"))
    else {
        eprintln!(
            "usage: fieldscope-opening DIR (or TRUNK_STAGING_DIR set, as Trunk's hooks have it)"
        );
        return std::process::ExitCode::from(2);
    };
    let path = std::path::Path::new(&dir).join(OPENING_FILE);
    let bytes = encode(&fieldscope::service::opening_answers());
    match std::fs::write(&path, &bytes) {
        Ok(()) => {
            println!(
                "{}: the example's opening report ({} bytes)",
                path.display(),
                bytes.len()
            );
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}: cannot write: {e}", path.display());
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
