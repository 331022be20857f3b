//! Typed device buffers.

use super::{cl_error, note_failure, DeviceContext, Queue};
use crate::error::{Error, Result};
use opencl3::command_queue::CommandQueue;
use opencl3::event::Event;
use opencl3::memory::{
    Buffer, ClMem, CL_MAP_READ, CL_MAP_WRITE, CL_MEM_ALLOC_HOST_PTR, CL_MEM_READ_WRITE,
};
use opencl3::types::{cl_mem, CL_BLOCKING, CL_NON_BLOCKING};
use std::ptr;

/// Scalar types that may live in device buffers (plain data with the same layout in OpenCL C).
pub trait ClScalar: Copy + Default + Send + Sync + 'static {}
impl ClScalar for u8 {}
impl ClScalar for u16 {}
impl ClScalar for i16 {}
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
        let kb: u64 = line[key.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kb.saturating_mul(1024))
    };
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| field(&t, "MemAvailable:"));
    let mut rl = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given.
    let limited = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut rl) } == 0
        && rl.rlim_cur != libc::RLIM_INFINITY;
    let space = if limited {
        let used = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|t| field(&t, "VmSize:"))
            .unwrap_or(0);
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

/// Reads of at least this many bytes go through pinned staging (`DeviceBuffer::read_converted`).
const PINNED_MIN: usize = 8 << 20;
/// Bytes of each of the two pinned staging buffers.
const PINNED_CHUNK: usize = 32 << 20;

/// A zeroed vector of `len` elements for a large device read: on Linux its pages are advised as
/// huge pages (`MADV_HUGEPAGE`) before anything touches them, so filling a fresh result of
/// hundreds of megabytes takes hundreds of page faults rather than hundreds of thousands; then rayon
/// threads fault the pages in, so a caller that makes its outputs while the device computes
/// (after a flush) has that cost hidden.
pub fn output_vec<U: Clone + Default + Send + Sync>(len: usize) -> Vec<U> {
    let mut v = vec![U::default(); len];
    fault_in(&mut v);
    v
}

/// [`output_vec`] for the numeric scalars, fallible: a vector the host cannot allocate is
/// [`Error::OutOfHostMemory`] naming `arg`, not an abort (its pages come zeroed from the
/// allocator, untouched, as those of `vec!` of zeros).
pub fn try_output_vec<U: ClScalar>(len: usize, arg: &'static str) -> Result<Vec<U>> {
    let oom = || {
        Error::OutOfHostMemory(format!(
            "`{arg}`: {len} values ({} bytes) cannot be allocated on the host",
            len.saturating_mul(std::mem::size_of::<U>())
        ))
    };
    if len == 0 || std::mem::size_of::<U>() == 0 {
        return Ok(Vec::new());
    }
    let layout = std::alloc::Layout::array::<U>(len).map_err(|_| oom())?;
    // SAFETY: the layout has a non-zero size (checked above).
    let p = unsafe { std::alloc::alloc_zeroed(layout) } as *mut U;
    if p.is_null() {
        return Err(oom());
    }
    // SAFETY: `p` comes from the global allocator with the layout of `len` values of `U`, and is
    // zeroed: every `ClScalar` is a plain number whose all-zero bits are a valid value (0).
    let mut v = unsafe { Vec::from_raw_parts(p, len, len) };
    fault_in(&mut v);
    Ok(v)
}

/// Advises `v`'s pages as huge pages and faults them in on rayon threads (one write a page).
fn fault_in<U: Clone + Default + Send + Sync>(v: &mut [U]) {
    use rayon::prelude::*;
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let bytes = std::mem::size_of_val(v);
        let start = v.as_mut_ptr() as usize;
        let (a, b) = (start.next_multiple_of(HUGE), (start + bytes) / HUGE * HUGE);
        if b > a {
            // SAFETY: [a, b) lies inside the vector's allocation; the advice changes no contents.
            unsafe { libc::madvise(a as *mut libc::c_void, b - a, libc::MADV_HUGEPAGE) };
        }
    }
    // one write a page: the kernel zeroes what it maps (`vec!` of a zero value asked for zeroed
    // memory, so nothing was touched yet), a full fill would write every byte a second time
    let zero = U::default();
    let page = (4096 / std::mem::size_of::<U>().max(1)).max(1);
    v.par_chunks_mut(page)
        .with_min_len(64)
        .for_each(|c| c[0] = zero.clone());
}

/// The pinned staging pair of a device context (`DeviceContext::staging`): `PINNED_CHUNK`
/// bytes each, mapped through a queue of its own until the context goes (page-aligned
/// pointers, so any scalar type may be read into them).
pub(crate) struct Staging {
    queue: CommandQueue,
    bufs: [Buffer<u8>; 2],
    ptrs: [*mut u8; 2],
}

// SAFETY: the pointers are host memory owned by the buffers; the context's mutex serialises use.
unsafe impl Send for Staging {}

impl Staging {
    pub(crate) fn new(ctx: &DeviceContext) -> Result<Staging> {
        // clCreateCommandQueue (1.x) rather than the 2.0 call: OpenCL 1.2 devices have no other.
        #[allow(deprecated)]
        // SAFETY: a plain in-order queue on the context's own device.
        let queue = unsafe { CommandQueue::create(ctx.context(), ctx.info.cl_id(), 0) }
            .map_err(cl_error("clCreateCommandQueue(staging)"))?;
        let make = || -> Result<(Buffer<u8>, *mut u8)> {
            // SAFETY: no host pointer is given; OpenCL allocates host-accessible (pinned) storage.
            let b = unsafe {
                Buffer::<u8>::create(
                    ctx.context(),
                    CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                    PINNED_CHUNK,
                    ptr::null_mut(),
                )
            }
            .map_err(cl_error("clCreateBuffer(staging)"))?;
            let mut p: cl_mem = ptr::null_mut();
            // SAFETY: a blocking map of the whole buffer; it stays mapped until the drop.
            unsafe {
                queue.enqueue_map_buffer(
                    &b,
                    CL_BLOCKING,
                    CL_MAP_READ | CL_MAP_WRITE,
                    0,
                    PINNED_CHUNK,
                    &mut p,
                    &[],
                )
            }
            .map_err(cl_error("clEnqueueMapBuffer(staging)"))?;
            Ok((b, p as *mut u8))
        };
        let (b0, p0) = make()?;
        let (b1, p1) = make()?;
        Ok(Staging {
            queue,
            bufs: [b0, b1],
            ptrs: [p0, p1],
        })
    }
}

impl Drop for Staging {
    /// Unmaps both buffers (errors are moot there).
    fn drop(&mut self) {
        for (b, p) in self.bufs.iter().zip(self.ptrs) {
            // SAFETY: `p` is the pointer the map returned for `b`; nothing uses it any more.
            let _ = unsafe {
                self.queue
                    .enqueue_unmap_mem_object(b.get(), p as *mut std::ffi::c_void, &[])
            };
        }
        let _ = self.queue.finish();
    }
}

/// A device buffer of `len` elements of `T`.
pub struct DeviceBuffer<T: ClScalar> {
    buf: Buffer<T>,
    len: usize,
    what: &'static str,
    /// The last [`DeviceBuffer::write_queued`]: its event and the host data it reads, kept until
    /// the write is known to be done.
    pending: Option<(Event, Vec<T>)>,
}

// SAFETY: a cl_mem is a thread-safe OpenCL object.
unsafe impl<T: ClScalar> Send for DeviceBuffer<T> {}
unsafe impl<T: ClScalar> Sync for DeviceBuffer<T> {}

impl<T: ClScalar> Drop for DeviceBuffer<T> {
    /// A queued write still reading the host data finishes before the data goes.
    fn drop(&mut self) {
        self.settle();
    }
}

impl<T: ClScalar> DeviceBuffer<T> {
    pub(crate) fn new(ctx: &DeviceContext, len: usize, what: &'static str) -> Result<Self> {
        let len = len.max(1);
        let bytes = (len as u64).saturating_mul(std::mem::size_of::<T>() as u64);
        check_fits(&ctx.info, bytes, what)?;
        // SAFETY: no host pointer is given, so OpenCL allocates the storage itself.
        let buf =
            unsafe { Buffer::<T>::create(ctx.context(), CL_MEM_READ_WRITE, len, ptr::null_mut()) }
                .map_err(cl_error("clCreateBuffer"))?;
        Ok(DeviceBuffer {
            buf,
            len,
            what,
            pending: None,
        })
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

    /// Copy of `data` into the start of the buffer without waiting for it: the buffer keeps
    /// `data` until the write is done (the next `write_queued` and the drop wait for it first),
    /// and the queue's order puts the write before every command enqueued after it. Where a
    /// launch needs several small uploads, this saves `write`'s wait for the queue each time.
    pub fn write_queued(&mut self, q: &Queue, data: Vec<T>) -> Result<()> {
        self.check_write(data.len())?;
        self.settle();
        q.check_valid()?;
        // SAFETY: `data` moves into `self.pending` (its heap storage does not move) and is
        // dropped only after the write's event completed (`settle`); the length is checked.
        let ev = unsafe {
            q.cl()
                .enqueue_write_buffer(&mut self.buf, CL_NON_BLOCKING, 0, &data, &[])
        }
        .map_err(|e| {
            let e = cl_error("clEnqueueWriteBuffer")(e);
            note_failure(q, &e);
            e
        })?;
        self.pending = Some((ev, data));
        Ok(())
    }

    /// A write of `n` elements fits the buffer.
    fn check_write(&self, n: usize) -> Result<()> {
        if n > self.len {
            return Err(Error::Panic(format!(
                "write of {n} elements into buffer `{}` of {}",
                self.what, self.len
            )));
        }
        Ok(())
    }

    /// Waits for the last queued write (if any) and frees its host data. A failed wait (a lost
    /// device) ends the write as well, so the data is freed either way.
    fn settle(&mut self) {
        if let Some((ev, _data)) = self.pending.take() {
            let _ = ev.wait();
        }
    }

    /// Blocking copy of `data` into the start of the buffer.
    pub fn write(&mut self, q: &Queue, data: &[T]) -> Result<()> {
        self.check_write(data.len())?;
        q.check_valid()?;
        // SAFETY: the write is blocking, so `data` outlives it; the length is checked above.
        unsafe {
            q.cl()
                .enqueue_write_buffer(&mut self.buf, CL_BLOCKING, 0, data, &[])
        }
        .map(|_| ())
        .map_err(|e| {
            let e = cl_error("clEnqueueWriteBuffer")(e);
            note_failure(q, &e);
            e
        })
    }

    /// Blocking copy of `data` into the elements from `offset` on.
    pub fn write_at(&mut self, q: &Queue, offset: usize, data: &[T]) -> Result<()> {
        if offset.saturating_add(data.len()) > self.len {
            return Err(Error::Panic(format!(
                "write of {} elements at {} into buffer `{}` of {}",
                data.len(),
                offset,
                self.what,
                self.len
            )));
        }
        self.settle();
        q.check_valid()?;
        // SAFETY: the write is blocking, so `data` outlives it; the range is checked above.
        unsafe {
            q.cl().enqueue_write_buffer(
                &mut self.buf,
                CL_BLOCKING,
                offset * std::mem::size_of::<T>(),
                data,
                &[],
            )
        }
        .map(|_| ())
        .map_err(|e| {
            let e = cl_error("clEnqueueWriteBuffer")(e);
            note_failure(q, &e);
            e
        })
    }

    /// Blocking copy of the start of the buffer into `out`.
    pub fn read(&self, q: &Queue, out: &mut [T]) -> Result<()> {
        self.read_at(q, 0, out)
    }

    /// Blocking copy of the elements from `offset` on into `out`.
    pub fn read_at(&self, q: &Queue, offset: usize, out: &mut [T]) -> Result<()> {
        if offset.saturating_add(out.len()) > self.len {
            return Err(Error::Panic(format!(
                "read of {} elements at {} from buffer `{}` of {}",
                out.len(),
                offset,
                self.what,
                self.len
            )));
        }
        q.check_valid()?;
        // SAFETY: the read is blocking; the range is checked above.
        unsafe {
            q.cl().enqueue_read_buffer(
                &self.buf,
                CL_BLOCKING,
                offset * std::mem::size_of::<T>(),
                out,
                &[],
            )
        }
        .map(|_| ())
        .map_err(|e| {
            let e = cl_error("clEnqueueReadBuffer")(e);
            note_failure(q, &e);
            e
        })
    }

    /// The start of the buffer into `out` (at most as long as the buffer), each element converted by `f`: through
    /// two pinned staging buffers (`CL_MEM_ALLOC_HOST_PTR`, mapped once per device context), the
    /// device filling one while rayon threads convert the other into `out`. A GPU copies into pinned memory at the
    /// bus's speed, but into fresh pageable memory (a new result vector) NVIDIA's driver reached
    /// a fraction of the bus's speed (see benchmarks/INDEX.md, 2026-11-24-h100-sp_all_sources); the parallel copy also
    /// spreads the page faults of a fresh `out` over the threads. Buffers under `PINNED_MIN`
    /// bytes take one plain read. Blocking.
    pub fn read_converted<U: Send>(
        &self,
        q: &Queue,
        out: &mut [U],
        f: impl Fn(T) -> U + Sync,
    ) -> Result<()> {
        self.read_converted_until(q, out, f, || None)
    }

    /// [`read_converted`](Self::read_converted), asking `stop` between its pieces (a staging
    /// buffer's worth each): the error it gives ends the read, `out` then partly written.
    pub fn read_converted_until<U: Send>(
        &self,
        q: &Queue,
        out: &mut [U],
        f: impl Fn(T) -> U + Sync,
        stop: impl Fn() -> Option<Error>,
    ) -> Result<()> {
        use rayon::prelude::*;
        if out.len() > self.len {
            return Err(Error::Panic(format!(
                "read of buffer `{}` of {} into {} elements",
                self.what,
                self.len,
                out.len()
            )));
        }
        let n = out.len();
        let size = std::mem::size_of::<T>();
        if n * size < PINNED_MIN {
            let mut tmp = vec![T::default(); n];
            self.read(q, &mut tmp)?;
            out.par_iter_mut()
                .zip(tmp.par_iter())
                .for_each(|(o, &x)| *o = f(x));
            return Ok(());
        }
        let chunk = PINNED_CHUNK / size;
        let fail = |what: &'static str| {
            move |e| {
                let e = cl_error(what)(e);
                note_failure(q, &e);
                e
            }
        };
        // large reads on one device take turns with the staging pair (they share the bus)
        let mut guard = q.ctx().staging.lock().unwrap_or_else(|e| e.into_inner());
        if guard.is_none() {
            *guard = Some(Staging::new(q.ctx())?);
        }
        let staging = guard
            .as_ref()
            .expect("made above")
            .ptrs
            .map(|p| p as *mut T);
        let chunks = n.div_ceil(chunk);
        let enqueue = |i: usize| -> Result<Event> {
            let start = i * chunk;
            let len = chunk.min(n - start);
            // SAFETY: the staging pointer maps `chunk` elements; the read is waited for before the
            // slice is read or the staging buffer reused (each buffer has one read in flight).
            let dst = unsafe { std::slice::from_raw_parts_mut(staging[i % 2], len) };
            let ev = unsafe {
                q.cl()
                    .enqueue_read_buffer(&self.buf, CL_NON_BLOCKING, start * size, dst, &[])
            }
            .map_err(fail("clEnqueueReadBuffer"))?;
            // submitted now, so the copy runs while the host converts the other buffer
            q.flush()?;
            Ok(ev)
        };
        let mut result = Ok(());
        let mut pending = Some(enqueue(0));
        for i in 0..chunks {
            let ev = match pending.take().expect("one read in flight") {
                Ok(ev) => ev,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            if let Err(e) = ev.wait().map_err(fail("clWaitForEvents")) {
                result = Err(e);
                break;
            }
            if i + 1 < chunks {
                if let Some(e) = stop() {
                    result = Err(e);
                    break;
                }
                pending = Some(enqueue(i + 1));
            }
            let start = i * chunk;
            let len = chunk.min(n - start);
            // SAFETY: the read into this staging buffer has completed (waited above) and the
            // next read goes into the other one.
            let src = unsafe { std::slice::from_raw_parts(staging[i % 2] as *const T, len) };
            out[start..start + len]
                .par_chunks_mut(1 << 16)
                .zip(src.par_chunks(1 << 16))
                .for_each(|(o, s)| {
                    for (o, &x) in o.iter_mut().zip(s) {
                        *o = f(x);
                    }
                });
        }
        if let Some(Ok(ev)) = pending {
            let _ = ev.wait();
        }
        q.finish()?;
        result
    }

    /// The whole buffer as a vector.
    pub fn to_vec(&self, q: &Queue) -> Result<Vec<T>> {
        let mut v = vec![T::default(); self.len];
        self.read(q, &mut v)?;
        Ok(v)
    }
}
