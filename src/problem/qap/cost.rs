//! The QAP's element and cost types, the typed matrices the solvers take ([`QapProblem`]), and
//! the one host implementation of the full cost, the delta cost and the permutation check. The
//! loops follow `cl/qap.cl` term by term, so integer results are identical to the device's and
//! float results differ only by the device's rounding.

use super::instance::{QapInstance, MAX_N};
use super::perm::check_perm;
use crate::device::ClScalar;
use crate::error::{Error, Result};
use serde::Serialize;

/// Element type of the QAP matrices, chosen by name as the thesis's `DF_type_name`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ElemType {
    I32,
    I64,
    U32,
    U64,
    F32,
    F64,
}

impl ElemType {
    pub const NAMES: &'static str =
        "int32, int64, uint32, uint64, single, float, float32, double, float64";

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
    pub fn cl_type(self) -> u32 {
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
            $crate::problem::qap::cost::QapMatrices::I32($a, $b) => $body,
            $crate::problem::qap::cost::QapMatrices::I64($a, $b) => $body,
            $crate::problem::qap::cost::QapMatrices::U32($a, $b) => $body,
            $crate::problem::qap::cost::QapMatrices::U64($a, $b) => $body,
            $crate::problem::qap::cost::QapMatrices::F32($a, $b) => $body,
            $crate::problem::qap::cost::QapMatrices::F64($a, $b) => $body,
        }
    };
}

pub(crate) fn as_bytes<T: QapElem>(v: &[T]) -> &[u8] {
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

    /// max |A| and max |B| over every slice, for integer data; None for float data.
    pub fn integer_max_abs(&self) -> Option<(u128, u128)> {
        fn max_abs<T: Copy + Into<i128>>(m: &[T]) -> u128 {
            m.iter()
                .map(|&x| x.into().unsigned_abs())
                .max()
                .unwrap_or(0)
        }
        match self {
            QapMatrices::I32(a, b) => Some((max_abs(a), max_abs(b))),
            QapMatrices::I64(a, b) => Some((max_abs(a), max_abs(b))),
            QapMatrices::U32(a, b) => Some((max_abs(a), max_abs(b))),
            QapMatrices::U64(a, b) => Some((max_abs(a), max_abs(b))),
            QapMatrices::F32(..) | QapMatrices::F64(..) => None,
        }
    }

    /// Integer costs are summed in 64-bit arithmetic (signed for the signed types): refuses
    /// matrices whose costs could leave that range, so no cost wraps silently. The bound of a
    /// slice is min(sum |A| max |B|, sum |B| max |A|); slices are summed.
    fn check_integer_range(&self, n: usize) -> Result<()> {
        fn check<T: Copy + Into<i128>>(
            a: &[T],
            b: &[T],
            n: usize,
            limit: u128,
            ty: &str,
        ) -> Result<()> {
            // the sum and the largest of the absolute values of a matrix, in one pass
            let sum_max = |v: &[T]| {
                v.iter().fold((0u128, 0u128), |(s, m), &x| {
                    let x = x.into().unsigned_abs();
                    (s.saturating_add(x), m.max(x))
                })
            };
            let mut bound = 0u128;
            for (sa, sb) in a.chunks(n * n).zip(b.chunks(n * n)) {
                let ((suma, maxa), (sumb, maxb)) = (sum_max(sa), sum_max(sb));
                let slice = suma.saturating_mul(maxb).min(sumb.saturating_mul(maxa));
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
            QapMatrices::F32(a, b) => check_float(a, b, n, f32::MAX as f64, "float32"),
            QapMatrices::F64(a, b) => check_float(a, b, n, f64::MAX, "float64"),
        }
    }
}

/// Float costs whose sums can overflow would solve to Inf or NaN (Inf - Inf): refuses data where
/// twice the sum over slices of max|A| max|B| n^2 (a cost, and the cost plus a delta) exceeds the
/// type's largest value (docs/ARCHITECTURE.md, Reliability).
fn check_float<T: Copy + Into<f64>>(
    a: &[T],
    b: &[T],
    n: usize,
    max_value: f64,
    ty: &str,
) -> Result<()> {
    let nn = (n * n).max(1);
    let max_abs = |v: &[T]| v.iter().fold(0.0f64, |m, &x| m.max(x.into().abs()));
    let mut bound = 0.0f64;
    for (sa, sb) in a.chunks(nn).zip(b.chunks(nn)) {
        bound += max_abs(sa) * max_abs(sb) * (n as f64) * (n as f64);
    }
    if bound.is_nan() || 2.0 * bound > max_value {
        return Err(Error::arg(
            "DF",
            format!("{ty} costs can reach {bound:e} (max|A| max|B| n^2), too near or beyond {max_value:e}, the largest {ty}: the cost would overflow to Inf or NaN; scale the data down or use float64"),
        ));
    }
    Ok(())
}

impl QapMatrices {
    pub fn bytes(&self) -> (&[u8], &[u8]) {
        with_matrices!(self, |a, b| (as_bytes(a), as_bytes(b)))
    }
}

/// Splits the thesis's combined matrix DF (one per slice) into A and B: the part below the
/// diagonal is the flow matrix A (indexed by facilities, not permuted), the part above it the
/// distance matrix B (permuted); both are symmetric with zero diagonals, as DF only holds
/// symmetric instances.
pub fn split_df<T: Copy + Default + PartialEq>(
    n: usize,
    slices: usize,
    df: &[T],
) -> Result<(Vec<T>, Vec<T>)> {
    check_sizes(n, slices)?;
    if df.len() != n * n * slices {
        return Err(Error::arg(
            "DF",
            format!(
                "{} elements; expected nElements^2 * nSlices = {}",
                df.len(),
                n * n * slices
            ),
        ));
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
    pub fn new(
        name: impl Into<String>,
        n: usize,
        slices: usize,
        data: QapMatrices,
    ) -> Result<Self> {
        check_sizes(n, slices)?;
        let (la, lb) = data.lens();
        let want = crate::error::size_product("nSlices", &[n, n, slices])?;
        if la != want {
            return Err(Error::arg(
                "A",
                format!("{la} elements; expected n^2 * nSlices = {want}"),
            ));
        }
        if lb != want {
            return Err(Error::arg(
                "B",
                format!("{lb} elements; expected n^2 * nSlices = {want}"),
            ));
        }
        if !data.all_finite() {
            return Err(Error::arg("DF", "contains NaN or infinite elements"));
        }
        data.check_integer_range(n)?;
        Ok(QapProblem {
            name: name.into(),
            n,
            slices,
            data,
        })
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
                .map(|&x| {
                    T::try_from(x).map_err(|_| {
                        Error::arg("type", format!("value {x} does not fit {}", ty.name()))
                    })
                })
                .collect()
        }
        let (a, b) = (&inst.a, &inst.b);
        let data = match ty {
            ElemType::I32 => QapMatrices::I32(conv(a, ty)?, conv(b, ty)?),
            ElemType::I64 => QapMatrices::I64(a.clone(), b.clone()),
            ElemType::U32 => QapMatrices::U32(conv(a, ty)?, conv(b, ty)?),
            ElemType::U64 => QapMatrices::U64(conv(a, ty)?, conv(b, ty)?),
            ElemType::F32 => QapMatrices::F32(
                a.iter().map(|&x| x as f32).collect(),
                b.iter().map(|&x| x as f32).collect(),
            ),
            ElemType::F64 => QapMatrices::F64(
                a.iter().map(|&x| x as f64).collect(),
                b.iter().map(|&x| x as f64).collect(),
            ),
        };
        QapProblem::new(inst.name.clone(), inst.n, 1, data)
    }

    pub fn elem_type(&self) -> ElemType {
        self.data.elem_type()
    }

    /// The cost of a permutation of 0..n (host reference, full form).
    pub fn cost(&self, perm: &[usize]) -> Result<Cost> {
        check_perm(perm, self.n, "permutation")?;
        let order: Vec<u16> = perm.iter().map(|&p| p as u16).collect();
        Ok(self.cost_order(&order))
    }

    /// The cost of `order` (entries below n, unchecked), in any unsigned entry type.
    pub fn cost_order<O: Copy + Into<usize>>(&self, order: &[O]) -> Cost {
        with_matrices!(&self.data, |a, b| full_cost(
            self.n,
            self.slices,
            a,
            b,
            order
        ))
    }
}

/// An element type of QAP matrices with its accumulation rules (as the `MUL`, `ACC_TO_FT`,
/// `ADD_DELTA` macros of `cl/qap.cl`).
pub trait QapElem: ClScalar + PartialEq + std::fmt::Debug {
    type Acc: Copy + Send + Sync;
    const TYPE: ElemType;
    fn zero() -> Self::Acc;
    fn mul(a: Self, b: Self) -> Self::Acc;
    fn add(acc: Self::Acc, x: Self::Acc) -> Self::Acc;
    fn sub(x: Self::Acc, y: Self::Acc) -> Self::Acc;
    fn to_cost(acc: Self::Acc) -> Cost;
    fn add_delta(cur: Cost, acc: Self::Acc) -> Cost;
    fn is_finite(self) -> bool;
}

// Integers wrap in 64-bit unsigned arithmetic, exactly as the kernel does.
macro_rules! int_elem {
    ($t:ty, $wide:ty, $ty:ident, $cost:ident, $to:expr) => {
        impl QapElem for $t {
            type Acc = u64;
            const TYPE: ElemType = ElemType::$ty;
            fn zero() -> u64 {
                0
            }
            fn mul(a: Self, b: Self) -> u64 {
                (a as $wide as u64).wrapping_mul(b as $wide as u64)
            }
            fn add(acc: u64, x: u64) -> u64 {
                acc.wrapping_add(x)
            }
            fn sub(x: u64, y: u64) -> u64 {
                x.wrapping_sub(y)
            }
            fn to_cost(acc: u64) -> Cost {
                Cost::$cost($to(acc))
            }
            fn add_delta(cur: Cost, acc: u64) -> Cost {
                Cost::$cost($to(cur.bits().wrapping_add(acc)))
            }
            fn is_finite(self) -> bool {
                true
            }
        }
    };
}
int_elem!(i32, i64, I32, I64, |v: u64| v as i64);
int_elem!(i64, i64, I64, I64, |v: u64| v as i64);
int_elem!(u32, u64, U32, U64, |v: u64| v);
int_elem!(u64, u64, U64, U64, |v: u64| v);

macro_rules! float_elem {
    ($t:ty, $ty:ident, $cost:ident) => {
        impl QapElem for $t {
            type Acc = $t;
            const TYPE: ElemType = ElemType::$ty;
            fn zero() -> $t {
                0.0
            }
            fn mul(a: Self, b: Self) -> $t {
                a * b
            }
            fn add(acc: $t, x: $t) -> $t {
                acc + x
            }
            fn sub(x: $t, y: $t) -> $t {
                x - y
            }
            fn to_cost(acc: $t) -> Cost {
                Cost::$cost(acc)
            }
            fn add_delta(cur: Cost, acc: $t) -> Cost {
                match cur {
                    Cost::$cost(c) => Cost::$cost(c + acc),
                    other => unreachable!("cost {other:?} for a {} instance", stringify!($t)),
                }
            }
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
        }
    };
}
float_elem!(f32, F32, F32);
float_elem!(f64, F64, F64);

/// The full cost of `order` summed as the full kernel sums it.
pub fn full_cost<T: QapElem, O: Copy + Into<usize>>(
    n: usize,
    slices: usize,
    a: &[T],
    b: &[T],
    order: &[O],
) -> Cost {
    let mut acc = T::zero();
    for s in 0..slices {
        let (a_s, b_s) = (
            &a[s * n * n..(s + 1) * n * n],
            &b[s * n * n..(s + 1) * n * n],
        );
        for i in 0..n {
            let arow = &a_s[i * n..(i + 1) * n];
            let oi: usize = order[i].into();
            let brow = &b_s[oi * n..(oi + 1) * n];
            for j in 0..n {
                acc = T::add(acc, T::mul(arow[j], brow[order[j].into()]));
            }
        }
    }
    T::to_cost(acc)
}

/// The cost of `order` as the current cost plus the change over the positions where it differs
/// from `cur` (the delta kernel's arithmetic).
pub fn delta_cost<T: QapElem>(
    n: usize,
    slices: usize,
    a: &[T],
    b: &[T],
    order: &[u8],
    cur: &[u8],
    cur_cost: Cost,
) -> Cost {
    let mut d = [0usize; 12];
    let mut nd = 0;
    for e in 0..n {
        if order[e] != cur[e] && nd < d.len() {
            d[nd] = e;
            nd += 1;
        }
    }
    if nd == 0 {
        return cur_cost;
    }
    let d = &d[..nd];
    let mut acc = T::zero();
    for s in 0..slices {
        let (a_s, b_s) = (
            &a[s * n * n..(s + 1) * n * n],
            &b[s * n * n..(s + 1) * n * n],
        );
        for &i in d {
            let (pn, po) = (order[i] as usize, cur[i] as usize);
            for j in 0..n {
                let (ar, ac) = (a_s[i * n + j], a_s[j * n + i]);
                acc = T::add(
                    acc,
                    T::sub(
                        T::mul(ar, b_s[pn * n + order[j] as usize]),
                        T::mul(ar, b_s[po * n + cur[j] as usize]),
                    ),
                );
                acc = T::add(
                    acc,
                    T::sub(
                        T::mul(ac, b_s[order[j] as usize * n + pn]),
                        T::mul(ac, b_s[cur[j] as usize * n + po]),
                    ),
                );
            }
        }
        for &i in d {
            for &j in d {
                let x = a_s[i * n + j];
                let t = T::sub(
                    T::mul(x, b_s[order[i] as usize * n + order[j] as usize]),
                    T::mul(x, b_s[cur[i] as usize * n + cur[j] as usize]),
                );
                acc = T::sub(acc, t);
            }
        }
    }
    T::add_delta(cur_cost, acc)
}
