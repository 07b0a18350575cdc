# floe: convenience targets over CMake. `make demo` and `make test` install
# missing Debian packages first (tools/ensure-deps.sh).
BUILD ?= build
JOBS  ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: bench-bonded all deps build test demo sanitize fuzz clean bench doc-numbers

all: build

deps:
	@tools/ensure-deps.sh

# The Python module (python/floe, docs/python.md) is built when Debian's
# python3 has its headers and numpy (tools/ensure-deps.sh installs them).
PYTHON_ON = $$(/usr/bin/python3 -c "import numpy, sysconfig, os; \
  assert os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h'))" 2>/dev/null \
  && echo ON || { echo "floe: python3-dev or python3-numpy missing: no Python module" >&2; echo OFF; })

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLOE_WERROR=ON -DFLOE_PYTHON=$(PYTHON_ON) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# Builds with warnings as errors and runs every test (the Python module's
# with pytest: tests/python).
test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Runs the main example (floating level ice breaking against a sloping
# structure, examples/ice-on-water.yaml) into out/, draws its final state
# (floes, the ramp, the water) with `floe render` to out/ice-on-water.png
# and the load on the ramp against Croasdale's prediction to
# out/ice-on-water-load.png (Debian's python3-matplotlib and python3-numpy,
# installed if missing); open out/*.pvd in ParaView afterwards.
demo: build
	@tools/ensure-deps.sh python3-matplotlib python3-numpy
	@$(BUILD)/floe run examples/ice-on-water.yaml --out out
	@$(BUILD)/floe render out --color floe --view top,side --size 1100x900 --png out/ice-on-water.png
	@/usr/bin/python3 -c 'import json, sys; sys.path.insert(0, "tools"); import render_floes; \
		render_floes.load_plot("out", "out/ice-on-water-load.png", \
		json.load(open("docs/numbers/demo.json"))["numbers"]["line_N"]["value"])'
	@echo "floe demo: outputs in out/ (open out/particles.pvd, out/contacts.pvd and out/boundaries.pvd in ParaView); pictures: out/ice-on-water.png, out/ice-on-water-load.png"

# The numbers the docs quote, from the runs that make them (docs/decisions.md,
# "Numbers in the docs come from one command"): runs the sources of
# tools/doc_sources.py that are stale (their JSON missing, their scripts or
# scenes changed, or the engine gives another state in their first steps)
# into docs/numbers/SOURCE.json, redraws their pictures into docs/img/ and
# writes the numbers into the docs, listing every quoted number that changed.
# ONLY=demo,triaxial: those sources, stale or not; FORCE=1: every source;
# FILL_ONLY=1: only the docs from docs/numbers/*.json; DOC_JOBS=N: sources
# side by side (default 1). All of them take one to two hours on 2 cores.
DOC_JOBS ?= 1
doc-numbers: $(if $(filter-out 0,$(FILL_ONLY)),,build)
	@tools/ensure-deps.sh python3-matplotlib python3-numpy python3-scipy
	@/usr/bin/python3 tools/doc_numbers.py --build $(BUILD) -j $(DOC_JOBS) $(if $(ONLY),--only $(ONLY)) \
		$(if $(filter-out 0,$(FORCE)),--force) $(if $(filter-out 0,$(FILL_ONLY)),--fill-only)

# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer (the
# Python tests with the sanitizer runtimes preloaded into the interpreter).
sanitize: deps
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DFLOE_SANITIZE=ON -DFLOE_WERROR=ON -DFLOE_PYTHON=$(PYTHON_ON) >/dev/null
	@cmake --build build-asan -j $(JOBS)
	@cd build-asan && ASAN_OPTIONS=detect_leaks=1 FLOE_SANITIZED=1 ctest --output-on-failure -j $(JOBS)

# libFuzzer on the scene loader, the STL reader and the restart loader, FUZZ_TIME seconds each
# (default 60; clang-14 and libclang-rt-14-dev). See tests/fuzz/README.md.
fuzz: deps
	@tools/ensure-deps.sh clang-14 libclang-rt-14-dev
	@tools/fuzz.sh

# Side-by-side benchmark against LAMMPS, LIGGGHTS and Yade (docs/performance.md):
# release build in build-release/, results in build-bench/. QUICK=1: 10k, 1 thread,
# one short pass (about a minute). Extra options: BENCH_ARGS="--install-peers --reps 5".
bench:
	@bench/run.sh $(if $(filter-out 0,$(QUICK)),--quick) $(BENCH_ARGS)

# Bonded sheet: floe's Ice model against Yade's CohFrictMat (bench/bonded/README.md).
# QUICK=1: 4k particles, 1 thread, one pass.
bench-bonded:
	@QUICK=$(or $(QUICK),0) bench/run_bonded.sh

# Installs bin/floe, lib/libfloe.{a,so} and lib/libfloe-io.{a,so},
# include/floe/floe.h and floe_io.h, lib/pkgconfig/floe.pc and floe-io.pc,
# the man page share/man/man1/floe.1 and the docs share/doc/floe/ (where
# `floe --help` points) and share/floe/render.py (what `floe render` runs) under PREFIX: `make install PREFIX=$HOME/.local`.
# Builds first; an existing build directory keeps its configuration.
.PHONY: install
PREFIX ?= /usr/local
install:
	@tools/ensure-deps.sh pkg-config
	@test -f $(BUILD)/CMakeCache.txt || $(MAKE) --no-print-directory build
	@cmake --build $(BUILD) -j $(JOBS) --target floe floe_shared floe_io floe_io_shared floe_cli floe_man
	@cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) build-asan build-fuzz out floe.egg-info
