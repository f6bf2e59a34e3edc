/// @file dcd_writer.cpp
/// CHARMM/NAMD DCD writer (see dcd_writer.hpp for the layout).

#include "novamd/io/dcd_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <limits>
#include <string>
#include <system_error>

#include "novamd/core/error.hpp"
#include "novamd/io/trajectory_checks.hpp"

namespace novamd::io {

using Bytes = DcdWriter::Bytes;

namespace {

constexpr long kNsetOffset = 8;    ///< file offset of NSET
constexpr long kNstepOffset = 20;  ///< file offset of NSTEP
constexpr int kTitleLines = 2;     ///< 80-character title lines NovaMD writes
constexpr std::int32_t kCharmmVersion = 24;
constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

// Little-endian encoding, whatever the host's byte order.
void put_u32(Bytes& out, std::uint32_t u) {
  for (int b = 0; b < 4; ++b) out.push_back(static_cast<unsigned char>(u >> (8 * b)));
}
void put_i32(Bytes& out, std::int64_t v) {
  put_u32(out, static_cast<std::uint32_t>(v));
}
void put_f32(Bytes& out, float f) {
  put_u32(out, std::bit_cast<std::uint32_t>(f));
}
void put_f64(Bytes& out, double d) {
  const auto u = std::bit_cast<std::uint64_t>(d);
  put_u32(out, static_cast<std::uint32_t>(u));
  put_u32(out, static_cast<std::uint32_t>(u >> 32));
}
std::int32_t get_i32(const unsigned char* p) {
  std::uint32_t u = 0;
  for (int b = 0; b < 4; ++b) u |= static_cast<std::uint32_t>(p[b]) << (8 * b);
  return static_cast<std::int32_t>(u);
}

/// Bytes of one frame: the unit-cell record and three coordinate records.
std::int64_t frame_bytes(std::size_t particles) {
  return (4 + 48 + 4) + 3 * (8 + 4 * static_cast<std::int64_t>(particles));
}

/// An 80-character title line, padded with blanks.
std::string title_line(std::string text) {
  text.resize(80, ' ');
  return text;
}

Bytes header_bytes(const TrajectoryOpen& open, float delta) {
  Bytes h;
  put_i32(h, 84);
  for (char c : std::string("CORD")) h.push_back(static_cast<unsigned char>(c));
  put_i32(h, 0);                // NSET: no frames yet
  put_i32(h, open.first_step);  // ISTART
  put_i32(h, open.every);       // NSAVC
  put_i32(h, open.first_step);  // NSTEP: step of the last frame, updated with each frame
  for (int k = 0; k < 5; ++k) put_i32(h, 0);  // unused, degrees of freedom, fixed atoms (none)
  put_f32(h, delta);                          // DELTA, float in CHARMM files
  put_i32(h, 1);                              // a unit-cell record precedes each frame
  for (int k = 0; k < 8; ++k) put_i32(h, 0);  // no 4th dimension, unused
  put_i32(h, kCharmmVersion);                 // nonzero: CHARMM-style header
  put_i32(h, 84);

  const std::string length = open.length_unit.empty() ? "sigma" : open.length_unit;
  const std::string time = open.time_unit.empty() ? "tau" : open.time_unit;
  const std::string system = open.length_unit.empty() ? " (reduced Lennard-Jones units)" : "";
  const std::string delta_unit = open.time_unit == "fs" ? "AKMA (48.8882129 fs)" : time;
  const std::string title =
      title_line(fmt::format("REMARKS NovaMD trajectory, {} particles", open.particles)) +
      title_line(fmt::format("REMARKS length {}, time {}{}; DELTA in {}", length, time, system,
                             delta_unit));
  put_i32(h, 4 + 80 * kTitleLines);
  put_i32(h, kTitleLines);
  for (char c : title) h.push_back(static_cast<unsigned char>(c));
  put_i32(h, 4 + 80 * kTitleLines);

  put_i32(h, 4);
  put_i32(h, static_cast<std::int64_t>(open.particles));
  put_i32(h, 4);
  return h;
}

/// What resuming needs from an existing file's header.
struct DcdHeader {
  std::int64_t istart = 0;
  std::int64_t nsavc = 0;
  std::int64_t particles = 0;
  std::int64_t size = 0;  ///< bytes up to the first frame
};

/// Reads the header of a DCD file NovaMD wrote (CHARMM-style, little-endian, with unit cells).
/// @throws core::InputError saying what does not match.
DcdHeader read_header(const std::filesystem::path& file) {
  const auto bad = [&](const std::string& what) {
    return core::InputError(
        fmt::format("{}: cannot continue this DCD file: {}; expected a little-endian "
                    "CHARMM/NAMD DCD with unit cells, as NovaMD writes",
                    file.string(), what));
  };
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> in(std::fopen(file.c_str(), "rb"), &std::fclose);
  if (!in) throw bad(fmt::format("cannot open it: {}", std::strerror(errno)));
  const auto read = [&](std::size_t n, const char* what) {
    Bytes b(n);
    if (std::fread(b.data(), 1, n, in.get()) != n) throw bad(fmt::format("it ends in {}", what));
    return b;
  };
  const Bytes head = read(92, "the header");
  if (get_i32(head.data()) != 84 || get_i32(head.data() + 88) != 84)
    throw bad("the first record is not 84 bytes long (or another byte order)");
  if (std::memcmp(head.data() + 4, "CORD", 4) != 0) throw bad("no \"CORD\" at its start");
  const unsigned char* h = head.data() + 4;
  if (get_i32(h + 80) == 0 || get_i32(h + 44) != 1 || get_i32(h + 48) != 0 || get_i32(h + 36) != 0)
    throw bad("the header declares no CHARMM version, no unit cells, 4 dimensions or fixed atoms");
  DcdHeader out;
  out.istart = get_i32(h + 8);
  out.nsavc = get_i32(h + 12);
  const std::int32_t title_size = get_i32(read(4, "the title").data());
  if (title_size < 4 || (title_size - 4) % 80 != 0) throw bad("the title record is malformed");
  read(static_cast<std::size_t>(title_size), "the title");
  if (get_i32(read(4, "the title").data()) != title_size)
    throw bad("the title record is malformed");
  const Bytes atoms = read(12, "the atom count");
  if (get_i32(atoms.data()) != 4 || get_i32(atoms.data() + 8) != 4)
    throw bad("the atom-count record is malformed");
  out.particles = get_i32(atoms.data() + 4);
  out.size = 92 + 8 + title_size + 12;
  if (out.nsavc < 1) throw bad(fmt::format("NSAVC is {}", out.nsavc));
  return out;
}

void check_fits_int32(std::int64_t value, const char* what, const std::filesystem::path& file) {
  if (value < 0 || value > kInt32Max)
    throw core::InputError(
        fmt::format("{}: {} is {}; a DCD file stores it as a 32-bit integer: expected 0 to {}",
                    file.string(), what, value, kInt32Max));
}

}  // namespace

void DcdWriter::FileCloser::operator()(std::FILE* f) const {
  if (f) std::fclose(f);
}

void DcdWriter::check(const TrajectoryOpen& open) {
  const auto& path = open.file;
  if (open.fields.velocity || open.fields.force || !open.fields.position)
    throw core::InputError(fmt::format(
        "{}: DCD holds positions only; this file was asked for {}: expected position alone "
        "(write velocities and forces to an H5MD or extended XYZ trajectory)",
        path.string(), field_names(open.fields)));
  check_fits_int32(static_cast<std::int64_t>(open.particles), "the particle count", path);
  check_fits_int32(frame_bytes(open.particles), "the frame size in bytes", path);
  check_fits_int32(open.first_step, "the first step", path);
  if (open.every < 1)
    throw core::InputError(fmt::format("{}: the interval between frames is {}; expected >= 1",
                                       path.string(), open.every));
  check_fits_int32(open.every, "the interval between frames", path);
  if (continues_file(open)) plan_resume(open);
}

DcdWriter::DcdWriter(const TrajectoryOpen& open)
    : path_(open.file), particles_(open.particles), istart_(open.first_step), nsavc_(open.every) {
  check(open);
  if (continues_file(open))
    resume(open, plan_resume(open));
  else
    start_new_file(open);
}

bool DcdWriter::continues_file(const TrajectoryOpen& open) {
  std::error_code ec;
  return open.resume_after_step && std::filesystem::exists(open.file, ec) &&
         std::filesystem::file_size(open.file, ec) > 0 && !ec;
}

void DcdWriter::start_new_file(const TrajectoryOpen& open) {
  file_.reset(std::fopen(path_.c_str(), "w+b"));
  if (!file_)
    throw core::InputError(fmt::format("{}: cannot open for writing: {}; expected a writable path",
                                       path_.string(), std::strerror(errno)));
  istart_ = open.first_step;
  nsavc_ = open.every;
  frames_ = 0;
  const float delta =
      static_cast<float>(open.time_unit == "fs" ? open.timestep / kAkmaTimeFs : open.timestep);
  const Bytes header = header_bytes(open, delta);
  if (std::fwrite(header.data(), 1, header.size(), file_.get()) != header.size() ||
      std::fflush(file_.get()) != 0)
    throw core::RunError(  // the path was fine: the disk failed
        fmt::format("{}: writing the DCD header failed: {}", path_.string(), std::strerror(errno)));
}

DcdWriter::ResumePlan DcdWriter::plan_resume(const TrajectoryOpen& open) {
  const auto& path = open.file;
  const std::int64_t resume_step = *open.resume_after_step;
  const DcdHeader header = read_header(path);
  if (header.particles != static_cast<std::int64_t>(open.particles))
    throw core::InputError(
        fmt::format("{}: cannot continue this DCD file: it holds {} particles; the run has {}",
                    path.string(), header.particles, open.particles));
  const auto size = static_cast<std::int64_t>(std::filesystem::file_size(path));
  // Frames on disk (a partial frame a crash left counts for nothing), and those to keep.
  const std::int64_t complete =
      std::max<std::int64_t>(0, size - header.size) / frame_bytes(open.particles);
  const std::int64_t wanted =
      resume_step < header.istart ? 0 : (resume_step - header.istart) / header.nsavc + 1;
  const std::int64_t keep = std::min(complete, wanted);
  if (keep == 0) return {header.size, header.istart, header.nsavc, 0};
  if (header.nsavc != open.every)
    throw core::InputError(fmt::format(
        "{}: cannot continue this DCD file: its frames are {} steps apart (NSAVC); the run "
        "writes every {} steps: expected the same interval",
        path.string(), header.nsavc, open.every));
  if (complete < wanted)
    throw core::InputError(fmt::format(
        "{}: cannot continue this DCD file: it holds {} whole frames, up to step {}, but the "
        "checkpoint at step {} comes after {} frames: the file was cut short; expected the "
        "file the checkpointed run wrote (or move it away to start a new one)",
        path.string(), complete, header.istart + (complete - 1) * header.nsavc, resume_step,
        wanted));
  return {header.size, header.istart, header.nsavc, keep};
}

void DcdWriter::resume(const TrajectoryOpen& open, const ResumePlan& plan) {
  const std::int64_t keep = plan.keep;
  if (keep == 0) {
    start_new_file(open);
    return;
  }
  std::error_code ec;
  std::filesystem::resize_file(
      path_, static_cast<std::uintmax_t>(plan.header_size + keep * frame_bytes(particles_)), ec);
  if (ec)
    throw core::InputError(fmt::format("{}: cannot cut the DCD file after step {}: {}",
                                       path_.string(), plan.istart + (keep - 1) * plan.nsavc,
                                       ec.message()));
  file_.reset(std::fopen(path_.c_str(), "r+b"));
  if (!file_)
    throw core::InputError(fmt::format("{}: cannot open for writing: {}; expected a writable path",
                                       path_.string(), std::strerror(errno)));
  istart_ = plan.istart;
  nsavc_ = plan.nsavc;
  frames_ = keep;
  update_header(istart_ + (frames_ - 1) * nsavc_);
}

void DcdWriter::write(const TrajectoryFrame& frame) {
  check_frame(frame, FieldSet{true, false, false}, particles_, path_, "DCD");
  if (!frame.fields.position) return;
  const std::int64_t expected = istart_ + frames_ * nsavc_;
  if (frame.step != expected)
    throw core::RunError(fmt::format(
        "{}: DCD frame {} must be at step {} (ISTART {} + {} x NSAVC {}), got step {}; a DCD "
        "file holds evenly spaced frames only",
        path_.string(), frames_ + 1, expected, istart_, frames_, nsavc_, frame.step));
  if (frame.step > kInt32Max)
    throw core::RunError(fmt::format("{}: step {} does not fit DCD's 32-bit step counter",
                                     path_.string(), frame.step));

  const auto order = core::id_order(frame.particles);
  const auto& L = frame.box.length();
  Bytes out;
  out.reserve(static_cast<std::size_t>(frame_bytes(particles_)));
  put_i32(out, 48);
  for (double v : {L.x, 90.0, L.y, 90.0, 90.0, L.z}) put_f64(out, v);  // A gamma B beta alpha C
  put_i32(out, 48);
  const auto& r = frame.particles.position;
  for (const auto* axis : {&r.x, &r.y, &r.z}) {
    put_i32(out, static_cast<std::int64_t>(4 * particles_));
    for (const std::size_t i : order) put_f32(out, static_cast<float>((*axis)[i]));
    put_i32(out, static_cast<std::int64_t>(4 * particles_));
  }
  append(out, frame.step);
}

void DcdWriter::append(const Bytes& bytes, std::int64_t step) {
  std::FILE* f = file_.get();
  if (std::fseek(f, 0, SEEK_END) != 0 ||
      std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size())
    throw core::RunError(fmt::format("{}: writing the DCD frame of step {} failed: {}",
                                     path_.string(), step, std::strerror(errno)));
  ++frames_;
  update_header(step);
}

void DcdWriter::update_header(std::int64_t last_step) {
  Bytes counts;
  put_i32(counts, frames_);
  put_i32(counts, last_step);
  std::FILE* f = file_.get();
  const bool ok = std::fseek(f, kNsetOffset, SEEK_SET) == 0 &&
                  std::fwrite(counts.data(), 1, 4, f) == 4 &&
                  std::fseek(f, kNstepOffset, SEEK_SET) == 0 &&
                  std::fwrite(counts.data() + 4, 1, 4, f) == 4 && std::fflush(f) == 0;
  if (!ok)
    throw core::RunError(fmt::format("{}: updating the DCD header (NSET {}, NSTEP {}) failed: {}",
                                     path_.string(), frames_, last_step, std::strerror(errno)));
}

}  // namespace novamd::io
