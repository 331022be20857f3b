/*
 * bh: basin hopping through the C API of libmetaopt.so, with a saved state that continues the
 * solve exactly.
 *
 *   bh [function] [dims] [steps] [cpu|device]
 *
 * Makes 256 chains (metaopt_bh_create) over the catalogue function's box (default Rastrigin, F6,
 * on [-5.12, 5.12] in 5 dimensions), starts them at 3.5 in every dimension (metaopt_bh_start),
 * solves half the steps (default 12000), saves the state (metaopt_bh_save_state) and solves on to
 * all the steps; then a second instance loads the saved state (metaopt_bh_load_state) and solves
 * to the same steps. Prints the best value, the point, the steps, evaluations and stop reason of
 * each, and checks that the second ends exactly where the first did, that the best point lies in
 * the box and that the value is the function's at the point (metaopt_function_evaluate).
 * Everything the library returns is freed.
 * Exit status: 0 when every check holds, 1 when a call or a check fails, 2 on a usage error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metaopt.h"

/* Prints a failed call's error and frees its message; returns 1 when `code` is an error. */
static int failed(const char *call, int32_t code, char *message) {
    if (code == METAOPT_OK) {
        metaopt_pointer_free(message);
        return 0;
    }
    fprintf(stderr, "%s failed: error %" PRId32 ": %s\n", call, code, message ? message : "(no message)");
    metaopt_pointer_free(message);
    return 1;
}

static int usage(void) {
    fprintf(stderr, "usage: bh [function] [dims >= 1] [steps >= 2] [cpu|device]\n");
    return 2;
}

/* A whole number in [lo, hi] from `s`, or -1. */
static long number(const char *s, long lo, long hi) {
    char *end;
    long v = strtol(s, &end, 10);
    return (*s && !*end && v >= lo && v <= hi) ? v : -1;
}

/* Solves `h` to `steps` steps of every chain; prints the result as `label` and keeps its value
 * and point (dims values) in *value and x. Returns 1 on an error. */
static int solve(MetaoptBhInstance *h, uint64_t steps, const char *label, uint32_t dims, double *value, double *x) {
    MetaoptBhStop s = metaopt_bh_default_stop();
    s.steps = steps;
    MetaoptBhSolveResult r = metaopt_bh_solve(h, &s);
    if (failed("metaopt_bh_solve", r.error_code, r.error_message)) {
        r.error_message = NULL;
        metaopt_bh_free_solve_result(&r);
        return 1;
    }
    r.error_message = NULL;
    printf("%s: best %.17g steps %" PRIu64 " evaluations %" PRIu64 " stop %s x", label, r.value, r.steps,
           r.evaluations, metaopt_stop_reason_word(r.stop_reason));
    for (uint32_t j = 0; j < r.dims; ++j)
        printf(" %.17g", r.x[j]);
    printf("\n");
    *value = r.value;
    if (r.dims == dims)
        memcpy(x, r.x, dims * sizeof *x);
    int bad = r.dims != dims;
    metaopt_bh_free_solve_result(&r);
    return bad;
}

int main(int argc, char **argv) {
    if (argc > 5)
        return usage();
    const char *function = argc > 1 ? argv[1] : "F6";
    long dims = 5, steps = 12000;
    if (argc > 2 && (dims = number(argv[2], 1, 1000)) < 0)
        return usage();
    if (argc > 3 && (steps = number(argv[3], 2, 1000000000)) < 0)
        return usage();
    MetaoptBhOptions o = metaopt_bh_default_options();
    o.chains = 256;
    o.max_search = 500;
    o.hop_max = 0.2; /* hops up to a fifth of the box: Rastrigin's basins are a unit apart */
    o.seed = 11;
    if (argc > 4) {
        if (strcmp(argv[4], "cpu") == 0)
            o.backend = METAOPT_BACKEND_CPU;
        else if (strcmp(argv[4], "device") != 0)
            return usage();
    }
    double *lo = malloc((size_t)dims * sizeof *lo), *hi = malloc((size_t)dims * sizeof *hi);
    double *x0 = malloc((size_t)dims * sizeof *x0), *x = malloc((size_t)dims * sizeof *x);
    double *x2 = malloc((size_t)dims * sizeof *x2);
    if (!lo || !hi || !x0 || !x || !x2) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (long j = 0; j < dims; ++j)
        lo[j] = -5.12, hi[j] = 5.12, x0[j] = 3.5;
    MetaoptObjective f = {METAOPT_OBJECTIVE_CATALOGUE, function, NULL, NULL, NULL};
    int bad = 0;
    MetaoptBhInstance *a = NULL, *b = NULL;
    MetaoptBytesResult st = {0};
    MetaoptBhCreateResult c = metaopt_bh_create(&f, lo, hi, (uint32_t)dims, NULL, 0, &o);
    if (failed("metaopt_bh_create", c.error_code, c.error_message)) {
        bad = 1;
        goto done;
    }
    a = c.instance;
    MetaoptStringResult info = metaopt_bh_info(a);
    if (!failed("metaopt_bh_info", info.error_code, info.error_message))
        printf("%s", info.text);
    metaopt_pointer_free(info.text);
    MetaoptInt32Result sr = metaopt_bh_start(a, x0, (uint32_t)dims);
    double value, value2, half;
    if (failed("metaopt_bh_start", sr.error_code, sr.error_message) ||
        solve(a, (uint64_t)steps / 2, "half", (uint32_t)dims, &half, x)) {
        bad = 1;
        goto done;
    }
    st = metaopt_bh_save_state(a);
    if (failed("metaopt_bh_save_state", st.error_code, st.error_message)) {
        st.error_message = NULL;
        bad = 1;
        goto done;
    }
    st.error_message = NULL;
    if (solve(a, (uint64_t)steps, "whole", (uint32_t)dims, &value, x)) {
        bad = 1;
        goto done;
    }
    c = metaopt_bh_create(&f, lo, hi, (uint32_t)dims, NULL, 0, &o);
    if (failed("metaopt_bh_create", c.error_code, c.error_message)) {
        bad = 1;
        goto done;
    }
    b = c.instance;
    sr = metaopt_bh_load_state(b, st.data, st.length);
    if (failed("metaopt_bh_load_state", sr.error_code, sr.error_message) ||
        solve(b, (uint64_t)steps, "resumed", (uint32_t)dims, &value2, x2)) {
        bad = 1;
        goto done;
    }
    int ok = value == value2 && memcmp(x, x2, (size_t)dims * sizeof *x) == 0 && value <= half;
    if (!ok)
        fprintf(stderr, "check: the resumed solve ended at %.17g, the whole one at %.17g\n", value2, value);
    for (long j = 0; j < dims; ++j)
        if (!(x[j] >= lo[j] && x[j] <= hi[j])) {
            fprintf(stderr, "check: x[%ld] = %g is outside the box\n", j, x[j]);
            ok = 0;
        }
    /* the value is the function's at the point (the CPU evaluates in double) */
    MetaoptDoubleArrayResult fv = metaopt_function_evaluate(function, x, 1, (uint32_t)dims, METAOPT_BACKEND_CPU, 0);
    if (failed("metaopt_function_evaluate", fv.error_code, fv.error_message)) {
        fv.error_message = NULL;
        ok = 0;
    } else if (!(fv.values[0] - value <= 1e-9 * (value > 1.0 ? value : 1.0) &&
                 value - fv.values[0] <= 1e-9 * (value > 1.0 ? value : 1.0))) {
        fprintf(stderr, "check: f(x) = %.17g, the solve said %.17g\n", fv.values[0], value);
        ok = 0;
    }
    fv.error_message = NULL;
    metaopt_double_array_free_result(&fv);
    printf("checked: %s\n", ok ? "ok" : "FAILED");
    bad = !ok;
done:
    metaopt_bytes_free_result(&st);
    metaopt_bh_free(a);
    metaopt_bh_free(b);
    free(lo), free(hi), free(x0), free(x), free(x2);
    return bad;
}
