// sat.cl: clause evaluation of CNF formulas (docs/specs/SAT.md; thesis 000, 3.2.2, 5.3.3, appendices C, E).
//
// The clauses are stored flat: clause c is lits[offsets[c] .. offsets[c + 1]), literals signed
// and 1-based, of the type SAT_LIT (char, short or int: the smallest holding +-vars, chosen by the
// host). An assignment is bit-packed: variable v is bit (v - 1) % 32 of its word (v - 1) / 32,
// and word w lives at x[w * stride], so one function serves a lone assignment (stride 1) and the
// transposed, pitched batches of DXAC (stride = pitch). A clause's true-literal count counts true
// occurrences; the clause is satisfied when it is positive (so a clause holding v and -v always is).

#ifndef SAT_LIT
#define SAT_LIT int
#endif

// Whether literal lit is true under the assignment whose word w is x[w * stride].
inline uint sat_lit_true(int lit, __global const uint *x, uint stride)
{
    uint v = (uint)(lit > 0 ? lit : -lit) - 1u;
    uint bit = (x[(v >> 5) * stride] >> (v & 31u)) & 1u;
    return bit ^ (uint)(lit < 0);
}

// True literals of clause c.
inline uint sat_clause_true(uint c, __global const uint *offsets, __global const SAT_LIT *lits,
                            __global const uint *x, uint stride)
{
    uint n = 0;
    uint end = offsets[c + 1];
    for (uint k = offsets[c]; k < end; ++k)
        n += sat_lit_true((int)lits[k], x, stride);
    return n;
}

// Satisfied clauses of one assignment, sequentially (the integer twin of the objective contract:
// the unsatisfied count is clauses minus this).
inline uint sat_count_satisfied(__global const uint *offsets, __global const SAT_LIT *lits, uint clauses,
                                __global const uint *x, uint stride)
{
    uint s = 0;
    for (uint c = 0; c < clauses; ++c)
        s += sat_clause_true(c, offsets, lits, x, stride) > 0u;
    return s;
}

// Sum of scratch[0 .. get_local_size(0)) into scratch[0]; the size must be a power of two. Every
// work-item of the group must call it.
inline void sat_group_sum(__local uint *scratch)
{
    uint lid = get_local_id(0);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < s)
            scratch[lid] += scratch[lid + s];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

// MCSX phase 1: one assignment x (stride 1), the clauses spread over every work-item (grid-stride,
// so any number of groups covers any clause count). Writes each clause's true-literal count when
// write_counts, and each group's satisfied count to partial[group].
__kernel void sat_mcsx_count(__global const uint *offsets, __global const SAT_LIT *lits, uint clauses,
                             __global const uint *x, __global uint *counts, uint write_counts,
                             __global uint *partial, __local uint *scratch)
{
    uint sat = 0;
    for (uint c = get_global_id(0); c < clauses; c += get_global_size(0)) {
        uint n = sat_clause_true(c, offsets, lits, x, 1u);
        if (write_counts)
            counts[c] = n;
        sat += n > 0u;
    }
    scratch[get_local_id(0)] = sat;
    sat_group_sum(scratch);
    if (get_local_id(0) == 0)
        partial[get_group_id(0)] = scratch[0];
}

// MCSX phase 2: one work-group sums the groups' counts: result[0] = satisfied clauses,
// result[1] = 1 when every clause is satisfied.
__kernel void sat_mcsx_reduce(__global const uint *partial, uint groups, uint clauses,
                              __global uint *result, __local uint *scratch)
{
    uint s = 0;
    for (uint g = get_local_id(0); g < groups; g += get_local_size(0))
        s += partial[g];
    scratch[get_local_id(0)] = s;
    sat_group_sum(scratch);
    if (get_local_id(0) == 0) {
        result[0] = scratch[0];
        result[1] = scratch[0] == clauses;
    }
}

// DXAC: one work-item per assignment, looping over the clauses. Assignments are transposed: word w
// of assignment a is x[w * pitch + a], so neighbouring work-items read neighbouring words. Writes
// satisfied[a] and, when write_counts, counts[c * pitch + a] (transposed too, for the same reason).
__kernel void sat_dxac(__global const uint *offsets, __global const SAT_LIT *lits, uint clauses,
                       __global const uint *x, uint pitch, uint count,
                       __global uint *satisfied, __global uint *counts, uint write_counts)
{
    uint a = get_global_id(0);
    if (a >= count)
        return;
    __global const uint *xa = x + a;
    uint s = 0;
    for (uint c = 0; c < clauses; ++c) {
        uint n = sat_clause_true(c, offsets, lits, xa, pitch);
        if (write_counts)
            counts[(size_t)c * pitch + a] = n;
        s += n > 0u;
    }
    satisfied[a] = s;
}

#ifdef SAT_LOCAL_SEARCH
// SAT local search with HC12 (src/hc12/sat/): the string is the assignment, one bit per variable;
// mask row r flips the variables of its bits (b -> variable b + 1: M1 one, M2 two). A row's value
// is the number of unsatisfied clauses after its flips, computed incrementally from the current
// per-clause true-literal counts: only the clauses of the flipped variables can change.
// Needs tabu.cl, hc12.cl (rows, hc12_select) and FT_KIND = 1 (long).

// Net change of clause c's true-literal count when the variables u and v (0 = none) flip under
// the current assignment x.
inline int sat_clause_change(uint c, __global const uint *offsets, __global const SAT_LIT *lits,
                             __global const uint *x, uint u, uint v)
{
    int d = 0;
    for (uint k = offsets[c]; k < offsets[c + 1]; ++k) {
        int lit = (int)lits[k];
        uint var = (uint)(lit > 0 ? lit : -lit);
        if (var == u || var == v) d += sat_lit_true(lit, x, 1u) ? -1 : 1;
    }
    return d;
}

inline bool sat_clause_has(uint c, __global const uint *offsets, __global const SAT_LIT *lits, uint u)
{
    for (uint k = offsets[c]; k < offsets[c + 1]; ++k) {
        int lit = (int)lits[k];
        if ((uint)(lit > 0 ? lit : -lit) == u) return true;
    }
    return false;
}

// Change of the unsatisfied count over the clauses of variable `var` (occurrence lists of var and
// -var), leaving out clauses that hold `skip` (already counted).
inline int sat_var_delta(uint var, uint u, uint v, uint skip, __global const uint *occ_off,
                         __global const uint *occ, __global const uint *counts,
                         __global const uint *offsets, __global const SAT_LIT *lits,
                         __global const uint *x)
{
    int delta = 0;
    for (uint k = occ_off[2 * (var - 1)]; k < occ_off[2 * var]; ++k) {
        uint c = occ[k];
        // a literal written twice lists its clause twice, next to each other
        if (k > occ_off[2 * (var - 1)] && occ[k - 1] == c) continue;
        if (skip && sat_clause_has(c, offsets, lits, skip)) continue;
        int before = counts[c] == 0u;
        int after = (int)counts[c] + sat_clause_change(c, offsets, lits, x, u, v) == 0;
        delta += after - before;
    }
    return delta;
}

__kernel void sat_hc12_eval(__global const uint *offsets, __global const SAT_LIT *lits,
                            __global const uint *occ_off, __global const uint *occ,
                            __global const uint *x, __global const uint *counts, uint unsat,
                            __global const uint *until, uint iteration, long best,
                            HC12_SELECT_ARGS)
{
    uint row = get_global_id(0);
    bool valid = row < HC_ROWS;
    FT f = FT_WORST;
    uint bits[3], mp[3], mm[3];
    int h = 0;
    if (valid) {
        h = hc12_row_bits(row, bits);
        for (int t = 0; t < h; ++t) {
            mp[t] = bits[t] >> 5;
            mm[t] = 1u << (bits[t] & 31u);
        }
        uint u = h > 0 ? bits[0] + 1 : 0u, v = h > 1 ? bits[1] + 1 : 0u;
        int delta = 0;
        if (u) delta += sat_var_delta(u, u, v, 0u, occ_off, occ, counts, offsets, lits, x);
        if (v) delta += sat_var_delta(v, u, v, u, occ_off, occ, counts, offsets, lits, x);
        f = (FT)unsat + (FT)delta;
        // variable tenure (tabu search for SAT): a variable flipped recently stays put until
        // until[var - 1], unless the move beats the best count of the run (aspiration)
        bool held = (u && until[u - 1] > iteration) || (v && until[v - 1] > iteration);
        if (held && !(f < best)) f = FT_WORST;
    }
    hc12_select(valid, row, f, x, h, mp, mm, tabu_x, tabu_idx, tabu_meta, tabu_check, aspiration,
                best_bits, group_best, lf, lr);
}
#endif
