#![no_main]
// fuzz/src/lib.rs: metaopt_fuzz::batch_file
libfuzzer_sys::fuzz_target!(|data: &[u8]| metaopt_fuzz::batch_file(data));
