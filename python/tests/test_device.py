"""Device functions over metaopt_get/set_device_number, metaopt_device_count/info."""

import pytest

import metaopt
from metaopt import ErrorCode, MetaoptError


def test_device_list_and_selection():
    n = metaopt.device_count()
    assert n >= 1
    devs = metaopt.devices()
    assert [d.index for d in devs] == list(range(n))
    for d in devs:
        assert d.kind in ("gpu", "accelerator", "cpu", "other")
        assert d.name and d.platform and d.version.startswith("OpenCL")
        assert d.global_mem_bytes > 0 and d.compute_units >= 1 and d.max_work_group_size >= 1
    # GPUs first, then accelerators, then CPUs
    order = {"gpu": 0, "accelerator": 1, "cpu": 2, "other": 3}
    assert [order[d.kind] for d in devs] == sorted(order[d.kind] for d in devs)
    before = metaopt.get_device_number()
    assert 0 <= before < n
    assert metaopt.set_device_number(n - 1) == n - 1
    assert metaopt.get_device_number() == n - 1
    metaopt.set_device_number(before)
    assert metaopt.is_mem_space_valid() is True


def test_device_errors():
    n = metaopt.device_count()
    with pytest.raises(MetaoptError) as e:
        metaopt.set_device_number(n)
    assert e.value.code == ErrorCode.INVALID_ARGUMENT and str(n) in e.value.message
    with pytest.raises(MetaoptError) as e:
        metaopt.device_info(n + 5)
    assert e.value.code == ErrorCode.INVALID_ARGUMENT
    with pytest.raises(ValueError, match="device_number must be"):
        metaopt.set_device_number(-1)
    with pytest.raises(TypeError, match="device_number must be an integer"):
        metaopt.set_device_number("0")


def test_metaopt_error_is_informative():
    e = MetaoptError(14, "callback failed with status 3", "metaopt_hc12_run")
    assert e.code is ErrorCode.CALLBACK and e.message == "callback failed with status 3"
    assert str(e) == "metaopt_hc12_run: callback failed with status 3 (error 14, CALLBACK)"
    assert MetaoptError(999, "x").code == 999


def test_thesis_names_are_the_same_functions():
    # thesis 000's Python API: get/set_cuda_device_number and is_mem_space_valid
    assert metaopt.get_cuda_device_number is metaopt.get_device_number
    assert metaopt.set_cuda_device_number is metaopt.set_device_number
    before = metaopt.get_cuda_device_number()
    assert metaopt.set_cuda_device_number(before) == before
    assert metaopt.get_device_number() == before
    assert metaopt.is_mem_space_valid() is True
    with pytest.raises(ValueError, match="device_number must be"):
        metaopt.set_cuda_device_number(-1)
    # the thesis's QAP module held the three functions: metaopt.qap has them too
    from metaopt import device as device_module, qap as qap_module
    assert qap_module.is_mem_space_valid is metaopt.is_mem_space_valid is device_module.is_mem_space_valid
    assert qap_module.get_cuda_device_number is metaopt.get_device_number
    assert qap_module.set_cuda_device_number is metaopt.set_device_number
    assert qap_module.is_mem_space_valid() is True
