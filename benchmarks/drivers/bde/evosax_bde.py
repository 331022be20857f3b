#!/usr/bin/env python3
"""Batched DE baseline: evosax 0.3.2 (JAX) differential evolution on B independent problems.

B independent problems are solved at once, each with its own population of NP members in D
dimensions: DE/rand/1/bin, F = 0.5, CR = 0.9, on metaopt's Rastrigin (F6) or CEC07t
(see bde_common.py). The idiomatic evosax way: the ask/evaluate/tell loop of one problem as a
jax.lax.scan over the G generations, jax.vmap over the B problems (each its own PRNG key, so
its own random numbers), the whole run under one jax.jit.

What evosax 0.3.2's DifferentialEvolution (evosax/algorithms/population_based/
differential_evolution.py) does, read from its source:
* parameters: elitism=False (default True = DE/best/1), crossover_rate=0.9,
  differential_weight=0.5 (min = max = 0.5: no dithering).
* parents: base a drawn with jax.random.choice over the members with p = 0 at the target; b, c
  with jax.random.choice(replace=False) with p = 0 at the target and at a: r0, r1, r2 distinct
  and different from the target, as metaopt (jax.random.choice with p and replace=False is a
  Gumbel top-k over all NP members for each of the NP targets: O(NP^2) per generation).
* crossover: binomial, r < CR or j == R with R = jax.random.choice(D): j_rand is kept.
* bounds: evosax does not handle bounds at all; this script clips each trial to [lo, hi]
  before evaluating and telling it (saturation, metaopt's `sat`, EvoX's clamp).
* selection: new <= old (ties accepted).
* random numbers: one key per problem, split each generation; nothing is shared across problems.
* precision: float32, or float64 with jax_enable_x64 (--precision double sets it); jnp.matmul in
  the CEC07t rotation uses precision="highest" (no TF32 on the GPU).
* the fitness of the initial population is evaluated once before the scan (not a generation);
  tell also computes evosax's per-generation metrics (best so far etc.), part of its cost.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bde_common as common  # noqa: E402


def main():
    ap = common.parse_args("evosax", __doc__.splitlines()[0])
    args = ap.parse_args()

    if args.device:
        os.environ.setdefault("JAX_PLATFORMS", args.device)
    import jax
    if args.precision == "double":
        jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    import evosax
    from evosax.algorithms import DifferentialEvolution

    try:
        from importlib.metadata import version as _v
        version = _v("evosax")
    except Exception:  # pragma: no cover
        version = getattr(evosax, "__version__", "?")
    dtype = jnp.float64 if args.precision == "double" else jnp.float32

    B, NP, D, G = args.problems, args.members, args.dims, args.generations
    _, (lo, hi) = common.FUNCTIONS[args.function]
    f = common.jax_objective(args.function, D, dtype)

    strategy = DifferentialEvolution(population_size=NP, solution=jnp.zeros(D, dtype=dtype))
    params = strategy.default_params.replace(
        elitism=False, crossover_rate=0.9, differential_weight=0.5,
        differential_weight_min=0.5, differential_weight_max=0.5)

    def solve_one(key):
        key, k_pop, k_init = jax.random.split(key, 3)
        pop = jax.random.uniform(k_pop, (NP, D), dtype=dtype, minval=lo, maxval=hi)
        state = strategy.init(k_init, pop, f(pop), params)

        def generation(carry, _):
            key, state = carry
            key, k_ask, k_tell = jax.random.split(key, 3)
            x, state = strategy.ask(k_ask, state, params)
            x = jnp.clip(x, lo, hi)
            state, _ = strategy.tell(k_tell, x, f(x), state, params)
            return (key, state), None

        (_, state), _ = jax.lax.scan(generation, (key, state), None, length=G)
        return state.fitness.min(), state.best_fitness

    solve = jax.jit(jax.vmap(solve_one))

    def run(seed):
        keys = jax.random.split(jax.random.key(seed), B)
        jax.block_until_ready(keys)
        t0 = time.perf_counter()
        best, best_archive = jax.block_until_ready(solve(keys))
        return time.perf_counter() - t0, best, best_archive

    extra = {"jax": jax.__version__, "backend": jax.default_backend()}
    if not args.no_warmup:
        t0 = time.perf_counter()
        run(args.seed + 1000)  # compiles (the same shapes: G is static in the scan)
        extra["warmup_s"] = time.perf_counter() - t0
    runs = []
    for r in range(args.repeats):
        dt, best, best_archive = run(args.seed + r)
        runs.append({"seconds": dt, "mean_best": float(best.mean()), "min_best": float(best.min()),
                     "max_best": float(best.max()),
                     "archive_matches": bool(jnp.all(best_archive == best))})
    dev = jax.devices()[0]
    name = getattr(dev, "device_kind", str(dev))
    common.report(args, "evosax", version, name, runs, extra)


if __name__ == "__main__":
    main()
