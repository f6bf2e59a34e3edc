#pragma once
/// @file pair_parameters_cuda.cuh
/// Where a pair kernel finds a pair's parameters. TablePairs: the evaluator's table, an entry per
/// ordered type pair (num_types^2 entries in shared memory). RecordPairs: a record per type
/// (physics/type_records.hpp; num_types records in shared memory, whatever the number of types),
/// from which each pair is evaluated directly where the records allow it
/// (TypeRecords::evaluate_direct), else through its entry rebuilt in registers. Both stage their
/// data in the block's shared memory at the kernel's start (`stage`) and give a row per first
/// particle's type (`row`). What a kernel keeps of the second particle is its `Partner`: its
/// type for a table, its record for records (read once per partner, not once per pair).

#include <cstddef>

#include "novamd/neighbors/target_lanes_cuda.cuh"
#include "novamd/physics/charge_scaled.hpp"
#include "novamd/physics/type_records.hpp"

namespace novamd::neighbors {

/// `pair` where the pair counts (`met`: inside the list's mask), else zero.
template <class T>
__device__ physics::PairResult<T> if_met(const physics::PairResult<T>& pair, bool met) {
  return {met ? pair.force_over_r : T(0), met ? pair.energy : T(0)};
}

template <class Evaluator>
struct TablePairs {
  using Params = typename Evaluator::Params;
  using Partner = int;  ///< the second particle's type
  const Params* table;
  int num_types;

  struct Row {
    const Params* entries = nullptr;
    /// The pair with the second particle `type_j` at squared distance r2, for the first
    /// particle's charge qi and the second's qj, where `met`.
    template <class E, class T>
    __device__ physics::PairResult<T> evaluate(T r2, Partner type_j, T qi, T qj, bool met) const {
      return if_met(physics::evaluate_pair<E>(r2, entries[type_j], qi, qj), met);
    }
  };
  struct Staged {
    const Params* entries;
    int num_types;
    __device__ Row row(int type_i) const { return {entries + type_i * num_types}; }
    __device__ Partner partner(int type_j) const { return type_j; }
  };

  std::size_t bytes() const { return sizeof(Params) * std::size_t(num_types) * num_types; }
  __device__ Staged stage() const { return {table_in_shared(table, num_types), num_types}; }
};

template <class Evaluator>
struct RecordPairs {
  using Records = physics::TypeRecords<Evaluator>;
  using Record = typename Records::Record;
  using Common = typename Records::Common;
  using Params = typename Evaluator::Params;
  using Partner = Record;  ///< the second particle's record
  const Record* records;
  int num_types;
  Common common;

  struct Row {
    Record own{};
    Common common{};
    typename Records::Direct direct{};
    template <class E, class T>
    __device__ physics::PairResult<T> evaluate(T r2, const Partner& partner, T qi, T qj,
                                               bool met) const {
      if constexpr (Records::template kDirect<E>) {
        return Records::template evaluate_direct<E>(r2, own, partner, direct, qi, qj, met);
      } else {
        return if_met(physics::evaluate_pair<E>(r2, Records::combine(own, partner, common), qi, qj),
                      met);
      }
    }
  };
  struct Staged {
    const Record* records;
    Common common;
    typename Records::Direct direct;
    __device__ Row row(int type_i) const { return {records[type_i], common, direct}; }
    __device__ Partner partner(int type_j) const { return records[type_j]; }
  };

  std::size_t bytes() const { return sizeof(Record) * std::size_t(num_types); }
  __device__ Staged stage() const {
    return {entries_in_shared(records, num_types), common, Records::direct_of(common)};
  }
};

}  // namespace novamd::neighbors
