/// @file config_pair_table.cpp
/// Reading `forces: - pair_table: {...}`.

#include "novamd/io/config_pair_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "novamd/core/error.hpp"
#include "novamd/io/config_forces.hpp"
#include "novamd/io/pair_table_file.hpp"

namespace novamd::io {
namespace {

const NameList kTablePairKeys{"types", "keyword", "file", "cutoff"};

/// The table file a pair names, or the term's, relative to the config's folder.
std::filesystem::path table_file(const YamlReader& pair,
                                 const std::optional<YamlReader>& term_file) {
  const auto own = pair.optional("file");
  if (!own && !term_file)
    pair.fail("no table file for this pair", "file: here, or pair_table.file for every pair");
  std::filesystem::path file = (own ? *own : *term_file).string();
  if (file.is_relative()) file = std::filesystem::path(pair.source().file).parent_path() / file;
  return file;
}

/// The section a pair names, read; a fault of the file is reported at the pair's keyword too.
std::shared_ptr<const forces::TableSection> read_section(const YamlReader& pair,
                                                         const std::filesystem::path& file) {
  const YamlReader keyword = pair.required("keyword");
  try {
    return std::make_shared<const forces::TableSection>(
        read_pair_table_section(file, keyword.string()));
  } catch (const core::InputError& e) {
    keyword.fail(e.what());
  }
}

/// The pair's cutoff (its own, the term's, or the table's last distance), within the table.
double pair_cutoff(const YamlReader& pair, const std::optional<double>& term_cutoff,
                   const forces::TableSection& s) {
  const auto own = pair.optional("cutoff");
  const double cutoff =
      own ? own->number(ValueRange::positive()) : term_cutoff.value_or(s.last_distance());
  if (cutoff <= s.first_distance() || cutoff > s.last_distance()) {
    const YamlReader at = own ? *own : pair;
    at.fail(fmt::format("the cutoff {} lies outside table {} of {} (r from {} to {})", cutoff,
                        s.keyword, s.file, s.first_distance(), s.last_distance()),
            "a cutoff above the table's first distance and at most its last");
  }
  return cutoff;
}

forces::TablePair parse_pair(const YamlReader& pair, const core::SpeciesTable& species,
                             const std::optional<YamlReader>& term_file,
                             const std::optional<double>& term_cutoff) {
  pair.check_keys(kTablePairKeys);
  forces::TablePair p;
  std::tie(p.species_a, p.species_b) = parse_pair_types(pair.required("types"), species);
  p.section = read_section(pair, table_file(pair, term_file));
  p.cutoff = pair_cutoff(pair, term_cutoff, *p.section);
  return p;
}

/// Every species pair listed, and once.
void check_coverage(const YamlReader& node, const std::vector<forces::TablePair>& pairs,
                    const std::vector<YamlReader>& elements, const core::SpeciesTable& species) {
  const auto same = [](const forces::TablePair& x, const std::string& a, const std::string& b) {
    return (x.species_a == a && x.species_b == b) || (x.species_a == b && x.species_b == a);
  };
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    for (std::size_t j = 0; j < k; ++j)
      if (same(pairs[j], pairs[k].species_a, pairs[k].species_b))
        elements[k].fail("this species pair is listed twice", "one entry per pair");
  }
  for (int a = 0; a < species.size(); ++a) {
    for (int b = a; b < species.size(); ++b) {
      const auto& na = species[a].name;
      const auto& nb = species[b].name;
      if (std::none_of(pairs.begin(), pairs.end(), [&](const auto& p) { return same(p, na, nb); }))
        node.fail(fmt::format("no table for the species pair {} {}", na, nb),
                  fmt::format("an entry {{types: [{}, {}], keyword: ...}} (every species pair "
                              "needs its table)",
                              na, nb));
    }
  }
}

}  // namespace

forces::PairTableSettings parse_pair_table(const YamlReader& node,
                                           const core::SpeciesTable& species) {
  node.check_keys(
      NameList(forces::PairTableSettings::kKeys.begin(), forces::PairTableSettings::kKeys.end()));
  forces::PairTableSettings settings;
  settings.interpolation =
      node.choice_or("interpolation", "linear", {"linear", "spline"}) == "spline"
          ? forces::TableInterpolation::Spline
          : forces::TableInterpolation::Linear;
  if (const auto points = node.optional("points"))
    settings.points = static_cast<int>(points->integer(ValueRange::between(2, 10'000'000)));
  std::optional<double> term_cutoff;
  if (const auto cutoff = node.optional("cutoff"))
    term_cutoff = cutoff->number(ValueRange::positive());
  const auto term_file = node.optional("file");
  const YamlReader list = node.required("pairs");
  const auto elements = list.elements();
  if (elements.empty())
    list.fail("the list is empty", "at least one {types: [A, A], keyword: ...}");
  for (const auto& element : elements)
    settings.pairs.push_back(parse_pair(element, species, term_file, term_cutoff));
  check_coverage(list, settings.pairs, elements, species);
  for (const auto& p : settings.pairs) settings.cutoff = std::max(settings.cutoff, p.cutoff);
  return settings;
}

}  // namespace novamd::io
