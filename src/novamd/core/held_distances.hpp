#pragma once
/// @file held_distances.hpp
/// The distances a run's constraints hold fixed, by particle pair: what the bonded terms need to
/// know to leave out a term whose every distance is held (forces/held_terms.hpp). The constraint
/// plan fills it (constraints::held_distances_of).

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>

namespace novamd::core {

class HeldDistances {
 public:
  /// Holds particles `a` and `b` (ids, either order) at `length`; a pair given twice keeps its
  /// first length.
  void hold(std::int32_t a, std::int32_t b, double length) { lengths_.emplace(key(a, b), length); }
  /// The length at which `a` and `b` are held, if they are.
  std::optional<double> length(std::int32_t a, std::int32_t b) const {
    const auto it = lengths_.find(key(a, b));
    if (it == lengths_.end()) return std::nullopt;
    return it->second;
  }
  bool empty() const { return lengths_.empty(); }
  std::size_t size() const { return lengths_.size(); }

 private:
  static std::uint64_t key(std::int32_t a, std::int32_t b) {
    if (a > b) std::swap(a, b);
    return (std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(b);
  }
  std::unordered_map<std::uint64_t, double> lengths_;
};

}  // namespace novamd::core
