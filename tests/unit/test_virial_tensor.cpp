// The virial tensor W_ab = sum over pairs of r_ij,a f_ij,b and the pressure tensor built from it.
//
// W is the negative strain derivative of the energy: under r -> (1 + e) r (box and positions),
// dU/de_ab = -W_ab. An orthorhombic box can be strained along its axes only, so the diagonal is
// checked against a central difference of the energy in boxes rescaled along one axis
// (Backend::rescale_box, the barostats' affine move) on every CPU traversal; the off-diagonal
// components are checked against a plain double loop in test_all_pairs.cpp, and every
// component of every force term against the all-pairs reference in the ForceTerms suites.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "novamd/analysis/thermo.hpp"
#include "novamd/backend/cpu_backend.hpp"
#include "novamd/core/tensor.hpp"
#include "support/force_scale.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::backend::CpuBackend;
using novamd::backend::EnergyRequest;
using novamd::core::Box;
using novamd::neighbors::NeighborMethod;

Box stretched(const Box& box, int axis, double strain) {
  auto l = box.length();
  (axis == 0 ? l.x : axis == 1 ? l.y : l.z) *= 1.0 + strain;
  return Box(l.x, l.y, l.z);
}

/// Whether some pair's distance crosses `cutoff` when axis `axis` is stretched by a strain in
/// [-h, h] (the energy of a truncated potential is not smooth there).
bool some_pair_crosses(const BackendSetup& s, double cutoff, int axis, double h) {
  const auto& p = s.particles;
  const auto box = s.box.view<double>();
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      const auto d = box.minimum_image(p.position.get(i) - p.position.get(j));
      const double along = axis == 0 ? d.x : axis == 1 ? d.y : d.z;
      const double r2 = novamd::core::dot(d, d);
      const double low = r2 - (2 * h) * along * along, high = r2 + (2 * h + h * h) * along * along;
      if (low <= cutoff * cutoff && cutoff * cutoff <= high) return true;
    }
  return false;
}

class VirialTensor : public testing::TestWithParam<NeighborMethod> {};

TEST_P(VirialTensor, DiagonalIsMinusTheStrainDerivativeOfTheEnergy) {
  // The energy-shifted LJ mixture: continuous energy at the cutoff.
  auto setup = novamd::test::lj_mixture(500, novamd::core::Precision::Double,
                                        novamd::forces::Truncation::ShiftEnergy);
  setup.neighbors.method = GetParam();
  setup.neighbors.reorder_every = 0;
  const double h = 1e-5;
  double scale = 0;  // sum over pairs of |f| r: the size of every component's terms
  for (const double s : novamd::test::force_magnitude_sums(setup)) scale += 0.5 * s;

  CpuBackend backend(setup);
  backend.compute_forces(EnergyRequest::Compute);
  const auto w = backend.observables().virial;
  for (int axis = 0; axis < 3; ++axis) {
    ASSERT_FALSE(some_pair_crosses(setup, 2.5, axis, h))
        << "a pair crosses the cutoff within the strain: choose another seed";
    const auto energy_at = [&](double strain) {
      backend.rescale_box(stretched(setup.box, axis, strain));
      backend.compute_forces(EnergyRequest::Compute);
      return backend.observables().potential_energy;
    };
    const double derivative = (energy_at(h) - energy_at(-h)) / (2 * h);
    // Central difference: truncation h^2/6 U''' and round-off of the energies, N eps |U| / h,
    // each about 1e-9 of the scale (measured: 4e-5 in W_aa ~ 2.5e4, scale 1.0e5); the
    // components differ by 10% of W, so a swapped or missing term fails by far.
    EXPECT_NEAR(w.c[axis], -derivative, 1e-8 * scale)
        << "W_" << novamd::core::kTensorComponentNames[axis];
  }
  // An isotropic mixture has no large off-diagonal part.
  for (int k = 3; k < 6; ++k) EXPECT_LT(std::abs(w.c[k]), 0.1 * std::abs(w.trace()));
}

INSTANTIATE_TEST_SUITE_P(Traversals, VirialTensor,
                         testing::Values(NeighborMethod::AllPairs, NeighborMethod::CellList,
                                         NeighborMethod::NeighborList),
                         [](const auto& info) {
                           switch (info.param) {
                             case NeighborMethod::AllPairs:
                               return std::string("all_pairs");
                             case NeighborMethod::CellList:
                               return std::string("cell_list");
                             default:
                               return std::string("neighbor_list");
                           }
                         });

TEST(KineticTensor, IsHalfTheSumOfMassTimesVelocityProducts) {
  auto setup = novamd::test::lj_mixture(200, novamd::core::Precision::Double,
                                        novamd::forces::Truncation::ShiftEnergy);
  auto& p = setup.particles;
  for (std::size_t i = 0; i < p.size(); ++i)  // anisotropic: faster along x, drift along y
    p.velocity.set(i, {std::sin(1.0 + i) * 3.0, 0.5 + std::cos(2.0 * i), std::sin(0.3 * i)});
  double expected[6] = {};
  double magnitude = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double m = setup.species[p.type[i]].mass;
    const auto v = p.velocity.get(i);
    const double va[6] = {v.x, v.y, v.z, v.x, v.x, v.y}, vb[6] = {v.x, v.y, v.z, v.y, v.z, v.z};
    for (int k = 0; k < 6; ++k) expected[k] += 0.5 * m * va[k] * vb[k];
    magnitude += 0.5 * m * novamd::core::dot(v, v);
  }
  CpuBackend backend(setup);
  backend.compute_forces(EnergyRequest::Compute);
  const auto o = backend.observables();
  const double eps = std::numeric_limits<double>::epsilon();
  for (int k = 0; k < 6; ++k)
    EXPECT_NEAR(o.kinetic.c[k], expected[k], 4 * p.size() * eps * magnitude)
        << "K_" << novamd::core::kTensorComponentNames[k];
  EXPECT_NEAR(o.kinetic.trace(), o.kinetic_energy, 4 * p.size() * eps * magnitude);
}

TEST(PressureTensor, IsKineticPlusVirialOverVolumeWithTheScalarPressureAsAThirdOfItsTrace) {
  novamd::backend::Observables o;
  o.kinetic_energy = 6.0;
  o.kinetic.c[0] = 3.0, o.kinetic.c[1] = 2.0, o.kinetic.c[2] = 1.0, o.kinetic.c[3] = 0.25;
  o.virial.c[0] = -1.0, o.virial.c[1] = 4.0, o.virial.c[2] = 0.5, o.virial.c[5] = -0.75;
  const double volume = 8.0;
  const auto s =
      novamd::analysis::make_thermo_state(0, 0.0, o, 10, volume, novamd::core::UnitSystem{}, 27.0);
  const double expected[6] = {(6 - 1) / 8.0, (4 + 4) / 8.0, (2 + 0.5) / 8.0,
                              0.5 / 8.0,     0.0,           -0.75 / 8.0};
  for (int k = 0; k < 6; ++k) {
    EXPECT_DOUBLE_EQ(s.pressure_tensor.c[k], expected[k]) << k;
    const std::string column = "p" + std::string(novamd::core::kTensorComponentNames[k]);
    EXPECT_DOUBLE_EQ(novamd::analysis::thermo_value(s, column), expected[k]) << column;
  }
  EXPECT_DOUBLE_EQ(s.pressure, s.pressure_tensor.trace() / 3.0);
  EXPECT_DOUBLE_EQ(s.virial, 3.5);

  // An integrator that reports another kinetic energy (leapfrog's half-step mean) scales the
  // kinetic part, so that the trace still gives the pressure.
  o.kinetic_energy = 3.0;
  const auto half =
      novamd::analysis::make_thermo_state(0, 0.0, o, 10, volume, novamd::core::UnitSystem{}, 27.0);
  EXPECT_DOUBLE_EQ(half.pressure, half.pressure_tensor.trace() / 3.0);
  EXPECT_DOUBLE_EQ(half.pressure_tensor.c[0], (3 - 1) / 8.0);
}

}  // namespace

// In `real` units the thermo pressure is in atm, as LAMMPS `units real` reports it: the virial
// pressure of kcal/mol per A^3 times 4184 J / (N_A 1e-30 m^3 101325 Pa) = 68,568.423 (LAMMPS's
// nktv2p, 68,568.415, within 2e-7); the other unit systems keep energy per length^3.
TEST(PressureTensor, RealUnitsReportAtmospheres) {
  novamd::backend::Observables o;
  o.kinetic_energy = 6.0;
  o.kinetic.c[0] = 3.0, o.kinetic.c[1] = 2.0, o.kinetic.c[2] = 1.0;
  o.virial.c[0] = -1.0, o.virial.c[1] = 4.0, o.virial.c[2] = 0.5, o.virial.c[3] = 0.25;
  const double volume = 8.0;
  const auto plain =
      novamd::analysis::make_thermo_state(0, 0.0, o, 10, volume, novamd::core::lj_units(), 27.0);
  const auto real =
      novamd::analysis::make_thermo_state(0, 0.0, o, 10, volume, novamd::core::real_units(), 27.0);
  EXPECT_EQ(novamd::core::real_units().pressure, "atm");
  EXPECT_NEAR(novamd::core::kAtmPerKcalPerMolPerA3, 68568.415, 2e-7 * 68568.415);
  EXPECT_DOUBLE_EQ(real.pressure, plain.pressure * novamd::core::kAtmPerKcalPerMolPerA3);
  for (int k = 0; k < 6; ++k)
    EXPECT_DOUBLE_EQ(real.pressure_tensor.c[k],
                     plain.pressure_tensor.c[k] * novamd::core::kAtmPerKcalPerMolPerA3)
        << k;
  EXPECT_DOUBLE_EQ(real.virial, plain.virial);  // the virial column stays an energy
  const auto nuclear = novamd::analysis::make_thermo_state(0, 0.0, o, 10, volume,
                                                           novamd::core::nuclear_units(), 27.0);
  EXPECT_DOUBLE_EQ(nuclear.pressure, plain.pressure);
}
