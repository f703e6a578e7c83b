//===- ConstantDivision.cpp - Which float divisions need no division -----===//
//
// x / c in float costs an IEEE division (about ten instructions and a call
// for small or zero dividends, which decaying stencils such as j2d5pt reach
// after a few hundred steps). With rc = RN(1 / c) the sequence
//   q0 = RN(x * rc);  r = x - q0 * c (one FMA, exact);  q = RN(q0 + r * rc)
// gives RN(x / c) for most c, but not all: an5dc proves it per divisor.
//
// The proof: where |q0| lies in [2^-80, 2^80] and 2^-20 <= |c| <= 2^20,
// x, q0 and q are normal and r's lowest bit is at least 2^-146, so scaling
// x by a power of two scales every step exactly. Every x then behaves like
// one x of [1, 2) with the same significand; those 2^23 values are checked
// here (r exact, q equal to the IEEE quotient). Outside that range, and for
// infinities and NaNs, the helper divides.
//
//===----------------------------------------------------------------------===//
#include "an5d/Analysis.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

using namespace an5d;

namespace {

constexpr float DivisorLow = 0x1p-20f, DivisorHigh = 0x1p20f;

float floatFromBits(uint32_t Bits) {
  float F;
  std::memcpy(&F, &Bits, sizeof F);
  return F;
}

uint32_t bitsOf(float F) {
  uint32_t Bits;
  std::memcpy(&Bits, &F, sizeof Bits);
  return Bits;
}

/// A literal's spelling without its type suffix ("118u" -> "118").
std::string stripSuffix(std::string Text, const char *Suffixes) {
  while (!Text.empty() && std::strchr(Suffixes, Text.back()))
    Text.pop_back();
  return Text;
}

/// The value of a constant divisor expression as C converts it to float:
/// literals, parentheses, unary signs and casts to float. Nullopt for
/// anything else (scalars are run-time values) and for double operands,
/// which make the division a double one.
std::optional<float> floatValue(const Expr &E) {
  switch (E.K) {
  case Expr::Paren:
    return floatValue(E.Args[0]);
  case Expr::Unary: {
    std::optional<float> V = floatValue(E.Args[0]);
    if (!V || (E.Text != "-" && E.Text != "+"))
      return std::nullopt;
    return E.Text == "-" ? -*V : *V;
  }
  case Expr::Cast: {
    if (E.Type != ScalarType::Float || E.Args[0].K != Expr::Literal)
      return std::nullopt;
    const Expr &Inner = E.Args[0];
    if (Inner.Type != ScalarType::Double)
      return floatValue(Inner);
    char *End = nullptr;
    double D = std::strtod(Inner.Text.c_str(), &End);
    if (Inner.Text.empty() || End != Inner.Text.c_str() + Inner.Text.size())
      return std::nullopt;
    return static_cast<float>(D);
  }
  case Expr::Literal: {
    char *End = nullptr;
    if (E.Type == ScalarType::Int) {
      std::string Text = stripSuffix(E.Text, "uUlL");
      unsigned long long V = std::strtoull(Text.c_str(), &End, 0);
      if (Text.empty() || End != Text.c_str() + Text.size() || V > (1ull << 40))
        return std::nullopt;
      return static_cast<float>(V);
    }
    if (E.Type == ScalarType::Float) {
      std::string Text = stripSuffix(E.Text, "fF");
      float V = std::strtof(Text.c_str(), &End);
      if (Text.empty() || End != Text.c_str() + Text.size())
        return std::nullopt;
      return V;
    }
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

/// True when the reciprocal sequence gives the IEEE quotient for every x
/// with |RN(x * rc)| in ConstantDivisor's range (see the file comment).
bool sequenceExact(float C, float Rc) {
  static std::map<uint32_t, bool> Cache;
  auto It = Cache.find(bitsOf(C));
  if (It != Cache.end())
    return It->second;
  bool Exact = true;
  for (uint32_t M = 0; M < (1u << 23) && Exact; ++M) {
    float X = floatFromBits(0x3f800000u | M); // [1, 2)
    float Q0 = X * Rc;
    float R = std::fma(-Q0, C, X);
    // x - q0 * c in double: the product has at most 48 bits and x is within
    // a factor 2 of it, so the difference is exact.
    double RExact = static_cast<double>(X) -
                    static_cast<double>(Q0) * static_cast<double>(C);
    float Q = std::fma(R, Rc, Q0);
    Exact = static_cast<double>(R) == RExact && bitsOf(Q) == bitsOf(X / C);
  }
  Cache[bitsOf(C)] = Exact;
  return Exact;
}

/// A C identifier part for a printed constant: "118" -> "118", "-0.5" -> "m0p5".
std::string identifierPart(const std::string &Text) {
  std::string Name;
  for (char Ch : Text) {
    if (Ch == '-')
      Name += 'm';
    else if (Ch == '.')
      Name += 'p';
    else if (Ch != '+')
      Name += Ch;
  }
  return Name;
}

} // namespace

std::optional<ConstantDivisor> an5d::constantDivisor(const Expr &Division) {
  if (Division.K != Expr::Binary || Division.Text != "/" ||
      Division.Type != ScalarType::Float)
    return std::nullopt;
  std::optional<float> C = floatValue(Division.Args[1]);
  if (!C || !std::isfinite(*C) || std::fabs(*C) < DivisorLow ||
      std::fabs(*C) > DivisorHigh)
    return std::nullopt;
  float Rc = 1.0f / *C;
  if (!sequenceExact(*C, Rc))
    return std::nullopt;
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.9g", static_cast<double>(*C));
  return ConstantDivisor{*C, Rc, Text, "an5d_div_" + identifierPart(Text)};
}

void an5d::collectConstantDivisors(const StencilAnalysis &A, const Expr &E,
                                   std::vector<ConstantDivisor> &Out) {
  for (const Expr &Arg : E.Args)
    collectConstantDivisors(A, Arg, Out);
  std::optional<ConstantDivisor> D = helperDivisor(A, E);
  if (!D)
    return;
  for (const ConstantDivisor &Seen : Out)
    if (Seen.Helper == D->Helper)
      return;
  Out.push_back(*D);
}
