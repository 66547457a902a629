//! Build step of the browser app (Trunk's pre-build hook, `Trunk.toml`):
//! writes what the evaluation worker answers first when the page opens on
//! the built-in example (`fieldscope::service::opening_answers`: the
//! example's file list and report, made natively by the worker's own code)
//! to `protocol::OPENING_FILE`, and the report's document details to
//! `protocol::OPENING_DETAILS_FILE`, in Trunk's staging directory (or the
//! directory given), so that the page draws the example's report and its
//! documents while its worker still starts. Natively only; it reads and writes nothing else.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use fieldscope::protocol::{encode, OPENING_DETAILS_FILE, OPENING_FILE};
    let Some(dir) = std::env::args_os()
        .nth(1)
        .or_else(|| std::env::var_os("TRUNK_STAGING_DIR"))
    else {
        eprintln!(
            "usage: fieldscope-opening DIR (or TRUNK_STAGING_DIR set, as Trunk's hooks have it)"
        );
        return std::process::ExitCode::from(2);
    };
    let answers = fieldscope::service::opening_answers();
    for (name, answers, what) in [
        (OPENING_FILE, &answers.first, "report"),
        (OPENING_DETAILS_FILE, &answers.details, "document details"),
    ] {
        let path = std::path::Path::new(&dir).join(name);
        let bytes = encode(answers);
        if let Err(e) = std::fs::write(&path, &bytes) {
            eprintln!("{}: cannot write: {e}", path.display());
            return std::process::ExitCode::FAILURE;
        }
        println!(
            "{}: the example's opening {what} ({} bytes)",
            path.display(),
            bytes.len()
        );
    }
    std::process::ExitCode::SUCCESS
}

#[cfg(target_arch = "wasm32")]
fn main() {}
