//! Island DE over several OpenCL devices of one machine (docs/specs/SCALE.md "Island DE"):
//! [`MultiEngine`] holds one device engine per device, each with a contiguous block of the
//! islands (`crate::multi::blocks`), and is itself an [`Engine`], so [`DeMultiPop`] runs it
//! unchanged: every phase runs on all devices at once, one host thread per device
//! (`crate::multi::run_blocks`); the launches are enqueued without a wait. The migration is
//! planned on the host on global island indices, exactly as on one device: One2One, One2N and
//! PermuteN from the random numbers alone (`ops::plan_blind`, each receiver's worst member found
//! on its device), so only the migrants that cross between devices travel: each sender's engine
//! exports their best rows (`de_export`, a read of a few rows, which is the only wait), and the
//! receiving engines import them (`de_import`), as `de_migrate` writes the moves within one
//! device. The other kinds are planned from every island's best value and worst members (the
//! engines' views, `de_view`, read with the generations before them), as `ops::plan_migration`.
//!
//! Each engine's random numbers are keyed by the global island (`DeviceDe::block`: `de_init`,
//! `de_trial` and the fused `de_fused` take the block's first island and the global count), and
//! it holds its islands' F and CR, so for a seed the run equals the one-device run with the same
//! islands: the best value and vector and every island's best.
//!
//! The adaptive variants split the same way: JADE, SHADE, L-SHADE and jSO run in the
//! fused kernel `ade_fused`, jDE100 in `jde_fused`, both keyed by the global island, with each
//! island's state (memories, archive, counters, per-member F and CR) in the buffers of the
//! device that holds it; the engines' results (values, bests, trials, active members and
//! evaluations, `jde_state`) are concatenated in block order. What cannot split is refused:
//! JADE, SHADE, L-SHADE and jSO with `fused = false` (naming `fused`) or a host callback
//! objective (naming `objective`), and on devices whose work-group cannot hold an island
//! (naming `devices`): each of those takes the host-planned path (`adapt.rs`), whose plans are
//! keyed by the islands of one engine, not the global ones. jDE100 refuses both on one device
//! too.
//!
//! Across processes (MPI ranks, one per machine), each process holds a
//! contiguous block of the global islands (`blocks(Np, processes)`, process k the k-th) on its
//! devices, as a `MultiEngine` over that block ([`MultiEngine::across`],
//! [`DeMultiPop::across`]), and trades with the others through a caller's [`IslandExchange`]
//! (the library never links MPI: the CLI's `--mpi` implements it over rsmpi, a test over
//! threads and channels). Every process runs the same `DeMultiPop` loop on the same global
//! island indices: the values every solver step reads are all-gathered (process order is
//! global island order), so every process plans the same migration moves; the senders' best
//! rows are all-gathered, and each process imports the migrants of its own islands. The stop
//! conditions are decided together ([`Engine::agree`]): a generation budget is the same
//! everywhere, and at every step of the run the processes stop when any one is interrupted or
//! past its time limit, and launch the fewest generations any one would. For a seed the run
//! equals the one-device run with the same islands.
use super::config::{Algorithm, Config, DeParams};
use super::device::DeviceDe;
use super::engine::view_from_values;
use super::engine::{DeMultiPop, Engine, EngineState, Pace, Start};
use super::jde::JdeState;
use super::ops::{MigrationView, Move};
use super::pace::Cut;
use crate::device::Backend;
use crate::error::{Error, Result};
use crate::multi::{blocks, check_devices, run_blocks};
use crate::objective::Objective;
use std::ops::Range;

/// How the processes of island DE across processes trade data ([`DeMultiPop::across`]): the
/// caller's transport (MPI ranks in the CLI's `--mpi`, threads with channels in a test), so the
/// library depends on none.
///
/// Every process of a run calls [`IslandExchange::all_gather`] the same number of times, in
/// the same order (the solver's loop is the same on every process, and all its decisions are
/// made from gathered values). A process whose call fails returns the error; an implementation
/// must then end the calls of the others too, never leave them waiting (the CLI aborts the MPI
/// job, a closed channel ends a test's threads).
pub trait IslandExchange: Send {
    /// The number of processes of the run (at least 1).
    fn processes(&self) -> usize;
    /// This process's index, `0..processes()`: it holds the islands
    /// `crate::multi::blocks(Np, processes())[process()]`.
    fn process(&self) -> usize;
    /// Every process's `local` concatenated in process order, returned on every process (MPI's
    /// `Allgatherv`). `counts[q]` is the length of process q's part, known to every process
    /// (`local.len() == counts[process()]`), so a transport needs no exchange of lengths.
    fn all_gather(&mut self, local: &[f64], counts: &[usize]) -> Result<Vec<f64>>;
}

/// The step every process takes (see [`Engine::agree`]): stop when any is interrupted or
/// late, the fewest generations any would launch, a checkpoint when any is due (so all write
/// theirs at the same generation). One gather of four values per process.
pub fn agree(exchange: &mut dyn IslandExchange, mine: Pace) -> Result<Pace> {
    let n = exchange.processes();
    let all = exchange.all_gather(
        &[
            mine.interrupted as u8 as f64,
            mine.late as u8 as f64,
            mine.count as f64,
            mine.checkpoint as u8 as f64,
        ],
        &vec![4; n],
    )?;
    if all.is_empty() || all.len() % 4 != 0 {
        return Err(Error::arg(
            "exchange",
            format!("gathered {} values, not 4 per process", all.len()),
        ));
    }
    let w: Vec<&[f64]> = all.chunks_exact(4).collect();
    Ok(Pace {
        interrupted: w.iter().any(|w| w[0] != 0.0),
        late: w.iter().any(|w| w[1] != 0.0),
        count: w.iter().map(|w| w[2] as u64).min().unwrap_or(1).max(1),
        checkpoint: w.iter().any(|w| w[3] != 0.0),
    })
}

/// Island DE engines, one per device, each with a block of the islands: of all the islands,
/// or across processes of this process's block of them.
pub struct MultiEngine {
    /// The configuration of every island (global).
    cfg: Config,
    engines: Vec<Box<dyn Engine>>,
    /// The global islands of each engine.
    ranges: Vec<Range<usize>>,
    /// The global islands of this process (all of them without an exchange).
    islands: Range<usize>,
    /// The values of the last [`Engine::fitness`] (of every island) while nothing has changed
    /// them since: the solver reads them to plan a migration just before [`Engine::migrate`],
    /// which then needs no second read.
    fx: Option<Vec<f64>>,
    /// The last [`Engine::migration_view`] (with the best rows), likewise: [`Engine::migrate`]
    /// takes the migrants from it.
    view: Option<MigrationView>,
    /// Every device's queue is known to be empty (nothing enqueued since the last wait), so
    /// [`Engine::sync`] has nothing to wait for.
    synced: bool,
    /// The worst members per island the migration after the next [`Engine::generations`]
    /// reads (`Engine::next_migration`), or None when no migration follows: then the
    /// generations end with a plain wait instead of the view's read.
    next_worst: Option<usize>,
    /// The other processes, across processes.
    exchange: Option<Box<dyn IslandExchange>>,
    /// A generation cut midway: the trials each engine evaluated and selected
    /// ([`Engine::resume_generation`] completes each engine's from its own).
    cut_done: Option<Vec<u64>>,
}

/// The engines' views in block order, as one view of their islands.
fn concat_views(parts: impl IntoIterator<Item = MigrationView>) -> MigrationView {
    let mut v = MigrationView::default();
    for (i, p) in parts.into_iter().enumerate() {
        if i == 0 {
            v.k = p.k;
        }
        debug_assert_eq!(v.k, p.k, "engines of one run see the same k");
        v.best.extend(p.best);
        v.worst.extend(p.worst);
        v.rows.extend(p.rows);
    }
    v
}

/// The migrants one block receives: (population, member) slots, their rows, their values.
type Migrants = (Vec<(u32, u32)>, Vec<f64>, Vec<f64>);

/// A migrant crossing between engines, as its receiver sees it: the sending engine, the
/// migrant's index in that engine's export, and the receiving slot (population, member).
type Arrival = (usize, usize, (u32, u32));

/// `cfg` restricted to the islands `r`: their count, F, CR and dither widths.
fn slice(cfg: &Config, r: &Range<usize>) -> Config {
    let mut c = cfg.clone();
    c.np = r.len() as u32;
    c.f = cfg.f[r.clone()].to_vec();
    c.cr = cfg.cr[r.clone()].to_vec();
    c.fd = cfg.fd[r.clone()].to_vec();
    c
}

/// What the adaptive variants cannot do across devices or processes. JADE, SHADE, L-SHADE and
/// jSO split over blocks only on the fused path (`ade_fused`, keyed by the global island, its
/// state per island in each device's buffers); the host-planned path (`adapt.rs`, taken with
/// `fused = false` or a host callback objective) keys each generation's plan by the islands of
/// its own engine (`(g Np' + p') << 32` over the block's Np'), so blocks would not draw what one
/// device draws. jDE100 refuses `fused = false` on every device (`DeviceDe::build`). `split`:
/// the islands are split at all (one engine holding every island, a run of one process on one
/// device, draws as one device does).
fn refuse_unfused(cfg: &Config, split: bool) -> Result<()> {
    let alg = cfg.options.algorithm;
    if split && alg.planned() && !cfg.options.fused {
        return Err(Error::arg(
            "fused",
            format!(
                "{alg} on several devices or processes runs only in the fused kernel, whose random numbers are keyed by the global island; unfused it is planned on the host, keyed by each device's own islands, and would not be the one-device run; leave the fused kernel on, or give one device"
            ),
        ));
    }
    Ok(())
}

/// A host callback objective for JADE, SHADE, L-SHADE or jSO: on a device they then take the
/// host-planned path (see `refuse_unfused`).
fn refuse_callback(cfg: &Config, objective: &Objective, split: bool) -> Result<()> {
    let alg = cfg.options.algorithm;
    if split && alg.planned() && matches!(objective, Objective::Callback(_)) {
        return Err(Error::arg(
            "objective",
            format!(
                "a host callback; {alg} on several devices or processes runs only in the fused kernel, which needs a compiled objective (a catalogue function or OpenCL source): with a callback it is planned on the host, keyed by each device's own islands, and would not be the one-device run; give one device, or a compiled objective"
            ),
        ));
    }
    Ok(())
}

impl MultiEngine {
    /// Records a generation cut on some engines: what each did, unless all completed theirs.
    fn note_cut(&mut self, done: &[u64]) {
        let cut = self
            .engines
            .iter()
            .zip(done)
            .any(|(e, &d)| d < e.per_generation());
        self.cut_done = cut.then(|| done.to_vec());
    }

    /// One engine per device of `devices` (checked: none twice, each exists), each with a
    /// contiguous block of `cfg`'s islands. More devices than islands are refused (errors name
    /// `devices`), and so are JADE, SHADE, L-SHADE and jSO with `fused = false` (naming
    /// `fused`: see `refuse_unfused`).
    pub fn new(cfg: &Config, devices: &[usize]) -> Result<Self> {
        Self::block(cfg, 0..cfg.np as usize, devices, None)
    }

    /// This process's block of `cfg`'s islands (`blocks(Np, processes)[process]` of
    /// `exchange`) on `devices`, a contiguous block of it per device, trading with the other
    /// processes through `exchange` ([`IslandExchange`]). More processes than islands are
    /// refused (errors name `processes`), more devices than this process's islands and the
    /// adaptive variants with `fused = false` (naming `fused`), as [`MultiEngine::new`].
    pub fn across(
        cfg: &Config,
        devices: &[usize],
        exchange: Box<dyn IslandExchange>,
    ) -> Result<Self> {
        let (k, n) = (exchange.process(), exchange.processes());
        if n == 0 || k >= n {
            return Err(Error::arg(
                "processes",
                format!("process {k} of {n}; expected 0 <= process < processes"),
            ));
        }
        if n > cfg.np as usize {
            return Err(Error::arg(
                "processes",
                format!(
                    "{n} processes for {} islands; give at most one process per island",
                    cfg.np
                ),
            ));
        }
        let islands = blocks(cfg.np as usize, n).swap_remove(k);
        Self::block(cfg, islands, devices, Some(exchange))
    }

    fn block(
        cfg: &Config,
        islands: Range<usize>,
        devices: &[usize],
        exchange: Option<Box<dyn IslandExchange>>,
    ) -> Result<Self> {
        check_devices(devices)?;
        refuse_unfused(cfg, devices.len() > 1 || islands.len() < cfg.np as usize)?;
        if devices.len() > islands.len() {
            return Err(Error::arg(
                "devices",
                format!(
                    "{} devices for {} islands; give at most one device per island",
                    devices.len(),
                    islands.len()
                ),
            ));
        }
        let ranges: Vec<Range<usize>> = blocks(islands.len(), devices.len())
            .into_iter()
            .map(|r| r.start + islands.start..r.end + islands.start)
            .collect();
        let mut engines: Vec<Box<dyn Engine>> = Vec::with_capacity(devices.len());
        for (&d, r) in devices.iter().zip(&ranges) {
            engines.push(Box::new(DeviceDe::block(
                slice(cfg, r),
                Some(d),
                r.start as u32,
                cfg.np,
            )?));
        }
        Ok(MultiEngine {
            cfg: cfg.clone(),
            engines,
            ranges,
            islands,
            fx: None,
            view: None,
            synced: false,
            next_worst: None,
            exchange,
            cut_done: None,
        })
    }

    /// `f` on every engine with its block (global islands), one host thread per engine; the
    /// results in block order.
    fn each<R: Send>(
        &mut self,
        f: impl Fn(&mut Box<dyn Engine>, Range<usize>) -> Result<R> + Sync,
    ) -> Result<Vec<R>> {
        let off = self.islands.start;
        let local: Vec<Range<usize>> = self
            .ranges
            .iter()
            .map(|r| r.start - off..r.end - off)
            .collect();
        let mut units = vec![(); self.islands.len()];
        run_blocks(&mut self.engines, &local, &mut units, |e, r, _| {
            f(e, r.start + off..r.end + off)
        })
    }

    /// Every process's `local` in process order (this process's alone without an exchange):
    /// `per` values for each island of its block, or with `owner` (a global island) the
    /// holder's `per` values alone.
    fn gather(&mut self, local: Vec<f64>, per: usize, owner: Option<u32>) -> Result<Vec<f64>> {
        let np = self.cfg.np as usize;
        match &mut self.exchange {
            Some(x) => {
                let counts: Vec<usize> = blocks(np, x.processes())
                    .into_iter()
                    .map(|r| match owner {
                        Some(p) => per * r.contains(&(p as usize)) as usize,
                        None => per * r.len(),
                    })
                    .collect();
                x.all_gather(&local, &counts)
            }
            None => Ok(local),
        }
    }

    /// Forgets the values read since the last change of the populations.
    fn forget(&mut self) {
        self.fx = None;
        self.view = None;
        self.synced = false;
    }

    /// The engine holding global island `p` (one of this process's), and `p` within it.
    fn locate(&self, p: u32) -> (usize, u32) {
        let i = self
            .ranges
            .iter()
            .position(|r| r.contains(&(p as usize)))
            .expect("an island of the blocks");
        (i, p - self.ranges[i].start as u32)
    }

    /// Whether the islands are split over engines or processes (one engine with every island
    /// draws what one device draws, on any path).
    fn split(&self) -> bool {
        self.engines.len() > 1 || self.islands.len() < self.cfg.np as usize
    }

    /// `moves` on the engines of one process with no view read (a blind plan, `ops::plan_blind`,
    /// or moves given by the caller): each engine first exports the best rows of its islands
    /// that send to another engine (`de_export`, one read of a few rows), then applies the moves
    /// between its own islands on its device (`de_migrate`), then takes the migrants from the
    /// others (`de_import`). The exports read the best rows as they were before the migration
    /// (a migrant may improve a receiver's best), as one device's `de_migrate` reads them.
    fn migrate_blocks(&mut self, moves: &[Move]) -> Result<()> {
        let n = self.engines.len();
        let at = |p: u32| {
            self.ranges
                .iter()
                .position(|r| r.contains(&(p as usize)))
                .expect("an island of the blocks")
        };
        // per engine: its moves within (local indices), its islands sent out, and per
        // (receiving engine) the migrants: (sender's engine, index in its export, slot)
        let mut within: Vec<Vec<Move>> = vec![Vec::new(); n];
        let mut out: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut exported_at: Vec<std::collections::HashMap<u32, usize>> =
            vec![Default::default(); n];
        let mut incoming: Vec<Vec<Arrival>> = vec![Vec::new(); n];
        for mv in moves {
            let (i, j) = (at(mv.src), at(mv.dst));
            let (s, d) = (
                mv.src - self.ranges[i].start as u32,
                mv.dst - self.ranges[j].start as u32,
            );
            if i == j {
                within[i].push(Move {
                    src: s,
                    dst: d,
                    member: mv.member,
                });
            } else {
                let k = *exported_at[i].entry(s).or_insert_with(|| {
                    out[i].push(s);
                    out[i].len() - 1
                });
                incoming[j].push((i, k, (d, mv.member)));
            }
        }
        self.forget();
        let starts: Vec<usize> = self.ranges.iter().map(|r| r.start).collect();
        let index = |r: &Range<usize>| starts.iter().position(|&q| q == r.start).expect("a block");
        let (within, out) = (&within, &out);
        let exported = self.each(|e, r| {
            let i = index(&r);
            let rows = if out[i].is_empty() {
                (Vec::new(), Vec::new())
            } else {
                e.best_rows(&out[i])?
            };
            if !within[i].is_empty() {
                e.migrate(&within[i])?;
            }
            Ok(rows)
        })?;
        let nn = self.cfg.nn as usize;
        let (exported, incoming) = (&exported, &incoming);
        self.each(|e, r| {
            let mine = &incoming[index(&r)];
            if mine.is_empty() {
                return Ok(());
            }
            let slots: Vec<(u32, u32)> = mine.iter().map(|m| m.2).collect();
            let x: Vec<f64> = mine
                .iter()
                .flat_map(|&(i, k, _)| exported[i].0[k * nn..(k + 1) * nn].iter().copied())
                .collect();
            let fx: Vec<f64> = mine.iter().map(|&(i, k, _)| exported[i].1[k]).collect();
            e.import(&slots, &x, &fx)
        })
        .map(|_| ())
    }

    /// JADE, SHADE, L-SHADE and jSO need every block on the fused path (`ade_fused`); `all`
    /// says whether every device (of every process) runs it. A device whose work-group cannot
    /// hold an island would plan its generations on the host (see `refuse_unfused`).
    fn refuse_unfused_devices(&self, all: bool) -> Result<()> {
        let alg = self.cfg.options.algorithm;
        if self.split() && alg.planned() && !all {
            return Err(Error::arg(
                "devices",
                format!(
                    "{alg} on several devices or processes runs only in the fused kernel, and a device of this run cannot hold an island of {} members in one work-group (its generations would be planned on the host, keyed by that device's own islands); give devices that fuse, fewer members, or one device",
                    self.cfg.nm
                ),
            ));
        }
        Ok(())
    }
}

impl Engine for MultiEngine {
    fn start(&mut self, s: &Start<'_>) -> Result<Option<u64>> {
        self.forget();
        refuse_callback(&self.cfg, s.objective, self.split())?;
        if s.constraints.is_some() {
            return Err(Error::arg(
                "constraints",
                "island DE over several devices or processes does not take constraints; run on one device or the CPU backend",
            ));
        }
        if self.exchange.is_some() {
            // across processes the phases are whole (a cut due on one process and not on
            // another would part them); every process makes its islands, and all learn whether
            // every device of every process runs the fused kernel
            let made: u64 = self
                .each(|e, _| e.start(&Start { cut: None, ..*s }))?
                .into_iter()
                .map(|m| m.unwrap_or(0))
                .sum();
            let fused = self.fused();
            let n = self.exchange.as_ref().map_or(1, |x| x.processes());
            let all = self
                .exchange
                .as_mut()
                .expect("an exchange")
                .all_gather(&[made as f64, fused as u8 as f64], &vec![2; n])?;
            self.refuse_unfused_devices(all.chunks_exact(2).all(|w| w[1] != 0.0))?;
            return Ok(Some(all.chunks_exact(2).map(|w| w[0] as u64).sum()));
        }
        let made = self.each(|e, _| e.start(s))?;
        self.refuse_unfused_devices(self.fused())?;
        Ok(made.into_iter().try_fold(0u64, |a, m| m.map(|m| a + m)))
    }

    fn generation(&mut self, gen: u64, cut: Option<&Cut>) -> Result<u64> {
        self.forget();
        self.cut_done = None;
        if self.exchange.is_some() {
            // whole, as `start`: the run's time limit is asked between generations (`agree`)
            self.each(|e, _| e.generation(gen, None))?;
            return Ok(self.per_generation());
        }
        let done = self.each(|e, _| e.generation(gen, cut))?;
        self.note_cut(&done);
        Ok(done.into_iter().sum())
    }

    fn resume_generation(&mut self, gen: u64, _from: u64, cut: Option<&Cut>) -> Result<u64> {
        self.forget();
        let Some(done) = self.cut_done.take() else {
            return self.generation(gen, cut);
        };
        if done.len() != self.engines.len() {
            return Err(super::state::corrupt("cut generation's blocks"));
        }
        let starts: Vec<usize> = self.ranges.iter().map(|r| r.start).collect();
        let (done, starts) = (&done, &starts);
        let now = self.each(|e, r| {
            let d = done[starts.iter().position(|&q| q == r.start).expect("a block")];
            if d >= e.per_generation() {
                Ok(d)
            } else if d == 0 {
                // cut while its trials were made: made afresh
                e.generation(gen, cut)
            } else {
                e.resume_generation(gen, d, cut)
            }
        })?;
        self.note_cut(&now);
        Ok(now.into_iter().sum())
    }

    fn save(&mut self, trials: bool) -> Result<EngineState> {
        let mut engines = Vec::with_capacity(self.engines.len());
        for e in &mut self.engines {
            engines.push(e.save(trials)?);
        }
        Ok(EngineState::Blocks {
            engines,
            cut: self.cut_done.clone(),
        })
    }

    fn restore(&mut self, state: EngineState) -> Result<()> {
        let n = self.engines.len();
        let EngineState::Blocks { engines, cut } = state else {
            return Err(super::state::refused(&format!("{n} devices"), &state));
        };
        if engines.len() != n || cut.as_ref().is_some_and(|c| c.len() != n) {
            return Err(super::state::refused(
                &format!("{n} devices"),
                &EngineState::Blocks { engines, cut },
            ));
        }
        self.forget();
        for (e, s) in self.engines.iter_mut().zip(engines) {
            e.restore(s)?;
        }
        self.cut_done = cut;
        Ok(())
    }

    fn population(&mut self) -> Result<Vec<f64>> {
        let local = self.each(|e, _| e.population())?.concat();
        let per = self.cfg.nm as usize * self.cfg.nn as usize;
        self.gather(local, per, None)
    }

    fn set_population(&mut self, x: &[f64]) -> Result<()> {
        self.forget();
        self.cut_done = None;
        let per = self.cfg.nm as usize * self.cfg.nn as usize;
        if x.len() != self.cfg.np as usize * per {
            return Err(Error::arg(
                "population",
                format!(
                    "{} values; expected {}",
                    x.len(),
                    self.cfg.np as usize * per
                ),
            ));
        }
        self.each(|e, r| e.set_population(&x[r.start * per..r.end * per]))
            .map(|_| ())
    }

    fn devices(&self) -> usize {
        self.engines.len()
    }

    fn process(&self) -> (usize, usize) {
        self.exchange
            .as_ref()
            .map_or((0, 1), |x| (x.process(), x.processes()))
    }

    fn fused(&self) -> bool {
        self.engines.iter().all(|e| e.fused())
    }

    fn generations(&mut self, gen: u64, count: u64) -> Result<()> {
        self.forget();
        // The launches are enqueued on every device, no wait. Where a migration that reads a
        // view follows (`next_migration`), each engine also reads its view (one worst member,
        // the best rows: a few bytes per island) in the same call, since the fused path's
        // launches end where a migration is due: the migration then costs no further wait but
        // for the import. (several worst members, or across processes, the view is read from
        // every value; a blind migration reads none, `migrate`)
        let eager = self.exchange.is_none() && self.next_worst == Some(1);
        let views = self.each(|e, _| {
            e.generations(gen, count)?;
            if eager {
                e.migration_view(1, true).map(Some)
            } else {
                Ok(None)
            }
        })?;
        if eager {
            self.view = Some(concat_views(views.into_iter().flatten()));
            self.synced = true;
        }
        Ok(())
    }

    fn next_migration(&mut self, worst: Option<usize>) {
        self.next_worst = worst;
    }

    fn fitness(&mut self) -> Result<Vec<f64>> {
        if let Some(fx) = &self.fx {
            return Ok(fx.clone());
        }
        let local = self.each(|e, _| e.fitness())?.concat();
        let fx = self.gather(local, self.cfg.nm as usize + 1, None)?;
        self.fx = Some(fx.clone());
        Ok(fx)
    }

    fn moments(&mut self, nm: usize) -> Result<Vec<f64>> {
        let local = self.each(|e, _| e.moments(nm))?.concat();
        self.gather(local, 2, None)
    }

    fn export_bests(&mut self) -> Result<Vec<f64>> {
        let local = self.each(|e, _| e.export_bests())?.concat();
        self.gather(local, self.cfg.nn as usize, None)
    }

    fn migration_view(&mut self, k: usize, _rows: bool) -> Result<MigrationView> {
        // the view read with the last generations (`generations`), while nothing changed since
        if let Some(v) = self
            .view
            .as_ref()
            .filter(|v| v.k >= k && !v.rows.is_empty())
        {
            return Ok(v.clone());
        }
        // with the best rows always: `migrate` takes the migrants from them
        let v = if self.exchange.is_some() || k > 1 {
            // across processes from every value and every best row, all-gathered, so every
            // process plans the same moves
            view_from_values(self, k, true)?
        } else {
            // each engine's own view (a few values per island), in block order
            concat_views(self.each(|e, _| e.migration_view(k, true))?)
        };
        self.view = Some(v.clone());
        Ok(v)
    }

    fn migrate(&mut self, moves: &[Move]) -> Result<()> {
        // the same plan on every process: all return here, or all trade below
        if moves.is_empty() {
            return Ok(());
        }
        let nn = self.cfg.nn as usize;
        if self.view.is_none() && self.exchange.is_none() {
            return self.migrate_blocks(moves);
        }
        // the view the plan was made from (no second read): the senders' best values and rows
        // (the sources are best rows, which no move writes)
        let view = match self.view.take() {
            Some(v) => v,
            None => self.migration_view(1, true)?,
        };
        self.forget();
        let mut per: Vec<Migrants> = vec![Default::default(); self.engines.len()];
        for mv in moves
            .iter()
            .filter(|m| self.islands.contains(&(m.dst as usize)))
        {
            let (i, dst) = self.locate(mv.dst);
            let s = mv.src as usize;
            per[i].0.push((dst, mv.member));
            per[i].1.extend_from_slice(&view.rows[s * nn..(s + 1) * nn]);
            per[i].2.push(view.best[s]);
        }
        let per = &per;
        let starts: Vec<usize> = self.ranges.iter().map(|r| r.start).collect();
        self.each(|e, r| {
            let i = starts.iter().position(|&q| q == r.start).expect("a block");
            let (slots, x, f) = &per[i];
            if slots.is_empty() {
                return Ok(());
            }
            e.import(slots, x, f)
        })
        .map(|_| ())
    }

    fn import(&mut self, slots: &[(u32, u32)], x: &[f64], fx: &[f64]) -> Result<()> {
        self.forget();
        let nn = self.cfg.nn as usize;
        // global slots: this process's islands take theirs
        for (k, &(p, m)) in slots
            .iter()
            .enumerate()
            .filter(|(_, &(p, _))| self.islands.contains(&(p as usize)))
        {
            let (i, q) = self.locate(p);
            self.engines[i].import(&[(q, m)], &x[k * nn..(k + 1) * nn], &fx[k..k + 1])?;
        }
        Ok(())
    }

    fn shape(&self) -> (u32, u32) {
        (self.cfg.np, self.cfg.nm)
    }

    fn member(&mut self, p: u32, m: u32) -> Result<Vec<f64>> {
        // across processes every process asks for the same member: its holder's row goes to all
        let row = if self.islands.contains(&(p as usize)) {
            let (i, q) = self.locate(p);
            self.engines[i].member(q, m)?
        } else {
            Vec::new()
        };
        self.gather(row, self.cfg.nn as usize, Some(p))
    }

    fn trials(&mut self) -> Result<(Vec<f64>, Vec<f64>)> {
        let parts = self.each(|e, _| e.trials())?;
        let (mut y, mut fy) = (Vec::new(), Vec::new());
        for (a, b) in parts {
            y.extend(a);
            fy.extend(b);
        }
        let nm = self.cfg.nm as usize;
        Ok((
            self.gather(y, nm * self.cfg.nn as usize, None)?,
            self.gather(fy, nm, None)?,
        ))
    }

    fn set_func_data(&mut self, data: &[u8]) -> Result<()> {
        self.forget();
        self.each(|e, _| e.set_func_data(data)).map(|_| ())
    }

    fn sync(&mut self) -> Result<()> {
        if self.synced {
            return Ok(());
        }
        self.each(|e, _| e.sync())?;
        self.synced = true;
        Ok(())
    }

    fn describe(&self) -> String {
        let parts: Vec<String> = self
            .engines
            .iter()
            .zip(&self.ranges)
            .map(|(e, r)| format!("islands {}..{} on {}", r.start, r.end, e.describe()))
            .collect();
        let here = if self.engines.len() == 1 {
            parts[0].clone()
        } else {
            format!("{} devices: {}", self.engines.len(), parts.join("; "))
        };
        match &self.exchange {
            Some(x) => format!("process {} of {}: {here}", x.process(), x.processes()),
            None => here,
        }
    }

    fn per_generation(&self) -> u64 {
        self.per_generations(1)
    }

    fn per_generations(&self, count: u64) -> u64 {
        let here: u64 = self.engines.iter().map(|e| e.per_generations(count)).sum();
        if self.exchange.is_some() {
            // every island makes the same evaluations a generation (Nm; L-SHADE's and jSO's
            // active members, which follow the budget alone; a jDE100 cycle's), so this
            // process's islands tell the whole run's
            return here / self.islands.len() as u64 * self.cfg.np as u64;
        }
        here
    }

    fn jde_state(&mut self) -> Result<Vec<JdeState>> {
        let local = self.each(|e, _| e.jde_state())?.concat();
        if self.exchange.is_none() {
            return Ok(local);
        }
        if self.cfg.options.algorithm != Algorithm::Jde100 {
            return Ok(Vec::new());
        }
        // every process's counters in island order (counts stay far below 2^53: exact in f64)
        let words: Vec<f64> = local
            .iter()
            .flat_map(|s| s.words())
            .map(|w| w as f64)
            .collect();
        let all = self.gather(words, 4, None)?;
        Ok(all
            .chunks_exact(4)
            .map(|w| JdeState::from_words(&w.iter().map(|&v| v as u64).collect::<Vec<u64>>()))
            .collect())
    }

    fn configure(&mut self, cfg: &Config) -> Result<()> {
        self.forget();
        refuse_unfused(cfg, self.split())?;
        let ranges = self.ranges.clone();
        for (e, r) in self.engines.iter_mut().zip(&ranges) {
            e.configure(&slice(cfg, r))?;
        }
        self.cfg = cfg.clone();
        Ok(())
    }

    fn agree(&mut self, mine: Pace) -> Result<Pace> {
        match &mut self.exchange {
            Some(x) => agree(x.as_mut(), mine),
            None => Ok(mine),
        }
    }
}

impl DeMultiPop {
    /// Island DE over several devices of one machine (`devices`: numbers of `metaopt devices`,
    /// none twice; errors name `devices`): a contiguous block of the islands per device, each
    /// with its own queue and host thread, the migration on the host every period on global
    /// island indices. For a seed the result equals the one-device run with the same islands.
    /// One device is [`DeMultiPop::new`] on it. The precision `Auto` is double when every
    /// device has `cl_khr_fp64`. The adaptive variants split too (JADE, SHADE, L-SHADE and jSO
    /// on the fused path only: `fused = false` is refused naming `fused`, a host callback
    /// objective at `init` naming `objective`); jDE100's `jde_state` is every island's, in
    /// global order.
    pub fn on_devices(params: &DeParams, devices: &[usize]) -> Result<Self> {
        check_devices(devices)?;
        if devices.len() == 1 {
            return DeMultiPop::new(params, Backend::Device(Some(devices[0])));
        }
        let mut fp64 = true;
        for &d in devices {
            fp64 &= Backend::Device(Some(d)).context("island DE")?.info.fp64;
        }
        let cfg = Config::resolved(params, fp64)?;
        let engine = MultiEngine::new(&cfg, devices)?;
        Ok(DeMultiPop::with_engine(cfg, Box::new(engine)))
    }
}

impl DeMultiPop {
    /// Island DE across processes (MPI ranks, one per machine; see
    /// [`IslandExchange`]): this process runs its block of the islands
    /// (`metaopt::multi::blocks(Np, processes)[process]`) on `devices` (a block of it per
    /// device, as [`DeMultiPop::on_devices`]) and trades with the others through `exchange`.
    /// Every process passes the same `params`, objective, mutation, migration and stop
    /// conditions, and calls the same methods in the same order: `run`, `bests_fitness`,
    /// `fitness`, `best`, `x` and `trials` return every island's (gathered), the same on every
    /// process. For a seed, a run of fixed generations equals the one-device run with the same
    /// islands: the best value, vector and island, every island's best and every member's value.
    /// A time limit or stop token is decided together between generations (or fused launches):
    /// a generation is never cut across processes, and all stop at the same generation. The
    /// precision `Auto` is double when every device of every process has `cl_khr_fp64`. Errors:
    /// processes whose islands, members, dimensions or seeds differ (naming `exchange`, on every
    /// process), more processes than islands (naming `processes`), and those of `on_devices`
    /// (naming `devices`, or `fused` for JADE, SHADE, L-SHADE and jSO with `fused = false`).
    /// jDE100's [`DeMultiPop::jde_state`] gathers every island's counters, so every process
    /// calls it together.
    pub fn across(
        params: &DeParams,
        devices: &[usize],
        mut exchange: Box<dyn IslandExchange>,
    ) -> Result<Self> {
        check_devices(devices)?;
        refuse_unfused(
            &Config::new(params)?,
            exchange.processes() > 1 || devices.len() > 1,
        )?;
        let mut fp64 = true;
        for &d in devices {
            fp64 &= Backend::Device(Some(d)).context("island DE")?.info.fp64;
        }
        // one precision on every process, and the same sizes and seeds everywhere (processes that
        // differ would part at their first exchange): every process sees every one's, so all
        // refuse together
        let o = &params.options;
        let mine = [
            fp64 as u8 as f64,
            params.islands as f64,
            params.members as f64,
            params.dims as f64,
        ]
        .into_iter()
        .chain(
            [
                o.init_seed,
                o.mutation_seed,
                o.crossover_seed,
                o.migration_seed,
            ]
            .map(f64::from_bits),
        )
        .collect::<Vec<f64>>();
        let n = exchange.processes();
        let all = exchange.all_gather(&mine, &vec![mine.len(); n])?;
        if all.len() != mine.len() * n {
            return Err(Error::arg(
                "exchange",
                format!(
                    "gathered {} values, not {} per process",
                    all.len(),
                    mine.len()
                ),
            ));
        }
        let rows: Vec<&[f64]> = all.chunks_exact(mine.len()).collect();
        if let Some(q) = rows.iter().position(|r| {
            r[1..]
                .iter()
                .map(|v| v.to_bits())
                .ne(rows[0][1..].iter().map(|v| v.to_bits()))
        }) {
            return Err(Error::arg(
                "exchange",
                format!("process {q}'s islands, members, dimensions or seeds differ from process 0's; every process passes the same parameters"),
            ));
        }
        let fp64 = rows.iter().all(|r| r[0] != 0.0);
        let cfg = Config::resolved(params, fp64)?;
        let engine = MultiEngine::across(&cfg, devices, exchange)?;
        Ok(DeMultiPop::with_engine(cfg, Box::new(engine)))
    }
}
