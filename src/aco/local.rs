//! The path local search (`AcoOptions::local_search`; the library's addition beyond the thesis,
//! as in ACS and MAX-MIN ant systems with local search): every ant that reached the target has
//! its path improved before the deposit by
//!
//! - **shortcuts**: an arc `p_i -> p_j` (j > i + 1) lighter than the subpath `p_i .. p_j`
//!   replaces it;
//! - **one-vertex detours**: `p_i -> x -> p_j` (x off the path, j > i) lighter than the subpath
//!   `p_i .. p_j`: insertion for j = i + 1, replacement of `p_{i+1}` for j = i + 2, and the cut of
//!   a longer subpath through one new vertex;
//! - **two-vertex detours**, tried only where the two moves above find nothing:
//!   `p_i -> x -> y -> p_j` (x, y distinct and off the path, j > i) lighter than `p_i .. p_j`
//!   (a two-vertex insertion, the replacement of one or two vertices by two, or the cut of a
//!   longer subpath through two new vertices).
//!
//! Every neighbourhood is searched exhaustively at each position i, the move of the largest gain
//! is applied (ties: the first found, arcs scanned by ascending weight, then CSR order) and the
//! position tried again. Scans run over each vertex's arcs sorted by weight (`ByWeight`, built
//! once per solver) and stop at the first arc whose weight (plus the detour so far) reaches the
//! bound no gain can pass (the rest of the path; for two-vertex detours the largest "budget"
//! `len(p_i .. p_j) - w(y, p_j)` over the in-arcs of the path after p_i), so on the thesis's dense
//! graphs a sweep touches a few dozen arcs per position. The sweeps go from the source and repeat
//! until none improves (at most `4 V + 64` moves). Gains are exact on integer weights (`i128`);
//! on real weights the path is kept only if its length summed in path order is not above the
//! original. Weights must be non-negative (the pruning assumes it). The path stays simple (new
//! vertices are never on it) and never gets longer. Both backends run this same host code on the
//! same walks, so they still agree bit for bit.

use super::NONE;
use crate::error::{try_vec, Error, Result};
use crate::problem::graph::{Graph, Weights};
use std::ops::{Add, Sub};

trait Cost: Copy + PartialOrd + Add<Output = Self> + Sub<Output = Self> {
    const ZERO: Self;
    fn of(g: &Graph, e: usize) -> Self;
    fn to_f64(self) -> f64;
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
    fn to_f64(self) -> f64 {
        self as f64
    }
}

impl Cost for f64 {
    const ZERO: f64 = 0.0;
    fn of(g: &Graph, e: usize) -> f64 {
        g.weights().get_f64(e)
    }
    fn to_f64(self) -> f64 {
        self
    }
}

/// Every vertex's arcs sorted by weight (ties: CSR order), as indices into the CSR arrays, so
/// that a scan can stop at the first arc too heavy to give a gain.
pub(crate) struct ByWeight(Vec<u32>, Vec<u32>);

impl ByWeight {
    /// The out- and in-arcs of every vertex by weight; the reverse graph and the two orders are
    /// built fallibly (`Error::OutOfHostMemory` naming `graph` where the host cannot hold them).
    pub(crate) fn try_new(g: &Graph) -> crate::error::Result<ByWeight> {
        let sorted = |g: &Graph| -> crate::error::Result<Vec<u32>> {
            let mut v: Vec<u32> = try_vec(g.m(), "graph")?;
            v.extend(0..g.m() as u32);
            let w = g.weights();
            for u in 0..g.n() {
                let r = g.arcs_of(u);
                v[r].sort_by(|&a, &b| {
                    w.get_f64(a as usize)
                        .total_cmp(&w.get_f64(b as usize))
                        .then(a.cmp(&b))
                });
            }
            Ok(v)
        };
        Ok(ByWeight(sorted(g)?, sorted(g.try_reverse()?)?))
    }
    /// `u`'s out-arcs by weight.
    fn of(&self, g: &Graph, u: usize) -> impl Iterator<Item = usize> + '_ {
        self.0[g.arcs_of(u)].iter().map(|&e| e as usize)
    }
    /// `u`'s in-arcs by weight, as arcs of the reverse graph `rg`.
    fn of_rev(&self, rg: &Graph, u: usize) -> impl Iterator<Item = usize> + '_ {
        self.1[rg.arcs_of(u)].iter().map(|&e| e as usize)
    }
}

/// The most new vertices of a detour found through budgets (two and three; one is its own sweep).
const DEPTH: usize = 3;

/// Scratch space of one searcher (a position per vertex, `NONE` off the path).
#[derive(Default)]
pub(crate) struct Scratch {
    pos: Vec<u32>,
    hops: Vec<usize>,
    /// Per level k and vertex u: the largest budget of a chain from u through k more new vertices
    /// into the path, and the chain's next element (level 0: the path position j; else a vertex).
    budget: [Vec<Option<(f64, u32)>>; DEPTH],
    touched: [Vec<u32>; DEPTH],
}

impl Scratch {
    /// Scratch space for a graph of `n` vertices, allocated fallibly (`Error::OutOfHostMemory`
    /// naming `graph` where the host cannot hold it), so that the search never grows it.
    fn try_for(n: usize) -> Result<Scratch> {
        let mut sc = Scratch {
            pos: try_vec(n, "graph")?,
            ..Scratch::default()
        };
        for k in 0..DEPTH {
            sc.budget[k] = try_vec(n, "graph")?;
        }
        Ok(sc)
    }

    fn offer(&mut self, k: usize, u: u32, b: f64, next: u32) {
        let slot = &mut self.budget[k][u as usize];
        match slot {
            None => {
                self.touched[k].push(u);
                *slot = Some((b, next));
            }
            Some((ob, _)) if b > *ob => *slot = Some((b, next)),
            _ => {}
        }
    }
    /// Whether `u` is on the level-`k` chain that starts at `v`.
    fn on_chain(&self, mut k: usize, mut v: u32, u: u32) -> bool {
        loop {
            if v == u {
                return true;
            }
            if k == 0 {
                return false;
            }
            v = self.budget[k][v as usize].expect("chain").1;
            k -= 1;
        }
    }
}

/// The arc of each hop of `path` (every hop must be an arc).
fn hops_of(g: &Graph, path: &[u32], hops: &mut Vec<usize>) {
    hops.clear();
    hops.extend(
        path.windows(2)
            .map(|p| g.find_arc(p[0] as usize, p[1]).expect("a path of arcs")),
    );
}

/// A move: the vertices strictly between positions `i` and `j` of `path` become `verts`, the hops
/// from `i` to `j` become `arcs` (one more than `verts`), and the positions follow.
fn replace(
    path: &mut Vec<u32>,
    sc: &mut Scratch,
    i: usize,
    j: usize,
    verts: impl IntoIterator<Item = u32>,
    arcs: impl IntoIterator<Item = usize>,
) {
    for &v in &path[i + 1..j] {
        sc.pos[v as usize] = NONE;
    }
    path.splice(i + 1..j, verts);
    sc.hops.splice(i..j, arcs);
    for (k, &v) in path.iter().enumerate().skip(i + 1) {
        sc.pos[v as usize] = k as u32;
    }
}

fn search<C: Cost>(g: &Graph, bw: &ByWeight, path: &mut Vec<u32>, sc: &mut Scratch) -> bool {
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
            let rest = pref[path.len() - 1] - pref[i];
            let mut best: Option<(C, usize, usize)> = None;
            for e in bw.of(g, a) {
                let w = C::of(g, e);
                if w >= rest {
                    break; // no gain possible from this arc on (weights ascending)
                }
                let j = sc.pos[targets[e] as usize];
                if j == NONE || (j as usize) <= i + 1 {
                    continue;
                }
                let j = j as usize;
                let sub = pref[j] - pref[i];
                if w < sub && best.is_none_or(|(b, _, _)| sub - w > b) {
                    best = Some((sub - w, j, e));
                }
            }
            let Some((_, j, e)) = best else {
                i += 1;
                continue;
            };
            replace(path, sc, i, j, std::iter::empty(), [e]);
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
            for e in bw.of(g, a) {
                let wa = C::of(g, e);
                if wa >= rest {
                    break; // no gain possible with non-negative weights (weights ascending)
                }
                let x = targets[e];
                if sc.pos[x as usize] != NONE {
                    continue;
                }
                for f in bw.of(g, x as usize) {
                    let new = wa + C::of(g, f);
                    if new >= rest {
                        break;
                    }
                    let j = sc.pos[targets[f] as usize];
                    if j == NONE || (j as usize) <= i {
                        continue;
                    }
                    let j = j as usize;
                    let sub = pref[j] - pref[i];
                    if new < sub && best.is_none_or(|(bg, ..)| sub - new > bg) {
                        best = Some((sub - new, j, x, e, f));
                    }
                }
            }
            let Some((_, j, x, e, f)) = best else {
                i += 1;
                continue;
            };
            replace(path, sc, i, j, [x], [e, f]);
            reprefix(&mut pref, &sc.hops);
            moves -= 1;
            changed = true;
        }
        // detours through two or three new vertices, only where the moves above are stuck:
        // p_i -> x (-> z) -> y -> p_j (new vertices distinct and off the path, j > i) lighter
        // than p_i .. p_j. Budgets from the path backwards: level 0, every arc y -> p_j (j > i)
        // lighter than p_i .. p_j gives y the budget max_j (len(p_i .. p_j) - w(y, p_j)); level k,
        // every arc u -> v lighter than v's level k - 1 budget gives u the largest budget minus
        // the arc (u not on v's chain). Then every arc p_i -> x lighter than the largest budget
        // is tried with x's level 1 and level 2 chains. Exhaustive for two new vertices (level
        // 0 keeps every y's best j); for three, each vertex keeps only its best chain.
        let mut i = 0;
        let rg = g.reverse();
        while !changed && i + 1 < path.len() && moves > 0 {
            let a = path[i] as usize;
            let last = path.len() - 1;
            for k in 0..DEPTH {
                for &y in &sc.touched[k] {
                    sc.budget[k][y as usize] = None;
                }
                sc.touched[k].clear();
                sc.budget[k].resize(n, None);
            }
            let mut maxb = 0.0f64;
            for j in i + 1..=last {
                let sub = (pref[j] - pref[i]).to_f64();
                for r in bw.of_rev(rg, path[j] as usize) {
                    let w = C::of(rg, r).to_f64();
                    if w >= sub {
                        break;
                    }
                    let y = rg.targets()[r];
                    if sc.pos[y as usize] == NONE {
                        sc.offer(0, y, sub - w, j as u32);
                        maxb = maxb.max(sub - w);
                    }
                }
            }
            for k in 1..DEPTH {
                for t in 0..sc.touched[k - 1].len() {
                    let v = sc.touched[k - 1][t];
                    let (bv, _) = sc.budget[k - 1][v as usize].expect("touched");
                    for r in bw.of_rev(rg, v as usize) {
                        let w = C::of(rg, r).to_f64();
                        if w >= bv {
                            break;
                        }
                        let u = rg.targets()[r];
                        if sc.pos[u as usize] == NONE && !sc.on_chain(k - 1, v, u) {
                            sc.offer(k, u, bv - w, v);
                        }
                    }
                }
            }
            // (gain, level, x, arc a -> x)
            let mut best: Option<(C, usize, u32, usize)> = None;
            for e in bw.of(g, a) {
                let wa = C::of(g, e);
                if wa.to_f64() >= maxb {
                    break;
                }
                let x = targets[e];
                if sc.pos[x as usize] != NONE {
                    continue;
                }
                for k in 1..DEPTH {
                    let Some((b, _)) = sc.budget[k][x as usize] else {
                        continue;
                    };
                    if wa.to_f64() >= b {
                        continue;
                    }
                    // the exact gain along the chain
                    let (mut new, mut u, mut kk) = (wa, x, k);
                    let j = loop {
                        let (_, nx) = sc.budget[kk][u as usize].expect("chain");
                        let to = if kk == 0 { path[nx as usize] } else { nx };
                        new = new + C::of(g, g.find_arc(u as usize, to).expect("the chain's arc"));
                        if kk == 0 {
                            break nx as usize;
                        }
                        u = nx;
                        kk -= 1;
                    };
                    let sub = pref[j] - pref[i];
                    if new < sub && best.is_none_or(|(bg, ..)| sub - new > bg) {
                        best = Some((sub - new, k, x, e));
                    }
                }
            }
            let Some((_, k, x, e)) = best else {
                i += 1;
                continue;
            };
            let (mut verts, mut arcs) = (vec![x], vec![e]);
            let (mut u, mut kk) = (x, k);
            let j = loop {
                let (_, nx) = sc.budget[kk][u as usize].expect("chain");
                let to = if kk == 0 { path[nx as usize] } else { nx };
                arcs.push(g.find_arc(u as usize, to).expect("the chain's arc"));
                if kk == 0 {
                    break nx as usize;
                }
                verts.push(nx);
                u = nx;
                kk -= 1;
            };
            replace(path, sc, i, j, verts, arcs);
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
pub(crate) fn improve(g: &Graph, bw: &ByWeight, path: &mut Vec<u32>, sc: &mut Scratch) -> bool {
    if real(g) {
        let before = path.clone();
        hops_of(g, path, &mut sc.hops);
        let l0 = f64::from_bits(length_bits(g, &sc.hops));
        if !search::<f64>(g, bw, path, sc) {
            return false;
        }
        hops_of(g, path, &mut sc.hops);
        if f64::from_bits(length_bits(g, &sc.hops)) > l0 {
            *path = before;
            return false;
        }
        true
    } else {
        search::<i128>(g, bw, path, sc)
    }
}

/// The local search of a path (see the module's description): a simple path of `g`'s arcs in,
/// a simple path between the same end points, never longer, out.
///
/// Errors: [`Error::InvalidArgument`] naming `path` where it is empty, names a vertex not in
/// `g`, repeats a vertex or has two consecutive vertices without an arc between them;
/// [`Error::OutOfHostMemory`] naming `graph` where the host cannot hold the search's working
/// set (the reverse graph, the arcs by weight and a few values a vertex), which is allocated
/// fallibly before the search.
pub fn local_search(g: &Graph, path: &[u32]) -> Result<Vec<u32>> {
    let n = g.n();
    if path.is_empty() {
        return Err(Error::arg("path", "empty; give at least one vertex"));
    }
    if let Some((i, &v)) = path.iter().enumerate().find(|(_, &v)| v as usize >= n) {
        return Err(Error::arg(
            "path",
            format!("vertex {v} at position {i}; the graph has {n} vertices"),
        ));
    }
    for (i, w) in path.windows(2).enumerate() {
        if g.find_arc(w[0] as usize, w[1]).is_none() {
            return Err(Error::arg(
                "path",
                format!("no arc {} -> {} (positions {i} and {})", w[0], w[1], i + 1),
            ));
        }
    }
    let mut p = try_vec(path.len(), "path")?;
    p.extend_from_slice(path);
    let mut sorted = try_vec(path.len(), "path")?;
    sorted.extend_from_slice(path);
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(Error::arg(
            "path",
            format!(
                "vertex {} appears more than once (a simple path is expected)",
                w[0]
            ),
        ));
    }
    drop(sorted);
    let bw = ByWeight::try_new(g)?;
    let mut sc = Scratch::try_for(n)?;
    sc.hops = try_vec(path.len(), "path")?;
    improve(g, &bw, &mut p, &mut sc);
    Ok(p)
}

/// Improves the path of an ant that reached `t` from `s`, given by its successor row (the index
/// of the arc it left each vertex by): rewrites the row and returns the new length bits, or
/// `None` when nothing changed.
pub(crate) fn improve_row(
    g: &Graph,
    bw: &ByWeight,
    succ: &mut [u32],
    s: u32,
    t: u32,
    sc: &mut Scratch,
) -> Option<u64> {
    let mut path = vec![s];
    let mut cur = s;
    while cur != t {
        let k = succ[cur as usize];
        debug_assert!(k != NONE);
        cur = g.targets()[g.arcs_of(cur as usize).start + k as usize];
        path.push(cur);
    }
    let old = path.clone();
    if !improve(g, bw, &mut path, sc) {
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
