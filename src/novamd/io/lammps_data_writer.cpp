/// @file lammps_data_writer.cpp
/// LAMMPS data file writer, atom style full (see lammps_data_writer.hpp).

#include "novamd/io/lammps_data_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::io {
namespace {

/// One kind of bonded term as the file writes it: its terms, coefficients and section names.
template <int K>
struct TermSection {
  TermKind kind;
  const core::TermList<K>& terms;
  const std::optional<StyleCoefficients>& coefficients;
  const char* section;  ///< "Bonds"
  const char* coeffs;   ///< "Bond Coeffs"
};

/// Types the file declares for a kind: the rows of its coefficients, else the highest type its
/// terms use plus one.
template <int K>
std::size_t type_count(const TermSection<K>& s) {
  if (s.coefficients) return s.coefficients->by_type.size();
  const auto top = std::max_element(s.terms.type.begin(), s.terms.type.end());
  return top == s.terms.type.end() ? 0 : static_cast<std::size_t>(*top) + 1;
}

/// How many numbers a row of `style` holds (the fourier dihedral: 1 + 3 m), or nothing when
/// the style is not one NovaMD knows.
std::optional<std::size_t> row_length(TermKind kind, const std::string& style,
                                      const std::vector<double>& row) {
  const auto count = coefficient_count(kind, style);
  if (!count) return std::nullopt;
  if (*count >= 0) return static_cast<std::size_t>(*count);
  if (row.empty() || !(row[0] >= 0.0) || row[0] != std::floor(row[0])) return 1;
  return 1 + 3 * static_cast<std::size_t>(row[0]);
}

template <int K>
void check_coefficients(const TermSection<K>& s, const std::filesystem::path& file) {
  if (!s.coefficients) return;
  const auto& rows = s.coefficients->by_type;
  const std::size_t used = [&] {
    const auto top = std::max_element(s.terms.type.begin(), s.terms.type.end());
    return top == s.terms.type.end() ? std::size_t{0} : static_cast<std::size_t>(*top) + 1;
  }();
  if (rows.size() < used)
    throw core::InputError(fmt::format(
        "{}: the {}s use types up to {}, but {} gives coefficients for {} types; expected a row "
        "for every type",
        file.string(), kind_name(s.kind), used, s.coeffs, rows.size()));
  for (std::size_t t = 0; t < rows.size(); ++t) {
    const auto expected = row_length(s.kind, s.coefficients->style, rows[t]);
    if (rows[t].empty() || (expected && rows[t].size() != *expected))
      throw core::InputError(
          fmt::format("{}: {} type {} has {} coefficients; {} style '{}' expects {}", file.string(),
                      s.coeffs, t + 1, rows[t].size(), kind_name(s.kind), s.coefficients->style,
                      expected ? std::to_string(*expected) : std::string("at least one")));
  }
}

void check_pair_coefficients(const ForceFieldCoefficients& c, int types,
                             const std::filesystem::path& file) {
  if (c.lj_by_type.empty()) return;
  if (c.lj_by_type.size() != static_cast<std::size_t>(types))
    throw core::InputError(
        fmt::format("{}: Pair Coeffs given for {} types, the system has {}; expected one per type",
                    file.string(), c.lj_by_type.size(), types));
  for (std::size_t t = 0; t < c.lj_by_type.size(); ++t)
    if (!c.lj_by_type[t])
      throw core::InputError(fmt::format(
          "{}: Pair Coeffs: type {} has no Lennard-Jones coefficients; expected every type to "
          "have them, or none (the section is then left out)",
          file.string(), t + 1));
}

/// Throws when a particle's own mass differs from its type's: the file holds masses by type.
void check_masses_by_type(const TopologyOutput& topology, const core::ParticleData& particles,
                          const OrderedAtoms& atoms, const std::filesystem::path& file) {
  for (std::size_t id = 0; id < atoms.order.size(); ++id) {
    const int type = particles.type[atoms.order[id]];
    const double type_mass = topology.species[type].mass;
    if (atoms.mass[id] != type_mass)
      throw core::InputError(fmt::format(
          "{}: particle id {} has mass {}, its type {} ({}) has mass {}; a LAMMPS data file of "
          "atom style full holds one mass per type: expected equal masses within each type",
          file.string(), id, atoms.mass[id], type + 1, topology.species[type].name, type_mass));
  }
}

/// Every check of check_lammps_data, returning the ordered atoms.
OrderedAtoms checked_atoms(const std::filesystem::path& file, const TopologyOutput& topology,
                           const core::ParticleData& particles) {
  const OrderedAtoms atoms = ordered_atoms(topology, particles, file);
  check_masses_by_type(topology, particles, atoms, file);
  check_pair_coefficients(topology.coefficients, topology.species.size(), file);
  const auto& c = topology.coefficients;
  const auto& t = topology.topology;
  check_coefficients(TermSection<2>{TermKind::Bond, t.bonds(), c.bond, "Bonds", "Bond Coeffs"},
                     file);
  check_coefficients(TermSection<3>{TermKind::Angle, t.angles(), c.angle, "Angles", "Angle Coeffs"},
                     file);
  check_coefficients(
      TermSection<4>{TermKind::Dihedral, t.dihedrals(), c.dihedral, "Dihedrals", "Dihedral Coeffs"},
      file);
  check_coefficients(
      TermSection<4>{TermKind::Improper, t.impropers(), c.improper, "Impropers", "Improper Coeffs"},
      file);
  return atoms;
}

/// "Bond Coeffs # harmonic", or without the hint when the style is empty.
std::string section_title(std::string_view name, std::string_view style) {
  return style.empty() ? std::string(name) : fmt::format("{} # {}", name, style);
}

template <int K>
void put_coefficients(fmt::memory_buffer& out, const TermSection<K>& s) {
  if (!s.coefficients) return;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{}\n\n", section_title(s.coeffs, s.coefficients->style));
  for (std::size_t t = 0; t < s.coefficients->by_type.size(); ++t)
    fmt::format_to(it, "{} {}\n", t + 1, fmt::join(s.coefficients->by_type[t], " "));
  out.push_back('\n');
}

void put_pair_coefficients(fmt::memory_buffer& out, const ForceFieldCoefficients& c) {
  if (c.lj_by_type.empty()) return;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{}\n\n", section_title("Pair Coeffs", c.pair_style));
  for (std::size_t t = 0; t < c.lj_by_type.size(); ++t) {
    const LennardJonesCoefficients& lj = *c.lj_by_type[t];
    fmt::format_to(it, "{} {} {}", t + 1, lj.epsilon, lj.sigma);
    if (lj.epsilon_14 && lj.sigma_14) fmt::format_to(it, " {} {}", *lj.epsilon_14, *lj.sigma_14);
    out.push_back('\n');
  }
  out.push_back('\n');
}

/// The section of the terms themselves ("Bonds"): number, type, atom ids, all 1-based.
template <int K>
void put_terms(fmt::memory_buffer& out, const TermSection<K>& s) {
  if (s.terms.size() == 0) return;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{}\n\n", s.section);
  for (std::size_t t = 0; t < s.terms.size(); ++t) {
    fmt::format_to(it, "{} {}", t + 1, s.terms.type[t] + 1);
    for (int a = 0; a < K; ++a) fmt::format_to(it, " {}", s.terms.ids[K * t + a] + 1);
    out.push_back('\n');
  }
  out.push_back('\n');
}

/// The position of storage index i wrapped into [0, L) and its image flags, so that wrapped +
/// image x L equals the position plus its image counts x L.
std::pair<core::Vec3<double>, core::Vec3<std::int32_t>> wrapped(const core::BoxView<double>& box,
                                                                const core::ParticleData& p,
                                                                std::size_t i) {
  core::Vec3<std::int32_t> image{0, 0, 0};
  if (p.has(p.image)) image = p.image.get(i);
  core::Vec3<double> r = box.wrap(p.position.get(i), image);
  // A coordinate a rounding below 0 wraps to L itself: the primary cell is [0, L).
  const auto fold = [](double& x, double l, std::int32_t& n) {
    if (x >= l) {
      x -= l;
      ++n;
    }
  };
  fold(r.x, box.length.x, image.x);
  fold(r.y, box.length.y, image.y);
  fold(r.z, box.length.z, image.z);
  return {r, image};
}

void check_finite(const core::ParticleData& p, std::size_t i, std::size_t id,
                  const std::filesystem::path& file) {
  const auto r = p.position.get(i), v = p.velocity.get(i);
  for (double x : {r.x, r.y, r.z, v.x, v.y, v.z})
    if (!std::isfinite(x))
      throw core::RunError(fmt::format(
          "{}: particle id {} has a non-finite position or velocity ({}, {}, {}; {}, {}, {}); "
          "the state cannot be written",
          file.string(), id, r.x, r.y, r.z, v.x, v.y, v.z));
}

void put_atoms_and_velocities(fmt::memory_buffer& out, const core::Box& box,
                              const core::ParticleData& p, const OrderedAtoms& atoms,
                              const std::filesystem::path& file) {
  auto it = std::back_inserter(out);
  const core::BoxView<double> view = box.view<double>();
  fmt::format_to(it, "Atoms # full\n\n");
  for (std::size_t id = 0; id < atoms.order.size(); ++id) {
    const std::size_t i = atoms.order[id];
    check_finite(p, i, id, file);
    const auto [r, n] = wrapped(view, p, i);
    fmt::format_to(it, "{} {} {} {} {} {} {} {} {} {}\n", id + 1, atoms.molecule[id], p.type[i] + 1,
                   atoms.charge[id], r.x, r.y, r.z, n.x, n.y, n.z);
  }
  fmt::format_to(it, "\nVelocities\n\n");
  for (std::size_t id = 0; id < atoms.order.size(); ++id) {
    const std::size_t i = atoms.order[id];
    fmt::format_to(it, "{} {} {} {}\n", id + 1, p.velocity.x[i], p.velocity.y[i], p.velocity.z[i]);
  }
  out.push_back('\n');
}

}  // namespace

void check_lammps_data(const std::filesystem::path& file, const TopologyOutput& topology,
                       const core::ParticleData& particles) {
  checked_atoms(file, topology, particles);
}

void write_lammps_data(const std::filesystem::path& file, const TopologyOutput& topology,
                       const core::Box& box, const core::ParticleData& particles, std::int64_t step,
                       std::string_view units) {
  const OrderedAtoms atoms = checked_atoms(file, topology, particles);
  const auto& c = topology.coefficients;
  const auto& t = topology.topology;
  const TermSection<2> bonds{TermKind::Bond, t.bonds(), c.bond, "Bonds", "Bond Coeffs"};
  const TermSection<3> angles{TermKind::Angle, t.angles(), c.angle, "Angles", "Angle Coeffs"};
  const TermSection<4> dihedrals{TermKind::Dihedral, t.dihedrals(), c.dihedral, "Dihedrals",
                                 "Dihedral Coeffs"};
  const TermSection<4> impropers{TermKind::Improper, t.impropers(), c.improper, "Impropers",
                                 "Improper Coeffs"};

  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "LAMMPS data file written by NovaMD, step {}{}{}\n\n", step,
                 units.empty() ? "" : ", units ", units);
  fmt::format_to(it, "{} atoms\n{} atom types\n", atoms.order.size(), topology.species.size());
  const auto put_counts = [&](const auto& s) {
    fmt::format_to(it, "{} {}s\n{} {} types\n", s.terms.size(), kind_name(s.kind), type_count(s),
                   kind_name(s.kind));
  };
  put_counts(bonds);
  put_counts(angles);
  put_counts(dihedrals);
  put_counts(impropers);
  const auto& L = box.length();
  fmt::format_to(it, "\n0 {} xlo xhi\n0 {} ylo yhi\n0 {} zlo zhi\n\nMasses\n\n", L.x, L.y, L.z);
  for (int type = 0; type < topology.species.size(); ++type)
    fmt::format_to(it, "{} {} # {}\n", type + 1, topology.species[type].mass,
                   topology.species[type].name);
  out.push_back('\n');
  put_pair_coefficients(out, c);
  put_coefficients(out, bonds);
  put_coefficients(out, angles);
  put_coefficients(out, dihedrals);
  put_coefficients(out, impropers);
  put_atoms_and_velocities(out, box, particles, atoms, file);
  put_terms(out, bonds);
  put_terms(out, angles);
  put_terms(out, dihedrals);
  put_terms(out, impropers);
  write_text_atomically(file, fmt::to_string(out));
}

}  // namespace novamd::io
