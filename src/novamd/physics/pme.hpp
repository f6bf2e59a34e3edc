#pragma once
/// @file pme.hpp
/// Smooth particle-mesh Ewald: the reciprocal sum of the Ewald split (physics/ewald.hpp) on a
/// K_x x K_y x K_z grid with cardinal B-splines of order p (Essmann, Perera, Berkowitz, Darden,
/// Lee and Pedersen, J. Chem. Phys. 103, 8577 (1995), equations 3.1 to 4.9):
///
///     u_i,a   = K_a x_i,a / L_a                                    scaled fractional coordinate
///     Q(k)    = sum_i q_i M_p(u_i,x - k_x) M_p(u_i,y - k_y) M_p(u_i,z - k_z)   (k periodic)
///     E_rec   = 1/2 sum_{m != 0} G(m) |Q^(m)|^2,   Q^ the discrete Fourier transform of Q
///     G(m)    = k_e / (pi V) exp(-pi^2 |m|^2 / alpha^2) / |m|^2 B(m),
///               m = (m_x / L_x, m_y / L_y, m_z / L_z), m_a in (-K_a/2, K_a/2]
///     B(m)    = prod_a |b_a(m_a)|^2,  1 / |b_a(m)|^2 = |sum_{k=0}^{p-2} M_p(k+1) e^(2 pi i m k /
///     K_a)|^2 F_i     = -q_i sum_k grad_i[M_p M_p M_p](k) (theta * Q)(k),   theta * Q = IFFT(G
///     FFT(Q)) W_ab    = sum_{m != 0} E(m) [delta_ab - 2 (1 + pi^2 |m|^2 / alpha^2) m_a m_b /
///     |m|^2]
///
/// with E(m) = 1/2 G(m) |Q^(m)|^2 and W in the sum r (x) f convention (core/tensor.hpp): the
/// derivative of E_rec under a uniform deformation of the box, the particles' scaled coordinates
/// held (Essmann eq. 2.6 and 4.9). Where 1/|b(m)|^2 vanishes (odd p at m = K/2) |b|^2 is the
/// mean of its neighbours', as OpenMM does. The self, excluded-pair and background terms are
/// the Ewald sum's.

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "novamd/core/host_device.hpp"

namespace novamd::physics {

constexpr int kMaxPmeOrder = 6;

/// The B-spline weights M_p(w + p - 1 - j) and their derivatives d/du for j = 0 .. p-1, of a
/// particle whose scaled coordinate has fractional part w in [0, 1): weight j goes to grid point
/// floor(u) + j (every particle's stencil shifted by the same p - 1 points, which leaves the
/// periodic convolution unchanged). Essmann's recursion M_n(u) = [u M_{n-1}(u) + (n - u)
/// M_{n-1}(u - 1)] / (n - 1), with dM_n/du = M_{n-1}(u) - M_{n-1}(u - 1).
template <class T>
NOVAMD_HD void bspline_weights(T w, int order, T* value, T* derivative) {
  value[order - 1] = T(0);
  value[1] = w;
  value[0] = T(1) - w;
  for (int j = 3; j < order; ++j) {
    const T div = T(1) / T(j - 1);
    value[j - 1] = div * w * value[j - 2];
    for (int k = 1; k < j - 1; ++k)
      value[j - k - 1] = div * ((w + T(k)) * value[j - k - 2] + (T(j - k) - w) * value[j - k - 1]);
    value[0] = div * (T(1) - w) * value[0];
  }
  derivative[0] = -value[0];
  for (int j = 1; j < order; ++j) derivative[j] = value[j - 1] - value[j];
  const T div = T(1) / T(order - 1);
  value[order - 1] = div * w * value[order - 2];
  for (int k = 1; k < order - 1; ++k)
    value[order - k - 1] =
        div * ((w + T(k)) * value[order - k - 2] + (T(order - k) - w) * value[order - k - 1]);
  value[0] = div * (T(1) - w) * value[0];
}

/// |b(m)|^2 for m = 0 .. K-1 on an axis of K points, B-splines of order p.
inline std::vector<double> bspline_moduli(int points, int order) {
  // M_p at the integers 1 .. p-1 (the weights of w = 0).
  double value[kMaxPmeOrder], derivative[kMaxPmeOrder];
  bspline_weights(0.0, order, value, derivative);  // value[j] = M_p(p - 1 - j)
  std::vector<double> moduli(static_cast<std::size_t>(points));
  for (int m = 0; m < points; ++m) {
    std::complex<double> sum = 0.0;
    for (int k = 0; k <= order - 2; ++k)
      sum += value[order - 2 - k] *
             std::polar(1.0, 2.0 * std::numbers::pi * m * k / static_cast<double>(points));
    const double denominator = std::norm(sum);
    moduli[static_cast<std::size_t>(m)] = denominator > 1e-14 ? 1.0 / denominator : -1.0;
  }
  for (int m = 0; m < points; ++m) {  // the zeros of odd orders: the neighbours' mean
    auto& b = moduli[static_cast<std::size_t>(m)];
    if (b >= 0.0) continue;
    b = 0.5 * (moduli[static_cast<std::size_t>((m + points - 1) % points)] +
               moduli[static_cast<std::size_t>((m + 1) % points)]);
  }
  return moduli;
}

/// The signed frequency of FFT index k on an axis of K points: k, or k - K past K/2.
NOVAMD_HD int pme_frequency(int k, int points) {
  return k <= points / 2 ? k : k - points;
}

/// One grid frequency's factor G(m) and the energy and virial it contributes.
struct PmeWave {
  double influence = 0.0;  ///< G(m)
  double m2 = 0.0;         ///< |m|^2
};

/// G(m) for m = (mx / Lx, my / Ly, mz / Lz) with the B-spline moduli b_x b_y b_z already
/// multiplied; zero at m = 0. `energy_scale` is k_e / (pi V).
NOVAMD_HD PmeWave pme_wave(double mx, double my, double mz, double moduli, double alpha,
                           double energy_scale) {
  PmeWave out;
  out.m2 = mx * mx + my * my + mz * mz;
  if (out.m2 == 0.0) return out;
  const double pi2 = std::numbers::pi * std::numbers::pi;
  out.influence = energy_scale * moduli * std::exp(-pi2 * out.m2 / (alpha * alpha)) / out.m2;
  return out;
}

}  // namespace novamd::physics
