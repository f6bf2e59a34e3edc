// The AMBER reader (io::read_amber): the example system examples/amber-dipeptide (alanine
// dipeptide in 861 TIP3P waters, amber14) against numbers counted and computed by hand from its
// prmtop, a small prmtop written here whose every value is known, and each error path on
// crafted files.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/io/amber_prmtop.hpp"
#include "support/cli_runner.hpp"
#include "support/inputs.hpp"

namespace {

using novamd::io::read_amber;
using novamd::io::TopologyFile;
using novamd::test::input_error_of;
using novamd::test::TempDir;

const std::string kExample = NOVAMD_SOURCE_DIR "/examples/amber-dipeptide/";

/// Values of E16.8 fields have 9 significant digits: a value rounds by at most 5e-9 relative,
/// and a quotient such as B^2 / (4 A) by 3 times that; 1e-7 leaves a margin and still catches
/// any wrong formula or unit (those differ by far more).
constexpr double kPrinted = 1e-7;

// ---------------------------------------------------------------------------------------------
// The example system

class AmberDipeptide : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    file_ =
        new TopologyFile(read_amber(kExample + "dipeptide.prmtop", kExample + "dipeptide.inpcrd"));
  }
  static void TearDownTestSuite() {
    delete file_;
    file_ = nullptr;
  }
  static const TopologyFile& file() { return *file_; }
  static std::int32_t type_named(const std::string& name) {
    const auto& t = file().types;
    const auto it = std::find_if(t.begin(), t.end(), [&](const auto& x) { return x.name == name; });
    EXPECT_NE(it, t.end()) << name;
    return static_cast<std::int32_t>(it - t.begin());
  }

 private:
  static inline TopologyFile* file_ = nullptr;
};

TEST_F(AmberDipeptide, CountsMatchPointers) {
  // POINTERS: NATOM 2605; NBONH 1734 + NBONA 9 bonds; NTHETH 886 + NTHETA 11 angles;
  // NPHIH 39 + NPHIA 19 = 58 dihedrals, of which 4 have a negative fourth index (impropers).
  const auto& f = file();
  EXPECT_EQ(f.format, "amber");
  EXPECT_EQ(f.position.size(), 2605u);
  EXPECT_EQ(f.charge.size(), 2605u);
  EXPECT_EQ(f.type.size(), 2605u);
  EXPECT_EQ(f.topology.particle_count(), 2605);
  EXPECT_EQ(f.topology.bonds().size(), 1743u);
  EXPECT_EQ(f.topology.angles().size(), 897u);
  EXPECT_EQ(f.topology.dihedrals().size(), 54u);
  EXPECT_EQ(f.topology.impropers().size(), 4u);
  // 10 (AMBER_ATOM_TYPE, LJ index, mass) combinations, one per AMBER name:
  // CT HC C O N H CX H1 OW HW, in order of first appearance.
  ASSERT_EQ(f.types.size(), 10u);
  const std::vector<std::string> names{"CT", "HC", "C", "O", "N", "H", "CX", "H1", "OW", "HW"};
  for (std::size_t t = 0; t < names.size(); ++t) EXPECT_EQ(f.types[t].name, names[t]);
  EXPECT_FALSE(f.velocity.has_value());
  ASSERT_TRUE(f.box_edges.has_value());
  EXPECT_DOUBLE_EQ(f.box_edges->x, 30.0);  // last line of the inpcrd: 30.0000000 x 3, 90 x 3
  EXPECT_DOUBLE_EQ(f.box_edges->z, 30.0);
  // Coordinates of atom 1 as written (6F12.7), read to the nearest double.
  EXPECT_EQ(f.position[0].x, 11.6696677);
  EXPECT_EQ(f.position[0].z, 15.6652701);
  EXPECT_EQ(f.position[1].y, 15.3575511);
  EXPECT_EQ(f.atom_name[0], "CH3");
  EXPECT_EQ(f.residue_name[0], "ACE");
  EXPECT_EQ(f.residue_name[8], "ALA");   // atom 9, CA
  EXPECT_EQ(f.residue_name[21], "NME");  // atom 22, last peptide atom
  EXPECT_EQ(f.residue_name[22], "HOH");
  EXPECT_EQ(f.atom_name[22], "O");
  // ATOMS_PER_MOLECULE: 22 (the peptide), then 861 waters of 3.
  EXPECT_EQ(f.molecule[0], 1);
  EXPECT_EQ(f.molecule[21], 1);
  EXPECT_EQ(f.molecule[22], 2);
  EXPECT_EQ(f.molecule[2604], 862);
}

TEST_F(AmberDipeptide, ChargesAndMasses) {
  const auto& f = file();
  // The system is neutral. Each charge is written as q x 18.2223 in E16.8 (absolute rounding
  // up to 5e-8, so 3e-9 e per atom): 2605 atoms sum to within 1e-5 e at worst.
  double sum = 0.0;
  for (const double q : f.charge) sum += q;
  EXPECT_NEAR(sum, 0.0, 1e-5);
  // TIP3P: O -0.834 e, H 0.417 e; ff14SB ACE CH3 -0.3662 e (same rounding per atom: 1e-8).
  EXPECT_NEAR(f.charge[22], -0.834, 1e-8);
  EXPECT_NEAR(f.charge[23], 0.417, 1e-8);
  EXPECT_NEAR(f.charge[0], -0.3662, 1e-8);
  // MASS as written: 1.20107800E+01, 1.59994300E+01, 1.00794700E+00.
  EXPECT_DOUBLE_EQ(f.mass[0], 12.01078);
  EXPECT_DOUBLE_EQ(f.mass[22], 15.99943);
  EXPECT_DOUBLE_EQ(f.mass[23], 1.007947);
  EXPECT_DOUBLE_EQ(f.types[type_named("OW")].mass, 15.99943);
}

TEST_F(AmberDipeptide, LennardJonesFromTheTable) {
  const auto& f = file();
  EXPECT_EQ(f.pair_style, "lj_cut");
  ASSERT_TRUE(f.mixing.has_value());
  EXPECT_EQ(*f.mixing, novamd::io::MixingRule::Arithmetic);
  ASSERT_EQ(f.lj_by_type.size(), 10u);
  EXPECT_EQ(f.lj_pairs.size(), 45u);  // every unlike pair of 10 types
  // OW-OW: A = 5.81935564E+05, B = 5.94825035E+02 (entry 45 of the table):
  // epsilon = B^2 / (4 A) = 0.1520 (TIP3P), sigma = (A / B)^(1/6) = 3.150752
  // (TIP3P's r_min / 2 = 1.7683 A: sigma = 2 x 1.7683 / 2^(1/6)).
  const auto& ow = *f.lj_by_type[type_named("OW")];
  EXPECT_NEAR(ow.epsilon, 0.1520, 0.1520 * kPrinted);
  EXPECT_NEAR(ow.sigma, 2 * 1.7683 / std::pow(2.0, 1.0 / 6.0), 3.15 * kPrinted);
  // CT-CT: ff14SB CT has epsilon 0.1094, r_min / 2 = 1.9080.
  const auto& ct = *f.lj_by_type[type_named("CT")];
  EXPECT_NEAR(ct.epsilon, 0.1094, 0.1094 * kPrinted);
  EXPECT_NEAR(ct.sigma, 2 * 1.9080 / std::pow(2.0, 1.0 / 6.0), 3.4 * kPrinted);
  // HW has A = B = 0: no Lennard-Jones at all.
  EXPECT_EQ(f.lj_by_type[type_named("HW")]->epsilon, 0.0);
  // CT-OW, an explicit unlike pair: the table holds the Lorentz-Berthelot combination,
  // epsilon = sqrt(0.1094 x 0.1520), sigma = (sigma_CT + sigma_OW) / 2.
  const auto a = std::min(type_named("CT"), type_named("OW"));
  const auto b = std::max(type_named("CT"), type_named("OW"));
  const auto it = std::find_if(f.lj_pairs.begin(), f.lj_pairs.end(),
                               [&](const auto& p) { return p.type_a == a && p.type_b == b; });
  ASSERT_NE(it, f.lj_pairs.end());
  EXPECT_NEAR(it->coefficients.epsilon, std::sqrt(0.1094 * 0.1520), 0.129 * kPrinted);
  EXPECT_NEAR(it->coefficients.sigma, (1.9080 + 1.7683) / std::pow(2.0, 1.0 / 6.0), 3.3 * kPrinted);
}

TEST_F(AmberDipeptide, BondedCoefficientsInTopologyFileStyles) {
  const auto& f = file();
  ASSERT_TRUE(f.bond && f.angle && f.dihedral && f.improper);
  EXPECT_EQ(f.bond->style, "harmonic");
  // BOND_FORCE_CONSTANT / BOND_EQUIL_VALUE type 8: TIP3P O-H, 553 kcal/mol/A^2, 0.9572 A.
  EXPECT_DOUBLE_EQ(f.bond->by_type[7][0], 553.0);
  EXPECT_DOUBLE_EQ(f.bond->by_type[7][1], 0.9572);
  // ANGLE_EQUIL_VALUE type 12: 1.82421813 rad = 104.52 degrees (TIP3P H-O-H), to the 9 digits
  // of the field: 5e-9 rad is 3e-7 degrees.
  EXPECT_EQ(f.angle->style, "harmonic");
  EXPECT_DOUBLE_EQ(f.angle->by_type[11][0], 100.0);
  EXPECT_NEAR(f.angle->by_type[11][1], 104.52, 1e-6);
  // DIHEDRAL type 1: K 0.08, n 3, phase 3.14159265 rad = 180 degrees (to 2e-7 degrees).
  EXPECT_EQ(f.dihedral->style, "periodic");
  EXPECT_EQ(f.improper->style, "periodic");
  EXPECT_DOUBLE_EQ(f.dihedral->by_type[0][0], 0.08);
  EXPECT_EQ(f.dihedral->by_type[0][1], 3.0);
  EXPECT_NEAR(f.dihedral->by_type[0][2], 180.0, 1e-6);
  // The first improper of DIHEDRALS_INC_HYDROGEN: 12 24 -18 -21 10 -> atoms 5 9 7 8 (1-based;
  // the central atom, N, third), type 10.
  const auto imp = f.topology.impropers()[0];
  EXPECT_EQ(imp.ids, (std::array<std::int32_t, 4>{4, 8, 6, 7}));
  EXPECT_EQ(imp.type, 9);
}

TEST_F(AmberDipeptide, ScaledPairsAndExclusions) {
  const auto& f = file();
  // 58 dihedrals: 4 impropers and 13 with a negative third index carry no 1-4 pair; the other
  // 41 give 41 distinct pairs (OpenMM makes the same 41 exceptions from this file).
  ASSERT_EQ(f.scaled_pairs.size(), 41u);
  for (const auto& p : f.scaled_pairs) {
    EXPECT_LT(p.id_a, p.id_b);
    EXPECT_DOUBLE_EQ(p.coulomb_scale, 1.0 / 1.2);  // SCEE 1.2 on every dihedral with a pair
    EXPECT_DOUBLE_EQ(p.lj_scale, 0.5);             // SCNB 2.0
  }
  EXPECT_TRUE(std::is_sorted(f.scaled_pairs.begin(), f.scaled_pairs.end(),
                             [](const auto& x, const auto& y) {
                               return std::pair(x.id_a, x.id_b) < std::pair(y.id_a, y.id_b);
                             }));
  // The first dihedral, 0 12 18 21 11: atoms 1 and 8 (ids 0 and 7) are a 1-4 pair.
  EXPECT_EQ(f.scaled_pairs[0].id_a, 0);
  EXPECT_EQ(f.scaled_pairs[0].id_b, 7);
  // Every pair of EXCLUDED_ATOMS_LIST is within three bonds: nothing extra.
  EXPECT_TRUE(f.extra_exclusions.empty());
  // Every 1-4 pair is at separation 3 in the bond graph.
  const auto pairs14 = f.topology.pairs_14();
  for (const auto& p : f.scaled_pairs)
    EXPECT_TRUE(std::binary_search(pairs14.begin(), pairs14.end(),
                                   std::array<std::int32_t, 2>{p.id_a, p.id_b}))
        << p.id_a << " " << p.id_b;
}

// ---------------------------------------------------------------------------------------------
// A small prmtop written here: 5 atoms of a branched chain (0-1, 1-2, 2-3 with hydrogen, 1-4)
// and a sodium ion (5).

struct Section {
  std::string flag, format;
  std::vector<std::string> values;
};

/// Count and width of the formats used here ("10I8" -> 10, 8).
std::pair<int, int> layout(const std::string& format) {
  const auto letter = format.find_first_of("aIE");
  const int count = std::stoi(format.substr(0, letter));
  const int width = std::stoi(format.substr(letter + 1));
  return {count, width};
}

std::vector<std::string> ints(const std::vector<long>& v) {
  std::vector<std::string> out;
  for (const long x : v) out.push_back(std::to_string(x));
  return out;
}

std::vector<std::string> reals(const std::vector<double>& v) {
  std::vector<std::string> out;
  for (const double x : v) out.push_back(fmt::format("{:.8E}", x));
  return out;
}

/// The Lennard-Jones parameters of the three types: epsilon and r_min / 2 (ff14SB CT, HC, and a
/// sodium ion).
struct Lj {
  double epsilon, half_rmin;
};
constexpr Lj kLj[3] = {{0.1094, 1.9080}, {0.0157, 1.4870}, {0.0874, 1.3690}};

/// The A and B coefficients of types i and j (0-based) by Lorentz-Berthelot, as LEaP writes.
std::pair<double, double> ab(int i, int j) {
  const double eps = std::sqrt(kLj[i].epsilon * kLj[j].epsilon);
  const double rmin = kLj[i].half_rmin + kLj[j].half_rmin;
  return {eps * std::pow(rmin, 12), 2.0 * eps * std::pow(rmin, 6)};
}

class Crafted {
 public:
  Crafted() {
    const double pi = std::numbers::pi;
    // NATOM NTYPES NBONH MBONA NTHETH MTHETA NPHIH MPHIA NHPARM NPARM NNB NRES NBONA NTHETA
    // NPHIA NUMBND NUMANG NPTRA NATYP NPHB IFPERT NBPER NGPER NDPER MBPER MGPER MDPER IFBOX
    // NMXRS IFCAP NUMEXTRA
    add("POINTERS", "10I8", ints({6, 3, 1, 3, 1, 3, 3, 1, 0, 0, 13, 2, 3, 3, 1, 2,
                                  2, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0,  1, 5, 0, 0}));
    add("ATOM_NAME", "20a4", {"C1", "C2", "C3", "H4", "C5", "NA"});
    std::vector<double> charges;
    for (const double q : kCharges) charges.push_back(q * 18.2223);
    add("CHARGE", "5E16.8", reals(charges));
    add("MASS", "5E16.8", reals({12.01, 12.01, 12.01, 1.008, 13.0, 22.99}));
    add("ATOM_TYPE_INDEX", "10I8", ints({1, 1, 1, 2, 1, 3}));
    add("NUMBER_EXCLUDED_ATOMS", "10I8", ints({5, 3, 2, 1, 1, 1}));
    add("NONBONDED_PARM_INDEX", "10I8", ints({1, 2, 4, 2, 3, 5, 4, 5, 6}));
    add("RESIDUE_LABEL", "20a4", {"MOL", "Na+"});
    add("RESIDUE_POINTER", "10I8", ints({1, 6}));
    add("BOND_FORCE_CONSTANT", "5E16.8", reals({310.0, 340.0}));
    add("BOND_EQUIL_VALUE", "5E16.8", reals({1.526, 1.09}));
    add("ANGLE_FORCE_CONSTANT", "5E16.8", reals({40.0, 50.0}));
    add("ANGLE_EQUIL_VALUE", "5E16.8", reals({109.5 * pi / 180.0, 110.7 * pi / 180.0}));
    add("DIHEDRAL_FORCE_CONSTANT", "5E16.8", reals({0.16, 0.25, 1.1}));
    add("DIHEDRAL_PERIODICITY", "5E16.8", reals({3.0, 2.0, 2.0}));
    add("DIHEDRAL_PHASE", "5E16.8", reals({0.0, pi, pi}));
    add("SCEE_SCALE_FACTOR", "5E16.8", reals({1.2, 1.2, 1.0}));
    add("SCNB_SCALE_FACTOR", "5E16.8", reals({2.0, 2.0, 1.0}));
    std::vector<double> a, b;
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i <= j; ++i) {
        a.push_back(ab(i, j).first);
        b.push_back(ab(i, j).second);
      }
    add("LENNARD_JONES_ACOEF", "5E16.8", reals(a));
    add("LENNARD_JONES_BCOEF", "5E16.8", reals(b));
    add("BONDS_INC_HYDROGEN", "10I8", ints({6, 9, 2}));
    add("BONDS_WITHOUT_HYDROGEN", "10I8", ints({0, 3, 1, 3, 6, 1, 3, 12, 1}));
    add("ANGLES_INC_HYDROGEN", "10I8", ints({3, 6, 9, 2}));
    add("ANGLES_WITHOUT_HYDROGEN", "10I8", ints({0, 3, 6, 1, 0, 3, 12, 1, 6, 3, 12, 1}));
    // 0-1-2-3 type 1 (1-4 pair 0-3), 0-1-2-3 type 2 marked (negative third), 4-1-2-3 type 1
    // (1-4 pair 4-3); the improper 0-2-1-4 (central atom third), type 3.
    add("DIHEDRALS_INC_HYDROGEN", "10I8", ints({0, 3, 6, 9, 1, 0, 3, -6, 9, 2, 12, 3, 6, 9, 1}));
    add("DIHEDRALS_WITHOUT_HYDROGEN", "10I8", ints({0, 6, -3, -12, 3}));
    // 1-based, j > i: atom 1 excludes 2..5 and the ion 6 (an extra exclusion), ...
    add("EXCLUDED_ATOMS_LIST", "10I8", ints({2, 3, 4, 5, 6, 3, 4, 5, 4, 5, 5, 0, 0}));
    add("HBOND_ACOEF", "5E16.8", {});
    add("HBOND_BCOEF", "5E16.8", {});
    add("AMBER_ATOM_TYPE", "20a4", {"CT", "CT", "CT", "HC", "CT", "Na+"});
    add("SOLVENT_POINTERS", "3I8", ints({1, 2, 2}));
    add("ATOMS_PER_MOLECULE", "10I8", ints({5, 1}));
    add("BOX_DIMENSIONS", "5E16.8", reals({90.0, 20.0, 21.0, 22.0}));
  }

  static constexpr double kCharges[6] = {-0.18, 0.1, 0.1, 0.06, -0.08, 1.0};

  void add(const std::string& flag, const std::string& format, std::vector<std::string> v) {
    sections_.push_back({flag, format, std::move(v)});
  }
  Section& operator[](const std::string& flag) {
    for (auto& s : sections_)
      if (s.flag == flag) return s;
    throw std::out_of_range(flag);
  }
  void remove(const std::string& flag) {
    sections_.erase(std::remove_if(sections_.begin(), sections_.end(),
                                   [&](const Section& s) { return s.flag == flag; }),
                    sections_.end());
  }

  std::string text() const {
    std::string out = "%VERSION  VERSION_STAMP = V0001.000  DATE = 01/01/26  00:00:00\n";
    out += "%FLAG TITLE\n%FORMAT(20a4)\ncrafted\n";
    for (const auto& s : sections_) {
      out += "%FLAG " + s.flag + "\n%FORMAT(" + s.format + ")\n";
      const auto [count, width] = layout(s.format);
      const bool text = s.format.find('a') != std::string::npos;
      for (std::size_t k = 0; k < s.values.size(); ++k) {
        out += text ? fmt::format("{:<{}}", s.values[k], width)
                    : fmt::format("{:>{}}", s.values[k], width);
        if ((k + 1) % count == 0 || k + 1 == s.values.size()) out += "\n";
      }
      if (s.values.empty()) out += "\n";
    }
    return out;
  }

 private:
  std::vector<Section> sections_;
};

/// Positions as written (6F12.7), optional velocity lines and box line.
std::string inpcrd(int atoms = 6, bool velocities = false,
                   const std::string& box_line =
                       "  20.0000000  21.0000000  22.0000000  90.0000000  90.0000000  90.0000000") {
  const double xyz[6][3] = {{1.0, 1.0, 1.0}, {2.5, 1.0, 1.0}, {3.0, 2.4, 1.0},
                            {4.0, 2.5, 1.3}, {3.0, 0.0, 1.0}, {10.0, 10.0, 10.0}};
  const auto block = [&](double scale) {
    std::string out;
    for (int i = 0; i < atoms; ++i) {
      for (int d = 0; d < 3; ++d) out += fmt::format("{:12.7f}", scale * xyz[i][d]);
      if (i % 2 == 1 || i + 1 == atoms) out += "\n";
    }
    return out;
  };
  std::string out = fmt::format("crafted\n{:6d}  0.0000000E+00\n", atoms) + block(1.0);
  if (velocities) out += block(0.01);
  if (!box_line.empty()) out += box_line + "\n";
  return out;
}

struct CraftedFiles {
  TempDir dir;
  std::filesystem::path prmtop, coordinates;
  CraftedFiles(const Crafted& c, const std::string& crd = inpcrd())
      : prmtop(dir.write("crafted.prmtop", c.text())),
        coordinates(dir.write("crafted.inpcrd", crd)) {}
  TopologyFile read() const { return read_amber(prmtop, coordinates); }
  std::string error() const {
    return input_error_of([&] { read(); });
  }
};

TEST(AmberCrafted, ReadsEveryValue) {
  const CraftedFiles files{Crafted()};
  const TopologyFile f = files.read();
  // Types in order of first appearance; atom 5 has the CT name and LJ index but another mass.
  ASSERT_EQ(f.types.size(), 4u);
  EXPECT_EQ(f.types[0].name, "CT");
  EXPECT_EQ(f.types[1].name, "HC");
  EXPECT_EQ(f.types[2].name, "CT_2");
  EXPECT_EQ(f.types[3].name, "Na+");
  EXPECT_EQ(f.type, (std::vector<std::int32_t>{0, 0, 0, 1, 2, 3}));
  EXPECT_DOUBLE_EQ(f.types[2].mass, 13.0);
  // Charges: q x 18.2223 written to 9 digits and divided back: within 1e-9 e of q.
  double sum = 0.0;
  for (int i = 0; i < 6; ++i) {
    EXPECT_NEAR(f.charge[i], Crafted::kCharges[i], 1e-9);
    sum += f.charge[i];
  }
  EXPECT_NEAR(sum, 1.0, 6e-9);  // net charge +1 (the ion)
  EXPECT_EQ(f.residue_name, (std::vector<std::string>{"MOL", "MOL", "MOL", "MOL", "MOL", "Na+"}));
  EXPECT_EQ(f.atom_name[5], "NA");
  EXPECT_EQ(f.molecule, (std::vector<std::int32_t>{1, 1, 1, 1, 1, 2}));
  // Terms, with hydrogen first (the order of the file's sections).
  ASSERT_EQ(f.topology.bonds().size(), 4u);
  EXPECT_EQ(f.topology.bonds()[0], (novamd::core::Bond{1, {2, 3}}));
  EXPECT_EQ(f.topology.bonds()[3], (novamd::core::Bond{0, {1, 4}}));
  ASSERT_EQ(f.topology.angles().size(), 4u);
  EXPECT_EQ(f.topology.angles()[0], (novamd::core::Angle{1, {1, 2, 3}}));
  ASSERT_EQ(f.topology.dihedrals().size(), 3u);
  EXPECT_EQ(f.topology.dihedrals()[1], (novamd::core::Dihedral{1, {0, 1, 2, 3}}));
  ASSERT_EQ(f.topology.impropers().size(), 1u);
  EXPECT_EQ(f.topology.impropers()[0], (novamd::core::Improper{2, {0, 2, 1, 4}}));
  // Coefficients: angles in degrees (5e-9 rad of the field is 3e-7 degrees), phases too.
  EXPECT_DOUBLE_EQ(f.bond->by_type[1][0], 340.0);
  EXPECT_NEAR(f.angle->by_type[0][1], 109.5, 1e-6);
  EXPECT_EQ(f.dihedral->by_type[1][1], 2.0);
  EXPECT_NEAR(f.dihedral->by_type[1][2], 180.0, 1e-6);
  EXPECT_DOUBLE_EQ(f.improper->by_type[2][0], 1.1);
  // 1-4 pairs: (0, 3) and (3, 4); the marked second term of 0-1-2-3 and the improper add none.
  ASSERT_EQ(f.scaled_pairs.size(), 2u);
  EXPECT_EQ(f.scaled_pairs[0].id_a, 0);
  EXPECT_EQ(f.scaled_pairs[0].id_b, 3);
  EXPECT_EQ(f.scaled_pairs[1].id_a, 3);
  EXPECT_EQ(f.scaled_pairs[1].id_b, 4);
  EXPECT_DOUBLE_EQ(f.scaled_pairs[1].coulomb_scale, 1.0 / 1.2);
  EXPECT_DOUBLE_EQ(f.scaled_pairs[1].lj_scale, 0.5);
  // The bond graph excludes every pair of atoms 0..4; the file also excludes 0 and the ion.
  EXPECT_EQ(f.extra_exclusions, (std::vector<std::array<std::int32_t, 2>>{{0, 5}}));
  // Box from the inpcrd's last line (the prmtop says 20, 21, 22 too).
  ASSERT_TRUE(f.box_edges.has_value());
  EXPECT_DOUBLE_EQ(f.box_edges->y, 21.0);
  EXPECT_DOUBLE_EQ(f.position[3].z, 1.3);
  EXPECT_FALSE(f.velocity.has_value());
}

TEST(AmberCrafted, LennardJonesMatchesTheParametersBehindTheTable) {
  const TopologyFile f = CraftedFiles(Crafted()).read();
  const double root6 = std::pow(2.0, 1.0 / 6.0);  // sigma = r_min / 2^(1/6)
  ASSERT_EQ(f.lj_by_type.size(), 4u);
  const int lj_of_type[4] = {0, 1, 0, 2};
  for (int t = 0; t < 4; ++t) {
    const Lj& p = kLj[lj_of_type[t]];
    EXPECT_NEAR(f.lj_by_type[t]->epsilon, p.epsilon, p.epsilon * kPrinted) << t;
    EXPECT_NEAR(f.lj_by_type[t]->sigma, 2 * p.half_rmin / root6, 4.0 * kPrinted) << t;
  }
  // All 6 unlike pairs, explicitly; HC-Na+ is sqrt(eps_HC eps_Na), (r_HC + r_Na) / 2^(1/6).
  ASSERT_EQ(f.lj_pairs.size(), 6u);
  const auto& hc_na = f.lj_pairs[4];  // (1, 3): pairs in order (0,1) (0,2) (0,3) (1,2) (1,3)
  EXPECT_EQ(hc_na.type_a, 1);
  EXPECT_EQ(hc_na.type_b, 3);
  const double eps = std::sqrt(kLj[1].epsilon * kLj[2].epsilon);
  EXPECT_NEAR(hc_na.coefficients.epsilon, eps, eps * kPrinted);
  EXPECT_NEAR(hc_na.coefficients.sigma, (kLj[1].half_rmin + kLj[2].half_rmin) / root6,
              3.0 * kPrinted);
  // CT with CT_2 (the same LJ index): the CT-CT entry.
  EXPECT_NEAR(f.lj_pairs[1].coefficients.epsilon, kLj[0].epsilon, kLj[0].epsilon * kPrinted);
}

TEST(AmberCrafted, VelocitiesInAngstromPerFemtosecond) {
  const TopologyFile f = CraftedFiles(Crafted(), inpcrd(6, true)).read();
  ASSERT_TRUE(f.velocity.has_value());
  // Written 0.0250000 (0.01 x 2.5) in AMBER's unit, A per 1/20.455 ps: x 20.455 / 1000 A/fs.
  EXPECT_DOUBLE_EQ((*f.velocity)[1].x, 0.025 * 20.455 / 1000.0);
  EXPECT_DOUBLE_EQ((*f.velocity)[5].z, 0.1 * 20.455 / 1000.0);
  EXPECT_DOUBLE_EQ(f.box_edges->z, 22.0);
}

TEST(AmberCrafted, BoxFromThePrmtopWhenTheCoordinatesHaveNone) {
  Crafted c;
  c["BOX_DIMENSIONS"].values = reals({90.0, 25.0, 26.0, 27.0});
  const TopologyFile f = CraftedFiles(c, inpcrd(6, false, "")).read();
  ASSERT_TRUE(f.box_edges.has_value());
  EXPECT_DOUBLE_EQ(f.box_edges->x, 25.0);
  EXPECT_DOUBLE_EQ(f.box_edges->z, 27.0);
}

TEST(AmberCrafted, NoBoxInVacuum) {
  Crafted c;
  c["POINTERS"].values[27] = "0";  // IFBOX
  c.remove("BOX_DIMENSIONS");
  const TopologyFile f = CraftedFiles(c, inpcrd(6, false, "")).read();
  EXPECT_FALSE(f.box_edges.has_value());
}

TEST(AmberCrafted, DefaultScaleFactorsWithoutScee) {
  Crafted c;
  c.remove("SCEE_SCALE_FACTOR");
  c.remove("SCNB_SCALE_FACTOR");
  const TopologyFile f = CraftedFiles(c).read();
  ASSERT_EQ(f.scaled_pairs.size(), 2u);
  EXPECT_DOUBLE_EQ(f.scaled_pairs[0].coulomb_scale, 1.0 / 1.2);
  EXPECT_DOUBLE_EQ(f.scaled_pairs[0].lj_scale, 1.0 / 2.0);
}

TEST(AmberCrafted, ZeroTenTwelvePairHasNoLennardJones) {
  Crafted c;
  c["POINTERS"].values[19] = "1";                                          // NPHB
  c["NONBONDED_PARM_INDEX"].values = ints({1, 2, 4, 2, 3, -1, 4, -1, 6});  // HC with Na+
  c["HBOND_ACOEF"].values = reals({0.0});
  c["HBOND_BCOEF"].values = reals({0.0});
  const TopologyFile f = CraftedFiles(c).read();
  EXPECT_EQ(f.lj_pairs[4].coefficients.epsilon, 0.0);
}

// ---------------------------------------------------------------------------------------------
// Errors: each names the file and line, what is wrong and what is expected.

/// Line (1-based) of the first line of `text` that contains `needle`.
int line_of(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  return static_cast<int>(std::count(text.begin(), text.begin() + at, '\n')) + 1;
}

TEST(AmberErrors, TruncatedFile) {
  const std::string full = Crafted().text();
  // Cut after the first line of the CHARGE section: it holds 5 of its NATOM = 6 values.
  const auto format_line = full.find('\n', full.find("%FLAG CHARGE")) + 1;
  const auto first_data_line = full.find('\n', format_line) + 1;
  const std::string cut = full.substr(0, full.find('\n', first_data_line) + 1);
  TempDir dir;
  const auto prmtop = dir.write("cut.prmtop", cut);
  const auto crd = dir.write("c.inpcrd", inpcrd());
  const auto msg = input_error_of([&] { read_amber(prmtop, crd); });
  EXPECT_NE(msg.find(fmt::format("cut.prmtop:{}:", line_of(cut, "%FLAG CHARGE"))),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("holds 5 values; expected 6 (NATOM in POINTERS)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;
}

TEST(AmberErrors, SectionLongerThanPointersSay) {
  Crafted c;
  c["MASS"].values.push_back("1.0");
  const auto msg = CraftedFiles(c).error();
  EXPECT_NE(msg.find(fmt::format(":{}: %FLAG MASS holds 7 values; expected 6 (NATOM in POINTERS)",
                                 line_of(c.text(), "%FLAG MASS"))),
            std::string::npos)
      << msg;
}

TEST(AmberErrors, BondListShorterThanPointersSay) {
  Crafted c;
  c["BONDS_WITHOUT_HYDROGEN"].values.resize(6);
  const auto msg = CraftedFiles(c).error();
  EXPECT_NE(msg.find("%FLAG BONDS_WITHOUT_HYDROGEN holds 6 values; expected 9 (3 x NBONA"),
            std::string::npos)
      << msg;
}

TEST(AmberErrors, BadNumberNamesItsLine) {
  Crafted c;
  c["CHARGE"].values[1] = "1.0Q+00";
  const std::string text = c.text();
  const auto msg = CraftedFiles(c).error();
  EXPECT_NE(msg.find(fmt::format("crafted.prmtop:{}: value 2 of %FLAG CHARGE is '1.0Q+00'; "
                                 "expected a finite real number",
                                 line_of(text, "1.0Q+00"))),
            std::string::npos)
      << msg;
}

TEST(AmberErrors, AtomIndexOutOfRange) {
  Crafted c;
  c["BONDS_WITHOUT_HYDROGEN"].values[4] = "18";  // 3 x (7 - 1): atom 7 of 6
  const auto msg = CraftedFiles(c).error();
  EXPECT_NE(msg.find("atom index 18 of term 2 in %FLAG BONDS_WITHOUT_HYDROGEN is out of range; "
                     "expected 3 x (atom - 1) for an atom of 1..6"),
            std::string::npos)
      << msg;
  Crafted d;
  d["ANGLES_WITHOUT_HYDROGEN"].values[0] = "1";  // not a multiple of 3
  EXPECT_NE(CraftedFiles(d).error().find("atom index 1 of term 1 in %FLAG ANGLES_WITHOUT_HYDROGEN"),
            std::string::npos);
  Crafted e;
  e["DIHEDRALS_WITHOUT_HYDROGEN"].values[4] = "4";  // type 4 of NPTRA = 3
  EXPECT_NE(CraftedFiles(e).error().find("type 4 of term 1 in %FLAG DIHEDRALS_WITHOUT_HYDROGEN is "
                                         "out of range; expected 1 to 3"),
            std::string::npos);
}

// Found by fuzz_amber: a residue pointer past NATOM after the first residue wrote the first
// residue's name beyond the atoms (out of bounds) before the pointer was checked. Every pointer is
// now checked first (fuzz/corpus/amber/regression_residue_past_natom).
TEST(AmberErrors, ResiduePointerPastTheAtoms) {
  Crafted c;
  c["RESIDUE_POINTER"].values[1] = "9";  // the ion's residue at atom 9 of 6
  const auto msg = CraftedFiles(c).error();
  EXPECT_NE(msg.find("residue 2 starts at atom 9; expected the first residue at atom 1 and each "
                     "next one after it, up to NATOM = 6"),
            std::string::npos)
      << msg;
  Crafted d;
  d["RESIDUE_POINTER"].values[1] = "1";  // two residues at atom 1
  EXPECT_NE(CraftedFiles(d).error().find("residue 2 starts at atom 1"), std::string::npos);
}

TEST(AmberErrors, AtomCountDiffersFromTheCoordinates) {
  const auto msg = CraftedFiles(Crafted(), inpcrd(5)).error();
  EXPECT_NE(msg.find("crafted.inpcrd:2: the coordinate file holds 5 atoms, but the prmtop"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("NATOM = 6"), std::string::npos) << msg;
}

TEST(AmberErrors, NonOrthogonalBoxRefused) {
  const auto msg =
      CraftedFiles(Crafted(), inpcrd(6, false,
                                     "  20.0000000  21.0000000  22.0000000 109.4712190 109.4712190 "
                                     "109.4712190"))
          .error();
  EXPECT_NE(msg.find("crafted.inpcrd:6: box angle alpha is 109.471219 degrees; NovaMD supports "
                     "orthorhombic boxes only"),
            std::string::npos)
      << msg;
  Crafted c;
  c["BOX_DIMENSIONS"].values = reals({109.4712190, 20.0, 20.0, 20.0});
  const auto from_prmtop = CraftedFiles(c).error();
  EXPECT_NE(from_prmtop.find("a non-orthogonal box (beta = 109.471219 degrees"), std::string::npos)
      << from_prmtop;
}

TEST(AmberErrors, MissingSection) {
  Crafted c;
  c.remove("LENNARD_JONES_BCOEF");
  const auto msg = CraftedFiles(c).error();
  EXPECT_NE(msg.find("crafted.prmtop: no %FLAG LENNARD_JONES_BCOEF section"), std::string::npos)
      << msg;
}

TEST(AmberErrors, UnknownFormat) {
  Crafted c;
  c["MASS"].format = "5X16";
  const auto msg = CraftedFiles(c).error();
  EXPECT_NE(msg.find("unknown format '%FORMAT(5X16)' of %FLAG MASS"), std::string::npos) << msg;
}

TEST(AmberErrors, TextWhereNumbersBelong) {
  Crafted c;
  c["MASS"].format = "20a4";
  c["MASS"].values = {"C", "C", "C", "H", "C", "NA"};
  const auto msg = CraftedFiles(c).error();
  EXPECT_NE(msg.find("%FLAG MASS has FORMAT(20a4); expected a real format"), std::string::npos)
      << msg;
}

TEST(AmberErrors, NotAPrmtop) {
  TempDir dir;
  const auto old = dir.write("old.prmtop", "old style title\n   6   3   1\n");
  const auto crd = dir.write("c.inpcrd", inpcrd());
  const auto msg = input_error_of([&] { read_amber(old, crd); });
  EXPECT_NE(msg.find("old.prmtop:1: 'old style title' comes before any %FLAG line"),
            std::string::npos)
      << msg;
  const auto missing = input_error_of([&] { read_amber(dir.path() / "none.prmtop", crd); });
  EXPECT_NE(missing.find("none.prmtop: cannot open the file"), std::string::npos) << missing;
}

TEST(AmberErrors, SectionGivenTwice) {
  Crafted c;
  c.add("MASS", "5E16.8", reals({1, 1, 1, 1, 1, 1}));
  const auto msg = CraftedFiles(c).error();
  EXPECT_NE(msg.find("%FLAG MASS appears a second time (first at line"), std::string::npos) << msg;
}

TEST(AmberErrors, NetCdfCoordinatesRefused) {
  const auto msg = CraftedFiles(Crafted(), std::string("CDF\x02\0\0\0\x06", 8)).error();
  EXPECT_NE(msg.find("crafted.inpcrd: is a NetCDF (binary) file"), std::string::npos) << msg;
}

TEST(AmberErrors, UnsupportedFeaturesRefused) {
  Crafted hbond;
  hbond["POINTERS"].values[19] = "1";
  hbond["NONBONDED_PARM_INDEX"].values = ints({1, 2, 4, 2, 3, -1, 4, -1, 6});
  hbond["HBOND_ACOEF"].values = reals({7557.0});
  hbond["HBOND_BCOEF"].values = reals({2385.0});
  EXPECT_NE(CraftedFiles(hbond).error().find("a 10-12 hydrogen-bond term (types 2 and 3"),
            std::string::npos);
  Crafted cmap;
  cmap.add("CMAP_COUNT", "2I8", ints({1, 1}));
  EXPECT_NE(CraftedFiles(cmap).error().find("CMAP correction maps (1 CMAP terms) is not supported"),
            std::string::npos);
  Crafted pol;
  pol.add("POLARIZABILITY", "5E16.8", reals({0.0, 0.0, 1.2, 0.0, 0.0, 0.0}));
  EXPECT_NE(CraftedFiles(pol).error().find("atomic polarizability is not supported"),
            std::string::npos);
  Crafted extra;
  extra["POINTERS"].values[30] = "1";
  EXPECT_NE(CraftedFiles(extra).error().find("extra points (virtual sites; NUMEXTRA = 1)"),
            std::string::npos);
}

TEST(AmberErrors, ExclusionListMissingABondedPair) {
  Crafted c;
  // Atom 1 no longer excludes atom 4 (a 1-4 pair through 1-2-3-4): replaced by a placeholder.
  c["EXCLUDED_ATOMS_LIST"].values = ints({2, 3, 0, 5, 6, 3, 4, 5, 4, 5, 5, 0, 0});
  const auto msg = CraftedFiles(c).error();
  EXPECT_NE(msg.find("atoms 1 and 4 are within three bonds of each other, but "
                     "EXCLUDED_ATOMS_LIST does not exclude them"),
            std::string::npos)
      << msg;
}

TEST(AmberErrors, OnePairWithTwoScaleFactors) {
  Crafted c;
  // The second term of 0-1-2-3 no longer marked, and its type's SCEE differs.
  c["DIHEDRALS_INC_HYDROGEN"].values[7] = "6";
  c["SCEE_SCALE_FACTOR"].values = reals({1.2, 1.5, 1.0});
  const auto msg = CraftedFiles(c).error();
  EXPECT_NE(msg.find("gives the 1-4 pair of atoms 1 and 4 the factors"), std::string::npos) << msg;
  // The same factors from both: one pair, as AMBER counts it once in a consistent file.
  Crafted same;
  same["DIHEDRALS_INC_HYDROGEN"].values[7] = "6";
  EXPECT_EQ(CraftedFiles(same).read().scaled_pairs.size(), 2u);
}

TEST(AmberErrors, CoordinateFileShapes) {
  const auto short_file = CraftedFiles(Crafted(), "title\n     6\n   1.0000000   1.0000000\n");
  EXPECT_NE(short_file.error().find("crafted.inpcrd:4: the file ends after 1 coordinate line(s); "
                                    "expected 3 lines for 6 atoms"),
            std::string::npos)
      << short_file.error();
  std::string crd = inpcrd();
  crd += "   1.0000000\n";  // 2 lines after the coordinates: neither a box nor 3 velocity lines
  EXPECT_NE(CraftedFiles(Crafted(), crd)
                .error()
                .find("crafted.inpcrd:6: 2 line(s) follow the coordinates of 6 atoms"),
            std::string::npos);
  std::string bad = inpcrd();
  bad.replace(bad.find("   2.5000000"), 12, "   2.5x00000");
  EXPECT_NE(
      CraftedFiles(Crafted(), bad)
          .error()
          .find("crafted.inpcrd:3: coordinate field 4 is '2.5x00000'; expected a finite number"),
      std::string::npos);
}

}  // namespace
