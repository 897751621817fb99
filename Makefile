# Entry points. Both main targets install what is missing first (scripts/setup.sh).
#   make demo   the main job: a quick side-by-side benchmark against BlockBasedTable
#   make test   build everything and run the test suite (ctest)
#   make sanitize  the unit tests under AddressSanitizer + UndefinedBehaviorSanitizer
#   make fuzz      every libFuzzer target (tests/fuzz) for FUZZ_SECONDS each (clang); with
#                  FUZZ_RUNS=N each stops after N executions if that comes first
#   make tsan      the concurrency tests under ThreadSanitizer
#   make stress    RocksDB's db_stress on ColumnarTable (and BlockBasedTable) for STRESS_SECONDS
BUILD_DIR ?= build
SANITIZE_BUILD_DIR ?= build-asan
FUZZ_BUILD_DIR ?= build-fuzz
TSAN_BUILD_DIR ?= build-tsan
FUZZ_SECONDS ?= 60
# Executions per target (empty: no limit, FUZZ_SECONDS alone). The long run before closing a
# reliability issue: make fuzz FUZZ_RUNS=10000000 FUZZ_SECONDS=7200
FUZZ_RUNS ?=
# Targets to run (default: all), e.g. make fuzz FUZZ_TARGETS="chunk sst_file"
FUZZ_TARGETS ?=
# Targets fuzzed at the same time (libFuzzer is single-threaded; default: one per core).
FUZZ_JOBS ?= $(JOBS)
# The concurrency suites: readers and writers racing, tiny caches, the Table API from many
# threads, ALTER TABLE during reads and writes.
TSAN_FILTER ?= *Concurrency*:TinyCache*
# The test files compiled into the TSan test binaries: those declaring a test whose suite or
# name matches this regular expression (keep it in step with TSAN_FILTER; empty: every file).
TSAN_TEST_MATCH ?= Concurrency|TinyCache
# make stress: total time of the rotation, table formats, configurations (default: all; see
# scripts/run_stress.sh --list), e.g. make stress STRESS_SECONDS=120 STRESS_FORMATS=columnar;
# STRESS_SECONDS=0 runs each configuration once.
STRESS_SECONDS ?= 300
STRESS_FORMATS ?= columnar,bbt
STRESS_CONFIGS ?=
JOBS ?= $(shell nproc)
# Unity builds (CMakeLists.txt, COLUMNAR_UNITY_*): the test files of every build, and the
# libraries of the instrumented builds (not benchmarked), are compiled in batches of
# UNITY_BATCH files; each batch parses the headers its files share once. UNITY_BATCH=1 compiles
# every file alone.
UNITY_BATCH ?= 8
UNITY_TESTS := -DCOLUMNAR_UNITY_TESTS=ON -DCOLUMNAR_UNITY_BATCH=$(UNITY_BATCH)
UNITY_ALL := $(UNITY_TESTS) -DCOLUMNAR_UNITY_LIBRARIES=ON
DEMO_REPORT_DIR ?= report-demo

.PHONY: all setup build demo test sanitize fuzz tsan stress clean

all: build

setup:
	@./scripts/setup.sh

build: setup
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release $(UNITY_TESTS) > /dev/null
	@cmake --build $(BUILD_DIR) -j $(JOBS)

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

sanitize: setup
	@cmake -S . -B $(SANITIZE_BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOLUMNAR_SANITIZE=ON \
	  -DCOLUMNAR_BUILD_BENCHMARKS=OFF $(UNITY_ALL) > /dev/null
	@cmake --build $(SANITIZE_BUILD_DIR) -j $(JOBS)
	@cd $(SANITIZE_BUILD_DIR) && ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

fuzz:
	@./scripts/setup.sh clang-14 libclang-rt-14-dev
	@cmake -S . -B $(FUZZ_BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOLUMNAR_FUZZ=ON \
	  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 $(UNITY_ALL) > /dev/null
	@cmake --build $(FUZZ_BUILD_DIR) -j $(JOBS) --target \
	  $(if $(FUZZ_TARGETS),$(addsuffix _fuzzer,$(FUZZ_TARGETS)),fuzz_targets)
	@FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_JOBS=$(FUZZ_JOBS) ./scripts/run_fuzzers.sh $(FUZZ_BUILD_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

tsan: setup
	@cmake -S . -B $(TSAN_BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOLUMNAR_TSAN=ON \
	  -DCOLUMNAR_BUILD_BENCHMARKS=OFF -DCOLUMNAR_TSAN_TEST_MATCH='$(TSAN_TEST_MATCH)' $(UNITY_ALL) \
	  > /dev/null
	@cmake --build $(TSAN_BUILD_DIR) -j $(JOBS) --target plugin_tests table_api_tests
	@rm -rf $(TSAN_BUILD_DIR)/tsan-logs && mkdir -p $(TSAN_BUILD_DIR)/tsan-logs
	@for t in plugin_tests table_api_tests; do \
	  TSAN_OPTIONS="ignore_noninstrumented_modules=1 halt_on_error=0 exitcode=0 second_deadlock_stack=1 log_path=$(CURDIR)/$(TSAN_BUILD_DIR)/tsan-logs/$$t" \
	    $(TSAN_BUILD_DIR)/tests/$$t --gtest_filter='$(TSAN_FILTER)' || exit 1; \
	done
	@./scripts/check_tsan_reports.sh $$(ls $(TSAN_BUILD_DIR)/tsan-logs/* 2>/dev/null)

# db_stress is an opt-in target of the normal build directory (COLUMNAR_BUILD_DB_STRESS).
stress: setup
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release $(UNITY_TESTS) -DCOLUMNAR_BUILD_DB_STRESS=ON \
	  > /dev/null
	@cmake --build $(BUILD_DIR) -j $(JOBS) --target db_stress columnar_table
	@./scripts/run_stress.sh --seconds=$(STRESS_SECONDS) --formats=$(STRESS_FORMATS) \
	  $(if $(STRESS_CONFIGS),--configs=$(STRESS_CONFIGS)) \
	  --db_stress=$(BUILD_DIR)/tests/stress/db_stress --plugin=$(BUILD_DIR)/plugin/libcolumnar_table.so

demo: build
	@./scripts/demo.sh $(BUILD_DIR) $(DEMO_REPORT_DIR)

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_BUILD_DIR) $(FUZZ_BUILD_DIR) $(TSAN_BUILD_DIR)
