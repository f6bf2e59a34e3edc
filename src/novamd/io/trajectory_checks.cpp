/// @file trajectory_checks.cpp
/// Checks the trajectory writers share (see trajectory_checks.hpp).

#include "novamd/io/trajectory_checks.hpp"

#include <fmt/format.h>

#include "novamd/core/error.hpp"

namespace novamd::io {

std::string field_names(const FieldSet& fields) {
  std::string names;
  const auto add = [&](bool on, const char* name) {
    if (on) names += (names.empty() ? "" : ", ") + std::string(name);
  };
  add(fields.position, "position");
  add(fields.velocity, "velocity");
  add(fields.force, "force");
  return names.empty() ? "none" : names;
}

void check_frame(const TrajectoryFrame& frame, const FieldSet& held, std::size_t particles,
                 const std::filesystem::path& file, std::string_view format) {
  if (frame.particles.size() != particles)
    throw core::RunError(
        fmt::format("{}: the frame of step {} has {} particles; the {} file was opened for {}",
                    file.string(), frame.step, frame.particles.size(), format, particles));
  const FieldSet extra{frame.fields.position && !held.position,
                       frame.fields.velocity && !held.velocity, frame.fields.force && !held.force};
  if (extra.any())
    throw core::RunError(fmt::format(
        "{}: the frame of step {} carries {}, which the {} file was not opened for (it holds {})",
        file.string(), frame.step, field_names(extra), format, field_names(held)));
}

}  // namespace novamd::io
