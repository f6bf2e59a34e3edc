#include "novamd/parallel/communicator.hpp"

#include <limits>
#include <stdexcept>

#include "novamd/parallel/mpi_session.hpp"

#ifdef NOVAMD_HAVE_MPI
#include <mpi.h>
#endif

namespace novamd::parallel {

#ifdef NOVAMD_HAVE_MPI
struct Communicator::Handles {
  MPI_Comm grid = MPI_COMM_NULL, row = MPI_COMM_NULL, column = MPI_COMM_NULL;

  MPI_Comm of(Group group) const {
    return group == Group::Row ? row : group == Group::Column ? column : grid;
  }
  ~Handles() {
    for (MPI_Comm* c : {&row, &column, &grid})
      if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
  }
};
#else
struct Communicator::Handles {};
#endif

Communicator::Communicator() = default;
Communicator::~Communicator() = default;

Communicator::Communicator(const MpiSession& session, GridShape grid) : grid_(grid) {
  if (grid.ranks() != session.size())
    throw std::logic_error("Communicator: the grid does not hold the session's ranks");
  rank_ = session.rank();
  const auto coords = grid_coordinates(grid, rank_);
  row_ = coords[0];
  column_ = coords[1];
#ifdef NOVAMD_HAVE_MPI
  if (!session.active() || grid.ranks() == 1) return;
  handles_ = std::make_unique<Handles>();
  int dims[2] = {grid.rows, grid.columns};
  int periods[2] = {0, 0};
  // No reordering: rank r is (r / Q, r % Q), the row-major order grid_coordinates assumes.
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &handles_->grid);
  int keep_columns[2] = {0, 1};  // a row: the ranks (p, *), ordered by q
  int keep_rows[2] = {1, 0};     // a column: the ranks (*, q), ordered by p
  MPI_Cart_sub(handles_->grid, keep_columns, &handles_->row);
  MPI_Cart_sub(handles_->grid, keep_rows, &handles_->column);
#endif
}

int Communicator::group_size(Group group) const {
  return group == Group::Row ? grid_.columns : group == Group::Column ? grid_.rows : size();
}

#ifdef NOVAMD_HAVE_MPI

void Communicator::sum(double* data, std::size_t count, Group group) const {
  if (!handles_ || group_size(group) == 1 || count == 0) return;
  // MPI counts are int: large arrays go in pieces.
  constexpr std::size_t kPiece = std::numeric_limits<int>::max() / 2;
  for (std::size_t at = 0; at < count; at += kPiece) {
    const int n = static_cast<int>(std::min(kPiece, count - at));
    MPI_Allreduce(MPI_IN_PLACE, data + at, n, MPI_DOUBLE, MPI_SUM, handles_->of(group));
  }
}

std::int64_t Communicator::min(std::int64_t value, Group group) const {
  if (!handles_ || group_size(group) == 1) return value;
  std::int64_t result = value;
  MPI_Allreduce(&value, &result, 1, MPI_INT64_T, MPI_MIN, handles_->of(group));
  return result;
}

int Communicator::max(int value, Group group) const {
  if (!handles_ || group_size(group) == 1) return value;
  int result = value;
  MPI_Allreduce(&value, &result, 1, MPI_INT, MPI_MAX, handles_->of(group));
  return result;
}

void Communicator::gather_column_blocks(double* data, const std::vector<IndexRange>& blocks) const {
  if (!handles_ || grid_.rows == 1) return;
  std::vector<int> counts, offsets;
  for (const auto& b : blocks) {
    counts.push_back(static_cast<int>(b.size()));
    offsets.push_back(static_cast<int>(b.begin));
  }
  MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data, counts.data(), offsets.data(),
                 MPI_DOUBLE, handles_->column);
}

void Communicator::broadcast(void* data, std::size_t bytes, Group group) const {
  if (!handles_ || group_size(group) == 1) return;
  MPI_Bcast(data, static_cast<int>(bytes), MPI_BYTE, 0, handles_->of(group));
}

#else  // one rank: nothing to combine

void Communicator::sum(double*, std::size_t, Group) const {}
std::int64_t Communicator::min(std::int64_t value, Group) const { return value; }
int Communicator::max(int value, Group) const { return value; }
void Communicator::gather_column_blocks(double*, const std::vector<IndexRange>&) const {}
void Communicator::broadcast(void*, std::size_t, Group) const {}

#endif

}  // namespace novamd::parallel
