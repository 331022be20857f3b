//! The additively weighted Voronoi diagram of balls over the C ABI (`crate::awvd`,
//! docs/specs/AWVD.md): a `MetaoptAwvd` from arrays of balls or from a PDB / mmCIF / balls file,
//! on the device in use, a numbered device or the CPU backend; copies of its vertices, edges,
//! contacts and counters, and its vertices in Voronota's text format.

use super::handle::{self, opaque_handle};
use super::interrupt::{token_arg, MetaoptStopToken};
use super::qap::MetaoptBackend;
use super::{
    c_string, copy_in, ffi_boundary, free_result, owned_result, plain_result, str_arg, CArray,
    MetaoptStringResult,
};
use crate::awvd::{self, AtomSelection, AwvdOptions, AwvdResult, Ball};
use crate::device::{Backend, DeviceContext};
use crate::error::{Error, Result};
use crate::run::Stop;
use std::ffi::c_char;
use std::ptr;

/// A computed diagram. Opaque: made by `metaopt_awvd_build` or `metaopt_awvd_from_file`,
/// released by `metaopt_awvd_free`. A handle may be used by one thread at a time.
pub struct MetaoptAwvd {
    _opaque: [u8; 0],
}
opaque_handle!(MetaoptAwvd => AwvdResult, b"metaAWV1", "metaopt_awvd_build or metaopt_awvd_from_file");

/// Selection flags of `metaopt_awvd_read_balls` and `metaopt_awvd_from_file` (bitwise or; 0 is
/// Voronota's default: the first model, ATOM records, no hydrogens).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptAwvdSelection {
    /// Keep HETATM records (waters, ligands, ions).
    MetaoptAwvdHetatm = 1,
    /// Keep hydrogen atoms.
    MetaoptAwvdHydrogens = 2,
    /// Read every model, not only the first.
    MetaoptAwvdAllModels = 4,
}

/// Options of `metaopt_awvd_build` and `metaopt_awvd_from_file`; start from
/// `metaopt_awvd_default_options()` and change fields.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptAwvdOptions {
    /// Cell side of the spatial grid in Å (finite, >= 0); 0 = the library's choice from the radii.
    pub cell: f64,
    /// Device float pass: candidates within this parameter distance of the float minimum are
    /// re-checked in double (finite, >= 0; default 1e-3).
    pub suspect_bound: f64,
    /// A `MetaoptBackend`: a device (`device`) or the CPU backend.
    pub backend: i32,
    /// The device number (`metaopt_device_count`), or -1 for the device in use
    /// (`metaopt_device_set_number`). Ignored by the CPU backend.
    pub device: i32,
    /// 1: the device search runs in double throughout (the device needs `cl_khr_fp64`); 0: a
    /// float pass with the suspects re-checked in double (the default).
    pub double_precision: u8,
    /// Time limit in seconds (0..=1e9), counted from the start of the diagram (reading a file
    /// excluded) with the device's program build and upload; 0 = none. A diagram not finished
    /// by then is `METAOPT_ERR_TIME_LIMIT` with no handle. NaN, infinite, negative or larger
    /// values are `METAOPT_ERR_INVALID_ARGUMENT`.
    pub time_limit_s: f64,
    /// NULL, or a token of `metaopt_stop_token_create` (borrowed for the call): requesting it, as
    /// `metaopt_interrupt` does, ends the call with `METAOPT_INTERRUPTED` and no handle (a part
    /// of a diagram is no result).
    pub stop_token: *const MetaoptStopToken,
}

/// The result of `metaopt_awvd_build` and `metaopt_awvd_from_file` (then `awvd` is a new handle
/// owned by the caller, NULL on error) and of `metaopt_awvd_info` (then `awvd` is NULL). Free it
/// with `metaopt_awvd_free_result` (it owns `backend` and `error_message`, not the handle).
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptAwvdResult {
    /// The new diagram, or NULL.
    pub awvd: *mut MetaoptAwvd,
    /// Vertices (empty spheres tangent to four balls).
    pub vertices: u64,
    /// Contacts (ball pairs that share a face).
    pub contacts: u64,
    /// End-vertex searches run.
    pub searches: u64,
    /// Candidates re-checked in double (device float pass).
    pub double_rechecks: u64,
    /// Float winners replaced by the double re-check.
    pub float_replaced: u64,
    /// Restarts from balls that no vertex touched.
    pub restarts: u64,
    /// Wall time of the diagram in seconds (reading a file excluded); 0 from `metaopt_awvd_info`.
    pub elapsed_s: f64,
    /// What computed, in words; NULL from `metaopt_awvd_info`.
    pub backend: *mut c_char,
    /// `METAOPT_OK` or a `MetaoptErrorCode` (`METAOPT_INTERRUPTED` and `METAOPT_ERR_TIME_LIMIT`
    /// included: then there is no handle).
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

/// Balls read from a file (`metaopt_awvd_read_balls`), `n` entries per array; free with
/// `metaopt_awvd_free_balls`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptAwvdBalls {
    pub n: u32,
    pub x: *mut f64,
    pub y: *mut f64,
    pub z: *mut f64,
    pub r: *mut f64,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

/// A copy of a diagram's vertices (`metaopt_awvd_vertices`), sorted by (quadruple, which); free
/// with `metaopt_awvd_free_vertices`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptAwvdVertices {
    /// Vertices.
    pub n: u64,
    /// `4 n` ball numbers (0-based), four ascending per vertex.
    pub quadruples: *mut u32,
    /// `n` entries: which tangent sphere of the four balls (0 or 1, Voronota's order).
    pub which: *mut u8,
    /// `4 n` values: the sphere of each vertex as x, y, z, r.
    pub spheres: *mut f64,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

/// A copy of a diagram's edges (`metaopt_awvd_edges`): for vertex v, entries `4 v .. 4 v + 3`
/// are the neighbour along the edge opposite to each of its four balls, -1 where that edge is
/// unbounded. Free with `metaopt_awvd_free_edges`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptAwvdEdges {
    /// Vertices (the array holds `4 n` entries).
    pub n: u64,
    pub neighbours: *mut i64,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

/// A copy of a diagram's contacts (`metaopt_awvd_contacts`): `n` ball pairs i < j, sorted, as
/// `2 n` numbers. Free with `metaopt_awvd_free_contacts`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptAwvdContacts {
    /// Pairs.
    pub n: u64,
    pub pairs: *mut u32,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

owned_result!(MetaoptAwvdResult: frees backend; zeroes);
owned_result!(MetaoptAwvdBalls: frees x, y, z, r; zeroes n);
owned_result!(MetaoptAwvdVertices: frees quadruples, which, spheres; zeroes n);
owned_result!(MetaoptAwvdEdges: frees neighbours; zeroes n);
owned_result!(MetaoptAwvdContacts: frees pairs; zeroes n);
plain_result!(MetaoptAwvdOptions);

/// The library's choices: grid cell from the radii, suspect bound 1e-3, the device in use, a
/// float pass.
#[no_mangle]
pub extern "C" fn metaopt_awvd_default_options() -> MetaoptAwvdOptions {
    ffi_boundary!({
        let d = AwvdOptions::default();
        MetaoptAwvdOptions {
            cell: d.cell,
            suspect_bound: d.suspect_bound,
            backend: MetaoptBackend::MetaoptBackendDevice as i32,
            device: -1,
            double_precision: 0,
            time_limit_s: 0.0,
            stop_token: ptr::null(),
        }
    })
}

/// The diagram's options and backend from the C struct; errors name the field.
///
/// # Safety
/// `o.stop_token` must be NULL or a token of `metaopt_stop_token_create` (checked).
pub(crate) unsafe fn awvd_options(o: &MetaoptAwvdOptions) -> Result<(AwvdOptions, Backend, bool)> {
    if !(o.cell.is_finite() && o.cell >= 0.0) {
        return Err(Error::arg(
            "cell",
            format!(
                "{}; expected finite and >= 0 (0: the library's choice)",
                o.cell
            ),
        ));
    }
    if !(o.suspect_bound.is_finite() && o.suspect_bound >= 0.0) {
        return Err(Error::arg(
            "suspect_bound",
            format!("{}; expected finite and >= 0", o.suspect_bound),
        ));
    }
    let backend = super::device::backend_on(o.backend, o.device, "backend", "device")?;
    let double = match o.double_precision {
        0 => false,
        1 => true,
        d => {
            return Err(Error::arg(
                "double_precision",
                format!("{d}; expected 0 or 1"),
            ))
        }
    };
    Ok((
        AwvdOptions {
            cell: o.cell,
            suspect_bound: o.suspect_bound,
            stop: Stop {
                time_limit: crate::interrupt::time_limit_from_secs(o.time_limit_s, "time_limit_s")?,
                // SAFETY: the caller's contract: NULL or a stop token.
                token: unsafe { token_arg(o.stop_token, "stop_token")? },
                ..Stop::default()
            },
        },
        backend,
        double,
    ))
}

/// The balls are usable: at least one, finite centres, finite radii >= 0. Errors name `what`
/// (the coordinate array, or `r`) and the ball.
pub(crate) fn check_balls(balls: &[Ball]) -> Result<()> {
    if balls.is_empty() {
        return Err(Error::arg("n", "0 balls; the diagram needs at least one"));
    }
    for (i, b) in balls.iter().enumerate() {
        for (k, name) in ["x", "y", "z"].into_iter().enumerate() {
            if !b.c[k].is_finite() {
                return Err(Error::arg(
                    name,
                    format!("ball {i}: {} is not finite", b.c[k]),
                ));
            }
        }
        if !b.r.is_finite() || b.r < 0.0 {
            return Err(Error::arg(
                "r",
                format!("ball {i}: radius {}; expected finite and >= 0", b.r),
            ));
        }
    }
    Ok(())
}

/// What computes the diagram, in words: [`Backend::describe`], and on a device the precision of
/// its search.
fn describe(backend: Backend, double: bool) -> Result<String> {
    Ok(match backend {
        Backend::Cpu => backend.describe(),
        Backend::Device(n) => {
            let ctx: std::sync::Arc<DeviceContext> = match n {
                Some(i) => DeviceContext::get(i)?,
                None => DeviceContext::current()?,
            };
            let pass = if double {
                "double"
            } else {
                "float pass, suspects in double"
            };
            format!("{}; {pass}", ctx.info.describe())
        }
    })
}

/// The diagram of checked `balls` on `backend` (the device search in double when `double`).
pub(crate) fn awvd_run(
    balls: &[Ball],
    opts: &AwvdOptions,
    backend: Backend,
    double: bool,
) -> Result<AwvdResult> {
    check_balls(balls)?;
    match backend {
        Backend::Cpu => awvd::awvd_cpu(balls, opts),
        b => awvd::device::awvd_device(balls, opts, b, double),
    }
}

/// The atom selection of the flags; unknown bits are an error naming `flags`.
fn selection(flags: u32) -> Result<AtomSelection> {
    if flags & !7 != 0 {
        return Err(Error::arg(
            "flags",
            format!(
                "{flags:#x}; expected a combination of 1 (hetatm), 2 (hydrogens), 4 (all models)"
            ),
        ));
    }
    Ok(AtomSelection {
        heteroatoms: flags & 1 != 0,
        hydrogens: flags & 2 != 0,
        all_models: flags & 4 != 0,
        ..AtomSelection::default()
    })
}

fn info(d: &AwvdResult) -> MetaoptAwvdResult {
    MetaoptAwvdResult {
        awvd: ptr::null_mut(),
        vertices: d.vertices.len() as u64,
        contacts: d.contacts.len() as u64,
        searches: d.searches,
        double_rechecks: d.double_rechecks,
        float_replaced: d.float_replaced,
        restarts: d.restarts,
        elapsed_s: 0.0,
        backend: ptr::null_mut(),
        error_code: 0,
        error_message: ptr::null_mut(),
    }
}

/// Runs the diagram and makes its handle.
fn build(balls: &[Ball], options: *const MetaoptAwvdOptions) -> Result<MetaoptAwvdResult> {
    // SAFETY: NULL or valid by the caller's contract.
    let o = match unsafe { options.as_ref() } {
        Some(o) => *o,
        None => metaopt_awvd_default_options(),
    };
    // SAFETY: the caller's contract: `stop_token` NULL or a token.
    let (opts, backend, double) = unsafe { awvd_options(&o)? };
    check_balls(balls)?;
    let description = describe(backend, double)?;
    let t = std::time::Instant::now();
    let d = awvd_run(balls, &opts, backend, double)?;
    let elapsed_s = t.elapsed().as_secs_f64();
    let mut r = info(&d);
    r.elapsed_s = elapsed_s;
    r.backend = c_string(&description);
    r.awvd = handle::insert(d);
    Ok(r)
}

/// The diagram of `n` balls (centres `x`, `y`, `z`, radii `r`; the arrays are copied).
/// `options` is borrowed for the call (NULL: `metaopt_awvd_default_options()`). Errors name
/// `x`, `y`, `z` or `r` (NULL, a value not finite, a negative radius, with the ball), `n` (0) or
/// the option. On success `awvd` is a new handle the caller releases with `metaopt_awvd_free`;
/// free the result itself with `metaopt_awvd_free_result`.
///
/// # Safety
/// `x`, `y`, `z` and `r` must each be NULL or hold `n` values; `options` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn metaopt_awvd_build(
    x: *const f64,
    y: *const f64,
    z: *const f64,
    r: *const f64,
    n: u32,
    options: *const MetaoptAwvdOptions,
) -> MetaoptAwvdResult {
    ffi_boundary!({
        if n == 0 {
            return Err(Error::arg("n", "0 balls; the diagram needs at least one"));
        }
        let n = n as usize;
        // SAFETY (all four): the caller's contract for `n` values.
        let xs: Vec<f64> = unsafe { copy_in(x.cast(), n, "x")? };
        let ys: Vec<f64> = unsafe { copy_in(y.cast(), n, "y")? };
        let zs: Vec<f64> = unsafe { copy_in(z.cast(), n, "z")? };
        let rs: Vec<f64> = unsafe { copy_in(r.cast(), n, "r")? };
        let balls: Vec<Ball> = (0..n)
            .map(|i| Ball {
                c: [xs[i], ys[i], zs[i]],
                r: rs[i],
            })
            .collect();
        build(&balls, options)?
    })
}

/// The balls of a file: `.pdb`, `.ent`, `.cif`, `.mmcif` (optionally `.gz`) as structures with
/// Voronota's radii and the selection `flags` (`MetaoptAwvdSelection`, or 0), anything else as
/// a balls file of `x y z r` lines. Free the result with `metaopt_awvd_free_balls`.
///
/// # Safety
/// `path` must be NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn metaopt_awvd_read_balls(
    path: *const c_char,
    flags: u32,
) -> MetaoptAwvdBalls {
    ffi_boundary!({
        // SAFETY: the caller's contract.
        let p = unsafe { str_arg(path, "path")? };
        let balls = awvd::read_any(p, &selection(flags)?)?;
        let n = u32::try_from(balls.len())
            .map_err(|_| Error::arg("path", "more than 2^32 - 1 balls"))?;
        let col = |k: usize| -> Result<CArray<f64>> {
            let v: Vec<f64> = balls
                .iter()
                .map(|b| if k < 3 { b.c[k] } else { b.r })
                .collect();
            CArray::from_slice(&v)
        };
        let (x, y, z, r) = (col(0)?, col(1)?, col(2)?, col(3)?);
        MetaoptAwvdBalls {
            n,
            x: x.into_raw(),
            y: y.into_raw(),
            z: z.into_raw(),
            r: r.into_raw(),
            error_code: 0,
            error_message: ptr::null_mut(),
        }
    })
}

/// The diagram of the balls of a file (`metaopt_awvd_read_balls` with `flags`, then
/// `metaopt_awvd_build`); `elapsed_s` excludes the reading.
///
/// # Safety
/// `path` must be NULL or a NUL-terminated string; `options` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn metaopt_awvd_from_file(
    path: *const c_char,
    flags: u32,
    options: *const MetaoptAwvdOptions,
) -> MetaoptAwvdResult {
    ffi_boundary!({
        // SAFETY: the caller's contract.
        let p = unsafe { str_arg(path, "path")? };
        let balls = awvd::read_any(p, &selection(flags)?)?;
        build(&balls, options)?
    })
}

/// The counts and counters of a diagram (`awvd` and `backend` of the answer are NULL, and
/// `elapsed_s` 0). Free the answer with `metaopt_awvd_free_result`.
///
/// # Safety
/// `awvd` must be NULL or a handle pointer, which the library checks.
#[no_mangle]
pub unsafe extern "C" fn metaopt_awvd_info(awvd: *mut MetaoptAwvd) -> MetaoptAwvdResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let d = unsafe { handle::get(awvd, "awvd")? };
        info(&d)
    })
}

/// A copy of the vertices of a diagram. Free it with `metaopt_awvd_free_vertices`.
///
/// # Safety
/// `awvd` must be NULL or a handle pointer, which the library checks.
#[no_mangle]
pub unsafe extern "C" fn metaopt_awvd_vertices(awvd: *mut MetaoptAwvd) -> MetaoptAwvdVertices {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let d = unsafe { handle::get(awvd, "awvd")? };
        let q: Vec<u32> = d.vertices.iter().flat_map(|v| v.q).collect();
        let w: Vec<u8> = d.vertices.iter().map(|v| v.which).collect();
        let s: Vec<f64> = d
            .vertices
            .iter()
            .flat_map(|v| [v.s.c[0], v.s.c[1], v.s.c[2], v.s.r])
            .collect();
        let (q, w, s) = (
            CArray::from_slice(&q)?,
            CArray::from_slice(&w)?,
            CArray::from_slice(&s)?,
        );
        MetaoptAwvdVertices {
            n: d.vertices.len() as u64,
            quadruples: q.into_raw(),
            which: w.into_raw(),
            spheres: s.into_raw(),
            error_code: 0,
            error_message: ptr::null_mut(),
        }
    })
}

/// A copy of the edges of a diagram. Free it with `metaopt_awvd_free_edges`.
///
/// # Safety
/// `awvd` must be NULL or a handle pointer, which the library checks.
#[no_mangle]
pub unsafe extern "C" fn metaopt_awvd_edges(awvd: *mut MetaoptAwvd) -> MetaoptAwvdEdges {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let d = unsafe { handle::get(awvd, "awvd")? };
        let e: Vec<i64> = d.edges.iter().flatten().copied().collect();
        MetaoptAwvdEdges {
            n: d.edges.len() as u64,
            neighbours: CArray::from_slice(&e)?.into_raw(),
            error_code: 0,
            error_message: ptr::null_mut(),
        }
    })
}

/// A copy of the contacts of a diagram. Free it with `metaopt_awvd_free_contacts`.
///
/// # Safety
/// `awvd` must be NULL or a handle pointer, which the library checks.
#[no_mangle]
pub unsafe extern "C" fn metaopt_awvd_contacts(awvd: *mut MetaoptAwvd) -> MetaoptAwvdContacts {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let d = unsafe { handle::get(awvd, "awvd")? };
        let p: Vec<u32> = d.contacts.iter().flat_map(|&(i, j)| [i, j]).collect();
        MetaoptAwvdContacts {
            n: d.contacts.len() as u64,
            pairs: CArray::from_slice(&p)?.into_raw(),
            error_code: 0,
            error_message: ptr::null_mut(),
        }
    })
}

/// The vertices in Voronota's format (`q1 q2 q3 q4 x y z r`, 15 decimals, one line each), as
/// `voronota calculate-vertices` prints them. Free the text with `metaopt_pointer_free`.
///
/// # Safety
/// `awvd` must be NULL or a handle pointer, which the library checks.
#[no_mangle]
pub unsafe extern "C" fn metaopt_awvd_vertices_text(awvd: *mut MetaoptAwvd) -> MetaoptStringResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let d = unsafe { handle::get(awvd, "awvd")? };
        MetaoptStringResult::ok(&d.vertices_text())?
    })
}

/// Releases a diagram; NULL, freed and forged pointers are ignored.
///
/// # Safety
/// `awvd` must be NULL or a pointer the library may check.
#[no_mangle]
pub unsafe extern "C" fn metaopt_awvd_free(awvd: *mut MetaoptAwvd) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { handle::free(awvd) } })
}

/// Frees `backend` and the message of a `MetaoptAwvdResult` (not the handle). NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of this library (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_awvd_free_result(r: *mut MetaoptAwvdResult) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// Frees the arrays and the message of a `MetaoptAwvdBalls`. NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of this library (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_awvd_free_balls(r: *mut MetaoptAwvdBalls) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// Frees the arrays and the message of a `MetaoptAwvdVertices`. NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of this library (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_awvd_free_vertices(r: *mut MetaoptAwvdVertices) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// Frees the array and the message of a `MetaoptAwvdEdges`. NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of this library (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_awvd_free_edges(r: *mut MetaoptAwvdEdges) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// Frees the array and the message of a `MetaoptAwvdContacts`. NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of this library (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_awvd_free_contacts(r: *mut MetaoptAwvdContacts) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}
