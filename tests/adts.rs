//! All-different triangular solutions (Liu et al.): answers checked from the JSON alone.
//! The check recomputes rotations and sums, and needs 20 pairwise different types and pegs that
//! are an arrangement of 1..12 (or the given ones).

mod common;

use common::sokuc;
use sokuc::backend;

use common::canonical;

fn check(v: &serde_json::Value, given: Option<&[u64]>) {
    assert_eq!(v["status"], "sat");
    // The 3SoKu schema: `capacities` are the pegs, each placement names its face's vertices.
    let pegs: Vec<u64> = common::u64s(&v["capacities"]);
    let vertices = common::strings(&v["vertices"]);
    assert_eq!(vertices.len(), 12);
    match given {
        Some(g) => assert_eq!(pegs, g),
        None => {
            let mut p = pegs.clone();
            p.sort();
            assert_eq!(p, (1..=12).collect::<Vec<u64>>());
        }
    }
    let faces = v["placements"].as_array().unwrap();
    assert_eq!(faces.len(), 20);
    let mut sums = [0u64; 12];
    let mut types = std::collections::BTreeSet::new();
    for f in faces {
        let face = common::strings(&f["face"]);
        assert_eq!(face.len(), 3);
        let c: Vec<u64> = common::u64s(&f["corners"]);
        let c = [c[0], c[1], c[2]];
        assert!(c.iter().all(|&w| w <= 3));
        types.insert(canonical(c));
        for (i, name) in face.iter().enumerate() {
            sums[vertices.iter().position(|x| x == name).unwrap()] += c[i];
        }
    }
    assert_eq!(types.len(), 20, "20 pairwise different types");
    assert_eq!(sums.to_vec(), pegs);
}

#[test]
fn q1_free_pegs_on_every_backend() {
    for name in backend::general() {
        let o = sokuc()
            .args(["adts", "--backend", name, "--format", "json", "--timeout", "120"])
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        check(&serde_json::from_slice(&o.stdout).unwrap(), None);
    }
}

#[test]
fn given_pegs() {
    let pegs = [1u64, 5, 11, 10, 7, 12, 9, 2, 6, 8, 4, 3];
    let arg: Vec<String> = pegs.iter().map(|p| p.to_string()).collect();
    for name in ["sat", "search"] {
        let o = sokuc()
            .args(["adts", "--backend", name, "--format", "json", "--pegs", &arg.join(",")])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
        check(&serde_json::from_slice(&o.stdout).unwrap(), Some(&pegs));
    }
    // Twelve pegs of 1 add up to 12, but any 20 different types weigh far more (only (0,0,0)
    // and (0,0,1) weigh less than 2), so both backends must answer unsat.
    for name in ["sat", "search"] {
        let o = sokuc()
            .args(["adts", "--backend", name, "--pegs", "1,1,1,1,1,1,1,1,1,1,1,1"])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(20), "{name}");
    }
}

#[test]
fn q3_subsets_agree_across_backends_and_with_the_weight_argument() {
    // Our own count of the 20-subsets whose weights add up to 1 + ... + 12 = 78.
    let types: Vec<[u64; 3]> = (0..64u64)
        .map(|i| [i / 16, i / 4 % 4, i % 4])
        .filter(|&t| canonical(t) == t)
        .collect();
    assert_eq!(types.len(), 24);
    let total: u64 = types.iter().flatten().sum();
    let mut candidates = 0;
    for a in 0..24 {
        for b in a + 1..24 {
            for c in b + 1..24 {
                for d in c + 1..24 {
                    let out: u64 = [a, b, c, d].iter().map(|&i| types[i].iter().sum::<u64>()).sum();
                    candidates += (total - out == 78) as u64;
                }
            }
        }
    }
    let mut outputs = Vec::new();
    for name in ["search", "sat"] {
        let o = sokuc().args(["adts", "--subsets", "--backend", name]).output().unwrap();
        assert_eq!(o.status.code(), Some(0));
        let text = String::from_utf8(o.stdout).unwrap();
        let last = text.lines().last().unwrap().to_string();
        assert!(
            last.contains(&format!("{} fail the weight test", 10626 - candidates)),
            "{last}"
        );
        // Each candidate line, with its status (the example pegs may differ by backend).
        let statuses: Vec<String> = text
            .lines()
            .filter(|l| l.starts_with("without"))
            .map(|l| l.split(" (").next().unwrap().to_string())
            .collect();
        assert_eq!(statuses.len() as u64, candidates);
        outputs.push(statuses);
    }
    assert_eq!(outputs[0], outputs[1], "the two backends disagree");
}
