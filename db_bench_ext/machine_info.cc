#include "db_bench_ext/machine_info.h"

#include <unistd.h>

#include <fstream>
#include <thread>

namespace columnar {
namespace bench {
namespace {

std::string CpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "unknown" : line.substr(start);
  }
  return "unknown";
}

}  // namespace

MachineInfo DetectMachine() {
  MachineInfo machine;
  machine.cores = static_cast<int>(std::thread::hardware_concurrency());
  machine.cpu_model = CpuModel();
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0) {
    machine.memory_bytes = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
  }
  return machine;
}

std::string FormatUtcTimestamp(std::time_t when) {
  std::tm utc{};
  gmtime_r(&when, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

}  // namespace bench
}  // namespace columnar
