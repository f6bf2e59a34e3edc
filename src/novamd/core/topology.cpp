#include "novamd/core/topology.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>

#include "novamd/core/error.hpp"

namespace novamd::core {

namespace {

/// Throws InputError unless the term's type is not negative and its ids are in 0..n-1 and
/// distinct. `kind` and `index` name the term in the message.
template <int K>
void check_term(const Term<K>& term, const char* kind, std::size_t index, std::int32_t n) {
  const std::string name = std::string(kind) + " " + std::to_string(index);
  if (term.type < 0) {
    throw InputError(name + ": type " + std::to_string(term.type) +
                     " is negative: expected a type of 0 or more");
  }
  for (int a = 0; a < K; ++a) {
    const std::int32_t id = term.ids[a];
    if (id < 0 || id >= n) {
      throw InputError(name + ": particle id " + std::to_string(id) +
                       " is out of range: expected 0 to " + std::to_string(n - 1) + " (" +
                       std::to_string(n) + " particles)");
    }
    for (int b = 0; b < a; ++b) {
      if (term.ids[b] == id) {
        throw InputError(name + ": particle id " + std::to_string(id) +
                         " appears twice: expected " + std::to_string(K) + " distinct ids");
      }
    }
  }
}

template <int K>
void append(TermList<K>& list, const Term<K>& term) {
  list.type.push_back(term.type);
  list.ids.insert(list.ids.end(), term.ids.begin(), term.ids.end());
}

/// The bond graph as CSR: the bonded neighbours of each id, sorted, each once (a bond listed
/// twice is one edge).
struct BondGraph {
  std::vector<std::int32_t> offsets;
  std::vector<std::int32_t> ids;
};

BondGraph bond_graph(const TermList<2>& bonds, std::int32_t n) {
  std::vector<std::vector<std::int32_t>> adjacent(n);
  for (std::size_t t = 0; t < bonds.size(); ++t) {
    const std::int32_t i = bonds.ids[2 * t], j = bonds.ids[2 * t + 1];
    adjacent[i].push_back(j);
    adjacent[j].push_back(i);
  }
  BondGraph graph;
  graph.offsets.assign(std::size_t(n) + 1, 0);
  for (std::int32_t i = 0; i < n; ++i) {
    auto& row = adjacent[i];
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    graph.ids.insert(graph.ids.end(), row.begin(), row.end());
    graph.offsets[i + 1] = static_cast<std::int32_t>(graph.ids.size());
  }
  return graph;
}

/// Breadth-first search from one particle to a depth of `max_separation` bonds; `separation`
/// holds 0 for every particle between calls (the search resets what it touched).
class SeparationSearch {
 public:
  SeparationSearch(const BondGraph& graph, std::int32_t n) : graph_(graph), separation_(n, 0) {}

  /// The particles at separations 1..max from `source`, sorted by id, with their separations.
  const std::vector<std::pair<std::int32_t, int>>& from(std::int32_t source, int max) {
    found_.clear();
    separation_[source] = -1;  // marks the source as visited
    queue_.assign(1, source);  // in order of separation: level s - 1 is queue_[head, end)
    std::size_t head = 0;
    for (int s = 1; s <= max; ++s) {
      const std::size_t end = queue_.size();
      for (; head < end; ++head) {
        const std::int32_t i = queue_[head];
        for (std::int32_t e = graph_.offsets[i]; e < graph_.offsets[i + 1]; ++e) {
          const std::int32_t j = graph_.ids[e];
          if (separation_[j] != 0) continue;  // the source or found at a shorter separation
          separation_[j] = s;
          queue_.push_back(j);
          found_.emplace_back(j, s);
        }
      }
    }
    separation_[source] = 0;
    for (const auto& [j, s] : found_) separation_[j] = 0;
    std::sort(found_.begin(), found_.end());
    return found_;
  }

 private:
  const BondGraph& graph_;
  std::vector<int> separation_;
  std::vector<std::int32_t> queue_;
  std::vector<std::pair<std::int32_t, int>> found_;
};

}  // namespace

std::int32_t ExclusionLists::span() const {
  std::int32_t widest = 0;
  for (std::size_t i = 0; i + 1 < offsets.size(); ++i) {
    for (std::int32_t k = offsets[i]; k < offsets[i + 1]; ++k) {
      widest = std::max(widest, std::abs(ids[k] - static_cast<std::int32_t>(i)));
    }
  }
  return widest;
}

bool ExclusionLists::contains(std::int32_t i, std::int32_t j) const {
  const auto row = of(i);
  return std::binary_search(row.begin(), row.end(), j);
}

Topology::Topology(std::int32_t particle_count) : particle_count_(particle_count) {
  if (particle_count < 0) {
    throw InputError("topology: particle count " + std::to_string(particle_count) +
                     " is negative: expected 0 or more particles");
  }
}

void Topology::add_bond(const Bond& bond) {
  check_term(bond, "bond", bonds_.size(), particle_count_);
  append(bonds_, bond);
}

void Topology::add_angle(const Angle& angle) {
  check_term(angle, "angle", angles_.size(), particle_count_);
  append(angles_, angle);
}

void Topology::add_dihedral(const Dihedral& dihedral) {
  check_term(dihedral, "dihedral", dihedrals_.size(), particle_count_);
  append(dihedrals_, dihedral);
}

void Topology::add_improper(const Improper& improper) {
  check_term(improper, "improper", impropers_.size(), particle_count_);
  append(impropers_, improper);
}

void Topology::add_scaled_pair(const Term<2>& pair) {
  check_term(pair, "scaled pair", scaled_pairs_.size(), particle_count_);
  append(scaled_pairs_, pair);
}

void Topology::add_correction_pair(const Term<2>& pair) {
  check_term(pair, "correction pair", correction_pairs_.size(), particle_count_);
  append(correction_pairs_, pair);
}

void Topology::add_exclusion(std::int32_t id_a, std::int32_t id_b) {
  check_term(Term<2>{0, {id_a, id_b}}, "exclusion", extra_exclusions_.size(), particle_count_);
  extra_exclusions_.push_back({std::min(id_a, id_b), std::max(id_a, id_b)});
}

ExclusionLists Topology::exclusions(int max_separation) const {
  if (max_separation < 0 || max_separation > 3) {
    throw InputError("exclusions: maximum separation " + std::to_string(max_separation) +
                     " is not supported: expected 0 (none) to 3 (1-2, 1-3 and 1-4)");
  }
  const BondGraph graph = bond_graph(bonds_, particle_count_);
  SeparationSearch search(graph, particle_count_);
  // The explicit exclusions, both ways, merged into each row.
  std::vector<std::vector<std::int32_t>> extra;
  if (max_separation > 0 && !extra_exclusions_.empty()) {
    extra.resize(std::size_t(particle_count_));
    for (const auto& [a, b] : extra_exclusions_) {
      extra[a].push_back(b);
      extra[b].push_back(a);
    }
  }
  ExclusionLists lists;
  lists.offsets.assign(std::size_t(particle_count_) + 1, 0);
  std::vector<std::int32_t> row;
  for (std::int32_t i = 0; i < particle_count_; ++i) {
    row.clear();
    for (const auto& [j, s] : search.from(i, max_separation)) row.push_back(j);
    if (!extra.empty() && !extra[i].empty()) {
      row.insert(row.end(), extra[i].begin(), extra[i].end());
      std::sort(row.begin(), row.end());
      row.erase(std::unique(row.begin(), row.end()), row.end());
    }
    lists.ids.insert(lists.ids.end(), row.begin(), row.end());
    if (lists.ids.size() > std::size_t(std::numeric_limits<std::int32_t>::max())) {
      throw InputError("exclusions: more than 2^31 - 1 entries: expected a smaller topology");
    }
    lists.offsets[i + 1] = static_cast<std::int32_t>(lists.ids.size());
  }
  return lists;
}

std::vector<std::array<std::int32_t, 2>> Topology::pairs_14() const {
  const BondGraph graph = bond_graph(bonds_, particle_count_);
  SeparationSearch search(graph, particle_count_);
  std::vector<std::array<std::int32_t, 2>> pairs;
  for (std::int32_t i = 0; i < particle_count_; ++i) {
    for (const auto& [j, s] : search.from(i, 3)) {
      if (s == 3 && i < j) pairs.push_back({i, j});  // i increasing, j sorted: pairs sorted
    }
  }
  return pairs;
}

Molecules Topology::molecules() const {
  const BondGraph graph = bond_graph(bonds_, particle_count_);
  Molecules molecules;
  molecules.of_id.assign(std::size_t(particle_count_), -1);
  std::vector<std::int32_t> stack;
  // Ids in increasing order: the first unvisited id is the lowest of a new component.
  for (std::int32_t first = 0; first < particle_count_; ++first) {
    if (molecules.of_id[first] >= 0) continue;
    const std::int32_t m = molecules.count++;
    molecules.of_id[first] = m;
    stack.assign(1, first);
    while (!stack.empty()) {
      const std::int32_t i = stack.back();
      stack.pop_back();
      for (std::int32_t e = graph.offsets[i]; e < graph.offsets[i + 1]; ++e) {
        const std::int32_t j = graph.ids[e];
        if (molecules.of_id[j] < 0) {
          molecules.of_id[j] = m;
          stack.push_back(j);
        }
      }
    }
  }
  return molecules;
}

}  // namespace novamd::core
