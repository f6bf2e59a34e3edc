#include "novamd/io/gsd_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/io/gsd_file.hpp"
#include "novamd/io/trajectory_checks.hpp"

namespace novamd::io {
namespace {

constexpr std::string_view kSchema = "hoomd";
#ifdef NOVAMD_VERSION
constexpr std::string_view kApplication = "NovaMD " NOVAMD_VERSION;
#else
constexpr std::string_view kApplication = "NovaMD";
#endif
constexpr std::uint32_t kSchemaVersion = GsdFile::make_version(1, 4);

/// The number of frames of `file` at steps up to `step` (their steps increase).
std::uint64_t frames_up_to(const GsdFile& file, std::int64_t step) {
  std::uint64_t kept = 0;
  for (; kept < file.frames(); ++kept) {
    const auto entry = file.find(kept, "configuration/step");
    std::uint64_t frame_step = 0;  // the schema's default
    if (entry) {
      const auto bytes = file.read(*entry);
      if (bytes.size() != sizeof frame_step)
        throw core::InputError(fmt::format(
            "{}: configuration/step of frame {} is not one uint64; expected a GSD file NovaMD "
            "wrote",
            file.path().string(), kept));
      std::memcpy(&frame_step, bytes.data(), sizeof frame_step);
    }
    if (static_cast<std::int64_t>(frame_step) > step) break;
  }
  return kept;
}

/// Opens a file to continue and checks it holds `particles` particles in the hoomd schema.
GsdFile open_to_continue(const TrajectoryOpen& open, bool writable) {
  GsdFile file = GsdFile::open(open.file, writable);
  if (std::string_view(file.header().schema) != kSchema)
    throw core::InputError(fmt::format(
        "{}: cannot continue this GSD file: its schema is '{}'; expected hoomd (a file NovaMD "
        "wrote)",
        open.file.string(), std::string_view(file.header().schema)));
  if (file.frames() > 0) {
    const auto n = file.find(0, "particles/N");
    std::uint32_t count = 0;
    if (n) std::memcpy(&count, file.read(*n).data(), std::min<std::size_t>(4, n->rows * 4));
    if (count != open.particles)
      throw core::InputError(
          fmt::format("{}: cannot continue this GSD file: it holds {} particles; the run has {}",
                      open.file.string(), count, open.particles));
  }
  return file;
}

}  // namespace

struct GsdWriter::Impl {
  GsdFile file;
  FieldSet fields;
  std::size_t particles;
  const core::SpeciesTable& species;
  std::vector<float> floats;
  std::vector<double> doubles;

  Impl(GsdFile f, const TrajectoryOpen& open)
      : file(std::move(f)), fields(open.fields), particles(open.particles), species(open.species) {}

  void write_static(const core::ParticleData& p, const std::vector<std::size_t>& order);
  void write_vectors(std::string_view name, const core::Vec3Array& a,
                     const std::vector<std::size_t>& order, const core::Vec3<double>& shift);
};

void GsdWriter::Impl::write_static(const core::ParticleData& p,
                                   const std::vector<std::size_t>& order) {
  const std::uint8_t dimensions = 3;
  file.write_chunk("configuration/dimensions", GsdType::Uint8, 1, 1, &dimensions);
  std::size_t width = 1;
  for (const auto& s : species.all()) width = std::max(width, s.name.size() + 1);
  std::vector<char> types(width * static_cast<std::size_t>(species.size()), '\0');
  for (int t = 0; t < species.size(); ++t)
    std::copy(species[t].name.begin(), species[t].name.end(),
              types.begin() + static_cast<long>(width * static_cast<std::size_t>(t)));
  file.write_chunk("particles/types", GsdType::Int8, static_cast<std::uint64_t>(species.size()),
                   static_cast<std::uint32_t>(width), types.data());
  std::vector<std::uint32_t> typeid_of;
  floats.clear();
  std::vector<float> charges;
  for (const std::size_t i : order) {
    const auto& s = species[p.type[i]];
    typeid_of.push_back(static_cast<std::uint32_t>(p.type[i]));
    floats.push_back(static_cast<float>(p.has(p.mass) ? p.mass[i] : s.mass));
    charges.push_back(static_cast<float>(p.has(p.charge) ? p.charge[i] : s.charge));
  }
  file.write_chunk("particles/typeid", GsdType::Uint32, order.size(), 1, typeid_of.data());
  file.write_chunk("particles/mass", GsdType::Float, order.size(), 1, floats.data());
  file.write_chunk("particles/charge", GsdType::Float, order.size(), 1, charges.data());
}

void GsdWriter::Impl::write_vectors(std::string_view name, const core::Vec3Array& a,
                                    const std::vector<std::size_t>& order,
                                    const core::Vec3<double>& shift) {
  floats.clear();
  for (const std::size_t i : order) {
    floats.push_back(static_cast<float>(a.x[i] - shift.x));
    floats.push_back(static_cast<float>(a.y[i] - shift.y));
    floats.push_back(static_cast<float>(a.z[i] - shift.z));
  }
  file.write_chunk(name, GsdType::Float, order.size(), 3, floats.data());
}

void GsdWriter::check(const TrajectoryOpen& open) {
  if (!open.fields.position)
    throw core::InputError(fmt::format(
        "{}: a GSD trajectory holds the positions in every frame; expected fields to include "
        "position",
        open.file.string()));
  if (open.resume_after_step && std::filesystem::exists(open.file))
    frames_up_to(open_to_continue(open, false), *open.resume_after_step);
}

GsdWriter::GsdWriter(const TrajectoryOpen& open) {
  check(open);
  if (open.resume_after_step && std::filesystem::exists(open.file)) {
    GsdFile file = open_to_continue(open, true);
    file.keep_frames(frames_up_to(file, *open.resume_after_step));
    impl_ = std::make_unique<Impl>(std::move(file), open);
  } else {
    impl_ = std::make_unique<Impl>(
        GsdFile::create(open.file, kApplication, kSchema, kSchemaVersion), open);
  }
}

GsdWriter::~GsdWriter() = default;

void GsdWriter::write(const TrajectoryFrame& frame) {
  Impl& w = *impl_;
  check_frame(frame, w.fields, w.particles, w.file.path(), "GSD");
  const core::ParticleData& p = frame.particles;
  const auto order = core::id_order(p);
  const std::uint64_t step = static_cast<std::uint64_t>(frame.step);
  w.file.write_chunk("configuration/step", GsdType::Uint64, 1, 1, &step);
  const auto& L = frame.box.length();
  const float box[6] = {
      static_cast<float>(L.x), static_cast<float>(L.y), static_cast<float>(L.z), 0.0F, 0.0F, 0.0F};
  w.file.write_chunk("configuration/box", GsdType::Float, 6, 1, box);
  const auto n = static_cast<std::uint32_t>(order.size());
  w.file.write_chunk("particles/N", GsdType::Uint32, 1, 1, &n);
  if (w.file.frames() == 0) w.write_static(p, order);
  w.write_vectors("particles/position", p.position, order, {L.x / 2, L.y / 2, L.z / 2});
  if (frame.fields.velocity) w.write_vectors("particles/velocity", p.velocity, order, {});
  if (p.has(p.image)) {
    std::vector<std::int32_t> image;
    for (const std::size_t i : order)
      for (const auto* a : {&p.image.x, &p.image.y, &p.image.z}) image.push_back((*a)[i]);
    w.file.write_chunk("particles/image", GsdType::Int32, order.size(), 3, image.data());
  }
  if (frame.fields.force) {
    w.doubles.clear();
    for (const std::size_t i : order)
      for (const auto* a : {&p.force.x, &p.force.y, &p.force.z}) w.doubles.push_back((*a)[i]);
    w.file.write_chunk("log/particles/force", GsdType::Double, order.size(), 3, w.doubles.data());
  }
  w.file.write_chunk("log/time", GsdType::Double, 1, 1, &frame.time);
  w.file.end_frame();
}

const std::filesystem::path& GsdWriter::path() const {
  return impl_->file.path();
}

}  // namespace novamd::io
