//! The test run builds each dependency once (issue 32): the Python
//! package's build (`pip install ./python`, which compiles only the binding
//! crate `fieldscope-python`) and `cargo test` (the main crate with its
//! dev-dependencies) must turn on the same features of every crate they
//! share. Where one crate's features differ, Cargo compiles it twice, and
//! with it everything above it — for syn, every derive macro and so the
//! whole graph, fieldscope included (Cargo.toml's `[build-dependencies]`
//! holds the features pyo3's macros add).

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// `cargo tree` of one package, as crate ("name vX.Y.Z") → its feature
/// lists (two when it is built for the host, for a macro, and as a library
/// with other features).
fn features_of(package: &str, edges: &str) -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = Command::new(cargo)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tree", "--locked", "--prefix", "none"])
        .args(["-p", package, "-e", edges, "-f", "{p}|{f}"])
        .output()
        .expect("run cargo tree");
    assert!(
        output.status.success(),
        "cargo tree -p {package} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut crates: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let line = line.trim_end_matches(" (*)");
        let Some((name, features)) = line.split_once('|') else {
            continue;
        };
        // A local crate prints its path: the name and version identify it.
        let name = name.split(" (").next().unwrap_or(name).to_string();
        crates.entry(name).or_default().insert(features.to_string());
    }
    crates
}

#[test]
fn the_python_build_and_the_tests_turn_on_the_same_features() {
    let python = features_of("fieldscope-python", "normal,build");
    let tests = features_of("fieldscope", "normal,build,dev");
    // The two graphs are the same crates but for PyO3's and the tests' own.
    assert!(python.contains_key("fieldscope v0.1.0"), "{python:?}");
    assert!(python.keys().any(|k| k.starts_with("pyo3-macros-backend")));
    assert!(tests.keys().any(|k| k.starts_with("proptest")));
    let shared: Vec<&String> = python.keys().filter(|k| tests.contains_key(*k)).collect();
    assert!(shared.len() > 100, "only {} shared crates", shared.len());
    let differing: Vec<String> = shared
        .into_iter()
        .filter(|k| python[*k] != tests[*k])
        .map(|k| format!("{k}: Python {:?}, tests {:?}", python[k], tests[k]))
        .collect();
    assert!(
        differing.is_empty(),
        "crates compiled twice in the test run, add their features to \
         Cargo.toml's [build-dependencies] (or [dependencies]):\n{}",
        differing.join("\n")
    );
}
