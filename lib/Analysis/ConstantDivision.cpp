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
// Whole c (1 <= |c| <= 2^20) needs no lower bound. Let s = 2^-149, the
// smallest subnormal. x and q0 * c are multiples of s, so r is too, and
// |r| < 2^24 s keeps it exact. (1) |x / c| >= 2^-125: q0 and q are normal
// and r exact, so the step scales like the checked ones. (2) |x / c| <
// 2^-125, where floats are the multiples of s: |x * rc - x / c| < s and q0
// within 1.5 s of x / c, so |r| < 1.5 |c| s, and q0 + r * y, for any y
// within 2^-23 of 1 / c relatively, lies within 1.5 * 2^-23 s of x / c =
// q0 + r / c. x / c = N s / c for an integer N, so unless it is a midpoint
// between two multiples of s it is at least s / (2 |c|) from every
// midpoint, and RN gives the IEEE quotient. A midpoint needs c even (2N =
// (2k + 1) c) and not a power of two (else y = 1 / c exactly and the FMA
// itself rounds the midpoint to even); then q0 is one of the two
// neighbours and q0 + r * y lies beyond the midpoint, on the other
// neighbour's side, exactly when |y| > 1 / |c|. So for such c the helper
// takes y just below 1 / |c| when q0 is even and just above when it is odd
// (ReciprocalBelow plus q0's last bit, two integer instructions), which
// lands on the even neighbour; the check below covers that rule in case
// (1). ConstantDivision.FloatSequenceIsIeeeDivision checks every subnormal
// x and every x with |x / c| in [2^-126, 2^-124].
//
// Double has 2^52 significands: there the proof is a theorem instead of a
// check. Markstein's theorem (P. Markstein, IBM J. Res. Dev. 34(1), 1990;
// Muller et al., Handbook of Floating-Point Arithmetic, "Markstein's
// theorem"): in binary precision p, if y approximates 1/c with relative
// error below 2^-p, q0 is a faithful rounding of x/c (one of the two
// floating-point numbers around it) and nothing underflows or overflows,
// then r = x - q0 * c is exact (one FMA) and RN(q0 + r * y) = RN(x / c).
// y = RN(1/c) has relative error delta = c * y - 1 below 2^-p. q0 =
// RN(x * y) is faithful when |delta| <= 2^-(p+1), which an5dc checks per
// divisor (fma(c, y, -1) is exact: c * y - 1 is a multiple of 2^-105 of
// magnitude at most 2^-53). Proof, for Q = x / c > 0 in [2^e, 2^(e+1)),
// u = ulp(Q) = 2^(e+1-p): x * y = Q (1 + delta) lies within Q |delta| <
// 2^(e+1) 2^-(p+1) = u / 2 of Q. Above Q it is less than u / 2 above RU(Q),
// whose upper neighbour is at least u away, so RN gives at most RU(Q).
// Below Q it is less than u / 2 below RD(Q); where RD(Q) = 2^e, whose lower
// neighbour is only u / 2 away, x * y >= 2^e (1 - 2^-(p+1)) = 2^e - u / 4,
// the midpoint, which ties to the even 2^e; so RN gives at least RD(Q).
// No underflow or overflow: 2^-100 <= |c| <= 2^100 and the helper's range
// test 2^-800 <= |q0| <= 2^800 keep x, q0, Q and the result normal, and the
// exponents of c and q0 sum to at least -900 >= emin + p - 1 = -970, which
// keeps the remainder representable. About 3 in 4 integer divisors up to
// 2000 meet |delta| <= 2^-54 (3, 5, 7, 100, 118 do; 49, 75 do not).
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
constexpr double DoubleDivisorLow = 0x1p-100, DoubleDivisorHigh = 0x1p100;

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

/// The value of a constant divisor expression as C converts it to double:
/// literals (a float one with its float value), parentheses, unary signs
/// and casts to float or double; nullopt for anything else.
std::optional<double> doubleValue(const Expr &E) {
  switch (E.K) {
  case Expr::Paren:
    return doubleValue(E.Args[0]);
  case Expr::Unary: {
    std::optional<double> V = doubleValue(E.Args[0]);
    if (!V || (E.Text != "-" && E.Text != "+"))
      return std::nullopt;
    return E.Text == "-" ? -*V : *V;
  }
  case Expr::Cast:
    if (E.Type == ScalarType::Float) {
      std::optional<float> F = floatValue(E);
      return F ? std::optional<double>(*F) : std::nullopt;
    }
    if (E.Type == ScalarType::Double)
      return doubleValue(E.Args[0]);
    return std::nullopt;
  case Expr::Literal: {
    if (E.Type == ScalarType::Float) { // its float value, exact as a double
      std::optional<float> F = floatValue(E);
      return F ? std::optional<double>(*F) : std::nullopt;
    }
    char *End = nullptr;
    if (E.Type == ScalarType::Int) { // exact up to 2^40
      std::string Text = stripSuffix(E.Text, "uUlL");
      unsigned long long V = std::strtoull(Text.c_str(), &End, 0);
      if (Text.empty() || End != Text.c_str() + Text.size() || V > (1ull << 40))
        return std::nullopt;
      return static_cast<double>(V);
    }
    if (E.Type != ScalarType::Double)
      return std::nullopt;
    double V = std::strtod(E.Text.c_str(), &End);
    if (E.Text.empty() || End != E.Text.c_str() + E.Text.size())
      return std::nullopt;
    return V;
  }
  default:
    return std::nullopt;
  }
}

/// Markstein's hypothesis for double (see the file comment): the relative
/// error of Rc = RN(1 / C) is at most 2^-54, so RN(x * Rc) is faithful.
bool doubleSequenceExact(double C, double Rc) {
  double Delta = std::fma(C, Rc, -1.0); // exact
  return std::fabs(Delta) <= 0x1p-54;
}

/// The shortest decimal spelling that reads back as V: 0.1, not
/// 0.10000000000000001.
std::string shortestText(double V) {
  char Text[40];
  for (int Digits = 1; Digits <= 17; ++Digits) {
    std::snprintf(Text, sizeof Text, "%.*g", Digits, V);
    if (std::strtod(Text, nullptr) == V)
      break;
  }
  return Text;
}

/// True when the reciprocal sequence gives the IEEE quotient for every x
/// with |RN(x * rc)| in ExactHelper's range (see the file comment). With
/// RcBelow nonzero the correcting FMA multiplies by RcBelow or, when q0's
/// last bit is 1, by the float after it (the helper's rule for even c).
bool sequenceExact(float C, float Rc, float RcBelow) {
  static std::map<std::pair<uint32_t, uint32_t>, bool> Cache;
  const std::pair<uint32_t, uint32_t> Key(bitsOf(C), bitsOf(RcBelow));
  auto It = Cache.find(Key);
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
    float Correct =
        RcBelow == 0 ? Rc : floatFromBits(bitsOf(RcBelow) + (bitsOf(Q0) & 1u));
    float Q = std::fma(R, Correct, Q0);
    Exact = static_cast<double>(R) == RExact && bitsOf(Q) == bitsOf(X / C);
  }
  Cache[Key] = Exact;
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

std::optional<ExactHelper> an5d::constantDivisor(const Expr &Division) {
  if (Division.K != Expr::Binary || Division.Text != "/")
    return std::nullopt;
  if (Division.Type == ScalarType::Double) {
    std::optional<double> C = doubleValue(Division.Args[1]);
    if (!C || !std::isfinite(*C) || std::fabs(*C) < DoubleDivisorLow ||
        std::fabs(*C) > DoubleDivisorHigh)
      return std::nullopt;
    double Rc = 1.0 / *C;
    if (!doubleSequenceExact(*C, Rc))
      return std::nullopt;
    std::string Text = shortestText(*C);
    return ExactHelper{ElemType::Double, *C, Rc, Text,
                           "an5d_ddiv_" + identifierPart(Text)};
  }
  if (Division.Type != ScalarType::Float)
    return std::nullopt;
  std::optional<float> C = floatValue(Division.Args[1]);
  if (!C || !std::isfinite(*C) || std::fabs(*C) < DivisorLow ||
      std::fabs(*C) > DivisorHigh)
    return std::nullopt;
  float Rc = 1.0f / *C;
  // A whole c is proved down to zero (file comment); an even one that is not
  // a power of two needs the parity rule for ties between subnormals.
  const float Abs = std::fabs(*C);
  const bool Whole = Abs == std::trunc(Abs);
  const uint32_t IntC = static_cast<uint32_t>(Abs);
  float RcBelow = 0;
  if (Whole && IntC % 2 == 0 && (IntC & (IntC - 1)) != 0)
    RcBelow = std::fabs(static_cast<double>(*C) * Rc) < 1.0
                  ? Rc
                  : std::nextafter(Rc, 0.0f);
  bool WholeRange = Whole;
  if (!sequenceExact(*C, Rc, RcBelow)) {
    if (RcBelow == 0 || !sequenceExact(*C, Rc, 0))
      return std::nullopt;
    RcBelow = 0; // the plain sequence, above 2^-80 only
    WholeRange = false;
  }
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.9g", static_cast<double>(*C));
  ExactHelper D{ElemType::Float, *C, Rc, Text,
                    "an5d_div_" + identifierPart(Text)};
  D.ReciprocalBelow = RcBelow;
  D.WholeRange = WholeRange;
  return D;
}

std::optional<ExactHelper> an5d::refinedHelper(const Expr &Node) {
  // C computes both in float only for float operands; x not a constant
  // (a constant reciprocal folds).
  if (Node.Type != ScalarType::Float)
    return std::nullopt;
  ExactHelper R;
  if (Node.K == Expr::Binary && Node.Text == "/") {
    std::optional<float> One = floatValue(Node.Args[0]);
    if (!One || *One != 1.0f || floatValue(Node.Args[1]))
      return std::nullopt;
    const Expr *Divisor = &Node.Args[1];
    while (Divisor->K == Expr::Paren)
      Divisor = &Divisor->Args[0];
    R.Op = ExactHelper::Kind::Reciprocal;
    R.Helper = "an5d_rcp_rn";
    R.Operand = Divisor;
    if (Divisor->K == Expr::Call && Divisor->Text == "sqrtf" &&
        Divisor->Args.size() == 1 &&
        Divisor->Args[0].Type == ScalarType::Float) {
      R.Op = ExactHelper::Kind::ReciprocalSquareRoot;
      R.Helper = "an5d_rsqrt_rn";
      R.Operand = &Divisor->Args[0];
    }
    return R;
  }
  if (Node.K == Expr::Call && Node.Text == "sqrtf" && Node.Args.size() == 1) {
    R.Op = ExactHelper::Kind::SquareRoot;
    R.Helper = "an5d_sqrt_rn";
    return R;
  }
  return std::nullopt;
}

std::optional<ExactHelper> an5d::exactHelper(const StencilAnalysis &A,
                                             const Expr &Node) {
  std::optional<ExactHelper> H = constantDivisor(Node);
  if (!H)
    H = refinedHelper(Node);
  if (H && A.FastMath && H->Type == ElemType::Float)
    return std::nullopt;
  return H;
}

void an5d::collectExactHelpers(const StencilAnalysis &A, const Expr &E,
                              std::vector<ExactHelper> &Out) {
  std::optional<ExactHelper> D = exactHelper(A, E);
  // 1.0f / sqrtf(x) prints as one call on x: the root has no helper of its
  // own there.
  if (D && D->Op == ExactHelper::Kind::ReciprocalSquareRoot)
    collectExactHelpers(A, *D->Operand, Out);
  else
    for (const Expr &Arg : E.Args)
      collectExactHelpers(A, Arg, Out);
  if (!D)
    return;
  for (const ExactHelper &Seen : Out)
    if (Seen.Helper == D->Helper)
      return;
  Out.push_back(*D);
}
