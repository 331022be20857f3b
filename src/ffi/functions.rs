//! Evaluation of catalogue functions by name (`metaopt_function_evaluate`): a matrix of points
//! evaluated by `F1`, `CEC05t`, ... on the device or the host, the C form of the thesis's
//! `geatbx_cec_bundle(X, 'CEC05t')`. The device path is the catalogue's evaluation kernel and the
//! host path the Rust f64 reference, both through [`crate::objective::evaluate`].

use super::boundary::{copy_in, str_arg};
use super::ffi_boundary;
use super::result::MetaoptDoubleArrayResult;
use crate::error::Error;
use crate::objective;
use crate::precision::Precision;
use std::ffi::c_char;

/// The values of catalogue function `function` (case-insensitive: "F1".."F12", "CEC04".."CEC10",
/// "CEC04t".."CEC10t"; `metaopt functions` lists them) at `rows` points of `dims` coordinates,
/// `points` holding them row by row (rows x dims doubles; copied). `backend` is a
/// `MetaoptBackend`: 0 the device in use (`metaopt_device_set_number`), through the catalogue's
/// evaluation kernel, in `precision` (a `MetaoptPrecision`: 0 auto, double where the device has
/// `cl_khr_fp64`; 1 single, the points and the function's data rounded to float; 2 double); 1 the
/// host, the library's f64 reference code (precision 0 or 2; 1 is refused). The result holds
/// `rows` values, value i for point i; free it with `metaopt_double_array_free_result`.
///
/// Errors (`METAOPT_ERR_INVALID_ARGUMENT` naming the argument): an unknown `function`, `dims` 0
/// or a dimension the function is not defined for (CEC04t..CEC10t take D = 2 or 10 only; F5 and
/// CEC08 D >= 2), `rows` 0, a NaN or infinite coordinate in `points` (its row and column are
/// named), an out-of-range `backend` or `precision`; `METAOPT_ERR_NULL_POINTER` for a NULL
/// `function` or `points`; `METAOPT_ERR_UNSUPPORTED` for double precision on a device without
/// `cl_khr_fp64`.
///
/// # Safety
/// `function` must be NULL or a NUL-terminated string; `points` NULL or holding `rows * dims`
/// doubles.
#[no_mangle]
pub unsafe extern "C" fn metaopt_function_evaluate(
    function: *const c_char,
    points: *const f64,
    rows: u32,
    dims: u32,
    backend: i32,
    precision: i32,
) -> MetaoptDoubleArrayResult {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        metaopt_function_evaluate_on_device(function, points, rows, dims, backend, -1, precision)
    }
}

/// `metaopt_function_evaluate` on device `device` (a number of the device list, or -1 for the
/// device in use, `metaopt_device_set_number`; ignored by the CPU backend). A device number below
/// -1 or not in the list is `METAOPT_ERR_INVALID_ARGUMENT` naming `device`; the rest is as
/// `metaopt_function_evaluate`.
///
/// # Safety
/// As `metaopt_function_evaluate`.
#[no_mangle]
pub unsafe extern "C" fn metaopt_function_evaluate_on_device(
    function: *const c_char,
    points: *const f64,
    rows: u32,
    dims: u32,
    backend: i32,
    device: i32,
    precision: i32,
) -> MetaoptDoubleArrayResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let name = unsafe { str_arg(function, "function")? };
        let backend = super::device::backend_on(backend, device, "backend", "device")?;
        let precision = Precision::from_code(precision, "precision")?;
        if points.is_null() {
            return Err(Error::NullPointer("points"));
        }
        if rows == 0 {
            return Err(Error::arg("rows", "0; expected at least one point"));
        }
        if dims == 0 {
            return Err(Error::arg("dims", "0; expected at least 1"));
        }
        // unknown names and dimensions the function lacks fail before the copy
        crate::problem::functions::lookup(name)?.check_dims(dims as usize)?;
        let len = (rows as usize).checked_mul(dims as usize).ok_or_else(|| {
            Error::arg(
                "rows",
                format!("{rows} rows of {dims} overflow the address space"),
            )
        })?;
        // SAFETY: the caller's contract for rows * dims values.
        let x: Vec<f64> = unsafe { copy_in(points.cast(), len, "points")? };
        let (values, _) = objective::evaluate(name, &x, dims as usize, backend, precision)?;
        MetaoptDoubleArrayResult::ok(&values)?
    })
}
