#![no_main]
// fuzz/src/lib.rs: metaopt_fuzz::sat_assignments
libfuzzer_sys::fuzz_target!(|data: &[u8]| metaopt_fuzz::sat_assignments(data));
