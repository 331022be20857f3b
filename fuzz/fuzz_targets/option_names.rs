#![no_main]
// fuzz/src/lib.rs: metaopt_fuzz::option_names
libfuzzer_sys::fuzz_target!(|data: &[u8]| metaopt_fuzz::option_names(data));
