#![no_main]
// fuzz/src/lib.rs: metaopt_fuzz::functions_fixture
libfuzzer_sys::fuzz_target!(|data: &[u8]| metaopt_fuzz::functions_fixture(data));
