//! The text answer is for a person holding the puzzle. These tests follow it the way a person
//! would: find the face by its pegs and letters, put the named tile there, turn it so the named
//! weight touches the named vertex; then add up each vertex. Only the text is used to place
//! tiles; the JSON answer supplies the variant's faces and the pegs to check against.

mod common;

use std::collections::HashMap;

use common::{root, sokuc};

fn run(args: &[&str]) -> std::process::Output {
    sokuc().args(args).current_dir(root()).output().expect("run sokuc")
}

fn rotate(w: [u64; 3], r: usize) -> [u64; 3] {
    [w[(3 - r) % 3], w[(4 - r) % 3], w[(5 - r) % 3]]
}

fn nums(s: &str) -> Vec<u64> {
    s.split(',')
        .map(|x| x.trim().parse().unwrap_or_else(|_| panic!("not a number list: {s}")))
        .collect()
}

/// Follows the instructions in `text` on the faces and pegs of `json`, and checks every vertex
/// sum. Returns the number of instructions followed.
fn follow(text: &str, json: &serde_json::Value) -> usize {
    let vertices = common::strings(&json["vertices"]);
    let index: HashMap<&str, usize> = vertices.iter().enumerate().map(|(i, v)| (v.as_str(), i)).collect();
    let pegs: Vec<u64> = common::u64s(&json["capacities"]);
    let faces: Vec<Vec<usize>> = json["placements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            p["face"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| index[v.as_str().unwrap()])
                .collect()
        })
        .collect();
    let short = vertices.iter().all(|v| v.chars().count() == 1);
    let label = |f: &[usize]| {
        f.iter()
            .map(|&v| vertices[v].as_str())
            .collect::<Vec<_>>()
            .join(if short { "" } else { "_" })
    };
    let mut sums = vec![0u64; vertices.len()];
    let mut used = vec![false; faces.len()];
    let mut n = 0;
    for line in text.lines().filter(|l| l.starts_with("Put tile")) {
        // Put tile (a,b,c) on the face with pegs p, q, r (LABEL), turned so that W touches V.  [..]
        let rest = line.strip_prefix("Put tile (").unwrap();
        let (tile, rest) = rest.split_once(") on the face with pegs ").expect(line);
        let tile: [u64; 3] = nums(tile).try_into().unwrap();
        let (face_pegs, rest) = rest.split_once(" (").expect(line);
        let (lab, rest) = rest.split_once("), ").expect(line);
        let turn = rest.split(".  [").next().unwrap();
        let f = faces
            .iter()
            .position(|f| label(f) == lab)
            .unwrap_or_else(|| panic!("no face {lab}: {line}"));
        assert!(!used[f], "face {lab} used twice");
        used[f] = true;
        let want: Vec<u64> = faces[f].iter().map(|&v| pegs[v]).collect();
        assert_eq!(nums(face_pegs), want, "pegs named for {lab}: {line}");
        let corners = if turn == "any way round" {
            assert!(tile[0] == tile[1] && tile[1] == tile[2], "{line}");
            tile
        } else {
            let (w, v) = turn
                .strip_prefix("turned so that ")
                .expect(line)
                .split_once(" touches ")
                .expect(line);
            let w: u64 = w.parse().unwrap();
            let at = faces[f]
                .iter()
                .position(|&x| vertices[x] == v)
                .unwrap_or_else(|| panic!("{v} not on {lab}"));
            let fits: std::collections::BTreeSet<[u64; 3]> =
                (0..3).map(|r| rotate(tile, r)).filter(|c| c[at] == w).collect();
            assert_eq!(fits.len(), 1, "the turn is ambiguous or impossible: {line}");
            fits.into_iter().next().unwrap()
        };
        for i in 0..3 {
            sums[faces[f][i]] += corners[i];
        }
        n += 1;
    }
    assert!(used.iter().all(|&u| u), "some face got no instruction:\n{text}");
    assert_eq!(sums, pegs, "following the instructions does not give the pegs:\n{text}");
    n
}

#[test]
fn instructions_solve_the_examples() {
    for inst in [
        "instances/icosoku-seed.toml",
        "instances/octasoku.toml",
        "instances/tetrasoku-seed.toml",
    ] {
        for backend in ["sat", "search"] {
            let t = run(&["solve", inst, "--backend", backend]);
            assert_eq!(t.status.code(), Some(0), "{inst}");
            let j = run(&["solve", inst, "--backend", backend, "--format", "json"]);
            let json: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
            let text = String::from_utf8(t.stdout).unwrap();
            let n = follow(&text, &json);
            assert_eq!(n, json["placements"].as_array().unwrap().len(), "{inst}");
        }
    }
}
