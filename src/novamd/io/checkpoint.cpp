/// @file checkpoint.cpp
/// The checkpoint file format, version 5 (see checkpoint.hpp; the layout is in
/// docs/file-formats.md). Version 2 stores the particles as named fields, every present field
/// of core::ParticleFields (for_each_field); version 1 files (five fixed arrays) are still
/// read. Version 3 adds the barostat's state after the integrator's; older files hold none.
/// Version 4 adds each force term's box at its last list build (lists follow a barostat's box
/// moves); older files' lists were built in the checkpoint's box. Version 5 adds the time axis
/// (the origin step and time and the timestep: a stage or restart may change the timestep);
/// older files' time is step x their config's integrator.timestep. Values
/// are little-endian (binary_io.hpp):
///
///     header   "NOVAMDCK", uint32 version, uint32 byte-order mark, uint64 content length
///     content  a fixed sequence of fields: strings length-prefixed, arrays count-prefixed
///     uint32   CRC-32 of every byte before it
///
/// Reading checks, in this order: the magic, a reversed byte-order mark, the version, any other
/// byte-order mark, the file size against the content length, the CRC-32, and only then parses
/// the content, checking every count as it goes; then the content itself (check_content: a
/// valid checksum does not make a crafted or buggy file's values valid). The version comes before
/// the checksum because a later version may checksum differently: its files must be refused for
/// their version, not called corrupt.

#include "novamd/io/checkpoint.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "novamd/core/error.hpp"
#include "novamd/core/excerpt.hpp"
#include "novamd/io/binary_io.hpp"

namespace novamd::io {
namespace {

constexpr std::string_view kMagic = "NOVAMDCK";
constexpr std::uint32_t kFormatVersion = 5;
/// The oldest version this novamd reads.
constexpr std::uint32_t kOldestVersion = 1;
/// Magic (8), version (4), byte-order mark (4), content length (8).
constexpr std::size_t kHeaderSize = 24;
constexpr std::size_t kVersionOffset = 8;
constexpr std::size_t kMarkOffset = 12;
constexpr std::size_t kLengthOffset = 16;
constexpr std::size_t kChecksumSize = 4;
/// A stored force term without a neighbour list: two int64 and three empty arrays.
constexpr std::size_t kMinTermSize = 2 * 8 + 3 * 8;

/// "the particle positions (x)".
std::string component(std::string_view what, int d) {
  return fmt::format("{} ({})", what, "xyz"[d]);
}

/// "the particle positions (x)" for vectors, "the orientations (w)" for quaternions, "the
/// particle ids" for scalars.
std::string component_of(const core::FieldInfo& info, int c, std::size_t components) {
  if (components == 1) return std::string(info.description);
  if (components == 3) return component(info.description, c);
  return fmt::format("{} ({})", info.description, "wxyz"[c]);
}

/// Calls f(info, name, array) for every component array of every field of `p`, with the
/// component's name in messages ("the particle positions (x)").
template <class Particles, class F>
void for_each_named_array(Particles& p, F&& f) {
  core::for_each_field(
      [&](const core::FieldInfo& info, auto& field) {
        const auto arrays = core::components_of(field);
        for (std::size_t c = 0; c < arrays.size(); ++c)
          f(info, component_of(info, static_cast<int>(c), arrays.size()), *arrays[c]);
      },
      p);
}

// --- Writing -----------------------------------------------------------------------------------

/// Every per-particle array of `data` with its size and whether it may be empty instead.
struct ArraySize {
  std::string what;
  std::size_t size;
  bool may_be_empty;
};

void add_vec3(std::vector<ArraySize>& out, std::string_view what, const core::Vec3Array& a,
              bool may_be_empty) {
  out.push_back({component(what, 0), a.x.size(), may_be_empty});
  out.push_back({component(what, 1), a.y.size(), may_be_empty});
  out.push_back({component(what, 2), a.z.size(), may_be_empty});
}

std::vector<ArraySize> per_particle_arrays(const CheckpointData& data) {
  std::vector<ArraySize> arrays;
  for_each_named_array(data.state.particles,
                       [&](const core::FieldInfo& info, std::string name, const auto& a) {
                         arrays.push_back({std::move(name), a.size(), info.optional});
                       });
  arrays.push_back({"the thermostat heat", data.state.thermostat_heat.size(), true});
  for (std::size_t k = 0; k < data.state.terms.size(); ++k)
    add_vec3(arrays, fmt::format("the list-build positions of force term {}", k),
             data.state.terms[k].built_at, true);
  return arrays;
}

/// Throws core::RunError if an array does not hold one value per particle (particles.type
/// defines the count; an absent optional field holds none), or a term's list-build positions
/// differ in size between x, y and z.
void check_consistent(const std::filesystem::path& file, const CheckpointData& data) {
  const std::size_t n = data.state.particles.size();
  for (const ArraySize& a : per_particle_arrays(data)) {
    if (a.size != n && !(a.may_be_empty && a.size == 0))
      throw core::RunError(fmt::format(
          "{}: cannot write the checkpoint: {} hold {} values for {} particles{}", file.string(),
          a.what, a.size, n, a.may_be_empty ? " (expected 0 or all)" : ""));
  }
  for (std::size_t k = 0; k < data.state.terms.size(); ++k) {
    const core::Vec3Array& a = data.state.terms[k].built_at;
    if (a.x.size() != a.y.size() || a.x.size() != a.z.size())
      throw core::RunError(fmt::format(
          "{}: cannot write the checkpoint: the list-build positions of force term {} hold {}, "
          "{} and {} values in x, y and z",
          file.string(), k, a.x.size(), a.y.size(), a.z.size()));
  }
}

void put_vec3(BinaryWriter& out, const core::Vec3Array& a) {
  out.vector(a.x);
  out.vector(a.y);
  out.vector(a.z);
}

/// The particle count, then each required and each present optional field: its name, its
/// number of components, the size of one value in bytes, and its component arrays.
void put_particles(BinaryWriter& out, const core::ParticleData& p) {
  out.u64(p.size());
  const auto stored = [&](const core::FieldInfo& info, const auto& f) {
    return !info.optional || p.has(f);
  };
  std::uint32_t fields = 0;
  core::for_each_field(
      [&](const core::FieldInfo& info, const auto& f) { fields += stored(info, f); }, p);
  out.u32(fields);
  core::for_each_field(
      [&](const core::FieldInfo& info, const auto& f) {
        if (!stored(info, f)) return;
        const auto arrays = core::components_of(f);
        out.string(info.name);
        out.u32(static_cast<std::uint32_t>(arrays.size()));
        out.u32(static_cast<std::uint32_t>(sizeof(arrays[0]->front())));
        for (const auto* a : arrays) out.vector(*a);
      },
      p);
}

void put_content(BinaryWriter& out, const CheckpointData& data) {
  for (const std::string* s :
       {&data.novamd_version, &data.config_yaml, &data.backend, &data.precision, &data.device})
    out.string(*s);
  out.i64(data.step);
  for (const double length : data.box) out.f64(length);
  const backend::BackendState& state = data.state;
  put_particles(out, state.particles);
  out.vector(state.thermostat_heat);
  out.i64(state.force_evaluations);
  out.i64(state.reorders);
  out.u64(state.terms.size());
  for (const backend::NeighborState& term : state.terms) {
    out.i64(term.calls);
    out.i64(term.builds);
    put_vec3(out, term.built_at);
    const auto& built = term.built_box.length();
    for (const double length : {built.x, built.y, built.z}) out.f64(length);
  }
  out.string(data.integrator.type);
  out.vector(data.integrator.values);
  out.string(data.barostat.type);
  out.vector(data.barostat.values);
  out.i64(data.time_axis.origin_step);
  out.f64(data.time_axis.origin_time);
  out.f64(data.time_axis.timestep);
}

// --- Reading -----------------------------------------------------------------------------------

template <class T>
T load(std::span<const unsigned char> bytes, std::size_t offset) {
  T v;
  std::memcpy(&v, bytes.data() + offset, sizeof v);
  return v;
}

/// Checks the header and the file size against it; returns the content length.
std::size_t checked_content_length(std::span<const unsigned char> bytes, const std::string& file) {
  const auto fail = [&](const std::string& why) {
    throw core::InputError(fmt::format("{}: {}", file, why));
  };
  const std::size_t size = bytes.size();
  const std::size_t magic_bytes = std::min(size, kMagic.size());
  if (std::string_view(reinterpret_cast<const char*>(bytes.data()), magic_bytes) !=
      kMagic.substr(0, magic_bytes))
    fail("not a NovaMD checkpoint (the file does not start with NOVAMDCK)");
  const ByteOrder order = size >= kMarkOffset + 4
                              ? byte_order_of(load<std::uint32_t>(bytes, kMarkOffset))
                              : ByteOrder::kSame;
  if (order == ByteOrder::kSwapped)
    fail(
        "the checkpoint was written on a machine of the other byte order (big-endian); this "
        "novamd reads little-endian checkpoints");
  if (size >= kVersionOffset + 4) {
    const auto version = load<std::uint32_t>(bytes, kVersionOffset);
    if (version < kOldestVersion || version > kFormatVersion)
      fail(fmt::format("checkpoint format version {}; this novamd reads versions {} to {}", version,
                       kOldestVersion, kFormatVersion));
  }
  if (order == ByteOrder::kUnknown)
    fail(fmt::format("corrupt header: byte-order mark 0x{:08x}, expected 0x{:08x}",
                     load<std::uint32_t>(bytes, kMarkOffset), kByteOrderMark));
  const std::size_t minimum = kHeaderSize + kChecksumSize;
  if (size < minimum)
    fail(fmt::format("truncated: {} bytes, a checkpoint needs at least {}", size, minimum));
  const auto length = load<std::uint64_t>(bytes, kLengthOffset);
  if (length > std::numeric_limits<std::uint64_t>::max() - minimum)
    fail(fmt::format("corrupt header: a content length of {} bytes", length));
  if (length > size - minimum)
    fail(fmt::format("truncated: {} bytes, the content needs {}", size, minimum + length));
  if (length < size - minimum)
    fail(fmt::format("{} bytes after the checksum: the file is corrupt", size - minimum - length));
  return static_cast<std::size_t>(length);
}

void check_checksum(std::span<const unsigned char> bytes, const std::string& file) {
  const std::size_t covered = bytes.size() - kChecksumSize;
  const auto stored = load<std::uint32_t>(bytes, covered);
  const std::uint32_t computed = crc32_of(bytes.first(covered));
  if (stored != computed)
    throw core::InputError(
        fmt::format("{}: checksum mismatch (stored 0x{:08x}, computed 0x{:08x}): the file is "
                    "corrupt",
                    file, stored, computed));
}

/// A count-prefixed array that must hold `n` values (or none, where `may_be_empty`).
template <class T>
std::vector<T> get_per_particle(BinaryReader& in, std::string_view what, std::size_t n,
                                bool may_be_empty) {
  std::vector<T> v = in.vector<T>(what);
  if (v.size() != n && !(may_be_empty && v.empty()))
    in.corrupt(fmt::format("{} hold {} values for {} particles", what, v.size(), n));
  return v;
}

core::Vec3Array get_vec3(BinaryReader& in, std::string_view what, std::size_t n,
                         bool may_be_empty) {
  core::Vec3Array a;
  a.x = get_per_particle<double>(in, component(what, 0), n, may_be_empty);
  a.y = get_per_particle<double>(in, component(what, 1), n, may_be_empty);
  a.z = get_per_particle<double>(in, component(what, 2), n, may_be_empty);
  if (a.x.size() != a.y.size() || a.x.size() != a.z.size())
    in.corrupt(fmt::format("{} hold {}, {} and {} values in x, y and z", what, a.x.size(),
                           a.y.size(), a.z.size()));
  return a;
}

/// Version 1: positions, velocities, forces, types and ids in this order.
void get_particles_v1(BinaryReader& in, std::size_t n, core::ParticleData& p) {
  p.position = get_vec3(in, "the particle positions", n, false);
  p.velocity = get_vec3(in, "the particle velocities", n, false);
  p.force = get_vec3(in, "the particle forces", n, false);
  p.type = get_per_particle<std::int32_t>(in, "the particle types", n, false);
  p.id = get_per_particle<std::int32_t>(in, "the particle ids", n, false);
}

/// One stored field, named `name`, into its place in `p`; false if no field has that name.
bool get_field(BinaryReader& in, std::string_view name, std::size_t n, core::ParticleData& p,
               std::set<std::string_view>& read) {
  bool found = false;
  core::for_each_field(
      [&](const core::FieldInfo& info, auto& f) {
        if (info.name != name) return;
        found = true;
        if (!read.insert(info.name).second)
          in.corrupt(fmt::format("{} are stored twice", info.description));
        const auto arrays = core::components_of(f);
        using Value = typename std::decay_t<decltype(*arrays[0])>::value_type;
        const std::uint32_t components =
            in.u32(fmt::format("the components of {}", info.description));
        const std::uint32_t bytes = in.u32(fmt::format("the value size of {}", info.description));
        if (components != arrays.size() || bytes != sizeof(Value))
          in.corrupt(fmt::format("{} stored as {} components of {} bytes; expected {} of {}",
                                 info.description, components, bytes, arrays.size(),
                                 sizeof(Value)));
        for (std::size_t c = 0; c < arrays.size(); ++c)
          *arrays[c] = get_per_particle<Value>(
              in, component_of(info, static_cast<int>(c), arrays.size()), n, false);
      },
      p);
  return found;
}

/// Version 2: the fields by name; every required field must be there.
void get_particles(BinaryReader& in, std::size_t n, core::ParticleData& p) {
  const std::uint32_t fields = in.u32("the number of particle fields");
  std::set<std::string_view> read;
  for (std::uint32_t k = 0; k < fields; ++k) {
    const std::string name = in.string("a particle field name");
    if (!get_field(in, name, n, p, read))
      in.corrupt(fmt::format("a particle field named '{}', which this novamd does not know",
                             core::excerpt(name)));
  }
  core::for_each_field(
      [&](const core::FieldInfo& info, const auto& f) {
        if (!info.optional && !read.contains(info.name))
          in.corrupt(fmt::format("{} are missing", info.description));
      },
      p);
}

void get_state(BinaryReader& in, std::uint32_t version, backend::BackendState& state) {
  const std::uint64_t count = in.u64("the particle count");
  if (count > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
    in.corrupt(fmt::format("a particle count of {}", count));
  const auto n = static_cast<std::size_t>(count);
  if (version == 1) {
    get_particles_v1(in, n, state.particles);
  } else {
    get_particles(in, n, state.particles);
  }
  state.thermostat_heat = get_per_particle<double>(in, "the thermostat heat", n, true);
  state.force_evaluations = in.i64("the force-evaluation count");
  state.reorders = in.i64("the reorder count");
  const std::uint64_t terms = in.u64("the number of force terms");
  if (terms > in.remaining() / kMinTermSize)
    in.corrupt(
        fmt::format("{} force terms claimed, but only {} bytes remain", terms, in.remaining()));
  state.terms.resize(static_cast<std::size_t>(terms));
  for (std::size_t k = 0; k < state.terms.size(); ++k) {
    backend::NeighborState& term = state.terms[k];
    term.calls = in.i64(fmt::format("the evaluation count of force term {}", k));
    term.builds = in.i64(fmt::format("the list-build count of force term {}", k));
    term.built_at =
        get_vec3(in, fmt::format("the list-build positions of force term {}", k), n, true);
    if (version >= 4) {
      double length[3];
      for (int d = 0; d < 3; ++d)
        length[d] = in.f64(component(fmt::format("the list-build box of force term {}", k), d));
      term.built_box = core::Box(length[0], length[1], length[2]);
    }
  }
}

/// integrator.timestep of a config's YAML (0 where it has none: the content check names it).
double timestep_of(const std::string& config_yaml) {
  try {
    const YAML::Node timestep = YAML::Load(config_yaml)["integrator"]["timestep"];
    return timestep ? timestep.as<double>() : 0.0;
  } catch (const YAML::Exception&) {
    return 0.0;
  }
}

CheckpointData get_content(BinaryReader& in, std::uint32_t version) {
  CheckpointData data;
  data.novamd_version = in.string("the novamd version");
  data.config_yaml = in.string("the config");
  data.backend = in.string("the backend name");
  data.precision = in.string("the precision");
  data.device = in.string("the device description");
  data.step = in.i64("the step");
  for (int d = 0; d < 3; ++d) data.box[d] = in.f64(component("the box", d));
  get_state(in, version, data.state);
  if (version < 4)  // the lists were built in the checkpoint's box
    for (auto& term : data.state.terms)
      term.built_box = core::Box(data.box[0], data.box[1], data.box[2]);
  data.integrator.type = in.string("the integrator name");
  data.integrator.values = in.vector<double>("the integrator state");
  if (version >= 3) {
    data.barostat.type = in.string("the barostat name");
    data.barostat.values = in.vector<double>("the barostat state");
  }
  if (version >= 5) {
    data.time_axis.origin_step = in.i64("the time origin's step");
    data.time_axis.origin_time = in.f64("the time origin's time");
    data.time_axis.timestep = in.f64("the timestep");
  } else {  // time was step x the config's timestep
    data.time_axis.timestep = timestep_of(data.config_yaml);
  }
  if (in.remaining() != 0)
    in.corrupt(fmt::format("{} bytes after the {} state", in.remaining(),
                           version >= 5   ? "time axis"
                           : version >= 3 ? "barostat"
                                          : "integrator"));
  return data;
}

// --- Checking the content ----------------------------------------------------------------------

/// The largest step a checkpoint may hold: 2^53. Steps up to it are exact as doubles (times are
/// step x timestep), and twice the step, which a finished run suggests as the next --steps, fits
/// an int64.
constexpr std::int64_t kMaxStep = std::int64_t{1} << 53;

[[noreturn]] void invalid(const std::string& file, std::string_view why) {
  throw core::InputError(fmt::format("{}: invalid checkpoint: {}", file, why));
}

/// Each of 0..N-1 exactly once, N the number of ids.
void check_ids(const std::vector<std::int32_t>& ids, const std::string& file) {
  const auto n = static_cast<std::int64_t>(ids.size());
  std::vector<std::int64_t> seen_at(ids.size(), -1);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t id = ids[i];
    if (id < 0 || id >= n)
      invalid(file, fmt::format("particle id {} at index {} is out of range [0, {}); expected "
                                "each id from 0 to {} once",
                                id, i, n, n - 1));
    if (seen_at[id] >= 0)
      invalid(file,
              fmt::format("duplicate particle id {} at indices {} and {}", id, seen_at[id], i));
    seen_at[id] = i;
  }
}

void check_finite(const std::vector<double>& values, std::string_view what,
                  const std::string& file) {
  const auto bad =
      std::find_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); });
  if (bad != values.end())
    invalid(file, fmt::format("{} hold {} at index {}; expected finite numbers", what, *bad,
                              bad - values.begin()));
}

void check_finite(const core::Vec3Array& a, std::string_view what, const std::string& file) {
  check_finite(a.x, component(what, 0), file);
  check_finite(a.y, component(what, 1), file);
  check_finite(a.z, component(what, 2), file);
}

void check_count(std::int64_t value, std::string_view what, const std::string& file) {
  if (value < 0) invalid(file, fmt::format("{} is {}; expected a count >= 0", what, value));
}

/// What a valid checksum does not vouch for: the step and the box in range, ids 0..N-1 once
/// each, every stored number finite, every counter non-negative.
void check_content(const CheckpointData& data, const std::string& file) {
  if (data.step < 0 || data.step > kMaxStep)
    invalid(file, fmt::format("the step is {}; expected 0 to {} (2^53)", data.step, kMaxStep));
  for (int d = 0; d < 3; ++d) {
    if (!(std::isfinite(data.box[d]) && data.box[d] > 0.0))
      invalid(file, fmt::format("{} is {}; expected a positive, finite length",
                                component("the box edge", d), data.box[d]));
  }
  const backend::BackendState& state = data.state;
  check_ids(state.particles.id, file);
  for_each_named_array(
      state.particles, [&](const core::FieldInfo&, const std::string& name, const auto& a) {
        if constexpr (std::is_same_v<std::decay_t<decltype(a)>, std::vector<double>>)
          check_finite(a, name, file);
      });
  check_finite(state.thermostat_heat, "the thermostat heat", file);
  check_count(state.force_evaluations, "the force-evaluation count", file);
  check_count(state.reorders, "the reorder count", file);
  for (std::size_t k = 0; k < state.terms.size(); ++k) {
    check_count(state.terms[k].calls, fmt::format("the evaluation count of force term {}", k),
                file);
    check_count(state.terms[k].builds, fmt::format("the list-build count of force term {}", k),
                file);
    check_finite(state.terms[k].built_at,
                 fmt::format("the list-build positions of force term {}", k), file);
    const auto& built = state.terms[k].built_box.length();
    for (const double length : {built.x, built.y, built.z})
      if (!(std::isfinite(length) && length >= 0.0))
        invalid(file,
                fmt::format("the list-build box of force term {} has an edge of {}", k, length));
  }
  check_finite(data.integrator.values, "the integrator state", file);
  check_finite(data.barostat.values, "the barostat state", file);
  const core::TimeAxis& t = data.time_axis;
  if (t.origin_step < 0 || t.origin_step > data.step)
    invalid(file, fmt::format("the time origin's step is {}; expected 0 to the step, {}",
                              t.origin_step, data.step));
  if (!std::isfinite(t.origin_time) || t.origin_time < 0.0)
    invalid(file, fmt::format("the time origin's time is {}; expected a finite time >= 0",
                              t.origin_time));
  if (!(std::isfinite(t.timestep) && t.timestep > 0.0))
    invalid(file, fmt::format("the timestep is {}; expected a positive, finite time", t.timestep));
}

}  // namespace

void write_checkpoint(const std::filesystem::path& file, const CheckpointData& data) {
  check_consistent(file, data);
  BinaryWriter out;
  out.bytes(kMagic.data(), kMagic.size());
  out.u32(kFormatVersion);
  out.u32(kByteOrderMark);
  out.u64(0);  // the content length, known below
  put_content(out, data);
  out.patch_u64(kLengthOffset, out.size() - kHeaderSize);
  out.u32(crc32_of(out.buffer()));
  write_file_atomically(file, out.buffer());
}

CheckpointData read_checkpoint(const std::filesystem::path& file) {
  const std::vector<unsigned char> bytes = read_whole_file(file);
  const std::string name = file.string();
  const std::size_t length = checked_content_length(bytes, name);
  check_checksum(bytes, name);
  const std::span<const unsigned char> content(bytes.data() + kHeaderSize, length);
  BinaryReader in(content, name);
  CheckpointData data = get_content(in, load<std::uint32_t>(bytes, kVersionOffset));
  check_content(data, name);
  return data;
}

}  // namespace novamd::io
