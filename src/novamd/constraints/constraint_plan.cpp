#include "novamd/constraints/constraint_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <numeric>
#include <optional>

#include "novamd/constraints/coupled_plan.hpp"
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
    if (const auto theta0 = theta0_at(h1, o, h2)) return *theta0;
    throw core::InputError(fmt::format(
        "constraints.water: the water of particles {}, {}, {} (ids) has neither an H-H bond nor "
        "an H-O-H angle to give its H-H distance",
        o, h1, h2));
  }

  /// Throws where bond b has no length (r0) to hold it at.
  void check_length(std::size_t b) const {
    if (!std::isnan(sources_.bond_length[b])) return;
    const auto& ids = topology_.bonds().ids;
    throw core::InputError(
        fmt::format("constraints.bonds: the bond {}-{} (ids) has no length to hold", ids[2 * b],
                    ids[2 * b + 1]));
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
      check_length(b);
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

  /// Each molecule's bonds not in `settled` as one coupled set, with CCMA's K^-1.
  std::vector<CoupledSet> coupled_sets(const std::vector<bool>& settled) const {
    const auto& bonds = topology_.bonds();
    std::vector<std::size_t> held;
    for (std::size_t b = 0; b < bonds.size(); ++b) {
      if (settled[bonds.ids[2 * b]] || settled[bonds.ids[2 * b + 1]]) continue;
      check_length(b);
      held.push_back(b);
    }
    std::vector<CoupledSet> sets;
    for (const auto& group : connected_groups(held)) sets.push_back(coupled_set_of(group));
    return sets;
  }

  /// The bonds of the listed types (the file's numbers) not in `settled`, each connected group
  /// as a cluster where it is a star of at most four bonds, else as a coupled set.
  void listed_bonds(const std::vector<bool>& settled, const std::vector<int>& types,
                    ConstraintPlan& plan) const {
    const auto& bonds = topology_.bonds();
    std::vector<bool> listed;
    for (const int t : types) {
      if (std::size_t(t) > listed.size()) listed.resize(std::size_t(t), false);
      listed[std::size_t(t - 1)] = true;
    }
    std::vector<bool> used(listed.size(), false);
    std::vector<std::size_t> held;
    for (std::size_t b = 0; b < bonds.size(); ++b) {
      const auto type = std::size_t(bonds.type[b]);
      if (type >= listed.size() || !listed[type]) continue;
      used[type] = true;
      const std::int32_t i = bonds.ids[2 * b], j = bonds.ids[2 * b + 1];
      if (settled[i] || settled[j]) continue;
      check_length(b);
      held.push_back(b);
    }
    for (const int t : types)
      if (!used[std::size_t(t - 1)])
        throw core::InputError(fmt::format(
            "constraints.bonds: no bond has type {} (types as the topology file numbers them, "
            "from 1)",
            t));
    for (auto& group : connected_groups(held)) {
      if (auto cluster = star_of(group)) {
        plan.clusters.push_back(*cluster);
      } else {
        plan.coupled.push_back(coupled_set_of(group));
      }
    }
    std::sort(
        plan.clusters.begin(), plan.clusters.end(),
        [](const HydrogenCluster& a, const HydrogenCluster& b) { return a.central < b.central; });
  }

  /// The bonds `held` grouped by the particles they connect (each group's bonds in order; the
  /// groups by their lowest id).
  std::vector<std::vector<std::size_t>> connected_groups(
      const std::vector<std::size_t>& held) const {
    const auto& ids = topology_.bonds().ids;
    std::vector<std::int32_t> root(std::size_t(topology_.particle_count()));
    std::iota(root.begin(), root.end(), 0);
    const auto find = [&](std::int32_t a) {
      while (root[a] != a) a = root[a] = root[root[a]];
      return a;
    };
    for (const std::size_t b : held) {
      const std::int32_t a = find(ids[2 * b]), c = find(ids[2 * b + 1]);
      if (a != c) root[std::max(a, c)] = std::min(a, c);  // the lowest id is the root
    }
    std::map<std::int32_t, std::vector<std::size_t>> by_root;
    for (const std::size_t b : held) by_root[find(ids[2 * b])].push_back(b);
    std::vector<std::vector<std::size_t>> groups;
    for (auto& [r, group] : by_root) groups.push_back(std::move(group));
    return groups;
  }

  /// The group as a cluster, if one particle is in every bond and there are at most four (one
  /// bond: its heavier particle, or its lower id, is the centre).
  std::optional<HydrogenCluster> star_of(const std::vector<std::size_t>& group) const {
    if (group.size() > std::size_t(HydrogenCluster::kMaxHydrogens)) return std::nullopt;
    const auto& ids = topology_.bonds().ids;
    std::int32_t centre = ids[2 * group[0]], other = ids[2 * group[0] + 1];
    if (group.size() == 1) {
      if (sources_.mass[other] > sources_.mass[centre] ||
          (sources_.mass[other] == sources_.mass[centre] && other < centre))
        std::swap(centre, other);
    } else {
      const std::int32_t next_i = ids[2 * group[1]], next_j = ids[2 * group[1] + 1];
      if (centre != next_i && centre != next_j) std::swap(centre, other);
    }
    HydrogenCluster c;
    c.central = centre;
    for (const std::size_t b : group) {
      const std::int32_t i = ids[2 * b], j = ids[2 * b + 1];
      if (i != centre && j != centre) return std::nullopt;
      const std::int32_t leaf = i == centre ? j : i;
      for (int k = 0; k < c.count; ++k)
        if (c.hydrogen[k] == leaf) return std::nullopt;  // a bond given twice
      c.hydrogen[c.count] = leaf;
      c.length[c.count] = sources_.bond_length[b];
      ++c.count;
    }
    return c;
  }

  /// The group's bonds as one coupled set, with CCMA's K^-1.
  CoupledSet coupled_set_of(const std::vector<std::size_t>& group) const {
    const auto& ids = topology_.bonds().ids;
    CoupledSet set;
    for (const std::size_t b : group) set.ids.insert(set.ids.end(), {ids[2 * b], ids[2 * b + 1]});
    std::sort(set.ids.begin(), set.ids.end());
    set.ids.erase(std::unique(set.ids.begin(), set.ids.end()), set.ids.end());
    const auto local = [&](std::int32_t id) {
      return int(std::lower_bound(set.ids.begin(), set.ids.end(), id) - set.ids.begin());
    };
    for (const std::size_t b : group)
      set.constraints.push_back(
          {local(ids[2 * b]), local(ids[2 * b + 1]), sources_.bond_length[b]});
    invert_coupling(set, sources_.mass, [&](std::int32_t p, std::int32_t x, std::int32_t q) {
      return std::cos(theta0_at(p, x, q).value_or(0.5 * std::numbers::pi));
    });
    return set;
  }

  /// theta0 of an angle term p-x-q (either way round), if the topology has one.
  std::optional<double> theta0_at(std::int32_t p, std::int32_t x, std::int32_t q) const {
    std::optional<double> theta0;
    for_each_term(angles_of_, x, 3, [&](std::size_t a, int place) {
      const auto t = topology_.angles()[a];
      if (place == 1 && ((t.ids[0] == p && t.ids[2] == q) || (t.ids[0] == q && t.ids[2] == p)) &&
          !std::isnan(sources_.angle_theta0[a]))
        theta0 = sources_.angle_theta0[a];
    });
    return theta0;
  }

  const core::Topology& topology_;
  const ConstraintSources& sources_;
  core::TermMemberships bonds_of_, angles_of_;  ///< each particle's bonds and angles
};

}  // namespace

std::size_t ConstraintPlan::constraint_count() const {
  std::size_t n = 3 * waters.size();
  for (const auto& c : clusters) n += std::size_t(c.count);
  for (const auto& set : coupled) n += set.constraints.size();
  return n;
}

core::HeldDistances held_distances_of(const ConstraintPlan& plan) {
  core::HeldDistances held;
  for (const auto& w : plan.waters) {
    held.hold(w.o, w.h1, w.geometry.d_oh);
    held.hold(w.o, w.h2, w.geometry.d_oh);
    held.hold(w.h1, w.h2, w.geometry.d_hh);
  }
  for (const auto& c : plan.clusters)
    for (int k = 0; k < c.count; ++k) held.hold(c.central, c.hydrogen[k], c.length[k]);
  for (const auto& set : plan.coupled)
    for (const auto& d : set.constraints)
      held.hold(set.ids[std::size_t(d.i)], set.ids[std::size_t(d.j)], d.length);
  return held;
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
  if (request.bonds == BondConstraints::AllBonds) plan.coupled = planner.coupled_sets(settled);
  if (request.bonds == BondConstraints::ListedTypes)
    planner.listed_bonds(settled, request.bond_types, plan);
  return plan;
}

}  // namespace novamd::constraints
