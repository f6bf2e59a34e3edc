#include "novamd/io/config_parallel.hpp"

#include <fmt/format.h>

namespace novamd::io {

parallel::ParallelSettings parse_parallel(const YamlReader& node) {
  node.check_keys({"grid", "pairs"});
  parallel::ParallelSettings settings;
  settings.full_matrix = node.choice_or("pairs", "auto", {"auto", "full_matrix"}) == "full_matrix";
  const auto grid = node.optional("grid");
  if (!grid || grid->is_word("auto")) return settings;
  constexpr const char* kExpected = "auto or [P, Q], two integers >= 1 (P x Q = the rank count)";
  if (!grid->is_list()) grid->fail_type(kExpected);
  const auto elements = grid->elements();
  if (elements.size() != 2)
    grid->fail(fmt::format("found a list of {} numbers", elements.size()), kExpected);
  const auto rows = elements[0].integer(ValueRange::at_least(1));
  const auto columns = elements[1].integer(ValueRange::at_least(1));
  constexpr std::int64_t kMaxBlocks = 1 << 20;
  if (rows > kMaxBlocks || columns > kMaxBlocks) grid->fail("too many blocks", kExpected);
  settings.grid = {static_cast<int>(rows), static_cast<int>(columns)};
  settings.grid_origin = grid->location();
  settings.grid_origin.resize(settings.grid_origin.size() - 2);  // without the trailing ": "
  return settings;
}

}  // namespace novamd::io
