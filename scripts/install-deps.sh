#!/usr/bin/env bash
# Installs the system packages that building and testing metaopt need, on Debian and Ubuntu:
# the OpenCL loader and headers, PoCL (OpenCL on the CPU, so everything runs without a GPU),
# clinfo, valgrind (the C example's memory check), Oclgrind (the kernels' check), a C toolchain, Python 3 with NumPy, pytest,
# setuptools-rust, build and SciPy (the Python package's wheel and tests), GNU Octave with mkoctfile (the MEX gateway's tests)
# and Open MPI with libclang (the CLI's `--mpi`).
# Rust itself is not installed here: cargo must already be on the PATH.
#
# Idempotent: packages already installed are left alone, and when nothing is missing apt is not
# touched at all (no `apt-get update`). Runs as root (as CI does) or through sudo.
set -euo pipefail

PACKAGES=(
    pocl-opencl-icd     # OpenCL driver for the CPU
    ocl-icd-libopencl1  # the OpenCL ICD loader, libOpenCL.so.1
    ocl-icd-opencl-dev  # libOpenCL.so and the CL headers
    clinfo
    voronota            # the reference Voronoi vertices of the AWVD tests (issue 20)
    valgrind
    oclgrind            # the kernels' memory, race and uninitialised-value check (scripts/oclgrind-check.py)
    gcc
    g++                 # the MEX gateway's small C++ part (catches Octave's interrupt)
    libc6-dev
    make
    pkg-config
    # the Python front end's tests (Debian's interpreter, no downloads)
    python3
    python3-numpy
    python3-scipy
    python3-networkx
    python3-pytest
    python3-venv
    python3-setuptools
    python3-wheel
    python3-pip
    # the Python wheel: setuptools-rust runs cargo (`pip install ./python`, `python -m build
    # --wheel python`, offline with --no-build-isolation); python3-build is `python -m build`.
    # Debian's python3-setuptools-rust depends on Debian's cargo/rustc: the rustup cargo on the
    # PATH still comes first and is the one that builds.
    python3-setuptools-rust
    python3-build
    # scipy: the tests compare metaopt.minimize with scipy.optimize.differential_evolution
    python3-scipy
    # the MATLAB/Octave front end: Octave and mkoctfile (--mex) with its headers
    octave
    octave-dev
    # `--mpi` (the CLI's cargo feature `mpi`, docs/SCALE.md): Open MPI with mpicc and mpirun, and
    # libclang for the mpi crate's bindings; `make test` runs the MPI tests when mpicc is present
    libopenmpi-dev
    openmpi-bin
    libclang-dev
)

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: not a Debian-like system (no dpkg-query/apt-get); install these yourself:" >&2
    echo "  ${PACKAGES[*]}" >&2
    echo "  (an OpenCL ICD loader, an OpenCL driver such as PoCL, OpenCL headers, clinfo, valgrind, a C compiler)" >&2
    exit 0
fi

missing=()
for p in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all system packages present"
else
    if [ "$(id -u)" -eq 0 ]; then
        SUDO=()
    elif command -v sudo >/dev/null 2>&1; then
        SUDO=(sudo)
    else
        echo "install-deps: missing ${missing[*]}, and neither root nor sudo is available to install them" >&2
        exit 1
    fi
    echo "install-deps: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    "${SUDO[@]}" apt-get update -q
    "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if ! command -v cargo >/dev/null 2>&1; then
    echo "install-deps: cargo is not on the PATH; install Rust (https://rustup.rs) first" >&2
    exit 1
fi
