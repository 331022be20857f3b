#![no_main]
// fuzz/src/lib.rs: metaopt_fuzz::qiga_table
libfuzzer_sys::fuzz_target!(|data: &[u8]| metaopt_fuzz::qiga_table(data));
