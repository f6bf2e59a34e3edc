#include "novamd/parallel/mpi_session.hpp"

#include <cstdlib>

#ifdef NOVAMD_HAVE_MPI
#include <mpi.h>
#endif

namespace novamd::parallel {

bool launched_by_mpi() {
  // Open MPI, MPICH/Hydra (PMI), PMIx-based launchers (Slurm's srun --mpi=pmix).
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

MpiSession::MpiSession([[maybe_unused]] int& argc, [[maybe_unused]] char**& argv) {
#ifdef NOVAMD_HAVE_MPI
  if (!launched_by_mpi()) return;
  int provided = 0;
  // FUNNELED: only the main thread calls MPI (OpenMP threads never do).
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  active_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm node{};
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local_rank_);
  MPI_Comm_free(&node);
#endif
}

MpiSession::~MpiSession() {
#ifdef NOVAMD_HAVE_MPI
  if (active_) MPI_Finalize();
#endif
}

int MpiSession::max_over_ranks(int value) const {
#ifdef NOVAMD_HAVE_MPI
  if (active_ && size_ > 1) MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
#endif
  return value;
}

int MpiSession::min_over_ranks(int value) const {
#ifdef NOVAMD_HAVE_MPI
  if (active_ && size_ > 1) MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
#endif
  return value;
}

void MpiSession::abort([[maybe_unused]] int code) const {
#ifdef NOVAMD_HAVE_MPI
  if (active_ && size_ > 1) MPI_Abort(MPI_COMM_WORLD, code);
#endif
}

}  // namespace novamd::parallel
