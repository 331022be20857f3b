//! The device layer: the only module that calls OpenCL.
//!
//! Every device of every platform is numbered in one list, GPUs first (then accelerators, then
//! CPUs, then the rest), keeping the platforms' own order within a kind. The default device is
//! number 0 of that list, i.e. the first GPU or else the first device; `METAOPT_DEVICE` or
//! [`set_device_number`] choose another.
//!
//! Contexts are shared per device within the process, so that the program cache (keyed by the
//! source hash and the build options) serves every solver on that device. Each solver takes its
//! own in-order queue (profiling-enabled where a solver times its kernels).
//!
//! - **Numbering and contexts**: one list over all platforms, GPUs first; one shared context per
//!   device (made at first use, with its program cache and pinned staging); each solver instance
//!   takes its own in-order queue. `Backend::Device(Some(d))` names a device,
//!   `Backend::Device(None)` the process default (`set_device_number`, `METAOPT_DEVICE`, else 0);
//!   every solver resolves it through `Backend::context`.
//! - **Per-handle devices**: every front end passes a device number to the create call (C: the
//!   options' `device` field or an `_on_device` variant, `src/ffi/device.rs` `backend_on` parses
//!   `backend` and `device` for all of them; Python `device=None`; MEX `opts.device`; C++
//!   `DEOptions::device`, `evaluate(..., device)`), so one process holds handles on several devices
//!   and drives them from several threads (each handle from one thread at a time, its busy flag).
//! - **Device loss is per context**: `DeviceContext` carries a `lost` flag. `note_failure(queue,
//!   err)` (every launch, read, write, flush and finish error path) sets it on the failing queue's
//!   context; `Queue::check_valid` refuses launches, reads and writes through a lost context with
//!   `InvalidMemSpace`; `DeviceContext::get(d)` refuses only a lost `d`; `reset_mem_space` drops
//!   the lost contexts from the cache (healthy ones stay). `is_device_valid(d)` and
//!   `is_mem_space_valid()` (the default device) read it; `mark_lost_for_test(d)` (hidden)
//!   simulates a failure. `tests/it/devices/multi_handles.rs` checks all of it with PoCL posing as
//!   three devices.
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | `buffer` | typed device buffers; large reads through pinned staging, uploads queued without a wait |
//! | `footprint` | [`Footprint`]: the bytes a run will hold on the host and the device, checked before it allocates |
//! | [`program`] | [`ProgramSpec`] (files, extra source, defines) and the program cache |
//! | `source` | kernel lookup: `METAOPT_CL_DIR`, `cl/` beside the library, the source tree, the embedded copy |
//! | [`tuning`] | work-group caps, tiles and other launch constants per device kind |

mod buffer;
mod footprint;
pub mod program;
mod source;
pub mod tuning;

pub use buffer::{
    check_fits, host_memory_available, output_vec, try_output_vec, ClScalar, DeviceBuffer,
};
pub use footprint::{bytes, units_that_fit, Footprint};
pub use program::{builds_in_flight, finish_builds, ProgramSpec};
pub use source::{embedded_source, kernel_source, source_dir};
pub use tuning::Tuning;

use crate::error::{Error, Result};
use opencl3::command_queue::{CommandQueue, CL_QUEUE_PROFILING_ENABLE};
use opencl3::context::Context;
use opencl3::device::{
    Device, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU,
};
use opencl3::error_codes::ClError;
use opencl3::event::Event;
use opencl3::kernel::Kernel;
use opencl3::program::Program;
use opencl3::types::cl_device_id;
use serde::Serialize;
use std::collections::HashMap;

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Environment variable that selects the device by its number in [`list_devices`].
pub const DEVICE_ENV: &str = "METAOPT_DEVICE";

/// The kind of an OpenCL device, in the order the list sorts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeviceKind {
    Gpu,
    Accelerator,
    Cpu,
    Other,
}

impl DeviceKind {
    fn from_cl(t: u64) -> Self {
        if t & CL_DEVICE_TYPE_GPU != 0 {
            DeviceKind::Gpu
        } else if t & CL_DEVICE_TYPE_ACCELERATOR != 0 {
            DeviceKind::Accelerator
        } else if t & CL_DEVICE_TYPE_CPU != 0 {
            DeviceKind::Cpu
        } else {
            DeviceKind::Other
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            DeviceKind::Gpu => "GPU",
            DeviceKind::Accelerator => "accelerator",
            DeviceKind::Cpu => "CPU",
            DeviceKind::Other => "other",
        }
    }
}

impl DeviceInfo {
    /// [`Backend::describe`] of this device: "device N: name (platform, kind)".
    pub fn describe(&self) -> String {
        format!(
            "device {}: {} ({}, {})",
            self.index,
            self.name,
            self.platform,
            self.kind.as_str()
        )
    }
}

/// What the library knows of one device.
#[derive(Clone, Debug, Serialize)]
pub struct DeviceInfo {
    /// Number in the global list (what `--device N` and `METAOPT_DEVICE` take).
    pub index: usize,
    pub platform: String,
    pub name: String,
    pub vendor: String,
    pub kind: DeviceKind,
    pub version: String,
    pub global_mem_bytes: u64,
    pub local_mem_bytes: u64,
    pub max_alloc_bytes: u64,
    pub compute_units: u32,
    pub max_work_group_size: usize,
    pub fp64: bool,
    #[serde(skip)]
    id: usize,
}

impl DeviceInfo {
    pub(crate) fn cl_id(&self) -> cl_device_id {
        self.id as cl_device_id
    }
}

/// Maps an OpenCL error of `call` to the library's error.
pub(crate) fn cl_error(call: &'static str) -> impl Fn(ClError) -> Error {
    move |e: ClError| {
        let code = e.0;
        let name = opencl3::error_codes::error_text(code);
        match code {
            // CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_OUT_OF_RESOURCES, CL_INVALID_BUFFER_SIZE
            -4 | -5 | -61 => Error::OutOfDeviceMemory(format!("{call}: {name}")),
            // the dlopen failures of the dynamic loader
            c if name.starts_with("DLOPEN") || c == -1001 => Error::NoDevice(format!(
                "the OpenCL driver could not be loaded ({call}: {name}); install an OpenCL ICD \
                 loader and a driver (e.g. pocl-opencl-icd)"
            )),
            _ => Error::OpenCl { call, code, name },
        }
    }
}

fn enumerate() -> Result<Vec<DeviceInfo>> {
    if !cl3::is_opencl_runtime_available() {
        return Err(Error::NoDevice(
            "the OpenCL loader libOpenCL.so.1 could not be loaded; install ocl-icd-libopencl1 and \
             a driver (e.g. pocl-opencl-icd)"
                .into(),
        ));
    }
    // PoCL's ICD sets OCL_ICD_FILENAMES to itself while it loads, which a child process of
    // this one (the CLI started from a Python program using the library) then inherits: its
    // loader lists PoCL alone and the GPU platform is gone. The loader reads the variable once,
    // at this first enumeration, so it is put back as the caller had it after this.
    let icd_files = std::env::var_os(ICD_FILENAMES);
    let all = platform_devices();
    if std::env::var_os(ICD_FILENAMES) != icd_files {
        // SAFETY: the variable was changed by a driver during this call and is restored before
        // anything of this library reads the environment again; the variable belongs to the
        // OpenCL loader, which has read it already
        unsafe {
            match &icd_files {
                Some(v) => std::env::set_var(ICD_FILENAMES, v),
                None => std::env::remove_var(ICD_FILENAMES),
            }
        }
    }
    all
}

/// The OpenCL ICD loader's list of driver libraries to load (beside OCL_ICD_VENDORS).
const ICD_FILENAMES: &str = "OCL_ICD_FILENAMES";

/// Every device of every platform, GPUs first, numbered.
fn platform_devices() -> Result<Vec<DeviceInfo>> {
    let platforms = match opencl3::platform::get_platforms() {
        Ok(p) => p,
        // -1001 (CL_PLATFORM_NOT_FOUND_KHR): a loader without any driver
        Err(e) if e.0 == -1001 => Vec::new(),
        Err(e) => return Err(cl_error("clGetPlatformIDs")(e)),
    };
    let mut all = Vec::new();
    for p in &platforms {
        let pname = p.name().unwrap_or_else(|_| "unknown platform".into());
        // A platform without devices answers CL_DEVICE_NOT_FOUND; that is not an error here.
        let ids = p.get_devices(CL_DEVICE_TYPE_ALL).unwrap_or_default();
        for id in ids {
            let d = Device::new(id);
            let kind = DeviceKind::from_cl(d.dev_type().unwrap_or(0));
            let ext = d.extensions().unwrap_or_default();
            all.push(DeviceInfo {
                index: 0,
                platform: pname.trim().to_string(),
                name: d.name().unwrap_or_default().trim().to_string(),
                vendor: d.vendor().unwrap_or_default().trim().to_string(),
                kind,
                version: d.version().unwrap_or_default().trim().to_string(),
                global_mem_bytes: d.global_mem_size().unwrap_or(0),
                local_mem_bytes: d.local_mem_size().unwrap_or(0),
                max_alloc_bytes: d.max_mem_alloc_size().unwrap_or(0),
                compute_units: d.max_compute_units().unwrap_or(0),
                max_work_group_size: d.max_work_group_size().unwrap_or(1),
                fp64: ext.split_whitespace().any(|e| e == "cl_khr_fp64"),
                id: id as usize,
            });
        }
    }
    // stable sort: the platforms' own order is kept within a kind
    all.sort_by_key(|d| d.kind);
    for (i, d) in all.iter_mut().enumerate() {
        d.index = i;
    }
    Ok(all)
}

static DEVICES: OnceLock<std::result::Result<Vec<DeviceInfo>, String>> = OnceLock::new();
/// Device chosen through the API; -1 = not chosen.
static SELECTED: AtomicI32 = AtomicI32::new(-1);
static CONTEXTS: OnceLock<Mutex<HashMap<usize, Arc<DeviceContext>>>> = OnceLock::new();

/// Every OpenCL device of every platform, GPUs first. An empty list is not an error here;
/// asking for a device from it is.
pub fn list_devices() -> Result<Vec<DeviceInfo>> {
    match DEVICES.get_or_init(|| {
        enumerate().map_err(|e| match e {
            Error::NoDevice(msg) => msg,
            e => e.to_string(),
        })
    }) {
        Ok(v) => Ok(v.clone()),
        Err(msg) => Err(Error::NoDevice(msg.clone())),
    }
}

/// `n` as a device number of [`list_devices`]; the error names `what`.
pub(crate) fn check_index(n: i64, what: &'static str) -> Result<usize> {
    let devs = list_devices()?;
    if devs.is_empty() {
        return Err(Error::NoDevice(
            "no OpenCL platform reports any device".into(),
        ));
    }
    if n < 0 || n as usize >= devs.len() {
        return Err(Error::arg(
            what,
            format!(
                "device {n} does not exist; there are {} (0..{})",
                devs.len(),
                devs.len() - 1
            ),
        ));
    }
    Ok(n as usize)
}

/// The device number in use: the one set through the API, else `METAOPT_DEVICE`, else 0.
pub fn get_device_number() -> Result<usize> {
    let sel = SELECTED.load(Ordering::SeqCst);
    if sel >= 0 {
        return check_index(sel as i64, "device");
    }
    if let Ok(v) = std::env::var(DEVICE_ENV) {
        let n: i64 = v
            .trim()
            .parse()
            .map_err(|_| Error::arg(DEVICE_ENV, format!("`{v}` is not a device number")))?;
        return check_index(n, DEVICE_ENV);
    }
    check_index(0, "device")
}

/// Chooses the device for solvers created from now on.
pub fn set_device_number(n: i32) -> Result<usize> {
    let idx = check_index(n as i64, "deviceNumber")?;
    SELECTED.store(idx as i32, Ordering::SeqCst);
    Ok(idx)
}

/// False after a device failure that may have invalidated the context of the device in use
/// ([`get_device_number`]; the thesis's `cudaErrorLaunchFailure` case); [`reset_mem_space`] drops
/// the lost contexts so new ones are made. Other devices: [`is_device_valid`].
pub fn is_mem_space_valid() -> bool {
    match get_device_number() {
        Ok(d) => is_device_valid(d),
        // no device in use: valid unless some context is lost
        Err(_) => CONTEXTS.get().is_none_or(|m| {
            m.lock()
                .unwrap_or_else(|e| e.into_inner())
                .values()
                .all(|c| !c.is_lost())
        }),
    }
}

/// False after a device failure on device `index` that may have invalidated its context; the
/// contexts of the other devices are unaffected. A device without a context yet is valid.
pub fn is_device_valid(index: usize) -> bool {
    CONTEXTS
        .get()
        .and_then(|m| {
            m.lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&index)
                .map(|c| !c.is_lost())
        })
        .unwrap_or(true)
}

/// Drops the lost contexts (those of devices where [`is_device_valid`] is false): the next use
/// of such a device makes a new context. Contexts of healthy devices, and the handles on them,
/// are kept. Handles made on a lost context keep it and refuse work: free them and make new ones.
pub fn reset_mem_space() {
    if let Some(m) = CONTEXTS.get() {
        m.lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|_, c| !c.is_lost());
    }
}

/// Test hook: marks the context of device `index` lost as a device failure on it would (making
/// the context first if there is none). Errors for a device number that does not exist.
#[doc(hidden)]
pub fn mark_lost_for_test(index: usize) -> Result<()> {
    DeviceContext::get(index)?
        .lost
        .store(true, Ordering::SeqCst);
    Ok(())
}

/// Records a failure on `q`'s device that leaves its state unknown (kernel launch or read
/// failures): that device's context is marked lost; other devices are unaffected.
pub(crate) fn note_failure(q: &Queue, e: &Error) {
    if let Error::OpenCl { code, .. } = e {
        // CL_OUT_OF_RESOURCES during execution, CL_INVALID_COMMAND_QUEUE,
        // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, CL_INVALID_CONTEXT
        if matches!(code, -5 | -36 | -14 | -34) {
            q.ctx.lost.store(true, Ordering::SeqCst);
        }
    }
}

fn lost_error(index: usize) -> Error {
    Error::InvalidMemSpace(format!(
        "an earlier failure of device {index} invalidated its context; call \
         metaopt_reset_device() and make new instances on it"
    ))
}

/// One launch of `e` over `global` work-items in groups of `local` (the implementation's choice
/// when `None`); the error names the kernel (`name`, e.g. `"clEnqueueNDRangeKernel(foo)"`) and
/// a lost context is noted. The one launch every solver's device engine goes through.
///
/// The caller has set every argument of the kernel, in type and order, to buffers and scalars
/// that outlive the queue's use of them.
pub(crate) fn launch(
    q: &Queue,
    e: &mut opencl3::kernel::ExecuteKernel,
    global: &[usize],
    local: Option<&[usize]>,
    name: &'static str,
) -> Result<()> {
    q.check_valid()?;
    e.set_global_work_sizes(global);
    if let Some(l) = local {
        e.set_local_work_sizes(l);
    }
    // SAFETY: the arguments are the caller's (above); the sizes are set just now.
    unsafe { e.enqueue_nd_range(q.cl()) }.map_err(|err| {
        let err = cl_error(name)(err);
        note_failure(q, &err);
        err
    })?;
    Ok(())
}

/// [`launch`], keeping the launch's event (for its profiled time on a queue with profiling).
pub(crate) fn launch_event(
    q: &Queue,
    e: &mut opencl3::kernel::ExecuteKernel,
    global: &[usize],
    local: &[usize],
    name: &'static str,
) -> Result<Event> {
    q.check_valid()?;
    e.set_global_work_sizes(global);
    e.set_local_work_sizes(local);
    // SAFETY: the arguments are the caller's (as for `launch`); the sizes are set just now.
    unsafe { e.enqueue_nd_range(q.cl()) }.map_err(|err| {
        let err = cl_error(name)(err);
        note_failure(q, &err);
        err
    })
}

/// Enqueues `kernel`, whose arguments are already set on the kernel object, over `global` (each
/// rounded up to `local`): for kernels launched many times in a row with one argument changing
/// (the caller sets that one with `Kernel::set_arg`), where setting every argument per launch
/// cost more than the launch. Errors name `name` and mark the device lost as `launch` does.
pub(crate) fn enqueue_prepared(
    q: &Queue,
    kernel: &opencl3::kernel::Kernel,
    global: &[usize],
    local: &[usize],
    name: &'static str,
) -> Result<()> {
    q.check_valid()?;
    let mut g = [0usize; 3];
    for (i, (&x, &l)) in global.iter().zip(local).enumerate() {
        g[i] = x.max(1).div_ceil(l) * l;
    }
    // No event is asked for (the caller waits on the queue): the driver need not make and track
    // one per launch.
    let runtime = cl3::load_library()
        .as_ref()
        .map_err(|_| Error::Panic("the OpenCL runtime is not loaded".into()))?;
    // SAFETY: the caller set every argument of `kernel`; the sizes are `global.len()` long; a null
    // event pointer is allowed (OpenCL 1.2, clEnqueueNDRangeKernel).
    let status = runtime.clEnqueueNDRangeKernel(
        q.cl().get(),
        kernel.get(),
        global.len() as u32,
        std::ptr::null(),
        g.as_ptr(),
        local.as_ptr(),
        0,
        std::ptr::null(),
        std::ptr::null_mut(),
    );
    match status {
        Some(0) => Ok(()),
        other => {
            let err = cl_error(name)(ClError(
                other.unwrap_or(cl3::error_codes::DLOPEN_FUNCTION_NOT_AVAILABLE),
            ));
            note_failure(q, &err);
            Err(err)
        }
    }
}

/// A context on one device with its program cache.
pub struct DeviceContext {
    pub info: DeviceInfo,
    /// Two pinned host buffers for large reads (`DeviceBuffer::read_converted`), made at the
    /// first such read on this device and kept mapped until the context goes (dropped before
    /// it): pinning is slow, costlier than the large read it speeds up if done per read (see
    /// benchmarks/INDEX.md, 2026-11-24-h100-sp_all_sources).
    pub(crate) staging: Mutex<Option<buffer::Staging>>,
    context: Context,
    programs: program::Programs,
    /// Set by a device failure on this context ([`note_failure`]); then every launch, read and
    /// write through it is refused with `InvalidMemSpace`.
    lost: AtomicBool,
}

/// Where a solver computes: an OpenCL device, or the rayon CPU backend that follows the same
/// algorithm with the same random numbers. Every solver takes this one type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// An OpenCL device by its number (`metaopt devices`); `None` takes the device in use
    /// ([`get_device_number`]: `METAOPT_DEVICE`, [`set_device_number`], else the first GPU).
    Device(Option<usize>),
    /// The rayon CPU backend.
    Cpu,
}

impl Default for Backend {
    fn default() -> Self {
        Backend::Device(None)
    }
}

impl Backend {
    /// The device in use.
    pub const DEVICE: Backend = Backend::Device(None);

    /// The shared context of this backend's device; `solver` names what has no CPU backend.
    pub fn context(self, solver: &str) -> Result<Arc<DeviceContext>> {
        match self {
            Backend::Device(Some(d)) => DeviceContext::get(d),
            Backend::Device(None) => DeviceContext::current(),
            Backend::Cpu => Err(Error::arg(
                "backend",
                format!("the CPU backend; {solver} runs on an OpenCL device only"),
            )),
        }
    }

    /// What computes, in the words every solver's report starts with (a solver appends its own
    /// layout): "CPU backend (rayon, N threads)", or [`DeviceInfo::describe`] of the device. A
    /// device that cannot be opened is described by the error.
    pub fn describe(self) -> String {
        match self {
            Backend::Cpu => format!(
                "CPU backend (rayon, {} threads)",
                rayon::current_num_threads()
            ),
            Backend::Device(n) => match self.context("a description") {
                Ok(ctx) => ctx.info.describe(),
                Err(e) => match n {
                    Some(n) => format!("device {n}: {e}"),
                    None => format!("device in use: {e}"),
                },
            },
        }
    }
}

// SAFETY: OpenCL contexts and programs are thread-safe objects (OpenCL 1.2 appendix A.2);
// the program map is behind a mutex.
unsafe impl Send for DeviceContext {}
unsafe impl Sync for DeviceContext {}

impl DeviceContext {
    /// The shared context of device `index` (made on first use).
    pub fn get(index: usize) -> Result<Arc<DeviceContext>> {
        let index = check_index(index as i64, "device")?;
        let map = CONTEXTS.get_or_init(|| Mutex::new(HashMap::new()));
        let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = map.get(&index) {
            if c.is_lost() {
                return Err(lost_error(index));
            }
            return Ok(c.clone());
        }
        let info = list_devices()?[index].clone();
        let device = Device::new(info.cl_id());
        let context = Context::from_device(&device).map_err(cl_error("clCreateContext"))?;
        let ctx = Arc::new(DeviceContext {
            info,
            context,
            programs: program::Programs::default(),
            staging: Mutex::new(None),
            lost: AtomicBool::new(false),
        });
        map.insert(index, ctx.clone());
        Ok(ctx)
    }

    /// True after a device failure on this context.
    pub fn is_lost(&self) -> bool {
        self.lost.load(Ordering::SeqCst)
    }

    /// The context of the device in use ([`get_device_number`]).
    pub fn current() -> Result<Arc<DeviceContext>> {
        Self::get(get_device_number()?)
    }

    /// A fresh in-order queue with profiling (kernel times from events).
    pub fn queue(self: &Arc<Self>) -> Result<Queue> {
        self.make_queue(CL_QUEUE_PROFILING_ENABLE)
    }

    /// A fresh in-order queue without profiling, for solvers that time nothing per kernel: on
    /// the NVIDIA driver every launch costs less so (island DE of small islands runs visibly more
    /// generations per second).
    pub fn queue_unprofiled(self: &Arc<Self>) -> Result<Queue> {
        self.make_queue(0)
    }

    fn make_queue(self: &Arc<Self>, properties: u64) -> Result<Queue> {
        // clCreateCommandQueue (1.x) rather than the 2.0 call: OpenCL 1.2 devices have no other.
        #[allow(deprecated)]
        let q = unsafe { CommandQueue::create(&self.context, self.info.cl_id(), properties) }
            .map_err(cl_error("clCreateCommandQueue"))?;
        Ok(Queue {
            ctx: self.clone(),
            queue: q,
        })
    }

    pub fn context(&self) -> &Context {
        &self.context
    }

    /// Errors unless the device has `cl_khr_fp64`.
    pub fn require_fp64(&self) -> Result<()> {
        if self.info.fp64 {
            Ok(())
        } else {
            Err(Error::Unsupported(format!(
                "double precision (cl_khr_fp64) on device {} ({}); use a float type",
                self.info.index, self.info.name
            )))
        }
    }

    /// Number of programs built so far on this context (for tests of the cache).
    pub fn cached_programs(&self) -> usize {
        self.programs.built()
    }
}

/// An in-order command queue with profiling, tied to its context.
pub struct Queue {
    ctx: Arc<DeviceContext>,
    queue: CommandQueue,
}

// SAFETY: command queues are thread-safe OpenCL objects; a solver uses its own queue from one
// thread at a time (it is behind `&mut` in every solver method).
unsafe impl Send for Queue {}
unsafe impl Sync for Queue {}

impl Queue {
    pub fn ctx(&self) -> &Arc<DeviceContext> {
        &self.ctx
    }

    pub fn cl(&self) -> &CommandQueue {
        &self.queue
    }

    /// `InvalidMemSpace` when this queue's context was lost to a device failure.
    pub(crate) fn check_valid(&self) -> Result<()> {
        if self.ctx.is_lost() {
            return Err(lost_error(self.ctx.info.index));
        }
        Ok(())
    }

    /// A device buffer of `len` elements.
    pub fn buffer<T: ClScalar>(&self, len: usize, what: &'static str) -> Result<DeviceBuffer<T>> {
        DeviceBuffer::new(&self.ctx, len, what)
    }

    /// A device buffer holding a copy of `data`.
    pub fn buffer_from<T: ClScalar>(
        &self,
        data: &[T],
        what: &'static str,
    ) -> Result<DeviceBuffer<T>> {
        let mut b = DeviceBuffer::new(&self.ctx, data.len().max(1), what)?;
        if !data.is_empty() {
            b.write(self, data)?;
        }
        Ok(b)
    }

    /// Submits what is enqueued without waiting (`clFlush`), so the device works while the host
    /// does something else.
    pub fn flush(&self) -> Result<()> {
        self.queue.flush().map_err(|e| {
            let e = cl_error("clFlush")(e);
            note_failure(self, &e);
            e
        })
    }

    pub fn finish(&self) -> Result<()> {
        self.queue.finish().map_err(|e| {
            let e = cl_error("clFinish")(e);
            note_failure(self, &e);
            e
        })
    }

    /// Creates a kernel object of a built program.
    pub fn kernel(&self, program: &Program, name: &'static str) -> Result<Kernel> {
        Kernel::create(program, name).map_err(cl_error("clCreateKernel"))
    }
}

/// Nanoseconds between the start and the end of a profiled event.
pub fn event_ns(ev: &Event) -> u64 {
    let s = ev.profiling_command_start().unwrap_or(0);
    let e = ev.profiling_command_end().unwrap_or(0);
    e.saturating_sub(s)
}

/// The group of a kernel with one work-item per element of a set of `n`: the smallest power of
/// two covering `n`, or the largest power of two not above `cap` when that is smaller (the
/// work-items then loop over the elements).
pub fn covering_group(n: usize, cap: usize) -> usize {
    let mut wg = 1;
    while wg < n && wg * 2 <= cap {
        wg *= 2;
    }
    wg
}

/// A work-group size for a 1-D kernel: the largest power of two not above the device's limit,
/// the kernel's limit and `cap`.
pub fn work_group_size(ctx: &DeviceContext, kernel: &Kernel, cap: usize) -> usize {
    let k = kernel.get_work_group_size(ctx.info.cl_id()).unwrap_or(1);
    let lim = ctx.info.max_work_group_size.min(k).min(cap).max(1);
    let mut wg = 1;
    while wg * 2 <= lim {
        wg *= 2;
    }
    wg
}
