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
        if bytes > ctx.info.max_alloc_bytes && ctx.info.max_alloc_bytes > 0 {
            return Err(Error::OutOfDeviceMemory(format!(
                "buffer `{what}` needs {bytes} bytes; the device allows {} in one allocation",
                ctx.info.max_alloc_bytes
            )));
        }
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
