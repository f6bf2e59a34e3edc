#include "novamd/constraints/constraint_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "novamd/core/error.hpp"

namespace novamd::constraints {
namespace {

/// Calls visit(term, place) for each term of `members` (terms of `arity` particles) that holds
/// particle `id`, `place` its position in the term.
template <class Visit>
void for_each_term(const core::TermMemberships& members, std::int32_t id, int arity,
                   Visit&& visit) {
  for (std::int32_t k = members.offsets[id]; k < members.offsets[id + 1]; ++k)
    visit(std::size_t(members.entries[k] / arity), members.entries[k] % arity);
}

bool same(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

class Planner {
 public:
  Planner(const core::Topology& topology, const ConstraintSources& sources)
      : topology_(topology),
        sources_(sources),
        bonds_of_(core::memberships_of(topology.bonds(), topology.particle_count())),
        angles_of_(core::memberships_of(topology.angles(), topology.particle_count())) {
    if (sources.mass.size() != std::size_t(topology.particle_count()) ||
        sources.bond_length.size() != topology.bonds().size() ||
        sources.angle_theta0.size() != topology.angles().size())
      throw core::InputError(
          "constraints: the masses, bond lengths or angles do not match the "
          "topology's particles, bonds or angles");
  }

  bool hydrogen(std::int32_t id) const {
    return is_hydrogen(sources_.atomic_number.empty() ? 0 : sources_.atomic_number[id],
                       sources_.mass[id]);
  }
  std::int32_t other_end(std::size_t bond, std::int32_t id) const {
    const auto& ids = topology_.bonds().ids;
    return ids[2 * bond] == id ? ids[2 * bond + 1] : ids[2 * bond];
  }

  /// The molecule of these three ids as a water, if it is one (throws where it is one with an
  /// inconsistent geometry).
  std::optional<RigidWater> water(const std::vector<std::int32_t>& members) const {
    std::vector<std::int32_t> heavy, light;
    for (auto id : members) (hydrogen(id) ? light : heavy).push_back(id);
    if (heavy.size() != 1 || light.size() != 2) return std::nullopt;
    RigidWater w{heavy[0], light[0], light[1], {}};
    double oh[2] = {NAN, NAN}, hh = NAN;
    for_each_term(bonds_of_, w.o, 2, [&](std::size_t b, int) {
      oh[other_end(b, w.o) == w.h1 ? 0 : 1] = sources_.bond_length[b];
    });
    for_each_term(bonds_of_, w.h1, 2, [&](std::size_t b, int) {
      if (other_end(b, w.h1) == w.h2) hh = sources_.bond_length[b];
    });
    if (std::isnan(oh[0]) || std::isnan(oh[1]))
      throw core::InputError(fmt::format(
          "constraints.water: the water of particles {}, {}, {} (ids) lacks an O-H bond length",
          w.o, w.h1, w.h2));
    if (!same(oh[0], oh[1]) || !same(sources_.mass[w.h1], sources_.mass[w.h2]))
      throw core::InputError(fmt::format(
          "constraints.water: the water of particles {}, {}, {} (ids) has O-H lengths {} and {} "
          "and hydrogen masses {} and {}; SETTLE needs them equal",
          w.o, w.h1, w.h2, oh[0], oh[1], sources_.mass[w.h1], sources_.mass[w.h2]));
    if (std::isnan(hh)) hh = 2.0 * oh[0] * std::sin(0.5 * angle_at(w.o, w.h1, w.h2));
    w.geometry = {oh[0], hh, sources_.mass[w.o], sources_.mass[w.h1]};
    return w;
  }

  /// theta0 of the angle h1-o-h2 (throws where there is none).
  double angle_at(std::int32_t o, std::int32_t h1, std::int32_t h2) const {
    double theta0 = NAN;
    for_each_term(angles_of_, o, 3, [&](std::size_t a, int place) {
      const auto t = topology_.angles()[a];
      if (place == 1 && (t.ids[0] == h1 || t.ids[0] == h2) && (t.ids[2] == h1 || t.ids[2] == h2) &&
          !std::isnan(sources_.angle_theta0[a]))
        theta0 = sources_.angle_theta0[a];
    });
    if (!std::isnan(theta0)) return theta0;
    throw core::InputError(fmt::format(
        "constraints.water: the water of particles {}, {}, {} (ids) has neither an H-H bond nor "
        "an H-O-H angle to give its H-H distance",
        o, h1, h2));
  }

  /// Clusters of the bonds to hydrogens not in `settled`.
  std::vector<HydrogenCluster> hydrogen_clusters(const std::vector<bool>& settled) const {
    std::map<std::int32_t, HydrogenCluster> by_central;
    const auto& bonds = topology_.bonds();
    std::vector<std::int32_t> held_by(std::size_t(topology_.particle_count()), -1);
    for (std::size_t b = 0; b < bonds.size(); ++b) {
      const std::int32_t i = bonds.ids[2 * b], j = bonds.ids[2 * b + 1];
      if (settled[i] || settled[j] || (!hydrogen(i) && !hydrogen(j))) continue;
      if (hydrogen(i) && hydrogen(j))
        throw core::InputError(fmt::format(
            "constraints.bonds: h_bonds: particles {} and {} (ids) are two hydrogens bonded to "
            "each other outside a water; clusters of one heavy atom cannot hold that bond",
            i, j));
      const std::int32_t h = hydrogen(i) ? i : j, central = hydrogen(i) ? j : i;
      if (held_by[h] >= 0)
        throw core::InputError(fmt::format(
            "constraints.bonds: h_bonds: hydrogen {} (id) is bonded to both {} and {}; a "
            "hydrogen may belong to one cluster only",
            h, held_by[h], central));
      held_by[h] = central;
      if (std::isnan(sources_.bond_length[b]))
        throw core::InputError(
            fmt::format("constraints.bonds: the bond {}-{} (ids) has no length to hold", i, j));
      auto& c = by_central[central];
      c.central = central;
      if (c.count == HydrogenCluster::kMaxHydrogens)
        throw core::InputError(fmt::format(
            "constraints.bonds: h_bonds: particle {} (id) has more than {} bonded hydrogens",
            central, HydrogenCluster::kMaxHydrogens));
      c.hydrogen[c.count] = h;
      c.length[c.count] = sources_.bond_length[b];
      ++c.count;
    }
    std::vector<HydrogenCluster> clusters;
    for (auto& [central, c] : by_central) clusters.push_back(c);
    return clusters;
  }

  const core::Topology& topology_;
  const ConstraintSources& sources_;
  core::TermMemberships bonds_of_, angles_of_;  ///< each particle's bonds and angles
};

}  // namespace

std::size_t ConstraintPlan::constraint_count() const {
  std::size_t n = 3 * waters.size();
  for (const auto& c : clusters) n += std::size_t(c.count);
  return n;
}

std::vector<double> masses_by_id(const core::ParticleData& particles,
                                 const core::SpeciesTable& species) {
  std::vector<double> mass(particles.size());
  for (std::size_t i = 0; i < particles.size(); ++i)
    mass[std::size_t(particles.id[i])] =
        particles.mass.empty() ? species[particles.type[i]].mass : particles.mass[i];
  return mass;
}

std::vector<int> atomic_numbers_by_id(const core::ParticleData& particles,
                                      const core::SpeciesTable& species) {
  std::vector<int> z(particles.size());
  for (std::size_t i = 0; i < particles.size(); ++i)
    z[std::size_t(particles.id[i])] = species[particles.type[i]].atomic_number;
  return z;
}

ConstraintPlan plan_constraints(const core::Topology& topology, const ConstraintSources& sources,
                                const ConstraintRequest& request) {
  if (request.bonds == BondConstraints::AllBonds)
    throw core::InputError(
        "constraints.bonds: all_bonds needs the coupled-constraint solver, which this version "
        "does not have; use h_bonds (bonds to hydrogens) or none");
  ConstraintPlan plan;
  const Planner planner(topology, sources);
  std::vector<bool> settled(std::size_t(topology.particle_count()), false);
  if (request.rigid_water) {
    for (const auto& m : topology.molecules().members()) {
      if (m.size() != 3) continue;
      if (const auto w = planner.water(m)) {
        plan.waters.push_back(*w);
        settled[w->o] = settled[w->h1] = settled[w->h2] = true;
      }
    }
    std::sort(plan.waters.begin(), plan.waters.end(),
              [](const RigidWater& a, const RigidWater& b) { return a.o < b.o; });
  }
  if (request.bonds == BondConstraints::HydrogenBonds)
    plan.clusters = planner.hydrogen_clusters(settled);
  return plan;
}

}  // namespace novamd::constraints
