"""Device selection and listing (``metaopt_get/set_device_number``, ``metaopt_device_*``)."""

import ctypes
from dataclasses import dataclass

from . import _checks, _ffi, _lib
from ._errors import check_int

KINDS = {
    _ffi.METAOPT_DEVICE_GPU: "gpu",
    _ffi.METAOPT_DEVICE_ACCELERATOR: "accelerator",
    _ffi.METAOPT_DEVICE_CPU: "cpu",
    _ffi.METAOPT_DEVICE_OTHER: "other",
}


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
    """False after a failure of the device in use that may have invalidated its context (see
    ``reset_device``; other devices: ``is_device_valid``)."""
    return bool(_lib.lib().metaopt_device_is_mem_space_valid())


def is_device_valid(device=None):
    """False after a failure of device ``device`` (None: the device in use) that may have
    invalidated its context; a failure on one device leaves the others valid."""
    d = _checks.device(device)
    return bool(check_int(_lib.lib().metaopt_device_is_valid(d), "metaopt_device_is_valid"))


def reset_device():
    """Drops the contexts lost to a device failure, so that new instances on those devices get
    new ones; healthy devices and their instances are kept. Instances on a lost context keep
    refusing work: make new ones."""
    check_int(_lib.lib().metaopt_device_reset(), "metaopt_device_reset")


def device_count():
    return check_int(_lib.lib().metaopt_device_count(), "metaopt_device_count")


def device_info(device_number):
    n = _checks.integer("device_number", device_number, 0, 2**31 - 1)
    L = _lib.lib()
    out = _ffi.MetaoptDeviceInfo()
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
           "set_cuda_device_number", "is_mem_space_valid", "is_device_valid", "reset_device",
           "device_count", "device_info", "devices"]
