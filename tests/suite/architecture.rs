//! The layout's invariants (ARCHITECTURE.md): the evaluation core does no
//! I/O and knows no web, UI or plotting types; the charts read only the
//! report, do no I/O, know no web types, and keep plotters in one file;
//! and no Rust file in `src/` grows past [`MAX_LINES`] (issue 33: a module
//! has one responsibility and stays readable).

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

/// The code of every line of the Rust files under `src/DIR`, comments cut
/// off, as ("file:line", code).
fn code_lines(dir: &str, min_files: usize) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    assert!(
        files.len() >= min_files,
        "expected at least {min_files} files in {}, found {}",
        dir.display(),
        files.len()
    );
    let mut lines = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("source is readable");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            lines.push((format!("{}:{}", file.display(), n + 1), code.to_string()));
        }
    }
    lines
}

/// "file:line: word" for each line under `src/DIR` that names one of
/// `words`.
fn offences(dir: &str, words: &[&str], min_files: usize) -> Vec<String> {
    let mut found = Vec::new();
    for (place, code) in code_lines(dir, min_files) {
        for word in words {
            if code.contains(word) {
                found.push(format!("{place}: {word}"));
            }
        }
    }
    found
}

#[test]
fn the_evaluation_core_does_no_io_and_knows_no_web_or_plotting_types() {
    let offences = offences("eval", &FORBIDDEN, 10);
    assert!(
        offences.is_empty(),
        "the core must stay pure:\n{}",
        offences.join("\n")
    );
}

/// What `src/charts` must not name: I/O, web types, and the parts of the
/// crate other than the report.
const FORBIDDEN_IN_CHARTS: [&str; 12] = [
    "std::fs",
    "std::net",
    "std::process",
    "std::io",
    "web_sys",
    "wasm_bindgen",
    "leptos",
    "gloo",
    "crate::io",
    "crate::cli",
    "crate::export",
    "crate::synth",
];

#[test]
fn the_charts_read_only_the_report_and_do_no_io() {
    let mut found = offences("charts", &FORBIDDEN_IN_CHARTS, 5);
    for (place, code) in code_lines("charts", 5) {
        // The report (with its typed configuration), and a sweep's result
        // (its plain structs), only.
        if code.contains("crate::eval")
            && !code.contains("crate::eval::report")
            && !code.contains("crate::eval::config")
            && !code.contains("crate::eval::sweep")
        {
            found.push(format!("{place}: {}", code.trim()));
        }
    }
    assert!(
        found.is_empty(),
        "charts must stay pure:\n{}",
        found.join("\n")
    );
}

#[test]
fn only_the_charts_drawing_module_names_plotters() {
    let found: Vec<String> = offences("", &["plotters"], 10)
        .into_iter()
        .filter(|o| !o.contains("charts/draw.rs"))
        .collect();
    assert!(
        found.is_empty(),
        "plotters outside charts/draw.rs:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_itself_can_fail() {
    // The scan above would catch an import written the usual way.
    let line = "use std::fs::read;";
    assert!(FORBIDDEN.iter().any(|w| line.contains(w)));
}

/// The most lines a Rust file in `src/` may have (issue 33: no module over
/// about 800 lines; data tables and tests move to their own files, as
/// `docs/contributing.md` says).
const MAX_LINES: usize = 800;

/// The files under `root` longer than `max` lines, as "path: N lines".
fn long_files(root: &Path, max: usize) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(root, &mut files);
    files.sort();
    files
        .iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(path).expect("source file is readable");
            let lines = text.lines().count();
            (lines > max).then(|| format!("{}: {lines} lines", path.display()))
        })
        .collect()
}

#[test]
fn no_source_file_is_longer_than_800_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let long = long_files(&src, MAX_LINES);
    assert!(
        long.is_empty(),
        "split these by responsibility (one module, one job; tests and data tables \
         in their own files):\n{}",
        long.join("\n")
    );
    // The check can fail: at a lower bound the largest files are caught.
    assert!(!long_files(&src, 500).is_empty());
}
