//! MIPLIB 3's pure 0/1 problems (`instances/miplib/`) against the optima MIPLIB publishes.
//!
//! An "optimal" or an "unsat" is a claim sokuc's verifier cannot check: it checks that a
//! model satisfies the file and has the value printed, not that nothing better exists. These
//! problems have real MIP structure (set covering, knapsack rows, fixed charges) and known
//! answers, so every claim can be held to them:
//! - every backend of the build, and `auto`, on each problem as given (`min:`): a proven
//!   optimum must be the published one, and no solution may be better than it;
//! - each problem's decision pair, the objective bounded at the optimum (satisfiable) and one
//!   below it (unsatisfiable): every verdict must be the expected one, on mip for every pair
//!   and on highs for every pair but one (stein45's below, see the test), on mip under each
//!   of CBC's settings for feasibility problems (staged, light, full) where a single setting
//!   decides within its try, and on the other backends where they decide within theirs, so a
//!   tuning change that breaks a verdict fails here.
//!
//! Models are checked here against the file's rows and objective, read by this file's own
//! small OPB reader (no sokuc code), so a wrong evaluation in sokuc cannot hide a wrong
//! answer. Time limits are gross: a backend that does not decide in time makes no claim,
//! which is allowed, except where a test says an engine must decide.

mod common;

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{on_two_threads, root, sokuc};
use serde_json::Value;

/// The problems and MIPLIB 3's published optima (its catalogue, "INT SOLN", all marked
/// optimal there).
const SET: &[(&str, i64)] = &[
    ("enigma.opb", 0),
    ("lseu.opb", 1120),
    ("mod008.opb.gz", 307),
    ("p0033.opb", 3089),
    ("p0201.opb.gz", 7615),
    ("p0282.opb.gz", 258_411),
    ("p0548.opb.gz", 8691),
    ("stein27.opb", 18),
    ("stein45.opb.gz", 30),
    ("l152lav.opb.gz", 4722),
    ("mod010.opb.gz", 6548),
    ("p2756.opb.gz", 3124),
];

/// Problems small enough that every backend gets a try at their decision pairs: `auto` at
/// each of them, the engines without an LP (all but mip and highs) at those of
/// [`DECIDED_WITHOUT_LP`].
const SMALL: &[&str] = &[
    "enigma.opb",
    "lseu.opb",
    "mod008.opb.gz",
    "p0033.opb",
    "p0201.opb.gz",
    "p0548.opb.gz",
    "stein27.opb",
];

/// The problems of [`SMALL`] whose decision pairs the engines without an LP (sat, cadical,
/// cp, mitm, search) decide within their 2 s. On lseu, mod008, p0201 and p0548 none of them
/// decided either pair in 2 s on this 2-core machine (each run ended `unknown`, or `mitm`
/// refused), so a try there checked nothing: the verdicts of those engines are held to
/// these three problems, and their refusals and models to every problem of
/// `every_claimed_optimum_is_the_published_one`.
const DECIDED_WITHOUT_LP: &[&str] = &["enigma.opb", "p0033.opb", "stein27.opb"];

/// Problems whose "below" pair (the objective one under the optimum, unsatisfiable) CBC's
/// staged settings take 10 s or more to refute (11 to 34 s measured): neither single setting
/// (light, full) refuted one of them within its 5 s, so only the staged run, which must
/// decide, is tried on them. The single settings' refutations are held to the other eight
/// below pairs, their models to every "at" pair.
const LONG_REFUTATIONS: &[&str] = &["stein45.opb.gz", "l152lav.opb.gz", "mod010.opb.gz", "p2756.opb.gz"];

/// Problems on which no backend but mip, highs and `auto` finds a model, or decides, within
/// its short try of 3 s (sat, cadical, cp and search end `unknown`, mitm refuses): in
/// `every_claimed_optimum_is_the_published_one` only the backends that must prove an
/// optimum run them.
const NO_SHORT_TRY: &[&str] = &["l152lav.opb.gz", "mod010.opb.gz"];

/// Problems on which the clause engines (sat and cadical, over the CNF of every row) find no
/// model within their 3 s try, while cp and search do: measured on this 2-core machine, all
/// eight tries ended `unknown` at the limit, so they checked nothing. The clause engines'
/// models and refusals are held to the other problems.
const NO_CNF_MODEL_IN_A_SHORT_TRY: &[&str] = &["lseu.opb", "mod008.opb.gz", "p0548.opb.gz", "p2756.opb.gz"];

/// The pairs (stem, satisfiable pair or not, setting) that CBC's single setting did not
/// decide within its 5 s try: measured on this 2-core machine, each ended `unknown` at the
/// limit, so it checked nothing. The single settings' verdicts are held to the other pairs
/// (27 of the 40 tries), the staged run's to every pair.
const SINGLE_SETTING_UNDECIDED: &[(&str, bool, &str)] = &[
    ("enigma", true, "light"),
    ("l152lav", true, "light"),
    ("l152lav", true, "full"),
    ("lseu", false, "light"),
    ("lseu", false, "full"),
    ("mod008", false, "light"),
    ("mod010", true, "full"),
    ("p0201", false, "full"),
    ("p0282", true, "light"),
    ("p0282", false, "light"),
    ("p0548", true, "light"),
    ("p0548", false, "light"),
    ("p2756", true, "light"),
];

/// Whether backend `b` gets a try at problem `name` in
/// `every_claimed_optimum_is_the_published_one`.
fn tries(name: &str, b: &str) -> bool {
    must_prove(name, b)
        || !(NO_SHORT_TRY.contains(&name)
            || matches!(b, "sat" | "cadical") && NO_CNF_MODEL_IN_A_SHORT_TRY.contains(&name))
}

/// `(coefficient, variable from 1)` terms.
type Terms = Vec<(i64, usize)>;

/// A linear OPB file.
struct Opb {
    vars: usize,
    objective: Terms,
    /// Terms, `true` for `=` (else `>=`), right-hand side.
    rows: Vec<(Terms, bool, i64)>,
    /// The lines after the objective, as written.
    body: Vec<String>,
}

fn terms(words: &[&str]) -> Terms {
    words
        .chunks(2)
        .map(|p| {
            let c: i64 = p[0].parse().expect("a coefficient");
            let v: usize = p[1].strip_prefix('x').and_then(|v| v.parse().ok()).expect("xN");
            (c, v)
        })
        .collect()
}

fn parse(text: &str) -> Opb {
    let mut opb = Opb {
        vars: 0,
        objective: Vec::new(),
        rows: Vec::new(),
        body: Vec::new(),
    };
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("* #variable= ") {
            opb.vars = h.split_whitespace().next().unwrap().parse().unwrap();
            continue;
        }
        if line.starts_with('*') || line.trim().is_empty() {
            continue;
        }
        let words: Vec<&str> = line.trim_end_matches(';').split_whitespace().collect();
        if words[0] == "min:" {
            opb.objective = terms(&words[1..]);
            continue;
        }
        let n = words.len();
        let eq = match words[n - 2] {
            "=" => true,
            ">=" => false,
            other => panic!("relation {other}"),
        };
        opb.rows
            .push((terms(&words[..n - 2]), eq, words[n - 1].parse().unwrap()));
        opb.body.push(line.to_string());
    }
    opb
}

fn read(name: &str) -> String {
    read_at(&root().join("instances/miplib").join(name))
}

fn read_at(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    if path.extension().is_some_and(|e| e == "gz") {
        let mut s = String::new();
        flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut s).unwrap();
        s
    } else {
        String::from_utf8(bytes).unwrap()
    }
}

fn value(terms: &[(i64, usize)], x: &[bool]) -> i64 {
    terms.iter().filter(|&&(_, v)| x[v - 1]).map(|&(c, _)| c).sum()
}

/// The rows `x` breaks, by number.
fn broken(opb: &Opb, x: &[bool]) -> Vec<usize> {
    (0..opb.rows.len())
        .filter(|&i| {
            let (t, eq, rhs) = &opb.rows[i];
            let lhs = value(t, x);
            if *eq { lhs != *rhs } else { lhs < *rhs }
        })
        .collect()
}

/// The decision problem "objective at most `bound`": the rows, and the objective negated as
/// a `>=` row.
fn bounded(opb: &Opb, bound: i64) -> String {
    let mut s = format!("* #variable= {} #constraint= {}\n", opb.vars, opb.rows.len() + 1);
    for l in &opb.body {
        s.push_str(l);
        s.push('\n');
    }
    for &(c, v) in &opb.objective {
        s.push_str(&format!("{:+} x{v} ", -c));
    }
    s.push_str(&format!(">= {} ;\n", -bound));
    s
}

/// What one run said.
#[derive(Debug)]
struct Said {
    status: String,
    optimal: bool,
    objective: Option<i64>,
    model: Option<Vec<bool>>,
    /// Exit 2 (a refusal) and its message.
    refused: Option<String>,
    /// How the optimum was proven (`stats.extra.optimise`).
    optimise: Option<String>,
    line: String,
}

fn run(file: &Path, backend: &str, timeout: Duration, extra: &[&str]) -> Said {
    let started = std::time::Instant::now();
    let out = sokuc()
        .arg("solve")
        .arg(file)
        .args(["--backend", backend, "--format", "json", "--timeout"])
        .arg(format!("{}", timeout.as_secs_f64()))
        .args(extra)
        .output()
        .unwrap();
    let line = format!("{} --backend {backend} {}", file.display(), extra.join(" "));
    // Each run's time, for `--nocapture`: what this file's time goes to.
    eprintln!("miplib: {:.1} s {line}", started.elapsed().as_secs_f64());
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    if out.status.code() == Some(2) {
        return Said {
            status: "refused".into(),
            optimal: false,
            objective: None,
            model: None,
            refused: Some(stderr),
            optimise: None,
            line,
        };
    }
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{line}: no JSON ({e}), exit {:?}, stderr {stderr}", out.status.code()));
    let model = v["model"]
        .as_array()
        .map(|m| m.iter().map(|l| l.as_i64().unwrap() > 0).collect());
    Said {
        status: v["status"].as_str().unwrap().to_string(),
        optimal: v["optimal"].as_bool() == Some(true),
        objective: v["objective"].as_str().map(|o| o.parse().unwrap()),
        model,
        refused: None,
        optimise: v["stats"]["extra"]["optimise"].as_str().map(str::to_string),
        line,
    }
}

fn backends() -> Vec<&'static str> {
    let mut v = sokuc::backend::available();
    v.push("auto");
    v
}

fn has_mip() -> bool {
    sokuc::backend::available().contains(&"mip")
}

fn has_highs() -> bool {
    sokuc::backend::available().contains(&"highs")
}

/// Checks a sat answer's model against the file; the objective, if any, must be the one
/// reported. Returns the model's objective value.
fn checked(opb: &Opb, said: &Said) -> Result<i64, String> {
    let x = said
        .model
        .as_ref()
        .ok_or(format!("{}: sat without a model", said.line))?;
    if x.len() != opb.vars {
        return Err(format!("{}: {} values for {} variables", said.line, x.len(), opb.vars));
    }
    let bad = broken(opb, x);
    if !bad.is_empty() {
        return Err(format!("{}: the model breaks rows {bad:?}", said.line));
    }
    let v = value(&opb.objective, x);
    if let Some(o) = said.objective
        && o != v
    {
        return Err(format!("{}: objective printed {o}, the model's is {v}", said.line));
    }
    Ok(v)
}

/// Whether backend `b` must prove `name`'s optimum (else it gets a short try). CBC proves each
/// of these within 12 s on this 2-core machine, HiGHS within 25 s (stein45; the others within
/// 3 s); the others get a short try, in which they may prove the small ones.
/// HiGHS alone runs without an absolute gap (a positive one it rounds up to a whole unit,
/// which drift makes unsound: crates/engines/src/mip/settings.rs), and then does not close
/// stein45's last half unit within 120 s.
///
/// `auto` must prove every problem but l152lav and stein45, where it races the same two
/// engines that are held to each alone here: on l152lav both must prove it (the race took
/// 28 s of both cores for no new assertion), and on stein45 CBC must while HiGHS cannot (the
/// race took 76 s of both cores to return CBC's proof, a hand-over the race's own tests hold:
/// crates/engines/src/portfolio/race/tests.rs). On stein45 `auto` gets the short try, whose claims
/// are held to the published optimum like every other; on l152lav it is not run, as no
/// engine without an LP is ([`NO_SHORT_TRY`]).
fn must_prove(name: &str, b: &str) -> bool {
    let highs_proves = name != "stein45.opb.gz";
    let auto_proves = !matches!(name, "l152lav.opb.gz" | "stein45.opb.gz");
    (b == "mip" && has_mip())
        || (b == "auto" && (has_mip() || has_highs()) && auto_proves)
        || (b == "highs" && has_highs() && highs_proves)
}

#[test]
fn every_claimed_optimum_is_the_published_one() {
    let mut jobs = Vec::new();
    for &(name, opt) in SET {
        for b in backends() {
            if tries(name, b) {
                jobs.push((name, opt, b));
            }
        }
    }
    // The longest first (the proofs on the problems of the long refutations, CBC's on
    // stein45 the longest of all), so that neither thread is left running one of them alone.
    jobs.sort_by_key(|&(name, _, b)| !(must_prove(name, b) && LONG_REFUTATIONS.contains(&name)));
    on_two_threads(&jobs, |&(name, opt, b)| {
        let opb = parse(&read(name));
        let must_prove = must_prove(name, b);
        let limit = Duration::from_secs(if must_prove { 120 } else { 3 });
        let said = run(&root().join("instances/miplib").join(name), b, limit, &[]);
        if let Some(why) = &said.refused {
            // `mitm` enumerates at most 44 free variables: p0033 it takes, the rest it refuses.
            if common::mitm_too_large(b, why) {
                return Ok(());
            }
            return Err(format!("{}: refused: {why}", said.line));
        }
        match said.status.as_str() {
            "sat" => {
                let v = checked(&opb, &said)?;
                if v < opt {
                    return Err(format!(
                        "{}: a solution of value {v}, better than the published optimum {opt}",
                        said.line
                    ));
                }
                if said.optimal && v != opt {
                    return Err(format!(
                        "{}: claims {v} optimal, the published optimum is {opt}",
                        said.line
                    ));
                }
                if must_prove && !said.optimal {
                    return Err(format!("{}: {v}, not proven optimal within {limit:?}", said.line));
                }
                Ok(())
            }
            "unknown" if !must_prove => Ok(()),
            other => Err(format!("{}: {other}, the published optimum is {opt}", said.line)),
        }
    });
}

/// MIPLIB 3 problems of the PB benchmark whose objectives are wider than 2^19, where the
/// `highs` backend takes no "optimal" as it is: each optimum (the published one) must be
/// proven by HiGHS's dual bound, judged against the exact value of its model, and mitre's by
/// `auto` too, which races `highs`. HiGHS proves each within 5 s on this 2-core machine.
#[test]
#[cfg_attr(not(feature = "highs"), ignore = "needs the highs backend (--features highs)")]
fn wide_miplib_objectives_are_proven_by_the_dual_bound() {
    let set: &[(&str, i64)] = &[
        ("miplib3-air03.opb.gz", 340_160),
        ("miplib3-cap6000.opb.gz", -2_451_377),
        ("miplib3-mitre.opb.gz", 115_155),
    ];
    // `highs` on each; `auto` on mitre alone: it races `highs` on all three, so its proof on
    // the others is the same HiGHS run again (43 s of both cores), and mitre holds the race
    // to the same dual-bound proof.
    let mut jobs = Vec::new();
    for &(name, opt) in set {
        jobs.push((name, opt, "highs"));
        if name == "miplib3-mitre.opb.gz" {
            jobs.push((name, opt, "auto"));
        }
    }
    on_two_threads(&jobs, |&(name, opt, b)| {
        let path = root().join("instances/pb-bench/optimisation").join(name);
        let opb = parse(&read_at(&path));
        let width: i64 = opb.objective.iter().map(|t| t.0.abs()).sum();
        assert!((1 << 19..1 << 32).contains(&width), "{name}: width {width}");
        let said = run(&path, b, Duration::from_secs(120), &[]);
        if said.status != "sat" {
            return Err(format!(
                "{}: {}, the published optimum is {opt}",
                said.line, said.status
            ));
        }
        let v = checked(&opb, &said)?;
        if v != opt || !said.optimal {
            return Err(format!(
                "{}: {v} (optimal: {}), the published optimum is {opt}",
                said.line, said.optimal
            ));
        }
        if b == "highs" && said.optimise.as_deref() != Some("highs, wide objective: its dual bound") {
            return Err(format!("{}: proven by {:?}", said.line, said.optimise));
        }
        Ok(())
    });
}

/// One decision problem and what must be said of it.
struct Pair {
    name: &'static str,
    file: PathBuf,
    sat: bool,
    backend: &'static str,
    extra: &'static [&'static str],
    /// The run must decide (not `unknown`) within its limit.
    must_decide: bool,
    limit: Duration,
}

#[test]
fn decision_pairs_get_the_expected_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let mut jobs = Vec::new();
    for &(name, opt) in SET {
        let opb = parse(&read(name));
        let stem = name.split('.').next().unwrap();
        for (sat, bound) in [(true, opt), (false, opt - 1)] {
            let file = dir
                .path()
                .join(format!("{stem}-{}.opb", if sat { "at" } else { "below" }));
            std::fs::write(&file, bounded(&opb, bound)).unwrap();
            let mut add = |backend, extra, must_decide, secs| {
                jobs.push(Pair {
                    name,
                    file: file.clone(),
                    sat,
                    backend,
                    extra,
                    must_decide,
                    limit: Duration::from_secs(secs),
                })
            };
            if has_mip() {
                // The default (staged) settings decide every pair; each single setting
                // must never say the wrong thing, whether or not it decides in time.
                // A gross bound: CBC refutes l152lav's pair in about 35 s on a free core,
                // and this test's jobs share the machine with the other tests of the file.
                add("mip", &[], true, 240);
                if sat || !LONG_REFUTATIONS.contains(&name) {
                    for extra in [&["--mip-settings", "light"], &["--mip-settings", "full"]] {
                        if !SINGLE_SETTING_UNDECIDED.contains(&(stem, sat, extra[1])) {
                            add("mip", extra, false, 5);
                        }
                    }
                }
            }
            // HiGHS must decide every pair but stein45's below: it refuted that one in 110 s
            // (CBC's staged run in 49 s), the longest job of this file, and it cannot prove
            // stein45's optimum either (see `must_prove`). Its refutations are held to the
            // other eleven below pairs, stein45's to CBC's.
            if has_highs() && (sat || name != "stein45.opb.gz") {
                add("highs", &[], true, 240);
            }
            if SMALL.contains(&name) {
                for b in backends().into_iter().filter(|&b| b != "mip" && b != "highs") {
                    if b == "auto" || DECIDED_WITHOUT_LP.contains(&name) {
                        add(b, &[], false, 2);
                    }
                }
            }
        }
    }
    // The longest first (the must-decide ones on the problems that take CBC 10 s and more),
    // so that the two threads end together instead of one running the last refutation alone.
    jobs.sort_by_key(|p| !(p.must_decide && LONG_REFUTATIONS.contains(&p.name)));
    on_two_threads(&jobs, |p| {
        let opb = parse(&std::fs::read_to_string(&p.file).unwrap());
        let said = run(&p.file, p.backend, p.limit, p.extra);
        let expected = if p.sat { "sat" } else { "unsat" };
        match said.status.as_str() {
            s if s == expected => {
                if p.sat {
                    checked(&opb, &said)?;
                }
                Ok(())
            }
            "unknown" if !p.must_decide => Ok(()),
            "refused" if common::mitm_too_large(p.backend, said.refused.as_deref().unwrap_or("")) => Ok(()),
            other => Err(format!(
                "{} ({}): {other}, expected {expected}{}",
                said.line,
                p.name,
                said.refused.as_deref().unwrap_or("")
            )),
        }
    });
}

/// The reader above against a hand-checked file, so a bug in it cannot pass everything.
#[test]
fn the_reader_evaluates_rows_and_objectives() {
    let opb = parse("* #variable= 3 #constraint= 2\nmin: +2 x1 -3 x3 ;\n+1 x1 +1 x2 >= 1 ;\n+1 x2 -1 x3 = 0 ;\n");
    assert_eq!(opb.vars, 3);
    assert_eq!(broken(&opb, &[true, false, false]), Vec::<usize>::new());
    assert_eq!(broken(&opb, &[false, false, true]), vec![0, 1]);
    assert_eq!(value(&opb.objective, &[true, true, true]), -1);
    let below = parse(&bounded(&opb, -2));
    // x2 = x3 = 1: objective -3 <= -2 holds; x1 too: -1, it does not.
    assert!(broken(&below, &[false, true, true]).is_empty());
    assert_eq!(broken(&below, &[true, true, true]), vec![2]);
    for &(name, _) in SET {
        let opb = parse(&read(name));
        assert!(
            opb.vars > 0 && !opb.rows.is_empty() && !opb.objective.is_empty(),
            "{name}"
        );
    }
}
