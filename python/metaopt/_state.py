"""Checkpoints: the whole state of a run (``State``), as ``metaopt_<solver>_save_state`` gives
it and a ``--checkpoint`` file holds it, from which a later run continues as if it had never
stopped. A ``State`` is ``bytes`` (it pickles, compares and writes as such) with a description
of what it is of; solvers take one (or its bytes, or a checkpoint file's path) as ``resume=``."""

import ctypes
import json
import os
import tempfile

from . import _checks, _lib
from ._errors import check, take_string


class State(bytes):
    """A run's checkpoint. ``State.load(path)`` reads a checkpoint file, ``save(path)`` writes
    one (to a temporary name beside it, then renamed), ``info()`` says what it is of (library
    version, solver, problem, options, devices, rank)."""

    @classmethod
    def load(cls, path):
        path = os.fspath(path)
        with open(path, "rb") as f:
            return cls(f.read())

    def save(self, path):
        path = os.fspath(path)
        folder = os.path.dirname(path) or "."
        fd, tmp = tempfile.mkstemp(prefix=".metaopt-", suffix=".part", dir=folder)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(self)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise

    def info(self):
        """The state's header as a dict (its checksum checked): ``library``, ``solver``,
        ``problem``, ``options`` (name, value pairs), ``devices``, ``rank``, ``ranks``."""
        L = _lib.lib()
        buf = (ctypes.c_uint8 * len(self)).from_buffer_copy(self) if len(self) else None
        r = L.metaopt_state_describe(buf, len(self))
        check(r, "metaopt_state_describe")
        return json.loads(take_string(r.text))

    def __repr__(self):
        try:
            i = self.info()
            return f"State({i['solver']}, {i['problem']}, {len(self)} bytes)"
        except Exception:
            return f"State({len(self)} bytes, unreadable)"


def resume_arg(resume, name="resume"):
    """``resume`` as the bytes of a state: a ``State``, bytes, or the path of a checkpoint file;
    None stays None."""
    if resume is None:
        return None
    if isinstance(resume, (bytes, bytearray, memoryview)):
        b = bytes(resume)
    elif isinstance(resume, (str, os.PathLike)):
        b = State.load(resume)
    else:
        raise TypeError(f"{name} must be a metaopt.State, bytes or a checkpoint file's path, "
                        f"got {type(resume).__name__}")
    if not b:
        raise ValueError(f"{name} is empty: not a checkpoint")
    return b


def buffer(b):
    """A ctypes buffer of the bytes ``b`` (kept alive by the caller) and its length."""
    return (ctypes.c_uint8 * len(b)).from_buffer_copy(b), len(b)


def set_checkpoint(o, checkpoint, checkpoint_every, keep):
    """Sets ``o.checkpoint_path`` and ``o.checkpoint_every_s`` of a solver's C options from
    ``checkpoint`` (a path or None) and ``checkpoint_every`` (seconds or None); the path's bytes
    go in ``keep`` (a list the caller keeps until the call returns)."""
    if checkpoint is None:
        if checkpoint_every is not None:
            raise ValueError("checkpoint_every needs a checkpoint path")
        return
    p = ctypes.c_char_p(_checks.c_string("checkpoint", checkpoint, path=True))
    keep.append(p)
    o.checkpoint_path = p
    if checkpoint_every is not None:
        s = _checks.real("checkpoint_every", checkpoint_every)
        if s <= 0:
            raise ValueError(f"checkpoint_every must be positive, got {checkpoint_every}")
        o.checkpoint_every_s = s


def saved(L, fn, handle, where):
    """The ``State`` that ``fn(handle)`` (a ``metaopt_<solver>_save_state``) returns."""
    r = fn(handle)
    check(r, where)
    try:
        return State(ctypes.string_at(r.data, r.length))
    finally:
        L.metaopt_bytes_free_result(ctypes.byref(r))


def load(fn, handle, state, where):
    """Gives ``state`` (see ``resume_arg``) to ``fn(handle, data, length)`` (a
    ``metaopt_<solver>_load_state``)."""
    b = resume_arg(state, "state")
    buf, n = buffer(b)
    check(fn(handle, buf, n), where)
