#pragma once
/// @file ls1_phase_space.hpp
/// ls1-mardyn's ASCII phase-space files (its `io/ASCIIReader.cpp`, the molecule section): tokens
/// up to `NumberOfMolecules N` are a header this reader skips (ls1's own header lines, or an
/// older file's box and components, which the config gives here), then optionally
/// `MoleculeFormat ICRVQD | ICRV | IRV`, then one line per molecule:
///
///     ICRVQD: id cid x y z vx vy vz qw qx qy qz Dx Dy Dz
///     ICRV:   id cid x y z vx vy vz
///     IRV:    id x y z vx vy vz
///
/// with cid the component (from 1), q the orientation (ls1 normalises it; body to space, the
/// Hamilton convention of core/quaternion.hpp) and D the angular momentum in the space frame.
///
/// ls1 places a molecule's sites as given in its component, about the molecule's position; this
/// engine moves them to the centre of mass and turns them into the principal frame
/// (core/components.hpp). `to_body_frames` converts: x = r + R(q) c and q' = q a for the
/// component's centre c and axes a, and L = R(q')^T D (its part about a linear molecule's axis
/// dropped, all of it for a point). Positions and orientations convert exactly. Velocities and
/// angular momenta do where the component's sites are given about their centre of mass in their
/// principal frame, as ls1-mardyn assumes (it takes the diagonal of the inertia about the
/// sites' origin); otherwise the centre moves at v + w x R(q) c, which this does not add.

#include <cstdint>
#include <filesystem>
#include <vector>

#include "novamd/core/components.hpp"
#include "novamd/core/quaternion.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::io {

struct Ls1Molecule {
  std::int64_t id = 0;
  int component = 0;  ///< from 0
  core::Vec3<double> position, velocity;
  core::Quaternion<double> orientation;  ///< normalised
  core::Vec3<double> angular_momentum;   ///< space frame
};

/// The molecules of `file`. @throws core::InputError naming the file and line of what it cannot
/// read.
std::vector<Ls1Molecule> read_ls1_phase_space(const std::filesystem::path& file);

/// A molecule in this engine's frame of its component: centre of mass, orientation of the
/// principal frame, angular momentum in the body frame.
struct BodyState {
  core::Vec3<double> centre;
  core::Quaternion<double> orientation;
  core::Vec3<double> angular_momentum;
};
BodyState to_body_frame(const Ls1Molecule& molecule, const core::ResolvedComponent& component);

}  // namespace novamd::io
