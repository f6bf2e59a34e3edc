#include "novamd/io/bonded_styles.hpp"

#include <fmt/format.h>

#include <climits>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <string>
#include <string_view>
#include <vector>

#include "novamd/core/error.hpp"

namespace novamd::io {
namespace {

using physics::PeriodicDihedral;

constexpr double kRadiansPerDegree = std::numbers::pi / 180.0;

/// One type's numbers, with the checks that name the kind, style and type in their message.
class CoefficientLine {
 public:
  CoefficientLine(TermKind kind, std::string_view style, std::size_t type,
                  const std::vector<double>& values)
      : kind_(kind), style_(style), type_(type), values_(values) {}

  std::size_t size() const { return values_.size(); }

  /// The line holds exactly `count` numbers, named by `names` ("K, theta0") in the message.
  void expect_count(std::size_t count, std::string_view names) const {
    if (values_.size() != count)
      throw error(
          fmt::format("expected {} coefficients ({}), got {}", count, names, values_.size()));
  }

  /// Number `index` (0-based), finite.
  double real(std::size_t index, std::string_view name) const {
    const double v = values_[index];
    if (!std::isfinite(v)) throw error(fmt::format("{} must be a finite number, got {}", name, v));
    return v;
  }
  /// Number `index` as an angle in degrees, returned in radians.
  double degrees(std::size_t index, std::string_view name) const {
    return real(index, name) * kRadiansPerDegree;
  }
  /// Number `index`, an integer from `low` to `high`.
  int integer(std::size_t index, std::string_view name, int low = 0, int high = INT_MAX) const {
    const double v = real(index, name);
    if (v != std::floor(v) || v < low || v > high) {
      const std::string range = low == INT_MIN && high == INT_MAX ? std::string("an integer")
                                : high == INT_MAX
                                    ? fmt::format("an integer >= {}", low)
                                    : fmt::format("an integer from {} to {}", low, high);
      throw error(fmt::format("{} must be {}, got {}", name, range, v));
    }
    return static_cast<int>(v);
  }

  core::InputError error(std::string_view what) const {
    return core::InputError(
        fmt::format("{} style {}, type {}: {}", kind_name(kind_), style_, type_ + 1, what));
  }

 private:
  TermKind kind_;
  std::string_view style_;
  std::size_t type_;
  const std::vector<double>& values_;
};

/// A periodic term list of one cosine.
PeriodicDihedral::Params one_cosine(double k, int n, double phase) {
  PeriodicDihedral::Params p{};
  p.terms = 1;
  p.set(0, k, n, phase);
  return p;
}

/// Applies `convert` (CoefficientLine -> Params) to every type.
template <class Settings, class Convert>
Settings convert_types(TermKind kind, const StyleCoefficients& c, Convert convert) {
  Settings s;
  for (std::size_t t = 0; t < c.by_type.size(); ++t)
    s.types.push_back(convert(CoefficientLine(kind, c.style, t, c.by_type[t])));
  return s;
}

forces::BondedSettings bond_settings(const StyleCoefficients& c) {
  // style harmonic: K, r0
  return convert_types<forces::HarmonicBondSettings>(TermKind::Bond, c, [](const auto& line) {
    line.expect_count(2, "K, r0");
    return physics::HarmonicBond::Params{line.real(0, "K"), line.real(1, "r0")};
  });
}

forces::BondedSettings angle_settings(const StyleCoefficients& c) {
  if (c.style == "harmonic")
    return convert_types<forces::HarmonicAngleSettings>(TermKind::Angle, c, [](const auto& line) {
      line.expect_count(2, "K, theta0");
      return physics::HarmonicAngle::Params{line.real(0, "K"), line.degrees(1, "theta0")};
    });
  // style charmm: K, theta0, K_ub, r_ub
  return convert_types<forces::CharmmAngleSettings>(TermKind::Angle, c, [](const auto& line) {
    line.expect_count(4, "K, theta0, K_ub, r_ub");
    return physics::CharmmAngle::Params{line.real(0, "K"), line.degrees(1, "theta0"),
                                        line.real(2, "K_ub"), line.real(3, "r_ub")};
  });
}

/// LAMMPS charmm and charmmfsw: K, n, d (integer degrees), w (1-4 weight, 0 to 1; the 1-4 pairs
/// are computed elsewhere).
PeriodicDihedral::Params charmm_dihedral(const CoefficientLine& line) {
  line.expect_count(4, "K, n, d, w");
  const double k = line.real(0, "K");
  const int n = line.integer(1, "n");
  const int d = line.integer(2, "d (degrees)", INT_MIN);
  const double w = line.real(3, "w");
  if (w < 0.0 || w > 1.0) throw line.error(fmt::format("w must be from 0 to 1, got {}", w));
  return one_cosine(k, n, d * kRadiansPerDegree);
}

/// LAMMPS fourier: m, then K_i, n_i, d_i (degrees) for i = 1..m.
PeriodicDihedral::Params fourier_dihedral(const CoefficientLine& line) {
  if (line.size() == 0) throw line.error("expected m, then K, n, d for each of the m terms");
  const int m = line.integer(0, "m (the number of terms)", 1, PeriodicDihedral::kMaxTerms);
  line.expect_count(1 + 3 * static_cast<std::size_t>(m),
                    fmt::format("m = {}, then K, n, d for each of the {} terms", m, m));
  PeriodicDihedral::Params p{};
  p.terms = m;
  for (int i = 0; i < m; ++i) {
    const std::size_t at = 1 + 3 * static_cast<std::size_t>(i);
    p.set(i, line.real(at, fmt::format("K_{}", i + 1)),
          line.integer(at + 1, fmt::format("n_{}", i + 1)),
          line.degrees(at + 2, fmt::format("d_{} (degrees)", i + 1)));
  }
  return p;
}

/// AMBER's one periodic term: K, n, d (degrees).
PeriodicDihedral::Params periodic_term(const CoefficientLine& line) {
  line.expect_count(3, "K, n, d");
  return one_cosine(line.real(0, "K"), line.integer(1, "n"), line.degrees(2, "d (degrees)"));
}

forces::BondedSettings dihedral_settings(const StyleCoefficients& c) {
  constexpr auto kind = TermKind::Dihedral;
  if (c.style == "opls")
    return convert_types<forces::OplsDihedralSettings>(kind, c, [](const auto& line) {
      line.expect_count(4, "K1, K2, K3, K4");
      return physics::OplsDihedral::Params{line.real(0, "K1"), line.real(1, "K2"),
                                           line.real(2, "K3"), line.real(3, "K4")};
    });
  if (c.style == "fourier")
    return convert_types<forces::PeriodicDihedralSettings>(kind, c, fourier_dihedral);
  if (c.style == "periodic")
    return convert_types<forces::PeriodicDihedralSettings>(kind, c, periodic_term);
  return convert_types<forces::PeriodicDihedralSettings>(kind, c, charmm_dihedral);  // charmm*
}

/// LAMMPS cvff: K, d (-1 or +1), n (0 to 6): K [1 + d cos(n phi)] = K [1 + cos(n phi - d')]
/// with d' = 0 for d = +1 and pi for d = -1.
PeriodicDihedral::Params cvff_improper(const CoefficientLine& line) {
  line.expect_count(3, "K, d, n");
  const double k = line.real(0, "K");
  const double d = line.real(1, "d");
  if (d != 1.0 && d != -1.0) throw line.error(fmt::format("d must be -1 or +1, got {}", d));
  const int n = line.integer(2, "n", 0, 6);
  return one_cosine(k, n, d > 0 ? 0.0 : std::numbers::pi);
}

forces::BondedSettings improper_settings(const StyleCoefficients& c) {
  constexpr auto kind = TermKind::Improper;
  if (c.style == "harmonic")
    return convert_types<forces::HarmonicImproperSettings>(kind, c, [](const auto& line) {
      line.expect_count(2, "K, chi0");
      return physics::HarmonicImproper::Params{line.real(0, "K"), line.degrees(1, "chi0")};
    });
  if (c.style == "cvff")
    return convert_types<forces::PeriodicImproperSettings>(kind, c, cvff_improper);
  return convert_types<forces::PeriodicImproperSettings>(kind, c, periodic_term);  // periodic
}

}  // namespace

forces::BondedSettings bonded_settings_from(TermKind kind, const StyleCoefficients& coefficients) {
  if (!coefficient_count(kind, coefficients.style)) {
    std::string known;
    for (const auto name : known_styles(kind))
      known += (known.empty() ? "" : ", ") + std::string(name);
    throw core::InputError(fmt::format("{} style '{}' is not known; expected one of: {}",
                                       kind_name(kind), coefficients.style, known));
  }
  switch (kind) {
    case TermKind::Bond:
      return bond_settings(coefficients);
    case TermKind::Angle:
      return angle_settings(coefficients);
    case TermKind::Dihedral:
      return dihedral_settings(coefficients);
    case TermKind::Improper:
      return improper_settings(coefficients);
  }
  throw core::InputError("unknown kind of bonded term");
}

}  // namespace novamd::io
