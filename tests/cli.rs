//! The command line: seed examples, JSON contract, exit codes, bad input, emit/decode.

mod common;

use std::fs;
use std::path::Path;
use std::process::Output;

use common::{root, sokuc};

const SEED: &str = "instances/tetrasoku-seed.toml";

fn run(args: &[&str]) -> Output {
    sokuc().args(args).current_dir(root()).output().expect("run sokuc")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(o)))
}

/// Checks a `solve --format json` answer by recomputing the vertex sums from the JSON alone.
fn assert_json_solution(v: &serde_json::Value) {
    assert_eq!(v["status"], "sat");
    assert_eq!(v["puzzle"], "3soku");
    assert_eq!(v["verified"], true);
    let vertices: Vec<&str> = v["vertices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    let caps: Vec<u64> = v["capacities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    let mut sums = vec![0u64; vertices.len()];
    let mut tiles = std::collections::HashSet::new();
    for p in v["placements"].as_array().unwrap() {
        let w: Vec<u64> = p["weights"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        let r = p["rotation"].as_u64().unwrap() as usize;
        let corners: Vec<u64> = p["corners"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        for i in 0..3 {
            assert_eq!(
                corners[i],
                w[(i + 3 - r) % 3],
                "corners[i] = weights[(i - rotation) mod 3]"
            );
        }
        for (i, name) in p["face"].as_array().unwrap().iter().enumerate() {
            let k = vertices.iter().position(|x| x == &name.as_str().unwrap()).unwrap();
            sums[k] += corners[i];
        }
        assert!(tiles.insert(p["tile"].as_u64().unwrap()), "tile used twice");
    }
    assert_eq!(sums, caps);
}

#[test]
fn seed_icosahedron_example_by_file_and_by_pegs() {
    let a = run(&["solve", "instances/icosoku-seed.toml", "--format", "json"]);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    let v = json(&a);
    assert_json_solution(&v);
    assert_eq!(v["placements"].as_array().unwrap().len(), 20);
    assert_eq!(
        v["capacities"],
        serde_json::json!([1, 5, 11, 10, 7, 12, 9, 2, 6, 8, 4, 3])
    );
    let b = run(&["solve", "--pegs", "1,5,11,10,7,12,9,2,6,8,4,3", "--format", "json"]);
    assert_eq!(b.status.code(), Some(0));
    assert_json_solution(&json(&b));
}

#[test]
fn seed_tetrasoku_and_octahedron_examples() {
    for f in [
        "instances/tetrasoku-seed.toml",
        "instances/octasoku.toml",
        "instances/icosoku-fixed.toml",
    ] {
        let o = run(&["solve", f, "--format", "json"]);
        assert_eq!(o.status.code(), Some(0), "{f}: {}", stderr(&o));
        assert_json_solution(&json(&o));
    }
    let t = run(&["solve", "instances/tetrasoku-seed.toml"]);
    let text = stdout(&t);
    assert_eq!(text.lines().filter(|l| l.starts_with("Put tile")).count(), 4, "{text}");
    assert!(text.contains("verified"));
}

#[test]
fn fixed_placements_are_honoured() {
    let v = json(&run(&["solve", "instances/icosoku-fixed.toml", "--format", "json"]));
    let ps = v["placements"].as_array().unwrap();
    let abc = ps
        .iter()
        .find(|p| p["face"] == serde_json::json!(["A", "B", "C"]))
        .unwrap();
    assert_eq!(abc["corners"], serde_json::json!([3, 3, 3]));
    let gkl = ps
        .iter()
        .find(|p| p["face"] == serde_json::json!(["G", "K", "L"]))
        .unwrap();
    // tile 6 is (0,1,2); rotation 1 puts (2,0,1) on G,K,L.
    assert_eq!(gkl["corners"], serde_json::json!([2, 0, 1]));
}

#[test]
fn unsat_examples_exit_20_with_a_reason() {
    for f in ["instances/icosoku-unsat.toml", "instances/tetrasoku-unsat.toml"] {
        let o = run(&["solve", f, "--format", "json"]);
        assert_eq!(o.status.code(), Some(20), "{f}");
        let v = json(&o);
        assert_eq!(v["status"], "unsat");
        assert!(v["reason"].as_str().unwrap().starts_with("presolve:"));
        // Cross-check with the solver alone (presolve off) on every encoding.
        for enc in ["domain", "swc", "totalizer"] {
            let o = run(&["solve", f, "--presolve", "off", "--pb-encoding", enc]);
            assert_eq!(o.status.code(), Some(20), "{f} {enc}");
        }
    }
}

#[test]
fn a_time_limit_of_zero_answers_unknown_exit_30() {
    let o = run(&[
        "solve",
        "--pegs",
        "1,5,11,10,7,12,9,2,6,8,4,3",
        "--timeout",
        "0",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(30), "{}", stdout(&o));
    assert_eq!(json(&o)["status"], "unknown");
}

#[test]
fn check_accepts_a_solution_and_rejects_a_tampered_one() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(&["solve", "instances/icosoku-seed.toml", "--format", "json"]);
    let good = dir.path().join("good.json");
    fs::write(&good, &o.stdout).unwrap();
    let c = run(&["check", "instances/icosoku-seed.toml", good.to_str().unwrap()]);
    assert_eq!(c.status.code(), Some(0), "{}", stdout(&c));
    let mut v = json(&o);
    // Turn one tile: the corners no longer match the vertex sums.
    let p = &mut v["placements"][0];
    let r = p["rotation"].as_u64().unwrap();
    p["rotation"] = serde_json::json!((r + 1) % 3);
    let w: Vec<u64> = p["weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    let r = (r + 1) % 3;
    p["corners"] = serde_json::json!((0..3).map(|i| w[(i + 3 - r as usize) % 3]).collect::<Vec<_>>());
    let bad = dir.path().join("bad.json");
    fs::write(&bad, v.to_string()).unwrap();
    let c = run(&["check", "instances/icosoku-seed.toml", bad.to_str().unwrap()]);
    // (0,1,2)-type tiles are not uniform, so turning changes a vertex sum.
    assert_eq!(c.status.code(), Some(3), "{}", stdout(&c));
    assert!(stdout(&c).contains("invalid"));
}

#[test]
fn emit_dimacs_is_deterministic_and_names_variables() {
    let a = run(&["solve", "instances/icosoku-seed.toml", "--emit", "dimacs"]);
    let b = run(&["solve", "instances/icosoku-seed.toml", "--emit", "dimacs"]);
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(a.stdout, b.stdout);
    let text = stdout(&a);
    assert!(
        text.lines().any(|l| l.starts_with("c var 1 p_ABC_")),
        "primary variables are named"
    );
    assert!(text.lines().any(|l| l.starts_with("c aux ") && l.ends_with("vertex A")));
    let header = text.lines().find(|l| l.starts_with("p cnf")).unwrap();
    let clauses: usize = header.split_whitespace().nth(3).unwrap().parse().unwrap();
    let clause_lines = text
        .lines()
        .filter(|l| !l.starts_with('c') && (l.ends_with(" 0") || *l == "0"))
        .count();
    assert_eq!(clause_lines, clauses);
    // The projection set of model counters: the primary variables, 1..=580 here.
    let show = text
        .lines()
        .find(|l| l.starts_with("c p show "))
        .expect("a c p show line");
    let vars: Vec<u32> = show["c p show ".len()..]
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    let primary = text.lines().filter(|l| l.starts_with("c var ")).count() as u32;
    assert_eq!(vars, (1..=primary).chain([0]).collect::<Vec<u32>>());
}

#[test]
fn decode_of_a_model_answer_prints_what_solve_prints() {
    // Build an answer file from sokuc's own JSON solution: set exactly the placement
    // variables named in the DIMACS comments, then let varisat-free decode + verify run.
    let dir = tempfile::tempdir().unwrap();
    let cnf = stdout(&run(&[
        "solve",
        "instances/tetrasoku-seed.toml",
        "--emit",
        "dimacs",
        "--presolve",
        "off",
    ]));
    let solved = stdout(&run(&["solve", "instances/tetrasoku-seed.toml", "--presolve", "off"]));
    // An empty answer and a truncated one are bad input.
    let empty = dir.path().join("empty.out");
    fs::write(&empty, "").unwrap();
    let o = run(&[
        "decode",
        "instances/tetrasoku-seed.toml",
        "--solution",
        empty.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("empty"), "{}", stderr(&o));
    let trunc = dir.path().join("trunc.out");
    fs::write(&trunc, "s SATISFIABLE\nv 1 -2 3\n").unwrap();
    let o = run(&[
        "decode",
        "instances/tetrasoku-seed.toml",
        "--solution",
        trunc.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("truncated"), "{}", stderr(&o));
    assert!(cnf.contains("p cnf") && solved.contains("sat on tetrahedron"));
}

/// Emit DIMACS, solve with Debian's cadical, decode, verify: the real external round trip.
#[test]
#[ignore = "needs the cadical binary (apt-get install cadical); scripts/test.sh installs it and runs ignored tests"]
fn dimacs_round_trip_through_cadical() {
    let cadical = common::which("cadical").expect("cadical is not installed: apt-get install cadical");
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &[&str])] = &[
        ("instances/icosoku-seed.toml", &[]),
        ("instances/icosoku-fixed.toml", &["--pb-encoding", "swc"]),
        ("instances/octasoku.toml", &["--pb-encoding", "totalizer"]),
        ("instances/tetrasoku-seed.toml", &["--presolve", "off"]),
        ("instances/tetrasoku-unsat.toml", &["--presolve", "off"]),
        ("instances/icosoku-unsat.toml", &[]),
    ];
    for (k, (inst, opts)) in cases.iter().enumerate() {
        let cnf = dir.path().join(format!("m{k}.cnf"));
        let out = dir.path().join(format!("m{k}.out"));
        let mut args = vec!["solve", inst, "--emit", "dimacs", "-o", cnf.to_str().unwrap()];
        args.extend_from_slice(opts);
        assert_eq!(run(&args).status.code(), Some(0));
        let c = std::process::Command::new(&cadical)
            .arg("-q")
            .arg(&cnf)
            .output()
            .unwrap();
        fs::write(&out, &c.stdout).unwrap();
        let mut dargs = vec!["decode", inst, "--solution", out.to_str().unwrap()];
        dargs.extend_from_slice(opts);
        let d = run(&dargs);
        let mut sargs = vec!["solve", *inst];
        sargs.extend_from_slice(opts);
        let s = run(&sargs);
        assert_eq!(d.status.code(), s.status.code(), "{inst}: {}", stderr(&d));
        if s.status.code() == Some(0) {
            // Solutions may differ between solvers; both must verify.
            assert!(stdout(&d).contains("verified: every vertex sum equals its capacity"));
            let mut jargs = dargs.clone();
            jargs.extend_from_slice(&["--format", "json"]);
            assert_json_solution(&json(&run(&jargs)));
        } else {
            assert_eq!(stdout(&d).lines().next(), stdout(&s).lines().next());
        }
    }
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// Runs `sokuc solve` and expects exit 2 with one stderr line naming `needle`s.
fn expect_bad(args: &[&str], needles: &[&str]) {
    let o = run(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?} printed to stdout");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: {err:?} should contain {n:?}");
    }
    assert!(!err.contains("panicked"));
}

#[test]
fn bad_input_exits_2_with_file_line_and_problem() {
    let d = tempfile::tempdir().unwrap();
    let dp = d.path();
    let f = write(
        dp,
        "malformed.toml",
        "variant = \"icosahedron\"\ntiles = \"icosoku\"\ncapacities = [1, 2,\n",
    );
    expect_bad(&["solve", &f], &["malformed.toml:4", "invalid array"]);
    let f = write(
        dp,
        "unknown-variant.toml",
        "variant = \"dodecahedron\"\ntiles = \"icosoku\"\ncapacities = [1]\n",
    );
    expect_bad(
        &["solve", &f],
        &["unknown-variant.toml:1", "unknown variant \"dodecahedron\""],
    );
    let f = write(
        dp,
        "unknown-tiles.toml",
        "variant = \"icosahedron\"\n\ntiles = \"tetrasoku\"\ncapacities = [1]\n",
    );
    expect_bad(&["solve", &f], &["unknown-tiles.toml:3", "unknown tile set"]);
    let f = write(
        dp,
        "caps.toml",
        "variant = \"icosahedron\"\ntiles = \"icosoku\"\ncapacities = [1, 5, 11]\n",
    );
    expect_bad(&["solve", &f], &["caps.toml:3", "3 capacities", "12 vertices"]);
    let f = write(
        dp,
        "neg.toml",
        "variant = \"tetrahedron\"\ntiles = [[0, 0, 1], [0, -2, 0], [0, 0, 3], [1, 1, 2]]\ncapacities = [1, 2, 3, 4]\n",
    );
    expect_bad(&["solve", &f], &["neg.toml:2", "tile 2", "negative"]);
    let v = write(
        dp,
        "bad-variant.toml",
        "vertices = [\"A\", \"B\", \"C\", \"D\"]\nfaces = [\n  [\"A\", \"B\", \"C\"],\n  [\"A\", \"C\", \"D\"],\n  [\"A\", \"D\", \"X\"],\n  [\"B\", \"D\", \"C\"],\n]\n",
    );
    let f = write(
        dp,
        "uses-bad-variant.toml",
        "variant = \"bad-variant.toml\"\ntiles = [[0, 0, 1], [0, 0, 2], [0, 0, 3], [1, 1, 2]]\ncapacities = [1, 2, 3, 4]\n",
    );
    expect_bad(&["solve", &f], &[&format!("{v}:5"), "unknown vertex \"X\""]);
    let f = write(
        dp,
        "fixed.toml",
        "variant = \"icosahedron\"\ntiles = \"icosoku\"\ncapacities = [1, 5, 11, 10, 7, 12, 9, 2, 6, 8, 4, 3]\n\n[[fixed]]\nface = \"ABC\"\ntile = 21\n",
    );
    // The line of the bad key, `tile = 21`, not the table's first line.
    expect_bad(&["solve", &f], &["fixed.toml:7", "out of range"]);
    let f = write(
        dp,
        "fixed-face.toml",
        "variant = \"icosahedron\"\ntiles = \"icosoku\"\ncapacities = [1, 5, 11, 10, 7, 12, 9, 2, 6, 8, 4, 3]\n\n[[fixed]]\nface = \"ABD\"\ntile = 2\n",
    );
    expect_bad(&["solve", &f], &["fixed-face.toml:6", "ABD is not a face"]);
    expect_bad(
        &["solve", "--pegs", "1,5,11,10,7,12,9,2,6,8,4"],
        &["--pegs", "expected 12 pegs", "got 11"],
    );
    expect_bad(
        &["solve", "--pegs", "1,5,11,10,7,12,9,2,6,8,4,x"],
        &["--pegs", "peg 12"],
    );
    expect_bad(
        &["solve", &format!("{}/missing.toml", dp.display())],
        &["missing.toml", "cannot read"],
    );
    expect_bad(
        &["solve", "--pegs", "1,5,11,10,7,12,9,2,6,8,4,3", "--backend", "nope"],
        &["unknown backend"],
    );
    // An answer for the wrong model: too few variables.
    let ans = write(dp, "short.out", "s SATISFIABLE\nv 1 -2 0\n");
    let o = run(&["decode", "instances/icosoku-seed.toml", "--solution", &ans]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("short.out"));
}

#[test]
fn a_failed_emit_leaves_no_partial_file() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("model.cnf");
    let o = run(&[
        "solve",
        "--pegs",
        "1,5,11,10,7,12,9,2,6,8,4",
        "--emit",
        "dimacs",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists());
    let o = run(&[
        "solve",
        "--pegs",
        "1,5,11,10,7,12,9,2,6,8,4,3",
        "--emit",
        "dimacs",
        "-o",
        "/nonexistent-dir/x.cnf",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(fs::read_dir(d.path()).unwrap().count(), 0);
}

#[test]
fn a_closed_stdout_is_not_a_panic() {
    // `sokuc solve ... | head -c 100` closes the pipe early; sokuc must stop quietly.
    for args in [
        vec!["solve", "instances/icosoku-seed.toml", "--format", "json"],
        vec!["solve", "instances/icosoku-seed.toml"],
    ] {
        let mut child = sokuc()
            .args(&args)
            .current_dir(root())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_ne!(o.status.code(), Some(101), "{args:?}");
    }
}

// ---- Made for people: exit codes, reusable answers, stdin, JSON errors, hints. ----

fn code(o: &Output) -> Option<i32> {
    o.status.code()
}

#[test]
fn cnf_and_opb_exit_as_the_competitions_do_and_puzzles_as_before() {
    // (file, extra args, competition code, plain code)
    let cases: [(&str, &[&str], i32, i32); 7] = [
        ("instances/cnf/planted-3sat-40-160-s1.cnf", &[], 10, 0),
        ("instances/cnf/php-5-4.cnf", &[], 20, 20),
        ("instances/opb/knapsack-30-s1.opb", &[], 10, 0),
        // A proven optimum: the PB solvers' 30.
        ("instances/opb/knapsack-opt-25-s1.opb", &[], 30, 0),
        ("instances/opb/subsetsum-24-unsat-s1.opb", &[], 20, 20),
        // No answer in time: 0 in the competitions' table, 30 in the plain one.
        ("instances/cnf/php-5-4.cnf", &["--timeout", "0"], 0, 30),
        ("instances/opb/knapsack-opt-25-s1.opb", &["--timeout", "0"], 0, 30),
    ];
    for (file, extra, competition, plain) in cases {
        let mut args = vec!["solve", file];
        args.extend(extra);
        let o = run(&args);
        assert_eq!(code(&o), Some(competition), "{args:?} (default): {}", stderr(&o));
        let mut explicit = args.clone();
        explicit.extend(["--exit-codes", "competition"]);
        assert_eq!(code(&run(&explicit)), Some(competition), "{explicit:?}");
        args.extend(["--exit-codes", "plain"]);
        assert_eq!(code(&run(&args)), Some(plain), "{args:?}");
    }
    // Puzzles keep the plain table unless asked.
    assert_eq!(code(&run(&["solve", SEED])), Some(0));
    assert_eq!(code(&run(&["solve", "instances/tetrasoku-unsat.toml"])), Some(20));
    assert_eq!(code(&run(&["solve", SEED, "--timeout", "0"])), Some(30));
    assert_eq!(code(&run(&["solve", SEED, "--exit-codes", "competition"])), Some(10));
    assert_eq!(
        code(&run(&["solve", SEED, "--timeout", "0", "--exit-codes", "competition"])),
        Some(0)
    );
    // --all, decode and compare follow the same table.
    assert_eq!(code(&run(&["solve", "instances/cnf/php-5-4.cnf", "--all"])), Some(20));
    assert_eq!(
        code(&run(&[
            "solve",
            "instances/cnf/planted-3sat-40-160-s1.cnf",
            "--all",
            "--limit",
            "1"
        ])),
        Some(10)
    );
    assert_eq!(
        code(&run(&[
            "compare",
            "instances/cnf/php-5-4.cnf",
            "--backend",
            "sat,search"
        ])),
        Some(20)
    );
    assert_eq!(
        code(&run(&[
            "compare",
            "instances/cnf/planted-3sat-40-160-s1.cnf",
            "--backend",
            "sat"
        ])),
        Some(10)
    );
    // The help says which is the default.
    let help = stdout(&run(&["solve", "--help"]));
    assert!(
        help.contains("--exit-codes") && help.contains("competition on CNF and OPB"),
        "{help}"
    );
}

/// Pigeonhole as a CNF file: `n` pigeons, `n - 1` holes (too many rows for `--lp auto`, and
/// hard for CDCL), so `auto` hands it to an engine that runs into the time limit.
fn pigeonhole_cnf(n: usize) -> String {
    let h = n - 1;
    let x = |p: usize, k: usize| p * h + k + 1;
    let mut clauses: Vec<String> = (0..n)
        .map(|p| (0..h).map(|k| format!("{} ", x(p, k))).collect::<String>() + "0")
        .collect();
    for k in 0..h {
        for a in 0..n {
            for b in a + 1..n {
                clauses.push(format!("-{} -{} 0", x(a, k), x(b, k)));
            }
        }
    }
    format!("p cnf {} {}\n{}\n", n * h, clauses.len(), clauses.join("\n"))
}

#[test]
fn an_unknown_answer_names_no_engine_that_answered() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("php-11.cnf");
    fs::write(&f, pigeonhole_cnf(11)).unwrap();
    let o = run(&["solve", f.to_str().unwrap(), "--timeout", "0.3"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("s UNKNOWN"), "{}", stdout(&o));
    assert!(!stdout(&o).contains("answered by"), "{}", stdout(&o));
    // A decided answer still says which engine auto picked.
    assert!(stdout(&run(&["solve", SEED])).contains("answered by the"));
}

#[test]
fn dash_writes_to_standard_output_where_a_file_is_written() {
    let o = run(&["solve", SEED, "--emit", "dimacs", "-o", "-"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("\np cnf "), "{}", stdout(&o));
    assert!(!Path::new(&root()).join("-").exists());
    let o = run(&["render", SEED, "-o", "-"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("<?xml"), "{}", stdout(&o));
    let o = run(&["generate", "3soku", "--variant", "tetrahedron", "-o", "-"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("capacities"), "{}", stdout(&o));
    // Where standard output makes no sense, a clear refusal.
    for (args, needle) in [
        (vec!["solve", SEED, "--proof", "-"], "--proof -"),
        (vec!["solve", SEED, "--svg", "-"], "--svg -"),
        (
            vec!["sweep", "tetrahedron", "--tiles", "0,0,1;0,0,2;0,0,3;1,1,2", "-o", "-"],
            "--output -",
        ),
    ] {
        let o = run(&args);
        assert_eq!(code(&o), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains(needle) && stderr(&o).contains("file"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    assert!(!Path::new(&root()).join("-").exists());
}

#[test]
fn limit_alone_implies_all() {
    let o = run(&["solve", SEED, "--limit", "1"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches("----------").count(), 1, "{}", stdout(&o));
    assert!(stderr(&o).contains("stopped at --limit 1"), "{}", stderr(&o));
}

#[test]
fn counts_and_violations_read_as_english() {
    // A Tricky Triple with exactly one solution.
    let o = run(&["count", "instances/trickytriple/feup-lekinasa-4x4-01.tt"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("1 distinct solution by"), "{}", stdout(&o));
    // An answer that violates the model says so once.
    let d = tempfile::tempdir().unwrap();
    let cnf = stdout(&run(&["solve", SEED, "--emit", "dimacs"]));
    let n: usize = cnf
        .lines()
        .find_map(|l| l.strip_prefix("p cnf "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap()
        .parse()
        .unwrap();
    let all_false: Vec<String> = (1..=n).map(|v| format!("-{v}")).collect();
    let ans = d.path().join("false.out");
    fs::write(&ans, format!("s SATISFIABLE\nv {} 0\n", all_false.join(" "))).unwrap();
    let o = run(&["decode", SEED, "--solution", ans.to_str().unwrap()]);
    assert_eq!(code(&o), Some(2));
    let err = stderr(&o);
    assert!(err.contains("is violated") && !err.contains("it violates"), "{err}");
}

#[test]
fn no_file_and_a_pipe_read_the_puzzle_from_standard_input() {
    let o = sokuc()
        .args(["solve", "--format", "json"])
        .current_dir(root())
        .stdin(fs::File::open(root().join(SEED)).unwrap())
        .output()
        .unwrap();
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["status"], "sat");
    // Nothing piped: the message says what to give.
    let o = run(&["solve"]);
    assert_eq!(code(&o), Some(2));
    assert!(
        stderr(&o).contains("--pegs") && stderr(&o).contains("`-`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn errors_under_format_json_are_json_too() {
    for args in [
        vec!["solve", "nosuch.toml", "--format", "json"],
        vec!["solve", SEED, "--format", "json", "--bogus"],
        vec!["compare", SEED, "--format=json", "--backend", "nope"],
    ] {
        let o = run(&args);
        assert_eq!(code(&o), Some(2), "{args:?}");
        let v = json(&o);
        assert_eq!(v["status"], "error", "{args:?}");
        assert_eq!(v["exit_code"], 2, "{args:?}");
        assert!(!v["message"].as_str().unwrap().is_empty());
        assert_eq!(stderr(&o).trim_end().lines().count(), 1, "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).starts_with("sokuc: error: "));
    }
    // Text keeps stdout empty.
    assert!(run(&["solve", "nosuch.toml"]).stdout.is_empty());
}

#[test]
fn icosoku_pegs_that_are_not_one_to_twelve_get_a_note_when_unsat() {
    let o = run(&["solve", "--pegs", "1,1,1,1,1,1,1,1,1,1,1,1"]);
    assert_eq!(code(&o), Some(20));
    assert!(stderr(&o).contains("permutation of 1..12"), "{}", stderr(&o));
    let o = run(&["solve", "--pegs", "1,5,11,10,7,12,9,2,6,8,4,3"]);
    assert_eq!(code(&o), Some(0));
    assert!(!stderr(&o).contains("permutation"), "{}", stderr(&o));
}

#[test]
fn a_face_listed_the_other_way_round_is_named() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("fixed-acb.toml");
    fs::write(
        &f,
        "variant = \"tetrahedron\"\ntiles = [[0, 0, 1], [0, 0, 2], [0, 0, 3], [1, 1, 2]]\ncapacities = [1, 2, 3, 4]\n\n[[fixed]]\nface = \"ACB\"\ntile = 1\n",
    )
    .unwrap();
    let o = run(&["solve", f.to_str().unwrap()]);
    assert_eq!(code(&o), Some(2));
    assert!(
        stderr(&o).contains("ACB is not a face") && stderr(&o).contains("ABC is"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn every_answer_says_how_its_verdict_was_established() {
    // (args, status, verdict_by, the evidence's backing, its text line)
    let cases: [(&[&str], &str, &str, &str, &str); 4] = [
        (
            &["solve", "instances/tetrasoku-unsat.toml"],
            "unsat",
            "presolve",
            "presolve",
            "evidence: unsat by presolve: its derivation is the reason above",
        ),
        (
            &["solve", "tests/golden/inputs/unsat.kakuro", "--backend", "sat"],
            "unsat",
            "lp",
            "certificate",
            "evidence: unsat by lp: a farkas certificate, checked in exact arithmetic",
        ),
        (
            &["solve", "instances/cnf/php-5-4.cnf", "--backend", "sat"],
            "unsat",
            "backend:sat",
            "engine-word",
            "evidence: unsat by sat: the engine's word",
        ),
        (
            &["solve", SEED, "--backend", "cp"],
            "sat",
            "backend:cp",
            "checked-model",
            "",
        ),
    ];
    for (args, status, by, backing, line) in cases {
        let mut a = args.to_vec();
        a.extend(["--format", "json"]);
        let v = json(&run(&a));
        assert_eq!(v["status"], status, "{a:?}");
        assert_eq!(v["verdict_by"], by, "{a:?}");
        let claims = v["evidence"]["claims"].as_array().unwrap();
        assert_eq!(claims.len(), 1, "{a:?}: {claims:?}");
        assert_eq!(claims[0]["claim"], status, "{a:?}");
        assert_eq!(claims[0]["backing"], backing, "{a:?}");
        assert_eq!(claims[0]["accepted"], true, "{a:?}");
        // `verified` is about a solution: true with one, null without.
        let verified = if status == "sat" {
            serde_json::json!(true)
        } else {
            serde_json::Value::Null
        };
        assert_eq!(v["verified"], verified, "{a:?}");
        if status == "unsat" {
            let text = stdout(&run(args));
            assert!(text.contains(line), "{args:?}: {text}");
        }
    }
    let v = json(&run(&["solve", SEED, "--timeout", "0", "--format", "json"]));
    assert_eq!(v["verdict_by"], serde_json::Value::Null);
    assert_eq!(v["evidence"]["claims"], serde_json::json!([]));
}

#[test]
fn what_solve_printed_can_be_checked_for_every_kind() {
    let d = tempfile::tempdir().unwrap();
    let files = [
        "instances/tetrasoku-seed.toml",
        "instances/icosoku-fixed.toml",
        "instances/octahedron-pool.toml",
        "instances/icosoku-free-pegs.toml",
        "instances/kakuro/gecode-k0-easy.kakuro",
        "instances/trickytriple/feup-lekinasa-4x4-01.tt",
        "instances/opb/knapsack-opt-25-s1.opb",
        "instances/cnf/planted-3sat-40-160-s1.cnf",
    ];
    let forms: [&[&str]; 5] = [
        &[],
        &["--format", "json"],
        &["--unique"],
        &["--all", "--limit", "2"],
        &["--all", "--limit", "2", "--format", "json"],
    ];
    for file in files {
        for (k, form) in forms.iter().enumerate() {
            let mut args = vec!["solve", file];
            args.extend(*form);
            let o = run(&args);
            assert!(!o.stdout.is_empty(), "{args:?}: {}", stderr(&o));
            let saved = d.path().join(format!("answer-{k}.txt"));
            fs::write(&saved, &o.stdout).unwrap();
            let c = run(&["check", file, saved.to_str().unwrap()]);
            assert_eq!(code(&c), Some(0), "check after {args:?}: {}{}", stdout(&c), stderr(&c));
            assert!(stdout(&c).starts_with("valid: "), "{args:?}: {}", stdout(&c));
        }
    }
    // render takes the text too, and check still catches a wrong one.
    let text = stdout(&run(&["solve", SEED]));
    let saved = d.path().join("seed.txt");
    fs::write(&saved, &text).unwrap();
    let o = run(&["render", SEED, "--solution", saved.to_str().unwrap(), "-o", "-"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let line = text.lines().find(|l| l.contains("rotation 0]")).unwrap();
    let wrong = text.replace(line, &line.replace("rotation 0]", "rotation 1]"));
    fs::write(&saved, wrong).unwrap();
    let o = run(&["check", SEED, saved.to_str().unwrap()]);
    assert_eq!(code(&o), Some(3), "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn completions_man_page_and_version() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = run(&["completions", shell]);
        assert_eq!(code(&o), Some(0), "{shell}: {}", stderr(&o));
        assert!(stdout(&o).contains("solve"), "{shell}");
    }
    let help = stdout(&run(&["--help"]));
    let subcommands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(subcommands.len() >= 14, "{subcommands:?}");
    let o = run(&["man"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let man = stdout(&o);
    assert!(man.contains(".TH"), "{man}");
    for sub in subcommands {
        assert!(
            man.contains(&format!(".SH \"SOKUC {}\"", sub.to_uppercase())),
            "the man page has no section for {sub}"
        );
    }
    // One page: its subcommand list points at the sections, not at pages that do not
    // exist, and it says what the exit codes mean.
    assert!(!man.contains("sokuc\\-solve(1)") && !man.contains("(1)\n"), "{man}");
    assert!(
        man.contains(".SH \"EXIT STATUS\"") && man.contains("\n.B 130\n"),
        "{man}"
    );
    // The top-level help names IcoSoKu and starts a newcomer with a command that works.
    assert!(
        help.contains("IcoSoKu") && help.contains("sokuc solve --pegs 1,5,11,10,7,12,9,2,6,8,4,3"),
        "{help}"
    );
    let first = run(&["solve", "--pegs", "1,5,11,10,7,12,9,2,6,8,4,3"]);
    assert_eq!(code(&first), Some(0), "{}", stderr(&first));
    let v = stdout(&run(&["--version"]));
    assert!(v.starts_with("sokuc ") && v.contains("backends: auto, sat"), "{v}");
    for b in ["cp", "search"] {
        assert!(v.contains(b), "{v}");
    }
}

/// Standard input has no file name: compressed input is known by its first bytes, and a
/// CNF without its `p cnf` line by its clauses, so the message is the CNF reader's.
#[test]
fn standard_input_is_recognised_by_its_contents() {
    use std::io::Write as _;
    let feed = |args: &[&str], bytes: &[u8]| {
        let mut child = sokuc()
            .args(args)
            .current_dir(root())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(bytes).unwrap();
        child.wait_with_output().unwrap()
    };
    let toml = fs::read(root().join(SEED)).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&toml).unwrap();
    let o = feed(&["solve", "-"], &gz.finish().unwrap());
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("sat on tetrahedron"), "{}", stdout(&o));
    let o = feed(&["solve", "-"], b"c no header\n1 -2 0\n2 0\n");
    assert_eq!(code(&o), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("<stdin>:2: a clause before the 'p cnf' header"),
        "{}",
        stderr(&o)
    );
}
