//! A uniform grid of cells over the balls' centres (cell lists): ball indices sorted by cell,
//! with the start of each cell (CSR), on the host and uploaded as is to the device.

use super::Ball;

pub struct Grid {
    pub lo: [f64; 3],
    pub cell: f64,
    pub dims: [usize; 3],
    /// `start[c]..start[c + 1]` indexes `items` for cell c (x fastest).
    pub start: Vec<u32>,
    pub items: Vec<u32>,
    pub rmax: f64,
    /// Clusters (blocks of `CLUSTER`^3 cells that hold balls): `cl_start[k]..cl_start[k + 1]`
    /// indexes `cl_items`; `cl_sphere[k]` contains every ball of cluster k.
    pub cl_start: Vec<u32>,
    pub cl_items: Vec<u32>,
    pub cl_sphere: Vec<([f64; 3], f64)>,
}

/// The most cells of the grid of `n` balls: 8 per ball and 4096 more. A protein's default grid
/// (cells of twice the largest radius) has fewer than one cell per atom; far-apart balls or a
/// tiny requested cell get wider cells instead of more.
pub fn max_cells(n: usize) -> usize {
    8 * n + 4096
}

/// Cells per axis of a cluster.
pub const CLUSTER: usize = 3;

impl Grid {
    pub fn new(balls: &[Ball], cell: f64) -> Grid {
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        let mut rmax: f64 = 0.0;
        for b in balls {
            for k in 0..3 {
                lo[k] = lo[k].min(b.c[k]);
                hi[k] = hi[k].max(b.c[k]);
            }
            rmax = rmax.max(b.r);
        }
        let (cell, dims) = Self::size(lo, hi, rmax, cell, balls.len());
        let ncell = dims[0] * dims[1] * dims[2];
        let mut count = vec![0u32; ncell + 1];
        let cells: Vec<usize> = balls
            .iter()
            .map(|b| Self::cell_of(lo, cell, dims, b.c))
            .collect();
        for &c in &cells {
            count[c + 1] += 1;
        }
        for i in 0..ncell {
            count[i + 1] += count[i];
        }
        let mut fill = count.clone();
        let mut items = vec![0u32; balls.len()];
        for (i, &c) in cells.iter().enumerate() {
            items[fill[c] as usize] = i as u32;
            fill[c] += 1;
        }
        // clusters: blocks of CLUSTER^3 cells, their balls and a bounding sphere
        let bd = dims.map(|d| d.div_ceil(CLUSTER));
        let block = |c: usize| {
            let (x, y, z) = (
                c % dims[0],
                (c / dims[0]) % dims[1],
                c / (dims[0] * dims[1]),
            );
            ((z / CLUSTER) * bd[1] + y / CLUSTER) * bd[0] + x / CLUSTER
        };
        let mut byblock: Vec<(usize, u32)> = cells
            .iter()
            .enumerate()
            .map(|(i, &c)| (block(c), i as u32))
            .collect();
        byblock.sort_unstable();
        let (mut cl_start, mut cl_items, mut cl_sphere) =
            (vec![0u32], Vec::with_capacity(balls.len()), Vec::new());
        let mut k = 0;
        while k < byblock.len() {
            let mut e = k;
            while e < byblock.len() && byblock[e].0 == byblock[k].0 {
                e += 1;
            }
            let (mut a, mut b) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
            for &(_, i) in &byblock[k..e] {
                for d in 0..3 {
                    a[d] = a[d].min(balls[i as usize].c[d]);
                    b[d] = b[d].max(balls[i as usize].c[d]);
                }
            }
            let m = [0, 1, 2].map(|d| 0.5 * (a[d] + b[d]));
            let mut r: f64 = 0.0;
            for &(_, i) in &byblock[k..e] {
                let bi = balls[i as usize];
                let d = [bi.c[0] - m[0], bi.c[1] - m[1], bi.c[2] - m[2]];
                r = r.max((d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt() + bi.r);
                cl_items.push(i);
            }
            cl_start.push(cl_items.len() as u32);
            cl_sphere.push((m, r * (1.0 + 1e-12) + 1e-9));
            k = e;
        }
        Grid {
            lo,
            cell,
            dims,
            start: count,
            items,
            rmax,
            cl_start,
            cl_items,
            cl_sphere,
        }
    }

    /// The cell side and the cells per axis: `cell` (0: twice the largest radius, at least 1),
    /// widened until the grid has at most [`max_cells`] cells, so that its memory follows the
    /// number of balls, not their spread. The corners `lo`, `hi` must be finite.
    fn size(lo: [f64; 3], hi: [f64; 3], rmax: f64, cell: f64, n: usize) -> (f64, [usize; 3]) {
        let mut cell = if cell > 0.0 {
            cell
        } else {
            (2.0 * rmax).max(1.0)
        };
        let cap = max_cells(n) as f64;
        // cells per axis in f64 (an extent over a tiny cell exceeds usize); each step widens
        // the cell by the cube root of the excess (the excess's log shrinks by a third even
        // when the balls lie on a line), at least by a tenth
        let per_axis = |cell: f64| [0, 1, 2].map(|k| ((hi[k] - lo[k]) / cell).floor() + 1.0);
        loop {
            let d = per_axis(cell);
            let total = d[0] * d[1] * d[2];
            if total <= cap {
                return (cell, d.map(|x| x as usize));
            }
            cell *= (total / cap).cbrt().max(1.1);
        }
    }

    fn coord(lo: [f64; 3], cell: f64, dims: [usize; 3], p: [f64; 3], k: usize) -> usize {
        let v = ((p[k] - lo[k]) / cell).floor();
        if v < 0.0 {
            0
        } else {
            (v as usize).min(dims[k] - 1)
        }
    }

    fn cell_of(lo: [f64; 3], cell: f64, dims: [usize; 3], p: [f64; 3]) -> usize {
        let x = Self::coord(lo, cell, dims, p, 0);
        let y = Self::coord(lo, cell, dims, p, 1);
        let z = Self::coord(lo, cell, dims, p, 2);
        (z * dims[1] + y) * dims[0] + x
    }

    /// The cell box [lo, hi] (inclusive) covering a sphere around `c` of radius `rad`.
    pub fn cell_box(&self, c: [f64; 3], rad: f64) -> ([usize; 3], [usize; 3]) {
        let a = [c[0] - rad, c[1] - rad, c[2] - rad];
        let b = [c[0] + rad, c[1] + rad, c[2] + rad];
        let lo = [0, 1, 2].map(|k| Self::coord(self.lo, self.cell, self.dims, a, k));
        let hi = [0, 1, 2].map(|k| Self::coord(self.lo, self.cell, self.dims, b, k));
        (lo, hi)
    }

    /// Whether `f` holds for some ball whose centre lies in the cells covering the sphere
    /// (c, rad); stops at the first.
    pub fn any(&self, c: [f64; 3], rad: f64, mut f: impl FnMut(u32) -> bool) -> bool {
        let (lo, hi) = self.cell_box(c, rad);
        for z in lo[2]..=hi[2] {
            for y in lo[1]..=hi[1] {
                let row = (z * self.dims[1] + y) * self.dims[0];
                let (s, e) = (
                    self.start[row + lo[0]] as usize,
                    self.start[row + hi[0] + 1] as usize,
                );
                if self.items[s..e].iter().any(|&i| f(i)) {
                    return true;
                }
            }
        }
        false
    }

    /// Calls `f` with every ball whose centre lies in the cells covering the sphere (c, rad).
    pub fn for_each(&self, c: [f64; 3], rad: f64, mut f: impl FnMut(u32)) {
        self.any(c, rad, |i| {
            f(i);
            false
        });
    }
}
