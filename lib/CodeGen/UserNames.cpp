//===- UserNames.cpp - The names of the user's identifiers in the output --===//
//
// The generated code declares many identifiers of its own (kernel locals,
// parameters, host variables, lambda parameters, helper functions), and
// builds more from the user's iterators (ext_<it>, <it>_first, tile_<it>,
// ...). A user name that equals one of them, or whose derived names do,
// would shadow or redeclare it: the file would not compile, or would
// silently read the wrong variable. Rather than keep a list of the
// generated names by hand, the file's code is written once with a marker
// for every user name; its identifiers are then exactly the generated
// code's own names (no marker) and the templates of the names each user
// name becomes (with its marker). A user name is kept when none of its
// names meets another; otherwise it gets a prefix until none does.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include <cctype>
#include <set>

using namespace an5d;
using namespace an5d::codegen;

/// The marker that stands for user name Index in the first writing.
static std::string marker(size_t Index) {
  return "__an5d_name" + std::to_string(Index) + "__";
}

static bool identStart(char C) {
  return std::isalpha(static_cast<unsigned char>(C)) || C == '_';
}

static bool identChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
}

/// The identifiers of C++ code that name something in scope: comments,
/// string and character literals, numbers, the directive word of a
/// preprocessor line, an #include's header name and the member after '.'
/// or '->' are left out.
static std::set<std::string> identifiers(const std::string &Code) {
  std::set<std::string> R;
  size_t I = 0, E = Code.size();
  bool Member = false;    // the previous token was '.' or '->'
  bool LineStart = true;  // only white space since the last newline
  while (I < E) {
    char C = Code[I];
    if (C == '\n') {
      LineStart = true;
      ++I;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(C))) {
      ++I;
      continue;
    }
    if (Code.compare(I, 2, "//") == 0) {
      I = Code.find('\n', I);
      I = I == std::string::npos ? E : I;
      continue;
    }
    if (Code.compare(I, 2, "/*") == 0) {
      I = Code.find("*/", I + 2);
      I = I == std::string::npos ? E : I + 2;
      continue;
    }
    bool AtLineStart = LineStart;
    LineStart = false;
    if (C == '#' && AtLineStart) {
      // The directive word; an #include's header name with it.
      size_t J = I + 1;
      while (J < E && (Code[J] == ' ' || Code[J] == '\t'))
        ++J;
      size_t W = J;
      while (J < E && identChar(Code[J]))
        ++J;
      if (Code.compare(W, J - W, "include") == 0) {
        J = Code.find('\n', J);
        J = J == std::string::npos ? E : J;
      }
      I = J;
      Member = false;
      continue;
    }
    if (C == '"' || C == '\'') {
      size_t J = I + 1;
      while (J < E && Code[J] != C && Code[J] != '\n')
        J += Code[J] == '\\' ? 2 : 1;
      I = J + 1;
      Member = false;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(C)) ||
        (C == '.' && I + 1 < E &&
         std::isdigit(static_cast<unsigned char>(Code[I + 1])))) {
      // A pp-number: digits, letters, '.', and a sign after an exponent.
      size_t J = I + 1;
      while (J < E && (identChar(Code[J]) || Code[J] == '.' ||
                       ((Code[J] == '+' || Code[J] == '-') &&
                        std::string("eEpP").find(Code[J - 1]) !=
                            std::string::npos)))
        ++J;
      I = J;
      Member = false;
      continue;
    }
    if (identStart(C)) {
      size_t J = I;
      while (J < E && identChar(Code[J]))
        ++J;
      if (!Member)
        R.insert(Code.substr(I, J - I));
      I = J;
      Member = false;
      continue;
    }
    Member = C == '.' || (C == '-' && I + 1 < E && Code[I + 1] == '>');
    I += Code.compare(I, 2, "->") == 0 ? 2 : 1;
  }
  return R;
}

/// The host runtime's #define lines (with their continuations): the
/// macros expand where the generated code uses them (AN5D_CHECK calls
/// fprintf and exit), so their identifiers count as the generated code's.
static std::string runtimeMacros() {
  std::string R, Text = RuntimeHeaderText;
  size_t I = 0;
  bool InDefine = false;
  while (I < Text.size()) {
    size_t End = Text.find('\n', I);
    End = End == std::string::npos ? Text.size() : End;
    std::string Line = Text.substr(I, End - I);
    if (!InDefine && Line.rfind("#define ", 0) == 0)
      InDefine = true;
    if (InDefine) {
      R += Line + "\n";
      InDefine = !Line.empty() && Line.back() == '\\';
    }
    I = End + 1;
  }
  return R;
}

/// Template with every marker replaced: by Chosen's name where one is
/// chosen (non-empty), else left in place.
static std::string substitute(const std::string &Template,
                              const std::vector<std::string> &Chosen) {
  std::string R;
  size_t I = 0;
  while (I < Template.size()) {
    size_t M = Template.find("__an5d_name", I);
    if (M == std::string::npos)
      break;
    size_t D = M + 11, J = D;
    while (J < Template.size() &&
           std::isdigit(static_cast<unsigned char>(Template[J])))
      ++J;
    if (J == D || Template.compare(J, 2, "__") != 0) {
      R += Template.substr(I, D - I);
      I = D;
      continue;
    }
    size_t Index = std::stoul(Template.substr(D, J - D));
    R += Template.substr(I, M - I);
    R += Index < Chosen.size() && !Chosen[Index].empty()
             ? Chosen[Index]
             : Template.substr(M, J + 2 - M);
    I = J + 2;
  }
  return R + Template.substr(I);
}

UserNames an5d::codegen::chooseUserNames(const Stencil &S,
                                         const StencilAnalysis &A,
                                         const std::vector<Plan> &Plans,
                                         const SourceText &Src) {
  // The user's names in order: spatial iterators, then scalars.
  std::vector<std::string> Original;
  std::vector<std::string> Prefix;
  for (const Loop &L : S.Space) {
    Original.push_back(L.Iter);
    Prefix.push_back("it_");
  }
  for (const ScalarVar &V : S.Scalars) {
    Original.push_back(V.Name);
    Prefix.push_back("scalar_");
  }
  UserNames Marked;
  for (size_t I = 0; I < Original.size(); ++I) {
    if (I < S.Space.size())
      Marked.Iter.push_back(marker(I));
    else
      Marked.Scalar[Original[I]] = marker(I);
  }
  GeneratedKernels Scratch;
  std::set<std::string> Idents =
      Emitter(S, A, Plans, 0, Src, Scratch, Marked).generatedCode();
  for (const std::string &Id : identifiers(runtimeMacros()))
    Idents.insert(Id);

  // The generated code's own names, and per user name the templates of
  // the identifiers it is part of.
  std::set<std::string> Taken;
  std::vector<std::set<std::string>> Templates(Original.size());
  for (const std::string &Id : Idents) {
    bool Mentions = false;
    for (size_t I = 0; I < Original.size(); ++I)
      if (Id.find(marker(I)) != std::string::npos) {
        Templates[I].insert(Id);
        Mentions = true;
      }
    if (!Mentions)
      Taken.insert(Id);
  }

  std::vector<std::string> Chosen(Original.size());
  for (size_t I = 0; I < Original.size(); ++I) {
    std::string Name = Original[I];
    while (true) {
      Chosen[I] = Name;
      std::set<std::string> Mine;
      // an5d and AN5D begin the names of the runtime and of an5dc's macros.
      bool Clash = Name.rfind("an5d", 0) == 0 || Name.rfind("AN5D", 0) == 0;
      for (const std::string &T : Templates[I]) {
        std::string Id = substitute(T, Chosen);
        Clash |= Taken.count(Id) || !Mine.insert(Id).second;
      }
      if (!Clash) {
        Taken.insert(Mine.begin(), Mine.end());
        break;
      }
      Name = Prefix[I] + Name;
    }
  }

  UserNames Names;
  for (size_t I = 0; I < Original.size(); ++I) {
    if (I < S.Space.size())
      Names.Iter.push_back(Chosen[I]);
    else
      Names.Scalar[Original[I]] = Chosen[I];
    if (Chosen[I] != Original[I])
      Names.Renamed.push_back({Original[I], Chosen[I]});
  }
  return Names;
}

std::set<std::string> Emitter::generatedCode() {
  OwnCodeOnly = true;
  run();
  return identifiers(W.str());
}
