#pragma once
/// @file cuda_rigid_kspace.cuh
/// The reciprocal part of rigid molecules' Ewald or PME on the GPU (forces/rigid_kspace.hpp has
/// the split and the formulas): a kernel places every molecule's charge slots in space (double),
/// the atomic reciprocal term (cuda_kspace_term.cuh, without a real space) sums over them on its
/// side stream, and a kernel folds each molecule's slots, in slot order, into its force, torque,
/// energy and molecular virial. No atomics beyond the mesh's integer ones: bitwise repeatable.
/// Included by forces/cuda_rigid_molecules.cu alone.

#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/quaternion.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/forces/cuda_force_term.cuh"
#include "novamd/forces/cuda_kspace_term.cuh"
#include "novamd/forces/rigid_kspace.hpp"

namespace novamd::forces {

/// A body-frame charge slot (ChargeSlots): offset from the centre and charge.
struct SlotSite {
  double x, y, z, q;
};

/// Molecule i's slots in space: x, y, z and q of slots i stride .. (i + 1) stride.
template <class T>
__global__ void place_charge_slots_kernel(const neighbors::PairPosition<T>* __restrict__ pos, int n,
                                          DeviceFieldView f, const SlotSite* __restrict__ body,
                                          int stride, double* __restrict__ x,
                                          double* __restrict__ y, double* __restrict__ z,
                                          double* __restrict__ q) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const core::Quaternion<double> turn{f.qw[i], f.qx[i], f.qy[i], f.qz[i]};
  const SlotSite* b = body + std::size_t(pos[i].type) * stride;
  for (int k = 0; k < stride; ++k) {
    const auto d = core::rotate(turn, core::Vec3<double>{b[k].x, b[k].y, b[k].z});
    const std::size_t s = std::size_t(i) * stride + k;
    x[s] = f.x[i] + d.x;
    y[s] = f.y[i] + d.y;
    z[s] = f.z[i] + d.z;
    q[s] = b[k].q;
  }
}

/// Adds molecule i's slots' reciprocal forces to its force, their lever arms' torques to its
/// torque and, with kEnergy, their energies and its E_intra to its energy and their virials less
/// sum d (x) f (symmetrised) to its virial.
template <class T, bool kEnergy>
__global__ void fold_charge_slots_kernel(const neighbors::PairPosition<T>* __restrict__ pos, int n,
                                         DeviceFieldView f, const SlotSite* __restrict__ body,
                                         int stride, const double* __restrict__ intramolecular,
                                         neighbors::ForceOutputView slots,
                                         neighbors::ForceOutputView out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const core::Quaternion<double> turn{f.qw[i], f.qx[i], f.qy[i], f.qz[i]};
  const int type = pos[i].type;
  const SlotSite* b = body + std::size_t(type) * stride;
  core::Vec3<double> force{}, torque{};
  double energy = kEnergy ? intramolecular[type] : 0.0;
  core::SymmetricTensor<double> virial;
  for (int k = 0; k < stride; ++k) {
    const std::size_t s = std::size_t(i) * stride + k;
    const auto d = core::rotate(turn, core::Vec3<double>{b[k].x, b[k].y, b[k].z});
    const core::Vec3<double> fs{slots.fx[s], slots.fy[s], slots.fz[s]};
    force += fs;
    torque += core::cross(d, fs);
    if constexpr (kEnergy) {
      energy += slots.energy[s];
#pragma unroll
      for (int c = 0; c < core::kTensorComponents; ++c) virial.c[c] += slots.virial[c][s];
      virial.add_symmetrized_outer(-d.x, -d.y, -d.z, fs.x, fs.y, fs.z);
    }
  }
  out.fx[i] += force.x;
  out.fy[i] += force.y;
  out.fz[i] += force.z;
  out.tx[i] += torque.x;
  out.ty[i] += torque.y;
  out.tz[i] += torque.z;
  if constexpr (kEnergy) {
    out.energy[i] += energy;
#pragma unroll
    for (int c = 0; c < core::kTensorComponents; ++c) out.virial[c][i] += virial.c[c];
  }
}

/// The rigid term's reciprocal part at precision P: start() places the charges and starts the
/// reciprocal sum's mesh on its side stream, add_to() adds the molecules' shares to an output
/// that the pairs have written.
template <core::Precision P>
class CudaRigidKspace {
 public:
  using PairT = PairTypeOf<P>;
  static constexpr int kBlock = 128;

  /// `settings` resolved (rigid_kspace.hpp's resolved_kspace); `types` the molecules' components
  /// (their net charge; storage order does not matter).
  CudaRigidKspace(const RigidModel& model, const CoulombSettings& settings,
                  const std::vector<std::int32_t>& types) {
    const ChargeSlots slots = charge_slots(model);
    stride_ = slots.stride;
    std::vector<SlotSite> body;
    for (std::size_t k = 0; k < slots.charge.size(); ++k)
      body.push_back(
          {slots.position[k].x, slots.position[k].y, slots.position[k].z, slots.charge[k]});
    body_.copy_from_host(body, nullptr);
    intramolecular_.copy_from_host(slots.intramolecular_energy, nullptr);
    core::UnitSystem units{};
    units.coulomb = model.coulomb_constant;
    reciprocal_ = make_cuda_kspace_term<P>(nullptr, settings, units, slot_charges(slots, types));
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(nullptr));  // the copies, before non-blocking streams
  }

  /// Places the charges after `stream`'s work so far and starts the reciprocal sum beside it.
  void start(const CudaForceInput<PairT>& in, bool with_energy, cudaStream_t stream) {
    started_ = true;
    const int slots = in.n * stride_;
    for (auto* a : {&x_, &y_, &z_, &q_}) a->resize(std::size_t(slots));
    place_charge_slots_kernel<PairT>
        <<<blocks(in.n), kBlock, 0, stream>>>(in.positions, in.n, in.fields, body_.data(), stride_,
                                              x_.data(), y_.data(), z_.data(), q_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    reciprocal_->start(slot_input(in), {true, with_energy}, stream);
  }

  /// Adds every molecule's reciprocal force, torque and, with energy, energy and virial to
  /// `out` (written by the pairs before), on `stream`; starts first where nobody did.
  void add_to(const CudaForceInput<PairT>& in, neighbors::ForceOutputView out, bool with_energy,
              cudaStream_t stream) {
    if (!started_) start(in, with_energy, stream);
    started_ = false;
    const std::size_t slots = std::size_t(in.n) * stride_;
    slot_out_.resize(slots * (4 + core::kTensorComponents));  // forces, energy, virial
    const std::size_t used = slots * (with_energy ? 4 + core::kTensorComponents : 3);
    NOVAMD_CUDA_CHECK(cudaMemsetAsync(slot_out_.data(), 0, used * sizeof(double), stream));
    const neighbors::ForceOutputView slot_view = slot_output(slots, with_energy);
    reciprocal_->add_to(slot_input(in), slot_view, {true, with_energy}, stream);
    const auto fold = [&](auto energy) {
      fold_charge_slots_kernel<PairT, decltype(energy)::value>
          <<<blocks(in.n), kBlock, 0, stream>>>(in.positions, in.n, in.fields, body_.data(),
                                                stride_, intramolecular_.data(), slot_view, out);
      NOVAMD_CUDA_CHECK_LAUNCH();
    };
    if (with_energy) {
      fold(std::true_type{});
    } else {
      fold(std::false_type{});
    }
  }

  std::size_t bytes() const {
    return body_.bytes() + intramolecular_.bytes() + x_.bytes() + y_.bytes() + z_.bytes() +
           q_.bytes() + slot_out_.bytes() + reciprocal_->bytes();
  }

 private:
  static int blocks(int n) { return (n + kBlock - 1) / kBlock; }

  /// The slots as the reciprocal term's particles: double positions and charges alone.
  CudaForceInput<PairT> slot_input(const CudaForceInput<PairT>& in) {
    CudaForceInput<PairT> s = in;
    s.positions = nullptr;
    s.n = in.n * stride_;
    s.fields = {x_.data(), y_.data(), z_.data(), nullptr, q_.data()};
    return s;
  }

  /// slot_out_ as forces (and energy and virial) of `slots` entries each.
  neighbors::ForceOutputView slot_output(std::size_t slots, bool with_energy) {
    double* a = slot_out_.data();
    neighbors::ForceOutputView v{a, a + slots, a + 2 * slots, nullptr, {}};
    for (int c = 0; c < core::kTensorComponents; ++c)
      v.virial[c] = with_energy ? a + (4 + c) * slots : nullptr;
    if (with_energy) v.energy = a + 3 * slots;
    return v;
  }

  int stride_ = 0;
  bool started_ = false;
  core::DeviceBuffer<SlotSite> body_;          ///< per component, stride_ each
  core::DeviceBuffer<double> intramolecular_;  ///< per component: E_intra per molecule
  core::DeviceBuffer<double> x_, y_, z_, q_;   ///< the slots in space
  core::DeviceBuffer<double> slot_out_;        ///< their forces, energies, virials
  std::unique_ptr<CudaForceTerm<PairT>> reciprocal_;
};

}  // namespace novamd::forces
