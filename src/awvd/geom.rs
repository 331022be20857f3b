//! Double-precision geometry of the diagram: the tangent spheres of four balls (AWVD.md: shrink by
//! the smallest radius, the 3x4 linear system, the quadratic) and the trisector (edge curve) of
//! three balls with its parameter along the curve.

use super::Ball;

pub(crate) fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
pub(crate) fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
pub(crate) fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
pub(crate) fn axpy(s: f64, a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [b[0] + s * a[0], b[1] + s * a[1], b[2] + s * a[2]]
}
pub(crate) fn norm(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

/// A sphere: centre and (signed) radius.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sphere {
    pub c: [f64; 3],
    pub r: f64,
}

/// The tangent spheres of four balls.
#[derive(Clone, Debug, PartialEq)]
pub enum Tangent {
    /// 0, 1 or 2 spheres, in Voronota's order (radius, then x, y, z).
    Spheres(Vec<Sphere>),
    /// Infinitely many (e.g. four equal balls with collinear centres).
    Infinite,
}

fn det3(m: [[f64; 3]; 3]) -> f64 {
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
}

/// At most two values, without a heap allocation.
#[derive(Clone, Copy, Debug)]
pub struct Two<T: Copy> {
    v: [T; 2],
    n: usize,
}

impl<T: Copy> Two<T> {
    fn new(fill: T) -> Two<T> {
        Two { v: [fill; 2], n: 0 }
    }
    fn push(&mut self, x: T) {
        self.v[self.n] = x;
        self.n += 1;
    }
    pub fn len(&self) -> usize {
        self.n
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    fn retain(&mut self, f: impl Fn(&T) -> bool) {
        let mut k = 0;
        for i in 0..self.n {
            if f(&self.v[i]) {
                self.v[k] = self.v[i];
                k += 1;
            }
        }
        self.n = k;
    }
}

impl<T: Copy> IntoIterator for Two<T> {
    type Item = T;
    type IntoIter = std::iter::Take<std::array::IntoIter<T, 2>>;
    fn into_iter(self) -> Self::IntoIter {
        self.v.into_iter().take(self.n)
    }
}

/// Real roots of `a s^2 + b s + c = 0` (a, b, c not all ~0), the stable formula; `None` when the
/// equation holds for every s.
pub(crate) fn quadratic(a: f64, b: f64, c: f64, scale: f64) -> Option<Two<f64>> {
    let tiny = 1e-12 * scale.max(1e-300);
    let mut out = Two::new(0.0);
    if a.abs() <= tiny * 1e-3 {
        if b.abs() <= tiny * 1e-3 {
            return if c.abs() <= tiny { None } else { Some(out) };
        }
        out.push(-c / b);
        return Some(out);
    }
    let disc = b * b - 4.0 * a * c;
    let tol = 1e-14 * (b * b + (4.0 * a * c).abs());
    if disc < -tol {
        return Some(out);
    }
    if disc <= tol {
        out.push(-b / (2.0 * a));
        return Some(out);
    }
    let q = -0.5 * (b + b.signum() * disc.sqrt());
    let (s1, s2) = (q / a, if q != 0.0 { c / q } else { -b / a - q / a });
    out.push(s1);
    out.push(s2);
    Some(out)
}

/// The spheres tangent (externally, radius possibly negative) to the four balls: the ball with
/// the smallest radius goes to the origin and every radius shrinks by its radius; the 3x4 linear
/// system `c_i . x + r_i r = (|c_i|^2 - r_i^2) / 2` is solved for the three unknowns of the best
/// conditioned 3x3 minor as affine functions of the fourth; `|x|^2 = r^2` gives the quadratic.
/// Shrunk radii r >= 0 are kept, so final radii down to minus the smallest radius are kept.
pub fn tangent_spheres(b: [Ball; 4]) -> Tangent {
    let m = (0..4).min_by(|&i, &j| b[i].r.total_cmp(&b[j].r)).unwrap();
    let o = b[m].c;
    let rm = b[m].r;
    let mut rows = [[0.0f64; 4]; 3];
    let mut rhs = [0.0f64; 3];
    let mut k = 0;
    let mut scale: f64 = 0.0;
    for (i, bi) in b.iter().enumerate() {
        if i == m {
            continue;
        }
        let c = sub(bi.c, o);
        let r = bi.r - rm;
        rows[k] = [c[0], c[1], c[2], r];
        rhs[k] = 0.5 * (dot(c, c) - r * r);
        scale = scale.max(dot(c, c).sqrt()).max(r.abs());
        k += 1;
    }
    if scale == 0.0 {
        return Tangent::Infinite;
    }
    // the free unknown: the column whose removal leaves the largest 3x3 determinant
    let minor = |free: usize| -> [[f64; 3]; 3] {
        let mut mm = [[0.0; 3]; 3];
        for (r, row) in rows.iter().enumerate() {
            let mut c = 0;
            for (j, v) in row.iter().enumerate() {
                if j != free {
                    mm[r][c] = *v;
                    c += 1;
                }
            }
        }
        mm
    };
    let (free, det) = (0..4)
        .map(|f| (f, det3(minor(f))))
        .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))
        .unwrap();
    if det.abs() <= 1e-12 * scale * scale * scale {
        // rank < 3: no finite set of solutions this solver reports
        return Tangent::Infinite;
    }
    let mm = minor(free);
    // unknowns w (4 values) = u + s v, with w[free] = s
    let solve = |rhs: [f64; 3]| -> [f64; 3] {
        let mut out = [0.0; 3];
        for (col, o) in out.iter_mut().enumerate() {
            let mut t = mm;
            for r in 0..3 {
                t[r][col] = rhs[r];
            }
            *o = det3(t) / det;
        }
        out
    };
    let u3 = solve(rhs);
    let fcol = [rows[0][free], rows[1][free], rows[2][free]];
    let v3 = solve([-fcol[0], -fcol[1], -fcol[2]]);
    let mut u = [0.0; 4];
    let mut v = [0.0; 4];
    let mut c = 0;
    for j in 0..4 {
        if j == free {
            v[j] = 1.0;
        } else {
            u[j] = u3[c];
            v[j] = v3[c];
            c += 1;
        }
    }
    // |x|^2 - r^2 = 0
    let q = |a: [f64; 4], b: [f64; 4]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2] - a[3] * b[3];
    let (qa, qb, qc) = (q(v, v), 2.0 * q(u, v), q(u, u));
    let roots = match quadratic(qa, qb, qc, scale * scale) {
        None => return Tangent::Infinite,
        Some(r) => r,
    };
    let mut out: Vec<Sphere> = Vec::new();
    for s in roots {
        let w = [
            u[0] + s * v[0],
            u[1] + s * v[1],
            u[2] + s * v[2],
            u[3] + s * v[3],
        ];
        if !w.iter().all(|x| x.is_finite()) || w[3] < -1e-10 * scale {
            continue;
        }
        let sp = Sphere {
            c: [w[0] + o[0], w[1] + o[1], w[2] + o[2]],
            r: w[3].max(0.0) - rm,
        };
        if out
            .iter()
            .any(|p| norm(sub(p.c, sp.c)) <= 1e-12 * scale && (p.r - sp.r).abs() <= 1e-12 * scale)
        {
            continue;
        }
        out.push(sp);
    }
    out.sort_by(|a, b| {
        a.r.total_cmp(&b.r)
            .then(a.c[0].total_cmp(&b.c[0]))
            .then(a.c[1].total_cmp(&b.c[1]))
            .then(a.c[2].total_cmp(&b.c[2]))
    });
    Tangent::Spheres(out)
}

/// The largest tangency error `| |x - c_i| - (r + r_i) |` of a sphere over balls.
pub fn tangency_error(s: &Sphere, balls: &[Ball]) -> f64 {
    balls
        .iter()
        .map(|b| (norm(sub(s.c, b.c)) - (s.r + b.r)).abs())
        .fold(0.0, f64::max)
}

/// The trisector of three balls (the curve of centres of spheres tangent to all three), in the
/// frame of its smallest ball a: centre `x = c_a + p0 + r p1 + t n` (n the unit normal of the
/// centres' plane), with `t^2 = alpha r^2 + beta r + gamma` and `r + r_a >= 0`. A hyperbola (or
/// parabola) branch when alpha >= 0, ordered by t; an ellipse when alpha < 0, ordered by the angle
/// around its centre in the (r, t) plane.
#[derive(Clone, Copy, Debug)]
pub struct Trisector {
    pub ca: [f64; 3],
    pub ra: f64,
    pub p0: [f64; 3],
    pub p1: [f64; 3],
    pub n: [f64; 3],
    pub alpha: f64,
    pub beta: f64,
    pub gamma: f64,
    /// (r_c, R, T) of an ellipse
    pub ellipse: Option<(f64, f64, f64)>,
}

/// A point of a trisector, its radius r and coordinate t.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurvePoint {
    pub r: f64,
    pub t: f64,
}

impl Trisector {
    /// `None` when the centres are (nearly) collinear.
    pub fn new(g: [Ball; 3]) -> Option<Trisector> {
        let ia = (0..3)
            .min_by(|&i, &j| g[i].r.total_cmp(&g[j].r).then(i.cmp(&j)))
            .unwrap();
        let (ib, ic) = ((ia + 1) % 3, (ia + 2) % 3);
        let (a, b, c) = (g[ia], g[ib], g[ic]);
        let u1 = sub(b.c, a.c);
        let u2 = sub(c.c, a.c);
        let nn = cross(u1, u2);
        let nl = norm(nn);
        if nl <= 1e-9 * dot(u1, u1).max(dot(u2, u2)) {
            return None;
        }
        let n = [nn[0] / nl, nn[1] / nl, nn[2] / nl];
        // u_i . y = k_i - r d_i
        let k1 = 0.5 * (dot(u1, u1) - b.r * b.r + a.r * a.r);
        let k2 = 0.5 * (dot(u2, u2) - c.r * c.r + a.r * a.r);
        let (d1, d2) = (b.r - a.r, c.r - a.r);
        let (g11, g12, g22) = (dot(u1, u1), dot(u1, u2), dot(u2, u2));
        let gd = g11 * g22 - g12 * g12;
        let inplane = |h1: f64, h2: f64| {
            let l1 = (g22 * h1 - g12 * h2) / gd;
            let l2 = (g11 * h2 - g12 * h1) / gd;
            [
                l1 * u1[0] + l2 * u2[0],
                l1 * u1[1] + l2 * u2[1],
                l1 * u1[2] + l2 * u2[2],
            ]
        };
        let p0 = inplane(k1, k2);
        let p1 = inplane(-d1, -d2);
        let alpha = 1.0 - dot(p1, p1);
        let beta = 2.0 * a.r - 2.0 * dot(p0, p1);
        let gamma = a.r * a.r - dot(p0, p0);
        let ellipse = if alpha < 0.0 {
            let disc = beta * beta - 4.0 * alpha * gamma;
            if disc <= 0.0 {
                return None;
            }
            let rc = -beta / (2.0 * alpha);
            Some((
                rc,
                disc.sqrt() / (2.0 * -alpha),
                (disc / (4.0 * -alpha)).sqrt(),
            ))
        } else {
            None
        };
        Some(Trisector {
            ca: a.c,
            ra: a.r,
            p0,
            p1,
            n,
            alpha,
            beta,
            gamma,
            ellipse,
        })
    }

    pub fn point(&self, p: CurvePoint) -> Sphere {
        let y = axpy(p.t, self.n, axpy(p.r, self.p1, self.p0));
        Sphere {
            c: [self.ca[0] + y[0], self.ca[1] + y[1], self.ca[2] + y[2]],
            r: p.r,
        }
    }

    /// The curve point of a sphere tangent to the three balls.
    pub fn locate(&self, s: &Sphere) -> CurvePoint {
        CurvePoint {
            r: s.r,
            t: dot(self.n, sub(s.c, self.ca)),
        }
    }

    /// The parameter along the curve: t, or the angle on an ellipse.
    pub fn param(&self, p: CurvePoint) -> f64 {
        match self.ellipse {
            None => p.t,
            Some((rc, rr, tt)) => (p.t / tt).atan2((p.r - rc) / rr),
        }
    }

    /// How fast ball `b`'s additive distance to the curve's sphere centre less the sphere's
    /// radius changes as the curve moves from `p` with the tangent (`dr`, `dt`).
    fn gap_rate(&self, p: CurvePoint, b: &Ball, dr: f64, dt: f64) -> f64 {
        let x = self.point(p);
        let e = sub(x.c, b.c);
        let el = norm(e).max(1e-300);
        let dx = axpy(
            dt,
            self.n,
            [self.p1[0] * dr, self.p1[1] * dr, self.p1[2] * dr],
        );
        dot(e, dx) / el - dr
    }

    /// +1 or -1: the direction of the parameter in which the curve leaves `start` (a sphere
    /// tangent to the three gates and to ball `s`) with `s` outside the sphere.
    pub fn direction(&self, start: CurvePoint, s: &Ball) -> f64 {
        let (mut dr, mut dt) = (2.0 * start.t, 2.0 * self.alpha * start.r + self.beta);
        let dg = self.gap_rate(start, s, dr, dt);
        if dg < 0.0 {
            dr = -dr;
            dt = -dt;
        }
        match self.ellipse {
            None => {
                if dt >= 0.0 {
                    1.0
                } else {
                    -1.0
                }
            }
            Some((rc, rr, tt)) => {
                let cr = (start.r - rc) / rr * (dt / tt) - start.t / tt * (dr / rr);
                if cr >= 0.0 {
                    1.0
                } else {
                    -1.0
                }
            }
        }
    }

    /// Whether ball `d`, tangent to the curve's sphere at `p`, enters the spheres of the curve
    /// just after `p` in direction `dir` (its additive distance falls below the sphere's radius).
    pub fn enters(&self, p: CurvePoint, dir: f64, d: &Ball) -> bool {
        let (mut dr, mut dt) = (2.0 * p.t, 2.0 * self.alpha * p.r + self.beta);
        let forward = match self.ellipse {
            None => dt * dir,
            Some((rc, rr, tt)) => ((p.r - rc) / rr * (dt / tt) - p.t / tt * (dr / rr)) * dir,
        };
        if forward < 0.0 {
            dr = -dr;
            dt = -dt;
        }
        let dg = self.gap_rate(p, d, dr, dt);
        dg < -1e-9 * (dr.abs() + dt.abs())
    }

    /// How far `p` lies after `from` (parameter `from`) along direction `dir`: > 0 after; on an
    /// ellipse in (0, 2 pi].
    pub fn ahead(&self, from: f64, p: CurvePoint, dir: f64) -> f64 {
        let d = dir * (self.param(p) - from);
        match self.ellipse {
            None => d,
            Some(_) => {
                let tau = std::f64::consts::TAU;
                let m = d.rem_euclid(tau);
                if m == 0.0 {
                    tau
                } else {
                    m
                }
            }
        }
    }

    /// The points of the curve where ball `d` is tangent too (0, 1 or 2).
    pub fn hits(&self, d: &Ball) -> Two<CurvePoint> {
        let ud = sub(d.c, self.ca);
        let kd = 0.5 * (dot(ud, ud) - d.r * d.r + self.ra * self.ra);
        let dd = d.r - self.ra;
        let a = dot(ud, self.p1) + dd;
        let b = dot(ud, self.n);
        let c = kd - dot(ud, self.p0);
        let (al, be, ga) = (self.alpha, self.beta, self.gamma);
        let scale = dot(ud, ud).max(1.0);
        let mut out = Two::new(CurvePoint { r: 0.0, t: 0.0 });
        if b.abs() >= a.abs() {
            if b == 0.0 {
                return out;
            }
            let roots = quadratic(
                a * a - al * b * b,
                -(2.0 * a * c + be * b * b),
                c * c - ga * b * b,
                scale * scale,
            )
            .unwrap_or(Two::new(0.0));
            for r in roots {
                out.push(CurvePoint {
                    r,
                    t: (c - a * r) / b,
                });
            }
        } else {
            let roots = quadratic(
                a * a - al * b * b,
                2.0 * al * b * c + be * a * b,
                -(al * c * c + be * a * c + ga * a * a),
                scale * scale,
            )
            .unwrap_or(Two::new(0.0));
            for t in roots {
                out.push(CurvePoint {
                    r: (c - b * t) / a,
                    t,
                });
            }
        }
        // r + r_d < 0 would be an internal tangency of d (a root of the squared equation only)
        out.retain(|p| {
            p.r.is_finite() && p.t.is_finite() && p.r + self.ra >= -1e-9 && p.r + d.r >= -1e-9
        });
        out
    }

    /// A sphere (centre, radius) containing every sphere of the curve between two points
    /// (the whole ellipse on an ellipse).
    pub fn arc_bound(&self, p: CurvePoint, q: CurvePoint) -> Sphere {
        let (rlo, rhi, tlo, thi) = match self.ellipse {
            Some((rc, rr, tt)) => (rc - rr, rc + rr, -tt, tt),
            None => {
                let (tlo, thi) = (p.t.min(q.t), p.t.max(q.t));
                let rhi = p.r.max(q.r);
                let rlo = if tlo <= 0.0 && thi >= 0.0 {
                    p.r.min(q.r).min(self.apex_r())
                } else {
                    p.r.min(q.r)
                };
                (rlo, rhi, tlo, thi)
            }
        };
        let mid = self.point(CurvePoint {
            r: 0.5 * (rlo + rhi),
            t: 0.5 * (tlo + thi),
        });
        Sphere {
            c: mid.c,
            r: norm(self.p1) * 0.5 * (rhi - rlo) + 0.5 * (thi - tlo) + rhi.max(0.0) + 1e-9,
        }
    }

    /// The smallest radius of a hyperbola branch (t = 0).
    fn apex_r(&self) -> f64 {
        match quadratic(self.alpha, self.beta, self.gamma, 1.0)
            .unwrap_or(Two::new(0.0))
            .into_iter()
            .filter(|r| *r + self.ra >= -1e-9)
            .reduce(f64::max)
        {
            Some(r) => r,
            None => -self.ra,
        }
    }
}
