#!/usr/bin/env python3
"""Batched DE baseline: EvoX 1.4.0 (PyTorch) differential evolution on B independent problems.

B independent problems are solved at once, each with its own population of NP members in D
dimensions: DE/rand/1/bin, F = 0.5, CR = 0.9, on metaopt's Rastrigin (F6) or CEC07t
(see bde_common.py). The idiomatic EvoX 1.x way to run many instances of a workflow: the
stateful step of a StdWorkflow(evox.algorithms.DE, problem) made functional with
evox.core.use_state, vectorised over the B instances with evox.core.vmap (torch.vmap, here with
randomness="different" so each problem draws its own random numbers) applied to the stacked
module states (torch.func.stack_module_state), and compiled with evox.core.compile
(torch.compile, fullgraph=True), as evox.problems.HPOProblemWrapper does for its instances.
The generation loop is a Python loop over the compiled step (EvoX has no scan).

What EvoX 1.4.0's DE (evox/algorithms/so/de_variants/de.py) does, read from its source:
* parents: base r0 and r1, r2 are independent torch.randint draws over [0, NP): WITH replacement,
  they may equal each other and the target (the source says so in a TODO); metaopt draws
  distinct r0, r1, r2, all different from the target.
* crossover: binomial, mask = rand < CR, and j_rand is kept (mask.scatter at a randint column).
* bounds: the trial is clamped to [lb, ub] (evox.utils.clamp = saturation, metaopt's `sat`).
* selection: strict (new < old).
* random numbers: per instance with randomness="different" (the default here); --randomness same
  reproduces HPOProblemWrapper's setting (num_repeats = 1), where all B instances share every
  random draw (only their initial populations differ).
* precision: float32 or float64 through torch's default dtype (DE's torch.rand/torch.empty
  follow it); torch's TF32 matmul is left off (the default), so float is true float32.
* fitness of the initial population: evaluated once in init_step (not timed as a generation).
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bde_common as common  # noqa: E402


def main():
    ap = common.parse_args("evox", __doc__.splitlines()[0])
    ap.add_argument("--randomness", choices=["different", "same"], default="different",
                    help="torch.vmap randomness across problems (default: different)")
    ap.add_argument("--max-seconds", type=float, default=None,
                    help="cap one timed run at about this many seconds: after the warm-up, 10 timed "
                         "generations set G = min(G, max(10, seconds / time per generation))")
    ap.add_argument("--no-compile", action="store_true", help="run the vmapped step eagerly")
    ap.add_argument("--algorithm", choices=["de", "jade", "shade"], default="de",
                    help="EvoX's algorithm: de (DE/rand/1/bin, F 0.5, CR 0.9), jade (evox.algorithms.JaDE, "
                         "its defaults: c = 0.1, one difference vector) or shade (evox.algorithms.SHADE, "
                         "its defaults); with --problems 1 the timing of one population")
    ap.add_argument("--compile-mode", default=None,
                    help="torch.compile mode (e.g. max-autotune-no-cudagraphs); default: torch's default")
    args = ap.parse_args()

    import torch
    import evox
    from evox.algorithms import DE
    from evox.core import Problem, compile as evox_compile, use_state, vmap
    from evox.workflows import StdWorkflow

    version = getattr(evox, "__version__", None)
    if version is None:
        from importlib.metadata import version as _v
        version = _v("evox")
    device = torch.device(args.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    dtype = torch.float64 if args.precision == "double" else torch.float32
    torch.set_default_dtype(dtype)
    torch.set_default_device(device)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.manual_seed(args.seed)

    B, NP, D, G = args.problems, args.members, args.dims, args.generations
    _, (lo, hi) = common.FUNCTIONS[args.function]
    f = common.torch_objective(args.function, D, dtype, device)

    class Objective(Problem):
        def __init__(self):
            super().__init__()

        def evaluate(self, pop):
            return f(pop)

    lb, ub = torch.full((D,), lo), torch.full((D,), hi)
    if args.algorithm == "jade":
        from evox.algorithms import JaDE
        algo = JaDE(pop_size=NP, lb=lb, ub=ub, device=device)
    elif args.algorithm == "shade":
        from evox.algorithms import SHADE
        algo = SHADE(pop_size=NP, lb=lb, ub=ub, device=device)
    else:
        algo = DE(pop_size=NP, lb=lb, ub=ub, base_vector="rand",
                  num_difference_vectors=1, differential_weight=0.5, cross_probability=0.9, device=device)
    workflow = StdWorkflow(algo, Objective(), device=device)

    params, buffers = torch.func.stack_module_state([workflow] * B)
    state0 = {**params, **buffers}
    pop_key = next(k for k in state0 if k.endswith("algorithm.pop"))
    fit_key = next(k for k in state0 if k.endswith("algorithm.fit"))

    step = vmap(use_state(workflow.step), randomness=args.randomness)
    init = vmap(use_state(workflow.init_step), randomness=args.randomness)
    if not args.no_compile:
        kw = {"fullgraph": True}
        if args.compile_mode:
            kw["mode"] = args.compile_mode
        step = evox_compile(step, **kw)

    def sync():
        if device.type == "cuda":
            torch.cuda.synchronize(device)

    def fresh_state():
        # each problem its own uniform initial population in [lo, hi]^D (stack_module_state
        # copies one workflow B times, so the populations are drawn here)
        st = {k: v.clone() for k, v in state0.items()}
        st[pop_key] = lo + (hi - lo) * torch.rand(B, NP, D, dtype=dtype, device=device)
        st[fit_key] = torch.full((B, NP), float("inf"), dtype=dtype, device=device)
        return init(st)

    def run(gens):
        st = fresh_state()
        sync()
        t0 = time.perf_counter()
        for _ in range(gens):
            st = step(st)
        sync()
        dt = time.perf_counter() - t0
        best = st[fit_key].min(dim=1).values
        return dt, best

    extra = {"algorithm": args.algorithm, "randomness": args.randomness, "compiled": not args.no_compile,
             "torch": torch.__version__}
    if not args.no_warmup:
        t0 = time.perf_counter()
        try:
            run(min(G, 5))  # compiles the step (and runs a few generations)
        except Exception as e:  # noqa: BLE001  (torch.compile refusing a step: time it eagerly)
            if args.no_compile:
                raise
            print(f"evox: torch.compile failed ({type(e).__name__}: {str(e)[:200]}); running eagerly", file=sys.stderr)
            step = vmap(use_state(workflow.step), randomness=args.randomness)
            extra["compiled"] = False
            run(min(G, 5))
        extra["warmup_s"] = time.perf_counter() - t0
    if args.max_seconds:
        probe, _ = run(10)
        cap = max(10, int(args.max_seconds / (probe / 10)))
        if cap < G:
            print(f"evox: {probe / 10 * 1e3:.2f} ms per generation: G = {cap} instead of {G} "
                  f"(--max-seconds {args.max_seconds:g})", file=sys.stderr)
            extra["generations_requested"] = G
            G = args.generations = cap
    runs = []
    for r in range(args.repeats):
        dt, best = run(G)
        runs.append({"seconds": dt, "mean_best": best.mean().item(), "min_best": best.min().item(),
                     "max_best": best.max().item()})
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"
    common.report(args, "evox", version, name, runs, extra)


if __name__ == "__main__":
    main()
