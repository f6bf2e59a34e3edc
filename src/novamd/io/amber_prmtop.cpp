/// @file amber_prmtop.cpp
/// The AMBER reader: atoms, types, Lennard-Jones table, residues, box and the refusals (see
/// amber_prmtop.hpp); the bonded terms are in amber_prmtop_terms.cpp.

#include "novamd/io/amber_prmtop.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/core/excerpt.hpp"
#include "novamd/io/amber_coordinates.hpp"
#include "novamd/io/amber_prmtop_parts.hpp"
#include "novamd/io/amber_sections.hpp"

namespace novamd::io {
namespace amber {

Pointers read_pointers(const PrmtopSections& s) {
  // POINTERS has 31 values (NUMEXTRA the 31st; a 32nd, NCOPY, in some files); files written
  // before extra points existed stop after IFCAP, the 30th.
  const auto v = s.all_integers("POINTERS", 30);
  const auto& section = s.section("POINTERS");
  static constexpr const char* kNames[] = {
      "NATOM",  "NTYPES", "NBONH", "MBONA", "NTHETH", "MTHETA", "NPHIH",   "MPHIA",
      "NHPARM", "NPARM",  "NNB",   "NRES",  "NBONA",  "NTHETA", "NPHIA",   "NUMBND",
      "NUMANG", "NPTRA",  "NATYP", "NPHB",  "IFPERT", "NBPER",  "NGPER",   "NDPER",
      "MBPER",  "MGPER",  "MDPER", "IFBOX", "NMXRS",  "IFCAP",  "NUMEXTRA"};
  // Counts are multiplied by at most 5 (dihedral lists) and atom indices by 3: keep them in
  // int32 after that.
  constexpr std::int64_t kLargest = std::numeric_limits<std::int32_t>::max() / 5;
  for (std::size_t k = 0; k < v.size() && k < std::size(kNames); ++k)
    if (v[k] < 0 || v[k] > kLargest || (k == 0 && v[k] < 1))
      throw core::InputError(fmt::format("{}: POINTERS value {} ({}) is {}; expected {} to {}",
                                         s.where_value(section, static_cast<std::int64_t>(k)),
                                         k + 1, kNames[k], v[k], k == 0 ? 1 : 0, kLargest));
  Pointers p;
  p.natom = v[0];
  p.ntypes = v[1];
  p.nbonh = v[2];
  p.ntheth = v[4];
  p.nphih = v[6];
  p.nnb = v[10];
  p.nres = v[11];
  p.nbona = v[12];
  p.ntheta = v[13];
  p.nphia = v[14];
  p.numbnd = v[15];
  p.numang = v[16];
  p.nptra = v[17];
  p.nphb = v[19];
  p.ifpert = v[20];
  p.ifbox = v[27];
  p.ifcap = v[29];
  p.numextra = v.size() > 30 ? v[30] : 0;
  return p;
}

}  // namespace amber

namespace {

using amber::Pointers;

/// A right angle within the rounding of a 16.8 field.
constexpr double kRightAngleTolerance = 1e-6;

[[noreturn]] void refuse(const std::string& where, const std::string& what) {
  throw core::InputError(
      fmt::format("{}: {} is not supported yet; expected a prmtop without it", where, what));
}

bool any_nonzero(const std::vector<double>& values) {
  for (const double v : values)
    if (v != 0.0) return true;
  return false;
}

/// Refuses what NovaMD cannot simulate yet (see amber_prmtop.hpp).
void refuse_unsupported(const PrmtopSections& s, const Pointers& p) {
  const auto at_pointers = s.where_flag(s.section("POINTERS"));
  if (s.has("CTITLE") || s.has("CHARMM_UREY_BRADLEY_COUNT"))
    refuse(s.where_flag(s.section(s.has("CTITLE") ? "CTITLE" : "CHARMM_UREY_BRADLEY_COUNT")),
           "a CHAMBER prmtop (CHARMM force field: Urey-Bradley terms, harmonic impropers, "
           "separate 1-4 Lennard-Jones)");
  if (p.ifpert != 0) refuse(at_pointers, "perturbation information (IFPERT = 1)");
  if (p.ifcap != 0) refuse(at_pointers, "a water cap (IFCAP = 1)");
  if (p.numextra != 0)
    refuse(at_pointers, fmt::format("extra points (virtual sites; NUMEXTRA = {})", p.numextra));
  if (p.ifbox == 2) refuse(at_pointers, "a truncated-octahedron box (IFBOX = 2)");
  for (const char* flag : {"CMAP_COUNT", "CHARMM_CMAP_COUNT"})
    if (s.has(flag)) {
      const auto count = s.all_integers(flag, 1);
      if (count[0] != 0)
        refuse(s.where_flag(s.section(flag)),
               fmt::format("CMAP correction maps ({} CMAP terms)", count[0]));
    }
  if (s.has("IPOL") && s.all_integers("IPOL", 1)[0] != 0)
    refuse(s.where_flag(s.section("IPOL")), "atomic polarizability (IPOL = 1)");
  if (s.has("POLARIZABILITY") &&
      any_nonzero(s.reals("POLARIZABILITY", p.natom, "NATOM in POINTERS")))
    refuse(s.where_flag(s.section("POLARIZABILITY")), "atomic polarizability");
  if (s.has("LENNARD_JONES_CCOEF") &&
      any_nonzero(s.reals("LENNARD_JONES_CCOEF", p.ntypes * (p.ntypes + 1) / 2,
                          "NTYPES (NTYPES + 1) / 2 from POINTERS")))
    refuse(s.where_flag(s.section("LENNARD_JONES_CCOEF")),
           "the 12-6-4 Lennard-Jones C coefficients (ion-induced dipole)");
}

// ---------------------------------------------------------------------------------------------
// Atoms and types

/// The per-atom sections and the NovaMD type of each atom.
void read_atoms(const PrmtopSections& s, const Pointers& p, TopologyFile& out) {
  static constexpr const char* kWhy = "NATOM in POINTERS";
  out.atom_name = s.strings("ATOM_NAME", p.natom, kWhy);
  const auto charge = s.reals("CHARGE", p.natom, kWhy);
  out.charge.resize(charge.size());
  for (std::size_t i = 0; i < charge.size(); ++i) out.charge[i] = charge[i] / kAmberChargeScale;
  out.mass = s.reals("MASS", p.natom, kWhy);
  const auto& mass_section = s.section("MASS");
  for (std::size_t i = 0; i < out.mass.size(); ++i)
    if (!(out.mass[i] > 0.0))
      throw core::InputError(fmt::format(
          "{}: mass of atom {} is {}; expected a positive mass (massless extra points are not "
          "supported)",
          s.where_value(mass_section, static_cast<std::int64_t>(i)), i + 1, out.mass[i]));
  out.molecule.assign(static_cast<std::size_t>(p.natom), 0);
  out.image.assign(static_cast<std::size_t>(p.natom), {0, 0, 0});
}

/// The LJ type index (0-based) of every atom, checked against NTYPES.
std::vector<std::int32_t> lj_type_indices(const PrmtopSections& s, const Pointers& p) {
  const auto raw = s.integers("ATOM_TYPE_INDEX", p.natom, "NATOM in POINTERS");
  const auto& section = s.section("ATOM_TYPE_INDEX");
  std::vector<std::int32_t> out(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] < 1 || raw[i] > p.ntypes)
      throw core::InputError(fmt::format(
          "{}: Lennard-Jones type index {} of atom {} is out of range; expected 1 to {} "
          "(NTYPES in POINTERS)",
          s.where_value(section, static_cast<std::int64_t>(i)), raw[i], i + 1, p.ntypes));
    out[i] = static_cast<std::int32_t>(raw[i] - 1);
  }
  return out;
}

/// The element of an atom from its name, as OpenMM's AmberPrmtopFile guesses it where a prmtop
/// has no ATOMIC_NUMBER: CL, NA, MG and ZN by their two letters, else the first letter (H, C, N,
/// O, S, P, F; 0 for anything else). Enough to tell hydrogens in files whose masses were
/// repartitioned (the JAC benchmark's hydrogens weigh 3.024).
int atomic_number_from_name(std::string_view name) {
  std::string upper;
  for (const char c : name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const auto& [prefix, z] :
       {std::pair<std::string_view, int>{"CL", 17}, {"NA", 11}, {"MG", 12}, {"ZN", 30}})
    if (upper.starts_with(prefix)) return z;
  for (const auto& [letter, z] :
       {std::pair<char, int>{'H', 1}, {'C', 6}, {'N', 7}, {'O', 8}, {'S', 16}, {'P', 15}, {'F', 9}})
    if (!upper.empty() && upper[0] == letter) return z;
  return 0;
}

/// Each atom's atomic number: ATOMIC_NUMBER where the file has it, else from its name.
std::vector<int> atomic_numbers(const PrmtopSections& s, const Pointers& p,
                                const std::vector<std::string>& atom_name) {
  std::vector<int> z(atom_name.size(), 0);
  if (s.has("ATOMIC_NUMBER")) {
    const auto raw = s.integers("ATOMIC_NUMBER", p.natom, "NATOM in POINTERS");
    for (std::size_t i = 0; i < z.size(); ++i) z[i] = raw[i] > 0 ? static_cast<int>(raw[i]) : 0;
    return z;
  }
  for (std::size_t i = 0; i < z.size(); ++i) z[i] = atomic_number_from_name(atom_name[i]);
  return z;
}

/// Types from (AMBER_ATOM_TYPE, LJ index, mass); returns the LJ index of each NovaMD type.
std::vector<std::int32_t> assign_types(const PrmtopSections& s, const Pointers& p,
                                       TopologyFile& out) {
  const auto names = s.strings("AMBER_ATOM_TYPE", p.natom, "NATOM in POINTERS");
  const auto lj = lj_type_indices(s, p);
  const auto element = atomic_numbers(s, p, out.atom_name);
  using Key = std::tuple<std::string, std::int32_t, double>;
  std::map<Key, std::int32_t> index;
  std::vector<std::int32_t> lj_of_type;
  out.type.resize(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const Key key{names[i], lj[i], out.mass[i]};
    const auto [it, inserted] = index.try_emplace(key, static_cast<std::int32_t>(out.types.size()));
    if (inserted) {
      out.types.push_back({names[i], out.mass[i], element[i]});
      lj_of_type.push_back(lj[i]);
    }
    out.type[i] = it->second;
  }
  // A name shared by several types: "_2", "_3", ... on the later ones, avoiding every name the
  // file uses.
  const std::set<std::string> taken(names.begin(), names.end());
  std::map<std::string, int> seen;
  for (auto& type : out.types) {
    const int n = ++seen[type.name];
    if (n == 1) continue;
    std::string name;
    for (int k = n; name.empty() || taken.count(name); ++k)
      name = fmt::format("{}_{}", type.name, k);
    type.name = name;
  }
  return lj_of_type;
}

// ---------------------------------------------------------------------------------------------
// Lennard-Jones

struct LennardJonesTable {
  std::vector<std::int64_t> index;  ///< NONBONDED_PARM_INDEX, NTYPES^2
  std::vector<double> a, b;         ///< LENNARD_JONES_ACOEF, _BCOEF
  std::vector<double> hbond_a, hbond_b;
};

LennardJonesTable read_lj_table(const PrmtopSections& s, const Pointers& p) {
  const std::int64_t pairs = p.ntypes * (p.ntypes + 1) / 2;
  const std::string why = fmt::format("NTYPES (NTYPES + 1) / 2 = {} from POINTERS", pairs);
  LennardJonesTable t;
  t.index = s.integers("NONBONDED_PARM_INDEX", p.ntypes * p.ntypes,
                       fmt::format("NTYPES^2 = {} from POINTERS", p.ntypes * p.ntypes));
  t.a = s.reals("LENNARD_JONES_ACOEF", pairs, why);
  t.b = s.reals("LENNARD_JONES_BCOEF", pairs, why);
  if (p.nphb > 0) {
    const std::string hb = fmt::format("NPHB = {} in POINTERS", p.nphb);
    t.hbond_a = s.reals("HBOND_ACOEF", p.nphb, hb);
    t.hbond_b = s.reals("HBOND_BCOEF", p.nphb, hb);
  }
  return t;
}

/// epsilon and sigma of the pair of LJ type indices (i, j), 0-based.
LennardJonesCoefficients lj_pair(const PrmtopSections& s, const Pointers& p,
                                 const LennardJonesTable& t, std::int32_t i, std::int32_t j) {
  const std::int64_t slot = p.ntypes * i + j;
  const std::int64_t k = t.index[static_cast<std::size_t>(slot)];
  const auto& index_section = s.section("NONBONDED_PARM_INDEX");
  if (k < 0) {  // a 10-12 pair: -k indexes HBOND_ACOEF / HBOND_BCOEF
    if (-k > p.nphb)
      throw core::InputError(fmt::format(
          "{}: NONBONDED_PARM_INDEX of types {} and {} is {}; expected 1 to {} or -1 to -{} "
          "(NPHB)",
          s.where_value(index_section, slot), i + 1, j + 1, k, t.a.size(), p.nphb));
    const auto h = static_cast<std::size_t>(-k - 1);
    if (t.hbond_a[h] != 0.0 || t.hbond_b[h] != 0.0)
      refuse(s.where_value(s.section("HBOND_ACOEF"), static_cast<std::int64_t>(h)),
             fmt::format("a 10-12 hydrogen-bond term (types {} and {}: A = {}, B = {})", i + 1,
                         j + 1, t.hbond_a[h], t.hbond_b[h]));
    return {0.0, 1.0, std::nullopt, std::nullopt};
  }
  if (k < 1 || k > static_cast<std::int64_t>(t.a.size()))
    throw core::InputError(fmt::format(
        "{}: NONBONDED_PARM_INDEX of types {} and {} is {}; expected 1 to {} (NTYPES (NTYPES + "
        "1) / 2) or a negative 10-12 index",
        s.where_value(index_section, slot), i + 1, j + 1, k, t.a.size()));
  const double a = t.a[static_cast<std::size_t>(k - 1)];
  const double b = t.b[static_cast<std::size_t>(k - 1)];
  if (a == 0.0 && b == 0.0) return {0.0, 1.0, std::nullopt, std::nullopt};
  if (!(a > 0.0 && b > 0.0))
    throw core::InputError(fmt::format(
        "{}: Lennard-Jones A = {}, B = {} of types {} and {}; expected both positive, or both "
        "zero (no interaction), to write the pair as epsilon and sigma",
        s.where_value(s.section("LENNARD_JONES_ACOEF"), k - 1), a, b, i + 1, j + 1));
  return {b * b / (4.0 * a), std::pow(a / b, 1.0 / 6.0), std::nullopt, std::nullopt};
}

void read_lennard_jones(const PrmtopSections& s, const Pointers& p,
                        const std::vector<std::int32_t>& lj_of_type, TopologyFile& out) {
  const LennardJonesTable table = read_lj_table(s, p);
  out.pair_style = "lj_cut";
  out.mixing = MixingRule::Arithmetic;
  const auto n = static_cast<std::int32_t>(lj_of_type.size());
  for (std::int32_t a = 0; a < n; ++a) {
    out.lj_by_type.push_back(lj_pair(s, p, table, lj_of_type[a], lj_of_type[a]));
    for (std::int32_t b = a + 1; b < n; ++b)
      out.lj_pairs.push_back({a, b, lj_pair(s, p, table, lj_of_type[a], lj_of_type[b])});
  }
}

// ---------------------------------------------------------------------------------------------
// Residues, molecules, box

void read_residues(const PrmtopSections& s, const Pointers& p, TopologyFile& out) {
  const auto labels = s.strings("RESIDUE_LABEL", p.nres, "NRES in POINTERS");
  const auto first = s.integers("RESIDUE_POINTER", p.nres, "NRES in POINTERS");
  const auto& section = s.section("RESIDUE_POINTER");
  out.residue_name.assign(static_cast<std::size_t>(p.natom), std::string());
  // Every pointer checked before any is used: residue r covers atoms first[r] .. first[r + 1] - 1.
  for (std::size_t r = 0; r < first.size(); ++r) {
    const std::int64_t begin = first[r];
    const std::int64_t previous = r > 0 ? first[r - 1] : 0;
    if ((r == 0 && begin != 1) || begin <= previous || begin > p.natom)
      throw core::InputError(fmt::format(
          "{}: residue {} starts at atom {}; expected the first residue at atom 1 and each next "
          "one after it, up to NATOM = {}",
          s.where_value(section, static_cast<std::int64_t>(r)), r + 1, begin, p.natom));
  }
  for (std::size_t r = 0; r < first.size(); ++r) {
    const std::int64_t end = r + 1 < first.size() ? first[r + 1] : p.natom + 1;
    for (std::int64_t i = first[r]; i < end; ++i)
      out.residue_name[static_cast<std::size_t>(i - 1)] = labels[r];
  }
  if (p.nres == 0 && p.natom > 0)
    throw core::InputError(fmt::format("{}: NRES is 0; expected at least one residue",
                                       s.where_flag(s.section("POINTERS"))));
}

/// Molecule numbers from ATOMS_PER_MOLECULE (periodic files), 1-based; 0 where absent.
void read_molecules(const PrmtopSections& s, const Pointers& p, TopologyFile& out) {
  if (!s.has("SOLVENT_POINTERS") || !s.has("ATOMS_PER_MOLECULE")) return;
  const auto solvent = s.integers("SOLVENT_POINTERS", 3, "IPTRES, NSPM, NSPSOL");
  const auto sizes = s.integers("ATOMS_PER_MOLECULE", solvent[1], "NSPM in SOLVENT_POINTERS");
  const auto& section = s.section("ATOMS_PER_MOLECULE");
  std::int64_t atom = 0;
  for (std::size_t m = 0; m < sizes.size(); ++m) {
    if (sizes[m] < 1 || atom + sizes[m] > p.natom)
      throw core::InputError(fmt::format(
          "{}: molecule {} has {} atoms, which with those before it make more than NATOM = {} "
          "or none; expected sizes that add up to NATOM",
          s.where_value(section, static_cast<std::int64_t>(m)), m + 1, sizes[m], p.natom));
    for (std::int64_t k = 0; k < sizes[m]; ++k)
      out.molecule[static_cast<std::size_t>(atom++)] = static_cast<std::int32_t>(m + 1);
  }
  if (atom != p.natom)
    throw core::InputError(
        fmt::format("{}: the molecules of ATOMS_PER_MOLECULE hold {} atoms; expected NATOM = {}",
                    s.where_flag(section), atom, p.natom));
}

/// The prmtop's box (BOX_DIMENSIONS: beta, a, b, c) when IFBOX > 0; beta must be 90.
std::optional<core::Vec3<double>> prmtop_box(const PrmtopSections& s, const Pointers& p) {
  if (p.ifbox == 0 || !s.has("BOX_DIMENSIONS")) {
    if (p.ifbox != 0)
      throw core::InputError(fmt::format(
          "{}: IFBOX = {} in POINTERS but no %FLAG BOX_DIMENSIONS section; expected one",
          s.where_flag(s.section("POINTERS")), p.ifbox));
    return std::nullopt;
  }
  const auto box = s.reals("BOX_DIMENSIONS", 4, "beta, a, b, c");
  const auto& section = s.section("BOX_DIMENSIONS");
  if (std::abs(box[0] - 90.0) > kRightAngleTolerance)
    refuse(s.where_value(section, 0),
           fmt::format("a non-orthogonal box (beta = {} degrees; NovaMD supports orthorhombic "
                       "boxes only, beta = 90)",
                       box[0]));
  for (int d = 1; d < 4; ++d)
    if (!(box[d] > 0.0))
      throw core::InputError(fmt::format("{}: box edge {} is {}; expected a positive length",
                                         s.where_value(section, d), "abc"[d - 1], box[d]));
  return core::Vec3<double>{box[1], box[2], box[3]};
}

void read_coordinates(const std::filesystem::path& prmtop_file,
                      const std::filesystem::path& coordinates, const Pointers& p,
                      std::optional<core::Vec3<double>> prmtop_edges, TopologyFile& out) {
  AmberCoordinates c = read_amber_coordinates(coordinates);
  if (static_cast<std::int64_t>(c.position.size()) != p.natom)
    throw core::InputError(fmt::format(
        "{}:{}: the coordinate file holds {} atoms, but the prmtop {} has NATOM = {}; expected "
        "the coordinates of the prmtop's system",
        coordinates.string(), c.count_line, c.position.size(), prmtop_file.string(), p.natom));
  out.position = std::move(c.position);
  out.velocity = std::move(c.velocity);
  out.box_edges = c.box_edges ? c.box_edges : prmtop_edges;
}

}  // namespace

TopologyFile read_amber(const std::filesystem::path& prmtop,
                        const std::filesystem::path& coordinates) {
  const PrmtopSections sections(prmtop);
  const Pointers p = amber::read_pointers(sections);
  refuse_unsupported(sections, p);
  TopologyFile out;
  out.format = "amber";
  read_atoms(sections, p, out);
  const auto lj_of_type = assign_types(sections, p, out);
  read_lennard_jones(sections, p, lj_of_type, out);
  read_residues(sections, p, out);
  read_molecules(sections, p, out);
  out.topology = core::Topology(static_cast<std::int32_t>(p.natom));
  amber::read_terms(sections, p, out);
  const auto edges = prmtop_box(sections, p);
  read_coordinates(prmtop, coordinates, p, edges, out);
  return out;
}

}  // namespace novamd::io
