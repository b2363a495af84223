//! `solve --all --jobs N` on instances with hundreds to thousands of solutions (enough for the
//! search tree to split into many cubes): the same set as one thread, each solution once;
//! `--limit` exact across workers; the text form; refusals. (`tests/enumerate.rs` runs
//! `--jobs 2` and `3` on every small instance of every kind it counts by brute force.)

mod common;

use std::collections::{BTreeSet, HashSet};
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{root, sokuc};
use serde_json::Value;

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Out {
    let o = sokuc()
        .args(args)
        .args(["--timeout", "120"])
        .current_dir(root())
        .output()
        .unwrap();
    Out {
        code: o.status.code().unwrap(),
        stdout: String::from_utf8(o.stdout).unwrap(),
        stderr: String::from_utf8(o.stderr).unwrap(),
    }
}

/// The JSON lines of `solve --all --format json`: the solutions' placements (as text) and
/// numbers, and the summary.
fn json(file: &str, extra: &[&str]) -> (Vec<String>, Vec<u64>, Value, i32) {
    let mut args = vec!["solve", file, "--all", "--format", "json", "--backend", "search"];
    args.extend_from_slice(extra);
    let o = run(&args);
    let mut lines: Vec<Value> = o
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}")))
        .collect();
    let summary = lines.pop().unwrap_or_else(|| panic!("no output: {}", o.stderr));
    let mut keys = Vec::new();
    let mut numbers = Vec::new();
    for v in &lines {
        assert_eq!(v["verified"], true, "{v}");
        keys.push(v["placements"].to_string());
        numbers.push(v["solution"].as_u64().unwrap());
    }
    (keys, numbers, summary, o.code)
}

/// The solutions of a text run (each block before `----------`), and whether it ended with
/// `==========`.
fn text_blocks(out: &str) -> (Vec<String>, bool) {
    let complete = out.ends_with("==========\n");
    let body = out.strip_suffix("==========\n").unwrap_or(out);
    // After the last solution, the end's evidence on comment lines (before the end line).
    let blocks = body
        .split("----------\n")
        .filter(|b| !b.is_empty() && !b.lines().all(|l| l.starts_with("# evidence:")))
        .map(str::to_string)
        .collect();
    (blocks, complete)
}

#[test]
fn every_solution_once_on_two_and_three_threads() {
    for (file, want) in [
        ("instances/octasoku.toml", 524usize),
        ("instances/octahedron-pool.toml", 5781),
    ] {
        let (one, _, _, _) = json(file, &[]);
        let one_set: HashSet<&String> = one.iter().collect();
        assert_eq!(one_set.len(), want, "{file}: one thread");
        for jobs in ["2", "3"] {
            let (keys, mut numbers, summary, code) = json(file, &["--jobs", jobs]);
            let set: HashSet<&String> = keys.iter().collect();
            assert_eq!(set.len(), keys.len(), "{file} --jobs {jobs}: a solution twice");
            assert_eq!(set, one_set, "{file} --jobs {jobs}");
            assert_eq!(summary["solutions"], want as u64);
            assert_eq!(summary["complete"], true);
            assert_eq!(summary["stats"]["extra"]["jobs"], jobs.parse::<u64>().unwrap());
            assert!(summary["stats"]["extra"]["cubes"].as_u64().unwrap() > 1, "{summary}");
            assert_eq!(code, 0);
            numbers.sort_unstable();
            assert!(numbers.iter().copied().eq(1..=want as u64));
        }
        // Text: the same blocks as one thread, sorted, and the end line.
        let one_text = run(&["solve", file, "--all", "--backend", "search"]);
        let two_text = run(&["solve", file, "--all", "--backend", "search", "--jobs", "2"]);
        let (mut a, a_complete) = text_blocks(&one_text.stdout);
        let (mut b, b_complete) = text_blocks(&two_text.stdout);
        assert!(a_complete && b_complete);
        a.sort();
        b.sort();
        assert_eq!(a.len(), want);
        assert_eq!(a, b, "{file}: text on two threads");
        assert!(
            two_text.stderr.contains(&format!("{want} solutions (all of them)")),
            "{}",
            two_text.stderr
        );
    }
}

#[test]
fn limit_is_exact_across_threads() {
    for (jobs, k) in [("2", 1u64), ("2", 777), ("3", 5000), ("2", 20_000)] {
        let (keys, mut numbers, summary, code) = json(
            "instances/icosoku-seed.toml",
            &["--jobs", jobs, "--limit", &k.to_string()],
        );
        assert_eq!(keys.len() as u64, k, "--jobs {jobs} --limit {k}");
        assert_eq!(keys.iter().collect::<BTreeSet<_>>().len() as u64, k, "a solution twice");
        numbers.sort_unstable();
        assert!(numbers.iter().copied().eq(1..=k));
        assert_eq!(summary["solutions"], k);
        assert_eq!(summary["complete"], false);
        assert_eq!(summary["stopped"], "limit");
        assert_eq!(code, 0);
    }
    // A limit above the count: all of them, complete.
    let (keys, _, summary, _) = json("instances/octasoku.toml", &["--jobs", "2", "--limit", "100000"]);
    assert_eq!(keys.len(), 524);
    assert_eq!(summary["complete"], true);
    // Text: exactly k blocks, no end line, and standard error says it stopped.
    let o = run(&[
        "solve",
        "instances/icosoku-seed.toml",
        "--all",
        "--backend",
        "search",
        "--jobs",
        "2",
        "--limit",
        "300",
    ]);
    let (blocks, complete) = text_blocks(&o.stdout);
    assert_eq!(blocks.len(), 300);
    assert_eq!(blocks.iter().collect::<HashSet<_>>().len(), 300);
    assert!(!complete);
    assert!(
        o.stderr.contains("300 solutions (stopped at --limit 300"),
        "{}",
        o.stderr
    );
}

#[test]
fn unsat_and_single_solutions_on_threads() {
    let (keys, _, summary, code) = json(
        "instances/tetrasoku-unsat.toml",
        &["--jobs", "2", "--presolve", "off", "--lp", "off"],
    );
    assert!(keys.is_empty());
    assert_eq!(summary["status"], "unsat");
    assert_eq!(summary["complete"], true);
    assert_eq!(code, 20);
    let o = run(&[
        "solve",
        "instances/kakuro/gecode-k4-medium.kakuro",
        "--all",
        "--backend",
        "search",
        "--jobs",
        "3",
    ]);
    let (blocks, complete) = text_blocks(&o.stdout);
    assert_eq!((blocks.len(), complete, o.code), (1, true, 0));
}

#[test]
fn jobs_are_refused_where_they_cannot_work() {
    for (args, says) in [
        (
            &["--all", "--backend", "sat", "--jobs", "2"][..],
            "--jobs: the sat backend does not support parallel enumeration",
        ),
        (&["--all", "--backend", "search", "--jobs", "0"][..], "from 1 to 64"),
        (&["--all", "--backend", "search", "--jobs", "65"][..], "from 1 to 64"),
        (
            &["--all", "--backend", "search", "--jobs", "99999999999999999999999"][..],
            "whole number",
        ),
        (&["--backend", "search", "--jobs", "2"][..], "--jobs goes with --all"),
    ] {
        let mut a = vec!["solve", "instances/tetrasoku-seed.toml"];
        a.extend_from_slice(args);
        let o = run(&a);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert!(o.stderr.contains(says), "{args:?}: {}", o.stderr);
        assert!(o.stdout.is_empty(), "{args:?}: {}", o.stdout);
        if !says.contains("from 1") && !says.contains("whole") {
            assert_eq!(o.stderr.lines().count(), 1, "{}", o.stderr);
        }
    }
}

#[test]
fn timeout_bounds_the_threads() {
    let t = Instant::now();
    let o = sokuc()
        .args([
            "solve",
            "instances/icosoku-seed.toml",
            "--all",
            "--backend",
            "search",
            "--format",
            "json",
            "--jobs",
            "2",
            "--timeout",
            "1",
        ])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(t.elapsed().as_secs_f64() < 20.0, "{:?}", t.elapsed());
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let summary: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    assert_eq!(summary["stopped"], "time limit", "{summary}");
    assert_eq!(summary["complete"], false);
    assert_eq!(summary["solutions"], (lines.len() - 1) as u64);
    assert!(lines.len() > 1);
    assert_eq!(o.status.code(), Some(0));
}

/// The models (or placements) of `solve FILE --all --format json` with `args`, as a set
/// (asserting each came once), and the summary.
fn set_of(file: &str, args: &[&str]) -> (HashSet<String>, Value) {
    // The plain exit codes on every kind (CNF and OPB default to the competitions' 10).
    let mut a = vec!["solve", file, "--all", "--format", "json", "--exit-codes", "plain"];
    a.extend_from_slice(args);
    let o = run(&a);
    assert_eq!(o.code, 0, "{file} {args:?}: {}", o.stderr);
    let mut lines: Vec<Value> = o.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summary = lines.pop().unwrap();
    let mut set = HashSet::new();
    for v in &lines {
        assert_eq!(v["verified"], true, "{v}");
        let key = if v["model"].is_null() {
            v["placements"].to_string()
        } else {
            v["model"].to_string()
        };
        assert!(set.insert(key), "{file} {args:?}: a solution twice");
    }
    (set, summary)
}

#[test]
fn auto_splits_where_it_enumerates_on_search_and_else_stays_on_one_thread() {
    // Groups and rows: the probe answers, so search's walk is split over the jobs.
    let (want, _) = set_of("instances/octahedron-pool.toml", &["--backend", "search"]);
    let (got, summary) = set_of("instances/octahedron-pool.toml", &["--jobs", "2"]);
    assert_eq!(got, want);
    assert_eq!(summary["backend"], "search", "{summary}");
    assert_eq!(summary["stats"]["extra"]["jobs"], 2, "{summary}");
    assert!(
        summary["stats"]["extra"]["auto"].as_str().unwrap().contains("split"),
        "{summary}"
    );
    // A clause-heavy CNF: auto's CDCL engine enumerates with blocking clauses, one thread.
    let file = "instances/cnf/planted-3sat-40-160-s1.cnf";
    let (want, _) = set_of(file, &["--backend", "search"]);
    assert!(want.len() > 1000, "{}", want.len());
    let (got, summary) = set_of(file, &["--jobs", "2"]);
    assert_eq!(got, want);
    assert_eq!(summary["complete"], true, "{summary}");
    assert_ne!(summary["backend"], "search", "{summary}");
    assert!(summary["stats"]["extra"]["jobs"].is_null(), "{summary}");
    assert!(
        summary["stats"]["extra"]["auto"].as_str().unwrap().contains("blocking"),
        "{summary}"
    );
}

/// `n` pigeons in `n - 1` holes, with an escape: `x1` false forces every pigeon out (the one
/// solution, on the walk's first branch), `x1` true asks for the pigeonhole placement, which
/// the search refutes only after seconds (n = 10: about 8 s on two threads).
fn pigeons_with_an_escape(n: usize) -> String {
    let h = n - 1;
    let p = |i: usize, j: usize| format!("x{}", 2 + i * h + j);
    let mut rows = Vec::new();
    for i in 0..n {
        let terms: Vec<String> = (0..h).map(|j| format!("+1 {}", p(i, j))).collect();
        rows.push(format!("{} -1 x1 >= 0 ;", terms.join(" ")));
    }
    for j in 0..h {
        let terms: Vec<String> = (0..n).map(|i| format!("-1 {}", p(i, j))).collect();
        rows.push(format!("{} >= -1 ;", terms.join(" ")));
    }
    for i in 0..n {
        for j in 0..h {
            rows.push(format!("+1 x1 -1 {} >= 0 ;", p(i, j)));
        }
    }
    format!(
        "* #variable= {} #constraint= {}\n{}\n",
        1 + n * h,
        rows.len(),
        rows.join("\n")
    )
}

/// A worker's chunk is written once its oldest solution is 50 ms old even when no other
/// solution follows (it used to wait for the next solution, here the end of the run).
#[test]
fn a_lone_solution_is_written_long_before_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("escape.opb");
    std::fs::write(&file, pigeons_with_an_escape(10)).unwrap();
    let t = Instant::now();
    let mut child = sokuc()
        .arg("solve")
        .arg(&file)
        .args([
            "--all",
            "--backend",
            "search",
            "--jobs",
            "2",
            "--format",
            "json",
            "--timeout",
            "4",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let seen = t.elapsed();
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    let status = child.wait().unwrap();
    let ended = t.elapsed();
    let first: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(
        (first["verified"].clone(), first["solution"].clone()),
        (true.into(), 1.into()),
        "{first}"
    );
    assert_eq!(rest.len(), 1, "{rest:?}");
    let summary: Value = serde_json::from_str(&rest[0]).unwrap();
    assert_eq!(summary["solutions"], 1, "{summary}");
    // A CNF file: the SAT competition's 10.
    assert_eq!(status.code(), Some(10));
    assert!(
        ended.saturating_sub(seen) >= Duration::from_secs(1),
        "the solution came at {seen:?}, the end at {ended:?}"
    );
}

/// On threads too the end is a claim: under --strict the workers' solutions, blocked
/// together, are put to an engine of another kind, which must refute any other.
#[test]
fn strict_asks_about_every_workers_solutions() {
    let (keys, _, summary, code) = json("instances/octasoku.toml", &["--jobs", "2", "--strict"]);
    assert_eq!((keys.len(), code), (524, 0));
    assert_eq!(summary["complete"], true, "{summary}");
    let claim = &summary["evidence"]["claims"][0];
    assert_eq!(claim["claim"], "complete", "{summary}");
    assert_eq!(claim["backing"], "second-engine", "{summary}");
    assert!(claim["confirmed_by"].is_string(), "{summary}");
}
