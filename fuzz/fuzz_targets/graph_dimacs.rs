#![no_main]
// fuzz/src/lib.rs: metaopt_fuzz::graph_dimacs
libfuzzer_sys::fuzz_target!(|data: &[u8]| metaopt_fuzz::graph_dimacs(data));
