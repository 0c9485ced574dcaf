# Bowstring: every target installs what it is missing, so a fresh machine needs only `make demo`
# or `make test`. Python pins live in requirements.txt; Debian packages are listed below.

SHELL := /bin/bash
ROOT := $(abspath .)
VENV := $(ROOT)/.venv
PY := $(VENV)/bin/python
BUILD ?= $(ROOT)/build
SANITIZE_BUILD := $(ROOT)/build-sanitize
JOBS ?= $(shell nproc)
APT_PACKAGES := g++ make libgtest-dev libgmock-dev libbenchmark-dev libmimalloc-dev libjemalloc-dev \
	clang-format clang-tidy flatbuffers-compiler libflatbuffers-dev liblz4-dev libzstd-dev \
	nlohmann-json3-dev zlib1g-dev clang libclang-rt-dev
VENV_STAMP := $(VENV)/.requirements-$(shell cat requirements.txt | md5sum | cut -c1-12)
CMAKE := $(VENV)/bin/cmake
CMAKE_FLAGS := -G Ninja -DCMAKE_MAKE_PROGRAM=$(VENV)/bin/ninja -DPython_EXECUTABLE=$(PY)
CXX_SOURCES = $(shell git ls-files 'cpp/*.h' 'cpp/*.cc' 'bench/*.cc' 'examples/*.cc' 'python/src/*.cc')

.PHONY: all setup apt venv build test test-cpp test-python demo bench format format-check tidy sanitize clean

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

demo: build
	$(BUILD)/examples/bowstring_demo

bench: build
	$(PY) bench/allocators.py $(BUILD)
	$(PY) bench/builders.py $(BUILD)

format: setup
	clang-format -i $(CXX_SOURCES)

format-check: setup
	clang-format --dry-run --Werror $(CXX_SOURCES)

tidy: build
	clang-tidy -p $(BUILD) --quiet $(filter %.cc,$(CXX_SOURCES))

sanitize: setup
	@test -f $(SANITIZE_BUILD)/build.ninja || $(CMAKE) -S . -B $(SANITIZE_BUILD) $(CMAKE_FLAGS) \
	  -DCMAKE_BUILD_TYPE=Debug -DBOWSTRING_SANITIZE=ON -DBOWSTRING_BUILD_PYTHON=OFF \
	  -DBOWSTRING_BUILD_BENCHMARKS=OFF
	$(CMAKE) --build $(SANITIZE_BUILD) -j $(JOBS)
	cd $(SANITIZE_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(VENV)/bin/ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD)
