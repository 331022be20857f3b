/*
 * qap_solve: solves a QAPLIB instance through the C API of libmetaopt.so.
 *
 *   qap_solve FILE.dat [swaps] [runs] [seed]
 *
 * Lists the device in use, shows one error path, makes an instance from the file, does one HC12
 * run from the identity permutation, then the iterated solve, and prints the best cost, the gap
 * to the best-known value (when a BKS.csv beside the file lists the instance), the permutation
 * (1-based) and the time. Everything the library returns is freed. Exit status: 0 on success,
 * 1 when a call fails, 2 on a usage error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "metaopt.h"

/* Prints a failed call's error and frees its message; returns 1 when `code` is an error. */
static int failed(const char *call, int32_t code, char *message) {
    if (code == METAOPT_OK) {
        return 0;
    }
    fprintf(stderr, "%s failed: error %" PRId32 ": %s\n", call, code, message ? message : "(no message)");
    metaopt_pointer_free(message);
    return 1;
}

/* Prints the cost held in the field that `result_type` names. */
static void print_cost(int32_t result_type, int64_t f_t1, uint64_t f_t2, float f_t3, double f_t4) {
    switch (result_type) {
    case METAOPT_QAP_RESULT_INT64: printf("%" PRId64, f_t1); break;
    case METAOPT_QAP_RESULT_UINT64: printf("%" PRIu64, f_t2); break;
    case METAOPT_QAP_RESULT_FLOAT: printf("%g", (double)f_t3); break;
    case METAOPT_QAP_RESULT_DOUBLE: printf("%g", f_t4); break;
    default: printf("(no cost)"); break;
    }
}

/* Parses a whole decimal argument into [min, max]; returns 0 on success. */
static int parse_arg(const char *s, unsigned long long min, unsigned long long max, unsigned long long *out) {
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || v < min || v > max) {
        return 1;
    }
    *out = v;
    return 0;
}

/* The device in use, one line. */
static int print_device(void) {
    MetaoptInt32Result dev = metaopt_device_get_number();
    if (failed("metaopt_device_get_number", dev.error_code, dev.error_message)) {
        return 1;
    }
    MetaoptDeviceInfo info;
    MetaoptInt32Result r = metaopt_device_info(dev.result, &info);
    if (failed("metaopt_device_info", r.error_code, r.error_message)) {
        return 1;
    }
    static const char *kinds[] = {"GPU", "accelerator", "CPU", "other"};
    printf("device %" PRId32 ": %s (%s, %s, %" PRIu32 " compute units)\n", info.index, info.name,
           info.platform, kinds[info.kind >= 0 && info.kind <= 3 ? info.kind : 3], info.compute_units);
    metaopt_device_free_info(&info);
    return 0;
}

/* An error path: a NULL matrix must give METAOPT_ERR_NULL_POINTER and no instance. */
static int show_error_path(void) {
    MetaoptQapParamsResult bad = metaopt_qap_params(2, 12, 1, NULL, "int64", 2, 0, 0);
    printf("error path: metaopt_qap_params(DF = NULL) -> error %" PRId32 ": %s\n", bad.error_code,
           bad.error_message ? bad.error_message : "(no message)");
    int ok = bad.error_code == METAOPT_ERR_NULL_POINTER && bad.instance == NULL;
    metaopt_pointer_free(bad.error_message);
    metaopt_qap_free(bad.instance); /* NULL: a no-op */
    if (!ok) {
        fprintf(stderr, "expected METAOPT_ERR_NULL_POINTER (%d)\n", METAOPT_ERR_NULL_POINTER);
    }
    return !ok;
}

static int solve(MetaoptQapInstance *h, uint32_t runs, uint64_t seed) {
    MetaoptQapInfo pi;
    MetaoptInt32Result r = metaopt_qap_info(h, &pi);
    if (failed("metaopt_qap_info", r.error_code, r.error_message)) {
        return 1;
    }
    printf("instance: n = %" PRIu32 ", %" PRIu32 " swaps, %" PRIu64 " rows per iteration\n", pi.n_elements,
           pi.swaps, pi.rows);

    MetaoptQapRunResult run = metaopt_qap_run(h, NULL, NULL);
    if (failed("metaopt_qap_run", run.error_code, run.error_message)) {
        return 1;
    }
    printf("run from identity: cost ");
    print_cost(run.result_type, run.f_t1, run.f_t2, run.f_t3, run.f_t4);
    printf(" after %" PRIu32 " iterations\n", run.lastIteration);
    metaopt_qap_free_run_result(&run);

    MetaoptQapSolveOptions opts = metaopt_qap_default_solve_options();
    opts.runs = runs;
    opts.seed = seed;
    MetaoptQapSolveResult s = metaopt_qap_solve(h, &opts);
    if (failed("metaopt_qap_solve", s.error_code, s.error_message)) {
        return 1;
    }
    printf("solve: %" PRIu32 " runs, %" PRIu64 " iterations, best cost ", s.runs, s.iterations);
    print_cost(s.result_type, s.f_t1, s.f_t2, s.f_t3, s.f_t4);
    if (s.has_bks) {
        printf(", BKS %" PRId64 ", gap %.3f%%", s.bks, s.gap_percent);
    }
    printf("\npermutation (1-based):");
    for (uint32_t i = 0; i < s.permutation_length; i++) {
        printf(" %u", (unsigned)s.permutation[i] + 1);
    }
    printf("\ntime: %.3f s (best found after %.3f s)\n", s.seconds, s.seconds_to_best);
    metaopt_qap_free_solve_result(&s);
    return 0;
}

int main(int argc, char **argv) {
    unsigned long long swaps = 4, runs = 10, seed = 1;
    if (argc < 2 || argc > 5 || (argc > 2 && parse_arg(argv[2], 1, 64, &swaps)) ||
        (argc > 3 && parse_arg(argv[3], 1, UINT32_MAX, &runs)) ||
        (argc > 4 && parse_arg(argv[4], 0, UINT64_MAX, &seed))) {
        fprintf(stderr, "usage: %s FILE.dat [swaps 1..64 (4)] [runs >= 1 (10)] [seed (1)]\n", argv[0]);
        return 2;
    }
    if (print_device() || show_error_path()) {
        return 1;
    }
    MetaoptQapParamsResult p = metaopt_qap_params_from_file(argv[1], (uint32_t)swaps, 2, 0, 0);
    if (failed("metaopt_qap_params_from_file", p.error_code, p.error_message)) {
        return 1;
    }
    printf("file: %s\n", argv[1]);
    int status = solve(p.instance, (uint32_t)runs, (uint64_t)seed);
    metaopt_qap_free(p.instance);
    return status;
}
