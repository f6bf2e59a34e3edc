#pragma once
/// @file coupled_set.hpp
/// A molecule's coupled distance constraints as the plan holds them (constraint_plan.hpp,
/// all_bonds), and every set of a plan in flat arrays for the updates of
/// coupled_constraints.hpp.

#include <cstdint>
#include <vector>

#include "novamd/constraints/cluster_constraints.hpp"

namespace novamd::constraints {

/// One molecule's coupled constraints (the plan's form).
struct CoupledSet {
  std::vector<std::int32_t> ids;                ///< its particles, ascending
  std::vector<DistanceConstraint> constraints;  ///< i, j: positions in ids
  /// K^-1 by rows (one per constraint): row k is entries offsets[k] .. offsets[k + 1] - 1.
  std::vector<std::int32_t> inverse_offsets, inverse_column;
  std::vector<double> inverse_value;
};

/// Every set of a plan in flat arrays (host vectors; the CUDA backend copies them as they are).
struct CoupledLayout {
  std::vector<std::int32_t> particle_offset{0};    ///< per set, into id
  std::vector<std::int32_t> id;                    ///< the sets' particles
  std::vector<std::int32_t> constraint_offset{0};  ///< per set, into constraint
  std::vector<DistanceConstraint> constraint;      ///< i, j: positions in the set's particles
  std::vector<std::int32_t> row_offset{0};         ///< per constraint, into column and value
  std::vector<std::int32_t> column;                ///< a constraint of the same set
  std::vector<double> value;

  int sets() const { return static_cast<int>(particle_offset.size()) - 1; }
  std::size_t particles() const { return id.size(); }
  std::size_t constraints() const { return constraint.size(); }
};

CoupledLayout layout_of(const std::vector<CoupledSet>& sets);

}  // namespace novamd::constraints
