#pragma once
// A small molecular system for the topology writers' tests: two water-like molecules and a
// butane-like chain with one hydrogen, with bonds, angles, two dihedrals, an improper, charges,
// molecule ids and image counts, stored in a shuffled order; and its energies computed here, as
// LAMMPS defines its styles (bond and angle harmonic, dihedral charmm, improper harmonic,
// lj/cut/coul/cut with geometric mixing, special_bonds 0 0 0), in LAMMPS `lj` units (Coulomb
// constant 1, mv^2 in energy units).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <numeric>
#include <random>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/topology.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/io/topology_output.hpp"

namespace novamd::test {

using V3 = core::Vec3<double>;
using I3 = core::Vec3<std::int32_t>;

/// One particle of the system, by id.
struct SmallMoleculeAtom {
  int type;
  double charge;
  std::int32_t molecule;
  V3 stored;  ///< the position as the particle store holds it (not always inside the box)
  I3 image;   ///< its image counts: stored + image x L is the unwrapped position
};

inline core::Box small_molecule_box() {
  return core::Box(12.5, 13.0, 14.0);
}

/// Types: 0 OW, 1 HW, 2 CT (a united CH_n carbon), 3 HC. Water 2 straddles the x boundary (a
/// hydrogen wrapped, image +1); the chain lies two boxes up in y and one back in x; its last
/// carbon is stored one more box out in x (a position outside the box, image -2) and its
/// hydrogen just below z = 0 (to be wrapped to z = L - 0.35, image -1).
inline std::vector<SmallMoleculeAtom> small_molecule_atoms() {
  const I3 chain{-1, 2, 0};
  return {
      {0, -0.834, 7, {4.0, 6.0, 3.5}, {0, 0, 0}},         // water 1
      {1, 0.417, 7, {4.95, 6.05, 3.52}, {0, 0, 0}},       //
      {1, 0.417, 7, {3.76, 6.93, 3.51}, {0, 0, 0}},       //
      {0, -0.834, 4, {12.2, 8.0, 6.0}, {0, 0, 0}},        // water 2
      {1, 0.417, 4, {0.63, 8.1, 6.05}, {1, 0, 0}},        //
      {1, 0.417, 4, {11.95, 8.93, 6.1}, {0, 0, 0}},       //
      {2, -0.18, 12, {5.0, 9.0, 1.0}, chain},             // chain C1
      {2, -0.06, 12, {6.3, 9.8, 0.4}, chain},             // C2 (the branch point)
      {2, -0.12, 12, {7.5, 9.0, 1.0}, chain},             // C3
      {2, -0.1, 12, {8.8 + 12.5, 9.7, 1.6}, {-2, 2, 0}},  // C4, stored outside the box
      {3, 0.06, 12, {6.35, 10.3, -0.35}, chain},          // H on C2, stored below z = 0
  };
}

/// Species, terms and coefficients (LAMMPS's order and units: angles in degrees).
inline io::TopologyOutput small_molecule_topology() {
  io::TopologyOutput out;
  out.species = core::SpeciesTable({{"OW", 0.0, 15.9994, 0},
                                    {"HW", 0.0, 1.008, 0},
                                    {"CT", 0.0, 13.019, 0},
                                    {"HC", 0.0, 1.008, 0}});
  core::Topology t(11);
  for (const auto& [type, i, j] : std::vector<std::array<int, 3>>{
           {0, 0, 1}, {0, 0, 2}, {0, 3, 4}, {0, 3, 5}, {1, 6, 7}, {1, 7, 8}, {1, 8, 9}, {2, 7, 10}})
    t.add_bond({type, {i, j}});
  for (const auto& [type, i, j, k] : std::vector<std::array<int, 4>>{
           {0, 1, 0, 2}, {0, 4, 3, 5}, {1, 6, 7, 8}, {1, 7, 8, 9}, {2, 6, 7, 10}, {2, 8, 7, 10}})
    t.add_angle({type, {i, j, k}});
  t.add_dihedral({0, {6, 7, 8, 9}});
  t.add_dihedral({1, {10, 7, 8, 9}});
  t.add_improper({0, {7, 6, 8, 10}});
  out.topology = t;
  auto& c = out.coefficients;
  c.pair_style = "lj/cut/coul/cut";
  c.lj_by_type = {io::LennardJonesCoefficients{0.1521, 3.1507, {}, {}},
                  io::LennardJonesCoefficients{0.046, 0.4, {}, {}},
                  io::LennardJonesCoefficients{0.0914, 3.905, {}, {}},
                  io::LennardJonesCoefficients{0.03, 2.5, {}, {}}};
  c.bond = io::StyleCoefficients{"harmonic", {{450.0, 0.9572}, {260.0, 1.526}, {340.0, 1.09}}};
  c.angle = io::StyleCoefficients{"harmonic", {{55.0, 104.52}, {63.0, 112.4}, {35.0, 109.5}}};
  c.dihedral = io::StyleCoefficients{"charmm", {{1.4, 3.0, 180.0, 0.0}, {0.3, 1.0, 0.0, 0.0}}};
  c.improper = io::StyleCoefficients{"harmonic", {{10.5, 12.5}}};
  return out;
}

/// The particles, in a shuffled storage order, with charges, molecule ids, image counts and
/// random velocities of assorted magnitudes (their shortest decimal forms are 17 digits long).
inline core::ParticleData small_molecule_particles() {
  const auto atoms = small_molecule_atoms();
  core::ParticleData p;
  p.resize(atoms.size());
  p.enable(p.charge);
  p.enable(p.molecule);
  p.enable(p.image);
  std::vector<std::int32_t> order(atoms.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 gen(2024);
  std::shuffle(order.begin(), order.end(), gen);
  std::normal_distribution<double> normal;
  for (std::size_t k = 0; k < atoms.size(); ++k) {
    const auto& a = atoms[static_cast<std::size_t>(order[k])];
    p.id[k] = order[k];
    p.type[k] = a.type;
    p.charge[k] = a.charge;
    p.molecule[k] = a.molecule;
    p.position.set(k, a.stored);
    p.image.set(k, a.image);
    p.velocity.set(k, {normal(gen) * 1e-3, normal(gen), normal(gen) * 1e3});
    p.force.set(k, {});
  }
  return p;
}

/// Unwrapped positions by id: stored + image x L.
inline std::vector<V3> unwrapped_positions(const core::ParticleData& p, const core::Box& box) {
  std::vector<V3> r(p.size());
  const auto& L = box.length();
  for (std::size_t k = 0; k < p.size(); ++k) {
    const I3 n = p.image.get(k);
    const V3 s = p.position.get(k);
    r[static_cast<std::size_t>(p.id[k])] = {s.x + n.x * L.x, s.y + n.y * L.y, s.z + n.z * L.z};
  }
  return r;
}

// ----- Energies as LAMMPS defines them (docs.lammps.org: bond_harmonic, angle_harmonic,
// dihedral_charmm, improper_harmonic, pair_lj_cut_coul) -----

inline double norm(const V3& a) {
  return std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z);
}
inline double dot(const V3& a, const V3& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline V3 cross(const V3& a, const V3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double radians(double degrees) {
  return degrees * std::numbers::pi / 180.0;
}

/// b - a, minimum image.
inline V3 separation(const V3& a, const V3& b, const core::Box& box) {
  return box.view<double>().minimum_image(V3{b.x - a.x, b.y - a.y, b.z - a.z});
}

/// The unsigned dihedral angle i-j-k-l (the angle between the planes i,j,k and j,k,l), which is
/// LAMMPS's improper harmonic chi and whose cosine the charmm dihedral uses.
inline double dihedral_angle(const std::vector<V3>& r, const std::array<std::int32_t, 4>& ids,
                             const core::Box& box) {
  const V3 b1 = separation(r[ids[0]], r[ids[1]], box);
  const V3 b2 = separation(r[ids[1]], r[ids[2]], box);
  const V3 b3 = separation(r[ids[2]], r[ids[3]], box);
  const V3 n1 = cross(b1, b2), n2 = cross(b2, b3);
  return std::acos(std::clamp(dot(n1, n2) / (norm(n1) * norm(n2)), -1.0, 1.0));
}

struct SmallMoleculeEnergies {
  double bond = 0, angle = 0, dihedral = 0, improper = 0, vdw = 0, coulomb = 0, kinetic = 0;
};

inline SmallMoleculeEnergies small_molecule_energies(const io::TopologyOutput& top,
                                                     const core::ParticleData& p,
                                                     const core::Box& box, double cutoff) {
  const std::vector<V3> r = unwrapped_positions(p, box);
  const auto& t = top.topology;
  const auto& c = top.coefficients;
  SmallMoleculeEnergies e;
  for (std::size_t k = 0; k < t.bonds().size(); ++k) {
    const auto b = t.bonds()[k];
    const auto& K = c.bond->by_type[b.type];
    const double dr = norm(separation(r[b.ids[0]], r[b.ids[1]], box)) - K[1];
    e.bond += K[0] * dr * dr;
  }
  for (std::size_t k = 0; k < t.angles().size(); ++k) {
    const auto a = t.angles()[k];
    const auto& K = c.angle->by_type[a.type];
    const V3 u = separation(r[a.ids[1]], r[a.ids[0]], box);
    const V3 v = separation(r[a.ids[1]], r[a.ids[2]], box);
    const double d = std::acos(dot(u, v) / (norm(u) * norm(v))) - radians(K[1]);
    e.angle += K[0] * d * d;
  }
  for (std::size_t k = 0; k < t.dihedrals().size(); ++k) {
    const auto d = t.dihedrals()[k];
    const auto& K = c.dihedral->by_type[d.type];  // K, n, d (0 or 180: even in phi), weight
    e.dihedral += K[0] * (1.0 + std::cos(K[1] * dihedral_angle(r, d.ids, box) - radians(K[2])));
  }
  for (std::size_t k = 0; k < t.impropers().size(); ++k) {
    const auto i = t.impropers()[k];
    const auto& K = c.improper->by_type[i.type];
    const double d = dihedral_angle(r, i.ids, box) - radians(K[1]);
    e.improper += K[0] * d * d;
  }
  const auto excluded = t.exclusions(core::kExcludedSeparations);
  std::vector<int> type(p.size());
  std::vector<double> q(p.size());
  for (std::size_t k = 0; k < p.size(); ++k) {
    type[static_cast<std::size_t>(p.id[k])] = p.type[k];
    q[static_cast<std::size_t>(p.id[k])] = p.charge[k];
    const V3 v = p.velocity.get(k);
    e.kinetic += 0.5 * top.species[p.type[k]].mass * dot(v, v);
  }
  for (std::int32_t i = 0; i < t.particle_count(); ++i)
    for (std::int32_t j = i + 1; j < t.particle_count(); ++j) {
      const double rij = norm(separation(r[i], r[j], box));
      if (excluded.contains(i, j) || rij >= cutoff) continue;
      const auto& a = *c.lj_by_type[type[i]];
      const auto& b = *c.lj_by_type[type[j]];
      const double eps = std::sqrt(a.epsilon * b.epsilon), sigma = std::sqrt(a.sigma * b.sigma);
      const double s6 = std::pow(sigma / rij, 6);
      e.vdw += 4.0 * eps * (s6 * s6 - s6);
      e.coulomb += q[i] * q[j] / rij;
    }
  return e;
}

}  // namespace novamd::test
