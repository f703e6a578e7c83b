//===- MathMode.cpp - What the file says about its arithmetic ------------===//
//
// By default the generated code computes what the C loop computes, up to
// nvcc's FMA contraction; under --fast-math (nvcc's --use_fast_math plus
// reassociation, StencilAnalysis::FastMath) the header says what may
// differ, and -DAN5D_VERIFY compares with a looser tolerance.
//
//===----------------------------------------------------------------------===//
#include "an5d/CodeGen.h"

#include <cassert>
#include <cmath>

using namespace an5d;

std::string an5d::toleranceLiteral(double Tolerance) {
  long Exponent = std::lround(std::log10(Tolerance));
  assert(std::fabs(Tolerance / std::pow(10.0, double(Exponent)) - 1) < 1e-9 &&
         "tolerances are powers of ten");
  return "1e" + std::to_string(Exponent);
}

void an5d::writeVerifyNote(CodeWriter &W, const Plan &P) {
  W.line("// Verification: compile with -DAN5D_VERIFY to run the original loop "
         "nest on the CPU first and");
  W.line(std::string("//   compare ") +
         (P.Planes == 3 ? "all three planes" : "both planes") +
         ": tolerance relative to max(|ref|, 1), " +
         toleranceLiteral(verifyTolerance(ElemType::Float, P.FastMath)) +
         " for float, " +
         toleranceLiteral(verifyTolerance(ElemType::Double, P.FastMath)) +
         " for double.");
  if (P.FloatInDouble)
    W.line("//   This update computes partly in float (float operands), so "
           "its double planes compare with " +
           toleranceLiteral(P.VerifyTolerance) + ".");
  if (P.FastMath) {
    W.line("// --fast-math: results may differ from the C loop's in the last "
           "bits, each step: sums are");
    W.line("//   reassociated (factors distributed over them), float division "
           "and sqrt are approximate");
    W.line("//   and float subnormals flush to zero (nvcc --use_fast_math); "
           "double division and sqrt stay IEEE.");
  }
  if (P.TimeLevels == 3)
    return; // the sampled check takes two time levels (an #error says so)
  W.line("// -DAN5D_VERIFY_SAMPLE=K instead checks K planes along the "
         "streaming dimension (both time");
  W.line("//   planes), for grids whose CPU copy does not fit the host (one "
         "array with a plane index, 2D or 3D).");
}
