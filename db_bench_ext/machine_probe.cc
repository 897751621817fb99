#include "db_bench_ext/machine_probe.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "db_bench_ext/cpu_usage.h"

namespace columnar {
namespace bench {

namespace {

constexpr size_t kCycleEntries = size_t{8} << 20;  // 4-byte indices: 32 MiB
constexpr size_t kChaseSteps = size_t{1} << 20;
constexpr size_t kArithmeticRounds = size_t{24} << 20;

uint64_t SplitMix(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// One cycle through every entry (Sattolo's shuffle), the same on every call and every run.
const std::vector<uint32_t>& Cycle() {
  static const std::vector<uint32_t> cycle = [] {
    std::vector<uint32_t> next(kCycleEntries);
    for (size_t i = 0; i < kCycleEntries; i++) next[i] = static_cast<uint32_t>(i);
    uint64_t state = 1;
    for (size_t i = kCycleEntries - 1; i > 0; i--) {
      const size_t j = SplitMix(&state) % i;
      std::swap(next[i], next[j]);
    }
    return next;
  }();
  return cycle;
}

}  // namespace

double ProbeMachineMilliseconds() {
  const std::vector<uint32_t>& cycle = Cycle();
  const double start = ThreadCpuSeconds();
  uint32_t at = 0;
  for (size_t i = 0; i < kChaseSteps; i++) at = cycle[at];
  uint64_t mix = at;
  for (size_t i = 0; i < kArithmeticRounds; i++) {
    mix = (mix ^ (mix >> 29)) * 0xbf58476d1ce4e5b9ULL + i;
  }
  const double elapsed_ms = (ThreadCpuSeconds() - start) * 1e3;
  // The result is used, so neither loop is optimised away.
  volatile uint64_t sink = mix;
  (void)sink;
  return elapsed_ms;
}

}  // namespace bench
}  // namespace columnar
