#include <cufft.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/forces/cuda_kspace_term.cuh"
#include "novamd/forces/staged_forces_cuda.cuh"
#include "novamd/physics/ewald.hpp"
#include "novamd/physics/pme.hpp"

namespace novamd::forces {
namespace {

constexpr int kBlock = 256;
/// Threads per block of the per-particle mesh kernels: small blocks spread a few tens of
/// thousands of particles over every multiprocessor.
constexpr int kSmallBlock = 128;
/// Fixed-point scale of the PME charge grid: 2^40 units per elementary charge.
constexpr double kFixedScale = 1099511627776.0;

int blocks(int n) {
  return (n + kBlock - 1) / kBlock;
}

void check_cufft(cufftResult status, const char* call) {
  if (status != CUFFT_SUCCESS)
    throw core::RunError(std::string("cuFFT error in ") + call + ": code " +
                         std::to_string(static_cast<int>(status)));
}

/// Sums `value[c]` over the block's threads in a fixed tree; thread 0 returns the totals.
template <int Components>
__device__ void block_sum(double (&value)[Components]) {
  __shared__ double shared[Components][kBlock];
  for (int c = 0; c < Components; ++c) shared[c][threadIdx.x] = value[c];
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      for (int c = 0; c < Components; ++c)
        shared[c][threadIdx.x] += shared[c][threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    for (int c = 0; c < Components; ++c) value[c] = shared[c][0];
}

/// The six virial components of one wave (m or k) of energy e: e delta_ab - c m_a m_b.
__device__ void add_wave_virial(double (&w)[core::kTensorComponents], double e, double c, double mx,
                                double my, double mz) {
  w[0] += e - c * mx * mx;
  w[1] += e - c * my * my;
  w[2] += e - c * mz * mz;
  w[3] -= c * mx * my;
  w[4] -= c * mx * mz;
  w[5] -= c * my * mz;
}

/// rows[r * 6 + c] summed over r in a fixed order (one block).
__global__ void sum_rows_kernel(int rows, const double* __restrict__ values,
                                double* __restrict__ total) {
  double sum[core::kTensorComponents] = {};
  for (int r = threadIdx.x; r < rows; r += kBlock)
    for (int c = 0; c < core::kTensorComponents; ++c) sum[c] += values[r * 6 + c];
  block_sum(sum);
  if (threadIdx.x == 0)
    for (int c = 0; c < core::kTensorComponents; ++c) total[c] = sum[c];
}

/// Self energy and the background's energy share to each of `count` particles; the reciprocal
/// virial (`total`) and the background's spread evenly over all `n` (a rank's targets being
/// `count` of them).
__global__ void constant_terms_kernel(int count, int n, const double* __restrict__ q,
                                      double self_factor, double background_share,
                                      const double* __restrict__ total,
                                      neighbors::ForceOutputView out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  out.energy[i] += self_factor * q[i] * q[i] + background_share;
  for (int c = 0; c < core::kTensorComponents; ++c)
    out.virial[c][i] += total[c] / n + (c < 3 ? background_share : 0.0);
}

/// A wave vector and its weight A_k = exp(-k^2 / 4 alpha^2) / k^2.
struct Wave {
  double kx, ky, kz, weight;
};

struct Positions {
  const double *x, *y, *z, *q;
  double lx, ly, lz;
};

// --- Ewald ----------------------------------------------------------------------------------

/// One block per wave vector: its k and weight A_k (to `waves`), its structure factor S(k) summed
/// over the particles, and with `with_energy` its virial (to `wave_virial`).
__global__ void ewald_structure_kernel(int n, Positions p, const int* __restrict__ nx,
                                       const int* __restrict__ ny, const int* __restrict__ nz,
                                       double alpha, double energy_scale, bool with_energy,
                                       Wave* __restrict__ waves, double2* __restrict__ structure,
                                       double* __restrict__ wave_virial) {
  const int w = blockIdx.x;
  const double two_pi = 2.0 * std::numbers::pi;
  const double kx = two_pi * nx[w] / p.lx, ky = two_pi * ny[w] / p.ly, kz = two_pi * nz[w] / p.lz;
  double s[2] = {0.0, 0.0};
  for (int i = threadIdx.x; i < n; i += kBlock) {
    double sine, cosine;
    sincos(kx * p.x[i] + ky * p.y[i] + kz * p.z[i], &sine, &cosine);
    s[0] += p.q[i] * cosine;
    s[1] += p.q[i] * sine;
  }
  block_sum(s);
  if (threadIdx.x != 0) return;
  const double k2 = kx * kx + ky * ky + kz * kz;
  const double weight = exp(-k2 / (4.0 * alpha * alpha)) / k2;
  waves[w] = {kx, ky, kz, weight};
  structure[w] = make_double2(s[0], s[1]);
  if (!with_energy) return;
  const double e = energy_scale * weight * (s[0] * s[0] + s[1] * s[1]);
  double virial[core::kTensorComponents] = {};
  add_wave_virial(virial, e, 2.0 * e * (1.0 / k2 + 1.0 / (4.0 * alpha * alpha)), kx, ky, kz);
  for (int c = 0; c < core::kTensorComponents; ++c) wave_virial[w * 6 + c] = virial[c];
}

/// One thread per particle: its force (and energy share) over every wave vector.
__global__ void ewald_force_kernel(int n, Positions p, int count, const Wave* __restrict__ waves,
                                   const double2* __restrict__ structure, double force_scale,
                                   bool with_energy, neighbors::ForceOutputView out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || p.q[i] == 0.0) return;
  double fx = 0.0, fy = 0.0, fz = 0.0, potential = 0.0;
  const double x = p.x[i], y = p.y[i], z = p.z[i];
  for (int w = 0; w < count; ++w) {
    const Wave k = waves[w];
    const double2 s = structure[w];
    double sine, cosine;
    sincos(k.kx * x + k.ky * y + k.kz * z, &sine, &cosine);
    const double along = k.weight * (s.x * sine - s.y * cosine);
    fx += along * k.kx;
    fy += along * k.ky;
    fz += along * k.kz;
    potential += k.weight * (s.x * cosine + s.y * sine);
  }
  const double scale = force_scale * p.q[i];
  // Products rounded apart from the additions (no contraction): the same bits whether added to
  // the output here or staged and added after the pairs (forces/staged_forces_cuda.cuh).
  out.fx[i] += __dmul_rn(scale, fx);
  out.fy[i] += __dmul_rn(scale, fy);
  out.fz[i] += __dmul_rn(scale, fz);
  if (with_energy) out.energy[i] += 0.5 * scale * potential;
}

// --- PME ------------------------------------------------------------------------------------

struct PmeGridShape {
  int kx, ky, kz, order;
};

/// The mesh's real type R is double at double precision and float under mixed and single (as
/// OpenMM's mesh), where the pairs are FP32 too; the influence function, the energy and the
/// virial are computed in double either way. cuFFT's complex type and transforms for R:
template <class R>
using PmeComplex = std::conditional_t<std::is_same_v<R, double>, cufftDoubleComplex, cufftComplex>;
template <class R>
constexpr cufftType kPmeForward = std::is_same_v<R, double> ? CUFFT_D2Z : CUFFT_R2C;
template <class R>
constexpr cufftType kPmeBackward = std::is_same_v<R, double> ? CUFFT_Z2D : CUFFT_C2R;
/// The transform of the argument types: real to complex (forward) or back.
cufftResult transform(cufftHandle plan, double* in, cufftDoubleComplex* out) {
  return cufftExecD2Z(plan, in, out);
}
cufftResult transform(cufftHandle plan, float* in, cufftComplex* out) {
  return cufftExecR2C(plan, in, out);
}
cufftResult transform(cufftHandle plan, cufftDoubleComplex* in, double* out) {
  return cufftExecZ2D(plan, in, out);
}
cufftResult transform(cufftHandle plan, cufftComplex* in, float* out) {
  return cufftExecC2R(plan, in, out);
}

/// A particle's first grid point and weights along one axis (physics::bspline_weights): the
/// scaled coordinate in double, its fraction w in [0, 1) and the weights in R.
template <class R, int Order>
__device__ int pme_stencil(double x, double length, int points, R* value, R* derivative) {
  const double s = x / length;
  double u = (s - floor(s)) * points;
  if (u >= points) u -= points;
  const int first = static_cast<int>(u);
  physics::bspline_weights(static_cast<R>(u - first), Order, value, derivative);
  return first;
}

__device__ int wrapped(int g, int points) {
  return g >= points ? g - points : g;
}

/// One thread per particle and z-offset of its stencil (thread t: particle t / p, offset
/// c = t % p) adds q M M M to the p^2 grid points of its stencil at z0 + c, in fixed point. The
/// p lanes of a particle write p adjacent words at each step, which the L2 takes as one or two
/// sectors (lanes of one particle on different x-planes, as before, made every lane a request of
/// its own). The order is a template parameter: the loops unroll, the stencils stay in registers.
template <class R, int Order>
__global__ void pme_spread_kernel(int n, Positions p, PmeGridShape g,
                                  unsigned long long* __restrict__ grid) {
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int i = static_cast<int>(t / Order), c = static_cast<int>(t % Order);
  if (i >= n || p.q[i] == 0.0) return;
  R vx[Order], vy[Order], vz[Order], unused[Order];
  const int x0 = pme_stencil<R, Order>(p.x[i], p.lx, g.kx, vx, unused);
  const int y0 = pme_stencil<R, Order>(p.y[i], p.ly, g.ky, vy, unused);
  const int z0 = pme_stencil<R, Order>(p.z[i], p.lz, g.kz, vz, unused);
  const R qz = static_cast<R>(p.q[i] * kFixedScale) * vz[c];
  const int gz = wrapped(z0 + c, g.kz);
#pragma unroll
  for (int a = 0; a < Order; ++a) {
    const int gx = wrapped(x0 + a, g.kx);
    const R qxz = qz * vx[a];
#pragma unroll
    for (int b = 0; b < Order; ++b) {
      const int gy = wrapped(y0 + b, g.ky);
      const long long units = __double2ll_rn(qxz * vy[b]);  // exact for float products too
      atomicAdd(grid + (static_cast<std::size_t>(gx) * g.ky + gy) * g.kz + gz,
                static_cast<unsigned long long>(units));
    }
  }
}

/// The fixed-point grid in R, and the grid cleared for the next spreading.
template <class R>
__global__ void pme_fixed_to_real_kernel(std::size_t size, unsigned long long* __restrict__ fixed,
                                         R* __restrict__ real) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size) return;
  real[i] = static_cast<R>(static_cast<double>(static_cast<long long>(fixed[i])) / kFixedScale);
  fixed[i] = 0;
}

/// Blocks per grid plane in the convolution.
constexpr int kConvolveChunks = 4;

/// kConvolveChunks blocks per grid plane x (blockIdx.x = x, blockIdx.y = chunk): the spectrum
/// times G(m) (computed in double), and with `with_energy` each block's share of the virial (to
/// plane_virial[(x * kConvolveChunks + chunk) * 6 + c]).
template <class R>
__global__ void pme_convolve_kernel(PmeGridShape g, double lx, double ly, double lz, double alpha,
                                    double energy_scale, const double* __restrict__ moduli_x,
                                    const double* __restrict__ moduli_y,
                                    const double* __restrict__ moduli_z, bool with_energy,
                                    PmeComplex<R>* __restrict__ spectrum,
                                    double* __restrict__ plane_virial) {
  const int x = blockIdx.x, half = g.kz / 2 + 1;
  const double mx = physics::pme_frequency(x, g.kx) / lx;
  const double pi2_over_a2 = std::numbers::pi * std::numbers::pi / (alpha * alpha);
  double virial[core::kTensorComponents] = {};
  for (int e = blockIdx.y * kBlock + threadIdx.x; e < g.ky * half; e += kBlock * kConvolveChunks) {
    const int y = e / half, z = e % half;
    const double my = physics::pme_frequency(y, g.ky) / ly;
    const double mz = physics::pme_frequency(z, g.kz) / lz;
    const auto wave =
        physics::pme_wave(mx, my, mz, moduli_x[x] * moduli_y[y] * moduli_z[z], alpha, energy_scale);
    auto& s = spectrum[static_cast<std::size_t>(x) * g.ky * half + e];
    if (with_energy && wave.m2 > 0.0) {
      const double copies = (z == 0 || (g.kz % 2 == 0 && z == g.kz / 2)) ? 1.0 : 2.0;
      const double re = s.x, im = s.y;
      const double energy = copies * 0.5 * wave.influence * (re * re + im * im);
      add_wave_virial(virial, energy, 2.0 * energy * (1.0 + pi2_over_a2 * wave.m2) / wave.m2, mx,
                      my, mz);
    }
    s.x *= static_cast<R>(wave.influence);
    s.y *= static_cast<R>(wave.influence);
  }
  if (!with_energy) return;
  block_sum(virial);
  if (threadIdx.x == 0)
    for (int c = 0; c < core::kTensorComponents; ++c)
      plane_virial[(x * kConvolveChunks + blockIdx.y) * 6 + c] = virial[c];
}

/// One thread per particle: its force (and energy share 1/2 q phi) from the convolved grid, in
/// R. The order is a template parameter: the p^3 loads unroll and overlap. (Eight lanes per
/// particle, one per stencil plane, measured 2.6 times slower on 24,000 atoms in double with a
/// run-time order: each lane computes the particle's three stencils again.)
/// With `accumulate` false the forces are written, negated (-f, exactly what 0 - f gives): the
/// output's forces then hold the mesh's alone (zero for an uncharged particle).
template <class R, int Order>
__global__ void pme_gather_kernel(int n, Positions p, PmeGridShape g, const R* __restrict__ theta,
                                  bool with_energy, bool accumulate,
                                  neighbors::ForceOutputView out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (p.q[i] == 0.0) {
    if (!accumulate) out.fx[i] = out.fy[i] = out.fz[i] = 0.0;
    return;
  }
  R vx[Order], vy[Order], vz[Order], dx[Order], dy[Order], dz[Order];
  const int x0 = pme_stencil<R, Order>(p.x[i], p.lx, g.kx, vx, dx);
  const int y0 = pme_stencil<R, Order>(p.y[i], p.ly, g.ky, vy, dy);
  const int z0 = pme_stencil<R, Order>(p.z[i], p.lz, g.kz, vz, dz);
  int gz[Order];
#pragma unroll
  for (int c = 0; c < Order; ++c) gz[c] = wrapped(z0 + c, g.kz);
  R fx = 0, fy = 0, fz = 0, phi = 0;
#pragma unroll
  for (int a = 0; a < Order; ++a) {
    const int gx = wrapped(x0 + a, g.kx);
#pragma unroll
    for (int b = 0; b < Order; ++b) {
      const int gy = wrapped(y0 + b, g.ky);
      const R* row = theta + (static_cast<std::size_t>(gx) * g.ky + gy) * g.kz;
      R sum_v = 0, sum_d = 0;  // sum_c theta vz[c], sum_c theta dz[c]
#pragma unroll
      for (int c = 0; c < Order; ++c) {
        const R value = row[gz[c]];
        sum_v += vz[c] * value;
        sum_d += dz[c] * value;
      }
      fx += dx[a] * vy[b] * sum_v;
      fy += vx[a] * dy[b] * sum_v;
      fz += vx[a] * vy[b] * sum_d;
      phi += vx[a] * vy[b] * sum_v;
    }
  }
  const double q = p.q[i];
  // Products rounded apart from the additions (no contraction): the same bits whether added to
  // the output here or staged and added after the pairs (forces/staged_forces_cuda.cuh).
  const double force[3] = {__dmul_rn(q * g.kx / p.lx, static_cast<double>(fx)),
                           __dmul_rn(q * g.ky / p.ly, static_cast<double>(fy)),
                           __dmul_rn(q * g.kz / p.lz, static_cast<double>(fz))};
  if (accumulate) {
    out.fx[i] -= force[0];
    out.fy[i] -= force[1];
    out.fz[i] -= force[2];
  } else {
    out.fx[i] = -force[0];
    out.fy[i] = -force[1];
    out.fz[i] = -force[2];
  }
  if (with_energy) out.energy[i] += 0.5 * q * static_cast<double>(phi);
}

/// Calls `launch(std::integral_constant<int, order>{})` for orders 4 to 6
/// (physics::kMaxPmeOrder).
template <class Launch>
void with_order(int order, Launch&& launch) {
  static_assert(physics::kMaxPmeOrder == 6);
  switch (order) {
    case 4:
      return launch(std::integral_constant<int, 4>{});
    case 5:
      return launch(std::integral_constant<int, 5>{});
    case 6:
      return launch(std::integral_constant<int, 6>{});
  }
  throw std::logic_error("coulomb pme: order " + std::to_string(order) + " outside 4 to 6");
}

// --- the terms ------------------------------------------------------------------------------

/// The real-space term, then the reciprocal sum, then the self and background terms.
template <class PairT>
class CudaKspaceTerm : public CudaForceTerm<PairT> {
 public:
  CudaKspaceTerm(std::unique_ptr<CudaForceTerm<PairT>> real_space, const CoulombSettings& settings,
                 const core::UnitSystem& units, const std::vector<double>& charges)
      : real_(std::move(real_space)),
        k_(units.coulomb / settings.dielectric),
        alpha_(*settings.ewald.alpha),
        virial_total_(core::kTensorComponents) {
    for (const double q : charges) net_charge_ += q;
  }

  /// The reciprocal sum's particle-independent work (structure factors, or the mesh and its
  /// transforms) runs on a stream of its own while the real-space pairs run on `stream`; the
  /// forces are added after both, in the same order every time. Over spatial bricks PME's start
  /// waits for the owned charges' spreading and sums the mesh over the ranks on the host before
  /// it returns, so the pairs are queued after that sum (no overlap yet: the multi-GPU issue).
  void start(const CudaForceInput<PairT>& in, neighbors::OutputMode mode,
             cudaStream_t stream) final {
    start_reciprocal(in, mode, stream);
  }
  /// The reciprocal forces too, on the side stream after the solve, into staged_: the real
  /// space writes the output, and the backend adds these after it.
  void start_staged(const CudaForceInput<PairT>& in, cudaStream_t stream) final {
    if (staged_pending_)
      throw std::logic_error("coulomb ewald/pme: staged forces started again before being added");
    start_reciprocal(in, {false, false}, stream);
    if (in.n == 0) return;
    const cudaStream_t side = side_.stream();
    staged_.resize(in.n);
    // Written as -f, which is 0 - f exactly: the bits of adding to the output directly.
    neighbors::ForceOutputView targets = staged_.output();  // forces only: no energy arrays
    targets.fx += in.target_begin;
    targets.fy += in.target_begin;
    targets.fz += in.target_begin;
    add_reciprocal(target_count(in), positions_of(in), false, false, targets, side);
    staged_pending_ = true;
  }
  std::optional<StagedForces> staged_forces(cudaStream_t stream) final {
    if (!staged_pending_) return std::nullopt;
    staged_pending_ = false;
    side_.join(stream);
    return staged_.staged();
  }
  void add_to(const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
              neighbors::OutputMode mode, cudaStream_t stream) final {
    if (!started_with_energy_.has_value()) start_reciprocal(in, mode, stream);
    if (real_) real_->add_to(in, out, mode, stream);
    finish_reciprocal(in, out, mode, stream);
  }
  /// The real space's parts (Lennard-Jones first, where it shares the pass: pair_sum_terms.hpp);
  /// the reciprocal sum belongs to the last, the Coulomb part.
  int parts() const final { return real_ ? real_->parts() : 1; }
  void add_part_to(int part, const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
                   neighbors::OutputMode mode, cudaStream_t stream) final {
    if (part == 0 && !started_with_energy_.has_value()) start_reciprocal(in, mode, stream);
    if (real_) real_->add_part_to(part, in, out, mode, stream);
    if (part == parts() - 1) finish_reciprocal(in, out, mode, stream);
  }
  std::int64_t list_builds() const final { return real_ ? real_->list_builds() : 0; }
  /// The real space's targets and the mesh's: the targets' charges spread, the mesh summed over
  /// the ranks (share_over_ranks), the targets' forces interpolated. PME only.
  bool restricts_targets(int n, const core::Box& box) const final {
    return splits_over_ranks() && (!real_ || real_->restricts_targets(n, box));
  }
  bool lists_due(const CudaForceInput<PairT>& in, cudaStream_t stream) final {
    return real_ && real_->lists_due(in, stream);
  }
  void share_over_ranks(FixedRankSum sum) final { rank_sum_ = std::move(sum); }
  void invalidate_lists() final {
    if (real_) real_->invalidate_lists();
  }
  void follow_box(const core::Box& box, cudaStream_t stream) final {
    if (real_) real_->follow_box(box, stream);
  }
  std::size_t bytes() const final {
    return (real_ ? real_->bytes() : 0) + reciprocal_bytes() + staged_.bytes();
  }
  neighbors::NeighborState neighbor_state(cudaStream_t stream) const final {
    return real_ ? real_->neighbor_state(stream) : neighbors::NeighborState{};
  }
  void restore_neighbors(const neighbors::NeighborState& state,
                         const neighbors::PairPosition<PairT>* built_at,
                         const CudaForceInput<PairT>& in, cudaStream_t stream) final {
    if (real_) real_->restore_neighbors(state, built_at, in, stream);
  }

 protected:
  /// Queues the reciprocal sum's work that needs no force buffer (on `side`, a stream of its
  /// own, after the positions are current); where the mesh is summed over ranks, waits for the
  /// spreading and sums it first.
  virtual void solve_reciprocal(int n, const Positions& p, double volume, bool with_energy,
                                cudaStream_t side) = 0;
  /// Queues the reciprocal forces (and energy shares) on `stream`, after solve_reciprocal's
  /// work, added to `out` (`accumulate`) or written over its forces (no energy then, and the
  /// bits of adding them to zero); with `with_energy`, leaves the reciprocal virial tensor in
  /// virial_total().
  virtual void add_reciprocal(int n, const Positions& p, bool with_energy, bool accumulate,
                              neighbors::ForceOutputView out, cudaStream_t stream) = 0;
  virtual std::size_t reciprocal_bytes() const = 0;
  /// Whether the reciprocal sum can take a rank's targets alone, its global part summed over the
  /// ranks (sum_over_ranks).
  virtual bool splits_over_ranks() const { return false; }
  /// `count` fixed-point values summed over the ranks in place (nothing on one rank).
  void sum_over_ranks(std::uint64_t* data, std::size_t count) const {
    if (rank_sum_) rank_sum_(data, count);
  }
  bool sums_over_ranks() const { return static_cast<bool>(rank_sum_); }
  double* virial_total() { return virial_total_.data(); }
  double coulomb_factor() const { return k_; }
  double alpha() const { return alpha_; }

 private:
  /// The targets' positions and charges (from the input's target_begin on).
  static Positions positions_of(const CudaForceInput<PairT>& in) {
    if (!in.fields.charge)
      throw std::logic_error("coulomb ewald/pme: the particles have no charges");
    const auto& L = in.host_box.length();
    const int first = in.target_begin;
    return {in.fields.x + first,
            in.fields.y + first,
            in.fields.z + first,
            in.fields.charge + first,
            L.x,
            L.y,
            L.z};
  }

  /// The side stream waits for `stream`'s work so far (the positions), then solves.
  void start_reciprocal(const CudaForceInput<PairT>& in, neighbors::OutputMode mode,
                        cudaStream_t stream) {
    started_with_energy_ = mode.with_energy;
    if (in.n == 0) return;
    solve_reciprocal(target_count(in), positions_of(in), in.host_box.volume(), mode.with_energy,
                     side_.follow(stream));
  }

  /// `stream` waits for the side stream's solve, then adds the reciprocal forces and, with
  /// energy, the self and background energies and the virial tensor.
  void finish_reciprocal(const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
                         neighbors::OutputMode mode, cudaStream_t stream) {
    if (started_with_energy_ != mode.with_energy)
      throw std::logic_error("coulomb ewald/pme: the reciprocal sum was started for another mode");
    started_with_energy_.reset();
    if (in.n == 0 || staged_pending_) return;  // staged: the backend adds them (staged_forces)
    side_.join(stream);
    const Positions p = positions_of(in);
    const int count = target_count(in);
    const auto targets_out = out.from(in.target_begin);
    add_reciprocal(count, p, mode.with_energy, true, targets_out, stream);
    if (!mode.with_energy || count == 0) return;
    const double background =
        physics::ewald_background_energy(net_charge_, k_, alpha_, in.host_box.volume()) / in.n;
    constant_terms_kernel<<<blocks(count), kBlock, 0, stream>>>(
        count, in.n, p.q, -k_ * alpha_ / std::sqrt(std::numbers::pi), background,
        virial_total_.data(), targets_out);
    NOVAMD_CUDA_CHECK_LAUNCH();
  }

  std::unique_ptr<CudaForceTerm<PairT>> real_;
  FixedRankSum rank_sum_;  ///< the mesh's sum over a spatial decomposition's ranks
  double k_, alpha_, net_charge_ = 0.0;
  core::DeviceBuffer<double> virial_total_;
  /// The reciprocal sum's solve, beside the real-space pairs: its small kernels at the highest
  /// priority, between the pair kernel's blocks.
  core::SideStream side_;
  /// A solve queued and not yet added: whether it was queued with the energy.
  std::optional<bool> started_with_energy_;
  /// The reciprocal forces of start_staged, and whether they wait for staged_forces.
  StagedForceArrays staged_;
  bool staged_pending_ = false;
};

template <class PairT>
class CudaEwaldTerm final : public CudaKspaceTerm<PairT> {
 public:
  CudaEwaldTerm(std::unique_ptr<CudaForceTerm<PairT>> real_space, const CoulombSettings& settings,
                const core::UnitSystem& units, const std::vector<double>& charges)
      : CudaKspaceTerm<PairT>(std::move(real_space), settings, units, charges) {
    const auto& e = settings.ewald;
    const auto waves =
        physics::wave_vectors(e.kmax_per_axis[0], e.kmax_per_axis[1], e.kmax_per_axis[2],
                              e.kmax_squared.value_or(std::numeric_limits<int>::max()));
    count_ = static_cast<int>(waves.size());
    cudaStream_t stream = nullptr;
    nx_.copy_from_host(waves.nx, stream);
    ny_.copy_from_host(waves.ny, stream);
    nz_.copy_from_host(waves.nz, stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    waves_.resize(count_);
    structure_.resize(count_);
    wave_virial_.resize(static_cast<std::size_t>(count_) * 6);
  }

 private:
  void solve_reciprocal(int n, const Positions& p, double volume, bool with_energy,
                        cudaStream_t side) override {
    if (count_ == 0) return;
    const double k = this->coulomb_factor();
    ewald_structure_kernel<<<count_, kBlock, 0, side>>>(
        n, p, nx_.data(), ny_.data(), nz_.data(), this->alpha(),
        k * 2.0 * std::numbers::pi / volume, with_energy, waves_.data(), structure_.data(),
        wave_virial_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    force_scale_ = k * 4.0 * std::numbers::pi / volume;
  }
  void add_reciprocal(int n, const Positions& p, bool with_energy, bool accumulate,
                      neighbors::ForceOutputView out, cudaStream_t stream) override {
    if (n == 0) return;  // a rank without particles (its structure factors still summed)
    if (!accumulate) {
      const std::size_t bytes = sizeof(double) * static_cast<std::size_t>(n);
      for (double* f : {out.fx, out.fy, out.fz})
        NOVAMD_CUDA_CHECK(cudaMemsetAsync(f, 0, bytes, stream));
    }
    if (count_ == 0) return;
    ewald_force_kernel<<<blocks(n), kBlock, 0, stream>>>(
        n, p, count_, waves_.data(), structure_.data(), force_scale_, with_energy, out);
    NOVAMD_CUDA_CHECK_LAUNCH();
    if (!with_energy) return;
    sum_rows_kernel<<<1, kBlock, 0, stream>>>(count_, wave_virial_.data(), this->virial_total());
    NOVAMD_CUDA_CHECK_LAUNCH();
  }
  std::size_t reciprocal_bytes() const override {
    return nx_.bytes() * 3 + waves_.bytes() + structure_.bytes() + wave_virial_.bytes();
  }

  int count_ = 0;
  double force_scale_ = 0.0;  ///< 4 pi k / V of the last solve
  core::DeviceBuffer<int> nx_, ny_, nz_;
  core::DeviceBuffer<Wave> waves_;
  core::DeviceBuffer<double2> structure_;
  core::DeviceBuffer<double> wave_virial_;
};

/// A cuFFT plan, destroyed with its owner.
class CufftPlan {
 public:
  CufftPlan(const std::array<int, 3>& points, cufftType type) {
    check_cufft(cufftPlan3d(&plan_, points[0], points[1], points[2], type), "cufftPlan3d");
  }
  ~CufftPlan() { cufftDestroy(plan_); }
  CufftPlan(const CufftPlan&) = delete;
  CufftPlan& operator=(const CufftPlan&) = delete;
  cufftHandle get(cudaStream_t stream) const {
    check_cufft(cufftSetStream(plan_, stream), "cufftSetStream");
    return plan_;
  }

 private:
  cufftHandle plan_ = 0;
};

/// Smooth PME with its mesh in R = PairT (double, or float under mixed and single precision).
template <class PairT>
class CudaPmeTerm final : public CudaKspaceTerm<PairT> {
  using R = PairT;

 public:
  CudaPmeTerm(std::unique_ptr<CudaForceTerm<PairT>> real_space, const CoulombSettings& settings,
              const core::UnitSystem& units, const std::vector<double>& charges)
      : CudaKspaceTerm<PairT>(std::move(real_space), settings, units, charges),
        shape_{settings.ewald.grid_per_axis[0], settings.ewald.grid_per_axis[1],
               settings.ewald.grid_per_axis[2], settings.ewald.order},
        size_(static_cast<std::size_t>(shape_.kx) * shape_.ky * shape_.kz),
        forward_(settings.ewald.grid_per_axis, kPmeForward<R>),
        backward_(settings.ewald.grid_per_axis, kPmeBackward<R>) {
    cudaStream_t stream = nullptr;
    const int points[3] = {shape_.kx, shape_.ky, shape_.kz};
    for (int a = 0; a < 3; ++a)
      moduli_[a].copy_from_host(physics::bspline_moduli(points[a], shape_.order), stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    fixed_.resize(size_);
    fixed_.fill_zero(stream);  // and cleared after each use by pme_fixed_to_real_kernel
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    real_.resize(size_);
    spectrum_.resize(static_cast<std::size_t>(shape_.kx) * shape_.ky * (shape_.kz / 2 + 1));
    plane_virial_.resize(static_cast<std::size_t>(shape_.kx) * kConvolveChunks * 6);
  }

 private:
  void solve_reciprocal(int n, const Positions& p, double volume, bool with_energy,
                        cudaStream_t stream) override {
    const long long spreaders = static_cast<long long>(n) * shape_.order;
    const auto spread_blocks = static_cast<unsigned>((spreaders + kSmallBlock - 1) / kSmallBlock);
    if (n > 0) {
      with_order(shape_.order, [&](auto order) {
        pme_spread_kernel<R, decltype(order)::value>
            <<<spread_blocks, kSmallBlock, 0, stream>>>(n, p, shape_, fixed_.data());
      });
      NOVAMD_CUDA_CHECK_LAUNCH();
    }
    if (this->sums_over_ranks()) sum_mesh_over_ranks(stream);
    pme_fixed_to_real_kernel<R>
        <<<static_cast<unsigned>((size_ + kBlock - 1) / kBlock), kBlock, 0, stream>>>(
            size_, fixed_.data(), real_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    check_cufft(transform(forward_.get(stream), real_.data(), spectrum_.data()),
                "the forward transform");
    pme_convolve_kernel<R><<<dim3(shape_.kx, kConvolveChunks), kBlock, 0, stream>>>(
        shape_, p.lx, p.ly, p.lz, this->alpha(),
        this->coulomb_factor() / (std::numbers::pi * volume), moduli_[0].data(), moduli_[1].data(),
        moduli_[2].data(), with_energy, spectrum_.data(), plane_virial_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    check_cufft(transform(backward_.get(stream), spectrum_.data(), real_.data()),
                "the backward transform");
  }
  void add_reciprocal(int n, const Positions& p, bool with_energy, bool accumulate,
                      neighbors::ForceOutputView out, cudaStream_t stream) override {
    if (n == 0) return;  // a brick without particles: its mesh was still summed (a collective)
    with_order(shape_.order, [&](auto order) {
      pme_gather_kernel<R, decltype(order)::value>
          <<<(n + kSmallBlock - 1) / kSmallBlock, kSmallBlock, 0, stream>>>(
              n, p, shape_, real_.data(), with_energy, accumulate, out);
    });
    NOVAMD_CUDA_CHECK_LAUNCH();
    if (!with_energy) return;
    sum_rows_kernel<<<1, kBlock, 0, stream>>>(shape_.kx * kConvolveChunks, plane_virial_.data(),
                                              this->virial_total());
    NOVAMD_CUDA_CHECK_LAUNCH();
  }
  std::size_t reciprocal_bytes() const override {
    return fixed_.bytes() + real_.bytes() + spectrum_.bytes() + plane_virial_.bytes() +
           moduli_[0].bytes() + moduli_[1].bytes() + moduli_[2].bytes();
  }
  bool splits_over_ranks() const override { return true; }

  /// Each rank's fixed-point mesh of its targets' charges summed over the ranks through host
  /// memory: integers, so every rank gets the bits one GPU spreading every charge gets (waits
  /// for `stream`).
  void sum_mesh_over_ranks(cudaStream_t stream) {
    fixed_host_.resize(size_);
    const std::size_t bytes = size_ * sizeof(std::uint64_t);
    static_assert(sizeof(std::uint64_t) == sizeof(unsigned long long));
    NOVAMD_CUDA_CHECK(
        cudaMemcpyAsync(fixed_host_.data(), fixed_.data(), bytes, cudaMemcpyDeviceToHost, stream));
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    this->sum_over_ranks(fixed_host_.data(), size_);
    NOVAMD_CUDA_CHECK(
        cudaMemcpyAsync(fixed_.data(), fixed_host_.data(), bytes, cudaMemcpyHostToDevice, stream));
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));  // before fixed_host_ changes again
  }

  PmeGridShape shape_;
  std::size_t size_;
  CufftPlan forward_, backward_;
  core::DeviceBuffer<double> moduli_[3];
  core::DeviceBuffer<unsigned long long> fixed_;
  std::vector<std::uint64_t> fixed_host_;  ///< the mesh on its way over the ranks
  core::DeviceBuffer<R> real_;
  core::DeviceBuffer<PmeComplex<R>> spectrum_;
  core::DeviceBuffer<double> plane_virial_;
};

}  // namespace

template <core::Precision P>
std::unique_ptr<CudaForceTerm<PairTypeOf<P>>> make_cuda_kspace_term(
    std::unique_ptr<CudaForceTerm<PairTypeOf<P>>> real_space, const CoulombSettings& settings,
    const core::UnitSystem& units, const std::vector<double>& charges) {
  if (!settings.kspace_resolved())
    throw std::logic_error("coulomb ewald/pme: parameters not resolved");
  using PairT = PairTypeOf<P>;
  if (settings.method == CoulombMethod::Pme)
    return std::make_unique<CudaPmeTerm<PairT>>(std::move(real_space), settings, units, charges);
  return std::make_unique<CudaEwaldTerm<PairT>>(std::move(real_space), settings, units, charges);
}

template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Double>>>
make_cuda_kspace_term<core::Precision::Double>(
    std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Double>>>, const CoulombSettings&,
    const core::UnitSystem&, const std::vector<double>&);
template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Mixed>>>
make_cuda_kspace_term<core::Precision::Mixed>(
    std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Mixed>>>, const CoulombSettings&,
    const core::UnitSystem&, const std::vector<double>&);
template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Single>>>
make_cuda_kspace_term<core::Precision::Single>(
    std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Single>>>, const CoulombSettings&,
    const core::UnitSystem&, const std::vector<double>&);

}  // namespace novamd::forces
