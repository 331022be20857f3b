#![no_main]
// fuzz/src/lib.rs: metaopt_fuzz::qap_sln_conventions
libfuzzer_sys::fuzz_target!(|data: &[u8]| metaopt_fuzz::qap_sln_conventions(data));
