//! Tuning parameters as data (the model is CLBlast's `src/database/`): work-group caps, tiles and
//! other launch constants, one row per device kind. Launch code reads them from
//! [`DeviceContext::tuning`]; no launch site carries a literal. A value is a cap: the launch
//! takes the largest power of two not above it, the device's limit and the kernel's limit
//! (`device::work_group_size`).

use super::{DeviceContext, DeviceInfo, DeviceKind};

/// The launch constants of every kernel family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// HC12 row evaluation kernels (`hc12g_eval`, `qap_eval`, `sat_hc12_eval`): rows per group.
    pub hc12_rows: usize,
    /// The group-winner reduction `hc12_argmin_groups`.
    pub hc12_argmin: usize,
    /// The tabu list's update and search kernels (`cl/tabu.cl`).
    pub tabu: usize,
    /// Island DE: the selection kernels' group (`de_select`, `de_eval_select`).
    pub de_select: usize,
    /// Island DE: the group of `de_init`, taken as it is (not a cap).
    pub de_init: usize,
    /// Island DE: the side of the square local-memory tile of the X <-> Y transposition, on
    /// devices whose groups hold `de_tile_large * de_tile_large` work-items, else `de_tile_small`.
    pub de_tile_large: usize,
    pub de_tile_small: usize,
    /// Batched DE (`deb_run`): work-items of a problem's group (at most; the smallest power of
    /// two covering the members is taken below it).
    pub de_batch: usize,
    /// Island DE, fused generations (`de_fused`): work-items of an island's group (at most; the
    /// smallest power of two covering the members is taken below it, and an island whose power
    /// of two exceeds the device's group limit takes the per-phase path).
    pub de_fused: usize,
    /// SAT MCSX (one assignment, parallel over clauses) count and reduce kernels.
    pub sat_mcsx: usize,
    /// SAT MCSX: most groups of the count kernel (each loops over the clauses beyond the grid).
    pub sat_mcsx_groups: usize,
    /// SAT DXAC (one work-item per assignment); also the pitch granule of its storage.
    pub sat_dxac: usize,
    /// Plain objective evaluation (`functions_eval`).
    pub objective_eval: usize,
    /// QAP robust tabu search (`qap_ts_run`): work-items of the one group of a chain (at most;
    /// capped by the pairs and the kernel's limit). 256 gave the most iterations per chain of 64,
    /// 128 and 256 on every instance tried (512 exceeds the kernel's limit); see
    /// benchmarks/INDEX.md, 2026-11-24-h100-qap_ts_kernel2.
    pub qap_ts: usize,
    /// QAP robust tabu search: whether the work-items of a chain's group read the matrices
    /// across rows (consecutive work-items, consecutive columns of one row: coalesced on a GPU;
    /// asymmetric data then needs the transposes beside the matrices) or each along its own rows
    /// (one work-item's reads contiguous, as a CPU device that runs a work-item in one thread
    /// wants).
    pub qap_ts_across: bool,
    /// QIGA (`qiga_run`): work-items of a population's group (at most; the smallest power of two
    /// covering the items is taken below it). 128 ran the most whole runs per second of 64, 128
    /// and 256 on knapsack-250; see benchmarks/INDEX.md, 2026-11-24-h100-qiga.
    pub qiga: usize,
    /// Exact shortest paths (`cl/sp.cl`): work-items per group of every kernel (at most).
    pub sp: usize,
    /// Exact shortest paths: groups per compute unit of the fixed grid that loops over the
    /// frontier queue (`sp_round`).
    pub sp_push_groups: usize,
    /// Exact shortest paths, one group per source in local memory (`sp_local`): work-items of
    /// a source's group (at most).
    pub sp_local: usize,
    /// ACO (`aco_ants`): work-items of an ant's group (at most; the smallest power of two
    /// covering the largest out-degree is taken below it).
    pub aco: usize,
    /// SAT walks (`sat_sls_run`): lanes (work-items) of a walk's group, which share each flip
    /// (a power of two, at most 32).
    pub sat_sls: usize,
    /// SAT walks: walks per compute unit when the caller gives no count.
    pub sat_sls_walks_per_cu: usize,
}

/// The table: the values measured or chosen per kind (GPUs: NVIDIA measurements listed in
/// benchmarks/INDEX.md; CPUs: PoCL). Today both kinds share most values; a new row is a new line here.
const GPU: Tuning = Tuning {
    hc12_rows: 256,
    hc12_argmin: 256,
    tabu: 256,
    de_select: 64,
    de_init: 64,
    de_tile_large: 16,
    de_tile_small: 8,
    de_batch: 128,
    de_fused: 1024,
    sat_mcsx: 256,
    sat_mcsx_groups: 1024,
    sat_dxac: 64,
    objective_eval: 64,
    qap_ts: 256,
    qap_ts_across: true,
    qiga: 128,
    sp: 256,
    sp_push_groups: 8,
    sp_local: 256,
    aco: 128,
    sat_sls: 32,
    // one warp per walk; 16 groups of a few KB of local memory stay resident on an SM
    sat_sls_walks_per_cu: 16,
};
// PoCL runs a group's work-items in one thread: small chain groups, more groups in flight.
const CPU: Tuning = Tuning {
    qap_ts: 16,
    qap_ts_across: false,
    qiga: 64,
    aco: 16,
    de_batch: 16,
    de_fused: 16,
    sp: 64,
    sp_push_groups: 2,
    sp_local: 64,
    sat_sls: 4,
    sat_sls_walks_per_cu: 4,
    ..GPU
};
const OTHER: Tuning = GPU;

/// The row of `info`'s device kind.
pub fn for_device(info: &DeviceInfo) -> &'static Tuning {
    match info.kind {
        DeviceKind::Gpu => &GPU,
        DeviceKind::Cpu => &CPU,
        DeviceKind::Accelerator | DeviceKind::Other => &OTHER,
    }
}

impl Tuning {
    /// The DE transposition tile for a device whose groups hold at most `max_wg` work-items.
    pub fn de_tile(&self, max_wg: usize) -> usize {
        if max_wg >= self.de_tile_large * self.de_tile_large {
            self.de_tile_large
        } else {
            self.de_tile_small
        }
    }
}

impl DeviceContext {
    /// This device's launch constants.
    pub fn tuning(&self) -> &'static Tuning {
        for_device(&self.info)
    }
}
