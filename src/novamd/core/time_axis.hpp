#pragma once
/// @file time_axis.hpp
/// The simulated time of each step when the timestep may change between the stages of a run or
/// at a restart:
///
///     time(step) = origin_time + (step - origin_step) timestep
///
/// over each stretch of steps taken with one timestep. A stretch with another timestep starts a
/// new origin at its first step, carrying the time reached there, so that time is continuous.
/// Where the timestep never changes the origin stays (0, 0) and time(step) is step x timestep
/// bit for bit (0 + x is x).

#include <cstdint>

namespace novamd::core {

struct TimeAxis {
  std::int64_t origin_step = 0;
  double origin_time = 0.0;
  double timestep = 0.0;

  double time(std::int64_t step) const {
    return origin_time + static_cast<double>(step - origin_step) * timestep;
  }

  /// This axis continued with `dt` from `step` on: itself where dt is its timestep.
  TimeAxis with_timestep(double dt, std::int64_t step) const {
    if (dt == timestep) return *this;
    return {step, time(step), dt};
  }

  /// Whether time is step x timestep (an origin at (0, 0)): what a DCD file, which holds one
  /// timestep and counts time from step 0, can represent.
  bool from_step_zero() const { return origin_step == 0 && origin_time == 0.0; }

  bool operator==(const TimeAxis&) const = default;
};

}  // namespace novamd::core
