//! Several OpenCL devices of one machine from one process (docs/specs/SCALE.md, "One machine"): the
//! part every multi-device solver shares. A solver with a device list makes one engine per
//! device (its own context, queue and programs), splits its work items (chains, problems,
//! sources, populations) into contiguous [`blocks`] by global index, and runs each block on its
//! engine in a scoped host thread ([`run_blocks`]); the results come back in block order, so
//! the gathered result is keyed by global index. Random numbers are keyed by the global index of
//! the item, so the split does not change the result.

use crate::device::{list_devices, Backend};
use crate::error::{Error, Result};
use std::ops::Range;

/// Parses a device list: `all` (every device of `metaopt devices`) or comma-separated numbers.
/// Errors name `devices`.
pub fn parse_devices(s: &str) -> Result<Vec<usize>> {
    let s = s.trim();
    if s.eq_ignore_ascii_case("all") {
        let n = list_devices()?.len();
        if n == 0 {
            return Err(Error::arg("devices", "all: no OpenCL device exists"));
        }
        return Ok((0..n).collect());
    }
    let list = s
        .split(',')
        .map(|t| {
            t.trim().parse::<usize>().map_err(|_| {
                Error::arg(
                    "devices",
                    format!("`{t}` in `{s}`; expected device numbers separated by commas, or all"),
                )
            })
        })
        .collect::<Result<Vec<_>>>()?;
    check_devices(&list)?;
    Ok(list)
}

/// Checks a device list: not empty, no device twice, every device exists. Errors name `devices`.
pub fn check_devices(list: &[usize]) -> Result<()> {
    if list.is_empty() {
        return Err(Error::arg(
            "devices",
            "empty; give at least one device number",
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for &d in list {
        if !seen.insert(d) {
            return Err(Error::arg("devices", format!("device {d} listed twice")));
        }
    }
    let n = list_devices()?.len();
    if let Some(&d) = list.iter().find(|&&d| d >= n) {
        return Err(Error::arg(
            "devices",
            format!("device {d} does not exist; there are {n} (metaopt devices)"),
        ));
    }
    Ok(())
}

/// The backends of a solver: one per listed device when `devices` is not empty (checked), else
/// `backend` alone.
pub fn backends(devices: &[usize], backend: Backend) -> Result<Vec<Backend>> {
    if devices.is_empty() {
        return Ok(vec![backend]);
    }
    check_devices(devices)?;
    Ok(devices.iter().map(|&d| Backend::Device(Some(d))).collect())
}

/// `total` items split into `parts` contiguous blocks of sizes differing by at most one, the
/// larger first (a block is empty when there are more parts than items).
pub fn blocks(total: usize, parts: usize) -> Vec<Range<usize>> {
    let parts = parts.max(1);
    let (q, r) = (total / parts, total % parts);
    let mut start = 0;
    (0..parts)
        .map(|i| {
            let len = q + (i < r) as usize;
            let b = start..start + len;
            start += len;
            b
        })
        .collect()
}

/// Runs `f(engine, block, items of the block)` for each engine and its block, each engine on
/// a thread of rayon's pool (the calling thread when there is one engine); returns the results
/// in block order, or the first error (by block). `items` is split at the block boundaries,
/// which must cover it in order. The pool's threads persist, so a phase costs no thread start
/// (an island DE migration is a few phases); the engines never wait for one another inside
/// `f`, so a pool with fewer threads than engines runs them in turn.
pub fn run_blocks<E, T, R, F>(
    engines: &mut [E],
    ranges: &[Range<usize>],
    items: &mut [T],
    f: F,
) -> Result<Vec<R>>
where
    E: Send,
    T: Send,
    R: Send,
    F: Fn(&mut E, Range<usize>, &mut [T]) -> Result<R> + Sync,
{
    use rayon::prelude::*;
    assert_eq!(engines.len(), ranges.len(), "one block per engine");
    assert_eq!(
        ranges.last().map_or(0, |r| r.end),
        items.len(),
        "the blocks cover the items"
    );
    if engines.len() == 1 {
        return Ok(vec![f(&mut engines[0], ranges[0].clone(), items)?]);
    }
    let mut slices = Vec::with_capacity(ranges.len());
    let mut rest = items;
    for r in ranges {
        let (a, b) = rest.split_at_mut(r.len());
        slices.push(a);
        rest = b;
    }
    let out: Vec<Result<R>> = engines
        .par_iter_mut()
        .zip(ranges.par_iter().cloned())
        .zip(slices.into_par_iter())
        .map(|((e, r), sl)| f(e, r, sl))
        .collect();
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_cover_in_order() {
        for total in 0..20 {
            for parts in 1..6 {
                let b = blocks(total, parts);
                assert_eq!(b.len(), parts);
                assert_eq!(b[0].start, 0);
                assert_eq!(b[parts - 1].end, total);
                for w in b.windows(2) {
                    assert_eq!(w[0].end, w[1].start);
                    assert!(w[0].len() >= w[1].len() && w[0].len() - w[1].len() <= 1);
                }
            }
        }
    }

    #[test]
    fn run_blocks_keys_by_global_index() {
        let mut engines = vec![10usize, 20, 30];
        let mut items: Vec<usize> = vec![0; 8];
        let ranges = blocks(8, 3);
        let r = run_blocks(&mut engines, &ranges, &mut items, |e, r, sl| {
            for (i, x) in r.clone().zip(sl.iter_mut()) {
                *x = i * 100 + *e;
            }
            Ok(r.len())
        })
        .unwrap();
        assert_eq!(r, vec![3, 3, 2]);
        assert_eq!(items, vec![10, 110, 210, 320, 420, 520, 630, 730]);
        let e = run_blocks(&mut engines, &ranges, &mut items, |e, _, _| {
            if *e == 20 {
                Err(Error::arg("x", "y"))
            } else {
                Ok(())
            }
        });
        assert!(e.is_err());
    }
}
