//===- Depth.cpp - Rejecting expressions nested too deeply ----------------===//
//
// Every later walk of an expression (the extractor, clang's constant
// evaluator, each stage and the printers) recurses once per level; these
// walks do not, so that they can measure any depth clang parsed.
//
//===----------------------------------------------------------------------===//
#include "an5d/Frontend.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

using namespace an5d;

namespace {

/// The nesting depth of E, implicit casts not counted (they vanish from the
/// update's tree), found without recursion.
unsigned nestingDepth(const clang::Stmt *E) {
  unsigned Max = 0;
  std::vector<std::pair<const clang::Stmt *, unsigned>> Work = {{E, 0}};
  while (!Work.empty()) {
    auto [X, Depth] = Work.back();
    Work.pop_back();
    if (!X)
      continue;
    if (!clang::isa<clang::ImplicitCastExpr>(X))
      Max = std::max(Max, ++Depth);
    for (const clang::Stmt *C : X->children())
      Work.push_back({C, Depth});
  }
  return Max;
}

} // namespace

bool an5d::checkNestingDepth(const clang::Stmt *St, Diagnoser &D) {
  std::vector<const clang::Stmt *> Work = {St};
  while (!Work.empty()) {
    const clang::Stmt *X = Work.back();
    Work.pop_back();
    if (!X)
      continue;
    const auto *E = clang::dyn_cast<clang::Expr>(X);
    if (!E) {
      for (const clang::Stmt *C : X->children())
        Work.push_back(C);
      continue;
    }
    unsigned Depth = nestingDepth(E);
    if (Depth > MaxExprDepth) {
      D.error(Reject::TooDeep,
              clang::SourceRange(E->getBeginLoc(), E->getEndLoc()),
              "this expression nests " + std::to_string(Depth) +
                  " levels deep, more than the " +
                  std::to_string(MaxExprDepth) +
                  " an5dc handles (each operator, sign, cast, parenthesis, "
                  "subscript and call is a level); group the terms of a long "
                  "sum in parentheses, '(a + b + ...) + (c + d + ...)', or "
                  "drop repeated signs and casts");
      return false;
    }
  }
  return true;
}

