// Every force term of the case table (support/force_term_cases.hpp) on every CPU traversal and
// in every precision, against the CPU's all-pairs reference in double, through the shared body
// of support/force_term_check.hpp: fresh random input, particles moved under half the skin, one
// particle jumped (lists rebuilt), particles removed; forces, energy and virial within the
// bounds the error model derives. This file supplies only the CPU's force terms.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "novamd/forces/cpu_force_term.hpp"
#include "support/force_term_cases.hpp"
#include "support/force_term_check.hpp"

namespace {

using novamd::core::Precision;
using novamd::neighbors::NeighborMethod;
using novamd::test::Evaluation;

/// The setup's force terms as the CPU backend builds them (make_cpu_force_term), kept between
/// evaluations.
novamd::test::Evaluate cpu_terms(const novamd::backend::BackendSetup& s) {
  auto terms = std::make_shared<std::vector<std::unique_ptr<novamd::forces::CpuForceTerm>>>();
  for (const auto& f : s.forces) {
    terms->push_back(novamd::forces::make_cpu_force_term(f, s.species, s.units, s.precision,
                                                         s.neighbors, s.box.shortest_edge()));
  }
  return [terms, box = s.box](const novamd::core::ParticleData& p) {
    novamd::neighbors::ForceBuffers out;
    out.reset(p.size());
    Evaluation e;
    for (const auto& term : *terms) {
      term->add_to(p, box, out, /*with_energy=*/true);
      e.list_builds += term->list_builds();
    }
    e.fx = out.force.x;
    e.fy = out.force.y;
    e.fz = out.force.z;
    e.energy = out.total_energy();
    e.virial = out.total_virial();
    return e;
  };
}

using Param = novamd::test::ForceTermParam;

class ForceTerms : public testing::TestWithParam<Param> {};

TEST_P(ForceTerms, MatchTheDoubleAllPairsReference) {
  const auto [index, method, precision] = GetParam();
  const auto& c = novamd::test::force_term_cases()[index];
  novamd::test::check_force_terms(c, method, precision, novamd::test::cpu_arithmetic(precision),
                                  cpu_terms, "ForceTerms");
}

INSTANTIATE_TEST_SUITE_P(, ForceTerms, novamd::test::every_force_term_param(),
                         novamd::test::force_term_param_name);

}  // namespace
