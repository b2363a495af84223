//! `--backend auto`: the rule picks the engine the documentation says, the hand-over from
//! search to a CDCL engine gives the same verdicts as the engines alone, and the answer names
//! the engine that answered. (The shared backend suite in tests/backends.rs and the
//! differential tests with their degenerate 3SoKu families run on `auto` too.)

mod common;

use sokuc::backend::{self, Backend, SolveOptions, Status, auto};
use sokuc::input::batch::read_batch;
use sokuc::puzzle::Puzzle;
use sokuc::run::{self, LpMode, RunOptions};

use common::Presolve;

fn formula_of<P: Puzzle>(p: &P) -> sokuc::ir::PbFormula {
    let c = p.compile(&Presolve::On.compile()).expect("not refuted by presolve");
    p.formula(&c).clone()
}

#[test]
fn the_rule_picks_search_for_groups_and_rows_and_sat_for_clause_heavy_formulas() {
    let root = common::root();
    let soku = sokuc::input::instance_file::read_instance(&root.join("instances/icosoku-seed.toml")).unwrap();
    let plan = auto::plan(&formula_of(&soku), &SolveOptions::default()).unwrap();
    assert!(plan.search_first, "{plan:?}");
    assert_eq!(plan.engine, "sat");

    let tt = sokuc::registry::load(&root.join("instances/trickytriple/generated/gen-15x15-seed3.tt"), None).unwrap();
    let mut b = backend::by_name("auto").unwrap();
    let r = tt.solve(b.as_mut(), &RunOptions::default(), false).unwrap();
    assert_eq!(r.status, Status::Sat);
    assert!(r.verified);
    assert_eq!(r.backend, "sat", "a clause-heavy grid goes to CDCL straight away");
    assert_eq!(r.json["backend"], "sat");
    let why = r.stats.extra["auto"].as_str().unwrap().to_string();
    assert!(why.contains("clause-heavy"), "{why}");

    // A proof needs an engine that writes one; a seed one that takes it.
    let proof = SolveOptions {
        proof: Some("unused.drat".into()),
        ..Default::default()
    };
    let plan = auto::plan(&formula_of(&soku), &proof).unwrap();
    assert!(!plan.search_first);
    assert!(backend::by_name(plan.engine).unwrap().capabilities().proof);
    let seeded = SolveOptions {
        seed: Some(7),
        ..Default::default()
    };
    let plan = auto::plan(&formula_of(&soku), &seeded).unwrap();
    assert!(plan.search_first);
    assert!(backend::by_name(plan.engine).unwrap().capabilities().seed, "{plan:?}");
}

/// A knapsack-like row (over at least half of the variables and 16 terms, coefficients of
/// more than one size) hands the formula to CBC, beside HiGHS, instead of clause learning;
/// a cardinality row, a row over fewer variables, a seed or a row past CBC's numbers keep
/// the CDCL engine.
#[test]
fn a_knapsack_row_goes_to_cbc_where_this_build_has_it() {
    use sokuc::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Var};
    let formula = |vars: u32, terms: u32, coef: &dyn Fn(u32) -> i64| {
        let mut f = PbFormula::new(vars);
        let row: Vec<(i64, Lit)> = (0..terms).map(|v| (coef(v), Lit::new(Var(v), true))).collect();
        let rhs = row.iter().map(|t| t.0).sum::<i64>() / 2;
        f.add("split", Constraint::Linear(Linear::new(row, Cmp::Eq, rhs)));
        f
    };
    let plain = SolveOptions::default();
    let engine = |f: &PbFormula, opts: &SolveOptions| auto::plan(f, opts).unwrap().engine;
    let cbc = if backend::available().contains(&"mip") {
        "mip"
    } else {
        "sat"
    };
    let uneven = |v: u32| i64::from(3 + (v * 37) % 90);
    assert_eq!(engine(&formula(50, 50, &uneven), &plain), cbc);
    assert_eq!(
        engine(&formula(32, 16, &uneven), &plain),
        cbc,
        "16 terms, half the variables"
    );
    assert_eq!(engine(&formula(50, 15, &uneven), &plain), "sat", "fewer than 16 terms");
    assert_eq!(
        engine(&formula(60, 29, &uneven), &plain),
        "sat",
        "under half the variables"
    );
    assert_eq!(engine(&formula(50, 50, &|_| 7), &plain), "sat", "one coefficient");
    assert_eq!(
        engine(&formula(50, 50, &|v| 1 + i64::from(v) * 40_000), &plain),
        "sat",
        "past 2^20"
    );
    let seeded = SolveOptions {
        seed: Some(7),
        ..Default::default()
    };
    assert_ne!(
        engine(&formula(50, 50, &uneven), &seeded),
        "mip",
        "a seed keeps an engine that takes it"
    );
}

/// A row past pumpkin's 2^30 (or 2^20, from which `mip` splits rows) is never planned for `cp` (or `mip`), even
/// where a seed rules out `sat`: the engine is one whose numbers hold it, or the plan is a
/// refusal.
#[test]
fn the_rule_never_hands_a_row_too_wide_for_an_engine_of_this_build_to_it() {
    use sokuc::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Var};
    for width in [(1i64 << 20) + 1, (1i64 << 30) + 1, (1i64 << 52) + 1] {
        let mut f = PbFormula::new(3);
        let terms = vec![
            (width - 1, Lit::new(Var(0), true)),
            (width - 2, Lit::new(Var(1), true)),
            (1, Lit::new(Var(2), true)),
        ];
        f.add("wide", Constraint::Linear(Linear::new(terms, Cmp::Eq, width - 1)));
        for seed in [None, Some(7)] {
            let opts = SolveOptions {
                seed,
                ..Default::default()
            };
            match auto::plan(&f, &opts) {
                Ok(plan) => {
                    assert!(plan.engine != "cp" || width < 1 << 30, "{width} {seed:?}");
                    assert!(!["mip", "highs"].contains(&plan.engine), "{width} {seed:?}");
                }
                Err(e) => assert!(seed.is_some() && !backend::available().contains(&"cadical"), "{e}"),
            }
        }
    }
}

#[test]
fn search_answers_easy_instances_and_the_answer_says_so() {
    let items = read_batch(&common::root().join("instances/batches/icosoku100.txt")).unwrap();
    for item in items.iter().take(20) {
        let mut b = auto::Auto::default();
        let r = run::solve(&item.instance, &mut b, &RunOptions::default()).unwrap();
        assert_eq!(r.answer.status, Status::Sat, "line {}", item.line);
        assert!(r.answer.verified);
        sokuc::soku::verify::verify(&item.instance, r.answer.solution.as_ref().unwrap()).unwrap();
        assert_eq!(r.answer.backend, "search", "line {}", item.line);
        assert_eq!(b.answered_by(), "search");
    }
}

/// With the LP off, the hard-unsat family is where search runs out of failures: auto must
/// hand over and still prove unsat, agreeing with sat alone; and whatever it answers, an
/// answer of search alone (no budget) is the same verdict.
#[test]
fn the_hand_over_keeps_the_verdicts_of_the_engines_alone() {
    let items = read_batch(&common::root().join("instances/batches/hard-unsat-lp.txt")).unwrap();
    let mut handed_over = 0;
    for item in items.iter().take(12) {
        let opts = RunOptions {
            lp: LpMode::Off,
            ..Default::default()
        };
        let mut b = auto::Auto::default();
        let r = run::solve(&item.instance, &mut b, &opts).unwrap();
        let mut sat = backend::by_name("sat").unwrap();
        let alone = run::solve(&item.instance, sat.as_mut(), &opts).unwrap();
        assert_eq!(r.answer.status, alone.answer.status, "line {}", item.line);
        assert_eq!(r.answer.status, Status::Unsat, "line {}", item.line);
        let why = r.stats.extra["auto"].as_str().unwrap();
        if r.answer.backend == "sat" {
            handed_over += 1;
            assert!(why.contains("gave up"), "{why}");
        } else {
            assert_eq!(r.answer.backend, "search");
        }
    }
    assert!(
        handed_over > 0,
        "no instance of the family was handed over: the test tests nothing"
    );
}

/// `--lp auto` with `auto`: search's quick attempt first, the LP only when it gives up. On
/// the hard-unsat family both paths must occur, every verdict is unsat, and an answer of the
/// quick attempt carries no LP statistics (the LP did not run).
#[test]
fn the_lp_runs_only_after_the_quick_attempt_gives_up() {
    let items = read_batch(&common::root().join("instances/batches/hard-unsat-lp.txt")).unwrap();
    let (mut by_lp, mut by_search) = (0, 0);
    for item in &items {
        let mut b = auto::Auto::default();
        let r = run::solve(&item.instance, &mut b, &RunOptions::default()).unwrap();
        assert_eq!(r.answer.status, Status::Unsat, "line {}", item.line);
        let reason = r.answer.reason.clone().unwrap();
        if reason.starts_with("LP relaxation: ") {
            by_lp += 1;
            assert_eq!(r.stats.extra["lp"], "refuted");
        } else {
            by_search += 1;
            assert_eq!(r.answer.backend, "search", "line {}: {reason}", item.line);
            assert!(!r.stats.extra.contains_key("lp"), "line {}: the LP ran", item.line);
        }
    }
    assert!(by_lp > 0 && by_search > 0, "LP {by_lp}, quick search {by_search}");
    // Satisfiable instances that search answers within the quick budget never pay for the LP.
    let sat = read_batch(&common::root().join("instances/batches/icosoku100.txt")).unwrap();
    let mut quick = 0;
    for item in sat.iter().take(30) {
        let mut b = auto::Auto::default();
        let r = run::solve(&item.instance, &mut b, &RunOptions::default()).unwrap();
        assert_eq!(r.answer.status, Status::Sat);
        assert!(r.answer.verified);
        let failures = r.stats.extra["failures"].as_u64().unwrap();
        if !r.stats.extra.contains_key("lp") {
            quick += 1;
            assert!(
                failures <= auto::QUICK_FAILURES + 1,
                "line {}: {failures} failures",
                item.line
            );
        }
    }
    assert!(quick >= 20, "only {quick} of 30 answered by the quick attempt");
}

/// Where one search node takes milliseconds (MIPLIB's nw04: 36 set-partitioning rows over
/// 87,482 variables), search never meets its failure budget: its time slice must hand the
/// formula on well before the limit, and the whole command must end near `--timeout`,
/// whatever engine answers. (Gross bounds: the slice is 1 s, the limit 10 s.)
#[test]
fn search_with_slow_nodes_hands_over_within_its_slice() {
    let file = common::root().join("instances/pb-bench/decision/miplib-nw04-leopt.opb.gz");
    let t = std::time::Instant::now();
    let o = common::sokuc()
        .arg("solve")
        .arg(&file)
        .args(["--timeout", "10", "--format", "json"])
        .output()
        .unwrap();
    let took = t.elapsed();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let why = v["stats"]["extra"]["auto"].as_str().unwrap_or_default();
    assert!(why.starts_with("search gave up within its budget"), "{v}");
    assert_ne!(v["backend"], "search", "{v}");
    assert!(
        took < std::time::Duration::from_secs(13),
        "{took:?} for a 10 s limit: {v}"
    );
    // The file is satisfiable (its objective bounded at MIPLIB's optimum): no engine may
    // say otherwise, and a model must check.
    assert_ne!(v["status"], "unsat", "{v}");
    if v["status"] == "sat" {
        assert_eq!(v["verified"], true, "{v}");
    }
}

/// A larger clause budget never answers less. The 24-face Partition reduction of 12 sizes up
/// to 10^6 (`generate 3soku --random-partition 12 --max-size 1000000 --seed 3`) is unsat; with
/// the default budget `auto` proves it in seconds. With `--max-clauses 10000000000000` it once
/// answered nothing within 60 s (and ran HiGHS for over 22 minutes without a limit). Both
/// budgets must prove it, well within the limit (gross bound: 30 s of a 120 s limit).
#[test]
fn a_larger_clause_budget_answers_as_fast_as_the_default_one() {
    let dir = tempfile::tempdir().unwrap();
    let generated = common::sokuc()
        .args([
            "generate",
            "3soku",
            "--random-partition",
            "12",
            "--max-size",
            "1000000",
            "--seed",
            "3",
        ])
        .output()
        .unwrap();
    assert!(
        generated.status.success(),
        "{}",
        String::from_utf8_lossy(&generated.stderr)
    );
    let file = dir.path().join("partition.toml");
    std::fs::write(&file, &generated.stdout).unwrap();
    for budget in [None, Some("10000000000000")] {
        let mut cmd = common::sokuc();
        cmd.arg("solve")
            .arg(&file)
            .args(["--presolve", "off", "--timeout", "120", "--format", "json"]);
        if let Some(b) = budget {
            cmd.args(["--max-clauses", b]);
        }
        let t = std::time::Instant::now();
        let o = cmd.output().unwrap();
        let took = t.elapsed();
        let v: serde_json::Value =
            serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
        assert_eq!(v["status"], "unsat", "budget {budget:?}: {v}");
        assert!(
            took < std::time::Duration::from_secs(30),
            "budget {budget:?}: {took:?}: {v}"
        );
    }
}
