#pragma once
/// @file neighbor_settings.hpp
/// `neighbors: {method, skin, check_every, reorder_every, layout}`: how pair forces find their
/// pairs, and how often particles are sorted in memory along a space-filling curve.

#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

namespace novamd::neighbors {

enum class NeighborMethod {
  Auto,          ///< neighbor_list where the cutoff allows, else all_pairs
  AllPairs,      ///< every pair under the minimum image
  CellList,      ///< the 27 cells around each particle, cells rebuilt every step
  NeighborList,  ///< Verlet lists within cutoff + skin, rebuilt when needed
};

/// How the CUDA backend stores its Verlet lists (the CPU backend's are per particle).
enum class ListLayout {
  Auto,      ///< chosen by resolve_layout from the precision and the force terms
  Atoms,     ///< a list per particle: each pair in both particles' lists, no scattered sums
  Clusters,  ///< pairs of 32-particle clusters: each pair once, reactions in 64-bit fixed point
};

/// The layout of `name` (`neighbors.layout`, `bench --layout`): "auto", "atoms" or "clusters";
/// none for another name.
inline std::optional<ListLayout> list_layout_named(std::string_view name) {
  if (name == "auto") return ListLayout::Auto;
  if (name == "atoms") return ListLayout::Atoms;
  if (name == "clusters") return ListLayout::Clusters;
  return std::nullopt;
}

/// The layout `auto` stands for, as measured (docs/performance.md, "cluster pairs measured"):
/// cluster pairs for charged systems (a term with per-particle charges: erfc or cutoff Coulomb
/// beside Lennard-Jones) in mixed or single precision, where they are 3 to 11% faster per step
/// on 24,000 atoms of PME water; per-particle lists in double (whose 64-bit shuffles make
/// clusters 10% slower there) and for uncharged systems (the LJ melt's measured layout). An
/// explicit layout is kept.
inline ListLayout resolve_layout(ListLayout layout, bool double_precision, bool charged) {
  if (layout != ListLayout::Auto) return layout;
  return charged && !double_precision ? ListLayout::Clusters : ListLayout::Atoms;
}

struct NeighborSettings {
  NeighborMethod method = NeighborMethod::Auto;
  std::optional<double> skin;    ///< length; default 0.12 x the cutoff (0.3 sigma at 2.5 sigma)
  std::int64_t check_every = 1;  ///< steps between checks for a rebuild
  /// Force evaluations between reorderings of the particles along the Morton curve (0: never).
  /// Close particles then share cache lines; each reordering costs about one list build.
  std::int64_t reorder_every = 200;
  /// The CUDA backend's Verlet lists; `auto` is resolved when the config is read.
  ListLayout layout = ListLayout::Auto;

  double skin_for(double cutoff) const { return skin ? *skin : 0.12 * cutoff; }
};

/// The method a pair force with this cutoff uses in this box: `auto` becomes a neighbour list
/// when the cutoff is finite and the box holds at least 3 cells of cutoff + skin per axis (else
/// all pairs); an explicit method is kept, except that an infinite cutoff always means all pairs.
inline NeighborMethod resolve_method(const NeighborSettings& settings, double cutoff,
                                     double shortest_edge) {
  if (std::isinf(cutoff)) return NeighborMethod::AllPairs;
  if (settings.method != NeighborMethod::Auto) return settings.method;
  return shortest_edge >= 3.0 * (cutoff + settings.skin_for(cutoff)) ? NeighborMethod::NeighborList
                                                                     : NeighborMethod::AllPairs;
}

}  // namespace novamd::neighbors
