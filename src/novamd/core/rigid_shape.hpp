#pragma once
/// @file rigid_shape.hpp
/// A rigid molecule's mass distribution in its principal frame: total mass, centre of mass,
/// principal moments of inertia and each site's position in the body frame, from the sites as a
/// component declares them (any frame; sites without mass, such as point charges and multipoles,
/// are carried along).
///
/// The inertia tensor about the centre of mass, I = sum_k m_k (|d_k|^2 1 - d_k d_k^T), is
/// diagonalised by cyclic Jacobi rotations (Golub and Van Loan, Matrix Computations, section
/// 8.5); the principal moments come in ascending order, I_1 <= I_2 <= I_3, and the body axes x,
/// y, z are their axes (a right-handed frame). A linear molecule (I_1 below 1e-10 of I_3) has
/// its axis along body x and two rotational degrees of freedom; a single massive site has none
/// (it does not turn: integrate::RotorInertia; core/components.hpp refuses sites off its point).

#include <array>
#include <span>
#include <vector>

#include "novamd/core/quaternion.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::core {

struct RigidShape {
  double mass = 0.0;
  Vec3<double> centre;   ///< the centre of mass, in the frame the sites were given in
  Vec3<double> moments;  ///< I_1 <= I_2 <= I_3 about the body axes x, y, z
  /// The body frame's orientation in the given frame: given = centre + R(axes) body.
  Quaternion<double> axes;
  std::vector<Vec3<double>> body;  ///< each site's position in the body frame
  int rotational_freedom = 3;      ///< 3; 2 for a linear molecule; 0 for a point mass
};

/// The shape of sites at `positions` with `masses` (equal sizes; zero masses allowed, at least
/// one positive). @throws core::InputError naming what is wrong otherwise.
RigidShape rigid_shape(std::span<const Vec3<double>> positions, std::span<const double> masses);

/// The eigen decomposition of a symmetric 3 x 3 matrix `a` (rows): the eigenvalues in ascending
/// order and the matching unit eigenvectors as the columns of a proper rotation (rows returned).
struct SymmetricEigen {
  std::array<double, 3> values;
  std::array<Vec3<double>, 3> vectors;  ///< rows of the matrix whose columns are eigenvectors
};
SymmetricEigen symmetric_eigen(const std::array<std::array<double, 3>, 3>& a);

}  // namespace novamd::core
