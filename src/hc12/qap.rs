//! HC12 over the qapswap2 encoding of the QAP: the thesis's `hc12qs2_v2` (docs/QAP.md).
//!
//! A string holds `2 * swaps` parameters of `ceil(log2 n)` Gray-coded bits; decoded, parameter
//! pair k swaps positions `I[2k] mod n` and `I[2k+1] mod n` of the base permutation, in order.
//! Every row of the neighbourhood is evaluated by an [`Evaluator`] (the device or the CPU); the
//! hill-climbing loop around it is the same for both.

use crate::cpu::qap::{full_cost, CpuEvaluator, QapElem};
use crate::device::{ProgramSpec, event_ns, work_group_size, DeviceBuffer, DeviceContext, Queue};
use crate::error::{Error, Result};
use crate::hc12::tabu::{tabu_options, DeviceTabu, TabuConfig};
use crate::hc12::{enqueue_argmin, gray_to_binary, Neighbourhood};
use crate::problem::qap::{QapInstance, MAX_N};
use opencl3::kernel::{ExecuteKernel, Kernel};
use serde::Serialize;
use std::sync::Arc;

/// Most swaps a string may hold (128 parameters; about 500,000 rows at n = 256).
pub const MAX_SWAPS: u32 = 64;

/// Element type of the QAP matrices, chosen by name as the thesis's `DF_type_name`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ElemType {
    I32,
    I64,
    U32,
    U64,
    F32,
    F64,
}

impl ElemType {
    pub const NAMES: &'static str = "int32, int64, uint32, uint64, single, float, float32, double, float64";

    /// The thesis's type names (and numpy's dtype names).
    pub fn from_name(name: &str) -> Result<Self> {
        Ok(match name {
            "int32" => ElemType::I32,
            "int64" => ElemType::I64,
            "uint32" => ElemType::U32,
            "uint64" => ElemType::U64,
            "single" | "float" | "float32" => ElemType::F32,
            "double" | "float64" => ElemType::F64,
            _ => {
                return Err(Error::UnsupportedType {
                    arg: "DF_type_name",
                    name: name.to_string(),
                    expected: Self::NAMES,
                })
            }
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            ElemType::I32 => "int32",
            ElemType::I64 => "int64",
            ElemType::U32 => "uint32",
            ElemType::U64 => "uint64",
            ElemType::F32 => "float32",
            ElemType::F64 => "float64",
        }
    }

    /// `QAP_TYPE` of `cl/qap.cl`.
    fn cl_type(self) -> u32 {
        self as u32 + 1
    }

    /// `FT_KIND` of `cl/common.cl`: the type the cost is summed and compared in.
    pub fn ft_kind(self) -> u32 {
        match self {
            ElemType::I32 | ElemType::I64 => 1,
            ElemType::U32 | ElemType::U64 => 2,
            ElemType::F32 => 3,
            ElemType::F64 => 4,
        }
    }

    pub fn size(self) -> usize {
        match self {
            ElemType::I32 | ElemType::U32 | ElemType::F32 => 4,
            _ => 8,
        }
    }

    pub fn is_integer(self) -> bool {
        !matches!(self, ElemType::F32 | ElemType::F64)
    }
}

/// A cost: 64-bit sums for integer data, the element's own type for float data. The variant is
/// also the C ABI's `result_type` (1..4).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Cost {
    I64(i64),
    U64(u64),
    F32(f32),
    F64(f64),
}

impl Cost {
    /// Strict order within one variant (costs of different variants never meet).
    pub fn less(&self, o: &Cost) -> bool {
        match (self, o) {
            (Cost::I64(a), Cost::I64(b)) => a < b,
            (Cost::U64(a), Cost::U64(b)) => a < b,
            (Cost::F32(a), Cost::F32(b)) => a < b,
            (Cost::F64(a), Cost::F64(b)) => a < b,
            _ => false,
        }
    }

    pub fn as_f64(&self) -> f64 {
        match *self {
            Cost::I64(v) => v as f64,
            Cost::U64(v) => v as f64,
            Cost::F32(v) => v as f64,
            Cost::F64(v) => v,
        }
    }

    /// The 64-bit transport of `FT_TO_BITS`.
    pub fn bits(&self) -> u64 {
        match *self {
            Cost::I64(v) => v as u64,
            Cost::U64(v) => v,
            Cost::F32(v) => v.to_bits() as u64,
            Cost::F64(v) => v.to_bits(),
        }
    }

    pub fn from_bits(ft_kind: u32, u: u64) -> Cost {
        match ft_kind {
            1 => Cost::I64(u as i64),
            2 => Cost::U64(u),
            3 => Cost::F32(f32::from_bits(u as u32)),
            _ => Cost::F64(f64::from_bits(u)),
        }
    }

    /// The worst value of this cost's type (`FT_WORST` of the kernels): what a tabu row gets.
    pub fn worst(&self) -> Cost {
        match self {
            Cost::I64(_) => Cost::I64(i64::MAX),
            Cost::U64(_) => Cost::U64(u64::MAX),
            Cost::F32(_) => Cost::F32(f32::INFINITY),
            Cost::F64(_) => Cost::F64(f64::INFINITY),
        }
    }

    /// The C ABI's `result_type`: 1 int64, 2 uint64, 3 float, 4 double.
    pub fn result_type(&self) -> i32 {
        match self {
            Cost::I64(_) => 1,
            Cost::U64(_) => 2,
            Cost::F32(_) => 3,
            Cost::F64(_) => 4,
        }
    }
}

impl std::fmt::Display for Cost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cost::I64(v) => write!(f, "{v}"),
            Cost::U64(v) => write!(f, "{v}"),
            Cost::F32(v) => write!(f, "{v}"),
            Cost::F64(v) => write!(f, "{v}"),
        }
    }
}

/// The two matrix stacks A and B (`slices` matrices of n x n each, row-major, slice after slice).
#[derive(Clone, Debug)]
pub enum QapMatrices {
    I32(Vec<i32>, Vec<i32>),
    I64(Vec<i64>, Vec<i64>),
    U32(Vec<u32>, Vec<u32>),
    U64(Vec<u64>, Vec<u64>),
    F32(Vec<f32>, Vec<f32>),
    F64(Vec<f64>, Vec<f64>),
}

/// Runs `$body` with `$a`, `$b` bound to the typed matrices of `$m` (generic code over the six
/// element types without six copies of it).
#[macro_export]
#[doc(hidden)]
macro_rules! with_matrices {
    ($m:expr, |$a:ident, $b:ident| $body:expr) => {
        match $m {
            $crate::hc12::qap::QapMatrices::I32($a, $b) => $body,
            $crate::hc12::qap::QapMatrices::I64($a, $b) => $body,
            $crate::hc12::qap::QapMatrices::U32($a, $b) => $body,
            $crate::hc12::qap::QapMatrices::U64($a, $b) => $body,
            $crate::hc12::qap::QapMatrices::F32($a, $b) => $body,
            $crate::hc12::qap::QapMatrices::F64($a, $b) => $body,
        }
    };
}

fn as_bytes<T: QapElem>(v: &[T]) -> &[u8] {
    // SAFETY: QapElem types are plain integers and floats without padding.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }
}

impl QapMatrices {
    pub fn elem_type(&self) -> ElemType {
        fn t<T: QapElem>(_: &[T]) -> ElemType {
            T::TYPE
        }
        with_matrices!(self, |a, _b| t(a))
    }

    fn lens(&self) -> (usize, usize) {
        with_matrices!(self, |a, b| (a.len(), b.len()))
    }

    fn all_finite(&self) -> bool {
        with_matrices!(self, |a, b| a.iter().chain(b.iter()).all(|x| x.is_finite()))
    }

    /// Integer costs are summed in 64-bit arithmetic (signed for the signed types): refuses
    /// matrices whose costs could leave that range, so no cost wraps silently. The bound of a
    /// slice is min(sum |A| max |B|, sum |B| max |A|); slices are summed.
    fn check_integer_range(&self, n: usize) -> Result<()> {
        fn check<T: Copy + Into<i128>>(a: &[T], b: &[T], n: usize, limit: u128, ty: &str) -> Result<()> {
            let abs = |v: &[T]| v.iter().map(|&x| x.into().unsigned_abs()).collect::<Vec<u128>>();
            let sum = |v: &[u128]| v.iter().fold(0u128, |s, &x| s.saturating_add(x));
            let max = |v: &[u128]| v.iter().copied().max().unwrap_or(0);
            let mut bound = 0u128;
            for (sa, sb) in a.chunks(n * n).zip(b.chunks(n * n)) {
                let (sa, sb) = (abs(sa), abs(sb));
                let slice = sum(&sa).saturating_mul(max(&sb)).min(sum(&sb).saturating_mul(max(&sa)));
                bound = bound.saturating_add(slice);
            }
            if bound > limit {
                return Err(Error::arg(
                    "DF",
                    format!("{ty} costs can reach {bound}, beyond {limit}, the range of their 64-bit sums; use smaller values or a float type"),
                ));
            }
            Ok(())
        }
        let (signed, unsigned) = (i64::MAX as u128, u64::MAX as u128);
        match self {
            QapMatrices::I32(a, b) => check(a, b, n, signed, "int32"),
            QapMatrices::I64(a, b) => check(a, b, n, signed, "int64"),
            QapMatrices::U32(a, b) => check(a, b, n, unsigned, "uint32"),
            QapMatrices::U64(a, b) => check(a, b, n, unsigned, "uint64"),
            QapMatrices::F32(..) | QapMatrices::F64(..) => Ok(()),
        }
    }

    fn bytes(&self) -> (&[u8], &[u8]) {
        with_matrices!(self, |a, b| (as_bytes(a), as_bytes(b)))
    }
}

/// Splits the thesis's combined matrix DF (one per slice) into A and B: the part below the
/// diagonal is the flow matrix A (indexed by facilities, not permuted), the part above it the
/// distance matrix B (permuted); both are symmetric with zero diagonals, as DF only holds
/// symmetric instances.
pub fn split_df<T: Copy + Default + PartialEq>(n: usize, slices: usize, df: &[T]) -> Result<(Vec<T>, Vec<T>)> {
    check_sizes(n, slices)?;
    if df.len() != n * n * slices {
        return Err(Error::arg("DF", format!("{} elements; expected nElements^2 * nSlices = {}", df.len(), n * n * slices)));
    }
    let mut a = vec![T::default(); df.len()];
    let mut b = vec![T::default(); df.len()];
    for s in 0..slices {
        let d = &df[s * n * n..(s + 1) * n * n];
        for i in 0..n {
            if d[i * n + i] != T::default() {
                return Err(Error::arg(
                    "DF",
                    format!("slice {s}: diagonal element ({i},{i}) is not zero; DF holds symmetric zero-diagonal instances, use the two-matrix form for others"),
                ));
            }
            for j in 0..i {
                let (lo, up) = (d[i * n + j], d[j * n + i]);
                a[s * n * n + i * n + j] = lo;
                a[s * n * n + j * n + i] = lo;
                b[s * n * n + i * n + j] = up;
                b[s * n * n + j * n + i] = up;
            }
        }
    }
    Ok((a, b))
}

fn check_sizes(n: usize, slices: usize) -> Result<()> {
    if !(2..=MAX_N).contains(&n) {
        return Err(Error::arg("nElements", format!("{n}; expected 2..{MAX_N}")));
    }
    if slices == 0 {
        return Err(Error::arg("nSlices", "0; expected at least 1"));
    }
    Ok(())
}

/// A QAP instance ready for the solvers: size, number of slices (scenarios of the stochastic
/// variant, summed) and typed matrices.
#[derive(Clone, Debug)]
pub struct QapProblem {
    pub name: String,
    pub n: usize,
    pub slices: usize,
    pub data: QapMatrices,
}

impl QapProblem {
    /// Checks sizes, lengths and (for float data) that every element is finite.
    pub fn new(name: impl Into<String>, n: usize, slices: usize, data: QapMatrices) -> Result<Self> {
        check_sizes(n, slices)?;
        let (la, lb) = data.lens();
        let want = n * n * slices;
        if la != want {
            return Err(Error::arg("A", format!("{la} elements; expected n^2 * nSlices = {want}")));
        }
        if lb != want {
            return Err(Error::arg("B", format!("{lb} elements; expected n^2 * nSlices = {want}")));
        }
        if !data.all_finite() {
            return Err(Error::arg("DF", "contains NaN or infinite elements"));
        }
        data.check_integer_range(n)?;
        Ok(QapProblem { name: name.into(), n, slices, data })
    }

    /// A QAPLIB instance, in 64-bit integers.
    pub fn from_instance(inst: &QapInstance) -> Self {
        QapProblem {
            name: inst.name.clone(),
            n: inst.n,
            slices: 1,
            data: QapMatrices::I64(inst.a.clone(), inst.b.clone()),
        }
    }

    /// A QAPLIB instance converted to another element type (values must fit).
    pub fn from_instance_as(inst: &QapInstance, ty: ElemType) -> Result<Self> {
        fn conv<T: TryFrom<i64>>(v: &[i64], ty: ElemType) -> Result<Vec<T>> {
            v.iter()
                .map(|&x| T::try_from(x).map_err(|_| Error::arg("type", format!("value {x} does not fit {}", ty.name()))))
                .collect()
        }
        let (a, b) = (&inst.a, &inst.b);
        let data = match ty {
            ElemType::I32 => QapMatrices::I32(conv(a, ty)?, conv(b, ty)?),
            ElemType::I64 => QapMatrices::I64(a.clone(), b.clone()),
            ElemType::U32 => QapMatrices::U32(conv(a, ty)?, conv(b, ty)?),
            ElemType::U64 => QapMatrices::U64(conv(a, ty)?, conv(b, ty)?),
            ElemType::F32 => QapMatrices::F32(a.iter().map(|&x| x as f32).collect(), b.iter().map(|&x| x as f32).collect()),
            ElemType::F64 => QapMatrices::F64(a.iter().map(|&x| x as f64).collect(), b.iter().map(|&x| x as f64).collect()),
        };
        QapProblem::new(inst.name.clone(), inst.n, 1, data)
    }

    pub fn elem_type(&self) -> ElemType {
        self.data.elem_type()
    }

    /// The cost of a permutation of 0..n (host reference, full form).
    pub fn cost(&self, perm: &[usize]) -> Result<Cost> {
        check_perm(perm, self.n, "permutation")?;
        let order: Vec<u8> = perm.iter().map(|&p| p as u8).collect();
        Ok(self.cost_order(&order))
    }

    fn cost_order(&self, order: &[u8]) -> Cost {
        with_matrices!(&self.data, |a, b| full_cost(self.n, self.slices, a, b, order))
    }
}

/// Checks that `perm` is a permutation of 0..n.
pub fn check_perm(perm: &[usize], n: usize, arg: &'static str) -> Result<()> {
    if perm.len() != n {
        return Err(Error::arg(arg, format!("length {}; expected {n}", perm.len())));
    }
    let mut seen = vec![false; n];
    for (i, &p) in perm.iter().enumerate() {
        if p >= n {
            return Err(Error::arg(arg, format!("element {i} = {p} is out of range 0..{}", n - 1)));
        }
        if seen[p] {
            return Err(Error::arg(arg, format!("value {p} appears twice; not a permutation")));
        }
        seen[p] = true;
    }
    Ok(())
}

/// Everything an evaluator needs for one iteration: the base permutation, the current string,
/// its decoded parameters, the current permutation and its cost.
#[derive(Clone, Debug)]
pub struct IterState {
    pub base: Vec<u8>,
    pub k: Vec<u32>,
    pub i_cur: Vec<u32>,
    pub cur: Vec<u8>,
    pub cur_cost: Cost,
}

/// Every row's cost of one iteration.
pub type RowCosts = Vec<Cost>;

/// How the tabu list takes part in one evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct TabuQuery {
    /// Put the current string `st.k` on the list before evaluating (only the string moved to is
    /// ever listed, never the whole neighbourhood).
    pub insert: bool,
    /// Rows whose string is listed get the worst value.
    pub check: bool,
    /// With aspiration: the best cost ever seen, which a listed row may still beat.
    pub aspiration: Option<Cost>,
}

/// Evaluates every row of the neighbourhood of an [`IterState`], and keeps the tabu list.
pub trait Evaluator: Send {
    /// The best row: lowest cost, ties to the lowest row. Listed rows count as worst when
    /// `tabu.check` is set; a row of worst value is then returned only when every row is listed.
    fn best_row(&mut self, st: &IterState, tabu: &TabuQuery) -> Result<(Cost, u64)>;
    /// Every row's cost, without the tabu list (for tests and traces).
    fn all_costs(&mut self, st: &IterState) -> Result<RowCosts>;
    /// Makes an empty tabu list of `max_length` entries (0: none).
    fn tabu_reset(&mut self, max_length: usize) -> Result<()>;
    /// The listed strings in sorted order (for tests).
    fn tabu_strings(&mut self) -> Result<Vec<Vec<u32>>>;
    fn description(&self) -> String;
}

pub use crate::device::Backend;

/// How a row's cost is computed: the thesis's full O(n^2) sum or the O(n) delta form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
pub enum CostForm {
    Full,
    #[default]
    Delta,
}

/// The device evaluator: `qap_eval` then `hc12_argmin_groups`, one small state upload and one
/// 16-byte read per iteration.
pub struct DeviceEvaluator {
    queue: Queue,
    options: String,
    n_param: usize,
    eval: Kernel,
    argmin: Kernel,
    tabu: Option<DeviceTabu>,
    /// Stands in for the tabu buffers while there is no list.
    no_tabu: DeviceBuffer<u32>,
    a: DeviceBuffer<u8>,
    b: DeviceBuffer<u8>,
    state: DeviceBuffer<u32>,
    group_best: DeviceBuffer<u64>,
    out: DeviceBuffer<u64>,
    all_f: Option<DeviceBuffer<u8>>,
    rows: u64,
    wg: usize,
    wg2: usize,
    groups: usize,
    ft_kind: u32,
    ft_size: usize,
    /// Nanoseconds the device spent in the two kernels (profiling events), summed.
    pub kernel_ns: u64,
}

impl DeviceEvaluator {
    pub fn new(p: &QapProblem, nb: &Neighbourhood, swaps: u32, form: CostForm, device: Option<usize>) -> Result<Self> {
        let ctx = match device {
            Some(d) => DeviceContext::get(d)?,
            None => DeviceContext::current()?,
        };
        let ty = p.elem_type();
        if ty == ElemType::F64 {
            ctx.require_fp64()?;
        }
        let opts = format!(
            "-DFT_KIND={} -DQAP_TYPE={} -DQAP_N={} -DQAP_SLICES={} -DQAP_SWAPS={} -DQAP_ROWS={}u \
             -DQAP_DELTA={} -DHC_BITLEN={} -DHC_START={} -DHC_ORDER={} -DHC_NBIT={}",
            ty.ft_kind(),
            ty.cl_type(),
            p.n,
            p.slices,
            swaps,
            nb.rows,
            (form == CostForm::Delta) as u32,
            nb.bit_length,
            nb.start_bit,
            nb.mask_order,
            nb.nbit
        );
        let queue = ctx.queue()?;
        let n_param = 2 * swaps as usize;
        let program = ctx.build(&ProgramSpec::files(&Self::FILES).flags(&format!("{opts} {}", tabu_options(1, n_param))))?;
        let eval = queue.kernel(&program, "qap_eval")?;
        let argmin = queue.kernel(&program, "hc12_argmin_groups")?;
        let wg = work_group_size(&ctx, &eval, 256);
        let wg2 = work_group_size(&ctx, &argmin, 256);
        let groups = (nb.rows as usize).div_ceil(wg);
        let (ab, bb) = p.data.bytes();
        let a = queue.buffer_from(ab, "A")?;
        let b = queue.buffer_from(bb, "B")?;
        let state_len = 4 * swaps as usize + 2 * p.n + 2;
        Ok(DeviceEvaluator {
            options: opts,
            n_param,
            tabu: None,
            no_tabu: queue.buffer_from(&[0u32; 2], "no tabu")?,
            state: queue.buffer(state_len, "state")?,
            group_best: queue.buffer(2 * groups, "group_best")?,
            out: queue.buffer(2, "out")?,
            a,
            b,
            all_f: None,
            rows: nb.rows,
            wg,
            wg2,
            groups,
            ft_kind: ty.ft_kind(),
            ft_size: if ty.ft_kind() == 3 { 4 } else { 8 },
            eval,
            argmin,
            queue,
            kernel_ns: 0,
        })
    }

    const FILES: [&'static str; 4] = ["common.cl", "hc12.cl", "tabu.cl", "qap.cl"];

    fn upload(&mut self, st: &IterState) -> Result<()> {
        let mut s = Vec::with_capacity(self.state.len());
        s.extend_from_slice(&st.k);
        s.extend_from_slice(&st.i_cur);
        s.extend(st.cur.iter().map(|&v| v as u32));
        let bits = st.cur_cost.bits();
        s.push(bits as u32);
        s.push((bits >> 32) as u32);
        s.extend(st.base.iter().map(|&v| v as u32));
        self.state.write(&self.queue, &s)
    }

    fn launch(&mut self, store_f: bool, tabu: &TabuQuery) -> Result<()> {
        let local_f = self.wg * 8;
        let local_r = self.wg * 4;
        let dummy;
        let all_f = match (&self.all_f, store_f) {
            (Some(b), true) => b,
            _ => {
                dummy = self.queue.buffer::<u8>(8, "all_f")?;
                &dummy
            }
        };
        let store = store_f as u32;
        let groups = self.groups as u32;
        let (tx, ti, tm) = match &self.tabu {
            Some(t) => (&t.x, t.index(), &t.meta),
            None => (&self.no_tabu, &self.no_tabu, &self.no_tabu),
        };
        let check = (tabu.check && self.tabu.is_some()) as u32;
        let aspiration = tabu.aspiration.is_some() as u32;
        let best_bits = tabu.aspiration.map_or(0, |c| c.bits());
        // SAFETY: the arguments match `qap_eval` and `hc12_argmin_groups` in type and order; the
        // buffers outlive the kernels, which finish before `read` returns (in-order queue).
        let (e1, e2) = unsafe {
            let e1 = ExecuteKernel::new(&self.eval)
                .set_arg(self.a.cl())
                .set_arg(self.b.cl())
                .set_arg(self.state.cl())
                .set_arg(self.group_best.cl())
                .set_arg(all_f.cl())
                .set_arg(&store)
                .set_arg(tx.cl())
                .set_arg(ti.cl())
                .set_arg(tm.cl())
                .set_arg(&check)
                .set_arg(&aspiration)
                .set_arg(&best_bits)
                .set_arg_local_buffer(local_f)
                .set_arg_local_buffer(local_r)
                .set_global_work_size(self.groups * self.wg)
                .set_local_work_size(self.wg)
                .enqueue_nd_range(self.queue.cl())
                .map_err(crate::device::cl_error("clEnqueueNDRangeKernel(qap_eval)"))?;
            let e2 = enqueue_argmin(&self.queue, &self.argmin, &self.group_best, groups, &self.out, self.wg2, 8)?;
            (e1, e2)
        };
        self.queue.finish()?;
        self.kernel_ns += event_ns(&e1) + event_ns(&e2);
        Ok(())
    }
}

impl Evaluator for DeviceEvaluator {
    fn best_row(&mut self, st: &IterState, tabu: &TabuQuery) -> Result<(Cost, u64)> {
        // one upload serves the insert (which reads K from the state buffer) and the evaluation
        self.upload(st)?;
        if tabu.insert {
            let t = self.tabu.as_mut().ok_or_else(|| Error::arg("tabu list", "not initialised"))?;
            t.insert(&self.queue, &self.state, 0)?;
        }
        self.launch(false, tabu)?;
        let mut out = [0u64; 2];
        self.out.read(&self.queue, &mut out)?;
        if out[1] >= self.rows {
            return Err(Error::Panic(format!("device argmin returned row {} of {}", out[1], self.rows)));
        }
        Ok((Cost::from_bits(self.ft_kind, out[0]), out[1]))
    }

    fn all_costs(&mut self, st: &IterState) -> Result<RowCosts> {
        if self.all_f.is_none() {
            self.all_f = Some(self.queue.buffer(self.rows as usize * self.ft_size, "all_f")?);
        }
        self.upload(st)?;
        self.launch(true, &TabuQuery::default())?;
        let raw = self.all_f.as_ref().expect("allocated above").to_vec(&self.queue)?;
        Ok(raw
            .chunks_exact(self.ft_size)
            .take(self.rows as usize)
            .map(|c| {
                let mut w = [0u8; 8];
                w[..c.len()].copy_from_slice(c);
                Cost::from_bits(self.ft_kind, u64::from_le_bytes(w))
            })
            .collect())
    }

    fn tabu_reset(&mut self, max_length: usize) -> Result<()> {
        if max_length == 0 {
            self.tabu = None;
            return Ok(());
        }
        if let Some(t) = &mut self.tabu {
            if t.max_length == max_length {
                return t.clear(&self.queue);
            }
        }
        // the capacity is a build-time constant of the kernels
        let opts = format!("{} {}", self.options, tabu_options(max_length, self.n_param));
        let program = self.queue.ctx().build(&ProgramSpec::files(&Self::FILES).flags(&opts))?;
        self.eval = self.queue.kernel(&program, "qap_eval")?;
        self.argmin = self.queue.kernel(&program, "hc12_argmin_groups")?;
        self.tabu = Some(DeviceTabu::new(&self.queue, &program, max_length, self.n_param)?);
        Ok(())
    }

    fn tabu_strings(&mut self) -> Result<Vec<Vec<u32>>> {
        match &self.tabu {
            Some(t) => t.sorted_strings(&self.queue),
            None => Ok(Vec::new()),
        }
    }

    fn description(&self) -> String {
        let i = &self.queue.ctx().info;
        format!("device {}: {} ({}, {})", i.index, i.name, i.platform, i.kind.as_str())
    }
}

/// The result of one HC12 run (to a local optimum or the iteration cap).
#[derive(Clone, Debug, Serialize)]
pub struct RunOutcome {
    pub cost: Cost,
    /// The best permutation, 0-based.
    pub order: Vec<usize>,
    /// The best string, Gray-coded, one parameter per word (relative to the run's base).
    pub k_gc: Vec<u32>,
    /// Iterations made (neighbourhood evaluations).
    pub iterations: u32,
    /// Rows evaluated.
    pub evaluations: u64,
    /// True when the run ended at a local optimum (plain HC12) or because every neighbour was
    /// tabu; false when an iteration limit ended it.
    pub local_optimum: bool,
}

/// One iteration of a traced run: the string the iteration started from (which a tabu run has
/// just put on its list), the row selected, the string moved to and its cost.
#[derive(Clone, Debug, Serialize)]
pub struct TraceStep {
    pub from: Vec<u32>,
    pub row: u64,
    pub to: Vec<u32>,
    pub cost: Cost,
}

/// The qapswap2 HC12 solver over one problem.
pub struct QapHc12 {
    problem: Arc<QapProblem>,
    nb: Neighbourhood,
    swaps: u32,
    eval: Box<dyn Evaluator>,
    tabu: Option<TabuConfig>,
    /// Cap on iterations per run of plain HC12 (a tabu run has its own limits).
    pub max_iterations: u32,
    /// When set, every iteration of the following runs is recorded here.
    pub trace: Option<Vec<TraceStep>>,
}

/// Bits per parameter of an n-element problem: ceil(log2 n).
pub fn bits_for(n: usize) -> u32 {
    (usize::BITS - (n - 1).leading_zeros()).max(1)
}

impl QapHc12 {
    /// `start_bit`/`bit_length` select the window of the string the masks act on (`bit_length`
    /// 0 = to the end); `mask_order` is 1..3.
    pub fn new(
        problem: Arc<QapProblem>,
        swaps: u32,
        mask_order: u32,
        start_bit: i64,
        bit_length: i64,
        backend: Backend,
        form: CostForm,
    ) -> Result<Self> {
        if swaps == 0 || swaps > MAX_SWAPS {
            return Err(Error::arg("swaps", format!("{swaps}; expected 1..{MAX_SWAPS}")));
        }
        let nb = Neighbourhood::new(2 * swaps, bits_for(problem.n), mask_order, start_bit, bit_length)?;
        let eval: Box<dyn Evaluator> = match backend {
            Backend::Device(d) => Box::new(DeviceEvaluator::new(&problem, &nb, swaps, form, d)?),
            Backend::Cpu => {
                let (n, slices, delta) = (problem.n, problem.slices, form == CostForm::Delta);
                macro_rules! cpu {
                    ($a:expr, $b:expr) => {
                        Box::new(CpuEvaluator { n, slices, a: Arc::new($a.clone()), b: Arc::new($b.clone()), nb, delta, tabu: None })
                    };
                }
                match &problem.data {
                    QapMatrices::I32(a, b) => cpu!(a, b),
                    QapMatrices::I64(a, b) => cpu!(a, b),
                    QapMatrices::U32(a, b) => cpu!(a, b),
                    QapMatrices::U64(a, b) => cpu!(a, b),
                    QapMatrices::F32(a, b) => cpu!(a, b),
                    QapMatrices::F64(a, b) => cpu!(a, b),
                }
            }
        };
        Ok(QapHc12 { problem, nb, swaps, eval, tabu: None, max_iterations: 1_000_000, trace: None })
    }

    pub fn problem(&self) -> &Arc<QapProblem> {
        &self.problem
    }

    pub fn neighbourhood(&self) -> &Neighbourhood {
        &self.nb
    }

    pub fn swaps(&self) -> u32 {
        self.swaps
    }

    pub fn rows(&self) -> u64 {
        self.nb.rows
    }

    pub fn backend_description(&self) -> String {
        self.eval.description()
    }

    /// The all-zero string, meaning "the base permutation itself".
    pub fn zero_string(&self) -> Vec<u32> {
        vec![0; self.nb.n_param as usize]
    }

    /// The state of string `k` over base permutation `base`.
    pub fn state(&self, base: &[usize], k: &[u32]) -> Result<IterState> {
        check_perm(base, self.problem.n, "initOrder")?;
        self.nb.check_string(k, "initK")?;
        let i_cur: Vec<u32> = k.iter().map(|&g| gray_to_binary(g)).collect();
        let mut cur: Vec<u8> = base.iter().map(|&v| v as u8).collect();
        let n = cur.len();
        for pair in i_cur.chunks_exact(2) {
            cur.swap(pair[0] as usize % n, pair[1] as usize % n);
        }
        let cur_cost = self.problem.cost_order(&cur);
        Ok(IterState { base: base.iter().map(|&v| v as u8).collect(), k: k.to_vec(), i_cur, cur, cur_cost })
    }

    /// The best row of the neighbourhood of (base, k), without the tabu list.
    pub fn best_row(&mut self, st: &IterState) -> Result<(Cost, u64)> {
        self.eval.best_row(st, &TabuQuery::default())
    }

    /// Every row's cost in the neighbourhood of (base, k).
    pub fn all_costs(&mut self, st: &IterState) -> Result<RowCosts> {
        self.eval.all_costs(st)
    }

    /// The permutation of row `row` (host computation, for tests).
    pub fn row_permutation(&self, st: &IterState, row: u64) -> Vec<usize> {
        let mut order = [0u8; 256];
        crate::cpu::qap::row_order(&self.nb, st, row, &mut order);
        order[..self.problem.n].iter().map(|&v| v as usize).collect()
    }

    /// Turns the tabu list on (thesis `initTabuList` / `set-tabu-list`); each run then starts
    /// with an empty list.
    pub fn init_tabu_list(&mut self, cfg: TabuConfig) -> Result<()> {
        cfg.check()?;
        self.eval.tabu_reset(cfg.max_length)?;
        self.tabu = Some(cfg);
        Ok(())
    }

    /// Back to plain HC12.
    pub fn clear_tabu_list(&mut self) -> Result<()> {
        self.eval.tabu_reset(0)?;
        self.tabu = None;
        Ok(())
    }

    pub fn tabu_config(&self) -> Option<&TabuConfig> {
        self.tabu.as_ref()
    }

    /// The strings on the tabu list now, sorted (for tests).
    pub fn tabu_strings(&mut self) -> Result<Vec<Vec<u32>>> {
        self.eval.tabu_strings()
    }

    /// One run from `base` (identity when None) and string `k` (zeros when None): plain HC12 to
    /// a local optimum or `max_iterations`, or with the tabu list until its limits; the result is
    /// the best string ever seen.
    pub fn run(&mut self, base: Option<&[usize]>, k: Option<&[u32]>) -> Result<RunOutcome> {
        let identity: Vec<usize> = (0..self.problem.n).collect();
        let base = base.unwrap_or(&identity);
        let zero = self.zero_string();
        let mut st = self.state(base, k.unwrap_or(&zero))?;
        let tabu = self.tabu.clone();
        if let Some(cfg) = &tabu {
            self.eval.tabu_reset(cfg.max_length)?;
        }
        let max_iterations = tabu.as_ref().map_or(self.max_iterations, |c| c.max_iterations);
        let mut best = st.clone();
        let (mut iterations, mut evaluations, mut no_improve) = (0u32, 0u64, 0u32);
        let mut local_optimum = false;
        while iterations < max_iterations {
            let mut query = TabuQuery::default();
            if let Some(cfg) = &tabu {
                query.insert = true;
                query.check = cfg.activation_limit.is_none_or(|l| st.cur_cost.as_f64() < l);
                query.aspiration = cfg.aspiration.then_some(best.cur_cost);
            }
            let (f, row) = self.eval.best_row(&st, &query)?;
            iterations += 1;
            evaluations += self.nb.rows;
            // row 0 is the current string: a local optimum, or (with the list) every row tabu
            if row == 0 || (query.check && f == st.cur_cost.worst()) {
                local_optimum = true;
                break;
            }
            let mut k = st.k.clone();
            self.nb.apply_row(&mut k, row);
            let next = self.state(base, &k)?;
            if let Some(trace) = &mut self.trace {
                trace.push(TraceStep { from: st.k.clone(), row, to: k, cost: next.cur_cost });
            }
            st = next;
            if st.cur_cost.less(&best.cur_cost) {
                best = st.clone();
                no_improve = 0;
            } else {
                no_improve += 1;
                if tabu.as_ref().is_some_and(|c| no_improve >= c.max_no_improve) {
                    break;
                }
            }
        }
        Ok(RunOutcome {
            cost: best.cur_cost,
            order: best.cur.iter().map(|&v| v as usize).collect(),
            k_gc: best.k,
            iterations,
            evaluations,
            local_optimum,
        })
    }
}
