// bh.cl: monotonic basin hopping with a (1+1)-ES local search (src/bh/; docs/specs/DE.md,
// "Basin hopping"). Leary, "Global optimization on funneling landscapes", J. Global Optim. 18
// (2000) (monotonic basin hopping); Wales and Doye, J. Phys. Chem. A 101 (1997) (basin
// hopping); Rechenberg's (1+1)-ES with the 1/5 success rule as the local search.
//
// One work-item per chain. A chain keeps an anchor x (the lowest local minimum it has accepted),
// and a local search at y with step s. One step is one evaluation:
// - while s > stop and the search has made fewer than cap steps: a trial t = y + s w n (n about
//   N(0, I), w the domain's widths) clamped to the domain; t replaces y when f(t) <= f(y); s
//   grows by `up` when f(t) < f(y), else it shrinks by `down` (the 1/5 rule as exp(0.8 / D) and
//   exp(-0.2 / D));
// - else the search is over: its end y replaces the anchor when f(y) < f(x) (monotonic), and a
//   new search starts at the hop y = x + h w n, clamped, with h drawn from the table `hops`
//   (log-spaced scales, a fraction of the widths), s = s0.
// n_j is the sum of four 16-bit uniforms, centred and scaled to unit variance (Irwin-Hall), and
// the hop's scale an entry of a table the host computes, so the steps are the same additions and
// multiplications on the device and in src/bh/cpu.rs (the CPU twin): in double they agree value for value
// wherever the objective's values do.
// Layout: component j of chain c at [j * chains + c] (X, Y, T), so a step's loads coalesce and
// the objective reads the trial with stride `chains`. A value that is not finite counts as +inf.
// Constraints (BH_CONSTRAINED 1; src/de/constraints.rs): FX and FY hold each chain's violation
// after the values (at [chains + c]), the objective's `constraints` gives them (constraints.cl's
// MO_NC, MO_NG, MO_EQ_TOL), and every comparison is Deb's feasibility rules (constraints.cl at
// level 0): the search moves to a trial no worse, its step grows on a better one, an ended search
// replaces the anchor when better.

#pragma OPENCL FP_CONTRACT OFF

#define BH_STREAM 7u

// sqrt(3) / 65536: a sum of four 16-bit words minus 131070 (their mean), times this, has unit
// variance.
#define BH_NORMAL_SCALE 2.6429214590853424e-05

// Words per step: two per component, and one for the hop's scale.
inline uint bh_words(uint dims)
{
    return 2 * dims + 1;
}

// The first counter of chain c's step: its words 4 i .. 4 i + 3 are metaopt_rng4(base + i).
inline ulong bh_base(ulong step, uint chains, uint c, uint dims)
{
    return (step * chains + c) * (ulong)((bh_words(dims) + 3) / 4);
}

// The deviate of words a, b (component j's are words 2 j and 2 j + 1: half of counter j / 2).
inline FP bh_normal(uint a, uint b)
{
    int sum = (int)((a & 0xffffu) + (a >> 16) + (b & 0xffffu) + (b >> 16)) - 131070;
    return (FP)sum * (FP)BH_NORMAL_SCALE;
}

#ifndef BH_CONSTRAINED
#define BH_CONSTRAINED 0
#endif
#if BH_CONSTRAINED
#define BH_V(F) F[chains + c]
#define BH_VIOLATION(t, dims, chains, data) MO_VIOLATION(t, dims, chains, data)
#else
#define BH_V(F) ((FP)0)
#define BH_VIOLATION(t, dims, chains, data) ((FP)0)
#endif

inline FP bh_eval(__global const FP *t, uint dims, uint chains, __global const void *data)
{
    FP v = objective(t, dims, chains, data);
    return isfinite(v) ? v : (FP)INFINITY;
}

__kernel void bh_steps(__global FP *X, __global FP *FX, __global FP *Y, __global FP *FY, __global FP *T,
                       __global FP *S, __global uint *L, __global const FP *lo, __global const FP *hi,
                       __global const FP *hops, uint nhops, __global const void *data, uint chains, uint dims,
                       ulong seed, ulong step0, uint steps, FP s0, FP stop, uint cap, FP up, FP down)
{
    uint c = get_global_id(0);
    if (c >= chains) return;
    FP fy = FY[c], s = S[c], vy = BH_V(FY);
    uint l = L[c];
    for (uint k = 0; k < steps; ++k) {
        ulong base = bh_base(step0 + k, chains, c, dims);
        int hop = s <= stop || l >= cap;
        // the search is over: monotonic acceptance, then a hop from the anchor
        if (hop && mo_better(fy, vy, FX[c], BH_V(FX), (FP)0)) {
            for (uint j = 0; j < dims; ++j) X[(size_t)j * chains + c] = Y[(size_t)j * chains + c];
            FX[c] = fy;
#if BH_CONSTRAINED
            BH_V(FX) = vy;
#endif
        }
        // the trial: a hop of the hop's scale from the anchor, or a step of s from the search's
        // point; word 2 dims (of counter dims / 2, the first or the third) picks the hop's scale
        FP scale = s;
        if (hop) {
            uint4 hw = metaopt_rng4(seed, BH_STREAM, base + dims / 2);
            scale = hops[(uint)(((ulong)((dims & 1u) ? hw.z : hw.x) * nhops) >> 32)];
        }
        __global const FP *from = hop ? X : Y;
        uint4 w4 = (uint4)(0u);
        for (uint j = 0; j < dims; ++j) {
            if ((j & 1u) == 0) w4 = metaopt_rng4(seed, BH_STREAM, base + j / 2);
            FP n = (j & 1u) ? bh_normal(w4.z, w4.w) : bh_normal(w4.x, w4.y);
            FP w = hi[j] - lo[j];
            FP v = from[(size_t)j * chains + c] + scale * w * n;
            T[(size_t)j * chains + c] = clamp(v, lo[j], hi[j]);
        }
        FP ft = bh_eval(T + c, dims, chains, data);
        FP vt = BH_VIOLATION(T + c, dims, chains, data);
        if (!(vt < (FP)INFINITY)) vt = INFINITY;
        // a tie moves the search but counts as a failure for the step: at the objective's
        // rounding floor ties and rounding noise would otherwise hold the step above `stop`
        int ok = mo_no_worse(ft, vt, fy, vy, (FP)0), better = mo_better(ft, vt, fy, vy, (FP)0);
        if (hop || ok) {
            for (uint j = 0; j < dims; ++j) Y[(size_t)j * chains + c] = T[(size_t)j * chains + c];
            fy = ft;
            vy = vt;
        }
        s = hop ? s0 : (better ? s * up : s * down);
        l = hop ? 0u : l + 1;
    }
    FY[c] = fy;
#if BH_CONSTRAINED
    BH_V(FY) = vy;
#endif
    S[c] = s;
    L[c] = l;
}
