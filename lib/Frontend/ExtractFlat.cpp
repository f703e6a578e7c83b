//===- ExtractFlat.cpp - Flat pointers indexed with affine arithmetic ------===//
//
// A pointer swap's planes, and the fields of a time step of several, may be
// flat pointers, 'double *out', indexed
// 'out[i * m + j]' (2D) or 'out[(i * m + j) * p + k]' (3D). The index is a
// polynomial in the iterators and parameters; when it is exactly
// '(i + a) * m + (j + b)' (in 3D '((i + a) * m + j + b) * p + k + c') it
// splits back into one offset per dimension, and the pointer reads as an
// array [rows][m] ([rows][m][p]) whose row count the accesses decide.
//
//===----------------------------------------------------------------------===//
#include "Extractor.h"

#include <algorithm>

using namespace an5d;
using namespace an5d::frontend;
using clang::dyn_cast;

namespace {

/// A product of symbols (sorted, with repetition) -> its integer factor.
using Monomial = std::vector<std::string>;
using Polynomial = std::map<Monomial, int64_t>;

bool small(int64_t V) { return V > -(int64_t(1) << 31) && V < (int64_t(1) << 31); }

void addTo(Polynomial &P, const Monomial &M, int64_t C) {
  int64_t &X = P[M];
  X += C;
  if (X == 0)
    P.erase(M);
}

/// M without the symbols of Part (each once per occurrence), or nullopt
/// when Part is not a sub-multiset of M.
std::optional<Monomial> without(const Monomial &M, const Monomial &Part) {
  Monomial Rest = M;
  for (const std::string &X : Part) {
    auto It = std::find(Rest.begin(), Rest.end(), X);
    if (It == Rest.end())
      return std::nullopt;
    Rest.erase(It);
  }
  return Rest;
}

} // namespace

bool Extractor::isFlatPointer(const clang::VarDecl *V) {
  const auto *Ptr = V->getType()->getAs<clang::PointerType>();
  if (!Ptr || Ctx.getAsArrayType(Ptr->getPointeeType()))
    return false;
  ScalarType T = scalarTypeOf(Ptr->getPointeeType());
  return T == ScalarType::Float || T == ScalarType::Double;
}

/// Through reads what E stands for when E is a parameter or a call of an
/// inlined function (Handled set), Poly the polynomial of another expression.
using ThroughFn = std::function<std::optional<Polynomial>(const clang::Expr *,
                                                          bool &Handled)>;

/// The index as a polynomial over the iterators and parameters; nullopt
/// (Why and Where set) for anything but + - * on integers.
static std::optional<Polynomial>
toPolynomial(const clang::Expr *E,
             const std::function<std::optional<std::string>(
                 const clang::DeclRefExpr *)> &Symbol,
             const std::function<std::optional<int64_t>(const clang::Expr *)>
                 &Constant,
             const ThroughFn &Through, std::string &Why,
             const clang::Expr *&Where) {
  E = E->IgnoreParens();
  bool Handled = false;
  std::optional<Polynomial> Inlined = Through(E, Handled);
  if (Handled)
    return Inlined;
  if (std::optional<int64_t> C = Constant(E)) {
    Polynomial P;
    addTo(P, {}, *C);
    return P;
  }
  auto fail = [&](const std::string &W) -> std::optional<Polynomial> {
    Why = W;
    Where = E;
    return std::nullopt;
  };
  if (const auto *Cast = dyn_cast<clang::CastExpr>(E)) {
    if (Cast->getType()->isIntegerType() &&
        Cast->getSubExpr()->getType()->isIntegerType())
      return toPolynomial(Cast->getSubExpr(), Symbol, Constant, Through, Why, Where);
    return fail("it converts a non-integer value");
  }
  if (const auto *Ref = dyn_cast<clang::DeclRefExpr>(E)) {
    std::optional<std::string> Name = Symbol(Ref);
    if (!Name)
      return fail("'" + Ref->getNameInfo().getAsString() +
                  "' is not an integer variable");
    Polynomial P;
    addTo(P, {*Name}, 1);
    return P;
  }
  if (const auto *U = dyn_cast<clang::UnaryOperator>(E)) {
    if (U->getOpcode() != clang::UO_Minus && U->getOpcode() != clang::UO_Plus)
      return fail("it uses operator '" +
                  clang::UnaryOperator::getOpcodeStr(U->getOpcode()).str() +
                  "'");
    std::optional<Polynomial> P =
        toPolynomial(U->getSubExpr(), Symbol, Constant, Through, Why, Where);
    if (P && U->getOpcode() == clang::UO_Minus)
      for (auto &[M, C] : *P)
        C = -C;
    return P;
  }
  const auto *B = dyn_cast<clang::BinaryOperator>(E);
  if (!B || (B->getOpcode() != clang::BO_Add && B->getOpcode() != clang::BO_Sub &&
             B->getOpcode() != clang::BO_Mul))
    return fail(B ? "it uses operator '" + B->getOpcodeStr().str() + "'"
                  : std::string("it is not integer arithmetic"));
  std::optional<Polynomial> L =
      toPolynomial(B->getLHS(), Symbol, Constant, Through, Why, Where);
  if (!L)
    return std::nullopt;
  std::optional<Polynomial> R =
      toPolynomial(B->getRHS(), Symbol, Constant, Through, Why, Where);
  if (!R)
    return std::nullopt;
  Polynomial P;
  if (B->getOpcode() != clang::BO_Mul) {
    P = *L;
    for (const auto &[M, C] : *R)
      addTo(P, M, B->getOpcode() == clang::BO_Add ? C : -C);
  } else {
    for (const auto &[ML, CL] : *L)
      for (const auto &[MR, CR] : *R) {
        if (!small(CL) || !small(CR))
          return fail("its constants exceed 32 bits");
        Monomial M = ML;
        M.insert(M.end(), MR.begin(), MR.end());
        std::sort(M.begin(), M.end());
        if (M.size() > 4)
          return fail("it multiplies more than four variables");
        addTo(P, M, CL * CR);
      }
  }
  for (const auto &[M, C] : P)
    if (!small(C))
      return fail("its constants exceed 32 bits");
  return P;
}

bool Extractor::splitFlatIndex(const clang::VarDecl *V,
                               const clang::Expr *Index,
                               const std::vector<Loop> &Dims,
                               std::vector<AffineExpr> &Space,
                               std::vector<AffineExpr> &Extents) {
  const size_t N = Dims.size();
  std::string Form = "'(" + Dims[0].Iter + " + a) * m + " +
                     Dims[1].Iter + " + b'";
  if (N == 3)
    Form = "'((" + Dims[0].Iter + " + a) * m + " + Dims[1].Iter +
           " + b) * p + " + Dims[2].Iter + " + c'";
  const std::string Name = V->getName().str();
  const std::string Elem =
      V->getType()->getPointeeType().getUnqualifiedType().getAsString();
  auto refuse = [&](clang::SourceRange R, const std::string &Why) {
    D.error(Reject::NonAffine, R,
            "the index of the flat pointer '" + Name + "' " + Why +
                "; an5dc splits an index of the form " + Form +
                " with constants a, b" + (N == 3 ? ", c" : "") +
                " and row lengths that are a parameter times a constant, or "
                "a constant (or declare '" + Name +
                "' as a pointer to rows, '" + Elem + " (*" + Name + ")[m]')");
    return false;
  };
  auto Symbol = [&](const clang::DeclRefExpr *Ref) -> std::optional<std::string> {
    const auto *Var = dyn_cast<clang::VarDecl>(Ref->getDecl());
    if (!Var || !Var->getType()->isIntegerType())
      return std::nullopt;
    auto It = Iterators.find(Var);
    if (It != Iterators.end())
      return It->second;
    std::string P = Var->getName().str();
    auto [Known, Inserted] = NamedVars.emplace(P, Var);
    if (!Inserted && Known->second != Var)
      return std::nullopt;
    return P;
  };
  auto Constant = [&](const clang::Expr *E) { return constantValue(E); };
  std::string Why;
  const clang::Expr *Where = Index;
  bool Reported = false;
  std::function<std::optional<Polynomial>(const clang::Expr *)> Poly;
  // Parameters and calls of inlined functions ('in[idx(i, j)]').
  ThroughFn Through = [&](const clang::Expr *E,
                          bool &Handled) -> std::optional<Polynomial> {
    Handled = true;
    if (const clang::Expr *Value = intLocalValue(E))
      return Poly(Value);
    if (const ParamBinding *B = paramBinding(E)) {
      const ParamBinding Arg = *B;
      if (Arg.Arg->IgnoreParenImpCasts()->getType()->isIntegerType())
        return atCaller(Arg, [&] { return Poly(Arg.Arg); });
    }
    if (const auto *Call = dyn_cast<clang::CallExpr>(E)) {
      std::optional<std::optional<Polynomial>> Read = readReturn(Call, Poly);
      Reported |= !Read;
      return Read ? *Read : std::nullopt;
    }
    Handled = false;
    return std::nullopt;
  };
  Poly = [&](const clang::Expr *E) {
    return toPolynomial(E, Symbol, Constant, Through, Why, Where);
  };
  std::optional<Polynomial> P = Poly(Index);
  if (!P && Reported)
    return false;
  if (!P)
    return refuse(Where->getSourceRange(), "is not integer arithmetic: " + Why);
  // Loops nested in another order than the index's rows ('for j for i:
  // u[i * m + j]'): the subscripts follow the strides, largest first
  // (more parameters, then a larger constant); the frontend then puts the
  // loops into that order (loopsInArrayOrder).
  std::vector<std::pair<size_t, int64_t>> Weight(N, {0, 0});
  std::vector<bool> Has(N, false);
  for (const auto &[M, C] : *P)
    for (size_t D = 0; D < N; ++D)
      if (std::count(M.begin(), M.end(), Dims[D].Iter) == 1 && !Has[D]) {
        Weight[D] = {M.size(), C};
        Has[D] = true;
      }
  if (std::count(Has.begin(), Has.end(), true) == (long)N) {
    std::vector<size_t> Order(N);
    for (size_t D = 0; D < N; ++D)
      Order[D] = D;
    std::stable_sort(Order.begin(), Order.end(), [&](size_t X, size_t Y) {
      return Weight[X] > Weight[Y];
    });
    bool Identity = true;
    for (size_t D = 0; D < N; ++D)
      Identity = Identity && Order[D] == D;
    if (!Identity) {
      std::vector<Loop> Ordered;
      for (size_t D : Order)
        Ordered.push_back(Dims[D]);
      return splitFlatIndex(V, Index, Ordered, Space, Extents);
    }
  }

  // Stride[d]: the factor of iterator d's term (a constant times a product
  // of parameters); the last iterator's must be 1.
  std::vector<std::pair<Monomial, int64_t>> Stride(N);
  std::vector<bool> Seen(N, false);
  Polynomial Rest;
  for (const auto &[M, C] : *P) {
    int Found = -1;
    for (size_t D = 0; D < N; ++D)
      if (std::count(M.begin(), M.end(), Dims[D].Iter)) {
        if (Found >= 0 || std::count(M.begin(), M.end(), Dims[D].Iter) > 1)
          return refuse(Index->getSourceRange(),
                        "multiplies iterators together");
        Found = static_cast<int>(D);
      }
    if (std::count(M.begin(), M.end(), S.Time.Iter))
      return refuse(Index->getSourceRange(),
                    "uses the time iterator '" + S.Time.Iter + "'");
    if (Found < 0) {
      Rest[M] = C;
      continue;
    }
    // One term per iterator: 'i * (m + 3)' is two, 'i * m' and '3 * i',
    // and a row length that is a sum is not one this split takes.
    if (Seen[Found])
      return refuse(Index->getSourceRange(),
                    "multiplies '" + Dims[Found].Iter + "' by a sum");
    Monomial Factor = *without(M, {Dims[Found].Iter});
    Stride[Found] = {Factor, C};
    Seen[Found] = true;
  }
  for (size_t D = 0; D < N; ++D)
    if (!Seen[D])
      return refuse(Index->getSourceRange(),
                    "does not use '" + Dims[D].Iter + "'");
  if (!Stride[N - 1].first.empty() || Stride[N - 1].second != 1)
    return refuse(Index->getSourceRange(),
                  "must add '" + Dims[N - 1].Iter +
                      "' itself, the innermost loop's iterator");
  // Extent d (d >= 1) is Stride[d - 1] / Stride[d]: a constant, or one
  // parameter times a constant.
  Extents.assign(N, AffineExpr::constant(0));
  for (size_t D = 1; D < N; ++D) {
    std::optional<Monomial> Q = without(Stride[D - 1].first, Stride[D].first);
    int64_t Div = Stride[D].second;
    if (!Q || Q->size() > 1 || Div <= 0 || Stride[D - 1].second % Div != 0 ||
        Stride[D - 1].second / Div <= 0)
      return refuse(Index->getSourceRange(),
                    "multiplies '" + Dims[D - 1].Iter +
                        "' by a factor that is not a positive multiple of the "
                        "one of '" + Dims[D].Iter + "'");
    int64_t K = Stride[D - 1].second / Div;
    Extents[D] = Q->empty() ? AffineExpr::constant(K)
                            : AffineExpr::symbol((*Q)[0]).scaled(K);
  }
  // The terms without iterators: a multiple of each stride. Strides that
  // hold parameters take their own terms; the plain constant goes to the
  // constant strides, outermost first, leaving each inner offset as small
  // as it can be (one element address, several splits: the nearest cell,
  // unless another keeps the inner loops inside their rows).
  std::vector<int64_t> Off(N, 0);
  for (size_t D = 0; D < N; ++D) {
    if (Stride[D].first.empty())
      continue;
    auto It = Rest.find(Stride[D].first);
    if (It == Rest.end())
      continue;
    if (It->second % Stride[D].second != 0)
      return refuse(Index->getSourceRange(),
                    "adds a term that is not a whole number of rows");
    Off[D] = It->second / Stride[D].second;
    Rest.erase(It);
  }
  int64_t C = 0;
  if (auto It = Rest.find(Monomial()); It != Rest.end()) {
    C = It->second;
    Rest.erase(It);
  }
  if (!Rest.empty())
    return refuse(Index->getSourceRange(),
                  "adds a term in '" + Rest.begin()->first[0] +
                      "' that is not a whole number of rows");
  for (size_t D = 0; D + 1 < N; ++D) {
    if (!Stride[D].first.empty())
      continue;
    int64_t St = Stride[D].second;
    int64_t Q = (C >= 0 ? C + St / 2 : C - St / 2) / St;
    Off[D] += Q;
    C -= Q * St;
  }
  Off[N - 1] += C;
  // The nearest split names another cell than C's when an offset is half a
  // row or more ('k + 2' in rows of 3 reads as the next row's 'k - 1'):
  // then the split one row either way that keeps every inner loop with
  // constant bounds inside its row is the one C reads.
  auto insideRows = [&](const std::vector<int64_t> &O) {
    for (size_t D = 1; D < N; ++D) {
      const Loop &L = Dims[D];
      if (!Extents[D].isConstant() || !L.Lower.isConstant() ||
          !L.Upper.isConstant())
        continue;
      if (L.Lower.Constant + O[D] < 0 ||
          L.Upper.Constant + O[D] > Extents[D].Constant - 1)
        return false;
    }
    return true;
  };
  if (!insideRows(Off)) {
    // One row more or less of dimension D is Extents[D + 1] cells less or
    // more of D + 1 (constant strides only); one such move, then two, the
    // first split that fits.
    auto moved = [&](std::vector<int64_t> O, size_t D, int64_t Delta) {
      O[D] += Delta;
      O[D + 1] -= Delta * Extents[D + 1].Constant;
      return O;
    };
    std::vector<std::vector<int64_t>> Tries;
    for (size_t D = 0; D + 1 < N; ++D)
      if (Stride[D].first.empty() && Extents[D + 1].isConstant())
        for (int64_t Delta : {-1, 1})
          Tries.push_back(moved(Off, D, Delta));
    // Two moves: the sum of two single ones.
    const size_t Singles = Tries.size();
    for (size_t A = 0; A < Singles; ++A)
      for (size_t B = A + 1; B < Singles; ++B) {
        std::vector<int64_t> O = Tries[A];
        for (size_t D = 0; D < N; ++D)
          O[D] += Tries[B][D] - Off[D];
        Tries.push_back(O);
      }
    for (const std::vector<int64_t> &O : Tries)
      if (insideRows(O)) {
        Off = O;
        break;
      }
  }
  for (size_t D = 0; D < N; ++D) {
    for (const std::string &X : Stride[D].first)
      addParam(X);
    Space.push_back(AffineExpr::symbol(Dims[D].Iter) +
                    AffineExpr::constant(Off[D]));
  }
  return true;
}
