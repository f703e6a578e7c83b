//===- IslTools.cpp -------------------------------------------------------===//
#include "an5d/IslTools.h"

#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/val.h>

#include <set>

using namespace an5d;

IslContext::IslContext() : Ctx(isl_ctx_alloc()) {
  isl_options_set_on_error(Ctx, ISL_ON_ERROR_CONTINUE);
}

IslContext::~IslContext() { isl_ctx_free(Ctx); }

std::string an5d::islName(const std::string &Name) {
  static const std::set<std::string> Keywords = {
      "and", "or",  "not",  "exists", "mod",  "floor", "ceil", "min",
      "max", "infty", "NaN", "true",  "false", "implies", "xor", "rat",
      "cst", "domain", "range", "param", "div", "S"};
  return Keywords.count(Name) ? Name + "_" : Name;
}

std::string an5d::islAffine(const AffineExpr &E) {
  return "(" + E.str(islName) + ")";
}

std::string an5d::islParams(const std::vector<std::string> &Params) {
  std::string S = "[";
  for (size_t I = 0; I < Params.size(); ++I)
    S += (I ? ", " : "") + islName(Params[I]);
  return S + "]";
}

std::optional<std::vector<int64_t>> an5d::singletonPoint(const isl::set &Set) {
  isl::set Point = Set.project_out_all_params();
  if (Point.is_empty() || !Point.is_singleton())
    return std::nullopt;
  // The point must be the same for every parameter value that has one.
  isl::set Aligned = isl::manage(
      isl_set_align_params(Point.copy(), isl_set_get_space(Set.get())));
  if (!Set.is_equal(Aligned.intersect_params(Set.params())))
    return std::nullopt;
  std::vector<int64_t> Coords;
  unsigned N = isl_set_dim(Point.get(), isl_dim_set);
  for (unsigned I = 0; I < N; ++I)
    Coords.push_back(isl_val_get_num_si(Point.dim_min_val(I).get()));
  return Coords;
}

bool an5d::nonEmptyEverywhere(const isl::set &Set, const isl::set &Context) {
  return Context.is_subset(Set.params());
}
