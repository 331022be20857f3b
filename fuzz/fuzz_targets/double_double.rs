#![no_main]
// fuzz/src/lib.rs: metaopt_fuzz::double_double
libfuzzer_sys::fuzz_target!(|data: &[u8]| metaopt_fuzz::double_double(data));
