//! The shape of the cp backend's model: which exactly-one groups become integer variables.
//! For 3SoKu they must be the faces (one placement integer per face); the single-copy tile
//! types' exactly-one rows, which overlap them, must not push them out (they did, when the
//! largest groups were taken first: a type spans up to 60 placements, a face at most 34).

mod common;

use std::collections::BTreeSet;

use sokuc::backend::{Backend, SolveOptions, Status, cp};
use sokuc::input::{batch, instance_file};
use sokuc::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Var};
use sokuc::model::Instance;
use sokuc::soku::Compiled;

fn load(name: &str) -> Instance {
    instance_file::read_instance(&common::root().join("instances").join(name)).unwrap()
}

/// The face groups of a compiled 3SoKu model.
fn face_groups(compiled: &Compiled) -> BTreeSet<Vec<Lit>> {
    compiled
        .face_vars
        .iter()
        .map(|vars| vars.iter().map(|v| v.pos()).collect())
        .collect()
}

fn assert_faces(what: &str, compiled: &Compiled) {
    let groups = cp::integer_groups(&compiled.model.formula);
    let n = groups.len();
    let set: BTreeSet<Vec<Lit>> = groups.into_iter().collect();
    assert_eq!(set.len(), n, "{what}: a group chosen twice");
    assert_eq!(set, face_groups(compiled), "{what}: the integers are not the faces");
}

#[test]
fn icosoku_gets_one_placement_integer_per_face() {
    let compiled = sokuc::soku::compile(&load("icosoku-seed.toml")).unwrap();
    let groups = cp::integer_groups(&compiled.model.formula);
    assert_eq!(groups.len(), 20);
    let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
    assert!(sizes.iter().all(|&s| s <= 34), "{sizes:?}");
    assert_faces("icosoku-seed", &compiled);
    // Without presolve every face has all 14 types' rotations: 10 x 3, and one each for the
    // four uniform tiles (0,0,0) to (3,3,3).
    let plain = sokuc::soku::compile_plain(&load("icosoku-seed.toml"));
    let plain_sizes: Vec<usize> = cp::integer_groups(&plain.model.formula).iter().map(Vec::len).collect();
    assert_eq!(plain_sizes, vec![34; 20]);
    assert_faces("icosoku-seed without presolve", &plain);
}

/// Every tile different (every type is once-only, so faces and types tie), fixed tiles, and
/// the batches, with and without presolve.
#[test]
fn the_integers_are_the_faces_on_every_instance() {
    for name in [
        "tetrasoku-seed.toml",
        "octasoku.toml",
        "icosoku-fixed.toml",
        "icosoku-unsat.toml",
    ] {
        let inst = load(name);
        if let Ok(compiled) = sokuc::soku::compile(&inst) {
            assert_faces(name, &compiled);
        }
        assert_faces(&format!("{name} without presolve"), &sokuc::soku::compile_plain(&inst));
    }
    for file in ["icosoku100.txt", "hard-unsat50.txt", "unsat-icosoku100.txt"] {
        let path = common::root().join("instances/batches").join(file);
        for item in batch::read_batch(&path).unwrap() {
            let what = format!("{file} line {}", item.line);
            if let Ok(compiled) = sokuc::soku::compile(&item.instance) {
                assert_faces(&what, &compiled);
            }
            assert_faces(
                &format!("{what} without presolve"),
                &sokuc::soku::compile_plain(&item.instance),
            );
        }
    }
}

/// The choice depends on the formula only: the same formula gives the same groups.
#[test]
fn the_choice_is_deterministic() {
    let compiled = sokuc::soku::compile(&load("octasoku.toml")).unwrap();
    let first = cp::integer_groups(&compiled.model.formula);
    for _ in 0..5 {
        assert_eq!(cp::integer_groups(&compiled.model.formula), first);
    }
}

/// A tiny LCG, so the random formulas are the same on every run.
fn next(seed: &mut u64) -> u64 {
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    *seed >> 33
}

/// A random "assignment" formula over at most 12 variables: exactly-one groups (the cp
/// backend's integers), counting rows across them (`AtMostOne`, `ExactlyOne`, unit-coefficient
/// linear rows with any comparison and right sides from -1 to 4, so also rows no count can
/// meet, rows that force every member and rows that overlap an earlier one), and sometimes a
/// weighted row over them.
fn assignment_formula(seed: &mut u64) -> PbFormula {
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut n = 0u32;
    while n < 9 {
        let len = 1 + (next(seed) % 3) as u32;
        groups.push((n..n + len).collect());
        n += len;
    }
    let mut f = PbFormula::new(n);
    for g in &groups {
        f.add(
            "group",
            Constraint::ExactlyOne(g.iter().map(|&v| Lit::new(Var(v), true)).collect()),
        );
    }
    for _ in 0..1 + next(seed) % 4 {
        let mut vars: Vec<u32> = (0..n).filter(|_| next(seed).is_multiple_of(3)).collect();
        if vars.is_empty() {
            vars.push((next(seed) % n as u64) as u32);
        }
        let lits: Vec<Lit> = vars.iter().map(|&v| Lit::new(Var(v), true)).collect();
        let c = match next(seed) % 5 {
            0 => Constraint::AtMostOne(lits),
            1 => Constraint::ExactlyOne(lits),
            k => {
                let cmp = [Cmp::Eq, Cmp::Le, Cmp::Ge][k as usize - 2];
                let rhs = (next(seed) % 6) as i64 - 1;
                Constraint::Linear(Linear::new(lits.into_iter().map(|l| (1, l)).collect(), cmp, rhs))
            }
        };
        f.add("count", c);
    }
    if next(seed).is_multiple_of(2) {
        let mut terms: Vec<(i64, Lit)> = Vec::new();
        for v in 0..n {
            if next(seed).is_multiple_of(2) {
                terms.push(((next(seed) % 4) as i64, Lit::new(Var(v), true)));
            }
        }
        let rhs = (next(seed) % 5) as i64;
        f.add("weights", Constraint::Linear(Linear::new(terms, Cmp::Le, rhs)));
    }
    f
}

/// As [`assignment_formula`], plus a weighted row over negated literals as well (`c·¬x`
/// of a group's variable is the group's table with `c` at every other value), with
/// coefficients of both signs and any comparison.
fn negated_formula(seed: &mut u64) -> PbFormula {
    let mut f = assignment_formula(seed);
    let n = f.num_vars();
    let mut terms: Vec<(i64, Lit)> = Vec::new();
    for v in 0..n {
        if !next(seed).is_multiple_of(3) {
            let c = (next(seed) % 7) as i64 - 3;
            terms.push((c, Lit::new(Var(v), next(seed).is_multiple_of(2))));
        }
    }
    let cmp = [Cmp::Eq, Cmp::Le, Cmp::Ge][(next(seed) % 3) as usize];
    let rhs = (next(seed) % 9) as i64 - 4;
    f.add("signed", Constraint::Linear(Linear::new(terms, cmp, rhs)));
    f
}

fn brute_force_sat(f: &PbFormula) -> bool {
    let n = f.num_vars() as usize;
    (0u32..1 << n).any(|m| {
        f.evaluate(&(0..n).map(|i| m >> i & 1 == 1).collect::<Vec<bool>>())
            .is_ok()
    })
}

/// Counting rows over labels (`counts.rs`: one label integer per group, the count propagator,
/// its Hall-set check) answer as brute force does, and as the same rows posted over
/// indicators, on many small formulas; every model is checked against the formula.
#[test]
fn label_counts_match_brute_force() {
    let settings = [
        ("labels, Hall sets", "counts=labels,hall=on"),
        ("labels", "counts=labels,hall=off"),
        ("rows", "counts=rows"),
    ];
    let mut seed = 15u64;
    let (mut sat, mut unsat) = (0, 0);
    for i in 0..400 {
        let f = assignment_formula(&mut seed);
        let want = brute_force_sat(&f);
        if want {
            sat += 1;
        } else {
            unsat += 1;
        }
        for (what, spec) in settings {
            let options = cp::CpOptions::default().with_spec(spec).unwrap();
            let mut b = cp::Cp { options };
            let opts = SolveOptions {
                seed: Some(i),
                ..Default::default()
            };
            let what = format!("formula {i} ({what}): {f:?}");
            let o = b.solve(&f, &opts).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(o.status == Status::Sat, want, "{what}: {:?}", o.status);
            assert_ne!(o.status, Status::Unknown, "{what}");
            if let Some(a) = &o.assignment {
                assert!(f.evaluate(a).is_ok(), "{what}: the model violates the formula");
            }
        }
    }
    // Both answers occur often enough for the comparison to mean something.
    assert!(sat >= 50 && unsat >= 50, "sat {sat}, unsat {unsat}");
}

/// Rows with negated literals of the groups' variables, and coefficients of both signs, answer
/// as brute force does; every model is checked against the formula.
#[test]
fn negated_group_literals_match_brute_force() {
    let mut seed = 77u64;
    let (mut sat, mut unsat) = (0, 0);
    for i in 0..400 {
        let f = negated_formula(&mut seed);
        let want = brute_force_sat(&f);
        if want {
            sat += 1;
        } else {
            unsat += 1;
        }
        let mut b = cp::Cp::default();
        let what = format!("formula {i}: {f:?}");
        let o = b
            .solve(&f, &SolveOptions::default())
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(o.status == Status::Sat, want, "{what}: {:?}", o.status);
        if let Some(a) = &o.assignment {
            assert!(f.evaluate(a).is_ok(), "{what}: the model violates the formula");
        }
    }
    assert!(sat >= 50 && unsat >= 50, "sat {sat}, unsat {unsat}");
}

/// Rows wider than pumpkin is given in one piece (over partial sums): at their bound they
/// are satisfiable, one past it they are not, on free variables, on negated ones, and on
/// groups' variables, both sides of the bound and as an equality. (Each is decided by
/// propagation: units fix variables, so no search over a wide cardinality row is needed.)
#[test]
fn wide_rows_hold_at_their_bound_and_fail_one_past_it() {
    let n = 15_000u32;
    let all = |positive: bool| -> Vec<(i64, Lit)> { (0..n).map(|v| (1, Lit::new(Var(v), positive))).collect() };
    let units = |f: &mut PbFormula, count: u32, positive: bool| {
        for v in 0..count {
            f.add("unit", Constraint::Clause(vec![Lit::new(Var(v), positive)]));
        }
    };
    let solve = |f: &PbFormula| {
        let o = cp::Cp::default().solve(f, &SolveOptions::default()).unwrap();
        if let Some(a) = &o.assignment {
            assert!(f.evaluate(a).is_ok(), "a model that breaks the formula");
        }
        o.status
    };
    for (shift, want) in [(0, Status::Sat), (1, Status::Unsat)] {
        // At least 10000 true, with 5000 + shift fixed false.
        let mut f = PbFormula::new(n);
        units(&mut f, 5000 + shift as u32, false);
        f.add("ones", Constraint::Linear(Linear::new(all(true), Cmp::Ge, 10_000)));
        assert_eq!(solve(&f), want, "free variables, shift {shift}");
        // At least 10000 false, with 5000 + shift fixed true.
        let mut f = PbFormula::new(n);
        units(&mut f, 5000 + shift as u32, true);
        f.add("zeros", Constraint::Linear(Linear::new(all(false), Cmp::Ge, 10_000)));
        assert_eq!(solve(&f), want, "negated variables, shift {shift}");
        // Exactly 4500 true, with 4500 + shift fixed true.
        let mut f = PbFormula::new(n);
        units(&mut f, 4500 + shift as u32, true);
        f.add("exactly", Constraint::Linear(Linear::new(all(true), Cmp::Eq, 4500)));
        assert_eq!(solve(&f), want, "an equality, shift {shift}");
        // On variables in exactly-one groups of three, a row over their negations: with
        // weights 2, 1, 1 a group adds 4 minus the weight of its chosen variable, so the row
        // is 2 per group at least (10000), when every group's first variable is chosen.
        let mut f = PbFormula::new(n);
        for g in 0..n / 3 {
            f.add(
                "group",
                Constraint::ExactlyOne((3 * g..3 * g + 3).map(|v| Var(v).pos()).collect()),
            );
        }
        let weights: Vec<(i64, Lit)> = (0..n)
            .map(|v| (if v % 3 == 0 { 2 } else { 1 }, Var(v).negative()))
            .collect();
        f.add(
            "weights",
            Constraint::Linear(Linear::new(weights, Cmp::Le, 10_000 - shift)),
        );
        assert_eq!(solve(&f), want, "groups, shift {shift}");
    }
}
