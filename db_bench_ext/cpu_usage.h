// Process CPU accounting for the ingestion figures: user + system CPU seconds of the whole
// process (all threads, so RocksDB's flush and compaction threads count too) via getrusage,
// against wall-clock time. busy cores = CPU seconds / wall seconds.
#pragma once

namespace columnar {
namespace bench {

struct CpuSample {
  double user_seconds = 0;
  double system_seconds = 0;
  double wall_seconds = 0;  // monotonic clock

  static CpuSample Now();
};

struct CpuUsage {
  double cpu_seconds = 0;  // user + system
  double user_seconds = 0;
  double system_seconds = 0;
  double wall_seconds = 0;

  // Average number of cores kept busy; 0 when no wall time passed.
  double BusyCores() const;
  // CPU seconds per million rows (the sources' ingestion cost figure); 0 when rows == 0.
  double CpuSecondsPerMillion(double rows) const;
};

CpuUsage CpuUsageBetween(const CpuSample& start, const CpuSample& end);

// The calling thread's CPU seconds so far: what one thread's fixed work costs, without the
// time other processes held the core (the machines are shared).
double ThreadCpuSeconds();

// Measures from construction (or Restart) to each Elapsed call.
class CpuStopwatch {
 public:
  CpuStopwatch() : start_(CpuSample::Now()) {}
  void Restart() { start_ = CpuSample::Now(); }
  CpuUsage Elapsed() const { return CpuUsageBetween(start_, CpuSample::Now()); }

 private:
  CpuSample start_;
};

}  // namespace bench
}  // namespace columnar
