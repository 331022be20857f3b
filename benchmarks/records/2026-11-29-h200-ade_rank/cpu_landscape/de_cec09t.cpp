// DE/rand/1/bin on CEC 2019 F9 (reference code), one population; prints best f-1 over time.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#define _MAIN
#include "cec19_func.h"
static uint64_t st;
static inline double U() { uint64_t z = (st += 0x9e3779b97f4a7c15ull); z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull; z = (z ^ (z >> 27)) * 0x94d049bb133111ebull; z ^= z >> 31; return (double)(z >> 11) * 0x1.0p-53; }
int main(int argc, char **argv) {
  int np = atoi(argv[1]); double F = atof(argv[2]), CR = atof(argv[3]); double maxfe = atof(argv[4]); st = atoll(argv[5]);
  int fn = argc > 6 ? atoi(argv[6]) : 9;
  set_dir_path("/work/main/data/cec2019");
  const int D = 10; double *X = (double*)malloc(np*D*8), *fx = (double*)malloc(np*8), u[10];
  for (int i = 0; i < np; ++i) { for (int j = 0; j < D; ++j) X[i*D+j] = -100 + 200*U(); cec19_test_func(&X[i*D], &fx[i], D, 1, fn); }
  double best = 1e300; long fe = np; double next = 1e6;
  while (fe < maxfe) {
    for (int i = 0; i < np; ++i) {
      int a, b, c; do a = U()*np; while (a == i); do b = U()*np; while (b == i || b == a); do c = U()*np; while (c == i || c == a || c == b);
      int jr = U()*D;
      for (int j = 0; j < D; ++j) {
        double v = (j == jr || U() < CR) ? X[a*D+j] + F*(X[b*D+j]-X[c*D+j]) : X[i*D+j];
        if (v < -100 || v > 100) v = -100 + 200*U();
        u[j] = v;
      }
      double f; cec19_test_func(u, &f, D, 1, fn); ++fe;
      if (f <= fx[i]) { fx[i] = f; for (int j = 0; j < D; ++j) X[i*D+j] = u[j]; }
      if (f < best) best = f;
    }
    if (fe >= next) { double lo = 1e300, hi = -1e300; for (int i = 0; i < np; ++i) { lo = fmin(lo, fx[i]); hi = fmax(hi, fx[i]); }
      printf("%.3g fe  best-1 %.3e  pop range %.3e\n", (double)fe, best - 1, hi - lo); fflush(stdout); next *= 2; }
  }
  printf("final best-1 %.6e\n", best - 1);
}
