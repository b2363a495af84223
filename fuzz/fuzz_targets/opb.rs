#![no_main]
//! Fuzz target: see sokuc::fuzzing::opb.
libfuzzer_sys::fuzz_target!(|data: &[u8]| sokuc::fuzzing::opb(data));
