// Bonded force terms (forces/bonded_settings.hpp, bonded_gather.hpp): the harmonic bond's
// evaluator against its own energy, and the CPU term on random chains across the periodic
// boundary against a direct sum over the bonds written out here (27-image search, the formula
// by hand): forces, energy and every component of the virial tensor; the same bits whatever the
// storage order; the virial as minus the strain derivative of the energy; clear errors.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/core/error.hpp"
#include "novamd/physics/harmonic_bond.hpp"
#include "support/systems.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::backend::CpuBackend;
using novamd::backend::EnergyRequest;
using novamd::core::Vec3;

constexpr double kEps = std::numeric_limits<double>::epsilon();

TEST(HarmonicBond, ForceIsMinusTheDerivativeOfTheEnergy) {
  const novamd::physics::HarmonicBond::Params p{75.0, 1.1};
  const Vec3<double> r[2] = {{0, 0, 0}, {0.7, -0.9, 0.4}};
  const auto at = novamd::physics::HarmonicBond::evaluate(r, p);
  const double length = std::sqrt(0.7 * 0.7 + 0.9 * 0.9 + 0.4 * 0.4);
  EXPECT_NEAR(at.energy, 75.0 * (length - 1.1) * (length - 1.1), 4 * kEps * at.energy);
  const double h = 1e-6;
  for (int axis = 0; axis < 3; ++axis) {  // -dV/dr_1 by central differences
    Vec3<double> plus[2] = {r[0], r[1]}, minus[2] = {r[0], r[1]};
    (axis == 0 ? plus[1].x : axis == 1 ? plus[1].y : plus[1].z) += h;
    (axis == 0 ? minus[1].x : axis == 1 ? minus[1].y : minus[1].z) -= h;
    const double derivative = (novamd::physics::HarmonicBond::evaluate(plus, p).energy -
                               novamd::physics::HarmonicBond::evaluate(minus, p).energy) /
                              (2 * h);
    const double f1 = axis == 0 ? at.force[1].x : axis == 1 ? at.force[1].y : at.force[1].z;
    const double f0 = axis == 0 ? at.force[0].x : axis == 1 ? at.force[0].y : at.force[0].z;
    EXPECT_NEAR(f1, -derivative, 1e-7) << axis;  // h^2 V''' / 6 and eps V / h: ~1e-8
    EXPECT_EQ(f0, -f1);
  }
}

/// Forces, energy and virial of the bonds alone, written out: for each bond in id order, the
/// nearest image of the pair by a search over the 27 images, V = K (r - r0)^2.
struct DirectSum {
  std::vector<Vec3<double>> force;  ///< by id
  double energy = 0;
  double virial[6] = {};  ///< xx yy zz xy xz yz
  double scale = 0;       ///< sum over bonds of |f| r
};

DirectSum direct_sum(const BackendSetup& s) {
  const auto& p = s.particles;  // ids are storage indices in the setup
  const auto L = s.box.length();
  const auto& coefficients = std::get<novamd::forces::HarmonicBondSettings>(s.bonded[0]).types;
  const auto& bonds = s.topology.bonds();
  DirectSum out;
  out.force.assign(p.size(), {});
  for (std::size_t b = 0; b < bonds.size(); ++b) {
    const auto i = bonds.ids[2 * b], j = bonds.ids[2 * b + 1];
    Vec3<double> d{};
    double best = std::numeric_limits<double>::max();
    for (int a = -1; a <= 1; ++a)
      for (int c = -1; c <= 1; ++c)
        for (int e = -1; e <= 1; ++e) {
          const Vec3<double> t{p.position.x[i] - p.position.x[j] + a * L.x,
                               p.position.y[i] - p.position.y[j] + c * L.y,
                               p.position.z[i] - p.position.z[j] + e * L.z};
          if (novamd::core::dot(t, t) < best) best = novamd::core::dot(t, t), d = t;
        }
    const double r = std::sqrt(best);
    const auto [k, r0] = coefficients[bonds.type[b]];
    const double f_over_r = -2.0 * k * (r - r0) / r;
    out.force[i] += f_over_r * d;
    out.force[j] -= f_over_r * d;
    out.energy += k * (r - r0) * (r - r0);
    const double dd[3] = {d.x, d.y, d.z};
    const int a_of[6] = {0, 1, 2, 0, 0, 1}, b_of[6] = {0, 1, 2, 1, 2, 2};
    for (int q = 0; q < 6; ++q) out.virial[q] += f_over_r * dd[a_of[q]] * dd[b_of[q]];
    out.scale += std::abs(f_over_r) * best;
  }
  return out;
}

/// 40 chains of 5 in a box of edge 6: many bonds cross the faces.
BackendSetup bonds_only(std::int64_t reorder_every) {
  auto s = novamd::test::random_chains(40, 5, 6.0, 17);
  s.forces.clear();
  s.neighbors.reorder_every = reorder_every;
  return s;
}

TEST(BondedTerms, HarmonicChainsMatchADirectSumOverTheBonds) {
  const auto setup = bonds_only(0);
  const auto ref = direct_sum(setup);
  CpuBackend backend(setup);
  backend.compute_forces(EnergyRequest::Compute);
  const auto& p = backend.particles_on_host();
  double f_max = 0;
  for (const auto& f : ref.force) f_max = std::max(f_max, std::sqrt(novamd::core::dot(f, f)));
  for (std::size_t i = 0; i < p.size(); ++i) {  // two bonds at most per particle: a few ulp
    const auto& f = ref.force[p.id[i]];
    EXPECT_NEAR(p.force.x[i], f.x, 8 * kEps * f_max) << "id " << p.id[i];
    EXPECT_NEAR(p.force.y[i], f.y, 8 * kEps * f_max) << "id " << p.id[i];
    EXPECT_NEAR(p.force.z[i], f.z, 8 * kEps * f_max) << "id " << p.id[i];
  }
  const auto o = backend.observables();
  const double n = static_cast<double>(p.size());
  EXPECT_NEAR(o.potential_energy, ref.energy, 4 * n * kEps * ref.energy);
  for (int q = 0; q < 6; ++q)
    EXPECT_NEAR(o.virial.c[q], ref.virial[q], 4 * n * kEps * ref.scale)
        << novamd::core::kTensorComponentNames[q];
  EXPECT_GT(ref.energy, 0.0);  // the bonds are stretched and compressed
}

TEST(BondedTerms, ForcesAreBitwiseIndependentOfTheStorageOrder) {
  CpuBackend in_order(bonds_only(0)), reordered(bonds_only(1));  // Morton order at every call
  for (int k = 0; k < 2; ++k) {
    in_order.compute_forces(EnergyRequest::Compute);
    reordered.compute_forces(EnergyRequest::Compute);
  }
  EXPECT_GT(reordered.reorders(), 0);
  const auto& a = in_order.particles_on_host();
  const auto& b = reordered.particles_on_host();  // id order
  EXPECT_EQ(a.force.x, b.force.x);
  EXPECT_EQ(a.force.y, b.force.y);
  EXPECT_EQ(a.force.z, b.force.z);
}

TEST(BondedTerms, VirialIsMinusTheStrainDerivativeOfTheEnergy) {
  const auto setup = bonds_only(0);
  CpuBackend backend(setup);
  backend.compute_forces(EnergyRequest::Compute);
  const auto w = backend.observables().virial;
  const auto ref = direct_sum(setup);
  const double h = 1e-6;
  for (int axis = 0; axis < 3; ++axis) {
    const auto energy_at = [&](double strain) {
      auto l = setup.box.length();
      (axis == 0 ? l.x : axis == 1 ? l.y : l.z) *= 1.0 + strain;
      backend.rescale_box(novamd::core::Box(l.x, l.y, l.z));
      backend.compute_forces(EnergyRequest::Compute);
      return backend.observables().potential_energy;
    };
    const double derivative = (energy_at(h) - energy_at(-h)) / (2 * h);
    // Quadratic energy in the strain up to O(h^2) terms of r(e): ~1e-10 of the scale.
    EXPECT_NEAR(w.c[axis], -derivative, 1e-7 * ref.scale) << axis;
  }
}

TEST(BondedTerms, ATermTypeWithoutCoefficientsIsAnInputError) {
  auto setup = bonds_only(0);
  std::get<novamd::forces::HarmonicBondSettings>(setup.bonded[0]).types.resize(1);  // no type 1
  try {
    CpuBackend backend(setup);
    FAIL() << "no error";
  } catch (const novamd::core::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "harmonic_bond: term 0 has type 1, but coefficients are given for types 0 to 0"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
