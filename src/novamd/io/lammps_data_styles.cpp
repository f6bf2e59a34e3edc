/// @file lammps_data_styles.cpp
/// Section names, atom styles and the styles sections are read in (see lammps_data_styles.hpp).

#include "novamd/io/lammps_data_styles.hpp"

#include <fmt/format.h>

#include <array>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/core/excerpt.hpp"
#include "novamd/io/lammps_data.hpp"

namespace novamd::io::lammps {
namespace {

constexpr std::array<AtomColumns, 4> kAtomStyles = {{
    {"full", 7, 1, 2, 3, 4},
    {"molecular", 6, 1, 2, -1, 3},
    {"charge", 6, -1, 1, 2, 3},
    {"atomic", 5, -1, 1, -1, 2},
}};

const AtomColumns* atom_columns(std::string_view style) {
  for (const auto& c : kAtomStyles)
    if (c.style == style) return &c;
  return nullptr;
}

}  // namespace

/// "bonds", "angles", ... as the header counts them.
std::string plural(TermKind kind) {
  return std::string(kind_name(kind)) + "s";
}

/// "Bonds", "Angles", ...: the section of the terms.
std::string terms_section(TermKind kind) {
  std::string name = plural(kind);
  name.front() = static_cast<char>(name.front() - 'a' + 'A');
  return name;
}

/// "Bond Coeffs", ...: the section of their coefficients.
std::string coeffs_section(TermKind kind) {
  std::string name(kind_name(kind));
  name.front() = static_cast<char>(name.front() - 'a' + 'A');
  return name + " Coeffs";
}

/// The section title of a title line: its fields, one blank between them.
std::string title_name(const DataLine& title) {
  std::string name;
  for (const auto& f : title.fields) name += (name.empty() ? "" : " ") + f;
  return name;
}

/// NovaMD's pair style from the title's comment and `styles.pair`.
std::string pair_style(const DataReader& reader, const DataLine& title,
                       const std::optional<std::string>& given) {
  const auto known = [&](const std::string& name, std::string_view source) {
    const auto family = pair_style_family(name);
    if (!family)
      throw core::InputError(fmt::format(
          "{}: {} names the pair style '{}', which the reader does not know; expected lj_charmm "
          "(lj/charmm/coul/charmm, lj/charmm/coul/long, ...) or lj_cut (lj/cut, "
          "lj/cut/coul/cut, lj/cut/coul/long, ...)",
          reader.where(title.number), source, core::excerpt(name)));
    return *family;
  };
  const std::string hint = title.comment_word();
  std::optional<std::string> from_hint, from_styles;
  if (!hint.empty()) from_hint = known(hint, "the section's comment");
  if (given) from_styles = known(*given, "system.topology.styles.pair");
  if (from_hint && from_styles && *from_hint != *from_styles)
    throw core::InputError(fmt::format(
        "{}: the section's comment names the pair style '{}' but system.topology.styles.pair is "
        "'{}'; expected them to agree",
        reader.where(title.number), core::excerpt(hint), core::excerpt(*given)));
  if (!from_hint && !from_styles)
    throw core::InputError(fmt::format(
        "{}: the {} section names no pair style; expected system.topology.styles.pair (e.g. "
        "lj_charmm) or a comment on the title line (Pair Coeffs # lj/charmm/coul/long)",
        reader.where(title.number), title_name(title)));
  return from_hint ? *from_hint : *from_styles;
}

/// The style of a kind's Coeffs section, from its title's comment and `styles`.
std::string term_style(const DataReader& reader, TermKind kind, const DataLine& title,
                       const std::optional<std::string>& given) {
  const std::string key = fmt::format("system.topology.styles.{}", kind_name(kind));
  const std::string hint = lammps::underscored(title.comment_word());
  const std::string from_styles = given ? lammps::underscored(*given) : std::string();
  if (!hint.empty() && given && hint != from_styles)
    throw core::InputError(fmt::format(
        "{}: the {} section's comment names the {} style '{}' but {} is '{}'; expected them to "
        "agree",
        reader.where(title.number), coeffs_section(kind), kind_name(kind), core::excerpt(hint), key,
        core::excerpt(*given)));
  const std::string style = hint.empty() ? from_styles : hint;
  const auto known = lammps::joined(known_styles(kind));
  if (style.empty())
    throw core::InputError(fmt::format(
        "{}: the {} section names no {} style; expected {} (one of: {}) or a comment on the "
        "title line ({} # {})",
        reader.where(title.number), coeffs_section(kind), kind_name(kind), key, known,
        coeffs_section(kind), known_styles(kind).front()));
  if (!coefficient_count(kind, style))
    throw core::InputError(
        fmt::format("{}: the {} style '{}' ({}) is not one the reader knows; expected one of: {}",
                    reader.where(title.number), kind_name(kind), core::excerpt(style),
                    hint.empty() ? key : "the section's comment", known));
  return style;
}

/// The atom style from the title's comment, `styles.atom`, or the first line's column count.
const AtomColumns& atom_style(const DataReader& reader, const DataLine& title,
                              const DataLine& first, const std::optional<std::string>& given) {
  const auto known = [&](const std::string& name, std::string_view source) {
    const AtomColumns* c = atom_columns(name);
    if (!c)
      throw core::InputError(fmt::format(
          "{}: {} names the atom style '{}', which the reader does not know; expected one of: "
          "{}",
          reader.where(title.number), source, core::excerpt(name),
          lammps::joined(known_atom_styles())));
    return c;
  };
  const std::string hint = title.comment_word();
  const AtomColumns* from_hint = hint.empty() ? nullptr : known(hint, "the Atoms comment");
  const AtomColumns* from_styles = given ? known(*given, "system.topology.styles.atom") : nullptr;
  if (from_hint && from_styles && from_hint != from_styles)
    throw core::InputError(fmt::format(
        "{}: the Atoms comment names the atom style '{}' but system.topology.styles.atom is "
        "'{}'; expected them to agree",
        reader.where(title.number), core::excerpt(hint), core::excerpt(*given)));
  if (from_hint) return *from_hint;
  if (from_styles) return *from_styles;
  std::vector<const AtomColumns*> fitting;
  for (const auto& c : kAtomStyles)
    if (first.fields.size() == static_cast<std::size_t>(c.count) ||
        first.fields.size() == static_cast<std::size_t>(c.count) + 3)
      fitting.push_back(&c);
  if (fitting.size() == 1) return *fitting.front();
  throw core::InputError(fmt::format(
      "{}: the Atoms section names no atom style and its first line has {} fields, which {}; "
      "expected system.topology.styles.atom (one of: {}) or a comment on the title line "
      "(Atoms # full)",
      reader.where(first.number), first.fields.size(),
      fitting.empty()
          ? std::string("fit no atom style")
          : fmt::format("fit both the {} and {} atom styles", fitting[0]->style, fitting[1]->style),
      lammps::joined(known_atom_styles())));
}

}  // namespace novamd::io::lammps

namespace novamd::io {

std::vector<std::string_view> known_atom_styles() {
  std::vector<std::string_view> names;
  for (const auto& c : lammps::kAtomStyles) names.push_back(c.style);
  return names;
}

std::optional<std::string> pair_style_family(std::string_view name) {
  const std::string s = lammps::underscored(name);
  const auto in_family = [&](std::string_view prefix) {
    return s.rfind(prefix, 0) == 0 && (s.size() == prefix.size() || s[prefix.size()] == '_');
  };
  if (in_family("lj_charmm") || in_family("lj_charmmfsw")) return "lj_charmm";
  if (in_family("lj_cut")) return "lj_cut";
  return std::nullopt;
}

}  // namespace novamd::io
