"""metaopt.evaluate: catalogue functions by name at the rows of a NumPy matrix, on the device and
the host (the thesis's geatbx_cec_bundle)."""

import numpy as np
import pytest
from conftest import DATA_ROOT

import metaopt
from metaopt import ErrorCode, MetaoptError


def shift(k, dims):
    """The first dims values of the CEC 2019 shift o_k (data/cec2019/shift_data_k.txt)."""
    return np.array((DATA_ROOT / "cec2019" / f"shift_data_{k}.txt").read_text().split()[:dims], dtype=np.float64)


@pytest.mark.parametrize("k", range(4, 11))
@pytest.mark.parametrize("dims", [2, 10])
def test_transformed_cec_functions_are_one_at_their_shift(k, dims):
    # the CEC 2019 100-Digit Challenge: CECkt(o) = 1 (CEC07t's rounded constant leaves ~1e-13 D)
    o = shift(k, dims)
    X = np.vstack([o, o + 0.5])
    for cpu in (True, False):
        y = metaopt.evaluate(f"CEC{k:02d}t", X, cpu=cpu)
        assert y.shape == (2,) and y.dtype == np.float64
        assert abs(y[0] - 1.0) < 1e-11, (k, dims, cpu, y)
        assert y[1] > 1.0
    assert metaopt.evaluate(f"cec{k:02d}T", o, cpu=True) == pytest.approx(1.0, abs=1e-11)


@pytest.mark.parametrize(
    "name, x, value",
    [
        ("F1", np.zeros(10), 0.0),
        ("F5", np.ones(10), 0.0),
        ("F7", np.full(10, 420.9687462275036), -418.9828872724338 * 10),
        ("F11", [2.7934022086450367, 1.5972325013283601], -4.155809291847785),
        ("CEC09", -np.ones(10), 0.0),
        ("CEC10", np.zeros(10), 0.0),
    ],
)
def test_known_minima(name, x, value):
    for cpu in (True, False):
        assert metaopt.evaluate(name, x, cpu=cpu) == pytest.approx(value, abs=1e-9)


def test_device_equals_cpu_on_random_points():
    rng = np.random.default_rng(24)
    for name, dims in [("F3", 7), ("F8", 10), ("CEC06", 5), ("CEC05t", 10), ("CEC07t", 2), ("CEC09t", 10)]:
        X = rng.uniform(-100, 100, size=(257, dims))
        host = metaopt.evaluate(name, X, cpu=True)
        dev = metaopt.evaluate(name, X)
        single = metaopt.evaluate(name, X, precision="single")
        assert host.shape == dev.shape == (257,)
        np.testing.assert_allclose(dev, host, rtol=1e-12, atol=1e-12, err_msg=name)
        np.testing.assert_allclose(single, host, rtol=1e-3, atol=1e-3, err_msg=name)


def test_inputs_are_converted_and_rows_kept_in_order():
    X = [[1, 2, 3], [0, 0, 0], [-1, 0, 1]]
    np.testing.assert_array_equal(metaopt.evaluate("F1", X, cpu=True), [14.0, 0.0, 2.0])
    Xf = np.asfortranarray(np.array(X, dtype=np.float32))
    np.testing.assert_array_equal(metaopt.evaluate("F1", Xf), [14.0, 0.0, 2.0])
    np.testing.assert_array_equal(metaopt.evaluate("F1", np.array(X)[:, ::2], cpu=True), [10.0, 0.0, 2.0])
    assert metaopt.geatbx_cec_bundle(np.zeros((4, 10)), "CEC05").tolist() == [0.0] * 4


def test_errors_name_their_argument():
    with pytest.raises(MetaoptError) as e:
        metaopt.evaluate("F99", np.zeros((2, 3)))
    assert e.value.code == ErrorCode.INVALID_ARGUMENT and "`function`" in str(e.value)
    with pytest.raises(MetaoptError) as e:
        metaopt.evaluate("CEC05t", np.zeros((2, 3)), cpu=True)
    assert e.value.code == ErrorCode.INVALID_ARGUMENT and "`dims`" in str(e.value) and "D = 2 and D = 10" in str(e.value)
    with pytest.raises(MetaoptError, match="`dims`"):
        metaopt.evaluate("F5", [[1.0], [2.0]])
    with pytest.raises(ValueError, match="X holds a NaN or infinite value at row 1, column 2"):
        metaopt.evaluate("F1", [[0, 0, 0], [0, 0, np.nan]])
    with pytest.raises(ValueError, match="entry 0"):
        metaopt.evaluate("F1", [np.inf, 0])
    with pytest.raises(ValueError, match="at least one point"):
        metaopt.evaluate("F1", np.zeros((0, 3)))
    with pytest.raises(ValueError, match="at least one point"):
        metaopt.evaluate("F1", [])
    with pytest.raises(ValueError, match="2-D"):
        metaopt.evaluate("F1", np.zeros((2, 2, 2)))
    with pytest.raises(TypeError, match="X"):
        metaopt.evaluate("F1", ["a", "b"])
    with pytest.raises(TypeError, match="name"):
        metaopt.evaluate(1, [0.0])
    with pytest.raises(ValueError, match="precision"):
        metaopt.evaluate("F1", [0.0], precision="half")
    with pytest.raises(MetaoptError, match="`precision`"):
        metaopt.evaluate("F1", [0.0], cpu=True, precision="single")
