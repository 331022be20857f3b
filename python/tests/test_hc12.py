"""HC12 (general solver): catalogue, OpenCL C and Python objectives, the thesis's Table 1
operations, callback errors, argument checks and handles."""

import ctypes
import gc
import weakref

import numpy as np
import pytest

import metaopt
from metaopt import HC12, ErrorCode, MetaoptError, Source

SPHERE_CL = """
FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)
{
    FP s = 0;
    for (uint j = 0; j < dims; ++j) s += x[j * stride] * x[j * stride];
    return s;
}
"""


def sphere(X):
    return (X**2).sum(axis=1)


def test_catalogue_f1_reaches_zero():
    # F1 (sphere) on [-5.12, 5.12]: the grid point nearest 0 is 5.12 / 65535 away per axis
    with HC12(10, 16, [-5.12, 5.12], "F1", double=True) as h:
        r = h.run(runs=2, seed=3)
    assert r.value < 1e-6, r
    assert r.x.shape == (10,) and np.all(np.abs(r.x) < 1e-3)
    assert abs(r.value - np.sum(r.reals**2)) <= 1e-12
    assert r.run_values.shape == (2,) and r.value == r.run_values.min()
    assert r.iterations == r.run_iterations[np.argmin(r.run_values)] and r.evaluations > 0


def test_catalogue_source_and_python_callable_give_the_same_run():
    opts = dict(runs=2, seed=9)
    with HC12(6, 12, [-5.12, 5.12], "F1", double=True) as h:
        want = h.run(**opts)
    with HC12(6, 12, [-5.12, 5.12], Source(SPHERE_CL, "sphere"), double=True) as h:
        assert "sphere" in h.info
        assert h.run(**opts) == want
    calls = []

    def counted(X):
        calls.append(X.shape)
        return sphere(X)

    with HC12(6, 12, [-5.12, 5.12], counted, double=True) as h:
        got = h.run(**opts)
        assert "host callback `test_catalogue_source_and_python_callable_give_the_same_run.<locals>.counted`" in h.info
    assert (got.string.tolist(), got.iterations, got.run_iterations.tolist()) == (
        want.string.tolist(), want.iterations, want.run_iterations.tolist())
    assert abs(got.value - want.value) <= 1e-12
    # one call per evaluated neighbourhood, each a (rows, 6) matrix
    assert len(calls) >= sum(got.run_iterations) and all(c[1] == 6 for c in calls)
    rows = 1 + 72 + 72 * 71 // 2
    assert calls[-1] == (rows, 6)


def test_integer_domain_with_func_data_and_binary_maximum():
    # params:noR: the objective reads the decoded integers; the target comes through func-data
    code = """FP objective_u(__global const uint *v, uint dims, uint stride, __global const void *data)
{
    __global const uint *t = (__global const uint *)data;
    FP s = 0;
    for (uint j = 0; j < dims; ++j) s += fabs((FP)v[j * stride] - (FP)t[j]);
    return s;
}"""
    with HC12(3, 8, [0, 1], Source(code, "distance to target"), domain="integer") as h:
        h.func_data(np.array([37, 5, 200], dtype=np.uint32))
        assert "func-data: 12 bytes" in h.info and "params:noR" in h.info
        r = h.run(runs=4, coding="BC")
        assert (r.value, r.x.tolist(), r.string.tolist()) == (0.0, [37, 5, 200], [37, 5, 200])
        h.func_data(bytes(np.array([1, 2, 3], dtype=np.uint32)))
        assert h.run(runs=4).x.tolist() == [1, 2, 3]
        h.func_data_clean()
        assert "func-data: 0 bytes" in h.info
    # a Python objective over bit strings, maximised from zeros: OneMax
    ones = lambda B: np.array([sum(bin(int(v)).count("1") for v in row) for row in B], dtype=float)
    with HC12(4, 6, [0, 1], ones, domain="binary") as h:
        r = h.run(sense="max", start="zeros")
        assert (r.value, r.string.tolist()) == (24.0, [63] * 4)


def test_start_vector_tabu_profiler_and_verbose(capfd):
    with HC12(3, 10, [-511, 512], "F1", double=True) as h:
        r = h.run(start=[0.2, -0.3, 0.0])
        assert (r.value, r.reals.tolist(), r.integers.tolist(), r.iterations) == (0.0, [0.0] * 3, [511] * 3, 1)
    with HC12(5, 10, [-5.12, 5.12], "F6", double=True) as h:
        plain = h.run(seed=3)
        h.init_tabu_list(50)
        h.set_tabu_options(max_iterations=300, max_no_improve=40)
        assert h.run(seed=3) == plain  # without taboo the list is ignored
        tabu = h.run(seed=3, taboo=True)
        assert tabu.iterations > plain.iterations and tabu.value <= plain.value
        assert "tabu list: 50 strings" in h.info
        with pytest.raises(MetaoptError) as e:
            h.profiler_output()
        assert e.value.code == ErrorCode.INVALID_ARGUMENT
        h.profiler_on()
        h.kernel_verbose(True)
        r = h.run(runs=1, seed=1)
        h.kernel_verbose(False)
        prof = h.profiler_output()
        line = next(l for l in prof.splitlines() if l.startswith("hc12g_eval "))
        assert int(line.split("launches=")[1].split()[0]) == r.iterations + 1
    assert "hc12g_eval" in capfd.readouterr().err  # the verbose launches went to stderr


class Boom(Exception):
    pass


def test_an_exception_in_the_objective_is_re_raised():
    calls = []

    def failing(X):
        calls.append(1)
        if len(calls) == 3:
            raise Boom("third call")
        return sphere(X)

    h = HC12(2, 8, [0, 1], failing)
    with pytest.raises(Boom, match="third call") as e:
        h.run()
    assert isinstance(e.value.__cause__, MetaoptError) and e.value.__cause__.code == ErrorCode.CALLBACK
    assert len(calls) == 3, "the run ends at the failing call"
    # the instance stays usable; a NaN or a wrong shape is an error naming the objective
    calls.clear()
    calls.extend([1] * 10)
    assert h.run().value >= 0
    h.free()
    with HC12(2, 8, [0, 1], lambda X: np.full(len(X), np.nan)) as h:
        with pytest.raises(ValueError, match="objective returned NaN for row 0"):
            h.run()
    with HC12(2, 8, [0, 1], lambda X: np.zeros(3)) as h:
        with pytest.raises(ValueError, match=r"objective must return \d+ values"):
            h.run()


def test_the_callback_lives_as_long_as_the_instance():
    def make():
        return HC12(3, 8, [-1, 1], lambda X: np.abs(X).sum(axis=1))

    h = make()
    gc.collect()  # nothing but the instance holds the lambda and its ctypes callback
    assert h.run(runs=2).value == pytest.approx(3 * (1 / 255), abs=1e-6)
    ref, fin = weakref.ref(h), h._finalizer
    del h
    gc.collect()
    assert ref() is None and not fin.alive


def test_argument_errors_name_the_argument():
    with pytest.raises(ValueError, match="n_bit_param must have 1 or 3 entries"):
        HC12(3, [8, 8], [0, 1], "F1")
    with pytest.raises(ValueError, match="n_bit_param values must be 1..32"):
        HC12(3, 33, [0, 1], "F1")
    with pytest.raises(ValueError, match="dod_param must have 2 or 6 entries"):
        HC12(3, 8, [0, 1, 2], "F1")
    with pytest.raises(ValueError, match="dod_param contains NaN"):
        HC12(3, 8, [0, np.nan], "F1")
    with pytest.raises(ValueError, match=r"dod_param row 1 is \[2.0, 1.0\]"):
        HC12(3, 8, [[0, 1], [2, 1], [0, 1]], "F1")
    with pytest.raises(ValueError, match="domain must be"):
        HC12(3, 8, [0, 1], "F1", domain="complex")
    with pytest.raises(TypeError, match="objective must be"):
        HC12(3, 8, [0, 1], 42)
    with HC12(3, 8, [0, 1], "F1") as h:
        with pytest.raises(ValueError, match="start must have 3 entries"):
            h.run(start=[0.5, 0.5])
        with pytest.raises(ValueError, match="start contains NaN"):
            h.run(start=[0.5, np.nan, 0.5])
        with pytest.raises(ValueError, match="coding must be"):
            h.run(coding="gray")
        # the thesis lists GCi but never defines it; refused, saying so
        with pytest.raises(ValueError, match="does not define it"):
            h.run(coding="GCi")
        with pytest.raises(ValueError, match="runs must be"):
            h.run(runs=0)
        with pytest.raises(TypeError, match="data must be bytes"):
            h.func_data("text")
        with pytest.raises(MetaoptError) as e:
            h.func_data(b"1234")  # a catalogue function has no data buffer
        assert e.value.code == ErrorCode.INVALID_ARGUMENT
    with pytest.raises(MetaoptError) as e:
        HC12(3, 8, [0, 1], "NoSuchFunction")
    assert e.value.code == ErrorCode.INVALID_ARGUMENT and "NoSuchFunction" in e.value.message
    with pytest.raises(MetaoptError) as e:
        HC12(3, 8, [0, 1], Source("FP objective(this does not compile"))
    assert e.value.code == ErrorCode.KERNEL_BUILD


def test_forged_and_freed_handles():
    h = HC12(2, 8, [0, 1], "F1")
    real = h._handle
    fake = (ctypes.c_uint64 * 256)()
    h._handle = ctypes.cast(fake, type(real))
    for call in (h.run, lambda: h.info, h.profiler_on, lambda: h.init_tabu_list(5)):
        with pytest.raises(MetaoptError) as e:
            call()
        assert e.value.code == ErrorCode.INVALID_ARGUMENT and "not a live MetaoptHc12Instance" in e.value.message
    assert all(w == 0 for w in fake)
    h._handle = real
    h.free()
    with pytest.raises(ValueError, match="HC12: the instance was freed"):
        h.run()
    h._handle = real
    with pytest.raises(MetaoptError, match="freed already"):
        h.run()
    h._handle = None


def test_option_names_strings_and_objective_values_are_checked():
    with pytest.raises(TypeError, match=r"domain must be one of 'binary', 'integer', 'real', .* \(a str\), got list"):
        HC12(3, 8, [0, 1], "F1", domain=["real"])
    with pytest.raises(ValueError, match=r"^objective contains a NUL character \(at byte 2\)"):
        HC12(3, 8, [0, 1], "F1\0junk")
    with pytest.raises(ValueError, match=r"^objective\.code contains a NUL character \(at byte 0\)"):
        HC12(3, 8, [0, 1], Source("\0" + SPHERE_CL))
    with HC12(3, 8, [0, 1], "F1") as h:
        with pytest.raises(TypeError, match=r"coding must be one of 'GC', 'BC' \(a str\), got list \['GC'\]"):
            h.run(coding=["GC"])
        with pytest.raises(TypeError, match=r"sense must be one of 'min', 'max' \(a str\), got dict \{\}"):
            h.run(sense={})
        with pytest.raises(ValueError, match=r"sense must be one of 'min', 'max', got 'minimum'"):
            h.run(sense="minimum")
    # a Python objective returns real numbers: no strings parsed, no imaginary parts dropped
    for bad, dtype in ((lambda X: [str(v) for v in sphere(X)], "<U"), (lambda X: sphere(X) + 0j, "complex128")):
        with HC12(3, 8, [0, 1], bad) as h:
            with pytest.raises(TypeError, match=rf"the objective's return value must hold numbers .*got dtype {dtype}"):
                h.run()
