# Bowstring: every target installs what it is missing, so a fresh machine needs only `make demo`
# or `make test`. Python pins live in requirements.txt; Debian packages are listed below.

SHELL := /bin/bash
ROOT := $(abspath .)
VENV := $(ROOT)/.venv
PY := $(VENV)/bin/python
BUILD ?= $(ROOT)/build
SANITIZE_BUILD := $(ROOT)/build-sanitize
FUZZ_BUILD := $(ROOT)/build-fuzz
JOBS ?= $(shell nproc)
APT_PACKAGES := g++ make libgtest-dev libgmock-dev libbenchmark-dev libmimalloc-dev libjemalloc-dev \
	clang-format clang-tidy flatbuffers-compiler libflatbuffers-dev liblz4-dev libzstd-dev \
	nlohmann-json3-dev zlib1g-dev clang libclang-rt-dev libre2-dev libssl-dev tzdata ccache
VENV_STAMP := $(VENV)/.requirements-$(shell cat requirements.txt | md5sum | cut -c1-12)
CMAKE := $(VENV)/bin/cmake
CMAKE_FLAGS := -G Ninja -DCMAKE_MAKE_PROGRAM=$(VENV)/bin/ninja -DPython_EXECUTABLE=$(PY) \
	-DCMAKE_CXX_COMPILER_LAUNCHER=ccache
# ccache keys on paths relative to the checkout, so clones and worktrees of the repository share
# one cache (and a CI run on a machine that built before reuses its objects).
export CCACHE_BASEDIR := $(ROOT)
export CCACHE_NOHASHDIR := true
CXX_SOURCES = $(shell git ls-files 'cpp/*.h' 'cpp/*.cc' 'bench/*.cc' 'examples/*.cc' 'python/src/*.cc')
# Fuzz targets are formatted with the rest but only compiled in the fuzzing build.
FUZZ_SOURCES = $(shell git ls-files 'fuzz/*.h' 'fuzz/*.cc')

.PHONY: all setup apt venv build test test-cpp test-python demo bench format format-check tidy sanitize fuzz clean \
	stubs install-check

all: build

setup: apt venv

apt:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

venv: $(VENV_STAMP)

$(VENV_STAMP): requirements.txt
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip >/dev/null
	$(PY) -m pip install -q -r requirements.txt
	@rm -f $(VENV)/.requirements-* && touch $@

$(BUILD)/build.ninja: | setup
	$(CMAKE) -S . -B $(BUILD) $(CMAKE_FLAGS) -DCMAKE_BUILD_TYPE=Release

build: setup $(BUILD)/build.ninja
	$(CMAKE) --build $(BUILD) -j $(JOBS)

test-cpp: build
	cd $(BUILD) && $(VENV)/bin/ctest --output-on-failure -j $(JOBS)

test-python: build
	PYTHONPATH=$(ROOT)/python $(PY) -m pytest -q python/tests

test: test-cpp test-python

# The type stub of the extension, python/bowstring/_core.pyi, regenerated from the built module
# by nanobind's stubgen; python/tests/test_stubs.py fails when the checked-in one is stale.
stubs: build
	$(PY) tools/generate_stubs.py

# `pip install .` into a fresh virtualenv (its CMake build in build-wheel/, through ccache), then
# the installed package is imported and used from outside the source tree.
install-check: setup
	tools/install_check.sh

demo: build
	$(BUILD)/examples/bowstring_demo
	$(PY) examples/udf_demo.py
	$(PY) examples/compute_demo.py

bench: build
	$(PY) bench/allocators.py $(BUILD)
	$(PY) bench/builders.py $(BUILD)
	$(PY) bench/ipc.py $(BUILD)
	$(PY) bench/udf.py $(BUILD)
	$(PY) bench/compute.py $(BUILD)

format: setup
	clang-format -i $(CXX_SOURCES) $(FUZZ_SOURCES)

format-check: setup
	clang-format --dry-run --Werror $(CXX_SOURCES) $(FUZZ_SOURCES)

tidy: build
	clang-tidy -p $(BUILD) --quiet $(filter %.cc,$(CXX_SOURCES))

sanitize: setup
	@test -f $(SANITIZE_BUILD)/build.ninja || $(CMAKE) -S . -B $(SANITIZE_BUILD) $(CMAKE_FLAGS) \
	  -DCMAKE_BUILD_TYPE=Debug -DBOWSTRING_SANITIZE=ON -DBOWSTRING_BUILD_PYTHON=OFF \
	  -DBOWSTRING_BUILD_BENCHMARKS=OFF
	$(CMAKE) --build $(SANITIZE_BUILD) -j $(JOBS)
	cd $(SANITIZE_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(VENV)/bin/ctest --output-on-failure -j $(JOBS)

# libFuzzer with ASan and UBSan, built by clang into build-fuzz/ (the library and fuzz/ only).
# Each fuzz/<name>_fuzzer.cc runs for FUZZ_SECONDS on the corpus build-fuzz/corpus/<name>, which
# keeps what earlier runs found and is first topped up with the files in fuzz/seeds/<name>/, in
# fuzz/regressions/<name>/ (inputs that once found a bug, also replayed by the C++ tests) and
# with what build-fuzz/fuzz/<name>_seeds writes into it (if fuzz/<name>_seeds.cc exists: a
# program taking the corpus directory, for seeds such as our own IPC streams). A libFuzzer dictionary fuzz/<name>.dict is used when present. Adding a fuzzer is
# adding those files. FUZZERS picks some (`make fuzz FUZZERS=codec`), FUZZ_FLAGS passes more
# libFuzzer flags. Any crash, sanitizer report, leak, input slower than FUZZ_TIMEOUT seconds or
# allocation past libFuzzer's limit fails the target and leaves the input in
# build-fuzz/crashes/<name>/; reproduce by running the fuzzer on that path. Buffers come from the
# system allocator, which ASan watches (mimalloc it cannot).
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 10
FUZZERS ?= $(patsubst fuzz/%_fuzzer.cc,%,$(wildcard fuzz/*_fuzzer.cc))
FUZZ_FLAGS ?=

fuzz: setup
	@test -f $(FUZZ_BUILD)/build.ninja || CC=clang CXX=clang++ $(CMAKE) -S . -B $(FUZZ_BUILD) \
	  $(CMAKE_FLAGS) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBOWSTRING_FUZZ=ON
	$(CMAKE) --build $(FUZZ_BUILD) -j $(JOBS)
	@failed=""; \
	for name in $(FUZZERS); do \
	  corpus=$(FUZZ_BUILD)/corpus/$$name; crashes=$(FUZZ_BUILD)/crashes/$$name; \
	  stamp=$(FUZZ_BUILD)/crashes/.$$name.started; \
	  mkdir -p $$corpus $$crashes && touch $$stamp || exit 1; \
	  if [ -d fuzz/seeds/$$name ]; then cp fuzz/seeds/$$name/* $$corpus/ || exit 1; fi; \
	  if [ -d fuzz/regressions/$$name ]; then cp fuzz/regressions/$$name/* $$corpus/ || exit 1; fi; \
	  if [ -x $(FUZZ_BUILD)/fuzz/$${name}_seeds ]; then $(FUZZ_BUILD)/fuzz/$${name}_seeds $$corpus || exit 1; fi; \
	  dict=""; if [ -f fuzz/$$name.dict ]; then dict=-dict=fuzz/$$name.dict; fi; \
	  echo "== fuzzing $$name for $(FUZZ_SECONDS) s"; \
	  if ! BOWSTRING_ALLOCATOR=system UBSAN_OPTIONS=print_stacktrace=1 \
	      $(FUZZ_BUILD)/fuzz/$${name}_fuzzer -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) \
	      -print_final_stats=1 -artifact_prefix=$$crashes/ $$dict $(FUZZ_FLAGS) $$corpus; then \
	    failed="$$failed $$name"; \
	    for input in $$(find $$crashes -type f -newer $$stamp); do \
	      echo "$$name failed on $$input; reproduce: $(FUZZ_BUILD)/fuzz/$${name}_fuzzer $$input"; \
	    done; \
	  fi; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzzers failed:$$failed"; exit 1; fi

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD) $(FUZZ_BUILD) $(ROOT)/build-wheel
