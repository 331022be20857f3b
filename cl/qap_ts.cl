// qap_ts.cl: robust tabu search for the QAP (docs/specs/QAP_TS.md), one work-group per chain,
// the iteration count of a launch given by the host. The arithmetic, the Philox
// draws and the choice key are those of src/qap_ts/cpu.rs, so integer chains are bit-identical
// to the CPU engine's.
//
// Build-time macros: QAP_TYPE (1 int32, 2 int64, 3 uint32, 4 uint64, 5 float32, 6 float64) and
// FT_KIND (cl/common.cl), TS_N, TS_SLICES, TS_NP (= n(n-1)/2), TS_WG (the work-group size),
// TS_LOCAL_D (1: the delta matrix in local memory, 0: in the chain's slice of global memory),
// TS_LOCAL_T (the same for the tabu matrix), TS_D32 (integer data whose every delta and partial
// sum fits 31 bits, checked by the host: deltas in 32-bit int, which is exact and equal to the
// CPU's i64 arithmetic, and halves the memory and the multiplies), TS_SYM (1: A and B
// symmetric, the shortcut formulas), TS_ACROSS (1: a group reads the matrices across rows, with
// the transposes of asymmetric ones stacked after them; `AC`), TS_TENURE (0: Taillard 2006 floor(u^3 8n), 1: Taillard 1991
// uniform in [0.9n, 1.1n]).
//
// One iteration is one pass over the pairs: a work-item updates the deltas of its pairs after
// the previous move (O(1) each for the pairs disjoint from it; the 2n-3 pairs that touch it are
// spread over the group, O(n) each) and, in the same pass, keeps its best admissible candidate
// for the next move; a tree reduction picks the move, which work-item 0 makes.

#pragma OPENCL FP_CONTRACT OFF

#if QAP_TYPE <= 4
// costs as 64-bit two's complement bits, summed in ulong so that overflow wraps as the host's
// wrapping i64 arithmetic, compared by FT_KIND
typedef ulong CT;
#if TS_D32
typedef int DT;
#define TO_D(x) ((int)(x))
#define D_TO_C(d) ((ulong)(long)(d))
#else
// deltas in ulong (wrapping), compared signed
typedef ulong DT;
#if QAP_TYPE == 1 || QAP_TYPE == 2
#define TO_D(x) ((ulong)(long)(x))
#else
#define TO_D(x) ((ulong)(x))
#endif
#define D_TO_C(d) (d)
#endif
#define D_LT(a, b) ((long)(a) < (long)(b))
#if FT_KIND == 1
#define C_LT(a, b) ((long)(a) < (long)(b))
#else
#define C_LT(a, b) ((a) < (b))
#endif
#define C_TO_BITS(c) (c)
#define C_FROM_BITS(u) (u)
#else
typedef QT DT;
typedef QT CT;
#define TO_D(x) (x)
#define D_TO_C(d) (d)
#define D_LT(a, b) ((a) < (b))
#define C_LT(a, b) ((a) < (b))
#define C_TO_BITS(d) FT_TO_BITS(d)
#define C_FROM_BITS(u) FT_FROM_BITS(u)
#endif

#if TS_LOCAL_D
#define DSPACE __local
#else
#define DSPACE __global
#endif
#if TS_LOCAL_T
#define TSPACE __local
#else
#define TSPACE __global
#endif

// the fence of the barriers that order the matrices' writes before other work-items' reads
#if TS_LOCAL_D && TS_LOCAL_T
#define TS_FENCE CLK_LOCAL_MEM_FENCE
#else
#define TS_FENCE (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#endif

#define AV(s, i, j) TO_D(A[(s) * TS_N * TS_N + (i) * TS_N + (j)])
#define BV(s, i, j) TO_D(B[(s) * TS_N * TS_N + (i) * TS_N + (j)])
// AC(s, i, j) = a_ij and BC(s, i, j) = b_ij where consecutive work-items take consecutive i.
// The work-items of a group take consecutive pairs (r, s), s = r + 1, ...: with TS_ACROSS (a
// GPU) a_sk is read as row k of the transpose, one row across the group, and b_{p(s) p(k)} as
// row p(k) of the transpose, a gather from one row (the transposes are the matrices themselves
// where they are symmetric, else the host stacks them after the matrices); without it (a CPU
// device, which runs a work-item in one thread) each work-item reads along its own row.
#if !TS_ACROSS
#define AC(s, i, j) AV(s, i, j)
#define BC(s, i, j) BV(s, i, j)
#elif TS_SYM
#define AC(s, i, j) AV(s, j, i)
#define BC(s, i, j) BV(s, j, i)
#else
#define AC(s, i, j) TO_D(A[(TS_SLICES + (s)) * TS_N * TS_N + (j) * TS_N + (i)])
#define BC(s, i, j) TO_D(B[(TS_SLICES + (s)) * TS_N * TS_N + (j) * TS_N + (i)])
#endif

// Δ(p; r, s), the O(n) formula (TS_SYM: the symmetric shortcut), terms in the order of
// TsChain::delta_full.
inline DT ts_delta_full(__global const QT *A, __global const QT *B, __local const ushort *p, uint r, uint s)
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
            sum = sum + (AV(sl, r, k) - AC(sl, s, k)) * (BC(sl, ps, pk) - BV(sl, pr, pk));
        }
        acc = acc + (t1 + (sum + sum));
#else
        DT t2 = (AV(sl, r, s) - AV(sl, s, r)) * (BV(sl, ps, pr) - BV(sl, pr, ps));
        acc = acc + (t1 + t2);
        for (uint k = 0; k < TS_N; ++k) {
            if (k == r || k == s) continue;
            uint pk = p[k];
            DT x = (AV(sl, k, r) - AV(sl, k, s)) * (BV(sl, pk, ps) - BV(sl, pk, pr));
            DT y = (AV(sl, r, k) - AC(sl, s, k)) * (BC(sl, ps, pk) - BV(sl, pr, pk));
            acc = acc + (x + y);
        }
#endif
    }
    return acc;
}

// Δ(p'; u, v) after the move (r, s) from Δ(p; u, v), for {u, v} disjoint from {r, s}; p is p'.
inline DT ts_delta_step(__global const QT *A, __global const QT *B, __local const ushort *p, DT acc,
                        uint r, uint s, uint u, uint v)
{
    uint pr = p[r], ps = p[s], pu = p[u], pv = p[v];
    for (uint sl = 0; sl < TS_SLICES; ++sl) {
        DT fa = (AV(sl, r, u) - AV(sl, r, v)) + (AV(sl, s, v) - AV(sl, s, u));
        DT fb = (BV(sl, ps, pu) - BV(sl, ps, pv)) + (BV(sl, pr, pv) - BV(sl, pr, pu));
#if TS_SYM
        DT f = fa * fb;
        acc = acc + (f + f);
#else
        DT ga = (AV(sl, u, r) - AC(sl, v, r)) + (AC(sl, v, s) - AV(sl, u, s));
        DT gb = (BV(sl, pu, ps) - BC(sl, pv, ps)) + (BC(sl, pv, pr) - BV(sl, pu, pr));
        acc = acc + (fa * fb + ga * gb);
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

// The candidate (pair idx = (u, v), delta d) against the work-item's best (ba, bd, bi) of the
// coming iteration: admissible when aspired (a new best, or a placement unused for the horizon)
// or when at least one of its two placements is not tabu.
#define TS_CONSIDER(idx, u, v, d)                                                              \
    do {                                                                                       \
        long tr_ = tabu[(u) * TS_N + p[v]], ts_ = tabu[(v) * TS_N + p[u]];                     \
        uint asp_ = (C_LT(cur0 + D_TO_C(d), best0) || tr_ < th || ts_ < th) ? 1u : 0u;         \
        if ((asp_ || tr_ < tl || ts_ < tl) &&                                                  \
            (bi == TS_NONE || ts_better(asp_, (d), (idx), ba, bd, bi, wk))) {                  \
            ba = asp_;                                                                         \
            bd = (d);                                                                          \
            bi = (idx);                                                                        \
        }                                                                                      \
    } while (0)

// One launch: `iters` iterations of chain get_group_id(0). State per chain: perm and best_perm
// (n 16-bit entries), cost[2c] = current, cost[2c+1] = best (64-bit transports), tv[c] = t (iteration in
// the current start), gv[2c] = g (the Philox counter), gv[2c+1] = g of the last new best, fresh[c]
// (flags: reset the tabu matrix first, compute the deltas afresh). tabu_g: n^2 stamps per chain; delta_g: TS_NP deltas per chain
// (the deltas themselves when TS_LOCAL_D is 0; else where they are kept between launches). c0: the global index of chain 0 of the launch (its draws are
// keyed by the global chain index, so a split over devices draws the same numbers).
__kernel void qap_ts_run(__global const QT *A, __global const QT *B, __global const ushort2 *pairs,
                         __global ushort *perm, __global ushort *best_perm, __global ulong *cost,
                         __global int *tv, __global ulong *gv, __global uchar *fresh,
                         __global int *tabu_g, __global DT *delta_g, ulong seed, long horizon, uint iters, uint c0)
{
    const uint c = get_group_id(0), lid = get_local_id(0);
    __local ushort p[TS_N];
    __local DT red_d[TS_WG];
    __local uint red_i[TS_WG];
    __local uchar red_a[TS_WG];
    __local CT cur, best;
    __local int improved;
#if TS_LOCAL_D
    __local DT delta[TS_NP];
#else
    __global DT *delta = delta_g + (size_t)c * TS_NP;
#endif
#if TS_LOCAL_T
    __local int tabu[TS_N * TS_N];
#else
    __global int *tabu = tabu_g + (size_t)c * TS_N * TS_N;
#endif
    __global int *tabu_c = tabu_g + (size_t)c * TS_N * TS_N;
    // bit 0: a fresh start (reset the tabu matrix); bit 1: compute every delta afresh (else the
    // chain's slice of delta_g holds the deltas of its permutation from the last launch)
    const uint flags = fresh[c];
    const bool is_fresh = (flags & 1u) != 0;
    for (uint e = lid; e < TS_N; e += TS_WG) p[e] = perm[c * TS_N + e];
    if (is_fresh || TS_LOCAL_T) {
        for (uint e = lid; e < TS_N * TS_N; e += TS_WG) tabu[e] = is_fresh ? -(int)e - 1 : tabu_c[e];
    }
    if (lid == 0) {
        cur = C_FROM_BITS(cost[2 * c]);
        best = C_FROM_BITS(cost[2 * c + 1]);
    }
    int t = tv[c];
    ulong g = gv[2 * c], best_iter = gv[2 * c + 1];
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);

    // the move of the previous iteration (none yet: every delta from scratch where asked, else
    // the deltas the last launch left in the chain's slice of delta_g, copied in where they live
    // in local memory)
    uint mi = TS_NONE, r = 0, s = 0;
    bool first = (flags & 2u) != 0;
#if TS_LOCAL_D
    if (!first) {
        __global const DT *kept = delta_g + (size_t)c * TS_NP;
        for (uint e = lid; e < TS_NP; e += TS_WG) delta[e] = kept[e];
    }
    // unconditional, as below
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    // `iters` iterations, then one more pass that only brings the deltas up to the last move, so
    // that they are the deltas of the permutation the launch leaves (for the next launch)
    for (uint it = 0;; ++it) {
        if (it == iters && mi == TS_NONE) break;
        // the candidates of this iteration, judged in its state
        const uint wk = metaopt_rng4(seed, c0 + c, g).x;
        const long tl = (long)t, th = (long)t - horizon;
        const CT cur0 = cur, best0 = best;
        uint ba = 0, bi = TS_NONE;
        DT bd = (DT)0;
        if (first) {
            for (uint idx = lid; idx < TS_NP; idx += TS_WG) {
                ushort2 uv = pairs[idx];
                DT d = ts_delta_full(A, B, p, uv.x, uv.y);
                delta[idx] = d;
                TS_CONSIDER(idx, uv.x, uv.y, d);
            }
        } else if (mi == TS_NONE) {
            for (uint idx = lid; idx < TS_NP; idx += TS_WG) {
                ushort2 uv = pairs[idx];
                DT d = delta[idx];
                TS_CONSIDER(idx, uv.x, uv.y, d);
            }
        } else {
            // the pairs disjoint from the move: O(1) each
            for (uint idx = lid; idx < TS_NP; idx += TS_WG) {
                ushort2 uv = pairs[idx];
                uint u = uv.x, v = uv.y;
                if (u == r || u == s || v == r || v == s) continue;
                DT d = ts_delta_step(A, B, p, delta[idx], r, s, u, v);
                delta[idx] = d;
                TS_CONSIDER(idx, u, v, d);
            }
            // the 2n-3 pairs that touch it, O(n) each: (r, k) for k != r, then (s, k) for k not r, s
            const uint lo = min(r, s), hi = max(r, s);
            for (uint j = lid; j < 2 * TS_N - 3; j += TS_WG) {
                uint a, k;
                if (j < TS_N - 1) {
                    a = r;
                    k = j + (j >= r ? 1u : 0u);
                } else {
                    a = s;
                    k = j - (TS_N - 1);
                    k += (k >= lo ? 1u : 0u);
                    k += (k >= hi ? 1u : 0u);
                }
                uint u = min(a, k), v = max(a, k);
                uint idx = u * (2 * TS_N - u - 1) / 2 + (v - u - 1);
                DT d = ts_delta_full(A, B, p, u, v);
                delta[idx] = d;
                TS_CONSIDER(idx, u, v, d);
            }
        }
        first = false;
        if (it == iters) break;

        red_a[lid] = (uchar)ba;
        red_d[lid] = bd;
        red_i[lid] = bi;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint h = TS_WG / 2; h > 0; h >>= 1) {
            if (lid < h) {
                uint oi = red_i[lid + h];
                if (oi != TS_NONE && (red_i[lid] == TS_NONE ||
                    ts_better(red_a[lid + h], red_d[lid + h], oi, red_a[lid], red_d[lid], red_i[lid], wk))) {
                    red_a[lid] = red_a[lid + h];
                    red_d[lid] = red_d[lid + h];
                    red_i[lid] = oi;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        mi = red_i[0];
        const DT md = red_d[0];
        // every work-item has read the winner before the next iteration overwrites red_*, and
        // every delta written in this pass is visible to the work-item that updates it next
        barrier(TS_FENCE);
        if (mi != TS_NONE) {
            ushort2 rs = pairs[mi];
            r = rs.x;
            s = rs.y;
        }
        if (lid == 0 && mi != TS_NONE) {
            uint4 w = metaopt_rng4(seed, c0 + c, g);
            uint pr = p[r], ps = p[s];
            tabu[r * TS_N + pr] = t + ts_tenure(w.y);
            tabu[s * TS_N + ps] = t + ts_tenure(w.z);
            p[r] = (ushort)ps;
            p[s] = (ushort)pr;
            cur = cur0 + D_TO_C(md);
            improved = C_LT(cur, best0) ? 1 : 0;
            if (improved) best = cur;
        }
        // unconditional: with this barrier under `mi != TS_NONE` (a uniform branch) PoCL 5
        // wrote stale bytes into best_perm
        barrier(TS_FENCE);
        if (mi != TS_NONE && improved) {
            best_iter = g;
            for (uint e = lid; e < TS_N; e += TS_WG) best_perm[c * TS_N + e] = p[e];
        }
        ++t;
        ++g;
    }

    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    for (uint e = lid; e < TS_N; e += TS_WG) perm[c * TS_N + e] = p[e];
#if TS_LOCAL_D
    {
        __global DT *kept = delta_g + (size_t)c * TS_NP;
        for (uint e = lid; e < TS_NP; e += TS_WG) kept[e] = delta[e];
    }
#endif
#if TS_LOCAL_T
    for (uint e = lid; e < TS_N * TS_N; e += TS_WG) tabu_c[e] = tabu[e];
#endif
    if (lid == 0) {
        cost[2 * c] = C_TO_BITS(cur);
        cost[2 * c + 1] = C_TO_BITS(best);
        tv[c] = t;
        gv[2 * c] = g;
        gv[2 * c + 1] = best_iter;
        fresh[c] = 0;
    }
}
