#pragma once
/// @file trajectory_checks.hpp
/// Checks the trajectory writers share: a frame must match the file it is written to.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "novamd/io/trajectory_writer.hpp"

namespace novamd::io {

/// "position, velocity", "force", or "none": the fields of `fields`, for messages.
std::string field_names(const FieldSet& fields);

/// Checks that `frame` holds `particles` particles and carries no field outside `held` (the
/// fields the file was opened with). `format` names the format in messages ("DCD").
/// @throws core::RunError naming the file and the step otherwise.
void check_frame(const TrajectoryFrame& frame, const FieldSet& held, std::size_t particles,
                 const std::filesystem::path& file, std::string_view format);

}  // namespace novamd::io
