#![no_main]
// fuzz/src/lib.rs: metaopt_fuzz::knapsack
libfuzzer_sys::fuzz_target!(|data: &[u8]| metaopt_fuzz::knapsack(data));
