//! The command line: seed examples, JSON contract, exit codes, bad input, emit/decode.

mod common;

use std::fs;
use std::path::Path;
use std::process::Output;

use common::{root, sokuc};

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
    expect_bad(&["solve", &f], &["fixed.toml:5", "out of range"]);
    let f = write(
        dp,
        "fixed-face.toml",
        "variant = \"icosahedron\"\ntiles = \"icosoku\"\ncapacities = [1, 5, 11, 10, 7, 12, 9, 2, 6, 8, 4, 3]\n\n[[fixed]]\nface = \"ABD\"\ntile = 2\n",
    );
    expect_bad(&["solve", &f], &["fixed-face.toml:5", "ABD is not a face"]);
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
