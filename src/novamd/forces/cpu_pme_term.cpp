// Smooth PME's reciprocal part on the CPU (declared in cpu_kspace_term.hpp).
#include <fftw3.h>
#include <omp.h>

#include <array>
#include <cmath>
#include <complex>
#include <mutex>
#include <numbers>
#include <stdexcept>
#include <utility>
#include <vector>

#include "novamd/forces/cpu_kspace_term.hpp"
#include "novamd/physics/pme.hpp"

namespace novamd::forces {
namespace {

/// FFTW's planner is not thread-safe: every plan is made and destroyed under this lock.
std::mutex& planner_lock() {
  static std::mutex lock;
  return lock;
}

struct FftwFree {
  void operator()(void* p) const { fftw_free(p); }
};

/// A real grid and its half spectrum with the forward (r2c) and backward (c2r) plans.
class FftwGrid {
 public:
  explicit FftwGrid(const std::array<int, 3>& points)
      : points_(points),
        real_size_(static_cast<std::size_t>(points[0]) * points[1] * points[2]),
        spectrum_size_(static_cast<std::size_t>(points[0]) * points[1] * (points[2] / 2 + 1)),
        real_(fftw_alloc_real(real_size_)),
        spectrum_(fftw_alloc_complex(spectrum_size_)) {
    if (!real_ || !spectrum_) throw std::bad_alloc();
    std::lock_guard guard(planner_lock());
    static const int threads_ready = fftw_init_threads();
    if (!threads_ready) throw std::runtime_error("pme: FFTW's threads could not start");
    fftw_plan_with_nthreads(omp_get_max_threads());
    forward_ = fftw_plan_dft_r2c_3d(points[0], points[1], points[2], real_.get(), spectrum_.get(),
                                    FFTW_ESTIMATE);
    backward_ = fftw_plan_dft_c2r_3d(points[0], points[1], points[2], spectrum_.get(), real_.get(),
                                     FFTW_ESTIMATE);
    if (!forward_ || !backward_) throw std::runtime_error("pme: FFTW could not plan the grid");
  }
  ~FftwGrid() {
    std::lock_guard guard(planner_lock());
    fftw_destroy_plan(forward_);
    fftw_destroy_plan(backward_);
  }
  FftwGrid(const FftwGrid&) = delete;
  FftwGrid& operator=(const FftwGrid&) = delete;

  double* real() { return real_.get(); }
  std::complex<double>* spectrum() {
    return reinterpret_cast<std::complex<double>*>(spectrum_.get());
  }
  void forward() { fftw_execute(forward_); }
  void backward() { fftw_execute(backward_); }
  const std::array<int, 3>& points() const { return points_; }

 private:
  std::array<int, 3> points_;
  std::size_t real_size_, spectrum_size_;
  std::unique_ptr<double, FftwFree> real_;
  std::unique_ptr<fftw_complex, FftwFree> spectrum_;
  fftw_plan forward_ = nullptr, backward_ = nullptr;
};

/// Each particle's grid stencil: the first grid point and the p weights and derivatives (d/du)
/// on each axis.
struct Stencils {
  int order = 0;
  std::array<std::vector<int>, 3> first;
  std::array<std::vector<double>, 3> value, derivative;

  void fill(const core::ParticleData& particles, const core::Box& box,
            const std::array<int, 3>& points) {
    const std::size_t n = particles.size();
    const double lengths[3] = {box.length().x, box.length().y, box.length().z};
    const std::vector<double>* x[3] = {&particles.position.x, &particles.position.y,
                                       &particles.position.z};
    for (int a = 0; a < 3; ++a) {
      first[a].resize(n);
      value[a].resize(n * order);
      derivative[a].resize(n * order);
#pragma omp parallel for schedule(static)
      for (std::size_t i = 0; i < n; ++i) {
        const double s = (*x[a])[i] / lengths[a];
        double u = (s - std::floor(s)) * points[a];
        if (u >= points[a]) u -= points[a];  // s just below 1 rounds up
        const int g = static_cast<int>(u);
        first[a][i] = g;
        physics::bspline_weights(u - g, order, &value[a][i * order], &derivative[a][i * order]);
      }
    }
  }
};

class CpuPmeTerm final : public CpuKspaceTerm {
 public:
  CpuPmeTerm(std::unique_ptr<CpuForceTerm> real_space, const CoulombSettings& settings,
             const core::UnitSystem& units)
      : CpuKspaceTerm(std::move(real_space), settings, units), grid_(settings.ewald.grid_per_axis) {
    stencils_.order = settings.ewald.order;
    for (int a = 0; a < 3; ++a)
      moduli_[a] = physics::bspline_moduli(grid_.points()[a], settings.ewald.order);
  }

 private:
  core::SymmetricTensor<double> add_reciprocal(const core::ParticleData& particles,
                                               const core::Box& box, neighbors::ForceBuffers& out,
                                               bool with_energy) override {
    const auto [begin, end] = targets(particles.size());
    stencils_.fill(particles, box, grid_.points());
    spread(particles.charge, begin, end);
    const auto [kx, ky, kz] = grid_.points();
    rank_sum(grid_.real(), static_cast<std::size_t>(kx) * ky * kz);  // every rank's charges
    grid_.forward();
    const auto virial = convolve(box, with_energy);
    grid_.backward();
    interpolate(particles.charge, begin, end, box, out, with_energy);
    return virial;
  }

  /// A rank of a spatial decomposition spreads its own charges; the meshes are summed over the
  /// ranks before the transform, and each rank interpolates its own forces.
  bool splits_over_ranks() const override { return true; }

  /// Q(k) of the particles [first, last): each thread owns the x-planes [begin, end) and adds
  /// every particle's share there.
  void spread(const std::vector<double>& q, std::size_t first, std::size_t last) {
    const auto [kx, ky, kz] = grid_.points();
    const int p = stencils_.order;
    double* grid = grid_.real();
#pragma omp parallel
    {
      const int threads = omp_get_num_threads(), t = omp_get_thread_num();
      const int begin = static_cast<int>(static_cast<long>(kx) * t / threads);
      const int end = static_cast<int>(static_cast<long>(kx) * (t + 1) / threads);
      std::fill(grid + static_cast<std::size_t>(begin) * ky * kz,
                grid + static_cast<std::size_t>(end) * ky * kz, 0.0);
      for (std::size_t i = first; i < last; ++i) {
        if (q[i] == 0.0) continue;
        for (int a = 0; a < p; ++a) {
          int gx = stencils_.first[0][i] + a;
          if (gx >= kx) gx -= kx;
          if (gx < begin || gx >= end) continue;
          const double wx = q[i] * stencils_.value[0][i * p + a];
          for (int b = 0; b < p; ++b) {
            int gy = stencils_.first[1][i] + b;
            if (gy >= ky) gy -= ky;
            const double wxy = wx * stencils_.value[1][i * p + b];
            double* row = grid + (static_cast<std::size_t>(gx) * ky + gy) * kz;
            for (int c = 0; c < p; ++c) {
              int gz = stencils_.first[2][i] + c;
              if (gz >= kz) gz -= kz;
              row[gz] += wxy * stencils_.value[2][i * p + c];
            }
          }
        }
      }
    }
  }

  /// Multiplies the spectrum by G(m); with `with_energy`, returns the virial tensor of E_rec,
  /// summed plane by plane and then over the planes in order (the energy itself comes from the
  /// particles' potentials, interpolate).
  core::SymmetricTensor<double> convolve(const core::Box& box, bool with_energy) {
    const auto [kx, ky, kz] = grid_.points();
    const int half = kz / 2 + 1;
    const auto& L = box.length();
    const double scale = coulomb_factor() / (std::numbers::pi * box.volume());
    const double a = alpha(), pi2_over_a2 = std::numbers::pi * std::numbers::pi / (a * a);
    std::complex<double>* spectrum = grid_.spectrum();
    std::vector<core::SymmetricTensor<double>> planes(static_cast<std::size_t>(kx));
#pragma omp parallel for schedule(static)
    for (int x = 0; x < kx; ++x) {
      const double mx = physics::pme_frequency(x, kx) / L.x;
      core::SymmetricTensor<double> plane;
      for (int y = 0; y < ky; ++y) {
        const double my = physics::pme_frequency(y, ky) / L.y;
        const double bxy = moduli_[0][x] * moduli_[1][y];
        std::complex<double>* row = spectrum + (static_cast<std::size_t>(x) * ky + y) * half;
        for (int z = 0; z < half; ++z) {
          const double mz = physics::pme_frequency(z, kz) / L.z;
          const auto wave = physics::pme_wave(mx, my, mz, bxy * moduli_[2][z], a, scale);
          if (with_energy && wave.m2 > 0.0) {
            // The half spectrum holds m and -m once each except on the planes z = 0 and K/2.
            const double copies = (z == 0 || (kz % 2 == 0 && z == kz / 2)) ? 1.0 : 2.0;
            const double e = copies * 0.5 * wave.influence * std::norm(row[z]);
            const double c = -2.0 * e * (1.0 + pi2_over_a2 * wave.m2) / wave.m2;
            core::SymmetricTensor<double> term;
            term.add_symmetrized_outer(mx, my, mz, c * mx, c * my, c * mz);
            for (int d = 0; d < 3; ++d) term.c[d] += e;
            plane += term;
          }
          row[z] *= wave.influence;
        }
      }
      planes[static_cast<std::size_t>(x)] = plane;
    }
    core::SymmetricTensor<double> total;
    for (const auto& plane : planes) total += plane;
    return total;
  }

  /// Forces (and energy shares 1/2 q_i phi_i) of the particles [first, last) from the convolved
  /// grid theta * Q.
  void interpolate(const std::vector<double>& q, std::size_t first, std::size_t last,
                   const core::Box& box, neighbors::ForceBuffers& out, bool with_energy) {
    const auto [kx, ky, kz] = grid_.points();
    const int p = stencils_.order;
    const double* grid = grid_.real();
    const auto& L = box.length();
    const double sx = kx / L.x, sy = ky / L.y, sz = kz / L.z;
#pragma omp parallel for schedule(static)
    for (std::size_t i = first; i < last; ++i) {
      if (q[i] == 0.0) continue;
      double fx = 0.0, fy = 0.0, fz = 0.0, phi = 0.0;
      for (int a = 0; a < p; ++a) {
        int gx = stencils_.first[0][i] + a;
        if (gx >= kx) gx -= kx;
        const double vx = stencils_.value[0][i * p + a], dx = stencils_.derivative[0][i * p + a];
        for (int b = 0; b < p; ++b) {
          int gy = stencils_.first[1][i] + b;
          if (gy >= ky) gy -= ky;
          const double vy = stencils_.value[1][i * p + b];
          const double dy = stencils_.derivative[1][i * p + b];
          const double* row = grid + (static_cast<std::size_t>(gx) * ky + gy) * kz;
          for (int c = 0; c < p; ++c) {
            int gz = stencils_.first[2][i] + c;
            if (gz >= kz) gz -= kz;
            const double theta = row[gz];
            const double vz = stencils_.value[2][i * p + c];
            fx += dx * vy * vz * theta;
            fy += vx * dy * vz * theta;
            fz += vx * vy * stencils_.derivative[2][i * p + c] * theta;
            phi += vx * vy * vz * theta;
          }
        }
      }
      out.force.x[i] -= q[i] * sx * fx;
      out.force.y[i] -= q[i] * sy * fy;
      out.force.z[i] -= q[i] * sz * fz;
      if (with_energy) out.energy[i] += 0.5 * q[i] * phi;
    }
  }

  FftwGrid grid_;
  std::array<std::vector<double>, 3> moduli_;
  Stencils stencils_;
};

}  // namespace

std::unique_ptr<CpuForceTerm> make_cpu_pme_term(std::unique_ptr<CpuForceTerm> real_space,
                                                const CoulombSettings& settings,
                                                const core::UnitSystem& units) {
  if (!settings.kspace_resolved()) throw std::logic_error("coulomb pme: parameters not resolved");
  return std::make_unique<CpuPmeTerm>(std::move(real_space), settings, units);
}

}  // namespace novamd::forces
