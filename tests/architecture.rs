//! The invariants of ARCHITECTURE.md that a reader can check in the source, checked here so
//! that they stay true: the library's files import each other without circles (and its
//! top-level modules without cycles), the layers below the run path do not reach up, only
//! the CLI knows clap, `main.rs` stays a dispatcher, and the library has no stringly-typed
//! errors.
//!
//! Every check reads each file whole, as `architecture/source.rs` says: without comments, and
//! without exactly its test-only code (items under `#[cfg(test)]`, wherever they stand, and
//! the files of test-only modules). The import graph is `architecture/graph.rs`'s; the
//! tests in `architecture/planted.rs` run it on small crates written for them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[path = "architecture/graph.rs"]
mod graph;
#[path = "architecture/planted.rs"]
mod planted;
#[path = "architecture/source.rs"]
mod source;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every file the checks read, as they read it ([`source::read`]): the library's (the graph's
/// files) and the helper programs' (bin/); the binary (main.rs, cli/) is left out.
fn library() -> Vec<(String, source::Source)> {
    let mut files: Vec<(String, source::Source)> = graph::load(&src())
        .files
        .into_iter()
        .map(|f| (f.rel, f.source))
        .collect();
    let bin = src().join("bin");
    if bin.is_dir() {
        for p in graph::rust_files(&bin) {
            let rel = p.strip_prefix(src()).unwrap().to_string_lossy().into_owned();
            files.push((rel, source::read(&std::fs::read_to_string(&p).unwrap())));
        }
    }
    files
}

/// The top-level module of a file under src/ (`soku` for soku/compile.rs, `error` for
/// error.rs); `None` for the crate root.
fn top(rel: &str) -> Option<&str> {
    (rel != "lib.rs").then(|| rel.split('/').next().unwrap().trim_end_matches(".rs"))
}

/// module -> the other top-level modules it names, from the file graph.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    imports_without(None)
}

/// The same, leaving out files with this name.
fn imports_without(skip: Option<&str>) -> BTreeMap<String, BTreeSet<String>> {
    let krate = graph::load(&src());
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (f, out) in krate.edges() {
        let from = &krate.files[f].rel;
        let Some(m) = top(from).filter(|_| !skip.is_some_and(|s| from.ends_with(s))) else {
            continue;
        };
        let entry = edges.entry(m.to_string()).or_default();
        for g in out.keys() {
            if let Some(n) = top(&krate.files[*g].rel).filter(|n| *n != m) {
                entry.insert(n.to_string());
            }
        }
    }
    edges
}

/// No two files of the library name items of each other, through any number of files: a
/// module's shared types live in a file of their own, below both the module's face (mod.rs,
/// which calls and re-exports its children) and the children.
#[test]
fn files_import_each_other_without_circles() {
    let krate = graph::load(&src());
    let edges = krate.edges();
    let circles = graph::circles(&edges);
    assert!(
        circles.is_empty(),
        "{} import circle(s) between the library's files:\n{}",
        circles.len(),
        graph::describe(&krate, &edges, &circles)
    );
    // The check sees real edges (it would pass vacuously on an empty graph), through the
    // crate root's re-exports to the files that define the names.
    let file = |rel: &str| krate.file(rel).unwrap();
    for (from, to) in [
        ("lib.rs", "api/instance.rs"),
        ("lib.rs", "error.rs"),
        ("api/mod.rs", "api/options.rs"),
    ] {
        assert!(edges[&file(from)].contains_key(&file(to)), "no edge {from} -> {to}");
    }
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
        "run", "registry", "compare", "certify", "bench", "sweep", "generate", "liu", "count", "error", "assist",
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
        // The MIP helpers' wire format is a leaf the helper programs read too.
        ("mip_wire", vec![]),
        ("backend", vec!["ir", "encode", "budget", "mip_wire"]),
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

/// Inside the backend, dependencies run one way: the registry (every backend by name) uses
/// the portfolio, the portfolio the engines (through `engines.rs`), the engines the
/// algorithms over any backend, and those the contract (the trait, its options and answers,
/// the basis of claims, the row limits). An engine may use another engine (`mitm` fills its
/// auxiliary bits with `sat`), never the portfolio or anything above it.
#[test]
fn backend_layers_run_one_way() {
    fn level(rel: &str) -> Option<(u8, &'static str)> {
        let b = rel.strip_prefix("backend/")?;
        let first = b.split('/').next().unwrap();
        Some(match first {
            "contract.rs" | "basis.rs" | "limits.rs" | "searching.rs" => (0, "the contract"),
            "algorithms" => (1, "the algorithms"),
            "sat" | "cp" | "search" | "mitm" | "mip" => (2, "an engine"),
            "engines.rs" => (3, "the engines by name"),
            "portfolio" => (4, "the portfolio"),
            "registry.rs" => (5, "the registry"),
            "mod.rs" => (6, "the facade"),
            other => panic!("backend/{other} has no layer: give it one here"),
        })
    }
    let krate = graph::load(&src());
    let edges = krate.edges();
    let mut bad = Vec::new();
    let mut seen = 0;
    for (f, out) in &edges {
        let from = &krate.files[*f].rel;
        let Some((lf, nf)) = level(from) else { continue };
        for g in out.keys() {
            let to = &krate.files[*g].rel;
            let Some((lt, nt)) = level(to) else { continue };
            seen += 1;
            if lt > lf {
                bad.push(format!("{from} ({nf}) uses {to} ({nt})"));
            }
        }
    }
    assert!(bad.is_empty(), "backend files reach up a layer:\n{}", bad.join("\n"));
    // The check sees real edges: the portfolio reaches engines only through engines.rs.
    assert!(seen > 50, "only {seen} edges inside backend/");
    let file = |rel: &str| krate.file(rel).unwrap();
    assert!(edges[&file("backend/portfolio/auto.rs")].contains_key(&file("backend/engines.rs")));
    assert!(edges[&file("backend/sat/varisat.rs")].contains_key(&file("backend/contract.rs")));
}

#[test]
fn only_the_command_line_knows_clap() {
    for (rel, source) in library() {
        assert!(!source.code.contains("clap"), "src/{rel} names clap");
    }
}

#[test]
fn main_only_dispatches_and_files_stay_small() {
    let main = std::fs::read_to_string(src().join("main.rs")).unwrap();
    assert!(main.lines().count() < 300, "main.rs has {} lines", main.lines().count());
    for p in graph::rust_files(&src()) {
        let n = std::fs::read_to_string(&p).unwrap().lines().count();
        // The search engine is one algorithm that reads best whole.
        let whole = p.ends_with("backend/search/engine/mod.rs");
        assert!(n <= 720 || whole, "{} has {n} lines", p.display());
    }
}

#[test]
fn library_errors_are_typed() {
    for (rel, source) in library() {
        for (i, l) in source.code.lines().enumerate() {
            assert!(
                !(l.contains("Result<") && l.contains(", String>")),
                "src/{rel}:{}: a Result with a String error: {l}",
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
    for (rel, source) in library() {
        if rel.starts_with("bin/") {
            continue;
        }
        for needle in ["env::var(", "env::var_os(", "env::vars(", "env::vars_os("] {
            if source.code.contains(needle) {
                found.push(format!("src/{rel}: {needle}"));
            }
        }
        // A literal in the needle: looked for in the code with its literals.
        if source.with_strings.contains("env!(\"SOKUC") {
            found.push(format!("src/{rel}: env!(\"SOKUC"));
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// The documented library is the facade alone: every module of the crate root is private to
/// the crate (public only in the tests' `testing` build) but the documented `output` and
/// `mip_wire`, none is hidden from the documentation, and what the root exports by name is the
/// facade's list.
/// A new public item then has to be added here on purpose.
#[test]
fn the_public_library_is_the_facade() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let lines: Vec<&str> = lib.lines().collect();
    assert!(
        lib.contains("#![deny(missing_docs)]"),
        "lib.rs keeps missing_docs denied"
    );
    // The documented public modules, part of the facade.
    let documented = ["pub mod output;", "pub mod mip_wire;"];
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("pub mod ") && !documented.contains(l) {
            // The attributes just above it.
            let attrs: Vec<&str> = lines[..i]
                .iter()
                .rev()
                .take_while(|a| a.starts_with("#["))
                .copied()
                .collect();
            assert!(
                attrs.contains(&"#[cfg(feature = \"testing\")]"),
                "src/lib.rs:{}: `{l}` is public and documented: make it internal (the `internal!` list) or pub(crate)",
                i + 1
            );
        }
    }
    // The internal modules' declaration: public only in the `testing` build.
    let internal = lib
        .split("macro_rules! internal {")
        .nth(1)
        .expect("lib.rs declares `internal!`");
    let internal = internal.split("\n}\n").next().unwrap();
    assert!(
        internal.contains("#[cfg(feature = \"testing\")]")
            && internal.contains("#[cfg(not(feature = \"testing\"))]\n        pub(crate) mod $name;"),
        "lib.rs's `internal!` makes a module public only with the `testing` feature:\n{internal}"
    );
    // Each `pub use ...;`, over as many lines as rustfmt gives it.
    let exported: BTreeSet<&str> = lib
        .split(';')
        .filter_map(|stmt| stmt.trim().strip_prefix("pub use "))
        .flat_map(|l| {
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
        "AdtsSubset",
        "AdtsSummary",
        "Advice",
        "Arrangement",
        "Assignment",
        "Assistance",
        "Backend",
        "Backing",
        "Batch",
        "BatchSummary",
        "BenchReport",
        "BenchRow",
        "ByCapacities",
        "CapacitySummary",
        "Certificate",
        "Certify",
        "Checked",
        "Claim",
        "ClaimKind",
        "ClauseSink",
        "Cmp",
        "Cnf",
        "Comparison",
        "Count",
        "Counted",
        "DEFAULT_MAX_CLAUSES",
        "EncodeError",
        "Encoding",
        "Ended",
        "Enumerate",
        "Enumerated",
        "Error",
        "Evidence",
        "FileBench",
        "Format",
        "Generated",
        "InputError",
        "InputLimits",
        "Instance",
        "Lit",
        "LpMode",
        "MAX_VARS",
        "MipSettings",
        "Model",
        "Options",
        "Outcome",
        "OutputError",
        "Picture",
        "Placement",
        "Progress",
        "Scaling",
        "ScalingTable",
        "Searching",
        "SearchingNotice",
        "ServeError",
        "ServeOptions",
        "Server",
        "SizeError",
        "Snapshot",
        "Soku",
        "SokuGenerator",
        "Status",
        "Sweep",
        "SweepSummary",
        "TrickyGenerator",
        "Var",
        "Variant",
        "Verdict",
        "Withheld",
        "adts_subsets",
        "backends",
        "exit",
        "format_size",
        "interrupt_process_on",
        "kinds",
        "kinds_described",
        "parse_size",
        "read_text",
        "set_input_limits",
    ]
    .into();
    assert_eq!(exported, facade);
}

/// The web server (src/serve/), though inside the library, reaches the rest of it through the
/// facade alone, as a program that embeds sokuc would: no path into a module of the
/// `internal!` list.
#[test]
fn the_server_uses_the_public_library_alone() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let list = lib.split("internal! {").nth(1).unwrap().split('}').next().unwrap();
    let mut internal: Vec<&str> = list
        .split(';')
        .map(|m| m.trim().rsplit(char::is_whitespace).next().unwrap_or(""))
        .filter(|m| !m.is_empty() && *m != "serve")
        .collect();
    // The crate-private modules declared outside the list.
    internal.extend(["bench", "export", "render", "report", "sweep"]);
    assert!(internal.contains(&"run"), "the list was read: {internal:?}");
    let mut found = Vec::new();
    for path in graph::rust_files(&src().join("serve")) {
        let code = source::read(&std::fs::read_to_string(&path).unwrap()).code;
        for m in &internal {
            if code.contains(&format!("crate::{m}::")) || code.contains(&format!("crate::{m};")) {
                found.push(format!("{}: crate::{m}", path.strip_prefix(src()).unwrap().display()));
            }
        }
    }
    assert!(found.is_empty(), "the server reaches past the facade: {found:#?}");
}

/// The command (main.rs, cli/) and the programs in examples/ reach the library through its
/// public surface alone: no path through a module of the `internal!` list. CI's clippy pass
/// without the `testing` feature finds this for the command too, but not for the examples,
/// which cargo builds with the dev-dependencies (and so with `testing`).
#[test]
fn the_command_and_the_examples_use_the_public_library_alone() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let list = lib
        .split("internal! {")
        .nth(1)
        .expect("lib.rs lists its internal modules in `internal! { ... }`");
    let list = list.split('}').next().unwrap();
    let internal: Vec<&str> = list
        .split(';')
        .map(|m| m.trim().rsplit(char::is_whitespace).next().unwrap_or(""))
        .filter(|m| !m.is_empty())
        .collect();
    assert!(internal.contains(&"run"), "the list was read: {internal:?}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![src().join("main.rs")];
    files.extend(graph::rust_files(&src().join("cli")));
    files.extend(graph::rust_files(&root.join("examples")));
    let mut found = Vec::new();
    for path in &files {
        let code = source::read(&std::fs::read_to_string(path).unwrap()).code;
        for m in &internal {
            if code.contains(&format!("sokuc::{m}::")) || code.contains(&format!("sokuc::{m};")) {
                found.push(format!("{}: sokuc::{m}", path.strip_prefix(root).unwrap().display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "internal modules reached from outside the library: {found:#?}"
    );
}
