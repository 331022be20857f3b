/*
 * A caller written against the names of earlier releases (metaopt_params_from_file, metaopt_run,
 * RunResult, metaopt_free_run_result, ...) and the thesis's (params, run, free_params,
 * get_cuda_device_number, opt-in with METAOPT_THESIS_NAMES): it must compile against the current
 * header through its compatibility aliases and behave as before. Usage: old_names <file.dat>.
 */
#define METAOPT_THESIS_NAMES
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "metaopt.h"

static int failed(const char *what, int32_t code, char *message) {
    if (code == METAOPT_OK) {
        return 0;
    }
    fprintf(stderr, "%s: error %d: %s\n", what, (int)code, message ? message : "(no message)");
    metaopt_free_pointer(message);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s <file.dat>\n", argv[0]);
        return 2;
    }
    Int32Result dev = metaopt_get_device_number();
    if (failed("metaopt_get_device_number", dev.error_code, dev.error_message)) return 1;
    Int32Result set = metaopt_set_device_number(dev.result);
    if (failed("metaopt_set_device_number", set.error_code, set.error_message)) return 1;
    Int32Result thesis_dev = get_cuda_device_number();
    if (failed("get_cuda_device_number", thesis_dev.error_code, thesis_dev.error_message)) return 1;
    printf("device %d, memory space valid %d\n", (int)thesis_dev.result, (int)metaopt_is_mem_space_valid());
    MetaoptDeviceInfo info;
    Int32Result di = metaopt_device_info(dev.result, &info);
    if (failed("metaopt_device_info", di.error_code, di.error_message)) return 1;
    metaopt_free_device_info(&info);

    /* QAP through the old metaopt_ names */
    ParamsResult p = metaopt_params_from_file(argv[1], 3, 2, 0, 0);
    if (failed("metaopt_params_from_file", p.error_code, p.error_message)) return 1;
    ParamsInstance *h = p.instance;
    MetaoptParamsInfo pi;
    Int32Result r = metaopt_params_info(h, &pi);
    if (failed("metaopt_params_info", r.error_code, r.error_message)) return 1;
    printf("instance: n = %u, k = %u\n", pi.n_elements, pi.k_length);
    r = metaopt_set_max_iterations(h, 1000);
    if (failed("metaopt_set_max_iterations", r.error_code, r.error_message)) return 1;
    r = metaopt_init_tabu_list(h, 8);
    if (failed("metaopt_init_tabu_list", r.error_code, r.error_message)) return 1;
    MetaoptTabuOptions to = metaopt_default_tabu_options();
    to.max_iterations = 20;
    to.max_no_improve = 5;
    r = metaopt_set_tabu_options(h, &to);
    if (failed("metaopt_set_tabu_options", r.error_code, r.error_message)) return 1;
    r = metaopt_init_tabu_list(h, 0);
    if (failed("metaopt_init_tabu_list(0)", r.error_code, r.error_message)) return 1;
    MetaoptCostForm form = METAOPT_COST_DELTA;
    r = metaopt_set_backend(h, 0, form);
    if (failed("metaopt_set_backend", r.error_code, r.error_message)) return 1;
    RunResult rr = metaopt_run(h, NULL, NULL);
    if (failed("metaopt_run", rr.error_code, rr.error_message)) return 1;
    MetaoptResultType type = METAOPT_RESULT_INT64;
    printf("run: result type %d (int64: %d), cost %" PRId64 ", %u entries\n", (int)rr.result_type,
           rr.result_type == (int32_t)type, rr.f_t1, (unsigned)rr.orderLength);
    metaopt_free_run_result(&rr);
    metaopt_free_run_result(&rr); /* a second free is harmless */
    MetaoptSolveOptions so = metaopt_default_solve_options();
    so.runs = 2;
    MetaoptStart start = METAOPT_START_IDENTITY;
    MetaoptRestart restart = METAOPT_RESTART_RANDOM;
    so.start = start;
    so.restart = restart;
    MetaoptSolveResult sr = metaopt_solve(h, &so);
    if (failed("metaopt_solve", sr.error_code, sr.error_message)) return 1;
    printf("solve: cost %" PRId64 " after %u runs\n", sr.f_t1, sr.runs);
    metaopt_free_solve_result(&sr);
    metaopt_free_params(h);
    RunResult freed = metaopt_run(h, NULL, NULL);
    printf("run after free: error %d\n", (int)freed.error_code);
    metaopt_free_run_result(&freed);

    /* QAP through the thesis's names: a 3 x 3 DF (flows below the diagonal, distances above) */
    const int32_t df[9] = {0, 2, 3, 1, 0, 4, 5, 6, 0};
    ParamsResult tp = params(1, 3, 1, df, "int32", 1, 0, 0);
    if (failed("params", tp.error_code, tp.error_message)) return 1;
    Int32Result tt = init_tabu_list(tp.instance, 4);
    if (failed("init_tabu_list", tt.error_code, tt.error_message)) return 1;
    RunResult tr = run(tp.instance, NULL, NULL);
    if (failed("run", tr.error_code, tr.error_message)) return 1;
    printf("thesis run: cost %" PRId64 "\n", tr.f_t1);
    metaopt_free_run_result(&tr);
    free_params(tp.instance);

    /* the other solvers' old type and function names: errors without a device */
    Hc12ParamsResult hp = metaopt_hc12_params(0, NULL, 0, NULL, 0, 1, 0, 0, 2, 0, NULL);
    Hc12Instance *hh = hp.instance;
    printf("hc12 params: error %d\n", (int)hp.error_code);
    metaopt_free_pointer(hp.error_message);
    MetaoptHc12Result hr = metaopt_hc12_run(hh, NULL);
    printf("hc12 run: error %d\n", (int)hr.error_code);
    metaopt_hc12_free_result(&hr);
    DeCreateResult dc = metaopt_de_create(1, 3, 1, NULL, 0, NULL, NULL);
    DeInstance *dh = dc.instance;
    printf("de create: error %d\n", (int)dc.error_code);
    metaopt_free_pointer(dc.error_message);
    MetaoptDeResult dr = metaopt_de_run(dh, NULL);
    printf("de run: error %d\n", (int)dr.error_code);
    metaopt_de_free_result(&dr);
    MetaoptDoubleArrayResult da = metaopt_de_bests_fitness(dh);
    printf("de bests: error %d\n", (int)da.error_code);
    metaopt_free_double_array(&da);
    const int32_t lits[6] = {1, -2, 0, 2, 0, 0};
    SatParseResult sp = metaopt_sat_from_clauses(2, lits, 5);
    if (failed("metaopt_sat_from_clauses", sp.error_code, sp.error_message)) return 1;
    SatInstance *sh = sp.instance;
    printf("sat: %u variables, %u clauses\n", sp.num_vars, sp.num_clauses);
    metaopt_sat_free(sh);
    Int32Result reset = metaopt_reset_device();
    if (failed("metaopt_reset_device", reset.error_code, reset.error_message)) return 1;
    return 0;
}
