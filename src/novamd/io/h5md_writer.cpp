/// @file h5md_writer.cpp
/// H5MD 1.1 writer on the HDF5 C API (see h5md_writer.hpp for the layout).

#include "novamd/io/h5md_writer.hpp"

#include <fmt/format.h>
#include <hdf5.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/io/h5md_units.hpp"
#include "novamd/io/hdf5_handle.hpp"
#include "novamd/io/trajectory_checks.hpp"

namespace novamd::io {
namespace {

constexpr std::array<const char*, 3> kFieldNames = {"position", "velocity", "force"};
constexpr hsize_t kStepChunk = 256;  ///< rows per chunk of the step and time datasets

bool holds(const FieldSet& fields, int field) {
  return field == 0 ? fields.position : field == 1 ? fields.velocity : fields.force;
}

/// The first field of `fields` (position, velocity, force), or -1 if none.
int first_field(const FieldSet& fields) {
  for (int f = 0; f < 3; ++f)
    if (holds(fields, f)) return f;
  return -1;
}

const core::Vec3Array& field_array(const core::ParticleData& p, int field) {
  return field == 0 ? p.position : field == 1 ? p.velocity : p.force;
}

/// Turns HDF5's failure values into core::RunError "<file>: HDF5 could not <what>".
class Hdf5Check {
 public:
  explicit Hdf5Check(std::string file) : file_(std::move(file)) {}

  Hdf5Handle operator()(hid_t id, Hdf5Handle::Closer close, const std::string& what) const {
    if (id < 0) fail(what);
    return Hdf5Handle(id, close);
  }
  void operator()(herr_t status, const std::string& what) const {
    if (status < 0) fail(what);
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw core::RunError(fmt::format("{}: HDF5 could not {}", file_, what));
  }
  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

Hdf5Handle create_group(const Hdf5Check& check, hid_t parent, const std::string& name) {
  return check(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
               "create the group " + name);
}

Hdf5Handle open_group(const Hdf5Check& check, hid_t parent, const std::string& name) {
  return check(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), H5Gclose, "open the group " + name);
}

bool has_link(hid_t parent, const std::string& name) {
  return H5Lexists(parent, name.c_str(), H5P_DEFAULT) > 0;
}

/// A fixed-length string type (NUL-terminated, UTF-8) wide enough for `values`, and `values`
/// packed in it.
Hdf5Handle fixed_strings(const Hdf5Check& check, const std::vector<std::string>& values,
                         std::vector<char>& packed, const std::string& what) {
  std::size_t width = 1;
  for (const auto& v : values) width = std::max(width, v.size() + 1);
  packed.assign(width * values.size(), '\0');
  for (std::size_t k = 0; k < values.size(); ++k)
    std::copy(values[k].begin(), values[k].end(), packed.begin() + static_cast<long>(k * width));
  Hdf5Handle type = check(H5Tcopy(H5T_C_S1), H5Tclose, what);
  check(H5Tset_size(type.get(), width), what);
  check(H5Tset_strpad(type.get(), H5T_STR_NULLTERM), what);
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), what);
  return type;
}

/// A fixed-length string attribute: scalar, or one string per entry.
void set_strings(const Hdf5Check& check, hid_t object, const char* name,
                 const std::vector<std::string>& values, bool scalar) {
  const std::string what = fmt::format("write the attribute {}", name);
  std::vector<char> packed;
  const Hdf5Handle type = fixed_strings(check, values, packed, what);
  const hsize_t n = values.size();
  const Hdf5Handle space =
      check(scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr), H5Sclose, what);
  const Hdf5Handle attr = check(
      H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose, what);
  check(H5Awrite(attr.get(), type.get(), packed.data()), what);
}

/// A dataset of fixed-length strings, one per entry.
void write_strings(const Hdf5Check& check, hid_t parent, const char* name,
                   const std::vector<std::string>& values) {
  const std::string what = fmt::format("write the dataset {}", name);
  std::vector<char> packed;
  const Hdf5Handle type = fixed_strings(check, values, packed, what);
  const hsize_t n = values.size();
  const Hdf5Handle space = check(H5Screate_simple(1, &n, nullptr), H5Sclose, what);
  const Hdf5Handle dataset = check(
      H5Dcreate2(parent, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
      H5Dclose, what);
  if (n > 0)
    check(H5Dwrite(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, packed.data()), what);
}

/// An Integer attribute: scalar, or a vector.
void set_ints(const Hdf5Check& check, hid_t object, const char* name,
              const std::vector<std::int32_t>& values, bool scalar) {
  const std::string what = fmt::format("write the attribute {}", name);
  const hsize_t n = values.size();
  const Hdf5Handle space =
      check(scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr), H5Sclose, what);
  const Hdf5Handle attr =
      check(H5Acreate2(object, name, H5T_STD_I32LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
            H5Aclose, what);
  check(H5Awrite(attr.get(), H5T_NATIVE_INT32, values.data()), what);
}

/// The `unit` attribute of H5MD's units module (scalar, variable-length ASCII); none if empty.
void set_unit(const Hdf5Check& check, hid_t object, const std::string& unit) {
  if (unit.empty()) return;
  const std::string what = "write the attribute unit = " + unit;
  const Hdf5Handle type = check(H5Tcopy(H5T_C_S1), H5Tclose, what);
  check(H5Tset_size(type.get(), H5T_VARIABLE), what);
  const Hdf5Handle space = check(H5Screate(H5S_SCALAR), H5Sclose, what);
  const Hdf5Handle attr =
      check(H5Acreate2(object, "unit", type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
            what);
  const char* text = unit.c_str();
  check(H5Awrite(attr.get(), type.get(), &text), what);
}

/// An empty dataset of shape [0, inner...] that grows along its first axis.
Hdf5Handle create_series(const Hdf5Check& check, hid_t parent, const char* name, hid_t type,
                         const std::vector<hsize_t>& inner, hsize_t chunk_rows) {
  std::vector<hsize_t> dims{0}, max_dims{H5S_UNLIMITED}, chunk{chunk_rows};
  for (const hsize_t d : inner) {
    dims.push_back(d);
    max_dims.push_back(d);
    chunk.push_back(d);
  }
  const std::string what = fmt::format("create the dataset {}", name);
  const auto rank = static_cast<int>(dims.size());
  const Hdf5Handle space =
      check(H5Screate_simple(rank, dims.data(), max_dims.data()), H5Sclose, what);
  const Hdf5Handle properties = check(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, what);
  check(H5Pset_chunk(properties.get(), rank, chunk.data()), what);
  return check(
      H5Dcreate2(parent, name, type, space.get(), H5P_DEFAULT, properties.get(), H5P_DEFAULT),
      H5Dclose, what);
}

/// The extent of `dataset` (rows first).
std::vector<hsize_t> extent(const Hdf5Check& check, hid_t dataset) {
  const Hdf5Handle space = check(H5Dget_space(dataset), H5Sclose, "read a dataset's extent");
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 1) check.fail("read a dataset's rank");
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  check(H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr), "read a dataset's extent");
  return dims;
}

/// Resizes `dataset` to `rows` rows (H5Dset_extent), keeping the other axes.
void set_rows(const Hdf5Check& check, hid_t dataset, hsize_t rows) {
  std::vector<hsize_t> dims = extent(check, dataset);
  dims[0] = rows;
  check(H5Dset_extent(dataset, dims.data()), fmt::format("resize a dataset to {} rows", rows));
}

/// Appends row `row` (the current row count) holding `data`.
void append_row(const Hdf5Check& check, hid_t dataset, hid_t memory_type, hsize_t row,
                const void* data) {
  std::vector<hsize_t> dims = extent(check, dataset);
  dims[0] = row + 1;
  const std::string what = fmt::format("append row {} to a dataset", row);
  check(H5Dset_extent(dataset, dims.data()), what);
  std::vector<hsize_t> start(dims.size(), 0), count = dims;
  start[0] = row;
  count[0] = 1;
  const Hdf5Handle file_space = check(H5Dget_space(dataset), H5Sclose, what);
  check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                            nullptr),
        what);
  const Hdf5Handle memory_space = check(
      H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr), H5Sclose, what);
  check(H5Dwrite(dataset, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, data),
        what);
}

/// A time-dependent H5MD element: step, time and value, `frames` rows each.
struct Element {
  Hdf5Handle group, step, time, value;
  hsize_t frames = 0;
};

Element create_element(const Hdf5Check& check, hid_t parent, const char* name, std::size_t n,
                       const std::string& value_unit, const std::string& time_unit) {
  Element e;
  e.group = create_group(check, parent, name);
  e.step = create_series(check, e.group.get(), "step", H5T_STD_I64LE, {}, kStepChunk);
  e.time = create_series(check, e.group.get(), "time", H5T_IEEE_F64LE, {}, kStepChunk);
  e.value = create_series(check, e.group.get(), "value", H5T_IEEE_F64LE, {n, 3}, 1);
  set_unit(check, e.time.get(), time_unit);
  set_unit(check, e.value.get(), value_unit);
  return e;
}

Hdf5Handle open_dataset(const Hdf5Check& check, hid_t parent, const char* name) {
  return check(H5Dopen2(parent, name, H5P_DEFAULT), H5Dclose, fmt::format("open {}", name));
}

/// Opens element `name` and, where `cut`, cuts it to the frames up to `resume_step` (its steps
/// increase).
Element open_element_until(const Hdf5Check& check, hid_t parent, const char* name, std::size_t n,
                           std::int64_t resume_step, bool cut) {
  Element e;
  e.group = open_group(check, parent, name);
  e.step = open_dataset(check, e.group.get(), "step");
  e.time = open_dataset(check, e.group.get(), "time");
  e.value = open_dataset(check, e.group.get(), "value");
  const std::vector<hsize_t> dims = extent(check, e.value.get());
  if (dims.size() != 3 || dims[1] != n || dims[2] != 3)
    throw core::InputError(fmt::format(
        "{}: cannot continue this H5MD file: /particles/all/{}/value is not [frames, {}, 3] "
        "(the run has {} particles)",
        check.file(), name, n, n));
  std::vector<std::int64_t> steps(extent(check, e.step.get())[0]);
  if (!steps.empty())
    check(H5Dread(e.step.get(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, steps.data()),
          fmt::format("read /particles/all/{}/step", name));
  e.frames = 0;
  while (e.frames < steps.size() && steps[e.frames] <= resume_step) ++e.frames;
  if (cut)
    for (const hid_t d : {e.step.get(), e.time.get(), e.value.get()}) set_rows(check, d, e.frames);
  return e;
}

std::string author_name() {
  const char* user = std::getenv("USER");
  return user && *user ? user : "unknown";
}

}  // namespace

struct H5mdWriter::Impl {
  std::filesystem::path path;
  Hdf5Check check;
  std::size_t particles = 0;
  FieldSet fields;
  int leading = 0;  ///< the field whose frames carry the box
  std::string length_unit, time_unit, velocity_unit, force_unit;
  Hdf5Handle file, all;  ///< the file and /particles/all
  std::array<std::optional<Element>, 3> elements;
  Hdf5Handle edges;  ///< /particles/all/box/edges/value
  hsize_t edge_frames = 0;
  bool has_species = false;
  std::vector<double> row;

  explicit Impl(const TrajectoryOpen& open)
      : path(open.file),
        check(open.file.string()),
        particles(open.particles),
        fields(open.fields),
        leading(first_field(open.fields)),
        length_unit(h5md_unit(open.length_unit)),
        time_unit(h5md_unit(open.time_unit)),
        velocity_unit(h5md_quotient_unit(open.length_unit, open.time_unit)),
        force_unit(h5md_quotient_unit(open.energy_unit, open.length_unit)) {}

  std::string unit_of(int field) const {
    return field == 0 ? length_unit : field == 1 ? velocity_unit : force_unit;
  }
  void create(const TrajectoryOpen& open);
  void create_box();
  /// Opens the file to continue it after `resume_step`; with `cut` false only checks that it
  /// can be (read-only, nothing changed).
  void resume(std::int64_t resume_step, bool cut = true);
  void write_species(const core::ParticleData& p, const std::vector<std::size_t>& order);
  void write(const TrajectoryFrame& frame);
};

void H5mdWriter::Impl::create(const TrajectoryOpen& open) {
  hid_t id = H5I_INVALID_HID;
  H5E_BEGIN_TRY {
    id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  }
  H5E_END_TRY;
  if (id < 0)
    throw core::InputError(
        fmt::format("{}: HDF5 cannot create this file; expected a writable path", path.string()));
  file = Hdf5Handle(id, H5Fclose);

  const Hdf5Handle h5md = create_group(check, file.get(), "h5md");
  set_ints(check, h5md.get(), "version", {1, 1}, false);
  const Hdf5Handle author = create_group(check, h5md.get(), "author");
  set_strings(check, author.get(), "name", {author_name()}, true);
  const Hdf5Handle creator = create_group(check, h5md.get(), "creator");
  set_strings(check, creator.get(), "name", {"NovaMD"}, true);
  set_strings(check, creator.get(), "version", {NOVAMD_VERSION}, true);

  const Hdf5Handle parameters = create_group(check, file.get(), "parameters");
  const Hdf5Handle novamd = create_group(check, parameters.get(), "novamd");
  std::vector<std::string> names;
  for (const auto& s : open.species.all()) names.push_back(s.name);
  write_strings(check, novamd.get(), "species_names", names);

  const Hdf5Handle particles_group = create_group(check, file.get(), "particles");
  all = create_group(check, particles_group.get(), "all");
  for (int f = 0; f < 3; ++f)
    if (holds(fields, f))
      elements[f] =
          create_element(check, all.get(), kFieldNames[f], particles, unit_of(f), time_unit);
  create_box();
  check(H5Fflush(file.get(), H5F_SCOPE_LOCAL), "flush the file");
}

/// box: attributes, and edges whose step and time are the leading field's (hard links, as H5MD
/// asks of a box that changes with the positions).
void H5mdWriter::Impl::create_box() {
  const Hdf5Handle box = create_group(check, all.get(), "box");
  set_ints(check, box.get(), "dimension", {3}, true);
  set_strings(check, box.get(), "boundary", {"periodic", "periodic", "periodic"}, false);
  const Hdf5Handle group = create_group(check, box.get(), "edges");
  const Element& lead = *elements[leading];
  for (const char* name : {"step", "time"})
    check(H5Lcreate_hard(lead.group.get(), name, group.get(), name, H5P_DEFAULT, H5P_DEFAULT),
          fmt::format("link box/edges/{} to {}/{}", name, kFieldNames[leading], name));
  edges = create_series(check, group.get(), "value", H5T_IEEE_F64LE, {3, 3}, 1);
  set_unit(check, edges.get(), length_unit);
}

void H5mdWriter::Impl::resume(std::int64_t resume_step, bool cut) {
  hid_t id = H5I_INVALID_HID;
  H5E_BEGIN_TRY {
    id = H5Fopen(path.c_str(), cut ? H5F_ACC_RDWR : H5F_ACC_RDONLY, H5P_DEFAULT);
  }
  H5E_END_TRY;
  if (id < 0)
    throw core::InputError(fmt::format(
        "{}: cannot continue this file: HDF5 cannot open it for writing; expected an H5MD file "
        "NovaMD wrote",
        path.string()));
  file = Hdf5Handle(id, H5Fclose);
  if (!has_link(file.get(), "particles") || !has_link(file.get(), "particles/all") ||
      !has_link(file.get(), "particles/all/box/edges/value"))
    throw core::InputError(fmt::format(
        "{}: cannot continue this file: it has no /particles/all with box/edges; expected an "
        "H5MD file NovaMD wrote",
        path.string()));
  all = open_group(check, file.get(), "particles/all");
  FieldSet in_file;
  for (int f = 0; f < 3; ++f)
    if (has_link(all.get(), kFieldNames[f]))
      (f == 0 ? in_file.position : f == 1 ? in_file.velocity : in_file.force) = true;
  if (first_field(in_file) != leading)
    throw core::InputError(fmt::format(
        "{}: cannot continue this file: it holds {} and its box follows {}; the run writes {}: "
        "expected the run to write {} as well (or a new file)",
        path.string(), field_names(in_file),
        first_field(in_file) < 0 ? "no field" : kFieldNames[first_field(in_file)],
        field_names(fields),
        first_field(in_file) < 0 ? "a field" : kFieldNames[first_field(in_file)]));
  for (int f = 0; f < 3; ++f) {
    if (holds(in_file, f)) {
      Element e = open_element_until(check, all.get(), kFieldNames[f], particles, resume_step, cut);
      if (holds(fields, f)) elements[f] = std::move(e);
    } else if (holds(fields, f) && cut) {
      elements[f] =
          create_element(check, all.get(), kFieldNames[f], particles, unit_of(f), time_unit);
    }
  }
  edges = open_dataset(check, all.get(), "box/edges/value");
  if (!cut) return;
  edge_frames = elements[leading]->frames;
  set_rows(check, edges.get(), edge_frames);
  has_species = has_link(all.get(), "species");
  check(H5Fflush(file.get(), H5F_SCOPE_LOCAL), "flush the file");
}

/// /particles/all/species: type ids in particle id order (written with the first frame).
void H5mdWriter::Impl::write_species(const core::ParticleData& p,
                                     const std::vector<std::size_t>& order) {
  std::vector<std::int32_t> types;
  types.reserve(order.size());
  for (const std::size_t i : order) types.push_back(p.type[i]);
  const hsize_t n = types.size();
  const std::string what = "write /particles/all/species";
  const Hdf5Handle space = check(H5Screate_simple(1, &n, nullptr), H5Sclose, what);
  const Hdf5Handle dataset = check(H5Dcreate2(all.get(), "species", H5T_STD_I32LE, space.get(),
                                              H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                                   H5Dclose, what);
  check(H5Dwrite(dataset.get(), H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, types.data()),
        what);
  has_species = true;
}

void H5mdWriter::Impl::write(const TrajectoryFrame& frame) {
  check_frame(frame, fields, particles, path, "H5MD");
  const auto order = core::id_order(frame.particles);
  if (!has_species) write_species(frame.particles, order);
  row.resize(3 * particles);
  for (int f = 0; f < 3; ++f) {
    if (!holds(frame.fields, f)) continue;
    Element& e = *elements[f];
    const core::Vec3Array& a = field_array(frame.particles, f);
    for (std::size_t k = 0; k < order.size(); ++k) {
      row[3 * k] = a.x[order[k]];
      row[3 * k + 1] = a.y[order[k]];
      row[3 * k + 2] = a.z[order[k]];
    }
    // The leading field's step and time datasets are also box/edges' (hard links).
    append_row(check, e.step.get(), H5T_NATIVE_INT64, e.frames, &frame.step);
    append_row(check, e.time.get(), H5T_NATIVE_DOUBLE, e.frames, &frame.time);
    append_row(check, e.value.get(), H5T_NATIVE_DOUBLE, e.frames, row.data());
    if (f == leading) {
      const auto& L = frame.box.length();
      const double matrix[9] = {L.x, 0.0, 0.0, 0.0, L.y, 0.0, 0.0, 0.0, L.z};
      append_row(check, edges.get(), H5T_NATIVE_DOUBLE, edge_frames++, matrix);
    }
    ++e.frames;
  }
  check(H5Fflush(file.get(), H5F_SCOPE_LOCAL),
        fmt::format("flush the frame of step {}", frame.step));
}

void H5mdWriter::check(const TrajectoryOpen& open) {
  check_settings(open);
  if (open.resume_after_step && std::filesystem::exists(open.file))
    Impl(open).resume(*open.resume_after_step, false);
}

void H5mdWriter::check_settings(const TrajectoryOpen& open) {
  if (!open.fields.any())
    throw core::InputError(fmt::format(
        "{}: an H5MD trajectory needs at least one field; expected position, velocity or force",
        open.file.string()));
  if (open.particles == 0)
    throw core::InputError(
        fmt::format("{}: an H5MD trajectory needs at least one particle", open.file.string()));
}

H5mdWriter::H5mdWriter(const TrajectoryOpen& open) : impl_(std::make_unique<Impl>(open)) {
  check_settings(open);
  if (open.resume_after_step && std::filesystem::exists(open.file))
    impl_->resume(*open.resume_after_step);
  else
    impl_->create(open);
}

H5mdWriter::~H5mdWriter() = default;

void H5mdWriter::write(const TrajectoryFrame& frame) {
  impl_->write(frame);
}

const std::filesystem::path& H5mdWriter::path() const {
  return impl_->path;
}

}  // namespace novamd::io
