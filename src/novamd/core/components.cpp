#include "novamd/core/components.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "novamd/core/error.hpp"

namespace novamd::core {
namespace {

/// The shape of sites held in their own frame, with the principal moments `inertia` given.
RigidShape given_shape(const Component& c, std::span<const Vec3<double>> positions,
                       std::span<const double> masses) {
  RigidShape shape = rigid_shape(positions, masses);
  shape.axes = {};
  shape.moments = *c.inertia;
  const int zero = (c.inertia->x == 0.0) + (c.inertia->y == 0.0) + (c.inertia->z == 0.0);
  if (zero == 1 && c.inertia->x != 0.0)
    throw InputError("a linear molecule's inertia is [0, I, I], its axis along x");
  shape.rotational_freedom = zero == 0 ? 3 : zero == 1 ? 2 : 0;
  shape.body.clear();
  for (const auto& p : positions) shape.body.push_back(p - shape.centre);
  return shape;
}

/// Sites closer than this share of the molecule's size to its axis or centre are on it (input
/// rounding); farther ones are not.
constexpr double kOnAxis = 1e-6;

bool has_direction(const ComponentSite& s) {
  return s.kind == SiteKind::Dipole || s.kind == SiteKind::Quadrupole;
}

double extent_of(const ResolvedComponent& c) {
  double extent = 0.0;
  for (const auto& s : c.sites) extent = std::max(extent, std::sqrt(dot(s.position, s.position)));
  return extent;
}

/// A linear molecule turns about two axes only: every site on its axis (body x) and every dipole
/// and quadrupole along it, else the turn about the axis would be lost. Puts them exactly there,
/// and gives I_2 and I_3 their mean (the exact turn takes one moment).
void hold_on_axis(ResolvedComponent& c) {
  const double extent = extent_of(c);
  for (std::size_t k = 0; k < c.sites.size(); ++k) {
    ComponentSite& s = c.sites[k];
    const double off = std::hypot(s.position.y, s.position.z);
    if (off > kOnAxis * extent)
      throw InputError(fmt::format(
          "site {} lies {:.3g} off the axis of a molecule whose masses lie on a line; the sites of "
          "a linear molecule lie on its axis (or give `inertia`)",
          k + 1, off));
    s.position = {s.position.x, 0.0, 0.0};
    if (!has_direction(s)) continue;
    if (std::hypot(s.direction.y, s.direction.z) > kOnAxis)
      throw InputError(fmt::format(
          "site {}'s direction is not along the axis of a molecule whose masses lie on a line; a "
          "linear molecule's dipoles and quadrupoles point along its axis (or give `inertia`)",
          k + 1));
    s.direction = {s.direction.x > 0.0 ? 1.0 : -1.0, 0.0, 0.0};
  }
  const double mean = 0.5 * (c.shape.moments.y + c.shape.moments.z);
  c.shape.moments = {0.0, mean, mean};
}

/// A molecule whose mass sits at one point does not turn: no site off that point, and no dipole
/// or quadrupole, which could not turn with it.
void hold_at_centre(ResolvedComponent& c) {
  for (std::size_t k = 0; k < c.sites.size(); ++k) {
    const ComponentSite& s = c.sites[k];
    if (std::sqrt(dot(s.position, s.position)) > 1e-12 || has_direction(s))
      throw InputError(fmt::format(
          "its mass sits at one point, so it cannot turn, but site {} {}; give its `inertia`",
          k + 1, has_direction(s) ? "has a direction" : "lies off that point"));
  }
}

}  // namespace

ResolvedComponent resolve_component(const Component& component) {
  if (component.sites.empty())
    throw InputError(fmt::format("component '{}' has no sites", component.name));
  std::vector<Vec3<double>> positions;
  std::vector<double> masses;
  for (const auto& site : component.sites) {
    positions.push_back(site.position);
    masses.push_back(site.mass);
  }
  ResolvedComponent out{component.name, {}, component.sites};
  try {
    out.shape = component.inertia ? given_shape(component, positions, masses)
                                  : rigid_shape(positions, masses);
  } catch (const InputError& e) {
    throw InputError(fmt::format("component '{}': {}", component.name, e.what()));
  }
  for (std::size_t k = 0; k < out.sites.size(); ++k) {
    out.sites[k].position = out.shape.body[k];
    out.sites[k].direction = rotate_back(out.shape.axes, component.sites[k].direction);
  }
  try {
    if (out.shape.rotational_freedom == 2) hold_on_axis(out);
    if (out.shape.rotational_freedom == 0) hold_at_centre(out);
  } catch (const InputError& e) {
    throw InputError(fmt::format("component '{}': {}", component.name, e.what()));
  }
  return out;
}

}  // namespace novamd::core
