//! Typed device buffers.

use super::{cl_error, note_failure, DeviceContext, Queue};
use crate::error::{Error, Result};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::types::CL_BLOCKING;
use std::ptr;

/// Scalar types that may live in device buffers (plain data with the same layout in OpenCL C).
pub trait ClScalar: Copy + Default + Send + Sync + 'static {}
impl ClScalar for u8 {}
impl ClScalar for u16 {}
impl ClScalar for u32 {}
impl ClScalar for u64 {}
impl ClScalar for i32 {}
impl ClScalar for i64 {}
impl ClScalar for f32 {}
impl ClScalar for f64 {}

/// The one check before every device buffer is made (`DeviceBuffer::new`, which every
/// `Queue::buffer`/`buffer_from` goes through): `bytes` must fit the device's largest
/// allocation (`CL_DEVICE_MAX_MEM_ALLOC_SIZE`) and its global memory
/// (`CL_DEVICE_GLOBAL_MEM_SIZE`); on a CPU device (PoCL), whose buffers are host memory, also
/// the host's available memory and the address-space limit. A driver may accept a buffer it
/// cannot back and fail later (PoCL asserts on its first migration), so a request that cannot
/// fit is refused here, as `Error::OutOfDeviceMemory`.
pub fn check_fits(info: &super::DeviceInfo, bytes: u64, what: &str) -> Result<()> {
    if info.max_alloc_bytes > 0 && bytes > info.max_alloc_bytes {
        return Err(Error::OutOfDeviceMemory(format!(
            "buffer `{what}` needs {bytes} bytes; the device allows {} in one allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
            info.max_alloc_bytes
        )));
    }
    if info.global_mem_bytes > 0 && bytes > info.global_mem_bytes {
        return Err(Error::OutOfDeviceMemory(format!(
            "buffer `{what}` needs {bytes} bytes; the device has {} (CL_DEVICE_GLOBAL_MEM_SIZE)",
            info.global_mem_bytes
        )));
    }
    if info.kind == super::DeviceKind::Cpu {
        if let Some(avail) = host_memory_available() {
            if bytes > avail {
                return Err(Error::OutOfDeviceMemory(format!(
                    "buffer `{what}` needs {bytes} bytes; the host (a CPU device's memory) has {avail} available \
                     (MemAvailable and the address-space limit RLIMIT_AS)"
                )));
            }
        }
    }
    Ok(())
}

/// The bytes the host can still give: `MemAvailable` of `/proc/meminfo`, and under an
/// address-space limit (`RLIMIT_AS`, `ulimit -v`) the limit less the process's `VmSize`. `None`
/// where neither is known.
pub fn host_memory_available() -> Option<u64> {
    let field = |text: &str, key: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(key))?;
        let kb: u64 = line[key.len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
        Some(kb.saturating_mul(1024))
    };
    let mem = std::fs::read_to_string("/proc/meminfo").ok().and_then(|t| field(&t, "MemAvailable:"));
    let mut rl = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes the struct it is given.
    let limited = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut rl) } == 0 && rl.rlim_cur != libc::RLIM_INFINITY;
    let space = if limited {
        let used = std::fs::read_to_string("/proc/self/status").ok().and_then(|t| field(&t, "VmSize:")).unwrap_or(0);
        #[allow(clippy::unnecessary_cast)] // rlim_t is not u64 on every target
        Some((rl.rlim_cur as u64).saturating_sub(used))
    } else {
        None
    };
    match (mem, space) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A device buffer of `len` elements of `T`.
pub struct DeviceBuffer<T: ClScalar> {
    buf: Buffer<T>,
    len: usize,
    what: &'static str,
}

// SAFETY: a cl_mem is a thread-safe OpenCL object.
unsafe impl<T: ClScalar> Send for DeviceBuffer<T> {}
unsafe impl<T: ClScalar> Sync for DeviceBuffer<T> {}

impl<T: ClScalar> DeviceBuffer<T> {
    pub(crate) fn new(ctx: &DeviceContext, len: usize, what: &'static str) -> Result<Self> {
        let len = len.max(1);
        let bytes = (len as u64).saturating_mul(std::mem::size_of::<T>() as u64);
        check_fits(&ctx.info, bytes, what)?;
        // SAFETY: no host pointer is given, so OpenCL allocates the storage itself.
        let buf = unsafe { Buffer::<T>::create(ctx.context(), CL_MEM_READ_WRITE, len, ptr::null_mut()) }
            .map_err(cl_error("clCreateBuffer"))?;
        Ok(DeviceBuffer { buf, len, what })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn cl(&self) -> &Buffer<T> {
        &self.buf
    }

    /// Blocking copy of `data` into the start of the buffer.
    pub fn write(&mut self, q: &Queue, data: &[T]) -> Result<()> {
        if data.len() > self.len {
            return Err(Error::Panic(format!(
                "write of {} elements into buffer `{}` of {}",
                data.len(),
                self.what,
                self.len
            )));
        }
        // SAFETY: the write is blocking, so `data` outlives it; the length is checked above.
        unsafe { q.cl().enqueue_write_buffer(&mut self.buf, CL_BLOCKING, 0, data, &[]) }
            .map(|_| ())
            .map_err(|e| {
                let e = cl_error("clEnqueueWriteBuffer")(e);
                note_failure(&e);
                e
            })
    }

    /// Blocking copy of the start of the buffer into `out`.
    pub fn read(&self, q: &Queue, out: &mut [T]) -> Result<()> {
        if out.len() > self.len {
            return Err(Error::Panic(format!(
                "read of {} elements from buffer `{}` of {}",
                out.len(),
                self.what,
                self.len
            )));
        }
        // SAFETY: the read is blocking; the length is checked above.
        unsafe { q.cl().enqueue_read_buffer(&self.buf, CL_BLOCKING, 0, out, &[]) }
            .map(|_| ())
            .map_err(|e| {
                let e = cl_error("clEnqueueReadBuffer")(e);
                note_failure(&e);
                e
            })
    }

    /// The whole buffer as a vector.
    pub fn to_vec(&self, q: &Queue) -> Result<Vec<T>> {
        let mut v = vec![T::default(); self.len];
        self.read(q, &mut v)?;
        Ok(v)
    }
}
