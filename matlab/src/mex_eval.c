/*
 * mex_eval.c: the 'evaluate' mode of the metaopt MEX gateway: a catalogue function by name at
 * the rows of a matrix (metaopt_function_evaluate), the thesis's geatbx_cec_bundle(X, 'CEC05t').
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "mex_internal.h"

/* 'evaluate', X (rows x D, real), name, useCpu (default false), precision ('auto', 'single' or
 * 'double'; default 'auto') -> rows x 1 double values. X is read row by row (MATLAB stores it
 * column by column). Non-finite entries are refused here, naming X(i,j); an unknown name or a
 * D the function lacks come back as the library's error. */
void mode_evaluate(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    const mxArray *x = arg(nrhs, prhs, 1, "X");
    char *name = string_arg(arg(nrhs, prhs, 2, "name"), "name");
    int cpu = given(nrhs, prhs, 3) ? flag_arg(prhs[3], "useCpu") : 0;
    int32_t precision = METAOPT_PRECISION_AUTO;
    if (given(nrhs, prhs, 4)) {
        char *p = string_arg(prhs[4], "precision");
        if (strcmp(p, "single") == 0)
            precision = METAOPT_PRECISION_SINGLE;
        else if (strcmp(p, "double") == 0)
            precision = METAOPT_PRECISION_DOUBLE;
        else if (strcmp(p, "auto") != 0)
            fail("badArgument", "precision must be 'auto', 'single' or 'double', got '%s'", p);
    }
    check_real_numeric(x, "X", "a rows x D real matrix (one point per row)");
    if (mxGetNumberOfDimensions(x) != 2 || mxGetM(x) == 0 || mxGetN(x) == 0)
        fail("badArgument", "X must be a rows x D real matrix with at least one row and one column, got %s", array_kind(x));
    size_t rows = mxGetM(x), dims = mxGetN(x);
    if (rows > UINT32_MAX || dims > UINT32_MAX)
        fail("badArgument", "X has %zu x %zu entries; at most 2^32 - 1 rows and columns", rows, dims);
    double *rowwise = mxMalloc(rows * dims * sizeof *rowwise);
    for (size_t r = 0; r < rows; ++r)
        for (size_t j = 0; j < dims; ++j) {
            double v = elem(x, r + j * rows);
            if (!isfinite(v))
                fail("badArgument", "X(%zu,%zu) is %g; expected finite coordinates", r + 1, j + 1, v);
            rowwise[r * dims + j] = v;
        }
    MetaoptDoubleArrayResult res =
        metaopt_function_evaluate(name, rowwise, (uint32_t)rows, (uint32_t)dims, cpu ? METAOPT_BACKEND_CPU : METAOPT_BACKEND_DEVICE, precision);
    mxFree(rowwise);
    CHECK_RESULT(NULL, "metaopt_function_evaluate", res, metaopt_double_array_free_result);
    plhs[0] = mxCreateDoubleMatrix(res.length, 1, mxREAL);
    if (res.length)
        memcpy(mxGetData(plhs[0]), res.values, res.length * sizeof(double));
    metaopt_double_array_free_result(&res);
}
