#![no_main]
//! Fuzz target: see sokuc::fuzzing::variant_toml.
libfuzzer_sys::fuzz_target!(|data: &[u8]| sokuc::fuzzing::variant_toml(data));
