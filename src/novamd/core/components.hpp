#pragma once
/// @file components.hpp
/// Rigid multi-centre molecules as a config declares them (`system.components`, seed 001): each
/// component a name and its sites in any frame of its own (Lennard-Jones centres with a mass,
/// point charges, point dipoles and linear point quadrupoles), resolved here into its principal
/// frame (core/rigid_shape.hpp).

#include <optional>
#include <string>
#include <vector>

#include "novamd/core/rigid_shape.hpp"
#include "novamd/core/site_kind.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::core {

/// One site as declared.
struct ComponentSite {
  SiteKind kind = SiteKind::LennardJones;
  Vec3<double> position;   ///< in the component's own frame (length)
  Vec3<double> direction;  ///< dipoles and quadrupoles: a unit vector in that frame
  double epsilon = 0.0;    ///< Lennard-Jones: energy
  double sigma = 0.0;      ///< Lennard-Jones: length
  double mass = 0.0;       ///< any site may carry mass; Lennard-Jones sites usually do
  double strength = 0.0;   ///< a charge's q, a dipole's mu, a quadrupole's Q
};

/// One component as declared.
struct Component {
  std::string name;
  std::vector<ComponentSite> sites;
  /// Principal moments given instead of computed (a point mass with a dipole, as ls1-mardyn's
  /// Stockmayer models declare them): the sites' frame is then the body frame.
  std::optional<Vec3<double>> inertia;
};

/// A component in its body frame: the shape, and its sites moved there (positions and
/// directions).
struct ResolvedComponent {
  std::string name;
  RigidShape shape;
  std::vector<ComponentSite> sites;  ///< positions from the centre of mass, in the body frame
};

/// `component` in its principal frame, or with its given inertia.
/// @throws core::InputError (massless, negative masses; messages name the component).
ResolvedComponent resolve_component(const Component& component);

}  // namespace novamd::core
