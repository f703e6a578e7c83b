//===- DivisionHelper.cpp - The device function of an exact division -----===//
//
// Writes the helpers the analysis proved exact, one per divisor, float or
// double (lib/Analysis/ConstantDivision.cpp has the sequence and its
// proofs). The proved sequence runs on every lane with no branch around it;
// a range test and one warp vote send a warp to the IEEE division only when
// one of its lanes holds a value the proof does not cover. In checked form
// the fast instantiation has no vote and no branch: the test only sets the
// caller's flag, and the host redoes a flagged launch with the exact
// instantiation (an5d_checked_launches), so nvcc can interleave updates.
//
//===----------------------------------------------------------------------===//
#include "an5d/CodeGen.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

using namespace an5d;

namespace {

/// F as an exact float literal: "118.0f" for whole numbers, else hexadecimal.
std::string floatLiteral(float F) {
  char Buf[64];
  if (F == std::trunc(F) && std::fabs(F) < 0x1p24f)
    std::snprintf(Buf, sizeof Buf, "%.1ff", static_cast<double>(F));
  else
    std::snprintf(Buf, sizeof Buf, "%af", static_cast<double>(F));
  return Buf;
}

/// D as an exact double literal: "118.0" for whole numbers, else hexadecimal.
std::string doubleLiteral(double D) {
  char Buf[64];
  if (D == std::trunc(D) && std::fabs(D) < 0x1p53)
    std::snprintf(Buf, sizeof Buf, "%.1f", D);
  else
    std::snprintf(Buf, sizeof Buf, "%a", D);
  return Buf;
}

} // namespace

void an5d::writeDivisionHelpers(CodeWriter &W,
                                const std::vector<ConstantDivisor> &Divisors,
                                bool Checked) {
  if (Divisors.empty())
    return;
  W.line("// True on every lane when P holds on some lane of the warp that "
         "reaches it (a vote among");
  W.line("// the active lanes, safe in divergent code); the CPU emulation has "
         "no warps.");
  W.raw("#ifdef AN5D_EMULATION");
  W.raw("#define AN5D_ANY_LANE(p) (p)");
  W.raw("#else");
  W.raw("#define AN5D_ANY_LANE(p) __any_sync(__activemask(), (p))");
  W.raw("#endif");
  W.line("");
  for (const ConstantDivisor &D : Divisors) {
    bool F = D.Type == ElemType::Float;
    auto literal = [F](double V) {
      return F ? floatLiteral(static_cast<float>(V)) : doubleLiteral(V);
    };
    std::string T = F ? "float" : "double", Suffix = F ? "f" : "";
    std::string C = literal(D.Value), NegC = literal(-D.Value),
                Rc = literal(D.Reciprocal);
    const bool Parity = D.ReciprocalBelow != 0;
    std::string Range = D.rangeLow() == 0
                            ? "[0, 2^80], subnormal quotients included"
                        : F ? "[2^-80, 2^80] and for zeros"
                            : "[2^-800, 2^800] and for zeros";
    W.line("// x / " + D.Text + " rounded as the IEEE division rounds it, "
           "without dividing: q0 = x * (1 / c), one");
    W.line("// FMA for the exact remainder, one to correct q0. an5dc proved "
           "it for this c wherever");
    W.line("// |q0| is in " + Range +
           (F ? "" : " (Markstein's theorem)") + "; every lane computes it.");
    if (Parity) {
      W.line("// The correction multiplies by the float next to 1 / c towards "
             "zero where q0 is even, by the");
      W.line("// one after it where q0 is odd: a quotient exactly halfway "
             "between two subnormals takes the even one.");
    }
    W.line("// Where a lane holds another value (" +
           std::string(D.rangeLow() == 0 ? "" : "tiny, ") +
           "huge, infinite, NaN) its whole warp takes the division, and");
    W.line("// that lane its quotient: the branch is the same on all lanes "
           "and no lane waits for another.");
    if (Checked) {
      W.line("// an5d_checked: no vote and no branch; a lane outside the "
             "range sets an5d_unproved, and");
      W.line("// the host runs the launch again with an5d_checked false "
             "(an5d_checked_launches).");
      W.line("template <bool an5d_checked>");
    }
    W.line("__device__ __forceinline__ " + T + " " + D.Helper + "(" + T +
           " x" + (Checked ? ", bool &an5d_unproved" : "") + ")");
    W.open("");
    W.line("const " + T + " q0 = x * " + Rc + ";");
    std::string Correct = Rc;
    if (Parity) {
      char Bits[16];
      const float Below = static_cast<float>(D.ReciprocalBelow);
      uint32_t B;
      std::memcpy(&B, &Below, sizeof B);
      std::snprintf(Bits, sizeof Bits, "0x%08xu", B);
      W.line("const float rc = __uint_as_float(" + std::string(Bits) +
             " + (__float_as_uint(q0) & 1u));");
      Correct = "rc";
    }
    W.line(T + " q = copysign" + Suffix + "(fma" + Suffix + "(fma" + Suffix +
           "(q0, " + NegC + ", x), " + Correct + ", q0), q0);");
    W.line("const " + T + " a = fabs" + Suffix + "(q0);");
    if (D.rangeLow() == 0)
      W.line("const bool proved = a <= " + literal(D.rangeHigh()) + ";");
    else
      W.line("const bool proved = (a >= " + literal(D.rangeLow()) +
             " || x == " + (F ? "0.0f" : "0.0") + ") && a <= " +
             literal(D.rangeHigh()) + ";");
    if (Checked && D.rangeLow() == 0) {
      // Set, not or-ed: with the one-sided test ptxas kept 'unproved ||
      // !proved' in a register (4-5 more instructions an update on an H200).
      W.open("if (an5d_checked)");
      W.line("if (!proved)");
      W.indent();
      W.line("an5d_unproved = true;");
      W.dedent();
      W.close(" else if (AN5D_ANY_LANE(!proved)) {");
      W.indent();
    } else if (Checked) {
      W.line("if (an5d_checked)");
      W.indent();
      W.line("an5d_unproved = an5d_unproved || !proved;");
      W.dedent();
      W.open("else if (AN5D_ANY_LANE(!proved))");
    } else {
      W.open("if (AN5D_ANY_LANE(!proved))");
    }
    W.line("const " + T + " divided = x / " + C + ";");
    W.line("q = proved ? q : divided;");
    W.close();
    W.line("return q;");
    W.close();
    W.line("");
  }
}
