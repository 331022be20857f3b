//! The device engine: `qiga_run` (`cl/qiga.cl`), one work-group per population, a launch runs
//! whole runs of a range of populations. The item data, the thresholds and the tables go up once;
//! a launch reads back each population's best value, string and generations.

use super::{Chunk, Engine, PopSnap, Setup};
use crate::device::{
    cl_error, note_failure, work_group_size, Backend, DeviceBuffer, DeviceContext, ProgramSpec,
    Queue,
};
use crate::error::{Error, Result};
use opencl3::kernel::{ExecuteKernel, Kernel};
use std::sync::Arc;

/// A built `cl/qiga.cl` program for one setup and one device.
struct Program {
    queue: Queue,
    run: Kernel,
    repair: Kernel,
    wg: usize,
    local_bits: bool,
}

fn build(setup: &Setup, ctx: &Arc<DeviceContext>, group_size: Option<usize>) -> Result<Program> {
    let (m, n) = (setup.items.weights.len(), setup.individuals);
    let queue = ctx.queue_unprofiled()?;
    let max = ctx.info.max_work_group_size.max(1);
    if n > max {
        return Err(Error::arg("individuals", format!("{n}; the device's groups hold at most {max} work-items (one per individual at least)")));
    }
    let cap = group_size.unwrap_or(ctx.tuning().qiga).clamp(1, max);
    // the smallest power of two covering the items (and the individuals), within the cap
    let mut want = 1;
    while want < m.max(n) {
        want *= 2;
    }
    let mut wg = want.min(cap).max(n).min(max);
    loop {
        let lpi = wg / n;
        let local_need = (2 * wg * 8 + n * 8 + 8 + 16 + (n + 1) * m + 256) as u64;
        let local_bits = local_need <= ctx.info.local_mem_bytes;
        let spec = ProgramSpec::files(&["common.cl", "qiga.cl"])
            .define_u("QG_M", m)
            .define_u("QG_POP", n)
            .define_u("QG_WG", wg)
            .define_u("QG_GPI", m.div_ceil(wg))
            .define_u("QG_LPI", lpi)
            .define_u("QG_CHUNK", m.div_ceil(lpi))
            .define("QG_REPAIR", setup.repair.code())
            .define("QG_LOCAL_BITS", local_bits as u32);
        let program = ctx.build(&spec)?;
        let run = queue.kernel(&program, "qiga_run")?;
        let repair = queue.kernel(&program, "qiga_repair_strings")?;
        let fits = |k: &Kernel| {
            let lim = k.get_work_group_size(ctx.info.cl_id()).unwrap_or(1);
            lim >= wg
        };
        if (fits(&run) && fits(&repair)) || wg <= n {
            if !fits(&run) || !fits(&repair) {
                return Err(Error::arg(
                    "individuals",
                    format!(
                        "{n}; the kernel holds at most {} work-items per group on this device",
                        work_group_size(ctx, &run, max)
                    ),
                ));
            }
            return Ok(Program {
                queue,
                run,
                repair,
                wg,
                local_bits,
            });
        }
        wg = (wg / 2).max(n);
    }
}

pub struct DeviceEngine {
    setup: Arc<Setup>,
    prog: Program,
    w: DeviceBuffer<u64>,
    p: DeviceBuffer<u64>,
    thr: DeviceBuffer<u64>,
    tables: DeviceBuffer<i32>,
    order: DeviceBuffer<u16>,
    capacity: usize,
    best_value: DeviceBuffer<u64>,
    best_bits: DeviceBuffer<u8>,
    best_gen: DeviceBuffer<u32>,
    gens_run: DeviceBuffer<u32>,
    scratch: DeviceBuffer<u8>,
    /// Every begun population's angles between launches (`QG_POP * QG_GPI * QG_WG` a group).
    angles: DeviceBuffer<i16>,
    /// The begun populations (first, count) and the last generation run.
    begun: (usize, usize),
    last_g: u32,
    /// The begun populations start warm (their angles and best written by `resume` at 0).
    warm: bool,
}

/// `QG_RUNNING` of `cl/qiga.cl`: the generations run of a population not finished yet.
const RUNNING: u32 = u32::MAX;

/// The most bytes of angles kept between launches.
const ANGLE_BYTES: usize = 256 << 20;

/// The read-only data of a setup on the device.
struct Data {
    w: DeviceBuffer<u64>,
    p: DeviceBuffer<u64>,
    thr: DeviceBuffer<u64>,
    tables: DeviceBuffer<i32>,
    order: DeviceBuffer<u16>,
}

fn upload(q: &Queue, setup: &Setup) -> Result<Data> {
    let tables: Vec<i32> = setup.tables.iter().flatten().copied().collect();
    Ok(Data {
        w: q.buffer_from(&setup.items.weights, "weights")?,
        p: q.buffer_from(&setup.items.profits, "profits")?,
        thr: q.buffer_from(&setup.thresholds, "thresholds")?,
        tables: q.buffer_from(&tables, "tables")?,
        order: q.buffer_from(&setup.order, "order")?,
    })
}

impl DeviceEngine {
    pub(crate) fn new(
        setup: Arc<Setup>,
        backend: Backend,
        group_size: Option<usize>,
    ) -> Result<Self> {
        let ctx = backend.context("QIGA")?;
        let prog = build(&setup, &ctx, group_size)?;
        let m = setup.items.weights.len();
        let n = setup.individuals;
        let q = &prog.queue;
        let Data {
            w,
            p,
            thr,
            tables,
            order,
        } = upload(q, &setup)?;
        let groups = (ctx.info.compute_units.max(1) as usize) * (2048 / prog.wg).clamp(1, 16) * 4;
        // a group's angles: QG_POP * QG_GPI * QG_WG shorts
        let per_group = n * m.div_ceil(prog.wg) * prog.wg;
        let capacity = groups
            .min(1 << 16)
            .min((ANGLE_BYTES / (2 * per_group.max(1))).max(1));
        let scratch_len = if prog.local_bits {
            1
        } else {
            crate::error::size_product("populations", &[capacity, n + 1, m])?
        };
        Ok(DeviceEngine {
            best_value: q.buffer(capacity, "best values")?,
            best_bits: q.buffer(
                crate::error::size_product("populations", &[capacity, m])?,
                "best strings",
            )?,
            best_gen: q.buffer(capacity, "best generations")?,
            gens_run: q.buffer(capacity, "generations")?,
            scratch: q.buffer(scratch_len, "QIGA scratch")?,
            angles: q.buffer(
                crate::error::size_product("populations", &[capacity, per_group])?,
                "QIGA angles",
            )?,
            begun: (0, 0),
            last_g: 0,
            warm: false,
            setup,
            prog,
            w,
            p,
            thr,
            tables,
            order,
            capacity,
        })
    }

    /// Work-items per population, and whether the population's bits are in local memory.
    pub fn layout(&self) -> (usize, bool) {
        (self.prog.wg, self.prog.local_bits)
    }

    /// Generations g0..g1 of the begun populations, in one launch.
    fn launch(&mut self, g0: u32, g1: u32) -> Result<()> {
        let s = &*self.setup;
        let q = &self.prog.queue;
        let (offset, count) = self.begun;
        let (cap, ntables, ppt) = (
            s.items.capacity,
            s.tables.len() as u32,
            s.pops_per_table.min(u32::MAX as usize) as u32,
        );
        let (seed, off, gens) = (s.seed, offset as u32, s.generations);
        let (has_target, target) = (s.target.is_some() as u32, s.target.unwrap_or(0));
        let mut e = ExecuteKernel::new(&self.prog.run);
        // SAFETY: the arguments of `qiga_run` in type and order; the buffers are fields of the
        // engine (sized for `capacity` >= count populations) and the queue is finished by the
        // read that follows every launch.
        unsafe {
            e.set_arg(self.w.cl())
                .set_arg(self.p.cl())
                .set_arg(&cap)
                .set_arg(self.thr.cl());
            e.set_arg(self.tables.cl())
                .set_arg(&ntables)
                .set_arg(&ppt)
                .set_arg(self.order.cl());
            e.set_arg(&seed)
                .set_arg(&off)
                .set_arg(&gens)
                .set_arg(&has_target)
                .set_arg(&target);
            e.set_arg(self.best_value.cl())
                .set_arg(self.best_bits.cl())
                .set_arg(self.best_gen.cl());
            e.set_arg(self.gens_run.cl()).set_arg(self.scratch.cl());
            let warm = (self.warm && g0 == 0) as u32;
            e.set_arg(&g0)
                .set_arg(&g1)
                .set_arg(self.angles.cl())
                .set_arg(&warm);
            e.set_global_work_sizes(&[count * self.prog.wg])
                .set_local_work_sizes(&[self.prog.wg]);
            e.enqueue_nd_range(q.cl()).map_err(|err| {
                let err = cl_error("clEnqueueNDRangeKernel(qiga_run)")(err);
                note_failure(q, &err);
                err
            })?;
        }
        Ok(())
    }
}

impl Engine for DeviceEngine {
    fn begin(&mut self, offset: usize, count: usize) -> Result<()> {
        if count > self.capacity {
            return Err(Error::arg(
                "launch_populations",
                format!(
                    "{count} populations at once; this device keeps at most {}",
                    self.capacity
                ),
            ));
        }
        self.begun = (offset, count);
        self.last_g = 0;
        self.warm = false;
        Ok(())
    }

    fn snapshot(&mut self) -> Result<Vec<PopSnap>> {
        let q = &self.prog.queue;
        let count = self.begun.1;
        let (m, n) = (self.setup.items.weights.len(), self.setup.individuals);
        let row = m.div_ceil(self.prog.wg) * self.prog.wg;
        let mut v = vec![0u64; count];
        let mut bits = vec![0u8; count * m];
        let mut bg = vec![0u32; count];
        let mut gr = vec![0u32; count];
        let mut qa = vec![0i16; count * n * row];
        self.best_value.read(q, &mut v)?;
        self.best_bits.read(q, &mut bits)?;
        self.best_gen.read(q, &mut bg)?;
        self.gens_run.read(q, &mut gr)?;
        self.angles.read(q, &mut qa)?;
        Ok((0..count)
            .map(|k| {
                let finished = (gr[k] != RUNNING).then_some(gr[k]);
                let angles = if finished.is_some() {
                    Vec::new()
                } else {
                    let a = &qa[k * n * row..(k + 1) * n * row];
                    (0..n)
                        .flat_map(|i| a[i * row..i * row + m].iter().copied())
                        .collect()
                };
                PopSnap {
                    angles,
                    best_bits: bits[k * m..(k + 1) * m].to_vec(),
                    best_value: v[k],
                    best_generation: bg[k],
                    finished,
                }
            })
            .collect())
    }

    fn resume(&mut self, offset: usize, next: u32, pops: &[PopSnap]) -> Result<()> {
        let count = pops.len();
        self.begin(offset, count)?;
        let q = &self.prog.queue;
        let (m, n) = (self.setup.items.weights.len(), self.setup.individuals);
        let row = m.div_ceil(self.prog.wg) * self.prog.wg;
        let mut qa = vec![50i16; count * n * row];
        let mut bits = Vec::with_capacity(count * m);
        for (k, p) in pops.iter().enumerate() {
            if !p.angles.is_empty() {
                for i in 0..n {
                    let at = (k * n + i) * row;
                    qa[at..at + m].copy_from_slice(&p.angles[i * m..(i + 1) * m]);
                }
            }
            bits.extend_from_slice(&p.best_bits);
        }
        let v: Vec<u64> = pops.iter().map(|p| p.best_value).collect();
        let bg: Vec<u32> = pops.iter().map(|p| p.best_generation).collect();
        let gr: Vec<u32> = pops.iter().map(|p| p.finished.unwrap_or(RUNNING)).collect();
        self.angles.write(q, &qa)?;
        self.best_bits.write(q, &bits)?;
        self.best_value.write(q, &v)?;
        self.best_gen.write(q, &bg)?;
        self.gens_run.write(q, &gr)?;
        self.last_g = next.saturating_sub(1);
        self.warm = next == 0;
        Ok(())
    }

    fn advance(&mut self, g0: u32, g1: u32) -> Result<bool> {
        self.launch(g0, g1)?;
        self.last_g = g1.saturating_sub(1);
        let gr = self.gens_run.to_vec(&self.prog.queue)?;
        Ok(gr[..self.begun.1].iter().all(|&g| g != RUNNING))
    }

    fn take(&mut self) -> Result<Chunk> {
        let q = &self.prog.queue;
        let count = self.begun.1;
        let m = self.setup.items.weights.len();
        let mut out = Chunk::with_capacity(count, m);
        let v = self.best_value.to_vec(q)?;
        let bits = self.best_bits.to_vec(q)?;
        let bg = self.best_gen.to_vec(q)?;
        let gr = self.gens_run.to_vec(q)?;
        out.best_value.extend_from_slice(&v[..count]);
        out.best_bits.extend_from_slice(&bits[..count * m]);
        out.best_generation.extend_from_slice(&bg[..count]);
        let last = self.last_g;
        out.generations_run.extend(
            gr[..count]
                .iter()
                .map(|&g| if g == RUNNING { last } else { g }),
        );
        self.begun = (0, 0);
        Ok(out)
    }

    fn describe(&self) -> String {
        let i = &self.prog.queue.ctx().info;
        format!(
            "{}; {} work-items per population, bits in {} memory",
            i.describe(),
            self.prog.wg,
            if self.prog.local_bits {
                "local"
            } else {
                "global"
            }
        )
    }

    fn preferred_chunk(&self) -> usize {
        self.capacity
    }

    fn max_chunk(&self) -> usize {
        self.capacity
    }

    fn peek(&mut self) -> Result<Option<(u64, u64)>> {
        let q = &self.prog.queue;
        let count = self.begun.1;
        let mut v = vec![0u64; count];
        let mut gr = vec![0u32; count];
        self.best_value.read(q, &mut v)?;
        self.gens_run.read(q, &mut gr)?;
        let last = self.last_g;
        let run = gr
            .iter()
            .map(|&g| u64::from(if g == RUNNING { last } else { g }))
            .sum();
        Ok(Some((v.iter().copied().max().unwrap_or(0), run)))
    }
}

/// The device side of [`super::repair_strings`].
pub(crate) fn repair_strings(
    setup: &Setup,
    backend: Backend,
    group_size: Option<usize>,
    pop_offset: u32,
    g: u32,
    bits: &mut [u8],
) -> Result<Vec<u64>> {
    let ctx = backend.context("QIGA")?;
    let prog = build(setup, &ctx, group_size)?;
    let q = &prog.queue;
    let (m, n) = (setup.items.weights.len(), setup.individuals);
    let groups = bits.len() / (m * n);
    if groups == 0 {
        return Ok(Vec::new());
    }
    let Data { w, p, order, .. } = upload(q, setup)?;
    let mut buf: DeviceBuffer<u8> = q.buffer_from(bits, "bits")?;
    let values: DeviceBuffer<u64> = q.buffer(groups * n, "values")?;
    let scratch: DeviceBuffer<u8> = q.buffer(
        if prog.local_bits {
            1
        } else {
            groups * (n + 1) * m
        },
        "scratch",
    )?;
    let (cap, seed) = (setup.items.capacity, setup.seed);
    let mut e = ExecuteKernel::new(&prog.repair);
    // SAFETY: the arguments of `qiga_repair_strings` in type and order; the buffers live until the
    // reads below finish the queue.
    unsafe {
        e.set_arg(w.cl())
            .set_arg(p.cl())
            .set_arg(&cap)
            .set_arg(order.cl())
            .set_arg(&seed);
        e.set_arg(&pop_offset)
            .set_arg(&g)
            .set_arg(buf.cl())
            .set_arg(values.cl())
            .set_arg(scratch.cl());
        e.set_global_work_sizes(&[groups * prog.wg])
            .set_local_work_sizes(&[prog.wg]);
        e.enqueue_nd_range(q.cl())
            .map_err(cl_error("clEnqueueNDRangeKernel(qiga_repair_strings)"))?;
    }
    buf.read(q, bits)?;
    let _ = &mut buf;
    values.to_vec(q)
}
