/*
 * qap_ts: solves a QAPLIB instance with the robust tabu search through the C API of
 * libmetaopt.so (metaopt_qap_ts_*).
 *
 *   qap_ts FILE.dat [chains] [time_limit_s] [cpu|device]
 *
 * Makes an instance from the file (metaopt_qap_params_from_file; the HC12 settings do not matter
 * to the tabu search), picks the backend (the CPU unless `device` is given), shows one error path
 * (launch_iterations = 0), then solves until the best-known value (when a BKS.csv beside the file
 * lists the instance) or the time limit, and prints the best cost, the gap, the permutation
 * (1-based), the counts and the time. Everything the library returns is freed. Exit status: 0 on success, 1 when
 * a call fails, 2 on a usage error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int solve(MetaoptQapInstance *h, uint32_t chains, double time_limit_s) {
    /* an error path: the error names the option */
    MetaoptQapTsOptions opts = metaopt_qap_ts_default_options();
    opts.launch_iterations = 0;
    MetaoptQapTsSolveResult bad = metaopt_qap_ts_solve(h, &opts);
    printf("error path: launch_iterations = 0 -> error %" PRId32 ": %s\n", bad.error_code,
           bad.error_message ? bad.error_message : "(no message)");
    int ok = bad.error_code == METAOPT_ERR_INVALID_ARGUMENT;
    metaopt_qap_ts_free_solve_result(&bad);
    if (!ok) {
        fprintf(stderr, "expected METAOPT_ERR_INVALID_ARGUMENT (%d)\n", METAOPT_ERR_INVALID_ARGUMENT);
        return 1;
    }

    opts = metaopt_qap_ts_default_options();
    opts.chains = chains;
    opts.max_iterations = 0; /* no count: the time limit or the target ends the solve */
    opts.time_limit_s = time_limit_s;
    /* a first solve tells the best-known value; stop at it */
    MetaoptQapTsOptions probe = opts;
    probe.max_iterations = 1;
    probe.launch_iterations = 1;
    MetaoptQapTsSolveResult p = metaopt_qap_ts_solve(h, &probe);
    if (failed("metaopt_qap_ts_solve", p.error_code, p.error_message)) {
        return 1;
    }
    if (p.has_bks) {
        opts.has_target = 1;
        opts.target = (double)p.bks;
    }
    metaopt_qap_ts_free_solve_result(&p);

    MetaoptQapTsSolveResult s = metaopt_qap_ts_solve(h, &opts);
    if (failed("metaopt_qap_ts_solve", s.error_code, s.error_message)) {
        return 1;
    }
    printf("backend: %s\n", s.backend);
    printf("tabu search: %" PRIu32 " chains, %" PRIu64 " iterations per chain, %" PRIu64 " restarts, best cost ",
           s.chains, s.iterations, s.restarts);
    switch (s.result_type) {
    case METAOPT_QAP_RESULT_INT64: printf("%" PRId64, s.f_t1); break;
    case METAOPT_QAP_RESULT_UINT64: printf("%" PRIu64, s.f_t2); break;
    case METAOPT_QAP_RESULT_FLOAT: printf("%g", (double)s.f_t3); break;
    default: printf("%g", s.f_t4); break;
    }
    if (s.has_bks) {
        printf(", BKS %" PRId64 ", gap %.3f%%%s", s.bks, s.gap_percent, s.target_reached ? " (reached)" : "");
    }
    printf("\npermutation (1-based):");
    for (uint32_t i = 0; i < s.permutation_length; i++) {
        printf(" %u", (unsigned)s.permutation[i] + 1);
    }
    printf("\ntime: %.3f s (best found after %.3f s)\n", s.seconds, s.seconds_to_best);
    metaopt_qap_ts_free_solve_result(&s);
    return 0;
}

int main(int argc, char **argv) {
    unsigned long chains = 8;
    double time_limit_s = 10;
    int device = 0;
    char *end = NULL;
    int usage = argc < 2 || argc > 5;
    if (!usage && argc > 2) {
        errno = 0;
        chains = strtoul(argv[2], &end, 10);
        usage |= errno != 0 || *end != '\0' || argv[2][0] == '-' || chains < 1 || chains > 1048576;
    }
    if (!usage && argc > 3) {
        time_limit_s = strtod(argv[3], &end);
        usage |= *end != '\0' || !(time_limit_s > 0);
    }
    if (!usage && argc > 4) {
        device = strcmp(argv[4], "device") == 0;
        usage |= !device && strcmp(argv[4], "cpu") != 0;
    }
    if (usage) {
        fprintf(stderr, "usage: %s FILE.dat [chains (8)] [time_limit_s (10)] [cpu|device (cpu)]\n", argv[0]);
        return 2;
    }
    MetaoptQapParamsResult p = metaopt_qap_params_from_file(argv[1], 2, 2, 0, 0);
    if (failed("metaopt_qap_params_from_file", p.error_code, p.error_message)) {
        return 1;
    }
    MetaoptInt32Result b = metaopt_qap_set_backend(p.instance, device ? METAOPT_BACKEND_DEVICE : METAOPT_BACKEND_CPU,
                                                   METAOPT_QAP_COST_DELTA);
    int status = failed("metaopt_qap_set_backend", b.error_code, b.error_message);
    if (!status) {
        printf("file: %s\n", argv[1]);
        status = solve(p.instance, (uint32_t)chains, time_limit_s);
    }
    metaopt_qap_free(p.instance);
    return status;
}
