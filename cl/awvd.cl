// End-vertex search of the additively weighted Voronoi diagram (src/awvd/device.rs): one
// work-group per pending edge of a tracing level. The host gives each edge's trisector frame
// (computed in double, AWVD_FRAME values) and a search region; the group scans the balls of the
// grid cells covering the region, computes each candidate's first tangency along the edge in FP
// (float or double by AWVD_DOUBLE), reduces to the minimum and writes every candidate within
// AWVD_BOUND of it (parameter units: Å of t on a hyperbola, radians on an ellipse) as a suspect
// for the host's double re-check.
#if AWVD_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double FP;
#else
typedef float FP;
#endif

#define AWVD_FRAME 28
#define TAU_FP ((FP)6.283185307179586)

// smallest parameter step that counts as a new vertex
#define AHEAD_EPS ((FP)AWVD_AHEAD_EPS)

static FP awvd_param(const FP* f, FP r, FP t) {
    if (f[16] != (FP)0) return atan2(t / f[19], (r - f[17]) / f[18]);
    return t;
}

static FP awvd_ahead(const FP* f, FP r, FP t, int is_start) {
    FP d = f[21] * (awvd_param(f, r, t) - f[20]);
    if (f[16] != (FP)0) {
        d = d - TAU_FP * floor(d / TAU_FP);
        if (d == (FP)0) d = TAU_FP;
        if (is_start && d >= TAU_FP - AHEAD_EPS) return INFINITY;
    }
    return d > AHEAD_EPS ? d : INFINITY;
}

// the first tangency of ball (c, rd) along the edge, INFINITY if none
static FP awvd_candidate(const FP* f, FP cx, FP cy, FP cz, FP rd, int is_start) {
    FP ux = cx - f[0], uy = cy - f[1], uz = cz - f[2];
    FP ra = f[3];
    FP uu = ux * ux + uy * uy + uz * uz;
    FP kd = (FP)0.5 * (uu - rd * rd + ra * ra);
    FP a = ux * f[7] + uy * f[8] + uz * f[9] + (rd - ra);
    FP b = ux * f[10] + uy * f[11] + uz * f[12];
    FP c = kd - (ux * f[4] + uy * f[5] + uz * f[6]);
    FP al = f[13], be = f[14], ga = f[15];
    FP qa, qb, qc;
    int by_t = !(fabs(b) >= fabs(a));
    if (!by_t) {
        if (b == (FP)0) return INFINITY;
        qa = a * a - al * b * b; qb = -((FP)2 * a * c + be * b * b); qc = c * c - ga * b * b;
    } else {
        qa = a * a - al * b * b; qb = (FP)2 * al * b * c + be * a * b; qc = -(al * c * c + be * a * c + ga * a * a);
    }
    FP s[2];
    int ns = 0;
    FP scale = fmax(uu, (FP)1);
    if (fabs(qa) <= (FP)1e-15 * scale * scale) {
        if (fabs(qb) > (FP)0) { s[0] = -qc / qb; ns = 1; }
    } else {
        FP disc = qb * qb - (FP)4 * qa * qc;
        if (disc >= (FP)0) {
            FP q = (FP)-0.5 * (qb + copysign(sqrt(disc), qb));
            s[0] = q / qa;
            s[1] = q != (FP)0 ? qc / q : -qb / qa - s[0];
            ns = 2;
        }
    }
    FP best = INFINITY;
    for (int i = 0; i < ns; i++) {
        FP r, t;
        if (!by_t) { r = s[i]; t = (c - a * r) / b; } else { t = s[i]; r = (c - b * t) / a; }
        if (!(r + ra >= (FP)-1e-6)) continue;
        FP d = awvd_ahead(f, r, t, is_start);
        best = fmin(best, d);
    }
    return best;
}

__kernel void awvd_search(__global const FP* balls, __global const uint* cell_start, __global const uint* cell_items,
                          FP lox, FP loy, FP loz, FP cell, uint dx, uint dy, uint dz, FP rmax,
                          __global const uint* edges, __global const FP* frames,
                          __global int* winner, __global uint* nsus, __global uint* sus,
                          __local FP* la, __local int* lj) {
    uint e = get_group_id(0);
    uint lid = get_local_id(0), ls = get_local_size(0);
    FP f[AWVD_FRAME];
    for (int i = 0; i < AWVD_FRAME; i++) f[i] = frames[(size_t)e * AWVD_FRAME + i];
    uint g0 = edges[4 * e], g1 = edges[4 * e + 1], g2 = edges[4 * e + 2], st = edges[4 * e + 3];
    FP mx = f[22], my = f[23], mz = f[24], rad = f[25];
    FP rr = rad + rmax;
    int lo[3], hi[3];
    FP m[3] = {mx, my, mz}, l0[3] = {lox, loy, loz};
    uint dims[3] = {dx, dy, dz};
    for (int k = 0; k < 3; k++) {
        FP a = floor((m[k] - rr - l0[k]) / cell), b = floor((m[k] + rr - l0[k]) / cell);
        lo[k] = a < (FP)0 ? 0 : (int)min(a, (FP)(dims[k] - 1));
        hi[k] = b < (FP)0 ? 0 : (int)min(b, (FP)(dims[k] - 1));
    }
    __local uint lcount;
    if (lid == 0) lcount = 0;
    FP bestd = INFINITY;
    int bestj = -1;
    for (int pass = 0; pass < 2; pass++) {
        FP lim = pass == 0 ? INFINITY : la[0] + (FP)AWVD_BOUND;
        for (int z = lo[2]; z <= hi[2]; z++)
            for (int y = lo[1]; y <= hi[1]; y++) {
                uint row = ((uint)z * dy + (uint)y) * dx;
                uint s = cell_start[row + lo[0]], en = cell_start[row + hi[0] + 1];
                for (uint i = s + lid; i < en; i += ls) {
                    uint j = cell_items[i];
                    if (j == g0 || j == g1 || j == g2) continue;
                    FP cx = balls[4 * j], cy = balls[4 * j + 1], cz = balls[4 * j + 2], rd = balls[4 * j + 3];
                    FP ddx = cx - mx, ddy = cy - my, ddz = cz - mz;
                    if (ddx * ddx + ddy * ddy + ddz * ddz > (rad + rd) * (rad + rd)) continue;
                    FP d = awvd_candidate(f, cx, cy, cz, rd, j == st);
                    if (pass == 0) {
                        if (d < bestd || (d == bestd && (int)j < bestj)) { bestd = d; bestj = (int)j; }
                    } else if (d <= lim && d < INFINITY) {
                        uint k = atomic_inc(&lcount);
                        if (k < AWVD_SUS_CAP) sus[(size_t)e * AWVD_SUS_CAP + k] = j;
                    }
                }
            }
        if (pass == 0) {
            la[lid] = bestd;
            lj[lid] = bestj;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (uint h = ls / 2; h > 0; h >>= 1) {
                if (lid < h) {
                    FP o = la[lid + h];
                    int oj = lj[lid + h];
                    if (o < la[lid] || (o == la[lid] && oj >= 0 && (lj[lid] < 0 || oj < lj[lid]))) { la[lid] = o; lj[lid] = oj; }
                }
                barrier(CLK_LOCAL_MEM_FENCE);
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        winner[e] = la[0] < INFINITY ? lj[0] : -1;
        nsus[e] = lcount;
    }
}
