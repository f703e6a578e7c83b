//===- Stencil.cpp - Printing and arithmetic of the stencil description ---===//
#include "an5d/Stencil.h"

#include <cassert>
#include <sstream>

using namespace an5d;

const char *an5d::elemTypeName(ElemType T) {
  return T == ElemType::Float ? "float" : "double";
}

unsigned an5d::elemTypeBytes(ElemType T) {
  return T == ElemType::Float ? 4 : 8;
}

const char *an5d::scalarTypeName(ScalarType T) {
  switch (T) {
  case ScalarType::Int: return "int";
  case ScalarType::Float: return "float";
  case ScalarType::Double: return "double";
  case ScalarType::LongDouble: return "long double";
  case ScalarType::Other: return "?";
  }
  return "?";
}

AffineExpr AffineExpr::constant(int64_t C) {
  AffineExpr E;
  E.Constant = C;
  return E;
}

AffineExpr AffineExpr::symbol(const std::string &Name) {
  AffineExpr E;
  E.Coeffs[Name] = 1;
  return E;
}

AffineExpr AffineExpr::operator+(const AffineExpr &O) const {
  AffineExpr R = *this;
  R.Constant += O.Constant;
  for (const auto &[Name, C] : O.Coeffs)
    if ((R.Coeffs[Name] += C) == 0)
      R.Coeffs.erase(Name);
  return R;
}

AffineExpr AffineExpr::operator-(const AffineExpr &O) const {
  return *this + O.scaled(-1);
}

AffineExpr AffineExpr::scaled(int64_t Factor) const {
  AffineExpr R;
  if (Factor == 0)
    return R;
  R.Constant = Constant * Factor;
  for (const auto &[Name, C] : Coeffs)
    R.Coeffs[Name] = C * Factor;
  return R;
}

int64_t AffineExpr::coeff(const std::string &Name) const {
  auto It = Coeffs.find(Name);
  return It == Coeffs.end() ? 0 : It->second;
}

std::string AffineExpr::str(std::string (*Rename)(const std::string &)) const {
  std::ostringstream OS;
  bool First = true;
  auto term = [&](int64_t C, const std::string &Sym) {
    if (C == 0)
      return;
    int64_t Mag = C < 0 ? -C : C;
    if (First)
      OS << (C < 0 ? "-" : "");
    else
      OS << (C < 0 ? " - " : " + ");
    if (Sym.empty())
      OS << Mag;
    else if (Mag == 1)
      OS << Sym;
    else
      OS << Mag << "*" << Sym;
    First = false;
  };
  for (const auto &[Name, C] : Coeffs)
    term(C, Rename ? Rename(Name) : Name);
  term(Constant, "");
  if (First)
    OS << "0";
  return OS.str();
}

std::string Access::str(const std::string &Array, unsigned Skip) const {
  std::string Plane = TimeBase.str();
  if (TimeBase.Constant != 0 || TimeBase.Coeffs.size() != 1)
    Plane = "(" + Plane + ")";
  std::string S = Modulus == 1 ? Array
                 : Array + "[" + Plane + " % " + std::to_string(Modulus) + "]";
  for (size_t D = Skip; D < Space.size(); ++D)
    S += "[" + Space[D].str() + "]";
  return S;
}

std::string CoefAccess::str(const std::string &Array) const {
  std::string S = Array;
  for (const Subscript &X : Index) {
    AffineExpr E = AffineExpr::constant(X.Offset);
    if (!X.Iter.empty())
      E = E + AffineExpr::symbol(X.Iter);
    S += "[" + E.str() + "]";
  }
  return S;
}

const char *an5d::stencilFormName(StencilForm F) {
  switch (F) {
  case StencilForm::PlaneIndex: return "one array with a plane index";
  case StencilForm::TwoArrays: return "two arrays in turn";
  case StencilForm::PointerSwap: return "pointer swap";
  case StencilForm::CopyBack: return "copy-back";
  case StencilForm::InPlace: return "one array updated in place";
  case StencilForm::Fields: return "several fields";
  }
  return "?";
}

const std::string &Stencil::arrayOf(const Access &A) const {
  if (!planesAreArrays())
    return Array.Name;
  assert(PlaneArrays.size() >= 2 && "arrays in turn without their arrays");
  int64_t Shift = (A.TimeBase - AffineExpr::symbol(Time.Iter)).Constant;
  return PlaneArrays[Shift % PlaneArrays.size()].Name;
}

static const char *formName(ArrayForm F) {
  switch (F) {
  case ArrayForm::PointerToArray: return "pointer to array";
  case ArrayForm::ArrayParam: return "array parameter";
  case ArrayForm::LocalOrGlobal: return "array variable";
  case ArrayForm::FlatPointer: return "flat pointer";
  }
  return "?";
}

/// InDouble: E's value is an operand of a double operation (through
/// parentheses and unary signs), so C converts a float literal to double.
static void printExprTo(const Expr &E, const ExprSpelling &Spell,
                        std::string &Out, bool InDouble = false) {
  switch (E.K) {
  case Expr::Read:
    assert(E.ReadIndex < Spell.ReadText.size() && "a read without a text");
    Out += Spell.ReadText[E.ReadIndex];
    return;
  case Expr::CoefRead:
    assert(E.ReadIndex < Spell.CoefText.size() &&
           "a coefficient read without a text");
    Out += Spell.CoefText[E.ReadIndex];
    return;
  case Expr::Time:
    Out += Spell.TimeText.empty() ? E.Text : Spell.TimeText;
    return;
  case Expr::Scalar: {
    auto It = Spell.ScalarName.find(E.Text);
    Out += It == Spell.ScalarName.end() ? E.Text : It->second;
    return;
  }
  case Expr::Literal: {
    bool AsDouble = E.Type == ScalarType::Double ||
                    (E.Type == ScalarType::Float && InDouble);
    std::string Name = AsDouble && Spell.DoubleLiteral
                           ? Spell.DoubleLiteral(E)
                           : std::string();
    Out += Name.empty() ? E.Text : Name;
    return;
  }
  case Expr::Paren:
    Out += "(";
    printExprTo(E.Args[0], Spell, Out, InDouble);
    Out += ")";
    return;
  case Expr::Unary: {
    std::string Operand;
    printExprTo(E.Args[0], Spell, Operand, InDouble);
    // "- -x", not "--x", which would read as a decrement.
    bool Glue = !Operand.empty() && (Operand[0] == '-' || Operand[0] == '+');
    Out += E.Text + (Glue ? " " : "") + Operand;
    return;
  }
  case Expr::Binary:
    if (E.Text == "/" && Spell.ExactHelper) {
      const Expr *Operand = &E.Args[0];
      std::string Helper = Spell.ExactHelper(E, Operand);
      if (!Helper.empty()) {
        const Expr &X = *Operand;
        Out += Helper + "(";
        printExprTo(X.K == Expr::Paren ? X.Args[0] : X, Spell, Out,
                    E.Type == ScalarType::Double);
        Out += Spell.ExactHelperArgs + ")";
        return;
      }
    }
    {
      // A comparison computes in its operands' common type, a logical
      // operator on truth values.
      bool Wide = E.Type == ScalarType::Double;
      if (E.Type == ScalarType::Int && E.Text != "&&" && E.Text != "||")
        Wide = E.Args[0].Type == ScalarType::Double ||
               E.Args[1].Type == ScalarType::Double;
      printExprTo(E.Args[0], Spell, Out, Wide);
      Out += " " + E.Text + " ";
      printExprTo(E.Args[1], Spell, Out, Wide);
    }
    return;
  case Expr::Select:
    printExprTo(E.Args[0], Spell, Out);
    Out += " ? ";
    printExprTo(E.Args[1], Spell, Out, E.Type == ScalarType::Double);
    Out += " : ";
    printExprTo(E.Args[2], Spell, Out, E.Type == ScalarType::Double);
    return;
  case Expr::Call: {
    const Expr *Operand = nullptr;
    std::string Helper =
        Spell.ExactHelper ? Spell.ExactHelper(E, Operand) : std::string();
    Out += (Helper.empty() ? E.Text : Helper) + "(";
    for (size_t I = 0; I < E.Args.size(); ++I) {
      if (I)
        Out += ", ";
      ScalarType Param =
          I < E.ParamTypes.size() ? E.ParamTypes[I] : ScalarType::Other;
      bool Cast = Spell.CastCallArguments && Param != ScalarType::Other &&
                  Param != E.Args[I].Type;
      if (Cast)
        Out += std::string("(") + scalarTypeName(Param) + ")(";
      printExprTo(E.Args[I], Spell, Out);
      if (Cast)
        Out += ")";
    }
    Out += (Helper.empty() ? "" : Spell.ExactHelperArgs) + ")";
    return;
  }
  case Expr::Cast:
    Out += "(" + E.Text + ")";
    printExprTo(E.Args[0], Spell, Out);
    return;
  }
}

std::string an5d::printExprAs(const Expr &E, const ExprSpelling &Spell) {
  std::string Out;
  printExprTo(E, Spell, Out);
  return Out;
}

std::vector<std::string> an5d::coefReadTexts(const Stencil &S) {
  std::vector<std::string> Text;
  for (const CoefAccess &C : S.CoefReads)
    Text.push_back(C.str(S.CoefArrays[C.Array].Name));
  return Text;
}

std::string an5d::printExpr(const Stencil &S, const Expr &E) {
  ExprSpelling Spell;
  std::vector<std::string> ReadText;
  for (const Access &R : S.Reads)
    ReadText.push_back(R.str(S.Array.Name));
  Spell.ReadText = ReadText;
  std::vector<std::string> CoefText = coefReadTexts(S);
  Spell.CoefText = CoefText;
  return printExprAs(E, Spell);
}

void Stencil::dump(llvm::raw_ostream &OS) const {
  OS << "stencil " << Function << " (" << FileName << ":" << ScopLine
     << ")\n";
  if (Form == StencilForm::Fields) {
    dumpFields(OS);
    return;
  }
  OS << "  element type: " << elemTypeName(Elem) << "\n";
  OS << "  form: " << stencilFormName(Form);
  if (stepsPerIteration() > 1)
    OS << " (" << stepsPerIteration() << " Jacobi steps per time iteration)";
  OS << "\n";
  auto array = [&](const std::string &What, const ArrayInfo &A) {
    OS << "  " << What << ": " << A.Name;
    for (size_t D = 0; D < A.Extents.size(); ++D)
      OS << "[" << (A.Extents[D] ? A.Extents[D]->str() : "?") << "]";
    OS << " (" << formName(A.Form) << ")\n";
  };
  if (planesAreArrays()) {
    for (size_t Pl = 0; Pl < PlaneArrays.size(); ++Pl)
      array("plane " + std::to_string(Pl), PlaneArrays[Pl]);
  } else {
    array("array", Array);
  }
  OS << "  params: [";
  for (size_t I = 0; I < Params.size(); ++I)
    OS << (I ? ", " : "") << Params[I];
  OS << "]\n";
  auto declared = [](const Loop &L) {
    return L.IterDeclaredOutside ? " (declared before the loop)" : "";
  };
  const Loop &Written = timeLoopAsWritten();
  OS << "  time loop: " << Written.Iter << " from " << Written.Lower.str()
     << " to " << Written.Upper.str() << declared(Written) << "\n";
  if (planesAreArrays())
    OS << "  steps: " << Time.Iter << " from " << Time.Lower.str() << " to "
       << Time.Upper.str()
       << (PlaneArrays.size() == 3
               ? " (step s writes plane (s + 2) % 3)\n"
           : Form == StencilForm::CopyBack
               ? " (step s reads plane s % 2; both start as plane 0)\n"
               : " (an even step reads plane 0, an odd one plane 1)\n");
  for (size_t D = 0; D < Space.size(); ++D)
    OS << "  space loop " << D << ": " << Space[D].Iter << " from "
       << Space[D].Lower.str() << " to " << Space[D].Upper.str()
       << (D == 0 ? " (streaming)" : "") << declared(Space[D]) << "\n";
  std::vector<const Loop *> AsWritten = spaceAsWritten();
  bool Reordered = false;
  for (size_t D = 0; D < AsWritten.size(); ++D)
    Reordered |= AsWritten[D] != &Space[D];
  if (Reordered) {
    OS << "  space loops as written, outermost first:";
    for (const Loop *L : AsWritten)
      OS << " " << L->Iter;
    OS << " (put into the array's order)\n";
  }
  OS << "  scalars: [";
  for (size_t I = 0; I < Scalars.size(); ++I)
    OS << (I ? ", " : "") << scalarTypeName(Scalars[I].Type) << " "
       << Scalars[I].Name;
  OS << "]\n";
  if (planesAreArrays()) {
    // Each statement as written: its own array where the view has plane
    // (t + 1) % 2, the other where it has t % 2.
    // A copy-back's second statement is the copy, printed below.
    const size_t Updates = Form == StencilForm::CopyBack ? 1 : Statements.size();
    for (size_t I = 0; I < Updates; ++I) {
      auto text = [&](const Access &A) {
        bool Written = (A.TimeBase - AffineExpr::symbol(Time.Iter)).Constant;
        std::string T = Written ? Statements[I].Writes : Statements[I].Reads;
        // Three pointers rotated: each access names its own pointer.
        if (PlaneArrays.size() == 3)
          T = arrayOf(A);
        for (const AffineExpr &E : A.Space)
          T += "[" + E.str() + "]";
        return T;
      };
      std::vector<std::string> ReadText;
      for (const Access &R : Reads)
        ReadText.push_back(text(R));
      ExprSpelling Spell;
      Spell.ReadText = ReadText;
      std::vector<std::string> CoefText = coefReadTexts(*this);
      Spell.CoefText = CoefText;
      OS << "  statement " << I << ": " << text(Write) << " = "
         << printExprAs(Update, Spell) << "\n";
    }
  }
  if (Form == StencilForm::CopyBack) {
    std::string Cell;
    for (const AffineExpr &E : Write.Space)
      Cell += "[" + E.str() + "]";
    OS << "  copy-back: " << PlaneArrays[0].Name << Cell << " = "
       << PlaneArrays[1].Name << Cell << " after each step\n";
  }
  if (Form == StencilForm::PointerSwap && PlaneArrays.size() == 3)
    OS << "  rotation: " << PlaneArrays[0].Name << " <- " << PlaneArrays[1].Name
       << " <- " << PlaneArrays[2].Name << " <- " << PlaneArrays[0].Name
       << " after each step"
       << (SwapTemp.empty() ? "" : " (through " + SwapTemp + ", declared before the loop)")
       << "\n";
  else if (Form == StencilForm::PointerSwap)
    OS << "  swap: " << PlaneArrays[0].Name << " <-> " << PlaneArrays[1].Name
       << " after each step"
       << (SwapTemp.empty() ? "" : " (through " + SwapTemp + ", declared before the loop)")
       << "\n";
  if (Planes == 3)
    OS << "  planes: 3 in turn\n";
  OS << "  write: " << Write.str(Array.Name) << "\n";
  OS << "  reads: " << Reads.size() << "\n";
  for (const ArrayInfo &C : CoefArrays)
    array("coefficient array", C);
  if (!CoefReads.empty()) {
    OS << "  coefficient reads:";
    for (const std::string &T : coefReadTexts(*this))
      OS << " " << T;
    OS << "\n";
  }
  OS << "  update: " << printExpr(*this, Update) << "\n";
}

void Stencil::dumpFields(llvm::raw_ostream &OS) const {
  OS << "  element type: " << elemTypeName(Elem) << "\n";
  OS << "  form: " << stencilFormName(Form) << " (" << Fields.size()
     << " fields, " << FieldStatements.size() << " statements per step)\n";
  for (const FieldInfo &F : Fields) {
    OS << "  field: " << F.Array.Name;
    for (const std::optional<AffineExpr> &E : F.Array.Extents)
      OS << "[" << (E ? E->str() : "?") << "]";
    OS << (F.Planes == 1  ? " (updated in place"
           : F.swapped() ? " (2 planes: it and " + F.SwapOut +
                               ", pointers swapped after each step"
                         : std::string(" (2 planes"))
       << (F.Array.Form == ArrayForm::FlatPointer
               ? "; flat pointer" + std::string(F.swapped() ? "s" : "") +
                     " indexed in rows)"
               : ")")
       << "\n";
  }
  OS << "  params: [";
  for (size_t I = 0; I < Params.size(); ++I)
    OS << (I ? ", " : "") << Params[I];
  OS << "]\n";
  OS << "  time loop: " << Time.Iter << " from " << Time.Lower.str() << " to "
     << Time.Upper.str()
     << (Time.IterDeclaredOutside ? " (declared before the loop)" : "")
     << "\n";
  OS << "  grid: " << GridDims << "D, dimensions named";
  for (const Loop &L : Space)
    OS << " " << L.Iter;
  OS << "\n";
  OS << "  scalars: [";
  for (size_t I = 0; I < Scalars.size(); ++I)
    OS << (I ? ", " : "") << scalarTypeName(Scalars[I].Type) << " "
       << Scalars[I].Name;
  OS << "]\n";
  for (const ArrayInfo &C : CoefArrays) {
    OS << "  coefficient array: " << C.Name;
    for (const std::optional<AffineExpr> &E : C.Extents)
      OS << "[" << (E ? E->str() : "?") << "]";
    OS << "\n";
  }
  std::vector<std::string> ReadText;
  for (const Access &R : Reads)
    ReadText.push_back(R.str(Fields[R.Field].Array.Name));
  std::vector<std::string> CoefText = coefReadTexts(*this);
  ExprSpelling Spell;
  Spell.ReadText = ReadText;
  Spell.CoefText = CoefText;
  for (size_t I = 0; I < FieldStatements.size(); ++I) {
    const FieldStatement &F = FieldStatements[I];
    OS << "  statement " << I << " (nest " << F.Nest << "):";
    for (const Loop &L : F.Loops)
      OS << " " << L.Iter << " from " << L.Lower.str() << " to "
         << L.Upper.str() << ",";
    OS << " " << F.Write.str(Fields[F.Field].Array.Name) << " = "
       << printExprAs(F.Update, Spell) << "\n";
  }
}
