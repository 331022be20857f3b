"""IslandDE(method=...): the adaptive DE variants (docs/specs/DE.md, "Adaptive DE") through the
Python front end: each solves the sphere, the device and the CPU backend follow the same run,
and bad names are errors naming ``method``."""

import pytest

import metaopt
from metaopt.de import IslandDE


@pytest.mark.parametrize("method", ["jade", "shade", "lshade", "jso"])
def test_each_method_solves_the_sphere_on_device_and_cpu(method):
    runs = []
    for backend in ("device", "cpu"):
        de = IslandDE(1, 20, 5, (-5.12, 5.12), "HVB", method=method, lshade_budget=20 * 300,
                      precision="double", backend=backend)
        de.init("F1")
        r = de.run(generations=300, target=1e-10)
        assert r.value <= 1e-10, (method, backend, r.value)
        assert f"algorithm: {method}" in de.info()
        runs.append((r.generations, r.evaluations))
    assert runs[0] == runs[1]


def test_bad_method_and_missing_budget_name_the_argument():
    with pytest.raises(ValueError, match="method"):
        IslandDE(1, 20, 5, (-1, 1), method="jde")
    with pytest.raises(metaopt.MetaoptError, match="lshade_budget"):
        IslandDE(1, 20, 5, (-1, 1), method="jso", backend="cpu")
    with pytest.raises(ValueError, match="lshade_budget"):
        IslandDE(1, 20, 5, (-1, 1), method="lshade", lshade_budget=-1)


def test_jde100_solves_rastrigin_on_device_and_cpu_and_names_its_options():
    runs = []
    for backend in ("device", "cpu"):
        de = IslandDE(1, 40, 5, (-5.12, 5.12), "HVB", method="jde100", jde_small=8, precision="double",
                      backend=backend)
        de.init("F6")
        r = de.run(generations=2000, target=1e-10)
        assert r.value <= 1e-10, (backend, r.value)
        assert "algorithm: jde100 (big population 32 + small 8 members per island" in de.info()
        runs.append((r.generations, r.evaluations))
    assert runs[0] == runs[1]
    with pytest.raises(metaopt.MetaoptError, match="jde_small"):
        IslandDE(1, 10, 2, (-1, 1), method="jde100", jde_small=3, backend="cpu")
    with pytest.raises(ValueError, match="jde_eps"):
        IslandDE(1, 40, 2, (-1, 1), method="jde100", jde_eps=float("nan"), backend="cpu")
    with pytest.raises(metaopt.MetaoptError, match="jde_eps"):
        IslandDE(1, 40, 2, (-1, 1), method="jde100", jde_eps=-1.0, backend="cpu")
    de = IslandDE(2, 40, 2, (-1, 1), method="jde100", backend="cpu")
    with pytest.raises(metaopt.MetaoptError, match="migration"):
        de.init("F1", migration="N2N", period=5)
