/*
 * Island differential evolution from C: a catalogue function (default CEC07t, shifted and
 * rotated Schwefel, in 10 dimensions) with 16 populations of 40 members, F spread from 0.3 to
 * 0.9 over the populations, CR 0.9, COTN bound correction, DE/rand/1 and PermuteN migration
 * every 20 generations; then the same for a C callback objective (the sphere) so the example
 * shows both kinds of objective.
 *
 *   cargo build --release && make -C c_examples && c_examples/de_islands [function] [generations] [double]
 *
 * Prints the instance, the best value, island and point of each run, and the best of every
 * population; frees everything. Exit status: 0 on success, 1 on a library error, 2 on a usage
 * error.
 */
#include <stdio.h>
#include <stdlib.h>

#include "metaopt.h"

#define DIMS 10

/* Prints a library error and frees its message; returns 1. */
static int fail(const char *what, int32_t code, char *message) {
    fprintf(stderr, "%s failed: error %d: %s\n", what, (int)code, message ? message : "(no message)");
    metaopt_pointer_free(message);
    return 1;
}

/* The sphere over a whole generation: row r of x is trial r (rows = populations * members). */
static int32_t sphere(const double *x, uint32_t rows, uint32_t dims, double *f, void *user_data) {
    unsigned long *calls = user_data;
    ++*calls;
    for (uint32_t r = 0; r < rows; ++r) {
        double s = 0;
        for (uint32_t j = 0; j < dims; ++j)
            s += x[(size_t)r * dims + j] * x[(size_t)r * dims + j];
        f[r] = s;
    }
    return 0;
}

/* Creates, initialises and runs one instance; prints what it found. */
static int solve(const MetaoptObjective *objective, const char *label, uint64_t generations, int double_precision,
                 double a, double b) {
    MetaoptDeOptions options = metaopt_de_default_options();
    options.f_min = 0.3;
    options.f_max = 0.9;
    options.cr = 0.9;
    options.double_precision = (uint8_t)double_precision;
    const double limits[2] = {a, b};
    MetaoptDeCreateResult created = metaopt_de_create(16, 40, DIMS, limits, 2, "COTN", &options);
    if (created.error_code != METAOPT_OK)
        return fail("metaopt_de_create", created.error_code, created.error_message);
    MetaoptDeInstance *h = created.instance;
    int status = 0;
    MetaoptInt32Result r = metaopt_de_init(h, objective, "DE/rand/1", "PermuteN", 20, NULL);
    if (r.error_code != METAOPT_OK) {
        status = fail("metaopt_de_init", r.error_code, r.error_message);
        goto out;
    }
    MetaoptStringResult info = metaopt_de_info(h);
    if (info.error_code != METAOPT_OK) {
        status = fail("metaopt_de_info", info.error_code, info.error_message);
        goto out;
    }
    printf("%s", info.text);
    metaopt_pointer_free(info.text);

    MetaoptDeStop stop = metaopt_de_default_stop();
    stop.generations = generations;
    MetaoptDeRunResult res = metaopt_de_run(h, &stop);
    if (res.error_code != METAOPT_OK) {
        status = fail("metaopt_de_run", res.error_code, res.error_message);
        goto out;
    }
    printf("%s best value: %.12g\n", label, res.value);
    printf("%s island: %u generations: %llu evaluations: %llu seconds: %.3f\n", label, (unsigned)res.island,
           (unsigned long long)res.generations, (unsigned long long)res.evaluations, res.seconds);
    printf("%s best point:", label);
    for (uint32_t j = 0; j < res.dims; ++j)
        printf(" %.10g", res.x[j]);
    printf("\n");
    metaopt_de_free_run_result(&res);

    MetaoptDoubleArrayResult bests = metaopt_de_bests_fitness(h);
    if (bests.error_code != METAOPT_OK) {
        status = fail("metaopt_de_bests_fitness", bests.error_code, bests.error_message);
        goto out;
    }
    printf("%s population bests:", label);
    for (uint32_t p = 0; p < bests.length; ++p)
        printf(" %.6g", bests.values[p]);
    printf("\n");
    metaopt_double_array_free_result(&bests);
out:
    metaopt_de_free(h);
    return status;
}

int main(int argc, char **argv) {
    const char *function = argc > 1 ? argv[1] : "CEC07t";
    char *end = NULL;
    unsigned long long generations = argc > 2 ? strtoull(argv[2], &end, 10) : 1000;
    int double_precision = argc > 3 ? atoi(argv[3]) : 1;
    if (argc > 4 || (argc > 2 && (*end != '\0' || generations == 0)) || double_precision < 0 || double_precision > 1) {
        fprintf(stderr, "usage: %s [function] [generations >= 1] [double 0|1]\n", argv[0]);
        return 2;
    }

    MetaoptObjective catalogue = {METAOPT_OBJECTIVE_CATALOGUE, function, NULL, NULL, NULL};
    /* the catalogue's CEC functions live on [-100, 100]; others are clipped there too */
    if (solve(&catalogue, "catalogue", generations, double_precision, -100.0, 100.0))
        return 1;

    unsigned long calls = 0;
    MetaoptObjective callback = {METAOPT_OBJECTIVE_HOST_CALLBACK, "sphere (C callback)", NULL, sphere, &calls};
    if (solve(&callback, "callback", generations < 200 ? generations : 200, double_precision, -5.0, 5.0))
        return 1;
    printf("callback calls: %lu\n", calls);
    return 0;
}
