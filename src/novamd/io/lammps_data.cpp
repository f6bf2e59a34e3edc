/// @file lammps_data.cpp
/// The LAMMPS data-file reader (see lammps_data.hpp). The format is that of LAMMPS's read_data
/// command (https://docs.lammps.org/read_data.html): a title line, the header, then sections, each
/// a title line (with an optional `# style` comment) and as many lines as the header announces.

#include "novamd/io/lammps_data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/core/excerpt.hpp"
#include "novamd/io/lammps_data_styles.hpp"
#include "novamd/io/lammps_data_text.hpp"

namespace novamd::io {
namespace {

using lammps::AtomColumns;
using lammps::coeffs_section;
using lammps::DataLine;
using lammps::DataReader;
using lammps::FieldSite;
using lammps::plural;
using lammps::terms_section;
using lammps::title_name;

/// Counts and ids are int32 in NovaMD's topology.
constexpr std::int64_t kMaxCount = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kMaxId = std::numeric_limits<std::int64_t>::max();

constexpr std::array<TermKind, 4> kKinds = {TermKind::Bond, TermKind::Angle, TermKind::Dihedral,
                                            TermKind::Improper};

std::size_t slot(TermKind kind) {
  return static_cast<std::size_t>(kind);
}

int arity(TermKind kind) {
  return kind == TermKind::Bond ? 2 : kind == TermKind::Angle ? 3 : 4;
}

/// The header's counts and box.
struct Header {
  std::int64_t atoms = 0, atom_types = 0;
  std::array<std::int64_t, 4> terms{}, term_types{};  ///< by TermKind
  std::array<std::optional<std::array<double, 2>>, 3> bounds;
};

/// One Atoms line, kept until the section is complete and sorted by id.
struct RawAtom {
  std::int64_t id = 0;
  std::int64_t line = 0;
  std::int32_t type = 0, molecule = 0;
  double charge = 0.0;
  core::Vec3<double> position{0.0, 0.0, 0.0};
  std::array<std::int32_t, 3> image{0, 0, 0};
};

const std::vector<std::string_view>& section_names() {
  static const std::vector<std::string_view> names = {
      "Masses",          "Pair Coeffs",     "PairIJ Coeffs", "Bond Coeffs", "Angle Coeffs",
      "Dihedral Coeffs", "Improper Coeffs", "Atoms",         "Velocities",  "Bonds",
      "Angles",          "Dihedrals",       "Impropers"};
  return names;
}

const std::vector<std::string_view>& header_keywords() {
  static const std::vector<std::string_view> names = {"atoms",
                                                      "bonds",
                                                      "angles",
                                                      "dihedrals",
                                                      "impropers",
                                                      "atom types",
                                                      "bond types",
                                                      "angle types",
                                                      "dihedral types",
                                                      "improper types",
                                                      "xlo xhi",
                                                      "ylo yhi",
                                                      "zlo zhi",
                                                      "extra bond per atom",
                                                      "extra angle per atom",
                                                      "extra dihedral per atom",
                                                      "extra improper per atom",
                                                      "extra special per atom"};
  return names;
}

class LammpsDataParser {
 public:
  LammpsDataParser(const std::filesystem::path& file, const LammpsDataStyles& styles)
      : reader_(file), styles_(styles) {
    out_.format = "lammps_data";
  }

  TopologyFile read() {
    DataLine line;
    if (!reader_.title(line))
      throw core::InputError(fmt::format(
          "{}: the file is empty; expected a LAMMPS data file (a title line, the header, then "
          "sections such as Masses and Atoms)",
          reader_.where(1)));
    read_header();
    while (reader_.next(line)) read_section(line);
    finish();
    return std::move(out_);
  }

 private:
  // ------------------------------------------------------------------------------------------
  // Header

  void read_header() {
    DataLine line;
    while (reader_.next(line)) {
      if (!line.is_data()) {
        reader_.unread(std::move(line));
        break;
      }
      read_header_line(line);
    }
    check_header();
  }

  void read_header_line(const DataLine& line) {
    std::size_t numbers = 0;
    while (numbers < line.fields.size() && lammps::starts_number(line.fields[numbers])) ++numbers;
    std::string keyword;
    for (std::size_t i = numbers; i < line.fields.size(); ++i)
      keyword += (keyword.empty() ? "" : " ") + line.fields[i];
    const FieldSite site{reader_, line, "header line"};
    const auto expect_numbers = [&](std::size_t n) {
      if (numbers != n)
        throw core::InputError(
            fmt::format("{}: the header line '{}' has {} numbers before '{}'; expected {}",
                        reader_.where(line.number), core::excerpt(line.text), numbers, keyword, n));
    };
    const auto count = [&] {
      expect_numbers(1);
      return integer_field(site, 0, fmt::format("the number of {}", keyword), 0, kMaxCount);
    };
    if (keyword == "xy xz yz")
      throw core::InputError(fmt::format(
          "{}: the header line '{}' gives tilt factors: triclinic boxes are not supported yet; "
          "expected an orthorhombic box (xlo xhi, ylo yhi, zlo zhi only)",
          reader_.where(line.number), core::excerpt(line.text)));
    if (keyword == "atoms") return void(header_.atoms = count());
    if (keyword == "atom types") return void(header_.atom_types = count());
    for (const TermKind kind : kKinds) {
      if (keyword == plural(kind)) return void(header_.terms[slot(kind)] = count());
      if (keyword == fmt::format("{} types", kind_name(kind)))
        return void(header_.term_types[slot(kind)] = count());
      if (keyword == fmt::format("extra {} per atom", kind_name(kind))) return void(count());
    }
    if (keyword == "extra special per atom") return void(count());
    constexpr std::array<std::string_view, 3> kBounds = {"xlo xhi", "ylo yhi", "zlo zhi"};
    for (std::size_t d = 0; d < 3; ++d) {
      if (keyword != kBounds[d]) continue;
      expect_numbers(2);
      const double lo = number_field(site, 0, kBounds[d].substr(0, 3));
      const double hi = number_field(site, 1, kBounds[d].substr(4, 3));
      if (!(hi > lo))
        throw core::InputError(
            fmt::format("{}: the header line '{}' gives an empty box edge; "
                        "expected {} greater than {}",
                        reader_.where(line.number), core::excerpt(line.text),
                        kBounds[d].substr(4, 3), kBounds[d].substr(0, 3)));
      header_.bounds[d] = std::array<double, 2>{lo, hi};
      return;
    }
    throw core::InputError(fmt::format(
        "{}: the header line '{}' has a keyword the reader does not know ('{}'); expected one "
        "of: {}",
        reader_.where(line.number), core::excerpt(line.text), core::excerpt(keyword),
        lammps::joined(header_keywords())));
  }

  void check_header() {
    const auto needs_types = [&](std::int64_t count, std::string_view what, std::int64_t types,
                                 std::string_view type_key) {
      if (count > 0 && types == 0)
        throw core::InputError(
            fmt::format("{}: the header announces {} {} but no {}; expected a line 'N {}'",
                        reader_.file().string(), count, what, type_key, type_key));
    };
    needs_types(header_.atoms, "atoms", header_.atom_types, "atom types");
    for (const TermKind kind : kKinds)
      needs_types(header_.terms[slot(kind)], plural(kind), header_.term_types[slot(kind)],
                  fmt::format("{} types", kind_name(kind)));
    constexpr std::array<std::string_view, 3> kBounds = {"xlo xhi", "ylo yhi", "zlo zhi"};
    core::Vec3<double> low{0.0, 0.0, 0.0}, edges{0.0, 0.0, 0.0};
    for (std::size_t d = 0; d < 3; ++d) {
      if (!header_.bounds[d])
        throw core::InputError(fmt::format(
            "{}: the header gives no '{}' line; expected the box in the header (xlo xhi, ylo yhi "
            "and zlo zhi lines)",
            reader_.file().string(), kBounds[d]));
      const auto [lo, hi] = *header_.bounds[d];
      (d == 0 ? low.x : d == 1 ? low.y : low.z) = lo;
      (d == 0 ? edges.x : d == 1 ? edges.y : edges.z) = hi - lo;
    }
    out_.box_low = low;
    out_.box_edges = edges;
  }

  // ------------------------------------------------------------------------------------------
  // Sections

  void read_section(const DataLine& title) {
    if (title.is_data())
      throw core::InputError(fmt::format(
          "{}: the line '{}' is a data line outside any section; expected a section title",
          reader_.where(title.number), core::excerpt(title.text)));
    const std::string name = title_name(title);
    const auto& names = section_names();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end())
      throw core::InputError(
          fmt::format("{}: '{}' is not a section the reader knows; expected one of: {}",
                      reader_.where(title.number), core::excerpt(name), lammps::joined(names)));
    const auto index = static_cast<std::size_t>(it - names.begin());
    if (seen_[index] != 0)
      throw core::InputError(
          fmt::format("{}: a second {} section (the first is on line {}); "
                      "expected each section once",
                      reader_.where(title.number), name, seen_[index]));
    seen_[index] = title.number;
    if (name == "Masses") return read_masses(title);
    if (name == "Pair Coeffs") return read_pair_coeffs(title, false);
    if (name == "PairIJ Coeffs") return read_pair_coeffs(title, true);
    if (name == "Atoms") return read_atoms(title);
    if (name == "Velocities") return read_velocities(title);
    for (const TermKind kind : kKinds) {
      if (name == coeffs_section(kind)) return read_term_coeffs(kind, title);
      if (name == terms_section(kind)) return read_terms(kind, title);
    }
  }

  /// Reads the `count` lines of the section titled `title`, each of at least `min_fields`
  /// fields, calling `per_line(line)` for each; `counted` names what the header counts ("atoms")
  /// and `announced` what it announces ("2004 atoms"; by default the count and `counted`).
  template <class PerLine>
  void read_lines(const DataLine& title, std::int64_t count, std::string_view counted,
                  int min_fields, PerLine&& per_line, std::string announced = {}) {
    const std::string section = title_name(title);
    if (announced.empty()) announced = fmt::format("{} {}", count, counted);
    if (count == 0)
      throw core::InputError(fmt::format(
          "{}: a {} section, but the header announces no {}; expected a header line 'N {}' or no "
          "{} section",
          reader_.where(title.number), section, counted, counted, section));
    if (const auto fits = reader_.fits(count, min_fields); fits && !*fits)
      throw core::InputError(fmt::format(
          "{}: the header announces {}, but the rest of the file is too small to hold {} lines "
          "of the {} section; expected as many lines as the header announces",
          reader_.where(title.number), announced, count, section));
    DataLine line;
    for (std::int64_t k = 0; k < count; ++k) {
      if (!reader_.next(line))
        throw core::InputError(fmt::format(
            "{}: the file ends after {} of the {} lines of the {} section (line {}); expected {} "
            "lines, as the header announces {}",
            reader_.where_end(), k, count, section, title.number, count, announced));
      if (!line.is_data())
        throw core::InputError(fmt::format(
            "{}: '{}' comes after {} of the {} lines of the {} section (line {}); expected {} "
            "lines, as the header announces {}",
            reader_.where(line.number), core::excerpt(line.text), k, count, section, title.number,
            count, announced));
      per_line(line);
    }
    if (!reader_.next(line)) return;
    if (line.is_data())
      throw core::InputError(fmt::format(
          "{}: the {} section (line {}) has more than {} lines, as the header announces {}; "
          "expected a section title or the end of the file here",
          reader_.where(line.number), section, title.number, count, announced));
    reader_.unread(std::move(line));
  }

  void expect_fields(const DataLine& line, std::string_view what, std::size_t n,
                     std::string_view layout) {
    if (line.fields.size() != n)
      throw core::InputError(fmt::format("{}: the {} '{}' has {} fields; expected {} ({})",
                                         reader_.where(line.number), what, core::excerpt(line.text),
                                         line.fields.size(), n, layout));
  }

  /// Records that `key` (a type, an atom) has the line `line`; throws on a second one.
  void once(std::vector<std::int64_t>& lines, std::size_t key, const DataLine& line,
            std::string_view what, std::string_view section) {
    if (lines[key] != 0)
      throw core::InputError(
          fmt::format("{}: {} has a second line in {} (the first is line {}); "
                      "expected one line each",
                      reader_.where(line.number), what, section, lines[key]));
    lines[key] = line.number;
  }

  void read_masses(const DataLine& title) {
    std::vector<std::int64_t> lines;
    read_lines(title, header_.atom_types, "atom types", 2, [&](const DataLine& line) {
      if (lines.empty()) {
        lines.assign(static_cast<std::size_t>(header_.atom_types), 0);
        out_.types.resize(lines.size());
      }
      const FieldSite site{reader_, line, "Masses line"};
      expect_fields(line, "Masses line", 2, "type mass, then an optional '# name'");
      const auto type = integer_field(site, 0, "the atom type", 1, header_.atom_types);
      const double mass = number_field(site, 1, "the mass");
      if (!(mass > 0.0))
        throw core::InputError(
            fmt::format("{}: the Masses line '{}' gives a mass of {}; expected "
                        "a positive mass",
                        reader_.where(line.number), core::excerpt(line.text), mass));
      const auto t = static_cast<std::size_t>(type - 1);
      once(lines, t, line, fmt::format("atom type {}", type), "Masses");
      const std::string name = line.comment_word();
      out_.types[t] = AtomType{name.empty() ? std::to_string(type) : name, mass};
    });
  }

  void read_pair_coeffs(const DataLine& title, bool pairs) {
    const std::string style = lammps::pair_style(reader_, title, styles_.pair);
    if (!out_.pair_style.empty() && out_.pair_style != style)
      throw core::InputError(fmt::format(
          "{}: this section's pair style '{}' differs from the other pair section's '{}'; "
          "expected one pair style",
          reader_.where(title.number), style, out_.pair_style));
    out_.pair_style = style;
    const std::string section = pairs ? "PairIJ Coeffs" : "Pair Coeffs";
    const std::string what = section + " line";
    const std::size_t skip = pairs ? 2 : 1;
    const std::int64_t n = header_.atom_types;
    const std::int64_t count = pairs ? n * (n + 1) / 2 : n;
    std::vector<std::int64_t> lines;
    read_lines(
        title, count, "atom types", static_cast<int>(skip) + 2,
        [&](const DataLine& line) {
          if (lines.empty()) lines.assign(static_cast<std::size_t>(count), 0);
          const FieldSite site{reader_, line, what};
          const std::size_t values = line.fields.size() - std::min(line.fields.size(), skip);
          if (values != 2 && !(values == 4 && style == "lj_charmm"))
            throw core::InputError(fmt::format(
                "{}: the {} '{}' has {} coefficients; expected {} for pair style {}",
                reader_.where(line.number), what, core::excerpt(line.text), values,
                style == "lj_charmm" ? "2 (epsilon sigma) or 4 (epsilon sigma epsilon14 "
                                       "sigma14)"
                                     : "2 (epsilon sigma)",
                style));
          LennardJonesCoefficients c;
          c.epsilon = number_field(site, skip, "epsilon");
          c.sigma = number_field(site, skip + 1, "sigma");
          if (values == 4) {
            c.epsilon_14 = number_field(site, skip + 2, "epsilon14");
            c.sigma_14 = number_field(site, skip + 3, "sigma14");
          }
          const auto a = integer_field(site, 0, "the atom type", 1, n);
          if (!pairs) {
            once(lines, static_cast<std::size_t>(a - 1), line, fmt::format("atom type {}", a),
                 section);
            if (out_.lj_by_type.empty()) out_.lj_by_type.resize(static_cast<std::size_t>(n));
            out_.lj_by_type[static_cast<std::size_t>(a - 1)] = c;
            return;
          }
          const auto b = integer_field(site, 1, "the second atom type", 1, n);
          const auto [lo, hi] = std::minmax(a, b);
          // Row-major index of (lo, hi), lo <= hi, in the upper triangle.
          const auto key =
              static_cast<std::size_t>((lo - 1) * n - (lo - 1) * (lo - 2) / 2 + (hi - lo));
          once(lines, key, line, fmt::format("the type pair {} {}", lo, hi), section);
          out_.lj_pairs.push_back({static_cast<int>(lo - 1), static_cast<int>(hi - 1), c});
        },
        pairs ? fmt::format("{} atom types, so {} type pairs i <= j", n, count) : std::string());
  }

  void read_term_coeffs(TermKind kind, const DataLine& title) {
    StyleCoefficients coefficients{lammps::term_style(reader_, kind, title, given_style(kind)), {}};
    const int count = *coefficient_count(kind, coefficients.style);
    const std::int64_t types = header_.term_types[slot(kind)];
    const std::string section = coeffs_section(kind);
    const std::string what = section + " line";
    std::vector<std::int64_t> lines;
    read_lines(title, types, fmt::format("{} types", kind_name(kind)), 1 + std::max(count, 1),
               [&](const DataLine& line) {
                 if (lines.empty()) {
                   lines.assign(static_cast<std::size_t>(types), 0);
                   coefficients.by_type.resize(lines.size());
                 }
                 const FieldSite site{reader_, line, what};
                 const auto type =
                     integer_field(site, 0, fmt::format("the {} type", kind_name(kind)), 1, types);
                 // A variable count (the fourier dihedral): m, then 3 m numbers.
                 const std::int64_t values =
                     count >= 0
                         ? count
                         : 1 + 3 * integer_field(site, 1, "m, the number of terms", 1,
                                                 static_cast<std::int64_t>(line.fields.size()));
                 if (static_cast<std::int64_t>(line.fields.size()) != 1 + values)
                   throw core::InputError(fmt::format(
                       "{}: the {} '{}' has {} coefficients; expected {} for {} style {}",
                       reader_.where(line.number), what, core::excerpt(line.text),
                       line.fields.size() - 1, values, kind_name(kind), coefficients.style));
                 const auto t = static_cast<std::size_t>(type - 1);
                 once(lines, t, line, fmt::format("{} type {}", kind_name(kind), type), section);
                 for (std::size_t i = 1; i < line.fields.size(); ++i)
                   coefficients.by_type[t].push_back(
                       number_field(site, i, fmt::format("coefficient {}", i)));
               });
    (kind == TermKind::Bond       ? out_.bond
     : kind == TermKind::Angle    ? out_.angle
     : kind == TermKind::Dihedral ? out_.dihedral
                                  : out_.improper) = std::move(coefficients);
  }

  // ------------------------------------------------------------------------------------------
  // Atoms and what names them

  RawAtom atom_of(const DataLine& line, const AtomColumns& c) {
    const FieldSite site{reader_, line, fmt::format("Atoms line (atom style {})", c.style)};
    const auto n = static_cast<std::size_t>(c.count);
    if (line.fields.size() != n && line.fields.size() != n + 3)
      throw core::InputError(fmt::format(
          "{}: the Atoms line '{}' has {} fields; expected {} or {} (with image flags) for atom "
          "style {}",
          reader_.where(line.number), core::excerpt(line.text), line.fields.size(), n, n + 3,
          c.style));
    RawAtom a;
    a.line = line.number;
    a.id = integer_field(site, 0, "the atom id", 1, kMaxId);
    a.type = static_cast<std::int32_t>(integer_field(site, static_cast<std::size_t>(c.type),
                                                     "the atom type", 1, header_.atom_types) -
                                       1);
    if (c.molecule >= 0)
      a.molecule = static_cast<std::int32_t>(integer_field(
          site, static_cast<std::size_t>(c.molecule), "the molecule id", 0, kMaxCount));
    if (c.charge >= 0) a.charge = number_field(site, static_cast<std::size_t>(c.charge), "q");
    const auto x = static_cast<std::size_t>(c.x);
    a.position = {number_field(site, x, "x"), number_field(site, x + 1, "y"),
                  number_field(site, x + 2, "z")};
    if (line.fields.size() == n + 3)
      for (std::size_t d = 0; d < 3; ++d)
        a.image[d] = static_cast<std::int32_t>(
            integer_field(site, n + d, "an image flag", -kMaxCount, kMaxCount));
    return a;
  }

  void read_atoms(const DataLine& title) {
    std::vector<RawAtom> atoms;
    const AtomColumns* columns = nullptr;
    read_lines(title, header_.atoms, "atoms", 5, [&](const DataLine& line) {
      if (!columns) {
        columns = &lammps::atom_style(reader_, title, line, styles_.atom);
        atoms.reserve(static_cast<std::size_t>(header_.atoms));
      }
      atoms.push_back(atom_of(line, *columns));
    });
    std::sort(atoms.begin(), atoms.end(),
              [](const RawAtom& a, const RawAtom& b) { return a.id < b.id; });
    const auto n = atoms.size();
    ids_.resize(n);
    out_.type.resize(n);
    out_.charge.resize(n);
    out_.molecule.resize(n);
    out_.position.resize(n);
    out_.image.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const RawAtom& a = atoms[i];
      if (i > 0 && atoms[i - 1].id == a.id)
        throw core::InputError(fmt::format(
            "{}: atom id {} appears a second time in the Atoms section (also on line {}); "
            "expected unique atom ids",
            reader_.where(std::max(a.line, atoms[i - 1].line)), a.id,
            std::min(a.line, atoms[i - 1].line)));
      ids_[i] = a.id;
      out_.type[i] = a.type;
      out_.charge[i] = a.charge;
      out_.molecule[i] = a.molecule;
      out_.position[i] = a.position;
      out_.image[i] = a.image;
    }
    out_.topology = core::Topology(static_cast<std::int32_t>(n));
  }

  /// The index of the atom with file id `id` (field `index` of `site`'s line).
  std::int32_t atom_index(const FieldSite& site, std::size_t index) {
    const auto id = integer_field(site, index, "an atom id", 1, kMaxId);
    const auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
    if (it == ids_.end() || *it != id)
      throw core::InputError(fmt::format(
          "{}: the {} '{}' names atom {}, which does not exist; expected the id of an atom of "
          "the Atoms section (line {})",
          reader_.where(site.line.number), site.what, core::excerpt(site.line.text), id,
          section_line("Atoms")));
    return static_cast<std::int32_t>(it - ids_.begin());
  }

  void need_atoms(const DataLine& title, std::string_view section) {
    if (section_line("Atoms") == 0)
      throw core::InputError(fmt::format(
          "{}: the {} section comes before the Atoms section; expected Atoms first (the atoms "
          "that {} names)",
          reader_.where(title.number), section, section));
  }

  void read_velocities(const DataLine& title) {
    need_atoms(title, "Velocities");
    std::vector<std::int64_t> lines(ids_.size(), 0);
    std::vector<core::Vec3<double>> velocity(ids_.size(), core::Vec3<double>{0.0, 0.0, 0.0});
    read_lines(title, header_.atoms, "atoms", 4, [&](const DataLine& line) {
      const FieldSite site{reader_, line, "Velocities line"};
      expect_fields(line, "Velocities line", 4, "id vx vy vz");
      const auto i = static_cast<std::size_t>(atom_index(site, 0));
      once(lines, i, line, fmt::format("atom {}", ids_[i]), "Velocities");
      velocity[i] = {number_field(site, 1, "vx"), number_field(site, 2, "vy"),
                     number_field(site, 3, "vz")};
    });
    out_.velocity = std::move(velocity);
  }

  void read_terms(TermKind kind, const DataLine& title) {
    const std::string section = terms_section(kind);
    need_atoms(title, section);
    terms_line_[slot(kind)] = title.number;
    const int k = arity(kind);
    const std::string what = std::string(kind_name(kind)) + " line";
    const std::string layout = fmt::format("id type, then the ids of its {} atoms", k);
    read_lines(title, header_.terms[slot(kind)], plural(kind), 2 + k, [&](const DataLine& line) {
      const FieldSite site{reader_, line, section + " line"};
      expect_fields(line, section + " line", static_cast<std::size_t>(2 + k), layout);
      integer_field(site, 0, fmt::format("the {} id", kind_name(kind)), 1, kMaxId);
      const auto type = static_cast<std::int32_t>(
          integer_field(site, 1, fmt::format("the {} type", kind_name(kind)), 1,
                        header_.term_types[slot(kind)]) -
          1);
      std::array<std::int32_t, 4> atoms{};
      for (int a = 0; a < k; ++a) {
        atoms[a] = atom_index(site, static_cast<std::size_t>(2 + a));
        for (int b = 0; b < a; ++b)
          if (atoms[b] == atoms[a])
            throw core::InputError(
                fmt::format("{}: the {} '{}' names atom {} twice; expected {} different atoms",
                            reader_.where(line.number), section + " line", core::excerpt(line.text),
                            ids_[static_cast<std::size_t>(atoms[a])], k));
      }
      add_term(kind, type, atoms);
    });
  }

  void add_term(TermKind kind, std::int32_t type, const std::array<std::int32_t, 4>& a) {
    auto& t = out_.topology;
    switch (kind) {
      case TermKind::Bond:
        return t.add_bond({type, {a[0], a[1]}});
      case TermKind::Angle:
        return t.add_angle({type, {a[0], a[1], a[2]}});
      case TermKind::Dihedral:
        return t.add_dihedral({type, {a[0], a[1], a[2], a[3]}});
      case TermKind::Improper:
        return t.add_improper({type, {a[0], a[1], a[2], a[3]}});
    }
  }

  // ------------------------------------------------------------------------------------------
  // What the whole file must hold

  void finish() {
    const std::string file = reader_.file().string();
    if (section_line("Atoms") == 0)
      throw core::InputError(fmt::format(
          "{}: the file has no Atoms section; expected one with the {} atoms the header "
          "announces",
          file, header_.atoms));
    if (section_line("Masses") == 0)
      throw core::InputError(fmt::format(
          "{}: the file has no Masses section; expected the mass of each of its {} atom types",
          file, header_.atom_types));
    for (const TermKind kind : kKinds) {
      const auto count = header_.terms[slot(kind)];
      if (count == 0) continue;
      if (terms_line_[slot(kind)] == 0)
        throw core::InputError(fmt::format(
            "{}: the header announces {} {} but the file has no {} section; expected one", file,
            count, plural(kind), terms_section(kind)));
      const auto& coefficients = kind == TermKind::Bond       ? out_.bond
                                 : kind == TermKind::Angle    ? out_.angle
                                 : kind == TermKind::Dihedral ? out_.dihedral
                                                              : out_.improper;
      if (!coefficients)
        throw core::InputError(
            fmt::format("{}: the file has {} {} (the {} section) but no {} section; expected the "
                        "coefficients of its {} {} types in a {} section",
                        reader_.where(terms_line_[slot(kind)]), count, plural(kind),
                        terms_section(kind), coeffs_section(kind), header_.term_types[slot(kind)],
                        kind_name(kind), coeffs_section(kind)));
    }
    if (out_.pair_style.empty() && styles_.pair)
      out_.pair_style = pair_style_family(*styles_.pair).value_or("");
  }

  /// The style the user gives for `kind` (`styles.<kind>`).
  const std::optional<std::string>& given_style(TermKind kind) const {
    return kind == TermKind::Bond       ? styles_.bond
           : kind == TermKind::Angle    ? styles_.angle
           : kind == TermKind::Dihedral ? styles_.dihedral
                                        : styles_.improper;
  }

  /// The title line of section `name` (0 where the file has none so far).
  std::int64_t section_line(std::string_view name) const {
    const auto& names = section_names();
    return seen_[static_cast<std::size_t>(std::find(names.begin(), names.end(), name) -
                                          names.begin())];
  }

  DataReader reader_;
  const LammpsDataStyles& styles_;
  Header header_;
  TopologyFile out_;
  std::vector<std::int64_t> ids_;             ///< file ids of the atoms, ascending (index order)
  std::array<std::int64_t, 13> seen_{};       ///< title line of each section (section_names order)
  std::array<std::int64_t, 4> terms_line_{};  ///< title line of each term section
};

}  // namespace

TopologyFile read_lammps_data(const std::filesystem::path& file, const LammpsDataStyles& styles) {
  return LammpsDataParser(file, styles).read();
}

}  // namespace novamd::io
