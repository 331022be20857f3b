// constraints.cl: what the solvers that take constraints share (src/de/constraints.rs;
// docs/specs/DE.md, Constraints): the comparison of two points by value and violation, and a
// point's violation from the objective's `constraints`. It follows the objective's source in a
// program, before the solver's file.
//
// The comparison is Takahama and Sakai's epsilon-level comparison at a level e: two points whose
// violations are both at most e, or equal, compare by value; otherwise the smaller violation
// wins. e = 0 is Deb's feasibility rules. MO_CT is the type compared (the solver's fitness
// type: FPF where defined, else FP).
//
// With MO_NC > 0 a compiled objective defines beside `objective`
//   void constraints(__global const FP *x, uint dims, uint stride, __global const void *data, FP *c)
// writing MO_NG inequality values g (satisfied when g <= 0), then MO_NC - MO_NG equality values h
// (satisfied when |h| <= MO_EQ_TOL); mo_violation sums the violated ones.

#ifndef MO_CT
#ifdef FPF
#define MO_CT FPF
#else
#define MO_CT FP
#endif
#endif

// Whether violations v and w compare their points by value at level e.
inline int mo_by_value(MO_CT v, MO_CT w, MO_CT e)
{
    return (v <= e && w <= e) || v == w;
}

// Whether (f, v) is strictly better than (g, w) at level e.
inline int mo_better(MO_CT f, MO_CT v, MO_CT g, MO_CT w, MO_CT e)
{
    return mo_by_value(v, w, e) ? f < g : v < w;
}

// Whether (f, v) is at least as good as (g, w) at level e (equal values are).
inline int mo_no_worse(MO_CT f, MO_CT v, MO_CT g, MO_CT w, MO_CT e)
{
    return mo_by_value(v, w, e) ? f <= g : v < w;
}

#if defined(MO_NC) && MO_NC > 0
// The violation of constraint values c (MO_NC of them): the sum of the inequalities' positive
// values and of the equalities' absolute values beyond MO_EQ_TOL (a NaN value makes it NaN).
inline MO_CT mo_violation_of(const FP *c)
{
    FP s = (FP)0;
    for (uint i = 0; i < MO_NC; ++i) {
        FP a = c[i];
        if (i < MO_NG)
            s += (a <= (FP)0) ? (FP)0 : a;
        else
            s += (fabs(a) <= (FP)MO_EQ_TOL) ? (FP)0 : fabs(a);
    }
    return (MO_CT)s;
}

// The violation of the point at x.
inline MO_CT mo_violation(__global const FP *x, uint dims, uint stride, __global const void *data)
{
    FP c[MO_NC];
    constraints(x, dims, stride, data, c);
    return mo_violation_of(c);
}
#define MO_VIOLATION(x, dims, stride, data) mo_violation(x, dims, stride, data)
#else
#define MO_VIOLATION(x, dims, stride, data) ((MO_CT)0)
#endif

// The gradient-based repair of epsilon-DE (Takahama and Sakai; src/de/constraints.rs `Repair`),
// in programs that define MO_REPAIR: an infeasible point x moves by Newton steps
//   x <- x - J^T (J J^T + r I)^-1 d
// on the residual d of its violated inequalities (their values) and of its equalities (their
// values), J their Jacobian by forward differences and r a ridge of MO_REPAIR_RIDGE times the
// mean diagonal (the least-norm step of the Moore-Penrose inverse, kept finite where J is
// rank-deficient). At most `rounds` steps, ending at the first feasible point; each step is
// kept inside [lo, hi]; integer variables (MO_INTEGRAL in their kinds byte) do not move. The
// point's components are `stride` apart; `s` is the point's scratch of
// MO_REPAIR_SCRATCH(dims) values. Returns the constraint evaluations made (at most
// 1 + rounds (continuous dims + 1)).
// The integer bit of a kinds byte (de.cl's DE_INTEGRAL).
#define MO_INTEGRAL 0x80u
#if defined(MO_NC) && MO_NC > 0 && defined(MO_REPAIR)
#define MO_REPAIR_SCRATCH(dims) ((size_t)MO_NC * (dims) + (size_t)MO_NC * MO_NC + MO_NC)
#if defined(FP_DOUBLE) && FP_DOUBLE
#define MO_REPAIR_STEP 1.4901161193847656e-8
#else
#define MO_REPAIR_STEP 3.4526698300124393e-4f
#endif
#define MO_REPAIR_RIDGE ((FP)1e-12)

// Constraint i's residual at value a: a violated inequality's value (0 for a satisfied one),
// an equality's value.
inline FP mo_residual(uint i, FP a)
{
    return (i < MO_NG && !(a > (FP)0)) ? (FP)0 : a;
}

inline uint mo_repair(__global FP *x, uint dims, uint stride, __global const void *data,
                      __global const FP *lo, __global const FP *hi, __global const uchar *kinds,
                      __global FP *s, uint rounds)
{
    __global FP *J = s;
    __global FP *M = J + (size_t)MO_NC * dims;
    __global FP *z = M + (size_t)MO_NC * MO_NC;
    FP c[MO_NC], ct[MO_NC];
    constraints(x, dims, stride, data, c);
    uint used = 1;
    for (uint r = 0; r < rounds; ++r) {
        // feasible (or NaN): nothing to repair
        if (!(mo_violation_of(c) > (FP)0)) break;
        // the active rows' Jacobian by forward differences (backward at the upper bound)
        for (uint k = 0; k < dims; ++k) {
            __global FP *xk = x + (size_t)k * stride;
            FP v = *xk;
            FP step = (FP)0;
            if (!(kinds[k] & MO_INTEGRAL)) {
                FP h = (FP)MO_REPAIR_STEP * fmax((FP)1, fabs(v));
                FP t = v + h <= hi[k] ? v + h : v - h;
                step = t - v;
                *xk = t;
                constraints(x, dims, stride, data, ct);
                ++used;
                *xk = v;
            }
            for (uint i = 0; i < MO_NC; ++i)
                J[(size_t)i * dims + k] =
                    (step != (FP)0 && mo_residual(i, c[i]) != (FP)0) ? (ct[i] - c[i]) / step : (FP)0;
        }
        // M = J J^T (lower triangle) plus the ridge; z = the residual
        FP tr = (FP)0;
        for (uint i = 0; i < MO_NC; ++i) {
            for (uint j = 0; j <= i; ++j) {
                FP a = (FP)0;
                for (uint k = 0; k < dims; ++k) a += J[(size_t)i * dims + k] * J[(size_t)j * dims + k];
                M[(size_t)i * MO_NC + j] = a;
            }
            tr += M[(size_t)i * MO_NC + i];
            z[i] = mo_residual(i, c[i]);
        }
        if (!(tr > (FP)0) || !isfinite(tr)) break;
        FP ridge = MO_REPAIR_RIDGE * tr / (FP)MO_NC;
        // Cholesky factor L (in M's lower triangle), then L L^T z = d
        int ok = 1;
        for (uint j = 0; j < MO_NC && ok; ++j) {
            FP d = M[(size_t)j * MO_NC + j] + ridge;
            for (uint k = 0; k < j; ++k) d -= M[(size_t)j * MO_NC + k] * M[(size_t)j * MO_NC + k];
            if (!(d > (FP)0)) {
                ok = 0;
                break;
            }
            FP l = sqrt(d);
            M[(size_t)j * MO_NC + j] = l;
            for (uint i = j + 1; i < MO_NC; ++i) {
                FP a = M[(size_t)i * MO_NC + j];
                for (uint k = 0; k < j; ++k) a -= M[(size_t)i * MO_NC + k] * M[(size_t)j * MO_NC + k];
                M[(size_t)i * MO_NC + j] = a / l;
            }
        }
        if (!ok) break;
        for (uint i = 0; i < MO_NC; ++i) {
            FP a = z[i];
            for (uint k = 0; k < i; ++k) a -= M[(size_t)i * MO_NC + k] * z[k];
            z[i] = a / M[(size_t)i * MO_NC + i];
        }
        for (uint i = MO_NC; i-- > 0;) {
            FP a = z[i];
            for (uint k = i + 1; k < MO_NC; ++k) a -= M[(size_t)k * MO_NC + i] * z[k];
            z[i] = a / M[(size_t)i * MO_NC + i];
            if (!isfinite(z[i])) ok = 0;
        }
        if (!ok) break;
        // the step, kept in the box
        for (uint k = 0; k < dims; ++k) {
            if (kinds[k] & MO_INTEGRAL) continue;
            FP a = (FP)0;
            for (uint i = 0; i < MO_NC; ++i) a += J[(size_t)i * dims + k] * z[i];
            __global FP *xk = x + (size_t)k * stride;
            FP v = *xk - a;
            if (isfinite(v)) *xk = fmin(fmax(v, lo[k]), hi[k]);
        }
        constraints(x, dims, stride, data, c);
        ++used;
    }
    return used;
}
#endif
