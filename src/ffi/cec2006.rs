//! The CEC 2006 constrained set over the C ABI (`crate::problem::cec2006`): a problem's sizes and
//! best known value, its box and best known point, and its objective, constraint values and
//! mean violation at a matrix of points, on the host (the f64 reference) or a device (the
//! problem's OpenCL `objective` and `constraints`, in double). What another solver needs to run
//! the same problems, such as scipy beside the island DE.

use super::boundary::{copy_in, str_arg};
use super::ffi_boundary;
use super::result::{free_result, owned_result, CArray, MetaoptDoubleArrayResult};
use crate::device::Backend;
use crate::error::{Error, Result};
use crate::problem::cec2006::{self, Cec06Info};
use std::ffi::c_char;
use std::ptr;

/// One problem of the set (`metaopt_cec2006_info`). Only `error_message` is owned: free it with
/// `metaopt_pointer_free`. On error every number is 0.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptCec2006Info {
    /// 1..24 (problem Gk is number k).
    pub id: u32,
    /// Variables.
    pub dims: u32,
    /// Inequalities g_i(x) <= 0, first in a constraint vector.
    pub ng: u32,
    /// Equalities h_j(x) = 0, after the inequalities; satisfied when |h_j| <=
    /// `equality_tolerance`.
    pub nh: u32,
    /// The best known objective value as the report gives it (G02, G03 and G08, maximisations in
    /// the report, are minimised in their negated form: this is the negated value).
    pub best: f64,
    /// 1 when the best known point is feasible; 0 for G20, whose only known point violates its
    /// constraints slightly.
    pub best_feasible: u8,
    /// 1 when the report states the problem as a maximisation (G02, G03, G08).
    pub maximisation: u8,
    /// The report's tolerance of an equality, 1e-4.
    pub equality_tolerance: f64,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

/// The values of a problem at `rows` points (`metaopt_cec2006_evaluate`). The arrays are the
/// caller's: free them all with `metaopt_cec2006_free_evaluate_result`. On error they are NULL
/// and the counts 0.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptCec2006EvaluateResult {
    /// The objective, `rows` values (value i for point i).
    pub f: *mut f64,
    /// The constraint values, `rows * constraints` values row by row: point i's `ng`
    /// inequalities g then its `nh` equalities h at `c[i * constraints ..]`.
    pub c: *mut f64,
    /// The report's mean violation of each point, `rows` values: (sum of the g_i > 0 and of the
    /// |h_j| > 1e-4) / (ng + nh); 0 means feasible.
    pub violation: *mut f64,
    /// Points evaluated.
    pub rows: u32,
    /// Constraint values per point (ng + nh).
    pub constraints: u32,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

owned_result!(MetaoptCec2006Info);
owned_result!(MetaoptCec2006EvaluateResult: frees f, c, violation; zeroes rows, constraints);

/// The problem named by the caller's string `problem` (errors name `problem`).
///
/// # Safety
/// `problem` must be NULL or a NUL-terminated string.
unsafe fn problem_arg(problem: *const c_char) -> Result<Cec06Info> {
    // SAFETY: the caller's contract.
    let name = unsafe { str_arg(problem, "problem")? };
    cec2006::info(name)
}

/// Problem `problem` of the CEC 2006 set: "G01".."G24" (case-insensitive; "g1" and "7" name G01
/// and G07). `METAOPT_ERR_NULL_POINTER` for NULL, `METAOPT_ERR_INVALID_ARGUMENT` naming
/// `problem` for any other name.
///
/// # Safety
/// `problem` must be NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn metaopt_cec2006_info(problem: *const c_char) -> MetaoptCec2006Info {
    ffi_boundary!({
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { problem_arg(problem)? };
        MetaoptCec2006Info {
            id: p.id as u32,
            dims: p.dims as u32,
            ng: p.ng as u32,
            nh: p.nh as u32,
            best: p.best,
            best_feasible: p.best_feasible as u8,
            maximisation: p.maximisation as u8,
            equality_tolerance: cec2006::EQUALITY_TOLERANCE,
            error_code: 0,
            error_message: ptr::null_mut(),
        }
    })
}

/// The box of problem `problem` (named as `metaopt_cec2006_info` takes it): `2 * dims` values,
/// the lower bounds of the variables, then their upper bounds. Free the result with
/// `metaopt_double_array_free_result`. Errors as `metaopt_cec2006_info`.
///
/// # Safety
/// `problem` must be NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn metaopt_cec2006_bounds(
    problem: *const c_char,
) -> MetaoptDoubleArrayResult {
    ffi_boundary!({
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { problem_arg(problem)? };
        MetaoptDoubleArrayResult::ok(&[p.lower, p.upper].concat())?
    })
}

/// The report's best known point of problem `problem`, `dims` values (G20's violates its
/// constraints: `best_feasible` is 0 there). Free the result with
/// `metaopt_double_array_free_result`. Errors as `metaopt_cec2006_info`.
///
/// # Safety
/// `problem` must be NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn metaopt_cec2006_best_point(
    problem: *const c_char,
) -> MetaoptDoubleArrayResult {
    ffi_boundary!({
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { problem_arg(problem)? };
        let x = p.best_x.ok_or_else(|| {
            Error::arg(
                "problem",
                format!("{} has no best known point in the report", p.name),
            )
        })?;
        MetaoptDoubleArrayResult::ok(x)?
    })
}

/// The objective, the constraint values and the mean violation of problem `problem` at `rows`
/// points of `dims` coordinates (`points`, rows x dims doubles row by row; copied). `dims` must
/// be the problem's. `backend` is a `MetaoptBackend`: 0 a device (`device`: a number of the
/// device list, or -1 for the device in use), through the problem's OpenCL `objective` and
/// `constraints` (`cl/cec2006.cl`) in double; 1 the host, the library's f64 reference (`device`
/// is then ignored, but must not be below -1). A point outside the box is evaluated as it is
/// (its values may be NaN, as a logarithm of a negative number). Free the result with
/// `metaopt_cec2006_free_evaluate_result`.
///
/// Errors: `METAOPT_ERR_NULL_POINTER` for a NULL `problem` or `points`;
/// `METAOPT_ERR_INVALID_ARGUMENT` naming `problem` (unknown), `rows` (0, or more than the
/// address space), `dims` (not the problem's), `points` (a NaN or infinite coordinate, its row
/// and column named), `backend` or `device`; `METAOPT_ERR_UNSUPPORTED` for a device without
/// `cl_khr_fp64`.
///
/// # Safety
/// `problem` must be NULL or a NUL-terminated string; `points` NULL or holding `rows * dims`
/// doubles.
#[no_mangle]
pub unsafe extern "C" fn metaopt_cec2006_evaluate(
    problem: *const c_char,
    points: *const f64,
    rows: u32,
    dims: u32,
    backend: i32,
    device: i32,
) -> MetaoptCec2006EvaluateResult {
    ffi_boundary!({
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { problem_arg(problem)? };
        let backend = super::device::backend_on(backend, device, "backend", "device")?;
        if points.is_null() {
            return Err(Error::NullPointer("points"));
        }
        if rows == 0 {
            return Err(Error::arg("rows", "0; expected at least one point"));
        }
        if dims as usize != p.dims {
            return Err(Error::arg(
                "dims",
                format!("{dims}; {} has {} variables", p.name, p.dims),
            ));
        }
        let len = (rows as usize).checked_mul(p.dims).ok_or_else(|| {
            Error::arg(
                "rows",
                format!("{rows} rows of {dims} overflow the address space"),
            )
        })?;
        // SAFETY: the caller's contract for rows * dims values.
        let x: Vec<f64> = unsafe { copy_in(points.cast(), len, "points")? };
        if let Some(i) = x.iter().position(|v| !v.is_finite()) {
            return Err(Error::arg(
                "points",
                format!(
                    "row {} column {} is {}; expected finite coordinates",
                    i / p.dims,
                    i % p.dims,
                    x[i]
                ),
            ));
        }
        let (f, c, v) = evaluate(&p, &x, backend)?;
        let (f, c, v) = (
            CArray::from_slice(&f)?,
            CArray::from_slice(&c)?,
            CArray::from_slice(&v)?,
        );
        MetaoptCec2006EvaluateResult {
            f: f.into_raw(),
            c: c.into_raw(),
            violation: v.into_raw(),
            rows,
            constraints: (p.ng + p.nh) as u32,
            error_code: 0,
            error_message: ptr::null_mut(),
        }
    })
}

/// The objective values, the constraint values (row by row) and the mean violations of `p` at
/// the points `x`, on `backend`.
fn evaluate(p: &Cec06Info, x: &[f64], backend: Backend) -> Result<(Vec<f64>, Vec<f64>, Vec<f64>)> {
    let rows = x.len() / p.dims;
    let nc = p.ng + p.nh;
    match backend {
        Backend::Cpu => {
            let mut f = crate::error::try_vec(rows, "rows")?;
            let mut c = crate::error::try_vec(rows * nc, "rows")?;
            let mut v = crate::error::try_vec(rows, "rows")?;
            for row in x.chunks_exact(p.dims) {
                let (fi, ci) = cec2006::eval(p.id, row)?;
                v.push(cec2006::violation(p, &ci));
                f.push(fi);
                c.extend_from_slice(&ci);
            }
            Ok((f, c, v))
        }
        Backend::Device(device) => {
            let (objective, _, constraints) = crate::de::constraints::cec2006(p.name)?;
            let f = crate::objective::evaluate_points(&objective, x, p.dims, true, device)?;
            let c = crate::objective::constraint_values(
                &objective,
                x,
                p.dims,
                constraints.count(),
                true,
                device,
            )?;
            let v = c
                .chunks_exact(nc)
                .map(|ci| cec2006::violation(p, ci))
                .collect();
            Ok((f, c, v))
        }
    }
}

/// Frees the arrays and the message of a `MetaoptCec2006EvaluateResult` and sets them to NULL
/// and the counts to 0 (so a second call is harmless); the struct itself belongs to the caller.
/// NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of `metaopt_cec2006_evaluate` (or one already freed
/// here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_cec2006_free_evaluate_result(
    r: *mut MetaoptCec2006EvaluateResult,
) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}
