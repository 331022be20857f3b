//! What a run will hold at its peak, estimated from its options before anything is allocated
//! (the "plan" step of `docs/specs/RUN.md`): bytes on the host, bytes on the device and the
//! largest single device buffer. A solver sums its terms with [`Footprint::host`] and
//! [`Footprint::device`] and calls [`Footprint::check`] before its first allocation, so a size
//! from a caller that cannot fit is an error naming that argument rather than an abort when an
//! allocation fails (or a process killed by the kernel's out-of-memory killer).
//!
//! The arithmetic saturates at `u64::MAX`: a product that overflows is larger than any memory
//! and is refused like any other size that does not fit; nothing wraps.

use super::{host_memory_available, DeviceInfo, DeviceKind};
use crate::error::{Error, Result};

/// Bytes a run holds at its peak: on the host, on its device (summed over its buffers), and the
/// largest single device buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    pub host: u64,
    pub device: u64,
    pub largest_buffer: u64,
}

/// The product of `factors`, saturating at `u64::MAX`.
pub fn bytes(factors: &[u64]) -> u64 {
    factors.iter().fold(1u64, |a, &f| a.saturating_mul(f))
}

/// A byte count in words: "1234 bytes (1.2 GB)", or "more than 2^64 bytes" when saturated.
fn words(b: u64) -> String {
    if b == u64::MAX {
        return "more than 2^64 bytes".into();
    }
    let gb = b as f64 / 1e9;
    if gb >= 0.1 {
        format!("{b} bytes ({gb:.1} GB)")
    } else {
        format!("{b} bytes")
    }
}

impl Footprint {
    /// Adds `factors` multiplied together to the host bytes.
    pub fn host(&mut self, factors: &[u64]) -> &mut Self {
        self.host = self.host.saturating_add(bytes(factors));
        self
    }

    /// Adds a device buffer of `factors` multiplied together.
    pub fn device(&mut self, factors: &[u64]) -> &mut Self {
        let b = bytes(factors);
        self.device = self.device.saturating_add(b);
        self.largest_buffer = self.largest_buffer.max(b);
        self
    }

    /// Adds another footprint (a part of the run, or one of several devices' parts).
    pub fn add(&mut self, o: &Footprint) -> &mut Self {
        self.host = self.host.saturating_add(o.host);
        self.device = self.device.saturating_add(o.device);
        self.largest_buffer = self.largest_buffer.max(o.largest_buffer);
        self
    }

    /// Refuses the run unless it fits: its device bytes within the device's global memory
    /// (`CL_DEVICE_GLOBAL_MEM_SIZE`) and its largest buffer within the largest allocation
    /// (`CL_DEVICE_MAX_MEM_ALLOC_SIZE`), else [`Error::OutOfDeviceMemory`]; its host bytes (and,
    /// on a CPU device, whose buffers are host memory, its device bytes too) within what the
    /// host can still give ([`host_memory_available`]: `MemAvailable` and the address-space
    /// limit), else [`Error::OutOfHostMemory`]. Both messages name `arg`, the argument that asked
    /// for the size, and `what`, the run.
    pub fn check(&self, arg: &'static str, what: &str, device: Option<&DeviceInfo>) -> Result<()> {
        if let Some(info) = device {
            if info.global_mem_bytes > 0 && self.device > info.global_mem_bytes {
                return Err(Error::OutOfDeviceMemory(format!(
                    "`{arg}`: {what} needs about {} of device memory; the device has {} \
                     (CL_DEVICE_GLOBAL_MEM_SIZE)",
                    words(self.device),
                    words(info.global_mem_bytes)
                )));
            }
            if info.max_alloc_bytes > 0 && self.largest_buffer > info.max_alloc_bytes {
                return Err(Error::OutOfDeviceMemory(format!(
                    "`{arg}`: {what} needs a buffer of {}; the device allows {} in one \
                     allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
                    words(self.largest_buffer),
                    words(info.max_alloc_bytes)
                )));
            }
        }
        let on_host = match device {
            Some(info) if info.kind == DeviceKind::Cpu => self.host.saturating_add(self.device),
            _ => self.host,
        };
        if let Some(avail) = host_memory_available() {
            if on_host > avail {
                return Err(Error::OutOfHostMemory(format!(
                    "`{arg}`: {what} needs about {} of host memory; the host has {} available \
                     (MemAvailable and the address-space limit RLIMIT_AS)",
                    words(on_host),
                    words(avail)
                )));
            }
        }
        Ok(())
    }
}

/// How many units of `unit` bytes fit beside `once` bytes: the device's part within nine tenths
/// of its global memory, the largest buffer (growing by `unit.largest_buffer` per unit) within its
/// largest allocation, and the host's part (with a CPU device's buffers) within nine tenths of
/// what the host can still give; the drivers and the rest of the process keep the tenths. Returns
/// the count (`u64::MAX` where nothing bounds it) and, when something does, the bound that
/// decided it, in words.
pub fn units_that_fit(
    once: &Footprint,
    unit: &Footprint,
    device: Option<&DeviceInfo>,
) -> (u64, Option<String>) {
    let fit = |have: u64, once: u64, each: u64| match each {
        0 => u64::MAX,
        e => have.saturating_sub(once) / e,
    };
    let mut best = (u64::MAX, None);
    let mut bound = |count: u64, why: String| {
        if count < best.0 {
            best = (count, Some(why));
        }
    };
    let mut on_host = (once.host, unit.host);
    if let Some(info) = device {
        if info.global_mem_bytes > 0 {
            let have = info.global_mem_bytes / 10 * 9;
            bound(
                fit(have, once.device, unit.device),
                format!(
                    "{} per unit within nine tenths of the device's {} (CL_DEVICE_GLOBAL_MEM_SIZE)",
                    words(unit.device),
                    words(info.global_mem_bytes)
                ),
            );
        }
        if info.max_alloc_bytes > 0 {
            bound(
                fit(info.max_alloc_bytes, 0, unit.largest_buffer),
                format!(
                    "a buffer growing by {} per unit within the device's largest allocation, {} \
                     (CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
                    words(unit.largest_buffer),
                    words(info.max_alloc_bytes)
                ),
            );
        }
        if info.kind == DeviceKind::Cpu {
            on_host = (
                on_host.0.saturating_add(once.device),
                on_host.1.saturating_add(unit.device),
            );
        }
    }
    if let Some(avail) = host_memory_available() {
        bound(
            fit(avail / 10 * 9, on_host.0, on_host.1),
            format!(
                "{} per unit within nine tenths of the host's available {} (MemAvailable and \
                 RLIMIT_AS)",
                words(on_host.1),
                words(avail)
            ),
        );
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_saturate_instead_of_wrapping() {
        let mut f = Footprint::default();
        f.host(&[u64::MAX / 2, 3]).host(&[1]);
        assert_eq!(f.host, u64::MAX);
        f.device(&[10, 4]).device(&[8]);
        assert_eq!((f.device, f.largest_buffer), (48, 40));
    }

    #[test]
    fn units_that_fit_take_the_tightest_bound() {
        let mut once = Footprint::default();
        once.device(&[1000]);
        let mut unit = Footprint::default();
        unit.device(&[100]);
        let info = DeviceInfo {
            index: 0,
            platform: String::new(),
            name: String::new(),
            vendor: String::new(),
            kind: DeviceKind::Gpu,
            version: String::new(),
            global_mem_bytes: 10_000,
            local_mem_bytes: 0,
            max_alloc_bytes: 2_000,
            compute_units: 1,
            max_work_group_size: 1,
            fp64: false,
            id: 0,
        };
        // nine tenths of 10,000 less 1,000 is 8,000: 80 units; one buffer of 100 per unit
        // within 2,000 bytes: 20 units (the device's once-only buffer is another allocation)
        let (count, why) = units_that_fit(&once, &unit, Some(&info));
        assert_eq!(count, 20);
        assert!(why.unwrap().contains("CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
        // nothing per unit: nothing bounds the count on the device
        let (count, _) = units_that_fit(&once, &Footprint::default(), Some(&info));
        assert!(count > 1 << 40);
    }

    #[test]
    fn a_run_larger_than_any_host_is_refused_naming_its_argument() {
        let mut f = Footprint::default();
        f.host(&[u64::MAX]);
        match f.check("populations", "the run", None) {
            Err(Error::OutOfHostMemory(m)) => {
                assert!(m.contains("`populations`") && m.contains("2^64"), "{m}")
            }
            r => panic!("{r:?}"),
        }
        Footprint::default()
            .check("populations", "the run", None)
            .unwrap();
    }
}
