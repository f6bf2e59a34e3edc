#include "novamd/io/topology_file.hpp"

#include <algorithm>

namespace novamd::io {
namespace {

struct StyleEntry {
  TermKind kind;
  std::string_view style;
  int count;
};

constexpr StyleEntry kStyles[] = {
    {TermKind::Bond, "harmonic", 2},      {TermKind::Angle, "harmonic", 2},
    {TermKind::Angle, "charmm", 4},       {TermKind::Dihedral, "charmm", 4},
    {TermKind::Dihedral, "charmmfsw", 4}, {TermKind::Dihedral, "fourier", -1},
    {TermKind::Dihedral, "opls", 4},      {TermKind::Dihedral, "periodic", 3},
    {TermKind::Improper, "harmonic", 2},  {TermKind::Improper, "cvff", 3},
    {TermKind::Improper, "periodic", 3},
};

}  // namespace

std::string_view kind_name(TermKind kind) {
  switch (kind) {
    case TermKind::Bond:
      return "bond";
    case TermKind::Angle:
      return "angle";
    case TermKind::Dihedral:
      return "dihedral";
    case TermKind::Improper:
      return "improper";
  }
  return "term";
}

std::optional<int> coefficient_count(TermKind kind, std::string_view style) {
  for (const auto& e : kStyles)
    if (e.kind == kind && e.style == style) return e.count;
  return std::nullopt;
}

std::vector<std::string_view> known_styles(TermKind kind) {
  std::vector<std::string_view> names;
  for (const auto& e : kStyles)
    if (e.kind == kind) names.push_back(e.style);
  return names;
}

}  // namespace novamd::io
