//! The knapsack problem (`metaopt::problem::knapsack`) on the shared instances of `data/knapsack/`
//! (data/SOURCES.md): their integer form, the exact optima, the writer and the reference repair.

use crate::common;
use metaopt::problem::knapsack::{Knapsack, RepairMode};

fn instance(n: usize) -> Knapsack {
    Knapsack::from_file(&common::data_dir().join(format!("knapsack/knapsack-{n}.txt"))).unwrap()
}

/// The optimum SOURCES.md gives: 1533.821142 with 172 items.
#[test]
fn knapsack_250_optimum() {
    let k = instance(250);
    assert_eq!(
        (k.n(), k.scale(), k.int_capacity()),
        (250, 1_000_000, 673_867_780)
    );
    let t = std::time::Instant::now();
    let o = k.optimum().unwrap();
    eprintln!(
        "knapsack-250: {} ({} items, weight {}, {} peak states) in {:?}",
        o.value,
        o.items.len(),
        o.weight,
        o.peak_states,
        t.elapsed()
    );
    assert_eq!(o.int_value, 1_533_821_142);
    assert_eq!(o.value, 1533.821142);
    assert_eq!(o.items.len(), 172);
    assert!(o.int_weight <= k.int_capacity());
    assert_eq!(k.value_and_weight(&o.bits), (o.int_value, o.int_weight));
}

/// knapsack-100, -500 and -1000 defeat the list DP (the break solution leaves 7.17, 2.99 and 4.87
/// of the capacity free, so an optimum needs swaps far from the split item), but their profits are
/// weight + 5: a set of k* items (the most that fit) weighing exactly C meets the bound C + 5 k*
/// and is optimal. The solver finds such a set for each; the values are those bounds
/// (data/SOURCES.md).
#[test]
fn the_larger_instances_meet_the_cardinality_bound() {
    for (n, value, items) in [
        (100usize, 609_495_600u64, 67usize),
        (500, 3_087_682_533, 332),
        (1000, 6_168_563_934, 681),
    ] {
        let k = instance(n);
        assert_eq!(k.scale(), 1_000_000);
        let o = k.optimum().unwrap();
        assert_eq!(
            (o.int_value, o.items.len(), o.int_weight),
            (value, items, k.int_capacity()),
            "knapsack-{n}"
        );
        assert_eq!(k.value_and_weight(&o.bits), (o.int_value, o.int_weight));
        // the bound: no more than k* items fit (the k* + 1 lightest do not)
        let mut w = k.int_weights().to_vec();
        w.sort_unstable();
        assert!(w[..items + 1].iter().sum::<u64>() > k.int_capacity());
        assert_eq!(value, k.int_capacity() + 5_000_000 * items as u64);
    }
}

/// An instance beyond the DP's state limit (and not of the weight + constant form) ends with the
/// clean `max_states` error, not a run-away.
#[test]
fn the_state_limit_is_a_clean_error() {
    let k = Knapsack::generate(&metaopt::problem::knapsack::GenerateOptions {
        kind: metaopt::problem::knapsack::KnapsackKind::WeaklyCorrelated,
        items: 300,
        range: 100_000,
        seed: 3,
        ..Default::default()
    })
    .unwrap();
    match k.optimum_with_limit(8) {
        Err(metaopt::Error::InvalidArgument {
            arg: "max_states",
            msg,
        }) => assert!(msg.contains("too hard"), "{msg}"),
        other => panic!("{other:?}"),
    }
}

/// The writer gives back the same instance, and the file's bytes for the shared files.
#[test]
fn writer_round_trips_the_shared_files() {
    for n in [100, 250, 500, 1000] {
        let k = instance(n);
        let back = Knapsack::parse(
            &k.to_text(),
            std::path::Path::new(&format!("knapsack-{n}.txt")),
        )
        .unwrap();
        assert_eq!(back, k);
    }
}

/// Every repair mode leaves a feasible string on the shared instance, from random strings.
#[test]
fn repairs_are_feasible_on_knapsack_250() {
    let k = instance(250);
    let mut rng = metaopt::rng::Philox::new(9, 0);
    let order = rng.permutation(250);
    for _ in 0..200 {
        let p = rng.below(101);
        let bits: Vec<u8> = (0..250).map(|_| u8::from(rng.below(100) < p)).collect();
        for mode in [
            RepairMode::Index,
            RepairMode::Greedy,
            RepairMode::Order(&order),
        ] {
            let mut b = bits.clone();
            let (value, weight) = k.repair(&mut b, mode).unwrap();
            assert!(k.feasible(&b) && weight <= k.int_capacity());
            assert_eq!(k.value_and_weight(&b), (value, weight));
        }
    }
}
