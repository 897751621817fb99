// A single live status line on stderr for long phases:
//   load metrics/A  1,234,567 / 17,280,000 rows (7.1%)  512k rows/s  elapsed 2:41  ETA 33:12
// redrawn in place (carriage return) at most a few times a second. When the stream is not a
// terminal nothing is drawn until Finish, which prints one summary line.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>

namespace columnar {
namespace bench {

class ProgressLine {
 public:
  struct Options {
    // Where to draw; stderr when null.
    std::ostream* out = nullptr;
    // Whether to draw the live line; when unset, whether stderr is a terminal.
    std::optional<bool> live;
    double min_redraw_interval_s = 0.25;
    // Monotonic seconds; the steady clock when empty (tests inject a fake clock).
    std::function<double()> clock;
  };

  ProgressLine(std::string phase, uint64_t total, std::string unit = "rows");
  ProgressLine(std::string phase, uint64_t total, std::string unit, Options options);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Thread-safe: any writer may report its progress; at most one redraws at a time.
  void Add(uint64_t n);
  uint64_t done() const { return done_.load(std::memory_order_relaxed); }
  // Ends the line: the live line is redrawn one last time and followed by a newline; otherwise
  // a summary line is printed. Idempotent; the destructor calls it.
  void Finish();

  // The status text for a moment of the phase (exposed for tests).
  static std::string StatusText(const std::string& phase, const std::string& unit, uint64_t done,
                                uint64_t total, double elapsed_s);
  static std::string SummaryText(const std::string& phase, const std::string& unit, uint64_t done,
                                 double elapsed_s);

 private:
  double Now() const;
  void Redraw(double now);

  const std::string phase_;
  const std::string unit_;
  const uint64_t total_;
  Options options_;
  std::ostream* out_;
  bool live_;
  const double start_s_;
  std::atomic<uint64_t> done_{0};
  std::atomic<double> next_redraw_s_;
  std::mutex draw_mutex_;
  bool finished_ = false;
};

}  // namespace bench
}  // namespace columnar
