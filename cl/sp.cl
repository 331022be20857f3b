// Exact shortest paths (docs/specs/SP.md, "Exact solvers"; design of /work/shared/docs/ACO.md).
// One source for every weight type: SP_KIND picks the types (0: uint weights, 1: ulong weights,
// both with ulong distances; 2: float weights and distances; 3: double). Distances live in
// buffers as their bit patterns (BITS_T): non-negative numbers order like their bits, so one
// integer atomic minimum serves every kind and comparisons are made on bits.
// Distances of several sources are rows of one k x n array: flat index s * n + v.

#if SP_ATOM64
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#endif

#if SP_KIND == 0 || SP_KIND == 1
#if SP_KIND == 0
typedef uint W_T;
#else
typedef ulong W_T;
#endif
typedef ulong D_T;
typedef ulong BITS_T;
#define D_OF(b) (b)
#define B_OF(d) (d)
#define B_INF ULONG_MAX
#elif SP_KIND == 2
typedef float W_T;
typedef float D_T;
typedef uint BITS_T;
#define D_OF(b) as_float(b)
#define B_OF(d) as_uint(d)
#define B_INF 0x7f800000u
#else
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double W_T;
typedef double D_T;
typedef ulong BITS_T;
#define D_OF(b) as_double(b)
#define B_OF(d) as_ulong(d)
#define B_INF 0x7ff0000000000000ul
#endif

// Atomic minimum and atomic read of a distance (signed minimum is right: every value is >= 0
// as a signed number too, +inf included; the integer sentinel ULONG_MAX is the one exception and
// unsigned atom_min is used there).
#if SP_KIND == 2
#define AMIN(p, b) ((BITS_T)atomic_min((volatile __global int *)(p), (int)(b)))
#define ALOAD(p) ((BITS_T)atomic_or((volatile __global int *)(p), 0))
#elif SP_ATOM64
#if SP_KIND == 3
#define AMIN(p, b) ((BITS_T)atom_min((volatile __global long *)(p), (long)(b)))
#else
#define AMIN(p, b) atom_min((volatile __global ulong *)(p), (b))
#endif
#define ALOAD(p) atom_or((volatile __global ulong *)(p), 0ul)
#endif

// a relaxation's candidate: the tail's distance (finite) plus the arc's weight, as bits
inline BITS_T sp_add(BITS_T du, W_T w) {
    return B_OF(D_OF(du) + (D_T)w);
}

// Distances of k sources: 0 at the source, infinity elsewhere; the queue stamps cleared.
__kernel void sp_init(__global BITS_T *dist, __global uint *stamp, __global uint *fstamp,
                      __global const uint *sources, uint n, ulong total, uint clear_stamps) {
    ulong i = get_global_id(0);
    if (i >= total) return;
    ulong s = i / n;
    uint v = (uint)(i - s * n);
    dist[i] = v == sources[s] ? B_OF((D_T)0) : B_INF;
    if (clear_stamps) {
        stamp[i] = 0;
        fstamp[i] = 0;
    }
}

// Bellman-Ford by pull over the reverse graph, one round (Jacobi: reads `old`, writes `now`, so
// no work-item reads what another writes). Work-item (v, s): dimension 0 the vertex, dimension 1
// the source. A round that lowers a distance stores its number in *changed (every writer stores
// the same value: a benign race), so the host learns whether the last of several rounds changed
// anything with one read.
__kernel void sp_pull(__global const ulong *roff, __global const uint *rsrc, __global const W_T *rw,
                      __global const BITS_T *old, __global BITS_T *now, uint n, uint round,
                      __global uint *changed) {
    uint v = get_global_id(0);
    if (v >= n) return;
    ulong base = (ulong)get_global_id(1) * n;
    BITS_T cur = old[base + v];
    BITS_T best = cur;
    for (ulong e = roff[v]; e < roff[v + 1]; e++) {
        BITS_T du = old[base + rsrc[e]];
        if (du != B_INF) {
            BITS_T c = sp_add(du, rw[e]);
            best = c < best ? c : best;
        }
    }
    now[base + v] = best;
    if (best < cur) *changed = round;
}

// Predecessors after convergence: the smallest u with dist[u] + w(u, v) == dist[v] (the reverse
// rows are sorted by tail); 0xffffffff for the source and unreachable vertices.
__kernel void sp_pred(__global const ulong *roff, __global const uint *rsrc, __global const W_T *rw,
                      __global const BITS_T *dist, __global uint *pred, __global const uint *sources,
                      uint n) {
    uint v = get_global_id(0);
    if (v >= n) return;
    uint s = get_global_id(1);
    ulong base = (ulong)s * n;
    BITS_T dv = dist[base + v];
    uint p = 0xffffffffu;
    if (v != sources[s] && dv != B_INF) {
        for (ulong e = roff[v]; e < roff[v + 1]; e++) {
            BITS_T du = dist[base + rsrc[e]];
            if (du != B_INF && sp_add(du, rw[e]) == dv) {
                p = rsrc[e];
                break;
            }
        }
    }
    pred[base + v] = p;
}

#ifdef AMIN
// Counters (cnt): [0..3) near-queue lengths, rotating by round (round r reads cnt[r % 3], appends
// to cnt[(r + 1) % 3] and clears cnt[(r + 2) % 3], which nobody uses in round r); [3], [4] the
// lengths of the two far piles; [5] the far pile in use; [6] the split epoch; [7] split now.
// thr: [0] the near threshold (bits; +inf for the plain frontier), [1] the previous one, [2] the
// least distance recorded when an entry joined (or stayed in) the far pile since the last split:
// entries' distances only fall, so the next threshold thr[2] + delta moves at least one entry,
// and a gap in the distances costs one split, not gap / delta rounds.

// One round of the frontier (and of near-far): every queued (source, vertex) pushes over its
// out-arcs with an atomic minimum; a target whose distance fell joins the next queue once (the
// stamp holds the round it was queued for) when below the threshold, else the far pile once per
// epoch. A fixed grid loops over the queue, whose length is read on the device: no host read.
// Appends to the next queue gather in local memory (`lq`, `lcap` entries) and each group takes
// its slots with one global atomic per pass (a full local buffer spills to the global counter
// directly), so the queue's counter is not hit once per vertex. The loop runs the same number
// of passes in every work-item of a group (its barriers need that).
__kernel void sp_push(__global const ulong *off, __global const uint *tgt, __global const W_T *w,
                      __global BITS_T *dist, __global ulong *qa, __global ulong *qb,
                      __global ulong *far0, __global ulong *far1, __global uint *cnt,
                      __global uint *stamp, __global uint *fstamp, __global BITS_T *thr,
                      uint n, uint round, __local ulong *lq, uint lcap) {
    __local uint lc;
    __local uint gbase;
    __global ulong *qin = (round & 1) ? qb : qa;
    __global ulong *qout = (round & 1) ? qa : qb;
    __global uint *next = &cnt[(round + 1) % 3];
    uint len = cnt[round % 3];
    if (get_global_id(0) == 0) cnt[(round + 2) % 3] = 0;
    BITS_T t = thr[0];
    uint fi = cnt[5];
    __global ulong *far = fi ? far1 : far0;
    uint epoch = cnt[6] + 1;
    uint lid = get_local_id(0), lsz = get_local_size(0);
    if (lid == 0) lc = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint start = get_group_id(0) * lsz; start < len; start += get_global_size(0)) {
        uint i = start + lid;
        if (i < len) {
            ulong x = qin[i];
            // one source (every entry < n): no 64-bit division
            ulong base = x < n ? 0 : x / n * n;
            uint u = (uint)(x - base);
            BITS_T du = ALOAD(&dist[x]);
            for (ulong e = off[u]; e < off[u + 1]; e++) {
                ulong y = base + tgt[e];
                BITS_T c = sp_add(du, w[e]);
                BITS_T was = AMIN(&dist[y], c);
                if (c < was) {
                    if (c < t) {
                        if (atomic_xchg(&stamp[y], round + 1) != round + 1) {
                            uint slot = atomic_inc(&lc);
                            if (slot < lcap) lq[slot] = y;
                            else qout[atomic_inc(next)] = y;
                        }
                    } else {
                        AMIN(&thr[2], c);
                        if (atomic_xchg(&fstamp[y], epoch) != epoch) far[atomic_inc(&cnt[3 + fi])] = y;
                    }
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        uint have = min(lc, lcap);
        if (lid == 0 && have) gbase = atomic_add(next, have);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint j = lid; j < have; j += lsz) qout[gbase + j] = lq[j];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) lc = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

// Near-far: one work-item decides whether round `round` left the near queue empty with a far
// pile waiting; then the threshold becomes the least recorded far distance plus delta (at least
// the old threshold plus delta), the other pile is cleared and becomes the
// one in use, and the epoch advances. The decision is stored for sp_split (a kernel cannot
// publish a decision to its own other groups).
__kernel void sp_split_begin(__global uint *cnt, __global BITS_T *thr, D_T delta, uint round) {
    uint fi = cnt[5];
    uint go = cnt[(round + 1) % 3] == 0 && cnt[3 + fi] != 0;
    cnt[7] = go;
    if (go) {
        BITS_T lo = thr[2] > thr[0] ? thr[2] : thr[0];
        thr[1] = thr[0];
        thr[0] = B_OF(D_OF(lo) + delta);
        thr[2] = B_INF;
        cnt[3 + (1 - fi)] = 0;
        cnt[5] = 1 - fi;
        cnt[6] += 1;
    }
}

// Near-far: the old far pile is split: entries below the old threshold were settled (dropped),
// those below the new one join the next near queue, the rest the new far pile.
__kernel void sp_split(__global BITS_T *dist, __global ulong *qa, __global ulong *qb,
                       __global ulong *far0, __global ulong *far1, __global uint *cnt,
                       __global uint *stamp, __global uint *fstamp, __global BITS_T *thr,
                       uint round) {
    if (cnt[7] == 0) return;
    __global ulong *qout = (round & 1) ? qa : qb;
    uint fi = cnt[5];
    __global ulong *src = fi ? far0 : far1;
    __global ulong *dst = fi ? far1 : far0;
    uint len = cnt[3 + (1 - fi)];
    uint epoch = cnt[6] + 1;
    BITS_T t = thr[0], before = thr[1];
    for (uint i = get_global_id(0); i < len; i += get_global_size(0)) {
        ulong y = src[i];
        BITS_T d = ALOAD(&dist[y]);
        if (d < before) continue;
        if (d < t) {
            if (atomic_xchg(&stamp[y], round + 1) != round + 1) qout[atomic_inc(&cnt[(round + 1) % 3])] = y;
        } else {
            AMIN(&thr[2], d);
            if (atomic_xchg(&fstamp[y], epoch) != epoch) dst[atomic_inc(&cnt[3 + fi])] = y;
        }
    }
}
#endif

// One work-group per source, the whole search in local memory (docs/specs/SP.md, "Local"):
// SP_LOCAL 1 keeps distances as 32-bit bits in local memory (f32 weights, or u32 weights whose
// max_weight * n < 2^32 - 1, checked on the host, so no candidate overflows), SP_LOCAL 2 as
// 64-bit bits (needs 64-bit local atomics). A bitmap marks the vertices whose distance fell in
// the last round; a round relaxes their out-arcs with a local atomic minimum and marks the
// targets that fell in the other bitmap; work-group barriers separate rounds (no host), until a
// round changes nothing. Then the canonical predecessors (smallest u with dist[u] + w == dist[v]
// over the reverse rows, sorted by tail) from the local distances, and both rows go out.
#if SP_LOCAL == 1
typedef uint LB_T;
#if SP_KIND == 2
#define L_INF 0x7f800000u
#define LADD(du, w) as_uint(as_float(du) + (w))
#define L_OUT(x) (x)
#else
#define L_INF 0xffffffffu
#define LADD(du, w) ((du) + (uint)(w))
#define L_OUT(x) ((x) == L_INF ? ULONG_MAX : (ulong)(x))
#endif
#define LAMIN(p, b) atomic_min((volatile __local uint *)(p), (b))
#define LLOAD(p) (*(volatile __local uint *)(p))
#define LPEEK(p) (*(volatile __local uint *)(p))
#elif SP_LOCAL == 2
typedef ulong LB_T;
#define L_INF B_INF
#define LADD(du, w) sp_add((du), (w))
#define L_OUT(x) (x)
#define LAMIN(p, b) atom_min((volatile __local ulong *)(p), (b))
#define LLOAD(p) atom_add((volatile __local ulong *)(p), 0ul)
// a 64-bit read may tear: no unlocked peek, every candidate takes the atomic
#define LPEEK(p) L_INF
#endif

#ifdef L_INF
// rounds: [0] the most rounds of any group (atomic maximum), [1] set when a group had not
// converged after max_rounds rounds.
__kernel void sp_local(__global const ulong *off, __global const uint *tgt, __global const W_T *w,
                       __global const ulong *roff, __global const uint *rsrc, __global const W_T *rw,
                       __global BITS_T *dist, __global uint *pred, __global const uint *sources,
                       uint n, uint max_rounds, __global uint *rounds, __local LB_T *ld,
                       __local uint *bits) {
    __local uint flag;
    uint lid = get_local_id(0), lsz = get_local_size(0);
    uint row = get_group_id(0);
    uint src = sources[row];
    uint nw = (n + 31) >> 5;
    __local uint *cu = bits;
    __local uint *nx = bits + nw;
    for (uint v = lid; v < n; v += lsz) ld[v] = v == src ? (LB_T)0 : L_INF;
    for (uint i = lid; i < 2 * nw; i += lsz) bits[i] = 0;
    if (lid == 0) flag = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) cu[src >> 5] = 1u << (src & 31);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint r = 0;
    uint done = 0;
    while (r < max_rounds) {
        r++;
        for (uint v = lid; v < n; v += lsz) {
            if (((cu[v >> 5] >> (v & 31)) & 1u) == 0) continue;
            LB_T du = LLOAD(&ld[v]);
            for (ulong e = off[v]; e < off[v + 1]; e++) {
                uint t = tgt[e];
                LB_T c = LADD(du, w[e]);
                if (c < LPEEK(&ld[t]) && c < LAMIN(&ld[t], c)) {
                    atomic_or(&nx[t >> 5], 1u << (t & 31));
                    flag = r;
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        uint f = flag;
        for (uint i = lid; i < nw; i += lsz) cu[i] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        __local uint *tmp = cu;
        cu = nx;
        nx = tmp;
        if (f != r) {
            done = 1;
            break;
        }
    }
    ulong base = (ulong)row * n;
    for (uint v = lid; v < n; v += lsz) {
        LB_T dv = ld[v];
        uint p = 0xffffffffu;
        if (v != src && dv != L_INF) {
            for (ulong e = roff[v]; e < roff[v + 1]; e++) {
                LB_T du = ld[rsrc[e]];
                if (du != L_INF && LADD(du, rw[e]) == dv) {
                    p = rsrc[e];
                    break;
                }
            }
        }
        pred[base + v] = p;
        dist[base + v] = L_OUT(dv);
    }
    if (lid == 0) {
        atomic_max(&rounds[0], r);
        if (!done) rounds[1] = 1;
    }
}
#endif

// The Lee wave on a grid (thesis, corrected: obstacles, +1 per step, parity of x + y, bounds):
// cells of one colour of the checkerboard take the minimum of their open neighbours plus one;
// their neighbours all have the other colour, so the update in place is race-free.
__kernel void sp_lee(__global const uchar *blocked, __global uint *dist, uint width, uint height,
                     uint parity, uint round, __global uint *changed) {
    uint x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height || ((x + y) & 1) != parity) return;
    ulong c = (ulong)y * width + x;
    if (blocked[c]) return;
    uint best = dist[c];
    uint cand = 0xffffffffu;
    if (y > 0 && !blocked[c - width]) cand = min(cand, dist[c - width]);
    if (x > 0 && !blocked[c - 1]) cand = min(cand, dist[c - 1]);
    if (x + 1 < width && !blocked[c + 1]) cand = min(cand, dist[c + 1]);
    if (y + 1 < height && !blocked[c + width]) cand = min(cand, dist[c + width]);
    if (cand != 0xffffffffu && cand + 1 < best) {
        dist[c] = cand + 1;
        *changed = round;
    }
}
