#include "novamd/backend/binning_timing.hpp"

namespace novamd::backend {

#ifndef NOVAMD_HAVE_CUDA
std::optional<BinningTimes> time_cell_binning(const std::vector<core::Vec3<double>>&,
                                              const core::Box&, double, core::Precision, int) {
  return std::nullopt;
}
#endif

}  // namespace novamd::backend
