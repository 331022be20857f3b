//! Island DE on an OpenCL device: the buffers in the layouts of `cl/de.cl` and the launches of
//! its kernels. A host callback objective reads Y back, is called with the trials row by row,
//! and its values go back for the selection kernel.

use super::ops::{cr_threshold, Move};
use super::config::{Config, Mutation};
use super::engine::Engine;
use crate::device::{cl_error, work_group_size, DeviceBuffer, DeviceContext, ProgramSpec, Queue};
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
    wg1: usize,
    /// The group of `de_init` (exact: it is not capped by the kernel's limit).
    init_wg: usize,
}

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
    data: DeviceBuffer<u8>,
    kernels: Option<Kernels>,
    callback: Option<HostCallback>,
    mutation: Mutation,
}

fn launch(q: &Queue, e: &mut ExecuteKernel, global: &[usize], local: Option<&[usize]>, name: &'static str) -> Result<()> {
    e.set_global_work_sizes(global);
    if let Some(l) = local {
        e.set_local_work_sizes(l);
    }
    // SAFETY: the callers set every argument of the kernel to buffers and scalars that outlive
    // the launch (they are fields of the engine, and the queue is finished before they change).
    unsafe { e.enqueue_nd_range(q.cl()) }.map_err(|err| {
        let err = cl_error(name)(err);
        crate::device::note_failure(&err);
        err
    })?;
    Ok(())
}

fn round_up(n: usize, m: usize) -> usize {
    n.div_ceil(m) * m
}

impl DeviceDe {
    pub fn new(cfg: Config, device: Option<usize>) -> Result<Self> {
        let ctx = match device {
            Some(d) => DeviceContext::get(d)?,
            None => DeviceContext::current()?,
        };
        let double = cfg.options.double;
        if double {
            ctx.require_fp64()?;
        }
        let tile = ctx.tuning().de_tile(ctx.info.max_work_group_size);
        let queue = ctx.queue_unprofiled()?;
        let fp = if double { 8 } else { 4 };
        let (np, nm, nn) = (cfg.np as usize, cfg.nm as usize, cfg.nn as usize);
        let crt: Vec<u64> = cfg.cr.iter().map(|&c| cr_threshold(c)).collect();
        let kinds: Vec<u8> = cfg.kinds.iter().map(|&k| k as u8).collect();
        Ok(DeviceDe {
            x: queue.buffer(np * (nm + 1) * nn * fp, "X")?,
            fx: queue.buffer(np * (nm + 1) * fp, "Fx")?,
            y: queue.buffer(np * nm * nn * fp, "Y")?,
            fy: queue.buffer(np * nm * fp, "Fy")?,
            lo: queue.buffer_from(&fp_bytes(&cfg.lo, double), "limits")?,
            hi: queue.buffer_from(&fp_bytes(&cfg.hi, double), "limits")?,
            kinds: queue.buffer_from(&kinds, "bounds")?,
            f: queue.buffer_from(&fp_bytes(&cfg.f, double), "F")?,
            crt: queue.buffer_from(&crt, "CR")?,
            data: queue.buffer_from(&[0u8; 8], "func-data")?,
            cfg,
            queue,
            tile,
            kernels: None,
            callback: None,
            mutation: Mutation::Rand1,
        })
    }

    fn build(&mut self, objective: &Objective) -> Result<Kernels> {
        let double = self.cfg.options.double;
        let external = matches!(objective, Objective::Callback(_));
        let spec = ProgramSpec::files(&["common.cl"])
            .define("FP", if double { "double" } else { "float" })
            .define("FP_DOUBLE", double as u8)
            .define("DE_TILE", self.tile);
        // a host callback fills Fy itself: no objective is compiled
        let spec = if external { spec.define("DE_EXTERNAL_F", 1) } else { objective.add_to(spec, double)? };
        let ctx = self.queue.ctx().clone();
        let program = ctx.build(&spec.file("de.cl"))?;
        let tuning = ctx.tuning();
        let select = self.queue.kernel(&program, "de_select")?;
        Ok(Kernels {
            init: self.queue.kernel(&program, "de_init")?,
            copy: self.queue.kernel(&program, "de_copy_x_y")?,
            trial: self.queue.kernel(&program, "de_trial")?,
            eval: if external { None } else { Some(self.queue.kernel(&program, "de_eval_select")?) },
            wg1: work_group_size(&ctx, &select, tuning.de_select),
            init_wg: tuning.de_init,
            select,
            best: self.queue.kernel(&program, "de_best")?,
            migrate: self.queue.kernel(&program, "de_migrate")?,
        })
    }

    fn k(&self) -> Result<&Kernels> {
        self.kernels.as_ref().ok_or_else(|| Error::arg("init", "the solver has no objective yet; call init first"))
    }

    fn sizes(&self) -> (u32, u32, u32) {
        (self.cfg.np, self.cfg.nm, self.cfg.nn)
    }

    fn tile_global(&self) -> [usize; 3] {
        let t = self.tile;
        [round_up(self.cfg.np as usize, t), round_up(self.cfg.nm as usize, t), self.cfg.nn as usize]
    }

    /// Evaluation and selection of Y (on the device, or through the host callback), then bests.
    fn evaluate(&mut self) -> Result<()> {
        let (np, nm, nn) = self.sizes();
        let count = np as usize * nm as usize;
        let wg1 = self.k()?.wg1;
        let g1 = round_up(count, wg1);
        if let Some(cb) = &self.callback {
            let raw = self.y.to_vec(&self.queue)?;
            let y = fp_values(&raw, self.cfg.options.double);
            let rows = y_rows(&y, np as usize, nm as usize, nn as usize);
            let mut out = vec![0.0; count];
            cb.call(&rows, count, nn as usize, &mut out)?;
            self.fy.write(&self.queue, &fp_bytes(&out, self.cfg.options.double))?;
            let k = self.k()?;
            let mut e = ExecuteKernel::new(&k.select);
            // SAFETY: arguments match `de_select`.
            unsafe {
                e.set_arg(self.y.cl()).set_arg(self.fy.cl()).set_arg(self.x.cl()).set_arg(self.fx.cl());
                e.set_arg(&np).set_arg(&nm).set_arg(&nn);
            }
            launch(&self.queue, &mut e, &[g1], Some(&[k.wg1]), "clEnqueueNDRangeKernel(de_select)")?;
        } else {
            let k = self.k()?;
            let eval = k.eval.as_ref().expect("built with an objective");
            let mut e = ExecuteKernel::new(eval);
            // SAFETY: arguments match `de_eval_select`.
            unsafe {
                e.set_arg(self.y.cl()).set_arg(self.fy.cl()).set_arg(self.x.cl()).set_arg(self.fx.cl());
                e.set_arg(self.data.cl()).set_arg(&np).set_arg(&nm).set_arg(&nn);
            }
            launch(&self.queue, &mut e, &[g1], Some(&[k.wg1]), "clEnqueueNDRangeKernel(de_eval_select)")?;
        }
        self.rank()
    }

    /// Evaluates every member of X afresh (Fx of the members reset to +inf first, so selection
    /// takes every member's new value): after `de_init`, and when the objective's data changes.
    fn evaluate_population(&mut self) -> Result<()> {
        let (np, nm, nn) = self.sizes();
        let inf = vec![f64::INFINITY; np as usize * (nm as usize + 1)];
        self.fx.write(&self.queue, &fp_bytes(&inf, self.cfg.options.double))?;
        let k = self.k()?;
        let mut e = ExecuteKernel::new(&k.copy);
        // SAFETY: arguments match `de_copy_x_y`.
        unsafe {
            e.set_arg(self.x.cl()).set_arg(self.y.cl()).set_arg(&np).set_arg(&nm).set_arg(&nn);
        }
        launch(&self.queue, &mut e, &self.tile_global(), Some(&[self.tile, self.tile, 1]), "clEnqueueNDRangeKernel(de_copy_x_y)")?;
        self.evaluate()?;
        self.queue.finish()
    }

    /// Copies each population's best to its extra row.
    fn rank(&mut self) -> Result<()> {
        let (np, nm, nn) = self.sizes();
        let k = self.k()?;
        let mut e = ExecuteKernel::new(&k.best);
        // SAFETY: arguments match `de_best`.
        unsafe {
            e.set_arg(self.x.cl()).set_arg(self.fx.cl()).set_arg(&np).set_arg(&nm).set_arg(&nn);
        }
        launch(&self.queue, &mut e, &[np as usize], None, "clEnqueueNDRangeKernel(de_best)")
    }

    /// X and Y as stored on the device (layouts of `cl/de.cl`), for tests of the layouts.
    pub fn raw_matrices(&mut self) -> Result<(Vec<f64>, Vec<f64>)> {
        let d = self.cfg.options.double;
        Ok((fp_values(&self.x.to_vec(&self.queue)?, d), fp_values(&self.y.to_vec(&self.queue)?, d)))
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
    fn start(&mut self, objective: &Objective, mutation: Mutation) -> Result<()> {
        self.kernels = None;
        self.callback = match objective {
            Objective::Callback(cb) => Some(cb.clone()),
            _ => None,
        };
        let data = objective.data_bytes(self.cfg.nn as usize, self.cfg.options.double)?;
        self.data = self.queue.buffer_from(if data.is_empty() { &[0u8; 8][..] } else { &data }, "func-data")?;
        self.kernels = Some(self.build(objective)?);
        self.mutation = mutation;
        let (np, nm, nn) = self.sizes();
        let k = self.k()?;
        let seed = self.cfg.options.init_seed;
        let total = np as usize * nm as usize * nn as usize;
        let mut e = ExecuteKernel::new(&k.init);
        // SAFETY: arguments match `de_init`.
        unsafe {
            e.set_arg(self.x.cl()).set_arg(self.fx.cl()).set_arg(self.lo.cl()).set_arg(self.hi.cl());
            e.set_arg(&np).set_arg(&nm).set_arg(&nn).set_arg(&seed);
        }
        let wg = k.init_wg;
        launch(&self.queue, &mut e, &[round_up(total, wg)], Some(&[wg]), "clEnqueueNDRangeKernel(de_init)")?;
        self.evaluate_population()
    }

    fn generation(&mut self, gen: u64) -> Result<()> {
        let (np, nm, nn) = self.sizes();
        let k = self.k()?;
        let o = &self.cfg.options;
        let (mutation, shared) = (self.mutation as u32, o.shared_random as u32);
        let (sm, sc) = (o.mutation_seed, o.crossover_seed);
        let mut e = ExecuteKernel::new(&k.trial);
        // SAFETY: arguments match `de_trial`.
        unsafe {
            e.set_arg(self.x.cl()).set_arg(self.y.cl()).set_arg(self.lo.cl()).set_arg(self.hi.cl());
            e.set_arg(self.kinds.cl()).set_arg(self.f.cl()).set_arg(self.crt.cl());
            e.set_arg(&np).set_arg(&nm).set_arg(&nn).set_arg(&mutation).set_arg(&shared);
            e.set_arg(&gen).set_arg(&sm).set_arg(&sc);
        }
        launch(&self.queue, &mut e, &self.tile_global(), Some(&[self.tile, self.tile, 1]), "clEnqueueNDRangeKernel(de_trial)")?;
        self.evaluate()
    }

    fn fitness(&mut self) -> Result<Vec<f64>> {
        Ok(fp_values(&self.fx.to_vec(&self.queue)?, self.cfg.options.double))
    }

    fn migrate(&mut self, moves: &[Move]) -> Result<()> {
        if moves.is_empty() {
            return Ok(());
        }
        let (np, nm, nn) = self.sizes();
        let flat: Vec<u32> = moves.iter().flat_map(|m| [m.src, m.dst, m.member]).collect();
        let buf = self.queue.buffer_from(&flat, "migration moves")?;
        let count = moves.len() as u32;
        let k = self.k()?;
        let mut e = ExecuteKernel::new(&k.migrate);
        // SAFETY: arguments match `de_migrate`; `buf` lives until the finish below.
        unsafe {
            e.set_arg(self.x.cl()).set_arg(self.fx.cl()).set_arg(buf.cl()).set_arg(&count);
            e.set_arg(&np).set_arg(&nm).set_arg(&nn);
        }
        launch(&self.queue, &mut e, &[moves.len(), nn as usize], None, "clEnqueueNDRangeKernel(de_migrate)")?;
        self.rank()?;
        self.queue.finish()
    }

    fn member(&mut self, p: u32, m: u32) -> Result<Vec<f64>> {
        let (np, nm, nn) = (self.cfg.np as usize, self.cfg.nm as usize, self.cfg.nn as usize);
        let x = fp_values(&self.x.to_vec(&self.queue)?, self.cfg.options.double);
        Ok((0..nn).map(|n| x[(n * (nm + 1) + m as usize) * np + p as usize]).collect())
    }

    fn trials(&mut self) -> Result<(Vec<f64>, Vec<f64>)> {
        let d = self.cfg.options.double;
        let y = fp_values(&self.y.to_vec(&self.queue)?, d);
        let fy = fp_values(&self.fy.to_vec(&self.queue)?, d);
        Ok((y_rows(&y, self.cfg.np as usize, self.cfg.nm as usize, self.cfg.nn as usize), fy))
    }

    fn set_func_data(&mut self, data: &[u8]) -> Result<()> {
        self.queue.finish()?;
        self.data = self.queue.buffer_from(if data.is_empty() { &[0u8; 8][..] } else { data }, "func-data")?;
        // The population's fitness came from the old data: evaluate every member again.
        self.evaluate_population()
    }

    fn sync(&mut self) -> Result<()> {
        self.queue.finish()
    }

    fn configure(&mut self, cfg: &Config) -> Result<()> {
        self.queue.finish()?;
        let crt: Vec<u64> = cfg.cr.iter().map(|&c| cr_threshold(c)).collect();
        self.f.write(&self.queue, &fp_bytes(&cfg.f, cfg.options.double))?;
        self.crt.write(&self.queue, &crt)?;
        self.cfg = cfg.clone();
        Ok(())
    }

    fn describe(&self) -> String {
        let i = &self.queue.ctx().info;
        format!("{} ({}), tile {}x{}", i.name, i.platform, self.tile, self.tile)
    }
}
