#include "novamd/io/ls1_phase_space.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "novamd/core/error.hpp"

namespace novamd::io {
namespace {

/// Reads whitespace-separated tokens, counting lines for messages.
class Tokens {
 public:
  explicit Tokens(const std::filesystem::path& file) : file_(file), in_(file) {
    if (!in_)
      throw core::InputError(fmt::format(
          "{}: cannot open the phase-space file; expected a readable file", file.string()));
  }
  bool next(std::string& token) {
    if (!pending_.empty()) {
      token = std::move(pending_);
      pending_.clear();
      return true;
    }
    while (!(line_in_ >> token)) {
      std::string line;
      if (!std::getline(in_, line)) return false;
      ++line_;
      line_in_.clear();
      line_in_.str(line);
    }
    return true;
  }
  /// The next call of next() gives `token` again.
  void put_back(std::string token) { pending_ = std::move(token); }
  [[noreturn]] void fail(const std::string& problem, const std::string& expected) const {
    throw core::InputError(
        fmt::format("{}:{}: {}; expected {}", file_.string(), line_, problem, expected));
  }
  double number(const std::string& what) {
    std::string token;
    if (!next(token)) fail(fmt::format("the file ends before {}", what), what);
    std::size_t used = 0;
    double value = 0.0;
    try {
      value = std::stod(token, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != token.size() || !std::isfinite(value))
      fail(fmt::format("'{}' is not a number", token), what);
    return value;
  }

 private:
  std::filesystem::path file_;
  std::ifstream in_;
  std::istringstream line_in_;
  std::string pending_;
  int line_ = 0;
};

}  // namespace

std::vector<Ls1Molecule> read_ls1_phase_space(const std::filesystem::path& file) {
  Tokens tokens(file);
  std::string token;
  while (tokens.next(token) && token != "NumberOfMolecules") {
  }
  if (token != "NumberOfMolecules")
    tokens.fail("no 'NumberOfMolecules N'", "an ls1-mardyn phase-space file");
  const double count = tokens.number("the number of molecules");
  if (!(count >= 1.0) || count != std::floor(count) || count > 2e9)
    tokens.fail(fmt::format("{} molecules", count), "a whole number of molecules of 1 or more");
  std::string format = "ICRVQD", first;
  if (tokens.next(first) && first == "MoleculeFormat") {
    if (!tokens.next(format) || (format != "ICRVQD" && format != "ICRV" && format != "IRV"))
      tokens.fail(fmt::format("MoleculeFormat {}", format), "ICRVQD, ICRV or IRV");
  } else {
    tokens.put_back(first);
  }
  std::vector<Ls1Molecule> molecules;
  molecules.reserve(static_cast<std::size_t>(count));
  for (std::int64_t n = 0; n < static_cast<std::int64_t>(count); ++n) {
    molecules.push_back({});
    Ls1Molecule& m = molecules.back();
    const double id = tokens.number("a molecule's id");
    if (id != std::floor(id) || std::abs(id) > 9e15)
      tokens.fail(fmt::format("{} is not an id", id), "a whole number");
    m.id = static_cast<std::int64_t>(id);
    const std::string where = fmt::format("molecule {}", m.id);
    if (format != "IRV") {
      const double cid = tokens.number(where + "'s component id");
      if (cid < 1 || cid != std::floor(cid) || cid > 1e6)
        tokens.fail(fmt::format("component id {}", cid), "a component id from 1");
      m.component = static_cast<int>(cid) - 1;
    }
    m.position = {tokens.number(where + "'s x"), tokens.number(where + "'s y"),
                  tokens.number(where + "'s z")};
    m.velocity = {tokens.number(where + "'s vx"), tokens.number(where + "'s vy"),
                  tokens.number(where + "'s vz")};
    if (format == "ICRVQD") {
      const core::Quaternion<double> q{
          tokens.number(where + "'s qw"), tokens.number(where + "'s qx"),
          tokens.number(where + "'s qy"), tokens.number(where + "'s qz")};
      if (!(core::norm_squared(q) > 0.0))
        tokens.fail(fmt::format("{}'s orientation is zero", where), "a quaternion");
      m.orientation = core::normalized(q);
      m.angular_momentum = {tokens.number(where + "'s Dx"), tokens.number(where + "'s Dy"),
                            tokens.number(where + "'s Dz")};
    }
  }
  return molecules;
}

BodyState to_body_frame(const Ls1Molecule& molecule, const core::ResolvedComponent& component) {
  BodyState state;
  state.centre = molecule.position + core::rotate(molecule.orientation, component.shape.centre);
  state.orientation = molecule.orientation * component.shape.axes;
  state.angular_momentum = core::rotate_back(state.orientation, molecule.angular_momentum);
  if (component.shape.rotational_freedom < 3) state.angular_momentum.x = 0.0;
  if (component.shape.rotational_freedom == 0) state.angular_momentum = {};
  return state;
}

}  // namespace novamd::io
