// End-vertex search of the additively weighted Voronoi diagram (src/awvd/device.rs): one
// work-group per pending edge of a tracing level, the whole search on the device. The host gives
// the edge (three gate balls and the start vertex's fourth ball) and the start vertex's sphere;
// the balls and the grid of cells stay on the device for the whole diagram.
//
// Per edge (src/awvd/trace.rs `search_edge` is the CPU backend of the same search):
//  1. every lane builds the edge's trisector frame in double (geom.rs `Trisector`);
//  2. region 1: the balls that reach the sphere (start centre, max(start r, 0) + rmax), widened
//     twice while none has a tangency ahead; a float pass over them (unless AWVD_DOUBLE) gives
//     each ball's first tangency ahead, and every ball within AWVD_BOUND of the float minimum,
//     the start ball and any ball with a tangency within AWVD_BOUND of the start are re-checked in
//     double with the CPU backend's rules (`candidate`); the double minimum wins (ties: the
//     smaller ball index);
//  3. the winner's arc from the start is bounded by a sphere; if that sphere does not lie inside
//     region 1, region 2 is every ball that reaches it, searched the same way (a ball that does
//     not reach it cannot be tangent before the winner, so the result is exact);
//  4. the winner's sphere is checked tangent to the winner and empty (no ball of the grid
//     penetrates it by more than 1e-7) in double.
// An arc bound wider than AWVD_FAR_CELLS cells, a region 1 that would be wider, or no candidate
// near, is searched over the clusters of cells as trace.rs `search_clusters` (the edge is
// unbounded when none is found); a winner's sphere that wide is checked empty cluster by cluster.
// Anything not proven (collinear gates, a failed check) is marked for the host's exact search.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// the double geometry must round as the host's (no fused multiply-adds)
#pragma OPENCL FP_CONTRACT OFF

#define TAU 6.283185307179586
#define PI 3.141592653589793
// trace.rs AHEAD_EPS, ZERO_EPS
#define AHEAD_EPS 1e-9
#define ZERO_EPS 1e-7
// the counters of the device tracing (src/awvd/device.rs `Cnt`)
#define CNT_VERTS 0
#define CNT_CAND 1
#define CNT_PEND 2
#define CNT_HOST 3
#define CNT_OVERFLOW 4
#define CNT_RECHECK 5
#define CNT_REPLACED 6
#define CNT_DEGENERATE 7
#define CNT_COUNT 8

typedef struct {
    double ca[3], ra, p0[3], p1[3], n[3], al, be, ga;
    int ell;
    double rc, rr, tt;
} Tri;

typedef struct {
    double r, t;
} Cp;

static double d3(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// geom.rs `quadratic`: the number of real roots (0, 1, 2), -1 when it holds for every s
static int quad(double a, double b, double c, double scale, double* s) {
    double tiny = 1e-12 * fmax(scale, 1e-300);
    if (fabs(a) <= tiny * 1e-3) {
        if (fabs(b) <= tiny * 1e-3) return fabs(c) <= tiny ? -1 : 0;
        s[0] = -c / b;
        return 1;
    }
    double disc = b * b - 4.0 * a * c;
    double tol = 1e-14 * (b * b + fabs(4.0 * a * c));
    if (disc < -tol) return 0;
    if (disc <= tol) {
        s[0] = -b / (2.0 * a);
        return 1;
    }
    double q = -0.5 * (b + copysign(1.0, b) * sqrt(disc));
    s[0] = q / a;
    s[1] = q != 0.0 ? c / q : -b / a - q / a;
    return 2;
}

// geom.rs `Trisector::new`; 0 for (nearly) collinear centres
static int tri_new(double4 g0, double4 g1, double4 g2, Tri* T) {
    for (int k = 0; k < 3; k++) T->ca[k] = T->p0[k] = T->p1[k] = T->n[k] = 0.0;
    T->ra = T->al = T->be = T->ga = T->rc = 0.0;
    T->rr = T->tt = 1.0;
    T->ell = 0;
    double4 g[3] = {g0, g1, g2};
    int ia = 0;
    if (g[1].w < g[ia].w) ia = 1;
    if (g[2].w < g[ia].w) ia = 2;
    double4 a = g[ia], b = g[(ia + 1) % 3], c = g[(ia + 2) % 3];
    double u1[3] = {b.x - a.x, b.y - a.y, b.z - a.z}, u2[3] = {c.x - a.x, c.y - a.y, c.z - a.z};
    double nn[3] = {u1[1] * u2[2] - u1[2] * u2[1], u1[2] * u2[0] - u1[0] * u2[2], u1[0] * u2[1] - u1[1] * u2[0]};
    double nl = sqrt(d3(nn, nn));
    if (nl <= 1e-9 * fmax(d3(u1, u1), d3(u2, u2))) return 0;
    for (int k = 0; k < 3; k++) T->n[k] = nn[k] / nl;
    double k1 = 0.5 * (d3(u1, u1) - b.w * b.w + a.w * a.w);
    double k2 = 0.5 * (d3(u2, u2) - c.w * c.w + a.w * a.w);
    double dd1 = b.w - a.w, dd2 = c.w - a.w;
    double g11 = d3(u1, u1), g12 = d3(u1, u2), g22 = d3(u2, u2);
    double gd = g11 * g22 - g12 * g12;
    double h1[2] = {k1, -dd1}, h2[2] = {k2, -dd2};
    for (int w = 0; w < 2; w++) {
        double l1 = (g22 * h1[w] - g12 * h2[w]) / gd;
        double l2 = (g11 * h2[w] - g12 * h1[w]) / gd;
        double* p = w == 0 ? T->p0 : T->p1;
        for (int k = 0; k < 3; k++) p[k] = l1 * u1[k] + l2 * u2[k];
    }
    T->ca[0] = a.x;
    T->ca[1] = a.y;
    T->ca[2] = a.z;
    T->ra = a.w;
    T->al = 1.0 - d3(T->p1, T->p1);
    T->be = 2.0 * a.w - 2.0 * d3(T->p0, T->p1);
    T->ga = a.w * a.w - d3(T->p0, T->p0);
    T->ell = 0;
    T->rc = 0.0;
    T->rr = 1.0;
    T->tt = 1.0;
    if (T->al < 0.0) {
        double disc = T->be * T->be - 4.0 * T->al * T->ga;
        if (disc <= 0.0) return 0;
        T->ell = 1;
        T->rc = -T->be / (2.0 * T->al);
        T->rr = sqrt(disc) / (2.0 * -T->al);
        T->tt = sqrt(disc / (4.0 * -T->al));
    }
    return 1;
}

static void tri_point(const Tri* T, Cp p, double* x) {
    for (int k = 0; k < 3; k++) x[k] = T->ca[k] + ((T->p0[k] + p.r * T->p1[k]) + p.t * T->n[k]);
}

static double tri_param(const Tri* T, Cp p) { return T->ell ? atan2(p.t / T->tt, (p.r - T->rc) / T->rr) : p.t; }

// geom.rs `ahead`
static double tri_ahead(const Tri* T, double from, Cp p, double dir) {
    double d = dir * (tri_param(T, p) - from);
    if (!T->ell) return d;
    double m = fmod(d, TAU);
    if (m < 0.0) m += TAU;
    return m == 0.0 ? TAU : m;
}

// the derivative of the curve at p, oriented along `dir` when dir != 0 (else as given), and
// d(gap to ball d)/ds - dr along it
static double tri_gap_slope(const Tri* T, Cp p, double dir, double4 d, double* dr_out, double* dt_out) {
    double dr = 2.0 * p.t, dt = 2.0 * T->al * p.r + T->be;
    if (dir != 0.0) {
        double fw = T->ell ? ((p.r - T->rc) / T->rr * (dt / T->tt) - p.t / T->tt * (dr / T->rr)) * dir : dt * dir;
        if (fw < 0.0) {
            dr = -dr;
            dt = -dt;
        }
    }
    double x[3];
    tri_point(T, p, x);
    double e[3] = {x[0] - d.x, x[1] - d.y, x[2] - d.z};
    double el = fmax(sqrt(d3(e, e)), 1e-300);
    double dx[3];
    for (int k = 0; k < 3; k++) dx[k] = T->p1[k] * dr + dt * T->n[k];
    *dr_out = dr;
    *dt_out = dt;
    return d3(e, dx) / el - dr;
}

// geom.rs `direction`
static double tri_direction(const Tri* T, Cp start, double4 s) {
    double dr, dt;
    double dg = tri_gap_slope(T, start, 0.0, s, &dr, &dt);
    if (dg < 0.0) {
        dr = -dr;
        dt = -dt;
    }
    if (!T->ell) return dt >= 0.0 ? 1.0 : -1.0;
    double cr = (start.r - T->rc) / T->rr * (dt / T->tt) - start.t / T->tt * (dr / T->rr);
    return cr >= 0.0 ? 1.0 : -1.0;
}

// geom.rs `enters`
static int tri_enters(const Tri* T, Cp p, double dir, double4 d) {
    double dr, dt;
    double dg = tri_gap_slope(T, p, dir, d, &dr, &dt);
    return dg < -1e-9 * (fabs(dr) + fabs(dt));
}

// geom.rs `hits`: the curve points where ball d is tangent too
static int tri_hits(const Tri* T, double4 d, Cp* out) {
    double ud[3] = {d.x - T->ca[0], d.y - T->ca[1], d.z - T->ca[2]};
    double kd = 0.5 * (d3(ud, ud) - d.w * d.w + T->ra * T->ra);
    double dd = d.w - T->ra;
    double a = d3(ud, T->p1) + dd;
    double b = d3(ud, T->n);
    double c = kd - d3(ud, T->p0);
    double al = T->al, be = T->be, ga = T->ga;
    double scale = fmax(d3(ud, ud), 1.0);
    double s[2];
    int ns, m = 0;
    int by_r = fabs(b) >= fabs(a);
    if (by_r) {
        if (b == 0.0) return 0;
        ns = quad(a * a - al * b * b, -(2.0 * a * c + be * b * b), c * c - ga * b * b, scale * scale, s);
    } else {
        ns = quad(a * a - al * b * b, 2.0 * al * b * c + be * a * b, -(al * c * c + be * a * c + ga * a * a), scale * scale, s);
    }
    for (int i = 0; i < ns; i++) {
        Cp p;
        if (by_r) {
            p.r = s[i];
            p.t = (c - a * s[i]) / b;
        } else {
            p.r = (c - b * s[i]) / a;
            p.t = s[i];
        }
        if (isfinite(p.r) && isfinite(p.t) && p.r + T->ra >= -1e-9 && p.r + d.w >= -1e-9) out[m++] = p;
    }
    return m;
}

// trace.rs `candidate`: how far ball j's first tangency lies after the start (INFINITY: none)
static double tri_candidate(const Tri* T, double from, double dir, int is_start, double4 d, Cp* where) {
    Cp h[2];
    int nh = tri_hits(T, d, h);
    int skip = -1;
    if (is_start) {
        double bd = INFINITY;
        for (int k = 0; k < nh; k++) {
            double x = tri_param(T, h[k]) - from;
            if (T->ell) {
                x = fmod(x + PI, TAU);
                if (x < 0.0) x += TAU;
                x -= PI;
            }
            if (fabs(x) < bd) {
                bd = fabs(x);
                skip = k;
            }
        }
    }
    double best = INFINITY;
    for (int k = 0; k < nh; k++) {
        if (k == skip) continue;
        double a = tri_ahead(T, from, h[k], dir);
        if (T->ell && a >= TAU - ZERO_EPS) a -= TAU;
        if (a <= AHEAD_EPS) {
            if (is_start || a < -ZERO_EPS || !tri_enters(T, h[k], dir, d)) continue;
            a = 0.0;
        }
        if (a < best) {
            best = a;
            *where = h[k];
        }
    }
    return best;
}

// geom.rs `apex_r`
static double tri_apex_r(const Tri* T) {
    double s[2];
    int ns = quad(T->al, T->be, T->ga, 1.0, s);
    double best = -INFINITY;
    int any = 0;
    for (int i = 0; i < ns; i++)
        if (s[i] + T->ra >= -1e-9) {
            best = any ? fmax(best, s[i]) : s[i];
            any = 1;
        }
    return any ? best : -T->ra;
}

// geom.rs `arc_bound`: a sphere containing every sphere of the curve between p and q
static double4 tri_arc_bound(const Tri* T, Cp p, Cp q) {
    double rlo, rhi, tlo, thi;
    if (T->ell) {
        rlo = T->rc - T->rr;
        rhi = T->rc + T->rr;
        tlo = -T->tt;
        thi = T->tt;
    } else {
        tlo = fmin(p.t, q.t);
        thi = fmax(p.t, q.t);
        rhi = fmax(p.r, q.r);
        rlo = (tlo <= 0.0 && thi >= 0.0) ? fmin(fmin(p.r, q.r), tri_apex_r(T)) : fmin(p.r, q.r);
    }
    Cp mid = {0.5 * (rlo + rhi), 0.5 * (tlo + thi)};
    double x[3];
    tri_point(T, mid, x);
    double r = sqrt(d3(T->p1, T->p1)) * 0.5 * (rhi - rlo) + 0.5 * (thi - tlo) + fmax(rhi, 0.0) + 1e-9;
    return (double4)(x[0], x[1], x[2], r);
}

#if !AWVD_DOUBLE
// The float pass: the smallest parameter step after the start of ball d's tangencies farther
// than AWVD_BOUND from the start (INFINITY: none), and whether the ball must be re-checked in
// double whatever its step (a tangency within AWVD_BOUND of the start, or a near-zero
// discriminant that float cannot decide).
typedef struct {
    float ca[3], ra, p0[3], p1[3], n[3], al, be, ga, rc, rr, tt, from, dir;
    int ell;
} TriF;

static float f_candidate(const TriF* T, float4 d, int* forced) {
    float ux = d.x - T->ca[0], uy = d.y - T->ca[1], uz = d.z - T->ca[2];
    float uu = ux * ux + uy * uy + uz * uz;
    float kd = 0.5f * (uu - d.w * d.w + T->ra * T->ra);
    float a = ux * T->p1[0] + uy * T->p1[1] + uz * T->p1[2] + (d.w - T->ra);
    float b = ux * T->n[0] + uy * T->n[1] + uz * T->n[2];
    float c = kd - (ux * T->p0[0] + uy * T->p0[1] + uz * T->p0[2]);
    float al = T->al, be = T->be, ga = T->ga;
    int by_r = fabs(b) >= fabs(a);
    float qa, qb, qc;
    if (by_r) {
        if (b == 0.0f) return INFINITY;
        qa = a * a - al * b * b;
        qb = -(2.0f * a * c + be * b * b);
        qc = c * c - ga * b * b;
    } else {
        qa = a * a - al * b * b;
        qb = 2.0f * al * b * c + be * a * b;
        qc = -(al * c * c + be * a * c + ga * a * a);
    }
    float s[2];
    int ns = 0;
    float mag = qb * qb + fabs(4.0f * qa * qc);
    float scale = fmax(uu, 1.0f);
    if (fabs(qa) <= 1e-6f * scale * scale) {
        // nearly linear: float cannot tell the double solver's cases apart
        *forced = 1;
        return INFINITY;
    }
    float disc = qb * qb - 4.0f * qa * qc;
    if (disc < -1e-4f * mag) return INFINITY;
    if (disc <= 1e-4f * mag) *forced = 1;
    float sq = sqrt(fmax(disc, 0.0f));
    float q = -0.5f * (qb + copysign(sq, qb));
    s[0] = q / qa;
    s[1] = q != 0.0f ? qc / q : -qb / qa - s[0];
    ns = 2;
    float best = INFINITY;
    for (int i = 0; i < ns; i++) {
        float r, t;
        if (by_r) {
            r = s[i];
            t = (c - a * r) / b;
        } else {
            t = s[i];
            r = (c - b * t) / a;
        }
        if (!(r + T->ra >= -1e-3f) || !(r + d.w >= -1e-3f)) continue;
        float p = T->ell ? atan2(t / T->tt, (r - T->rc) / T->rr) : t;
        float x = T->dir * (p - T->from);
        if (T->ell) {
            x = x - (float)TAU * floor(x / (float)TAU);
            if (x > (float)TAU - (float)AWVD_BOUND) x -= (float)TAU;
        }
        if (fabs(x) <= (float)AWVD_BOUND) *forced = 1;
        else if (x > 0.0f) best = fmin(best, x);
    }
    return best;
}
#endif

typedef struct {
    __global const double4* balls;
#if !AWVD_DOUBLE
    __global const float4* fballs;
#endif
    __global const uint* start;
    __global const uint* items;
    double lo[3], cell, rmax;
    uint dims[3];
} Grid;

static Grid grid_of(__global const double4* balls, __global const uint* start, __global const uint* items, double lox, double loy,
                    double loz, double cell, uint dx, uint dy, uint dz, double rmax) {
    Grid G;
    G.balls = balls;
#if !AWVD_DOUBLE
    G.fballs = 0;
#endif
    G.start = start;
    G.items = items;
    G.lo[0] = lox;
    G.lo[1] = loy;
    G.lo[2] = loz;
    G.cell = cell;
    G.rmax = rmax;
    G.dims[0] = dx;
    G.dims[1] = dy;
    G.dims[2] = dz;
    return G;
}

static void cell_box(const Grid* G, double cx, double cy, double cz, double rad, int* lo, int* hi) {
    double c[3] = {cx, cy, cz};
    for (int k = 0; k < 3; k++) {
        double a = floor((c[k] - rad - G->lo[k]) / G->cell), b = floor((c[k] + rad - G->lo[k]) / G->cell);
        lo[k] = a < 0.0 ? 0 : (int)fmin(a, (double)(G->dims[k] - 1));
        hi[k] = b < 0.0 ? 0 : (int)fmin(b, (double)(G->dims[k] - 1));
    }
}

// FOR_BALLS_BEGIN ... FOR_BALLS_END loops the code between over ball index j of every ball
// whose centre lies in the cells covering the sphere (cx, cy, cz, rad + rmax); no ball unless
// `act`. The box's rows of cells (contiguous runs of items) go to teams of lanes,
// get_local_size(0) / rows lanes a row (one when the box has more rows than the group has lanes,
// each lane then taking every get_local_size(0)-th row): a team reads its row's bounds and takes
// turns over its items, so the rows' dependent reads of global memory overlap instead of
// following one another (the search took less time than with the whole group walking the rows
// one after another; benchmarks/INDEX.md, 2026-11-25-h100-awvd_device_tracing). No barriers: a scan in local memory to deal the items
// evenly made PoCL's kernel build run for over ten minutes.
#define FOR_BALLS_BEGIN(act, G, cx, cy, cz, rad, j)                                                  \
    {                                                                                                \
        int lo_[3], hi_[3];                                                                          \
        cell_box(G, cx, cy, cz, (rad) + (G)->rmax, lo_, hi_);                                        \
        uint ny_ = (uint)(hi_[1] - lo_[1] + 1), lid_ = get_local_id(0), ls_ = get_local_size(0);      \
        uint nrows_ = (act) ? ny_ * (uint)(hi_[2] - lo_[2] + 1) : 0u;                                \
        uint t_ = nrows_ && nrows_ < ls_ ? ls_ / nrows_ : 1u, teams_ = ls_ / t_;                     \
        for (uint r_ = lid_ / t_; r_ < nrows_ && lid_ < teams_ * t_; r_ += teams_) {                 \
            uint row_ = (((uint)lo_[2] + r_ / ny_) * (G)->dims[1] + (uint)lo_[1] + r_ % ny_) *        \
                        (G)->dims[0];                                                                \
            uint s_ = (G)->start[row_ + lo_[0]], e_ = (G)->start[row_ + hi_[0] + 1];                 \
            for (uint i_ = s_ + lid_ % t_; i_ < e_; i_ += t_) {                                      \
                uint j = (G)->items[i_];
#define FOR_BALLS_END \
    }                 \
    }                 \
    }

// A search's result: step (INFINITY: none), ball, curve point, double re-checks, whether the
// float pass's winner lost. (Values, not pointers: PoCL loses writes through pointers to private
// variables that live across a barrier.)
typedef struct {
    double a;
    int j;
    Cp h;
    uint rechecks, replaced;
} Win;

// The best (smallest step, then smallest index) over the group; every lane gets it.
static Win reduce_best(__local double* la, __local int* lj, __local double* lr, __local double* lt, double a, int j, Cp h) {
    uint lid = get_local_id(0), ls = get_local_size(0);
    la[lid] = a;
    lj[lid] = j;
    lr[lid] = h.r;
    lt[lid] = h.t;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = ls / 2; s > 0; s >>= 1) {
        if (lid < s) {
            double o = la[lid + s];
            int oj = lj[lid + s];
            if (oj >= 0 && (lj[lid] < 0 || o < la[lid] || (o == la[lid] && oj < lj[lid]))) {
                la[lid] = o;
                lj[lid] = oj;
                lr[lid] = lr[lid + s];
                lt[lid] = lt[lid + s];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    Win w;
    w.a = la[0];
    w.j = lj[0];
    w.h.r = lr[0];
    w.h.t = lt[0];
    w.rechecks = 0;
    w.replaced = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    return w;
}

static float reduce_min_f(__local double* la, float v) {
    uint lid = get_local_id(0), ls = get_local_size(0);
    la[lid] = (double)v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = ls / 2; s > 0; s >>= 1) {
        if (lid < s) la[lid] = fmin(la[lid], la[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float m = (float)la[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return m;
}

// The winner among the balls that reach the sphere c (centre, radius), with the counts.
static Win search_region(int active, Grid G, Tri T, double from, double dir, uint g0, uint g1, uint g2, uint st, double4 c,
                         __local double* la, __local int* lj, __local double* lr, __local double* lt) {
    double best = INFINITY;
    int bj = -1;
    Cp bh = {0.0, 0.0};
#if AWVD_DOUBLE
    FOR_BALLS_BEGIN(active, &G, c.x, c.y, c.z, c.w, jj)
        if (jj != g0 && jj != g1 && jj != g2) {
            double4 b = G.balls[jj];
            double dx = b.x - c.x, dy = b.y - c.y, dz = b.z - c.z;
            if (dx * dx + dy * dy + dz * dz <= (c.w + b.w) * (c.w + b.w)) {
                Cp w;
                double x = tri_candidate(&T, from, dir, jj == st, b, &w);
                if (x < best || (x == best && x < INFINITY && (int)jj < bj)) {
                    best = x;
                    bj = (int)jj;
                    bh = w;
                }
            }
        }
    FOR_BALLS_END
    Win w = reduce_best(la, lj, lr, lt, best, bj, bh);
#else
    TriF F;
    for (int k = 0; k < 3; k++) {
        F.ca[k] = (float)T.ca[k];
        F.p0[k] = (float)T.p0[k];
        F.p1[k] = (float)T.p1[k];
        F.n[k] = (float)T.n[k];
    }
    F.ra = (float)T.ra;
    F.al = (float)T.al;
    F.be = (float)T.be;
    F.ga = (float)T.ga;
    F.rc = (float)T.rc;
    F.rr = (float)T.rr;
    F.tt = (float)T.tt;
    F.from = (float)from;
    F.dir = (float)dir;
    F.ell = T.ell;
    float4 cf = (float4)((float)c.x, (float)c.y, (float)c.z, (float)c.w);
    // pass 1: the float minimum and its ball
    float fmin_v = INFINITY;
    int fj = -1;
    FOR_BALLS_BEGIN(active, &G, c.x, c.y, c.z, c.w, jj)
        if (jj != g0 && jj != g1 && jj != g2 && jj != st) {
            float4 b = G.fballs[jj];
            float dx = b.x - cf.x, dy = b.y - cf.y, dz = b.z - cf.z;
            // float slack on the reach test: a ball reaching in double must pass
            if (dx * dx + dy * dy + dz * dz <= (cf.w + b.w) * (cf.w + b.w) * 1.0001f + 1e-4f) {
                int forced = 0;
                float x = f_candidate(&F, b, &forced);
                if (x < fmin_v || (x == fmin_v && x < INFINITY && (int)jj < fj)) {
                    fmin_v = x;
                    fj = (int)jj;
                }
            }
        }
    FOR_BALLS_END
    float fm = reduce_min_f(la, fmin_v);
    // the float winner's index: the smallest ball at the minimum
    {
        uint lid = get_local_id(0);
        lj[lid] = (fmin_v == fm && fm < INFINITY) ? fj : -1;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
            if (lid < s && lj[lid + s] >= 0 && (lj[lid] < 0 || lj[lid + s] < lj[lid])) lj[lid] = lj[lid + s];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        fj = lj[0];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    // pass 2: the suspects in double
    uint n = 0;
    float lim = fm + (float)AWVD_BOUND;
    FOR_BALLS_BEGIN(active, &G, c.x, c.y, c.z, c.w, jj)
        if (jj != g0 && jj != g1 && jj != g2) {
            float4 b = G.fballs[jj];
            float dx = b.x - cf.x, dy = b.y - cf.y, dz = b.z - cf.z;
            int suspect = jj == st;
            if (!suspect && dx * dx + dy * dy + dz * dz <= (cf.w + b.w) * (cf.w + b.w) * 1.0001f + 1e-4f) {
                int forced = 0;
                float x = f_candidate(&F, b, &forced);
                suspect = forced || x <= lim;
            }
            if (suspect) {
                double4 bd = G.balls[jj];
                double ex = bd.x - c.x, ey = bd.y - c.y, ez = bd.z - c.z;
                if (ex * ex + ey * ey + ez * ez <= (c.w + bd.w) * (c.w + bd.w)) {
                    Cp w;
                    n++;
                    double x = tri_candidate(&T, from, dir, jj == st, bd, &w);
                    if (x < best || (x == best && x < INFINITY && (int)jj < bj)) {
                        best = x;
                        bj = (int)jj;
                        bh = w;
                    }
                }
            }
        }
    FOR_BALLS_END
    Win w = reduce_best(la, lj, lr, lt, best, bj, bh);
    // the re-check count: summed over the lanes
    {
        uint lid = get_local_id(0);
        lj[lid] = (int)n;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
            if (lid < s) lj[lid] += lj[lid + s];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        w.rechecks = (uint)lj[0];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    w.replaced = active && w.j >= 0 && w.a < INFINITY && w.j != fj;
#endif
    if (!(w.a < INFINITY)) w.j = -1;
    return w;
}

// trace.rs `arc_meets`: whether some sphere of the curve from s0 up to `limit` ahead meets the
// ball cs (the sign of the gap changes only at the ball's tangencies)
static int tri_arc_meets(const Tri* T, Cp s0, double from, double dir, double limit, double4 cs) {
    double x[3];
    tri_point(T, s0, x);
    double dx = x[0] - cs.x, dy = x[1] - cs.y, dz = x[2] - cs.z;
    if (sqrt(dx * dx + dy * dy + dz * dz) - cs.w - s0.r < 1e-9) return 1;
    Cp h[2];
    int nh = tri_hits(T, cs, h);
    for (int i = 0; i < nh; i++) {
        double a = tri_ahead(T, from, h[i], dir);
        if (a > -1e-9 && a <= limit + 1e-9) return 1;
    }
    return 0;
}

// Capacity of the work-group's list of clusters to scan (awvd_level's `lq`; its last entry is
// the list's length). Clusters past it are scanned by the lane that found them.
#define AWVD_CLQ 1024

// search_clusters' scan of the balls of cluster k, from its item `first` in steps of `step`
// (the whole cluster by one lane, or a lane per ball): candidates pruned by the lane's best so
// far, which they update (best, bj, bh, its arc bound `need`, `has`).
#define CLUSTER_SCAN(k, first, step)                                                              \
    for (uint i_ = clstart[k] + (first); i_ < clstart[(k) + 1]; i_ += (step)) {                   \
        uint jj = clitems[i_];                                                                    \
        if (jj == g0 || jj == g1 || jj == g2) continue;                                           \
        double4 b = G.balls[jj];                                                                  \
        double px = b.x - need.x, py = b.y - need.y, pz = b.z - need.z;                           \
        if (has && sqrt(px * px + py * py + pz * pz) > need.w + b.w) continue;                   \
        Cp w;                                                                                     \
        double x = tri_candidate(&T, from, dir, jj == st, b, &w);                                 \
        if (x < best || (x == best && x < INFINITY && (int)jj < bj)) {                            \
            best = x;                                                                             \
            bj = (int)jj;                                                                         \
            bh = w;                                                                               \
            need = tri_arc_bound(&T, s0, w);                                                      \
            has = 1;                                                                              \
        }                                                                                         \
    }

// trace.rs `search_clusters`: the exact search over every ball, pruned by clusters (a cluster's
// balls are candidates only when its bounding sphere meets a sphere of the curve between the
// start and the best so far); `known`: a candidate already found (or j < 0). In two stages: the
// lanes test the clusters and list those that meet the curve, then the whole group scans the
// listed clusters' balls (a lane per ball) — a lane scanning a whole cluster of hundreds of balls
// by itself kept the others waiting. Each lane prunes by its own best (its bound holds for the
// group's best too), so the winner is the search's whatever the order.
static Win search_clusters(int active, Grid G, Tri T, Cp s0, double from, double dir, uint g0, uint g1, uint g2, uint st, Win known,
                           __global const double4* clsph, __global const uint* clstart, __global const uint* clitems, uint ncl,
                           __local double* la, __local int* lj, __local double* lr, __local double* lt, __local uint* lq) {
    double best = known.j >= 0 ? known.a : INFINITY;
    int bj = known.j;
    Cp bh = known.h;
    int has = bj >= 0;
    double4 need = has ? tri_arc_bound(&T, s0, bh) : (double4)(0.0);
    uint lid = get_local_id(0), ls = get_local_size(0);
    if (lid == 0) lq[AWVD_CLQ] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = lid; active && k < ncl; k += ls) {
        double4 cs = clsph[k];
        double ox = cs.x - need.x, oy = cs.y - need.y, oz = cs.z - need.z;
        if (has && sqrt(ox * ox + oy * oy + oz * oz) > need.w + cs.w) continue;
        if (!tri_arc_meets(&T, s0, from, dir, best, cs)) continue;
        uint slot = atomic_inc(&lq[AWVD_CLQ]);
        if (slot < AWVD_CLQ) {
            lq[slot] = k;
            continue;
        }
        CLUSTER_SCAN(k, 0u, 1u)
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint nq = min(lq[AWVD_CLQ], (uint)AWVD_CLQ);
    for (uint c = 0; c < nq; c++) {
        uint k = lq[c];
        double4 cs = clsph[k];
        double ox = cs.x - need.x, oy = cs.y - need.y, oz = cs.z - need.z;
        if (has && sqrt(ox * ox + oy * oy + oz * oz) > need.w + cs.w) continue;
        CLUSTER_SCAN(k, lid, ls)
    }
    Win w = reduce_best(la, lj, lr, lt, best, bj, bh);
    if (!(w.a < INFINITY)) w.j = -1;
    return w;
}

// geom.rs `det3`
static double det3(const double m[3][3]) {
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

// f64::total_cmp's a < b for finite values (-0.0 before 0.0)
static int total_lt(double a, double b) { return a < b || (a == b && signbit(a) && !signbit(b)); }
static int total_eq(double a, double b) { return a == b && !signbit(a) == !signbit(b); }

// geom.rs `tangent_spheres` of the four balls b (in the host's order): the number of spheres
// (0, 1 or 2) in `out`, sorted as the host sorts them; -1 for infinitely many (or a rank < 3
// system the host does not solve).
static int tangent_spheres(const double4 b[4], double4 out[2]) {
    int m = 0;
    for (int i = 1; i < 4; i++)
        if (b[i].w < b[m].w) m = i;
    double o[3] = {b[m].x, b[m].y, b[m].z};
    double rm = b[m].w;
    double rows[3][4], rhs[3];
    int k = 0;
    double scale = 0.0;
    for (int i = 0; i < 4; i++) {
        if (i == m) continue;
        double c[3] = {b[i].x - o[0], b[i].y - o[1], b[i].z - o[2]};
        double r = b[i].w - rm;
        rows[k][0] = c[0];
        rows[k][1] = c[1];
        rows[k][2] = c[2];
        rows[k][3] = r;
        rhs[k] = 0.5 * (d3(c, c) - r * r);
        scale = fmax(fmax(scale, sqrt(d3(c, c))), fabs(r));
        k++;
    }
    if (scale == 0.0) return -1;
    // the free unknown: the column whose removal leaves the largest 3x3 determinant (the last
    // of equals, as Rust's max_by)
    int free = 0;
    double det = 0.0;
    for (int f = 0; f < 4; f++) {
        double mm[3][3];
        for (int r = 0; r < 3; r++) {
            int c = 0;
            for (int j = 0; j < 4; j++)
                if (j != f) mm[r][c++] = rows[r][j];
        }
        double d = det3(mm);
        if (f == 0 || fabs(d) >= fabs(det)) {
            free = f;
            det = d;
        }
    }
    if (fabs(det) <= 1e-12 * scale * scale * scale) return -1;
    double mm[3][3];
    for (int r = 0; r < 3; r++) {
        int c = 0;
        for (int j = 0; j < 4; j++)
            if (j != free) mm[r][c++] = rows[r][j];
    }
    double u3[3], v3[3];
    for (int col = 0; col < 3; col++) {
        double t[3][3], t2[3][3];
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) t[r][c] = t2[r][c] = mm[r][c];
        for (int r = 0; r < 3; r++) {
            t[r][col] = rhs[r];
            t2[r][col] = -rows[r][free];
        }
        u3[col] = det3(t) / det;
        v3[col] = det3(t2) / det;
    }
    double u[4], v[4];
    int c = 0;
    for (int j = 0; j < 4; j++) {
        if (j == free) {
            u[j] = 0.0;
            v[j] = 1.0;
        } else {
            u[j] = u3[c];
            v[j] = v3[c];
            c++;
        }
    }
    double qa = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] - v[3] * v[3];
    double qb = 2.0 * (u[0] * v[0] + u[1] * v[1] + u[2] * v[2] - u[3] * v[3]);
    double qc = u[0] * u[0] + u[1] * u[1] + u[2] * u[2] - u[3] * u[3];
    double roots[2];
    int nr = quad(qa, qb, qc, scale * scale, roots);
    if (nr < 0) return -1;
    int n = 0;
    for (int i = 0; i < nr; i++) {
        double s = roots[i];
        double w[4];
        int finite = 1;
        for (int j = 0; j < 4; j++) {
            w[j] = u[j] + s * v[j];
            finite = finite && isfinite(w[j]);
        }
        if (!finite || w[3] < -1e-10 * scale) continue;
        double4 sp = (double4)(w[0] + o[0], w[1] + o[1], w[2] + o[2], fmax(w[3], 0.0) - rm);
        if (n == 1) {
            double d[3] = {out[0].x - sp.x, out[0].y - sp.y, out[0].z - sp.z};
            if (sqrt(d3(d, d)) <= 1e-12 * scale && fabs(out[0].w - sp.w) <= 1e-12 * scale) continue;
        }
        out[n++] = sp;
    }
    if (n == 2) {
        double4 a = out[0], b2 = out[1];
        // by (r, x, y, z) in total order
        int swap = total_lt(b2.w, a.w)
            || (total_eq(b2.w, a.w) && (total_lt(b2.x, a.x) || (total_eq(b2.x, a.x) && (total_lt(b2.y, a.y) || (total_eq(b2.y, a.y) && total_lt(b2.z, a.z))))));
        if (swap) {
            out[0] = b2;
            out[1] = a;
        }
    }
    return n;
}

// trace.rs `make_vertex`: the quadruple sorted, and of its tangent spheres the one nearest the
// found sphere `approx` (its index is the vertex's `which`); the found sphere itself when the
// quadruple has no finite tangent spheres. Returns `which`.
static uint make_vertex(__global const double4* balls, uint q[4], double4 approx, double4* s) {
    for (int a = 1; a < 4; a++)
        for (int b = a; b > 0 && q[b - 1] > q[b]; b--) {
            uint t = q[b];
            q[b] = q[b - 1];
            q[b - 1] = t;
        }
    double4 bs[4] = {balls[q[0]], balls[q[1]], balls[q[2]], balls[q[3]]};
    double4 list[2];
    int n = tangent_spheres(bs, list);
    uint which = 0;
    *s = approx;
    double best = 0.0;
    for (int k = 0; k < n; k++) {
        double d[3] = {list[k].x - approx.x, list[k].y - approx.y, list[k].z - approx.z};
        double dk = sqrt(d3(d, d)) + fabs(list[k].w - approx.w);
        if (k == 0 || total_lt(dk, best)) {
            best = dk;
            which = (uint)k;
            *s = list[k];
        }
    }
    return which;
}

// awvd_level's emptiness check of a wide sphere (centre x, radius h.r) over the balls of
// cluster k, from its item `first` in steps of `step`: `bad` when one other than the edge's and
// the winner's penetrates it by more than 1e-7.
#define WIDE_SCAN(k, first, step)                                                                 \
    for (uint i_ = clstart[k] + (first); i_ < clstart[(k) + 1]; i_ += (step)) {                   \
        uint jj = clitems[i_];                                                                    \
        if (jj == ed.x || jj == ed.y || jj == ed.z || (int)jj == j) continue;                     \
        double4 b = balls[jj];                                                                    \
        double qx = b.x - x[0], qy = b.y - x[1], qz = b.z - x[2];                                 \
        double d_ = sqrt(qx * qx + qy * qy + qz * qz);                                            \
        if (d_ < h.r + b.w - 1e-7) bad = 1;                                                       \
        if (fabs(d_ - h.r - b.w) <= AWVD_ON_SPHERE_TOL) onsph++;                            \
    }

__kernel void awvd_level(__global const double4* balls,
#if !AWVD_DOUBLE
                         __global const float4* fballs,
#endif
                         __global const uint* cell_start, __global const uint* cell_items, double lox, double loy, double loz,
                         double cell, uint dx, uint dy, uint dz, double rmax, __global const double4* clsph,
                         __global const uint* clstart, __global const uint* clitems, uint ncl, __global const uint* refs,
                         __global const uint4* vq, __global const double4* vs, __global uint* outu, __global double4* outs,
                         __global uint* cnt, __global uint* hostlist, __local double* la, __local int* lj, __local double* lr,
                         __local double* lt, uint first) {
    __local uint lq[AWVD_CLQ + 1];
    // a level goes out in launches of pieces (the host may stop between them): group g of a
    // launch searches edge first + g
    uint e = first + get_group_id(0);
    Grid G = grid_of(balls, cell_start, cell_items, lox, loy, loz, cell, dx, dy, dz, rmax);
#if !AWVD_DOUBLE
    G.fballs = fballs;
#endif
    // the edge: vertex v's three balls other than its k-th (in the quadruple's order, as
    // trace.rs `Tables::edges`), leaving ball q[k], from v's sphere
    uint ref = refs[e], k = ref & 3u;
    uint4 qv = vq[ref >> 2];
    uint qa[4] = {qv.x, qv.y, qv.z, qv.w}, ga[3], gn = 0;
    for (uint t = 0; t < 4; t++)
        if (t != k) ga[gn++] = qa[t];
    uint4 ed = (uint4)(ga[0], ga[1], ga[2], qa[k]);
    double4 sp = vs[ref >> 2];
    uint rechecks = 0, replaced = 0;
    Tri T;
    // every lane computes the same frame, so every condition below is uniform in the group
    int ok = tri_new(balls[ed.x], balls[ed.y], balls[ed.z], &T);
    double m[3] = {sp.x - T.ca[0], sp.y - T.ca[1], sp.z - T.ca[2]};
    Cp s0 = {sp.w, d3(T.n, m)};
    double from = ok ? tri_param(&T, s0) : 0.0;
    double dir = ok ? tri_direction(&T, s0, balls[ed.w]) : 1.0;
    int j = -1;
    Cp h = {0.0, 0.0};
    double rad = fmax(sp.w, 0.0) + rmax;
    double4 region = (double4)(sp.x, sp.y, sp.z, rad);
    // phase 0..2: region 1, doubled while empty; 3: the winner's arc bound; 4: done; 5: failed;
    // 6: the clusters (a far arc, or nothing near); 7: unbounded
    // a start sphere wider than the far-arc bound (near the surface) goes to the clusters at
    // once: its region's cells would hold much of the structure
    double far = AWVD_FAR_CELLS * cell;
    int phase = !ok ? 5 : rad > far ? 6 : 0;
    Win known;
    known.j = -1;
    known.a = INFINITY;
    known.h = h;
    // `phase` is uniform in the group, so the loop's exit is too: it ends as soon as the
    // search is decided (a little faster than every group running all four steps, and PoCL
    // builds it as fast; the same exit around the cluster search below made PoCL's build much
    // longer for almost no gain)
    for (int step = 0; step < 4 && phase < 4; step++) {
        Win w = search_region(1, G, T, from, dir, ed.x, ed.y, ed.z, ed.w, region, la, lj, lr, lt);
        rechecks += w.rechecks;
        replaced += w.replaced;
        j = w.j;
        h = w.h;
        if (phase == 3) {
            phase = j >= 0 ? 4 : 5;
        } else if (j >= 0) {
            double4 need = tri_arc_bound(&T, s0, h);
            double ox = need.x - region.x, oy = need.y - region.y, oz = need.z - region.z;
            if (sqrt(ox * ox + oy * oy + oz * oz) + need.w <= region.w) {
                phase = 4;
            } else if (need.w > AWVD_FAR_CELLS * cell) {
                phase = 6;
                known = w;
            } else {
                phase = 3;
                region = need;
            }
        } else if (phase == 2 || 2.0 * rad > far) {
            phase = 6;
        } else {
            phase++;
            rad *= 2.0;
            region.w = rad;
        }
    }
    {
        Win w = search_clusters(phase == 6, G, T, s0, from, dir, ed.x, ed.y, ed.z, ed.w, known, clsph, clstart, clitems, ncl, la, lj, lr, lt, lq);
        if (phase == 6) {
            phase = w.j >= 0 ? 4 : 7;
            j = w.j;
            h = w.h;
        }
    }
    // the winner's sphere: tangent to it and empty (no other ball penetrates it by 1e-7)
    int found = phase == 4;
    double x[3];
    tri_point(&T, h, x);
    double4 bw = balls[found ? j : ed.x];
    double tx = x[0] - bw.x, ty = x[1] - bw.y, tz = x[2] - bw.z;
    found = found && fabs(sqrt(tx * tx + ty * ty + tz * tz) - (h.r + bw.w)) <= 1e-6;
    // bad: a ball inside the sphere; onsph: the other balls on it (src/awvd/mod.rs
    // ON_SPHERE_TOL, MAX_ON_SPHERE), counted for the degenerate input's refusal
    uint bad = 0, onsph = 0;
    // a sphere wider than the far-arc bound is checked cluster by cluster (a lane per cluster):
    // a ball of cluster k (centre within cs.w - r of the cluster's centre) can reach into the
    // sphere only when the cluster's centre lies within h.r + cs.w of the sphere's
    int wide = h.r > far;
    FOR_BALLS_BEGIN(found && !wide, &G, x[0], x[1], x[2], h.r, jj)
        if (jj != ed.x && jj != ed.y && jj != ed.z && (int)jj != j) {
            double4 b = balls[jj];
            double qx = b.x - x[0], qy = b.y - x[1], qz = b.z - x[2];
            double d = sqrt(qx * qx + qy * qy + qz * qz);
            if (d < h.r + b.w - 1e-7) bad = 1;
            if (fabs(d - h.r - b.w) <= AWVD_ON_SPHERE_TOL) onsph++;
        }
    FOR_BALLS_END
    // (listed as in search_clusters, then scanned a lane per ball)
    if (get_local_id(0) == 0) lq[AWVD_CLQ] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = get_local_id(0); found && wide && k < ncl; k += get_local_size(0)) {
        double4 cs = clsph[k];
        double ox = cs.x - x[0], oy = cs.y - x[1], oz = cs.z - x[2];
        if (sqrt(ox * ox + oy * oy + oz * oz) > h.r + cs.w + 1e-6) continue;
        uint slot = atomic_inc(&lq[AWVD_CLQ]);
        if (slot < AWVD_CLQ) {
            lq[slot] = k;
            continue;
        }
        WIDE_SCAN(k, 0u, 1u)
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint nq = min(lq[AWVD_CLQ], (uint)AWVD_CLQ);
    for (uint c = 0; c < nq; c++) {
        uint k = lq[c];
        WIDE_SCAN(k, get_local_id(0), get_local_size(0))
    }
    lj[get_local_id(0)] = (int)bad;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (get_local_id(0) < s) lj[get_local_id(0)] |= lj[get_local_id(0) + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    found = found && lj[0] == 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    lj[get_local_id(0)] = (int)onsph;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (get_local_id(0) < s) lj[get_local_id(0)] += lj[get_local_id(0) + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    // the sphere's own four balls and the others on it
    int degen = found && 4 + lj[0] > AWVD_MAX_ON_SPHERE;
#ifdef AWVD_HOST_EVERY
    // a test's hook (src/awvd/device.rs `AwvdDevice::host_every`): every AWVD_HOST_EVERY-th edge
    // reference goes to the host's search
    if (ref % AWVD_HOST_EVERY == 0u && phase != 7) found = 0;
#endif
    if (get_local_id(0) == 0) {
        // per edge: the end ball (-1: for the host's search, -2: unbounded), the end vertex's
        // sorted quadruple and `which`, the counts; its sphere in outs
        uint q[4] = {ed.x, ed.y, ed.z, found ? (uint)j : 0u};
        double4 vsph = (double4)(0.0);
        uint which = found ? make_vertex(balls, q, (double4)(x[0], x[1], x[2], h.r), &vsph) : 0u;
        __global uint* o = outu + 8 * (size_t)e;
        o[0] = (uint)(found ? j : phase == 7 ? -2 : -1);
        o[1] = q[0];
        o[2] = q[1];
        o[3] = q[2];
        o[4] = q[3];
        o[5] = which;
        o[6] = rechecks;
        o[7] = replaced;
        outs[e] = vsph;
        if (!found && phase != 7) hostlist[atomic_inc(&cnt[CNT_HOST])] = ref;
        if (rechecks) atomic_add(&cnt[CNT_RECHECK], rechecks);
        if (replaced) atomic_add(&cnt[CNT_REPLACED], replaced);
        if (degen) atomic_inc(&cnt[CNT_DEGENERATE]);
    }
}

// ---- The vertex table on the device (src/awvd/device.rs `DeviceTrace`) ----
// Vertices by id: sorted quadruple vq, which sphere vw, sphere vs, and adj: the far end of the
// edge opposite each ball (-2 not yet known, -1 unbounded). An open-addressing hash table of
// 2^k slots maps a vertex's key (quadruple, which) to it: 0 empty, id + 1 a vertex, AWVD_REP | i
// the end vertex of edge i of the batch being inserted (its key is in outu; the batch's new
// vertices get their ids in awvd_new, which rewrites these slots). A batch is a tracing level
// (refs: the edges as vertex * 4 + k) or the host's results (its searches, restarts).
#define AWVD_REP 0x80000000u
// tgt of an edge: a vertex id, AWVD_REP | the edge whose new vertex it shares, or these
#define AWVD_NONE 0xffffffffu
#define AWVD_SKIP 0xfffffffeu

static uint key_hash(uint4 q, uint w) {
    ulong x = ((ulong)q.x << 32 | q.y) * 0x9e3779b97f4a7c15ul;
    x ^= ((ulong)q.z << 32 | q.w) + (x >> 29);
    x *= 0xbf58476d1ce4e5b9ul;
    x ^= (ulong)w + (x >> 31);
    x *= 0x94d049bb133111ebul;
    return (uint)(x >> 32);
}

// Resets the counters named by mask (bit i: cnt[i]).
__kernel void awvd_begin(__global uint* cnt, uint mask) {
    for (uint i = 0; i < CNT_COUNT; i++)
        if (mask & (1u << i)) cnt[i] = 0;
}

// Each end vertex of the batch looked up, and inserted when new: tgt[i] is the vertex's id, or
// AWVD_REP | r where edge r of the batch holds the slot of a new one (slotof[r]); AWVD_NONE for
// an unbounded edge, AWVD_SKIP for one left to the host.
__kernel void awvd_insert(uint n, __global const uint* outu, __global uint* hash, uint hmask, __global const uint4* vq,
                          __global const uint* vw, __global uint* tgt, __global uint* slotof, __global uint* cnt) {
    uint i = get_global_id(0);
    if (i >= n) return;
    __global const uint* o = outu + 8 * (size_t)i;
    int j = (int)o[0];
    if (j < 0) {
        tgt[i] = j == -2 ? AWVD_NONE : AWVD_SKIP;
        return;
    }
    uint4 q = (uint4)(o[1], o[2], o[3], o[4]);
    uint w = o[5];
    uint h = key_hash(q, w) & hmask;
    for (uint probe = 0; probe <= hmask; probe++) {
        uint s = hash[h];
        if (s == 0u) {
            s = atomic_cmpxchg(&hash[h], 0u, AWVD_REP | i);
            if (s == 0u) {
                tgt[i] = AWVD_REP | i;
                slotof[i] = h;
                return;
            }
        }
        if (s & AWVD_REP) {
            __global const uint* p = outu + 8 * (size_t)(s & ~AWVD_REP);
            if (p[1] == q.x && p[2] == q.y && p[3] == q.z && p[4] == q.w && p[5] == w) {
                tgt[i] = s;
                return;
            }
        } else {
            uint4 r = vq[s - 1u];
            if (r.x == q.x && r.y == q.y && r.z == q.z && r.w == q.w && vw[s - 1u] == w) {
                tgt[i] = s - 1u;
                return;
            }
        }
        h = (h + 1u) & hmask;
    }
    // a full table (cannot happen below the vertex capacity): the host grows the tables
    tgt[i] = AWVD_SKIP;
    cnt[CNT_OVERFLOW] = 1u;
}

// The batch's new vertices get ids (in any order: the result is sorted by key at the end), go
// into the table, touch their balls, and queue their four edges as candidates (cand).
__kernel void awvd_new(uint n, __global const uint* outu, __global const double4* outs, __global const uint* tgt,
                       __global const uint* slotof, __global uint* hash, __global uint4* vq, __global uint* vw,
                       __global double4* vs, __global int4* adj, __global uint* touched, __global uint* newid,
                       __global uint* cand, __global uint* cnt, uint cap) {
    uint i = get_global_id(0);
    if (i >= n || tgt[i] != (AWVD_REP | i)) return;
    uint id = atomic_inc(&cnt[CNT_VERTS]);
    if (id >= cap) {
        cnt[CNT_OVERFLOW] = 1u;
        newid[i] = AWVD_NONE;
        return;
    }
    __global const uint* o = outu + 8 * (size_t)i;
    uint4 q = (uint4)(o[1], o[2], o[3], o[4]);
    vq[id] = q;
    vw[id] = o[5];
    vs[id] = outs[i];
    adj[id] = (int4)(-2);
    touched[q.x] = 1u;
    touched[q.y] = 1u;
    touched[q.z] = 1u;
    touched[q.w] = 1u;
    hash[slotof[i]] = id + 1u;
    newid[i] = id;
    uint c = atomic_add(&cnt[CNT_CAND], 4u);
    for (uint k = 0; k < 4; k++) cand[c + k] = 4u * id + k;
}

// The far end (id) of edge i of the batch and the index (kk) of its end ball in it; 0 when the
// edge has none (unbounded, left to the host, a restart, a full table).
static int far_end(uint i, __global const uint* refs, __global const uint* outu, __global const uint* tgt,
                   __global const uint* newid, uint* id, uint* kk) {
    uint r = refs[i], t = tgt[i];
    if (r == AWVD_NONE || t == AWVD_SKIP || t == AWVD_NONE) return 0;
    *id = (t & AWVD_REP) ? newid[t & ~AWVD_REP] : t;
    if (*id == AWVD_NONE) return 0;
    __global const uint* o = outu + 8 * (size_t)i;
    *kk = o[1] == o[0] ? 0u : o[2] == o[0] ? 1u : o[3] == o[0] ? 2u : 3u;
    return 1;
}

// Whether vertex a's key (quadruple, which) comes before vertex b's.
static int key_less(__global const uint4* vq, __global const uint* vw, uint a, uint b) {
    uint4 x = vq[a], y = vq[b];
    if (x.x != y.x) return x.x < y.x;
    if (x.y != y.y) return x.y < y.y;
    if (x.z != y.z) return x.z < y.z;
    if (x.w != y.w) return x.w < y.w;
    return vw[a] < vw[b];
}

// Links are made in three passes so that the result does not depend on the order of the
// device's work-items (trace.rs `Tables::absorb` follows the same rules): first each end
// vertex's edge back toward the start, where still unknown, to the start vertex with the
// smallest key among the batch's edges that end there (marked AWVD_MARK while the batch runs);
// then each edge's own search, which wins over a link back; then the marks cleared.
#define AWVD_MARK 0x40000000
__kernel void awvd_back(uint n, __global const uint* refs, __global const uint* outu, __global const uint* tgt,
                        __global const uint* newid, __global int* adj, __global const uint4* vq, __global const uint* vw) {
    uint i = get_global_id(0), id, kk;
    if (i >= n || !far_end(i, refs, outu, tgt, newid, &id, &kk)) return;
    uint v = refs[i] >> 2;
    volatile __global int* a = &adj[4u * id + kk];
    for (;;) {
        int cur = *a;
        if (cur == -2) {
            if (atomic_cmpxchg(a, -2, (int)v | AWVD_MARK) == -2) return;
        } else if (cur >= 0 && (cur & AWVD_MARK)) {
            uint c = (uint)(cur & ~AWVD_MARK);
            if (c == v || !key_less(vq, vw, v, c)) return;
            if (atomic_cmpxchg(a, cur, (int)v | AWVD_MARK) == cur) return;
        } else {
            return;
        }
    }
}

// Each edge of the batch linked to its far end (-1: unbounded).
__kernel void awvd_link(uint n, __global const uint* refs, __global const uint* outu, __global const uint* tgt,
                        __global const uint* newid, __global int* adj) {
    uint i = get_global_id(0), id, kk;
    if (i >= n) return;
    uint r = refs[i];
    if (r == AWVD_NONE) return;
    if (tgt[i] == AWVD_NONE) adj[r] = -1;
    else if (far_end(i, refs, outu, tgt, newid, &id, &kk)) adj[r] = (int)id;
}

// The marks of awvd_back cleared.
__kernel void awvd_unmark(uint n, __global const uint* refs, __global const uint* outu, __global const uint* tgt,
                          __global const uint* newid, __global int* adj) {
    uint i = get_global_id(0), id, kk;
    if (i >= n || !far_end(i, refs, outu, tgt, newid, &id, &kk)) return;
    int cur = adj[4u * id + kk];
    if (cur >= 0 && (cur & AWVD_MARK)) adj[4u * id + kk] = cur & ~AWVD_MARK;
}

// The next level: the candidates whose edge is still unknown.
__kernel void awvd_compact(__global const uint* cand, __global const int* adj, __global uint* refs, __global uint* cnt) {
    uint i = get_global_id(0);
    if (i >= cnt[CNT_CAND]) return;
    uint c = cand[i];
    if (adj[c] == -2) refs[atomic_inc(&cnt[CNT_PEND])] = c;
}

// trace.rs `loose_contacts`, one work-item per ball i: the triples (i, j, k), i < j < k, whose
// trisector is an ellipse with its smallest sphere valid (radius between minus the smallest
// radius and rmax) and empty (tolerance 1e-9): that sphere's centre is a point of a vertex-free
// elliptic edge, so the three pairs share faces. Found triples go to `out` (up to `cap`; the
// count goes on past it); a ball with more than AWVD_NB near balls is flagged for the host. The
// balls go in launches of pieces (the host may stop between them): balls first .. end - 1.
#define AWVD_NB 160
__kernel void awvd_loose(__global const double4* balls, uint end, __global const uint* cell_start,
                         __global const uint* cell_items, double lox, double loy, double loz, double cell, uint dx, uint dy,
                         uint dz, double rmax, __global uint* count, __global uint4* out, uint cap, __global uint* host,
                         uint first) {
    uint i = first + get_global_id(0);
    // host[i] != 0 on entry: a hidden ball (trace.rs `hidden`), which has no contact
    if (i >= end || host[i] != 0) return;
    Grid G = grid_of(balls, cell_start, cell_items, lox, loy, loz, cell, dx, dy, dz, rmax);
    double4 bi = balls[i];
    uint nb[AWVD_NB];
    uint n = 0;
    int lo[3], hi[3];
    cell_box(&G, bi.x, bi.y, bi.z, bi.w + 3.0 * rmax, lo, hi);
    for (int z = lo[2]; z <= hi[2]; z++)
        for (int y = lo[1]; y <= hi[1]; y++) {
            uint row = ((uint)z * dy + (uint)y) * dx;
            for (uint t = cell_start[row + lo[0]]; t < cell_start[row + hi[0] + 1]; t++) {
                uint j = cell_items[t];
                if (j <= i) continue;
                double4 bj = balls[j];
                double ex = bj.x - bi.x, ey = bj.y - bi.y, ez = bj.z - bi.z;
                double lim = bi.w + bj.w + 2.0 * rmax;
                if (ex * ex + ey * ey + ez * ez > lim * lim) continue;
                if (n == AWVD_NB) {
                    host[i] = 1;
                    return;
                }
                nb[n++] = j;
            }
        }
    // ascending j, as the host's list
    for (uint a = 1; a < n; a++) {
        uint v = nb[a];
        uint b = a;
        while (b > 0 && nb[b - 1] > v) {
            nb[b] = nb[b - 1];
            b--;
        }
        nb[b] = v;
    }
    for (uint x = 0; x < n; x++) {
        double4 bj = balls[nb[x]];
        for (uint y = x + 1; y < n; y++) {
            double4 bk = balls[nb[y]];
            double ex = bk.x - bj.x, ey = bk.y - bj.y, ez = bk.z - bj.z;
            double lim = bj.w + bk.w + 2.0 * rmax;
            if (ex * ex + ey * ey + ez * ez > lim * lim) continue;
            Tri T;
            if (!tri_new(bi, bj, bk, &T) || !T.ell) continue;
            Cp p = {T.rc - T.rr, 0.0};
            double c[3];
            tri_point(&T, p, c);
            double ra = fmin(fmin(bi.w, bj.w), bk.w);
            if (!(p.r + ra >= 0.0 && p.r <= rmax)) continue;
            int empty = 1;
            int l2[3], h2[3];
            cell_box(&G, c[0], c[1], c[2], p.r + rmax, l2, h2);
            for (int z = l2[2]; z <= h2[2] && empty; z++)
                for (int yy = l2[1]; yy <= h2[1] && empty; yy++) {
                    uint row = ((uint)z * dy + (uint)yy) * dx;
                    for (uint t = cell_start[row + l2[0]]; t < cell_start[row + h2[0] + 1]; t++) {
                        uint m = cell_items[t];
                        if (m == i || m == nb[x] || m == nb[y]) continue;
                        double4 bm = balls[m];
                        double qx = bm.x - c[0], qy = bm.y - c[1], qz = bm.z - c[2];
                        if (sqrt(qx * qx + qy * qy + qz * qz) < p.r + bm.w - 1e-9) {
                            empty = 0;
                            break;
                        }
                    }
                }
            if (empty) {
                uint slot = atomic_inc(count);
                if (slot < cap) out[slot] = (uint4)(i, nb[x], nb[y], 0);
            }
        }
    }
}
