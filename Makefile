# metaopt: the two commands of a fresh machine are `make run` and `make test`; both install the
# system packages first (scripts/install-deps.sh, idempotent) and build in release mode.
#
#   make run     build, list the OpenCL devices, solve the bundled nug12 on the default device
#   make test    build, run every test (cargo test --release --workspace; the CLI's --mpi tests with
#                the `mpi` feature where mpicc and mpirun exist), every kernel under Oclgrind
#                (test-oclgrind), make doc, build the C examples, then the Python (test-python) and
#                Octave (test-octave) front ends' tests
#   make test-oclgrind   every kernel of cl/ on a small case under Oclgrind (memory errors, data
#                races, uninitialised values: scripts/oclgrind-check.py; skipped without Oclgrind)
#   make test-python   pytest of python/metaopt with Debian's /usr/bin/python3 (PYTHON=...)
#   make test-octave   build the MEX gateway with mkoctfile --mex and run its Octave tests
#   make bench   the QAP throughput benchmark (tho150, 15 swaps) as CSV in target/bench-qap.csv
#   make lint    cargo fmt --all --check, no lab notes in code and docs (scripts/check-lab-notes.py),
#                no import cycles (scripts/check-import-cycles.py), clippy with warnings as errors (part of make test)
#   make doc     the Rust API documentation (target/doc/metaopt), warnings are errors
#   make install [PREFIX=/usr/local] [DESTDIR=]   the library (libmetaopt.so.X.Y.Z, SONAME
#                libmetaopt.so.X), include/metaopt.h and metaopt.hpp, metaopt.pc and the metaopt binary
#   make uninstall [PREFIX=/usr/local] [DESTDIR=]  removes what install installed
#   make fuzz [FUZZ_RUNS=N] [FUZZ_SECONDS=60] [FUZZ_TARGETS=...]  libFuzzer over every file reader,
#                no cargo-fuzz needed (scripts/fuzz.sh, fuzz/README.md)

CARGO ?= cargo
BIN := target/release/metaopt
# the instance `make run` solves, and how long it may try to reach its best-known value
RUN_INSTANCE ?= data/qaplib/nug12.dat
RUN_SECONDS ?= 60
# the front ends' tests use the system interpreters (scripts/install-deps.sh installs them), not
# whatever python3 or octave comes first on the PATH
PYTHON ?= /usr/bin/python3
OCTAVE ?= octave-cli
OCLGRIND_RUN = $(PYTHON) scripts/oclgrind-check.py --cargo $(CARGO)
PYTEST_RUN = $(PYTHON) -m pytest -q -p no:cacheprovider python/tests
OCTAVE_RUN = cd matlab && $(OCTAVE) --quiet --no-history --norc \
	--eval "build_octave(); run('tests/test_metaopt.m')" && $(OCTAVE) --quiet --no-history --norc \
	--eval "run('tests/test_sp.m')" && $(OCTAVE) --quiet --no-history --norc \
	--eval "run('tests/test_awvd.m')" && $(OCTAVE) --quiet --no-history --norc \
	--eval "run('tests/test_evaluate.m')" && $(OCTAVE) --quiet --no-history --norc \
	--eval "run('tests/test_de_adaptive.m')" && $(OCTAVE) --quiet --no-history --norc \
	--eval "run('tests/test_constraints.m')"

# Installation (GNU conventions: PREFIX, DESTDIR, LIBDIR, ...). The kernels are embedded in the
# library (src/device/source.rs), so no cl/ folder is installed. NO_BUILD=1 installs what is
# already built (as root after a build as yourself); LIB_SRC and BIN_SRC pick other builds.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
LIB_SRC ?= target/release/libmetaopt.so
BIN_SRC ?= $(BIN)
INSTALL ?= install
# the version of [workspace.package] in Cargo.toml (the first `version = "..."` line)
VERSION := $(shell sed -n 's/^version *= *"\(.*\)"/\1/p' Cargo.toml | head -n 1)
VERSION_MAJOR := $(word 1,$(subst ., ,$(VERSION)))
SONAME := libmetaopt.so.$(VERSION_MAJOR)
LIB_FILE := libmetaopt.so.$(VERSION)

.PHONY: all deps build release run test test-oclgrind test-python test-octave bench clippy lint doc install uninstall clean help fuzz

all: build

deps:
	scripts/install-deps.sh

build: deps
	$(CARGO) build --release

run: build
	$(BIN) devices
	$(BIN) qap solve $(RUN_INSTANCE) --target bks --time-limit $(RUN_SECONDS)

test: build lint
	$(CARGO) test --release --workspace
	if command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1; then $(CARGO) test --release -p metaopt-cli --features mpi --test it mpi::; else echo "make test: no mpicc/mpirun, the --mpi tests are skipped"; fi
	$(OCLGRIND_RUN)
	$(MAKE) doc
	if [ -f c_examples/Makefile ]; then $(MAKE) -C c_examples; fi
	$(PYTEST_RUN)
	$(OCTAVE_RUN)

test-oclgrind: build
	$(OCLGRIND_RUN)

test-python: build
	$(PYTEST_RUN)

test-octave: build
	$(OCTAVE_RUN)

bench: build
	$(BIN) bench qap --csv target/bench-qap.csv

doc:
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps -p metaopt

install: $(if $(NO_BUILD),,release)
	@test -n "$(VERSION)" || { echo "install: no version in Cargo.toml" >&2; exit 1; }
	@test -f $(LIB_SRC) || { echo "install: $(LIB_SRC) is missing: run make build first" >&2; exit 1; }
	$(INSTALL) -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR)
	$(INSTALL) -m 755 $(LIB_SRC) $(DESTDIR)$(LIBDIR)/$(LIB_FILE)
	ln -sf $(LIB_FILE) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libmetaopt.so
	$(INSTALL) -m 644 include/metaopt.h $(DESTDIR)$(INCLUDEDIR)/metaopt.h
	$(INSTALL) -m 644 include/metaopt.hpp $(DESTDIR)$(INCLUDEDIR)/metaopt.hpp
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
		-e 's|@VERSION@|$(VERSION)|g' metaopt.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/metaopt.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/metaopt.pc
	if [ -n "$(BIN_SRC)" ]; then $(INSTALL) -d $(DESTDIR)$(BINDIR) && \
		$(INSTALL) -m 755 $(BIN_SRC) $(DESTDIR)$(BINDIR)/metaopt; fi

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/$(LIB_FILE) $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libmetaopt.so
	rm -f $(DESTDIR)$(INCLUDEDIR)/metaopt.h $(DESTDIR)$(INCLUDEDIR)/metaopt.hpp $(DESTDIR)$(PKGCONFIGDIR)/metaopt.pc \
		$(DESTDIR)$(BINDIR)/metaopt

# the release build without the system packages (install may run without network or root)
release:
	$(CARGO) build --release

# The fuzz targets (fuzz/README.md), built and run by scripts/fuzz.sh on a nightly toolchain
# (installed when missing; no cargo-fuzz needed): each target runs FUZZ_RUNS executions and/or
# FUZZ_SECONDS (60 when neither is set) from its committed corpus (fuzz/corpus/<target>, read
# only), keeps what it finds in fuzz/corpus-work/<target> and any failing input in
# fuzz/artifacts/<target>/; fuzz/report.csv has each target's executions, seconds and result,
# and any failure makes the step fail. `make test` runs the corpora on stable
# (tests/it/reliability/fuzz_corpus.rs).
FUZZ_SECONDS ?=
FUZZ_RUNS ?=
FUZZ_TOOLCHAIN ?= nightly
FUZZ_TARGETS ?=
FUZZ_RUN_FLAGS ?=

fuzz:
	FUZZ_SECONDS='$(FUZZ_SECONDS)' FUZZ_RUNS='$(FUZZ_RUNS)' FUZZ_TOOLCHAIN='$(FUZZ_TOOLCHAIN)' \
		FUZZ_TARGETS='$(FUZZ_TARGETS)' FUZZ_RUN_FLAGS='$(FUZZ_RUN_FLAGS)' scripts/fuzz.sh

clippy:
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings

# what `make test` checks before the tests: the formatting (rustfmt.toml) and clippy's lints as
# errors (release profile, so that it shares the test build's dependencies)
lint:
	$(CARGO) fmt --version >/dev/null 2>&1 || rustup component add rustfmt
	$(CARGO) clippy --version >/dev/null 2>&1 || rustup component add clippy
	$(CARGO) fmt --all --check
	python3 scripts/check-lab-notes.py
	python3 scripts/check-import-cycles.py
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings

clean:
	$(CARGO) clean
	if [ -f c_examples/Makefile ]; then $(MAKE) -C c_examples clean; fi
	rm -rf matlab/metaopt_mex.mex python/build python/metaopt.egg-info

help:
	@sed -n '1,20p' Makefile
