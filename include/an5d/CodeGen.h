//===- an5d/CodeGen.h - The CUDA file an5dc writes ------------------------===//
//
// Stage 5. Writes one self-contained CUDA file: a header comment with the
// parameters, the kernels (one per degree 1..bT), the host code that
// schedules the launches, then the user's program text with the scop region
// replaced by a call into that host code (and, under -DAN5D_VERIFY, a CPU
// run of the original loop nest to compare against). See docs/codegen.md.
//
//===----------------------------------------------------------------------===//
#ifndef AN5D_CODEGEN_H
#define AN5D_CODEGEN_H

#include "an5d/Analysis.h"
#include "an5d/KernelIR.h"
#include "an5d/Plan.h"
#include "an5d/Stencil.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace an5d {

/// The user's source text and where the scop region lies in it. Filled by
/// the driver from the SourceManager; code generation never sees the AST.
struct SourceText {
  std::string Text;          // the whole main file
  size_t ScopBegin = 0;      // start of the '#pragma scop' line
  size_t ScopEnd = 0;        // just past the '#pragma endscop' line
  size_t BodyBegin = 0;      // the text between the two pragma lines
  size_t BodyEnd = 0;
  unsigned EndLine = 0;      // line of '#pragma endscop'
  std::string Indent;        // leading white space of the '#pragma scop' line
  /// The 'for' of the outermost spatial loop: the CPU reference of
  /// -DAN5D_VERIFY runs it in parallel with OpenMP when that is enabled.
  size_t SpaceLoop = 0;
  /// Preprocessor lines for the -D/-U options an5dc parsed the input with:
  /// the kernels are specialised for them, so the output must define them.
  std::vector<std::string> MacroLines;
  /// The input file's name as the contents of a C string literal (escaped,
  /// hence also safe in a '//' comment): #line directives and comments.
  std::string FileName;
};

/// The text of runtime/an5d_runtime.h, the host code every generated file
/// shares (embedded by the build: cmake/EmbedText.cmake).
extern const char *const RuntimeHeaderText;
/// The text of runtime/an5d_runtime_mpi.h, after it in files generated with
/// --mpi.
extern const char *const MpiRuntimeText;

/// Writes an indented text, one line at a time. Every line of the
/// generated file goes through one of these.
class CodeWriter {
public:
  explicit CodeWriter(unsigned Width = 2) : Width(Width) {}
  /// One line at the current indentation ("" for an empty line).
  CodeWriter &line(const std::string &L);
  /// A line that starts at column 0 whatever the indentation (#directives).
  CodeWriter &raw(const std::string &L);
  /// "Head {" then indents; close() dedents and writes "}" + Tail.
  CodeWriter &open(const std::string &Head);
  CodeWriter &close(const std::string &Tail = "");
  void indent() { ++Level; }
  void dedent() {
    if (Level)
      --Level;
  }
  const std::string &str() const { return Out; }
  /// From here on writes into a text of its own at level 0 (a kernel
  /// body's code between typed operations); endCapture returns that text
  /// and resumes the file where it was.
  void beginCapture();
  std::string endCapture();
  /// The indentation level, relative to the capture's start.
  unsigned level() const { return Level; }

private:
  unsigned Width;
  unsigned Level = 0;
  std::string Out;
  std::vector<std::pair<std::string, unsigned>> Saved;
};

/// The generated CUDA file. One plan: its kernels and host code. Several
/// (an5dc --autotune): every plan's kernels in a namespace of their own and
/// host code that times them on the first run for a GPU and grid size,
/// remembers the fastest in a cache file and runs it.
std::string emitCuda(const Stencil &S, const StencilAnalysis &A,
                     const std::vector<Plan> &Plans, const SourceText &Src);

/// The kernel bodies of a generated file, in file order, and what the
/// verifier found in them (one line each; none for a correct file).
struct GeneratedKernels {
  std::vector<KernelBody> Bodies;
  std::vector<std::string> Errors;
  /// Test hook: removes the first operation of this kind from every body
  /// before it is verified (to prove the verifier sees it missing).
  std::optional<KernelOpKind> Drop;
};

/// Stage 5 for several fields (StencilForm::Fields): the whole output
/// file, the kernels' bodies kept in Kernels. Several plans are
/// --autotune's candidates (N.5D), the fastest chosen at run time.
std::string emitFieldsCuda(const Stencil &S, const FieldsAnalysis &A,
                           const std::vector<FieldsPlan> &Plans,
                           const SourceText &Src, GeneratedKernels &Kernels);

/// emitCuda, with the kernel bodies kept in Kernels. The file is complete
/// even when Kernels.Errors is not empty; the driver then writes nothing.
std::string emitCuda(const Stencil &S, const StencilAnalysis &A,
                     const std::vector<Plan> &Plans, const SourceText &Src,
                     GeneratedKernels &Kernels);

/// The update's floating literals that C uses as doubles and whose double
/// value a SASS instruction cannot carry (its immediates hold a double's
/// upper 32 bits): nvcc builds each in a register pair with two moves at
/// every use. In a __constant__ table each costs one load, with the same
/// value (2D stencils only, where it measured faster).
struct CoefficientTable {
  /// Entry k is an5d_coef[k], initialized with the literal as written.
  std::vector<std::string> Spellings;
  std::vector<ScalarType> Types;
  /// "an5d_coef[k]" for a literal of the table, "" for any other.
  std::string nameOf(const Expr &Literal) const;
};

/// The paths the generated program can take at run time and how it
/// chooses (in memory or out of core), one line each without a comment
/// prefix: the file's header and --dump=plan print them.
std::vector<std::string> runPaths(const Plan &P);

/// The table of S's update, literals in order of first appearance; empty
/// for 3D stencils.
CoefficientTable collectCoefficients(const Stencil &S);

/// Writes the table's __constant__ array (nothing for an empty table).
void writeCoefficientTable(CodeWriter &W, const CoefficientTable &T);

/// A C expression printed for the generated code: the update's reads
/// replaced by ReadText[read index], scalars renamed through ScalarName
/// (names not in it print as they are), literals of Coefs by their table
/// entry, and every call argument whose type differs from the callee's
/// parameter type given an explicit cast, so that C++ overloads compute what
/// C computes (sqrt(float) is double in C). A's divisions by a constant,
/// float reciprocals and square roots call their exact helper
/// (exactHelper); Checked calls its checked form
/// (writeExactHelpers), which records a value outside the proved range in
/// the caller's an5d_unproved. Coefficient reads print as CoefText[index],
/// the time step as a value as TimeText.
std::string printUpdate(const Expr &E, const std::vector<std::string> &ReadText,
                        const std::map<std::string, std::string> &ScalarName,
                        const CoefficientTable &Coefs,
                        const StencilAnalysis &A, bool Checked = false,
                        llvm::ArrayRef<std::string> CoefText = {},
                        const std::string &TimeText = "");

/// A power-of-ten tolerance as the generated code spells it: "1e-4".
std::string toleranceLiteral(double Tolerance);

/// The header's verification lines: how -DAN5D_VERIFY compares
/// (verifyTolerance) and, under --fast-math, what differs from the C loop.
void writeVerifyNote(CodeWriter &W, const Plan &P);

/// Writes the device functions of Helpers (analysis results, see
/// Analysis.h) and the warp vote they share; nothing when there are none.
/// Checked: each helper is a template on an5d_checked, whose true form only
/// records in its flag argument that a lane left the proved range (the host
/// then redoes the launch with the false form, the exact one with the vote).
void writeExactHelpers(CodeWriter &W, const std::vector<ExactHelper> &Helpers,
                       bool Checked = false);

} // namespace an5d

#endif
