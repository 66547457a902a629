//! The module graph's invariants (ARCHITECTURE.md, issue 33): no import
//! cycle between modules, and no child module importing an item its parent
//! defines (state drawn by a parent belongs to the parent, or to a sibling
//! both can import).
//!
//! The graph is read from the sources: each file under `src/` is a module
//! (`src/eval/report.rs` is `eval::report`); its edges are the paths it
//! names — `use` trees (braces expanded), `crate::…` and `super::…` paths
//! in code — each resolved to the longest module prefix. Test code (a
//! `tests.rs` file, a file in a `tests/` folder, or what follows
//! `#[cfg(test)]` before `mod tests`) is left out. An edge to an ancestor or a descendant is not part of a cycle
//! (a parent declaring and re-exporting its children is the layout); a
//! child naming an item its ancestor's own file defines (not a `pub use`)
//! is an upward import.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source directory is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file under `src/` is (`None` for binaries and tests).
fn module_of(src: &Path, file: &Path) -> Option<Module> {
    let rel = file.strip_prefix(src).ok()?;
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    let last = parts.pop()?;
    let stem = last.strip_suffix(".rs")?;
    if stem == "tests" || parts.iter().any(|p| p == "tests") {
        return None;
    }
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    Some(parts)
}

/// The code of a file without comments, string literals' contents and
/// test modules.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    let mut code = String::new();
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or_default();
        // Drop string contents so that paths in messages are not edges.
        let mut inside = false;
        for c in line.chars() {
            if c == '"' {
                inside = !inside;
                code.push(c);
            } else if !inside {
                code.push(c);
            }
        }
        code.push('\n');
    }
    code
}

/// Expands a `use` tree (`a::{b, c::{d, e as f}}`) into its paths.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        // `a::b as c`: the path is the first word.
        let path = tree.split_whitespace().next().unwrap_or_default();
        return vec![path.trim_end_matches(':').to_string()];
    };
    let prefix = tree[..open].trim();
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .flat_map(expand)
        .map(|p| {
            if p == "self" {
                prefix.trim_end_matches("::").to_string()
            } else {
                format!("{prefix}{p}")
            }
        })
        .collect()
}

/// Every path a file's code names, as written (`crate::…`, `super::…`,
/// `self::…`, or a `use` of a child module).
fn paths_in(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().last();
        let tail = &rest[at + 4..];
        rest = tail;
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(end) = tail.find(';') {
            paths.extend(expand(&tail[..end]));
        }
    }
    for word in ["crate::", "super::"] {
        let mut rest = code;
        while let Some(at) = rest.find(word) {
            let before = rest[..at].chars().last();
            let path: String = rest[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            rest = &rest[at + word.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            paths.push(path.trim_end_matches(':').to_string());
        }
    }
    paths
}

/// A written path as an absolute one from the crate root, seen from
/// module `from`; `None` for other crates.
fn absolute(from: &Module, path: &str) -> Option<Vec<String>> {
    let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: Module = match segments.first()? {
        &"crate" => {
            segments.remove(0);
            Vec::new()
        }
        &"super" | &"self" => from.clone(),
        _ => return None,
    };
    while let Some(&first) = segments.first() {
        match first {
            "super" => {
                base.pop()?;
            }
            "self" => {}
            _ => break,
        }
        segments.remove(0);
    }
    base.extend(segments.into_iter().map(str::to_string));
    Some(base)
}

struct Graph {
    /// Module → its file's code.
    code: BTreeMap<Module, String>,
    /// Module → (target module, the item named in it, if any).
    edges: BTreeMap<Module, BTreeSet<(Module, Option<String>)>>,
}

fn graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut code = BTreeMap::new();
    for file in &files {
        if let Some(module) = module_of(&src, file) {
            let text = std::fs::read_to_string(file).expect("source is readable");
            code.insert(module, code_of(&text));
        }
    }
    let edges = code
        .iter()
        .map(|(module, text)| (module.clone(), edges_of(module, text, &code)))
        .collect();
    Graph { code, edges }
}

/// A module's edges: each path its code names, resolved to the longest
/// module prefix among `modules`, with the item named in it.
fn edges_of(
    module: &Module,
    text: &str,
    modules: &BTreeMap<Module, String>,
) -> BTreeSet<(Module, Option<String>)> {
    let mut out = BTreeSet::new();
    for path in paths_in(text) {
        let Some(full) = absolute(module, &path) else {
            continue;
        };
        let Some(len) = (0..=full.len())
            .rev()
            .find(|&n| modules.contains_key(&full[..n]))
        else {
            continue;
        };
        let target = full[..len].to_vec();
        if &target != module {
            out.insert((target, full.get(len).cloned()));
        }
    }
    out
}

fn is_ancestor(a: &Module, b: &Module) -> bool {
    a.len() < b.len() && b.starts_with(a)
}

fn name(m: &Module) -> String {
    if m.is_empty() {
        "crate".to_string()
    } else {
        m.join("::")
    }
}

/// Whether `code` itself defines `item` (not only re-exports it).
fn defines(code: &str, item: &str) -> bool {
    if item == "*" {
        return [
            "struct ", "enum ", "fn ", "type ", "trait ", "const ", "static ",
        ]
        .iter()
        .any(|k| {
            code.lines().any(|l| {
                l.trim_start().starts_with(&format!("pub {k}")) || l.trim_start().starts_with(k)
            })
        });
    }
    ["struct", "enum", "fn", "type", "trait", "const", "static"]
        .iter()
        .any(|k| {
            let word = format!("{k} {item}");
            code.match_indices(&word).any(|(at, _)| {
                let after = code[at + word.len()..].chars().next();
                !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        })
}

/// The cycles: strongly connected components of more than one module
/// (Tarjan's algorithm), over the edges that are neither up nor down.
fn cycles(g: &Graph) -> Vec<Vec<String>> {
    let nodes: Vec<&Module> = g.code.keys().collect();
    let index_of: BTreeMap<&Module, usize> =
        nodes.iter().enumerate().map(|(i, m)| (*m, i)).collect();
    let adjacency: Vec<Vec<usize>> = nodes
        .iter()
        .map(|m| {
            g.edges[*m]
                .iter()
                .filter(|(t, _)| !is_ancestor(t, m) && !is_ancestor(m, t))
                .map(|(t, _)| index_of[t])
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect()
        })
        .collect();
    struct Tarjan<'a> {
        adjacency: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        found: Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for &w in &self.adjacency[v].clone() {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(i) if self.on_stack[w] => self.low[v] = self.low[v].min(i),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    self.found.push(component);
                }
            }
        }
    }
    let n = nodes.len();
    let mut t = Tarjan {
        adjacency: &adjacency,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        found: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            t.visit(v);
        }
    }
    let mut found: Vec<Vec<String>> = t
        .found
        .into_iter()
        .map(|c| {
            let mut names: Vec<String> = c.into_iter().map(|i| name(nodes[i])).collect();
            names.sort();
            names
        })
        .collect();
    found.sort();
    found
}

/// "child → ancestor::Item" for each item a module takes from an
/// ancestor's own file.
fn upward_imports(g: &Graph) -> Vec<String> {
    let mut found = Vec::new();
    for (module, edges) in &g.edges {
        for (target, item) in edges {
            let Some(item) = item else { continue };
            if is_ancestor(target, module) && !target.is_empty() && defines(&g.code[target], item) {
                found.push(format!("{} → {}::{item}", name(module), name(target)));
            }
        }
    }
    found
}

#[test]
fn no_module_imports_in_a_cycle() {
    let g = graph();
    assert!(g.code.len() > 100, "read {} modules", g.code.len());
    let found = cycles(&g);
    assert!(
        found.is_empty(),
        "import cycles between modules: {found:#?}"
    );
}

#[test]
fn no_child_module_imports_what_its_parent_defines() {
    // What a parent's own file defines belongs to the parent; a child that
    // needs it takes it from a sibling both can import (issue 33: the last
    // twelve such pairs were paid off by moving the shared state into
    // siblings — `session::store`, `eval::evaluate::{pass, comparison,
    // stored, doc_out}`, `eval::confidence::sorted`, `io::records`).
    let found = upward_imports(&graph());
    assert!(
        found.is_empty(),
        "upward imports (import from a sibling instead): {found:#?}"
    );
}

#[test]
fn the_module_checks_can_fail() {
    // A cycle of two siblings, and a child taking its parent's state.
    let a: Module = vec!["x".into(), "a".into()];
    let b: Module = vec!["x".into(), "b".into()];
    let parent: Module = vec!["x".into()];
    let mut g = Graph {
        code: BTreeMap::new(),
        edges: BTreeMap::new(),
    };
    g.code.insert(
        parent.clone(),
        "pub struct AppState;\npub use a::Thing;\n".into(),
    );
    g.code.insert(
        a.clone(),
        code_of("use super::b::B;\nuse super::AppState;\n"),
    );
    g.code
        .insert(b.clone(), code_of("use crate::x::a::{self, Thing as T};\n"));
    for m in [&parent, &a, &b] {
        let edges = edges_of(m, &g.code[m], &g.code);
        g.edges.insert(m.clone(), edges);
    }
    assert_eq!(
        cycles(&g),
        vec![vec!["x::a".to_string(), "x::b".to_string()]]
    );
    assert_eq!(upward_imports(&g), vec!["x::a → x::AppState".to_string()]);
    // A re-export of the parent is not its own state.
    assert!(!defines(&g.code[&parent], "Thing"));
    // Test files, in a `tests.rs` or a `tests/` folder, are no modules.
    let src = Path::new("/x/src");
    assert_eq!(
        module_of(src, &src.join("session/files.rs")),
        Some(vec!["session".to_string(), "files".to_string()])
    );
    assert_eq!(module_of(src, &src.join("session/tests.rs")), None);
    assert_eq!(module_of(src, &src.join("session/tests/files.rs")), None);
    assert_eq!(
        expand("crate::eval::{report::{Report, Scores as S}, self}"),
        [
            "crate::eval::report::Report",
            "crate::eval::report::Scores",
            "crate::eval"
        ]
    );
}
