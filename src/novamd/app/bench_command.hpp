#pragma once
/// @file bench_command.hpp
/// `novamd bench`: with `--case yukawa` (default) the sizes of seed 000's Table II (C/O
/// mixture, all pairs), printing ms per step, pair interactions per second and the K20
/// comparison; with `--case lj` the Lennard-Jones melt (Verlet lists), printing steps per
/// second, atom-steps per second, list builds and device memory per atom; with `--case pasta`
/// nuclear pasta (51,200 nucleons on a GPU), printing ms per step, each force term's time and
/// the pairs within each cutoff; with `--case ornl` seed 002's LJ plus Coulomb case (14,739
/// atoms of water) over cell lists and Verlet lists, with each term's time; with `--case rigid`
/// seed 001's rigid molecules (bench_rigid.cpp) over `--cutoffs`.

#include <cstdint>
#include <string>
#include <vector>

#include "novamd/neighbors/neighbor_settings.hpp"

namespace novamd::app {

struct BenchOptions {
  std::string case_name = "yukawa";  ///< yukawa | lj | pasta | ornl | rigid
  std::string backend = "auto";
  std::string neighbors = "auto";  ///< lj: auto | neighbor_list | cell_list
  std::string layout = "auto";     ///< lj, ornl: the GPU's Verlet lists, auto | atoms | clusters
  std::string precision = "double";
  std::vector<std::int64_t> sizes;  ///< empty: all of Table II
  int steps = 0;                    ///< timed steps per size; 0 picks by backend
  int warmup = 2;
  std::vector<double> cutoffs;  ///< rigid: cutoffs on the centres; empty: 2.5, 3.5, 5
};

int bench_command(const BenchOptions& options);
int bench_lennard_jones(const BenchOptions& options);
int bench_pasta(const BenchOptions& options);
int bench_ornl(const BenchOptions& options);
int bench_rigid(const BenchOptions& options);

/// The Verlet-list layout `options.layout` names. @throws core::InputError for another name.
neighbors::ListLayout bench_layout(const BenchOptions& options);

}  // namespace novamd::app
