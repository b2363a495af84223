#![allow(clippy::needless_range_loop)]
//! `solve --all`: on every backend, the enumerated solutions of small puzzles of every kind
//! are pairwise distinct (as puzzle solutions: identical tiles interchangeable, a turned
//! uniform tile the same) and as many as a brute-force count written here from the puzzles'
//! rules (sharing nothing with sokuc's model); `--limit`, streaming, both formats, exit codes
//! and degenerate inputs.

mod common;

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{Rng, root, sokuc};
use serde_json::Value;

const TETRAHEDRON: [[usize; 3]; 4] = [[0, 1, 2], [0, 2, 3], [0, 3, 1], [1, 3, 2]];
const OCTAHEDRON: [[usize; 3]; 8] = [
    [0, 2, 1],
    [0, 3, 2],
    [0, 4, 3],
    [0, 1, 4],
    [5, 1, 2],
    [5, 2, 3],
    [5, 3, 4],
    [5, 4, 1],
];

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("sokuc-enumerate-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(name: &str, text: &str) -> String {
    let p = dir().join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// Every backend of this build, and `auto`.
fn backends() -> Vec<&'static str> {
    let mut v = sokuc::backend::general();
    v.push("auto");
    v
}

/// What `solve --all --format json` printed: the solution lines and the summary.
struct Run {
    code: i32,
    solutions: Vec<Value>,
    summary: Value,
}

fn run_all(file: &str, extra: &[&str]) -> Run {
    let timeout: &[&str] = if extra.contains(&"--timeout") {
        &[]
    } else {
        &["--timeout", "120"]
    };
    let o = sokuc()
        .args(["solve", file, "--all", "--format", "json"])
        .args(timeout)
        .args(extra)
        .current_dir(root())
        .output()
        .unwrap();
    let text = String::from_utf8(o.stdout).unwrap();
    let mut lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summary = lines.pop().unwrap_or_else(|| {
        panic!(
            "{file} {extra:?}: no output; stderr {}",
            String::from_utf8_lossy(&o.stderr)
        )
    });
    assert!(summary.get("solutions").is_some(), "{file}: last line {summary}");
    Run {
        code: o.status.code().unwrap(),
        solutions: lines,
        summary,
    }
}

/// A solution as a person sees it: the corners on each face (polyhedra) or the grid.
fn key(v: &Value) -> String {
    assert_eq!(v["verified"], Value::Bool(true), "{v}");
    assert_eq!(v["status"], "sat");
    match v.get("placements") {
        Some(ps) => ps
            .as_array()
            .unwrap()
            .iter()
            .map(|p| format!("{}", p["corners"]))
            .collect::<Vec<_>>()
            .join(";"),
        None => v["grid"].to_string(),
    }
}

/// Enumerates `file` on every backend (those in `slow` only when the count is at most
/// `slow_max`) and checks distinctness, the count and the summary.
fn check_count(file: &str, want: usize, slow_max: usize) {
    for b in backends() {
        if (b == "mip" || b == "highs" || b == "cp") && want > slow_max {
            continue;
        }
        let r = run_all(file, &["--backend", b]);
        let keys: HashSet<String> = r.solutions.iter().map(key).collect();
        assert_eq!(keys.len(), r.solutions.len(), "{file} on {b}: a solution twice");
        assert_eq!(r.solutions.len(), want, "{file} on {b}: count");
        assert_eq!(r.summary["solutions"], want as u64, "{file} on {b}");
        assert_eq!(r.summary["complete"], true, "{file} on {b}");
        assert_eq!(r.code, if want == 0 { 20 } else { 0 }, "{file} on {b}");
        for (i, s) in r.solutions.iter().enumerate() {
            assert_eq!(s["solution"], (i + 1) as u64);
        }
    }
    check_jobs(file, want);
}

/// `--jobs 2` and `--jobs 3` (search): the same set of solutions as one thread, each once,
/// numbered 1 to n in some order, and the same summary.
fn check_jobs(file: &str, want: usize) {
    let one: HashSet<String> = run_all(file, &["--backend", "search"])
        .solutions
        .iter()
        .map(key)
        .collect();
    for jobs in ["2", "3"] {
        let r = run_all(file, &["--backend", "search", "--jobs", jobs]);
        let keys: HashSet<String> = r.solutions.iter().map(key).collect();
        assert_eq!(keys.len(), r.solutions.len(), "{file} --jobs {jobs}: a solution twice");
        assert_eq!(keys, one, "{file} --jobs {jobs}: not the solutions of one thread");
        assert_eq!(r.solutions.len(), want, "{file} --jobs {jobs}: count");
        assert_eq!(r.summary["solutions"], want as u64, "{file} --jobs {jobs}");
        assert_eq!(r.summary["complete"], true, "{file} --jobs {jobs}");
        assert_eq!(r.code, if want == 0 { 20 } else { 0 }, "{file} --jobs {jobs}");
        let mut numbers: Vec<u64> = r.solutions.iter().map(|s| s["solution"].as_u64().unwrap()).collect();
        numbers.sort_unstable();
        assert!(
            numbers.iter().copied().eq(1..=want as u64),
            "{file} --jobs {jobs}: {numbers:?}"
        );
    }
}

fn rotations(t: [u64; 3]) -> Vec<[u64; 3]> {
    let mut v: Vec<[u64; 3]> = (0..3).map(|r| [t[r % 3], t[(r + 1) % 3], t[(r + 2) % 3]]).collect();
    v.sort();
    v.dedup();
    v
}

/// Distinct configurations (the corners on each face) of the tiles `types` (distinct up to
/// turning, each with how many there are, between `min` and `max` used) with vertex sums
/// `sums_ok`: depth-first over the faces.
struct Brute<'a> {
    faces: &'a [[usize; 3]],
    /// (tile, min, max)
    types: Vec<([u64; 3], u32, u32)>,
    cap_max: u64,
}

impl Brute<'_> {
    fn count(&self, sums_ok: &dyn Fn(&[u64]) -> bool) -> usize {
        let nv = self.faces.iter().flatten().max().unwrap() + 1;
        let mut used = vec![0u32; self.types.len()];
        let mut sums = vec![0u64; nv];
        self.dfs(0, &mut used, &mut sums, sums_ok)
    }

    fn dfs(&self, f: usize, used: &mut [u32], sums: &mut [u64], ok: &dyn Fn(&[u64]) -> bool) -> usize {
        if f == self.faces.len() {
            let counts_ok = self.types.iter().zip(used.iter()).all(|(t, &u)| u >= t.1);
            return usize::from(counts_ok && ok(sums));
        }
        let mut n = 0;
        for t in 0..self.types.len() {
            if used[t] >= self.types[t].2 {
                continue;
            }
            used[t] += 1;
            for c in rotations(self.types[t].0) {
                for i in 0..3 {
                    sums[self.faces[f][i]] += c[i];
                }
                if sums.iter().all(|&s| s <= self.cap_max) {
                    n += self.dfs(f + 1, used, sums, ok);
                }
                for i in 0..3 {
                    sums[self.faces[f][i]] -= c[i];
                }
            }
            used[t] -= 1;
        }
        n
    }
}

fn canonical(t: [u64; 3]) -> [u64; 3] {
    rotations(t)[0]
}

/// The tile list grouped into types with their multiplicities.
fn types_of(tiles: &[[u64; 3]]) -> Vec<([u64; 3], u32, u32)> {
    let mut v: Vec<([u64; 3], u32, u32)> = Vec::new();
    for &t in tiles {
        let c = canonical(t);
        match v.iter_mut().find(|x| x.0 == c) {
            Some(x) => {
                x.1 += 1;
                x.2 += 1;
            }
            None => v.push((c, 1, 1)),
        }
    }
    v
}

fn soku_toml(variant: &str, tiles: &[[u64; 3]], caps: &[u64]) -> String {
    format!("variant = \"{variant}\"\ntiles = {tiles:?}\ncapacities = {caps:?}\n")
}

/// Random tiles (weights 0..=2, so identical and uniform tiles are common), capacities from
/// a random placement of them (so at least one solution), on the tetrahedron and the
/// octahedron; plus unsatisfiable capacities.
#[test]
fn soku_solutions_are_distinct_and_all_there_on_every_backend() {
    let mut rng = Rng(0x5eed_0016);
    let mut cases = 0;
    for (variant, faces) in [("tetrahedron", &TETRAHEDRON[..]), ("octahedron", &OCTAHEDRON[..])] {
        let nv = faces.iter().flatten().max().unwrap() + 1;
        for i in 0..6 {
            let tiles: Vec<[u64; 3]> = (0..faces.len())
                .map(|_| [rng.below(3), rng.below(3), rng.below(2)])
                .collect();
            let mut caps = vec![0u64; nv];
            for (f, t) in faces.iter().zip(&tiles) {
                let r = rng.below(3) as usize;
                for k in 0..3 {
                    caps[f[k]] += t[(k + r) % 3];
                }
            }
            if i == 5 {
                caps[0] += 1; // the weights no longer add up: no solution
            }
            let brute = Brute {
                faces,
                types: types_of(&tiles),
                cap_max: *caps.iter().max().unwrap(),
            };
            let want = brute.count(&|s| s == caps.as_slice());
            assert_eq!(want == 0, i == 5);
            let file = write(&format!("{variant}-{i}.toml"), &soku_toml(variant, &tiles, &caps));
            check_count(&file, want, 40);
            cases += 1;
        }
    }
    assert_eq!(cases, 12);
}

/// One tile type, all zeros, all weights equal, everything fixed, and no solution.
#[test]
fn degenerate_inputs() {
    // Four identical uniform tiles: one configuration.
    let one_type = write(
        "one-type.toml",
        &soku_toml("tetrahedron", &[[1, 1, 1]; 4], &[3, 3, 3, 3]),
    );
    check_count(&one_type, 1, 10);
    let zeros = write("zeros.toml", &soku_toml("tetrahedron", &[[0, 0, 0]; 4], &[0, 0, 0, 0]));
    check_count(&zeros, 1, 10);
    // Identical tiles (0,0,1): which corner of each face gets the 1 (one per vertex).
    let tiles = [[0, 0, 1]; 4];
    let equal = write("equal.toml", &soku_toml("tetrahedron", &tiles, &[1, 1, 1, 1]));
    let want = Brute {
        faces: &TETRAHEDRON,
        types: types_of(&tiles),
        cap_max: 1,
    }
    .count(&|s| s == [1, 1, 1, 1]);
    check_count(&equal, want, 20);
    // Every tile fixed with its turn: the one placement, if it adds up.
    let fixed = "variant = \"tetrahedron\"\ntiles = [[0, 0, 1], [0, 0, 2], [0, 0, 3], [1, 1, 2]]\ncapacities = [1, 2, 3, 4]\n\
        [[fixed]]\nface = \"ABC\"\ntile = 1\nrotation = 0\n\
        [[fixed]]\nface = \"ACD\"\ntile = 2\nrotation = 2\n\
        [[fixed]]\nface = \"ADB\"\ntile = 4\nrotation = 0\n\
        [[fixed]]\nface = \"BDC\"\ntile = 3\nrotation = 2\n";
    check_count(&write("fixed.toml", fixed), 1, 10);
    check_count("instances/tetrasoku-unsat.toml", 0, 0);
    // Presolve off: the backend proves there is none, and the text says so.
    let o = sokuc()
        .args([
            "solve",
            "instances/tetrasoku-unsat.toml",
            "--all",
            "--presolve",
            "off",
            "--lp",
            "off",
        ])
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(20));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.ends_with("=====UNSATISFIABLE=====\n"), "{out}");
    assert!(!out.contains("----------"), "{out}");
}

/// Pools with bounds (given pegs) and free pegs on the tetrahedron and octahedron.
#[test]
fn pool_solutions_are_distinct_and_all_there() {
    let mut rng = Rng(0x9001);
    let all: Vec<[u64; 3]> = (0..27u64)
        .map(|i| [i % 3, i / 3 % 3, i / 9])
        .map(canonical)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    for (variant, faces) in [("tetrahedron", &TETRAHEDRON[..]), ("octahedron", &OCTAHEDRON[..])] {
        let nv = faces.iter().flatten().max().unwrap() + 1;
        for i in 0..3 {
            let mut pool: Vec<([u64; 3], u32, u32)> = Vec::new();
            while pool.len() < 4 {
                let t = all[rng.below(all.len() as u64) as usize];
                if !pool.iter().any(|p| p.0 == t) {
                    let max = 1 + rng.below(faces.len() as u64 / 2) as u32;
                    pool.push((t, rng.below(2) as u32, max));
                }
            }
            // Pegs from a random filling within the bounds (if the draw breaks one, the
            // count is whatever brute force says, possibly 0).
            let mut caps = vec![0u64; nv];
            let mut used = vec![0u32; pool.len()];
            for f in faces {
                let k = (0..pool.len()).find(|&k| used[k] < pool[k].2).unwrap_or(0);
                used[k] += 1;
                let t = pool[k].0;
                for j in 0..3 {
                    caps[f[j]] += t[j];
                }
            }
            let free = i % 2 == 1;
            let spec: Vec<String> = pool
                .iter()
                .map(|(t, min, max)| format!("{{ tile = {t:?}, min = {min}, max = {max} }}"))
                .collect();
            let caps_spec = if free {
                format!("{{ permutation_of = {caps:?} }}")
            } else {
                format!("{caps:?}")
            };
            let text = format!(
                "variant = \"{variant}\"\npool = [{}]\ncapacities = {caps_spec}\n",
                spec.join(", ")
            );
            let brute = Brute {
                faces,
                types: pool.clone(),
                cap_max: *caps.iter().max().unwrap(),
            };
            let mut sorted = caps.clone();
            sorted.sort();
            let want = brute.count(&|s| {
                if free {
                    let mut t = s.to_vec();
                    t.sort();
                    t == sorted
                } else {
                    s == caps.as_slice()
                }
            });
            check_count(&write(&format!("pool-{variant}-{i}.toml"), &text), want, 15);
        }
    }
}

/// Kakuro: a block of white cells with clues from a random filling; brute force over the
/// digits with the rules (distinct digits in a run, the clue its sum).
#[test]
fn kakuro_solutions_are_distinct_and_all_there() {
    let mut rng = Rng(0x4a4a);
    for (rows, cols) in [(2, 2), (2, 3), (3, 3), (2, 4)] {
        // A random filling with distinct digits in every row and column.
        let fill: Vec<Vec<u32>> = loop {
            let g: Vec<Vec<u32>> = (0..rows)
                .map(|_| (0..cols).map(|_| 1 + rng.below(9) as u32).collect())
                .collect();
            let rows_ok = g.iter().all(|r| r.iter().collect::<HashSet<_>>().len() == cols);
            let cols_ok = (0..cols).all(|c| (0..rows).map(|r| g[r][c]).collect::<HashSet<_>>().len() == rows);
            if rows_ok && cols_ok {
                break g;
            }
        };
        let across: Vec<u32> = fill.iter().map(|r| r.iter().sum()).collect();
        let down: Vec<u32> = (0..cols).map(|c| (0..rows).map(|r| fill[r][c]).sum()).collect();
        let mut text = format!("kakuro {} {}\n X", rows + 1, cols + 1);
        for d in &down {
            text.push_str(&format!(" {d}\\"));
        }
        text.push('\n');
        for a in &across {
            text.push_str(&format!("\\{a}{}\n", " .".repeat(cols)));
        }
        // Brute force, row by row.
        let mut want = 0usize;
        let mut g = vec![vec![0u32; cols]; rows];
        fn dfs(i: usize, g: &mut Vec<Vec<u32>>, across: &[u32], down: &[u32], n: &mut usize) {
            let (rows, cols) = (g.len(), g[0].len());
            if i == rows * cols {
                let ok = (0..cols).all(|c| (0..rows).map(|r| g[r][c]).sum::<u32>() == down[c]);
                *n += usize::from(ok);
                return;
            }
            let (r, c) = (i / cols, i % cols);
            for d in 1..=9 {
                if (0..c).any(|k| g[r][k] == d) || (0..r).any(|k| g[k][c] == d) {
                    continue;
                }
                g[r][c] = d;
                let row_sum: u32 = g[r][..=c].iter().sum();
                let ok = if c == cols - 1 {
                    row_sum == across[r]
                } else {
                    row_sum < across[r]
                };
                if ok {
                    dfs(i + 1, g, across, down, n);
                }
                g[r][c] = 0;
            }
        }
        dfs(0, &mut g, &across, &down, &mut want);
        assert!(want >= 1);
        check_count(&write(&format!("k{rows}x{cols}.kakuro"), &text), want, 40);
    }
}

/// Tricky Triple: small grids with black cells and givens; brute force over the symbols
/// (no three consecutive white cells in a row, column or diagonal all equal or all
/// different).
#[test]
fn tricky_triple_solutions_are_distinct_and_all_there() {
    let mut rng = Rng(0x3333);
    for (rows, cols) in [(3, 3), (3, 4), (4, 4), (4, 4)] {
        let cells: Vec<Vec<char>> = (0..rows)
            .map(|_| {
                (0..cols)
                    .map(|_| match rng.below(8) {
                        0 => 'X',
                        1 => (b'1' + rng.below(3) as u8) as char,
                        _ => '.',
                    })
                    .collect()
            })
            .collect();
        let mut text = format!("trickytriple {rows} {cols}\n");
        for r in &cells {
            text.push_str(&r.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" "));
            text.push('\n');
        }
        let white = |r: isize, c: isize| {
            r >= 0 && c >= 0 && r < rows as isize && c < cols as isize && cells[r as usize][c as usize] != 'X'
        };
        let mut triples = Vec::new();
        for r in 0..rows as isize {
            for c in 0..cols as isize {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    if (0..3).all(|k| white(r + k * dr, c + k * dc)) {
                        triples.push([0, 1, 2].map(|k| (r + k * dr) as usize * cols + (c + k * dc) as usize));
                    }
                }
            }
        }
        let whites: Vec<usize> = (0..rows * cols).filter(|&i| cells[i / cols][i % cols] != 'X').collect();
        let mut want = 0usize;
        let mut g = vec![0u8; rows * cols];
        let total = 3usize.pow(whites.len() as u32);
        for m in 0..total {
            let mut x = m;
            for &i in &whites {
                g[i] = (x % 3) as u8 + 1;
                x /= 3;
            }
            let givens = whites.iter().all(|&i| {
                let c = cells[i / cols][i % cols];
                c == '.' || c as u8 - b'0' == g[i]
            });
            let ok = givens
                && triples.iter().all(|t| {
                    let s: HashSet<u8> = t.iter().map(|&i| g[i]).collect();
                    s.len() == 2
                });
            want += usize::from(ok);
        }
        check_count(&write(&format!("t{rows}x{cols}-{want}.tt"), &text), want, 40);
    }
}

#[test]
fn limit_is_honoured_and_says_so() {
    for b in ["search", "sat"] {
        let r = run_all("instances/tetrasoku-seed.toml", &["--backend", b, "--limit", "5"]);
        assert_eq!(r.solutions.len(), 5, "{b}");
        assert_eq!(r.summary["complete"], false);
        assert_eq!(r.summary["stopped"], "limit");
        assert_eq!(r.code, 0);
    }
    let o = sokuc()
        .args(["solve", "instances/tetrasoku-seed.toml", "--all", "--limit", "3"])
        .current_dir(root())
        .output()
        .unwrap();
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(out.matches("\n----------\n").count(), 3, "{out}");
    assert!(!out.contains("=========="), "{out}");
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("3 solutions (stopped at --limit 3; there may be more)"),
        "{err}"
    );
    // A limit past the count: complete.
    let r = run_all("instances/tetrasoku-seed.toml", &["--limit", "100"]);
    assert_eq!((r.solutions.len(), &r.summary["complete"]), (19, &Value::Bool(true)));
}

/// The first solution of an enumeration that would run for hours is on standard output
/// while it runs; the time limit ends it with what it found.
#[test]
fn solutions_stream_as_they_are_found() {
    let t0 = Instant::now();
    let mut child = sokuc()
        .args(["solve", "instances/icosoku-seed.toml", "--all", "--backend", "search"])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.find(|l| l.as_ref().unwrap() == "----------");
    assert!(first.is_some());
    assert!(child.try_wait().unwrap().is_none(), "the enumeration ended already");
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(t0.elapsed() < Duration::from_secs(60));
    let r = run_all(
        "instances/icosoku-seed.toml",
        &["--backend", "search", "--timeout", "1"],
    );
    assert!(!r.solutions.is_empty());
    assert_eq!(r.summary["stopped"], "time limit");
    assert_eq!(r.code, 0);
}

#[test]
fn unique_is_the_first_two() {
    for b in backends() {
        let o = sokuc()
            .args([
                "solve",
                "instances/tetrasoku-seed.toml",
                "--unique",
                "--format",
                "json",
                "--backend",
                b,
            ])
            .current_dir(root())
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["unique"], false, "{b}");
        assert_ne!(v["placements"], v["second_placements"], "{b}");
    }
    let o = sokuc()
        .args(["solve", "instances/tetrasoku-seed.toml", "--unique", "--all"])
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// `solve --all`'s text: the end's claim on comment lines before MiniZinc's end marker,
/// which stays the last line; under --strict a second engine of another kind backs it.
#[test]
fn the_end_is_a_claim_with_its_evidence_before_the_marker() {
    let file = write("two-of-three.cnf", "p cnf 3 2\n1 2 3 0\n-1 -2 0\n");
    let run = |extra: &[&str]| {
        let o = sokuc()
            .args(["solve", &file, "--all", "--backend", "sat"])
            .args(extra)
            .output()
            .unwrap();
        (o.status.code().unwrap(), String::from_utf8(o.stdout).unwrap())
    };
    let (code, text) = run(&[]);
    assert_eq!(code, 10, "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.last(), Some(&"=========="), "{text}");
    assert_eq!(
        lines[lines.len() - 2],
        "c evidence: complete by sat: the engine's word",
        "{text}"
    );
    let (code, text) = run(&["--strict"]);
    assert_eq!(code, 10, "{text}");
    assert!(text.ends_with("==========\n"), "{text}");
    assert!(text.contains("c evidence: complete by sat, confirmed by "), "{text}");
    // No solution: the refutation's evidence, then =====UNSATISFIABLE=====.
    let none = write("none.cnf", "p cnf 1 2\n1 0\n-1 0\n");
    let o = sokuc()
        .args([
            "solve",
            &none,
            "--all",
            "--backend",
            "sat",
            "--lp",
            "off",
            "--presolve",
            "off",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("c evidence: unsat by sat: the engine's word"), "{text}");
    assert!(text.ends_with("=====UNSATISFIABLE=====\n"), "{text}");
}

/// Past the solutions --strict asks a second engine about, the claim is withheld: no end
/// marker, the evidence says why, and standard error says there may be more.
#[test]
fn strict_withholds_what_it_cannot_ask_about() {
    let file = write("free-12.cnf", "p cnf 12 0\n");
    let o = sokuc()
        .args(["solve", &file, "--all", "--strict", "--backend", "sat"])
        .output()
        .unwrap();
    let text = String::from_utf8(o.stdout).unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(text.matches("----------").count(), 4096);
    assert!(!text.contains("=========="), "{}", &text[text.len() - 300..]);
    assert!(
        text.ends_with("(withheld by --strict: nothing but one engine's word backs it)\n"),
        "{}",
        &text[text.len() - 300..]
    );
    assert!(err.contains("withheld; there may be more"), "{err}");
}

/// The library: `Model::enumerate` gives the same typed end as `Instance::enumerate`, its
/// completeness a claim with evidence, and both honour `Options::strict`.
#[test]
fn the_library_carries_the_ends_evidence_and_honours_strict() {
    use sokuc::{Backing, ClaimKind, Enumerate, Instance, Model, Options};
    let mut m = Model::new();
    let x = m.new_vars(3);
    m.add_exactly_one(x.iter().copied());
    let sat = Options::new().backend(sokuc::Backend::Sat);
    let e = m.enumerate(&sat, None, |_| true).unwrap();
    assert!(e.complete() && e.found() == 3);
    let c = e.evidence().claim(ClaimKind::Complete).unwrap();
    assert_eq!((c.by(), c.backing(), c.accepted()), ("sat", Backing::EngineWord, true));
    let e = m.enumerate(&sat.clone().strict(true), None, |_| true).unwrap();
    let c = e.evidence().claim(ClaimKind::Complete).unwrap();
    assert_eq!(c.backing(), Backing::SecondEngine);
    assert!(c.confirmed_by().is_some_and(|o| o != "sat" && o != "cadical"));
    assert!(e.complete());
    // A stop asked for by the caller claims nothing.
    let e = m.enumerate(&sat, None, |_| false).unwrap();
    assert!(!e.complete() && e.evidence().claims().is_empty());

    let free = Instance::parse("cnf", "free.cnf", "p cnf 12 0\n").unwrap();
    let e = free
        .enumerate(&sat.clone().strict(true), &Enumerate::new().json(true), &mut Vec::new())
        .unwrap();
    assert_eq!(e.found(), 4096);
    assert!(!e.complete(), "more than --strict asks about");
    assert!(!e.evidence().claim(ClaimKind::Complete).unwrap().accepted());
}
