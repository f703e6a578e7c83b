// Unit tests of the C-to-C++ rewriting applied to the user's program.
#include "an5d/Frontend.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

using namespace an5d;

namespace {

/// Parses Code as a C file and returns it with the C++ edits applied.
std::string rewrite(const std::string &Code) {
  char Path[] = "/tmp/an5d-cxxcompat-XXXXXX.c";
  int Fd = mkstemps(Path, 2);
  EXPECT_GE(Fd, 0);
  close(Fd);
  std::ofstream(Path) << Code;
  FrontendOptions Opts;
  Opts.InputFile = Path;
  std::unique_ptr<SourceSession> S = SourceSession::create(Opts);
  EXPECT_TRUE(S->parsed());
  std::string Out = applyEdits(Code, cxxCompatibilityEdits(*S));
  std::remove(Path);
  return Out;
}

} // namespace

TEST(CxxCompat, VlaParameterBecomesUntypedWithLocalView) {
  std::string Out = rewrite(
      "void f(int n, int m, float (*A)[n][m]) { A[0][1][2] = 3; }\n");
  EXPECT_EQ(Out, "void f(int n, int m, void *an5d_vla_A) { float (*A)[n][m] = "
                 "(float (*)[n][m])an5d_vla_A; A[0][1][2] = 3; }\n");
}

TEST(CxxCompat, ArrayParameterAndPrototype) {
  std::string Out = rewrite("void g(int n, double a[2][n]);\n"
                            "void g(int n, double a[2][n]) { a[1][0] = 0; }\n");
  EXPECT_EQ(Out, "void g(int n, void *a);\n"
                 "void g(int n, void *an5d_vla_a) { double (*a)[n] = "
                 "(double (*)[n])an5d_vla_a; a[1][0] = 0; }\n");
}

TEST(CxxCompat, ImplicitVoidPointerConversionGetsCast) {
  std::string Out = rewrite("#include <stdlib.h>\n"
                            "void h(int n) { double *p = malloc(8 * n); free(p); }\n");
  EXPECT_EQ(Out, "#include <stdlib.h>\n"
                 "void h(int n) { double *p = (double *)(malloc(8 * n)); free(p); }\n");
}

TEST(CxxCompat, ArgumentForVlaParameterIsNotCast) {
  std::string Out = rewrite("void f(int n, float (*A)[n]);\n"
                            "void g(int n, void *b) { f(n, b); }\n");
  EXPECT_EQ(Out, "void f(int n, void *A);\n"
                 "void g(int n, void *b) { f(n, b); }\n");
}

TEST(CxxCompat, ValidCxxIsLeftAlone) {
  std::string Code = "int k(int x) { return x + 1; }\n";
  EXPECT_EQ(rewrite(Code), Code);
}

TEST(ApplyEdits, SortedEdits) {
  EXPECT_EQ(applyEdits("abcdef", {{1, 2, "X"}, {4, 0, "Y"}}), "aXdYef");
}
