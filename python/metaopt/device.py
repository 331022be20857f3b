"""Device selection and listing (``metaopt_get/set_device_number``, ``metaopt_device_*``)."""

import ctypes
from dataclasses import dataclass

from . import _checks, _lib
from ._errors import check_int

KINDS = {0: "gpu", 1: "accelerator", 2: "cpu", 3: "other"}


@dataclass
class DeviceInfo:
    index: int
    kind: str
    platform: str
    name: str
    vendor: str
    version: str
    global_mem_bytes: int
    local_mem_bytes: int
    max_alloc_bytes: int
    compute_units: int
    max_work_group_size: int
    fp64: bool


def get_device_number():
    """The device in use: set by ``set_device_number``, else ``METAOPT_DEVICE``, else 0."""
    return check_int(_lib.lib().metaopt_device_get_number(), "metaopt_device_get_number")


def set_device_number(device_number):
    """Chooses the device for instances made from now on."""
    n = _checks.integer("device_number", device_number, 0, 2**31 - 1)
    return check_int(_lib.lib().metaopt_device_set_number(n), "metaopt_device_set_number")


# The thesis's Python names (its CUDA-era API, thesis 000, 5.2.2): the same functions.
get_cuda_device_number = get_device_number
set_cuda_device_number = set_device_number


def is_mem_space_valid():
    """False after a device failure that may have invalidated the context (see
    ``reset_device``)."""
    return bool(_lib.lib().metaopt_device_is_mem_space_valid())


def reset_device():
    """Drops every device context and marks the memory space valid again."""
    check_int(_lib.lib().metaopt_device_reset(), "metaopt_device_reset")


def device_count():
    return check_int(_lib.lib().metaopt_device_count(), "metaopt_device_count")


def device_info(device_number):
    n = _checks.integer("device_number", device_number, 0, 2**31 - 1)
    L = _lib.lib()
    out = _lib.MetaoptDeviceInfo()
    try:
        check_int(L.metaopt_device_info(n, ctypes.byref(out)), "metaopt_device_info")
        text = {}
        for f in ("platform", "name", "vendor", "version"):
            p = getattr(out, f)
            text[f] = ctypes.string_at(p).decode("utf-8", "replace") if p else ""
        return DeviceInfo(
            index=out.index, kind=KINDS.get(out.kind, "other"), global_mem_bytes=out.global_mem_bytes,
            local_mem_bytes=out.local_mem_bytes, max_alloc_bytes=out.max_alloc_bytes, compute_units=out.compute_units,
            max_work_group_size=out.max_work_group_size, fp64=bool(out.fp64), **text,
        )
    finally:
        L.metaopt_device_free_info(ctypes.byref(out))


def devices():
    """Every device, in the library's numbering (GPUs first)."""
    return [device_info(i) for i in range(device_count())]


__all__ = ["DeviceInfo", "get_device_number", "set_device_number", "get_cuda_device_number",
           "set_cuda_device_number", "is_mem_space_valid", "reset_device",
           "device_count", "device_info", "devices"]
