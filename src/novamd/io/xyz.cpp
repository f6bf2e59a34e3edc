/// @file xyz.cpp
/// Extended XYZ reader and writer (see xyz.hpp).

#include "novamd/io/xyz.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "novamd/core/chemical_symbols.hpp"
#include "novamd/core/error.hpp"
#include "novamd/core/excerpt.hpp"
#include "novamd/io/text_fields.hpp"

namespace novamd::io {
namespace {

/// "<file>:<line>" for messages.
std::string where(const std::filesystem::path& file, std::int64_t line) {
  return fmt::format("{}:{}", file.string(), line);
}

/// A finite double filling the whole token, or nothing.
std::optional<double> parse_double(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(value)) return {};
  return value;
}

std::optional<std::int64_t> parse_integer(std::string_view s) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return {};
  return value;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// Reads lines, counting them and dropping a trailing '\r' (files written on Windows).
class LineReader {
 public:
  explicit LineReader(const std::filesystem::path& file) : file_(file) {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec))
      throw core::InputError(
          fmt::format("{}: is a folder, not a file; expected the path of an XYZ structure file",
                      file.string()));
    in_.open(file);
    if (!in_)
      throw core::InputError(fmt::format("{}: cannot open the structure file: {}", file.string(),
                                         std::strerror(errno)));
  }
  bool next(std::string& line) {
    if (!std::getline(in_, line)) return false;
    ++number_;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  }
  std::int64_t number() const { return number_; }
  /// The size of a regular file and the bytes after the lines read so far; nothing for a pipe
  /// or a device, whose size is not known in advance.
  std::optional<std::pair<std::uintmax_t, std::uintmax_t>> size_and_rest() {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file_, ec)) return std::nullopt;
    const auto size = std::filesystem::file_size(file_, ec);
    const auto at = in_.tellg();
    if (ec || at < 0 || static_cast<std::uintmax_t>(at) > size) return std::nullopt;
    return std::pair{size, size - static_cast<std::uintmax_t>(at)};
  }

 private:
  std::filesystem::path file_;
  std::ifstream in_;
  std::int64_t number_ = 0;
};

/// One value of the comment line: from a quote, bracket or up to the next blank.
std::string_view read_value(std::string_view s, std::size_t& i, const std::string& at) {
  const char open = s[i];
  if (open == '"' || open == '{' || open == '[') {
    const char close = open == '"' ? '"' : (open == '{' ? '}' : ']');
    const std::size_t start = ++i;
    while (i < s.size() && s[i] != close) i += (s[i] == '\\' && i + 1 < s.size()) ? 2 : 1;
    if (i >= s.size())
      throw core::InputError(fmt::format(
          "{}: unterminated {} in the comment line; expected a closing {}", at, open, close));
    return s.substr(start, i++ - start);
  }
  const std::size_t start = i;
  while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(start, i - start);
}

/// key=value pairs of an extended XYZ comment line, keys in lower case; bare words map to "".
std::map<std::string, std::string> parse_comment(std::string_view s, const std::string& at) {
  std::map<std::string, std::string> fields;
  std::size_t i = 0;
  while (true) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i >= s.size()) break;
    const std::size_t start = i;
    while (i < s.size() && s[i] != '=' && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    std::string key = lower(s.substr(start, i - start));
    if (i < s.size() && s[i] == '=' && ++i < s.size()) {
      fields[key] = std::string(read_value(s, i, at));
    } else {
      fields[key] = "";
    }
  }
  return fields;
}

/// Token offsets of the columns NovaMD reads, from Properties (or plain XYZ: species x y z).
struct ColumnLayout {
  int species = -1;
  int pos = -1;
  int vel = -1;
  int total = 0;          ///< tokens per atom line
  bool extended = false;  ///< from Properties: the line must have exactly `total` tokens
  std::string describe;   ///< "species:S:1:pos:R:3", for messages
  int orientation = -1;   ///< Orientation:R:4, OVITO's order x y z w (rigid molecules)
  int angular_momentum = -1;
  int name = -1;  ///< name:S:1, the species name where the species column holds its element
};

ColumnLayout plain_layout() {
  return {0, 1, -1, 4, false, "species x y z"};
}

ColumnLayout parse_properties(const std::string& value, const std::string& at) {
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const std::size_t colon = value.find(':', start);
    parts.push_back(value.substr(start, colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  const auto malformed = [&](const std::string& why) {
    return core::InputError(
        fmt::format("{}: Properties={} is malformed ({}); expected "
                    "name:type:columns triples such as species:S:1:pos:R:3",
                    at, core::excerpt(value), why));
  };
  if (parts.size() % 3 != 0) throw malformed("not a multiple of three fields");
  ColumnLayout layout{-1, -1, -1, 0, true, value};
  for (std::size_t k = 0; k < parts.size(); k += 3) {
    const std::string name = lower(parts[k]);
    const std::string& type = parts[k + 1];
    const auto count = parse_integer(parts[k + 2]);
    if (type.size() != 1 || std::string_view("SRIL").find(type[0]) == std::string_view::npos)
      throw malformed(fmt::format("type '{}' of '{}' is not S, R, I or L", core::excerpt(type),
                                  core::excerpt(parts[k])));
    if (!count || *count < 1 || *count > 1000)
      throw malformed(fmt::format("column count '{}' of '{}'", core::excerpt(parts[k + 2]),
                                  core::excerpt(parts[k])));
    const bool vector3 = type == "R" && *count == 3;
    if (name == "species" && type == "S" && *count == 1) layout.species = layout.total;
    if (name == "name" && type == "S" && *count == 1) layout.name = layout.total;
    if (name == "pos" && vector3) layout.pos = layout.total;
    if ((name == "vel" || name == "velo" || name == "velocities") && vector3)
      layout.vel = layout.total;
    if (name == "orientation" && type == "R" && *count == 4) layout.orientation = layout.total;
    if (name == "angular_momentum" && vector3) layout.angular_momentum = layout.total;
    layout.total += static_cast<int>(*count);
  }
  if (layout.species < 0 || layout.pos < 0)
    throw core::InputError(
        fmt::format("{}: Properties={} has no {} column; expected species:S:1 "
                    "and pos:R:3",
                    at, core::excerpt(value), layout.species < 0 ? "species:S:1" : "pos:R:3"));
  return layout;
}

/// An orthorhombic box from Lattice="ax ay az bx by bz cx cy cz" (cell vectors as rows).
core::Box parse_lattice(const std::string& value, const std::string& at) {
  const auto tokens = split_whitespace(value);
  if (tokens.size() != 9)
    throw core::InputError(
        fmt::format("{}: Lattice=\"{}\" holds {} numbers; expected 9 (three "
                    "cell vectors, \"Lx 0 0 0 Ly 0 0 0 Lz\")",
                    at, core::excerpt(value), tokens.size()));
  double m[9];
  for (int k = 0; k < 9; ++k) {
    const auto v = parse_double(tokens[k]);
    if (!v)
      throw core::InputError(fmt::format("{}: Lattice entry {} is '{}'; expected a number", at,
                                         k + 1, core::excerpt(tokens[k])));
    m[k] = *v;
  }
  const double lx = m[0], ly = m[4], lz = m[8];
  if (!(lx > 0.0 && ly > 0.0 && lz > 0.0))
    throw core::InputError(
        fmt::format("{}: Lattice diagonal [{}, {}, {}]; expected three positive "
                    "edge lengths",
                    at, lx, ly, lz));
  // Off-diagonals below 1e-12 of the longest edge count as zero (round-off of other writers).
  const double tolerance = 1e-12 * std::max({lx, ly, lz});
  for (int k : {1, 2, 3, 5, 6, 7}) {
    if (std::abs(m[k]) > tolerance)
      throw core::InputError(fmt::format(
          "{}: Lattice=\"{}\" is not orthorhombic (off-diagonal entry {} is {}); NovaMD supports "
          "orthorhombic boxes only: expected Lattice=\"Lx 0 0 0 Ly 0 0 0 Lz\"",
          at, core::excerpt(value), k + 1, m[k]));
  }
  return core::Box(lx, ly, lz);
}

std::string species_list(const core::SpeciesTable& species) {
  std::string names;
  for (const auto& s : species.all()) names += (names.empty() ? "" : ", ") + s.name;
  return names.empty() ? "(none declared)" : names;
}

/// Rigid molecules' columns of the atom lines, where the file has them.
struct RotationColumns {
  std::vector<core::Quaternion<double>> orientation;
  std::vector<core::Vec3<double>> angular_momentum;
};

/// Parses atom line `line` of the file into particle `i` (and `rotation`).
void read_atom(std::string_view line, const ColumnLayout& layout, const core::SpeciesTable& species,
               const std::string& at, core::ParticleData& p, std::size_t i,
               RotationColumns& rotation) {
  const auto tokens = split_whitespace(line);
  const auto n_tokens = static_cast<int>(tokens.size());
  if (n_tokens < layout.total || (layout.extended && n_tokens > layout.total))
    throw core::InputError(fmt::format("{}: atom line has {} fields; expected {} ({})", at,
                                       n_tokens, layout.total, core::excerpt(layout.describe)));
  const std::string name(tokens[layout.name >= 0 ? layout.name : layout.species]);
  const auto type = species.find(name);
  if (!type)
    throw core::InputError(
        fmt::format("{}: species '{}' is not declared in system.species; expected one of {}", at,
                    core::excerpt(name), species_list(species)));
  const auto vector_at = [&](int first, const char* what) {
    double v[3];
    for (int d = 0; d < 3; ++d) {
      const auto value = parse_double(tokens[first + d]);
      if (!value)
        throw core::InputError(fmt::format("{}: field {} ({} {}) is '{}'; expected a finite number",
                                           at, first + d + 1, what, "xyz"[d],
                                           core::excerpt(tokens[first + d])));
      v[d] = *value;
    }
    return core::Vec3<double>{v[0], v[1], v[2]};
  };
  p.type[i] = *type;
  p.id[i] = static_cast<std::int32_t>(i);
  p.position.set(i, vector_at(layout.pos, "pos"));
  p.velocity.set(i, layout.vel >= 0 ? vector_at(layout.vel, "vel") : core::Vec3<double>{});
  p.force.set(i, {});
  if (layout.angular_momentum >= 0)
    rotation.angular_momentum.push_back(vector_at(layout.angular_momentum, "angular_momentum"));
  if (layout.orientation >= 0) {
    const core::Vec3<double> v = vector_at(layout.orientation, "Orientation");
    const auto w = parse_double(tokens[layout.orientation + 3]);
    const double norm = w ? std::sqrt(core::dot(v, v) + *w * *w) : 0.0;
    if (!(norm > 0.0) || !std::isfinite(norm))
      throw core::InputError(fmt::format(
          "{}: the Orientation (fields {} to {}) is not a quaternion; expected x y z w, not all "
          "zero",
          at, layout.orientation + 1, layout.orientation + 4));
    rotation.orientation.push_back(
        {*w / norm, v.x / norm, v.y / norm, v.z / norm});  // unit, as the file's rounding left it
  }
}

std::int64_t read_count(LineReader& reader, const std::filesystem::path& file) {
  std::string line;
  if (!reader.next(line))
    throw core::InputError(
        fmt::format("{}: the file is empty; expected the number of atoms on the "
                    "first line",
                    where(file, 1)));
  const auto tokens = split_whitespace(line);
  const auto count = tokens.size() == 1 ? parse_integer(tokens[0]) : std::nullopt;
  if (!count || *count < 0 || *count > std::numeric_limits<std::int32_t>::max())
    throw core::InputError(
        fmt::format("{}: expected the number of atoms (a non-negative integer) "
                    "on the first line, got '{}'",
                    where(file, 1), core::excerpt(line)));
  return *count;
}

/// The shortest atom line: a species and three coordinates of one character each, "C 0 0 0\n".
constexpr std::uintmax_t kMinAtomLineBytes = 8;

/// Refuses, before anything is allocated for it, a count that the file's size cannot hold: every
/// layout has a species and three coordinates, so an atom line takes at least 8 bytes (the last
/// one 7, without its newline), and the bytes after the comment line hold at most (rest + 1) / 8
/// atom lines. Returns false where the size is not known (a pipe): the count is then not checked.
bool check_count_fits(std::int64_t count, LineReader& reader, const std::filesystem::path& file) {
  const auto size = reader.size_and_rest();
  if (!size) return false;
  const auto [bytes, rest] = *size;
  const std::uintmax_t room = (rest + 1) / kMinAtomLineBytes;
  if (static_cast<std::uintmax_t>(count) > room)
    throw core::InputError(fmt::format(
        "{}: the first line announces {} atoms, but the file's {} bytes leave room for at most {} "
        "atom lines (each takes at least {} bytes, as \"C 0 0 0\\n\" does); expected the number "
        "of atom lines that follow the comment line",
        where(file, 1), count, bytes, room, kMinAtomLineBytes));
  return true;
}

}  // namespace

XyzFrame read_xyz(const std::filesystem::path& file, const core::SpeciesTable& species) {
  LineReader reader(file);
  const std::int64_t count = read_count(reader, file);
  std::string line;
  if (!reader.next(line))
    throw core::InputError(
        fmt::format("{}: the file ends after the atom count; expected a comment "
                    "line (Lattice=... Properties=...) and {} atom lines",
                    where(file, 2), count));
  const std::string comment_at = where(file, 2);
  const auto fields = parse_comment(line, comment_at);
  XyzFrame frame;
  if (const auto it = fields.find("lattice"); it != fields.end())
    frame.lattice = parse_lattice(it->second, comment_at);
  const auto props = fields.find("properties");
  const ColumnLayout layout =
      props != fields.end() ? parse_properties(props->second, comment_at) : plain_layout();
  frame.has_velocities = layout.vel >= 0;
  // A count checked against the file's size is allocated at once; from a pipe, line by line.
  const bool checked = check_count_fits(count, reader, file);
  frame.particles.resize(checked ? static_cast<std::size_t>(count) : 0);
  RotationColumns rotation;
  for (std::int64_t i = 0; i < count; ++i) {
    if (!reader.next(line))
      throw core::InputError(
          fmt::format("{}: the file ends after {} of {} atom lines; expected {} "
                      "atom lines after the comment line (line 2)",
                      where(file, reader.number() + 1), i, count, count));
    if (!checked) frame.particles.resize(static_cast<std::size_t>(i) + 1);
    read_atom(line, layout, species, where(file, reader.number()), frame.particles,
              static_cast<std::size_t>(i), rotation);
  }
  core::ParticleData& p = frame.particles;
  if (layout.orientation >= 0) {
    p.enable(p.orientation);
    for (std::size_t i = 0; i < p.size(); ++i) p.orientation.set(i, rotation.orientation[i]);
  }
  if (layout.angular_momentum >= 0) {
    p.enable(p.angular_momentum);
    for (std::size_t i = 0; i < p.size(); ++i)
      p.angular_momentum.set(i, rotation.angular_momentum[i]);
  }
  return frame;
}

// ---------------------------------------------------------------------------------------------
// Writer

namespace {

/// A field's column name: its own, but OVITO's standard property for orientations (whose
/// components it reads as x y z w), so that OVITO turns the molecules as they turn here.
std::string_view column_name(const core::FieldInfo& info) {
  return info.name == core::field::kOrientation.name ? std::string_view("Orientation") : info.name;
}

}  // namespace

void XyzWriter::FileCloser::operator()(std::FILE* f) const {
  if (f) std::fclose(f);
}

XyzWriter::XyzWriter(const std::filesystem::path& file, bool write_velocity, bool write_force,
                     int significant_digits, Mode mode)
    : path_(file),
      file_(std::fopen(file.c_str(), mode == Mode::Append ? "a" : "w")),
      write_velocity_(write_velocity),
      write_force_(write_force),
      significant_digits_(std::clamp(significant_digits, 0, 17)) {
  if (!file_)
    throw core::InputError(fmt::format("{}: cannot open for writing: {}; expected a writable path",
                                       file.string(), std::strerror(errno)));
}

void XyzWriter::write_frame(std::int64_t step, double time, const core::Box& box,
                            const core::ParticleData& particles,
                            const core::SpeciesTable& species) {
  if (!file_)
    throw core::RunError(fmt::format("{}: the XYZ writer was moved from", path_.string()));
  std::vector<std::size_t> order(particles.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](auto a, auto b) { return particles.id[a] < particles.id[b]; });

  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  const auto& L = box.length();
  // Readers take the species column for an element: a name that is none goes in a column of
  // its own, with the element it stands for (or X) in the species column.
  const auto element_of = [&](int t) {
    return t >= 0 && t < species.size() ? core::element_of(species[t]) : std::string_view("X");
  };
  bool named = false;
  for (int t = 0; t < species.size(); ++t) named = named || element_of(t) != species[t].name;
  fmt::format_to(it,
                 "{}\nLattice=\"{} 0.0 0.0 0.0 {} 0.0 0.0 0.0 {}\" Properties=species:S:1:pos:R:3",
                 particles.size(), L.x, L.y, L.z);
  if (named) fmt::format_to(it, ":name:S:1");
  if (write_velocity_) fmt::format_to(it, ":velo:R:3");
  if (write_force_) fmt::format_to(it, ":forces:R:3");
  // Every optional field the particles have (charges, image counts, ...), by its own name.
  core::for_each_field(
      [&](const core::FieldInfo& info, const auto& f) {
        if (!info.optional || !particles.has(f)) return;
        const auto arrays = core::components_of(f);
        using Value = typename std::decay_t<decltype(*arrays[0])>::value_type;
        fmt::format_to(it, ":{}:{}:{}", column_name(info), std::is_integral_v<Value> ? 'I' : 'R',
                       arrays.size());
      },
      particles);
  fmt::format_to(it, " Time={} Step={} pbc=\"T T T\"\n", time, step);

  const int digits = significant_digits_;
  const auto put = [&](auto value) {
    if constexpr (std::is_integral_v<decltype(value)>)
      fmt::format_to(it, " {}", value);
    else if (digits == kRoundTrip)
      fmt::format_to(it, " {}", value);
    else
      fmt::format_to(it, " {:.{}g}", value, digits);
  };
  const auto put3 = [&](const core::Vec3Array& a, std::size_t i) {
    put(a.x[i]);
    put(a.y[i]);
    put(a.z[i]);
  };
  for (const std::size_t i : order) {
    const int t = particles.type[i];
    fmt::format_to(it, "{}", element_of(t));
    put3(particles.position, i);
    if (named) fmt::format_to(it, " {}", t >= 0 && t < species.size() ? species[t].name : "X");
    if (write_velocity_) put3(particles.velocity, i);
    if (write_force_) put3(particles.force, i);
    core::for_each_field(
        [&](const core::FieldInfo& info, const auto& f) {
          if (!info.optional || !particles.has(f)) return;
          const auto arrays = core::components_of(f);
          if (info.name == core::field::kOrientation.name) {  // OVITO's order: x y z w
            for (const int c : {1, 2, 3, 0}) put((*arrays[static_cast<std::size_t>(c)])[i]);
            return;
          }
          for (const auto* a : arrays) put((*a)[i]);
        },
        particles);
    out.push_back('\n');
  }
  if (std::fwrite(out.data(), 1, out.size(), file_.get()) != out.size() ||
      std::fflush(file_.get()) != 0)
    throw core::RunError(fmt::format("{}: writing the trajectory frame of step {} failed: {}",
                                     path_.string(), step, std::strerror(errno)));
}

}  // namespace novamd::io
