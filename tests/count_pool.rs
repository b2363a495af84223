//! The pool counter (`sokuc count` on pool instances and free pegs) against brute force
//! written here: every face takes every (pool type, distinct turn) in turn, bounds are
//! checked at the end, and a configuration counts when its vertex sums equal the given pegs
//! or, with free pegs, are a permutation of the multiset. Per arrangement (the sum vector)
//! the counts must add up to the total.

mod common;

use std::collections::HashMap;

use common::Rng;
use sokuc::count::{CountOptions, count_pool};
use sokuc::input::variant_file::load_variant;
use sokuc::model::pool::{Pegs, PoolInstance, PoolType};

fn turned(w: [u64; 3], r: usize) -> [u64; 3] {
    [w[(3 - r) % 3], w[(4 - r) % 3], w[(5 - r) % 3]]
}

/// Configurations per vertex-sum vector, by exhaustive enumeration.
fn brute(inst: &PoolInstance) -> HashMap<Vec<u64>, u64> {
    let v = &inst.variant;
    let bound = match &inst.pegs {
        Pegs::Fixed(c) => c.clone(),
        Pegs::Free(m) => vec![m.iter().copied().max().unwrap_or(0); v.num_vertices()],
    };
    let mut out = HashMap::new();
    let mut used = vec![0u32; inst.pool.len()];
    let mut sums = vec![0u64; v.num_vertices()];
    go(inst, &bound, 0, &mut used, &mut sums, &mut out);
    out
}

fn go(
    inst: &PoolInstance,
    bound: &[u64],
    f: usize,
    used: &mut Vec<u32>,
    sums: &mut Vec<u64>,
    out: &mut HashMap<Vec<u64>, u64>,
) {
    let v = &inst.variant;
    if f == v.num_faces() {
        if inst.pool.iter().zip(used.iter()).any(|(t, &u)| u < t.min) {
            return;
        }
        let ok = match &inst.pegs {
            Pegs::Fixed(c) => c == sums,
            Pegs::Free(m) => {
                let (mut a, mut b) = (m.clone(), sums.clone());
                a.sort_unstable();
                b.sort_unstable();
                a == b
            }
        };
        if ok {
            *out.entry(sums.clone()).or_insert(0) += 1;
        }
        return;
    }
    let face = v.faces[f];
    for (t, pt) in inst.pool.iter().enumerate() {
        if used[t] >= pt.max {
            continue;
        }
        let mut shown: Vec<[u64; 3]> = Vec::new();
        for r in 0..3 {
            let c = turned(pt.tile, r);
            if shown.contains(&c) {
                continue;
            }
            shown.push(c);
            if (0..3).any(|i| sums[face[i]] + c[i] > bound[face[i]]) {
                continue;
            }
            used[t] += 1;
            for i in 0..3 {
                sums[face[i]] += c[i];
            }
            go(inst, bound, f + 1, used, sums, out);
            for i in 0..3 {
                sums[face[i]] -= c[i];
            }
            used[t] -= 1;
        }
    }
}

fn pool_inst(variant: &str, pool: Vec<PoolType>, pegs: Pegs) -> PoolInstance {
    PoolInstance {
        source: "test".to_string(),
        variant: load_variant(variant, None, ("test", None)).unwrap(),
        pool,
        pegs,
    }
}

fn counted(inst: &PoolInstance) -> u128 {
    let c = count_pool(inst, &CountOptions::default()).unwrap();
    u128::try_from(&c.count).unwrap()
}

/// The counter's total equals brute force; with free pegs, so does every arrangement's count
/// (the pool instance with those pegs fixed), and they add up to the total.
fn check(inst: &PoolInstance, what: &str) -> u64 {
    let by = brute(inst);
    let total: u64 = by.values().sum();
    assert_eq!(counted(inst), total as u128, "{what}: total");
    if matches!(inst.pegs, Pegs::Free(_)) {
        let mut sum = 0u128;
        for (caps, &n) in &by {
            let fixed = PoolInstance {
                pegs: Pegs::Fixed(caps.clone()),
                ..inst.clone()
            };
            let got = counted(&fixed);
            assert_eq!(got, n as u128, "{what}: arrangement {caps:?}");
            sum += got;
        }
        assert_eq!(sum, total as u128, "{what}: arrangements add up to the total");
    }
    total
}

fn random_pool(rng: &mut Rng, types: usize, max_w: u64, max_mult: u32) -> Vec<PoolType> {
    let mut pool: Vec<PoolType> = Vec::new();
    while pool.len() < types {
        let t = [rng.below(max_w + 1), rng.below(max_w + 1), rng.below(max_w + 1)];
        if pool.iter().any(|p| (0..3).any(|r| turned(p.tile, r) == t)) {
            continue;
        }
        let max = 1 + rng.below(max_mult as u64) as u32;
        let min = if rng.below(4) == 0 {
            rng.below(max as u64 + 1) as u32
        } else {
            0
        };
        pool.push(PoolType { tile: t, min, max });
    }
    pool
}

/// A planted solution's sums, so that most instances have solutions.
fn planted(rng: &mut Rng, variant: &str, pool: &[PoolType]) -> Vec<u64> {
    let v = load_variant(variant, None, ("test", None)).unwrap();
    let mut sums = vec![0u64; v.num_vertices()];
    for face in &v.faces {
        let t = pool[rng.below(pool.len() as u64) as usize].tile;
        let c = turned(t, rng.below(3) as usize);
        for i in 0..3 {
            sums[face[i]] += c[i];
        }
    }
    sums
}

#[test]
fn pool_counts_equal_brute_force_on_random_small_instances() {
    let mut rng = Rng(162);
    let mut nonzero = 0;
    for round in 0..60 {
        let variant = ["tetrahedron", "bipyramid-3", "octahedron"][round % 3];
        let types = if variant == "octahedron" { 4 } else { 5 };
        let pool = random_pool(&mut rng, types, 3, 3);
        let sums = planted(&mut rng, variant, &pool);
        let pegs = if round % 2 == 0 {
            Pegs::Free(sums)
        } else {
            Pegs::Fixed(sums)
        };
        let inst = pool_inst(variant, pool, pegs);
        if check(&inst, &format!("round {round} on {variant}")) > 0 {
            nonzero += 1;
        }
    }
    assert!(nonzero >= 20, "only {nonzero} instances had solutions");
}

#[test]
fn pool_degenerate_instances_count_as_brute_force_says() {
    let once = |t: [u64; 3], max: u32| PoolType { tile: t, min: 0, max };
    // One type, enough copies: every face the same tile.
    check(
        &pool_inst("octahedron", vec![once([1, 1, 1], 8)], Pegs::Fixed(vec![4; 6])),
        "one type",
    );
    check(
        &pool_inst("octahedron", vec![once([1, 1, 1], 8)], Pegs::Free(vec![4; 6])),
        "one type, free",
    );
    check(
        &pool_inst("tetrahedron", vec![once([0, 1, 2], 4)], Pegs::Free(vec![3; 4])),
        "turns",
    );
    // Zeros everywhere.
    let z = pool_inst(
        "tetrahedron",
        vec![once([0, 0, 0], 4), once([0, 0, 1], 4)],
        Pegs::Free(vec![0; 4]),
    );
    assert_eq!(check(&z, "zeros"), 1);
    // All-equal pegs with several types.
    let eq = pool_inst(
        "octahedron",
        vec![
            once([1, 1, 1], 8),
            once([0, 1, 2], 8),
            once([0, 2, 1], 8),
            once([2, 2, 0], 2),
        ],
        Pegs::Free(vec![4; 6]),
    );
    assert!(check(&eq, "all equal") > 1);
    // Bounds that make it unsatisfiable: too few copies, or minimums past the faces.
    let few = pool_inst("octahedron", vec![once([1, 1, 1], 7)], Pegs::Fixed(vec![4; 6]));
    assert_eq!(check(&few, "too few copies"), 0);
    let mins = pool_inst(
        "tetrahedron",
        vec![
            PoolType {
                tile: [1, 1, 1],
                min: 3,
                max: 4,
            },
            PoolType {
                tile: [0, 0, 0],
                min: 2,
                max: 4,
            },
        ],
        Pegs::Free(vec![3, 3, 0, 0]),
    );
    assert_eq!(check(&mins, "mins past the faces"), 0);
    let unmet = pool_inst(
        "tetrahedron",
        vec![
            PoolType {
                tile: [1, 1, 1],
                min: 0,
                max: 4,
            },
            PoolType {
                tile: [0, 0, 3],
                min: 1,
                max: 1,
            },
        ],
        Pegs::Fixed(vec![3; 4]),
    );
    assert_eq!(check(&unmet, "a minimum that cannot be met"), 0);
    // Pegs whose total differs from any configuration's.
    assert_eq!(
        check(
            &pool_inst("tetrahedron", vec![once([1, 1, 1], 4)], Pegs::Free(vec![3, 3, 3, 4])),
            "total"
        ),
        0
    );
    // A tile list with free pegs: min = max = multiplicity.
    let list = pool_inst(
        "tetrahedron",
        vec![
            PoolType {
                tile: [0, 0, 1],
                min: 2,
                max: 2,
            },
            PoolType {
                tile: [1, 1, 2],
                min: 2,
                max: 2,
            },
        ],
        Pegs::Free(vec![1, 2, 3, 4]),
    );
    check(&list, "tile list, free pegs");
}

#[test]
fn all24_on_the_tetrahedron_counts_as_brute_force_says() {
    let pool: Vec<PoolType> = sokuc::model::pool::all_types()
        .into_iter()
        .map(PoolType::once)
        .collect();
    let inst = pool_inst("tetrahedron", pool, Pegs::Free(vec![3, 4, 5, 6]));
    assert!(check(&inst, "all24, pegs 3..6 free") > 0);
}

#[test]
fn cli_counts_pool_instances() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sokuc"))
        .args(["count", "instances/octahedron-pool.toml", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["puzzle"], "pool");
    let pool = vec![
        PoolType {
            tile: [1, 1, 1],
            min: 2,
            max: 8,
        },
        PoolType {
            tile: [0, 1, 2],
            min: 0,
            max: 3,
        },
        PoolType {
            tile: [0, 2, 1],
            min: 0,
            max: 1,
        },
        PoolType {
            tile: [2, 2, 0],
            min: 0,
            max: 1,
        },
        PoolType {
            tile: [0, 0, 2],
            min: 0,
            max: 1,
        },
    ];
    let n = check(
        &pool_inst("octahedron", pool, Pegs::Fixed(vec![4; 6])),
        "octahedron-pool.toml",
    );
    assert_eq!(j["count"], n.to_string());
}

/// `--by-capacities` over the orbits: each representative's count times its orbit's size
/// adds up to the free-peg total (brute force), and every arrangement in an orbit has the
/// representative's count (brute force per sum vector).
#[test]
fn per_arrangement_counts_over_orbits_add_up_to_the_total() {
    use sokuc::count::by_caps::{Which, by_capacities};
    let cases = [
        pool_inst(
            "tetrahedron",
            vec![
                PoolType {
                    tile: [0, 0, 1],
                    min: 2,
                    max: 2,
                },
                PoolType {
                    tile: [1, 1, 2],
                    min: 2,
                    max: 2,
                },
            ],
            Pegs::Free(vec![1, 2, 3, 4]),
        ),
        pool_inst(
            "octahedron",
            vec![
                PoolType {
                    tile: [0, 1, 2],
                    min: 0,
                    max: 4,
                },
                PoolType {
                    tile: [0, 2, 1],
                    min: 0,
                    max: 4,
                },
                PoolType {
                    tile: [1, 1, 1],
                    min: 0,
                    max: 3,
                },
                PoolType {
                    tile: [0, 0, 3],
                    min: 0,
                    max: 2,
                },
            ],
            Pegs::Free(vec![3, 3, 4, 4, 5, 5]),
        ),
        pool_inst(
            "octahedron",
            vec![
                PoolType {
                    tile: [0, 1, 2],
                    min: 0,
                    max: 8,
                },
                PoolType {
                    tile: [1, 1, 1],
                    min: 0,
                    max: 8,
                },
            ],
            Pegs::Free(vec![2, 3, 4, 4, 5, 6]),
        ),
    ];
    for (k, inst) in cases.iter().enumerate() {
        let by = brute(inst);
        let total: u64 = by.values().sum();
        let mut seen = 0u64;
        let s = by_capacities(inst, Which::Orbits, &CountOptions::default(), &mut |a| {
            assert_eq!(
                a.count,
                Some(*by.get(&a.caps).unwrap_or(&0) as u128),
                "case {k}: {:?}",
                a.caps
            );
            seen += 1;
            Ok(())
        })
        .unwrap();
        assert!(s.complete);
        assert_eq!(s.arrangements, seen);
        assert_eq!(
            s.total,
            total.into(),
            "case {k}: orbits times sizes add up to the total"
        );
        assert_eq!(counted(inst), total as u128, "case {k}");
        let nonzero: Vec<u64> = by.values().copied().filter(|&c| c > 0).collect();
        if let Some(&m) = nonzero.iter().min() {
            assert_eq!(s.min, Some(m as u128), "case {k}: min");
        }
    }
}

#[test]
fn by_capacities_refuses_given_pegs_and_keeps_the_time_limit() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_sokuc"))
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["count", "instances/octahedron-pool.toml", "--by-capacities"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("free pegs"), "{err}");
    let out = run(&[
        "count",
        "instances/liu-adts.toml",
        "--by-capacities",
        "--sample",
        "1",
        "--timeout",
        "1",
        "--summary",
    ]);
    assert_eq!(out.status.code(), Some(30));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("stopped by the time limit"));
}

#[test]
fn by_capacities_skips_an_arrangement_over_the_memory_limit_and_goes_on() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sokuc"))
        .args([
            "count",
            "instances/icosoku-free-pegs.toml",
            "--by-capacities",
            "--sample",
            "3",
            "--max-memory",
            "1M",
        ])
        .output()
        .unwrap();
    // Incomplete figures: exit 30, as for the time limit, and never a bare error.
    assert_eq!(out.status.code(), Some(30), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    for l in &lines[..3] {
        assert!(l.contains(" skipped 1 "), "{l}");
    }
    assert!(lines[3].contains("3 skipped over --max-memory"), "{text}");
    assert!(lines[3].starts_with("0 random arrangements"), "{text}");
}
