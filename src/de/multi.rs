//! Island DE over several OpenCL devices of one machine (issue 22, docs/SCALE.md "Island DE"):
//! [`MultiEngine`] holds one device engine per device, each with a contiguous block of the
//! islands (`crate::multi::blocks`), and is itself an [`Engine`], so [`DeMultiPop`] runs it
//! unchanged: every phase runs on all devices at once, one scoped host thread per device
//! (`crate::multi::run_blocks`), and a call returns once every device is done with it, which is
//! the barrier before each migration. The migration is planned on the host from every island's
//! values, on global island indices, exactly as on one device (`ops::plan_migration`); each
//! engine exports its islands' best rows (`de_export`), and the migrants are written into the
//! receiving engines (`de_import`), as `de_migrate` writes them on one device.
//!
//! Each engine's random numbers are keyed by the global island (`DeviceDe::block`: `de_init`,
//! `de_trial` and the fused `de_fused` take the block's first island and the global count), and
//! it holds its islands' F and CR, so for a seed the run equals the one-device run with the same
//! islands: the best value and vector and every island's best. The adaptive variants (JADE,
//! SHADE, L-SHADE, jSO) keep state across islands on the host and are refused (errors name
//! `devices`).

use super::config::{Config, DeParams, Mutation};
use super::device::DeviceDe;
use super::engine::{DeMultiPop, Engine};
use super::ops::Move;
use super::pace::Cut;
use crate::device::Backend;
use crate::error::{Error, Result};
use crate::multi::{blocks, check_devices, run_blocks};
use crate::objective::Objective;
use std::ops::Range;

/// Island DE engines, one per device, each with a block of the islands.
pub struct MultiEngine {
    cfg: Config,
    engines: Vec<Box<dyn Engine>>,
    ranges: Vec<Range<usize>>,
    /// The values of the last [`Engine::fitness`] while nothing has changed them since: the
    /// solver reads them to plan a migration just before [`Engine::migrate`], which then needs
    /// no second read.
    fx: Option<Vec<f64>>,
}

/// The migrants one block receives: (population, member) slots, their rows, their values.
type Migrants = (Vec<(u32, u32)>, Vec<f64>, Vec<f64>);

/// `cfg` restricted to the islands `r`: their count, F and CR.
fn slice(cfg: &Config, r: &Range<usize>) -> Config {
    let mut c = cfg.clone();
    c.np = r.len() as u32;
    c.f = cfg.f[r.clone()].to_vec();
    c.cr = cfg.cr[r.clone()].to_vec();
    c
}

fn refuse_adaptive(cfg: &Config) -> Result<()> {
    let alg = cfg.options.algorithm;
    if alg.adaptive() {
        return Err(Error::arg(
            "devices",
            format!("{alg} keeps its adaptive state on the host across the islands and runs on one device; give one device, or the algorithm de"),
        ));
    }
    Ok(())
}

impl MultiEngine {
    /// One engine per device of `devices` (checked: none twice, each exists), each with a
    /// contiguous block of `cfg`'s islands. More devices than islands and the adaptive variants
    /// are refused; errors name `devices`.
    pub fn new(cfg: &Config, devices: &[usize]) -> Result<Self> {
        check_devices(devices)?;
        refuse_adaptive(cfg)?;
        if devices.len() > cfg.np as usize {
            return Err(Error::arg(
                "devices",
                format!("{} devices for {} islands; give at most one device per island", devices.len(), cfg.np),
            ));
        }
        let ranges = blocks(cfg.np as usize, devices.len());
        let mut engines: Vec<Box<dyn Engine>> = Vec::with_capacity(devices.len());
        for (&d, r) in devices.iter().zip(&ranges) {
            engines.push(Box::new(DeviceDe::block(slice(cfg, r), Some(d), r.start as u32, cfg.np)?));
        }
        Ok(MultiEngine { cfg: cfg.clone(), engines, ranges, fx: None })
    }

    /// `f` on every engine with its block, one host thread per engine; the results in block
    /// order.
    fn each<R: Send>(&mut self, f: impl Fn(&mut Box<dyn Engine>, Range<usize>) -> Result<R> + Sync) -> Result<Vec<R>> {
        let mut units = vec![(); self.cfg.np as usize];
        run_blocks(&mut self.engines, &self.ranges, &mut units, |e, r, _| f(e, r))
    }

    /// The engine holding global island `p`, and `p` within it.
    fn locate(&self, p: u32) -> (usize, u32) {
        let i = self.ranges.iter().position(|r| r.contains(&(p as usize))).expect("an island of the blocks");
        (i, p - self.ranges[i].start as u32)
    }
}

impl Engine for MultiEngine {
    fn start(&mut self, objective: &Objective, mutation: Mutation, cut: Option<&Cut>) -> Result<Option<u64>> {
        self.fx = None;
        let made = self.each(|e, _| e.start(objective, mutation, cut))?;
        Ok(made.into_iter().try_fold(0u64, |a, m| m.map(|m| a + m)))
    }

    fn generation(&mut self, gen: u64, cut: Option<&Cut>) -> Result<u64> {
        self.fx = None;
        Ok(self.each(|e, _| e.generation(gen, cut))?.into_iter().sum())
    }

    fn fused(&self) -> bool {
        self.engines.iter().all(|e| e.fused())
    }

    fn generations(&mut self, gen: u64, count: u64) -> Result<()> {
        self.fx = None;
        // each engine waits for its device, so the call returns when every block is done
        self.each(|e, _| {
            e.generations(gen, count)?;
            e.sync()
        })
        .map(|_| ())
    }

    fn fitness(&mut self) -> Result<Vec<f64>> {
        if let Some(fx) = &self.fx {
            return Ok(fx.clone());
        }
        let fx = self.each(|e, _| e.fitness())?.concat();
        self.fx = Some(fx.clone());
        Ok(fx)
    }

    fn export_bests(&mut self) -> Result<Vec<f64>> {
        Ok(self.each(|e, _| e.export_bests())?.concat())
    }

    fn migrate(&mut self, moves: &[Move]) -> Result<()> {
        if moves.is_empty() {
            return Ok(());
        }
        let (nm, nn) = (self.cfg.nm as usize, self.cfg.nn as usize);
        // the values the plan was made from (no second read), and the best rows of the blocks
        // that send: the sources are best rows, which no move writes, so they are all read
        // before any import
        let fx = self.fitness()?;
        self.fx = None;
        let rows = self.each(|e, r| if moves.iter().any(|m| r.contains(&(m.src as usize))) { e.export_bests().map(Some) } else { Ok(None) })?;
        let mut per: Vec<Migrants> = vec![Default::default(); self.engines.len()];
        for mv in moves {
            let (i, dst) = self.locate(mv.dst);
            let (j, src) = self.locate(mv.src);
            let row = rows[j].as_ref().expect("the sending block's best rows");
            per[i].0.push((dst, mv.member));
            per[i].1.extend_from_slice(&row[src as usize * nn..(src as usize + 1) * nn]);
            per[i].2.push(fx[mv.src as usize * (nm + 1) + nm]);
        }
        let per = &per;
        let starts: Vec<usize> = self.ranges.iter().map(|r| r.start).collect();
        self.each(|e, r| {
            let i = starts.iter().position(|&q| q == r.start).expect("a block");
            let (slots, x, f) = &per[i];
            e.import(slots, x, f)
        })
        .map(|_| ())
    }

    fn import(&mut self, slots: &[(u32, u32)], x: &[f64], fx: &[f64]) -> Result<()> {
        self.fx = None;
        let nn = self.cfg.nn as usize;
        for (k, &(p, m)) in slots.iter().enumerate() {
            let (i, q) = self.locate(p);
            self.engines[i].import(&[(q, m)], &x[k * nn..(k + 1) * nn], &fx[k..k + 1])?;
        }
        Ok(())
    }

    fn shape(&self) -> (u32, u32) {
        (self.cfg.np, self.cfg.nm)
    }

    fn member(&mut self, p: u32, m: u32) -> Result<Vec<f64>> {
        let (i, q) = self.locate(p);
        self.engines[i].member(q, m)
    }

    fn trials(&mut self) -> Result<(Vec<f64>, Vec<f64>)> {
        let parts = self.each(|e, _| e.trials())?;
        let (mut y, mut fy) = (Vec::new(), Vec::new());
        for (a, b) in parts {
            y.extend(a);
            fy.extend(b);
        }
        Ok((y, fy))
    }

    fn set_func_data(&mut self, data: &[u8]) -> Result<()> {
        self.fx = None;
        self.each(|e, _| e.set_func_data(data)).map(|_| ())
    }

    fn sync(&mut self) -> Result<()> {
        self.each(|e, _| e.sync()).map(|_| ())
    }

    fn describe(&self) -> String {
        let parts: Vec<String> = self
            .engines
            .iter()
            .zip(&self.ranges)
            .map(|(e, r)| format!("islands {}..{} on {}", r.start, r.end, e.describe()))
            .collect();
        format!("{} devices: {}", self.engines.len(), parts.join("; "))
    }

    fn per_generation(&self) -> u64 {
        self.engines.iter().map(|e| e.per_generation()).sum()
    }

    fn configure(&mut self, cfg: &Config) -> Result<()> {
        self.fx = None;
        refuse_adaptive(cfg)?;
        let ranges = self.ranges.clone();
        for (e, r) in self.engines.iter_mut().zip(&ranges) {
            e.configure(&slice(cfg, r))?;
        }
        self.cfg = cfg.clone();
        Ok(())
    }
}

impl DeMultiPop {
    /// Island DE over several devices of one machine (`devices`: numbers of `metaopt devices`,
    /// none twice; errors name `devices`): a contiguous block of the islands per device, each
    /// with its own queue and host thread, the migration on the host every period on global
    /// island indices. For a seed the result equals the one-device run with the same islands.
    /// One device is [`DeMultiPop::new`] on it. The precision `Auto` is double when every
    /// device has `cl_khr_fp64`. The adaptive variants are refused (they run on one device).
    pub fn on_devices(params: &DeParams, devices: &[usize]) -> Result<Self> {
        check_devices(devices)?;
        if devices.len() == 1 {
            return DeMultiPop::new(params, Backend::Device(Some(devices[0])));
        }
        let mut fp64 = true;
        for &d in devices {
            fp64 &= Backend::Device(Some(d)).context("island DE")?.info.fp64;
        }
        let mut params = params.clone();
        params.options.precision = params.options.precision.resolve(params.options.double, fp64);
        let cfg = Config::new(&params)?;
        let engine = MultiEngine::new(&cfg, devices)?;
        Ok(DeMultiPop::with_engine(cfg, Box::new(engine)))
    }
}
