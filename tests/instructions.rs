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
            .join(if short { "" } else { ", " })
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
        // A person needs the description to fit exactly one face.
        let fits: Vec<usize> = (0..faces.len()).filter(|&f| label(&faces[f]) == lab).collect();
        assert_eq!(fits.len(), 1, "{lab} describes {} faces: {line}", fits.len());
        let f = fits[0];
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

/// Follows the text answer for an instance file, checked against the JSON answer.
fn follow_instance(inst: &str) {
    let t = run(&["solve", inst]);
    assert_eq!(
        t.status.code(),
        Some(0),
        "{inst}: {}",
        String::from_utf8_lossy(&t.stderr)
    );
    let j = run(&["solve", inst, "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
    let n = follow(&String::from_utf8(t.stdout).unwrap(), &json);
    assert_eq!(n, json["placements"].as_array().unwrap().len(), "{inst}");
}

#[test]
fn instructions_tell_apart_faces_whose_names_run_together() {
    // Issue 13: with vertices x_y, z, w, y_z, x, v the faces [x_y, z, w] and [x, y_z, w] were
    // both called "(x_y_z_w)". Also longer names of any script, and a bipyramid (R1, R2, ...).
    let dir = tempfile::tempdir().unwrap();
    let variant = dir.path().join("issue.toml");
    std::fs::write(
        &variant,
        r#"vertices = ["x_y", "z", "w", "y_z", "x", "v"]
faces = [["x_y", "z", "w"], ["w", "z", "x"], ["x", "y_z", "w"], ["w", "y_z", "x_y"],
         ["v", "z", "x_y"], ["v", "x", "z"], ["v", "y_z", "x"], ["v", "x_y", "y_z"]]
"#,
    )
    .unwrap();
    let unicode = dir.path().join("unicode.toml");
    std::fs::write(
        &unicode,
        r#"vertices = ["Äpfel", "Ωmega", "中", "é_1"]
faces = [["Äpfel", "Ωmega", "中"], ["Äpfel", "中", "é_1"], ["Äpfel", "é_1", "Ωmega"], ["Ωmega", "é_1", "中"]]
"#,
    )
    .unwrap();
    for (k, v) in [variant.to_str().unwrap(), unicode.to_str().unwrap(), "bipyramid-7"]
        .iter()
        .enumerate()
    {
        for seed in 0..3 {
            let inst = common::generate_3soku(
                dir.path(),
                &format!("i{k}-{seed}.toml"),
                &["--variant", v, "--seed", &seed.to_string(), "--fixed", "1"],
            );
            follow_instance(&inst);
        }
    }
}
