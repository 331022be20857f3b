#![no_main]
// fuzz/src/lib.rs: metaopt_fuzz::sat_cnf
libfuzzer_sys::fuzz_target!(|data: &[u8]| metaopt_fuzz::sat_cnf(data));
