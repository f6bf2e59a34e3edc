#pragma once
/// @file console.hpp
/// What a run prints: a header, thermo rows, a progress line on long runs, a closing summary.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "novamd/analysis/thermo.hpp"

namespace novamd::app {

/// Lines of `key  value` printed under the title.
struct HeaderLine {
  std::string key;
  std::string value;
};

void print_header(const std::vector<HeaderLine>& lines);

/// Nanoseconds simulated per day of wall time, at a time step of `timestep_fs` femtoseconds that
/// takes `seconds_per_step`: 86,400 s / seconds_per_step steps of timestep_fs x 1e-6 ns.
inline double ns_per_day(double timestep_fs, double seconds_per_step) {
  return 0.0864 * timestep_fs / seconds_per_step;
}
void print_thermo_table_header(const core::UnitSystem& units);
void print_thermo_row(const analysis::ThermoState& state);

/// Prints "step 1200/10000 (12%), 345 steps/s, 25 s left" to stderr at most every few
/// seconds once the run has lasted a while; on a terminal the line is redrawn in place.
class ProgressLine {
 public:
  /// `enabled` false: prints nothing (ranks other than 0).
  ProgressLine(std::int64_t first_step, std::int64_t last_step, bool enabled = true);
  void update(std::int64_t step);
  /// Clears a redrawn line before other output.
  void clear();

 private:
  using Clock = std::chrono::steady_clock;
  std::int64_t first_step_, last_step_;
  Clock::time_point start_, last_print_;
  bool terminal_;
  bool line_open_ = false;
  bool enabled_ = true;
};

}  // namespace novamd::app
