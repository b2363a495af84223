//! The `mitm` backend (meeting in the middle) against brute force and against `sat`: every
//! status, model and optimum on random formulas with every kind of row, assumptions and
//! objectives; the refusals, the check cap, the time limit, the interrupt and the memory
//! limit. (The shared suite in `tests/backends.rs` runs 3SoKu models with hundreds of
//! variables, past the 44 this engine enumerates.)

mod common;

use sokuc::backend::Algorithms;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use common::Rng;
use sokuc::backend::{self, Backend, BackendError, SolveOptions, Status, mitm::Mitm};
use sokuc::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Var};

/// Every model of `f` (at most 16 variables) under `units`.
fn brute(f: &PbFormula, units: &[Lit]) -> Vec<Vec<bool>> {
    let n = f.num_vars() as usize;
    assert!(n <= 16);
    (0u32..1 << n)
        .map(|m| (0..n).map(|i| m >> i & 1 == 1).collect::<Vec<bool>>())
        .filter(|a| f.evaluate(a).is_ok() && units.iter().all(|l| l.eval(a)))
        .collect()
}

fn lit(r: &mut Rng, n: u32) -> Lit {
    Lit::new(Var(r.below(u64::from(n)) as u32), r.below(3) != 0)
}

/// A random formula over `n` variables: clauses, groups, and linear rows (equalities most
/// often, as the engine keys on them) with coefficients -6..6, repeated variables and
/// negative literals included.
fn random(r: &mut Rng, n: u32) -> PbFormula {
    let mut f = PbFormula::new(n);
    for _ in 0..r.below(5) {
        let len = 1 + r.below(u64::from(n.min(6))) as usize;
        let lits: Vec<Lit> = (0..len).map(|_| lit(r, n)).collect();
        let c = match r.below(6) {
            0 => Constraint::Clause(lits),
            1 => Constraint::AtMostOne(lits),
            2 => Constraint::ExactlyOne(lits),
            _ => {
                let terms: Vec<(i64, Lit)> = lits.into_iter().map(|l| (r.below(13) as i64 - 6, l)).collect();
                let cmp = [Cmp::Eq, Cmp::Eq, Cmp::Ge, Cmp::Le][r.below(4) as usize];
                Constraint::Linear(Linear::new(terms, cmp, r.below(11) as i64 - 5))
            }
        };
        f.add("random", c);
    }
    f
}

#[test]
fn random_formulas_match_brute_force() {
    let mut r = Rng(0x5eed_1234_abcd);
    let (mut sat, mut unsat) = (0, 0);
    for k in 0..3000 {
        let n = 1 + r.below(12) as u32;
        let f = random(&mut r, n);
        let units: Vec<Lit> = (0..r.below(3)).map(|_| lit(&mut r, n)).collect();
        let opts = SolveOptions {
            assumptions: units.clone(),
            ..Default::default()
        };
        let o = Mitm::default().solve(&f, &opts).unwrap();
        let models = brute(&f, &units);
        assert_eq!(
            o.status == Status::Sat,
            !models.is_empty(),
            "formula {k}: {f:?} under {units:?}"
        );
        assert_ne!(o.status, Status::Unknown, "formula {k}");
        if let Some(a) = &o.assignment {
            assert!(f.evaluate(a).is_ok(), "formula {k}: the model breaks a row");
            assert!(
                units.iter().all(|l| l.eval(a)),
                "formula {k}: the model breaks an assumption"
            );
            sat += 1;
        } else {
            unsat += 1;
        }
    }
    // Both answers must be common, or the test would prove little.
    assert!(sat > 500 && unsat > 500, "{sat} sat, {unsat} unsat");
}

#[test]
fn optima_match_brute_force() {
    let mut r = Rng(0x0b7e_c7e5);
    let mut proven = 0;
    for k in 0..2000 {
        let n = 1 + r.below(12) as u32;
        let mut f = random(&mut r, n);
        let objective: Vec<(i64, Lit)> = (0..1 + r.below(8))
            .map(|_| (r.below(19) as i64 - 9, lit(&mut r, n)))
            .collect();
        f.set_objective(Some(objective));
        let best = brute(&f, &[]).iter().filter_map(|a| f.objective_value(a)).min();
        let mut values = Vec::new();
        let o = Mitm::default()
            .optimise(&f, &SolveOptions::default(), &mut |a: &[bool]| {
                assert!(f.evaluate(a).is_ok(), "formula {k}: an improvement breaks a row");
                values.push(f.objective_value(a).unwrap());
                ControlFlow::Continue(())
            })
            .unwrap();
        match best {
            None => assert_eq!(o.status, Status::Unsat, "formula {k}"),
            Some(b) => {
                assert_eq!(o.status, Status::Sat, "formula {k}");
                assert!(o.optimal, "formula {k}");
                assert_eq!(values.last(), Some(&b), "formula {k}: {f:?}");
                assert!(values.windows(2).all(|w| w[1] < w[0]), "formula {k}: {values:?}");
                proven += 1;
            }
        }
    }
    assert!(proven > 1000, "{proven}");
}

/// `rows` equality rows of random weights below `w` over `n` variables, right-hand sides
/// from a planted assignment (so `sat`), or with every weight even and an odd right-hand
/// side (so `unsat`); optionally one capacity row as well.
fn split_rows(r: &mut Rng, n: u32, rows: usize, w: u64, planted: bool) -> PbFormula {
    let mut f = PbFormula::new(n);
    let plant: Vec<bool> = (0..n).map(|_| r.below(2) == 1).collect();
    for _ in 0..rows {
        let terms: Vec<(i64, Lit)> = (0..n)
            .map(|v| {
                let c = 1 + r.below(w) as i64;
                (if planted { c } else { 2 * c }, Var(v).pos())
            })
            .collect();
        let rhs = if planted {
            terms.iter().filter(|(_, l)| plant[l.var().index()]).map(|t| t.0).sum()
        } else {
            2 * r.below(w * u64::from(n) / 2) as i64 + 1
        };
        f.add("row", Constraint::Linear(Linear::new(terms, Cmp::Eq, rhs)));
    }
    f
}

#[test]
fn subset_sums_and_market_splits_agree_with_sat() {
    let mut r = Rng(0x5b5e_7500);
    for k in 0..24 {
        let n = 10 + r.below(7) as u32;
        let mut f = split_rows(&mut r, n, 1 + k % 3, 60, k % 2 == 0);
        if k % 4 == 1 {
            // A capacity row on top, sorted on.
            let terms = (0..n).map(|v| (1 + r.below(9) as i64, Var(v).pos())).collect();
            f.add("capacity", Constraint::Linear(Linear::new(terms, Cmp::Le, 20)));
        }
        let a = Mitm::default().solve(&f, &SolveOptions::default()).unwrap();
        let b = backend::by_name("sat")
            .unwrap()
            .solve(&f, &SolveOptions::default())
            .unwrap();
        assert_eq!(a.status, b.status, "formula {k}");
        assert_eq!(a.status == Status::Sat, !brute(&f, &[]).is_empty(), "formula {k}");
        if k % 2 == 0 && k % 4 != 1 {
            assert_eq!(a.status, Status::Sat, "formula {k} is planted");
        }
    }
}

#[test]
fn forty_variables_with_a_planted_split_and_a_parity_refutation() {
    let mut r = Rng(0x40_40_40);
    let f = split_rows(&mut r, 40, 2, 1 << 20, true);
    let o = Mitm::default().solve(&f, &SolveOptions::default()).unwrap();
    assert_eq!(o.status, Status::Sat);
    assert!(f.evaluate(o.assignment.as_ref().unwrap()).is_ok());
    let f = split_rows(&mut r, 36, 1, 1 << 20, false);
    let o = Mitm::default().solve(&f, &SolveOptions::default()).unwrap();
    assert_eq!(o.status, Status::Unsat, "even weights never add up to an odd number");
}

#[test]
fn forced_variables_are_not_enumerated_and_too_many_free_ones_are_refused() {
    // 60 variables, 30 of them fixed by unit clauses and one by an assumption.
    let mut r = Rng(0xf1ed);
    let mut f = split_rows(&mut r, 60, 1, 1000, true);
    let o = Mitm::default().solve(&f, &SolveOptions::default());
    match o {
        Err(BackendError::Unavailable { message, .. }) => assert!(message.contains("44"), "{message}"),
        other => panic!("60 free variables must be refused: {:?}", other.map(|o| o.status)),
    }
    let model = backend::by_name("sat")
        .unwrap()
        .solve(&f, &SolveOptions::default())
        .unwrap();
    let a = model.assignment.unwrap();
    for v in 0..30u32 {
        f.add("unit", Constraint::Clause(vec![Lit::new(Var(v), a[v as usize])]));
    }
    let opts = SolveOptions {
        assumptions: vec![Lit::new(Var(30), a[30])],
        ..Default::default()
    };
    let o = Mitm::default().solve(&f, &opts).unwrap();
    assert_eq!(o.status, Status::Sat);
    assert!(f.evaluate(o.assignment.as_ref().unwrap()).is_ok());
}

/// 36 variables, no equality and many capacity rows with no model: every pair is checked.
fn capacities_without_model(n: u32) -> PbFormula {
    let mut r = Rng(0xcab);
    let mut f = PbFormula::new(n);
    for _ in 0..6 {
        let terms: Vec<(i64, Lit)> = (0..n).map(|v| (1 + r.below(5) as i64, Var(v).pos())).collect();
        f.add("capacity", Constraint::Linear(Linear::new(terms, Cmp::Le, 40)));
    }
    let all: Vec<(i64, Lit)> = (0..n).map(|v| (1, Var(v).pos())).collect();
    f.add("many", Constraint::Linear(Linear::new(all, Cmp::Ge, i64::from(n) - 2)));
    f
}

#[test]
fn the_check_cap_the_time_limit_and_the_interrupt_answer_unknown() {
    let f = capacities_without_model(36);
    let capped = Mitm { checks: Some(1000) }.solve(&f, &SolveOptions::default()).unwrap();
    assert_eq!(capped.status, Status::Unknown, "a capped search proves nothing");
    let f = capacities_without_model(44);
    let t0 = Instant::now();
    let timed = SolveOptions {
        time_limit: Some(Duration::from_millis(300)),
        ..Default::default()
    };
    let o = Mitm::default().solve(&f, &timed).unwrap();
    assert_eq!(o.status, Status::Unknown);
    // A gross bound: the table of 2^22 half assignments is built before the first check.
    assert!(t0.elapsed() < Duration::from_secs(20), "{:?}", t0.elapsed());
    let interrupted = SolveOptions {
        interrupt: Some(Arc::new(AtomicBool::new(true))),
        ..Default::default()
    };
    assert_eq!(Mitm::default().solve(&f, &interrupted).unwrap().status, Status::Unknown);
}

#[test]
fn the_memory_limit_is_kept() {
    let f = capacities_without_model(44);
    let mut opts = SolveOptions::default();
    opts.encode.max_memory = 1 << 20;
    match Mitm::default().solve(&f, &opts) {
        Err(BackendError::Encode(e)) => assert!(e.to_string().contains("mitm"), "{e}"),
        other => panic!(
            "a table past the memory limit must be refused: {:?}",
            other.map(|o| o.status)
        ),
    }
}

/// A random number of `bits` bits (the top one set).
fn big(r: &mut Rng, bits: u32) -> num_bigint::BigInt {
    let mut x = num_bigint::BigInt::from(1u8);
    for _ in 1..bits {
        x = (x << 1) + r.below(2);
    }
    x
}

/// Subset sums with weights of 70 to 100 bits (rows the front-end splits into digit
/// columns, which `mitm` takes whole), decided through the command line against brute force
/// in this test's own arithmetic; and the least subset sum at or above a target (an
/// objective past 62 bits, which it minimises whole), against brute force too.
#[test]
fn wide_subset_sums_and_their_least_sums_match_brute_force() {
    use num_bigint::BigInt;
    let dir = tempfile::tempdir().unwrap();
    let mut r = Rng(0x51de_5eed);
    let (mut sat, mut unsat) = (0, 0);
    for k in 0..12 {
        let n = 8 + r.below(7) as usize;
        let w: Vec<BigInt> = (0..n)
            .map(|_| {
                let bits = 70 + r.below(31) as u32;
                big(&mut r, bits)
            })
            .collect();
        let sums: Vec<BigInt> = (0u32..1 << n)
            .map(|m| (0..n).filter(|i| m >> i & 1 == 1).map(|i| &w[i]).sum())
            .collect();
        // Half the targets are a subset's sum, half one more than one.
        let pick = r.below(1 << n) as usize;
        let target = &sums[pick] + BigInt::from(k % 2);
        let row: String = w.iter().enumerate().map(|(i, c)| format!("+{c} x{} ", i + 1)).collect();
        let run = |text: String, name: &str| -> serde_json::Value {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            let o = common::sokuc()
                .arg("solve")
                .arg(&path)
                .args(["--backend", "mitm", "--format", "json", "--timeout", "60"])
                .output()
                .unwrap();
            serde_json::from_slice(&o.stdout)
                .unwrap_or_else(|e| panic!("{name}: {e}: {}", String::from_utf8_lossy(&o.stderr)))
        };
        let v = run(
            format!("* #variable= {n} #constraint= 1\n{row}= {target} ;\n"),
            &format!("sum-{k}.opb"),
        );
        let want = sums.contains(&target);
        assert_eq!(v["status"], if want { "sat" } else { "unsat" }, "file {k}: {v}");
        if want {
            assert_eq!(v["verified"], true, "file {k}");
            sat += 1;
        } else {
            unsat += 1;
        }
        let least = sums.iter().filter(|s| **s >= target).min().cloned();
        let v = run(
            format!("* #variable= {n} #constraint= 1\nmin: {row};\n{row}>= {target} ;\n"),
            &format!("least-{k}.opb"),
        );
        match least {
            None => assert_eq!(v["status"], "unsat", "file {k}: {v}"),
            Some(least) => {
                assert_eq!(v["status"], "sat", "file {k}: {v}");
                assert_eq!(v["optimal"], true, "file {k}: {v}");
                assert_eq!(
                    v["objective"].as_str().unwrap().parse::<BigInt>().unwrap(),
                    least,
                    "file {k}"
                );
                assert_eq!(v["stats"]["extra"]["objective_whole"], true, "file {k}: {v}");
            }
        }
    }
    assert!(sat >= 3 && unsat >= 3, "{sat} sat, {unsat} unsat");
}

/// `sat`'s answer on `f` under `assumptions`, and this engine's, which must agree, with
/// a model that keeps every row and assumption, or be a refusal by size; `true` when it
/// answered.
fn agree_on_staged(f: &PbFormula, assumptions: Vec<Lit>, what: &str) -> bool {
    let opts = SolveOptions {
        assumptions: assumptions.clone(),
        ..Default::default()
    };
    let want = backend::sat::varisat::Varisat.solve(f, &opts).unwrap().status;
    let got = match Mitm::default().solve(f, &opts) {
        Ok(got) => got,
        Err(BackendError::Unavailable { message, .. }) if message.contains("are free") => return false,
        Err(e) => panic!("{what}: {e}"),
    };
    assert_eq!(got.status, want, "{what}");
    if let Some(x) = &got.assignment {
        assert!(f.evaluate(x).is_ok(), "{what}: the model breaks a row");
        assert!(
            assumptions.iter().all(|l| l.eval(x)),
            "{what}: the model breaks an assumption"
        );
    }
    true
}

/// A row past 2^62 (split into digit columns over slack and carry bits) and an objective
/// past 62 bits (staged): assumptions on the auxiliary bits are kept (the row is then
/// searched as its columns), and a plain solve of the staged file takes the row that
/// defines the objective's bits as a definition.
#[test]
fn assumptions_on_auxiliary_bits_are_kept_and_staged_files_solve() {
    // Odd offsets keep the gcd at 1, so normalising leaves the row wide.
    let c = |k: u64| format!("{k}00000000000000000000{}", k % 9);
    // Nine terms: past the few that become clauses (`pb/few.rs`), so the row is split.
    let ks = [1u64, 3, 5, 7, 11, 13, 17, 19, 23];
    let terms: Vec<String> = ks
        .iter()
        .enumerate()
        .map(|(i, &k)| format!("+{} x{}", c(k), i + 1))
        .collect();
    let row = format!("{} >= {}", terms.join(" "), c(14));
    let text = format!(
        "* #variable= 9 #constraint= 1\nmin: {} ;\n{row} ;\n",
        row.split(" >=").next().unwrap()
    );
    let file = sokuc::pb::read_opb("t.opb", &text).unwrap();
    use sokuc::puzzle::Puzzle;
    let m = file.compile(&sokuc::puzzle::CompileOptions::default()).unwrap();
    let f = file.formula(&m);
    assert!(f.staged().is_some(), "the objective is staged");
    assert_eq!(f.wide_rows().len(), 2, "the row and the objective's value are split");
    // Both rows whole: the nine file variables are all that is enumerated.
    assert!(agree_on_staged(f, Vec::new(), "no assumptions"));
    assert!(agree_on_staged(f, vec![Lit::new(Var(0), false)], "x1 false"));
    // An assumption on an auxiliary bit keeps its row as columns, whose bits are then
    // too many to enumerate here: a refusal, never a model that ignores the assumption.
    // Each row's bits are its slack bits (if any), then its carries, all taken the same
    // way: its first, middle and last bit stand for them (every bit of both rows, both ways, was
    // 51 s of varisat runs on a CI core for the same two answers).
    let aux: Vec<u32> = f
        .wide_rows()
        .iter()
        .flat_map(|w| {
            let (a, b) = (w.aux.start, w.aux.end - 1);
            let mut some = vec![a, a + (b - a) / 2, b];
            some.dedup();
            some
        })
        .collect();
    assert!(aux.len() >= 4, "both rows have auxiliary bits: {aux:?}");
    for &v in &aux {
        for value in [true, false] {
            agree_on_staged(f, vec![Lit::new(Var(v), value)], &format!("variable {v} = {value}"));
        }
    }
}
