// Unit tests of the performance model against hand-computed cases.
#include "an5d/Model.h"

#include <gtest/gtest.h>

using namespace an5d;

namespace {

Expr read(unsigned Index) {
  Expr E;
  E.K = Expr::Read;
  E.ReadIndex = Index;
  return E;
}

Expr binary(const char *Op, Expr L, Expr R) {
  Expr E;
  E.K = Expr::Binary;
  E.Text = Op;
  E.Args = {std::move(L), std::move(R)};
  return E;
}

/// A 2D five-point stencil of reach 1 whose update is one addition.
struct FivePoint {
  Stencil S;
  StencilAnalysis A;
  FivePoint() {
    S.Elem = ElemType::Float;
    S.Space.resize(2);
    S.Update = binary("+", read(0), read(1));
    A.Dims = 2;
    A.Offsets = {{-1, 0}, {0, -1}, {0, 0}, {0, 1}, {1, 0}};
    A.ReadOffsets = A.Offsets;
    A.ReachLo = {1, 1};
    A.ReachHi = {1, 1};
    A.Radius = 1;
    A.DiagonalFree = true;
  }
};

} // namespace

TEST(ModelTest, DevicesByName) {
  ASSERT_FALSE(deviceTable().empty());
  EXPECT_EQ(deviceTable().front().Name, "H100");
  ASSERT_NE(findDevice("h200"), nullptr);
  EXPECT_EQ(findDevice("NVIDIA H100")->GlobalGBs, 2908);
  EXPECT_EQ(findDevice("V100")->SMs, 80);
  EXPECT_EQ(findDevice("K80"), nullptr);
}

TEST(ModelTest, ProblemSizes) {
  ProblemSize P;
  std::string Error;
  ASSERT_TRUE(parseProblemSize("512", 3, P, Error));
  EXPECT_EQ(P.Extent, (std::vector<int64_t>{512, 512, 512}));
  ASSERT_TRUE(parseProblemSize("100x200", 2, P, Error));
  EXPECT_EQ(P.Extent, (std::vector<int64_t>{100, 200}));
  EXPECT_FALSE(parseProblemSize("100x", 2, P, Error));
  EXPECT_FALSE(parseProblemSize("1x2x3", 2, P, Error));
  EXPECT_EQ(paperSize(2).Extent, (std::vector<int64_t>{16384, 16384}));
}

TEST(ModelTest, OperationMix) {
  // 0.5 * a + 0.25 * b: one FMA and one MUL, 3 FLOPs, ALU efficiency 3/4.
  Expr C;
  C.K = Expr::Literal;
  Expr E = binary("+", binary("*", C, read(0)), binary("*", C, read(1)));
  OpMix M = countOps(E);
  EXPECT_EQ(M.FMA, 1);
  EXPECT_EQ(M.MUL, 1);
  EXPECT_EQ(M.ADD, 0);
  EXPECT_EQ(M.flops(), 3);
  EXPECT_DOUBLE_EQ(M.aluEfficiency(), 0.75);
  // A product of constants is hoisted: no operation per cell.
  EXPECT_EQ(countOps(binary("*", C, C)).flops(), 0);
}

TEST(ModelTest, RegisterBudgetFollowsLaunchBounds) {
  Plan P; // planned for the default target, the H100
  P.Threads = 1024;
  EXPECT_EQ(registerBudget(P), 64);
  P.Threads = 256;
  EXPECT_EQ(registerBudget(P), 255);
  P.Threads = 512;
  P.MinBlocks = 2;
  EXPECT_EQ(registerBudget(P), 64);
  // 65536 / 384 = 170, allocated in units of 8.
  P.Threads = 384;
  P.MinBlocks = 1;
  EXPECT_EQ(registerBudget(P), 168);
}

TEST(ModelTest, DevicesAreTargets) {
  ASSERT_EQ(deviceTable().size(), targetTable().size());
  for (size_t I = 0; I < deviceTable().size(); ++I)
    EXPECT_EQ(deviceTable()[I].Name, targetTable()[I].Name);
  EXPECT_EQ(defaultTarget().Name, "H100");
  EXPECT_EQ(defaultTarget().arch(), "sm_90");
  EXPECT_EQ(findTarget("nvidia a100")->arch(), "sm_80");
  EXPECT_EQ(findDevice("A100")->SharedPerBlock, 163 * 1024);
  EXPECT_EQ(findTarget("V100")->arch(), "sm_70");
  EXPECT_EQ(findTarget("K80"), nullptr);
}

// A 10x10 array (8x8 interior), bT 1, bS 8 (tiles of 6 columns: 2 blocks),
// hSN 4 (2 stream blocks). Columns of the two blocks: 0..7 and 6..13, so
// 12 in the array, 10 in the interior, 8 stored; rows of the two stream
// blocks: 0..5 and 4..9 loaded (12), 8 computed and stored.
TEST(ModelTest, ThreadClassesAndTrafficByHand) {
  FivePoint F;
  PlanOptions O;
  O.Kernel = KernelKind::None;
  O.BT = 1;
  O.BS = {8};
  O.StreamBlock = 4;
  Plan P;
  std::optional<PlanError> Error = makePlan(F.S, F.A, O, P);
  ASSERT_FALSE(Error) << Error->Message;
  ProblemSize Size;
  Size.Extent = {10, 10};
  Prediction R = predict(F.S, F.A, P, Size, *findDevice("H100"));
  EXPECT_EQ(R.Blocks, 4);
  EXPECT_DOUBLE_EQ(R.Threads.OutOfBound, 4.0 * 12);     // 16 - 12 columns
  EXPECT_DOUBLE_EQ(R.Threads.Boundary, 12.0 * 12 - 10 * 10);
  EXPECT_DOUBLE_EQ(R.Threads.Valid, 8.0 * 8);
  EXPECT_DOUBLE_EQ(R.Threads.Redundant, 10.0 * 8 - 64);
  // Loads 12 x 12 cells, stores 8 x 8, 4 bytes each.
  EXPECT_DOUBLE_EQ(R.GlobalBytes, (144.0 + 64.0) * 4);
  // Stores: 16 threads x 12 rows; loads: 80 computed cells x 2 neighbours.
  EXPECT_DOUBLE_EQ(R.SharedBytes, (192.0 + 160.0) * 4);
  // Every block touches the boundary.
  EXPECT_DOUBLE_EQ(R.EdgeFraction, 1.0);
}

// A double update with more wide literals than 3/4 of the registers hold
// (in pairs): one cell per thread builds at -O1 and keeps none; several
// cells (or --ptxas-opt=3) keep them at -O3, and the model predicts the
// spill that ptxas reports for box3d2r-4r double with 2 or 4 cells.
TEST(ModelTest, CrowdedDoubleLiteralsSpillAtO3) {
  FivePoint F;
  F.S.Elem = ElemType::Double;
  F.A.WideDoubleLiterals = 120; // 240 registers in pairs > 3/4 of 255
  PlanOptions O;
  O.Kernel = KernelKind::None;
  O.BT = 1;
  O.BS = {256};
  O.StreamBlock = 64;
  auto plan = [&](int64_t Cells, int64_t Ptxas) {
    PlanOptions Q = O;
    Q.Cells = Cells;
    Q.PtxasOpt = Ptxas;
    Plan P;
    std::optional<PlanError> Error = makePlan(F.S, F.A, Q, P);
    EXPECT_FALSE(Error) << Error->Message;
    return P;
  };
  Plan One = plan(1, 0);
  EXPECT_EQ(One.PtxasOpt, 1);
  EXPECT_EQ(One.LiteralRegisters, 0);
  EXPECT_LE(estimateRegisters(One), registerBudget(One));
  Plan Two = plan(2, 0);
  EXPECT_EQ(Two.PtxasOpt, 3);
  EXPECT_EQ(Two.LiteralRegisters, 240);
  EXPECT_GT(estimateRegisters(Two), registerBudget(Two));
  EXPECT_EQ(estimateRegisters(Two), estimateRegisters(plan(2, 1)) + 240);
  Plan Forced = plan(1, 3);
  EXPECT_EQ(Forced.LiteralRegisters, 240);
  EXPECT_EQ(plan(1, 1).LiteralRegisters, 0);
  // Fewer literals than 3/4 of the budget: ptxas -O3 keeps the pairs
  // beyond 100 (box2d4r double), none at -O1 or with fewer literals.
  F.A.WideDoubleLiterals = 90;
  EXPECT_EQ(plan(2, 0).LiteralRegisters, 80);
  EXPECT_EQ(plan(2, 1).LiteralRegisters, 0);
  F.A.WideDoubleLiterals = 45;
  EXPECT_EQ(plan(2, 0).LiteralRegisters, 0);
}
