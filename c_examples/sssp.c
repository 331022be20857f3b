/*
 * sssp: exact shortest paths and the ant colony on a graph file (docs/specs/SP.md,
 * docs/specs/ACO.md) through the C API of libmetaopt.so.
 *
 *   sssp FILE [source] [target] [frontier|bellman-ford|near-far] [cpu|device]
 *
 * Reads the graph (metaopt_graph_from_file: .gr DIMACS, .mtx MatrixMarket, .osm.pbf
 * OpenStreetMap, by the extension), computes the shortest paths from `source` (default 0) with
 * the method (default frontier) on the device in use or the CPU backend (metaopt_sp_sssp), prints
 * the distance to `target` (default the farthest reachable vertex) and its path followed back
 * through the predecessors, verifies every predecessor against the graph's arcs
 * (metaopt_graph_data: dist[pred[v]] + w(pred[v], v) == dist[v]), then runs the ant colony from
 * `source` to `target` (metaopt_aco_run, 50 iterations) and prints its best path and gap.
 * Everything the library returns is freed.
 * Exit status: 0 when the tree verifies, 1 when a call or the verification fails, 2 on a usage
 * error.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metaopt.h"

/* Prints a failed call's error and frees its message (setting it to NULL, so that the result's
 * free function does not free it again); returns 1 when `code` is an error. */
static int failed(const char *call, int32_t code, char **message) {
    if (code == METAOPT_OK)
        return 0;
    fprintf(stderr, "%s failed: error %" PRId32 ": %s\n", call, code, *message ? *message : "(no message)");
    metaopt_pointer_free(*message);
    *message = NULL;
    return 1;
}

static int usage(void) {
    fprintf(stderr, "usage: sssp FILE [source] [target] [frontier|bellman-ford|near-far] [cpu|device]\n");
    return 2;
}

/* A whole number in [0, 2^32 - 2] from `s`, or -1. */
static long long vertex(const char *s) {
    char *end;
    long long v = strtoll(s, &end, 10);
    return (*s && !*end && v >= 0 && v < 4294967295LL) ? v : -1;
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 6)
        return usage();
    long long source = 0, target = -1;
    if (argc > 2 && (source = vertex(argv[2])) < 0)
        return usage();
    if (argc > 3 && strcmp(argv[3], "-") != 0 && (target = vertex(argv[3])) < 0)
        return usage();
    MetaoptSpOptions o = metaopt_sp_default_options();
    if (argc > 4) {
        if (strcmp(argv[4], "frontier") == 0)
            o.method = METAOPT_SP_FRONTIER;
        else if (strcmp(argv[4], "bellman-ford") == 0)
            o.method = METAOPT_SP_BELLMAN_FORD;
        else if (strcmp(argv[4], "near-far") == 0)
            o.method = METAOPT_SP_NEAR_FAR;
        else
            return usage();
    }
    MetaoptAcoOptions a = metaopt_aco_default_options();
    a.iterations = 50;
    if (argc > 5) {
        if (strcmp(argv[5], "cpu") == 0)
            o.backend = a.backend = METAOPT_BACKEND_CPU;
        else if (strcmp(argv[5], "device") != 0)
            return usage();
    }

    MetaoptGraphResult g = metaopt_graph_from_file(argv[1], METAOPT_GRAPH_FORMAT_AUTO);
    if (failed("metaopt_graph_from_file", g.error_code, &g.error_message))
        return 1;
    static const char *const types[] = {"uint32", "uint64", "float", "double"};
    printf("graph: %" PRIu32 " vertices, %" PRIu64 " arcs, %s weights\n", g.n, g.m, types[g.weight_type]);

    int status = 1;
    MetaoptSpResult r = metaopt_sp_sssp(g.graph, (uint32_t)source, &o);
    MetaoptGraphData d = metaopt_graph_data(g.graph);
    MetaoptAcoRunResult ar;
    memset(&ar, 0, sizeof ar);
    uint32_t *path = NULL;
    if (failed("metaopt_sp_sssp", r.error_code, &r.error_message) || failed("metaopt_graph_data", d.error_code, &d.error_message))
        goto done;
    printf("backend: %s\n", r.backend);
    printf("reached: %" PRIu64 " of %" PRIu32 " vertices, %" PRIu64 " arcs traversed, %" PRIu64 " rounds\n", r.reached[0], r.n,
           r.edges[0], r.rounds);
    if (target < 0) { /* the farthest reachable vertex */
        target = source;
        for (uint32_t v = 0; v < r.n; v++)
            if (isfinite(r.dist[v]) && r.dist[v] > r.dist[target])
                target = v;
    }
    if (target >= (long long)r.n) {
        fprintf(stderr, "target %lld: the graph has %" PRIu32 " vertices\n", target, r.n);
        goto done;
    }
    /* verify the tree: each predecessor is an arc that realises the distance */
    uint64_t bad = 0;
    for (uint32_t v = 0; v < r.n; v++) {
        int32_t p = r.pred[v];
        if (p < 0) {
            bad += (v != source && isfinite(r.dist[v]));
            continue;
        }
        int ok = 0;
        for (uint64_t e = d.offsets[p]; e < d.offsets[p + 1]; e++)
            if (d.targets[e] == v && r.dist[p] + d.weights[e] == r.dist[v])
                ok = 1;
        bad += !ok;
    }
    printf("verified: %s (%" PRIu64 " bad predecessors)\n", bad ? "FAILED" : "ok", bad);
    if (!isfinite(r.dist[target])) {
        printf("distance %lld -> %lld: unreachable\n", source, target);
    } else {
        printf("distance %lld -> %lld: %.6f\n", source, target, r.dist[target]);
        if (r.dist_int)
            printf("exact: %" PRIu64 "\n", r.dist_int[target]);
        /* the path, followed back from the target */
        uint32_t len = 1;
        for (int64_t v = target; v != source; v = r.pred[v])
            len++;
        path = malloc(len * sizeof *path);
        if (!path)
            goto done;
        uint32_t i = len;
        for (int64_t v = target;; v = r.pred[v]) {
            path[--i] = (uint32_t)v;
            if (v == source)
                break;
        }
        printf("path: %" PRIu32 " vertices:", len);
        for (uint32_t j = 0; j < len && j < 20; j++)
            printf(" %" PRIu32, path[j]);
        printf("%s\n", len > 20 ? " ..." : "");
    }
    ar = metaopt_aco_run(g.graph, (uint32_t)source, (uint32_t)target, &a);
    if (failed("metaopt_aco_run", ar.error_code, &ar.error_message))
        goto done;
    if (ar.found)
        printf("aco: length %.6f, gap %.4f %%, %" PRIu32 " vertices, found at iteration %" PRIu32 " of %" PRIu32 "\n", ar.length,
               100.0 * ar.gap, ar.path_length, ar.found_at_iteration, ar.iterations);
    else
        printf("aco: no ant reached the target in %" PRIu32 " iterations\n", ar.iterations);
    status = bad ? 1 : 0;

done:
    free(path);
    metaopt_aco_free_run_result(&ar);
    metaopt_graph_free_data(&d);
    metaopt_sp_free_result(&r);
    metaopt_graph_free(g.graph);
    return status;
}
