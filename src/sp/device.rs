//! The device engine of `cl/sp.cl`: the graph and its reverse go up once; a call initialises
//! k x n distances on the device, runs rounds in batches of `rounds_per_check` between host reads
//! of a few counters, then computes the predecessors and reads both arrays back.
//!
//! A batch goes out in launches of rounds sized by a [`Pacer`] to end within
//! [`STEP_SECONDS`](crate::run::STEP_SECONDS) (the first is one round), and the local-memory path
//! launches its sources in pieces sized the same way; the call's cut is asked between them. The
//! pieces change neither the rounds counted (whole batches) nor the distances.

use super::{check, stopped, SpMethod, SpOptions};
use crate::device::{
    cl_error, try_output_vec, work_group_size, Backend, DeviceBuffer, DeviceContext, ProgramSpec,
    Queue,
};
use crate::error::{Error, Result};
use crate::interrupt::Cut;
use crate::problem::graph::{Distances, Graph, Grid, Weights};
use crate::run::Pacer;
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, ClMem};
use std::sync::Arc;
use std::time::Instant;

/// Weights on the device, in the graph's type.
enum WBuf {
    U32(DeviceBuffer<u32>),
    U64(DeviceBuffer<u64>),
    F32(DeviceBuffer<f32>),
    F64(DeviceBuffer<f64>),
}

fn upload_weights(q: &Queue, w: &Weights) -> Result<WBuf> {
    Ok(match w {
        Weights::U32(x) => WBuf::U32(q.buffer_from(x, "weights")?),
        Weights::U64(x) => WBuf::U64(q.buffer_from(x, "weights")?),
        Weights::F32(x) => WBuf::F32(q.buffer_from(x, "weights")?),
        Weights::F64(x) => WBuf::F64(q.buffer_from(x, "weights")?),
    })
}

/// A call's distances, predecessors, rounds and per source (reached vertices, traversed edges).
pub(super) type Run = (Distances, Vec<u32>, u64, Vec<(usize, u64)>);

/// A call's result vectors, made while the device computes.
struct Outputs {
    dist: Distances,
    pred: Vec<u32>,
}

/// Distances as bits: u32 for f32 graphs, u64 otherwise.
enum DBuf {
    B32(DeviceBuffer<u32>),
    B64(DeviceBuffer<u64>),
}

/// One kernel argument of any buffer type.
enum Arg<'a> {
    U8(&'a Buffer<u8>),
    U32(&'a Buffer<u32>),
    U64(&'a Buffer<u64>),
    F32(&'a Buffer<f32>),
    F64(&'a Buffer<f64>),
    Uint(u32),
    Ulong(u64),
    Float(f32),
    Double(f64),
    /// A `__local` buffer of this many bytes.
    Local(usize),
}

impl WBuf {
    fn arg(&self) -> Arg<'_> {
        match self {
            WBuf::U32(b) => Arg::U32(b.cl()),
            WBuf::U64(b) => Arg::U64(b.cl()),
            WBuf::F32(b) => Arg::F32(b.cl()),
            WBuf::F64(b) => Arg::F64(b.cl()),
        }
    }
}

impl DBuf {
    fn arg(&self) -> Arg<'_> {
        match self {
            DBuf::B32(b) => Arg::U32(b.cl()),
            DBuf::B64(b) => Arg::U64(b.cl()),
        }
    }
}

/// Enqueues `kernel` over `global` (each rounded up to `local`) with `args` in order.
fn launch(
    q: &Queue,
    kernel: &Kernel,
    name: &'static str,
    global: &[usize],
    local: &[usize],
    args: &[Arg],
) -> Result<()> {
    set_args(kernel, args)?;
    crate::device::enqueue_prepared(q, kernel, global, local, name)
}

/// Sets every argument of `kernel` in order (`launch`, and `sp_round`'s rounds, which then change
/// only the round, argument `args.len()`).
fn set_args(kernel: &Kernel, args: &[Arg]) -> Result<()> {
    for (i, a) in args.iter().enumerate() {
        let i = i as u32;
        // SAFETY: every kernel of cl/sp.cl is called with its arguments in type and order (the
        // callers list them as the kernel declares them); the buffers outlive the queue's use of
        // them because every call ends with blocking reads or a finish.
        unsafe {
            match a {
                Arg::U8(b) => kernel.set_arg(i, &b.get()),
                Arg::U32(b) => kernel.set_arg(i, &b.get()),
                Arg::U64(b) => kernel.set_arg(i, &b.get()),
                Arg::F32(b) => kernel.set_arg(i, &b.get()),
                Arg::F64(b) => kernel.set_arg(i, &b.get()),
                Arg::Uint(x) => kernel.set_arg(i, x),
                Arg::Ulong(x) => kernel.set_arg(i, x),
                Arg::Float(x) => kernel.set_arg(i, x),
                Arg::Double(x) => kernel.set_arg(i, x),
                Arg::Local(bytes) => kernel.set_arg_local_buffer(i, *bytes),
            }
        }
        .map_err(cl_error("clSetKernelArg"))?;
    }
    Ok(())
}

/// Enqueues the `r` rounds after `*round` by `enqueue(i)` (i: the round's 0-based number, which
/// then counts), in launches sized by `pacer`, waiting for each but the last and asking `cut`
/// between them. Returns the last launch's rounds and start: the caller's blocking read ends it
/// and records it in `pacer`.
fn paced_rounds(
    q: &Queue,
    pacer: &mut Pacer,
    cut: &Cut,
    round: &mut u64,
    r: u64,
    mut enqueue: impl FnMut(u64) -> Result<()>,
) -> Result<(u64, Instant)> {
    let end = *round + r;
    let (mut s, mut t) = (0, Instant::now());
    while *round < end {
        if s > 0 {
            q.finish()?;
            pacer.record(s, t.elapsed().as_secs_f64());
            check(cut)?;
        }
        s = pacer.size(1, end - *round, cut.clock.left());
        t = Instant::now();
        for _ in 0..s {
            enqueue(*round)?;
            *round += 1;
        }
    }
    Ok((s, t))
}

/// Whether the device has 64-bit atomic minimum (`cl_khr_int64_extended_atomics`).
fn has_atom64(ctx: &DeviceContext) -> bool {
    let ext = opencl3::device::Device::new(ctx.info.cl_id())
        .extensions()
        .unwrap_or_default();
    ext.split_whitespace()
        .any(|e| e == "cl_khr_int64_extended_atomics")
        && ext
            .split_whitespace()
            .any(|e| e == "cl_khr_int64_base_atomics")
}

fn kind_code(w: &Weights) -> u32 {
    match w {
        Weights::U32(_) => 0,
        Weights::U64(_) => 1,
        Weights::F32(_) => 2,
        Weights::F64(_) => 3,
    }
}

struct Kernels {
    init: Kernel,
    pull: Kernel,
    pred: Kernel,
    stats: Kernel,
    /// `sp_round`: one round of the frontier and of near-far.
    round: Option<Kernel>,
    /// `sp_local` when the device can hold distances in local memory for this weight type.
    local: Option<Kernel>,
}

/// The local-memory path's layout: bytes per distance and work-items per group.
struct LocalPlan {
    bytes: usize,
    wg: usize,
    /// Local memory the distances and both bitmaps of an n-vertex graph need, and the device's.
    need: usize,
    have: usize,
}

pub(super) struct DeviceSp {
    queue: Queue,
    k: Kernels,
    wg: usize,
    push_groups: usize,
    kind: u32,
    off: DeviceBuffer<u64>,
    tgt: DeviceBuffer<u32>,
    w: WBuf,
    roff: DeviceBuffer<u64>,
    rsrc: DeviceBuffer<u32>,
    rw: WBuf,
    delta: f64,
    local: Option<LocalPlan>,
    /// Device bytes of the graph and its reverse.
    upload: u64,
}

/// Graphs up to this many vertices take the local-memory path even for fewer sources than
/// compute units (every graph whose u32 distances fit a GPU's 48 KB does).
const LOCAL_SMALL_N: usize = 16_384;

/// Bytes per local distance of `sp_local` (0: not available): 4 for f32 weights and for u32
/// weights with max_weight * n < 2^32 - 1 (no candidate reaches the 32-bit infinity), else 8
/// with 64-bit atomics.
fn local_bytes(g: &Graph, atom64: bool) -> usize {
    match g.weights() {
        Weights::F32(_) => 4,
        Weights::U32(w) => {
            let max = w.iter().copied().max().unwrap_or(0) as u128;
            if max * (g.n() as u128) < u32::MAX as u128 {
                4
            } else if atom64 {
                8
            } else {
                0
            }
        }
        _ if atom64 => 8,
        _ => 0,
    }
}

/// Local memory `sp_local` needs for n vertices with `bytes` per distance: the distances, two
/// bitmaps and 64 bytes of the kernel's own.
pub(super) fn local_need(n: usize, bytes: usize) -> usize {
    n * bytes + 2 * n.div_ceil(32) * 4 + 64
}

impl DeviceSp {
    pub(super) fn new(g: &Graph, o: &SpOptions, backend: Backend) -> Result<Self> {
        let ctx = backend.context("shortest paths")?;
        let kind = kind_code(g.weights());
        if kind == 3 {
            ctx.require_fp64()?;
        }
        let atom64 = has_atom64(&ctx);
        let pushes = o.method != SpMethod::BellmanFordPull;
        if pushes && kind != 2 && !atom64 {
            return Err(Error::Unsupported(format!(
                "method {:?} on device {} ({}) needs cl_khr_int64_extended_atomics for {:?} weights; use SpMethod::BellmanFordPull (no atomics) or f32 weights",
                o.method,
                ctx.info.index,
                ctx.info.name,
                g.weight_kind()
            )));
        }
        let queue = ctx.queue_unprofiled()?;
        let spec = ProgramSpec::files(&["sp.cl"])
            .define("SP_KIND", kind)
            .define("SP_ATOM64", atom64 as u32);
        let lbytes = local_bytes(g, atom64);
        let spec = spec.define(
            "SP_LOCAL",
            match lbytes {
                4 => 1u32,
                8 => 2,
                _ => 0,
            },
        );
        let program = ctx.build(&spec)?;
        let k = Kernels {
            init: queue.kernel(&program, "sp_init")?,
            pull: queue.kernel(&program, "sp_pull")?,
            pred: queue.kernel(&program, "sp_pred")?,
            stats: queue.kernel(&program, "sp_stats")?,
            round: if kind == 2 || atom64 {
                Some(queue.kernel(&program, "sp_round")?)
            } else {
                None
            },
            local: if lbytes > 0 {
                Some(queue.kernel(&program, "sp_local")?)
            } else {
                None
            },
        };
        let t = ctx.tuning();
        let mut wg = work_group_size(&ctx, &k.pull, t.sp)
            .min(work_group_size(&ctx, &k.pred, t.sp))
            .min(work_group_size(&ctx, &k.init, t.sp))
            .min(work_group_size(&ctx, &k.stats, t.sp));
        if let Some(p) = &k.round {
            wg = wg.min(work_group_size(&ctx, p, t.sp));
        }
        let push_groups = (ctx.info.compute_units.max(1) as usize) * t.sp_push_groups.max(1);
        let local = k.local.as_ref().map(|kl| {
            // room for the kernel's static local memory and the runtime's
            let have = (ctx.info.local_mem_bytes as usize).saturating_sub(1024);
            LocalPlan {
                bytes: lbytes,
                wg: work_group_size(&ctx, kl, t.sp_local),
                need: local_need(g.n(), lbytes),
                have,
            }
        });
        let rev = g.try_reverse()?;
        // the graph and its reverse on the device, before any of it is uploaded
        let upload = 2 * (8 * (g.n() as u64 + 1) + (4 + g.weight_bytes() as u64) * g.m() as u64);
        let have = ctx.info.global_mem_bytes;
        if have > 0 && upload > have {
            return Err(Error::OutOfDeviceMemory(format!(
                "`graph`: {} vertices and {} arcs (and their reverse) need {upload} bytes on \
                 device {} ({}); it has {have} (CL_DEVICE_GLOBAL_MEM_SIZE)",
                g.n(),
                g.m(),
                ctx.info.index,
                ctx.info.name
            )));
        }
        let delta = match o.method {
            SpMethod::NearFar { delta: Some(d) } => d,
            _ => default_delta(g),
        };
        Ok(DeviceSp {
            off: queue.buffer_from(g.offsets(), "offsets")?,
            tgt: queue.buffer_from(g.targets(), "targets")?,
            w: upload_weights(&queue, g.weights())?,
            roff: queue.buffer_from(rev.offsets(), "reverse offsets")?,
            rsrc: queue.buffer_from(rev.targets(), "reverse sources")?,
            rw: upload_weights(&queue, rev.weights())?,
            queue,
            k,
            wg,
            push_groups,
            kind,
            delta,
            local,
            upload,
        })
    }

    /// Device bytes a call of `k` sources allocates besides the graph: per (source, vertex) the
    /// distances (two copies for Bellman-Ford), the predecessors and, for the pushing methods,
    /// the stamps, the two queues and near-far's three far piles.
    fn call_bytes(&self, o: &SpOptions, k: usize, n: usize) -> u64 {
        let total = k as u64 * n as u64;
        let d = if self.kind == 2 { 4 } else { 8 };
        let per = if self.uses_local(o, k, n) {
            self.local.as_ref().map_or(8, |l| l.bytes as u64) + 4
        } else {
            match o.method {
                SpMethod::BellmanFordPull => 2 * d + 4,
                SpMethod::Frontier => d + 4 + 8 + 8,
                SpMethod::NearFar { .. } => d + 4 + 8 + 8 + 12,
            }
        };
        total.saturating_mul(per).saturating_add(4 * k as u64)
    }

    /// [`Error::OutOfDeviceMemory`] naming `sources` when a call of `k` sources cannot fit the
    /// device's global memory beside the graph.
    fn check_call(&self, o: &SpOptions, k: usize, n: usize) -> Result<()> {
        let info = &self.queue.ctx().info;
        let need = self.call_bytes(o, k, n);
        let have = info.global_mem_bytes;
        if have > 0 && need.saturating_add(self.upload) > have {
            return Err(Error::OutOfDeviceMemory(format!(
                "`sources`: {k} sources x {n} vertices need about {need} bytes on device {} ({}) \
                 besides the graph's {}; it has {have} (CL_DEVICE_GLOBAL_MEM_SIZE): use fewer \
                 sources per call",
                info.index, info.name, self.upload
            )));
        }
        Ok(())
    }

    pub(super) fn describe(&self) -> String {
        let i = &self.queue.ctx().info;
        let local = match &self.local {
            Some(l) if l.need <= l.have => format!(
                "; local-memory path ({} B distances, {} of {} B, {} work-items)",
                l.bytes, l.need, l.have, l.wg
            ),
            Some(l) => format!(
                "; local-memory path does not fit ({} of {} B)",
                l.need, l.have
            ),
            None => "; no local-memory path for this weight type".into(),
        };
        format!("{}; {} work-items per group{local}", i.describe(), self.wg)
    }

    /// Whether a call with `o` takes the local-memory path.
    /// (It fits, and either there are at least as many sources as compute units or the graph
    /// has at most `LOCAL_SMALL_N` vertices: a few groups on a large graph leave most of the
    /// device idle, which the other methods do not; a CPU device's 512 KB local memory holds
    /// 100,000-vertex graphs.)
    pub(super) fn uses_local(&self, o: &SpOptions, k: usize, n: usize) -> bool {
        let cus = self.queue.ctx().info.compute_units.max(1) as usize;
        o.local_memory
            && self.local.as_ref().is_some_and(|l| l.need <= l.have)
            && (k >= cus || n <= LOCAL_SMALL_N)
    }

    /// The local-memory path: one group per source (`sp_local`), the sources launched in pieces
    /// sized to end within the pacer's step, the cut asked between them.
    fn run_local(
        &self,
        n: usize,
        sources: &[u32],
        o: &SpOptions,
        cut: &Cut,
    ) -> Result<(DBuf, DeviceBuffer<u32>, u64, Outputs)> {
        let q = &self.queue;
        let plan = self.local.as_ref().expect("checked by uses_local");
        let kernel = self.k.local.as_ref().expect("built with the plan");
        let k = sources.len();
        let total = k * n;
        let src = q.buffer_from(sources, "sources")?;
        // the local width: 32-bit bits under SP_LOCAL 1 (the host widens integers)
        let dist = if plan.bytes == 4 {
            DBuf::B32(q.buffer(total, "distances")?)
        } else {
            self.dist_buffer(total)?
        };
        let pred: DeviceBuffer<u32> = q.buffer(total, "predecessors")?;
        let rounds: DeviceBuffer<u32> = q.buffer_from(&[0u32, 0], "rounds")?;
        let max = o.max_rounds.unwrap_or(n as u64 + 1).min(u32::MAX as u64) as u32;
        let args = [
            Arg::U64(self.off.cl()),
            Arg::U32(self.tgt.cl()),
            self.w.arg(),
            Arg::U64(self.roff.cl()),
            Arg::U32(self.rsrc.cl()),
            self.rw.arg(),
            dist.arg(),
            Arg::U32(pred.cl()),
            Arg::U32(src.cl()),
            Arg::Uint(n as u32),
            Arg::Uint(max),
            Arg::U32(rounds.cl()),
            Arg::Local(n * plan.bytes),
            Arg::Local(2 * n.div_ceil(32) * 4),
        ];
        set_args(kernel, &args)?;
        // the last argument, `first`: the row of the piece's first group
        let first_arg = args.len() as u32;
        let cus = self.queue.ctx().info.compute_units.max(1) as u64;
        let mut pacer = Pacer::default();
        let (mut done, mut outs) = (0usize, None);
        while done < k {
            let c = pacer.size(cus, (k - done) as u64, cut.clock.left()) as usize;
            let t = Instant::now();
            // SAFETY: the last argument of sp_local is `uint first`.
            unsafe { kernel.set_arg(first_arg, &(done as u32)) }
                .map_err(cl_error("clSetKernelArg(sp_local)"))?;
            crate::device::enqueue_prepared(
                q,
                kernel,
                &[c * plan.wg],
                &[plan.wg],
                "clEnqueueNDRangeKernel(sp_local)",
            )?;
            done += c;
            if outs.is_none() {
                // the result's pages are faulted in while the device searches
                q.flush()?;
                outs = Some(self.outputs(total)?);
            }
            if done < k {
                q.finish()?;
                pacer.record(c as u64, t.elapsed().as_secs_f64());
                check(cut)?;
            }
        }
        let outs = outs.expect("at least one source");
        let mut r = [0u32; 2];
        rounds.read(q, &mut r)?;
        if r[1] != 0 {
            return Err(Error::arg(
                "max_rounds",
                format!("the local-memory search had not converged after {max} rounds"),
            ));
        }
        Ok((dist, pred, r[0] as u64, outs))
    }

    fn dist_buffer(&self, len: usize) -> Result<DBuf> {
        Ok(if self.kind == 2 {
            DBuf::B32(self.queue.buffer(len, "distances")?)
        } else {
            DBuf::B64(self.queue.buffer(len, "distances")?)
        })
    }

    /// `v` (a threshold or delta) as the kernel's distance type.
    fn d_arg(&self, v: f64) -> Arg<'static> {
        match self.kind {
            0 | 1 => Arg::Ulong(v.ceil().max(1.0) as u64),
            2 => Arg::Float(v as f32),
            _ => Arg::Double(v),
        }
    }

    /// Bits of a distance value (for the threshold buffer).
    fn bits(&self, v: f64) -> u64 {
        match self.kind {
            0 | 1 => v.ceil().max(1.0) as u64,
            2 => (v as f32).to_bits() as u64,
            _ => v.to_bits(),
        }
    }

    /// Distances, predecessors, rounds and per source (reached vertices, traversed edges).
    pub(super) fn run(
        &mut self,
        g: &Graph,
        sources: &[u32],
        o: &SpOptions,
        cut: &Cut,
    ) -> Result<Run> {
        let n = g.n();
        self.check_call(o, sources.len(), n)?;
        if self.uses_local(o, sources.len(), n) {
            let (dist, pred, rounds, outs) = self.run_local(n, sources, o, cut)?;
            return self.read_back((n, sources.len()), dist, pred, rounds, outs, cut);
        }
        let k = sources.len();
        let total = k * n;
        let q = &self.queue;
        let wg = self.wg;
        let src = q.buffer_from(sources, "sources")?;
        let pushes = o.method != SpMethod::BellmanFordPull;
        if pushes && total > u32::MAX as usize {
            return Err(Error::arg("sources", format!("{k} sources x {n} vertices exceed 2^32 - 1 queue entries; use fewer sources per call or SpMethod::BellmanFordPull")));
        }
        let stamp_len = if pushes { total } else { 1 };
        let stamp: DeviceBuffer<u32> = q.buffer(stamp_len, "stamps")?;
        let fstamp: DeviceBuffer<u32> = q.buffer(stamp_len, "far stamps")?;
        let dist = self.dist_buffer(total)?;
        let (n32, total64) = (n as u32, total as u64);
        launch(
            q,
            &self.k.init,
            "clEnqueueNDRangeKernel(sp_init)",
            &[total],
            &[wg],
            &[
                dist.arg(),
                Arg::U32(stamp.cl()),
                Arg::U32(fstamp.cl()),
                Arg::U32(src.cl()),
                Arg::Uint(n32),
                Arg::Ulong(total64),
                Arg::Uint(pushes as u32),
            ],
        )?;
        q.flush()?;
        // the result's pages are faulted in while the device searches
        let outs = self.outputs(total)?;
        let r = o.rounds_per_check as u64;
        let changed: DeviceBuffer<u32> = q.buffer_from(&[0u32], "changed")?;
        let (dist, rounds) = if !pushes {
            let max = o.max_rounds.unwrap_or(n as u64 + 1);
            let other = self.dist_buffer(total)?;
            let bufs = [dist, other];
            let mut round: u64 = 0;
            let mut pacer = Pacer::default();
            loop {
                let (s, t) = paced_rounds(q, &mut pacer, cut, &mut round, r, |i| {
                    let round = i + 1;
                    let (a, b) = if round % 2 == 1 {
                        (&bufs[0], &bufs[1])
                    } else {
                        (&bufs[1], &bufs[0])
                    };
                    launch(
                        q,
                        &self.k.pull,
                        "clEnqueueNDRangeKernel(sp_pull)",
                        &[n, k],
                        &[wg, 1],
                        &[
                            Arg::U64(self.roff.cl()),
                            Arg::U32(self.rsrc.cl()),
                            self.rw.arg(),
                            a.arg(),
                            b.arg(),
                            Arg::Uint(n32),
                            Arg::Uint(round as u32),
                            Arg::U32(changed.cl()),
                        ],
                    )
                })?;
                let mut c = [0u32];
                changed.read(q, &mut c)?;
                pacer.record(s, t.elapsed().as_secs_f64());
                if (c[0] as u64) < round {
                    break;
                }
                check(cut)?;
                if round >= max {
                    return Err(Error::arg(
                        "max_rounds",
                        format!("Bellman-Ford had not converged after {round} rounds"),
                    ));
                }
            }
            let [a, b] = bufs;
            (if round % 2 == 1 { b } else { a }, round)
        } else {
            let kernel = self
                .k
                .round
                .as_ref()
                .expect("round kernel built when pushes are allowed");
            let near_far = matches!(o.method, SpMethod::NearFar { .. });
            let max = o
                .max_rounds
                .unwrap_or(if near_far { u64::MAX } else { n as u64 + 1 });
            let first: Vec<u32> = sources
                .iter()
                .enumerate()
                .map(|(i, &s)| (i * n) as u32 + s)
                .collect();
            let mut qa: DeviceBuffer<u32> = q.buffer(total, "queue")?;
            qa.write(q, &first)?;
            let qb: DeviceBuffer<u32> = q.buffer(total, "queue")?;
            let far_len = if near_far { total } else { 1 };
            let piles = [
                q.buffer::<u32>(far_len, "far pile")?,
                q.buffer::<u32>(far_len, "far pile")?,
                q.buffer::<u32>(far_len, "far pile")?,
            ];
            let cnt: DeviceBuffer<u32> =
                q.buffer_from(&[k as u32, 0, 0, 0, 0, 0, 0, 0, 0, 0], "counters")?;
            let inf = match self.kind {
                2 => 0x7f80_0000,
                3 => f64::INFINITY.to_bits(),
                _ => u64::MAX,
            };
            let t0 = if near_far { self.bits(self.delta) } else { inf };
            let thr0 = [t0, 0, t0, 0, inf, inf, inf];
            let thr = match self.kind {
                2 => DBuf::B32(q.buffer_from(&thr0.map(|x| x as u32), "thresholds")?),
                _ => DBuf::B64(q.buffer_from(&thr0, "thresholds")?),
            };
            let grid = self.push_groups * wg;
            // local appends per group and pass: four per work-item (a grid's out-degree) in each
            // of the two buffers (near, far), together at most a quarter of the local memory
            let lcap =
                (4 * wg).min((self.queue.ctx().info.local_mem_bytes as usize / 4 / 8).max(1));
            let dbytes = if self.kind == 2 { 4 } else { 8 };
            let args = [
                Arg::U64(self.off.cl()),
                Arg::U32(self.tgt.cl()),
                self.w.arg(),
                dist.arg(),
                Arg::U32(qa.cl()),
                Arg::U32(qb.cl()),
                Arg::U32(piles[0].cl()),
                Arg::U32(piles[1].cl()),
                Arg::U32(piles[2].cl()),
                Arg::U32(cnt.cl()),
                Arg::U32(stamp.cl()),
                Arg::U32(fstamp.cl()),
                thr.arg(),
                self.d_arg(self.delta),
                Arg::Uint(n32),
                Arg::Local(lcap * 4),
                Arg::Local(lcap * 4),
                Arg::Local(wg * dbytes),
                Arg::Uint(lcap as u32),
            ];
            set_args(kernel, &args)?;
            let round_arg = args.len() as u32;
            let mut round: u64 = 0;
            let mut pacer = Pacer::default();
            loop {
                let (s, t) = paced_rounds(q, &mut pacer, cut, &mut round, r, |round| {
                    // SAFETY: the last argument of sp_round is `uint round`.
                    unsafe { kernel.set_arg(round_arg, &(round as u32)) }
                        .map_err(cl_error("clSetKernelArg(sp_round)"))?;
                    crate::device::enqueue_prepared(
                        q,
                        kernel,
                        &[grid],
                        &[wg],
                        "clEnqueueNDRangeKernel(sp_round)",
                    )
                })?;
                let mut c = [0u32; 10];
                cnt.read(q, &mut c)?;
                pacer.record(s, t.elapsed().as_secs_f64());
                let near = c[(round % 3) as usize];
                let far = c[3 + c[6 + 2 * (round % 2) as usize] as usize];
                if near == 0 && far == 0 {
                    break;
                }
                check(cut)?;
                if round >= max {
                    return Err(Error::arg(
                        "max_rounds",
                        format!("the frontier was not empty after {round} rounds"),
                    ));
                }
            }
            (dist, round)
        };
        check(cut)?;
        let pred: DeviceBuffer<u32> = q.buffer(total, "predecessors")?;
        launch(
            q,
            &self.k.pred,
            "clEnqueueNDRangeKernel(sp_pred)",
            &[n, k],
            &[wg, 1],
            &[
                Arg::U64(self.roff.cl()),
                Arg::U32(self.rsrc.cl()),
                self.rw.arg(),
                dist.arg(),
                Arg::U32(pred.cl()),
                Arg::U32(src.cl()),
                Arg::Uint(n32),
            ],
        )?;
        self.read_back((n, k), dist, pred, rounds, outs, cut)
    }

    /// Zeroed result vectors of `total` entries with their pages in (`try_output_vec`; a failed
    /// allocation names `sources`).
    fn outputs(&self, total: usize) -> Result<Outputs> {
        let dist = if self.kind >= 2 {
            Distances::F64(try_output_vec(total, "sources")?)
        } else {
            Distances::U64(try_output_vec(total, "sources")?)
        };
        Ok(Outputs {
            dist,
            pred: try_output_vec(total, "sources")?,
        })
    }

    /// Counts each row's reached vertices and traversed edges (`sp_stats`), then reads the k x n
    /// distances and predecessors (through pinned staging: `read_converted`, into vectors that
    /// ask for huge pages).
    /// `shape`: (vertices, sources).
    fn read_back(
        &self,
        (n, k): (usize, usize),
        dist: DBuf,
        pred: DeviceBuffer<u32>,
        rounds: u64,
        outs: Outputs,
        cut: &Cut,
    ) -> Result<Run> {
        let q = &self.queue;
        // the copies of a large result answer the cut between their pieces
        let stop = || cut.due().then(|| stopped(cut));
        // 32-bit integer distances (the local path's): unreachable is u32::MAX
        let narrow = matches!(dist, DBuf::B32(_)) && self.kind != 2;
        // spans of at least 64 vertices per work-item, so one row of a large graph fills the device
        let wg = self.wg;
        let spans = n.div_ceil(64 * wg).max(1);
        let span = n.div_ceil(spans);
        let stats: DeviceBuffer<u64> = q.buffer(2 * k * spans, "row counts")?;
        launch(
            q,
            &self.k.stats,
            "clEnqueueNDRangeKernel(sp_stats)",
            &[spans * wg, k],
            &[wg, 1],
            &[
                Arg::U64(self.off.cl()),
                dist.arg(),
                Arg::Uint(n as u32),
                Arg::Uint(span as u32),
                Arg::Uint(narrow as u32),
                Arg::U64(stats.cl()),
                Arg::Local(2 * wg * 8),
            ],
        )?;
        let mut st = crate::error::try_filled(2 * k * spans, 0u64, "sources")?;
        stats.read(q, &mut st)?;
        let rows = st
            .chunks(2 * spans)
            .map(|r| {
                r.chunks(2)
                    .fold((0usize, 0u64), |(a, b), c| (a + c[0] as usize, b + c[1]))
            })
            .collect();
        let Outputs {
            dist: mut d,
            pred: mut p,
        } = outs;
        pred.read_converted_until(q, &mut p, |x| x, stop)?;
        match (dist, &mut d) {
            (DBuf::B32(b), Distances::U64(x)) if narrow => b.read_converted_until(
                q,
                x,
                |b| if b == u32::MAX { u64::MAX } else { b as u64 },
                stop,
            )?,
            (DBuf::B32(b), Distances::F64(x)) => {
                b.read_converted_until(q, x, |b| f32::from_bits(b) as f64, stop)?
            }
            (DBuf::B64(b), Distances::F64(x)) => {
                b.read_converted_until(q, x, f64::from_bits, stop)?
            }
            (DBuf::B64(b), Distances::U64(x)) => b.read_converted_until(q, x, |b| b, stop)?,
            _ => {
                return Err(Error::Panic(
                    "distance buffer and result of different kinds".into(),
                ))
            }
        }
        Ok((d, p, rounds, rows))
    }
}

/// Near-far's default delta: the mean arc weight times max(1, 32 / mean out-degree).
pub(super) fn default_delta(g: &Graph) -> f64 {
    let m = g.m().max(1) as f64;
    let mean_w = (0..g.m()).map(|e| g.weights().get_f64(e)).sum::<f64>() / m;
    let degree = m / g.n().max(1) as f64;
    (mean_w * (32.0 / degree).max(1.0)).max(f64::MIN_POSITIVE)
}

/// The Lee wave's checkerboard rounds: steps per cell (u32::MAX unreachable) and rounds run.
pub(super) fn lee_wave(
    grid: &Grid,
    source: u32,
    backend: Backend,
    rounds_per_check: u32,
    cut: &Cut,
) -> Result<(Vec<u32>, u64)> {
    let ctx: Arc<DeviceContext> = backend.context("the Lee wave")?;
    let q = ctx.queue_unprofiled()?;
    let program = ctx.build(
        &ProgramSpec::files(&["sp.cl"])
            .define("SP_KIND", 0)
            .define("SP_ATOM64", 0),
    )?;
    let kernel = q.kernel(&program, "sp_lee")?;
    let (w, h) = (grid.width, grid.height);
    let n = w * h;
    let cap = work_group_size(&ctx, &kernel, ctx.tuning().sp);
    let lx = cap.min(w.next_power_of_two()).max(1);
    let ly = (cap / lx).clamp(1, h.next_power_of_two());
    let blocked: Vec<u8> = grid.blocked.iter().map(|&b| b as u8).collect();
    let blocked = q.buffer_from(&blocked, "blocked")?;
    let mut init = crate::error::try_filled(n, u32::MAX, "grid")?;
    init[source as usize] = 0;
    let dist = q.buffer_from(&init, "steps")?;
    let changed = q.buffer_from(&[0u32], "changed")?;
    let mut round: u64 = 0;
    let mut pacer = Pacer::default();
    check(cut)?;
    loop {
        let r = rounds_per_check as u64;
        let (s, t) = paced_rounds(&q, &mut pacer, cut, &mut round, r, |i| {
            let round = i + 1;
            for parity in 0..2u32 {
                launch(
                    &q,
                    &kernel,
                    "clEnqueueNDRangeKernel(sp_lee)",
                    &[w, h],
                    &[lx, ly],
                    &[
                        Arg::U8(blocked.cl()),
                        Arg::U32(dist.cl()),
                        Arg::Uint(w as u32),
                        Arg::Uint(h as u32),
                        Arg::Uint(parity),
                        Arg::Uint(round as u32),
                        Arg::U32(changed.cl()),
                    ],
                )?;
            }
            Ok(())
        })?;
        let mut c = [0u32];
        changed.read(&q, &mut c)?;
        pacer.record(s, t.elapsed().as_secs_f64());
        if (c[0] as u64) < round {
            break;
        }
        check(cut)?;
        if round > n as u64 + 1 {
            return Err(Error::Panic(format!(
                "the Lee wave had not converged after {round} rounds"
            )));
        }
    }
    Ok((dist.to_vec(&q)?, round))
}
