//! `sokuc compare` as a user reads it: backends run one after another unless `--jobs` asks
//! otherwise, a row decided before any backend ran says by what and why, the fastest decided
//! row is marked, and every row's model size names its unit.

mod common;

use serde_json::Value;

fn compare(args: &[&str]) -> (Option<i32>, String, String) {
    let out = common::sokuc()
        .current_dir(common::root())
        .arg("compare")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn backends_run_one_at_a_time_by_default() {
    let (code, out, err) = compare(&[
        "instances/tetrasoku-seed.toml",
        "--backend",
        "sat,search",
        "--format",
        "json",
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["jobs"], 1, "{out}");
    let (_, out, _) = compare(&[
        "instances/tetrasoku-seed.toml",
        "--backend",
        "sat,search",
        "--jobs",
        "2",
        "--format",
        "json",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["jobs"], 2, "{out}");
}

#[test]
fn a_row_decided_by_presolve_says_so() {
    let (code, out, err) = compare(&["instances/icosoku-unsat.toml", "--backend", "sat,search"]);
    assert_eq!(code, Some(20), "{out}{err}");
    let header = out.lines().next().unwrap();
    for column in ["backend", "answer", "decided by", "total ms", "model", "verified"] {
        assert!(header.contains(column), "{header}");
    }
    for line in out.lines().skip(1).take(2) {
        assert!(line.contains(" unsat ") && line.contains(" presolve "), "{out}");
    }
    assert!(
        out.contains("# decided before any backend ran, by presolve: the tiles carry"),
        "{out}"
    );
    // Without presolve, the LP relaxation decides it; without either, the backends do.
    let (_, out, _) = compare(&[
        "instances/icosoku-unsat.toml",
        "--backend",
        "search",
        "--presolve",
        "off",
    ]);
    assert!(out.contains(" lp ") && out.contains("by LP relaxation:"), "{out}");
    let (_, out, _) = compare(&[
        "instances/tetrasoku-unsat.toml",
        "--backend",
        "sat,search",
        "--presolve",
        "off",
        "--lp",
        "off",
        "--format",
        "json",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let rows = v["results"].as_array().unwrap();
    assert_eq!(rows[0]["decided_by"], "sat", "{out}");
    assert_eq!(rows[0]["model_size"]["unit"], "clauses", "{out}");
    assert_eq!(rows[1]["decided_by"], "search", "{out}");
    assert_eq!(rows[1]["model_size"]["unit"], "rows", "{out}");
    assert!(["sat", "search"].contains(&v["fastest"].as_str().unwrap()), "{out}");
}

#[test]
fn an_optimisation_shows_its_objective() {
    let (code, out, err) = compare(&["instances/opb/knapsack-opt-25-s1.opb", "--backend", "search,cp"]);
    // An OPB file exits as PB solvers do: 30 for a proven optimum.
    assert_eq!(code, Some(30), "{out}{err}");
    assert!(out.lines().next().unwrap().contains("objective"), "{out}");
    assert_eq!(out.matches("-804 optimal").count(), 2, "{out}");
    let marked = out
        .lines()
        .filter(|l| l.starts_with("search *") || l.starts_with("cp *"));
    assert_eq!(marked.count(), 1, "one row is the fastest: {out}");
    assert!(out.contains("# * fastest: "), "{out}");
}
