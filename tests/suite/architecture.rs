//! The layout's invariants (ARCHITECTURE.md): the evaluation core does no
//! I/O and knows no web, UI or plotting types.

use std::path::Path;

const FORBIDDEN: [&str; 10] = [
    "std::fs",
    "std::net",
    "std::process",
    "std::io",
    "web_sys",
    "wasm_bindgen",
    "leptos",
    "plotters",
    "gloo",
    "crate::io",
];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source directory is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_evaluation_core_does_no_io_and_knows_no_web_or_plotting_types() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/eval");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    assert!(
        files.len() >= 10,
        "expected the core's files, found {}",
        files.len()
    );
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("source is readable");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            for word in FORBIDDEN {
                if code.contains(word) {
                    offences.push(format!("{}:{}: {word}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(
        offences.is_empty(),
        "the core must stay pure:\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_check_itself_can_fail() {
    // The scan above would catch an import written the usual way.
    let line = "use std::fs::read;";
    assert!(FORBIDDEN.iter().any(|w| line.contains(w)));
}
