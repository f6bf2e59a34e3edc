// The molecular pressure (backend/molecule_pressure.hpp) and the moves of molecules' velocities
// (integrate/molecule_scaling.hpp) on the CPU backend: the AMBER dipeptide in 861 rigid TIP3P
// waters, its bonds to hydrogens held, every molecule moved by its centre of mass.
//
// - The molecular virial is the slope of the energy under the moves: W^c_aa = -dU/d(ln L_a) with
//   the centres scaled along a, from central differences of U (potentials continuous at the
//   cutoff: force-shifted Lennard-Jones and shifted Coulomb, so no pair's crossing jumps U).
// - The centres' kinetic tensor, against one computed here from the particles by molecule.
// - Scaling the velocities scales the centres' and leaves each molecule's inner motion.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "novamd/backend/cpu_backend.hpp"
#include "support/held_dipeptide.hpp"

namespace {

using novamd::core::Box;
using novamd::core::SymmetricTensor;
using novamd::core::Vec3;

const std::string kContinuousForces =
    "forces:\n"
    "  - lennard_jones: {cutoff: 9.0, truncation: force_shift}\n"
    "  - coulomb: {method: shift, cutoff: 9.0}\n";

novamd::backend::BackendSetup moved_by_molecules(const std::string& forces) {
  return novamd::test::held_dipeptide_moved_by_molecules(forces);
}

double energy_at(novamd::backend::CpuBackend& b, const Box& box) {
  b.keep_configuration();
  b.rescale_box(box);
  const double u = b.potential_energy();
  b.restore_configuration();
  return u;
}

TEST(MolecularPressure, VirialIsTheEnergysSlopeUnderTheCentresMoves) {
  auto setup = moved_by_molecules(kContinuousForces);
  novamd::backend::CpuBackend b(setup);
  b.constrain_initial_state();
  const auto molecular = b.barostat_totals();
  const auto atomic = b.observables();
  const Box box = b.box();
  const double h = 1e-4;  // ln L_a either side
  for (int a = 0; a < 3; ++a) {
    Vec3<double> up = box.length(), down = box.length();
    (a == 0 ? up.x : a == 1 ? up.y : up.z) *= std::exp(h);
    (a == 0 ? down.x : a == 1 ? down.y : down.z) *= std::exp(-h);
    const double slope =
        (energy_at(b, Box(up.x, up.y, up.z)) - energy_at(b, Box(down.x, down.y, down.z))) /
        (2.0 * h);
    // U is some -9,000 kcal/mol, summed to 1e-15 of it: 1e-11 a difference, 1e-7 in the slope;
    // the difference's truncation (h^2 U''' / 6, and the pairs crossing the cutoff) left 4e-6 of
    // the virials' scale (some 400 kcal/mol here): 2e-5 of it bounds both. The atomic virial
    // misses by far more (the molecules' inner forces and the constraint forces are in it).
    const double scale = std::abs(molecular.virial.c[a]) + std::abs(atomic.virial.c[a]);
    EXPECT_NEAR(molecular.virial.c[a], -slope, 2e-5 * scale) << a;
    EXPECT_GT(std::abs(atomic.virial.c[a] + slope), 1e-2 * scale) << a;
  }
}

/// The centres' kinetic tensor from the particles by id (1/2 sum_m M V_a V_b, in kcal/mol).
SymmetricTensor<double> centres_kinetic(const novamd::core::ParticleData& p,
                                        const novamd::core::Molecules& molecules,
                                        const novamd::core::SpeciesTable& species,
                                        double mvv_to_energy) {
  std::vector<Vec3<double>> momentum(static_cast<std::size_t>(molecules.count));
  std::vector<double> mass(static_cast<std::size_t>(molecules.count), 0.0);
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto m = static_cast<std::size_t>(molecules.of_id[static_cast<std::size_t>(p.id[i])]);
    const double w = species[p.type[i]].mass;
    const auto v = p.velocity.get(i);
    momentum[m] = {momentum[m].x + w * v.x, momentum[m].y + w * v.y, momentum[m].z + w * v.z};
    mass[m] += w;
  }
  SymmetricTensor<double> K;
  for (std::size_t m = 0; m < mass.size(); ++m)
    K.add_outer(0.5 * mvv_to_energy / mass[m], momentum[m].x, momentum[m].y, momentum[m].z);
  return K;
}

// The tensor of the centres against this file's own sum, and a move of the velocities: each
// centre's velocity scaled by s_a (the tensor by s_a s_b), each molecule's inner velocities
// v_i - V_m unchanged to rounding, and the particles' K changed by sum_a K^c_aa (s_a^2 - 1).
TEST(MolecularPressure, VelocityMovesScaleTheCentresAndKeepTheInnerMotion) {
  auto setup = moved_by_molecules(kContinuousForces);
  const auto molecules = setup.scaled_molecules;
  const auto species = setup.species;
  const double mvv = setup.units.mvv_to_energy;
  novamd::backend::CpuBackend b(setup);
  const auto before = b.particles_on_host();
  const SymmetricTensor<double> K = b.moved_kinetic_tensor();
  const SymmetricTensor<double> expected = centres_kinetic(before, molecules, species, mvv);
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(K.c[k], expected.c[k], 1e-12 * expected.trace()) << k;
  // The centres carry part of K (here 0.79 of it: each atom's velocity drawn alike, the oxygen's
  // dominates its water's centre).
  EXPECT_LT(K.trace(), 0.9 * b.kinetic_energy());
  EXPECT_NEAR(b.barostat_totals().kinetic.c[0], K.c[0], 1e-12 * K.trace());

  const double kinetic_before = b.kinetic_energy();
  const Vec3<double> s{1.01, 0.98, 1.03};
  b.scale_velocities_by_axis(s);
  const auto after = b.particles_on_host();
  const SymmetricTensor<double> moved = centres_kinetic(after, molecules, species, mvv);
  EXPECT_NEAR(moved.c[0], s.x * s.x * expected.c[0], 1e-12 * expected.trace());
  EXPECT_NEAR(moved.c[2], s.z * s.z * expected.c[2], 1e-12 * expected.trace());
  EXPECT_NEAR(moved.c[3], s.x * s.y * expected.c[3], 1e-12 * expected.trace());
  const double change =
      K.c[0] * (s.x * s.x - 1) + K.c[1] * (s.y * s.y - 1) + K.c[2] * (s.z * s.z - 1);
  EXPECT_NEAR(b.kinetic_energy() - kinetic_before, change, 1e-10 * kinetic_before);
  // Inner motion: the velocity of each particle relative to the first of its molecule.
  std::vector<std::size_t> first_of(static_cast<std::size_t>(molecules.count), before.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    auto& f = first_of[static_cast<std::size_t>(molecules.of_id[i])];
    if (f == before.size()) f = i;
  }
  double largest = 0.0;
  for (std::size_t i = 0; i < before.size(); ++i) {
    const std::size_t f = first_of[static_cast<std::size_t>(molecules.of_id[i])];
    const auto d0 = before.velocity.get(i) - before.velocity.get(f);
    const auto d1 = after.velocity.get(i) - after.velocity.get(f);
    largest = std::max(largest, std::sqrt(dot(d1 - d0, d1 - d0)));
  }
  EXPECT_LT(largest, 1e-15);  // velocities of some 0.01 A/fs, each changed once by a sum
}

}  // namespace
