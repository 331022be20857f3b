//! The diagram traced on the device (`cl/awvd.cl`): the balls, the grid and the vertex table stay
//! on the device for the whole diagram, and each tracing level is a handful of launches with one
//! small read of counters between levels.
//!
//! Per level (the pending edges as `vertex * 4 + k` references):
//! - `awvd_level`, one work-group per edge: builds the edge's frame from its start vertex,
//!   searches its region (a float pass, then the suspects within [`AwvdDevice::bound`] of the
//!   float minimum re-checked in double, or double throughout), proves the winner's arc inside the
//!   searched region (widening it once when not), checks the winner's sphere tangent and empty in
//!   double, and makes the end vertex as the host's `make_vertex` does (sorted quadruple, the exact
//!   tangent sphere nearest the found one and its index);
//! - `awvd_insert`: each end vertex looked up in the device's hash table of vertex keys
//!   (quadruple, which sphere), and a slot claimed for each new key (duplicates within the level
//!   find the claiming edge);
//! - `awvd_new`: the new vertices get ids, their balls are marked touched, their four edges become
//!   candidates;
//! - `awvd_back`, `awvd_link`, `awvd_unmark`: each end vertex's edge back toward the start linked
//!   where still unknown (the start vertex with the smallest key among the level's edges that end
//!   there), then each edge linked to its far end (which wins), so that the links do not depend on
//!   the order of the device's work-items;
//! - `awvd_compact`: the candidates whose far end is still unknown are the next level.
//!
//! What the device could not prove (collinear gates, nothing near, a failed check) is listed for
//! the host, whose exact search (the CPU backend's) gives the end vertex; the host's results go
//! through the same insert and link kernels. When no edge is pending, tracing restarts from the
//! balls no vertex touches, as on the CPU. Vertex ids depend on the order of the device's atomic
//! operations, but the result is sorted by key at the end, so it equals the CPU backend's.
//!
//! The kernel's geometry is the CPU backend's (`geom.rs`, `trace.rs`) in double without fused
//! multiply-adds, so the device and the CPU pick the same winners. It needs `cl_khr_fp64`.
//!
//! A level's searches, and the vertex-free contacts, go out in launches of pieces sized by a
//! [`Pacer`] to end within [`STEP_SECONDS`](crate::run::STEP_SECONDS) (the pieces give the same
//! outputs as one launch: every work-group writes its own edge's rows); the call's cut is asked
//! between them, between levels and between restarts.

use super::geom::{Sphere, Trisector};
use super::trace::{finish, make_vertex, search_edges, Ctx, Edge, Restarts};
use super::{check_cut, AwvdOptions, AwvdResult, Ball, Vertex, MAX_ON_SPHERE, ON_SPHERE_TOL};
use crate::device::{Backend, DeviceBuffer, ProgramSpec, Queue};
use crate::error::{Error, Result};
use crate::interrupt::Cut;
use crate::run::Pacer;
use opencl3::event::Event;
use opencl3::kernel::{ExecuteKernel, Kernel};
use rayon::prelude::*;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Lanes of the work-group of one edge: the diagram got faster up to 128 lanes, and capping
/// registers with -cl-nv-maxrregcount was slower (see benchmarks/INDEX.md,
/// 2026-11-24-h100-awvd_device_search).
const GROUP: usize = 128;
/// Arc bounds wider than this many cells are searched over the clusters of cells. The search
/// kernel's time falls from a few cells to about 16-20 and rises slowly after: the growing cell
/// boxes beat the clusters well past a few cells (measured on 6RXU and 6CVM in double; see
/// benchmarks/INDEX.md, 2026-11-25-h100-awvd_search_finish).
const FAR_CELLS: f64 = 20.0;
/// Work-items per group of the table kernels.
const WG: usize = 64;
/// Edges of a level's first launch and balls of the contacts' first launch, before the pacer
/// has measured a rate: a fraction of a second on a CPU device.
const FIRST_EDGES: u64 = 256;
const FIRST_BALLS: u64 = 4096;

/// The counters of the device tracing (`cl/awvd.cl` CNT_*): vertices, candidate edges, the next
/// level's edges, edges left to the host, a full table, double re-checks, float winners replaced.
const CNT_VERTS: usize = 0;
const CNT_CAND: usize = 1;
const CNT_PEND: usize = 2;
const CNT_HOST: usize = 3;
const CNT_OVERFLOW: usize = 4;
const CNT_RECHECK: usize = 5;
const CNT_REPLACED: usize = 6;
const CNT_DEGENERATE: usize = 7;
const CNT_COUNT: usize = 8;
/// A batch row without an edge (a restart's vertex).
const NO_EDGE: u32 = u32::MAX;

/// The device tracer with its float-pass suspect bound (parameter units: Å along a hyperbolic
/// edge, radians on an elliptic one; default 1e-3).
pub struct AwvdDevice {
    queue: Queue,
    level: Kernel,
    begin: Kernel,
    insert: Kernel,
    new: Kernel,
    back: Kernel,
    link: Kernel,
    unmark: Kernel,
    compact: Kernel,
    loose: Kernel,
    double: bool,
    pub bound: f64,
    /// The vertex table's first capacity (None: 8 per ball and 1024 more); a table that fills
    /// up is doubled and the diagram traced again.
    pub first_capacity: Option<usize>,
}

/// The balls and the grid on the device.
struct Resident {
    balls: DeviceBuffer<f64>,
    fballs: Option<DeviceBuffer<f32>>,
    start: DeviceBuffer<u32>,
    items: DeviceBuffer<u32>,
    cl_sphere: DeviceBuffer<f64>,
    cl_start: DeviceBuffer<u32>,
    cl_items: DeviceBuffer<u32>,
}

/// The vertex table (room for `cap` vertices), its hash table, the two edge lists (this level's
/// and the next), and the buffers of one batch (a level or the host's results), regrown when a
/// level outgrows them.
struct Tables {
    cap: usize,
    hmask: u32,
    hash: DeviceBuffer<u32>,
    vq: DeviceBuffer<u32>,
    vw: DeviceBuffer<u32>,
    vs: DeviceBuffer<f64>,
    adj: DeviceBuffer<i32>,
    touched: DeviceBuffer<u32>,
    cand: DeviceBuffer<u32>,
    refs: [DeviceBuffer<u32>; 2],
    cnt: DeviceBuffer<u32>,
    batch: Batch,
}

/// Per edge of a batch: the end ball (as i32; -1 for the host's search, -2 unbounded), the end
/// vertex's sorted quadruple, `which`, the counts (outu, 8 words); the end vertex's sphere
/// (outs); the insert's result, slot and new id; and the edges left to the host.
struct Batch {
    cap: usize,
    outu: DeviceBuffer<u32>,
    outs: DeviceBuffer<f64>,
    tgt: DeviceBuffer<u32>,
    slotof: DeviceBuffer<u32>,
    newid: DeviceBuffer<u32>,
    hostlist: DeviceBuffer<u32>,
}

impl Batch {
    fn new(q: &Queue, cap: usize) -> Result<Batch> {
        Ok(Batch {
            cap,
            outu: q.buffer(8 * cap, "end vertices")?,
            outs: q.buffer(4 * cap, "end spheres")?,
            tgt: q.buffer(cap, "end vertex ids")?,
            slotof: q.buffer(cap, "hash slots")?,
            newid: q.buffer(cap, "new vertex ids")?,
            hostlist: q.buffer(cap, "edges for the host")?,
        })
    }
}

impl Tables {
    fn new(q: &Queue, balls: usize, cap: usize) -> Result<Tables> {
        let slots = (2 * cap).next_power_of_two();
        Ok(Tables {
            cap,
            hmask: (slots - 1) as u32,
            hash: q.buffer_from(&vec![0u32; slots], "vertex hash table")?,
            vq: q.buffer(4 * cap, "vertex quadruples")?,
            vw: q.buffer(cap, "vertex spheres' indices")?,
            vs: q.buffer(4 * cap, "vertex spheres")?,
            adj: q.buffer(4 * cap, "vertex neighbours")?,
            touched: q.buffer_from(&vec![0u32; balls], "touched balls")?,
            cand: q.buffer(4 * cap, "candidate edges")?,
            refs: [
                q.buffer(4 * cap, "pending edges")?,
                q.buffer(4 * cap, "pending edges")?,
            ],
            cnt: q.buffer_from(&[0u32; CNT_COUNT], "tracing counters")?,
            batch: Batch::new(q, 1024)?,
        })
    }
}

/// Rounds `n` work-items up to whole groups of [`WG`].
fn items(n: usize) -> usize {
    n.max(1).div_ceil(WG) * WG
}

impl AwvdDevice {
    pub fn new(backend: Backend, double: bool, bound: f64) -> Result<AwvdDevice> {
        Self::build(backend, double, bound, None)
    }

    /// A tracer that leaves every `n`-th edge reference (vertex * 4 + k) to the host's exact
    /// search, as if the device had failed to prove it: for tests of that path, which real
    /// structures rarely take.
    pub fn host_every(backend: Backend, double: bool, bound: f64, n: u32) -> Result<AwvdDevice> {
        if n == 0 {
            return Err(Error::arg(
                "n",
                "must be at least 1 (every n-th edge goes to the host)",
            ));
        }
        Self::build(backend, double, bound, Some(n))
    }

    fn build(
        backend: Backend,
        double: bool,
        bound: f64,
        host_every: Option<u32>,
    ) -> Result<AwvdDevice> {
        let ctx = backend.context("awvd")?;
        ctx.require_fp64()?;
        // profiled: the searches' kernel time is reported apart from the tables'
        let queue = ctx.queue()?;
        let mut spec = ProgramSpec::files(&["awvd.cl"])
            .define("AWVD_DOUBLE", u32::from(double))
            .define("AWVD_BOUND", format!("{bound:e}"))
            .define("AWVD_FAR_CELLS", format!("{FAR_CELLS:.1}"))
            .define("AWVD_ON_SPHERE_TOL", format!("{ON_SPHERE_TOL:e}"))
            .define("AWVD_MAX_ON_SPHERE", MAX_ON_SPHERE);
        if let Some(n) = host_every {
            spec = spec.define("AWVD_HOST_EVERY", format!("{n}u"));
        }
        let program = ctx.build(&spec)?;
        let k = |name| queue.kernel(&program, name);
        Ok(AwvdDevice {
            level: k("awvd_level")?,
            begin: k("awvd_begin")?,
            insert: k("awvd_insert")?,
            new: k("awvd_new")?,
            back: k("awvd_back")?,
            link: k("awvd_link")?,
            unmark: k("awvd_unmark")?,
            compact: k("awvd_compact")?,
            loose: k("awvd_loose")?,
            queue,
            double,
            bound,
            first_capacity: None,
        })
    }

    fn upload(&self, ctx: &Ctx) -> Result<Resident> {
        let q = &self.queue;
        let flat: Vec<f64> = ctx
            .balls
            .iter()
            .flat_map(|b| [b.c[0], b.c[1], b.c[2], b.r])
            .collect();
        let fballs = if self.double {
            None
        } else {
            Some(q.buffer_from(
                &flat.iter().map(|&x| x as f32).collect::<Vec<f32>>(),
                "balls (float)",
            )?)
        };
        Ok(Resident {
            balls: q.buffer_from(&flat, "balls")?,
            fballs,
            start: q.buffer_from(&ctx.grid.start, "cell starts")?,
            items: q.buffer_from(&ctx.grid.items, "cell items")?,
            cl_sphere: q.buffer_from(
                &ctx.grid
                    .cl_sphere
                    .iter()
                    .flat_map(|(c, r)| [c[0], c[1], c[2], *r])
                    .collect::<Vec<f64>>(),
                "cluster spheres",
            )?,
            cl_start: q.buffer_from(&ctx.grid.cl_start, "cluster starts")?,
            cl_items: q.buffer_from(&ctx.grid.cl_items, "cluster items")?,
        })
    }

    /// The ball pairs of vertex-free elliptic edges (trace.rs `loose_contacts`), one work-item
    /// per ball in launches of pieces (the cut asked between them); balls with too many near
    /// balls go to the host's `loose_of`.
    fn loose(&self, ctx: &Ctx, r: &Resident, cut: &Cut) -> Result<Vec<(u32, u32)>> {
        let q = &self.queue;
        let g = &ctx.grid;
        let n = ctx.balls.len();
        let dims = g.dims.map(|d| d as u32);
        let mut cap = n.max(1024);
        let mut pacer = Pacer::default();
        loop {
            let b_count: DeviceBuffer<u32> = q.buffer_from(&[0u32], "loose count")?;
            let b_out: DeviceBuffer<u32> = q.buffer(4 * cap, "loose triples")?;
            // hidden balls are flagged on entry: the kernel skips them, `loose_of` gives none
            let flags: Vec<u32> = ctx.hidden.iter().map(|&h| u32::from(h)).collect();
            let b_host: DeviceBuffer<u32> = q.buffer_from(&flags, "loose host flags")?;
            let capu = cap as u32;
            let mut first = 0usize;
            while first < n {
                let c = pacer.size(FIRST_BALLS, (n - first) as u64, cut.clock.left()) as usize;
                let (firstu, end) = (first as u32, (first + c) as u32);
                let mut e = ExecuteKernel::new(&self.loose);
                // SAFETY: the arguments follow awvd_loose's declaration in type and order; the
                // buffers live until the blocking reads below.
                unsafe {
                    e.set_arg(r.balls.cl())
                        .set_arg(&end)
                        .set_arg(r.start.cl())
                        .set_arg(r.items.cl());
                    e.set_arg(&g.lo[0])
                        .set_arg(&g.lo[1])
                        .set_arg(&g.lo[2])
                        .set_arg(&g.cell);
                    e.set_arg(&dims[0])
                        .set_arg(&dims[1])
                        .set_arg(&dims[2])
                        .set_arg(&g.rmax);
                    e.set_arg(b_count.cl())
                        .set_arg(b_out.cl())
                        .set_arg(&capu)
                        .set_arg(b_host.cl())
                        .set_arg(&firstu);
                }
                let t = Instant::now();
                crate::device::launch(q, &mut e, &[items(c)], Some(&[WG]), "awvd_loose")?;
                q.finish()?;
                pacer.record(c as u64, t.elapsed().as_secs_f64());
                check_cut(cut)?;
                first += c;
            }
            let count = b_count.to_vec(q)?[0] as usize;
            if count > cap {
                cap = count;
                continue;
            }
            let mut out = vec![0u32; 4 * count];
            b_out.read(q, &mut out)?;
            let host = b_host.to_vec(q)?;
            let mut pairs: Vec<(u32, u32)> = out
                .chunks_exact(4)
                .flat_map(|t| [(t[0], t[1]), (t[0], t[2]), (t[1], t[2])])
                .collect();
            let flagged: Vec<usize> = (0..n).filter(|&i| host[i] != 0 && !ctx.hidden[i]).collect();
            pairs.extend(
                flagged
                    .par_iter()
                    .flat_map_iter(|&i| super::trace::loose_of(ctx, i))
                    .collect::<Vec<_>>(),
            );
            check_cut(cut)?;
            super::trace::check_crowded(ctx)?;
            return Ok(pairs);
        }
    }

    /// Resets the counters in `mask` (bit i: counter i).
    fn begin(&self, t: &Tables, mask: u32) -> Result<()> {
        let mut e = ExecuteKernel::new(&self.begin);
        // SAFETY: awvd_begin(cnt, mask); the buffer lives in `t`, which outlives the queue's use.
        unsafe {
            e.set_arg(t.cnt.cl()).set_arg(&mask);
        }
        crate::device::launch(&self.queue, &mut e, &[1], Some(&[1]), "awvd_begin")
    }

    /// The search of the `n` edges of `t.refs[cur]` from edge `first` into the batch buffers;
    /// its event.
    fn search_level(
        &self,
        ctx: &Ctx,
        r: &Resident,
        t: &Tables,
        cur: usize,
        first: usize,
        n: usize,
    ) -> Result<Event> {
        let g = &ctx.grid;
        let dims = g.dims.map(|d| d as u32);
        let ncl = g.cl_sphere.len() as u32;
        let b = &t.batch;
        let mut e = ExecuteKernel::new(&self.level);
        // SAFETY: the arguments follow awvd_level's declaration in type and order (the float
        // balls only without AWVD_DOUBLE); the buffers outlive the level (the caller reads the
        // counters, blocking, before any of them is dropped).
        unsafe {
            e.set_arg(r.balls.cl());
            if let Some(f) = &r.fballs {
                e.set_arg(f.cl());
            }
            e.set_arg(r.start.cl()).set_arg(r.items.cl());
            e.set_arg(&g.lo[0])
                .set_arg(&g.lo[1])
                .set_arg(&g.lo[2])
                .set_arg(&g.cell);
            e.set_arg(&dims[0])
                .set_arg(&dims[1])
                .set_arg(&dims[2])
                .set_arg(&g.rmax);
            e.set_arg(r.cl_sphere.cl())
                .set_arg(r.cl_start.cl())
                .set_arg(r.cl_items.cl())
                .set_arg(&ncl);
            e.set_arg(t.refs[cur].cl())
                .set_arg(t.vq.cl())
                .set_arg(t.vs.cl());
            e.set_arg(b.outu.cl())
                .set_arg(b.outs.cl())
                .set_arg(t.cnt.cl())
                .set_arg(b.hostlist.cl());
            e.set_arg_local_buffer(GROUP * 8)
                .set_arg_local_buffer(GROUP * 4)
                .set_arg_local_buffer(GROUP * 8)
                .set_arg_local_buffer(GROUP * 8)
                .set_arg(&(first as u32));
        }
        crate::device::launch_event(&self.queue, &mut e, &[n * GROUP], &[GROUP], "awvd_level")
    }

    /// The batch's `n` end vertices (edges `t.refs[cur]`) into the table, linked (links back
    /// first, then each edge's own, as `cl/awvd.cl` says why), and the candidates still unknown
    /// appended to `t.refs[1 - cur]`.
    fn absorb(&self, t: &Tables, cur: usize, n: usize) -> Result<()> {
        let q = &self.queue;
        let b = &t.batch;
        let nu = n as u32;
        let cap = t.cap as u32;
        // SAFETY (all four): the arguments follow the kernels' declarations in cl/awvd.cl in type
        // and order; the buffers live in `t`, which outlives the queue's use of them.
        let mut e = ExecuteKernel::new(&self.insert);
        unsafe {
            e.set_arg(&nu)
                .set_arg(b.outu.cl())
                .set_arg(t.hash.cl())
                .set_arg(&t.hmask)
                .set_arg(t.vq.cl());
            e.set_arg(t.vw.cl())
                .set_arg(b.tgt.cl())
                .set_arg(b.slotof.cl())
                .set_arg(t.cnt.cl());
        }
        crate::device::launch(q, &mut e, &[items(n)], Some(&[WG]), "awvd_insert")?;
        let mut e = ExecuteKernel::new(&self.new);
        unsafe {
            e.set_arg(&nu)
                .set_arg(b.outu.cl())
                .set_arg(b.outs.cl())
                .set_arg(b.tgt.cl())
                .set_arg(b.slotof.cl());
            e.set_arg(t.hash.cl())
                .set_arg(t.vq.cl())
                .set_arg(t.vw.cl())
                .set_arg(t.vs.cl())
                .set_arg(t.adj.cl());
            e.set_arg(t.touched.cl())
                .set_arg(b.newid.cl())
                .set_arg(t.cand.cl())
                .set_arg(t.cnt.cl())
                .set_arg(&cap);
        }
        crate::device::launch(q, &mut e, &[items(n)], Some(&[WG]), "awvd_new")?;
        let mut e = ExecuteKernel::new(&self.back);
        unsafe {
            e.set_arg(&nu)
                .set_arg(t.refs[cur].cl())
                .set_arg(b.outu.cl())
                .set_arg(b.tgt.cl())
                .set_arg(b.newid.cl())
                .set_arg(t.adj.cl());
            e.set_arg(t.vq.cl()).set_arg(t.vw.cl());
        }
        crate::device::launch(q, &mut e, &[items(n)], Some(&[WG]), "awvd_back")?;
        for (kernel, name) in [(&self.link, "awvd_link"), (&self.unmark, "awvd_unmark")] {
            let mut e = ExecuteKernel::new(kernel);
            unsafe {
                e.set_arg(&nu)
                    .set_arg(t.refs[cur].cl())
                    .set_arg(b.outu.cl())
                    .set_arg(b.tgt.cl())
                    .set_arg(b.newid.cl())
                    .set_arg(t.adj.cl());
            }
            crate::device::launch(q, &mut e, &[items(n)], Some(&[WG]), name)?;
        }
        let mut e = ExecuteKernel::new(&self.compact);
        unsafe {
            e.set_arg(t.cand.cl())
                .set_arg(t.adj.cl())
                .set_arg(t.refs[1 - cur].cl())
                .set_arg(t.cnt.cl());
        }
        crate::device::launch(q, &mut e, &[items(4 * n)], Some(&[WG]), "awvd_compact")
    }

    /// The counters (blocking: every launch so far has run).
    /// [`super::trace::check_degenerate`]'s error once a search of the level found more than
    /// [`MAX_ON_SPHERE`] balls on its vertex's sphere.
    fn check_degenerate(&self, ctx: &Ctx, t: &Tables) -> Result<()> {
        if self.counters(t)?[CNT_DEGENERATE] != 0 {
            ctx.degenerate.store(true, Ordering::Relaxed);
        }
        super::trace::check_degenerate(ctx, 0)
    }

    fn counters(&self, t: &Tables) -> Result<[u32; CNT_COUNT]> {
        let mut c = [0u32; CNT_COUNT];
        t.cnt.read(&self.queue, &mut c)?;
        Ok(c)
    }

    /// Host rows into the batch buffers and `t.refs[cur]`: per row, the edge (or [`NO_EDGE`]), the
    /// end ball (-2: unbounded) and the end vertex.
    fn write_batch(
        &self,
        t: &mut Tables,
        cur: usize,
        rows: &[(u32, i32, Option<Vertex>)],
    ) -> Result<()> {
        let q = &self.queue;
        if t.batch.cap < rows.len() {
            t.batch = Batch::new(q, rows.len())?;
        }
        let mut outu = Vec::with_capacity(8 * rows.len());
        let mut outs = Vec::with_capacity(4 * rows.len());
        for &(_, j, v) in rows {
            let v = v.unwrap_or(Vertex {
                q: [0; 4],
                which: 0,
                s: Sphere {
                    c: [0.0; 3],
                    r: 0.0,
                },
            });
            outu.extend([
                j as u32,
                v.q[0],
                v.q[1],
                v.q[2],
                v.q[3],
                u32::from(v.which),
                0,
                0,
            ]);
            outs.extend([v.s.c[0], v.s.c[1], v.s.c[2], v.s.r]);
        }
        let refs: Vec<u32> = rows.iter().map(|r| r.0).collect();
        t.batch.outu.write(q, &outu)?;
        t.batch.outs.write(q, &outs)?;
        t.refs[cur].write(q, &refs)
    }

    /// The host's exact searches of the edges the device left (`refs`: vertex * 4 + k): the
    /// batch rows of their results.
    fn host_searches(
        &self,
        ctx: &Ctx,
        t: &Tables,
        refs: &[u32],
        cut: &Cut,
    ) -> Result<Vec<(u32, i32, Option<Vertex>)>> {
        let q = &self.queue;
        let mut edges = Vec::with_capacity(refs.len());
        for &r in refs {
            let (v, k) = ((r >> 2) as usize, (r & 3) as usize);
            let mut qv = [0u32; 4];
            let mut s = [0f64; 4];
            t.vq.read_at(q, 4 * v, &mut qv)?;
            t.vs.read_at(q, 4 * v, &mut s)?;
            edges.push(Edge::opposite(
                qv,
                k,
                Sphere {
                    c: [s[0], s[1], s[2]],
                    r: s[3],
                },
            ));
        }
        let balls = ctx.balls;
        let found = search_edges(ctx, &edges, cut)?;
        Ok(refs
            .par_iter()
            .zip(edges.par_iter())
            .zip(found)
            .map(|((&r, e), f)| match f {
                Some((j, h)) => {
                    let tri = Trisector::new([
                        balls[e.g[0] as usize],
                        balls[e.g[1] as usize],
                        balls[e.g[2] as usize],
                    ])
                    .expect("a searched edge has a frame");
                    (
                        r,
                        j as i32,
                        Some(make_vertex(
                            balls,
                            [e.g[0], e.g[1], e.g[2], j],
                            tri.point(h),
                        )),
                    )
                }
                None => (r, -2, None),
            })
            .collect())
    }

    /// The traced vertices and their neighbours with room for `cap` vertices; None when the table
    /// overflowed (the caller grows it and traces again).
    #[allow(clippy::type_complexity)]
    fn trace(
        &self,
        ctx: &Ctx,
        r: &Resident,
        cap: usize,
        res: &mut AwvdResult,
        cut: &Cut,
    ) -> Result<Option<(Vec<Vertex>, Vec<[i64; 4]>)>> {
        let q = &self.queue;
        let n = ctx.balls.len();
        let mut t = Tables::new(q, n, cap)?;
        let mut restarts = Restarts::new(n);
        let mut events: Vec<Event> = Vec::new();
        let (mut cur, mut p) = (0usize, 0usize);
        let all = (1u32 << CNT_CAND) | (1 << CNT_PEND) | (1 << CNT_HOST);
        let mut pacer = Pacer::default();
        'trace: loop {
            while p > 0 {
                check_cut(cut)?;
                if t.batch.cap < p {
                    t.batch = Batch::new(q, p + p / 2)?;
                }
                self.begin(&t, all)?;
                // the level's searches in pieces, paced by their kernel time (profiled)
                let mut first = 0usize;
                let (last, ev) = loop {
                    let c = pacer.size(FIRST_EDGES, (p - first) as u64, cut.clock.left()) as usize;
                    let ev = self.search_level(ctx, r, &t, cur, first, c)?;
                    first += c;
                    if first == p {
                        break (c, ev);
                    }
                    q.finish()?;
                    pacer.record(c as u64, crate::device::event_ns(&ev) as f64 * 1e-9);
                    events.push(ev);
                    check_cut(cut)?;
                    self.check_degenerate(ctx, &t)?;
                };
                self.absorb(&t, cur, p)?;
                let c = self.counters(&t)?;
                // the counters' read waited for the level's last piece
                pacer.record(last as u64, crate::device::event_ns(&ev) as f64 * 1e-9);
                events.push(ev);
                if c[CNT_DEGENERATE] != 0 {
                    ctx.degenerate.store(true, Ordering::Relaxed);
                    super::trace::check_degenerate(ctx, 0)?;
                }
                if c[CNT_OVERFLOW] != 0 {
                    return Ok(None);
                }
                res.searches += p as u64;
                res.levels += 1;
                let host = c[CNT_HOST] as usize;
                let mut next = c[CNT_PEND] as usize;
                if host > 0 {
                    res.host_searches += host as u64;
                    let mut refs = vec![0u32; host];
                    t.batch.hostlist.read(q, &mut refs)?;
                    let rows = self.host_searches(ctx, &t, &refs, cut)?;
                    super::trace::check_degenerate(ctx, 0)?;
                    self.write_batch(&mut t, cur, &rows)?;
                    self.begin(&t, 1 << CNT_CAND)?;
                    self.absorb(&t, cur, rows.len())?;
                    let c = self.counters(&t)?;
                    if c[CNT_OVERFLOW] != 0 {
                        return Ok(None);
                    }
                    next = c[CNT_PEND] as usize;
                }
                p = next;
                cur = 1 - cur;
            }
            // restart from the next ball no vertex touches
            let mut touched = vec![0u32; n];
            t.touched.read(q, &mut touched)?;
            loop {
                check_cut(cut)?;
                let Some(b) = restarts.next(|i| touched[i] != 0 || ctx.hidden[i]) else {
                    break 'trace;
                };
                let v = Restarts::vertex(ctx, b);
                super::trace::check_degenerate(ctx, 0)?;
                let Some(v) = v else {
                    continue;
                };
                res.restarts += 1;
                self.write_batch(&mut t, cur, &[(NO_EDGE, v.q[0] as i32, Some(v))])?;
                self.begin(&t, all)?;
                self.absorb(&t, cur, 1)?;
                let c = self.counters(&t)?;
                if c[CNT_OVERFLOW] != 0 {
                    return Ok(None);
                }
                p = c[CNT_PEND] as usize;
                cur = 1 - cur;
                if p > 0 {
                    // a new vertex: trace from it, then look at the touched balls again
                    continue 'trace;
                }
            }
        }
        let c = self.counters(&t)?;
        res.double_rechecks = u64::from(c[CNT_RECHECK]);
        res.float_replaced = u64::from(c[CNT_REPLACED]);
        res.search_s = events.iter().map(crate::device::event_ns).sum::<u64>() as f64 * 1e-9;
        let nv = c[CNT_VERTS] as usize;
        let mut vq = vec![0u32; 4 * nv];
        let mut vw = vec![0u32; nv];
        let mut vs = vec![0f64; 4 * nv];
        let mut adj = vec![0i32; 4 * nv];
        t.vq.read_converted(q, &mut vq, |x| x)?;
        t.vw.read_converted(q, &mut vw, |x| x)?;
        t.vs.read_converted(q, &mut vs, |x| x)?;
        t.adj.read_converted(q, &mut adj, |x| x)?;
        let verts: Vec<Vertex> = (0..nv)
            .into_par_iter()
            .map(|i| Vertex {
                q: [vq[4 * i], vq[4 * i + 1], vq[4 * i + 2], vq[4 * i + 3]],
                which: vw[i] as u8,
                s: Sphere {
                    c: [vs[4 * i], vs[4 * i + 1], vs[4 * i + 2]],
                    r: vs[4 * i + 3],
                },
            })
            .collect();
        let adj: Vec<[i64; 4]> = adj
            .par_chunks_exact(4)
            .map(|a| [a[0], a[1], a[2], a[3]].map(i64::from))
            .collect();
        Ok(Some((verts, adj)))
    }
}

/// The diagram of `balls` traced on a device (float pass unless `double`).
pub fn awvd_device(
    balls: &[Ball],
    opts: &AwvdOptions,
    backend: Backend,
    double: bool,
) -> Result<AwvdResult> {
    // the clock starts before the program build and the upload: they count in the limit
    let cut = opts.cut()?;
    super::prepared(balls, opts, |balls| {
        if balls.len() < 4 {
            return Ok(AwvdResult::default());
        }
        let dev = cut.during_setup(|| AwvdDevice::new(backend, double, opts.suspect_bound))?;
        check_cut(&cut)?;
        diagram(&dev, balls, opts, &cut)
    })
}

impl AwvdDevice {
    /// The diagram of `balls` (at least four; fewer give the empty diagram).
    pub fn diagram(&self, balls: &[Ball], opts: &AwvdOptions) -> Result<AwvdResult> {
        let cut = opts.cut()?;
        super::prepared(balls, opts, |balls| {
            if balls.len() < 4 {
                return Ok(AwvdResult::default());
            }
            diagram(self, balls, opts, &cut)
        })
    }
}

fn diagram(dev: &AwvdDevice, balls: &[Ball], opts: &AwvdOptions, cut: &Cut) -> Result<AwvdResult> {
    let clock = Instant::now();
    let ctx = Ctx::new(balls, opts.cell);
    super::trace::check_crowded_first(&ctx)?;
    let resident = dev.upload(&ctx)?;
    check_cut(cut)?;
    let mut res = AwvdResult {
        grid_s: clock.elapsed().as_secs_f64(),
        ..AwvdResult::default()
    };
    let clock = Instant::now();
    // about seven vertices per ball in molecules; a table that fills up is grown and traced again
    let mut cap = dev.first_capacity.unwrap_or(8 * balls.len() + 1024).max(1);
    let (verts, adj) = loop {
        let mut r = AwvdResult {
            grid_s: res.grid_s,
            ..AwvdResult::default()
        };
        if let Some(x) = dev.trace(&ctx, &resident, cap, &mut r, cut)? {
            res = r;
            break x;
        }
        // a table past the diagram's vertex bound is a degenerate input, not a small table
        super::trace::check_degenerate(&ctx, cap.saturating_add(1))?;
        cap = cap
            .checked_mul(2)
            .filter(|&c| c < i32::MAX as usize / 4)
            .ok_or_else(|| {
                Error::arg(
                    "balls",
                    format!("more than {cap} vertices: the device tables would not fit"),
                )
            })?;
    };
    res.trace_s = clock.elapsed().as_secs_f64();
    finish(&ctx, verts, adj, |c| dev.loose(c, &resident, cut), res)
}
