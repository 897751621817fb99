// Run metadata gathered from the machine: cores, CPU model, memory, and the run date.
#pragma once

#include <ctime>
#include <string>

#include "db_bench_ext/results.h"

namespace columnar {
namespace bench {

// Cores (hardware threads), the CPU model from /proc/cpuinfo ("unknown" when absent) and the
// physical memory.
MachineInfo DetectMachine();
// ISO 8601 in UTC: "2026-10-16T09:30:00Z".
std::string FormatUtcTimestamp(std::time_t when);

}  // namespace bench
}  // namespace columnar
