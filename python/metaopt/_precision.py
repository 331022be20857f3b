"""The precision of a solver with a float choice (island DE, general HC12): ``"auto"`` (the
default, also None), ``"double"`` or ``"single"``, with ``double=True/False`` as the older
boolean spelling. The library resolves it when the solver is made (``MetaoptPrecision``):
``"auto"`` is double where the device has fp64 (``cl_khr_fp64``) and on the CPU backend, else
single; ``"double"`` on a device without fp64 is refused (``MetaoptError``, code
``UNSUPPORTED``). Instances and results report the precision used, as the library says."""

import re
from typing import Optional

from . import _checks, _ffi

# MetaoptPrecision
CODES = {
    "auto": _ffi.METAOPT_PRECISION_AUTO,
    "single": _ffi.METAOPT_PRECISION_SINGLE,
    "double": _ffi.METAOPT_PRECISION_DOUBLE,
}
NAMES = {_ffi.METAOPT_PRECISION_SINGLE: "single", _ffi.METAOPT_PRECISION_DOUBLE: "double"}


def requested(precision: Optional[str], double: Optional[bool]) -> str:
    """The precision asked for: ``precision`` (``"auto"``, ``"double"`` or ``"single"``; None is
    ``"auto"``), or the alias ``double`` (True: ``"double"``, False: ``"single"``). Both,
    disagreeing, is a ValueError."""
    want = None if precision is None else precision
    if want is not None:
        _checks.choice("precision", want, CODES)
    if double is not None:
        alias = "double" if _checks.flag("double", double) else "single"
        if want is not None and want != "auto" and want != alias:
            raise ValueError(f"precision={precision!r} and double={double!r} disagree; give one of them")
        want = alias
    return want or "auto"


def code(want: str) -> int:
    """The ``MetaoptPrecision`` number of a requested precision."""
    return CODES[want]


def name(code_used: int) -> str:
    """``"single"`` or ``"double"`` for the library's reported precision (1 or 2)."""
    return NAMES.get(int(code_used), str(int(code_used)))


def from_info(text: str) -> Optional[str]:
    """The precision an instance's info text names (``precision: double``, or DE's
    ``..., double, F ...`` and ``..., double (fitness float), F ...``), as
    ``"single"``/``"double"``; None when it names none."""
    m = re.search(r"precision: (double|float|single)\b", text) or re.search(r"dimensions, (double|float)[, ]", text)
    if m is None:
        return None
    return "double" if m.group(1) == "double" else "single"


def note(want: str, used: str) -> Optional[str]:
    """A note when ``"auto"`` chose single precision (the device has no fp64), else None."""
    if want == "auto" and used == "single":
        return "precision auto: the device has no fp64 (cl_khr_fp64), so the solver computes in single precision"
    return None


# the fitness precision of the island DE (MetaoptDeOptions.fitness_precision): None is the
# storage precision
FITNESS_CODES = {"single": _ffi.METAOPT_PRECISION_SINGLE, "double": _ffi.METAOPT_PRECISION_DOUBLE}


def fitness_code(fitness: Optional[str]) -> int:
    """The ``MetaoptPrecision`` number of a fitness precision: 0 for None (the storage
    precision), 1 ``"single"``, 2 ``"double"``; another value is an error naming
    ``fitness_precision``."""
    if fitness is None:
        return 0
    return _checks.choice("fitness_precision", fitness, FITNESS_CODES)


def fitness_from_info(text: str, storage: str) -> str:
    """The fitness precision a DE info text names (``double (fitness float)``), else ``storage``."""
    m = re.search(r"\(fitness (double|float)\)", text)
    if m is None:
        return storage
    return "double" if m.group(1) == "double" else "single"
