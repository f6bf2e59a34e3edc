/// @file xyz_trajectory.cpp
/// Extended XYZ trajectory writer with resume (see xyz_trajectory.hpp).

#include "novamd/io/xyz_trajectory.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "novamd/core/error.hpp"
#include "novamd/core/excerpt.hpp"
#include "novamd/io/trajectory_checks.hpp"

namespace novamd::io {
namespace {

/// The value of Step= in an extended XYZ comment line, if it has one.
std::optional<std::int64_t> step_of(std::string_view comment) {
  for (std::size_t at = comment.find("Step="); at != std::string_view::npos;
       at = comment.find("Step=", at + 1)) {
    if (at > 0 && comment[at - 1] != ' ' && comment[at - 1] != '\t') continue;  // not "TimeStep="
    const char* first = comment.data() + at + 5;
    std::int64_t step = 0;
    const auto [end, ec] = std::from_chars(first, comment.data() + comment.size(), step);
    if (ec == std::errc() && end != first) return step;
  }
  return std::nullopt;
}

/// Opens `file` for writing, cutting it after the frames a resume keeps.
XyzWriter open_writer(const TrajectoryOpen& open, int significant_digits) {
  auto mode = XyzWriter::Mode::Truncate;
  if (open.resume_after_step && std::filesystem::exists(open.file)) {
    const auto offset = xyz_resume_offset(open.file, open.particles, *open.resume_after_step);
    std::error_code ec;
    std::filesystem::resize_file(open.file, offset, ec);
    if (ec)
      throw core::InputError(fmt::format("{}: cannot cut the trajectory after step {}: {}",
                                         open.file.string(), *open.resume_after_step,
                                         ec.message()));
    mode = XyzWriter::Mode::Append;
  }
  return XyzWriter(open.file, open.fields.velocity, open.fields.force, significant_digits, mode);
}

}  // namespace

std::uintmax_t xyz_resume_offset(const std::filesystem::path& file, std::size_t particles,
                                 std::int64_t resume_step) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw core::InputError(fmt::format("{}: cannot open the trajectory to continue it: {}",
                                       file.string(), std::strerror(errno)));
  std::uintmax_t keep = 0;  // end of the last frame kept
  std::int64_t line = 0;
  std::string count, comment;
  while (true) {
    const auto frame_start = static_cast<std::uintmax_t>(in.tellg());
    if (!std::getline(in, count) || !std::getline(in, comment)) break;  // end, or partial frame
    line += 2;
    if (count.find_first_not_of(" \t\r") == std::string::npos) break;  // blank line at the end
    std::size_t atoms_in_frame = 0;
    const auto digits = count.find_first_not_of(" \t");
    const auto [end, ec] =
        std::from_chars(count.data() + digits, count.data() + count.size(), atoms_in_frame);
    if (ec != std::errc() ||
        count.find_first_not_of(" \t\r", end - count.data()) != std::string::npos ||
        atoms_in_frame != particles)
      throw core::InputError(fmt::format(
          "{}:{}: cannot continue this trajectory: the frame holds '{}' atoms; the run has {}",
          file.string(), line - 1, core::excerpt(count), particles));
    const auto step = step_of(comment);
    if (!step)
      throw core::InputError(fmt::format(
          "{}:{}: cannot continue this trajectory: the comment line has no Step=; expected the "
          "frames NovaMD writes",
          file.string(), line));
    if (*step > resume_step) return frame_start;
    std::size_t atoms = 0;
    for (std::string atom; atoms < particles && std::getline(in, atom); ++atoms) ++line;
    if (atoms < particles || in.eof()) break;  // a partial frame (the last atom line unended)
    keep = static_cast<std::uintmax_t>(in.tellg());
  }
  return keep;
}

void XyzTrajectoryWriter::check(const TrajectoryOpen& open) {
  if (open.resume_after_step && std::filesystem::exists(open.file))
    xyz_resume_offset(open.file, open.particles, *open.resume_after_step);
}

XyzTrajectoryWriter::XyzTrajectoryWriter(const TrajectoryOpen& open, int significant_digits)
    : writer_(open_writer(open, significant_digits)),
      species_(open.species),
      fields_{true, open.fields.velocity, open.fields.force},
      particles_(open.particles) {}

void XyzTrajectoryWriter::write(const TrajectoryFrame& frame) {
  check_frame(frame, fields_, particles_, writer_.path(), "XYZ");
  writer_.write_frame(frame.step, frame.time, frame.box, frame.particles, species_);
}

}  // namespace novamd::io
