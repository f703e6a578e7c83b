//===- ConstantDivisionTest.cpp - Which divisors get an exact helper ------===//
#include "an5d/CodeGen.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

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
  std::optional<ExactHelper> D =
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
  std::optional<ExactHelper> D = constantDivisor(division(Neg));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Helper, "an5d_div_m2p5");
}

// RN(x * RN(1/c)) corrected once is not the IEEE quotient for every x here.
TEST(ConstantDivision, DivisorWithoutProofDivides) {
  EXPECT_FALSE(constantDivisor(division(literal("123.456f", ScalarType::Float))));
}

TEST(ConstantDivision, OnlyDivisionsByConstantsInRange) {
  EXPECT_FALSE(constantDivisor(
      division(literal("118", ScalarType::Int), ScalarType::LongDouble)));
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
  std::vector<ExactHelper> Found;
  StencilAnalysis A;
  collectExactHelpers(A, Outer, Found);
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
  EXPECT_FALSE(exactHelper(A, D));
  std::vector<ExactHelper> Found;
  collectExactHelpers(A, D, Found);
  EXPECT_TRUE(Found.empty());
}

TEST(ConstantDivision, DoubleDivisorGetsHelper) {
  std::optional<ExactHelper> D = constantDivisor(
      division(literal("118", ScalarType::Int), ScalarType::Double));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Type, ElemType::Double);
  EXPECT_EQ(D->Helper, "an5d_ddiv_118");
  EXPECT_EQ(D->Value, 118.0);
  EXPECT_EQ(D->Reciprocal, 1.0 / 118.0);
  std::optional<ExactHelper> Three = constantDivisor(
      division(literal("3.0", ScalarType::Double), ScalarType::Double));
  ASSERT_TRUE(Three);
  EXPECT_EQ(Three->Helper, "an5d_ddiv_3");
  // A float literal in a double division divides by its float value.
  std::optional<ExactHelper> Tenth = constantDivisor(
      division(literal("0.5f", ScalarType::Float), ScalarType::Double));
  ASSERT_TRUE(Tenth);
  EXPECT_EQ(Tenth->Helper, "an5d_ddiv_0p5");
}

// RN(1/49) and RN(1/75) are off by more than 2^-54 relatively, so RN(x * y)
// need not be faithful and Markstein's theorem does not apply; 2^101 is
// outside the divisor range the proof covers.
TEST(ConstantDivision, DoubleDivisorWithoutProofDivides) {
  EXPECT_FALSE(constantDivisor(
      division(literal("49", ScalarType::Int), ScalarType::Double)));
  EXPECT_FALSE(constantDivisor(
      division(literal("75.0", ScalarType::Double), ScalarType::Double)));
  EXPECT_FALSE(constantDivisor(
      division(literal("0x1p101", ScalarType::Double), ScalarType::Double)));
}

double fromBits(uint64_t Bits) {
  double D;
  std::memcpy(&D, &Bits, sizeof D);
  return D;
}

uint64_t bitsOf(double D) {
  uint64_t Bits;
  std::memcpy(&Bits, &D, sizeof Bits);
  return Bits;
}

/// The double helper's arithmetic (lib/CodeGen/DivisionHelper.cpp): the
/// sequence, and whether its range test lets it stand.
double doubleSequence(const ExactHelper &D, double X, bool &Proved) {
  double Q0 = X * D.Reciprocal;
  double Q = std::copysign(
      std::fma(std::fma(Q0, -D.Value, X), D.Reciprocal, Q0), Q0);
  double A = std::fabs(Q0);
  Proved = (A >= D.rangeLow() || X == 0.0) && A <= D.rangeHigh();
  return Q;
}

// The proof of the double sequence (Markstein's theorem, ConstantDivision.cpp)
// against IEEE division: for divisors with a helper, every dividend the
// range test accepts gives x / c bit for bit. Dividends: random ones whose
// quotients span the range and beyond, quotients just inside and outside
// it, exact quotients and their neighbours, dividends whose quotient lies
// next to a midpoint between two doubles, extreme significands, zeros,
// subnormals, the largest doubles, infinities and NaN.
TEST(ConstantDivision, DoubleSequenceIsIeeeDivision) {
  const char *Divisors[] = {"118", "53",  "3",      "7",     "100",
                            "1000", "11", "0.5",    "-2.5",  "6",
                            "1e-30", "1e30", "0x1.8p-100", "-0x1p100"};
  std::mt19937_64 Rng(20261125);
  int64_t Checked = 0;
  for (const char *Text : Divisors) {
    std::optional<ExactHelper> D = constantDivisor(
        division(literal(Text, ScalarType::Double), ScalarType::Double));
    if (!D)
      continue; // no helper: nothing to prove (some of the list have none)
    double C = D->Value;
    std::vector<double> X = {0.0, -0.0, DBL_MIN, -DBL_MIN, DBL_TRUE_MIN,
                             DBL_MAX, -DBL_MAX, INFINITY, -INFINITY, NAN};
    for (double Edge : {D->rangeLow(), D->rangeHigh()})
      for (double Q : {Edge, std::nextafter(Edge, 0.0),
                       std::nextafter(Edge, INFINITY)})
        X.push_back(Q * C);
    for (int E = -810; E <= 810; E += 7)
      for (uint64_t M : {uint64_t(0), uint64_t(1), (uint64_t(1) << 52) - 1,
                         uint64_t(1) << 51, (uint64_t(1) << 52) - 2})
        X.push_back(std::ldexp(fromBits((uint64_t(1023) << 52) | M), E) * C);
    for (int K = 1; K <= 2000; ++K) {
      double Exact = C * K;
      X.insert(X.end(), {Exact, std::nextafter(Exact, 0.0),
                         std::nextafter(Exact, INFINITY), -Exact});
    }
    for (int K = 0; K < 200000; ++K) {
      // A quotient near the midpoint of two doubles.
      double F = std::ldexp(
          fromBits((uint64_t(1023) << 52) | (Rng() >> 12)),
          int(Rng() % 200) - 100);
      double Mid = F + (std::nextafter(F, INFINITY) - F) / 2;
      double Near = Mid * C;
      X.insert(X.end(), {Near, std::nextafter(Near, 0.0),
                         std::nextafter(Near, INFINITY)});
    }
    for (int K = 0; K < 1000000; ++K) {
      // Any significand and sign, quotients in [2^-830, 2^830].
      uint64_t Exponent = uint64_t(1023 - 830 + int(Rng() % 1661));
      double Q = fromBits((Rng() & (uint64_t(1) << 63)) | (Exponent << 52) |
                          (Rng() >> 12));
      X.push_back(Q * C);
    }
    int64_t Proved = 0;
    for (double V : X) {
      bool InRange = false;
      double Q = doubleSequence(*D, V, InRange);
      if (!InRange)
        continue;
      ++Proved;
      ASSERT_EQ(bitsOf(Q), bitsOf(V / C))
          << std::hexfloat << V << " / " << C << ": " << Q << " instead of "
          << V / C;
    }
    EXPECT_GT(Proved, int64_t(X.size() * 9 / 10)) << Text;
    Checked += Proved;
  }
  EXPECT_GT(Checked, int64_t(10000000));
}

float fromBits32(uint32_t Bits) {
  float F;
  std::memcpy(&F, &Bits, sizeof F);
  return F;
}

uint32_t bitsOf32(float F) {
  uint32_t Bits;
  std::memcpy(&Bits, &F, sizeof Bits);
  return Bits;
}

/// The float helper's arithmetic (lib/CodeGen/DivisionHelper.cpp): the
/// sequence, its parity rule for even c, and whether its range test lets the
/// result stand.
float floatSequence(const ExactHelper &D, float X, bool &Proved) {
  const float C = static_cast<float>(D.Value),
              Rc = static_cast<float>(D.Reciprocal);
  float Q0 = X * Rc;
  float Correct = Rc;
  if (D.ReciprocalBelow != 0)
    Correct = fromBits32(bitsOf32(static_cast<float>(D.ReciprocalBelow)) +
                         (bitsOf32(Q0) & 1u));
  float Q = std::copysign(std::fma(std::fma(Q0, -C, X), Correct, Q0), Q0);
  float A = std::fabs(Q0);
  Proved = (A >= D.rangeLow() || X == 0.0f) && A <= D.rangeHigh();
  return Q;
}

// The float proof (ConstantDivision.cpp) against IEEE division. Whole
// divisors: every subnormal dividend of either sign (quotients exactly
// halfway between two subnormals occur there for even c), every dividend
// whose quotient lies in [2^-126, 2^-124] (where the tie test must not
// fire), then random dividends of every binade, quotients up to 2^82.
// Other divisors keep the range [2^-80, 2^80].
TEST(ConstantDivision, FloatSequenceIsIeeeDivision) {
  const char *Divisors[] = {"118", "-118", "100", "12", "53", "2.5f"};
  std::mt19937_64 Rng(20261128);
  for (const char *Text : Divisors) {
    bool IsFloat = Text[std::strlen(Text) - 1] == 'f';
    Expr Lit = literal(Text[0] == '-' ? Text + 1 : Text,
                       IsFloat ? ScalarType::Float : ScalarType::Int);
    Expr Divisor = Lit;
    if (Text[0] == '-') {
      Divisor.K = Expr::Unary;
      Divisor.Text = "-";
      Divisor.Type = Lit.Type;
      Divisor.Args = {Lit};
    }
    std::optional<ExactHelper> D = constantDivisor(division(Divisor));
    ASSERT_TRUE(D) << Text;
    const float C = static_cast<float>(D->Value);
    EXPECT_EQ(D->rangeLow() == 0, !IsFloat) << Text;
    // Even whole c that is not a power of two: the parity rule for ties.
    const int64_t Whole = IsFloat ? 0 : std::llabs(int64_t(D->Value));
    EXPECT_EQ(D->ReciprocalBelow != 0, Whole % 2 == 0 && Whole != 0) << Text;
    int64_t Tried = 0, Proved = 0, Wrong = 0;
    auto check = [&](float V) {
      ++Tried;
      bool InRange = false;
      float Q = floatSequence(*D, V, InRange);
      if (!InRange)
        return;
      ++Proved;
      if (bitsOf32(Q) != bitsOf32(V / C) && Wrong++ < 5)
        ADD_FAILURE() << std::hexfloat << V << " / " << C << ": " << Q
                      << " instead of " << V / C;
    };
    if (!IsFloat)
      for (uint32_t N = 0; N < (1u << 23); ++N) {
        check(fromBits32(N));
        check(fromBits32(N | 0x80000000u));
      }
    if (!IsFloat)
      for (uint32_t B = bitsOf32(std::fabs(C) * 0x1p-126f),
                    End = bitsOf32(std::fabs(C) * 0x1p-124f);
           B <= End; ++B) {
        check(fromBits32(B));
        check(-fromBits32(B));
      }
    for (int K = 0; K < 1000000; ++K) {
      // Any significand and sign, quotients in [2^-150, 2^82].
      int E = int(Rng() % 233) - 150;
      float Q = std::ldexp(fromBits32(0x3f800000u | uint32_t(Rng() >> 41)), E);
      check((Rng() & 1 ? -Q : Q) * C);
    }
    EXPECT_EQ(Wrong, 0) << Text;
    EXPECT_GT(Proved, Tried / 2) << Text;
  }
}

} // namespace
