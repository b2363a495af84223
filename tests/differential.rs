//! Differential testing: random instances through every backend. Statuses must agree, every
//! SAT answer must pass the puzzle's verifier, and (for grids) uniqueness verdicts must
//! agree too. 3SoKu instances on seven variants (satisfiable by construction, or with one
//! unit of capacity moved, which keeps the total and often breaks them), Tricky Triple
//! grids with random givens, and the public Kakuro boards with one clue changed.
//!
//! CI runs about 2,100 instances. For a longer local run, scale it:
//! `SOKUC_DIFF_SCALE=10 cargo test --release --test differential -- --nocapture`.
//! A backend may answer unknown only when it has a time limit here (cp and mip, whose
//! models are slow on some satisfiable icosahedra); unknowns are counted and bounded.
//!
//! Disagreements found so far: none (all backends agreed from the first run).

mod common;

use std::time::Duration;

use common::root;
use sokuc::backend::{self, SolveOptions, Status};
use sokuc::grid_pipeline::{self, GridPuzzle};
use sokuc::input::variant_file::load_variant;
use sokuc::model::Instance;
use sokuc::pipeline::{self, PresolveMode};

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn scale() -> usize {
    std::env::var("SOKUC_DIFF_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// The backends of this build with the time limit each gets (None: must decide).
fn backends(cp_ms: u64) -> Vec<(&'static str, Option<Duration>)> {
    backend::available()
        .iter()
        .map(|&b| {
            let limit = match b {
                "cp" => Some(Duration::from_millis(cp_ms)),
                "mip" => Some(Duration::from_secs(5)),
                _ => None,
            };
            (b, limit)
        })
        .collect()
}

#[derive(Default, Debug)]
struct Tally {
    sat: usize,
    unsat: usize,
    unknown_runs: usize,
    runs: usize,
}

/// All decided statuses must be equal; returns the common one.
fn agree(what: &str, results: &[(&str, Status)], tally: &mut Tally) -> Option<Status> {
    let decided: Vec<&(&str, Status)> = results.iter().filter(|(_, s)| *s != Status::Unknown).collect();
    tally.runs += results.len();
    tally.unknown_runs += results.len() - decided.len();
    let first = decided.first().map(|(_, s)| *s)?;
    assert!(
        decided.iter().all(|(_, s)| *s == first),
        "backends disagree on {what}: {results:?}"
    );
    match first {
        Status::Sat => tally.sat += 1,
        _ => tally.unsat += 1,
    }
    Some(first)
}

fn random_soku(rng: &mut Rng, variant: &str) -> Instance {
    let v = load_variant(variant, None, ("test", None)).unwrap();
    let nf = v.num_faces();
    let tiles: Vec<[u64; 3]> = (0..nf).map(|_| [rng.below(4), rng.below(4), rng.below(4)]).collect();
    let mut caps = vec![0u64; v.num_vertices()];
    // Tile i on face perm[i], turned by a random rotation.
    let mut perm: Vec<usize> = (0..nf).collect();
    for i in (1..nf).rev() {
        perm.swap(i, rng.below(i as u64 + 1) as usize);
    }
    for (i, t) in tiles.iter().enumerate() {
        let face = v.faces[perm[i]];
        let r = rng.below(3) as usize;
        for k in 0..3 {
            caps[face[k]] += t[(k + 3 - r) % 3];
        }
    }
    let total: u64 = caps.iter().sum();
    if rng.below(4) == 0 {
        // The same total spread at random: on the icosahedron, unlike moving one unit, this
        // often has no solution.
        caps = vec![0; caps.len()];
        for _ in 0..total {
            let v = rng.below(caps.len() as u64) as usize;
            caps[v] += 1;
        }
    } else if rng.below(2) == 0 {
        let (a, b) = (
            rng.below(caps.len() as u64) as usize,
            rng.below(caps.len() as u64) as usize,
        );
        if a != b && caps[a] > 0 {
            caps[a] -= 1;
            caps[b] += 1;
        }
    }
    Instance {
        source: format!("random {variant}"),
        variant: v,
        capacities: caps,
        tiles,
        fixed: Vec::new(),
    }
}

#[test]
fn random_3soku_instances_agree_on_every_backend() {
    let mut rng = Rng(0x5eed_d1ff_0000_0001);
    for (variant, n, cp_ms) in [
        ("tetrahedron", 500, 500),
        ("octahedron", 500, 500),
        ("icosahedron", 150, 1000),
        ("snub-disphenoid", 60, 500),
        ("triaugmented-triangular-prism", 60, 500),
        ("gyroelongated-square-bipyramid", 60, 500),
        ("bipyramid-7", 60, 500),
    ] {
        let bs = backends(cp_ms);
        let mut tally = Tally::default();
        for k in 0..n * scale() {
            let inst = random_soku(&mut rng, variant);
            let mut results = Vec::new();
            for &(name, limit) in &bs {
                // Presolve on for all; the sat backend also without it, so the CNF alone is
                // compared too.
                let modes: &[PresolveMode] = if name == "sat" {
                    &[PresolveMode::On, PresolveMode::Off]
                } else {
                    &[PresolveMode::On]
                };
                for &mode in modes {
                    let mut b = backend::by_name(name).unwrap();
                    let opts = SolveOptions {
                        time_limit: limit,
                        ..Default::default()
                    };
                    let r = pipeline::solve(&inst, b.as_mut(), &opts, mode).unwrap();
                    if r.status == Status::Sat {
                        assert!(r.verified, "{name} answer not verified on {variant} #{k}");
                    }
                    if r.status == Status::Unknown {
                        assert!(limit.is_some(), "{name} gave up without a time limit on {variant} #{k}");
                    }
                    results.push((name, r.status));
                }
            }
            let what = format!("{variant} #{k} caps {:?} tiles {:?}", inst.capacities, inst.tiles);
            assert!(agree(&what, &results, &mut tally).is_some(), "nobody decided {what}");
        }
        eprintln!("{variant}: {tally:?}");
        // Both answers must occur on the three main variants; the 60 instances of the other
        // deltahedra may all be satisfiable (they are here for agreement and verification).
        assert!(tally.sat > 0 && (n < 150 || tally.unsat > 0), "{variant}: {tally:?}");
        // Only cp and mip may answer unknown (asserted above). pumpkin's model is slow on
        // satisfiable instances of 12 faces and more (1 s median on icosoku100), so there it
        // may give up on one run in four (of all runs, every backend counted); on the
        // tetrahedron and octahedron on one run in ten.
        let bound = if matches!(variant, "tetrahedron" | "octahedron") {
            10
        } else {
            4
        };
        assert!(
            tally.unknown_runs * bound <= tally.runs,
            "{variant}: too many unknowns {tally:?}"
        );
    }
}

/// Solves a grid on every backend with --unique semantics; statuses and uniqueness agree.
fn grid_round(p: &GridPuzzle, what: &str, tally: &mut Tally) {
    let mut results = Vec::new();
    let mut uniques = Vec::new();
    for (name, limit) in backends(500) {
        let mut b = backend::by_name(name).unwrap();
        let opts = SolveOptions {
            time_limit: limit.map(|l| l * 4),
            ..Default::default()
        };
        let r = grid_pipeline::solve(p, b.as_mut(), &opts, true).unwrap();
        if r.status == Status::Sat {
            assert!(r.verified, "{name} answer not verified on {what}");
            if let Some(u) = r.unique {
                uniques.push((name, u));
            }
        }
        if r.status == Status::Unknown {
            assert!(limit.is_some(), "{name} gave up without a time limit on {what}");
        }
        results.push((name, r.status));
    }
    agree(what, &results, tally);
    assert!(
        uniques.windows(2).all(|w| w[0].1 == w[1].1),
        "uniqueness verdicts differ on {what}: {uniques:?}"
    );
}

#[test]
fn random_tricky_triple_grids_agree_on_every_backend() {
    let mut rng = Rng(0x7711_2233_4455_6677);
    let mut tally = Tally::default();
    for k in 0..300 * scale() {
        let (rows, cols) = (4 + rng.below(4) as usize, 4 + rng.below(4) as usize);
        let mut text = format!("trickytriple {rows} {cols}\n");
        for _ in 0..rows {
            let cells: Vec<String> = (0..cols)
                .map(|_| match rng.below(20) {
                    0 | 1 => "X".to_string(),
                    2..=4 => (1 + rng.below(3)).to_string(),
                    _ => ".".to_string(),
                })
                .collect();
            text.push_str(&cells.join(" "));
            text.push('\n');
        }
        let t = sokuc::tricky::Tricky::parse("random.tt", &text).unwrap();
        grid_round(&GridPuzzle::Tricky(t), &format!("tt #{k}\n{text}"), &mut tally);
    }
    eprintln!("tricky triple: {tally:?}");
    assert!(tally.sat > 0 && tally.unsat > 0, "{tally:?}");
    assert!(tally.unknown_runs * 10 <= tally.runs, "{tally:?}");
}

#[test]
fn kakuro_boards_with_a_changed_clue_agree_on_every_backend() {
    let dir = root().join("instances/kakuro");
    let mut boards: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "kakuro"))
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    boards.sort();
    let mut rng = Rng(0x0b0a_4d5e_1234_9876);
    let mut tally = Tally::default();
    let mut rejected = 0;
    for k in 0..70 * scale() {
        let (name, text) = &boards[k % boards.len()];
        // Change one clue number (the digits right before or after a backslash) by +-1 or 2.
        let clues: Vec<(usize, usize)> = {
            let b = text.as_bytes();
            let mut spans = Vec::new();
            let mut i = 0;
            while i < b.len() {
                if b[i].is_ascii_digit() && !text[..i].ends_with('#') {
                    let s = i;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                    let touches = (s > 0 && b[s - 1] == b'\\') || (i < b.len() && b[i] == b'\\');
                    if touches {
                        spans.push((s, i));
                    }
                } else {
                    i += 1;
                }
            }
            spans
        };
        if k < boards.len() {
            // Each board once as published (satisfiable and unique).
            let kk = sokuc::kakuro::Kakuro::parse(name, text).unwrap();
            grid_round(&GridPuzzle::Kakuro(kk), name, &mut tally);
            continue;
        }
        let (s, e) = clues[rng.below(clues.len() as u64) as usize];
        let old: i64 = text[s..e].parse().unwrap();
        let delta = [-2, -1, 1, 2][rng.below(4) as usize];
        let changed = format!("{}{}{}", &text[..s], (old + delta).max(1), &text[e..]);
        match sokuc::kakuro::Kakuro::parse(name, &changed) {
            // An impossible clue for its run length is an input error by design.
            Err(_) => rejected += 1,
            Ok(kk) => grid_round(
                &GridPuzzle::Kakuro(kk),
                &format!("{name} clue at byte {s}: {old} -> {}", old + delta),
                &mut tally,
            ),
        }
    }
    eprintln!("kakuro: {tally:?}, {rejected} changes rejected by the parser");
    assert!(tally.sat > 0 && tally.unsat > 0, "{tally:?}");
}
