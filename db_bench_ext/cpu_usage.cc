#include "db_bench_ext/cpu_usage.h"

#include <sys/resource.h>
#include <time.h>

#include <chrono>

namespace columnar {
namespace bench {
namespace {

double Seconds(const timeval& tv) { return tv.tv_sec + tv.tv_usec / 1e6; }

}  // namespace

CpuSample CpuSample::Now() {
  CpuSample sample;
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0) {
    sample.user_seconds = Seconds(usage.ru_utime);
    sample.system_seconds = Seconds(usage.ru_stime);
  }
  sample.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  return sample;
}

double CpuUsage::BusyCores() const { return wall_seconds > 0 ? cpu_seconds / wall_seconds : 0; }

double CpuUsage::CpuSecondsPerMillion(double rows) const {
  return rows > 0 ? cpu_seconds / (rows / 1e6) : 0;
}

double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

CpuUsage CpuUsageBetween(const CpuSample& start, const CpuSample& end) {
  CpuUsage usage;
  usage.user_seconds = end.user_seconds - start.user_seconds;
  usage.system_seconds = end.system_seconds - start.system_seconds;
  usage.cpu_seconds = usage.user_seconds + usage.system_seconds;
  usage.wall_seconds = end.wall_seconds - start.wall_seconds;
  return usage;
}

}  // namespace bench
}  // namespace columnar
