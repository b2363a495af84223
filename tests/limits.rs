//! Resource limits: huge or adversarial inputs get a clear error (exit 2, file and reason)
//! quickly, instead of exhausting memory, and leave no output file behind.

mod common;

use std::fmt::Write as _;
use std::time::Instant;

use common::sokuc;

fn run(args: &[&str], envs: &[(&str, &str)]) -> (Option<i32>, String, String, f64) {
    let t = Instant::now();
    let o = sokuc().args(args).envs(envs.iter().copied()).output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        t.elapsed().as_secs_f64(),
    )
}

#[test]
fn a_million_face_variant_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // A long strip of triangles: 10^6 faces (about 30 MB of TOML).
    let n = 1_000_000usize;
    let mut text = String::from("vertices = [");
    for v in 0..n + 2 {
        write!(text, "\"v{v}\",").unwrap();
    }
    text.push_str("]\nfaces = [\n");
    for f in 0..n {
        writeln!(text, "[\"v{}\",\"v{}\",\"v{}\"],", f, f + 1, f + 2).unwrap();
    }
    text.push_str("]\n");
    let variant = dir.path().join("huge.toml");
    std::fs::write(&variant, &text).unwrap();
    let inst = dir.path().join("inst.toml");
    std::fs::write(&inst, "variant = \"huge.toml\"\ntiles = [[0,0,0]]\ncapacities = [0]\n").unwrap();
    let (code, _, err, secs) = run(&["solve", inst.to_str().unwrap()], &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("huge.toml") && err.contains("1000000 faces is more than the limit"),
        "{err}"
    );
    assert!(secs < 60.0, "took {secs} s");
    // Over the file size limit (set low here), the file is refused before it is parsed.
    let (code, _, err, _) = run(
        &["solve", inst.to_str().unwrap()],
        &[("SOKUC_MAX_FILE_BYTES", "1000000")],
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("larger than the limit of 1000000 bytes"), "{err}");
}

#[test]
fn enormous_capacities_and_weights_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "variant = \"tetrahedron\"\ntiles = [[0,0,1],[0,0,1],[0,0,1],[0,0,1]]\ncapacities = [1000000000000, 1, 1, 1]\n",
            ":3:",
            "larger than the limit",
        ),
        (
            "variant = \"tetrahedron\"\ntiles = [[0,0,1],[0,0,1],[0,0,1],[0,0,5000000]]\ncapacities = [1, 1, 1, 1]\n",
            ":2:",
            "larger than the limit",
        ),
        (
            "variant = \"tetrahedron\"\npool = \"all24\"\ncapacities = { permutation_of = [1, 2, 3, 99999999999999] }\n",
            ":3:",
            "larger than the limit",
        ),
    ];
    for (k, (text, line, what)) in cases.iter().enumerate() {
        let p = dir.path().join(format!("big{k}.toml"));
        std::fs::write(&p, text).unwrap();
        let (code, _, err, _) = run(&["solve", p.to_str().unwrap()], &[]);
        assert_eq!(code, Some(2), "case {k}: {err}");
        assert!(
            err.contains(&format!("big{k}.toml{line}")) && err.contains(what),
            "case {k}: {err}"
        );
    }
}

/// IcoSoKu-shaped, with random corner weights up to 10^6: read off a placement (tile i on
/// face i, unturned), so it is satisfiable, but sums over so many distinct weights have no
/// small CNF. Returns the instance and that placement as solution JSON.
fn large_weights_instance() -> (String, String) {
    let v = sokuc::input::variant_file::load_variant("icosahedron", None, ("test", None)).unwrap();
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % 1_000_001
    };
    let tiles: Vec<[u64; 3]> = (0..20).map(|_| [next(), next(), next()]).collect();
    let mut caps = vec![0u64; 12];
    for (f, t) in v.faces.iter().zip(&tiles) {
        for i in 0..3 {
            caps[f[i]] += t[i];
        }
    }
    let list = |xs: &[u64]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
    let tile_list: Vec<String> = tiles.iter().map(|t| format!("[{}]", list(t))).collect();
    let inst = format!(
        "variant = \"icosahedron\"\ntiles = [{}]\ncapacities = [{}]\n",
        tile_list.join(", "),
        list(&caps)
    );
    let placements: Vec<serde_json::Value> = v
        .faces
        .iter()
        .enumerate()
        .map(|(i, f)| {
            serde_json::json!({
                "face": f.iter().map(|&x| v.vertices[x].clone()).collect::<Vec<_>>(),
                "tile": i + 1, "weights": tiles[i], "rotation": 0, "corners": tiles[i],
            })
        })
        .collect();
    let sol = serde_json::json!({"status": "sat", "puzzle": "3soku", "placements": placements});
    (inst, sol.to_string())
}

#[test]
fn a_cnf_over_the_clause_budget_is_refused_and_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("weights.toml");
    let (inst, sol) = large_weights_instance();
    std::fs::write(&p, inst).unwrap();
    let p = p.to_str().unwrap();
    for enc in ["domain", "swc", "totalizer"] {
        let (code, _, err, secs) = run(&["solve", p, "--pb-encoding", enc, "--max-clauses", "200000"], &[]);
        assert_eq!(code, Some(2), "{enc}: {err}");
        assert!(
            err.contains("more than 200000 clauses") && err.contains("--max-clauses"),
            "{err}"
        );
        assert!(secs < 30.0, "{enc} took {secs} s to give up");
        let out = dir.path().join(format!("{enc}.cnf"));
        let (code, _, _, _) = run(
            &[
                "solve",
                p,
                "--pb-encoding",
                enc,
                "--max-clauses",
                "200000",
                "--emit",
                "dimacs",
                "-o",
                out.to_str().unwrap(),
            ],
            &[],
        );
        assert_eq!(code, Some(2));
        assert!(!out.exists(), "a partial CNF was left behind");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "only the instance is left: {names:?}");
    }
    // The instance itself is fine: its construction checks out (a SAT solve is not asked of
    // the search backend here: without learning it needed 168 s on this one).
    let sol_path = dir.path().join("placement.json");
    std::fs::write(&sol_path, sol).unwrap();
    let (code, out, err, _) = run(&["check", p, sol_path.to_str().unwrap()], &[]);
    assert_eq!(code, Some(0), "{out}{err}");
}
