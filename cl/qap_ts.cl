// qap_ts.cl: robust tabu search for the QAP (docs/specs/QAP_TS.md), one work-group per chain,
// the iteration count of a launch given by the host. The arithmetic, the Philox
// draws and the choice key are those of src/qap/ts/cpu.rs, so integer chains are bit-identical
// to the CPU engine's.
//
// Build-time macros: QAP_TYPE (1 int32, 2 int64, 3 uint32, 4 uint64, 5 float32, 6 float64) and
// FT_KIND (cl/common.cl), TS_N, TS_SLICES, TS_NP (= n(n-1)/2), TS_WG (the work-group size),
// TS_LOCAL (1: delta and tabu matrices in local memory, 0: in the chain's slice of global memory),
// TS_SYM (1: A and B symmetric, the shortcut formulas), TS_TENURE (0: Taillard 2006
// floor(u^3 8n), 1: Taillard 1991 uniform in [0.9n, 1.1n]).

#pragma OPENCL FP_CONTRACT OFF

#if QAP_TYPE <= 4
// deltas and costs as 64-bit two's complement bits, computed in ulong so that overflow wraps as
// the host's wrapping i64 arithmetic; deltas compare signed, costs by FT_KIND
typedef ulong DT;
#if QAP_TYPE == 1 || QAP_TYPE == 2
#define TO_D(x) ((ulong)(long)(x))
#else
#define TO_D(x) ((ulong)(x))
#endif
#define D_LT(a, b) ((long)(a) < (long)(b))
#if FT_KIND == 1
#define C_LT(a, b) ((long)(a) < (long)(b))
#else
#define C_LT(a, b) ((a) < (b))
#endif
#define D_TO_BITS(d) (d)
#define D_FROM_BITS(u) (u)
#else
typedef QT DT;
#define TO_D(x) (x)
#define D_LT(a, b) ((a) < (b))
#define C_LT(a, b) ((a) < (b))
#define D_TO_BITS(d) FT_TO_BITS(d)
#define D_FROM_BITS(u) FT_FROM_BITS(u)
#endif

#if TS_LOCAL
#define MSPACE __local
#else
#define MSPACE __global
#endif

#define AV(s, i, j) TO_D(A[(s) * TS_N * TS_N + (i) * TS_N + (j)])
#define BV(s, i, j) TO_D(B[(s) * TS_N * TS_N + (i) * TS_N + (j)])

// Δ(p; r, s), the O(n) formula (TS_SYM: the symmetric shortcut), terms in the order of
// TsChain::delta_full.
inline DT ts_delta_full(__global const QT *A, __global const QT *B, __local const uchar *p, uint r, uint s)
{
    uint pr = p[r], ps = p[s];
    DT acc = (DT)0;
    for (uint sl = 0; sl < TS_SLICES; ++sl) {
        DT t1 = (AV(sl, r, r) - AV(sl, s, s)) * (BV(sl, ps, ps) - BV(sl, pr, pr));
#if TS_SYM
        DT sum = (DT)0;
        for (uint k = 0; k < TS_N; ++k) {
            if (k == r || k == s) continue;
            uint pk = p[k];
            sum = sum + (AV(sl, r, k) - AV(sl, s, k)) * (BV(sl, ps, pk) - BV(sl, pr, pk));
        }
        acc = acc + (t1 + (sum + sum));
#else
        DT t2 = (AV(sl, r, s) - AV(sl, s, r)) * (BV(sl, ps, pr) - BV(sl, pr, ps));
        acc = acc + (t1 + t2);
        for (uint k = 0; k < TS_N; ++k) {
            if (k == r || k == s) continue;
            uint pk = p[k];
            DT x = (AV(sl, k, r) - AV(sl, k, s)) * (BV(sl, pk, ps) - BV(sl, pk, pr));
            DT y = (AV(sl, r, k) - AV(sl, s, k)) * (BV(sl, ps, pk) - BV(sl, pr, pk));
            acc = acc + (x + y);
        }
#endif
    }
    return acc;
}

// A bijection of the pair index under the iteration's word: distinct pairs never tie.
inline uint ts_tie_key(uint idx, uint w)
{
    uint h = idx * 0x9E3779B9u + w;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

inline int ts_tenure(uint w)
{
#if TS_TENURE == 0
    ulong u = (ulong)((w >> 11) + 1u);
    ulong u3 = u * u * u;
    ulong m = (ulong)(8 * TS_N);
    return (int)((mul_hi(u3, m) << 1) | ((u3 * m) >> 63));
#else
    ulong lo = (9 * TS_N) / 10, hi = (11 * TS_N) / 10;
    return (int)(lo + (((ulong)w * (hi - lo + 1)) >> 32));
#endif
}

// candidate (aa, da, pair ia) better than (ab, db, ib) under (aspired first, smaller delta,
// smaller tie key); the tie keys are computed only on a tie
inline bool ts_better(uint aa, DT da, uint ia, uint ab, DT db, uint ib, uint w)
{
    if (aa != ab) return aa > ab;
    if (da != db) return D_LT(da, db);
    return ts_tie_key(ia, w) < ts_tie_key(ib, w);
}

#define TS_NONE 0xFFFFFFFFu

// One launch: `iters` iterations of chain get_group_id(0). State per chain: perm and best_perm
// (n bytes), cost[2c] = current, cost[2c+1] = best (64-bit transports), tv[c] = t (iteration in
// the current start), gv[2c] = g (the Philox counter), gv[2c+1] = g of the last new best, fresh[c]
// (reset the tabu matrix first). tabu_g: n^2 stamps per chain; delta_g: TS_NP deltas per chain
// (used when TS_LOCAL is 0).
__kernel void qap_ts_run(__global const QT *A, __global const QT *B, __global const uchar2 *pairs,
                         __global uchar *perm, __global uchar *best_perm, __global ulong *cost,
                         __global int *tv, __global ulong *gv, __global uchar *fresh,
                         __global int *tabu_g, __global DT *delta_g, ulong seed, long horizon, uint iters)
{
    const uint c = get_group_id(0), lid = get_local_id(0);
    __local uchar p[TS_N];
    __local DT red_d[TS_WG];
    __local uint red_i[TS_WG];
    __local uchar red_a[TS_WG];
    __local DT cur, best;
    __local int improved;
#if TS_LOCAL
    __local int tabu[TS_N * TS_N];
    __local DT delta[TS_NP];
#else
    __global int *tabu = tabu_g + (size_t)c * TS_N * TS_N;
    __global DT *delta = delta_g + (size_t)c * TS_NP;
#endif
    __global int *tabu_c = tabu_g + (size_t)c * TS_N * TS_N;
    const bool is_fresh = fresh[c] != 0;
    for (uint e = lid; e < TS_N; e += TS_WG) p[e] = perm[c * TS_N + e];
    for (uint e = lid; e < TS_N * TS_N; e += TS_WG) tabu[e] = is_fresh ? -(int)e - 1 : tabu_c[e];
    if (lid == 0) {
        cur = D_FROM_BITS(cost[2 * c]);
        best = D_FROM_BITS(cost[2 * c + 1]);
    }
    int t = tv[c];
    ulong g = gv[2 * c], best_iter = gv[2 * c + 1];
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    // deltas from scratch at every launch (float deltas drift; integer ones are equal anyway)
    for (uint idx = lid; idx < TS_NP; idx += TS_WG) {
        uchar2 rs = pairs[idx];
        delta[idx] = ts_delta_full(A, B, p, rs.x, rs.y);
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);

    for (uint it = 0; it < iters; ++it) {
        uint4 w = metaopt_rng4(seed, c, g);
        const long tl = (long)t, th = (long)t - horizon;
        const DT cur0 = cur, best0 = best;
        uint ba = 0, bi = TS_NONE;
        DT bd = (DT)0;
        for (uint idx = lid; idx < TS_NP; idx += TS_WG) {
            uchar2 rs = pairs[idx];
            uint r = rs.x, s = rs.y;
            DT d = delta[idx];
            long tr = tabu[r * TS_N + p[s]], ts = tabu[s * TS_N + p[r]];
            uint asp = (C_LT(cur0 + d, best0) || tr < th || ts < th) ? 1u : 0u;
            if (!(asp || tr < tl || ts < tl)) continue;
            if (bi == TS_NONE || ts_better(asp, d, idx, ba, bd, bi, w.x)) {
                ba = asp;
                bd = d;
                bi = idx;
            }
        }
        red_a[lid] = (uchar)ba;
        red_d[lid] = bd;
        red_i[lid] = bi;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint h = TS_WG / 2; h > 0; h >>= 1) {
            if (lid < h) {
                uint oi = red_i[lid + h];
                if (oi != TS_NONE && (red_i[lid] == TS_NONE ||
                    ts_better(red_a[lid + h], red_d[lid + h], oi, red_a[lid], red_d[lid], red_i[lid], w.x))) {
                    red_a[lid] = red_a[lid + h];
                    red_d[lid] = red_d[lid + h];
                    red_i[lid] = oi;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        const uint mi = red_i[0];
        // every work-item has read the winner before the next iteration overwrites red_*
        barrier(CLK_LOCAL_MEM_FENCE);
        if (mi != TS_NONE) {
            uchar2 rs = pairs[mi];
            const uint r = rs.x, s = rs.y;
            if (lid == 0) {
                uint pr = p[r], ps = p[s];
                tabu[r * TS_N + pr] = t + ts_tenure(w.y);
                tabu[s * TS_N + ps] = t + ts_tenure(w.z);
                p[r] = (uchar)ps;
                p[s] = (uchar)pr;
                cur = cur0 + red_d[0];
                improved = C_LT(cur, best0) ? 1 : 0;
                if (improved) best = cur;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (improved) {
                best_iter = g;
                for (uint e = lid; e < TS_N; e += TS_WG) best_perm[c * TS_N + e] = p[e];
            }
            // the deltas after the move: O(1) for the pairs disjoint from it, O(n) for the rest
            for (uint idx = lid; idx < TS_NP; idx += TS_WG) {
                uchar2 uv = pairs[idx];
                uint u = uv.x, v = uv.y;
                if (u == r || u == s || v == r || v == s) {
                    delta[idx] = ts_delta_full(A, B, p, u, v);
                    continue;
                }
                uint pr = p[r], ps = p[s], pu = p[u], pv = p[v];
                DT acc = delta[idx];
                for (uint sl = 0; sl < TS_SLICES; ++sl) {
                    DT fa = (AV(sl, r, u) - AV(sl, r, v)) + (AV(sl, s, v) - AV(sl, s, u));
                    DT fb = (BV(sl, ps, pu) - BV(sl, ps, pv)) + (BV(sl, pr, pv) - BV(sl, pr, pu));
#if TS_SYM
                    DT f = fa * fb;
                    acc = acc + (f + f);
#else
                    DT ga = (AV(sl, u, r) - AV(sl, v, r)) + (AV(sl, v, s) - AV(sl, u, s));
                    DT gb = (BV(sl, pu, ps) - BV(sl, pv, ps)) + (BV(sl, pv, pr) - BV(sl, pu, pr));
                    acc = acc + (fa * fb + ga * gb);
#endif
                }
                delta[idx] = acc;
            }
            barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        }
        ++t;
        ++g;
    }

    for (uint e = lid; e < TS_N; e += TS_WG) perm[c * TS_N + e] = p[e];
#if TS_LOCAL
    for (uint e = lid; e < TS_N * TS_N; e += TS_WG) tabu_c[e] = tabu[e];
#endif
    if (lid == 0) {
        cost[2 * c] = D_TO_BITS(cur);
        cost[2 * c + 1] = D_TO_BITS(best);
        tv[c] = t;
        gv[2 * c] = g;
        gv[2 * c + 1] = best_iter;
        fresh[c] = 0;
    }
}
