//! The exact counter (`sokuc count`, issue 16 item 2) against brute force written here:
//! every assignment of the instance's (distinguishable) tiles to faces, in every turn, is
//! enumerated directly; the configurations (the corners each face shows) are collected in a
//! set, and the placements (which tile, which corners, per face) are counted. The counter
//! must give the same number of configurations, and placements = configurations times the
//! product of the multiplicities' factorials. Random and degenerate tile sets on the
//! tetrahedron, the octahedron and small bipyramids, with and without fixed tiles.

mod common;

use std::collections::HashSet;

use common::Rng;
use sokuc::count::{CountOptions, count_instance};
use sokuc::input::variant_file::load_variant;
use sokuc::model::{Fixed, Instance};

/// Corners of tile `w` turned clockwise by `r`: corners[i] = w[(i - r) mod 3].
fn turned(w: [u64; 3], r: usize) -> [u64; 3] {
    [w[(3 - r) % 3], w[(4 - r) % 3], w[(5 - r) % 3]]
}

fn same_tile(a: [u64; 3], b: [u64; 3]) -> bool {
    (0..3).any(|r| turned(a, r) == b)
}

struct Brute<'a> {
    inst: &'a Instance,
    /// Faces left at each vertex.
    left: Vec<usize>,
    sums: Vec<u64>,
    used: Vec<bool>,
    shown: Vec<[u64; 3]>,
    configurations: HashSet<Vec<[u64; 3]>>,
    placements: u64,
}

impl Brute<'_> {
    fn face(&mut self, f: usize) {
        let inst = self.inst;
        if f == inst.variant.num_faces() {
            if inst.tiles.len() == f && self.sums == inst.capacities {
                self.configurations.insert(self.shown.clone());
                self.placements += 1;
            }
            return;
        }
        let face = inst.variant.faces[f];
        for t in 0..inst.tiles.len() {
            let w = inst.tiles[t];
            // Copies listed alike are taken in list order (the others' orders are counted
            // by `listed_alike`); copies listed in other turns are enumerated apart.
            if self.used[t] || (0..t).any(|u| !self.used[u] && inst.tiles[u] == w) {
                continue;
            }
            let mut tried: Vec<[u64; 3]> = Vec::new();
            for r in 0..3 {
                let c = turned(w, r);
                // Turns of a symmetric tile that show the same corners are one placement.
                if tried.contains(&c) {
                    continue;
                }
                tried.push(c);
                let fixed_ok = inst.fixed.iter().filter(|x| x.face == f).all(|x| {
                    same_tile(inst.tiles[x.tile], w)
                        && x.rotation.is_none_or(|fr| turned(inst.tiles[x.tile], fr as usize) == c)
                });
                if !fixed_ok {
                    continue;
                }
                for i in 0..3 {
                    self.sums[face[i]] += c[i];
                    self.left[face[i]] -= 1;
                }
                let ok = face.iter().all(|&v| {
                    self.sums[v] <= inst.capacities[v] && (self.left[v] > 0 || self.sums[v] == inst.capacities[v])
                });
                if ok {
                    self.used[t] = true;
                    self.shown[f] = c;
                    self.face(f + 1);
                    self.used[t] = false;
                }
                for i in 0..3 {
                    self.sums[face[i]] -= c[i];
                    self.left[face[i]] += 1;
                }
            }
        }
    }
}

/// (configurations, placements) by enumeration: the leaves of the search, times the orders
/// of tiles listed alike that it skips.
fn brute(inst: &Instance) -> (u64, u64) {
    let mut left = vec![0; inst.variant.num_vertices()];
    for f in &inst.variant.faces {
        for &v in f {
            left[v] += 1;
        }
    }
    let mut b = Brute {
        inst,
        left,
        sums: vec![0; inst.variant.num_vertices()],
        used: vec![false; inst.tiles.len()],
        shown: vec![[0; 3]; inst.variant.num_faces()],
        configurations: HashSet::new(),
        placements: 0,
    };
    b.face(0);
    (b.configurations.len() as u64, b.placements * listed_alike(&inst.tiles))
}

/// The orders of the copies listed alike (weights equal as listed, not only up to turning).
fn listed_alike(tiles: &[[u64; 3]]) -> u64 {
    let mut seen: Vec<([u64; 3], u64)> = Vec::new();
    for &t in tiles {
        match seen.iter_mut().find(|(u, _)| *u == t) {
            Some((_, n)) => *n += 1,
            None => seen.push((t, 1)),
        }
    }
    seen.iter().map(|&(_, n)| (1..=n).product::<u64>()).product()
}

/// The product of the factorials of how often each tile occurs (up to turning).
fn symmetry(tiles: &[[u64; 3]]) -> u64 {
    let mut seen: Vec<([u64; 3], u64)> = Vec::new();
    for &t in tiles {
        match seen.iter_mut().find(|(u, _)| same_tile(*u, t)) {
            Some((_, n)) => *n += 1,
            None => seen.push((t, 1)),
        }
    }
    seen.iter().map(|&(_, n)| (1..=n).product::<u64>()).product()
}

fn check(inst: &Instance, what: &str) -> u64 {
    let (configurations, placements) = brute(inst);
    let c = count_instance(inst, &CountOptions::default()).unwrap_or_else(|e| panic!("{what}: {e}"));
    let sym = symmetry(&inst.tiles);
    let detail = format!(
        "{what}: caps {:?} tiles {:?} fixed {:?}",
        inst.capacities, inst.tiles, inst.fixed
    );
    assert_eq!(c.count.to_string(), configurations.to_string(), "count, {detail}");
    assert_eq!(placements, configurations * sym, "brute force placements, {detail}");
    assert_eq!(c.placements.to_string(), placements.to_string(), "placements, {detail}");
    configurations
}

/// Tiles with weights from `weights`; capacities from one random arrangement (so there is a
/// solution), then now and then disturbed; some faces fixed to what that arrangement put
/// there (with or without its turn), or to a random tile.
fn random(rng: &mut Rng, variant: &str, weights: &[u64], fix_rate: u64) -> Instance {
    let v = load_variant(variant, None, ("test", None)).unwrap();
    let (nf, nv) = (v.num_faces(), v.num_vertices());
    let pick = |rng: &mut Rng| weights[rng.below(weights.len() as u64) as usize];
    // A few distinct tiles, repeated, so that identical tiles are common.
    let kinds = 1 + rng.below(nf as u64) as usize;
    let base: Vec<[u64; 3]> = (0..kinds).map(|_| [pick(rng), pick(rng), pick(rng)]).collect();
    let tiles: Vec<[u64; 3]> = (0..nf)
        .map(|_| turned(base[rng.below(kinds as u64) as usize], rng.below(3) as usize))
        .collect();
    let mut perm: Vec<usize> = (0..nf).collect();
    for i in (1..nf).rev() {
        perm.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let rots: Vec<usize> = (0..nf).map(|_| rng.below(3) as usize).collect();
    let mut caps = vec![0u64; nv];
    for (f, face) in v.faces.iter().enumerate() {
        let c = turned(tiles[perm[f]], rots[f]);
        for i in 0..3 {
            caps[face[i]] += c[i];
        }
    }
    match rng.below(5) {
        0 => {
            let (a, b) = (rng.below(nv as u64) as usize, rng.below(nv as u64) as usize);
            if caps[a] > 0 {
                caps[a] -= 1;
                caps[b] += 1;
            }
        }
        1 if rng.below(4) == 0 => caps[0] += 1, // a wrong total
        _ => {}
    }
    let mut fixed = Vec::new();
    for f in 0..nf {
        if rng.below(100) < fix_rate {
            let (tile, rotation) = if rng.below(10) == 0 {
                (rng.below(nf as u64) as usize, Some(rng.below(3) as u8))
            } else {
                // The tile as listed turned by r shows turned(tiles[t], r).
                (perm[f], (rng.below(2) == 0).then_some(rots[f] as u8))
            };
            fixed.push(Fixed {
                face: f,
                tile,
                rotation,
            });
        }
    }
    Instance {
        source: format!("random {variant}"),
        variant: v,
        capacities: caps,
        tiles,
        fixed,
    }
}

#[test]
fn counts_equal_brute_force_on_random_small_instances() {
    let mut rng = Rng(0xc0ff_ee00_1234_5678);
    for (variant, n, weights) in [
        ("tetrahedron", 300, &[0, 1, 2, 3][..]),
        ("bipyramid-3", 200, &[0, 1, 2, 3][..]),
        ("octahedron", 150, &[0, 1, 2][..]),
        ("octahedron", 60, &[0, 1, 2, 3, 5][..]),
        ("bipyramid-5", 12, &[0, 1, 2][..]),
    ] {
        let (mut solvable, mut many) = (0, 0);
        let started = std::time::Instant::now();
        for k in 0..n {
            let fix_rate = [0, 0, 15, 40, 100][k % 5];
            let inst = random(&mut rng, variant, weights, fix_rate);
            let c = check(&inst, &format!("{variant} #{k}"));
            solvable += (c > 0) as usize;
            many += (c > 1) as usize;
        }
        eprintln!(
            "{variant}: {solvable} of {n} solvable, {many} with several solutions ({:.1} s)",
            started.elapsed().as_secs_f64()
        );
        assert!(
            solvable > n / 4 && many > 0 && solvable < n,
            "{variant}: {solvable}, {many} of {n}"
        );
    }
}

fn inst(variant: &str, tiles: Vec<[u64; 3]>, caps: Vec<u64>, fixed: Vec<Fixed>) -> Instance {
    Instance {
        source: "test".into(),
        variant: load_variant(variant, None, ("test", None)).unwrap(),
        capacities: caps,
        tiles,
        fixed,
    }
}

#[test]
fn degenerate_instances_count_as_brute_force_says() {
    let fixed = |face, tile, rotation| Fixed { face, tile, rotation };
    let cases: Vec<(&str, Instance, Option<u64>)> = vec![
        // All zero: one configuration, 4! placements.
        (
            "zeros",
            inst("tetrahedron", vec![[0; 3]; 4], vec![0; 4], vec![]),
            Some(1),
        ),
        // All equal weights: every face shows (1,1,1), one configuration.
        (
            "uniform",
            inst("octahedron", vec![[1; 3]; 8], vec![4; 6], vec![]),
            Some(1),
        ),
        // One non-uniform type everywhere.
        (
            "one type",
            inst("tetrahedron", vec![[0, 0, 1]; 4], vec![1; 4], vec![]),
            None,
        ),
        (
            "one type, turned",
            inst(
                "octahedron",
                vec![
                    [0, 1, 2],
                    [1, 2, 0],
                    [2, 0, 1],
                    [0, 1, 2],
                    [0, 1, 2],
                    [1, 2, 0],
                    [0, 1, 2],
                    [2, 0, 1],
                ],
                vec![4; 6],
                vec![],
            ),
            None,
        ),
        // Unsatisfiable: wrong total, and a right total that no arrangement meets.
        (
            "wrong total",
            inst("tetrahedron", vec![[0, 0, 1]; 4], vec![1, 1, 1, 2], vec![]),
            Some(0),
        ),
        (
            "unsat",
            inst(
                "tetrahedron",
                vec![[0, 0, 1], [0, 0, 2], [0, 0, 3], [1, 1, 2]],
                vec![0, 0, 0, 10],
                vec![],
            ),
            Some(0),
        ),
        (
            "too heavy",
            inst(
                "tetrahedron",
                vec![[0, 0, 9], [0, 0, 0], [0, 0, 0], [0, 0, 0]],
                vec![3, 3, 3, 0],
                vec![],
            ),
            Some(0),
        ),
        // Every face fixed, with and without turns.
        (
            "all fixed",
            inst(
                "tetrahedron",
                vec![[0, 0, 1], [0, 0, 2], [0, 0, 3], [1, 1, 2]],
                vec![1, 2, 3, 4],
                (0..4).map(|f| fixed(f, f, None)).collect(),
            ),
            None,
        ),
        (
            "all fixed, turned",
            inst(
                "tetrahedron",
                vec![[0, 0, 1]; 4],
                vec![1; 4],
                (0..4).map(|f| fixed(f, 0, Some((f % 3) as u8))).collect(),
            ),
            None,
        ),
        // A face fixed twice, inconsistently: nothing fits.
        (
            "conflict",
            inst(
                "tetrahedron",
                vec![[0, 0, 1], [0, 0, 2], [0, 0, 3], [1, 1, 2]],
                vec![1, 2, 3, 4],
                vec![fixed(0, 0, None), fixed(0, 1, None)],
            ),
            Some(0),
        ),
        // More copies fixed than exist.
        (
            "overfixed",
            inst(
                "tetrahedron",
                vec![[0, 0, 1], [0, 0, 1], [0, 0, 0], [0, 0, 0]],
                vec![1, 1, 0, 0],
                (0..3).map(|f| fixed(f, 0, None)).collect(),
            ),
            Some(0),
        ),
    ];
    for (what, i, expect) in cases {
        let c = check(&i, what);
        if let Some(e) = expect {
            assert_eq!(c, e, "{what}");
        }
    }
}

#[test]
fn placements_of_icosoku_tiles_are_144_times_the_configurations() {
    // The seed's tetrahedron example, and the factor 3!3!2!2! of the IcoSoKu tile set.
    let tiles = sokuc::model::builtin::ICOSOKU_TILES.to_vec();
    assert_eq!(symmetry(&tiles), 144);
}

/// The count is the same whatever the deadline and memory allow, and a small memory limit
/// is refused with a message, not exhausted.
#[test]
fn limits_are_refused_clearly() {
    let i = inst("octahedron", vec![[0, 1, 2]; 8], vec![4; 6], vec![]);
    let tight = CountOptions {
        max_memory: 200,
        ..Default::default()
    };
    let e = count_instance(&i, &tight).unwrap_err().to_string();
    assert!(e.contains("--max-memory") && e.contains("states"), "{e}");
}

#[test]
fn cli_counts_3soku_by_its_programme_and_other_kinds_generically() {
    let o = common::sokuc()
        .args(["count", "instances/tetrasoku-seed.toml", "--format", "json"])
        .current_dir(common::root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let text = std::fs::read_to_string(common::root().join("instances/tetrasoku-seed.toml")).unwrap();
    let i = sokuc::input::instance_file::parse_instance("tetrasoku-seed.toml", &text, None);
    let expect = brute(&i.unwrap());
    assert_eq!(v["count"], expect.0.to_string(), "{v}");
    assert_eq!(v["placements"], expect.1.to_string(), "{v}");
    assert!(v["method"].as_str().unwrap().contains("dynamic programming"), "{v}");
    assert!(v["time_ms"].is_number(), "{v}");

    let o = common::sokuc()
        .args(["count", "--pegs", "1,5,11,10,7,12,9,2,6,8,4,3", "--max-memory", "1M"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--max-memory"), "{err}");

    let kakuro = std::fs::read_dir(common::root().join("instances/kakuro"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "kakuro"))
        .unwrap();
    // Other kinds go to the generic counter (tests/count_agree.rs checks its counts).
    let o = common::sokuc()
        .arg("count")
        .arg(&kakuro)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["puzzle"], "kakuro", "{v}");
    assert!(v["method"].as_str().unwrap().contains("model counting"), "{v}");
    assert!(v["count"].as_str().unwrap().parse::<u64>().is_ok(), "{v}");

    let o = common::sokuc()
        .args(["count", "instances/octasoku.toml"])
        .current_dir(common::root())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("distinct solutions") && out.contains(" ms"), "{out}");
}

/// A count is a claim ("every solution was counted"): its evidence names the counter and
/// what backs it, in the text and the JSON; `--strict`, which no second counter can honour
/// yet, is refused in one line by the command and with a typed error by the library.
#[test]
fn a_count_carries_its_claim_and_strict_is_refused() {
    let run = |args: &[&str]| {
        let o = common::sokuc().args(args).current_dir(common::root()).output().unwrap();
        (
            o.status.code(),
            String::from_utf8(o.stdout).unwrap(),
            String::from_utf8(o.stderr).unwrap(),
        )
    };
    let (code, out, _) = run(&["count", "instances/octasoku.toml"]);
    assert_eq!(code, Some(0));
    assert!(
        out.contains("\nevidence: complete by frontier: the engine's word\n"),
        "{out}"
    );
    let (_, out, _) = run(&["count", "instances/kakuro/gecode-k0-easy.kakuro", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let claim = &v["evidence"]["claims"][0];
    assert_eq!(
        (claim["claim"].as_str(), claim["by"].as_str()),
        (Some("complete"), Some("sharp")),
        "{v}"
    );
    assert_eq!(claim["backing"], "engine-word", "{v}");
    for extra in [&[][..], &["--by-capacities"][..]] {
        let mut args = vec!["count", "instances/octasoku.toml", "--strict"];
        args.extend_from_slice(extra);
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(2), "{err}");
        assert!(out.is_empty(), "{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("--strict does not go with count"), "{err}");
    }
    let octa = sokuc::Instance::read(common::root().join("instances/octasoku.toml")).unwrap();
    let e = octa.count(&sokuc::Count::new().strict(true)).unwrap_err();
    assert!(matches!(e, sokuc::Error::Unsupported { .. }), "{e:?}");
    assert!(e.to_string().contains("--strict does not go with count"), "{e}");
    let c = octa.count_detailed(&sokuc::Count::new()).unwrap().unwrap();
    assert!(
        c.evidence()
            .claim(sokuc::ClaimKind::Complete)
            .is_some_and(|c| c.accepted())
    );
}
