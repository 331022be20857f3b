//! The tabu list of HC12 (thesis 000, 5.1.1; the policy is `climb.rs`'s): an indirectly sorted array of
//! visited strings kept in device memory (`cl/tabu.cl`), searched by every work-item for its own
//! candidate, and its CPU twin with the same policy (FIFO eviction, duplicates not re-inserted),
//! so that device and CPU runs stay identical.

use crate::device::{cl_error, work_group_size, DeviceBuffer, DeviceContext, ProgramSpec, Queue};
use crate::error::{Error, Result};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::program::Program;
use serde::Serialize;
use std::collections::{BTreeSet, VecDeque};

/// Settings of the tabu search (thesis Table 1: `set-tabu-list`, `activationLimit`, `limitRows`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TabuConfig {
    /// Capacity of the list (`limitRows`, thesis default 100).
    pub max_length: usize,
    /// The list is consulted only while the current cost is below this value (None: always).
    pub activation_limit: Option<f64>,
    /// A tabu neighbour better than the best ever seen may be selected (off by default).
    pub aspiration: bool,
    /// End of a run after this many iterations.
    pub max_iterations: u32,
    /// End of a run after this many iterations without a new best.
    pub max_no_improve: u32,
}

impl TabuConfig {
    pub fn new(max_length: usize) -> Result<Self> {
        let c = TabuConfig {
            max_length,
            activation_limit: None,
            aspiration: false,
            max_iterations: 10_000,
            max_no_improve: 100,
        };
        c.check()?;
        Ok(c)
    }

    pub fn check(&self) -> Result<()> {
        if self.max_length == 0 || self.max_length > MAX_TABU_LENGTH {
            return Err(Error::arg(
                "maxLength",
                format!("{}; expected 1..{MAX_TABU_LENGTH}", self.max_length),
            ));
        }
        if self.max_iterations == 0 {
            return Err(Error::arg("maxIterations", "0; expected at least 1"));
        }
        if self.max_no_improve == 0 {
            return Err(Error::arg("maxNoImprove", "0; expected at least 1"));
        }
        if self.activation_limit.is_some_and(f64::is_nan) {
            return Err(Error::arg("activationLimit", "NaN"));
        }
        Ok(())
    }
}

/// Largest list accepted (16 Mi entries: an index of 64 MiB per copy).
pub const MAX_TABU_LENGTH: usize = 1 << 24;

/// `spec` with the defines of `cl/tabu.cl`: the capacity and the words per string.
pub fn tabu_defines(spec: ProgramSpec, max_length: usize, words: usize) -> ProgramSpec {
    spec.define_u("TABU_LEN", max_length)
        .define_u("TABU_NW", words)
}

/// The device list. Its buffers are arguments of the evaluation kernels, which search it.
pub struct DeviceTabu {
    pub x: DeviceBuffer<u32>,
    idx: [DeviceBuffer<u32>; 2],
    cur: usize,
    pub meta: DeviceBuffer<u32>,
    pos: DeviceBuffer<u32>,
    prepare: Kernel,
    update: Kernel,
    find_many: Kernel,
    wg: usize,
    pub max_length: usize,
    pub words: usize,
}

impl DeviceTabu {
    /// An empty list in `program`, which must hold `cl/tabu.cl` built with [`tabu_defines`].
    pub fn new(q: &Queue, program: &Program, max_length: usize, words: usize) -> Result<Self> {
        let prepare = q.kernel(program, "tabu_prepare")?;
        let update = q.kernel(program, "tabu_update")?;
        let find_many = q.kernel(program, "tabu_find_many")?;
        let wg = work_group_size(q.ctx(), &update, q.ctx().tuning().tabu);
        let mut t = DeviceTabu {
            x: q.buffer(max_length * words, "tabu X")?,
            idx: [
                q.buffer(max_length + 1, "tabu idx1")?,
                q.buffer(max_length + 1, "tabu idx2")?,
            ],
            cur: 0,
            meta: q.buffer(2, "tabu meta")?,
            pos: q.buffer(5, "tabu pos")?,
            prepare,
            update,
            find_many,
            wg,
            max_length,
            words,
        };
        t.clear(q)?;
        Ok(t)
    }

    /// A list in a program of its own (common.cl and tabu.cl only).
    pub fn standalone(
        ctx: &std::sync::Arc<DeviceContext>,
        q: &Queue,
        max_length: usize,
        words: usize,
    ) -> Result<Self> {
        if words == 0 {
            return Err(Error::arg("words", "0; strings have at least one word"));
        }
        let program = ctx.build(&tabu_defines(
            ProgramSpec::files(&["common.cl", "tabu.cl"]),
            max_length,
            words,
        ))?;
        Self::new(q, &program, max_length, words)
    }

    /// Empties the list.
    pub fn clear(&mut self, q: &Queue) -> Result<()> {
        self.cur = 0;
        self.meta.write(q, &[0, 0])
    }

    /// The sorted index in use.
    pub fn index(&self) -> &DeviceBuffer<u32> {
        &self.idx[self.cur]
    }

    /// Inserts the string held in `v[offset..offset + words]` (Algorithm 1): nothing when it is
    /// listed already; when the list is full the oldest entry leaves first. Enqueued only: it is
    /// ordered before whatever the queue runs next.
    pub fn insert(&mut self, q: &Queue, v: &DeviceBuffer<u32>, offset: u32) -> Result<()> {
        let (cur, next) = (self.cur, 1 - self.cur);
        let global = (self.max_length + 1).max(self.words).div_ceil(self.wg) * self.wg;
        // SAFETY: arguments match the kernels' signatures; the buffers live as long as `self`.
        unsafe {
            ExecuteKernel::new(&self.prepare)
                .set_arg(self.x.cl())
                .set_arg(self.idx[cur].cl())
                .set_arg(self.meta.cl())
                .set_arg(v.cl())
                .set_arg(&offset)
                .set_arg(self.pos.cl())
                .set_global_work_size(1)
                .enqueue_nd_range(q.cl())
                .map_err(cl_error("clEnqueueNDRangeKernel(tabu_prepare)"))?;
            ExecuteKernel::new(&self.update)
                .set_arg(self.x.cl())
                .set_arg(self.idx[cur].cl())
                .set_arg(self.idx[next].cl())
                .set_arg(self.meta.cl())
                .set_arg(v.cl())
                .set_arg(&offset)
                .set_arg(self.pos.cl())
                .set_global_work_size(global)
                .set_local_work_size(self.wg)
                .enqueue_nd_range(q.cl())
                .map_err(cl_error("clEnqueueNDRangeKernel(tabu_update)"))?;
        }
        self.cur = next;
        Ok(())
    }

    /// Finds every string of `queries` (`words` each): (position or -1, insert position).
    pub fn find_many(&self, q: &Queue, queries: &[u32]) -> Result<(Vec<i32>, Vec<u32>)> {
        let count = queries.len() / self.words;
        let qb = q.buffer_from(queries, "tabu queries")?;
        let f = q.buffer::<i32>(count, "tabu f")?;
        let p = q.buffer::<u32>(count, "tabu p")?;
        let count32 = count as u32;
        // padded to whole groups of the tabu kernels' size; the kernel skips the padding
        let granule = q.ctx().tuning().tabu;
        // SAFETY: as in `insert`; the reads below are blocking and follow on the in-order queue.
        unsafe {
            ExecuteKernel::new(&self.find_many)
                .set_arg(self.x.cl())
                .set_arg(self.idx[self.cur].cl())
                .set_arg(self.meta.cl())
                .set_arg(qb.cl())
                .set_arg(&count32)
                .set_arg(f.cl())
                .set_arg(p.cl())
                .set_global_work_size(count.div_ceil(granule) * granule)
                .enqueue_nd_range(q.cl())
                .map_err(cl_error("clEnqueueNDRangeKernel(tabu_find_many)"))?;
        }
        let mut fv = vec![0i32; count];
        let mut pv = vec![0u32; count];
        f.read(q, &mut fv)?;
        p.read(q, &mut pv)?;
        Ok((fv, pv))
    }

    /// Entries on the list.
    pub fn len(&self, q: &Queue) -> Result<usize> {
        let mut m = [0u32; 2];
        self.meta.read(q, &mut m)?;
        Ok(m[0] as usize)
    }

    pub fn is_empty(&self, q: &Queue) -> Result<bool> {
        Ok(self.len(q)? == 0)
    }

    /// The listed strings in index order (for tests).
    pub fn sorted_strings(&self, q: &Queue) -> Result<Vec<Vec<u32>>> {
        let m = self.len(q)?;
        let idx = self.index().to_vec(q)?;
        let x = self.x.to_vec(q)?;
        Ok(idx[..m]
            .iter()
            .map(|&s| x[s as usize * self.words..(s as usize + 1) * self.words].to_vec())
            .collect())
    }
}

/// The host list with the device list's policy: an ordered set for finds and a FIFO for tenure.
#[derive(Clone, Debug, Default)]
pub struct CpuTabu {
    set: BTreeSet<Vec<u32>>,
    fifo: VecDeque<Vec<u32>>,
    pub max_length: usize,
}

impl CpuTabu {
    pub fn new(max_length: usize) -> Self {
        CpuTabu {
            set: BTreeSet::new(),
            fifo: VecDeque::new(),
            max_length,
        }
    }

    pub fn clear(&mut self) {
        self.set.clear();
        self.fifo.clear();
    }

    pub fn len(&self) -> usize {
        self.set.len()
    }

    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    pub fn contains(&self, v: &[u32]) -> bool {
        self.set.contains(v)
    }

    /// As the device's `tabu_find`: (position or -1, insert position) in sorted order.
    pub fn find(&self, v: &[u32]) -> (i32, u32) {
        let p = self.set.range(..v.to_vec()).count() as u32;
        (if self.set.contains(v) { p as i32 } else { -1 }, p)
    }

    /// Inserts `v` unless listed; evicts the oldest entry first when full.
    pub fn insert(&mut self, v: &[u32]) {
        if self.set.contains(v) {
            return;
        }
        if self.fifo.len() == self.max_length {
            if let Some(old) = self.fifo.pop_front() {
                self.set.remove(&old);
            }
        }
        self.set.insert(v.to_vec());
        self.fifo.push_back(v.to_vec());
    }

    pub fn sorted_strings(&self) -> Vec<Vec<u32>> {
        self.set.iter().cloned().collect()
    }
}
