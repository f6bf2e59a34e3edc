#include "novamd/parallel/spatial_domain.hpp"

#include <algorithm>
#include <initializer_list>
#include <stdexcept>
#include <utility>

namespace novamd::parallel {

SpatialDomain::SpatialDomain(std::shared_ptr<const Communicator> comm, BrickGrid grid, int rank,
                             double halo, std::size_t n)
    : comm_(std::move(comm)),
      grid_(grid),
      rank_(rank),
      halo_(halo),
      blocks_(static_cast<std::size_t>(grid.ranks())),
      send_(static_cast<std::size_t>(grid.ranks() - 1)),
      receive_(static_cast<std::size_t>(grid.ranks() - 1)) {
  blocks_[static_cast<std::size_t>(rank_)] = {0, n};  // until the first partition
}

SpatialDomain::SpatialDomain(std::shared_ptr<const Communicator> comm, BrickGrid grid, double halo,
                             std::size_t n)
    : SpatialDomain(comm, grid, comm ? comm->rank() : 0, halo, n) {
  if (grid.ranks() != (comm_ ? comm_->size() : 1))
    throw std::logic_error("SpatialDomain: the grid's bricks are not the communicator's ranks");
}

SpatialDomain SpatialDomain::layout(const BrickGrid& grid, int rank, double halo, std::size_t n) {
  return {nullptr, grid, rank, halo, n};
}

std::vector<IndexRange> SpatialDomain::ghosts() const {
  std::vector<std::size_t> all;
  for (const auto& r : receive_) all.insert(all.end(), r.begin(), r.end());
  std::sort(all.begin(), all.end());
  std::vector<IndexRange> runs;
  for (const std::size_t i : all) {
    if (!runs.empty() && runs.back().end == i) {
      ++runs.back().end;
    } else {
      runs.push_back({i, i + 1});
    }
  }
  return runs;
}

std::size_t SpatialDomain::ghost_count() const {
  std::size_t count = 0;
  for (const auto& r : receive_) count += r.size();
  return count;
}

std::vector<std::size_t> SpatialDomain::partition(const core::Vec3Array& position,
                                                  const core::Box& box,
                                                  const std::vector<std::size_t>& preferred,
                                                  const std::vector<std::size_t>& anchor,
                                                  double anchor_reach) {
  const int ranks = grid_.ranks();
  const auto& length = box.length();
  const std::size_t n = position.size();
  const auto decider = [&](std::size_t i) { return position.get(anchor.empty() ? i : anchor[i]); };
  if (grid_.balanced) balance_by_count(grid_, n, decider, length);
  std::vector<int> owner(n);
  std::vector<std::size_t> count(static_cast<std::size_t>(ranks), 0);
  for (std::size_t i = 0; i < n; ++i) {
    owner[i] = grid_.owner_of(decider(i), length);
    ++count[static_cast<std::size_t>(owner[i])];
  }
  std::vector<std::size_t> next(static_cast<std::size_t>(ranks), 0);
  for (int r = 0; r < ranks; ++r) {
    const auto k = static_cast<std::size_t>(r);
    const std::size_t begin = r == 0 ? 0 : blocks_[k - 1].end;
    blocks_[k] = {begin, begin + count[k]};
    next[k] = begin;
  }
  std::vector<std::size_t> order(n);  // order[new index] = old index
  for (const std::size_t i : preferred) order[next[static_cast<std::size_t>(owner[i])]++] = i;

  // The halo plan, by new index: what this rank sends at each shift, and what it receives.
  const double reach = (halo_ + anchor_reach) * (halo_ + anchor_reach);
  for (auto& s : send_) s.clear();
  for (auto& r : receive_) r.clear();
  for (std::size_t k = 0; k < n; ++k) {
    const auto x = position.get(order[k]);
    const int s = owner[order[k]];
    if (s == rank_) {
      for (int d = 1; d < ranks; ++d)
        if (grid_.squared_distance(x, (rank_ + d) % ranks, length) < reach)
          send_[static_cast<std::size_t>(d - 1)].push_back(k);
    } else if (grid_.squared_distance(x, rank_, length) < reach) {
      receive_[static_cast<std::size_t>((rank_ - s + ranks) % ranks - 1)].push_back(k);
    }
  }
  // Shifts along which no rank sends anything are left out of every exchange until the next
  // partition (a rank must skip a shift only where its partners skip it too).
  std::vector<double> traffic(send_.size());
  for (std::size_t d = 0; d < traffic.size(); ++d)
    traffic[d] = static_cast<double>(send_[d].size() + receive_[d].size());
  if (communicates()) comm_->sum(traffic.data(), traffic.size(), Group::World);
  active_.assign(traffic.size(), false);
  for (std::size_t d = 0; d < traffic.size(); ++d) active_[d] = traffic[d] > 0.0;
  return order;
}

void SpatialDomain::sum_over_owners(double* values, std::size_t count) const {
  if (communicates()) comm_->sum(values, count, Group::World);
}

void SpatialDomain::sum_over_ranks(double* values, std::size_t count) const {
  if (communicates()) comm_->sum(values, count, Group::World);
}

std::int64_t SpatialDomain::min_over_ranks(std::int64_t value) const {
  return communicates() ? comm_->min(value, Group::World) : value;
}

void SpatialDomain::refresh_ghosts(core::Vec3Array& position) {
  refresh_ghost_columns({&position.x, &position.y, &position.z});
}

void SpatialDomain::refresh_ghost_columns(std::initializer_list<std::vector<double>*> columns) {
  if (!communicates() || active_.empty()) return;  // before the first partition: nothing stale
  out_.clear();
  for (const auto& send : send_)
    for (const std::size_t i : send)
      for (const auto* column : columns) out_.push_back((*column)[i]);
  exchange(out_, in_, columns.size());
  std::size_t k = 0;
  for (const auto& receive : receive_)
    for (const std::size_t i : receive)
      for (auto* column : columns) (*column)[i] = in_[k++];
}

void SpatialDomain::exchange(const std::vector<double>& out, std::vector<double>& in,
                             std::size_t width) {
  in.resize(width * ghost_count());
  if (!communicates() || active_.empty()) return;
  const int ranks = grid_.ranks();
  std::size_t sent = 0, received = 0;
  for (int d = 1; d < ranks; ++d) {
    const auto shift = static_cast<std::size_t>(d - 1);
    const std::size_t send = width * send_[shift].size();
    const std::size_t receive = width * receive_[shift].size();
    if (active_[shift])
      comm_->send_receive(out.data() + sent, send, (rank_ + d) % ranks, in.data() + received,
                          receive, (rank_ - d + ranks) % ranks, Group::World);
    sent += send;
    received += receive;
  }
}

void SpatialDomain::gather(std::vector<double>& values) {
  if (communicates()) comm_->gather_column_blocks(values.data(), blocks_);
}

}  // namespace novamd::parallel
