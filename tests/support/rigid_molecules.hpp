#pragma once
// Rigid molecules the tests share: three kinds (a linear two-centre Lennard-Jones molecule with
// a quadrupole, a Stockmayer point dipole with its inertia given, and an asymmetric molecule of
// three Lennard-Jones sites, two charges, a dipole and a quadrupole), in reduced units.

#include <array>
#include <optional>
#include <vector>

#include "novamd/core/components.hpp"
#include "novamd/forces/cpu_rigid_molecules.hpp"

namespace novamd::test {

inline core::ComponentSite lj_site(core::Vec3<double> at, double epsilon, double sigma,
                                   double mass) {
  return {core::SiteKind::LennardJones, at, {}, epsilon, sigma, mass, 0.0};
}
inline core::ComponentSite pole_site(core::SiteKind kind, core::Vec3<double> at,
                                     core::Vec3<double> direction, double strength) {
  return {kind, at, direction, 0.0, 0.0, 0.0, strength};
}

inline std::vector<core::ResolvedComponent> three_kinds_of_molecule() {
  using core::SiteKind;
  const core::Component quadrupolar{
      "2CLJQ",
      {lj_site({0, 0, -0.4}, 1.0, 1.0, 0.5), lj_site({0, 0, 0.4}, 1.0, 1.0, 0.5),
       pole_site(SiteKind::Quadrupole, {0, 0, 0}, {0, 0, 1}, 1.0)},
      std::nullopt};
  const core::Component stockmayer{
      "Stockmayer",
      {lj_site({0, 0, 0}, 1.0, 1.0, 1.0), pole_site(SiteKind::Dipole, {0, 0, 0}, {1, 0, 0}, 1.2)},
      core::Vec3<double>{0.04, 0.04, 0.04}};
  const core::Component asymmetric{
      "asymmetric",
      {lj_site({0.3, 0, 0}, 0.8, 0.9, 0.6), lj_site({-0.2, 0.25, 0}, 0.8, 0.9, 0.5),
       lj_site({-0.1, -0.2, 0.1}, 0.5, 0.8, 0.3), pole_site(SiteKind::Charge, {0.3, 0, 0}, {}, 0.4),
       pole_site(SiteKind::Charge, {-0.2, 0.25, 0}, {}, -0.4),
       pole_site(SiteKind::Dipole, {0, 0, 0.05}, {0, 0.6, 0.8}, 0.7),
       pole_site(SiteKind::Quadrupole, {0, 0, 0}, {1, 1, 0}, -0.5)},
      std::nullopt};
  std::vector<core::ResolvedComponent> out;
  for (const auto* c : {&quadrupolar, &stockmayer, &asymmetric})
    out.push_back(core::resolve_component(*c));
  return out;
}

/// A rigid-molecule evaluation's forces and torques per molecule, and its totals.
struct RigidEvaluation {
  core::Vec3Array force, torque;
  double energy = 0.0;
  core::SymmetricTensor<double> virial;
};

/// Zeroed force and torque arrays for n molecules.
inline RigidEvaluation zeroed_evaluation(std::size_t n) {
  RigidEvaluation e;
  e.force.resize(n);
  e.torque.resize(n);
  e.force.fill_zero();
  e.torque.fill_zero();
  return e;
}

/// `term` evaluated on `p` in `box`, its per-molecule shares summed.
inline RigidEvaluation evaluate_rigid(forces::CpuRigidMolecules& term, const core::ParticleData& p,
                                      const core::Box& box) {
  RigidEvaluation e = zeroed_evaluation(p.size());
  std::vector<double> energy(p.size(), 0.0);
  std::array<std::vector<double>, core::kTensorComponents> virial;
  for (auto& c : virial) c.assign(p.size(), 0.0);
  term.add_forces_and_torques(p, box, e.force, e.torque, {&energy, &virial});
  for (double u : energy) e.energy += u;
  for (int c = 0; c < core::kTensorComponents; ++c)
    for (double w : virial[static_cast<std::size_t>(c)]) e.virial.c[c] += w;
  return e;
}

}  // namespace novamd::test
