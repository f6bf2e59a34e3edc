/// @file custom_pair.cpp
/// Reading a custom pair formula once (custom_pair.hpp).

#include "novamd/physics/custom_pair.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <utility>

namespace novamd::physics {
namespace {

/// The operations of e written out as a tree (an intermediate value counts where it is used),
/// counted up to `limit` + 1: the stack programs and the device's source run that many. Shared
/// subtrees are counted once per node (memo), so a formula whose values double at each
/// definition costs its definitions, not 2^n.
std::size_t written_out_size(const Expression& e, std::size_t limit,
                             std::map<const ExpressionNode*, std::size_t>& memo) {
  if (!e) return 0;
  if (const auto it = memo.find(e.get()); it != memo.end()) return it->second;
  const std::size_t size = std::min(
      limit + 1, 1 + written_out_size(e->a, limit, memo) + written_out_size(e->b, limit, memo));
  memo[e.get()] = size;
  return size;
}

void check_size(const Expression& e, std::size_t limit, const char* what) {
  std::map<const ExpressionNode*, std::size_t> memo;
  if (written_out_size(e, limit, memo) > limit)
    throw ExpressionError(0, std::string(what) + " takes more than " + std::to_string(limit) +
                                 " operations written out (each intermediate value counts " +
                                 "wherever it is used)");
}

/// The most operations of V written out, and of dV/dr (the product rule multiplies them).
constexpr std::size_t kMaxEnergyOperations = 4096;
constexpr std::size_t kMaxSlopeOperations = 65536;

Expression energy_of(const std::string& text, const std::vector<std::string>& parameters) {
  Expression e = parse_expression(text, parameters);
  check_size(e, kMaxEnergyOperations, "the formula");
  if (!depends_on_r(e))
    throw ExpressionError(0, "the energy does not depend on r, so it exerts no force");
  return e;
}

bool is_leaf(const Expression& e) {
  return e->op == Op::Number || e->op == Op::Variable;
}

/// e with each largest part that does not depend on r (and is not a leaf) replaced by a variable
/// of its own, numbered on from `first_variable`; the parts go to `constants` (a part met again,
/// the same subtree, takes the same variable).
class Hoisting {
 public:
  Hoisting(int first_variable, std::vector<Expression>& constants)
      : first_(first_variable), constants_(constants) {}

  /// Each node once (memo): a shared subtree is rewritten once and stays shared.
  Expression operator()(const Expression& e) {
    if (is_leaf(e)) return e;
    if (const auto it = done_.find(e.get()); it != done_.end()) return it->second;
    Expression result = e;
    if (!has_r(e)) {
      result = variable_for(e);
    } else {
      const Expression a = e->a ? (*this)(e->a) : nullptr;
      const Expression b = e->b ? (*this)(e->b) : nullptr;
      if (a != e->a || b != e->b)
        result = std::make_shared<const ExpressionNode>(
            ExpressionNode{e->op, e->value, e->variable, a, b});
    }
    done_[e.get()] = result;
    return result;
  }

 private:
  /// depends_on_r, each node once.
  bool has_r(const Expression& e) {
    if (!e) return false;
    if (e->op == Op::Variable) return e->variable == 0;
    if (const auto it = has_r_.find(e.get()); it != has_r_.end()) return it->second;
    const bool r = has_r(e->a) || has_r(e->b);
    has_r_[e.get()] = r;
    return r;
  }

  Expression variable_for(const Expression& part) {
    auto [at, added] = index_.try_emplace(part.get(), static_cast<int>(constants_.size()));
    if (added) constants_.push_back(part);
    return std::make_shared<const ExpressionNode>(
        ExpressionNode{Op::Variable, 0.0, first_ + at->second, nullptr, nullptr});
  }

  int first_;
  std::vector<Expression>& constants_;
  std::map<const ExpressionNode*, int> index_;
  std::map<const ExpressionNode*, Expression> done_;
  std::map<const ExpressionNode*, bool> has_r_;
};

/// V and dV/dr with their parts without r hoisted into `constants`.
std::pair<Expression, Expression> hoisted(const Expression& v, int parameters,
                                          std::vector<Expression>& constants) {
  Hoisting hoist(parameters + 1, constants);
  const Expression energy = hoist(v);
  const Expression dv = derivative(v);
  check_size(dv, kMaxSlopeOperations, "its derivative");
  const Expression slope = hoist(dv);
  if (parameters + static_cast<int>(constants.size()) > kMaxCustomSlots)
    throw ExpressionError(0, "the formula has " + std::to_string(constants.size()) +
                                 " parts without r besides its parameters; at most " +
                                 std::to_string(kMaxCustomSlots - parameters) + " fit");
  return {energy, slope};
}

Expression zero() {
  return std::make_shared<const ExpressionNode>(
      ExpressionNode{Op::Number, 0.0, 0, nullptr, nullptr});
}

}  // namespace

CustomFormula::CustomFormula(std::string text_in, std::vector<std::string> parameters_in)
    : text(std::move(text_in)),
      parameters(std::move(parameters_in)),
      energy(zero()),
      derivative(zero()),
      energy_program(zero()),
      derivative_program(zero()) {
  std::tie(energy, derivative) =
      hoisted(energy_of(text, parameters), static_cast<int>(parameters.size()), constants);
  energy_program = ExpressionProgram(energy);
  derivative_program = ExpressionProgram(derivative);
}

std::vector<double> CustomFormula::slot_values(const std::vector<double>& values) const {
  std::vector<double> slots = values;
  for (const Expression& c : constants) slots.push_back(ExpressionProgram(c)(0.0, values.data()));
  return slots;
}

}  // namespace novamd::physics
