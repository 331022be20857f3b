#![no_main]
// fuzz/src/lib.rs: metaopt_fuzz::awvd_input
libfuzzer_sys::fuzz_target!(|data: &[u8]| metaopt_fuzz::awvd_input(data));
