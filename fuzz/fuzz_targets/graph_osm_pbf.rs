#![no_main]
// fuzz/src/lib.rs: metaopt_fuzz::graph_osm_pbf
libfuzzer_sys::fuzz_target!(|data: &[u8]| metaopt_fuzz::graph_osm_pbf(data));
