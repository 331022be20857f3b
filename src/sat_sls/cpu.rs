//! The walks on the host (rayon, one walk per task): the reference of `cl/sat_sls.cl`, step for
//! step. [`Walk`] is one walk with its incremental state; [`SlsTracker`] exposes that state to
//! tests.

use super::{SlsMethod, WalkParams, WalkState};
use crate::error::{Error, Result};
use crate::problem::sat::{Assignment, Cnf};
use crate::rng::rng4;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};

/// Defined by the parent module, which both backends share; named here for one more release.
pub use super::{log_capacity, persists, SlsFormula, PERSIST_BYTES};

/// `(r n) >> 32`, as `sls_below`.
#[inline]
fn below(r: u32, n: u32) -> u32 {
    ((r as u64 * n as u64) >> 32) as u32
}

#[inline]
fn var(l: i32) -> u32 {
    l.unsigned_abs() - 1
}

/// The words of restart `restart`'s assignment, as `sls_random`.
fn random_words(x: &mut [u32], n: usize, seed: u64, walk: u32, restart: u32) {
    let words = x.len();
    for j in (0..words).step_by(4) {
        let r = rng4(
            seed,
            walk,
            (1u64 << 63) | ((restart as u64) << 32) | (j / 4) as u64,
        );
        for (k, &word) in r.iter().enumerate() {
            if j + k < words {
                x[j + k] = word;
            }
        }
    }
    if !n.is_multiple_of(32) {
        x[words - 1] &= (1u32 << (n % 32)) - 1;
    }
}

/// One walk: its record (as the kernel's `rec`) and its incremental state.
#[derive(Clone, Debug)]
pub struct Walk {
    pub index: u32,
    pub flips: u64,
    pub since_restart: u64,
    pub restarts: u32,
    pub best_unsatisfied: u32,
    pub unsatisfied: u32,
    started: bool,
    pub(crate) x: Vec<u32>,
    pub(crate) best: Vec<u32>,
    /// The variables flipped since the last new best (`None`: more than the capacity, or the
    /// assignment was redrawn: the next new best copies the assignment).
    log: Option<Vec<u32>>,
    count: Vec<u32>,
    crit: Vec<u32>,
    pos: Vec<u32>,
    list: Vec<u32>,
    brk: Vec<u32>,
}

impl Walk {
    pub(crate) fn new(f: &SlsFormula, index: u32) -> Self {
        Walk::with_state(f, index, WalkState::fresh(f.words()))
    }

    /// Walk `index` with the counters, assignments, flip log and start flag of `s` (not
    /// checked), its clause state still to build (the unsatisfied count unknown).
    fn with_state(f: &SlsFormula, index: u32, s: WalkState) -> Self {
        let m = f.num_clauses();
        Walk {
            index,
            flips: s.flips,
            since_restart: s.since_restart,
            restarts: s.restarts,
            best_unsatisfied: s.best_unsatisfied,
            unsatisfied: u32::MAX,
            started: s.started,
            x: s.x,
            best: s.best,
            log: s.log,
            count: vec![0; m],
            crit: vec![0; m],
            pos: vec![0; m],
            list: vec![0; m],
            brk: vec![0; f.num_vars],
        }
    }

    /// `sls_rebuild`: the state of the assignment `x`; sets and returns the unsatisfied count.
    fn rebuild(&mut self, f: &SlsFormula) -> u32 {
        self.brk.fill(0);
        let mut nu = 0u32;
        for c in 0..f.num_clauses() {
            let (mut t, mut cr) = (0u32, 0u32);
            for &l in &f.literals[f.offsets[c] as usize..f.offsets[c + 1] as usize] {
                let v = var(l);
                let val = (self.x[(v >> 5) as usize] >> (v & 31)) & 1;
                if val == (l > 0) as u32 {
                    t += 1;
                    cr ^= v;
                }
            }
            self.count[c] = t;
            self.crit[c] = cr;
            if t == 0 {
                self.pos[c] = nu;
                self.list[nu as usize] = c as u32;
                nu += 1;
            } else if t == 1 {
                self.brk[cr as usize] += 1;
            }
        }
        self.unsatisfied = nu;
        nu
    }

    /// `sls_flip`: flips variable `v` (0-based) and updates the state.
    fn flip(&mut self, f: &SlsFormula, v: u32) {
        let val = (self.x[(v >> 5) as usize] >> (v & 31)) & 1;
        let (tl, fl) = ((2 * v + val) as usize, (2 * v + 1 - val) as usize);
        self.x[(v >> 5) as usize] ^= 1 << (v & 31);
        let mut nu = self.unsatisfied;
        for &c in &f.occ_clauses[f.occ_offsets[tl] as usize..f.occ_offsets[tl + 1] as usize] {
            let c = c as usize;
            let t = self.count[c];
            if t == 0 {
                nu -= 1;
                let last = self.list[nu as usize];
                let p = self.pos[c];
                self.list[p as usize] = last;
                self.pos[last as usize] = p;
                self.brk[v as usize] += 1;
            } else if t == 1 {
                self.brk[self.crit[c] as usize] -= 1;
            }
            self.crit[c] ^= v;
            self.count[c] = t + 1;
        }
        for &c in &f.occ_clauses[f.occ_offsets[fl] as usize..f.occ_offsets[fl + 1] as usize] {
            let c = c as usize;
            let t = self.count[c] - 1;
            self.count[c] = t;
            self.crit[c] ^= v;
            if t == 0 {
                self.pos[c] = nu;
                self.list[nu as usize] = c as u32;
                nu += 1;
                self.brk[v as usize] -= 1;
            } else if t == 1 {
                self.brk[self.crit[c] as usize] += 1;
            }
        }
        self.unsatisfied = nu;
    }

    /// `sls_pick`: the variable to flip in clause `c`.
    fn pick(&self, f: &SlsFormula, p: &WalkParams, c: usize, r: [u32; 4]) -> u32 {
        let lits = &f.literals[f.offsets[c] as usize..f.offsets[c + 1] as usize];
        match p.method {
            SlsMethod::WalkSat => {
                let (mut minb, mut ties) = (u32::MAX, 0u32);
                for &l in lits {
                    let b = self.brk[var(l) as usize];
                    if b < minb {
                        minb = b;
                        ties = 1;
                    } else if b == minb {
                        ties += 1;
                    }
                }
                if minb > 0 && r[1] < p.noise {
                    return var(lits[below(r[2], lits.len() as u32) as usize]);
                }
                let mut k = below(r[2], ties);
                for &l in lits {
                    let v = var(l);
                    if self.brk[v as usize] == minb {
                        if k == 0 {
                            return v;
                        }
                        k -= 1;
                    }
                }
                var(lits[lits.len() - 1])
            }
            SlsMethod::ProbSat => {
                let last = p.table.len() - 1;
                let f_of = |v: u32| p.table[(self.brk[v as usize] as usize).min(last)] as u64;
                let sum: u64 = lits.iter().map(|&l| f_of(var(l))).sum();
                let thr = ((((r[1] as u128) << 32) * sum as u128) >> 64) as u64;
                let mut acc = 0u64;
                for &l in lits {
                    let v = var(l);
                    acc += f_of(v);
                    if acc > thr {
                        return v;
                    }
                }
                var(lits[lits.len() - 1])
            }
        }
    }

    /// A new best of `nu` unsatisfied clauses (`sls_snapshot`): the best assignment becomes the
    /// assignment, by replaying the log onto it, or by a copy when the log is over.
    fn snapshot(&mut self, nu: u32) {
        self.best_unsatisfied = nu;
        match &mut self.log {
            Some(log) => {
                for &v in log.iter() {
                    self.best[(v >> 5) as usize] ^= 1 << (v & 31);
                }
                log.clear();
            }
            None => {
                self.best.copy_from_slice(&self.x);
                self.log = Some(Vec::new());
            }
        }
    }

    /// The walk between two launches, as a checkpoint holds it: `persist` keeps the order of its
    /// unsatisfied list (the rest of its incremental state follows from the assignment).
    pub(crate) fn state(&self, persist: bool) -> WalkState {
        WalkState {
            flips: self.flips,
            since_restart: self.since_restart,
            restarts: self.restarts,
            best_unsatisfied: self.best_unsatisfied,
            unsatisfied: self.unsatisfied,
            started: self.started,
            x: self.x.clone(),
            best: self.best.clone(),
            log: self.log.clone(),
            list: (persist && self.started)
                .then(|| self.list[..self.unsatisfied as usize].to_vec()),
        }
    }

    /// Walk `index` as `s` holds it, checked against the formula (errors name `arg`): the
    /// incremental state is rebuilt from the assignment, with the unsatisfied list in the
    /// order `s` gives when it persists.
    pub(crate) fn from_state(
        f: &SlsFormula,
        p: &WalkParams,
        index: u32,
        s: &WalkState,
        arg: &'static str,
    ) -> Result<Self> {
        let bad = |msg: String| Error::arg(arg, format!("walk {index}: {msg}"));
        let words = f.words();
        let n = f.num_vars;
        if s.x.len() != words || s.best.len() != words {
            return Err(bad(format!(
                "assignments of {} and {} words; the formula's take {words}",
                s.x.len(),
                s.best.len()
            )));
        }
        if !n.is_multiple_of(32)
            && (s.x[words - 1] >> (n % 32) != 0 || s.best[words - 1] >> (n % 32) != 0)
        {
            return Err(bad("bits set beyond the formula's variables".into()));
        }
        if let Some(log) = &s.log {
            if log.len() > p.log_capacity || log.iter().any(|&v| v as usize >= n) {
                return Err(bad(format!(
                    "a flip log of {} entries (at most {}) or naming a variable past {n}",
                    log.len(),
                    p.log_capacity
                )));
            }
        }
        let mut w = Walk::with_state(f, index, s.clone());
        if !s.started {
            if s.list.is_some() || s.best_unsatisfied != u32::MAX {
                return Err(bad("a walk not started with a state of one".into()));
            }
            return Ok(w);
        }
        let nu = w.rebuild(f);
        if nu != s.unsatisfied {
            return Err(bad(format!(
                "{} unsatisfied clauses recorded, {nu} in its assignment",
                s.unsatisfied
            )));
        }
        if s.best_unsatisfied != u32::MAX {
            let mut b = Walk::new(f, index);
            b.x.copy_from_slice(&s.best);
            let bu = b.rebuild(f);
            if bu != s.best_unsatisfied || nu < bu {
                return Err(bad(format!(
                    "a best of {} unsatisfied clauses recorded, {bu} in its best assignment, {nu} now",
                    s.best_unsatisfied
                )));
            }
        }
        match (&s.list, p.persist) {
            (Some(list), true) => {
                // the same clauses as the rebuilt list, in the walk's order
                let m = f.num_clauses();
                let mut seen = vec![false; m];
                for &c in &w.list[..nu as usize] {
                    seen[c as usize] = true;
                }
                if list.len() != nu as usize
                    || list.iter().any(|&c| {
                        (c as usize) >= m || !std::mem::replace(&mut seen[c as usize], false)
                    })
                {
                    return Err(bad(
                        "its unsatisfied list is not the assignment's unsatisfied clauses".into(),
                    ));
                }
                for (i, &c) in list.iter().enumerate() {
                    w.list[i] = c;
                    w.pos[c as usize] = i as u32;
                }
            }
            (None, false) => {}
            _ => {
                return Err(bad(
                    "an unsatisfied list where the state does not persist, or none where it does"
                        .into(),
                ))
            }
        }
        Ok(w)
    }

    /// The incremental state's arrays: true-literal counts, critical variables, list positions,
    /// the unsatisfied list and break values (for the device's copy of a persisting walk).
    pub(crate) fn arrays(&self) -> [&[u32]; 5] {
        [&self.count, &self.crit, &self.pos, &self.list, &self.brk]
    }

    /// One launch of `sat_sls_run` for this walk: up to `flips` flips; `found` is the stop flag.
    pub(crate) fn segment(
        &mut self,
        f: &SlsFormula,
        p: &WalkParams,
        flips: u32,
        poll: u32,
        found: &AtomicU32,
    ) {
        if found.load(Ordering::Relaxed) != 0 {
            return;
        }
        let mut nu = if !self.started {
            random_words(&mut self.x, f.num_vars, p.seed, self.index, 0);
            self.best_unsatisfied = u32::MAX;
            self.log = None;
            self.started = true;
            self.rebuild(f)
        } else if p.persist {
            self.unsatisfied
        } else {
            self.rebuild(f)
        };
        if nu < self.best_unsatisfied {
            self.snapshot(nu);
        }
        let mut i = 0u32;
        while i < flips && nu > 0 {
            if i & (poll - 1) == 0 && i > 0 && found.load(Ordering::Relaxed) != 0 {
                break;
            }
            if self.since_restart >= p.restart_flips {
                self.restarts += 1;
                self.since_restart = 0;
                random_words(&mut self.x, f.num_vars, p.seed, self.index, self.restarts);
                nu = self.rebuild(f);
                self.log = None;
                if nu < self.best_unsatisfied {
                    self.snapshot(nu);
                }
                if nu == 0 {
                    break;
                }
            }
            let r = rng4(p.seed, self.index, self.flips);
            let c = self.list[below(r[0], nu) as usize] as usize;
            let v = self.pick(f, p, c, r);
            if let Some(log) = &mut self.log {
                if log.len() < p.log_capacity {
                    log.push(v);
                } else {
                    self.log = None;
                }
            }
            self.flip(f, v);
            nu = self.unsatisfied;
            self.flips += 1;
            self.since_restart += 1;
            if nu < self.best_unsatisfied {
                self.snapshot(nu);
            }
            i += 1;
        }
        if nu == 0 {
            let _ = found.compare_exchange(0, self.index + 1, Ordering::Relaxed, Ordering::Relaxed);
        }
    }
}

/// The CPU backend: every walk, one rayon task each per launch.
pub(crate) struct CpuWalks {
    pub walks: Vec<Walk>,
    pub found: AtomicU32,
}

impl CpuWalks {
    pub fn new(f: &SlsFormula, walks: u32) -> Self {
        CpuWalks {
            walks: (0..walks).map(|w| Walk::new(f, w)).collect(),
            found: AtomicU32::new(0),
        }
    }

    /// One "launch": `flips` flips of every walk; the found flag after it and the fewest
    /// unsatisfied clauses of any walk so far (`u32::MAX` before a walk started), as the
    /// device's.
    pub fn launch(&mut self, f: &SlsFormula, p: &WalkParams, flips: u32, poll: u32) -> (u32, u32) {
        let found = &self.found;
        self.walks
            .par_iter_mut()
            .for_each(|w| w.segment(f, p, flips, poll, found));
        let best = self.walks.iter().map(|w| w.best_unsatisfied).min();
        (found.load(Ordering::Relaxed), best.unwrap_or(u32::MAX))
    }
}

impl CpuWalks {
    /// Every walk between two launches.
    pub fn states(&self, persist: bool) -> Vec<WalkState> {
        self.walks.iter().map(|w| w.state(persist)).collect()
    }

    /// The walks (checked, as [`Walk::from_state`]) and the found flag of a checkpoint.
    pub fn set_walks(&mut self, walks: Vec<Walk>, found: u32) {
        self.walks = walks;
        self.found.store(found, Ordering::Relaxed);
    }
}

/// The incremental state of one assignment, for tests: flip variables and compare the true-
/// literal counts, break values and unsatisfied clauses with a recount on the input formula.
pub struct SlsTracker {
    f: SlsFormula,
    walk: Walk,
    /// The tracked clause of each input clause (`None`: a tautology, always true).
    of_input: Vec<Option<u32>>,
}

impl SlsTracker {
    pub fn new(cnf: &Cnf, a: &Assignment) -> Self {
        let f = SlsFormula::new(cnf);
        let mut walk = Walk::new(&f, 0);
        walk.x.copy_from_slice(a.words());
        walk.rebuild(&f);
        let mut of_input = vec![None; cnf.num_clauses()];
        for (i, &o) in f.orig.iter().enumerate() {
            of_input[o as usize] = Some(i as u32);
        }
        SlsTracker { f, walk, of_input }
    }

    /// Flips variable `v` (1-based) incrementally.
    pub fn flip(&mut self, v: usize) {
        assert!(
            v >= 1 && v <= self.f.num_vars,
            "variable {v} of 1..{}",
            self.f.num_vars
        );
        self.walk.flip(&self.f, v as u32 - 1);
    }

    pub fn assignment(&self) -> Assignment {
        Assignment::from_words(self.f.num_vars, self.walk.x.clone())
            .expect("the formula's word count")
    }

    /// The number of unsatisfied clauses.
    pub fn unsatisfied(&self) -> u32 {
        self.walk.unsatisfied
    }

    /// The input clauses now unsatisfied (0-based, ascending), from the unsatisfied list.
    pub fn unsatisfied_clauses(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self.walk.list[..self.walk.unsatisfied as usize]
            .iter()
            .map(|&c| self.f.orig[c as usize] as usize)
            .collect();
        v.sort_unstable();
        v
    }

    /// Whether the unsatisfied list and its positions agree (`pos[list[i]] == i`).
    pub fn positions_consistent(&self) -> bool {
        (0..self.walk.unsatisfied as usize)
            .all(|i| self.walk.pos[self.walk.list[i] as usize] as usize == i)
    }

    /// The distinct true literals of input clause `i` (`None` for a tautology, not tracked).
    pub fn true_count(&self, i: usize) -> Option<u32> {
        self.of_input[i].map(|c| self.walk.count[c as usize])
    }

    /// The break value of variable `v` (1-based): clauses its flip would leave unsatisfied.
    pub fn break_value(&self, v: usize) -> u32 {
        self.walk.brk[v - 1]
    }
}
