/*
 * mex_awvd.c: the `awvd` mode of the metaopt MEX gateway: the additively weighted Voronoi
 * diagram of balls (metaopt_awvd_*, docs/specs/AWVD.md) from an n x 4 matrix [x y z r] or a
 * PDB / mmCIF / balls file, made, copied out and freed in one call (no instance is kept).
 */

#include <string.h>

#include "mex_internal.h"

/* A V x 4 double matrix of `v` (4 values per row, row-major), plus `add` (1-based numbers). */
static mxArray *rows4_u32(const uint32_t *v, size_t rows, double add) {
    mxArray *a = mxCreateDoubleMatrix(rows, 4, mxREAL);
    double *d = mxGetData(a);
    for (size_t i = 0; i < rows; ++i)
        for (size_t k = 0; k < 4; ++k)
            d[i + k * rows] = v[4 * i + k] + add;
    return a;
}

/* One metaopt_awvd_from_file or metaopt_awvd_build (run_cancellable's body: no mx call). */
typedef struct {
    const char *path;
    uint32_t flags;
    const double *c;
    uint32_t n;
    const MetaoptAwvdOptions *o;
    MetaoptAwvdResult r;
} AwvdCall;

static void awvd_body(void *arg) {
    AwvdCall *a = arg;
    if (a->path)
        a->r = metaopt_awvd_from_file(a->path, a->flags, a->o);
    else
        a->r = metaopt_awvd_build(a->c, a->c + a->n, a->c + 2 * (size_t)a->n, a->c + 3 * (size_t)a->n, a->n, a->o);
}

/* 'awvd', balls ([x y z r] rows) or path, [opts: cpu, device (0-based number), double, cell,
 * suspectBound, hetatm, hydrogens, allModels, timeLimit] -> struct quadruples (V x 4, 1-based balls),
 * which (V x 1, 0 or 1), spheres (V x 4: x y z r), edges (V x 4, 1-based neighbour vertices, 0
 * where the edge is unbounded), contacts (C x 2, 1-based ball pairs), vertices, searches,
 * doubleRechecks, floatReplaced, restarts, elapsed, backend, text (Voronota's vertices format,
 * 0-based balls as Voronota prints them). Exact: past timeLimit the error metaopt:timeLimit, after
 * Ctrl-C metaopt:interrupted, with no result. */
void mode_awvd(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    const mxArray *in = arg(nrhs, prhs, 1, "balls");
    static const char *known[] = {"cpu",       "device",    "double",    "cell", "suspectBound",
                                  "hetatm",    "hydrogens", "allModels", "timeLimit", NULL};
    const mxArray *s = options_struct(nrhs, prhs, 2, known), *v;
    MetaoptAwvdOptions o = metaopt_awvd_default_options();
    uint32_t flags = 0;
    if ((v = opt(s, "cpu")))
        o.backend = flag_arg(v, "opts.cpu") ? METAOPT_BACKEND_CPU : METAOPT_BACKEND_DEVICE;
    if ((v = opt(s, "device")))
        o.device = (int32_t)int_scalar(v, "opts.device", 0, 2147483647.0);
    if ((v = opt(s, "double")))
        o.double_precision = (uint8_t)flag_arg(v, "opts.double");
    if ((v = opt(s, "cell")))
        o.cell = real_scalar(v, "opts.cell");
    if ((v = opt(s, "suspectBound")))
        o.suspect_bound = real_scalar(v, "opts.suspectBound");
    if ((v = opt(s, "hetatm")) && flag_arg(v, "opts.hetatm"))
        flags |= METAOPT_AWVD_HETATM;
    if ((v = opt(s, "hydrogens")) && flag_arg(v, "opts.hydrogens"))
        flags |= METAOPT_AWVD_HYDROGENS;
    if ((v = opt(s, "allModels")) && flag_arg(v, "opts.allModels"))
        flags |= METAOPT_AWVD_ALL_MODELS;
    if ((v = opt(s, "timeLimit")))
        o.time_limit_s = real_scalar(v, "opts.timeLimit");
    AwvdCall call = {.flags = flags, .o = &o};
    char *path = NULL;
    double *c = NULL;
    if (mxIsChar(in)) {
        path = string_arg(in, "balls (a path)");
        call.path = path;
    } else {
        check_real_numeric(in, "balls", "an n x 4 matrix [x y z r] or a file name");
        size_t n = mxGetM(in);
        if (mxGetN(in) != 4 || mxGetNumberOfDimensions(in) != 2)
            fail("badArgument", "balls must be an n x 4 matrix [x y z r], got %s", array_kind(in));
        if (n == 0 || n > 4294967295.0)
            fail("badArgument", "balls must hold at least one row");
        c = mxMalloc(4 * n * sizeof(double));
        for (size_t i = 0; i < 4 * n; ++i)
            c[i] = elem(in, i); /* column-major: x column, y, z, r */
        call.c = c;
        call.n = (uint32_t)n;
    }
    MetaoptStopToken *token = cancel_token();
    o.stop_token = token;
    int user = run_cancellable(0, awvd_body, &call, token);
    metaopt_stop_token_free(token);
    mxFree(path);
    mxFree(c);
    MetaoptAwvdResult r = call.r;
    if (user) {
        if (r.awvd)
            metaopt_awvd_free(r.awvd);
        r.awvd = NULL;
        metaopt_awvd_free_result(&r);
        fail_interrupted("none (the diagram gives no partial result)");
    }
    CHECK_RESULT(NULL, "metaopt_awvd_build", r, metaopt_awvd_free_result);
    MetaoptAwvd *h = r.awvd;
    MetaoptAwvdVertices vx = metaopt_awvd_vertices(h);
    MetaoptAwvdEdges ed = metaopt_awvd_edges(h);
    MetaoptAwvdContacts ct = metaopt_awvd_contacts(h);
    MetaoptStringResult tx = metaopt_awvd_vertices_text(h);
    metaopt_awvd_free(h);
    r.awvd = NULL;
    if (vx.error_code != METAOPT_OK || ed.error_code != METAOPT_OK || ct.error_code != METAOPT_OK || tx.error_code != METAOPT_OK) {
        metaopt_awvd_free_vertices(&vx);
        metaopt_awvd_free_edges(&ed);
        metaopt_awvd_free_contacts(&ct);
        metaopt_pointer_free(tx.text);
        metaopt_pointer_free(tx.error_message);
        metaopt_awvd_free_result(&r);
        fail("library", "copying the diagram out failed");
    }
    size_t nv = (size_t)vx.n, nc = (size_t)ct.n;
    mxArray *out = empty_struct();
    set_field(out, "quadruples", rows4_u32(vx.quadruples, nv, 1.0));
    mxArray *which = mxCreateDoubleMatrix(nv, 1, mxREAL), *sp = mxCreateDoubleMatrix(nv, 4, mxREAL);
    mxArray *edges = mxCreateDoubleMatrix(nv, 4, mxREAL), *con = mxCreateDoubleMatrix(nc, 2, mxREAL);
    for (size_t i = 0; i < nv; ++i) {
        ((double *)mxGetData(which))[i] = vx.which[i];
        for (size_t k = 0; k < 4; ++k) {
            ((double *)mxGetData(sp))[i + k * nv] = vx.spheres[4 * i + k];
            ((double *)mxGetData(edges))[i + k * nv] = (double)ed.neighbours[4 * i + k] + 1.0;
        }
    }
    for (size_t i = 0; i < nc; ++i)
        for (size_t k = 0; k < 2; ++k)
            ((double *)mxGetData(con))[i + k * nc] = ct.pairs[2 * i + k] + 1.0;
    set_field(out, "which", which);
    set_field(out, "spheres", sp);
    set_field(out, "edges", edges);
    set_field(out, "contacts", con);
    set_num(out, "vertices", (double)r.vertices);
    set_num(out, "searches", (double)r.searches);
    set_num(out, "doubleRechecks", (double)r.double_rechecks);
    set_num(out, "floatReplaced", (double)r.float_replaced);
    set_num(out, "restarts", (double)r.restarts);
    set_num(out, "elapsed", r.elapsed_s);
    set_field(out, "backend", mxCreateString(r.backend ? r.backend : ""));
    set_field(out, "text", mxCreateString(tx.text ? tx.text : ""));
    metaopt_pointer_free(tx.text);
    metaopt_awvd_free_vertices(&vx);
    metaopt_awvd_free_edges(&ed);
    metaopt_awvd_free_contacts(&ct);
    metaopt_awvd_free_result(&r);
    plhs[0] = out;
}
