// de_batch.cl: batched differential evolution (docs DE.md, paper 002, Farkov & Legalov 2014): B
// independent problems, each its own catalogue objective, dims, bounds, members, F, CR, mutation,
// bound correction, seed, budget and target, in ONE fused kernel: one work-group per problem, one
// work-item per member (looping when the members exceed the group), K generations per launch.
//
// It follows common.cl, functions.cl, de.cl (built with DE_EXTERNAL_F: its helpers de_unit,
// de_indices and de_correct are reused, so the random numbers are those of the island DE with one
// population, keyed by the problem's own seeds and counters, never its batch index) and the
// generated dispatcher `deb_objective(id, x, dims, stride, data)` (src/de/batch.rs).
//
// Layouts, per problem b (offsets in meta64): structure of arrays, member fastest:
//   X[xoff + n * np + m] (targets), Y[xoff + n * np + m] (trials, the objective's stride is np),
//   Fx[foff + m], Fy[foff + m].
// With DEB_LOCAL the targets and their values live in local memory during a launch (copied in at
// its start and out at its end); otherwise the kernel works on X and Fx in global memory.
// state[2b] is the status (0 new, 1 running, 2 target reached, 3 budget spent), state[2b + 1] the
// best member; gens[b] the generations run. A finished problem's group returns at once, so its
// result is frozen.
//
// Build-time macros: FP, FP_DOUBLE, DEB_LOCAL (0 or 1).

#pragma OPENCL FP_CONTRACT OFF

#define DEB_NEW 0u
#define DEB_RUNNING 1u
#define DEB_TARGET 2u
#define DEB_BUDGET 3u

// meta (uint) and meta64 (ulong) fields per problem
#define DEB_M 8
#define DEB_FUNC 0
#define DEB_DIMS 1
#define DEB_NP 2
#define DEB_MUT 3
#define DEB_KIND 4
#define DEB_HAS_TARGET 5
#define DEB_M64 10
#define DEB_XOFF 0
#define DEB_FOFF 1
#define DEB_DOFF 2
#define DEB_BOFF 3
#define DEB_SEED_INIT 4
#define DEB_SEED_MUT 5
#define DEB_SEED_CROSS 6
#define DEB_CRT 7
#define DEB_MAXGEN 8

#if DEB_LOCAL
#define DEB_SPACE __local
#else
#define DEB_SPACE __global
#endif

// The best member (lowest value, ties to the lowest index) by a tree over the group (wg a power
// of two); every value is finite or +inf, never NaN. Ends with a barrier; every work-item returns it.
inline uint deb_best(DEB_SPACE const FP *fx, uint np, uint lid, uint wg, __local FP *rv, __local uint *ri)
{
    FP bv = INFINITY;
    uint bi = 0xffffffffu;
    for (uint m = lid; m < np; m += wg) {
        FP v = fx[m];
        int better = v < bv || (v == bv && m < bi);
        bv = better ? v : bv;
        bi = better ? m : bi;
    }
    rv[lid] = bv;
    ri[lid] = bi;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = wg / 2; s > 0; s /= 2) {
        if (lid < s) {
            FP v = rv[lid + s];
            uint i = ri[lid + s];
            int better = v < rv[lid] || (v == rv[lid] && i < ri[lid]);
            rv[lid] = better ? v : rv[lid];
            ri[lid] = better ? i : ri[lid];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    uint best = ri[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return best;
}

// The mutant's component n (src/de/ops.rs `mutant`, operation for operation).
inline FP deb_mutant(DEB_SPACE const FP *xs, uint np, uint n, uint mutation, FP f, const uint r[5], uint i,
                     uint best)
{
#define XS(k) xs[(size_t)n * np + (k)]
    FP xi = XS(i);
    FP v;
    switch (mutation) {
    case DE_RAND_1:
        v = XS(r[0]) + f * (XS(r[1]) - XS(r[2]));
        break;
    case DE_RAND_2:
        v = XS(r[0]) + f * (XS(r[1]) - XS(r[2]));
        v = v + f * (XS(r[3]) - XS(r[4]));
        break;
    case DE_BEST_1:
        v = XS(best) + f * (XS(r[0]) - XS(r[1]));
        break;
    case DE_BEST_2:
        v = XS(best) + f * (XS(r[0]) - XS(r[1]));
        v = v + f * (XS(r[2]) - XS(r[3]));
        break;
    case DE_CURRENT_TO_RAND_1:
        v = xi + f * (XS(r[0]) - xi);
        v = v + f * (XS(r[1]) - XS(r[2]));
        break;
    default: // DE_CURRENT_TO_BEST_1
        v = xi + f * (XS(best) - xi);
        v = v + f * (XS(r[0]) - XS(r[1]));
        break;
    }
#undef XS
    return v;
}

// Status after a generation (or the initial evaluation): target reached, budget spent, running.
inline uint deb_status(FP best_value, uint has_target, FP target, ulong gen, ulong max_gen)
{
    if (has_target && best_value <= target) return DEB_TARGET;
    if (gen >= max_gen) return DEB_BUDGET;
    return DEB_RUNNING;
}

__kernel void deb_run(__global FP *X, __global FP *Fx, __global FP *Y, __global FP *Fy, __global const FP *lo_all,
                      __global const FP *hi_all, __global const FP *data_all, __global const uint *meta,
                      __global const ulong *meta64, __global const FP *fpar, __global uint *state,
                      __global ulong *gens, uint k_gens, __local FP *lx, __local FP *lfx, __local FP *rv,
                      __local uint *ri)
{
    uint b = get_group_id(0);
    uint lid = get_local_id(0), wg = get_local_size(0);
    uint status = state[2 * b];
    if (status >= DEB_TARGET) return; // finished: frozen
    __global const uint *mt = meta + (size_t)b * DEB_M;
    __global const ulong *mt64 = meta64 + (size_t)b * DEB_M64;
    uint func = mt[DEB_FUNC], nn = mt[DEB_DIMS], np = mt[DEB_NP], mutation = mt[DEB_MUT];
    uint kind = mt[DEB_KIND], has_target = mt[DEB_HAS_TARGET];
    ulong xoff = mt64[DEB_XOFF], foff = mt64[DEB_FOFF];
    __global const FP *data = data_all + mt64[DEB_DOFF];
    __global const FP *lo = lo_all + mt64[DEB_BOFF];
    __global const FP *hi = hi_all + mt64[DEB_BOFF];
    ulong s_mut = mt64[DEB_SEED_MUT], s_cross = mt64[DEB_SEED_CROSS];
    ulong crt = mt64[DEB_CRT], max_gen = mt64[DEB_MAXGEN];
    FP f = fpar[2 * b], target = fpar[2 * b + 1];
    __global FP *gy = Y + xoff;
    __global FP *gfy = Fy + foff;
#if DEB_LOCAL
    __local FP *xs = lx;
    __local FP *fxs = lfx;
#else
    __global FP *xs = X + xoff;
    __global FP *fxs = Fx + foff;
#endif
    ulong gen = gens[b];
    uint best = state[2 * b + 1];
    if (status == DEB_NEW) {
        // initial population (ops::initial with one population), evaluated from Y
        ulong s_init = mt64[DEB_SEED_INIT];
        for (uint m = lid; m < np; m += wg) {
            for (uint n = 0; n < nn; ++n) {
                uint4 w = metaopt_rng4(s_init, 0u, (ulong)m * nn + n);
                FP v = lo[n] + de_unit(w.x) * (hi[n] - lo[n]);
                xs[(size_t)n * np + m] = v;
                gy[(size_t)n * np + m] = v;
            }
            FP v = deb_objective(func, gy + m, nn, np, data);
            fxs[m] = isfinite(v) ? v : (FP)INFINITY;
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        best = deb_best(fxs, np, lid, wg, rv, ri);
        gen = 0;
        status = deb_status(fxs[best], has_target, target, gen, max_gen);
    } else {
#if DEB_LOCAL
        for (uint i = lid; i < np * nn; i += wg) xs[i] = X[xoff + i];
        for (uint m = lid; m < np; m += wg) fxs[m] = Fx[foff + m];
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
    }
    for (uint k = 0; k < k_gens && status == DEB_RUNNING; ++k) {
        ulong g = gen + 1;
        // trials from the previous generation, evaluated by the work-item that made them
        for (uint m = lid; m < np; m += wg) {
            uint r[5];
            uint jrand = de_indices(s_mut, g, 0u, m, 1u, np, nn, mutation, 0u, r);
            for (uint n = 0; n < nn; ++n) {
                uint4 w = metaopt_rng4(s_cross, 0u, (g * np + m) * nn + n);
                FP xi = xs[(size_t)n * np + m];
                FP y = xi;
                if (n == jrand || (ulong)w.x < crt) {
                    FP v = deb_mutant(xs, np, n, mutation, f, r, m, best);
                    y = de_correct(kind, v, xi, lo[n], hi[n], w.y, w.z);
                }
                gy[(size_t)n * np + m] = y;
            }
            FP v = deb_objective(func, gy + m, nn, np, data);
            gfy[m] = isfinite(v) ? v : (FP)INFINITY;
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        // greedy selection without branches: the trial replaces the target when f <= Fx
        // (every work-item makes the same number of passes, idle ones included: PoCL skipped
        // the selection of a group whose idle work-items made none)
        for (uint base = 0; base < np; base += wg) {
            uint m = base + lid;
            int in = m < np;
            uint mm = in ? m : 0u;
            FP fy = gfy[mm];
            int take = in && fy <= fxs[mm];
            if (in) fxs[mm] = take ? fy : fxs[mm];
            for (uint n = 0; n < nn && in; ++n) {
                size_t i = (size_t)n * np + mm;
                xs[i] = take ? gy[i] : xs[i];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        best = deb_best(fxs, np, lid, wg, rv, ri);
        gen = g;
        status = deb_status(fxs[best], has_target, target, gen, max_gen);
    }
#if DEB_LOCAL
    for (uint i = lid; i < np * nn; i += wg) X[xoff + i] = xs[i];
    for (uint m = lid; m < np; m += wg) Fx[foff + m] = fxs[m];
#endif
    if (lid == 0) {
        state[2 * b] = status;
        state[2 * b + 1] = best;
        gens[b] = gen;
    }
}
