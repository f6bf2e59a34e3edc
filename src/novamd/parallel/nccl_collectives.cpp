#include "novamd/parallel/nccl_collectives.hpp"

#include <fmt/format.h>
#include <nccl.h>

#include <stdexcept>

#include "novamd/core/error.hpp"

namespace novamd::parallel {
namespace {

void check(ncclResult_t result, const char* what) {
  if (result != ncclSuccess && result != ncclInProgress)
    throw core::RunError(fmt::format("NCCL {} failed: {}", what, ncclGetErrorString(result)));
}

/// A communicator over `group` (nullptr where the group is this rank alone).
ncclComm_t make_comm(const Communicator& comm, Group group) {
  const int size = comm.group_size(group);
  if (size == 1) return nullptr;
  const int rank = comm.group_rank(group);
  ncclUniqueId id{};
  if (rank == 0) check(ncclGetUniqueId(&id), "ncclGetUniqueId");
  comm.broadcast(&id, sizeof(id), group);
  ncclComm_t result = nullptr;
  check(ncclCommInitRank(&result, size, id, rank), "ncclCommInitRank");
  return result;
}

}  // namespace

struct NcclCollectives::Comms {
  ncclComm_t row = nullptr, column = nullptr;
  ncclComm_t of(Group group) const {
    if (group == Group::World) throw std::logic_error("NcclCollectives: no world communicator");
    return group == Group::Row ? row : column;
  }
  ~Comms() {
    for (ncclComm_t c : {row, column})
      if (c) ncclCommDestroy(c);
  }
};

NcclCollectives::NcclCollectives(const Communicator& comm) : comms_(std::make_unique<Comms>()) {
  // Rows first, then columns, on every rank in the same order: each init is collective.
  comms_->row = make_comm(comm, Group::Row);
  comms_->column = make_comm(comm, Group::Column);
}

NcclCollectives::~NcclCollectives() = default;

void NcclCollectives::sum(double* data, std::size_t count, Group group, cudaStream_t stream) const {
  const ncclComm_t c = comms_->of(group);
  if (!c || count == 0) return;
  check(ncclAllReduce(data, data, count, ncclDouble, ncclSum, c, stream), "ncclAllReduce");
}

void NcclCollectives::sum3(double* x, double* y, double* z, std::size_t count, Group group,
                           cudaStream_t stream) const {
  const ncclComm_t c = comms_->of(group);
  if (!c || count == 0) return;
  check(ncclGroupStart(), "ncclGroupStart");
  for (double* a : {x, y, z})
    check(ncclAllReduce(a, a, count, ncclDouble, ncclSum, c, stream), "ncclAllReduce");
  check(ncclGroupEnd(), "ncclGroupEnd");
}

}  // namespace novamd::parallel
