/// @file cutoff_check.cpp
/// Cutoffs against a box that changed during a run (force_settings.hpp, check_cutoffs_fit).

#include <fmt/format.h>

#include "novamd/core/error.hpp"
#include "novamd/forces/force_settings.hpp"

namespace novamd::forces {

void check_cutoffs_fit(const std::vector<double>& cutoffs, const core::Box& box) {
  for (std::size_t t = 0; t < cutoffs.size(); ++t) {
    if (cutoff_fits(cutoffs[t], box.shortest_edge())) continue;
    const auto& L = box.length();
    throw core::RunError(fmt::format(
        "the box shrank to {:.6g} x {:.6g} x {:.6g}: the cutoff {:.6g} of force term {} exceeds "
        "half its shortest edge; expected a box whose shortest edge is at least twice the cutoff "
        "(a larger system, or a gentler barostat)",
        L.x, L.y, L.z, cutoffs[t], t));
  }
}

}  // namespace novamd::forces
