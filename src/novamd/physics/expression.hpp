#pragma once
/// @file expression.hpp
/// Formulas of one variable r and named parameters, as `custom_pair` takes them (the model is
/// OpenMM's CustomNonbondedForce): parsed once into a tree, differentiated symbolically, and
/// run as a small stack program on the host or written out as CUDA source for the device.
///
/// Grammar (usual precedence; ^ binds tighter than unary minus and to the right):
///
///     formula    := expression (';' name '=' expression)*    intermediate values, OpenMM-style:
///                                                            each may use those after it
///     expression := term (('+' | '-') term)*
///     term       := unary (('*' | '/') unary)*
///     unary      := ('-' | '+') unary | power
///     power      := primary ('^' unary)?
///     primary    := number | name | name '(' expression (',' expression)* ')' | '(' expression ')'
///
/// Functions: exp log sqrt sin cos tan abs step erf erfc tanh cosh sinh (one argument), min max
/// pow (two). step(x) = 0 for x < 0, else 1 (OpenMM's).

#include <array>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace novamd::physics {

/// A formula that does not read: where (0-based character of the text) and what.
class ExpressionError : public std::runtime_error {
 public:
  ExpressionError(std::size_t position, const std::string& message, std::string unknown = {})
      : std::runtime_error(message), position_(position), unknown_(std::move(unknown)) {}
  std::size_t position() const { return position_; }
  /// The unknown variable's name, where that is the fault (the reader suggests the nearest).
  const std::string& unknown_name() const { return unknown_; }

 private:
  std::size_t position_;
  std::string unknown_;
};

enum class Op {
  Number,
  Variable,  // leaves
  Add,
  Subtract,
  Multiply,
  Divide,
  Power,  // binary
  Min,
  Max,
  Negate,
  Exp,
  Log,
  Sqrt,
  Sin,
  Cos,
  Tan,
  Abs,
  Step,
  Erf,
  Erfc,
  Tanh,
  Cosh,
  Sinh,  // unary
};

struct ExpressionNode;
using Expression = std::shared_ptr<const ExpressionNode>;

/// A node of the tree; subtrees are shared (an intermediate value used twice is one subtree).
struct ExpressionNode {
  Op op;
  double value = 0.0;  ///< Number
  int variable = 0;    ///< Variable: 0 is r, k > 0 the parameter names[k - 1]
  Expression a, b;     ///< operands
};

/// Parses `text`; names other than `r` must be among `parameters` (their order numbers the
/// variables 1, 2, ...).
/// @throws ExpressionError with the position of the fault: a character that does not belong, a
/// missing operand or parenthesis, an unknown function or variable (with the nearest name), a
/// wrong number of arguments.
Expression parse_expression(const std::string& text, const std::vector<std::string>& parameters);

/// d(e)/dr, simplified (constants folded, zeros and ones dropped).
Expression derivative(const Expression& e);

/// Whether e depends on r.
bool depends_on_r(const Expression& e);

/// The expression as C++/CUDA source over `r` and `p[k]` (parameter k at p[k - 1]), in the
/// arithmetic type `real` ("float" or "double"): CUDA's overloaded math functions, constants
/// cast to it; a power with a constant integer exponent up to 32 as `integer_power(x, n)`,
/// products by squaring (forces/custom_pair_kernel.cuh defines it), as the stack program
/// computes it.
std::string to_source(const Expression& e, const std::string& real);

/// A tree compiled to postfix for a stack machine: built once, run per pair.
class ExpressionProgram {
 public:
  static constexpr int kMaxDepth = 64;
  explicit ExpressionProgram(const Expression& e);

  /// The value at r with parameters p (p[k - 1] for variable k).
  template <class T>
  T operator()(T r, const T* p) const;

 private:
  struct Instruction {
    Op op;
    double value;
    int variable;
  };
  std::vector<Instruction> code_;
};

/// Every name a formula may call, for messages.
const std::vector<std::string>& expression_functions();

}  // namespace novamd::physics
