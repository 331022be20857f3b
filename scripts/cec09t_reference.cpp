// Writes tests/fixtures/cec09t_reference.txt: points x in 10 dimensions and the value of CEC 2019
// F9 (CEC09t) there as the challenge's reference code computes it. That code is not bundled: build
// this against cec19_func.cpp and cec19_func.h of dmolina/cec2019comp100digit (MIT; commit
// 460ac41, directory cec2019comp100digit/), on x86-64 without FMA contraction:
//
//   g++ -O2 -ffp-contract=off -I REF scripts/cec09t_reference.cpp REF/cec19_func.cpp -o gen
//   ./gen data/cec2019 > tests/fixtures/cec09t_reference.txt
//
// Three kinds of point, 100 + 100 + 300, from a fixed splitmix64 stream:
// - uniform over the domain [-100, 100]^10;
// - x = o + t u, u uniform in [-1, 1]^10, t log-uniform in [1e-12, 1e-1];
// - near the sphere |z - 1|^2 = 10 through the optimum (z = M (x - o) / 20): w = sqrt(10) (v / |v|)
//   with v = -1 + e g, g uniform in [-1, 1]^10 and e log-uniform in [1e-10, 1e-6]; z = w + 1,
//   x = o + 20 M^-1 z (Gaussian elimination with partial pivoting). These land on the shell where
//   the reference rounds r2 - 10 to 0, or next to it.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#define _MAIN // this file defines the reference code's globals
#include "cec19_func.h"

static uint64_t state = 20191009u;
static double uniform() // [0, 1)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}
static double log_uniform(double lo, double hi) { return exp(log(lo) + (log(hi) - log(lo)) * uniform()); }

static void load(const char *path, double *v, int n)
{
    FILE *f = fopen(path, "r");
    if (!f) { fprintf(stderr, "cannot open %s\n", path); exit(1); }
    for (int i = 0; i < n; ++i)
        if (fscanf(f, "%lf", &v[i]) != 1) { fprintf(stderr, "short %s\n", path); exit(1); }
    fclose(f);
}

static void emit(double *x)
{
    double f;
    cec19_test_func(x, &f, 10, 1, 9);
    for (int j = 0; j < 10; ++j) printf("%.17g ", x[j]);
    printf("%.17g\n", f);
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]); return 2; }
    set_dir_path(argv[1]);
    char path[1024];
    double o[10], m[100], x[10];
    snprintf(path, sizeof path, "%s/shift_data_9.txt", argv[1]);
    load(path, o, 10);
    snprintf(path, sizeof path, "%s/M_9_D10.txt", argv[1]);
    load(path, m, 100);
    for (int k = 0; k < 100; ++k) {
        for (int j = 0; j < 10; ++j) x[j] = -100.0 + 200.0 * uniform();
        emit(x);
    }
    for (int k = 0; k < 100; ++k) {
        double t = log_uniform(1e-12, 1e-1);
        for (int j = 0; j < 10; ++j) x[j] = o[j] + t * (2.0 * uniform() - 1.0);
        emit(x);
    }
    for (int k = 0; k < 300; ++k) {
        double e = log_uniform(1e-10, 1e-6), v[10], n = 0.0;
        for (int j = 0; j < 10; ++j) { v[j] = -1.0 + e * (2.0 * uniform() - 1.0); n += v[j] * v[j]; }
        double a[10][11];
        for (int i = 0; i < 10; ++i) {
            for (int j = 0; j < 10; ++j) a[i][j] = m[i * 10 + j];
            a[i][10] = sqrt(10.0) * v[i] / sqrt(n) + 1.0; // z_i
        }
        for (int c = 0; c < 10; ++c) {
            int p = c;
            for (int r = c + 1; r < 10; ++r) if (fabs(a[r][c]) > fabs(a[p][c])) p = r;
            for (int j = 0; j < 11; ++j) { double s = a[c][j]; a[c][j] = a[p][j]; a[p][j] = s; }
            for (int r = c + 1; r < 10; ++r) {
                double q = a[r][c] / a[c][c];
                for (int j = c; j < 11; ++j) a[r][j] -= q * a[c][j];
            }
        }
        double y[10];
        for (int i = 9; i >= 0; --i) {
            double s = a[i][10];
            for (int j = i + 1; j < 10; ++j) s -= a[i][j] * y[j];
            y[i] = s / a[i][i];
        }
        for (int j = 0; j < 10; ++j) x[j] = o[j] + 20.0 * y[j];
        emit(x);
    }
    return 0;
}
