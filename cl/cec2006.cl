// cec2006.cl: the 24 problems of the CEC 2006 special session on constrained real-parameter
// optimisation (J. J. Liang, T. P. Runarsson, E. Mezura-Montes, M. Clerc, P. N. Suganthan,
// C. A. Coello Coello and K. Deb, "Problem definitions and evaluation criteria for the CEC 2006
// special session on constrained real-parameter optimization", 2006), G01..G24, one per build:
// -DCEC06_ID=k (1..24) selects problem Gk.
//
// Objective contract (src/objective.rs): component j of the point is x[j * stride], and
//   FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)
// is the value to minimise. G02, G03 and G08 are maximisations in the report; as in the report's
// tables of f(x*), their negation is minimised here. Beside it,
//   void constraints(__global const FP *x, uint dims, uint stride, __global const void *data, FP *c)
// writes the CEC06_NG inequality values g_i(x) (satisfied when g_i <= 0), then the CEC06_NH
// equality values h_j(x) (satisfied when |h_j| <= CEC06_EPS), in the report's numbering.
// `data` is unused: every problem's constants are in this file. `dims` must be CEC06_DIMS; the
// evaluation kernel writes NaN for any other.
//
// The kernel cec06_eval evaluates rows of a row-major matrix and writes each row's objective and
// the report's mean violation v = (sum_i G_i + sum_j H_j) / (NG + NH), G_i = g_i where g_i > 0
// (else 0), H_j = |h_j| where |h_j| > CEC06_EPS (else 0). A NaN constraint gives a NaN v.
//
// Type: FP is float unless FP_DOUBLE is 1 (a program that defines FP itself passes FP_DOUBLE
// too). Non-integer constants go through K() so that a float build keeps float arithmetic.
// src/problem/cec2006.rs is the f64 twin of every formula, step by step in the same order (with
// FP_CONTRACT OFF, so that a double build differs from it only through the math library's sin,
// cos, exp, log and pow); change both together.

#if defined(FP_DOUBLE) && FP_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define CEC06_DOUBLE 1
#else
#define CEC06_DOUBLE 0
#endif

#ifndef FP
#if CEC06_DOUBLE
#define FP double
#else
#define FP float
#endif
#endif

// FP and FP_DOUBLE must agree: a negative array size stops the build otherwise.
typedef char cec06_fp_matches_fp_double[(sizeof(FP) == (CEC06_DOUBLE ? 8 : 4)) ? 1 : -1];

#pragma OPENCL FP_CONTRACT OFF

#if CEC06_DOUBLE
#define K(v) v
#else
#define K(v) v##f
#endif

#ifndef CEC06_ID
#error "cec2006.cl needs -DCEC06_ID=k with k in 1..24"
#endif

// The report's equality tolerance.
#define CEC06_EPS K(1e-4)

// Component i of the point, numbered from 1 as in the report.
#define X(i) x[((i) - 1) * stride]

#define CEC06_ARGS __global const FP *x, uint dims, uint stride, __global const void *data

// ---- per-problem sizes --------------------------------------------------------------------------

#if CEC06_ID == 1
#define CEC06_DIMS 13
#define CEC06_NG 9
#define CEC06_NH 0
#elif CEC06_ID == 2
#define CEC06_DIMS 20
#define CEC06_NG 2
#define CEC06_NH 0
#elif CEC06_ID == 3
#define CEC06_DIMS 10
#define CEC06_NG 0
#define CEC06_NH 1
#elif CEC06_ID == 4
#define CEC06_DIMS 5
#define CEC06_NG 6
#define CEC06_NH 0
#elif CEC06_ID == 5
#define CEC06_DIMS 4
#define CEC06_NG 2
#define CEC06_NH 3
#elif CEC06_ID == 6
#define CEC06_DIMS 2
#define CEC06_NG 2
#define CEC06_NH 0
#elif CEC06_ID == 7
#define CEC06_DIMS 10
#define CEC06_NG 8
#define CEC06_NH 0
#elif CEC06_ID == 8
#define CEC06_DIMS 2
#define CEC06_NG 2
#define CEC06_NH 0
#elif CEC06_ID == 9
#define CEC06_DIMS 7
#define CEC06_NG 4
#define CEC06_NH 0
#elif CEC06_ID == 10
#define CEC06_DIMS 8
#define CEC06_NG 6
#define CEC06_NH 0
#elif CEC06_ID == 11
#define CEC06_DIMS 2
#define CEC06_NG 0
#define CEC06_NH 1
#elif CEC06_ID == 12
#define CEC06_DIMS 3
#define CEC06_NG 1
#define CEC06_NH 0
#elif CEC06_ID == 13
#define CEC06_DIMS 5
#define CEC06_NG 0
#define CEC06_NH 3
#elif CEC06_ID == 14
#define CEC06_DIMS 10
#define CEC06_NG 0
#define CEC06_NH 3
#elif CEC06_ID == 15
#define CEC06_DIMS 3
#define CEC06_NG 0
#define CEC06_NH 2
#elif CEC06_ID == 16
#define CEC06_DIMS 5
#define CEC06_NG 38
#define CEC06_NH 0
#elif CEC06_ID == 17
#define CEC06_DIMS 6
#define CEC06_NG 0
#define CEC06_NH 4
#elif CEC06_ID == 18
#define CEC06_DIMS 9
#define CEC06_NG 13
#define CEC06_NH 0
#elif CEC06_ID == 19
#define CEC06_DIMS 15
#define CEC06_NG 5
#define CEC06_NH 0
#elif CEC06_ID == 20
#define CEC06_DIMS 24
#define CEC06_NG 6
#define CEC06_NH 14
#elif CEC06_ID == 21
#define CEC06_DIMS 7
#define CEC06_NG 1
#define CEC06_NH 5
#elif CEC06_ID == 22
#define CEC06_DIMS 22
#define CEC06_NG 1
#define CEC06_NH 19
#elif CEC06_ID == 23
#define CEC06_DIMS 9
#define CEC06_NG 2
#define CEC06_NH 4
#elif CEC06_ID == 24
#define CEC06_DIMS 2
#define CEC06_NG 2
#define CEC06_NH 0
#else
#error "CEC06_ID must be 1..24"
#endif

#define CEC06_NC (CEC06_NG + CEC06_NH)

// ---- the problems -------------------------------------------------------------------------------

#if CEC06_ID == 1
// G01 (report 1.1): quadratic objective, 9 linear inequalities.
FP objective(CEC06_ARGS)
{
    FP s = (FP)0, q = (FP)0, r = (FP)0;
    for (uint i = 1; i <= 4; ++i) {
        s += X(i);
        q += X(i) * X(i);
    }
    for (uint i = 5; i <= 13; ++i) r += X(i);
    return 5 * s - 5 * q - r;
}

void constraints(CEC06_ARGS, FP *c)
{
    c[0] = 2 * X(1) + 2 * X(2) + X(10) + X(11) - 10;
    c[1] = 2 * X(1) + 2 * X(3) + X(10) + X(12) - 10;
    c[2] = 2 * X(2) + 2 * X(3) + X(11) + X(12) - 10;
    c[3] = -8 * X(1) + X(10);
    c[4] = -8 * X(2) + X(11);
    c[5] = -8 * X(3) + X(12);
    c[6] = -2 * X(4) - X(5) + X(10);
    c[7] = -2 * X(6) - X(7) + X(11);
    c[8] = -2 * X(8) - X(9) + X(12);
}

#elif CEC06_ID == 2
// G02 (report 1.2), n = 20: maximise |(sum cos^4 x_i - 2 prod cos^2 x_i) / sqrt(sum i x_i^2)|;
// its negation is minimised. At the origin (infeasible) the quotient is infinite.
FP objective(CEC06_ARGS)
{
    FP s4 = (FP)0, p2 = (FP)1, w = (FP)0;
    for (uint i = 1; i <= CEC06_DIMS; ++i) {
        FP ci = cos(X(i));
        FP c2 = ci * ci;
        s4 += c2 * c2;
        p2 *= c2;
        w += (FP)i * (X(i) * X(i));
    }
    return -fabs((s4 - 2 * p2) / sqrt(w));
}

void constraints(CEC06_ARGS, FP *c)
{
    FP p = (FP)1, s = (FP)0;
    for (uint i = 1; i <= CEC06_DIMS; ++i) {
        p *= X(i);
        s += X(i);
    }
    c[0] = K(0.75) - p;
    c[1] = s - K(7.5) * CEC06_DIMS;
}

#elif CEC06_ID == 3
// G03 (report 1.3), n = 10: maximise (sqrt n)^n prod x_i subject to sum x_i^2 = 1; its negation
// is minimised. (sqrt 10)^10 = 10^5.
FP objective(CEC06_ARGS)
{
    FP p = (FP)1;
    for (uint i = 1; i <= CEC06_DIMS; ++i) p *= X(i);
    return -(100000 * p);
}

void constraints(CEC06_ARGS, FP *c)
{
    FP s = (FP)0;
    for (uint i = 1; i <= CEC06_DIMS; ++i) s += X(i) * X(i);
    c[0] = s - 1;
}

#elif CEC06_ID == 4
// G04 (report 1.4): Himmelblau's nonlinear problem; three quantities each kept in an interval.
FP objective(CEC06_ARGS)
{
    return K(5.3578547) * (X(3) * X(3)) + K(0.8356891) * (X(1) * X(5)) + K(37.293239) * X(1) -
           K(40792.141);
}

void constraints(CEC06_ARGS, FP *c)
{
    FP u = K(85.334407) + K(0.0056858) * (X(2) * X(5)) + K(0.0006262) * (X(1) * X(4)) -
           K(0.0022053) * (X(3) * X(5));
    FP v = K(80.51249) + K(0.0071317) * (X(2) * X(5)) + K(0.0029955) * (X(1) * X(2)) +
           K(0.0021813) * (X(3) * X(3));
    FP w = K(9.300961) + K(0.0047026) * (X(3) * X(5)) + K(0.0012547) * (X(1) * X(3)) +
           K(0.0019085) * (X(3) * X(4));
    c[0] = u - 92;
    c[1] = -u;
    c[2] = v - 110;
    c[3] = -v + 90;
    c[4] = w - 25;
    c[5] = -w + 20;
}

#elif CEC06_ID == 5
// G05 (report 1.5): cubic objective, 2 linear inequalities, 3 trigonometric equalities.
FP objective(CEC06_ARGS)
{
    return 3 * X(1) + K(0.000001) * (X(1) * X(1) * X(1)) + 2 * X(2) +
           (K(0.000002) / 3) * (X(2) * X(2) * X(2));
}

void constraints(CEC06_ARGS, FP *c)
{
    c[0] = -X(4) + X(3) - K(0.55);
    c[1] = -X(3) + X(4) - K(0.55);
    c[2] = 1000 * sin(-X(3) - K(0.25)) + 1000 * sin(-X(4) - K(0.25)) + K(894.8) - X(1);
    c[3] = 1000 * sin(X(3) - K(0.25)) + 1000 * sin(X(3) - X(4) - K(0.25)) + K(894.8) - X(2);
    c[4] = 1000 * sin(X(4) - K(0.25)) + 1000 * sin(X(4) - X(3) - K(0.25)) + K(1294.8);
}

#elif CEC06_ID == 6
// G06 (report 1.6): cubic objective, 2 quadratic inequalities.
FP objective(CEC06_ARGS)
{
    FP a = X(1) - 10, b = X(2) - 20;
    return a * a * a + b * b * b;
}

void constraints(CEC06_ARGS, FP *c)
{
    FP a5 = X(1) - 5, a6 = X(1) - 6, b = X(2) - 5;
    c[0] = -(a5 * a5) - b * b + 100;
    c[1] = a6 * a6 + b * b - K(82.81);
}

#elif CEC06_ID == 7
// G07 (report 1.7): quadratic objective, 3 linear and 5 quadratic inequalities.
FP objective(CEC06_ARGS)
{
    FP d3 = X(3) - 10, d4 = X(4) - 5, d5 = X(5) - 3, d6 = X(6) - 1;
    FP d8 = X(8) - 11, d9 = X(9) - 10, d10 = X(10) - 7;
    return X(1) * X(1) + X(2) * X(2) + X(1) * X(2) - 14 * X(1) - 16 * X(2) + d3 * d3 +
           4 * (d4 * d4) + d5 * d5 + 2 * (d6 * d6) + 5 * (X(7) * X(7)) + 7 * (d8 * d8) +
           2 * (d9 * d9) + d10 * d10 + 45;
}

void constraints(CEC06_ARGS, FP *c)
{
    FP a2 = X(1) - 2, b3 = X(2) - 3, a8 = X(1) - 8, b4 = X(2) - 4, b2 = X(2) - 2;
    FP e6 = X(3) - 6, e8 = X(9) - 8;
    c[0] = -105 + 4 * X(1) + 5 * X(2) - 3 * X(7) + 9 * X(8);
    c[1] = 10 * X(1) - 8 * X(2) - 17 * X(7) + 2 * X(8);
    c[2] = -8 * X(1) + 2 * X(2) + 5 * X(9) - 2 * X(10) - 12;
    c[3] = 3 * (a2 * a2) + 4 * (b3 * b3) + 2 * (X(3) * X(3)) - 7 * X(4) - 120;
    c[4] = 5 * (X(1) * X(1)) + 8 * X(2) + e6 * e6 - 2 * X(4) - 40;
    c[5] = X(1) * X(1) + 2 * (b2 * b2) - 2 * (X(1) * X(2)) + 14 * X(5) - 6 * X(6);
    c[6] = K(0.5) * (a8 * a8) + 2 * (b4 * b4) + 3 * (X(5) * X(5)) - X(6) - 30;
    c[7] = -3 * X(1) + 6 * X(2) + 12 * (e8 * e8) - 7 * X(10);
}

#elif CEC06_ID == 8
// G08 (report 1.8): maximise sin^3(2 pi x1) sin(2 pi x2) / (x1^3 (x1 + x2)); its negation is
// minimised. At x1 = 0 (a bound) the quotient is 0/0, NaN.
#define CEC06_TWO_PI K(6.283185307179586)
FP objective(CEC06_ARGS)
{
    FP s1 = sin(CEC06_TWO_PI * X(1));
    FP s2 = sin(CEC06_TWO_PI * X(2));
    return -(s1 * s1 * s1 * s2) / (X(1) * X(1) * X(1) * (X(1) + X(2)));
}

void constraints(CEC06_ARGS, FP *c)
{
    FP b = X(2) - 4;
    c[0] = X(1) * X(1) - X(2) + 1;
    c[1] = 1 - X(1) + b * b;
}

#elif CEC06_ID == 9
// G09 (report 1.9): polynomial objective, 4 polynomial inequalities.
FP objective(CEC06_ARGS)
{
    FP a = X(1) - 10, b = X(2) - 12, d = X(4) - 11;
    FP x3s = X(3) * X(3), x5s = X(5) * X(5), x7s = X(7) * X(7);
    return a * a + 5 * (b * b) + x3s * x3s + 3 * (d * d) + 10 * (x5s * x5s * x5s) +
           7 * (X(6) * X(6)) + x7s * x7s - 4 * (X(6) * X(7)) - 10 * X(6) - 8 * X(7);
}

void constraints(CEC06_ARGS, FP *c)
{
    FP x1s = X(1) * X(1), x2s = X(2) * X(2), x3s = X(3) * X(3);
    c[0] = -127 + 2 * x1s + 3 * (x2s * x2s) + X(3) + 4 * (X(4) * X(4)) + 5 * X(5);
    c[1] = -282 + 7 * X(1) + 3 * X(2) + 10 * x3s + X(4) - X(5);
    c[2] = -196 + 23 * X(1) + x2s + 6 * (X(6) * X(6)) - 8 * X(7);
    c[3] = 4 * x1s + x2s - 3 * (X(1) * X(2)) + 2 * x3s + 5 * X(6) - 11 * X(7);
}

#elif CEC06_ID == 10
// G10 (report 1.10): linear objective, 3 linear and 3 bilinear inequalities.
FP objective(CEC06_ARGS)
{
    return X(1) + X(2) + X(3);
}

void constraints(CEC06_ARGS, FP *c)
{
    c[0] = -1 + K(0.0025) * (X(4) + X(6));
    c[1] = -1 + K(0.0025) * (X(5) + X(7) - X(4));
    c[2] = -1 + K(0.01) * (X(8) - X(5));
    c[3] = -(X(1) * X(6)) + K(833.33252) * X(4) + 100 * X(1) - K(83333.333);
    c[4] = -(X(2) * X(7)) + 1250 * X(5) + X(2) * X(4) - 1250 * X(4);
    c[5] = -(X(3) * X(8)) + 1250000 + X(3) * X(5) - 2500 * X(5);
}

#elif CEC06_ID == 11
// G11 (report 1.11): quadratic objective, one quadratic equality.
FP objective(CEC06_ARGS)
{
    FP b = X(2) - 1;
    return X(1) * X(1) + b * b;
}

void constraints(CEC06_ARGS, FP *c)
{
    c[0] = X(2) - X(1) * X(1);
}

#elif CEC06_ID == 12
// G12 (report 1.12): the feasible region is 9^3 disjoint balls of radius 0.25 centred at the
// integer points (p, q, r), 1 <= p, q, r <= 9; a point is feasible when it lies in one of them,
// so g is the least (x1 - p)^2 + (x2 - q)^2 + (x3 - r)^2 - 0.0625 over the centres. The terms
// are independent, so the least is reached at the nearest centre coordinate of each component.
FP objective(CEC06_ARGS)
{
    FP a = X(1) - 5, b = X(2) - 5, d = X(3) - 5;
    return -(100 - a * a - b * b - d * d) / 100;
}

// The distance from v to the nearest of 1, ..., 9.
FP cec06_to_grid(FP v)
{
    return v - clamp(rint(v), (FP)1, (FP)9);
}

void constraints(CEC06_ARGS, FP *c)
{
    FP a = cec06_to_grid(X(1)), b = cec06_to_grid(X(2)), d = cec06_to_grid(X(3));
    c[0] = a * a + b * b + d * d - K(0.0625);
}

#elif CEC06_ID == 13
// G13 (report 1.13): exponential objective, 3 polynomial equalities.
FP objective(CEC06_ARGS)
{
    return exp(X(1) * X(2) * X(3) * X(4) * X(5));
}

void constraints(CEC06_ARGS, FP *c)
{
    c[0] = X(1) * X(1) + X(2) * X(2) + X(3) * X(3) + X(4) * X(4) + X(5) * X(5) - 10;
    c[1] = X(2) * X(3) - 5 * (X(4) * X(5));
    c[2] = X(1) * X(1) * X(1) + X(2) * X(2) * X(2) + 1;
}

#elif CEC06_ID == 14
// G14 (report 1.14): sum x_i (c_i + ln(x_i / sum x_j)), 3 linear equalities. The report's domain
// is 0 < x_i; at x_i = 0 the term is its limit, 0.
__constant FP CEC06_G14_C[10] = {K(-6.089), K(-17.164), K(-34.054), K(-5.914), K(-24.721),
                                 K(-14.986), K(-24.1),   K(-10.708), K(-26.662), K(-22.179)};

FP objective(CEC06_ARGS)
{
    FP s = (FP)0, f = (FP)0;
    for (uint i = 1; i <= 10; ++i) s += X(i);
    for (uint i = 1; i <= 10; ++i) {
        FP v = X(i);
        f += v == 0 ? (FP)0 : v * (CEC06_G14_C[i - 1] + log(v / s));
    }
    return f;
}

void constraints(CEC06_ARGS, FP *c)
{
    c[0] = X(1) + 2 * X(2) + 2 * X(3) + X(6) + X(10) - 2;
    c[1] = X(4) + 2 * X(5) + X(6) + X(7) - 1;
    c[2] = X(3) + X(7) + X(8) + 2 * X(9) + X(10) - 1;
}

#elif CEC06_ID == 15
// G15 (report 1.15): quadratic objective, one quadratic and one linear equality.
FP objective(CEC06_ARGS)
{
    return 1000 - X(1) * X(1) - 2 * (X(2) * X(2)) - X(3) * X(3) - X(1) * X(2) - X(1) * X(3);
}

void constraints(CEC06_ARGS, FP *c)
{
    c[0] = X(1) * X(1) + X(2) * X(2) + X(3) * X(3) - 25;
    c[1] = 8 * X(1) + 14 * X(2) + 7 * X(3) - 56;
}

#elif CEC06_ID == 16
// G16 (report 1.16): a chain of intermediate quantities y1..y17 and c1..c17 (report's
// numbering: y[k] and c[k], index 0 unused), 4 inequalities on them and an interval for each
// y_k.
void cec06_g16_chain(__global const FP *x, uint stride, FP *y, FP *c)
{
    y[1] = X(2) + X(3) + K(41.6);
    c[1] = K(0.024) * X(4) - K(4.62);
    y[2] = K(12.5) / c[1] + 12;
    c[2] = K(0.0003535) * (X(1) * X(1)) + K(0.5311) * X(1) + K(0.08705) * y[2] * X(1);
    c[3] = K(0.052) * X(1) + 78 + K(0.002377) * y[2] * X(1);
    y[3] = c[2] / c[3];
    y[4] = 19 * y[3];
    FP d = X(1) - y[3];
    c[4] = K(0.04782) * d + K(0.1956) * (d * d) / X(2) + K(0.6376) * y[4] + K(1.594) * y[3];
    c[5] = 100 * X(2);
    c[6] = X(1) - y[3] - y[4];
    c[7] = K(0.950) - c[4] / c[5];
    y[5] = c[6] * c[7];
    y[6] = X(1) - y[5] - y[4] - y[3];
    c[8] = (y[5] + y[4]) * K(0.995);
    y[7] = c[8] / y[1];
    y[8] = c[8] / 3798;
    c[9] = y[7] - K(0.0663) * y[7] / y[8] - K(0.3153);
    y[9] = K(96.82) / c[9] + K(0.321) * y[1];
    y[10] = K(1.29) * y[5] + K(1.258) * y[4] + K(2.29) * y[3] + K(1.71) * y[6];
    y[11] = K(1.71) * X(1) - K(0.452) * y[4] + K(0.580) * y[3];
    c[10] = K(12.3) / K(752.3);
    c[11] = K(1.75) * y[2] * (K(0.995) * X(1));
    c[12] = K(0.995) * y[10] + 1998;
    y[12] = c[10] * X(1) + c[11] / c[12];
    y[13] = c[12] - K(1.75) * y[2];
    y[14] = 3623 + K(64.4) * X(2) + K(58.4) * X(3) + 146312 / (y[9] + X(5));
    c[13] = K(0.995) * y[10] + K(60.8) * X(2) + 48 * X(4) - K(0.1121) * y[14] - 5095;
    y[15] = y[13] / c[13];
    y[16] = 148000 - 331000 * y[15] + 40 * y[13] - 61 * y[15] * y[13];
    c[14] = 2324 * y[10] - 28740000 * y[2];
    y[17] = 14130000 - 1328 * y[10] - 531 * y[11] + c[14] / c[12];
    c[15] = y[13] / y[15] - y[13] / K(0.52);
    c[16] = K(1.104) - K(0.72) * y[15];
    c[17] = y[9] + X(5);
}

// The report's intervals [lo_k, hi_k] of y_k, k = 1..17 (constraints g5..g38).
__constant FP CEC06_G16_LO[17] = {K(213.1),   K(17.505),   K(11.275),  K(214.228), K(7.458),
                                  K(0.961),   K(1.612),    K(0.146),   K(107.99),  K(922.693),
                                  K(926.832), K(18.766),   K(1072.163), K(8961.448), K(0.063),
                                  K(71084.33), K(2802713.0)};
__constant FP CEC06_G16_HI[17] = {K(405.23),   K(1053.6667), K(35.03),    K(665.585),
                                  K(584.463),  K(265.916),   K(7.046),    K(0.222),
                                  K(273.366),  K(1286.105),  K(1444.046), K(537.141),
                                  K(3247.039), K(26844.086), K(0.386),    K(140000.0),
                                  K(12146108.0)};

FP objective(CEC06_ARGS)
{
    FP y[18], c[18];
    cec06_g16_chain(x, stride, y, c);
    return K(0.000117) * y[14] + K(0.1365) + K(0.00002358) * y[13] + K(0.000001502) * y[16] +
           K(0.0321) * y[12] + K(0.004324) * y[5] + K(0.0001) * c[15] / c[16] +
           K(37.48) * y[2] / c[12] - K(0.0000005843) * y[17];
}

void constraints(CEC06_ARGS, FP *g)
{
    FP y[18], c[18];
    cec06_g16_chain(x, stride, y, c);
    g[0] = K(0.28) / K(0.72) * y[5] - y[4];
    g[1] = X(3) - K(1.5) * X(2);
    g[2] = 3496 * y[2] / c[12] - 21;
    g[3] = K(110.6) + y[1] - 62212 / c[17];
    for (uint k = 1; k <= 17; ++k) {
        g[2 * k + 2] = CEC06_G16_LO[k - 1] - y[k];
        g[2 * k + 3] = y[k] - CEC06_G16_HI[k - 1];
    }
}

#elif CEC06_ID == 17
// G17 (report 1.17): piecewise linear objective f1(x1) + f2(x2) (f1 = 30 x1 below 300, else
// 31 x1; f2 = 28 x2 below 100, 29 x2 below 200, else 30 x2), 4 trigonometric equalities. The
// report's formula, in x1 and x2 (the code distributed with the report evaluates f1 and f2 at
// the values h1 = 0 and h2 = 0 give for x1 and x2 instead).
FP objective(CEC06_ARGS)
{
    FP f1 = X(1) < 300 ? 30 * X(1) : 31 * X(1);
    FP f2 = X(2) < 100 ? 28 * X(2) : (X(2) < 200 ? 29 * X(2) : 30 * X(2));
    return f1 + f2;
}

void constraints(CEC06_ARGS, FP *c)
{
    FP p = X(3) * X(4) / K(131.078);
    FP q3 = K(0.90798) * (X(3) * X(3)) / K(131.078);
    FP q4 = K(0.90798) * (X(4) * X(4)) / K(131.078);
    FP cb = cos(K(1.47588)), sb = sin(K(1.47588));
    c[0] = -X(1) + 300 - p * cos(K(1.48477) - X(6)) + q3 * cb;
    c[1] = -X(2) - p * cos(K(1.48477) + X(6)) + q4 * cb;
    c[2] = -X(5) - p * sin(K(1.48477) + X(6)) + q4 * sb;
    c[3] = 200 - p * sin(K(1.48477) - X(6)) + q3 * sb;
}

#elif CEC06_ID == 18
// G18 (report 1.18): bilinear objective, 13 quadratic inequalities.
FP objective(CEC06_ARGS)
{
    return -K(0.5) * (X(1) * X(4) - X(2) * X(3) + X(3) * X(9) - X(5) * X(9) + X(5) * X(8) -
                      X(6) * X(7));
}

// (a - b)^2 + (d - e)^2 - 1
FP cec06_dist2m1(FP a, FP b, FP d, FP e)
{
    FP u = a - b, v = d - e;
    return u * u + v * v - 1;
}

void constraints(CEC06_ARGS, FP *c)
{
    c[0] = cec06_dist2m1(X(3), 0, X(4), 0);
    c[1] = X(9) * X(9) - 1;
    c[2] = cec06_dist2m1(X(5), 0, X(6), 0);
    c[3] = cec06_dist2m1(X(1), 0, X(2), X(9));
    c[4] = cec06_dist2m1(X(1), X(5), X(2), X(6));
    c[5] = cec06_dist2m1(X(1), X(7), X(2), X(8));
    c[6] = cec06_dist2m1(X(3), X(5), X(4), X(6));
    c[7] = cec06_dist2m1(X(3), X(7), X(4), X(8));
    c[8] = cec06_dist2m1(X(7), 0, X(8), X(9));
    c[9] = X(2) * X(3) - X(1) * X(4);
    c[10] = -(X(3) * X(9));
    c[11] = X(5) * X(9);
    c[12] = X(6) * X(7) - X(5) * X(8);
}

#elif CEC06_ID == 19
// G19 (report 1.19): the data of the report's table for G19: a (10 x 5), b (10), c (5 x 5,
// symmetric), d (5), e (5), row by row.
__constant FP CEC06_G19_A[50] = {
    -16,     2,  0,  1,      0,       /* row 1 */
    0,       -2, 0,  K(0.4), 2,       /* row 2 */
    K(-3.5), 0,  2,  0,      0,       /* row 3 */
    0,       -2, 0,  -4,     -1,      /* row 4 */
    0,       -9, -2, 1,      K(-2.8), /* row 5 */
    2,       0,  -4, 0,      0,       /* row 6 */
    -1,      -1, -1, -1,     -1,      /* row 7 */
    -1,      -2, -3, -2,     -1,      /* row 8 */
    1,       2,  3,  4,      5,       /* row 9 */
    1,       1,  1,  1,      1,       /* row 10 */
};
__constant FP CEC06_G19_B[10] = {-40, -2, K(-0.25), -4, -4, -1, -40, -60, 5, 1};
__constant FP CEC06_G19_C[25] = {
    30,  -20, -10, 32,  -10, /* row 1 */
    -20, 39,  -6,  -31, 32,  /* row 2 */
    -10, -6,  10,  -6,  -10, /* row 3 */
    32,  -31, -6,  39,  -20, /* row 4 */
    -10, 32,  -10, -20, 30,  /* row 5 */
};
__constant FP CEC06_G19_D[5] = {4, 8, 10, 6, 2};
__constant FP CEC06_G19_E[5] = {-15, -27, -36, -18, -12};

// f = sum_j sum_i c_ij x_(10+i) x_(10+j) + 2 sum_j d_j x_(10+j)^3 - sum_i b_i x_i
FP objective(CEC06_ARGS)
{
    FP q = (FP)0, cub = (FP)0, lin = (FP)0;
    for (uint j = 0; j < 5; ++j) {
        FP xj = X(11 + j);
        for (uint i = 0; i < 5; ++i) q += CEC06_G19_C[i * 5 + j] * X(11 + i) * xj;
        cub += CEC06_G19_D[j] * (xj * xj * xj);
    }
    for (uint i = 0; i < 10; ++i) lin += CEC06_G19_B[i] * X(1 + i);
    return q + 2 * cub - lin;
}

// g_j = -2 sum_i c_ij x_(10+i) - 3 d_j x_(10+j)^2 - e_j + sum_i a_ij x_i, j = 1..5
void constraints(CEC06_ARGS, FP *c)
{
    for (uint j = 0; j < 5; ++j) {
        FP s = (FP)0, t = (FP)0;
        for (uint i = 0; i < 5; ++i) s += CEC06_G19_C[i * 5 + j] * X(11 + i);
        for (uint i = 0; i < 10; ++i) t += CEC06_G19_A[i * 5 + j] * X(1 + i);
        FP xj = X(11 + j);
        c[j] = -2 * s - 3 * CEC06_G19_D[j] * (xj * xj) - CEC06_G19_E[j] + t;
    }
}

#elif CEC06_ID == 20
// G20 (report 1.20): linear objective, 6 fractional inequalities, 14 equalities. The report's
// best known point is slightly infeasible; no feasible point is known.
__constant FP CEC06_G20_A[12] = {K(0.0693), K(0.0577), K(0.05), K(0.2),  K(0.26), K(0.55),
                                 K(0.06),   K(0.1),    K(0.12), K(0.18), K(0.1),  K(0.09)};
__constant FP CEC06_G20_B[12] = {K(44.094), K(58.12),  K(58.12),   K(137.4),  K(120.9), K(170.9),
                                 K(62.501), K(84.94),  K(133.425), K(82.507), K(46.07), K(60.097)};
__constant FP CEC06_G20_C[12] = {K(123.7), K(31.7), K(45.7), K(14.7), K(84.7),  K(27.7),
                                 K(49.7),  K(7.1),  K(2.1),  K(17.7), K(0.85), K(0.64)};
__constant FP CEC06_G20_D[12] = {K(31.244), K(36.12), K(34.784), K(92.7), K(82.7),   K(91.6),
                                 K(56.708), K(82.7),  K(80.8),   K(64.517), K(49.4), K(49.1)};
__constant FP CEC06_G20_E[6] = {K(0.1), K(0.3), K(0.4), K(0.3), K(0.6), K(0.3)};

// a and b of the report repeat with period 12: a_(i+12) = a_i, b_(i+12) = b_i.
FP objective(CEC06_ARGS)
{
    FP f = (FP)0;
    for (uint i = 0; i < 24; ++i) f += CEC06_G20_A[i % 12] * X(1 + i);
    return f;
}

void constraints(CEC06_ARGS, FP *c)
{
    FP sum = (FP)0, lo = (FP)0, hi = (FP)0, ld = (FP)0;
    for (uint i = 0; i < 24; ++i) sum += X(1 + i);
    for (uint i = 0; i < 12; ++i) {
        lo += X(1 + i) / CEC06_G20_B[i];
        hi += X(13 + i) / CEC06_G20_B[i];
        ld += X(1 + i) / CEC06_G20_D[i];
    }
    for (uint i = 0; i < 3; ++i) {
        c[i] = (X(1 + i) + X(13 + i)) / (sum + CEC06_G20_E[i]);
        c[i + 3] = (X(7 + i) + X(19 + i)) / (sum + CEC06_G20_E[i + 3]);
    }
    for (uint i = 0; i < 12; ++i)
        c[6 + i] = X(13 + i) / (CEC06_G20_B[i] * hi) -
                   CEC06_G20_C[i] * X(1 + i) / (40 * CEC06_G20_B[i] * lo);
    c[18] = sum - 1;
    c[19] = ld + K(0.7302) * 530 * (K(14.7) / 40) * hi - K(1.671);
}

#elif CEC06_ID == 21
// G21 (report 1.21): linear objective, one inequality, 5 equalities (2 bilinear, 3 with logs).
FP objective(CEC06_ARGS)
{
    return X(1);
}

void constraints(CEC06_ARGS, FP *c)
{
    c[0] = -X(1) + 35 * pow(X(2), K(0.6)) + 35 * pow(X(3), K(0.6));
    c[1] = -300 * X(3) + 7500 * X(5) - 7500 * X(6) - 25 * (X(4) * X(5)) + 25 * (X(4) * X(6)) +
           X(3) * X(4);
    c[2] = 100 * X(2) + K(155.365) * X(4) + 2500 * X(7) - X(2) * X(4) - 25 * (X(4) * X(7)) -
           K(15536.5);
    c[3] = -X(5) + log(-X(4) + 900);
    c[4] = -X(6) + log(X(4) + 300);
    c[5] = -X(7) + log(-2 * X(4) + 700);
}

#elif CEC06_ID == 22
// G22 (report 1.22): linear objective, one inequality, 19 equalities.
FP objective(CEC06_ARGS)
{
    return X(1);
}

void constraints(CEC06_ARGS, FP *c)
{
    c[0] = -X(1) + pow(X(2), K(0.6)) + pow(X(3), K(0.6)) + pow(X(4), K(0.6));
    c[1] = X(5) - 100000 * X(8) + 10000000;
    c[2] = X(6) + 100000 * X(8) - 100000 * X(9);
    c[3] = X(7) + 100000 * X(9) - 50000000;
    c[4] = X(5) + 100000 * X(10) - 33000000;
    c[5] = X(6) + 100000 * X(11) - 44000000;
    c[6] = X(7) + 100000 * X(12) - 66000000;
    c[7] = X(5) - 120 * X(2) * X(13);
    c[8] = X(6) - 80 * X(3) * X(14);
    c[9] = X(7) - 40 * X(4) * X(15);
    c[10] = X(8) - X(11) + X(16);
    c[11] = X(9) - X(12) + X(17);
    c[12] = -X(18) + log(X(10) - 100);
    c[13] = -X(19) + log(-X(8) + 300);
    c[14] = -X(20) + log(X(16));
    c[15] = -X(21) + log(-X(9) + 400);
    c[16] = -X(22) + log(X(17));
    c[17] = -X(8) - X(10) + X(13) * X(18) - X(13) * X(19) + 400;
    c[18] = X(8) - X(9) - X(11) + X(14) * X(20) - X(14) * X(21) + 400;
    c[19] = X(9) - X(12) - K(4.60517) * X(15) + X(15) * X(22) + 100;
}

#elif CEC06_ID == 23
// G23 (report 1.23): linear objective, 2 bilinear inequalities, 4 equalities (a pooling
// problem).
FP objective(CEC06_ARGS)
{
    return -9 * X(5) - 15 * X(8) + 6 * X(1) + 16 * X(2) + 10 * (X(6) + X(7));
}

void constraints(CEC06_ARGS, FP *c)
{
    c[0] = X(9) * X(3) + K(0.02) * X(6) - K(0.025) * X(5);
    c[1] = X(9) * X(4) + K(0.02) * X(7) - K(0.015) * X(8);
    c[2] = X(1) + X(2) - X(3) - X(4);
    c[3] = K(0.03) * X(1) + K(0.01) * X(2) - X(9) * (X(3) + X(4));
    c[4] = X(3) + X(6) - X(5);
    c[5] = X(4) + X(7) - X(8);
}

#elif CEC06_ID == 24
// G24 (report 1.24): linear objective, 2 quartic inequalities.
FP objective(CEC06_ARGS)
{
    return -X(1) - X(2);
}

void constraints(CEC06_ARGS, FP *c)
{
    FP a = X(1), a2 = a * a, a3 = a2 * a, a4 = a2 * a2;
    c[0] = -2 * a4 + 8 * a3 - 8 * a2 + X(2) - 2;
    c[1] = -4 * a4 + 32 * a3 - 88 * a2 + 96 * a + X(2) - 36;
}
#endif

// (X is the problems' shorthand only: a program goes on after this file)
#undef X

// ---- the mean violation and the evaluation kernel -----------------------------------------------

// The report's mean violation of constraint values c (CEC06_NG g's, then CEC06_NH h's).
FP cec06_violation(const FP *c)
{
    FP s = (FP)0;
    for (uint i = 0; i < CEC06_NC; ++i) {
        FP v = c[i];
        if (i < CEC06_NG)
            s += v <= 0 ? (FP)0 : v;
        else
            s += fabs(v) <= CEC06_EPS ? (FP)0 : fabs(v);
    }
    return s / CEC06_NC;
}

// Row r of X (rows x dims, row by row): F[r] its objective, V[r] its mean violation; NaN for both
// unless dims is CEC06_DIMS.
__kernel void cec06_eval(__global const FP *X, uint rows, uint dims, __global FP *F,
                         __global FP *V, __global const void *data)
{
    uint r = get_global_id(0);
    if (r >= rows) return;
    if (dims != CEC06_DIMS) {
        F[r] = (FP)NAN;
        V[r] = (FP)NAN;
        return;
    }
    __global const FP *x = X + (size_t)r * dims;
    FP c[CEC06_NC];
    F[r] = objective(x, dims, 1, data);
    constraints(x, dims, 1, data, c);
    V[r] = cec06_violation(c);
}
