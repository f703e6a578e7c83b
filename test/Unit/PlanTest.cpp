// Unit tests of the plan stage: one layout type per kernel family, and
// typed errors that name the option to change.
#include "an5d/Plan.h"

#include <gtest/gtest.h>

using namespace an5d;

namespace {

/// A star stencil of reach 1 in Dims dimensions (reads at the cell and one
/// cell either side along each dimension), with a diagonal read at
/// (-1, -1[, 0]) when Diagonal.
struct StarFixture {
  Stencil S;
  StencilAnalysis A;
  StarFixture(unsigned Dims, ElemType Elem, bool Diagonal = false) {
    S.Elem = Elem;
    S.Space.resize(Dims);
    A.Dims = Dims;
    A.Offsets.push_back(std::vector<int64_t>(Dims, 0));
    for (unsigned D = 0; D < Dims; ++D)
      for (int64_t Side : {-1, 1}) {
        std::vector<int64_t> O(Dims, 0);
        O[D] = Side;
        A.Offsets.push_back(O);
      }
    if (Diagonal) {
      std::vector<int64_t> O(Dims, 0);
      O[0] = O[1] = -1;
      A.Offsets.push_back(O);
    }
    A.ReadOffsets = A.Offsets;
    S.Reads.resize(A.ReadOffsets.size());
    A.ReachLo.assign(Dims, 1);
    A.ReachHi.assign(Dims, 1);
    A.Radius = 1;
    A.DiagonalFree = !Diagonal;
  }
};

std::optional<PlanError> plan(const StarFixture &F, const PlanOptions &O,
                              Plan &P) {
  return makePlan(F.S, F.A, O, P);
}

} // namespace

TEST(PlanTest, FamilyOfEachScheme) {
  StarFixture F3(3, ElemType::Float);
  Plan P;
  PlanOptions O;
  ASSERT_FALSE(plan(F3, O, P));
  EXPECT_TRUE(std::holds_alternative<ScalarLayout>(P.Family));
  EXPECT_EQ(P.scalar().SharedRows, std::vector<int64_t>{0});
  EXPECT_EQ(P.lanes(), 1);
  EXPECT_THROW(P.vector(), std::bad_variant_access);

  O.VecK = 4;
  O.BT = 1;
  O.BS = {32, 16};
  ASSERT_FALSE(plan(F3, O, P));
  ASSERT_TRUE(P.vectorCells());
  EXPECT_EQ(P.vector().Lanes, 4);
  EXPECT_EQ(P.vector().HaloLo, 1); // ceil(1 / 4)
  EXPECT_EQ(P.aheadSlots(), 0);
  EXPECT_FALSE(P.haloRows());
  EXPECT_THROW(P.scalar(), std::bad_variant_access);

  PlanOptions Naive;
  Naive.Run = Scheme::Naive;
  ASSERT_FALSE(plan(F3, Naive, P));
  ASSERT_TRUE(P.naive());
  EXPECT_EQ(std::get<NaiveLayout>(P.Family).Block, naiveBlock(3));
}

TEST(PlanTest, ErrorKindsNameTheOption) {
  StarFixture F2(2, ElemType::Float), F3(3, ElemType::Float);
  Plan P;
  struct Case {
    const StarFixture &F;
    PlanOptions O;
    PlanError::Kind What;
    const char *Option;
  };
  auto With = [](auto Set) {
    PlanOptions O;
    Set(O);
    return O;
  };
  const Case Cases[] = {
      {F2, With([](PlanOptions &O) { O.BT = 33; }), PlanError::Kind::OutOfRange,
       "-bT"},
      {F2, With([](PlanOptions &O) { O.BS = {32, 32}; }),
       PlanError::Kind::Count, "-bS"},
      {F2, With([](PlanOptions &O) { O.HaloRows = true; }),
       PlanError::Kind::Conflict, "--halo-rows"},
      {F2, With([](PlanOptions &O) { O.VecK = 2; }), PlanError::Kind::Conflict,
       "--kvec"},
      {F2, With([](PlanOptions &O) { O.BS = {4}; }),
       PlanError::Kind::BlockTooSmall, "-bS"},
      {F2, With([](PlanOptions &O) { O.BS = {2048}; }),
       PlanError::Kind::TooManyThreads, "-bS"},
      {F3, With([](PlanOptions &O) {
         O.BS = {32, 32};
         O.MinBlocks = 3;
       }),
       PlanError::Kind::TooManyThreads, "--min-blocks"},
      {F3, With([](PlanOptions &O) {
         O.VecK = 4;
         O.Gpu = *findTarget("V100");
       }),
       PlanError::Kind::TargetLacks, "--kvec"},
  };
  for (const Case &C : Cases) {
    std::optional<PlanError> E = plan(C.F, C.O, P);
    ASSERT_TRUE(E) << "expected an error about " << C.Option;
    EXPECT_EQ(E->What, C.What) << E->Message;
    EXPECT_EQ(E->Option, C.Option) << E->Message;
    EXPECT_FALSE(E->Message.empty());
  }
}

TEST(PlanTest, KernelRefusalCarriesTheRead) {
  StarFixture F(3, ElemType::Float, /*Diagonal=*/true);
  EXPECT_FALSE(kernelRefusal(F.S, F.A, KernelKind::None));
  std::optional<PlanError> E = kernelRefusal(F.S, F.A, KernelKind::Star);
  ASSERT_TRUE(E);
  EXPECT_EQ(E->What, PlanError::Kind::KernelRefused);
  EXPECT_EQ(E->Option, "--opt");
  EXPECT_NE(E->Message.find("[-1, -1, 0]"), std::string::npos) << E->Message;
  std::optional<PlanError> V = vectorRefusal(F.S, F.A, 4);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Option, "--kvec");
  // makePlan reports the same refusal, not a second copy of the check.
  PlanOptions O;
  O.Kernel = KernelKind::Star;
  Plan P;
  std::optional<PlanError> M = makePlan(F.S, F.A, O, P);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Message, E->Message);
}
