//! The device walks: `sat_sls_run` of `cl/sat_sls.cl`, one work-group of `Tuning::sat_sls`
//! lanes per walk, the walk's state (narrowest types that fit) in local memory where it fits,
//! else in global memory.

use super::cpu::Walk;
use super::{log_capacity, SlsFormula, SlsMethod, WalkParams, WalkState, PERSIST_BYTES, POLL};
use crate::device::{Backend, DeviceBuffer, ProgramSpec, Queue};
use crate::error::{Error, Result};
use opencl3::kernel::{ExecuteKernel, Kernel};

/// Words of a record's head (`SLS_HEAD`).
const HEAD: usize = 12;

/// What the host reads of a walk's record (`rec` of `sat_sls_run`): the head's counters and the
/// two assignments' words.
pub(crate) struct WalkRecord {
    pub flips: u64,
    pub restarts: u32,
    pub best_unsatisfied: u32,
    pub unsatisfied: u32,
    pub assignment: Vec<u32>,
    pub best: Vec<u32>,
}

/// Words of a walk's record (`SLS_HEAD`, 2 assignments and the flip log).
pub(crate) fn record_words(f: &SlsFormula, log_capacity: usize) -> usize {
    HEAD + 2 * f.words() + log_capacity
}

/// The most walks whose state and record fit the device: the states (one buffer) within the
/// largest allocation and half the global memory (at least 1). A walk over a formula of 10^6
/// variables at ratio 4.2 takes 59 MB.
pub(crate) fn walks_that_fit(f: &SlsFormula, max_alloc: u64, global: u64) -> u32 {
    let per = ((state_words(f) + record_words(f, log_capacity(f))) * 4) as u64;
    let cap = max_alloc.min(global / 2) / per.max(1);
    cap.clamp(1, u32::MAX as u64) as u32
}

/// The types of a walk's state: bytes of a true-literal count, of a critical variable, of a
/// clause index or list position (`SLS_CNT`, `SLS_VT`, `SLS_CT`).
fn state_types(f: &SlsFormula) -> (usize, usize, usize) {
    let cnt = if f.max_len < 256 {
        1
    } else if f.max_len < 65_536 {
        2
    } else {
        4
    };
    let vt = if f.num_vars <= 65_536 { 2 } else { 4 };
    let ct = if f.num_clauses() <= 65_536 { 2 } else { 4 };
    (cnt, vt, ct)
}

fn cl_type(bytes: usize) -> &'static str {
    match bytes {
        1 => "uchar",
        2 => "ushort",
        _ => "uint",
    }
}

/// Words of a walk's state: assignment and break values (a word each), then positions, the
/// list, critical variables and counts, each padded to a word.
pub(crate) fn state_words(f: &SlsFormula) -> usize {
    let (cnt, vt, ct) = state_types(f);
    let m = f.num_clauses();
    let w = |bytes: usize| (m * bytes).div_ceil(4);
    f.words() + f.num_vars + 2 * w(ct) + w(vt) + w(cnt)
}

/// The log length of a log that no longer leads from the best assignment (`SLS_OVER`).
const OVER: u32 = u32::MAX;

/// Stores `v` in `bytes` little-endian bytes at `at`.
fn put(out: &mut [u8], at: usize, bytes: usize, v: u32) {
    out[at..at + bytes].copy_from_slice(&v.to_le_bytes()[..bytes]);
}

/// Reads `bytes` little-endian bytes at `at`.
fn get(from: &[u8], at: usize, bytes: usize) -> u32 {
    let mut b = [0u8; 4];
    b[..bytes].copy_from_slice(&from[at..at + bytes]);
    u32::from_le_bytes(b)
}

/// A walk's state in the kernel's layout (`state_words` words): assignment, break values,
/// positions, list, critical variables and counts in their narrow types.
fn pack_state(f: &SlsFormula, w: &Walk) -> Vec<u32> {
    let (cnt, vt, ct) = state_types(f);
    let m = f.num_clauses();
    let [count, crit, pos, list, brk] = w.arrays();
    let pad = |b: usize| (m * b).div_ceil(4) * 4;
    let mut bytes = vec![0u8; state_words(f) * 4];
    let mut at = 0;
    for &v in w.x.iter().chain(brk) {
        put(&mut bytes, at, 4, v);
        at += 4;
    }
    for (arr, b) in [(pos, ct), (list, ct), (crit, vt), (count, cnt)] {
        for (i, &v) in arr.iter().enumerate() {
            put(&mut bytes, at + i * b, b, v);
        }
        at += pad(b);
    }
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect()
}

/// The first `nu` entries of the unsatisfied list of a walk's state in the kernel's layout.
fn unpack_list(f: &SlsFormula, state: &[u32], nu: usize) -> Vec<u32> {
    let (_, _, ct) = state_types(f);
    let m = f.num_clauses();
    let bytes = crate::run::checkpoint::le_bytes(state, u32::to_le_bytes);
    let at = (f.words() + f.num_vars) * 4 + (m * ct).div_ceil(4) * 4;
    (0..nu).map(|i| get(&bytes, at + i * ct, ct)).collect()
}

/// Records of walks not started: no flips, best and current counts unknown (`u32::MAX`).
fn fresh_records(rw: usize, walks: u32) -> Vec<u32> {
    let mut rec = vec![0u32; rw * walks as usize];
    for r in rec.chunks_mut(rw) {
        r[5] = u32::MAX;
        r[6] = u32::MAX;
        r[8] = u32::MAX;
    }
    rec
}

pub(crate) struct DeviceWalks {
    pub queue: Queue,
    kernel: Kernel,
    wg: usize,
    pub local: bool,
    walks: u32,
    off: DeviceBuffer<u32>,
    lit: DeviceBuffer<i32>,
    ooff: DeviceBuffer<u32>,
    occ: DeviceBuffer<u32>,
    tab: DeviceBuffer<u32>,
    rec: DeviceBuffer<u32>,
    state: DeviceBuffer<u32>,
    found: DeviceBuffer<u32>,
    n: u32,
    m: u32,
    words: u32,
    /// Words of a walk's state.
    stride: u32,
    pub log_capacity: usize,
}

impl DeviceWalks {
    /// The formula, the table and `walks` fresh records on the device; `local` forces the
    /// state's memory (`None`: local where a group's states fit and the state does not persist
    /// across launches; a persisting state is in global memory).
    pub fn new(
        f: &SlsFormula,
        backend: Backend,
        walks: u32,
        p: &WalkParams,
        local: Option<bool>,
    ) -> Result<Self> {
        let (method, table) = (p.method, &p.table[..]);
        let ctx = backend.context("the SAT walks")?;
        let queue = ctx.queue_unprofiled()?;
        let sw = state_words(f);
        // lanes per walk: a power of two, at most 32 (one mask word of a chunk)
        let cap = ctx
            .tuning()
            .sat_sls
            .clamp(1, 32)
            .min(ctx.info.max_work_group_size.max(1));
        let mut wg = 1usize;
        while wg * 2 <= cap {
            wg *= 2;
        }
        // local memory when the walk's state and the group's scratch fit
        let limit = ctx.info.local_mem_bytes as usize;
        let need = sw * 4 + 4 * (wg + 4) + 64;
        let local = local.unwrap_or(need <= limit && !p.persist);
        if local && need > limit {
            return Err(Error::arg(
                "local_memory",
                format!("a walk's state takes {} bytes, more than the device's {limit} bytes of local memory", sw * 4),
            ));
        }
        if local && p.persist {
            return Err(Error::arg(
                "local_memory",
                format!("a walk's state takes {} bytes, more than {} bytes: it persists across launches in global memory", sw * 4, PERSIST_BYTES),
            ));
        }
        let (tc, tv, tk) = state_types(f);
        let spec = ProgramSpec::files(&["common.cl", "sat_sls.cl"])
            .define("SLS_WALKSAT", (method == SlsMethod::WalkSat) as u32)
            .define("SLS_LOCAL", local as u32)
            .define("SLS_PERSIST", p.persist as u32)
            .define("SLS_TABLE", table.len())
            .define("SLS_POLL", POLL)
            .define("SLS_LANES", wg)
            .define("SLS_CNT", cl_type(tc))
            .define("SLS_VT", cl_type(tv))
            .define("SLS_CT", cl_type(tk));
        let program = ctx.build(&spec)?;
        let kernel = queue.kernel(&program, "sat_sls_run")?;
        let kwg = crate::device::work_group_size(&ctx, &kernel, wg);
        if kwg < wg {
            return Err(Error::arg("walks", format!("the device runs groups of {kwg} work-items of sat_sls_run, the walks need {wg}")));
        }
        let nz = |v: &[u32]| if v.is_empty() { vec![0u32] } else { v.to_vec() };
        let lits = if f.literals.is_empty() {
            vec![0i32]
        } else {
            f.literals.clone()
        };
        let rw = record_words(f, p.log_capacity);
        let state_len = if local { 1 } else { sw * walks as usize };
        Ok(DeviceWalks {
            off: queue.buffer_from(&f.offsets, "clause offsets")?,
            lit: queue.buffer_from(&lits, "literals")?,
            ooff: queue.buffer_from(&f.occ_offsets, "occurrence offsets")?,
            occ: queue.buffer_from(&nz(&f.occ_clauses), "occurrences")?,
            tab: queue.buffer_from(table, "break table")?,
            rec: queue.buffer_from(&fresh_records(rw, walks), "walk records")?,
            // not written here: a walk's state is built by the kernel at the walk's start (or
            // written by `set_states`) before anything reads it, so the states, which can take
            // gigabytes, cost no host copy and no upload in the set-up
            state: queue.buffer(state_len, "walk states")?,
            found: queue.buffer_from(&[0u32, u32::MAX], "found flag")?,
            queue,
            kernel,
            wg,
            local,
            walks,
            n: f.num_vars as u32,
            m: f.num_clauses() as u32,
            words: f.words() as u32,
            stride: sw as u32,
            log_capacity: p.log_capacity,
        })
    }

    /// One launch of `flips` flips per walk; the found flag after it and the fewest unsatisfied
    /// clauses of any walk so far (`u32::MAX` before a walk started).
    pub fn launch(
        &mut self,
        flips: u32,
        restart_flips: u64,
        seed: u64,
        noise: u32,
    ) -> Result<(u32, u32)> {
        let lbytes = if self.local {
            self.stride as usize * 4
        } else {
            4
        };
        let mut e = ExecuteKernel::new(&self.kernel);
        // SAFETY: the arguments match `sat_sls_run` in type and order; the buffers outlive the
        // launch (the caller reads the flag before the next launch).
        unsafe {
            e.set_arg(self.off.cl())
                .set_arg(self.lit.cl())
                .set_arg(self.ooff.cl())
                .set_arg(self.occ.cl());
            e.set_arg(self.tab.cl())
                .set_arg(self.rec.cl())
                .set_arg(self.state.cl())
                .set_arg_local_buffer(lbytes);
            e.set_arg(self.found.cl())
                .set_arg(&self.n)
                .set_arg(&self.m)
                .set_arg(&self.words)
                .set_arg(&self.walks);
            e.set_arg(&flips)
                .set_arg(&restart_flips)
                .set_arg(&seed)
                .set_arg(&noise)
                .set_arg(&self.stride);
            let logcap = self.log_capacity as u32;
            e.set_arg(&logcap);
        }
        let global = self.walks as usize * self.wg;
        crate::device::launch(
            &self.queue,
            &mut e,
            &[global],
            Some(&[self.wg]),
            "clEnqueueNDRangeKernel(sat_sls_run)",
        )?;
        let mut flag = [0u32; 2];
        self.found.read(&self.queue, &mut flag)?;
        Ok((flag[0], flag[1]))
    }

    /// Every walk between two launches and the found flag (`persist`: with the order of each
    /// started walk's unsatisfied list, read from its state in global memory).
    pub fn states(&self, f: &SlsFormula, persist: bool) -> Result<(Vec<WalkState>, u32)> {
        let words = self.words as usize;
        let rw = HEAD + 2 * words + self.log_capacity;
        let rec = self.rec.to_vec(&self.queue)?;
        let state = if persist && !self.local {
            self.state.to_vec(&self.queue)?
        } else {
            Vec::new()
        };
        let mut flag = [0u32];
        self.found.read(&self.queue, &mut flag)?;
        let sw = self.stride as usize;
        let out = rec
            .chunks(rw)
            .enumerate()
            .map(|(w, r)| {
                let started = r[7] != 0;
                let (nu, nl) = (r[6], r[8]);
                WalkState {
                    flips: r[0] as u64 | (r[1] as u64) << 32,
                    since_restart: r[2] as u64 | (r[3] as u64) << 32,
                    restarts: r[4],
                    best_unsatisfied: r[5],
                    unsatisfied: nu,
                    started,
                    x: r[HEAD..HEAD + words].to_vec(),
                    best: r[HEAD + words..HEAD + 2 * words].to_vec(),
                    log: (started && nl != OVER)
                        .then(|| r[HEAD + 2 * words..HEAD + 2 * words + nl as usize].to_vec()),
                    list: (persist && started)
                        .then(|| unpack_list(f, &state[w * sw..(w + 1) * sw], nu as usize)),
                }
            })
            .collect();
        Ok((out, flag[0]))
    }

    /// The walks and the found flag of a checkpoint: `states`, with `walks` made of them by
    /// [`Walk::from_state`] (which checked them); `persist`: the walks' state persists.
    pub fn set_states(
        &mut self,
        f: &SlsFormula,
        persist: bool,
        states: &[WalkState],
        walks: &[Walk],
        found: u32,
    ) -> Result<()> {
        let words = self.words as usize;
        let rw = HEAD + 2 * words + self.log_capacity;
        let mut rec = fresh_records(rw, self.walks);
        let keep = persist && !self.local;
        let sw = self.stride as usize;
        let mut state = if keep {
            vec![0u32; sw * self.walks as usize]
        } else {
            Vec::new()
        };
        for (i, (s, w)) in states.iter().zip(walks).enumerate() {
            let r = &mut rec[i * rw..(i + 1) * rw];
            r[0] = s.flips as u32;
            r[1] = (s.flips >> 32) as u32;
            r[2] = s.since_restart as u32;
            r[3] = (s.since_restart >> 32) as u32;
            r[4] = s.restarts;
            r[5] = s.best_unsatisfied;
            r[6] = s.unsatisfied;
            r[7] = s.started as u32;
            r[8] = s.log.as_ref().map_or(OVER, |l| l.len() as u32);
            r[HEAD..HEAD + words].copy_from_slice(&s.x);
            r[HEAD + words..HEAD + 2 * words].copy_from_slice(&s.best);
            if let Some(l) = &s.log {
                r[HEAD + 2 * words..HEAD + 2 * words + l.len()].copy_from_slice(l);
            }
            if keep && s.started {
                state[i * sw..(i + 1) * sw].copy_from_slice(&pack_state(f, w));
            }
        }
        self.rec.write(&self.queue, &rec)?;
        if keep {
            self.state.write(&self.queue, &state)?;
        }
        self.found.write(&self.queue, &[found])
    }

    /// Every walk's record, decoded.
    pub fn records(&self) -> Result<Vec<WalkRecord>> {
        let words = self.words as usize;
        let rw = HEAD + 2 * words + self.log_capacity;
        Ok(self
            .rec
            .to_vec(&self.queue)?
            .chunks(rw)
            .map(|r| WalkRecord {
                flips: r[0] as u64 | (r[1] as u64) << 32,
                restarts: r[4],
                best_unsatisfied: r[5],
                unsatisfied: r[6],
                assignment: r[HEAD..HEAD + words].to_vec(),
                best: r[HEAD + words..HEAD + 2 * words].to_vec(),
            })
            .collect())
    }
}
