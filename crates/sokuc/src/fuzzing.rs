//! Entry points for the cargo-fuzz targets in `fuzz/` and for the crash-regression tests in
//! `tests/fuzz_regressions.rs`: each takes arbitrary bytes, runs a parser, and on success the
//! stages after it. None may panic, whatever the input; errors are expected and ignored.
//! Sizes are kept small past parsing so that one execution stays fast.

use crate::input::{answer, batch, instance_file, solution_json, variant_file};

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Variant TOML: parse, validate, then incidence, labels and symmetry on small ones.
pub fn variant_toml(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Ok(v) = variant_file::parse_variant("fuzz.toml", t, "fuzz") {
        let _ = v.incidence();
        for f in 0..v.num_faces() {
            let _ = v.face_label(f);
        }
        if v.num_faces() <= 24 {
            let _ = crate::sweep::symmetry::automorphisms(&v, true);
        }
    }
}

/// Instance TOML (classic or pool form): parse, then compile and encode small ones.
pub fn instance_toml(data: &[u8]) {
    let Some(t) = text(data) else { return };
    match instance_file::parse_puzzle("fuzz.toml", t, None) {
        Ok(instance_file::Puzzle::Classic(inst)) if inst.variant.num_faces() <= 20 => {
            let opts = crate::encode::EncodeOptions {
                max_clauses: 200_000,
                ..Default::default()
            };
            for presolve in [true, false] {
                let copts = crate::puzzle::CompileOptions { presolve };
                let e = crate::run::emit::model(&inst, &copts, None);
                if !e.refuted {
                    let _ = crate::encode::encode(&e.formula, opts, &mut crate::encode::Cnf::new());
                }
            }
        }
        Ok(instance_file::Puzzle::Pool(p)) if p.variant.num_faces() <= 20 && p.pool.len() <= 30 => {
            let _ = p.compile();
        }
        _ => {}
    }
}

/// Kakuro grids: parse, compile, render.
pub fn kakuro(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Ok(k) = crate::kakuro::Kakuro::parse("fuzz.kakuro", t) {
        let _ = k.compile();
    }
}

/// Tricky Triple grids: parse, compile.
pub fn tricky_triple(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Ok(g) = crate::tricky::Tricky::parse("fuzz.tt", t) {
        let _ = g.compile();
    }
}

/// What comes back from other programs, chosen by the first byte: SAT-competition answers,
/// CBC and HiGHS solution files, batch lines, and solution JSON (checked against the
/// TetraSoKu seed instance).
pub fn solver_answers(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Some(t) = text(rest) else { return };
    let names: Vec<String> = ["p_ABC_001_r0", "p_ABC_001_r1", "x3", "aux_4", "y"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    match which % 5 {
        0 => {
            let _ = answer::parse_sat_answer("fuzz.out", t);
        }
        1 => {
            let _ = answer::parse_cbc_solution("fuzz.sol", t, &names);
        }
        2 => {
            let _ = answer::parse_highs_solution("fuzz.sol", t, &names);
        }
        3 => {
            let _ = batch::parse_batch("fuzz.txt", t);
        }
        _ => {
            let inst = instance_file::parse_instance(
                "seed",
                "variant = \"tetrahedron\"\ntiles = [[0,0,1],[0,0,2],[0,0,3],[1,1,2]]\ncapacities = [1,2,3,4]\n",
                None,
            )
            .expect("the built-in seed parses");
            if let Ok(p) = solution_json::parse_solution("fuzz.json", t, &inst) {
                let _ = crate::soku::verify::verify(&inst, &p);
            }
        }
    }
}

/// Puzzles of every kind that [`solution_files`] checks answers against.
const SMALL_PUZZLES: [(&str, &str); 4] = [
    (
        "3soku",
        "variant = \"tetrahedron\"\ntiles = [[0,0,1],[0,0,2],[0,0,3],[1,1,2]]\ncapacities = [1,2,3,4]\n",
    ),
    (
        "pool",
        "variant = \"octahedron\"\ncapacities = [4, 4, 4, 4, 4, 4]\npool = [{ tile = [1, 1, 1], min = 2, max = 8 }, { tile = [0, 1, 2], max = 3 }, { tile = [0, 0, 2] }]\n",
    ),
    ("kakuro", "kakuro 3 3\nX 4\\ 3\\\n\\4 . .\n\\3 . .\n"),
    ("trickytriple", "trickytriple 4 4\n. . 1 .\n2 . 1 .\n. . . 2\n. 2 . 3\n"),
];

/// Solution files and solver answers for every puzzle kind, the kind chosen by the first
/// byte: what `check` reads (solution JSON, grid solution files) and what `decode` reads
/// (SAT, CBC and HiGHS answers), against a small puzzle of that kind, through the same
/// erased run path the commands use.
pub fn solution_files(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Some(t) = text(rest) else { return };
    let (kind, src) = SMALL_PUZZLES[which as usize % SMALL_PUZZLES.len()];
    let p = crate::registry::parse(kind, "fuzz", src).expect("the built-in fuzz puzzles parse");
    let _ = p.check("fuzz.sol", t);
    let _ = p.decode_answer(&crate::puzzle::CompileOptions::default(), "fuzz.out", t);
}

/// OPB and DIMACS CNF files: the text is read both ways; small files are then compiled
/// (presolve on and off), encoded to CNF, and checked by the verifier on the all-false
/// assignment.
pub fn opb(data: &[u8]) {
    let Some(t) = text(data) else { return };
    for parsed in [crate::pb::read_opb("fuzz.opb", t), crate::pb::read_cnf("fuzz.cnf", t)] {
        let Ok(p) = parsed else { continue };
        if p.num_vars > 64 || p.rows.len() > 200 {
            continue;
        }
        let _ = crate::pb::verify::check_values(&p, &vec![false; p.num_vars as usize]);
        let _ = crate::pb::verify::objective_value(&p, &[]);
        for presolve in [true, false] {
            let copts = crate::puzzle::CompileOptions { presolve };
            let e = crate::run::emit::model(&p, &copts, None);
            if !e.refuted {
                let opts = crate::encode::EncodeOptions {
                    max_clauses: 200_000,
                    ..Default::default()
                };
                let _ = crate::encode::encode(&e.formula, opts, &mut crate::encode::Cnf::new());
            }
        }
    }
}
