//===- CheckedLaunches.cpp - Exact divisions without a vote per update ----===//
//
// An exact division helper (DivisionHelper.cpp) costs a warp vote and a
// branch region per update, which keeps nvcc from interleaving updates
// (j2d5pt float: half the speed of the approximate division). Checked
// kernels drop both: a lane whose value leaves the proved range only sets a
// flag, the kernel records its launch's index in a device word, and later
// launches leave the planes alone. The input plane of the first flagged
// launch is then intact, and the host runs that launch and the rest again
// with the exact instantiation (runtime: an5d_checked_launches). Only the
// in-memory path checks; slabs and out-of-core chunks run exact kernels.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

using namespace an5d;
using namespace an5d::codegen;

bool Emitter::fileChecks() const {
  std::vector<ExactHelper> Found;
  collectExactHelpers(A, S.Update, Found);
  return !Found.empty();
}

bool Emitter::checkedPlan() const {
  // Three levels: a flagged launch's older input may be overwritten before
  // the host sees the flag, so they run the exact kernels.
  return fileChecks() && P.Run != Scheme::Naive && !P.vectorCells() &&
         P.TimeLevels == 2;
}

std::string Emitter::deviceParams(bool Uses) const {
  return userScalarParams() + coefValueParams() +
         (Checked && Uses ? ", bool &an5d_unproved" : "");
}

std::vector<std::string> Emitter::deviceArgList(bool Uses,
                                                int64_t Level) const {
  std::vector<std::string> Args = scalarArgList();
  for (std::string &C : coefValueArgs(Level))
    Args.push_back(std::move(C));
  if (Checked && Uses)
    Args.push_back("an5d_unproved");
  return Args;
}

// The edge tiles' kernels divide exactly in both forms: their noinline
// boundary calls would make the flag spill, and they are a small share of
// the work. They still leave the planes alone after a flagged launch.
std::string Emitter::checkedName(const std::string &Fn, bool Uses) const {
  if (!Checked || !Uses)
    return Fn;
  return Fn + (EdgeTiles ? "<false>" : "<an5d_checked>");
}

void Emitter::checkedTemplate(bool Uses) {
  if (Checked && Uses)
    W.line("template <bool an5d_checked>");
}

bool Emitter::termsDivide() const {
  std::vector<ExactHelper> Found;
  for (const AssociativeForm::Term &T : A.Associative->Terms)
    collectExactHelpers(A, *T.E, Found);
  return !Found.empty();
}

bool Emitter::finishDivides() const {
  const AssociativeForm &F = *A.Associative;
  std::vector<ExactHelper> Found;
  if (F.Outer && exactHelper(A, *F.Outer))
    return true;
  if (F.Factor)
    collectExactHelpers(A, *F.Factor, Found);
  return !Found.empty();
}

std::string Emitter::checkedKernelParams() const {
  return Checked ? ", unsigned long long *an5d_unproved_launch, long "
                   "an5d_launch"
                 : "";
}

void Emitter::checkedKernelBegin() {
  if (!Checked)
    return;
  W.line("// After a launch that met a value outside a division's proved "
         "range, leave the planes");
  W.line("// alone: the host runs that launch and the ones after it again, "
         "exactly.");
  W.line("if (an5d_checked && *an5d_unproved_launch < (unsigned long "
         "long)an5d_launch)");
  W.indent();
  W.line("return;");
  W.dedent();
  W.line(EdgeTiles ? "bool an5d_unproved = false; // never set: this "
                     "kernel divides exactly"
                   : "bool an5d_unproved = false; // set by the division "
                     "helpers");
}

void Emitter::checkedKernelEnd() {
  if (!Checked || EdgeTiles)
    return;
  W.line("if (an5d_checked && an5d_unproved)");
  W.indent();
  W.line("atomicMin(an5d_unproved_launch, (unsigned long long)an5d_launch);");
  W.dedent();
}

void Emitter::launchChecked(const std::string &Kernel,
                            const std::string &Rest) {
  W.indent();
  if (!Checked) {
    W.line("AN5D_LAUNCH(" + Kernel + Rest);
  } else {
    W.line("if (an5d_unproved_launch != NULL)");
    W.line("  AN5D_LAUNCH(" + Kernel + "<true>" + Rest);
    W.line("else");
    W.line("  AN5D_LAUNCH(" + Kernel + "<false>" + Rest);
  }
  W.dedent();
}
