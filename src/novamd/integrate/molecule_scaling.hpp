#pragma once
/// @file molecule_scaling.hpp
/// A barostat's move of whole molecules: each molecule's centre of mass c scales with the box
/// edges (c_a -> c_a L'_a / L_a) and its particles move with it, by (L'_a / L_a - 1) c_a, so
/// that the molecule keeps its shape (its held distances, its rigid geometry). The centre is
/// found from the particles unwrapped around the molecule's first one by the minimum image
/// (molecules shorter than half the box: DESIGN's limit for bonded terms too); the moved
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

/// The centre of mass of molecule m into centre[m] (in the frame of its first particle: it may
/// lie outside the box). Particles are found by id through slot_of_id (their storage slot).
struct MoleculeCentre {
  const std::int32_t* offset;
  const std::int32_t* member_id;
  const std::int32_t* slot_of_id;
  const std::int32_t* type;
  const double* mass;  ///< per type
  Vec3Pointers position;
  core::BoxView<double> box;  ///< the box before the move
  core::Vec3<double>* centre;

  NOVAMD_HD void operator()(int m) const {
    const int first = slot_of_id[member_id[offset[m]]];
    const core::Vec3<double> origin = position.get(first);
    core::Vec3<double> moment{0.0, 0.0, 0.0};
    double total = 0.0;
    for (int k = offset[m]; k < offset[m + 1]; ++k) {
      const int i = slot_of_id[member_id[k]];
      const double w = mass[type[i]];
      const auto x = position.get(i);
      const auto d = box.minimum_image({x.x - origin.x, x.y - origin.y, x.z - origin.z});
      moment.x += w * d.x;
      moment.y += w * d.y;
      moment.z += w * d.z;
      total += w;
    }
    centre[m] = {origin.x + moment.x / total, origin.y + moment.y / total,
                 origin.z + moment.z / total};
  }
};

/// Moves particle i with its molecule: by (ratio - 1) times the molecule's centre as seen from
/// the particle's periodic image (c_i = x_i - minimum image of x_i - c), so that the particle
/// keeps its offset from the moved centre whatever image of the molecule it sits in (a lone
/// particle is scaled as x_i ratio); wrapped into the new box, its crossings counted.
struct MoveWithMolecule {
  const std::int32_t* id;
  const std::int32_t* molecule_of_id;
  const core::Vec3<double>* centre;
  Vec3Pointers position;
  Int3Pointers image;
  core::BoxView<double> from;  ///< the box before the move
  core::BoxView<double> to;    ///< the box after the move
  core::Vec3<double> ratio;

  NOVAMD_HD void operator()(int i) const {
    const auto c = centre[molecule_of_id[id[i]]];
    const auto x = position.get(i);
    const auto d = from.minimum_image({x.x - c.x, x.y - c.y, x.z - c.z});
    const core::Vec3<double> moved{x.x + (ratio.x - 1.0) * (x.x - d.x),
                                   x.y + (ratio.y - 1.0) * (x.y - d.y),
                                   x.z + (ratio.z - 1.0) * (x.z - d.z)};
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
