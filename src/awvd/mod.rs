//! The additively weighted Voronoi diagram of balls (atoms) by edge tracing (thesis
//! 004 as corrected by AWVD.md; docs/specs/AWVD.md): vertices (empty spheres tangent to four
//! balls), edges between them and contacts (ball pairs that share a face), as Voronota gives
//! them.
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`input`] | PDB / mmCIF atoms (pdbtbx) with Voronota's selection and radii, balls files |
//! | [`geom`] | tangent spheres of four balls, the trisector of three balls (edge curve) |
//! | [`grid`] | the uniform grid of cells (cell lists) for candidate search and emptiness checks |
//! | [`trace`] | edge tracing, level by level, with the end-vertex search of the CPU backend |
//! | [`device`] | the diagram traced on the device (`cl/awvd.cl`) |
//!
//! A diagram is exact or nothing: its `stop`'s time limit and token, and
//! [`interrupt`](crate::interrupt()) are asked between tracing levels, inside the searches of a
//! level (the CPU's tasks; the device's launches of a level in pieces sized to end within
//! [`STEP_SECONDS`](crate::run::STEP_SECONDS)), between restarts and while the contacts are
//! gathered; a diagram cut short is [`Error::TimeLimit`] or [`Error::Interrupted`] with no result.

use crate::error::{Error, Result};
use crate::interrupt::Cut;
use crate::run::Stop;
use std::fmt::Write;
pub mod device;
pub mod geom;
pub mod grid;
pub mod input;
pub mod trace;

pub use geom::{tangent_spheres, Sphere, Tangent, Trisector};
pub use input::{
    parse_balls, read_any, read_balls, read_structure, voronota_radius, AtomSelection,
};

/// A ball: centre and radius.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball {
    pub c: [f64; 3],
    pub r: f64,
}

/// One vertex: four balls in ascending order, which of their tangent spheres (0 or 1, in
/// Voronota's (r, x, y, z) order) and the sphere.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vertex {
    pub q: [u32; 4],
    pub which: u8,
    pub s: Sphere,
}

/// Options of the diagram.
#[derive(Clone, Debug)]
pub struct AwvdOptions {
    /// Cell side of the spatial grid (Å); 0 picks one from the radii.
    pub cell: f64,
    /// Device float pass: candidates within this parameter distance of the float minimum (Å
    /// along a hyperbolic edge, radians on an elliptic one) are re-checked in double.
    pub suspect_bound: f64,
    /// When the diagram stops short: its time limit, counted from the call (the device's
    /// program build and upload included), and its stop token (requested as
    /// [`interrupt`](crate::interrupt()) does for every call). A diagram not finished by then
    /// is [`Error::TimeLimit`] or [`Error::Interrupted`], with no result. A budget, target,
    /// record interval or checkpoint plan is refused ([`Stop::check_exact`]).
    pub stop: Stop,
}

impl Default for AwvdOptions {
    fn default() -> Self {
        AwvdOptions {
            cell: 0.0,
            suspect_bound: 1e-3,
            stop: Stop::default(),
        }
    }
}

impl AwvdOptions {
    /// The cut of a diagram that starts now: its clock and its watch (the time limit checked).
    pub(crate) fn cut(&self) -> Result<Cut> {
        self.stop.check_exact()?;
        Ok(self.stop.cut(std::time::Instant::now()))
    }
}

/// The error of a diagram cut short (interrupted, or else its time limit passed): a part of a
/// diagram is no result.
fn stopped(cut: &Cut) -> Error {
    Error::cut_short(cut.watch.stopped(), "the Voronoi diagram")
}

/// [`stopped`] when the diagram must stop now.
pub(crate) fn check_cut(cut: &Cut) -> Result<()> {
    if cut.due() {
        Err(stopped(cut))
    } else {
        Ok(())
    }
}

/// The diagram.
#[derive(Clone, Debug, Default)]
pub struct AwvdResult {
    /// Vertices sorted by (quadruple, which sphere).
    pub vertices: Vec<Vertex>,
    /// For vertex v, the neighbour along the edge opposite to each of its four balls
    /// (the edge of the other three), or -1 where the edge is unbounded.
    pub edges: Vec<[i64; 4]>,
    /// Ball pairs (i < j) that share a face, sorted.
    pub contacts: Vec<(u32, u32)>,
    /// End-vertex searches run.
    pub searches: u64,
    /// Candidates re-checked in double (device float pass).
    pub double_rechecks: u64,
    /// Float winners replaced by the double re-check.
    pub float_replaced: u64,
    /// Restarts from balls that no vertex touched.
    pub restarts: u64,
    /// Tracing levels (one batch of searches, one device launch, each).
    pub levels: u64,
    /// Searches a device left to the host's exact search (collinear gates, nothing near, a far
    /// arc, a failed emptiness check).
    pub host_searches: u64,
    /// Seconds: the grid (and the device upload), the tracing (searches and inserts), and the
    /// rest (vertex-free contacts, sorting).
    pub grid_s: f64,
    pub trace_s: f64,
    pub finish_s: f64,
    /// The part of `trace_s` spent in the batches of end-vertex searches (device launches and
    /// reads, or the CPU searches).
    pub search_s: f64,
    /// Balls equal to an earlier ball (same centre and radius), left out of the diagram: the
    /// vertices and contacts hold the first of equal balls only (Voronota's
    /// `--exclude-hidden-balls` does so).
    pub merged: u64,
}

impl AwvdResult {
    /// Vertices in Voronota's format: `q1 q2 q3 q4 x y z r`, 15 decimals, one per line.
    pub fn vertices_text(&self) -> String {
        lines(&self.vertices, 90, |s, v| {
            writeln!(
                s,
                "{} {} {} {} {:.15} {:.15} {:.15} {:.15}",
                v.q[0], v.q[1], v.q[2], v.q[3], v.s.c[0], v.s.c[1], v.s.c[2], v.s.r
            )
        })
    }

    /// The contacts as `i j` lines (0-based ball indices, i < j, sorted).
    pub fn contacts_text(&self) -> String {
        lines(&self.contacts, 12, |s, (i, j)| writeln!(s, "{i} {j}"))
    }
}

/// One line per item, formatted in chunks on rayon threads and joined in order (one thread is
/// slow for a diagram of millions of vertices; see benchmarks/INDEX.md, 2026-11-24-h100-awvd_host_checks).
fn lines<T: Sync>(
    items: &[T],
    width: usize,
    line: impl Fn(&mut String, &T) -> std::fmt::Result + Sync,
) -> String {
    use rayon::prelude::*;
    let parts: Vec<String> = items
        .par_chunks(4096)
        .map(|c| {
            let mut s = String::with_capacity(c.len() * width);
            for x in c {
                // writing into a String cannot fail
                let _ = line(&mut s, x);
            }
            s
        })
        .collect();
    parts.concat()
}

/// The diagram of `balls` on the rayon CPU backend.
pub fn awvd_cpu(balls: &[Ball], opts: &AwvdOptions) -> Result<AwvdResult> {
    prepared(balls, opts, |b| trace::trace(b, opts))
}

/// The most balls on one vertex's sphere (tangent within [`ON_SPHERE_TOL`]) that a search
/// accepts: more are refused as degenerate. With centres exactly on one sphere every quadruple
/// is a vertex, so the quadruples grow as the fourth power of their number; with centres on one
/// sphere up to rounding (coordinates printed to a few decimals) the vertices are few, but each
/// search from one of their spheres meets every ball of the shell, so tracing grows as the
/// square of the number of balls. Atoms are far from it: a vertex of a molecule has its four
/// balls on its sphere and rarely a fifth.
pub const MAX_ON_SPHERE: usize = 64;

/// How near to tangent a ball counts as on a vertex's sphere for [`MAX_ON_SPHERE`] (Å): four
/// times the largest rounding error of coordinates printed to three decimals, as PDB files
/// print them. A tolerance relative to the sphere would grow with it, and the wide spheres of
/// the outer vertices pass near many surface atoms. The same value in `cl/awvd.cl`.
pub const ON_SPHERE_TOL: f64 = 2e-3;

/// The most vertices of a diagram of `n` balls: 64 per ball and 4096 more (molecules have
/// about seven, the surplus quadruples of a cubic lattice fewer than 30). Past it the diagram
/// is refused as degenerate.
pub fn max_vertices(n: usize) -> usize {
    64 * n + 4096
}

/// The error of a degenerate input: many balls tangent to one empty sphere.
pub(crate) fn degenerate(what: &str) -> Error {
    Error::arg(
        "balls",
        format!(
            "{what}: many balls touch one empty sphere, exactly or up to rounding (e.g. \
             centres on one sphere), whose quadruples grow as the fourth power of their number \
             or whose searches each meet them all; not supported"
        ),
    )
}

/// The largest magnitude of a coordinate or radius (Å). A double carries about 1e-7 Å there,
/// the order of the tangency tolerances; beyond, the squares in the geometry lose the balls.
pub const MAX_COORD: f64 = 1e9;

/// The balls and options are usable: finite centres and radii within [`MAX_COORD`], no
/// negative radius, and a finite cell of at least 0. Errors name the coordinate (`x`, `y`, `z`,
/// `r`) and the ball, or `cell`.
pub fn check_input(balls: &[Ball], opts: &AwvdOptions) -> Result<()> {
    if !(opts.cell.is_finite() && opts.cell >= 0.0) {
        return Err(Error::arg(
            "cell",
            format!(
                "{}; expected finite and >= 0 (0: the library's choice)",
                opts.cell
            ),
        ));
    }
    for (i, b) in balls.iter().enumerate() {
        for (k, name) in ["x", "y", "z"].into_iter().enumerate() {
            if b.c[k].is_nan() || b.c[k].abs() > MAX_COORD {
                return Err(Error::arg(
                    name,
                    format!(
                        "ball {i}: {}; expected finite, within +-{MAX_COORD:e}",
                        b.c[k]
                    ),
                ));
            }
        }
        if !(b.r >= 0.0 && b.r <= MAX_COORD) {
            return Err(Error::arg(
                "r",
                format!("ball {i}: radius {}; expected in [0, {MAX_COORD:e}]", b.r),
            ));
        }
    }
    Ok(())
}

/// The diagram of checked `balls` by `diagram`, with balls equal to an earlier one left out
/// (counted in `merged`; the result's indices are the input's).
pub(crate) fn prepared(
    balls: &[Ball],
    opts: &AwvdOptions,
    diagram: impl FnOnce(&[Ball]) -> Result<AwvdResult>,
) -> Result<AwvdResult> {
    check_input(balls, opts)?;
    let keep = distinct(balls);
    if keep.len() == balls.len() {
        return diagram(balls);
    }
    let unique: Vec<Ball> = keep.iter().map(|&i| balls[i as usize]).collect();
    let mut res = diagram(&unique)?;
    // `keep` grows, so sorted quadruples and pairs stay sorted
    for v in &mut res.vertices {
        v.q = v.q.map(|i| keep[i as usize]);
    }
    for c in &mut res.contacts {
        *c = (keep[c.0 as usize], keep[c.1 as usize]);
    }
    res.merged = (balls.len() - keep.len()) as u64;
    Ok(res)
}

/// The indices of the balls not equal to an earlier ball (same centre and radius, `-0.0`
/// equal to `0.0`), ascending.
fn distinct(balls: &[Ball]) -> Vec<u32> {
    let bits = |b: &Ball| [b.c[0], b.c[1], b.c[2], b.r].map(|x| (x + 0.0).to_bits());
    let mut order: Vec<([u64; 4], u32)> = balls
        .iter()
        .enumerate()
        .map(|(i, b)| (bits(b), i as u32))
        .collect();
    order.sort_unstable();
    let mut first = vec![true; balls.len()];
    for w in order.windows(2) {
        if w[0].0 == w[1].0 {
            first[w[1].1 as usize] = false;
        }
    }
    (0..balls.len() as u32)
        .filter(|&i| first[i as usize])
        .collect()
}
