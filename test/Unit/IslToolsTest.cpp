// Unit tests of the isl helpers and the associativity decomposition.
#include "an5d/Analysis.h"
#include "an5d/IslTools.h"

#include <gtest/gtest.h>

using namespace an5d;

TEST(IslName, KeywordsGetSuffix) {
  EXPECT_EQ(islName("n"), "n");
  EXPECT_EQ(islName("mod"), "mod_");
  EXPECT_EQ(islName("and"), "and_");
}

TEST(IslAffine, ParsesBack) {
  IslContext Ctx;
  AffineExpr E = AffineExpr::symbol("n") - AffineExpr::constant(2);
  isl::set S(Ctx.get(), "[n] -> { [x] : x = " + islAffine(E) + " }");
  isl::set Want(Ctx.get(), "[n] -> { [x] : x = n - 2 }");
  EXPECT_TRUE(S.is_equal(Want));
}

TEST(SingletonPoint, ConstantPoint) {
  IslContext Ctx;
  isl::set S(Ctx.get(), "[n] -> { [-1, 2] : n > 3 }");
  auto P = singletonPoint(S);
  ASSERT_TRUE(P.has_value());
  EXPECT_EQ(*P, (std::vector<int64_t>{-1, 2}));
}

TEST(SingletonPoint, ParameterDependentIsNotAPoint) {
  IslContext Ctx;
  EXPECT_FALSE(singletonPoint(isl::set(Ctx.get(), "[n] -> { [n] }")));
  EXPECT_FALSE(singletonPoint(isl::set(Ctx.get(), "{ [x] : 0 <= x <= 1 }")));
  EXPECT_FALSE(singletonPoint(isl::set(Ctx.get(), "{ [x] : false }")));
}

TEST(NonEmptyEverywhere, ComparesParameterSets) {
  IslContext Ctx;
  isl::set Context(Ctx.get(), "[n] -> { : n >= 3 }");
  EXPECT_TRUE(nonEmptyEverywhere(isl::set(Ctx.get(), "[n] -> { [x] : 0 <= x < n }"), Context));
  EXPECT_FALSE(nonEmptyEverywhere(isl::set(Ctx.get(), "[n] -> { [x] : 0 <= x < n - 5 }"), Context));
}

TEST(AffineExpr, Printing) {
  AffineExpr E = AffineExpr::symbol("n").scaled(2) - AffineExpr::constant(1);
  EXPECT_EQ(E.str(), "2*n - 1");
  EXPECT_EQ(AffineExpr().str(), "0");
  EXPECT_EQ((AffineExpr::symbol("t") - AffineExpr::symbol("t")).str(), "0");
}

namespace {
Expr read(unsigned I) {
  Expr E;
  E.K = Expr::Read;
  E.ReadIndex = I;
  return E;
}
Expr lit(const char *T) {
  Expr E;
  E.K = Expr::Literal;
  E.Text = T;
  return E;
}
Expr bin(const char *Op, Expr L, Expr R) {
  Expr E;
  E.K = Expr::Binary;
  E.Text = Op;
  E.Args = {L, R};
  return E;
}
} // namespace

TEST(Associativity, SumOfPlanesOverConstant) {
  // (0.1*r0 + 0.2*r1 - r2) / 3 with reads on planes -1, 0, 1
  Expr Sum = bin("-", bin("+", bin("*", lit("0.1"), read(0)),
                          bin("*", lit("0.2"), read(1))),
                 read(2));
  Expr U = bin("/", Sum, lit("3"));
  auto F = associativeForm(U, {-1, 0, 1});
  ASSERT_TRUE(F.has_value());
  EXPECT_EQ(F->OuterOp, "/");
  ASSERT_EQ(F->Terms.size(), 3u);
  EXPECT_EQ(F->Terms[0].Plane, -1);
  EXPECT_TRUE(F->Terms[2].Negated);
}

TEST(Associativity, TermReadingTwoPlanesIsNot) {
  // r0 * r1 with reads on planes 0 and 1
  Expr U = bin("+", lit("1"), bin("*", read(0), read(1)));
  EXPECT_FALSE(associativeForm(U, {0, 1}).has_value());
  // but the same product within one plane is fine
  EXPECT_TRUE(associativeForm(U, {1, 1}).has_value());
}

TEST(Associativity, FactorDistributedOnlyWhenAllowed) {
  // r0 + 0.5 * (r1 - (r2 + r3) / 3) with reads on planes 0, -1, 0, 1: the
  // scaled sum reads three planes; distributing 0.5 and / 3 (reassociation,
  // --fast-math) splits it into per-plane terms.
  Expr Inner = bin("/", bin("+", read(2), read(3)), lit("3"));
  Expr U = bin("+", read(0), bin("*", lit("0.5"), bin("-", read(1), Inner)));
  std::vector<int64_t> Planes = {0, -1, 0, 1};
  EXPECT_FALSE(associativeForm(U, Planes).has_value());
  auto F = associativeForm(U, Planes, nullptr, true);
  ASSERT_TRUE(F.has_value());
  ASSERT_EQ(F->Terms.size(), 4u);
  EXPECT_FALSE(F->Terms[0].Distributed);
  // 0.5 * (r1), then -(0.5 * ((r2) / 3)) and -(0.5 * ((r3) / 3)).
  const int64_t Plane[] = {0, -1, 0, 1};
  const bool Negated[] = {false, false, true, true};
  for (unsigned K = 0; K < 4; ++K) {
    EXPECT_EQ(F->Terms[K].Plane, Plane[K]) << K;
    EXPECT_EQ(F->Terms[K].Negated, Negated[K]) << K;
  }
  for (unsigned K = 1; K < 4; ++K) {
    ASSERT_TRUE(F->Terms[K].Distributed) << K;
    const Expr &T = *F->Terms[K].E;
    EXPECT_EQ(T.K, Expr::Binary);
    EXPECT_EQ(T.Text, "*");
    EXPECT_EQ(T.Args[0].Text, "0.5");
    std::vector<unsigned> Reads;
    collectReads(T, Reads);
    EXPECT_EQ(Reads, std::vector<unsigned>{K});
  }
  EXPECT_EQ(F->Terms[3].E->Args[1].Args[0].Text, "/");
}

TEST(Associativity, ProductOfRowsNotDistributed) {
  // (r0 + r1) * r2 over three planes: neither factor is free of reads.
  Expr U = bin("*", bin("+", read(0), read(1)), read(2));
  const Expr *Bad = nullptr;
  EXPECT_FALSE(associativeForm(bin("+", lit("1"), U), {-1, 0, 1}, &Bad, true));
  EXPECT_NE(Bad, nullptr);
}
