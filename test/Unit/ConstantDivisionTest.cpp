//===- ConstantDivisionTest.cpp - Which divisors get an exact helper ------===//
#include "an5d/CodeGen.h"

#include <gtest/gtest.h>

using namespace an5d;

namespace {

Expr literal(const std::string &Text, ScalarType Type) {
  Expr E;
  E.K = Expr::Literal;
  E.Text = Text;
  E.Type = Type;
  return E;
}

/// x / Divisor with x a float scalar, the division of type Type.
Expr division(const Expr &Divisor, ScalarType Type = ScalarType::Float) {
  Expr X;
  X.K = Expr::Scalar;
  X.Text = "x";
  X.Type = ScalarType::Float;
  Expr D;
  D.K = Expr::Binary;
  D.Text = "/";
  D.Type = Type;
  D.Args = {X, Divisor};
  return D;
}

TEST(ConstantDivision, IntegerDivisorGetsHelper) {
  std::optional<ConstantDivisor> D =
      constantDivisor(division(literal("118", ScalarType::Int)));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Helper, "an5d_div_118");
  EXPECT_EQ(D->Value, 118.0f);
  EXPECT_EQ(D->Reciprocal, 1.0f / 118.0f);
}

TEST(ConstantDivision, NegatedFloatLiteral) {
  Expr Neg;
  Neg.K = Expr::Unary;
  Neg.Text = "-";
  Neg.Type = ScalarType::Float;
  Neg.Args = {literal("2.5f", ScalarType::Float)};
  std::optional<ConstantDivisor> D = constantDivisor(division(Neg));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Helper, "an5d_div_m2p5");
}

// RN(x * RN(1/c)) corrected once is not the IEEE quotient for every x here.
TEST(ConstantDivision, DivisorWithoutProofDivides) {
  EXPECT_FALSE(constantDivisor(division(literal("123.456f", ScalarType::Float))));
}

TEST(ConstantDivision, OnlyFloatDivisionsByConstantsInRange) {
  EXPECT_FALSE(constantDivisor(
      division(literal("118", ScalarType::Int), ScalarType::Double)));
  EXPECT_FALSE(constantDivisor(division(literal("0", ScalarType::Int))));
  EXPECT_FALSE(constantDivisor(division(literal("2097152", ScalarType::Int))));
  Expr N;
  N.K = Expr::Scalar;
  N.Text = "n";
  N.Type = ScalarType::Float;
  EXPECT_FALSE(constantDivisor(division(N)));
}

TEST(ConstantDivision, HelpersCollectedOnceInOrder) {
  Expr Sum;
  Sum.K = Expr::Binary;
  Sum.Text = "+";
  Sum.Type = ScalarType::Float;
  Sum.Args = {division(literal("7", ScalarType::Int)),
              division(literal("3", ScalarType::Int))};
  Expr Outer = division(literal("7.0f", ScalarType::Float));
  Outer.Args[0] = Sum;
  std::vector<ConstantDivisor> Found;
  StencilAnalysis A;
  collectConstantDivisors(A, Outer, Found);
  ASSERT_EQ(Found.size(), 2u);
  EXPECT_EQ(Found[0].Helper, "an5d_div_7");
  EXPECT_EQ(Found[1].Helper, "an5d_div_3");
}

TEST(ConstantDivision, NoHelpersUnderFastMath) {
  // --fast-math divides approximately (nvcc --use_fast_math): a helper
  // would only cost.
  StencilAnalysis A;
  A.FastMath = true;
  Expr D = division(literal("7", ScalarType::Int));
  EXPECT_FALSE(helperDivisor(A, D));
  std::vector<ConstantDivisor> Found;
  collectConstantDivisors(A, D, Found);
  EXPECT_TRUE(Found.empty());
}

} // namespace
