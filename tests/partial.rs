//! `check --partial`, the assistant for a puzzle in progress, against brute force on small
//! solids: the tiles it takes off are the fewest that must come off (the minimum over every
//! subset of the placed tiles, each subset solved by the brute-force solver of
//! `tests/common`), and its completion keeps exactly the tiles it does not take off, checked
//! here from the puzzle's rules. Then the command line: its exits, its wording, and every
//! kind of illegal placement refused with its line.

mod common;

use std::io::Write as _;
use std::process::Stdio;

use common::{Raw, Rng, brute_force, raw_of, root, sokuc};
use sokuc::assist::{Partial, assist, exit_code};
use sokuc::backend;
use sokuc::input::placed::Placed;
use sokuc::input::variant_file::load_variant;
use sokuc::model::{Instance, Placement};
use sokuc::run::RunOptions;

/// `w` turned by `r` (clockwise turns, as the instance file's rotations count them).
fn turn(w: [u64; 3], r: usize) -> [u64; 3] {
    [w[(3 - r) % 3], w[(4 - r) % 3], w[(5 - r) % 3]]
}

/// A random instance on `variant`, satisfiable by construction unless a unit of capacity
/// is moved (then often not).
fn random_instance(rng: &mut Rng, variant: &str) -> Instance {
    let v = load_variant(variant, None, ("test", None)).unwrap();
    let nf = v.num_faces();
    let tiles: Vec<[u64; 3]> = (0..nf).map(|_| [rng.below(3), rng.below(3), rng.below(3)]).collect();
    let mut caps = vec![0u64; v.num_vertices()];
    for (i, t) in tiles.iter().enumerate() {
        let c = turn(*t, rng.below(3) as usize);
        for k in 0..3 {
            caps[v.faces[i][k]] += c[k];
        }
    }
    if rng.below(5) == 0 {
        let (a, b) = (
            rng.below(caps.len() as u64) as usize,
            rng.below(caps.len() as u64) as usize,
        );
        if caps[a] > 0 {
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

/// Random legal placements: distinct faces, distinct tiles, any turn.
fn random_placed(rng: &mut Rng, inst: &Instance) -> Vec<Placed> {
    let nf = inst.variant.num_faces();
    let k = rng.below(nf as u64 + 1) as usize;
    let mut faces: Vec<usize> = (0..nf).collect();
    let mut tiles: Vec<usize> = (0..inst.tiles.len()).collect();
    for i in (1..nf).rev() {
        faces.swap(i, rng.below(i as u64 + 1) as usize);
        tiles.swap(i, rng.below(i as u64 + 1) as usize);
    }
    (0..k)
        .map(|i| Placed {
            face: faces[i],
            tile: tiles[i],
            corners: turn(inst.tiles[tiles[i]], rng.below(3) as usize),
            line: i + 1,
        })
        .collect()
}

/// The rotation of tile `w` that gives `corners`.
fn rotation_of(w: [u64; 3], corners: [u64; 3]) -> u8 {
    (0..3).find(|&r| turn(w, r) == corners).unwrap() as u8
}

/// The fewest placed tiles to take off so that the rest can stay, by brute force over every
/// subset kept; `None` when the puzzle has no solution at all.
fn fewest_by_brute_force(inst: &Instance, placed: &[Placed]) -> Option<usize> {
    let base = raw_of(inst);
    let n = placed.len();
    let mut best = None;
    for mask in 0u32..1 << n {
        let off = n - mask.count_ones() as usize;
        if best.is_some_and(|b| off >= b) {
            continue;
        }
        let raw = Raw {
            faces: base.faces.clone(),
            tiles: base.tiles.clone(),
            caps: base.caps.clone(),
            fixed: (0..n)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| {
                    let p = &placed[i];
                    (p.face, p.tile, Some(rotation_of(inst.tiles[p.tile], p.corners)))
                })
                .collect(),
        };
        if brute_force(&raw) {
            best = Some(off);
        }
    }
    best
}

/// The puzzle's rules, from scratch: every face has one tile, turned (never flipped), each
/// tile used once, every vertex sum its peg.
fn obeys_the_rules(inst: &Instance, s: &[Placement]) -> Result<(), String> {
    let mut used = vec![false; inst.tiles.len()];
    let mut sums = vec![0u64; inst.capacities.len()];
    if s.len() != inst.variant.num_faces() {
        return Err(format!("{} placements", s.len()));
    }
    for (f, p) in s.iter().enumerate() {
        if p.face != f || used[p.tile] {
            return Err(format!("placement {f}: {p:?}"));
        }
        used[p.tile] = true;
        if !(0..3).any(|r| turn(inst.tiles[p.tile], r) == p.corners) {
            return Err(format!("face {f}: {p:?} is not a turn of its tile"));
        }
        for k in 0..3 {
            sums[inst.variant.faces[f][k]] += p.corners[k];
        }
    }
    if sums != inst.capacities {
        return Err(format!("sums {sums:?}, pegs {:?}", inst.capacities));
    }
    Ok(())
}

#[test]
fn the_tiles_taken_off_are_the_fewest_and_the_rest_stay() {
    let mut rng = Rng(0x9a27_1a1d_0000_0044);
    let mut backends: Vec<&str> = ["sat", "search", "cp"]
        .into_iter()
        .filter(|b| backend::available().contains(b))
        .collect();
    backends.push("auto");
    let (mut stays, mut off, mut none) = (0, 0, 0);
    for (variant, n) in [("tetrahedron", 150), ("octahedron", 100)] {
        for k in 0..n {
            let inst = random_instance(&mut rng, variant);
            let placed = random_placed(&mut rng, &inst);
            let fewest = fewest_by_brute_force(&inst, &placed);
            let b = backends[k % backends.len()];
            let p = Partial {
                inst: inst.clone(),
                placed: placed.clone(),
            };
            let a = assist(&p, backend::by_name(b).unwrap().as_mut(), &RunOptions::default()).unwrap();
            let what = format!(
                "{variant} #{k} on {b}: pegs {:?} tiles {:?} placed {placed:?}",
                inst.capacities, inst.tiles
            );
            match fewest {
                None => {
                    assert!(
                        a.answer.solution.is_none(),
                        "{what}: a completion of an unsolvable puzzle"
                    );
                    assert_eq!(exit_code(&a), 20, "{what}");
                    none += 1;
                }
                Some(m) => {
                    let s = a
                        .answer
                        .solution
                        .as_ref()
                        .unwrap_or_else(|| panic!("{what}: no completion"));
                    obeys_the_rules(&inst, s).unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert_eq!(a.removed.len(), m, "{what}: took off {:?}", a.removed);
                    for (i, q) in placed.iter().enumerate() {
                        let kept = s[q.face].corners == q.corners;
                        assert_eq!(kept, !a.removed.contains(&i), "{what}: placed tile {i}");
                        if kept {
                            assert_eq!(s[q.face].tile, q.tile, "{what}: the kept tile keeps its number");
                        }
                    }
                    assert_eq!(exit_code(&a), if m == 0 { 0 } else { 20 }, "{what}");
                    if m > 0 {
                        assert_eq!(a.answer.optimal, Some(true), "{what}");
                    }
                    if m == 0 {
                        stays += 1
                    } else {
                        off += 1
                    }
                    if let Some(h) = &a.hint {
                        assert!(
                            placed
                                .iter()
                                .enumerate()
                                .all(|(i, q)| q.face != h.face || a.removed.contains(&i)),
                            "{what}: the hint is on a kept tile's face"
                        );
                        assert_eq!(&s[h.face], h, "{what}: the hint is not the completion's");
                    }
                }
            }
        }
    }
    // All three answers must occur, or the test checked less than it says.
    assert!(
        stays > 20 && off > 20 && none > 0,
        "stays {stays}, off {off}, unsolvable {none}"
    );
}

fn seed_placed(lines: usize) -> String {
    let out = sokuc()
        .args(["solve", "instances/icosoku-seed.toml", "--backend", "search"])
        .current_dir(root())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines().skip(1).take(lines).map(|l| format!("{l}\n")).collect()
}

fn check(args: &[&str], placed: &str) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("placed.txt");
    std::fs::write(&file, placed).unwrap();
    let mut cmd = sokuc();
    cmd.arg("check")
        .args(args)
        .arg(&file)
        .arg("--partial")
        .current_dir(root());
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn tiles_that_can_stay_get_a_completion_and_a_next_tile() {
    let placed = seed_placed(5);
    let (code, out, err) = check(&["instances/icosoku-seed.toml"], &placed);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.starts_with("can be completed: 5 tiles placed, 15 to go\nnext: Put tile "),
        "{out}"
    );
    // The completion is a solution `check` accepts, and it has every placed line in it.
    let completion = out.split_once("every placed tile:\n").unwrap().1;
    for line in placed.lines() {
        assert!(completion.contains(line), "{line} not in\n{out}");
    }
    let dir = tempfile::tempdir().unwrap();
    let sol = dir.path().join("completion.txt");
    std::fs::write(&sol, completion).unwrap();
    let ok = sokuc()
        .arg("check")
        .arg("instances/icosoku-seed.toml")
        .arg(&sol)
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stdout));
}

#[test]
fn tiles_that_cannot_stay_are_named_with_their_lines() {
    // The four uniform tiles around vertex A: 0+3+2+1 at A (peg 1), and A has five faces.
    let placed = "ABC: (0,0,0)\nACD: (3,3,3)\nADE: (2,2,2)\nAEF: (1,1,1)\n";
    let (code, out, err) = check(&["instances/icosoku-seed.toml"], placed);
    assert_eq!(code, Some(20), "{out}{err}");
    assert!(
        out.starts_with("cannot be completed: take off 2 tiles (the fewest):\n"),
        "{out}"
    );
    assert_eq!(out.matches("  (line ").count(), 2, "{out}");
    assert!(
        out.contains("a completion after taking them off:\nsat on icosahedron: "),
        "{out}"
    );
    assert!(out.contains("evidence: optimum by "), "{out}");
}

#[test]
fn pegs_and_standard_input_work_as_for_solve() {
    let placed = seed_placed(3);
    let mut child = sokuc()
        .args(["check", "--pegs", "1,5,11,10,7,12,9,2,6,8,4,3", "-", "--partial"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(placed.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.starts_with("can be completed: 3 tiles placed, 17 to go"), "{text}");
}

#[test]
fn an_illegal_placement_is_refused_with_its_line() {
    let seed = seed_placed(1);
    let first = seed.trim_end();
    // The seed's first line, with its bracket's rotation changed.
    let (sentence, _) = first.rsplit_once("rotation ").unwrap();
    let wrong_bracket = format!("{sentence}rotation 1]\n");
    let cases: Vec<(String, &str)> = vec![
        ("ABD: (0,0,0)\n".into(), "ABD is not a face of icosahedron"),
        ("ABC: tile #99, rotation 0\n".into(), "tile #99 does not exist"),
        (
            "ABC: tile #1, rotation 0\nACD: tile #1, rotation 0\n".into(),
            ":2: tile #1 is already placed, on line 1",
        ),
        (
            "ABC: (0,0,0)\nABC: (1,1,1)\n".into(),
            ":2: face ABC already has a tile, on line 1",
        ),
        ("ABC: (0,1,2), 3 touches A\n".into(), "tile (0,1,2) has no weight 3"),
        (
            "ABC: (0,1,2), 2 touches D\n".into(),
            "D is not a vertex of the face ABC",
        ),
        ("ABC: (0,2,1)\n".into(), "say how tile (0,2,1) is turned"),
        (
            "ABC: (0,1,1), 1 touches A\n".into(),
            "1 is on two corners of tile (0,1,1)",
        ),
        ("ABC: (4,4,4)\n".into(), "this puzzle has no tile (4,4,4)"),
        (
            "ABC: (0,0,0)\nACD: (0,0,0)\n".into(),
            ":2: this puzzle has 1 tile (0,0,0), and every one is already placed",
        ),
        (wrong_bracket, "the sentence and its bracket disagree"),
        (
            first.replacen("pegs 1, ", "pegs 2, ", 1) + "\n",
            "but this puzzle's are 1, ",
        ),
        ("Put the tile somewhere\n".into(), ":1: cannot read"),
    ];
    for (placed, want) in cases {
        let (code, out, err) = check(&["instances/icosoku-seed.toml"], &placed);
        assert_eq!(code, Some(2), "{placed}: {out}{err}");
        assert!(err.contains(want) && err.contains("placed.txt:"), "{placed}: {err}");
        assert_eq!(err.lines().count(), 1, "{placed}: {err}");
    }
}
