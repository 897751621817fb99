# Entry points. Both main targets install what is missing first (scripts/setup.sh).
#   make demo   the main job: a quick side-by-side benchmark against BlockBasedTable
#   make test   build everything and run the test suite (ctest)
#   make sanitize  the unit tests under AddressSanitizer + UndefinedBehaviorSanitizer
BUILD_DIR ?= build
SANITIZE_BUILD_DIR ?= build-asan
JOBS ?= $(shell nproc)
DEMO_REPORT_DIR ?= report-demo

.PHONY: all setup build demo test sanitize clean

all: build

setup:
	@./scripts/setup.sh

build: setup
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release > /dev/null
	@cmake --build $(BUILD_DIR) -j $(JOBS)

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

sanitize: setup
	@cmake -S . -B $(SANITIZE_BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOLUMNAR_SANITIZE=ON \
	  -DCOLUMNAR_BUILD_BENCHMARKS=OFF > /dev/null
	@cmake --build $(SANITIZE_BUILD_DIR) -j $(JOBS)
	@cd $(SANITIZE_BUILD_DIR) && ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

demo: build
	@./scripts/demo.sh $(BUILD_DIR) $(DEMO_REPORT_DIR)

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_BUILD_DIR)
