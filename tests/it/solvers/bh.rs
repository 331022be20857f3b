//! Basin hopping (`metaopt::bh`, cl/bh.cl): the device against its CPU twin, the escape from
//! CEC08t's ring minimum that island DE stops at, and the errors.

use metaopt::bh::{BasinHopping, BhParams};
use metaopt::device::Backend;
use metaopt::objective::{HostCallback, Objective};
use metaopt::problem::functions;
use metaopt::Error;

fn params(chains: usize, seed: u64) -> BhParams {
    BhParams {
        chains,
        seed,
        ..BhParams::default()
    }
}

fn invalid_arg(r: metaopt::error::Result<BasinHopping>) -> &'static str {
    match r {
        Err(Error::InvalidArgument { arg, .. }) => arg,
        Err(e) => panic!("expected an invalid argument, got {e:?}"),
        Ok(_) => panic!("expected an invalid argument, got a solver"),
    }
}

/// (anchor values, best value, best point) after `rounds` runs of `steps`.
fn chains_after(
    obj: &Objective,
    lo: &[f64],
    hi: &[f64],
    p: &BhParams,
    backend: Backend,
    x0: &[f64],
    (rounds, steps): (u32, u32),
) -> (Vec<f64>, f64, Vec<f64>) {
    let mut bh = BasinHopping::new(obj, lo, hi, p, backend).unwrap();
    bh.start(x0, None).unwrap();
    for _ in 0..rounds {
        bh.run(steps).unwrap();
    }
    assert_eq!(
        bh.evaluations(),
        1 + rounds as u64 * steps as u64 * p.chains as u64
    );
    let (f, x) = bh.best().unwrap();
    (bh.anchors().unwrap(), f, x)
}

#[test]
fn the_device_takes_the_cpu_twins_steps() {
    // the same words, deviates, hops and 1/5 rule: in double every chain's anchor is the same
    // value on the device and on the CPU, for objectives that both evaluate exactly alike
    // (additions and fused products only: F1, and F5 (Rosenbrock) with hops of 1 % to 20 % of
    // the width). A function with sines or cosines differs by an ulp between the device's library
    // and the host's, which flips a tie now and then and sends a chain elsewhere.
    for (name, dims, tol, hop_min, hop_max) in
        [("F1", 5, 0.0, 0.0015, 0.015), ("F5", 4, 0.0, 0.01, 0.2)]
    {
        let info = functions::lookup(name).unwrap();
        let (a, b) = info.domain;
        let (lo, hi) = (vec![a; dims], vec![b; dims]);
        let x0: Vec<f64> = (0..dims)
            .map(|j| a + (b - a) * (0.3 + 0.1 * j as f64))
            .collect();
        let obj = Objective::catalogue(name).unwrap();
        // searches of at most 1 500 steps (Rosenbrock's valley holds a longer one)
        let p = BhParams {
            hop_min,
            hop_max,
            max_search: 1500,
            ..params(48, 11)
        };
        // a local search ends when its step is below 5e-12 of the width: some hundreds of steps
        let (dev, fd, xd) = chains_after(&obj, &lo, &hi, &p, Backend::DEVICE, &x0, (4, 1000));
        let (cpu, fc, xc) = chains_after(&obj, &lo, &hi, &p, Backend::Cpu, &x0, (4, 1000));
        for (c, (d, h)) in dev.iter().zip(&cpu).enumerate() {
            assert!(
                (d - h).abs() <= tol * h.abs().max(1.0),
                "{name} chain {c}: device {d:e}, CPU {h:e}"
            );
        }
        assert!(
            (fd - fc).abs() <= tol * fc.abs().max(1.0),
            "{name}: {fd:e} vs {fc:e}"
        );
        for (d, h) in xd.iter().zip(&xc) {
            assert!(
                (d - h).abs() <= 1e-6 * (b - a),
                "{name}: best points {xd:?} vs {xc:?}"
            );
        }
        // the anchors only go down, and the chains moved
        assert!(fd < info.eval(&x0).unwrap(), "{name}: {fd:e}");
        assert!(
            dev.iter().any(|&v| v != dev[0]),
            "{name}: every chain the same"
        );
    }
}

#[test]
fn float_chains_descend_too() {
    let obj = Objective::catalogue("F1").unwrap();
    let (lo, hi) = (vec![-5.12; 3], vec![5.12; 3]);
    let p = BhParams {
        double: false,
        ..params(32, 3)
    };
    let (_, f, x) = chains_after(
        &obj,
        &lo,
        &hi,
        &p,
        Backend::DEVICE,
        &[4.0, -3.0, 2.5],
        (4, 1000),
    );
    assert!(f < 1e-6, "{f:e} at {x:?}");
}

/// CEC08t's local minimum with rotated coordinate j at pi (about f = 1.0194): x = o + M^-1 (3.1385 e_j).
fn cec08t_ring_minimum(j: usize) -> Vec<f64> {
    let data = functions::data("CEC08t", 10).unwrap();
    let (o, m) = data.split_at(10);
    let m = nalgebra::DMatrix::from_row_slice(10, 10, m);
    let mut z = nalgebra::DVector::zeros(10);
    z[j] = 3.1385;
    let y = m.lu().solve(&z).unwrap();
    (0..10).map(|i| o[i] + y[i]).collect()
}

#[test]
fn basin_hopping_leaves_the_ring_minimum_that_de_stops_at() {
    // every DE variant stops on CEC08t with rotated coordinates on the first ring of g
    // (docs/specs/DE.md); from there the chains reach the optimum 1 to 10 digits
    let x0 = cec08t_ring_minimum(3);
    let f0 = functions::eval("CEC08t", &x0).unwrap();
    assert!((f0 - 1.0194).abs() < 1e-3, "{f0}");
    let obj = Objective::catalogue("CEC08t").unwrap();
    let (lo, hi) = (vec![-100.0; 10], vec![100.0; 10]);
    // about 1 200 steps a local search, and one hop in some thousands enters the global basin
    let mut bh = BasinHopping::new(&obj, &lo, &hi, &params(1024, 5), Backend::DEVICE).unwrap();
    bh.start(&x0, Some(f0)).unwrap();
    let mut best = (f0, x0.clone());
    for _ in 0..60 {
        bh.run(500).unwrap();
        best = bh.best().unwrap();
        if best.0 - 1.0 < 1e-9 {
            break;
        }
    }
    assert!(
        best.0 - 1.0 < 1e-9,
        "{:.12} after {} steps",
        best.0,
        bh.steps()
    );
    let o = functions::cec_shift(8, 10).unwrap();
    for (j, (x, o)) in best.1.iter().zip(&o).enumerate() {
        assert!((x - o).abs() < 1e-3, "component {j}: {x} vs o {o}");
    }
    // the host's value of the point the device reports
    assert!(functions::eval("CEC08t", &best.1).unwrap() - 1.0 < 1e-9);
}

#[test]
fn basin_hopping_walks_happycats_shell() {
    // CEC09t near o is about |r2 - D|^(1/4): the searches end on the shell where the reference
    // arithmetic rounds r2 - D to 0, below the 6e-4 that any point off it costs (the compensated
    // HappyCat's floor), and the hops walk the shell toward o
    let o = functions::cec_shift(9, 10).unwrap();
    let x0: Vec<f64> = o
        .iter()
        .enumerate()
        .map(|(j, v)| v + 0.05 * (j as f64 - 4.5))
        .collect();
    let f0 = functions::eval("CEC09t", &x0).unwrap();
    assert!(f0 - 1.0 > 1e-2, "{f0}");
    let obj = Objective::catalogue("CEC09t").unwrap();
    let (lo, hi) = (vec![-100.0; 10], vec![100.0; 10]);
    let mut bh = BasinHopping::new(&obj, &lo, &hi, &params(256, 9), Backend::DEVICE).unwrap();
    bh.start(&x0, Some(f0)).unwrap();
    let mut best = f0;
    for _ in 0..40 {
        bh.run(500).unwrap();
        best = bh.best().unwrap().0;
        if best - 1.0 < 1e-4 {
            break;
        }
    }
    assert!(best - 1.0 < 1e-4, "{best:.12} after {} steps", bh.steps());
}

#[test]
fn a_shared_anchor_is_kept_until_a_chain_beats_it() {
    let obj = Objective::catalogue("F6").unwrap();
    let (lo, hi) = (vec![-5.12; 3], vec![5.12; 3]);
    let mut bh = BasinHopping::new(&obj, &lo, &hi, &params(16, 2), Backend::Cpu).unwrap();
    bh.start(&[3.0, 3.0, 3.0], None).unwrap();
    bh.run(50).unwrap();
    // an anchor at the optimum: nothing beats it, so every chain keeps it
    bh.anchor(&[0.0, 0.0, 0.0], None).unwrap();
    bh.run(2000).unwrap();
    assert!(bh.anchors().unwrap().iter().all(|&f| f == 0.0));
    assert_eq!(bh.best().unwrap(), (0.0, vec![0.0, 0.0, 0.0]));
}

#[test]
fn bad_arguments_are_named() {
    let f1 = Objective::catalogue("F1").unwrap();
    let (lo, hi) = (vec![-1.0; 2], vec![1.0; 2]);
    let cpu = Backend::Cpu;
    assert_eq!(
        invalid_arg(BasinHopping::new(&f1, &lo, &[1.0], &params(4, 1), cpu)),
        "hi"
    );
    assert_eq!(
        invalid_arg(BasinHopping::new(
            &f1,
            &[-1.0, 2.0],
            &hi,
            &params(4, 1),
            cpu
        )),
        "lo"
    );
    assert_eq!(
        invalid_arg(BasinHopping::new(
            &f1,
            &[f64::NAN, -1.0],
            &hi,
            &params(4, 1),
            cpu
        )),
        "lo"
    );
    assert_eq!(
        invalid_arg(BasinHopping::new(&f1, &lo, &hi, &params(0, 1), cpu)),
        "chains"
    );
    assert_eq!(
        invalid_arg(BasinHopping::new(
            &f1,
            &lo,
            &hi,
            &BhParams {
                hop_min: 0.2,
                hop_max: 0.1,
                ..params(4, 1)
            },
            cpu
        )),
        "hop_min"
    );
    assert_eq!(
        invalid_arg(BasinHopping::new(
            &f1,
            &lo,
            &hi,
            &BhParams {
                hop_scales: 0,
                ..params(4, 1)
            },
            cpu
        )),
        "hop_scales"
    );
    assert_eq!(
        invalid_arg(BasinHopping::new(
            &f1,
            &lo,
            &hi,
            &BhParams {
                step_stop: 0.1,
                step0: 0.01,
                ..params(4, 1)
            },
            cpu
        )),
        "step_stop"
    );
    assert_eq!(
        invalid_arg(BasinHopping::new(
            &f1,
            &lo,
            &hi,
            &BhParams {
                max_search: 0,
                ..params(4, 1)
            },
            cpu
        )),
        "max_search"
    );
    let cec = Objective::catalogue("CEC08t").unwrap();
    assert_eq!(
        invalid_arg(BasinHopping::new(
            &cec,
            &[-1.0; 3],
            &[1.0; 3],
            &params(4, 1),
            cpu
        )),
        "dims"
    );
    let src = Objective::source("FP objective(__global const FP *x, uint d, uint s, __global const void *p) { return x[0]; }", Vec::new());
    assert_eq!(
        invalid_arg(BasinHopping::new(&src, &lo, &hi, &params(4, 1), cpu)),
        "backend"
    );
    let cb = Objective::Callback(HostCallback::new(|x, rows, dims, out| {
        for r in 0..rows {
            out[r] = x[r * dims..(r + 1) * dims].iter().map(|v| v * v).sum();
        }
        Ok(())
    }));
    assert_eq!(
        invalid_arg(BasinHopping::new(
            &cb,
            &lo,
            &hi,
            &params(4, 1),
            Backend::DEVICE
        )),
        "objective"
    );
    // a callback on the CPU twin descends; a start outside the box is refused
    let mut bh = BasinHopping::new(&cb, &lo, &hi, &params(8, 1), cpu).unwrap();
    match bh.start(&[2.0, 0.0], None) {
        Err(Error::InvalidArgument { arg, .. }) => assert_eq!(arg, "x"),
        other => panic!("{other:?}"),
    }
    match bh.start(&[0.5], None) {
        Err(Error::InvalidArgument { arg, .. }) => assert_eq!(arg, "x"),
        other => panic!("{other:?}"),
    }
    bh.start(&[0.5, -0.5], None).unwrap();
    // a search ends at a step of 5e-17 of the width: some thousands of steps
    bh.run(5000).unwrap();
    assert!(bh.best().unwrap().0 < 1e-8);
}

/// Basin hopping with constraints (Deb's rules): G06 as its OpenCL source on the device, and as
/// a host callback with a violation callback (the host twin of cl/cec2006.cl) on the CPU twin,
/// from the middle of the box. In double the two take the same steps (G06's formulas are sums
/// and products: exact alike), and both reach a feasible point near G06's optimum
/// -6961.81387558015 (the unconstrained search would leave the feasible set for -7973).
#[test]
fn constrained_chains_follow_debs_rules_on_both_backends() {
    use metaopt::bh::BhRun;
    use metaopt::de::constraints::{self, Constraints};
    use metaopt::problem::cec2006;
    use metaopt::run::Stop;
    let (src, bounds, c) = constraints::cec2006("G06").unwrap();
    let (lo, hi): (Vec<f64>, Vec<f64>) = bounds.iter().copied().unzip();
    let f = Objective::callback(|x, rows, dims, out| {
        for r in 0..rows {
            out[r] = cec2006::eval("G06", &x[r * dims..(r + 1) * dims])
                .unwrap()
                .0;
        }
        Ok(())
    });
    let info = cec2006::info("G06").unwrap();
    let v = HostCallback::new(move |x, rows, dims, out| {
        for r in 0..rows {
            let (_, g) = cec2006::eval("G06", &x[r * dims..(r + 1) * dims]).unwrap();
            // the library's violation: the sum, not the report's mean
            out[r] = cec2006::violation(&info, &g) * g.len() as f64;
        }
        Ok(())
    });
    // short searches (a search's end is what an anchor takes)
    let p = BhParams {
        hop_min: 1e-4,
        hop_max: 0.05,
        step0: 0.01,
        step_stop: 1e-9,
        max_search: 300,
        ..params(64, 3)
    };
    let x0: Vec<f64> = lo.iter().zip(&hi).map(|(a, b)| (a + b) / 2.0).collect();
    let mut dev =
        BasinHopping::with_constraints(&src, Some(&c), &lo, &hi, &p, Backend::DEVICE).unwrap();
    let mut cpu = BasinHopping::with_constraints(
        &f,
        Some(&Constraints::callback(v)),
        &lo,
        &hi,
        &p,
        Backend::Cpu,
    )
    .unwrap();
    for bh in [&mut dev, &mut cpu] {
        bh.start(&x0, None).unwrap();
    }
    for round in 0..5 {
        dev.run(40).unwrap();
        cpu.run(40).unwrap();
        let (a, b) = (dev.anchors().unwrap(), cpu.anchors().unwrap());
        assert_eq!(a, b, "round {round}: the anchors' values");
        assert_eq!(
            dev.best_point().unwrap(),
            cpu.best_point().unwrap(),
            "round {round}"
        );
    }
    let run = BhRun {
        stop: Stop::budget(20000),
        ..BhRun::default()
    };
    for bh in [&mut dev, &mut cpu] {
        let r = bh.solve(&run).unwrap();
        assert_eq!(r.violation, 0.0, "{r:?}");
        // (G06's optimum is a corner of two active constraints, which the (1+1)-ES approaches
        // slowly from inside: within 1e-5 relative here)
        assert!((r.value + 6961.81387558015).abs() < 0.07, "{r:?}");
    }
    // the epsilon level is island DE's
    let mut eps = c.clone();
    eps.handling = metaopt::de::ConstraintHandling::EPSILON_DEFAULT;
    assert_eq!(
        invalid_arg(BasinHopping::with_constraints(
            &src,
            Some(&eps),
            &lo,
            &hi,
            &p,
            Backend::DEVICE
        )),
        "constraints"
    );
}

/// The polish (`metaopt::bh::polish`) from `x0` of `obj` in the box of `name`'s domain.
fn polished(
    name: &str,
    x0: &[f64],
    backend: Backend,
    stop: &metaopt::run::Stop,
) -> metaopt::error::Result<metaopt::bh::Polished> {
    let info = functions::lookup(name).unwrap();
    let (a, b) = info.domain;
    let (lo, hi) = (vec![a; x0.len()], vec![b; x0.len()]);
    let obj = Objective::catalogue(name).unwrap();
    let p = metaopt::bh::Polish::for_dims(x0.len());
    metaopt::bh::polish(&obj, None, (&lo, &hi), x0, &p, backend, stop)
}

#[test]
fn the_polish_finishes_a_point_alike_on_the_device_and_the_cpu_and_never_worsens_it() {
    use metaopt::run::Stop;
    let dims = 5;
    let x0: Vec<f64> = (0..dims).map(|j| 0.01 * (j as f64 + 1.0)).collect();
    let f0: f64 = x0.iter().map(|x| x * x).sum();
    let dev = polished("F1", &x0, Backend::DEVICE, &Stop::default()).unwrap();
    let cpu = polished("F1", &x0, Backend::Cpu, &Stop::default()).unwrap();
    let p = metaopt::bh::Polish::for_dims(dims);
    for r in [&dev, &cpu] {
        assert!(r.improved, "{r:?}");
        assert!((r.start_value - f0).abs() <= 1e-15, "{r:?}");
        // the sphere from about 1e-3 to rounding: the 1/5 rule's search ends near 5e-17 of
        // the width
        assert!(r.value < 1e-20, "{r:?}");
        assert_eq!(r.evaluations, 1 + p.chains as u64 * (p.steps as u64 + 2));
        assert_eq!(r.stopped_by, metaopt::run::StopReason::Budget);
        assert!(r.x.iter().all(|x| x.abs() <= 5.12));
    }
    // additions and products only: the device takes the CPU twin's steps
    assert_eq!(dev.value, cpu.value);
    assert_eq!(dev.x, cpu.x);
    // at the minimum already: nothing lower, the point kept as given
    let zero = vec![0.0; dims];
    let at = polished("F1", &zero, Backend::Cpu, &Stop::default()).unwrap();
    assert!(!at.improved && at.value == 0.0 && at.x == zero, "{at:?}");
    // a stop token already requested: the point kept, stopped by the interrupt
    let token = metaopt::StopToken::new();
    token.request();
    let stop = Stop {
        token: Some(token),
        ..Stop::default()
    };
    let cut = polished("F1", &x0, Backend::Cpu, &stop).unwrap();
    assert!(!cut.improved && cut.x == x0, "{cut:?}");
    assert_eq!(cut.stopped_by, metaopt::run::StopReason::Interrupted);
}

#[test]
fn the_polish_names_its_bad_arguments() {
    use metaopt::bh::{polish, Polish};
    use metaopt::run::Stop;
    let obj = Objective::catalogue("F1").unwrap();
    let (lo, hi) = (vec![-1.0; 2], vec![1.0; 2]);
    let arg = |r: metaopt::error::Result<metaopt::bh::Polished>| match r {
        Err(Error::InvalidArgument { arg, .. }) => arg,
        r => panic!("expected an invalid argument, got {r:?}"),
    };
    let p = Polish::for_dims(2);
    let go = |x: &[f64], p: &Polish, stop: &Stop| {
        polish(&obj, None, (&lo, &hi), x, p, Backend::Cpu, stop)
    };
    let none = Stop::default();
    assert_eq!(arg(go(&[0.5], &p, &none)), "x");
    assert_eq!(arg(go(&[0.5, 2.0], &p, &none)), "x");
    assert_eq!(arg(go(&[0.5, f64::NAN], &p, &none)), "x");
    assert_eq!(
        arg(go(
            &[0.5, 0.5],
            &Polish {
                steps: 0,
                ..p.clone()
            },
            &none
        )),
        "polish.steps"
    );
    assert_eq!(
        arg(go(
            &[0.5, 0.5],
            &Polish {
                chains: 0,
                ..p.clone()
            },
            &none
        )),
        "polish.chains"
    );
    assert_eq!(arg(go(&[0.5, 0.5], &p, &Stop::budget(5))), "stop");
    // a source objective on the CPU backend (basin hopping's twin evaluates no source)
    let src = Objective::source(
        "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data) { return x[0]; }".to_string(),
        Vec::new(),
    );
    assert!(polish(&src, None, (&lo, &hi), &[0.5, 0.5], &p, Backend::Cpu, &none).is_err());
}
