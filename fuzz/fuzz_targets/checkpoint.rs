#![no_main]
// fuzz/src/lib.rs: metaopt_fuzz::checkpoint
libfuzzer_sys::fuzz_target!(|data: &[u8]| metaopt_fuzz::checkpoint(data));
