"""Argument checks whose errors name the argument and say what was expected."""

import numbers
import os
import time

import numpy as np


def integer(name, value, lo=None, hi=None):
    """``value`` as a Python int in ``[lo, hi]``; TypeError/ValueError naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    v = int(value)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        want = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
        raise ValueError(f"{name} must be {want}, got {v}")
    return v


def device(value, name="device"):
    """A device number for the library: None is -1 (the device in use, ``set_device_number``);
    an int is passed on (the library refuses numbers below -1 or past the device list with an
    error naming ``device``)."""
    if value is None:
        return -1
    return integer(name, value, -2**31, 2**31 - 1)


def real(name, value, finite=True):
    """``value`` as a Python float; NaN (and with ``finite`` infinity) is a ValueError."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    v = float(value)
    if v != v:
        raise ValueError(f"{name} is NaN")
    if finite and v in (float("inf"), float("-inf")):
        raise ValueError(f"{name} must be finite, got {v}")
    return v


def time_left(time_limit, started):
    """``time_limit`` seconds less those since ``started`` (a ``time.perf_counter()`` reading):
    the limit left to the run of a one-call function after its set-up, which counts. None and
    values the run refuses or reads as no limit (0, negative) pass unchanged; a spent limit is a
    nanosecond, so the run ends at once with what it has."""
    if time_limit is None:
        return None
    limit = real("time_limit", time_limit)
    if limit <= 0:
        return time_limit
    return max(limit - (time.perf_counter() - started), 1e-9)


def flag(name, value):
    if not isinstance(value, (bool, np.bool_, numbers.Integral)) or int(value) not in (0, 1):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def vector(name, value, dtype, length=None, lengths=None, finite=False):
    """A contiguous 1-D array of ``dtype``. ``length`` (or one of ``lengths``) checks its
    size; integer targets refuse non-integral or out-of-range values; ``finite`` refuses NaN
    and infinity."""
    raw = numeric_array(name, value)
    if raw.ndim != 1:
        if sum(d != 1 for d in raw.shape) > 1:
            raise ValueError(f"{name} must be a vector, got shape {raw.shape}")
        raw = raw.reshape(-1)
    want = [length] if length is not None else lengths
    if want is not None and raw.size not in want:
        expect = " or ".join(str(w) for w in want)
        raise ValueError(f"{name} must have {expect} entries, got {raw.size}")
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        if raw.dtype.kind == "f":
            if not np.all(np.isfinite(raw)):
                raise ValueError(f"{name} contains NaN or infinite values")
            if np.any(raw != np.round(raw)):
                raise ValueError(f"{name} must hold integers")
        info = np.iinfo(dt)
        if raw.size and (raw.min() < info.min or raw.max() > info.max):
            raise ValueError(f"{name} values must lie in {info.min}..{info.max}")
    out = np.ascontiguousarray(raw, dtype=dt)
    if finite and dt.kind == "f" and not np.all(np.isfinite(out)):
        bad = int(np.flatnonzero(~np.isfinite(out))[0])
        raise ValueError(f"{name} contains NaN or infinite values (entry {bad})")
    return out


def numeric_array(name, value):
    """``value`` as a NumPy array of real numbers (bool, integer or float dtype, as it is);
    strings, complex numbers, other objects and ragged lists are a TypeError naming ``name``."""
    try:
        raw = np.asarray(value)
    except Exception as e:  # e.g. ragged lists
        raise TypeError(f"{name} must be array-like: {e}") from None
    if raw.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold numbers (bool, int or float), got dtype {raw.dtype}")
    return raw


def choice(name, value, choices):
    """``choices[value]`` (``choices``: a dict keyed by the accepted names). Another value is a
    ValueError, or for a value that is not a str (unhashable ones included) a TypeError; both
    name ``name`` and list the accepted values."""
    if isinstance(value, str) and value in choices:
        return choices[value]
    accepted = ", ".join(repr(k) for k in choices)
    if isinstance(value, str):
        raise ValueError(f"{name} must be one of {accepted}, got {value!r}")
    raise TypeError(f"{name} must be one of {accepted} (a str), got {type(value).__name__} {value!r}")


def c_string(name, value, path=False):
    """``value`` as the bytes of a C string for the library: a str (with ``path`` also an
    ``os.PathLike``, encoded as the file system does). An embedded NUL, where C would end the
    string early, is a ValueError naming ``name``."""
    if path:
        if not isinstance(value, (str, os.PathLike)):
            raise TypeError(f"{name} must be a str or path, got {type(value).__name__}")
        b = os.fsencode(value)
    else:
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a str, got {type(value).__name__} {value!r}")
        b = value.encode()
    nul = b.find(b"\0")
    if nul >= 0:
        shown = repr(value) if len(repr(value)) <= 80 else repr(value)[:76] + " ..."
        raise ValueError(f"{name} contains a NUL character (at byte {nul}), where the library would "
                         f"end it: {shown}")
    return b


def box(bounds):
    """(n, 2) float64 from ``bounds``, a sequence of (min, max) pairs or an object with
    ``lb``/``ub`` (``scipy.optimize.Bounds``): finite, min < max, errors naming ``bounds``."""
    if hasattr(bounds, "lb") and hasattr(bounds, "ub"):
        lb, ub = np.atleast_1d(np.asarray(bounds.lb, dtype=float)), np.atleast_1d(np.asarray(bounds.ub, dtype=float))
        lb, ub = np.broadcast_arrays(lb, ub)
        b = np.stack([lb, ub], axis=1)
    else:
        if bounds is None or isinstance(bounds, (str, bytes)):
            raise TypeError(f"bounds must be a sequence of (min, max) pairs, got {type(bounds).__name__}")
        b = numeric_array("bounds", bounds).astype(np.float64)
        if b.ndim != 2 or b.shape[1] != 2 or b.shape[0] < 1:
            raise ValueError(f"bounds must be a sequence of (min, max) pairs, one per dimension, got shape {b.shape}")
    if not np.all(np.isfinite(b)):
        raise ValueError("bounds must be finite")
    bad = np.flatnonzero(b[:, 0] >= b[:, 1])
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"bounds[{i}] is ({b[i, 0]}, {b[i, 1]}); expected min < max")
    return np.ascontiguousarray(b)


def stop(s, budget_name, budget, evaluations, target, time_limit):
    """Sets the common fields of a solver's C stop struct ``s`` (``metaopt_<solver>_default_stop()``):
    its budget field ``budget_name`` (generations, steps), ``evaluations``, ``has_target`` and
    ``target``, ``time_limit``; None leaves a field unset. Errors name the argument."""
    if budget is not None:
        setattr(s, budget_name, integer(budget_name, budget, 1, 2**64 - 1))
    if evaluations is not None:
        s.evaluations = integer("evaluations", evaluations, 1, 2**64 - 1)
    if target is not None:
        s.has_target = 1
        s.target = real("target", target, finite=False)
    if time_limit is not None:
        s.time_limit = real("time_limit", time_limit, finite=False)
        if s.time_limit <= 0:
            raise ValueError(f"time_limit must be > 0 seconds, got {s.time_limit}")
    return s
