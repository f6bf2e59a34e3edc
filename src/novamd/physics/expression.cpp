/// @file expression.cpp
/// Parsing, differentiating, compiling and writing out formulas (expression.hpp).

#include "novamd/physics/expression.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numbers>
#include <sstream>

namespace novamd::physics {
namespace {

// --- building nodes, with the simplifications that keep derivatives small --------------------

Expression leaf(double v) {
  return std::make_shared<const ExpressionNode>(ExpressionNode{Op::Number, v, 0, {}, {}});
}

bool is_number(const Expression& e, double v) {
  return e->op == Op::Number && e->value == v;
}

double apply(Op op, double x, double y);

Expression node(Op op, Expression a, Expression b = nullptr) {
  const bool constant = a->op == Op::Number && (!b || b->op == Op::Number);
  if (constant) return leaf(apply(op, a->value, b ? b->value : 0.0));
  switch (op) {
    case Op::Add:
      if (is_number(a, 0)) return b;
      if (is_number(b, 0)) return a;
      break;
    case Op::Subtract:
      if (is_number(b, 0)) return a;
      if (is_number(a, 0)) return node(Op::Negate, b);
      break;
    case Op::Multiply:
      if (is_number(a, 0) || is_number(b, 0)) return leaf(0.0);
      if (is_number(a, 1)) return b;
      if (is_number(b, 1)) return a;
      break;
    case Op::Divide:
      if (is_number(a, 0)) return leaf(0.0);
      if (is_number(b, 1)) return a;
      break;
    case Op::Power:
      if (is_number(b, 1)) return a;
      if (is_number(b, 0)) return leaf(1.0);
      break;
    case Op::Negate:
      if (a->op == Op::Negate) return a->a;
      break;
    default:
      break;
  }
  return std::make_shared<const ExpressionNode>(
      ExpressionNode{op, 0.0, 0, std::move(a), std::move(b)});
}

/// An operation on the stack program's values, or on constants (folding).
template <class T>
T run_unary(Op op, T x) {
  switch (op) {
    case Op::Negate:
      return -x;
    case Op::Exp:
      return std::exp(x);
    case Op::Log:
      return std::log(x);
    case Op::Sqrt:
      return std::sqrt(x);
    case Op::Sin:
      return std::sin(x);
    case Op::Cos:
      return std::cos(x);
    case Op::Tan:
      return std::tan(x);
    case Op::Abs:
      return std::abs(x);
    case Op::Step:
      return x < T(0) ? T(0) : T(1);
    case Op::Erf:
      return std::erf(x);
    case Op::Erfc:
      return std::erfc(x);
    case Op::Tanh:
      return std::tanh(x);
    case Op::Cosh:
      return std::cosh(x);
    default:
      return std::sinh(x);
  }
}

/// The largest |n| for which x^n with a constant integer n runs as products (integer_power).
constexpr double kLargestIntegerPower = 32;

/// Whether y is an integer exponent that runs as products: OpenMM's Lepton does so too, which is
/// faster than pow and at least as exact (at most log2(n) + popcount(n) roundings).
bool integer_exponent(double y) {
  return y == std::floor(y) && std::abs(y) <= kLargestIntegerPower;
}

/// x^n by squaring, as the device's integer_power (forces/custom_pair_kernel.cuh): the same
/// products in the same order, so both round alike.
template <class T>
T integer_power(T x, int n) {
  T result = 1;
  for (unsigned m = n < 0 ? -n : n; m != 0; m >>= 1) {
    if (m & 1u) result *= x;
    x *= x;
  }
  return n < 0 ? T(1) / result : result;
}

template <class T>
T run_binary(Op op, T x, T y) {
  switch (op) {
    case Op::Add:
      return x + y;
    case Op::Subtract:
      return x - y;
    case Op::Multiply:
      return x * y;
    case Op::Divide:
      return x / y;
    case Op::Power:
      return std::pow(x, y);
    case Op::Min:
      return std::fmin(x, y);
    default:
      return std::fmax(x, y);
  }
}

bool is_binary(Op op) {
  return op == Op::Add || op == Op::Subtract || op == Op::Multiply || op == Op::Divide ||
         op == Op::Power || op == Op::Min || op == Op::Max;
}

double apply(Op op, double x, double y) {
  return is_binary(op) ? run_binary(op, x, y) : run_unary(op, x);
}

/// The functions by name, with their argument counts.
struct Function {
  const char* name;
  Op op;
  int arguments;
};
constexpr Function kFunctions[] = {
    {"exp", Op::Exp, 1},   {"log", Op::Log, 1},   {"sqrt", Op::Sqrt, 1}, {"sin", Op::Sin, 1},
    {"cos", Op::Cos, 1},   {"tan", Op::Tan, 1},   {"abs", Op::Abs, 1},   {"step", Op::Step, 1},
    {"erf", Op::Erf, 1},   {"erfc", Op::Erfc, 1}, {"tanh", Op::Tanh, 1}, {"cosh", Op::Cosh, 1},
    {"sinh", Op::Sinh, 1}, {"min", Op::Min, 2},   {"max", Op::Max, 2},   {"pow", Op::Power, 2},
};

// --- the parser: recursive descent over one part of the text (a definition or the formula) ----

class Parser {
 public:
  Parser(const std::string& text, std::size_t begin, std::size_t end,
         const std::vector<std::string>& parameters,
         const std::map<std::string, Expression>& definitions)
      : text_(text), at_(begin), end_(end), parameters_(parameters), definitions_(definitions) {}

  Expression whole() {
    skip_space();
    if (at_ == end_) throw ExpressionError(at_, "an empty formula");
    Expression e = expression();
    skip_space();
    if (at_ != end_)
      throw ExpressionError(
          at_, std::string("unexpected '") + text_[at_] + "' after a complete formula");
    return e;
  }

 private:
  void skip_space() {
    while (at_ < end_ && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  bool take(char c) {
    skip_space();
    if (at_ < end_ && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }

  Expression expression() {
    Expression e = term();
    for (;;) {
      if (take('+'))
        e = node(Op::Add, e, term());
      else if (take('-'))
        e = node(Op::Subtract, e, term());
      else
        return e;
    }
  }
  Expression term() {
    Expression e = unary();
    for (;;) {
      if (take('*'))
        e = node(Op::Multiply, e, unary());
      else if (take('/'))
        e = node(Op::Divide, e, unary());
      else
        return e;
    }
  }
  Expression unary() {
    if (take('-')) return node(Op::Negate, unary());
    if (take('+')) return unary();
    return power();
  }
  Expression power() {
    Expression base = primary();
    if (take('^')) return node(Op::Power, base, unary());
    return base;
  }

  Expression primary() {
    skip_space();
    if (at_ == end_) throw ExpressionError(at_, "the formula ends where an operand is expected");
    const char c = text_[at_];
    if (c == '(') {
      const std::size_t open = at_++;
      Expression e = expression();
      if (take(')')) return e;
      if (at_ < end_)  // something else where the parenthesis could close: that is the fault
        throw ExpressionError(
            at_, std::string("'") + text_[at_] + "' where an operator or ')' is expected");
      throw ExpressionError(open, "this parenthesis is not closed");
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name();
    throw ExpressionError(at_, std::string("'") + c + "' where an operand is expected");
  }

  Expression number() {
    const std::size_t start = at_;
    const char* first = text_.c_str() + at_;
    char* last = nullptr;
    const double v = std::strtod(first, &last);
    if (last == first) throw ExpressionError(start, "a number does not read");
    at_ += static_cast<std::size_t>(last - first);
    if (at_ > end_) throw ExpressionError(start, "a number does not read");
    return leaf(v);
  }

  Expression name() {
    const std::size_t start = at_;
    while (at_ < end_ &&
           (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_'))
      ++at_;
    const std::string word = text_.substr(start, at_ - start);
    skip_space();
    if (at_ < end_ && text_[at_] == '(') return call(word, start);
    if (word == "r") return variable(0);
    for (std::size_t k = 0; k < parameters_.size(); ++k)
      if (parameters_[k] == word) return variable(static_cast<int>(k) + 1);
    if (const auto d = definitions_.find(word); d != definitions_.end()) return d->second;
    throw ExpressionError(start, "unknown variable '" + word + "'", word);
  }

  Expression variable(int k) {
    return std::make_shared<const ExpressionNode>(ExpressionNode{Op::Variable, 0.0, k, {}, {}});
  }

  Expression call(const std::string& word, std::size_t start) {
    const Function* f = nullptr;
    for (const auto& candidate : kFunctions)
      if (word == candidate.name) f = &candidate;
    if (!f) throw ExpressionError(start, "unknown function '" + word + "'", word);
    ++at_;  // '('
    std::vector<Expression> args{expression()};
    while (take(',')) args.push_back(expression());
    if (!take(')')) throw ExpressionError(at_, "expected ')' or ',' in the call of " + word);
    if (static_cast<int>(args.size()) != f->arguments)
      throw ExpressionError(start, word + " takes " + std::to_string(f->arguments) +
                                       (f->arguments == 1 ? " argument" : " arguments") + ", not " +
                                       std::to_string(args.size()));
    return f->arguments == 1 ? node(f->op, args[0]) : node(f->op, args[0], args[1]);
  }

  const std::string& text_;
  std::size_t at_, end_;
  const std::vector<std::string>& parameters_;
  const std::map<std::string, Expression>& definitions_;
};

/// The parts of the formula between semicolons: [begin, end) each.
std::vector<std::pair<std::size_t, std::size_t>> parts_of(const std::string& text) {
  std::vector<std::pair<std::size_t, std::size_t>> parts;
  std::size_t begin = 0;
  for (std::size_t k = 0; k <= text.size(); ++k) {
    if (k == text.size() || text[k] == ';') {
      parts.emplace_back(begin, k);
      begin = k + 1;
    }
  }
  return parts;
}

}  // namespace

Expression parse_expression(const std::string& text, const std::vector<std::string>& parameters) {
  const auto parts = parts_of(text);
  std::map<std::string, Expression> definitions;
  for (std::size_t k = parts.size(); k-- > 1;) {  // the last definition first
    const auto [begin, end] = parts[k];
    const auto equals = text.find('=', begin);
    if (equals == std::string::npos || equals >= end)
      throw ExpressionError(begin, "a part after ';' must define a value: 'name = expression'");
    std::size_t n = begin;
    while (n < equals && std::isspace(static_cast<unsigned char>(text[n]))) ++n;
    std::size_t n_end = equals;
    while (n_end > n && std::isspace(static_cast<unsigned char>(text[n_end - 1]))) --n_end;
    const std::string name = text.substr(n, n_end - n);
    const bool word =
        !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
    if (!word || name == "r")
      throw ExpressionError(n, "'" + name + "' cannot name an intermediate value");
    definitions[name] = Parser(text, equals + 1, end, parameters, definitions).whole();
  }
  return Parser(text, parts[0].first, parts[0].second, parameters, definitions).whole();
}

bool depends_on_r(const Expression& e) {
  if (e->op == Op::Variable) return e->variable == 0;
  return (e->a && depends_on_r(e->a)) || (e->b && depends_on_r(e->b));
}

namespace {

Expression mul(Expression x, Expression y) {
  return node(Op::Multiply, std::move(x), std::move(y));
}

/// d f(a) / da for the functions of one argument.
Expression outer_derivative(const Expression& e) {
  const Expression& a = e->a;
  switch (e->op) {
    case Op::Negate:
      return leaf(-1.0);
    case Op::Exp:
      return e;
    case Op::Log:
      return node(Op::Divide, leaf(1.0), a);
    case Op::Sqrt:
      return node(Op::Divide, leaf(0.5), e);
    case Op::Sin:
      return node(Op::Cos, a);
    case Op::Cos:
      return node(Op::Negate, node(Op::Sin, a));
    case Op::Tan:
      return node(Op::Add, leaf(1.0), mul(e, e));
    case Op::Abs:
      return node(Op::Subtract, mul(leaf(2.0), node(Op::Step, a)), leaf(1.0));
    case Op::Step:
      return leaf(0.0);
    case Op::Erf:
    case Op::Erfc: {
      const double c = (e->op == Op::Erf ? 2.0 : -2.0) / std::sqrt(std::numbers::pi);
      return mul(leaf(c), node(Op::Exp, node(Op::Negate, mul(a, a))));
    }
    case Op::Tanh:
      return node(Op::Subtract, leaf(1.0), mul(e, e));
    case Op::Cosh:
      return node(Op::Sinh, a);
    case Op::Sinh:
      return node(Op::Cosh, a);
    default:
      return leaf(0.0);
  }
}

/// s a' + (1 - s) b', the derivative of a choice between a and b (min, max).
Expression chosen(const Expression& s, const Expression& da, const Expression& db) {
  return node(Op::Add, mul(s, da), mul(node(Op::Subtract, leaf(1.0), s), db));
}

}  // namespace

Expression derivative(const Expression& e) {
  if (!depends_on_r(e)) return leaf(0.0);
  if (e->op == Op::Variable) return leaf(1.0);
  const Expression& a = e->a;
  const Expression& b = e->b;
  const Expression da = derivative(a);
  if (!b) return mul(outer_derivative(e), da);
  const Expression db = derivative(b);
  switch (e->op) {
    case Op::Add:
      return node(Op::Add, da, db);
    case Op::Subtract:
      return node(Op::Subtract, da, db);
    case Op::Multiply:
      return node(Op::Add, mul(da, b), mul(a, db));
    case Op::Divide:  // (a' b - a b') / b^2
      return node(Op::Divide, node(Op::Subtract, mul(da, b), mul(a, db)), mul(b, b));
    case Op::Power:
      if (!depends_on_r(b))  // b a^(b-1) a'
        return mul(mul(b, node(Op::Power, a, node(Op::Subtract, b, leaf(1.0)))), da);
      // a^b (b' log a + b a' / a)
      return mul(e, node(Op::Add, mul(db, node(Op::Log, a)), node(Op::Divide, mul(b, da), a)));
    case Op::Min:
      return chosen(node(Op::Step, node(Op::Subtract, b, a)), da, db);
    case Op::Max:
      return chosen(node(Op::Step, node(Op::Subtract, a, b)), da, db);
    default:
      return leaf(0.0);
  }
}

// --- CUDA source -----------------------------------------------------------------------------

namespace {

const char* source_name(Op op) {
  switch (op) {
    case Op::Exp:
      return "exp";
    case Op::Log:
      return "log";
    case Op::Sqrt:
      return "sqrt";
    case Op::Sin:
      return "sin";
    case Op::Cos:
      return "cos";
    case Op::Tan:
      return "tan";
    case Op::Abs:
      return "fabs";
    case Op::Erf:
      return "erf";
    case Op::Erfc:
      return "erfc";
    case Op::Tanh:
      return "tanh";
    case Op::Cosh:
      return "cosh";
    case Op::Sinh:
      return "sinh";
    case Op::Min:
      return "fmin";
    case Op::Max:
      return "fmax";
    case Op::Power:
      return "pow";
    default:
      return "";
  }
}

void write(std::ostringstream& out, const Expression& e, const std::string& real) {
  const auto operand = [&](const Expression& x) {
    out << '(';
    write(out, x, real);
    out << ')';
  };
  switch (e->op) {
    case Op::Number: {
      if (!std::isfinite(e->value)) {  // a constant that folded to inf or NaN (1/0): no literal
        const char* numerator = std::isnan(e->value) ? "0" : e->value > 0 ? "1" : "-1";
        out << '(' << real << '(' << numerator << ") / " << real << "(0))";
        return;
      }
      std::ostringstream v;
      v.precision(17);
      v << e->value;
      out << real << '(' << v.str() << ')';
      return;
    }
    case Op::Variable:
      if (e->variable == 0)
        out << 'r';
      else
        out << "p[" << e->variable - 1 << ']';
      return;
    case Op::Add:
    case Op::Subtract:
    case Op::Multiply:
    case Op::Divide: {
      const char sign = e->op == Op::Add        ? '+'
                        : e->op == Op::Subtract ? '-'
                        : e->op == Op::Multiply ? '*'
                                                : '/';
      operand(e->a);
      out << ' ' << sign << ' ';
      operand(e->b);
      return;
    }
    case Op::Negate:
      out << '-';
      operand(e->a);
      return;
    case Op::Step:
      out << '(';
      operand(e->a);
      out << " < " << real << "(0) ? " << real << "(0) : " << real << "(1))";
      return;
    case Op::Power:
      if (e->b->op == Op::Number && integer_exponent(e->b->value)) {
        out << "integer_power(";
        write(out, e->a, real);
        out << ", " << static_cast<int>(e->b->value) << ')';
        return;
      }
      out << "pow(";
      write(out, e->a, real);
      out << ", ";
      write(out, e->b, real);
      out << ')';
      return;
    default:
      out << source_name(e->op) << '(';
      write(out, e->a, real);
      if (e->b) {
        out << ", ";
        write(out, e->b, real);
      }
      out << ')';
      return;
  }
}

}  // namespace

std::string to_source(const Expression& e, const std::string& real) {
  std::ostringstream out;
  write(out, e, real);
  return out.str();
}

// --- the stack program -----------------------------------------------------------------------

namespace {

/// The variable field of an instruction that raises the top of the stack to its value, a
/// constant integer (integer_power, as to_source writes it).
constexpr int kIntegerPower = -1;

void emit(const Expression& e, std::vector<std::pair<Op, std::pair<double, int>>>& code) {
  if (e->op == Op::Power && e->b->op == Op::Number && integer_exponent(e->b->value)) {
    emit(e->a, code);
    code.push_back({Op::Power, {e->b->value, kIntegerPower}});
    return;
  }
  if (e->a) emit(e->a, code);
  if (e->b) emit(e->b, code);
  code.push_back({e->op, {e->value, e->variable}});
}

/// The stack's greatest depth while running e.
int depth_of(const Expression& e) {
  if (!e->a) return 1;
  if (!e->b) return depth_of(e->a);
  return std::max(depth_of(e->a), 1 + depth_of(e->b));
}

}  // namespace

ExpressionProgram::ExpressionProgram(const Expression& e) {
  if (depth_of(e) > kMaxDepth)
    throw ExpressionError(0,
                          "the formula nests deeper than " + std::to_string(kMaxDepth) + " levels");
  std::vector<std::pair<Op, std::pair<double, int>>> code;
  emit(e, code);
  for (const auto& [op, v] : code) code_.push_back({op, v.first, v.second});
}

template <class T>
T ExpressionProgram::operator()(T r, const T* p) const {
  std::array<T, kMaxDepth> stack;
  int top = -1;
  for (const Instruction& in : code_) {
    if (in.op == Op::Number) {
      stack[++top] = static_cast<T>(in.value);
    } else if (in.op == Op::Variable) {
      stack[++top] = in.variable == 0 ? r : p[in.variable - 1];
    } else if (in.op == Op::Power && in.variable == kIntegerPower) {
      stack[top] = integer_power(stack[top], static_cast<int>(in.value));
    } else if (is_binary(in.op)) {
      --top;
      stack[top] = run_binary(in.op, stack[top], stack[top + 1]);
    } else {
      stack[top] = run_unary(in.op, stack[top]);
    }
  }
  return stack[0];
}

template float ExpressionProgram::operator()(float, const float*) const;
template double ExpressionProgram::operator()(double, const double*) const;

const std::vector<std::string>& expression_functions() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& f : kFunctions) n.emplace_back(f.name);
    return n;
  }();
  return names;
}

}  // namespace novamd::physics
