#pragma once
/// @file molecule_scaling.hpp
/// A barostat's move of whole molecules: each molecule's centre of mass c scales with the box
/// edges (c_a -> c_a L'_a / L_a) and its particles move with it, by (L'_a / L_a - 1) c_a, so
/// that the molecule keeps its shape (its held distances, its rigid geometry). The centre is
/// found from the particles unwrapped one after another in id order (a protein may span more
/// than half the box; particles of consecutive ids may not be that far apart); the moved
/// particles are wrapped into the new box, their periodic images counted. Two host-device passes
/// (backend/for_each_particle.hpp): one per molecule, then one per particle. The velocities are
/// scaled the same way: each molecule's centre-of-mass velocity, the motion within it untouched.

#include <cstdint>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/host_device.hpp"
#include "novamd/core/topology.hpp"
#include "novamd/integrate/vec3_pointers.hpp"

namespace novamd::integrate {

/// The molecules' members by id, as compressed rows: the ids of molecule m are
/// member_id[offset[m] .. offset[m + 1]); and each id's molecule.
struct MoleculeRows {
  std::vector<std::int32_t> offset, member_id, molecule_of_id;

  std::size_t count() const { return offset.empty() ? 0 : offset.size() - 1; }
  static MoleculeRows of(const core::Molecules& molecules) {
    MoleculeRows rows;
    rows.molecule_of_id = molecules.of_id;
    rows.offset.push_back(0);
    for (const auto& members : molecules.members()) {
      rows.member_id.insert(rows.member_id.end(), members.begin(), members.end());
      rows.offset.push_back(static_cast<std::int32_t>(rows.member_id.size()));
    }
    return rows;
  }
};

/// Visits the particles of molecule m in id order, each unwrapped from the one before by the
/// minimum image (a molecule may span more than half the box, consecutive ids may not):
/// visit(i, d) with i the particle's storage slot (slot_of_id) and d its unwrapped place
/// relative to the molecule's first particle, whose slot comes back.
template <class Visit>
NOVAMD_HD int visit_unwrapped_members(const std::int32_t* offset_of, const std::int32_t* member_id,
                                      const std::int32_t* slot_of_id, const Vec3Pointers& position,
                                      const core::BoxView<double>& box, int m, Visit&& visit) {
  const int first = slot_of_id[member_id[offset_of[m]]];
  core::Vec3<double> before = position.get(first);
  core::Vec3<double> d{0.0, 0.0, 0.0};
  for (int k = offset_of[m]; k < offset_of[m + 1]; ++k) {
    const int i = slot_of_id[member_id[k]];
    const auto x = position.get(i);
    const auto step = box.minimum_image({x.x - before.x, x.y - before.y, x.z - before.z});
    d = {d.x + step.x, d.y + step.y, d.z + step.z};
    before = x;
    visit(i, d);
  }
  return first;
}

/// The centre of mass of molecule m into centre[m], from its particles unwrapped one after the
/// other (visit_unwrapped_members); each particle's unwrapping, x_i - u_i (whole box lengths),
/// into offset[slot].
struct MoleculeCentre {
  const std::int32_t* offset_of;  ///< the compressed rows' starts (MoleculeRows::offset)
  const std::int32_t* member_id;
  const std::int32_t* slot_of_id;
  const std::int32_t* type;
  const double* mass;  ///< per type
  Vec3Pointers position;
  core::BoxView<double> box;  ///< the box before the move
  core::Vec3<double>* centre;
  core::Vec3<double>* offset;  ///< per storage slot

  NOVAMD_HD void operator()(int m) const {
    const int first_slot = slot_of_id[member_id[offset_of[m]]];
    const auto first = position.get(first_slot);
    core::Vec3<double> moment{0.0, 0.0, 0.0};
    double total = 0.0;
    visit_unwrapped_members(
        offset_of, member_id, slot_of_id, position, box, m,
        [&](int i, const core::Vec3<double>& d) {
          const auto x = position.get(i);
          offset[i] = {x.x - (first.x + d.x), x.y - (first.y + d.y), x.z - (first.z + d.z)};
          const double w = mass[type[i]];
          moment = {moment.x + w * d.x, moment.y + w * d.y, moment.z + w * d.z};
          total += w;
        });
    centre[m] = {first.x + moment.x / total, first.y + moment.y / total,
                 first.z + moment.z / total};
  }
};

/// The centre-of-mass velocity of molecule m into out[m].
struct MoleculeVelocity {
  const std::int32_t* offset_of;
  const std::int32_t* member_id;
  const std::int32_t* slot_of_id;
  const std::int32_t* type;
  const double* mass;  ///< per type
  Vec3Pointers velocity;
  core::Vec3<double>* out;

  NOVAMD_HD void operator()(int m) const {
    core::Vec3<double> momentum{0.0, 0.0, 0.0};
    double total = 0.0;
    for (int k = offset_of[m]; k < offset_of[m + 1]; ++k) {
      const int i = slot_of_id[member_id[k]];
      const auto v = velocity.get(i);
      const double w = mass[type[i]];
      momentum = {momentum.x + w * v.x, momentum.y + w * v.y, momentum.z + w * v.z};
      total += w;
    }
    out[m] = {momentum.x / total, momentum.y / total, momentum.z / total};
  }
};

/// Scales the centre-of-mass velocity V of particle i's molecule by `factor` axis by axis:
/// v_i += (factor - 1) V, which leaves the velocities within the molecule (and so the velocity
/// condition of its held distances) as they were; a lone particle's velocity is scaled.
struct ScaleWithMoleculeVelocity {
  const std::int32_t* id;
  const std::int32_t* molecule_of_id;
  const core::Vec3<double>* molecule_velocity;
  Vec3Pointers velocity;
  core::Vec3<double> factor;

  NOVAMD_HD void operator()(int i) const {
    const auto c = molecule_velocity[molecule_of_id[id[i]]];
    const auto v = velocity.get(i);
    velocity.set(i, {v.x + (factor.x - 1.0) * c.x, v.y + (factor.y - 1.0) * c.y,
                     v.z + (factor.z - 1.0) * c.z});
  }
};

/// Moves particle i with its molecule: by (ratio - 1) times the molecule's centre as seen from
/// the particle's periodic image (c_i = c + x_i - u_i, MoleculeCentre's offset), so that the
/// particle keeps its place in the molecule whatever image it sits in (a lone particle is
/// scaled as x_i ratio); wrapped into the new box, its crossings counted.
struct MoveWithMolecule {
  const std::int32_t* id;
  const std::int32_t* molecule_of_id;
  const core::Vec3<double>* centre;
  const core::Vec3<double>* offset;  ///< per storage slot
  Vec3Pointers position;
  Int3Pointers image;
  core::BoxView<double> to;  ///< the box after the move
  core::Vec3<double> ratio;

  NOVAMD_HD void operator()(int i) const {
    const auto c = centre[molecule_of_id[id[i]]];
    const auto o = offset[i];
    const auto x = position.get(i);
    const core::Vec3<double> moved{x.x + (ratio.x - 1.0) * (c.x + o.x),
                                   x.y + (ratio.y - 1.0) * (c.y + o.y),
                                   x.z + (ratio.z - 1.0) * (c.z + o.z)};
    if (image.present()) {
      auto crossed = image.get(i);
      position.set(i, to.wrap(moved, crossed));
      image.set(i, crossed);
    } else {
      position.set(i, to.wrap(moved));
    }
  }
};

/// slot_of_id[id[i]] = i.
struct SlotsOfIds {
  const std::int32_t* id;
  std::int32_t* slot_of_id;
  NOVAMD_HD void operator()(int i) const { slot_of_id[id[i]] = i; }
};

}  // namespace novamd::integrate
