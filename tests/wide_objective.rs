//! Objectives wider than 64 bits, minimised in stages over the bits of their value, on every
//! backend of the build, checked against brute force in this file's own exact arithmetic.
//!
//! Each file has 10 variables, a few rows and an objective whose coefficients have 64 to
//! 140 bits (either sign, with product terms, `min:` or `max:`), so the brute force is 1,024
//! assignments and every backend proves the optimum well within the limit. A proven optimum
//! must be the brute-force one, a model's value must be what the file's terms give, the `o`
//! lines must improve strictly and end at the answer's value, and `sokuc check` must accept
//! the model.

mod common;

use common::{Rng, sokuc};
use num_bigint::BigInt;
use serde_json::Value;
use sokuc::backend::Algorithms;

const VARS: usize = 10;

/// One term: a coefficient over one or two literals (variable index from 1, negated?).
struct Term {
    coef: BigInt,
    lits: Vec<(usize, bool)>,
}

/// A `>=` row: `(coefficient, variable, negated)` terms and the right-hand side.
type Row = (Vec<(i64, usize, bool)>, i64);

struct File {
    text: String,
    objective: Vec<Term>,
    maximise: bool,
    /// `(terms, rhs)` of `>=` rows over small coefficients.
    rows: Vec<Row>,
}

fn big(rng: &mut Rng, bits: u32) -> BigInt {
    let mut x = BigInt::from(1u8);
    for _ in 1..bits {
        x = (x << 1) + rng.below(2);
    }
    if rng.below(3) == 0 { -x } else { x }
}

/// Coefficient widths of the wide objectives: 64 to 140 bits.
const WIDE: (u32, u64) = (64, 77);

fn generate(seed: u64) -> File {
    generate_with(seed, WIDE)
}

/// A random file whose objective's coefficients have `lo` to `lo + span - 1` bits.
fn generate_with(seed: u64, (lo, span): (u32, u64)) -> File {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let maximise = rng.below(2) == 1;
    let mut objective = Vec::new();
    for _ in 0..6 + rng.below(5) {
        let bits = lo + rng.below(span) as u32;
        let n = 1 + rng.below(2) as usize;
        let lits = (0..n)
            .map(|_| (1 + rng.below(VARS as u64) as usize, rng.below(4) == 0))
            .collect();
        objective.push(Term {
            coef: big(&mut rng, bits),
            lits,
        });
    }
    let mut rows = Vec::new();
    for _ in 0..2 + rng.below(3) {
        let terms: Vec<(i64, usize, bool)> = (0..4)
            .map(|_| {
                (
                    1 + rng.below(5) as i64,
                    1 + rng.below(VARS as u64) as usize,
                    rng.below(3) == 0,
                )
            })
            .collect();
        let total: i64 = terms.iter().map(|t| t.0).sum();
        rows.push((terms, rng.below(total as u64 + 1) as i64));
    }
    let lit = |v: usize, neg: bool| format!("{}x{v}", if neg { "~" } else { "" });
    let mut text = format!("* #variable= {VARS} #constraint= {}\n", rows.len());
    text.push_str(if maximise { "max:" } else { "min:" });
    for t in &objective {
        let sign = if t.coef < BigInt::from(0) { "" } else { "+" };
        let lits: Vec<String> = t.lits.iter().map(|&(v, n)| lit(v, n)).collect();
        text.push_str(&format!(" {sign}{} {}", t.coef, lits.join(" ")));
    }
    text.push_str(" ;\n");
    for (terms, rhs) in &rows {
        for (c, v, n) in terms {
            text.push_str(&format!("+{c} {} ", lit(*v, *n)));
        }
        text.push_str(&format!(">= {rhs} ;\n"));
    }
    File {
        text,
        objective,
        maximise,
        rows,
    }
}

fn holds(values: &[bool], v: usize, neg: bool) -> bool {
    values[v - 1] != neg
}

/// The objective's value as the file states it (`max:` not negated).
fn value(f: &File, values: &[bool]) -> BigInt {
    f.objective
        .iter()
        .filter(|t| t.lits.iter().all(|&(v, n)| holds(values, v, n)))
        .map(|t| &t.coef)
        .sum()
}

fn feasible(f: &File, values: &[bool]) -> bool {
    f.rows.iter().all(|(terms, rhs)| {
        let lhs: i64 = terms.iter().filter(|t| holds(values, t.1, t.2)).map(|t| t.0).sum();
        lhs >= *rhs
    })
}

/// The best value over all assignments, `None` when no assignment satisfies the rows.
fn brute_force(f: &File) -> Option<BigInt> {
    (0..1u32 << VARS)
        .map(|bits| (0..VARS).map(|i| bits >> i & 1 == 1).collect::<Vec<bool>>())
        .filter(|a| feasible(f, a))
        .map(|a| value(f, &a))
        .reduce(|a, b| if (b < a) != f.maximise { b } else { a })
}

fn model_values(v: &Value) -> Vec<bool> {
    let mut values = vec![false; VARS];
    for l in v["model"].as_array().expect("a model") {
        let l = l.as_i64().unwrap();
        if l > 0 {
            values[l as usize - 1] = true;
        }
    }
    values
}

#[test]
fn every_backend_proves_the_brute_force_optimum() {
    every_backend_against_brute_force(WIDE);
}

/// Objectives narrow enough for one 64-bit sum (at most 10 terms below 2^58: under 2^62),
/// with coefficients past the 40 bits that `mip` and `highs` give their solver as they are:
/// their guide is scaled, and the optimum must still be the brute-force one.
#[test]
fn objectives_just_below_62_bits_on_every_backend() {
    every_backend_against_brute_force((55, 4));
}

/// Objectives between 2^19 and 2^32 (6 to 10 terms of 19 to 22 bits): `mip` proves their
/// optima with bound rows, `highs` with its dual bound judged on the model's exact value;
/// both must be the brute-force one.
#[test]
fn objectives_between_2_to_the_19_and_2_to_the_32_on_every_backend() {
    every_backend_against_brute_force((19, 4));
}

/// `auto` with a seed on the files of the first two tests above (64 to 140 bits, and 55 to
/// 58). A seed keeps out mitm, which would take these 10 variables whole in any build, so the
/// engines of the build decide the route: with highs or mip, an objective goes to them (a
/// wider one in 61-bit stages); in a default build, the wider objective is staged at 29 bits
/// for cp, and the 55-bit one goes to search alone. Either way the optimum is brute force's.
#[test]
fn auto_proves_wide_objectives_with_the_engines_of_this_build() {
    against_brute_force((55, 4), &["auto"], &["--seed", "1"]);
    against_brute_force(WIDE, &["auto"], &["--seed", "1"]);
    let available = sokuc::backend::available();
    let engine = ["highs", "mip"]
        .into_iter()
        .find(|b| available.contains(b))
        .unwrap_or("cp");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wide.opb");
    std::fs::write(&path, generate(1).text).unwrap();
    let o = sokuc()
        .arg("solve")
        .arg(&path)
        .args(["--format", "json", "--seed", "1"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let extra = &v["stats"]["extra"];
    assert!(
        extra["auto"]
            .as_str()
            .unwrap()
            .ends_with(&format!("optimised by {engine}")),
        "{v}"
    );
    assert!(extra["objective_stages"].is_string(), "{v}");
}

/// On files 1 to 8 with coefficients of `bits`: every backend answers as brute force, with
/// a model whose value is the one reported, proven optimal.
fn every_backend_against_brute_force(bits: (u32, u64)) {
    against_brute_force(bits, &sokuc::backend::available(), &[]);
}

/// [`every_backend_against_brute_force`] on `backends`, each run with `extra` arguments.
fn against_brute_force(bits: (u32, u64), backends: &[&str], extra: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let mut sat = 0;
    for seed in 1..=8u64 {
        let f = generate_with(seed, bits);
        let path = dir.path().join(format!("wide-{seed}.opb"));
        std::fs::write(&path, &f.text).unwrap();
        let want = brute_force(&f);
        sat += usize::from(want.is_some());
        for &backend in backends {
            let what = format!("seed {seed}, {backend}:\n{}", f.text);
            let o = sokuc()
                .arg("solve")
                .arg(&path)
                .args(["--backend", backend, "--format", "json", "--timeout", "60"])
                .args(extra)
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&o.stderr);
            let v: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{what}\n{e}: {stderr}"));
            // Chosen by name, `cp` refuses an objective past its 32-bit numbers (one that
            // is not staged): exit 2, saying why.
            if backend == "cp" && bits.0 < 62 && v["status"] == "error" {
                assert_eq!(o.status.code(), Some(2), "{what}\n{v}");
                assert!(v["message"].as_str().unwrap().contains("2^30"), "{what}\n{v}");
                continue;
            }
            // `mitm` takes an objective whole, in 128-bit sums: one of 126 bits or more it
            // refuses by name, exit 2, saying why.
            if backend == "mitm" && v["status"] == "error" {
                assert_eq!(o.status.code(), Some(2), "{what}\n{v}");
                assert!(v["message"].as_str().unwrap().contains("126 bits"), "{what}\n{v}");
                continue;
            }
            let Some(want) = &want else {
                assert_eq!(v["status"], "unsat", "{what}\n{v}");
                continue;
            };
            assert_eq!(v["status"], "sat", "{what}\n{v}");
            assert_eq!(v["verified"], true, "{what}");
            let values = model_values(&v);
            assert!(feasible(&f, &values), "{what}: {values:?}");
            let got: BigInt = v["objective"].as_str().unwrap().parse().unwrap();
            assert_eq!(got, value(&f, &values), "{what}: the reported value is not the model's");
            assert_eq!(v["optimal"], true, "{what}\n{v}");
            assert_eq!(&got, want, "{what}");
        }
    }
    // Both kinds of answer came up.
    assert!((1..8).contains(&sat), "{sat} of 8 files are satisfiable");
}

/// Competition output: the `o` lines improve strictly (down for `min:`, up for `max:`),
/// the last is the brute-force optimum, and `check` accepts the answer as it was printed.
#[test]
fn o_lines_improve_and_the_answer_checks() {
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for seed in 20..=30u64 {
        let f = generate(seed);
        let Some(want) = brute_force(&f) else { continue };
        let path = dir.path().join(format!("wide-{seed}.opb"));
        std::fs::write(&path, &f.text).unwrap();
        let o = sokuc()
            .arg("solve")
            .arg(&path)
            .args(["--timeout", "60"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        assert_eq!(
            o.status.code(),
            Some(30),
            "{text}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(text.contains("s OPTIMUM FOUND"), "{text}");
        let os: Vec<BigInt> = text
            .lines()
            .filter_map(|l| l.strip_prefix("o "))
            .map(|x| x.parse().unwrap())
            .collect();
        assert_eq!(os.last(), Some(&want), "{text}");
        for w in os.windows(2) {
            assert!((w[1] < w[0]) != f.maximise, "not an improvement: {os:?}");
        }
        let answer = dir.path().join(format!("wide-{seed}.out"));
        std::fs::write(&answer, &text).unwrap();
        let c = sokuc().arg("check").arg(&path).arg(&answer).output().unwrap();
        assert!(
            c.status.success(),
            "{}{}",
            String::from_utf8_lossy(&c.stdout),
            String::from_utf8_lossy(&c.stderr)
        );
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} satisfiable files");
}

/// `--emit`: the formats with an objective cannot hold one past 64 bits, so they refuse it
/// in one line naming the file (exit 2); DIMACS has no objective and writes the rows.
#[test]
fn exports_with_an_objective_refuse_it_and_dimacs_writes_the_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wide.opb");
    std::fs::write(&path, generate(3).text).unwrap();
    for format in ["opb", "lp", "mps", "mzn"] {
        let o = sokuc()
            .arg("solve")
            .arg(&path)
            .args(["--emit", format])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{format}: {stderr}");
        assert!(o.stdout.is_empty(), "{format}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("wide.opb") && stderr.contains("wider than 62 bits"),
            "{stderr}"
        );
    }
    let o = sokuc()
        .arg("solve")
        .arg(&path)
        .args(["--emit", "dimacs"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("p cnf "));
}

/// A backend that optimises the first stage on `sat`, then fails every later stage: with
/// an error, or by calling the stage infeasible (which the best solution satisfies).
struct FailsLater {
    calls: usize,
    refute: bool,
    sat: Box<dyn sokuc::backend::Backend>,
}

impl sokuc::backend::Backend for FailsLater {
    fn name(&self) -> &'static str {
        "fails-later"
    }

    fn capabilities(&self) -> sokuc::backend::Capabilities {
        self.sat.capabilities()
    }

    fn solve(
        &mut self,
        formula: &sokuc::ir::PbFormula,
        opts: &sokuc::backend::SolveOptions,
    ) -> Result<sokuc::backend::Outcome, sokuc::backend::BackendError> {
        self.sat.solve(formula, opts)
    }

    fn objective_stage_bits(&self) -> u32 {
        20
    }

    fn optimise_natively(
        &mut self,
        formula: &sokuc::ir::PbFormula,
        opts: &sokuc::backend::SolveOptions,
        improved: &mut sokuc::backend::Improved<'_>,
    ) -> Option<Result<sokuc::backend::Optimum, sokuc::backend::BackendError>> {
        self.calls += 1;
        Some(match (self.calls, self.refute) {
            (1, _) => self.sat.optimise(formula, opts, improved),
            (_, true) => Ok(sokuc::backend::Optimum {
                status: sokuc::backend::Status::Unsat,
                optimal: false,
                stats: Default::default(),
            }),
            (_, false) => Err(sokuc::backend::BackendError::Solver {
                backend: "fails-later",
                message: "gave up".into(),
            }),
        })
    }
}

/// A later stage that fails leaves the first stage's solution, checked and unproven; one
/// that calls its stage infeasible is a contradiction (exit 1), never an answer "unsat".
#[test]
fn a_failing_later_stage_keeps_the_best_solution_unproven() {
    let dir = tempfile::tempdir().unwrap();
    let f = (1..100u64).map(generate).find(|f| brute_force(f).is_some()).unwrap();
    let path = dir.path().join("wide.opb");
    std::fs::write(&path, &f.text).unwrap();
    let p = sokuc::registry::load(&path, None).unwrap();
    for refute in [false, true] {
        let mut b = FailsLater {
            calls: 0,
            refute,
            sat: sokuc::backend::by_name("sat").unwrap(),
        };
        let r = p
            .solve(&mut b, &sokuc::run::RunOptions::default(), false)
            .unwrap_or_else(|e| panic!("refute {refute}: {e}"));
        assert!(b.calls >= 2, "only {} stages", b.calls);
        assert_eq!(r.status, sokuc::backend::Status::Sat);
        assert!(r.verified);
        assert_eq!(r.optimal, Some(false));
        let stages = r.stats.extra["objective_stages"].as_str().unwrap();
        assert!(stages.starts_with("2 of "), "{stages}");
        if refute {
            assert!(
                r.contradiction.as_deref().unwrap().contains("infeasible"),
                "{:?}",
                r.contradiction
            );
            assert_eq!(r.exit_code(), 1);
        } else {
            assert!(r.contradiction.is_none());
            assert!(
                r.stats.extra["objective_stage_failed"]
                    .as_str()
                    .unwrap()
                    .contains("gave up")
            );
        }
    }
}

/// A formula of [`SMALL`] variables with a few `>=` rows over small coefficients and an
/// objective of `terms` terms whose coefficients are drawn from `lo..hi` in magnitude, on
/// negated literals where `negated` says so, each of either sign; `sign` fixes the sign of
/// the terms on negated literals (and so of the constant `c·~x = c - c·x` leaves) where
/// given.
fn small_formula(seed: u64, terms: usize, (lo, hi): (i64, i64), sign: Option<i64>) -> sokuc::ir::PbFormula {
    use sokuc::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Var};
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut f = PbFormula::new(SMALL as u32);
    let mut objective = Vec::new();
    for i in 0..terms {
        let v = Var((i % SMALL) as u32);
        let negated = rng.below(2) == 0;
        let magnitude = lo + rng.below((hi - lo) as u64) as i64;
        let s = match sign {
            Some(s) if negated => s,
            _ if rng.below(2) == 0 => -1,
            _ => 1,
        };
        objective.push((s * magnitude, Lit::new(v, !negated)));
    }
    for r in 0..3 {
        let row: Vec<(i64, Lit)> = (0..4)
            .map(|_| {
                let v = Var(rng.below(SMALL as u64) as u32);
                (1 + rng.below(4) as i64, Lit::new(v, rng.below(3) != 0))
            })
            .collect();
        let total: i64 = row.iter().map(|t| t.0).sum();
        let rhs = 1 + rng.below(total as u64 - 1) as i64;
        f.add(format!("row {r}"), Constraint::Linear(Linear::new(row, Cmp::Ge, rhs)));
    }
    f.set_objective(Some(objective));
    f
}

/// The variables of [`small_formula`]: 2^12 assignments to brute-force.
const SMALL: usize = 12;

/// The least objective value over the assignments that satisfy the rows.
fn least(f: &sokuc::ir::PbFormula) -> Option<i64> {
    (0..1u32 << SMALL)
        .map(|bits| (0..SMALL).map(|i| bits >> i & 1 == 1).collect::<Vec<bool>>())
        .filter(|a| f.evaluate(a).is_ok())
        .filter_map(|a| f.objective_value(&a))
        .min()
}

/// The constant the objective's negated literals leave: `Σ c` over its `c·~x` terms.
#[cfg(feature = "highs")]
fn constant(f: &sokuc::ir::PbFormula) -> i64 {
    f.objective()
        .unwrap()
        .iter()
        .filter(|t| !t.1.is_positive())
        .map(|t| t.0)
        .sum()
}

/// `backend` minimises `f`: the optimum must be the brute-force one and proven; returns the
/// optimum's stats.
fn optimum(backend: &str, f: &sokuc::ir::PbFormula, what: &str) -> sokuc::backend::SolveStats {
    let want = least(f).unwrap_or_else(|| panic!("{what}: no assignment satisfies the rows"));
    let mut best = None;
    let mut improved = |a: &[bool]| {
        assert!(f.evaluate(a).is_ok(), "{what}: a model that breaks a row");
        best = f.objective_value(a);
        std::ops::ControlFlow::Continue(())
    };
    let opts = sokuc::backend::SolveOptions {
        time_limit: Some(std::time::Duration::from_secs(60)),
        ..Default::default()
    };
    let o = sokuc::backend::by_name(backend)
        .unwrap()
        .optimise(f, &opts, &mut improved)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(o.status, sokuc::backend::Status::Sat, "{what}");
    assert!(o.optimal, "{what}: not proven, {:?}", o.stats.extra);
    assert_eq!(best, Some(want), "{what}");
    o.stats
}

fn route(stats: &sokuc::backend::SolveStats) -> &str {
    stats.extra["optimise"].as_str().unwrap()
}

/// `highs` on objectives between 2^19 and 2^32 with terms over negated literals, the
/// constant they leave of either sign: HiGHS's dual bound is on the columns' terms alone,
/// and judged with the constant added it proves every optimum (HiGHS finished, so its bound
/// is its optimum's value), always the brute-force one. Judged without it, a positive
/// constant kept the bound from ever proving anything (and a negative one let any bound
/// prove, which `a_bound_off_by_the_objective_constant_proves_nothing` in
/// crates/engines/src/mip/wide_objective.rs pins).
#[cfg(feature = "highs")]
#[test]
fn highs_proves_wide_objectives_over_negated_literals_by_its_dual_bound() {
    let mut signs = [0, 0];
    for seed in 1..=12u64 {
        let sign = if seed % 2 == 0 { 1 } else { -1 };
        let f = small_formula(seed, 10, (1 << 18, 1 << 21), Some(sign));
        let k = constant(&f);
        let width: u64 = f.objective().unwrap().iter().map(|t| t.0.unsigned_abs()).sum();
        assert!(((1 << 19)..(1 << 32)).contains(&width), "seed {seed}: width {width}");
        if least(&f).is_none() || k == 0 {
            continue;
        }
        signs[usize::from(k > 0)] += 1;
        let what = format!("seed {seed}, constant {k}");
        let stats = optimum("highs", &f, &what);
        assert!(route(&stats).contains("its dual bound"), "{what}: {}", route(&stats));
        match &stats.basis.bound {
            Some(sokuc::backend::Bound::DualBound { engine, margin }) => {
                assert_eq!(engine, "highs", "{what}");
                assert!(*margin >= 0.5, "{what}: margin {margin}");
            }
            other => panic!("{what}: {other:?}"),
        }
    }
    assert!(signs[0] >= 2 && signs[1] >= 2, "constants of each sign: {signs:?}");
}

/// Objectives whose coefficients add up to between 2^18 and 2^19, and to about 10^6: past
/// the width where a solver's rounding drift and its allowed gap add up to less than 1
/// (`MIP_OBJECTIVE_LIMIT`), so the optimum is proven by a bound row refuted (`mip`) or by
/// HiGHS's dual bound judged on the exact value (`highs`), never on the solver's word; and
/// it is the brute-force one.
#[test]
fn objectives_near_a_million_are_proven_and_not_on_the_solvers_word() {
    let backends: Vec<&str> = ["mip", "highs"]
        .into_iter()
        .filter(|b| sokuc::backend::available().contains(b))
        .collect();
    let mut solved = 0;
    for seed in 1..=8u64 {
        // 10 terms of 26,215 to 52,428: 2^18 to 2^19; or of 80,000 to 120,000: about 10^6.
        let range = if seed % 2 == 0 {
            (26_215, 52_428)
        } else {
            (80_000, 120_000)
        };
        let f = small_formula(seed, 10, range, None);
        let width: u64 = f.objective().unwrap().iter().map(|t| t.0.unsigned_abs()).sum();
        if seed % 2 == 0 {
            assert!(((1 << 18)..(1 << 19)).contains(&width), "seed {seed}: width {width}");
        }
        if least(&f).is_none() {
            continue;
        }
        for &b in &backends {
            let what = format!("seed {seed}, {b}, width {width}");
            let stats = optimum(b, &f, &what);
            assert!(route(&stats).contains("wide objective"), "{what}: {}", route(&stats));
            match (b, &stats.basis.bound) {
                ("mip", Some(sokuc::backend::Bound::Refuted { engine })) => assert_eq!(engine, "mip"),
                ("highs", Some(sokuc::backend::Bound::DualBound { engine, .. })) => assert_eq!(engine, "highs"),
                ("highs", Some(sokuc::backend::Bound::Refuted { engine })) => assert_eq!(engine, "highs"),
                (_, other) => panic!("{what}: {other:?}"),
            }
            solved += 1;
        }
    }
    assert!(backends.is_empty() || solved >= 4 * backends.len(), "{solved} optima");
}

/// What proved an optimum is recorded in `stats.basis.bound`, by the route that proved it:
/// the solver's own search below `MIP_OBJECTIVE_LIMIT` (`Native`), HiGHS's dual bound up to
/// 2^32 (`DualBound`, with its margin), and past it, or on CBC, a bound row refuted
/// (`Refuted`).
#[test]
fn each_route_records_what_proved_the_optimum() {
    use sokuc::backend::Bound;
    let available = sokuc::backend::available();
    // (backend, coefficient magnitudes, the bound expected)
    type Case = (&'static str, (i64, i64), fn(&Bound) -> bool);
    let cases: [Case; 5] = [
        (
            "mip",
            (1, 20_000),
            |b| matches!(b, Bound::Native { engine } if engine == "mip"),
        ),
        (
            "highs",
            (1, 20_000),
            |b| matches!(b, Bound::Native { engine } if engine == "highs"),
        ),
        (
            "mip",
            (1 << 20, 1 << 22),
            |b| matches!(b, Bound::Refuted { engine } if engine == "mip"),
        ),
        (
            "highs",
            (1 << 20, 1 << 22),
            |b| matches!(b, Bound::DualBound { engine, margin } if engine == "highs" && *margin >= 0.5),
        ),
        (
            "highs",
            (1 << 30, 1 << 31),
            |b| matches!(b, Bound::Refuted { engine } if engine == "highs"),
        ),
    ];
    for (backend, range, expected) in cases {
        if !available.contains(&backend) {
            continue;
        }
        let f = (1..100u64)
            .map(|seed| small_formula(seed, 8, range, None))
            .find(|f| least(f).is_some())
            .unwrap();
        let what = format!("{backend}, coefficients in {range:?}");
        let stats = optimum(backend, &f, &what);
        let bound = stats
            .basis
            .bound
            .as_ref()
            .unwrap_or_else(|| panic!("{what}: no bound recorded"));
        assert!(expected(bound), "{what}: {bound:?}");
    }
}
