//===- DivisionHelper.cpp - The device function of an exact division -----===//
//
// Writes the helper the analysis proved exact for one divisor
// (lib/Analysis/ConstantDivision.cpp has the sequence and its proof).
//
//===----------------------------------------------------------------------===//
#include "an5d/CodeGen.h"

#include <cmath>
#include <cstdio>

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

} // namespace

void an5d::writeDivisionHelper(CodeWriter &W, const ConstantDivisor &D) {
  std::string C = floatLiteral(D.Value), Rc = floatLiteral(D.Reciprocal);
  W.line("// x / " + D.Text + " rounded as the IEEE division "
         "rounds it, without dividing: q0 = x * (1 / c), one");
  W.line("// FMA for the exact remainder, one to correct q0. an5dc proved it "
         "for this c wherever");
  W.line("// |q0| is in [2^-80, 2^80] (and for zeros); other values divide.");
  W.line("__device__ __forceinline__ float " + D.Helper + "(float x)");
  W.open("");
  W.line("const float q0 = x * " + Rc + ";");
  W.line("const float a = fabsf(q0);");
  W.line("if ((a >= " + floatLiteral(ConstantDivisor::RangeLow) +
         " || x == 0.0f) && a <= " + floatLiteral(ConstantDivisor::RangeHigh) +
         ")");
  W.indent();
  W.line("return copysignf(fmaf(fmaf(-q0, " + C + ", x), " + Rc +
         ", q0), q0);");
  W.dedent();
  W.line("return x / " + C + ";");
  W.close();
  W.line("");
}
