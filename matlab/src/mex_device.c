/*
 * mex_device.c: the device modes of the metaopt MEX gateway: get-device, set-device, devices,
 * mem-space-valid (the OpenCL device the library uses); the precision request of HC12 and DE.
 */
#include <stdint.h>
#include <string.h>

#include "mex_internal.h"

void mode_get_device(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)nrhs, (void)prhs, (void)options;
    plhs[0] = mxCreateDoubleScalar(check_int("metaopt_device_get_number", metaopt_device_get_number()));
}

void mode_set_device(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    int32_t n = (int32_t)int_scalar(arg(nrhs, prhs, 1, "deviceNumber"), "deviceNumber", 0, 2147483647.0);
    plhs[0] = mxCreateDoubleScalar(check_int("metaopt_device_set_number", metaopt_device_set_number(n)));
}

void mode_devices(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)nrhs, (void)prhs, (void)options;
    int32_t count = check_int("metaopt_device_count", metaopt_device_count());
    static const char *fields[] = {"index", "kind", "platform", "name", "vendor", "version", "globalMemBytes",
                                   "computeUnits", "maxWorkGroupSize", "fp64"};
    static const char *kinds[] = {"gpu", "accelerator", "cpu", "other"};
    mxArray *s = mxCreateStructMatrix(1, (size_t)count, 10, fields);
    for (int32_t i = 0; i < count; ++i) {
        MetaoptDeviceInfo d;
        memset(&d, 0, sizeof d);
        MetaoptInt32Result r = metaopt_device_info(i, &d);
        if (r.error_code != METAOPT_OK) {
            metaopt_device_free_info(&d);
            fail_library("metaopt_device_info", r.error_code, r.error_message);
        }
        mxSetField(s, i, "index", mxCreateDoubleScalar(d.index));
        mxSetField(s, i, "kind", mxCreateString(d.kind >= 0 && d.kind <= 3 ? kinds[d.kind] : "other"));
        mxSetField(s, i, "platform", mxCreateString(d.platform ? d.platform : ""));
        mxSetField(s, i, "name", mxCreateString(d.name ? d.name : ""));
        mxSetField(s, i, "vendor", mxCreateString(d.vendor ? d.vendor : ""));
        mxSetField(s, i, "version", mxCreateString(d.version ? d.version : ""));
        mxSetField(s, i, "globalMemBytes", mxCreateDoubleScalar((double)d.global_mem_bytes));
        mxSetField(s, i, "computeUnits", mxCreateDoubleScalar(d.compute_units));
        mxSetField(s, i, "maxWorkGroupSize", mxCreateDoubleScalar(d.max_work_group_size));
        mxSetField(s, i, "fp64", mxCreateLogicalScalar(d.fp64 != 0));
        metaopt_device_free_info(&d);
    }
    plhs[0] = s;
}

void mode_mem_space_valid(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)nrhs, (void)prhs, (void)options;
    plhs[0] = mxCreateLogicalScalar(metaopt_device_is_mem_space_valid() != 0);
}

/* ---------------------------------------------------------------------------------------- */
/* precision: the library's choice (double wherever the device has it) unless one is asked for */

int precision_arg(const mxArray *v, const char *name) {
    char *p = string_arg(v, name);
    if (strcmp(p, "double") == 0)
        return PRECISION_DOUBLE;
    if (strcmp(p, "single") == 0)
        return PRECISION_SINGLE;
    fail("badArgument", "%s must be 'single' or 'double', got '%s'", name, p);
    return PRECISION_AUTO;
}

/* The library resolves METAOPT_PRECISION_AUTO when it makes the instance, on the device it runs
 * on (double where that has cl_khr_fp64, and on the CPU backend), and reports the precision it
 * used in every run result: the gateway no longer guesses from the device's fp64 flag. */
int32_t resolve_precision(int requested) {
    if (requested == PRECISION_DOUBLE)
        return METAOPT_PRECISION_DOUBLE;
    if (requested == PRECISION_SINGLE)
        return METAOPT_PRECISION_SINGLE;
    return METAOPT_PRECISION_AUTO;
}

const char *precision_name(int32_t precision) {
    return precision == METAOPT_PRECISION_DOUBLE ? "double" : precision == METAOPT_PRECISION_SINGLE ? "single" : "unknown";
}
