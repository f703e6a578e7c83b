//===- an5d/Diagnostics.h - User errors through clang's diagnostics -------===//
//
// Every input an5dc cannot handle is reported here, with a source range, in
// clang's "file:line:col: error: ..." format with the line and a caret. Each
// rejection carries a typed reason, printed as a trailing [tag] so users and
// tests can tell the reasons apart.
//
//===----------------------------------------------------------------------===//
#ifndef AN5D_DIAGNOSTICS_H
#define AN5D_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/Twine.h"

namespace an5d {

enum class Reject {
  NoScop,             // no #pragma scop region
  ScopStructure,      // unmatched pragmas, several regions, not one nest
  NotALoopNest,       // statements other than perfectly nested for loops
  LoopForm,           // loop header not "for (x = lb; x < ub; x++)"
  Dimensionality,     // not 2 or 3 spatial loops
  TimeNotOutermost,   // the plane index uses an inner loop
  MultipleStatements, // more than one statement in the innermost loop
  NonAffine,          // an index or bound not affine in parameters/iterators
  NotDoubleBuffered,  // plane index not (t + k) % 2
  WriteNotOwnCell,    // the write is not A[(t+1)%2][i][j]
  VariableOffset,     // a read not at a fixed offset from the cell
  EmptyDomain,        // the loop nest never executes
  MultipleArrays,     // reads of another array
  ElementType,        // not float or double
  UnsupportedExpr,    // operator or construct outside the update language
  ImpureCall,         // call to a function not known to be pure
  GaussSeidel,        // reads a value of the step being computed
  NotJacobi,          // reads from a plane other than the previous step
  OutOfBounds,        // a read outside the declared array
  KernelNotApplicable, // --opt names a kernel this stencil cannot use
  TooDeep,            // an expression nested deeper than MaxExprDepth
  TurnMismatch,       // two arrays in turn whose nests are not one update
  SeveralFields,      // loop nests in one time step writing several arrays
  CoefficientIndex,   // a coefficient array read at a subscript it cannot be
  OlderLevelOffset,   // three time levels: the older level read off the cell
  Internal,           // an5dc's own limitation hit unexpectedly
};

/// The tag printed after a message: "gauss-seidel", "non-affine", ...
const char *rejectTag(Reject R);

class Diagnoser {
public:
  explicit Diagnoser(clang::DiagnosticsEngine &Engine) : Engine(Engine) {}

  /// Reports an error; Range may be invalid for errors with no location.
  void error(Reject Reason, clang::SourceRange Range, const llvm::Twine &Msg);
  void warning(clang::SourceRange Range, const llvm::Twine &Msg);
  void note(clang::SourceRange Range, const llvm::Twine &Msg);
  bool hasErrors() const { return Engine.hasErrorOccurred(); }
  clang::DiagnosticsEngine &engine() { return Engine; }

private:
  void report(clang::DiagnosticsEngine::Level Level, clang::SourceRange Range,
              const std::string &Msg);
  clang::DiagnosticsEngine &Engine;
};

} // namespace an5d

#endif
