//! The fuzz corpora on stable Rust (fuzz/README.md): every reader of `fuzz/src/lib.rs` runs over
//! every committed corpus file of its target (`fuzz/corpus/<target>/`, the seeds and every input
//! that once broke a reader), then over a fixed number of inputs mutated from them with a fixed
//! seed. `make fuzz` is the open-ended libFuzzer run of the same drivers.

#[allow(dead_code)]
#[path = "../../../fuzz/src/lib.rs"]
mod drivers;

use std::path::{Path, PathBuf};

/// Mutated inputs per target (`METAOPT_FUZZ_MUTATIONS` overrides).
const MUTATIONS: usize = 20_000;

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no corpus file", dir.display());
    files
        .into_iter()
        .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
        .collect()
}

/// splitmix64: deterministic, no extra crate.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Tokens that parsers treat specially, spliced in by the mutator.
const DICT: &[&[u8]] = &[
    b"0",
    b"1",
    b"-1",
    b"-0",
    b"+1",
    b"2",
    b"12",
    b"255",
    b"256",
    b"257",
    b"4294967296",
    b"9223372036854775807",
    b"-9223372036854775808",
    b"18446744073709551616",
    b"134217728",
    b"134217729",
    b"99999999999999999999999",
    b"p cnf ",
    b"c ",
    b"%",
    b"v ",
    b"s ",
    b"\n",
    b"\r\n",
    b" ",
    b"\t",
    b",",
    b"\"",
    b"\xef\xbb\xbf",
    b"\xff",
    b"e",
    b"E-400",
    b"e308",
    b".",
    b"nan",
    b"inf",
    b"# capacity\n",
    b"# weight price\n",
    b"0.000001",
    b"1e-10",
    b"dims ",
    b"count ",
    b"points",
    b"function ",
    b"alias ",
    b"true",
    b"inverse",
    b"direct",
];

/// One to four mutations of `input`: bit flips, byte sets, deletions, duplications, dictionary
/// insertions, and splices with another corpus file.
fn mutate(rng: &mut Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(7) {
            0 if !v.is_empty() => {
                let i = at.min(v.len() - 1);
                v[i] ^= 1 << rng.below(8);
            }
            1 if !v.is_empty() => {
                let i = at.min(v.len() - 1);
                v[i] = rng.next() as u8;
            }
            2 => {
                let end = (at + 1 + rng.below(16)).min(v.len());
                v.drain(at..end);
            }
            3 => {
                let end = (at + 1 + rng.below(64)).min(v.len());
                let piece = v[at..end].to_vec();
                v.splice(at..at, piece);
            }
            4 | 5 => {
                let tok = DICT[rng.below(DICT.len())];
                v.splice(at..at, tok.iter().copied());
            }
            _ => {
                let from = rng.below(other.len() + 1);
                let end = (from + rng.below(256)).min(other.len());
                v.truncate(at);
                v.extend_from_slice(&other[from..end]);
            }
        }
    }
    v
}

fn run_target(name: &str, driver: drivers::Driver) {
    let files = corpus(name);
    for (path, data) in &files {
        if std::panic::catch_unwind(|| driver(data)).is_err() {
            panic!("target {name}: corpus file {} fails", path.display());
        }
    }
    let n = std::env::var("METAOPT_FUZZ_MUTATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(MUTATIONS);
    let mut rng = Rng(0x6d65_7461_6f70_7400 ^ name.len() as u64);
    for i in 0..n {
        let (_, base) = &files[rng.below(files.len())];
        let (_, other) = &files[rng.below(files.len())];
        let input = mutate(&mut rng, base, other);
        if std::panic::catch_unwind(|| driver(&input)).is_err() {
            let out = std::env::temp_dir().join(format!("metaopt-fuzz-{name}-{i}"));
            std::fs::write(&out, &input).unwrap();
            panic!("target {name}: mutated input {i} fails; written to {} (add it to fuzz/corpus/{name}/)", out.display());
        }
    }
}

/// Writes the seeds of the `checkpoint` target (`cargo test --release --test it
/// write_checkpoint_seeds -- --ignored`): checkpoints of its fixture, which a new format or
/// library version makes stale (they then exercise the refusals only).
#[test]
#[ignore]
fn write_checkpoint_seeds() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/checkpoint");
    std::fs::create_dir_all(&dir).unwrap();
    for (i, s) in drivers::checkpoint_seeds().iter().enumerate() {
        std::fs::write(dir.join(format!("qap_ts-{i}.state")), s).unwrap();
    }
    for (i, s) in drivers::checkpoint_hc12_seeds().iter().enumerate() {
        std::fs::write(dir.join(format!("qap_hc12-{i}.state")), s).unwrap();
    }
}

#[test]
fn every_target_has_a_test_and_a_libfuzzer_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (name, _) in drivers::TARGETS {
        assert!(
            root.join(format!("fuzz/fuzz_targets/{name}.rs")).is_file(),
            "fuzz/fuzz_targets/{name}.rs"
        );
    }
}

macro_rules! corpus_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                run_target(stringify!($name), drivers::$name);
            }
        )*
        #[test]
        fn the_tests_cover_every_target() {
            let tested = [$(stringify!($name)),*];
            for (name, _) in drivers::TARGETS {
                assert!(tested.contains(name), "no corpus test for target {name}");
            }
        }
    };
}

corpus_tests!(
    qap_dat,
    qap_sln,
    qap_bks_csv,
    qap_sln_conventions,
    qap_permutation,
    sat_cnf,
    sat_assignments,
    knapsack,
    qiga_table,
    checkpoint,
    functions_fixture,
    double_double,
    option_names,
    awvd_input,
    batch_file,
    graph_dimacs,
    graph_matrix_market,
    graph_osm_pbf,
);
