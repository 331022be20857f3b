// de_batch.cl: the fused DE kernel (docs/specs/DE.md; paper 002, Farkov & Legalov 2014): whole
// generations of one population per work-group, one work-item per member (looping when the members
// exceed the group), K generations per launch. Two kernels share its body, `deb_generations`:
//
// * deb_run (DEB_BATCH): B independent problems, each its own objective (a catalogue function or a
//   user's source, through the generated dispatcher `deb_objective(id, x, dims, stride, data)` of
//   src/de/batch.rs), dims, bounds, members, F, CR, mutation, bound corrections, seed, budget and
//   target. Layouts per problem b (offsets in meta64), structure of arrays, member fastest:
//   X[xoff + n * np + m] (targets), Y[xoff + n * np + m] (trials; the objective's stride is np),
//   Fx[foff + m], Fy[foff + m]. state[2b] is the status (0 new, 1 running, 2 target reached,
//   3 budget spent), state[2b + 1] the best member; gens[b] the generations run. A finished
//   problem's group returns at once, so its result is frozen.
// * de_fused (DEB_ISLANDS): the island DE's generations between two migrations, one work-group per
//   island, on X, Fx, Y, Fy in the layouts of de.cl (whose kernels share the program) with its
//   `objective`; at the end the best row of every island is updated, as de_best does. The random
//   numbers are the island DE's (de_indices, and the crossover words keyed by island and member),
//   so the launch computes what the per-phase kernels compute generation by generation.
//
// It follows common.cl and de.cl (whose helpers de_unit, de_indices and de_correct it uses), and
// for DEB_BATCH the dispatcher. With DEB_LOCAL a population and its values live in local memory
// during a launch (copied in at its start and out at its end), in two copies that the generations
// alternate between (one barrier a generation); otherwise the kernel works on X and Fx in global
// memory, in place. The best member is found every generation only for the mutations that read it
// (best/1, best/2, current-to-best/1); for the others once at the end of a launch.
//
// Build-time macros: DEB_JDE (0 or 1: jDE100's kernel `jde_fused` and deb_run's jDE100 branch, built
// only when a solver or a batch uses jDE100, which keeps the others' programs as they were),
// FP, FP_DOUBLE, FPF (the fitness type, de.cl; the batch leaves it FP), DEB_LOCAL (0 or 1), DEB_TRIAL_LOCAL (0 or 1: the trials in
// local memory, catalogue objectives only, with MO_XS __local), DEB_BATCH or DEB_ISLANDS, and with
// DEB_ISLANDS and DEB_TRIAL_LOCAL, DEB_OBJECTIVE (the catalogue function, mo_<name>).
//
// DEB_CONSTRAINED (0 or 1; DEB_BATCH only, never with DEB_TRIAL_LOCAL): a batch with constrained
// problems (docs/specs/DE.md, Constraints; Batched). Every value of Fx and Fy has its violation
// in the second half of its buffer (problem b's at meta64 DEB_VOFF; with DEB_LOCAL the
// population's violations follow its values in lfx), from the generated dispatcher
// `deb_violation(cset, x, dims, stride, data)` (constraints.cl's mo_violation per constraint set;
// set 0, an unconstrained problem, gives 0), and the fixed DE compares by Deb's feasibility rules
// (constraints.cl's mo_better and de.cl's de_replaces at level 0): the selection, the best member
// and the target, which a feasible value only reaches. The reduction's rv holds 2 wg values then.

#pragma OPENCL FP_CONTRACT OFF

#ifndef DEB_JDE
#define DEB_JDE 0
#endif
#ifndef DEB_ADE
#define DEB_ADE 0
#endif
#ifndef DEB_CONSTRAINED
#define DEB_CONSTRAINED 0
#endif
#if DEB_CONSTRAINED && DEB_TRIAL_LOCAL
#error "DEB_CONSTRAINED: the constraints read the trials in global memory (no DEB_TRIAL_LOCAL)"
#endif

#define DEB_NEW 0u
#define DEB_RUNNING 1u
#define DEB_TARGET 2u
#define DEB_BUDGET 3u

// meta (uint) and meta64 (ulong) fields per problem
#define DEB_M 10
#define DEB_FUNC 0
#define DEB_DIMS 1
#define DEB_NP 2
#define DEB_MUT 3
#define DEB_ALG 4
#define DEB_HAS_TARGET 5
#define DEB_JSMALL 6
#define DEB_AH 7
#define DEB_ACAP 8
#define DEB_CSET 9
#define DEB_JDE100 5
#define DEB_M64 13
#define DEB_XOFF 0
#define DEB_FOFF 1
#define DEB_DOFF 2
#define DEB_BOFF 3
#define DEB_SEED_INIT 4
#define DEB_SEED_MUT 5
#define DEB_SEED_CROSS 6
#define DEB_CRT 7
#define DEB_MAXGEN 8
#define DEB_AMOFF 9
#define DEB_AAOFF 10
#define DEB_ABUDGET 11
#define DEB_VOFF 12
// fpar (FP) per problem: F, the target, then the adaptive variants' p, archive rate and c
#define DEB_FP 5

// A work-item evaluates and selects the trials it made (the same members in both loops), so the
// trials in global memory need no fence between work-items; the targets do when they are global.
// (A global fence costs microseconds on NVIDIA: it was the fused kernel's main cost.)
#if DEB_LOCAL
#define DEB_SPACE __local
#define DEB_FENCE CLK_LOCAL_MEM_FENCE
#else
#define DEB_SPACE __global
#define DEB_FENCE (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#endif

// With DEB_TRIAL_LOCAL (a batch of catalogue functions only, built with MO_XS __local) the trials
// and their values live in local memory too, and the objective reads them there: a global load
// of a value just stored waits for L2 (hundreds of cycles a component on a GPU), a local one
// does not.
#if DEB_TRIAL_LOCAL
#define DEB_YSPACE __local
#else
#define DEB_YSPACE __global
#endif

// Indices: component n of member k of the targets (strides sn, sm) and of the trials (stride
// yn). In local memory (sn = members, sm = 1) and in a batch's global arrays (a problem's X holds
// at most 2^31 values, checked on the host) they fit 32 bits, which saves the 64-bit multiplies
// of every access; the island DE's global layouts need size_t.
#if DEB_LOCAL
#define DEB_XI(n, k, sn, sm) ((uint)(n) * (uint)(sn) + (uint)(k))
#elif defined(DEB_ISLANDS)
#define DEB_XI(n, k, sn, sm) ((size_t)(n) * (sn) + (size_t)(k) * (sm))
#else
#define DEB_XI(n, k, sn, sm) ((uint)(n) * (uint)(sn) + (uint)(k))
#endif
#if defined(DEB_ISLANDS) && !DEB_TRIAL_LOCAL
#define DEB_YI(n, k, yn) ((size_t)(n) * (yn) + (size_t)(k))
#else
#define DEB_YI(n, k, yn) ((uint)(n) * (uint)(yn) + (uint)(k))
#endif

#if defined(DEB_ISLANDS) && DEB_TRIAL_LOCAL
// the catalogue function itself (functions.cl built with MO_XS __local; `objective` reads global
// memory, so this program defines none)
#define DEB_EVAL(func, x, nn, stride, data) DEB_OBJECTIVE(x, nn, stride, (__global const FP *)(data))
#elif defined(DEB_ISLANDS)
#define DEB_EVAL(func, x, nn, stride, data) objective(x, nn, stride, (__global const void *)(data))
#else
#define DEB_EVAL(func, x, nn, stride, data) deb_objective(func, x, nn, stride, data)
#endif

// The best member (lowest value, ties to the lowest index) by a tree over the group (wg a power
// of two); every value is finite or +inf, never NaN. Every work-item returns it, and its value in
// *value (read from rv, not fx: the member's owner may replace fx[best] before a slower work-item
// reads it). rv and ri are written again only after a later barrier (every caller makes one
// before the next call).
inline uint deb_best(DEB_SPACE const FPF *fx, uint np, uint lid, uint wg, __local FPF *rv, __local uint *ri, FPF *value)
{
    FPF bv = INFINITY;
    uint bi = 0xffffffffu;
    for (uint m = lid; m < np; m += wg) {
        FPF v = fx[m];
        int better = v < bv || (v == bv && m < bi);
        bv = better ? v : bv;
        bi = better ? m : bi;
    }
    rv[lid] = bv;
    ri[lid] = bi;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = wg / 2; s > 0; s /= 2) {
        if (lid < s) {
            FPF v = rv[lid + s];
            uint i = ri[lid + s];
            int better = v < rv[lid] || (v == rv[lid] && i < ri[lid]);
            rv[lid] = better ? v : rv[lid];
            ri[lid] = better ? i : ri[lid];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *value = rv[0];
    return ri[0];
}

#if DEB_CONSTRAINED
// deb_best by Deb's feasibility rules (mo_better at level 0) over the values fx and their
// violations vx, ties (neither better) to the lowest index; the best's violation in *viol. rw
// holds the reduction's violations beside rv's values.
inline uint deb_best_c(DEB_SPACE const FPF *fx, DEB_SPACE const FPF *vx, uint np, uint lid, uint wg, __local FPF *rv,
                       __local FPF *rw, __local uint *ri, FPF *value, FPF *viol)
{
    FPF bv = INFINITY, bw = INFINITY;
    uint bi = 0xffffffffu;
    for (uint m = lid; m < np; m += wg) {
        FPF v = fx[m], w = vx[m];
        int better = mo_better(v, w, bv, bw, (FPF)0) || (!mo_better(bv, bw, v, w, (FPF)0) && m < bi);
        bv = better ? v : bv;
        bw = better ? w : bw;
        bi = better ? m : bi;
    }
    rv[lid] = bv;
    rw[lid] = bw;
    ri[lid] = bi;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = wg / 2; s > 0; s /= 2) {
        if (lid < s) {
            FPF v = rv[lid + s], w = rw[lid + s];
            uint i = ri[lid + s];
            int better = mo_better(v, w, rv[lid], rw[lid], (FPF)0) ||
                         (!mo_better(rv[lid], rw[lid], v, w, (FPF)0) && i < ri[lid]);
            rv[lid] = better ? v : rv[lid];
            rw[lid] = better ? w : rw[lid];
            ri[lid] = better ? i : ri[lid];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *value = rv[0];
    *viol = rw[0];
    return ri[0];
}

// A trial's violation as the comparisons take it: NaN and +inf are +inf (as de_select_one).
inline FPF deb_sane(FPF v)
{
    return v < (FPF)INFINITY ? v : (FPF)INFINITY;
}
#define DEB_VIOLATION(cset, x, nn, stride, data) deb_sane((FPF)deb_violation(cset, x, nn, stride, data))
// Whether trial (f, v) replaces target (g, w): de_replaces at level 0 (Deb's rules; ties replace)
#define DEB_TAKES(f, v, g, w) de_replaces(f, v, g, w, (FPF)0)
#define DEB_FEASIBLE(v) ((v) == (FPF)0)
#else
#define DEB_TAKES(f, v, g, w) DE_REPLACES(f, g)
#define DEB_FEASIBLE(v) 1
#endif

// Whether the mutation reads the best member (then the best is found every generation; else once
// at the end of a launch, the target being watched by the flag of `deb_generations`).
inline int deb_needs_best(uint mutation)
{
    return mutation == DE_BEST_1 || mutation == DE_BEST_2 || mutation == DE_CURRENT_TO_BEST_1;
}

// The mutation as five member indices: every strategy is v = X[a] + F (X[b] - X[c]), then for
// the two-difference ones v + F (X[d] - X[e]) (src/de/ops.rs `mutant`, operation for operation:
// current-to-* use the target i as a and c). Set once per target, so that each component's
// mutant is straight-line code (no switch), and the components of a block overlap.
inline uint deb_terms(uint mutation, const uint r[5], uint i, uint best, uint t[5])
{
    switch (mutation) {
    case DE_RAND_1:
        t[0] = r[0], t[1] = r[1], t[2] = r[2], t[3] = r[0], t[4] = r[0];
        return 0u;
    case DE_RAND_2:
        t[0] = r[0], t[1] = r[1], t[2] = r[2], t[3] = r[3], t[4] = r[4];
        return 1u;
    case DE_BEST_1:
        t[0] = best, t[1] = r[0], t[2] = r[1], t[3] = best, t[4] = best;
        return 0u;
    case DE_BEST_2:
        t[0] = best, t[1] = r[0], t[2] = r[1], t[3] = r[2], t[4] = r[3];
        return 1u;
    case DE_CURRENT_TO_RAND_1:
        t[0] = i, t[1] = r[0], t[2] = i, t[3] = r[1], t[4] = r[2];
        return 1u;
    default: // DE_CURRENT_TO_BEST_1
        t[0] = i, t[1] = best, t[2] = i, t[3] = r[0], t[4] = r[1];
        return 1u;
    }
}

// Status after a generation (or the initial evaluation): target reached, budget spent, running.
inline uint deb_status(int reached, ulong gen, ulong max_gen)
{
    if (reached) return DEB_TARGET;
    if (gen >= max_gen) return DEB_BUDGET;
    return DEB_RUNNING;
}

// What a population is to `deb_generations`.
typedef struct {
    uint nn, np, mutation, func;
    // random keys: the island (0 in a batch), the populations of the island DE (1 in a batch),
    // whether islands share the random numbers
    uint p, npop, shared;
    uint has_target;
    // F, and its dither width (src/de/ops.rs `dithered_f`; 0: F itself every generation)
    FP f, fd, target;
    ulong crt, s_mut, s_cross, max_gen;
    // member k's component n of X at xs[n * sn + k * sm]; trial (n, k) at ys[n * yn + k]
    ulong sn, sm, yn;
} deb_pop;

// Member m's trial of generation g from the targets xs (b: the best member, for the mutations
// that read it) into gy, and its value, rounded to FPF (+inf when not finite), into gfy[m] and
// returned: what deb_generations and the wide kernels (de_wide) make of every member.
inline FPF deb_trial(deb_pop q, ulong g, uint m, uint b, DEB_SPACE const FP *xs, DEB_YSPACE FP *gy,
                     DEB_YSPACE FPF *gfy, __global const FP *lo, __global const FP *hi,
                     __global const uchar *kinds, __global const uchar *data)
{
    uint nn = q.nn, np = q.np;
    ulong pk = q.shared ? 0 : q.p;
    ulong npk = q.shared ? 1 : q.npop;
    // this generation's F (ops::dithered_f)
    if (q.fd != (FP)0) q.f = q.f + q.fd * de_unit(metaopt_rng4(q.s_mut, DE_DITHER_STREAM, g * npk + pk).x);
    // crossover words: one Philox call per four components (de_cross_word); the first
    // block's call comes before the index choice, independent of it, so that the two
    // overlap (the generator's latency is most of a small population's generation)
    ulong t = (g * npk + pk) * np + m;
    ulong t4 = t * ((nn + 3) / 4);
    uint4 cw = metaopt_rng4(q.s_cross, 0u, t4);
    uint r[5], tm[5];
    uint jrand = de_indices(q.s_mut, g, q.p, m, q.npop, np, nn, q.mutation, q.shared, r);
    uint two = deb_terms(q.mutation, r, m, b, tm);
    // component n: the mutant always (straight-line), the target's value unless it
    // crosses, the correction only for a crossing component out of bounds (de_correct
    // returns a value inside, or NaN, unchanged)
#define DEB_COMPONENT(N, WORD)                                                                     \
    {                                                                                          \
        uint n_ = (N);                                                                         \
        FP xi = xs[DEB_XI(n_, m, q.sn, q.sm)];                                                 \
        FP v = xs[DEB_XI(n_, tm[0], q.sn, q.sm)] +                                             \
               q.f * (xs[DEB_XI(n_, tm[1], q.sn, q.sm)] - xs[DEB_XI(n_, tm[2], q.sn, q.sm)]);  \
        FP v2 = v + q.f * (xs[DEB_XI(n_, tm[3], q.sn, q.sm)] - xs[DEB_XI(n_, tm[4], q.sn, q.sm)]); \
        v = two ? v2 : v;                                                                      \
        int cross = n_ == jrand || (ulong)(WORD) < q.crt;                                      \
        FP a_ = lo[n_], b_ = hi[n_];                                                           \
        FP y = cross ? v : xi;                                                                 \
        if (cross && (v < a_ || v > b_)) y = de_correct_at(kinds[n_], v, xi, a_, b_, q.s_cross, t, n_, nn); \
        gy[DEB_YI(n_, m, q.yn)] = DE_ROUND(kinds[n_], y);                                      \
    }
    uint n0 = 0;
    for (; n0 + 4 <= nn; n0 += 4) {
        if (n0 > 0) cw = metaopt_rng4(q.s_cross, 0u, t4 + n0 / 4);
        DEB_COMPONENT(n0, cw.x)
        DEB_COMPONENT(n0 + 1, cw.y)
        DEB_COMPONENT(n0 + 2, cw.z)
        DEB_COMPONENT(n0 + 3, cw.w)
    }
    if (n0 < nn) {
        if (n0 > 0) cw = metaopt_rng4(q.s_cross, 0u, t4 + n0 / 4);
        for (uint j = 0; n0 + j < nn; ++j) DEB_COMPONENT(n0 + j, de_word(cw, j))
    }
#undef DEB_COMPONENT
    // computed in FP, rounded to the fitness type FPF (as de_eval_select)
    FPF v = (FPF)DEB_EVAL(q.func, gy + m, nn, (uint)q.yn, data);
    FPF fy = isfinite(v) ? v : (FPF)INFINITY;
    gfy[m] = fy;
    return fy;
}

// Up to k_gens generations of population `q` from *gen with *status and *best: trials from the
// previous generation, each evaluated and selected by the work-item that made it (the trial
// replaces the target when DE_REPLACES(f, Fx), f <= Fx or under DE_STRICT f < Fx, without branches; with DEB_LOCAL right after its evaluation,
// in the same pass), the best again when the mutation reads it,
// the status. Every work-item of the group calls it and leaves it with the same *gen, *status,
// *best. It returns where the population now is: with DEB_LOCAL the generations alternate between
// xs and xs2 (the selection writes the next population beside the one being read, so one barrier a
// generation suffices); in global memory the population stays in xs (xs2 unused), replaced in
// place after a second barrier. `hit` is a local word: the generation (low 32 bits) in which a
// selected trial reached the target.
inline DEB_SPACE FP *deb_generations(deb_pop q, DEB_SPACE FP *xs, DEB_SPACE FP *xs2, DEB_SPACE FPF *fxs,
                                     DEB_YSPACE FP *gy, DEB_YSPACE FPF *gfy, __global const FP *lo,
                                     __global const FP *hi, __global const uchar *kinds, __global const uchar *data,
                                     uint k_gens, uint lid, uint wg, __local FPF *rv, __local uint *ri,
                                     volatile __local uint *hit, ulong *gen, uint *status, uint *best
#if DEB_CONSTRAINED
                                     , DEB_SPACE FPF *vxs, __global FPF *gvy, uint cset
#endif
                                     )
{
    uint nn = q.nn, np = q.np;
    int need_best = deb_needs_best(q.mutation);
    // no generation of this launch has reached the target yet
    if (lid == 0) *hit = (uint)*gen;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < k_gens && *status == DEB_RUNNING; ++k) {
        ulong g = *gen + 1;
        uint b = *best;
        for (uint m = lid; m < np; m += wg) {
            FPF fy = deb_trial(q, g, m, b, xs, gy, gfy, lo, hi, kinds, data);
#if DEB_CONSTRAINED
            FPF vy = DEB_VIOLATION(cset, gy + m, nn, (uint)q.yn, data);
            gvy[m] = vy;
#endif
#if DEB_LOCAL
            // the selection at once: the next population goes beside this one, which no other
            // work-item reads from where this one writes
            int take = DEB_TAKES(fy, vy, fxs[m], vxs[m]);
            fxs[m] = take ? fy : fxs[m];
#if DEB_CONSTRAINED
            vxs[m] = take ? vy : vxs[m];
#endif
            if (take && q.has_target && DEB_FEASIBLE(vy) && fy <= q.target) *hit = (uint)g;
            for (uint n = 0; n < nn; ++n) {
                uint i = DEB_XI(n, m, q.sn, q.sm);
                xs2[i] = take ? gy[DEB_YI(n, m, q.yn)] : xs[i];
            }
#endif
        }
#if DEB_LOCAL
        DEB_SPACE FP *xn = xs2;
#else
        // in place: every mutation of this generation must have read the targets first
        DEB_SPACE FP *xn = xs;
        barrier(DEB_FENCE);
        // every work-item makes the same number of passes, idle ones included (PoCL skipped the
        // selection of a group whose idle work-items made none)
        for (uint base = 0; base < np; base += wg) {
            uint m = base + lid;
            int in = m < np;
            uint mm = in ? m : 0u;
            FPF fy = gfy[mm];
#if DEB_CONSTRAINED
            FPF vy = gvy[mm];
#endif
            int take = in && DEB_TAKES(fy, vy, fxs[mm], vxs[mm]);
            if (in) fxs[mm] = take ? fy : fxs[mm];
#if DEB_CONSTRAINED
            if (in) vxs[mm] = take ? vy : vxs[mm];
#endif
            if (take && q.has_target && DEB_FEASIBLE(vy) && fy <= q.target) *hit = (uint)g;
            for (uint n = 0; n < nn && in; ++n) {
                size_t i = DEB_XI(n, mm, q.sn, q.sm);
                xn[i] = take ? gy[DEB_YI(n, mm, q.yn)] : xs[i];
            }
        }
#endif
        barrier(DEB_FENCE);
#if DEB_LOCAL
        xs2 = xs;
        xs = xn;
#endif
        // the target is reached when a selected trial reached it (the earlier members did not:
        // the run would have stopped)
        int reached = *hit == (uint)g;
        if (need_best) {
            FPF bv;
#if DEB_CONSTRAINED
            FPF bw;
            *best = deb_best_c(fxs, vxs, np, lid, wg, rv, rv + wg, ri, &bv, &bw);
#else
            *best = deb_best(fxs, np, lid, wg, rv, ri, &bv);
#endif
        }
        *gen = g;
        *status = deb_status(reached, g, q.max_gen);
    }
    if (!need_best) {
        FPF bv;
#if DEB_CONSTRAINED
        FPF bw;
        *best = deb_best_c(fxs, vxs, np, lid, wg, rv, rv + wg, ri, &bv, &bw);
#else
        *best = deb_best(fxs, np, lid, wg, rv, ri, &bv);
#endif
    }
    return xs;
}

// ---------------------------------------------------------------------------------------------
// jDE100 (J. Brest, M. S. Maučec, B. Bošković, "The 100-Digit Challenge: Algorithm jDE100",
// IEEE CEC 2019, pp. 19-26), following jDE100 as restated by j2020's code (same authors, CEC 2020)
// with its CEC 2019 settings; docs/specs/DE.md "jDE100"; the host twin is src/de/jde.rs. An island
// (or a batched problem) of nm = nb + ns members: members 0..nb the big population, nb.. the small
// one, each member with its own F and CR (jf: F, CR, then the trial's F and CR, nm each). One
// cycle: the restart tests, one generation of the big population, the small population's restart
// or the copy of the best into it, then ceil(nb / ns) generations of the small population. The
// source is steady-state (a trial replaces its target at once); here every generation is
// generational (its trials all come from the previous generation), as the fixed DE's.
//
// Random numbers, with G = g (k + 1) + s the sub-generation s (0 big, 1..k small) of cycle g and
// t = (G Np + p) nm + m (global member m of island p): the F and CR draws are words 0-3 of stream 2
// of the mutation seed at counter t (tau1 test, F, tau2 test, CR); r1, r2, r3 and j_rand words
// 0-3 of stream 0 at t; the crossover words and the bound corrections' words as the fixed DE's
// with key t; a restart's values word 0 of stream 1 of the init seed at (G Np + p) nm nn + m nn + n.

typedef struct {
    uint nn, nb, ns, p, npop, func;
    ulong s_init, s_mut, s_cross, age_limit;
    FPF eps;
    // member k's component n of X at xs[n * sn + k * sm]; trial (n, k) at ys[n * yn + k]
    ulong sn, sm, yn;
} jde_pop;

// Three distinct members of 0..n-1, all different from i, from words w.x, w.y, w.z: word t picks
// among the members not yet chosen (the rank mapping of de_indices; src/de/jde.rs `pick3`).
inline void jde_pick3(uint4 w, uint i, uint n, uint r[3])
{
    uint ws[3] = {w.x, w.y, w.z};
    uint chosen[4] = {i, 0u, 0u, 0u};
#pragma unroll
    for (uint t = 0; t < 3; ++t) {
        uint v = de_below(ws[t], n - 1 - t);
        uint pos = 0;
#pragma unroll
        for (uint s = 0; s < 4; ++s) {
            if (s <= t && v >= chosen[s]) {
                ++v;
                pos = s + 1;
            }
        }
#pragma unroll
        for (uint s = 3; s > 0; --s) chosen[s] = s > pos ? chosen[s - 1] : (s == pos ? v : chosen[s]);
        chosen[0] = pos == 0 ? v : chosen[0];
        r[t] = v;
    }
}

// How many of fx[0..n) are within eps of fb (|f - fb| < eps), returned to every work-item.
inline uint jde_near(DEB_SPACE const FPF *fx, uint n, FPF fb, FPF eps, uint lid, uint wg, __local uint *ri)
{
    uint c = 0;
    for (uint m = lid; m < n; m += wg) c += fabs(fx[m] - fb) < eps ? 1u : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    ri[lid] = c;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = wg / 2; s > 0; s /= 2) {
        if (lid < s) ri[lid] += ri[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    uint r = ri[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

// The best of members base..base+n; when it is below the best ever (*best_ever), it becomes the
// best ever: its row goes to brow (stride bsn), its value to *bval, and the age restarts.
inline void jde_keep_best(jde_pop q, uint base, uint n, DEB_SPACE FP *xs, DEB_SPACE FPF *fxs, __global FP *brow,
                          ulong bsn, __global FPF *bval, uint lid, uint wg, __local FPF *rv, __local uint *ri,
                          FPF *best_ever, ulong *age)
{
    FPF bv;
    uint b = base + deb_best(fxs + base, n, lid, wg, rv, ri, &bv);
    if (bv < *best_ever) {
        for (uint j = lid; j < q.nn; j += wg) brow[(size_t)j * bsn] = xs[DEB_XI(j, b, q.sn, q.sm)];
        if (lid == 0) *bval = bv;
        *best_ever = bv;
        *age = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

// Members base..base+n except `skip` anew when `due` (uniform), uniform in the bounds (keys of
// sub-generation G), evaluated, with F = 0.5 and CR = 0.9; when `copy`, member `from`'s row and
// value over member base. No barrier: the caller makes one after.
inline void jde_reinit(jde_pop q, ulong G, uint base, uint n, uint skip, int due, int copy, uint from, FPF fb,
                       DEB_SPACE FP *xs, DEB_SPACE FPF *fxs, DEB_YSPACE FP *gy, __global FP *jf, __global const FP *lo,
                       __global const FP *hi, __global const uchar *kinds, __global const uchar *data, uint lid,
                       uint wg)
{
    uint nn = q.nn, nm = q.nb + q.ns;
    for (uint i = lid; i < n && due; i += wg) {
        uint m = base + i;
        if (m == skip) continue;
        ulong c = ((G * q.npop + q.p) * nm + m) * nn;
        for (uint j = 0; j < nn; ++j) {
            uint4 w = metaopt_rng4(q.s_init, 1u, c + j);
            FP v = DE_ROUND(kinds[j], lo[j] + de_unit(w.x) * (hi[j] - lo[j]));
            xs[DEB_XI(j, m, q.sn, q.sm)] = v;
            gy[DEB_YI(j, m, q.yn)] = v;
        }
        FPF v = (FPF)DEB_EVAL(q.func, gy + m, nn, (uint)q.yn, data);
        fxs[m] = isfinite(v) ? v : (FPF)INFINITY;
        jf[m] = (FP)0.5;
        jf[nm + m] = (FP)0.9;
    }
    for (uint j = lid; j < nn && copy; j += wg) xs[DEB_XI(j, base, q.sn, q.sm)] = xs[DEB_XI(j, from, q.sn, q.sm)];
    if (copy && lid == 0) fxs[base] = fb;
}

// One generation of the population base..base+n (sub-generation G): F and CR of each trial
// (self-adapted with tau1 = tau2 = 0.1, F = fl + U 1.1, CR = crl + U crspan), DE/rand/1/bin inside
// the population, the bound correction of each dimension; then the selection (DE_REPLACES: a
// trial that replaces its target hands it its F and CR).
inline void jde_generation(jde_pop q, ulong G, uint base, uint n, FP fl, FP crl, FP crspan, DEB_SPACE FP *xs,
                           DEB_SPACE FPF *fxs, DEB_YSPACE FP *gy, DEB_YSPACE FPF *gfy, __global FP *jf,
                           __global const FP *lo, __global const FP *hi, __global const uchar *kinds,
                           __global const uchar *data, uint lid, uint wg)
{
    uint nn = q.nn, nm = q.nb + q.ns;
    for (uint i = lid; i < n; i += wg) {
        uint m = base + i;
        ulong t = (G * q.npop + q.p) * nm + m;
        uint4 pw = metaopt_rng4(q.s_mut, 2u, t);
        FP f = de_unit(pw.x) < (FP)0.1 ? fl + de_unit(pw.y) * (FP)1.1 : jf[m];
        FP cr = de_unit(pw.z) < (FP)0.1 ? crl + de_unit(pw.w) * crspan : jf[nm + m];
        jf[2 * nm + m] = f;
        jf[3 * nm + m] = cr;
        ulong crt = (ulong)round(cr * (FP)4294967296.0);
        uint4 iw = metaopt_rng4(q.s_mut, 0u, t);
        uint r[3];
        jde_pick3(iw, i, n, r);
        uint jrand = de_below(iw.w, nn);
        uint a0 = base + r[0], a1 = base + r[1], a2 = base + r[2];
        ulong t4 = t * ((nn + 3) / 4);
        uint4 cw = (uint4)(0u);
        for (uint j = 0; j < nn; ++j) {
            if ((j & 3u) == 0) cw = metaopt_rng4(q.s_cross, 0u, t4 + j / 4);
            FP xi = xs[DEB_XI(j, m, q.sn, q.sm)];
            FP v = xs[DEB_XI(j, a0, q.sn, q.sm)] + f * (xs[DEB_XI(j, a1, q.sn, q.sm)] - xs[DEB_XI(j, a2, q.sn, q.sm)]);
            int cross = j == jrand || (ulong)de_word(cw, j & 3u) < crt;
            FP a_ = lo[j], b_ = hi[j];
            FP y = cross ? v : xi;
            if (cross && (v < a_ || v > b_)) y = de_correct_at(kinds[j], v, xi, a_, b_, q.s_cross, t, j, nn);
            gy[DEB_YI(j, m, q.yn)] = DE_ROUND(kinds[j], y);
        }
        FPF v = (FPF)DEB_EVAL(q.func, gy + m, nn, (uint)q.yn, data);
        gfy[m] = isfinite(v) ? v : (FPF)INFINITY;
    }
    // every trial is made from the previous generation before a selection writes X
    barrier(DEB_FENCE);
    // every work-item makes the same number of passes (as deb_generations' selection)
    for (uint b0 = 0; b0 < n; b0 += wg) {
        uint i = b0 + lid;
        int in = i < n;
        uint m = base + (in ? i : 0u);
        FPF fy = gfy[m];
        int take = in && DE_REPLACES(fy, fxs[m]);
        if (take) {
            fxs[m] = fy;
            for (uint j = 0; j < nn; ++j) xs[DEB_XI(j, m, q.sn, q.sm)] = gy[DEB_YI(j, m, q.yn)];
            jf[m] = jf[2 * nm + m];
            jf[nm + m] = jf[3 * nm + m];
        }
    }
    barrier(DEB_FENCE);
}

// Cycle g (1-based) of a jDE100 island. st: the age (big-population evaluations since the best
// ever improved), the evaluations of restarts, the big and the small population's restarts. The
// sub-generations are one loop whose barriers are all outside conditionals (the restart tests are
// made every sub-generation and used where they apply), which keeps the work-group function small
// for compilers that replicate code around barriers (PoCL).
inline void jde_cycle(jde_pop q, ulong g, DEB_SPACE FP *xs, DEB_SPACE FPF *fxs, DEB_YSPACE FP *gy, DEB_YSPACE FPF *gfy,
                      __global FP *jf, __global const FP *lo, __global const FP *hi, __global const uchar *kinds,
                      __global const uchar *data, __global FP *brow, ulong bsn, __global FPF *bval, uint lid, uint wg,
                      __local FPF *rv, __local uint *ri, FPF *best_ever, ulong st[4])
{
    uint nb = q.nb, ns = q.ns, nm = nb + ns;
    uint k = (nb + ns - 1) / ns;
    ulong G0 = g * (k + 1);
    for (uint s = 0; s <= k; ++s) {
        uint base = s ? nb : 0u, n = s ? ns : nb;
        // the best of both populations, and how many of this population are within eps of it
        FPF fb;
        uint b = deb_best(fxs, nm, lid, wg, rv, ri, &fb);
        uint near = jde_near(fxs + base, n, fb, q.eps, lid, wg, ri);
        int many = 4 * near > n && near > 2;
        // before the big generation: the big population restarts when more than 25 % (and more
        // than 2) of it are within eps of the best, or its age passed the limit; before the first
        // small one: with the best in the small population, it restarts (all but the best) when
        // more than 25 % (and more than 2) of it are within eps; with the best in the big one,
        // the best is copied (row, value) over the small population's first member
        int due = s == 0 ? (many || (q.age_limit > 0 && st[0] > q.age_limit)) : (s == 1 && b >= nb && many);
        int copy = s == 1 && b < nb;
        jde_reinit(q, G0 + s, base, n, s ? b : nm, due, copy, b, fb, xs, fxs, gy, jf, lo, hi, kinds, data, lid, wg);
        barrier(DEB_FENCE);
        if (due) {
            st[1] += s ? n - 1 : n;
            st[2 + (s ? 1 : 0)] += 1;
            if (s == 0) st[0] = 0;
        }
        // the restarted members may hold a new best ever (else nothing changes)
        jde_keep_best(q, base, n, xs, fxs, brow, bsn, bval, lid, wg, rv, ri, best_ever, &st[0]);
        FP fl = s ? (FP)0.17 : (FP)0.1, crl = s ? (FP)0.1 : (FP)0, crspan = s ? (FP)0.7 : (FP)1;
        jde_generation(q, G0 + s, base, n, fl, crl, crspan, xs, fxs, gy, gfy, jf, lo, hi, kinds, data, lid, wg);
        if (s == 0) st[0] += nb;
        jde_keep_best(q, base, n, xs, fxs, brow, bsn, bval, lid, wg, rv, ri, best_ever, &st[0]);
    }
}

#if DEB_ADE
// ---------------------------------------------------------------------------------------------
// The SHADE family on the device (docs/specs/DE.md "Adaptive DE, on the device"):
// JADE (J. Zhang, A. C. Sanderson, "JADE: adaptive differential evolution with optional external
// archive", IEEE TEC 13(5), 2009), SHADE (R. Tanabe, A. Fukunaga, "Success-history based parameter
// adaptation for differential evolution", CEC 2013), L-SHADE (R. Tanabe, A. Fukunaga, "Improving
// the search performance of SHADE using linear population size reduction", CEC 2014) and jSO
// (J. Brest, M. S. Maučec, B. Bošković, "Single objective real-parameter optimization: algorithm
// jSO", CEC 2017). One generation of an island (or a batched problem) inside one work-group,
// the variant and its parameters as data (ade_pop); the host twin is src/de/ade.rs.
//
// State in global memory: mem (the memories: M_F[0..h), M_CR[h..2h), NaN the terminal value),
// arc (the archive: row j at arc[j nn ..], rows 0..alen used), af (scratch: each trial's F, CR
// and improvement, nm each), au (scratch: the members by rank, then each success's archive
// slot, nm each); the counters (memory index k, archive length, active members N, evaluations)
// are private to every work-item, the same in all, and kept by the caller.
//
// Random numbers, with t = (g Np + p) nm + m (global island p of Np, member m, nm the initial
// size): stream 2 of the mutation seed, counter 8 t (words: the memory entry, CR's two normal
// words, SHADE's p_i) and 8 t + 1 (pbest, r1, r2, j_rand), 8 t + 2 .. 8 t + 7 the Cauchy draws of
// F, four a counter, until one is positive (at most 24, else F = min(M_F, 1)); stream 3 at t the
// archive slot of a success when the archive is full; stream 4 at (g Np + p) nm + d / 4, word
// d % 4, the d-th random deletion of the archive when it shrinks; the crossover and bound words
// those of the fixed DE with key t.

#define ADE_JADE 1u
#define ADE_SHADE 2u
#define ADE_LSHADE 3u
#define ADE_JSO 4u
// Philox calls of Cauchy draws (four words each)
#define ADE_CAUCHY_CALLS 6u
// sums of the success sets reduced per generation
#define ADE_SUMS 7
// The bytes of the scratch ls that ade_rank and ade_adapt may use in a group of wg: the sums'
// ADE_SUMS wg values of FP, which is what the fused kernels give; the wide kernels give more
// where an island's ranking fits (their argument lroom).
#define ADE_ROOM(wg) ((ulong)ADE_SUMS * (wg) * sizeof(FP))
// an improvement's weight at most (an infinite one: a target that was never finite)
#define ADE_WMAX ((FP)1e30)
#define ADE_NONE 0xffffffffu

typedef struct {
    uint nn, nm, p, npop, func, alg, h, acap;
    ulong s_mut, s_cross, budget;
    // pbest fraction (jSO: p_max; SHADE: the upper end of p_i), archive rate, JADE's c
    FP pmax, arc_rate, c;
    // member k's component n of X at xs[n * sn + k * sm]; trial (n, k) at ys[n * yn + k]
    ulong sn, sm, yn;
} ade_pop;

// The counters of an island, the same in every work-item.
typedef struct {
    uint k, alen, na;
    ulong nfe;
} ade_count;

// The archive's size for n members (round(arc_rate n), at most acap).
inline uint ade_cap(ade_pop q, uint n)
{
    return min((uint)round(q.arc_rate * (FP)n), q.acap);
}

// The most ranks a trial of an island with na active members reads, and more: its pbest is
// among the best round(p na), at least 2, with p at most pmax (SHADE's p_i at most pmax, or
// at most 2 / na where that is larger), and two more than pmax na absorb the roundings.
inline uint ade_top(ade_pop q, uint na)
{
    return min(na, (uint)(q.pmax * (FP)na) + 2u);
}

// L-SHADE's linear population size after nfe of the budget from nm, at least 4
// (src/de/adapt.rs lpsr_size).
inline uint ade_lpsr(uint nm, ulong nfe, ulong budget)
{
    FP n = round(((FP)4 - (FP)nm) / (FP)budget * (FP)nfe + (FP)nm);
    return (uint)clamp(n, (FP)4, (FP)nm);
}

// One compare-exchange of ade_rank's sort: positions I < L of IX (member indices) put in the
// order of (VALS[member], member), lowest value first, ties to the lower index.
#define ADE_CX(IX, VALS, I, L)                                          \
    {                                                                   \
        uint a_ = (IX)[I], b_ = (IX)[L];                                \
        FPF va_ = (VALS)[a_], vb_ = (VALS)[b_];                         \
        if (vb_ < va_ || (vb_ == va_ && b_ < a_)) {                     \
            (IX)[I] = b_;                                               \
            (IX)[L] = a_;                                               \
        }                                                               \
    }

// ADE_CX with the values sorted beside the indices (VALS[I] the value of member IX[I]), for
// ade_rank's candidates, whose values sit at their positions rather than at their members; the
// four reads are independent, where ADE_CX reads the values after the indices.
#define ADE_CXV(IX, VALS, I, L)                                         \
    {                                                                   \
        uint a_ = (IX)[I], b_ = (IX)[L];                                \
        FPF va_ = (VALS)[I], vb_ = (VALS)[L];                           \
        if (vb_ < va_ || (vb_ == va_ && b_ < a_)) {                     \
            (IX)[I] = b_;                                               \
            (IX)[L] = a_;                                               \
            (VALS)[I] = vb_;                                            \
            (VALS)[L] = va_;                                            \
        }                                                               \
    }

// The exclusive prefix sum of x over the group in work-item order. Each work-item holds a block
// of consecutive members (ade_block) and x counts its flagged ones, so each member learns the
// flagged members before it in member order (the successes before a success, the survivors
// before a survivor), where each member counting them itself read na^2 / 2 flags from global
// memory. In two levels with three barriers and no loop around them (a loop of barriers over
// chunks of wg members made PoCL's compilation longer): the sums of segments of sg work-items
// (sg^2 >= wg), then each work-item adds the segments before its own and its segment's entries
// before it, at most 2 sg reads (64 at wg = 1024), and the sum over the group into *total. ls
// holds 2 wg uints (ADE_SUMS wg values of FP hold them); every work-item calls it, and ls is
// free again when it returns.
inline uint ade_scan(uint x, __local uint *ls, uint lid, uint wg, uint *total)
{
    uint sg = 1;
    while (sg * sg < wg) sg *= 2;
    __local uint *a = ls, *b = ls + wg;
    a[lid] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < wg / sg) {
        uint sum = 0;
        for (uint i = lid * sg; i < lid * sg + sg; ++i) sum += a[i];
        b[lid] = sum;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint before = 0, all = 0, seg = lid / sg;
    for (uint i = 0; i < wg / sg; ++i) {
        before += i < seg ? b[i] : 0u;
        all += b[i];
    }
    for (uint i = seg * sg; i < lid; ++i) before += a[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    *total = all;
    return before;
}

// Work-item lid's block of n members for ade_scan: members *m0 .. *m1 (one member each when
// n <= wg: member lid, as the loops over m = lid + k wg).
inline void ade_block(uint n, uint lid, uint wg, uint *m0, uint *m1)
{
    uint per = (n + wg - 1) / wg;
    *m0 = min(lid * per, n);
    *m1 = min(*m0 + per, n);
}

// The best active members by rank into au[rank] (lowest value first, ties to the lower index):
// the members whose key (value, index) is at most (tv, tm), the candidates, all of them for tv
// = +inf and tm = ADE_NONE. ade_adapt passes the key that the member of rank T - 1 had before
// the selection (T = ade_top, the most ranks a trial reads): a selection only lowers values, so
// the T members that were at or below that key still are, and the candidates are the best n >=
// T members, which their order makes the first n ranks. Counting the candidates in member order
// (ade_scan) places them at positions 0..n of ls with their values, where the whole island took
// most of a generation (benchmarks/INDEX.md, 2026-11-29-h200-ade_wide: the ranking's share of
// JADE's generation with 1000 members).
// The order: a bitonic sort of the member indices by (value, index), log2(P) (log2(P) + 1) / 2
// steps of at most P / 2 compare-exchanges for P the power of two covering the n keys, where
// counting each key's rank took n^2 comparisons (kept where n is at most the group). Every
// comparator puts the lower key first (the first step of each merge compares mirrored
// positions), so the positions from n to P act as +inf keys that never move: a comparator
// reaching one is skipped, and no padding is stored. Every key is distinct and the values are
// finite or +inf, never NaN (a trial that is not finite is +inf, as is every initial, migrated
// or shrunk-away value), so the order is total and au is the ranking the counts gave. The
// indices and a copy of the values are sorted in the sums' scratch ls when they fit its room
// bytes, else (every member a candidate, none fitting) the indices alone there, else the indices
// in au itself; the values not copied are read where they are, at every step. (A GPU with groups of 256
// runs 1000 members of JADE in one group, whose ADE_ROOM holds 1792 floats: the indices, not the
// values too; the wide kernels give ls the room for both.)
// ls is free here; the barriers are outside conditionals (n, here, idx and the steps are the
// same in every work-item), and the caller's barrier (local and global) follows, which
// publishes au and frees ls. (PoCL compiles this loop of barriers, whose count depends on n,
// slowly: JADE's island program builds about twice as long as with the counts. Blocks of wg
// positions sorted in a constant count of steps, then merged by binary searches, compiled
// faster, but made a generation of 1000 members much longer in PoCL's groups of 16.)
inline void ade_rank(DEB_SPACE const FPF *fxs, uint na, FPF tv, uint tm, __global uint *au, __local FP *ls, uint lid,
                     uint wg, ulong room)
{
    // the candidates in each work-item's block, then their places
    uint m0, m1, own = 0, n;
    ade_block(na, lid, wg, &m0, &m1);
#pragma unroll 4
    for (uint m = m0; m < m1; ++m) {
        FPF v = fxs[m];
        own += v < tv || (v == tv && m <= tm) ? 1u : 0u;
    }
    uint at = ade_scan(own, (__local uint *)ls, lid, wg, &n);
    // here: the candidates with their values in ls; else every member, idx: their indices
    // alone in ls (then at its start), neither: in au
    int here = (ulong)n * (sizeof(FPF) + sizeof(uint)) <= room;
    // the keys to order: the candidates, else every member
    uint nk = here ? n : na;
    int idx = !here && (ulong)nk * sizeof(uint) <= room;
    __local FPF *lf = (__local FPF *)ls;
    __local uint *li = here ? (__local uint *)(lf + nk) : (__local uint *)ls;
#pragma unroll 4
    for (uint m = m0; here && m < m1; ++m) {
        FPF v = fxs[m];
        if (v < tv || (v == tv && m <= tm)) {
            lf[at] = v;
            li[at] = m;
            at += 1;
        }
    }
    for (uint m = lid; !here && m < nk; m += wg) {
        if (idx) li[m] = m;
        else au[m] = m;
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    // no more keys than the group (each work-item ranks one by nk comparisons) counts, in fewer
    // steps than the sort's barriers (JADE's generation of 100 members was shorter with the
    // counts than with the sort); the same ranks. Positions are in member
    // order, so the lower position is the lower index.
    int count = nk <= wg;
    for (uint m = lid; count && m < nk; m += wg) {
        FPF v = here ? lf[m] : fxs[m];
        uint r = 0;
        for (uint j = 0; j < nk; ++j) {
            FPF u = here ? lf[j] : fxs[j];
            r += (u < v || (u == v && j < m)) ? 1u : 0u;
        }
        au[r] = here ? li[m] : m;
    }
    uint lg = nk > 1 && !count ? 32 - clz(nk - 1) : 0;
    // pair t has its lower position at or above t
    uint pairs = min((1u << lg) / 2, nk);
    for (uint st = 0; st < lg * (lg + 1) / 2; ++st) {
        // step st: merges into sorted blocks of k, at distance j (one loop: two nested loops of
        // barriers made PoCL's compilation longer still)
        uint k = 2, r = st;
        while (r >= 31 - clz(k)) {
            r -= 31 - clz(k);
            k *= 2;
        }
        uint j = k >> (1 + r);
        for (uint t0 = 0; t0 < pairs; t0 += wg) {
            // pair t: position i in the lower half of its block of 2 j, with its mirror in its
            // block of k (a merge's first step) or its partner j above
            uint t = t0 + lid;
            uint i = ((t & ~(j - 1)) << 1) | (t & (j - 1));
            uint l = j == k / 2 ? i ^ (k - 1) : i + j;
            if (t < pairs && l < nk) {
                if (here) ADE_CXV(li, lf, i, l) else if (idx) ADE_CX(li, fxs, i, l) else ADE_CX(au, fxs, i, l)
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
    for (uint r = lid; (here || idx) && !count && r < nk; r += wg) au[r] = li[r];
}

// The sums of the success sets (w = 1 for JADE, else the improvement): w, w CR, w CR^2, w F,
// w F^2, the count, the count with CR > 0; reduced over the group (wg a power of two), returned
// to every work-item.
inline void ade_sums(ade_pop q, uint na, __global const FP *af, __local FP *ls, uint lid, uint wg, FP s[ADE_SUMS])
{
    for (uint j = 0; j < ADE_SUMS; ++j) s[j] = 0;
    // four members a pass, read before any is summed: one wait for the four reads, where a loop
    // of one member waited for each (a little faster at 4000 members; benchmarks/INDEX.md,
    // 2026-11-29-h200-ade_wide); the same sums in the same order (a member past na adds 0)
    for (uint m0 = lid; m0 < na; m0 += 4 * wg) {
        FP d[4], f[4], cr[4];
#pragma unroll
        for (uint k = 0; k < 4; ++k) {
            uint m = min(m0 + k * wg, na - 1);
            d[k] = af[2 * q.nm + m];
            f[k] = af[m];
            cr[k] = af[q.nm + m];
        }
#pragma unroll
        for (uint k = 0; k < 4; ++k) {
            int ok = m0 + k * wg < na && d[k] > (FP)0;
            FP w = ok ? (q.alg == ADE_JADE ? (FP)1 : d[k]) : (FP)0;
            s[0] += w;
            s[1] += w * cr[k];
            s[2] += w * cr[k] * cr[k];
            s[3] += w * f[k];
            s[4] += w * f[k] * f[k];
            s[5] += ok ? (FP)1 : (FP)0;
            s[6] += ok && cr[k] > (FP)0 ? (FP)1 : (FP)0;
        }
    }
    for (uint j = 0; j < ADE_SUMS; ++j) ls[j * wg + lid] = s[j];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint h = wg / 2; h > 0; h /= 2) {
        if (lid < h) {
            for (uint j = 0; j < ADE_SUMS; ++j) ls[j * wg + lid] += ls[j * wg + lid + h];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (uint j = 0; j < ADE_SUMS; ++j) s[j] = ls[j * wg];
    barrier(CLK_LOCAL_MEM_FENCE);
}

// Member m's trial of generation g (1-based) of an island with na active members, alen archived
// rows and the evaluations nfe before it: F and CR drawn from the memories, current-to-pbest/1
// (jSO: -w/1) from the ranks in au, binomial crossover, the bound corrections, the evaluation;
// F and CR into af, the trial into gy, its value into gfy[m] and its improvement on the target
// (0: none, not strictly better) into af[2 nm + m], which ade_adapt reads. What ade_gen and the wide
// kernel (ade_wide_trials) make of every active member.
inline void ade_member_trial(ade_pop q, ulong g, uint m, uint na, uint alen, ulong nfe, DEB_SPACE FP *xs,
                             DEB_SPACE const FPF *fxs, DEB_YSPACE FP *gy, DEB_YSPACE FPF *gfy, __global FP *mem, __global FP *arc,
                             __global FP *af, __global uint *au, __global const FP *lo, __global const FP *hi,
                             __global const uchar *kinds, __global const uchar *data)
{
    uint nn = q.nn, nm = q.nm;
    FP r_nfe = (FP)nfe / (FP)q.budget;
    ulong t = ((ulong)g * q.npop + q.p) * nm + m;
    uint4 w0 = metaopt_rng4(q.s_mut, 2u, 8 * t);
    uint4 w1 = metaopt_rng4(q.s_mut, 2u, 8 * t + 1);
    uint r = de_below(w0.x, q.h);
    FP mf = mem[r], mcr = mem[q.h + r];
    // CR = N(M_CR, 0.1) clipped to [0, 1] (Box-Muller, cosine branch); 0 after the terminal value
    FP cr = mcr + (FP)0.1 * sqrt((FP)-2 * log(de_unit(w0.y))) * cospi((FP)2 * de_unit(w0.z));
    cr = isnan(mcr) ? (FP)0 : clamp(cr, (FP)0, (FP)1);
    // F = C(M_F, 0.1), drawn again while not positive, 1 when above
    FP f = (FP)0;
    int got = 0;
    for (uint k = 0; k < ADE_CAUCHY_CALLS && !got; ++k) {
        uint4 cw = metaopt_rng4(q.s_mut, 2u, 8 * t + 2 + k);
        for (uint j = 0; j < 4 && !got; ++j) {
            FP v = mf + (FP)0.1 * tanpi(de_unit(de_word(cw, j)) - (FP)0.5);
            got = v > (FP)0;
            f = got ? fmin(v, (FP)1) : f;
        }
    }
    f = got ? f : fmin(mf, (FP)1);
    FP fw = f, pf = q.pmax;
    if (q.alg == ADE_SHADE) {
        FP plo = (FP)2 / (FP)na;
        pf = plo + de_unit(w0.w) * (q.pmax - plo);
    } else if (q.alg == ADE_JSO) {
        // jSO's schedules (src/de/adapt.rs jso_clamp, jso_fw, jso_p)
        cr = r_nfe < (FP)0.25 ? fmax(cr, (FP)0.7) : r_nfe < (FP)0.5 ? fmax(cr, (FP)0.6) : cr;
        f = r_nfe < (FP)0.6 && f > (FP)0.7 ? (FP)0.7 : f;
        fw = r_nfe < (FP)0.2 ? (FP)0.7 * f : r_nfe < (FP)0.4 ? (FP)0.8 * f : (FP)1.2 * f;
        pf = q.pmax - (q.pmax - q.pmax / (FP)2) * fmin(r_nfe, (FP)1);
    }
    uint top = clamp((uint)round(pf * (FP)na), 2u, na);
    uint pb = au[de_below(w1.x, top)];
    // r1 != m from the population; r2 != m, r1 from the population and the archive
    uint r1 = de_below(w1.y, na - 1);
    r1 += r1 >= m ? 1u : 0u;
    uint r2 = de_below(w1.z, na + alen - 2);
    uint s0 = min(m, r1), s1 = max(m, r1);
    r2 += r2 >= s0 ? 1u : 0u;
    r2 += r2 >= s1 ? 1u : 0u;
    int from_arc = r2 >= na;
    uint ra = from_arc ? r2 - na : 0u, rp = from_arc ? m : r2;
    uint jrand = de_below(w1.w, nn);
    af[m] = f;
    af[nm + m] = cr;
    ulong crt = (ulong)round(cr * (FP)4294967296.0);
    ulong t4 = t * ((nn + 3) / 4);
    uint4 cw = (uint4)(0u);
    for (uint j = 0; j < nn; ++j) {
        if ((j & 3u) == 0) cw = metaopt_rng4(q.s_cross, 0u, t4 + j / 4);
        FP xi = xs[DEB_XI(j, m, q.sn, q.sm)];
        FP x2 = from_arc ? arc[(size_t)ra * nn + j] : xs[DEB_XI(j, rp, q.sn, q.sm)];
        // current-to-pbest/1 (jSO: -w/1, its weighted Fw), in the order of src/de/ade.rs
        FP v = (xi + fw * (xs[DEB_XI(j, pb, q.sn, q.sm)] - xi)) + f * (xs[DEB_XI(j, r1, q.sn, q.sm)] - x2);
        int cross = j == jrand || (ulong)de_word(cw, j & 3u) < crt;
        FP a_ = lo[j], b_ = hi[j];
        FP y = cross ? v : xi;
        if (cross && (v < a_ || v > b_)) y = de_correct_at(kinds[j], v, xi, a_, b_, q.s_cross, t, j, nn);
        gy[DEB_YI(j, m, q.yn)] = DE_ROUND(kinds[j], y);
    }
    FPF v = (FPF)DEB_EVAL(q.func, gy + m, nn, (uint)q.yn, data);
    FPF fv = isfinite(v) ? v : (FPF)INFINITY;
    gfy[m] = fv;
    FP fy = fv, fx = fxs[m];
    af[2 * nm + m] = fy < fx ? fmin((FP)(fx - fy), ADE_WMAX) : (FP)0;
}

// The rest of generation g of an island with counters *c, once its trials are made: the
// successes and their sums, the archive, the selection, the memory update, the ranks of the
// selected members into au (what the next generation's trials read), and for L-SHADE and jSO
// the population's and the archive's reduction (the ranks moving with the survivors). Every
// barrier is outside conditionals.
inline void ade_adapt(ade_pop q, ulong g, ade_count *c, DEB_SPACE FP *xs, DEB_SPACE FPF *fxs, DEB_YSPACE FP *gy,
                      DEB_YSPACE FPF *gfy, __global FP *mem, __global FP *arc, __global FP *af, __global uint *au,
                      __local FP *ls, uint lid, uint wg, ulong room)
{
    uint nn = q.nn, nm = q.nm, na = c->na, alen = c->alen;
    FP mf_k = mem[c->k], mcr_k = mem[q.h + c->k];
    // the member of rank T - 1 (ade_top) and its value before the selection: the ranking below
    // needs no members past its key
    uint tm = au[ade_top(q, na) - 1];
    FPF tv = fxs[tm];
    // the successes (strictly better) are those with an improvement (ade_member_trial)
    FP s[ADE_SUMS];
    ade_sums(q, na, af, ls, lid, wg, s);
    // each success's archive slot, in member order: the next free one, else (full) a random one;
    // the successes before it counted by ade_scan (ls is free after ade_sums)
    uint cap = ade_cap(q, na);
    __local uint *lu = (__local uint *)ls;
    uint m0, m1, own = 0;
    ade_block(na, lid, wg, &m0, &m1);
#pragma unroll 4
    for (uint m = m0; m < m1; ++m) own += af[2 * nm + m] > (FP)0 ? 1u : 0u;
    uint flagged;
    uint before = ade_scan(own, lu, lid, wg, &flagged);
#pragma unroll 4
    for (uint m = m0; m < m1; ++m) {
        uint slot = ADE_NONE;
        if (af[2 * nm + m] > (FP)0) {
            ulong t = ((ulong)g * q.npop + q.p) * nm + m;
            if (cap > 0) slot = alen + before < cap ? alen + before : de_below(metaopt_rng4(q.s_mut, 3u, t).x, cap);
            before += 1;
        }
        au[nm + m] = slot;
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    // a later success into the same slot wins: each slot's last writer (the largest member) by
    // atomic_max into a table of cap entries, and the others' slots cleared, where each success
    // looked for a later one into its slot among up to na slots in global memory. The table is
    // in ls where it fits (ADE_SUMS wg values of FP as uints), else over the scratch af, whose F,
    // CR and improvements are not read again this generation (4 nm values of FP, and cap <= acap
    // = round(arc_rate nm) <= round(2.6 nm): src/de/adapt.rs Params).
    __global uint *gt = (__global uint *)af;
    int lt = cap <= room / sizeof(uint);
    for (uint i = lid; i < cap; i += wg) {
        if (lt) lu[i] = 0u;
        else gt[i] = 0u;
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    for (uint m = lid; m < na; m += wg) {
        uint slot = au[nm + m];
        if (slot != ADE_NONE && lt) atomic_max(lu + slot, m);
        if (slot != ADE_NONE && !lt) atomic_max(gt + slot, m);
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    for (uint m = lid; m < na; m += wg) {
        uint slot = au[nm + m];
        if (slot != ADE_NONE && (lt ? lu[slot] : gt[slot]) != m) au[nm + m] = ADE_NONE;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    // the parents into the archive (each slot's last writer), then the selection; every
    // work-item makes the same number of passes, idle ones included (as deb_generations'
    // selection: PoCL skipped a selection whose idle work-items made none)
    for (uint b0 = 0; b0 < na; b0 += wg) {
        uint m = b0 + lid;
        int in = m < na;
        uint mm = in ? m : 0u;
        uint slot = in ? au[nm + mm] : ADE_NONE;
        int put = slot != ADE_NONE;
        for (uint j = 0; j < nn && put; ++j) arc[(size_t)slot * nn + j] = xs[DEB_XI(j, mm, q.sn, q.sm)];
        FPF fy = gfy[mm];
        int take = in && DE_REPLACES(fy, fxs[mm]);
        if (take) fxs[mm] = fy;
        for (uint j = 0; j < nn && take; ++j) xs[DEB_XI(j, mm, q.sn, q.sm)] = gy[DEB_YI(j, mm, q.yn)];
    }
    uint succ = (uint)s[5];
    alen = cap > 0 ? min(alen + succ, cap) : alen;
    // the memory update (no success: nothing moves)
    if (succ > 0) {
        FP nf, ncr;
        if (q.alg == ADE_JADE) {
            // unweighted: mu_CR toward the mean, mu_F toward the Lehmer mean
            ncr = ((FP)1 - q.c) * mcr_k + q.c * (s[1] / s[0]);
            nf = ((FP)1 - q.c) * mf_k + q.c * (s[4] / s[3]);
        } else if (q.alg == ADE_SHADE) {
            ncr = s[1] / s[0];
            nf = s[4] / s[3];
        } else {
            int term = isnan(mcr_k) || s[6] == (FP)0;
            FP lcr = s[2] / s[1], lf = s[4] / s[3];
            ncr = term ? (FP)NAN : (q.alg == ADE_JSO ? (lcr + mcr_k) / (FP)2 : lcr);
            nf = q.alg == ADE_JSO ? (lf + mf_k) / (FP)2 : lf;
        }
        if (lid == 0) {
            mem[c->k] = nf;
            mem[q.h + c->k] = ncr;
        }
        // jSO's last entry is never written; JADE's one entry stays 0
        uint hk = q.alg == ADE_JSO ? q.h - 1 : q.h;
        c->k = (c->k + 1) % hk;
    }
    c->nfe += na;
    barrier(DEB_FENCE);
    // L-SHADE, jSO: the best n2 stay (moved to slots 0..n2 in member order, through the trials'
    // memory, their ranks with them), the rest +inf; the archive loses random members down to
    // its size for n2
    uint n2 = (q.alg == ADE_LSHADE || q.alg == ADE_JSO) ? min(ade_lpsr(nm, c->nfe, q.budget), na) : na;
    uint shrink = n2 < na ? na : 0u;
    // the members by rank (the next generation's pbest reads them): the best up to the old key
    // of rank T - 1, every member for a reduction
    ade_rank(fxs, na, shrink ? (FPF)INFINITY : tv, shrink ? ADE_NONE : tm, au, ls, lid, wg, room);
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    for (uint b0 = 0; b0 < shrink; b0 += wg) {
        uint r = b0 + lid;
        if (r < shrink) au[nm + au[r]] = r;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    // the survivors in member order (ade_scan counts those before each block)
    ade_block(shrink, lid, wg, &m0, &m1);
    own = 0;
    for (uint m = m0; m < m1; ++m) own += au[nm + m] < n2 ? 1u : 0u;
    uint to = ade_scan(own, lu, lid, wg, &flagged);
    for (uint m = m0; m < m1; ++m) {
        if (au[nm + m] < n2) {
            for (uint j = 0; j < nn; ++j) gy[DEB_YI(j, to, q.yn)] = xs[DEB_XI(j, m, q.sn, q.sm)];
            gfy[to] = fxs[m];
            // where the survivor goes, for its rank below
            au[nm + m] = to;
            to += 1;
        }
    }
    uint cap2 = ade_cap(q, n2);
    if (lid == 0 && shrink) {
        for (uint d = 0; alen > cap2; ++d) {
            uint4 w = metaopt_rng4(q.s_mut, 4u, ((ulong)g * q.npop + q.p) * nm + d / 4);
            uint j = de_below(de_word(w, d & 3u), alen);
            alen -= 1;
            for (uint i = 0; i < nn; ++i) arc[(size_t)j * nn + i] = arc[(size_t)alen * nn + i];
        }
    }
    barrier(DEB_FENCE | CLK_GLOBAL_MEM_FENCE);
    for (uint b0 = 0; b0 < shrink; b0 += wg) {
        uint m = b0 + lid;
        int in = m < n2;
        uint mm = m < shrink ? m : 0u;
        for (uint j = 0; j < nn && in; ++j) xs[DEB_XI(j, mm, q.sn, q.sm)] = gy[DEB_YI(j, mm, q.yn)];
        if (m < shrink) fxs[mm] = in ? gfy[mm] : (FPF)INFINITY;
        // rank m's survivor (the ranks below n2 are the survivors') at its new place
        if (in) au[mm] = au[nm + au[mm]];
    }
    barrier(DEB_FENCE | CLK_GLOBAL_MEM_FENCE);
    c->alen = shrink ? min(alen, cap2) : alen;
    c->na = n2;
}

// Generation g (1-based) of an island with counters *c: every active member's trial
// (ade_member_trial, from the ranks in au: the caller ranks the members before its first
// generation, ade_adapt after each), then ade_adapt. Every barrier is outside conditionals (the
// reduction's steps are computed every generation and used when they apply).
inline void ade_gen(ade_pop q, ulong g, ade_count *c, DEB_SPACE FP *xs, DEB_SPACE FPF *fxs, DEB_YSPACE FP *gy,
                    DEB_YSPACE FPF *gfy, __global FP *mem, __global FP *arc, __global FP *af, __global uint *au,
                    __global const FP *lo, __global const FP *hi, __global const uchar *kinds,
                    __global const uchar *data, __local FP *ls, uint lid, uint wg)
{
    for (uint m = lid; m < c->na; m += wg)
        ade_member_trial(q, g, m, c->na, c->alen, c->nfe, xs, fxs, gy, gfy, mem, arc, af, au, lo, hi, kinds, data);
    // every trial is made from the previous generation before the archive or a selection
    // writes, and the improvements are seen by every work-item
    barrier(DEB_FENCE | CLK_GLOBAL_MEM_FENCE);
    ade_adapt(q, g, c, xs, fxs, gy, gfy, mem, arc, af, au, ls, lid, wg, ADE_ROOM(wg));
}
#endif // DEB_ADE

#ifdef DEB_BATCH
__kernel void deb_run(__global FP *X, __global FPF *Fx, __global FP *Y, __global FPF *Fy, __global const FP *lo_all,
                      __global const FP *hi_all, __global const uchar *kinds_all, __global const uchar *data_all,
                      __global const uint *meta, __global const ulong *meta64, __global const FP *fpar,
                      __global uint *state, __global ulong *gens, __global FP *JF, __global ulong *JST,
                      __global FP *BX, __global FP *BF, __global FP *AM, __global FP *AA, __global uint *AU,
                      uint k_gens, uint first, __local FP *lx, __local FPF *lfx, __local FPF *rv,
                      __local uint *ri, __local FP *ly, __local FPF *lfy, __local FP *ls)
{
    // one work-group a problem, from problem `first` (a launch may take a block of them)
    uint b = first + get_group_id(0);
    uint lid = get_local_id(0), wg = get_local_size(0);
    uint status = state[2 * b];
    if (status >= DEB_TARGET) return; // finished: frozen
    __global const uint *mt = meta + (size_t)b * DEB_M;
    __global const ulong *mt64 = meta64 + (size_t)b * DEB_M64;
    deb_pop q;
    q.func = mt[DEB_FUNC];
    q.nn = mt[DEB_DIMS];
    q.np = mt[DEB_NP];
    q.mutation = mt[DEB_MUT];
    q.has_target = mt[DEB_HAS_TARGET];
    q.p = 0;
    q.npop = 1;
    q.shared = 0;
    q.s_mut = mt64[DEB_SEED_MUT];
    q.s_cross = mt64[DEB_SEED_CROSS];
    q.crt = mt64[DEB_CRT];
    q.max_gen = mt64[DEB_MAXGEN];
    q.f = fpar[DEB_FP * b];
    q.fd = (FP)0;
    q.target = fpar[DEB_FP * b + 1];
    q.sn = q.np;
    q.sm = 1;
    q.yn = q.np;
    uint nn = q.nn, np = q.np;
    ulong xoff = mt64[DEB_XOFF], foff = mt64[DEB_FOFF];
    __global const uchar *data = data_all + mt64[DEB_DOFF];
    __global const FP *lo = lo_all + mt64[DEB_BOFF];
    __global const FP *hi = hi_all + mt64[DEB_BOFF];
    __global const uchar *kinds = kinds_all + mt64[DEB_BOFF];
#if DEB_TRIAL_LOCAL
    __local FP *gy = ly;
    __local FPF *gfy = lfy;
#else
    __global FP *gy = Y + xoff;
    __global FPF *gfy = Fy + foff;
#endif
#if DEB_LOCAL
    // two populations: the generations alternate between them
    __local FP *xs = lx;
    __local FP *xs2 = lx + np * nn;
    __local FPF *fxs = lfx;
#else
    __global FP *xs = X + xoff;
    __global FP *xs2 = xs;
    __global FPF *fxs = Fx + foff;
#endif
#if DEB_CONSTRAINED
    // the violations beside the values (every problem's; 0 for an unconstrained one)
    uint cset = mt[DEB_CSET];
    ulong voff = mt64[DEB_VOFF];
    __global FPF *gvy = Fy + voff;
#if DEB_LOCAL
    __local FPF *vxs = lfx + np;
#else
    __global FPF *vxs = Fx + voff;
#endif
#endif
    ulong gen = gens[b];
    uint best = state[2 * b + 1];
    if (status == DEB_NEW) {
        // initial population (ops::initial with one population), evaluated from Y
        ulong s_init = mt64[DEB_SEED_INIT];
        for (uint m = lid; m < np; m += wg) {
            for (uint n = 0; n < nn; ++n) {
                uint4 w = metaopt_rng4(s_init, 0u, (ulong)m * nn + n);
                FP v = DE_ROUND(kinds[n], lo[n] + de_unit(w.x) * (hi[n] - lo[n]));
                xs[(size_t)n * np + m] = v;
                gy[(size_t)n * np + m] = v;
            }
            FPF v = (FPF)deb_objective(q.func, gy + m, nn, np, data);
            fxs[m] = isfinite(v) ? v : (FPF)INFINITY;
#if DEB_CONSTRAINED
            vxs[m] = DEB_VIOLATION(cset, gy + m, nn, np, data);
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        FPF bv;
#if DEB_CONSTRAINED
        FPF bw;
        best = deb_best_c(fxs, vxs, np, lid, wg, rv, rv + wg, ri, &bv, &bw);
#else
        best = deb_best(fxs, np, lid, wg, rv, ri, &bv);
#endif
        gen = 0;
        status = deb_status(q.has_target && DEB_FEASIBLE(bw) && bv <= q.target, gen, q.max_gen);
    } else {
#if DEB_LOCAL
        for (uint i = lid; i < np * nn; i += wg) xs[i] = X[xoff + i];
        for (uint m = lid; m < np; m += wg) fxs[m] = Fx[foff + m];
#if DEB_CONSTRAINED
        for (uint m = lid; m < np; m += wg) vxs[m] = Fx[voff + m];
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
    }
    __local uint hit;
#if DEB_JDE
    if (mt[DEB_ALG] == DEB_JDE100) {
        // jDE100 (jde_cycle; docs/specs/DE.md "jDE100"): a "generation" is a cycle, the best
        // ever in BX (at the bounds' offset) and BF, keyed as island 0 of 1
        jde_pop jq;
        jq.nn = nn;
        jq.ns = mt[DEB_JSMALL];
        jq.nb = np - jq.ns;
        jq.p = 0;
        jq.npop = 1;
        jq.func = q.func;
        jq.s_init = mt64[DEB_SEED_INIT];
        jq.s_mut = q.s_mut;
        jq.s_cross = q.s_cross;
        jq.age_limit = 0;
        jq.eps = (FPF)1e-16;
        jq.sn = q.sn;
        jq.sm = q.sm;
        jq.yn = q.yn;
        __global FP *jf = JF + 4 * foff;
        __global ulong *gst = JST + 4 * (size_t)b;
        __global FP *brow = BX + mt64[DEB_BOFF];
        FPF best_ever;
        if (gen == 0 && state[2 * b] == DEB_NEW) {
            for (uint m = lid; m < np; m += wg) {
                jf[m] = (FP)0.5;
                jf[np + m] = (FP)0.9;
            }
            FPF bv = fxs[best];
            for (uint n = lid; n < nn; n += wg) brow[n] = xs[DEB_XI(n, best, q.sn, q.sm)];
            if (lid == 0) BF[b] = bv;
            best_ever = bv;
        } else {
            best_ever = BF[b];
        }
        ulong st[4] = {gst[0], gst[1], gst[2], gst[3]};
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        for (uint c = 0; c < k_gens && status == DEB_RUNNING; ++c) {
            jde_cycle(jq, gen + 1, xs, fxs, gy, gfy, jf, lo, hi, kinds, data, brow, 1, BF + b, lid, wg, rv, ri, &best_ever, st);
            gen += 1;
            status = deb_status(q.has_target && best_ever <= q.target, gen, q.max_gen);
        }
        if (lid == 0) {
            for (uint i = 0; i < 4; ++i) gst[i] = st[i];
        }
    } else
#endif
#if DEB_ADE
    if (mt[DEB_ALG] >= ADE_JADE && mt[DEB_ALG] <= ADE_JSO) {
        // JADE, SHADE, L-SHADE, jSO (ade_gen), keyed as island 0 of 1: the memories in AM and
        // the archive in AA at the problem's offsets, the scratch in JF and AU, the counters
        // (memory index, archive length, active members, evaluations) in JST
        ade_pop aq;
        aq.nn = nn;
        aq.nm = np;
        aq.p = 0;
        aq.npop = 1;
        aq.func = q.func;
        aq.alg = mt[DEB_ALG];
        aq.h = mt[DEB_AH];
        aq.acap = mt[DEB_ACAP];
        aq.s_mut = q.s_mut;
        aq.s_cross = q.s_cross;
        aq.budget = mt64[DEB_ABUDGET];
        aq.pmax = fpar[DEB_FP * b + 2];
        aq.arc_rate = fpar[DEB_FP * b + 3];
        aq.c = fpar[DEB_FP * b + 4];
        aq.sn = q.sn;
        aq.sm = q.sm;
        aq.yn = q.yn;
        __global ulong *gst = JST + 4 * (size_t)b;
        ade_count cn;
        cn.k = (uint)gst[0];
        cn.alen = (uint)gst[1];
        cn.na = (uint)gst[2];
        cn.nfe = gst[3];
        int reduces = aq.alg == ADE_LSHADE || aq.alg == ADE_JSO;
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        // the members by rank before the first generation (ade_gen keeps them after each)
        ade_rank(fxs, cn.na, (FPF)INFINITY, ADE_NONE, AU + 2 * foff, ls, lid, wg, ADE_ROOM(wg));
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        for (uint c = 0; c < k_gens && status == DEB_RUNNING; ++c) {
            ade_gen(aq, gen + 1, &cn, xs, fxs, gy, gfy, AM + mt64[DEB_AMOFF], AA + mt64[DEB_AAOFF], JF + 4 * foff,
                    AU + 2 * foff, lo, hi, kinds, data, ls, lid, wg);
            gen += 1;
            FPF bv;
            best = deb_best(fxs, np, lid, wg, rv, ri, &bv);
            status = deb_status(q.has_target && bv <= q.target, gen, q.max_gen);
            // L-SHADE and jSO also stop when their evaluation budget is spent
            status = status == DEB_RUNNING && reduces && cn.nfe >= aq.budget ? DEB_BUDGET : status;
        }
        if (lid == 0) {
            gst[0] = cn.k;
            gst[1] = cn.alen;
            gst[2] = cn.na;
            gst[3] = cn.nfe;
        }
    } else
#endif
    {
        xs = deb_generations(q, xs, xs2, fxs, gy, gfy, lo, hi, kinds, data, k_gens, lid, wg, rv, ri, &hit, &gen, &status,
                             &best
#if DEB_CONSTRAINED
                             , vxs, gvy, cset
#endif
        );
    }
#if DEB_LOCAL
    for (uint i = lid; i < np * nn; i += wg) X[xoff + i] = xs[i];
    for (uint m = lid; m < np; m += wg) Fx[foff + m] = fxs[m];
#if DEB_CONSTRAINED
    for (uint m = lid; m < np; m += wg) Fx[voff + m] = vxs[m];
#endif
#endif
    // every work-item read state and gens at the start: lid 0 writes them after all have
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0) {
        state[2 * b] = status;
        state[2 * b + 1] = best;
        gens[b] = gen;
    }
}

// The results' read (src/de/batch.rs `results`): problem b's best member (its state's best index)
// into R at its bounds' offset and its value into RF[b] (with DEB_CONSTRAINED its violation into
// RF[count + b]), so that these rows are read back rather than every population. One work-item per
// problem; a problem not yet started is left out.
__kernel void deb_results(__global const FP *X, __global const FPF *Fx, __global const uint *meta,
                       __global const ulong *meta64, __global const uint *state, __global FP *R,
                       __global FPF *RF, uint count)
{
    uint b = get_global_id(0);
    if (b >= count || state[2 * b] == DEB_NEW) return;
    __global const uint *mt = meta + (size_t)b * DEB_M;
    __global const ulong *mt64 = meta64 + (size_t)b * DEB_M64;
    uint nn = mt[DEB_DIMS], np = mt[DEB_NP], best = state[2 * b + 1];
    __global const FP *x = X + mt64[DEB_XOFF];
    __global FP *r = R + mt64[DEB_BOFF];
    for (uint n = 0; n < nn; ++n) r[n] = x[(size_t)n * np + best];
    RF[b] = Fx[mt64[DEB_FOFF] + best];
#if DEB_CONSTRAINED
    RF[count + b] = Fx[mt64[DEB_VOFF] + best];
#endif
}
#endif

#ifdef DEB_ISLANDS
// An island p of the island DE in the kernels below (jde_fused, ade_fused): its place in the
// layouts of de.cl (gx, gsn, gsm, gfx), its population where the generations work on it (xs,
// fxs: copied to local memory with DEB_LOCAL) and its trials (ys, fys: local with
// DEB_TRIAL_LOCAL), the strides set in q; and the copies back at the end of a launch.
#define DEB_ISLAND_AT                                                                              \
    __global FP *gx = X + p;                                                                   \
    size_t gsn = (size_t)(nm + 1) * npop, gsm = npop;                                          \
    __global FPF *gfx = Fx + (size_t)p * (nm + 1);
#if DEB_LOCAL
#define DEB_ISLAND_X(q)                                                                            \
    __local FP *xs = lx;                                                                       \
    __local FPF *fxs = lfx;                                                                    \
    q.sn = nm;                                                                                 \
    q.sm = 1;                                                                                  \
    for (uint i = lid; i < nm * nn; i += wg) xs[i] = gx[(size_t)(i / nm) * gsn + (size_t)(i % nm) * gsm]; \
    for (uint m = lid; m < nm; m += wg) fxs[m] = gfx[m];
#define DEB_ISLAND_X_BACK                                                                          \
    for (uint i = lid; i < nm * nn; i += wg) gx[(size_t)(i / nm) * gsn + (size_t)(i % nm) * gsm] = xs[i]; \
    for (uint m = lid; m < nm; m += wg) gfx[m] = fxs[m];
#else
#define DEB_ISLAND_X(q)                                                                            \
    __global FP *xs = gx;                                                                      \
    __global FPF *fxs = gfx;                                                                   \
    q.sn = gsn;                                                                                \
    q.sm = gsm;
#define DEB_ISLAND_X_BACK
#endif
#if DEB_TRIAL_LOCAL
#define DEB_ISLAND_Y(q)                                                                            \
    __local FP *ys = ly;                                                                       \
    __local FPF *fys = lfy;                                                                    \
    q.yn = nm;
// the last generation's trials to their global home (DeviceDe::trials reads them there)
#define DEB_ISLAND_Y_BACK                                                                          \
    for (uint i = lid; i < nm * nn; i += wg) Y[(size_t)(i / nm) * npop * nm + (size_t)p * nm + i % nm] = ys[i]; \
    for (uint m = lid; m < nm; m += wg) Fy[(size_t)p * nm + m] = fys[m];
#else
#define DEB_ISLAND_Y(q)                                                                            \
    __global FP *ys = Y + (size_t)p * nm;                                                      \
    __global FPF *fys = Fy + (size_t)p * nm;
#define DEB_ISLAND_Y_BACK
#endif
#endif

#ifdef DEB_ISLANDS
// Generations gen0 + 1 .. gen0 + k_gens of every island (one work-group each), as de_trial,
// de_eval_select and de_best compute them one generation at a time; then each island's best row.
__kernel void de_fused(__global FP *X, __global FPF *Fx, __global FP *Y, __global FPF *Fy, __global const FP *lo,
                       __global const FP *hi, __global const uchar *kinds, __global const FP *F,
                       __global const ulong *crt, __global const void *data, uint npop, uint nm, uint nn,
                       uint mutation, uint shared, ulong gen0, uint k_gens, ulong seed_mut, ulong seed_cross,
                       uint p0, uint npg, __local FP *lx, __local FPF *lfx, __local FPF *rv, __local uint *ri, __local FP *ly,
                       __local FPF *lfy)
{
    uint p = get_group_id(0);
    uint lid = get_local_id(0), wg = get_local_size(0);
    deb_pop q;
    q.nn = nn;
    q.np = nm;
    q.mutation = mutation;
    q.func = 0;
    // random keys: the global island p0 + p of npg (src/de/multi.rs)
    q.p = p0 + p;
    q.npop = npg;
    q.shared = shared;
    q.has_target = 0;
    // F holds each island's F, then each one's dither width
    q.f = F[p];
    q.fd = F[npop + p];
    q.target = 0;
    q.crt = crt[p];
    q.s_mut = seed_mut;
    q.s_cross = seed_cross;
    q.max_gen = gen0 + k_gens;
    q.yn = (ulong)npop * nm;
    // X(p, m, n) = X[(n * (nm + 1) + m) * npop + p]
    __global FP *gx = X + p;
    size_t gsn = (size_t)(nm + 1) * npop, gsm = npop;
    __global FPF *gfx = Fx + (size_t)p * (nm + 1);
#if DEB_LOCAL
    __local FP *xs = lx;
    __local FP *xs2 = lx + nm * nn;
    __local FPF *fxs = lfx;
    q.sn = nm;
    q.sm = 1;
    for (uint i = lid; i < nm * nn; i += wg) xs[i] = gx[(size_t)(i / nm) * gsn + (size_t)(i % nm) * gsm];
    for (uint m = lid; m < nm; m += wg) fxs[m] = gfx[m];
#else
    __global FP *xs = gx;
    __global FP *xs2 = gx;
    __global FPF *fxs = gfx;
    q.sn = gsn;
    q.sm = gsm;
#endif
#if DEB_TRIAL_LOCAL
    // the trials in local memory (a catalogue objective, built to read them there)
    __local FP *ys = ly;
    __local FPF *fys = lfy;
    q.yn = nm;
#else
    __global FP *ys = Y + (size_t)p * nm;
    __global FPF *fys = Fy + (size_t)p * nm;
#endif
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    // the best before the first generation, when the mutation reads it
    uint best = 0;
    if (deb_needs_best(mutation)) {
        FPF bv;
        best = deb_best(fxs, nm, lid, wg, rv, ri, &bv);
    }
    ulong gen = gen0;
    uint status = k_gens > 0 ? DEB_RUNNING : DEB_BUDGET;
    __local uint hit;
    xs = deb_generations(q, xs, xs2, fxs, ys, fys, lo, hi, kinds, (__global const uchar *)data, k_gens, lid, wg, rv, ri,
                         &hit, &gen, &status, &best);
#if DEB_LOCAL
    for (uint i = lid; i < nm * nn; i += wg) gx[(size_t)(i / nm) * gsn + (size_t)(i % nm) * gsm] = xs[i];
    for (uint m = lid; m < nm; m += wg) gfx[m] = fxs[m];
#endif
#if DEB_TRIAL_LOCAL
    // the last generation's trials to their global home (DeviceDe::trials reads them there)
    for (uint i = lid; i < nm * nn; i += wg) Y[(size_t)(i / nm) * npop * nm + (size_t)p * nm + i % nm] = ys[i];
    for (uint m = lid; m < nm; m += wg) Fy[(size_t)p * nm + m] = fys[m];
#endif
    // the best row (member nm), as de_best
    for (uint n = lid; n < nn; n += wg) gx[(size_t)n * gsn + (size_t)nm * gsm] = xs[(size_t)n * q.sn + (size_t)best * q.sm];
    if (lid == 0) gfx[nm] = fxs[best];
}
#if !DEB_LOCAL && !DEB_TRIAL_LOCAL
// The wide generation (islands of many members, few islands): the fused kernel gives an island
// one work-group, which holds at most a few hundred work-items (256 on NVIDIA's GPUs), so an island of
// 1000 members runs on one compute unit. These kernels spread a generation over work-groups
// instead, one launch a generation: de_wide makes, evaluates and selects the trial of every
// (island, member) with deb_trial, reading the targets X and writing the next population into
// X2 (selection by the work-item that made the trial, as with DEB_LOCAL, so no barrier between
// work-items is needed); de_wide_best writes each island's best member into B (the mutations
// that read it) and its best row (member nm), as de_best. Same random numbers, same results as
// de_fused.

// The island of (p0 + p of npg) with the wide kernels' arguments, its targets in X (global
// layout of de.cl).
#define DEB_WIDE_POP(q)                                                                        \
    deb_pop q;                                                                                 \
    q.nn = nn;                                                                                 \
    q.np = nm;                                                                                 \
    q.mutation = mutation;                                                                     \
    q.func = 0;                                                                                \
    q.p = p0 + p;                                                                              \
    q.npop = npg;                                                                              \
    q.shared = shared;                                                                         \
    q.has_target = 0;                                                                          \
    q.f = F[p];                                                                                \
    q.fd = F[npop + p];                                                                        \
    q.target = 0;                                                                              \
    q.crt = crt[p];                                                                            \
    q.s_mut = seed_mut;                                                                        \
    q.s_cross = seed_cross;                                                                    \
    q.max_gen = g;                                                                             \
    q.yn = (ulong)npop * nm;                                                                   \
    q.sn = (size_t)(nm + 1) * npop;                                                            \
    q.sm = npop;

// Generation g of every island: work-item (m, p) of a grid of nm (rounded up) by npop.
__kernel void de_wide(__global const FP *X, __global const FPF *Fx, __global FP *X2, __global FPF *Fx2,
                      __global FP *Y, __global FPF *Fy, __global const FP *lo, __global const FP *hi,
                      __global const uchar *kinds, __global const FP *F, __global const ulong *crt,
                      __global const void *data, __global const uint *B, uint npop, uint nm, uint nn, uint mutation,
                      uint shared, ulong g, ulong seed_mut, ulong seed_cross, uint p0, uint npg)
{
    uint m = get_global_id(0), p = get_global_id(1);
    if (m >= nm || p >= npop) return;
    DEB_WIDE_POP(q)
    __global const FP *xs = X + p;
    __global FP *xs2 = X2 + p;
    __global const FPF *fxs = Fx + (size_t)p * (nm + 1);
    __global FPF *fxs2 = Fx2 + (size_t)p * (nm + 1);
    FPF fy = deb_trial(q, g, m, B[p], xs, Y + (size_t)p * nm, Fy + (size_t)p * nm, lo, hi, kinds,
                       (__global const uchar *)data);
    int take = DE_REPLACES(fy, fxs[m]);
    fxs2[m] = take ? fy : fxs[m];
    __global const FP *ys = Y + (size_t)p * nm;
    for (uint n = 0; n < nn; ++n) {
        size_t i = DEB_XI(n, m, q.sn, q.sm);
        xs2[i] = take ? ys[DEB_YI(n, m, q.yn)] : xs[i];
    }
}

// Each island's best member into B[p] and its row and value into member nm: one work-group per
// island (deb_best, a power-of-two group), after the last generation and, for the mutations
// that read the best, before every one.
__kernel void de_wide_best(__global FP *X, __global FPF *Fx, __global uint *B, uint npop, uint nm, uint nn,
                           __local FPF *rv, __local uint *ri)
{
    uint p = get_group_id(0);
    uint lid = get_local_id(0), wg = get_local_size(0);
    __global FPF *fxs = Fx + (size_t)p * (nm + 1);
    FPF bv;
    uint best = deb_best(fxs, nm, lid, wg, rv, ri, &bv);
    size_t sn = (size_t)(nm + 1) * npop;
    for (uint n = lid; n < nn; n += wg) X[(size_t)n * sn + (size_t)nm * npop + p] = X[(size_t)n * sn + (size_t)best * npop + p];
    if (lid == 0) {
        fxs[nm] = bv;
        B[p] = best;
    }
}
#endif

#if DEB_JDE
// Cycles gen0 + 1 .. gen0 + k_gens of every jDE100 island (one work-group each; jde_cycle). JF
// holds 4 nm values per island (F, CR and the trials' F and CR), ST 4 counters per island (the
// age, restart evaluations, big and small restarts); member nm of X and Fx is the best ever.
__kernel void jde_fused(__global FP *X, __global FPF *Fx, __global FP *Y, __global FPF *Fy, __global const FP *lo,
                        __global const FP *hi, __global const uchar *kinds, __global FP *JF, __global ulong *ST,
                        __global const void *data, uint npop, uint nm, uint nn, uint nb, ulong gen0, uint k_gens,
                        ulong seed_init, ulong seed_mut, ulong seed_cross, uint p0, uint npg, FPF eps, ulong age_limit,
                        __local FP *lx, __local FPF *lfx, __local FPF *rv, __local uint *ri, __local FP *ly,
                        __local FPF *lfy)
{
    uint p = get_group_id(0);
    uint lid = get_local_id(0), wg = get_local_size(0);
    jde_pop q;
    q.nn = nn;
    q.nb = nb;
    q.ns = nm - nb;
    q.p = p0 + p;
    q.npop = npg;
    q.func = 0;
    q.s_init = seed_init;
    q.s_mut = seed_mut;
    q.s_cross = seed_cross;
    q.age_limit = age_limit;
    q.eps = eps;
    q.yn = (ulong)npop * nm;
    DEB_ISLAND_AT
    DEB_ISLAND_X(q)
    DEB_ISLAND_Y(q)
    __global FP *jf = JF + (size_t)p * 4 * nm;
    __global ulong *gst = ST + (size_t)p * 4;
    ulong st[4] = {gst[0], gst[1], gst[2], gst[3]};
    FPF best_ever = gfx[nm];
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    for (uint c = 0; c < k_gens; ++c)
        jde_cycle(q, gen0 + 1 + c, xs, fxs, ys, fys, jf, lo, hi, kinds, (__global const uchar *)data, gx + (size_t)nm * gsm,
                  gsn, gfx + nm, lid, wg, rv, ri, &best_ever, st);
    DEB_ISLAND_X_BACK
    DEB_ISLAND_Y_BACK
    if (lid == 0) {
        for (uint i = 0; i < 4; ++i) gst[i] = st[i];
    }
}
#endif // DEB_JDE
#if DEB_ADE
// Generations gen0 + 1 .. gen0 + k_gens of every JADE, SHADE, L-SHADE or jSO island (one
// work-group each; ade_gen), keyed by the global island p0 + p of npg; then each island's best
// row (member nm), as de_best. Per island: AM its memories (2 h), AA its archive (acap rows),
// AF and AU its scratch (4 nm FP, 2 nm uint), ST its counters (k, archive length, active
// members, evaluations).
// The arguments of ade_fused and of the wide kernels below, and island p's parameters (q).
#define ADE_ARGS                                                                                   \
    __global FP *X, __global FPF *Fx, __global FP *Y, __global FPF *Fy, __global const FP *lo,     \
        __global const FP *hi, __global const uchar *kinds, __global FP *AM, __global FP *AA,      \
        __global FP *AF, __global uint *AU, __global ulong *ST, __global const void *data, uint npop, \
        uint nm, uint nn, ulong gen0, uint k_gens, uint alg, uint h, uint acap, ulong budget, FP pmax, \
        FP arc_rate, FP cc, ulong seed_mut, ulong seed_cross, uint p0, uint npg
#define ADE_POP(q)                                                                                 \
    ade_pop q;                                                                                     \
    q.nn = nn;                                                                                     \
    q.nm = nm;                                                                                     \
    q.p = p0 + p;                                                                                  \
    q.npop = npg;                                                                                  \
    q.func = 0;                                                                                    \
    q.alg = alg;                                                                                   \
    q.h = h;                                                                                       \
    q.acap = acap;                                                                                 \
    q.s_mut = seed_mut;                                                                            \
    q.s_cross = seed_cross;                                                                        \
    q.budget = budget;                                                                             \
    q.pmax = pmax;                                                                                 \
    q.arc_rate = arc_rate;                                                                         \
    q.c = cc;                                                                                      \
    q.yn = (ulong)npop * nm;

__kernel void ade_fused(ADE_ARGS, __local FP *lx, __local FPF *lfx, __local FPF *rv, __local uint *ri, __local FP *ly,
                        __local FPF *lfy, __local FP *ls)
{
    uint p = get_group_id(0);
    uint lid = get_local_id(0), wg = get_local_size(0);
    ADE_POP(q)
    DEB_ISLAND_AT
    DEB_ISLAND_X(q)
    DEB_ISLAND_Y(q)
    __global ulong *gst = ST + (size_t)p * 4;
    ade_count cn;
    cn.k = (uint)gst[0];
    cn.alen = (uint)gst[1];
    cn.na = (uint)gst[2];
    cn.nfe = gst[3];
#if DEB_TRIAL_LOCAL
    // the slots past the active members (L-SHADE, jSO) are not written by this launch, and
    // DEB_ISLAND_Y_BACK copies every slot: they start as Y holds them, not as another group
    // left the local memory (so Y is what the global layout leaves, on any split of islands)
    for (uint i = lid; i < nm * nn; i += wg)
        if (i % nm >= cn.na) ys[i] = Y[(size_t)(i / nm) * npop * nm + (size_t)p * nm + i % nm];
    for (uint m = cn.na + lid; m < nm; m += wg) fys[m] = Fy[(size_t)p * nm + m];
#endif
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    // the members by rank before the first generation (ade_gen keeps them after each)
    ade_rank(fxs, cn.na, (FPF)INFINITY, ADE_NONE, AU + (size_t)p * 2 * nm, ls, lid, wg, ADE_ROOM(wg));
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    for (uint c = 0; c < k_gens; ++c)
        ade_gen(q, gen0 + 1 + c, &cn, xs, fxs, ys, fys, AM + (size_t)p * 2 * h, AA + (size_t)p * acap * nn,
                AF + (size_t)p * 4 * nm, AU + (size_t)p * 2 * nm, lo, hi, kinds, (__global const uchar *)data, ls, lid, wg);
    FPF bv;
    uint best = deb_best(fxs, nm, lid, wg, rv, ri, &bv);
    DEB_ISLAND_X_BACK
    DEB_ISLAND_Y_BACK
    for (uint n = lid; n < nn; n += wg) gx[(size_t)n * gsn + (size_t)nm * gsm] = xs[(size_t)n * q.sn + (size_t)best * q.sm];
    if (lid == 0) {
        gfx[nm] = bv;
        gst[0] = cn.k;
        gst[1] = cn.alen;
        gst[2] = cn.na;
        gst[3] = cn.nfe;
    }
}
#if !DEB_LOCAL && !DEB_TRIAL_LOCAL
// The wide generation of JADE, SHADE, L-SHADE and jSO (islands of many members, few islands; as
// de_wide for the fixed DE): a generation in two launches, ade_wide_trials over a grid of
// (members, islands) (ade_member_trial), then ade_wide_adapt, one work-group per island
// (ade_adapt, which ranks for the next generation, and the best row); ade_wide_rank ranks the islands before
// the first generation of a launch sequence (X may have changed: a migration, an import). The
// counters live in ST between the launches. The same code and random numbers as ade_fused: the
// same run.
#define ADE_WIDE_ISLAND(q)                                                                         \
    ADE_POP(q)                                                                                     \
    DEB_ISLAND_AT                                                                                  \
    DEB_ISLAND_X(q)                                                                                \
    DEB_ISLAND_Y(q)                                                                                \
    __global FP *mem = AM + (size_t)p * 2 * h;                                                     \
    __global FP *arc = AA + (size_t)p * acap * nn;                                                 \
    __global FP *af = AF + (size_t)p * 4 * nm;                                                     \
    __global uint *au = AU + (size_t)p * 2 * nm;                                                   \
    __global ulong *gst = ST + (size_t)p * 4;

// lroom: the bytes of ls (at least ADE_ROOM of the group; more lets ade_rank sort an island's
// values in local memory rather than read them from global memory at each of its steps).
__kernel void ade_wide_rank(ADE_ARGS, __local FP *ls, ulong lroom)
{
    uint p = get_group_id(0);
    uint lid = get_local_id(0), wg = get_local_size(0);
    ADE_WIDE_ISLAND(q)
    ade_rank(fxs, (uint)gst[2], (FPF)INFINITY, ADE_NONE, au, ls, lid, wg, lroom);
}

// Generation gen0 + 1's trials: work-item (m, p) makes active member m's of island p.
__kernel void ade_wide_trials(ADE_ARGS)
{
    uint m = get_global_id(0), p = get_global_id(1);
    if (p >= npop) return;
    ADE_WIDE_ISLAND(q)
    uint na = (uint)gst[2];
    if (m >= na) return;
    ade_member_trial(q, gen0 + 1, m, na, (uint)gst[1], gst[3], xs, fxs, ys, fys, mem, arc, af, au, lo, hi, kinds,
                     (__global const uchar *)data);
}

// The rest of generation gen0 + 1 for island p (one work-group): ade_adapt (which leaves the
// ranks of the next generation in au), the best row (member nm) and the counters.
__kernel void ade_wide_adapt(ADE_ARGS, __local FP *ls, ulong lroom)
{
    uint p = get_group_id(0);
    uint lid = get_local_id(0), wg = get_local_size(0);
    ADE_WIDE_ISLAND(q)
    ade_count cn;
    cn.k = (uint)gst[0];
    cn.alen = (uint)gst[1];
    cn.na = (uint)gst[2];
    cn.nfe = gst[3];
    ade_adapt(q, gen0 + 1, &cn, xs, fxs, ys, fys, mem, arc, af, au, ls, lid, wg, lroom);
    // the best is rank 0 (the lowest value, ties to the lower member, as deb_best; the members
    // past the active ones are +inf), which ade_adapt leaves published in au
    uint best = au[0];
    FPF bv = fxs[best];
    for (uint n = lid; n < nn; n += wg) gx[(size_t)n * gsn + (size_t)nm * gsm] = xs[(size_t)n * q.sn + (size_t)best * q.sm];
    if (lid == 0) {
        gfx[nm] = bv;
        gst[0] = cn.k;
        gst[1] = cn.alen;
        gst[2] = cn.na;
        gst[3] = cn.nfe;
    }
}
#endif
#endif // DEB_ADE
#endif
