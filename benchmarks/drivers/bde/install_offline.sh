#!/usr/bin/env bash
# Installs EvoX 1.4.0, evosax 0.3.2 and their dependencies (not torch/jax/jaxlib/numpy/scipy/
# ml_dtypes/opt_einsum/CUDA: the machine's own) offline from gpu/wheels into a target folder.
# Usage (from the repository root): bash gpu/bde/install.sh [TARGET]   (default /tmp/pylibs)
# Then: export PYTHONPATH=TARGET (run.sh does both).
set -euo pipefail
cd "$(dirname "$0")/../../.."
TARGET=${1:-/tmp/pylibs}
PY=${PYTHON:-python3}
if "$PY" -m pip --version >/dev/null 2>&1; then
  "$PY" -m pip install --no-index --find-links gpu/wheels --no-deps --target "$TARGET" --upgrade gpu/wheels/*.whl >/dev/null
else
  # no pip: a wheel is a zip laid out for site-packages (none of these needs its scripts)
  echo "no pip for $PY: unzipping the wheels into $TARGET"
  mkdir -p "$TARGET"
  "$PY" -c 'import sys, zipfile; [zipfile.ZipFile(w).extractall(sys.argv[1]) for w in sys.argv[2:]]' "$TARGET" gpu/wheels/*.whl
fi
echo "installed $(ls gpu/wheels/*.whl | wc -l) wheels into $TARGET"
PYTHONPATH="$TARGET" "$PY" - <<'PY'
import importlib.metadata as md
for p in ("torch", "jax", "jaxlib", "numpy", "ml_dtypes", "evox", "evosax", "flax", "optax", "orbax-checkpoint", "tensorstore"):
    try:
        print(f"  {p} {md.version(p)}")
    except md.PackageNotFoundError:
        print(f"  {p} MISSING")
import jax, torch, evox, evosax  # noqa: F401  (fails here, not in the middle of run.sh)
print("  imports ok:", jax.devices(), "cuda" if torch.cuda.is_available() else "no cuda for torch")
PY
