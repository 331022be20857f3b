#![no_main]
// fuzz/src/lib.rs: metaopt_fuzz::qap_bks_csv
libfuzzer_sys::fuzz_target!(|data: &[u8]| metaopt_fuzz::qap_bks_csv(data));
