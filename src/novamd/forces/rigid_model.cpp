#include "novamd/forces/rigid_model.hpp"

#include <fmt/format.h>

#include <cmath>

#include "novamd/core/error.hpp"
#include "novamd/forces/kspace_parameters.hpp"
#include "novamd/physics/point_multipoles.hpp"
#include "novamd/physics/site_tails.hpp"

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

/// Ewald and PME sum point charges: refuses dipoles and quadrupoles (their multipolar Ewald sum
/// is not implemented) and the reaction field (a continuum beyond the cutoff, which the
/// reciprocal sum replaces).
void check_kspace(const std::vector<core::ResolvedComponent>& components,
                  const RigidModelSettings& settings) {
  if (!settings.kspace) return;
  if (!settings.cutoff) throw core::InputError("rigid_sites.coulomb: Ewald and PME need a cutoff");
  if (!settings.kspace->ewald_split())
    throw core::InputError("rigid_sites.coulomb: method must be ewald or pme");
  if (settings.epsilon_rf)
    throw core::InputError(
        "rigid_sites: epsilon_rf with coulomb ewald or pme; expected one of them (the reciprocal "
        "sum replaces the reaction field)");
  if (const auto why = ewald_refusal(components))
    throw core::InputError("rigid_sites.coulomb: " + *why + "; expected " + kEwaldExpected);
}

}  // namespace

RigidModel make_rigid_model(const std::vector<core::ResolvedComponent>& components,
                            const RigidModelSettings& settings) {
  check_mixing(settings.xi, components.size(), "xi");
  check_mixing(settings.eta, components.size(), "eta");
  if (settings.epsilon_rf && !settings.cutoff)
    throw core::InputError("a reaction field needs a cutoff (the continuum lies beyond it)");
  check_kspace(components, settings);
  RigidModel model;
  model.coulomb_constant = settings.coulomb_constant;
  model.cutoff = settings.cutoff;
  if (settings.kspace) {
    CoulombSettings kspace = *settings.kspace;
    kspace.cutoff = *settings.cutoff;
    model.ewald_alpha = ewald_alpha(kspace);
  }
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

namespace {

/// One Lennard-Jones site pair's tail energy and virial times volume per molecule pair
/// (rigid_tail), sites at a and b from their centres.
std::pair<double, double> site_pair_tail(double epsilon, double sigma, double a, double b,
                                         double rc) {
  constexpr double kFourPi = 12.566370614359172953850573533118;
  const double s6 = std::pow(sigma, 6), s12 = s6 * s6;
  const double integral =
      4.0 * epsilon *
      (s12 * physics::tail_integral(rc, 12, a, b) - s6 * physics::tail_integral(rc, 6, a, b));
  const double at_cutoff = 4.0 * epsilon *
                           (s12 * physics::averaged_inverse_power(rc, 12, a, b) -
                            s6 * physics::averaged_inverse_power(rc, 6, a, b));
  return {kFourPi * integral, kFourPi * (rc * rc * rc * at_cutoff + 3.0 * integral)};
}

/// A component's dipole moment: its dipoles and its charges' q r about the centre.
core::Vec3<double> dipole_moment(const core::ResolvedComponent& c) {
  core::Vec3<double> m{};
  for (const auto& site : c.sites) {
    if (site.kind == core::SiteKind::Dipole) m += site.strength * site.direction;
    if (site.kind == core::SiteKind::Charge) m += site.strength * site.position;
  }
  return m;
}

}  // namespace

RigidTail rigid_tail(const std::vector<core::ResolvedComponent>& components,
                     const RigidModelSettings& settings, const std::vector<std::int64_t>& count) {
  RigidTail tail;
  if (!settings.tail_correction || !settings.cutoff) return tail;
  const double rc = *settings.cutoff;
  const std::size_t n = components.size();
  for (std::size_t c = 0; c < n && !settings.shift; ++c) {
    for (std::size_t d = 0; d < n; ++d) {
      const double pairs = 0.5 * static_cast<double>(count[c]) * static_cast<double>(count[d]);
      for (const auto& sa : components[c].sites) {
        if (sa.kind != core::SiteKind::LennardJones) continue;
        for (const auto& sb : components[d].sites) {
          if (sb.kind != core::SiteKind::LennardJones) continue;
          const double a = std::sqrt(core::dot(sa.position, sa.position));
          const double b = std::sqrt(core::dot(sb.position, sb.position));
          if (a + b >= rc)
            throw core::InputError(fmt::format(
                "rigid_sites.tail_correction: sites at {} and {} from the centres of {} and {} "
                "reach "
                "the cutoff {}; expected a cutoff beyond {} (the tails assume no pair of sites "
                "within it whose centres are beyond it)",
                a, b, components[c].name, components[d].name, rc, a + b));
          const double epsilon = mixing(settings.xi, n, c, d) * std::sqrt(sa.epsilon * sb.epsilon);
          const double sigma = mixing(settings.eta, n, c, d) * 0.5 * (sa.sigma + sb.sigma);
          const auto [u, w] = site_pair_tail(epsilon, sigma, a, b, rc);
          tail.energy_times_volume += pairs * u;
          tail.virial_times_volume += pairs * w;
        }
      }
    }
  }
  if (settings.epsilon_rf) {
    const double k_rf = physics::reaction_field_factor(*settings.epsilon_rf, rc);
    for (std::size_t c = 0; c < n; ++c) {
      const core::Vec3<double> m = dipole_moment(components[c]);
      tail.self_energy -=
          0.5 * settings.coulomb_constant * k_rf * core::dot(m, m) * static_cast<double>(count[c]);
    }
  }
  return tail;
}

}  // namespace novamd::forces
