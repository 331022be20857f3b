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
// The violation of the point at x: the sum of the inequalities' positive values and of the
// equalities' absolute values beyond MO_EQ_TOL (a NaN value makes it NaN).
inline MO_CT mo_violation(__global const FP *x, uint dims, uint stride, __global const void *data)
{
    FP c[MO_NC];
    constraints(x, dims, stride, data, c);
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
#define MO_VIOLATION(x, dims, stride, data) mo_violation(x, dims, stride, data)
#else
#define MO_VIOLATION(x, dims, stride, data) ((MO_CT)0)
#endif
