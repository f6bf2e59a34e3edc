/// @file h5md_units.cpp
/// Unit strings in H5MD's notation (see h5md_units.hpp).

#include "novamd/io/h5md_units.hpp"

#include <cctype>
#include <charconv>
#include <utility>
#include <vector>

namespace novamd::io {
namespace {

/// Symbols with their powers, in order of first appearance.
using UnitPowers = std::vector<std::pair<std::string, int>>;

void add_power(UnitPowers& powers, std::string symbol, int power) {
  for (auto& [s, p] : powers)
    if (s == symbol) {
      p += power;
      return;
    }
  powers.emplace_back(std::move(symbol), power);
}

/// Adds the factors of "sym[pow] sym[pow] ..." times `sign`: "ps-1" is ps to the power -1.
void add_factors(UnitPowers& powers, std::string_view text, int sign) {
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    const std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i == start) break;
    std::string_view token = text.substr(start, i - start);
    // A trailing signed integer is the power: "c-1", "m2"; a symbol alone has power 1.
    std::size_t digits = token.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(token[digits - 1]))) --digits;
    if (digits > 0 && digits < token.size() && token[digits - 1] == '-') --digits;
    int power = 1;
    if (digits > 0 && digits < token.size())
      std::from_chars(token.data() + digits, token.data() + token.size(), power);
    else
      digits = token.size();
    std::string symbol(token.substr(0, digits));
    if (symbol == "A") symbol = "Angstrom";  // H5MD's SI module reads "A" as ampere
    add_power(powers, std::move(symbol), sign * power);
  }
}

UnitPowers parse_unit(std::string_view unit) {
  UnitPowers powers;
  const std::size_t slash = unit.find('/');
  add_factors(powers, unit.substr(0, slash), 1);
  if (slash != std::string_view::npos) add_factors(powers, unit.substr(slash + 1), -1);
  return powers;
}

std::string format_unit(const UnitPowers& powers) {
  std::string out;
  for (const auto& [symbol, power] : powers) {
    if (power == 0) continue;
    if (!out.empty()) out += ' ';
    out += symbol;
    if (power != 1) out += std::to_string(power);
  }
  return out;
}

}  // namespace

std::string h5md_unit(std::string_view unit) {
  return format_unit(parse_unit(unit));
}

std::string h5md_quotient_unit(std::string_view numerator, std::string_view denominator) {
  if (numerator.empty() || denominator.empty()) return {};
  UnitPowers powers = parse_unit(numerator);
  for (const auto& [symbol, power] : parse_unit(denominator)) add_power(powers, symbol, -power);
  return format_unit(powers);
}

}  // namespace novamd::io
