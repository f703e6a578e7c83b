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

/// The checked form's flag and the exact form's fallback: a lane outside
/// the proved range sets an5d_unproved (checked), or its warp opens the
/// block that takes the IEEE operation; the caller writes that block's
/// body and closes it.
void openCheckedFallback(CodeWriter &W) {
  W.open("if (an5d_checked)");
  W.line("if (!proved)");
  W.indent();
  W.line("an5d_unproved = true;");
  W.dedent();
  W.close(" else if (AN5D_ANY_LANE(!proved)) {");
  W.indent();
}

/// The approximate instructions the refined helpers start from, written
/// once. The CPU emulation has none: it starts from the correctly rounded
/// values, which the same FMAs leave as they are, and flushes subnormal
/// inputs to zero as the instructions do (so a range test that let one in
/// would show there too).
void writeApproximations(CodeWriter &W) {
  W.line("// The hardware's approximate reciprocal and reciprocal square root "
         "(MUFU, flushing");
  W.line("// subnormal inputs to zero), which the helpers below refine.");
  W.raw("#ifdef AN5D_EMULATION");
  W.line("static inline float an5d_flush(float x) { return fabsf(x) < "
         "0x1p-126f ? copysignf(0.0f, x) : x; }");
  W.line("static inline float an5d_rcp_approx(float x) { return 1.0f / "
         "an5d_flush(x); }");
  W.line("static inline float an5d_rsqrt_approx(float x) { return 1.0f / "
         "sqrtf(an5d_flush(x)); }");
  W.raw("#else");
  W.line("__device__ __forceinline__ float an5d_rcp_approx(float x)");
  W.open("");
  W.line("float r;");
  W.line("asm(\"rcp.approx.ftz.f32 %0, %1;\" : \"=f\"(r) : \"f\"(x));");
  W.line("return r;");
  W.close();
  W.line("__device__ __forceinline__ float an5d_rsqrt_approx(float x)");
  W.open("");
  W.line("float r;");
  W.line("asm(\"rsqrt.approx.ftz.f32 %0, %1;\" : \"=f\"(r) : \"f\"(x));");
  W.line("return r;");
  W.close();
  W.raw("#endif");
  W.line("");
}

/// A float reciprocal or square root: the approximation refined by FMAs,
/// bit for bit IEEE's result wherever the range test holds (checked for
/// every float on an H200: benchmarks/experiments/exact-rcp-sqrt.cu); a
/// warp with a lane outside takes the IEEE operation, or in checked form
/// that lane sets an5d_unproved.
void writeRefinedHelper(CodeWriter &W, const ExactHelper &H, bool Checked,
                        bool &Approximations) {
  if (!Approximations)
    writeApproximations(W);
  Approximations = true;
  using K = ExactHelper::Kind;
  const bool Rcp = H.Op == K::Reciprocal, Sqrt = H.Op == K::SquareRoot;
  // The range tests compare bit patterns, two or three integer
  // instructions: negative values, infinities and NaNs fall outside.
  if (Rcp) {
    W.line("// 1.0f / x rounded as the IEEE division rounds it: the "
           "approximate reciprocal, one Newton");
    W.line("// step and one correcting FMA; exact wherever 2^-126 <= |x| < "
           "2^126 (every such float checked).");
  } else if (Sqrt) {
    W.line("// sqrtf(x) rounded as IEEE rounds it: s = x * rsqrt(x) and one "
           "correcting FMA with the");
    W.line("// exact remainder x - s * s; exact wherever 2^-102 <= x <= "
           "FLT_MAX (every such float checked).");
  } else {
    W.line("// 1.0f / sqrtf(x) rounded twice as IEEE rounds it: the square "
           "root as an5d_sqrt_rn takes it,");
    W.line("// then its reciprocal as an5d_rcp_rn does; where 2^-102 <= x <= "
           "FLT_MAX, the root lies in");
    W.line("// [2^-51, 2^64], inside the reciprocal's range (every such float "
           "checked for both).");
  }
  W.line("// Where a lane holds another value (zero, tiny, huge, infinite, "
         "NaN) its whole warp takes");
  W.line("// the IEEE operation, and that lane its result.");
  if (Checked) {
    W.line("// an5d_checked: no vote and no branch; such a lane sets "
           "an5d_unproved.");
    W.line("template <bool an5d_checked>");
  }
  W.line("__device__ __forceinline__ float " + H.Helper + "(float x" +
         (Checked ? ", bool &an5d_unproved" : "") + ")");
  W.open("");
  if (Rcp) {
    W.line("float y = an5d_rcp_approx(x);");
    W.line("y = __fmaf_rn(y, __fmaf_rn(-x, y, 1.0f), y);");
    W.line("float r = __fmaf_rn(__fmaf_rn(-x, y, 1.0f), y, y);");
    W.line("// 0x00800000: 2^-126; 0x7e800000: 2^126.");
    W.line("const bool proved = (__float_as_uint(x) & 0x7fffffffu) - "
           "0x00800000u < 0x7e000000u;");
  } else {
    W.line("const float y = an5d_rsqrt_approx(x);");
    W.line("const float s = __fmul_rn(x, y);");
    if (Sqrt) {
      W.line("float r = __fmaf_rn(__fmaf_rn(-s, s, x), __fmul_rn(0.5f, y), "
             "s);");
    } else {
      W.line("const float root = __fmaf_rn(__fmaf_rn(-s, s, x), "
             "__fmul_rn(0.5f, y), s);");
      W.line("float z = an5d_rcp_approx(root);");
      W.line("z = __fmaf_rn(z, __fmaf_rn(-root, z, 1.0f), z);");
      W.line("float r = __fmaf_rn(__fmaf_rn(-root, z, 1.0f), z, z);");
    }
    W.line("// 0x0c800000: 2^-102; 0x7f7fffff: FLT_MAX.");
    W.line("const bool proved = __float_as_uint(x) - 0x0c800000u <= "
           "0x72ffffffu;");
  }
  if (Checked)
    openCheckedFallback(W);
  else
    W.open("if (AN5D_ANY_LANE(!proved))");
  W.line(std::string("const float exact = ") +
         (Rcp ? "1.0f / x;" : Sqrt ? "sqrtf(x);" : "1.0f / sqrtf(x);"));
  W.line("r = proved ? r : exact;");
  W.close();
  W.line("return r;");
  W.close();
  W.line("");
}

} // namespace

void an5d::writeExactHelpers(CodeWriter &W,
                             const std::vector<ExactHelper> &Helpers,
                             bool Checked) {
  if (Helpers.empty())
    return;
  bool Approximations = false;
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
  for (const ExactHelper &D : Helpers) {
    if (D.Op != ExactHelper::Kind::Divide) {
      writeRefinedHelper(W, D, Checked, Approximations);
      continue;
    }
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
      openCheckedFallback(W);
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
