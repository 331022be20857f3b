//! The device end-vertex search (`cl/awvd.cl`): one launch per tracing level, one work-group per
//! edge over the balls of the grid cells around the edge's start; a float (or double) pass, the
//! suspects within `AwvdDevice::bound` of the float minimum re-checked in double on the host,
//! the winner's arc proven inside the scanned region and its sphere checked empty in double;
//! anything not proven goes to the CPU search, which widens the region.

use super::geom::{norm, sub};
use super::trace::{candidate, edge_frame, is_empty, search_edge, Ctx, Edge, EdgeSearch, Stats};
use super::geom::CurvePoint;
use crate::device::{Backend, DeviceBuffer, ProgramSpec, Queue};
use crate::error::Result;
use opencl3::kernel::{ExecuteKernel, Kernel};
use rayon::prelude::*;

const FRAME: usize = 28;
const SUS_CAP: usize = 32;
const GROUP: usize = 64;

/// The device search with its float-pass suspect bound (parameter units: Å along a hyperbolic
/// edge, radians on an elliptic one; default 1e-3).
pub struct AwvdDevice {
    queue: Queue,
    kernel: Kernel,
    double: bool,
    pub bound: f64,
}

impl AwvdDevice {
    pub fn new(backend: Backend, double: bool, bound: f64) -> Result<AwvdDevice> {
        let ctx = backend.context("awvd")?;
        if double {
            ctx.require_fp64()?;
        }
        let queue = ctx.queue_unprofiled()?;
        let spec = ProgramSpec::files(&["awvd.cl"])
            .define("AWVD_DOUBLE", u32::from(double))
            .define("AWVD_BOUND", format!("{bound:e}"))
            .define("AWVD_AHEAD_EPS", format!("{:e}", if double { super::trace::AHEAD_EPS } else { 1e-6 }))
            .define_u("AWVD_SUS_CAP", SUS_CAP);
        let program = ctx.build(&spec)?;
        let kernel = queue.kernel(&program, "awvd_search")?;
        Ok(AwvdDevice { queue, kernel, double, bound })
    }

    fn run<T: crate::device::ClScalar + Copy + From<f32>>(&self, ctx: &Ctx, edges: &[Edge], frames: &[f64], conv: fn(f64) -> T) -> Result<(Vec<i32>, Vec<u32>, Vec<u32>)> {
        let q = &self.queue;
        let g = &ctx.grid;
        let balls: Vec<T> = ctx.balls.iter().flat_map(|b| [conv(b.c[0]), conv(b.c[1]), conv(b.c[2]), conv(b.r)]).collect();
        let fr: Vec<T> = frames.iter().map(|&x| conv(x)).collect();
        let ed: Vec<u32> = edges.iter().flat_map(|e| [e.g[0], e.g[1], e.g[2], e.s]).collect();
        let b_balls: DeviceBuffer<T> = q.buffer_from(&balls, "balls")?;
        let b_start: DeviceBuffer<u32> = q.buffer_from(&g.start, "cell starts")?;
        let b_items: DeviceBuffer<u32> = q.buffer_from(&g.items, "cell items")?;
        let b_edges: DeviceBuffer<u32> = q.buffer_from(&ed, "edges")?;
        let b_frames: DeviceBuffer<T> = q.buffer_from(&fr, "frames")?;
        let b_win: DeviceBuffer<i32> = q.buffer(edges.len(), "winners")?;
        let b_nsus: DeviceBuffer<u32> = q.buffer(edges.len(), "suspect counts")?;
        let b_sus: DeviceBuffer<u32> = q.buffer(edges.len() * SUS_CAP, "suspects")?;
        let (lox, loy, loz, cell, rmax) = (conv(g.lo[0]), conv(g.lo[1]), conv(g.lo[2]), conv(g.cell), conv(g.rmax));
        let dims = g.dims.map(|d| d as u32);
        let mut e = ExecuteKernel::new(&self.kernel);
        let fsz = std::mem::size_of::<T>();
        // SAFETY: the arguments follow awvd_search's declaration in type and order; the buffers
        // live until the blocking reads below.
        unsafe {
            e.set_arg(b_balls.cl()).set_arg(b_start.cl()).set_arg(b_items.cl());
            e.set_arg(&lox).set_arg(&loy).set_arg(&loz).set_arg(&cell);
            e.set_arg(&dims[0]).set_arg(&dims[1]).set_arg(&dims[2]).set_arg(&rmax);
            e.set_arg(b_edges.cl()).set_arg(b_frames.cl()).set_arg(b_win.cl()).set_arg(b_nsus.cl()).set_arg(b_sus.cl());
            e.set_arg_local_buffer(GROUP * fsz).set_arg_local_buffer(GROUP * 4);
        }
        crate::device::launch(q, &mut e, &[edges.len() * GROUP], Some(&[GROUP]), "awvd_search")?;
        Ok((b_win.to_vec(q)?, b_nsus.to_vec(q)?, b_sus.to_vec(q)?))
    }
}

impl EdgeSearch for AwvdDevice {
    fn search(&self, ctx: &Ctx, edges: &[Edge], stats: &mut Stats) -> Result<Vec<Option<(u32, CurvePoint)>>> {
        let g = &ctx.grid;
        let mut frames = vec![0.0f64; edges.len() * FRAME];
        let mut ok = vec![true; edges.len()];
        for (i, e) in edges.iter().enumerate() {
            let f = &mut frames[i * FRAME..(i + 1) * FRAME];
            match edge_frame(ctx, e) {
                None => ok[i] = false,
                Some((t, _sp, from, dir)) => {
                    let (ell, rc, rr, tt) = match t.ellipse {
                        Some((a, b, c)) => (1.0, a, b, c),
                        None => (0.0, 0.0, 1.0, 1.0),
                    };
                    let rad = e.start.r.max(0.0) + 2.0 * g.rmax + g.cell;
                    let vals = [t.ca[0], t.ca[1], t.ca[2], t.ra, t.p0[0], t.p0[1], t.p0[2], t.p1[0], t.p1[1], t.p1[2], t.n[0], t.n[1], t.n[2], t.alpha, t.beta, t.gamma, ell, rc, rr, tt, from, dir, e.start.c[0], e.start.c[1], e.start.c[2], rad, 0.0, 0.0];
                    f.copy_from_slice(&vals);
                }
            }
        }
        let (win, nsus, sus) = if self.double { self.run::<f64>(ctx, edges, &frames, |x| x)? } else { self.run::<f32>(ctx, edges, &frames, |x| x as f32)? };
        type Checked = (Option<(u32, CurvePoint)>, u64, u64);
        let out: Vec<Checked> = edges
            .par_iter()
            .enumerate()
            .map(|(i, e)| {
                let n = nsus[i] as usize;
                if !ok[i] || win[i] < 0 || n > SUS_CAP {
                    return (search_edge(ctx, e, None), 0, 0);
                }
                let (tri, sp, from, dir) = edge_frame(ctx, e).unwrap();
                let mut best: Option<(f64, u32, CurvePoint)> = None;
                for &j in &sus[i * SUS_CAP..i * SUS_CAP + n] {
                    if let Some((a, h)) = candidate(&tri, e, from, dir, j, &ctx.balls[j as usize]) {
                        if best.is_none_or(|b| a < b.0 || (a == b.0 && j < b.1)) {
                            best = Some((a, j, h));
                        }
                    }
                }
                let replaced = u64::from(best.is_some_and(|b| b.1 as i32 != win[i]));
                let Some((_, j, h)) = best else { return (search_edge(ctx, e, None), n as u64, 0) };
                let region = super::Sphere { c: e.start.c, r: frames[i * FRAME + 25] };
                let need = tri.arc_bound(sp, h);
                let s = tri.point(h);
                let mut q = [e.g[0], e.g[1], e.g[2], j];
                q.sort_unstable();
                if norm(sub(need.c, region.c)) + need.r <= region.r && is_empty(ctx, &s, &q, 1e-7) {
                    (Some((j, h)), n as u64, replaced)
                } else {
                    (search_edge(ctx, e, None), n as u64, replaced)
                }
            })
            .collect();
        let mut res = Vec::with_capacity(out.len());
        for (r, d, rep) in out {
            stats.double_rechecks += d;
            stats.float_replaced += rep;
            res.push(r);
        }
        Ok(res)
    }
}

/// The diagram of `balls` with the end-vertex searches on a device (float pass unless `double`).
pub fn awvd_device(balls: &[super::Ball], opts: &super::AwvdOptions, backend: Backend, double: bool) -> Result<super::AwvdResult> {
    let dev = AwvdDevice::new(backend, double, opts.suspect_bound)?;
    super::trace::trace(balls, opts, &dev)
}
