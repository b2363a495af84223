//! `schema/sokuc.schema.json` against what sokuc really prints: every command that has
//! `--format json`, on real instances of every kind (sat, unsat, unknown, with `--unique`,
//! optimisation, enumeration, errors), each document validated against the `$defs` entry of
//! its kind and against the schema's top level (with boon). The schema is checked against the
//! draft 2020-12 metaschema, and mutated outputs must fail, so a schema that accepts anything fails
//! here too.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

fn root() -> PathBuf {
    common::root()
}

fn schema() -> Value {
    common::schema()
}

/// The documents a command prints, as the schema's top level lists them.
const DOCUMENTS: &[&str] = &[
    "outcome",
    "enumerationLine",
    "enumerationSummary",
    "compare",
    "error",
    "count",
    "countUnknown",
    "countByCapacities",
    "sweepCount",
    "sweepSummary",
    "benchBatch",
    "benchFileRow",
    "benchFilesSummary",
    "scaling",
    "generated",
    "certify",
    "adtsSubsets",
    "assisted",
    "checked",
];

const URL: &str = common::SCHEMA_URL;

fn validator(def: Option<&str>) -> (boon::Schemas, boon::SchemaIndex) {
    common::schema_validator(def)
}

fn errors(def: Option<&str>, doc: &Value) -> Vec<String> {
    common::schema_errors(def, doc)
}

fn assert_valid(def: &str, doc: &Value, cmd: &str) {
    common::assert_schema_of(def, doc, &format!("`sokuc {cmd}` printed a document that"));
}

/// What a command prints: one JSON document (maybe over several lines), or JSON lines,
/// each an `each` but the last, a `last`.
#[derive(Clone, Copy)]
enum Shape {
    One(&'static str),
    Lines { each: &'static str, last: &'static str },
}

/// Runs `sokuc args` in the repository, checks the exit code (one of `exits`), validates
/// what it printed and returns the documents.
fn check(args: &[&str], shape: Shape, exits: &[i32]) -> Vec<Value> {
    check_env(args, shape, exits, &[])
}

fn check_env(args: &[&str], shape: Shape, exits: &[i32], env: &[(&str, &Path)]) -> Vec<Value> {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sokuc"));
    c.args(args).current_dir(root());
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.output().expect("running sokuc");
    let cmd = args.join(" ");
    let stdout = String::from_utf8(o.stdout).expect("UTF-8 output");
    let code = o.status.code().expect("an exit code");
    assert!(
        exits.contains(&code),
        "`sokuc {cmd}` exited {code}, not one of {exits:?}\nstdout: {stdout}\nstderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let parse = |t: &str| -> Value {
        serde_json::from_str(t).unwrap_or_else(|e| panic!("`sokuc {cmd}` printed no JSON ({e}):\n{stdout}"))
    };
    match shape {
        Shape::One(def) => {
            let doc = parse(&stdout);
            assert_valid(def, &doc, &cmd);
            vec![doc]
        }
        Shape::Lines { each, last } => {
            let lines: Vec<&str> = stdout.lines().collect();
            assert!(!lines.is_empty(), "`sokuc {cmd}` printed nothing");
            let docs: Vec<Value> = lines.iter().map(|l| parse(l)).collect();
            for (i, doc) in docs.iter().enumerate() {
                assert_valid(if i + 1 == docs.len() { last } else { each }, doc, &cmd);
            }
            docs
        }
    }
}

const OUTCOME: Shape = Shape::One("outcome");
const ALL: Shape = Shape::Lines {
    each: "enumerationLine",
    last: "enumerationSummary",
};
/// Exit codes of an answer: plain (0 sat, 20 unsat, 30 unknown) and, for OPB/CNF,
/// competition (10 sat, 20 unsat, 0 unknown, 30 optimum found).
const ANSWER: &[i32] = &[0, 10, 20, 30];

/// `solve --format json` once, checked, with the status it must have.
fn solve(args: &[&str], status: &str) -> Value {
    let mut a = vec!["solve", "--format", "json"];
    a.extend_from_slice(args);
    let doc = check(&a, OUTCOME, ANSWER).remove(0);
    assert_eq!(doc["status"], status, "sokuc {}: {doc}", a.join(" "));
    doc
}

#[test]
fn the_schema_is_valid_draft_2020_12_and_lists_every_document() {
    let s = schema();
    assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
    // Compiling checks the schema against the 2020-12 metaschema ...
    validator(None);
    // ... which refuses a schema that is not one.
    let mut broken = s.clone();
    broken["$defs"]["status"]["enum"] = json!("sat");
    let mut compiler = boon::Compiler::new();
    compiler.add_resource(URL, broken).unwrap();
    let e = compiler.compile(URL, &mut boon::Schemas::new());
    assert!(e.is_err(), "a schema with a string for `enum` compiled");
    let listed: Vec<&str> = s["anyOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["$ref"].as_str().unwrap().trim_start_matches("#/$defs/"))
        .collect();
    assert_eq!(listed, DOCUMENTS);
    for (name, def) in s["$defs"].as_object().unwrap() {
        assert!(
            def.get("description")
                .and_then(Value::as_str)
                .is_some_and(|d| !d.is_empty()),
            "$defs/{name} has no description"
        );
        validator(Some(name));
    }
}

#[test]
fn solve_3soku() {
    let sat = solve(&["instances/tetrasoku-seed.toml"], "sat");
    assert_eq!(sat["verified"], true);
    solve(&["instances/icosoku-seed.toml", "--backend", "sat"], "sat");
    solve(&["instances/icosoku-fixed.toml", "--backend", "cp"], "sat");
    solve(&["instances/octasoku.toml", "--backend", "search"], "sat");
    solve(&["--pegs", "1,5,11,10,7,12,9,2,6,8,4,3"], "sat");
    // Unsat by presolve, and by a solver with presolve off.
    let unsat = solve(&["instances/icosoku-unsat.toml"], "unsat");
    assert_eq!(unsat["verdict_by"], "presolve");
    assert!(unsat["verified"].is_null() && unsat["placements"].is_null());
    for backend in ["sat", "cp", "search"] {
        solve(
            &[
                "instances/tetrasoku-unsat.toml",
                "--presolve",
                "off",
                "--backend",
                backend,
            ],
            "unsat",
        );
    }
    // --unique: a second solution, or proven unique.
    let u = solve(&["instances/tetrasoku-seed.toml", "--unique"], "sat");
    assert!(u["unique"].is_boolean(), "{u}");
    if u["unique"] == false {
        assert!(u["second_placements"].is_array(), "{u}");
    }
    solve(&["instances/icosoku-fixed.toml", "--unique", "--backend", "sat"], "sat");
}

#[test]
fn solve_pool() {
    solve(&["instances/octahedron-pool.toml"], "sat");
    let free = solve(&["instances/icosoku-free-pegs.toml"], "sat");
    assert_eq!(free["puzzle"], "pool");
    solve(&["instances/liu-adts.toml", "--backend", "sat"], "sat");
    solve(
        &["instances/octahedron-pool.toml", "--unique", "--backend", "sat"],
        "sat",
    );
}

#[test]
fn solve_grids() {
    for kind in ["kakuro/gecode-k0-easy.kakuro", "trickytriple/feup-lekinasa-4x4-01.tt"] {
        let file = format!("instances/{kind}");
        for backend in ["auto", "sat", "cp", "search"] {
            let doc = solve(&[&file, "--backend", backend], "sat");
            assert!(doc["grid"].is_array(), "{doc}");
        }
        let u = solve(&[&file, "--unique"], "sat");
        assert!(u["unique"].is_boolean(), "{u}");
    }
    solve(&["instances/kakuro/yamp-simonis-7x7.kakuro", "--unique"], "sat");
    let unsat = solve(&["tests/golden/inputs/unsat.kakuro"], "unsat");
    assert!(unsat["grid"].is_null());
    solve(
        &["tests/golden/inputs/unsat.kakuro", "--backend", "sat", "--lp", "off"],
        "unsat",
    );
}

#[test]
fn solve_opb_and_cnf() {
    // Optimisation: a proven optimum, with who proved it.
    let opt = solve(&["instances/opb/knapsack-opt-25-s1.opb"], "sat");
    assert_eq!(opt["optimal"], true, "{opt}");
    assert!(opt["objective"].is_string() && opt["optimal_by"].is_array(), "{opt}");
    for backend in ["sat", "cp", "search"] {
        solve(&["instances/opb/knapsack-opt-25-s1.opb", "--backend", backend], "sat");
    }
    solve(&["instances/opb/knapsack-30-s1.opb"], "sat");
    solve(&["instances/opb/subsetsum-24-unsat-s1.opb"], "unsat");
    solve(&["instances/opb/subsetsum-24-sat-s1.opb", "--unique"], "sat");
    solve(&["instances/cnf/planted-3sat-40-160-s1.cnf"], "sat");
    solve(
        &[
            "instances/cnf/planted-3sat-40-160-s1.cnf",
            "--unique",
            "--backend",
            "sat",
        ],
        "sat",
    );
    let php = solve(&["instances/cnf/php-5-4.cnf"], "unsat");
    assert!(php["model"].is_null() && php["objective"].is_null());
    solve(&["instances/cnf/php-5-4.cnf", "--exit-codes", "plain"], "unsat");
}

#[test]
fn solve_unknown() {
    // A time limit far too short for a hard instance: unknown, with the reason.
    for (file, backend) in [
        ("instances/opb/php-9-8.opb", "sat"),
        ("instances/opb/php-9-8.opb", "cp"),
        ("instances/opb/marketsplit-3-20-s1.opb", "search"),
    ] {
        let doc = solve(
            &[
                file,
                "--backend",
                backend,
                "--timeout",
                "0.001",
                "--presolve",
                "off",
                "--lp",
                "off",
            ],
            "unknown",
        );
        assert!(doc["reason"].is_string() && doc["verified"].is_null(), "{doc}");
    }
    // An optimisation stopped early: the best found, `"optimal": false` (or nothing yet, or
    // the optimum on a fast machine: whichever it is must be valid).
    for backend in ["cp", "search"] {
        let mut a = vec!["solve", "--format", "json", "instances/opb/knapsack-opt-25-s2.opb"];
        a.extend(["--backend", backend, "--timeout", "0.02"]);
        check(&a, OUTCOME, ANSWER);
    }
    // The same shape, whatever the machine's speed: a proven optimum made unproven.
    let mut best = solve(&["instances/opb/knapsack-opt-25-s1.opb"], "sat");
    best["optimal"] = json!(false);
    best.as_object_mut().unwrap().remove("optimal_by");
    assert_valid("outcome", &best, "(an unproven optimum)");
}

#[test]
fn solve_all() {
    let docs = check(
        &["solve", "instances/tetrasoku-seed.toml", "--all", "--format", "json"],
        ALL,
        ANSWER,
    );
    let end = docs.last().unwrap();
    assert_eq!(end["complete"], true, "{end}");
    assert_eq!(end["solutions"].as_u64().unwrap() as usize, docs.len() - 1);
    // The end's claim, with what backs it.
    assert_eq!(end["evidence"]["claims"][0]["claim"], "complete", "{end}");
    assert_eq!(end["evidence"]["claims"][0]["accepted"], true, "{end}");
    // Under --strict a second engine confirmed it; past the solutions it asks about, the
    // claim is withheld and the summary says so.
    let docs = check(
        &[
            "solve",
            "instances/tetrasoku-seed.toml",
            "--all",
            "--strict",
            "--format",
            "json",
        ],
        ALL,
        ANSWER,
    );
    let end = docs.last().unwrap();
    assert_eq!(end["evidence"]["claims"][0]["backing"], "second-engine", "{end}");
    let dir = tempfile::tempdir().unwrap();
    let free = dir.path().join("free.cnf");
    std::fs::write(&free, "p cnf 12 0\n").unwrap();
    // 4,096 solutions: only the summary is validated (the lines are those above).
    let o = Command::new(env!("CARGO_BIN_EXE_sokuc"))
        .args(["solve", free.to_str().unwrap(), "--all", "--strict", "--format", "json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(o.stdout).unwrap();
    let end: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_valid("enumerationSummary", &end, "solve free.cnf --all --strict");
    let end = &end;
    assert_eq!(
        (end["complete"].as_bool(), end["stopped"].as_str()),
        (Some(false), Some("withheld")),
        "{end}"
    );
    assert_eq!(end["evidence"]["claims"][0]["withheld"], "strict", "{end}");
    let docs = check(
        &[
            "solve",
            "instances/trickytriple/feup-lekinasa-5x5-01.tt",
            "--all",
            "--limit",
            "2",
            "--format",
            "json",
        ],
        ALL,
        ANSWER,
    );
    assert!(docs.len() >= 2);
    check(
        &[
            "solve",
            "instances/kakuro/gecode-k0-easy.kakuro",
            "--all",
            "--format",
            "json",
            "--backend",
            "cp",
        ],
        ALL,
        ANSWER,
    );
    for file in [
        "instances/octahedron-pool.toml",
        "instances/cnf/planted-3sat-40-160-s1.cnf",
    ] {
        check(
            &["solve", file, "--all", "--limit", "3", "--format", "json"],
            ALL,
            ANSWER,
        );
    }
    check(
        &[
            "solve",
            "instances/opb/knapsack-30-s1.opb",
            "--limit",
            "2",
            "--format",
            "json",
        ],
        ALL,
        ANSWER,
    );
    // No solution: the summary alone.
    let docs = check(
        &["solve", "tests/golden/inputs/unsat.kakuro", "--all", "--format", "json"],
        ALL,
        ANSWER,
    );
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0]["status"], "unsat");
    assert_eq!(docs[0]["evidence"]["claims"][0]["claim"], "unsat", "{}", docs[0]);
    // Stopped by the time limit.
    let docs = check(
        &[
            "solve",
            "instances/opb/php-9-8.opb",
            "--all",
            "--timeout",
            "0.001",
            "--presolve",
            "off",
            "--lp",
            "off",
            "--format",
            "json",
        ],
        ALL,
        ANSWER,
    );
    assert_eq!(docs.last().unwrap()["stopped"], "time limit");
}

#[test]
fn compare_every_kind() {
    for file in [
        "instances/tetrasoku-seed.toml",
        "instances/tetrasoku-unsat.toml",
        "instances/octahedron-pool.toml",
        "instances/kakuro/gecode-k0-easy.kakuro",
        "tests/golden/inputs/unsat.kakuro",
        "instances/trickytriple/feup-lekinasa-4x4-01.tt",
        "instances/opb/knapsack-opt-25-s1.opb",
        "instances/opb/subsetsum-24-unsat-s1.opb",
        "instances/cnf/php-5-4.cnf",
        "instances/cnf/planted-3sat-40-160-s1.cnf",
    ] {
        let doc = check(&["compare", file, "--format", "json"], Shape::One("compare"), ANSWER).remove(0);
        assert_eq!(doc["agree"], true, "{doc}");
    }
    check(
        &[
            "compare",
            "instances/tetrasoku-seed.toml",
            "--backends",
            "sat,cp,search,auto",
            "--jobs",
            "2",
            "--format",
            "json",
        ],
        Shape::One("compare"),
        ANSWER,
    );
    // An error row: the CNF encoding is over its clause budget; search answers.
    let doc = check(
        &[
            "compare",
            "instances/icosoku-seed.toml",
            "--backends",
            "sat,search",
            "--max-clauses",
            "10",
            "--format",
            "json",
        ],
        Shape::One("compare"),
        ANSWER,
    )
    .remove(0);
    assert_eq!(doc["results"][0]["status"], "error", "{doc}");
    assert_eq!(doc["fastest"], "search", "{doc}");
    // Unknown rows: nobody decides in the time.
    let doc = check(
        &[
            "compare",
            "instances/opb/php-9-8.opb",
            "--backends",
            "sat,cp",
            "--timeout",
            "0.001",
            "--presolve",
            "off",
            "--lp",
            "off",
            "--format",
            "json",
        ],
        Shape::One("compare"),
        ANSWER,
    )
    .remove(0);
    assert!(doc["fastest"].is_null(), "{doc}");
}

#[cfg(feature = "mip")]
#[test]
fn mip_backend() {
    solve(&["instances/tetrasoku-seed.toml", "--backend", "mip"], "sat");
    solve(&["instances/opb/knapsack-opt-25-s1.opb", "--backend", "mip"], "sat");
    solve(
        &["tests/golden/inputs/unsat.kakuro", "--backend", "mip", "--lp", "off"],
        "unsat",
    );
    check(
        &[
            "compare",
            "instances/opb/knapsack-opt-25-s1.opb",
            "--backends",
            "sat,mip,search",
            "--format",
            "json",
        ],
        Shape::One("compare"),
        ANSWER,
    );
}

#[cfg(feature = "cadical")]
#[test]
fn cadical_backend() {
    solve(&["instances/tetrasoku-seed.toml", "--backend", "cadical"], "sat");
    solve(&["instances/cnf/php-5-4.cnf", "--backend", "cadical"], "unsat");
    solve(
        &[
            "instances/kakuro/gecode-k0-easy.kakuro",
            "--backend",
            "cadical",
            "--unique",
        ],
        "sat",
    );
    check(
        &[
            "solve",
            "instances/tetrasoku-seed.toml",
            "--all",
            "--backend",
            "cadical",
            "--format",
            "json",
        ],
        ALL,
        ANSWER,
    );
    check(
        &[
            "compare",
            "instances/cnf/php-5-4.cnf",
            "--backends",
            "sat,cadical",
            "--format",
            "json",
        ],
        Shape::One("compare"),
        ANSWER,
    );
}

#[test]
fn decode() {
    for (file, answer) in [
        (
            "instances/tetrasoku-seed.toml",
            "tests/golden/inputs/tetrasoku-seed.cnf.out",
        ),
        (
            "instances/kakuro/gecode-k0-easy.kakuro",
            "tests/golden/inputs/gecode-k0-easy.cnf.out",
        ),
        (
            "instances/trickytriple/feup-lekinasa-4x4-01.tt",
            "tests/golden/inputs/feup-lekinasa-4x4-01.cnf.out",
        ),
        (
            "instances/octahedron-pool.toml",
            "tests/golden/inputs/octahedron-pool.cbc.sol",
        ),
    ] {
        let doc = check(
            &["decode", file, "--solution", answer, "--format", "json"],
            OUTCOME,
            ANSWER,
        )
        .remove(0);
        assert_eq!(doc["backend"], "external", "{doc}");
    }
    // An external solver's unsat and unknown.
    let dir = tempfile::tempdir().unwrap();
    for (text, status) in [("s UNSATISFIABLE\n", "unsat"), ("s UNKNOWN\n", "unknown")] {
        let f = dir.path().join(format!("{status}.out"));
        std::fs::write(&f, text).unwrap();
        let doc = check(
            &[
                "decode",
                "instances/tetrasoku-seed.toml",
                "--solution",
                f.to_str().unwrap(),
                "--format",
                "json",
            ],
            OUTCOME,
            ANSWER,
        )
        .remove(0);
        assert_eq!(doc["status"], status, "{doc}");
    }
}

#[test]
fn count() {
    for file in [
        "instances/tetrasoku-seed.toml",
        "instances/octahedron-pool.toml",
        "instances/kakuro/gecode-k0-easy.kakuro",
        "instances/trickytriple/feup-lekinasa-4x4-01.tt",
    ] {
        let doc = check(&["count", file, "--format", "json"], Shape::One("count"), &[0]).remove(0);
        assert_eq!(doc["evidence"]["claims"][0]["claim"], "complete", "{doc}");
    }
    // A count without its claim's evidence, or with another claim, is not a count.
    let mut doc = check(
        &["count", "instances/tetrasoku-seed.toml", "--format", "json"],
        Shape::One("count"),
        &[0],
    )
    .remove(0);
    doc["evidence"]["claims"][0]["claim"] = json!("unsat");
    assert!(!errors(Some("count"), &doc).is_empty(), "{doc}");
    doc.as_object_mut().unwrap().remove("evidence");
    assert!(!errors(Some("count"), &doc).is_empty(), "{doc}");
    // Free pegs on the octahedron: every arrangement up to symmetry, and a sample.
    let dir = tempfile::tempdir().unwrap();
    let free = dir.path().join("free.toml");
    std::fs::write(
        &free,
        "variant = \"octahedron\"\ncapacities = { permutation_of = [1, 2, 3, 3, 4, 6] }\npool = [\n\
         { tile = [0, 0, 1] }, { tile = [0, 1, 2] }, { tile = [0, 2, 1] }, { tile = [1, 1, 1] },\n\
         { tile = [0, 0, 2] }, { tile = [1, 2, 2] }, { tile = [0, 1, 1] }, { tile = [0, 0, 0] },\n]\n",
    )
    .unwrap();
    let free = free.to_str().unwrap();
    let doc = check(
        &["count", free, "--by-capacities", "--format", "json"],
        Shape::One("countByCapacities"),
        &[0],
    )
    .remove(0);
    assert!(doc["arrangements"].as_array().is_some_and(|a| a.len() > 1), "{doc}");
    // Every count is a claim that every solution was counted, with who counted it.
    let claims = doc["summary"]["evidence"]["claims"].as_array().unwrap();
    assert!(!claims.is_empty(), "{doc}");
    assert!(
        claims.iter().all(|c| c["claim"] == "complete" && c["accepted"] == true),
        "{doc}"
    );
    check(
        &["count", free, "--by-capacities", "--sample", "3", "--format", "json"],
        Shape::One("countByCapacities"),
        &[0],
    );
    check(
        &[
            "count",
            "instances/tetrasoku-seed.toml",
            "--by-capacities",
            "--format",
            "json",
        ],
        Shape::One("error"),
        &[2],
    );
    // Stopped under way: with how far the 3SoKu counter got.
    check(
        &[
            "count",
            "instances/icosoku-seed.toml",
            "--timeout",
            "1",
            "--format",
            "json",
        ],
        Shape::One("countUnknown"),
        &[30],
    );
    check(
        &[
            "count",
            "instances/icosoku-free-pegs.toml",
            "--timeout",
            "0.001",
            "--format",
            "json",
        ],
        Shape::One("countUnknown"),
        &[30],
    );
}

#[test]
fn check_and_the_assistant() {
    // A solution: valid, then one weight changed: invalid.
    let dir = tempfile::tempdir().unwrap();
    let sol = dir.path().join("sol.json");
    let solved = solve(&["instances/tetrasoku-seed.toml"], "sat");
    std::fs::write(&sol, solved.to_string()).unwrap();
    let sol = sol.to_str().unwrap();
    let doc = check(
        &["check", "instances/tetrasoku-seed.toml", sol, "--format", "json"],
        Shape::One("checked"),
        &[0],
    )
    .remove(0);
    assert_eq!(doc["valid"], true, "{doc}");
    let mut bad = solved.clone();
    let c = bad["placements"][0]["corners"][0].as_u64().unwrap();
    bad["placements"][0]["corners"][0] = json!(c + 1);
    let bad_file = dir.path().join("bad.json");
    std::fs::write(&bad_file, bad.to_string()).unwrap();
    let doc = check(
        &[
            "check",
            "instances/tetrasoku-seed.toml",
            bad_file.to_str().unwrap(),
            "--format",
            "json",
        ],
        Shape::One("checked"),
        &[3],
    )
    .remove(0);
    assert_eq!(doc["check"], "invalid", "{doc}");
    // Tiles that cannot all stay: the fewest to take off, with their lines.
    let doc = check(
        &[
            "check",
            "instances/icosoku-seed.toml",
            "instances/icosoku-placed.txt",
            "--partial",
            "--format",
            "json",
        ],
        Shape::One("assisted"),
        &[20],
    )
    .remove(0);
    assert_eq!(doc["assist"], "take-off", "{doc}");
    assert_eq!(doc["fewest"], true, "{doc}");
    // "The fewest" is an optimum claim, and its record is at the top beside the verdict.
    let optimum = doc["evidence"]["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["claim"] == "optimum");
    assert_eq!(optimum.map(|c| &c["accepted"]), Some(&json!(true)), "{doc}");
    assert_eq!(doc["evidence"], doc["outcome"]["evidence"], "{doc}");
    assert!(!doc["removed"].as_array().unwrap().is_empty(), "{doc}");
    assert_eq!(doc["outcome"]["verified"], true, "{doc}");
    // Tiles that can stay: two of a solution's own.
    let placed = dir.path().join("placed.txt");
    let lines: Vec<String> = solved["placements"].as_array().unwrap()[..2]
        .iter()
        .map(|p| {
            let face: String = p["face"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_str().unwrap())
                .collect();
            format!("{face}: tile #{}, rotation {}", p["tile"], p["rotation"])
        })
        .collect();
    std::fs::write(&placed, lines.join("\n") + "\n").unwrap();
    let doc = check(
        &[
            "check",
            "instances/tetrasoku-seed.toml",
            placed.to_str().unwrap(),
            "--partial",
            "--format",
            "json",
        ],
        Shape::One("assisted"),
        &[0],
    )
    .remove(0);
    assert_eq!(doc["assist"], "completable", "{doc}");
    assert_eq!(doc["removed"], json!([]), "{doc}");
    assert_eq!(doc["placed"], 2, "{doc}");
}

#[test]
fn sweep() {
    check(
        &["sweep", "--count-only", "--format", "json"],
        Shape::One("sweepCount"),
        &[0],
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.txt");
    let doc = check(
        &[
            "sweep",
            "octahedron",
            "--tiles",
            "0,1,2;0,1,2;0,1,2;0,1,2;0,1,2;0,1,2;0,1,2;0,0,0",
            "--caps",
            "1,2,3,4,5,6",
            "--threads",
            "1",
            "--progress",
            "off",
            "--format",
            "json",
            "-o",
            out.to_str().unwrap(),
        ],
        Shape::One("sweepSummary"),
        &[0],
    )
    .remove(0);
    assert!(doc["not_sat"].as_array().is_some_and(|v| !v.is_empty()), "{doc}");
    // Each unsat record names who refuted it and what backs it.
    let unsat = doc["not_sat"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r[2] == "unsat")
        .unwrap_or_else(|| panic!("an unsat record: {doc}"));
    assert_eq!(unsat[3]["claims"][0]["claim"], "unsat", "{doc}");
    assert!(unsat[3]["claims"][0]["by"].is_string(), "{doc}");
    check(
        &[
            "sweep-merge",
            out.to_str().unwrap(),
            "--format",
            "json",
            "-o",
            dir.path().join("m.txt").to_str().unwrap(),
        ],
        Shape::One("sweepSummary"),
        &[0],
    );
}

#[test]
fn bench() {
    check(
        &[
            "bench",
            "instances/batches/icosoku100.txt",
            "--limit",
            "3",
            "--backend",
            "sat,search",
            "--format",
            "json",
        ],
        Shape::One("benchBatch"),
        &[0],
    );
    check(
        &[
            "bench",
            "instances/cnf/php-5-4.cnf",
            "instances/opb/knapsack-opt-25-s1.opb",
            "instances/opb/php-9-8.opb",
            "--backend",
            "sat,search",
            "--timeout",
            "0.05",
            "--format",
            "json",
        ],
        Shape::Lines {
            each: "benchFileRow",
            last: "benchFilesSummary",
        },
        &[0, 30],
    );
}

#[test]
fn scaling() {
    check(
        &[
            "scaling",
            "--max-faces",
            "8",
            "--reps",
            "1",
            "--families",
            "random",
            "--format",
            "json",
        ],
        Shape::One("scaling"),
        &[0],
    );
}

/// `generate --format json`: a made Tricky Triple (its uniqueness claim and evidence), one
/// stopped by its time limit (no file, no claim), and 3SoKu instances with and without a claim.
#[test]
fn generate() {
    const G: Shape = Shape::One("generated");
    let made = check(
        &["generate", "trickytriple", "--size", "6", "--format", "json"],
        G,
        &[0],
    )
    .remove(0);
    assert_eq!(
        (made["status"].as_str(), made["claim"].as_str()),
        (Some("made"), Some("unique"))
    );
    let late = &[
        "generate",
        "trickytriple",
        "--size",
        "40",
        "--timeout",
        "0",
        "--format",
        "json",
    ];
    let late = check(late, G, &[30]).remove(0);
    assert!(late["text"].is_null() && late["claim"].is_null(), "{late}");
    let planted = check(
        &["generate", "3soku", "--variant", "octahedron", "--format", "json"],
        G,
        &[0],
    )
    .remove(0);
    assert_eq!(planted["evidence"]["claims"][0]["backing"], "checked-model");
    let unproven = check(
        &["generate", "3soku", "--from-partition", "3,1,2", "--format", "json"],
        G,
        &[0],
    );
    assert!(unproven[0]["claim"].is_null());
    // A stopped generation with a file, or a made Tricky Triple without its claim, is refused.
    refuted("generated", &late, "text while unproven", |d| {
        d["text"] = json!("X . .")
    });
    refuted("generated", &made, "made without the claim", |d| {
        d["claim"] = Value::Null
    });
    refuted("generated", &made, "no evidence", |d| {
        d.as_object_mut().unwrap().remove("evidence");
    });
}

#[test]
fn certify() {
    // Any program stands for the checker where none runs: a sat answer needs none (the
    // certificate is the verified solution), and an unsat one whose checker says nothing is
    // a rejected proof (exit 1).
    let true_ = Path::new("/bin/true");
    if true_.is_file() {
        let t = true_.to_str().unwrap();
        check(
            &[
                "certify",
                "instances/tetrasoku-seed.toml",
                "--checker",
                t,
                "--format",
                "json",
            ],
            Shape::One("certify"),
            &[0],
        );
        let doc = check(
            &[
                "certify",
                "tests/golden/inputs/unsat.kakuro",
                "--checker",
                t,
                "--format",
                "json",
            ],
            Shape::One("certify"),
            &[1],
        )
        .remove(0);
        assert_eq!(doc["verdict"], "proof-rejected", "{doc}");
    }
    // drat-trim, when it is there (scripts/build-drat-trim.sh), accepts the proofs.
    let checker = std::env::var_os("SOKUC_DRAT_TRIM")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/tools/drat-trim"));
    if checker.is_file() {
        for file in ["tests/golden/inputs/unsat.kakuro", "instances/tetrasoku-unsat.toml"] {
            let doc = check(
                &[
                    "certify",
                    file,
                    "--checker",
                    checker.to_str().unwrap(),
                    "--format",
                    "json",
                ],
                Shape::One("certify"),
                &[20],
            )
            .remove(0);
            assert_eq!(doc["verdict"], "unsat", "{doc}");
        }
    }
    // Without a checker at all: the error object.
    check(
        &[
            "certify",
            "instances/tetrasoku-seed.toml",
            "--checker",
            "/nonexistent/drat-trim",
            "--format",
            "json",
        ],
        Shape::One("error"),
        &[2],
    );
}

#[test]
fn adts() {
    check(
        &["adts", "--pegs", "1,2,3,4,5,6,7,8,9,10,11,12", "--format", "json"],
        OUTCOME,
        ANSWER,
    );
}

#[test]
fn errors_are_one_json_object() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.kakuro");
    std::fs::write(&bad, "kakuro 2 2\n. x\n").unwrap();
    let bad = bad.to_str().unwrap();
    for (args, code) in [
        (vec!["solve", "no/such/file.toml", "--format", "json"], 2),
        (vec!["solve", bad, "--format", "json"], 2),
        (
            vec![
                "solve",
                "instances/tetrasoku-seed.toml",
                "--backend",
                "nonsense",
                "--format",
                "json",
            ],
            2,
        ),
        (vec!["solve", bad, "--all", "--format", "json"], 2),
        (vec!["decode", bad, "--solution", bad, "--format", "json"], 2),
        (vec!["compare", bad, "--format", "json"], 2),
        (vec!["count", bad, "--format", "json"], 2),
        (vec!["certify", bad, "--format", "json"], 2),
        (vec!["bench", bad, "--format", "json"], 2),
        (vec!["sweep", "--caps", "1,x", "--count-only", "--format", "json"], 2),
        (
            vec![
                "solve",
                "--format=json",
                "--timeout",
                "-1",
                "instances/tetrasoku-seed.toml",
            ],
            2,
        ),
    ] {
        let doc = check(&args, Shape::One("error"), &[code]).remove(0);
        assert_eq!(doc["exit_code"], code, "{doc}");
    }
}

/// A mutated copy of `doc` (`edit` applied) that must not be a valid `def`.
fn refuted(def: &str, doc: &Value, what: &str, edit: impl FnOnce(&mut Value)) {
    let mut d = doc.clone();
    edit(&mut d);
    assert!(!errors(Some(def), &d).is_empty(), "{what}: still a valid {def}: {d}");
}

#[test]
fn mutated_outputs_are_refused() {
    let sat = solve(&["instances/tetrasoku-seed.toml"], "sat");
    refuted("outcome", &sat, "status maybe", |d| d["status"] = json!("maybe"));
    refuted("outcome", &sat, "no status", |d| {
        d.as_object_mut().unwrap().remove("status");
    });
    refuted("outcome", &sat, "no verified", |d| {
        d.as_object_mut().unwrap().remove("verified");
    });
    refuted("outcome", &sat, "no placements", |d| {
        d.as_object_mut().unwrap().remove("placements");
    });
    refuted("outcome", &sat, "an unknown member", |d| d["colour"] = json!("red"));
    refuted("outcome", &sat, "a grid on a 3soku", |d| d["grid"] = json!([[1]]));
    refuted("outcome", &sat, "an unknown kind", |d| d["puzzle"] = json!("sudoku"));
    refuted("outcome", &sat, "rotation 3", |d| {
        d["placements"][0]["rotation"] = json!(3)
    });
    refuted("outcome", &sat, "two corners", |d| {
        d["placements"][0]["corners"] = json!([1, 2])
    });
    refuted("outcome", &sat, "no stats", |d| {
        d.as_object_mut().unwrap().remove("stats");
    });
    refuted("outcome", &sat, "stats without solve_ms", |d| {
        d["stats"].as_object_mut().unwrap().remove("solve_ms");
    });
    refuted("outcome", &sat, "verified null with a solution", |d| {
        d["verified"] = json!(null)
    });
    refuted("outcome", &sat, "optimal_by without optimal", |d| {
        d["optimal_by"] = json!(["sat"])
    });
    refuted("outcome", &sat, "verdict_by of nobody known", |d| {
        d["verdict_by"] = json!("luck")
    });
    assert!(!errors(None, &json!({"status": "maybe"})).is_empty());

    let unsat = solve(&["instances/cnf/php-5-4.cnf"], "unsat");
    refuted("outcome", &unsat, "verified true without a solution", |d| {
        d["verified"] = json!(true)
    });
    refuted("outcome", &unsat, "a model of zeros", |d| d["model"] = json!([0, 0]));
    refuted("outcome", &unsat, "a numeric objective", |d| d["objective"] = json!(3));

    let lines = check(
        &[
            "solve",
            "instances/tetrasoku-seed.toml",
            "--all",
            "--limit",
            "1",
            "--format",
            "json",
        ],
        ALL,
        ANSWER,
    );
    refuted("enumerationLine", &lines[0], "a line with stats", |d| {
        d["stats"] = sat["stats"].clone()
    });
    refuted("enumerationLine", &lines[0], "a line without its number", |d| {
        d.as_object_mut().unwrap().remove("solution");
    });
    refuted("enumerationSummary", &lines[1], "stopped by luck", |d| {
        d["stopped"] = json!("luck")
    });

    let cmp = check(
        &["compare", "instances/tetrasoku-seed.toml", "--format", "json"],
        Shape::One("compare"),
        ANSWER,
    )
    .remove(0);
    refuted("compare", &cmp, "no agree", |d| {
        d.as_object_mut().unwrap().remove("agree");
    });
    refuted("compare", &cmp, "a row without decided_by", |d| {
        d["results"][0].as_object_mut().unwrap().remove("decided_by");
    });
    refuted("compare", &cmp, "a model in furlongs", |d| {
        d["results"][0]["model_size"]["unit"] = json!("furlongs")
    });

    let err = json!({"status": "error", "message": "x", "exit_code": 2});
    assert!(errors(Some("error"), &err).is_empty());
    refuted("error", &err, "no exit code", |d| {
        d.as_object_mut().unwrap().remove("exit_code");
    });
    refuted("error", &err, "an empty message", |d| d["message"] = json!(""));
}

/// `count --by-capacities --format json` on a pool whose pegs are given is refused before its
/// object is begun: standard output is the one error object.
#[test]
fn count_by_capacities_refused_is_one_error_object() {
    check(
        &[
            "count",
            "instances/octahedron-pool.toml",
            "--by-capacities",
            "--format",
            "json",
        ],
        Shape::One("error"),
        &[2],
    );
}
