// sat_sls.cl: probSAT and WalkSAT/SKC, many independent walks in one launch (docs/specs/SAT_SLS.md).
// One work-group of SLS_LANES work-items (lanes) per walk. The formula (CSR clauses without
// repeated literals or tautologies, and the occurrence lists per literal index 2v + (negative)) is
// read by every walk; a walk's state (assignment bits, break value of every variable, then per
// clause its unsatisfied-list position, the unsatisfied list, its critical variable (XOR of the
// true variables) and its true-literal count, in the narrowest types that fit) lies in local
// memory (SLS_LOCAL 1) or in global memory. The lanes share each flip: every lane draws the same
// random words and picks the same variable (the clause's literals are read by all lanes at the
// same addresses), then the occurrences of the flipped variable's two literals are spread over
// the lanes (counts, critical variables, break values with atomic adds), and lane 0 applies the
// unsatisfied-list removals and appends in occurrence order, exactly as src/sat_sls/cpu.rs does.
// With SLS_PERSIST 0 the state is rebuilt from the assignment at the start of every launch (the
// unsatisfied list in clause order) and after every restart, so both backends walk through the
// same assignments for the same seed, flips per launch and budget; with SLS_PERSIST 1 (a state
// of more than 48 KB, always in global memory: the rule depends on the formula only, and the CPU
// backend applies it too) the state stays in global memory from one launch to the next and is
// rebuilt only at a walk's start and restarts. The best assignment is kept through a log of the
// variables flipped since the last new best (SLS_OVER when more than `logcap` or the assignment
// was redrawn): a new best replays the log onto the best assignment (atomic XORs over the lanes),
// or copies the assignment when the log is over, so a new best costs O(1) flips amortised. Random words: metaopt_rng4(seed, walk, flip) per flip; restart r draws its assignment
// from the counters 2^63 + r 2^32 + i.
// Defines: SLS_WALKSAT (0: probSAT, 1: WalkSAT/SKC), SLS_LOCAL (0/1), SLS_TABLE (entries of the
// break table), SLS_POLL (a power of two: flips between reads of the stop flag), SLS_LANES (lanes
// per walk, a power of two <= 32), SLS_CNT (type of a true-literal count), SLS_VT (type of a
// critical variable), SLS_CT (type of a clause index or list position), SLS_PERSIST (0/1: the state
// persists across launches, in global memory).

#if SLS_LOCAL
#define SMEM __local
#else
#define SMEM __global
#endif
#define SLS_FENCE (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)

// Record of a walk in `rec` (SLS_HEAD words, then the assignment, the best assignment and the log).
#define SLS_HEAD 12u
// The log length of a log that no longer leads from the best assignment to the assignment.
#define SLS_OVER 0xFFFFFFFFu
#define SLS_ALIGN4(b) (((b) + 3u) & ~3u)

inline uint sls_below(uint r, uint n)
{
    return (uint)(((ulong)r * n) >> 32);
}

inline uint sls_var(int l)
{
    return (uint)(l < 0 ? -l : l) - 1u;
}

// Restart `restart`'s assignment, four words per lane and step.
void sls_random(SMEM uint* x, uint n, uint words, ulong seed, uint walk, uint restart, uint lid)
{
    for (uint q = lid; 4u * q < words; q += SLS_LANES) {
        uint j = 4u * q;
        uint4 r = metaopt_rng4(seed, walk, 0x8000000000000000ul | ((ulong)restart << 32) | (ulong)q);
        x[j] = r.x;
        if (j + 1 < words) x[j + 1] = r.y;
        if (j + 2 < words) x[j + 2] = r.z;
        if (j + 3 < words) x[j + 3] = r.w;
        if ((n % 32u) && j + 4 >= words) x[words - 1] &= (1u << (n % 32u)) - 1u;
    }
}

// The state of the assignment x (written and fenced by the caller); returns the unsatisfied count
// (also in sh[0]). The clauses are spread over the lanes; lane 0 lists the unsatisfied ones in
// clause order.
uint sls_rebuild(const __global uint* off, const __global int* lit, uint n, uint m, SMEM uint* x,
                 SMEM SLS_CNT* cnt, SMEM SLS_VT* crit, SMEM SLS_CT* pos, SMEM SLS_CT* list, SMEM uint* brk,
                 __local uint* sh, uint lid)
{
    for (uint v = lid; v < n; v += SLS_LANES) brk[v] = 0;
    barrier(SLS_FENCE);
    for (uint c = lid; c < m; c += SLS_LANES) {
        uint t = 0, cr = 0;
        for (uint i = off[c]; i < off[c + 1]; ++i) {
            int l = lit[i];
            uint v = sls_var(l);
            uint val = (x[v >> 5] >> (v & 31u)) & 1u;
            if (val == (uint)(l > 0)) {
                ++t;
                cr ^= v;
            }
        }
        cnt[c] = (SLS_CNT)t;
        crit[c] = (SLS_VT)cr;
        if (t == 1) atomic_inc(&brk[cr]);
    }
    barrier(SLS_FENCE);
    if (lid == 0) {
        uint nu = 0;
        for (uint c = 0; c < m; ++c) {
            if (cnt[c] == 0) {
                pos[c] = (SLS_CT)nu;
                list[nu++] = (SLS_CT)c;
            }
        }
        sh[0] = nu;
    }
    barrier(SLS_FENCE);
    return sh[0];
}

// The variable to flip in clause c (all its literals false) for the random words r.
uint sls_pick(const __global uint* off, const __global int* lit, __constant uint* tab, uint noise, uint c,
              uint4 r, SMEM uint* brk)
{
    uint a = off[c], e = off[c + 1];
#if SLS_WALKSAT
    uint minb = 0xFFFFFFFFu, ties = 0;
    for (uint i = a; i < e; ++i) {
        uint b = brk[sls_var(lit[i])];
        if (b < minb) {
            minb = b;
            ties = 1;
        } else if (b == minb) {
            ++ties;
        }
    }
    if (minb > 0 && r.y < noise) return sls_var(lit[a + sls_below(r.z, e - a)]);
    uint k = sls_below(r.z, ties);
    for (uint i = a; i < e; ++i) {
        uint v = sls_var(lit[i]);
        if (brk[v] == minb) {
            if (k == 0) return v;
            --k;
        }
    }
    return sls_var(lit[e - 1]);
#else
    (void)noise;
    ulong sum = 0;
    for (uint i = a; i < e; ++i) sum += tab[min(brk[sls_var(lit[i])], (uint)(SLS_TABLE - 1))];
    ulong thr = mul_hi((ulong)r.y << 32, sum);
    ulong acc = 0;
    for (uint i = a; i < e; ++i) {
        uint v = sls_var(lit[i]);
        acc += tab[min(brk[v], (uint)(SLS_TABLE - 1))];
        if (acc > thr) return v;
    }
    return sls_var(lit[e - 1]);
#endif
}

// Flips v (every lane calls it with the same v and nu after a barrier); returns the new
// unsatisfied count. The occurrences of the literal that becomes true, then of the one that
// becomes false, in chunks of SLS_LANES: each lane updates its clause's count and critical
// variable and the break value of a critical variable (atomic adds, so the result does not depend
// on the order), and marks a clause that leaves or enters the unsatisfied list; lane 0 then
// applies the marks in occurrence order (removal: swap with the last; append) and break(v).
uint sls_flip(const __global uint* ooff, const __global uint* occ, uint v, uint nu, SMEM uint* x,
              SMEM SLS_CNT* cnt, SMEM SLS_VT* crit, SMEM SLS_CT* pos, SMEM SLS_CT* list, SMEM uint* brk,
              __local uint* sh, __local uint* ev, uint lid)
{
    uint val = (x[v >> 5] >> (v & 31u)) & 1u;
    uint tl = 2u * v + val, fl = 2u * v + (1u - val);
    uint ta = ooff[tl], ntl = ooff[tl + 1] - ta;
    uint fa = ooff[fl], total = ntl + (ooff[fl + 1] - fa);
    for (uint b = 0; b < total; b += SLS_LANES) {
        uint j = b + lid;
        if (j < ntl) {
            uint c = occ[ta + j];
            uint t = cnt[c];
            if (t == 0) {
                ev[lid] = c;
                atomic_or(&sh[1], 1u << lid);
            } else if (t == 1) {
                atomic_dec(&brk[crit[c]]);
            }
            crit[c] ^= (SLS_VT)v;
            cnt[c] = (SLS_CNT)(t + 1);
        } else if (j < total) {
            uint c = occ[fa + (j - ntl)];
            uint t = (uint)cnt[c] - 1u;
            uint cr = (uint)crit[c] ^ v;
            cnt[c] = (SLS_CNT)t;
            crit[c] = (SLS_VT)cr;
            if (t == 0) {
                ev[lid] = c;
                atomic_or(&sh[1], 1u << lid);
            } else if (t == 1) {
                atomic_inc(&brk[cr]);
            }
        }
        barrier(SLS_FENCE);
        if (lid == 0) {
            uint mk = sh[1];
            sh[1] = 0;
            if (b == 0) x[v >> 5] ^= 1u << (v & 31u);
            uint bv = brk[v];
            while (mk) {
                uint q = 31u - clz(mk & (0u - mk));
                mk &= mk - 1u;
                uint c = ev[q];
                if (b + q < ntl) {
                    uint last = list[--nu];
                    uint p = pos[c];
                    list[p] = (SLS_CT)last;
                    pos[last] = (SLS_CT)p;
                    ++bv;
                } else {
                    pos[c] = (SLS_CT)nu;
                    list[nu++] = (SLS_CT)c;
                    --bv;
                }
            }
            brk[v] = bv;
            sh[0] = nu;
        }
        barrier(SLS_FENCE);
    }
    return sh[0];
}

// The assignment into `to`, spread over the lanes.
inline void sls_copy(__global uint* to, SMEM uint* from, uint words, uint lid)
{
    for (uint j = lid; j < words; j += SLS_LANES) to[j] = from[j];
}

// A new best: the best assignment `B` becomes the assignment x, by replaying the `nl` logged
// flips onto B (lanes XOR atomically: a word may hold several logged variables) or, when the log
// is over, by a copy. The barrier makes every lane's update land before the log is written again
// (PoCL lost updates without it). Returns the new (empty) log length.
uint sls_snapshot(__global uint* B, const __global uint* L, SMEM uint* x, uint nl, uint words, uint lid)
{
    if (nl == SLS_OVER) {
        for (uint j = lid; j < words; j += SLS_LANES) B[j] = x[j];
    } else {
        for (uint j = lid; j < nl; j += SLS_LANES) {
            uint v = L[j];
            atomic_xor(&B[v >> 5], 1u << (v & 31u));
        }
    }
    barrier(SLS_FENCE);
    return 0;
}

// One launch: up to `flips` flips of every walk (group). rec: per walk SLS_HEAD + 2 words + logcap
// words: flips (lo, hi), flips since the restart (lo, hi), restarts, best unsatisfied count,
// unsatisfied now, started, log length (SLS_OVER: over), 3 unused; then the assignment, the best
// assignment and the log (variables flipped since the best). found[0]: 0, or 1 + the first walk
// that reached a model (its best assignment); found[1]: the fewest unsatisfied clauses of any walk
// at the end of a launch. stride: words of a walk's state.
__kernel __attribute__((reqd_work_group_size(SLS_LANES, 1, 1)))
void sat_sls_run(const __global uint* off, const __global int* lit, const __global uint* ooff,
                 const __global uint* occ, __constant uint* tab, __global uint* rec,
                 __global uint* gstate, __local uint* lstate, volatile __global uint* found,
                 uint n, uint m, uint words, uint walks, uint flips, ulong restart_flips,
                 ulong seed, uint noise, uint stride, uint logcap)
{
    __local uint ev[SLS_LANES];
    __local uint sh[4]; // unsatisfied count, marks of a chunk, stop flag
    uint lid = get_local_id(0);
    uint w = get_group_id(0);
    if (w >= walks) return;
#if SLS_LOCAL
    (void)gstate;
    (void)stride;
    SMEM uint* x = lstate;
#else
    (void)lstate;
    SMEM uint* x = gstate + (ulong)w * stride;
#endif
    SMEM uint* brk = x + words;
    // then positions, the list, critical variables, counts, each from a word boundary
    SMEM uchar* p8 = (SMEM uchar*)(brk + n);
    SMEM SLS_CT* pos = (SMEM SLS_CT*)p8;
    p8 += SLS_ALIGN4(m * (uint)sizeof(SLS_CT));
    SMEM SLS_CT* list = (SMEM SLS_CT*)p8;
    p8 += SLS_ALIGN4(m * (uint)sizeof(SLS_CT));
    SMEM SLS_VT* crit = (SMEM SLS_VT*)p8;
    p8 += SLS_ALIGN4(m * (uint)sizeof(SLS_VT));
    SMEM SLS_CNT* cnt = (SMEM SLS_CNT*)p8;
    __global uint* R = rec + (ulong)w * (SLS_HEAD + 2u * words + logcap);
    __global uint* B = R + SLS_HEAD + words;
    __global uint* L = B + words;
    if (lid == 0) {
        sh[1] = 0;
        sh[2] = atomic_or(found, 0u);
    }
    barrier(SLS_FENCE);
    if (sh[2]) return;
    ulong total = (ulong)R[0] | ((ulong)R[1] << 32);
    ulong since = (ulong)R[2] | ((ulong)R[3] << 32);
    uint restarts = R[4], best = R[5], nl = R[8];
    uint nu;
    // One call site each of the rebuild at the start, the restart's rebuild and the snapshot:
    // PoCL's kernel compiler replicates the code around barriers in branches, and one more site
    // of each made its first-launch compile take minutes (the walks are the same).
    uint fresh = R[7] == 0;
    if (fresh) {
        sls_random(x, n, words, seed, w, 0, lid);
        best = 0xFFFFFFFFu;
        nl = SLS_OVER;
    } else if (!SLS_PERSIST) {
        for (uint j = lid; j < words; j += SLS_LANES) x[j] = R[SLS_HEAD + j];
    }
    if (fresh || !SLS_PERSIST) {
        barrier(SLS_FENCE);
        nu = sls_rebuild(off, lit, n, m, x, cnt, crit, pos, list, brk, sh, lid);
    } else {
        nu = R[6];
    }
    uint i = 0, again = 0;
    for (;;) {
        // a new best: at the start, after a restart, after a flip
        if (nu < best) {
            best = nu;
            nl = sls_snapshot(B, L, x, nl, words, lid);
        }
        if (nu == 0 || i >= flips) break;
        if (!again) {
            if ((i & (SLS_POLL - 1u)) == 0 && i > 0) {
                if (lid == 0) sh[2] = atomic_or(found, 0u);
                barrier(SLS_FENCE);
                if (sh[2]) break;
            }
            if (since >= restart_flips) {
                ++restarts;
                since = 0;
                barrier(SLS_FENCE);
                sls_random(x, n, words, seed, w, restarts, lid);
                barrier(SLS_FENCE);
                nu = sls_rebuild(off, lit, n, m, x, cnt, crit, pos, list, brk, sh, lid);
                nl = SLS_OVER;
                again = 1;
                continue;
            }
        }
        again = 0;
        uint4 r = metaopt_rng4(seed, w, total);
        uint c = list[sls_below(r.x, nu)];
        uint v = sls_pick(off, lit, tab, noise, c, r, brk);
        if (nl != SLS_OVER) {
            if (nl < logcap) {
                if (lid == 0) L[nl] = v;
                ++nl;
            } else {
                nl = SLS_OVER;
            }
        }
        barrier(SLS_FENCE);
        nu = sls_flip(ooff, occ, v, nu, x, cnt, crit, pos, list, brk, sh, ev, lid);
        ++total;
        ++since;
        ++i;
    }
    if (lid == 0) {
        if (nu == 0) atomic_cmpxchg(found, 0u, w + 1u);
        // the fewest unsatisfied clauses of any walk so far, for the host's progress reports
        atomic_min(found + 1, best);
        R[0] = (uint)total;
        R[1] = (uint)(total >> 32);
        R[2] = (uint)since;
        R[3] = (uint)(since >> 32);
        R[4] = restarts;
        R[5] = best;
        R[6] = nu;
        R[7] = 1;
        R[8] = nl;
    }
    sls_copy(R + SLS_HEAD, x, words, lid);
}
