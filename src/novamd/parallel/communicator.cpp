#include "novamd/parallel/communicator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "novamd/core/error.hpp"
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

int Communicator::group_rank(Group group) const {
  return group == Group::Row ? column_ : group == Group::Column ? row_ : rank_;
}

ShiftPartners Communicator::shift(Group group, int displacement) const {
  const int n = group_size(group), me = group_rank(group);
  const int d = (displacement % n + n) % n;
  return {(me - d + n) % n, (me + d) % n};
}

namespace {

void check_partner(int partner, int group_size, const char* role) {
  if (partner < 0 || partner >= group_size) {
    throw std::out_of_range(
        fmt::format("Communicator::send_receive: {} {} is not a rank of a "
                    "group of {}",
                    role, partner, group_size));
  }
}

/// An exchange with this rank alone: what is sent is what arrives.
void copy_to_self(const double* send, std::size_t send_count, double* receive,
                  std::size_t receive_count) {
  if (send_count != receive_count) {
    throw std::logic_error(
        fmt::format("Communicator::send_receive: {} doubles sent to this rank "
                    "itself, but {} expected",
                    send_count, receive_count));
  }
  std::copy_n(send, send_count, receive);
}

}  // namespace

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

void Communicator::sum(std::uint64_t* data, std::size_t count, Group group) const {
  if (!handles_ || group_size(group) == 1 || count == 0) return;
  constexpr std::size_t kPiece = std::numeric_limits<int>::max() / 2;
  for (std::size_t at = 0; at < count; at += kPiece) {
    const int n = static_cast<int>(std::min(kPiece, count - at));
    MPI_Allreduce(MPI_IN_PLACE, data + at, n, MPI_UINT64_T, MPI_SUM, handles_->of(group));
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

void Communicator::send_receive(const double* send, std::size_t send_count, int destination,
                                double* receive, std::size_t receive_count, int source,
                                Group group) const {
  const int me = group_rank(group);
  check_partner(destination, group_size(group), "destination");
  check_partner(source, group_size(group), "source");
  if (!handles_ || (destination == me && source == me)) {
    copy_to_self(send, send_count, receive, receive_count);
    return;
  }
  constexpr auto kLargest = static_cast<std::size_t>(std::numeric_limits<int>::max());
  if (send_count > kLargest || receive_count > kLargest) {
    throw core::RunError(
        fmt::format("a point-to-point exchange of {} doubles exceeds the largest MPI count ({})",
                    std::max(send_count, receive_count), kLargest));
  }
  constexpr int kTag = 0;  // one exchange at a time between two ranks: order keeps them apart
  MPI_Status status;
  MPI_Sendrecv(send, static_cast<int>(send_count), MPI_DOUBLE, destination, kTag, receive,
               static_cast<int>(receive_count), MPI_DOUBLE, source, kTag, handles_->of(group),
               &status);
  int received = 0;
  MPI_Get_count(&status, MPI_DOUBLE, &received);
  if (static_cast<std::size_t>(received) != receive_count) {
    throw std::logic_error(
        fmt::format("Communicator::send_receive: {} doubles arrived from rank "
                    "{}, but {} expected",
                    received, source, receive_count));
  }
}

#else  // one rank: nothing to combine

void Communicator::sum(double*, std::size_t, Group) const {}
void Communicator::sum(std::uint64_t*, std::size_t, Group) const {}
std::int64_t Communicator::min(std::int64_t value, Group) const {
  return value;
}
int Communicator::max(int value, Group) const {
  return value;
}
void Communicator::gather_column_blocks(double*, const std::vector<IndexRange>&) const {}
void Communicator::broadcast(void*, std::size_t, Group) const {}

void Communicator::send_receive(const double* send, std::size_t send_count, int destination,
                                double* receive, std::size_t receive_count, int source,
                                Group group) const {
  check_partner(destination, group_size(group), "destination");
  check_partner(source, group_size(group), "source");
  copy_to_self(send, send_count, receive, receive_count);
}

#endif

}  // namespace novamd::parallel
