#pragma once
/// @file site_frames.hpp
/// Trajectories of rigid molecules' sites (output.trajectory's `sites: true`): every site of each
/// molecule as a particle of its own, at its centre plus R(q) times its body-frame position, for
/// viewers that draw atoms (VMD) rather than oriented particles (OVITO's Orientation). Each
/// component's k-th site (from 1, in the order the component lists them) is the species
/// `<component>_<k>`.

#include <cstdint>
#include <span>
#include <vector>

#include "novamd/core/components.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/species.hpp"

namespace novamd::io {

class SiteFrames {
 public:
  explicit SiteFrames(const std::vector<core::ResolvedComponent>& components);

  /// One species per site of each component, in component order (the sites' masses).
  const core::SpeciesTable& species() const { return species_; }
  /// The sites of `molecules_per_component` molecules of each component.
  std::size_t count(std::span<const std::int64_t> molecules_per_component) const;
  /// The sites of `molecules` (positions, orientations and types; any order): each molecule's
  /// sites in turn, ids from 0 in that order. The result lives until the next call.
  const core::ParticleData& place(const core::ParticleData& molecules);

 private:
  std::vector<std::vector<core::Vec3<double>>> body_;  ///< per component, each site's position
  std::vector<std::int32_t> first_type_;               ///< per component, its first site's species
  core::SpeciesTable species_;
  core::ParticleData sites_;
};

}  // namespace novamd::io
