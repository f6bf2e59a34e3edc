// From file coefficients to bonded families (io/bonded_styles.hpp): every style of
// io::coefficient_count's table gives its family with LAMMPS's meaning of each number (degrees to
// radians, cvff's sign to a phase, fourier's m terms), and every bad line is an input error that
// names the kind, the style and the type.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <variant>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/io/bonded_styles.hpp"

namespace {

using novamd::io::bonded_settings_from;
using novamd::io::StyleCoefficients;
using novamd::io::TermKind;
namespace forces = novamd::forces;

constexpr double kPi = std::numbers::pi;
constexpr double kDeg = kPi / 180.0;
// A degree converted once (x pi / 180, one rounding) against kDeg x value (two): 2 ulp.
constexpr double kAngleTol = 4 * std::numeric_limits<double>::epsilon();

template <class Settings>
Settings convert(TermKind kind, const StyleCoefficients& c) {
  const auto settings = bonded_settings_from(kind, c);
  EXPECT_TRUE(std::holds_alternative<Settings>(settings)) << c.style;
  return std::get<Settings>(settings);
}

TEST(BondedStyles, BondAndAngleStyles) {
  const auto bond =
      convert<forces::HarmonicBondSettings>(TermKind::Bond, {"harmonic", {{300, 1.4}}});
  ASSERT_EQ(bond.types.size(), 1u);
  EXPECT_EQ(bond.types[0].k, 300.0);
  EXPECT_EQ(bond.types[0].r0, 1.4);

  const auto harmonic =
      convert<forces::HarmonicAngleSettings>(TermKind::Angle, {"harmonic", {{50, 110}, {40, 180}}});
  ASSERT_EQ(harmonic.types.size(), 2u);
  EXPECT_EQ(harmonic.types[0].k, 50.0);
  EXPECT_NEAR(harmonic.types[0].theta0, 110 * kDeg, kAngleTol * 2);
  EXPECT_NEAR(harmonic.types[1].theta0, kPi, kAngleTol * kPi);

  const auto charmm =
      convert<forces::CharmmAngleSettings>(TermKind::Angle, {"charmm", {{50, 110, 20, 2.3}}});
  EXPECT_EQ(charmm.types[0].k, 50.0);
  EXPECT_NEAR(charmm.types[0].theta0, 110 * kDeg, kAngleTol * 2);
  EXPECT_EQ(charmm.types[0].k_ub, 20.0);
  EXPECT_EQ(charmm.types[0].r_ub, 2.3);
}

/// One cosine (K, n, d) expected in `p`.
void expect_cosine(const novamd::physics::PeriodicDihedral::Params& p, int m, double k, int n,
                   double phase) {
  EXPECT_EQ(p.k[m], k) << m;
  EXPECT_EQ(p.n[m], n) << m;
  EXPECT_NEAR(p.phase(m), phase, kAngleTol * (1 + std::abs(phase))) << m;
}

TEST(BondedStyles, DihedralStyles) {
  for (const char* style : {"charmm", "charmmfsw"}) {
    const auto s = convert<forces::PeriodicDihedralSettings>(
        TermKind::Dihedral, {style, {{1.4, 3, 30, 0.5}, {0.2, 1, -180, 1.0}}});
    ASSERT_EQ(s.types.size(), 2u);
    EXPECT_EQ(s.types[0].terms, 1);  // the weight w is not part of the torsion
    expect_cosine(s.types[0], 0, 1.4, 3, 30 * kDeg);
    expect_cosine(s.types[1], 0, 0.2, 1, -kPi);
  }
  const auto fourier = convert<forces::PeriodicDihedralSettings>(
      TermKind::Dihedral,
      {"fourier", {{3, -0.8462, 3, 0.0, 7.5788, 1, 0, 0.138, 2, -180.0}, {1, 0.5, 0, 12.5}}});
  EXPECT_EQ(fourier.types[0].terms, 3);
  expect_cosine(fourier.types[0], 0, -0.8462, 3, 0.0);
  expect_cosine(fourier.types[0], 1, 7.5788, 1, 0.0);
  expect_cosine(fourier.types[0], 2, 0.138, 2, -kPi);
  EXPECT_EQ(fourier.types[1].terms, 1);
  expect_cosine(fourier.types[1], 0, 0.5, 0, 12.5 * kDeg);

  const auto periodic = convert<forces::PeriodicDihedralSettings>(
      TermKind::Dihedral, {"periodic", {{0.156, 3, 0.0}, {2.5, 2, 180.0}, {1.0, 1, 37.5}}});
  ASSERT_EQ(periodic.types.size(), 3u);
  expect_cosine(periodic.types[1], 0, 2.5, 2, kPi);
  expect_cosine(periodic.types[2], 0, 1.0, 1, 37.5 * kDeg);

  const auto opls =
      convert<forces::OplsDihedralSettings>(TermKind::Dihedral, {"opls", {{1.3, -0.05, 0.2, 0}}});
  EXPECT_EQ(opls.types[0].k1, 1.3);
  EXPECT_EQ(opls.types[0].k2, -0.05);
  EXPECT_EQ(opls.types[0].k3, 0.2);
  EXPECT_EQ(opls.types[0].k4, 0.0);
}

TEST(BondedStyles, ImproperStyles) {
  const auto harmonic = convert<forces::HarmonicImproperSettings>(
      TermKind::Improper, {"harmonic", {{40, 0}, {100, 35.26439}}});
  EXPECT_EQ(harmonic.types[0].k, 40.0);
  EXPECT_EQ(harmonic.types[0].chi0, 0.0);
  EXPECT_NEAR(harmonic.types[1].chi0, 35.26439 * kDeg, kAngleTol);

  // cvff K [1 + d cos(n phi)]: d = +1 is the phase 0, d = -1 the phase pi.
  const auto cvff = convert<forces::PeriodicImproperSettings>(TermKind::Improper,
                                                              {"cvff", {{80, -1, 4}, {2.5, 1, 0}}});
  expect_cosine(cvff.types[0], 0, 80.0, 4, kPi);
  expect_cosine(cvff.types[1], 0, 2.5, 0, 0.0);
  EXPECT_EQ(cvff.types[0].terms, 1);

  const auto periodic =
      convert<forces::PeriodicImproperSettings>(TermKind::Improper, {"periodic", {{1.1, 2, 180}}});
  expect_cosine(periodic.types[0], 0, 1.1, 2, kPi);
}

/// The message of the InputError that converting `c` throws ("" if none).
std::string error_of(TermKind kind, const StyleCoefficients& c) {
  try {
    bonded_settings_from(kind, c);
  } catch (const novamd::core::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(BondedStyles, BadLinesAreInputErrorsNamingKindStyleAndType) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    TermKind kind;
    StyleCoefficients coefficients;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {TermKind::Bond,
       {"harmonic", {{300, 1.4}, {300}}},
       "bond style harmonic, type 2: expected 2 coefficients (K, r0), got 1"},
      {TermKind::Bond,
       {"harmonic", {{nan, 1.4}}},
       "bond style harmonic, type 1: K must be a finite number, got nan"},
      {TermKind::Angle,
       {"harmonic", {{50, 110, 3}}},
       "angle style harmonic, type 1: expected 2 coefficients (K, theta0), got 3"},
      {TermKind::Angle,
       {"charmm", {{50, 110, 20}}},
       "angle style charmm, type 1: expected 4 coefficients (K, theta0, K_ub, r_ub), got 3"},
      {TermKind::Dihedral,
       {"charmm", {{1.4, 2.5, 180, 0}}},
       "dihedral style charmm, type 1: n must be an integer >= 0, got 2.5"},
      {TermKind::Dihedral,
       {"charmm", {{1.4, -1, 180, 0}}},
       "dihedral style charmm, type 1: n must be an integer >= 0, got -1"},
      {TermKind::Dihedral,
       {"charmm", {{1.4, 3, 0, 0}, {1.4, 3, 37.5, 0}}},
       "dihedral style charmm, type 2: d (degrees) must be an integer, got 37.5"},
      {TermKind::Dihedral,
       {"charmmfsw", {{1.4, 3, 0, 1.5}}},
       "dihedral style charmmfsw, type 1: w must be from 0 to 1, got 1.5"},
      {TermKind::Dihedral,
       {"charmmfsw", {{1.4, 3, 0}}},
       "dihedral style charmmfsw, type 1: expected 4 coefficients (K, n, d, w), got 3"},
      {TermKind::Dihedral,
       {"fourier", {{2, 1.4, 3, 0}}},
       "dihedral style fourier, type 1: expected 7 coefficients (m = 2, then K, n, d for each of "
       "the 2 terms), got 4"},
      {TermKind::Dihedral,
       {"fourier", {{0}}},
       "dihedral style fourier, type 1: m (the number of terms) must be an integer from 1 to 6, "
       "got 0"},
      {TermKind::Dihedral,
       {"fourier", {{7, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0}}},
       "dihedral style fourier, type 1: m (the number of terms) must be an integer from 1 to 6, "
       "got 7"},
      {TermKind::Dihedral,
       {"fourier", {{1, 1.0, 1.5, 0}}},
       "dihedral style fourier, type 1: n_1 must be an integer >= 0, got 1.5"},
      {TermKind::Dihedral,
       {"fourier", {{}}},
       "dihedral style fourier, type 1: expected m, then K, n, d for each of the m terms"},
      {TermKind::Dihedral,
       {"periodic", {{1.0, 0.5, 0}}},
       "dihedral style periodic, type 1: n must be an integer >= 0, got 0.5"},
      {TermKind::Dihedral,
       {"opls", {{1, 2, 3}}},
       "dihedral style opls, type 1: expected 4 coefficients (K1, K2, K3, K4), got 3"},
      {TermKind::Improper,
       {"harmonic", {{40}}},
       "improper style harmonic, type 1: expected 2 coefficients (K, chi0), got 1"},
      {TermKind::Improper,
       {"cvff", {{80, 0.5, 2}}},
       "improper style cvff, type 1: d must be -1 or +1, got 0.5"},
      {TermKind::Improper,
       {"cvff", {{80, -1, 7}}},
       "improper style cvff, type 1: n must be an integer from 0 to 6, got 7"},
      {TermKind::Improper,
       {"periodic", {{1.1, 2, std::numeric_limits<double>::infinity()}}},
       "improper style periodic, type 1: d (degrees) must be a finite number, got inf"},
      {TermKind::Improper,
       {"umbrella", {{1, 2}}},
       "improper style 'umbrella' is not known; expected one of: harmonic, cvff, periodic"},
      {TermKind::Bond,
       {"charmm", {{1, 2}}},
       "bond style 'charmm' is not known; expected one of: harmonic"},
  };
  for (const auto& c : cases) EXPECT_EQ(error_of(c.kind, c.coefficients), c.expected);
}

}  // namespace
