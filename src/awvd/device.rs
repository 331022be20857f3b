//! The device end-vertex search (`cl/awvd.cl`): the balls and the grid go to the device once per
//! diagram; each tracing level is one launch, one work-group per pending edge, that builds the
//! edge's frame, searches its region (a float pass, then the suspects within
//! [`AwvdDevice::bound`] of the float minimum re-checked in double, or double throughout), proves
//! the winner's arc inside the searched region (widening it once when not), and checks the
//! winner's sphere tangent and empty in double, then makes the end vertex as the host's
//! `make_vertex` does (sorted quadruple, the exact tangent sphere nearest the found one and its
//! index). The host gets the end ball and the end vertex per edge (the level's buffers stay on
//! the device from level to level); what the device could not prove (collinear gates, nothing
//! near, a far arc, a failed check) goes to the CPU backend's exact search.
//!
//! The kernel's geometry is the CPU backend's (`geom.rs`, `trace.rs`) in double without fused
//! multiply-adds, so the device and the CPU pick the same winners. It needs `cl_khr_fp64`.

use super::geom::Sphere;
use super::Vertex;
use super::trace::{search_edge, Ctx, Edge, EdgeSearch, Found, Stats};
use crate::device::{Backend, DeviceBuffer, ProgramSpec, Queue};
use crate::error::Result;
use opencl3::kernel::{ExecuteKernel, Kernel};
use rayon::prelude::*;

/// Lanes of the work-group of one edge (on an H100, 6CVM in double, the whole diagram: 8 lanes
/// 0.90 s, 16 0.65, 32 0.48, 64 0.45, 128 0.41; capping registers with -cl-nv-maxrregcount at
/// 64 or 128 was slower).
const GROUP: usize = 128;
/// Arc bounds wider than this many cells go to the host (trace.rs searches them over clusters).
const FAR_CELLS: f64 = 3.0;

/// What stays on the device for one diagram.
struct Resident {
    balls: DeviceBuffer<f64>,
    fballs: Option<DeviceBuffer<f32>>,
    start: DeviceBuffer<u32>,
    items: DeviceBuffer<u32>,
    cl_sphere: DeviceBuffer<f64>,
    cl_start: DeviceBuffer<u32>,
    cl_items: DeviceBuffer<u32>,
}

/// The device search with its float-pass suspect bound (parameter units: Å along a hyperbolic
/// edge, radians on an elliptic one; default 1e-3).
pub struct AwvdDevice {
    queue: Queue,
    kernel: Kernel,
    loose: Kernel,
    double: bool,
    pub bound: f64,
    resident: Option<Resident>,
    level: Option<LevelBuffers>,
}

/// A level's edges in and end vertices out, kept from level to level (reallocated larger when a
/// level outgrows them).
struct LevelBuffers {
    cap: usize,
    edges: DeviceBuffer<u32>,
    starts: DeviceBuffer<f64>,
    /// Per edge: the end ball (as i32; -1 for the host's search, -2 unbounded), the end vertex's
    /// sorted quadruple, `which`, the double re-checks and the float winners replaced.
    outu: DeviceBuffer<u32>,
    /// Per edge: the end vertex's sphere.
    outs: DeviceBuffer<f64>,
}

impl AwvdDevice {
    pub fn new(backend: Backend, double: bool, bound: f64) -> Result<AwvdDevice> {
        let ctx = backend.context("awvd")?;
        ctx.require_fp64()?;
        let queue = ctx.queue_unprofiled()?;
        let spec = ProgramSpec::files(&["awvd.cl"])
            .define("AWVD_DOUBLE", u32::from(double))
            .define("AWVD_BOUND", format!("{bound:e}"))
            .define("AWVD_FAR_CELLS", format!("{FAR_CELLS:.1}"));
        let program = ctx.build(&spec)?;
        let kernel = queue.kernel(&program, "awvd_level")?;
        let loose = queue.kernel(&program, "awvd_loose")?;
        Ok(AwvdDevice { queue, kernel, loose, double, bound, resident: None, level: None })
    }
}

impl EdgeSearch for AwvdDevice {
    fn prepare(&mut self, ctx: &Ctx) -> Result<()> {
        let q = &self.queue;
        let flat: Vec<f64> = ctx.balls.iter().flat_map(|b| [b.c[0], b.c[1], b.c[2], b.r]).collect();
        let fballs = if self.double { None } else { Some(q.buffer_from(&flat.iter().map(|&x| x as f32).collect::<Vec<f32>>(), "balls (float)")?) };
        self.resident = Some(Resident {
            balls: q.buffer_from(&flat, "balls")?,
            fballs,
            start: q.buffer_from(&ctx.grid.start, "cell starts")?,
            items: q.buffer_from(&ctx.grid.items, "cell items")?,
            cl_sphere: q.buffer_from(&ctx.grid.cl_sphere.iter().flat_map(|(c, r)| [c[0], c[1], c[2], *r]).collect::<Vec<f64>>(), "cluster spheres")?,
            cl_start: q.buffer_from(&ctx.grid.cl_start, "cluster starts")?,
            cl_items: q.buffer_from(&ctx.grid.cl_items, "cluster items")?,
        });
        Ok(())
    }

    fn loose(&mut self, ctx: &Ctx) -> Result<Option<Vec<(u32, u32)>>> {
        if self.resident.is_none() {
            self.prepare(ctx)?;
        }
        let r = self.resident.as_ref().expect("prepared above");
        let q = &self.queue;
        let g = &ctx.grid;
        let n = ctx.balls.len();
        let dims = g.dims.map(|d| d as u32);
        let nballs = n as u32;
        let mut cap = n.max(1024);
        loop {
            let b_count: DeviceBuffer<u32> = q.buffer_from(&[0u32], "loose count")?;
            let b_out: DeviceBuffer<u32> = q.buffer(4 * cap, "loose triples")?;
            let b_host: DeviceBuffer<u32> = q.buffer_from(&vec![0u32; n], "loose host flags")?;
            let capu = cap as u32;
            let mut e = ExecuteKernel::new(&self.loose);
            // SAFETY: the arguments follow awvd_loose's declaration in type and order; the
            // buffers live until the blocking reads below.
            unsafe {
                e.set_arg(r.balls.cl()).set_arg(&nballs).set_arg(r.start.cl()).set_arg(r.items.cl());
                e.set_arg(&g.lo[0]).set_arg(&g.lo[1]).set_arg(&g.lo[2]).set_arg(&g.cell);
                e.set_arg(&dims[0]).set_arg(&dims[1]).set_arg(&dims[2]).set_arg(&g.rmax);
                e.set_arg(b_count.cl()).set_arg(b_out.cl()).set_arg(&capu).set_arg(b_host.cl());
            }
            let wg = 64;
            crate::device::launch(q, &mut e, &[n.div_ceil(wg) * wg], Some(&[wg]), "awvd_loose")?;
            let count = b_count.to_vec(q)?[0] as usize;
            if count > cap {
                cap = count;
                continue;
            }
            let out = b_out.to_vec(q)?;
            let host = b_host.to_vec(q)?;
            let mut pairs: Vec<(u32, u32)> = out[..4 * count].chunks_exact(4).flat_map(|t| [(t[0], t[1]), (t[0], t[2]), (t[1], t[2])]).collect();
            let flagged: Vec<usize> = (0..n).filter(|&i| host[i] != 0).collect();
            pairs.extend(flagged.par_iter().flat_map_iter(|&i| super::trace::loose_of(ctx, i)).collect::<Vec<_>>());
            return Ok(Some(pairs));
        }
    }

    fn search(&mut self, ctx: &Ctx, edges: &[Edge], stats: &mut Stats) -> Result<Vec<Found>> {
        if edges.is_empty() {
            return Ok(Vec::new());
        }
        if self.resident.is_none() {
            self.prepare(ctx)?;
        }
        let n = edges.len();
        let q = &self.queue;
        if self.level.as_ref().is_none_or(|l| l.cap < n) {
            // room for the level, with some to spare so that growing levels rarely reallocate
            let cap = n + n / 2;
            self.level = Some(LevelBuffers {
                cap,
                edges: q.buffer(4 * cap, "edges")?,
                starts: q.buffer(4 * cap, "start spheres")?,
                outu: q.buffer(8 * cap, "end vertices")?,
                outs: q.buffer(4 * cap, "end spheres")?,
            });
        }
        let r = self.resident.as_ref().expect("prepared above");
        let lb = self.level.as_mut().expect("allocated above");
        let g = &ctx.grid;
        let ed: Vec<u32> = edges.iter().flat_map(|e| [e.g[0], e.g[1], e.g[2], e.s]).collect();
        let st: Vec<f64> = edges.iter().flat_map(|e| [e.start.c[0], e.start.c[1], e.start.c[2], e.start.r]).collect();
        lb.edges.write(q, &ed)?;
        lb.starts.write(q, &st)?;
        let dims = g.dims.map(|d| d as u32);
        let ncl = g.cl_sphere.len() as u32;
        let mut e = ExecuteKernel::new(&self.kernel);
        // SAFETY: the arguments follow awvd_level's declaration in type and order (the float
        // balls only without AWVD_DOUBLE); the buffers live until the blocking reads below.
        unsafe {
            e.set_arg(r.balls.cl());
            if let Some(f) = &r.fballs {
                e.set_arg(f.cl());
            }
            e.set_arg(r.start.cl()).set_arg(r.items.cl());
            e.set_arg(&g.lo[0]).set_arg(&g.lo[1]).set_arg(&g.lo[2]).set_arg(&g.cell);
            e.set_arg(&dims[0]).set_arg(&dims[1]).set_arg(&dims[2]).set_arg(&g.rmax);
            e.set_arg(r.cl_sphere.cl()).set_arg(r.cl_start.cl()).set_arg(r.cl_items.cl()).set_arg(&ncl);
            e.set_arg(lb.edges.cl()).set_arg(lb.starts.cl());
            e.set_arg(lb.outu.cl()).set_arg(lb.outs.cl());
            e.set_arg_local_buffer(GROUP * 8).set_arg_local_buffer(GROUP * 4).set_arg_local_buffer(GROUP * 8).set_arg_local_buffer(GROUP * 8);
        }
        crate::device::launch(q, &mut e, &[n * GROUP], Some(&[GROUP]), "awvd_level")?;
        let mut outu = vec![0u32; 8 * n];
        let mut outs = vec![0f64; 4 * n];
        lb.outu.read(q, &mut outu)?;
        lb.outs.read(q, &mut outs)?;
        for o in outu.chunks_exact(8) {
            stats.double_rechecks += u64::from(o[6]);
            stats.float_replaced += u64::from(o[7]);
            stats.host_searches += u64::from(o[0] as i32 == -1);
        }
        Ok(edges
            .par_iter()
            .enumerate()
            .map(|(i, e)| {
                let o = &outu[8 * i..8 * i + 8];
                match o[0] as i32 {
                    -2 => Found::Unbounded,
                    -1 => match search_edge(ctx, e, None) {
                        Some((j, h)) => Found::Point(j, h),
                        None => Found::Unbounded,
                    },
                    j => {
                        let s = &outs[4 * i..4 * i + 4];
                        let v = Vertex { q: [o[1], o[2], o[3], o[4]], which: o[5] as u8, s: Sphere { c: [s[0], s[1], s[2]], r: s[3] } };
                        Found::Vertex(j as u32, v)
                    }
                }
            })
            .collect())
    }
}

/// The diagram of `balls` with the end-vertex searches on a device (float pass unless `double`).
pub fn awvd_device(balls: &[super::Ball], opts: &super::AwvdOptions, backend: Backend, double: bool) -> Result<super::AwvdResult> {
    let mut dev = AwvdDevice::new(backend, double, opts.suspect_bound)?;
    super::trace::trace(balls, opts, &mut dev)
}
