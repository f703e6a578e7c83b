//===- KernelIR.cpp - Dump and CUDA printer of kernel bodies -------------===//
#include "an5d/KernelIR.h"
#include "an5d/CodeGen.h"

#include "llvm/ADT/StringRef.h"

#include <cassert>

using namespace an5d;

namespace {

const char *kindName(KernelOpKind K) {
  switch (K) {
  case KernelOpKind::Code: return "code";
  case KernelOpKind::Comment: return "comment";
  case KernelOpKind::Phase: return "phase";
  case KernelOpKind::Break: return "break-if";
  case KernelOpKind::Loop: return "loop";
  case KernelOpKind::If: return "if";
  case KernelOpKind::Else: return "else";
  case KernelOpKind::Scope: return "scope";
  case KernelOpKind::End: return "end";
  case KernelOpKind::CopyAsync: return "copy-async";
  case KernelOpKind::CopyRow: return "copy-row";
  case KernelOpKind::Commit: return "commit";
  case KernelOpKind::Wait: return "wait";
  case KernelOpKind::Move: return "move";
  case KernelOpKind::Load: return "load";
  case KernelOpKind::Select: return "select";
  case KernelOpKind::SharedStore: return "shared-store";
  case KernelOpKind::Barrier: return "barrier";
  case KernelOpKind::Compute: return "compute";
  case KernelOpKind::GlobalStore: return "store";
  case KernelOpKind::Advance: return "advance";
  }
  return "?";
}

std::string join(const std::vector<std::string> &Args) {
  std::string R;
  for (const std::string &A : Args)
    R += (R.empty() ? "" : ", ") + A;
  return R;
}

} // namespace

/// "L1 x-2", "L0 x", "bnd L2 x+1", "L1 x-1 (2 terms)".
static std::string valueText(const RowValue &V, const std::string &Counter) {
  std::string R = (V.Boundary ? "bnd L" : "L") + std::to_string(V.Level) +
                  " " + Counter;
  if (V.Row)
    R += (V.Row > 0 ? "+" : "") + std::to_string(V.Row);
  if (V.Terms)
    R += " (" + std::to_string(V.Terms) + " term" + (V.Terms > 1 ? "s" : "") +
         ")";
  return R;
}

static std::string operandText(const Operand &O, const std::string &Counter) {
  std::string Name = O.Name;
  if (O.Modulo)
    Name += "#(" + std::to_string(O.Part) + "+" + Counter + ")%" +
            std::to_string(O.Modulo);
  else if (O.Where == Place::SharedBuffer && O.Part)
    Name += "#" + std::to_string(O.Part);
  return Name + (O.OwnElement ? "(own)" : "") + "{" +
         valueText(O.Value, Counter) + "}";
}

void KernelBody::dump(llvm::raw_ostream &OS) const {
  OS << "kernel " << Name << "\n";
  unsigned Depth = 1;
  for (const KernelOp &Op : Ops) {
    if (Op.Kind == KernelOpKind::End)
      --Depth;
    OS.indent(2 * Depth) << kindName(Op.Kind);
    switch (Op.Kind) {
    case KernelOpKind::Code: {
      llvm::StringRef First = llvm::StringRef(Op.Src).split('\n').first;
      size_t Lines = llvm::StringRef(Op.Src).count('\n') + 1;
      OS << " (" << Lines << " line" << (Lines == 1 ? "" : "s") << ") "
         << First.trim();
      break;
    }
    case KernelOpKind::Comment:
    case KernelOpKind::Phase:
      OS << " " << (Op.Kind == KernelOpKind::Phase ? std::to_string(Op.N) + ": "
                                                   : "")
         << Op.Note;
      break;
    case KernelOpKind::Break:
    case KernelOpKind::If:
      OS << " " << Op.Test;
      break;
    case KernelOpKind::Wait:
      OS << " prior " << Op.N;
      break;
    case KernelOpKind::CopyRow:
      OS << " " << (Op.Head.empty() ? "" : "(" + Op.Head + ") ")
         << llvm::StringRef(Op.Src).split('(').first;
      break;
    case KernelOpKind::Compute:
      OS << " " << (Op.Dst.empty() ? "" : Op.Dst + " = ") << Op.Src;
      break;
    case KernelOpKind::Advance:
      OS << " " << Op.Src;
      break;
    case KernelOpKind::GlobalStore:
      OS << " " << Op.Dst;
      break;
    default:
      break;
    }
    if (Op.Kind == KernelOpKind::CopyAsync && !Op.Test.empty())
      OS << (Op.ZeroFill ? " zero-filled outside" : " stored outside");
    if (!Op.Writes.empty()) {
      OS << " ->";
      for (const Operand &O : Op.Writes)
        OS << " " << operandText(O, Counter);
    }
    if (!Op.Reads.empty()) {
      OS << " <-";
      for (const Operand &O : Op.Reads)
        OS << " " << operandText(O, Counter);
    }
    OS << "\n";
    if (Op.Kind == KernelOpKind::Loop || Op.Kind == KernelOpKind::If ||
        Op.Kind == KernelOpKind::Else || Op.Kind == KernelOpKind::Scope)
      ++Depth;
  }
}

void an5d::printKernel(const KernelBody &Body, CodeWriter &W) {
  auto guarded = [&](const std::string &Test, const std::string &Line) {
    if (Test.empty()) {
      W.line(Line);
      return;
    }
    W.line("if (" + Test + ")");
    W.indent();
    W.line(Line);
    W.dedent();
  };
  for (const KernelOp &Op : Body.Ops) {
    switch (Op.Kind) {
    case KernelOpKind::Code: {
      llvm::StringRef Rest = Op.Src;
      while (!Rest.empty()) {
        auto [Line, Tail] = Rest.split('\n');
        if (Line.starts_with("#"))
          W.raw(Line.str());
        else
          W.line(Line.str());
        Rest = Tail;
      }
      break;
    }
    case KernelOpKind::Comment:
    case KernelOpKind::Phase:
      W.line("// " + Op.Note);
      break;
    case KernelOpKind::Break:
      guarded(Op.Test, "break;");
      break;
    case KernelOpKind::Loop:
      W.open(Op.Src);
      break;
    case KernelOpKind::If:
      W.open("if (" + Op.Test + ")");
      break;
    case KernelOpKind::Else:
      W.open("else");
      break;
    case KernelOpKind::Scope:
      W.open("");
      break;
    case KernelOpKind::End:
      W.close();
      break;
    case KernelOpKind::CopyAsync: {
      std::string Copy = "__pipeline_memcpy_async(&" + Op.Dst + ", ";
      std::string Size = "sizeof(" + Body.Elem + ")";
      if (Op.Test.empty()) {
        W.line(Copy + Op.Src + ", " + Size + ");");
      } else if (Op.ZeroFill) {
        // Boundary values are copied asynchronously too: their latency
        // overlaps like the interior's.
        W.open("");
        W.line("size_t zeros = 0;");
        W.line("const " + Body.Elem + " *source = " + Op.Test + " ? " +
               Op.Src + " : " + Op.Alt + ";");
        W.line(Copy + "source, " + Size + ", zeros);");
        W.close();
      } else {
        guarded(Op.Test, Copy + Op.Src + ", " + Size + ");");
        W.line("else");
        W.indent();
        W.line(Op.Dst + " = " + Op.Alt + ";");
        W.dedent();
      }
      break;
    }
    case KernelOpKind::CopyRow:
      if (Op.Head.empty()) {
        W.line(Op.Src);
        break;
      }
      W.line(Op.Head);
      W.indent();
      W.line(Op.Src);
      W.dedent();
      break;
    case KernelOpKind::Commit:
      W.line("__pipeline_commit();");
      break;
    case KernelOpKind::Wait:
      W.line("__pipeline_wait_prior(" +
             (Op.Src.empty() ? std::to_string(Op.N) : Op.Src) + ");" +
             (Op.Note.empty() ? "" : " // " + Op.Note));
      break;
    case KernelOpKind::Move:
    case KernelOpKind::Load:
    case KernelOpKind::Select:
      W.line((Op.Type.empty() ? "" : "const " + Op.Type + " ") + Op.Dst +
             " = " +
             (Op.Test.empty() ? Op.Src
                              : Op.Test + " ? " + Op.Src + " : " + Op.Alt) +
             ";");
      break;
    case KernelOpKind::SharedStore:
    case KernelOpKind::GlobalStore:
      guarded(Op.Test, Op.Dst + " = " + Op.Src + ";");
      break;
    case KernelOpKind::Barrier:
      W.line("__syncthreads();");
      break;
    case KernelOpKind::Compute: {
      std::string Lhs;
      if (!Op.Dst.empty())
        Lhs = (Op.Type.empty() ? "" : "const " + Op.Type + " ") + Op.Dst +
              " = ";
      std::string Tail = ";" + (Op.Note.empty() ? "" : " // " + Op.Note);
      std::string Call = Lhs + Op.Src + "(" + join(Op.Args) + ")" + Tail;
      if (!Op.Wrap || Call.size() <= 100) {
        W.line(Call);
        break;
      }
      W.line(Lhs + Op.Src + "(");
      W.indent();
      W.indent();
      for (size_t I = 0; I < Op.Args.size(); ++I)
        W.line(Op.Args[I] + (I + 1 < Op.Args.size() ? "," : ")" + Tail));
      W.dedent();
      W.dedent();
      break;
    }
    case KernelOpKind::Advance:
      W.line("++" + Op.Src + ";");
      for (const std::string &L : Op.Args)
        W.line(L);
      break;
    }
  }
}
