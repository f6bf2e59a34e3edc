#pragma once
/// @file molecule_scaling.hpp
/// A barostat's move of whole molecules: each molecule's centre of mass c scales with the box
/// edges (c_a -> c_a L'_a / L_a) and its particles move with it, by (L'_a / L_a - 1) c_a, so
/// that the molecule keeps its shape (its held distances, its rigid geometry). The centre is
/// found from the particles unwrapped one after another in id order (a protein may span more
/// than half the box; particles of consecutive ids may not be that far apart); the moved
/// particles are wrapped into the new box, their periodic images counted. Two host-device passes
/// (backend/for_each_particle.hpp): one per molecule, then one per particle.

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

/// The centre of mass of molecule m into centre[m], from its particles unwrapped one after the
/// other in id order (each by the minimum image from the one before: a molecule may span more
/// than half the box, consecutive ids may not); each particle's unwrapping, x_i - u_i (whole box
/// lengths), into offset[slot]. Particles are found by id through slot_of_id (their storage
/// slot).
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
    core::Vec3<double> before = position.get(slot_of_id[member_id[offset_of[m]]]);
    core::Vec3<double> unwrapped = before;  // the first particle's frame
    core::Vec3<double> moment{0.0, 0.0, 0.0};
    double total = 0.0;
    for (int k = offset_of[m]; k < offset_of[m + 1]; ++k) {
      const int i = slot_of_id[member_id[k]];
      const auto x = position.get(i);
      const auto step = box.minimum_image({x.x - before.x, x.y - before.y, x.z - before.z});
      unwrapped = {unwrapped.x + step.x, unwrapped.y + step.y, unwrapped.z + step.z};
      before = x;
      offset[i] = {x.x - unwrapped.x, x.y - unwrapped.y, x.z - unwrapped.z};
      const double w = mass[type[i]];
      moment.x += w * unwrapped.x;
      moment.y += w * unwrapped.y;
      moment.z += w * unwrapped.z;
      total += w;
    }
    centre[m] = {moment.x / total, moment.y / total, moment.z / total};
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
