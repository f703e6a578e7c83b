//===- CodeWriter.cpp - The one indenting writer of generated code -------===//
#include "an5d/CodeGen.h"

using namespace an5d;

CodeWriter &CodeWriter::line(const std::string &L) {
  if (!L.empty())
    Out.append(size_t(Level) * Width, ' ');
  Out += L;
  Out += '\n';
  return *this;
}

CodeWriter &CodeWriter::raw(const std::string &L) {
  Out += L;
  Out += '\n';
  return *this;
}

CodeWriter &CodeWriter::open(const std::string &Head) {
  line(Head.empty() ? "{" : Head + " {");
  ++Level;
  return *this;
}

CodeWriter &CodeWriter::close(const std::string &Tail) {
  dedent();
  return line("}" + Tail);
}

void CodeWriter::beginCapture() {
  Saved.emplace_back(std::move(Out), Level);
  Out.clear();
  Level = 0;
}

std::string CodeWriter::endCapture() {
  std::string Text = std::move(Out);
  Out = std::move(Saved.back().first);
  Level = Saved.back().second;
  Saved.pop_back();
  return Text;
}
