#include "db_bench_ext/progress_line.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "db_bench_ext/number_format.h"

namespace columnar {
namespace bench {
namespace {

double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

ProgressLine::Options Resolve(ProgressLine::Options options) {
  if (options.out == nullptr) options.out = &std::cerr;
  if (!options.live.has_value()) options.live = isatty(STDERR_FILENO) != 0;
  if (!options.clock) options.clock = SteadySeconds;
  return options;
}

ProgressLine::Options Default() { return ProgressLine::Options(); }

}  // namespace

ProgressLine::ProgressLine(std::string phase, uint64_t total, std::string unit)
    : ProgressLine(std::move(phase), total, std::move(unit), Default()) {}

ProgressLine::ProgressLine(std::string phase, uint64_t total, std::string unit, Options options)
    : phase_(std::move(phase)),
      unit_(std::move(unit)),
      total_(total),
      options_(Resolve(std::move(options))),
      out_(options_.out),
      live_(*options_.live),
      start_s_(options_.clock()),
      next_redraw_s_(start_s_) {}

ProgressLine::~ProgressLine() { Finish(); }

double ProgressLine::Now() const { return options_.clock(); }

void ProgressLine::Add(uint64_t n) {
  done_.fetch_add(n, std::memory_order_relaxed);
  if (!live_) return;
  const double now = Now();
  if (now < next_redraw_s_.load(std::memory_order_relaxed)) return;
  std::unique_lock<std::mutex> lock(draw_mutex_, std::try_to_lock);
  if (!lock.owns_lock() || finished_ || now < next_redraw_s_.load()) return;
  next_redraw_s_.store(now + options_.min_redraw_interval_s);
  Redraw(now);
}

void ProgressLine::Redraw(double now) {
  // "\x1b[K" clears what a longer previous line left behind.
  *out_ << '\r' << StatusText(phase_, unit_, done(), total_, now - start_s_) << "\x1b[K"
        << std::flush;
}

void ProgressLine::Finish() {
  std::lock_guard<std::mutex> lock(draw_mutex_);
  if (finished_) return;
  finished_ = true;
  const double now = Now();
  if (live_) {
    Redraw(now);
    *out_ << '\n' << std::flush;
  } else {
    *out_ << SummaryText(phase_, unit_, done(), now - start_s_) << '\n' << std::flush;
  }
}

std::string ProgressLine::StatusText(const std::string& phase, const std::string& unit,
                                     uint64_t done, uint64_t total, double elapsed_s) {
  std::string text = phase + "  " + FormatCount(done) + " / " + FormatCount(total) + " " + unit;
  if (total > 0) {
    char percent[32];
    std::snprintf(percent, sizeof(percent), " (%.1f%%)", 100.0 * done / total);
    text += percent;
  }
  const double rate = elapsed_s > 0 ? done / elapsed_s : 0;
  text += "  " + FormatSi(rate) + " " + unit + "/s";
  text += "  elapsed " + FormatDuration(elapsed_s);
  const bool can_estimate = rate > 0 && done <= total;
  text += "  ETA " + (can_estimate ? FormatDuration((total - done) / rate) : "--:--");
  return text;
}

std::string ProgressLine::SummaryText(const std::string& phase, const std::string& unit,
                                      uint64_t done, double elapsed_s) {
  const double rate = elapsed_s > 0 ? done / elapsed_s : 0;
  return phase + "  " + FormatCount(done) + " " + unit + " in " + FormatDuration(elapsed_s) + " (" +
         FormatSi(rate) + " " + unit + "/s)";
}

}  // namespace bench
}  // namespace columnar
