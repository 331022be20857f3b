//! Checkpoints and warm starts of island DE: the whole state of a [`DeMultiPop`] (its engine's
//! populations, values and adaptive state, the counters, the run in progress) as checkpoint bytes
//! (`crate::run::checkpoint`), and populations set from given points.
//!
//! A state is the engine's own ([`EngineState`]: the CPU engine's vectors, or a device engine's
//! buffers as the device holds them, in its precision and layout), so a checkpoint continues on
//! the backend, device count and precision that wrote it (the header records the backend and the
//! device count; a device's path, fused or not, is checked when the state is restored). Random
//! numbers are counter-based (seed, generation, island, member), so nothing else is drawn: a
//! continued run draws what the run that never stopped draws.

use super::engine::{CallState, DeMultiPop, EngineState};
use crate::error::{Error, Result};
use crate::run::checkpoint::{self, Header};
use serde::{Deserialize, Serialize};

/// The state of a [`DeMultiPop`] in a checkpoint.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct DeState {
    generation: u64,
    evaluations: u64,
    jde_counted: u64,
    /// A generation cut midway: its number and the trials evaluated and selected.
    partial: Option<(u64, u64)>,
    /// The run in progress (or the last run), which a continued run goes on with.
    call: Option<CallState>,
    engine: EngineState,
}

/// `values` in a header's option: one value, a short list, or their count and checksum.
fn compact<T: std::fmt::Display>(values: &[T]) -> String {
    let text: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    if text.iter().all(|t| *t == text[0]) {
        return text[0].clone();
    }
    if text.len() <= 8 {
        return text.join(",");
    }
    format!(
        "{} values, checksum {:08x}",
        text.len(),
        crc32fast::hash(text.join(",").as_bytes())
    )
}

impl DeMultiPop {
    /// What a checkpoint of this solver is checked against: the objective (a catalogue
    /// function's name, or a source's code and data; a host callback by its dimensions alone),
    /// every setting that shapes the course (sizes, limits, bounds, F, CR, seeds, precisions,
    /// algorithm, mutation, migration, the backend), the device count and the MPI rank. The
    /// stops are not in it: a continued run may have more generations, evaluations or time.
    pub(super) fn header(&self) -> Result<Header> {
        let r = self.running()?;
        let c = &self.cfg;
        let o = &c.options;
        let dims = format!("{} dimensions", c.nn);
        let problem = match (r.source, r.code.is_empty()) {
            (true, _) => checkpoint::fingerprint(
                "OpenCL source objective",
                &dims,
                &[r.code.as_bytes(), &r.data],
            ),
            (false, false) => checkpoint::fingerprint(&r.code, &dims, &[]),
            (false, true) => checkpoint::fingerprint("host callback objective", &dims, &[]),
        };
        let limits: Vec<String> =
            c.lo.iter()
                .zip(&c.hi)
                .map(|(a, b)| format!("[{a}, {b}]"))
                .collect();
        let kinds: Vec<&str> = c.kinds.iter().map(|k| k.name()).collect();
        let (rank, ranks) = self.engine.process();
        let devices = self.engine.devices();
        Ok(Header::new("de", problem)
            .option("islands", c.np)
            .option("members", c.nm)
            .option("limits", compact(&limits))
            .option("bounds", compact(&kinds))
            .option("f", compact(&c.f))
            .option("cr", compact(&c.cr))
            .option(
                "seeds",
                format!(
                    "{},{},{},{}",
                    o.init_seed, o.mutation_seed, o.crossover_seed, o.migration_seed
                ),
            )
            .option("precision", o.precision.name())
            .option("fitness_precision", o.fitness_precision.name())
            .option("shared_random", o.shared_random)
            .option("fused", o.fused)
            .option("wide", format!("{:?}", o.wide))
            .option("selection", o.selection)
            .option("algorithm", o.algorithm)
            .option("lshade_budget", o.lshade_budget)
            .option("jde_small", o.jde_small)
            .option("jde_eps", o.jde_eps)
            .option("jde_age", o.jde_age)
            .option("mutation", r.mutation)
            .option("migration", r.migration.kind)
            .option("period", r.migration.period)
            .option("backend", if devices == 0 { "cpu" } else { "device" })
            .devices(devices)
            .rank(rank, ranks))
    }

    /// The checkpoint bytes of the state now, with the run's progress `call`.
    pub(super) fn state_bytes(
        &mut self,
        header: &Header,
        call: Option<CallState>,
    ) -> Result<Vec<u8>> {
        let engine = self.engine.save(self.partial.is_some())?;
        checkpoint::encode(
            header,
            &DeState {
                generation: self.generation,
                evaluations: self.evaluations,
                jde_counted: self.jde_counted,
                partial: self.partial,
                call,
                engine,
            },
        )
    }

    /// The whole state (every population and its values, the adaptive variants' memories,
    /// archives, per-member F and CR and counters, the generation and evaluation counts, a
    /// generation cut midway, the last run's progress and time) as checkpoint bytes, from which
    /// [`load_state`](Self::load_state) continues. Needs `init`.
    pub fn save_state(&mut self) -> Result<Vec<u8>> {
        let header = self.header()?;
        let call = self.last_call.clone();
        self.state_bytes(&header, call)
    }

    /// Continues from checkpoint `bytes` (of [`save_state`](Self::save_state) or a checkpoint
    /// file): after `init` with the objective, mutation and migration of the saved solver, on a
    /// solver made with its settings (sizes, options, backend, device count), the populations,
    /// values, adaptive state and counters become the saved ones, and the next
    /// [`run_observed`](Self::run_observed) continues the saved run (its budget, time limit and
    /// records counting from that run's start), so it ends as the run that never stopped.
    /// Errors name `state` and say what differs (another version, problem, setting or device
    /// count; a corrupt or truncated file). A state that fails to load leaves the solver
    /// without an objective, as after a failed `init`.
    pub fn load_state(&mut self, bytes: &[u8]) -> Result<()> {
        if self.running.is_none() {
            return Err(Error::arg(
                "state",
                "the solver has no objective yet; call init (with the saved run's objective, mutation and migration) before loading a state",
            ));
        }
        let header = self.header()?;
        let s: DeState = checkpoint::decode(bytes, &header, "state")?;
        if let Some((g, done)) = s.partial {
            let n = self.cfg.np as u64 * self.cfg.nm as u64;
            if g != s.generation + 1 || done == 0 || done >= n {
                return Err(Error::arg(
                    "state",
                    "a corrupt checkpoint: its cut generation does not follow its generations",
                ));
            }
        }
        if let Err(e) = self.engine.restore(s.engine) {
            // the engine may hold part of the state: it needs init again
            self.running = None;
            return Err(e);
        }
        self.generation = s.generation;
        self.evaluations = s.evaluations;
        self.jde_counted = s.jde_counted;
        self.partial = s.partial;
        self.last_call = s.call.clone();
        self.resume = s.call;
        Ok(())
    }

    /// Every member of every population, `(islands * members) x dims` values, row
    /// `p * members + m`. Needs `init`.
    pub fn population(&mut self) -> Result<Vec<f64>> {
        self.running()?;
        self.engine.population()
    }

    /// A warm start: members set from given points, then every member evaluated afresh (the
    /// best of each population ranked again; `islands * members` evaluations counted). `x`
    /// holds rows of `dims` values: with `island`, at most `members` rows that replace the
    /// first members of that population; without, at most `islands * members` rows that replace
    /// the first members in the order `p * members + m` (one row is scipy's `x0`: member 0 of
    /// population 0; every row, the whole population). The other members stay. Points outside
    /// the limits are clipped to them with `clip`, else refused; every value must be finite.
    /// Errors name `population` (or `island`). Needs `init`; the generation count stays, and a
    /// generation cut midway is made afresh.
    pub fn set_population(&mut self, island: Option<u32>, x: &[f64], clip: bool) -> Result<()> {
        self.running()?;
        let (np, nm, nn) = (
            self.cfg.np as usize,
            self.cfg.nm as usize,
            self.cfg.nn as usize,
        );
        let room = match island {
            Some(p) if p as usize >= np => {
                return Err(Error::arg(
                    "island",
                    format!("{p}; there are {np} populations"),
                ))
            }
            Some(_) => nm,
            None => np * nm,
        };
        if x.is_empty() || !x.len().is_multiple_of(nn) || x.len() / nn > room {
            return Err(Error::arg(
                "population",
                format!(
                    "{} values; expected 1 to {room} rows of {nn} values ({})",
                    x.len(),
                    if island.is_some() {
                        "the members of one population"
                    } else {
                        "islands x members"
                    }
                ),
            ));
        }
        let mut rows = x.to_vec();
        for (i, v) in rows.iter_mut().enumerate() {
            let (r, d) = (i / nn, i % nn);
            if !v.is_finite() {
                return Err(Error::arg(
                    "population",
                    format!("row {r}, dimension {d} is {v}; expected finite values"),
                ));
            }
            let (lo, hi) = (self.cfg.lo[d], self.cfg.hi[d]);
            if *v < lo || *v > hi {
                if !clip {
                    return Err(Error::arg(
                        "population",
                        format!("row {r}, dimension {d} is {v}, outside its limits [{lo}, {hi}]"),
                    ));
                }
                *v = v.clamp(lo, hi);
            }
        }
        let mut all = self.engine.population()?;
        let at = island.map_or(0, |p| p as usize * nm * nn);
        all[at..at + rows.len()].copy_from_slice(&rows);
        self.engine.set_population(&all)?;
        self.evaluations += (np * nm) as u64;
        self.partial = None;
        self.last_call = None;
        self.resume = None;
        Ok(())
    }
}

/// `state` as the engine of `what` expects it, or the error of a state of another engine.
pub(super) fn refused(what: &str, state: &EngineState) -> Error {
    let of = match state {
        EngineState::Cpu { .. } => "the CPU backend".to_string(),
        EngineState::Device { path, .. } => format!("a device ({path})"),
        EngineState::Blocks { engines, .. } => format!("{} devices", engines.len()),
    };
    Error::arg(
        "state",
        format!("cannot resume from this checkpoint: a state of {of}; this solver runs on {what}"),
    )
}

/// The error of a state whose sizes do not match the solver's.
pub(super) fn corrupt(what: &str) -> Error {
    Error::arg(
        "state",
        format!("a corrupt checkpoint: its {what} do not match the solver's sizes"),
    )
}
