#include "novamd/io/config_parallel.hpp"

#include <fmt/format.h>

namespace novamd::io {
namespace {

constexpr std::int64_t kMaxBlocks = 1 << 20;

parallel::Decomposition decomposition_of(const YamlReader& node) {
  const std::string word =
      node.choice_or("decomposition", "auto", {"auto", "force_matrix", "spatial"});
  if (word == "force_matrix") return parallel::Decomposition::ForceMatrix;
  if (word == "spatial") return parallel::Decomposition::Spatial;
  return parallel::Decomposition::Auto;
}

}  // namespace

parallel::ParallelSettings parse_parallel(const YamlReader& node) {
  node.check_keys({"decomposition", "grid", "pairs", "balance"});
  parallel::ParallelSettings settings;
  settings.decomposition = decomposition_of(node);
  settings.balance = node.choice_or("balance", "none", {"none", "particles"}) == "particles";
  settings.full_matrix = node.choice_or("pairs", "auto", {"auto", "full_matrix"}) == "full_matrix";
  const auto grid = node.optional("grid");
  if (!grid || grid->is_word("auto")) return settings;
  const bool spatial = settings.decomposition == parallel::Decomposition::Spatial;
  const bool matrix = settings.decomposition == parallel::Decomposition::ForceMatrix;
  const char* expected =
      spatial  ? "auto or [a, b, c], three integers >= 1 (bricks along x, y, z; a x b x c = the "
                 "rank count)"
      : matrix ? "auto or [P, Q], two integers >= 1 (P x Q = the rank count)"
               : "auto, [P, Q] (a force matrix: P x Q = the rank count) or [a, b, c] (spatial "
                 "bricks: a x b x c = the rank count)";
  if (!grid->is_list()) grid->fail_type(expected);
  const auto elements = grid->elements();
  const bool fits = (elements.size() == 2 && !spatial) || (elements.size() == 3 && !matrix);
  if (!fits) grid->fail(fmt::format("found a list of {} numbers", elements.size()), expected);
  std::array<int, 3> counts{1, 1, 1};
  for (std::size_t k = 0; k < elements.size(); ++k) {
    const auto count = elements[k].integer(ValueRange::at_least(1));
    if (count > kMaxBlocks) grid->fail("too many blocks", expected);
    counts[k] = static_cast<int>(count);
  }
  if (elements.size() == 2) {
    settings.decomposition = parallel::Decomposition::ForceMatrix;
    settings.grid = std::array<int, 2>{counts[0], counts[1]};
  } else {
    settings.decomposition = parallel::Decomposition::Spatial;
    settings.bricks = counts;
  }
  settings.grid_origin = grid->location();
  settings.grid_origin.resize(settings.grid_origin.size() - 2);  // without the trailing ": "
  return settings;
}

}  // namespace novamd::io
