//! Island DE on an OpenCL device: the buffers in the layouts of `cl/de.cl` and the launches of
//! its kernels. A host callback objective reads Y back, is called with the trials row by row,
//! and its values go back for the selection kernel.

use super::adapt::{self, AdaptBackend, Adaptive, ArchiveMove, Plan, Values};
use super::config::Algorithm;
use super::config::{Config, Mutation, Selection};
use super::constraints::{self, Constraints};
use super::engine::{Engine, EngineState, Start};
use super::jde::{self, JdeState};
use super::ops::{cr_threshold, MigrationView, Move};
use super::pace::{in_pieces, Cut, Rate};
use crate::device::{
    covering_group, work_group_size, DeviceBuffer, DeviceContext, ProgramSpec, Queue,
};
use crate::error::{Error, Result};
use crate::objective::{fp_bytes, fp_values, HostCallback, Objective};
use opencl3::kernel::{ExecuteKernel, Kernel};

struct Kernels {
    init: Kernel,
    copy: Kernel,
    trial: Kernel,
    eval: Option<Kernel>,
    select: Kernel,
    best: Kernel,
    migrate: Kernel,
    import: Kernel,
    view: Kernel,
    export: Kernel,
    moments: Kernel,
    wg1: usize,
    /// The group of `de_init` (exact: it is not capped by the kernel's limit).
    init_wg: usize,
    /// The fused kernel `de_fused` (`cl/de_batch.cl`), when an island fits one work-group.
    fused: Option<Fused>,
    /// The adaptive variants' kernels (`ade_*` of `cl/de.cl`; no `ade_eval` with a callback).
    ade_trial: Kernel,
    ade_eval: Option<Kernel>,
    ade_archive: Kernel,
    ade_select: Kernel,
    /// The gradient-based repair of the trials (`de_repair`), with its scratch, when the run's
    /// constraints ask for it.
    repair: Option<(Kernel, DeviceBuffer<u8>)>,
}

/// The adaptive variants' state and buffers (`adapt.rs`): the archive and the plan of a
/// generation, uploaded before its trials.
struct AdeState {
    adapt: Adaptive,
    archive: DeviceBuffer<u8>,
    fm: DeviceBuffer<u8>,
    fw: DeviceBuffer<u8>,
    crt: DeviceBuffer<u64>,
    idx: DeviceBuffer<u32>,
    na: DeviceBuffer<u32>,
    moves: DeviceBuffer<u32>,
    /// Every value as the device holds it after the last adaptive generation (`Engine::fitness`'s
    /// layout), which the host knows from that generation's values and selection: the next
    /// generation's plan starts from it instead of reading Fx. Anything else that may change X
    /// or Fx forgets it (`DeviceDe::forget_fitness`).
    fx: Option<Vec<f64>>,
}

/// The fused kernel of the island DE and its launch shape.
struct Fused {
    kernel: Kernel,
    /// One work-group per island: the smallest power of two covering the members.
    wg: usize,
    /// Bytes of local memory for the two copies of X and for Fx of an island (one element when
    /// they stay global), and for its trials and their values (one element when global).
    lx: usize,
    lfx: usize,
    ly: usize,
    lfy: usize,
    /// Bytes of local memory of `ade_fused`'s sums.
    ls: usize,
    /// The fixed DE's wide generation (`de_wide`, `de_wide_best`), for islands larger than the
    /// group and fewer than the compute units (`DeOptions::wide`).
    wide: Option<Wide>,
}

/// The wide generation's kernels (`cl/de_batch.cl`): a launch of `trials` a generation over a
/// grid of (members, islands), and of `island` (one group of `island_wg` per island): the fixed
/// DE's `de_wide` and `de_wide_best`; JADE's, SHADE's, L-SHADE's and jSO's `ade_wide_trials` and
/// `ade_wide_adapt`, with `ade_wide_rank` before the first generation.
struct Wide {
    trials: Kernel,
    island: Kernel,
    rank: Option<Kernel>,
    island_wg: usize,
    /// The bytes of the adaptive kernels' scratch `ls` (their argument `lroom`): the sums' room,
    /// or an island's values and indices when they fit beside `rv` and `ri`, so that `ade_rank`
    /// sorts the values in local memory instead of reading them from global memory at each step.
    ls: usize,
}

/// Where the fused kernel keeps an island: its group, whether the population (two copies of X,
/// and Fx) fits local memory, and whether the trials fit there beside it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct FusedShape {
    wg: usize,
    local: bool,
    trials_fit: bool,
}

/// The fused kernel's shape for Nm members of Nn values (`fp` bytes each): the smallest power of
/// two covering the members, capped at `cap` (the work-items then loop over the members); `None`
/// when that power of two exceeds the device's group limit `max_wg` (or the reduction does not
/// fit local memory).
fn fused_shape(
    nm: usize,
    nn: usize,
    fp: usize,
    cap: usize,
    max_wg: usize,
    local_mem: u64,
    sums: usize,
) -> Option<FusedShape> {
    if nm.next_power_of_two() > max_wg {
        return None;
    }
    let wg = covering_group(nm, cap);
    // the best's reduction, and `sums` values a work-item more (`ade_gen`'s sums)
    let reduce = wg * (fp + 4 + sums * fp);
    if reduce as u64 > local_mem {
        return None;
    }
    let population = (2 * nm * nn + nm) * fp + reduce;
    let trials = (nm * nn + nm) * fp;
    Some(FusedShape {
        wg,
        local: population as u64 <= local_mem,
        trials_fit: (population + trials) as u64 <= local_mem,
    })
}

/// The buffers of the migrations, grown when too small: the moves (or import slots), the
/// migrants' rows and values, and the view (`de_view`) with its host copy. A write into one is
/// queued (`DeviceBuffer::write_queued`), so the in-order queue puts it after the kernel that
/// read it last; the host copy stays resident (a fresh vector each time costs page faults, which
/// NVIDIA's driver turns into a slow copy).
#[derive(Default)]
struct MigrationBuffers {
    moves: Option<DeviceBuffer<u32>>,
    rows: Option<DeviceBuffer<u8>>,
    values: Option<DeviceBuffer<u8>>,
    view: Option<DeviceBuffer<u8>>,
    host: Vec<u8>,
    /// The export (`de_export`) of the migrants leaving this device: their islands, best
    /// rows and values.
    out_idx: Option<DeviceBuffer<u32>>,
    out_rows: Option<DeviceBuffer<u8>>,
    out_values: Option<DeviceBuffer<u8>>,
}

/// `b`, reallocated first when it holds fewer than `len` elements.
fn fitted<'a, T: crate::device::ClScalar>(
    q: &Queue,
    b: &'a mut Option<DeviceBuffer<T>>,
    len: usize,
    what: &'static str,
) -> Result<&'a mut DeviceBuffer<T>> {
    if b.as_ref().is_none_or(|b| b.len() < len) {
        *b = Some(q.buffer(len, what)?);
    }
    Ok(b.as_mut().expect("made above"))
}

/// The kinds byte's flag of an integer dimension.
use crate::objective::INTEGRAL_KIND as INTEGRAL;

/// The device engine.
pub struct DeviceDe {
    cfg: Config,
    queue: Queue,
    tile: usize,
    x: DeviceBuffer<u8>,
    fx: DeviceBuffer<u8>,
    y: DeviceBuffer<u8>,
    fy: DeviceBuffer<u8>,
    lo: DeviceBuffer<u8>,
    hi: DeviceBuffer<u8>,
    kinds: DeviceBuffer<u8>,
    f: DeviceBuffer<u8>,
    crt: DeviceBuffer<u64>,
    /// The objective's data (`put_func_data`; none only where making its replacement failed).
    data: Option<DeviceBuffer<u8>>,
    kernels: Option<Kernels>,
    callback: Option<HostCallback>,
    mutation: Mutation,
    /// Measured rates of the phases cut in pieces (`pace.rs`): initial values, the copy of X
    /// to Y, trials, evaluation and selection.
    rates: [Rate; 4],
    ade: Option<AdeState>,
    /// The block this engine holds (`src/de/multi.rs`): its islands are the global islands
    /// `p0 ..` of `npg`, and its random numbers are theirs (0 and Np on one device).
    p0: u32,
    npg: u32,
    /// The migrations' buffers, kept from one to the next (no allocation and no wait for a
    /// kernel per migration).
    mig: MigrationBuffers,
    /// jDE100's buffers (`jde_fused`): F, CR and the trials' F and CR (4 Nm per island, FP),
    /// and the counters of every island (4 each).
    jde: Option<(DeviceBuffer<u8>, DeviceBuffer<u64>)>,
    /// JADE, SHADE, L-SHADE, jSO on the fused path (`ade_fused`).
    adef: Option<AdeFused>,
    /// The wide generation's second copies of X and Fx, and each island's best member.
    wide_x: Option<DeviceBuffer<u8>>,
    wide_fx: Option<DeviceBuffer<u8>>,
    wide_best: Option<DeviceBuffer<u32>>,
    /// Each island's moments (`de_moments`), two FPF values per island.
    moments: Option<DeviceBuffer<u8>>,
    /// The run's constraints (`constraints.rs`): Fx and Fy then hold the violations in their
    /// second halves, and Fx the comparison's level and the initial level after them.
    cons: Option<Cons>,
}

/// A constrained run's constraints and levels (`cl/de.cl`, Constraints).
struct Cons {
    c: Constraints,
    /// The initial level and the level of the comparisons now (both 0 under Deb's rules).
    e0: f64,
    level: f64,
}

/// Argument index of gen0 in `ADE_ARGS` (`cl/de_batch.cl`): what the wide kernels' launches change.
const ADE_GEN0: u32 = 16;

/// The buffers of `ade_fused` (`cl/de_batch.cl`, `ade_gen`): per island its memories, archive,
/// scratch and counters; and the active members and evaluations of every island, which the host
/// follows without reading them (they do not depend on the values).
struct AdeFused {
    shape: super::ade::Shape,
    am: DeviceBuffer<u8>,
    aa: DeviceBuffer<u8>,
    af: DeviceBuffer<u8>,
    au: DeviceBuffer<u32>,
    st: DeviceBuffer<u64>,
    na: Vec<u32>,
    nfe: Vec<u64>,
}

use crate::device::{cl_error, enqueue_prepared, launch};

/// A launch over `global` items from `offset` (a piece of a phase: `pace.rs`).
fn launch_at(
    q: &Queue,
    e: &mut ExecuteKernel,
    offset: Option<&[usize]>,
    global: &[usize],
    local: Option<&[usize]>,
    name: &'static str,
) -> Result<()> {
    if let Some(o) = offset {
        e.set_global_work_offsets(o);
    }
    // the callers set every argument of the kernel to buffers and scalars that outlive the
    // launch (they are fields of the engine, and the queue is finished before they change)
    launch(q, e, global, local, name)
}

/// The objective's data of `DeviceDe::data` (a field's borrow, beside other fields').
fn func_data(data: &Option<DeviceBuffer<u8>>) -> Result<&DeviceBuffer<u8>> {
    data.as_ref().ok_or_else(|| {
        Error::arg(
            "init",
            "the objective's data is not on the device; call init again",
        )
    })
}

fn round_up(n: usize, m: usize) -> usize {
    n.div_ceil(m) * m
}

impl DeviceDe {
    pub fn new(cfg: Config, device: Option<usize>) -> Result<Self> {
        let npg = cfg.np;
        Self::block(cfg, device, 0, npg)
    }

    /// The engine of a block of islands (`src/de/multi.rs`): `cfg` holds the block's Np, F and
    /// CR, which are the global islands `p0 .. p0 + Np` of `npg`; it draws what the one-device
    /// engine of `npg` islands draws for them.
    pub fn block(cfg: Config, device: Option<usize>, p0: u32, npg: u32) -> Result<Self> {
        let ctx = match device {
            Some(d) => DeviceContext::get(d)?,
            None => DeviceContext::current()?,
        };
        let double = cfg.options.double;
        if double || cfg.fitness_double() {
            ctx.require_fp64()?;
        }
        let tile = ctx.tuning().de_tile(ctx.info.max_work_group_size);
        let queue = ctx.queue_unprofiled()?;
        let fp = if double { 8 } else { 4 };
        let fpf = if cfg.fitness_double() { 8 } else { 4 };
        let (np, nm, nn) = (cfg.np as usize, cfg.nm as usize, cfg.nn as usize);
        let crt: Vec<u64> = cfg.cr.iter().map(|&c| cr_threshold(c)).collect();
        // the kernels' kinds byte: the bound correction, with DE_INTEGRAL for an integer
        let kinds: Vec<u8> = cfg
            .kinds
            .iter()
            .zip(&cfg.integral)
            .map(|(&k, &int)| k as u8 | if int { INTEGRAL } else { 0 })
            .collect();
        Ok(DeviceDe {
            x: queue.buffer(np * (nm + 1) * nn * fp, "X")?,
            fx: queue.buffer(np * (nm + 1) * fpf, "Fx")?,
            y: queue.buffer(np * nm * nn * fp, "Y")?,
            fy: queue.buffer(np * nm * fpf, "Fy")?,
            lo: queue.buffer_from(&fp_bytes(&cfg.lo, double), "limits")?,
            hi: queue.buffer_from(&fp_bytes(&cfg.hi, double), "limits")?,
            kinds: queue.buffer_from(&kinds, "bounds")?,
            f: queue.buffer_from(&fp_bytes(&cfg.f_and_dither(), double), "F")?,
            crt: queue.buffer_from(&crt, "CR")?,
            data: Some(queue.buffer_from(&[0u8; 8], "func-data")?),
            cfg,
            queue,
            tile,
            kernels: None,
            callback: None,
            mutation: Mutation::Rand1,
            rates: [Rate::default(); 4],
            ade: None,
            p0,
            npg,
            mig: MigrationBuffers::default(),
            jde: None,
            adef: None,
            wide_x: None,
            wide_fx: None,
            wide_best: None,
            moments: None,
            cons: None,
        })
    }

    /// Values in Fx and in Fy: Np (Nm + 1) and Np Nm, twice with constraints, and two more in
    /// Fx (the level, the initial level).
    fn fitness_lens(&self) -> (usize, usize) {
        let (np, nm) = (self.cfg.np as usize, self.cfg.nm as usize);
        match self.cons {
            Some(_) => (2 * np * (nm + 1) + 2, 2 * np * nm),
            None => (np * (nm + 1), np * nm),
        }
    }

    /// Fx and Fy sized for the constraints of the run `start` begins (`c`): made anew when
    /// their size changes.
    fn fit_fitness(&mut self, c: Option<&Constraints>) -> Result<()> {
        self.cons = c.map(|c| Cons {
            c: c.clone(),
            e0: 0.0,
            level: 0.0,
        });
        let fd = self.cfg.fitness_double();
        let (lx, ly) = self.fitness_lens();
        if self.fx.len() != lx * if fd { 8 } else { 4 } {
            // written whole as they are made (+inf): the Oclgrind check's uninitialised-value
            // plugin gives a buffer made unwritten the shadow of a released one of its number
            // (`put_func_data`), and these replace two
            let inf = |n: usize| fp_bytes(&vec![f64::INFINITY; n], fd);
            self.fx = self.queue.buffer_from(&inf(lx), "Fx")?;
            self.fy = self.queue.buffer_from(&inf(ly), "Fy")?;
        }
        Ok(())
    }

    /// Writes the comparisons' level for generation `gen` (epsilon-DE's falls each generation)
    /// where it changed.
    fn put_level(&mut self, gen: u64) -> Result<()> {
        let Some(cons) = self.cons.as_mut() else {
            return Ok(());
        };
        let level = cons.c.handling.level(cons.e0, gen);
        if level == cons.level {
            return Ok(());
        }
        cons.level = level;
        let tail = [level, cons.e0];
        let fd = self.cfg.fitness_double();
        let (lx, _) = self.fitness_lens();
        let at = (lx - 2) * if fd { 8 } else { 4 };
        self.fx.write_at(&self.queue, at, &fp_bytes(&tail, fd))
    }

    /// The violations of every member (in [`Engine::fitness`]'s layout), `None` without
    /// constraints.
    fn read_violations(&self) -> Result<Option<Vec<f64>>> {
        if self.cons.is_none() {
            return Ok(None);
        }
        let fd = self.cfg.fitness_double();
        let w = if fd { 8 } else { 4 };
        let n = self.cfg.np as usize * (self.cfg.nm as usize + 1);
        let mut out = vec![0u8; n * w];
        self.fx.read_at(&self.queue, n * w, &mut out)?;
        Ok(Some(fp_values(&out, fd)))
    }

    fn build(&mut self, objective: &Objective) -> Result<Kernels> {
        let double = self.cfg.options.double;
        let external = matches!(objective, Objective::Callback(_));
        let fdouble = self.cfg.fitness_double();
        let strict = (self.cfg.options.selection == Selection::Strict) as u8;
        let spec = ProgramSpec::files(&["common.cl"])
            .define("FP", if double { "double" } else { "float" })
            .define("FP_DOUBLE", double as u8)
            .define("FPF", if fdouble { "double" } else { "float" })
            .define("FPF_DOUBLE", fdouble as u8)
            .define("DE_TILE", self.tile)
            .define("DE_STRICT", strict);
        // constraints: the violations beside the values, and a compiled objective's counts
        let constrained = self.cons.is_some();
        let spec = match &self.cons {
            Some(c) => {
                let spec = spec.define("DE_CONSTRAINED", 1);
                if external {
                    spec
                } else {
                    let spec = spec
                        .define("MO_NC", c.c.count())
                        .define("MO_NG", c.c.inequalities)
                        .define("MO_EQ_TOL", format!("{:e}", c.c.eq_tol));
                    match c.c.repair {
                        Some(_) => spec.define("MO_REPAIR", 1),
                        None => spec,
                    }
                }
            }
            None => spec,
        };
        // a host callback fills Fy itself: no objective is compiled
        let spec = if external {
            spec.define("DE_EXTERNAL_F", 1)
        } else {
            objective.add_to(spec, double)?
        };
        let ctx = self.queue.ctx().clone();
        let tuning = ctx.tuning();
        let fp = if double { 8 } else { 4 };
        let fpf = if fdouble { 8 } else { 4 };
        let (nm, nn) = (self.cfg.nm as usize, self.cfg.nn as usize);
        // the fused kernel: an objective compiled in (not a host callback) and an island that
        // fits one work-group (sized with the wider of the two precisions: an upper bound)
        let jde = self.cfg.options.algorithm == Algorithm::Jde100;
        let ade = self.cfg.options.algorithm.planned();
        // the wide generation (fixed DE only): asked for, the island stays in global memory
        let want_wide = self.cfg.options.wide;
        // (JADE, SHADE, L-SHADE and jSO: `ade_wide_*`)
        let wide_ok = !jde && want_wide != Some(false);
        let shape = if jde {
            // jDE100 runs only in the fused kernel; its work-items loop over an island of any
            // size (the paper's 1025 members exceed a group)
            if external {
                return Err(Error::arg(
                    "objective",
                    "a host callback; jde100 runs on a device only in the fused kernel, which needs a compiled objective (a catalogue function or OpenCL source); use the CPU backend for a callback",
                ));
            }
            if !self.cfg.options.fused {
                return Err(Error::arg(
                    "fused",
                    "false; jde100 runs on a device only in the fused kernel",
                ));
            }
            let cap = tuning.de_fused.min(ctx.info.max_work_group_size);
            let s = fused_shape(
                nm,
                nn,
                fp.max(fpf),
                cap,
                usize::MAX,
                ctx.info.local_mem_bytes,
                0,
            );
            if s.is_none() {
                return Err(Error::arg(
                    "members",
                    format!(
                        "{nm}; the fused kernel's reduction does not fit the device's local memory"
                    ),
                ));
            }
            s
        } else {
            // JADE, SHADE, L-SHADE and jSO too (`ade_fused`; with a host callback, or unfused,
            // they stay host-planned: `adapt.rs`)
            let sums = if ade { super::ade::SUMS } else { 0 };
            // (constrained runs take the per-phase launches, which compare violations)
            (self.cfg.options.fused && !external && !constrained)
                .then(|| {
                    fused_shape(
                        nm,
                        nn,
                        fp.max(fpf),
                        tuning.de_fused,
                        ctx.info.max_work_group_size,
                        ctx.info.local_mem_bytes,
                        sums,
                    )
                })
                .flatten()
                .map(|s| {
                    if wide_ok && want_wide == Some(true) {
                        FusedShape {
                            local: false,
                            trials_fit: false,
                            ..s
                        }
                    } else {
                        s
                    }
                })
                // an island beyond any group (e.g. 4000 members) takes the wide generation, not
                // the per-phase launches: the fused kernel is built beside it, never launched
                .or_else(|| {
                    (wide_ok
                        && self.cfg.options.fused
                        && !external
                        && !constrained
                        && nm > ctx.info.max_work_group_size)
                        .then(|| FusedShape {
                            wg: covering_group(
                                nm,
                                tuning.de_fused.min(ctx.info.max_work_group_size),
                            ),
                            local: false,
                            trials_fit: false,
                        })
                })
        };
        let fused_name = if jde {
            "jde_fused"
        } else if ade {
            "ade_fused"
        } else {
            "de_fused"
        };
        let spec = spec.file("constraints.cl").file("de.cl");
        // a catalogue function can read the trials in local memory: the fused kernel then has a
        // program of its own, where functions.cl reads __local points (and de.cl's kernels that
        // evaluate global trials are left out)
        let catalogue = match objective {
            Objective::Catalogue { .. } => objective.info()?,
            _ => None,
        };
        let trial_local = catalogue.filter(|_| shape.is_some_and(|s| s.local && s.trials_fit));
        let program = match (shape, trial_local) {
            (Some(s), None) => ctx.build(
                &spec
                    .define("DEB_ISLANDS", 1)
                    .define("DEB_JDE", jde as u8)
                    .define("DEB_ADE", ade as u8)
                    .define("DEB_LOCAL", s.local as u8)
                    .file("de_batch.cl"),
            )?,
            _ => ctx.build(&spec)?,
        };
        let fused = match shape {
            Some(s) => {
                let kernel = match trial_local {
                    Some(info) => {
                        let fused_spec = ProgramSpec::files(&["common.cl", "functions.cl"])
                            .define("FP", if double { "double" } else { "float" })
                            .define("FP_DOUBLE", double as u8)
                            .define("FPF", if fdouble { "double" } else { "float" })
                            .define("FPF_DOUBLE", fdouble as u8)
                            .define("MO_XS", "__local")
                            .define("DE_TILE", self.tile)
                            .define("DE_STRICT", strict)
                            .define("DE_NO_KERNELS", 1)
                            .file("constraints.cl")
                            .file("de.cl")
                            .define("DEB_ISLANDS", 1)
                            .define("DEB_JDE", jde as u8)
                            .define("DEB_ADE", ade as u8)
                            .define("DEB_LOCAL", 1)
                            .define("DEB_TRIAL_LOCAL", 1)
                            .define("DEB_OBJECTIVE", info.kernel)
                            .file("de_batch.cl");
                        let fused_program = ctx.build(&fused_spec)?;
                        self.queue.kernel(&fused_program, fused_name)?
                    }
                    None => self.queue.kernel(&program, fused_name)?,
                };
                // the kernel's own limit (registers) may be below the device's: loop then
                let limit = kernel.get_work_group_size(ctx.info.cl_id()).unwrap_or(1);
                let wg = covering_group(s.wg, limit);
                let t = trial_local.is_some();
                // wide: asked for, or (auto) an island in global memory larger than its group,
                // and fewer islands than compute units (the groups would leave most idle)
                let auto =
                    !s.local && nm > wg && (self.cfg.np as usize) < ctx.info.compute_units as usize;
                let wide = if wide_ok && !s.local && want_wide.unwrap_or(auto) {
                    let names = if ade {
                        ["ade_wide_trials", "ade_wide_adapt"]
                    } else {
                        ["de_wide", "de_wide_best"]
                    };
                    let island = self.queue.kernel(&program, names[1])?;
                    let rank = if ade {
                        Some(self.queue.kernel(&program, "ade_wide_rank")?)
                    } else {
                        None
                    };
                    let limit = std::iter::once(&island)
                        .chain(&rank)
                        .map(|k| k.get_work_group_size(ctx.info.cl_id()).unwrap_or(1))
                        .min()
                        .unwrap_or(1);
                    // the group's locals must fit: rv and ri (`deb_best`) for the fixed DE, the
                    // sums for the adaptive variants (whose best is their rank 0)
                    let per_item = if ade { super::ade::SUMS * fp } else { fpf + 4 };
                    let fits = (ctx.info.local_mem_bytes as usize / per_item).max(1);
                    // (the adaptive variants: the fused kernel's group, so that the sums of the
                    // success sets are reduced in its order and the run is its run)
                    let cap = if ade {
                        wg
                    } else {
                        ctx.info.max_work_group_size
                    };
                    let island_wg = covering_group(nm, limit.min(cap).min(fits));
                    let sums = super::ade::SUMS * island_wg * fp;
                    let ranking = (nm * (fpf + 4)).next_multiple_of(8);
                    let ls =
                        if ade && ranking > sums && ranking <= ctx.info.local_mem_bytes as usize {
                            ranking
                        } else {
                            sums
                        };
                    Some(Wide {
                        trials: self.queue.kernel(&program, names[0])?,
                        island,
                        rank,
                        island_wg,
                        ls,
                    })
                } else {
                    None
                };
                Some(Fused {
                    kernel,
                    wg,
                    lx: if s.local { 2 * nm * nn * fp } else { fp },
                    lfx: if s.local { nm * fpf } else { fpf },
                    ly: if t { nm * nn * fp } else { fp },
                    lfy: if t { nm * fpf } else { fpf },
                    ls: super::ade::SUMS * wg * fp,
                    wide,
                })
            }
            None => None,
        };
        let select = self.queue.kernel(&program, "de_select")?;
        let repair = match self
            .cons
            .as_ref()
            .filter(|c| c.c.repair.is_some() && !external)
        {
            Some(c) => {
                let nc = c.c.count() as usize;
                let per = nc * nn + nc * nc + nc;
                let len = (self.cfg.np as usize * nm)
                    .checked_mul(per * fp)
                    .ok_or_else(|| Error::arg("repair", "the repair's scratch does not fit"))?;
                Some((
                    self.queue.kernel(&program, "de_repair")?,
                    // written whole, as Fx and Fy (`fit_fitness`)
                    self.queue.buffer_from(
                        &crate::error::try_filled(len, 0u8, "repair")?,
                        "repair scratch",
                    )?,
                ))
            }
            None => None,
        };
        Ok(Kernels {
            init: self.queue.kernel(&program, "de_init")?,
            copy: self.queue.kernel(&program, "de_copy_x_y")?,
            trial: self.queue.kernel(&program, "de_trial")?,
            eval: if external {
                None
            } else {
                Some(self.queue.kernel(&program, "de_eval_select")?)
            },
            wg1: work_group_size(&ctx, &select, tuning.de_select),
            init_wg: tuning.de_init,
            select,
            best: self.queue.kernel(&program, "de_best")?,
            migrate: self.queue.kernel(&program, "de_migrate")?,
            import: self.queue.kernel(&program, "de_import")?,
            view: self.queue.kernel(&program, "de_view")?,
            export: self.queue.kernel(&program, "de_export")?,
            moments: self.queue.kernel(&program, "de_moments")?,
            fused,
            ade_trial: self.queue.kernel(&program, "ade_trial")?,
            ade_eval: if external {
                None
            } else {
                Some(self.queue.kernel(&program, "ade_eval")?)
            },
            ade_archive: self.queue.kernel(&program, "ade_archive")?,
            ade_select: self.queue.kernel(&program, "ade_select")?,
            repair,
        })
    }

    /// The gradient-based repair of generation `gen`'s trials in Y (`de_repair`), when the
    /// run's constraints ask for it.
    fn repair_trials(&mut self, gen: u64) -> Result<()> {
        let Some(r) = self.cons.as_ref().and_then(|c| c.c.repair) else {
            return Ok(());
        };
        let (np, nm, nn) = self.sizes();
        let k = self.k()?;
        let Some((kernel, scratch)) = &k.repair else {
            return Ok(());
        };
        let (seed, pick, rounds) = (self.cfg.options.mutation_seed, r.threshold(), r.rounds);
        let count = np as usize * nm as usize;
        let wg = k.wg1;
        let mut e = ExecuteKernel::new(kernel);
        // SAFETY: arguments match `de_repair`; the buffers outlive the launch (fields).
        unsafe {
            e.set_arg(self.y.cl())
                .set_arg(self.lo.cl())
                .set_arg(self.hi.cl())
                .set_arg(self.kinds.cl())
                .set_arg(self.data()?.cl())
                .set_arg(scratch.cl());
            e.set_arg(&np)
                .set_arg(&nm)
                .set_arg(&nn)
                .set_arg(&gen)
                .set_arg(&seed)
                .set_arg(&pick)
                .set_arg(&rounds);
        }
        launch(
            &self.queue,
            &mut e,
            &[count.div_ceil(wg) * wg],
            Some(&[wg]),
            "clEnqueueNDRangeKernel(de_repair)",
        )
    }

    fn k(&self) -> Result<&Kernels> {
        self.kernels
            .as_ref()
            .ok_or_else(|| Error::arg("init", "the solver has no objective yet; call init first"))
    }

    /// The objective's data into `data` (8 zero bytes where it has none): into the buffer there
    /// when it has that length (the 8 bytes `block` makes before any objective, for most
    /// objectives), else into a new one
    /// made after the old one's release, so that no buffer made later takes a released one's
    /// number. The Oclgrind check cannot follow that: its uninitialised-value plugin leaves a
    /// released buffer's shadow (length, written bytes) to the next buffer given its number, then
    /// loses the kernels' stores past that length and reports their loads there as uninitialised
    /// (the wide generation's second X, the adaptive variants' archive). The new buffer here,
    /// written whole at creation, gets a shadow of its own.
    fn put_func_data(&mut self, data: &[u8]) -> Result<()> {
        let bytes = if data.is_empty() { &[0u8; 8][..] } else { data };
        match &mut self.data {
            Some(d) if d.len() == bytes.len() => d.write(&self.queue, bytes),
            _ => {
                self.data = None;
                self.data = Some(self.queue.buffer_from(bytes, "func-data")?);
                Ok(())
            }
        }
    }

    /// The objective's data on the device.
    fn data(&self) -> Result<&DeviceBuffer<u8>> {
        func_data(&self.data)
    }

    fn sizes(&self) -> (u32, u32, u32) {
        (self.cfg.np, self.cfg.nm, self.cfg.nn)
    }

    fn tile_global(&self) -> [usize; 3] {
        let t = self.tile;
        [
            round_up(self.cfg.np as usize, t),
            round_up(self.cfg.nm as usize, t),
            self.cfg.nn as usize,
        ]
    }

    /// Evaluation and selection of Y (on the device, or through the host callback), then bests;
    /// in pieces of members under a cut (`pace.rs`). Returns the trials evaluated and selected:
    /// every one, or under a due cut a leading range of them (a multiple of the group size), the
    /// rest left unselected; the bests are ranked either way.
    fn evaluate(&mut self, cut: Option<&Cut>) -> Result<u64> {
        self.evaluate_from(0, cut)
    }

    /// [`DeviceDe::evaluate`] of the trials from `from` on (a multiple of the group size: the
    /// earlier ones evaluated and selected already); returns the trials evaluated and selected,
    /// `from` included.
    fn evaluate_from(&mut self, from: usize, cut: Option<&Cut>) -> Result<u64> {
        let (np, nm, nn) = self.sizes();
        let count = np as usize * nm as usize;
        let wg1 = self.k()?.wg1;
        let mut rate = self.rates[3];
        let done = if let Some(cb) = &self.callback {
            let double = self.cfg.options.double;
            let raw = self.y.to_vec(&self.queue)?;
            let rows = y_rows(
                &fp_values(&raw, double),
                np as usize,
                nm as usize,
                nn as usize,
            );
            let mut out = vec![f64::INFINITY; count];
            // with constraints, the violations' callback beside the objective's
            let vcb = self.cons.as_ref().and_then(|c| c.c.violation.clone());
            let mut vout = vec![f64::INFINITY; if vcb.is_some() { count } else { 0 }];
            let nnu = nn as usize;
            // the callback gets the whole generation in one call unless a time limit needs pieces
            let done = in_pieces(
                (count - from) as u64,
                wg1 as u64,
                wg1 as u64,
                Cut::with_limit(cut),
                &mut rate,
                |a, len| {
                    let (a, b) = (
                        a as usize + from,
                        (a as usize + from + len as usize).min(count),
                    );
                    cb.call(&rows[a * nnu..b * nnu], b - a, nnu, &mut out[a..b])?;
                    if let Some(v) = &vcb {
                        v.call(&rows[a * nnu..b * nnu], b - a, nnu, &mut vout[a..b])?;
                    }
                    Ok(())
                },
                || Ok(()),
            )? as usize
                + from;
            out.extend(vout.iter().map(|&v| constraints::sanitized(v)));
            self.fy
                .write(&self.queue, &fp_bytes(&out, self.cfg.fitness_double()))?;
            let k = self.k()?;
            let mut e = ExecuteKernel::new(&k.select);
            // SAFETY: arguments match `de_select`.
            unsafe {
                e.set_arg(self.y.cl())
                    .set_arg(self.fy.cl())
                    .set_arg(self.x.cl())
                    .set_arg(self.fx.cl());
                e.set_arg(&np).set_arg(&nm).set_arg(&nn);
            }
            // only the trials evaluated (`done` is a multiple of the group or the count), from
            // `from` on
            let offset = (from > 0).then_some([from]);
            launch_at(
                &self.queue,
                &mut e,
                offset.as_ref().map(|o| &o[..]),
                &[round_up(done - from, wg1)],
                Some(&[k.wg1]),
                "clEnqueueNDRangeKernel(de_select)",
            )?;
            done as u64
        } else {
            let k = self.k()?;
            let eval = k.eval.as_ref().expect("built with an objective");
            let (q, y, fy, x, fx, data) = (
                &self.queue,
                &self.y,
                &self.fy,
                &self.x,
                &self.fx,
                self.data()?,
            );
            in_pieces(
                (count - from) as u64,
                wg1 as u64,
                wg1 as u64,
                cut,
                &mut rate,
                |a, len| {
                    let mut e = ExecuteKernel::new(eval);
                    // SAFETY: arguments match `de_eval_select`.
                    unsafe {
                        e.set_arg(y.cl())
                            .set_arg(fy.cl())
                            .set_arg(x.cl())
                            .set_arg(fx.cl());
                        e.set_arg(data.cl()).set_arg(&np).set_arg(&nm).set_arg(&nn);
                    }
                    let a = a as usize + from;
                    let (offset, size) = if a == 0 && len as usize >= count {
                        (None, round_up(count, wg1))
                    } else {
                        (Some(a), len as usize)
                    };
                    let offset = offset.map(|o| [o]);
                    launch_at(
                        q,
                        &mut e,
                        offset.as_ref().map(|o| &o[..]),
                        &[size],
                        Some(&[wg1]),
                        "clEnqueueNDRangeKernel(de_eval_select)",
                    )
                },
                || q.finish(),
            )? + from as u64
        };
        self.rates[3] = rate;
        self.rank()?;
        Ok(done)
    }

    /// Launches of a kernel over the dimensions (the tiled `de_copy_x_y` and `de_trial`): one
    /// over all, or under a cut pieces of dimensions. Returns the dimensions done.
    fn over_dims(
        &self,
        kernel: &Kernel,
        rate: &mut Rate,
        cut: Option<&Cut>,
        name: &'static str,
        args: impl Fn(&mut ExecuteKernel),
    ) -> Result<u64> {
        let nn = self.cfg.nn as u64;
        let [g0, g1, _] = self.tile_global();
        let local = [self.tile, self.tile, 1];
        in_pieces(
            nn,
            1,
            1,
            cut,
            rate,
            |a, len| {
                let mut e = ExecuteKernel::new(kernel);
                args(&mut e);
                let len = len.min(nn - a) as usize;
                let offset = (a > 0 || len < nn as usize).then_some([0, 0, a as usize]);
                launch_at(
                    &self.queue,
                    &mut e,
                    offset.as_ref().map(|o| &o[..]),
                    &[g0, g1, len],
                    Some(&local),
                    name,
                )
            },
            || self.queue.finish(),
        )
    }

    /// Evaluates every member of X afresh (Fx of the members reset to +inf first, so selection
    /// takes every member's new value): after `de_init`, and when the objective's data changes.
    /// Under a due cut: `None` when X was not yet wholly copied to Y (nothing evaluated), else
    /// the members evaluated (the others keep +inf, which any finite trial replaces).
    fn evaluate_population(&mut self, cut: Option<&Cut>) -> Result<Option<u64>> {
        let (np, nm, nn) = self.sizes();
        // +inf values (and violations), the level kept
        let mut inf = vec![f64::INFINITY; self.fitness_lens().0];
        if let Some(c) = &self.cons {
            let n = inf.len();
            inf[n - 2] = if c.level.is_nan() { 0.0 } else { c.level };
            inf[n - 1] = c.e0;
        }
        self.fx
            .write(&self.queue, &fp_bytes(&inf, self.cfg.fitness_double()))?;
        let mut rate = self.rates[1];
        let (x, y) = (&self.x, &self.y);
        let copied = self.over_dims(
            &self.k()?.copy,
            &mut rate,
            cut,
            "clEnqueueNDRangeKernel(de_copy_x_y)",
            |e| {
                // SAFETY: arguments match `de_copy_x_y`.
                unsafe {
                    e.set_arg(x.cl())
                        .set_arg(y.cl())
                        .set_arg(&np)
                        .set_arg(&nm)
                        .set_arg(&nn);
                }
            },
        )?;
        self.rates[1] = rate;
        if copied < nn as u64 {
            self.queue.finish()?;
            return Ok(None);
        }
        let done = self.evaluate(cut)?;
        self.queue.finish()?;
        Ok(Some(done))
    }

    /// `de_view`: every island's best value and worst member, and with `rows` its best row
    /// (the migration's view, and the migrants' export), in one read of a kept buffer.
    fn read_view(&mut self, rows: bool) -> Result<MigrationView> {
        let (np, nm, nn) = self.sizes();
        let (npu, fpf, fp) = (
            np as usize,
            if self.cfg.fitness_double() { 8 } else { 4 },
            if self.cfg.options.double { 8 } else { 4 },
        );
        let o_w = (npu * fpf).next_multiple_of(8);
        let o_r = (o_w + npu * 4).next_multiple_of(8);
        let len = if rows {
            o_r + npu * nn as usize * fp
        } else {
            o_w + npu * 4
        };
        let (o_w32, o_r32) = (u32::try_from(o_w), u32::try_from(o_r));
        let (Ok(o_w32), Ok(o_r32)) = (o_w32, o_r32) else {
            return Err(Error::arg(
                "islands",
                format!("{np} islands: the migration view's offsets pass 4 GiB"),
            ));
        };
        fitted(&self.queue, &mut self.mig.view, len, "migration view")?;
        let kern = self.k()?;
        let v = self.mig.view.as_ref().expect("fitted above");
        let mut e = ExecuteKernel::new(&kern.view);
        let rows32 = rows as u32;
        // SAFETY: arguments match `de_view`; the buffer holds `len` bytes.
        unsafe {
            e.set_arg(self.x.cl())
                .set_arg(self.fx.cl())
                .set_arg(v.cl())
                .set_arg(&np)
                .set_arg(&nm)
                .set_arg(&nn);
            e.set_arg(&rows32).set_arg(&o_w32).set_arg(&o_r32);
        }
        launch(
            &self.queue,
            &mut e,
            &[npu],
            None,
            "clEnqueueNDRangeKernel(de_view)",
        )?;
        let host = &mut self.mig.host;
        host.resize(host.len().max(len), 0);
        v.read(&self.queue, &mut host[..len])?;
        Ok(MigrationView {
            best: fp_values(&host[..npu * fpf], self.cfg.fitness_double()),
            worst: host[o_w..o_w + npu * 4]
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect(),
            k: 1,
            rows: if rows {
                fp_values(&host[o_r..len], self.cfg.options.double)
            } else {
                Vec::new()
            },
        })
    }

    /// Generations `gen + 1 ..= gen + count` of the fixed DE in the wide kernels: one launch of
    /// `de_wide` a generation, X and Fx alternating with their second copies, `de_wide_best`
    /// before each generation when the mutation reads the best, and after the last (the best
    /// rows).
    fn wide_generations(&mut self, gen: u64, count: u64) -> Result<()> {
        let (np, nm, nn) = self.sizes();
        let (xl, fl) = (self.x.len(), self.fx.len());
        let q = &self.queue;
        fitted(q, &mut self.wide_x, xl, "wide generation")?;
        fitted(q, &mut self.wide_fx, fl, "wide generation")?;
        fitted(q, &mut self.wide_best, np as usize, "wide generation")?;
        let o = &self.cfg.options;
        let (mutation, shared, sm, sc) = (
            self.mutation as u32,
            o.shared_random as u32,
            o.mutation_seed,
            o.crossover_seed,
        );
        let reads_best = self.mutation.reads_best();
        let fpf = if self.cfg.fitness_double() { 8 } else { 4 };
        let best = |de: &mut DeviceDe| -> Result<()> {
            let w = de
                .kernels
                .as_ref()
                .and_then(|k| k.fused.as_ref())
                .and_then(|f| f.wide.as_ref())
                .expect("wide kernels");
            let b = de.wide_best.as_ref().expect("fitted");
            let mut e = ExecuteKernel::new(&w.island);
            // SAFETY: arguments match `de_wide_best`; B holds Np words, the locals a group's.
            unsafe {
                e.set_arg(de.x.cl())
                    .set_arg(de.fx.cl())
                    .set_arg(b.cl())
                    .set_arg(&np)
                    .set_arg(&nm)
                    .set_arg(&nn);
                e.set_arg_local_buffer(w.island_wg * fpf)
                    .set_arg_local_buffer(w.island_wg * 4);
            }
            launch(
                &de.queue,
                &mut e,
                &[np as usize * w.island_wg],
                Some(&[w.island_wg]),
                "clEnqueueNDRangeKernel(de_wide_best)",
            )
        };
        for g in gen + 1..=gen + count {
            if reads_best {
                best(self)?;
            }
            let w = self
                .kernels
                .as_ref()
                .and_then(|k| k.fused.as_ref())
                .and_then(|f| f.wide.as_ref())
                .expect("wide kernels");
            let (x2, fx2, b) = (
                self.wide_x.as_ref().expect("fitted"),
                self.wide_fx.as_ref().expect("fitted"),
                self.wide_best.as_ref().expect("fitted"),
            );
            let mut e = ExecuteKernel::new(&w.trials);
            // SAFETY: arguments match `de_wide`; X2 and Fx2 are X's and Fx's sizes.
            unsafe {
                e.set_arg(self.x.cl())
                    .set_arg(self.fx.cl())
                    .set_arg(x2.cl())
                    .set_arg(fx2.cl());
                e.set_arg(self.y.cl())
                    .set_arg(self.fy.cl())
                    .set_arg(self.lo.cl())
                    .set_arg(self.hi.cl())
                    .set_arg(self.kinds.cl());
                e.set_arg(self.f.cl())
                    .set_arg(self.crt.cl())
                    .set_arg(self.data()?.cl())
                    .set_arg(b.cl());
                e.set_arg(&np)
                    .set_arg(&nm)
                    .set_arg(&nn)
                    .set_arg(&mutation)
                    .set_arg(&shared);
                e.set_arg(&g)
                    .set_arg(&sm)
                    .set_arg(&sc)
                    .set_arg(&self.p0)
                    .set_arg(&self.npg);
            }
            let wg = self.kernels.as_ref().map_or(64, |k| k.wg1);
            launch(
                &self.queue,
                &mut e,
                &[round_up(nm as usize, wg), np as usize],
                Some(&[wg, 1]),
                "clEnqueueNDRangeKernel(de_wide)",
            )?;
            std::mem::swap(&mut self.x, self.wide_x.as_mut().expect("fitted"));
            std::mem::swap(&mut self.fx, self.wide_fx.as_mut().expect("fitted"));
        }
        best(self)
    }

    /// Copies each population's best to its extra row.
    fn rank(&mut self) -> Result<()> {
        let (np, nm, nn) = self.sizes();
        let k = self.k()?;
        let mut e = ExecuteKernel::new(&k.best);
        // SAFETY: arguments match `de_best`.
        unsafe {
            e.set_arg(self.x.cl())
                .set_arg(self.fx.cl())
                .set_arg(&np)
                .set_arg(&nm)
                .set_arg(&nn);
        }
        launch(
            &self.queue,
            &mut e,
            &[np as usize],
            None,
            "clEnqueueNDRangeKernel(de_best)",
        )
    }

    /// Forgets the values the adaptive variants' host knows (`AdeState::fx`): called by
    /// everything but an adaptive generation that may change X or Fx.
    fn forget_fitness(&mut self) {
        if let Some(st) = self.ade.as_mut() {
            st.fx = None;
        }
    }

    /// Generations `gen + 1 ..= gen + count` of JADE, SHADE, L-SHADE or jSO in one launch of
    /// `ade_fused`; the host follows every island's active members and evaluations.
    fn ade_generations(&mut self, gen: u64, count: u64) -> Result<()> {
        let fk = self
            .kernels
            .as_ref()
            .and_then(|k| k.fused.as_ref())
            .expect("the adaptive variants' fused kernel");
        let data = func_data(&self.data)?;
        let a = self.adef.as_mut().expect("ade_fused started");
        let (np, nm, nn) = (self.cfg.np, self.cfg.nm, self.cfg.nn);
        let s = &a.shape;
        let (alg, h, acap, budget) = (s.alg as u32, s.par.h as u32, s.acap, s.budget);
        let double = self.cfg.options.double;
        let fpf = if self.cfg.fitness_double() { 8 } else { 4 };
        let k = u32::try_from(count).map_err(|_| {
            Error::arg(
                "generations",
                format!("{count} in one launch; at most 2^32 - 1"),
            )
        })?;
        // the arguments every one of these kernels takes first (`ADE_ARGS`), for generation
        // `g0 + 1` on
        let args = |e: &mut ExecuteKernel, g0: u64| {
            // SAFETY: `ADE_ARGS` of `ade_fused` and the wide kernels; the buffers outlive the
            // launch (fields of self).
            unsafe {
                e.set_arg(self.x.cl())
                    .set_arg(self.fx.cl())
                    .set_arg(self.y.cl())
                    .set_arg(self.fy.cl());
                e.set_arg(self.lo.cl())
                    .set_arg(self.hi.cl())
                    .set_arg(self.kinds.cl());
                e.set_arg(a.am.cl())
                    .set_arg(a.aa.cl())
                    .set_arg(a.af.cl())
                    .set_arg(a.au.cl())
                    .set_arg(a.st.cl())
                    .set_arg(data.cl());
                e.set_arg(&np)
                    .set_arg(&nm)
                    .set_arg(&nn)
                    .set_arg(&g0)
                    .set_arg(&k)
                    .set_arg(&alg)
                    .set_arg(&h)
                    .set_arg(&acap)
                    .set_arg(&budget);
                if double {
                    e.set_arg(&s.par.p)
                        .set_arg(&s.par.arc_rate)
                        .set_arg(&s.par.c);
                } else {
                    e.set_arg(&(s.par.p as f32))
                        .set_arg(&(s.par.arc_rate as f32))
                        .set_arg(&(s.par.c as f32));
                }
                e.set_arg(&s.seed_mut)
                    .set_arg(&s.seed_cross)
                    .set_arg(&self.p0)
                    .set_arg(&self.npg);
            }
        };
        if let Some(w) = &fk.wide {
            // the wide generation: the ranks, then per generation its trials over the grid and
            // the rest of it per island. Each kernel's arguments are set once; a generation sets
            // gen0 alone and launches with no event (`enqueue_prepared`): setting 30 arguments and
            // making an event at each of its two launches is a visible share of a short generation
            // (benchmarks/INDEX.md, 2026-11-29-h200-ade_wide).
            let (iw, tw) = (w.island_wg, self.kernels.as_ref().map_or(64, |k| k.wg1));
            let per_island = |kernel: &Kernel| {
                let mut e = ExecuteKernel::new(kernel);
                args(&mut e, gen);
                // SAFETY: the local ls of `ade_wide_adapt` and `ade_wide_rank` and its size.
                unsafe {
                    e.set_arg_local_buffer(w.ls).set_arg(&(w.ls as u64));
                }
            };
            let rank = w.rank.as_ref().expect("ade_wide_rank");
            per_island(rank);
            per_island(&w.island);
            args(&mut ExecuteKernel::new(&w.trials), gen);
            let (grid, groups) = ([round_up(nm as usize, tw), np as usize], [np as usize * iw]);
            enqueue_prepared(
                &self.queue,
                rank,
                &groups,
                &[iw],
                "clEnqueueNDRangeKernel(ade_wide_rank)",
            )?;
            for g0 in gen..gen + count {
                // SAFETY: argument ADE_GEN0 of `ADE_ARGS` is gen0, a ulong; the others are set above.
                unsafe {
                    w.trials
                        .set_arg(ADE_GEN0, &g0)
                        .map_err(cl_error("clSetKernelArg(ade_wide_trials)"))?;
                    w.island
                        .set_arg(ADE_GEN0, &g0)
                        .map_err(cl_error("clSetKernelArg(ade_wide_adapt)"))?;
                }
                enqueue_prepared(
                    &self.queue,
                    &w.trials,
                    &grid,
                    &[tw, 1],
                    "clEnqueueNDRangeKernel(ade_wide_trials)",
                )?;
                enqueue_prepared(
                    &self.queue,
                    &w.island,
                    &groups,
                    &[iw],
                    "clEnqueueNDRangeKernel(ade_wide_adapt)",
                )?;
            }
        } else {
            let mut e = ExecuteKernel::new(&fk.kernel);
            args(&mut e, gen);
            // SAFETY: the locals of `ade_fused`, sized by `Fused`.
            unsafe {
                e.set_arg_local_buffer(fk.lx).set_arg_local_buffer(fk.lfx);
                e.set_arg_local_buffer(fk.wg * fpf)
                    .set_arg_local_buffer(fk.wg * 4);
                e.set_arg_local_buffer(fk.ly)
                    .set_arg_local_buffer(fk.lfy)
                    .set_arg_local_buffer(fk.ls);
            }
            launch(
                &self.queue,
                &mut e,
                &[np as usize * fk.wg],
                Some(&[fk.wg]),
                "clEnqueueNDRangeKernel(ade_fused)",
            )?;
        }
        for (na, nfe) in a.na.iter_mut().zip(a.nfe.iter_mut()) {
            (_, *na, *nfe) = adapt::sizes_ahead(s.alg.reduces(), nm, budget, *na, *nfe, count);
        }
        Ok(())
    }

    /// jDE100 cycles `gen + 1 ..= gen + count` in launches of `jde_fused`.
    fn jde_cycles(&mut self, gen: u64, count: u64) -> Result<()> {
        let fk = self
            .k()?
            .fused
            .as_ref()
            .expect("jde100 builds the fused kernel");
        let (jf, st) = self.jde.as_ref().expect("jde100 started");
        let (np, nm, nn) = self.sizes();
        let o = &self.cfg.options;
        let nb = nm - o.jde_small;
        let (si, sm, sc, age) = (o.init_seed, o.mutation_seed, o.crossover_seed, o.jde_age);
        let fdouble = self.cfg.fitness_double();
        let fpf = if fdouble { 8 } else { 4 };
        let (eps64, eps32) = (o.jde_eps, o.jde_eps as f32);
        let mut left = count;
        let mut g = gen;
        while left > 0 {
            let k = left.min(u32::MAX as u64) as u32;
            let mut e = ExecuteKernel::new(&fk.kernel);
            // SAFETY: arguments match `jde_fused`.
            unsafe {
                e.set_arg(self.x.cl())
                    .set_arg(self.fx.cl())
                    .set_arg(self.y.cl())
                    .set_arg(self.fy.cl());
                e.set_arg(self.lo.cl())
                    .set_arg(self.hi.cl())
                    .set_arg(self.kinds.cl());
                e.set_arg(jf.cl())
                    .set_arg(st.cl())
                    .set_arg(self.data()?.cl());
                e.set_arg(&np).set_arg(&nm).set_arg(&nn).set_arg(&nb);
                e.set_arg(&g)
                    .set_arg(&k)
                    .set_arg(&si)
                    .set_arg(&sm)
                    .set_arg(&sc)
                    .set_arg(&self.p0)
                    .set_arg(&self.npg);
                if fdouble {
                    e.set_arg(&eps64);
                } else {
                    e.set_arg(&eps32);
                }
                e.set_arg(&age);
                e.set_arg_local_buffer(fk.lx).set_arg_local_buffer(fk.lfx);
                e.set_arg_local_buffer(fk.wg * fpf)
                    .set_arg_local_buffer(fk.wg * 4);
                e.set_arg_local_buffer(fk.ly).set_arg_local_buffer(fk.lfy);
            }
            launch(
                &self.queue,
                &mut e,
                &[np as usize * fk.wg],
                Some(&[fk.wg]),
                "clEnqueueNDRangeKernel(jde_fused)",
            )?;
            g += k as u64;
            left -= k as u64;
        }
        Ok(())
    }

    /// X and Y as stored on the device (layouts of `cl/de.cl`), for tests of the layouts.
    pub fn raw_matrices(&mut self) -> Result<(Vec<f64>, Vec<f64>)> {
        let d = self.cfg.options.double;
        Ok((
            fp_values(&self.x.to_vec(&self.queue)?, d),
            fp_values(&self.y.to_vec(&self.queue)?, d),
        ))
    }
}

/// Little-endian bytes of 32- or 64-bit words (a device buffer's, for a checkpoint).
fn words_bytes<T: WordBytes>(words: &[T]) -> Vec<u8> {
    words.iter().flat_map(|w| w.le()).collect()
}

/// Writes the words of `bytes` (of [`words_bytes`]) into `buf`, which must hold as many.
fn write_words<T: WordBytes + crate::device::ClScalar>(
    q: &crate::device::Queue,
    buf: &mut DeviceBuffer<T>,
    bytes: &[u8],
) -> Result<()> {
    let n = std::mem::size_of::<T>();
    if bytes.len() != buf.len() * n {
        return Err(super::state::corrupt("counters"));
    }
    let words: Vec<T> = bytes.chunks_exact(n).map(T::from_le).collect();
    buf.write(q, &words)
}

/// The words a checkpoint holds of a device's buffers.
trait WordBytes: Copy {
    fn le(&self) -> Vec<u8>;
    fn from_le(b: &[u8]) -> Self;
}

impl WordBytes for u32 {
    fn le(&self) -> Vec<u8> {
        self.to_le_bytes().to_vec()
    }
    fn from_le(b: &[u8]) -> Self {
        u32::from_le_bytes(b.try_into().expect("4 bytes"))
    }
}

impl WordBytes for u64 {
    fn le(&self) -> Vec<u8> {
        self.to_le_bytes().to_vec()
    }
    fn from_le(b: &[u8]) -> Self {
        u64::from_le_bytes(b.try_into().expect("8 bytes"))
    }
}

impl DeviceDe {
    /// What a checkpoint of this engine's buffers is of: the path (the fixed DE, the adaptive
    /// variants fused or planned on the host, jDE100) and the precisions.
    fn state_path(&self) -> String {
        let kind = if self.adef.is_some() {
            "adaptive DE in the fused kernel"
        } else if self.ade.is_some() {
            "adaptive DE planned on the host"
        } else if self.jde.is_some() {
            "jde100"
        } else {
            "fixed DE"
        };
        let name = |d: bool| if d { "double" } else { "float" };
        format!(
            "{kind}, {} (fitness {})",
            name(self.cfg.options.double),
            name(self.cfg.fitness_double())
        )
    }
}

/// Y (member fastest, `[(n * Np + p) * Nm + m]`) as rows `p * Nm + m` of Nn values.
pub fn y_rows(y: &[f64], np: usize, nm: usize, nn: usize) -> Vec<f64> {
    let mut rows = vec![0.0; np * nm * nn];
    for n in 0..nn {
        for p in 0..np {
            for m in 0..nm {
                rows[(p * nm + m) * nn + n] = y[(n * np + p) * nm + m];
            }
        }
    }
    rows
}

impl Engine for DeviceDe {
    fn start(&mut self, s: &Start<'_>) -> Result<Option<u64>> {
        let (objective, mutation, cut) = (s.objective, s.mutation, s.cut);
        self.kernels = None;
        self.callback = match objective {
            Objective::Callback(cb) => Some(cb.clone()),
            _ => None,
        };
        constraints::check_run(s.constraints, objective, &self.cfg)?;
        self.fit_fitness(s.constraints)?;
        let data = objective.data_bytes(self.cfg.nn as usize, self.cfg.options.double)?;
        self.put_func_data(&data)?;
        self.kernels = Some(self.build(objective)?);
        self.mutation = mutation;
        let (np, nm, nn) = self.sizes();
        let k = self.k()?;
        let seed = self.cfg.options.init_seed;
        let p0 = self.p0;
        let total = np as usize * nm as usize * nn as usize;
        let wg = k.init_wg;
        let (q, x, fx, lo, hi) = (&self.queue, &self.x, &self.fx, &self.lo, &self.hi);
        let kinds = &self.kinds;
        let mut rate = self.rates[0];
        // a group of values per dimension and member: pieces of about a member's values
        let first = (nn as u64).div_ceil(wg as u64) * wg as u64;
        let made = in_pieces(
            total as u64,
            wg as u64,
            first,
            cut,
            &mut rate,
            |a, len| {
                let mut e = ExecuteKernel::new(&k.init);
                // SAFETY: arguments match `de_init`.
                unsafe {
                    e.set_arg(x.cl())
                        .set_arg(fx.cl())
                        .set_arg(lo.cl())
                        .set_arg(hi.cl())
                        .set_arg(kinds.cl());
                    e.set_arg(&np)
                        .set_arg(&nm)
                        .set_arg(&nn)
                        .set_arg(&seed)
                        .set_arg(&p0);
                }
                let (offset, size) = if a == 0 && len as usize >= total {
                    (None, round_up(total, wg))
                } else {
                    (Some([a as usize]), len as usize)
                };
                launch_at(
                    q,
                    &mut e,
                    offset.as_ref().map(|o| &o[..]),
                    &[size],
                    Some(&[wg]),
                    "clEnqueueNDRangeKernel(de_init)",
                )
            },
            || q.finish(),
        )?;
        self.rates[0] = rate;
        if made < total as u64 {
            self.queue.finish()?;
            return Ok(None);
        }
        self.ade = None;
        self.adef = None;
        let fused = self.kernels.as_ref().is_some_and(|k| k.fused.is_some());
        if self.cfg.options.algorithm.planned() && fused {
            let o = &self.cfg.options;
            let shape = super::ade::Shape::new(
                o.algorithm,
                nm,
                nn,
                self.npg,
                o.mutation_seed,
                o.crossover_seed,
                o.lshade_budget,
                o.selection,
            );
            let st = super::ade::State::new(&shape);
            let (np, nm, fp) = (np as usize, nm as usize, if o.double { 8 } else { 4 });
            let mem: Vec<f64> = (0..np)
                .flat_map(|_| st.m_f.iter().chain(&st.m_cr).copied())
                .collect();
            let counters: Vec<u64> = (0..np).flat_map(|_| st.counters()).collect();
            let q = &self.queue;
            self.adef = Some(AdeFused {
                am: q.buffer_from(&fp_bytes(&mem, o.double), "memories")?,
                aa: q.buffer(
                    (np * shape.acap as usize * nn as usize).max(1) * fp,
                    "archive",
                )?,
                af: q.buffer(np * 4 * nm * fp, "F")?,
                au: q.buffer(np * 2 * nm, "ranks")?,
                st: q.buffer_from(&counters, "counters")?,
                na: vec![st.na; np],
                nfe: vec![st.nfe; np],
                shape,
            });
        } else if self.cfg.options.algorithm.planned() {
            let a = Adaptive::new(&self.cfg);
            let (fp, rows) = (
                if self.cfg.options.double { 8 } else { 4 },
                np as usize * nm as usize,
            );
            let q = &self.queue;
            self.ade = Some(AdeState {
                archive: q.buffer(np as usize * a.acap as usize * nn as usize * fp, "archive")?,
                fm: q.buffer(rows * fp, "F")?,
                fw: q.buffer(rows * fp, "F")?,
                crt: q.buffer(rows, "CR")?,
                idx: q.buffer(rows * adapt::IDX, "plan")?,
                na: q.buffer_from(&a.na(), "members")?,
                moves: q.buffer(rows * 3, "archive moves")?,
                adapt: a,
                fx: None,
            });
        }
        self.jde = None;
        let done = self.evaluate_population(cut)?;
        if done.is_some() && self.cons.is_some() {
            let v = self.read_violations()?.unwrap_or_default();
            let nm = nm as usize;
            let members: Vec<f64> = v
                .chunks_exact(nm + 1)
                .flat_map(|c| c[..nm].iter().copied())
                .collect();
            if let Some(c) = self.cons.as_mut() {
                c.e0 = c.c.handling.initial_level(&members);
                c.level = f64::NAN;
            }
            self.put_level(0)?;
        }
        if self.cfg.options.algorithm == Algorithm::Jde100 && done.is_some() {
            let (np, nm) = (np as usize, nm as usize);
            let mut jf = Vec::with_capacity(np * 4 * nm);
            for _ in 0..np {
                jf.extend(std::iter::repeat_n(jde::F_INIT, nm));
                jf.extend(std::iter::repeat_n(jde::CR_INIT, nm));
                jf.extend(std::iter::repeat_n(0.0, 2 * nm));
            }
            let q = &self.queue;
            self.jde = Some((
                q.buffer_from(&fp_bytes(&jf, self.cfg.options.double), "F")?,
                q.buffer_from(&vec![0u64; np * 4], "jde100 state")?,
            ));
        }
        Ok(done)
    }

    fn generation(&mut self, gen: u64, cut: Option<&Cut>) -> Result<u64> {
        // the comparisons' level of this generation (constrained runs)
        self.put_level(gen)?;
        if self.adef.is_some() {
            // one generation, one launch (not cut in pieces)
            let n = self.per_generation();
            self.ade_generations(gen - 1, 1)?;
            return Ok(n);
        }
        if self.jde.is_some() {
            // one cycle, one launch (not cut in pieces: the limit is asked between cycles)
            self.jde_cycles(gen - 1, 1)?;
            return Ok(self.per_generation());
        }
        if let Some(mut st) = self.ade.take() {
            let rule = self.cfg.options.selection;
            let known = st.fx.take();
            let mut b = AdeDevice {
                de: self,
                st: &mut st.archive,
                fm: &mut st.fm,
                fw: &mut st.fw,
                crt: &mut st.crt,
                idx: &mut st.idx,
                na: &mut st.na,
                moves: &mut st.moves,
                acap: st.adapt.acap,
                rule,
                fx: known,
                fy: None,
                after: None,
            };
            let done = adapt::generation(&mut st.adapt, &mut b, gen, rule);
            // kept only when the whole generation went through
            let after = if done.is_ok() { b.after.take() } else { None };
            st.fx = after;
            self.ade = Some(st);
            return done;
        }
        let (np, nm, nn) = self.sizes();
        let k = self.k()?;
        let o = &self.cfg.options;
        let (mutation, shared) = (self.mutation as u32, o.shared_random as u32);
        let (sm, sc) = (o.mutation_seed, o.crossover_seed);
        let (x, y, lo, hi, kinds, f, crt) = (
            &self.x,
            &self.y,
            &self.lo,
            &self.hi,
            &self.kinds,
            &self.f,
            &self.crt,
        );
        let (p0, npg) = (self.p0, self.npg);
        let mut rate = self.rates[2];
        // every trial is made from the previous generation before any selection writes X
        let made = self.over_dims(
            &k.trial,
            &mut rate,
            cut,
            "clEnqueueNDRangeKernel(de_trial)",
            |e| {
                // SAFETY: arguments match `de_trial`.
                unsafe {
                    e.set_arg(x.cl())
                        .set_arg(y.cl())
                        .set_arg(lo.cl())
                        .set_arg(hi.cl());
                    e.set_arg(kinds.cl()).set_arg(f.cl()).set_arg(crt.cl());
                    e.set_arg(&np)
                        .set_arg(&nm)
                        .set_arg(&nn)
                        .set_arg(&mutation)
                        .set_arg(&shared);
                    e.set_arg(&gen)
                        .set_arg(&sm)
                        .set_arg(&sc)
                        .set_arg(&p0)
                        .set_arg(&npg);
                }
            },
        )?;
        self.rates[2] = rate;
        if made < nn as u64 {
            // cut while making trials: X is untouched
            return Ok(0);
        }
        self.repair_trials(gen)?;
        self.evaluate(cut)
    }

    fn fused(&self) -> bool {
        self.kernels.as_ref().is_some_and(|k| k.fused.is_some())
    }

    fn generations(&mut self, gen: u64, count: u64) -> Result<()> {
        self.forget_fitness();
        if self.jde.is_some() {
            return self.jde_cycles(gen, count);
        }
        if self.adef.is_some() {
            return self.ade_generations(gen, count);
        }
        let Some(fk) = self.k()?.fused.as_ref() else {
            for g in gen + 1..=gen + count {
                self.generation(g, None)?;
            }
            return Ok(());
        };
        if fk.wide.is_some() {
            return self.wide_generations(gen, count);
        }
        let (np, nm, nn) = self.sizes();
        let o = &self.cfg.options;
        let (mutation, shared) = (self.mutation as u32, o.shared_random as u32);
        let (sm, sc) = (o.mutation_seed, o.crossover_seed);
        let fpf = if self.cfg.fitness_double() { 8 } else { 4 };
        let mut left = count;
        let mut g = gen;
        while left > 0 {
            let k = left.min(u32::MAX as u64) as u32;
            let mut e = ExecuteKernel::new(&fk.kernel);
            // SAFETY: arguments match `de_fused`.
            unsafe {
                e.set_arg(self.x.cl())
                    .set_arg(self.fx.cl())
                    .set_arg(self.y.cl())
                    .set_arg(self.fy.cl());
                e.set_arg(self.lo.cl())
                    .set_arg(self.hi.cl())
                    .set_arg(self.kinds.cl());
                e.set_arg(self.f.cl())
                    .set_arg(self.crt.cl())
                    .set_arg(self.data()?.cl());
                e.set_arg(&np)
                    .set_arg(&nm)
                    .set_arg(&nn)
                    .set_arg(&mutation)
                    .set_arg(&shared);
                e.set_arg(&g)
                    .set_arg(&k)
                    .set_arg(&sm)
                    .set_arg(&sc)
                    .set_arg(&self.p0)
                    .set_arg(&self.npg);
                e.set_arg_local_buffer(fk.lx).set_arg_local_buffer(fk.lfx);
                e.set_arg_local_buffer(fk.wg * fpf)
                    .set_arg_local_buffer(fk.wg * 4);
                e.set_arg_local_buffer(fk.ly).set_arg_local_buffer(fk.lfy);
            }
            launch(
                &self.queue,
                &mut e,
                &[np as usize * fk.wg],
                Some(&[fk.wg]),
                "clEnqueueNDRangeKernel(de_fused)",
            )?;
            g += k as u64;
            left -= k as u64;
        }
        Ok(())
    }

    fn fitness(&mut self) -> Result<Vec<f64>> {
        let fd = self.cfg.fitness_double();
        if self.cons.is_some() {
            let n = self.cfg.np as usize * (self.cfg.nm as usize + 1);
            let mut out = vec![0u8; n * if fd { 8 } else { 4 }];
            self.fx.read(&self.queue, &mut out)?;
            return Ok(fp_values(&out, fd));
        }
        Ok(fp_values(&self.fx.to_vec(&self.queue)?, fd))
    }

    fn violations(&mut self) -> Result<Option<Vec<f64>>> {
        self.read_violations()
    }

    fn level(&self) -> f64 {
        self.cons.as_ref().map_or(0.0, |c| c.level)
    }

    fn migrate(&mut self, moves: &[Move]) -> Result<()> {
        self.forget_fitness();
        if moves.is_empty() {
            return Ok(());
        }
        let (np, nm, nn) = self.sizes();
        let flat: Vec<u32> = moves
            .iter()
            .flat_map(|m| [m.src, m.dst, m.member])
            .collect();
        fitted(
            &self.queue,
            &mut self.mig.moves,
            flat.len(),
            "migration moves",
        )?
        .write_queued(&self.queue, flat)?;
        let count = moves.len() as u32;
        let k = self.k()?;
        let buf = self.mig.moves.as_ref().expect("fitted above");
        let mut e = ExecuteKernel::new(&k.migrate);
        // SAFETY: arguments match `de_migrate`; `buf` is kept until the next migration, whose
        // write the in-order queue puts after this launch.
        unsafe {
            e.set_arg(self.x.cl())
                .set_arg(self.fx.cl())
                .set_arg(buf.cl())
                .set_arg(&count);
            e.set_arg(&np).set_arg(&nm).set_arg(&nn);
        }
        launch(
            &self.queue,
            &mut e,
            &[moves.len()],
            None,
            "clEnqueueNDRangeKernel(de_migrate)",
        )?;
        // no wait: the next phase comes after the migration on the same in-order queue
        self.rank()
    }

    fn migration_view(&mut self, k: usize, rows: bool) -> Result<MigrationView> {
        if k > 1 || self.ade.is_some() || self.cons.is_some() {
            // several worst members (N2One, N2N), the adaptive variants' host-kept values, or
            // constrained values (compared with their violations)
            return super::engine::view_from_values(self, k, rows);
        }
        self.read_view(rows)
    }

    fn export_bests(&mut self) -> Result<Vec<f64>> {
        Ok(self.read_view(true)?.rows)
    }

    fn moments(&mut self, nm: usize) -> Result<Vec<f64>> {
        if self.ade.is_some() {
            // the adaptive variants' host-kept values
            return Ok(super::ops::moments(&self.fitness()?, nm));
        }
        let (np, nm32, _) = self.sizes();
        let bytes = 2 * np as usize * if self.cfg.fitness_double() { 8 } else { 4 };
        let q = &self.queue;
        fitted(q, &mut self.moments, bytes, "moments")?;
        let k = self.k()?;
        let out = self.moments.as_ref().expect("fitted");
        let mut e = ExecuteKernel::new(&k.moments);
        // SAFETY: arguments match `de_moments`; `out` holds two values per island.
        unsafe {
            e.set_arg(self.fx.cl())
                .set_arg(out.cl())
                .set_arg(&np)
                .set_arg(&nm32);
        }
        launch(
            &self.queue,
            &mut e,
            &[np as usize],
            None,
            "clEnqueueNDRangeKernel(de_moments)",
        )?;
        let mut host = vec![0u8; bytes];
        out.read(&self.queue, &mut host)?;
        Ok(fp_values(&host, self.cfg.fitness_double()))
    }

    fn best_rows(&mut self, islands: &[u32]) -> Result<(Vec<f64>, Vec<f64>)> {
        if islands.is_empty() {
            return Ok((Vec::new(), Vec::new()));
        }
        let (np, nm, nn) = self.sizes();
        if let Some(&p) = islands.iter().find(|&&p| p >= np) {
            return Err(Error::arg("islands", format!("island {p} of {np}")));
        }
        let (fpf, fp) = (
            if self.cfg.fitness_double() { 8 } else { 4 },
            if self.cfg.options.double { 8 } else { 4 },
        );
        let (rl, vl) = (islands.len() * nn as usize * fp, islands.len() * fpf);
        let q = &self.queue;
        fitted(q, &mut self.mig.out_idx, islands.len(), "migrants")?
            .write_queued(q, islands.to_vec())?;
        fitted(q, &mut self.mig.out_rows, rl, "migrants")?;
        fitted(q, &mut self.mig.out_values, vl, "migrants")?;
        let count = islands.len() as u32;
        let k = self.k()?;
        let m = &self.mig;
        let (idx, r, fr) = (
            m.out_idx.as_ref().expect("fitted"),
            m.out_rows.as_ref().expect("fitted"),
            m.out_values.as_ref().expect("fitted"),
        );
        let mut e = ExecuteKernel::new(&k.export);
        // SAFETY: arguments match `de_export`; the buffers hold `count` islands, rows and values.
        unsafe {
            e.set_arg(self.x.cl())
                .set_arg(self.fx.cl())
                .set_arg(idx.cl())
                .set_arg(r.cl())
                .set_arg(fr.cl());
            e.set_arg(&count).set_arg(&np).set_arg(&nm).set_arg(&nn);
        }
        launch(
            &self.queue,
            &mut e,
            &[islands.len()],
            None,
            "clEnqueueNDRangeKernel(de_export)",
        )?;
        let (mut rows, mut values) = (vec![0u8; rl], vec![0u8; vl]);
        r.read(&self.queue, &mut rows)?;
        fr.read(&self.queue, &mut values)?;
        Ok((
            fp_values(&rows, self.cfg.options.double),
            fp_values(&values, self.cfg.fitness_double()),
        ))
    }

    fn shape(&self) -> (u32, u32) {
        (self.cfg.np, self.cfg.nm)
    }

    fn import(&mut self, slots: &[(u32, u32)], x: &[f64], fx: &[f64]) -> Result<()> {
        self.forget_fitness();
        if slots.is_empty() {
            return Ok(());
        }
        let (np, nm, nn) = self.sizes();
        let flat: Vec<u32> = slots.iter().flat_map(|&(p, m)| [p, m]).collect();
        let (rows, values) = (
            fp_bytes(x, self.cfg.options.double),
            fp_bytes(fx, self.cfg.fitness_double()),
        );
        let q = &self.queue;
        fitted(q, &mut self.mig.moves, flat.len(), "migrants")?.write_queued(q, flat)?;
        fitted(q, &mut self.mig.rows, rows.len(), "migrants")?.write_queued(q, rows)?;
        fitted(q, &mut self.mig.values, values.len(), "migrants")?.write_queued(q, values)?;
        let count = slots.len() as u32;
        let k = self.k()?;
        let m = &self.mig;
        let (mv, v, fv) = (
            m.moves.as_ref().expect("fitted"),
            m.rows.as_ref().expect("fitted"),
            m.values.as_ref().expect("fitted"),
        );
        let mut e = ExecuteKernel::new(&k.import);
        // SAFETY: arguments match `de_import`; the buffers are kept until the next import,
        // whose writes the in-order queue puts after this launch.
        unsafe {
            e.set_arg(self.x.cl())
                .set_arg(self.fx.cl())
                .set_arg(mv.cl())
                .set_arg(v.cl())
                .set_arg(fv.cl());
            e.set_arg(&count).set_arg(&np).set_arg(&nm).set_arg(&nn);
        }
        launch(
            &self.queue,
            &mut e,
            &[slots.len()],
            None,
            "clEnqueueNDRangeKernel(de_import)",
        )?;
        // no wait: the next phase comes after the import on the same in-order queue
        self.rank()
    }

    fn member(&mut self, p: u32, m: u32) -> Result<Vec<f64>> {
        let (np, nm, nn) = (
            self.cfg.np as usize,
            self.cfg.nm as usize,
            self.cfg.nn as usize,
        );
        let x = fp_values(&self.x.to_vec(&self.queue)?, self.cfg.options.double);
        Ok((0..nn)
            .map(|n| x[(n * (nm + 1) + m as usize) * np + p as usize])
            .collect())
    }

    fn trials(&mut self) -> Result<(Vec<f64>, Vec<f64>)> {
        let d = self.cfg.options.double;
        let y = fp_values(&self.y.to_vec(&self.queue)?, d);
        let mut fy = fp_values(&self.fy.to_vec(&self.queue)?, self.cfg.fitness_double());
        // (the values, not the violations after them)
        fy.truncate(self.cfg.np as usize * self.cfg.nm as usize);
        Ok((
            y_rows(
                &y,
                self.cfg.np as usize,
                self.cfg.nm as usize,
                self.cfg.nn as usize,
            ),
            fy,
        ))
    }

    fn set_func_data(&mut self, data: &[u8]) -> Result<()> {
        self.forget_fitness();
        self.queue.finish()?;
        self.put_func_data(data)?;
        // The population's fitness came from the old data: evaluate every member again.
        self.evaluate_population(None).map(|_| ())
    }

    fn sync(&mut self) -> Result<()> {
        self.queue.finish()
    }

    fn jde_state(&mut self) -> Result<Vec<JdeState>> {
        match &self.jde {
            Some((_, st)) => Ok(st
                .to_vec(&self.queue)?
                .chunks_exact(4)
                .map(JdeState::from_words)
                .collect()),
            None => Ok(Vec::new()),
        }
    }

    fn per_generation(&self) -> u64 {
        if self.cfg.options.algorithm == Algorithm::Jde100 {
            let s = self.cfg.options.jde_small;
            return self.cfg.np as u64 * jde::per_cycle(self.cfg.nm - s, s);
        }
        if let Some(a) = &self.adef {
            return a.na.iter().map(|&n| n as u64).sum();
        }
        self.ade
            .as_ref()
            .map_or(self.cfg.np as u64 * self.cfg.nm as u64, |s| {
                s.adapt.per_generation()
            })
    }

    fn repair_charge(&self, gen: u64) -> u64 {
        constraints::repair_charge(self.cons.as_ref().map(|c| &c.c), &self.cfg, gen)
    }

    fn per_generations(&self, count: u64) -> u64 {
        match &self.adef {
            Some(a) => {
                a.na.iter()
                    .zip(&a.nfe)
                    .map(|(&na, &nfe)| {
                        adapt::sizes_ahead(
                            a.shape.alg.reduces(),
                            self.cfg.nm,
                            a.shape.budget,
                            na,
                            nfe,
                            count,
                        )
                        .0
                    })
                    .sum()
            }
            None => count * self.per_generation(),
        }
    }

    fn resume_generation(&mut self, _gen: u64, from: u64, cut: Option<&Cut>) -> Result<u64> {
        // only the fixed DE's launch-per-phase generations are cut midway; Y holds their trials
        self.evaluate_from(from as usize, cut)
    }

    fn save(&mut self, trials: bool) -> Result<EngineState> {
        self.queue.finish()?;
        let q = &self.queue;
        let mut buffers = vec![self.x.to_vec(q)?, self.fx.to_vec(q)?];
        if trials {
            buffers.push(self.y.to_vec(q)?);
            buffers.push(self.fy.to_vec(q)?);
        } else {
            buffers.extend([Vec::new(), Vec::new()]);
        }
        let (mut adapt, mut na, mut nfe) = (None, Vec::new(), Vec::new());
        if let Some(a) = &self.adef {
            buffers.extend([
                a.am.to_vec(q)?,
                a.aa.to_vec(q)?,
                a.af.to_vec(q)?,
                words_bytes(&a.au.to_vec(q)?),
                words_bytes(&a.st.to_vec(q)?),
            ]);
            (na, nfe) = (a.na.clone(), a.nfe.clone());
        } else if let Some(st) = &self.ade {
            buffers.extend([st.archive.to_vec(q)?, words_bytes(&st.na.to_vec(q)?)]);
            adapt = Some(st.adapt.islands.clone());
        } else if let Some((jf, jst)) = &self.jde {
            buffers.extend([jf.to_vec(q)?, words_bytes(&jst.to_vec(q)?)]);
        }
        Ok(EngineState::Device {
            path: self.state_path(),
            buffers,
            adapt,
            na,
            nfe,
        })
    }

    fn restore(&mut self, state: EngineState) -> Result<()> {
        let path = self.state_path();
        let EngineState::Device {
            path: saved,
            buffers,
            adapt,
            na,
            nfe,
        } = state
        else {
            return Err(super::state::refused(&format!("a device ({path})"), &state));
        };
        if saved != path {
            return Err(Error::arg(
                "state",
                format!("cannot resume from this checkpoint: a state of a device's {saved}; this solver runs {path}"),
            ));
        }
        self.queue.finish()?;
        self.forget_fitness();
        let q = &self.queue;
        let mut b = buffers.into_iter();
        let mut next = || b.next().ok_or_else(|| super::state::corrupt("buffers"));
        let fit = |buf: &mut DeviceBuffer<u8>, bytes: Vec<u8>, what: &str| -> Result<()> {
            if bytes.len() != buf.len() {
                return Err(super::state::corrupt(what));
            }
            buf.write(q, &bytes)
        };
        let (x, fx, y, fy) = (next()?, next()?, next()?, next()?);
        if x.len() != self.x.len() || fx.len() != self.fx.len() {
            return Err(super::state::corrupt("populations"));
        }
        if !y.is_empty() {
            fit(&mut self.y, y, "trials")?;
            fit(&mut self.fy, fy, "trials")?;
        }
        if let Some(a) = self.adef.as_mut() {
            let np = self.cfg.np as usize;
            if na.len() != np || nfe.len() != np {
                return Err(super::state::corrupt("adaptive states"));
            }
            fit(&mut a.am, next()?, "adaptive memories")?;
            fit(&mut a.aa, next()?, "archives")?;
            fit(&mut a.af, next()?, "adaptive states")?;
            write_words(q, &mut a.au, &next()?)?;
            write_words(q, &mut a.st, &next()?)?;
            (a.na, a.nfe) = (na, nfe);
        } else if let Some(st) = self.ade.as_mut() {
            let Some(islands) = adapt else {
                return Err(super::state::corrupt("adaptive states"));
            };
            let a = &st.adapt;
            if islands.len() != a.islands.len()
                || islands
                    .iter()
                    .any(|i| i.m_f.len() != a.par.h || i.m_cr.len() != a.par.h || i.na > a.nm)
            {
                return Err(super::state::corrupt("adaptive states"));
            }
            fit(&mut st.archive, next()?, "archives")?;
            write_words(q, &mut st.na, &next()?)?;
            st.adapt.islands = islands;
        } else if let Some((jf, jst)) = self.jde.as_mut() {
            fit(jf, next()?, "jde100 states")?;
            write_words(q, jst, &next()?)?;
        }
        self.x.write(q, &x)?;
        self.fx.write(q, &fx)?;
        if let Some(c) = self.cons.as_mut() {
            // the levels after the values and violations
            let v = fp_values(&fx, self.cfg.fitness_double());
            (c.level, c.e0) = (v[v.len() - 2], v[v.len() - 1]);
        }
        Ok(())
    }

    fn population(&mut self) -> Result<Vec<f64>> {
        let (np, nm, nn) = (
            self.cfg.np as usize,
            self.cfg.nm as usize,
            self.cfg.nn as usize,
        );
        let x = fp_values(&self.x.to_vec(&self.queue)?, self.cfg.options.double);
        let mut rows = vec![0.0; np * nm * nn];
        for p in 0..np {
            for m in 0..nm {
                for n in 0..nn {
                    rows[(p * nm + m) * nn + n] = x[(n * (nm + 1) + m) * np + p];
                }
            }
        }
        Ok(rows)
    }

    fn set_population(&mut self, rows: &[f64]) -> Result<()> {
        let (np, nm, nn) = (
            self.cfg.np as usize,
            self.cfg.nm as usize,
            self.cfg.nn as usize,
        );
        if rows.len() != np * nm * nn {
            return Err(Error::arg(
                "population",
                format!("{} values; expected {}", rows.len(), np * nm * nn),
            ));
        }
        self.forget_fitness();
        self.queue.finish()?;
        // the best rows (m = Nm) are ranked afresh after the evaluation
        let mut x = vec![0.0; np * (nm + 1) * nn];
        for p in 0..np {
            for m in 0..nm {
                for n in 0..nn {
                    x[(n * (nm + 1) + m) * np + p] = rows[(p * nm + m) * nn + n];
                }
            }
        }
        self.x
            .write(&self.queue, &fp_bytes(&x, self.cfg.options.double))?;
        self.evaluate_population(None).map(|_| ())
    }

    fn devices(&self) -> usize {
        1
    }

    fn configure(&mut self, cfg: &Config) -> Result<()> {
        self.forget_fitness();
        self.queue.finish()?;
        let crt: Vec<u64> = cfg.cr.iter().map(|&c| cr_threshold(c)).collect();
        self.f.write(
            &self.queue,
            &fp_bytes(&cfg.f_and_dither(), cfg.options.double),
        )?;
        self.crt.write(&self.queue, &crt)?;
        self.cfg = cfg.clone();
        Ok(())
    }

    fn describe(&self) -> String {
        let i = &self.queue.ctx().info;
        let fused = match self.kernels.as_ref().and_then(|k| k.fused.as_ref()) {
            Some(f) if f.wide.is_some() => {
                ", wide generations (a launch a generation over groups of the members)".to_string()
            }
            Some(f) => format!(
                ", fused generations (group {}, {} memory{})",
                f.wg,
                if f.lx > 8 { "local" } else { "global" },
                if f.ly > 8 { ", trials local" } else { "" }
            ),
            None => String::new(),
        };
        format!("{}, tile {}x{}{fused}", i.describe(), self.tile, self.tile)
    }
}

/// The device engine with the adaptive state's buffers borrowed beside it.
struct AdeDevice<'a> {
    de: &'a mut DeviceDe,
    st: &'a mut DeviceBuffer<u8>,
    fm: &'a mut DeviceBuffer<u8>,
    fw: &'a mut DeviceBuffer<u8>,
    crt: &'a mut DeviceBuffer<u64>,
    idx: &'a mut DeviceBuffer<u32>,
    na: &'a mut DeviceBuffer<u32>,
    moves: &'a mut DeviceBuffer<u32>,
    acap: u32,
    rule: super::config::Selection,
    /// The values at the start of the generation (known from the last one, else read), the
    /// trials' values, and the values after the selection.
    fx: Option<Vec<f64>>,
    fy: Option<Vec<f64>>,
    after: Option<Vec<f64>>,
}

impl AdaptBackend for AdeDevice<'_> {
    fn fitness_values(&mut self) -> Result<Values> {
        if self.de.cons.is_some() {
            // constrained: read each generation (the host keeps no copy)
            return Ok(Values {
                f: self.de.fitness()?,
                v: self.de.read_violations()?,
                level: self.de.level(),
            });
        }
        let fx = match self.fx.take() {
            Some(fx) => fx,
            None => self.de.fitness()?,
        };
        self.fx = Some(fx.clone());
        Ok(Values::plain(fx))
    }

    fn make_trials(&mut self, gen: u64, plan: &Plan, na: &[u32]) -> Result<()> {
        let de = &*self.de;
        let q = &de.queue;
        let double = de.cfg.options.double;
        // queued: the launch below follows them in the queue, and the generation's read of the
        // trial values waits for all of it (one wait a generation instead of one per upload)
        self.fm.write_queued(q, fp_bytes(&plan.f, double))?;
        self.fw.write_queued(q, fp_bytes(&plan.fw, double))?;
        self.crt.write_queued(q, plan.crt.clone())?;
        self.idx.write_queued(q, plan.idx.clone())?;
        self.na.write_queued(q, na.to_vec())?;
        let (np, nm, nn) = de.sizes();
        let k = de.k()?;
        let (shared, sc, acap) = (
            de.cfg.options.shared_random as u32,
            de.cfg.options.crossover_seed,
            self.acap,
        );
        let mut e = ExecuteKernel::new(&k.ade_trial);
        // SAFETY: arguments match `ade_trial`; the buffers outlive the launch (fields).
        unsafe {
            e.set_arg(de.x.cl())
                .set_arg(self.st.cl())
                .set_arg(de.y.cl())
                .set_arg(de.lo.cl())
                .set_arg(de.hi.cl());
            e.set_arg(de.kinds.cl())
                .set_arg(self.fm.cl())
                .set_arg(self.fw.cl())
                .set_arg(self.crt.cl());
            e.set_arg(self.idx.cl()).set_arg(self.na.cl());
            e.set_arg(&np)
                .set_arg(&nm)
                .set_arg(&nn)
                .set_arg(&acap)
                .set_arg(&shared)
                .set_arg(&gen)
                .set_arg(&sc);
        }
        launch(
            q,
            &mut e,
            &[np as usize * nm as usize * nn as usize],
            None,
            "clEnqueueNDRangeKernel(ade_trial)",
        )
    }

    fn evaluate_trials(&mut self, na: &[u32]) -> Result<Values> {
        let de = &mut *self.de;
        let (np, nm, nn) = de.sizes();
        let (npu, nmu, nnu) = (np as usize, nm as usize, nn as usize);
        let fdouble = de.cfg.fitness_double();
        let level = de.cons.as_ref().map_or(0.0, |c| c.level);
        if let Some(cb) = &de.callback {
            let raw = de.y.to_vec(&de.queue)?;
            let rows = y_rows(&fp_values(&raw, de.cfg.options.double), npu, nmu, nnu);
            let mut active = Vec::new();
            for (p, &n) in na.iter().enumerate() {
                active.extend_from_slice(&rows[p * nmu * nnu..(p * nmu + n as usize) * nnu]);
            }
            let count = active.len() / nnu.max(1);
            let mut v = vec![f64::INFINITY; count];
            cb.call(&active, count, nnu, &mut v)?;
            // with constraints, the violations' callback beside the objective's
            let mut w = Vec::new();
            if let Some(vcb) = de.cons.as_ref().and_then(|c| c.c.violation.as_ref()) {
                w = vec![f64::INFINITY; count];
                vcb.call(&active, count, nnu, &mut w)?;
            }
            let mut fy = vec![f64::INFINITY; npu * nmu];
            let mut vy = vec![f64::INFINITY; if w.is_empty() { 0 } else { npu * nmu }];
            let mut at = 0;
            for (p, &n) in na.iter().enumerate() {
                for m in 0..n as usize {
                    fy[p * nmu + m] = if v[at].is_finite() {
                        de.cfg.fitness_value(v[at])
                    } else {
                        f64::INFINITY
                    };
                    if !w.is_empty() {
                        vy[p * nmu + m] = de.cfg.fitness_value(constraints::sanitized(w[at]));
                    }
                    at += 1;
                }
            }
            let mut both = fy.clone();
            both.extend(&vy);
            de.fy.write(&de.queue, &fp_bytes(&both, fdouble))?;
            self.fy = Some(fy.clone());
            return Ok(Values {
                f: fy,
                v: (!w.is_empty()).then_some(vy),
                level,
            });
        }
        let k = de.k()?;
        let eval = k.ade_eval.as_ref().expect("built with an objective");
        let mut e = ExecuteKernel::new(eval);
        // SAFETY: arguments match `ade_eval`.
        unsafe {
            e.set_arg(de.y.cl())
                .set_arg(de.fy.cl())
                .set_arg(de.data()?.cl())
                .set_arg(self.na.cl());
            e.set_arg(&np).set_arg(&nm).set_arg(&nn);
        }
        launch(
            &de.queue,
            &mut e,
            &[npu * nmu],
            None,
            "clEnqueueNDRangeKernel(ade_eval)",
        )?;
        let mut fy = fp_values(&de.fy.to_vec(&de.queue)?, fdouble);
        // with constraints the violations follow the values
        let vy = (fy.len() > npu * nmu).then(|| fy.split_off(npu * nmu));
        self.fy = Some(fy.clone());
        Ok(Values {
            f: fy,
            v: vy,
            level,
        })
    }

    fn archive(&mut self, moves: &[ArchiveMove]) -> Result<()> {
        if moves.is_empty() {
            return Ok(());
        }
        let de = &*self.de;
        let flat: Vec<u32> = moves.iter().flat_map(|m| [m.p, m.m, m.slot]).collect();
        self.moves.write_queued(&de.queue, flat)?;
        let (np, nm, nn) = de.sizes();
        let (count, acap) = (moves.len() as u32, self.acap);
        let mut e = ExecuteKernel::new(&de.k()?.ade_archive);
        // SAFETY: arguments match `ade_archive`.
        unsafe {
            e.set_arg(de.x.cl())
                .set_arg(self.st.cl())
                .set_arg(self.moves.cl())
                .set_arg(&count);
            e.set_arg(&np).set_arg(&nm).set_arg(&nn).set_arg(&acap);
        }
        launch(
            &de.queue,
            &mut e,
            &[moves.len(), nn as usize],
            None,
            "clEnqueueNDRangeKernel(ade_archive)",
        )
    }

    fn select(&mut self, na: &[u32]) -> Result<()> {
        let de = &mut *self.de;
        let (np, nm, nn) = de.sizes();
        {
            let mut e = ExecuteKernel::new(&de.k()?.ade_select);
            // SAFETY: arguments match `ade_select`; `na` was written with the plan.
            unsafe {
                e.set_arg(de.y.cl())
                    .set_arg(de.fy.cl())
                    .set_arg(de.x.cl())
                    .set_arg(de.fx.cl())
                    .set_arg(self.na.cl());
                e.set_arg(&np).set_arg(&nm).set_arg(&nn);
            }
            launch(
                &de.queue,
                &mut e,
                &[np as usize * nm as usize],
                None,
                "clEnqueueNDRangeKernel(ade_select)",
            )?;
        }
        // what ade_select and de_best leave in Fx: the selected values, each island's best
        // in its slot Nm (unconstrained: a constrained run reads them)
        if let (Some(fx), Some(fy), None) = (&self.fx, &self.fy, &de.cons) {
            let (np, nm) = (np as usize, nm as usize);
            let mut after = adapt::selected(fx, fy, na, nm, self.rule);
            for p in 0..np {
                let s = &mut after[p * (nm + 1)..(p + 1) * (nm + 1)];
                s[nm] = s[..nm].iter().copied().fold(f64::INFINITY, f64::min);
            }
            self.after = Some(after);
        }
        de.rank()
    }

    fn compact(&mut self, keep: &[Vec<u32>]) -> Result<()> {
        // the values move: the next generation reads them
        self.after = None;
        let de = &mut *self.de;
        let (np, nm, nn) = (de.cfg.np as usize, de.cfg.nm as usize, de.cfg.nn as usize);
        let (double, fdouble) = (de.cfg.options.double, de.cfg.fitness_double());
        let mut x = fp_values(&de.x.to_vec(&de.queue)?, double);
        let mut fx = fp_values(&de.fx.to_vec(&de.queue)?, fdouble);
        for (p, k) in keep.iter().enumerate() {
            for (j, &m) in k.iter().enumerate() {
                let m = m as usize;
                if m != j {
                    for n in 0..nn {
                        x[(n * (nm + 1) + j) * np + p] = x[(n * (nm + 1) + m) * np + p];
                    }
                    fx[p * (nm + 1) + j] = fx[p * (nm + 1) + m];
                }
            }
            for j in k.len()..nm {
                fx[p * (nm + 1) + j] = f64::INFINITY;
            }
            if de.cons.is_some() {
                // the violations, after the values, move alike
                let o = np * (nm + 1) + p * (nm + 1);
                for (j, &m) in k.iter().enumerate() {
                    fx[o + j] = fx[o + m as usize];
                }
                for j in k.len()..nm {
                    fx[o + j] = f64::INFINITY;
                }
            }
        }
        de.x.write(&de.queue, &fp_bytes(&x, double))?;
        de.fx.write(&de.queue, &fp_bytes(&fx, fdouble))?;
        de.rank()
    }
}
