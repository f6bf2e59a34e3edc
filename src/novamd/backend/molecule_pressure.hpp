#pragma once
/// @file molecule_pressure.hpp
/// The pressure of a system whose barostat moves molecules by their centres of mass (molecules
/// held by constraints: integrate/molecule_scaling.hpp): the molecular pressure
///
///     P_ab = (2 K^c_ab + W^c_ab) / V,   K^c_ab = 1/2 sum_m M_m V_m,a V_m,b,
///     W^c_ab = sum_m R_m,a F_m,b = W_ab - C_ab,   C_ab = sum_i (x_i - R_m(i))_a f_i,b,
///
/// with R_m, V_m, M_m and F_m the molecule's centre of mass, its velocity, mass and total force,
/// and W the particles' virial (sum over pairs of r_ij,a f_ij,b) without the constraint forces:
/// those add up to zero within each molecule, so their share of W^c is zero, and their share of W
/// equals their share of C (Allen and Tildesley, Computer Simulation of Liquids, 2nd ed., section
/// 2.4; the form GROMACS and LAMMPS's compute pressure/molecular use). W^c_aa is -dU/d(ln L_a)
/// under the moves that scale the centres, which is what the barostat's equations need; its
/// average equals the atomic pressure's.
///
/// MoleculePressureShares gives one molecule's shares of 2 K^c (scalar and tensor) and of C (its
/// scalar 0), host-device: the CPU backend sums both in one pass in molecule order, the CUDA
/// backend both in one segment sum (segment_sums.cuh), its partials added in block order.

#include <cstdint>

#include "novamd/backend/particle_terms.hpp"
#include "novamd/core/box.hpp"
#include "novamd/core/host_device.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/integrate/molecule_scaling.hpp"

namespace novamd::backend {

struct MoleculePressureShares {
  const std::int32_t* offset_of = nullptr;  ///< integrate::MoleculeRows::offset
  const std::int32_t* member_id = nullptr;
  const std::int32_t* slot_of_id = nullptr;
  const std::int32_t* type = nullptr;
  const double* mass = nullptr;  ///< per type
  double mvv_to_energy = 1.0;    ///< mass times velocity squared to energy
  integrate::Vec3Pointers position{}, velocity{}, force{};
  core::BoxView<double> box{};

  /// Molecule m's share of 2 K^c (M V^2 and M V_a V_b in energy units) and of C (0 and C_ab,
  /// symmetrized; orthorhombic moves read its diagonal).
  struct Parts {
    ScalarAndTensor twice_kinetic, internal_virial;
  };
  NOVAMD_HD Parts parts(int m) const {
    double total = 0.0;
    core::Vec3<double> moment{0.0, 0.0, 0.0}, momentum{0.0, 0.0, 0.0}, net{0.0, 0.0, 0.0};
    core::SymmetricTensor<double> place_force;  // sum_i d_i (x) f_i, d from the first particle
    integrate::visit_unwrapped_members(
        offset_of, member_id, slot_of_id, position, box, m,
        [&](int i, const core::Vec3<double>& d) {
          const double w = mass[type[i]];
          const auto v = velocity.get(i);
          const auto f = force.get(i);
          total += w;
          moment = {moment.x + w * d.x, moment.y + w * d.y, moment.z + w * d.z};
          momentum = {momentum.x + w * v.x, momentum.y + w * v.y, momentum.z + w * v.z};
          net = {net.x + f.x, net.y + f.y, net.z + f.z};
          place_force.add_symmetrized_outer(d.x, d.y, d.z, f.x, f.y, f.z);
        });
    Parts out{};
    const core::Vec3<double> V{momentum.x / total, momentum.y / total, momentum.z / total};
    const double M = total * mvv_to_energy;
    core::SymmetricTensor<double> t;
    t.add_outer(M, V.x, V.y, V.z);
    out.twice_kinetic.v[0] = M * (V.x * V.x + V.y * V.y + V.z * V.z);
    // C = sum_i (d_i - r) (x) f_i with r the centre relative to the first particle.
    const core::Vec3<double> r{moment.x / total, moment.y / total, moment.z / total};
    place_force.add_symmetrized_outer(-r.x, -r.y, -r.z, net.x, net.y, net.z);
    for (int k = 0; k < core::kTensorComponents; ++k) {
      out.twice_kinetic.v[1 + k] = t.c[k];
      out.internal_virial.v[1 + k] = place_force.c[k];
    }
    return out;
  }
};

/// Both parts summed componentwise (a reduction over molecules of both at once).
struct AddMoleculePressureParts {
  NOVAMD_HD MoleculePressureShares::Parts operator()(const MoleculePressureShares::Parts& a,
                                                     const MoleculePressureShares::Parts& b) const {
    const AddScalarAndTensor add;
    return {add(a.twice_kinetic, b.twice_kinetic), add(a.internal_virial, b.internal_virial)};
  }
};

/// Molecule m's parts as the one segment of a segment sum (segment_sums.cuh).
struct MoleculePartsOfSegment {
  MoleculePressureShares shares;
  NOVAMD_HD MoleculePressureShares::Parts operator()(int /*segment*/, int m) const {
    return shares.parts(m);
  }
};

}  // namespace novamd::backend
