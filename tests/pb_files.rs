//! The OPB and DIMACS front-ends (issue 17) against brute force written here.
//!
//! Random small OPB files, biased toward degenerate rows (zero and negative coefficients,
//! `x` and `~x` in one row, repeated literals, product terms, empty sums, right-hand sides
//! outside the reachable range, all three relations) and random CNFs: every backend of this
//! build, with presolve on and off, must agree with brute force on sat/unsat, its model must
//! satisfy the rows as this file evaluates them (not through sokuc's verifier), and the
//! projected count must equal the number of satisfying assignments. Then the parser round
//! trip (OPB -> IR -> `--emit opb` -> parse keeps the solutions), the public set in
//! `instances/opb/`, compressed inputs, and malformed files with file:line and exit 2.

mod common;

use std::io::Write as _;

use common::{root, sokuc};
use proptest::prelude::*;
use serde_json::Value;
use sokuc::backend::{self, SolveOptions, Status};
use sokuc::count::{CountOptions, count};
use sokuc::registry;
use sokuc::run::{AnyPuzzle, LpMode, RunOptions};

/// A row: terms (coefficient, product of (variable from 1, negated)), relation, rhs.
type Row = (Vec<(i64, Vec<(u32, bool)>)>, &'static str, i64);

fn holds(rows: &[Row], x: &[bool]) -> bool {
    rows.iter().all(|(terms, rel, rhs)| {
        let lhs: i64 = terms
            .iter()
            .filter(|(_, lits)| lits.iter().all(|&(v, neg)| x[v as usize - 1] != neg))
            .map(|(c, _)| c)
            .sum();
        match *rel {
            ">=" => lhs >= *rhs,
            "<=" => lhs <= *rhs,
            _ => lhs == *rhs,
        }
    })
}

fn opb_text(n: u32, rows: &[Row]) -> String {
    let mut s = format!("* #variable= {n} #constraint= {}\n", rows.len());
    for (terms, rel, rhs) in rows {
        for (c, lits) in terms {
            s.push_str(&format!("{c:+}"));
            for (v, neg) in lits {
                s.push_str(&format!(" {}x{v}", if *neg { "~" } else { "" }));
            }
            s.push(' ');
        }
        s.push_str(&format!("{rel} {rhs} ;\n"));
    }
    s
}

fn solutions(n: u32, rows: &[Row]) -> u64 {
    (0..1u32 << n)
        .filter(|bits| {
            let x: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
            holds(rows, &x)
        })
        .count() as u64
}

fn model_of(json: &Value, n: u32) -> Vec<bool> {
    let m = json["model"].as_array().expect("a model");
    assert_eq!(m.len(), n as usize, "the model lists every variable");
    m.iter().map(|l| l.as_i64().unwrap() > 0).collect()
}

/// Every backend, presolve on and off: status as brute force says, and a model that holds.
fn check_every_backend(p: &dyn AnyPuzzle, n: u32, sat: bool, rows: &dyn Fn(&[bool]) -> bool, what: &str) {
    for name in backend::available() {
        for presolve in [true, false] {
            let mut b = backend::by_name(name).unwrap();
            let opts = RunOptions {
                solve: SolveOptions::default(),
                compile: sokuc::puzzle::CompileOptions { presolve },
                lp: if presolve { LpMode::Auto } else { LpMode::Off },
                unique: false,
                strict: false,
            };
            let r = p
                .solve(b.as_mut(), &opts, false)
                .unwrap_or_else(|e| panic!("{name}: {e} on\n{what}"));
            let want = if sat { Status::Sat } else { Status::Unsat };
            assert_eq!(r.status, want, "{name} presolve {presolve} on\n{what}");
            if sat {
                assert!(r.verified);
                let x = model_of(&r.json, n);
                assert!(rows(&x), "{name}: its model {x:?} breaks a row of\n{what}");
            }
        }
    }
}

fn lit() -> impl Strategy<Value = (u32, bool)> {
    (1u32..=5, any::<bool>())
}

fn row() -> impl Strategy<Value = Row> {
    let term = (
        prop_oneof![Just(0i64), Just(1), Just(-1), -9i64..=9],
        prop_oneof![4 => proptest::collection::vec(lit(), 1..=1), 1 => proptest::collection::vec(lit(), 2..=3)],
    );
    (
        proptest::collection::vec(term, 0..=5),
        prop_oneof![2 => Just(">="), 2 => Just("<="), 1 => Just("=")],
        prop_oneof![4 => -4i64..=6, 1 => -12i64..=16],
    )
}

/// Rows that most assignments satisfy, so that an objective has feasible points to choose
/// from.
fn soft_row() -> impl Strategy<Value = Row> {
    let term = (-6i64..=6, proptest::collection::vec(lit(), 1..=2));
    (
        proptest::collection::vec(term, 1..=4),
        prop_oneof![Just(">="), Just("<=")],
        -3i64..=3,
    )
}

/// The objective's value under `x`.
fn value(obj: &[(i64, Vec<(u32, bool)>)], x: &[bool]) -> i64 {
    obj.iter()
        .filter(|(_, lits)| lits.iter().all(|&(v, neg)| x[v as usize - 1] != neg))
        .map(|(c, _)| c)
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// `min:`/`max:` on every backend: a satisfiable file answers the optimum brute force
    /// finds, proven (`optimal: true`), with a model that holds and has that value.
    #[test]
    fn optimisation_reaches_the_brute_force_optimum(
        rows in proptest::collection::vec(soft_row(), 1..=3),
        obj in proptest::collection::vec((-9i64..=9, prop_oneof![3 => proptest::collection::vec(lit(), 1..=1), 1 => proptest::collection::vec(lit(), 2..=2)]), 1..=5),
        maximise in any::<bool>(),
    ) {
        let n = 5;
        let mut text = opb_text(n, &rows);
        let mut line = String::from(if maximise { "max:" } else { "min:" });
        for (c, lits) in &obj {
            line.push_str(&format!(" {c:+}"));
            for (v, neg) in lits {
                line.push_str(&format!(" {}x{v}", if *neg { "~" } else { "" }));
            }
        }
        // The objective goes right after the header.
        let at = text.find('\n').unwrap() + 1;
        text.insert_str(at, &format!("{line} ;\n"));
        let feasible: Vec<Vec<bool>> = (0..1u32 << n)
            .map(|bits| (0..n).map(|i| bits >> i & 1 == 1).collect::<Vec<bool>>())
            .filter(|x| holds(&rows, x))
            .collect();
        let best = feasible.iter().map(|x| value(&obj, x)).reduce(|a, b| if maximise { a.max(b) } else { a.min(b) });
        let p = registry::parse("opb", "opt.opb", &text).unwrap();
        for name in backend::available() {
            let mut b = backend::by_name(name).unwrap();
            let r = p.solve(b.as_mut(), &RunOptions::default(), false).unwrap_or_else(|e| panic!("{name}: {e} on\n{text}"));
            match best {
                None => prop_assert_eq!(r.status, Status::Unsat, "{} on\n{}", name, text),
                Some(best) => {
                    prop_assert_eq!(r.status, Status::Sat, "{} on\n{}", name, text);
                    prop_assert_eq!(&r.json["optimal"], &Value::Bool(true), "{} on\n{}", name, text);
                    let x = model_of(&r.json, n);
                    prop_assert!(holds(&rows, &x));
                    prop_assert_eq!(value(&obj, &x), best, "{} on\n{}", name, text);
                    prop_assert_eq!(r.json["objective"].as_str().unwrap(), best.to_string());
                    let want = format!("o {best}\ns OPTIMUM FOUND\n");
                    prop_assert!(r.text.contains(&want), "{}: {}", name, r.text);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_opb_files_agree_with_brute_force(rows in proptest::collection::vec(row(), 1..=4)) {
        let n = 5;
        let text = opb_text(n, &rows);
        let p = registry::parse("opb", "random.opb", &text).unwrap();
        let count_bf = solutions(n, &rows);
        check_every_backend(p.as_ref(), n, count_bf > 0, &|x| holds(&rows, x), &text);
        let c = count(p.as_ref(), &CountOptions::default()).unwrap();
        prop_assert_eq!(c.count.to_string(), count_bf.to_string(), "count of\n{}", text);
    }

    #[test]
    fn random_cnf_files_agree_with_brute_force(
        clauses in proptest::collection::vec(proptest::collection::vec((1i64..=6, any::<bool>()), 0..=4), 1..=14)
    ) {
        let n = 6u32;
        let mut text = format!("c random\np cnf {n} {}\n", clauses.len());
        for c in &clauses {
            for (v, neg) in c {
                text.push_str(&format!("{} ", if *neg { -v } else { *v }));
            }
            text.push_str("0\n");
        }
        let holds_cnf = |x: &[bool]| {
            clauses.iter().all(|c| c.iter().any(|&(v, neg)| x[v as usize - 1] != neg))
        };
        let count_bf = (0..1u32 << n)
            .filter(|bits| {
                let x: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
                holds_cnf(&x)
            })
            .count();
        let p = registry::parse("cnf", "random.cnf", &text).unwrap();
        check_every_backend(p.as_ref(), n, count_bf > 0, &holds_cnf, &text);
        let c = count(p.as_ref(), &CountOptions::default()).unwrap();
        prop_assert_eq!(c.count.to_string(), count_bf.to_string(), "count of\n{}", text);
    }

    /// OPB -> IR -> `--emit opb` -> read again: the same solutions on the file's variables
    /// (the export adds one variable per product term, which the rows then fix).
    #[test]
    fn emitted_opb_reads_back_with_the_same_solutions(rows in proptest::collection::vec(row(), 1..=3)) {
        let n = 5;
        let text = opb_text(n, &rows);
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("in.opb");
        std::fs::write(&src, &text).unwrap();
        let out = dir.path().join("out.opb");
        let o = sokuc()
            .args(["solve", src.to_str().unwrap(), "--presolve", "off", "--emit", "opb", "-o", out.to_str().unwrap()])
            .output()
            .unwrap();
        prop_assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
        let again = std::fs::read_to_string(&out).unwrap();
        let p2 = registry::parse("opb", "out.opb", &again).unwrap();
        let c = count(p2.as_ref(), &CountOptions::default()).unwrap();
        // Counted on all of the emitted file's variables: an auxiliary is a function of
        // the file's variables, so the count is the same.
        prop_assert_eq!(c.count.to_string(), solutions(n, &rows).to_string(), "emitted\n{}\nfrom\n{}", again, text);
    }
}

/// The BIGINT files that tests/pb_bigint.rs solves on every backend, where each answer is held
/// to the file's status by construction and each model to that file's own evaluation: not
/// solved again here.
const IN_PB_BIGINT: [&str; 4] = [
    "bigint-subsetsum-12-sat-s1.opb",
    "bigint-subsetsum-12-unsat-s1.opb",
    "bigint-knapsack-30-s1.opb",
    "bigint-planted-400-300-s1.opb",
];

/// A file only `mitm` decides within the limit: every other backend ended `unknown` at 3 s
/// on it (measured on this 2-core machine; an unknown cannot disagree), and that sat and
/// cadical end at their limit on it is tests/limits.rs's test.
const MITM_ALONE: &str = "bigint-subsetsum-20-unsat-s1.opb";

/// Every shipped OPB instance on every backend with a time limit: no two answers disagree,
/// and every model is verified (the pipeline refuses an unverified one).
#[test]
fn the_public_set_gets_no_disagreement() {
    let dir = root().join("instances/opb");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "opb"))
        .collect();
    files.sort();
    assert!(files.len() >= 15, "the set has {} files", files.len());
    for f in files {
        let file_name = f.file_name().unwrap().to_str().unwrap();
        if IN_PB_BIGINT.contains(&file_name) {
            continue;
        }
        let p = registry::load(&f, None).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let mut seen: Vec<(&str, Status)> = Vec::new();
        for name in backend::available() {
            if file_name == MITM_ALONE && name != "mitm" {
                continue;
            }
            let mut b = backend::by_name(name).unwrap();
            let opts = RunOptions {
                solve: SolveOptions {
                    time_limit: Some(std::time::Duration::from_secs(3)),
                    ..Default::default()
                },
                ..Default::default()
            };
            let r = match p.solve(b.as_mut(), &opts, false) {
                Ok(r) => r,
                // A CNF over the clause budget, a row past cp's 32-bit integers or past CBC's
                // tolerances, is a refusal, not an answer.
                Err(e) => {
                    let e = e.to_string();
                    assert!(
                        e.contains("clauses")
                            || common::mitm_too_large(name, &e)
                            || (name == "cp" && e.contains("2^30"))
                            || (name == "mip" && e.contains("CBC's tolerances"))
                            || (name == "highs" && e.contains("HiGHS's tolerances")),
                        "{name} on {}: {e}",
                        f.display()
                    );
                    continue;
                }
            };
            if r.status == Status::Sat {
                assert!(r.verified, "{name} on {}", f.display());
            }
            if r.status != Status::Unknown {
                seen.push((name, r.status));
            }
        }
        assert!(
            seen.windows(2).all(|w| w[0].1 == w[1].1),
            "{}: the backends disagree: {seen:?}",
            f.display()
        );
    }
}

#[test]
fn compressed_files_read_as_the_plain_one() {
    let text = "* #variable= 3 #constraint= 2\n+1 x1 +1 x2 +1 x3 = 2 ;\n+2 x1 -1 x3 >= 2 ;\n";
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("f.opb");
    std::fs::write(&plain, text).unwrap();
    let gz = dir.path().join("f.opb.gz");
    let mut e = flate2::write::GzEncoder::new(std::fs::File::create(&gz).unwrap(), flate2::Compression::default());
    e.write_all(text.as_bytes()).unwrap();
    e.finish().unwrap();
    let bz = dir.path().join("f.opb.bz2");
    let mut e = bzip2::write::BzEncoder::new(std::fs::File::create(&bz).unwrap(), bzip2::Compression::default());
    e.write_all(text.as_bytes()).unwrap();
    e.finish().unwrap();
    let xz = dir.path().join("f.opb.xz");
    let mut out = Vec::new();
    lzma_rs::xz_compress(&mut text.as_bytes(), &mut out).unwrap();
    std::fs::write(&xz, out).unwrap();
    let want = sokuc().args(["solve", plain.to_str().unwrap()]).output().unwrap();
    assert_eq!(want.status.code(), Some(10));
    for f in [&gz, &bz, &xz] {
        let got = sokuc().args(["solve", f.to_str().unwrap()]).output().unwrap();
        assert_eq!(got.status.code(), Some(10), "{}", String::from_utf8_lossy(&got.stderr));
        assert_eq!(got.stdout, want.stdout, "{}", f.display());
    }
    // A damaged archive is the file's fault: exit 2 naming it.
    let bad = dir.path().join("bad.opb.gz");
    std::fs::write(&bad, b"\x1f\x8b\x08\x00garbage").unwrap();
    let o = sokuc().args(["solve", bad.to_str().unwrap()]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad.opb.gz"));
}

/// Header counts are hints, as PB and SAT solvers take them: a file that does not match
/// its header is solved as it is, and the answer starts with a `c warning:` line saying so.
#[test]
fn header_counts_are_hints() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "opb",
            "* #variable= 2 #constraint= 1\n+1 x1 +1 x3 >= 1 ;\n",
            ":2:",
            "above the header's #variable= 2",
        ),
        (
            "opb",
            "* #variable= 2 #constraint= 2\n+1 x1 >= 1 ;\n",
            ":1:",
            "#constraint= 2, but the file has 1",
        ),
        (
            "opb",
            "* #variable= 5 #constraint= 0\n+1 x1 >= 1 ;\n+1 ~x1 +1 x2 >= 1 ;\n",
            ":1:",
            "#constraint= 0, but the file has 2",
        ),
        ("cnf", "p cnf 2 1\n1 3 0\n", ":2:", "above the header's 2"),
        ("cnf", "p cnf 2 2\n1 2 0\n", ":1:", "2 clauses, but the file has 1"),
        (
            "cnf",
            "p cnf 0 0\n1 -2 0\n2 0\n",
            ":2:",
            "0 clauses, but the file has 2",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (i, (ext, text, at, what)) in cases.iter().enumerate() {
        let f = dir.path().join(format!("hint{i}.{ext}"));
        std::fs::write(&f, text).unwrap();
        let o = sokuc().args(["solve", f.to_str().unwrap()]).output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(10), "{text:?}: {out}");
        let first = out.lines().next().unwrap_or("");
        assert!(
            first.starts_with("c warning: ") && first.contains(at) && out.contains(what),
            "{text:?}: {out}"
        );
        assert!(out.contains("s SATISFIABLE") && out.contains("c verified"), "{out}");
    }
}

#[test]
fn malformed_files_name_file_line_and_problem() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "opb",
            "* #variable= 2 #constraint= 1\n+1 x1 +1 x2 >= 1\n",
            ":2:",
            "missing ';'",
        ),
        (
            "opb",
            "* #variable= 2 #constraint= 1\n+1.5 x1 +1 x2 >= 1 ;\n",
            ":2:",
            "not an integer",
        ),
        (
            "opb",
            "* #variable= 2 #constraint= 1\nmin: +1 x1 >= 1 ;\n+1 x1 >= 1 ;\n",
            ":2:",
            "objective must end with ';'",
        ),
        (
            "opb",
            "* #variable= 2 #constraint= 1\n+1 x1 +1 x2 >= +\n1 ;\n",
            ":2:",
            "sign must be followed by digits",
        ),
        (
            "opb",
            "* #variable= 2 #constraint= 1\n+1 x1 +1 x2 != 1 ;\n",
            ":2:",
            "unexpected '!='",
        ),
        (
            "opb",
            "* #variable= 2 #constraint= 1\n+1 x1 +1 x2 => 1 ;\n",
            ":2:",
            "relation",
        ),
        (
            "opb",
            "* #variable= 2 #constraint= 1\n+1 x1 @ >= 1 ;\n",
            ":2:",
            "unexpected '@'",
        ),
        ("opb", "* #variable= 2 #constraint= 1\n+1 x1 x2\n", ":2:", "ends"),
        ("cnf", "p cnf 2 1\n1 -2\n", ":2:", "does not end with 0"),
        ("cnf", "1 2 0\n", ":1:", "before the 'p cnf' header"),
        ("cnf", "p cnf 2 1\n1 x 0\n", ":2:", "not a literal"),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (i, (ext, text, at, what)) in cases.iter().enumerate() {
        let f = dir.path().join(format!("bad{i}.{ext}"));
        std::fs::write(&f, text).unwrap();
        let o = sokuc().args(["solve", f.to_str().unwrap()]).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{text:?}: {err}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(
            err.contains(&format!("bad{i}.{ext}{at}")) && err.contains(what),
            "{text:?}: want {at} and {what:?} in {err}"
        );
    }
}

/// A proven optimum's answer (`s OPTIMUM FOUND`, as sokuc and minisat+ write it) reads back
/// through both readers of competition output: `check` (the front-end's) and `decode` (the
/// run path's, for external solvers), and a tampered model is rejected.
#[test]
fn optimum_answers_read_back_through_check_and_decode() {
    let f = root().join("instances/opb/knapsack-opt-25-s1.opb");
    let f = f.to_str().unwrap();
    let o = sokuc().args(["solve", f]).output().unwrap();
    assert_eq!(o.status.code(), Some(30));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("s OPTIMUM FOUND\n"), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("answer.txt");
    std::fs::write(&answer, &text).unwrap();
    let c = sokuc().args(["check", f, answer.to_str().unwrap()]).output().unwrap();
    assert_eq!(c.status.code(), Some(0), "{}", String::from_utf8_lossy(&c.stderr));
    let d = sokuc()
        .args(["decode", f, "--solution", answer.to_str().unwrap()])
        .output()
        .unwrap();
    // A decoded answer is a checked solution, its optimality unproven here: 10.
    assert_eq!(d.status.code(), Some(10), "{}", String::from_utf8_lossy(&d.stderr));
    // Every item taken breaks the weight row.
    let all: String = (1..=25).map(|i| format!(" x{i}")).collect();
    std::fs::write(&answer, format!("s OPTIMUM FOUND\nv{all}\n")).unwrap();
    let c = sokuc().args(["check", f, answer.to_str().unwrap()]).output().unwrap();
    assert_ne!(c.status.code(), Some(0));
}

/// pumpkin's integers are 32-bit: a row past 2^30 (but narrow enough not to be split) is
/// refused by `cp` with a one-line error, never posted where it could wrap into a wrong
/// `unsat`; the other backends answer it.
#[test]
fn cp_refuses_rows_past_its_integers_and_auto_of_this_build_answers_them() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("wide.opb");
    // x2 + x3 is the only solution; the coefficients add up to 6 * 10^9.
    std::fs::write(
        &f,
        "* #variable= 3 #constraint= 1\n+2000000000 x1 +1999999999 x2 +3 x3 = 2000000002 ;\n",
    )
    .unwrap();
    let f = f.to_str().unwrap();
    let o = sokuc().args(["solve", f, "--backend", "cp"]).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("2^30"), "{err}");
    for b in ["sat", "search"] {
        let o = sokuc().args(["solve", f, "--backend", b]).output().unwrap();
        // SAT on an OPB file: the competitions' 10.
        assert_eq!(o.status.code(), Some(10), "{b}");
        assert!(String::from_utf8_lossy(&o.stdout).contains("v -x1 x2 x3"), "{b}");
    }
    // With a seed, auto's search answers; the cp it would otherwise hand over to (in a
    // default build) must not see this row: tests/auto_backend.rs checks the plan.
    let o = sokuc().args(["solve", f, "--seed", "3"]).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(10), "{out}");
    assert!(out.contains("v -x1 x2 x3") && !out.contains("the cp backend"), "{out}");
}

/// CBC's tolerances (10^-6 on integrality): a row of width 2^20 or more (still one IR row: the
/// OPB front-end splits only past 2^62) goes to CBC as digit columns, and the optimum of an
/// objective of width 2^19 or more is proven by refuting a bound row (in digit columns),
/// never rounded into a wrong model, `unsat` or optimum; the exact backends answer them
/// too. Just below the limit, mip answers.
#[test]
fn mip_splits_rows_and_proves_wide_objectives_with_bound_rows() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    // 2^20 and 2^20 - 1: x2 + x3 is the only solution; an objective makes `auto` optimise.
    let f = write(
        "wide20.opb",
        "* #variable= 3 #constraint= 1\nmin: +1 x1 +1 x2 ;\n+1048576 x1 +1048575 x2 +3 x3 = 1048578 ;\n",
    );
    // A narrow row, but an objective of width 2^21.
    let g = write(
        "wideobj.opb",
        "* #variable= 3 #constraint= 1\nmin: +2097152 x1 +1 x2 ;\n+1 x1 +1 x2 +1 x3 >= 2 ;\n",
    );
    // Width 2^20 - 3: CBC gets it whole, and its model is checked.
    let h = write(
        "narrow.opb",
        "* #variable= 2 #constraint= 1\n+349525 x1 +349524 x2 = 349524 ;\n",
    );
    if backend::available().contains(&"mip") {
        // CBC's objective guides; the bound row "objective <= 0" proves the optimum 1.
        let o = sokuc()
            .args(["solve", &g, "--backend", "mip", "--format", "json"])
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(o.status.code(), Some(30), "{v}");
        assert_eq!(v["objective"], "1", "{v}");
        assert_eq!(v["optimal"], true, "{v}");
        assert_eq!(
            v["stats"]["extra"]["optimise"], "mip, wide objective: bound rows",
            "{v}"
        );
        // The row becomes digit columns: the same optimum as every other backend below.
        // OPB files exit as PB solvers do: 30 for a proven optimum, 10 for a solution.
        let o = sokuc().args(["solve", &f, "--backend", "mip"]).output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(30), "{out}");
        assert!(out.contains("s OPTIMUM FOUND") && out.contains("v -x1 x2 x3"), "{out}");
        let o = sokuc().args(["solve", &h, "--backend", "mip"]).output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(10), "{out}");
        assert!(out.contains("v -x1 x2"), "{out}");
    }
    let o = sokuc().args(["solve", &g]).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("s OPTIMUM FOUND") && out.contains("v -x1 x2 x3"), "{out}");
    let f = f.as_str();
    for b in ["auto", "sat", "search"] {
        let o = sokuc().args(["solve", f, "--backend", b]).output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        // A proven optimum: 30, as PB solvers exit.
        assert_eq!(o.status.code(), Some(30), "{b}: {out}");
        assert!(
            out.contains("s OPTIMUM FOUND") && out.contains("v -x1 x2 x3"),
            "{b}: {out}"
        );
    }
}

/// `auto` refuses only what no engine can do: a clause-heavy file (so `auto` picks the CDCL
/// engine) with a row whose CNF passes the clause budget goes to an engine that takes rows as
/// they are, and its answer is verified; the CDCL engine named alone still refuses it.
#[test]
fn auto_hands_a_formula_past_the_clause_budget_to_an_engine_of_this_build_that_takes_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("* #variable= 30 #constraint= 41\n");
    for k in 0..40u32 {
        text.push_str(&format!("+1 x{} +1 x{} >= 1 ;\n", k % 30 + 1, (k * 7 + 3) % 30 + 1));
    }
    let row: Vec<String> = (1..=30u64)
        .map(|i| format!("+{} x{i}", 100_003 * i + 7_919 * (i % 5)))
        .collect();
    text.push_str(&format!("{} <= 25000000 ;\n", row.join(" ")));
    let f = dir.path().join("heavy.opb");
    std::fs::write(&f, &text).unwrap();
    let f = f.to_str().unwrap();
    let o = sokuc()
        .args(["solve", f, "--max-clauses", "300", "--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(o.status.code(), Some(10), "{v}");
    assert_eq!(v["status"], "sat");
    assert_eq!(v["verified"], true);
    assert_ne!(v["backend"], "sat");
    assert!(
        v["stats"]["extra"]["auto"].as_str().unwrap().contains("could not take"),
        "{v}"
    );
    let o = sokuc()
        .args(["solve", f, "--max-clauses", "300", "--backend", "sat"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("300 clauses"));
}

/// Variables named otherwise than `x<digits>` (as minisat+, RoundingSat and VeriPB files
/// name them) are read, numbered after the others in order of appearance, printed by their
/// names, and read back by `check`, from the text and from the JSON.
#[test]
fn variables_may_have_any_name() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("names.opb");
    std::fs::write(
        &f,
        "* #variable= 2 #constraint= 3\r\nmin: +1 flag[3] ;\r\n+1 x1 +1 iv0_b_0 >= 2 ;\r\n+1 ~flag[3] +2 x2 >= 2 ;\r\n+1 a.b-2 -1 x1 = 0 ;\r\n",
    )
    .unwrap();
    let f = f.to_str().unwrap();
    let o = sokuc().args(["solve", f]).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(30), "{out}");
    assert!(out.contains("v x1 x2 -flag[3] iv0_b_0 a.b-2\n"), "{out}");
    let sol = dir.path().join("names.sol");
    std::fs::write(&sol, out.as_bytes()).unwrap();
    let o = sokuc().args(["check", f, sol.to_str().unwrap()]).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
    // A wrong answer in names is caught.
    std::fs::write(&sol, out.replace(" iv0_b_0", " -iv0_b_0")).unwrap();
    let o = sokuc().args(["check", f, sol.to_str().unwrap()]).output().unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", String::from_utf8_lossy(&o.stdout));
    // Every backend answers the same file.
    for b in sokuc::backends() {
        let o = sokuc().args(["solve", f, "--backend", b]).output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains("c verified"), "{b}: {out}");
    }
    // Names that no tool reads stay errors, with their line.
    for (text, line) in [
        ("+1 1abc >= 1 ;\n", ":1:"),
        ("+1 x1 +1 ~ >= 1 ;\n", ":1:"),
        ("+1 x1\n+1 é >= 1 ;\n", ":2:"),
    ] {
        let g = dir.path().join("bad.opb");
        std::fs::write(&g, text).unwrap();
        let o = sokuc().args(["solve", g.to_str().unwrap()]).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{text:?}: {err}");
        assert!(err.contains(line) && err.lines().count() == 1, "{text:?}: {err}");
    }
}

/// What minisat+, RoundingSat, VeriPB, Gurobi or GLPK read beyond the competition's
/// spelling is read the same way here: `min: ;` (an objective of constant 0), a sign apart
/// from its digits (`+ 1 x1`), a coefficient glued to its variable (`+2x2`, `2*x2`), a
/// literal with no coefficient (`x1 + x2`, `-x1`), the strict `>` and `<` and `==`. Each
/// lenient file's model (`--emit opb`) is the one of its plain spelling, and the answers
/// agree.
#[test]
fn other_tools_spellings_read_as_their_plain_forms() {
    let cases: &[(&str, &str)] = &[
        ("+ 1 x1 - 2 x2 >= - 1 ;\n", "+1 x1 -2 x2 >= -1 ;\n"),
        ("+1x1 -2~x2 >= -1;\n", "+1 x1 -2 ~x2 >= -1 ;\n"),
        ("+1 x1 +1 x2 > 1 ;\n", "+1 x1 +1 x2 >= 2 ;\n"),
        ("+1 x1 +1 x2 < 1 ;\n", "+1 x1 +1 x2 <= 0 ;\n"),
        ("+3 x1 -1 x2 == 2 ;\n", "+3 x1 -1 x2 = 2 ;\n"),
        ("x1 + x2 - ~x1 >= 1 ;\n", "+1 x1 +1 x2 -1 ~x1 >= 1 ;\n"),
        ("3*x1 -2*~x2 >= 1 ;\n", "+3 x1 -2 ~x2 >= 1 ;\n"),
        ("-x1 x2 +1 x1 >= 0 ;\n", "-1 x1 x2 +1 x1 >= 0 ;\n"),
        ("+1 x1 +1 x2 > 2 ;\n", "+1 x1 +1 x2 >= 3 ;\n"),
        ("min: ;\n+1 x1 +1 x2 >= 1 ;\n", "min: +0 x1 ;\n+1 x1 +1 x2 >= 1 ;\n"),
        ("max: ;\n+1 x1 +1 x2 > 2 ;\n", "min: +0 x1 ;\n+1 x1 +1 x2 >= 3 ;\n"),
    ];
    // The last two: the objective with no terms; the ninth: `> 2` over two variables.
    assert!(cases[9].0.starts_with("min: ;") && cases[10].0.starts_with("max: ;"));
    assert!(cases[8].0.contains("> 2"));
    let dir = tempfile::tempdir().unwrap();
    let model = |text: &str| {
        let f = dir.path().join("m.opb");
        std::fs::write(&f, format!("* #variable= 2 #constraint= 1\n{text}")).unwrap();
        let e = sokuc()
            .args(["solve", f.to_str().unwrap(), "--emit", "opb", "--presolve", "off"])
            .output()
            .unwrap();
        assert_eq!(
            e.status.code(),
            Some(0),
            "{text:?}: {}",
            String::from_utf8_lossy(&e.stderr)
        );
        let s = sokuc().args(["solve", f.to_str().unwrap()]).output().unwrap();
        let answer = String::from_utf8_lossy(&s.stdout).into_owned();
        assert!(
            answer.contains("c verified") || answer.contains("s UNSATISFIABLE"),
            "{text:?}: {answer}"
        );
        let body: String = String::from_utf8_lossy(&e.stdout)
            .lines()
            .filter(|l| !l.starts_with('*'))
            .map(|l| format!("{l}\n"))
            .collect();
        (body, s.status.code(), answer.lines().next().map(str::to_string))
    };
    for (lenient, plain) in cases {
        let (a, b) = (model(lenient), model(plain));
        assert_eq!(a.0, b.0, "{lenient:?} against {plain:?}");
        assert_eq!((a.1, &a.2), (b.1, &b.2), "{lenient:?} against {plain:?}");
    }
    // `min: ;` is an optimisation (exit 30), `> 2` over two variables is unsatisfiable
    // (20), with or without the empty objective.
    assert_eq!(model(cases[9].0).1, Some(30));
    assert_eq!(model(cases[10].0).1, Some(20));
    assert_eq!(model(cases[8].0).1, Some(20));
    // Every backend takes the objective of no terms: optimal at 0, or no model at all.
    let f = dir.path().join("empty-objective.opb");
    for (text, want) in [(cases[9].0, 30), (cases[10].0, 20)] {
        std::fs::write(&f, format!("* #variable= 2 #constraint= 1\n{text}")).unwrap();
        for b in sokuc::backends() {
            let o = sokuc()
                .args(["solve", f.to_str().unwrap(), "--backend", b])
                .output()
                .unwrap();
            let out = String::from_utf8_lossy(&o.stdout);
            assert_eq!(o.status.code(), Some(want), "{b} on {text:?}: {out}");
            assert!(want == 20 || out.starts_with("o 0\ns OPTIMUM FOUND\n"), "{b}: {out}");
        }
    }
}
