#![no_main]
//! Fuzz target: see sokuc::fuzzing::solver_answers.
libfuzzer_sys::fuzz_target!(|data: &[u8]| sokuc::fuzzing::solver_answers(data));
