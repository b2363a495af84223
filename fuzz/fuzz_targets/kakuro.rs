#![no_main]
//! Fuzz target: see sokuc::fuzzing::kakuro.
libfuzzer_sys::fuzz_target!(|data: &[u8]| sokuc::fuzzing::kakuro(data));
