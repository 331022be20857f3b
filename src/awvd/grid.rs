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
}

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
        let cell = if cell > 0.0 { cell } else { (2.0 * rmax).max(1.0) };
        let dims = [0, 1, 2].map(|k| (((hi[k] - lo[k]) / cell).floor() as usize + 1).min(1024));
        let ncell = dims[0] * dims[1] * dims[2];
        let mut count = vec![0u32; ncell + 1];
        let cells: Vec<usize> = balls.iter().map(|b| Self::cell_of(lo, cell, dims, b.c)).collect();
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
        Grid { lo, cell, dims, start: count, items, rmax }
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

    /// Whether a sphere around `c` of radius `rad` covers every cell.
    pub fn covers_all(&self, c: [f64; 3], rad: f64) -> bool {
        (0..3).all(|k| c[k] - rad <= self.lo[k] && c[k] + rad >= self.lo[k] + self.cell * self.dims[k] as f64)
    }

    /// Calls `f` with every ball whose centre lies in the cells covering the sphere (c, rad).
    pub fn for_each(&self, c: [f64; 3], rad: f64, mut f: impl FnMut(u32)) {
        let (lo, hi) = self.cell_box(c, rad);
        for z in lo[2]..=hi[2] {
            for y in lo[1]..=hi[1] {
                let row = (z * self.dims[1] + y) * self.dims[0];
                let (s, e) = (self.start[row + lo[0]] as usize, self.start[row + hi[0] + 1] as usize);
                for &i in &self.items[s..e] {
                    f(i);
                }
            }
        }
    }
}
