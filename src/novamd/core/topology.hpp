#pragma once
/// @file topology.hpp
/// The molecular topology: bonds, angles, dihedrals and impropers, and what follows from the bond
/// graph (exclusions, 1-4 pairs, molecules).
///
/// Conventions:
/// - **Ids, not storage indices.** Every term names its particles by id, the permanent particle
///   number 0..N-1 (the order of the input), never by storage index: the particle store may be
///   reordered (spatial sorting), the topology never changes. Loops over terms find a particle's
///   current storage index through an IdIndexMap (id_index_map.hpp).
/// - **Order within a term is kept** as given: the middle particle of an angle, the chain of a
///   dihedral and the atom order of an improper (the central atom's position is the force
///   field's convention) mean what the reader and the evaluator say they mean.
/// - **Separation is the shortest path.** Two particles are at separation s when the shortest
///   path between them in the bond graph has s bonds: 1-2 (s = 1), 1-3 (s = 2), 1-4 (s = 3).
///   A pair joined both by a path of 3 bonds and, through a ring, by a shorter one is a 1-2 or
///   1-3 pair, not a 1-4 pair. This is the rule of LAMMPS `special_bonds` (src/special.cpp,
///   `Special::combine()`: duplicates between the 1-2, 1-3 and 1-4 lists stay in the first list
///   they appear in) and of OpenMM `NonbondedForce::createExceptionsFromBonds` (a pair within 3
///   bonds is a 1-4 exception only when it is not within 2). So a 4- or 5-ring has no 1-4 pair,
///   and the two paths of 3 bonds across a 6-ring give one 1-4 pair. Only bonds make the graph:
///   angles and dihedrals add no edges and remove none (as in LAMMPS with its default `angle no`,
///   `dihedral no`).
/// - **CSR layout.** Per-particle lists (exclusions) are compressed sparse rows: the list of
///   particle id i is `ids[offsets[i] .. offsets[i + 1])`, sorted ascending, with
///   `offsets.size() == N + 1`. Rows are full: j is in row i exactly when i is in row j, so a
///   thread reads only the row of its own particle (gather, no atomics).
/// - **Flat term arrays.** Terms of K particles are stored as a struct of arrays, `type` (one per
///   term) and `ids` (K per term, term t's at `ids[K t + a]`): each is one contiguous array of
///   int32, uploaded with one copy and read by the device without any layout assumption shared
///   between the host compiler and nvcc; a kernel that needs only the types reads only them.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "novamd/core/host_device.hpp"

namespace novamd::core {

/// One bonded term of K particles: its type (index into the force field's coefficients) and the
/// ids of its particles, in the term's order.
template <int K>
struct Term {
  std::int32_t type = 0;
  std::array<std::int32_t, K> ids{};
  friend bool operator==(const Term&, const Term&) = default;
};

using Bond = Term<2>;      ///< i-j
using Angle = Term<3>;     ///< i-j-k, j the vertex
using Dihedral = Term<4>;  ///< i-j-k-l, rotation about j-k
using Improper = Term<4>;  ///< four particles; which is central is the force field's convention

/// All terms of one kind, as a struct of arrays (see the file comment).
template <int K>
struct TermList {
  static constexpr int kArity = K;  ///< particles per term: the stride of `ids`
  std::vector<std::int32_t> type;   ///< one per term
  std::vector<std::int32_t> ids;    ///< K per term: term t's particles at ids[K t .. K t + K)

  std::size_t size() const { return type.size(); }
  Term<K> operator[](std::size_t t) const {
    Term<K> term;
    term.type = type[t];
    for (int a = 0; a < K; ++a) term.ids[a] = ids[K * t + a];
    return term;
  }
};

/// Raw pointers to one TermList, in host or device memory: what a loop over terms reads.
template <int K>
struct TermListView {
  const std::int32_t* type = nullptr;
  const std::int32_t* ids = nullptr;
  std::int32_t count = 0;

  /// Id of particle a (0..K-1) of term t.
  NOVAMD_HD std::int32_t id(std::int32_t t, int a) const { return ids[std::size_t(t) * K + a]; }
};

/// Raw device pointers and counts of a DeviceTopology (device_topology.cuh), for kernels; valid
/// while it lives and is not uploaded again.
struct DeviceTopologyView {
  std::int32_t particle_count = 0;
  const std::int32_t* exclusion_offsets = nullptr;  ///< particle_count + 1 entries
  const std::int32_t* exclusion_ids = nullptr;      ///< row i: [offsets[i], offsets[i + 1])
  std::int32_t exclusion_count = 0;                 ///< entries of exclusion_ids
  std::int32_t exclusion_span = 0;                  ///< ExclusionLists::span()
};

/// For every particle id, the sorted ids of the particles at separations 1..k (CSR, full rows).
struct ExclusionLists {
  std::vector<std::int32_t> offsets;  ///< N + 1 entries; offsets[0] = 0
  std::vector<std::int32_t> ids;      ///< row i: ids[offsets[i] .. offsets[i + 1])

  /// The row of particle `id`.
  std::span<const std::int32_t> of(std::int32_t id) const {
    return {ids.data() + offsets[id], static_cast<std::size_t>(offsets[id + 1] - offsets[id])};
  }
  /// Whether j is in the row of i (binary search).
  bool contains(std::int32_t i, std::int32_t j) const;
  /// The largest |i - j| of an excluded pair (i, j); 0 without exclusions. Pairs whose ids lie
  /// further apart are never excluded (molecules with consecutive ids: a few ids).
  std::int32_t span() const;
};

/// For every particle id, the terms of one list it belongs to: row i holds term t * K + a for
/// each term t whose particle a is i, in increasing order of t (CSR, N + 1 offsets). A loop over
/// particles reads its own row and sums its share of each term: each particle gathers its own
/// forces, in a fixed order, without atomics.
struct TermMemberships {
  std::vector<std::int32_t> offsets;  ///< N + 1 entries
  std::vector<std::int32_t> entries;  ///< t * K + a
};

/// The memberships of `terms` for `particle_count` particles (ids of the terms < particle_count).
template <int K>
TermMemberships memberships_of(const TermList<K>& terms, std::int32_t particle_count) {
  TermMemberships m;
  m.offsets.assign(static_cast<std::size_t>(particle_count) + 1, 0);
  for (const std::int32_t id : terms.ids) ++m.offsets[static_cast<std::size_t>(id) + 1];
  for (std::size_t i = 0; i < static_cast<std::size_t>(particle_count); ++i)
    m.offsets[i + 1] += m.offsets[i];
  m.entries.resize(terms.ids.size());
  std::vector<std::int32_t> next(m.offsets.begin(), m.offsets.end() - 1);
  for (std::size_t k = 0; k < terms.ids.size(); ++k)  // k = t K + a, increasing t
    m.entries[next[terms.ids[k]]++] = static_cast<std::int32_t>(k);
  return m;
}

/// Connected components of the bond graph, numbered 0, 1, ... in increasing order of their lowest
/// id (deterministic); a particle without bonds is a molecule of its own.
struct Molecules {
  std::vector<std::int32_t> of_id;  ///< molecule of each particle id
  std::int32_t count = 0;

  std::int32_t molecule_of(std::int32_t id) const { return of_id[id]; }
  /// The ids of each molecule's particles, ascending.
  std::vector<std::vector<std::int32_t>> members() const {
    std::vector<std::vector<std::int32_t>> m(static_cast<std::size_t>(count));
    for (std::size_t id = 0; id < of_id.size(); ++id)
      m[static_cast<std::size_t>(of_id[id])].push_back(static_cast<std::int32_t>(id));
    return m;
  }
};

/// Separations excluded from the pair lists (DESIGN principle 10: 1-2, 1-3 and 1-4; scaled 1-4
/// pairs are computed separately as fixed pair terms).
inline constexpr int kExcludedSeparations = 3;

/// The bonded terms of a system of `particle_count` particles, validated as they are added.
class Topology {
 public:
  Topology() = default;
  /// Throws InputError when `particle_count` is negative.
  explicit Topology(std::int32_t particle_count);

  std::int32_t particle_count() const { return particle_count_; }

  /// Each adds one term after checking that its ids are in 0..N-1 and distinct and its type is
  /// not negative; throws InputError naming the term kind, its index (the number of terms of that
  /// kind before it) and the bad id. A rejected term leaves the topology unchanged.
  void add_bond(const Bond& bond);
  void add_angle(const Angle& angle);
  void add_dihedral(const Dihedral& dihedral);
  void add_improper(const Improper& improper);
  /// A pair computed apart from the pair lists with its own parameters (a scaled 1-4 pair:
  /// OpenMM's exception, DESIGN principle 10); its type indexes the pair terms' parameters.
  void add_scaled_pair(const Term<2>& pair);
  /// A pair whose reciprocal-space interaction the Ewald sum removes (an excluded pair; its
  /// type indexes the correction's parameters, physics::EwaldExcludedPair).
  void add_correction_pair(const Term<2>& pair);
  /// A pair excluded from the pair terms besides those the bond graph excludes (a force field's
  /// explicit exclusion list, such as AMBER's); checked as a term is.
  void add_exclusion(std::int32_t id_a, std::int32_t id_b);

  const TermList<2>& bonds() const { return bonds_; }
  const TermList<3>& angles() const { return angles_; }
  const TermList<4>& dihedrals() const { return dihedrals_; }
  const TermList<4>& impropers() const { return impropers_; }
  const TermList<2>& scaled_pairs() const { return scaled_pairs_; }
  const TermList<2>& correction_pairs() const { return correction_pairs_; }
  /// Whether any pair is excluded from the pair terms (there are bonds or explicit exclusions).
  bool excludes_pairs() const { return bonds_.size() > 0 || !extra_exclusions_.empty(); }

  /// For every particle, the particles at shortest-path separations 1..`max_separation` (0 to 3;
  /// 0 gives empty rows), and with max_separation > 0 the explicit exclusions (add_exclusion).
  /// Throws InputError for another value.
  ExclusionLists exclusions(int max_separation = kExcludedSeparations) const;
  /// The pairs (i < j) whose shortest path is exactly 3 bonds, each once, sorted.
  std::vector<std::array<std::int32_t, 2>> pairs_14() const;
  /// The molecules (connected components of the bond graph).
  Molecules molecules() const;

 private:
  std::int32_t particle_count_ = 0;
  TermList<2> bonds_;
  TermList<3> angles_;
  TermList<4> dihedrals_;
  TermList<4> impropers_;
  TermList<2> scaled_pairs_;
  TermList<2> correction_pairs_;
  std::vector<std::array<std::int32_t, 2>> extra_exclusions_;  ///< each i < j
};

}  // namespace novamd::core
