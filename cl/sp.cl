// Exact shortest paths (docs/specs/SP.md, "Exact solvers"; design of docs/specs/ACO.md).
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

// Per source row and span of `span` vertices (group (g, row) of a 2-D launch): the vertices
// reached and the out-arcs of reached vertices (Gunrock's traversed edges), summed by a tree over
// the group into stats[2 * (row * spans + g)] and the next word; the host adds the spans.
// `narrow`: integer distances written as 32 bits by sp_local (unreachable 0xffffffff).
__kernel void sp_stats(__global const ulong *off, __global const BITS_T *dist, uint n, uint span,
                       uint narrow, __global ulong *stats, __local ulong *red) {
    uint lid = get_local_id(0), lsz = get_local_size(0);
    uint g = get_group_id(0), row = get_group_id(1);
    ulong base = (ulong)row * n;
    uint lo = g * span, hi = min(n, lo + span);
    ulong reached = 0, arcs = 0;
    for (uint v = lo + lid; v < hi; v += lsz) {
        if (narrow ? ((__global const uint *)dist)[base + v] != 0xffffffffu : dist[base + v] != B_INF) {
            reached++;
            arcs += off[v + 1] - off[v];
        }
    }
    red[lid] = reached;
    red[lsz + lid] = arcs;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint h = 1;
    while (h < lsz) h <<= 1;
    for (h >>= 1; h > 0; h >>= 1) {
        if (lid < h && lid + h < lsz) {
            red[lid] += red[lid + h];
            red[lsz + lid] += red[lsz + lid + h];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        ulong i = (ulong)row * get_num_groups(0) + g;
        stats[2 * i] = red[0];
        stats[2 * i + 1] = red[lsz];
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
// One round of the frontier and of near-far (delta-stepping with one near bucket and a far
// pile), one launch per round, the whole state on the device (the host only enqueues rounds and
// looks at the counters every few). Queue entries are flat indices s * n + v (k * n < 2^32).
//
// cnt (uint): [0..3) near-queue lengths rotating by round (round r reads cnt[r % 3], appends to
// cnt[(r + 1) % 3] and clears cnt[(r + 2) % 3], which nobody uses in round r); [3..6) the lengths
// of three far piles; [6 + 2p], [7 + 2p]: the pile in use and the epoch for rounds of parity p
// (round r reads slot r & 1 and writes the other, so no group reads a slot being written).
// thr (BITS_T): [2p] the near threshold for rounds of parity p (+inf: the plain frontier),
// [2p + 1] the threshold before the last split; [4 + f] the least distance appended to pile f.
//
// A round whose near queue is empty while the pile in use is not is a split: the threshold
// becomes max(least far distance, threshold) + delta (so at least one entry moves, and a gap in
// the distances costs one split, not gap / delta rounds), and the round takes the pile's entries
// itself: below the old threshold they were settled (dropped), below the new one they are relaxed
// in this round, the rest go to the next pile. Piles rotate 0, 1, 2: a split's target was the
// source of the split before last, cleared (by global work-item 0) in every round since that
// one, in which nobody else touches it.
//
// Every other round relaxes the queued entries' out-arcs with an atomic minimum; a target whose
// distance fell joins the next near queue once (the stamp holds the round it was queued for)
// when below the threshold, else the pile once per epoch. Appends gather in local memory (`lq`,
// `lf`: `lcap` entries each; a full buffer spills to the global counter) and each group takes
// its slots with one global atomic per flush; each work-item keeps the least distance it sent to
// a pile and a group reduction (`red`) makes one global minimum per group. A fixed grid loops
// over the entries, whose number it reads on the device; the loop runs the same number of passes
// in every work-item of a group (its barriers need that).
__kernel void sp_round(__global const ulong *off, __global const uint *tgt, __global const W_T *w,
                       __global BITS_T *dist, __global uint *qa, __global uint *qb,
                       __global uint *far0, __global uint *far1, __global uint *far2,
                       __global uint *cnt, __global uint *stamp, __global uint *fstamp,
                       __global BITS_T *thr, D_T delta, uint n, __local uint *lq, __local uint *lf,
                       __local BITS_T *red, uint lcap, uint round) {
    __local uint lnc, lfc, nbase, fbase;
    uint p = round & 1;
    uint lid = get_local_id(0), lsz = get_local_size(0);
    __global uint *qin = p ? qb : qa;
    __global uint *qout = p ? qa : qb;
    __global uint *next = &cnt[(round + 1) % 3];
    uint len = cnt[round % 3];
    uint fi = cnt[6 + 2 * p], epoch = cnt[7 + 2 * p];
    BITS_T t = thr[2 * p], before = thr[2 * p + 1];
    // the pile in use only grows in rounds with near entries, so with none its length is stable
    uint flen = len == 0 ? cnt[3 + fi] : 0;
    uint split = flen != 0;
    uint fo = fi;
    if (split) {
        BITS_T lo = thr[4 + fi] > t ? thr[4 + fi] : t;
        before = t;
        t = B_OF(D_OF(lo) + delta);
        fo = fi == 2 ? 0 : fi + 1;
        epoch += 1;
    }
    uint fe = epoch + 1;
    if (get_global_id(0) == 0) {
        cnt[(round + 2) % 3] = 0;
        uint spare = fi == 0 ? 2 : fi - 1;
        cnt[3 + spare] = 0;
        thr[4 + spare] = B_INF;
        cnt[6 + 2 * (1 - p)] = fo;
        cnt[7 + 2 * (1 - p)] = epoch;
        thr[2 * (1 - p)] = t;
        thr[2 * (1 - p) + 1] = before;
    }
    __global uint *src = !split ? qin : fi == 0 ? far0 : fi == 1 ? far1 : far2;
    __global uint *fout = fo == 0 ? far0 : fo == 1 ? far1 : far2;
    __global uint *fcnt = &cnt[3 + fo];
    uint count = split ? flen : len;
    uint first = get_group_id(0) * lsz;
    if (first >= count) return;  // the whole group: no barrier is skipped by part of it
    BITS_T least = B_INF;
    if (lid == 0) {
        lnc = 0;
        lfc = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint start = first; start < count; start += get_global_size(0)) {
        uint i = start + lid;
        if (i < count) {
            uint x = src[i];
            BITS_T du = ALOAD(&dist[x]);
            if (split && du < before) {
                // settled when the threshold passed it
            } else if (split && du >= t) {
                least = du < least ? du : least;
                if (atomic_xchg(&fstamp[x], fe) != fe) {
                    uint slot = atomic_inc(&lfc);
                    if (slot < lcap) lf[slot] = x;
                    else fout[atomic_inc(fcnt)] = x;
                }
            } else {
                // one source (every entry < n): no division
                uint base = x < n ? 0 : x / n * n;
                uint u = x - base;
                for (ulong e = off[u]; e < off[u + 1]; e++) {
                    uint y = base + tgt[e];
                    BITS_T c = sp_add(du, w[e]);
                    BITS_T was = AMIN(&dist[y], c);
                    if (c < was) {
                        if (c < t) {
                            if (atomic_xchg(&stamp[y], round + 1) != round + 1) {
                                uint slot = atomic_inc(&lnc);
                                if (slot < lcap) lq[slot] = y;
                                else qout[atomic_inc(next)] = y;
                            }
                        } else {
                            least = c < least ? c : least;
                            if (atomic_xchg(&fstamp[y], fe) != fe) {
                                uint slot = atomic_inc(&lfc);
                                if (slot < lcap) lf[slot] = y;
                                else fout[atomic_inc(fcnt)] = y;
                            }
                        }
                    }
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        uint hn = min(lnc, lcap), hf = min(lfc, lcap);
        if (lid == 0) {
            if (hn) nbase = atomic_add(next, hn);
            if (hf) fbase = atomic_add(fcnt, hf);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint j = lid; j < hn; j += lsz) qout[nbase + j] = lq[j];
        for (uint j = lid; j < hf; j += lsz) fout[fbase + j] = lf[j];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            lnc = 0;
            lfc = 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    // the least distance sent to the pile: a tree over the group, one global minimum
    red[lid] = least;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint h = 1;
    while (h < lsz) h <<= 1;
    for (h >>= 1; h > 0; h >>= 1) {
        if (lid < h && lid + h < lsz && red[lid + h] < red[lid]) red[lid] = red[lid + h];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0 && red[0] != B_INF) AMIN(&thr[4 + fo], red[0]);
}
#endif

// One work-group per source, the whole search in local memory (docs/specs/SP.md, "Local"):
// SP_LOCAL 1 keeps distances as 32-bit bits in local memory (f32 weights, or u32 weights whose
// max_weight * n < 2^32 - 1, checked on the host, so no candidate overflows), SP_LOCAL 2 as
// 64-bit bits (needs 64-bit local atomics). A bitmap marks the vertices whose distance fell in
// the last round; a round relaxes their out-arcs with a local atomic minimum and marks the
// targets that fell in the other bitmap; work-group barriers separate rounds (no host), until a
// round changes nothing. Then the canonical predecessors (smallest u with dist[u] + w == dist[v]
// over the reverse rows, sorted by tail) from the local distances, and both rows go out, the
// distances in the local width (32-bit integers with unreachable 0xffffffff under SP_LOCAL 1:
// half the bytes to read back; the host widens them).
#if SP_LOCAL == 1
typedef uint LB_T;
#if SP_KIND == 2
#define L_INF 0x7f800000u
#define LADD(du, w) as_uint(as_float(du) + (w))
#else
#define L_INF 0xffffffffu
#define LADD(du, w) ((du) + (uint)(w))
#endif
#define LAMIN(p, b) atomic_min((volatile __local uint *)(p), (b))
#define LLOAD(p) (*(volatile __local uint *)(p))
#define LPEEK(p) (*(volatile __local uint *)(p))
#elif SP_LOCAL == 2
typedef ulong LB_T;
#define L_INF B_INF
#define LADD(du, w) sp_add((du), (w))
#define LAMIN(p, b) atom_min((volatile __local ulong *)(p), (b))
#define LLOAD(p) atom_add((volatile __local ulong *)(p), 0ul)
// a 64-bit read may tear: no unlocked peek, every candidate takes the atomic
#define LPEEK(p) L_INF
#endif

#ifdef L_INF
// rounds: [0] the most rounds of any group (atomic maximum), [1] set when a group had not
// converged after max_rounds rounds. The sources go in launches of pieces (so that the host can
// stop between them): group g of a launch searches from row first + g.
__kernel void sp_local(__global const ulong *off, __global const uint *tgt, __global const W_T *w,
                       __global const ulong *roff, __global const uint *rsrc, __global const W_T *rw,
                       __global LB_T *dist, __global uint *pred, __global const uint *sources,
                       uint n, uint max_rounds, __global uint *rounds, __local LB_T *ld,
                       __local uint *bits, uint first) {
    __local uint flag;
    uint lid = get_local_id(0), lsz = get_local_size(0);
    uint row = first + get_group_id(0);
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
        dist[base + v] = dv;
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
