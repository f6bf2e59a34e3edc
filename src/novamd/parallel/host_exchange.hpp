#pragma once
/// @file host_exchange.hpp
/// The two allreduces of a step of the force-matrix decomposition on host arrays (the CPU
/// backend), and the gather of the targets for output: each through one scratch buffer.

#include <vector>

#include "novamd/core/particles.hpp"
#include "novamd/parallel/force_matrix.hpp"

namespace novamd::parallel {

/// Column allreduce: every rank puts the positions of its targets that are sources of its
/// column (T_p ∩ S_q) in a buffer of 3 |S_q| doubles, zeros elsewhere; the column's sum is the
/// column's sources, copied into `position` (owned entries are left as they are).
void exchange_source_positions(const ForceMatrix& m, core::Vec3Array& position,
                               std::vector<double>& scratch);

/// Row allreduce: each rank's forces on its targets from its sources, summed over the row: the
/// total force on every target, on every rank of the row. The ranks of a row then integrate
/// the same targets apart, so they must receive the same bits: Open MPI's allreduce algorithms
/// (like NCCL's ring and tree) give every rank the same reduced values (the MPI standard only
/// advises it); a run relies on that, and the restart test's bitwise continuation, which
/// rebuilds every rank from rank 0's copy, would fail if the copies differed.
void sum_target_forces(const ForceMatrix& m, core::Vec3Array& force,
                       std::vector<double>& scratch);

/// Every rank's target block of `values` (one per particle) to every rank (allgather within
/// each column, whose ranks together own all targets).
void gather_targets(const ForceMatrix& m, std::vector<double>& values);
void gather_targets(const ForceMatrix& m, core::Vec3Array& values);
/// The same for every present field of `p` that changes during a run (positions, velocities,
/// forces, ...).
void gather_evolving_targets(const ForceMatrix& m, core::ParticleData& p);

}  // namespace novamd::parallel
