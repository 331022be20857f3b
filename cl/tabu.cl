// tabu.cl: the tabu list of HC12 kept in device memory (thesis 000, 5.1.1, Algorithms 1 and 2;
// host side and twin: src/hc12/tabu.rs).
//
// X[slot * TABU_NW + j]: stored strings (TABU_NW words each) in insertion slots, unsorted.
// idx[0..m): slot numbers in lexicographic order of the strings (word 0 first).
// meta[0] = m (entries), meta[1] = inserts so far (slot of the next insert = meta[1] % TABU_LEN).
// pos: scratch written by tabu_prepare and read by tabu_update (see there).
//
// A candidate string is given as a base string plus up to three flipped bits: word j of the
// candidate is base[j] ^ (the masks of the flips in word j), so a work-item searches for its own
// row's string without building it.
//
// Build-time macros: TABU_NW (words per string), TABU_LEN (capacity).

typedef struct {
    __global const uint *base;
    uint h;
    uint mp[3];
    uint mm[3];
} tabu_cand;

inline uint tabu_word(const tabu_cand *c, uint j)
{
    uint w = c->base[j];
    for (uint t = 0; t < c->h; ++t) {
        if (c->mp[t] == j) w ^= c->mm[t];
    }
    return w;
}

// Algorithm 2: column-wise binary search. [a, b) is the run of rows equal to the candidate on
// the columns before j; in column j it narrows to the rows equal to word j (two bisections bound
// the run, where the thesis scans to its ends). Returns the position in idx of the equal string,
// or -1 with *p the position where it would be inserted.
inline int tabu_find(__global const uint *X, __global const uint *idx, uint m, const tabu_cand *c,
                     uint *p)
{
    uint a = 0, b = m;
    for (uint j = 0; j < TABU_NW; ++j) {
        uint v = tabu_word(c, j);
        uint lo = a, hi = b;
        while (lo < hi) {
            uint mid = lo + (hi - lo) / 2;
            if (X[idx[mid] * TABU_NW + j] < v) lo = mid + 1; else hi = mid;
        }
        uint lo2 = lo, hi2 = b;
        while (lo2 < hi2) {
            uint mid = lo2 + (hi2 - lo2) / 2;
            if (X[idx[mid] * TABU_NW + j] <= v) lo2 = mid + 1; else hi2 = mid;
        }
        a = lo;
        b = lo2;
        if (a == b) {
            *p = a;
            return -1;
        }
    }
    *p = a;
    return (int)a;
}

// Whether the string `base` with the flips (h, mp, mm) of a mask row is on the list: the test
// every evaluation kernel makes for its own row.
inline bool tabu_listed(__global const uint *X, __global const uint *idx, __global const uint *meta,
                        __global const uint *base, int h, const uint mp[3], const uint mm[3])
{
    tabu_cand c;
    c.base = base;
    c.h = (uint)h;
    for (int t = 0; t < 3; ++t) {
        c.mp[t] = t < h ? mp[t] : 0u;
        c.mm[t] = t < h ? mm[t] : 0u;
    }
    uint p;
    return tabu_find(X, idx, meta[0], &c, &p) >= 0;
}

// First half of Algorithm 1 for the string v (one work-item): where v goes and, when the list is
// full, which entry leaves (FIFO: the one in the slot the new string takes).
// pos[0] = 1 when v is already listed (nothing to do), pos[1] = insert position in the index after
// the eviction, pos[2] = slot, pos[3] = position of the evicted entry (or TABU_LEN when none),
// pos[4] = entries after the eviction.
__kernel void tabu_prepare(__global const uint *X, __global const uint *idx,
                           __global const uint *meta, __global const uint *v, uint v_offset,
                           __global uint *pos)
{
    if (get_global_id(0) != 0) return;
    uint m = meta[0];
    tabu_cand c;
    c.base = v + v_offset;
    c.h = 0;
    uint p;
    if (tabu_find(X, idx, m, &c, &p) >= 0) {
        pos[0] = 1;
        pos[4] = m;
        return;
    }
    uint slot = meta[1] % TABU_LEN;
    uint q = TABU_LEN;
    if (m == TABU_LEN) {
        tabu_cand old;
        old.base = X + slot * TABU_NW;
        old.h = 0;
        uint pq;
        q = (uint)tabu_find(X, idx, m, &old, &pq);
        if (q < p) --p;
        --m;
    }
    pos[0] = 0;
    pos[1] = p;
    pos[2] = slot;
    pos[3] = q;
    pos[4] = m;
}

// Second half of Algorithm 1, one work-item per index entry (TABU_LEN + 1 of them): idx_out is
// idx_in without the evicted entry and with the new slot at its position; the string is written
// into its slot. The host then swaps idx_in and idx_out (ping-pong).
__kernel void tabu_update(__global uint *X, __global const uint *idx_in, __global uint *idx_out,
                          __global uint *meta, __global const uint *v, uint v_offset,
                          __global const uint *pos)
{
    uint i = get_global_id(0);
    uint m = pos[4];
    if (pos[0]) {
        if (i < m) idx_out[i] = idx_in[i];
        return;
    }
    uint p = pos[1], slot = pos[2], q = pos[3];
    if (i <= m) {
        uint out;
        if (i == p) {
            out = slot;
        } else {
            uint r = i < p ? i : i - 1;     // position among the kept entries
            out = idx_in[r < q ? r : r + 1];
        }
        idx_out[i] = out;
    }
    if (i < TABU_NW) X[slot * TABU_NW + i] = v[v_offset + i];
    if (i == 0) {
        meta[0] = m + 1;
        meta[1] += 1;
    }
}

// Finds many strings at once (for tests and for callers that hold candidates in memory):
// f[q] = position or -1, p[q] = insert position.
__kernel void tabu_find_many(__global const uint *X, __global const uint *idx,
                             __global const uint *meta, __global const uint *queries, uint count,
                             __global int *f, __global uint *p)
{
    uint q = get_global_id(0);
    if (q >= count) return;
    tabu_cand c;
    c.base = queries + q * TABU_NW;
    c.h = 0;
    uint pq;
    f[q] = tabu_find(X, idx, meta[0], &c, &pq);
    p[q] = pq;
}
