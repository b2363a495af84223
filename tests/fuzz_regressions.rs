//! Every input that ever crashed a fuzz target (tests/fuzz-regressions/<target>/), plus the
//! fuzzers' seed inputs (fuzz/seeds/<target>/), through the same entry points the fuzz
//! targets call (`sokuc::fuzzing`). None may panic. How to fuzz: README, "Fuzzing".

mod common;

use common::root;

type Target = fn(&[u8]);

const TARGETS: [(&str, Target); 5] = [
    ("variant_toml", sokuc::fuzzing::variant_toml),
    ("instance_toml", sokuc::fuzzing::instance_toml),
    ("kakuro", sokuc::fuzzing::kakuro),
    ("tricky_triple", sokuc::fuzzing::tricky_triple),
    ("solver_answers", sokuc::fuzzing::solver_answers),
];

#[test]
fn fuzz_seeds_and_crash_inputs_do_not_panic() {
    let mut ran = 0;
    for (name, target) in TARGETS {
        for dir in [
            root().join("fuzz/seeds").join(name),
            root().join("tests/fuzz-regressions").join(name),
        ] {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            for e in entries {
                let path = e.unwrap().path();
                let data = std::fs::read(&path).unwrap();
                let r = std::panic::catch_unwind(|| target(&data));
                assert!(r.is_ok(), "{name} panics on {}", path.display());
                ran += 1;
            }
        }
    }
    assert!(ran >= 30, "only {ran} inputs found");
}
