#pragma once
// The AMBER dipeptide with its held distances as a backend setup, and a comparison of particle
// arrays by id: for the tests of held terms (forces/held_terms.hpp) on both backends.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "novamd/backend/backend.hpp"
#include "novamd/constraints/constraint_plan.hpp"
#include "novamd/constraints/term_geometry.hpp"
#include "novamd/forces/kspace_parameters.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/initial_system.hpp"
#include "novamd/io/molecular_system.hpp"
#include "support/example_systems.hpp"

namespace novamd::test {

/// The AMBER dipeptide's forces with PME.
inline const std::string kDipeptidePmeForces =
    "forces:\n"
    "  - lennard_jones: {cutoff: 9.0}\n"
    "  - coulomb: {method: pme, cutoff: 9.0, tolerance: 1.0e-5}\n";

/// The AMBER dipeptide in 861 TIP3P waters with `forces` (a YAML section) at `precision`, bonds
/// to hydrogens and waters held to 1e-12 of their lengths, its held terms left out or not.
inline backend::BackendSetup held_dipeptide_with(const std::string& forces,
                                                 bool leave_out_held_terms,
                                                 core::Precision precision) {
  const auto config =
      io::parse_config(kDipeptideExampleSystem + forces +
                           "constraints: {bonds: h_bonds, water: settle, tolerance: 1.0e-12}\n"
                           "integrator: {type: velocity_verlet, timestep: 1.0}\nrun: {steps: 0}\n",
                       "dipeptide.yaml", {});
  auto initial = io::build_initial_system(config);
  auto molecular = io::molecular_system(config);
  const auto& p = initial.particles;
  const auto geometry = constraints::term_geometry(molecular.topology, molecular.bonded);
  const auto mass = constraints::masses_by_id(p, config.system.species);
  const auto element = constraints::atomic_numbers_by_id(p, config.system.species);
  auto plan = constraints::plan_constraints(
      molecular.topology, {mass, element, geometry.bond_length, geometry.angle_theta0},
      config.constraints->request);
  backend::BackendSetup setup{config.units,
                              config.system.species,
                              initial.box,
                              std::move(initial.particles),
                              config.forces,
                              precision,
                              config.neighbors,
                              {},
                              std::move(molecular.topology),
                              std::move(molecular.bonded)};
  forces::resolve_kspace(setup.forces, setup.box);
  setup.constraint_plan = std::move(plan);
  setup.constraint_tolerance = config.constraints->tolerance;
  setup.leave_out_held_terms = leave_out_held_terms;
  return setup;
}

/// The AMBER dipeptide in 861 TIP3P waters with PME (held_dipeptide_with).
inline backend::BackendSetup held_dipeptide(bool leave_out_held_terms,
                                            core::Precision precision = core::Precision::Double) {
  return held_dipeptide_with(kDipeptidePmeForces, leave_out_held_terms, precision);
}

/// held_dipeptide_with in double, every molecule moved by its centre (a barostat's moves), with
/// velocities of some 300 K drawn at random from `seed` (they need not meet the held distances'
/// velocity condition).
inline backend::BackendSetup held_dipeptide_moved_by_molecules(const std::string& forces,
                                                               std::uint64_t seed = 7) {
  auto setup = held_dipeptide_with(forces, true, core::Precision::Double);
  setup.scaled_molecules = setup.topology.molecules();
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal(0.0, 0.01);  // A/fs: some 300 K for a water's atoms
  auto& v = setup.particles.velocity;
  for (std::size_t i = 0; i < setup.particles.size(); ++i)
    v.set(i, {normal(random), normal(random), normal(random)});
  return setup;
}

/// The largest difference between two particle arrays (by id), and the largest magnitude.
template <class Get>
inline std::pair<double, double> largest_difference(const core::ParticleData& a,
                                                    const core::ParticleData& b, Get get) {
  std::vector<std::size_t> index_b(b.size());
  for (std::size_t i = 0; i < b.size(); ++i) index_b[std::size_t(b.id[i])] = i;
  double diff = 0.0, size = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto u = get(a, i), v = get(b, index_b[std::size_t(a.id[i])]);
    const auto d = u - v;
    diff = std::max(diff, std::sqrt(dot(d, d)));
    size = std::max(size, std::sqrt(dot(u, u)));
  }
  return {diff, size};
}

}  // namespace novamd::test
