//! Every user mistake, on every subcommand, ends the same way: exit 2 and one line on stderr,
//! `sokuc: error: ...`, naming what is wrong; never a panic, an abort, exit 1 or the words
//! "internal error". The table covers the argument parser (clap), values checked after
//! parsing, options a backend cannot honour, output paths that cannot be written, and
//! input files that are wrong.

mod common;

use std::fs;

use common::{root, sokuc};

/// Runs sokuc in the repository root; returns (exit code, stderr).
fn run(args: &[&str]) -> (Option<i32>, String) {
    let o = sokuc().args(args).current_dir(root()).output().unwrap();
    (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned())
}

fn expect_usage_error(args: &[&str], needles: &[&str]) {
    let (code, err) = run(args);
    assert_eq!(code, Some(2), "{args:?}: {err}");
    assert!(err.starts_with("sokuc: error: "), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: not one line: {err}");
    assert!(!err.contains("internal error"), "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: {err:?} lacks {n:?}");
    }
}

const SEED: &str = "instances/tetrasoku-seed.toml";

#[test]
fn time_limits_are_checked_with_their_range_on_every_subcommand() {
    let commands: [&[&str]; 7] = [
        &["solve", SEED],
        &["compare", SEED],
        &["bench", "instances/batches/icosoku100.txt"],
        &["sweep", "tetrahedron", "--tiles", "0,0,1;0,0,2;0,0,3;1,1,2"],
        &["certify", SEED],
        &["adts"],
        &["scaling"],
    ];
    for cmd in commands {
        for bad in ["-1", "1e10", "abc", "nan", "inf", "-0.5"] {
            let mut args = cmd.to_vec();
            args.extend(["--timeout", bad]);
            expect_usage_error(&args, &["--timeout", bad]);
        }
        // The message says what is allowed.
        let mut args = cmd.to_vec();
        args.extend(["--timeout", "-1"]);
        expect_usage_error(&args, &["from 0 to 1e9"]);
    }
}

#[test]
fn parser_errors_are_one_line() {
    expect_usage_error(&["solve", SEED, "--bogus"], &["--bogus", "sokuc solve --help"]);
    expect_usage_error(&["solve", SEED, "--format", "xml"], &["xml"]);
    expect_usage_error(
        &["solve", SEED, "--max-clauses", "-5"],
        &["--max-clauses", "whole number"],
    );
    expect_usage_error(&["sweep", "--threads", "x"], &["--threads", "sokuc sweep --help"]);
    expect_usage_error(&["frobnicate"], &["frobnicate"]);
    expect_usage_error(&["solve", SEED, "--backen", "sat"], &["--backend"]);
    // --all and its limit.
    // --limit alone implies --all; with --unique it is a contradiction.
    expect_usage_error(&["solve", SEED, "--limit", "3", "--unique"], &["--limit", "--unique"]);
    expect_usage_error(&["solve", SEED, "--all", "--limit", "0"], &["--limit", "at least 1"]);
    expect_usage_error(&["solve", SEED, "--all", "--limit", "-2"], &["--limit"]);
    expect_usage_error(&["solve", SEED, "--all", "--unique"], &["--unique", "--all"]);
    expect_usage_error(
        &["solve", SEED, "--all", "--proof", "/tmp/p.drat"],
        &["--proof", "--all"],
    );
    expect_usage_error(&["solve", SEED, "--all", "--emit", "dimacs"], &["--all", "--emit"]);
}

#[test]
fn options_a_backend_cannot_honour_are_refused_with_those_that_can() {
    expect_usage_error(
        &["solve", SEED, "--backend", "cp", "--proof", "/tmp/p.drat"],
        &["--proof", "sat"],
    );
    expect_usage_error(
        &["solve", SEED, "--backend", "search", "--proof", "/tmp/p.drat"],
        &["--proof"],
    );
    expect_usage_error(
        &["solve", SEED, "--backend", "sat", "--seed", "7"],
        &["--seed", "search"],
    );
    expect_usage_error(&["solve", SEED, "--backend", "nope"], &["nope", "sat"]);
    // `--backends` is now `--backend` (a comma list); the old spelling is still accepted, and
    // errors name the option by its new name.
    expect_usage_error(&["compare", SEED, "--backends", ""], &["--backend: ", "no backend"]);
    expect_usage_error(&["compare", SEED, "--backend", ""], &["--backend: ", "no backend"]);
    expect_usage_error(&["compare", SEED, "--backends", " , "], &["--backend: "]);
    expect_usage_error(
        &["bench", "instances/batches/icosoku100.txt", "--backends", ""],
        &["--backend: "],
    );
    expect_usage_error(&["scaling", "--backends", ""], &["--backend: "]);
    expect_usage_error(&["certify", SEED, "--backend", "cp"], &["cp"]);
}

#[cfg(not(feature = "cadical"))]
#[test]
fn cadical_not_in_this_build_says_how_to_build_it() {
    expect_usage_error(
        &["solve", SEED, "--backend", "cadical"],
        &["not compiled", "--features cadical"],
    );
}

#[cfg(not(feature = "mip"))]
#[test]
fn mip_not_in_this_build_says_how_to_build_it() {
    for name in ["mip", "cbc"] {
        expect_usage_error(&["solve", SEED, "--backend", name], &["not compiled", "--features mip"]);
    }
}

#[cfg(not(feature = "highs"))]
#[test]
fn highs_not_in_this_build_says_how_to_build_it() {
    expect_usage_error(
        &["solve", SEED, "--backend", "highs"],
        &["not compiled", "--features highs"],
    );
}

#[test]
fn unwritable_outputs_name_the_file() {
    for args in [
        vec!["solve", SEED, "--proof", "/nonexistent-sokuc/p.drat"],
        vec!["solve", SEED, "--emit", "dimacs", "-o", "/nonexistent-sokuc/m.cnf"],
        vec!["solve", SEED, "--svg", "/nonexistent-sokuc/n.svg"],
        vec!["render", SEED, "-o", "/nonexistent-sokuc/n.svg"],
        vec![
            "sweep",
            "tetrahedron",
            "--tiles",
            "0,0,1;0,0,2;0,0,3;1,1,2",
            "-o",
            "/nonexistent-sokuc/t.txt",
        ],
        vec!["generate", "3soku", "-o", "/nonexistent-sokuc/g.toml"],
    ] {
        expect_usage_error(&args, &["/nonexistent-sokuc/"]);
    }
    // A directory is not a file to write.
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().to_str().unwrap();
    expect_usage_error(&["solve", SEED, "--emit", "opb", "-o", dir], &[dir]);
}

#[test]
fn a_proof_is_written_only_when_a_solver_ran_and_presolve_says_so() {
    let d = tempfile::tempdir().unwrap();
    let proof = d.path().join("p.drat");
    let o = sokuc()
        .args([
            "solve",
            "instances/tetrasoku-unsat.toml",
            "--proof",
            proof.to_str().unwrap(),
        ])
        .current_dir(root())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(20), "{err}");
    assert!(err.contains("no proof written") && err.contains("certify"), "{err}");
    assert!(!proof.exists());
    assert_eq!(fs::read_dir(d.path()).unwrap().count(), 0);
    // With presolve off the solver refutes it and the proof is there.
    let o = sokuc()
        .args(["solve", "instances/tetrasoku-unsat.toml", "--presolve", "off"])
        .args(["--proof", proof.to_str().unwrap()])
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(20), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(fs::metadata(&proof).unwrap().len() > 0);
}

#[test]
fn bad_batches_and_answers() {
    let d = tempfile::tempdir().unwrap();
    let empty = d.path().join("empty.txt");
    fs::write(&empty, "# nothing here\n").unwrap();
    expect_usage_error(&["bench", empty.to_str().unwrap()], &["empty.txt", "no instances"]);
    expect_usage_error(
        &["bench", "instances/batches/icosoku100.txt", "--limit", "0"],
        &["--limit"],
    );
    // A complete answer, but for another model: named as the file's problem, not sokuc's.
    let n = 5000;
    let line: Vec<String> = (1..=n).map(|i| format!("-{i}")).collect();
    let ans = d.path().join("other.out");
    fs::write(&ans, format!("s SATISFIABLE\nv {} 0\n", line.join(" "))).unwrap();
    expect_usage_error(
        &[
            "decode",
            "instances/icosoku-seed.toml",
            "--solution",
            ans.to_str().unwrap(),
        ],
        &["other.out", "not a solution of this model"],
    );
}

#[test]
fn a_byte_order_mark_is_not_content() {
    let d = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(root().join(SEED)).unwrap();
    let f = d.path().join("bom.toml");
    fs::write(&f, format!("\u{feff}{text}")).unwrap();
    let o = sokuc().args(["solve", f.to_str().unwrap()]).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let grid = root().join("instances/trickytriple/feup-lekinasa-4x4-01.tt");
    let g = d.path().join("bom.tt");
    fs::write(&g, format!("\u{feff}{}", fs::read_to_string(grid).unwrap())).unwrap();
    let o = sokuc().args(["solve", g.to_str().unwrap()]).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn a_bench_with_unknown_answers_exits_30_like_solve() {
    let o = sokuc()
        .args([
            "bench",
            "instances/batches/icosoku100.txt",
            "--limit",
            "3",
            "--timeout",
            "0",
            "--quiet",
        ])
        .args(["--backends", "search"])
        .current_dir(root())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("3 unknown"), "{out}");
    assert_eq!(o.status.code(), Some(30), "{out}");
}

#[test]
fn a_bench_seed_reaches_the_backends_that_take_one_and_is_refused_by_the_others() {
    let bench = |backend: &str| {
        sokuc()
            .args([
                "bench",
                "instances/batches/icosoku100.txt",
                "--limit",
                "2",
                "--seed",
                "7",
                "--quiet",
            ])
            .args(["--backend", backend])
            .current_dir(root())
            .output()
            .unwrap()
    };
    let o = bench("cp,search");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(out.matches("2 sat").count(), 2, "{out}");
    let o = bench("sat");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--seed") && err.contains("sat backend"), "{err}");
}

#[test]
fn counts_are_in_the_right_number() {
    let d = tempfile::tempdir().unwrap();
    let batch = d.path().join("one.txt");
    fs::write(&batch, "1,5,11,10,7,12,9,2,6,8,4,3\n").unwrap();
    let o = sokuc()
        .args(["bench", batch.to_str().unwrap(), "--quiet"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("1 instance,"), "{out}");
    assert!(!out.contains("-0.0"), "{out}");
    let g = d.path().join("ragged.tt");
    fs::write(&g, "trickytriple 2 2\n. .\n.\n").unwrap();
    expect_usage_error(&["solve", g.to_str().unwrap()], &["1 cell where"]);
}

#[test]
fn adts_subsets_speak_json_when_asked() {
    // With no time at all every subset is unknown: exit 30, and the output is still JSON.
    let o = sokuc()
        .args(["adts", "--subsets", "--format", "json", "--timeout", "0"])
        .current_dir(root())
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    assert_eq!(o.status.code(), Some(30), "{}", String::from_utf8_lossy(&o.stderr));
    let results = v["results"].as_array().unwrap();
    let passed = v["subsets"].as_u64().unwrap() - v["fail_weight_test"].as_u64().unwrap();
    assert_eq!(results.len() as u64, passed);
    assert!(results.iter().all(|r| r["status"] == "unknown" && r["pegs"].is_null()));
}

#[test]
fn missing_arguments_are_named() {
    expect_usage_error(
        &["render", SEED],
        &["required", "--output <OUTPUT>", "sokuc render --help"],
    );
    expect_usage_error(&["decode", SEED], &["required", "--solution <SOLUTION>"]);
    expect_usage_error(&["check", SEED], &["required", "<SOLUTION>"]);
    expect_usage_error(&["completions"], &["required", "<SHELL>"]);
}

/// A bipyramid's size is the user's number: past the limit on faces (or past any machine
/// number) it is refused in one line before anything is made from it. It overflowed (a
/// panic) at 2^64 - 1, and at 2^32 tried to reserve 103 GB.
#[test]
fn an_oversized_bipyramid_is_refused_with_the_face_limit() {
    let dir = tempfile::tempdir().unwrap();
    for n in ["18446744073709551615", "4294967296", "99999999999999999999999", "50001"] {
        let file = dir.path().join(format!("bipyramid-{}.toml", n.len()));
        fs::write(&file, format!("variant = \"bipyramid-{n}\"\ncapacities = [1, 2]\n")).unwrap();
        let path = file.display().to_string();
        expect_usage_error(
            &["solve", &path],
            &[&format!("bipyramid-{n}"), "faces", "limit of 100000"],
        );
        expect_usage_error(
            &["generate", "3soku", "--variant", &format!("bipyramid-{n}")],
            &[&format!("bipyramid-{n}"), "limit of 100000"],
        );
    }
}

/// The tuning lists the command reads from `SOKUC_CP_OPTS` and `SOKUC_CADICAL_OPTS` reach
/// the engine in the options of each solve it starts, on `solve` and on `sweep` (whose
/// workers each start their own): a list the engine cannot read is the user's mistake, one
/// line naming the variable, after the note that says the experiment is in effect; a list
/// it reads ends as a run without one does (the same exit code: satisfiable).
#[test]
fn a_tuning_list_the_engine_cannot_read_is_named_by_its_variable() {
    let sweep = [
        "sweep",
        "tetrahedron",
        "--tiles",
        "0,0,1;0,0,2;0,0,3;1,1,2",
        "--progress",
        "off",
    ];
    let mut cases: Vec<(&str, &str, &str, Vec<&str>)> = vec![
        ("SOKUC_CP_OPTS", "order=sideways", "cp", vec!["solve", SEED]),
        ("SOKUC_CP_OPTS", "order=sideways", "cp", sweep.to_vec()),
    ];
    if cfg!(feature = "cadical") {
        cases.push(("SOKUC_CADICAL_OPTS", "nosuchoption=1", "cadical", vec!["solve", SEED]));
        cases.push(("SOKUC_CADICAL_OPTS", "seed", "cadical", vec!["solve", SEED]));
    }
    for (var, list, backend, args) in cases {
        let o = sokuc()
            .args(&args)
            .args(["--backend", backend])
            .env(var, list)
            .current_dir(root())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        let what = format!("{var}={list} {args:?}");
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        let lines: Vec<&str> = err.trim_end().lines().collect();
        assert_eq!(lines.len(), 2, "{what}: {err}");
        assert_eq!(
            lines[0],
            format!("sokuc: note: {var}={list} (a tuning experiment) is in effect"),
            "{what}"
        );
        assert!(
            lines[1].starts_with("sokuc: error: ") && lines[1].contains(&format!("{var}: ")),
            "{what}: {err}"
        );
        assert!(!err.contains("internal error"), "{what}: {err}");
    }
    // A list the engine reads: the same verdict, with the note.
    let o = sokuc()
        .args(["solve", SEED, "--backend", "cp"])
        .env("SOKUC_CP_OPTS", "order=first-fail,value=min")
        .current_dir(root())
        .output()
        .unwrap();
    let plain = sokuc()
        .args(["solve", SEED, "--backend", "cp"])
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        plain.status.code(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("SOKUC_CP_OPTS=order=first-fail,value=min"));
}
