#pragma once
/// @file neighbor_settings.hpp
/// `neighbors: {method, skin, check_every, reorder_every, layout}`: how pair forces find their
/// pairs, and how often particles are sorted in memory along a space-filling curve.

#include <algorithm>
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

/// Steps of the lightest particle's thermal speed in the default skin's lower bound
/// (thermal_skin): a longer step moves particles across half the skin in fewer steps, and the
/// skin grows with it. Measured (docs/performance.md, "the skin from the time step"): on DHFR
/// (hydrogens at 3.024 g/mol, 300 K) the bound is 0.91 A at 2 fs, below 0.12 x 9 A, and 1.82 A at
/// 4 fs, where the step took 0.2303 ms (H200, c116cb7; 0.2335 at 1.5 A, the best 0.2225 at 2.5 A);
/// PME water (hydrogens at 1.008 g/mol) gets 1.57 A at 2 fs, within 1% of its best. The LJ melt's
/// 0.3 sigma at T* = 1.44 and dt = 0.005 tau is both bounds.
inline constexpr double kThermalSkinSteps = 50.0;

/// kThermalSkinSteps time steps dt of the thermal speed sqrt(kT / m) of the lightest mass
/// (`thermal_speed_squared` = kT / m, in (length / time)^2).
inline double thermal_skin(double thermal_speed_squared, double dt) {
  return kThermalSkinSteps * std::sqrt(thermal_speed_squared) * dt;
}

/// The default skin of cluster pair lists, at least this share of the cutoff: their builds cost
/// more than per-particle lists' (a sort, a search, masks: about 165 us on DHFR against a 49 us
/// pair step), and a tile's partners lie within cutoff + skin of the cluster's bounds, which a
/// wider skin widens less than a particle's sphere. Measured on DHFR (JAC, 9 A, H200; 2,000
/// steps at each skin, docs/performance.md): at commit 5696114, 2 A took 0.1889 ms/step at 2 fs
/// against 0.1956 at 1.08 A (0.12 x 9 A), 2.5 A 0.2077 at 4 fs against 0.2126 at the thermal
/// 1.82 A; with the side streams and the faster search (2026-11-27), 2.5 A was the best at both
/// time steps (0.1582 ms/step at 2 fs and 0.1694 at 4 fs, against 0.1601 and 0.1722 at 2 A and
/// 0.1606 and 0.1824 at 1.5 A); on rigid TIP3P water at 2 fs (24,000 atoms), 2 A 0.2294 against
/// 0.2512 at 1.08 A.
inline constexpr double kClusterSkinShare = 0.28;

struct NeighborSettings {
  NeighborMethod method = NeighborMethod::Auto;
  /// length; default skin_for's
  std::optional<double> skin;
  /// thermal_skin at the thermostat's temperature (set when the config is read), else 0.
  double thermal_bound = 0.0;
  std::int64_t check_every = 1;  ///< steps between checks for a rebuild
  /// Force evaluations between reorderings of the particles along the Morton curve (0: never).
  /// Close particles then share cache lines; each reordering costs about one list build.
  std::int64_t reorder_every = 200;
  /// The CUDA backend's Verlet lists; `auto` is resolved when the config is read.
  ListLayout layout = ListLayout::Auto;
  /// The shortest box edge, in list reaches (cutoff + skin), from which `auto` picks Verlet
  /// lists: 3 where lists need a grid of 3 cells of the reach (the CUDA backend's), 2 on the CPU
  /// backend (app::Simulation sets it), whose lists in smaller boxes take every particle as a
  /// candidate at a build and still beat all pairs between builds: 1.5 times on the solvated
  /// peptide (a 37 A box, 12 A reach: 14% of the pairs within it), 1.8 times on 2,000 nucleons
  /// of pasta (34.2 fm, 16.2 fm: 44%, lists rebuilt every other step); docs/performance.md.
  double auto_list_reaches = 3.0;

  /// The skin of a pair force with this cutoff in a box whose shortest edge is `shortest_edge`:
  /// the explicit one, else the larger of 0.12 x the cutoff (0.3 sigma at 2.5 sigma) and what
  /// the run would rather have, at most what leaves the box three cells of cutoff + skin per
  /// axis (so that it never turns `auto` to all pairs): thermal_bound, and with cluster pair
  /// lists kClusterSkinShare x the cutoff.
  double skin_for(double cutoff, double shortest_edge) const {
    if (skin) return *skin;
    const double room = shortest_edge / 3.0 - cutoff;
    const double cluster_share = layout == ListLayout::Clusters ? kClusterSkinShare * cutoff : 0.0;
    return std::max(plain_skin_for(cutoff), std::min(std::max(thermal_bound, cluster_share), room));
  }
  /// The skin without the thermal bound: the explicit one, else 0.12 x the cutoff. `auto`
  /// chooses its method with this one.
  double plain_skin_for(double cutoff) const { return skin ? *skin : 0.12 * cutoff; }
};

/// The method a pair force with this cutoff uses in this box: `auto` becomes a neighbour list
/// when the cutoff is finite and the shortest edge holds at least auto_list_reaches of cutoff +
/// skin (the skin without its thermal bound, plain_skin_for; else all pairs); an explicit
/// method is kept, except that an infinite cutoff always means all pairs.
inline NeighborMethod resolve_method(const NeighborSettings& settings, double cutoff,
                                     double shortest_edge) {
  if (std::isinf(cutoff)) return NeighborMethod::AllPairs;
  if (settings.method != NeighborMethod::Auto) return settings.method;
  return shortest_edge >= settings.auto_list_reaches * (cutoff + settings.plain_skin_for(cutoff))
             ? NeighborMethod::NeighborList
             : NeighborMethod::AllPairs;
}

}  // namespace novamd::neighbors
