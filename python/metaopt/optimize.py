"""``metaopt.minimize``: a ``scipy.optimize``-shaped entry point to island DE (``method="de"``) and
general HC12 (``method="hc12"``), returning an ``OptimizeResult``.

Like ``scipy.optimize.differential_evolution``: ``fun(x, *args) -> float`` is called once per
point (``x`` a float64 vector of ``len(bounds)``), or with ``vectorized=True`` once per generation
with ``x`` of shape ``(n, S)`` (one column per point) returning ``S`` values; ``bounds`` is a
sequence of ``(min, max)`` pairs or a ``scipy.optimize.Bounds``; ``seed`` an integer (or None);
``tol``/``atol`` scipy's convergence test ``std(E) <= atol + tol * |mean(E)|`` on the energies
``E`` of the population; ``callback(intermediate_result)`` is called between generations and
stops the solver by returning True or raising ``StopIteration``.
"""

import inspect
import math
import numbers
import re
import time
import warnings
from typing import Any, Callable, Dict, Optional, Sequence, Tuple, Union

import numpy as np

from . import _checks, _interrupt, _precision
from ._interrupt import Interrupted
from ._objective import Source
from .de import IslandDE, de_seeds
from .catalogue import evaluate as _evaluate
from .device import device_info, get_device_number
from .hc12 import HC12

__all__ = ["OptimizeResult", "minimize"]

_METHODS = ("de", "jade", "shade", "lshade", "jso", "jde100", "hc12")
# scipy's strategies with a mutation of the library (binomial crossover); the exponential ones and
# randtobest1 have none
_STRATEGIES = {"rand1bin": "DE/rand/1", "rand2bin": "DE/rand/2", "best1bin": "DE/best/1",
               "best2bin": "DE/best/2", "currenttobest1bin": "DE/current-to-best/1"}
# scipy's arguments that minimize takes only at the value it implements, and why
_SCIPY_ONLY = {
    "workers": (1, "the objective is called once per generation with every point of it; pass "
                   "vectorized=True and evaluate the points in parallel yourself, or use a catalogue "
                   "function or a metaopt.Source, which run on the device"),
    "updating": ("deferred", "the islands' generations are synchronous: every trial of a generation is "
                             "made from the previous one, as scipy's updating='deferred'"),
}
_DE_OPTIONS = ("islands", "members", "mutation", "migration", "period", "bounds_correction", "f_mode", "f_min",
               "f_max", "cr", "shared_random", "target", "time_limit", "eq_tol", "epsilon", "repair")
_HC12_OPTIONS = ("runs", "bits", "mask_order", "coding", "taboo", "tabu_length", "patience", "target", "time_limit")


class OptimizeResult(dict):
    """The result of ``minimize``, as ``scipy.optimize.OptimizeResult``: a dict whose keys are
    also attributes (``r.x`` is ``r["x"]``).

    ``x`` (the best point, float64), ``fun`` (its value), ``nfev`` (objective evaluations),
    ``nit`` (DE generations; HC12 iterations over all runs), ``success``, ``status`` (0
    converged, tolerance or target met; 1 ``maxiter`` or the time limit reached; 2 stopped by the
    callback; 3 interrupted), ``message``; and metaopt's own: ``method``, ``precision``
    (``"double"`` or ``"single"``, as the library resolved it: ``precision_note`` says when auto
    chose single), ``device`` (which device or ``"cpu"``), ``stop`` (the library's word:
    ``"converged"`` (DE's tolerance test), ``"target"``, ``"budget"`` (``maxiter``, HC12's
    ``runs``, or the callback's stop: ``status`` tells them apart), ``"stagnation"``,
    ``"time_limit"``, ``"interrupted"``: a ``StopToken``, ``metaopt.interrupt()`` or Ctrl-C;
    ``success`` False),
    ``seconds``,
    ``seed`` and, for DE, ``convergence`` (``std(E) / |mean(E)|``, as scipy's) and
    ``population_energies`` where the population was followed (Python objectives).
    """

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError as e:
            raise AttributeError(name) from e

    __setattr__ = dict.__setitem__
    __delattr__ = dict.__delitem__

    def __repr__(self) -> str:
        if not self:
            return f"{type(self).__name__}()"
        width = max(map(len, self)) + 1
        return "\n".join(f"{k.rjust(width)}: {v!r}" for k, v in self.items())

    def __dir__(self):
        return list(self.keys()) + list(super().__dir__())


class _Objective:
    """The user's function as the library's batch objective: rows of points in, values out,
    counting evaluations and remembering the last batch (the DE population is followed from it)."""

    def __init__(self, fun, args, vectorized, dims):
        self.fun, self.args, self.vectorized, self.dims = fun, tuple(args), vectorized, dims
        self.nfev = 0
        self.last_x = None
        self.last_f = None

    def __call__(self, X: np.ndarray) -> np.ndarray:
        if self.vectorized:
            F = np.asarray(self.fun(X.T, *self.args), dtype=np.float64)
            if F.shape not in ((X.shape[0],), (1, X.shape[0])):
                raise ValueError(f"fun (vectorized=True) must return {X.shape[0]} values for x of shape "
                                 f"{X.T.shape}, got shape {F.shape}")
            F = F.reshape(-1)
        else:
            F = np.empty(X.shape[0])
            for i in range(X.shape[0]):
                v = self.fun(X[i].copy(), *self.args)
                try:
                    F[i] = float(np.asarray(v).item()) if not isinstance(v, numbers.Real) else float(v)
                except (TypeError, ValueError):
                    raise ValueError(f"fun must return one real number per point, got {v!r} at x = {X[i].tolist()}") from None
        self.nfev += X.shape[0]
        self.last_x, self.last_f = X, F
        return F


def _callback_caller(callback) -> Optional[Callable[[OptimizeResult], bool]]:
    """``callback(intermediate_result)`` (scipy >= 1.12), or the older ``callback(xk, convergence=)``
    when the callable takes two positional parameters; returns True when it asks to stop."""
    if callback is None:
        return None
    if not callable(callback):
        raise TypeError(f"callback must be callable or None, got {type(callback).__name__}")
    legacy = False
    try:
        params = [p for p in inspect.signature(callback).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        legacy = len(params) >= 2 and params[0].name != "intermediate_result"
    except (TypeError, ValueError):
        pass

    def call(res: OptimizeResult) -> bool:
        try:
            out = callback(res["x"], convergence=res.get("convergence", 0.0)) if legacy else callback(res)
        except StopIteration:
            return True
        return bool(out)

    return call


def _device(device) -> Tuple[Optional[int], bool]:
    """(device number or None for the device in use, cpu)."""
    if device is None or (isinstance(device, str) and device == "device"):
        return None, False
    if isinstance(device, str):
        if device == "cpu":
            return None, True
        raise ValueError(f"device must be None, a device number, 'device' or 'cpu', got {device!r}")
    return _checks.integer("device", device, 0, 2**31 - 1), False


def _device_label(number: Optional[int], cpu: bool) -> str:
    if cpu:
        return "cpu"
    try:
        n = get_device_number() if number is None else number
        return f"device {n}: {device_info(n).name}"
    except Exception:  # noqa: BLE001 - a label only
        return "device" if number is None else f"device {number}"


def minimize(
    fun: Union[Callable[..., float], str, Source],
    bounds,
    method: str = "de",
    x0=None,
    args: tuple = (),
    maxiter: Optional[int] = None,
    popsize: Optional[int] = None,
    seed: Optional[int] = None,
    tol: float = 0.01,
    callback: Optional[Callable[..., Any]] = None,
    vectorized: bool = False,
    device: Union[None, int, str] = None,
    precision: Optional[str] = None,
    *,
    atol: float = 0.0,
    stop_token: Optional[_interrupt.StopToken] = None,
    init=None,
    strategy: Optional[str] = None,
    recombination: Optional[float] = None,
    polish: Optional[bool] = None,
    integrality=None,
    basin_hopping: bool = False,
    constraints=(),
    **options: Any,
) -> OptimizeResult:
    """Minimises ``fun`` over the box ``bounds`` with island DE (``method="de"``, the default) or
    HC12 (``method="hc12"``), in the shape of ``scipy.optimize.differential_evolution``.

    Parameters
    ----------
    fun : callable, str or metaopt.Source
        ``fun(x, *args) -> float`` with ``x`` a float64 vector of ``len(bounds)``, called once per
        point. With ``vectorized=True`` it is called with ``x`` of shape ``(n, S)`` (scipy's
        orientation: one column per point) and returns ``S`` values. A catalogue name
        (``"F1"``, ``"CEC05t"``, ...) or a ``metaopt.Source`` of OpenCL C runs the objective on
        the device instead (``args`` must then be empty).
    bounds : sequence of (min, max) pairs, or scipy.optimize.Bounds
        One finite interval per dimension.
    method : "de", "jade", "shade", "lshade", "jso", "jde100" or "hc12"
        Island differential evolution (``"de"``: F and CR fixed per island), one of its adaptive
        variants (JADE, SHADE, L-SHADE, jSO: F and CR per member with current-to-pbest/1 and an
        archive; jDE100: F and CR self-adapted per member, a big and a small population), or HC12
        (a hill climber over a binary grid with restarts).
    x0 : array-like, optional
        HC12: the start of the first run. DE: it replaces the first member of the initial
        population (as scipy's ``differential_evolution``), so the result is at least as good.
    args : tuple
        Extra arguments of ``fun``.
    maxiter : int, optional
        DE: the most generations (default 1000). HC12: the most iterations of a run (default
        1,000,000).
    popsize : int, optional
        DE: scipy's multiplier, the total population is ``popsize * len(bounds)`` (default 15)
        spread over ``islands`` populations (at least 4 members each). Not an option of HC12
        (its neighbourhood size follows from ``bits`` and ``mask_order``).
    seed : int, numpy.random.Generator or RandomState, optional
        The same seed gives the same result (on one device); None draws fresh seeds, a
        ``Generator`` (or ``RandomState``) draws the seed from itself (``result.seed`` holds the
        integer used).
    tol, atol : float
        DE: scipy's convergence test, stop when ``std(E) <= atol + tol * |mean(E)|`` over the
        energies ``E`` of every member of every island (for a Python ``fun`` followed exactly
        through selection and migration; for a catalogue/Source objective reduced on the device,
        ``IslandDE.spread``). HC12: stop after ``patience`` (default 3)
        consecutive runs that improve the best by no more than ``atol + tol * |best|``.
        ``tol=0`` and ``atol=0`` turn the test off.
    callback : callable, optional
        ``callback(intermediate_result)`` after every DE generation / HC12 run, with an
        ``OptimizeResult`` holding ``x``, ``fun``, ``nit``, ``nfev`` (and ``convergence``); a
        callable of two positional parameters gets scipy's older ``callback(xk, convergence=)``.
        Returning True or raising ``StopIteration`` stops the solver (``status`` 2).
    vectorized : bool
        See ``fun``.
    device : None, int or "cpu"
        The device in use (None), a device number, or ``"cpu"`` (DE's CPU backend).
    precision : "auto", "double" or "single"
        ``"auto"`` (the default, also None): double where the device has fp64 (cl_khr_fp64) and
        on the CPU backend, else single; ``"double"`` is refused by a device without fp64.
        ``result.precision`` says which the library used (``result.precision_note`` when auto
        chose single).
    init : array-like, optional
        DE: the initial population instead of the library's draw, of shape
        ``(islands * members, dims)`` (row ``p * members + m``) or ``(members, dims)`` (every
        island starts from it); points outside ``bounds`` are clipped to them, as scipy clips
        its ``init`` array. With ``x0`` too, ``x0`` then replaces the first member.
    strategy : str, optional
        scipy's name of the DE strategy: ``"best1bin"``, ``"rand1bin"``, ``"rand2bin"``,
        ``"best2bin"``, ``"currenttobest1bin"`` (the library's ``DE/best/1``, ...; binomial
        crossover). ``"randtobest1bin"`` and the exponential-crossover names are refused: the
        library has no such operators. Default: ``"rand1bin"`` (scipy's is ``"best1bin"``).
    recombination : float, optional
        scipy's name of the crossover rate CR, in [0, 1] (the ``cr`` option).
    mutation : float or str, optional
        scipy's F, a number in [0, 2] for every island (``f_min``/``f_max`` spread F evenly over
        the islands instead), or scipy's ``(min, max)`` dithering, both in [0, 2): each
        generation, each island draws its F uniformly in [min, max) (``f_mode="dither"``; the
        classic DE only, the adaptive methods adapt their own F). A string is the library's
        strategy name (``"DE/rand/1"``, ...), as ``strategy``.
    polish : bool, optional
        DE: after the generations, scipy's L-BFGS-B from the best point within ``bounds`` (as
        scipy's ``polish=True``), taken when it is lower; ``result.polished`` says whether it
        ran and ``nfev`` counts its evaluations. A catalogue function is then evaluated by the
        library's host code (``metaopt.evaluate(..., cpu=True)``). A ``metaopt.Source`` is
        polished by the library on the device (``metaopt.bh.polish``: basin hopping's (1+1)-ES
        from the best point, with the Source's constraints by Deb's rules, taken when better),
        scipy installed or not. With scipy-form
        ``constraints`` the polish is scipy's ``trust-constr`` with them (as scipy's), taken when
        both points are feasible and it is lower. Default (None): polish where
        scipy is installed, except after a time limit, a target, a callback's stop or an
        interrupt. ``True`` without scipy is an ImportError.
    integrality : array-like of bool, optional
        scipy's integer variables: one flag per dimension (or one for all). DE only; an integer
        dimension's bounds become the integers inside them and every point made is rounded on
        every path (device and CPU, every method), so the points evaluated and ``res.x`` are
        integral there; ``x0`` and ``init`` are rounded (and clipped into the bounds). No
        polish with integer variables (L-BFGS-B would leave the integers).
    basin_hopping : bool, optional
        True: basin hopping (``metaopt.BasinHopping``) instead of DE, from ``x0`` (default the
        middle of the box) for ``maxiter`` steps of every chain (default 1000), ``seed``, and
        its options ``chains``, ``hop_min``, ``hop_max``, ``hop_scales``, ``step0``,
        ``step_stop``, ``max_search``, ``launch_steps``, ``share``, ``target``, ``time_limit``.
        A Python ``fun`` runs on the CPU backend (called with every chain's point of a step).
        Basin hopping has no convergence test: ``success`` is True only when ``target`` was
        reached; ``nit`` counts the steps, ``nfev`` the evaluations. DE's arguments
        (``method``, ``init``, ``strategy``, ``recombination``, ``polish``, ``integrality``,
        ``callback``, ``popsize``) are refused with it.
    constraints : constraint or sequence of them, optional
        scipy's ``NonlinearConstraint``, ``LinearConstraint`` and ``Bounds``, and the dict form
        of ``scipy.optimize.minimize`` (``{'type': 'ineq' | 'eq', 'fun': f, 'args': ...}``),
        refused as scipy refuses them (``method`` ``"de"``, ``"jade"``, ``"shade"``,
        ``"lshade"`` or ``"jso"``). A point's
        violation is the sum of each component's distance outside its bounds (scipy's per
        constraint violation, summed); an equality component within ``eq_tol`` (option, default
        0 as scipy) counts 0. Points are compared by Deb's feasibility rules (option
        ``epsilon=True`` or ``(theta, tc, cp)``: the epsilon level of epsilon-DE). For a
        ``metaopt.Source`` give ``{"inequalities": ng, "equalities": nh}``: its OpenCL
        ``void constraints(x, dims, stride, data, FP *c)`` writes the ng values ``g <= 0``, then
        the nh values ``|h| <= eq_tol`` (default 1e-4 there); option ``repair=True`` (or a
        probability, or ``(probability, rounds)``) adds epsilon-DE's gradient-based repair of
        infeasible trials (``method="de"``; see ``IslandDE.set_constraints``). ``res.constr_violation`` is the
        result's violation; an infeasible result has ``success`` False, as scipy's. The polish
        with constraints is scipy's ``trust-constr`` (see ``polish``).
    workers, updating
        scipy's arguments, taken only at what minimize does (``workers=1``,
        ``updating="deferred"``); any other value is refused with the reason.
    stop_token : metaopt.StopToken, optional
        Requested from another thread (``stop_token.request()``), or ``metaopt.interrupt()``
        called, it stops the solver at its next generation / climb step: the result is the best
        so far with ``stop == "interrupted"``, ``status`` 3 and ``success`` False.
    **options
        DE: ``islands`` (4), ``members`` (per island; default from ``popsize``), ``mutation``
        (``"DE/rand/1"``), ``migration`` (``"PermuteN"``; ``"None"`` for independent islands),
        ``period`` (10), ``bounds_correction`` (``"COTN"``), ``f_mode`` (``"linspace"``),
        ``f_min`` (0.5), ``f_max`` (0.9), ``cr`` (0.9), ``shared_random``, ``target`` (stop at a
        value at most this), ``time_limit`` (seconds). HC12: ``runs`` (10), ``bits`` per
        dimension (20), ``mask_order`` (2), ``coding`` (``"GC"``), ``taboo``/``tabu_length``,
        ``patience`` (3), ``target``, ``time_limit``.

    Returns
    -------
    OptimizeResult
        ``x``, ``fun``, ``nfev``, ``nit``, ``success``, ``status``, ``message`` as scipy's, plus
        ``precision``, ``device``, ``stop``, ``method``, ``seconds``, ``seed``.

    Raises
    ------
    TypeError, ValueError
        For a bad argument, naming it. The exception of ``fun`` or ``callback`` propagates.
    metaopt.Interrupted
        On Ctrl-C (it is a ``KeyboardInterrupt``): the solver stops within about a generation /
        climb step and the exception's ``result`` is the ``OptimizeResult`` so far (``stop ==
        "interrupted"``).

    Examples
    --------
    >>> import metaopt
    >>> r = metaopt.minimize(lambda x: ((x - 1) ** 2).sum(), [(-5, 5)] * 3, seed=42)
    >>> bool(abs(r.x - 1).max() < 1e-3), r.precision
    (True, 'double')
    """
    if not isinstance(method, str):
        raise TypeError(f"method must be one of {', '.join(_METHODS)} (a str), got {type(method).__name__}")
    method = method.lower()
    if method not in _METHODS:
        raise ValueError(f"method must be one of {', '.join(repr(m) for m in _METHODS)}, got {method!r}")
    for name, (only, why) in _SCIPY_ONLY.items():
        if name in options:
            value = options.pop(name)
            if not _is_default(value, only):
                raise ValueError(f"{name}={value!r} is not supported: {why}")
    basin_hopping = _checks.flag("basin_hopping", basin_hopping)
    if basin_hopping:
        given = dict(method=None if method == "de" else method, init=init, strategy=strategy,
                     recombination=recombination, polish=polish, integrality=integrality, callback=callback,
                     popsize=popsize)
        for name, v in given.items():
            if v is not None:
                raise ValueError(f"{name} is for DE, not basin_hopping=True")
        return _minimize_bh(fun, bounds, x0, args, maxiter, seed, vectorized, device, precision, stop_token,
                            options, constraints)
    _scipy_de_options(method, strategy, recombination, options)
    if polish is not None:
        polish = _checks.flag("polish", polish)
        if polish and method == "hc12":
            raise ValueError("polish is for DE, not method='hc12'")
    if not (callable(fun) or isinstance(fun, (str, Source))):
        raise TypeError(f"fun must be callable, a catalogue name (str) or a metaopt.Source, got {type(fun).__name__}")
    if not isinstance(args, tuple):
        args = (args,)
    if args and not callable(fun):
        raise ValueError("args are for a Python fun; a catalogue or Source objective takes none")
    b = _checks.box(bounds)
    dims = b.shape[0]
    vectorized = _checks.flag("vectorized", vectorized)
    tol = _checks.real("tol", tol)
    atol = _checks.real("atol", atol)
    if tol < 0 or atol < 0:
        raise ValueError(f"tol and atol must be >= 0, got tol={tol}, atol={atol}")
    precision = _precision.requested(precision, None)
    stop_token = _interrupt.token_arg(stop_token)
    number, cpu = _device(device)
    call_back = _callback_caller(callback)
    seed = _seed(seed, 2**63)
    x0 = _x0(x0, b)
    if init is not None and method == "hc12":
        raise ValueError("init (an initial population) is for DE, not method='hc12'")
    cons = _constraints(constraints, fun, method, b, vectorized, options)
    ints = _integrality(integrality, b, method, polish)
    if ints is not None:
        polish = False
        if x0 is not None:
            x0 = _rounded(x0, ints, b)
    allowed = _DE_OPTIONS if method != "hc12" else _HC12_OPTIONS
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise TypeError(f"minimize(method={method!r}) got unexpected option(s) {', '.join(unknown)}; "
                        f"its options are {', '.join(allowed)}")
    objective = _Objective(fun, args, vectorized, dims) if callable(fun) and not isinstance(fun, Source) else fun
    # the device is the instance's own (per-handle devices): the process default is left alone,
    # so minimize calls on different devices may run from different threads
    try:
        solve = _minimize_de if method != "hc12" else _minimize_hc12
        extra = dict(init=init, method=method, integrality=ints, constraints=cons) if method != "hc12" else {}
        res = solve(objective, b, x0, maxiter, popsize, seed, tol, atol, call_back, cpu, precision, options,
                    _Stopper(stop_token), device=number, **extra)
        if method != "hc12":
            scipy_form = (cons["violation"], constraints) if cons is not None and "violation" in cons else None
            counts = ({k: cons[k] for k in ("inequalities", "equalities", "eq_tol")}
                      if cons is not None and "violation" not in cons else None)
            _polish(res, objective, b, polish, scipy_form, source=dict(device=number, constraints=counts,
                                                                       stop_token=stop_token))
    except Interrupted as e:
        if isinstance(e.result, OptimizeResult):
            e.result["device"] = _device_label(number, cpu)
        raise
    res["device"] = _device_label(number, cpu)
    return res


def _polish(res, objective, b, polish, constrained=None, source=None):
    """scipy's polish of a DE result in place: L-BFGS-B from ``res.x`` within the box ``b``,
    taken when lower (``polish`` None: where scipy is installed and the run ended of itself).
    ``constrained``: (violation function, the scipy-form constraints): trust-constr with them,
    taken when the result and the polished point are both feasible and it is lower. A
    ``metaopt.Source`` is polished by the library (``metaopt.bh.polish`` on the device
    ``source["device"]``, with its constraint counts ``source["constraints"]``), whether scipy
    is installed or not."""
    # converged, or maxiter spent (status 1 with the budget word; a callback's stop is status 2)
    ended = res.stop == "converged" or (res.stop == "budget" and res.status == 1)
    res["polished"] = False
    if polish is False or (polish is None and not ended):
        return
    if isinstance(objective, Source):
        from . import bh  # noqa: PLC0415

        src = source or {}
        p = bh.polish(objective, b, np.clip(np.asarray(res.x, dtype=np.float64), b[:, 0], b[:, 1]),
                      device=src.get("device"), constraints=src.get("constraints"),
                      stop_token=src.get("stop_token"))
        res["nfev"] += p.evaluations
        res["polished"] = True
        if p.improved:
            res.update(x=p.x, fun=p.value)
            if "constr_violation" in res:
                res["constr_violation"] = p.violation
        return
    try:
        from scipy.optimize import minimize as local  # noqa: PLC0415
    except ImportError as e:
        if polish is None:  # the default polishes where scipy is installed
            return
        raise ImportError("polish=True needs scipy (its L-BFGS-B): pip install scipy") from e
    if isinstance(objective, _Objective):
        def f(x):
            return float(objective(np.asarray(x, dtype=np.float64)[None, :])[0])
    else:
        def f(x):
            return float(_evaluate(objective, np.asarray(x, dtype=np.float64), cpu=True))
    x = np.asarray(res.x, dtype=np.float64)
    if constrained is None:
        r = local(f, x, method="L-BFGS-B", bounds=b)
    else:
        from scipy.optimize import Bounds  # noqa: PLC0415

        with warnings.catch_warnings():
            # trust-constr's notes on its own progress (scipy's DE polishes with it alike)
            warnings.simplefilter("ignore", UserWarning)
            r = local(f, x, method="trust-constr", bounds=Bounds(b[:, 0], b[:, 1]),
                      constraints=_trust_constr_form(constrained[1]))
    if not isinstance(objective, _Objective):
        res["nfev"] += int(r.nfev)
    else:
        res["nfev"] = objective.nfev
    res["polished"] = True
    xp = np.clip(r.x, b[:, 0], b[:, 1])
    if constrained is not None:
        feasible = res.constr_violation == 0 and float(np.asarray(constrained[0](xp[None, :]))[0]) == 0
        if not feasible:
            return
    if np.isfinite(r.fun) and r.fun < res.fun:
        res.update(x=xp, fun=float(r.fun))


def _trust_constr_form(constraints):
    """scipy's DE constraints as trust-constr takes them: a ``Bounds`` among them as the
    ``LinearConstraint`` of the identity (the rest as given)."""
    from scipy.optimize import Bounds, LinearConstraint  # noqa: PLC0415

    items = constraints if isinstance(constraints, (list, tuple)) else [constraints]
    out = []
    for c in items:
        if isinstance(c, Bounds):
            lb = np.atleast_1d(np.asarray(c.lb, dtype=np.float64))
            ub = np.atleast_1d(np.asarray(c.ub, dtype=np.float64))
            n = max(lb.size, ub.size)
            out.append(LinearConstraint(np.eye(n), np.broadcast_to(lb, n), np.broadcast_to(ub, n)))
        else:
            out.append(c)
    return out


def _is_default(value, default) -> bool:
    """Whether a scipy argument asks for what minimize does anyway."""
    if default == ():
        return value is None or (hasattr(value, "__len__") and len(value) == 0)
    if default is None:  # integrality: None, or no variable an integer
        return value is None or not np.any(np.asarray(value, dtype=bool))
    if isinstance(default, bool):
        return isinstance(value, (bool, np.bool_)) and bool(value) == default
    return value == default


def _scipy_de_options(method, strategy, recombination, options):
    """scipy's ``strategy``, ``recombination`` and numeric ``mutation`` as the library's options
    (``mutation``, ``cr``, ``f_mode``/``f_min``); errors name the argument."""
    if method == "hc12":
        for name, v in (("strategy", strategy), ("recombination", recombination)):
            if v is not None:
                raise ValueError(f"{name} is for DE, not method='hc12'")
        return
    mutation = options.get("mutation")
    if strategy is not None:
        if not isinstance(strategy, str):
            raise TypeError(f"strategy must be one of scipy's names (a str), got {type(strategy).__name__}")
        name = _STRATEGIES.get(strategy.lower())
        if name is None:
            why = ("the library's crossover is binomial (use the 'bin' form)" if strategy.lower().endswith("exp")
                   else "the library has no such mutation")
            raise ValueError(f"strategy={strategy!r} is not supported: {why}; the supported ones are "
                             f"{', '.join(_STRATEGIES)}")
        if isinstance(mutation, str):
            raise ValueError("strategy and a mutation name both set the strategy; give one")
        options["mutation"] = name
    if mutation is not None and not isinstance(mutation, str):
        if "f_min" in options or "f_max" in options or "f_mode" in options:
            raise ValueError("mutation (F) and f_min/f_max/f_mode both set F; give one")
        if isinstance(mutation, (tuple, list, np.ndarray)):
            # scipy's dithering: F drawn anew each generation in [lo, hi), the pair sorted
            pair = [_checks.real("mutation", v) for v in np.ravel(np.asarray(mutation, dtype=object))]
            if len(pair) != 2 or not all(0 <= v < 2 for v in pair):
                raise ValueError(f"mutation={tuple(mutation)!r}: dithering takes (min, max), both in [0, 2)")
            if method != "de":
                raise ValueError(f"mutation={tuple(mutation)!r}: dithering is for the classic DE; method={method!r} "
                                 "adapts its own F")
            lo, hi = sorted(pair)
            options.pop("mutation")
            options.update(f_mode="dither", f_min=lo, f_max=hi)
            mutation = None
    if mutation is not None and not isinstance(mutation, str):
        f = _checks.real("mutation", mutation)
        if not 0 <= f <= 2:
            raise ValueError(f"mutation (F) must be in [0, 2], got {f}")
        options.pop("mutation")
        options.update(f_mode="const", f_min=f, f_max=f)
    if recombination is not None:
        cr = _checks.real("recombination", recombination)
        if not 0 <= cr <= 1:
            raise ValueError(f"recombination (CR) must be in [0, 1], got {cr}")
        if "cr" in options:
            raise ValueError("recombination and cr both set CR; give one")
        options["cr"] = cr


class _Stopper:
    """The stop requests a loop of minimize checks between library calls: its ``stop_token`` and
    ``metaopt.interrupt()`` calls made since it started."""

    def __init__(self, token):
        self.token = token
        self.epoch = _interrupt.epoch()

    def requested(self) -> bool:
        return (self.token is not None and self.token.requested) or _interrupt.epoch() != self.epoch


def _finish(res: OptimizeResult, stop: str, method: str) -> OptimizeResult:
    messages = {
        "convergence": (0, True, "Optimization terminated successfully."),
        "target": (0, True, "The target value was reached."),
        "runs": (0, True, "Optimization terminated successfully (every run finished)."),
        "stagnation": (0, True, "Optimization terminated successfully (the runs stopped improving by more than tol)."),
        "maxiter": (1, False, "Maximum number of iterations has been exceeded."),
        "time_limit": (1, False, "The time limit was reached."),
        "callback": (2, False, "The callback requested a stop."),
        "interrupted": (3, False, "The solver was interrupted (Ctrl-C, metaopt.interrupt() or the stop token); "
                                  "the result is the best so far."),
    }
    status, success, message = messages[stop]
    if res.get("precision_note"):
        message += " (" + res["precision_note"] + ")"
    res.update(status=status, success=success, message=message, stop=_STOP_WORDS[stop], method=method)
    return res


# why minimize's loops stopped, in the library's words (``stop``); ``status`` and ``message``
# keep scipy's distinctions
_STOP_WORDS = {
    "convergence": "converged",
    "target": "target",
    "runs": "budget",
    "stagnation": "stagnation",
    "maxiter": "budget",
    "time_limit": "time_limit",
    "callback": "budget",
    "interrupted": "interrupted",
}


def _init_population(init, islands, members, dims):
    """``init`` as the ``(islands * members, dims)`` initial population (a ``(members, dims)``
    array repeated for every island)."""
    a = _checks.numeric_array("init", init)
    shapes = ((islands * members, dims), (members, dims))
    if a.ndim != 2 or a.shape not in shapes:
        raise ValueError(f"init must have shape (islands * members, dims) = {shapes[0]} or (members, dims) = "
                         f"{shapes[1]}, got {a.shape}")
    a = np.asarray(a, dtype=np.float64)
    if not np.all(np.isfinite(a)):
        r, c = (int(v[0]) for v in np.nonzero(~np.isfinite(a)))
        raise ValueError(f"init contains NaN or infinite values (row {r}, dimension {c})")
    return np.ascontiguousarray(np.tile(a, (islands, 1)) if a.shape[0] == members else a)


def _seed(seed, bound):
    """scipy's ``seed`` (None, an integer, a ``Generator`` or ``RandomState``) as an integer in
    [0, bound) for the library; errors name the argument."""
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % bound)
    elif isinstance(seed, np.random.Generator):
        seed = int(seed.integers(0, bound))
    elif isinstance(seed, np.random.RandomState):
        seed = int(seed.randint(0, bound, dtype=np.int64))
    return _checks.integer("seed", seed, 0, None)


def _x0(x0, b):
    """``x0`` checked as a finite point inside the box ``b`` (None stays None)."""
    if x0 is None:
        return None
    x0 = _checks.vector("x0", x0, np.float64, length=b.shape[0], finite=True)
    if np.any(x0 < b[:, 0]) or np.any(x0 > b[:, 1]):
        raise ValueError("x0 must lie within bounds")
    return x0


_BH_OPTIONS = ("chains", "hop_min", "hop_max", "hop_scales", "step0", "step_stop", "max_search", "launch_steps",
               "share", "target", "time_limit")


def _minimize_bh(fun, bounds, x0, args, maxiter, seed, vectorized, device, precision, stop_token, options,
                 constraints=()):
    """``minimize(basin_hopping=True)``: one ``metaopt.bh.solve`` as an OptimizeResult (with
    ``constraints`` by Deb's rules)."""
    from . import bh as _bh  # noqa: PLC0415 - the module imports this one's helpers

    cons = _constraints(constraints, fun, "de", _checks.box(bounds), _checks.flag("vectorized", vectorized), options)
    if cons is not None and cons.get("epsilon") is not None:
        raise ValueError("epsilon: basin hopping compares by Deb's feasibility rules")
    if cons is not None and cons.get("repair") is not None:
        raise ValueError("repair: the gradient-based repair is island DE's (method='de'), not basin hopping's")

    unknown = sorted(set(options) - set(_BH_OPTIONS))
    if unknown:
        raise TypeError(f"minimize(basin_hopping=True) got unexpected option(s) {', '.join(unknown)}; "
                        f"its options are {', '.join(_BH_OPTIONS)}")
    if not (callable(fun) or isinstance(fun, (str, Source))):
        raise TypeError(f"fun must be callable, a catalogue name (str) or a metaopt.Source, got {type(fun).__name__}")
    if not isinstance(args, tuple):
        args = (args,)
    if args and not callable(fun):
        raise ValueError("args are for a Python fun; a catalogue or Source objective takes none")
    b = _checks.box(bounds)
    dims = b.shape[0]
    steps = 1000 if maxiter is None else _checks.integer("maxiter", maxiter, 1, None)
    seed = _seed(seed, 2**31)
    x0 = _x0(x0, b)
    number, cpu = _device(device)
    objective = fun
    counted = callable(fun) and not isinstance(fun, Source)
    if counted:
        objective = _Objective(fun, args, _checks.flag("vectorized", vectorized), dims)
        cpu = True  # a Python objective runs on the CPU backend
    target, time_limit = options.pop("target", None), options.pop("time_limit", None)
    bh_cons = None
    if cons is not None:
        bh_cons = cons.get("violation") or {k: cons[k] for k in ("inequalities", "equalities", "eq_tol")}
    r = _bh.solve(objective, b, x0, steps=steps, target=target, time_limit=time_limit, stop_token=stop_token,
                  seed=seed, precision=precision, backend="cpu" if cpu else "device", device=number,
                  constraints=bh_cons, **options)
    res = OptimizeResult(x=np.asarray(r.x, dtype=np.float64), fun=float(r.value))
    res.update(nit=int(r.steps), nfev=objective.nfev if counted else int(r.evaluations), seconds=r.seconds,
               seed=seed, precision=r.precision, device=_device_label(number, cpu), basin_hopping=True)
    stop = {"budget": "maxiter", "evaluations": "maxiter"}.get(r.stop, r.stop)
    res = _finish(res, stop, "basin_hopping")
    res["stop"] = r.stop
    if r.stop == "budget":
        res["message"] = f"Basin hopping ran its {r.steps} steps (it has no convergence test)."
    if cons is not None:
        res["constr_violation"] = res["maxcv"] = r.violation
        if r.violation > 0:
            res.update(success=False,
                       message=f"The solution does not satisfy the constraints, violation = {r.violation}")
    return res


def _integrality(integrality, b, method, polish):
    """scipy's ``integrality`` as one flag per dimension, or None when no variable is an
    integer; errors name the argument."""
    if integrality is None:
        return None
    dims = b.shape[0]
    given = _checks.vector("integrality", np.atleast_1d(integrality), np.float64, lengths=(1, dims))
    flags = np.broadcast_to(given != 0, (dims,)).copy()
    if not flags.any():
        return None
    if method == "hc12":
        raise ValueError("integrality is for DE, not method='hc12'")
    empty = np.flatnonzero(flags & (np.ceil(b[:, 0]) > np.floor(b[:, 1])))
    if empty.size:
        j = int(empty[0])
        raise ValueError(f"integrality: dimension {j} is an integer but its bounds [{b[j, 0]}, {b[j, 1]}] hold none")
    if polish:
        raise ValueError("polish=True with integer variables: L-BFGS-B would leave the integers")
    return flags


def _rounded(points, ints, b):
    """``points`` (one point or rows) with the integer dimensions rounded into their bounds."""
    out = np.array(points, dtype=np.float64)
    out[..., ints] = np.clip(np.round(out[..., ints]), np.ceil(b[ints, 0]), np.floor(b[ints, 1]))
    return out


def _constraints(constraints, fun, method, b, vectorized, options):
    """minimize's ``constraints`` as the keywords of ``IslandDE.set_constraints``, or None."""
    eq_tol = options.pop("eq_tol", None)
    epsilon = options.pop("epsilon", None)
    repair = options.pop("repair", None)
    if constraints is None or (isinstance(constraints, (list, tuple)) and len(constraints) == 0):
        if eq_tol is not None or epsilon is not None or repair is not None:
            raise ValueError("eq_tol, epsilon and repair are options of constraints; none were given")
        return None
    if method in ("hc12", "jde100"):
        raise ValueError(f"constraints need method='de', 'jade', 'shade', 'lshade' or 'jso', not method={method!r}")
    if isinstance(fun, Source):
        if not (isinstance(constraints, dict) and "type" not in constraints
                and set(constraints) <= {"inequalities", "equalities"}):
            raise ValueError("a metaopt.Source takes constraints={'inequalities': ng, 'equalities': nh}: "
                             "the counts of what its OpenCL constraints() writes")
        return dict(inequalities=constraints.get("inequalities", 0), equalities=constraints.get("equalities", 0),
                    eq_tol=1e-4 if eq_tol is None else eq_tol, epsilon=epsilon, repair=repair)
    if repair is not None:
        raise ValueError("repair: the gradient-based repair needs a metaopt.Source's constraint values; "
                         "a Python fun's constraints give only violations")
    if not callable(fun):
        raise ValueError(f"constraints need a Python fun or a metaopt.Source; the catalogue function {fun!r} has none")
    from ._constraints import violation_function

    mid = (b[:, 0] + b[:, 1]) / 2
    fn, _count = violation_function(constraints, b.shape[0], eq_tol=0.0 if eq_tol is None else eq_tol,
                                    vectorized=vectorized, x_probe=mid)
    return dict(violation=fn, epsilon=epsilon)


def _minimize_de(objective, b, x0, maxiter, popsize, seed, tol, atol, call_back, cpu, precision, options, stopper,
                 device=None, init=None, method="de", integrality=None, constraints=None):
    dims = b.shape[0]
    maxiter = 1000 if maxiter is None else _checks.integer("maxiter", maxiter, 1, None)
    popsize = 15 if popsize is None else _checks.integer("popsize", popsize, 1, None)
    islands = _checks.integer("islands", options.get("islands", 4), 1, 2**32 - 1)
    members = options.get("members")
    if members is None:
        members = max(4, math.ceil(popsize * dims / islands))
    members = _checks.integer("members", members, 3, 2**32 - 1)
    # L-SHADE and jSO shrink their populations, which a migration cannot follow; jDE100's
    # islands are independent runs
    shrinks = method in ("lshade", "jso")
    migration = options.get("migration", "None" if shrinks or method == "jde100" else "PermuteN")
    migration = "None" if migration is None or islands == 1 else migration
    period = _checks.integer("period", options.get("period", 10), 1, 2**32 - 1)
    target = options.get("target")
    target = None if target is None else _checks.real("target", target, finite=False)
    time_limit = options.get("time_limit")
    if time_limit is not None:
        time_limit = _checks.real("time_limit", time_limit)
        if time_limit <= 0:
            raise ValueError(f"time_limit must be > 0 seconds, got {time_limit}")
    population = None if init is None else _init_population(init, islands, members, dims)
    if population is not None and integrality is not None:
        population = _rounded(population, integrality, b)
    start = time.perf_counter()
    de = IslandDE(
        islands, members, dims, b, options.get("bounds_correction", "COTN"),
        f_mode=options.get("f_mode", "linspace"), f_min=options.get("f_min", 0.5), f_max=options.get("f_max", 0.9),
        cr=options.get("cr", 0.9), seeds=de_seeds(seed), precision=precision,
        shared_random=options.get("shared_random", False), backend="cpu" if cpu else "device", device=device,
        method=method, lshade_budget=maxiter * members if shrinks else 0,
        # jDE100's small population: its paper's 25 where the island holds it and a big one of
        # at least 4, else a quarter of the island
        jde_small=25 if members >= 29 else max(4, members // 4), integrality=integrality,
    )
    # a Python fun's values are followed through the classic DE's selection and migration; the
    # adaptive variants (archives, shrinking populations) are asked for their spread instead
    counted = isinstance(objective, _Objective)
    # (constrained selections follow Deb's rules, which the host does not repeat)
    follow = counted and method == "de" and constraints is None
    with de:
        if constraints is not None:
            de.set_constraints(**constraints)
        de.init(objective, options.get("mutation", "DE/rand/1"), migration, period)
        # the given initial population, then x0 as its first member (scipy's x0): every member
        # evaluated afresh, so the energies below are the population's
        if population is not None:
            if x0 is not None:
                population[0] = x0
            de.set_population(population, clip=True)
        elif x0 is not None:
            de.set_population(x0)
        E = X = None
        if follow:  # the initial population, row p * members + m
            E, X = objective.last_f.copy(), objective.last_x.copy()
        st = dict(gen=0, stop="maxiter", convergence=math.inf, E=E, X=X)
        caught = None
        try:
            _de_loop(st, de, objective, follow, maxiter, islands, members, migration, period, target, tol, atol,
                     time_limit, start, call_back, stopper, constraints is not None)
        except KeyboardInterrupt as e:  # between or inside generations: the state of the last whole one
            caught, st["stop"] = e, "interrupted"
            st["gen"] = _generation(de, st["gen"])
        gen, stop, convergence, E, X = st["gen"], st["stop"], st["convergence"], st["E"], st["X"]
        violation = 0.0
        if constraints is not None:
            x, value, violation = de.best_point()
        else:
            bests = de.bests_fitness()
            p = int(np.argmin(bests))
            x, value = de.best(p), float(bests[p])
        precision_used, note = de.precision, de.precision_note
        # the library's count, and the given initial population evaluated once more
        given = islands * members * (population is not None or x0 is not None)
        made = _evaluations(de, islands * members * (gen + 1)) + given
    res = OptimizeResult(x=x, fun=value)
    res.update(
        nfev=objective.nfev if counted else made, nit=gen, convergence=convergence,
        precision=precision_used, precision_note=note, seconds=time.perf_counter() - start, seed=seed,
        islands=islands, members=members,
    )
    if follow:
        res["population"] = X.copy()
        res["population_energies"] = E.copy()
    res = _finish(res, stop, method)
    if constraints is not None:
        res["constr_violation"] = res["maxcv"] = violation
        if violation > 0:
            # as scipy: an infeasible result is no success
            res.update(success=False, message=f"The solution does not satisfy the constraints, violation = {violation}")
    if caught is not None:
        _interrupt.raise_interrupted(caught, res, "minimize")
    return res


def _generation(de, fallback):
    """The generation count of the instance (its info text), else ``fallback``."""
    m = re.search(r"^generation (\d+),", de.info(), flags=re.M)
    return int(m.group(1)) if m else fallback


def _evaluations(de, fallback):
    """The evaluations the instance counted (its info text: the adaptive variants' shrinking
    populations and jDE100's two populations evaluate fewer than islands x members a
    generation), else ``fallback``."""
    m = re.search(r"^generation \d+, (\d+) evaluations", de.info(), flags=re.M)
    return int(m.group(1)) if m else fallback


def _de_loop(st, de, objective, follow, maxiter, islands, members, migration, period, target, tol, atol, time_limit,
             start, call_back, stopper, constrained=False):
    """The generations of minimize's DE. ``st`` (gen, stop, convergence, E, X) is updated in
    place, so that a KeyboardInterrupt leaves it at the last whole generation."""
    gen = 0
    E, X = st["E"], st["X"]
    if True:  # noqa: SIM108 - keeps the loop's indentation
        while gen < maxiter:
            if stopper.requested():
                st["stop"] = "interrupted"
                break
            gen = de.iteration()
            st["gen"] = gen
            if follow:
                T, FT = objective.last_x, objective.last_f
                keep = FT <= E  # the library's selection: the trial replaces the member when f <= f(member)
                E = np.where(keep, FT, E)
                X = np.where(keep[:, None], T, X)
                if migration != "None" and gen % period == 0:
                    E, X = _after_migration(de, islands, members, E, X)
                st["E"], st["X"] = E, X
                energies = E
                mean, spread = float(np.mean(E)), float(np.std(E))
            else:
                # every member's value counts, not the islands' bests alone; the device
                # reduces them where they are
                energies = de.bests_fitness()
                mean, spread = de.spread()
            best = float(energies.min())
            xb = None
            if constrained:
                # the best feasible value (Deb's rules); +inf while none is feasible
                xb, value, violation = de.best_point()
                best = value if violation == 0 else math.inf
            convergence = spread / abs(mean) if mean != 0 else (0.0 if spread == 0 else math.inf)
            st["convergence"] = convergence
            if target is not None and best <= target:
                st["stop"] = "target"
                break
            if (tol or atol) and np.isfinite(spread) and spread <= atol + tol * abs(mean):
                st["stop"] = "convergence"
                break
            if time_limit is not None and time.perf_counter() - start >= time_limit:
                st["stop"] = "time_limit"
                break
            if call_back is not None:
                p = int(np.argmin(energies)) // members if follow else int(np.argmin(energies))
                if xb is None:
                    xb = X[int(np.argmin(E))].copy() if follow else de.best(p)
                nfev = objective.nfev if isinstance(objective, _Objective) else islands * members * (gen + 1)
                if call_back(OptimizeResult(x=xb, fun=best, nit=gen, nfev=nfev, convergence=convergence)):
                    st["stop"] = "callback"
                    break


def _after_migration(de, islands, members, E, X):
    """The energies of the population after a migration: migrants are copies of members, whose
    energies are known; the members are read back from the library and matched."""
    known = {X[i].tobytes(): E[i] for i in range(X.shape[0])}
    Xn = np.stack([de.x(p, m) for p in range(islands) for m in range(members)])
    En = np.array([known.get(Xn[i].tobytes(), np.nan) for i in range(Xn.shape[0])])
    return (En, Xn) if not np.isnan(En).any() else (E, X)


def _minimize_hc12(objective, b, x0, maxiter, popsize, seed, tol, atol, call_back, cpu, precision, options, stopper,
                   device=None):
    dims = b.shape[0]
    if popsize is not None:
        raise ValueError("popsize is an option of method='de'; HC12's neighbourhood follows from bits and mask_order")
    if cpu:
        raise ValueError("device='cpu': HC12 runs on an OpenCL device only (PoCL is one on a CPU)")
    maxiter = 1_000_000 if maxiter is None else _checks.integer("maxiter", maxiter, 1, 2**32 - 1)
    runs = _checks.integer("runs", options.get("runs", 10), 1, 2**32 - 1)
    bits = _checks.integer("bits", options.get("bits", 20), 1, 32)
    patience = _checks.integer("patience", options.get("patience", 3), 1, None)
    target = options.get("target")
    target = None if target is None else _checks.real("target", target, finite=False)
    time_limit = options.get("time_limit")
    if time_limit is not None:
        time_limit = _checks.real("time_limit", time_limit)
        if time_limit <= 0:
            raise ValueError(f"time_limit must be > 0 seconds, got {time_limit}")
    seeds = np.random.SeedSequence(seed).generate_state(runs, np.uint64)
    start = time.perf_counter()
    follow = isinstance(objective, _Objective)
    st = dict(best_x=None, best_f=math.inf, nit=0, nfev=0, stop="runs", k=0)
    caught = None
    with HC12(dims, bits, b, objective, mask_order=options.get("mask_order", 2), precision=precision,
              device=device) as h:
        tabu = options.get("tabu_length")
        if tabu is not None:
            h.init_tabu_list(tabu)

        def take(r):
            st["nit"] += int(r.run_iterations.sum())
            st["nfev"] = objective.nfev if follow else st["nfev"] + r.evaluations
            improved = st["best_f"] - r.value
            if r.value < st["best_f"] and r.x.size:
                st["best_x"], st["best_f"] = r.x.astype(np.float64), float(r.value)
            return improved

        try:
            stall = 0
            for k in range(runs):
                st["k"] = k
                if stopper.requested():
                    st["stop"] = "interrupted"
                    break
                # the run itself stops at the time left (set-up counted), between climb steps
                left = None if time_limit is None else time_limit - (time.perf_counter() - start)
                if left is not None and left <= 0:
                    st["stop"] = "time_limit"
                    break
                try:
                    r = h.run(runs=1, coding=options.get("coding", "GC"), seed=int(seeds[k]),
                              start=x0 if (k == 0 and x0 is not None) else None, max_iterations=maxiter,
                              taboo=options.get("taboo", tabu is not None), stop_token=stopper.token,
                              time_limit=left)
                except Interrupted as e:  # Ctrl-C: the run's best so far
                    if e.result is not None:
                        take(e.result)
                    raise
                st["k"] = k + 1
                improved = take(r)
                best_f = st["best_f"]
                if r.stop in ("interrupted", "time_limit"):
                    st["stop"] = r.stop
                    break
                if target is not None and best_f <= target:
                    st["stop"] = "target"
                    break
                stall = stall + 1 if (tol or atol) and improved <= atol + tol * abs(best_f) else 0
                if stall >= patience and k + 1 < runs:
                    st["stop"] = "stagnation"
                    break
                if time_limit is not None and time.perf_counter() - start >= time_limit:
                    st["stop"] = "time_limit"
                    break
                if call_back is not None and k + 1 < runs:
                    if call_back(OptimizeResult(x=st["best_x"].copy(), fun=best_f, nit=st["nit"], nfev=st["nfev"],
                                                run=k + 1)):
                        st["stop"] = "callback"
                        break
        except KeyboardInterrupt as e:
            caught, st["stop"] = e, "interrupted"
            st["k"] += 1  # the run that was stopped counts
        precision_used, note = h.precision, h.precision_note
    res = OptimizeResult(x=st["best_x"], fun=st["best_f"], nfev=st["nfev"], nit=st["nit"], runs=max(st["k"], 1),
                         precision=precision_used, precision_note=note, seconds=time.perf_counter() - start, seed=seed)
    res = _finish(res, st["stop"], "hc12")
    if caught is not None:
        _interrupt.raise_interrupted(caught, res, "minimize")
    return res
