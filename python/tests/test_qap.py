"""HC12QAP: the thesis's class over metaopt_qap_params/metaopt_qap_run, the iterated solve on the bundled
QAPLIB instances to their best-known values, and its errors."""

import ctypes
import gc

import numpy as np
import pytest

import metaopt
from conftest import DATA, bks
from metaopt import ErrorCode, HC12QAP, MetaoptError


@pytest.fixture(scope="module")
def had12():
    A, B = metaopt.read_qaplib(DATA / "had12.dat")
    return A, B


@pytest.mark.parametrize("name", ["had12", "nug12", "chr12a"])
def test_solves_the_bundled_instances_to_their_best_known_values(name):
    A, B = metaopt.read_qaplib(DATA / f"{name}.dat")
    best = bks()[name]
    n, sln_cost, sln = metaopt.read_solution(DATA / "sln" / f"{name}.sln")
    assert metaopt.qap_cost(A, B, sln) == sln_cost == best  # the host reader agrees with QAPLIB
    with HC12QAP(12, metaopt.df_from_ab(A, B)) as q:
        assert (q.n_elements, q.n_slices, q.n_param, q.n_bit_param) == (12, 1, 24, 4)
        s = q.solve(runs=0, time_limit=60, target=best, seed=5)
        assert s.target_reached and s.cost == best, s
        assert sorted(s.permutation.tolist()) == list(range(n))
        assert metaopt.qap_cost(A, B, s.permutation) == best
        assert s.runs >= 1 and s.evaluations > 0 and s.seconds_to_best <= s.seconds
        assert s.bks is None  # only instances read from a file know their BKS


def test_run_follows_the_thesis_interface(had12):
    A, B = had12
    q = HC12QAP(4, metaopt.df_from_ab(A, B), mask_order=2)
    assert q.zero_kernel.dtype == np.uint32 and q.zero_kernel.tolist() == [0] * 8
    # from the identity with the zero string: a local optimum, its cost that of its order
    r = q.run()
    assert r.order.dtype == np.uint16 and sorted(r.order.tolist()) == list(range(12))
    assert r.cost == metaopt.qap_cost(A, B, r.order) and r.cost >= 1652
    assert r.k.shape == (8,) and r.last_iteration >= 1
    assert q.run(np.arange(12), q.zero_kernel) == r  # None means identity and zeros
    # passing the result back continues from it: already a local optimum, one iteration
    again = q.run(np.arange(12), r.k)
    assert again.cost == r.cost and again.order.tolist() == r.order.tolist() and again.last_iteration == 1
    # the same run on the CPU backend, and with the full cost
    q.set_backend("cpu", "full")
    assert q.info["backend"] == "cpu" and q.info["cost_form"] == "full"
    assert q.run() == r
    q.free()
    q.free()  # harmless twice
    with pytest.raises(ValueError, match="freed"):
        q.run()


def test_element_types_and_slices(had12):
    A, B = had12
    DF = metaopt.df_from_ab(A, B)
    want = HC12QAP(3, DF).run()
    for dtype in ("int32", "uint32", "uint64", "float64", "float32"):
        with HC12QAP(3, DF.astype(dtype)) as q:
            r = q.run()
            assert r.order.tolist() == want.order.tolist(), dtype
            assert r.cost == want.cost and isinstance(r.cost, float if dtype.startswith("float") else int), dtype
    # two equal slices (thesis shape (n, n, nSlices)) double every cost
    with HC12QAP(3, np.stack([DF, DF], axis=2)) as q:
        assert q.n_slices == 2 and q.info["n_slices"] == 2
        r = q.run()
        assert r.cost == 2 * want.cost and r.order.tolist() == want.order.tolist()


def test_from_file_and_from_ab_and_the_tabu_list(had12):
    A, B = had12
    q = HC12QAP.from_file(DATA / "had12.dat", 6)
    assert (q.n_elements, q.n_param, q.info["k_length"], q.info["bits_per_param"]) == (12, 12, 12, 4)
    s = q.solve(runs=0, time_limit=60, target=1652, start="glb")
    assert (s.cost, s.bks, s.gap_percent, s.target_reached) == (1652, 1652, 0.0, True)
    for start in ("hrw", "pe", "ab"):  # projected from the eigenvalue bounds (thesis Table 5)
        s = q.solve(runs=1, start=start)
        assert s.runs == 1 and s.cost >= 1652 and sorted(s.permutation.tolist()) == list(range(12))
    ab = HC12QAP.from_ab(6, A, B)
    assert ab.run().cost == q.run().cost
    plain = ab.run()
    ab.init_tabu_list(50)
    ab.set_tabu_options(max_iterations=200, max_no_improve=30)
    tabu = ab.run()
    assert tabu.cost <= plain.cost and tabu.last_iteration > plain.last_iteration
    assert tabu.cost == metaopt.qap_cost(A, B, tabu.order)
    ab.init_tabu_list(0)
    assert ab.run() == plain
    q.free(), ab.free()


def test_argument_errors_name_the_argument(had12):
    A, B = had12
    DF = metaopt.df_from_ab(A, B)
    with pytest.raises(ValueError, match="DF must be a square matrix"):
        HC12QAP(4, DF[:, :11])
    with pytest.raises(ValueError, match="DF must be a square matrix"):
        HC12QAP(4, np.zeros(12))
    with pytest.raises(TypeError, match="DF has dtype int16"):
        HC12QAP(4, DF.astype(np.int16))
    bad = DF.astype(np.float64)
    bad[3, 5] = np.nan
    with pytest.raises(ValueError, match="DF contains NaN"):
        HC12QAP(4, bad)
    with pytest.raises(ValueError, match="swaps must be 1..64"):
        HC12QAP(0, DF)
    with pytest.raises(ValueError, match="mask_order must be 1..3"):
        HC12QAP(4, DF, mask_order=4)
    with pytest.raises(TypeError, match="swaps must be an integer"):
        HC12QAP(2.5, DF)
    with HC12QAP(4, DF) as q:
        with pytest.raises(ValueError, match="init_order must have 12 entries"):
            q.run(np.arange(11))
        with pytest.raises(ValueError, match="init_order must be a permutation"):
            q.run(np.zeros(12))
        with pytest.raises(ValueError, match="init_kernel must have 8 entries"):
            q.run(None, np.zeros(7))
        with pytest.raises(ValueError, match="init_kernel values must be below 2\\*\\*4"):
            q.run(None, np.full(8, 16))
        with pytest.raises(ValueError, match="start must be one of"):
            q.solve(start="best")
        with pytest.raises(ValueError, match="time_limit is NaN"):
            q.solve(time_limit=float("nan"))
        with pytest.raises(ValueError, match="runs=0"):
            q.solve(runs=0)
        # option values that are no name, unhashable ones included: the argument and its choices
        with pytest.raises(TypeError, match=r"restart must be one of 'rebase', 'random' \(a str\), got list \[1\]"):
            q.solve(restart=[1])
        with pytest.raises(ValueError, match=r"restart must be one of 'rebase', 'random', got 'again'"):
            q.solve(restart="again")
        with pytest.raises(TypeError, match=r"backend must be one of 'device', 'cpu' \(a str\), got list"):
            q.set_backend(["cpu"])
        with pytest.raises(TypeError, match=r"cost_form must be one of 'delta', 'full' \(a str\), got set"):
            q.set_backend("cpu", {"full"})
    # a NUL would end the path early
    with pytest.raises(ValueError, match=r"^path contains a NUL character \(at byte \d+\)"):
        HC12QAP.from_file(str(DATA / "had12.dat") + "\0zzz", 2)


def test_library_errors_carry_code_and_message(had12):
    A, B = had12
    # the library checks what Python does not: a DF with a nonzero diagonal
    DF = metaopt.df_from_ab(A, B)
    DF[2, 2] = 7
    with pytest.raises(MetaoptError) as e:
        HC12QAP(4, DF)
    assert e.value.code == ErrorCode.INVALID_ARGUMENT and e.value.function == "metaopt_qap_params_on_device"
    assert "diagonal element (2,2) is not zero" in e.value.message
    assert isinstance(e.value, RuntimeError)  # as the thesis raised
    with pytest.raises(MetaoptError) as e:
        HC12QAP.from_file(DATA / "no-such.dat", 4)
    assert e.value.code == ErrorCode.IO and "no-such.dat" in e.value.message
    with HC12QAP.from_ab(4, A, B) as q:
        with pytest.raises(MetaoptError) as e:
            q.solve(start="glb")  # only instances from a file have the GLB assignment
        assert e.value.code == ErrorCode.INVALID_ARGUMENT
        with pytest.raises(MetaoptError) as e:
            q.solve(start="ab")
        assert e.value.code == ErrorCode.INVALID_ARGUMENT and "AB" in e.value.message
        with pytest.raises(MetaoptError) as e:
            q.set_tabu_options(max_iterations=5)  # no list yet
        assert e.value.code == ErrorCode.INVALID_ARGUMENT and "metaopt_qap_init_tabu_list" in e.value.message


def test_forged_freed_and_foreign_handles_are_library_errors(had12):
    A, B = had12
    q = HC12QAP(2, metaopt.df_from_ab(A, B))
    real = q._handle
    # zeroed memory that the library never made
    fake = (ctypes.c_uint64 * 64)()
    q._handle = ctypes.cast(fake, type(real))
    with pytest.raises(MetaoptError) as e:
        q.run()
    assert e.value.code == ErrorCode.INVALID_ARGUMENT and "not a live MetaoptQapInstance" in e.value.message
    assert all(w == 0 for w in fake), "a forged handle is never written"
    # a handle of another solver
    sat = metaopt.SAT([[1, 2], [-1]])
    q._handle = ctypes.cast(sat._handle, type(real))
    with pytest.raises(MetaoptError, match="not a live MetaoptQapInstance"):
        q.solve(runs=1)
    sat.free()
    # a freed handle, used again through the raw pointer
    q._handle = real
    q.free()
    q._handle = real
    with pytest.raises(MetaoptError, match="freed already"):
        q.run()
    q._handle = None


def test_instances_are_freed_when_collected(had12):
    A, B = had12
    import weakref

    q = HC12QAP(2, metaopt.df_from_ab(A, B))
    fin = q._finalizer
    ref = weakref.ref(q)
    del q
    gc.collect()
    assert ref() is None and not fin.alive  # metaopt_qap_free ran


def test_more_bits_per_parameter_as_the_thesis_nbitparam(had12):
    # nBitParam above ceil(log2 n) is a longer string whose parameters name position
    # I mod n (the thesis's kernel); below is refused naming nBitParam
    A, B = had12
    DF = metaopt.df_from_ab(A, B)
    q = HC12QAP(3, DF, n_bit_param=6)
    assert q.n_bit_param == 6 and q.info["bits_per_param"] == 6 and q.info["rows"] == 1 + 36 + 36 * 35 // 2
    r = q.run()
    assert sorted(r.order.tolist()) == list(range(12)) and r.cost == metaopt.qap_cost(A, B, r.order)
    q.set_backend("cpu")
    assert q.info["bits_per_param"] == 6 and q.run() == r  # the device and the CPU agree
    q.set_bits_per_param(0)
    assert q.n_bit_param == 4 and q.info["rows"] == 1 + 24 + 24 * 23 // 2
    with pytest.raises(MetaoptError, match="nBitParam") as e:
        q.set_bits_per_param(3)
    assert e.value.code == ErrorCode.INVALID_ARGUMENT
    with pytest.raises(MetaoptError, match="nBitParam"):
        HC12QAP(3, DF, n_bit_param=33)
    q.free()
