// Point-to-point exchange and the force-matrix domain's host exchanges on real ranks, under
// mpirun:
//
//     mpirun -np K novamd_mpi_communicator_test P Q      (P Q = K)
//
// - send_receive: periodic shifts by +1, -1, +2 and 0 within the world, every row and every
//   column, with a different count from every rank; each rank checks what arrived against what
//   its source sent. A message shorter than expected is refused (std::logic_error).
// - ForceMatrixDomain on the P x Q grid: refresh_ghosts brings every source's position (owned
//   entries untouched to the bit, negative zeros included), complete_forces sums the row (and with
//   each pair once the column first), gather makes every entry current, and the sums over owners
//   and over ranks count every particle and every rank once.
//
// - sum of 64-bit integers (a PME mesh's fixed-point charges): negative values in two's
//   complement and values that wrap past 2^64 on the way sum exactly to what one rank's loop
//   gives, on every rank, over the world, every row and every column.
//
// Every rank checks its own data; the job exits 0 when no rank found a failure, 1 otherwise
// (each failure printed by the rank that saw it).

#include "novamd/parallel/communicator.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "novamd/core/particles.hpp"
#include "novamd/parallel/force_matrix_domain.hpp"
#include "novamd/parallel/mpi_session.hpp"

namespace {

using novamd::parallel::Communicator;
using novamd::parallel::ForceMatrixDomain;
using novamd::parallel::Group;
using novamd::parallel::IndexRange;

class Checks {
 public:
  explicit Checks(int rank) : rank_(rank) {}
  void expect(bool ok, const std::string& what) {
    if (ok) return;
    ++failures_;
    std::fprintf(stderr, "rank %d: FAILED: %s\n", rank_, what.c_str());
  }
  int failures() const { return failures_; }

 private:
  int rank_;
  int failures_ = 0;
};

const char* name_of(Group group) {
  return group == Group::Row ? "row" : group == Group::Column ? "column" : "world";
}

/// What rank `sender` (within the group) sends: 3 + sender doubles, each naming it and its
/// position.
std::vector<double> message_of(int sender, int world_rank_of_sender) {
  std::vector<double> m(3 + sender);
  for (std::size_t k = 0; k < m.size(); ++k) m[k] = 1000.0 * world_rank_of_sender + k + 0.25;
  return m;
}

/// The world rank of rank `member` of this rank's `group`.
int world_rank(const Communicator& comm, Group group, int member) {
  const int q = comm.grid().columns;
  if (group == Group::Row) return comm.row() * q + member;
  if (group == Group::Column) return member * q + comm.column();
  return member;
}

/// Rank r's contribution at entry k: mixed signs (as int64 in two's complement) and magnitudes
/// near 2^63, so that partial sums wrap.
std::uint64_t fixed_value(int r, std::size_t k) {
  const auto big = std::uint64_t{1} << 62;
  return (k % 3 == 0 ? big + 7 * k
                     : static_cast<std::uint64_t>(-static_cast<std::int64_t>(1000 * r + k + 1))) +
         static_cast<std::uint64_t>(r) * big;
}

void check_fixed_sums(const Communicator& comm, Checks& checks) {
  for (const Group group : {Group::World, Group::Row, Group::Column}) {
    constexpr std::size_t kCount = 17;
    const int self = comm.group_rank(group);
    std::vector<std::uint64_t> data(kCount);
    for (std::size_t k = 0; k < kCount; ++k)
      data[k] = fixed_value(world_rank(comm, group, self), k);
    comm.sum(data.data(), kCount, group);
    for (std::size_t k = 0; k < kCount; ++k) {
      std::uint64_t expected = 0;  // modulo 2^64, as the hardware adds
      for (int m = 0; m < comm.group_size(group); ++m)
        expected += fixed_value(world_rank(comm, group, m), k);
      checks.expect(data[k] == expected, fmt::format("{}: fixed-point sum entry {}: {} != {}",
                                                     name_of(group), k, data[k], expected));
    }
  }
}

void check_shifts(const Communicator& comm, Checks& checks) {
  for (const Group group : {Group::World, Group::Row, Group::Column}) {
    for (const int displacement : {1, -1, 2, 0}) {
      const auto partners = comm.shift(group, displacement);
      const int me = comm.group_rank(group);
      const auto send = message_of(me, comm.rank());
      auto expected = message_of(partners.source, world_rank(comm, group, partners.source));
      std::vector<double> receive(expected.size(), -1.0);
      comm.send_receive(send.data(), send.size(), partners.destination, receive.data(),
                        receive.size(), partners.source, group);
      checks.expect(receive == expected,
                    fmt::format("shift by {} in the {}: from {} to {}", displacement,
                                name_of(group), partners.source, partners.destination));
    }
  }
  // Every rank sends 2 doubles and expects 3: each refuses what arrives.
  const auto ring = comm.shift(Group::World, 1);
  const std::vector<double> two{1.0, 2.0};
  std::vector<double> three(3);
  bool refused = false;
  try {
    comm.send_receive(two.data(), two.size(), ring.destination, three.data(), three.size(),
                      ring.source, Group::World);
  } catch (const std::logic_error&) {
    refused = true;
  }
  checks.expect(refused, "a message shorter than expected is refused");
}

/// Positions of particle i (x a negative zero for even i: owned entries keep its sign).
double px(std::size_t i) {
  return i % 2 == 0 ? -0.0 : 0.5 * i;
}
double py(std::size_t i) {
  return 1.0 + i;
}
double pz(std::size_t i) {
  return -3.0 * i;
}

void check_domain(const std::shared_ptr<const Communicator>& comm, std::size_t n, int block_range,
                  Checks& checks) {
  ForceMatrixDomain domain(comm, n, block_range);
  const std::string where = fmt::format("{} particles, R = {}", n, block_range);
  const IndexRange owned = domain.owned(), sources = domain.matrix().sources;
  const int rows = comm->grid().rows, columns = comm->grid().columns;

  // refresh_ghosts: owned entries current, everything else stale.
  novamd::core::Vec3Array position;
  for (std::size_t i = 0; i < n; ++i) {
    const bool own = owned.contains(i);
    position.x.push_back(own ? px(i) : 99.0);
    position.y.push_back(own ? py(i) : 99.0);
    position.z.push_back(own ? pz(i) : 99.0);
  }
  domain.refresh_ghosts(position);
  for (std::size_t i = 0; i < n; ++i) {
    if (!owned.contains(i) && !sources.contains(i)) continue;
    // A ghost's -0 arrives as +0 (the column's sum adds the other ranks' zeros); owned
    // entries keep every bit.
    const bool sign_kept = !owned.contains(i) || std::signbit(position.x[i]) == std::signbit(px(i));
    const bool ok =
        position.x[i] == px(i) && sign_kept && position.y[i] == py(i) && position.z[i] == pz(i);
    checks.expect(ok, fmt::format("{}: position {} after refresh_ghosts", where, i));
  }

  // complete_forces: every rank's partial force 1 + its rank on its block (targets, and with
  // each pair once its sources too).
  novamd::core::Vec3Array force;
  const double mine = 1.0 + comm->rank();
  for (std::size_t i = 0; i < n; ++i) {
    const bool written = owned.contains(i) || (domain.block_range() > 0 && sources.contains(i));
    for (auto* a : {&force.x, &force.y, &force.z}) a->push_back(written ? mine : 0.0);
  }
  domain.complete_forces(force);
  for (std::size_t i = owned.begin; i < owned.end; ++i) {
    // The row's ranks (p, q'): each adds its own 1 + rank; with each pair once, the rank
    // (p, q') first took its column's sum where i is one of its sources.
    double expected = 0.0;
    for (int q = 0; q < columns; ++q) {
      const int rank = comm->row() * columns + q;
      const auto other = ForceMatrixDomain::layout(comm->grid(), comm->row(), q, n, block_range);
      if (domain.block_range() > 0 && other.matrix().sources.contains(i)) {
        for (int p = 0; p < rows; ++p) expected += 1.0 + p * columns + q;
      } else {
        expected += 1.0 + rank;
      }
    }
    checks.expect(force.x[i] == expected && force.y[i] == expected && force.z[i] == expected,
                  fmt::format("{}: force {} is {}, expected {}", where, i, force.x[i], expected));
  }

  // gather: every entry current on every rank.
  std::vector<double> values(n, -1.0);
  for (std::size_t i = owned.begin; i < owned.end; ++i) values[i] = 2.0 * i;
  domain.gather(values);
  for (std::size_t i = 0; i < n; ++i)
    checks.expect(values[i] == 2.0 * i, fmt::format("{}: gathered value {}", where, i));

  // gather_evolving: every evolving field, the integer image counts included.
  novamd::core::ParticleData particles;
  particles.resize(n);
  particles.enable(particles.image);
  for (std::size_t i = 0; i < n; ++i) {
    const bool own = owned.contains(i);
    const auto k = static_cast<std::int32_t>(i);
    particles.velocity.set(i, {own ? 0.5 * k : 99.0, 0.0, 0.0});
    particles.image.x[i] = own ? k : 77;
    particles.image.y[i] = own ? -k : 77;
    particles.image.z[i] = own ? 1000000 + k : 77;
  }
  domain.gather_evolving(particles);
  for (std::size_t i = 0; i < n; ++i) {
    const auto k = static_cast<std::int32_t>(i);
    const bool ok = particles.velocity.x[i] == 0.5 * k && particles.image.x[i] == k &&
                    particles.image.y[i] == -k && particles.image.z[i] == 1000000 + k;
    checks.expect(ok, fmt::format("{}: gathered particle {} (velocity, image counts)", where, i));
  }

  // Sums: the owned counts over the owners are n; one per rank over the ranks is K.
  double sums[2] = {static_cast<double>(domain.owned_count()), 1.0};
  domain.sum_over_owners(&sums[0], 1);
  domain.sum_over_ranks(&sums[1], 1);
  checks.expect(sums[0] == static_cast<double>(n), fmt::format("{}: owned over owners", where));
  checks.expect(sums[1] == comm->size(), fmt::format("{}: one over the ranks", where));
  checks.expect(domain.min_over_ranks(100 - comm->rank()) == 100 - (comm->size() - 1),
                fmt::format("{}: the smallest over the ranks", where));
}

}  // namespace

int main(int argc, char** argv) {
  novamd::parallel::MpiSession session(argc, argv);
  int failures = 0;
  try {
    if (argc != 3) throw std::invalid_argument("usage: novamd_mpi_communicator_test P Q");
    const novamd::parallel::GridShape grid{std::atoi(argv[1]), std::atoi(argv[2])};
    const auto comm = std::make_shared<Communicator>(session, grid);
    Checks checks(comm->rank());
    check_shifts(*comm, checks);
    check_fixed_sums(*comm, checks);
    for (const std::size_t n : {std::size_t{11}, std::size_t{40}}) {
      check_domain(comm, n, 0, checks);
      check_domain(comm, n, 4, checks);
    }
    failures = checks.failures();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "rank %d: %s\n", session.rank(), error.what());
    failures = 1;
  }
  failures = session.max_over_ranks(failures);
  if (session.rank() == 0) std::printf("%s\n", failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
