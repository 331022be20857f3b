//! The general HC12 solver: catalogue functions reach their minima to the resolution of their
//! bits, and user sources, host callbacks and the catalogue give the same runs.

use crate::common::sphere_callback;
use metaopt::device::Backend;
use metaopt::hc12::general::*;
use metaopt::hc12::tabu::TabuConfig;
use metaopt::objective::{HostCallback, Objective};
use metaopt::problem::functions;
use metaopt::run::Stop;
use metaopt::Error;
use std::sync::Arc;

fn catalogue(name: &str) -> Objective {
    Objective::catalogue(name).unwrap()
}

/// The best value on the grid of `bits` bits over [a, b] for a separable function whose
/// one-dimensional part is smallest at 0 and grows away from it: each coordinate at the grid
/// point nearest 0.
fn grid_optimum(name: &str, dims: usize, bits: u32, a: f64, b: f64) -> f64 {
    let step = (b - a) / ((1u64 << bits) - 1) as f64;
    let i = ((0.0 - a) / step).floor();
    let (lo, hi) = (a + i * step, a + (i + 1.0) * step);
    let x: Vec<f64> = (0..dims)
        .map(|_| if lo.abs() < hi.abs() { lo } else { hi })
        .collect();
    functions::eval(name, &x).unwrap()
}

#[test]
fn reaches_the_minima_of_f1_f2_and_f6_in_ten_dimensions() {
    for (name, runs) in [("F1", 1), ("F2", 1), ("F6", 8)] {
        let (a, b) = (-5.12, 5.12);
        let bits = 16;
        let mut p = Hc12Params::real(10, bits, a, b);
        p.double = true;
        let mut s = Hc12::new(p, catalogue(name), Backend::DEVICE).unwrap();
        let r = s
            .run(&RunOptions {
                stop: Stop {
                    budget: Some(runs),
                    ..Stop::default()
                },
                seed: 5,
                ..Default::default()
            })
            .unwrap();
        let best = grid_optimum(name, 10, bits, a, b);
        assert!(
            r.value <= best * (1.0 + 1e-9) + 1e-12,
            "{name}: {} after {} runs, grid optimum {best}",
            r.value,
            runs
        );
        // the result is consistent: value of the decoded reals on the host
        assert!(
            (functions::eval(name, &r.reals).unwrap() - r.value).abs()
                <= 1e-9 * (1.0 + r.value.abs())
        );
        assert!(r.iterations > 1 && r.evaluations > 0);
    }
}

const F1_SOURCE: &str = r#"
FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)
{
    FP s = 0;
    for (uint j = 0; j < dims; ++j) s += x[j * stride] * x[j * stride];
    return s;
}
"#;

#[test]
fn user_source_and_host_callback_give_the_catalogue_run() {
    let mut p = Hc12Params::real(6, 12, -5.12, 5.12);
    p.double = true;
    let opts = RunOptions {
        stop: Stop {
            budget: Some(2),
            ..Stop::default()
        },
        seed: 9,
        ..Default::default()
    };
    let want = Hc12::new(p.clone(), catalogue("F1"), Backend::DEVICE)
        .unwrap()
        .run(&opts)
        .unwrap();
    let source = Objective::Source {
        code: F1_SOURCE.into(),
        data: Vec::new(),
    };
    let got = Hc12::new(p.clone(), source, Backend::DEVICE)
        .unwrap()
        .run(&opts)
        .unwrap();
    assert_eq!(
        (got.value, &got.string, got.iterations),
        (want.value, &want.string, want.iterations)
    );
    let cb = Hc12::new(p, sphere_callback(), Backend::DEVICE)
        .unwrap()
        .run(&opts)
        .unwrap();
    assert_eq!((&cb.string, cb.iterations), (&want.string, want.iterations));
    assert!((cb.value - want.value).abs() <= 1e-12);
}

#[test]
fn binary_and_integer_domains_with_max_and_coding() {
    // OneMax over the strings: every bit set is the maximum
    let onemax = Objective::Source {
        code: "FP objective_u(__global const uint *v, uint dims, uint stride, __global const void *data)\n\
               { FP s = 0; for (uint j = 0; j < dims; ++j) s += (FP)popcount(v[j * stride]); return s; }"
            .into(),
        data: Vec::new(),
    };
    let mut p = Hc12Params::real(4, 8, 0.0, 1.0);
    p.domain = Domain::Binary;
    let mut s = Hc12::new(p, onemax, Backend::DEVICE).unwrap();
    let r = s
        .run(&RunOptions {
            sense: Sense::Max,
            start: StartPoint::Zeros,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(r.value, 32.0);
    assert_eq!(r.string, vec![255; 4]);
    // integers: the distance to 37 per parameter, through the func-data buffer; plain binary code
    let target = Objective::Source {
        code: "FP objective_u(__global const uint *v, uint dims, uint stride, __global const void *data)\n\
               { __global const uint *t = (__global const uint *)data; FP s = 0;\n\
                 for (uint j = 0; j < dims; ++j) s += fabs((FP)v[j * stride] - (FP)t[j]); return s; }"
            .into(),
        data: [37u32, 5, 200].iter().flat_map(|v| v.to_le_bytes()).collect(),
    };
    let mut p = Hc12Params::real(3, 8, 0.0, 1.0);
    p.domain = Domain::Integer;
    let mut s = Hc12::new(p, target, Backend::DEVICE).unwrap();
    for coding in [Coding::Binary, Coding::Gray] {
        let r = s
            .run(&RunOptions {
                coding,
                stop: Stop {
                    budget: Some(4),
                    ..Stop::default()
                },
                ..Default::default()
            })
            .unwrap();
        assert_eq!(
            (r.value, r.integers.clone()),
            (0.0, vec![37, 5, 200]),
            "{coding:?}"
        );
    }
    // func-data replaced: a new target
    s.set_func_data(
        &[1u32, 2, 3]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let r = s
        .run(&RunOptions {
            stop: Stop {
                budget: Some(4),
                ..Stop::default()
            },
            ..Default::default()
        })
        .unwrap();
    assert_eq!(r.integers, vec![1, 2, 3]);
}

#[test]
fn starts_mask_orders_windows_and_per_parameter_bits() {
    // a start vector is encoded onto the grid: from the optimum itself, no move improves
    let mut p = Hc12Params::real(3, 10, -5.12, 5.12);
    p.bits = vec![10, 12, 8];
    p.bounds = vec![(-5.12, 5.12), (-1.0, 3.0), (-5.12, 5.12)];
    let mut s = Hc12::new(p.clone(), catalogue("F1"), Backend::DEVICE).unwrap();
    assert_eq!(s.string_bits(), 30);
    let x = vec![0.3, -0.2, 1.1];
    let k = s.encode(&x, Coding::Gray).unwrap();
    let (_, back) = s.decode(&k, Coding::Gray);
    for (i, (a, b)) in x.iter().zip(&back).enumerate() {
        let step = (p.bounds[i].1 - p.bounds[i].0) / ((1u64 << p.bits[i]) - 1) as f64;
        assert!((a - b).abs() <= step / 2.0 + 1e-12);
    }
    let r = s
        .run(&RunOptions {
            start: StartPoint::Vector(x),
            ..Default::default()
        })
        .unwrap();
    assert!(r.value < 0.01, "{}", r.value);
    // every row of the neighbourhood for mask orders 1 and 3 and a window
    for (order, start, len) in [(1, 0, 0), (3, 4, 9), (2, 10, 12)] {
        let mut q = p.clone();
        q.mask_order = order;
        q.start_bit = start;
        q.bit_length = len;
        let mut s = Hc12::new(q, catalogue("F1"), Backend::DEVICE).unwrap();
        let k = s.encode(&[1.0, 1.0, 1.0], Coding::Gray).unwrap();
        let values = s.all_values(&k, Coding::Gray).unwrap();
        assert_eq!(values.len() as u64, s.rows());
        assert!(
            (values[0] - functions::eval("F1", &s.decode(&k, Coding::Gray).1).unwrap()).abs()
                < 1e-4
        );
    }
}

#[test]
fn tabu_list_in_the_general_solver() {
    let mut p = Hc12Params::real(5, 10, -5.12, 5.12);
    p.double = true;
    let mut s = Hc12::new(p, catalogue("F6"), Backend::DEVICE).unwrap();
    let plain = s
        .run(&RunOptions {
            seed: 3,
            ..Default::default()
        })
        .unwrap();
    let mut cfg = TabuConfig::new(50).unwrap();
    cfg.max_iterations = 300;
    cfg.max_no_improve = 40;
    s.init_tabu_list(cfg).unwrap();
    let tabu = s
        .run(&RunOptions {
            seed: 3,
            ..Default::default()
        })
        .unwrap();
    assert!(
        tabu.iterations > plain.iterations,
        "the tabu walk goes on past the local optimum"
    );
    assert!(
        tabu.value <= plain.value,
        "the best ever seen is kept: {} vs {}",
        tabu.value,
        plain.value
    );
}

#[test]
fn errors_name_the_argument() {
    let msg = |r: metaopt::Result<Hc12>| r.err().expect("an error").to_string();
    // the transformed functions exist for D = 2 and 10 only
    assert!(msg(Hc12::new(
        Hc12Params::real(3, 8, -100.0, 100.0),
        catalogue("CEC05t"),
        Backend::DEVICE
    ))
    .contains("dims"));
    assert!(Objective::catalogue("F99").is_err());
    assert!(msg(Hc12::new(
        Hc12Params::real(0, 8, 0.0, 1.0),
        catalogue("F1"),
        Backend::DEVICE
    ))
    .contains("nParam"));
    let mut p = Hc12Params::real(3, 8, 0.0, 1.0);
    p.bits = vec![8, 40, 8];
    assert!(msg(Hc12::new(p.clone(), catalogue("F1"), Backend::DEVICE)).contains("nBitParam"));
    p.bits = vec![8, 8];
    assert!(msg(Hc12::new(p.clone(), catalogue("F1"), Backend::DEVICE)).contains("nBitParam"));
    p.bits = vec![8];
    p.bounds = vec![(1.0, 1.0)];
    assert!(msg(Hc12::new(p.clone(), catalogue("F1"), Backend::DEVICE)).contains("dodParam"));
    // a source that does not compile: the build log comes back
    let bad = Objective::Source { code: "FP objective(__global const FP *x, uint d, uint s, __global const void *p) { return nope; }".into(), data: Vec::new() };
    let e = Hc12::new(Hc12Params::real(2, 8, 0.0, 1.0), bad, Backend::DEVICE)
        .err()
        .unwrap();
    assert!(
        matches!(e, Error::KernelBuild { .. }) && e.to_string().contains("nope"),
        "{e}"
    );
    // a failing callback
    let failing = Objective::Callback(HostCallback {
        f: Arc::new(|_: &[f64], _: usize, _: usize, _: &mut [f64]| Err(7)),
    });
    let mut s = Hc12::new(Hc12Params::real(2, 8, 0.0, 1.0), failing, Backend::DEVICE).unwrap();
    let e = s.run(&RunOptions::default()).unwrap_err();
    assert!(matches!(e, Error::Callback(7)), "{e}");
    // run options
    let mut s = Hc12::new(
        Hc12Params::real(2, 8, 0.0, 1.0),
        catalogue("F1"),
        Backend::DEVICE,
    )
    .unwrap();
    assert!(s
        .run(&RunOptions {
            stop: Stop { ..Stop::default() },
            ..Default::default()
        })
        .unwrap_err()
        .to_string()
        .contains("nRuns"));
    assert!(s
        .run(&RunOptions {
            start: StartPoint::Vector(vec![0.5]),
            ..Default::default()
        })
        .unwrap_err()
        .to_string()
        .contains("startSeed"));
    assert!(s
        .run(&RunOptions {
            start: StartPoint::Vector(vec![0.5, f64::NAN]),
            ..Default::default()
        })
        .is_err());
}

/// The thesis's Table 1 lists a coding `GCi` that it never defines; the library
/// refuses it with a message that says so (docs/specs/HC12.md), and takes GC and BC.
#[test]
fn gci_is_refused_because_the_thesis_does_not_define_it() {
    assert_eq!(Coding::from_name("GC").unwrap(), Coding::Gray);
    assert_eq!(Coding::from_name("BC").unwrap(), Coding::Binary);
    let e = Coding::from_name("GCi").unwrap_err();
    assert!(
        matches!(e, Error::InvalidArgument { arg: "mCode", .. }),
        "{e}"
    );
    assert!(e.to_string().contains("does not define it"), "{e}");
}
