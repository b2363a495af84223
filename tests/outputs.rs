//! Every command that writes a file refuses to write over one of its inputs, under any name
//! (the same path, `./` spellings, a symbolic link, a hard link), leaves the input's bytes as
//! they were, exits 2 with the file named, and leaves no temporary file behind.
//!
//! The class this guards: before, `solve x.toml --emit dimacs -o x.toml`, `render x.toml -o
//! x.toml`, `solve --svg/--proof x.toml` and `sweep-merge s0 s1 -o s0` replaced the input.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{root, sokuc};

const INSTANCE: &str =
    "variant = \"tetra.toml\"\ntiles = [[0, 0, 1], [0, 0, 2], [0, 0, 3], [1, 1, 2]]\ncapacities = [1, 2, 3, 4]\n";
const VARIANT: &str = "name = \"tetra\"\nvertices = [\"A\", \"B\", \"C\", \"D\"]\nfaces = [[\"A\", \"B\", \"C\"], [\"A\", \"C\", \"D\"], [\"A\", \"D\", \"B\"], [\"B\", \"D\", \"C\"]]\n";

struct Dir {
    _tmp: tempfile::TempDir,
    path: PathBuf,
}

impl Dir {
    /// A directory with an instance `x.toml`, the variant file it names, a symbolic link
    /// and a hard link to the instance.
    fn new() -> Dir {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().to_path_buf();
        fs::write(path.join("x.toml"), INSTANCE).unwrap();
        fs::write(path.join("tetra.toml"), VARIANT).unwrap();
        std::os::unix::fs::symlink(path.join("x.toml"), path.join("link.toml")).unwrap();
        fs::hard_link(path.join("x.toml"), path.join("hard.toml")).unwrap();
        Dir { _tmp: tmp, path }
    }

    fn p(&self, name: &str) -> String {
        self.path.join(name).to_str().unwrap().to_string()
    }

    fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(&self.path)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
}

/// Runs sokuc and checks the refusal: exit 2, one line naming the output, inputs intact, no
/// new file in the directory.
fn refused(d: &Dir, args: &[String], target: &str, protected: &[(&str, &str)]) {
    let before = d.names();
    let o = sokuc().args(args).current_dir(&d.path).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("sokuc: error: "), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(target) && err.contains("input"), "{args:?}: {err}");
    for (file, text) in protected {
        assert_eq!(
            &fs::read_to_string(d.path.join(file)).unwrap(),
            text,
            "{args:?} changed {file}"
        );
    }
    assert_eq!(d.names(), before, "{args:?} left a file behind");
}

fn strings(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

/// Output targets that are the instance (or the variant it reads) by another name.
fn aliases(d: &Dir) -> Vec<String> {
    vec![
        d.p("x.toml"),
        "x.toml".to_string(),
        "./x.toml".to_string(),
        format!(
            "{}/../{}/x.toml",
            d.p("."),
            d.path.file_name().unwrap().to_string_lossy()
        ),
        "link.toml".to_string(),
        "hard.toml".to_string(),
        "tetra.toml".to_string(),
    ]
}

#[test]
fn solve_never_writes_over_an_input() {
    let d = Dir::new();
    let keep = [("x.toml", INSTANCE), ("tetra.toml", VARIANT)];
    for target in aliases(&d) {
        for format in ["dimacs", "lp", "mps", "opb", "mzn"] {
            let args = strings(&["solve", "x.toml", "--emit", format, "-o", &target]);
            refused(&d, &args, &target, &keep);
        }
        refused(&d, &strings(&["solve", "x.toml", "--svg", &target]), &target, &keep);
        refused(&d, &strings(&["solve", "x.toml", "--proof", &target]), &target, &keep);
    }
}

#[test]
fn grid_and_pool_emits_never_write_over_their_input() {
    let d = Dir::new();
    let grid = root().join("instances/trickytriple/feup-lekinasa-4x4-01.tt");
    let text = fs::read_to_string(&grid).unwrap();
    fs::write(d.path.join("g.tt"), &text).unwrap();
    refused(
        &d,
        &strings(&["solve", "g.tt", "--emit", "lp", "-o", "g.tt"]),
        "g.tt",
        &[("g.tt", &text)],
    );
    let pool = root().join("instances/octahedron-pool.toml");
    let text = fs::read_to_string(&pool).unwrap();
    fs::write(d.path.join("pool.toml"), &text).unwrap();
    refused(
        &d,
        &strings(&["solve", "pool.toml", "--emit", "opb", "-o", "./pool.toml"]),
        "pool.toml",
        &[("pool.toml", &text)],
    );
}

#[test]
fn render_never_writes_over_an_input() {
    let d = Dir::new();
    let keep = [("x.toml", INSTANCE), ("tetra.toml", VARIANT)];
    for target in aliases(&d) {
        refused(&d, &strings(&["render", "x.toml", "-o", &target]), &target, &keep);
    }
    // The solution drawn is an input too.
    let o = sokuc()
        .args(["solve", "x.toml", "--format", "json"])
        .current_dir(&d.path)
        .output()
        .unwrap();
    let sol = String::from_utf8(o.stdout).unwrap();
    fs::write(d.path.join("sol.json"), &sol).unwrap();
    let args = strings(&["render", "x.toml", "--solution", "sol.json", "-o", "sol.json"]);
    refused(&d, &args, "sol.json", &[("sol.json", &sol)]);
}

#[test]
fn generate_never_writes_over_the_variant_it_reads() {
    let d = Dir::new();
    let args = strings(&["generate", "3soku", "--variant", "tetra.toml", "-o", "tetra.toml"]);
    refused(&d, &args, "tetra.toml", &[("tetra.toml", VARIANT)]);
}

#[test]
fn sweep_and_merge_never_write_over_an_input() {
    let d = Dir::new();
    // A sweep results file may not be the instance, with or without --resume (which would
    // truncate it to the records it can read).
    for resume in [false, true] {
        let mut args = strings(&["sweep", "x.toml", "--threads", "1", "--progress", "off", "-o", "x.toml"]);
        if resume {
            args.push("--resume".into());
        }
        refused(&d, &args, "x.toml", &[("x.toml", INSTANCE)]);
    }
    // Two shards, then a merge onto one of them.
    for k in 0..2 {
        let out = format!("s{k}.txt");
        let o = sokuc()
            .args(["sweep", "x.toml", "--threads", "1", "--progress", "off", "--block", "1"])
            .args(["--shard", &format!("{k}/2"), "-o", &out])
            .current_dir(&d.path)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let s0 = fs::read_to_string(d.path.join("s0.txt")).unwrap();
    let s1 = fs::read_to_string(d.path.join("s1.txt")).unwrap();
    for target in ["s0.txt", "./s1.txt"] {
        let args = strings(&["sweep-merge", "s0.txt", "s1.txt", "-o", target]);
        refused(&d, &args, target, &[("s0.txt", &s0), ("s1.txt", &s1)]);
    }
    // The shards still merge afterwards (the refusal destroyed nothing).
    let o = sokuc()
        .args(["sweep-merge", "s0.txt", "s1.txt", "-o", "all.txt"])
        .current_dir(&d.path)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(Path::new(&d.p("all.txt")).is_file());
}

#[test]
fn outputs_that_are_not_inputs_are_written() {
    // The guard refuses inputs only: an existing unrelated file is replaced as before.
    let d = Dir::new();
    fs::write(d.path.join("old.cnf"), "old").unwrap();
    let o = sokuc()
        .args(["solve", "x.toml", "--emit", "dimacs", "-o", "old.cnf"])
        .current_dir(&d.path)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(fs::read_to_string(d.path.join("old.cnf")).unwrap().starts_with("c "));
}
