//===- UpdatePrinter.cpp - The update expression as CUDA C++ -------------===//
//
// Prints the Expr tree with reads replaced by register or shared-memory
// values. C and C++ differ on calls: C converts each argument to the
// declared parameter type (sqrt(f) computes in double), C++ picks an
// overload (sqrt(float) computes in float). An explicit cast on every
// argument whose type differs from the parameter's keeps C's arithmetic.
//
//===----------------------------------------------------------------------===//
#include "an5d/CodeGen.h"

using namespace an5d;

static void printTo(const Expr &E, const std::vector<std::string> &ReadText,
                    const std::map<std::string, std::string> &ScalarName,
                    std::string &Out) {
  switch (E.K) {
  case Expr::Read:
    Out += ReadText.at(E.ReadIndex);
    return;
  case Expr::Scalar: {
    auto It = ScalarName.find(E.Text);
    Out += It == ScalarName.end() ? E.Text : It->second;
    return;
  }
  case Expr::Literal:
    Out += E.Text;
    return;
  case Expr::Paren:
    Out += "(";
    printTo(E.Args[0], ReadText, ScalarName, Out);
    Out += ")";
    return;
  case Expr::Unary: {
    std::string Sub;
    printTo(E.Args[0], ReadText, ScalarName, Sub);
    Out += E.Text;
    // "- -x" must not become the decrement "--x".
    if (!Sub.empty() && (Sub[0] == '-' || Sub[0] == '+'))
      Out += " ";
    Out += Sub;
    return;
  }
  case Expr::Binary:
    printTo(E.Args[0], ReadText, ScalarName, Out);
    Out += " " + E.Text + " ";
    printTo(E.Args[1], ReadText, ScalarName, Out);
    return;
  case Expr::Call:
    Out += E.Text + "(";
    for (size_t I = 0; I < E.Args.size(); ++I) {
      if (I)
        Out += ", ";
      ScalarType Param =
          I < E.ParamTypes.size() ? E.ParamTypes[I] : ScalarType::Other;
      bool Cast = Param != ScalarType::Other && Param != E.Args[I].Type;
      if (Cast)
        Out += std::string("(") + scalarTypeName(Param) + ")(";
      printTo(E.Args[I], ReadText, ScalarName, Out);
      if (Cast)
        Out += ")";
    }
    Out += ")";
    return;
  case Expr::Cast:
    Out += "(" + E.Text + ")";
    printTo(E.Args[0], ReadText, ScalarName, Out);
    return;
  }
}

std::string an5d::printUpdate(const Expr &E,
                              const std::vector<std::string> &ReadText,
                              const std::map<std::string, std::string> &ScalarName) {
  std::string Out;
  printTo(E, ReadText, ScalarName, Out);
  return Out;
}
