// de.cl: island differential evolution (thesis 000, 2.3, 2.3.1, 5.2; docs/specs/DE.md).
// It follows common.cl and, unless DE_EXTERNAL_F, the objective's source (a catalogue function of
// functions.cl or a user's code defining `objective`).
//
// Sizes: Np populations (islands) of Nm members in Nn dimensions. Layouts (thesis 5.2):
//   X  (targets), population fastest: x[p, m, n] at X[(n * (Nm + 1) + m) * Np + p]; member
//      m = Nm is an extra row per population holding a copy of its best;
//   Fx (their values): Fx[p * (Nm + 1) + m], m = Nm the best's value;
//   Y  (trials), member fastest: y[p, m, n] at Y[(n * Np + p) * Nm + m] (the objective's
//      stride is Np * Nm, so evaluation reads coalesce across members);
//   Fy: Fy[p * Nm + m].
// The trial kernel reads X with the population fastest and writes Y with the member fastest by
// transposing DE_TILE x DE_TILE tiles in local memory (DE_TILE + 1 columns against bank
// conflicts); the work-group's first index means the population before the barrier and the
// member after it. tests/it/solvers/de/mod.rs checks the index arithmetic as the thesis's appendix D does.
//
// Random numbers are Philox words keyed by (seed, counter) as src/de/ops.rs documents, so the
// CPU backend draws the same ones; no generator state is stored. Arithmetic is not contracted
// (FP_CONTRACT OFF), so in double the mutation, crossover and bound corrections equal the host's
// bit for bit.
//
// Build-time macros: FP (float or double; FP_DOUBLE 1 with double), DE_TILE (16 or 8),
// DE_EXTERNAL_F (the host fills Fy: no objective is compiled), DE_NO_KERNELS (only the helpers),
// DE_STRICT (1: strict selection, f < Fx; 0 or unset: f <= Fx), FPF (the fitness type of Fx, Fy
// and the comparisons: float or double, FP when unset; FPF_DOUBLE 1 with double). The thesis's
// `DEMultiPop<FP, FPf>`: the objective computes in FP as it reads Y, its value is then rounded to
// FPF, stored and compared in FPF.

#if (defined(FP_DOUBLE) && FP_DOUBLE) || (defined(FPF_DOUBLE) && FPF_DOUBLE)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifndef FPF
#define FPF FP
#endif
#pragma OPENCL FP_CONTRACT OFF

#ifndef DE_TILE
#define DE_TILE 16
#endif

// Whether a trial of value f replaces its target of value fx (both finite or +inf): DE_STRICT 1
// is the thesis's `f < fx` (DEMULTIPOP_FITNESS_COPY_BETTER_Y2X), else `f <= fx` (the library's
// default, `ties`: a population can move across a plateau). Set by the host per solver
// (`Selection`, src/de/config.rs); the batched DE leaves it unset.
#ifndef DE_STRICT
#define DE_STRICT 0
#endif
#if DE_STRICT
#define DE_REPLACES(f, fx) ((f) < (fx))
#else
#define DE_REPLACES(f, fx) ((f) <= (fx))
#endif

// Constraints (docs/specs/DE.md, Constraints): with DE_CONSTRAINED 1 every value of Fx and Fy
// has a violation beside it, in the second half of its buffer (Fx: Np (Nm + 1) values, their
// violations, then the comparison's level; Fy: Np Nm values, then their violations), and the
// comparisons are constraints.cl's at the level the host writes (0: Deb's feasibility rules). A
// compiled objective's violations come from its `constraints` (MO_NC, MO_NG, MO_EQ_TOL of
// constraints.cl, which the program holds before this file); with DE_EXTERNAL_F the host writes
// them.
#ifndef DE_CONSTRAINED
#define DE_CONSTRAINED 0
#endif
#if DE_CONSTRAINED
#define DE_VX(i) Fx[(size_t)np * (nm + 1) + (i)]
#define DE_VY(i) Fy[(size_t)np * nm + (i)]
#define DE_LEVEL(Fx) ((Fx)[(size_t)2 * np * (nm + 1)])
#else
#define DE_VX(i) ((FPF)0)
#define DE_VY(i) ((FPF)0)
#define DE_LEVEL(Fx) ((FPF)0)
#endif

// Whether trial (f, v) replaces target (g, w) at level e: mo_better's order, with DE_REPLACES
// for the values (ties replace unless DE_STRICT).
inline int de_replaces(FPF f, FPF v, FPF g, FPF w, FPF e)
{
    return mo_by_value(v, w, e) ? DE_REPLACES(f, g) : v < w;
}

#if DE_CONSTRAINED && !defined(DE_EXTERNAL_F)
#define DE_VIOLATION(x, dims, stride, data) MO_VIOLATION(x, dims, stride, data)
#else
#define DE_VIOLATION(x, dims, stride, data) ((FPF)0)
#endif

// Mutation strategies (src/de/mod.rs `Mutation` uses the same numbers).
#define DE_RAND_1 1
#define DE_RAND_2 2
#define DE_BEST_1 3
#define DE_BEST_2 4
#define DE_CURRENT_TO_RAND_1 5
#define DE_CURRENT_TO_BEST_1 6

// Bound corrections (`BoundsCorrection`).
#define DE_SAT 0
#define DE_MIR 1
#define DE_TOR 2
#define DE_HVB 3
#define DE_UNI 4
#define DE_COTN 5
// The kinds byte of an integer dimension has this bit too (src/de/device.rs): each component
// made in it (initial, trial) is rounded to the nearest integer (halfway away from zero, as the
// host's f64::round; src/de/config.rs `rounded`).
#define DE_INTEGRAL 0x80u
#define DE_ROUND(kind, y) (((kind) & DE_INTEGRAL) ? round(y) : (y))

#define DE_X(p, m, n) X[((size_t)(n) * (nm + 1) + (m)) * np + (p)]

// A uniform value in (0, 1) from one word; the host computes ((double)w + 0.5) * 2^-32.
// The random stream of the dithered F (src/de/ops.rs DITHER_STREAM) beside the index choice (0)
// and COTN (1) of the mutation seed.
#define DE_DITHER_STREAM 2u

inline FP de_unit(uint w)
{
    return ((FP)w + (FP)0.5) * (FP)2.3283064365386963e-10;
}

// A value in 0..n-1 from one word by multiply-shift.
inline uint de_below(uint w, uint n)
{
    return (uint)(((ulong)w * n) >> 32);
}

// How many distinct random members strategy `mutation` uses.
inline uint de_randoms(uint mutation)
{
    switch (mutation) {
    case DE_RAND_2: return 5u;
    case DE_BEST_2: return 4u;
    case DE_RAND_1:
    case DE_CURRENT_TO_RAND_1: return 3u;
    default: return 2u;
    }
}

// Member indices r[0..k-1], distinct and different from m, and j_rand, for target (p, m) of
// generation `gen`: word t picks the t-th index among the members not yet chosen (ranks mapped
// past the chosen ones in ascending order), word 5 picks j_rand. The words are those of Philox
// counter c (and c + 1 when k > 3; with k <= 3 word 5 is counter c's fourth). With `shared` the
// words do not depend on p (the thesis's sharing across populations, which keeps X reads
// coalesced).
inline uint de_indices(ulong seed, ulong gen, uint p, uint m, uint np, uint nm, uint nn, uint mutation,
                       uint shared, uint r[5])
{
    ulong pk = shared ? 0 : p;
    ulong npk = shared ? 1 : np;
    ulong c = ((gen * npk + pk) * nm + m) * 2;
    uint k = de_randoms(mutation);
    uint4 a = metaopt_rng4(seed, 0u, c);
    uint w4 = 0u, w5 = a.w; // k <= 3: words 3 and 4 unused, j_rand from word 3
    if (k > 3) {
        uint4 b = metaopt_rng4(seed, 0u, c + 1);
        w4 = b.x;
        w5 = b.y;
    }
    uint w[6] = {a.x, a.y, a.z, a.w, w4, w5};
    // the chosen indices in ascending order; loops of constant bounds, unrolled, so that every
    // index is a constant and the arrays stay in registers (dynamic indexing puts a private
    // array in slow memory on GPUs)
    uint chosen[6] = {m, 0u, 0u, 0u, 0u, 0u};
#pragma unroll
    for (uint t = 0; t < 5; ++t) {
        if (t < k) {
            uint v = de_below(w[t], nm - 1 - t);
            uint pos = 0;
#pragma unroll
            for (uint s = 0; s < 6; ++s) {
                if (s <= t && v >= chosen[s]) {
                    ++v;
                    pos = s + 1;
                }
            }
#pragma unroll
            for (uint s = 5; s > 0; --s) chosen[s] = s > pos ? chosen[s - 1] : (s == pos ? v : chosen[s]);
            chosen[0] = pos == 0 ? v : chosen[0];
            r[t] = v;
        }
    }
    return de_below(w[5], nn);
}

// Word j (0..3) of w.
inline uint de_word(uint4 w, uint j)
{
    return j == 0 ? w.x : j == 1 ? w.y : j == 2 ? w.z : w.w;
}

// The crossover test word of component n of the target with crossover key t
// ((gen * Np' + p') * Nm + m): word n % 4 of stream 0, counter t * ceil(Nn / 4) + n / 4.
inline uint de_cross_word(ulong seed, ulong t, uint n, uint nn)
{
    return de_word(metaopt_rng4(seed, 0u, t * ((nn + 3) / 4) + n / 4), n & 3u);
}

// Moves a mutant component v outside [a, b] back inside (docs/specs/DE.md). x is the target's
// component; w1, w2 are the component's random words (uni, COTN).
inline FP de_correct(uint kind, FP v, FP x, FP a, FP b, uint w1, uint w2)
{
    if (!(v < a) && !(v > b)) return v;
    int low = v < a;
    FP width = b - a;
    switch (kind) {
    case DE_SAT:
        return low ? a : b;
    case DE_MIR: {
        FP d = low ? a - v : v - b;
        if (d > width) return low ? a : b;
        return low ? (FP)2 * a - v : (FP)2 * b - v;
    }
    case DE_TOR: {
        FP r = fmod(v - a, width);
        if (r < (FP)0) r += width;
        return a + r;
    }
    case DE_HVB:
        return low ? (x + a) / (FP)2 : (x + b) / (FP)2;
    case DE_UNI:
        return a + de_unit(w1) * width;
    default: { // DE_COTN
        FP r0 = (FP)0.32 * sqrt((FP)-2 * log(de_unit(w1))) * cospi((FP)2 * de_unit(w2));
        FP r = r0;
        if (r0 < (FP)0) r = fabs(fmod(r0, (FP)1));
        else if (r0 > (FP)1) r = fabs(fmod((FP)1 - r0, (FP)1));
        return low ? a + r * width : b - r * width;
    }
    }
}

// de_correct with the words of `uni` and `COTN` drawn only when they are used: words 0 and 1 of
// stream 1, counter t * Nn + n (src/de/ops.rs).
inline FP de_correct_at(uint kind, FP v, FP x, FP a, FP b, ulong seed, ulong t, uint n, uint nn)
{
    kind &= ~DE_INTEGRAL;
    uint w1 = 0, w2 = 0;
    if ((kind == DE_UNI || kind == DE_COTN) && (v < a || v > b)) {
        uint4 w = metaopt_rng4(seed, 1u, t * nn + n);
        w1 = w.x;
        w2 = w.y;
    }
    return de_correct(kind, v, x, a, b, w1, w2);
}

// The trial component y[p, m, n] from X.
// The random numbers are keyed by the global island p0 + p of npg (the engine holds islands
// p0 .. p0 + np - 1 of npg: src/de/multi.rs; p0 = 0 and npg = np on one device).
inline FP de_trial_component(__global const FP *X, uint np, uint nm, uint nn, uint p, uint m, uint n,
                             __global const FP *lo, __global const FP *hi, __global const uchar *kinds,
                             __global const FP *F, __global const ulong *crt, uint mutation, uint shared,
                             ulong gen, ulong seed_mut, ulong seed_cross, uint p0, uint npg)
{
    uint r[5];
    uint jrand = de_indices(seed_mut, gen, p0 + p, m, npg, nm, nn, mutation, shared, r);
    ulong pk = shared ? 0 : p0 + p;
    ulong npk = shared ? 1 : npg;
    ulong t = (gen * npk + pk) * nm + m;
    FP xi = DE_X(p, m, n);
    if (!(n == jrand || (ulong)de_cross_word(seed_cross, t, n, nn) < crt[p])) return xi;
    // F holds each island's F, then each one's dither width: this generation's F
    // (src/de/ops.rs `dithered_f`)
    FP f = F[p], fd = F[np + p];
    if (fd != (FP)0) f = f + fd * de_unit(metaopt_rng4(seed_mut, DE_DITHER_STREAM, gen * npk + pk).x);
    FP v;
    switch (mutation) {
    case DE_RAND_1:
        v = DE_X(p, r[0], n) + f * (DE_X(p, r[1], n) - DE_X(p, r[2], n));
        break;
    case DE_RAND_2:
        v = DE_X(p, r[0], n) + f * (DE_X(p, r[1], n) - DE_X(p, r[2], n));
        v = v + f * (DE_X(p, r[3], n) - DE_X(p, r[4], n));
        break;
    case DE_BEST_1:
        v = DE_X(p, nm, n) + f * (DE_X(p, r[0], n) - DE_X(p, r[1], n));
        break;
    case DE_BEST_2:
        v = DE_X(p, nm, n) + f * (DE_X(p, r[0], n) - DE_X(p, r[1], n));
        v = v + f * (DE_X(p, r[2], n) - DE_X(p, r[3], n));
        break;
    case DE_CURRENT_TO_RAND_1:
        v = xi + f * (DE_X(p, r[0], n) - xi);
        v = v + f * (DE_X(p, r[1], n) - DE_X(p, r[2], n));
        break;
    default: // DE_CURRENT_TO_BEST_1
        v = xi + f * (DE_X(p, nm, n) - xi);
        v = v + f * (DE_X(p, r[0], n) - DE_X(p, r[1], n));
        break;
    }
    return DE_ROUND(kinds[n], de_correct_at(kinds[n], v, xi, lo[n], hi[n], seed_cross, t, n, nn));
}

// The per-phase kernels; a program that wants only the helpers above (de_batch.cl's) defines
// DE_NO_KERNELS.
#ifndef DE_NO_KERNELS

// Initial population: uniform in [lo, hi] per dimension, one work-item per (p, m, n) with n
// fastest; every Fx (the best rows' too) starts at +infinity, so the first selection takes all.
__kernel void de_init(__global FP *X, __global FPF *Fx, __global const FP *lo, __global const FP *hi,
                      __global const uchar *kinds, uint np, uint nm, uint nn, ulong seed, uint p0)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)np * nm * nn) return;
    uint n = i % nn;
    uint m = (i / nn) % nm;
    uint p = i / ((size_t)nn * nm);
    // keyed by the global island p0 + p (src/de/multi.rs)
    uint4 w = metaopt_rng4(seed, 0u, (ulong)i + (ulong)p0 * nm * nn);
    DE_X(p, m, n) = DE_ROUND(kinds[n], lo[n] + de_unit(w.x) * (hi[n] - lo[n]));
    if (n == 0) {
        Fx[(size_t)p * (nm + 1) + m] = INFINITY;
#if DE_CONSTRAINED
        DE_VX((size_t)p * (nm + 1) + m) = INFINITY;
#endif
        if (m == 0) {
            Fx[(size_t)p * (nm + 1) + nm] = INFINITY;
#if DE_CONSTRAINED
            DE_VX((size_t)p * (nm + 1) + nm) = INFINITY;
#endif
        }
    }
}

// Global ids (p, m, n) and a local tile: the value of (p, m, n) is stored at tile[lx][ly]; after
// the barrier the work-item (lx, ly) writes member m_blk + lx of population p_blk + ly.
#define DE_TILE_STORE(VALUE)                                                                       \
    __local FP tile[DE_TILE][DE_TILE + 1];                                                         \
    uint lx = get_local_id(0), ly = get_local_id(1);                                               \
    uint p = get_global_id(0), m = get_global_id(1), n = get_global_id(2);                         \
    if (p < np && m < nm) tile[lx][ly] = (VALUE);                                                  \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    uint p_blk = get_group_id(0) * DE_TILE, m_blk = get_group_id(1) * DE_TILE;                    \
    uint y_m = m_blk + lx, y_p = p_blk + ly;                                                       \
    if (y_m < nm && y_p < np) Y[((size_t)n * np + y_p) * nm + y_m] = tile[ly][lx];

// Y = X (the initial evaluation), through the tile.
__kernel __attribute__((reqd_work_group_size(DE_TILE, DE_TILE, 1)))
void de_copy_x_y(__global const FP *X, __global FP *Y, uint np, uint nm, uint nn)
{
    DE_TILE_STORE(p < np && m < nm ? DE_X(p, m, n) : (FP)0)
}

// Y = trials of generation `gen`, through the tile.
__kernel __attribute__((reqd_work_group_size(DE_TILE, DE_TILE, 1)))
void de_trial(__global const FP *X, __global FP *Y, __global const FP *lo, __global const FP *hi,
              __global const uchar *kinds, __global const FP *F, __global const ulong *crt, uint np,
              uint nm, uint nn, uint mutation, uint shared, ulong gen, ulong seed_mut, ulong seed_cross,
              uint p0, uint npg)
{
    DE_TILE_STORE(p < np && m < nm ? de_trial_component(X, np, nm, nn, p, m, n, lo, hi, kinds, F, crt,
                                                        mutation, shared, gen, seed_mut, seed_cross, p0, npg)
                                   : (FP)0)
}

// Greedy selection of trial (p, m) with value f (the thesis's DEMULTIPOP_FITNESS_COPY_BETTER_Y2X):
// the trial replaces the target when DE_REPLACES(f, Fx) (f <= Fx, or f < Fx under DE_STRICT).
// With constraints, (f, v) replaces the target by de_replaces at the level in Fx.
inline void de_select_one(__global const FP *Y, __global FP *X, __global FPF *Fx, uint np, uint nm,
                          uint nn, uint p, uint m, FPF f, FPF v)
{
    size_t fx = (size_t)p * (nm + 1) + m;
    // a non-finite value is worse than every finite one (docs/ARCHITECTURE.md, Reliability)
    if (!isfinite(f)) f = INFINITY;
    if (!(v < INFINITY)) v = INFINITY;
    if (de_replaces(f, v, Fx[fx], DE_VX(fx), DE_LEVEL(Fx))) {
        Fx[fx] = f;
#if DE_CONSTRAINED
        DE_VX(fx) = v;
#endif
        for (uint n = 0; n < nn; ++n) DE_X(p, m, n) = Y[((size_t)n * np + p) * nm + m];
    }
}

#ifndef DE_EXTERNAL_F
// Evaluates every trial (one work-item per (p, m), member fastest) and selects.
__kernel void de_eval_select(__global const FP *Y, __global FPF *Fy, __global FP *X, __global FPF *Fx,
                             __global const void *data, uint np, uint nm, uint nn)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)np * nm) return;
    uint m = i % nm, p = i / nm;
    FPF f = (FPF)objective(Y + (size_t)p * nm + m, nn, np * nm, data);
    FPF v = DE_VIOLATION(Y + (size_t)p * nm + m, nn, np * nm, data);
    Fy[i] = f;
#if DE_CONSTRAINED
    DE_VY(i) = v;
#endif
    de_select_one(Y, X, Fx, np, nm, nn, p, m, f, v);
}
#endif

#if defined(MO_REPAIR) && DE_CONSTRAINED && !defined(DE_EXTERNAL_F)
// The gradient-based repair of the trials of generation `gen` (constraints.cl mo_repair), made
// in Y before they are evaluated: trial i = p Nm + m is repaired when the first word of
// metaopt_rng4(seed, MO_REPAIR_STREAM, gen Np Nm + i) is below `pick` (the host draws the same
// words to count the evaluations: src/de/constraints.rs `Repair`). S: MO_REPAIR_SCRATCH(nn)
// values per trial.
#define MO_REPAIR_STREAM 8u
__kernel void de_repair(__global FP *Y, __global const FP *lo, __global const FP *hi,
                        __global const uchar *kinds, __global const void *data, __global FP *S,
                        uint np, uint nm, uint nn, ulong gen, ulong seed, ulong pick, uint rounds)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)np * nm) return;
    uint4 w = metaopt_rng4(seed, MO_REPAIR_STREAM, gen * np * nm + i);
    if ((ulong)w.x >= pick) return;
    uint m = i % nm, p = i / nm;
    mo_repair(Y + (size_t)p * nm + m, nn, np * nm, data, lo, hi, kinds, S + i * MO_REPAIR_SCRATCH(nn),
              rounds);
}
#endif

// Selection with the values the host put in Fy (host callback objectives).
__kernel void de_select(__global const FP *Y, __global const FPF *Fy, __global FP *X, __global FPF *Fx,
                        uint np, uint nm, uint nn)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)np * nm) return;
    de_select_one(Y, X, Fx, np, nm, nn, i / nm, i % nm, Fy[i], DE_VY(i));
}

// The best member of each population (lowest value, ties to the lowest index; NaN never best)
// copied to the extra row; one work-item per population.
__kernel void de_best(__global FP *X, __global FPF *Fx, uint np, uint nm, uint nn)
{
    uint p = get_global_id(0);
    if (p >= np) return;
    size_t o = (size_t)p * (nm + 1);
    __global FPF *fx = Fx + o;
    FPF e = DE_LEVEL(Fx);
    uint best = nm;
    FPF bf = INFINITY, bv = INFINITY;
    for (uint m = 0; m < nm; ++m) {
        FPF f = fx[m], v = DE_VX(o + m);
        if (best == nm ? !isnan(f) : mo_better(f, v, bf, bv, e)) {
            bf = f;
            bv = v;
            best = m;
        }
    }
    if (best == nm) return; // every value NaN: keep the old copy
    fx[nm] = bf;
#if DE_CONSTRAINED
    DE_VX(o + nm) = bv;
#endif
    for (uint n = 0; n < nn; ++n) DE_X(p, nm, n) = DE_X(p, best, n);
}

// Migration moves planned on the host: move k copies the best of population moves[3k] over
// member moves[3k+2] of population moves[3k+1]. The sources are the best rows, which no move
// writes, so the moves are independent. One work-item per (move, n).
// A migrant's member meaning "the receiver's worst member now" (src/de/ops.rs WORST).
#define DE_WORST 0xffffffffu

// The worst member of population p (values Fx[p (Nm + 1) ..][0..nm)): NaN first (the
// highest-index NaN), else the largest value, ties to the higher index (src/de/ops.rs
// worst_one); with constraints, the worst by mo_better at the level in Fx.
inline uint de_worst(__global const FPF *Fx, uint p, uint np, uint nm)
{
    size_t o = (size_t)p * (nm + 1);
    __global const FPF *fx = Fx + o;
    FPF e = DE_LEVEL(Fx);
    uint w = 0;
    for (uint m = 1; m < nm; ++m) {
        FPF a = fx[m], b = fx[w];
        if (isnan(a) || (!isnan(b) && !mo_better(a, DE_VX(o + m), b, DE_VX(o + w), e))) w = m;
    }
    return w;
}

// Migration move k: the best (slot nm) of population moves[3k] replaces member moves[3k + 2] of
// population moves[3k + 1], DE_WORST its worst member (found here, so a plan that reads no value,
// ops::plan_blind, needs no read of the populations). One work-item per move, which finds the
// worst before it writes; a population receives at most one DE_WORST move, and no move writes a
// best slot, which the moves read.
__kernel void de_migrate(__global FP *X, __global FPF *Fx, __global const uint *moves, uint count, uint np,
                         uint nm, uint nn)
{
    uint k = get_global_id(0);
    if (k >= count) return;
    uint src = moves[3 * k], dst = moves[3 * k + 1], dm = moves[3 * k + 2];
    if (dm == DE_WORST) dm = de_worst(Fx, dst, np, nm);
    for (uint n = 0; n < nn; ++n) DE_X(dst, dm, n) = DE_X(src, nm, n);
    Fx[(size_t)dst * (nm + 1) + dm] = Fx[(size_t)src * (nm + 1) + nm];
#if DE_CONSTRAINED
    DE_VX((size_t)dst * (nm + 1) + dm) = DE_VX((size_t)src * (nm + 1) + nm);
#endif
}

// What a migration plan reads (src/de/ops.rs MigrationView), into V, one work-item per
// population: its best value (FPF at V), its worst member (uint at V + o_w, de_worst), and with
// `rows` its best row (FP at V + o_r, row p of nn). A few bytes per population instead of every
// value.
__kernel void de_view(__global const FP *X, __global const FPF *Fx, __global uchar *V, uint np, uint nm, uint nn,
                      uint rows, uint o_w, uint o_r)
{
    uint p = get_global_id(0);
    if (p >= np) return;
    __global const FPF *fx = Fx + (size_t)p * (nm + 1);
    ((__global FPF *)V)[p] = fx[nm];
    ((__global uint *)(V + o_w))[p] = de_worst(Fx, p, np, nm);
    if (rows) {
        __global FP *R = (__global FP *)(V + o_r);
        for (uint n = 0; n < nn; ++n) R[(size_t)p * nn + n] = DE_X(p, nm, n);
    }
}

// The moments of each population's values fx[0..nm) (not its best slot) for the convergence
// test of src/de/ops.rs `spread`: the mean at S[2p] and the sum of squared deviations from it at
// S[2p + 1], two passes in member order as the host computes them (a non-finite value makes both
// non-finite). A few values per population instead of every value. One work-item per population.
__kernel void de_moments(__global const FPF *Fx, __global FPF *S, uint np, uint nm)
{
    uint p = get_global_id(0);
    if (p >= np) return;
    __global const FPF *fx = Fx + (size_t)p * (nm + 1);
    FPF sum = 0;
    for (uint m = 0; m < nm; ++m) sum += fx[m];
    FPF mean = sum / (FPF)nm, m2 = 0;
    for (uint m = 0; m < nm; ++m) {
        FPF d = fx[m] - mean;
        m2 += d * d;
    }
#if DE_CONSTRAINED
    // a population with an infeasible member has not converged (as scipy, whose infeasible
    // members' energies are infinite)
    for (uint m = 0; m < nm; ++m)
        if (!(DE_VX((size_t)p * (nm + 1) + m) <= (FPF)0)) mean = m2 = INFINITY;
#endif
    S[2 * p] = mean;
    S[2 * p + 1] = m2;
}

// The migrants' export (src/de/multi.rs): population idx[k]'s best row into R[k * nn ..] and
// its value into FR[k], for the migrants that leave this device. One work-item per migrant.
__kernel void de_export(__global const FP *X, __global const FPF *Fx, __global const uint *idx, __global FP *R,
                        __global FPF *FR, uint count, uint np, uint nm, uint nn)
{
    uint k = get_global_id(0);
    if (k >= count) return;
    uint p = idx[k];
    for (uint n = 0; n < nn; ++n) R[(size_t)k * nn + n] = DE_X(p, nm, n);
    FR[k] = Fx[(size_t)p * (nm + 1) + nm];
}

// Migrant import (src/de/multi.rs): migrant k (values V[k * nn ..], value FV[k], from another
// engine's best row) replaces member moves[2k+1] of population moves[2k] (DE_WORST: its worst,
// found here), as de_migrate writes it. One work-item per migrant.
__kernel void de_import(__global FP *X, __global FPF *Fx, __global const uint *moves, __global const FP *V,
                        __global const FPF *FV, uint count, uint np, uint nm, uint nn)
{
    uint k = get_global_id(0);
    if (k >= count) return;
    uint dst = moves[2 * k], dm = moves[2 * k + 1];
    if (dm == DE_WORST) dm = de_worst(Fx, dst, np, nm);
    for (uint n = 0; n < nn; ++n) DE_X(dst, dm, n) = V[(size_t)k * nn + n];
    Fx[(size_t)dst * (nm + 1) + dm] = FV[k];
}

// The adaptive variants (src/de/adapt.rs: JADE, SHADE, L-SHADE, jSO). The host draws every
// active member's F, Fw, CR (as a threshold) and the members of its mutation each generation
// and uploads them; these kernels only follow that plan. Members m < na[p] are active (L-SHADE
// and jSO shrink the populations; the rest hold +inf). The archive A keeps `acap` rows of Nn per
// population, slot s of population p at A[(p * acap + s) * Nn + n]; an index k >= Nm of a plan
// names archive slot k - Nm.
#define ADE_X(k) ((k) < nm ? DE_X(p, (k), n) : A[((size_t)p * acap + ((k) - nm)) * nn + n])

// Trial component (p, m, n) of an active member: v = (x_a + Fw (x_b - x_c)) + F (x_d - x_e)
// with idx[6 r .. 6 r + 5] = a, b, c, d, e, j_rand (current-to-pbest/1: a = c = i, b = pbest,
// d = r1, e = r2 from P and A); binomial crossover and bound correction as de_trial_component.
// One work-item per (p, m, n), n fastest; Y member fastest as de_trial writes it.
__kernel void ade_trial(__global const FP *X, __global const FP *A, __global FP *Y, __global const FP *lo,
                        __global const FP *hi, __global const uchar *kinds, __global const FP *Fm,
                        __global const FP *Fw, __global const ulong *crt, __global const uint *idx,
                        __global const uint *na, uint np, uint nm, uint nn, uint acap, uint shared, ulong gen,
                        ulong seed_cross)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)np * nm * nn) return;
    uint n = i % nn;
    uint m = (i / nn) % nm;
    uint p = i / ((size_t)nn * nm);
    if (m >= na[p]) return;
    size_t r = (size_t)p * nm + m;
    __global const uint *id = idx + 6 * r;
    ulong pk = shared ? 0 : p;
    ulong npk = shared ? 1 : np;
    ulong t = (gen * npk + pk) * nm + m;
    FP xi = DE_X(p, m, n);
    FP y = xi;
    if (n == id[5] || (ulong)de_cross_word(seed_cross, t, n, nn) < crt[r]) {
        FP v = ADE_X(id[0]) + Fw[r] * (ADE_X(id[1]) - ADE_X(id[2]));
        v = v + Fm[r] * (ADE_X(id[3]) - ADE_X(id[4]));
        y = DE_ROUND(kinds[n], de_correct_at(kinds[n], v, xi, lo[n], hi[n], seed_cross, t, n, nn));
    }
    Y[((size_t)n * np + p) * nm + m] = y;
}

#ifndef DE_EXTERNAL_F
// Evaluates the active trials (Fy of the others +inf); no selection: the host reads Fy first
// to plan the archive's insertions (the parents the selection then overwrites).
__kernel void ade_eval(__global const FP *Y, __global FPF *Fy, __global const void *data,
                       __global const uint *na, uint np, uint nm, uint nn)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)np * nm) return;
    uint m = i % nm, p = i / nm;
    if (m >= na[p]) {
        Fy[i] = INFINITY;
#if DE_CONSTRAINED
        DE_VY(i) = INFINITY;
#endif
        return;
    }
    FPF f = (FPF)objective(Y + (size_t)p * nm + m, nn, np * nm, data);
    Fy[i] = isfinite(f) ? f : INFINITY;
#if DE_CONSTRAINED
    FPF v = DE_VIOLATION(Y + (size_t)p * nm + m, nn, np * nm, data);
    DE_VY(i) = v < INFINITY ? v : INFINITY;
#endif
}
#endif

// Archive insertions planned on the host: move k copies member moves[3k+1] of population
// moves[3k] into its slot moves[3k+2] (at most one move per slot). One work-item per (k, n).
__kernel void ade_archive(__global const FP *X, __global FP *A, __global const uint *moves, uint count,
                          uint np, uint nm, uint nn, uint acap)
{
    uint k = get_global_id(0), n = get_global_id(1);
    if (k >= count || n >= nn) return;
    uint p = moves[3 * k], m = moves[3 * k + 1], s = moves[3 * k + 2];
    A[((size_t)p * acap + s) * nn + n] = DE_X(p, m, n);
}

// Greedy selection of the active trials with the values in Fy.
__kernel void ade_select(__global const FP *Y, __global const FPF *Fy, __global FP *X, __global FPF *Fx,
                         __global const uint *na, uint np, uint nm, uint nn)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)np * nm) return;
    uint m = i % nm, p = i / nm;
    if (m >= na[p]) return;
    de_select_one(Y, X, Fx, np, nm, nn, p, m, Fy[i], DE_VY(i));
}
#endif // DE_NO_KERNELS
