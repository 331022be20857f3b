# metaopt: the two commands of a fresh machine are `make run` and `make test`; both install the
# system packages first (scripts/install-deps.sh, idempotent) and build in release mode.
#
#   make run     build, list the OpenCL devices, solve the bundled nug12 on the default device
#   make test    build, run every test (cargo test --release), build the C examples
#   make bench   the QAP throughput benchmark (tho150, 15 swaps) as CSV in target/bench-qap.csv

CARGO ?= cargo
BIN := target/release/metaopt
# the instance `make run` solves, and how long it may try to reach its best-known value
RUN_INSTANCE ?= data/nug12.dat
RUN_SECONDS ?= 60

.PHONY: all deps build run test bench clippy clean help

all: build

deps:
	scripts/install-deps.sh

build: deps
	$(CARGO) build --release

run: build
	$(BIN) devices
	$(BIN) qap solve $(RUN_INSTANCE) --target bks --time-limit $(RUN_SECONDS)

test: build
	$(CARGO) test --release
	if [ -f c_examples/Makefile ]; then $(MAKE) -C c_examples; fi

bench: build
	$(BIN) bench qap --csv target/bench-qap.csv

clippy:
	$(CARGO) clippy --release --all-targets

clean:
	$(CARGO) clean
	if [ -f c_examples/Makefile ]; then $(MAKE) -C c_examples clean; fi

help:
	@sed -n '1,8p' Makefile
