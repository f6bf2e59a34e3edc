#include "novamd/backend/molecular_terms.hpp"

#include "novamd/core/error.hpp"

namespace novamd::backend {

bool has_excluded_pairs(const BackendSetup& setup, bool decomposed) {
  const bool bonds = setup.topology.bonds().size() > 0;
  if (decomposed && (bonds || !setup.bonded.empty()))
    throw core::InputError(
        "bonded terms and bonds are not supported with the force-matrix decomposition "
        "(parallel.grid); run molecular systems on one rank");
  return bonds;
}

}  // namespace novamd::backend
