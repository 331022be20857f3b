// qap.cl: HC12 over the qapswap2 encoding of the QAP (thesis 000, 5.3.2).
// A row's permutation is the base permutation with the row's swap list applied, built in private
// memory; its cost is the full O(n^2) sum (QAP_DELTA = 0, the thesis's form and the reference)
// or the current cost plus the change over the at most 4 * HC_ORDER positions where the row's
// permutation differs from the current one (QAP_DELTA = 1).
//
// Build-time macros: QAP_TYPE (1 int32, 2 int64, 3 uint32, 4 uint64, 5 float32, 6 float64),
// QAP_N, QAP_SLICES, QAP_SWAPS, QAP_ROWS, QAP_DELTA, plus those of hc12.cl and FT_KIND.
// cost(p) = sum_s sum_{i,j} A_s[i][j] * B_s[p[i]][p[j]].

#pragma OPENCL FP_CONTRACT OFF

#if QAP_TYPE <= 4
// integer sums wrap in 64 bits (unsigned arithmetic, so overflow is defined): the full and the
// delta form then agree exactly, as does the host.
typedef ulong ACC;
#if QAP_TYPE == 1 || QAP_TYPE == 2
#define MUL(a, b) ((ulong)(long)(a) * (ulong)(long)(b))
#define ACC_TO_FT(acc) as_long(acc)
#define ADD_DELTA(cur, acc) as_long(as_ulong(cur) + (acc))
#else
#define MUL(a, b) ((ulong)(a) * (ulong)(b))
#define ACC_TO_FT(acc) (acc)
#define ADD_DELTA(cur, acc) ((cur) + (acc))
#endif
#else
typedef FT ACC;
#define MUL(a, b) ((a) * (b))
#define ACC_TO_FT(acc) (acc)
#define ADD_DELTA(cur, acc) ((cur) + (acc))
#endif

#define QAP_NP (2 * QAP_SWAPS)
// layout of the state buffer written by the host once per iteration
#define ST_K 0
#define ST_I QAP_NP
#define ST_CUR (2 * QAP_NP)
#define ST_COST (2 * QAP_NP + QAP_N)
#define ST_BASE (2 * QAP_NP + QAP_N + 2)
#define QAP_MAXD (4 * HC_ORDER)

// The flips of mask row `row`: h of them, in parameters mp[] with value-bit masks mm[].
inline int qap_row_flips(ulong row, uint mp[3], uint mm[3])
{
    uint bits[3];
    int h = hc12_row_bits(row, bits);
    for (int t = 0; t < h; ++t) {
        mp[t] = hc12_bit_param(bits[t]);
        mm[t] = hc12_bit_mask(bits[t]);
    }
    return h;
}

// Builds the permutation of the row with flips (h, mp, mm) in `order`.
inline void qap_row_order(__global const uint *st, int h, const uint mp[3], const uint mm[3],
                          uchar order[QAP_N])
{
    for (uint e = 0; e < QAP_N; ++e) order[e] = (uchar)st[ST_BASE + e];
    for (uint k = 0; k < QAP_SWAPS; ++k) {
        uint v[2];
        for (uint q = 0; q < 2; ++q) {
            uint p = 2 * k + q;
            uint g = st[ST_K + p];
            bool changed = false;
            for (int t = 0; t < h; ++t) {
                if (mp[t] == p) {
                    g ^= mm[t];
                    changed = true;
                }
            }
            v[q] = changed ? gray_to_binary(g) : st[ST_I + p];
        }
        uint p1 = v[0] % QAP_N, p2 = v[1] % QAP_N;
        uchar tmp = order[p1];
        order[p1] = order[p2];
        order[p2] = tmp;
    }
}

inline FT qap_full_cost(__global const QT *A, __global const QT *B, const uchar order[QAP_N])
{
    ACC acc = 0;
    for (uint s = 0; s < QAP_SLICES; ++s) {
        __global const QT *As = A + (ulong)s * QAP_N * QAP_N;
        __global const QT *Bs = B + (ulong)s * QAP_N * QAP_N;
        for (uint i = 0; i < QAP_N; ++i) {
            __global const QT *arow = As + i * QAP_N;
            __global const QT *brow = Bs + order[i] * QAP_N;
            for (uint j = 0; j < QAP_N; ++j) acc += MUL(arow[j], brow[order[j]]);
        }
    }
    return ACC_TO_FT(acc);
}

inline FT qap_delta_cost(__global const QT *A, __global const QT *B, __global const uint *st,
                         const uchar order[QAP_N])
{
    __global const uint *cur = st + ST_CUR;
    FT cur_cost = FT_FROM_BITS(upsample(st[ST_COST + 1], st[ST_COST]));
    uint d[QAP_MAXD];
    uint nd = 0;
    for (uint e = 0; e < QAP_N; ++e) {
        if (order[e] != cur[e] && nd < QAP_MAXD) d[nd++] = e;
    }
    if (nd == 0) return cur_cost;
    ACC acc = 0;
    for (uint s = 0; s < QAP_SLICES; ++s) {
        __global const QT *As = A + (ulong)s * QAP_N * QAP_N;
        __global const QT *Bs = B + (ulong)s * QAP_N * QAP_N;
        for (uint a = 0; a < nd; ++a) {
            uint i = d[a];
            uint pn = order[i], po = cur[i];
            __global const QT *arow = As + i * QAP_N;
            __global const QT *bn = Bs + pn * QAP_N;
            __global const QT *bo = Bs + po * QAP_N;
            for (uint j = 0; j < QAP_N; ++j) {
                QT ar = arow[j], ac = As[j * QAP_N + i];
                acc += MUL(ar, bn[order[j]]) - MUL(ar, bo[cur[j]]);
                acc += MUL(ac, Bs[order[j] * QAP_N + pn]) - MUL(ac, Bs[cur[j] * QAP_N + po]);
            }
        }
        // pairs with both ends among the changed positions were counted twice above
        for (uint a = 0; a < nd; ++a) {
            uint i = d[a];
            for (uint b = 0; b < nd; ++b) {
                uint j = d[b];
                QT x = As[i * QAP_N + j];
                acc -= MUL(x, Bs[order[i] * QAP_N + order[j]]) - MUL(x, Bs[cur[i] * QAP_N + cur[j]]);
            }
        }
    }
    return ADD_DELTA(cur_cost, acc);
}

// One HC12 iteration's evaluation: every row's cost (into all_f when store_f is set), then
// hc12_select (cl/hc12.cl): the tabu check, the work-group argmin and the group-best write.
__kernel void qap_eval(__global const QT *A, __global const QT *B, __global const uint *st,
                       __global FT *all_f, uint store_f, HC12_SELECT_ARGS)
{
    uint row = get_global_id(0);
    bool valid = row < QAP_ROWS;
    FT f = FT_WORST;
    uint mp[3], mm[3];
    int h = 0;
    if (valid) {
        h = qap_row_flips(row, mp, mm);
        uchar order[QAP_N];
        qap_row_order(st, h, mp, mm, order);
#if QAP_DELTA
        f = qap_delta_cost(A, B, st, order);
#else
        f = qap_full_cost(A, B, order);
#endif
        if (store_f) all_f[row] = f;
    }
    hc12_select(valid, row, f, st + ST_K, h, mp, mm, tabu_x, tabu_idx, tabu_meta, tabu_check,
                aspiration, best_bits, group_best, lf, lr);
}
