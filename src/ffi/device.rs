//! Device selection and listing over the C ABI (docs/specs/API.md "Device selection").

use super::result::free_c;
use super::{c_string, ffi_boundary, MetaoptInt32Result};
use crate::device::{self, Backend, DeviceKind};
use crate::error::Error;
use std::ffi::c_char;
use std::ptr;

/// The kind of a device (`MetaoptDeviceInfo.kind`); the device list is sorted in this order.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptDeviceKind {
    /// A GPU.
    MetaoptDeviceGpu = 0,
    /// An accelerator (OpenCL `CL_DEVICE_TYPE_ACCELERATOR`).
    MetaoptDeviceAccelerator = 1,
    /// A CPU (e.g. through PoCL).
    MetaoptDeviceCpu = 2,
    /// Anything else.
    MetaoptDeviceOther = 3,
}

impl From<DeviceKind> for MetaoptDeviceKind {
    fn from(k: DeviceKind) -> Self {
        match k {
            DeviceKind::Gpu => MetaoptDeviceKind::MetaoptDeviceGpu,
            DeviceKind::Accelerator => MetaoptDeviceKind::MetaoptDeviceAccelerator,
            DeviceKind::Cpu => MetaoptDeviceKind::MetaoptDeviceCpu,
            DeviceKind::Other => MetaoptDeviceKind::MetaoptDeviceOther,
        }
    }
}

/// One OpenCL device, as `metaopt_device_info` fills it. The strings are owned by the caller:
/// free them with `metaopt_device_free_info` (or each with `metaopt_pointer_free`).
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptDeviceInfo {
    /// Number in the device list (what `metaopt_device_set_number` and `METAOPT_DEVICE` take).
    pub index: i32,
    /// A `MetaoptDeviceKind` value.
    pub kind: i32,
    /// Platform name.
    pub platform: *mut c_char,
    /// Device name.
    pub name: *mut c_char,
    /// Device vendor.
    pub vendor: *mut c_char,
    /// OpenCL version string of the device.
    pub version: *mut c_char,
    /// Global memory in bytes.
    pub global_mem_bytes: u64,
    /// Local memory per work-group in bytes.
    pub local_mem_bytes: u64,
    /// Largest single allocation in bytes.
    pub max_alloc_bytes: u64,
    /// Compute units.
    pub compute_units: u32,
    /// Largest work-group size.
    pub max_work_group_size: u32,
    /// 1 when the device has double precision (`cl_khr_fp64`), else 0.
    pub fp64: u8,
}

/// No device: index -1, NULL strings, zero sizes.
impl Default for MetaoptDeviceInfo {
    fn default() -> Self {
        MetaoptDeviceInfo {
            index: -1,
            kind: MetaoptDeviceKind::MetaoptDeviceOther as i32,
            platform: ptr::null_mut(),
            name: ptr::null_mut(),
            vendor: ptr::null_mut(),
            version: ptr::null_mut(),
            global_mem_bytes: 0,
            local_mem_bytes: 0,
            max_alloc_bytes: 0,
            compute_units: 0,
            max_work_group_size: 0,
            fp64: 0,
        }
    }
}

/// 1 while the memory space of the device in use is usable; 0 after a device failure on it that
/// may have invalidated its context (then instances on it refuse work with
/// `METAOPT_ERR_INVALID_MEM_SPACE` until `metaopt_device_reset`). Other devices:
/// `metaopt_device_is_valid`.
#[no_mangle]
pub extern "C" fn metaopt_device_is_mem_space_valid() -> u8 {
    ffi_boundary!({ device::is_mem_space_valid() as u8 })
}

/// The backend of a C `backend` (0 a device, 1 the CPU backend) and `device` (-1 the device in
/// use, else a number of the device list; checked for the device backend, ignored by the CPU
/// backend except that it must not be below -1); errors name `backend_name` or `device_name`.
pub(crate) fn backend_on(
    backend: i32,
    device: i32,
    backend_name: &'static str,
    device_name: &'static str,
) -> crate::error::Result<Backend> {
    if device < -1 {
        return Err(Error::arg(
            device_name,
            format!("{device}; expected a device number or -1 (the device in use)"),
        ));
    }
    match backend {
        0 if device == -1 => Ok(Backend::Device(None)),
        0 => Ok(Backend::Device(Some(device::check_index(
            device as i64,
            device_name,
        )?))),
        1 => Ok(Backend::Cpu),
        b => Err(Error::arg(
            backend_name,
            format!("{b}; expected 0 (device) or 1 (cpu)"),
        )),
    }
}

/// 1 while the context of device `device` is usable (-1: the device in use); 0 after a device
/// failure on it that may have invalidated its context (then instances on it refuse work with
/// `METAOPT_ERR_INVALID_MEM_SPACE` until `metaopt_device_reset`). A failure on one device leaves
/// the others valid. `METAOPT_ERR_INVALID_ARGUMENT` naming `device` for a number below -1 or not
/// in the device list. The error message, if any, is the caller's to free with
/// `metaopt_pointer_free`.
#[no_mangle]
pub extern "C" fn metaopt_device_is_valid(device: i32) -> MetaoptInt32Result {
    ffi_boundary!({
        let d = match device {
            -1 => device::get_device_number()?,
            d => device::check_index(d as i64, "device")?,
        };
        MetaoptInt32Result::ok(device::is_device_valid(d) as i32)
    })
}

/// The number of the device in use: the one set by `metaopt_device_set_number`, else the
/// environment variable `METAOPT_DEVICE`, else 0 (the first GPU, or the first device). The
/// error message, if any, is the caller's to free with `metaopt_pointer_free`.
#[no_mangle]
pub extern "C" fn metaopt_device_get_number() -> MetaoptInt32Result {
    ffi_boundary!({ MetaoptInt32Result::ok(device::get_device_number()? as i32) })
}

/// Chooses device `n` (0..`metaopt_device_count()`-1) for instances created from now on; the
/// result is `n`. Instances already made keep their device. The error message, if any, is the
/// caller's to free with `metaopt_pointer_free`.
#[no_mangle]
pub extern "C" fn metaopt_device_set_number(n: i32) -> MetaoptInt32Result {
    ffi_boundary!({ MetaoptInt32Result::ok(device::set_device_number(n)? as i32) })
}

/// Drops the contexts lost to a device failure (those where `metaopt_device_is_valid` is 0), so
/// that the next instance on such a device gets a new one; the contexts of healthy devices, and
/// the instances on them, are kept. Instances on a lost context keep it and refuse work: free them
/// and make new ones, or rebuild them with `metaopt_qap_set_backend`. The result is 0.
#[no_mangle]
pub extern "C" fn metaopt_device_reset() -> MetaoptInt32Result {
    ffi_boundary!({
        device::reset_mem_space();
        MetaoptInt32Result::ok(0)
    })
}

/// Waits until no device program build runs; the result is the number of builds that were
/// running. A call cut by its time limit or an interrupt while its program was being built
/// returns at once and leaves the compiler to finish in the background (OpenCL cannot cancel
/// it). A process must not end during such a build: the driver's exit handlers, some of them
/// registered during the build, would tear the compiler down under it (a crash at exit). The
/// library waits by itself in an exit handler, but handlers registered after it run first, so a
/// host that ends its process (an interpreter's exit hook, a MEX file's `mexAtExit`, a C
/// program before `exit`) calls this first. The error message, if any, is the caller's to free
/// with `metaopt_pointer_free`.
#[no_mangle]
pub extern "C" fn metaopt_device_finish_builds() -> MetaoptInt32Result {
    ffi_boundary!({
        let running = device::builds_in_flight();
        device::finish_builds();
        MetaoptInt32Result::ok(running.min(i32::MAX as usize) as i32)
    })
}

/// The number of OpenCL devices of all platforms (0 when a driver reports none). The error
/// message, if any (no OpenCL loader at all), is the caller's to free with `metaopt_pointer_free`.
#[no_mangle]
pub extern "C" fn metaopt_device_count() -> MetaoptInt32Result {
    ffi_boundary!({ MetaoptInt32Result::ok(device::list_devices()?.len() as i32) })
}

/// Fills `*out` with what the library knows of device `n`; the result is `n`. On error `*out` is
/// left with NULL strings and index -1. The strings written into `*out` are owned by the caller:
/// free them with `metaopt_device_free_info`.
///
/// # Safety
/// `out` must be NULL or point to a writable `MetaoptDeviceInfo`.
#[no_mangle]
pub unsafe extern "C" fn metaopt_device_info(
    n: i32,
    out: *mut MetaoptDeviceInfo,
) -> MetaoptInt32Result {
    ffi_boundary!({
        if out.is_null() {
            return Err(Error::NullPointer("out"));
        }
        // SAFETY: `out` is non-null and writable by the caller's contract.
        unsafe { out.write(MetaoptDeviceInfo::default()) };
        let devs = device::list_devices()?;
        let d = usize::try_from(n)
            .ok()
            .and_then(|i| devs.get(i))
            .ok_or_else(|| {
                Error::arg(
                    "n",
                    format!("device {n} does not exist; there are {}", devs.len()),
                )
            })?;
        let info = MetaoptDeviceInfo {
            index: d.index as i32,
            kind: MetaoptDeviceKind::from(d.kind) as i32,
            platform: c_string(&d.platform),
            name: c_string(&d.name),
            vendor: c_string(&d.vendor),
            version: c_string(&d.version),
            global_mem_bytes: d.global_mem_bytes,
            local_mem_bytes: d.local_mem_bytes,
            max_alloc_bytes: d.max_alloc_bytes,
            compute_units: d.compute_units,
            max_work_group_size: u32::try_from(d.max_work_group_size).unwrap_or(u32::MAX),
            fp64: d.fp64 as u8,
        };
        // SAFETY: as above.
        unsafe { out.write(info) };
        MetaoptInt32Result::ok(n)
    })
}

/// Frees the strings of a `MetaoptDeviceInfo` filled by `metaopt_device_info` and sets them to
/// NULL (so a second call is harmless). NULL is a no-op.
///
/// # Safety
/// `info` must be NULL or point to a `MetaoptDeviceInfo` whose strings are NULL or came from
/// `metaopt_device_info`.
#[no_mangle]
pub unsafe extern "C" fn metaopt_device_free_info(info: *mut MetaoptDeviceInfo) {
    ffi_boundary!({
        // SAFETY: NULL or valid by the caller's contract.
        if let Some(info) = unsafe { info.as_mut() } {
            for s in [
                &mut info.platform,
                &mut info.name,
                &mut info.vendor,
                &mut info.version,
            ] {
                free_c(*s);
                *s = ptr::null_mut();
            }
        }
    })
}
