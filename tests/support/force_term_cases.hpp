#pragma once
// The table of force-term cases that one test body (support/force_term_check.hpp) runs on every
// traversal, precision and backend (ForceTerms on the CPU, CudaForceTerms on the GPU), and the
// error model that gives each comparison its tolerance.
//
// The model bounds, pair by pair, how far a backend's pair terms and its sums over them may lie
// from the exact values; the tolerance of a comparison is the bound of the backend under test
// plus that of the reference (the CPU, all pairs, in double), both measured from the exact pair
// term at the reference's separation d (the minimum image in double). A pair term's error has
// three sources:
//   (a) the separation it is evaluated at. Where the backend's separation differs from d, it
//       does so by IEEE operations the test repeats exactly: the CPU rounds each component of d
//       to the pair type; CUDA rounds the positions to the pair type and takes the difference
//       and the image shift there (x_i - x_j rounded, then d - L k rounded once: an FMA or not,
//       L k is exact for k = -1, 0, 1). So each component's error is known; only r^2's own
//       roundings (three, plus two for the squares: 2.5 eps relative, 1.25 eps in r) are
//       bounded. F/r changes with r by |d(F/r)/dr| <= G / r^2, G the term's *sensitivity*
//       (force units). Where a component lies within a few ulps of half the box, the pair type
//       may take the other image: the force's component flips;
//   (b) the evaluator's arithmetic: a few roundings per operation, and exp, whose argument
//       carries a relative error that exp turns into an absolute one of x eps (x the argument),
//       plus the function's own ulps (CPU: glibc, 1; CUDA: __expf 2.5 + 1.2 x, rsqrtf 2.5, the
//       FP64 functions 1.5; CUDA C Programming Guide, measured in test_device_math.cu); the
//       shifts at the cutoff as the pair type computes them; a pair within round-off of the
//       cutoff may be in one sum and not the other, and counts whole;
//   (c) the sums over a target's pairs: a term passes at most `depth` roundings on its way into
//       the total, each of at most eps/2 of the sum of the magnitudes (Higham, Accuracy and
//       Stability of Numerical Algorithms, eq. 4.4); adding a zero is exact, so a tree of m
//       nonzero terms rounds each at most m - 1 times.
// The steepness of the potential thus belongs to the term (its sensitivity G, with its
// evaluator's roundings: TermModel::Bare, force_term_cases.cpp), how separations are rounded
// and how deep the sums are to the backend (Arithmetic).

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "novamd/backend/backend.hpp"
#include "novamd/core/box.hpp"
#include "novamd/core/precision.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/forces/force_settings.hpp"

namespace novamd::test {

/// One row of the table: a named system with one or two force terms.
struct ForceTermCase {
  std::string name;    ///< "yukawa_cutoff_none", ...: the test's parameter name
  std::uint64_t seed;  ///< positions and moves; printed by the test
  /// The system: units, species, box, particles, forces, neighbors.skin (method and precision
  /// are the test's).
  std::function<backend::BackendSetup(std::uint64_t seed)> build;
  double min_distance;  ///< no two particles closer at the start (the moves keep half of it)
  /// The tail correction of the case's Lennard-Jones term, written out independently of
  /// forces::tail_correction; empty where no term asks for one.
  std::function<forces::TailCorrection(const backend::BackendSetup&, const core::ParticleData&)>
      tail;
};

/// Every case: Yukawa without cutoff and in each truncation, a Lennard-Jones mixture (with xi
/// and eta) in each truncation and with a tail correction, nuclear pasta at the default cutoff,
/// nuclear + screened Coulomb in several truncations, the Lennard-Jones mixture as tables
/// (linear and spline), and Lennard-Jones and Yukawa (without cutoff) as custom_pair formulas.
const std::vector<ForceTermCase>& force_term_cases();

/// How a backend computes pair terms and sums them, as far as its round-off goes.
struct Arithmetic {
  std::string name;                         ///< "cpu mixed", "cuda single", ...
  double eps = 0;                           ///< machine epsilon of the pair type
  double rsqrt_ulps = 0;                    ///< 1/sqrt(x) in the pair type
  double reciprocal_ulps = 0;               ///< 1/x in the pair type (core::reciprocal_hd)
  double exp_ulps = 0, exp_ulps_per_x = 0;  ///< exp(-x): exp_ulps + exp_ulps_per_x x ulps
  bool fp32 = false;                        ///< the pair type is float
  /// Positions rounded to the pair type before the minimum image (CUDA); else the minimum image
  /// taken in double and the separation rounded (CPU).
  bool rounds_positions = false;
  /// Separations may also be plain differences of positions each moved to a periodic image
  /// (one rounding each, the cluster kernel's single image per partner).
  bool shifts_images = false;
  double underflow = 0;  ///< smallest normal number of the pair type: terms below it are lost
  double sum_eps = 0;    ///< machine epsilon of the type a target's pair terms are summed in
  /// The most roundings in that type (each eps/2) a term passes in the sums of a target with
  /// `nonzero` nonzero terms among `n` particles.
  std::function<double(double nonzero, double n)> sum_depth;
  /// Further roundings in double (partial sums of tiles, chunks and terms, and the sum of the
  /// per-particle energy shares), for `n` particles.
  std::function<double(double n)> double_depth;
  /// Absolute error of each force component per term from fixed-point accumulation, for `n`
  /// particles in `columns` cluster columns (neighbors/cluster_grid.hpp; 0 where sums are
  /// floating point throughout); the energy and each virial component carry at most n times as
  /// much.
  std::function<double(double n, double columns)> fixed_error = [](double, double) { return 0.0; };
  /// Whether the backend runs a term over Verlet lists where cell lists are asked (custom_pair
  /// on the GPU): its list builds then count as the lists' do.
  std::function<bool(const forces::ForceSettings&)> cells_over_lists =
      [](const forces::ForceSettings&) { return false; };
};

/// The CPU traversals (target_sums.hpp) at precision p.
Arithmetic cpu_arithmetic(core::Precision p);
/// The CUDA traversals (target_lanes_cuda.cuh, all_pairs_cuda.cuh, all_pairs_half_cuda.cuh).
Arithmetic cuda_arithmetic(core::Precision p);
/// The CUDA cluster pair lists (cluster_pair_force_cuda.cuh): sums in the pair type, then
/// 64-bit fixed point.
Arithmetic cuda_cluster_arithmetic(core::Precision p);

/// How far a pair's separation vector, as a backend sees it, lies from the reference's.
struct SeparationError {
  double component = 0;  ///< the largest of its components' errors
  double r = 0;          ///< bound on the error of r as the evaluator gets it (from r^2)
  /// A component lies within a few ulps of half the box: the backend and the reference may
  /// take different images (the force component flips; r, V and r . f do not change).
  bool image_may_flip = false;
};

/// For particles at r_i and r_j (in the box), whose minimum image in double is `d`, of length r.
SeparationError separation_error(const core::Vec3<double>& ri, const core::Vec3<double>& rj,
                                 const core::Vec3<double>& d, double r, const core::Box& box,
                                 const Arithmetic& arith);

/// One pair term's magnitudes and error bounds, in double.
struct PairError {
  double force_scale = 0;   ///< |F|: the sum of the magnitudes of the terms F is made of
  double energy_scale = 0;  ///< |V|, likewise
  double force = 0;         ///< bound on the error of each component of the pair's force
  double energy = 0;        ///< bound on the error of V
  double virial = 0;        ///< bound on the error of r . f = F r
  bool counted = false;     ///< a nonzero term in some backend's sums
};

/// The parameters of one species pair of a force term, in double.
template <class Settings>
struct ParamsOf {
  using type = typename Settings::template Potential<double>::Params;
};
template <>
struct ParamsOf<forces::PairTableSettings> {
  using type = physics::TableParams<double>;
};

/// A force term's error model: its pair terms per species pair, cutoff and truncation, for one
/// backend's arithmetic (the shifts at the cutoff are computed once per species pair).
class TermModel {
 public:
  TermModel(const forces::ForceSettings& settings, const core::SpeciesTable& species,
            const core::UnitSystem& units, const Arithmetic& arith);
  double cutoff() const { return cutoff_; }
  /// The pair of types (a, b) at distance r, its separation off by `s`.
  PairError pair(int a, int b, double r, const SeparationError& s) const;

  /// The bare potential's terms at r (no cutoff), double. Each potential supplies them in
  /// force_term_cases.cpp (`bare_terms`, overloaded on its parameters): a new potential does not
  /// compile here until it has its error model.
  struct Bare {
    double force = 0, energy = 0;                    ///< F = -dV/dr, V
    double force_scale = 0, energy_scale = 0;        ///< magnitudes of their terms, summed
    double sensitivity = 0;                          ///< G >= |d(F/r)/dr| r^2, force units
    double force_rounding = 0, energy_rounding = 0;  ///< the evaluator's rounding, in eps
    double lost_force = 0, lost_energy = 0;  ///< terms below the pair type's smallest normal
  };
  Bare bare(int a, int b, double r) const;

 private:
  struct Shift {
    double force = 0, energy = 0;                               ///< F(r_c), V(r_c)
    double force_error = 0, energy_error = 0, shift_error = 0;  ///< as the pair type has them
  };
  /// The double pair tables of every force term NovaMD knows (one per ForceSettings type).
  template <class Variant>
  struct TablesOf;
  template <class... Settings>
  struct TablesOf<std::variant<Settings...>> {
    using type = std::variant<physics::PairTable<typename ParamsOf<Settings>::type>...>;
  };
  using Tables = typename TablesOf<forces::ForceSettings>::type;
  Tables tables_;
  Arithmetic arith_;
  double cutoff_;
  physics::Truncation truncation_;
  int types_;
  std::vector<Shift> shifts_;  ///< per species pair
};

}  // namespace novamd::test
