/*
 * metaopt: the thesis's C++ API (thesis 000, sections 5.1.3 and 5.2.1; docs/specs/API.md), header
 * only, over the C ABI of include/metaopt.h and libmetaopt.so. Needs C++17.
 *
 *   #include <metaopt.hpp>      c++ -std=c++17 prog.cpp $(pkg-config --cflags --libs metaopt)
 *
 * Classes (namespace metaopt):
 *   Error                         std::runtime_error with the C error code (code()) and the
 *                                 library's message (message()); every failure throws it
 *   Params<EL, IORD, REAL, CC>    QAP HC12 solver (metaopt_qap_params): initTabuList, run<Ftype>,
 *                                 getNParam, getNElements, getBestFitness, getIterationNum,
 *                                 checkValidOrder
 *   ParamsInstance<REAL, CC>      Params with the element and permutation types chosen for you
 *   ParamsInstanceDF              not a template: one constructor per DF element type, settings as
 *                                 const members
 *   Result<f_type>                { f, order, lastIteration, K_GC } of one QAP run
 *   HC12                          the general HC12 solver (metaopt_hc12_*), a library addition
 *   DEMultiPop<FP, FPf>           island DE (metaopt_de_*): init, iteration, run, printBests,
 *                                 getBestsFitness, getBest, getX
 *   FitnessFunctorInterface<FP, FPf> and CatalogueFitness, DeviceFitness (OpenCL C source),
 *                                 HostFitness (a C++ callable), make_fitness_by_name
 *   DEMutation, DEMigration, DEBoundsCorrection, Interval<FP>, OptionsDict and the *_by_name
 *   parsers; getDeviceNumber, setDeviceNumber, isMemSpaceValid, version.
 *
 * How the thesis's classes map onto the C ABI:
 * - Handles are RAII: each object owns one C handle, is move-only, and its destructor calls the
 *   C free function (metaopt_qap_free, metaopt_hc12_free, metaopt_de_free). A moved-from object
 *   holds no handle; calling it gives the library's METAOPT_ERR_NULL_POINTER as an Error.
 * - Every string and array the C calls return is copied into std::string / std::vector and freed
 *   with the library at once. Errors become metaopt::Error (derived from std::runtime_error, the
 *   thesis's exception type) carrying the C error code and the message the C call returned
 *   (the C ABI has no global last-error: each result struct carries its own message).
 *   Checks this header makes itself (names of strategies, checkValidOrder, types and sizes that
 *   the C ABI cannot represent) throw Error with METAOPT_ERR_INVALID_ARGUMENT.
 * - Template parameters that have no meaning for the C ABI are checked, not used:
 *   EL_TYPE (the word of K, M, I, B): the library stores one 32-bit word per parameter whatever
 *     EL_TYPE is; it must be an unsigned integral type of at most 32 bits (static_assert), and
 *     nBitParam must fit in it (checked at construction).
 *   IORD_TYPE (a permutation entry): the C ABI passes permutations as uint16_t; it must be an
 *     unsigned integral type (static_assert) and nElements - 1 must fit in it and in uint16_t.
 *   REAL (the element of DF): int32_t, int64_t, uint32_t, uint64_t, float or double
 *     (static_assert); it picks the C ABI's DF_type_name, and so the cost type on the device.
 *   CC_type: the thesis's constants of REAL (REAL_MAX, fmt): CC_float, CC_double, CC_int32_t,
 *     CC_int64_t, CC_uint32_t, CC_uint64_t; REAL_MAX is getBestFitness() before any run.
 *   nBitParam: 0 takes ceil(log2 nElements), the fewest that reach every position; more bits
 *     (up to 32, and up to EL_TYPE's width) are a longer string whose parameters name position
 *     I mod nElements, as the thesis's kernel (metaopt_qap_set_bits_per_param); fewer are
 *     refused (METAOPT_ERR_INVALID_ARGUMENT naming nBitParam).
 *   endBit: as in the thesis, a bit count (the C ABI's bitLength; 0 = to the end of the string).
 *   The thesis's cudaDeviceProp argument is gone: objects run on the device in use when they are
 *   made (setDeviceNumber).
 *   DEMultiPop's FP (X and Y) picks the storage precision and FPf the fitness precision
 *     (MetaoptDeOptions.precision and .fitness_precision): float is METAOPT_PRECISION_SINGLE,
 *     double METAOPT_PRECISION_DOUBLE (a device without cl_khr_fp64 refuses a double). The
 *     fitness is computed in FP, rounded to FPf and stored and compared in FPf, on the device and
 *     on the CPU backend; the C ABI returns it as a double, converted back to FPf exactly.
 * - The thesis's FitnessFunctorInterface::operator() received CUDA device pointers X, Y, Fx, Fy.
 *   There are no device pointers to hand out over OpenCL, so a fitness is one of: a catalogue
 *   function by name (make_fitness_by_name, CatalogueFitness), OpenCL C source compiled into the
 *   kernels (DeviceFitness, the objective contract of metaopt.h's MetaoptObjective.source), or a
 *   host functor (HostFitness, or a class of your own overriding operator()) that receives all
 *   trial vectors of a generation as rows of Y (n_rows x n_dims, row-major) and writes Fy. An
 *   exception thrown by a host functor is caught at the C boundary (the C call then fails with
 *   METAOPT_ERR_CALLBACK) and rethrown, as itself, from the C++ call that ran the functor.
 *   A DEMultiPop does not own a fitness passed by pointer (the thesis's late binding): it must
 *   outlive the object or the next init. The std::unique_ptr overload of init takes ownership.
 * - A handle serves one call at a time, as in the C ABI.
 * - Names: metaopt.h's compatibility typedefs (on unless METAOPT_NO_COMPAT_NAMES is defined)
 *   include a global ParamsInstance (the C handle type), so after `using namespace metaopt;`
 *   write metaopt::ParamsInstance, or define METAOPT_NO_COMPAT_NAMES. METAOPT_THESIS_NAMES (macros
 *   such as `run`) cannot be used with this header.
 */
#ifndef METAOPT_HPP
#define METAOPT_HPP

#if !defined(__cplusplus) || __cplusplus < 201703L
#error "metaopt.hpp needs C++17 (-std=c++17)"
#endif

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#ifdef METAOPT_THESIS_NAMES
/* metaopt.h's opt-in thesis names are unprefixed macros (run, params, ...) that would rewrite
 * this header's method names; C++ code uses the classes below instead. */
#error "metaopt.hpp cannot be used with METAOPT_THESIS_NAMES defined"
#endif

#include "metaopt.h"

namespace metaopt {

// ------------------------------------------------------------------------------------------
// Errors

/* The name of a MetaoptErrorCode, e.g. "invalid argument". */
inline const char *error_code_name(int32_t code) {
    switch (code) {
    case METAOPT_OK: return "ok";
    case METAOPT_ERR_STD_EXCEPTION: return "std exception";
    case METAOPT_ERR_INVALID_ARGUMENT: return "invalid argument";
    case METAOPT_ERR_NULL_POINTER: return "null pointer";
    case METAOPT_ERR_UNSUPPORTED_TYPE: return "unsupported type";
    case METAOPT_ERR_OPENCL: return "OpenCL error";
    case METAOPT_ERR_NO_DEVICE: return "no device";
    case METAOPT_ERR_KERNEL_BUILD: return "kernel build error";
    case METAOPT_ERR_OUT_OF_DEVICE_MEMORY: return "out of device memory";
    case METAOPT_ERR_UNSUPPORTED: return "unsupported";
    case METAOPT_ERR_IO: return "I/O error";
    case METAOPT_ERR_PARSE: return "parse error";
    case METAOPT_ERR_PANIC: return "internal error";
    case METAOPT_ERR_INVALID_MEM_SPACE: return "invalid memory space";
    case METAOPT_ERR_CALLBACK: return "callback error";
    case METAOPT_ERR_BUSY: return "busy";
    case METAOPT_INTERRUPTED: return "interrupted";
    case METAOPT_ERR_OUT_OF_HOST_MEMORY: return "out of host memory";
    case METAOPT_ERR_NON_FINITE_OBJECTIVE: return "non-finite objective";
    case METAOPT_ERR_TIME_LIMIT: return "time limit";
    default: return "unknown error";
    }
}

/* A failed call: code() is the MetaoptErrorCode, message() the library's message, what()
 * "<call>: <code name> (<code>): <message>". */
class Error : public std::runtime_error {
  public:
    Error(int32_t code, const std::string &call, const std::string &message)
        : std::runtime_error(call + ": " + error_code_name(code) + " (" + std::to_string(code) + "): " + message),
          code_(code), call_(call), message_(message) {}
    int32_t code() const noexcept { return code_; }
    /* The C function (or the C++ method, for checks of this header) that failed. */
    const std::string &call() const noexcept { return call_; }
    /* The library's message (what the C call returned in error_message). */
    const std::string &message() const noexcept { return message_; }

  private:
    int32_t code_;
    std::string call_;
    std::string message_;
};

namespace detail {

/* Copies a library string and frees it with the library (NULL gives ""). */
inline std::string take_string(char *s) {
    std::string out = s ? s : "";
    metaopt_pointer_free(s);
    return out;
}

[[noreturn]] inline void raise(const char *call, int32_t code, char *message) {
    std::string m = message ? take_string(message) : std::string("(no message)");
    throw Error(code, call, m);
}

[[noreturn]] inline void invalid(const char *call, const std::string &message) {
    throw Error(METAOPT_ERR_INVALID_ARGUMENT, call, message);
}

/* The value of a MetaoptInt32Result, or an Error. */
inline int32_t check(const char *call, MetaoptInt32Result r) {
    if (r.error_code != METAOPT_OK)
        raise(call, r.error_code, r.error_message);
    metaopt_pointer_free(r.error_message);
    return r.result;
}

inline std::string check(const char *call, MetaoptStringResult r) {
    if (r.error_code != METAOPT_OK) {
        metaopt_pointer_free(r.text);
        raise(call, r.error_code, r.error_message);
    }
    metaopt_pointer_free(r.error_message);
    return take_string(r.text);
}

template <typename T> std::vector<T> check(const char *call, MetaoptDoubleArrayResult r) {
    if (r.error_code != METAOPT_OK) {
        char *m = r.error_message;
        r.error_message = nullptr;
        metaopt_double_array_free_result(&r);
        raise(call, r.error_code, m);
    }
    std::vector<T> out(r.values, r.values + r.length);
    metaopt_double_array_free_result(&r);
    return out;
}

struct QapDeleter { void operator()(MetaoptQapInstance *h) const noexcept { metaopt_qap_free(h); } };
struct Hc12Deleter { void operator()(MetaoptHc12Instance *h) const noexcept { metaopt_hc12_free(h); } };
struct DeDeleter { void operator()(MetaoptDeInstance *h) const noexcept { metaopt_de_free(h); } };

/* The C ABI's DF_type_name of a REAL. */
template <typename REAL> constexpr const char *df_type_name() {
    if constexpr (std::is_same_v<REAL, int32_t>) return "int32";
    else if constexpr (std::is_same_v<REAL, int64_t>) return "int64";
    else if constexpr (std::is_same_v<REAL, uint32_t>) return "uint32";
    else if constexpr (std::is_same_v<REAL, uint64_t>) return "uint64";
    else if constexpr (std::is_same_v<REAL, float>) return "float32";
    else return "float64";
}

template <typename REAL> constexpr bool is_df_type =
    std::is_same_v<REAL, int32_t> || std::is_same_v<REAL, int64_t> || std::is_same_v<REAL, uint32_t> ||
    std::is_same_v<REAL, uint64_t> || std::is_same_v<REAL, float> || std::is_same_v<REAL, double>;

/* The thesis's check of run<Ftype>: both integral or both floating, and an integral Ftype not
 * narrower than REAL. */
template <typename Ftype, typename REAL> constexpr bool valid_ftype =
    std::is_arithmetic_v<Ftype> && std::is_integral_v<Ftype> == std::is_integral_v<REAL> &&
    !(std::is_integral_v<Ftype> && std::is_integral_v<REAL> && sizeof(Ftype) < sizeof(REAL));

/* ceil(log2 n), the library's bits per QAP parameter (at least 1). */
inline unsigned qap_bits(unsigned n) {
    unsigned b = 1;
    while (b < 32 && (1ull << b) < n)
        ++b;
    return b;
}

/* The state a host callback needs: the functor and the first exception it threw. Kept on the
 * heap so that moving the owning object leaves the C ABI's user_data valid. */
struct CallbackContext {
    std::function<void(const double *, uint32_t, uint32_t, double *)> call;
    std::exception_ptr error;
};

extern "C" inline int32_t callback_trampoline(const double *x, uint32_t rows, uint32_t dims, double *f,
                                                void *user_data) {
    auto *ctx = static_cast<CallbackContext *>(user_data);
    try {
        ctx->call(x, rows, dims, f);
        return 0;
    } catch (...) {
        // no exception may cross the C boundary: keep it, rethrow it from the C++ call
        if (!ctx->error)
            ctx->error = std::current_exception();
        return 1;
    }
}

/* Rethrows a host functor's exception (if any) in place of the C error it caused. */
inline void rethrow_callback(CallbackContext *ctx) {
    if (ctx && ctx->error) {
        std::exception_ptr e = ctx->error;
        ctx->error = nullptr;
        std::rethrow_exception(e);
    }
}

} // namespace detail

// ------------------------------------------------------------------------------------------
// Devices and version

/* The device in use (metaopt_device_get_number; the thesis's get_cuda_device_number). */
inline int getDeviceNumber() { return detail::check("metaopt_device_get_number", metaopt_device_get_number()); }
/* Sets the device in use for objects made afterwards (the thesis's set_cuda_device_number). */
inline void setDeviceNumber(int n) { detail::check("metaopt_device_set_number", metaopt_device_set_number(n)); }
/* False after a device failure that invalidated the context (metaopt_device_is_mem_space_valid). */
inline bool isMemSpaceValid() { return metaopt_device_is_mem_space_valid() != 0; }
/* False after a failure of device `device` (-1: the device in use) that invalidated its context;
 * the other devices stay valid (metaopt_device_is_valid). Throws Error naming device for a
 * number below -1 or past the device list. */
inline bool isDeviceValid(int device = -1) {
    return detail::check("metaopt_device_is_valid", metaopt_device_is_valid(static_cast<int32_t>(device))) != 0;
}
/* The library's version, "MAJOR.MINOR.PATCH". */
inline std::string version() { return metaopt_version(); }

// ------------------------------------------------------------------------------------------
// Catalogue functions evaluated by name (the thesis's geatbx_cec_bundle(X, 'CEC05t'))

/* Where evaluate computes: the device in use (the catalogue's evaluation kernel) or the host
 * (the library's f64 reference code). */
enum class Backend { Device = METAOPT_BACKEND_DEVICE, Cpu = METAOPT_BACKEND_CPU };
/* The device precision of evaluate: Auto is double where the device has cl_khr_fp64. The CPU
 * computes in double (Auto or Double; Single is refused). */
enum class Precision { Auto = METAOPT_PRECISION_AUTO, Single = METAOPT_PRECISION_SINGLE, Double = METAOPT_PRECISION_DOUBLE };

/* The values of catalogue function `name` ("F1".."F12", "CEC04".."CEC10", "CEC04t".."CEC10t",
 * case-insensitive) at the points of `points`, a row-major rows x dims matrix (rows =
 * points.size() / dims): one value per row (metaopt_function_evaluate_on_device; `device`: a device
 * number, -1 the device in use). Throws Error naming the
 * argument for an unknown name, a dimension the function lacks (CEC04t..CEC10t: 2 or 10), no
 * rows, a partial row or a NaN or infinite coordinate. */
inline std::vector<double> evaluate(const std::string &name, const std::vector<double> &points, std::size_t dims,
                                    Backend backend = Backend::Device, Precision precision = Precision::Auto,
                                    int device = -1) {
    const char *call = "metaopt::evaluate";
    if (dims == 0 || dims > UINT32_MAX)
        detail::invalid(call, "dims is " + std::to_string(dims) + "; expected 1 .. 2^32 - 1");
    if (points.size() % dims != 0)
        detail::invalid(call, std::to_string(points.size()) + " values in points is not a whole number of rows of " +
                                  std::to_string(dims));
    std::size_t rows = points.size() / dims;
    if (rows == 0)
        detail::invalid(call, "points holds no rows; expected at least one point");
    if (rows > UINT32_MAX)
        detail::invalid(call, std::to_string(rows) + " rows; at most 2^32 - 1");
    return detail::check<double>("metaopt_function_evaluate",
                                 metaopt_function_evaluate_on_device(name.c_str(), points.data(), static_cast<uint32_t>(rows),
                                                                     static_cast<uint32_t>(dims), static_cast<int32_t>(backend),
                                                                     static_cast<int32_t>(device), static_cast<int32_t>(precision)));
}

/* evaluate on the device (device = true) or the host: the thesis's geatbx_cec_bundle(X, name). */
inline std::vector<double> evaluate(const std::string &name, const std::vector<double> &points, std::size_t dims,
                                    bool device) {
    return evaluate(name, points, dims, device ? Backend::Device : Backend::Cpu);
}

// ------------------------------------------------------------------------------------------
// QAP: Params, ParamsInstance, ParamsInstanceDF (thesis 5.1.3)

/* The thesis's constants of a REAL (CC = ConstantsClass). */
struct CC_float { static constexpr float REAL_MAX = FLT_MAX; static constexpr const char *fmt = "%f"; };
struct CC_double { static constexpr double REAL_MAX = DBL_MAX; static constexpr const char *fmt = "%lf"; };
struct CC_int32_t { static constexpr int32_t REAL_MAX = INT32_MAX; static constexpr const char *fmt = "%d"; };
struct CC_int64_t { static constexpr int64_t REAL_MAX = INT64_MAX; static constexpr const char *fmt = "%lld"; };
struct CC_uint32_t { static constexpr uint32_t REAL_MAX = UINT32_MAX; static constexpr const char *fmt = "%u"; };
struct CC_uint64_t { static constexpr uint64_t REAL_MAX = UINT64_MAX; static constexpr const char *fmt = "%llu"; };

/* The result of one QAP run (the thesis's Result): the best cost, its permutation (0-based:
 * facility i goes to location order[i]), the iterations of the run and the final string K in
 * Gray code (relative to the run's initOrder: passing order and K_GC back continues the run). */
template <typename f_type> struct Result {
    f_type f = 0;
    std::vector<unsigned short> order;
    unsigned lastIteration = 0;
    std::vector<unsigned> K_GC;
};

namespace detail {

/* One QAP handle with the operations shared by Params and ParamsInstanceDF. */
class QapHandle {
  public:
    QapHandle(unsigned swaps, unsigned nElements, unsigned nBitParam, const void *DF, const char *type_name,
              unsigned nSlices, unsigned maskOrder, unsigned startBit, unsigned endBit, int device = -1) {
        if (startBit > static_cast<unsigned>(INT32_MAX) || endBit > static_cast<unsigned>(INT32_MAX))
            invalid("metaopt::Params", "startBit and endBit must be below 2^31");
        MetaoptQapParamsResult r = metaopt_qap_params_on_device(swaps, nElements, nSlices, DF, type_name, maskOrder,
                                                                static_cast<int32_t>(startBit), static_cast<int32_t>(endBit),
                                                                static_cast<int32_t>(device));
        if (r.error_code != METAOPT_OK)
            raise("metaopt_qap_params", r.error_code, r.error_message);
        metaopt_pointer_free(r.error_message);
        h_.reset(r.instance);
        // more bits than ceil(log2 nElements): positions I mod nElements, as the thesis's kernel;
        // fewer: the library refuses them, naming nBitParam
        if (nBitParam != 0 && nBitParam != qap_bits(nElements))
            check("metaopt_qap_set_bits_per_param", metaopt_qap_set_bits_per_param(h_.get(), nBitParam));
        MetaoptQapInfo info{};
        check("metaopt_qap_info", metaopt_qap_info(h_.get(), &info));
        nElements_ = info.n_elements;
        nParam_ = info.k_length;
        nBitParam_ = info.bits_per_param;
    }

    void initTabuList(unsigned maxLength) {
        check("metaopt_qap_init_tabu_list", metaopt_qap_init_tabu_list(h_.get(), maxLength));
    }

    /* One run; the cost as a double and as an exact integer (when the data are integers). */
    template <typename Ftype> Result<Ftype> run(const unsigned short *initOrder, const unsigned *initKernel) {
        static_assert(sizeof(unsigned short) == sizeof(uint16_t) && sizeof(unsigned) == sizeof(uint32_t),
                      "the C ABI passes permutations as uint16_t and strings as uint32_t");
        MetaoptQapRunResult r = metaopt_qap_run(h_.get(), initOrder, initKernel);
        if (r.error_code != METAOPT_OK) {
            char *m = r.error_message;
            r.error_message = nullptr;
            metaopt_qap_free_run_result(&r);
            raise("metaopt_qap_run", r.error_code, m);
        }
        Result<Ftype> out;
        switch (r.result_type) {
        case METAOPT_QAP_RESULT_INT64: out.f = static_cast<Ftype>(r.f_t1); break;
        case METAOPT_QAP_RESULT_UINT64: out.f = static_cast<Ftype>(r.f_t2); break;
        case METAOPT_QAP_RESULT_FLOAT: out.f = static_cast<Ftype>(r.f_t3); break;
        default: out.f = static_cast<Ftype>(r.f_t4); break;
        }
        out.order.assign(r.order, r.order + r.orderLength);
        out.lastIteration = r.lastIteration;
        out.K_GC.assign(r.K_GC, r.K_GC + r.K_GCLength);
        metaopt_qap_free_run_result(&r);
        lastIteration_ = out.lastIteration;
        return out;
    }

    void setMaxIterations(unsigned n) {
        check("metaopt_qap_set_max_iterations", metaopt_qap_set_max_iterations(h_.get(), n));
    }

    /* The sizes and settings (metaopt_qap_info). */
    MetaoptQapInfo info() const {
        MetaoptQapInfo out{};
        check("metaopt_qap_info", metaopt_qap_info(h_.get(), &out));
        return out;
    }

    /* Throws Error (invalid argument) unless order[0..nElements) is a permutation of
     * 0..nElements-1. */
    template <typename IORD> void checkValidOrder(const IORD *order) const {
        if (!order)
            throw Error(METAOPT_ERR_NULL_POINTER, "checkValidOrder", "order is NULL");
        std::vector<bool> seen(nElements_, false);
        for (unsigned i = 0; i < nElements_; ++i) {
            auto v = static_cast<unsigned long long>(order[i]);
            if (v >= nElements_ || seen[v])
                invalid("checkValidOrder", "order[" + std::to_string(i) + "] = " + std::to_string(v) +
                                               (v >= nElements_ ? " is out of range 0.." + std::to_string(nElements_ - 1)
                                                                : " repeats an earlier entry"));
            seen[v] = true;
        }
    }

    MetaoptQapInstance *get() const noexcept { return h_.get(); }
    unsigned nElements() const noexcept { return nElements_; }
    unsigned nParam() const noexcept { return nParam_; }
    unsigned nBitParam() const noexcept { return nBitParam_; }
    unsigned lastIteration() const noexcept { return lastIteration_; }

  private:
    std::unique_ptr<MetaoptQapInstance, QapDeleter> h_;
    unsigned nElements_ = 0, nParam_ = 0, nBitParam_ = 0, lastIteration_ = 0;
};

} // namespace detail

/* The thesis's QAP solver class (metaopt_qap_params): `swaps` swaps per string (2 * swaps
 * parameters), DF the nSlices stacked nElements x nElements matrices (flows below the diagonal,
 * distances above it), the neighbourhood of Hamming radius maskOrder over the window of endBit
 * bits from startBit (0 = to the end), on device `device` (-1, the default: the device in use;
 * metaopt_qap_params_on_device). See the header comment for EL_TYPE, IORD_TYPE and
 * nBitParam. DF is copied. Move-only; the destructor frees the instance. */
template <typename EL_TYPE, typename IORD_TYPE, typename REAL, typename CC_type> class Params {
    static_assert(std::is_integral_v<EL_TYPE> && std::is_unsigned_v<EL_TYPE> && sizeof(EL_TYPE) <= 4,
                  "EL_TYPE: the library stores one 32-bit word per parameter; use an unsigned type of at most 32 bits");
    static_assert(std::is_integral_v<IORD_TYPE> && std::is_unsigned_v<IORD_TYPE> && !std::is_same_v<IORD_TYPE, bool>,
                  "IORD_TYPE: a permutation entry is an unsigned integral type");
    static_assert(detail::is_df_type<REAL>,
                  "REAL: the C ABI takes DF as int32_t, int64_t, uint32_t, uint64_t, float or double");
    static_assert(std::is_same_v<std::remove_cv_t<decltype(CC_type::REAL_MAX)>, REAL>,
                  "CC_type must be the constants of REAL (CC_float for float, ...)");

  public:
    Params(unsigned swaps, unsigned nElementsIN, unsigned nBitParamIN, const REAL *DF_IN, unsigned nSlicesIN,
           unsigned maskOrder, unsigned startBitIn, unsigned endBit, int device = -1)
        : q_(swaps, nElementsIN, nBitParamIN, DF_IN, detail::df_type_name<REAL>(), nSlicesIN, maskOrder,
             startBitIn, endBit, device) {
        if (q_.nBitParam() > 8 * sizeof(EL_TYPE))
            detail::invalid("metaopt::Params", std::to_string(q_.nBitParam()) + " bits per parameter do not fit EL_TYPE");
        if (q_.nElements() > 0 &&
            (static_cast<unsigned long long>(q_.nElements() - 1) > std::numeric_limits<IORD_TYPE>::max() ||
             q_.nElements() - 1 > UINT16_MAX))
            detail::invalid("metaopt::Params", "nElements - 1 does not fit IORD_TYPE or uint16_t");
    }

    /* Turns the tabu list on with room for maxLength strings (0 turns it off). */
    void initTabuList(unsigned maxLength) { q_.initTabuList(maxLength); }
    /* Parameters of a string: 2 * swaps. */
    unsigned getNParam() const noexcept { return q_.nParam(); }
    unsigned getNElements() const noexcept { return q_.nElements(); }
    /* The best cost of the runs of this object so far; CC_type::REAL_MAX before the first. */
    REAL getBestFitness() const noexcept { return best_; }
    /* Iterations of the last run. */
    unsigned getIterationNum() const noexcept { return q_.lastIteration(); }

    /* One HC12 run from permutation initOrder (nElements entries; NULL = identity) and Gray-coded
     * string initKernel (getNParam() entries; NULL = zeros) to a local optimum (or by the tabu
     * list's limits). The thesis's type rules hold at compile time. */
    template <typename Ftype> Result<Ftype> run(const unsigned short *initOrder, const unsigned *initKernel) {
        static_assert(detail::valid_ftype<Ftype, REAL>,
                      "Ftype and REAL must be both integral or both floating, an integral Ftype not narrower than REAL");
        Result<Ftype> r = q_.template run<Ftype>(initOrder, initKernel);
        REAL f = static_cast<REAL>(r.f);
        if (!runs_ || f < best_)
            best_ = f;
        runs_ = true;
        return r;
    }

    /* Throws Error (invalid argument) unless order holds a permutation of 0..nElements-1. The
     * thesis's unused device pointer argument is gone; besides IORD_TYPE any integral entry type
     * is accepted (e.g. Result::order's unsigned short). */
    template <typename I = IORD_TYPE> void checkValidOrder(const I *order) const {
        static_assert(std::is_integral_v<I>, "a permutation entry is integral");
        q_.checkValidOrder(order);
    }

    /* Library additions: the iteration cap of a plain run, the C settings, the C handle. */
    void setMaxIterations(unsigned n) { q_.setMaxIterations(n); }
    MetaoptQapInfo info() const { return q_.info(); }
    MetaoptQapInstance *handle() const noexcept { return q_.get(); }

  private:
    detail::QapHandle q_;
    REAL best_ = CC_type::REAL_MAX;
    bool runs_ = false;
};

/* The thesis's ParamsInstance: Params with the element and permutation types chosen from
 * nBitParam and nElements. Over the C ABI that choice is always one 32-bit word per parameter
 * and uint16_t permutation entries, so it is Params<uint32_t, uint16_t, REAL, CC_type>. */
template <typename REAL, typename CC_type> class ParamsInstance {
  public:
    ParamsInstance(unsigned swaps, unsigned nElements, unsigned nBitParam, const REAL *DF, unsigned nSlices,
                   unsigned maskOrder, unsigned startBit, unsigned endBit, int device = -1)
        : p_(swaps, nElements, nBitParam, DF, nSlices, maskOrder, startBit, endBit, device) {}

    template <typename Ftype> Result<Ftype> run(const unsigned short *initOrder, const unsigned *initKernel) {
        return p_.template run<Ftype>(initOrder, initKernel);
    }
    void initTabuList(unsigned maxLength) { p_.initTabuList(maxLength); }
    unsigned getNParam() const noexcept { return p_.getNParam(); }
    unsigned getNElements() const noexcept { return p_.getNElements(); }
    REAL getBestFitness() const noexcept { return p_.getBestFitness(); }
    unsigned getIterationNum() const noexcept { return p_.getIterationNum(); }
    template <typename I = uint16_t> void checkValidOrder(const I *order) const { p_.checkValidOrder(order); }
    void setMaxIterations(unsigned n) { p_.setMaxIterations(n); }
    MetaoptQapInfo info() const { return p_.info(); }
    MetaoptQapInstance *handle() const noexcept { return p_.handle(); }

  private:
    Params<uint32_t, uint16_t, REAL, CC_type> p_;
};

/* The thesis's ParamsInstanceDF: not a template; one constructor per DF element type (int32_t,
 * int64_t, uint32_t, uint64_t, float, double), the settings as const members. p_typename is
 * typeid(REAL).name() as in the thesis; df_type_name the C ABI's name of it. nBitParam is the
 * library's (the argument may be 0). */
class ParamsInstanceDF {
  public:
    const std::string p_typename;
    const std::string df_type_name;
    const unsigned swaps, nElements, nBitParam;
    const unsigned nSlices, maskOrder, startBit, endBit;

    ParamsInstanceDF(unsigned swaps_, unsigned nElements_, unsigned nBitParam_, const int32_t *DF, unsigned nSlices_,
                     unsigned maskOrder_, unsigned startBit_, unsigned endBit_)
        : ParamsInstanceDF(typeid(int32_t).name(), "int32", swaps_, nElements_, nBitParam_, DF, nSlices_, maskOrder_,
                           startBit_, endBit_) {}
    ParamsInstanceDF(unsigned swaps_, unsigned nElements_, unsigned nBitParam_, const int64_t *DF, unsigned nSlices_,
                     unsigned maskOrder_, unsigned startBit_, unsigned endBit_)
        : ParamsInstanceDF(typeid(int64_t).name(), "int64", swaps_, nElements_, nBitParam_, DF, nSlices_, maskOrder_,
                           startBit_, endBit_) {}
    ParamsInstanceDF(unsigned swaps_, unsigned nElements_, unsigned nBitParam_, const uint32_t *DF, unsigned nSlices_,
                     unsigned maskOrder_, unsigned startBit_, unsigned endBit_)
        : ParamsInstanceDF(typeid(uint32_t).name(), "uint32", swaps_, nElements_, nBitParam_, DF, nSlices_,
                           maskOrder_, startBit_, endBit_) {}
    ParamsInstanceDF(unsigned swaps_, unsigned nElements_, unsigned nBitParam_, const uint64_t *DF, unsigned nSlices_,
                     unsigned maskOrder_, unsigned startBit_, unsigned endBit_)
        : ParamsInstanceDF(typeid(uint64_t).name(), "uint64", swaps_, nElements_, nBitParam_, DF, nSlices_,
                           maskOrder_, startBit_, endBit_) {}
    ParamsInstanceDF(unsigned swaps_, unsigned nElements_, unsigned nBitParam_, const float *DF, unsigned nSlices_,
                     unsigned maskOrder_, unsigned startBit_, unsigned endBit_)
        : ParamsInstanceDF(typeid(float).name(), "float32", swaps_, nElements_, nBitParam_, DF, nSlices_, maskOrder_,
                           startBit_, endBit_) {}
    ParamsInstanceDF(unsigned swaps_, unsigned nElements_, unsigned nBitParam_, const double *DF, unsigned nSlices_,
                     unsigned maskOrder_, unsigned startBit_, unsigned endBit_)
        : ParamsInstanceDF(typeid(double).name(), "float64", swaps_, nElements_, nBitParam_, DF, nSlices_,
                           maskOrder_, startBit_, endBit_) {}

    /* One run (as Params::run); Ftype is any arithmetic type the cost converts to. */
    template <typename Ftype> Result<Ftype> run(const unsigned short *initOrder, const unsigned *initKernel) {
        static_assert(std::is_arithmetic_v<Ftype>, "Ftype must be arithmetic");
        Result<Ftype> r = q_.template run<Ftype>(initOrder, initKernel);
        double f = static_cast<double>(r.f);
        if (!runs_ || f < best_)
            best_ = f;
        runs_ = true;
        return r;
    }
    void initTabuList(unsigned maxLength) { q_.initTabuList(maxLength); }
    unsigned getNParam() const noexcept { return q_.nParam(); }
    unsigned getNElements() const noexcept { return q_.nElements(); }
    /* The best cost of the runs so far, as a double (+infinity before the first). */
    double getBestFitness() const noexcept { return best_; }
    unsigned getIterationNum() const noexcept { return q_.lastIteration(); }
    template <typename I = uint16_t> void checkValidOrder(const I *order) const {
        static_assert(std::is_integral_v<I>, "a permutation entry is integral");
        q_.checkValidOrder(order);
    }
    void setMaxIterations(unsigned n) { q_.setMaxIterations(n); }
    MetaoptQapInfo info() const { return q_.info(); }
    MetaoptQapInstance *handle() const noexcept { return q_.get(); }

  private:
    ParamsInstanceDF(const char *tn, const char *c_name, unsigned swaps_, unsigned nElements_, unsigned nBitParam_,
                     const void *DF, unsigned nSlices_, unsigned maskOrder_, unsigned startBit_, unsigned endBit_)
        : p_typename(tn), df_type_name(c_name), swaps(swaps_), nElements(nElements_),
          nBitParam(nBitParam_ ? nBitParam_ : (nElements_ >= 2 ? detail::qap_bits(nElements_) : 0)),
          nSlices(nSlices_), maskOrder(maskOrder_), startBit(startBit_), endBit(endBit_),
          q_(swaps_, nElements_, nBitParam_, DF, c_name, nSlices_, maskOrder_, startBit_, endBit_) {}

    detail::QapHandle q_;
    double best_ = std::numeric_limits<double>::infinity();
    bool runs_ = false;
};

// ------------------------------------------------------------------------------------------
// Fitness functors (the thesis's FitnessFunctorInterface, over the C ABI's objectives)

/* An interval [a, b] of one dimension or parameter. */
template <typename FP> struct Interval {
    FP a, b;
};

/* A fitness of DEMultiPop<FP, FPf> (and, with double, double, of HC12). kind() says what the C
 * ABI gets: a catalogue name (name()), OpenCL C source (source(), optional name()) or a host
 * functor (operator(), the default). operator() receives the n_rows x n_dims row-major matrix Y
 * of the trials and writes Fy[0..n_rows); it runs on the thread of the call (iteration, run,
 * init) and may throw, which ends that call with the exception. */
template <typename FP, typename FPf> class FitnessFunctorInterface {
  public:
    virtual ~FitnessFunctorInterface() = default;
    virtual MetaoptObjectiveKind kind() const { return METAOPT_OBJECTIVE_HOST_CALLBACK; }
    /* The catalogue function's name, or a label for the instance's info (may be empty). */
    virtual std::string name() const { return std::string(); }
    /* The OpenCL C source of a device fitness. */
    virtual const char *source() const { return nullptr; }
    virtual void operator()(const FP *Y, FPf *Fy, uint32_t n_rows, uint32_t n_dims) = 0;
};

/* A function of the built-in catalogue by name (docs/specs/FUNCTIONS.md: F1..F12, CEC04..CEC10,
 * CEC04t..CEC10t); evaluated on the device. */
template <typename FP, typename FPf> class CatalogueFitness : public FitnessFunctorInterface<FP, FPf> {
  public:
    explicit CatalogueFitness(std::string name) : name_(std::move(name)) {}
    MetaoptObjectiveKind kind() const override { return METAOPT_OBJECTIVE_CATALOGUE; }
    std::string name() const override { return name_; }
    void operator()(const FP *, FPf *, uint32_t, uint32_t) override {
        throw std::logic_error("a catalogue fitness is evaluated on the device");
    }

  private:
    std::string name_;
};

/* OpenCL C source defining
 *   FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)
 * (component j of the point at x[j * stride]; FP is float or double as the instance's precision,
 * FP_DOUBLE says which; data is the buffer of setFuncData), compiled into the kernels at init
 * (METAOPT_ERR_KERNEL_BUILD with the build log when it does not compile). A NULL source is
 * passed on as NULL, and the library refuses it (METAOPT_ERR_NULL_POINTER). */
template <typename FP, typename FPf> class DeviceFitness : public FitnessFunctorInterface<FP, FPf> {
  public:
    explicit DeviceFitness(const char *source, std::string name = std::string())
        : has_source_(source != nullptr), source_(source ? source : ""), name_(std::move(name)) {}
    explicit DeviceFitness(std::string source, std::string name = std::string())
        : has_source_(true), source_(std::move(source)), name_(std::move(name)) {}
    MetaoptObjectiveKind kind() const override { return METAOPT_OBJECTIVE_SOURCE; }
    std::string name() const override { return name_; }
    const char *source() const override { return has_source_ ? source_.c_str() : nullptr; }
    void operator()(const FP *, FPf *, uint32_t, uint32_t) override {
        throw std::logic_error("a device fitness is evaluated on the device");
    }

  private:
    bool has_source_;
    std::string source_;
    std::string name_;
};

/* A host fitness from any callable f(const FP *Y, FPf *Fy, uint32_t n_rows, uint32_t n_dims). */
template <typename FP, typename FPf> class HostFitness : public FitnessFunctorInterface<FP, FPf> {
  public:
    using Function = std::function<void(const FP *, FPf *, uint32_t, uint32_t)>;
    explicit HostFitness(Function f, std::string name = std::string()) : f_(std::move(f)), name_(std::move(name)) {}
    std::string name() const override { return name_; }
    void operator()(const FP *Y, FPf *Fy, uint32_t n_rows, uint32_t n_dims) override { f_(Y, Fy, n_rows, n_dims); }

  private:
    Function f_;
    std::string name_;
};

/* The thesis's make_fitness_by_name: a catalogue function. The name is checked by the library
 * when the fitness is used (init), which throws Error naming it. */
template <typename FP, typename FPf>
std::unique_ptr<FitnessFunctorInterface<FP, FPf>> make_fitness_by_name(const std::string &name) {
    return std::make_unique<CatalogueFitness<FP, FPf>>(name);
}

namespace detail {

/* The MetaoptObjective of a fitness; a host one gets ctx (filled here) as its user data. The
 * returned struct borrows `name` and the fitness's source. */
template <typename FP, typename FPf>
MetaoptObjective make_objective(FitnessFunctorInterface<FP, FPf> *fit, const std::string &name, CallbackContext *ctx) {
    MetaoptObjective o{};
    if (!fit)
        return o; // the caller passes NULL instead
    o.kind = fit->kind();
    o.function_name = name.empty() ? nullptr : name.c_str();
    if (o.kind == METAOPT_OBJECTIVE_SOURCE) {
        o.source = fit->source();
    } else if (o.kind == METAOPT_OBJECTIVE_HOST_CALLBACK) {
        ctx->error = nullptr;
        ctx->call = [fit, y = std::vector<FP>(), fy = std::vector<FPf>()](const double *x, uint32_t rows,
                                                                          uint32_t dims, double *f) mutable {
            const FP *Y;
            if constexpr (std::is_same_v<FP, double>) {
                Y = x;
            } else {
                y.assign(x, x + static_cast<size_t>(rows) * dims);
                Y = y.data();
            }
            if constexpr (std::is_same_v<FPf, double>) {
                (*fit)(Y, f, rows, dims);
            } else {
                fy.assign(rows, FPf(0));
                (*fit)(Y, fy.data(), rows, dims);
                for (uint32_t r = 0; r < rows; ++r)
                    f[r] = static_cast<double>(fy[r]);
            }
        };
        o.callback = &callback_trampoline;
        o.user_data = ctx;
    }
    return o;
}

} // namespace detail

// ------------------------------------------------------------------------------------------
// General HC12 (a library addition: the thesis's general solver has no C++ class)

/* The general HC12 solver (metaopt_hc12_params): nParam parameters of nBitParam bits (one value
 * for all, or one per parameter) on the intervals dodParam (one for all, or one per parameter),
 * the neighbourhood of Hamming radius maskOrder over the window of bitLength bits from startBit
 * (0 = to the end), the objective reading `domain` (METAOPT_DOMAIN_REAL by default) in
 * `precision`, on device `device` (-1: the device in use; metaopt_hc12_params_on_device). The
 * fitness is borrowed (it must outlive the object) or owned (unique_ptr). */
class HC12 {
  public:
    using Fitness = FitnessFunctorInterface<double, double>;

    HC12(unsigned nParam, const std::vector<uint32_t> &nBitParam, const std::vector<Interval<double>> &dodParam,
         Fitness *fitness, unsigned maskOrder = 2, unsigned startBit = 0, unsigned bitLength = 0,
         MetaoptDomain domain = METAOPT_DOMAIN_REAL, MetaoptPrecision precision = METAOPT_PRECISION_AUTO,
         int device = -1)
        : ctx_(std::make_unique<detail::CallbackContext>()) {
        create(nParam, nBitParam, dodParam, fitness, maskOrder, startBit, bitLength, domain, precision, device);
    }
    HC12(unsigned nParam, const std::vector<uint32_t> &nBitParam, const std::vector<Interval<double>> &dodParam,
         std::unique_ptr<Fitness> fitness, unsigned maskOrder = 2, unsigned startBit = 0, unsigned bitLength = 0,
         MetaoptDomain domain = METAOPT_DOMAIN_REAL, MetaoptPrecision precision = METAOPT_PRECISION_AUTO,
         int device = -1)
        : ctx_(std::make_unique<detail::CallbackContext>()), owned_(std::move(fitness)) {
        create(nParam, nBitParam, dodParam, owned_.get(), maskOrder, startBit, bitLength, domain, precision, device);
    }
    HC12(HC12 &&) noexcept = default;
    HC12 &operator=(HC12 &&o) noexcept {
        if (this != &o) {
            h_.reset(); // free the handle before the callback state it points to
            h_ = std::move(o.h_);
            ctx_ = std::move(o.ctx_);
            owned_ = std::move(o.owned_);
        }
        return *this;
    }
    HC12(const HC12 &) = delete;
    HC12 &operator=(const HC12 &) = delete;

    /* The run options of metaopt_hc12_default_run_options (runs, seed, start, coding, sense...). */
    static MetaoptHc12RunOptions defaultRunOptions() { return metaopt_hc12_default_run_options(); }

    /* The result of run(). */
    struct RunResult {
        double value = 0;                   // the best objective value
        std::vector<uint32_t> string;       // its string (Gray-coded under GC: the thesis's K_GC)
        std::vector<uint32_t> integers;     // its decoded integers
        std::vector<double> reals;          // its real parameters
        uint32_t iterations = 0;            // iterations of the best run
        uint64_t evaluations = 0;           // rows evaluated over all runs
        double seconds = 0;
        std::vector<double> run_values;     // the best value of each run
        std::vector<uint32_t> run_iterations;
        int32_t stop_reason = 0;            // a MetaoptStopReason
        int32_t precision = 0;              // the MetaoptPrecision used
        bool interrupted = false;           // metaopt_interrupt or the stop token ended it
    };

    RunResult run(const MetaoptHc12RunOptions &options = defaultRunOptions()) {
        if (ctx_)
            ctx_->error = nullptr;
        MetaoptHc12RunResult r = metaopt_hc12_run(h_.get(), &options);
        if (r.error_code != METAOPT_OK && r.error_code != METAOPT_INTERRUPTED) {
            char *m = r.error_message;
            r.error_message = nullptr;
            metaopt_hc12_free_run_result(&r);
            if (r.error_code == METAOPT_ERR_CALLBACK) {
                try {
                    detail::rethrow_callback(ctx_.get());
                } catch (...) {
                    metaopt_pointer_free(m);
                    throw;
                }
            }
            detail::raise("metaopt_hc12_run", r.error_code, m);
        }
        RunResult out;
        out.value = r.value;
        out.string.assign(r.string, r.string + r.nParam);
        out.integers.assign(r.integers, r.integers + r.nParam);
        out.reals.assign(r.reals, r.reals + r.nParam);
        out.iterations = r.iterations;
        out.evaluations = r.evaluations;
        out.seconds = r.seconds;
        out.run_values.assign(r.run_values, r.run_values + r.runs);
        out.run_iterations.assign(r.run_iterations, r.run_iterations + r.runs);
        out.stop_reason = r.stop_reason;
        out.precision = r.precision;
        out.interrupted = r.error_code == METAOPT_INTERRUPTED;
        metaopt_hc12_free_run_result(&r);
        return out;
    }

    void initTabuList(unsigned maxLength) {
        detail::check("metaopt_hc12_init_tabu_list", metaopt_hc12_init_tabu_list(h_.get(), maxLength));
    }
    void setTabuOptions(const MetaoptTabuOptions &o) {
        detail::check("metaopt_hc12_set_tabu_options", metaopt_hc12_set_tabu_options(h_.get(), &o));
    }
    /* The data buffer of a DeviceFitness (the thesis's func-data); bytes copied. */
    void setFuncData(const void *data, size_t bytes) {
        detail::check("metaopt_hc12_func_data", metaopt_hc12_func_data(h_.get(), data, bytes));
    }
    std::string info() const { return detail::check("metaopt_hc12_info", metaopt_hc12_info(h_.get())); }
    MetaoptHc12Instance *handle() const noexcept { return h_.get(); }

  private:
    void create(unsigned nParam, const std::vector<uint32_t> &nBitParam, const std::vector<Interval<double>> &dod,
                Fitness *fitness, unsigned maskOrder, unsigned startBit, unsigned bitLength, MetaoptDomain domain,
                MetaoptPrecision precision, int device) {
        if (startBit > static_cast<unsigned>(INT32_MAX) || bitLength > static_cast<unsigned>(INT32_MAX))
            detail::invalid("metaopt::HC12", "startBit and bitLength must be below 2^31");
        std::vector<double> pairs;
        for (const auto &i : dod) {
            pairs.push_back(i.a);
            pairs.push_back(i.b);
        }
        const std::string name = fitness ? fitness->name() : std::string();
        MetaoptObjective o = detail::make_objective(fitness, name, ctx_.get());
        MetaoptHc12ParamsResult r = metaopt_hc12_params_on_device(
            nParam, nBitParam.empty() ? nullptr : nBitParam.data(), static_cast<uint32_t>(nBitParam.size()),
            pairs.empty() ? nullptr : pairs.data(), static_cast<uint32_t>(pairs.size()), maskOrder,
            static_cast<int32_t>(startBit), static_cast<int32_t>(bitLength), domain, precision,
            static_cast<int32_t>(device), fitness ? &o : nullptr);
        if (r.error_code != METAOPT_OK)
            detail::raise("metaopt_hc12_params", r.error_code, r.error_message);
        metaopt_pointer_free(r.error_message);
        h_.reset(r.instance);
    }

    // declared before h_: destroyed after it, so the handle never outlives its callback state
    std::unique_ptr<detail::CallbackContext> ctx_;
    std::unique_ptr<Fitness> owned_;
    std::unique_ptr<MetaoptHc12Instance, detail::Hc12Deleter> h_;
};

// ------------------------------------------------------------------------------------------
// Island DE: DEMultiPop (thesis 5.2.1)

enum class DEMutation { DE_rand_1, DE_best_1, DE_rand_2, DE_best_2, DE_current_to_rand_1, DE_current_to_best_1 };

enum class DEBoundsCorrection {
    Uniform,                         // uni
    CompleteOnesidedTruncatedNormal, // COTN
    HalfwayToViolatedBounds,         // HVB
    Mirror,                          // mir
    Saturation,                      // sat
    Toroidal                         // tor
};

struct DEMigration {
    enum class Type { None, One2One, RandTarget, PermuteN, One2N, N2One, N2N };
    int period;
    Type type;
    DEMigration(int period_, Type type_) : period(period_), type(type_) {}
    /* Whether migration happens after generation iteration_number (1-based). */
    bool is_period(int iteration_number) const {
        return type != Type::None && period > 0 && iteration_number > 0 && iteration_number % period == 0;
    }
};

inline const char *name_of(DEMutation m) {
    switch (m) {
    case DEMutation::DE_rand_1: return "DE/rand/1";
    case DEMutation::DE_best_1: return "DE/best/1";
    case DEMutation::DE_rand_2: return "DE/rand/2";
    case DEMutation::DE_best_2: return "DE/best/2";
    case DEMutation::DE_current_to_rand_1: return "DE/current-to-rand/1";
    case DEMutation::DE_current_to_best_1: return "DE/current-to-best/1";
    }
    return "?";
}

inline const char *name_of(DEMigration::Type t) {
    switch (t) {
    case DEMigration::Type::None: return "None";
    case DEMigration::Type::One2One: return "One2One";
    case DEMigration::Type::RandTarget: return "RandTarget";
    case DEMigration::Type::PermuteN: return "PermuteN";
    case DEMigration::Type::One2N: return "One2N";
    case DEMigration::Type::N2One: return "N2One";
    case DEMigration::Type::N2N: return "N2N";
    }
    return "?";
}

inline const char *name_of(DEBoundsCorrection b) {
    switch (b) {
    case DEBoundsCorrection::Uniform: return "uni";
    case DEBoundsCorrection::CompleteOnesidedTruncatedNormal: return "COTN";
    case DEBoundsCorrection::HalfwayToViolatedBounds: return "HVB";
    case DEBoundsCorrection::Mirror: return "mir";
    case DEBoundsCorrection::Saturation: return "sat";
    case DEBoundsCorrection::Toroidal: return "tor";
    }
    return "?";
}

/* name: DE/rand/1, DE/best/1, DE/rand/2, DE/best/2, DE/current-to-rand/1, DE/current-to-best/1;
 * another throws Error (invalid argument). */
inline DEMutation DEMutation_by_name(const std::string &name) {
    for (auto m : {DEMutation::DE_rand_1, DEMutation::DE_best_1, DEMutation::DE_rand_2, DEMutation::DE_best_2,
                   DEMutation::DE_current_to_rand_1, DEMutation::DE_current_to_best_1})
        if (name == name_of(m))
            return m;
    detail::invalid("DEMutation_by_name", "unknown mutation `" + name + "`");
}

/* name: None, One2One, RandTarget, PermuteN, One2N, N2One, N2N. */
inline DEMigration::Type DEMigration_by_name(const std::string &name) {
    using T = DEMigration::Type;
    for (auto t : {T::None, T::One2One, T::RandTarget, T::PermuteN, T::One2N, T::N2One, T::N2N})
        if (name == name_of(t))
            return t;
    detail::invalid("DEMigration_by_name", "unknown migration `" + name + "`");
}

/* name: uni, COTN, HVB, mir, sat, tor. */
inline DEBoundsCorrection DEBoundsCorrection_by_name(const std::string &name) {
    using B = DEBoundsCorrection;
    for (auto b : {B::Uniform, B::CompleteOnesidedTruncatedNormal, B::HalfwayToViolatedBounds, B::Mirror,
                   B::Saturation, B::Toroidal})
        if (name == name_of(b))
            return b;
    detail::invalid("DEBoundsCorrection_by_name", "unknown bounds correction `" + name + "`");
}

/* The thesis's OptionsDict (Table 3) as named optional fields: an unset field keeps the
 * library's default (in the constructor) or the current value (in init's update). Defaults:
 * F linspace 0.1..1.5, CR 0.5, seeds 123, 345, 457, 581. The last three fields are the
 * library's additions (MetaoptDeOptions). */
struct OptionsDict {
    std::optional<std::string> F_coefs_mode;   // "linspace" (F from min to max over the populations) or "const_min"
    std::optional<double> F_coefs_min;
    std::optional<double> F_coefs_max;
    std::optional<std::string> CR_coefs_mode;  // "const" (the only mode)
    std::optional<double> CR_coef_const;
    std::optional<uint64_t> init_rng_seed;
    std::optional<uint64_t> mutation_rng_seed;
    std::optional<uint64_t> crossover_rng_seed;
    std::optional<uint64_t> migration_rng_seed;
    std::optional<bool> shared_random;         // populations share mutation/crossover random numbers
    std::optional<MetaoptBackend> backend;     // the device in use (default) or the CPU backend
    std::optional<int32_t> device;             // the device number (default -1: the device in use)
    std::optional<bool> fused;                 // the fused kernel between migrations (default on)
    std::optional<std::string> selection;      // "ties" (f(trial) <= f(target), the default) or "strict" (<, the thesis's)
    std::optional<std::string> algorithm;      // "de" (the default), "jade", "shade", "lshade", "jso" (docs/specs/DE.md, Adaptive DE), "jde100" (jDE100)
    std::optional<uint64_t> lshade_budget;     // L-SHADE's and jSO's evaluations per population
    std::optional<uint32_t> jde_small;         // jDE100: members of the small population (25); the rest are the big one
    std::optional<double> jde_eps;             // jDE100: restart when > 25 % are within eps of the best (1e-16)
    std::optional<uint64_t> jde_age;           // jDE100: the big population's age limit in evaluations (0: none)
};

/* The result of DEMultiPop::run. */
template <typename FP, typename FPf> struct DEResult {
    FPf value = 0;            // the best value over all populations
    std::vector<FP> x;        // its vector
    uint32_t island = 0;      // the population that holds it
    uint64_t generations = 0; // since init
    uint64_t evaluations = 0;
    double seconds = 0;
    int32_t stopped_by = 0;   // a MetaoptDeStopReason
    bool interrupted = false;
    double violation = 0;     // the best point's constraint violation (0: feasible; setConstraints)
};

/* The thesis's island DE (metaopt_de_*): n_populations populations of n_members members in n_dims
 * dimensions, limits and bound corrections per dimension (or one for all). FP float or double is
 * the storage precision (X and Y), FPf float or double the fitness precision (Fx and Fy: stored,
 * compared and returned in it). Move-only;
 * the destructor frees the instance. */
template <typename FP, typename FPf> class DEMultiPop {
    static_assert(std::is_same_v<FP, float> || std::is_same_v<FP, double>,
                  "FP: the library computes in float (METAOPT_PRECISION_SINGLE) or double (METAOPT_PRECISION_DOUBLE)");
    static_assert(std::is_same_v<FPf, float> || std::is_same_v<FPf, double>, "FPf must be float or double");

  public:
    using Fitness = FitnessFunctorInterface<FP, FPf>;

    DEMultiPop(unsigned n_populations, unsigned n_members, unsigned n_dims, const std::vector<Interval<FP>> &limits_in,
               const std::vector<DEBoundsCorrection> &bounds_correction_in, const OptionsDict &options = OptionsDict{})
        : ctx_(std::make_unique<detail::CallbackContext>()), n_populations_(n_populations), n_members_(n_members),
          n_dims_(n_dims), options_(metaopt_de_default_options()) {
        options_.precision = std::is_same_v<FP, double> ? METAOPT_PRECISION_DOUBLE : METAOPT_PRECISION_SINGLE;
        options_.fitness_precision =
            std::is_same_v<FPf, double> ? METAOPT_PRECISION_DOUBLE : METAOPT_PRECISION_SINGLE;
        apply(options, "metaopt::DEMultiPop");
        std::vector<double> pairs;
        for (const auto &i : limits_in) {
            pairs.push_back(static_cast<double>(i.a));
            pairs.push_back(static_cast<double>(i.b));
        }
        std::string bounds;
        for (auto b : bounds_correction_in)
            bounds += (bounds.empty() ? "" : ",") + std::string(name_of(b));
        MetaoptDeCreateResult r = metaopt_de_create(n_populations, n_members, n_dims, pairs.empty() ? nullptr : pairs.data(),
                                                    static_cast<uint32_t>(pairs.size()),
                                                    bounds_correction_in.empty() ? nullptr : bounds.c_str(), &options_);
        if (r.error_code != METAOPT_OK)
            detail::raise("metaopt_de_create", r.error_code, r.error_message);
        metaopt_pointer_free(r.error_message);
        h_.reset(r.instance);
    }
    DEMultiPop(DEMultiPop &&) noexcept = default;
    DEMultiPop &operator=(DEMultiPop &&o) noexcept {
        if (this != &o) {
            h_.reset(); // free the handle before the callback state it points to
            h_ = std::move(o.h_);
            ctx_ = std::move(o.ctx_);
            owned_ = std::move(o.owned_);
            n_populations_ = o.n_populations_;
            n_members_ = o.n_members_;
            n_dims_ = o.n_dims_;
            options_ = o.options_;
        }
        return *this;
    }
    DEMultiPop(const DEMultiPop &) = delete;
    DEMultiPop &operator=(const DEMultiPop &) = delete;

    /* Sets the fitness (borrowed: it must outlive this object or the next init), the mutation
     * and the migration, updates the options, and makes and evaluates a new initial population.
     * A DeviceFitness is compiled now. */
    void init(Fitness *fitness_func_ptr_in, DEMutation mutation_in, DEMigration migration_in,
              const OptionsDict &optionsUpdate = OptionsDict{}) {
        const MetaoptDeOptions old = options_;
        try {
            apply(optionsUpdate, "DEMultiPop::init");
            if (migration_in.period < 0)
                detail::invalid("DEMultiPop::init", "the migration period must be >= 0");
            if (!ctx_)
                ctx_ = std::make_unique<detail::CallbackContext>(); // a moved-from object
            const std::string name = fitness_func_ptr_in ? fitness_func_ptr_in->name() : std::string();
            MetaoptObjective o = detail::make_objective(fitness_func_ptr_in, name, ctx_.get());
            MetaoptInt32Result r =
                metaopt_de_init(h_.get(), fitness_func_ptr_in ? &o : nullptr, name_of(mutation_in),
                                name_of(migration_in.type), static_cast<uint32_t>(migration_in.period), &options_);
            callback_check("metaopt_de_init", r);
        } catch (...) {
            options_ = old; // an invalid update changes nothing, as in the C ABI
            throw;
        }
    }
    /* init with a fitness the object owns from now on. */
    void init(std::unique_ptr<Fitness> fitness, DEMutation mutation_in, DEMigration migration_in,
              const OptionsDict &optionsUpdate = OptionsDict{}) {
        init(fitness.get(), mutation_in, migration_in, optionsUpdate);
        owned_ = std::move(fitness);
    }

    /* One generation; returns the generation number since init. */
    unsigned iteration() {
        if (ctx_)
            ctx_->error = nullptr;
        return static_cast<unsigned>(callback_check("metaopt_de_iteration", metaopt_de_iteration(h_.get())));
    }

    static MetaoptDeStop defaultStop() { return metaopt_de_default_stop(); }

    /* Generations until a condition of stop holds (a library addition: the loop in one call). */
    DEResult<FP, FPf> run(const MetaoptDeStop &stop) {
        if (ctx_)
            ctx_->error = nullptr;
        MetaoptDeRunResult r = metaopt_de_run(h_.get(), &stop);
        if (r.error_code != METAOPT_OK && r.error_code != METAOPT_INTERRUPTED) {
            char *m = r.error_message;
            r.error_message = nullptr;
            metaopt_de_free_run_result(&r);
            rethrow_or_raise("metaopt_de_run", r.error_code, m);
        }
        DEResult<FP, FPf> out;
        out.value = static_cast<FPf>(r.value);
        out.x.assign(r.x, r.x + r.dims);
        out.island = r.island;
        out.generations = r.generations;
        out.evaluations = r.evaluations;
        out.seconds = r.seconds;
        out.stopped_by = r.stopped_by;
        out.interrupted = r.error_code == METAOPT_INTERRUPTED;
        out.violation = r.violation;
        metaopt_de_free_run_result(&r);
        return out;
    }
    /* run with only a generation count. */
    DEResult<FP, FPf> run(uint64_t generations) {
        MetaoptDeStop s = defaultStop();
        s.generations = generations;
        return run(s);
    }

    /* The constraints of a DeviceFitness (a library addition; metaopt_de_set_constraints), from
     * the next init on: its OpenCL `void constraints(x, dims, stride, data, FP *c)` writes
     * c.inequalities values g <= 0, then c.equalities values |h| <= c.eq_tol; c.handling 0 is
     * Deb's feasibility rules, 1 the epsilon level (start from metaopt_default_constraints()).
     * run() then returns the best feasible point, else the least violation, with its violation. */
    void setConstraints(const MetaoptConstraints &c) {
        detail::check("metaopt_de_set_constraints", metaopt_de_set_constraints(h_.get(), &c));
    }
    /* No constraints from the next init on. */
    void clearConstraints() {
        detail::check("metaopt_de_set_constraints", metaopt_de_set_constraints(h_.get(), nullptr));
    }

    /* The best fitness of every population. */
    std::vector<FPf> getBestsFitness() {
        return detail::check<FPf>("metaopt_de_bests_fitness", metaopt_de_bests_fitness(h_.get()));
    }
    /* The mean and the standard deviation of every member's value, {mean, std}: scipy's
       convergence test is std <= atol + tol * |mean|. */
    std::vector<double> getSpread() {
        return detail::check<double>("metaopt_de_spread", metaopt_de_spread(h_.get()));
    }
    /* The best member of population p. */
    std::vector<FP> getBest(unsigned p) { return detail::check<FP>("metaopt_de_best", metaopt_de_best(h_.get(), p)); }
    /* Member m of population p. */
    std::vector<FP> getX(unsigned p, unsigned m) {
        return detail::check<FP>("metaopt_de_x", metaopt_de_x(h_.get(), p, m));
    }
    /* Prints the best fitness of every population and the best solution. */
    void printBests(std::ostream &os = std::cout) {
        std::vector<FPf> bests = getBestsFitness();
        size_t best = 0;
        os << "population bests:";
        for (size_t p = 0; p < bests.size(); ++p) {
            os << ' ' << bests[p];
            if (bests[p] < bests[best])
                best = p;
        }
        os << "\nbest: " << (bests.empty() ? FPf(0) : bests[best]) << " in population " << best << " at";
        if (!bests.empty())
            for (FP v : getBest(static_cast<unsigned>(best)))
                os << ' ' << v;
        os << '\n';
    }
    /* The data buffer of a DeviceFitness (func-data); the population is evaluated again. */
    void setFuncData(const void *data, size_t bytes) {
        detail::check("metaopt_de_func_data", metaopt_de_func_data(h_.get(), data, bytes));
    }
    std::string info() const { return detail::check("metaopt_de_info", metaopt_de_info(h_.get())); }

    unsigned getNPopulations() const noexcept { return n_populations_; }
    unsigned getNMembers() const noexcept { return n_members_; }
    unsigned getNDims() const noexcept { return n_dims_; }
    MetaoptDeInstance *handle() const noexcept { return h_.get(); }

  private:
    /* Writes the set fields of o into options_. */
    void apply(const OptionsDict &o, const char *call) {
        if (o.F_coefs_mode) {
            if (*o.F_coefs_mode == "linspace")
                options_.f_const = 0;
            else if (*o.F_coefs_mode == "const_min")
                options_.f_const = 1;
            else
                detail::invalid(call, "F_coefs_mode must be linspace or const_min, not `" + *o.F_coefs_mode + "`");
        }
        if (o.CR_coefs_mode && *o.CR_coefs_mode != "const")
            detail::invalid(call, "CR_coefs_mode must be const, not `" + *o.CR_coefs_mode + "`");
        if (o.F_coefs_min) options_.f_min = *o.F_coefs_min;
        if (o.F_coefs_max) options_.f_max = *o.F_coefs_max;
        if (o.CR_coef_const) options_.cr = *o.CR_coef_const;
        if (o.init_rng_seed) options_.init_seed = *o.init_rng_seed;
        if (o.mutation_rng_seed) options_.mutation_seed = *o.mutation_rng_seed;
        if (o.crossover_rng_seed) options_.crossover_seed = *o.crossover_rng_seed;
        if (o.migration_rng_seed) options_.migration_seed = *o.migration_rng_seed;
        if (o.shared_random) options_.shared_random = *o.shared_random ? 1 : 0;
        if (o.backend) options_.backend = *o.backend;
        if (o.device) options_.device = *o.device;
        if (o.fused) options_.fused = *o.fused ? 1 : 0;
        if (o.selection) {
            if (*o.selection == "ties")
                options_.selection = METAOPT_DE_SELECTION_TIES;
            else if (*o.selection == "strict")
                options_.selection = METAOPT_DE_SELECTION_STRICT;
            else
                detail::invalid(call, "selection must be ties or strict, not `" + *o.selection + "`");
        }
        if (o.algorithm) {
            static const char *const names[] = {"de", "jade", "shade", "lshade", "jso", "jde100"}; // MetaoptDeAlgorithm order
            int found = -1;
            for (int i = 0; i < 6; ++i)
                if (*o.algorithm == names[i]) found = i;
            if (found < 0) detail::invalid(call, "algorithm must be de, jade, shade, lshade, jso or jde100, not `" + *o.algorithm + "`");
            options_.algorithm = found;
        }
        if (o.lshade_budget) options_.lshade_budget = *o.lshade_budget;
        if (o.jde_small) options_.jde_small = *o.jde_small;
        if (o.jde_eps) options_.jde_eps = *o.jde_eps;
        if (o.jde_age) options_.jde_age = *o.jde_age;
    }

    [[noreturn]] void rethrow_or_raise(const char *call, int32_t code, char *message) {
        if (code == METAOPT_ERR_CALLBACK) {
            try {
                detail::rethrow_callback(ctx_.get());
            } catch (...) {
                metaopt_pointer_free(message);
                throw;
            }
        }
        detail::raise(call, code, message);
    }

    int32_t callback_check(const char *call, MetaoptInt32Result r) {
        if (r.error_code != METAOPT_OK)
            rethrow_or_raise(call, r.error_code, r.error_message);
        metaopt_pointer_free(r.error_message);
        return r.result;
    }

    // declared before h_: destroyed after it, so the handle never outlives its callback state
    std::unique_ptr<detail::CallbackContext> ctx_;
    std::unique_ptr<Fitness> owned_;
    std::unique_ptr<MetaoptDeInstance, detail::DeDeleter> h_;
    unsigned n_populations_, n_members_, n_dims_;
    MetaoptDeOptions options_;
};

} // namespace metaopt

#endif /* METAOPT_HPP */
