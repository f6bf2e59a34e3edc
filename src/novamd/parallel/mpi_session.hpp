#pragma once
/// @file mpi_session.hpp
/// MPI for the life of the process (MPI_Init_thread in main, MPI_Finalize at its end), where
/// the program was started by mpirun (or another MPI launcher). Started directly, or built
/// without MPI, it stands for a single rank and makes no MPI call: one rank runs exactly as a
/// build without MPI does.

namespace novamd::parallel {

class MpiSession {
 public:
  /// MPI_Init_thread when launched by an MPI launcher (in a build with MPI).
  MpiSession(int& argc, char**& argv);
  /// One rank, no MPI (tests, and `novamd` started directly).
  MpiSession() = default;
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  /// Whether MPI was initialised (launched by mpirun in a build with MPI).
  bool active() const { return active_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  /// The rank's number among the ranks of its node (which GPU it takes).
  int local_rank() const { return local_rank_; }

  /// The largest `value` over every rank (the value itself on one rank).
  int max_over_ranks(int value) const;
  /// The smallest `value` over every rank.
  int min_over_ranks(int value) const;

  /// Ends every rank of the job with `code` (a failure one rank alone has seen, such as an
  /// output file it cannot write: the others would wait for it forever). Returns only when
  /// MPI is not active.
  void abort(int code) const;

 private:
  bool active_ = false;
  int rank_ = 0;
  int size_ = 1;
  int local_rank_ = 0;
};

/// True when the environment says an MPI launcher started this process.
bool launched_by_mpi();

}  // namespace novamd::parallel
