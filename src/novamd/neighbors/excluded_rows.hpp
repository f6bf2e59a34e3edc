#pragma once
/// @file excluded_rows.hpp
/// The excluded pairs (exclusions.hpp) as the all-pairs and cell-list traversals read them on
/// both backends: for each particle, the storage indices of the particles it is excluded from,
/// ascending. These traversals visit a target's sources in runs of ascending storage index (a
/// range of indices, a cell's particles); an ExclusionCursor walks the target's row beside a
/// run, so that a source costs one comparison and the row is read once per run, however long
/// the run (OpenMM and GROMACS mark excluded pairs in the tiles of their lists instead; with no
/// list, the row itself is the mark).
///
/// Layout: the rows of core::ExclusionLists (by id, the same offsets), each entry mapped from
/// an id to the partner's current storage index and the row sorted. Rebuilt when the particles
/// are reordered (ExcludedRows here, DeviceExcludedRows in excluded_rows_cuda.cuh).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "novamd/core/host_device.hpp"
#include "novamd/neighbors/exclusions.hpp"

namespace novamd::neighbors {

/// One target's row, walked along ascending sources: the partners not yet passed, the first
/// of them kept at hand (a register on the GPU), so that a source that is not a partner costs
/// two comparisons and no memory access.
struct ExclusionCursor {
  static constexpr std::int32_t kNone = INT32_MAX;  ///< `upcoming` past the last partner

  const std::int32_t* next = nullptr;  ///< the partners not yet passed: [next, end)
  const std::int32_t* end = nullptr;
  std::int32_t upcoming = kNone;  ///< *next, or kNone at the end

  /// The row [first, last), from its start.
  NOVAMD_HD static ExclusionCursor over(const std::int32_t* first, const std::int32_t* last) {
    return {first, last, first != last ? *first : kNone};
  }

  /// Passes the partners below source j by bisection: where a run starts.
  NOVAMD_HD void seek(std::int32_t j) {
    for (auto count = end - next; count > 0;) {
      const auto half = count / 2;
      if (next[half] < j) {
        next += half + 1;
        count -= half + 1;
      } else {
        count = half;
      }
    }
    upcoming = next != end ? *next : kNone;
  }
  /// Passes the partners below source j, one by one: along a run.
  NOVAMD_HD void pass_below(std::int32_t j) {
    while (upcoming < j) upcoming = ++next != end ? *next : kNone;
  }
  /// Whether source j is excluded. Between two calls the sources ascend (a run, or every G-th
  /// source of one).
  NOVAMD_HD bool excludes(std::int32_t j) {
    pass_below(j);
    return upcoming == j;
  }
  /// Whether a partner lies in [first, last] (after passing those below `first`).
  NOVAMD_HD bool any_within(std::int32_t first, std::int32_t last) {
    pass_below(first);
    return upcoming <= last;
  }
};

/// Rows by id (core::ExclusionLists' offsets), entries storage indices ascending within a row;
/// `id`: the id of each storage index. Default: no exclusions.
struct ExcludedRowsView {
  const std::int32_t* offsets = nullptr;  ///< N + 1 row offsets, by id; null: none
  const std::int32_t* index = nullptr;    ///< the partners' storage indices
  const std::int32_t* id = nullptr;       ///< id of each storage index

  NOVAMD_HD bool any() const { return offsets != nullptr; }

  /// The row of the particle at storage index i, from its start.
  NOVAMD_HD ExclusionCursor row(int i) const {
    const std::int32_t a = id[i];
    return ExclusionCursor::over(index + offsets[a], index + offsets[a + 1]);
  }
};

/// The rows on the host, rebuilt from the exclusion lists whenever the particles' storage order
/// is not the one they were built for.
class ExcludedRows {
 public:
  /// Rebuilds the rows of `lists` (rows by id, kept alive by the caller) for the storage order
  /// `id` (n particles) where the order changed since the last call; O(n) to check.
  void update(const ExclusionView& lists, const std::int32_t* id, std::size_t n);
  /// The rows for the order of the last update.
  ExcludedRowsView view() const { return {offsets_, index_.data(), id_.data()}; }

 private:
  const std::int32_t* offsets_ = nullptr;
  std::vector<std::int32_t> index_;
  std::vector<std::int32_t> id_;  ///< the storage order the rows were built for
};

}  // namespace novamd::neighbors
