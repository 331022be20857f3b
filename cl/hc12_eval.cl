// hc12_eval.cl: one iteration of the general HC12 solver (thesis 000, 5.1.2).
// It follows the objective's source in the program (a catalogue function of functions.cl or a
// user's code defining `objective`), and tabu.cl / hc12.cl.
//
// Row r's string is K with the flips of mask row r. Only the matrix the objective reads is made,
// column-wise (component j of row r at [j * HC_ROWS + r], the objective contract's stride):
//   HC_DOMAIN 0: B, the strings themselves (uint words);
//   HC_DOMAIN 1: I, the decoded integers (Gray decoding when HC_GRAY);
//   HC_DOMAIN 2: R, the reals a + I * (b - a) / (2^bits - 1).
// B and I objectives implement the integer twin of the contract:
//   FP objective_u(__global const uint *v, uint dims, uint stride, __global const void *data).
// With HC_EXTERNAL_F the values come from the host (a host callback filled them) instead.
//
// Build-time macros: HC_ROWS, HC_NPARAM, HC_DOMAIN, HC_GRAY, HC_MAX (maximise), HC_EXTERNAL_F,
// those of hc12.cl (HC_BITLEN, HC_START, HC_ORDER) and tabu.cl, and FT_KIND (3 float, 4 double),
// so that FT is FP.

// The flips of mask row `row` as (parameter, value-bit mask) pairs, from the host's bit tables.
inline int hc12g_row_flips(ulong row, __global const uint *bit_param, __global const uint *bit_mask,
                           uint mp[3], uint mm[3])
{
    uint bits[3];
    int h = hc12_row_bits(row, bits);
    for (int t = 0; t < h; ++t) {
        mp[t] = bit_param[bits[t]];
        mm[t] = bit_mask[bits[t]];
    }
    return h;
}

// Writes row `row`'s column of the matrix the objective reads.
inline void hc12g_materialise(uint row, __global const uint *K, int h, const uint mp[3],
                              const uint mm[3], __global const FP *lo, __global const FP *step,
                              __global uint *U, __global FP *R)
{
    for (uint p = 0; p < HC_NPARAM; ++p) {
        uint w = K[p];
        for (int t = 0; t < h; ++t) {
            if (mp[t] == p) w ^= mm[t];
        }
#if HC_DOMAIN == 0
        U[p * HC_ROWS + row] = w;
#else
        uint v = HC_GRAY ? gray_to_binary(w) : w;
#if HC_DOMAIN == 1
        U[p * HC_ROWS + row] = v;
#else
        R[p * HC_ROWS + row] = lo[p] + (FP)v * step[p];
#endif
#endif
    }
}

// Only the matrix, for host callbacks (they read it back).
__kernel void hc12g_decode(__global const uint *K, __global const uint *bit_param,
                           __global const uint *bit_mask, __global const FP *lo,
                           __global const FP *step, __global uint *U, __global FP *R)
{
    uint row = get_global_id(0);
    if (row >= HC_ROWS) return;
    uint mp[3], mm[3];
    int h = hc12g_row_flips(row, bit_param, bit_mask, mp, mm);
    hc12g_materialise(row, K, h, mp, mm, lo, step, U, R);
}

// The row's value (-f when maximising), then hc12_select (cl/hc12.cl).
__kernel void hc12g_eval(__global const uint *K, __global const uint *bit_param,
                         __global const uint *bit_mask, __global const FP *lo,
                         __global const FP *step, __global uint *U, __global FP *R,
                         __global const void *data, __global FP *F, uint store_f,
                         HC12_SELECT_ARGS)
{
    uint row = get_global_id(0);
    bool valid = row < HC_ROWS;
    FT key = FT_WORST;
    uint mp[3], mm[3];
    int h = 0;
    if (valid) {
        h = hc12g_row_flips(row, bit_param, bit_mask, mp, mm);
#if HC_EXTERNAL_F
        FP f = F[row];
#else
        hc12g_materialise(row, K, h, mp, mm, lo, step, U, R);
#if HC_DOMAIN == 2
        FP f = objective(R + row, HC_NPARAM, HC_ROWS, data);
#else
        FP f = objective_u(U + row, HC_NPARAM, HC_ROWS, data);
#endif
        if (store_f) F[row] = f;
#endif
        key = HC_MAX ? -f : f;
        // a non-finite value never wins (docs/ARCHITECTURE.md, Reliability): NaN compares false
        // both ways and +-inf is no value of the function, so each is made the worst
        if (!isfinite(key)) key = FT_WORST;
    }
    hc12_select(valid, row, key, K, h, mp, mm, tabu_x, tabu_idx, tabu_meta, tabu_check,
                aspiration, best_bits, group_best, lf, lr);
}
