//! Differential testing: random instances through every backend. Statuses must agree, every
//! SAT answer must pass the puzzle's verifier, and (for grids) uniqueness verdicts must
//! agree too. 3SoKu instances on seven variants (satisfiable by construction, or with one
//! unit of capacity moved, which keeps the total and often breaks them), Tricky Triple
//! grids with random givens, and the public Kakuro boards with one clue changed.
//! Degenerate 3SoKu families (one tile type, all-zero tiles, equal capacities, a capacity 0,
//! tiles that are rotations of each other, every or no tile fixed, one type pinned by fixed
//! tiles) run on every backend with presolve on and off.
//!
//! "Every backend" counts `mip` and `highs` as one: the same MIP model, solved by CBC on
//! half of the instances and by HiGHS on the other half (`common::mip_takes_turn`).
//!
//! CI runs about 2,300 instances. For a longer local run, scale it:
//! `SOKUC_DIFF_SCALE=10 cargo test --release --test differential -- --nocapture`.
//! A backend may answer unknown only when it has a time limit here (cp and mip, whose
//! models are slow on some satisfiable icosahedra); unknowns are counted and bounded.
//!
//! Disagreements found so far: none among the backends; the degenerate families were added
//! after issue 13 (presolve refuted satisfiable one-type instances; with presolve off every
//! backend solves them).

mod common;

use std::time::Duration;

use common::root;
use sokuc::backend::{self, SolveOptions, Status};
use sokuc::input::variant_file::load_variant;
use sokuc::model::Instance;
use sokuc::puzzle::Puzzle;
use sokuc::run::{self, RunOptions};

use common::{DEGENERATE, Degenerate, Presolve, Rng};

fn scale() -> usize {
    std::env::var("SOKUC_DIFF_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// The backends of this build with the time limit each gets (None: must decide), and
/// `auto`, which hands each instance to one of them.
fn backends(cp_ms: u64) -> Vec<(&'static str, Option<Duration>)> {
    backend::general()
        .iter()
        .chain(&["auto"])
        .map(|&b| {
            let limit = match b {
                "cp" => Some(Duration::from_millis(cp_ms)),
                "mip" | "highs" => Some(Duration::from_secs(5)),
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

/// Solves a 3SoKu instance on every backend with presolve on, the sat backend also without
/// it (so the CNF alone is compared too), and each backend also in the `extra` modes;
/// statuses must agree and every answer verify.
fn soku_round(
    inst: &Instance,
    bs: &[(&'static str, Option<Duration>)],
    (what, k): (&str, usize),
    extra: &[Presolve],
    tally: &mut Tally,
) {
    let mut results = Vec::new();
    for &(name, limit) in bs.iter().filter(|(name, _)| common::mip_takes_turn(name, k)) {
        let mut modes = vec![Presolve::On];
        if name == "sat" {
            modes.push(Presolve::Off);
        }
        for &m in extra {
            if !modes.contains(&m) {
                modes.push(m);
            }
        }
        for mode in modes {
            let mut b = backend::by_name(name).unwrap();
            let opts = SolveOptions {
                time_limit: limit,
                ..Default::default()
            };
            let r = run::solve(inst, b.as_mut(), &mode.with(opts)).unwrap().answer;
            if r.status == Status::Sat {
                assert!(r.verified, "{name} answer not verified on {what}");
            }
            if r.status == Status::Unknown {
                assert!(limit.is_some(), "{name} gave up without a time limit on {what}");
            }
            results.push((name, r.status));
        }
    }
    let what = format!(
        "{what} caps {:?} tiles {:?} fixed {:?}",
        inst.capacities, inst.tiles, inst.fixed
    );
    assert!(
        agree(&what, results.as_slice(), tally).is_some(),
        "nobody decided {what}"
    );
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
            soku_round(&inst, &bs, (&format!("{variant} #{k}"), k), &[Presolve::On], &mut tally);
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

fn degenerate_soku(rng: &mut Rng, variant: &str, kind: Degenerate) -> Instance {
    use Degenerate as D;
    use sokuc::model::{Fixed, rotate};
    let v = load_variant(variant, None, ("test", None)).unwrap();
    let (nf, nv) = (v.num_faces(), v.num_vertices());
    // Weights biased toward 0 and 1, where ties make shapes degenerate.
    let w = |rng: &mut Rng| [0, 0, 0, 1, 1, 1, 2, 3][rng.below(8) as usize];
    let ntypes = match kind {
        D::OneType | D::PinnedAndOneType => 1,
        D::Rotations => 2 + rng.below(2) as usize,
        _ => 1 + rng.below(3) as usize,
    };
    let bases: Vec<[u64; 3]> = (0..ntypes)
        .map(|_| match kind {
            D::AllZero => [0; 3],
            D::ZeroCap => [0, w(rng), w(rng)],
            _ => [w(rng), w(rng), w(rng)],
        })
        .collect();
    let mut tiles: Vec<[u64; 3]> = (0..nf)
        .map(|_| rotate(bases[rng.below(ntypes as u64) as usize], rng.below(3) as u8))
        .collect();
    let mut pinned = 0;
    match kind {
        D::Rotations => {
            let (a, b) = (w(rng), w(rng));
            let t = [a, b, b + 1 + rng.below(2)];
            tiles[0] = t;
            tiles[1] = rotate(t, 1 + rng.below(2) as u8);
        }
        D::PinnedAndOneType => {
            let a = [w(rng), w(rng), w(rng)];
            pinned = 1 + rng.below(nf as u64 / 2) as usize;
            tiles[..pinned].fill(a);
        }
        D::EqualCaps => {
            let total: u64 = tiles.iter().flatten().sum();
            for k in 0..(nv as u64 - total % nv as u64) % nv as u64 {
                tiles[nf - 1][k as usize % 3] += 1;
            }
        }
        _ => {}
    }
    // Tile perm[f] on face f, turned by rots[f].
    let mut perm: Vec<usize> = (0..nf).collect();
    for i in (1..nf).rev() {
        perm.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut rots: Vec<u8> = (0..nf).map(|_| rng.below(3) as u8).collect();
    let zero_at = rng.below(nv as u64) as usize;
    if let D::ZeroCap = kind {
        for (f, face) in v.faces.iter().enumerate() {
            let t = tiles[perm[f]];
            if let (Some(i), Some(j)) = (face.iter().position(|&x| x == zero_at), t.iter().position(|&c| c == 0)) {
                rots[f] = ((i + 3 - j) % 3) as u8;
            }
        }
    }
    let mut caps = vec![0u64; nv];
    for (f, face) in v.faces.iter().enumerate() {
        let c = rotate(tiles[perm[f]], rots[f]);
        for i in 0..3 {
            caps[face[i]] += c[i];
        }
    }
    let total: u64 = caps.iter().sum();
    match kind {
        D::EqualCaps => caps = vec![total / nv as u64; nv],
        D::ZeroCap => {
            let next = (zero_at + 1) % nv;
            caps[next] += caps[zero_at];
            caps[zero_at] = 0;
        }
        D::AllZero if rng.below(3) == 0 => caps = (0..nv).map(|_| rng.below(2)).collect(),
        _ => match rng.below(6) {
            // One unit moved (same total, often unsatisfiable).
            0 | 1 => {
                let (a, b) = (rng.below(nv as u64) as usize, rng.below(nv as u64) as usize);
                if a != b && caps[a] > 0 {
                    caps[a] -= 1;
                    caps[b] += 1;
                }
            }
            // The same total spread at random.
            2 => {
                caps = vec![0; nv];
                for _ in 0..total {
                    caps[rng.below(nv as u64) as usize] += 1;
                }
            }
            _ => {}
        },
    }
    let mut fixed = Vec::new();
    for (f, &t) in perm.iter().enumerate() {
        let fix = match kind {
            D::AllFixed => true,
            D::PinnedAndOneType => t < pinned,
            D::NoneFixed => false,
            _ => rng.below(6) == 0,
        };
        if !fix {
            continue;
        }
        let (tile, rotation) = if matches!(kind, D::AllFixed) && rng.below(8) == 0 {
            (rng.below(nf as u64) as usize, Some(rng.below(3) as u8))
        } else {
            (t, (rng.below(2) == 0).then_some(rots[f]))
        };
        fixed.push(Fixed {
            face: f,
            tile,
            rotation,
        });
    }
    Instance {
        source: format!("degenerate {kind:?} {variant}"),
        variant: v,
        capacities: caps,
        tiles,
        fixed,
    }
}

#[test]
fn degenerate_3soku_instances_agree_on_every_backend() {
    let mut rng = Rng(0x1ec0_de9e_4e7a_7e13);
    for (variant, n, cp_ms) in [
        ("tetrahedron", 12, 500),
        ("octahedron", 12, 500),
        ("icosahedron", 4, 1000),
    ] {
        let bs = backends(cp_ms);
        let mut tally = Tally::default();
        for kind in DEGENERATE {
            for k in 0..n * scale() {
                let inst = degenerate_soku(&mut rng, variant, kind);
                // Every backend also without presolve: presolve ran before any backend in
                // issue 13, so only plain-model runs could disagree with it.
                soku_round(
                    &inst,
                    &bs,
                    (&format!("{variant} {kind:?} #{k}"), k),
                    &[Presolve::Off],
                    &mut tally,
                );
            }
        }
        eprintln!("{variant} degenerate: {tally:?}");
        assert!(tally.sat > 0 && tally.unsat > 0, "{variant}: {tally:?}");
        assert!(
            tally.unknown_runs * 10 <= tally.runs,
            "{variant}: too many unknowns {tally:?}"
        );
    }
}

/// Solves a grid on every backend with --unique semantics; statuses and uniqueness agree.
fn grid_round<P: Puzzle>(p: &P, (what, k): (&str, usize), tally: &mut Tally) {
    let mut results = Vec::new();
    let mut uniques = Vec::new();
    for (name, limit) in backends(500)
        .into_iter()
        .filter(|(name, _)| common::mip_takes_turn(name, k))
    {
        let mut b = backend::by_name(name).unwrap();
        let opts = SolveOptions {
            time_limit: limit.map(|l| l * 4),
            ..Default::default()
        };
        let opts = RunOptions {
            solve: opts,
            unique: true,
            ..Default::default()
        };
        let r = run::solve(p, b.as_mut(), &opts).unwrap().answer;
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
        grid_round(&t, (&format!("tt #{k}\n{text}"), k), &mut tally);
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
            grid_round(&kk, (name, k), &mut tally);
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
                &kk,
                (&format!("{name} clue at byte {s}: {old} -> {}", old + delta), k),
                &mut tally,
            ),
        }
    }
    eprintln!("kakuro: {tally:?}, {rejected} changes rejected by the parser");
    assert!(tally.sat > 0 && tally.unsat > 0, "{tally:?}");
}
