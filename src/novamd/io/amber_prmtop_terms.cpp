/// @file amber_prmtop_terms.cpp
/// The bonded terms, 1-4 pairs and exclusions of an AMBER prmtop (see amber_prmtop.hpp).

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/io/amber_prmtop_parts.hpp"

namespace novamd::io::amber {
namespace {

constexpr double kDegreesPerRadian = 180.0 / std::numbers::pi;

/// Default 1-4 scale divisors of files without SCEE_SCALE_FACTOR / SCNB_SCALE_FACTOR (AMBER's
/// defaults for the ff94 to ff19 families).
constexpr double kDefaultScee = 1.2;
constexpr double kDefaultScnb = 2.0;

/// A periodicity must be a whole number; a 16.8 field holds it to 1e-8.
constexpr double kWholeTolerance = 1e-6;

/// One list of terms (BONDS_INC_HYDROGEN, ...): K atom indices and a type per term.
template <int K>
struct RawTerms {
  const PrmtopSection* section = nullptr;
  std::vector<std::int64_t> values;  ///< (K + 1) per term, as the file writes them
  std::int64_t count() const { return static_cast<std::int64_t>(values.size()) / (K + 1); }
};

template <int K>
RawTerms<K> read_raw(const PrmtopSections& s, std::string_view flag, std::int64_t terms,
                     const char* count_name) {
  RawTerms<K> raw;
  raw.section = &s.section(flag);
  raw.values =
      s.integers(flag, (K + 1) * terms,
                 fmt::format("{} x {} = {} from POINTERS", K + 1, count_name, (K + 1) * terms));
  return raw;
}

/// The 0-based atom of the file's index `value` (3 x (atom - 1), its sign already removed).
std::int32_t atom_of(const PrmtopSections& s, const PrmtopSection& section, std::int64_t index,
                     std::int64_t value, std::int64_t natom, std::int64_t term) {
  if (value % 3 != 0 || value / 3 >= natom)
    throw core::InputError(fmt::format(
        "{}: atom index {} of term {} in %FLAG {} is out of range; expected 3 x (atom - 1) for "
        "an atom of 1..{} (NATOM), i.e. 0 to {} in steps of 3",
        s.where_value(section, index), value, term + 1, section.flag, natom, 3 * (natom - 1)));
  return static_cast<std::int32_t>(value / 3);
}

/// The 0-based type of the file's 1-based `value`, checked against `types` (`name` for messages).
std::int32_t type_of(const PrmtopSections& s, const PrmtopSection& section, std::int64_t index,
                     std::int64_t value, std::int64_t types, const char* name, std::int64_t term) {
  if (value < 1 || value > types)
    throw core::InputError(
        fmt::format("{}: type {} of term {} in %FLAG {} is out of range; expected 1 to {} ({})",
                    s.where_value(section, index), value, term + 1, section.flag, types, name));
  return static_cast<std::int32_t>(value - 1);
}

/// Atoms of term t of `raw` (their signs removed), checked distinct.
template <int K>
std::array<std::int32_t, K> term_atoms(const PrmtopSections& s, const RawTerms<K>& raw,
                                       std::int64_t t, std::int64_t natom) {
  std::array<std::int32_t, K> atoms{};
  for (int a = 0; a < K; ++a) {
    const std::int64_t index = (K + 1) * t + a;
    const std::int64_t v = raw.values[static_cast<std::size_t>(index)];
    if (v < 0 && a < 2)
      throw core::InputError(fmt::format(
          "{}: atom index {} of term {} in %FLAG {} is negative; expected 3 x (atom - 1) >= 0 "
          "(only the third and fourth index of a dihedral may carry a sign)",
          s.where_value(*raw.section, index), v, t + 1, raw.section->flag));
    atoms[a] = atom_of(s, *raw.section, index, std::abs(v), natom, t);
    for (int b = 0; b < a; ++b)
      if (atoms[b] == atoms[a])
        throw core::InputError(fmt::format(
            "{}: term {} in %FLAG {} names atom {} twice; "
            "expected {} distinct atoms",
            s.where_value(*raw.section, index), t + 1, raw.section->flag, atoms[a] + 1, K));
  }
  return atoms;
}

void read_bonds(const PrmtopSections& s, const Pointers& p, TopologyFile& out) {
  const auto k = s.reals("BOND_FORCE_CONSTANT", p.numbnd, "NUMBND in POINTERS");
  const auto r0 = s.reals("BOND_EQUIL_VALUE", p.numbnd, "NUMBND in POINTERS");
  StyleCoefficients style{"harmonic", {}};
  for (std::size_t t = 0; t < k.size(); ++t) style.by_type.push_back({k[t], r0[t]});
  out.bond = std::move(style);
  for (const auto& [flag, n, name] : {std::tuple{"BONDS_INC_HYDROGEN", p.nbonh, "NBONH"},
                                      std::tuple{"BONDS_WITHOUT_HYDROGEN", p.nbona, "NBONA"}}) {
    const auto raw = read_raw<2>(s, flag, n, name);
    for (std::int64_t t = 0; t < raw.count(); ++t) {
      const auto atoms = term_atoms(s, raw, t, p.natom);
      const std::int32_t type = type_of(s, *raw.section, 3 * t + 2, raw.values[3 * t + 2], p.numbnd,
                                        "NUMBND bond types", t);
      out.topology.add_bond({type, atoms});
    }
  }
}

void read_angles(const PrmtopSections& s, const Pointers& p, TopologyFile& out) {
  const auto k = s.reals("ANGLE_FORCE_CONSTANT", p.numang, "NUMANG in POINTERS");
  const auto theta0 = s.reals("ANGLE_EQUIL_VALUE", p.numang, "NUMANG in POINTERS");
  StyleCoefficients style{"harmonic", {}};
  for (std::size_t t = 0; t < k.size(); ++t)
    style.by_type.push_back({k[t], theta0[t] * kDegreesPerRadian});
  out.angle = std::move(style);
  for (const auto& [flag, n, name] : {std::tuple{"ANGLES_INC_HYDROGEN", p.ntheth, "NTHETH"},
                                      std::tuple{"ANGLES_WITHOUT_HYDROGEN", p.ntheta, "NTHETA"}}) {
    const auto raw = read_raw<3>(s, flag, n, name);
    for (std::int64_t t = 0; t < raw.count(); ++t) {
      const auto atoms = term_atoms(s, raw, t, p.natom);
      const std::int32_t type = type_of(s, *raw.section, 4 * t + 3, raw.values[4 * t + 3], p.numang,
                                        "NUMANG angle types", t);
      out.topology.add_angle({type, atoms});
    }
  }
}

/// The dihedral types {K, n, phase in degrees} and their 1-4 divisors SCEE, SCNB.
struct DihedralTable {
  std::vector<std::vector<double>> coefficients;
  std::vector<double> scee, scnb;
  const PrmtopSection* scee_section = nullptr;
  const PrmtopSection* scnb_section = nullptr;
};

DihedralTable read_dihedral_table(const PrmtopSections& s, const Pointers& p) {
  static constexpr const char* kWhy = "NPTRA in POINTERS";
  const auto k = s.reals("DIHEDRAL_FORCE_CONSTANT", p.nptra, kWhy);
  const auto n = s.reals("DIHEDRAL_PERIODICITY", p.nptra, kWhy);
  const auto phase = s.reals("DIHEDRAL_PHASE", p.nptra, kWhy);
  DihedralTable table;
  for (std::size_t t = 0; t < k.size(); ++t) {
    if (std::abs(n[t] - std::round(n[t])) > kWholeTolerance || n[t] < 0.0)
      throw core::InputError(fmt::format(
          "{}: periodicity {} of dihedral type {} is not a whole number; expected n = 0, 1, 2, "
          "...",
          s.where_value(s.section("DIHEDRAL_PERIODICITY"), static_cast<std::int64_t>(t)), n[t],
          t + 1));
    table.coefficients.push_back({k[t], std::round(n[t]), phase[t] * kDegreesPerRadian});
  }
  const auto divisors = [&](const char* flag, double fallback, const PrmtopSection*& section) {
    if (!s.has(flag)) return std::vector<double>(static_cast<std::size_t>(p.nptra), fallback);
    section = &s.section(flag);
    return s.reals(flag, p.nptra, kWhy);
  };
  table.scee = divisors("SCEE_SCALE_FACTOR", kDefaultScee, table.scee_section);
  table.scnb = divisors("SCNB_SCALE_FACTOR", kDefaultScnb, table.scnb_section);
  return table;
}

/// The 1-4 pairs found so far, each with its factors and where it was first given.
struct PairEntry {
  ScaledPair pair;
  std::string where;
};

void add_scaled_pair(const PrmtopSections& s, const DihedralTable& table, std::int32_t type,
                     std::int32_t i, std::int32_t l, const std::string& where,
                     std::map<std::pair<std::int32_t, std::int32_t>, PairEntry>& pairs) {
  const auto divisor = [&](const std::vector<double>& values, const PrmtopSection* section,
                           const char* name) {
    const double d = values[static_cast<std::size_t>(type)];
    if (!(d > 0.0))
      throw core::InputError(fmt::format(
          "{}: {} of dihedral type {} is {}, and a dihedral at {} gives it a 1-4 pair; expected "
          "a positive divisor",
          section ? s.where_value(*section, type) : s.file().string(), name, type + 1, d, where));
    return 1.0 / d;
  };
  const ScaledPair pair{std::min(i, l), std::max(i, l),
                        divisor(table.scee, table.scee_section, "SCEE_SCALE_FACTOR"),
                        divisor(table.scnb, table.scnb_section, "SCNB_SCALE_FACTOR")};
  const auto [it, inserted] = pairs.try_emplace({pair.id_a, pair.id_b}, PairEntry{pair, where});
  const ScaledPair& first = it->second.pair;
  if (!inserted && (first.coulomb_scale != pair.coulomb_scale || first.lj_scale != pair.lj_scale))
    throw core::InputError(fmt::format(
        "{}: this dihedral gives the 1-4 pair of atoms {} and {} the factors 1/SCEE = {}, "
        "1/SCNB = {}, but the dihedral at {} gave it {}, {}; expected one pair of factors for "
        "each 1-4 pair (mark the repeated dihedral with a negative third index)",
        where, pair.id_a + 1, pair.id_b + 1, pair.coulomb_scale, pair.lj_scale, it->second.where,
        first.coulomb_scale, first.lj_scale));
}

void read_dihedrals(const PrmtopSections& s, const Pointers& p, TopologyFile& out) {
  const DihedralTable table = read_dihedral_table(s, p);
  out.dihedral = StyleCoefficients{"periodic", table.coefficients};
  out.improper = StyleCoefficients{"periodic", table.coefficients};
  std::map<std::pair<std::int32_t, std::int32_t>, PairEntry> pairs;
  for (const auto& [flag, n, name] : {std::tuple{"DIHEDRALS_INC_HYDROGEN", p.nphih, "NPHIH"},
                                      std::tuple{"DIHEDRALS_WITHOUT_HYDROGEN", p.nphia, "NPHIA"}}) {
    const auto raw = read_raw<4>(s, flag, n, name);
    for (std::int64_t t = 0; t < raw.count(); ++t) {
      const auto atoms = term_atoms(s, raw, t, p.natom);
      const std::int32_t type = type_of(s, *raw.section, 5 * t + 4, raw.values[5 * t + 4], p.nptra,
                                        "NPTRA dihedral types", t);
      const bool no_14 = raw.values[5 * t + 2] < 0;
      const bool improper = raw.values[5 * t + 3] < 0;
      if (improper) {
        out.topology.add_improper({type, atoms});
        continue;
      }
      out.topology.add_dihedral({type, atoms});
      if (!no_14)
        add_scaled_pair(s, table, type, atoms[0], atoms[3], s.where_value(*raw.section, 5 * t),
                        pairs);
    }
  }
  for (const auto& [ids, entry] : pairs) out.scaled_pairs.push_back(entry.pair);
}

/// The pairs (i < j) of EXCLUDED_ATOMS_LIST, sorted and unique; 0 entries are placeholders.
std::vector<std::array<std::int32_t, 2>> file_exclusions(const PrmtopSections& s,
                                                         const Pointers& p) {
  const auto counts = s.integers("NUMBER_EXCLUDED_ATOMS", p.natom, "NATOM in POINTERS");
  const auto list = s.integers("EXCLUDED_ATOMS_LIST", p.nnb, "NNB in POINTERS");
  const auto& count_section = s.section("NUMBER_EXCLUDED_ATOMS");
  const auto& list_section = s.section("EXCLUDED_ATOMS_LIST");
  std::vector<std::array<std::int32_t, 2>> pairs;
  std::int64_t next = 0;
  for (std::int64_t i = 0; i < p.natom; ++i) {
    const std::int64_t n = counts[static_cast<std::size_t>(i)];
    if (n < 0 || next + n > p.nnb)
      throw core::InputError(fmt::format(
          "{}: atom {} has {} excluded atoms, which with those before it make more than the {} "
          "entries of EXCLUDED_ATOMS_LIST (NNB); expected counts that add up to NNB",
          s.where_value(count_section, i), i + 1, n, p.nnb));
    for (std::int64_t k = next; k < next + n; ++k) {
      const std::int64_t j = list[static_cast<std::size_t>(k)];
      if (j == 0) continue;
      if (j < 0 || j > p.natom || j == i + 1)
        throw core::InputError(fmt::format(
            "{}: excluded atom {} of atom {} is out of range; expected 1 to {} (NATOM), not the "
            "atom itself, or 0 for none",
            s.where_value(list_section, k), j, i + 1, p.natom));
      const auto a = static_cast<std::int32_t>(i), b = static_cast<std::int32_t>(j - 1);
      pairs.push_back({std::min(a, b), std::max(a, b)});
    }
    next += n;
  }
  if (next != p.nnb)
    throw core::InputError(fmt::format(
        "{}: the counts of NUMBER_EXCLUDED_ATOMS add up to {}; expected {} (NNB in POINTERS)",
        s.where_flag(count_section), next, p.nnb));
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

void read_exclusions(const PrmtopSections& s, const Pointers& p, TopologyFile& out) {
  const auto listed = file_exclusions(s, p);
  const core::ExclusionLists graph = out.topology.exclusions();
  for (const auto& pair : listed)
    if (!graph.contains(pair[0], pair[1])) out.extra_exclusions.push_back(pair);
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(p.natom); ++i)
    for (const std::int32_t j : graph.of(i))
      if (j > i &&
          !std::binary_search(listed.begin(), listed.end(), std::array<std::int32_t, 2>{i, j}))
        throw core::InputError(fmt::format(
            "{}: atoms {} and {} are within three bonds of each other, but EXCLUDED_ATOMS_LIST "
            "does not exclude them; expected every 1-2, 1-3 and 1-4 pair excluded (NovaMD "
            "excludes them all and computes 1-4 pairs from the dihedrals)",
            s.where_flag(s.section("EXCLUDED_ATOMS_LIST")), i + 1, j + 1));
}

}  // namespace

void read_terms(const PrmtopSections& sections, const Pointers& p, TopologyFile& out) {
  read_bonds(sections, p, out);
  read_angles(sections, p, out);
  read_dihedrals(sections, p, out);
  read_exclusions(sections, p, out);
}

}  // namespace novamd::io::amber
