#include "novamd/core/components.hpp"

#include <fmt/format.h>

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
  return out;
}

}  // namespace novamd::core
