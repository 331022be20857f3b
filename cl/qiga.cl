// qiga.cl: the quantum-inspired genetic algorithm for the 0-1 knapsack (docs/specs/QIGA.md), whole
// runs on the device, one work-group per population. The arithmetic and the Philox draws are those
// of src/qiga/cpu.rs, so the device and the CPU backend give identical runs.
//
// Build-time macros:
//   QG_M      items (genes, qubits per individual), at most 65535
//   QG_POP    individuals per population
//   QG_WG     work-items per group (QG_WG >= QG_POP)
//   QG_GPI    genes per work-item, ceil(QG_M / QG_WG)
//   QG_LPI    repair lanes per individual, QG_WG / QG_POP
//   QG_CHUNK  positions per lane, ceil(QG_M / QG_LPI)
//   QG_REPAIR 0 index order, 1 a random order per repair, 2 greedy by profit/weight
//   QG_LOCAL_BITS 1: the population's bits in local memory, 0: in the group's slice of `scratch`
//
// Angles are integer steps of pi/200 kept modulo 400; bit j of individual i is 0 iff the Philox word
// of (seed, population, generation, individual, gene) is below thr[k mod 200] = round(cos^2 * 2^32).
// The repair is QIGA.md's two prefix rules, done by segmented scans over each individual's lanes:
// removal clears the included items (in removal order) whose exclusive prefix of included weight is
// below the excess W - C; the fill adds the excluded items (in fill order) whose inclusive prefix of
// excluded weight stays within the room C - W'.

#define QG_POP4 ((QG_POP + 3) / 4)
#define QG_ACTIVE (QG_POP * QG_LPI)

// purposes of the Philox counters (top two bits), as src/qiga/cpu.rs
#define QG_OBSERVE 0ul
#define QG_SIGN 1ul
#define QG_ORDER 2ul
#define QG_CTR(purpose, x) (((purpose) << 62) | (x))

#if QG_LOCAL_BITS
#define BSPACE __local
#else
#define BSPACE __global
#endif

// A keyed bijection of [0, 2^bits): four rounds of add, odd multiply and xorshift; cycle walking
// makes it a bijection of [0, QG_M). The same function as `order_mix` in src/qiga/cpu.rs.
inline uint qg_mix(uint x, uint4 k, uint bits, uint mask)
{
    const uint sh = (bits + 1) / 2;
    x = ((x + k.x) * 0x9E3779B1u) & mask; x ^= x >> sh;
    x = ((x + k.y) * 0x85EBCA77u) & mask; x ^= x >> sh;
    x = ((x + k.z) * 0xC2B2AE3Du) & mask; x ^= x >> sh;
    x = ((x + k.w) * 0x27D4EB2Fu) & mask; x ^= x >> sh;
    return x;
}

inline uint qg_random_pos(uint r, uint4 k, uint bits, uint mask)
{
    uint x = qg_mix(r, k, bits, mask);
    while (x >= QG_M)
        x = qg_mix(x, k, bits, mask);
    return x;
}

// the item at position r of the removal order and of the fill order
#if QG_REPAIR == 0
#define REMOVE_ITEM(r) (r)
#define FILL_ITEM(r) (r)
#elif QG_REPAIR == 1
#define REMOVE_ITEM(r) qg_random_pos((r), okey, obits, omask)
#define FILL_ITEM(r) qg_random_pos((r), okey, obits, omask)
#else
#define REMOVE_ITEM(r) ((uint)order[QG_M - 1 - (r)])
#define FILL_ITEM(r) ((uint)order[(r)])
#endif

// Inclusive scan of (a, b) over the QG_LPI lanes of each individual; every work-item of the group
// calls it (it holds barriers). Returns the lane's inclusive prefix in *a, *b; the individual's
// totals are read from sa/sb at its last lane afterwards.
inline void qg_scan2(__local ulong *sa, __local ulong *sb, uint lid, uint lane, ulong *a, ulong *b)
{
    sa[lid] = *a;
    sb[lid] = *b;
    for (uint off = 1; off < QG_LPI; off <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        ulong va = 0, vb = 0;
        if (lid < QG_ACTIVE && lane >= off) {
            va = sa[lid - off];
            vb = sb[lid - off];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        sa[lid] += va;
        sb[lid] += vb;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    *a = sa[lid];
    *b = sb[lid];
}

// Repairs and evaluates the QG_POP strings in P (P[i * QG_M + j]); writes each individual's
// profit to val[i]. Every work-item of the group calls it. Random orders are keyed by
// (seed, pop, generation g, individual).
void qg_repair(BSPACE uchar *P, __global const ulong *w, __global const ulong *p, ulong cap,
               __global const ushort *order, ulong seed, uint pop, uint g,
               __local ulong *sa, __local ulong *sb, __local ulong *val)
{
    const uint lid = get_local_id(0);
    const uint active = lid < QG_ACTIVE;
    const uint ind = active ? lid / QG_LPI : 0;
    const uint lane = lid % QG_LPI;
    const uint r0 = min((uint)QG_M, lane * QG_CHUNK), r1 = min((uint)QG_M, r0 + QG_CHUNK);
    BSPACE uchar *x = P + ind * QG_M;
#if QG_REPAIR == 1
    const uint4 okey = metaopt_rng4(seed, pop, QG_CTR(QG_ORDER, (ulong)g * QG_POP + ind));
    uint obits = 1;
    while ((1u << obits) < QG_M)
        ++obits;
    const uint omask = (1u << obits) - 1;
#endif
    // removal: included weight in removal order
    ulong s = 0, unused = 0;
    if (active)
        for (uint r = r0; r < r1; ++r) {
            uint k = REMOVE_ITEM(r);
            if (x[k])
                s += w[k];
        }
    ulong incl = s;
    qg_scan2(sa, sb, lid, lane, &incl, &unused);
    const ulong total = sa[ind * QG_LPI + QG_LPI - 1];
    const ulong excess = total > cap ? total - cap : 0;
    ulong removed = 0;
    if (active && excess > 0) {
        ulong off = incl - s;
        for (uint r = r0; r < r1 && off < excess; ++r) {
            uint k = REMOVE_ITEM(r);
            if (x[k]) {
                x[k] = 0;
                removed += w[k];
                off += w[k];
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    // fill: excluded weight in fill order, and the removed weight
    s = 0;
    if (active)
        for (uint r = r0; r < r1; ++r) {
            uint k = FILL_ITEM(r);
            if (!x[k])
                s += w[k];
        }
    ulong excl = s, rem = removed;
    qg_scan2(sa, sb, lid, lane, &excl, &rem);
    const ulong room = cap - (total - sb[ind * QG_LPI + QG_LPI - 1]);
    if (active) {
        ulong off = excl - s;
        for (uint r = r0; r < r1; ++r) {
            uint k = FILL_ITEM(r);
            if (!x[k]) {
                off += w[k];
                if (off > room)
                    break;
                x[k] = 1;
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    // evaluation: profit (and weight) of the repaired string
    ulong pv = 0, wv = 0;
    if (active)
        for (uint r = r0; r < r1; ++r)
            if (x[r]) {
                pv += p[r];
                wv += w[r];
            }
    qg_scan2(sa, sb, lid, lane, &pv, &wv);
    if (active && lane == QG_LPI - 1)
        val[ind] = pv;
    barrier(CLK_LOCAL_MEM_FENCE);
}

// gens_run of a population that has not finished: it goes on in the next launch
#define QG_RUNNING 0xFFFFFFFFu

// Generations g0 .. g1 - 1 of `count` populations (global indices pop_offset + group) of runs of
// `generations` generations after the initial one, each stopping early once its best reaches
// `target` (when has_target). A launch with g0 > 0 continues the populations of the launch that
// ended at g0: their angles from `angles` (the group's slice, written at the end of a launch that
// did not finish them), their best from best_value, best_gen and best_bits; a population whose
// gens_run is not QG_RUNNING has finished and is left alone. At the end of a launch every
// population's best so far is in best_value, best_gen and best_bits, and gens_run holds the
// generation it finished in, or QG_RUNNING. The draws depend on (seed, population, generation)
// only, so any split of a run into launches gives the run of one launch. A warm start (warm 1, with
// g0 = 0) begins from the angles, best string and best value the host wrote there, the string staying
// the best unless an individual of generation 0 beats it (best_gen 0 either way).
// tables: per table 8 rows (x * 4 + b * 2 + [f(x) >= f(b)]) of 5 ints: steps of pi/200, then the
// sign for the columns ab > 0, ab < 0, a = 0, b = 0 (-1, 0, +1, or 2 for a random sign); population
// q uses table (q / pops_per_table) % ntables.
__kernel __attribute__((reqd_work_group_size(QG_WG, 1, 1)))
void qiga_run(__global const ulong *w, __global const ulong *p, ulong cap, __global const ulong *thr,
              __global const int *tables, uint ntables, uint pops_per_table, __global const ushort *order,
              ulong seed, uint pop_offset, uint generations, uint has_target, ulong target,
              __global ulong *best_value, __global uchar *best_bits, __global uint *best_gen,
              __global uint *gens_run, __global uchar *scratch, uint g0, uint g1,
              __global short *angles, uint warm)
{
    const uint lid = get_local_id(0);
    const uint grp = get_group_id(0);
    const uint pop = pop_offset + grp;
    // a population that finished in an earlier launch (the same value for the whole group): it
    // runs one generation from neutral angles whose outcome is dropped (an early return or a
    // loop condition before the barriers is not portable: PoCL's work-group loops mishandle it)
    const uint finished = g0 > 0 && gens_run[grp] != QG_RUNNING;
    __global short *qa = angles + (ulong)grp * (QG_POP * QG_GPI * QG_WG);
    __local ulong sa[QG_WG], sb[QG_WG], val[QG_POP];
    __local ulong bestv;
    __local uint besti, bestg, improved;
#if QG_LOCAL_BITS
    __local uchar P[QG_POP * QG_M], B[QG_M];
#else
    __global uchar *P = scratch + (ulong)grp * (QG_POP + 1) * QG_M;
    __global uchar *B = P + QG_POP * QG_M;
#endif
    __global const int *tab = tables + ((pop / pops_per_table) % ntables) * 40;
    short q[QG_POP * QG_GPI];
    for (uint u = 0; u < QG_POP * QG_GPI; ++u)
        q[u] = (g0 == 0 && !warm) || finished ? 50 : qa[u * QG_WG + lid];
    // a launch after the first, or a warm start: the angles, best string and value stored
    if (g0 > 0 || warm) {
        for (uint j = lid; j < QG_M; j += QG_WG)
            B[j] = best_bits[(ulong)grp * QG_M + j];
        if (lid == 0) {
            bestv = best_value[grp];
            bestg = best_gen[grp];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    for (uint g = g0;; ++g) {
        // observation
        for (uint u = 0; u < QG_GPI; ++u) {
            const uint j = lid + u * QG_WG;
            if (j < QG_M)
                for (uint i4 = 0; i4 < QG_POP4; ++i4) {
                    const uint4 r = metaopt_rng4(seed, pop, QG_CTR(QG_OBSERVE, ((ulong)g * QG_POP4 + i4) * QG_M + j));
                    const uint words[4] = {r.x, r.y, r.z, r.w};
                    for (uint c = 0; c < 4; ++c) {
                        const uint i = 4 * i4 + c;
                        if (i < QG_POP) {
                            const int k = q[i * QG_GPI + u];
                            P[i * QG_M + j] = (ulong)words[c] >= thr[k >= 200 ? k - 200 : k];
                        }
                    }
                }
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        qg_repair(P, w, p, cap, order, seed, pop, g, sa, sb, val);
        // update against the best of the earlier generations
        if (g > 0) {
            const ulong fb = bestv;
            for (uint u = 0; u < QG_GPI; ++u) {
                const uint j = lid + u * QG_WG;
                if (j < QG_M) {
                    const uint bj = B[j];
                    for (uint i = 0; i < QG_POP; ++i) {
                        const uint row = P[i * QG_M + j] * 4 + bj * 2 + (val[i] >= fb);
                        const int steps = tab[row * 5];
                        if (steps != 0) {
                            int k = q[i * QG_GPI + u];
                            const int km = k >= 200 ? k - 200 : k;
                            const int col = km == 0 ? 3 : km == 100 ? 2 : km < 100 ? 0 : 1;
                            int sgn = tab[row * 5 + 1 + col];
                            if (sgn == 2) {
                                const uint4 r = metaopt_rng4(seed, pop, QG_CTR(QG_SIGN, ((ulong)g * QG_POP + i) * QG_M + j));
                                sgn = (r.x & 1u) ? 1 : -1;
                            }
                            k += sgn * steps;
                            k %= 400;
                            q[i * QG_GPI + u] = (short)(k < 0 ? k + 400 : k);
                        }
                    }
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        // store the best
        if (lid == 0) {
            uint bi = 0;
            for (uint i = 1; i < QG_POP; ++i)
                if (val[i] > val[bi])
                    bi = i;
            // generation 0 sets the best, unless a warm start's string holds it
            improved = (g == 0 && !warm) || val[bi] > bestv;
            if (improved) {
                bestv = val[bi];
                besti = bi;
                bestg = g;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (improved)
            for (uint j = lid; j < QG_M; j += QG_WG)
                B[j] = P[besti * QG_M + j];
        const uint done = g >= generations || (has_target && bestv >= target);
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        if (finished)
            break;
        if (done || g + 1 >= g1) {
            for (uint j = lid; j < QG_M; j += QG_WG)
                best_bits[(ulong)grp * QG_M + j] = B[j];
            if (!done)
                for (uint u = 0; u < QG_POP * QG_GPI; ++u)
                    qa[u * QG_WG + lid] = q[u];
            if (lid == 0) {
                best_value[grp] = bestv;
                best_gen[grp] = bestg;
                gens_run[grp] = done ? g : QG_RUNNING;
            }
            break;
        }
    }
}

// The repair alone, for the tests: groups of QG_POP strings (string s is individual s % QG_POP of
// population `pop_offset + s / QG_POP`) repaired as generation g would; count a multiple of QG_POP.
__kernel __attribute__((reqd_work_group_size(QG_WG, 1, 1)))
void qiga_repair_strings(__global const ulong *w, __global const ulong *p, ulong cap,
                         __global const ushort *order, ulong seed, uint pop_offset, uint g,
                         __global uchar *bits, __global ulong *values, __global uchar *scratch)
{
    const uint lid = get_local_id(0);
    const uint grp = get_group_id(0);
    __local ulong sa[QG_WG], sb[QG_WG], val[QG_POP];
#if QG_LOCAL_BITS
    __local uchar P[QG_POP * QG_M];
#else
    __global uchar *P = scratch + (ulong)grp * (QG_POP + 1) * QG_M;
#endif
    __global uchar *src = bits + (ulong)grp * QG_POP * QG_M;
    for (uint j = lid; j < QG_POP * QG_M; j += QG_WG)
        P[j] = src[j];
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    qg_repair(P, w, p, cap, order, seed, pop_offset + grp, g, sa, sb, val);
    for (uint j = lid; j < QG_POP * QG_M; j += QG_WG)
        src[j] = P[j];
    if (lid < QG_POP)
        values[grp * QG_POP + lid] = val[lid];
}
