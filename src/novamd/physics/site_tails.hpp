#pragma once
/// @file site_tails.hpp
/// Tail integrals of a site-site power law between rigid molecules in a uniform, isotropic fluid
/// (Lustig, Mol. Phys. 65, 175 (1988); the homogeneous long-range correction of ls1-mardyn,
/// longRange/Homogeneous.cpp): two sites at distances a and b from their molecules' centres,
/// whose orientations are uniform and independent, and whose centres are R apart. Written for
/// this engine from the distributions below.
///
/// A point uniform on a sphere of radius a at distance R > a from a point has its distance r
/// spread as r / (2 R a) over [R - a, R + a], so
///
///     <r^-k>_a(R) = [(R - a)^(2 - k) - (R + a)^(2 - k)] / (2 R a (k - 2)),
///
/// and averaging that over the second site's sphere of radius b,
///
///     <r^-k>_ab(R) = S(R) / (4 R a b (k - 2)(k - 3)),
///     S(R) = (R + a + b)^(3-k) - (R + a - b)^(3-k) - (R - a + b)^(3-k) + (R - a - b)^(3-k).
///
/// The tail integral T_k = int_{r_c}^inf R^2 <r^-k>(R) dR then needs only
/// int_{r_c}^inf R (R + s)^(3 - k) dR = (r_c + s)^(5-k) / (k - 5) - s (r_c + s)^(4-k) / (k - 4)
/// (R = (R + s) - s), for k > 5. Sites at the centre (a = 0 or b = 0) take the limits: r^-k
/// itself, or the one-sphere average.

#include <cmath>

namespace novamd::physics {

/// int_{r_c}^inf R (R + s)^(3 - k) dR, k > 5.
inline double shifted_moment(double rc, double s, int k) {
  return std::pow(rc + s, 5 - k) / (k - 5) - s * std::pow(rc + s, 4 - k) / (k - 4);
}

/// <r^-k> over the sites' spheres (radii a, b >= 0) at centre distance R > a + b.
inline double averaged_inverse_power(double R, int k, double a, double b) {
  if (a == 0.0 && b == 0.0) return std::pow(R, -k);
  if (a == 0.0 || b == 0.0) {
    const double t = a + b;
    return (std::pow(R - t, 2 - k) - std::pow(R + t, 2 - k)) / (2.0 * R * t * (k - 2));
  }
  const double s = std::pow(R + a + b, 3 - k) - std::pow(R + a - b, 3 - k) -
                   std::pow(R - a + b, 3 - k) + std::pow(R - a - b, 3 - k);
  return s / (4.0 * R * a * b * (k - 2) * (k - 3));
}

/// T_k = int_{r_c}^inf R^2 <r^-k>(R) dR for k > 5 and r_c > a + b.
inline double tail_integral(double rc, int k, double a, double b) {
  if (a == 0.0 && b == 0.0) return std::pow(rc, 3 - k) / (k - 3);
  if (a == 0.0 || b == 0.0) {
    // R <r^-k> = [(R - t)^(2-k) - (R + t)^(2-k)] / (2 t (k - 2)), with (3 - k) -> (2 - k) in
    // shifted_moment's form: int R (R + s)^(2-k) dR = (r_c + s)^(4-k) / (k - 4) - s (r_c +
    // s)^(3-k) / (k - 3).
    const double t = a + b;
    const auto moment = [&](double s) {
      return std::pow(rc + s, 4 - k) / (k - 4) - s * std::pow(rc + s, 3 - k) / (k - 3);
    };
    return (moment(-t) - moment(t)) / (2.0 * t * (k - 2));
  }
  const double sum = shifted_moment(rc, a + b, k) - shifted_moment(rc, a - b, k) -
                     shifted_moment(rc, -a + b, k) + shifted_moment(rc, -a - b, k);
  return sum / (4.0 * a * b * (k - 2) * (k - 3));
}

}  // namespace novamd::physics
