#include "novamd/backend/molecular_terms.hpp"

#include "novamd/core/error.hpp"

namespace novamd::backend {

bool has_excluded_pairs(const BackendSetup& setup, bool decomposed) {
  const bool excluded = setup.topology.excludes_pairs();
  if (decomposed && (excluded || !setup.bonded.empty()))
    throw core::InputError(
        "bonded terms and bonds are not supported with the force-matrix decomposition "
        "(parallel.grid); run molecular systems on one rank");
  return excluded;
}

}  // namespace novamd::backend
