//===- CxxCompat.cpp - Making the user's C program valid C++ -------------===//
//
// The generated .cu file carries the user's program, and nvcc compiles it
// as C++. Two C idioms common in stencil codes are not C++: parameters of
// variably modified type ('float (*A)[n][m]') and implicit conversions from
// 'void *' ('double *p = malloc(...)'). Both are rewritten textually.
//
//===----------------------------------------------------------------------===//
#include "an5d/Frontend.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

using namespace an5d;

namespace {

class CxxCompat : public clang::RecursiveASTVisitor<CxxCompat> {
public:
  CxxCompat(clang::ASTContext &Ctx, clang::SourceManager &SM)
      : Ctx(Ctx), SM(SM), Policy(Ctx.getPrintingPolicy()) {
    Policy.SuppressTagKeyword = false;
  }

  bool VisitFunctionDecl(clang::FunctionDecl *F) {
    if (!inMainFile(F->getLocation()))
      return true;
    std::string Views;
    for (clang::ParmVarDecl *P : F->parameters()) {
      if (!P->getType()->isVariablyModifiedType())
        continue;
      clang::SourceRange R = P->getSourceRange();
      if (!editable(R))
        continue;
      std::string Name = P->getName().str();
      std::string Untyped = "an5d_vla_" + Name;
      // Rows of const elements take const arrays, which C++ does not
      // convert to 'void *'.
      clang::QualType Pointee = P->getType()->isPointerType()
                                    ? P->getType()->getPointeeType()
                                    : P->getType();
      const bool Const = Ctx.getBaseElementType(Pointee).isConstQualified();
      replace(R, std::string(Const ? "const void *" : "void *") +
                     (F->doesThisDeclarationHaveABody() ? Untyped : Name));
      if (!Name.empty())
        Views += " " + typed(P->getType(), Name) + " = (" +
                 typed(P->getType().getUnqualifiedType(), "") + ")" +
                 Untyped + ";";
    }
    if (!Views.empty() && F->doesThisDeclarationHaveABody()) {
      clang::SourceRange Brace(F->getBody()->getBeginLoc());
      if (editable(Brace))
        Edits.push_back({SM.getFileOffset(written(Brace).getBegin()) + 1, 0,
                         Views});
    }
    return true;
  }

  bool VisitImplicitCastExpr(clang::ImplicitCastExpr *E) {
    if (E->getCastKind() != clang::CK_BitCast || !inMainFile(E->getBeginLoc()))
      return true;
    clang::QualType From = E->getSubExpr()->getType();
    clang::QualType To = E->getType();
    if (!From->isVoidPointerType() || !To->isPointerType() ||
        To->isVoidPointerType())
      return true;
    clang::SourceRange R = E->getSubExpr()->getSourceRange();
    std::string Type = typed(To, "");
    // An argument for a VLA parameter ('[*]' sizes): that parameter becomes
    // 'void *' itself, so the argument needs no cast.
    if (!editable(R) || Type.find("[*]") != std::string::npos)
      return true;
    Edits.push_back({SM.getFileOffset(written(R).getBegin()), 0,
                     "(" + Type + ")("});
    Edits.push_back({endOffset(R), 0, ")"});
    return true;
  }

  std::vector<SourceEdit> take() {
    std::stable_sort(Edits.begin(), Edits.end(),
                     [](const SourceEdit &A, const SourceEdit &B) {
                       return A.Offset < B.Offset;
                     });
    // Overlapping replacements cannot both apply: keep the first.
    std::vector<SourceEdit> Out;
    for (const SourceEdit &E : Edits)
      if (Out.empty() || E.Offset >= Out.back().Offset + Out.back().Length)
        Out.push_back(E);
    return Out;
  }

private:
  bool inMainFile(clang::SourceLocation L) {
    return L.isValid() && SM.isInMainFile(SM.getExpansionLoc(L));
  }
  /// The text of R as written in the main file: a range that starts or
  /// ends in a macro expansion covers the whole macro invocation.
  clang::SourceRange written(clang::SourceRange R) {
    return SM.getExpansionRange(R).getAsRange();
  }
  /// Only text of the main file can be edited.
  bool editable(clang::SourceRange R) {
    R = written(R);
    return R.isValid() && SM.isInMainFile(R.getBegin()) &&
           SM.isInMainFile(R.getEnd());
  }
  /// Offset just past the last token of R.
  size_t endOffset(clang::SourceRange R) {
    return SM.getFileOffset(clang::Lexer::getLocForEndOfToken(
        written(R).getEnd(), 0, SM, Ctx.getLangOpts()));
  }
  void replace(clang::SourceRange R, const std::string &Text) {
    size_t Begin = SM.getFileOffset(written(R).getBegin());
    Edits.push_back({Begin, endOffset(R) - Begin, Text});
  }
  /// The C spelling of a declaration of Name with type T (Name may be "").
  std::string typed(clang::QualType T, const std::string &Name) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    T.print(OS, Policy, Name);
    return OS.str();
  }

  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  clang::PrintingPolicy Policy;
  std::vector<SourceEdit> Edits;
};

} // namespace

std::vector<SourceEdit> an5d::cxxCompatibilityEdits(SourceSession &Session) {
  if (!Session.parsed())
    return {};
  CxxCompat V(Session.ast(), Session.sources());
  V.TraverseDecl(Session.ast().getTranslationUnitDecl());
  return V.take();
}

std::string an5d::applyEdits(const std::string &Text,
                             const std::vector<SourceEdit> &Edits) {
  std::string Out;
  size_t Pos = 0;
  for (const SourceEdit &E : Edits) {
    if (E.Offset < Pos || E.Offset + E.Length > Text.size())
      continue;
    Out.append(Text, Pos, E.Offset - Pos);
    Out += E.Text;
    Pos = E.Offset + E.Length;
  }
  Out.append(Text, Pos, std::string::npos);
  return Out;
}
