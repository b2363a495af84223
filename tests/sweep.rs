//! `sokuc sweep` and `sokuc sweep-merge`, checked from outside: symmetry groups and orbit
//! counts by brute force over all vertex permutations, every record of complete small sweeps
//! checked against the brute-force solver, resume after kill -9 and damaged records, and
//! shards merged (by hand and through GNU parallel) equal to one run.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use common::{Raw, brute_force, root, sokuc, which};
use sokuc::input::variant_file::load_variant;

/// All vertex permutations mapping faces onto faces: clockwise kept (`mirror = false`) or
/// every face reversed (`mirror = true`). Brute force over all n! permutations.
fn brute_group(faces: &[[usize; 3]], n: usize, with_mirror: bool) -> Vec<Vec<usize>> {
    let rot = |f: [usize; 3]| {
        let k = (0..3).min_by_key(|&i| f[i]).unwrap();
        [f[k], f[(k + 1) % 3], f[(k + 2) % 3]]
    };
    let set: BTreeSet<[usize; 3]> = faces.iter().map(|&f| rot(f)).collect();
    let mut out = Vec::new();
    let mut p: Vec<usize> = (0..n).collect();
    permutations(&mut p, 0, &mut |p| {
        let keep = faces.iter().all(|f| set.contains(&rot([p[f[0]], p[f[1]], p[f[2]]])));
        let flip = faces.iter().all(|f| set.contains(&rot([p[f[0]], p[f[2]], p[f[1]]])));
        if keep || (with_mirror && flip) {
            out.push(p.to_vec());
        }
    });
    out
}

fn permutations(p: &mut Vec<usize>, k: usize, f: &mut dyn FnMut(&[usize])) {
    if k == p.len() {
        f(p);
        return;
    }
    for i in k..p.len() {
        p.swap(k, i);
        permutations(p, k + 1, f);
        p.swap(k, i);
    }
}

/// "a,b,c;d,e,f;..." as tiles.
fn parse_tiles(list: &str) -> Vec<[u64; 3]> {
    list.split(';')
        .map(|x| {
            let w: Vec<u64> = x.split(',').map(|y| y.parse().unwrap()).collect();
            [w[0], w[1], w[2]]
        })
        .collect()
}

/// Distinct arrangements of a multiset.
fn arrangements(multiset: &[u64]) -> BTreeSet<Vec<u64>> {
    let mut out = BTreeSet::new();
    let mut idx: Vec<usize> = (0..multiset.len()).collect();
    permutations(&mut idx, 0, &mut |p| {
        out.insert(p.iter().map(|&i| multiset[i]).collect());
    });
    out
}

/// The smallest image of a capacity vector under a group (caps[v] moves to vertex g[v]).
fn orbit_min(caps: &[u64], group: &[Vec<usize>]) -> Vec<u64> {
    group
        .iter()
        .map(|g| {
            let mut img = vec![0; caps.len()];
            for v in 0..caps.len() {
                img[g[v]] = caps[v];
            }
            img
        })
        .min()
        .unwrap()
}

fn count_stdout(args: &[&str]) -> u64 {
    let o = sokuc().current_dir(root()).args(args).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap().trim().parse().unwrap()
}

#[test]
fn groups_and_orbit_counts_match_brute_force() {
    // (variant, tiles, multisets); the tiles decide whether reflections count.
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "tetrahedron",
            "0,0,1;0,0,2;0,0,3;1,1,2",
            &["1,2,3,4", "1,1,4,4", "2,2,3,3", "5,5,0,0"],
        ),
        ("tetrahedron", "0,1,2;0,1,2;0,0,3;1,1,2", &["1,2,3,4", "1,1,4,4"]),
        (
            "octahedron",
            "0,0,1;0,1,2;0,2,1;1,1,1;0,0,2;1,2,2;0,1,1;0,0,0",
            &["1,2,3,3,4,6", "1,2,3,4,4,5", "3,3,3,3,3,4"],
        ),
        (
            "octahedron",
            "0,1,2;0,1,2;0,1,2;0,1,2;0,1,2;0,1,2;0,1,2;0,0,0",
            &["1,2,3,4,5,6", "3,3,3,3,3,6"],
        ),
        // The pentagonal bipyramid (built in, generated): 10 rotations, 20 with mirrors.
        (
            "bipyramid-5",
            "0,0,1;0,0,2;0,1,2;0,2,1;1,1,2;0,0,3;0,1,3;1,1,1;2,2,0;1,2,3",
            &["1,2,3,4,5,6,7", "1,1,2,2,3,3,4"],
        ),
        (
            "bipyramid-5",
            "0,0,1;0,0,2;0,1,1;0,2,2;1,1,2;0,0,3;0,3,3;1,1,1;2,2,0;1,2,2",
            &["1,2,3,4,5,6,7"],
        ),
    ];
    for (variant, tiles, multisets) in cases {
        let v = load_variant(variant, None, ("test", None)).unwrap();
        let t: Vec<[u64; 3]> = parse_tiles(tiles);
        let plain: Vec<Vec<u64>> = {
            let mut a: Vec<Vec<u64>> = t
                .iter()
                .map(|w| {
                    (0..3)
                        .map(|s| vec![w[s], w[(s + 1) % 3], w[(s + 2) % 3]])
                        .min()
                        .unwrap()
                })
                .collect();
            a.sort();
            a
        };
        let mut mir: Vec<Vec<u64>> = t
            .iter()
            .map(|w| {
                let m = [w[0], w[2], w[1]];
                (0..3)
                    .map(|s| vec![m[s], m[(s + 1) % 3], m[(s + 2) % 3]])
                    .min()
                    .unwrap()
            })
            .collect();
        mir.sort();
        let closed = plain == mir;
        let group = brute_group(&v.faces, v.num_vertices(), closed);
        for ms in *multisets {
            let caps: Vec<u64> = ms.split(',').map(|x| x.parse().unwrap()).collect();
            let orbits: BTreeSet<Vec<u64>> = arrangements(&caps).iter().map(|a| orbit_min(a, &group)).collect();
            let got = count_stdout(&["sweep", variant, "--tiles", tiles, "--caps", ms, "--count-only"]);
            assert_eq!(
                got,
                orbits.len() as u64,
                "{variant} {tiles} {ms} (group of {})",
                group.len()
            );
        }
    }
    assert_eq!(count_stdout(&["sweep", "--count-only"]), 3_991_680);
}

/// A parsed record: index, capacities, status, arrangement (tile 0-based, rotation).
type Rec = (u64, Vec<u64>, String, Option<Vec<(usize, u8)>>);

/// Every unsat record of `path` ends with its evidence: who refuted it and what backs it.
fn unsat_evidence(path: &Path) -> Vec<String> {
    let text = fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| l.split(' ').nth(2) == Some("unsat"))
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            assert_eq!(f.len(), 6, "an unsat record without its evidence: {l}");
            f[4].to_string()
        })
        .collect()
}

fn read_records(path: &Path) -> (String, Vec<Rec>) {
    let text = fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap().to_string();
    let recs = lines
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            // Five fields, and an unsat record's evidence before the checksum.
            assert_eq!(f.len(), if f[2] == "unsat" { 6 } else { 5 }, "{l}");
            let caps = f[1].split(',').map(|x| x.parse().unwrap()).collect();
            let arr = (f[3] != "-").then(|| {
                let mut a = Vec::new();
                let mut num = 0usize;
                for ch in f[3].chars() {
                    if ch.is_ascii_digit() {
                        num = num * 10 + ch.to_digit(10).unwrap() as usize;
                    } else {
                        a.push((num - 1, ch as u8 - b'a'));
                        num = 0;
                    }
                }
                a
            });
            (f[0].parse().unwrap(), caps, f[2].to_string(), arr)
        })
        .collect();
    (header, recs)
}

/// Checks one arrangement from the definition: every tile once, corner weights after
/// turning, vertex sums equal to the capacities.
fn arrangement_ok(faces: &[[usize; 3]], tiles: &[[u64; 3]], caps: &[u64], arr: &[(usize, u8)]) -> bool {
    let mut used = vec![false; tiles.len()];
    let mut sums = vec![0u64; caps.len()];
    for (f, &(t, r)) in arr.iter().enumerate() {
        if t >= tiles.len() || used[t] || r > 2 {
            return false;
        }
        used[t] = true;
        for i in 0..3 {
            sums[faces[f][i]] += tiles[t][(i + 3 - r as usize) % 3];
        }
    }
    arr.len() == faces.len() && used.iter().all(|&u| u) && sums == caps
}

fn run_sweep(args: &[&str], out: &Path) -> std::process::Output {
    sokuc()
        .current_dir(root())
        .args(["sweep", "--progress", "off"])
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn small_sweeps_are_complete_and_every_record_checks_out() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &str)] = &[
        ("tetrahedron", "0,0,1;0,0,2;0,0,3;1,1,2", "1,2,3,4"),
        ("tetrahedron", "0,0,1;0,0,2;0,0,3;1,1,2", "0,2,4,4"),
        (
            "octahedron",
            "0,0,1;0,1,2;0,2,1;1,1,1;0,0,2;1,2,2;0,1,1;0,0,0",
            "1,2,3,3,4,6",
        ),
        (
            "octahedron",
            "0,1,2;0,1,2;0,1,2;0,1,2;0,1,2;0,1,2;0,1,2;0,0,0",
            "1,2,3,4,5,6",
        ),
    ];
    let mut saw = BTreeSet::new();
    for (k, (variant, tiles, ms)) in cases.iter().enumerate() {
        let out = dir.path().join(format!("s{k}.txt"));
        let o = run_sweep(&[variant, "--tiles", tiles, "--caps", ms, "--threads", "2"], &out);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v = load_variant(variant, None, ("test", None)).unwrap();
        let t: Vec<[u64; 3]> = parse_tiles(tiles);
        let caps: Vec<u64> = ms.split(',').map(|x| x.parse().unwrap()).collect();
        let (_, recs) = read_records(&out);
        // The default backend, search, refutes in a session: its word, through the gate.
        for e in unsat_evidence(&out) {
            assert_eq!(e, "search:engine-word");
        }
        let want = count_stdout(&["sweep", variant, "--tiles", tiles, "--caps", ms, "--count-only"]);
        assert_eq!(recs.len() as u64, want);
        // Together the records cover every arrangement of the multiset up to symmetry:
        // every arrangement is a rotation (or a reflection, for mirror-closed tiles) of one
        // that was swept. Rotations alone are always sound; check with the full group when
        // reflections were used, else with rotations.
        let group_full = brute_group(&v.faces, v.num_vertices(), true);
        let group_rot = brute_group(&v.faces, v.num_vertices(), false);
        let group = if recs.len() as u64
            == arrangements(&caps)
                .iter()
                .map(|a| orbit_min(a, &group_full))
                .collect::<BTreeSet<_>>()
                .len() as u64
        {
            group_full
        } else {
            group_rot
        };
        let swept: BTreeSet<Vec<u64>> = recs.iter().map(|r| orbit_min(&r.1, &group)).collect();
        let all: BTreeSet<Vec<u64>> = arrangements(&caps).iter().map(|a| orbit_min(a, &group)).collect();
        assert_eq!(swept, all, "{variant} {ms}");
        assert_eq!(swept.len(), recs.len(), "an orbit was swept twice");
        for (i, (index, c, status, arr)) in recs.iter().enumerate() {
            assert_eq!(*index, i as u64);
            let raw = Raw {
                faces: v.faces.clone(),
                tiles: t.clone(),
                caps: c.clone(),
                fixed: vec![],
            };
            let solvable = brute_force(&raw);
            saw.insert(status.clone());
            match status.as_str() {
                "sat" => {
                    assert!(arrangement_ok(&v.faces, &t, c, arr.as_ref().unwrap()), "#{index}");
                }
                "unsat" => assert!(!solvable, "#{index} {c:?} is solvable"),
                other => panic!("status {other}"),
            }
            assert_eq!(solvable, status == "sat");
        }
    }
    assert!(saw.contains("sat") && saw.contains("unsat"), "{saw:?}");
}

const ICOSA_LIMIT: &str = "30000";

#[test]
fn resume_after_kill_and_damage_gives_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.txt");
    let o = run_sweep(&["--limit", ICOSA_LIMIT, "--threads", "2"], &whole);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let want = fs::read(&whole).unwrap();

    // kill -9 at several moments, then resume until done.
    let crashed = dir.path().join("crashed.txt");
    // Kill before anything is written, then once the file holds 2,000 and 8,000 records.
    for lines_before_kill in [0usize, 2000, 8000] {
        let mut child = sokuc()
            .current_dir(root())
            .args([
                "sweep",
                "--progress",
                "off",
                "--limit",
                ICOSA_LIMIT,
                "--threads",
                "2",
                "--resume",
                "-o",
            ])
            .arg(&crashed)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // --resume on a missing file starts from scratch.
        let t = std::time::Instant::now();
        loop {
            let have = fs::read(&crashed)
                .map(|b| b.iter().filter(|&&c| c == b'\n').count())
                .unwrap_or(0);
            if have > lines_before_kill || lines_before_kill == 0 || t.elapsed().as_secs() > 60 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
    }
    // Damage the tail: cut the last record in half, and corrupt the one before it.
    let mut bytes = fs::read(&crashed).unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    let starts: Vec<usize> = text.match_indices('\n').map(|(i, _)| i + 1).collect();
    assert!(
        starts.len() >= 4,
        "the killed runs wrote too little to test damage: {} lines",
        starts.len()
    );
    let (prev, last) = (starts[starts.len() - 3], starts[starts.len() - 2]);
    bytes.truncate(last + (bytes.len() - last) / 2);
    let k = prev + (last - prev) / 2;
    bytes[k] = if bytes[k] == b'1' { b'2' } else { b'1' };
    fs::write(&crashed, &bytes).unwrap();
    let o = run_sweep(&["--limit", ICOSA_LIMIT, "--threads", "2", "--resume"], &crashed);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary = String::from_utf8_lossy(&o.stdout);
    assert!(
        summary.contains(&format!("{ICOSA_LIMIT} instances: {ICOSA_LIMIT} sat")),
        "{summary}"
    );
    assert!(
        fs::read(&crashed).unwrap() == want,
        "resumed file differs from an uninterrupted run"
    );

    // Cut at a record in the middle of a block (1,000 = 15 blocks of 64 and 40 more): the
    // resumed run re-solves the block's first 40 instances to carry the same guesses, so
    // the file is the same. That the guesses matter at all: with blocks of one instance
    // (nothing carried) some arrangements differ, and one thread gives the same file as two.
    let text = String::from_utf8(want.clone()).unwrap();
    let cut: usize = text.match_indices('\n').nth(1000).unwrap().0 + 1;
    fs::write(&crashed, &want[..cut]).unwrap();
    let o = run_sweep(&["--limit", ICOSA_LIMIT, "--threads", "1", "--resume"], &crashed);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        fs::read(&crashed).unwrap() == want,
        "resumed mid-block: the file differs"
    );
    let single = dir.path().join("single.txt");
    let o = run_sweep(&["--limit", ICOSA_LIMIT, "--block", "1"], &single);
    assert!(o.status.success());
    let (_, a) = read_records(&whole);
    let (_, b) = read_records(&single);
    assert_eq!(a.len(), b.len());
    assert!(
        a.iter().zip(&b).any(|(x, y)| x != y),
        "carrying guesses changed no answer"
    );

    // Without --resume an existing file is refused (exit 2), and left alone.
    let o = run_sweep(&["--limit", ICOSA_LIMIT], &crashed);
    assert_eq!(o.status.code(), Some(2));
    assert!(fs::read(&crashed).unwrap() == want);
    // A file from another sweep is refused too.
    let o = run_sweep(&["--limit", "100", "--resume"], &crashed);
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
}

fn merge(files: &[&Path], out: &Path) -> std::process::Output {
    sokuc()
        .current_dir(root())
        .arg("sweep-merge")
        .args(files)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn shards_merge_into_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "octahedron",
        "--tiles",
        "0,0,1;0,1,2;0,2,1;1,1,1;0,0,2;1,2,2;0,1,1;0,0,0",
        "--caps",
        "1,2,3,3,4,6",
        // Blocks of 3 instances, so each shard takes several blocks.
        "--block",
        "3",
    ];
    let whole = dir.path().join("whole.txt");
    assert!(run_sweep(&args, &whole).status.success());
    let shards: Vec<_> = (0..3).map(|k| dir.path().join(format!("shard{k}.txt"))).collect();
    for (k, s) in shards.iter().enumerate() {
        let sh = format!("{k}/3");
        let mut a = args.to_vec();
        a.extend(["--shard", &sh]);
        let o = run_sweep(&a, s);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let merged = dir.path().join("merged.txt");
    let o = merge(&[&shards[2], &shards[0], &shards[1]], &merged);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(fs::read(&merged).unwrap(), fs::read(&whole).unwrap());

    // A missing shard is reported, and no output is left behind.
    let bad = dir.path().join("bad.txt");
    let o = merge(&[&shards[0], &shards[2]], &bad);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("missing shard(s) 1/3"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!bad.exists());
    // A shard with a record cut off is reported with its file and line.
    let text = fs::read_to_string(&shards[1]).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    fs::write(&shards[1], lines[..lines.len() - 1].join("\n") + "\n").unwrap();
    let o = merge(&[&shards[0], &shards[1], &shards[2]], &bad);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("shard1.txt") && err.contains("is missing"), "{err}");
    assert!(!bad.exists());
    // The same shard twice.
    let o = merge(&[&shards[0], &shards[0], &shards[2]], &bad);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
#[ignore = "needs GNU parallel (Debian parallel); scripts/test.sh installs it and runs ignored tests"]
fn shards_run_through_gnu_parallel_merge_into_the_single_run() {
    let parallel = which("parallel").expect("GNU parallel is not installed: run scripts/install-tools.sh");
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.txt");
    let args = [
        "octahedron",
        "--tiles",
        "0,1,2;0,1,2;0,1,2;0,1,2;0,1,2;0,1,2;0,1,2;0,0,0",
        "--caps",
        "1,2,3,4,5,6",
        "--block",
        "2",
    ];
    assert!(run_sweep(&args, &whole).status.success());
    let exe = env!("CARGO_BIN_EXE_sokuc");
    let o = Command::new(parallel)
        .current_dir(dir.path())
        .args(["--will-cite", "--quote", "--halt", "now,fail=1", exe, "sweep"])
        .args(args)
        .args([
            "--threads",
            "1",
            "--progress",
            "off",
            "--shard",
            "{}/4",
            "-o",
            "shard{}.txt",
            ":::",
            "0",
            "1",
            "2",
            "3",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let shards: Vec<_> = (0..4).map(|k| dir.path().join(format!("shard{k}.txt"))).collect();
    let refs: Vec<&Path> = shards.iter().map(|p| p.as_path()).collect();
    let merged = dir.path().join("merged.txt");
    let o = merge(&refs, &merged);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(fs::read(&merged).unwrap(), fs::read(&whole).unwrap());
}

/// Brute force for pool mode: faces in order, each takes an unused pool type in any rotation.
fn pool_brute_force(faces: &[[usize; 3]], pool: &[[u64; 3]], caps: &[u64]) -> bool {
    fn go(
        f: usize,
        faces: &[[usize; 3]],
        pool: &[[u64; 3]],
        caps: &[u64],
        used: &mut [bool],
        sums: &mut [u64],
    ) -> bool {
        if f == faces.len() {
            return sums == caps;
        }
        for t in 0..pool.len() {
            if used[t] {
                continue;
            }
            used[t] = true;
            for r in 0..3 {
                let c = [pool[t][(3 - r) % 3], pool[t][(4 - r) % 3], pool[t][(5 - r) % 3]];
                for i in 0..3 {
                    sums[faces[f][i]] += c[i];
                }
                let ok = (0..3).all(|i| sums[faces[f][i]] <= caps[faces[f][i]]);
                if ok && go(f + 1, faces, pool, caps, used, sums) {
                    return true;
                }
                for i in 0..3 {
                    sums[faces[f][i]] -= c[i];
                }
            }
            used[t] = false;
        }
        false
    }
    go(
        0,
        faces,
        pool,
        caps,
        &mut vec![false; pool.len()],
        &mut vec![0; caps.len()],
    )
}

#[test]
fn pool_sweeps_check_out_against_brute_force() {
    let dir = tempfile::tempdir().unwrap();
    // Octahedron, 8 faces from 11 types over 0..2, each at most once.
    let pool = "0,0,0;0,0,1;0,0,2;0,1,1;0,1,2;0,2,1;0,2,2;1,1,1;1,1,2;1,2,2;2,2,2";
    let p: Vec<[u64; 3]> = parse_tiles(pool);
    let v = load_variant("octahedron", None, ("test", None)).unwrap();
    let mut saw = BTreeSet::new();
    for caps in ["1,2,3,4,5,6", "2,3,3,4,5,7", "0,1,2,9,9,9"] {
        let out = dir.path().join(format!("pool-{caps}.txt"));
        let o = run_sweep(&["octahedron", "--pool", pool, "--caps", caps], &out);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let (header, recs) = read_records(&out);
        assert!(header.contains(" pool="), "{header}");
        let ms: Vec<u64> = caps.split(',').map(|x| x.parse().unwrap()).collect();
        let group = brute_group(&v.faces, v.num_vertices(), true);
        let all: BTreeSet<Vec<u64>> = arrangements(&ms).iter().map(|a| orbit_min(a, &group)).collect();
        assert_eq!(recs.len(), all.len());
        for (_, c, status, arr) in &recs {
            saw.insert(status.clone());
            let solvable = pool_brute_force(&v.faces, &p, c);
            assert_eq!(solvable, status == "sat", "{c:?}");
            if let Some(arr) = arr {
                let mut types = BTreeSet::new();
                let mut sums = vec![0u64; 6];
                for (f, &(t, r)) in arr.iter().enumerate() {
                    assert!(types.insert(t), "type used twice");
                    for i in 0..3 {
                        sums[v.faces[f][i]] += p[t][(i + 3 - r as usize) % 3];
                    }
                }
                assert_eq!(&sums, c);
            }
        }
    }
    assert!(saw.contains("sat") && saw.contains("unsat"), "{saw:?}");
}

#[test]
fn bad_sweep_options_are_usage_errors() {
    for args in [
        &["sweep", "--pool", "all24", "--caps", "1,2,3", "--count-only"][..],
        &["sweep", "--caps", "1,x", "--count-only"],
        &["sweep", "tetrahedron", "--count-only"],
        &["sweep", "--tiles", "0,0,1;0,1", "--count-only"],
        &["sweep", "--shard", "3/3", "--limit", "1"],
        &["sweep", "nosuchvariant", "--count-only"],
    ] {
        let o = sokuc().current_dir(root()).args(args).output().unwrap();
        assert_eq!(
            o.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.starts_with("sokuc: error: ") && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
}

/// Issue 13: with one tile type, presolve (which `--backend sat` runs and the search worker
/// does not) refuted satisfiable instances, so the two backends wrote different records.
/// Degenerate tile sets must give the same statuses on both, equal to brute force, and
/// every sat record must check out.
#[test]
fn degenerate_tile_sets_sweep_the_same_on_sat_and_search() {
    let dir = tempfile::tempdir().unwrap();
    let twenty = |t: &str| vec![t; 20].join(";");
    let cases: Vec<(&str, String, &str)> = vec![
        ("tetrahedron", "0,0,1;0,0,1;0,0,1;0,0,1".into(), "1,1,1,1"),
        ("tetrahedron", "0,0,1;0,0,1;0,0,1;0,0,1".into(), "0,1,1,2"),
        // Rotations of one tile are one type.
        ("tetrahedron", "0,0,1;0,1,0;1,0,0;0,0,1".into(), "0,0,2,2"),
        ("tetrahedron", "0,0,0;0,0,0;0,0,0;0,0,0".into(), "0,0,0,0"),
        ("tetrahedron", "1,1,1;1,1,1;1,1,1;1,1,1".into(), "3,3,3,3"),
        (
            "octahedron",
            "0,1,2;1,2,0;2,0,1;0,1,2;0,1,2;0,1,2;0,1,2;0,1,2".into(),
            "3,3,4,4,5,5",
        ),
        ("icosahedron", twenty("1,1,1"), "5,5,5,5,5,5,5,5,5,5,5,5"),
    ];
    let mut saw = BTreeSet::new();
    for (k, (variant, tiles, ms)) in cases.iter().enumerate() {
        let v = load_variant(variant, None, ("test", None)).unwrap();
        let t = parse_tiles(tiles);
        let mut statuses = Vec::new();
        for backend in ["sat", "search"] {
            let out = dir.path().join(format!("d{k}-{backend}.txt"));
            let o = run_sweep(&[variant, "--tiles", tiles, "--caps", ms, "--backend", backend], &out);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let (_, recs) = read_records(&out);
            assert!(!recs.is_empty());
            for (_, c, status, arr) in &recs {
                if status == "sat" {
                    assert!(
                        arrangement_ok(&v.faces, &t, c, arr.as_ref().unwrap()),
                        "{variant} {c:?}"
                    );
                }
            }
            statuses.push(recs.into_iter().map(|r| (r.0, r.1, r.2)).collect::<Vec<_>>());
        }
        assert_eq!(statuses[0], statuses[1], "{variant} {tiles} {ms}: sat vs search");
        for (_, c, status) in &statuses[0] {
            saw.insert(status.clone());
            if v.num_faces() <= 8 {
                let raw = Raw {
                    faces: v.faces.clone(),
                    tiles: t.clone(),
                    caps: c.clone(),
                    fixed: vec![],
                };
                assert_eq!(brute_force(&raw), status == "sat", "{variant} {tiles} {c:?}");
            }
        }
    }
    assert!(saw.contains("sat") && saw.contains("unsat"), "{saw:?}");
}

/// Unsat records name who refuted them; a results file of the format before that is read by
/// `sweep-merge` (its records as they were), and `--resume` refuses it with a clear message;
/// the library refuses `--strict`, which a sweep cannot honour.
#[test]
fn unsat_records_carry_evidence_and_old_files_still_read() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "octahedron",
        "--tiles",
        "0,1,2;0,1,2;0,1,2;0,1,2;0,1,2;0,1,2;0,1,2;0,0,0",
        "--caps",
        "1,2,3,4,5,6",
        "--threads",
        "1",
    ];
    // On the pipeline (sat): the gate's claim, by whoever refuted the instance.
    let out = dir.path().join("sat.txt");
    let o = run_sweep(&[&args[..], &["--backend", "sat"]].concat(), &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let evidence = unsat_evidence(&out);
    assert!(!evidence.is_empty());
    for e in &evidence {
        assert!(
            ["presolve:presolve", "sat:engine-word", "lp:certificate"].contains(&e.as_str()),
            "{e}"
        );
    }
    // The same sweep written in format 2: the header's version and no evidence.
    let text = fs::read_to_string(&out).unwrap();
    let fnv = |s: &str| {
        let mut h: u32 = 0x811c_9dc5;
        for b in s.bytes() {
            h ^= b as u32;
            h = h.wrapping_mul(0x0100_0193);
        }
        h
    };
    let mut old = String::new();
    for (i, line) in text.lines().enumerate() {
        if i == 0 {
            old.push_str(&line.replace("# sokuc-sweep 3", "# sokuc-sweep 2"));
        } else {
            let f: Vec<&str> = line.split(' ').collect();
            let body = f[..4].join(" ");
            old.push_str(&format!("{body} #{:08x}", fnv(&body)));
        }
        old.push('\n');
    }
    let old_file = dir.path().join("old.txt");
    fs::write(&old_file, &old).unwrap();
    let merged = dir.path().join("merged.txt");
    let o = merge(&[&old_file], &merged);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let m = fs::read_to_string(&merged).unwrap();
    assert!(m.starts_with("# sokuc-sweep 3 "), "{m}");
    assert_eq!(m.lines().count(), text.lines().count());
    let o = run_sweep(&[&args[..], &["--backend", "sat", "--resume"]].concat(), &old_file);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("older format"), "{err}");
    let strict = sokuc::Sweep::new("tetrahedron", Some("0,0,1;0,0,2;0,0,3;1,1,2"), Some("0,2,4,4"), None)
        .unwrap()
        .options(&sokuc::Options::new().strict(true))
        .run()
        .unwrap_err();
    assert_eq!(strict.exit_code(), sokuc::exit::USAGE);
    assert!(
        strict.to_string().contains("--strict does not go with sweep"),
        "{strict}"
    );
}
