//===- UpdatePrinter.cpp - The update expression as CUDA C++ -------------===//
//
// Prints the Expr tree with reads replaced by register or shared-memory
// values. C and C++ differ on calls: C converts each argument to the
// declared parameter type (sqrt(f) computes in double), C++ picks an
// overload (sqrt(float) computes in float). An explicit cast on every
// argument whose type differs from the parameter's keeps C's arithmetic.
// Float divisions by a proved constant, float reciprocals and square roots
// call their exact helper (not under --fast-math, where nvcc divides
// approximately); double
// literals of the coefficient table print as its entries.
//
//===----------------------------------------------------------------------===//
#include "an5d/CodeGen.h"

using namespace an5d;

std::string an5d::printUpdate(const Expr &E,
                              const std::vector<std::string> &ReadText,
                              const std::map<std::string, std::string> &ScalarName,
                              const CoefficientTable &Coefs,
                              const StencilAnalysis &A, bool Checked,
                              llvm::ArrayRef<std::string> CoefText,
                              const std::string &TimeText) {
  ExprSpelling Spell;
  Spell.ReadText = ReadText;
  Spell.CoefText = CoefText;
  Spell.TimeText = TimeText;
  Spell.ScalarName = ScalarName;
  Spell.CastCallArguments = true;
  Spell.ExactHelper = [&A, Checked](const Expr &Node, const Expr *&Operand) {
    std::optional<ExactHelper> H = exactHelper(A, Node);
    if (!H)
      return std::string();
    if (H->Operand)
      Operand = H->Operand;
    return Checked ? H->Helper + "<an5d_checked>" : H->Helper;
  };
  if (Checked)
    Spell.ExactHelperArgs = ", an5d_unproved";
  Spell.DoubleLiteral = [&Coefs](const Expr &Literal) {
    return Coefs.nameOf(Literal);
  };
  return printExprAs(E, Spell);
}
