//! The fuzz drivers: one function per target, each feeding raw bytes to one of the library's
//! text-level readers (nothing is written to disk) and checking what the reader promises.
//!
//! A driver panics only when a reader panics or breaks its documented contract (an instance of
//! the wrong shape, a "permutation" that is not one, an error line of 0, ...). Malformed input
//! that is reported as an `Err` is the expected outcome.
//!
//! The same file is the library of `fuzz/` (libFuzzer targets under `fuzz/fuzz_targets/`, run by
//! `make fuzz`) and a module of the stable test `tests/it/reliability/fuzz_corpus.rs` (run by `make test`), so
//! the two cannot drift apart.

use std::path::Path;

use metaopt::de::{BoundsCorrection, FMode, MigrationKind, Mutation};
use metaopt::error::Error;
use metaopt::hc12::general::Coding;
use metaopt::problem::functions::{parse_double_double, ReferenceFixture};
use metaopt::problem::knapsack::{repair_bits, Knapsack, RepairMode, MAX_DECIMALS, MAX_ITEMS};
use metaopt::problem::qap::{
    check_perm, parse_bks_csv, parse_permutation, parse_sln, parse_sln_conventions, ElemType,
    QapInstance, MAX_N,
};
use metaopt::problem::sat::{parse_assignments, Assignment, Cnf, MAX_VARS};

/// A driver: one input, checked; a panic is a crash.
pub type Driver = fn(&[u8]);

/// Every target: (name, driver). The name is the libFuzzer target (`fuzz/fuzz_targets/<name>.rs`)
/// and the folder of its seed corpus (`fuzz/corpus/<name>/`).
pub const TARGETS: &[(&str, Driver)] = &[
    ("qap_dat", qap_dat),
    ("qap_sln", qap_sln),
    ("qap_bks_csv", qap_bks_csv),
    ("qap_sln_conventions", qap_sln_conventions),
    ("qap_permutation", qap_permutation),
    ("sat_cnf", sat_cnf),
    ("sat_assignments", sat_assignments),
    ("knapsack", knapsack),
    ("qiga_table", qiga_table),
    ("functions_fixture", functions_fixture),
    ("double_double", double_double),
    ("option_names", option_names),
    ("checkpoint", checkpoint),
    ("awvd_input", awvd_input),
    ("batch_file", batch_file),
    ("graph_dimacs", graph_dimacs),
    ("graph_matrix_market", graph_matrix_market),
    ("graph_osm_pbf", graph_osm_pbf),
];

/// What every error must satisfy: a parse error names a line from 1 on (and at most
/// `max_line` when given), and the message formats without panicking.
fn check_error(e: &Error, max_line: Option<usize>) {
    let _ = e.to_string();
    if let Error::Parse { line, .. } = e {
        assert!(*line >= 1, "parse error at line 0: {e}");
        if let Some(max) = max_line {
            assert!(
                *line <= max,
                "parse error at line {line} past the end (line {max}): {e}"
            );
        }
    }
}

/// The last line an error may blame in `text` (line 1 for an empty text).
fn last_line(text: &str) -> usize {
    text.lines().count().max(1)
}

/// QAPLIB `.dat` (`QapInstance::parse_dat`; `from_dat` reads the file as UTF-8 first).
pub fn qap_dat(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match QapInstance::parse_dat(text, Path::new("fuzz.dat")) {
        Ok(inst) => {
            let n = inst.n;
            assert!((1..=MAX_N).contains(&n), "n = {n}");
            assert_eq!(inst.a.len(), n * n);
            assert_eq!(inst.b.len(), n * n);
            let again = QapInstance::new(inst.name.clone(), n, inst.a.clone(), inst.b.clone())
                .expect("a parsed instance passes QapInstance::new");
            assert_eq!(again, inst);
            let id: Vec<usize> = (0..n).collect();
            inst.check_permutation(&id).unwrap();
            let _ = inst.cost(&id);
            if inst.is_symmetric() {
                assert_eq!(inst.cost_symmetric(&id), inst.cost(&id));
            }
        }
        Err(e) => check_error(&e, Some(last_line(text))),
    }
}

/// QAPLIB `.sln` (`parse_sln`) under the four conventions (base 0 or 1, direct or inverse).
pub fn qap_sln(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for base in [0, 1] {
        for inverse in [false, true] {
            match parse_sln(text, Path::new("fuzz.sln"), base, inverse) {
                Ok(sol) => {
                    assert!((1..=MAX_N).contains(&sol.n));
                    assert_eq!(sol.perm.len(), sol.n);
                    check_perm(&sol.perm, sol.n, "perm")
                        .expect("a parsed solution is a permutation");
                }
                Err(e) => check_error(&e, Some(last_line(text))),
            }
        }
    }
}

/// `BKS.csv` (`parse_bks_csv`, the bytes `read_bks_csv` reads).
pub fn qap_bks_csv(data: &[u8]) {
    match parse_bks_csv(data, Path::new("BKS.csv")) {
        Ok(map) => {
            for (k, v) in &map {
                assert_eq!(k, &v.instance);
            }
        }
        Err(e) => check_error(&e, None),
    }
}

/// `sln_conventions.csv` (`parse_sln_conventions`, the bytes `read_sln_conventions` reads).
pub fn qap_sln_conventions(data: &[u8]) {
    match parse_sln_conventions(data, Path::new("sln_conventions.csv")) {
        Ok(map) => {
            for (k, v) in &map {
                assert_eq!(k, &v.instance);
                assert!(v.base <= 1, "base {}", v.base);
            }
        }
        Err(e) => check_error(&e, None),
    }
}

/// Permutation text (`parse_permutation`), with `n` the number of tokens and its neighbours.
pub fn qap_permutation(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let tokens = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .count();
    for n in [tokens.saturating_sub(1), tokens, tokens + 1] {
        for base in [0, 1] {
            match parse_permutation(text, n, base) {
                Ok(p) => check_perm(&p, n, "perm").expect("a parsed permutation is one"),
                Err(e) => check_error(&e, None),
            }
        }
    }
}

/// DIMACS CNF (`Cnf::parse`; `from_file` decodes the bytes as lossy UTF-8 first).
pub fn sat_cnf(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match Cnf::parse(&text, Path::new("fuzz.cnf")) {
        Ok(cnf) => {
            assert!(cnf.num_vars <= MAX_VARS);
            assert_eq!(cnf.offsets.first(), Some(&0));
            assert_eq!(*cnf.offsets.last().unwrap() as usize, cnf.literals.len());
            assert!(
                cnf.offsets.windows(2).all(|w| w[0] < w[1]),
                "empty or unordered clause"
            );
            for &l in &cnf.literals {
                assert!(
                    l != 0 && l.unsigned_abs() as usize <= cnf.num_vars,
                    "literal {l}"
                );
            }
            let again = Cnf::from_clauses(cnf.name.clone(), cnf.num_vars, cnf.clauses())
                .expect("a parsed formula passes Cnf::from_clauses");
            assert_eq!(again, cnf);
            let _ = cnf.packed_literals();
        }
        Err(e) => check_error(&e, Some(last_line(&text))),
    }
}

/// Assignment files (`parse_assignments`). The input's first line is the number of variables
/// (0 to 4096; other first lines are skipped), the rest the file's text.
pub fn sat_assignments(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let Ok(num_vars) = first.trim().parse::<usize>() else {
        return;
    };
    if num_vars > 4096 {
        return;
    }
    match parse_assignments(rest, num_vars, Path::new("fuzz.txt")) {
        Ok(all) => {
            for a in &all {
                assert_eq!(a.num_vars(), num_vars);
                assert_eq!(a.words().len(), Assignment::words_for(num_vars));
            }
        }
        Err(e) => check_error(&e, Some(last_line(rest))),
    }
}

/// QIGA rotation-table files (`RotationTable::parse`): on success the text form reads back as
/// the same table, steps stay within 0..=200 and every sign code is one of -1, 0, +1, 2 (random).
pub fn qiga_table(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match metaopt::qiga::RotationTable::parse(&text) {
        Ok(t) => {
            assert_eq!(
                metaopt::qiga::RotationTable::parse(&t.to_text())
                    .expect("the writer's text reads back"),
                t
            );
            let e = t.encode();
            for row in e.chunks(5) {
                assert!((0..=200).contains(&row[0]));
                assert!(row[1..].iter().all(|s| [-1, 0, 1, 2].contains(s)));
            }
        }
        Err(e) => {
            let m = e.to_string();
            assert!(m.contains("table") && m.contains("line "), "{m}");
        }
    }
}

/// Knapsack files (`Knapsack::parse`; `from_file` decodes the bytes as lossy UTF-8 first). On
/// success: the invariant of the integer form, the writer's round trip, feasible repairs, and
/// for up to 12 items the exact optimum against every subset.
pub fn knapsack(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match Knapsack::parse(&text, Path::new("fuzz.txt")) {
        Ok(k) => {
            let n = k.n();
            assert!((1..=MAX_ITEMS).contains(&n));
            assert!(k.decimals() <= MAX_DECIMALS);
            assert_eq!(k.int_weights().len(), n);
            assert_eq!(k.int_profits().len(), n);
            assert!(k.int_weights().iter().all(|&w| w >= 1));
            let tw: u128 = k.int_weights().iter().map(|&w| u128::from(w)).sum();
            let tp: u128 = k.int_profits().iter().map(|&p| u128::from(p)).sum();
            assert!(tw <= i64::MAX as u128 && tp <= i64::MAX as u128);
            assert_eq!(tw, u128::from(k.total_int_weight()));
            assert!(k.int_capacity() <= k.total_int_weight());
            let again = Knapsack::parse(&k.to_text(), Path::new("fuzz.txt"))
                .expect("the writer's text reads back");
            assert_eq!(again, k);
            let mut order = k.ratio_order().to_vec();
            order.sort_unstable();
            assert!(
                order.iter().enumerate().all(|(i, &j)| i == j),
                "ratio_order is not a permutation"
            );
            for mode in [RepairMode::Index, RepairMode::Greedy] {
                let mut bits = vec![1u8; n];
                let (_, w) = k.repair(&mut bits, mode).unwrap();
                assert!(w <= k.int_capacity() && k.feasible(&bits));
            }
            let mut bits = vec![0u8; n];
            assert!(
                repair_bits(&mut bits, k.int_weights(), k.int_capacity(), 0..n, 0..n)
                    <= k.int_capacity()
            );
            if n <= 12 {
                let o = k.optimum().expect("12 items are within the state limit");
                let (w, p, c) = (k.int_weights(), k.int_profits(), k.int_capacity());
                let best = (0u32..1 << n)
                    .filter_map(|m| {
                        let (sw, sp) = (0..n)
                            .filter(|i| m >> i & 1 == 1)
                            .fold((0u64, 0u64), |(a, b), i| (a + w[i], b + p[i]));
                        (sw <= c).then_some(sp)
                    })
                    .max()
                    .unwrap();
                assert_eq!(o.int_value, best);
                assert_eq!(k.value_and_weight(&o.bits), (o.int_value, o.int_weight));
                assert!(o.int_weight <= c);
            }
        }
        Err(e) => check_error(&e, Some(last_line(&text))),
    }
}

/// The accuracy fixture of `metaopt bench functions` (`ReferenceFixture::parse`; `load` reads
/// the file as UTF-8 first).
pub fn functions_fixture(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match ReferenceFixture::parse(text, Path::new("fixture.txt")) {
        Ok(fx) => {
            assert_eq!(fx.unit.len(), fx.count * fx.dims);
            for (name, _, refs) in &fx.functions {
                assert_eq!(refs.len(), fx.count);
                let _ = fx.points(name).unwrap();
                assert_eq!(fx.refs(name).unwrap().len(), fx.count);
            }
        }
        // the fixture reader blames line 0 when the text ends early (a known quirk, not checked)
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// Decimal text as a double-double (`parse_double_double`, the fixture's reference values).
pub fn double_double(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Some((hi, lo)) = parse_double_double(text) {
        if hi.is_finite() {
            assert!(lo.is_finite(), "{text:?}: hi {hi:e}, lo {lo:e}");
            // hi is the nearest double, so the remainder is at most half an ulp of hi
            if hi.abs() >= f64::MIN_POSITIVE {
                assert!(
                    lo.abs() <= hi.abs() * f64::EPSILON,
                    "{text:?}: hi {hi:e}, lo {lo:e}"
                );
            }
        }
    }
}

/// The option names that arrive as text (C ABI, Python, MATLAB, CLI): DE mutation, bounds
/// correction list, migration and F mode, HC12 coding, QAP element type. A name that parses
/// must print as a name that parses to the same value.
pub fn option_names(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(m) = s.parse::<Mutation>() {
        assert_eq!(m.to_string().parse::<Mutation>().unwrap(), m);
    }
    if let Ok(list) = BoundsCorrection::parse_list(s) {
        assert!(!list.is_empty());
        for b in list {
            assert_eq!(b.to_string().parse::<BoundsCorrection>().unwrap(), b);
        }
    }
    if let Ok(k) = s.parse::<MigrationKind>() {
        assert_eq!(k.to_string().parse::<MigrationKind>().unwrap(), k);
    }
    if let Ok(f) = s.parse::<FMode>() {
        assert_eq!(f.name().parse::<FMode>().unwrap(), f);
    }
    let _ = Coding::from_name(s);
    if let Err(e) = ElemType::from_name(s) {
        let _ = e.to_string();
    }
}

/// The problem of the `checkpoint` target's states (the seeds are checkpoints of it).
const CHECKPOINT_QAP: &str = include_str!("../../data/qaplib/had12.dat");

/// The options of the `checkpoint` target's resumed solves (those of the seeds).
fn checkpoint_options(max_iterations: u64) -> metaopt::qap_ts::QapTsOptions {
    metaopt::qap_ts::QapTsOptions {
        chains: 2,
        stop: metaopt::run::Stop::budget(max_iterations),
        launch_iterations: 4,
        stagnation: Some(6),
        seed: 3,
        ..Default::default()
    }
}

/// The QAP HC12 of the `checkpoint` target's states: 4 swaps on the CPU, seed 3.
fn checkpoint_hc12(
    p: &std::sync::Arc<metaopt::problem::qap::QapProblem>,
) -> metaopt::hc12::qap::QapHc12 {
    metaopt::hc12::qap::QapHc12::new(
        p.clone(),
        4,
        2,
        0,
        0,
        metaopt::device::Backend::Cpu,
        metaopt::hc12::qap::CostForm::Delta,
    )
    .expect("a CPU solver")
}

fn checkpoint_hc12_options(runs: u64) -> metaopt::hc12::qap::solve::QapSolveOptions {
    metaopt::hc12::qap::solve::QapSolveOptions {
        stop: metaopt::run::Stop::budget(runs),
        seed: 3,
        ..Default::default()
    }
}

/// Checkpoints (`run::checkpoint`): the file as given (its frame and checksum checked first),
/// then its body under a valid frame, so that the fuzzer reaches the header and state readers
/// past the checksum. A state that reads is resumed for a few iterations of the QAP tabu search
/// and a few runs of the QAP HC12 on the CPU: whatever the bytes, an error or a result whose
/// cost is its permutation's cost, never a panic.
pub fn checkpoint(data: &[u8]) {
    use metaopt::run::checkpoint::{frame, header, MAGIC};
    use std::sync::{Arc, OnceLock};
    static PROBLEM: OnceLock<Arc<metaopt::problem::qap::QapProblem>> = OnceLock::new();
    let p = PROBLEM.get_or_init(|| {
        let inst = QapInstance::parse_dat(CHECKPOINT_QAP, Path::new("had12.dat"))
            .expect("the fixture reads");
        Arc::new(metaopt::problem::qap::QapProblem::from_instance(&inst))
    });
    let body = if data.starts_with(&MAGIC) && data.len() >= 24 {
        &data[20..data.len() - 4]
    } else {
        data
    };
    for bytes in [data.to_vec(), frame(body)] {
        if let Err(e) = header(&bytes, "state") {
            check_error(&e, None);
            continue;
        }
        let mut ts = metaopt::qap_ts::QapTs::new(p.clone(), metaopt::device::Backend::Cpu)
            .expect("a CPU solver");
        match ts.load_state(bytes.clone()) {
            Err(e) => check_error(&e, None),
            Ok(()) => match ts.solve(&checkpoint_options(24)) {
                Err(e) => check_error(&e, None),
                Ok(r) => assert_eq!(
                    p.cost(&r.permutation).expect("a permutation"),
                    r.cost,
                    "a resumed solve's cost is its permutation's"
                ),
            },
        }
        let mut hc = checkpoint_hc12(p);
        let o = checkpoint_hc12_options(6);
        match hc.load_state(&bytes, &o) {
            Err(e) => check_error(&e, None),
            Ok(()) => match metaopt::hc12::qap::solve::solve(&mut hc, &o, None, |_| {}) {
                Err(e) => check_error(&e, None),
                Ok(r) => assert!(
                    r.runs as usize <= 6 && r.permutation.len() == p.n,
                    "a resumed HC12 solve keeps its budget and its permutation's size"
                ),
            },
        }
    }
}

/// Writes the `checkpoint` target's seeds of the QAP HC12: states of the fixture after 1 and 3
/// runs.
pub fn checkpoint_hc12_seeds() -> Vec<Vec<u8>> {
    let inst = QapInstance::parse_dat(CHECKPOINT_QAP, Path::new("had12.dat")).expect("reads");
    let p = std::sync::Arc::new(metaopt::problem::qap::QapProblem::from_instance(&inst));
    [1, 3]
        .iter()
        .map(|&runs| {
            let mut s = checkpoint_hc12(&p);
            metaopt::hc12::qap::solve::solve(&mut s, &checkpoint_hc12_options(runs), None, |_| {})
                .expect("solves");
            s.save_state().expect("saves")
        })
        .collect()
}

/// Writes the `checkpoint` target's seeds: states of the fixture after 0 to 16 iterations.
pub fn checkpoint_seeds() -> Vec<Vec<u8>> {
    let inst = QapInstance::parse_dat(CHECKPOINT_QAP, Path::new("had12.dat")).expect("reads");
    let p = std::sync::Arc::new(metaopt::problem::qap::QapProblem::from_instance(&inst));
    [0, 4, 16]
        .iter()
        .map(|&it| {
            let mut ts = metaopt::qap_ts::QapTs::new(p.clone(), metaopt::device::Backend::Cpu)
                .expect("a CPU solver");
            // 0 iterations: a solve that stops at once (a time limit of 0 is refused: 1 ns)
            let opts = metaopt::qap_ts::QapTsOptions {
                stop: metaopt::run::Stop {
                    time_limit: (it == 0).then(|| std::time::Duration::from_nanos(1)),
                    ..metaopt::run::Stop::budget(it)
                },
                ..checkpoint_options(it)
            };
            ts.solve(&opts).expect("solves");
            ts.save_state().expect("saves")
        })
        .collect()
}

/// The Voronoi diagram's inputs: the bytes as a balls file (`parse_balls`), and written to a
/// file read as PDB and as mmCIF (`read_any`, pdbtbx behind the library's own checks). On
/// success every ball is finite, within `MAX_COORD`, with a radius >= 0; an error formats.
pub fn awvd_input(data: &[u8]) {
    use metaopt::awvd::{parse_balls, read_any, AtomSelection, MAX_COORD};
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let check = |r: metaopt::Result<Vec<metaopt::awvd::Ball>>| match r {
        Ok(balls) => {
            for b in balls {
                assert!(b.c.iter().all(|x| x.is_finite() && x.abs() <= MAX_COORD));
                assert!(b.r.is_finite() && b.r >= 0.0 && b.r <= MAX_COORD, "{b:?}");
            }
        }
        // a whole-file error (no atoms, no balls) names line 0; any other a line of the input
        Err(e) => match &e {
            Error::Parse { line: 0, .. } => {
                let _ = e.to_string();
            }
            _ => check_error(&e, Some(data.split(|&b| b == b'\n').count())),
        },
    };
    check(parse_balls(
        &String::from_utf8_lossy(data),
        Path::new("fuzz.balls"),
    ));
    let dir = std::env::temp_dir();
    let k = N.fetch_add(1, Ordering::Relaxed);
    for ext in ["pdb", "cif"] {
        let path = dir.join(format!("metaopt-fuzz-{}-{k}.{ext}", std::process::id()));
        std::fs::write(&path, data).expect("a temporary file");
        check(read_any(&path, &AtomSelection::default()));
        let _ = std::fs::remove_file(&path);
    }
}

/// A batch file of the batched DE (`de::batch_file::parse_batch_file`, as `read_batch_file`
/// after it read the file), the files it names served from memory: `k.cl` a small objective,
/// `d.bin` 64 bytes of data, `big.cl` a file past every bound, any other name missing. On success
/// every problem has its name, a source at most `MAX_SOURCE_BYTES`, and the batch's memory
/// estimate (`batch_footprint`) is made on both backends; an error is a parse error of the batch
/// file, at a line of the input or at line 0 (a problem's key).
pub fn batch_file(data: &[u8]) {
    use metaopt::de::batch_file::{parse_batch_file, MAX_SOURCE_BYTES};
    use metaopt::de::{batch_footprint, BatchFunction};
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut files = |key: &str, rel: &str, max: u64| -> Result<Vec<u8>, String> {
        let bytes = match rel {
            "k.cl" => b"FP objective(__global const FP *x, uint dims, uint stride, __global const void *data) { return x[0]; }".to_vec(),
            "d.bin" => vec![7u8; 64],
            "big.cl" => return Err(format!("{key}: {rel} holds more than {max} bytes")),
            _ => return Err(format!("{key}: cannot read {rel}")),
        };
        if bytes.len() as u64 > max {
            return Err(format!("{key}: {rel} holds more than {max} bytes"));
        }
        Ok(bytes)
    };
    match parse_batch_file(text, Path::new("fuzz.json"), &mut files) {
        Ok(problems) => {
            assert!(!problems.is_empty());
            for p in &problems {
                if let BatchFunction::Name(_) = &p.problem.function {
                    assert!(!p.name.is_empty());
                }
                if let BatchFunction::Source { code, .. } = &p.problem.function {
                    assert!(code.len() as u64 <= MAX_SOURCE_BYTES);
                }
            }
            for (double, device) in [(true, false), (false, true), (true, true)] {
                let f = batch_footprint(problems.iter().map(|p| (&p.problem, 1)), double, device);
                assert!(f.largest_buffer <= f.device || !device);
            }
        }
        Err(e) => match &e {
            Error::Parse { line: 0, .. } => {
                let _ = e.to_string();
            }
            // serde_json counts the line after a final newline
            _ => check_error(&e, Some(text.split('\n').count())),
        },
    }
}
/// What every graph a reader returns satisfies (`problem::graph`'s guarantees): CSR offsets from
/// 0 to m, non-decreasing; targets in range, rows strictly increasing (no duplicate), no
/// self-loop; weights non-negative and finite; at most `max_n` vertices. Up to 4096 vertices,
/// host Dijkstra from vertex 0 and the CPU backend of `Sssp` agree, and every predecessor closes a
/// tight arc (or both refuse an overflow, naming `weights`).
fn check_graph(g: &metaopt::problem::graph::Graph, max_n: usize) {
    use metaopt::problem::graph::{dijkstra, Weights, NO_PRED};
    let (n, m) = (g.n(), g.m());
    assert!(n <= max_n, "{n} vertices; at most {max_n} for this input");
    let off = g.offsets();
    assert_eq!(off.len(), n + 1);
    assert_eq!(off[0], 0);
    assert_eq!(off[n] as usize, m);
    assert_eq!(g.weights().len(), m);
    for u in 0..n {
        assert!(off[u] <= off[u + 1]);
        let row = &g.targets()[g.arcs_of(u)];
        assert!(
            row.windows(2).all(|p| p[0] < p[1]),
            "row {u} not strictly sorted"
        );
        assert!(row.iter().all(|&v| (v as usize) < n && v as usize != u));
    }
    for e in 0..m {
        let w = g.weights().get_f64(e);
        assert!(w.is_finite() && w >= 0.0, "weight {w}");
    }
    if n == 0 || n > 4096 {
        return;
    }
    let host = dijkstra(g, 0);
    let cpu = metaopt::sp::Sssp::new(
        g,
        metaopt::sp::SpOptions {
            backend: metaopt::device::Backend::Cpu,
            ..Default::default()
        },
    )
    .and_then(|mut s| s.sssp(0));
    match (host, cpu) {
        (Ok(h), Ok(c)) => {
            assert_eq!(h.dist, c.dist, "host Dijkstra and the CPU backend differ");
            for v in 1..n {
                let p = c.pred[v];
                if !c.dist.reachable(v) {
                    assert_eq!(p, NO_PRED);
                    continue;
                }
                let e = g
                    .find_arc(p as usize, v as u32)
                    .expect("the predecessor's arc");
                let tight = match (&c.dist, g.weights()) {
                    (metaopt::problem::graph::Distances::F64(d), w) => {
                        d[p as usize] + w.get_f64(e) == d[v]
                    }
                    (metaopt::problem::graph::Distances::U64(d), Weights::U32(w)) => {
                        d[p as usize] + w[e] as u64 == d[v]
                    }
                    (metaopt::problem::graph::Distances::U64(d), Weights::U64(w)) => {
                        d[p as usize] + w[e] == d[v]
                    }
                    _ => panic!("distances of the wrong type"),
                };
                assert!(tight, "predecessor {p} of {v} is not tight");
            }
        }
        (Err(a), Err(b)) => {
            for e in [a, b] {
                assert!(
                    matches!(&e, Error::InvalidArgument { arg: "weights", .. }),
                    "{e}"
                );
            }
        }
        (Err(e), Ok(_)) => {
            // the CPU backend refuses u64 totals up front; host Dijkstra only what overflows
            panic!("host Dijkstra refused what the CPU backend solved: {e}")
        }
        (Ok(_), Err(e)) => assert!(
            matches!(&e, Error::InvalidArgument { arg: "weights", .. }),
            "{e}"
        ),
    }
}

/// The longest error message a reader may give: its own words and at most 80 characters of the
/// input, each escaped to at most 10 bytes (`\u{10ffff}`).
const MAX_MESSAGE: usize = 400 + 80 * 10;

/// The most vertices a text of `len` bytes may give: twice the arcs it can declare (at most one
/// per byte) plus the isolated vertices a file may declare.
fn max_vertices(len: usize) -> usize {
    2 * (len + 1) + metaopt::problem::graph::MAX_ISOLATED_VERTICES
}

/// DIMACS `.gr` text (`Graph::parse_dimacs`; `from_dimacs` reads the file, lossy UTF-8).
pub fn graph_dimacs(data: &[u8]) {
    use metaopt::problem::graph::Graph;
    let text = String::from_utf8_lossy(data);
    match Graph::parse_dimacs(&text, Path::new("fuzz.gr")) {
        Ok(g) => check_graph(&g, max_vertices(data.len())),
        Err(e) => {
            check_error(&e, Some(last_line(&text)));
            assert!(e.to_string().len() < MAX_MESSAGE, "a long message: {e}");
        }
    }
}

/// MatrixMarket text (`Graph::parse_matrix_market`; `from_matrix_market` reads the file).
pub fn graph_matrix_market(data: &[u8]) {
    use metaopt::problem::graph::Graph;
    let text = String::from_utf8_lossy(data);
    match Graph::parse_matrix_market(&text, Path::new("fuzz.mtx")) {
        Ok(g) => check_graph(&g, max_vertices(data.len())),
        Err(e) => {
            check_error(&e, Some(last_line(&text)));
            assert!(e.to_string().len() < MAX_MESSAGE, "a long message: {e}");
        }
    }
}

/// OpenStreetMap PBF bytes (`Graph::from_osm_pbf` on a temporary file, both highway selections
/// and both weight kinds): a graph whose vertices carry coordinates and strictly increasing node
/// ids, or an error naming the file (line 0: a binary file has no lines).
pub fn graph_osm_pbf(data: &[u8]) {
    use metaopt::problem::graph::{Graph, OsmHighways, OsmOptions, OsmWeights};
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let k = N.fetch_add(1, Ordering::Relaxed);
    let path =
        std::env::temp_dir().join(format!("metaopt-fuzz-{}-{k}.osm.pbf", std::process::id()));
    std::fs::write(&path, data).expect("a temporary file");
    for (weights, highways) in [
        (OsmWeights::Metres, OsmHighways::All),
        (OsmWeights::RoundedMetres, OsmHighways::Roads),
    ] {
        match Graph::from_osm_pbf(&path, OsmOptions { weights, highways }) {
            Ok(g) => {
                // every vertex is a node reference of a way (at least a byte of the blocks, which
                // decompress to at most max_osm_decompressed of the file)
                let most = metaopt::problem::graph::max_osm_decompressed(data.len() as u64);
                check_graph(&g, most as usize);
                let ids = g.osm_ids().expect("OSM ids");
                assert_eq!(ids.len(), g.n());
                assert!(ids.windows(2).all(|p| p[0] < p[1]));
                assert_eq!(g.coords().expect("coordinates").len(), g.n());
            }
            Err(e) => {
                let _ = e.to_string();
                assert!(
                    matches!(&e, Error::Parse { line: 0, .. } | Error::Io { .. }),
                    "{e}"
                );
            }
        }
    }
    let _ = std::fs::remove_file(&path);
}
