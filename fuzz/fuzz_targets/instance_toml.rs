#![no_main]
//! Fuzz target: see sokuc::fuzzing::instance_toml.
libfuzzer_sys::fuzz_target!(|data: &[u8]| sokuc::fuzzing::instance_toml(data));
