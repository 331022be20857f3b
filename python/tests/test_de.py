"""Island DE (the thesis's DEMultiPop): catalogue, OpenCL C and Python objectives, the device
against the CPU backend, the accessors against each other, stop conditions, callback errors,
argument errors and handles."""

import ctypes
import gc
import weakref

import numpy as np
import pytest

import metaopt
from metaopt import DEResult, ErrorCode, IslandDE, MetaoptError, Source

# the thesis's sphere setting of the C ABI test: F 0.5..0.9 over the islands, CR 0.9, double
FAST = dict(f_min=0.5, f_max=0.9, cr=0.9, double=True)

SHIFTED_SPHERE = """
FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)
{
    FP c = ((__global const FP *)data)[0];
    FP s = 0;
    for (uint j = 0; j < dims; ++j) { FP v = x[j * stride] - c; s += v * v; }
    return s;
}
"""


def sphere(X):
    return (X**2).sum(axis=1)


def test_f1_in_10_dimensions_reaches_1e_8():
    with IslandDE(8, 40, 10, (-5.12, 5.12), "COTN", **FAST) as de:
        assert de.init("F1", "DE/rand/1", "PermuteN", 10) is None
        r = de.run(generations=600, target=1e-8)
        assert isinstance(r, DEResult) and r.stopped_by == "target"
        assert r.value < 1e-8 and r.generations <= 600
        assert r.x.shape == (10,) and r.x.dtype == np.float64 and np.all(np.abs(r.x) < 1e-3)
        assert abs(r.value - np.sum(r.x**2)) <= 1e-15
        assert r.evaluations == 8 * 40 * (r.generations + 1) and r.seconds >= 0
        assert 0 <= r.island < 8
        text = de.info()
        assert "8 populations x 40 members x 10 dimensions" in text and "double" in text
        assert "F1" in text and "PermuteN every 10 generations" in text and "COTN" in text


def test_the_device_and_the_cpu_backend_give_the_same_run():
    got = []
    for backend in ("device", "cpu"):
        with IslandDE(6, 30, 8, (-5.12, 5.12), "COTN", backend=backend, **FAST) as de:
            de.init("F1", "DE/rand/1", "PermuteN", 10)
            assert de.iteration() == 1 and de.iteration() == 2
            r = de.run(generations=500, target=1e-10)
            assert r.stopped_by == "target", r
            got.append((r, de.bests_fitness()))
            assert ("CPU backend" in de.info()) == (backend == "cpu")
    (dev, dev_bests), (cpu, cpu_bests) = got
    assert dev.generations == cpu.generations and dev.island == cpu.island
    np.testing.assert_allclose(dev.x, cpu.x, rtol=0, atol=1e-9)
    np.testing.assert_allclose(dev_bests, cpu_bests, rtol=1e-6, atol=1e-15)


def test_the_fused_kernel_gives_the_run_of_the_per_phase_launches():
    # in double, value for value, migrations included; `fused` is an option like the others
    got = []
    for fused in (True, False):
        with IslandDE(6, 30, 8, (-5.12, 5.12), "COTN", fused=fused, **FAST) as de:
            de.init("F6", "DE/rand/1", "PermuteN", 7)
            r = de.run(generations=60)
            assert ("fused generations" in de.info()) == fused
            got.append((r, de.bests_fitness()))
    (a, a_bests), (b, b_bests) = got
    assert a.generations == b.generations == 60 and a.value == b.value
    np.testing.assert_array_equal(a.x, b.x)
    np.testing.assert_array_equal(a_bests, b_bests)
    with IslandDE(6, 30, 8, (-5.12, 5.12), "COTN", **FAST) as de:
        with pytest.raises(TypeError, match="fused"):
            de.init("F6", "DE/rand/1", "PermuteN", 7, fused="yes")


def test_a_python_callable_gives_the_same_run_as_the_catalogue():
    settings = dict(islands=4, members=20, dims=5, limits=[[-5.12, 5.12]] * 5, bounds="sat")
    with IslandDE(**settings, **FAST) as de:
        de.init("F1", "DE/best/1", "One2N", 5)
        want = de.run(generations=60)
        want_bests = de.bests_fitness()
    calls = []

    def counted(X):
        calls.append(X.shape)
        return sphere(X)

    with IslandDE(**settings, **FAST) as de:
        de.init(counted, "DE/best/1", "One2N", 5)
        assert calls == [(80, 5)], "init evaluates the first population: all islands at once"
        got = de.run(generations=60)
        got_bests = de.bests_fitness()
        assert "host callback" in de.info()
    assert len(calls) == 61 and all(c == (80, 5) for c in calls)
    assert (got.generations, got.evaluations, got.island, got.stopped_by) == (
        want.generations, want.evaluations, want.island, want.stopped_by)
    np.testing.assert_allclose(got_bests, want_bests, rtol=0, atol=1e-9)
    np.testing.assert_allclose(got.x, want.x, rtol=0, atol=1e-9)


def test_the_callable_sees_row_p_times_members_plus_m():
    # the objective is the row's island index: the best of island p is p
    members, islands = 6, 3
    seen = {}

    def island_of(X):
        seen["rows"] = X.shape[0]
        return np.repeat(np.arange(islands, dtype=float), members) + 0 * X[:, 0]

    with IslandDE(islands, members, 2, (0, 1), "sat", double=True, backend="cpu") as de:
        de.init(island_of, "DE/rand/1")
        assert seen["rows"] == islands * members
        assert de.bests_fitness().tolist() == [0.0, 1.0, 2.0]


class Boom(Exception):
    pass


def test_an_exception_in_the_callable_is_re_raised():
    calls = []

    def failing(X):
        calls.append(1)
        if len(calls) == 3:
            raise Boom("third call")
        return sphere(X)

    de = IslandDE(4, 10, 3, (-1, 1), "mir", double=True)
    de.init(failing)
    with pytest.raises(Boom, match="third call") as e:
        de.run(generations=10)
    assert isinstance(e.value.__cause__, MetaoptError) and e.value.__cause__.code == ErrorCode.CALLBACK
    assert len(calls) == 3, "the run ends at the failing call"
    assert de.run(generations=2).generations >= 2  # the instance stays usable
    def fails_at_once(X):
        raise Boom("at init")

    with pytest.raises(Boom, match="at init"):
        de.init(fails_at_once)  # the first populations are evaluated by init
    with pytest.raises(MetaoptError, match="init"):
        de.iteration()  # a failed first evaluation leaves no objective
    with pytest.raises(ValueError, match="objective returned NaN for row 0"):
        de.init(lambda X: np.full(len(X), np.nan))
    with pytest.raises(ValueError, match=r"objective must return 40 values"):
        de.init(lambda X: np.zeros(3))
    de.init(sphere)  # a good objective after failed inits
    assert de.iteration() == 1
    de.free()


def test_an_exception_in_iteration_is_re_raised():
    de = IslandDE(2, 5, 2, (-1, 1), "sat", double=True)
    state = {"fail": False}

    def f(X):
        if state["fail"]:
            raise Boom("in iteration")
        return sphere(X)

    de.init(f)
    assert de.iteration() == 1
    state["fail"] = True
    with pytest.raises(Boom, match="in iteration"):
        de.iteration()
    de.free()


def test_opencl_source_with_func_data():
    with IslandDE(4, 20, 4, (-5, 5), "mir", f_min=0.5, f_max=0.8, cr=0.9, double=True) as de:
        de.init(Source(SHIFTED_SPHERE, "shifted sphere"), "DE/rand/1")
        de.func_data(np.float64([1.5]))
        r = de.run(generations=300)
        assert r.value < 1e-8 and np.all(np.abs(r.x - 1.5) < 1e-3), r
        assert "shifted sphere" in de.info()
        # init evaluates its population without data and empties the buffer: set it after init
        de.init(Source(SHIFTED_SPHERE, "shifted sphere"), "DE/rand/1")
        de.func_data(bytes(np.float64([-2.0])))
        r = de.run(generations=300)
        assert r.value < 1e-8 and np.all(np.abs(r.x + 2.0) < 1e-3), r
        with pytest.raises(TypeError, match="data must be bytes"):
            de.func_data("text")
    with IslandDE(2, 5, 2, (0, 1)) as de:
        with pytest.raises(MetaoptError) as e:
            de.func_data(b"12345678")  # before init
        assert e.value.code == ErrorCode.INVALID_ARGUMENT and "init" in e.value.message
    with IslandDE(2, 5, 2, (0, 1)) as de:
        with pytest.raises(MetaoptError) as e:
            de.init(Source("FP objective(this does not compile"))
        assert e.value.code == ErrorCode.KERNEL_BUILD


def test_bests_best_and_x_agree():
    limits = np.array([[-2.0, 2.0], [-1.0, 1.0], [0.0, 3.0]])
    with IslandDE(4, 12, 3, limits, ["sat", "mir", "HVB"], cr=[0.9, 0.8, 0.7, 0.6], double=True) as de:
        de.init("F1", "DE/current-to-best/1")
        r = de.run(generations=40)
        bests = de.bests_fitness()
        assert bests.shape == (4,) and bests[r.island] == r.value == bests.min()
        np.testing.assert_array_equal(de.best(r.island), r.x)
        for p in range(4):
            b = de.best(p)
            assert b.shape == (3,) and abs(np.sum(b**2) - bests[p]) <= 1e-12
            members = np.array([de.x(p, m) for m in range(12)])
            assert np.all(members >= limits[:, 0]) and np.all(members <= limits[:, 1])
            assert any(np.array_equal(b, x) for x in members), "the best is a member"
            assert np.all(np.sum(members**2, axis=1) >= bests[p] - 1e-12)
        text = de.info()
        assert "bounds: sat,mir,HVB" in text and "CR 0.9 (per population)" in text
        # out of range: errors naming the Python parameters p and m
        with pytest.raises(ValueError, match=r"^p \(population\) must be 0\.\.3, got 4$"):
            de.best(4)
        with pytest.raises(ValueError, match=r"^m \(member\) must be 0\.\.11, got 12$"):
            de.x(0, 12)
        with pytest.raises(ValueError, match=r"^p \(population\) must be 0\.\.3, got 4$"):
            de.x(4, 0)
        with pytest.raises(TypeError, match=r"^m \(member\) must be an integer"):
            de.x(0, 1.5)


def test_stop_conditions_and_options():
    with IslandDE(3, 10, 4, (-1, 1), f_mode="const", f_min=0.6, seeds=(1, 2, 3, 4), shared_random=True,
                  backend="cpu") as de:
        assert "F const 0.6" in de.info()
        de.init("F1", "DE/rand/2", "RandTarget", 3)
        r = de.run(evaluations=150)
        assert (r.stopped_by, r.generations, r.evaluations) == ("evaluations", 5, 180)
        r = de.run(generations=3)
        assert (r.stopped_by, r.generations) == ("budget", 8)
        assert r.stop == r.stopped_by
        r = de.run(time_limit=0.05)
        assert r.stopped_by == "time_limit" and r.generations > 8
        r = de.run(target=1e300)
        assert r.stopped_by == "target"
        # init starts again: generation 0, the same seeds, the same first generations
        de.init("F1", "DE/rand/2", "RandTarget", 3)
        again = de.run(evaluations=150)
        de.init("F1", "DE/rand/2", "RandTarget", 3)
        assert de.run(evaluations=150) == again and again.generations == 5
        with pytest.raises(MetaoptError) as e:
            de.run()
        assert e.value.code == ErrorCode.INVALID_ARGUMENT and "stop" in e.value.message
        with pytest.raises(ValueError, match="time_limit must be > 0"):
            de.run(time_limit=0)
        with pytest.raises(ValueError, match="generations must be"):
            de.run(generations=0)
        with pytest.raises(ValueError, match="target is NaN"):
            de.run(target=float("nan"))


def test_errors_name_the_argument():
    def lib_error(fn, code, word):
        with pytest.raises(MetaoptError) as e:
            fn()
        assert e.value.code == code and word in e.value.message, e.value
        return e.value

    INVALID = ErrorCode.INVALID_ARGUMENT
    # the library's checks, its messages naming the argument
    lib_error(lambda: IslandDE(4, 10, 3, (-1, 1), "bounce"), INVALID, "bounds")
    lib_error(lambda: IslandDE(4, 10, 3, (-1, 1), ["sat", "sat"]), INVALID, "bounds")
    lib_error(lambda: IslandDE(4, 10, 3, (1, 1)), INVALID, "limits")
    lib_error(lambda: IslandDE(4, 10, 2, [[0, 1], [2, -2]]), INVALID, "limits")
    lib_error(lambda: IslandDE(4, 10, 3, (0, np.nan)), INVALID, "limits")
    lib_error(lambda: IslandDE(0, 10, 3, (-1, 1)), INVALID, "islands")
    lib_error(lambda: IslandDE(4, 2, 3, (-1, 1)), INVALID, "members")
    lib_error(lambda: IslandDE(4, 10, 3, (-1, 1), cr=1.5), INVALID, "cr")
    lib_error(lambda: IslandDE(4, 10, 3, (-1, 1), f_max=-1), INVALID, "f_max")
    # shapes and types: Python errors naming the argument
    with pytest.raises(ValueError, match=r"limits must be \(a, b\) or of shape \(dims, 2\) = \(3, 2\), got shape \(2, 2\)"):
        IslandDE(4, 10, 3, [[0, 1], [0, 1]])
    with pytest.raises(ValueError, match="limits must be"):
        IslandDE(4, 10, 2, [[0, 0], [1, 1], [2, 2]])
    with pytest.raises(ValueError, match="limits must be"):
        IslandDE(4, 10, 3, [0, 1, 2])
    with pytest.raises(TypeError, match="limits must hold numbers"):
        IslandDE(4, 10, 3, ["a", "b"])
    with pytest.raises(ValueError, match="cr must have 1 or 4 entries, got 2"):
        IslandDE(4, 10, 3, (-1, 1), cr=[0.5, 0.5])
    with pytest.raises(ValueError, match="cr contains NaN"):
        IslandDE(2, 10, 3, (-1, 1), cr=[0.5, np.nan])
    with pytest.raises(TypeError, match="bounds must be"):
        IslandDE(4, 10, 3, (-1, 1), 5)
    with pytest.raises(ValueError, match="f_mode must be"):
        IslandDE(4, 10, 3, (-1, 1), f_mode="random")
    with pytest.raises(ValueError, match="backend must be"):
        IslandDE(4, 10, 3, (-1, 1), backend="gpu0")
    with pytest.raises(ValueError, match="seeds must be one integer or 4 integers"):
        IslandDE(4, 10, 3, (-1, 1), seeds=(1, 2))
    with pytest.raises(ValueError, match=r"seeds\[1\] \(mutation\) must be"):
        IslandDE(4, 10, 3, (-1, 1), seeds=(1, -2, 3, 4))
    with pytest.raises(TypeError, match="islands must be an integer"):
        IslandDE(4.5, 10, 3, (-1, 1))
    with IslandDE(4, 5, 3, (-1, 1), "sat") as de:
        lib_error(de.iteration, INVALID, "init")
        lib_error(lambda: de.run(generations=1), INVALID, "init")
        lib_error(lambda: de.init("F1", "DE/rand/9"), INVALID, "mutation")
        e = lib_error(lambda: de.init("F1", "DE/rand/2"), INVALID, "members")
        assert "DE/rand/2" in e.message
        lib_error(lambda: de.init("F1", "DE/rand/1", "Ring", 5), INVALID, "migration")
        lib_error(lambda: de.init("F1", "DE/rand/1", "One2One", 0), INVALID, "period")
        lib_error(lambda: de.init("NoSuchFunction"), INVALID, "NoSuchFunction")
        with pytest.raises(TypeError, match="objective must be"):
            de.init(42)
        with pytest.raises(TypeError, match="mutation must be a str"):
            de.init("F1", 1)
        de.init("F1", "DE/best/2", None)  # None: no migration
        assert "migration None" in de.info()


def test_use_after_free_and_forged_handles():
    de = IslandDE(2, 5, 2, (0, 1))
    de.init("F1")
    real = de._handle
    fake = (ctypes.c_uint64 * 64)()
    de._handle = ctypes.cast(fake, type(real))
    for call in (de.iteration, de.info, de.bests_fitness, lambda: de.best(0), lambda: de.run(generations=1)):
        with pytest.raises(MetaoptError) as e:
            call()
        assert e.value.code == ErrorCode.INVALID_ARGUMENT and "not a live MetaoptDeInstance" in e.value.message
    assert all(w == 0 for w in fake)
    de._handle = real
    de.free()
    assert de.freed
    for call in (de.iteration, de.info, de.bests_fitness, lambda: de.x(0, 0), lambda: de.init("F1"),
                 lambda: de.run(generations=1), lambda: de.func_data(b"")):
        with pytest.raises(ValueError, match="IslandDE: the instance was freed"):
            call()
    de.free()  # a second free does nothing
    de._handle = real
    with pytest.raises(MetaoptError, match="freed already"):
        de.iteration()
    de._handle = None
    with pytest.raises(ValueError, match="freed"):
        with de:
            pass


def test_context_manager_and_collection_free_the_instance():
    with IslandDE(2, 5, 2, (0, 1)) as de:
        fin = de._finalizer
        assert fin.alive and not de.freed
    assert de.freed and not fin.alive

    def make():
        # nothing but the instance holds the lambda and its ctypes callback
        de = IslandDE(3, 8, 2, (-1, 1), double=True)
        de.init(lambda X: np.abs(X).sum(axis=1))
        return de

    de = make()
    gc.collect()
    assert de.run(generations=20).value >= 0
    state = weakref.ref(de._callback)
    ref, fin = weakref.ref(de), de._finalizer
    del de
    gc.collect()
    assert ref() is None and not fin.alive and state() is None
    assert metaopt.IslandDE is IslandDE


def test_init_with_an_options_update():
    # the thesis's optionsUpdate: F, CR and the seeds of init run as a solver made with them
    upd = dict(f_mode="const", f_min=0.6, cr=[0.2, 0.9, 0.5, 0.7], seeds=(7, 8, 9, 10))
    with IslandDE(4, 12, 10, (-100, 100), "mir") as a, IslandDE(4, 12, 10, (-100, 100), "mir", **upd) as b:
        a.init("CEC05t")
        a.run(generations=40)
        a.init("CEC05t", "DE/rand/1", "PermuteN", 5, **upd)
        b.init("CEC05t", "DE/rand/1", "PermuteN", 5)
        ra, rb = a.run(generations=40), b.run(generations=40)
        assert ra.value == rb.value and np.array_equal(ra.x, rb.x)
        assert np.array_equal(a.bests_fitness(), b.bests_fitness())
        # a later update keeps the other updated settings
        a.init("CEC05t", "DE/rand/1", "PermuteN", 5, f_min=0.6)
        assert a.run(generations=40).value == ra.value
        with pytest.raises(ValueError, match="double is fixed"):
            a.init("CEC05t", double=True)
        with pytest.raises(TypeError, match="colour"):
            a.init("CEC05t", colour=1)
        with pytest.raises(ValueError, match="cr"):
            a.init("CEC05t", cr=[0.5, 0.5])
        with pytest.raises(MetaoptError) as e:
            a.init("CEC05t", cr=1.5)
        assert e.value.code == ErrorCode.INVALID_ARGUMENT and "cr" in e.value.message
        # the refused updates changed nothing: the run goes on
        assert a.iteration() == 41


def test_func_data_evaluates_the_whole_population_again():
    islands, members = 3, 10
    with IslandDE(islands, members, 4, (-5, 5), "mir", double=True) as de:
        de.init(Source(SHIFTED_SPHERE, "shifted sphere"))
        de.func_data(np.float64([0.0]))
        de.run(generations=5)
        points = np.array([[de.x(p, m) for m in range(members)] for p in range(islands)])
        before = de.bests_fitness()
        np.testing.assert_allclose(before, (points**2).sum(axis=2).min(axis=1), rtol=1e-12)
        evaluations = de.run(generations=1).evaluations  # generation 6
        points = np.array([[de.x(p, m) for m in range(members)] for p in range(islands)])
        # new data: every member is evaluated again at once, no generation passes
        de.func_data(np.float64([3.0]))
        moved = np.array([[de.x(p, m) for m in range(members)] for p in range(islands)])
        assert np.array_equal(moved, points), "the members stay"
        new_bests = ((points - 3.0) ** 2).sum(axis=2).min(axis=1)
        np.testing.assert_allclose(de.bests_fitness(), new_bests, rtol=1e-12)
        for p in range(islands):
            assert abs(((de.best(p) - 3.0) ** 2).sum() - new_bests[p]) <= 1e-12
        assert "generation 6," in de.info()
        r = de.run(generations=1)
        assert r.generations == 7
        assert r.evaluations == evaluations + 2 * islands * members, "func_data evaluated them all"
        assert r.value <= new_bests.min()


def test_cr_one_value_or_one_per_population():
    runs = []
    for cr in (0.3, [0.3], np.float64([0.3]), [0.3] * 4):
        with IslandDE(4, 10, 3, (-1, 1), "sat", cr=cr, double=True, backend="cpu") as de:
            assert "CR 0.3" in de.info()
            de.init("F1")
            runs.append(de.run(generations=20))
    assert all(r == runs[0] for r in runs[1:])
    with IslandDE(1, 10, 3, (-1, 1), cr=[0.3]) as de:
        assert "CR 0.3" in de.info()
    with pytest.raises(ValueError, match="cr must have 1 or 2 entries, got 3"):
        IslandDE(2, 10, 3, (-1, 1), cr=[0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match=r"cr contains NaN \(entry 0\)"):
        IslandDE(2, 10, 3, (-1, 1), cr=[np.nan])
    with IslandDE(2, 10, 3, (-1, 1)) as de:
        de.init("F1", cr=[0.7])
        assert "CR 0.7" in de.info()
        with pytest.raises(MetaoptError, match="cr"):
            de.init("F1", cr=[1.5])


def test_option_names_strings_and_objective_values_are_checked():
    # option values that are no name, unhashable ones included: the argument and its choices
    with pytest.raises(TypeError, match=r"backend must be one of 'device', 'cpu' \(a str\), got list \['cpu'\]"):
        IslandDE(2, 8, 3, (-1, 1), backend=["cpu"])
    with pytest.raises(TypeError, match=r"f_mode must be one of 'linspace', 'const_min', 'const', 'dither' \(a str\), got dict"):
        IslandDE(2, 8, 3, (-1, 1), f_mode={})
    with pytest.raises(ValueError, match=r"f_mode must be one of 'linspace', 'const_min', 'const', 'dither', got 'Const'"):
        IslandDE(2, 8, 3, (-1, 1), f_mode="Const")
    # a NUL would end the C string early
    with pytest.raises(ValueError, match=r"bounds contains a NUL character \(at byte 3\)"):
        IslandDE(2, 8, 3, (-1, 1), "sat\0mir")
    with IslandDE(2, 8, 3, (-1, 1), backend="cpu") as de:
        for kwargs, name, at in ((dict(objective="F1\0junk"), "objective", 2),
                                 (dict(objective="F1", mutation="DE/rand/1\0xyz"), "mutation", 9),
                                 (dict(objective="F1", migration="N2N\0"), "migration", 3),
                                 (dict(objective=Source("\0garbage")), r"objective\.code", 0),
                                 (dict(objective=Source(SHIFTED_SPHERE, "a\0b")), r"objective\.name", 1)):
            with pytest.raises(ValueError, match=rf"^{name} contains a NUL character \(at byte {at}\)"):
                de.init(**kwargs)
        with pytest.raises(TypeError, match="mutation must be a str, got bytes"):
            de.init("F1", b"DE/rand/1")
        with pytest.raises(MetaoptError, match="init"):
            de.iteration()  # none of them reached the library
        # a Python objective returns real numbers: no strings parsed, no imaginary parts dropped
        for bad, dtype in ((lambda X: [str(v) for v in sphere(X)], "<U"),
                           (lambda X: sphere(X) + 1j, "complex128"),
                           (lambda X: [None] * len(X), "object")):
            with pytest.raises(TypeError, match=rf"the objective's return value must hold numbers .*got dtype {dtype}"):
                de.init(bad)
        for good in (lambda X: sphere(X) > 1, lambda X: [int(v) for v in sphere(X)]):  # bools, ints
            de.init(good)
            value = de.run(generations=2).value
            assert value == int(value)


STEP = """
FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)
{
    FP s = 0;
    for (uint j = 0; j < dims; ++j) s += floor(fabs(x[j * stride]));
    return s;
}
"""


def _members(de):
    return np.array([[de.x(p, m) for m in range(de.members)] for p in range(de.islands)])


@pytest.mark.parametrize("backend", ["device", "cpu"])
def test_strict_and_ties_selection_differ_on_a_plateau(backend):
    # on a step function trials often tie their targets; `ties` (f(y) <= f(x), the
    # default) lets them replace the targets, `strict` (f(y) < f(x), the thesis's
    # DEMULTIPOP_FITNESS_COPY_BETTER_Y2X) does not
    moved, finals = {}, {}
    for rule in ("ties", "strict"):
        with IslandDE(2, 10, 3, (-4, 4), "sat", f_min=0.3, f_max=0.9, cr=0.9, double=True, backend=backend,
                      selection=rule) as de:
            de.init(Source(STEP))
            assert f"selection: {rule}" in de.info()
            moved[rule] = 0
            for _ in range(12):
                before, fb = _members(de), de.bests_fitness()
                de.iteration()
                after = _members(de)
                moved[rule] += int(np.any(after != before, axis=2).sum())
                assert np.all(de.bests_fitness() <= fb)  # both rules never lose a best
                # every member's value is that of its vector, under both rules
                for p in range(2):
                    for m in range(10):
                        assert np.floor(np.abs(after[p, m])).sum() >= de.bests_fitness()[p]
            finals[rule] = _members(de)
    assert moved["ties"] > moved["strict"]
    assert not np.array_equal(finals["ties"], finals["strict"])


def test_selection_is_an_option_of_init_and_checked():
    with IslandDE(2, 6, 2, (-1, 1), double=True) as de:
        de.init("F1")
        assert "selection: ties (f(trial) <= f(target))" in de.info()
        de.init("F1", selection="strict")
        assert "selection: strict (f(trial) < f(target))" in de.info()
        with pytest.raises(ValueError, match="selection"):
            de.init("F1", selection="loose")
    with pytest.raises(ValueError, match="selection"):
        IslandDE(2, 6, 2, (-1, 1), selection="<")


@pytest.mark.parametrize("backend", ["device", "cpu"])
def test_fitness_precision_is_separate_from_the_storage_precision(backend):
    # the thesis's DEMultiPop<FP, FPf>: X and Y in `precision`, the values in `fitness_precision`
    runs = {}
    for storage, fitness in (("double", None), ("double", "single"), ("single", "double")):
        with IslandDE(4, 12, 4, (-3, 3), precision=storage, fitness_precision=fitness, backend=backend,
                      selection="strict", shared_random=True, **{k: v for k, v in FAST.items() if k != "double"}) as de:
            de.init("F1")
            assert de.precision == storage
            assert de.fitness_precision == (fitness or storage)
            r = de.run(generations=20)
            assert (r.precision, r.fitness_precision) == (storage, fitness or storage)
            values = de.bests_fitness()
            floats = np.array_equal(values.astype(np.float32).astype(np.float64), values)
            if fitness == "single":
                assert floats and r.value == float(np.float32(r.value))
            runs[storage, fitness] = (r, values)
    assert not np.array_equal(runs["double", None][1].astype(np.float32).astype(np.float64), runs["double", None][1])


def test_fitness_precision_on_device_equals_the_cpu_backend():
    # double storage, single fitness: the CPU backend rounds the values as the device stores them
    got = []
    for backend in ("device", "cpu"):
        with IslandDE(4, 12, 4, (-3, 3), "mir", precision="double", fitness_precision="single", backend=backend,
                      **{k: v for k, v in FAST.items() if k != "double"}) as de:
            de.init("F1")
            de.run(generations=25)
            got.append(de.bests_fitness())
    assert np.array_equal(got[0], got[1])


def test_fitness_precision_is_checked_and_fixed():
    for bad in ("half", "auto", "float"):
        with pytest.raises(ValueError, match="fitness_precision"):
            IslandDE(2, 6, 2, (-1, 1), fitness_precision=bad)
    with pytest.raises(TypeError, match="fitness_precision"):
        IslandDE(2, 6, 2, (-1, 1), fitness_precision=2)
    with IslandDE(2, 6, 2, (-1, 1), precision="double", fitness_precision="single") as de:
        assert "double (fitness float)" in de.info()
        with pytest.raises(ValueError, match="fitness_precision is fixed"):
            de.init("F1", fitness_precision="double")


def test_the_thesis_option_names():
    # F_coefs_mode const_min, CR_coefs_mode const, CR_coef_const and the four seeds, as Table 3
    thesis = dict(F_coefs_mode="const_min", F_coefs_min=0.6, CR_coefs_mode="const", CR_coef_const=0.8,
                  init_rng_seed=7, mutation_rng_seed=8, crossover_rng_seed=9, migration_rng_seed=10)
    ours = dict(f_mode="const", f_min=0.6, cr=0.8, seeds=(7, 8, 9, 10))
    runs = []
    for opts in (thesis, ours, dict(f_mode="const_min", f_min=0.6, cr=0.8, seeds=(7, 8, 9, 10))):
        with IslandDE(4, 12, 4, (-3, 3), double=True, **opts) as de:
            de.init("F1")
            assert "F const 0.6" in de.info() and "CR 0.8" in de.info()
            runs.append(de.run(generations=30))
    assert runs[0] == runs[1] == runs[2]
    # as an options update of init too
    with IslandDE(4, 12, 4, (-3, 3), double=True) as de:
        de.init("F1", **thesis)
        assert de.run(generations=30) == runs[0]
    with pytest.raises(ValueError, match="CR_coefs_mode"):
        IslandDE(2, 6, 2, (-1, 1), CR_coefs_mode="linspace")
    with pytest.raises(TypeError, match="same option"):
        IslandDE(2, 6, 2, (-1, 1), cr=0.7, CR_coef_const=0.8)
    with pytest.raises(TypeError, match="same option"):
        with IslandDE(2, 6, 2, (-1, 1)) as de:
            de.init("F1", f_min=0.2, F_coefs_min=0.3)
    with pytest.raises(TypeError, match="unexpected option"):
        IslandDE(2, 6, 2, (-1, 1), F_coefs_mean=0.3)


def test_print_bests_prints_every_population_and_the_best(capsys):
    import io
    with IslandDE(3, 8, 2, (-2, 2), double=True) as de:
        de.init("F1")
        de.run(generations=5)
        de.print_bests()
        out = capsys.readouterr().out
        bests = de.bests_fitness()
        p = int(np.argmin(bests))
        want = ("population bests:" + "".join(f" {v:g}" for v in bests) + "\n"
                + f"best: {bests[p]:g} in population {p} at" + "".join(f" {v:g}" for v in de.best(p)) + "\n")
        assert out == want
        buf = io.StringIO()
        de.printBests(file=buf)  # the thesis's name
        assert buf.getvalue() == want
