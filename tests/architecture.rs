//! What the crates cannot say for themselves. Cargo keeps the layers between crates (a crate
//! names only what it depends on); these checks keep the rest of ARCHITECTURE.md true: the
//! order of the crates, the library's lean dependencies, the layers inside the engines and
//! the puzzles, the facade's list, and the library's manners (no environment reads, no
//! stringly-typed errors).
//!
//! Every check reads each file as `architecture/source.rs` says: without comments, literals
//! or test-only code.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[path = "architecture/source.rs"]
mod source;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The Rust files under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The library crates, bottom first, each with the sokuc crates it may depend on.
const LAYERS: [(&str, &[&str]); 6] = [
    ("core", &[]),
    ("compile", &["sokuc-core"]),
    ("mip-wire", &[]),
    ("engines", &["sokuc-core", "sokuc-compile", "sokuc-mip-wire"]),
    ("puzzles", &["sokuc-core", "sokuc-compile", "sokuc-engines"]),
    (
        "sokuc",
        &["sokuc-core", "sokuc-compile", "sokuc-engines", "sokuc-puzzles"],
    ),
];

/// A crate's manifest, parsed.
fn manifest(dir: &Path) -> toml::Table {
    let text = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    text.parse().unwrap()
}

/// The names of a manifest's dependencies of one table (`dependencies`, `dev-dependencies`).
fn dependencies(m: &toml::Table, table: &str) -> BTreeSet<String> {
    m.get(table)
        .and_then(|t| t.as_table())
        .map(|t| t.keys().cloned().collect())
        .unwrap_or_default()
}

/// Each library crate depends on sokuc crates below it alone, in the order ARCHITECTURE.md
/// draws. Cargo refuses a cycle, but not a crate that reaches sideways or skips the order.
#[test]
fn each_crate_depends_only_on_the_crates_below_it() {
    let crates: BTreeSet<String> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let listed: BTreeSet<String> = LAYERS.iter().map(|(d, _)| d.to_string()).collect();
    assert_eq!(crates, listed, "every crate under crates/ has its place in LAYERS");
    for (dir, allowed) in LAYERS {
        let m = manifest(&root().join("crates").join(dir));
        let ours: BTreeSet<String> = dependencies(&m, "dependencies")
            .into_iter()
            .filter(|d| d.starts_with("sokuc-") && d != "sokuc-varisat")
            .collect();
        let bad: Vec<&String> = ours.iter().filter(|d| !allowed.contains(&d.as_str())).collect();
        assert!(
            bad.is_empty(),
            "crates/{dir} depends on {bad:?}; it may use only {allowed:?}"
        );
    }
    // The check reads real dependencies.
    let sokuc = manifest(&root().join("crates/sokuc"));
    assert!(dependencies(&sokuc, "dependencies").contains("sokuc-engines"));
}

/// The library crates depend on nothing a program that solves a model does not need: no
/// argument parser, progress bars, signal handling, web server or catch-all error type.
/// (The command has them; ARCHITECTURE.md says why.)
#[test]
fn the_library_crates_carry_no_command_dependency() {
    let command_only = [
        "clap",
        "clap_complete",
        "clap_mangen",
        "indicatif",
        "signal-hook",
        "tiny_http",
        "anyhow",
    ];
    for (dir, _) in LAYERS {
        let m = manifest(&root().join("crates").join(dir));
        let deps = dependencies(&m, "dependencies");
        for d in command_only {
            let optional = m["dependencies"]
                .get(d)
                .and_then(|v| v.get("optional"))
                .and_then(toml::Value::as_bool)
                .unwrap_or(false);
            // mip-wire serves the helper programs, which stop on SIGTERM; the library
            // reaches it only with a MIP backend. CaDiCaL's binding reports anyhow errors.
            let allowed = (dir == "mip-wire" && d == "signal-hook") || optional;
            assert!(!deps.contains(d) || allowed, "crates/{dir} depends on {d}");
        }
    }
}

/// The library reads no environment variable: options and limits come as values, and only
/// the command and the helper programs look at the environment.
#[test]
fn the_library_reads_no_environment_variable() {
    let mut found = Vec::new();
    for path in rust_files(&root().join("crates")) {
        let s = source::read(&std::fs::read_to_string(&path).unwrap());
        for needle in ["env::var(", "env::var_os(", "env::vars(", "env::vars_os("] {
            if s.code.contains(needle) {
                found.push(format!("{}: {needle}", path.display()));
            }
        }
        if s.with_strings.contains("env!(\"SOKUC") {
            found.push(format!("{}: env!(\"SOKUC", path.display()));
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn library_errors_are_typed() {
    for path in rust_files(&root().join("crates")) {
        let s = source::read(&std::fs::read_to_string(&path).unwrap());
        for (i, l) in s.code.lines().enumerate() {
            assert!(
                !(l.contains("Result<") && l.contains(", String>")),
                "{}:{}: a Result with a String error: {l}",
                path.display(),
                i + 1
            );
        }
    }
}

/// The names of the modules a file's code reaches at its crate's root (`crate::x::...`).
fn reaches(code: &str) -> BTreeSet<String> {
    code.split("crate::")
        .skip(1)
        .map(|rest| rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect())
        .collect()
}

/// Inside the engines, dependencies run one way: the registry (every backend by name) uses
/// the portfolio, the portfolio the engines (through `engines.rs`), the engines the
/// algorithms over any backend, and those the contract. No engine knows the portfolio.
#[test]
fn the_engines_never_reach_the_portfolio() {
    let src = root().join("crates/engines/src");
    let level = |top: &str| -> Option<u8> {
        Some(match top {
            "contract" | "basis" | "limits" | "searching" => 0,
            "algorithms" => 1,
            "sat" | "cp" | "search" | "mitm" | "mip" => 2,
            "engines" => 3,
            "portfolio" => 4,
            "registry" => 5,
            _ => return None,
        })
    };
    let mut bad = Vec::new();
    let mut seen = 0;
    for path in rust_files(&src) {
        let rel = path.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
        let top = rel.split('/').next().unwrap().trim_end_matches(".rs");
        let Some(from) = level(top) else { continue };
        let code = source::read(&std::fs::read_to_string(&path).unwrap()).code;
        for m in reaches(&code) {
            let Some(to) = level(&m) else { continue };
            seen += 1;
            if to > from {
                bad.push(format!("{rel} reaches up to {m}"));
            }
        }
    }
    assert!(bad.is_empty(), "engine files reach up a layer:\n{}", bad.join("\n"));
    assert!(
        seen > 30,
        "only {seen} paths inside the engines: the check reads nothing"
    );
}

/// A front-end never names another one, and none reaches the engines but a generator: a new
/// puzzle kind is one folder.
#[test]
fn a_front_end_names_no_other() {
    let src = root().join("crates/puzzles/src");
    let front_ends = ["soku", "pool", "kakuro", "tricky", "pb"];
    let mut names: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for fe in front_ends {
        for path in rust_files(&src.join(fe)) {
            let code = source::read(&std::fs::read_to_string(&path).unwrap()).code;
            let generator = path.ends_with("generate.rs");
            for m in reaches(&code) {
                if (front_ends.contains(&m.as_str()) && m != fe) || (m == "backend" && !generator) {
                    names.entry(path.display().to_string()).or_default().insert(m);
                }
            }
        }
    }
    assert!(names.is_empty(), "{names:#?}");
}

#[test]
fn main_only_dispatches() {
    let main = std::fs::read_to_string(root().join("src/main.rs")).unwrap();
    assert!(main.lines().count() < 300, "main.rs has {} lines", main.lines().count());
}

/// The sokuc crate's documented surface is the facade alone: its modules are private (public
/// only in the tests' `testing` build) but the documented `output`, and what the root
/// exports by name is the facade's list. A new public item is added here on purpose.
#[test]
fn the_public_library_is_the_facade() {
    let lib = std::fs::read_to_string(root().join("crates/sokuc/src/lib.rs")).unwrap();
    let lines: Vec<&str> = lib.lines().collect();
    assert!(
        lib.contains("#![deny(missing_docs)]"),
        "lib.rs keeps missing_docs denied"
    );
    for (i, l) in lines.iter().enumerate() {
        // A public module, or a lower crate's module re-exported whole.
        let module = l.starts_with("pub mod ")
            || (l.starts_with("pub use ") && (l.contains(" as ") || l.contains('$')))
            || (l.starts_with("pub use ")
                && !l.contains('{')
                && l.trim_end_matches(';')
                    .rsplit("::")
                    .next()
                    .unwrap()
                    .starts_with(char::is_lowercase));
        if module && *l != "pub use sokuc_puzzles::output;" {
            assert!(
                i > 0 && lines[i - 1].starts_with("#[cfg(feature = \"testing\")]") || l.contains('$'),
                "lib.rs:{}: `{l}` is public outside the `testing` build",
                i + 1
            );
        }
    }
    // Each `pub use ...;` naming items, over as many lines as rustfmt gives it.
    let exported: BTreeSet<&str> = lib
        .split(';')
        .filter_map(|stmt| stmt.find("pub use ").map(|i| &stmt[i + "pub use ".len()..]))
        .filter(|l| !l.contains(" as ") && !l.contains('$'))
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
        .filter(|n| *n != "output")
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

/// The command (main.rs, cli/, serve/) and the programs in examples/ reach the library
/// through its public surface alone: no path into a module the `testing` build opens.
#[test]
fn the_command_and_the_examples_use_the_public_library_alone() {
    let lib = std::fs::read_to_string(root().join("crates/sokuc/src/lib.rs")).unwrap();
    let internal: Vec<String> = lib
        .split(['\n', ';'])
        .filter_map(|l| {
            let l = l.trim();
            let name = l
                .strip_prefix("sokuc_core::")
                .or_else(|| l.strip_prefix("sokuc_compile::"))
                .or_else(|| l.strip_prefix("sokuc_puzzles::"))
                .map(str::to_string)
                .or_else(|| {
                    let word = l.trim_end_matches(';');
                    (!word.is_empty() && word.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
                        .then(|| word.to_string())
                })?;
            (name != "output").then_some(name)
        })
        .chain(["backend".to_string()])
        .collect();
    assert!(
        internal.iter().any(|m| m == "run") && internal.iter().any(|m| m == "ir"),
        "{internal:?}"
    );
    let mut files = vec![root().join("src/main.rs"), root().join("src/lib.rs")];
    for dir in ["src/cli", "src/serve", "examples"] {
        files.extend(rust_files(&root().join(dir)));
    }
    let mut found = Vec::new();
    for path in &files {
        let code = source::read(&std::fs::read_to_string(path).unwrap()).code;
        for m in &internal {
            if code.contains(&format!("sokuc::{m}::")) || code.contains(&format!("sokuc::{m};")) {
                found.push(format!("{}: sokuc::{m}", path.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "internal modules reached from outside the library: {found:#?}"
    );
}
