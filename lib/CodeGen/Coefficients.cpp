//===- Coefficients.cpp - Double literals in constant memory -------------===//
//
// SASS double instructions take an immediate operand only as the upper 32
// bits of a double, so nvcc materializes every other double literal with
// two moves into a register pair at each use, or keeps it in registers.
// A __constant__ array costs one load per use (or none once ptxas keeps
// the entry in a register); its entries are the literals as written, so
// every value is the one C computes with.
//
//===----------------------------------------------------------------------===//
#include "an5d/CodeGen.h"

#include <optional>

using namespace an5d;

namespace {

/// Entries of at most 32 KiB, half of the constant bank nvcc gives a
/// module's __constant__ variables; later literals stay literals.
constexpr size_t MaxEntries = 4096;

} // namespace

std::string CoefficientTable::nameOf(const Expr &Literal) const {
  for (size_t K = 0; K < Spellings.size(); ++K)
    if (Spellings[K] == Literal.Text && Types[K] == Literal.Type)
      return "an5d_coef[" + std::to_string(K) + "]";
  return "";
}

CoefficientTable an5d::collectCoefficients(const Stencil &S) {
  CoefficientTable T;
  // 2D stencils gained 1.00x to 1.18x from the table (H200, double); 3D
  // kernels keep their literals (literalsInConstantTable says why).
  if (!literalsInConstantTable(S.numSpaceDims()))
    return T;
  ExprSpelling Spell;
  std::vector<std::string> NoReadText(S.Reads.size());
  Spell.ReadText = NoReadText;
  std::vector<std::string> NoCoefText(S.CoefReads.size());
  Spell.CoefText = NoCoefText;
  Spell.DoubleLiteral = [&T](const Expr &Literal) {
    std::optional<double> V = literalAsDouble(Literal);
    if (V && wideDoubleLiteral(*V) && T.Spellings.size() < MaxEntries &&
        T.nameOf(Literal).empty()) {
      T.Spellings.push_back(Literal.Text);
      T.Types.push_back(Literal.Type);
    }
    return std::string();
  };
  printExprAs(S.Update, Spell);
  return T;
}

void an5d::writeCoefficientTable(CodeWriter &W, const CoefficientTable &T) {
  if (T.Spellings.empty())
    return;
  W.line("// The update's double coefficients: no instruction holds them as "
         "an immediate, and from");
  W.line("// constant memory DFMA and DMUL read them as operands (as "
         "literals each use costs two moves).");
  W.line("__constant__ double an5d_coef[" + std::to_string(T.Spellings.size()) +
         "] = {");
  W.indent();
  for (size_t K = 0; K < T.Spellings.size(); ++K)
    W.line(T.Spellings[K] + (K + 1 < T.Spellings.size() ? "," : "") +
           " // an5d_coef[" + std::to_string(K) + "]");
  W.dedent();
  W.line("};");
  W.line("");
}
