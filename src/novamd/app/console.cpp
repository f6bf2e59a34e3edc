#include "novamd/app/console.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace novamd::app {

void print_header(const std::vector<HeaderLine>& lines) {
  for (const auto& line : lines) fmt::print("  {:<12}{}\n", line.key, line.value);
  fmt::print("\n");
}

void print_thermo_table_header(const core::UnitSystem& units) {
  fmt::print("{:>10} {:>14} {:>14} {:>17} {:>17} {:>17} {:>14}\n", "step", "time", "temperature",
             "potential_energy", "total_energy", "conserved_energy", "pressure");
  fmt::print("{:>10} {:>14} {:>14} {:>17} {:>17} {:>17} {:>14}\n", "", units.time,
             units.temperature, units.energy, units.energy, units.energy, units.pressure);
  std::fflush(stdout);
}

void print_thermo_row(const analysis::ThermoState& s) {
  fmt::print("{:>10} {:>14.6g} {:>14.6g} {:>17.10g} {:>17.10g} {:>17.10g} {:>14.6g}\n", s.step,
             s.time, s.temperature, s.potential_energy, s.total_energy, s.conserved_energy,
             s.pressure);
  std::fflush(stdout);
}

ProgressLine::ProgressLine(std::int64_t first_step, std::int64_t last_step, bool enabled)
    : first_step_(first_step),
      last_step_(last_step),
      start_(Clock::now()),
      last_print_(start_),
      terminal_(isatty(fileno(stderr)) != 0),
      enabled_(enabled) {}

void ProgressLine::update(std::int64_t step) {
  const auto now = Clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double since_print = std::chrono::duration<double>(now - last_print_).count();
  const double interval = terminal_ ? 1.0 : 30.0;  // redraw on a terminal, sparse lines in a log
  if (!enabled_ || elapsed < 3.0 || since_print < interval || step >= last_step_) return;
  last_print_ = now;
  const double done = static_cast<double>(step - first_step_);
  const double total = static_cast<double>(last_step_ - first_step_);
  const double rate = done / elapsed;
  const double left = rate > 0 ? (total - done) / rate : 0.0;
  fmt::print(stderr, "{}step {}/{} ({:.0f}%), {:.4g} steps/s, {:.0f} s left{}",
             terminal_ ? "\r" : "", step, last_step_, 100.0 * done / total, rate, left,
             terminal_ ? "   " : "\n");
  std::fflush(stderr);
  line_open_ = terminal_;
}

void ProgressLine::clear() {
  if (!line_open_) return;
  fmt::print(stderr, "\r{:<70}\r", "");
  line_open_ = false;
}

}  // namespace novamd::app
