// The formula reader of custom_pair (physics/expression.hpp): values, precedence, intermediate
// values, the symbolic derivative of every function against central differences, the errors
// with their positions, and the CUDA source.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "novamd/physics/expression.hpp"

namespace {

using novamd::physics::derivative;
using novamd::physics::ExpressionError;
using novamd::physics::ExpressionProgram;
using novamd::physics::parse_expression;
constexpr double kEps = std::numeric_limits<double>::epsilon();

double value_of(const std::string& text, double r, const std::vector<double>& p = {},
                const std::vector<std::string>& names = {}) {
  return ExpressionProgram(parse_expression(text, names))(r, p.data());
}

TEST(Expression, LennardJonesFormulaMatchesItsValue) {
  const std::vector<std::string> names{"eps", "sigma"};
  const std::vector<double> p{0.7, 1.1};
  for (const double r : {0.9, 1.2347, 2.0, 3.1}) {
    const double x = p[1] / r, x6 = x * x * x * x * x * x;
    const double expected = 4 * p[0] * (x6 * x6 - x6);
    // pow against products: a few roundings each way.
    EXPECT_NEAR(value_of("4*eps*((sigma/r)^12-(sigma/r)^6)", r, p, names), expected,
                16 * kEps * 4 * p[0] * (x6 * x6 + x6));
    EXPECT_NEAR(value_of("4*eps*(x^12 - x^6); x = sigma/r", r, p, names), expected,
                16 * kEps * 4 * p[0] * (x6 * x6 + x6));
  }
}

TEST(Expression, PrecedenceAndAssociativity) {
  EXPECT_EQ(value_of("-2^2", 0), -4.0);
  EXPECT_EQ(value_of("2^3^2", 0), 512.0);
  EXPECT_EQ(value_of("1 - 2 - 3", 0), -4.0);
  EXPECT_EQ(value_of("8/2/2", 0), 2.0);
  EXPECT_EQ(value_of("2*3+4*r", 0.5), 8.0);
  EXPECT_EQ(value_of("2*-r", 3), -6.0);
  EXPECT_EQ(value_of("(1+r)*(2-r)", 1.5), 1.25);
  EXPECT_EQ(value_of("1.5e1 + .5", 0), 15.5);
  EXPECT_EQ(value_of("a; a = b*2; b = r + 1", 2), 6.0);  // each may use those after it
}

TEST(Expression, DerivativeOfEveryFunctionMatchesCentralDifferences) {
  // Each function of u = 0.6 r + 0.2 (inside every domain for r in [0.5, 1.5]), and the
  // binary ones. Central differences with h = 1e-5: truncation h^2 |f'''| / 6 and rounding
  // eps |f| / h, both under 1e-9 for these functions of order 1 (|f'''| < 50 here); bound
  // 1e-8 of the larger of |f|, |f'| and 1. A missing chain factor (0.6) or sign is off by
  // tenths.
  const std::vector<std::string> formulas{
      "exp(0.6*r+0.2)",
      "log(0.6*r+0.2)",
      "sqrt(0.6*r+0.2)",
      "sin(0.6*r+0.2)",
      "cos(0.6*r+0.2)",
      "tan(0.6*r+0.2)",
      "abs(0.6*r-0.5)",
      "step(0.6*r+0.2)*r",
      "erf(0.6*r+0.2)",
      "erfc(0.6*r+0.2)",
      "tanh(0.6*r+0.2)",
      "cosh(0.6*r+0.2)",
      "sinh(0.6*r+0.2)",
      "min(r, 2-r^2)",
      "max(r, 2-r^2)",
      "pow(0.6*r+0.2, 1.5)",
      "r^r",
      "(0.6*r+0.2)^-3",
      "1/(1+r^2)",
      "-r*exp(-r)/r^2",
  };
  for (const auto& text : formulas) {
    const auto e = parse_expression(text, {});
    const ExpressionProgram program(e), slope(derivative(e));
    const auto f = [&](double r) { return program(r, static_cast<const double*>(nullptr)); };
    for (const double r : {0.55, 0.8, 1.13, 1.45}) {
      const double h = 1e-5;
      const double numeric = (f(r + h) - f(r - h)) / (2 * h);
      const double analytic = slope(r, static_cast<const double*>(nullptr));
      const double scale = std::max({1.0, std::abs(f(r)), std::abs(analytic)});
      EXPECT_NEAR(analytic, numeric, 1e-8 * scale) << text << " at r = " << r;
    }
  }
}

TEST(Expression, ParametersAreConstantsOfTheDerivative) {
  const auto e = parse_expression("a*r^2 + b*exp(-r/c)", {"a", "b", "c"});
  const std::vector<double> p{1.5, -2.0, 0.7};
  const double r = 1.3;
  const double expected = 2 * p[0] * r - p[1] / p[2] * std::exp(-r / p[2]);
  EXPECT_NEAR(ExpressionProgram(derivative(e))(r, p.data()), expected, 16 * kEps * 5);
  EXPECT_FALSE(novamd::physics::depends_on_r(derivative(parse_expression("a*b", {"a", "b"}))));
}

TEST(Expression, FloatAndDoubleProgramsAgreeToFloatRounding) {
  const auto e = parse_expression("4*(r^-12 - r^-6)", {});
  const ExpressionProgram f(e);
  for (const float r : {0.95f, 1.1f, 2.0f}) {
    const double exact = f(double(r), static_cast<const double*>(nullptr));
    // pow and two products in FP32, on terms up to 4 r^-12: 8 float eps of their magnitude.
    EXPECT_NEAR(
        f(r, static_cast<const float*>(nullptr)), exact,
        8 * std::numeric_limits<float>::epsilon() * 4 * (std::pow(r, -12.0) + std::pow(r, -6.0)));
  }
}

struct Fault {
  const char* text;
  std::size_t position;
  const char* message;
};

TEST(Expression, ErrorsNameThePositionAndTheFault) {
  const Fault faults[] = {
      {"4*eps*((sigam/r)^12)", 8, "unknown variable 'sigam'"},
      {"exp(r", 5, "expected ')' or ',' in the call of exp"},
      {"(1 + r", 0, "this parenthesis is not closed"},
      {"(1 + r $ 2)", 7, "'$' where an operator or ')' is expected"},
      {"2*", 2, "the formula ends where an operand is expected"},
      {"foo(r)", 0, "unknown function 'foo'"},
      {"min(r)", 0, "min takes 2 arguments, not 1"},
      {"r $ 2", 2, "unexpected '$' after a complete formula"},
      {"r + ", 4, "the formula ends where an operand is expected"},
      {"x; 2 = r", 3, "'2' cannot name an intermediate value"},
      {"", 0, "an empty formula"},
  };
  for (const auto& f : faults) {
    try {
      parse_expression(f.text, {"eps", "sigma"});
      ADD_FAILURE() << f.text << ": expected an ExpressionError";
    } catch (const ExpressionError& e) {
      EXPECT_EQ(e.position(), f.position) << f.text;
      EXPECT_EQ(std::string(e.what()), f.message) << f.text;
    }
  }
  try {
    parse_expression("sigam*r", {"eps", "sigma"});
  } catch (const ExpressionError& e) {
    EXPECT_EQ(e.unknown_name(), "sigam");
  }
}

TEST(Expression, SourceIsTheTreeInTheArithmeticType) {
  const auto e = parse_expression("eps*r^2 + step(r-1) + min(r, 2)", {"eps"});
  EXPECT_EQ(novamd::physics::to_source(e, "float"),
            "(((p[0]) * (integer_power(r, 2))) + ((((r) - (float(1))) < float(0) ? float(0) : "
            "float(1)))) + (fmin(r, float(2)))");
}

}  // namespace
