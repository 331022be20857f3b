//! The CPU backend: host Dijkstra (`problem::graph::dijkstra`, the `pathfinding` crate) per
//! source, one rayon task each, then the canonical predecessors (the smallest tight tail, as
//! `sp_pred` of `cl/sp.cl`); and the Lee wave's breadth-first search. The call's cut is asked
//! inside each search (`dijkstra_until`) and before each row of predecessors.

use super::{check, stopped};
use crate::error::Result;
use crate::interrupt::Cut;
use crate::problem::graph::{dijkstra_until, Distances, Graph, Grid, Weights, NO_PRED};
use rayon::prelude::*;

/// Distances (k x n), predecessors (k x n) and rounds (0) from each source.
pub(super) fn run(g: &Graph, sources: &[u32], cut: &Cut) -> Result<(Distances, Vec<u32>, u64)> {
    // a search cut short gives the call's error, which ends the other tasks at their next ask
    let rows: Vec<Distances> = sources
        .par_iter()
        .map(|&s| match dijkstra_until(g, s, || cut.due())? {
            Some(p) => Ok(p.dist),
            None => Err(stopped(cut)),
        })
        .collect::<Result<_>>()?;
    let n = g.n();
    let rev = g.reverse();
    let pred_row = |d: &Distances, s: u32| -> Vec<u32> {
        (0..n)
            .map(|v| {
                if v == s as usize || !d.reachable(v) {
                    return NO_PRED;
                }
                let tight = |e: usize| {
                    let u = rev.targets()[e] as usize;
                    d.reachable(u)
                        && match d {
                            Distances::U64(x) => x[u] + weight_u64(rev.weights(), e) == x[v],
                            Distances::F64(x) => x[u] + rev.weights().get_f64(e) == x[v],
                        }
                };
                rev.arcs_of(v)
                    .find(|&e| tight(e))
                    .map_or(NO_PRED, |e| rev.targets()[e])
            })
            .collect()
    };
    let pred: Vec<Vec<u32>> = rows
        .par_iter()
        .zip(sources)
        .map(|(d, &s)| check(cut).map(|_| pred_row(d, s)))
        .collect::<Result<_>>()?;
    let pred = pred.concat();
    let dist = match rows.first() {
        Some(Distances::F64(_)) => Distances::F64(
            rows.into_iter()
                .flat_map(|d| {
                    if let Distances::F64(x) = d {
                        x
                    } else {
                        Vec::new()
                    }
                })
                .collect(),
        ),
        _ => Distances::U64(
            rows.into_iter()
                .flat_map(|d| {
                    if let Distances::U64(x) = d {
                        x
                    } else {
                        Vec::new()
                    }
                })
                .collect(),
        ),
    };
    Ok((dist, pred, 0))
}

/// Steps from `source` over open 4-neighbours (u32::MAX: unreachable or an obstacle).
pub(super) fn lee_bfs(grid: &Grid, source: u32, cut: &Cut) -> Result<Vec<u32>> {
    let (w, h) = (grid.width, grid.height);
    let mut d = vec![u32::MAX; w * h];
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
