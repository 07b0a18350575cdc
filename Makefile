# floe: convenience targets over CMake. `make demo` and `make test` install
# missing Debian packages first (tools/ensure-deps.sh).
BUILD ?= build
JOBS  ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: bench-bonded all deps build test demo sanitize fuzz clean bench

all: build

deps:
	@tools/ensure-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLOE_WERROR=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# Builds with warnings as errors and runs every test.
test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Runs the main example (level ice breaking against a sloping structure);
# open out/*.pvd in ParaView afterwards. With Debian's python3-matplotlib the
# final state is also rendered to out/ice-floe.png.
demo: build
	@$(BUILD)/floe run examples/ice-floe.yaml --out out
	@if /usr/bin/python3 -c "import matplotlib, numpy" 2>/dev/null; then \
		/usr/bin/python3 tools/render_floes.py out out/ice-floe.png; fi

# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer.
sanitize: deps
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DFLOE_SANITIZE=ON -DFLOE_WERROR=ON >/dev/null
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

clean:
	rm -rf $(BUILD) build-asan build-fuzz out
