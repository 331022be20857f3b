// hc12.cl: the HC12 neighbourhood (thesis 000, section 2.2) and the row selection every
// evaluation kernel ends with (hc12_select), with the second pass of its argmin.
// Row r of the mask matrix M = [M0; M1; M2; M3] is never stored: its set bits follow from r.
// Row order: M0 (row 0), M1 by bit index, M2 by (i, j), i < j, lexicographically, M3 likewise.
// Bits are counted inside the window [HC_START, HC_START + HC_BITLEN) of the string.
//
// Build-time macros: HC_BITLEN, HC_START, HC_ORDER (1..3), HC_NBIT (bits per parameter).
// A program that evaluates rows puts tabu.cl before this file: hc12_select searches the list.
// String bit b belongs to parameter b / HC_NBIT, and within it to value bit
// HC_NBIT - 1 - b % HC_NBIT (each parameter is written most significant bit first).

// C(n, 2) and C(n, 3) as ulong.
inline ulong hc12_c2(ulong n) { return n < 2 ? 0 : n * (n - 1) / 2; }
inline ulong hc12_c3(ulong n) { return n < 3 ? 0 : n * (n - 1) * (n - 2) / 6; }

// Pair number t (0-based, lexicographic) of the pairs i < j drawn from {0..n-1}.
inline void hc12_unrank_pair(ulong t, uint n, uint *i, uint *j)
{
    // pairs whose first index is below i: S(i) = i*n - i*(i+1)/2; take the largest i with S(i) <= t
    float b = 2.0f * (float)n - 1.0f;
    float disc = b * b - 8.0f * (float)t;
    int ii = (int)floor((b - sqrt(fmax(disc, 0.0f))) * 0.5f);
    if (ii < 0) ii = 0;
    if (ii > (int)n - 2) ii = (int)n - 2;
    // float rounding may leave ii one off either way
    while (ii > 0 && (ulong)ii * n - (ulong)ii * (ii + 1) / 2 > t) --ii;
    while ((ulong)(ii + 1) * n - (ulong)(ii + 1) * (ii + 2) / 2 <= t) ++ii;
    *i = (uint)ii;
    *j = (uint)(t - ((ulong)ii * n - (ulong)ii * (ii + 1) / 2)) + (uint)ii + 1u;
}

// The set bits of mask row `row` (string bit indices); returns how many (0..3).
inline int hc12_row_bits(ulong row, uint bits[3])
{
    if (row == 0) return 0;
    ulong t = row - 1;
    const ulong n = HC_BITLEN;
    if (t < n) {
        bits[0] = HC_START + (uint)t;
        return 1;
    }
    t -= n;
    if (HC_ORDER >= 2 && t < hc12_c2(n)) {
        uint i, j;
        hc12_unrank_pair(t, (uint)n, &i, &j);
        bits[0] = HC_START + i;
        bits[1] = HC_START + j;
        return 2;
    }
    t -= hc12_c2(n);
    // M3: the first index is found by walking the counts C(n-1-i, 2); M3 is only practical for
    // short windows, so the walk stays short
    uint i = 0;
    while (t >= hc12_c2(n - 1 - i)) {
        t -= hc12_c2(n - 1 - i);
        ++i;
    }
    uint j, k;
    hc12_unrank_pair(t, (uint)(n - 1 - i), &j, &k);
    bits[0] = HC_START + i;
    bits[1] = HC_START + i + 1 + j;
    bits[2] = HC_START + i + 1 + k;
    return 3;
}

// Parameter and value-bit mask of string bit b.
inline uint hc12_bit_param(uint b) { return b / HC_NBIT; }
inline uint hc12_bit_mask(uint b) { return 1u << (HC_NBIT - 1 - b % HC_NBIT); }

// Work-group argmin of (f, row) in local memory, ties to the lower row; the result is in
// lf[0], lr[0] for every work-item after the call. FT and FT_LESS come from the including program.
#define HC12_WG_ARGMIN(FT, FT_LESS, f, row, lf, lr)                                   \
    do {                                                                            \
        uint lid_ = get_local_id(0), lsz_ = get_local_size(0);                      \
        lf[lid_] = (f);                                                             \
        lr[lid_] = (row);                                                           \
        barrier(CLK_LOCAL_MEM_FENCE);                                               \
        for (uint s_ = lsz_ / 2; s_ > 0; s_ >>= 1) {                                \
            if (lid_ < s_) {                                                        \
                FT fo_ = lf[lid_ + s_];                                             \
                uint ro_ = lr[lid_ + s_];                                           \
                if (FT_LESS(fo_, lf[lid_]) ||                                       \
                    (!FT_LESS(lf[lid_], fo_) && ro_ < lr[lid_])) {                  \
                    lf[lid_] = fo_;                                                 \
                    lr[lid_] = ro_;                                                 \
                }                                                                   \
            }                                                                       \
            barrier(CLK_LOCAL_MEM_FENCE);                                           \
        }                                                                           \
    } while (0)

#if defined(FT_KIND) && defined(TABU_NW)
// The arguments every evaluation kernel ends with, in this order (src/hc12/rows.rs sets them):
// the tabu list (tabu.cl), whether to consult it, aspiration and the bits of the value to beat,
// the per-group winners, and local arrays of one FT and one uint per work-item.
#define HC12_SELECT_ARGS                                                                   \
    __global const uint *tabu_x, __global const uint *tabu_idx,                           \
        __global const uint *tabu_meta, uint tabu_check, uint aspiration, ulong best_bits,  \
        __global ulong *group_best, __local FT *lf, __local uint *lr

// The end of every HC12 evaluation kernel (qap_eval, hc12g_eval, sat_hc12_eval), defined once:
// the row's value f (in the selection's order: lower wins) goes through the tabu check (a row
// whose string, K with the flips (h, mp, mm), is listed gets the worst value, unless aspiration
// is set and f beats the best value ever seen, best_bits), then the work-group argmin (ties to
// the lower row), whose winner work-item 0 writes to group_best[2 g] (value bits) and
// group_best[2 g + 1] (row) for hc12_argmin_groups. Work-items past the last row pass
// valid = false and take part with the worst value. Every work-item of the group must call it.
inline void hc12_select(bool valid, ulong row, FT f, __global const uint *K, int h,
                        const uint mp[3], const uint mm[3], HC12_SELECT_ARGS)
{
    uint r = 0xFFFFFFFFu;
    if (valid) {
        if (tabu_check && tabu_listed(tabu_x, tabu_idx, tabu_meta, K, h, mp, mm) &&
            !(aspiration && FT_LESS(f, FT_FROM_BITS(best_bits))))
            f = FT_WORST;
        r = (uint)row;
    } else {
        f = FT_WORST;
    }
    HC12_WG_ARGMIN(FT, FT_LESS, f, r, lf, lr);
    // the group's index over the whole neighbourhood: a search may come in several launches
    // with a global offset (src/hc12/rows.rs), which get_group_id would not count
    size_t g = get_global_id(0) / get_local_size(0);
    if (get_local_id(0) == 0) {
        group_best[2 * g] = FT_TO_BITS(lf[0]);
        group_best[2 * g + 1] = (ulong)lr[0];
    }
}
#endif

#ifdef FT_KIND
// Second pass of the argmin: one work-group reduces the per-group winners (f bits, row) written
// by an evaluation kernel into out[0] (f bits) and out[1] (row).
__kernel void hc12_argmin_groups(__global const ulong *group_best, uint groups,
                                 __global ulong *out, __local FT *lf, __local uint *lr)
{
    FT f = FT_WORST;
    uint r = 0xFFFFFFFFu;
    for (uint g = get_local_id(0); g < groups; g += get_local_size(0)) {
        FT fo = FT_FROM_BITS(group_best[2 * g]);
        uint ro = (uint)group_best[2 * g + 1];
        if (FT_LESS(fo, f) || (!FT_LESS(f, fo) && ro < r)) {
            f = fo;
            r = ro;
        }
    }
    HC12_WG_ARGMIN(FT, FT_LESS, f, r, lf, lr);
    if (get_local_id(0) == 0) {
        out[0] = FT_TO_BITS(lf[0]);
        out[1] = (ulong)lr[0];
    }
}
#endif
