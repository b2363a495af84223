#![no_main]
//! Fuzz target: see sokuc::fuzzing::tricky_triple.
libfuzzer_sys::fuzz_target!(|data: &[u8]| sokuc::fuzzing::tricky_triple(data));
