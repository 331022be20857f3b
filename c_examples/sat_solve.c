/*
 * sat_solve: searches for a model of a DIMACS CNF formula through the C API of libmetaopt.so.
 *
 *   sat_solve FILE.cnf [time_limit_s] [seed]
 *
 * Parses the file with the library (metaopt_sat_parse), solves it with probSAT walks (the default method) on
 * the device in use (metaopt_sat_solve; default 10 s, seed 1), prints the SAT competition
 * format (`s SATISFIABLE` and `v` lines, or `s UNKNOWN` with the fewest unsatisfied clauses),
 * and verifies the model twice: with the library's evaluator (metaopt_sat_evaluate on the
 * bit-packed assignment) and against the clauses as this program reads them from the file
 * itself, independently of the library. Everything the library returns is freed.
 * Exit status: 0 when a verified model was found, 1 when a call or the verification fails,
 * 2 on a usage error, 3 when no model was found (local search cannot prove unsatisfiability).
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

/* The clauses of a DIMACS file as the literals of each clause followed by 0; NULL on error. */
typedef struct {
    uint32_t num_vars;
    size_t len, cap;
    int32_t *lits;
} Clauses;

static int push(Clauses *c, int32_t v) {
    if (c->len == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 1024;
        int32_t *p = realloc(c->lits, cap * sizeof *p);
        if (!p)
            return 1;
        c->lits = p;
        c->cap = cap;
    }
    c->lits[c->len++] = v;
    return 0;
}

/* A minimal reader (comments, the p line, clauses over lines, a `%` end marker). */
static int read_clauses(const char *path, Clauses *c) {
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    char line[4096];
    int open_clause = 0, status = 0;
    while (!status && fgets(line, sizeof line, f)) {
        if (line[0] == 'c' || line[0] == '\n')
            continue;
        if (line[0] == '%')
            break;
        if (line[0] == 'p') {
            unsigned long v = 0, k = 0;
            if (sscanf(line, "p cnf %lu %lu", &v, &k) != 2)
                status = 1;
            c->num_vars = (uint32_t)v;
            continue;
        }
        char *s = line, *end;
        for (long v = strtol(s, &end, 10); end != s; v = strtol(s, &end, 10)) {
            s = end;
            if (v == 0 && !open_clause)
                continue;
            if (labs(v) > (long)c->num_vars || push(c, (int32_t)v)) {
                status = 1;
                break;
            }
            open_clause = v != 0;
        }
    }
    if (!status && open_clause)
        status = push(c, 0);
    fclose(f);
    return status;
}

/* Counts the clauses that `model` (num_vars signed literals in variable order) leaves unsatisfied. */
static size_t unsatisfied(const Clauses *c, const int32_t *model, size_t *clauses) {
    size_t bad = 0, k = 0;
    int sat = 0;
    for (size_t i = 0; i < c->len; ++i) {
        int32_t l = c->lits[i];
        if (l == 0) {
            bad += !sat;
            ++k;
            sat = 0;
        } else if (model[abs(l) - 1] == l) {
            sat = 1;
        }
    }
    *clauses = k;
    return bad;
}

static int parse_arg(const char *s, double lo, double hi, double *out) {
    char *end = NULL;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !(v >= lo && v <= hi))
        return 1;
    *out = v;
    return 0;
}

int main(int argc, char **argv) {
    double limit = 10, seed = 1;
    if (argc < 2 || argc > 4 || (argc > 2 && parse_arg(argv[2], 0.001, 1e6, &limit)) ||
        (argc > 3 && parse_arg(argv[3], 0, 4294967295.0, &seed))) {
        fprintf(stderr, "usage: %s FILE.cnf [time_limit_s > 0] [seed >= 0]\n", argv[0]);
        return 2;
    }

    MetaoptSatParseResult p = metaopt_sat_parse(argv[1]);
    if (failed("metaopt_sat_parse", p.error_code, p.error_message))
        return 1;
    printf("c formula: %" PRIu32 " variables, %" PRIu32 " clauses\n", p.num_vars, p.num_clauses);

    MetaoptSatSolveOptions opts = metaopt_sat_default_solve_options();
    opts.time_limit_s = limit;
    opts.seed = (uint64_t)seed;
    MetaoptSatSolveResult r = metaopt_sat_solve(p.instance, &opts);
    int status = 0;
    MetaoptSatEvalResult e = {0};
    Clauses c = {0};
    if (failed("metaopt_sat_solve", r.error_code, r.error_message)) {
        r.error_message = NULL;
        status = 1;
        goto done;
    }
    printf("c search: %" PRIu32 " walks, %" PRIu64 " flips, %" PRIu64 " restarts, %.3f s\n", r.walks, r.flips,
           r.restarts, r.seconds);
    if (!r.satisfiable) {
        printf("s UNKNOWN\nc best: %" PRIu32 " unsatisfied clauses\n", r.best_unsatisfied);
        status = 3;
        goto done;
    }
    printf("s SATISFIABLE\nv");
    for (uint32_t i = 0; i < r.num_vars; ++i)
        printf("%s %" PRId32, i > 0 && i % 10 == 0 ? "\nv" : "", r.model_literals[i]);
    printf(" 0\n");

    /* the library's evaluator on the packed assignment */
    e = metaopt_sat_evaluate(p.instance, r.assignment, 1, 0);
    if (failed("metaopt_sat_evaluate", e.error_code, e.error_message)) {
        e.error_message = NULL;
        status = 1;
        goto done;
    }
    printf("c evaluator: %" PRIu32 " of %" PRIu32 " clauses satisfied\n", e.satisfied[0], e.num_clauses);

    /* this program's own reading of the file */
    if (read_clauses(argv[1], &c)) {
        fprintf(stderr, "cannot read the clauses of %s\n", argv[1]);
        status = 1;
        goto done;
    }
    size_t clauses = 0, bad = unsatisfied(&c, r.model_literals, &clauses);
    printf("c verified: %zu of %zu clauses satisfied\n", clauses - bad, clauses);
    if (bad || e.satisfied[0] != e.num_clauses || clauses != p.num_clauses) {
        fprintf(stderr, "the model does not satisfy every clause\n");
        status = 1;
    }

done:
    free(c.lits);
    metaopt_sat_free_eval_result(&e);
    metaopt_sat_free_solve_result(&r);
    metaopt_sat_free(p.instance);
    return status;
}
