//! The model counter (`sokuc::sharp`) through its public API: pseudo-Boolean formulas
//! through every CNF encoding against brute force over the IR, and CNFs (random ones and
//! puzzles' `--emit dimacs`) against Ganak, an exact projected counter from outside
//! (scripts/ganak-count.py, PyPI pyganak, installed by scripts/install-tools.sh).

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use common::{root, sokuc};
use sokuc::budget::Deadline;
use sokuc::encode::{Cnf, EncodeOptions, PbEncoding, encode_until};
use sokuc::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Var};
use sokuc::sharp;

const MAX_BYTES: u64 = 1 << 30;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
    fn lit(&mut self, n: u32) -> Lit {
        Lit::new(Var(self.below(n as u64) as u32), self.below(2) == 0)
    }
}

fn random_formula(rng: &mut Rng, n: u32) -> PbFormula {
    let mut f = PbFormula::new(n);
    let mut linear = Vec::new();
    for k in 0..1 + rng.below(5) {
        let len = 2 + rng.below(4) as usize;
        let lits: Vec<Lit> = (0..len).map(|_| rng.lit(n)).collect();
        let c = match rng.below(4) {
            0 => Constraint::Clause(lits),
            1 => Constraint::AtMostOne(lits),
            2 => Constraint::ExactlyOne(lits),
            _ => {
                let terms: Vec<(i64, Lit)> = lits.iter().map(|&l| (1 + rng.below(4) as i64, l)).collect();
                let total: i64 = terms.iter().map(|t| t.0).sum();
                let cmp = [Cmp::Le, Cmp::Ge, Cmp::Eq][rng.below(3) as usize];
                Constraint::Linear(Linear::new(terms, cmp, rng.below(total as u64 + 1) as i64))
            }
        };
        let is_linear = matches!(c, Constraint::Linear(_));
        let i = f.add(format!("c{k}"), c);
        if is_linear {
            linear.push(i);
        }
    }
    if linear.len() >= 2 && rng.below(2) == 0 {
        f.add(
            "sum",
            Constraint::SumOf {
                parts: linear.clone(),
                cmp: Cmp::Le,
                rhs: 1 + rng.below(8) as i64,
            },
        );
    }
    f
}

fn brute(f: &PbFormula) -> u64 {
    let n = f.num_vars() as usize;
    (0u64..1 << n)
        .filter(|bits| {
            let a: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
            f.evaluate(&a).is_ok()
        })
        .count() as u64
}

#[test]
fn pb_formulas_count_as_brute_force_through_every_encoding() {
    let mut rng = Rng(0x5eed_c0de);
    for case in 0..150 {
        let n = 1 + rng.below(10) as u32;
        let f = random_formula(&mut rng, n);
        let want = brute(&f);
        for pb in [PbEncoding::Domain, PbEncoding::Swc, PbEncoding::Totalizer] {
            let opts = EncodeOptions {
                pb,
                ..Default::default()
            };
            let got = count_formula(&f, opts);
            assert_eq!(got.value, want.into(), "case {case}, {}: {f:?}", pb.name());
        }
    }
}

/// Reads DIMACS: the CNF and the `c p show` projection (all variables when there is none).
fn read_dimacs(text: &str) -> (Cnf, Vec<Var>) {
    let mut cnf = Cnf::new();
    let mut show = Vec::new();
    let mut clause = Vec::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first() {
            None => {}
            Some(&"c") if words.get(1..3) == Some(&["p", "show"]) => {
                show.extend(words[3..].iter().map(|w| w.parse::<i64>().unwrap()).filter(|&d| d != 0));
            }
            Some(&"c") => {}
            Some(&"p") => cnf.num_vars = words[2].parse().unwrap(),
            Some(_) => {
                for w in words {
                    match w.parse::<i64>().unwrap() {
                        0 => {
                            cnf.add_clause_public(&clause);
                            clause.clear();
                        }
                        d => clause.push(Lit::from_dimacs(d)),
                    }
                }
            }
        }
    }
    let projection = if show.is_empty() {
        (0..cnf.num_vars).map(Var).collect()
    } else {
        show.iter().map(|&d| Var(d as u32 - 1)).collect()
    };
    (cnf, projection)
}

/// Ganak's count of a DIMACS file and its time (the process, Python's start included).
fn ganak(file: &Path) -> (String, f64) {
    ganak_within(file, None).expect("no time limit")
}

/// The same, or `None` when `limit` seconds pass first (through coreutils' `timeout`).
fn ganak_within(file: &Path, limit: Option<u64>) -> Option<(String, f64)> {
    let t = Instant::now();
    let script = root().join("scripts/ganak-count.py");
    let o = match limit {
        Some(s) => Command::new("timeout")
            .arg(s.to_string())
            .arg("python3")
            .arg(script)
            .arg(file)
            .output(),
        None => Command::new("python3").arg(script).arg(file).output(),
    }
    .expect("python3 runs");
    let secs = t.elapsed().as_secs_f64();
    if limit.is_some() && o.status.code() == Some(124) {
        return None;
    }
    assert!(
        o.status.success(),
        "ganak-count.py {}: {}",
        file.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    // Ganak itself may print comment lines (`c o ...`) before the count.
    let out = String::from_utf8(o.stdout).unwrap();
    let count = out.lines().rfind(|l| !l.starts_with("c ")).unwrap_or("").trim();
    Some((count.to_string(), secs))
}

/// Ganak must be there: CI installs it, and a missing witness is a failure, not a pass.
fn require_pyganak() {
    let ok = Command::new("python3")
        .args(["-c", "import pyganak"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "python3 with pyganak is not installed: run scripts/install-tools.sh"
    );
}

/// Our count of a DIMACS file and its time.
fn ours(file: &Path) -> (String, f64) {
    let (cnf, projection) = read_dimacs(&std::fs::read_to_string(file).unwrap());
    let t = Instant::now();
    let c = sharp::count(&cnf, &projection, MAX_BYTES, &Deadline::default()).unwrap();
    (c.value.to_string(), t.elapsed().as_secs_f64())
}

/// A random CNF of 2- to 4-literal clauses projected on a random half of its variables.
fn random_dimacs(rng: &mut Rng, n: u32, m: usize) -> String {
    let show: Vec<String> = (1..=n).filter(|_| rng.below(2) == 0).map(|v| v.to_string()).collect();
    let mut text = format!("c p show {} 0\np cnf {n} {m}\n", show.join(" "));
    for _ in 0..m {
        let len = 2 + rng.below(3);
        for _ in 0..len {
            text.push_str(&format!("{} ", rng.lit(n).dimacs()));
        }
        text.push_str("0\n");
    }
    text
}

/// `sokuc solve FILE --emit dimacs` with a `c p show` line naming the IR's variables (the
/// `c var` lines), as the cross-check asks.
fn puzzle_dimacs(puzzle: &Path, out: &Path) {
    let o = sokuc()
        .current_dir(root())
        .arg("solve")
        .arg(puzzle)
        .args(["--presolve", "off", "--emit", "dimacs", "-o"])
        .arg(out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(out).unwrap();
    let primary = text.lines().filter(|l| l.starts_with("c var ")).count();
    let show: Vec<String> = (1..=primary).map(|v| v.to_string()).collect();
    std::fs::write(out, format!("c p show {} 0\n{text}", show.join(" "))).unwrap();
}

/// Tricky Triple grids with few givens: many solutions.
const GRIDS: &[(&str, &str)] = &[
    ("tt4-empty.tt", "trickytriple 4 4\n. . . .\n. . . .\n. . . .\n. . . .\n"),
    (
        "tt5-two.tt",
        "trickytriple 5 5\n. 1 . . .\n. . . X .\n. . . . X\n. . . . .\n3 . . . .\n",
    ),
];

#[test]
#[ignore = "needs python3 with pyganak (PyPI); scripts/test.sh installs it and runs ignored tests"]
fn counts_agree_with_ganak() {
    require_pyganak();
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0xdead_beef);
    let mut files = Vec::new();
    for (k, n) in [40u32, 50, 60, 70, 80].into_iter().enumerate() {
        for (j, ratio) in [1.5f64, 2.5, 3.5].into_iter().enumerate() {
            let p = dir.path().join(format!("r{k}-{j}.cnf"));
            std::fs::write(&p, random_dimacs(&mut rng, n, (ratio * n as f64) as usize)).unwrap();
            files.push(p);
        }
    }
    for (name, grid) in GRIDS {
        let src = dir.path().join(name);
        std::fs::write(&src, grid).unwrap();
        let p = dir.path().join(format!("{name}.cnf"));
        puzzle_dimacs(&src, &p);
        files.push(p);
    }
    for f in &files {
        let (want, _) = ganak(f);
        let (got, _) = ours(f);
        assert_eq!(got, want, "{}", f.display());
    }
}

/// Our count and time against Ganak's for each DIMACS file in `SOKUC_SHARP_FILES` (separated
/// by spaces), e.g. `SOKUC_SHARP_FILES="a.cnf b.cnf" cargo test --release --test sharp_counter
/// -- --ignored --nocapture measure`. Both stop after `SOKUC_SHARP_SECONDS` (default 300); our
/// memory limit is `SOKUC_SHARP_BYTES` (default 1 GiB). Counts that both find must agree.
/// Without `SOKUC_SHARP_FILES` it measures the shipped puzzles' CNFs (`--emit dimacs`, small:
/// both counters must finish), so the run CI makes checks something too.
#[test]
#[ignore = "needs python3 with pyganak (PyPI); a measurement, SOKUC_SHARP_FILES picks the files"]
fn measure_against_ganak() {
    require_pyganak();
    let dir = tempfile::tempdir().unwrap();
    let (files, shipped) = match std::env::var("SOKUC_SHARP_FILES") {
        Ok(list) => (
            list.split_whitespace()
                .map(std::path::PathBuf::from)
                .collect::<Vec<_>>(),
            false,
        ),
        Err(_) => {
            let puzzles = [
                "instances/tetrasoku-seed.toml",
                "instances/octahedron-pool.toml",
                "instances/kakuro/gecode-k0-easy.kakuro",
                "instances/trickytriple/feup-lekinasa-4x4-01.tt",
            ];
            let files = puzzles
                .iter()
                .map(|p| {
                    let out = dir
                        .path()
                        .join(format!("{}.cnf", Path::new(p).file_name().unwrap().to_string_lossy()));
                    puzzle_dimacs(&root().join(p), &out);
                    out
                })
                .collect();
            (files, true)
        }
    };
    let secs: u64 = std::env::var("SOKUC_SHARP_SECONDS").map_or(300, |s| s.parse().unwrap());
    let bytes: u64 = std::env::var("SOKUC_SHARP_BYTES").map_or(MAX_BYTES, |s| s.parse().unwrap());
    for f in &files {
        let (cnf, projection) = read_dimacs(&std::fs::read_to_string(f).unwrap());
        let t = Instant::now();
        let deadline = Deadline::new(Some(std::time::Duration::from_secs(secs)), None);
        let c = sharp::count(&cnf, &projection, bytes, &deadline);
        let ours_secs = t.elapsed().as_secs_f64();
        let ganak = ganak_within(f, Some(secs));
        let got = match &c {
            Ok(c) => c.value.to_string(),
            Err(e) => format!("({e})"),
        };
        let stats = c.as_ref().map(|c| format!("{:?}", c.stats)).unwrap_or_default();
        let (want, ganak_secs) = ganak.clone().unwrap_or(("(time limit)".into(), secs as f64));
        println!(
            "{}: ours {got} in {ours_secs:.3} s, ganak {want} in {ganak_secs:.3} s {stats}",
            f.display()
        );
        if shipped {
            assert!(
                c.is_ok() && ganak.is_some(),
                "{}: ours {got}, ganak {want}",
                f.display()
            );
        }
        if c.is_ok() && ganak.is_some() {
            assert_eq!(got, want, "{}", f.display());
        }
    }
}

/// Counts a formula's solutions as `sokuc count` does for a pseudo-Boolean file: its CNF
/// (encoded with `opts`, as `--emit dimacs` writes it), counted projected on the formula's own
/// variables; the encoder's auxiliaries are existential.
fn count_formula(f: &PbFormula, opts: EncodeOptions) -> sharp::Count {
    let mut cnf = Cnf::new();
    encode_until(f, opts, &mut cnf, &Deadline::default()).unwrap();
    let projection: Vec<Var> = (0..f.num_vars()).map(Var).collect();
    sharp::count(&cnf, &projection, MAX_BYTES, &Deadline::default()).unwrap()
}
