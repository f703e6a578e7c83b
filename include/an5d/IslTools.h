//===- an5d/IslTools.h - Small helpers over isl's C++ interface -----------===//
#ifndef AN5D_ISLTOOLS_H
#define AN5D_ISLTOOLS_H

#include "an5d/Stencil.h"

#include <isl/cpp.h>

#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace an5d {

/// Owns an isl_ctx. isl errors raise isl::exception instead of aborting.
class IslContext {
public:
  IslContext();
  ~IslContext();
  IslContext(const IslContext &) = delete;
  IslContext &operator=(const IslContext &) = delete;
  isl::ctx get() const { return isl::ctx(Ctx); }

private:
  isl_ctx *Ctx;
};

/// A C identifier as an isl identifier: isl keywords get a trailing '_'.
std::string islName(const std::string &Name);

/// An affine expression in isl syntax, symbols renamed by islName.
std::string islAffine(const AffineExpr &E);

/// "[T, n, m]": the parameter list of every isl object of a stencil.
std::string islParams(const std::vector<std::string> &Params);

template <class T> std::string islStr(const T &Obj) {
  std::ostringstream OS;
  OS << Obj;
  return OS.str();
}

/// The coordinates of a set holding exactly one integer point with no
/// parameter dependence; nullopt otherwise.
std::optional<std::vector<int64_t>> singletonPoint(const isl::set &Set);

/// True when Set is non-empty for every parameter value in Context.
bool nonEmptyEverywhere(const isl::set &Set, const isl::set &Context);

} // namespace an5d

#endif
