// The Ewald sum's reciprocal part on the CPU (declared in cpu_kspace_term.hpp).
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <utility>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/forces/cpu_kspace_term.hpp"
#include "novamd/physics/ewald.hpp"

namespace novamd::forces {
namespace {

using Complex = std::complex<double>;

/// exp(i 2 pi n x / L) for n = 0 .. kmax of one particle on one axis; negative n by conjugation.
class AxisPhases {
 public:
  AxisPhases(int kmax, std::size_t particles) : stride_(kmax + 1), phase_(stride_ * particles) {}
  void fill(std::size_t i, double x, double length) {
    const double theta = 2.0 * std::numbers::pi * x / length;
    for (std::size_t m = 0; m < stride_; ++m)
      phase_[i * stride_ + m] = std::polar(1.0, theta * static_cast<double>(m));
  }
  Complex at(std::size_t i, int n) const {
    const Complex p = phase_[i * stride_ + static_cast<std::size_t>(n < 0 ? -n : n)];
    return n < 0 ? std::conj(p) : p;
  }

 private:
  std::size_t stride_;
  std::vector<Complex> phase_;
};

class CpuEwaldTerm final : public CpuKspaceTerm {
 public:
  CpuEwaldTerm(std::unique_ptr<CpuForceTerm> real_space, const CoulombSettings& settings,
               const core::UnitSystem& units)
      : CpuKspaceTerm(std::move(real_space), settings, units),
        kmax_(settings.ewald.kmax_per_axis),
        waves_(physics::wave_vectors(
            kmax_[0], kmax_[1], kmax_[2],
            settings.ewald.kmax_squared.value_or(std::numeric_limits<int>::max()))) {}

 private:
  core::SymmetricTensor<double> add_reciprocal(const core::ParticleData& particles,
                                               const core::Box& box, neighbors::ForceBuffers& out,
                                               bool with_energy) override {
    // The owned slots [begin, end) where the sum splits over ranks (every slot otherwise):
    // their structure factors, summed over the ranks, and their forces.
    const auto range = targets(particles.size());  // plain locals: OpenMP loops bound by them
    const std::size_t begin = range.first, end = range.second;
    const auto& q = particles.charge;
    const auto& L = box.length();
    const double volume = box.volume();
    const std::size_t n = particles.size();
    AxisPhases px(kmax_[0], n), py(kmax_[1], n), pz(kmax_[2], n);
    for (std::size_t i = begin; i < end; ++i) {
      px.fill(i, particles.position.x[i], L.x);
      py.fill(i, particles.position.y[i], L.y);
      pz.fill(i, particles.position.z[i], L.z);
    }
    const auto phase = [&](std::size_t i, std::size_t w) {
      return px.at(i, waves_.nx[w]) * py.at(i, waves_.ny[w]) * pz.at(i, waves_.nz[w]);
    };
    // The wave vectors k for this box and their Gaussian weights A_k, once per evaluation.
    const std::size_t count = waves_.size();
    std::vector<core::Vec3<double>> wave(count);
    std::vector<double> weight(count);
    for (std::size_t w = 0; w < count; ++w) {
      wave[w] = {2.0 * std::numbers::pi * waves_.nx[w] / L.x,
                 2.0 * std::numbers::pi * waves_.ny[w] / L.y,
                 2.0 * std::numbers::pi * waves_.nz[w] / L.z};
      const double k2 = core::dot(wave[w], wave[w]);
      weight[w] = std::exp(-k2 / (4.0 * alpha() * alpha())) / k2;
    }
    // Structure factors S(k), each summed in particle order (then over the ranks in order).
    std::vector<Complex> structure(count);
#pragma omp parallel for schedule(static)
    for (std::size_t w = 0; w < count; ++w) {
      Complex s = 0.0;
      for (std::size_t i = begin; i < end; ++i) s += q[i] * phase(i, w);
      structure[w] = s;
    }
    // std::complex<double> is two doubles, real then imaginary ([complex.numbers]).
    rank_sum(reinterpret_cast<double*>(structure.data()), 2 * count);
    const double force_scale = coulomb_factor() * 4.0 * std::numbers::pi / volume;
#pragma omp parallel for schedule(static)
    for (std::size_t i = begin; i < end; ++i) {
      core::Vec3<double> f{};
      double potential = 0.0;
      for (std::size_t w = 0; w < count; ++w) {
        const Complex e = phase(i, w);  // cos + i sin of k . r_i
        const double along =
            weight[w] * (structure[w].real() * e.imag() - structure[w].imag() * e.real());
        const auto& k = wave[w];
        f += core::Vec3<double>{along * k.x, along * k.y, along * k.z};
        if (with_energy)
          potential +=
              weight[w] * (structure[w].real() * e.real() + structure[w].imag() * e.imag());
      }
      out.force.x[i] += force_scale * q[i] * f.x;
      out.force.y[i] += force_scale * q[i] * f.y;
      out.force.z[i] += force_scale * q[i] * f.z;
      if (with_energy) out.energy[i] += 0.5 * q[i] * force_scale * potential;
    }
    if (!with_energy) return {};
    return reciprocal_virial(structure, weight, wave, volume);
  }

  /// Each rank sums the structure factors of its owned particles: S(k) is a sum over particles.
  bool splits_over_ranks() const override {
    return true;
  }

  core::SymmetricTensor<double> reciprocal_virial(const std::vector<Complex>& structure,
                                                  const std::vector<double>& weight,
                                                  const std::vector<core::Vec3<double>>& wave,
                                                  double volume) const {
    core::SymmetricTensor<double> total;
    const double scale = coulomb_factor() * 2.0 * std::numbers::pi / volume;
    for (std::size_t w = 0; w < structure.size(); ++w) {
      const auto& k = wave[w];
      const double k2 = core::dot(k, k);
      const double energy = scale * weight[w] * std::norm(structure[w]);
      const double c = 2.0 * (1.0 / k2 + 1.0 / (4.0 * alpha() * alpha()));
      core::SymmetricTensor<double> term;
      term.add_symmetrized_outer(k.x, k.y, k.z, -c * energy * k.x, -c * energy * k.y,
                                 -c * energy * k.z);
      for (int a = 0; a < 3; ++a) term.c[a] += energy;
      total += term;
    }
    return total;
  }

  std::array<int, 3> kmax_;
  physics::WaveVectors waves_;
};

}  // namespace

std::unique_ptr<CpuForceTerm> make_cpu_ewald_term(std::unique_ptr<CpuForceTerm> real_space,
                                                  const CoulombSettings& settings,
                                                  const core::UnitSystem& units) {
  if (!settings.kspace_resolved()) throw std::logic_error("coulomb ewald: parameters not resolved");
  return std::make_unique<CpuEwaldTerm>(std::move(real_space), settings, units);
}

}  // namespace novamd::forces
