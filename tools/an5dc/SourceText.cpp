//===- SourceText.cpp - The user's text for the emitter -------------------===//
//
// The generated file carries the user's program with the scop region
// replaced; this is where its text is taken from clang's buffer and made
// something the host compiler reads as clang read the input.
//
//===----------------------------------------------------------------------===//
#include "SourceText.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>

using namespace an5d;

namespace {

/// '#define'/'#undef' lines for the -D and -U options among Args.
std::vector<std::string> macroLines(const std::vector<std::string> &Args) {
  std::vector<std::string> Lines;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    bool Define = A.size() >= 2 && A[0] == '-' && A[1] == 'D';
    bool Undef = A.size() >= 2 && A[0] == '-' && A[1] == 'U';
    if (!Define && !Undef)
      continue;
    std::string Body = A.drop_front(2).str();
    if (Body.empty() && I + 1 < Args.size())
      Body = Args[++I];
    auto [Name, Value] = llvm::StringRef(Body).split('=');
    if (Name.empty())
      continue;
    Lines.push_back("#undef " + Name.str());
    if (Define)
      Lines.push_back("#define " + Name.str() + " " +
                      (Body.find('=') == std::string::npos ? "1" : Value.str()));
  }
  return Lines;
}

/// Where Offset of the original text lands after Edits (none inside it).
size_t shifted(size_t Offset, const std::vector<SourceEdit> &Edits) {
  size_t Out = Offset;
  for (const SourceEdit &E : Edits)
    if (E.Offset + E.Length <= Offset)
      Out = Out + E.Text.size() - E.Length;
  return Out;
}

/// Edits that give the text '\n' line breaks ("\r\n" and a lone '\r' are
/// line breaks to clang, but the emitter and its line counts split at
/// '\n') and drop a UTF-8 byte-order mark at its start (which clang skips
/// and the generated file would carry into its middle).
std::vector<SourceEdit> plainTextEdits(const std::string &T) {
  std::vector<SourceEdit> Edits;
  if (llvm::StringRef(T).starts_with("\xEF\xBB\xBF"))
    Edits.push_back({0, 3, ""});
  for (size_t I = T.find('\r'); I != std::string::npos; I = T.find('\r', I + 1))
    Edits.push_back({I, 1, T.compare(I, 2, "\r\n") == 0 ? "" : "\n"});
  return Edits;
}

/// Text spelled as the contents of a C string literal: quotes, backslashes
/// and control characters escaped, so that it is also safe in a '//'
/// comment (no line break, no line splice).
std::string cStringText(const std::string &Text) {
  std::string Out;
  for (char C : Text) {
    unsigned char U = static_cast<unsigned char>(C);
    if (C == '\\' || C == '"')
      Out += {'\\', C};
    else if (C == '\n')
      Out += "\\n";
    else if (C == '\t')
      Out += "\\t";
    else if (U < 0x20 || U == 0x7f) // three octal digits end the escape
      Out += {'\\', char('0' + (U >> 6)), char('0' + ((U >> 3) & 7)),
              char('0' + (U & 7))};
    else
      Out += C;
  }
  return Out;
}

/// The user's text around the scop region, as written.
SourceText describeOriginalSource(SourceSession &Session, const Stencil &S) {
  clang::SourceManager &SM = Session.sources();
  SourceText Src;
  Src.Text = SM.getBufferData(SM.getMainFileID()).str();
  const std::string &T = Src.Text;
  auto offsetOf = [&](clang::SourceLocation L) {
    return size_t(SM.getFileOffset(SM.getExpansionLoc(L)));
  };
  // A line ends at "\r\n", '\n' or a lone '\r', as clang reads it.
  auto lineStart = [&](size_t Off) {
    size_t NL = Off == 0 ? std::string::npos : T.find_last_of("\r\n", Off - 1);
    return NL == std::string::npos ? size_t(0) : NL + 1;
  };
  auto nextLine = [&](size_t Off) {
    size_t NL = T.find_first_of("\r\n", Off);
    if (NL == std::string::npos)
      return T.size();
    return NL + (T.compare(NL, 2, "\r\n") == 0 ? 2 : 1);
  };
  size_t Begin = offsetOf(S.ScopRange.getBegin());
  size_t End = offsetOf(S.ScopRange.getEnd());
  Src.ScopBegin = lineStart(Begin);
  Src.ScopEnd = nextLine(End);
  Src.BodyBegin = nextLine(Begin);
  Src.BodyEnd = lineStart(End);
  Src.EndLine = SM.getExpansionLineNumber(S.ScopRange.getEnd());
  Src.SpaceLoop = offsetOf(S.Space[0].Range.getBegin());
  size_t I = Src.ScopBegin;
  while (I < T.size() && (T[I] == ' ' || T[I] == '\t'))
    Src.Indent += T[I++];
  return Src;
}

} // namespace

SourceText an5dc::describeSource(SourceSession &Session, const Stencil &S,
                                 const std::vector<std::string> &CompilerArgs) {
  SourceText Src = describeOriginalSource(Session, S);
  // The scop region is replaced, so edits inside it are left out; the
  // line-break edits go everywhere but inside a compatibility edit (which
  // replaces that text).
  std::vector<SourceEdit> Edits;
  for (const SourceEdit &E : cxxCompatibilityEdits(Session))
    if (E.Offset + E.Length <= Src.ScopBegin || E.Offset >= Src.ScopEnd)
      Edits.push_back(E);
  std::vector<SourceEdit> Compat = Edits;
  for (const SourceEdit &E : plainTextEdits(Src.Text))
    if (std::none_of(Compat.begin(), Compat.end(), [&](const SourceEdit &C) {
          return C.Length && E.Offset < C.Offset + C.Length &&
                 C.Offset < E.Offset + E.Length;
        }))
      Edits.push_back(E);
  std::stable_sort(Edits.begin(), Edits.end(),
                   [](const SourceEdit &A, const SourceEdit &B) {
                     return A.Offset < B.Offset ||
                            (A.Offset == B.Offset && A.Length < B.Length);
                   });
  for (size_t *Off : {&Src.ScopBegin, &Src.ScopEnd, &Src.BodyBegin,
                      &Src.BodyEnd, &Src.SpaceLoop})
    *Off = shifted(*Off, Edits);
  Src.Text = applyEdits(Src.Text, Edits);
  Src.MacroLines = macroLines(CompilerArgs);
  Src.FileName = cStringText(S.FileName);
  return Src;
}
