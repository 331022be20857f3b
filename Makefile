# metaopt: the two commands of a fresh machine are `make run` and `make test`; both install the
# system packages first (scripts/install-deps.sh, idempotent) and build in release mode.
#
#   make run     build, list the OpenCL devices, solve the bundled nug12 on the default device
#   make test    build, run every test (cargo test --release --workspace), build the C examples, then the
#                Python (test-python) and Octave (test-octave) front ends' tests
#   make test-python   pytest of python/metaopt with Debian's /usr/bin/python3 (PYTHON=...)
#   make test-octave   build the MEX gateway with mkoctfile --mex and run its Octave tests
#   make bench   the QAP throughput benchmark (tho150, 15 swaps) as CSV in target/bench-qap.csv

CARGO ?= cargo
BIN := target/release/metaopt
# the instance `make run` solves, and how long it may try to reach its best-known value
RUN_INSTANCE ?= data/qaplib/nug12.dat
RUN_SECONDS ?= 60
# the front ends' tests use the system interpreters (scripts/install-deps.sh installs them), not
# whatever python3 or octave comes first on the PATH
PYTHON ?= /usr/bin/python3
OCTAVE ?= octave-cli
PYTEST_RUN = $(PYTHON) -m pytest -q -p no:cacheprovider python/tests
OCTAVE_RUN = cd matlab && $(OCTAVE) --quiet --no-history --norc \
	--eval "build_octave(); run('tests/test_metaopt.m')"

.PHONY: all deps build run test test-python test-octave bench clippy clean help

all: build

deps:
	scripts/install-deps.sh

build: deps
	$(CARGO) build --release

run: build
	$(BIN) devices
	$(BIN) qap solve $(RUN_INSTANCE) --target bks --time-limit $(RUN_SECONDS)

test: build
	$(CARGO) test --release --workspace
	if [ -f c_examples/Makefile ]; then $(MAKE) -C c_examples; fi
	$(PYTEST_RUN)
	$(OCTAVE_RUN)

test-python: build
	$(PYTEST_RUN)

test-octave: build
	$(OCTAVE_RUN)

bench: build
	$(BIN) bench qap --csv target/bench-qap.csv

clippy:
	$(CARGO) clippy --release --workspace --all-targets

clean:
	$(CARGO) clean
	if [ -f c_examples/Makefile ]; then $(MAKE) -C c_examples clean; fi
	rm -rf matlab/metaopt_mex.mex python/build python/metaopt.egg-info

help:
	@sed -n '1,11p' Makefile
