//! The objective contract on the host side (the one `cl/functions.cl` follows): an objective is
//! OpenCL C defining
//!
//! ```c
//! FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)
//! ```
//!
//! where component j of the point is `x[j * stride]`: a catalogue function of `cl/functions.cl`
//! chosen by name, a user's source (with an optional data buffer, the thesis's `func-data`), or a
//! host callback that receives a whole matrix per call instead.
//!
//! Solvers add it to their own program with [`Objective::add_to`] (its source and defines, as
//! data: [`ProgramSpec`]); [`evaluate_points`] does the same for plain evaluation, and
//! [`evaluate_catalogue`] evaluates any catalogue function through one program (what the CLI's
//! accuracy table, the thesis's Table 6, uses); [`evaluate`] is the front ends' evaluation by name
//! (the thesis's `geatbx_cec_bundle(X, 'CEC05t')`) on the device or the host.

use crate::device::{
    cl_error, kernel_source, work_group_size, Backend, DeviceContext, ProgramSpec,
};
use crate::error::{Error, Result};
use crate::precision::Precision;
pub use crate::precision::{fp_bytes, fp_values};
use crate::problem::functions::{self, FunctionInfo};
use opencl3::kernel::ExecuteKernel;
use opencl3::program::Program;
use std::fmt;
use std::sync::Arc;

/// The callback's signature: `(x, rows, dims, out)` with `x` holding `rows * dims` values row by
/// row (row r is the point x_r) and `out` the `rows` values to fill; `Err(status)` reports failure.
pub type CallbackFn =
    dyn Fn(&[f64], usize, usize, &mut [f64]) -> std::result::Result<(), i32> + Send + Sync;

/// A host function evaluating a whole matrix of points per call.
#[derive(Clone)]
pub struct HostCallback {
    pub f: Arc<CallbackFn>,
}

impl HostCallback {
    pub fn new(
        f: impl Fn(&[f64], usize, usize, &mut [f64]) -> std::result::Result<(), i32>
            + Send
            + Sync
            + 'static,
    ) -> Self {
        HostCallback { f: Arc::new(f) }
    }

    /// Calls the callback; a failure with status s is [`Error::Callback`]`(s)`. NaN and +-inf
    /// values are passed on: every solver treats a non-finite value as worse than every finite
    /// one, as it does for the device objectives (docs/ARCHITECTURE.md, Reliability).
    pub fn call(&self, x: &[f64], rows: usize, dims: usize, out: &mut [f64]) -> Result<()> {
        if x.len() != rows * dims || out.len() != rows {
            return Err(Error::arg(
                "callback",
                format!(
                    "{} values and {} outputs for {rows} rows of {dims}",
                    x.len(),
                    out.len()
                ),
            ));
        }
        (self.f)(x, rows, dims, out).map_err(Error::Callback)
    }
}

impl fmt::Debug for HostCallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("HostCallback")
    }
}

/// What a solver minimises (or maximises).
#[derive(Clone, Debug)]
pub enum Objective {
    /// A catalogue function by name (`F1`, `CEC04t`, ...; see [`functions::catalogue`]).
    Catalogue { name: String },
    /// OpenCL C defining `objective` (FP is defined before it), and the bytes of its data buffer.
    Source { code: String, data: Vec<u8> },
    /// A host function called with the whole matrix of an iteration.
    Callback(HostCallback),
}

/// Defines FP for a user's source as functions.cl does; `#line 1` makes build-log line numbers
/// those of the user's file.
const SOURCE_PRELUDE: &str = "\
#if defined(FP_DOUBLE) && FP_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifndef FP
#if defined(FP_DOUBLE) && FP_DOUBLE
#define FP double
#else
#define FP float
#endif
#endif
#line 1
";

/// A user's source as a program holds it: after a prelude defining FP.
pub(crate) fn source_text(code: &str) -> String {
    format!("{SOURCE_PRELUDE}{code}\n")
}

impl Objective {
    /// A catalogue function; the name is checked (case-insensitive) and stored as the catalogue
    /// spells it.
    pub fn catalogue(name: &str) -> Result<Self> {
        Ok(Objective::Catalogue {
            name: functions::lookup(name)?.name.to_string(),
        })
    }

    /// A user's OpenCL source with its data buffer (may be empty).
    pub fn source(code: impl Into<String>, data: Vec<u8>) -> Self {
        Objective::Source {
            code: code.into(),
            data,
        }
    }

    /// A host callback.
    pub fn callback(
        f: impl Fn(&[f64], usize, usize, &mut [f64]) -> std::result::Result<(), i32>
            + Send
            + Sync
            + 'static,
    ) -> Self {
        Objective::Callback(HostCallback::new(f))
    }

    /// The catalogue entry of a catalogue objective.
    pub fn info(&self) -> Result<Option<&'static FunctionInfo>> {
        match self {
            Objective::Catalogue { name } => functions::lookup(name).map(Some),
            _ => Ok(None),
        }
    }

    /// The OpenCL text that defines `objective`, to follow common.cl in a program: functions.cl
    /// for the catalogue, the user's code (after a prelude defining FP) for a source.
    pub fn program_source(&self) -> Result<String> {
        match self {
            Objective::Catalogue { name } => {
                functions::lookup(name)?;
                kernel_source("functions.cl")
            }
            Objective::Source { code, .. } => Ok(source_text(code)),
            Objective::Callback(_) => Err(Error::arg(
                "objective",
                "a host callback has no OpenCL source; it is called on the host",
            )),
        }
    }

    /// `spec` followed by what defines `objective`: its source (functions.cl for the catalogue,
    /// the user's code after a prelude defining FP for a source) and its defines (`FP_DOUBLE`,
    /// and `MO_OBJECTIVE` for the catalogue). The program-as-data form of
    /// [`Objective::program_source`] and [`Objective::build_options`].
    pub fn add_to(&self, spec: ProgramSpec, double: bool) -> Result<ProgramSpec> {
        let spec = match self {
            Objective::Catalogue { name } => {
                let info = functions::lookup(name)?;
                spec.file("functions.cl")
                    .define("FP_DOUBLE", double as u8)
                    .define("MO_OBJECTIVE", info.kernel)
            }
            Objective::Source { code, .. } => spec
                .text(source_text(code))
                .define("FP_DOUBLE", double as u8),
            Objective::Callback(_) => {
                return Err(Error::arg(
                    "objective",
                    "a host callback has no OpenCL source; it is called on the host",
                ))
            }
        };
        Ok(spec)
    }

    /// Build options: `-DFP_DOUBLE=0|1`, and `-DMO_OBJECTIVE=mo_<name>` for the catalogue.
    pub fn build_options(&self, double: bool) -> String {
        let mut o = format!("-DFP_DOUBLE={}", double as u8);
        if let Objective::Catalogue { name } = self {
            // an unknown name fails earlier, in program_source
            if let Ok(info) = functions::lookup(name) {
                o += &format!(" -DMO_OBJECTIVE={}", info.kernel);
            }
        }
        o
    }

    /// The data buffer in `dims` dimensions: the catalogue's constants as float or double bytes,
    /// a source's bytes as given, nothing for a callback.
    pub fn data_bytes(&self, dims: usize, double: bool) -> Result<Vec<u8>> {
        match self {
            Objective::Catalogue { name } => Ok(fp_bytes(&functions::data(name, dims)?, double)),
            Objective::Source { data, .. } => Ok(data.clone()),
            Objective::Callback(_) => Ok(Vec::new()),
        }
    }

    /// Errors (naming `dims`) unless the objective is defined in `dims` dimensions.
    pub fn check_dims(&self, dims: usize) -> Result<()> {
        match self {
            Objective::Catalogue { name } => functions::lookup(name)?.check_dims(dims),
            _ if dims == 0 => Err(Error::arg("dims", "0; expected at least 1")),
            _ => Ok(()),
        }
    }
}

/// Checks search intervals `[a, b]` (named `arg` in errors): finite, `a < b`, and, in single
/// precision (`!double`), representable as floats with a finite float width `b - a`, so that
/// no device computes with an infinite or collapsed interval.
pub fn check_intervals(arg: &'static str, intervals: &[(f64, f64)], double: bool) -> Result<()> {
    for (i, &(a, b)) in intervals.iter().enumerate() {
        if !(a.is_finite() && b.is_finite() && a < b) {
            return Err(Error::arg(
                arg,
                format!("interval {i} is [{a}, {b}]; expected finite a < b"),
            ));
        }
        let (fa, fb) = (a as f32, b as f32);
        let fits_float = fa.is_finite() && fb.is_finite() && fa < fb && (fb - fa).is_finite();
        if !(double || fits_float) {
            return Err(Error::arg(
                arg,
                format!("interval {i} is [{a}, {b}], which single precision cannot hold (bounds or width beyond {:e}, or equal as floats); use double precision", f32::MAX),
            ));
        }
    }
    Ok(())
}

fn context(device: Option<usize>) -> Result<Arc<DeviceContext>> {
    match device {
        Some(d) => DeviceContext::get(d),
        None => DeviceContext::current(),
    }
}

/// Checks a row-by-row point matrix and returns the number of points.
fn point_count(points: &[f64], dims: usize) -> Result<usize> {
    if dims == 0 {
        return Err(Error::arg("dims", "0; expected at least 1"));
    }
    functions::check_whole_points(points, dims)?;
    let count = points.len() / dims;
    if count > u32::MAX as usize || dims > u32::MAX as usize {
        return Err(Error::arg(
            "points",
            format!("{count} points of {dims} dimensions; at most 2^32 - 1 of each"),
        ));
    }
    Ok(count)
}

/// Values of `objective` at `count` points (`points` = count * dims values, row by row), in float
/// or double: the program is common.cl, the objective's source and the evaluation kernel of
/// functions.cl, built on `device` (or the device in use). A callback is simply called. In float,
/// the points and data are rounded to float first.
pub fn evaluate_points(
    obj: &Objective,
    points: &[f64],
    dims: usize,
    double: bool,
    device: Option<usize>,
) -> Result<Vec<f64>> {
    let count = point_count(points, dims)?;
    obj.check_dims(dims)?;
    if let Objective::Callback(cb) = obj {
        let mut out = vec![0.0; count];
        cb.call(points, count, dims, &mut out)?;
        return Ok(out);
    }
    let mut spec = obj
        .add_to(ProgramSpec::files(&["common.cl"]), double)?
        .define("MO_EVAL_KERNEL", 1);
    if let Objective::Source { .. } = obj {
        // the evaluation kernel must follow the user's `objective`
        spec = spec.file("functions.cl");
    }
    let ctx = context(device)?;
    if double {
        ctx.require_fp64()?;
    }
    if count == 0 {
        return Ok(Vec::new());
    }
    let program = ctx.build(&spec)?;
    let data = obj.data_bytes(dims, double)?;
    run_eval(
        &ctx, &program, None, points, dims, count, &data, double, None,
    )
}

/// Most constraint values a compiled objective's `constraints` may write per point (they live
/// in private memory on the device).
pub const MAX_CONSTRAINTS: u32 = 256;

/// The kernels' kinds byte's flag of an integer dimension (`cl/de.cl` DE_INTEGRAL,
/// `cl/constraints.cl` MO_INTEGRAL).
pub const INTEGRAL_KIND: u8 = 0x80;

/// Errors naming `arg` unless `obj` computes `count` constraint values per point: an OpenCL
/// source, 1 to [`MAX_CONSTRAINTS`] of them.
fn check_compiled_constraints(obj: &Objective, count: u32, arg: &'static str) -> Result<()> {
    if let Objective::Callback(_) | Objective::Catalogue { .. } = obj {
        return Err(Error::arg(
            arg,
            "only an OpenCL source objective computes constraint values (a host callback gives violations)",
        ));
    }
    if count == 0 || count > MAX_CONSTRAINTS {
        return Err(Error::arg(
            arg,
            format!("{count} constraint values per point; expected 1 to {MAX_CONSTRAINTS}"),
        ));
    }
    Ok(())
}

/// `count` points of `dims` values from rows (point by point) to columns (component k of every
/// point together, as the evaluation kernels read them), or back with `to_columns` false.
fn transposed(values: &[f64], dims: usize, count: usize, to_columns: bool) -> Vec<f64> {
    let mut out = vec![0.0; values.len()];
    for i in 0..count {
        for j in 0..dims {
            let (r, c) = (i * dims + j, j * count + i);
            if to_columns {
                out[c] = values[r];
            } else {
                out[r] = values[c];
            }
        }
    }
    out
}

/// The values of a compiled objective's `constraints` (`count` of them per point: the
/// inequalities, then the equalities; see `cl/de.cl`, Constraints) at the points `points` (row
/// by row), point i's at `i * count ..`: what the CPU backend of a constrained DE compares.
pub fn constraint_values(
    obj: &Objective,
    points: &[f64],
    dims: usize,
    count: u32,
    double: bool,
    device: Option<usize>,
) -> Result<Vec<f64>> {
    let rows = point_count(points, dims)?;
    check_compiled_constraints(obj, count, "constraints")?;
    let spec = obj
        .add_to(ProgramSpec::files(&["common.cl"]), double)?
        .define("MO_EVAL_KERNEL", 1)
        .define("MO_NC", count)
        .file("functions.cl");
    let ctx = context(device)?;
    if double {
        ctx.require_fp64()?;
    }
    if rows == 0 {
        return Ok(Vec::new());
    }
    let program = ctx.build(&spec)?;
    let data = obj.data_bytes(dims, double)?;
    run_eval(
        &ctx,
        &program,
        None,
        points,
        dims,
        rows,
        &data,
        double,
        Some(count as usize),
    )
}

/// What the gradient-based repair of a constrained DE's trials needs beside the points: the box
/// and integer variables, the constraints' counts and equality tolerance, the rounds.
pub struct RepairTask<'a> {
    pub lo: &'a [f64],
    pub hi: &'a [f64],
    pub integral: &'a [bool],
    pub inequalities: u32,
    pub equalities: u32,
    pub eq_tol: f64,
    pub rounds: u32,
}

/// The points `points` (row by row, `task.lo.len()` values each) after the gradient-based
/// repair of `cl/constraints.cl` (`mo_repair`) with `obj`'s `constraints`, run on the default
/// device in `double` or single precision: what the CPU backend of a constrained DE applies to
/// the trials it picks, as the device's `de_repair` does in place.
pub fn repair_points(
    obj: &Objective,
    points: &[f64],
    task: &RepairTask<'_>,
    double: bool,
) -> Result<Vec<f64>> {
    let dims = task.lo.len();
    let count = point_count(points, dims)?;
    let nc = task.inequalities.saturating_add(task.equalities);
    check_compiled_constraints(obj, nc, "repair")?;
    if task.hi.len() != dims || task.integral.len() != dims {
        return Err(Error::arg(
            "repair",
            format!(
                "{} lower limits, {} upper and {} integer flags; expected one each per variable",
                dims,
                task.hi.len(),
                task.integral.len()
            ),
        ));
    }
    if count == 0 {
        return Ok(Vec::new());
    }
    let spec = obj
        .add_to(ProgramSpec::files(&["common.cl"]), double)?
        .define("MO_EVAL_KERNEL", 1)
        .define("MO_NC", nc)
        .define("MO_NG", task.inequalities)
        .define("MO_EQ_TOL", format!("{:e}", task.eq_tol))
        .define("MO_REPAIR", 1)
        .file("constraints.cl")
        .file("functions.cl");
    let ctx = context(None)?;
    if double {
        ctx.require_fp64()?;
    }
    let program = ctx.build(&spec)?;
    let data = obj.data_bytes(dims, double)?;
    let q = ctx.queue()?;
    let cols = transposed(points, dims, count, true);
    let nc = nc as usize;
    let per = nc * dims + nc * nc + nc;
    let size = if double { 8 } else { 4 };
    let scratch = count
        .checked_mul(per * size)
        .ok_or_else(|| Error::arg("repair", "the repair's scratch does not fit"))?;
    let kinds: Vec<u8> = task
        .integral
        .iter()
        .map(|&i| if i { INTEGRAL_KIND } else { 0 })
        .collect();
    let x = q.buffer_from(&fp_bytes(&cols, double), "points")?;
    let lo = q.buffer_from(&fp_bytes(task.lo, double), "limits")?;
    let hi = q.buffer_from(&fp_bytes(task.hi, double), "limits")?;
    let kinds = q.buffer_from(&kinds, "integral")?;
    // written whole (zeros): a buffer released unwritten leaves the Oclgrind check's plugin a
    // shadow that the next buffer of its number inherits
    let s = q.buffer_from(
        &crate::error::try_filled(scratch, 0u8, "repair")?,
        "repair scratch",
    )?;
    let data = q.buffer_from(
        if data.is_empty() {
            &[0u8; 8][..]
        } else {
            &data
        },
        "data",
    )?;
    let kernel = q.kernel(&program, "functions_repair")?;
    let wg = work_group_size(&ctx, &kernel, ctx.tuning().objective_eval);
    let (dims32, count32) = (dims as u32, count as u32);
    // SAFETY: the arguments match `functions_repair`; the buffers outlive the blocking finish.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(x.cl())
            .set_arg(&dims32)
            .set_arg(&count32)
            .set_arg(data.cl())
            .set_arg(lo.cl())
            .set_arg(hi.cl())
            .set_arg(kinds.cl())
            .set_arg(s.cl())
            .set_arg(&task.rounds)
            .set_global_work_size(count.div_ceil(wg) * wg)
            .set_local_work_size(wg)
            .enqueue_nd_range(q.cl())
            .map_err(cl_error("clEnqueueNDRangeKernel(functions_repair)"))?;
    }
    q.finish()?;
    let cols = fp_values(&x.to_vec(&q)?, double);
    Ok(transposed(&cols, dims, count, false))
}

/// Values of catalogue function `name` at `count` points (row by row), through one program that
/// holds the whole catalogue (`functions_eval_id`): what accuracy tables and tests use, so that
/// the catalogue costs two builds (float, double) per device rather than two per function.
pub fn evaluate_catalogue(
    name: &str,
    points: &[f64],
    dims: usize,
    double: bool,
    device: Option<usize>,
) -> Result<Vec<f64>> {
    let info = functions::lookup(name)?;
    let count = point_count(points, dims)?;
    info.check_dims(dims)?;
    let ctx = context(device)?;
    if double {
        ctx.require_fp64()?;
    }
    if count == 0 {
        return Ok(Vec::new());
    }
    let spec = ProgramSpec::files(&["common.cl", "functions.cl"])
        .define("FP_DOUBLE", double as u8)
        .define("MO_EVAL_ALL", 1);
    let program = ctx.build(&spec)?;
    let data = fp_bytes(&info.data(dims)?, double);
    run_eval(
        &ctx,
        &program,
        Some(info.id),
        points,
        dims,
        count,
        &data,
        double,
        None,
    )
}

/// Values of catalogue function `name` (case-insensitive: `F1`, `CEC05t`, ...) at the `rows`
/// points of `points` (rows x dims values, row by row): the front ends' evaluation by name, the
/// thesis's `geatbx_cec_bundle(X, 'CEC05t')`. On [`Backend::Device`] it runs the catalogue's
/// evaluation kernel (`functions_eval_id` of `cl/functions.cl`, as [`evaluate_catalogue`]) in
/// `precision` (`Auto`: double where the device has `cl_khr_fp64`, else single; `Single` rounds
/// the points and the function's data to float first); on [`Backend::Cpu`] the host f64 reference
/// ([`FunctionInfo::eval_rows`]), which computes in double only. Returns the values and the
/// precision used. Errors name the argument: `function` (unknown name), `dims` (0, or a D the
/// function is not defined for, e.g. CEC04t..CEC10t outside D = 2 and 10), `points` (no rows, a
/// partial row, a NaN or infinite coordinate, more than 2^32 - 1 rows), `precision` (single on
/// the CPU backend).
pub fn evaluate(
    name: &str,
    points: &[f64],
    dims: usize,
    backend: Backend,
    precision: Precision,
) -> Result<(Vec<f64>, Precision)> {
    let info = functions::lookup(name)?;
    let rows = point_count(points, dims)?;
    info.check_dims(dims)?;
    if rows == 0 {
        return Err(Error::arg("points", "no rows; expected at least one point"));
    }
    if let Some(i) = points.iter().position(|v| !v.is_finite()) {
        return Err(Error::arg(
            "points",
            format!(
                "row {} column {} is {}; expected finite coordinates",
                i / dims,
                i % dims,
                points[i]
            ),
        ));
    }
    match backend {
        Backend::Cpu => {
            if precision == Precision::Single {
                return Err(Error::arg(
                    "precision",
                    "single on the CPU backend; it evaluates in double (auto or double)",
                ));
            }
            Ok((info.eval_rows(points, dims)?, Precision::Double))
        }
        Backend::Device(device) => {
            let fp64 = backend.context("evaluation")?.info.fp64;
            let used = precision.resolve(false, fp64);
            Ok((
                evaluate_catalogue(info.name, points, dims, used.is_double(), device)?,
                used,
            ))
        }
    }
}

/// Runs `functions_eval` (or `functions_eval_id` with `which`) over the points, laid out
/// column-wise (component j of point i at [j * count + i]).
#[allow(clippy::too_many_arguments)]
fn run_eval(
    ctx: &Arc<DeviceContext>,
    program: &Program,
    which: Option<u32>,
    points: &[f64],
    dims: usize,
    count: usize,
    data: &[u8],
    double: bool,
    constraints: Option<usize>,
) -> Result<Vec<f64>> {
    // `functions_constraints` writes `width` values per point
    let width = constraints.unwrap_or(1);
    let q = ctx.queue()?;
    let cols = transposed(points, dims, count, true);
    let size = if double { 8 } else { 4 };
    let x = q.buffer_from(&fp_bytes(&cols, double), "points")?;
    let data = q.buffer_from(if data.is_empty() { &[0u8; 8][..] } else { data }, "data")?;
    let out = q.buffer::<u8>(count * width * size, "values")?;
    let name = if which.is_some() {
        "functions_eval_id"
    } else if constraints.is_some() {
        "functions_constraints"
    } else {
        "functions_eval"
    };
    let kernel = q.kernel(program, name)?;
    let wg = work_group_size(ctx, &kernel, ctx.tuning().objective_eval);
    let (dims32, count32) = (dims as u32, count as u32);
    // SAFETY: the arguments match the kernel's parameters; the buffers outlive the blocking
    // finish below.
    unsafe {
        let mut exec = ExecuteKernel::new(&kernel);
        if let Some(w) = &which {
            exec.set_arg(w);
        }
        exec.set_arg(x.cl())
            .set_arg(&dims32)
            .set_arg(&count32)
            .set_arg(data.cl())
            .set_arg(out.cl())
            .set_global_work_size(count.div_ceil(wg) * wg)
            .set_local_work_size(wg)
            .enqueue_nd_range(q.cl())
            .map_err(|e| {
                let e = cl_error("clEnqueueNDRangeKernel(functions_eval)")(e);
                crate::device::note_failure(&q, &e);
                e
            })?;
    }
    q.finish()?;
    let bytes = out.to_vec(&q)?;
    Ok(fp_values(&bytes[..count * width * size], double))
}
