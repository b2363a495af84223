//! The invariants of ARCHITECTURE.md that a reader can check in the source, checked here so
//! that they stay true: the library's modules import each other without cycles, the layers
//! below the run path do not reach up, only the CLI knows clap, `main.rs` stays a
//! dispatcher, and the library has no stringly-typed errors.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every library file with its top-level module (`soku` for src/soku/compile.rs, `error`
/// for src/error.rs); the binary (main.rs, cli/) is left out.
fn library() -> Vec<(String, PathBuf, String)> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files
        .into_iter()
        .filter_map(|p| {
            let rel = p.strip_prefix(src()).unwrap().to_string_lossy().into_owned();
            let top = rel.split('/').next().unwrap().trim_end_matches(".rs").to_string();
            if top == "main" || top == "cli" || top == "lib" {
                return None;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            Some((top, p, text))
        })
        .collect()
}

/// The code of a file without comments and without its unit tests (which may use anything).
fn code(text: &str) -> String {
    let body = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    body.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// module -> the crate modules it names (`crate::x`).
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    imports_without(None)
}

/// The same, leaving out files with this name.
fn imports_without(skip: Option<&str>) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (top, path, text) in library() {
        if skip.is_some_and(|s| path.ends_with(s)) {
            continue;
        }
        let code = code(&text);
        let entry = edges.entry(top.clone()).or_default();
        for (i, _) in code.match_indices("crate::") {
            let name: String = code[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && name != top {
                entry.insert(name);
            }
        }
    }
    edges
}

#[test]
fn modules_import_each_other_without_cycles() {
    let edges = imports();
    // Depth-first search for a back edge; the cycle found is printed whole.
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == m) {
            let mut cycle = path[i..].to_vec();
            cycle.push(m.to_string());
            return Some(cycle);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        for n in edges.get(m).into_iter().flatten() {
            if let Some(c) = visit(n, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for m in edges.keys() {
        if let Some(cycle) = visit(m, &edges, &mut Vec::new(), &mut done) {
            panic!("import cycle: {}", cycle.join(" -> "));
        }
    }
    // The check sees real edges (it would pass vacuously on an empty map).
    assert!(
        edges["run"].contains("puzzle") && edges["soku"].contains("ir"),
        "{edges:?}"
    );
}

#[test]
fn lower_layers_do_not_reach_up() {
    let edges = imports();
    // What each layer may name: the IR nothing, the encoder only the IR and the budget,
    // backends only those, front-ends nothing of the run path, the registry or the commands.
    let above_run = [
        "run", "registry", "compare", "certify", "bench", "sweep", "generate", "liu", "count", "error",
    ];
    let front_ends = ["soku", "pool", "kakuro", "tricky", "pb"];
    let rules: Vec<(&str, Vec<&str>)> = vec![
        ("ir", vec![]),
        ("budget", vec![]),
        ("model", vec![]),
        ("encode", vec!["ir", "budget"]),
        ("export", vec!["ir"]),
        // The LP relaxation works on the IR alone, so that it serves every puzzle kind.
        ("lp", vec!["ir"]),
        ("backend", vec!["ir", "encode", "budget"]),
        // The counter works on the puzzle's model; the run path only gives it the puzzle.
        // Per-arrangement counts take the orbits of capacity arrangements from the sweep;
        // kinds without a counter of their own go through the model counter.
        (
            "count",
            vec![
                "model", "budget", "run", "error", "sweep", "rng", "sharp", "encode", "puzzle",
            ],
        ),
        // The model counter works on CNF and the IR, for every puzzle kind.
        ("sharp", vec!["ir", "encode", "budget"]),
    ];
    for (layer, allowed) in rules {
        let bad: Vec<&String> = edges
            .get(layer)
            .into_iter()
            .flatten()
            .filter(|m| !allowed.contains(&m.as_str()))
            .collect();
        assert!(bad.is_empty(), "{layer} may import only {allowed:?}, but names {bad:?}");
    }
    // Generators are the exception: they solve (through the backend trait) to make puzzles.
    let solving = imports_without(Some("generate.rs"));
    for fe in front_ends.iter().chain(&["puzzle", "input", "render", "grid"]) {
        let up: Vec<&String> = solving
            .get(*fe)
            .into_iter()
            .flatten()
            .filter(|m| above_run.contains(&m.as_str()) || m.as_str() == "backend")
            .collect();
        assert!(up.is_empty(), "{fe} reaches up to {up:?}");
    }
    // A front-end never names another one: a new kind is one folder.
    for fe in front_ends {
        let other: Vec<&String> = edges
            .get(fe)
            .into_iter()
            .flatten()
            .filter(|m| front_ends.contains(&m.as_str()))
            .collect();
        assert!(other.is_empty(), "{fe} names the front-end(s) {other:?}");
    }
}

#[test]
fn only_the_command_line_knows_clap() {
    for (_, path, text) in library() {
        assert!(!code(&text).contains("clap"), "{} names clap", path.display());
    }
}

#[test]
fn main_only_dispatches_and_files_stay_small() {
    let main = std::fs::read_to_string(src().join("main.rs")).unwrap();
    assert!(main.lines().count() < 300, "main.rs has {} lines", main.lines().count());
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    for p in files {
        let n = std::fs::read_to_string(&p).unwrap().lines().count();
        // The search engine is one algorithm that reads best whole.
        let whole = p.ends_with("backend/search/engine.rs");
        assert!(n <= 720 || whole, "{} has {n} lines", p.display());
    }
}

#[test]
fn library_errors_are_typed() {
    for (_, path, text) in library() {
        let code = code(&text);
        for (i, l) in code.lines().enumerate() {
            assert!(
                !(l.contains("Result<") && l.contains(", String>")),
                "{}:{}: a Result with a String error: {l}",
                path.display(),
                i + 1
            );
        }
    }
}

/// The library reads no environment variable: options and limits come as values, and only
/// the CLI (main.rs, cli/) and the helper programs (bin/) look at the environment.
#[test]
fn the_library_reads_no_environment_variable() {
    let mut found = Vec::new();
    for (top, path, text) in library() {
        if top == "bin" {
            continue;
        }
        let code = code(&text);
        for needle in [
            "env::var(",
            "env::var_os(",
            "env::vars(",
            "env::vars_os(",
            "env!(\"SOKUC",
        ] {
            if code.contains(needle) {
                found.push(format!("{}: {needle}", path.display()));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// The documented library is the facade alone: every module of the crate root is either
/// private to the crate or hidden from the documentation (the CLI and the tests use them,
/// with no promise of stability), and what the root exports by name is the facade's list.
/// A new public item then has to be added here on purpose.
#[test]
fn the_public_library_is_the_facade() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let lines: Vec<&str> = lib.lines().collect();
    assert!(lib.contains("#![warn(missing_docs)]"), "lib.rs keeps missing_docs on");
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("pub mod ") {
            assert_eq!(
                i.checked_sub(1).map(|j| lines[j]),
                Some("#[doc(hidden)]"),
                "src/lib.rs:{}: `{l}` is public and documented: hide it or make it pub(crate)",
                i + 1
            );
        }
    }
    let exported: BTreeSet<&str> = lines
        .iter()
        .filter(|l| l.starts_with("pub use "))
        .flat_map(|l| {
            let l = l.trim_start_matches("pub use ").trim_end_matches(';');
            let names = match l.split_once('{') {
                Some((_, rest)) => rest.trim_end_matches('}'),
                None => l.rsplit("::").next().unwrap(),
            };
            names
                .split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .collect::<Vec<_>>()
        })
        .collect();
    let facade: BTreeSet<&str> = [
        "Instance", "Options", "Outcome", "backends", "kinds", "Error", "Status", "Checked", "Format",
    ]
    .into();
    assert_eq!(exported, facade);
}
