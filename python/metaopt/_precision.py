"""The precision of a solver: ``"double"`` (the default) or ``"single"``, with ``double=`` as the
older boolean spelling. Double precision needs a device with fp64 (``cl_khr_fp64``); on a device
without it the solver falls back to single precision and says so (``precision`` and
``precision_note`` of the instance and of its results)."""

from typing import Optional, Tuple

from . import _checks
from ._errors import MetaoptError

PRECISIONS = {"double": True, "single": False}


def requested(precision: Optional[str], double: Optional[bool]) -> str:
    """The precision asked for: ``precision`` (``"double"`` or ``"single"``), or the alias
    ``double`` (True/False); neither gives ``"double"``. Both, disagreeing, is a ValueError."""
    want = None if precision is None else ("double" if _checks.choice("precision", precision, PRECISIONS) else "single")
    if double is not None:
        alias = "double" if _checks.flag("double", double) else "single"
        if want is not None and want != alias:
            raise ValueError(f"precision={precision!r} and double={double!r} disagree; give one of them")
        want = alias
    return want or "double"


def resolve(precision: Optional[str], double: Optional[bool], *, cpu: bool = False,
            device_number: Optional[int] = None) -> Tuple[str, Optional[str]]:
    """(the precision to use, a note when it differs from the one asked for). ``"double"`` on a
    device without fp64 falls back to ``"single"``; the CPU backend always has double."""
    want = requested(precision, double)
    if want == "single" or cpu:
        return want, None
    from .device import device_info, get_device_number  # noqa: PLC0415 (device imports this module's users)

    try:
        n = get_device_number() if device_number is None else device_number
        info = device_info(n)
    except MetaoptError:
        return want, None  # no device to ask: the solver reports its own error
    if not info.fp64:
        return "single", f"device {n} ({info.name}) has no fp64 (cl_khr_fp64): single precision instead of double"
    return want, None
