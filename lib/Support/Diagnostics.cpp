//===- Diagnostics.cpp ----------------------------------------------------===//
#include "an5d/Diagnostics.h"

using namespace an5d;

const char *an5d::rejectTag(Reject R) {
  switch (R) {
  case Reject::NoScop: return "no-scop";
  case Reject::ScopStructure: return "scop-structure";
  case Reject::NotALoopNest: return "not-a-loop-nest";
  case Reject::LoopForm: return "loop-form";
  case Reject::Dimensionality: return "dimensionality";
  case Reject::TimeNotOutermost: return "time-not-outermost";
  case Reject::MultipleStatements: return "multiple-statements";
  case Reject::NonAffine: return "non-affine";
  case Reject::NotDoubleBuffered: return "not-double-buffered";
  case Reject::WriteNotOwnCell: return "write-not-own-cell";
  case Reject::VariableOffset: return "variable-offset";
  case Reject::EmptyDomain: return "empty-domain";
  case Reject::MultipleArrays: return "multiple-arrays";
  case Reject::ElementType: return "element-type";
  case Reject::UnsupportedExpr: return "unsupported-expression";
  case Reject::ImpureCall: return "impure-call";
  case Reject::GaussSeidel: return "gauss-seidel";
  case Reject::NotJacobi: return "not-jacobi";
  case Reject::OutOfBounds: return "out-of-bounds";
  case Reject::KernelNotApplicable: return "opt-not-applicable";
  case Reject::TooDeep: return "too-deep";
  case Reject::TurnMismatch: return "two-arrays-mismatch";
  case Reject::SeveralFields: return "several-fields";
  case Reject::CoefficientIndex: return "coefficient-index";
  case Reject::OlderLevelOffset: return "older-level-offset";
  case Reject::Internal: return "internal";
  }
  return "unknown";
}

void Diagnoser::report(clang::DiagnosticsEngine::Level Level,
                       clang::SourceRange Range, const std::string &Msg) {
  unsigned ID = Engine.getCustomDiagID(Level, "%0");
  auto Builder = Engine.Report(Range.getBegin(), ID);
  Builder << Msg;
  if (Range.isValid())
    Builder << clang::CharSourceRange::getTokenRange(Range);
}

void Diagnoser::error(Reject Reason, clang::SourceRange Range,
                      const llvm::Twine &Msg) {
  report(clang::DiagnosticsEngine::Error, Range,
         Msg.str() + " [" + rejectTag(Reason) + "]");
}

void Diagnoser::warning(clang::SourceRange Range, const llvm::Twine &Msg) {
  report(clang::DiagnosticsEngine::Warning, Range, Msg.str());
}

void Diagnoser::note(clang::SourceRange Range, const llvm::Twine &Msg) {
  report(clang::DiagnosticsEngine::Note, Range, Msg.str());
}
