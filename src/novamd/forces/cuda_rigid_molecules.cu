#include <algorithm>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/forces/cuda_rigid_kspace.cuh"
#include "novamd/forces/cuda_rigid_molecules.cuh"
#include "novamd/forces/rigid_pair.hpp"
#include "novamd/neighbors/cell_bins_cuda.cuh"
#include "novamd/neighbors/neighbor_list_cuda.cuh"
#include "novamd/neighbors/target_lanes_cuda.cuh"

namespace novamd::forces {
namespace {

inline constexpr int kRigidBlock = 128;

/// A body-frame site in the pair type T.
template <class T>
MoleculeSite<T> site_in(const MoleculeSite<double>& s) {
  return {s.kind,
          {T(s.position.x), T(s.position.y), T(s.position.z)},
          {T(s.axis.x), T(s.axis.y), T(s.axis.z)},
          T(s.strength),
          s.lj_type};
}

/// Molecule i's sites turned by its orientation (place_sites) into placed[i stride ...].
template <class T>
__global__ void place_sites_kernel(const neighbors::PairPosition<T>* __restrict__ pos, int n,
                                   const double* __restrict__ qw, const double* __restrict__ qx,
                                   const double* __restrict__ qy, const double* __restrict__ qz,
                                   const MoleculeSite<T>* __restrict__ body,
                                   const int* __restrict__ site_count, int stride,
                                   MoleculeSite<T>* __restrict__ placed) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int type = pos[i].type;
  const core::Quaternion<T> q{T(qw[i]), T(qx[i]), T(qy[i]), T(qz[i])};
  place_sites(body + type * stride, site_count[type], q, placed + std::size_t(i) * stride);
}

/// One molecule's sums over its pairs (one lane's share, then the G lanes' total): force,
/// torque and, with energy, the pairs' energy and virial.
template <class AccT, bool kEnergy>
struct MoleculeSums {
  core::Vec3<AccT> force{}, torque{};
  AccT energy = 0;
  core::SymmetricTensor<AccT> virial;

  template <class T>
  __device__ void add(const MoleculePairResult<T>& pair, const core::Vec3<T>& r) {
    const core::Vec3<AccT> f{AccT(pair.force_on_i.x), AccT(pair.force_on_i.y),
                             AccT(pair.force_on_i.z)};
    force += f;
    torque += core::Vec3<AccT>{AccT(pair.torque_on_i.x), AccT(pair.torque_on_i.y),
                               AccT(pair.torque_on_i.z)};
    if constexpr (kEnergy) {
      energy += AccT(pair.energy);
      virial.add_symmetrized_outer(AccT(r.x), AccT(r.y), AccT(r.z), f.x, f.y, f.z);
    }
  }

  /// Every lane of each aligned group of G ends with the group's total, in a fixed order (a
  /// butterfly of shuffles). All 32 lanes of the warp call it.
  template <int G>
  __device__ void combine_lanes() {
    const auto across = [](AccT& v, int offset) { v += __shfl_xor_sync(0xffffffffu, v, offset); };
#pragma unroll
    for (int offset = G / 2; offset > 0; offset /= 2) {
      across(force.x, offset);
      across(force.y, offset);
      across(force.z, offset);
      across(torque.x, offset);
      across(torque.y, offset);
      across(torque.z, offset);
      if constexpr (kEnergy) {
        across(energy, offset);
#pragma unroll
        for (int k = 0; k < core::kTensorComponents; ++k) across(virial.c[k], offset);
      }
    }
  }

  /// Writes (or adds) molecule i's force and torque, and half of its pairs' energy and virial.
  template <bool kAccumulate>
  __device__ void store(const neighbors::ForceOutputView& out, int i) const {
    const auto put = [](double& to, double value) { to = kAccumulate ? to + value : value; };
    put(out.fx[i], force.x);
    put(out.fy[i], force.y);
    put(out.fz[i], force.z);
    put(out.tx[i], torque.x);
    put(out.ty[i], torque.y);
    put(out.tz[i], torque.z);
    if constexpr (kEnergy) {
      put(out.energy[i], 0.5 * double(energy));
#pragma unroll
      for (int k = 0; k < core::kTensorComponents; ++k)
        put(out.virial[k][i], 0.5 * double(virial.c[k]));
    }
  }
};

/// Lane `thread % G` of molecule `thread / G`: every neighbour of its list (NeighborListView),
/// or with kAllPairs every G-th other molecule, whose centre lies within the cutoff, all site
/// pairs (molecule_pair); no torque on j, whose own lanes compute it.
template <class T, class AccT, int G, bool kEnergy, bool kAccumulate, bool kAllPairs>
__global__ void __launch_bounds__(kRigidBlock)
    rigid_molecules_kernel(const neighbors::PairPosition<T>* __restrict__ pos, int n,
                           core::BoxView<T> box, T cutoff_squared,
                           const MoleculeSite<T>* __restrict__ placed,
                           const int* __restrict__ site_count, int stride,
                           RigidPairParams<T> params, neighbors::NeighborListView list,
                           neighbors::ForceOutputView out) {
  if (!kAllPairs && list.stale.raised()) return;  // queued again over the fresh list
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = thread / G;
  const int lane = thread % G;
  MoleculeSums<AccT, kEnergy> sums;
  if (i < n) {
    const neighbors::PairPosition<T> pi = pos[i];
    const core::Vec3<T> xi{pi.x, pi.y, pi.z};
    const MoleculeSite<T>* a = placed + std::size_t(i) * stride;
    const int na = site_count[pi.type];
    const auto add_pair = [&](int j, const neighbors::PairPosition<T>& pj) {
      const core::Vec3<T> d = box.minimum_image(xi - core::Vec3<T>{pj.x, pj.y, pj.z});
      if (core::dot(d, d) >= cutoff_squared) return;
      sums.add(molecule_pair<T, kEnergy, false>(a, na, placed + std::size_t(j) * stride,
                                                site_count[pj.type], d, params),
               d);
    };
    if constexpr (kAllPairs) {
      for (int j = lane; j < n; j += G)
        if (j != i) add_pair(j, pos[j]);
    } else {
      const int neighbours = list.count[thread];  // this lane's list
      const int4* group = reinterpret_cast<const int4*>(list.entries) + thread;
      for (int r = 0; r < neighbours; r += 4, group += list.row_stride) {
        // Four centres loaded before any pair is summed (entries past the count are stale: the
        // first stands in), so that four loads are in flight at once (in FP32; in FP64 the
        // registers they take would cost occupancy).
        const int4 four = __ldg(group);
        const int left = min(neighbours - r, 4);
        const int j4[4] = {four.x, left > 1 ? four.y : four.x, left > 2 ? four.z : four.x,
                           left > 3 ? four.w : four.x};
        if constexpr (sizeof(T) == 4) {
          neighbors::PairPosition<T> p4[4];
#pragma unroll
          for (int k = 0; k < 4; ++k) p4[k] = pos[j4[k]];
#pragma unroll
          for (int k = 0; k < 4; ++k)  // unrolled: the four stay in registers
            if (k < left) add_pair(j4[k], p4[k]);
        } else {
#pragma unroll
          for (int k = 0; k < 4; ++k)
            if (k < left) add_pair(j4[k], pos[j4[k]]);
        }
      }
    }
  }
  sums.template combine_lanes<G>();  // every lane of the warp takes part
  if (i < n && lane == 0) sums.template store<kAccumulate>(out, i);
}

template <core::Precision P>
class CudaRigidMolecules final : public CudaForceTerm<PairTypeOf<P>> {
 public:
  using PairT = PairTypeOf<P>;
  using AccT = typename core::PrecisionTypes<P>::AccT;
  /// Lanes per molecule (neighbors::lanes_per_target): a molecule pair is many site pairs
  /// behind a chain of dependent loads (the neighbour's index, centre, sites); in FP32 two
  /// rounds of the resident threads hide more of that latency than a pair term's one, in FP64,
  /// whose kernel takes more registers, one round was faster (docs/performance.md).
  static constexpr int kLaneRounds = sizeof(PairT) == 4 ? 2 : 1;

  CudaRigidMolecules(const RigidModel& model, double skin, std::int64_t check_every,
                     const std::optional<CoulombSettings>& kspace,
                     const std::vector<std::int32_t>& types)
      : cutoff_(model.cutoff ? *model.cutoff
                             : throw std::logic_error("rigid molecules: no cutoff")),
        skin_(skin),
        check_every_(check_every),
        coulomb_(PairT(model.coulomb_constant)),
        reaction_field_(PairT(model.reaction_field)),
        screening_(model.screening<PairT>()),
        lj_types_(model.lj_types) {
    if (kspace) kspace_ = std::make_unique<CudaRigidKspace<P>>(model, *kspace, types);
    for (const auto& sites : model.sites)
      stride_ = std::max(stride_, static_cast<int>(sites.size()));
    std::vector<MoleculeSite<PairT>> body(model.sites.size() * std::size_t(stride_));
    std::vector<int> count;
    for (std::size_t c = 0; c < model.sites.size(); ++c) {
      count.push_back(static_cast<int>(model.sites[c].size()));
      for (std::size_t s = 0; s < model.sites[c].size(); ++s)
        body[c * std::size_t(stride_) + s] = site_in<PairT>(model.sites[c][s]);
    }
    std::vector<typename physics::LennardJones<PairT>::Params> lj;
    for (const auto& p : model.lj) lj.push_back({PairT(p.c12), PairT(p.c6)});
    std::vector<PairT> shift(model.lj_shift.begin(), model.lj_shift.end());
    body_.copy_from_host(body, nullptr);
    site_count_.copy_from_host(count, nullptr);
    lj_.copy_from_host(lj, nullptr);
    lj_shift_.copy_from_host(shift, nullptr);
    // Kernels run on non-blocking streams, which do not wait for the legacy default stream.
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  /// The charges' reciprocal sum (Ewald or PME) starts beside the pairs.
  void start(const CudaForceInput<PairT>& in, neighbors::OutputMode mode,
             cudaStream_t stream) override {
    if (kspace_ && in.n > 0) kspace_->start(in, mode.with_energy, stream);
  }

  void add_to(const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
              neighbors::OutputMode mode, cudaStream_t stream) override {
    if (in.n == 0) return;
    if (out.tx == nullptr || in.fields.qw == nullptr || in.block)
      throw std::logic_error("rigid molecules: no torque output, no orientations, or a block");
    add_pairs(in, out, mode, stream);
    if (kspace_) kspace_->add_to(in, out, mode.with_energy, stream);
  }

  std::int64_t list_builds() const override {
    return earlier_builds_ + (list_ ? list_->builds() : 0);
  }
  void invalidate_lists() override {
    if (list_) list_->invalidate();
  }
  void follow_box(const core::Box& box, cudaStream_t stream) override {
    if (list_) list_->follow_box(box, stream);
  }
  std::size_t bytes() const override {
    return body_.bytes() + site_count_.bytes() + lj_.bytes() + lj_shift_.bytes() + placed_.bytes() +
           (list_ ? list_->bytes() : 0) + (kspace_ ? kspace_->bytes() : 0);
  }

  neighbors::NeighborState neighbor_state(cudaStream_t stream) const override {
    neighbors::NeighborState state{calls_, list_builds(), {}};
    if (list_ && !all_pairs_) {
      state.built_at = list_->built_at_on_host(stream);
      state.built_box = list_->built_box();
    }
    return state;
  }
  void restore_neighbors(const neighbors::NeighborState& state,
                         const neighbors::PairPosition<PairT>* built_at,
                         const CudaForceInput<PairT>& in, cudaStream_t stream) override {
    calls_ = state.calls;
    list_.reset();
    earlier_builds_ = 0;
    if (state.built_at.size() == 0 || !holds_list_cells(in)) {
      earlier_builds_ = state.builds;
      return;
    }
    list_.emplace(cutoff_, skin_,
                  neighbors::lanes_per_target(in.n, in.resident_threads, kLaneRounds));
    list_->restore(built_at, in.n, state.built_box, in.host_box, state.builds, stream);
  }

 private:
  /// The molecule pairs: over the lists, or over all pairs where the box is too small for them.
  void add_pairs(const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
                 neighbors::OutputMode mode, cudaStream_t stream) {
    place_all(in, stream);
    all_pairs_ = !holds_list_cells(in);
    if (all_pairs_) {  // a box too small for the lists' cells; the list built anew once it grows
      if (list_) list_->invalidate();
      add_over(in, out, mode, std::true_type{}, stream);
      return;
    }
    if (!list_)
      list_.emplace(cutoff_, skin_,
                    neighbors::lanes_per_target(in.n, in.resident_threads, kLaneRounds));
    list_->evaluate_current(in.positions, in.n, in.host_box, calls_++ % check_every_ == 0,
                            !mode.accumulate, stream,
                            [&] { add_over(in, out, mode, std::false_type{}, stream); });
  }

  /// Whether the box holds three cells of the lists' range along each axis: the lists' builds
  /// need them (as the pair terms' Verlet lists do); else every pair is visited.
  bool holds_list_cells(const CudaForceInput<PairT>& in) const {
    return neighbors::holds_three_cells(in.host_box, cutoff_ + skin_,
                                        static_cast<std::size_t>(in.n));
  }

  /// Every molecule's sites in space, from the orientations of `in`.
  void place_all(const CudaForceInput<PairT>& in, cudaStream_t stream) {
    placed_.resize(std::size_t(in.n) * stride_);
    const auto& f = in.fields;
    place_sites_kernel<PairT><<<(in.n + kRigidBlock - 1) / kRigidBlock, kRigidBlock, 0, stream>>>(
        in.positions, in.n, f.qw, f.qx, f.qy, f.qz, body_.data(), site_count_.data(), stride_,
        placed_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
  }

  /// The pairs over the lists, or over all pairs (AllPairs true).
  template <class AllPairs>
  void add_over(const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
                neighbors::OutputMode mode, AllPairs, cudaStream_t stream) {
    const RigidPairParams<PairT> params{lj_.data(), lj_shift_.data(), lj_types_,
                                        coulomb_,   reaction_field_,  screening_};
    neighbors::NeighborListView list{};
    list.lanes = neighbors::lanes_per_target(in.n, in.resident_threads, kLaneRounds);
    if constexpr (!AllPairs::value) list = list_->view();
    neighbors::with_lanes(list.lanes, [&](auto lanes) {
      constexpr int G = decltype(lanes)::value;
      const long long threads = static_cast<long long>(in.n) * G;
      const int blocks = static_cast<int>((threads + kRigidBlock - 1) / kRigidBlock);
      neighbors::with_output_mode(mode, [&](auto with_energy, auto accumulate) {
        rigid_molecules_kernel<PairT, AccT, G, decltype(with_energy)::value,
                               decltype(accumulate)::value, AllPairs::value>
            <<<blocks, kRigidBlock, 0, stream>>>(in.positions, in.n, in.box,
                                                 PairT(cutoff_ * cutoff_), placed_.data(),
                                                 site_count_.data(), stride_, params, list, out);
        NOVAMD_CUDA_CHECK_LAUNCH();
      });
    });
  }

  double cutoff_, skin_;
  std::int64_t check_every_;
  std::int64_t calls_ = 0;
  std::int64_t earlier_builds_ = 0;  ///< builds of a list dropped by restore_neighbors
  bool all_pairs_ = false;           ///< the last evaluation visited every pair
  PairT coulomb_, reaction_field_;
  typename physics::EwaldReal<PairT>::Params screening_;  ///< the charge pairs' (Ewald), or 0
  int lj_types_;
  int stride_ = 1;  ///< sites per molecule in the placed array: the most of any component
  core::DeviceBuffer<MoleculeSite<PairT>> body_;  ///< per component, stride_ entries each
  core::DeviceBuffer<int> site_count_;            ///< per component
  core::DeviceBuffer<typename physics::LennardJones<PairT>::Params> lj_;
  core::DeviceBuffer<PairT> lj_shift_;
  core::DeviceBuffer<MoleculeSite<PairT>> placed_;  ///< per molecule, stride_ entries each
  std::optional<neighbors::DeviceVerletList<PairT>> list_;
  std::unique_ptr<CudaRigidKspace<P>> kspace_;  ///< the charges' reciprocal sum, where there is one
};

}  // namespace

template <core::Precision P>
std::unique_ptr<CudaForceTerm<PairTypeOf<P>>> make_cuda_rigid_molecules(
    const RigidModel& model, double skin, std::int64_t check_every,
    const std::optional<CoulombSettings>& kspace, const std::vector<std::int32_t>& types) {
  return std::make_unique<CudaRigidMolecules<P>>(model, skin, check_every, kspace, types);
}

template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Double>>>
make_cuda_rigid_molecules<core::Precision::Double>(const RigidModel&, double, std::int64_t,
                                                   const std::optional<CoulombSettings>&,
                                                   const std::vector<std::int32_t>&);
template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Mixed>>>
make_cuda_rigid_molecules<core::Precision::Mixed>(const RigidModel&, double, std::int64_t,
                                                  const std::optional<CoulombSettings>&,
                                                  const std::vector<std::int32_t>&);
template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Single>>>
make_cuda_rigid_molecules<core::Precision::Single>(const RigidModel&, double, std::int64_t,
                                                   const std::optional<CoulombSettings>&,
                                                   const std::vector<std::int32_t>&);

}  // namespace novamd::forces
