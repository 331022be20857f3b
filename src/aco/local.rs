//! The path local search (`AcoOptions::local_search`; the library's addition beyond the thesis,
//! as in ACS and MAX-MIN ant systems with local search): every ant that reached the target has
//! its path improved before the deposit by
//!
//! - **shortcuts**: an arc `p_i -> p_j` (j > i + 1) lighter than the subpath `p_i .. p_j`
//!   replaces it (at each i the largest gain, ties to the lowest arc of `p_i`'s row);
//! - **one-vertex detours**: `p_i -> x -> p_j` (x off the path, j > i) lighter than the subpath
//!   `p_i .. p_j`: insertion for j = i + 1, replacement of `p_{i+1}` for j = i + 2, and the cut of
//!   a longer subpath through one new vertex (at each i the largest gain over the out-neighbours
//!   x of `p_i` in row order and then x's arcs in row order; x with `w(p_i, x)` at least the rest
//!   of the path are skipped),
//!
//! sweeping the path from the source, staying at a position while it improves, and repeating both
//! sweeps until neither improves (at most `4 V + 64` moves). Gains are exact on integer weights
//! (`i128`); on real weights the path is kept only if its length summed in path order is not
//! above the original. The path stays simple (x is never on it) and never gets longer. Both
//! backends run this same host code on the same walks, so they still agree bit for bit.

use super::NONE;
use crate::problem::graph::{Graph, Weights};
use std::ops::{Add, Sub};

trait Cost: Copy + PartialOrd + Add<Output = Self> + Sub<Output = Self> {
    const ZERO: Self;
    fn of(g: &Graph, e: usize) -> Self;
}

impl Cost for i128 {
    const ZERO: i128 = 0;
    fn of(g: &Graph, e: usize) -> i128 {
        match g.weights() {
            Weights::U32(w) => w[e] as i128,
            Weights::U64(w) => w[e] as i128,
            _ => unreachable!("integer weights"),
        }
    }
}

impl Cost for f64 {
    const ZERO: f64 = 0.0;
    fn of(g: &Graph, e: usize) -> f64 {
        g.weights().get_f64(e)
    }
}

/// Scratch space of one searcher (a position per vertex, `NONE` off the path).
#[derive(Default)]
pub(crate) struct Scratch {
    pos: Vec<u32>,
    hops: Vec<usize>,
}

/// The arc of each hop of `path` (every hop must be an arc).
fn hops_of(g: &Graph, path: &[u32], hops: &mut Vec<usize>) {
    hops.clear();
    hops.extend(path.windows(2).map(|p| g.find_arc(p[0] as usize, p[1]).expect("a path of arcs")));
}

fn search<C: Cost>(g: &Graph, path: &mut Vec<u32>, sc: &mut Scratch) -> bool {
    let n = g.n();
    let targets = g.targets();
    sc.pos.clear();
    sc.pos.resize(n, NONE);
    for (i, &v) in path.iter().enumerate() {
        sc.pos[v as usize] = i as u32;
    }
    hops_of(g, path, &mut sc.hops);
    let mut pref: Vec<C> = Vec::with_capacity(path.len());
    let reprefix = |pref: &mut Vec<C>, hops: &[usize]| {
        pref.clear();
        pref.push(C::ZERO);
        for &e in hops {
            let l = *pref.last().unwrap();
            pref.push(l + C::of(g, e));
        }
    };
    reprefix(&mut pref, &sc.hops);
    let mut moves = 4 * n + 64;
    let mut any = false;
    loop {
        let mut changed = false;
        // shortcuts
        let mut i = 0;
        while i + 2 < path.len() && moves > 0 {
            let a = path[i] as usize;
            let mut best: Option<(C, usize, usize)> = None;
            for e in g.arcs_of(a) {
                let j = sc.pos[targets[e] as usize];
                if j == NONE || (j as usize) <= i + 1 {
                    continue;
                }
                let (j, w) = (j as usize, C::of(g, e));
                let sub = pref[j] - pref[i];
                if w < sub && best.is_none_or(|(b, _, _)| sub - w > b) {
                    best = Some((sub - w, j, e));
                }
            }
            let Some((_, j, e)) = best else {
                i += 1;
                continue;
            };
            for &v in &path[i + 1..j] {
                sc.pos[v as usize] = NONE;
            }
            path.drain(i + 1..j);
            sc.hops.splice(i..j, [e]);
            for (k, &v) in path.iter().enumerate().skip(i + 1) {
                sc.pos[v as usize] = k as u32;
            }
            reprefix(&mut pref, &sc.hops);
            moves -= 1;
            changed = true;
        }
        // one-vertex detours: p_i -> x -> p_j (x off the path, j > i) lighter than p_i .. p_j
        // (insertion for j = i + 1, replacement for j = i + 2, and the cut of longer subpaths)
        let mut i = 0;
        while i + 1 < path.len() && moves > 0 {
            let a = path[i] as usize;
            let rest = pref[path.len() - 1] - pref[i];
            // (gain, j, x, arc a -> x, arc x -> p_j)
            let mut best: Option<(C, usize, u32, usize, usize)> = None;
            for e in g.arcs_of(a) {
                let x = targets[e];
                if sc.pos[x as usize] != NONE {
                    continue;
                }
                let wa = C::of(g, e);
                if wa >= rest {
                    continue; // no gain possible with non-negative weights
                }
                for f in g.arcs_of(x as usize) {
                    let j = sc.pos[targets[f] as usize];
                    if j == NONE || (j as usize) <= i {
                        continue;
                    }
                    let j = j as usize;
                    let (new, sub) = (wa + C::of(g, f), pref[j] - pref[i]);
                    if new < sub && best.is_none_or(|(bg, ..)| sub - new > bg) {
                        best = Some((sub - new, j, x, e, f));
                    }
                }
            }
            let Some((_, j, x, e, f)) = best else {
                i += 1;
                continue;
            };
            for &v in &path[i + 1..j] {
                sc.pos[v as usize] = NONE;
            }
            path.splice(i + 1..j, [x]);
            sc.hops.splice(i..j, [e, f]);
            for (k, &v) in path.iter().enumerate().skip(i + 1) {
                sc.pos[v as usize] = k as u32;
            }
            reprefix(&mut pref, &sc.hops);
            moves -= 1;
            changed = true;
        }
        any |= changed;
        if !changed || moves == 0 {
            break;
        }
    }
    any
}

/// The length of a path in path order, as the walks sum it: `u64` bits on integer weights, `f64`
/// bits on real ones.
fn length_bits(g: &Graph, hops: &[usize]) -> u64 {
    match g.weights() {
        Weights::U32(w) => hops.iter().fold(0u64, |l, &e| l.wrapping_add(w[e] as u64)),
        Weights::U64(w) => hops.iter().fold(0u64, |l, &e| l.wrapping_add(w[e])),
        Weights::F32(w) => hops.iter().fold(0.0f64, |l, &e| l + w[e] as f64).to_bits(),
        Weights::F64(w) => hops.iter().fold(0.0f64, |l, &e| l + w[e]).to_bits(),
    }
}

fn real(g: &Graph) -> bool {
    matches!(g.weights(), Weights::F32(_) | Weights::F64(_))
}

/// Improves `path` (a simple path of `g`'s arcs) in place; returns whether it changed. The result
/// is simple, joins the same end points and is never longer.
pub(crate) fn improve(g: &Graph, path: &mut Vec<u32>, sc: &mut Scratch) -> bool {
    if real(g) {
        let before = path.clone();
        hops_of(g, path, &mut sc.hops);
        let l0 = f64::from_bits(length_bits(g, &sc.hops));
        if !search::<f64>(g, path, sc) {
            return false;
        }
        hops_of(g, path, &mut sc.hops);
        if f64::from_bits(length_bits(g, &sc.hops)) > l0 {
            *path = before;
            return false;
        }
        true
    } else {
        search::<i128>(g, path, sc)
    }
}

/// The local search of a path (see the module's description): a simple path of `g`'s arcs in,
/// a simple path between the same end points, never longer, out.
pub fn local_search(g: &Graph, path: &[u32]) -> Vec<u32> {
    let mut p = path.to_vec();
    improve(g, &mut p, &mut Scratch::default());
    p
}

/// Improves the path of an ant that reached `t` from `s`, given by its successor row (the index
/// of the arc it left each vertex by): rewrites the row and returns the new length bits, or
/// `None` when nothing changed.
pub(crate) fn improve_row(g: &Graph, succ: &mut [u32], s: u32, t: u32, sc: &mut Scratch) -> Option<u64> {
    let mut path = vec![s];
    let mut cur = s;
    while cur != t {
        let k = succ[cur as usize];
        debug_assert!(k != NONE);
        cur = g.targets()[g.arcs_of(cur as usize).start + k as usize];
        path.push(cur);
    }
    let old = path.clone();
    if !improve(g, &mut path, sc) {
        return None;
    }
    for &v in &old {
        succ[v as usize] = NONE;
    }
    hops_of(g, &path, &mut sc.hops);
    for (i, &e) in sc.hops.iter().enumerate() {
        let u = path[i] as usize;
        succ[u] = (e - g.arcs_of(u).start) as u32;
    }
    Some(length_bits(g, &sc.hops))
}
