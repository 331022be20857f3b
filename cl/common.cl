// common.cl: shared by every metaopt program.
// Counter-based random numbers (Philox4x32-10, Salmon et al., SC'11): a seed, a stream and a
// counter give the same four words on every device and in src/rng.rs, so no generator state is
// kept anywhere and integer problems give identical results on every device and on the CPU.

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

inline uint4 philox4x32_10(uint4 c, uint2 k)
{
    for (int r = 0; r < 10; ++r) {
        uint hi0 = mul_hi(PHILOX_M0, c.x), lo0 = PHILOX_M0 * c.x;
        uint hi1 = mul_hi(PHILOX_M1, c.z), lo1 = PHILOX_M1 * c.z;
        c = (uint4)(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
        k.x += PHILOX_W0;
        k.y += PHILOX_W1;
    }
    return c;
}

// Four random words for (seed, stream, counter): counter = (counter lo, counter hi, stream, 0).
inline uint4 metaopt_rng4(ulong seed, uint stream, ulong counter)
{
    return philox4x32_10((uint4)((uint)counter, (uint)(counter >> 32), stream, 0u),
                         (uint2)((uint)seed, (uint)(seed >> 32)));
}

// Gray code to binary, for words of up to 32 bits.
inline uint gray_to_binary(uint g)
{
    g ^= g >> 16;
    g ^= g >> 8;
    g ^= g >> 4;
    g ^= g >> 2;
    g ^= g >> 1;
    return g;
}

// Fills out[4*i .. 4*i+3] with metaopt_rng4(seed, stream, i): lets the tests compare the device
// generator with the host one.
__kernel void rng_fill(ulong seed, uint stream, __global uint *out, uint count)
{
    uint i = get_global_id(0);
    if (i < count) {
        uint4 r = metaopt_rng4(seed, stream, (ulong)i);
        vstore4(r, i, out);
    }
}

// Objective value type FT, chosen at build time by FT_KIND, with the ordering and the 64-bit
// transport used by the reductions: 1 = long, 2 = ulong, 3 = float, 4 = double.
#ifdef FT_KIND
#if FT_KIND == 1
typedef long FT;
#define FT_WORST LONG_MAX
#define FT_TO_BITS(f) as_ulong(f)
#define FT_FROM_BITS(u) as_long(u)
#elif FT_KIND == 2
typedef ulong FT;
#define FT_WORST ULONG_MAX
#define FT_TO_BITS(f) (f)
#define FT_FROM_BITS(u) (u)
#elif FT_KIND == 3
typedef float FT;
#define FT_WORST INFINITY
#define FT_TO_BITS(f) ((ulong)as_uint(f))
#define FT_FROM_BITS(u) as_float((uint)(u))
#elif FT_KIND == 4
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double FT;
#define FT_WORST INFINITY
#define FT_TO_BITS(f) as_ulong(f)
#define FT_FROM_BITS(u) as_double(u)
#else
#error "FT_KIND must be 1..4"
#endif
#define FT_LESS(a, b) ((a) < (b))
#endif

// Element type QT of the QAP matrices, chosen at build time by QAP_TYPE (1 int32, 2 int64,
// 3 uint32, 4 uint64, 5 float32, 6 float64; `ElemType` in src/problem/qap/cost.rs): shared by the
// HC12 QAP kernel (qap.cl) and the robust tabu search (qap_ts.cl).
#ifdef QAP_TYPE
#if QAP_TYPE == 1
typedef int QT;
#elif QAP_TYPE == 2
typedef long QT;
#elif QAP_TYPE == 3
typedef uint QT;
#elif QAP_TYPE == 4
typedef ulong QT;
#elif QAP_TYPE == 5
typedef float QT;
#elif QAP_TYPE == 6
typedef double QT;
#else
#error "QAP_TYPE must be 1..6"
#endif
#endif
