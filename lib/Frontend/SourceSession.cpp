//===- SourceSession.cpp - Parsing the input with Clang -------------------===//
#include "an5d/Frontend.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#ifndef AN5D_CLANG_RESOURCE_DIR
#error "AN5D_CLANG_RESOURCE_DIR must be defined by the build"
#endif
#ifndef AN5D_CLANG_DRIVER
#define AN5D_CLANG_DRIVER "clang"
#endif

using namespace an5d;

namespace {

/// Records where '#pragma scop' and '#pragma endscop' appear; the rest of the
/// pragma line is discarded by the preprocessor.
class ScopPragmaHandler : public clang::PragmaHandler {
public:
  ScopPragmaHandler(llvm::StringRef Name, bool IsEnd,
                    std::vector<SourceSession::Pragma> &Out)
      : PragmaHandler(Name), IsEnd(IsEnd), Out(Out) {}
  void HandlePragma(clang::Preprocessor &, clang::PragmaIntroducer Introducer,
                    clang::Token &) override {
    Out.push_back({IsEnd, Introducer.Loc});
  }

private:
  bool IsEnd;
  std::vector<SourceSession::Pragma> &Out;
};

class ParseAction : public clang::SyntaxOnlyAction {
public:
  explicit ParseAction(std::vector<SourceSession::Pragma> &Pragmas)
      : Pragmas(Pragmas) {}

protected:
  bool BeginSourceFileAction(clang::CompilerInstance &CI) override {
    clang::Preprocessor &PP = CI.getPreprocessor();
    PP.AddPragmaHandler(new ScopPragmaHandler("scop", false, Pragmas));
    PP.AddPragmaHandler(new ScopPragmaHandler("endscop", true, Pragmas));
    return SyntaxOnlyAction::BeginSourceFileAction(CI);
  }

private:
  std::vector<SourceSession::Pragma> &Pragmas;
};

std::unique_ptr<clang::CompilerInvocation>
makeInvocation(const std::vector<const char *> &Args,
               clang::DiagnosticsEngine &Diags) {
  llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> DiagsRef(&Diags);
#if CLANG_VERSION_MAJOR >= 15
  clang::CreateInvocationOptions Opts;
  Opts.Diags = DiagsRef;
  return clang::createInvocation(Args, std::move(Opts));
#else
  return clang::createInvocationFromCommandLine(Args, DiagsRef);
#endif
}

} // namespace

std::unique_ptr<SourceSession> SourceSession::create(const FrontendOptions &Opts) {
  std::unique_ptr<SourceSession> S(new SourceSession());
  S->CI = std::make_unique<clang::CompilerInstance>();
  auto *DiagOpts = new clang::DiagnosticOptions();
#if LLVM_VERSION_MAJOR >= 17
  // The same snippet layout on every clang an5dc builds with (17 added a
  // line-number gutter).
  DiagOpts->ShowLineNumbers = false;
#endif
  S->CI->createDiagnostics(new clang::TextDiagnosticPrinter(llvm::errs(), DiagOpts),
                           /*ShouldOwnClient=*/true);
  S->Diags = std::make_unique<Diagnoser>(S->CI->getDiagnostics());
  // The parser runs on a stack far larger than the 8 MiB that clang's
  // "stack nearly exhausted" warning assumes (an5d/Stack.h).
  S->CI->getDiagnostics().setSeverity(clang::diag::warn_stack_exhausted,
                                      clang::diag::Severity::Ignored,
                                      clang::SourceLocation());

  // The driver works out the system include paths as clang itself would.
  // At most 20 errors, clang's own default, unless the user's
  // -ferror-limit (the last one wins) says otherwise.
  std::vector<const char *> Args = {AN5D_CLANG_DRIVER, "-fsyntax-only",
                                    "-ferror-limit=20",
                                    "-resource-dir", AN5D_CLANG_RESOURCE_DIR,
                                    "-x", "c"};
  for (const std::string &A : Opts.CompilerArgs)
    Args.push_back(A.c_str());
  Args.push_back(Opts.InputFile.c_str());

  std::unique_ptr<clang::CompilerInvocation> Inv =
      makeInvocation(Args, S->CI->getDiagnostics());
  if (!Inv || S->CI->getDiagnostics().hasErrorOccurred())
    return S;
  // The engine predates the invocation: its limit is set here.
  S->CI->getDiagnostics().setErrorLimit(Inv->getDiagnosticOpts().ErrorLimit);
  // The driver asks cc1 to leave the AST and Sema unfreed at exit
  // (-disable-free); the session owns them and frees them.
  Inv->getFrontendOpts().DisableFree = false;
  if (Opts.InputText)
    Inv->getPreprocessorOpts().addRemappedFile(
        Opts.InputFile,
        llvm::MemoryBuffer::getMemBufferCopy(*Opts.InputText, Opts.InputFile)
            .release());
  S->CI->setInvocation(std::shared_ptr<clang::CompilerInvocation>(std::move(Inv)));
  if (S->CI->getFrontendOpts().Inputs.size() != 1 || !S->CI->createTarget())
    return S;

  S->Action = std::make_unique<ParseAction>(S->Pragmas);
  if (!S->Action->BeginSourceFile(*S->CI, S->CI->getFrontendOpts().Inputs[0]))
    return S;
  S->Begun = true;
  if (llvm::Error E = S->Action->Execute()) {
    llvm::consumeError(std::move(E));
    return S;
  }
  S->Parsed = !S->CI->getDiagnostics().hasErrorOccurred();
  return S;
}

SourceSession::~SourceSession() {
  if (Begun)
    Action->EndSourceFile();
}

clang::ASTContext &SourceSession::ast() { return CI->getASTContext(); }

clang::SourceManager &SourceSession::sources() { return CI->getSourceManager(); }
