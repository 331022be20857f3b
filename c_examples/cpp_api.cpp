/*
 * The C++ API of include/metaopt.hpp (the thesis's classes over the C ABI), checked against known
 * optima:
 *   1. QAP HC12 with Params, ParamsInstance and ParamsInstanceDF on a 7-facility instance whose
 *      optimum is found here by enumerating all 5040 permutations;
 *   2. general HC12 on the catalogue's sphere F1 (optimum 0 at 0) and on a host functor;
 *   3. DEMultiPop with a host functor (the sphere, double) and with a device OpenCL source (a
 *      shifted sphere, optimum 0 at (1, ..., 1), float);
 *   4. errors: each bad argument throws metaopt::Error with the expected code, a host functor's
 *      exception comes back as itself, and the objects stay usable.
 *
 *   cargo build --release && make -C c_examples && c_examples/cpp_api
 *
 * Prints what it checks and "all checks passed"; exit status 0 on success, 1 when a check fails
 * or an unexpected exception escapes.
 */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <numeric>
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "metaopt.hpp"

static int failures = 0;

static void check(bool ok, const std::string &what) {
    std::cout << (ok ? "ok: " : "FAILED: ") << what << '\n';
    if (!ok)
        ++failures;
}

// ---- QAP -----------------------------------------------------------------------------------

static const unsigned N = 7;

/* The thesis's DF: flows below the diagonal, distances above it, zero diagonal. */
template <typename T> static std::vector<T> make_df() {
    std::vector<T> df(N * N, T(0));
    uint32_t s = 12345;
    for (unsigned i = 0; i < N; ++i)
        for (unsigned j = 0; j < N; ++j)
            if (i != j) {
                s = s * 1103515245u + 12345u;
                df[i * N + j] = static_cast<T>(1 + (s >> 16) % 9);
            }
    return df;
}

/* sum over i != j of flow(i, j) * distance(order[i], order[j]). */
template <typename T> static double qap_cost(const std::vector<T> &df, const unsigned short *order) {
    double sum = 0;
    for (unsigned i = 0; i < N; ++i)
        for (unsigned j = 0; j < N; ++j)
            if (i != j) {
                unsigned u = order[i], v = order[j];
                double flow = static_cast<double>(df[std::max(i, j) * N + std::min(i, j)]);
                double dist = static_cast<double>(df[std::min(u, v) * N + std::max(u, v)]);
                sum += flow * dist;
            }
    return sum;
}

template <typename T> static double qap_optimum(const std::vector<T> &df) {
    std::vector<unsigned short> p(N);
    std::iota(p.begin(), p.end(), 0);
    double best = INFINITY;
    do
        best = std::min(best, qap_cost(df, p.data()));
    while (std::next_permutation(p.begin(), p.end()));
    return best;
}

/* A random permutation from an LCG (the starts of the runs). */
static std::vector<unsigned short> random_order(uint32_t &s) {
    std::vector<unsigned short> p(N);
    std::iota(p.begin(), p.end(), 0);
    for (unsigned i = N - 1; i > 0; --i) {
        s = s * 1664525u + 1013904223u;
        std::swap(p[i], p[(s >> 8) % (i + 1)]);
    }
    return p;
}

/* Runs `runs` HC12 climbs from random starts; checks each result and returns the best cost. */
template <typename Solver, typename Ftype, typename T>
static double qap_runs(Solver &solver, const std::vector<T> &df, unsigned runs, const char *label) {
    uint32_t seed = 7;
    double best = INFINITY;
    bool consistent = true;
    for (unsigned r = 0; r < runs; ++r) {
        std::vector<unsigned short> start = random_order(seed);
        metaopt::Result<Ftype> res = solver.template run<Ftype>(start.data(), nullptr);
        solver.checkValidOrder(res.order.data()); // throws on a bad permutation
        consistent = consistent && res.order.size() == N && res.K_GC.size() == solver.getNParam() &&
                     std::fabs(static_cast<double>(res.f) - qap_cost(df, res.order.data())) < 1e-6;
        best = std::min(best, static_cast<double>(res.f));
    }
    check(consistent, std::string(label) + ": every run's cost is the cost of its permutation");
    check(static_cast<double>(solver.getBestFitness()) == best, std::string(label) + ": getBestFitness() " +
                                                                     std::to_string(static_cast<double>(solver.getBestFitness())) +
                                                                     " is the best run");
    return best;
}

template <typename F> static void expect_error(int32_t code, const std::string &what, F f);

static void qap() {
    std::vector<int32_t> df32 = make_df<int32_t>();
    const double optimum = qap_optimum(df32);
    std::cout << "qap optimum (enumerated): " << optimum << '\n';

    // Params with the thesis's four template parameters; nBitParam 3 = ceil(log2 7)
    metaopt::Params<uint8_t, uint8_t, int32_t, metaopt::CC_int32_t> params(3, N, 3, df32.data(), 1, 2, 0, 0);
    check(params.getNElements() == N && params.getNParam() == 6, "Params: getNElements 7, getNParam 6");
    check(params.getBestFitness() == metaopt::CC_int32_t::REAL_MAX, "Params: getBestFitness is REAL_MAX before a run");
    double best = qap_runs<decltype(params), int64_t>(params, df32, 30, "Params<uint8_t, uint8_t, int32_t>");
    std::cout << "qap Params best: " << best << " (last run " << params.getIterationNum() << " iterations)\n";
    check(best == optimum, "Params: the best of 30 runs is the optimum");

    // nBitParam above ceil(log2 7) = 3: 5-bit parameters naming positions I mod 7 (the thesis's kernel)
    metaopt::Params<uint8_t, uint8_t, int32_t, metaopt::CC_int32_t> wide(3, N, 5, df32.data(), 1, 2, 0, 0);
    check(wide.getNParam() == 6, "Params with nBitParam 5: getNParam 6");
    best = qap_runs<decltype(wide), int64_t>(wide, df32, 30, "Params nBitParam 5");
    check(best == optimum, "Params with nBitParam 5: the best of 30 runs is the optimum");

    // a device number (the one in use, named) finds the optimum too; a device past the list is an error
    metaopt::Params<uint8_t, uint8_t, int32_t, metaopt::CC_int32_t> named(3, N, 3, df32.data(), 1, 2, 0, 0,
                                                                          metaopt::getDeviceNumber());
    best = qap_runs<decltype(named), int64_t>(named, df32, 30, "Params on the device in use by number");
    check(best == optimum, "Params on a numbered device: the best of 30 runs is the optimum");
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "Params on device 99", [&df32] {
        metaopt::Params<uint8_t, uint8_t, int32_t, metaopt::CC_int32_t> bad(3, N, 3, df32.data(), 1, 2, 0, 0, 99);
    });

    // ParamsInstance over double data, with a tabu list
    std::vector<double> df64 = make_df<double>();
    metaopt::ParamsInstance<double, metaopt::CC_double> instance(3, N, 0, df64.data(), 1, 2, 0, 0);
    instance.initTabuList(50);
    best = qap_runs<decltype(instance), double>(instance, df64, 30, "ParamsInstance<double> with tabu list");
    std::cout << "qap ParamsInstance best: " << best << '\n';
    check(best == optimum, "ParamsInstance: the best of 30 tabu runs is the optimum");

    // ParamsInstanceDF: the type is chosen by the constructor overload
    std::vector<int64_t> df_i64 = make_df<int64_t>();
    metaopt::ParamsInstanceDF df(3, N, 0, df_i64.data(), 1, 2, 0, 0);
    check(df.p_typename == typeid(int64_t).name() && df.df_type_name == "int64" && df.nBitParam == 3 && df.swaps == 3,
          "ParamsInstanceDF: const members");
    best = qap_runs<decltype(df), long long>(df, df_i64, 30, "ParamsInstanceDF(int64_t)");
    check(best == optimum, "ParamsInstanceDF: the best of 30 runs is the optimum");

    // continuing a run from its base order (here the identity) and its final K_GC stays at its
    // local optimum
    metaopt::Result<double> r1 = df.run<double>(nullptr, nullptr);
    metaopt::Result<double> r2 = df.run<double>(nullptr, r1.K_GC.data());
    check(r2.f == r1.f && r2.order == r1.order, "ParamsInstanceDF: a run continued from its result keeps it");

    // RAII: a moved object keeps working, the moved-from one has no handle
    metaopt::ParamsInstanceDF moved(std::move(df));
    check(moved.run<double>(nullptr, nullptr).f == r1.f, "ParamsInstanceDF: a moved object runs");
}

// ---- general HC12 --------------------------------------------------------------------------

static void hc12() {
    metaopt::CatalogueFitness<double, double> sphere("F1");
    metaopt::HC12 solver(5, {10}, {{-5.12, 5.12}}, &sphere);
    MetaoptHc12RunOptions o = metaopt::HC12::defaultRunOptions();
    o.runs = 2;
    metaopt::HC12::RunResult r = solver.run(o);
    std::cout << "hc12 F1 best: " << r.value << " at";
    bool near = r.reals.size() == 5;
    for (double x : r.reals) {
        std::cout << ' ' << x;
        near = near && std::fabs(x) < 0.006;
    }
    std::cout << '\n';
    // on a 10-bit grid of [-5.12, 5.12] the points nearest 0 are +-0.005: 5 * 0.005^2 = 1.25e-4
    check(r.value < 1.3e-4 && near, "HC12 on F1 reaches the grid's optimum next to 0");
    check(r.run_values.size() == 2 && r.string.size() == 5, "HC12: one value per run, one word per parameter");

    // a host functor: the sphere shifted to (1, ..., 1); the 2-bit grid of [-3, 1] is -3, -5/3,
    // -1/3, 1, so x = 1 is a grid point and the optimum is 0 (to rounding: 1 is computed as -3 + 3 * 4/3)
    unsigned long calls = 0;
    auto shifted = std::make_unique<metaopt::HostFitness<double, double>>(
        [&calls](const double *y, double *f, uint32_t rows, uint32_t dims) {
            ++calls;
            for (uint32_t row = 0; row < rows; ++row) {
                double s = 0;
                for (uint32_t j = 0; j < dims; ++j)
                    s += (y[row * dims + j] - 1) * (y[row * dims + j] - 1);
                f[row] = s;
            }
        },
        "shifted sphere (C++ lambda)");
    metaopt::HC12 host(4, {2}, {{-3.0, 1.0}}, std::move(shifted));
    metaopt::HC12::RunResult h = host.run();
    std::cout << "hc12 host functor best: " << h.value << " after " << calls << " calls\n";
    check(h.value < 1e-20 && calls > 0, "HC12 with a host functor finds the optimum 0 (to rounding)");
}

// ---- DEMultiPop ----------------------------------------------------------------------------

static const char *SHIFTED_SPHERE =
    "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)\n"
    "{\n"
    "    FP s = 0;\n"
    "    for (uint j = 0; j < dims; ++j) {\n"
    "        const FP v = x[j * stride] - (FP)1;\n"
    "        s += v * v;\n"
    "    }\n"
    "    return s;\n"
    "}\n";

static metaopt::OptionsDict de_options() {
    metaopt::OptionsDict o;
    o.F_coefs_min = 0.5;
    o.F_coefs_max = 0.9;
    o.CR_coef_const = 0.9;
    return o;
}

static void de() {
    using namespace metaopt;
    // a host functor (double)
    DEMultiPop<double, double> de(4, 16, 4, {{-5.0, 5.0}}, {DEBoundsCorrection::CompleteOnesidedTruncatedNormal},
                                  de_options());
    unsigned long calls = 0;
    HostFitness<double, double> sphere(
        [&calls](const double *y, double *f, uint32_t rows, uint32_t dims) {
            ++calls;
            for (uint32_t r = 0; r < rows; ++r) {
                double s = 0;
                for (uint32_t j = 0; j < dims; ++j)
                    s += y[r * dims + j] * y[r * dims + j];
                f[r] = s;
            }
        },
        "sphere (C++ lambda)");
    de.init(&sphere, DEMutation::DE_rand_1, DEMigration(20, DEMigration::Type::PermuteN));
    for (int g = 0; g < 10; ++g)
        de.iteration();
    DEResult<double, double> r = de.run(190);
    std::cout << "de host functor best: " << r.value << " in population " << r.island << " after " << r.generations
              << " generations, " << calls << " calls\n";
    check(r.value < 1e-8 && r.generations == 200 && calls == 201,
          "DEMultiPop<double> with a host functor reaches the sphere's optimum 0");
    std::vector<double> bests = de.getBestsFitness();
    check(bests.size() == 4 && *std::min_element(bests.begin(), bests.end()) == r.value,
          "getBestsFitness: 4 populations, the least is run()'s best");
    check(de.getBest(r.island) == r.x && de.getX(0, 0).size() == 4, "getBest and getX");
    std::vector<double> spread = de.getSpread();
    check(spread.size() == 2 && spread[0] >= r.value && spread[1] >= 0.0,
          "getSpread: the members' mean is at least the best, their deviation at least 0");
    de.printBests(std::cout);

    // strict selection (the thesis's f(trial) < f(target)) as an OptionsDict field
    OptionsDict strict = de_options();
    strict.selection = "strict";
    DEMultiPop<double, double> ds(4, 16, 4, {{-5.0, 5.0}}, {DEBoundsCorrection::Saturation}, strict);
    ds.init(std::make_unique<CatalogueFitness<double, double>>("F1"), DEMutation::DE_rand_1, DEMigration(20, DEMigration::Type::None));
    check(ds.info().find("selection: strict") != std::string::npos && ds.run(300).value < 1e-6,
          "DEMultiPop with selection strict reaches F1's optimum");
    // an adaptive variant by name (jSO, with its budget)
    OptionsDict jso = de_options();
    jso.algorithm = "jso";
    jso.lshade_budget = 16 * 300;
    DEMultiPop<double, double> dj(1, 16, 4, {{-5.0, 5.0}}, {DEBoundsCorrection::HalfwayToViolatedBounds}, jso);
    dj.init(std::make_unique<CatalogueFitness<double, double>>("F1"), DEMutation::DE_rand_1, DEMigration(20, DEMigration::Type::None));
    check(dj.info().find("algorithm: jso") != std::string::npos && dj.run(300).value < 1e-6,
          "DEMultiPop with algorithm jso reaches F1's optimum");
    // jDE100 by name, its small population as an OptionsDict field
    OptionsDict jde = de_options();
    jde.algorithm = "jde100";
    jde.jde_small = 8;
    DEMultiPop<double, double> dd(1, 40, 4, {{-5.0, 5.0}}, {DEBoundsCorrection::HalfwayToViolatedBounds}, jde);
    dd.init(std::make_unique<CatalogueFitness<double, double>>("F1"), DEMutation::DE_rand_1, DEMigration(20, DEMigration::Type::None));
    check(dd.info().find("algorithm: jde100 (big population 32 + small 8") != std::string::npos && dd.run(300).value < 1e-6,
          "DEMultiPop with algorithm jde100 reaches F1's optimum");

    // a device OpenCL source (float), owned by the object
    DEMultiPop<float, double> dev(4, 16, 4, {{-5.0f, 5.0f}}, {DEBoundsCorrection::Saturation}, de_options());
    dev.init(std::make_unique<DeviceFitness<float, double>>(SHIFTED_SPHERE, "shifted sphere (OpenCL C)"),
             DEMutation_by_name("DE/rand/1"), DEMigration(20, DEMigration_by_name("One2One")));
    DEResult<float, double> d = dev.run(200);
    std::cout << "de device source best: " << d.value << " at";
    bool at_one = d.x.size() == 4;
    for (float x : d.x) {
        std::cout << ' ' << x;
        at_one = at_one && std::fabs(x - 1.0f) < 1e-2f;
    }
    std::cout << '\n';
    check(d.value < 1e-4 && at_one, "DEMultiPop<float> with an OpenCL source reaches the optimum 0 at (1, ..., 1)");
    check(dev.info().find("shifted sphere (OpenCL C)") != std::string::npos, "info() names the objective");

    // a constrained source: min |x|^2 subject to x0 + x1 >= 1 (g = 1 - x0 - x1 <= 0) gives
    // (0.5, 0.5), f = 0.5, feasible
    DEMultiPop<double, double> con(4, 20, 2, {{-2.0, 2.0}}, {DEBoundsCorrection::Saturation}, de_options());
    MetaoptConstraints c = metaopt_default_constraints();
    c.inequalities = 1;
    con.setConstraints(c);
    con.init(std::make_unique<DeviceFitness<double, double>>(
                 "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)\n"
                 "{ return x[0] * x[0] + x[stride] * x[stride]; }\n"
                 "void constraints(__global const FP *x, uint dims, uint stride, __global const void *data, FP *c)\n"
                 "{ c[0] = (FP)1 - x[0] - x[stride]; }\n",
                 "constrained sphere"),
             DEMutation_by_name("DE/rand/1"), DEMigration(10, DEMigration_by_name("PermuteN")));
    DEResult<double, double> k = con.run(600);
    std::cout << "de constrained best: " << k.value << " (violation " << k.violation << ")\n";
    check(std::fabs(k.value - 0.5) < 1e-6 && k.violation == 0 && k.x[0] + k.x[1] >= 1 - 1e-12,
          "DEMultiPop with constraints reaches (0.5, 0.5) feasibly");
    con.clearConstraints();
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "constraints with no counts",
                 [&] { con.setConstraints(metaopt_default_constraints()); });
}

// ---- errors --------------------------------------------------------------------------------

/* Runs f, which must throw metaopt::Error with `code`; prints its message. */
template <typename F> static void expect_error(int32_t code, const std::string &what, F f) {
    try {
        f();
        check(false, what + ": no exception");
    } catch (const metaopt::Error &e) {
        std::cout << "  " << e.what() << '\n';
        check(e.code() == code && !e.message().empty(),
              what + ": metaopt::Error " + std::to_string(e.code()) + " (expected " + std::to_string(code) + ")");
    }
}

struct UserError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

static void errors() {
    using namespace metaopt;
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "DEMultiPop with dimension 0",
                 [] { DEMultiPop<double, double>(4, 16, 0, {{-1.0, 1.0}}, {DEBoundsCorrection::Saturation}); });
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "DEMultiPop with a < b broken",
                 [] { DEMultiPop<double, double>(4, 16, 2, {{1.0, -1.0}}, {DEBoundsCorrection::Saturation}); });
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "HC12 with no parameters", [] {
        CatalogueFitness<double, double> f("F1");
        HC12(0, {8}, {{-1.0, 1.0}}, &f);
    });
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "ParamsInstanceDF with 0 swaps", [] {
        std::vector<double> df = make_df<double>();
        ParamsInstanceDF(0, N, 0, df.data(), 1, 2, 0, 0);
    });
    expect_error(METAOPT_ERR_NULL_POINTER, "ParamsInstanceDF with a NULL DF",
                 [] { ParamsInstanceDF(3, N, 0, static_cast<const double *>(nullptr), 1, 2, 0, 0); });
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "Params with nBitParam below ceil(log2 nElements)", [] {
        std::vector<float> df = make_df<float>();
        Params<uint32_t, uint16_t, float, CC_float>(3, N, 2, df.data(), 1, 2, 0, 0);
    });
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "Params with nBitParam above EL_TYPE", [] {
        std::vector<float> df = make_df<float>();
        Params<uint8_t, uint16_t, float, CC_float>(3, N, 9, df.data(), 1, 2, 0, 0);
    });
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "OptionsDict with an unknown algorithm", [] {
        OptionsDict o;
        o.algorithm = "jde";
        DEMultiPop<double, double>(2, 8, 2, {{-1.0, 1.0}}, {DEBoundsCorrection::Saturation}, o);
    });
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "OptionsDict with an unknown selection", [] {
        OptionsDict o;
        o.selection = "loose";
        DEMultiPop<double, double>(2, 8, 2, {{-1.0, 1.0}}, {DEBoundsCorrection::Saturation}, o);
    });
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "DEMutation_by_name of an unknown name",
                 [] { DEMutation_by_name("DE/worst/1"); });

    // metaopt.h's compatibility names (on unless METAOPT_NO_COMPAT_NAMES) hold a global typedef
    // ParamsInstance, so under `using namespace metaopt` the class is named with its namespace
    std::vector<float> dff = make_df<float>();
    metaopt::ParamsInstance<float, CC_float> qap(3, N, 0, dff.data(), 1, 2, 0, 0);
    const uint16_t bad[N] = {0, 1, 2, 3, 4, 5, 5};
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "checkValidOrder of a repeated entry", [&] { qap.checkValidOrder(bad); });
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "run from a non-permutation",
                 [&] { qap.run<float>(bad, nullptr); });

    DEMultiPop<double, double> de(2, 8, 2, {{-1.0, 1.0}}, {DEBoundsCorrection::Mirror});
    expect_error(METAOPT_ERR_NULL_POINTER, "DeviceFitness with a NULL source", [&] {
        DeviceFitness<double, double> f(static_cast<const char *>(nullptr));
        de.init(&f, DEMutation::DE_rand_1, DEMigration(0, DEMigration::Type::None));
    });
    expect_error(METAOPT_ERR_KERNEL_BUILD, "DeviceFitness that does not compile", [&] {
        DeviceFitness<double, double> f("this is not OpenCL C");
        de.init(&f, DEMutation::DE_rand_1, DEMigration(0, DEMigration::Type::None));
    });
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "make_fitness_by_name of an unknown function", [&] {
        de.init(make_fitness_by_name<double, double>("NoSuchFunction"), DEMutation::DE_rand_1,
                DEMigration(0, DEMigration::Type::None));
    });
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "an OptionsDict with an unknown F mode", [&] {
        OptionsDict o;
        o.F_coefs_mode = "random";
        CatalogueFitness<double, double> f("F1");
        de.init(&f, DEMutation::DE_rand_1, DEMigration(0, DEMigration::Type::None), o);
    });

    // a host functor's exception comes back as itself, and the object stays usable
    HostFitness<double, double> throwing(
        [](const double *, double *, uint32_t, uint32_t) { throw UserError("the user's functor failed"); });
    bool rethrown = false;
    try {
        de.init(&throwing, DEMutation::DE_rand_1, DEMigration(0, DEMigration::Type::None));
    } catch (const UserError &e) {
        rethrown = std::string(e.what()) == "the user's functor failed";
    }
    check(rethrown, "a host functor's exception is rethrown as itself");
    CatalogueFitness<double, double> f1("F1");
    de.init(&f1, DEMutation::DE_best_1, DEMigration(0, DEMigration::Type::None));
    check(de.run(5).generations == 5, "the instance runs after the failed inits");

    // a moved-from object holds no handle: the library refuses it
    DEMultiPop<double, double> other(std::move(de));
    expect_error(METAOPT_ERR_NULL_POINTER, "a moved-from DEMultiPop", [&] { de.getBestsFitness(); });
    check(other.getBestsFitness().size() == 2, "the moved-to DEMultiPop works");

    // every Error is a std::runtime_error (the thesis's exception type)
    bool caught = false;
    try {
        DEBoundsCorrection_by_name("clip");
    } catch (const std::runtime_error &) {
        caught = true;
    }
    check(caught, "metaopt::Error is a std::runtime_error");
}

// ---- catalogue functions by name (the thesis's geatbx_cec_bundle(X, 'CEC05t')) ---------------

static void evaluation() {
    using namespace metaopt;
    // CEC05t (CEC 2019 F5) in D = 10 is exactly 1 at its shift o (shift_data_5.txt): the first row
    // is o, the second a point away from it; the device (double) agrees with the host
    const std::vector<double> o = {-1.6799910337105352e+01, 4.3906964270354706e+01, 2.4348491851402670e+01,
                                   -5.4897453475230122e+01, 5.8499441807390866e+01, 1.1845681821854726e-01,
                                   7.0903743799265357e+01,  -7.7796574718223610e-01, 4.4729687108066713e+01,
                                   -6.8148774722660320e+01};
    std::vector<double> X = o;
    for (double v : o)
        X.push_back(v + 1.5);
    std::vector<double> host = evaluate("CEC05t", X, 10, false);
    std::vector<double> device = evaluate("CEC05t", X, 10, Backend::Device, Precision::Double);
    check(host.size() == 2 && device.size() == 2, "evaluate returns one value per row");
    check(std::fabs(host[0] - 1.0) < 1e-12 && std::fabs(device[0] - 1.0) < 1e-12,
          "evaluate(\"CEC05t\") is 1 at the shift o, on the host and the device");
    check(host[1] > 1.0 && std::fabs(host[1] - device[1]) <= 1e-12 * host[1], "evaluate: device double equals the host");
    std::vector<double> f1 = evaluate("f1", {1.0, 2.0, 3.0, 0.0, 0.5, 0.5}, 3);
    check(f1.size() == 2 && std::fabs(f1[0] - 14.0) < 1e-12 && std::fabs(f1[1] - 0.5) < 1e-12,
          "evaluate(\"f1\") of two rows of D = 3");
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "evaluate of an unknown name", [] { evaluate("F99", {0.0, 0.0}, 2); });
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "evaluate of CEC05t in D = 3",
                 [] { evaluate("CEC05t", {0.0, 0.0, 0.0}, 3, false); });
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "evaluate of a NaN point",
                 [] { evaluate("F1", {0.0, std::nan("")}, 2, false); });
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "evaluate of no rows", [] { evaluate("F1", {}, 2, false); });
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "evaluate of a partial row", [] { evaluate("F1", {1.0, 2.0, 3.0}, 2); });
    // per-handle devices: a device number (here the one in use, named) gives the values of -1
    int n = metaopt::getDeviceNumber();
    std::vector<double> named = evaluate("CEC05t", X, 10, Backend::Device, Precision::Double, n);
    check(named == device, "evaluate on the device in use by number equals device -1");
    check(metaopt::isDeviceValid(n) && metaopt::isDeviceValid(), "isDeviceValid of the device in use");
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "evaluate on device 99",
                 [] { evaluate("F1", {0.0, 0.0}, 2, Backend::Device, Precision::Auto, 99); });
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "isDeviceValid(-2)", [] { metaopt::isDeviceValid(-2); });
    metaopt::CatalogueFitness<double, double> sphere("F1");
    expect_error(METAOPT_ERR_INVALID_ARGUMENT, "HC12 on device 99", [&sphere] {
        metaopt::HC12 bad(2, {8}, {{-1.0, 1.0}}, &sphere, 1, 0, 0, METAOPT_DOMAIN_REAL, METAOPT_PRECISION_AUTO, 99);
    });
}

int main() {
    std::cout << "metaopt " << metaopt::version() << ", device " << metaopt::getDeviceNumber() << '\n';
    try {
        qap();
        hc12();
        de();
        errors();
        evaluation();
    } catch (const std::exception &e) {
        std::cerr << "unexpected exception: " << e.what() << '\n';
        return 1;
    }
    if (failures) {
        std::cerr << failures << " check(s) failed\n";
        return 1;
    }
    std::cout << "all checks passed\n";
    return 0;
}
