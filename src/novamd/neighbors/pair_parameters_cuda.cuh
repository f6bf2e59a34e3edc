#pragma once
/// @file pair_parameters_cuda.cuh
/// Where a pair kernel finds a pair's parameters. TablePairs: the evaluator's table, an entry per
/// ordered type pair (num_types^2 entries in shared memory). RecordPairs: a record per type, from
/// which each pair's entry is rebuilt in registers (physics/type_records.hpp; num_types records
/// in shared memory, whatever the number of types). Both stage their data in the block's
/// shared memory at the kernel's start (`stage`), and give a row per first particle's type
/// (`row`), indexed by the second particle's type.

#include <cstddef>

#include "novamd/neighbors/target_lanes_cuda.cuh"
#include "novamd/physics/type_records.hpp"

namespace novamd::neighbors {

template <class Evaluator>
struct TablePairs {
  using Params = typename Evaluator::Params;
  const Params* table;
  int num_types;

  struct Row {
    const Params* entries = nullptr;
    __device__ const Params& operator[](int type_j) const { return entries[type_j]; }
  };
  struct Staged {
    const Params* entries;
    int num_types;
    __device__ Row row(int type_i) const { return {entries + type_i * num_types}; }
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
  const Record* records;
  int num_types;
  Common common;

  struct Row {
    Record own{};
    const Record* records = nullptr;
    Common common{};
    __device__ Params operator[](int type_j) const {
      return Records::combine(own, records[type_j], common);
    }
  };
  struct Staged {
    const Record* records;
    Common common;
    __device__ Row row(int type_i) const { return {records[type_i], records, common}; }
  };

  std::size_t bytes() const { return sizeof(Record) * std::size_t(num_types); }
  __device__ Staged stage() const { return {entries_in_shared(records, num_types), common}; }
};

}  // namespace novamd::neighbors
