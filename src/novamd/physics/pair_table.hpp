#pragma once
/// @file pair_table.hpp
/// Parameters of a pair potential for every ordered pair of species types.

#include <memory>
#include <vector>

#include "novamd/core/host_device.hpp"

namespace novamd::physics {

/// Non-owning view, passed by value to traversals and kernels.
template <class Params>
struct PairTableView {
  const Params* data;
  int num_types;

  NOVAMD_HD const Params& operator()(int type_i, int type_j) const {
    return data[type_i * num_types + type_j];
  }
};

/// Owning host table, num_types x num_types, row-major.
template <class Params>
class PairTable {
 public:
  PairTable() = default;
  explicit PairTable(int num_types) : num_types_(num_types), params_(num_types * num_types) {}

  int num_types() const { return num_types_; }
  Params& at(int type_i, int type_j) { return params_[type_i * num_types_ + type_j]; }
  const std::vector<Params>& data() const { return params_; }
  PairTableView<Params> view() const { return {params_.data(), num_types_}; }

  /// Keeps `data` alive with the table and its copies: memory the parameters point into (a
  /// tabulated potential's knots).
  void hold(std::shared_ptr<const void> data) { held_.push_back(std::move(data)); }
  /// Keeps alive what `other` keeps (a table made from it: its parameters point where its do).
  template <class Other>
  void hold_what(const PairTable<Other>& other) {
    for (const auto& data : other.held()) hold(data);
  }
  const std::vector<std::shared_ptr<const void>>& held() const { return held_; }

 private:
  int num_types_ = 0;
  std::vector<Params> params_;
  std::vector<std::shared_ptr<const void>> held_;
};

}  // namespace novamd::physics
