#pragma once
/// @file coupled_plan.hpp
/// Setting up the coupled sets of coupled_constraints.hpp: CCMA's approximate inverse K^-1 of
/// each molecule, computed once (dense Gauss-Jordan elimination, O(n^3) in the molecule's bonds:
/// about 4 s of CPU time for the 2,523 bonds of the JAC benchmark's DHFR), and the sets' flat
/// layout.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "novamd/constraints/coupled_constraints.hpp"

namespace novamd::constraints {

/// The most constraints one molecule's set may have (its dense K takes 8 n^2 bytes at setup).
inline constexpr std::size_t kMaxCoupledConstraints = 6000;

/// cos theta0 of the angle p-x-q (ids) from the topology's angle terms, 0 where it has none.
using CosineAtVertex = std::function<double(std::int32_t p, std::int32_t x, std::int32_t q)>;

/// Fills set.inverse_* with K^-1 (entries below kCcmaDropBelow dropped, the diagonal kept).
/// @throws core::InputError where the set is too large or its constraints are dependent.
void invert_coupling(CoupledSet& set, std::span<const double> mass_by_id,
                     const CosineAtVertex& cosine);

}  // namespace novamd::constraints
