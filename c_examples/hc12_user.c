/*
 * General HC12 with a user objective written in OpenCL C: Rastrigin in 10 dimensions on
 * [-5.12, 5.12], with its constant A passed through the func-data buffer.
 *
 *   cargo build --release && make -C c_examples && c_examples/hc12_user [runs] [bits] [double]
 *
 * runs: restarts (default 10); bits: bits per parameter (default 16); double: 1 for double
 * precision (the device needs cl_khr_fp64; default 0).
 * Prints the instance, the best value and point, and the kernel profile; frees everything.
 * Exit status: 0 on success, 1 on a library error, 2 on a usage error.
 */
#include <stdio.h>
#include <stdlib.h>

#include "metaopt.h"

#define DIMS 10

/* The objective contract: component j of the point is x[j * stride]; FP is float or double. */
static const char *RASTRIGIN =
    "#if defined(FP_DOUBLE) && FP_DOUBLE\n"
    "#define TWO_PI (2 * M_PI)\n"
    "#else\n"
    "#define TWO_PI (2 * M_PI_F)\n"
    "#endif\n"
    "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)\n"
    "{\n"
    "    const FP a = (FP)((__global const float *)data)[0];\n"
    "    FP s = a * (FP)dims;\n"
    "    for (uint j = 0; j < dims; ++j) {\n"
    "        const FP v = x[j * stride];\n"
    "        s += v * v - a * cos((FP)TWO_PI * v);\n"
    "    }\n"
    "    return s;\n"
    "}\n";

/* Prints a library error and frees its message; returns 1. */
static int fail(const char *what, int32_t code, char *message) {
    fprintf(stderr, "%s failed: error %d: %s\n", what, (int)code, message ? message : "(no message)");
    metaopt_pointer_free(message);
    return 1;
}

/* Checks an MetaoptInt32Result; returns 0 when it is a success. */
static int check(const char *what, MetaoptInt32Result r) {
    return r.error_code == METAOPT_OK ? 0 : fail(what, r.error_code, r.error_message);
}

static unsigned long parse(const char *s, unsigned long lo, unsigned long hi, int *ok) {
    char *end = NULL;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || *end != '\0' || v < lo || v > hi)
        *ok = 0;
    return v;
}

int main(int argc, char **argv) {
    int ok = 1;
    uint32_t runs = argc > 1 ? (uint32_t)parse(argv[1], 1, 100000, &ok) : 10;
    uint32_t bits = argc > 2 ? (uint32_t)parse(argv[2], 1, 32, &ok) : 16;
    uint8_t dbl = argc > 3 ? (uint8_t)parse(argv[3], 0, 1, &ok) : 0;
    if (!ok || argc > 4) {
        fprintf(stderr, "usage: %s [runs >= 1] [bits 1..32] [double 0|1]\n", argv[0]);
        return 2;
    }

    MetaoptObjective objective = {0};
    objective.kind = METAOPT_OBJECTIVE_SOURCE;
    objective.function_name = "Rastrigin (OpenCL C)";
    objective.source = RASTRIGIN;
    const double interval[2] = {-5.12, 5.12};
    MetaoptHc12ParamsResult p = metaopt_hc12_params(DIMS, &bits, 1, interval, 2, 2, 0, 0,
                                             METAOPT_DOMAIN_REAL, dbl, &objective);
    if (p.error_code != METAOPT_OK)
        return fail("metaopt_hc12_params", p.error_code, p.error_message);
    MetaoptHc12Instance *h = p.instance;

    int status = 0;
    const float a = 10.0f; /* Rastrigin's A, read by the kernel from func-data */
    MetaoptStringResult info = {0}, profile = {0};
    MetaoptHc12RunResult r = {0};
    if (check("metaopt_hc12_func_data", metaopt_hc12_func_data(h, &a, sizeof a)) ||
        check("metaopt_hc12_profiler_on", metaopt_hc12_profiler_on(h))) {
        status = 1;
        goto done;
    }

    info = metaopt_hc12_info(h);
    if (info.error_code != METAOPT_OK) {
        status = fail("metaopt_hc12_info", info.error_code, info.error_message);
        goto done;
    }
    printf("%s", info.text);

    MetaoptHc12RunOptions opts = metaopt_hc12_default_run_options();
    opts.runs = runs;
    opts.seed = 2024;
    r = metaopt_hc12_run(h, &opts);
    if (r.error_code != METAOPT_OK) {
        status = fail("metaopt_hc12_run", r.error_code, r.error_message);
        r.error_message = NULL;
        goto done;
    }
    uint32_t best_run = 0;
    for (uint32_t i = 0; i < r.runs; ++i)
        if (r.run_values[i] < r.run_values[best_run])
            best_run = i;
    printf("runs: %u, best in run %u after %u iterations, %llu evaluations, %.3f s\n",
           (unsigned)r.runs, (unsigned)best_run + 1, (unsigned)r.iterations,
           (unsigned long long)r.evaluations, r.seconds);
    printf("best value: %.10g\n", r.value);
    printf("best point:");
    for (uint32_t j = 0; j < r.nParam; ++j)
        printf(" %.6f", r.reals[j]);
    printf("\n");

    profile = metaopt_hc12_profiler_output(h);
    if (profile.error_code != METAOPT_OK) {
        status = fail("metaopt_hc12_profiler_output", profile.error_code, profile.error_message);
        goto done;
    }
    printf("profile:\n%s", profile.text);

done:
    metaopt_pointer_free(info.text);
    metaopt_pointer_free(profile.text);
    metaopt_hc12_free_run_result(&r);
    metaopt_hc12_free(h);
    return status;
}
