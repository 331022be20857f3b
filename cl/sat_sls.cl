// sat_sls.cl: probSAT and WalkSAT/SKC, many independent walks in one launch (docs/specs/SAT_SLS.md).
// One work-item per walk. The formula (CSR clauses without repeated literals or tautologies, and
// the occurrence lists per literal index 2v + (negative)) is read by every walk; a walk's state
// (assignment, true-literal count, critical variable (XOR of the true variables) and unsatisfied-
// list position of every clause, the unsatisfied list, the break value of every variable) lies in
// local memory (SLS_LOCAL 1) or in global memory. The state is rebuilt from the assignment at the
// start of every launch and after every restart, exactly as src/sat/sls/cpu.rs does, so both
// backends walk through the same assignments for the same seed, flips per launch and budget.
// Random words: metaopt_rng4(seed, walk, flip) per flip; restart r draws its assignment from the
// counters 2^63 + r 2^32 + i.
// Defines: SLS_WALKSAT (0: probSAT, 1: WalkSAT/SKC), SLS_LOCAL (0/1), SLS_TABLE (entries of the
// break table), SLS_POLL (a power of two: flips between reads of the stop flag).

#if SLS_LOCAL
#define SMEM __local
#else
#define SMEM __global
#endif

// Record of a walk in `rec` (SLS_HEAD words, then the assignment and the best assignment).
#define SLS_HEAD 8u

inline uint sls_below(uint r, uint n)
{
    return (uint)(((ulong)r * n) >> 32);
}

inline uint sls_var(int l)
{
    return (uint)(l < 0 ? -l : l) - 1u;
}

void sls_random(SMEM uint* x, uint n, uint words, ulong seed, uint walk, uint restart)
{
    for (uint j = 0; j < words; j += 4) {
        uint4 r = metaopt_rng4(seed, walk, 0x8000000000000000ul | ((ulong)restart << 32) | (ulong)(j / 4));
        x[j] = r.x;
        if (j + 1 < words) x[j + 1] = r.y;
        if (j + 2 < words) x[j + 2] = r.z;
        if (j + 3 < words) x[j + 3] = r.w;
    }
    if (n % 32u) x[words - 1] &= (1u << (n % 32u)) - 1u;
}

uint sls_rebuild(const __global uint* off, const __global int* lit, uint n, uint m, SMEM uint* x,
                 SMEM uint* cnt, SMEM uint* crit, SMEM uint* pos, SMEM uint* list, SMEM uint* brk)
{
    for (uint v = 0; v < n; ++v) brk[v] = 0;
    uint nu = 0;
    for (uint c = 0; c < m; ++c) {
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
        cnt[c] = t;
        crit[c] = cr;
        if (t == 0) {
            pos[c] = nu;
            list[nu++] = c;
        } else if (t == 1) {
            ++brk[cr];
        }
    }
    return nu;
}

// Flips variable v (0-based); returns the new number of unsatisfied clauses.
uint sls_flip(const __global uint* ooff, const __global uint* occ, uint v, uint nu, SMEM uint* x,
              SMEM uint* cnt, SMEM uint* crit, SMEM uint* pos, SMEM uint* list, SMEM uint* brk)
{
    uint val = (x[v >> 5] >> (v & 31u)) & 1u;
    uint tl = 2u * v + val, fl = 2u * v + (1u - val);
    x[v >> 5] ^= 1u << (v & 31u);
    for (uint k = ooff[tl]; k < ooff[tl + 1]; ++k) {
        uint c = occ[k];
        uint t = cnt[c];
        if (t == 0) {
            uint last = list[--nu];
            uint p = pos[c];
            list[p] = last;
            pos[last] = p;
            ++brk[v];
        } else if (t == 1) {
            --brk[crit[c]];
        }
        crit[c] ^= v;
        cnt[c] = t + 1;
    }
    for (uint k = ooff[fl]; k < ooff[fl + 1]; ++k) {
        uint c = occ[k];
        uint t = cnt[c] - 1;
        cnt[c] = t;
        crit[c] ^= v;
        if (t == 0) {
            pos[c] = nu;
            list[nu++] = c;
            --brk[v];
        } else if (t == 1) {
            ++brk[crit[c]];
        }
    }
    return nu;
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

inline void sls_copy(__global uint* to, SMEM uint* from, uint words)
{
    for (uint j = 0; j < words; ++j) to[j] = from[j];
}

// One launch: up to `flips` flips of every walk. rec: per walk SLS_HEAD + 2 words words: flips
// (lo, hi), flips since the restart (lo, hi), restarts, best unsatisfied count, unsatisfied now,
// started; then the assignment, then the best assignment. found: 0, or 1 + the first walk that
// reached a model (its best assignment).
__kernel void sat_sls_run(const __global uint* off, const __global int* lit, const __global uint* ooff,
                          const __global uint* occ, __constant uint* tab, __global uint* rec,
                          __global uint* gstate, __local uint* lstate, volatile __global uint* found,
                          uint n, uint m, uint words, uint walks, uint flips, ulong restart_flips,
                          ulong seed, uint noise)
{
    uint w = get_global_id(0);
    if (w >= walks) return;
    ulong stride = (ulong)words + 4ul * m + n;
#if SLS_LOCAL
    (void)gstate;
    SMEM uint* x = lstate + (ulong)get_local_id(0) * stride;
#else
    (void)lstate;
    SMEM uint* x = gstate + (ulong)w * stride;
#endif
    SMEM uint* cnt = x + words;
    SMEM uint* crit = cnt + m;
    SMEM uint* pos = crit + m;
    SMEM uint* list = pos + m;
    SMEM uint* brk = list + m;
    __global uint* R = rec + (ulong)w * (SLS_HEAD + 2u * words);
    if (*found) return;
    ulong total = (ulong)R[0] | ((ulong)R[1] << 32);
    ulong since = (ulong)R[2] | ((ulong)R[3] << 32);
    uint restarts = R[4], best = R[5];
    if (R[7] == 0) {
        sls_random(x, n, words, seed, w, 0);
        best = 0xFFFFFFFFu;
    } else {
        for (uint j = 0; j < words; ++j) x[j] = R[SLS_HEAD + j];
    }
    uint nu = sls_rebuild(off, lit, n, m, x, cnt, crit, pos, list, brk);
    if (nu < best) {
        best = nu;
        sls_copy(R + SLS_HEAD + words, x, words);
    }
    for (uint i = 0; i < flips && nu > 0; ++i) {
        if ((i & (SLS_POLL - 1u)) == 0 && i > 0 && *found) break;
        if (since >= restart_flips) {
            ++restarts;
            since = 0;
            sls_random(x, n, words, seed, w, restarts);
            nu = sls_rebuild(off, lit, n, m, x, cnt, crit, pos, list, brk);
            if (nu < best) {
                best = nu;
                sls_copy(R + SLS_HEAD + words, x, words);
            }
            if (nu == 0) break;
        }
        uint4 r = metaopt_rng4(seed, w, total);
        uint c = list[sls_below(r.x, nu)];
        uint v = sls_pick(off, lit, tab, noise, c, r, brk);
        nu = sls_flip(ooff, occ, v, nu, x, cnt, crit, pos, list, brk);
        ++total;
        ++since;
        if (nu < best) {
            best = nu;
            sls_copy(R + SLS_HEAD + words, x, words);
        }
    }
    if (nu == 0) atomic_cmpxchg(found, 0u, w + 1u);
    R[0] = (uint)total;
    R[1] = (uint)(total >> 32);
    R[2] = (uint)since;
    R[3] = (uint)(since >> 32);
    R[4] = restarts;
    R[5] = best;
    R[6] = nu;
    R[7] = 1;
    sls_copy(R + SLS_HEAD, x, words);
}
