#![allow(clippy::needless_range_loop)]
//! Test helpers. The brute-force solver here is written from the puzzle's definition and
//! shares no code with sokuc's encoders, decoders or verifier.
#![allow(dead_code)]

use std::path::PathBuf;

/// Faces as vertex-index triples, tiles as weight triples, capacities per vertex.
pub struct Raw {
    pub faces: Vec<[usize; 3]>,
    pub tiles: Vec<[u64; 3]>,
    pub caps: Vec<u64>,
    /// (face, tile index, rotation or None)
    pub fixed: Vec<(usize, usize, Option<u8>)>,
}

/// Depth-first search over faces in order: any unused tile (skipping a tile identical as
/// listed to one already tried at this face), any rotation, pruning when a vertex exceeds
/// its capacity or is complete and short.
pub fn brute_force(raw: &Raw) -> bool {
    let nv = raw.caps.len();
    let mut remaining = vec![0usize; nv];
    for f in &raw.faces {
        for &v in f {
            remaining[v] += 1;
        }
    }
    let mut used = vec![false; raw.tiles.len()];
    let mut sums = vec![0u64; nv];
    dfs(raw, 0, &mut used, &mut sums, &mut remaining)
}

fn dfs(raw: &Raw, f: usize, used: &mut [bool], sums: &mut [u64], remaining: &mut [usize]) -> bool {
    if f == raw.faces.len() {
        return sums.iter().zip(&raw.caps).all(|(s, c)| s == c);
    }
    let face = raw.faces[f];
    let mut tried: Vec<[u64; 3]> = Vec::new();
    for t in 0..raw.tiles.len() {
        if used[t] || tried.contains(&raw.tiles[t]) {
            continue;
        }
        let fixed: Vec<_> = raw.fixed.iter().filter(|x| x.0 == f).collect();
        if !fixed.iter().all(|x| same_up_to_rotation(raw.tiles[x.1], raw.tiles[t])) {
            continue;
        }
        tried.push(raw.tiles[t]);
        used[t] = true;
        for r in 0..3u8 {
            let w = raw.tiles[t];
            // corners[i] = w[(i - r) mod 3]
            let c = [
                w[(3 - r as usize) % 3],
                w[(4 - r as usize) % 3],
                w[(5 - r as usize) % 3],
            ];
            if !fixed.iter().all(|x| {
                x.2.is_none_or(|fr| {
                    let fw = raw.tiles[x.1];
                    let fc = [
                        fw[(3 - fr as usize) % 3],
                        fw[(4 - fr as usize) % 3],
                        fw[(5 - fr as usize) % 3],
                    ];
                    fc == c
                })
            }) {
                continue;
            }
            let mut ok = true;
            for i in 0..3 {
                sums[face[i]] += c[i];
                remaining[face[i]] -= 1;
            }
            for i in 0..3 {
                let v = face[i];
                if sums[v] > raw.caps[v] || (remaining[v] == 0 && sums[v] != raw.caps[v]) {
                    ok = false;
                }
            }
            if ok && dfs(raw, f + 1, used, sums, remaining) {
                for i in 0..3 {
                    sums[face[i]] -= c[i];
                    remaining[face[i]] += 1;
                }
                used[t] = false;
                return true;
            }
            for i in 0..3 {
                sums[face[i]] -= c[i];
                remaining[face[i]] += 1;
            }
        }
        used[t] = false;
    }
    false
}

fn same_up_to_rotation(a: [u64; 3], b: [u64; 3]) -> bool {
    (0..3).any(|s| (0..3).all(|j| a[j] == b[(j + s) % 3]))
}

pub fn raw_of(inst: &sokuc::model::Instance) -> Raw {
    Raw {
        faces: inst.variant.faces.clone(),
        tiles: inst.tiles.clone(),
        caps: inst.capacities.clone(),
        fixed: inst.fixed.iter().map(|f| (f.face, f.tile, f.rotation)).collect(),
    }
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared` beside the checkout (CI puts it there).
pub fn shared() -> PathBuf {
    root().join("..").join("shared")
}

pub fn sokuc() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_sokuc"))
}

/// `sokuc` alone in a temporary folder, with `script` as its helper program `helper`
/// (`sokuc-cbc`, `sokuc-highs`) if given. Helpers are looked for beside the program and one
/// folder up, both inside the temporary folder, so a stray helper in the system's temporary
/// folder is not seen.
pub fn lone_sokuc(helper: &str, script: Option<&str>) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let exe = bin.join("sokuc");
    install_executable(std::path::Path::new(env!("CARGO_BIN_EXE_sokuc")), &exe);
    if let Some(script) = script {
        write_executable(&bin.join(helper), script.as_bytes());
    }
    (dir, exe)
}

/// Writes `contents` to `dest` as an executable file that a test may run at once.
///
/// Why not `fs::write` and `set_permissions`: the test harness runs tests on many threads, and
/// while this thread holds `dest` open for writing, another thread's `Command::spawn` may fork.
/// The child inherits the write descriptor until it calls `exec`, and an `exec` of `dest` in
/// that window fails with ETXTBSY ("Text file busy"). So the bytes go to a staging file that
/// is never run, and `install`, a process of its own, writes `dest`: no thread of this process
/// ever holds `dest` open for writing, so no fork can carry such a descriptor.
pub fn write_executable(dest: &std::path::Path, contents: &[u8]) {
    let staged = dest.with_extension("staged");
    std::fs::write(&staged, contents).unwrap();
    install_executable(&staged, dest);
    std::fs::remove_file(&staged).unwrap();
}

/// Copies `src` to `dest` with mode 0755 through `install`, for the reason
/// [`write_executable`] gives.
pub fn install_executable(src: &std::path::Path, dest: &std::path::Path) {
    let status = std::process::Command::new("install")
        .arg("-m")
        .arg("755")
        .arg(src)
        .arg(dest)
        .stdin(std::process::Stdio::null())
        .status()
        .expect("coreutils' install runs");
    assert!(
        status.success(),
        "install {} {}: {status}",
        src.display(),
        dest.display()
    );
}

/// Looks a program up on PATH.
pub fn which(prog: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join(prog)).find(|c| c.is_file()))
}

/// Pigeonhole in DIMACS: `pigeons` pigeons in `holes` holes, unsatisfiable exactly when
/// there are more pigeons than holes (and hard for clause learning from about 10 in 9).
pub fn pigeonhole_cnf(pigeons: u32, holes: u32) -> String {
    let x = |p: u32, h: u32| p * holes + h + 1;
    let mut clauses = Vec::new();
    for p in 0..pigeons {
        clauses.push((0..holes).map(|h| x(p, h).to_string()).collect::<Vec<_>>().join(" "));
    }
    for h in 0..holes {
        for p in 0..pigeons {
            for q in p + 1..pigeons {
                clauses.push(format!("-{} -{}", x(p, h), x(q, h)));
            }
        }
    }
    let mut text = format!("p cnf {} {}\n", pigeons * holes, clauses.len());
    for c in clauses {
        text.push_str(&c);
        text.push_str(" 0\n");
    }
    text
}

/// n pigeons, n - 1 holes: unsatisfiable, and hard for resolution (exponential proofs), so
/// solvers need real search and real lemmas.
pub fn pigeonhole(n: u32) -> sokuc::ir::PbFormula {
    use sokuc::ir::{Constraint, Var};
    let holes = n - 1;
    let x = |p: u32, h: u32| Var(p * holes + h).pos();
    let mut f = sokuc::ir::PbFormula::new(n * holes);
    for p in 0..n {
        f.add(
            format!("pigeon {p}"),
            Constraint::ExactlyOne((0..holes).map(|h| x(p, h)).collect()),
        );
    }
    for h in 0..holes {
        f.add(
            format!("hole {h}"),
            Constraint::AtMostOne((0..n).map(|p| x(p, h)).collect()),
        );
    }
    f
}

/// A corner triple's smallest rotation: the name of its type.
pub fn canonical(t: [u64; 3]) -> [u64; 3] {
    (0..3).map(|s| [t[s], t[(s + 1) % 3], t[(s + 2) % 3]]).min().unwrap()
}

/// A JSON array of unsigned integers (pegs, corners) as a vector.
pub fn u64s(v: &serde_json::Value) -> Vec<u64> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect()
}

/// A JSON array of strings (vertex names, a face).
pub fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

/// Runs `sokuc generate 3soku ARGS -o DIR/NAME`, which must succeed; returns the file's path.
pub fn generate_3soku(dir: &std::path::Path, name: &str, args: &[&str]) -> String {
    let p = dir.join(name).to_str().unwrap().to_string();
    let o = sokuc()
        .args(["generate", "3soku"])
        .args(args)
        .args(["-o", &p])
        .current_dir(root())
        .output()
        .expect("run sokuc");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    p
}

/// Presolve on or off (`--presolve on|off`), named in test messages as `On`/`Off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presolve {
    On,
    Off,
}

impl Presolve {
    pub fn compile(self) -> sokuc::puzzle::CompileOptions {
        sokuc::puzzle::CompileOptions {
            presolve: self == Presolve::On,
        }
    }

    /// A run with `solve`'s options and presolve on or off, without `--unique`. The LP
    /// relaxation is off: these runs test the backends' own answers (tests/lp_refutation.rs
    /// tests the LP's).
    pub fn with(self, solve: sokuc::backend::SolveOptions) -> sokuc::run::RunOptions {
        sokuc::run::RunOptions {
            solve,
            compile: self.compile(),
            lp: sokuc::run::LpMode::Off,
            unique: false,
            strict: false,
        }
    }
}

/// Degenerate 3SoKu families (issue 13: presolve emptied every face of a one-type instance
/// and answered unsat before any backend ran, so every backend "agreed"). The differential
/// test and the presolve soundness properties each generate instances of every family.
#[derive(Debug, Clone, Copy)]
pub enum Degenerate {
    /// Every tile one type, copies listed in different turns.
    OneType,
    AllZero,
    /// Every capacity the same (the last tile padded so that the total divides).
    EqualCaps,
    /// Zero corners turned toward one vertex, whose capacity is then 0.
    ZeroCap,
    /// Two or three types, a non-uniform tile listed in two turns among them.
    Rotations,
    /// Every face fixed (with or without rotation; now and then to a random tile).
    AllFixed,
    NoneFixed,
    /// The copies of one type all fixed, the other tiles one second type.
    PinnedAndOneType,
}

pub const DEGENERATE: [Degenerate; 8] = [
    Degenerate::OneType,
    Degenerate::AllZero,
    Degenerate::EqualCaps,
    Degenerate::ZeroCap,
    Degenerate::Rotations,
    Degenerate::AllFixed,
    Degenerate::NoneFixed,
    Degenerate::PinnedAndOneType,
];

/// A small xorshift generator: the tests' own randomness, the same on every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Where the schema is registered: a name, never fetched (the schema is added as a resource,
/// and boon keeps the metaschemas built in).
pub const SCHEMA_URL: &str = "file:///sokuc/schema/sokuc.schema.json";

/// `schema/sokuc.schema.json`.
pub fn schema() -> serde_json::Value {
    let text = std::fs::read_to_string(root().join("schema/sokuc.schema.json")).expect("reading the schema");
    serde_json::from_str(&text).expect("the schema is JSON")
}

/// The schema compiled for one `$defs` entry (`None`: the top level, any document). boon
/// checks the schema against its metaschema (draft 2020-12, from `$schema`) as it compiles.
pub fn schema_validator(def: Option<&str>) -> (boon::Schemas, boon::SchemaIndex) {
    let s = schema();
    if let Some(def) = def {
        assert!(s["$defs"].get(def).is_some(), "no $defs/{def} in the schema");
    }
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.add_resource(SCHEMA_URL, s).expect("adding the schema");
    let loc = match def {
        Some(def) => format!("{SCHEMA_URL}#/$defs/{def}"),
        None => SCHEMA_URL.to_string(),
    };
    let index = compiler
        .compile(&loc, &mut schemas)
        .unwrap_or_else(|e| panic!("the schema does not compile: {e:#}"));
    (schemas, index)
}

/// Why `doc` is not a valid `def` (empty when it is).
pub fn schema_errors(def: Option<&str>, doc: &serde_json::Value) -> Vec<String> {
    let (schemas, index) = schema_validator(def);
    match schemas.validate(doc, index) {
        Ok(()) => Vec::new(),
        Err(e) => vec![format!("{e:#}")],
    }
}

/// `doc` is a valid `def`, and a valid document of the top level.
pub fn assert_schema(def: &str, doc: &serde_json::Value) {
    assert_schema_of(def, doc, "the document");
}

/// [`assert_schema`], its failure starting with `what` ("`sokuc solve` printed a document that").
pub fn assert_schema_of(def: &str, doc: &serde_json::Value, what: &str) {
    for d in [Some(def), None] {
        let e = schema_errors(d, doc);
        assert!(
            e.is_empty(),
            "{what} is not a valid {}:\n{}\n{doc}",
            d.unwrap_or("top-level document"),
            e.join("\n")
        );
    }
}

/// Held by [`on_two_threads`] while its jobs run: two such tests of one binary (the test
/// harness runs two tests at a time) take turns instead of running four jobs on two cores,
/// where the jobs' time limits (a MIP refutation that must finish within 240 s) were
/// measured for two.
static TWO_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs `jobs` on two threads (the machine's cores), each job checking its own answer;
/// panics with every failure at the end. One call at a time in a process
/// ([`TWO_AT_A_TIME`]); tests/nextest.toml gives these tests both of nextest's slots.
pub fn on_two_threads<J: Sync>(jobs: &[J], job: impl Fn(&J) -> Result<(), String> + Sync) {
    // A failed test panics while holding the lock; the jobs of the next one are still its own.
    let _turn = TWO_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let next = std::sync::Mutex::new(0usize);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = {
                        let mut n = next.lock().unwrap();
                        *n += 1;
                        *n - 1
                    };
                    let Some(j) = jobs.get(i) else { break };
                    if let Err(e) = job(j) {
                        eprintln!("FAIL {e}");
                        failures.lock().unwrap().push(e);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// What `mitm` says when it refuses a formula with more free variables than it enumerates
/// (exit 2 by name, `Unavailable` in the library): the every-backend suites run it on
/// puzzles with hundreds of variables, and a refusal is the one answer allowed there.
pub const MITM_TOO_LARGE: &str = "variables are free once the forced ones are fixed";

/// Whether `backend` refused with [`MITM_TOO_LARGE`] (only `mitm` may).
pub fn mitm_too_large(backend: &str, message: &str) -> bool {
    backend == "mitm" && message.contains(MITM_TOO_LARGE)
}

/// Whether backend `name` runs on the `k`-th case of a loop over every backend. `mip` and
/// `highs` are one backend with two solvers: the same model, built and read back by
/// `crates/engines/src/mip/solve.rs` for both, handed to CBC or to HiGHS in a helper process, which costs
/// 10 to 170 ms a solve. Where the build has both, tests/differential.rs, which solves about
/// 2,300 small instances, lets them take turns: every instance still goes through the MIP
/// model, and each solver gets half of them. With one of them, it runs on every instance.
pub fn mip_takes_turn(name: &str, k: usize) -> bool {
    let both = ["mip", "highs"].iter().all(|b| sokuc::backend::available().contains(b));
    match name {
        "mip" if both => k.is_multiple_of(2),
        "highs" if both => !k.is_multiple_of(2),
        _ => true,
    }
}
