#![no_main]
//! Fuzz target: see sokuc::fuzzing::solution_files.
libfuzzer_sys::fuzz_target!(|data: &[u8]| sokuc::fuzzing::solution_files(data));
