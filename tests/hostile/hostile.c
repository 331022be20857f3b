/*
 * Hostile calls against every exported function of libmetaopt: NULL pointers,
 * forged, freed and wrong-kind handles, double frees, NaN/Inf/negative/huge numbers, zero and huge
 * sizes (and sizes whose products overflow), bad UTF-8 and very long strings, bad device numbers,
 * concurrent calls on one handle, stop tokens and metaopt_interrupt. Every call must return a
 * clean result (an error code in the table, with a message, or a success) and never crash, abort
 * or hang: fatal signals and a per-call alarm name the call that died. tests/it/reliability/hostile.rs
 * builds and runs this program (and under valgrind); tests/hostile/README.md documents it.
 *
 * Usage: hostile DATA_DIR [--valgrind]   (DATA_DIR holds qaplib/chr12a.dat; --valgrind: longer
 * alarms, shorter loops, and the slowest device calls left out). Environment: HOSTILE_RUN_KNOWN=1
 * runs the known failures too (HOSTILE_ONLY=LABEL: only that one, and only the argument sections).
 */
#include "metaopt.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------------------------------ */
/* bookkeeping                                                                                 */

static const char *volatile g_label = "(setup)";
static atomic_long g_calls;
static long g_failures;
static long g_known;
static unsigned g_alarm = 60;
static int g_valgrind;
static const char *g_data_dir = "data";
static char g_tmp[256];

/* the functions that received at least one hostile call, by name (the label up to '/') */
#define MAX_FN 512
static char g_fn[MAX_FN][64];
static long g_fn_calls[MAX_FN];
static int g_nfn;
static pthread_mutex_t g_fn_lock = PTHREAD_MUTEX_INITIALIZER;

static void note_fn(const char *label) {
    char name[64];
    size_t n = strcspn(label, "/");
    if (n >= sizeof name) n = sizeof name - 1;
    memcpy(name, label, n);
    name[n] = 0;
    pthread_mutex_lock(&g_fn_lock);
    int i;
    for (i = 0; i < g_nfn; i++)
        if (strcmp(g_fn[i], name) == 0) break;
    if (i == MAX_FN) {
        /* a silent cap hid the last functions from the coverage check once: fail instead */
        fprintf(stderr, "hostile: more than %d functions called; raise MAX_FN\n", MAX_FN);
        abort();
    }
    if (i == g_nfn) strcpy(g_fn[g_nfn++], name);
    if (i < MAX_FN) g_fn_calls[i]++;
    pthread_mutex_unlock(&g_fn_lock);
}

static void write_str(const char *s) {
    ssize_t w = write(2, s, strlen(s));
    (void)w;
}

static void on_fatal(int sig) {
    const char *what = sig == SIGALRM ? "HANG (alarm)" : sig == SIGABRT ? "ABORT" : "CRASH";
    char num[16];
    snprintf(num, sizeof num, "%d", sig); /* not async-signal-safe in theory; fine to report */
    write_str("\nhostile: FATAL ");
    write_str(what);
    write_str(" (signal ");
    write_str(num);
    write_str(") during call: ");
    write_str(g_label);
    write_str("\n");
    _exit(sig == SIGALRM ? 71 : 70);
}

static void install_handlers(void) {
    static char altstack[1 << 16];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sa.sa_flags = SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGALRM};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
}

static void install_handlers(void);

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static double g_t0;

static void begin(const char *label) {
    install_handlers(); /* LLVM (PoCL's kernel compiler) installs handlers of its own */
    g_t0 = now_s();
    g_label = label;
    atomic_fetch_add(&g_calls, 1);
    note_fn(label);
    alarm(g_alarm);
}

/* slow calls are printed: the valgrind run must stay short */
static void end(void) {
    alarm(0);
    double t = now_s() - g_t0;
    if (t > 0.5) printf("hostile: slow call %s: %.1f s\n", g_label, t);
}

static void fail(const char *label, const char *fmt, const char *detail, int code) {
    g_failures++;
    fprintf(stderr, "hostile: FAIL %s: ", label);
    fprintf(stderr, fmt, code);
    if (detail) fprintf(stderr, " (%s)", detail);
    fprintf(stderr, "\n");
}

static int valid_utf8(const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2 : (*p & 0xF8) == 0xF0 ? 3 : -1;
        if (n < 0) return 0;
        p++;
        for (int i = 0; i < n; i++, p++)
            if ((*p & 0xC0) != 0x80) return 0;
    }
    return 1;
}

/* What a call is expected to give. */
enum {
    ANY = -1,      /* success or any error of the table but a caught panic */
    ERR = -2,      /* any error of the table but a caught panic */
    OK_OR_BUSY = -3,
    OK_OR_INTR = -4,
    ERR_OR_INTR = -5,
};

/* Checks an error code and its message (then frees the message); returns the code. */
static int check(const char *label, int code, char *msg, int expect) {
    int bad = 0;
    if (code < 0 || code > METAOPT_ERR_TIME_LIMIT) {
        fail(label, "error code %d is not in the table", NULL, code);
        bad = 1;
    } else if (code != 0 && (msg == NULL || msg[0] == 0)) {
        fail(label, "error code %d without a message", NULL, code);
        bad = 1;
    } else if (code == 0 && msg != NULL) {
        fail(label, "success with a message", msg, code);
        bad = 1;
    } else if (msg && !valid_utf8(msg)) {
        fail(label, "message of code %d is not UTF-8", NULL, code);
        bad = 1;
    } else if (code == METAOPT_ERR_PANIC && !(msg && (strstr(msg, "memory") || strstr(msg, "alloc")))) {
        fail(label, "a caught panic (code %d)", msg, code);
        bad = 1;
    }
    if (!bad) {
        int good;
        switch (expect) {
        case ANY: good = 1; break;
        case ERR: good = code != 0 && code != METAOPT_INTERRUPTED; break;
        case OK_OR_BUSY: good = code == 0 || code == METAOPT_ERR_BUSY; break;
        case OK_OR_INTR: good = code == 0 || code == METAOPT_INTERRUPTED; break;
        case ERR_OR_INTR: good = code != 0; break;
        default: good = code == expect; break;
        }
        if (!good) {
            char want[48];
            snprintf(want, sizeof want, "expected %d", expect);
            fprintf(stderr, "hostile: FAIL %s: code %d, %s%s%s\n", label, code, want, msg ? ": " : "", msg ? msg : "");
            g_failures++;
        }
    }
    metaopt_pointer_free(msg);
    return code;
}

/* Calls that the library is known to fail (crash, abort, hang), by label: guard() skips them
 * with a printed note, unless HOSTILE_RUN_KNOWN=1 (with HOSTILE_ONLY=LABEL: only that one). The
 * report of the harness's author describes each for the fix; remove a label once it is fixed. */
static const char *const KNOWN_FAILURES[] = {
    /* (the two metaopt_hc12_params calls with nParam 4294967295 and 268435456, an abort on a
       16 GiB allocation and 20 s of allocations before the error, were fixed) */
    /* (metaopt_sp_sssp_multi with rounds_per_check 4294967295, a hang of empty launches, is a
       named error since rounds_per_check is at most MAX_ROUNDS_PER_CHECK) */
    NULL,
};

static int guard(const char *label) {
    int known = 0;
    for (size_t i = 0; i < sizeof KNOWN_FAILURES / sizeof KNOWN_FAILURES[0]; i++)
        if (KNOWN_FAILURES[i] && strcmp(KNOWN_FAILURES[i], label) == 0) known = 1;
    if (!known) return 1;
    const char *only = getenv("HOSTILE_ONLY");
    const char *run = getenv("HOSTILE_RUN_KNOWN");
    if (run && strcmp(run, "1") == 0 && (!only || strcmp(only, label) == 0)) {
        fprintf(stderr, "hostile: running known failure %s\n", label);
        return 1;
    }
    g_known++;
    note_fn(label);
    printf("hostile: KNOWN FAILURE (skipped) %s\n", label);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* call helpers: each runs one call under the alarm, checks and frees its result               */

#define I32(label, call, expect) \
    do { \
        begin(label); \
        MetaoptInt32Result r_ = (call); \
        end(); \
        check(label, r_.error_code, r_.error_message, expect); \
    } while (0)

#define STR(label, call, expect) \
    do { \
        begin(label); \
        MetaoptStringResult r_ = (call); \
        end(); \
        if ((r_.error_code == 0) != (r_.text != NULL)) fail(label, "text and code %d disagree", NULL, r_.error_code); \
        check(label, r_.error_code, r_.error_message, expect); \
        metaopt_pointer_free(r_.text); \
    } while (0)

#define DARR(label, call, expect) \
    do { \
        begin(label); \
        MetaoptDoubleArrayResult r_ = (call); \
        end(); \
        int c_ = r_.error_code; \
        char *m_ = r_.error_message; \
        r_.error_message = NULL; \
        check(label, c_, m_, expect); \
        metaopt_double_array_free_result(&r_); \
    } while (0)

/* a result struct with an owned message and its free function */
#define OWNED(label, type, call, freefn, expect) \
    do { \
        begin(label); \
        type r_ = (call); \
        end(); \
        int c_ = r_.error_code; \
        char *m_ = r_.error_message; \
        r_.error_message = NULL; \
        check(label, c_, m_, expect); \
        freefn(&r_); \
        freefn(&r_); /* a second release is harmless */ \
    } while (0)

#define QAP_NEW(label, call, expect) \
    do { \
        begin(label); \
        MetaoptQapParamsResult r_ = (call); \
        end(); \
        if ((r_.error_code == 0) != (r_.instance != NULL)) fail(label, "instance and code %d disagree", NULL, r_.error_code); \
        check(label, r_.error_code, r_.error_message, expect); \
        metaopt_qap_free(r_.instance); \
    } while (0)

#define HC12_NEW(label, call, expect) \
    do { \
        begin(label); \
        MetaoptHc12ParamsResult r_ = (call); \
        end(); \
        if ((r_.error_code == 0) != (r_.instance != NULL)) fail(label, "instance and code %d disagree", NULL, r_.error_code); \
        check(label, r_.error_code, r_.error_message, expect); \
        metaopt_hc12_free(r_.instance); \
    } while (0)

#define DE_NEW(label, call, expect) \
    do { \
        begin(label); \
        MetaoptDeCreateResult r_ = (call); \
        end(); \
        if ((r_.error_code == 0) != (r_.instance != NULL)) fail(label, "instance and code %d disagree", NULL, r_.error_code); \
        check(label, r_.error_code, r_.error_message, expect); \
        metaopt_de_free(r_.instance); \
    } while (0)

#define SAT_NEW(label, call, expect) \
    do { \
        begin(label); \
        MetaoptSatParseResult r_ = (call); \
        end(); \
        if ((r_.error_code == 0) != (r_.instance != NULL)) fail(label, "instance and code %d disagree", NULL, r_.error_code); \
        check(label, r_.error_code, r_.error_message, expect); \
        metaopt_sat_free(r_.instance); \
    } while (0)

/* a void call: only surviving it counts */
#define VOID(label, call) \
    do { \
        begin(label); \
        call; \
        end(); \
    } while (0)

static void require(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "hostile: setup failed: %s\n", what);
        exit(2);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* fixtures                                                                                    */

#define QN 5
static int32_t g_df[QN * QN];
static const int32_t g_lits[] = {1, 2, 0, -1, 3, 0, -2, -3, 0};
static char g_bad_utf8[][8] = {"\xff\xfe", "\xc0\xaf", "\xed\xa0\x80", "F\x80", "\xf8\x88\x80\x80\x80"};
static char *g_long; /* 1 MiB of 'A' then NUL: a string that looks non-terminated */

static int32_t cb_sphere(const double *x, uint32_t rows, uint32_t dims, double *f, void *user) {
    (void)user;
    for (uint32_t r = 0; r < rows; r++) {
        double s = 0;
        for (uint32_t d = 0; d < dims; d++) s += x[(size_t)r * dims + d] * x[(size_t)r * dims + d];
        f[r] = s;
    }
    return 0;
}

static int32_t cb_fail(const double *x, uint32_t rows, uint32_t dims, double *f, void *user) {
    (void)x, (void)rows, (void)dims, (void)f, (void)user;
    return 42;
}

static int32_t cb_nan(const double *x, uint32_t rows, uint32_t dims, double *f, void *user) {
    (void)x, (void)dims, (void)user;
    for (uint32_t r = 0; r < rows; r++) f[r] = r % 2 ? NAN : INFINITY;
    return 0;
}

/* signals that a call is running (its callback was entered), then slows it down */
static atomic_int g_started;
static int32_t cb_slow(const double *x, uint32_t rows, uint32_t dims, double *f, void *user) {
    atomic_store(&g_started, 1);
    struct timespec ts = {0, 2000000};
    nanosleep(&ts, NULL);
    return cb_sphere(x, rows, dims, f, user);
}

/* re-enters its own handle: every call must be METAOPT_ERR_BUSY, and a free is deferred */
static atomic_int g_reenter_bad;
static int32_t cb_reenter(const double *x, uint32_t rows, uint32_t dims, double *f, void *user) {
    MetaoptDeInstance *h = user;
    MetaoptStringResult s = metaopt_de_info(h);
    if (s.error_code != METAOPT_ERR_BUSY) atomic_fetch_add(&g_reenter_bad, 1);
    metaopt_pointer_free(s.text);
    metaopt_pointer_free(s.error_message);
    MetaoptInt32Result i = metaopt_de_iteration(h);
    if (i.error_code != METAOPT_ERR_BUSY) atomic_fetch_add(&g_reenter_bad, 1);
    metaopt_pointer_free(i.error_message);
    metaopt_de_free(h); /* deferred to the end of the running call */
    metaopt_interrupt();
    return cb_sphere(x, rows, dims, f, NULL);
}

static MetaoptObjective catalogue(const char *name) {
    MetaoptObjective o = {METAOPT_OBJECTIVE_CATALOGUE, name, NULL, NULL, NULL};
    return o;
}

static MetaoptObjective callback(MetaoptObjectiveCallback cb, void *user) {
    MetaoptObjective o = {METAOPT_OBJECTIVE_HOST_CALLBACK, "cb", NULL, cb, user};
    return o;
}

static MetaoptDeInstance *new_de(MetaoptObjective obj) {
    MetaoptDeOptions o = metaopt_de_default_options();
    o.backend = METAOPT_BACKEND_CPU;
    double lim[2] = {-5, 5};
    MetaoptDeCreateResult c = metaopt_de_create(2, 4, 2, lim, 2, "sat", &o);
    require(c.error_code == 0, c.error_message ? c.error_message : "metaopt_de_create");
    MetaoptInt32Result r = metaopt_de_init(c.instance, &obj, "DE/rand/1", NULL, 1, NULL);
    require(r.error_code == 0, r.error_message ? r.error_message : "metaopt_de_init");
    return c.instance;
}

static MetaoptQapInstance *new_qap(void) {
    MetaoptQapParamsResult p = metaopt_qap_params(2, QN, 1, g_df, "int32", 2, 0, 0);
    require(p.error_code == 0, p.error_message ? p.error_message : "metaopt_qap_params");
    MetaoptInt32Result r = metaopt_qap_set_backend(p.instance, METAOPT_BACKEND_CPU, 0);
    require(r.error_code == 0, "metaopt_qap_set_backend");
    return p.instance;
}

static MetaoptHc12Instance *new_hc12(MetaoptObjective obj) {
    uint32_t bits = 8;
    double dod[2] = {-5, 5};
    MetaoptHc12ParamsResult p = metaopt_hc12_params(2, &bits, 1, dod, 2, 1, 0, 0, METAOPT_DOMAIN_REAL, 0, &obj);
    require(p.error_code == 0, p.error_message ? p.error_message : "metaopt_hc12_params");
    return p.instance;
}

static MetaoptSatInstance *new_sat(void) {
    MetaoptSatParseResult p = metaopt_sat_from_clauses(3, g_lits, sizeof g_lits / sizeof g_lits[0]);
    require(p.error_code == 0, "metaopt_sat_from_clauses");
    return p.instance;
}

static MetaoptStopToken *requested_token(void) {
    MetaoptStopToken *t = metaopt_stop_token_create();
    require(t != NULL, "metaopt_stop_token_create");
    metaopt_stop_token_request(t);
    return t;
}

static const char *write_tmp(const char *name, const char *content, size_t len) {
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", g_tmp, name);
    FILE *f = fopen(path, "wb");
    require(f != NULL, path);
    fwrite(content, 1, len, f);
    fclose(f);
    return path;
}

/* ------------------------------------------------------------------------------------------ */
/* every function that takes a handle, called with a given handle and otherwise good arguments */

typedef int (*HandleCall)(void *h);

/* Each wrapper returns the code; its message goes to g_msg for check(). */
static char *g_msg;
#define KEEP(r) (g_msg = (r).error_message, (r).error_code)

/* the live handles that the stop_token-field wrappers run on */
static MetaoptDeInstance *g_de_for_token;
static MetaoptQapInstance *g_qap_for_token;
static MetaoptSatInstance *g_sat_for_token;
static MetaoptHc12Instance *g_hc12_for_token;

static int w_de_init(void *h) {
    MetaoptObjective o = catalogue("F1");
    MetaoptInt32Result r = metaopt_de_init(h, &o, "DE/rand/1", NULL, 1, NULL);
    return KEEP(r);
}
static int w_de_iteration(void *h) { MetaoptInt32Result r = metaopt_de_iteration(h); return KEEP(r); }
static int w_de_run(void *h) {
    MetaoptDeStop s = metaopt_de_default_stop();
    s.generations = 1;
    MetaoptDeRunResult r = metaopt_de_run(h, &s);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_de_free_run_result(&r);
    return c;
}
static int w_de_bests_fitness(void *h) {
    MetaoptDoubleArrayResult r = metaopt_de_bests_fitness(h);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_double_array_free_result(&r);
    return c;
}
static int w_de_spread(void *h) {
    MetaoptDoubleArrayResult r = metaopt_de_spread(h);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_double_array_free_result(&r);
    return c;
}
static int w_de_best(void *h) {
    MetaoptDoubleArrayResult r = metaopt_de_best(h, 0);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_double_array_free_result(&r);
    return c;
}
static int w_de_x(void *h) {
    MetaoptDoubleArrayResult r = metaopt_de_x(h, 0, 0);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_double_array_free_result(&r);
    return c;
}
static int w_de_func_data(void *h) {
    double d = 1;
    MetaoptInt32Result r = metaopt_de_func_data(h, &d, sizeof d);
    return KEEP(r);
}
static int w_de_info(void *h) {
    MetaoptStringResult r = metaopt_de_info(h);
    metaopt_pointer_free(r.text);
    return KEEP(r);
}
static int w_de_save_state(void *h) {
    MetaoptBytesResult r = metaopt_de_save_state(h);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_bytes_free_result(&r);
    return c;
}
/* the handle's own state back (a round trip), or where it has none a few bytes */
static int w_de_load_state(void *h) {
    static const uint8_t junk[4] = {1, 2, 3, 4};
    MetaoptBytesResult s = metaopt_de_save_state(h);
    MetaoptInt32Result r =
        s.error_code == 0 ? metaopt_de_load_state(h, s.data, s.length) : metaopt_de_load_state(h, junk, sizeof junk);
    metaopt_bytes_free_result(&s);
    return KEEP(r);
}
static int w_de_population(void *h) {
    MetaoptDoubleArrayResult r = metaopt_de_population(h);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_double_array_free_result(&r);
    return c;
}
static int w_de_set_population(void *h) {
    double x[2] = {0.5, -0.5}; /* one point of the live instance's 2 dimensions */
    MetaoptInt32Result r = metaopt_de_set_population(h, -1, x, 1, 2, 0);
    return KEEP(r);
}

static int w_de_best_point(void *h) {
    MetaoptDoubleArrayResult r = metaopt_de_best_point(h);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_double_array_free_result(&r);
    return c;
}
static int w_de_set_constraints(void *h) {
    /* NULL: no constraints, a valid call on a live handle */
    MetaoptInt32Result r = metaopt_de_set_constraints(h, NULL);
    return KEEP(r);
}

static int w_hc12_init_tabu_list(void *h) { MetaoptInt32Result r = metaopt_hc12_init_tabu_list(h, 4); return KEEP(r); }
static int w_hc12_set_tabu_options(void *h) {
    MetaoptTabuOptions o = metaopt_tabu_default_options();
    MetaoptInt32Result r = metaopt_hc12_set_tabu_options(h, &o);
    return KEEP(r);
}
static int w_hc12_run(void *h) {
    MetaoptHc12RunOptions o = metaopt_hc12_default_run_options();
    o.max_iterations = 3;
    MetaoptHc12RunResult r = metaopt_hc12_run(h, &o);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_hc12_free_run_result(&r);
    return c;
}
static int w_hc12_func_data(void *h) {
    double d = 1;
    MetaoptInt32Result r = metaopt_hc12_func_data(h, &d, sizeof d);
    return KEEP(r);
}
static int w_hc12_func_data_clean(void *h) { MetaoptInt32Result r = metaopt_hc12_func_data_clean(h); return KEEP(r); }
static int w_hc12_kernel_verbose(void *h) { MetaoptInt32Result r = metaopt_hc12_kernel_verbose(h, 0); return KEEP(r); }
static int w_hc12_profiler_on(void *h) { MetaoptInt32Result r = metaopt_hc12_profiler_on(h); return KEEP(r); }
static int w_hc12_profiler_output(void *h) {
    MetaoptStringResult r = metaopt_hc12_profiler_output(h);
    metaopt_pointer_free(r.text);
    return KEEP(r);
}
static int w_hc12_info(void *h) {
    MetaoptStringResult r = metaopt_hc12_info(h);
    metaopt_pointer_free(r.text);
    return KEEP(r);
}

static int w_qap_set_backend(void *h) { MetaoptInt32Result r = metaopt_qap_set_backend(h, METAOPT_BACKEND_CPU, 0); return KEEP(r); }
static int w_qap_set_max_iterations(void *h) { MetaoptInt32Result r = metaopt_qap_set_max_iterations(h, 1000); return KEEP(r); }
static int w_qap_set_backend_on_device(void *h) {
    MetaoptInt32Result r = metaopt_qap_set_backend_on_device(h, METAOPT_BACKEND_CPU, 0, -1);
    return KEEP(r);
}
static int w_qap_set_bits_per_param(void *h) { MetaoptInt32Result r = metaopt_qap_set_bits_per_param(h, 0); return KEEP(r); }
static int w_qap_init_tabu_list(void *h) { MetaoptInt32Result r = metaopt_qap_init_tabu_list(h, 0); return KEEP(r); }
static int w_qap_set_tabu_options(void *h) {
    MetaoptTabuOptions o = metaopt_tabu_default_options();
    MetaoptInt32Result r = metaopt_qap_set_tabu_options(h, &o);
    return KEEP(r);
}
static int w_qap_info(void *h) {
    MetaoptQapInfo info;
    MetaoptInt32Result r = metaopt_qap_info(h, &info);
    return KEEP(r);
}
static int w_qap_run(void *h) {
    MetaoptQapRunResult r = metaopt_qap_run(h, NULL, NULL);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_qap_free_run_result(&r);
    return c;
}
static int w_qap_solve(void *h) {
    MetaoptQapSolveOptions o = metaopt_qap_default_solve_options();
    o.runs = 1;
    MetaoptQapSolveResult r = metaopt_qap_solve(h, &o);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_qap_free_solve_result(&r);
    return c;
}
static int w_qap_ts_solve(void *h) {
    MetaoptQapTsOptions o = metaopt_qap_ts_default_options();
    o.chains = 2;
    o.max_iterations = 20;
    o.launch_iterations = 10;
    MetaoptQapTsSolveResult r = metaopt_qap_ts_solve(h, &o);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_qap_ts_free_solve_result(&r);
    return c;
}
/* the state of a search on the handle (one is run first where none has been) */
static int w_qap_ts_save_state(void *h) {
    MetaoptBytesResult r = metaopt_qap_ts_save_state(h);
    if (r.error_code == METAOPT_ERR_INVALID_ARGUMENT && r.error_message && strstr(r.error_message, "no solve")) {
        metaopt_bytes_free_result(&r);
        int c = w_qap_ts_solve(h);
        if (c != 0) return c;
        metaopt_pointer_free(g_msg);
        g_msg = NULL;
        r = metaopt_qap_ts_save_state(h);
    }
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_bytes_free_result(&r);
    return c;
}
/* saves the handle's state, loads it back and resumes it (a search with w_qap_ts_solve's
   options uses the state up, so the harness's later searches with other options start afresh) */
static int w_qap_ts_load_state(void *h) {
    MetaoptBytesResult st = metaopt_qap_ts_save_state(h);
    if (st.error_code != 0) {
        int c = KEEP(st);
        st.error_message = NULL;
        metaopt_bytes_free_result(&st);
        return c;
    }
    MetaoptInt32Result r = metaopt_qap_ts_load_state(h, st.data, st.length);
    metaopt_bytes_free_result(&st);
    if (r.error_code != 0) return KEEP(r);
    return w_qap_ts_solve(h);
}

static int w_sat_words(void *h) { MetaoptInt32Result r = metaopt_sat_words_per_assignment(h); return KEEP(r); }
static int w_sat_evaluate(void *h) {
    uint32_t a[2] = {0, 7};
    MetaoptSatEvalResult r = metaopt_sat_evaluate(h, a, 2, 1);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_sat_free_eval_result(&r);
    return c;
}
static int w_sat_evaluate_on_device(void *h) {
    uint32_t a[2] = {0, 7};
    MetaoptSatEvalResult r = metaopt_sat_evaluate_on_device(h, a, 2, 1, -1);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_sat_free_eval_result(&r);
    return c;
}
static int w_sat_solve(void *h) {
    MetaoptSatSolveOptions o = metaopt_sat_default_solve_options();
    o.runs = 1;
    o.time_limit_s = 120; /* a cap: the formula is solved at once, the kernels' build counts */
    MetaoptSatSolveResult r = metaopt_sat_solve(h, &o);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_sat_free_solve_result(&r);
    return c;
}

static int w_sat_solve_hc12(void *h) {
    MetaoptSatSolveOptions o = metaopt_sat_default_solve_options();
    o.method = METAOPT_SAT_HC12;
    o.runs = 1;
    o.time_limit_s = 120; /* a cap: the formula is solved at once, the kernels' build counts */
    MetaoptSatSolveResult r = metaopt_sat_solve(h, &o);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_sat_free_solve_result(&r);
    return c;
}
static int w_sat_solve_walks_cpu(void *h) {
    MetaoptSatSolveOptions o = metaopt_sat_default_solve_options();
    o.method = METAOPT_SAT_WALKSAT;
    o.backend = METAOPT_BACKEND_CPU;
    o.walks = 2;
    o.max_flips = 1000;
    MetaoptSatSolveResult r = metaopt_sat_solve(h, &o);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_sat_free_solve_result(&r);
    return c;
}

/* a state of walks over the shared formula (a walk search on an instance of its own), for the
   load_state wrapper */
static uint8_t *g_sat_state;
static size_t g_sat_state_len;
static MetaoptSatSolveOptions sat_state_options(void) {
    MetaoptSatSolveOptions o = metaopt_sat_default_solve_options();
    o.method = METAOPT_SAT_WALKSAT;
    o.backend = METAOPT_BACKEND_CPU;
    o.walks = 2;
    o.max_flips = 1000;
    return o;
}
static void sat_state_prepare(void) {
    if (g_sat_state) return;
    MetaoptSatInstance *s = new_sat();
    MetaoptSatSolveOptions o = sat_state_options();
    MetaoptSatSolveResult r = metaopt_sat_solve(s, &o);
    require(r.error_code == 0, "a walk search for a state");
    metaopt_sat_free_solve_result(&r);
    MetaoptBytesResult b = metaopt_sat_save_state(s);
    require(b.error_code == 0 && b.length > 0, "metaopt_sat_save_state");
    g_sat_state = malloc(b.length);
    require(g_sat_state != NULL, "malloc");
    memcpy(g_sat_state, b.data, b.length);
    g_sat_state_len = b.length;
    metaopt_bytes_free_result(&b);
    metaopt_sat_free(s);
}
static int w_sat_save_state(void *h) {
    MetaoptBytesResult r = metaopt_sat_save_state(h);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_bytes_free_result(&r);
    return c;
}
static int w_sat_load_state(void *h) {
    sat_state_prepare();
    MetaoptInt32Result r = metaopt_sat_load_state(h, g_sat_state, g_sat_state_len);
    int c = KEEP(r);
    if (c == 0) {
        /* the next walk search of the state's options uses it up */
        MetaoptSatSolveOptions o = sat_state_options();
        MetaoptSatSolveResult u = metaopt_sat_solve(h, &o);
        if (u.error_code != 0) fail("metaopt_sat_load_state/used up by a search", "code %d", u.error_message, u.error_code);
        metaopt_sat_free_solve_result(&u);
    }
    return c;
}

/* the HC12 checkpoints: a state of the handle's last run (one is made first where none has
   been), and that state loaded back and continued by a run of the same options */
static int w_hc12_save_state(void *h) {
    MetaoptBytesResult r = metaopt_hc12_save_state(h);
    if (r.error_code == METAOPT_ERR_INVALID_ARGUMENT && r.error_message && strstr(r.error_message, "no run")) {
        metaopt_bytes_free_result(&r);
        int c = w_hc12_run(h);
        if (c != 0) return c;
        metaopt_pointer_free(g_msg);
        g_msg = NULL;
        r = metaopt_hc12_save_state(h);
    }
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_bytes_free_result(&r);
    return c;
}
static int w_hc12_load_state(void *h) {
    MetaoptBytesResult st = metaopt_hc12_save_state(h);
    if (st.error_code != 0) {
        int c = KEEP(st);
        st.error_message = NULL;
        metaopt_bytes_free_result(&st);
        return c;
    }
    MetaoptInt32Result r = metaopt_hc12_load_state(h, st.data, st.length);
    metaopt_bytes_free_result(&st);
    if (r.error_code != 0) return KEEP(r);
    return w_hc12_run(h);
}
static int w_qap_save_state(void *h) {
    MetaoptBytesResult r = metaopt_qap_save_state(h);
    if (r.error_code == METAOPT_ERR_INVALID_ARGUMENT && r.error_message && strstr(r.error_message, "no solve")) {
        metaopt_bytes_free_result(&r);
        int c = w_qap_solve(h);
        if (c != 0) return c;
        metaopt_pointer_free(g_msg);
        g_msg = NULL;
        r = metaopt_qap_save_state(h);
    }
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_bytes_free_result(&r);
    return c;
}
static int w_qap_load_state(void *h) {
    MetaoptBytesResult st = metaopt_qap_save_state(h);
    if (st.error_code != 0) {
        int c = KEEP(st);
        st.error_message = NULL;
        metaopt_bytes_free_result(&st);
        return c;
    }
    MetaoptInt32Result r = metaopt_qap_load_state(h, st.data, st.length);
    metaopt_bytes_free_result(&st);
    if (r.error_code != 0) return KEEP(r);
    return w_qap_solve(h);
}

/* damaged and foreign states refused by a load function (`load`) of handle h, whose own state
   `st` (`len` bytes) is loaded at the end; `foreign` is a state of another solver or problem */
typedef MetaoptInt32Result (*LoadStateFn)(void *, const uint8_t *, size_t);
static MetaoptInt32Result load_hc12(void *h, const uint8_t *d, size_t n) { return metaopt_hc12_load_state(h, d, n); }
static MetaoptInt32Result load_qap(void *h, const uint8_t *d, size_t n) { return metaopt_qap_load_state(h, d, n); }
static MetaoptInt32Result load_sat(void *h, const uint8_t *d, size_t n) { return metaopt_sat_load_state(h, d, n); }
static void damaged_states(const char *name, LoadStateFn load, void *h, const uint8_t *st, size_t len,
                           const uint8_t *foreign, size_t foreign_len) {
    char label[160];
    uint8_t junk[64];
    memset(junk, 0xA5, sizeof junk);
    snprintf(label, sizeof label, "%s/NULL data", name);
    I32(label, load(h, NULL, 16), METAOPT_ERR_NULL_POINTER);
    snprintf(label, sizeof label, "%s/NULL data, huge length", name);
    I32(label, load(h, NULL, SIZE_MAX), ERR);
    snprintf(label, sizeof label, "%s/0 bytes", name);
    I32(label, load(h, junk, 0), ERR);
    snprintf(label, sizeof label, "%s/garbage", name);
    I32(label, load(h, junk, sizeof junk), ERR);
    snprintf(label, sizeof label, "%s/NULL handle", name);
    I32(label, load(NULL, st, len), METAOPT_ERR_NULL_POINTER);
    if (foreign) {
        snprintf(label, sizeof label, "%s/a state of another solver or problem", name);
        I32(label, load(h, foreign, foreign_len), METAOPT_ERR_INVALID_ARGUMENT);
    }
    snprintf(label, sizeof label, "%s/truncated", name);
    for (size_t cut = 1; cut < len; cut += 1 + len / 16) I32(label, load(h, st, cut), ERR);
    uint8_t *cp = malloc(len);
    require(cp != NULL, "malloc");
    snprintf(label, sizeof label, "%s/a flipped bit", name);
    for (size_t at = 0; at < len; at += 1 + len / 16) {
        memcpy(cp, st, len);
        cp[at] ^= 0x10;
        I32(label, load(h, cp, len), ERR);
    }
    memcpy(cp, st, len);
    if (len > 20) {
        memset(cp + 12, 0xFF, 8);
        snprintf(label, sizeof label, "%s/huge length", name);
        I32(label, load(h, cp, len), METAOPT_ERR_INVALID_ARGUMENT);
    }
    free(cp);
    snprintf(label, sizeof label, "%s/its own state", name);
    I32(label, load(h, st, len), 0);
}

static int w_token_request(void *h) { MetaoptInt32Result r = metaopt_stop_token_request(h); return KEEP(r); }
static int w_token_reset(void *h) { MetaoptInt32Result r = metaopt_stop_token_reset(h); return KEEP(r); }

/* a stop token passed inside options (the field is checked like a handle) */
static int w_de_run_token(void *t) {
    MetaoptDeInstance *h = g_de_for_token;
    MetaoptDeStop s = metaopt_de_default_stop();
    s.generations = 1;
    s.stop_token = t;
    MetaoptDeRunResult r = metaopt_de_run(h, &s);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_de_free_run_result(&r);
    return c;
}
static int w_qap_solve_token(void *t) {
    MetaoptQapSolveOptions o = metaopt_qap_default_solve_options();
    o.runs = 1;
    o.stop_token = t;
    MetaoptQapSolveResult r = metaopt_qap_solve(g_qap_for_token, &o);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_qap_free_solve_result(&r);
    return c;
}
static int w_qap_ts_token(void *t) {
    MetaoptQapTsOptions o = metaopt_qap_ts_default_options();
    o.chains = 1;
    o.max_iterations = 10;
    o.launch_iterations = 10;
    o.stop_token = t;
    MetaoptQapTsSolveResult r = metaopt_qap_ts_solve(g_qap_for_token, &o);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_qap_ts_free_solve_result(&r);
    return c;
}
static int w_sat_solve_token(void *t) {
    MetaoptSatSolveOptions o = metaopt_sat_default_solve_options();
    o.runs = 1;
    o.stop_token = t;
    MetaoptSatSolveResult r = metaopt_sat_solve(g_sat_for_token, &o);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_sat_free_solve_result(&r);
    return c;
}
static int w_hc12_run_token(void *t) {
    MetaoptHc12RunOptions o = metaopt_hc12_default_run_options();
    o.max_iterations = 2;
    o.stop_token = t;
    MetaoptHc12RunResult r = metaopt_hc12_run(g_hc12_for_token, &o);
    int c = KEEP(r);
    r.error_message = NULL;
    metaopt_hc12_free_run_result(&r);
    return c;
}

typedef struct {
    const char *name;
    HandleCall call;
    int kind; /* 0 DE, 1 HC12, 2 QAP, 3 SAT, 4 token, 5 token field */
} Wrapper;

static const Wrapper WRAPPERS[] = {
    {"metaopt_de_init", w_de_init, 0},
    {"metaopt_de_iteration", w_de_iteration, 0},
    {"metaopt_de_run", w_de_run, 0},
    {"metaopt_de_bests_fitness", w_de_bests_fitness, 0},
    {"metaopt_de_best", w_de_best, 0},
    {"metaopt_de_x", w_de_x, 0},
    {"metaopt_de_func_data", w_de_func_data, 0},
    {"metaopt_de_info", w_de_info, 0},
    {"metaopt_hc12_init_tabu_list", w_hc12_init_tabu_list, 1},
    {"metaopt_hc12_set_tabu_options", w_hc12_set_tabu_options, 1},
    {"metaopt_hc12_run", w_hc12_run, 1},
    {"metaopt_hc12_func_data", w_hc12_func_data, 1},
    {"metaopt_hc12_func_data_clean", w_hc12_func_data_clean, 1},
    {"metaopt_hc12_kernel_verbose", w_hc12_kernel_verbose, 1},
    {"metaopt_hc12_profiler_on", w_hc12_profiler_on, 1},
    {"metaopt_hc12_profiler_output", w_hc12_profiler_output, 1},
    {"metaopt_hc12_info", w_hc12_info, 1},
    {"metaopt_qap_set_backend", w_qap_set_backend, 2},
    {"metaopt_qap_set_max_iterations", w_qap_set_max_iterations, 2},
    {"metaopt_qap_init_tabu_list", w_qap_init_tabu_list, 2},
    {"metaopt_qap_set_tabu_options", w_qap_set_tabu_options, 2},
    {"metaopt_qap_info", w_qap_info, 2},
    {"metaopt_qap_run", w_qap_run, 2},
    {"metaopt_qap_solve", w_qap_solve, 2},
    {"metaopt_qap_ts_solve", w_qap_ts_solve, 2},
    {"metaopt_sat_words_per_assignment", w_sat_words, 3},
    {"metaopt_sat_evaluate", w_sat_evaluate, 3},
    {"metaopt_sat_solve", w_sat_solve, 3},
    {"metaopt_sat_solve", w_sat_solve_hc12, 3},
    {"metaopt_sat_solve", w_sat_solve_walks_cpu, 3},
    /* added later, after the entries that tests index (WRAPPERS[7], [16], [21], [25]) */
    {"metaopt_de_spread", w_de_spread, 0},
    {"metaopt_qap_set_bits_per_param", w_qap_set_bits_per_param, 2},
    {"metaopt_stop_token_request", w_token_request, 4},
    {"metaopt_stop_token_reset", w_token_reset, 4},
    {"metaopt_de_run", w_de_run_token, 5},
    {"metaopt_qap_solve", w_qap_solve_token, 5},
    {"metaopt_qap_ts_solve", w_qap_ts_token, 5},
    {"metaopt_sat_solve", w_sat_solve_token, 5},
    {"metaopt_hc12_run", w_hc12_run_token, 5},
    {"metaopt_qap_set_backend_on_device", w_qap_set_backend_on_device, 2},
    {"metaopt_sat_evaluate_on_device", w_sat_evaluate_on_device, 3},
    {"metaopt_qap_ts_save_state", w_qap_ts_save_state, 2},
    {"metaopt_qap_ts_load_state", w_qap_ts_load_state, 2},
    {"metaopt_de_save_state", w_de_save_state, 0},
    {"metaopt_de_load_state", w_de_load_state, 0},
    {"metaopt_de_population", w_de_population, 0},
    {"metaopt_de_set_population", w_de_set_population, 0},
    {"metaopt_sat_save_state", w_sat_save_state, 3},
    {"metaopt_sat_load_state", w_sat_load_state, 3},
    {"metaopt_hc12_save_state", w_hc12_save_state, 1},
    {"metaopt_hc12_load_state", w_hc12_load_state, 1},
    {"metaopt_qap_save_state", w_qap_save_state, 2},
    {"metaopt_qap_load_state", w_qap_load_state, 2},
    {"metaopt_de_best_point", w_de_best_point, 0},
    {"metaopt_de_set_constraints", w_de_set_constraints, 0},
};
#define NWRAP (sizeof WRAPPERS / sizeof WRAPPERS[0])

/* runs wrapper w with handle h, expecting `expect` */
static void with_handle(const Wrapper *w, void *h, const char *what, int expect) {
    char label[160];
    snprintf(label, sizeof label, "%s/%s%s", w->name, w->kind == 5 ? "stop_token field " : "", what);
    begin(label);
    g_msg = NULL;
    int code = w->call(h);
    end();
    char *msg = g_msg;
    g_msg = NULL;
    check(label, code, msg, expect);
}

/* the void functions that take a handle: freeing a bad one is ignored */
static void free_any(int kind, void *h, const char *what) {
    char label[160];
    static const char *names[] = {"metaopt_de_free", "metaopt_hc12_free", "metaopt_qap_free", "metaopt_sat_free",
                                  "metaopt_stop_token_free"};
    snprintf(label, sizeof label, "%s/%s", names[kind], what);
    begin(label);
    switch (kind) {
    case 0: metaopt_de_free(h); break;
    case 1: metaopt_hc12_free(h); break;
    case 2: metaopt_qap_free(h); break;
    case 3: metaopt_sat_free(h); break;
    default: metaopt_stop_token_free(h); break;
    }
    end();
    /* and metaopt_stop_token_is_requested of anything but a live token is 0 */
}

/* ------------------------------------------------------------------------------------------ */
/* the sections                                                                                */

static MetaoptDeInstance *g_de;
static MetaoptQapInstance *g_qap;
static MetaoptHc12Instance *g_hc12;
static MetaoptSatInstance *g_sat;
static MetaoptStopToken *g_token;

static void *live_of_kind(int kind) {
    switch (kind) {
    case 0: return g_de;
    case 1: return g_hc12;
    case 2: return g_qap;
    case 3: return g_sat;
    default: return g_token;
    }
}

static void bad_handles(void) {
    uint64_t stack_buf[16];
    uint64_t *heap = malloc(64);
    require(heap != NULL, "malloc");
    for (int kind = 0; kind < 5; kind++) {
        void *live = live_of_kind(kind);
        /* a forgery that starts with the live handle's magic number */
        memcpy(&stack_buf[0], live, 8);
        memset(&stack_buf[1], 0, sizeof stack_buf - 8);
        memcpy(heap, live, 8);
        memset(heap + 1, 0xAB, 56);
        struct {
            const char *what;
            void *p;
            int expect;
        } bad[] = {
            {"NULL", NULL, METAOPT_ERR_NULL_POINTER},
            {"forged 0x1", (void *)(uintptr_t)1, METAOPT_ERR_INVALID_ARGUMENT},
            {"forged 0xdeadbeef", (void *)(uintptr_t)0xdeadbeefu, METAOPT_ERR_INVALID_ARGUMENT},
            {"forged all ones", (void *)UINTPTR_MAX, METAOPT_ERR_INVALID_ARGUMENT},
            {"forged kernel address", (void *)(uintptr_t)0xffff800000000000ull, METAOPT_ERR_INVALID_ARGUMENT},
            {"stack copy of the magic", stack_buf, METAOPT_ERR_INVALID_ARGUMENT},
            {"heap copy of the magic", heap, METAOPT_ERR_INVALID_ARGUMENT},
            {"live handle + 8", (char *)live + 8, METAOPT_ERR_INVALID_ARGUMENT},
            {"live handle - 8", (char *)live - 8, METAOPT_ERR_INVALID_ARGUMENT},
            {"a function pointer", (void *)(uintptr_t)&metaopt_version, METAOPT_ERR_INVALID_ARGUMENT},
        };
        for (size_t i = 0; i < NWRAP; i++) {
            if (WRAPPERS[i].kind != kind && !(kind == 4 && WRAPPERS[i].kind == 5)) continue;
            for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
                /* a NULL stop_token field means "no token": a success */
                int expect = WRAPPERS[i].kind == 5 && bad[b].p == NULL ? 0 : bad[b].expect;
                with_handle(&WRAPPERS[i], bad[b].p, bad[b].what, expect);
            }
            /* wrong-kind: a live handle of every other kind */
            for (int other = 0; other < 5; other++) {
                if (other == kind) continue;
                char what[64];
                snprintf(what, sizeof what, "wrong kind %d", other);
                with_handle(&WRAPPERS[i], live_of_kind(other), what, METAOPT_ERR_INVALID_ARGUMENT);
            }
        }
        /* is_requested of anything but a live token is 0 */
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
            begin("metaopt_stop_token_is_requested/bad token");
            uint8_t q = metaopt_stop_token_is_requested(bad[b].p);
            end();
            if (q != 0) fail("metaopt_stop_token_is_requested/bad token", "returned %d", bad[b].what, q);
        }
        /* the free functions ignore every bad and wrong-kind pointer */
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) free_any(kind, bad[b].p, bad[b].what);
        for (int f = 0; f < 5; f++)
            if (f != kind) free_any(f, live, "wrong kind (ignored)");
    }
    /* the live handles survived all of that */
    for (size_t i = 0; i < NWRAP; i++) {
        int k = WRAPPERS[i].kind;
        if (k == 1 || k == 4 || k == 5) continue; /* checked elsewhere (device work, token state) */
        if (WRAPPERS[i].call == w_de_func_data || WRAPPERS[i].call == w_qap_set_tabu_options) continue;
        with_handle(&WRAPPERS[i], live_of_kind(k), "live after the hostile calls", 0);
    }
    with_handle(&WRAPPERS[16], g_hc12, "live after the hostile calls", 0); /* hc12_info */
    free(heap);
}

/* freed handles (use after free) and double frees, for every kind */
static void freed_handles(void) {
    MetaoptDeInstance *de = new_de(catalogue("F1"));
    MetaoptSatInstance *sat = new_sat();
    MetaoptStopToken *tok = metaopt_stop_token_create();
    MetaoptQapInstance *qap = new_qap();
    MetaoptHc12Instance *hc = new_hc12(catalogue("F1"));
    void *h[5] = {de, hc, qap, sat, tok};
    for (int k = 0; k < 5; k++) free_any(k, h[k], "first free");
    for (int k = 0; k < 5; k++) {
        free_any(k, h[k], "double free");
        free_any(k, h[k], "triple free");
    }
    for (size_t i = 0; i < NWRAP; i++) {
        int k = WRAPPERS[i].kind == 5 ? 4 : WRAPPERS[i].kind;
        with_handle(&WRAPPERS[i], h[k], "freed handle", METAOPT_ERR_INVALID_ARGUMENT);
    }
    begin("metaopt_stop_token_is_requested/freed token");
    uint8_t q = metaopt_stop_token_is_requested(tok);
    end();
    if (q != 0) fail("metaopt_stop_token_is_requested/freed token", "returned %d", NULL, q);
}

static void versions(void) {
    begin("metaopt_version/string");
    const char *v = metaopt_version();
    end();
    if (!v || strcmp(v, METAOPT_VERSION_STRING) != 0) fail("metaopt_version", "mismatch %d", v, 0);
    begin("metaopt_version_major/value");
    int a = metaopt_version_major();
    end();
    begin("metaopt_version_minor/value");
    int b = metaopt_version_minor();
    end();
    begin("metaopt_version_patch/value");
    int c = metaopt_version_patch();
    end();
    begin("metaopt_version_number/value");
    int n = metaopt_version_number();
    end();
    if (a != METAOPT_VERSION_MAJOR || b != METAOPT_VERSION_MINOR || c != METAOPT_VERSION_PATCH || n != METAOPT_VERSION_NUMBER)
        fail("metaopt_version_*", "numbers disagree with the header (%d)", NULL, n);
    /* the words of the stop reasons: a static string for every number of the table, NULL else */
    int32_t codes[] = {INT32_MIN, -1, 0, METAOPT_STOP_TARGET, METAOPT_STOP_DONE, 9, INT32_MAX};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        begin("metaopt_stop_reason_word/code");
        const char *w = metaopt_stop_reason_word(codes[i]);
        end();
        int known = codes[i] >= METAOPT_STOP_TARGET && codes[i] <= METAOPT_STOP_DONE;
        if ((w != NULL) != known) fail("metaopt_stop_reason_word", "code %d", w, codes[i]);
    }
}

static void devices(void) {
    MetaoptInt32Result cnt = metaopt_device_count();
    int count = cnt.error_code == 0 ? cnt.result : 0;
    metaopt_pointer_free(cnt.error_message);
    MetaoptInt32Result was = metaopt_device_get_number();
    int before = was.result;
    metaopt_pointer_free(was.error_message);
    int32_t bad[] = {-2, -3, INT32_MIN, INT32_MAX, count, count + 1, 1000000};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        I32("metaopt_device_set_number/bad number", metaopt_device_set_number(bad[i]), ERR);
        MetaoptDeviceInfo info;
        memset(&info, 0x5A, sizeof info); /* garbage the call must overwrite */
        I32("metaopt_device_info/bad number", metaopt_device_info(bad[i], &info), ERR);
        if (info.index != -1 || info.name || info.platform || info.vendor || info.version)
            fail("metaopt_device_info/bad number", "left index %d or a string", NULL, info.index);
        VOID("metaopt_device_free_info/after an error", metaopt_device_free_info(&info));
    }
    I32("metaopt_device_set_number/-1", metaopt_device_set_number(-1), ANY);
    I32("metaopt_device_info/NULL out", metaopt_device_info(0, NULL), METAOPT_ERR_NULL_POINTER);
    I32("metaopt_device_info/-1", metaopt_device_info(-1, NULL), ERR);
    I32("metaopt_device_set_number/back", metaopt_device_set_number(before), count > 0 ? 0 : ERR);
    I32("metaopt_device_get_number/after bad numbers", metaopt_device_get_number(), ANY);
    MetaoptInt32Result now = metaopt_device_get_number();
    if (count > 0 && now.result != before) fail("metaopt_device_get_number", "device changed to %d", NULL, now.result);
    metaopt_pointer_free(now.error_message);
    I32("metaopt_device_count/value", metaopt_device_count(), ANY);
    I32("metaopt_device_finish_builds/value", metaopt_device_finish_builds(), ANY);
    begin("metaopt_device_is_mem_space_valid/value");
    uint8_t valid = metaopt_device_is_mem_space_valid();
    end();
    if (valid != 1) fail("metaopt_device_is_mem_space_valid", "returned %d", NULL, valid);
    MetaoptDeviceInfo info;
    memset(&info, 0, sizeof info);
    I32("metaopt_device_info/0", metaopt_device_info(0, &info), count > 0 ? 0 : ERR);
    VOID("metaopt_device_free_info/first", metaopt_device_free_info(&info));
    VOID("metaopt_device_free_info/double free", metaopt_device_free_info(&info));
    VOID("metaopt_device_free_info/NULL", metaopt_device_free_info(NULL));
    memset(&info, 0, sizeof info);
    VOID("metaopt_device_free_info/zeroed", metaopt_device_free_info(&info));
}

static void de_args(void) {
    double lim[2] = {-5, 5};
    double lim4[4] = {-5, 5, -1, 1};
    MetaoptDeOptions o = metaopt_de_default_options();
    o.backend = METAOPT_BACKEND_CPU;
    VOID("metaopt_de_default_options/value", (void)metaopt_de_default_options());
    VOID("metaopt_de_default_stop/value", (void)metaopt_de_default_stop());
    VOID("metaopt_default_constraints/value", (void)metaopt_default_constraints());
    DE_NEW("metaopt_de_create/NULL limits", metaopt_de_create(2, 4, 2, NULL, 2, "sat", &o), METAOPT_ERR_NULL_POINTER);
    DE_NEW("metaopt_de_create/NULL bounds", metaopt_de_create(2, 4, 2, lim, 2, NULL, &o), METAOPT_ERR_NULL_POINTER);
    DE_NEW("metaopt_de_create/NULL options (device)", metaopt_de_create(2, 4, 2, lim, 2, "sat", NULL), ANY);
    uint32_t sizes[][3] = {{0, 4, 2},          {2, 0, 2},          {2, 1, 2},          {2, 2, 2},
                           {2, 4, 0},          {0, 0, 0},          {0xFFFFFFFF, 4, 2}, {2, 0xFFFFFFFF, 2},
                           {2, 4, 0xFFFFFFFF}, {0x10000, 0x10000, 0x10000}, {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF},
                           {65536, 65536, 1}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char label[96];
        snprintf(label, sizeof label, "metaopt_de_create/sizes %u %u %u", sizes[i][0], sizes[i][1], sizes[i][2]);
        if (i >= 6 && !guard(label)) continue;
        DE_NEW(label, metaopt_de_create(sizes[i][0], sizes[i][1], sizes[i][2], lim, 2, "sat", &o), ERR);
    }
    uint32_t lens[] = {0, 1, 3, 0xFFFFFFFF};
    for (size_t i = 0; i < 4; i++) DE_NEW("metaopt_de_create/bad limitsLength", metaopt_de_create(2, 4, 2, lim4, lens[i], "sat", &o), ERR);
    double badlim[][2] = {{NAN, 1}, {0, NAN}, {-INFINITY, 0}, {0, INFINITY}, {1, 1}, {2, 1}, {-1e308, 1e308}, {-0.0, 0.0}};
    for (size_t i = 0; i < sizeof badlim / sizeof badlim[0]; i++)
        DE_NEW("metaopt_de_create/bad limits", metaopt_de_create(2, 4, 2, badlim[i], 2, "sat", &o), i == 6 ? ANY : ERR);
    const char *bounds[] = {"", "nope", "sat,sat,sat", "sat,", ",", "SAT", "sat,mir,tor"};
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
        DE_NEW("metaopt_de_create/bad bounds", metaopt_de_create(2, 4, 2, lim, 2, bounds[i], &o), i == 5 ? ANY : ERR);
    for (size_t i = 0; i < sizeof g_bad_utf8 / sizeof g_bad_utf8[0]; i++)
        DE_NEW("metaopt_de_create/bounds not UTF-8", metaopt_de_create(2, 4, 2, lim, 2, g_bad_utf8[i], &o), ERR);
    DE_NEW("metaopt_de_create/1 MiB bounds", metaopt_de_create(2, 4, 2, lim, 2, g_long, &o), ERR);
    double crs[3] = {0.5, NAN, 0.5};
    MetaoptDeOptions bo[28];
    for (int i = 0; i < 28; i++) bo[i] = o;
    bo[0].f_min = NAN;
    bo[1].f_max = INFINITY;
    bo[2].cr = NAN;
    bo[3].cr = -1;
    bo[4].cr = 2;
    bo[5].cr_per_island = crs;
    bo[6].precision = 3;
    bo[7].precision = -1;
    bo[8].backend = 2;
    bo[9].backend = -1;
    bo[10].f_min = -1e308;
    bo[11].f_max = -INFINITY;
    bo[12].cr = INFINITY;
    bo[13].precision = INT32_MIN;
    /* the fitness precision (the thesis's FPf): 0 the storage precision, 1 single, 2 double */
    bo[14].fitness_precision = 3;
    bo[15].fitness_precision = -1;
    bo[16].fitness_precision = INT32_MIN;
    /* the algorithm (0 de .. 5 jde100); L-SHADE and jSO need a budget and 4 members */
    bo[17].algorithm = 6;
    bo[18].algorithm = -1;
    bo[19].algorithm = INT32_MIN;
    bo[20].algorithm = METAOPT_DE_ALGORITHM_JSO, bo[20].lshade_budget = 0;
    bo[21].algorithm = METAOPT_DE_ALGORITHM_L_SHADE, bo[21].lshade_budget = UINT64_MAX;
    /* jDE100: a small population of at least 4 and a big one of at least 4 (4 members are too
     * few for any), a finite eps >= 0 */
    bo[22].algorithm = METAOPT_DE_ALGORITHM_JDE100;
    bo[23].algorithm = METAOPT_DE_ALGORITHM_JDE100, bo[23].jde_small = 0;
    bo[24].algorithm = METAOPT_DE_ALGORITHM_JDE100, bo[24].jde_small = UINT32_MAX;
    bo[25].algorithm = METAOPT_DE_ALGORITHM_JDE100, bo[25].jde_eps = NAN;
    bo[26].algorithm = METAOPT_DE_ALGORITHM_JDE100, bo[26].jde_eps = -INFINITY, bo[26].jde_small = 2;
    bo[27].algorithm = METAOPT_DE_ALGORITHM_JDE100, bo[27].jde_age = UINT64_MAX, bo[27].jde_small = 3;
    for (int i = 0; i < 28; i++)
        DE_NEW("metaopt_de_create/bad options", metaopt_de_create(2, 4, 2, lim, 2, "sat", &bo[i]), i == 10 || i == 21 ? ANY : ERR);
    /* jDE100 with 12 members (8 big, 4 small): a NaN or negative eps is the error */
    MetaoptDeOptions jo = o;
    jo.algorithm = METAOPT_DE_ALGORITHM_JDE100, jo.jde_small = 4;
    double jeps[] = {NAN, -INFINITY, INFINITY, -1e-300};
    for (size_t i = 0; i < sizeof jeps / sizeof jeps[0]; i++) {
        jo.jde_eps = jeps[i];
        DE_NEW("metaopt_de_create/bad jde_eps", metaopt_de_create(2, 12, 2, lim, 2, "sat", &jo), ERR);
    }

    /* a handle made but not initialised: every getter is an error, not a crash */
    MetaoptDeCreateResult c = metaopt_de_create(2, 4, 2, lim, 2, "sat", &o);
    require(c.error_code == 0, "metaopt_de_create");
    MetaoptDeInstance *h = c.instance;
    I32("metaopt_de_iteration/before init", metaopt_de_iteration(h), ERR);
    MetaoptDeStop st = metaopt_de_default_stop();
    st.generations = 1;
    OWNED("metaopt_de_run/before init", MetaoptDeRunResult, metaopt_de_run(h, &st), metaopt_de_free_run_result, ERR);
    DARR("metaopt_de_bests_fitness/before init", metaopt_de_bests_fitness(h), ERR);
    DARR("metaopt_de_spread/before init", metaopt_de_spread(h), ERR);
    DARR("metaopt_de_best_point/before init", metaopt_de_best_point(h), ERR);
    /* constraints: settings out of range are errors; a catalogue objective has none (init) */
    {
        MetaoptConstraints dc = metaopt_default_constraints();
        I32("metaopt_de_set_constraints/no counts", metaopt_de_set_constraints(h, &dc), ERR);
        MetaoptConstraints bc[11];
        for (int i = 0; i < 11; i++) bc[i] = dc, bc[i].inequalities = 1;
        bc[0].eq_tol = NAN;
        bc[1].eq_tol = -1;
        bc[2].handling = 7;
        bc[3].handling = 1, bc[3].epsilon_theta = NAN;
        bc[4].handling = 1, bc[4].epsilon_tc = 0;
        bc[5].inequalities = UINT32_MAX, bc[5].equalities = UINT32_MAX;
        /* the gradient-based repair: a probability outside (0, 1], rounds outside 1..1000 */
        bc[6].repair_probability = NAN;
        bc[7].repair_probability = -0.5;
        bc[8].repair_probability = INFINITY;
        bc[9].repair_probability = 0.5, bc[9].repair_rounds = 0;
        bc[10].repair_probability = 0.5, bc[10].repair_rounds = UINT32_MAX;
        for (int i = 0; i < 11; i++)
            I32("metaopt_de_set_constraints/bad", metaopt_de_set_constraints(h, &bc[i]), ERR);
        dc.inequalities = 1;
        I32("metaopt_de_set_constraints/good", metaopt_de_set_constraints(h, &dc), 0);
        MetaoptObjective g1 = catalogue("F1");
        I32("metaopt_de_init/catalogue with constraints", metaopt_de_init(h, &g1, "DE/rand/1", NULL, 1, NULL), ERR);
        I32("metaopt_de_set_constraints/NULL clears", metaopt_de_set_constraints(h, NULL), 0);
    }
    DARR("metaopt_de_best/before init", metaopt_de_best(h, 0), ERR);
    DARR("metaopt_de_x/before init", metaopt_de_x(h, 0, 0), ANY);
    STR("metaopt_de_info/before init", metaopt_de_info(h), 0);

    /* init */
    MetaoptObjective objs[9];
    objs[0] = catalogue(NULL);
    objs[1] = catalogue("");
    objs[2] = catalogue("NoSuchFunction");
    objs[3] = catalogue(g_bad_utf8[0]);
    objs[4] = catalogue(g_long);
    objs[5] = callback(NULL, NULL);
    objs[6] = catalogue("F1");
    objs[6].kind = 3;
    objs[7] = catalogue("F1");
    objs[7].kind = -1;
    objs[8] = catalogue("F1");
    objs[8].kind = METAOPT_OBJECTIVE_SOURCE; /* NULL source */
    for (int i = 0; i < 9; i++)
        I32("metaopt_de_init/bad objective", metaopt_de_init(h, &objs[i], "DE/rand/1", NULL, 1, NULL), ERR);
    I32("metaopt_de_init/NULL objective", metaopt_de_init(h, NULL, "DE/rand/1", NULL, 1, NULL), METAOPT_ERR_NULL_POINTER);
    MetaoptObjective f1 = catalogue("F1");
    I32("metaopt_de_init/NULL mutation", metaopt_de_init(h, &f1, NULL, NULL, 1, NULL), METAOPT_ERR_NULL_POINTER);
    const char *muts[] = {"", "DE/rand/9", g_bad_utf8[1], g_long, "DE/rand/1 "};
    for (size_t i = 0; i < 5; i++) I32("metaopt_de_init/bad mutation", metaopt_de_init(h, &f1, muts[i], NULL, 1, NULL), i < 4 ? ERR : ANY);
    const char *migs[] = {"", "Nope", g_bad_utf8[2], g_long};
    for (size_t i = 0; i < 4; i++) I32("metaopt_de_init/bad migration", metaopt_de_init(h, &f1, "DE/rand/1", migs[i], 1, NULL), ERR);
    I32("metaopt_de_init/period 0", metaopt_de_init(h, &f1, "DE/rand/1", "One2One", 0, NULL), ANY);
    I32("metaopt_de_init/period max", metaopt_de_init(h, &f1, "DE/rand/1", "One2One", 0xFFFFFFFF, NULL), ANY);
    for (int i = 0; i < 14; i++)
        I32("metaopt_de_init/bad options", metaopt_de_init(h, &f1, "DE/rand/1", NULL, 1, &bo[i]), i == 10 ? ANY : ERR);
    MetaoptDeOptions dev = o;
    dev.backend = METAOPT_BACKEND_DEVICE;
    I32("metaopt_de_init/options change the backend", metaopt_de_init(h, &f1, "DE/rand/1", NULL, 1, &dev), ERR);
    dev = o;
    dev.double_precision = 1;
    I32("metaopt_de_init/options change double", metaopt_de_init(h, &f1, "DE/rand/1", NULL, 1, &dev), ANY);
    I32("metaopt_de_init/good", metaopt_de_init(h, &f1, "DE/rand/1", NULL, 1, NULL), 0);

    /* run */
    OWNED("metaopt_de_run/NULL stop", MetaoptDeRunResult, metaopt_de_run(h, NULL), metaopt_de_free_run_result, METAOPT_ERR_NULL_POINTER);
    MetaoptDeStop none = metaopt_de_default_stop();
    OWNED("metaopt_de_run/no condition", MetaoptDeRunResult, metaopt_de_run(h, &none), metaopt_de_free_run_result, ERR);
    MetaoptStopToken *req = requested_token();
    double times[] = {NAN, -1, -INFINITY, INFINITY, 1e300, 5e-324, -0.0};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        MetaoptDeStop s = metaopt_de_default_stop();
        s.time_limit = times[i];
        s.stop_token = req; /* a condition that never ends must still return */
        OWNED("metaopt_de_run/time_limit", MetaoptDeRunResult, metaopt_de_run(h, &s), metaopt_de_free_run_result,
              ERR_OR_INTR);
    }
    MetaoptDeStop s = metaopt_de_default_stop();
    s.has_target = 1;
    s.target = NAN;
    s.generations = 2;
    OWNED("metaopt_de_run/target NaN", MetaoptDeRunResult, metaopt_de_run(h, &s), metaopt_de_free_run_result, ANY);
    s.target = -INFINITY;
    OWNED("metaopt_de_run/target -inf", MetaoptDeRunResult, metaopt_de_run(h, &s), metaopt_de_free_run_result, ANY);
    s = metaopt_de_default_stop();
    s.generations = UINT64_MAX;
    s.evaluations = UINT64_MAX;
    s.stop_token = req;
    OWNED("metaopt_de_run/huge budgets, requested token", MetaoptDeRunResult, metaopt_de_run(h, &s), metaopt_de_free_run_result,
          ERR_OR_INTR);
    s = metaopt_de_default_stop();
    s.evaluations = 1;
    OWNED("metaopt_de_run/1 evaluation", MetaoptDeRunResult, metaopt_de_run(h, &s), metaopt_de_free_run_result, 0);
    metaopt_stop_token_free(req);
    VOID("metaopt_de_free_run_result/NULL", metaopt_de_free_run_result(NULL));
    MetaoptDeRunResult zr;
    memset(&zr, 0, sizeof zr);
    VOID("metaopt_de_free_run_result/zeroed", metaopt_de_free_run_result(&zr));
    s = metaopt_de_default_stop();
    s.generations = 1;
    zr = metaopt_de_run(h, &s);
    VOID("metaopt_de_free_run_result/first", metaopt_de_free_run_result(&zr));
    VOID("metaopt_de_free_run_result/double free", metaopt_de_free_run_result(&zr));
    uint32_t idx[] = {2, 3, 0xFFFFFFFF, 0x80000000}, mem[] = {4, 5, 0xFFFFFFFF, 0x80000000};
    for (size_t i = 0; i < 4; i++) {
        DARR("metaopt_de_best/bad island", metaopt_de_best(h, idx[i]), ERR);
        DARR("metaopt_de_x/bad island", metaopt_de_x(h, idx[i], 0), ERR);
        DARR("metaopt_de_x/bad member", metaopt_de_x(h, 0, mem[i]), ERR);
    }
    uint64_t nbytes[] = {0, 1, 8, UINT64_MAX, (uint64_t)1 << 63};
    for (size_t i = 0; i < 5; i++)
        I32("metaopt_de_func_data/NULL data", metaopt_de_func_data(h, NULL, nbytes[i]), nbytes[i] == 0 ? ERR : ERR);
    double d = 1;
    I32("metaopt_de_func_data/not a source objective", metaopt_de_func_data(h, &d, sizeof d), ERR);
    I32("metaopt_de_func_data/empty", metaopt_de_func_data(h, &d, 0), ERR);

    /* states: NULL, empty, foreign, truncated and damaged bytes refused; the handle's own loads */
    static const uint8_t junk[8] = {'M', 'E', 'T', 'A', 'O', 'P', 'T', 0};
    I32("metaopt_de_load_state/NULL data", metaopt_de_load_state(h, NULL, 16), ERR);
    I32("metaopt_de_load_state/0 bytes", metaopt_de_load_state(h, junk, 0), ERR);
    I32("metaopt_de_load_state/not a state", metaopt_de_load_state(h, junk, sizeof junk), ERR);
    MetaoptBytesResult ss = metaopt_de_save_state(h);
    require(ss.error_code == 0, "metaopt_de_save_state");
    size_t cuts[] = {1, 8, 19, 20, 24, ss.length / 2, ss.length - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++)
        I32("metaopt_de_load_state/truncated", metaopt_de_load_state(h, ss.data, cuts[i]), ERR);
    for (size_t at = 0; at < ss.length; at += ss.length / 13 + 1) {
        ss.data[at] ^= 0x21;
        I32("metaopt_de_load_state/damaged", metaopt_de_load_state(h, ss.data, ss.length), ERR);
        ss.data[at] ^= 0x21;
    }
    I32("metaopt_de_load_state/its own state", metaopt_de_load_state(h, ss.data, ss.length), 0);
    MetaoptDeStop cst = metaopt_de_default_stop();
    cst.generations = 1;
    cst.checkpoint_every_s = -1;
    cst.checkpoint_path = "/nonexistent-folder/de.state";
    OWNED("metaopt_de_run/checkpoint every -1 s", MetaoptDeRunResult, metaopt_de_run(h, &cst), metaopt_de_free_run_result,
          METAOPT_ERR_INVALID_ARGUMENT);
    cst.checkpoint_every_s = 0;
    OWNED("metaopt_de_run/checkpoint in a missing folder", MetaoptDeRunResult, metaopt_de_run(h, &cst),
          metaopt_de_free_run_result, METAOPT_ERR_INVALID_ARGUMENT);
    metaopt_bytes_free_result(&ss);
    VOID("metaopt_bytes_free_result/NULL", metaopt_bytes_free_result(NULL));
    /* warm starts: shapes, values and islands refused */
    double pts[4] = {0.5, -0.5, 1, 1}, bad_pts[2] = {NAN, 0}, far_pts[2] = {50, 0};
    I32("metaopt_de_set_population/NULL x", metaopt_de_set_population(h, -1, NULL, 1, 2, 0), ERR);
    I32("metaopt_de_set_population/0 rows", metaopt_de_set_population(h, -1, pts, 0, 2, 0), ERR);
    I32("metaopt_de_set_population/wrong dims", metaopt_de_set_population(h, -1, pts, 2, 1, 0), ERR);
    I32("metaopt_de_set_population/too many rows", metaopt_de_set_population(h, 0, pts, 5, 2, 0), ERR);
    I32("metaopt_de_set_population/huge rows", metaopt_de_set_population(h, -1, pts, UINT64_MAX, 2, 0), ERR);
    I32("metaopt_de_set_population/bad island", metaopt_de_set_population(h, 2, pts, 1, 2, 0), ERR);
    I32("metaopt_de_set_population/island -2", metaopt_de_set_population(h, -2, pts, 1, 2, 0), ERR);
    I32("metaopt_de_set_population/NaN", metaopt_de_set_population(h, -1, bad_pts, 1, 2, 0), ERR);
    I32("metaopt_de_set_population/outside", metaopt_de_set_population(h, -1, far_pts, 1, 2, 0), ERR);
    I32("metaopt_de_set_population/outside, clipped", metaopt_de_set_population(h, -1, far_pts, 1, 2, 1), 0);
    I32("metaopt_de_set_population/two rows of island 1", metaopt_de_set_population(h, 1, pts, 2, 2, 0), 0);

    /* callbacks that fail or return NaN */
    MetaoptObjective cf = callback(cb_fail, NULL);
    I32("metaopt_de_init/failing callback", metaopt_de_init(h, &cf, "DE/rand/1", NULL, 1, NULL), METAOPT_ERR_CALLBACK);
    s = metaopt_de_default_stop();
    s.generations = 2;
    OWNED("metaopt_de_run/after a failed init", MetaoptDeRunResult, metaopt_de_run(h, &s), metaopt_de_free_run_result, ANY);
    MetaoptObjective cn = callback(cb_nan, NULL);
    I32("metaopt_de_init/NaN callback", metaopt_de_init(h, &cn, "DE/rand/1", NULL, 1, NULL), ANY);
    OWNED("metaopt_de_run/NaN callback", MetaoptDeRunResult, metaopt_de_run(h, &s), metaopt_de_free_run_result, ANY);
    DARR("metaopt_de_bests_fitness/NaN callback", metaopt_de_bests_fitness(h), ANY);
    DARR("metaopt_de_spread/NaN callback", metaopt_de_spread(h), ANY);
    metaopt_de_free(h);

    /* re-entry from the handle's own callback: busy, and a free there waits for the call */
    MetaoptDeCreateResult c2 = metaopt_de_create(2, 4, 2, lim, 2, "sat", &o);
    require(c2.error_code == 0, "metaopt_de_create");
    MetaoptObjective re = callback(cb_reenter, c2.instance);
    I32("metaopt_de_init/callback re-enters and frees its handle", metaopt_de_init(c2.instance, &re, "DE/rand/1", NULL, 1, NULL),
        ANY);
    if (atomic_load(&g_reenter_bad)) fail("metaopt_de_init/re-entry", "%d re-entered calls were not BUSY", NULL, atomic_load(&g_reenter_bad));
    STR("metaopt_de_info/freed from its own callback", metaopt_de_info(c2.instance), METAOPT_ERR_INVALID_ARGUMENT);
    free_any(0, c2.instance, "after a deferred free");
}

static void hc12_args(void) {
    uint32_t bits = 8, bits2[2] = {8, 8}, badbits[] = {0, 33, 0xFFFFFFFF};
    double dod[2] = {-5, 5};
    MetaoptObjective f1 = catalogue("F1");
    HC12_NEW("metaopt_hc12_params/NULL nBitParam", metaopt_hc12_params(2, NULL, 1, dod, 2, 1, 0, 0, 2, 0, &f1), METAOPT_ERR_NULL_POINTER);
    HC12_NEW("metaopt_hc12_params/NULL dodParam", metaopt_hc12_params(2, &bits, 1, NULL, 2, 1, 0, 0, 2, 0, &f1), METAOPT_ERR_NULL_POINTER);
    HC12_NEW("metaopt_hc12_params/NULL objective", metaopt_hc12_params(2, &bits, 1, dod, 2, 1, 0, 0, 2, 0, NULL), METAOPT_ERR_NULL_POINTER);
    HC12_NEW("metaopt_hc12_params/nParam 0", metaopt_hc12_params(0, &bits, 1, dod, 2, 1, 0, 0, 2, 0, &f1), ERR);
    for (int i = 0; i < 3; i++)
        HC12_NEW("metaopt_hc12_params/bad bits", metaopt_hc12_params(2, &badbits[i], 1, dod, 2, 1, 0, 0, 2, 0, &f1), ERR);
    uint32_t lens[] = {0, 3, 0xFFFFFFFF};
    for (int i = 0; i < 3; i++) {
        HC12_NEW("metaopt_hc12_params/bad nBitParamLength", metaopt_hc12_params(2, bits2, lens[i], dod, 2, 1, 0, 0, 2, 0, &f1), ERR);
        HC12_NEW("metaopt_hc12_params/bad dodParamLength", metaopt_hc12_params(2, &bits, 1, dod, lens[i], 1, 0, 0, 2, 0, &f1), ERR);
    }
    double baddod[][2] = {{NAN, 1}, {0, NAN}, {-INFINITY, 1}, {0, INFINITY}, {1, 1}, {2, 1}};
    for (int i = 0; i < 6; i++)
        HC12_NEW("metaopt_hc12_params/bad interval", metaopt_hc12_params(2, &bits, 1, baddod[i], 2, 1, 0, 0, 2, 0, &f1), ERR);
    uint32_t masks[] = {0, 4, 0xFFFFFFFF};
    for (int i = 0; i < 3; i++)
        HC12_NEW("metaopt_hc12_params/bad maskOrder", metaopt_hc12_params(2, &bits, 1, dod, 2, masks[i], 0, 0, 2, 0, &f1), ERR);
    int32_t wins[][2] = {{-1, 0}, {INT32_MIN, 0}, {16, 0}, {INT32_MAX, 0}, {0, -1}, {0, 17}, {0, INT32_MAX}, {15, 2}, {0, INT32_MIN}};
    for (int i = 0; i < 9; i++) {
        char label[96];
        snprintf(label, sizeof label, "metaopt_hc12_params/window %d %d", wins[i][0], wins[i][1]);
        /* a negative bitLength, once taken as 0 (to the end), is refused */
        HC12_NEW(label, metaopt_hc12_params(2, &bits, 1, dod, 2, 1, wins[i][0], wins[i][1], 2, 0, &f1), wins[i][1] < 0 ? METAOPT_ERR_INVALID_ARGUMENT : ERR);
    }
    int32_t doms[] = {-1, 3, INT32_MAX};
    for (int i = 0; i < 3; i++)
        HC12_NEW("metaopt_hc12_params/bad domain", metaopt_hc12_params(2, &bits, 1, dod, 2, 1, 0, 0, doms[i], 0, &f1), ERR);
    MetaoptObjective objs[8];
    objs[0] = catalogue(NULL);
    objs[1] = catalogue("");
    objs[2] = catalogue("NoSuchFunction");
    objs[3] = catalogue(g_bad_utf8[3]);
    objs[4] = catalogue(g_long);
    objs[5] = callback(NULL, NULL);
    objs[6] = catalogue("F1");
    objs[6].kind = 7;
    objs[7] = catalogue("F1");
    objs[7].kind = METAOPT_OBJECTIVE_SOURCE;
    for (int i = 0; i < 8; i++)
        HC12_NEW("metaopt_hc12_params/bad objective", metaopt_hc12_params(2, &bits, 1, dod, 2, 1, 0, 0, 2, 0, &objs[i]), ERR);
    MetaoptObjective lab = callback(cb_sphere, NULL);
    lab.function_name = g_bad_utf8[4];
    HC12_NEW("metaopt_hc12_params/label not UTF-8", metaopt_hc12_params(2, &bits, 1, dod, 2, 1, 0, 0, 2, 0, &lab), ERR);
    int32_t precs[] = {-1, 3, INT32_MIN, INT32_MAX};
    for (int i = 0; i < 4; i++)
        HC12_NEW("metaopt_hc12_params_precision/bad precision",
                 metaopt_hc12_params_precision(2, &bits, 1, dod, 2, 1, 0, 0, 2, precs[i], &f1), ERR);
    HC12_NEW("metaopt_hc12_params_precision/NULL nBitParam", metaopt_hc12_params_precision(2, NULL, 1, dod, 2, 1, 0, 0, 2, 0, &f1),
             METAOPT_ERR_NULL_POINTER);
    HC12_NEW("metaopt_hc12_params_precision/NULL dodParam", metaopt_hc12_params_precision(2, &bits, 1, NULL, 2, 1, 0, 0, 2, 0, &f1),
             METAOPT_ERR_NULL_POINTER);
    HC12_NEW("metaopt_hc12_params_precision/NULL objective", metaopt_hc12_params_precision(2, &bits, 1, dod, 2, 1, 0, 0, 2, 0, NULL),
             METAOPT_ERR_NULL_POINTER);
    HC12_NEW("metaopt_hc12_params_precision/nParam 0", metaopt_hc12_params_precision(0, &bits, 1, dod, 2, 1, 0, 0, 2, 1, &f1), ERR);
    /* sizes whose products overflow: nParam strings of 32 bits, neighbourhoods of C(32 nParam, 3) rows */
    uint32_t b32 = 32;
    uint32_t nps[] = {0xFFFFFFFF, 0x10000000, 1000000};
    for (int i = 0; i < 3; i++) {
        char label[96];
        snprintf(label, sizeof label, "metaopt_hc12_params/nParam %u of 32 bits, maskOrder 3", nps[i]);
        if (!guard(label)) continue;
        HC12_NEW(label, metaopt_hc12_params(nps[i], &b32, 1, dod, 2, 3, 0, 0, 2, 0, &f1), ERR);
    }

    MetaoptHc12Instance *h = g_hc12;
    VOID("metaopt_hc12_default_run_options/value", (void)metaopt_hc12_default_run_options());
    I32("metaopt_hc12_set_tabu_options/before a list", metaopt_hc12_set_tabu_options(h, &(MetaoptTabuOptions){0, 0, 0, 10, 10}), ERR);
    I32("metaopt_hc12_set_tabu_options/NULL", metaopt_hc12_set_tabu_options(h, NULL), METAOPT_ERR_NULL_POINTER);
    I32("metaopt_hc12_init_tabu_list/0", metaopt_hc12_init_tabu_list(h, 0), 0);
    I32("metaopt_hc12_init_tabu_list/1", metaopt_hc12_init_tabu_list(h, 1), ANY);
    I32("metaopt_hc12_init_tabu_list/huge", metaopt_hc12_init_tabu_list(h, 0xFFFFFFFF), ANY);
    I32("metaopt_hc12_init_tabu_list/8", metaopt_hc12_init_tabu_list(h, 8), 0);
    MetaoptTabuOptions to[6];
    for (int i = 0; i < 6; i++) to[i] = metaopt_tabu_default_options();
    to[0].max_iterations = 0;
    to[1].max_no_improve = 0;
    to[2].has_activation_limit = 1, to[2].activation_limit = NAN;
    to[3].has_activation_limit = 1, to[3].activation_limit = -INFINITY;
    to[4].aspiration = 255, to[4].has_activation_limit = 255;
    to[5].max_iterations = 0xFFFFFFFF, to[5].max_no_improve = 0xFFFFFFFF;
    for (int i = 0; i < 6; i++)
        I32("metaopt_hc12_set_tabu_options/hostile", metaopt_hc12_set_tabu_options(h, &to[i]), i < 3 ? ERR : ANY);
    I32("metaopt_hc12_set_tabu_options/defaults", metaopt_hc12_set_tabu_options(h, &to[5]), ANY);
    MetaoptTabuOptions small = metaopt_tabu_default_options();
    small.max_iterations = 5;
    small.max_no_improve = 3;
    I32("metaopt_hc12_set_tabu_options/small", metaopt_hc12_set_tabu_options(h, &small), 0);

    OWNED("metaopt_hc12_run/NULL opts", MetaoptHc12RunResult, metaopt_hc12_run(h, NULL), metaopt_hc12_free_run_result,
          METAOPT_ERR_NULL_POINTER);
    MetaoptHc12RunOptions ro[16];
    double nanv[2] = {NAN, INFINITY};
    for (int i = 0; i < 16; i++) {
        ro[i] = metaopt_hc12_default_run_options();
        ro[i].max_iterations = 3;
    }
    ro[0].runs = 0;
    ro[1].coding = 2;
    ro[2].coding = -1;
    ro[3].sense = 2;
    ro[4].start = 3;
    ro[5].start = -1;
    ro[6].start = METAOPT_HC12_START_VECTOR; /* NULL vector */
    ro[7].start = METAOPT_HC12_START_VECTOR, ro[7].start_vector = nanv;
    ro[8].max_iterations = 0;
    ro[9].sense = INT32_MIN;
    ro[10].seed = UINT64_MAX, ro[10].taboo = 255; /* a list is set: runs */
    ro[11].start = METAOPT_HC12_START_ZEROS;
    ro[12].time_limit_s = NAN;
    ro[13].time_limit_s = -1;
    ro[14].time_limit_s = 1e300;
    ro[15].runs = 1000000, ro[15].time_limit_s = 0.2; /* the limit ends it */
    int expect[16] = {ERR, ERR, ERR, ERR, ERR, ERR, METAOPT_ERR_NULL_POINTER, ANY, ERR, ERR, 0, 0, ERR, ERR, ERR, 0};
    for (int i = 0; i < 16; i++)
        OWNED("metaopt_hc12_run/hostile options", MetaoptHc12RunResult, metaopt_hc12_run(h, &ro[i]), metaopt_hc12_free_run_result,
              expect[i]);
    MetaoptStopToken *req = requested_token();
    MetaoptHc12RunOptions big = metaopt_hc12_default_run_options();
    big.runs = 0xFFFFFFFF;
    big.max_iterations = 0xFFFFFFFF;
    big.stop_token = req;
    OWNED("metaopt_hc12_run/huge budgets, requested token", MetaoptHc12RunResult, metaopt_hc12_run(h, &big),
          metaopt_hc12_free_run_result, OK_OR_INTR);
    metaopt_stop_token_free(req);
    VOID("metaopt_hc12_free_run_result/NULL", metaopt_hc12_free_run_result(NULL));
    MetaoptHc12RunResult z;
    memset(&z, 0, sizeof z);
    VOID("metaopt_hc12_free_run_result/zeroed", metaopt_hc12_free_run_result(&z));
    I32("metaopt_hc12_init_tabu_list/remove", metaopt_hc12_init_tabu_list(h, 0), 0);
    ro[10].max_iterations = 3;
    OWNED("metaopt_hc12_run/taboo without a list", MetaoptHc12RunResult, metaopt_hc12_run(h, &ro[10]), metaopt_hc12_free_run_result,
          ERR);

    double d = 1;
    uint64_t nbytes[] = {1, 8, UINT64_MAX, (uint64_t)1 << 63};
    for (int i = 0; i < 4; i++) I32("metaopt_hc12_func_data/NULL data", metaopt_hc12_func_data(h, NULL, nbytes[i]), ERR);
    I32("metaopt_hc12_func_data/catalogue objective", metaopt_hc12_func_data(h, &d, 8), ERR);
    I32("metaopt_hc12_func_data/0 bytes", metaopt_hc12_func_data(h, NULL, 0), ERR);
    I32("metaopt_hc12_func_data_clean/catalogue objective", metaopt_hc12_func_data_clean(h), ERR);
    STR("metaopt_hc12_profiler_output/profiler off", metaopt_hc12_profiler_output(h), ERR);
    I32("metaopt_hc12_kernel_verbose/255", metaopt_hc12_kernel_verbose(h, 255), 0);
    I32("metaopt_hc12_kernel_verbose/0", metaopt_hc12_kernel_verbose(h, 0), 0);
    I32("metaopt_hc12_profiler_on/twice", metaopt_hc12_profiler_on(h), 0);
    I32("metaopt_hc12_profiler_on/twice", metaopt_hc12_profiler_on(h), 0);
    STR("metaopt_hc12_profiler_output/on", metaopt_hc12_profiler_output(h), 0);
    STR("metaopt_hc12_info/live", metaopt_hc12_info(h), 0);
    /* checkpoints: a state of a run, damaged copies, a state of another problem or options,
       hostile checkpoint fields */
    MetaoptHc12Instance *fresh = new_hc12(catalogue("F1"));
    OWNED("metaopt_hc12_save_state/no run", MetaoptBytesResult, metaopt_hc12_save_state(fresh), metaopt_bytes_free_result,
          METAOPT_ERR_INVALID_ARGUMENT);
    OWNED("metaopt_hc12_save_state/NULL", MetaoptBytesResult, metaopt_hc12_save_state(NULL), metaopt_bytes_free_result,
          METAOPT_ERR_NULL_POINTER);
    MetaoptHc12RunOptions so = metaopt_hc12_default_run_options();
    so.max_iterations = 3, so.runs = 2;
    OWNED("metaopt_hc12_run/for a state", MetaoptHc12RunResult, metaopt_hc12_run(fresh, &so), metaopt_hc12_free_run_result, 0);
    MetaoptBytesResult hs = metaopt_hc12_save_state(fresh);
    require(hs.error_code == 0 && hs.length > 0, "metaopt_hc12_save_state");
    MetaoptQapInstance *q = new_qap();
    MetaoptQapSolveOptions qo = metaopt_qap_default_solve_options();
    qo.runs = 1;
    OWNED("metaopt_qap_solve/for a state", MetaoptQapSolveResult, metaopt_qap_solve(q, &qo), metaopt_qap_free_solve_result, 0);
    MetaoptBytesResult qs = metaopt_qap_save_state(q);
    require(qs.error_code == 0 && qs.length > 0, "metaopt_qap_save_state");
    damaged_states("metaopt_hc12_load_state", load_hc12, fresh, hs.data, hs.length, qs.data, qs.length);
    so.seed = 2;
    OWNED("metaopt_hc12_run/a state of other options", MetaoptHc12RunResult, metaopt_hc12_run(fresh, &so),
          metaopt_hc12_free_run_result, METAOPT_ERR_INVALID_ARGUMENT);
    so.seed = 1, so.runs = 3;
    I32("metaopt_hc12_load_state/again", metaopt_hc12_load_state(fresh, hs.data, hs.length), 0);
    OWNED("metaopt_hc12_run/continued", MetaoptHc12RunResult, metaopt_hc12_run(fresh, &so), metaopt_hc12_free_run_result, 0);
    MetaoptHc12Instance *other = new_hc12(catalogue("F2"));
    I32("metaopt_hc12_load_state/another objective", metaopt_hc12_load_state(other, hs.data, hs.length),
        METAOPT_ERR_INVALID_ARGUMENT);
    metaopt_hc12_free(other);
    MetaoptHc12RunOptions co[4];
    for (int i = 0; i < 4; i++) {
        co[i] = metaopt_hc12_default_run_options();
        co[i].max_iterations = 3;
    }
    co[0].checkpoint_path = g_long;
    co[1].checkpoint_every_s = NAN;
    co[2].checkpoint_path = write_tmp("hc12.ckpt", "", 0), co[2].checkpoint_every_s = -1;
    co[3].checkpoint_path = g_bad_utf8[0];
    for (int i = 0; i < 4; i++)
        OWNED("metaopt_hc12_run/hostile checkpoint fields", MetaoptHc12RunResult, metaopt_hc12_run(fresh, &co[i]),
              metaopt_hc12_free_run_result, ERR);
    metaopt_bytes_free_result(&hs);
    metaopt_bytes_free_result(&qs);
    metaopt_qap_free(q);
    metaopt_hc12_free(fresh);
}

static void qap_args(void) {
    float fdf[QN * QN];
    double ddf[QN * QN];
    int64_t big[QN * QN];
    for (int i = 0; i < QN * QN; i++) fdf[i] = (float)g_df[i], ddf[i] = g_df[i], big[i] = g_df[i] ? INT64_MAX : 0;
    QAP_NEW("metaopt_qap_params/NULL DF", metaopt_qap_params(2, QN, 1, NULL, "int32", 2, 0, 0), METAOPT_ERR_NULL_POINTER);
    QAP_NEW("metaopt_qap_params/NULL type", metaopt_qap_params(2, QN, 1, g_df, NULL, 2, 0, 0), METAOPT_ERR_NULL_POINTER);
    const char *types[] = {"", "int8", "INT32 ", "int32\n", g_bad_utf8[0], g_bad_utf8[1], g_long};
    for (int i = 0; i < 7; i++) QAP_NEW("metaopt_qap_params/bad type", metaopt_qap_params(2, QN, 1, g_df, types[i], 2, 0, 0), ERR);
    uint32_t sw[] = {0, 65, 0xFFFFFFFF};
    for (int i = 0; i < 3; i++) QAP_NEW("metaopt_qap_params/bad swaps", metaopt_qap_params(sw[i], QN, 1, g_df, "int32", 2, 0, 0), ERR);
    uint32_t ns[][2] = {{0, 1}, {1, 1}, {QN, 0}, {0xFFFFFFFF, 0xFFFFFFFF}, {0x10000, 0x10000}, {0xFFFFFFFF, 1}, {0x10000000, 0x10000000}};
    for (int i = 0; i < 7; i++) {
        char label[96];
        snprintf(label, sizeof label, "metaopt_qap_params/sizes %u x %u", ns[i][0], ns[i][1]);
        QAP_NEW(label, metaopt_qap_params(2, ns[i][0], ns[i][1], g_df, "int32", 2, 0, 0), ERR);
    }
    uint32_t masks[] = {0, 4, 0xFFFFFFFF};
    for (int i = 0; i < 3; i++) QAP_NEW("metaopt_qap_params/bad maskOrder", metaopt_qap_params(2, QN, 1, g_df, "int32", masks[i], 0, 0), ERR);
    int32_t wins[][2] = {{-1, 0}, {INT32_MIN, 0}, {INT32_MAX, 0}, {0, -1}, {0, INT32_MAX}, {0, INT32_MIN}, {12, 0}};
    for (int i = 0; i < 7; i++) {
        char label[96];
        snprintf(label, sizeof label, "metaopt_qap_params/window %d %d", wins[i][0], wins[i][1]);
        QAP_NEW(label, metaopt_qap_params(2, QN, 1, g_df, "int32", 2, wins[i][0], wins[i][1]), wins[i][1] < 0 ? METAOPT_ERR_INVALID_ARGUMENT : ERR);
    }
    float fbad[4] = {NAN, INFINITY, -INFINITY, 1e38f};
    for (int i = 0; i < 4; i++) {
        fdf[1] = fbad[i];
        QAP_NEW("metaopt_qap_params/float data", metaopt_qap_params(2, QN, 1, fdf, "float32", 2, 0, 0), i < 3 ? ERR : ANY);
        ddf[1] = fbad[i];
        QAP_NEW("metaopt_qap_params/double data", metaopt_qap_params(2, QN, 1, ddf, "float64", 2, 0, 0), i < 3 ? ERR : ANY);
    }
    int32_t diag[QN * QN];
    memcpy(diag, g_df, sizeof diag);
    diag[0] = 7;
    QAP_NEW("metaopt_qap_params/nonzero diagonal", metaopt_qap_params(2, QN, 1, diag, "int32", 2, 0, 0), ERR);
    QAP_NEW("metaopt_qap_params/int64 near overflow", metaopt_qap_params(2, QN, 1, big, "int64", 2, 0, 0), ANY);
    int32_t negd[QN * QN];
    for (int i = 0; i < QN * QN; i++) negd[i] = g_df[i] ? INT32_MIN : 0;
    QAP_NEW("metaopt_qap_params/uint32 of INT32_MIN bits", metaopt_qap_params(2, QN, 1, negd, "uint32", 2, 0, 0), ANY);

    QAP_NEW("metaopt_qap_params_ab/NULL A", metaopt_qap_params_ab(2, QN, 1, NULL, g_df, "int32", 2, 0, 0), METAOPT_ERR_NULL_POINTER);
    QAP_NEW("metaopt_qap_params_ab/NULL B", metaopt_qap_params_ab(2, QN, 1, g_df, NULL, "int32", 2, 0, 0), METAOPT_ERR_NULL_POINTER);
    QAP_NEW("metaopt_qap_params_ab/NULL type", metaopt_qap_params_ab(2, QN, 1, g_df, g_df, NULL, 2, 0, 0), METAOPT_ERR_NULL_POINTER);
    for (int i = 0; i < 7; i++) QAP_NEW("metaopt_qap_params_ab/bad type", metaopt_qap_params_ab(2, QN, 1, g_df, g_df, types[i], 2, 0, 0), ERR);
    for (int i = 0; i < 7; i++) {
        char label[96];
        snprintf(label, sizeof label, "metaopt_qap_params_ab/sizes %u x %u", ns[i][0], ns[i][1]);
        QAP_NEW(label, metaopt_qap_params_ab(2, ns[i][0], ns[i][1], g_df, g_df, "int32", 2, 0, 0), ERR);
    }
    fdf[1] = NAN;
    QAP_NEW("metaopt_qap_params_ab/NaN", metaopt_qap_params_ab(2, QN, 1, fdf, fdf, "float", 2, 0, 0), ERR);
    for (int i = 0; i < 3; i++) QAP_NEW("metaopt_qap_params_ab/bad swaps", metaopt_qap_params_ab(sw[i], QN, 1, g_df, g_df, "int32", 2, 0, 0), ERR);
    for (int i = 0; i < 3; i++)
        QAP_NEW("metaopt_qap_params_ab/bad maskOrder", metaopt_qap_params_ab(2, QN, 1, g_df, g_df, "int32", masks[i], 0, 0), ERR);

    /* files */
    QAP_NEW("metaopt_qap_params_from_file/NULL", metaopt_qap_params_from_file(NULL, 2, 2, 0, 0), METAOPT_ERR_NULL_POINTER);
    char longpath[8192];
    memset(longpath, 'a', sizeof longpath - 1);
    longpath[0] = '/';
    longpath[sizeof longpath - 1] = 0;
    const char *paths[] = {"", "/", "/nonexistent/x.dat", "/dev/null", "/proc/self/status", longpath, g_bad_utf8[0], g_bad_utf8[2], g_tmp};
    for (int i = 0; i < 9; i++) QAP_NEW("metaopt_qap_params_from_file/bad path", metaopt_qap_params_from_file(paths[i], 2, 2, 0, 0), ERR);
    struct {
        const char *name, *text;
    } dats[] = {
        {"empty.dat", ""},
        {"words.dat", "hello world\n"},
        {"neg.dat", "-3\n"},
        {"zero.dat", "0\n"},
        {"short.dat", "3\n0 1 2\n"},
        {"huge_n.dat", "4294967295\n1 2 3\n"},
        {"big_n.dat", "100000\n1 2 3\n"},
        {"n70000.dat", "70000\n"},
        {"overflow.dat", "3\n99999999999999999999999 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n"},
        {"float.dat", "2\n0 1.5\n1 0\n0 1\n1 0\n"},
        {"nul.dat", "2\n0\0 1\n1 0\n0 1\n1 0\n"},
        {"latin1.dat", "2\n0 \xe9\n1 0\n0 1\n1 0\n"},
        {"extra.dat", "2\n0 1\n1 0\n0 1\n1 0\n5 5 5\n"},
    };
    for (size_t i = 0; i < sizeof dats / sizeof dats[0]; i++) {
        size_t len = strcmp(dats[i].name, "nul.dat") == 0 ? 20 : strlen(dats[i].text);
        const char *p = write_tmp(dats[i].name, dats[i].text, len);
        char label[96];
        snprintf(label, sizeof label, "metaopt_qap_params_from_file/malformed %s", dats[i].name);
        QAP_NEW(label, metaopt_qap_params_from_file(p, 2, 2, 0, 0), strcmp(dats[i].name, "extra.dat") == 0 ? ANY : ERR);
    }
    char chr[512];
    snprintf(chr, sizeof chr, "%s/qaplib/chr12a.dat", g_data_dir);
    for (int i = 0; i < 3; i++) QAP_NEW("metaopt_qap_params_from_file/bad swaps", metaopt_qap_params_from_file(chr, sw[i], 2, 0, 0), ERR);
    for (int i = 0; i < 3; i++)
        QAP_NEW("metaopt_qap_params_from_file/bad maskOrder", metaopt_qap_params_from_file(chr, 2, masks[i], 0, 0), ERR);
    /* chr12a with 2 swaps: 4 parameters of 4 bits, so {12, 0} is a good window */
    for (int i = 0; i < 7; i++)
        QAP_NEW("metaopt_qap_params_from_file/window", metaopt_qap_params_from_file(chr, 2, 2, wins[i][0], wins[i][1]),
                wins[i][1] < 0 || wins[i][0] == 12 ? ANY : ERR);

    /* the live instance */
    MetaoptQapInstance *h = g_qap;
    int32_t be[][2] = {{-1, 0}, {2, 0}, {INT32_MAX, 0}, {1, -1}, {1, 2}, {0, INT32_MIN}};
    for (int i = 0; i < 6; i++) I32("metaopt_qap_set_backend/bad", metaopt_qap_set_backend(h, be[i][0], be[i][1]), ERR);
    I32("metaopt_qap_set_backend/cpu full", metaopt_qap_set_backend(h, 1, 1), 0);
    I32("metaopt_qap_set_max_iterations/0", metaopt_qap_set_max_iterations(h, 0), ERR);
    I32("metaopt_qap_set_max_iterations/max", metaopt_qap_set_max_iterations(h, 0xFFFFFFFF), 0);
    /* at least ceil(log2 n) bits per parameter, at most 32; 0 restores the default */
    uint32_t bits[] = {33, 0x80000000u, 0xFFFFFFFFu};
    for (int i = 0; i < 3; i++) I32("metaopt_qap_set_bits_per_param/bad", metaopt_qap_set_bits_per_param(h, bits[i]), ERR);
    I32("metaopt_qap_set_bits_per_param/8", metaopt_qap_set_bits_per_param(h, 8), 0);
    I32("metaopt_qap_set_bits_per_param/default", metaopt_qap_set_bits_per_param(h, 0), 0);
    I32("metaopt_qap_info/NULL out", metaopt_qap_info(h, NULL), METAOPT_ERR_NULL_POINTER);
    MetaoptQapInfo info;
    I32("metaopt_qap_info/live", metaopt_qap_info(h, &info), 0);
    VOID("metaopt_tabu_default_options/value", (void)metaopt_tabu_default_options());
    I32("metaopt_qap_set_tabu_options/before a list", metaopt_qap_set_tabu_options(h, &(MetaoptTabuOptions){0, 0, 0, 10, 10}), ERR);
    I32("metaopt_qap_set_tabu_options/NULL", metaopt_qap_set_tabu_options(h, NULL), METAOPT_ERR_NULL_POINTER);
    I32("metaopt_qap_init_tabu_list/huge", metaopt_qap_init_tabu_list(h, 0xFFFFFFFF), ANY);
    I32("metaopt_qap_init_tabu_list/4", metaopt_qap_init_tabu_list(h, 4), 0);
    MetaoptTabuOptions to[4];
    for (int i = 0; i < 4; i++) to[i] = metaopt_tabu_default_options();
    to[0].max_iterations = 0;
    to[1].max_no_improve = 0;
    to[2].has_activation_limit = 1, to[2].activation_limit = NAN;
    to[3].max_iterations = 20, to[3].max_no_improve = 5, to[3].aspiration = 255;
    for (int i = 0; i < 4; i++) I32("metaopt_qap_set_tabu_options/hostile", metaopt_qap_set_tabu_options(h, &to[i]), i < 3 ? ERR : 0);
    /* run */
    uint16_t orders[][QN] = {{0, 0, 0, 0, 0}, {0, 1, 2, 3, 5}, {0xFFFF, 1, 2, 3, 4}, {4, 3, 2, 1, 0}};
    for (int i = 0; i < 4; i++)
        OWNED("metaopt_qap_run/initOrder", MetaoptQapRunResult, metaopt_qap_run(h, orders[i], NULL), metaopt_qap_free_run_result,
              i < 3 ? ERR : 0);
    uint32_t ks[][4] = {{0xFFFFFFFF, 0, 0, 0}, {8, 0, 0, 0}, {0x80000000u, 1, 2, 3}, {1, 2, 3, 4}};
    for (int i = 0; i < 4; i++)
        OWNED("metaopt_qap_run/initK", MetaoptQapRunResult, metaopt_qap_run(h, NULL, ks[i]), metaopt_qap_free_run_result,
              i < 3 ? ERR : ANY);
    VOID("metaopt_qap_free_run_result/NULL", metaopt_qap_free_run_result(NULL));
    MetaoptQapRunResult zr;
    memset(&zr, 0, sizeof zr);
    VOID("metaopt_qap_free_run_result/zeroed", metaopt_qap_free_run_result(&zr));
    /* solve */
    VOID("metaopt_qap_default_solve_options/value", (void)metaopt_qap_default_solve_options());
    OWNED("metaopt_qap_solve/NULL opts", MetaoptQapSolveResult, metaopt_qap_solve(h, NULL), metaopt_qap_free_solve_result,
          METAOPT_ERR_NULL_POINTER);
    MetaoptQapSolveOptions so[12];
    for (int i = 0; i < 12; i++) {
        so[i] = metaopt_qap_default_solve_options();
        so[i].runs = 2;
    }
    so[0].runs = 0;
    so[1].time_limit_s = NAN;
    so[2].start = 4;
    so[3].start = -1;
    so[4].start = METAOPT_QAP_START_GIVEN; /* NULL start_order */
    so[5].start = METAOPT_QAP_START_GIVEN, so[5].start_order = orders[0];
    so[6].start = METAOPT_QAP_START_GLB; /* not from a file */
    so[7].restart = 2;
    so[8].restart = INT32_MIN;
    so[9].has_target = 1, so[9].target = NAN;
    so[10].time_limit_s = -INFINITY;
    so[11].start = METAOPT_QAP_START_GIVEN, so[11].start_order = orders[3], so[11].has_target = 255, so[11].target = -INFINITY;
    /* so[10]: a negative infinite time limit is refused (one validator for every time limit) */
    int se[12] = {ERR, ERR, ERR, ERR, METAOPT_ERR_NULL_POINTER, ERR, ERR, ERR, ERR, ANY, ERR, ANY};
    for (int i = 0; i < 12; i++)
        OWNED("metaopt_qap_solve/hostile options", MetaoptQapSolveResult, metaopt_qap_solve(h, &so[i]), metaopt_qap_free_solve_result,
              se[i]);
    MetaoptStopToken *req = requested_token();
    MetaoptQapSolveOptions inf = metaopt_qap_default_solve_options();
    inf.runs = 0;
    inf.time_limit_s = INFINITY;
    inf.stop_token = req;
    OWNED("metaopt_qap_solve/no limit but infinity, requested token", MetaoptQapSolveResult, metaopt_qap_solve(h, &inf),
          metaopt_qap_free_solve_result, ERR_OR_INTR);
    inf.runs = 0xFFFFFFFF;
    inf.time_limit_s = 1e300;
    OWNED("metaopt_qap_solve/huge budgets, requested token", MetaoptQapSolveResult, metaopt_qap_solve(h, &inf),
          metaopt_qap_free_solve_result, ERR_OR_INTR);
    VOID("metaopt_qap_free_solve_result/NULL", metaopt_qap_free_solve_result(NULL));
    MetaoptQapSolveResult zso;
    memset(&zso, 0, sizeof zso);
    VOID("metaopt_qap_free_solve_result/zeroed", metaopt_qap_free_solve_result(&zso));
    /* tabu search */
    VOID("metaopt_qap_ts_default_options/value", (void)metaopt_qap_ts_default_options());
    MetaoptQapTsOptions t[19];
    for (int i = 0; i < 19; i++) {
        t[i] = metaopt_qap_ts_default_options();
        t[i].chains = 2;
        t[i].max_iterations = 20;
        t[i].launch_iterations = 10;
    }
    t[0].chains = (1u << 20) + 1; /* above the most (0 is the backend's count) */
    t[1].launch_iterations = 0;
    t[2].max_iterations = 0, t[2].time_limit_s = 0;
    t[3].tenure = 2;
    t[4].tenure = -1;
    t[5].stagnation = -2;
    t[6].stagnation = INT64_MIN;
    t[7].perturbation_min = 5, t[7].perturbation_max = 2;
    t[8].starts_count = 1; /* NULL starts */
    t[9].starts_count = 3, t[9].starts = &orders[0][0]; /* more than chains, and not permutations */
    t[10].starts_count = 1, t[10].starts = &orders[1][0];
    t[11].time_limit_s = NAN;
    t[12].has_target = 1, t[12].target = NAN;
    t[13].perturbation_min = 0xFFFFFFFF, t[13].perturbation_max = 0xFFFFFFFF;
    t[14].elite_size = 0xFFFFFFFF, t[14].aspiration_horizon = 0xFFFFFFFF, t[14].stagnation = INT64_MAX;
    t[15].starts_count = 1, t[15].starts = &orders[3][0], t[15].seed = UINT64_MAX;
    t[16].fit_chains = 2;
    t[17].crossover = NAN;
    t[18].crossover = -INFINITY;
    int te[19] = {ERR, ERR, ERR, ERR, ERR, ERR, ERR, ERR, METAOPT_ERR_NULL_POINTER, ERR, ERR, ERR, ANY, ANY, ANY, 0, ERR,
                  ERR, ERR};
    for (int i = 0; i < 19; i++) {
        char label[96];
        snprintf(label, sizeof label, "metaopt_qap_ts_solve/hostile options %d", i);
        if ((i == 13 || i == 14) && !guard(label)) continue;
        OWNED(label, MetaoptQapTsSolveResult, metaopt_qap_ts_solve(h, &t[i]), metaopt_qap_ts_free_solve_result, te[i]);
    }
    MetaoptQapTsOptions tb = metaopt_qap_ts_default_options();
    tb.max_iterations = UINT64_MAX;
    tb.launch_iterations = 0xFFFFFFFF;
    tb.time_limit_s = INFINITY;
    tb.stop_token = req;
    OWNED("metaopt_qap_ts_solve/huge budgets, requested token", MetaoptQapTsSolveResult, metaopt_qap_ts_solve(h, &tb),
          metaopt_qap_ts_free_solve_result, ERR_OR_INTR);
    tb.chains = 0xFFFFFFFF;
    if (guard("metaopt_qap_ts_solve/4294967295 chains, requested token"))
        OWNED("metaopt_qap_ts_solve/4294967295 chains, requested token", MetaoptQapTsSolveResult, metaopt_qap_ts_solve(h, &tb),
              metaopt_qap_ts_free_solve_result, ERR_OR_INTR);
    if (!g_valgrind)
        OWNED("metaopt_qap_ts_solve/NULL options (the defaults)", MetaoptQapTsSolveResult, metaopt_qap_ts_solve(h, NULL),
              metaopt_qap_ts_free_solve_result, 0);
    /* checkpoints: a state of the last solve, then damaged copies of it */
    OWNED("metaopt_qap_ts_save_state/after a solve", MetaoptBytesResult, metaopt_qap_ts_save_state(h),
          metaopt_bytes_free_result, 0);
    {
        MetaoptBytesResult st = metaopt_qap_ts_save_state(h);
        if (st.error_code == 0 && st.length > 24) {
            uint8_t *cp = malloc(st.length);
            require(cp != NULL, "malloc");
            memcpy(cp, st.data, st.length);
            STR("metaopt_state_describe/a state", metaopt_state_describe(cp, st.length), 0);
            I32("metaopt_qap_ts_load_state/truncated", metaopt_qap_ts_load_state(h, cp, st.length / 2),
                METAOPT_ERR_INVALID_ARGUMENT);
            I32("metaopt_qap_ts_load_state/header only", metaopt_qap_ts_load_state(h, cp, 20), METAOPT_ERR_INVALID_ARGUMENT);
            cp[st.length / 2] ^= 0x55;
            I32("metaopt_qap_ts_load_state/flipped byte", metaopt_qap_ts_load_state(h, cp, st.length),
                METAOPT_ERR_INVALID_ARGUMENT);
            STR("metaopt_state_describe/flipped byte", metaopt_state_describe(cp, st.length), METAOPT_ERR_INVALID_ARGUMENT);
            cp[st.length / 2] ^= 0x55;
            /* a huge length claimed in the frame */
            memset(cp + 12, 0xFF, 8);
            I32("metaopt_qap_ts_load_state/huge length", metaopt_qap_ts_load_state(h, cp, st.length),
                METAOPT_ERR_INVALID_ARGUMENT);
            free(cp);
        }
        metaopt_bytes_free_result(&st);
    }
    I32("metaopt_qap_ts_load_state/NULL data", metaopt_qap_ts_load_state(h, NULL, 100), METAOPT_ERR_NULL_POINTER);
    I32("metaopt_qap_ts_load_state/0 bytes", metaopt_qap_ts_load_state(h, (const uint8_t *)"x", 0),
        METAOPT_ERR_INVALID_ARGUMENT);
    I32("metaopt_qap_ts_load_state/garbage", metaopt_qap_ts_load_state(h, (const uint8_t *)"garbage!garbage!", 16),
        METAOPT_ERR_INVALID_ARGUMENT);
    I32("metaopt_qap_ts_load_state/NULL instance", metaopt_qap_ts_load_state(NULL, (const uint8_t *)"x", 1),
        METAOPT_ERR_NULL_POINTER);
    OWNED("metaopt_qap_ts_save_state/NULL instance", MetaoptBytesResult, metaopt_qap_ts_save_state(NULL),
          metaopt_bytes_free_result, METAOPT_ERR_NULL_POINTER);
    STR("metaopt_state_describe/NULL", metaopt_state_describe(NULL, 10), METAOPT_ERR_NULL_POINTER);
    STR("metaopt_state_describe/SIZE_MAX bytes", metaopt_state_describe((const uint8_t *)"x", SIZE_MAX), ERR);
    {
        MetaoptQapTsOptions tc = metaopt_qap_ts_default_options();
        tc.chains = 2, tc.max_iterations = 20, tc.launch_iterations = 10;
        tc.checkpoint_every_s = 1;
        OWNED("metaopt_qap_ts_solve/checkpoint_every_s without a path", MetaoptQapTsSolveResult,
              metaopt_qap_ts_solve(h, &tc), metaopt_qap_ts_free_solve_result, METAOPT_ERR_INVALID_ARGUMENT);
        tc.checkpoint_path = "/nonexistent-folder/x.state";
        OWNED("metaopt_qap_ts_solve/checkpoint in a missing folder", MetaoptQapTsSolveResult,
              metaopt_qap_ts_solve(h, &tc), metaopt_qap_ts_free_solve_result, METAOPT_ERR_INVALID_ARGUMENT);
        tc.checkpoint_path = "";
        OWNED("metaopt_qap_ts_solve/empty checkpoint path", MetaoptQapTsSolveResult,
              metaopt_qap_ts_solve(h, &tc), metaopt_qap_ts_free_solve_result, METAOPT_ERR_INVALID_ARGUMENT);
        tc.checkpoint_path = "/tmp";
        tc.checkpoint_every_s = NAN;
        OWNED("metaopt_qap_ts_solve/NaN checkpoint interval", MetaoptQapTsSolveResult,
              metaopt_qap_ts_solve(h, &tc), metaopt_qap_ts_free_solve_result, METAOPT_ERR_INVALID_ARGUMENT);
    }
    VOID("metaopt_bytes_free_result/NULL", metaopt_bytes_free_result(NULL));
    MetaoptBytesResult zb;
    memset(&zb, 0, sizeof zb);
    VOID("metaopt_bytes_free_result/zeroed", metaopt_bytes_free_result(&zb));
    VOID("metaopt_qap_ts_free_solve_result/NULL", metaopt_qap_ts_free_solve_result(NULL));
    MetaoptQapTsSolveResult zt;
    memset(&zt, 0, sizeof zt);
    VOID("metaopt_qap_ts_free_solve_result/zeroed", metaopt_qap_ts_free_solve_result(&zt));
    /* the tabu search's state: saved, garbage and NULL bytes refused */
    OWNED("metaopt_qap_ts_save_state/after the solves", MetaoptBytesResult, metaopt_qap_ts_save_state(h),
          metaopt_bytes_free_result, ANY);
    OWNED("metaopt_qap_ts_save_state/NULL", MetaoptBytesResult, metaopt_qap_ts_save_state(NULL), metaopt_bytes_free_result,
          METAOPT_ERR_NULL_POINTER);
    {
        static const uint8_t junk[16] = "METAOPT\x1a\x01junk";
        I32("metaopt_qap_ts_load_state/junk", metaopt_qap_ts_load_state(h, junk, sizeof junk), ERR);
        I32("metaopt_qap_ts_load_state/NULL", metaopt_qap_ts_load_state(h, NULL, 64), METAOPT_ERR_NULL_POINTER);
        I32("metaopt_qap_ts_load_state/0 bytes", metaopt_qap_ts_load_state(h, junk, 0), ERR);
        STR("metaopt_state_describe/junk", metaopt_state_describe(junk, sizeof junk), ERR);
        STR("metaopt_state_describe/NULL", metaopt_state_describe(NULL, 64), METAOPT_ERR_NULL_POINTER);
    }
    metaopt_stop_token_free(req);
    I32("metaopt_qap_init_tabu_list/off", metaopt_qap_init_tabu_list(h, 0), 0);
    /* the iterated HC12 solve's state: damaged copies, a state of another solver, of other
       options, of another problem, hostile checkpoint fields */
    {
        MetaoptQapInstance *q = new_qap();
        OWNED("metaopt_qap_save_state/no solve", MetaoptBytesResult, metaopt_qap_save_state(q), metaopt_bytes_free_result,
              METAOPT_ERR_INVALID_ARGUMENT);
        OWNED("metaopt_qap_save_state/NULL", MetaoptBytesResult, metaopt_qap_save_state(NULL), metaopt_bytes_free_result,
              METAOPT_ERR_NULL_POINTER);
        MetaoptQapSolveOptions so = metaopt_qap_default_solve_options();
        so.runs = 2;
        OWNED("metaopt_qap_solve/for a state", MetaoptQapSolveResult, metaopt_qap_solve(q, &so), metaopt_qap_free_solve_result, 0);
        MetaoptBytesResult qs = metaopt_qap_save_state(q);
        require(qs.error_code == 0 && qs.length > 0, "metaopt_qap_save_state");
        MetaoptQapTsOptions to = metaopt_qap_ts_default_options();
        to.chains = 1, to.max_iterations = 10, to.launch_iterations = 10;
        OWNED("metaopt_qap_ts_solve/for a state", MetaoptQapTsSolveResult, metaopt_qap_ts_solve(q, &to),
              metaopt_qap_ts_free_solve_result, 0);
        MetaoptBytesResult ts = metaopt_qap_ts_save_state(q);
        require(ts.error_code == 0 && ts.length > 0, "metaopt_qap_ts_save_state");
        damaged_states("metaopt_qap_load_state", load_qap, q, qs.data, qs.length, ts.data, ts.length);
        I32("metaopt_qap_ts_load_state/a state of the HC12 solve", metaopt_qap_ts_load_state(q, qs.data, qs.length),
            METAOPT_ERR_INVALID_ARGUMENT);
        so.restart = METAOPT_QAP_RESTART_RANDOM;
        OWNED("metaopt_qap_solve/a state of other options", MetaoptQapSolveResult, metaopt_qap_solve(q, &so),
              metaopt_qap_free_solve_result, METAOPT_ERR_INVALID_ARGUMENT);
        so.restart = METAOPT_QAP_RESTART_REBASE, so.runs = 3;
        I32("metaopt_qap_load_state/again", metaopt_qap_load_state(q, qs.data, qs.length), 0);
        OWNED("metaopt_qap_solve/continued", MetaoptQapSolveResult, metaopt_qap_solve(q, &so), metaopt_qap_free_solve_result, 0);
        MetaoptQapParamsResult o3 = metaopt_qap_params(3, QN, 1, g_df, "int32", 2, 0, 0);
        if (o3.error_code == 0) {
            I32("metaopt_qap_load_state/another string shape", metaopt_qap_load_state(o3.instance, qs.data, qs.length), 0);
            OWNED("metaopt_qap_solve/a state of another string shape", MetaoptQapSolveResult, metaopt_qap_solve(o3.instance, &so),
                  metaopt_qap_free_solve_result, METAOPT_ERR_INVALID_ARGUMENT);
            metaopt_qap_free(o3.instance);
        }
        metaopt_pointer_free(o3.error_message);
        MetaoptQapSolveOptions co[3];
        for (int i = 0; i < 3; i++) co[i] = metaopt_qap_default_solve_options(), co[i].runs = 1;
        co[0].checkpoint_path = g_long;
        co[1].checkpoint_every_s = INFINITY;
        co[2].checkpoint_path = g_bad_utf8[1];
        for (int i = 0; i < 3; i++)
            OWNED("metaopt_qap_solve/hostile checkpoint fields", MetaoptQapSolveResult, metaopt_qap_solve(q, &co[i]),
                  metaopt_qap_free_solve_result, ERR);
        metaopt_bytes_free_result(&qs);
        metaopt_bytes_free_result(&ts);
        metaopt_qap_free(q);
    }
}

static void sat_args(void) {
    SAT_NEW("metaopt_sat_parse/NULL", metaopt_sat_parse(NULL), METAOPT_ERR_NULL_POINTER);
    const char *paths[] = {"", "/", "/nonexistent.cnf", "/dev/null", g_bad_utf8[0], g_bad_utf8[3], g_long, g_tmp};
    for (int i = 0; i < 8; i++) SAT_NEW("metaopt_sat_parse/bad path", metaopt_sat_parse(paths[i]), ERR);
    struct {
        const char *name, *text;
        int expect;
    } cnfs[] = {
        {"a.cnf", "", ERR},
        {"b.cnf", "p cnf 4294967295 1\n1 0\n", ERR},
        {"c.cnf", "p cnf 3 4294967295\n1 0\n", ERR},
        {"d.cnf", "p cnf -1 2\n1 0\n", ERR},
        {"e.cnf", "p cnf 3 1\n5 0\n", ERR},
        {"f.cnf", "p cnf 3 1\n-2147483648 0\n", ERR},
        {"g.cnf", "p cnf 3 1\n99999999999999999999 0\n", ERR},
        {"h.cnf", "p cnf 3 1\n1 \xff 0\n", ERR},
        {"i.cnf", "p cnf 3 2\n1 0\n", ERR},
        {"j.cnf", "p dnf 3 1\n1 0\n", ERR},
        {"k.cnf", "p cnf 3 1\n1 2", ANY},
        {"l.cnf", "p cnf 0 0\n", ANY},
        {"m.cnf", "p cnf 2147483648 1\n1 0\n", ERR},
        {"n.cnf", "p cnf 3 1\n0\n", ERR},
    };
    for (size_t i = 0; i < sizeof cnfs / sizeof cnfs[0]; i++) {
        const char *p = write_tmp(cnfs[i].name, cnfs[i].text, strlen(cnfs[i].text));
        char label[96];
        snprintf(label, sizeof label, "metaopt_sat_parse/malformed %s", cnfs[i].name);
        SAT_NEW(label, metaopt_sat_parse(p), cnfs[i].expect);
    }
    int32_t l1[] = {1, 0}, lmin[] = {INT32_MIN, 0}, lmax[] = {INT32_MAX, 0}, lbig[] = {4, 0}, lnoz[] = {1, 2}, lempty[] = {1, 0, 0};
    SAT_NEW("metaopt_sat_from_clauses/NULL literals", metaopt_sat_from_clauses(3, NULL, 3), METAOPT_ERR_NULL_POINTER);
    SAT_NEW("metaopt_sat_from_clauses/NULL, huge length", metaopt_sat_from_clauses(3, NULL, UINT64_MAX), ERR);
    SAT_NEW("metaopt_sat_from_clauses/NULL, 0", metaopt_sat_from_clauses(3, NULL, 0), ANY);
    SAT_NEW("metaopt_sat_from_clauses/no variables", metaopt_sat_from_clauses(0, l1, 2), ERR);
    SAT_NEW("metaopt_sat_from_clauses/INT32_MIN literal", metaopt_sat_from_clauses(3, lmin, 2), ERR);
    SAT_NEW("metaopt_sat_from_clauses/INT32_MAX literal", metaopt_sat_from_clauses(3, lmax, 2), ERR);
    SAT_NEW("metaopt_sat_from_clauses/literal out of range", metaopt_sat_from_clauses(3, lbig, 2), ERR);
    SAT_NEW("metaopt_sat_from_clauses/no final 0", metaopt_sat_from_clauses(3, lnoz, 2), ERR);
    SAT_NEW("metaopt_sat_from_clauses/empty clause", metaopt_sat_from_clauses(3, lempty, 3), ERR);
    SAT_NEW("metaopt_sat_from_clauses/INT32_MIN with 2^31 vars", metaopt_sat_from_clauses(0x80000000u, lmin, 2), ERR);
    if (guard("metaopt_sat_from_clauses/4294967295 variables"))
        SAT_NEW("metaopt_sat_from_clauses/4294967295 variables", metaopt_sat_from_clauses(0xFFFFFFFF, l1, 2), ANY);

    MetaoptSatInstance *h = g_sat;
    I32("metaopt_sat_words_per_assignment/live", metaopt_sat_words_per_assignment(h), 0);
    uint32_t a[2] = {0, 7}, high[1] = {0xFFFFFFF8u};
    OWNED("metaopt_sat_evaluate/NULL", MetaoptSatEvalResult, metaopt_sat_evaluate(h, NULL, 1, 1), metaopt_sat_free_eval_result,
          METAOPT_ERR_NULL_POINTER);
    OWNED("metaopt_sat_evaluate/NULL, huge count", MetaoptSatEvalResult, metaopt_sat_evaluate(h, NULL, 0xFFFFFFFF, 1),
          metaopt_sat_free_eval_result, ERR);
    OWNED("metaopt_sat_evaluate/count 0", MetaoptSatEvalResult, metaopt_sat_evaluate(h, a, 0, 1), metaopt_sat_free_eval_result, ERR);
    OWNED("metaopt_sat_evaluate/bits past the last variable", MetaoptSatEvalResult, metaopt_sat_evaluate(h, high, 1, 1),
          metaopt_sat_free_eval_result, ERR);
    OWNED("metaopt_sat_evaluate/bits past the last variable, device", MetaoptSatEvalResult, metaopt_sat_evaluate(h, high, 1, 0),
          metaopt_sat_free_eval_result, ERR);
    OWNED("metaopt_sat_evaluate/use_cpu 255", MetaoptSatEvalResult, metaopt_sat_evaluate(h, a, 2, 255), metaopt_sat_free_eval_result, 0);
    OWNED("metaopt_sat_evaluate/device", MetaoptSatEvalResult, metaopt_sat_evaluate(h, a, 2, 0), metaopt_sat_free_eval_result, 0);
    VOID("metaopt_sat_free_eval_result/NULL", metaopt_sat_free_eval_result(NULL));
    MetaoptSatEvalResult zev;
    memset(&zev, 0, sizeof zev);
    VOID("metaopt_sat_free_eval_result/zeroed", metaopt_sat_free_eval_result(&zev));
    VOID("metaopt_sat_default_solve_options/value", (void)metaopt_sat_default_solve_options());
    OWNED("metaopt_sat_solve/NULL opts", MetaoptSatSolveResult, metaopt_sat_solve(h, NULL), metaopt_sat_free_solve_result, ERR);
    MetaoptSatSolveOptions so[12];
    for (int i = 0; i < 12; i++) {
        so[i] = metaopt_sat_default_solve_options();
        so[i].method = METAOPT_SAT_HC12;
        so[i].runs = 1;
        so[i].time_limit_s = 5;
    }
    so[0].mask_order = 0;
    so[1].mask_order = 3;
    so[2].mask_order = 0xFFFFFFFF;
    so[3].tabu_length = 0xFFFFFFFF;
    so[4].tabu_max_iterations = 0;
    so[5].tabu_max_no_improve = 0;
    so[6].runs = 0, so[6].time_limit_s = 0;
    so[7].time_limit_s = NAN;
    so[8].time_limit_s = -1;
    so[9].time_limit_s = 1e300;
    so[10].time_limit_s = INFINITY;
    so[11].tenure = 0xFFFFFFFF, so[11].seed = UINT64_MAX, so[11].tabu_length = 0;
    /* the cases that must succeed build device kernels inside their time limit: under valgrind
       on a loaded 2-core machine that took more than 5 s; the 3-variable formula is solved at
       once, so the limit is only a cap */
    so[11].time_limit_s = 120;
    int se[12] = {ERR, ERR, ERR, ERR, ERR, ERR, ERR, ERR, ERR, ERR, ERR, 0};
    for (int i = 0; i < 12; i++)
        OWNED("metaopt_sat_solve/hostile options", MetaoptSatSolveResult, metaopt_sat_solve(h, &so[i]), metaopt_sat_free_solve_result,
              se[i]);
    /* the walks' options */
    MetaoptSatSolveOptions wo[16];
    for (int i = 0; i < 16; i++) {
        wo[i] = metaopt_sat_default_solve_options();
        wo[i].time_limit_s = 5;
    }
    wo[0].method = 99;
    wo[1].method = -1;
    wo[2].cb = NAN;
    wo[3].cb = -1;
    wo[4].eps = INFINITY;
    wo[5].method = METAOPT_SAT_WALKSAT, wo[5].noise = NAN;
    wo[6].noise = 2;
    wo[7].restart_flips = 0;
    wo[8].flips_per_launch = 0;
    wo[9].backend = 7;
    wo[10].walks = 0xFFFFFFFF;
    wo[11].max_flips = 0, wo[11].time_limit_s = 0;
    wo[12].time_limit_s = NAN;
    wo[13].backend = METAOPT_BACKEND_CPU, wo[13].walks = 1, wo[13].max_flips = UINT64_MAX, wo[13].time_limit_s = 0;
    wo[14].backend = METAOPT_BACKEND_CPU, wo[14].flips_per_launch = 0xFFFFFFFF, wo[14].restart_flips = 1, wo[14].seed = UINT64_MAX;
    wo[15].method = METAOPT_SAT_WALKSAT, wo[15].noise = 1, wo[15].cb = 1e300, wo[15].eps = 1e-300, wo[15].time_limit_s = 120;
    int we[16] = {ERR, ERR, ERR, ERR, ERR, ERR, ERR, ERR, ERR, ERR, ERR, ERR, ERR, 0, 0, 0};
    for (int i = 0; i < 16; i++)
        OWNED("metaopt_sat_solve/hostile walk options", MetaoptSatSolveResult, metaopt_sat_solve(h, &wo[i]),
              metaopt_sat_free_solve_result, we[i]);
    MetaoptSatParseResult empty = metaopt_sat_from_clauses(3, NULL, 0);
    if (empty.error_code == 0) {
        MetaoptSatSolveOptions o = metaopt_sat_default_solve_options();
        o.method = METAOPT_SAT_HC12;
        o.runs = 1;
        OWNED("metaopt_sat_solve/no clauses", MetaoptSatSolveResult, metaopt_sat_solve(empty.instance, &o), metaopt_sat_free_solve_result,
              ERR);
        for (int m = 0; m < 2; m++) {
            MetaoptSatSolveOptions w = metaopt_sat_default_solve_options();
            w.method = m;
            w.backend = METAOPT_BACKEND_CPU;
            w.time_limit_s = 1;
            OWNED("metaopt_sat_solve/walks, no clauses", MetaoptSatSolveResult, metaopt_sat_solve(empty.instance, &w),
                  metaopt_sat_free_solve_result, ANY);
        }
        uint32_t z = 0;
        OWNED("metaopt_sat_evaluate/no clauses", MetaoptSatEvalResult, metaopt_sat_evaluate(empty.instance, &z, 1, 1),
              metaopt_sat_free_eval_result, ANY);
        metaopt_sat_free(empty.instance);
    }
    metaopt_pointer_free(empty.error_message);
    /* states: bytes that are not one, a state of another formula, the walk options' new fields */
    sat_state_prepare();
    uint8_t junk[64];
    memset(junk, 0xA5, sizeof junk);
    I32("metaopt_sat_load_state/NULL data", metaopt_sat_load_state(h, NULL, 16), METAOPT_ERR_NULL_POINTER);
    I32("metaopt_sat_load_state/NULL data, huge length", metaopt_sat_load_state(h, NULL, SIZE_MAX), ERR);
    I32("metaopt_sat_load_state/0 bytes", metaopt_sat_load_state(h, junk, 0), ERR);
    I32("metaopt_sat_load_state/garbage", metaopt_sat_load_state(h, junk, sizeof junk), ERR);
    for (size_t cut = 1; cut < g_sat_state_len; cut += 1 + g_sat_state_len / 16)
        I32("metaopt_sat_load_state/truncated", metaopt_sat_load_state(h, g_sat_state, cut), ERR);
    uint8_t *flip = malloc(g_sat_state_len);
    require(flip != NULL, "malloc");
    for (size_t at = 0; at < g_sat_state_len; at += 1 + g_sat_state_len / 16) {
        memcpy(flip, g_sat_state, g_sat_state_len);
        flip[at] ^= 0x10;
        I32("metaopt_sat_load_state/a flipped bit", metaopt_sat_load_state(h, flip, g_sat_state_len), ERR);
    }
    free(flip);
    int32_t other_lits[] = {1, -2, 0, 2, 0};
    MetaoptSatParseResult other = metaopt_sat_from_clauses(2, other_lits, 5);
    if (other.error_code == 0) {
        I32("metaopt_sat_load_state/another formula", metaopt_sat_load_state(other.instance, g_sat_state, g_sat_state_len), ERR);
        OWNED("metaopt_sat_save_state/no search", MetaoptBytesResult, metaopt_sat_save_state(other.instance),
              metaopt_bytes_free_result, ERR);
        metaopt_sat_free(other.instance);
    }
    metaopt_pointer_free(other.error_message);
    uint32_t st[4] = {0, 0xFFFFFFFFu, 7, 7};
    MetaoptSatSolveOptions xo[5];
    for (int i = 0; i < 5; i++) {
        xo[i] = metaopt_sat_default_solve_options();
        xo[i].backend = METAOPT_BACKEND_CPU;
        xo[i].walks = 2;
        xo[i].max_flips = 100;
        xo[i].time_limit_s = 0;
    }
    xo[0].start = NULL, xo[0].start_count = 1;
    xo[1].start = st + 1, xo[1].start_count = 1;          /* bits past the last variable */
    xo[2].start = st, xo[2].start_count = 3;              /* more starts than walks */
    xo[3].checkpoint_path = g_long;
    xo[4].checkpoint_every_s = NAN;
    int xe[5] = {METAOPT_ERR_NULL_POINTER, ERR, ERR, ERR, ERR};
    for (int i = 0; i < 5; i++)
        OWNED("metaopt_sat_solve/hostile start and checkpoint", MetaoptSatSolveResult, metaopt_sat_solve(h, &xo[i]),
              metaopt_sat_free_solve_result, xe[i]);
    MetaoptSatSolveOptions hx = metaopt_sat_default_solve_options();
    hx.method = METAOPT_SAT_HC12, hx.runs = 1, hx.start = st, hx.start_count = 1;
    OWNED("metaopt_sat_solve/hc12 with a start", MetaoptSatSolveResult, metaopt_sat_solve(h, &hx), metaopt_sat_free_solve_result, ERR);
    /* HC12 states: saved after an HC12 search, damaged copies, a walk state refused by an
       HC12 search and an HC12 state by a walk search */
    {
        MetaoptSatInstance *s = new_sat();
        MetaoptSatSolveOptions ho = metaopt_sat_default_solve_options();
        ho.method = METAOPT_SAT_HC12, ho.runs = 2, ho.time_limit_s = 120;
        OWNED("metaopt_sat_solve/hc12 for a state", MetaoptSatSolveResult, metaopt_sat_solve(s, &ho), metaopt_sat_free_solve_result, 0);
        MetaoptBytesResult hs = metaopt_sat_save_state(s);
        require(hs.error_code == 0 && hs.length > 0, "metaopt_sat_save_state after hc12");
        damaged_states("metaopt_sat_load_state (hc12)", load_sat, s, hs.data, hs.length, NULL, 0);
        MetaoptSatSolveOptions wo = sat_state_options();
        OWNED("metaopt_sat_solve/walks after an hc12 state", MetaoptSatSolveResult, metaopt_sat_solve(s, &wo),
              metaopt_sat_free_solve_result, METAOPT_ERR_INVALID_ARGUMENT);
        I32("metaopt_sat_load_state/a walk state", metaopt_sat_load_state(s, g_sat_state, g_sat_state_len), 0);
        OWNED("metaopt_sat_solve/hc12 after a walk state", MetaoptSatSolveResult, metaopt_sat_solve(s, &ho),
              metaopt_sat_free_solve_result, METAOPT_ERR_INVALID_ARGUMENT);
        I32("metaopt_sat_load_state/hc12 again", metaopt_sat_load_state(s, hs.data, hs.length), 0);
        ho.seed = 9;
        OWNED("metaopt_sat_solve/hc12, a state of other options", MetaoptSatSolveResult, metaopt_sat_solve(s, &ho),
              metaopt_sat_free_solve_result, METAOPT_ERR_INVALID_ARGUMENT);
        ho.checkpoint_every_s = -1;
        OWNED("metaopt_sat_solve/hc12, hostile checkpoint fields", MetaoptSatSolveResult, metaopt_sat_solve(s, &ho),
              metaopt_sat_free_solve_result, ERR);
        int32_t lits2[] = {1, -2, 0, 2, 0};
        MetaoptSatParseResult o2 = metaopt_sat_from_clauses(2, lits2, 5);
        if (o2.error_code == 0) {
            I32("metaopt_sat_load_state/hc12, another formula", metaopt_sat_load_state(o2.instance, hs.data, hs.length),
                METAOPT_ERR_INVALID_ARGUMENT);
            metaopt_sat_free(o2.instance);
        }
        metaopt_pointer_free(o2.error_message);
        metaopt_bytes_free_result(&hs);
        metaopt_sat_free(s);
    }
    VOID("metaopt_bytes_free_result/NULL", metaopt_bytes_free_result(NULL));
    MetaoptBytesResult zb;
    memset(&zb, 0, sizeof zb);
    VOID("metaopt_bytes_free_result/zeroed", metaopt_bytes_free_result(&zb));
    VOID("metaopt_bytes_free_result/twice", metaopt_bytes_free_result(&zb));
    VOID("metaopt_sat_free_solve_result/NULL", metaopt_sat_free_solve_result(NULL));
    MetaoptSatSolveResult zs;
    memset(&zs, 0, sizeof zs);
    VOID("metaopt_sat_free_solve_result/zeroed", metaopt_sat_free_solve_result(&zs));
}

static void results(void) {
    VOID("metaopt_pointer_free/NULL", metaopt_pointer_free(NULL));
    MetaoptInt32Result r = metaopt_device_set_number(-5);
    VOID("metaopt_pointer_free/a message", metaopt_pointer_free(r.error_message));
    VOID("metaopt_double_array_free_result/NULL", metaopt_double_array_free_result(NULL));
    MetaoptDoubleArrayResult z;
    memset(&z, 0, sizeof z);
    VOID("metaopt_double_array_free_result/zeroed", metaopt_double_array_free_result(&z));
    MetaoptDoubleArrayResult b = metaopt_de_bests_fitness(g_de);
    VOID("metaopt_double_array_free_result/first", metaopt_double_array_free_result(&b));
    VOID("metaopt_double_array_free_result/double free", metaopt_double_array_free_result(&b));
    MetaoptDoubleArrayResult e = metaopt_de_best(g_de, 99);
    VOID("metaopt_double_array_free_result/an error", metaopt_double_array_free_result(&e));
}

/* ------------------------------------------------------------------------------------------ */
/* tokens, metaopt_interrupt and concurrent calls                                              */

static int g_loops = 300;

static void *token_hammer(void *arg) {
    MetaoptStopToken *t = arg;
    for (int i = 0; i < g_loops; i++) {
        MetaoptInt32Result r = i % 2 ? metaopt_stop_token_request(t) : metaopt_stop_token_reset(t);
        if (r.error_code != 0 && r.error_code != METAOPT_ERR_BUSY) {
            fprintf(stderr, "hostile: FAIL token hammer: code %d\n", r.error_code);
            g_failures++; /* racy but only on failure */
        }
        metaopt_pointer_free(r.error_message);
        (void)metaopt_stop_token_is_requested(t);
        atomic_fetch_add(&g_calls, 3);
    }
    return NULL;
}

typedef struct {
    int kind;
    void *h;
    MetaoptStopToken *token;
    int code;
    char *msg; /* the call's message, checked by the main thread */
    int done; /* set (atomically) when the call has returned */
} Runner;

/* a long call on one handle, ended by its stop token */
static void *long_call(void *arg) {
    Runner *r = arg;
    switch (r->kind) {
    case 0: {
        MetaoptDeStop s = metaopt_de_default_stop();
        s.time_limit = 60;
        s.stop_token = r->token;
        MetaoptDeRunResult x = metaopt_de_run(r->h, &s);
        r->code = x.error_code;
        r->msg = x.error_message;
        x.error_message = NULL;
        metaopt_de_free_run_result(&x);
        break;
    }
    case 1: {
        MetaoptHc12RunOptions o = metaopt_hc12_default_run_options();
        o.runs = 0xFFFFFFF;
        o.stop_token = r->token;
        MetaoptHc12RunResult x = metaopt_hc12_run(r->h, &o);
        r->code = x.error_code;
        r->msg = x.error_message;
        x.error_message = NULL;
        metaopt_hc12_free_run_result(&x);
        break;
    }
    case 2: {
        MetaoptQapSolveOptions o = metaopt_qap_default_solve_options();
        o.runs = 0;
        o.time_limit_s = 60;
        o.stop_token = r->token;
        MetaoptQapSolveResult x = metaopt_qap_solve(r->h, &o);
        r->code = x.error_code;
        r->msg = x.error_message;
        x.error_message = NULL;
        metaopt_qap_free_solve_result(&x);
        break;
    }
    default: {
        MetaoptSatSolveOptions o = metaopt_sat_default_solve_options();
        o.runs = 0;
        o.time_limit_s = 60;
        o.stop_token = r->token;
        MetaoptSatSolveResult x = metaopt_sat_solve(r->h, &o);
        r->code = x.error_code;
        r->msg = x.error_message;
        x.error_message = NULL;
        metaopt_sat_free_solve_result(&x);
        break;
    }
    }
    __atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* waits until the handle answers busy (the long call holds it); 0 if it never does or the
   long call returns first. Each probe comes after a pause, the first one too: a probe made as
   the long call starts holds the handle itself, and the long call then returns busy */
static int wait_busy(const Wrapper *probe, void *h, Runner *r) {
    for (int i = 0; i < 3000 && !__atomic_load_n(&r->done, __ATOMIC_ACQUIRE); i++) {
        sleep_ms(10);
        if (__atomic_load_n(&r->done, __ATOMIC_ACQUIRE)) break;
        g_msg = NULL;
        int c = probe->call(h);
        metaopt_pointer_free(g_msg);
        g_msg = NULL;
        if (c == METAOPT_ERR_BUSY) return 1;
    }
    return 0;
}

static void concurrent(int kind, void *h, const Wrapper *probe) {
    Runner r;
    pthread_t th;
    int busy = 0;
    /* a long call the probe never saw busy (it returned first, or the machine did not schedule
       it for 30 s) is stopped, reported and tried again, twice: a fresh-clone CI run once failed
       here and the failure did not come back in later runs. A long call that returned busy lost
       the start to a probe (a loaded 2-core machine, session 21: three times in a row); that is
       the handle's guard working, so it is tried again without counting, up to 20 times */
    int lost = 0;
    for (int attempt = 0; !busy; attempt++) {
        r = (Runner){kind, h, metaopt_stop_token_create(), -1, NULL, 0};
        g_label = "concurrent: starting a long call";
        alarm(g_alarm * 2);
        pthread_create(&th, NULL, long_call, &r);
        busy = wait_busy(probe, h, &r);
        alarm(0);
        if (busy) break;
        metaopt_stop_token_request(r.token);
        alarm(g_alarm);
        pthread_join(th, NULL);
        alarm(0);
        fprintf(stderr, "hostile: note: the long call of kind %d was not seen holding its handle (it returned %d: %s)\n", kind,
                r.code, r.msg ? r.msg : "no message");
        metaopt_pointer_free(r.msg);
        metaopt_stop_token_free(r.token);
        if (r.code == METAOPT_ERR_BUSY && lost < 20) {
            lost += 1;
            attempt -= 1;
            continue;
        }
        if (attempt == 2) {
            fail(probe->name, "the long call of kind %d never held its handle", NULL, kind);
            return;
        }
    }
    for (size_t i = 0; i < NWRAP; i++) {
        if (WRAPPERS[i].kind != kind) continue;
        with_handle(&WRAPPERS[i], h, "concurrent with a running call", busy ? OK_OR_BUSY : ANY);
    }
    begin("metaopt_stop_token_request/stops the running call");
    MetaoptInt32Result q = metaopt_stop_token_request(r.token);
    end();
    check("metaopt_stop_token_request/stops the running call", q.error_code, q.error_message, 0);
    g_label = "concurrent: joining the stopped call";
    alarm(g_alarm);
    pthread_join(th, NULL);
    alarm(0);
    int want = busy ? METAOPT_INTERRUPTED : ANY;
    check(kind == 0 ? "metaopt_de_run/stopped by its token" : kind == 1 ? "metaopt_hc12_run/stopped by its token"
          : kind == 2 ? "metaopt_qap_solve/stopped by its token" : "metaopt_sat_solve/stopped by its token",
          r.code, r.msg, r.code == 0 ? 0 : want);
    metaopt_stop_token_free(r.token);
}

static void tokens_and_concurrency(void) {
    /* token basics and its bad uses */
    for (int i = 0; i < 50; i++) {
        begin("metaopt_stop_token_create/many");
        MetaoptStopToken *t = metaopt_stop_token_create();
        end();
        if (!t) fail("metaopt_stop_token_create", "NULL (%d)", NULL, i);
        I32("metaopt_stop_token_reset/fresh", metaopt_stop_token_reset(t), 0);
        I32("metaopt_stop_token_request/twice", metaopt_stop_token_request(t), 0);
        I32("metaopt_stop_token_request/twice", metaopt_stop_token_request(t), 0);
        begin("metaopt_stop_token_is_requested/live");
        uint8_t q = metaopt_stop_token_is_requested(t);
        end();
        if (q != 1) fail("metaopt_stop_token_is_requested/live", "returned %d", NULL, q);
        free_any(4, t, "after use");
    }
    /* two threads requesting and resetting one token */
    MetaoptStopToken *t = metaopt_stop_token_create();
    pthread_t a, b;
    g_label = "token hammer";
    alarm(g_alarm * 2);
    pthread_create(&a, NULL, token_hammer, t);
    pthread_create(&b, NULL, token_hammer, t);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    alarm(0);
    note_fn("metaopt_stop_token_is_requested");
    metaopt_stop_token_free(t);

    /* metaopt_interrupt with nothing running: later calls run normally */
    VOID("metaopt_interrupt/nothing running", metaopt_interrupt());
    VOID("metaopt_interrupt/nothing running", metaopt_interrupt());
    MetaoptDeStop s = metaopt_de_default_stop();
    s.generations = 2;
    OWNED("metaopt_de_run/after metaopt_interrupt", MetaoptDeRunResult, metaopt_de_run(g_de, &s), metaopt_de_free_run_result, 0);

    /* a call whose token is freed while it runs keeps its own reference; metaopt_interrupt from
     * another thread stops it */
    MetaoptDeInstance *slow = new_de(callback(cb_slow, NULL));
    Runner r = {0, slow, metaopt_stop_token_create(), -1, NULL, 0};
    pthread_t th;
    atomic_store(&g_started, 0);
    g_label = "concurrent: DE run with a freed token";
    alarm(g_alarm * 2);
    pthread_create(&th, NULL, long_call, &r);
    while (!atomic_load(&g_started)) sleep_ms(1);
    sleep_ms(20);
    alarm(0);
    free_any(4, r.token, "while a call carries it");
    VOID("metaopt_de_free/while running (deferred)", metaopt_de_free(slow));
    STR("metaopt_de_info/free pending", metaopt_de_info(slow), ANY);
    VOID("metaopt_interrupt/stops a running call", metaopt_interrupt());
    g_label = "concurrent: join after metaopt_interrupt";
    alarm(g_alarm);
    pthread_join(th, NULL);
    alarm(0);
    check("metaopt_de_run/stopped by metaopt_interrupt", r.code, r.msg, r.code == 0 ? 0 : METAOPT_INTERRUPTED);
    STR("metaopt_de_info/freed after its call", metaopt_de_info(slow), METAOPT_ERR_INVALID_ARGUMENT);

    /* every function of a kind called while a long call holds the handle: busy or success */
    MetaoptDeInstance *de = new_de(callback(cb_slow, NULL));
    concurrent(0, de, &WRAPPERS[7] /* de_info */);
    metaopt_de_free(de);
    concurrent(2, g_qap, &WRAPPERS[21] /* qap_info */);
    {
        concurrent(1, g_hc12, &WRAPPERS[16] /* hc12_info */);
        /* an unsatisfiable formula (x1, not x1) keeps sat_solve busy until its token stops it */
        int32_t unsat[] = {1, 0, -1, 0};
        MetaoptSatParseResult u = metaopt_sat_from_clauses(1, unsat, 4);
        require(u.error_code == 0, "metaopt_sat_from_clauses");
        concurrent(3, u.instance, &WRAPPERS[25] /* sat_words */);
        metaopt_sat_free(u.instance);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* knapsack instances and QIGA                                                                 */

#define KNAP_NEW(label, call, expect) \
    do { \
        begin(label); \
        MetaoptKnapsackResult r_ = (call); \
        end(); \
        if ((r_.error_code == 0) != (r_.knapsack != NULL)) fail(label, "knapsack and code %d disagree", NULL, r_.error_code); \
        check(label, r_.error_code, r_.error_message, expect); \
        metaopt_knapsack_free(r_.knapsack); \
    } while (0)

static MetaoptQigaOptions tiny_qiga(void) {
    MetaoptQigaOptions o = metaopt_qiga_default_options();
    o.populations = 3;
    o.individuals = 2;
    o.generations = 3;
    o.backend = METAOPT_BACKEND_CPU;
    return o;
}

/* every knapsack/QIGA function that takes a handle, with handle h */
static void knap_with(void *h, const char *what, int expect) {
    char label[160];
    uint8_t bits[10] = {1, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    snprintf(label, sizeof label, "metaopt_knapsack_data/%s", what);
    OWNED(label, MetaoptKnapsackData, metaopt_knapsack_data(h), metaopt_knapsack_free_data, expect);
    snprintf(label, sizeof label, "metaopt_knapsack_optimum/%s", what);
    OWNED(label, MetaoptKnapsackOptimumResult, metaopt_knapsack_optimum(h), metaopt_knapsack_free_optimum_result, expect);
    snprintf(label, sizeof label, "metaopt_knapsack_evaluate/%s", what);
    begin(label);
    MetaoptKnapsackEvaluation e = metaopt_knapsack_evaluate(h, bits, 10);
    end();
    check(label, e.error_code, e.error_message, expect);
    snprintf(label, sizeof label, "metaopt_qiga_run/%s", what);
    MetaoptQigaOptions o = tiny_qiga();
    OWNED(label, MetaoptQigaRunResult, metaopt_qiga_run(h, &o), metaopt_qiga_free_run_result, expect);
    /* the state of that run, loaded back and used up by a run of the same options */
    snprintf(label, sizeof label, "metaopt_qiga_save_state/%s", what);
    begin(label);
    MetaoptBytesResult sb = metaopt_qiga_save_state(h);
    end();
    char *sm = sb.error_message;
    sb.error_message = NULL;
    check(label, sb.error_code, sm, expect);
    uint8_t junk[8] = {0};
    snprintf(label, sizeof label, "metaopt_qiga_load_state/%s", what);
    I32(label, metaopt_qiga_load_state(h, sb.data ? sb.data : junk, sb.data ? sb.length : sizeof junk), expect);
    if (expect == 0) {
        snprintf(label, sizeof label, "metaopt_qiga_run/%s, resumed", what);
        OWNED(label, MetaoptQigaRunResult, metaopt_qiga_run(h, &o), metaopt_qiga_free_run_result, 0);
    }
    metaopt_bytes_free_result(&sb);
}

static void knapsack_args(void) {
    KNAP_NEW("metaopt_knapsack_from_file/NULL", metaopt_knapsack_from_file(NULL), METAOPT_ERR_NULL_POINTER);
    const char *paths[] = {"", "/", "/nonexistent.txt", "/dev/null", g_bad_utf8[0], g_bad_utf8[3], g_long, g_tmp};
    for (int i = 0; i < 8; i++) KNAP_NEW("metaopt_knapsack_from_file/bad path", metaopt_knapsack_from_file(paths[i]), ERR);
    struct {
        const char *name, *text;
    } files[] = {
        {"k1.txt", ""},
        {"k2.txt", "3 10\n1 2\n3 4\n"},
        {"k3.txt", "2 10\n1 nan\n3 4\n"},
        {"k4.txt", "2 10\n-1 2\n3 4\n"},
        {"k5.txt", "4294967295 10\n1 2\n"},
                {"k7.txt", "2 10\n0.1234567891 2\n3 4\n"},
        {"k8.txt", "2 10\n1 2\n3 \xff\n"},
        {"k9.txt", "2 10\n1e300 2\n1e300 4\n"},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        const char *p = write_tmp(files[i].name, files[i].text, strlen(files[i].text));
        char label[96];
        snprintf(label, sizeof label, "metaopt_knapsack_from_file/malformed %s", files[i].name);
        KNAP_NEW(label, metaopt_knapsack_from_file(p), ERR);
    }
    double w[3] = {1, 2, 3}, p[3] = {3, 2, 1};
    double nanw[3] = {1, NAN, 3}, infp[3] = {1, INFINITY, 3}, zero[3] = {0, 1, 1}, huge[3] = {1e300, 1e300, 1};
    double many[3] = {0.1234567891, 1, 1}, negp[3] = {1, -1, 1};
    KNAP_NEW("metaopt_knapsack_from_arrays/NULL weights", metaopt_knapsack_from_arrays(3, NULL, p, 2), METAOPT_ERR_NULL_POINTER);
    KNAP_NEW("metaopt_knapsack_from_arrays/NULL profits", metaopt_knapsack_from_arrays(3, w, NULL, 2), METAOPT_ERR_NULL_POINTER);
    KNAP_NEW("metaopt_knapsack_from_arrays/NULL, huge n", metaopt_knapsack_from_arrays(UINT32_MAX, NULL, NULL, 2), ERR);
    KNAP_NEW("metaopt_knapsack_from_arrays/n 0", metaopt_knapsack_from_arrays(0, w, p, 2), ERR);
    KNAP_NEW("metaopt_knapsack_from_arrays/NaN weight", metaopt_knapsack_from_arrays(3, nanw, p, 2), ERR);
    KNAP_NEW("metaopt_knapsack_from_arrays/inf profit", metaopt_knapsack_from_arrays(3, w, infp, 2), ERR);
    KNAP_NEW("metaopt_knapsack_from_arrays/zero weight", metaopt_knapsack_from_arrays(3, zero, p, 2), ERR);
    KNAP_NEW("metaopt_knapsack_from_arrays/huge weights", metaopt_knapsack_from_arrays(3, huge, p, 2), ERR);
    KNAP_NEW("metaopt_knapsack_from_arrays/10 decimals", metaopt_knapsack_from_arrays(3, many, p, 2), ERR);
    KNAP_NEW("metaopt_knapsack_from_arrays/negative profit", metaopt_knapsack_from_arrays(3, w, negp, 2), ERR);
    double caps[] = {NAN, -1, INFINITY, -INFINITY};
    for (int i = 0; i < 4; i++) KNAP_NEW("metaopt_knapsack_from_arrays/bad capacity", metaopt_knapsack_from_arrays(3, w, p, caps[i]), ERR);
    KNAP_NEW("metaopt_knapsack_from_arrays/huge capacity", metaopt_knapsack_from_arrays(3, w, p, 1e300), 0);
    int32_t kinds[] = {-1, 5, INT32_MIN, INT32_MAX};
    for (int i = 0; i < 4; i++) KNAP_NEW("metaopt_knapsack_generate/bad kind", metaopt_knapsack_generate(kinds[i], 10, 100, 1), ERR);
    KNAP_NEW("metaopt_knapsack_generate/items 0", metaopt_knapsack_generate(1, 0, 100, 1), ERR);
    KNAP_NEW("metaopt_knapsack_generate/items max", metaopt_knapsack_generate(1, UINT32_MAX, 100, 1), ERR);
    KNAP_NEW("metaopt_knapsack_generate/range 0", metaopt_knapsack_generate(1, 10, 0, 1), ERR);
    KNAP_NEW("metaopt_knapsack_generate/range max", metaopt_knapsack_generate(1, 10, UINT64_MAX, 1), ERR);
    KNAP_NEW("metaopt_knapsack_generate/hankim ignores range", metaopt_knapsack_generate(0, 10, 0, UINT64_MAX), 0);

    MetaoptKnapsackResult g = metaopt_knapsack_generate(METAOPT_KNAPSACK_STRONGLY_CORRELATED, 10, 100, 3);
    require(g.error_code == 0, "metaopt_knapsack_generate");
    MetaoptKnapsack *k = g.knapsack;
    knap_with(k, "live", 0);
    knap_with(NULL, "NULL", METAOPT_ERR_NULL_POINTER);
    uint64_t stack_buf[8];
    memcpy(stack_buf, k, 8);
    memset(&stack_buf[1], 0, sizeof stack_buf - 8);
    knap_with((void *)(uintptr_t)1, "forged 0x1", METAOPT_ERR_INVALID_ARGUMENT);
    knap_with((void *)UINTPTR_MAX, "forged all ones", METAOPT_ERR_INVALID_ARGUMENT);
    knap_with(stack_buf, "stack copy of the magic", METAOPT_ERR_INVALID_ARGUMENT);
    knap_with((char *)k + 8, "live handle + 8", METAOPT_ERR_INVALID_ARGUMENT);
    for (int kind = 0; kind < 5; kind++) knap_with(live_of_kind(kind), "wrong kind", METAOPT_ERR_INVALID_ARGUMENT);
    /* the other kinds' functions refuse a knapsack handle, and their frees ignore it */
    for (size_t i = 0; i < NWRAP; i++) with_handle(&WRAPPERS[i], k, "a knapsack handle (wrong kind)", METAOPT_ERR_INVALID_ARGUMENT);
    for (int f = 0; f < 5; f++) free_any(f, k, "a knapsack handle (ignored)");
    VOID("metaopt_knapsack_free/NULL", metaopt_knapsack_free(NULL));
    VOID("metaopt_knapsack_free/forged", metaopt_knapsack_free((void *)(uintptr_t)1));
    for (int kind = 0; kind < 5; kind++) VOID("metaopt_knapsack_free/wrong kind (ignored)", metaopt_knapsack_free(live_of_kind(kind)));

    /* evaluate: sizes and values */
    uint8_t bits[10] = {0}, two[10] = {2}, ff[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 255};
    begin("metaopt_knapsack_evaluate/NULL bits");
    MetaoptKnapsackEvaluation e = metaopt_knapsack_evaluate(k, NULL, 10);
    end();
    check("metaopt_knapsack_evaluate/NULL bits", e.error_code, e.error_message, METAOPT_ERR_NULL_POINTER);
    uint32_t ns[] = {0, 9, 11, UINT32_MAX};
    for (int i = 0; i < 4; i++) {
        begin("metaopt_knapsack_evaluate/bad n");
        e = metaopt_knapsack_evaluate(k, bits, ns[i]);
        end();
        check("metaopt_knapsack_evaluate/bad n", e.error_code, e.error_message, ERR);
    }
    begin("metaopt_knapsack_evaluate/entry 2");
    e = metaopt_knapsack_evaluate(k, two, 10);
    end();
    check("metaopt_knapsack_evaluate/entry 2", e.error_code, e.error_message, ERR);
    begin("metaopt_knapsack_evaluate/entry 255");
    e = metaopt_knapsack_evaluate(k, ff, 10);
    end();
    check("metaopt_knapsack_evaluate/entry 255", e.error_code, e.error_message, ERR);
    VOID("metaopt_knapsack_free_data/NULL", metaopt_knapsack_free_data(NULL));
    VOID("metaopt_knapsack_free_optimum_result/NULL", metaopt_knapsack_free_optimum_result(NULL));
    VOID("metaopt_qiga_free_run_result/NULL", metaopt_qiga_free_run_result(NULL));
    MetaoptKnapsackData zd;
    memset(&zd, 0, sizeof zd);
    VOID("metaopt_knapsack_free_data/zeroed", metaopt_knapsack_free_data(&zd));
    MetaoptKnapsackOptimumResult zo;
    memset(&zo, 0, sizeof zo);
    VOID("metaopt_knapsack_free_optimum_result/zeroed", metaopt_knapsack_free_optimum_result(&zo));
    MetaoptQigaRunResult zq;
    memset(&zq, 0, sizeof zq);
    VOID("metaopt_qiga_free_run_result/zeroed", metaopt_qiga_free_run_result(&zq));

    /* QIGA options */
    VOID("metaopt_qiga_default_options/value", (void)metaopt_qiga_default_options());
    if (!g_valgrind) {
        MetaoptQigaOptions d = tiny_qiga();
        d.backend = METAOPT_BACKEND_DEVICE;
        OWNED("metaopt_qiga_run/device", MetaoptQigaRunResult, metaopt_qiga_run(k, &d), metaopt_qiga_free_run_result, ANY);
    }
    const char *good_tables[] = {"qea2002", "0 1 1 10 -1 +1 +1 0\n"};
    const char *bad_tables[] = {"nope", "0 1 1 999 -1 +1 +1 0", "0 1", "2 1 1 10 -1 +1 +1 0", "0 1 1 10 -1 +1 +1 x"};
    const char *null_table[] = {NULL};
    const char *utf8_table[] = {g_bad_utf8[0]};
    uint32_t dev_far[1] = {1000000}, dev_twice[2] = {0, 0};
    MetaoptStopToken *req = requested_token();
    MetaoptQigaOptions qo[28];
    for (int i = 0; i < 28; i++) qo[i] = tiny_qiga();
    int qe[28];
    for (int i = 0; i < 28; i++) qe[i] = ERR;
    qo[0].populations = 0;
    qo[1].individuals = 0;
    qo[2].individuals = UINT32_MAX;
    qo[3].generations = UINT32_MAX;
    qo[4].table = 2;
    qo[5].table = -1;
    qo[6].tables_count = 3;                         /* NULL tables */
    qo[7].tables = bad_tables, qo[7].tables_count = 5;
    qo[8].tables = null_table, qo[8].tables_count = 1;
    qo[9].tables = utf8_table, qo[9].tables_count = 1;
    qo[10].repair = 3;
    qo[11].backend = 2;
    qo[12].has_target = 1, qo[12].target = NAN;
    qo[13].has_target = 7;
    qo[14].time_limit_s = NAN;
    qo[15].time_limit_s = -1;
    qo[16].time_limit_s = INFINITY;
    qo[17].time_limit_s = 1e300;
    qo[18].devices_count = 2;                       /* NULL devices */
    qo[19].devices = dev_far, qo[19].devices_count = 1;
    qo[20].devices = dev_twice, qo[20].devices_count = 2;
    qo[21].pole_signs_random = 2;
    qo[22].stop_token = req, qe[22] = METAOPT_INTERRUPTED;
    qo[23].tables = good_tables, qo[23].tables_count = 2, qo[23].pops_per_table = UINT32_MAX, qo[23].pole_signs_random = 1, qe[23] = 0;
    qo[24].has_target = 1, qo[24].target = -1e308, qo[24].seed = UINT64_MAX, qo[24].repair = 2, qe[24] = 0;
    qo[25].populations = 100000000, qo[25].time_limit_s = 0.2, qe[25] = ANY;
    /* the whole run's memory is estimated before anything is allocated: out of host memory on any
       host with less than about half a terabyte free, else a run cut by its time limit */
    qo[26] = tiny_qiga(), qo[26].populations = UINT32_MAX, qo[26].time_limit_s = 0.2, qe[26] = ANY;
    qo[27] = tiny_qiga(), qo[27].populations = UINT32_MAX, qo[27].individuals = 1024, qo[27].launch_populations = UINT32_MAX,
    qo[27].time_limit_s = 0.2, qe[27] = ANY;
    for (int i = 0; i < 28; i++)
        OWNED("metaopt_qiga_run/hostile options", MetaoptQigaRunResult, metaopt_qiga_run(k, &qo[i]), metaopt_qiga_free_run_result,
              qe[i]);
    if (!g_valgrind)
        OWNED("metaopt_qiga_run/NULL options (the defaults, device)", MetaoptQigaRunResult, metaopt_qiga_run(k, NULL),
              metaopt_qiga_free_run_result, ANY);
    /* a stop token field given a knapsack handle, and the knapsack argument a token */
    MetaoptQigaOptions wk = tiny_qiga();
    wk.stop_token = (const MetaoptStopToken *)k;
    OWNED("metaopt_qiga_run/stop_token field a knapsack", MetaoptQigaRunResult, metaopt_qiga_run(k, &wk), metaopt_qiga_free_run_result,
          METAOPT_ERR_INVALID_ARGUMENT);
    wk = tiny_qiga();
    OWNED("metaopt_qiga_run/knapsack a token", MetaoptQigaRunResult, metaopt_qiga_run((MetaoptKnapsack *)req, &wk),
          metaopt_qiga_free_run_result, METAOPT_ERR_INVALID_ARGUMENT);
    metaopt_stop_token_free(req);

    /* states: bytes that are not one, a state of another instance, the new option fields */
    MetaoptQigaOptions so = tiny_qiga();
    OWNED("metaopt_qiga_run/for a state", MetaoptQigaRunResult, metaopt_qiga_run(k, &so), metaopt_qiga_free_run_result, 0);
    MetaoptBytesResult st = metaopt_qiga_save_state(k);
    require(st.error_code == 0 && st.length > 0, "metaopt_qiga_save_state");
    uint8_t junk[64];
    memset(junk, 0x5A, sizeof junk);
    I32("metaopt_qiga_load_state/NULL data", metaopt_qiga_load_state(k, NULL, 16), METAOPT_ERR_NULL_POINTER);
    I32("metaopt_qiga_load_state/NULL data, huge length", metaopt_qiga_load_state(k, NULL, SIZE_MAX), ERR);
    I32("metaopt_qiga_load_state/0 bytes", metaopt_qiga_load_state(k, junk, 0), ERR);
    I32("metaopt_qiga_load_state/garbage", metaopt_qiga_load_state(k, junk, sizeof junk), ERR);
    for (size_t cut = 1; cut < st.length; cut += 1 + st.length / 16)
        I32("metaopt_qiga_load_state/truncated", metaopt_qiga_load_state(k, st.data, cut), ERR);
    uint8_t *flip = malloc(st.length);
    require(flip != NULL, "malloc");
    for (size_t at = 0; at < st.length; at += 1 + st.length / 16) {
        memcpy(flip, st.data, st.length);
        flip[at] ^= 0x10;
        I32("metaopt_qiga_load_state/a flipped bit", metaopt_qiga_load_state(k, flip, st.length), ERR);
    }
    free(flip);
    MetaoptKnapsackResult other = metaopt_knapsack_generate(METAOPT_KNAPSACK_UNCORRELATED, 10, 100, 4);
    if (other.error_code == 0) {
        I32("metaopt_qiga_load_state/another instance", metaopt_qiga_load_state(other.knapsack, st.data, st.length), ERR);
        OWNED("metaopt_qiga_save_state/no run", MetaoptBytesResult, metaopt_qiga_save_state(other.knapsack), metaopt_bytes_free_result,
              ERR);
        metaopt_knapsack_free(other.knapsack);
    }
    metaopt_pointer_free(other.error_message);
    /* a state with other options: the run that would use it fails, and uses it up */
    I32("metaopt_qiga_load_state/for other options", metaopt_qiga_load_state(k, st.data, st.length), 0);
    MetaoptQigaOptions oo = tiny_qiga();
    oo.seed = 99;
    OWNED("metaopt_qiga_run/a state of other options", MetaoptQigaRunResult, metaopt_qiga_run(k, &oo), metaopt_qiga_free_run_result,
          ERR);
    OWNED("metaopt_qiga_run/after a refused state", MetaoptQigaRunResult, metaopt_qiga_run(k, &oo), metaopt_qiga_free_run_result, 0);
    metaopt_bytes_free_result(&st);
    uint8_t s_ok[10] = {0}, s_two[10] = {2}, s_all[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    MetaoptQigaOptions xo[6];
    for (int i = 0; i < 6; i++) xo[i] = tiny_qiga();
    int xe[6] = {METAOPT_ERR_NULL_POINTER, ERR, ERR, ERR, ERR, 0};
    xo[0].start_count = 1;                                   /* NULL start */
    xo[1].start = s_two, xo[1].start_count = 1;              /* a value 2 */
    xo[2].start = s_all, xo[2].start_count = 1;              /* over the capacity */
    xo[3].checkpoint_path = g_long;
    xo[4].checkpoint_every_s = INFINITY;
    xo[5].start = s_ok, xo[5].start_count = 1, xo[5].checkpoint_path = NULL;
    for (int i = 0; i < 6; i++)
        OWNED("metaopt_qiga_run/hostile start and checkpoint", MetaoptQigaRunResult, metaopt_qiga_run(k, &xo[i]),
              metaopt_qiga_free_run_result, xe[i]);

    /* freed handle, double free */
    metaopt_knapsack_free(k);
    VOID("metaopt_knapsack_free/double free", metaopt_knapsack_free(k));
    knap_with(k, "freed handle", METAOPT_ERR_INVALID_ARGUMENT);
}

/* ------------------------------------------------------------------------------------------ */
/* graphs, exact shortest paths and ACO                                                        */

#define GRAPH_NEW(label, call, expect) \
    do { \
        begin(label); \
        MetaoptGraphResult r_ = (call); \
        end(); \
        if ((r_.error_code == 0) != (r_.graph != NULL)) fail(label, "graph and code %d disagree", NULL, r_.error_code); \
        check(label, r_.error_code, r_.error_message, expect); \
        metaopt_graph_free(r_.graph); \
    } while (0)

static MetaoptSpOptions cpu_sp(void) {
    MetaoptSpOptions o = metaopt_sp_default_options();
    o.backend = METAOPT_BACKEND_CPU;
    return o;
}

static MetaoptAcoOptions tiny_aco(void) {
    MetaoptAcoOptions o = metaopt_aco_default_options();
    o.ants = 4;
    o.iterations = 3;
    o.backend = METAOPT_BACKEND_CPU;
    return o;
}

/* every graph/SP/ACO function that takes a graph handle, with handle h */
static void graph_with(void *h, const char *what, int expect) {
    char label[160];
    uint32_t src[2] = {0, 3};
    MetaoptSpOptions so = cpu_sp();
    MetaoptAcoOptions ao = tiny_aco();
    snprintf(label, sizeof label, "metaopt_graph_info/%s", what);
    begin(label);
    MetaoptGraphResult i = metaopt_graph_info(h);
    end();
    if (i.graph != NULL) fail(label, "metaopt_graph_info returned a handle", NULL, i.error_code);
    check(label, i.error_code, i.error_message, expect);
    snprintf(label, sizeof label, "metaopt_graph_data/%s", what);
    OWNED(label, MetaoptGraphData, metaopt_graph_data(h), metaopt_graph_free_data, expect);
    snprintf(label, sizeof label, "metaopt_sp_sssp/%s", what);
    OWNED(label, MetaoptSpResult, metaopt_sp_sssp(h, 0, &so), metaopt_sp_free_result, expect);
    snprintf(label, sizeof label, "metaopt_sp_sssp_multi/%s", what);
    OWNED(label, MetaoptSpResult, metaopt_sp_sssp_multi(h, src, 2, &so), metaopt_sp_free_result, expect);
    snprintf(label, sizeof label, "metaopt_aco_run/%s", what);
    OWNED(label, MetaoptAcoRunResult, metaopt_aco_run(h, 0, 3, &ao), metaopt_aco_free_run_result, expect);
    /* the run above made iterations: its state is kept with a live graph */
    snprintf(label, sizeof label, "metaopt_aco_save_state/%s", what);
    OWNED(label, MetaoptBytesResult, metaopt_aco_save_state(h), metaopt_bytes_free_result, expect);
    static const uint8_t junk[24] = "METAOPT\x1a not a state!";
    snprintf(label, sizeof label, "metaopt_aco_load_state/%s", what);
    I32(label, metaopt_aco_load_state(h, junk, sizeof junk), expect == 0 ? ERR : expect);
}

static void graph_args(void) {
    /* builders: NULL arrays, bad types, bad CSR, bad weights */
    uint64_t off[5] = {0, 2, 3, 3, 5}, off_bad[5] = {0, 3, 2, 3, 5}, off_end[5] = {0, 2, 3, 3, 9};
    uint32_t tg[5] = {1, 3, 2, 1, 2}, tg_bad[5] = {1, 3, 2, 1, 99}, src[5] = {0, 0, 1, 3, 3};
    uint32_t wu[5] = {4, 1, 2, 1, 7};
    double wd[5] = {4, 1, 2, 1, 7}, wnan[5] = {4, NAN, 2, 1, 7}, winf[5] = {4, 1, INFINITY, 1, 7}, wneg[5] = {4, 1, 2, -1, 7};
    float wf[5] = {4, 1, 2, 1, 7};
    GRAPH_NEW("metaopt_graph_from_csr/live u32", metaopt_graph_from_csr(4, off, 5, tg, wu, METAOPT_WEIGHT_U32), 0);
    GRAPH_NEW("metaopt_graph_from_csr/live f32", metaopt_graph_from_csr(4, off, 5, tg, wf, METAOPT_WEIGHT_F32), 0);
    GRAPH_NEW("metaopt_graph_from_csr/NULL offsets", metaopt_graph_from_csr(4, NULL, 5, tg, wd, 3), METAOPT_ERR_NULL_POINTER);
    GRAPH_NEW("metaopt_graph_from_csr/NULL offsets, huge n", metaopt_graph_from_csr(UINT32_MAX, NULL, UINT64_MAX, NULL, NULL, 3), ERR);
    GRAPH_NEW("metaopt_graph_from_csr/NULL targets", metaopt_graph_from_csr(4, off, 5, NULL, wd, 3), METAOPT_ERR_NULL_POINTER);
    GRAPH_NEW("metaopt_graph_from_csr/NULL weights", metaopt_graph_from_csr(4, off, 5, tg, NULL, 3), METAOPT_ERR_NULL_POINTER);
    GRAPH_NEW("metaopt_graph_from_csr/huge m, NULL targets", metaopt_graph_from_csr(4, off, UINT64_MAX, NULL, wd, 3), ERR);
    int32_t types[] = {-1, 4, INT32_MAX, INT32_MIN};
    for (int i = 0; i < 4; i++)
        GRAPH_NEW("metaopt_graph_from_csr/bad weight_type", metaopt_graph_from_csr(4, off, 5, tg, wd, types[i]), ERR);
    GRAPH_NEW("metaopt_graph_from_csr/decreasing offsets", metaopt_graph_from_csr(4, off_bad, 5, tg, wd, 3), ERR);
    GRAPH_NEW("metaopt_graph_from_csr/offsets past m", metaopt_graph_from_csr(4, off_end, 5, tg, wd, 3), ERR);
    GRAPH_NEW("metaopt_graph_from_csr/m short of offsets", metaopt_graph_from_csr(4, off, 3, tg, wd, 3), ERR);
    GRAPH_NEW("metaopt_graph_from_csr/target out of range", metaopt_graph_from_csr(4, off, 5, tg_bad, wd, 3), ERR);
    GRAPH_NEW("metaopt_graph_from_csr/NaN weight", metaopt_graph_from_csr(4, off, 5, tg, wnan, 3), ERR);
    GRAPH_NEW("metaopt_graph_from_csr/inf weight", metaopt_graph_from_csr(4, off, 5, tg, winf, 3), ERR);
    GRAPH_NEW("metaopt_graph_from_csr/negative weight", metaopt_graph_from_csr(4, off, 5, tg, wneg, 3), ERR);
    GRAPH_NEW("metaopt_graph_from_csr/n 0", metaopt_graph_from_csr(0, off, 0, tg, wd, 3), 0);
    GRAPH_NEW("metaopt_graph_from_edges/live", metaopt_graph_from_edges(4, 5, src, tg, wd, 3), 0);
    GRAPH_NEW("metaopt_graph_from_edges/NULL sources", metaopt_graph_from_edges(4, 5, NULL, tg, wd, 3), METAOPT_ERR_NULL_POINTER);
    GRAPH_NEW("metaopt_graph_from_edges/NULL targets", metaopt_graph_from_edges(4, 5, src, NULL, wd, 3), METAOPT_ERR_NULL_POINTER);
    GRAPH_NEW("metaopt_graph_from_edges/NULL weights", metaopt_graph_from_edges(4, 5, src, tg, NULL, 3), METAOPT_ERR_NULL_POINTER);
    GRAPH_NEW("metaopt_graph_from_edges/huge m, NULL", metaopt_graph_from_edges(4, UINT64_MAX, NULL, NULL, NULL, 3), ERR);
    GRAPH_NEW("metaopt_graph_from_edges/vertex out of range", metaopt_graph_from_edges(3, 5, src, tg, wd, 3), ERR);
    GRAPH_NEW("metaopt_graph_from_edges/NaN weight", metaopt_graph_from_edges(4, 5, src, tg, wnan, 3), ERR);
    GRAPH_NEW("metaopt_graph_from_edges/bad weight_type", metaopt_graph_from_edges(4, 5, src, tg, wd, 9), ERR);
    double dense[9] = {0, 1, NAN, 0, 0, 2, 3, 0, 0}, dense_ok[9] = {0, 1, 0, 0, 0, 2, 3, 0, 0};
    GRAPH_NEW("metaopt_graph_from_dense/live", metaopt_graph_from_dense(3, dense_ok, 3), 0);
    GRAPH_NEW("metaopt_graph_from_dense/NaN entry", metaopt_graph_from_dense(3, dense, 3), ERR);
    GRAPH_NEW("metaopt_graph_from_dense/NULL", metaopt_graph_from_dense(3, NULL, 3), METAOPT_ERR_NULL_POINTER);
    GRAPH_NEW("metaopt_graph_from_dense/NULL, huge n", metaopt_graph_from_dense(UINT32_MAX, NULL, 3), ERR);
    GRAPH_NEW("metaopt_graph_from_dense/bad weight_type", metaopt_graph_from_dense(3, dense_ok, -1), ERR);
    GRAPH_NEW("metaopt_graph_from_dense/n 0", metaopt_graph_from_dense(0, dense_ok, 0), 0);
    /* files */
    GRAPH_NEW("metaopt_graph_from_file/NULL", metaopt_graph_from_file(NULL, 0), METAOPT_ERR_NULL_POINTER);
    const char *paths[] = {"", "/", "/nonexistent.gr", "/dev/null", g_bad_utf8[0], g_bad_utf8[3], g_long, g_tmp};
    for (int f = 0; f < 5; f++)
        for (int i = 0; i < 8; i++) /* an empty .osm.pbf (/dev/null) holds no ways: a parse error */
            GRAPH_NEW("metaopt_graph_from_file/bad path", metaopt_graph_from_file(paths[i], f), ERR);
    int32_t formats[] = {-1, 5, INT32_MAX, INT32_MIN};
    for (int i = 0; i < 4; i++) GRAPH_NEW("metaopt_graph_from_file/bad format", metaopt_graph_from_file("x.gr", formats[i]), ERR);
    struct {
        const char *name, *text;
    } files[] = {
        {"g1.gr", ""},
        {"g2.gr", "p sp 4294967296 1\na 1 2 3\n"},
        {"g3.gr", "p sp 2 1\na 1 3 3\n"},
        {"g4.gr", "p sp 2 1\na 1 2 -3\n"},
        {"g5.gr", "p sp 2 99999999999\na 1 2 3\n"},
        {"g6.gr", "a 1 2 3\np sp 2 1\n"},
        {"g7.gr", "p sp 2 1\na 1 2 \xff\n"},
        {"g8.mtx", "%%MatrixMarket matrix coordinate real general\n4294967296 4294967296 1\n1 2 1\n"},
        {"g9.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 nan\n"},
        {"g10.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n"},
        {"g11.osm.pbf", "not a pbf"},
        {"g12.osm.pbf", "\x00\x00\x00\x0d\x0a\x09OSMHeader\x18\xff\xff\xff\x0f"},
        {"g13.gr", "p sp 600000000 1\na 1 2 3\n"}, /* vertices the file does not back */
        {"g14.gr", "p sp 2 1\na 1 2 1e400\n"},
        {"g15.gr", "p sp 2 1\na 1 2 inf\n"},
        {"g16.mtx", "%%MatrixMarket matrix coordinate real general\n600000000 600000000 1\n1 2 1\n"},
        {"g17.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 -inf\n"},
        {"g18.gr.gz", "\x1f\x8b\x08\x00 not a gzip stream"},
        {"g19.osm.pbf.gz", "\x1f\x8b\x08\x00"},
        {"g20.osm.pbf", "\x00\x01\x11\x70"}, /* a blob header of 70,000 bytes */
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t len = strlen(files[i].text);
        if (strcmp(files[i].name, "g12.osm.pbf") == 0) len = 20;
        if (strcmp(files[i].name, "g20.osm.pbf") == 0) len = 4;
        const char *p = write_tmp(files[i].name, files[i].text, len);
        char label[96];
        snprintf(label, sizeof label, "metaopt_graph_from_file/malformed %s", files[i].name);
        GRAPH_NEW(label, metaopt_graph_from_file(p, 0), ERR);
    }
    /* generators */
    GRAPH_NEW("metaopt_graph_thesis_random/live", metaopt_graph_thesis_random(4, 8, UINT64_MAX), 0);
    uint32_t is[] = {15, UINT32_MAX}, js[] = {0, 32, UINT32_MAX};
    for (int i = 0; i < 2; i++) GRAPH_NEW("metaopt_graph_thesis_random/bad i", metaopt_graph_thesis_random(is[i], 8, 1), ERR);
    for (int i = 0; i < 3; i++) GRAPH_NEW("metaopt_graph_thesis_random/bad j", metaopt_graph_thesis_random(4, js[i], 1), ERR);
    GRAPH_NEW("metaopt_graph_grid/live", metaopt_graph_grid(5, 4, 9, 0.3, 1), 0);
    GRAPH_NEW("metaopt_graph_grid/width 0", metaopt_graph_grid(0, 4, 9, 0.3, 1), ERR);
    GRAPH_NEW("metaopt_graph_grid/height 0", metaopt_graph_grid(4, 0, 9, 0.3, 1), ERR);
    GRAPH_NEW("metaopt_graph_grid/max_weight 0", metaopt_graph_grid(4, 4, 0, 0.3, 1), ERR);
    GRAPH_NEW("metaopt_graph_grid/cells past 2^32", metaopt_graph_grid(UINT32_MAX, UINT32_MAX, 1, 0, 1), ERR);
    double obs[] = {NAN, INFINITY, -INFINITY, -0.5, 1.0, 1e300};
    for (int i = 0; i < 6; i++) GRAPH_NEW("metaopt_graph_grid/bad obstacles", metaopt_graph_grid(4, 4, 1, obs[i], 1), ERR);

    /* a live graph under every function, and forged, NULL and wrong-kind handles */
    MetaoptGraphResult gr = metaopt_graph_from_csr(4, off, 5, tg, wu, METAOPT_WEIGHT_U32);
    require(gr.error_code == 0, "metaopt_graph_from_csr");
    MetaoptGraph *g = gr.graph;
    graph_with(g, "live", 0);
    graph_with(NULL, "NULL", METAOPT_ERR_NULL_POINTER);
    uint64_t stack_buf[8];
    memcpy(stack_buf, g, 8);
    memset(&stack_buf[1], 0, sizeof stack_buf - 8);
    graph_with((void *)(uintptr_t)1, "forged 0x1", METAOPT_ERR_INVALID_ARGUMENT);
    graph_with((void *)UINTPTR_MAX, "forged all ones", METAOPT_ERR_INVALID_ARGUMENT);
    graph_with(stack_buf, "stack copy of the magic", METAOPT_ERR_INVALID_ARGUMENT);
    graph_with((char *)g + 8, "live handle + 8", METAOPT_ERR_INVALID_ARGUMENT);
    for (int kind = 0; kind < 5; kind++) graph_with(live_of_kind(kind), "wrong kind", METAOPT_ERR_INVALID_ARGUMENT);
    /* the other kinds' functions refuse a graph handle, and their frees ignore it */
    for (size_t i = 0; i < NWRAP; i++) with_handle(&WRAPPERS[i], g, "a graph handle (wrong kind)", METAOPT_ERR_INVALID_ARGUMENT);
    for (int f = 0; f < 5; f++) free_any(f, g, "a graph handle (ignored)");
    VOID("metaopt_knapsack_free/a graph handle (ignored)", metaopt_knapsack_free((MetaoptKnapsack *)g));
    VOID("metaopt_graph_free/NULL", metaopt_graph_free(NULL));
    VOID("metaopt_graph_free/forged", metaopt_graph_free((void *)(uintptr_t)1));
    for (int kind = 0; kind < 5; kind++) VOID("metaopt_graph_free/wrong kind (ignored)", metaopt_graph_free(live_of_kind(kind)));
    graph_with(g, "live after the wrong-kind frees", 0);
    VOID("metaopt_graph_free_data/NULL", metaopt_graph_free_data(NULL));
    VOID("metaopt_sp_free_result/NULL", metaopt_sp_free_result(NULL));
    VOID("metaopt_aco_free_run_result/NULL", metaopt_aco_free_run_result(NULL));
    MetaoptGraphData zd;
    memset(&zd, 0, sizeof zd);
    VOID("metaopt_graph_free_data/zeroed", metaopt_graph_free_data(&zd));
    MetaoptSpResult zs;
    memset(&zs, 0, sizeof zs);
    VOID("metaopt_sp_free_result/zeroed", metaopt_sp_free_result(&zs));
    MetaoptAcoRunResult za;
    memset(&za, 0, sizeof za);
    VOID("metaopt_aco_free_run_result/zeroed", metaopt_aco_free_run_result(&za));

    /* SSSP: sources and options */
    VOID("metaopt_sp_default_options/value", (void)metaopt_sp_default_options());
    MetaoptSpOptions so = cpu_sp();
    uint32_t bad_src[3] = {0, 4, UINT32_MAX};
    OWNED("metaopt_sp_sssp/NULL options (the defaults, device)", MetaoptSpResult, metaopt_sp_sssp(g, 0, g_valgrind ? &so : NULL),
          metaopt_sp_free_result, 0);
    OWNED("metaopt_sp_sssp/source n", MetaoptSpResult, metaopt_sp_sssp(g, 4, &so), metaopt_sp_free_result, ERR);
    OWNED("metaopt_sp_sssp/source max", MetaoptSpResult, metaopt_sp_sssp(g, UINT32_MAX, &so), metaopt_sp_free_result, ERR);
    OWNED("metaopt_sp_sssp_multi/NULL sources", MetaoptSpResult, metaopt_sp_sssp_multi(g, NULL, 2, &so), metaopt_sp_free_result,
          METAOPT_ERR_NULL_POINTER);
    OWNED("metaopt_sp_sssp_multi/NULL sources, huge k", MetaoptSpResult, metaopt_sp_sssp_multi(g, NULL, UINT32_MAX, &so),
          metaopt_sp_free_result, ERR);
    OWNED("metaopt_sp_sssp_multi/k 0", MetaoptSpResult, metaopt_sp_sssp_multi(g, bad_src, 0, &so), metaopt_sp_free_result, ERR);
    OWNED("metaopt_sp_sssp_multi/source out of range", MetaoptSpResult, metaopt_sp_sssp_multi(g, bad_src, 3, &so),
          metaopt_sp_free_result, ERR);
    MetaoptSpOptions sx[16];
    int se[16];
    for (int i = 0; i < 16; i++) sx[i] = cpu_sp(), se[i] = ERR;
    sx[0].method = -1;
    sx[1].method = 3;
    sx[2].method = 2, sx[2].delta = NAN;
    sx[3].method = 2, sx[3].delta = -1;
    sx[4].method = 2, sx[4].delta = INFINITY;
    sx[5].backend = 2;
    sx[6].backend = INT32_MIN;
    sx[7].rounds_per_check = 0;
    sx[8].method = 2, sx[8].delta = 1e-300, se[8] = 0;
    sx[9].method = 0, sx[9].max_rounds = UINT64_MAX, sx[9].rounds_per_check = UINT32_MAX; /* above MAX_ROUNDS_PER_CHECK */
    sx[10].method = 1, sx[10].delta = NAN, se[10] = 0; /* delta is ignored by the frontier */
    sx[11].method = 2, sx[11].delta = 1e300, se[11] = 0;
    sx[12].time_limit_s = NAN;
    sx[13].time_limit_s = -1;
    sx[14].time_limit_s = 1e300;
    /* a requested token: METAOPT_INTERRUPTED with an empty result (exact: nothing so far) */
    MetaoptStopToken *sp_req = requested_token();
    sx[15].time_limit_s = 5e-324, sx[15].stop_token = sp_req, se[15] = METAOPT_INTERRUPTED;
    for (int i = 0; i < 16; i++)
        OWNED("metaopt_sp_sssp/hostile options", MetaoptSpResult, metaopt_sp_sssp(g, 0, &sx[i]), metaopt_sp_free_result, se[i]);
    metaopt_stop_token_free(sp_req);
    /* distances that overflow to infinity: an error naming weights, never "unreachable" */
    uint32_t os[2] = {0, 1}, ot[2] = {1, 2};
    double ow[2] = {1e308, 1e308};
    float of[2] = {3e38f, 3e38f};
    MetaoptGraphResult og = metaopt_graph_from_edges(3, 2, os, ot, ow, METAOPT_WEIGHT_F64);
    require(og.error_code == 0, "metaopt_graph_from_edges (f64 overflow)");
    OWNED("metaopt_sp_sssp/f64 distance overflows", MetaoptSpResult, metaopt_sp_sssp(og.graph, 0, &so), metaopt_sp_free_result,
          METAOPT_ERR_INVALID_ARGUMENT);
    OWNED("metaopt_sp_sssp_multi/f64 distance overflows", MetaoptSpResult, metaopt_sp_sssp_multi(og.graph, os, 2, &so),
          metaopt_sp_free_result, METAOPT_ERR_INVALID_ARGUMENT);
    metaopt_graph_free(og.graph);
    MetaoptGraphResult fg = metaopt_graph_from_edges(3, 2, os, ot, of, METAOPT_WEIGHT_F32);
    require(fg.error_code == 0, "metaopt_graph_from_edges (f32 overflow)");
    /* the CPU backend sums f32 weights in double: finite */
    OWNED("metaopt_sp_sssp/f32 sums, CPU", MetaoptSpResult, metaopt_sp_sssp(fg.graph, 0, &so), metaopt_sp_free_result, 0);
    if (!g_valgrind) {
        MetaoptSpOptions d = metaopt_sp_default_options();
        OWNED("metaopt_sp_sssp/f32 sums overflow on the device", MetaoptSpResult, metaopt_sp_sssp(fg.graph, 0, &d),
              metaopt_sp_free_result, METAOPT_ERR_INVALID_ARGUMENT);
    }
    metaopt_graph_free(fg.graph);
    if (!g_valgrind && guard("metaopt_graph_from_edges/n 200000000, one arc")) {
        /* a graph of 200 million vertices (1.6 GB of offsets), its reverse and a search: each
           either fits or is an out-of-memory error, never an abort */
        begin("metaopt_graph_from_edges/n 200000000, one arc");
        MetaoptGraphResult hg = metaopt_graph_from_edges(200000000u, 1, os, ot, ow, METAOPT_WEIGHT_F64);
        end();
        check("metaopt_graph_from_edges/n 200000000, one arc", hg.error_code, hg.error_message, ANY);
        if (hg.error_code == 0)
            OWNED("metaopt_sp_sssp/n 200000000", MetaoptSpResult, metaopt_sp_sssp(hg.graph, 0, &so), metaopt_sp_free_result, ANY);
        metaopt_graph_free(hg.graph);
    }
    if (!g_valgrind) {
        /* the device methods, with tiny and huge rounds per check and a round limit */
        for (int m = 0; m < 3; m++) {
            MetaoptSpOptions d = metaopt_sp_default_options();
            d.method = m;
            d.rounds_per_check = m == 1 ? 1000 : 1;
            OWNED("metaopt_sp_sssp_multi/device", MetaoptSpResult, metaopt_sp_sssp_multi(g, src, 5, &d), metaopt_sp_free_result, 0);
            if (m == 1 && guard("metaopt_sp_sssp_multi/device, rounds_per_check 4294967295")) {
                d.rounds_per_check = UINT32_MAX; /* a named error (it was a hang of empty launches) */
                OWNED("metaopt_sp_sssp_multi/device, rounds_per_check 4294967295", MetaoptSpResult,
                      metaopt_sp_sssp_multi(g, src, 5, &d), metaopt_sp_free_result, ERR);
                d.rounds_per_check = 1000;
            }
            d.max_rounds = 1;
            OWNED("metaopt_sp_sssp/device, max_rounds 1", MetaoptSpResult, metaopt_sp_sssp(g, 0, &d), metaopt_sp_free_result, ANY);
        }
    }

    /* ACO: endpoints and options */
    VOID("metaopt_aco_default_options/value", (void)metaopt_aco_default_options());
    MetaoptAcoOptions ao = tiny_aco();
    OWNED("metaopt_aco_run/source n", MetaoptAcoRunResult, metaopt_aco_run(g, 4, 1, &ao), metaopt_aco_free_run_result, ERR);
    OWNED("metaopt_aco_run/target max", MetaoptAcoRunResult, metaopt_aco_run(g, 0, UINT32_MAX, &ao), metaopt_aco_free_run_result, ERR);
    OWNED("metaopt_aco_run/source = target", MetaoptAcoRunResult, metaopt_aco_run(g, 2, 2, &ao), metaopt_aco_free_run_result, 0);
    OWNED("metaopt_aco_run/unreachable", MetaoptAcoRunResult, metaopt_aco_run(g, 2, 0, &ao), metaopt_aco_free_run_result, 0);
    if (!g_valgrind)
        OWNED("metaopt_aco_run/NULL options (the defaults, device)", MetaoptAcoRunResult, metaopt_aco_run(g, 0, 2, NULL),
              metaopt_aco_free_run_result, ANY);
    MetaoptAcoOptions ax[28];
    int ae[28];
    for (int i = 0; i < 28; i++) ax[i] = tiny_aco(), ae[i] = ERR;
    ax[0].ants = 0;
    ax[1].alpha = NAN;
    ax[2].beta = -1;
    ax[3].damping = INFINITY;
    ax[4].evaporation = 0;
    ax[5].evaporation = 1.5;
    ax[6].evaporation = NAN;
    ax[7].deposit_exponent = -INFINITY;
    ax[8].initial_pheromone = -1;
    ax[9].initial_pheromone = NAN;
    ax[10].max_min = 2;
    ax[11].max_min = -0.5;
    ax[12].deposit = 2;
    ax[13].selection = -1;
    ax[14].backend = 7;
    ax[15].iterations = 0; /* the thesis's rule needs initial_pheromone > 1 */
    ax[16].iterations = 0, ax[16].initial_pheromone = 1e300, ae[16] = ANY;
    ax[17].ants = 100000, ae[17] = ANY;
    ax[18].group_size = UINT32_MAX, ae[18] = 0; /* ignored by the CPU backend */
    ax[19].max_steps = 1, ax[19].seed = UINT64_MAX, ae[19] = 0;
    ax[20].max_no_improve = 1, ax[20].iterations = UINT32_MAX, ae[20] = 0;
    ax[21].deposit = 0, ax[21].selection = 1, ae[21] = 0;
    ax[22].alpha = 1e300, ax[22].beta = 1e300, ae[22] = ANY;
    ax[23].max_min = 0, ax[23].initial_pheromone = 1e-300, ae[23] = ANY;
    ax[24].time_limit_s = NAN;
    ax[25].time_limit_s = -INFINITY;
    /* a run that would never end but for its requested token, or its tiny limit */
    MetaoptStopToken *aco_req = requested_token();
    ax[26].iterations = UINT32_MAX, ax[26].stop_token = aco_req, ae[26] = OK_OR_INTR;
    ax[27].iterations = UINT32_MAX, ax[27].time_limit_s = 5e-324, ae[27] = 0;
    for (int i = 0; i < 28; i++)
        OWNED("metaopt_aco_run/hostile options", MetaoptAcoRunResult, metaopt_aco_run(g, 0, 2, &ax[i]), metaopt_aco_free_run_result,
              ae[i]);
    metaopt_stop_token_free(aco_req);

    /* ACO states: saved, loaded back, damaged, mismatched; checkpoint options */
    {
        MetaoptAcoOptions so = tiny_aco();
        OWNED("metaopt_aco_run/unreachable, before save", MetaoptAcoRunResult, metaopt_aco_run(g, 2, 0, &so),
              metaopt_aco_free_run_result, 0);
        OWNED("metaopt_aco_save_state/after a run with no iteration", MetaoptBytesResult, metaopt_aco_save_state(g),
              metaopt_bytes_free_result, ERR);
        OWNED("metaopt_aco_run/before save", MetaoptAcoRunResult, metaopt_aco_run(g, 0, 2, &so), metaopt_aco_free_run_result, 0);
        begin("metaopt_aco_save_state/live");
        MetaoptBytesResult st = metaopt_aco_save_state(g);
        end();
        check("metaopt_aco_save_state/live", st.error_code, st.error_message, 0);
        st.error_message = NULL;
        if (st.error_code == 0 && st.data != NULL && st.length > 8) {
            I32("metaopt_aco_load_state/NULL data", metaopt_aco_load_state(g, NULL, st.length), METAOPT_ERR_NULL_POINTER);
            I32("metaopt_aco_load_state/0 bytes", metaopt_aco_load_state(g, st.data, 0), ERR);
            for (size_t cut = 1; cut < st.length; cut += 1 + st.length / 7u)
                I32("metaopt_aco_load_state/truncated", metaopt_aco_load_state(g, st.data, cut), ERR);
            uint8_t *flip = malloc(st.length);
            require(flip != NULL, "malloc");
            for (size_t at = 0; at < st.length; at += 1 + st.length / 9u) {
                memcpy(flip, st.data, st.length);
                flip[at] ^= 0x55;
                I32("metaopt_aco_load_state/a flipped byte", metaopt_aco_load_state(g, flip, st.length), ERR);
            }
            free(flip);
            STR("metaopt_state_describe/an ACO state", metaopt_state_describe(st.data, st.length), 0);
            I32("metaopt_aco_load_state/its own state", metaopt_aco_load_state(g, st.data, st.length), 0);
            MetaoptAcoOptions other = tiny_aco();
            other.seed = 99;
            OWNED("metaopt_aco_run/a state of another seed", MetaoptAcoRunResult, metaopt_aco_run(g, 0, 2, &other),
                  metaopt_aco_free_run_result, ERR);
            /* the refused state was used up: load it again */
            I32("metaopt_aco_load_state/again", metaopt_aco_load_state(g, st.data, st.length), 0);
            OWNED("metaopt_aco_run/a state of another target", MetaoptAcoRunResult, metaopt_aco_run(g, 0, 3, &so),
                  metaopt_aco_free_run_result, ERR);
            I32("metaopt_aco_load_state/once more", metaopt_aco_load_state(g, st.data, st.length), 0);
            so.iterations = 6;
            OWNED("metaopt_aco_run/resumed", MetaoptAcoRunResult, metaopt_aco_run(g, 0, 2, &so), metaopt_aco_free_run_result, 0);
        }
        metaopt_bytes_free_result(&st);
        metaopt_bytes_free_result(&st);
        VOID("metaopt_bytes_free_result/NULL", metaopt_bytes_free_result(NULL));
        MetaoptBytesResult zb;
        memset(&zb, 0, sizeof zb);
        VOID("metaopt_bytes_free_result/zeroed", metaopt_bytes_free_result(&zb));
        MetaoptAcoOptions cx[5];
        int ce[5];
        for (int i = 0; i < 5; i++) cx[i] = tiny_aco(), ce[i] = ERR;
        cx[0].checkpoint_every_s = 1; /* without a path */
        cx[1].checkpoint_path = "/nonexistent-folder/aco.state";
        cx[2].checkpoint_path = "aco-hostile.state", cx[2].checkpoint_every_s = NAN;
        cx[3].checkpoint_path = "aco-hostile.state", cx[3].checkpoint_every_s = -1;
        cx[4].checkpoint_path = "", ce[4] = ERR;
        for (int i = 0; i < 5; i++)
            OWNED("metaopt_aco_run/hostile checkpoint options", MetaoptAcoRunResult, metaopt_aco_run(g, 0, 2, &cx[i]),
                  metaopt_aco_free_run_result, ce[i]);
    }

    /* freed handle, double free */
    metaopt_graph_free(g);
    VOID("metaopt_graph_free/double free", metaopt_graph_free(g));
    graph_with(g, "freed handle", METAOPT_ERR_INVALID_ARGUMENT);
}


/* ------------------------------------------------------------------------------------------ */
/* batched DE: specs with every field hostile, calls on NULL, freed and wrong-kind handles */

static const double g_bde_lo[1] = {-5.0}, g_bde_hi[1] = {5.0};

static MetaoptBatchDeProblem tiny_bde(void) {
    MetaoptBatchDeProblem p = metaopt_batch_de_default_problem();
    p.function = "F1";
    p.dims = 3;
    p.lower = g_bde_lo;
    p.lower_length = 1;
    p.upper = g_bde_hi;
    p.upper_length = 1;
    p.members = 8;
    p.max_generations = 5;
    return p;
}

static MetaoptBatchDeOptions cpu_bde(void) {
    MetaoptBatchDeOptions o = metaopt_batch_de_default_options();
    o.backend = METAOPT_BACKEND_CPU;
    return o;
}

#define BDE_CREATE(label, specs, count, opts, expect) \
    do { \
        begin(label); \
        MetaoptBatchDeCreateResult r_ = metaopt_batch_de_create(specs, count, opts); \
        end(); \
        if ((r_.error_code == 0) != (r_.instance != NULL)) fail(label, "instance and code %d disagree", NULL, r_.error_code); \
        check(label, r_.error_code, r_.error_message, expect); \
        metaopt_batch_de_free(r_.instance); \
    } while (0)

/* every batched DE function that takes a handle, with handle h */
#define AWVD_NEW(label, call, expect) \
    do { \
        begin(label); \
        MetaoptAwvdResult r_ = (call); \
        end(); \
        if ((r_.error_code == 0) != (r_.awvd != NULL)) fail(label, "handle and code %d disagree", NULL, r_.error_code); \
        MetaoptAwvd *h_ = r_.awvd; \
        int c_ = r_.error_code; \
        char *m_ = r_.error_message; \
        r_.error_message = NULL; \
        check(label, c_, m_, expect); \
        metaopt_awvd_free_result(&r_); \
        metaopt_awvd_free_result(&r_); \
        metaopt_awvd_free(h_); \
    } while (0)

/* every AWVD function that takes a diagram handle, with handle h */
static void awvd_with(void *h, const char *what, int expect) {
    char label[160];
    snprintf(label, sizeof label, "metaopt_awvd_info/%s", what);
    OWNED(label, MetaoptAwvdResult, metaopt_awvd_info(h), metaopt_awvd_free_result, expect);
    snprintf(label, sizeof label, "metaopt_awvd_vertices/%s", what);
    OWNED(label, MetaoptAwvdVertices, metaopt_awvd_vertices(h), metaopt_awvd_free_vertices, expect);
    snprintf(label, sizeof label, "metaopt_awvd_edges/%s", what);
    OWNED(label, MetaoptAwvdEdges, metaopt_awvd_edges(h), metaopt_awvd_free_edges, expect);
    snprintf(label, sizeof label, "metaopt_awvd_contacts/%s", what);
    OWNED(label, MetaoptAwvdContacts, metaopt_awvd_contacts(h), metaopt_awvd_free_contacts, expect);
    snprintf(label, sizeof label, "metaopt_awvd_vertices_text/%s", what);
    STR(label, metaopt_awvd_vertices_text(h), expect);
}

static void awvd_args(void) {
    double x[5] = {0, 3, 0, 0, 1}, y[5] = {0, 0, 3, 0, 1}, z[5] = {0, 0, 0, 3, 1}, r[5] = {1, 1.2, 0.8, 1.1, 0.5};
    double rneg[5] = {1, 1.2, -0.8, 1.1, 0.5}, rnan[5] = {1, NAN, 0.8, 1.1, 0.5}, xinf[5] = {0, 3, INFINITY, 0, 1};
    MetaoptAwvdOptions o = metaopt_awvd_default_options();
    o.backend = METAOPT_BACKEND_CPU;
    VOID("metaopt_awvd_default_options/value", (void)metaopt_awvd_default_options());
    AWVD_NEW("metaopt_awvd_build/live", metaopt_awvd_build(x, y, z, r, 5, &o), 0);
    AWVD_NEW("metaopt_awvd_build/n 0", metaopt_awvd_build(x, y, z, r, 0, &o), METAOPT_ERR_INVALID_ARGUMENT);
    AWVD_NEW("metaopt_awvd_build/NULL x", metaopt_awvd_build(NULL, y, z, r, 5, &o), METAOPT_ERR_NULL_POINTER);
    AWVD_NEW("metaopt_awvd_build/NULL r", metaopt_awvd_build(x, y, z, NULL, 5, &o), METAOPT_ERR_NULL_POINTER);
    AWVD_NEW("metaopt_awvd_build/NULL x, huge n", metaopt_awvd_build(NULL, NULL, NULL, NULL, UINT32_MAX, &o), METAOPT_ERR_NULL_POINTER);
    AWVD_NEW("metaopt_awvd_build/negative radius", metaopt_awvd_build(x, y, z, rneg, 5, &o), METAOPT_ERR_INVALID_ARGUMENT);
    AWVD_NEW("metaopt_awvd_build/NaN radius", metaopt_awvd_build(x, y, z, rnan, 5, &o), METAOPT_ERR_INVALID_ARGUMENT);
    AWVD_NEW("metaopt_awvd_build/infinite x", metaopt_awvd_build(xinf, y, z, r, 5, &o), METAOPT_ERR_INVALID_ARGUMENT);
    /* finite but huge coordinates and radii: refused naming the coordinate, no grid of 2^64 cells */
    double xbig[5] = {0, 3, 1e300, 0, 1}, ybig[5] = {0, 0, 3, -1e300, 1}, zbig[5] = {0, 0, 0, 3, 1e20};
    double rbig[5] = {1, 1.2, 0.8, 1e300, 0.5};
    AWVD_NEW("metaopt_awvd_build/x 1e300", metaopt_awvd_build(xbig, y, z, r, 5, &o), METAOPT_ERR_INVALID_ARGUMENT);
    AWVD_NEW("metaopt_awvd_build/y -1e300", metaopt_awvd_build(x, ybig, z, r, 5, &o), METAOPT_ERR_INVALID_ARGUMENT);
    AWVD_NEW("metaopt_awvd_build/z 1e20", metaopt_awvd_build(x, y, zbig, r, 5, &o), METAOPT_ERR_INVALID_ARGUMENT);
    AWVD_NEW("metaopt_awvd_build/r 1e300", metaopt_awvd_build(x, y, z, rbig, 5, &o), METAOPT_ERR_INVALID_ARGUMENT);
    /* four balls a million apart and a tiny cell: a grid in proportion to the balls */
    double xfar[5] = {0, 1e6, 1e6, 0, 5e5}, yfar[5] = {0, 1e6, 0, 1e6, 5e5}, zfar[5] = {0, 1e6, 0, 0, 1};
    AWVD_NEW("metaopt_awvd_build/far apart", metaopt_awvd_build(xfar, yfar, zfar, r, 5, &o), 0);
    MetaoptAwvdOptions otiny = o;
    otiny.cell = 1e-300;
    AWVD_NEW("metaopt_awvd_build/cell 1e-300", metaopt_awvd_build(x, y, z, r, 5, &otiny), 0);
    MetaoptAwvdOptions ox[8];
    for (int i = 0; i < 8; i++) ox[i] = o;
    ox[0].cell = NAN;
    ox[1].cell = -1;
    ox[2].suspect_bound = INFINITY;
    ox[3].backend = 7;
    ox[4].backend = METAOPT_BACKEND_DEVICE, ox[4].device = -5;
    ox[5].double_precision = 9;
    ox[6].time_limit_s = NAN;
    ox[7].time_limit_s = 1e300;
    for (int i = 0; i < 8; i++)
        AWVD_NEW("metaopt_awvd_build/hostile options", metaopt_awvd_build(x, y, z, r, 5, &ox[i]), METAOPT_ERR_INVALID_ARGUMENT);
    /* a requested token: METAOPT_INTERRUPTED and no handle (a part of a diagram is no result) */
    MetaoptAwvdOptions otok = o;
    otok.stop_token = requested_token();
    AWVD_NEW("metaopt_awvd_build/requested token", metaopt_awvd_build(x, y, z, r, 5, &otok), METAOPT_INTERRUPTED);
    metaopt_stop_token_free((MetaoptStopToken *)otok.stop_token);
    AWVD_NEW("metaopt_awvd_from_file/NULL path", metaopt_awvd_from_file(NULL, 0, &o), METAOPT_ERR_NULL_POINTER);
    AWVD_NEW("metaopt_awvd_from_file/missing", metaopt_awvd_from_file("/nonexistent/x.balls", 0, &o), ERR);
    AWVD_NEW("metaopt_awvd_from_file/bad flags", metaopt_awvd_from_file("/nonexistent/x.pdb", 64, &o), METAOPT_ERR_INVALID_ARGUMENT);
    AWVD_NEW("metaopt_awvd_from_file/a 1 MiB name", metaopt_awvd_from_file(g_long, 0, &o), ERR);
    OWNED("metaopt_awvd_read_balls/NULL path", MetaoptAwvdBalls, metaopt_awvd_read_balls(NULL, 0), metaopt_awvd_free_balls,
          METAOPT_ERR_NULL_POINTER);
    OWNED("metaopt_awvd_read_balls/missing", MetaoptAwvdBalls, metaopt_awvd_read_balls("/nonexistent/x.balls", 7),
          metaopt_awvd_free_balls, ERR);
    VOID("metaopt_awvd_free_result/NULL", metaopt_awvd_free_result(NULL));
    VOID("metaopt_awvd_free_balls/NULL", metaopt_awvd_free_balls(NULL));
    VOID("metaopt_awvd_free_vertices/NULL", metaopt_awvd_free_vertices(NULL));
    VOID("metaopt_awvd_free_edges/NULL", metaopt_awvd_free_edges(NULL));
    VOID("metaopt_awvd_free_contacts/NULL", metaopt_awvd_free_contacts(NULL));
    MetaoptAwvdResult zr;
    MetaoptAwvdBalls zb;
    MetaoptAwvdVertices zv;
    MetaoptAwvdEdges ze;
    MetaoptAwvdContacts zc;
    memset(&zr, 0, sizeof zr), memset(&zb, 0, sizeof zb), memset(&zv, 0, sizeof zv);
    memset(&ze, 0, sizeof ze), memset(&zc, 0, sizeof zc);
    VOID("metaopt_awvd_free_result/zeroed", metaopt_awvd_free_result(&zr));
    VOID("metaopt_awvd_free_balls/zeroed", metaopt_awvd_free_balls(&zb));
    VOID("metaopt_awvd_free_vertices/zeroed", metaopt_awvd_free_vertices(&zv));
    VOID("metaopt_awvd_free_edges/zeroed", metaopt_awvd_free_edges(&ze));
    VOID("metaopt_awvd_free_contacts/zeroed", metaopt_awvd_free_contacts(&zc));
    VOID("metaopt_awvd_free/NULL", metaopt_awvd_free(NULL));
    VOID("metaopt_awvd_free/forged", metaopt_awvd_free((void *)(uintptr_t)1));
    for (int kind = 0; kind < 5; kind++) VOID("metaopt_awvd_free/wrong kind (ignored)", metaopt_awvd_free(live_of_kind(kind)));

    /* a live diagram under every function, and forged, NULL and wrong-kind handles */
    MetaoptAwvdResult ar = metaopt_awvd_build(x, y, z, r, 5, &o);
    require(ar.error_code == 0, "metaopt_awvd_build");
    MetaoptAwvd *a = ar.awvd;
    metaopt_awvd_free_result(&ar);
    awvd_with(a, "live", 0);
    awvd_with(NULL, "NULL", METAOPT_ERR_NULL_POINTER);
    awvd_with((void *)(uintptr_t)1, "forged 0x1", METAOPT_ERR_INVALID_ARGUMENT);
    awvd_with((char *)a + 8, "live handle + 8", METAOPT_ERR_INVALID_ARGUMENT);
    for (int kind = 0; kind < 5; kind++) awvd_with(live_of_kind(kind), "wrong kind", METAOPT_ERR_INVALID_ARGUMENT);
    for (size_t i = 0; i < NWRAP; i++) with_handle(&WRAPPERS[i], a, "an AWVD handle (wrong kind)", METAOPT_ERR_INVALID_ARGUMENT);
    for (int f = 0; f < 5; f++) free_any(f, a, "an AWVD handle (ignored)");
    awvd_with(a, "live after the wrong-kind frees", 0);
    metaopt_awvd_free(a);
    awvd_with(a, "freed", METAOPT_ERR_INVALID_ARGUMENT);
}

static void bde_with(void *h, const char *what, int expect) {
    char label[160];
    double out[8];
    snprintf(label, sizeof label, "metaopt_batch_de_run/%s", what);
    OWNED(label, MetaoptBatchDeRunResult, metaopt_batch_de_run(h, NULL), metaopt_batch_de_free_run_result, expect);
    snprintf(label, sizeof label, "metaopt_batch_de_results/%s", what);
    OWNED(label, MetaoptBatchDeRunResult, metaopt_batch_de_results(h), metaopt_batch_de_free_run_result, expect);
    snprintf(label, sizeof label, "metaopt_batch_de_best/%s", what);
    begin(label);
    MetaoptInt32Result r = metaopt_batch_de_best(h, 0, out, 8);
    end();
    check(label, r.error_code, r.error_message, expect);
    snprintf(label, sizeof label, "metaopt_batch_de_save_state/%s", what);
    OWNED(label, MetaoptBytesResult, metaopt_batch_de_save_state(h), metaopt_bytes_free_result, expect);
    /* the handle's own state back (a round trip), or where it has none a few bytes */
    static const uint8_t junk[4] = {1, 2, 3, 4};
    MetaoptBytesResult s = metaopt_batch_de_save_state(h);
    snprintf(label, sizeof label, "metaopt_batch_de_load_state/%s", what);
    begin(label);
    r = s.error_code == 0 ? metaopt_batch_de_load_state(h, s.data, s.length) : metaopt_batch_de_load_state(h, junk, 4);
    end();
    check(label, r.error_code, r.error_message, expect);
    metaopt_bytes_free_result(&s);
}

/* ------------------------------------------------------------------------------------------ */
/* basin hopping: options with every field hostile, calls on NULL, freed and wrong-kind handles */

static const double g_bh_lo[2] = {-5.0, -5.0}, g_bh_hi[2] = {5.0, 5.0};

static MetaoptBhOptions cpu_bh(void) {
    MetaoptBhOptions o = metaopt_bh_default_options();
    o.backend = METAOPT_BACKEND_CPU;
    o.chains = 4;
    o.launch_steps = 5;
    o.max_search = 20;
    return o;
}

#define BH_CREATE(label, call, expect) \
    do { \
        begin(label); \
        MetaoptBhCreateResult r_ = (call); \
        end(); \
        if ((r_.error_code == 0) != (r_.instance != NULL)) fail(label, "instance and code %d disagree", NULL, r_.error_code); \
        check(label, r_.error_code, r_.error_message, expect); \
        metaopt_bh_free(r_.instance); \
    } while (0)

static MetaoptInt32Result load_bh(void *h, const uint8_t *d, size_t n) { return metaopt_bh_load_state(h, d, n); }

/* every basin-hopping function that takes a handle, with handle h */
static void bh_with(void *h, const char *what, int expect) {
    char label[160];
    double x[2] = {1.0, -1.0};
    snprintf(label, sizeof label, "metaopt_bh_start/%s", what);
    I32(label, metaopt_bh_start(h, x, 2), expect);
    MetaoptBhStop s = metaopt_bh_default_stop();
    s.steps = 10;
    snprintf(label, sizeof label, "metaopt_bh_solve/%s", what);
    OWNED(label, MetaoptBhSolveResult, metaopt_bh_solve(h, &s), metaopt_bh_free_solve_result, expect);
    snprintf(label, sizeof label, "metaopt_bh_info/%s", what);
    STR(label, metaopt_bh_info(h), expect);
    snprintf(label, sizeof label, "metaopt_bh_save_state/%s", what);
    OWNED(label, MetaoptBytesResult, metaopt_bh_save_state(h), metaopt_bytes_free_result, expect);
    static const uint8_t junk[4] = {1, 2, 3, 4};
    MetaoptBytesResult st = metaopt_bh_save_state(h);
    snprintf(label, sizeof label, "metaopt_bh_load_state/%s", what);
    I32(label, st.error_code == 0 ? metaopt_bh_load_state(h, st.data, st.length) : metaopt_bh_load_state(h, junk, 4),
        expect);
    metaopt_bytes_free_result(&st);
}

static void bh_args(void) {
    VOID("metaopt_bh_default_options/value", (void)metaopt_bh_default_options());
    VOID("metaopt_bh_default_stop/value", (void)metaopt_bh_default_stop());
    VOID("metaopt_bh_free/NULL", metaopt_bh_free(NULL));
    VOID("metaopt_bh_free/forged", metaopt_bh_free((void *)(uintptr_t)1));
    VOID("metaopt_bh_free_solve_result/NULL", metaopt_bh_free_solve_result(NULL));
    MetaoptBhSolveResult zr;
    memset(&zr, 0, sizeof zr);
    VOID("metaopt_bh_free_solve_result/zeroed", metaopt_bh_free_solve_result(&zr));
    for (int kind = 0; kind < 5; kind++) VOID("metaopt_bh_free/wrong kind (ignored)", metaopt_bh_free(live_of_kind(kind)));

    MetaoptObjective f1 = catalogue("F1"), f5 = catalogue("F5"), cb = callback(cb_sphere, NULL);
    MetaoptObjective fail_cb = callback(cb_fail, NULL), nan_cb = callback(cb_nan, NULL);
    MetaoptBhOptions o = cpu_bh();
    const double *lo = g_bh_lo, *hi = g_bh_hi;
    static const double nan2[2] = {NAN, 0}, inf2[2] = {0, INFINITY};
    static const uint8_t data[16] = {0};
    BH_CREATE("metaopt_bh_create/live", metaopt_bh_create(&f1, lo, hi, 2, NULL, 0, &o), 0);
    BH_CREATE("metaopt_bh_create/NULL options", metaopt_bh_create(&cb, lo, hi, 2, NULL, 0, NULL), ERR);
    BH_CREATE("metaopt_bh_create/callback", metaopt_bh_create(&cb, lo, hi, 2, NULL, 0, &o), 0);
    BH_CREATE("metaopt_bh_create/NULL objective", metaopt_bh_create(NULL, lo, hi, 2, NULL, 0, &o), METAOPT_ERR_NULL_POINTER);
    {
        /* constraints: out of range, the epsilon level, counts for a catalogue function or a
         * callback without its violation callback, all errors */
        MetaoptBhOptions co = o;
        MetaoptConstraints bc[5];
        for (int i = 0; i < 5; i++) bc[i] = metaopt_default_constraints(), bc[i].inequalities = 1;
        bc[0].handling = 1;
        bc[1].handling = -3;
        bc[2].eq_tol = NAN;
        bc[3].inequalities = UINT32_MAX;
        bc[4].inequalities = 0;
        for (int i = 0; i < 5; i++) {
            co.constraints = &bc[i];
            BH_CREATE("metaopt_bh_create/bad constraints", metaopt_bh_create(&cb, lo, hi, 2, NULL, 0, &co), ERR);
        }
        co.constraints = &bc[2];
        bc[2].eq_tol = 1e-4;
        BH_CREATE("metaopt_bh_create/catalogue with constraint counts", metaopt_bh_create(&f1, lo, hi, 2, NULL, 0, &co), ERR);
        BH_CREATE("metaopt_bh_create/callback without a violation callback", metaopt_bh_create(&cb, lo, hi, 2, NULL, 0, &co), ERR);
    }
    BH_CREATE("metaopt_bh_create/NULL lo", metaopt_bh_create(&f1, NULL, hi, 2, NULL, 0, &o), METAOPT_ERR_NULL_POINTER);
    BH_CREATE("metaopt_bh_create/NULL hi", metaopt_bh_create(&f1, lo, NULL, 2, NULL, 0, &o), METAOPT_ERR_NULL_POINTER);
    BH_CREATE("metaopt_bh_create/NULL lo, huge dims", metaopt_bh_create(&f1, NULL, NULL, UINT32_MAX, NULL, 0, &o),
              METAOPT_ERR_NULL_POINTER);
    BH_CREATE("metaopt_bh_create/dims 0", metaopt_bh_create(&f1, lo, hi, 0, NULL, 0, &o), METAOPT_ERR_INVALID_ARGUMENT);
    BH_CREATE("metaopt_bh_create/lo > hi", metaopt_bh_create(&f1, hi, lo, 2, NULL, 0, &o), METAOPT_ERR_INVALID_ARGUMENT);
    BH_CREATE("metaopt_bh_create/NaN lo", metaopt_bh_create(&f1, nan2, hi, 2, NULL, 0, &o), METAOPT_ERR_INVALID_ARGUMENT);
    BH_CREATE("metaopt_bh_create/infinite hi", metaopt_bh_create(&f1, lo, inf2, 2, NULL, 0, &o), METAOPT_ERR_INVALID_ARGUMENT);
    BH_CREATE("metaopt_bh_create/F5 in 1 dimension", metaopt_bh_create(&f5, lo, hi, 1, NULL, 0, &o), ERR);
    BH_CREATE("metaopt_bh_create/data for a catalogue function", metaopt_bh_create(&f1, lo, hi, 2, data, 16, &o),
              METAOPT_ERR_INVALID_ARGUMENT);
    BH_CREATE("metaopt_bh_create/NULL data, 16 bytes", metaopt_bh_create(&f1, lo, hi, 2, NULL, 16, &o), ERR);
    MetaoptObjective bad[5] = {catalogue(NULL), catalogue("F13"), catalogue(g_bad_utf8[0]), catalogue(g_long), f1};
    bad[4].kind = 9;
    for (int i = 0; i < 5; i++)
        BH_CREATE("metaopt_bh_create/bad objective", metaopt_bh_create(&bad[i], lo, hi, 2, NULL, 0, &o), ERR);
    MetaoptObjective nocb = callback(NULL, NULL);
    BH_CREATE("metaopt_bh_create/NULL callback", metaopt_bh_create(&nocb, lo, hi, 2, NULL, 0, &o), METAOPT_ERR_NULL_POINTER);
    enum { NO = 17 };
    MetaoptBhOptions ho[NO];
    for (int i = 0; i < NO; i++) ho[i] = cpu_bh();
    ho[0].chains = 0;
    ho[1].hop_min = 0;
    ho[2].hop_min = 0.5, ho[2].hop_max = 0.1;
    ho[3].hop_max = NAN;
    ho[4].hop_max = INFINITY;
    ho[5].hop_scales = 0;
    ho[6].hop_scales = UINT32_MAX;
    ho[7].step0 = NAN;
    ho[8].step_stop = 1.0;
    ho[9].step_stop = -1.0;
    ho[10].max_search = 0;
    ho[11].launch_steps = 0;
    ho[12].precision = 7;
    ho[13].precision = METAOPT_PRECISION_SINGLE; /* single on the CPU backend */
    ho[14].backend = 5;
    ho[15].device = -2;
    ho[16].backend = METAOPT_BACKEND_DEVICE, ho[16].device = INT32_MAX;
    for (int i = 0; i < NO; i++)
        BH_CREATE("metaopt_bh_create/hostile options", metaopt_bh_create(&f1, lo, hi, 2, NULL, 0, &ho[i]), METAOPT_ERR_INVALID_ARGUMENT);
    if (!g_valgrind) {
        MetaoptBhOptions dev = cpu_bh();
        dev.backend = METAOPT_BACKEND_DEVICE;
        BH_CREATE("metaopt_bh_create/a callback on the device", metaopt_bh_create(&cb, lo, hi, 2, NULL, 0, &dev),
                  METAOPT_ERR_INVALID_ARGUMENT);
        MetaoptObjective src = {METAOPT_OBJECTIVE_SOURCE, "bad", "this is not OpenCL C", NULL, NULL};
        BH_CREATE("metaopt_bh_create/a source that does not build", metaopt_bh_create(&src, lo, hi, 2, data, 16, &dev), ERR);
    }
    {
        /* the polish: live on the CPU backend, then every argument hostile */
        MetaoptPolishOptions po = metaopt_bh_default_polish_options(2);
        po.backend = METAOPT_BACKEND_CPU;
        po.steps = 20;
        double px[2] = {1.0, -1.0}, pout[2] = {9.0, 0.0}, pnan[2] = {NAN, 0.0};
        VOID("metaopt_bh_default_polish_options/0 dims", (void)metaopt_bh_default_polish_options(0));
        VOID("metaopt_bh_default_polish_options/UINT32_MAX dims", (void)metaopt_bh_default_polish_options(UINT32_MAX));
        VOID("metaopt_bh_free_polish_result/NULL", metaopt_bh_free_polish_result(NULL));
        MetaoptPolishResult zp;
        memset(&zp, 0, sizeof zp);
        VOID("metaopt_bh_free_polish_result/zeroed", metaopt_bh_free_polish_result(&zp));
        OWNED("metaopt_bh_polish/live", MetaoptPolishResult, metaopt_bh_polish(&f1, lo, hi, 2, NULL, 0, px, &po),
              metaopt_bh_free_polish_result, 0);
        OWNED("metaopt_bh_polish/callback", MetaoptPolishResult, metaopt_bh_polish(&cb, lo, hi, 2, NULL, 0, px, &po),
              metaopt_bh_free_polish_result, 0);
        OWNED("metaopt_bh_polish/failing callback", MetaoptPolishResult,
              metaopt_bh_polish(&fail_cb, lo, hi, 2, NULL, 0, px, &po), metaopt_bh_free_polish_result, ERR);
        OWNED("metaopt_bh_polish/NaN callback", MetaoptPolishResult, metaopt_bh_polish(&nan_cb, lo, hi, 2, NULL, 0, px, &po),
              metaopt_bh_free_polish_result, ANY);
        OWNED("metaopt_bh_polish/NULL objective", MetaoptPolishResult, metaopt_bh_polish(NULL, lo, hi, 2, NULL, 0, px, &po),
              metaopt_bh_free_polish_result, METAOPT_ERR_NULL_POINTER);
        OWNED("metaopt_bh_polish/NULL x", MetaoptPolishResult, metaopt_bh_polish(&f1, lo, hi, 2, NULL, 0, NULL, &po),
              metaopt_bh_free_polish_result, METAOPT_ERR_NULL_POINTER);
        OWNED("metaopt_bh_polish/NULL lo, huge dims", MetaoptPolishResult,
              metaopt_bh_polish(&f1, NULL, NULL, UINT32_MAX, NULL, 0, NULL, &po), metaopt_bh_free_polish_result,
              METAOPT_ERR_NULL_POINTER);
        OWNED("metaopt_bh_polish/dims 0", MetaoptPolishResult, metaopt_bh_polish(&f1, lo, hi, 0, NULL, 0, px, &po),
              metaopt_bh_free_polish_result, METAOPT_ERR_INVALID_ARGUMENT);
        OWNED("metaopt_bh_polish/outside the box", MetaoptPolishResult, metaopt_bh_polish(&f1, lo, hi, 2, NULL, 0, pout, &po),
              metaopt_bh_free_polish_result, METAOPT_ERR_INVALID_ARGUMENT);
        OWNED("metaopt_bh_polish/NaN x", MetaoptPolishResult, metaopt_bh_polish(&f1, lo, hi, 2, NULL, 0, pnan, &po),
              metaopt_bh_free_polish_result, METAOPT_ERR_INVALID_ARGUMENT);
        OWNED("metaopt_bh_polish/lo > hi", MetaoptPolishResult, metaopt_bh_polish(&f1, hi, lo, 2, NULL, 0, px, &po),
              metaopt_bh_free_polish_result, METAOPT_ERR_INVALID_ARGUMENT);
        OWNED("metaopt_bh_polish/data for a catalogue function", MetaoptPolishResult,
              metaopt_bh_polish(&f1, lo, hi, 2, data, 16, px, &po), metaopt_bh_free_polish_result,
              METAOPT_ERR_INVALID_ARGUMENT);
        enum { NP = 8 };
        MetaoptPolishOptions hp[NP];
        for (int i = 0; i < NP; i++) hp[i] = po;
        hp[0].chains = 0;
        hp[1].steps = 0;
        hp[2].precision = 7;
        hp[3].precision = METAOPT_PRECISION_SINGLE; /* single on the CPU backend */
        hp[4].backend = 5;
        hp[5].device = -2;
        hp[6].time_limit = NAN;
        hp[7].time_limit = -1.0;
        for (int i = 0; i < NP; i++)
            OWNED("metaopt_bh_polish/hostile options", MetaoptPolishResult, metaopt_bh_polish(&f1, lo, hi, 2, NULL, 0, px, &hp[i]),
                  metaopt_bh_free_polish_result, METAOPT_ERR_INVALID_ARGUMENT);
        MetaoptPolishOptions pc = po;
        MetaoptConstraints pk = metaopt_default_constraints();
        pk.inequalities = 1;
        pc.constraints = &pk;
        OWNED("metaopt_bh_polish/callback without a violation callback", MetaoptPolishResult,
              metaopt_bh_polish(&cb, lo, hi, 2, NULL, 0, px, &pc), metaopt_bh_free_polish_result, ERR);
        /* a requested stop token: the given point back, interrupted */
        MetaoptStopToken *tok = metaopt_stop_token_create();
        require(tok != NULL, "metaopt_stop_token_create");
        (void)metaopt_stop_token_request(tok);
        MetaoptPolishOptions pt = po;
        pt.stop_token = tok;
        OWNED("metaopt_bh_polish/stop token requested", MetaoptPolishResult,
              metaopt_bh_polish(&f1, lo, hi, 2, NULL, 0, px, &pt), metaopt_bh_free_polish_result, METAOPT_INTERRUPTED);
        metaopt_stop_token_free(tok);
        MetaoptPolishOptions pbig = po;
        pbig.chains = UINT32_MAX;
        OWNED("metaopt_bh_polish/2^32 - 1 chains", MetaoptPolishResult, metaopt_bh_polish(&f1, lo, hi, 2, NULL, 0, px, &pbig),
              metaopt_bh_free_polish_result, ANY);
    }
    /* huge chains: refused or built, never an abort */
    MetaoptBhOptions big = cpu_bh();
    big.chains = UINT32_MAX;
    BH_CREATE("metaopt_bh_create/2^32 - 1 chains", metaopt_bh_create(&f1, lo, hi, 2, NULL, 0, &big), ANY);

    MetaoptBhCreateResult c = metaopt_bh_create(&f1, lo, hi, 2, NULL, 0, &o);
    require(c.error_code == 0, c.error_message ? c.error_message : "metaopt_bh_create");
    MetaoptBhInstance *h = c.instance;
    MetaoptBhStop s = metaopt_bh_default_stop();
    s.steps = 10;
    OWNED("metaopt_bh_solve/before start", MetaoptBhSolveResult, metaopt_bh_solve(h, &s), metaopt_bh_free_solve_result,
          METAOPT_ERR_INVALID_ARGUMENT);
    OWNED("metaopt_bh_save_state/before start", MetaoptBytesResult, metaopt_bh_save_state(h), metaopt_bytes_free_result,
          METAOPT_ERR_INVALID_ARGUMENT);
    double x[2] = {1.0, -1.0}, out[2] = {9.0, 0.0}, xnan[2] = {NAN, 0.0};
    I32("metaopt_bh_start/NULL x", metaopt_bh_start(h, NULL, 2), METAOPT_ERR_NULL_POINTER);
    I32("metaopt_bh_start/dims 3", metaopt_bh_start(h, x, 3), METAOPT_ERR_INVALID_ARGUMENT);
    I32("metaopt_bh_start/outside the box", metaopt_bh_start(h, out, 2), METAOPT_ERR_INVALID_ARGUMENT);
    I32("metaopt_bh_start/NaN", metaopt_bh_start(h, xnan, 2), METAOPT_ERR_INVALID_ARGUMENT);
    I32("metaopt_bh_start/live", metaopt_bh_start(h, x, 2), 0);
    OWNED("metaopt_bh_solve/NULL stop", MetaoptBhSolveResult, metaopt_bh_solve(h, NULL), metaopt_bh_free_solve_result,
          METAOPT_ERR_NULL_POINTER);
    enum { NS = 9 };
    MetaoptBhStop st[NS];
    int se[NS] = {ERR, ERR, ERR, ERR, ERR, ERR, METAOPT_INTERRUPTED, METAOPT_ERR_INVALID_ARGUMENT, 0};
    for (int i = 0; i < NS; i++) st[i] = metaopt_bh_default_stop(), st[i].steps = 10;
    st[0].steps = 0; /* no stop condition */
    st[1].time_limit = NAN;
    st[2].time_limit = -1;
    st[3].stop_token = (const MetaoptStopToken *)h;
    st[4].checkpoint_path = "/nonexistent/dir/bh.ckpt";
    st[5].checkpoint_every_s = 1.0; /* without a path */
    MetaoptStopToken *req = requested_token();
    st[6].stop_token = req;
    st[7].has_target = 1, st[7].target = NAN;
    st[8].has_target = 1, st[8].target = -1.0; /* with the 10 steps */
    for (int i = 0; i < NS; i++)
        OWNED("metaopt_bh_solve/hostile stop", MetaoptBhSolveResult, metaopt_bh_solve(h, &st[i]),
              metaopt_bh_free_solve_result, se[i]);
    metaopt_stop_token_free(req);
    bh_with(h, "live handle", 0);

    /* damaged and foreign states: a state of other options is refused */
    MetaoptBytesResult own = metaopt_bh_save_state(h);
    require(own.error_code == 0, "metaopt_bh_save_state");
    MetaoptBhOptions other = cpu_bh();
    other.chains = 5;
    MetaoptBhCreateResult c2 = metaopt_bh_create(&f1, lo, hi, 2, NULL, 0, &other);
    require(c2.error_code == 0, "metaopt_bh_create");
    MetaoptInt32Result r2 = metaopt_bh_start(c2.instance, x, 2);
    require(r2.error_code == 0, "metaopt_bh_start");
    MetaoptBytesResult foreign = metaopt_bh_save_state(c2.instance);
    require(foreign.error_code == 0, "metaopt_bh_save_state");
    damaged_states("metaopt_bh_load_state", load_bh, h, own.data, own.length, foreign.data, foreign.length);
    metaopt_bytes_free_result(&foreign);
    metaopt_bytes_free_result(&own);
    metaopt_bh_free(c2.instance);

    /* host callbacks that fail or return NaN */
    MetaoptBhCreateResult cf = metaopt_bh_create(&fail_cb, lo, hi, 2, NULL, 0, &o);
    require(cf.error_code == 0, "metaopt_bh_create");
    I32("metaopt_bh_start/a failing callback", metaopt_bh_start(cf.instance, x, 2), METAOPT_ERR_CALLBACK);
    metaopt_bh_free(cf.instance);
    MetaoptBhCreateResult cn = metaopt_bh_create(&nan_cb, lo, hi, 2, NULL, 0, &o);
    require(cn.error_code == 0, "metaopt_bh_create");
    I32("metaopt_bh_start/a callback returning NaN", metaopt_bh_start(cn.instance, x, 2), ANY);
    OWNED("metaopt_bh_solve/a callback returning NaN", MetaoptBhSolveResult, metaopt_bh_solve(cn.instance, &s),
          metaopt_bh_free_solve_result, ANY);
    metaopt_bh_free(cn.instance);

    /* forged, NULL and wrong-kind handles, then freed */
    bh_with(NULL, "NULL", METAOPT_ERR_NULL_POINTER);
    bh_with((void *)(uintptr_t)1, "forged 0x1", METAOPT_ERR_INVALID_ARGUMENT);
    bh_with((char *)h + 8, "live handle + 8", METAOPT_ERR_INVALID_ARGUMENT);
    for (int kind = 0; kind < 5; kind++) bh_with(live_of_kind(kind), "wrong kind", METAOPT_ERR_INVALID_ARGUMENT);
    for (size_t i = 0; i < NWRAP; i++) with_handle(&WRAPPERS[i], h, "a basin-hopping handle (wrong kind)", METAOPT_ERR_INVALID_ARGUMENT);
    for (int f = 0; f < 5; f++) free_any(f, h, "a basin-hopping handle (ignored)");
    bh_with(h, "live after the wrong-kind frees", 0);
    metaopt_bh_free(h);
    bh_with(h, "freed", METAOPT_ERR_INVALID_ARGUMENT);
    VOID("metaopt_bh_free/double free", metaopt_bh_free(h));
}

/* ------------------------------------------------------------------------------------------ */
/* catalogue functions evaluated by name                                                       */

static void function_evaluate_args(void) {
    double x[20], bad[20];
    for (int i = 0; i < 20; i++) x[i] = bad[i] = 0.25 * i - 2;
    DARR("metaopt_function_evaluate/NULL function", metaopt_function_evaluate(NULL, x, 2, 10, 1, 0), METAOPT_ERR_NULL_POINTER);
    DARR("metaopt_function_evaluate/NULL points", metaopt_function_evaluate("F1", NULL, 2, 10, 1, 0), METAOPT_ERR_NULL_POINTER);
    DARR("metaopt_function_evaluate/NULL points, huge sizes", metaopt_function_evaluate("F1", NULL, UINT32_MAX, UINT32_MAX, 0, 0),
         METAOPT_ERR_NULL_POINTER);
    const char *names[] = {"", "F0", "F13", "CEC03t", "CEC11", "F1 x", g_bad_utf8[0], g_bad_utf8[3], g_long};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        DARR("metaopt_function_evaluate/bad name", metaopt_function_evaluate(names[i], x, 2, 10, 1, 0), ERR);
    DARR("metaopt_function_evaluate/rows 0", metaopt_function_evaluate("F1", x, 0, 10, 1, 0), ERR);
    DARR("metaopt_function_evaluate/dims 0", metaopt_function_evaluate("F1", x, 2, 0, 1, 0), ERR);
    DARR("metaopt_function_evaluate/CEC05t in D = 5", metaopt_function_evaluate("CEC05t", x, 4, 5, 0, 0), ERR);
    DARR("metaopt_function_evaluate/F5 in D = 1", metaopt_function_evaluate("F5", x, 20, 1, 1, 0), ERR);
    DARR("metaopt_function_evaluate/CEC05t in D = huge", metaopt_function_evaluate("CEC05t", x, 1, UINT32_MAX, 0, 0), ERR);
    double special[] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 3; i++) {
        bad[13] = special[i];
        DARR("metaopt_function_evaluate/non-finite point, CPU", metaopt_function_evaluate("F1", bad, 2, 10, 1, 0), ERR);
        DARR("metaopt_function_evaluate/non-finite point, device", metaopt_function_evaluate("CEC10t", bad, 2, 10, 0, 0), ERR);
    }
    int32_t backends[] = {-1, 2, INT32_MIN, INT32_MAX};
    for (int i = 0; i < 4; i++)
        DARR("metaopt_function_evaluate/bad backend", metaopt_function_evaluate("F1", x, 2, 10, backends[i], 0), ERR);
    int32_t precisions[] = {-1, 3, INT32_MIN, INT32_MAX};
    for (int i = 0; i < 4; i++)
        DARR("metaopt_function_evaluate/bad precision", metaopt_function_evaluate("F1", x, 2, 10, 0, precisions[i]), ERR);
    DARR("metaopt_function_evaluate/single on the CPU", metaopt_function_evaluate("F1", x, 2, 10, 1, 1), ERR);
    /* huge finite values: float overflow to inf is a value, not an error */
    double huge[10] = {1e300, -1e300, 1e308, 0, 0, 0, 0, 0, 0, 0};
    DARR("metaopt_function_evaluate/huge values, CPU", metaopt_function_evaluate("F1", huge, 1, 10, 1, 0), 0);
    DARR("metaopt_function_evaluate/huge values, device float", metaopt_function_evaluate("CEC05t", huge, 1, 10, 0, 1), ANY);
    DARR("metaopt_function_evaluate/CPU", metaopt_function_evaluate("cec07T", x, 2, 10, 1, 2), 0);
    DARR("metaopt_function_evaluate/device", metaopt_function_evaluate("CEC07t", x, 2, 10, 0, 0), ANY);
    DARR("metaopt_function_evaluate/device float", metaopt_function_evaluate("F11", x, 10, 2, 0, 1), ANY);
    DARR("metaopt_function_evaluate/one column", metaopt_function_evaluate("F12", x, 20, 1, 1, 0), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* the CEC 2006 constrained problems by name                                                   */

#define CEC_EVAL(label, call, expect) \
    do { \
        begin(label); \
        MetaoptCec2006EvaluateResult r_ = (call); \
        end(); \
        if ((r_.error_code == 0) != (r_.f != NULL && r_.c != NULL && r_.violation != NULL)) \
            fail(label, "arrays and code %d disagree", NULL, r_.error_code); \
        if (r_.error_code != 0 && (r_.rows != 0 || r_.constraints != 0)) fail(label, "counts on error %d", NULL, r_.error_code); \
        int c_ = r_.error_code; \
        char *m_ = r_.error_message; \
        r_.error_message = NULL; \
        check(label, c_, m_, expect); \
        metaopt_cec2006_free_evaluate_result(&r_); \
        metaopt_cec2006_free_evaluate_result(&r_); /* a second release is harmless */ \
    } while (0)

static void cec2006_args(void) {
    const char *bad[] = {NULL, "", "G0", "G25", "G-1", "G001", "H01", "G01 x", "4294967297", g_bad_utf8[0], g_bad_utf8[3], g_long};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int expect = bad[i] ? ERR : METAOPT_ERR_NULL_POINTER;
        begin("metaopt_cec2006_info/bad name");
        MetaoptCec2006Info r = metaopt_cec2006_info(bad[i]);
        end();
        if (r.error_code != 0 && (r.dims != 0 || r.id != 0)) fail("metaopt_cec2006_info/bad name", "numbers on error %d", NULL, r.error_code);
        check("metaopt_cec2006_info/bad name", r.error_code, r.error_message, expect);
        DARR("metaopt_cec2006_bounds/bad name", metaopt_cec2006_bounds(bad[i]), expect);
        DARR("metaopt_cec2006_best_point/bad name", metaopt_cec2006_best_point(bad[i]), expect);
        double x[2] = {14, 1};
        CEC_EVAL("metaopt_cec2006_evaluate/bad name", metaopt_cec2006_evaluate(bad[i], x, 1, 2, 1, -1), expect);
    }
    const char *good[] = {"G01", "g6", "24", " G20 ", "g022"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        begin("metaopt_cec2006_info/good name");
        MetaoptCec2006Info r = metaopt_cec2006_info(good[i]);
        end();
        if (r.error_code == 0 && (r.dims == 0 || r.id == 0 || r.ng + r.nh == 0))
            fail("metaopt_cec2006_info/good name", "empty info with code %d", NULL, r.error_code);
        check("metaopt_cec2006_info/good name", r.error_code, r.error_message, i == 4 ? ERR : 0);
        DARR("metaopt_cec2006_bounds/good name", metaopt_cec2006_bounds(good[i]), i == 4 ? ERR : 0);
        DARR("metaopt_cec2006_best_point/good name", metaopt_cec2006_best_point(good[i]), i == 4 ? ERR : 0);
    }
    /* G06: 2 variables, 2 inequalities; G05: 4 variables, 2 + 3 constraints */
    double x[40], special[] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 40; i++) x[i] = 14 + 0.5 * i;
    CEC_EVAL("metaopt_cec2006_evaluate/NULL points", metaopt_cec2006_evaluate("G06", NULL, 2, 2, 1, -1), METAOPT_ERR_NULL_POINTER);
    CEC_EVAL("metaopt_cec2006_evaluate/NULL points, huge rows", metaopt_cec2006_evaluate("G06", NULL, UINT32_MAX, 2, 0, -1),
             METAOPT_ERR_NULL_POINTER);
    CEC_EVAL("metaopt_cec2006_evaluate/rows 0", metaopt_cec2006_evaluate("G06", x, 0, 2, 1, -1), ERR);
    uint32_t dims[] = {0, 1, 3, 13, UINT32_MAX};
    for (int i = 0; i < 5; i++) {
        CEC_EVAL("metaopt_cec2006_evaluate/wrong dims", metaopt_cec2006_evaluate("G06", x, 2, dims[i], 1, -1), ERR);
        CEC_EVAL("metaopt_cec2006_evaluate/wrong dims, huge rows", metaopt_cec2006_evaluate("G06", x, UINT32_MAX, dims[i], 0, -1), ERR);
    }
    for (int i = 0; i < 3; i++) {
        double bad_x[8];
        memcpy(bad_x, x, sizeof bad_x);
        bad_x[5] = special[i];
        CEC_EVAL("metaopt_cec2006_evaluate/non-finite point, CPU", metaopt_cec2006_evaluate("G06", bad_x, 4, 2, 1, -1), ERR);
        CEC_EVAL("metaopt_cec2006_evaluate/non-finite point, device", metaopt_cec2006_evaluate("G05", bad_x, 2, 4, 0, -1), ERR);
    }
    int32_t backends[] = {-1, 2, INT32_MIN, INT32_MAX};
    for (int i = 0; i < 4; i++)
        CEC_EVAL("metaopt_cec2006_evaluate/bad backend", metaopt_cec2006_evaluate("G06", x, 2, 2, backends[i], -1), ERR);
    int32_t devices[] = {-2, 4096, INT32_MIN, INT32_MAX};
    for (int i = 0; i < 4; i++) {
        CEC_EVAL("metaopt_cec2006_evaluate/bad device", metaopt_cec2006_evaluate("G06", x, 2, 2, 0, devices[i]), ERR);
        /* the CPU backend ignores a device number, but not one below -1 */
        CEC_EVAL("metaopt_cec2006_evaluate/device number, CPU", metaopt_cec2006_evaluate("G06", x, 2, 2, 1, devices[i]),
                 devices[i] < -1 ? ERR : 0);
    }
    /* points outside the box and huge finite values are evaluated: NaN or infinite values, no error */
    double far[4] = {1e308, -1e308, -1e300, 1e300};
    CEC_EVAL("metaopt_cec2006_evaluate/huge values, CPU", metaopt_cec2006_evaluate("G05", far, 1, 4, 1, -1), 0);
    CEC_EVAL("metaopt_cec2006_evaluate/huge values, device", metaopt_cec2006_evaluate("G05", far, 1, 4, 0, -1), ANY);
    double neg[7] = {-1, -1, -1, -1e6, -1, -1, -1};
    CEC_EVAL("metaopt_cec2006_evaluate/logarithm of a negative number", metaopt_cec2006_evaluate("G21", neg, 1, 7, 1, -1), 0);
    CEC_EVAL("metaopt_cec2006_evaluate/CPU", metaopt_cec2006_evaluate("G05", x, 10, 4, 1, -1), 0);
    CEC_EVAL("metaopt_cec2006_evaluate/device", metaopt_cec2006_evaluate("g5", x, 10, 4, 0, -1), ANY);
    CEC_EVAL("metaopt_cec2006_evaluate/device 0", metaopt_cec2006_evaluate("G24", x, 20, 2, 0, 0), ANY);
    VOID("metaopt_cec2006_free_evaluate_result/NULL", metaopt_cec2006_free_evaluate_result(NULL));
    MetaoptCec2006EvaluateResult zero;
    memset(&zero, 0, sizeof zero);
    VOID("metaopt_cec2006_free_evaluate_result/all zero", metaopt_cec2006_free_evaluate_result(&zero));
    MetaoptCec2006EvaluateResult once = metaopt_cec2006_evaluate("G06", x, 3, 2, 1, -1);
    VOID("metaopt_cec2006_free_evaluate_result/filled", metaopt_cec2006_free_evaluate_result(&once));
    VOID("metaopt_cec2006_free_evaluate_result/twice", metaopt_cec2006_free_evaluate_result(&once));
    if (once.f || once.c || once.violation || once.rows || once.constraints)
        fail("metaopt_cec2006_free_evaluate_result/twice", "a freed result keeps its arrays", NULL, 0);
}

static void batch_de_args(void) {
    VOID("metaopt_batch_de_default_problem/value", (void)metaopt_batch_de_default_problem());
    VOID("metaopt_batch_de_default_stop/value", (void)metaopt_batch_de_default_stop());
    VOID("metaopt_batch_de_default_options/value", (void)metaopt_batch_de_default_options());
    MetaoptBatchDeOptions cpu = cpu_bde();
    MetaoptBatchDeProblem good[2] = {tiny_bde(), tiny_bde()};
    BDE_CREATE("metaopt_batch_de_create/NULL problems", NULL, 1, &cpu, METAOPT_ERR_NULL_POINTER);
    BDE_CREATE("metaopt_batch_de_create/count 0", good, 0, &cpu, METAOPT_ERR_INVALID_ARGUMENT);
    BDE_CREATE("metaopt_batch_de_create/two problems", good, 2, &cpu, 0);
    static const double nan1[1] = {NAN}, inf1[1] = {INFINITY};
    MetaoptBatchDeProblem bp[26];
    for (int i = 0; i < 26; i++) bp[i] = tiny_bde();
    bp[0].function = NULL;
    bp[1].source = "FP objective(__global const FP *x, uint d, uint s, __global const void *p) { return x[0]; }";
    bp[2].lower = NULL;
    bp[3].lower_length = 0;
    bp[4].upper_length = 7;
    bp[5].lower = nan1;
    bp[6].upper = inf1;
    bp[7].lower = g_bde_hi, bp[7].upper = g_bde_lo;
    bp[8].function = g_bad_utf8[0];
    bp[9].function = "nope";
    bp[10].mutation = "DE/worst/9";
    bp[11].bounds = g_bad_utf8[1];
    bp[12].members = 0;
    bp[13].members = UINT32_MAX;
    bp[14].dims = 0;
    bp[15].dims = UINT32_MAX;
    bp[16].f = NAN;
    bp[17].cr = -0.5;
    bp[18].has_target = 1, bp[18].target = NAN;
    bp[19].has_target = 9;
    bp[20].function = NULL, bp[20].source = "x", bp[20].data = NULL, bp[20].data_bytes = 16;
    bp[21].function = g_long;
    bp[22].algorithm = 77;
    /* jSO runs in the batch; with 3 members it is refused (members) */
    bp[23].algorithm = METAOPT_DE_ALGORITHM_JSO, bp[23].members = 3;
    bp[24].algorithm = METAOPT_DE_ALGORITHM_JDE100, bp[24].jde_small = UINT32_MAX;
    bp[25].algorithm = METAOPT_DE_ALGORITHM_JDE100, bp[25].jde_small = 0;
    for (int i = 0; i < 26; i++) {
        MetaoptBatchDeProblem two[2] = {tiny_bde(), bp[i]};
        BDE_CREATE("metaopt_batch_de_create/hostile spec", two, 2, &cpu, ERR);
    }
    /* integrality and constraints: NULL with a count, wrong counts, flags other than 0 and 1,
       limits holding no integer, constraint counts 0 or past 256, NaN and negative tolerances,
       the epsilon level, a violation callback, constraints of a catalogue function or of a
       source without `constraints`, constraints with jDE100 */
    {
        static const uint8_t ones[3] = {1, 1, 1}, bad_flag[3] = {0, 2, 0};
        static const double narrow_lo[1] = {0.2}, narrow_hi[1] = {0.8};
        static const char *cons_src =
            "FP objective(__global const FP *x, uint d, uint s, __global const void *p) { return x[0]; }\n"
            "void constraints(__global const FP *x, uint d, uint s, __global const void *p, FP *c) { c[0] = x[0]; }";
        MetaoptConstraints cs[9];
        for (int i = 0; i < 9; i++) cs[i] = metaopt_default_constraints(), cs[i].inequalities = 1;
        cs[0].inequalities = 0;
        cs[1].inequalities = 257;
        cs[2].inequalities = UINT32_MAX, cs[2].equalities = 2;
        cs[3].eq_tol = NAN;
        cs[4].eq_tol = -1;
        cs[5].handling = 1;
        cs[6].handling = 9;
        cs[7].violation = cb_sphere;
        cs[8].repair_probability = 0.5; /* the repair is island DE's */
        MetaoptBatchDeProblem ip[17];
        for (int i = 0; i < 17; i++) ip[i] = tiny_bde();
        ip[0].integrality = NULL, ip[0].integrality_length = 3;
        ip[1].integrality = ones, ip[1].integrality_length = 2;
        ip[2].integrality = ones, ip[2].integrality_length = UINT32_MAX;
        ip[3].integrality = bad_flag, ip[3].integrality_length = 3;
        ip[4].integrality = ones, ip[4].integrality_length = 3, ip[4].lower = narrow_lo, ip[4].upper = narrow_hi;
        for (int i = 0; i < 8; i++) ip[6 + i].function = NULL, ip[6 + i].source = cons_src, ip[6 + i].constraints = &cs[i];
        MetaoptConstraints ok = metaopt_default_constraints();
        ok.inequalities = 1;
        /* a catalogue function has no constraints; a source without `constraints` does not build */
        ip[5].constraints = &ok;
        ip[14].function = NULL, ip[14].source = bp[1].source, ip[14].constraints = &ok;
        ip[15].function = NULL, ip[15].source = cons_src, ip[15].algorithm = METAOPT_DE_ALGORITHM_JDE100,
        ip[15].members = 20, ip[15].jde_small = 8;
        ip[15].constraints = &ok;
        ip[16].function = NULL, ip[16].source = cons_src, ip[16].constraints = &cs[8];
        for (int i = 0; i < 17; i++) {
            MetaoptBatchDeProblem two[2] = {tiny_bde(), ip[i]};
            BDE_CREATE("metaopt_batch_de_create/hostile integrality or constraints", two, 2, &cpu, ERR);
        }
        /* the good ones run, and every result carries its violation */
        MetaoptBatchDeProblem fine[2] = {tiny_bde(), tiny_bde()};
        fine[0].integrality = ones, fine[0].integrality_length = 3;
        fine[1].function = NULL, fine[1].source = cons_src, fine[1].constraints = &ok;
        MetaoptBatchDeCreateResult fc = metaopt_batch_de_create(fine, 2, &cpu);
        check("metaopt_batch_de_create/integrality and constraints", fc.error_code, fc.error_message, 0);
        if (fc.error_code == 0) {
            MetaoptBatchDeRunResult rr = metaopt_batch_de_run(fc.instance, NULL);
            check("metaopt_batch_de_run/integrality and constraints", rr.error_code, rr.error_message, 0);
            if (rr.error_code == 0 && (rr.violation == NULL || rr.count != 2 || rr.violation[0] != 0.0 || !(rr.violation[1] >= 0.0)))
                fail("metaopt_batch_de_run/violation", "no violation per problem", NULL, 0);
            metaopt_batch_de_free_run_result(&rr);
            metaopt_batch_de_free_run_result(&rr);
            metaopt_batch_de_free(fc.instance);
        }
    }
    MetaoptBatchDeOptions bo[5];
    for (int i = 0; i < 5; i++) bo[i] = cpu_bde();
    bo[0].backend = 7;
    bo[1].precision = -3;
    bo[2].placement = 3;
    bo[3].generations_per_launch = 0;
    bo[4].backend = METAOPT_BACKEND_DEVICE, bo[4].precision = 1, bo[4].placement = 2;
    for (int i = 0; i < 4; i++) BDE_CREATE("metaopt_batch_de_create/hostile options", good, 2, &bo[i], METAOPT_ERR_INVALID_ARGUMENT);
    if (!g_valgrind) BDE_CREATE("metaopt_batch_de_create/device", good, 2, &bo[4], ANY);
    /* huge sizes: each problem fits alone, the batch as a whole is estimated (host and device
       buffers) at creation: out of memory where it cannot fit, never an abort at the first run */
    {
        enum { MANY = 10000 };
        MetaoptBatchDeProblem *many = malloc(MANY * sizeof *many);
        require(many != NULL, "malloc");
        for (int i = 0; i < MANY; i++) many[i] = tiny_bde(), many[i].members = 1000, many[i].dims = 1000;
        BDE_CREATE("metaopt_batch_de_create/10000 problems of 10^6 values", many, MANY, &cpu, ANY);
        if (!g_valgrind) BDE_CREATE("metaopt_batch_de_create/10000 problems of 10^6 values, device", many, MANY, &bo[4], ANY);
        /* one problem of 2^31 values, the most a problem may hold */
        many[0].members = 1u << 16, many[0].dims = 1u << 15;
        BDE_CREATE("metaopt_batch_de_create/one problem of 2^31 values", many, 1, &cpu, ANY);
        free(many);
    }

    MetaoptBatchDeCreateResult c = metaopt_batch_de_create(good, 2, &cpu);
    require(c.error_code == 0, "metaopt_batch_de_create");
    MetaoptBatchDeInstance *h = c.instance;
    double out[8];
    begin("metaopt_batch_de_best/before a run");
    MetaoptInt32Result r = metaopt_batch_de_best(h, 0, out, 8);
    end();
    check("metaopt_batch_de_best/before a run", r.error_code, r.error_message, METAOPT_ERR_INVALID_ARGUMENT);
    MetaoptBatchDeStop st[5];
    int se[5] = {ERR, ERR, ERR, ERR, METAOPT_INTERRUPTED};
    for (int i = 0; i < 5; i++) st[i] = metaopt_batch_de_default_stop();
    st[0].time_limit = NAN;
    st[1].time_limit = -1;
    st[2].time_limit = INFINITY;
    st[3].stop_token = (const MetaoptStopToken *)h;
    MetaoptStopToken *req = requested_token();
    st[4].stop_token = req;
    for (int i = 0; i < 5; i++)
        OWNED("metaopt_batch_de_run/hostile stop", MetaoptBatchDeRunResult, metaopt_batch_de_run(h, &st[i]),
              metaopt_batch_de_free_run_result, se[i]);
    metaopt_stop_token_free(req);
    bde_with(h, "live handle", 0);
    uint32_t probs[3] = {2, 1000, UINT32_MAX};
    for (int i = 0; i < 3; i++) {
        begin("metaopt_batch_de_best/problem out of range");
        r = metaopt_batch_de_best(h, probs[i], out, 8);
        end();
        check("metaopt_batch_de_best/problem out of range", r.error_code, r.error_message, METAOPT_ERR_INVALID_ARGUMENT);
    }
    begin("metaopt_batch_de_best/short buffer");
    r = metaopt_batch_de_best(h, 1, out, 2);
    end();
    check("metaopt_batch_de_best/short buffer", r.error_code, r.error_message, METAOPT_ERR_INVALID_ARGUMENT);
    begin("metaopt_batch_de_best/NULL out");
    r = metaopt_batch_de_best(h, 1, NULL, 3);
    end();
    check("metaopt_batch_de_best/NULL out", r.error_code, r.error_message, METAOPT_ERR_NULL_POINTER);
    begin("metaopt_batch_de_best/dims query");
    r = metaopt_batch_de_best(h, 1, NULL, 0);
    end();
    if (check("metaopt_batch_de_best/dims query", r.error_code, r.error_message, 0) == 0 && r.result != 3)
        fail("metaopt_batch_de_best/dims query", "dims %d, expected 3", NULL, r.result);
    /* states: NULL, empty, foreign, truncated and damaged bytes refused; the batch's own loads */
    static const uint8_t junk[8] = {'M', 'E', 'T', 'A', 'O', 'P', 'T', 0};
    I32("metaopt_batch_de_load_state/NULL data", metaopt_batch_de_load_state(h, NULL, 16), ERR);
    I32("metaopt_batch_de_load_state/0 bytes", metaopt_batch_de_load_state(h, junk, 0), ERR);
    I32("metaopt_batch_de_load_state/not a state", metaopt_batch_de_load_state(h, junk, sizeof junk), ERR);
    MetaoptBytesResult bs = metaopt_batch_de_save_state(h);
    require(bs.error_code == 0, "metaopt_batch_de_save_state");
    size_t bcuts[] = {1, 8, 19, 20, 24, bs.length / 2, bs.length - 1};
    for (size_t i = 0; i < sizeof bcuts / sizeof bcuts[0]; i++)
        I32("metaopt_batch_de_load_state/truncated", metaopt_batch_de_load_state(h, bs.data, bcuts[i]), ERR);
    for (size_t at = 0; at < bs.length; at += bs.length / 13 + 1) {
        bs.data[at] ^= 0x21;
        I32("metaopt_batch_de_load_state/damaged", metaopt_batch_de_load_state(h, bs.data, bs.length), ERR);
        bs.data[at] ^= 0x21;
    }
    I32("metaopt_batch_de_load_state/its own state", metaopt_batch_de_load_state(h, bs.data, bs.length), 0);
    metaopt_bytes_free_result(&bs);
    MetaoptBatchDeStop cs = metaopt_batch_de_default_stop();
    cs.checkpoint_every_s = 1;
    OWNED("metaopt_batch_de_run/checkpoint_every_s without a path", MetaoptBatchDeRunResult, metaopt_batch_de_run(h, &cs),
          metaopt_batch_de_free_run_result, METAOPT_ERR_INVALID_ARGUMENT);
    cs.checkpoint_path = "/nonexistent-folder/b.state";
    OWNED("metaopt_batch_de_run/checkpoint in a missing folder", MetaoptBatchDeRunResult, metaopt_batch_de_run(h, &cs),
          metaopt_batch_de_free_run_result, METAOPT_ERR_INVALID_ARGUMENT);
    VOID("metaopt_batch_de_free_run_result/NULL", metaopt_batch_de_free_run_result(NULL));
    MetaoptBatchDeRunResult zr;
    memset(&zr, 0, sizeof zr);
    VOID("metaopt_batch_de_free_run_result/zeroed", metaopt_batch_de_free_run_result(&zr));
    /* wrong-kind handles both ways */
    MetaoptStopToken *tok = metaopt_stop_token_create();
    bde_with(tok, "a token", METAOPT_ERR_INVALID_ARGUMENT);
    metaopt_stop_token_free(tok);
    bde_with(NULL, "NULL", METAOPT_ERR_NULL_POINTER);
    metaopt_batch_de_free(h);
    VOID("metaopt_batch_de_free/double free", metaopt_batch_de_free(h));
    VOID("metaopt_batch_de_free/NULL", metaopt_batch_de_free(NULL));
    bde_with(h, "freed handle", METAOPT_ERR_INVALID_ARGUMENT);
}

/* ------------------------------------------------------------------------------------------ */

/* A call that must fail with METAOPT_ERR_INVALID_ARGUMENT and a message naming `device`;
 * `release` frees the rest of the result r_. */
#define DEVERR(label, type, call, release) \
    do { \
        begin(label); \
        type r_ = (call); \
        end(); \
        int c_ = r_.error_code; \
        char *m_ = r_.error_message; \
        r_.error_message = NULL; \
        if (m_ == NULL || strstr(m_, "device") == NULL) fail(label, "error %d does not name device", m_, c_); \
        check(label, c_, m_, METAOPT_ERR_INVALID_ARGUMENT); \
        release; \
    } while (0)

/* Per-handle device numbers: below -1 or past the device list, in every create call and
 * options struct that takes one. */
static void device_numbers(void) {
    MetaoptInt32Result cnt = metaopt_device_count();
    int count = cnt.error_code == 0 ? cnt.result : 0;
    metaopt_pointer_free(cnt.error_message);
    if (count == 0) return; /* no device list to be past */
    int32_t bad[] = {-2, 99, INT32_MIN, INT32_MAX, count};
    double x[4] = {0.5, -0.5, 1, 2}, lim[2] = {-5, 5}, dod[2] = {-5, 5};
    uint32_t bits = 8, a[2] = {0, 7};
    uint64_t off[3] = {0, 1, 2};
    uint32_t tg[2] = {1, 0};
    double w[2] = {1, 1};
    MetaoptGraphResult g = metaopt_graph_from_csr(2, off, 2, tg, w, 3);
    require(g.error_code == 0, "metaopt_graph_from_csr");
    MetaoptKnapsackResult k = metaopt_knapsack_generate(1, 10, 100, 1);
    require(k.error_code == 0, "metaopt_knapsack_generate");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int32_t d = bad[i];
        DEVERR("metaopt_device_is_valid/bad device", MetaoptInt32Result, metaopt_device_is_valid(d), (void)r_);
        DEVERR("metaopt_function_evaluate_on_device/bad device", MetaoptDoubleArrayResult,
               metaopt_function_evaluate_on_device("F1", x, 2, 2, 0, d, 0), metaopt_double_array_free_result(&r_));
        DEVERR("metaopt_qap_params_on_device/bad device", MetaoptQapParamsResult,
               metaopt_qap_params_on_device(2, QN, 1, g_df, "int32", 2, 0, 0, d), metaopt_qap_free(r_.instance));
        DEVERR("metaopt_qap_params_ab_on_device/bad device", MetaoptQapParamsResult,
               metaopt_qap_params_ab_on_device(2, QN, 1, g_df, g_df, "int32", 2, 0, 0, d), metaopt_qap_free(r_.instance));
        DEVERR("metaopt_qap_params_from_file_on_device/bad device", MetaoptQapParamsResult,
               metaopt_qap_params_from_file_on_device("no-such.dat", 2, 2, 0, 0, d), metaopt_qap_free(r_.instance));
        DEVERR("metaopt_qap_set_backend_on_device/bad device", MetaoptInt32Result,
               metaopt_qap_set_backend_on_device(g_qap, METAOPT_BACKEND_DEVICE, 0, d), (void)r_);
        DEVERR("metaopt_hc12_params_on_device/bad device", MetaoptHc12ParamsResult,
               metaopt_hc12_params_on_device(2, &bits, 1, dod, 2, 1, 0, 0, METAOPT_DOMAIN_REAL, 0, d, NULL),
               metaopt_hc12_free(r_.instance));
        DEVERR("metaopt_sat_evaluate_on_device/bad device", MetaoptSatEvalResult,
               metaopt_sat_evaluate_on_device(g_sat, a, 2, 0, d), metaopt_sat_free_eval_result(&r_));
        MetaoptSatSolveOptions so = metaopt_sat_default_solve_options();
        so.device = d;
        so.runs = 1;
        DEVERR("metaopt_sat_solve/options.device bad", MetaoptSatSolveResult, metaopt_sat_solve(g_sat, &so),
               metaopt_sat_free_solve_result(&r_));
        so.method = METAOPT_SAT_HC12;
        DEVERR("metaopt_sat_solve/options.device bad, hc12", MetaoptSatSolveResult, metaopt_sat_solve(g_sat, &so),
               metaopt_sat_free_solve_result(&r_));
        MetaoptDeOptions de = metaopt_de_default_options();
        de.device = d;
        DEVERR("metaopt_de_create/options.device bad", MetaoptDeCreateResult, metaopt_de_create(2, 4, 2, lim, 2, "sat", &de),
               metaopt_de_free(r_.instance));
        MetaoptBatchDeOptions bo = metaopt_batch_de_default_options();
        bo.device = d;
        MetaoptBatchDeProblem bp = tiny_bde();
        DEVERR("metaopt_batch_de_create/options.device bad", MetaoptBatchDeCreateResult, metaopt_batch_de_create(&bp, 1, &bo),
               metaopt_batch_de_free(r_.instance));
        MetaoptSpOptions sp = metaopt_sp_default_options();
        sp.device = d;
        DEVERR("metaopt_sp_sssp/options.device bad", MetaoptSpResult, metaopt_sp_sssp(g.graph, 0, &sp), metaopt_sp_free_result(&r_));
        MetaoptAcoOptions ao = metaopt_aco_default_options();
        ao.device = d;
        DEVERR("metaopt_aco_run/options.device bad", MetaoptAcoRunResult, metaopt_aco_run(g.graph, 0, 1, &ao),
               metaopt_aco_free_run_result(&r_));
        MetaoptQigaOptions qo = metaopt_qiga_default_options();
        qo.device = d;
        DEVERR("metaopt_qiga_run/options.device bad", MetaoptQigaRunResult, metaopt_qiga_run(k.knapsack, &qo),
               metaopt_qiga_free_run_result(&r_));
    }
    /* -1 (the device in use) is a number, not an error */
    I32("metaopt_device_is_valid/-1", metaopt_device_is_valid(-1), 0);
    I32("metaopt_device_is_valid/0", metaopt_device_is_valid(0), 0);
    metaopt_graph_free(g.graph);
    metaopt_knapsack_free(k.knapsack);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    install_handlers();
    if (argc > 1) g_data_dir = argv[1];
    g_valgrind = argc > 2 && strcmp(argv[2], "--valgrind") == 0;
    if (g_valgrind) g_alarm = 600, g_loops = 40;
    /* the harness's scratch files (malformed .dat/.cnf inputs) in a fresh directory of TMPDIR */
    const char *tmpdir = getenv("TMPDIR");
    snprintf(g_tmp, sizeof g_tmp, "%s/metaopt-hostile-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    require(mkdtemp(g_tmp) != NULL, "mkdtemp");
    g_long = malloc((1 << 20) + 1);
    require(g_long != NULL, "malloc");
    memset(g_long, 'A', 1 << 20);
    g_long[1 << 20] = 0;
    for (int i = 0; i < QN; i++)
        for (int j = 0; j < QN; j++) g_df[i * QN + j] = i == j ? 0 : i > j ? (i + j) % 4 + 1 : (i * j) % 5 + 1;

    const char *only = getenv("HOSTILE_ONLY");
    g_de = new_de(catalogue("F1"));
    g_qap = new_qap();
    g_hc12 = new_hc12(catalogue("F1"));
    g_sat = new_sat();
    g_token = metaopt_stop_token_create();
    g_de_for_token = g_de, g_qap_for_token = g_qap, g_sat_for_token = g_sat, g_hc12_for_token = g_hc12;
    if (!only) {
        versions();
        devices();
        bad_handles();
        freed_handles();
        results();
    }
    de_args();
    hc12_args();
    qap_args();
    sat_args();
    knapsack_args();
    graph_args();
    awvd_args();
    batch_de_args();
    bh_args();
    function_evaluate_args();
    cec2006_args();
    device_numbers();
    if (!only) {
        tokens_and_concurrency();
        /* the device layer reset under live handles: they keep their contexts */
        I32("metaopt_device_reset/under live handles", metaopt_device_reset(), 0);
        I32("metaopt_device_reset/twice", metaopt_device_reset(), 0);
        STR("metaopt_hc12_info/after metaopt_device_reset", metaopt_hc12_info(g_hc12), 0);
        MetaoptHc12RunOptions o = metaopt_hc12_default_run_options();
        o.max_iterations = 3;
        OWNED("metaopt_hc12_run/after metaopt_device_reset", MetaoptHc12RunResult, metaopt_hc12_run(g_hc12, &o),
              metaopt_hc12_free_run_result, ANY);
        I32("metaopt_qap_set_backend/device after metaopt_device_reset", metaopt_qap_set_backend(g_qap, 0, 0), ANY);
    }
    metaopt_de_free(g_de);
    metaopt_qap_free(g_qap);
    metaopt_hc12_free(g_hc12);
    metaopt_sat_free(g_sat);
    metaopt_stop_token_free(g_token);
    free(g_long);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
    if (system(cmd) != 0) fprintf(stderr, "hostile: could not remove %s\n", g_tmp);

    for (int i = 0; i < g_nfn; i++) printf("hostile: covered %s %ld\n", g_fn[i], g_fn_calls[i]);
    printf("hostile: calls=%ld failures=%ld known=%ld\n", (long)atomic_load(&g_calls), g_failures, g_known);
    return g_failures ? 1 : 0;
}
