#include "novamd/forces/rigid_model.hpp"

#include <fmt/format.h>

#include <cmath>

#include "novamd/core/error.hpp"
#include "novamd/physics/point_multipoles.hpp"

namespace novamd::forces {
namespace {

struct LjSite {
  double epsilon, sigma;
  std::size_t component;
};

double mixing(const std::vector<double>& table, std::size_t components, std::size_t a,
              std::size_t b) {
  return table.empty() ? 1.0 : table[a * components + b];
}

/// xi or eta: empty, or one factor per pair of components, symmetric.
void check_mixing(const std::vector<double>& table, std::size_t components, const char* name) {
  if (table.empty()) return;
  if (table.size() != components * components)
    throw core::InputError(
        fmt::format("{} has {} entries; expected one per pair of the {} "
                    "components ({})",
                    name, table.size(), components, components * components));
  for (std::size_t a = 0; a < components; ++a)
    for (std::size_t b = 0; b < a; ++b)
      if (table[a * components + b] != table[b * components + a])
        throw core::InputError(fmt::format(
            "{} between components {} and {} differs from {} between {} and {}; expected the "
            "same factor both ways",
            name, a + 1, b + 1, name, b + 1, a + 1));
}

}  // namespace

RigidModel make_rigid_model(const std::vector<core::ResolvedComponent>& components,
                            const RigidModelSettings& settings) {
  check_mixing(settings.xi, components.size(), "xi");
  check_mixing(settings.eta, components.size(), "eta");
  if (settings.epsilon_rf && !settings.cutoff)
    throw core::InputError("a reaction field needs a cutoff (the continuum lies beyond it)");
  RigidModel model;
  model.coulomb_constant = settings.coulomb_constant;
  model.cutoff = settings.cutoff;
  if (settings.epsilon_rf && settings.cutoff)
    model.reaction_field = physics::reaction_field_factor(*settings.epsilon_rf, *settings.cutoff);
  std::vector<LjSite> lj_sites;
  for (std::size_t c = 0; c < components.size(); ++c) {
    std::vector<MoleculeSite<double>> sites;
    for (const core::ComponentSite& s : components[c].sites) {
      MoleculeSite<double> b{s.kind, s.position, s.direction, s.strength, 0};
      if (s.kind == core::SiteKind::LennardJones) {
        b.lj_type = static_cast<int>(lj_sites.size());
        lj_sites.push_back({s.epsilon, s.sigma, c});
      }
      sites.push_back(b);
    }
    model.sites.push_back(std::move(sites));
  }
  const std::size_t n = lj_sites.size();
  model.lj_types = static_cast<int>(n);
  model.lj.resize(n * n);
  model.lj_shift.assign(n * n, 0.0);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b) {
      const LjSite &i = lj_sites[a], &j = lj_sites[b];
      const double epsilon = mixing(settings.xi, components.size(), i.component, j.component) *
                             std::sqrt(i.epsilon * j.epsilon);
      const double sigma = mixing(settings.eta, components.size(), i.component, j.component) * 0.5 *
                           (i.sigma + j.sigma);
      model.lj[a * n + b] = physics::LennardJones<double>::make_params(epsilon, sigma);
      if (settings.shift && settings.cutoff) {
        const double rc2 = *settings.cutoff * *settings.cutoff;
        model.lj_shift[a * n + b] =
            -physics::LennardJones<double>::evaluate(rc2, model.lj[a * n + b]).energy;
      }
    }
  return model;
}

void place_all(const RigidModel& model, const core::ParticleData& particles, PlacedSites& into) {
  const std::size_t n = particles.size();
  into.start.resize(n + 1);
  into.start[0] = 0;
  for (std::size_t i = 0; i < n; ++i)
    into.start[i + 1] =
        into.start[i] + model.sites[static_cast<std::size_t>(particles.type[i])].size();
  into.sites.resize(into.start[n]);
  const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t ii = 0; ii < count; ++ii) {
    const auto i = static_cast<std::size_t>(ii);
    const auto& body = model.sites[static_cast<std::size_t>(particles.type[i])];
    place_sites(body.data(), static_cast<int>(body.size()), particles.orientation.get(i),
                into.sites.data() + into.start[i]);
  }
}

RigidTotals add_rigid_forces(const RigidModel& model, const core::ParticleData& particles,
                             const core::Box& box, core::Vec3Array& force,
                             core::Vec3Array& torque) {
  RigidTotals totals;
  const std::size_t n = particles.size();
  const auto view = box.view<double>();
  const RigidPairParams<double> params = model.params();
  PlacedSites placed;
  place_all(model, particles, placed);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      core::Vec3<double> r = particles.position.get(i) - particles.position.get(j);
      if (model.cutoff) {
        r = view.minimum_image(r);
        if (core::dot(r, r) >= *model.cutoff * *model.cutoff) continue;
      }
      const auto pair =
          molecule_pair(placed.of(i), placed.count(i), placed.of(j), placed.count(j), r, params);
      force.set(i, force.get(i) + pair.force_on_i);
      force.set(j, force.get(j) - pair.force_on_i);
      torque.set(i, torque.get(i) + pair.torque_on_i);
      torque.set(j, torque.get(j) + pair.torque_on_j);
      totals.energy += pair.energy;
      totals.virial.add_symmetrized_outer(r.x, r.y, r.z, pair.force_on_i.x, pair.force_on_i.y,
                                          pair.force_on_i.z);
    }
  }
  return totals;
}

}  // namespace novamd::forces
