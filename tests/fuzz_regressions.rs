//! Every input that ever crashed a fuzz target (tests/fuzz-regressions/<target>/), plus the
//! fuzzers' seed inputs (fuzz/seeds/<target>/), through the same entry points the fuzz
//! targets call (`sokuc::fuzzing`). None may panic. How to fuzz: ARCHITECTURE.md, "Fuzzing".

mod common;

use common::root;

type Target = fn(&[u8]);

const TARGETS: [(&str, Target); 7] = [
    ("variant_toml", sokuc::fuzzing::variant_toml),
    ("instance_toml", sokuc::fuzzing::instance_toml),
    ("kakuro", sokuc::fuzzing::kakuro),
    ("tricky_triple", sokuc::fuzzing::tricky_triple),
    ("solver_answers", sokuc::fuzzing::solver_answers),
    ("solution_files", sokuc::fuzzing::solution_files),
    ("opb", sokuc::fuzzing::opb),
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

/// A small mutation fuzzer that runs in every test run, for machines without cargo-fuzz:
/// each seed input, with bytes flipped, cut, repeated or replaced by structural characters,
/// through every target. Deterministic (a fixed LCG), so a failure reproduces.
#[test]
fn mutated_seeds_do_not_panic() {
    let mut state: u64 = 0x5eed_f022;
    let mut next = move |n: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as usize) % n.max(1)
    };
    const SPECIAL: &[u8] = b"[]{}=,.\\\"#\n0123456789-X_ ";
    let mut ran = 0;
    for (name, target) in TARGETS {
        let Ok(entries) = std::fs::read_dir(root().join("fuzz/seeds").join(name)) else {
            continue;
        };
        for e in entries {
            let seed = std::fs::read(e.unwrap().path()).unwrap();
            for _ in 0..300 {
                let mut data = seed.clone();
                for _ in 0..1 + next(4) {
                    let at = next(data.len() + 1);
                    match next(4) {
                        0 if at < data.len() => data[at] = SPECIAL[next(SPECIAL.len())],
                        1 => data.truncate(at),
                        2 if at < data.len() => {
                            let piece: Vec<u8> = data[at..].iter().take(1 + next(16)).copied().collect();
                            data.splice(at..at, piece);
                        }
                        _ if at < data.len() => data[at] ^= 1 << next(8),
                        _ => data.push(SPECIAL[next(SPECIAL.len())]),
                    }
                }
                let r = std::panic::catch_unwind(|| target(&data));
                assert!(r.is_ok(), "{name} panics on {:?}", String::from_utf8_lossy(&data));
                ran += 1;
            }
        }
    }
    assert!(ran >= 1000, "only {ran} mutated inputs");
}
