//===- an5d/Frontend.h - C source to stencil description ------------------===//
//
// Stage 1. Parses the input with Clang as C, finds the region between
// '#pragma scop' and '#pragma endscop', and describes the stencil in it.
//
//===----------------------------------------------------------------------===//
#ifndef AN5D_FRONTEND_H
#define AN5D_FRONTEND_H

#include "an5d/Diagnostics.h"
#include "an5d/Stencil.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CompilerInstance;
class FrontendAction;
class SourceManager;
class Stmt;
} // namespace clang

namespace an5d {

/// The deepest update expression the frontend accepts, counted in nested
/// operators, casts, parentheses and calls (a sum of N terms nests N - 1
/// '+'). Every stage recurses over the expression; deeper input is rejected
/// with a diagnostic rather than left to overflow the stack, which
/// an5d/Stack.h sizes for this depth.
constexpr unsigned MaxExprDepth = 20000;

struct FrontendOptions {
  std::string InputFile;
  std::vector<std::string> CompilerArgs; // what the user put after "--"
  /// When set, the input file's text, read from memory instead of
  /// InputFile (which still names it in diagnostics): the fuzzer's input.
  std::optional<std::string> InputText;
};

/// The parsed translation unit, alive for the whole pipeline so that every
/// stage can report diagnostics against the user's source.
class SourceSession {
public:
  /// Parses the input; parse errors are already reported when this returns.
  static std::unique_ptr<SourceSession> create(const FrontendOptions &Opts);
  ~SourceSession();

  bool parsed() const { return Parsed; }
  Diagnoser &diags() { return *Diags; }
  clang::ASTContext &ast();
  clang::SourceManager &sources();
  /// Locations of '#pragma scop' / '#pragma endscop' in order of appearance.
  struct Pragma {
    bool IsEnd;
    clang::SourceLocation Loc;
  };
  const std::vector<Pragma> &pragmas() const { return Pragmas; }

private:
  SourceSession() = default;
  std::unique_ptr<clang::CompilerInstance> CI;
  std::unique_ptr<clang::FrontendAction> Action;
  std::unique_ptr<Diagnoser> Diags;
  std::vector<Pragma> Pragmas;
  bool Parsed = false;
  bool Begun = false;
};

/// A replacement of [Offset, Offset + Length) of the main file by Text.
struct SourceEdit {
  size_t Offset = 0;
  size_t Length = 0;
  std::string Text;
};

/// Edits that turn the C program into valid C++, which is what nvcc
/// compiles a .cu file as: VLA-typed parameters become 'void *' with a
/// typed local view at the top of the body, and implicit conversions from
/// 'void *' get explicit casts. Sorted by offset, non-overlapping.
std::vector<SourceEdit> cxxCompatibilityEdits(SourceSession &Session);

/// Applies sorted, non-overlapping edits to Text.
std::string applyEdits(const std::string &Text,
                       const std::vector<SourceEdit> &Edits);

/// Rejects (reports, returns false) the first full expression in St that
/// nests deeper than MaxExprDepth, measured without recursion.
bool checkNestingDepth(const clang::Stmt *St, Diagnoser &D);

/// Entry point of the frontend: the stencil of the file's scop region, or
/// nullopt after reporting why the region is not a stencil an5dc handles.
std::optional<Stencil> extractStencil(SourceSession &Session);

} // namespace an5d

#endif
