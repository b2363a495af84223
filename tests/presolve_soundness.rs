//! Presolve may only refute what the plain model cannot solve (issue 13: with one tile type,
//! its "every copy is pinned" step emptied every face, and `solve` answered unsat on
//! satisfiable instances while every backend agreed).
//!
//! Random instances biased toward degenerate shapes, each shape its own property: one tile
//! type, all-zero tiles, all-equal capacities, a capacity 0, tiles that are rotations of
//! each other, every tile fixed, no tile fixed, and one type pinned by fixed tiles with the
//! rest a single type. Each instance is solved with presolve on and off on the `sat` and
//! `search` backends (a sat answer is verified by the pipeline, asserted here); on the
//! tetrahedron and octahedron also by brute force. All answers must agree, and presolve must
//! never refute an instance that brute force or the plain model solves.

mod common;

use std::time::Duration;

use proptest::prelude::*;
use sokuc::backend::{self, SolveOptions, Status};
use sokuc::input::variant_file::load_variant;
use sokuc::model::tiles::canonical;
use sokuc::model::{Fixed, Instance, Tile, Variant, rotate};
use sokuc::run;

use common::{DEGENERATE, Degenerate as Shape, Presolve};

fn variant(name: &str) -> Variant {
    load_variant(name, None, ("test", None)).unwrap()
}

/// How the capacities are made from a planted arrangement.
#[derive(Debug, Clone)]
enum Caps {
    /// The sums of the planted arrangement: satisfiable.
    Planted,
    /// One unit moved from vertex a to vertex b: same total, often unsatisfiable.
    Moved(usize, usize),
    /// Every vertex the same capacity (the total divided evenly), when it divides.
    Equal,
    /// Zero corners turned toward vertex x where a tile has one, then x's load (if any)
    /// moved to the next vertex, so x has capacity 0.
    ZeroAt(usize),
    /// Arbitrary small capacities, whose total need not even match the tiles'.
    Arbitrary(Vec<u64>),
}

/// What is fixed about the tile a face carries in the planted arrangement.
#[derive(Debug, Clone, Copy)]
enum Fix {
    None,
    /// Its tile with its rotation.
    Rotated,
    /// Its tile, rotation free.
    Free,
    /// Another tile of the same type (possibly listed turned), with the rotation that gives
    /// the same corners.
    OtherCopy,
    /// Fixed twice: with and without the rotation.
    Twice,
    /// Any tile and rotation (often contradicting the planted arrangement).
    Random(usize, u8),
}

/// Tile `perm[f]` on face `f` turned by `rots[f]`; then capacities by `caps` and fixed
/// placements by `fixes` (indexed by tile, so a shape can choose which tiles are fixed).
fn build(v: &Variant, tiles: Vec<Tile>, perm: &[usize], rots: &[u8], caps: Caps, fixes: &[Fix]) -> Instance {
    let (nf, nv) = (v.num_faces(), v.num_vertices());
    let mut rots = rots.to_vec();
    if let Caps::ZeroAt(x) = caps {
        let x = x % nv;
        for (f, face) in v.faces.iter().enumerate() {
            let w = tiles[perm[f]];
            if let (Some(i), Some(j)) = (face.iter().position(|&u| u == x), w.iter().position(|&c| c == 0)) {
                // corners[i] = w[(i - r) mod 3] = w[j]
                rots[f] = ((i + 3 - j) % 3) as u8;
            }
        }
    }
    let mut c = vec![0u64; nv];
    for (f, face) in v.faces.iter().enumerate() {
        let corners = rotate(tiles[perm[f]], rots[f]);
        for i in 0..3 {
            c[face[i]] += corners[i];
        }
    }
    match caps {
        Caps::Planted => {}
        Caps::Moved(a, b) => {
            let (a, b) = (a % nv, b % nv);
            if a != b && c[a] > 0 {
                c[a] -= 1;
                c[b] += 1;
            }
        }
        Caps::Equal => {
            let total: u64 = c.iter().sum();
            if total.is_multiple_of(nv as u64) {
                c = vec![total / nv as u64; nv];
            }
        }
        Caps::ZeroAt(x) => {
            let x = x % nv;
            let y = (x + 1) % nv;
            c[y] += c[x];
            c[x] = 0;
        }
        Caps::Arbitrary(a) => c = a,
    }
    let mut fixed = Vec::new();
    for (f, &ti) in perm.iter().enumerate() {
        let with = |tile: usize, rotation: Option<u8>| Fixed {
            face: f,
            tile,
            rotation,
        };
        match fixes[ti] {
            Fix::None => {}
            Fix::Rotated => fixed.push(with(ti, Some(rots[f]))),
            Fix::Free => fixed.push(with(ti, None)),
            Fix::OtherCopy => {
                let corners = rotate(tiles[ti], rots[f]);
                let j = (0..nf)
                    .rev()
                    .find(|&j| canonical(tiles[j]) == canonical(tiles[ti]))
                    .unwrap();
                let r = (0..3u8).find(|&r| rotate(tiles[j], r) == corners).unwrap();
                fixed.push(with(j, Some(r)));
            }
            Fix::Twice => {
                fixed.push(with(ti, Some(rots[f])));
                fixed.push(with(ti, None));
            }
            Fix::Random(t, r) => fixed.push(with(t % nf, Some(r % 3))),
        }
    }
    Instance {
        source: "presolve soundness".into(),
        variant: v.clone(),
        capacities: c,
        tiles,
        fixed,
    }
}

/// Weights biased toward 0 and 1, where ties and empty corners make shapes degenerate.
fn weight() -> impl Strategy<Value = u64> {
    prop_oneof![4 => Just(0u64), 3 => Just(1u64), 2 => 2u64..=3]
}

/// `n` tiles of `types` random types, each tile listed with a random turn, so that
/// identical tiles are often rotations of each other rather than equal as listed. Few types
/// also keep the icosahedron quick for the search backend without presolve.
fn typed_tiles(n: usize, types: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Vec<Tile>> {
    typed_tiles_of(n, types, proptest::array::uniform3(weight()))
}

fn typed_tiles_of(
    n: usize,
    types: std::ops::RangeInclusive<usize>,
    base: impl Strategy<Value = Tile>,
) -> impl Strategy<Value = Vec<Tile>> {
    (
        proptest::collection::vec(base, types),
        proptest::collection::vec(any::<usize>(), n),
        proptest::collection::vec(0u8..3, n),
    )
        .prop_map(|(bases, pick, turn)| {
            pick.iter()
                .zip(&turn)
                .map(|(&p, &r)| rotate(bases[p % bases.len()], r))
                .collect()
        })
}

fn caps(nv: usize) -> impl Strategy<Value = Caps> {
    prop_oneof![
        3 => Just(Caps::Planted),
        3 => (0..nv, 0..nv).prop_map(|(a, b)| Caps::Moved(a, b)),
        1 => Just(Caps::Equal),
        1 => (0..nv).prop_map(Caps::ZeroAt),
        1 => proptest::collection::vec(0u64..=3, nv).prop_map(Caps::Arbitrary),
    ]
}

/// A fix kind; `none` is the weight of leaving the tile unfixed.
fn fix(none: u32) -> impl Strategy<Value = Fix> {
    prop_oneof![
        none => Just(Fix::None),
        3 => Just(Fix::Rotated),
        3 => Just(Fix::Free),
        2 => Just(Fix::OtherCopy),
        1 => Just(Fix::Twice),
        1 => (any::<usize>(), 0u8..3).prop_map(|(t, r)| Fix::Random(t, r)),
    ]
}

fn shape(v: Variant, s: Shape) -> BoxedStrategy<Instance> {
    let (nf, nv) = (v.num_faces(), v.num_vertices());
    let perm = Just((0..nf).collect::<Vec<usize>>()).prop_shuffle();
    let rots = proptest::collection::vec(0u8..3, nf);
    let some_fixed = proptest::collection::vec(fix(12), nf);
    match s {
        // Every tile the same type, listed in any turn: the issue's case.
        Shape::OneType => (typed_tiles(nf, 1..=1), perm, rots, caps(nv), some_fixed)
            .prop_map(move |(t, p, r, c, x)| build(&v, t, &p, &r, c, &x))
            .boxed(),
        // Capacities all 0 (satisfiable) or small and arbitrary (totals that do not match).
        Shape::AllZero => {
            let c = prop_oneof![
                Just(Caps::Planted),
                proptest::collection::vec(0u64..=1, nv).prop_map(Caps::Arbitrary)
            ];
            (perm, rots, c, some_fixed)
                .prop_map(move |(p, r, c, x)| build(&v, vec![[0; 3]; nf], &p, &r, c, &x))
                .boxed()
        }
        // The last tile padded so that the total divides evenly (one more type at most),
        // then every capacity equal.
        Shape::EqualCaps => (typed_tiles(nf, 1..=3), perm, rots, some_fixed)
            .prop_map(move |(mut t, p, r, x)| {
                let total: u64 = t.iter().flatten().sum();
                let pad = (nv as u64 - total % nv as u64) % nv as u64;
                for k in 0..pad as usize {
                    t[nf - 1][k % 3] += 1;
                }
                build(&v, t, &p, &r, Caps::Equal, &x)
            })
            .boxed(),
        // Tiles with a zero corner (mostly), one vertex of capacity 0.
        Shape::ZeroCap => {
            let base = prop_oneof![
                4 => (weight(), weight()).prop_map(|(a, b)| [0, a, b]),
                1 => proptest::array::uniform3(weight()),
            ];
            let zero_tiles = typed_tiles_of(nf, 1..=3, base);
            (zero_tiles, perm, rots, 0..nv, some_fixed)
                .prop_map(move |(t, p, r, z, x)| build(&v, t, &p, &r, Caps::ZeroAt(z), &x))
                .boxed()
        }
        // Two or three types, copies listed in different turns; the first two tiles are
        // always one non-uniform tile in two different turns.
        Shape::Rotations => (
            typed_tiles(nf, 2..=3),
            (weight(), weight(), 1u64..=2, 1u8..=2),
            perm,
            rots,
            caps(nv),
            some_fixed,
        )
            .prop_map(move |(mut t, (a, b, d, turn), p, r, c, x)| {
                let w = [a, b, b + d];
                t[0] = w;
                t[1] = rotate(w, turn);
                build(&v, t, &p, &r, c, &x)
            })
            .boxed(),
        Shape::AllFixed => (
            typed_tiles(nf, 1..=3),
            perm,
            rots,
            caps(nv),
            proptest::collection::vec(fix(0), nf),
        )
            .prop_map(move |(t, p, r, c, x)| build(&v, t, &p, &r, c, &x))
            .boxed(),
        Shape::NoneFixed => (typed_tiles(nf, 1..=4), perm, rots, caps(nv))
            .prop_map(move |(t, p, r, c)| build(&v, t, &p, &r, c, &vec![Fix::None; nf]))
            .boxed(),
        // The copies of one type all fixed, every other tile of a second type: pinning the
        // first leaves the rest faces with one type only (the second form of the issue).
        Shape::PinnedAndOneType => (
            proptest::array::uniform3(weight()),
            typed_tiles(nf, 1..=1),
            1..=nf / 2,
            perm,
            rots,
            caps(nv),
            proptest::collection::vec(
                prop_oneof![Just(Fix::Rotated), Just(Fix::Free), Just(Fix::OtherCopy)],
                nf,
            ),
        )
            .prop_map(move |(a, mut t, m, p, r, c, mut x)| {
                t[..m].fill(a);
                // Only copies of `a` are fixed (the rest type may equal `a`; then some are not).
                for (k, f) in x.iter_mut().enumerate() {
                    if canonical(t[k]) != canonical(a) {
                        *f = Fix::None;
                    }
                }
                build(&v, t, &p, &r, c, &x)
            })
            .boxed(),
    }
}

/// Variants by name, then a shape on each.
fn on(names: &'static [&'static str], s: Shape) -> impl Strategy<Value = Instance> {
    proptest::sample::select(names).prop_flat_map(move |n| shape(variant(n), s))
}

const SMALL: &[&str] = &["tetrahedron", "octahedron"];
const ICO: &[&str] = &["icosahedron"];

/// One backend's status, with presolve on or off; a sat answer must be verified, and only
/// a run with a time limit may answer unknown.
fn run(inst: &Instance, name: &str, mode: Presolve, limit: Option<Duration>) -> (Status, String) {
    let mut b = backend::by_name(name).unwrap();
    let opts = SolveOptions {
        time_limit: limit,
        ..Default::default()
    };
    let r = run::solve(inst, b.as_mut(), &mode.with(opts))
        .unwrap_or_else(|e| panic!("{name} {mode:?} failed on {}: {e}", describe(inst)))
        .answer;
    if r.status == Status::Sat {
        assert!(r.verified, "{name} {mode:?}: unverified answer on {}", describe(inst));
    }
    if limit.is_none() {
        assert_ne!(
            r.status,
            Status::Unknown,
            "{name} {mode:?} gave up without a time limit"
        );
    }
    (r.status, r.reason.unwrap_or_default())
}

fn describe(inst: &Instance) -> String {
    format!(
        "{} caps {:?} tiles {:?} fixed {:?}",
        inst.variant.name, inst.capacities, inst.tiles, inst.fixed
    )
}

/// Solves `inst` with presolve on and off on `sat` and `search`, and by brute force when
/// `brute`; all decided answers must agree. Returns the common status.
///
/// Without brute force (the icosahedron) each run has a time limit, so that one hard
/// instance cannot stall CI: the search backend without the LP argument takes from seconds
/// to minutes on some unsat icosahedra with many tile types (12–20 s was seen on 1 in 50
/// instances here, and a CI run under load never finished), so it gets 3 s and may answer
/// unknown. `sat` decides these in about a second; its generous limit only guards against a
/// hang, and the plain model must still be decided by it or by `search`.
fn check(inst: &Instance, brute: bool) -> Status {
    let mut answers = Vec::new();
    for name in ["sat", "search"] {
        let limit = match (brute, name) {
            (true, _) => None,
            (false, "search") => Some(Duration::from_secs(3)),
            (false, _) => Some(Duration::from_secs(120)),
        };
        for mode in [Presolve::Off, Presolve::On] {
            let (s, reason) = run(inst, name, mode, limit);
            answers.push((name, mode, s, reason));
        }
    }
    // The reference: brute force where feasible, else the plain model (presolve off).
    let truth = if brute {
        if common::brute_force(&common::raw_of(inst)) {
            Status::Sat
        } else {
            Status::Unsat
        }
    } else {
        answers
            .iter()
            .find(|a| a.1 == Presolve::Off && a.2 != Status::Unknown)
            .map(|a| a.2)
            .unwrap_or_else(|| panic!("no backend decided the plain model of {}", describe(inst)))
    };
    let answers: Vec<_> = answers.into_iter().filter(|a| a.2 != Status::Unknown).collect();
    // The property of the issue first, so a failure names it.
    for (name, mode, s, reason) in &answers {
        assert!(
            !(*mode == Presolve::On && *s == Status::Unsat && truth == Status::Sat),
            "presolve refuted a satisfiable instance ({name}: {reason}): {}",
            describe(inst)
        );
    }
    for (name, mode, s, reason) in &answers {
        assert_eq!(
            *s,
            truth,
            "{name} {mode:?} ({reason}) disagrees with {} on {}",
            if brute { "brute force" } else { "the plain model" },
            describe(inst)
        );
    }
    truth
}

proptest! {
    // About 2,400 instances in all; each property stays in the low seconds in release mode.
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn one_tile_type_small(inst in on(SMALL, Shape::OneType)) { check(&inst, true); }
    #[test]
    fn all_zero_tiles_small(inst in on(SMALL, Shape::AllZero)) { check(&inst, true); }
    #[test]
    fn equal_capacities_small(inst in on(SMALL, Shape::EqualCaps)) { check(&inst, true); }
    #[test]
    fn a_capacity_zero_small(inst in on(SMALL, Shape::ZeroCap)) { check(&inst, true); }
    #[test]
    fn tiles_rotations_of_each_other_small(inst in on(SMALL, Shape::Rotations)) { check(&inst, true); }
    #[test]
    fn every_tile_fixed_small(inst in on(SMALL, Shape::AllFixed)) { check(&inst, true); }
    #[test]
    fn no_tile_fixed_small(inst in on(SMALL, Shape::NoneFixed)) { check(&inst, true); }
    #[test]
    fn one_type_pinned_the_rest_one_type_small(inst in on(SMALL, Shape::PinnedAndOneType)) { check(&inst, true); }
}

proptest! {
    // Shrinking re-runs whole checks; bounded so that a failure is reported, not timed out.
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, max_shrink_iters: 64, max_shrink_time: 120_000, ..ProptestConfig::default() })]

    #[test]
    fn one_tile_type_icosahedron(inst in on(ICO, Shape::OneType)) { check(&inst, false); }
    #[test]
    fn all_zero_tiles_icosahedron(inst in on(ICO, Shape::AllZero)) { check(&inst, false); }
    #[test]
    fn equal_capacities_icosahedron(inst in on(ICO, Shape::EqualCaps)) { check(&inst, false); }
    #[test]
    fn a_capacity_zero_icosahedron(inst in on(ICO, Shape::ZeroCap)) { check(&inst, false); }
    #[test]
    fn tiles_rotations_of_each_other_icosahedron(inst in on(ICO, Shape::Rotations)) { check(&inst, false); }
    #[test]
    fn every_tile_fixed_icosahedron(inst in on(ICO, Shape::AllFixed)) { check(&inst, false); }
    #[test]
    fn no_tile_fixed_icosahedron(inst in on(ICO, Shape::NoneFixed)) { check(&inst, false); }
    #[test]
    fn one_type_pinned_the_rest_one_type_icosahedron(inst in on(ICO, Shape::PinnedAndOneType)) { check(&inst, false); }
}

fn plain(name: &str, tiles: Vec<Tile>, caps: Vec<u64>, fixed: Vec<Fixed>) -> Instance {
    Instance {
        source: "issue 13".into(),
        variant: variant(name),
        capacities: caps,
        tiles,
        fixed,
    }
}

/// The reported cases are satisfiable (brute force, or the plain model on the
/// icosahedron), and every run must now say so.
fn assert_sat(inst: &Instance) {
    let brute = inst.variant.num_faces() <= 8;
    assert_eq!(check(inst, brute), Status::Sat, "{}", describe(inst));
}

#[test]
fn issue_13_tetrahedron_four_identical_tiles() {
    assert_sat(&plain("tetrahedron", vec![[0, 0, 1]; 4], vec![1; 4], vec![]));
}

#[test]
fn issue_13_icosahedron_twenty_uniform_tiles_every_capacity_5() {
    assert_sat(&plain("icosahedron", vec![[1, 1, 1]; 20], vec![5; 12], vec![]));
}

#[test]
fn issue_13_rotated_copies_are_one_type() {
    let turned = |n: usize| (0..n).map(|i| rotate([0, 0, 1], (i % 3) as u8)).collect::<Vec<_>>();
    assert_sat(&plain("tetrahedron", turned(4), vec![1; 4], vec![]));
    // On the icosahedron with capacities read off one arrangement (tile i on face i).
    let v = variant("icosahedron");
    let tiles = turned(20);
    let mut caps = vec![0; 12];
    for (face, t) in v.faces.iter().zip(&tiles) {
        for i in 0..3 {
            caps[face[i]] += t[i];
        }
    }
    assert_sat(&plain("icosahedron", tiles, caps, vec![]));
}

#[test]
fn issue_13_one_type_left_after_pinning_the_other() {
    // (1,1,1) fixed on ABC uses its only copy; the three (0,0,1) then have faces of their
    // own type only, which the old step emptied too.
    let fixed = vec![Fixed {
        face: 0,
        tile: 0,
        rotation: None,
    }];
    let tiles = vec![[1, 1, 1], [0, 0, 1], [0, 0, 1], [0, 0, 1]];
    assert_sat(&plain("tetrahedron", tiles, vec![2, 2, 2, 0], fixed));
}

#[test]
fn presolve_still_refutes_what_it_should() {
    // The fix must not make presolve vacuous: two faces fixed to a tile with one copy,
    // and a total that does not match, are still refuted by presolve itself.
    let twice = plain(
        "tetrahedron",
        vec![[0, 0, 1], [0, 0, 2], [0, 0, 3], [1, 1, 2]],
        vec![1, 2, 3, 4],
        vec![
            Fixed {
                face: 0,
                tile: 0,
                rotation: None,
            },
            Fixed {
                face: 1,
                tile: 0,
                rotation: None,
            },
        ],
    );
    let wrong_total = plain("tetrahedron", vec![[0, 0, 1]; 4], vec![1, 1, 1, 2], vec![]);
    for inst in [twice, wrong_total] {
        assert_eq!(check(&inst, true), Status::Unsat);
        let (_, reason) = run(&inst, "sat", Presolve::On, None);
        assert!(reason.starts_with("presolve: "), "{reason}");
    }
}

#[test]
fn generators_make_their_shapes_and_both_answers() {
    // A guard against vacuous properties: each shape's instances have the shape's feature,
    // and on the small variants both sat and unsat instances occur.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    for s in DEGENERATE {
        let strategy = on(SMALL, s);
        let (mut sat, mut unsat, mut featured) = (0, 0, 0);
        let n = 60;
        for _ in 0..n {
            let inst = strategy.new_tree(&mut runner).unwrap().current();
            let types = inst.types();
            let has = match s {
                Shape::OneType => types.len() == 1,
                Shape::AllZero => inst.tiles.iter().flatten().all(|&w| w == 0),
                Shape::EqualCaps => inst.capacities.windows(2).all(|w| w[0] == w[1]),
                Shape::ZeroCap => inst.capacities.contains(&0),
                // Some type has copies listed in different turns.
                Shape::Rotations => types
                    .iter()
                    .any(|t| t.members.iter().any(|&m| inst.tiles[m] != inst.tiles[t.members[0]])),
                Shape::AllFixed => (0..inst.variant.num_faces()).all(|f| inst.fixed.iter().any(|x| x.face == f)),
                Shape::NoneFixed => inst.fixed.is_empty(),
                // Some face unfixed and every unfixed face's tile of one type.
                Shape::PinnedAndOneType => !inst.fixed.is_empty() && inst.fixed.len() < inst.variant.num_faces(),
            };
            featured += has as usize;
            if common::brute_force(&common::raw_of(&inst)) {
                sat += 1
            } else {
                unsat += 1
            }
        }
        eprintln!("{s:?}: {featured}/{n} with the feature, {sat} sat, {unsat} unsat");
        assert!(
            featured * 4 >= n * 3,
            "{s:?}: only {featured}/{n} instances have the shape"
        );
        assert!(sat > 0 && unsat > 0, "{s:?}: {sat} sat, {unsat} unsat");
    }
}
