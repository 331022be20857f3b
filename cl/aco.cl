// aco.cl: ant colony optimisation for the single-pair shortest path (docs/specs/ACO.md; thesis 003,
// corrected). One work-group per ant walks the whole path with strided loops over the neighbours of
// the current vertex; `aco_deposit` then evaporates and deposits, one work-item per vertex (each
// vertex owns the pheromone of its out-arcs, so no atomics). The arithmetic and the Philox draws are
// those of src/aco/cpu.rs: on the roulette the two backends give identical runs.
//
// Build-time macros:
//   ACO_WG      work-items per ant (a power of two)
//   ACO_WT      the arc weight type: uint, ulong, float or double
//   ACO_REAL    1 for float/double weights (lengths summed in double), 0 for integers (ulong)
//   ACO_GUMBEL  1: Gumbel-max selection (one reduction), 0: the roulette by a scan
//
// Pheromone tau and the heuristic eta = 1 / (w + c)^beta (computed by the host) are double, per
// CSR arc. An eligible neighbour (unvisited) has the weight p = tau^alpha * eta; the roulette
// quantises p to q = max(1, floor(p / pmax * qscale)) (0 only for p = 0) so that every sum and
// prefix is an exact 64-bit integer, whatever the order of the additions.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

#define ACO_NONE 0xFFFFFFFFu
#define ACO_DRAW 0xFFFFFFFFu

#if ACO_REAL
typedef double LT;
#define LT_BITS(x) as_ulong(x)
#else
typedef ulong LT;
#define LT_BITS(x) (x)
#endif

// x^a with the small integer exponents done by multiplication (as src/aco/cpu.rs `pow_exact`).
inline double aco_pow(double x, double a)
{
    if (a == 1.0)
        return x;
    if (a == 2.0)
        return x * x;
    if (a == 0.0)
        return 1.0;
    return pow(x, a);
}

// The four words of (seed; step, iteration, ant, k): k = ACO_DRAW for the roulette's draw, the
// neighbour's index for its Gumbel noise.
inline uint4 aco_rng(ulong seed, uint iter, uint ant, uint step, uint k)
{
    return philox4x32_10((uint4)(step, iter, ant, k), (uint2)((uint)seed, (uint)(seed >> 32)));
}

inline int aco_visited(__global const uint *vis, uint v)
{
    return (vis[v >> 5] >> (v & 31)) & 1;
}

inline double aco_p(__global const double *tau, __global const double *eta, ulong e, double alpha)
{
    return aco_pow(tau[e], alpha) * eta[e];
}

// One ant per group. succ[ant * n + v]: the index (within v's arcs) of the arc the ant left v by,
// ACO_NONE where it did not pass; ok[ant]: 1 when it reached t; lengths[ant]: its length (bits).
__kernel void aco_ants(__global const ulong *offsets, __global const uint *targets,
                       __global const ACO_WT *weights, __global const double *eta,
                       __global const double *tau, uint n, uint s, uint t, double alpha,
                       double qscale, ulong seed, uint iter, uint max_steps,
                       __global uint *succ, __global uint *visited, __global uint *ok,
                       __global ulong *lengths)
{
    __local double red[ACO_WG];
    __local ulong sc[ACO_WG];
    __local uint pick[ACO_WG];
    const uint lid = get_local_id(0);
    const uint ant = get_group_id(0);
    const uint words = (n + 31) / 32;
    __global uint *my_succ = succ + (ulong)ant * n;
    __global uint *vis = visited + (ulong)ant * words;
    for (uint v = lid; v < n; v += ACO_WG)
        my_succ[v] = ACO_NONE;
    for (uint w = lid; w < words; w += ACO_WG)
        vis[w] = 0;
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0)
        vis[s >> 5] |= 1u << (s & 31);
    barrier(CLK_GLOBAL_MEM_FENCE);
    uint cur = s, reached = 0;
    LT len = 0;
    for (uint step = 0;; ++step) {
        if (cur == t) {
            reached = 1;
            break;
        }
        if (step >= max_steps)
            break;
        const ulong lo = offsets[cur];
        const uint deg = (uint)(offsets[cur + 1] - lo);
        uint chosen = ACO_NONE;
#if ACO_GUMBEL
        // argmax of log p + Gumbel noise, ties to the smaller index
        double best = -INFINITY;
        uint bk = ACO_NONE;
        for (uint k = lid; k < deg; k += ACO_WG) {
            const uint d = targets[lo + k];
            if (aco_visited(vis, d))
                continue;
            const double p = aco_p(tau, eta, lo + k, alpha);
            if (p <= 0.0)
                continue;
            const uint4 r = aco_rng(seed, iter, ant, step, k);
            const double u = ((double)((((ulong)r.x) << 21) | (r.y >> 11)) + 0.5) * 0x1.0p-53;
            const double key = log(p) - log(-log(u));
            if (key > best) {
                best = key;
                bk = k;
            }
        }
        red[lid] = best;
        pick[lid] = bk;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint h = ACO_WG / 2; h > 0; h >>= 1) {
            if (lid < h) {
                const double o = red[lid + h];
                const uint ok2 = pick[lid + h];
                if (ok2 != ACO_NONE && (pick[lid] == ACO_NONE || o > red[lid] || (o == red[lid] && ok2 < pick[lid]))) {
                    red[lid] = o;
                    pick[lid] = ok2;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        chosen = pick[0];
        // the global fence too: every work-item's reads of vis come before lid 0 marks d
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
#else
        // pass 1: the largest weight
        double pm = 0.0;
        for (uint k = lid; k < deg; k += ACO_WG) {
            if (!aco_visited(vis, targets[lo + k]))
                pm = fmax(pm, aco_p(tau, eta, lo + k, alpha));
        }
        red[lid] = pm;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint h = ACO_WG / 2; h > 0; h >>= 1) {
            if (lid < h)
                red[lid] = fmax(red[lid], red[lid + h]);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        pm = red[0];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (pm > 0.0) {
            // pass 2: the total of the quantised weights (exact integers)
            ulong sum = 0;
            for (uint k = lid; k < deg; k += ACO_WG) {
                if (aco_visited(vis, targets[lo + k]))
                    continue;
                const double p = aco_p(tau, eta, lo + k, alpha);
                if (p > 0.0)
                    sum += max((ulong)1, (ulong)(p / pm * qscale));
            }
            sc[lid] = sum;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (uint h = ACO_WG / 2; h > 0; h >>= 1) {
                if (lid < h)
                    sc[lid] += sc[lid + h];
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            const ulong total = sc[0];
            if (lid == 0)
                pick[0] = ACO_NONE;
            barrier(CLK_LOCAL_MEM_FENCE);
            const uint4 rw = aco_rng(seed, iter, ant, step, ACO_DRAW);
            const ulong r = mul_hi((((ulong)rw.x) << 32) | rw.y, total); // uniform in [0, total)
            // pass 3: tiles of ACO_WG neighbours, inclusive scan, carried prefix; the neighbour k
            // with x[k] <= r < x[k] + q[k] is taken (never one with q = 0)
            ulong carry = 0;
            for (uint base = 0; base < deg; base += ACO_WG) {
                const uint k = base + lid;
                ulong q = 0;
                if (k < deg && !aco_visited(vis, targets[lo + k])) {
                    const double p = aco_p(tau, eta, lo + k, alpha);
                    if (p > 0.0)
                        q = max((ulong)1, (ulong)(p / pm * qscale));
                }
                sc[lid] = q;
                barrier(CLK_LOCAL_MEM_FENCE);
                for (uint off = 1; off < ACO_WG; off <<= 1) {
                    const ulong add = lid >= off ? sc[lid - off] : 0;
                    barrier(CLK_LOCAL_MEM_FENCE);
                    sc[lid] += add;
                    barrier(CLK_LOCAL_MEM_FENCE);
                }
                const ulong incl = carry + sc[lid];
                if (q > 0 && incl - q <= r && r < incl)
                    pick[0] = k;
                carry += sc[ACO_WG - 1];
                barrier(CLK_LOCAL_MEM_FENCE);
                if (carry > r)
                    break;
            }
            chosen = pick[0];
            // the global fence too: every work-item's reads of vis come before lid 0 marks d
            barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        }
#endif
        if (chosen == ACO_NONE)
            break; // a dead end: no eligible neighbour
        const uint d = targets[lo + chosen];
        if (lid == 0) {
            my_succ[cur] = chosen;
            vis[d >> 5] |= 1u << (d & 31);
        }
#if ACO_REAL
        len += (double)weights[lo + chosen];
#else
        len += (ulong)weights[lo + chosen];
#endif
        cur = d;
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        ok[ant] = reached;
        lengths[ant] = LT_BITS(len);
    }
}

// One work-item per vertex u: tau of u's arcs <- keep * tau (or tau0 when reset), then each ant
// in order adds dep[ant] to the arc it left u by (dep = 0: failed or not depositing), then the
// MAX-MIN clamp [tmin, tmax].
__kernel void aco_deposit(__global const ulong *offsets, __global double *tau,
                          __global const uint *succ, __global const double *dep, uint n,
                          uint ants, double keep, uint reset, double tau0, double tmin,
                          double tmax)
{
    const uint u = get_global_id(0);
    if (u >= n)
        return;
    const ulong lo = offsets[u], hi = offsets[u + 1];
    for (ulong e = lo; e < hi; ++e)
        tau[e] = reset ? tau0 : tau[e] * keep;
    for (uint a = 0; a < ants; ++a) {
        const uint k = succ[(ulong)a * n + u];
        if (k != ACO_NONE && dep[a] != 0.0)
            tau[lo + k] += dep[a];
    }
    for (ulong e = lo; e < hi; ++e)
        tau[e] = fmin(fmax(tau[e], tmin), tmax);
}
