// The domain of a run without MPI: on one rank it owns every particle, has no ghosts and
// leaves every array as it is; the force matrix's layout for given (p, q) of P x Q grids
// (owned, ghosts, energy ranges, the pair block), with and without each pair once; and the
// communicator's point-to-point exchange on one rank (a copy).

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include "novamd/parallel/communicator.hpp"
#include "novamd/parallel/force_matrix_domain.hpp"

namespace {

using novamd::parallel::Communicator;
using novamd::parallel::ForceMatrixDomain;
using novamd::parallel::GridShape;
using novamd::parallel::Group;
using novamd::parallel::IndexRange;
using Ranges = std::vector<IndexRange>;

novamd::core::Vec3Array numbered(std::size_t n) {
  novamd::core::Vec3Array a;
  for (std::size_t i = 0; i < n; ++i) {
    a.x.push_back(0.5 + i);
    a.y.push_back(-0.0);  // a negative zero keeps its sign: no exchange adds to it
    a.z.push_back(-1.0 * i);
  }
  return a;
}

void expect_same_bits(const novamd::core::Vec3Array& a, const novamd::core::Vec3Array& b) {
  ASSERT_EQ(a.x.size(), b.x.size());
  for (std::size_t i = 0; i < a.x.size(); ++i) {
    EXPECT_EQ(a.x[i], b.x[i]);
    EXPECT_EQ(std::signbit(a.y[i]), std::signbit(b.y[i]));
    EXPECT_EQ(a.z[i], b.z[i]);
  }
}

/// The whole system on one rank: owned = all, no ghosts, energies over [0, n), no block, and
/// every exchange and sum leaves its data as it is.
void expect_one_rank(ForceMatrixDomain& domain, std::size_t n) {
  EXPECT_FALSE(domain.decomposed());
  EXPECT_EQ(domain.owned(), (IndexRange{0, n}));
  EXPECT_EQ(domain.owned_count(), n);
  EXPECT_TRUE(domain.ghosts().empty());
  EXPECT_EQ(domain.energy_ranges(), (Ranges{{0, n}}));
  EXPECT_FALSE(domain.pair_block().has_value());
  EXPECT_TRUE(domain.allows_reordering());
  EXPECT_EQ(domain.block_range(), 0);

  const auto before = numbered(n);
  auto a = before;
  domain.refresh_ghosts(a);
  expect_same_bits(a, before);
  domain.complete_forces(a);
  expect_same_bits(a, before);
  domain.gather(a);
  expect_same_bits(a, before);
  std::vector<double> values{1.5, -2.0};
  domain.sum_over_owners(values.data(), values.size());
  domain.sum_over_ranks(values.data(), values.size());
  EXPECT_EQ(values, (std::vector<double>{1.5, -2.0}));
  EXPECT_EQ(domain.min_over_ranks(42), 42);
}

TEST(Domain, OneRankOwnsEveryParticleAndHasNoGhosts) {
  ForceMatrixDomain without_communicator(nullptr, 10);
  expect_one_rank(without_communicator, 10);
  ForceMatrixDomain with_one_rank(std::make_shared<Communicator>(), 10);
  expect_one_rank(with_one_rank, 10);
  // Each pair once means nothing on one rank.
  ForceMatrixDomain half(nullptr, 1001, 128);
  expect_one_rank(half, 1001);
  ForceMatrixDomain empty(nullptr, 0);
  expect_one_rank(empty, 0);
}

TEST(Domain, OneRankGathersEveryEvolvingField) {
  ForceMatrixDomain domain(nullptr, 3);
  novamd::core::ParticleData p;
  p.resize(3);
  p.position = numbered(3);
  const auto before = p.position;
  domain.gather_evolving(p);
  expect_same_bits(p.position, before);
}

TEST(Domain, ForceMatrixLayoutOfATwoByTwoGrid) {
  // 10 particles: targets T_0 = [0, 5), T_1 = [5, 10); sources likewise.
  const GridShape grid{2, 2};
  const auto d00 = ForceMatrixDomain::layout(grid, 0, 0, 10);
  EXPECT_TRUE(d00.decomposed());
  EXPECT_FALSE(d00.allows_reordering());
  EXPECT_EQ(d00.owned(), (IndexRange{0, 5}));
  EXPECT_TRUE(d00.ghosts().empty());  // the sources are its own targets
  EXPECT_EQ(d00.energy_ranges(), (Ranges{{0, 5}}));

  const auto d01 = ForceMatrixDomain::layout(grid, 0, 1, 10);
  EXPECT_EQ(d01.owned(), (IndexRange{0, 5}));
  EXPECT_EQ(d01.ghosts(), (Ranges{{5, 10}}));
  EXPECT_EQ(d01.energy_ranges(), (Ranges{{0, 5}}));
  ASSERT_TRUE(d01.pair_block().has_value());
  const auto b = *d01.pair_block();
  EXPECT_EQ(b.target_begin, 0);
  EXPECT_EQ(b.target_end, 5);
  EXPECT_EQ(b.source_begin, 5);
  EXPECT_EQ(b.source_end, 10);

  const auto d10 = ForceMatrixDomain::layout(grid, 1, 0, 10);
  EXPECT_EQ(d10.owned(), (IndexRange{5, 10}));
  EXPECT_EQ(d10.ghosts(), (Ranges{{0, 5}}));
  EXPECT_EQ(d10.energy_ranges(), (Ranges{{5, 10}}));

  const auto d11 = ForceMatrixDomain::layout(grid, 1, 1, 10);
  EXPECT_EQ(d11.owned(), (IndexRange{5, 10}));
  EXPECT_TRUE(d11.ghosts().empty());
}

TEST(Domain, GhostsBeforeAndAfterTheOwnedBlock) {
  // 3 x 1: every rank reads every particle; the middle one's ghosts lie on both sides.
  const GridShape grid{3, 1};
  const auto middle = ForceMatrixDomain::layout(grid, 1, 0, 1001);
  EXPECT_EQ(middle.owned(), (IndexRange{334, 668}));
  EXPECT_EQ(middle.ghosts(), (Ranges{{0, 334}, {668, 1001}}));
  EXPECT_EQ(middle.energy_ranges(), (Ranges{{334, 668}}));
  // 1 x 3: one block row owns everything and reads a third: no ghosts.
  const auto row = ForceMatrixDomain::layout({1, 3}, 0, 2, 1001);
  EXPECT_EQ(row.owned(), (IndexRange{0, 1001}));
  EXPECT_EQ(row.ghosts(), Ranges{});
  EXPECT_TRUE(row.decomposed());
}

TEST(Domain, EveryColumnOwnsEachParticleOnceAndReadsItsSources) {
  // Over several grids and sizes: a column's owned blocks partition [0, n); on every rank the
  // ghosts and the owned sources partition the sources, and no ghost is owned.
  for (const GridShape grid :
       {GridShape{2, 2}, GridShape{3, 2}, GridShape{4, 1}, GridShape{1, 4}, GridShape{2, 3}}) {
    for (const std::size_t n : {std::size_t{7}, std::size_t{100}, std::size_t{1001}}) {
      for (int q = 0; q < grid.columns; ++q) {
        std::vector<int> owners(n, 0);
        for (int p = 0; p < grid.rows; ++p) {
          const auto d = ForceMatrixDomain::layout(grid, p, q, n);
          for (std::size_t i = d.owned().begin; i < d.owned().end; ++i) ++owners[i];
          const IndexRange s = d.matrix().sources;
          std::vector<int> seen(n, 0);
          for (const auto& g : d.ghosts()) {
            for (std::size_t i = g.begin; i < g.end; ++i) {
              EXPECT_FALSE(d.owned().contains(i)) << i;
              ++seen[i];
            }
          }
          for (std::size_t i = 0; i < n; ++i) {
            const int expected = s.contains(i) && !d.owned().contains(i) ? 1 : 0;
            ASSERT_EQ(seen[i], expected) << grid.rows << "x" << grid.columns << " n " << n << " ("
                                         << p << ", " << q << ") i " << i;
          }
        }
        for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(owners[i], 1) << i;
      }
    }
  }
}

TEST(Domain, EachPairOnceAddsTheGhostsToTheEnergyRanges) {
  // R = 128: 1001 particles in 8 units, blocks [0, 512) and [512, 1001).
  const GridShape grid{2, 2};
  const auto d01 = ForceMatrixDomain::layout(grid, 0, 1, 1001, 128);
  EXPECT_EQ(d01.block_range(), 128);
  EXPECT_EQ(d01.owned(), (IndexRange{0, 512}));
  EXPECT_EQ(d01.ghosts(), (Ranges{{512, 1001}}));
  EXPECT_EQ(d01.energy_ranges(), (Ranges{{0, 512}, {512, 1001}}));
  const auto d11 = ForceMatrixDomain::layout(grid, 1, 1, 1001, 128);
  EXPECT_EQ(d11.energy_ranges(), (Ranges{{512, 1001}}));
  const auto middle = ForceMatrixDomain::layout({3, 1}, 1, 0, 1001, 128);
  EXPECT_EQ(middle.owned(), (IndexRange{384, 768}));
  EXPECT_EQ(middle.energy_ranges(), (Ranges{{384, 768}, {0, 384}, {768, 1001}}));
}

TEST(Communicator, ExchangeWithItselfOnOneRankIsACopy) {
  const Communicator one;
  for (const Group group : {Group::Row, Group::Column, Group::World}) {
    EXPECT_EQ(one.group_rank(group), 0);
    const auto partners = one.shift(group, 1);
    EXPECT_EQ(partners.source, 0);
    EXPECT_EQ(partners.destination, 0);
    const std::vector<double> send{1.0, -0.0, std::numeric_limits<double>::infinity()};
    std::vector<double> receive(3, 7.0);
    one.send_receive(send.data(), send.size(), partners.destination, receive.data(), receive.size(),
                     partners.source, group);
    EXPECT_EQ(receive[0], 1.0);
    EXPECT_TRUE(std::signbit(receive[1]));
    EXPECT_EQ(receive[2], send[2]);
    one.send_receive(nullptr, 0, 0, nullptr, 0, 0, group);  // nothing to send
  }
}

TEST(Communicator, ExchangeRefusesPartnersOutsideTheGroupAndUnequalCopies) {
  const Communicator one;
  std::vector<double> a(2, 1.0), b(2, 0.0);
  EXPECT_THROW(one.send_receive(a.data(), 2, 1, b.data(), 2, 0, Group::World), std::out_of_range);
  EXPECT_THROW(one.send_receive(a.data(), 2, 0, b.data(), 2, -1, Group::Row), std::out_of_range);
  EXPECT_THROW(one.send_receive(a.data(), 2, 0, b.data(), 1, 0, Group::Column), std::logic_error);
}

}  // namespace
