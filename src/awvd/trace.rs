//! The CPU backend's edge tracing, level by level: every pending edge of a level is searched in
//! one batch (one rayon task per edge), then the end vertices go into the table (keyed by
//! quadruple and sphere), the edges are linked and the new vertices' edges queued. When no edge
//! is pending, tracing restarts from each ball no vertex touches yet. The device (`device.rs`)
//! traces the same way with the tables on the device, and shares the search rules, `Restarts`
//! and `finish` from here. The call's cut is asked before each level, by each search task (a
//! level cut short is dropped: the call then ends with its error), before each restart and by
//! each ball's task of the vertex-free contacts.

use super::geom::{dot, norm, sub, tangent_spheres, CurvePoint, Sphere, Tangent, Trisector};
use super::grid::Grid;
use super::{
    check_cut, degenerate, max_vertices, AwvdOptions, AwvdResult, Ball, Vertex, MAX_ON_SPHERE,
    ON_SPHERE_TOL,
};
use crate::error::Result;
use crate::interrupt::Cut;
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What the searches share.
pub struct Ctx<'a> {
    pub balls: &'a [Ball],
    pub grid: Grid,
    /// Balls found inside another ball (`hidden`): they have no vertex and no contact, so no
    /// restart and no vertex-free contact starts from them.
    pub hidden: Vec<bool>,
    /// Set by a search whose start sphere touches more than [`MAX_ON_SPHERE`] balls; the
    /// diagram is then refused after the level.
    pub degenerate: AtomicBool,
    /// Set by `loose_of` for a ball with more than [`MAX_NEAR`] near balls; the diagram is
    /// then refused ([`check_crowded`]).
    pub crowded: AtomicBool,
}

impl<'a> Ctx<'a> {
    /// The grid of `balls` (`cell`: [`Grid::new`]) and their hidden balls.
    pub fn new(balls: &'a [Ball], cell: f64) -> Ctx<'a> {
        let grid = Grid::new(balls, cell);
        let hidden = hidden(balls, &grid);
        Ctx {
            balls,
            grid,
            hidden,
            degenerate: AtomicBool::new(false),
            crowded: AtomicBool::new(false),
        }
    }
}

/// Balls inside another ball with a margin (`|c_i - c_j| + r_i <= r_j - 1e-8`), found by the
/// largest ball of each cell around them (only where at most 125 cells lie within the largest
/// radius): a sphere tangent to such a ball from outside is deeper than the emptiness
/// tolerance in its container, so the ball has no vertex and no face. Concentric balls are
/// found whatever their number; a ball not found only costs its restart and its triples.
pub fn hidden(balls: &[Ball], g: &Grid) -> Vec<bool> {
    let ncell = g.start.len() - 1;
    let mut big = vec![u32::MAX; ncell];
    for (c, b) in big.iter_mut().enumerate() {
        for &j in &g.items[g.start[c] as usize..g.start[c + 1] as usize] {
            if *b == u32::MAX || balls[j as usize].r > balls[*b as usize].r {
                *b = j;
            }
        }
    }
    let span = (2.0 * g.rmax / g.cell).ceil() + 1.0;
    if span * span * span > 125.0 {
        return vec![false; balls.len()];
    }
    balls
        .par_iter()
        .enumerate()
        .map(|(i, bi)| {
            let (lo, hi) = g.cell_box(bi.c, g.rmax);
            for z in lo[2]..=hi[2] {
                for y in lo[1]..=hi[1] {
                    for x in lo[0]..=hi[0] {
                        let j = big[(z * g.dims[1] + y) * g.dims[0] + x];
                        if j == u32::MAX || j as usize == i {
                            continue;
                        }
                        let bj = balls[j as usize];
                        if norm(sub(bi.c, bj.c)) + bi.r <= bj.r - 1e-8 {
                            return true;
                        }
                    }
                }
            }
            false
        })
        .collect()
}

/// One end-vertex search: the edge of three gate balls leaving the start vertex (tangent to the
/// gates and ball `s`) away from `s`.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    pub g: [u32; 3],
    pub s: u32,
    pub start: Sphere,
}

impl Edge {
    /// The edge of vertex quadruple `q` opposite its ball `k` (the other three as gates, in the
    /// quadruple's order), leaving ball `q[k]` from the vertex's sphere `start`.
    pub fn opposite(q: [u32; 4], k: usize, start: Sphere) -> Edge {
        let mut g = [0u32; 3];
        let mut c = 0;
        for (t, &b) in q.iter().enumerate() {
            if t != k {
                g[c] = b;
                c += 1;
            }
        }
        Edge { g, s: q[k], start }
    }
}

/// The edge's trisector, its start point, start parameter and direction; None for collinear
/// gate centres.
pub fn edge_frame(ctx: &Ctx, e: &Edge) -> Option<(Trisector, CurvePoint, f64, f64)> {
    let b = ctx.balls;
    let tri = Trisector::new([b[e.g[0] as usize], b[e.g[1] as usize], b[e.g[2] as usize]])?;
    let sp = tri.locate(&e.start);
    let from = tri.param(sp);
    let dir = tri.direction(sp, &b[e.s as usize]);
    Some((tri, sp, from, dir))
}

/// Smallest parameter step after the start that counts as a new vertex.
pub const AHEAD_EPS: f64 = 1e-9;

/// Tangencies within this parameter distance of the start count as at the start.
pub const ZERO_EPS: f64 = 1e-7;

/// How far candidate `j`'s first tangency lies after the start, and where.
pub fn candidate(
    tri: &Trisector,
    e: &Edge,
    from: f64,
    dir: f64,
    j: u32,
    ball: &Ball,
) -> Option<(f64, CurvePoint)> {
    if e.g.contains(&j) {
        return None;
    }
    let hits = tri.hits(ball);
    // the start ball is tangent at the start: drop its hit nearest the start (by parameter),
    // whatever rounding did to it, so that only its other tangency can end the edge
    let skip = if j == e.s {
        hits.into_iter()
            .enumerate()
            .map(|(k, h)| {
                let d = tri.param(h) - from;
                let d = if tri.ellipse.is_some() {
                    (d + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU)
                        - std::f64::consts::PI
                } else {
                    d
                };
                (d.abs(), k)
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|x| x.1)
    } else {
        None
    };
    let mut best: Option<(f64, CurvePoint)> = None;
    for (k, h) in hits.into_iter().enumerate() {
        if Some(k) == skip {
            continue;
        }
        let mut a = tri.ahead(from, h, dir);
        if tri.ellipse.is_some() && a >= std::f64::consts::TAU - ZERO_EPS {
            a -= std::f64::consts::TAU;
        }
        if a <= AHEAD_EPS {
            // a fifth ball on the start sphere (surplus quadruples): the edge has length zero
            // when it enters the spheres ahead, and ends at the same sphere with it
            if j == e.s || a < -ZERO_EPS || !tri.enters(h, dir, ball) {
                continue;
            }
            a = 0.0;
        }
        if best.is_none_or(|b| a < b.0) {
            best = Some((a, h));
        }
    }
    best
}

/// The CPU end-vertex search of one edge: candidates from the grid cells around a region,
/// widened until the winner's arc from the start (bounded by a sphere) lies inside the region,
/// so that no ball outside can come first. `seed`: a winner already known (a device's) and the
/// region its candidates came from.
pub fn search_edge(
    ctx: &Ctx,
    e: &Edge,
    seed: Option<(u32, CurvePoint, Sphere)>,
) -> Option<(u32, CurvePoint)> {
    let (tri, sp, from, dir) = edge_frame(ctx, e)?;
    let g = &ctx.grid;
    if let Some((j, h, region)) = seed {
        let need = tri.arc_bound(sp, h);
        if norm(sub(need.c, region.c)) + need.r <= region.r {
            return Some((j, h));
        }
    }
    let m = e.start.c;
    // best: the best candidate so far; need: the bound of the arc from the start to it. A ball
    // that does not reach the bound has no tangency before the best one, so once a candidate is
    // known the balls of the cells around its bound are all that can beat it (the bound of a
    // nearer candidate's arc need not lie inside, but that arc is part of the longer one, so the
    // pruning stays exact).
    type Best = Option<(f64, u32, CurvePoint)>;
    let mut st: (Best, Option<Sphere>) = (None, None);
    let visit = |st: &mut (Best, Option<Sphere>), j: u32| {
        let b = &ctx.balls[j as usize];
        if let Some(nd) = st.1 {
            let dn = sub(b.c, nd.c);
            if dot(dn, dn) > (nd.r + b.r) * (nd.r + b.r) {
                return;
            }
        }
        if let Some((a, h)) = candidate(&tri, e, from, dir, j, b) {
            if st.0.is_none_or(|bb| a < bb.0 || (a == bb.0 && j < bb.1)) {
                st.0 = Some((a, j, h));
                st.1 = Some(tri.arc_bound(sp, h));
            }
        }
    };
    // a first candidate from the cells around the start sphere, widened twice
    let mut rad = e.start.r.max(0.0) + g.rmax;
    let mut on_sphere = 0usize;
    for round in 0..3 {
        g.for_each(m, rad + g.rmax, |j| {
            // only balls that reach the sphere (m, rad): this pass just finds some candidate
            let b = &ctx.balls[j as usize];
            let d = sub(b.c, m);
            if dot(d, d) <= (rad + b.r) * (rad + b.r) {
                if round == 0 && (dot(d, d).sqrt() - e.start.r - b.r).abs() <= ON_SPHERE_TOL {
                    on_sphere += 1;
                }
                visit(&mut st, j);
            }
        });
        if on_sphere > MAX_ON_SPHERE {
            ctx.degenerate.store(true, Ordering::Relaxed);
            return None;
        }
        if st.1.is_some() {
            break;
        }
        rad *= 2.0;
    }
    match st.1 {
        Some(nd) if nd.r <= FAR_CELLS * g.cell => {
            g.for_each(nd.c, nd.r + g.rmax, |j| visit(&mut st, j));
            st.0.map(|(_, j, h)| (j, h))
        }
        _ => search_clusters(ctx, e, &tri, sp, from, dir, st.0).map(|(_, j, h)| (j, h)),
    }
}

/// Arc bounds wider than this many cells are searched over the clusters.
const FAR_CELLS: f64 = 3.0;

/// Whether some sphere of the curve from `sp` (parameter `from`, direction `dir`) up to `limit`
/// ahead (infinity: the rest of the curve) meets the ball (c, rho). The sign of
/// `|x - c| - rho - r` along the curve changes only at the ball's tangencies, so: negative at the
/// start, or a tangency ahead within the limit.
fn arc_meets(
    tri: &Trisector,
    sp: CurvePoint,
    from: f64,
    dir: f64,
    limit: f64,
    c: [f64; 3],
    rho: f64,
) -> bool {
    let x = tri.point(sp);
    if norm(sub(x.c, c)) - rho - x.r < 1e-9 {
        return true;
    }
    tri.hits(&Ball { c, r: rho }).into_iter().any(|h| {
        let a = tri.ahead(from, h, dir);
        a > -1e-9 && a <= limit + 1e-9
    })
}

/// The exact search over every ball, pruned by clusters: a cluster's balls are candidates only
/// when its bounding sphere meets a sphere of the curve between the start and the best
/// candidate so far (or the rest of the curve while there is none). `best`: a candidate known.
fn search_clusters(
    ctx: &Ctx,
    e: &Edge,
    tri: &Trisector,
    sp: CurvePoint,
    from: f64,
    dir: f64,
    mut best: Option<(f64, u32, CurvePoint)>,
) -> Option<(f64, u32, CurvePoint)> {
    let g = &ctx.grid;
    let mut need = best.map(|b| tri.arc_bound(sp, b.2));
    let reaches = |need: &Option<Sphere>, c: [f64; 3], r: f64| {
        need.is_none_or(|nd| norm(sub(c, nd.c)) <= nd.r + r)
    };
    for (k, &(c, rho)) in g.cl_sphere.iter().enumerate() {
        let limit = best.map_or(f64::INFINITY, |b| b.0);
        if !reaches(&need, c, rho) || !arc_meets(tri, sp, from, dir, limit, c, rho) {
            continue;
        }
        for &j in &g.cl_items[g.cl_start[k] as usize..g.cl_start[k + 1] as usize] {
            let b = &ctx.balls[j as usize];
            if !reaches(&need, b.c, b.r) {
                continue;
            }
            if let Some((a, h)) = candidate(tri, e, from, dir, j, b) {
                if best.is_none_or(|bb| a < bb.0 || (a == bb.0 && j < bb.1)) {
                    best = Some((a, j, h));
                    need = Some(tri.arc_bound(sp, h));
                }
            }
        }
    }
    best
}

/// Whether no ball other than `q` penetrates sphere `s` (double, through the grid), with
/// tolerance `tol`.
pub fn is_empty(ctx: &Ctx, s: &Sphere, q: &[u32], tol: f64) -> bool {
    blocker(ctx, s, q, tol).is_none()
}

/// A ball (not of `q`) that penetrates the sphere by more than `tol`: the first the grid
/// gives, or None when the sphere is empty.
fn blocker(ctx: &Ctx, s: &Sphere, q: &[u32], tol: f64) -> Option<u32> {
    let mut found = None;
    ctx.grid.any(s.c, s.r + ctx.grid.rmax, |j| {
        let hit = !q.contains(&j) && penetrates(&ctx.balls[j as usize], s, tol);
        if hit {
            found = Some(j);
        }
        hit
    });
    found
}

/// Whether ball `b` reaches into the sphere by more than `tol`.
fn penetrates(b: &Ball, s: &Sphere, tol: f64) -> bool {
    norm(sub(b.c, s.c)) < s.r + b.r - tol
}

/// The vertex of quadruple `q` nearest the sphere `approx`: (sorted quadruple, which, sphere).
pub fn make_vertex(balls: &[Ball], mut q: [u32; 4], approx: Sphere) -> Vertex {
    q.sort_unstable();
    let bs = q.map(|i| balls[i as usize]);
    if let Tangent::Spheres(list) = tangent_spheres(bs) {
        if let Some((k, s)) = list.iter().enumerate().min_by(|a, b| {
            let da = norm(sub(a.1.c, approx.c)) + (a.1.r - approx.r).abs();
            let db = norm(sub(b.1.c, approx.c)) + (b.1.r - approx.r).abs();
            da.total_cmp(&db)
        }) {
            return Vertex {
                q,
                which: k as u8,
                s: *s,
            };
        }
    }
    Vertex {
        q,
        which: 0,
        s: approx,
    }
}

/// A first vertex touching ball i: the empty tangent spheres of i with triples of its nearest
/// neighbours (by gap), nearest first.
fn first_vertex(ctx: &Ctx, i: u32, k: usize) -> Option<Vertex> {
    let b = ctx.balls;
    let bi = b[i as usize];
    let mut near: Vec<(f64, u32)> = Vec::new();
    ctx.grid.for_each(bi.c, 3.0 * ctx.grid.cell, |j| {
        if j != i {
            let bj = b[j as usize];
            near.push((norm(sub(bj.c, bi.c)) - bj.r - bi.r, j));
        }
    });
    if near.len() < 3 {
        near.clear();
        for (j, bj) in b.iter().enumerate() {
            if j as u32 != i {
                near.push((norm(sub(bj.c, bi.c)) - bj.r - bi.r, j as u32));
            }
        }
    }
    near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    near.truncate(k);
    let n = near.len();
    let mut best: Option<Vertex> = None;
    for s in 2..(3 * n) {
        for x in 0..n {
            for y in (x + 1)..n {
                let z = s as isize - x as isize - y as isize;
                if z <= y as isize || z >= n as isize {
                    continue;
                }
                let mut q = [i, near[x].1, near[y].1, near[z as usize].1];
                q.sort_unstable();
                if let Tangent::Spheres(list) = tangent_spheres(q.map(|t| b[t as usize])) {
                    for (w, sph) in list.iter().enumerate() {
                        if is_empty(ctx, sph, &q, 1e-9) && best.is_none_or(|bv| sph.r < bv.s.r) {
                            best = Some(Vertex {
                                q,
                                which: w as u8,
                                s: *sph,
                            });
                        }
                    }
                }
            }
        }
        if best.is_some() {
            return best;
        }
    }
    best
}

/// A vertex's key: its sorted quadruple and which of the quadruple's spheres.
type VertexKey = ([u32; 4], u8);

/// Vertices by (quadruple, which sphere). The keys are ball indices, not attacker-chosen, so a
/// multiplicative hash (FxHash's) serves instead of SipHash, which took a large part of the
/// host's time per level.
type VertexMap = HashMap<VertexKey, usize, BuildHasherDefault<FxHasher>>;

/// The vertex table is split in this many maps by [`shard_of`], so that a level's new vertices
/// go in on all threads at once.
const SHARDS: usize = 64;

/// A vertex's map: by its balls, not by the maps' hash (whose top bits the maps themselves use).
fn shard_of(q: &[u32; 4]) -> usize {
    ((q[0] ^ q[3]) as usize) % SHARDS
}

#[derive(Default)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The whole diagram by edge tracing with `search` doing the end-vertex searches.
/// The vertices found so far: their table (by key, in [`SHARDS`] maps), their edges' far ends
/// (-2 not yet known, -1 unbounded), and the edges still to search.
struct Tables {
    verts: Vec<Vertex>,
    adj: Vec<[i64; 4]>,
    shards: Vec<VertexMap>,
    touched: Vec<bool>,
    /// (vertex, index of the ball the edge leaves), in vertex order.
    pending: Vec<(usize, usize)>,
}

impl Tables {
    fn new(balls: &[Ball]) -> Tables {
        // about seven vertices per ball in molecules: reserve so that the tables do not regrow
        let cap = 8 * balls.len();
        Tables {
            verts: Vec::with_capacity(cap),
            adj: Vec::with_capacity(cap),
            shards: (0..SHARDS)
                .map(|_| VertexMap::with_capacity_and_hasher(cap / SHARDS + 16, Default::default()))
                .collect(),
            touched: vec![false; balls.len()],
            pending: Vec::new(),
        }
    }

    fn id(&self, v: &Vertex) -> Option<usize> {
        self.shards[shard_of(&v.q)].get(&(v.q, v.which)).copied()
    }

    /// The searches of pending edges (vertex, index of the ball left).
    fn edges(&self, level: &[(usize, usize)]) -> Vec<Edge> {
        level
            .par_iter()
            .map(|&(v, k)| Edge::opposite(self.verts[v].q, k, self.verts[v].s))
            .collect()
    }

    /// Adds distinct vertices not in the table yet: their ids (the next free ones, in order),
    /// their four edges pending, their balls touched; the keys go into their maps on all
    /// threads, a map per thread.
    fn insert_new(&mut self, vs: &[Vertex]) {
        let base = self.verts.len();
        let mut by_shard: Vec<Vec<(VertexKey, usize)>> = vec![Vec::new(); SHARDS];
        for (i, v) in vs.iter().enumerate() {
            for &b in &v.q {
                self.touched[b as usize] = true;
            }
            by_shard[shard_of(&v.q)].push(((v.q, v.which), base + i));
        }
        self.verts.extend_from_slice(vs);
        self.adj.extend(std::iter::repeat_n([-2i64; 4], vs.len()));
        self.pending
            .extend((base..base + vs.len()).flat_map(|id| (0..4).map(move |k| (id, k))));
        self.shards
            .par_iter_mut()
            .zip(by_shard.par_iter())
            .for_each(|(m, keys)| m.extend(keys.iter().copied()));
    }

    /// A searched batch (per edge the end ball and end point, None where unbounded): its end
    /// vertices into the table, each edge linked to its far end and that end's edge back to it.
    fn absorb(
        &mut self,
        balls: &[Ball],
        level: &[(usize, usize)],
        edges: &[Edge],
        found: &[Option<(u32, CurvePoint)>],
    ) {
        let made: Vec<Option<(u32, Vertex, Option<usize>)>> = edges
            .par_iter()
            .zip(found.par_iter())
            .map(|(e, f)| {
                let (j, h) = (*f)?;
                let tri = Trisector::new([
                    balls[e.g[0] as usize],
                    balls[e.g[1] as usize],
                    balls[e.g[2] as usize],
                ])
                .unwrap();
                let v = make_vertex(balls, [e.g[0], e.g[1], e.g[2], j], tri.point(h));
                Some((j, v, self.id(&v)))
            })
            .collect();
        // the new ones by key: each distinct key is one new vertex
        let mut fresh: Vec<(([u32; 4], u8), u32)> = made
            .par_iter()
            .enumerate()
            .filter_map(|(i, m)| match m {
                Some((_, v, None)) => Some(((v.q, v.which), i as u32)),
                _ => None,
            })
            .collect();
        fresh.par_sort_unstable();
        let mut ids: Vec<usize> = made
            .iter()
            .map(|m| m.as_ref().and_then(|x| x.2).unwrap_or(usize::MAX))
            .collect();
        let mut news: Vec<Vertex> = Vec::new();
        let base = self.verts.len();
        let mut g = 0;
        while g < fresh.len() {
            let k0 = fresh[g].0;
            news.push(
                made[fresh[g].1 as usize]
                    .as_ref()
                    .expect("a fresh vertex was found")
                    .1,
            );
            while g < fresh.len() && fresh[g].0 == k0 {
                ids[fresh[g].1 as usize] = base + news.len() - 1;
                g += 1;
            }
        }
        self.insert_new(&news);
        // Links, in an order that the device (cl/awvd.cl `awvd_back`) can follow whatever the
        // order of its work-items: first each end vertex's edge back toward the start, where
        // still unknown, to the start vertex with the smallest key among the level's edges that
        // end there (marked while the level is linked); then each edge's own search, which wins;
        // then the marks cleared. Several start vertices end at one edge only where more than
        // four balls touch one sphere (zero-length edges between its quadruples).
        const MARK: i64 = 1 << 40;
        let key = |v: usize| (self.verts[v].q, self.verts[v].which);
        let back = |i: usize, f: &Option<(u32, Vertex, Option<usize>)>| {
            f.as_ref()
                .map(|(j, nv, _)| (ids[i], nv.q.iter().position(|x| x == j).unwrap()))
        };
        let mut marks = Vec::new();
        for (i, (&(v, _), f)) in level.iter().zip(&made).enumerate() {
            if let Some((id, kk)) = back(i, f) {
                let cur = self.adj[id][kk];
                if cur == -2 || (cur >= MARK && key(v) < key((cur - MARK) as usize)) {
                    self.adj[id][kk] = v as i64 + MARK;
                    marks.push((id, kk));
                }
            }
        }
        for (i, (&(v, k), f)) in level.iter().zip(&made).enumerate() {
            self.adj[v][k] = if f.is_some() { ids[i] as i64 } else { -1 };
        }
        for (id, kk) in marks {
            if self.adj[id][kk] >= MARK {
                self.adj[id][kk] -= MARK;
            }
        }
    }
}

/// Where tracing restarts once no edge is pending: the balls no vertex touches, in index order,
/// each tried once (a restart's vertex may touch balls after it, so the caller asks again after
/// each trace).
pub struct Restarts {
    next: usize,
    tried: Vec<bool>,
}

impl Restarts {
    pub fn new(balls: usize) -> Restarts {
        Restarts {
            next: 0,
            tried: vec![false; balls],
        }
    }

    /// The next ball to restart from, given which balls vertices touch; None when none is left.
    pub fn next(&mut self, touched: impl Fn(usize) -> bool) -> Option<usize> {
        while self.next < self.tried.len() && (touched(self.next) || self.tried[self.next]) {
            self.next += 1;
        }
        let b = self.next;
        if b >= self.tried.len() {
            return None;
        }
        self.tried[b] = true;
        Some(b)
    }

    /// A first vertex touching ball `b` (trace.rs `first_vertex` over its 24 nearest balls);
    /// None, with `ctx.degenerate` set, where its sphere touches more than [`MAX_ON_SPHERE`]
    /// balls (the callers then ask [`check_degenerate`]).
    pub fn vertex(ctx: &Ctx, b: usize) -> Option<Vertex> {
        let v = first_vertex(ctx, b as u32, 24)?;
        let mut on = 0usize;
        ctx.grid.for_each(v.s.c, v.s.r + ctx.grid.rmax, |j| {
            let bj = &ctx.balls[j as usize];
            if (norm(sub(bj.c, v.s.c)) - v.s.r - bj.r).abs() <= ON_SPHERE_TOL {
                on += 1;
            }
        });
        if on > MAX_ON_SPHERE {
            ctx.degenerate.store(true, Ordering::Relaxed);
            return None;
        }
        Some(v)
    }
}

pub fn trace(balls: &[Ball], opts: &AwvdOptions) -> Result<AwvdResult> {
    let cut = opts.cut()?;
    if balls.len() < 4 {
        return Ok(AwvdResult::default());
    }
    let clock = Instant::now();
    let ctx = Ctx::new(balls, opts.cell);
    check_crowded_first(&ctx)?;
    let grid_s = clock.elapsed().as_secs_f64();
    let clock = Instant::now();
    let mut t = Tables::new(balls);
    let mut restarts = Restarts::new(balls.len());
    let mut res = AwvdResult::default();
    loop {
        while !t.pending.is_empty() {
            check_cut(&cut)?;
            // new vertices' ids grow, so `pending` is sorted and unique already
            t.pending.retain(|&(v, k)| t.adj[v][k] == -2);
            let level = std::mem::take(&mut t.pending);
            let edges = t.edges(&level);
            res.searches += edges.len() as u64;
            let c = Instant::now();
            let found = search_edges(&ctx, &edges, &cut)?;
            res.search_s += c.elapsed().as_secs_f64();
            check_degenerate(&ctx, t.verts.len())?;
            if !edges.is_empty() {
                res.levels += 1;
                t.absorb(balls, &level, &edges, &found);
            }
            check_degenerate(&ctx, t.verts.len())?;
        }
        // restart from the next ball no vertex touches
        check_cut(&cut)?;
        let (touched, hidden) = (&t.touched, &ctx.hidden);
        let Some(b) = restarts.next(|i| touched[i] || hidden[i]) else {
            break;
        };
        let v = Restarts::vertex(&ctx, b);
        check_degenerate(&ctx, 0)?;
        if let Some(v) = v {
            res.restarts += 1;
            if t.id(&v).is_none() {
                t.insert_new(&[v]);
            }
        }
    }
    res.trace_s = clock.elapsed().as_secs_f64();
    res.grid_s = grid_s;
    finish(&ctx, t.verts, t.adj, |c| loose_contacts(c, &cut), res)
}

/// The diagram's error when a search met more than [`MAX_ON_SPHERE`] balls on its start
/// sphere, or when it has more than [`max_vertices`] vertices.
pub fn check_degenerate(ctx: &Ctx, vertices: usize) -> Result<()> {
    if ctx.degenerate.load(Ordering::Relaxed) {
        return Err(degenerate(&format!(
            "more than {MAX_ON_SPHERE} balls touch the sphere of a vertex (within \
             {ON_SPHERE_TOL} Å)"
        )));
    }
    let most = max_vertices(ctx.balls.len());
    if vertices > most {
        return Err(degenerate(&format!("more than {most} vertices")));
    }
    Ok(())
}

/// The end-vertex searches of `edges` (one rayon task each), or the call's error when its cut
/// comes due meanwhile (the tasks left then end at once).
pub fn search_edges(
    ctx: &Ctx,
    edges: &[Edge],
    cut: &Cut,
) -> Result<Vec<Option<(u32, CurvePoint)>>> {
    let found = edges
        .par_iter()
        .map(|e| {
            // a search that met a degenerate sphere ends the level: the diagram is refused
            if cut.due() || ctx.degenerate.load(Ordering::Relaxed) {
                None
            } else {
                search_edge(ctx, e, None)
            }
        })
        .collect();
    check_cut(cut)?;
    Ok(found)
}

/// The traced vertices sorted by (quadruple, which) and renumbered, their edges, and the
/// contacts (the vertices' ball pairs and the vertex-free edges' ones, from `loose`: the CPU's
/// `loose_contacts` or a device's kernel); `finish_s` timed.
pub fn finish(
    ctx: &Ctx,
    verts: Vec<Vertex>,
    adj: Vec<[i64; 4]>,
    loose: impl FnOnce(&Ctx) -> Result<Vec<(u32, u32)>>,
    mut res: AwvdResult,
) -> Result<AwvdResult> {
    let clock = Instant::now();
    // sort by (quadruple, which) and renumber; packed keys (the sorted quadruple as one u128,
    // then which and the index) sort much faster than indices compared through the table
    let mut order: Vec<(u128, u64)> = verts
        .par_iter()
        .enumerate()
        .map(|(i, v)| {
            let q = v.q.map(u128::from);
            (
                (q[0] << 96) | (q[1] << 64) | (q[2] << 32) | q[3],
                (u64::from(v.which) << 32) | i as u64,
            )
        })
        .collect();
    order.par_sort_unstable();
    let at = |w: u64| (w & 0xffff_ffff) as usize;
    let mut rank = vec![0i64; verts.len()];
    for (r, &(_, w)) in order.iter().enumerate() {
        rank[at(w)] = r as i64;
    }
    res.vertices = order.par_iter().map(|&(_, w)| verts[at(w)]).collect();
    res.edges = order
        .par_iter()
        .map(|&(_, w)| adj[at(w)].map(|a| if a >= 0 { rank[a as usize] } else { -1 }))
        .collect();
    drop((order, rank));
    let loose = loose(ctx)?;
    // the ball pairs of the vertices and of the vertex-free edges, as (i << 32 | j) keys
    let keys: Vec<Vec<u64>> = res
        .vertices
        .par_chunks(4096)
        .zip(res.edges.par_chunks(4096))
        .enumerate()
        .map(|(c, (vs, es))| {
            let mut out = Vec::with_capacity(3 * vs.len());
            for (i, (v, e)) in vs.iter().zip(es).enumerate() {
                face_pairs(&res.vertices, (c * 4096 + i) as i64, v, e, &mut out);
            }
            out
        })
        .collect();
    let mut keys = keys.concat();
    keys.extend(
        loose
            .iter()
            .map(|&(i, j)| (u64::from(i) << 32) | u64::from(j)),
    );
    keys.par_sort_unstable();
    keys.dedup();
    res.contacts = keys
        .par_iter()
        .map(|&k| ((k >> 32) as u32, k as u32))
        .collect();
    res.finish_s = clock.elapsed().as_secs_f64();
    Ok(res)
}

/// The ball pairs of vertex `r` (`v`, its edges' far ends `e`, in the sorted table `verts`),
/// as (i << 32 | j) keys, each given only where `r` is ranked below both its neighbours on the
/// pair's face: the pair (q[x], q[y]) lies on the vertex's two edges opposite its other two
/// balls, and a neighbour that is unbounded (-1) or does not hold the pair does not count. The
/// lowest vertex holding a pair gives it whatever the links, and a face of L vertices gives its
/// pair about L / 3 times instead of L, so there are about three times fewer keys to sort.
fn face_pairs(verts: &[Vertex], r: i64, v: &Vertex, e: &[i64; 4], out: &mut Vec<u64>) {
    const PAIRS: [(usize, usize, usize, usize); 6] = [
        (0, 1, 2, 3),
        (0, 2, 1, 3),
        (0, 3, 1, 2),
        (1, 2, 0, 3),
        (1, 3, 0, 2),
        (2, 3, 0, 1),
    ];
    for (x, y, k, l) in PAIRS {
        let (a, b) = (v.q[x], v.q[y]);
        let below = |n: i64| {
            n < 0 || r <= n || {
                let q = &verts[n as usize].q;
                !(q.contains(&a) && q.contains(&b))
            }
        };
        if below(e[k]) && below(e[l]) {
            out.push((u64::from(a) << 32) | u64::from(b));
        }
    }
}

/// The ball pairs of vertex-free elliptic edges, which no vertex gives: triples of balls whose
/// trisector is an ellipse with its smallest sphere (radius up to r_max, so the three centres lie
/// within r_i + r_j + 2 r_max of each other) valid and empty; that sphere's centre is then a
/// point of the edge, so the three pairs share faces.
fn loose_contacts(ctx: &Ctx, cut: &Cut) -> Result<Vec<(u32, u32)>> {
    let pairs = (0..ctx.balls.len())
        .into_par_iter()
        .flat_map_iter(|i| {
            if cut.due() {
                Vec::new()
            } else {
                loose_of(ctx, i)
            }
        })
        .collect();
    check_cut(cut)?;
    check_crowded(ctx)?;
    Ok(pairs)
}

/// The most near balls (j > i within r_i + r_j + 2 r_max) of one ball in the vertex-free
/// contacts, whose triples take the square of their number, each with an emptiness check:
/// atoms have a few hundred at most (hydrogens included), while a thousand balls overlapping in
/// a cube of 1 Å cost seconds.
pub const MAX_NEAR: usize = 1024;

/// The diagram's error when a ball had more than [`MAX_NEAR`] near balls (`loose_of`).
pub fn check_crowded(ctx: &Ctx) -> Result<()> {
    if ctx.crowded.load(Ordering::Relaxed) {
        return Err(crate::error::Error::arg(
            "balls",
            format!(
                "a ball has more than {MAX_NEAR} others within its reach of vertex-free \
                 contacts (balls crowded far beyond atoms' packing); not supported"
            ),
        ));
    }
    Ok(())
}

/// Sets `ctx.crowded` and returns [`check_crowded`]'s error when a ball (not hidden) has more
/// than [`MAX_NEAR`] near balls after it, as `loose_of` would find at the end: asked before
/// tracing, so that such input costs a scan that stops at the bound, not the tracing too.
pub fn check_crowded_first(ctx: &Ctx) -> Result<()> {
    let (b, g, rm) = (ctx.balls, &ctx.grid, ctx.grid.rmax);
    let over = (0..b.len()).into_par_iter().any(|i| {
        if ctx.hidden[i] {
            return false;
        }
        let bi = b[i];
        let (lo, hi) = g.cell_box(bi.c, bi.r + 3.0 * rm);
        let mut n = 0usize;
        for z in lo[2]..=hi[2] {
            for y in lo[1]..=hi[1] {
                let row = (z * g.dims[1] + y) * g.dims[0];
                let (s, e) = (
                    g.start[row + lo[0]] as usize,
                    g.start[row + hi[0] + 1] as usize,
                );
                for &j in &g.items[s..e] {
                    let bj = &b[j as usize];
                    let d = sub(bj.c, bi.c);
                    let lim = bi.r + bj.r + 2.0 * rm;
                    if j as usize > i && !ctx.hidden[j as usize] && dot(d, d) <= lim * lim {
                        n += 1;
                        if n > MAX_NEAR {
                            return true;
                        }
                    }
                }
            }
        }
        false
    });
    if over {
        ctx.crowded.store(true, Ordering::Relaxed);
    }
    check_crowded(ctx)
}

/// `loose_contacts` of ball i: the pairs of the triples (i, j, k), i < j < k.
pub fn loose_of(ctx: &Ctx, i: usize) -> Vec<(u32, u32)> {
    let b = ctx.balls;
    let rm = ctx.grid.rmax;
    let near = |x: &Ball, y: &Ball| {
        let d = sub(y.c, x.c);
        dot(d, d) <= (x.r + y.r + 2.0 * rm) * (x.r + y.r + 2.0 * rm)
    };
    let bi = b[i];
    let mut nb: Vec<u32> = Vec::new();
    if ctx.hidden[i] || ctx.crowded.load(Ordering::Relaxed) {
        return Vec::new();
    }
    ctx.grid.for_each(bi.c, bi.r + 3.0 * rm, |j| {
        if j as usize > i && !ctx.hidden[j as usize] && near(&bi, &b[j as usize]) {
            nb.push(j);
        }
    });
    if nb.len() > MAX_NEAR {
        ctx.crowded.store(true, Ordering::Relaxed);
        return Vec::new();
    }
    nb.sort_unstable();
    let mut out = Vec::new();
    // the last ball that filled a triple's sphere, tried first on the next: crowded balls
    // fill most spheres, often with the same ball
    let mut last: Option<u32> = None;
    for (x, &j) in nb.iter().enumerate() {
        for &k in &nb[x + 1..] {
            let (bj, bk) = (b[j as usize], b[k as usize]);
            if !near(&bj, &bk) {
                continue;
            }
            let Some(tri) = Trisector::new([bi, bj, bk]) else {
                continue;
            };
            let Some((rc, rr, _)) = tri.ellipse else {
                continue;
            };
            let s = tri.point(CurvePoint { r: rc - rr, t: 0.0 });
            let ra = bi.r.min(bj.r).min(bk.r);
            if s.r + ra < 0.0 || s.r > rm {
                continue;
            }
            let q = [i as u32, j, k];
            if last.is_some_and(|m| !q.contains(&m) && penetrates(&b[m as usize], &s, 1e-9)) {
                continue;
            }
            match blocker(ctx, &s, &q, 1e-9) {
                Some(m) => last = Some(m),
                None => out.extend([(i as u32, j), (i as u32, k), (j, k)]),
            }
        }
    }
    out
}

/// The largest tangency error over vertices and the number of vertices whose sphere another
/// ball penetrates by more than `tol` (double, through the grid).
pub fn check(balls: &[Ball], vertices: &[Vertex], tol: f64) -> (f64, usize) {
    let ctx = Ctx::new(balls, 0.0);
    vertices
        .par_iter()
        .map(|v| {
            let e = super::geom::tangency_error(&v.s, &v.q.map(|i| balls[i as usize]));
            (e, usize::from(!is_empty(&ctx, &v.s, &v.q, tol)))
        })
        .reduce(|| (0.0, 0), |a, b| (a.0.max(b.0), a.1 + b.1))
}
