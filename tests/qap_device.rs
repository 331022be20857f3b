//! The qapswap2 solver on an OpenCL device (PoCL in CI) against the host and CPU references.

mod common;
use common::*;
use metaopt::device::{DeviceContext, Queue};
use metaopt::hc12::qap::*;
use metaopt::rng::{rng4, Philox};
use std::sync::Arc;

fn solver(p: &Arc<QapProblem>, swaps: u32, backend: Backend, form: CostForm) -> QapHc12 {
    QapHc12::new(p.clone(), swaps, 2, 0, 0, backend, form).unwrap()
}

fn dev() -> Backend {
    Backend::Device(None)
}

#[test]
fn device_rng_equals_host_rng() {
    let ctx = DeviceContext::current().unwrap();
    let q: Queue = ctx.queue().unwrap();
    let prog = ctx.program(&["common.cl"], "").unwrap();
    let k = q.kernel(&prog, "rng_fill").unwrap();
    let count = 1000u32;
    let out = q.buffer::<u32>(4 * count as usize, "out").unwrap();
    let (seed, stream) = (0x1234_5678_9abc_def0u64, 7u32);
    unsafe {
        opencl3::kernel::ExecuteKernel::new(&k)
            .set_arg(&seed)
            .set_arg(&stream)
            .set_arg(out.cl())
            .set_arg(&count)
            .set_global_work_size(count as usize)
            .enqueue_nd_range(q.cl())
            .unwrap();
    }
    q.finish().unwrap();
    let dev = out.to_vec(&q).unwrap();
    for i in 0..count as usize {
        assert_eq!(&dev[4 * i..4 * i + 4], &rng4(seed, stream, i as u64), "counter {i}");
    }
}

#[test]
fn device_full_cost_equals_host_cost_on_every_instance() {
    for name in all_instances() {
        let inst = instance(&name);
        let p = Arc::new(QapProblem::from_instance(&inst));
        let mut s = solver(&p, 1, dev(), CostForm::Full);
        let mut rng = Philox::new(42, 0);
        for _ in 0..3 {
            let perm = rng.permutation(inst.n);
            let st = s.state(&perm, &s.zero_string()).unwrap();
            let costs = s.all_costs(&st).unwrap();
            assert_eq!(costs[0], Cost::I64(inst.cost(&perm)), "{name}");
        }
    }
}
