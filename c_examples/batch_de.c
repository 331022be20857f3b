/*
 * batch_de: many independent DE problems in one batch through the C API of
 * libmetaopt.so.
 *
 *   batch_de [problems] [generations] [cpu|device]
 *
 * Builds `problems` (default 8) specs: sphere (F1), Rastrigin (F6) and Griewank (F8) in turn, in
 * 4 + i % 5 dimensions, 24 members, F 0.5, CR 0.9, DE/rand/1 (DE/best/1 for every third),
 * saturation (mirror for Griewank), seed 100 + i, the given generation budget (default 200) and
 * a target of 1e-8 for the spheres. Creates the batch (metaopt_batch_de_create), runs it
 * (metaopt_batch_de_run), prints each problem's best value, generations and stop reason, copies
 * each best vector out (metaopt_batch_de_best) and checks it: inside the bounds, and for the
 * spheres worth its reported value. Everything the library returns is freed.
 * Exit status: 0 when every check holds, 1 when a call or a check fails, 2 on a usage error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metaopt.h"

/* Prints a failed call's error and frees its message; returns 1 when `code` is an error. */
static int failed(const char *call, int32_t code, char *message) {
    if (code == METAOPT_OK || code == METAOPT_INTERRUPTED) {
        metaopt_pointer_free(message);
        return 0;
    }
    fprintf(stderr, "%s failed: error %" PRId32 ": %s\n", call, code, message ? message : "(no message)");
    metaopt_pointer_free(message);
    return 1;
}

static int usage(void) {
    fprintf(stderr, "usage: batch_de [problems >= 1] [generations >= 0] [cpu|device]\n");
    return 2;
}

/* A whole number in [lo, hi] from `s`, or -1. */
static long number(const char *s, long lo, long hi) {
    char *end;
    long v = strtol(s, &end, 10);
    return (*s && !*end && v >= lo && v <= hi) ? v : -1;
}

static const char *reason(int32_t r) {
    switch (r) {
    case METAOPT_BATCH_DE_STOP_RUNNING: return "running";
    case METAOPT_BATCH_DE_STOP_TARGET: return "target";
    case METAOPT_BATCH_DE_STOP_BUDGET: return "budget";
    case METAOPT_BATCH_DE_STOP_TIME_LIMIT: return "time_limit";
    case METAOPT_BATCH_DE_STOP_INTERRUPTED: return "interrupted";
    default: return "?";
    }
}

int main(int argc, char **argv) {
    if (argc > 4)
        return usage();
    long count = 8, generations = 200;
    if (argc > 1 && (count = number(argv[1], 1, 100000)) < 0)
        return usage();
    if (argc > 2 && (generations = number(argv[2], 0, 1000000000)) < 0)
        return usage();
    MetaoptBatchDeOptions o = metaopt_batch_de_default_options();
    if (argc > 3) {
        if (strcmp(argv[3], "cpu") == 0)
            o.backend = METAOPT_BACKEND_CPU;
        else if (strcmp(argv[3], "device") != 0)
            return usage();
    }
    static const char *const names[3] = {"F1", "F6", "F8"};
    static const double widths[3] = {5.12, 5.12, 600.0};
    MetaoptBatchDeProblem *specs = calloc((size_t)count, sizeof *specs);
    double *lower = calloc((size_t)count, sizeof *lower);
    double *upper = calloc((size_t)count, sizeof *upper);
    if (!specs || !lower || !upper) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (long i = 0; i < count; i++) {
        MetaoptBatchDeProblem p = metaopt_batch_de_default_problem();
        int k = (int)(i % 3);
        lower[i] = -widths[k];
        upper[i] = widths[k];
        p.function = names[k];
        p.dims = (uint32_t)(4 + i % 5);
        p.lower = &lower[i];
        p.lower_length = 1;
        p.upper = &upper[i];
        p.upper_length = 1;
        p.members = 24;
        p.mutation = i % 3 == 2 ? "DE/best/1" : "DE/rand/1";
        p.bounds = k == 2 ? "mir" : "sat";
        p.seed = (uint64_t)(100 + i);
        p.max_generations = (uint64_t)generations;
        if (k == 0) {
            p.has_target = 1;
            p.target = 1e-8;
        }
        specs[i] = p;
    }
    int status = 0;
    MetaoptBatchDeCreateResult c = metaopt_batch_de_create(specs, (uint32_t)count, &o);
    if (failed("metaopt_batch_de_create", c.error_code, c.error_message)) {
        status = 1;
        goto out;
    }
    MetaoptBatchDeRunResult r = metaopt_batch_de_run(c.instance, NULL);
    if (failed("metaopt_batch_de_run", r.error_code, r.error_message)) {
        status = 1;
        goto free_batch;
    }
    r.error_message = NULL;
    printf("backend: %s, %s precision, %.3f s\n", o.backend == METAOPT_BACKEND_CPU ? "CPU" : "device",
           r.precision == 2 ? "double" : "single", r.seconds);
    for (uint32_t i = 0; i < r.count; i++) {
        double best[16];
        MetaoptInt32Result d = metaopt_batch_de_best(c.instance, i, best, 16);
        if (failed("metaopt_batch_de_best", d.error_code, d.error_message)) {
            status = 1;
            break;
        }
        printf("problem %" PRIu32 ": %s dims %" PRId32 " best %.10g generations %" PRIu64 " stop %s x", i, specs[i].function,
               d.result, r.best_value[i], r.generations[i], reason(r.stop_reason[i]));
        double sum = 0.0;
        for (int32_t n = 0; n < d.result; n++) {
            printf(" %.6g", best[n]);
            sum += best[n] * best[n];
            if (best[n] < lower[i] || best[n] > upper[i]) {
                fprintf(stderr, "problem %" PRIu32 ": x[%" PRId32 "] = %g outside the bounds\n", i, n, best[n]);
                status = 1;
            }
        }
        printf("\n");
        double diff = sum > r.best_value[i] ? sum - r.best_value[i] : r.best_value[i] - sum;
        if (i % 3 == 0 && diff > 1e-9 * (1.0 + sum)) {
            fprintf(stderr, "problem %" PRIu32 ": the vector is worth %g, reported %g\n", i, sum, r.best_value[i]);
            status = 1;
        }
    }
    /* a buffer too short is an error naming it */
    double one;
    MetaoptInt32Result e = metaopt_batch_de_best(c.instance, 0, &one, 1);
    if (e.error_code != METAOPT_ERR_INVALID_ARGUMENT || !e.error_message || !strstr(e.error_message, "out_length")) {
        fprintf(stderr, "a short buffer should be refused naming out_length\n");
        status = 1;
    }
    metaopt_pointer_free(e.error_message);
    printf("checked: %s\n", status == 0 ? "ok" : "FAILED");
    metaopt_batch_de_free_run_result(&r);
free_batch:
    metaopt_batch_de_free(c.instance);
out:
    free(specs);
    free(lower);
    free(upper);
    return status;
}
