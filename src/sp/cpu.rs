//! The CPU backend: host Dijkstra (`problem::graph::dijkstra`, the `pathfinding` crate) per
//! source, one rayon task each, then the canonical predecessors (the smallest tight tail, as
//! `sp_pred` of `cl/sp.cl`); and the Lee wave's breadth-first search. The call's cut is asked
//! inside each search (`dijkstra_until`) and before each row of predecessors.

use super::{check, stopped};
use crate::device::try_output_vec;
use crate::error::Result;
use crate::interrupt::Cut;
use crate::problem::graph::{dijkstra_until, Distances, Graph, Grid, Weights, NO_PRED};
use rayon::prelude::*;

/// Distances (k x n), predecessors (k x n) and rounds (0) from each source: the k x n result is
/// allocated first (fallibly, naming `sources`) and each rayon task writes its rows in place.
pub(super) fn run(g: &Graph, sources: &[u32], cut: &Cut) -> Result<(Distances, Vec<u32>, u64)> {
    let n = g.n();
    let total = crate::error::size_product("sources", &[sources.len(), n])?;
    let rev = g.try_reverse()?;
    let mut pred: Vec<u32> = try_output_vec(total, "sources")?;
    let real = matches!(g.weights(), Weights::F32(_) | Weights::F64(_));
    let mut dist = if real {
        Distances::F64(try_output_vec(total, "sources")?)
    } else {
        Distances::U64(try_output_vec(total, "sources")?)
    };
    // a search cut short gives the call's error, which ends the other tasks at their next ask
    let search = |s: u32| -> Result<Distances> {
        match dijkstra_until(g, s, || cut.due())? {
            Some(p) => Ok(p.dist),
            None => Err(stopped(cut)),
        }
    };
    let n1 = n.max(1);
    match &mut dist {
        Distances::U64(d) => d
            .par_chunks_mut(n1)
            .zip(pred.par_chunks_mut(n1))
            .zip(sources)
            .try_for_each(|((row, prow), &s)| {
                if let Distances::U64(x) = search(s)? {
                    row.copy_from_slice(&x);
                }
                check(cut)?;
                for (v, p) in prow.iter_mut().enumerate() {
                    *p = if v == s as usize || row[v] == u64::MAX {
                        NO_PRED
                    } else {
                        // the smallest tight tail (sums below 2^64 - 1: Sssp::new's check)
                        rev.arcs_of(v)
                            .find(|&e| {
                                let u = rev.targets()[e] as usize;
                                row[u] != u64::MAX
                                    && row[u] + weight_u64(rev.weights(), e) == row[v]
                            })
                            .map_or(NO_PRED, |e| rev.targets()[e])
                    };
                }
                Ok(())
            })?,
        Distances::F64(d) => d
            .par_chunks_mut(n1)
            .zip(pred.par_chunks_mut(n1))
            .zip(sources)
            .try_for_each(|((row, prow), &s)| {
                if let Distances::F64(x) = search(s)? {
                    row.copy_from_slice(&x);
                }
                check(cut)?;
                for (v, p) in prow.iter_mut().enumerate() {
                    *p = if v == s as usize || !row[v].is_finite() {
                        NO_PRED
                    } else {
                        rev.arcs_of(v)
                            .find(|&e| {
                                let u = rev.targets()[e] as usize;
                                row[u].is_finite() && row[u] + rev.weights().get_f64(e) == row[v]
                            })
                            .map_or(NO_PRED, |e| rev.targets()[e])
                    };
                }
                Ok(())
            })?,
    }
    Ok((dist, pred, 0))
}

/// Steps from `source` over open 4-neighbours (u32::MAX: unreachable or an obstacle).
pub(super) fn lee_bfs(grid: &Grid, source: u32, cut: &Cut) -> Result<Vec<u32>> {
    let (w, h) = (grid.width, grid.height);
    let mut d = crate::error::try_filled(w * h, u32::MAX, "grid")?;
    let mut queue = std::collections::VecDeque::new();
    d[source as usize] = 0;
    queue.push_back(source as usize);
    let mut popped = 0u32;
    while let Some(c) = queue.pop_front() {
        popped = popped.wrapping_add(1);
        if popped.is_multiple_of(4096) {
            check(cut)?;
        }
        let (x, y) = (c % w, c / w);
        let nb = [
            (y > 0).then(|| c - w),
            (x > 0).then(|| c - 1),
            (x + 1 < w).then(|| c + 1),
            (y + 1 < h).then(|| c + w),
        ];
        for t in nb.into_iter().flatten() {
            if !grid.blocked[t] && d[t] == u32::MAX {
                d[t] = d[c] + 1;
                queue.push_back(t);
            }
        }
    }
    Ok(d)
}

/// An integer weight exactly (0 for real weights, which never reach here).
fn weight_u64(w: &Weights, e: usize) -> u64 {
    match w {
        Weights::U32(x) => x[e] as u64,
        Weights::U64(x) => x[e],
        _ => 0,
    }
}
