/*
 * qiga: solves a 0/1 knapsack instance with QIGA (docs/specs/QIGA.md) through the C API of
 * libmetaopt.so.
 *
 *   qiga FILE [populations] [generations] [cpu|device]
 *
 * Reads the instance (metaopt_knapsack_from_file), asks for its exact optimum
 * (metaopt_knapsack_optimum; an instance beyond the exact solver says so and goes on), runs
 * QIGA's populations (metaopt_qiga_run; default 100 populations of 10 individuals, 500
 * generations, the device in use), prints the statistics of the populations' best values and
 * the best item set, and verifies it twice: with the library's evaluation
 * (metaopt_knapsack_evaluate) and by summing the instance's data (metaopt_knapsack_data) here.
 * Everything the library returns is freed.
 * Exit status: 0 when the best item set fits and is worth its reported value, 1 when a call or
 * the verification fails, 2 on a usage error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metaopt.h"

/* Prints a failed call's error and frees its message; returns 1 when `code` is an error. */
static int failed(const char *call, int32_t code, char *message) {
    if (code == METAOPT_OK)
        return 0;
    fprintf(stderr, "%s failed: error %" PRId32 ": %s\n", call, code, message ? message : "(no message)");
    metaopt_pointer_free(message);
    return 1;
}

static int usage(void) {
    fprintf(stderr, "usage: qiga FILE [populations >= 1] [generations >= 0] [cpu|device]\n");
    return 2;
}

/* A whole number in [lo, hi] from `s`, or -1. */
static long number(const char *s, long lo, long hi) {
    char *end;
    long v = strtol(s, &end, 10);
    return (*s && !*end && v >= lo && v <= hi) ? v : -1;
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 5)
        return usage();
    MetaoptQigaOptions o = metaopt_qiga_default_options();
    o.populations = 100;
    if (argc > 2 && (o.populations = (uint32_t)number(argv[2], 1, 1000000)) == (uint32_t)-1)
        return usage();
    if (argc > 3) {
        long g = number(argv[3], 0, 1000000);
        if (g < 0)
            return usage();
        o.generations = (uint32_t)g;
    }
    if (argc > 4) {
        if (strcmp(argv[4], "cpu") == 0)
            o.backend = METAOPT_BACKEND_CPU;
        else if (strcmp(argv[4], "device") != 0)
            return usage();
    }

    MetaoptKnapsackResult k = metaopt_knapsack_from_file(argv[1]);
    if (failed("metaopt_knapsack_from_file", k.error_code, k.error_message))
        return 1;
    MetaoptKnapsackData d = metaopt_knapsack_data(k.knapsack);
    if (failed("metaopt_knapsack_data", d.error_code, d.error_message)) {
        metaopt_knapsack_free(k.knapsack);
        return 1;
    }
    printf("instance: %s, %" PRIu32 " items, capacity %.6f\n", d.name, d.n, d.capacity);

    double optimum = -1; /* not known */
    MetaoptKnapsackOptimumResult opt = metaopt_knapsack_optimum(k.knapsack);
    if (opt.error_code == METAOPT_OK) {
        optimum = opt.value;
        printf("optimum: %.6f (%" PRIu32 " items, weight %.6f)\n", opt.value, opt.items_taken, opt.weight);
    } else {
        printf("optimum: not known (%s)\n", opt.error_message ? opt.error_message : "error");
    }
    metaopt_knapsack_free_optimum_result(&opt);

    MetaoptQigaRunResult r = metaopt_qiga_run(k.knapsack, &o);
    int status = 0;
    if (failed("metaopt_qiga_run", r.error_code, r.error_message)) {
        r.error_message = NULL;
        status = 1;
    } else if (r.count == 0) {
        fprintf(stderr, "no population ran\n");
        status = 1;
    } else {
        printf("backend: %s\n", r.backend);
        printf("populations: %" PRIu32 " in %.2f s (%.1f per second), stopped by %d\n", r.count, r.elapsed_s,
               r.runs_per_second, r.stop_reason);
        printf("best values: mean %.6f, variance %.6f, median %.6f, min %.6f, max %.6f\n", r.stats.mean, r.stats.variance,
               r.stats.median, r.stats.min, r.stats.max);
        uint32_t b = r.best_index;
        const uint8_t *bits = r.best_bits + (size_t)b * r.items;
        printf("best: %.6f from population %" PRIu32 " in generation %" PRIu32 "\n", r.best_value[b], r.population[b],
               r.best_generation[b]);
        if (optimum >= 0)
            printf("gap: %.4f %%\n", 100.0 * (optimum - r.best_value[b]) / optimum);
        printf("items:");
        for (uint32_t i = 0; i < r.items; ++i)
            if (bits[i])
                printf(" %" PRIu32, i);
        printf("\n");
        /* the library's evaluation, then an independent sum of the data */
        MetaoptKnapsackEvaluation e = metaopt_knapsack_evaluate(k.knapsack, bits, r.items);
        if (failed("metaopt_knapsack_evaluate", e.error_code, e.error_message)) {
            status = 1;
        } else {
            double p = 0, w = 0;
            for (uint32_t i = 0; i < r.items; ++i)
                if (bits[i])
                    p += d.profits[i], w += d.weights[i];
            double diff = p > e.profit ? p - e.profit : e.profit - p;
            int ok = e.feasible && e.profit == r.best_value[b] && diff < 1e-6 * (1 + p) &&
                     w <= d.capacity * (1 + 1e-12);
            printf("verified: profit %.6f, weight %.6f of %.6f: %s\n", p, w, d.capacity, ok ? "ok" : "MISMATCH");
            status = ok ? 0 : 1;
        }
    }
    metaopt_qiga_free_run_result(&r);
    metaopt_knapsack_free_data(&d);
    metaopt_knapsack_free(k.knapsack);
    return status;
}
