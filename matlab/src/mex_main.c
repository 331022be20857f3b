/*
 * metaopt_mex: the MATLAB / GNU Octave gateway of libmetaopt (C MEX API, mex.h).
 *
 *   MATLAB: build_matlab          Octave: build_octave  (`make test-octave` builds it too)
 *
 * One MEX function built from the sources of this folder (mex_internal.h lists them and
 * declares what they share); this file holds mexFunction, the MODES table, the list of
 * instance kinds and the modes that several kinds share.
 *
 * One function whose first argument is a mode string, as in the thesis's Tables 1 (general
 * HC12) and 2 (HC12 for QAP); modes after a colon take options (`run:taboo,consts_reload`).
 *
 *   devices       get-device, set-device, devices, mem-space-valid             (mex_device.c)
 *   QAP (Tab. 2)  params (swaps, nElements, nBitParam, DF, [nSlices, maskOrder, startBit,
 *                 bitLength]), params-file, set-tabu-list, run (instance, initOrder,
 *                 initKernel), solve, qap-save-state, qap-ts-solve (robust tabu search), info, free
 *                                                                                (mex_qap.c)
 *   HC12 (Tab. 1) params / params:noR (nParam, nBitParam, dodParam, [maskOrder, startBit,
 *                 bitLength]), set-tabu-list, run / run:taboo,consts_reload (instance, mCode,
 *                 nRuns, startSeed, funName, funOpt, [activationLimit, limitRows], name/value
 *                 options), func-data, func-data-clean, kernel-verbose, profiler-on,
 *                 profiler-output, hc12-save-state, info, free                  (mex_hc12.c)
 *   SAT           sat-parse, sat-clauses, sat-evaluate, sat-solve, info, free    (mex_sat.c)
 *   knapsack,     knapsack-file, knapsack-arrays, knapsack-generate, knapsack-data,
 *   QIGA          knapsack-optimum, knapsack-evaluate, qiga-run, info, free     (mex_qiga.c)
 *   shortest      graph-create, graph-edges, graph-file, graph-thesis, graph-grid,
 *   paths         graph-data, sssp, aco, info, free                             (mex_sp.c)
 *   AWVD          awvd (balls n x 4 or a PDB/mmCIF/balls path, [opts])          (mex_awvd.c)
 *   batched DE    bde-create (problems struct array, [opts]), bde-run (instance or
 *                 problems, [opts]), info, free                                 (mex_bde.c)
 *   basin         bh-create (objective, bounds, [opts]), bh-solve (instance, [opts]),
 *   hopping       bh-save-state, bh-polish (objective, bounds, x, [opts]), info,
 *                 free                                                          (mex_bh.c)
 *   shared        live (the live instances), options (option names: the alias table of
 *                 mex_args.c)
 *   island DE     de-params (islands, members, dims, limits, bounds, [opts]), de-init
 *   (5.2.1)       (instance, objective, [mutation, migration, period]), de-iteration, de-run
 *                 (instance, generations, [stop conditions]), de-bests, de-best, de-x,
 *                 de-func-data, info, free                                        (mex_de.c)
 *
 * `params` makes a QAP instance when it has a fourth argument (DF) that cannot be HC12's
 * maskOrder (a scalar or []) or a third that cannot be HC12's dodParam (2 or 2*nParam values),
 * else a general HC12 instance; with options (`params:noR`) always HC12. The modes that take an
 * instance dispatch on the instance's kind.
 *
 * Instances are uint8 arrays checked on every use, one mechanism for every kind
 * (mex_handles.c): a forged, edited, freed or foreign array is a clear error, never a crash,
 * and clearing the MEX function (or leaving MATLAB) frees every instance still live.
 *
 * m-function objectives (mex_objective.c): the library calls mex_objective from inside its own
 * (Rust) frames, which no MATLAB/Octave exception may cross, so the callback's MATLAB work runs
 * inside metaopt_mex_protect (mex_trap.cpp), and the objective's error, an exception, or the
 * user's Ctrl-C (`metaopt:interrupted`) is raised once the library call has returned. While
 * such a call runs its instance is busy (call_begin / call_end): the objective may call
 * metaopt_mex, but any use of that instance is `metaopt:busy`, and the MEX file stays locked.
 *
 * Ctrl-C during a long library call (mex_cancel.c): a call without an m-function objective runs
 * in a worker thread while the MEX thread polls for Ctrl-C and requests the call's stop token;
 * the call returns its best so far and the mode raises `metaopt:interrupted`.
 *
 * Adding a solver: a KIND_ value (mex_internal.h); a file of its own with its state struct,
 * its EntryKind (the state's size, release and info) and its modes, declared in
 * mex_internal.h; the EntryKind in mex_kinds and the modes in MODES (below, with their most
 * outputs and arguments); call_begin / call_end around its library calls that may call an
 * m-function; run_cancellable and a stop token for its long calls (mex_cancel.c); and its branch in mode_run / mode_set_tabu_list where they apply. The build
 * scripts (build_octave.m, build_matlab.m) compile every source of this folder.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mex_internal.h"

/* ---------------------------------------------------------------------------------------- */
/* modes shared by the solvers (they dispatch on their arguments or the instance's kind)    */

const char PARAMS_FORMS[] = " (QAP: 'params', swaps, nElements, nBitParam, DF, [nSlices, maskOrder, startBit, "
                            "bitLength]; general HC12: 'params', nParam, nBitParam, dodParam, [maskOrder, "
                            "startBit, bitLength])";

/* 'params': the QAP form (qap_params, mex_qap.c) or the general HC12 form (hc12_params,
 * mex_hc12.c) */
static void mode_params(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs;
    /* QAP (no options; a 4th argument, DF, of n x n >= 4 values) or HC12 (a 3rd, dodParam, of 2
     * or more values; a 4th, maskOrder, a scalar or []) */
    const mxArray *a4 = nrhs >= 5 ? prhs[4] : NULL;
    if (options[0] || !a4) {
        hc12_params(plhs, nrhs, prhs, options);
    } else if ((!mxIsNumeric(a4) && !mxIsLogical(a4)) || mxGetNumberOfElements(a4) > 1) {
        qap_params(plhs, nrhs, prhs);
    } else if (mxGetNumberOfElements(prhs[3]) >= 2) {
        hc12_params(plhs, nrhs, prhs, options);
    } else {
        char df[96];
        snprintf(df, sizeof df, "%s", array_kind(a4));
        fail("badArgument",
             "neither form fits: DF (the 4th argument of the QAP form) must be an nElements x nElements "
             "[x nSlices] array, got %s; dodParam (the 3rd of the general HC12 form) must be [a b] or an "
             "nParam x 2 matrix, got %s%s",
             df, array_kind(prhs[3]), PARAMS_FORMS);
    }
}

/* 'run': qap_run (mex_qap.c) or hc12_run (mex_hc12.c) by the instance's kind */
static void mode_run(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), NULL);
    if (e->kind == &kind_qap) {
        if (options && *options)
            fail("badOption", "QAP run takes no options (':%s'); its tabu list is set by 'set-tabu-list'", options);
        qap_run(e, nlhs, plhs, nrhs, prhs);
    } else if (e->kind == &kind_hc12) {
        hc12_run(e, nlhs, plhs, nrhs, prhs, options);
    } else if (e->kind == &kind_de) {
        fail("wrongKind", "'run' needs a QAP or general HC12 instance; a %s instance runs with 'de-run'", e->kind->name);
    } else {
        fail("wrongKind", "'run' needs a QAP or general HC12 instance; a %s instance is solved by 'sat-solve'", e->kind->name);
    }
}

/* 'set-tabu-list', instance, maxLength */
static void mode_set_tabu_list(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)plhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), NULL);
    uint32_t len = (uint32_t)int_scalar(arg(nrhs, prhs, 2, "maxLength"), "maxLength", 0, TABU_MAX_LENGTH);
    if (e->kind == &kind_qap)
        qap_set_tabu_list(e, len);
    else if (e->kind == &kind_hc12)
        hc12_set_tabu_list(e, len);
    else
        fail("wrongKind", "a %s instance has no tabu list of this kind", e->kind->name);
}

static void mode_info(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), NULL);
    plhs[0] = e->kind->info(e);
}

static void mode_free(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)plhs, (void)options;
    entry_free(entry_get(arg(nrhs, prhs, 1, "instance"), NULL));
}

/* 'live' -> struct: the number of live instances, total and per kind (qap, hc12, sat, de, knapsack, bde, graph, bh) */
static void mode_live(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)nrhs, (void)prhs, (void)options;
    mxArray *s = empty_struct();
    set_num(s, "total", entry_live_count(NULL));
    set_num(s, "qap", entry_live_count(&kind_qap));
    set_num(s, "hc12", entry_live_count(&kind_hc12));
    set_num(s, "sat", entry_live_count(&kind_sat));
    set_num(s, "de", entry_live_count(&kind_de));
    set_num(s, "knapsack", entry_live_count(&kind_knapsack));
    set_num(s, "bde", entry_live_count(&kind_bde));
    set_num(s, "graph", entry_live_count(&kind_graph));
    set_num(s, "bh", entry_live_count(&kind_bh));
    plhs[0] = s;
}

/* 'options', a struct or name/value pairs -> the struct under the options' lowerCamelCase
 * names (the alias table, mex_args.c): the .m wrappers and the classes of +metaopt read their
 * own options through it, so that one table serves every front end of this folder */
static void mode_options(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    if (nrhs == 2 && mxIsStruct(prhs[1])) {
        if (mxGetNumberOfElements(prhs[1]) != 1)
            fail("badArgument", "opts must be a 1x1 struct");
        plhs[0] = canonical_options(prhs[1], "opts", NULL);
        return;
    }
    if (nrhs == 2 && mxIsEmpty(prhs[1])) {
        plhs[0] = empty_struct();
        return;
    }
    if ((nrhs - 1) % 2 != 0)
        fail("badArgument", "options must be a struct or name/value pairs, got %d arguments", nrhs - 1);
    mxArray *s = empty_struct();
    for (int i = 1; i < nrhs; i += 2) {
        char what[32], name[64];
        snprintf(what, sizeof what, "option name %d", (i + 1) / 2);
        char *given_name = string_arg(prhs[i], what);
        canonical_option(given_name, name, sizeof name);
        if (!name[0] || mxGetFieldNumber(s, name) >= 0)
            fail("badOption", name[0] ? "option '%s' is given twice (as %s or an alias of it)" : "an empty option name%s",
                 given_name, name);
        int k = mxAddField(s, name);
        if (k < 0)
            fail("badOption", "'%s' is not a valid option name", given_name);
        mxSetFieldByNumber(s, 0, k, mxDuplicateArray(prhs[i + 1]));
    }
    plhs[0] = s;
}

/* ---------------------------------------------------------------------------------------- */
/* the kinds of instance and the modes                                                      */

/* Every kind of instance (mex_handles.c names a kind by its number through this list). */
const EntryKind *const mex_kinds[] = {&kind_qap, &kind_hc12, &kind_sat, &kind_de, &kind_knapsack, &kind_bde, &kind_graph, &kind_bh, NULL};

static const struct {
    const char *name;
    ModeFn fn;
    int outputs;       /* most outputs */
    int args;          /* most arguments after the mode; -1: the mode checks them */
    const char *usage; /* its arguments, for the message when there are too many */
} MODES[] = {
    {"get-device", mode_get_device, 1, 0, NULL},
    {"set-device", mode_set_device, 1, 1, "deviceNumber"},
    {"devices", mode_devices, 1, 0, NULL},
    {"mem-space-valid", mode_mem_space_valid, 1, 0, NULL},
    {"params", mode_params, 1, -1, NULL},
    {"params-file", mode_params_file, 1, 5, "path, swaps, maskOrder, startBit, bitLength"},
    {"set-tabu-list", mode_set_tabu_list, 0, 2, "instance, maxLength"},
    {"run", mode_run, 4, -1, NULL},
    {"solve", mode_solve, 1, 2, "instance, opts"},
    {"qap-ts-solve", mode_qap_ts_solve, 1, 2, "instance, opts"},
    {"qap-ts-save-state", mode_qap_ts_save_state, 1, 1, "instance"},
    {"qap-save-state", mode_qap_save_state, 1, 1, "instance"},
    {"func-data", mode_func_data, 0, 3, "instance, funcName, data"},
    {"func-data-clean", mode_func_data_clean, 0, 2, "instance, funcName"},
    {"kernel-verbose", mode_kernel_verbose, 0, 2, "instance, verbose"},
    {"profiler-on", mode_profiler_on, 0, 1, "instance"},
    {"profiler-output", mode_profiler_output, 1, 1, "instance"},
    {"hc12-save-state", mode_hc12_save_state, 1, 1, "instance"},
    {"info", mode_info, 1, 1, "instance"},
    {"free", mode_free, 0, 1, "instance"},
    {"live", mode_live, 1, 0, NULL},
    {"options", mode_options, 1, -1, NULL},
    {"interrupt", mode_interrupt, 0, 0, NULL},
    {"sat-parse", mode_sat_parse, 1, 1, "path"},
    {"sat-clauses", mode_sat_clauses, 1, 2, "numVars, clauses"},
    {"sat-evaluate", mode_sat_evaluate, 1, 3, "instance, assignments, useCpu"},
    {"sat-solve", mode_sat_solve, 1, 2, "instance, opts"},
    {"knapsack-file", mode_knapsack_file, 1, 1, "path"},
    {"knapsack-arrays", mode_knapsack_arrays, 1, 3, "weights, profits, capacity"},
    {"knapsack-generate", mode_knapsack_generate, 1, 4, "kind, items, range, seed"},
    {"knapsack-data", mode_knapsack_data, 1, 1, "instance"},
    {"knapsack-optimum", mode_knapsack_optimum, 1, 1, "instance"},
    {"knapsack-evaluate", mode_knapsack_evaluate, 1, 2, "instance, bits"},
    {"qiga-run", mode_qiga_run, 1, 2, "instance, opts"},
    {"graph-create", mode_graph_create, 1, 1, "A"},
    {"graph-edges", mode_graph_edges, 1, 4, "n, s, t, w"},
    {"graph-file", mode_graph_file, 1, 2, "path, format"},
    {"graph-thesis", mode_graph_thesis, 1, 3, "i, j, seed"},
    {"graph-grid", mode_graph_grid, 1, 5, "width, height, maxWeight, obstacles, seed"},
    {"graph-data", mode_graph_data, 1, 1, "graph"},
    {"sssp", mode_sssp, 3, 3, "graph, sources, opts"},
    {"aco", mode_aco, 1, 4, "graph, source, target, opts"},
    {"awvd", mode_awvd, 1, 2, "balls or path, opts"},
    {"bde-create", mode_bde_create, 1, 2, "problems, opts"},
    {"bde-run", mode_bde_run, 1, 2, "instance or problems, opts"},
    {"bh-create", mode_bh_create, 1, 3, "objective, bounds, opts"},
    {"bh-solve", mode_bh_solve, 1, 2, "instance, opts"},
    {"bh-save-state", mode_bh_save_state, 1, 1, "instance"},
    {"bh-polish", mode_bh_polish, 1, 4, "objective, bounds, x, opts"},
    {"de-params", mode_de_params, 1, 6, "islands, members, dims, limits, bounds, opts"},
    {"de-init", mode_de_init, 0, 6, "instance, objective, mutation, migration, period, opts"},
    {"de-iteration", mode_de_iteration, 1, 1, "instance"},
    {"de-run", mode_de_run, 10, -1, NULL},
    {"de-bests", mode_de_bests, 1, 1, "instance"},
    {"de-best", mode_de_best, 1, 2, "instance, island"},
    {"de-x", mode_de_x, 1, 3, "instance, island, member"},
    {"de-func-data", mode_de_func_data, 0, 2, "instance, data"},
    {"evaluate", mode_evaluate, 1, 4, "X, name, useCpu, precision"},
};

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    /* the mode string lives in this call's frame: a nested call (from an m-function objective)
     * has its own, and the outer call's is put back when the objective returns */
    char mode[256];
    register_at_exit();
    g_mode = "";
    if (nrhs < 1 || !mxIsChar(prhs[0]))
        mexErrMsgIdAndTxt("metaopt:usage", "metaopt_mex(mode, ...): the first argument must be a mode string such as "
                                           "'get-device', 'params', 'run', 'free' (see matlab/README.md)");
    if (mxGetString(prhs[0], mode, sizeof mode) != 0)
        mexErrMsgIdAndTxt("metaopt:usage", "metaopt_mex: the mode string is too long");
    if (nul_at(prhs[0]))
        mexErrMsgIdAndTxt("metaopt:usage", "metaopt_mex: the mode string holds a NUL character");
    g_mode = mode;
    char *colon = strchr(mode, ':');
    const char *options = "";
    char base[256];
    snprintf(base, sizeof base, "%s", mode);
    if (colon) {
        base[colon - mode] = '\0';
        options = colon + 1;
    }
    for (size_t i = 0; i < sizeof MODES / sizeof MODES[0]; ++i) {
        if (strcmp(base, MODES[i].name) != 0)
            continue;
        if (colon && strcmp(base, "run") != 0 && strcmp(base, "params") != 0)
            fail("badOption", "'%s' takes no options", base);
        if (MODES[i].outputs == 0 && nlhs > 0)
            fail("badArgument", "'%s' returns nothing: call it without an output", base);
        if (nlhs > MODES[i].outputs)
            fail("tooManyOutputs", "'%s' returns at most %d output%s", base, MODES[i].outputs,
                 MODES[i].outputs == 1 ? "" : "s");
        if (MODES[i].args >= 0 && nrhs - 1 > MODES[i].args) {
            if (MODES[i].args == 0)
                fail("tooManyArguments", "'%s' takes no arguments after the mode, got %d", base, nrhs - 1);
            fail("tooManyArguments", "'%s' takes at most %d argument%s after the mode (%s), got %d", base,
                 MODES[i].args, MODES[i].args == 1 ? "" : "s", MODES[i].usage, nrhs - 1);
        }
        MODES[i].fn(nlhs, plhs, nrhs, prhs, options);
        return;
    }
    fail("unknownMode", "unknown mode '%s'", base);
}
