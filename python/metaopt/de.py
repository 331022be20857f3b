"""Island differential evolution (the thesis's ``DEMultiPop``, 5.2.1) over ``metaopt_de_*``."""

import ctypes
import numbers
import sys
from dataclasses import dataclass, field
from typing import Optional, Sequence, Union

import numpy as np

from . import _checks, _ffi, _interrupt, _lib, _precision, _state
from ._errors import MetaoptError, check, check_int, take_string
from ._handle import Instance
from ._objective import as_bytes, make_objective, violation_state
from ._result import ArrayEq

# F_coefs_mode: the thesis's `const_min` and its short form `const`
_F_MODES = {"linspace": 0, "const_min": 1, "const": 1, "dither": 2}
# MetaoptDeSelection: f(trial) <= f(target) (ties, the default) or < (strict, the thesis's)
_SELECTIONS = {"ties": _ffi.METAOPT_DE_SELECTION_TIES, "strict": _ffi.METAOPT_DE_SELECTION_STRICT}
# MetaoptDeAlgorithm: the thesis's DE and the adaptive variants (docs/specs/DE.md, "Adaptive DE")
_METHODS = {
    "de": _ffi.METAOPT_DE_ALGORITHM_DE,
    "jade": _ffi.METAOPT_DE_ALGORITHM_JADE,
    "shade": _ffi.METAOPT_DE_ALGORITHM_SHADE,
    "lshade": _ffi.METAOPT_DE_ALGORITHM_L_SHADE,
    "jso": _ffi.METAOPT_DE_ALGORITHM_JSO,
    "jde100": _ffi.METAOPT_DE_ALGORITHM_JDE100,
}
# the thesis's OptionsDict names (Table 3) and the settings they set
_THESIS_NAMES = {"F_coefs_mode": "f_mode", "F_coefs_min": "f_min", "F_coefs_max": "f_max", "CR_coef_const": "cr"}
_THESIS_SEEDS = ("init_rng_seed", "mutation_rng_seed", "crossover_rng_seed", "migration_rng_seed")
_BACKENDS = {"device": _ffi.METAOPT_BACKEND_DEVICE, "cpu": _ffi.METAOPT_BACKEND_CPU}
U32 = 2**32 - 1
U64 = 2**64 - 1


@dataclass(eq=False)
class DEResult(ArrayEq):
    """What ``IslandDE.run`` found: the best ``value`` over all populations, its vector ``x``,
    the population (``island``, 0-based) that holds it, the ``generations`` and ``evaluations``
    since ``init``, the wall ``seconds`` of the call, ``stop`` (also ``stopped_by``), the
    library's word: ``"budget"`` (the generations ran), ``"evaluations"``, ``"target"``,
    ``"time_limit"`` or ``"interrupted"`` (``metaopt.interrupt()``, a ``StopToken`` or Ctrl-C:
    the best so far; ``success`` is then False), the ``precision`` the library computed in (``"double"`` or ``"single"``) and the
    ``fitness_precision`` of the values."""

    value: float
    x: np.ndarray
    island: int
    generations: int
    evaluations: int
    seconds: float = field(compare=False)
    stop: str
    #: "double" or "single": the precision the solver computed in
    precision: str = "double"
    #: "double" or "single": the precision of the fitness values (the thesis's FPf)
    fitness_precision: str = "double"
    #: the best point's constraint violation (0: feasible; ``set_constraints``); with
    #: constraints ``value`` and ``x`` are the best point by Deb's rules
    violation: float = 0.0

    @property
    def stopped_by(self) -> str:
        """``stop``, under the name DE's results had first."""
        return self.stop

    @property
    def success(self) -> bool:
        """False when the run was interrupted (the result is the best so far), else True."""
        return self.stop != "interrupted"


def _doubles(r, function):
    """The values of a ``MetaoptDoubleArrayResult`` as a NumPy array, freed."""
    try:
        check(r, function)
        return np.ctypeslib.as_array(r.values, shape=(r.length,)).copy() if r.length else np.zeros(0)
    finally:
        _lib.lib().metaopt_double_array_free_result(ctypes.byref(r))


def _thesis_options(thesis, given, where):
    """The settings named by the thesis's ``OptionsDict`` names in ``thesis`` (``F_coefs_mode``,
    ``F_coefs_min``, ``F_coefs_max``, ``CR_coefs_mode``, ``CR_coef_const``, ``init_rng_seed``,
    ``mutation_rng_seed``, ``crossover_rng_seed``, ``migration_rng_seed``) as the library's
    (``f_mode``, ``f_min``, ``f_max``, ``cr``, and the seeds as ``{index: seed}`` under
    ``"_seeds"``). ``given``: the library's names also set by the caller (one option named
    twice is a TypeError). ``CR_coefs_mode`` must be ``"const"``, the thesis's only mode."""
    out, seeds = {}, {}
    for name, value in thesis.items():
        if name in _THESIS_NAMES:
            target = _THESIS_NAMES[name]
            if target in given:
                raise TypeError(f"{where}: {name} and {target} name the same option; give one")
            out[target] = value
        elif name == "CR_coefs_mode":
            _checks.choice("CR_coefs_mode", value, {"const": 0})
        elif name in _THESIS_SEEDS:
            if "seeds" in given:
                raise TypeError(f"{where}: {name} and seeds both set the seeds; give one")
            i = _THESIS_SEEDS.index(name)
            seeds[i] = _checks.integer(name, value, 0, U64)
        else:
            known = ", ".join(list(_THESIS_NAMES) + ["CR_coefs_mode"] + list(_THESIS_SEEDS))
            raise TypeError(f"{where} got an unexpected option {name!r}; the thesis's names are {known}")
    if seeds:
        out["_seeds"] = seeds
    return out


def _with_seeds(settings):
    """``settings`` with the thesis's per-generator seeds (``_seeds``) folded into ``seeds``."""
    settings = dict(settings)
    over = settings.pop("_seeds", None)
    if over:
        seeds = de_seeds(settings["seeds"])
        for i, v in over.items():
            seeds[i] = v
        settings["seeds"] = tuple(seeds)
    return settings


class IslandDE(Instance):
    """Island DE: ``islands`` populations of ``members`` members in ``dims`` dimensions.

    ``limits``: the interval ``(a, b)`` of every dimension, or an array of shape ``(dims, 2)``
    with one interval per dimension. ``bounds``: the bound correction (``"sat"``, ``"mir"``,
    ``"tor"``, ``"HVB"``, ``"uni"``, ``"COTN"``), one name or a list of ``dims`` names.
    Options (the thesis's Table 3): ``f_mode`` ``"linspace"`` (F_p evenly from ``f_min`` to
    ``f_max`` over the populations), ``"const_min"`` (alias ``"const"``: ``f_min`` for all) or
    ``"dither"`` (each generation, each population draws its F in [``f_min``, ``f_max``), as
    scipy's ``mutation=(min, max)``; the classic DE only);
    ``cr`` one value (a number or a list of one) or a list of one per population; ``seeds``
    (init, mutation, crossover, migration), or one integer from which the four are derived.
    The thesis's own names are accepted as keywords too: ``F_coefs_mode``, ``F_coefs_min``,
    ``F_coefs_max``, ``CR_coefs_mode`` (``"const"``, the thesis's only mode), ``CR_coef_const``,
    ``init_rng_seed``, ``mutation_rng_seed``, ``crossover_rng_seed``, ``migration_rng_seed``
    (each overrides its entry of ``seeds``); naming one option twice is a TypeError.
    ``selection``: ``"ties"`` (the default: a trial replaces its target when f(trial) <=
    f(target), so populations can move across plateaus of equal value) or ``"strict"`` (only
    when f(trial) < f(target): the thesis's ``DEMULTIPOP_FITNESS_COPY_BETTER_Y2X``);
    ``precision`` ``"auto"`` (the default: double where the device has fp64, cl_khr_fp64, and on
    the CPU backend, else single), ``"double"`` (refused by a device without fp64) or
    ``"single"`` (``double=True/False`` is the older spelling); the library resolves it here and
    ``precision`` says which is used (``precision_note`` when auto chose single);
    ``fitness_precision`` ``"single"`` or ``"double"``: the type of the fitness values (the
    thesis's ``FPf`` of ``DEMultiPop<FP, FPf>``, where ``precision`` is ``FP``, the type of the
    populations); None (the default) is the storage precision. The objective computes in the
    storage precision; its value is rounded to the fitness precision, stored and compared in it.
    The attribute ``fitness_precision`` says which is used;
    ``shared_random``: the populations share the random numbers of mutation and crossover;
    ``fused`` (default True): on a device, the generations between two migrations run in one
    launch of the fused kernel whenever an island fits one work-group (False: a set of launches
    per generation, the same random numbers);
    ``backend`` ``"device"`` (OpenCL) or ``"cpu"``; ``device``: the device number (None: the
    device in use, ``set_device_number``), so that one process can drive instances on several
    devices from several threads. The same seeds give the same run on every
    device and on the CPU backend.
    ``method``: ``"de"`` (the default: the thesis's DE, F and CR fixed per population) or a
    self-adapting variant with its paper's defaults, ``"jade"``, ``"shade"``, ``"lshade"``,
    ``"jso"`` (F and CR per member, current-to-pbest/1 with an archive, whatever mutation
    ``init`` names), or ``"jde100"`` (a big and a small population per island, ``jde_small``
    members small and the rest big, self-adaptive F and CR per member, DE/rand/1/bin, restarts
    when more than 25 % of a population are within ``jde_eps`` of the best, or the big one's age
    passes ``jde_age`` when nonzero; on a device only with a compiled objective, no migration);
    ``lshade_budget``: the evaluations per population over which ``"lshade"``
    and ``"jso"`` shrink the population linearly to 4 members (needed by those two).

    Nothing runs until ``init(objective, mutation, migration, period)``; then ``iteration()``
    or ``run(...)``, and ``bests_fitness()``, ``best(p)``, ``x(p, m)``, ``population()`` read
    the populations; ``set_population(x)`` sets members from given points (a warm start).
    Checkpoints: ``state()`` gives the whole state as a ``metaopt.State``, ``load_state(state)``
    (after ``init`` on an instance of the same settings) continues from it, and ``run`` writes
    checkpoint files (``checkpoint=``, ``checkpoint_every=``) and resumes (``resume=``).
    Settings the library refuses (a < b, names, member counts, CR in [0, 1], ...) raise
    ``MetaoptError`` naming the argument.
    """

    def __init__(self, islands: int, members: int, dims: int, limits, bounds="COTN", *, f_mode: str = "linspace",
                 f_min: float = 0.1, f_max: float = 1.5, cr=0.5, seeds=(123, 345, 457, 581),
                 precision: Optional[str] = None, double: Optional[bool] = None, shared_random: bool = False,
                 backend: str = "device", fused: bool = True, selection: str = "ties",
                 fitness_precision: Optional[str] = None, method: str = "de", lshade_budget: int = 0,
                 jde_small: int = 25, jde_eps: float = 1e-16, jde_age: int = 0,
                 device: Optional[int] = None, integrality=None, **thesis_options):
        given = {k for k, v, d in (("f_mode", f_mode, "linspace"), ("f_min", f_min, 0.1), ("f_max", f_max, 1.5),
                                   ("cr", cr, 0.5), ("seeds", seeds, (123, 345, 457, 581)))
                 if not (isinstance(v, (str, numbers.Real, tuple)) and v == d)}
        thesis = _thesis_options(thesis_options, given, "IslandDE()")
        self.islands = _checks.integer("islands", islands, 0, U32)
        self.members = _checks.integer("members", members, 0, U32)
        self.dims = _checks.integer("dims", dims, 0, U32)
        self.limits = _limits(limits, self.dims)
        self.bounds = _bounds(bounds)
        _checks.choice("backend", backend, _BACKENDS)
        self.backend = backend
        #: the device number asked for (-1: the device in use when created)
        self.device = _checks.device(device)
        self._precision_asked = _precision.requested(precision, double)
        self._fitness_code = _precision.fitness_code(fitness_precision)
        self._settings = _with_seeds(dict(dict(f_mode=f_mode, f_min=f_min, f_max=f_max, cr=cr, seeds=seeds,
                                               shared_random=shared_random, fused=fused, selection=selection,
                                               method=method, lshade_budget=lshade_budget,
                                               jde_small=jde_small, jde_eps=jde_eps, jde_age=jde_age),
                                          **thesis))
        o, cr_values = self._options(self._settings)
        # scipy's integrality: one flag per dimension (or one for all), fixed with the solver
        flags = None
        if integrality is not None:
            given = _checks.vector("integrality", np.atleast_1d(integrality), np.float64, lengths=(1, self.dims))
            flags = np.ascontiguousarray(np.broadcast_to(given != 0, (self.dims,)).astype(np.uint8))
            o.integrality = flags.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8))
        #: the integer dimensions (None: none)
        self.integrality = None if flags is None else flags.astype(bool)
        r = _lib.lib().metaopt_de_create(
            self.islands, self.members, self.dims,
            self.limits.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), self.limits.size,
            _checks.c_string("bounds", ",".join(self.bounds)), ctypes.byref(o),
        )
        del cr_values, flags  # copied by the library
        # the callbacks of Python objectives, kept as long as the handle (the list fills in init)
        self._callbacks = []
        self._adopt(check(r, "metaopt_de_create").instance, "metaopt_de_free", keep=self._callbacks)
        #: "double" or "single": the precision the library resolved and computes in
        self.precision = _precision.from_info(self.info()) or (
            "single" if self._precision_asked == "single" else "double")
        self.precision_note = _precision.note(self._precision_asked, self.precision)
        self.double = self.precision == "double"
        #: "double" or "single": the precision of the fitness values
        self.fitness_precision = _precision.fitness_from_info(self.info(), self.precision)

    def _options(self, settings):
        """The library's options struct for ``settings`` (and the CR array it points to, which
        must live until the call that reads it)."""
        o = _lib.lib().metaopt_de_default_options()
        cr, seeds = settings["cr"], settings["seeds"]
        o.f_const = _checks.choice("f_mode", settings["f_mode"], _F_MODES)
        o.f_min = _checks.real("f_min", settings["f_min"], finite=False)
        o.f_max = _checks.real("f_max", settings["f_max"], finite=False)
        cr_values = None
        if isinstance(cr, numbers.Real) or (isinstance(cr, np.ndarray) and cr.ndim == 0):
            o.cr = _checks.real("cr", cr, finite=False)
        else:
            # one value for all populations or one each; the library reads `islands` values
            # from a per-population array, so its length is checked here
            values = _checks.vector("cr", cr, np.float64, lengths=(1, self.islands))
            if np.isnan(values).any():
                raise ValueError(f"cr contains NaN (entry {int(np.flatnonzero(np.isnan(values))[0])})")
            if values.size == self.islands:
                cr_values = values
                o.cr_per_island = cr_values.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
            else:
                o.cr = float(values[0])
        seeds = de_seeds(seeds)
        o.init_seed, o.mutation_seed, o.crossover_seed, o.migration_seed = seeds
        o.double_precision = 0  # `precision` says it (the older flag would force double)
        o.precision = _precision.code(self._precision_asked)
        o.fitness_precision = self._fitness_code
        o.shared_random = int(_checks.flag("shared_random", settings["shared_random"]))
        o.fused = int(_checks.flag("fused", settings["fused"]))
        o.selection = _checks.choice("selection", settings["selection"], _SELECTIONS)
        o.algorithm = _checks.choice("method", settings["method"], _METHODS)
        o.lshade_budget = _checks.integer("lshade_budget", settings["lshade_budget"], 0, 2**64 - 1)
        o.jde_small = _checks.integer("jde_small", settings["jde_small"], 0, U32)
        o.jde_eps = _checks.real("jde_eps", settings["jde_eps"], finite=False)
        o.jde_age = _checks.integer("jde_age", settings["jde_age"], 0, 2**64 - 1)
        o.backend = _BACKENDS[self.backend]
        o.device = self.device
        return o, cr_values

    def init(self, objective, mutation="DE/rand/1", migration="None", period=10, **options):
        """Sets the objective and the strategies and makes and evaluates a new initial population
        (the generation count restarts at 0).

        ``objective``: a catalogue function name (``"F1"``, ``"CEC07t"``, ...), a
        ``metaopt.Source`` of OpenCL C (``FP objective(x, dims, stride, data)``, its data buffer
        set by ``func_data``), or a Python callable ``f(X) -> F`` that receives the
        ``(islands * members, dims)`` trials of one generation (row ``p * members + m``) and
        returns their values (real numbers). An exception raised by the callable ends the call
        and is re-raised; the callable must not use this instance (see ``Instance``).
        ``mutation``: ``DE/rand/1``, ``DE/rand/2``, ``DE/best/1``, ``DE/best/2``,
        ``DE/current-to-rand/1``, ``DE/current-to-best/1``. ``migration``: ``None``,
        ``One2One``, ``One2N``, ``N2One``, ``N2N``, ``PermuteN``, ``RandTarget``, every
        ``period`` generations.

        Keyword ``options`` update the settings of the constructor for this and later runs
        (the thesis's ``optionsUpdate``): ``f_mode``, ``f_min``, ``f_max``, ``cr``, ``seeds``,
        ``shared_random``, ``fused``, ``selection``, ``method``, ``lshade_budget``, ``jde_small``,
        ``jde_eps``, ``jde_age``, or the thesis's names (``F_coefs_mode``,
        ``CR_coef_const``, ``init_rng_seed``, ...); the others stay. ``precision`` (``double``),
        ``fitness_precision`` and ``backend`` are fixed at creation."""
        thesis = {k: options.pop(k) for k in list(options)
                  if k in _THESIS_NAMES or k in _THESIS_SEEDS or k == "CR_coefs_mode"}
        thesis = _thesis_options(thesis, set(options), "init()")
        unknown = sorted(set(options) - set(self._settings))
        if unknown:
            fixed = [k for k in unknown if k in ("double", "precision", "fitness_precision", "backend")]
            if fixed:
                raise ValueError(f"{fixed[0]} is fixed when the solver is created; make a new IslandDE")
            raise TypeError(f"init() got unexpected option(s) {', '.join(unknown)}; "
                            f"expected some of {', '.join(self._settings)}")
        with self._use("init") as h:
            changed = bool(options or thesis)
            settings = _with_seeds({**self._settings, **options, **thesis})
            update, cr_values = self._options(settings) if changed else (None, None)
            mutation = _checks.c_string("mutation", mutation)
            migration = None if migration is None else _checks.c_string("migration", migration)
            period = _checks.integer("period", period, 0, U32)
            obj, state, keep = make_objective(objective)
            if state is not None:
                # the library may hold the new callback from here on, even if init fails
                self._callbacks.append(state)
            r = _lib.lib().metaopt_de_init(h, ctypes.byref(obj), mutation, migration, period,
                                           None if update is None else ctypes.byref(update))
            del keep, cr_values  # the library copied the strings and the CR values
            try:
                check_int(r, "metaopt_de_init")
            except MetaoptError as err:
                for st in (state, getattr(self, "_violation", None)):
                    if st is not None:
                        st.raise_pending(err)
                raise
            # the library holds only the new objective now, and the updated options
            self._settings = settings
            violation = getattr(self, "_violation", None)
            self._callbacks[:] = [c for c in (state, violation) if c is not None]
            self._callback = state
            self.objective = objective

    def set_constraints(self, violation=None, *, inequalities=0, equalities=0, eq_tol=1e-4, epsilon=None,
                        repair=None):
        """The constraints of the runs from the next ``init`` on; ``set_constraints()`` clears them.

        For a Python callable objective: ``violation(X) -> V``, called beside it with the same
        ``(rows, dims)`` points, returns each point's violation (0 feasible, > 0 infeasible;
        NaN counts as infinite). For a ``metaopt.Source``: ``inequalities`` and ``equalities``
        count the values its ``void constraints(x, dims, stride, data, FP *c)`` writes (the
        inequalities ``g <= 0`` first, then the equalities ``|h| <= eq_tol``), and the violation
        is the sum of the violated values. Points are compared by Deb's feasibility rules, or
        with ``epsilon=True`` (epsilon-DE's settings) or ``epsilon=(theta, tc, cp)`` by the
        epsilon level of epsilon-DE. They need ``method`` ``"de"``, ``"jade"``, ``"shade"``, ``"lshade"`` or ``"jso"`` on one device or the CPU
        backend.

        ``repair``: epsilon-DE's gradient-based repair of infeasible trials (a ``metaopt.Source``'s
        constraints and ``method="de"`` only): ``True`` (probability 0.01, 3 Newton steps), a
        probability, or ``(probability, rounds)``. A repaired trial counts
        ``1 + rounds * (continuous variables + 1)`` evaluations."""
        L = _lib.lib()
        c = L.metaopt_default_constraints()
        state = None
        if violation is not None:
            if not callable(violation):
                raise TypeError(f"violation must be a callable violation(X) -> V, got {type(violation).__name__}")
            if inequalities or equalities:
                raise ValueError("give a violation callable (for a Python objective) or the counts "
                                 "inequalities/equalities (for a metaopt.Source), not both")

            state = violation_state(violation)
            c.violation = state.c_callback
        c.inequalities = _checks.integer("inequalities", inequalities, 0, U32)
        c.equalities = _checks.integer("equalities", equalities, 0, U32)
        c.eq_tol = _checks.real("eq_tol", eq_tol)
        if epsilon is not None and epsilon is not False:
            c.handling = 1
            if epsilon is not True:
                theta, tc, cp = epsilon
                c.epsilon_theta = _checks.real("epsilon theta", theta)
                c.epsilon_tc = _checks.integer("epsilon tc", tc, 0, 2**64 - 1)
                c.epsilon_cp = _checks.real("epsilon cp", cp)
        if repair is not None and repair is not False:
            if repair is True:
                c.repair_probability = 0.01
            elif isinstance(repair, tuple):
                if len(repair) != 2:
                    raise ValueError(f"repair must be True, a probability or (probability, rounds), got {repair!r}")
                c.repair_probability = _checks.real("repair probability", repair[0])
                c.repair_rounds = _checks.integer("repair rounds", repair[1], 0, U32)
            else:
                c.repair_probability = _checks.real("repair", repair)
            if not c.repair_probability > 0:
                raise ValueError(f"repair: probability {c.repair_probability}; expected a value in (0, 1]")
        with self._use("set_constraints") as h:
            none = (violation is None and not inequalities and not equalities and epsilon is None
                    and repair is None)
            r = L.metaopt_de_set_constraints(h, None if none else ctypes.byref(c))
            check_int(r, "metaopt_de_set_constraints")
            # the library holds the violation callback until the next set_constraints: kept
            # with the objective's (as long as the handle)
            old = getattr(self, "_violation", None)
            if old is not None and old in self._callbacks:
                self._callbacks.remove(old)
            if state is not None:
                self._callbacks.append(state)
            self._violation = state

    def iteration(self):
        """One generation (trials, evaluation, selection, migration when its period comes);
        returns the generation number since ``init``."""
        with self._use("iteration") as h:
            return self._check(_lib.lib().metaopt_de_iteration(h), "metaopt_de_iteration").result

    def run(self, generations=None, evaluations=None, target=None, time_limit=None, stop_token=None,
            checkpoint=None, checkpoint_every=None, resume=None):
        """Generations until one condition holds (at least one is needed): ``generations`` and
        ``evaluations`` of this call, the best value at most ``target``, ``time_limit``
        seconds of this call, or a stop request: ``stop_token`` (a ``metaopt.StopToken``)
        requested or ``metaopt.interrupt()`` called (then ``stop == "interrupted"``).
        Returns a ``DEResult``.

        Checkpoints: ``checkpoint`` a file the run writes its whole state to when it ends
        (interrupted or not) and every ``checkpoint_every`` seconds between generations;
        ``resume`` (a ``metaopt.State`` of ``state()``, its bytes, or a checkpoint file's path)
        first loads that state (as ``load_state``), and the run continues the saved one: its
        ``generations``, ``evaluations`` and ``time_limit`` count from the saved run's start, so
        it ends as the run that never stopped.

        Ctrl-C stops the run within about a generation and raises ``metaopt.Interrupted`` (a
        ``KeyboardInterrupt``) whose ``result`` is the ``DEResult`` so far; the instance keeps
        its state (``bests_fitness``, ``best``, ``x`` give the populations so far)."""
        stop_token = _interrupt.token_arg(stop_token)
        resume = _state.resume_arg(resume)
        L = _lib.lib()
        s = _checks.stop(L.metaopt_de_default_stop(), "generations", generations, evaluations, target, time_limit)
        keep_path = []
        _state.set_checkpoint(s, checkpoint, checkpoint_every, keep_path)
        if resume is not None:
            self.load_state(resume)
        with self._use("run") as h:
            r, caught = _interrupt.run(L.metaopt_de_run, (h, ctypes.byref(s)), s, stop_token, "IslandDE.run")
            try:
                self._check(r, "metaopt_de_run", interrupted_ok=True)
                result = DEResult(
                    value=float(r.value),
                    x=np.ctypeslib.as_array(r.x, shape=(r.dims,)).copy() if r.dims else np.zeros(0),
                    island=int(r.island),
                    generations=int(r.generations),
                    evaluations=int(r.evaluations),
                    seconds=float(r.seconds),
                    stop=_interrupt.result_stop(r),
                    precision=_precision.name(r.precision) if r.precision else self.precision,
                    fitness_precision=(_precision.name(r.fitness_precision) if r.fitness_precision
                                       else self.fitness_precision),
                    violation=float(r.violation),
                )
            finally:
                L.metaopt_de_free_run_result(ctypes.byref(r))
        if caught is not None:
            _interrupt.raise_interrupted(caught, result, "IslandDE.run")
        return result

    def state(self):
        """The whole state (every population and its values, the adaptive variants' memories,
        archives, per-member F and CR and counters, the generation and evaluation counts, the
        last run's progress and time) as a ``metaopt.State`` (bytes: it pickles and saves), from
        which ``load_state`` (or ``run(resume=...)``) continues. Needs ``init``."""
        L = _lib.lib()
        with self._use("state") as h:
            return _state.saved(L, L.metaopt_de_save_state, h, "metaopt_de_save_state")

    def load_state(self, state):
        """Continues from ``state`` (a ``metaopt.State``, its bytes, or a checkpoint file's path):
        on an instance made with the saved one's settings and ``init`` with its objective,
        mutation and migration (the state holds no objective: an ``IslandDE`` is rebuilt from
        its settings, then ``load_state``), the populations, values, adaptive state and counters
        become the saved ones, and the next ``run`` continues the saved run. Another objective,
        setting, backend or library version, and damaged bytes, raise ``MetaoptError`` naming
        ``state`` and saying what differs."""
        L = _lib.lib()
        with self._use("load_state") as h:
            _state.load(L.metaopt_de_load_state, h, state, "metaopt_de_load_state")

    def population(self):
        """Every member, ``(islands * members, dims)``, row ``p * members + m``."""
        with self._use("population") as h:
            x = _doubles(_lib.lib().metaopt_de_population(h), "metaopt_de_population")
        return x.reshape(self.islands * self.members, self.dims)

    def set_population(self, x, island=None, clip=False):
        """A warm start after ``init``: the points ``x`` (one point of ``dims`` values, or rows of
        them) replace the first members, in the order ``p * members + m`` (one point: member 0
        of population 0, as scipy's ``x0``; ``(islands * members, dims)``: every member), or with
        ``island`` the first members of that population (at most ``members`` rows); then every
        member is evaluated afresh (``islands * members`` evaluations). Points outside the
        limits are clipped to them with ``clip``, else refused; NaN and infinite values are
        refused. The generation count stays."""
        a = _checks.numeric_array("x", x)
        if a.ndim == 1:
            a = a.reshape(1, -1)
        if a.ndim != 2 or a.shape[1] != self.dims or a.shape[0] == 0:
            raise ValueError(f"x must hold points of dims = {self.dims} values (shape (n, {self.dims})), "
                             f"got shape {np.shape(x)}")
        a = np.ascontiguousarray(a, dtype=np.float64)
        if not np.all(np.isfinite(a)):
            r, c = (int(v[0]) for v in np.nonzero(~np.isfinite(a)))
            raise ValueError(f"x contains NaN or infinite values (row {r}, dimension {c})")
        p = -1 if island is None else self._population(island)
        clip = _checks.flag("clip", clip)
        with self._use("set_population") as h:
            r = _lib.lib().metaopt_de_set_population(
                h, p, a.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), a.shape[0], self.dims, int(clip))
            self._check(r, "metaopt_de_set_population")

    def bests_fitness(self):
        """The best value of every population (the thesis's ``getBestsFitness``), ``(islands,)``."""
        with self._use("bests_fitness") as h:
            return _doubles(_lib.lib().metaopt_de_bests_fitness(h), "metaopt_de_bests_fitness")

    def best_point(self):
        """``(x, value, violation)`` of the best point: without constraints the best island's
        best; with them (``set_constraints``) the best member by Deb's rules over every island
        (the best feasible one, else the least violation)."""
        with self._use("best_point") as h:
            p, m, value, violation = _doubles(_lib.lib().metaopt_de_best_point(h), "metaopt_de_best_point")
        p, m = int(p), int(m)
        x = self.best(p) if m == self.members else self.x(p, m)
        return x, float(value), float(violation)

    def spread(self):
        """``(mean, std)`` of every member's value (numpy's ``std``, over N; the islands' best
        slots left out): scipy's convergence test is ``std <= atol + tol * abs(mean)``. On a
        device each island's moments are computed there and only they are read."""
        with self._use("spread") as h:
            mean, std = _doubles(_lib.lib().metaopt_de_spread(h), "metaopt_de_spread")
            return float(mean), float(std)

    def print_bests(self, file=None):
        """Prints the best value of every population and the best solution over all (the
        thesis's ``printBests``; the format of ``metaopt.hpp``'s ``DEMultiPop::printBests``):
        ``population bests: v0 v1 ...`` then ``best: v in population p at x0 x1 ...``, to
        ``file`` (default ``sys.stdout``)."""
        bests = self.bests_fitness()
        p = int(np.argmin(bests)) if bests.size else 0
        line = "population bests:" + "".join(f" {v:g}" for v in bests)
        where = f"best: {bests[p] if bests.size else 0.0:g} in population {p} at"
        where += "".join(f" {v:g}" for v in self.best(p)) if bests.size else ""
        print(line + "\n" + where, file=file if file is not None else sys.stdout)

    #: the thesis's name of ``print_bests``
    printBests = print_bests

    def best(self, p):
        """The best member of population ``p`` (0-based), ``(dims,)``."""
        p = self._population(p)
        with self._use("best") as h:
            return _doubles(_lib.lib().metaopt_de_best(h, p), "metaopt_de_best")

    def x(self, p, m):
        """Member ``m`` of population ``p`` (both 0-based), ``(dims,)``."""
        p = self._population(p)
        m = _checks.integer("m (member)", m, 0, self.members - 1)
        with self._use("x") as h:
            return _doubles(_lib.lib().metaopt_de_x(h, p, m), "metaopt_de_x")

    def _population(self, p):
        return _checks.integer("p (population)", p, 0, self.islands - 1)

    def func_data(self, data):
        """The ``data`` buffer of a ``Source`` objective (bytes, or a NumPy array's raw memory:
        e.g. ``np.float64([1.5])`` for one double under ``double=True``); empty bytes clear it.
        The library evaluates the whole population again with the new data at once: the bests
        (``bests_fitness``, ``best``, ``run``'s value) are those of the new data right away, the
        members stay, the generation count stays and the evaluations grow by
        ``islands * members``. ``init`` empties the buffer (and evaluates its population
        without it): set the data after ``init``."""
        b = as_bytes("data", data)
        with self._use("func_data") as h:
            check_int(_lib.lib().metaopt_de_func_data(h, b, len(b)), "metaopt_de_func_data")

    def info(self):
        """A description: sizes, F, CR, bounds, objective, strategies, device, generations."""
        with self._use("info") as h:
            r = _lib.lib().metaopt_de_info(h)
            check(r, "metaopt_de_info")
            return take_string(r.text) or ""


SEED_NAMES = ("init", "mutation", "crossover", "migration")


def de_seeds(seeds: Union[int, Sequence[int], None]) -> list:
    """The four seeds (init, mutation, crossover, migration) of island DE: a sequence of four
    integers as given, one integer expanded into four by NumPy's ``SeedSequence`` (the same
    integer gives the same four), or None: four fresh random seeds."""
    if seeds is None or isinstance(seeds, (numbers.Integral, np.integer)) and not isinstance(seeds, (bool, np.bool_)):
        if seeds is not None:
            _checks.integer("seeds", seeds, 0, None)
        return [int(v) for v in np.random.SeedSequence(None if seeds is None else int(seeds)).generate_state(4, np.uint64)]
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__len__") or len(seeds) != 4:
        raise ValueError(f"seeds must be one integer or 4 integers (init, mutation, crossover, migration), got {seeds!r}")
    return [_checks.integer(f"seeds[{i}] ({n})", v, 0, U64) for i, (n, v) in enumerate(zip(SEED_NAMES, seeds))]


def _limits(limits, dims):
    """The limits as consecutive pairs a, b: (2,) for all dimensions or (dims, 2)."""
    a = _checks.numeric_array("limits", limits)
    if a.shape not in ((2,), (1, 2), (dims, 2)):
        raise ValueError(f"limits must be (a, b) or of shape (dims, 2) = ({dims}, 2), got shape {a.shape}")
    return np.ascontiguousarray(a, dtype=np.float64).reshape(-1)


def _bounds(bounds):
    names = [bounds] if isinstance(bounds, str) else bounds
    if isinstance(names, (bytes, np.ndarray)) or not isinstance(names, (list, tuple)):
        raise TypeError(f"bounds must be a name such as 'COTN' or a list of names, got {type(bounds).__name__}")
    for i, n in enumerate(names):
        if not isinstance(n, str):
            raise TypeError(f"bounds[{i}] must be a str, got {type(n).__name__}")
        if "," in n and len(names) > 1:
            raise ValueError(f"bounds[{i}] is {n!r}; give one name per entry")
    return list(names)
