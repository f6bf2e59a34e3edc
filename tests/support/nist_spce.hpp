#pragma once
// NIST's SPC/E reference configurations (tests/data/nist-spce/README.md), read for the tests that
// compare with NIST's published energies (test_ewald_nist.cpp, test_rigid_ewald.cpp).

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "novamd/core/vec3.hpp"

namespace novamd::test {

/// NIST's Coulomb constant e^2 / (4 pi eps0 k_B) in K A: NIST's energies are E / k_B in K.
inline constexpr double kNistCoulombKelvin = 167100.96;

/// Half a unit in the 6th significant figure of `published`: a value agrees at NIST's precision
/// when it lies within this of it.
inline double half_unit_in_6th_figure(double published) {
  const double exponent = std::floor(std::log10(std::abs(published)));
  return 0.5 * std::pow(10.0, exponent - 5.0);
}

/// One configuration: the cubic box's edge (A) and the sites, O H H per molecule, wrapped into
/// [-L/2, L/2] (a molecule may be split across the boundary).
struct NistConfiguration {
  double edge = 0.0;
  std::vector<core::Vec3<double>> site;
};

inline NistConfiguration read_nist_spce(int cfg) {
  std::ifstream in(fmt::format("{}/tests/data/nist-spce/spce_sample_config_periodic{}.txt",
                               NOVAMD_SOURCE_DIR, cfg));
  NistConfiguration c;
  double ly = 0.0, lz = 0.0;
  int molecules = 0;
  in >> c.edge >> ly >> lz >> molecules;
  for (int a = 0; a < 3 * molecules; ++a) {
    int id = 0;
    core::Vec3<double> r;
    std::string type;
    in >> id >> r.x >> r.y >> r.z >> type;
    c.site.push_back(r);
  }
  EXPECT_TRUE(in) << "cfg " << cfg;
  return c;
}

}  // namespace novamd::test
