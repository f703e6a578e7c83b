//===- OutOfCoreTest.cpp - The out-of-core path of the host runtime -------===//
//
// runtime/an5d_runtime_ooc.h on the CPU emulation's CUDA API: the sizes
// AN5D_DEVICE_MEMORY takes, the chunking's arithmetic against its contract,
// and whole out-of-core runs of a small stencil against the plain loop.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// What a generated file defines before the runtime (an5dc's Target).
#define AN5D_MAX_GRID_X 2147483647L
#define AN5D_MAX_GRID_YZ 65535L

#include "an5d_emu.h"
#include "an5d_runtime.h"
#include "an5d_runtime_ooc.h"

namespace {

TEST(OutOfCoreTest, ParsesSizes) {
  EXPECT_EQ(an5d_parse_bytes("123"), 123);
  EXPECT_EQ(an5d_parse_bytes("4K"), 4096);
  EXPECT_EQ(an5d_parse_bytes("4k"), 4096);
  EXPECT_EQ(an5d_parse_bytes("3MiB"), 3LL << 20);
  EXPECT_EQ(an5d_parse_bytes("2GiB"), 2LL << 30);
  EXPECT_EQ(an5d_parse_bytes("5GB"), 5LL << 30);
  EXPECT_EQ(an5d_parse_bytes("0"), 0);
  EXPECT_EQ(an5d_parse_bytes(""), -1);
  EXPECT_EQ(an5d_parse_bytes("-5"), -1);
  EXPECT_EQ(an5d_parse_bytes("12X"), -1);
  EXPECT_EQ(an5d_parse_bytes("1.5G"), -1);
  EXPECT_EQ(an5d_parse_bytes("99999999999999999999G"), -1);
}

// Every chunking an5d_plan_chunks accepts: within the budget, TBT as the
// rule says, halos of TBT x reach that fit in one neighbouring chunk, and
// chunks that cover the planes once, their loads inside the grid and the
// buffer.
TEST(OutOfCoreTest, ChunksKeepTheirContract) {
  const size_t PlaneBytes = 80;
  for (long Planes = 1; Planes <= 90; Planes += 7)
    for (long Lo = 0; Lo <= 3; ++Lo)
      for (long Hi = 0; Hi <= 2; ++Hi)
        for (long Bt = 1; Bt <= 4; ++Bt)
          for (long Steps = 1; Steps <= 13; Steps += 4)
            for (size_t Budget = 480; Budget <= 60000; Budget = Budget * 3 / 2) {
              an5d_chunks C;
              if (!an5d_plan_chunks(Planes, PlaneBytes, Lo, Hi, Bt, Steps, Budget, 3, &C))
                continue;
              SCOPED_TRACE(::testing::Message() << Planes << " planes, reach " << Lo << "/"
                                                << Hi << ", bt " << Bt << ", " << Steps
                                                << " steps, budget " << Budget);
              EXPECT_LE(3 * 2 * C.buffer * PlaneBytes, Budget);
              EXPECT_GE(C.tbt, 1);
              EXPECT_LE(C.tbt, Steps);
              if (C.count > 1) {
                EXPECT_EQ(C.halo_lo, C.tbt * Lo);
                EXPECT_EQ(C.halo_hi, C.tbt * Hi);
                EXPECT_GE(C.depth, C.halo_lo);
                EXPECT_GE(C.depth, C.halo_hi);
                if (C.tbt < Steps && C.tbt >= Bt && Bt > 1) {
                  EXPECT_EQ(C.tbt % Bt, 0);
                }
                EXPECT_LE(C.tbt * (Lo + Hi), C.buffer / 4 > Lo + Hi ? C.buffer / 4 : Lo + Hi);
              }
              long Next = 0;
              for (long K = 0; K < C.count; ++K) {
                long Vf, Ve, Lf, Le;
                an5d_chunk_span(&C, Planes, K, &Vf, &Ve, &Lf, &Le);
                EXPECT_EQ(Vf, Next);
                EXPECT_LT(Vf, Ve);
                EXPECT_GE(Lf, 0);
                EXPECT_LE(Le, Planes);
                EXPECT_EQ(Lf, Vf > C.halo_lo ? Vf - C.halo_lo : 0);
                EXPECT_EQ(Le, Ve + C.halo_hi < Planes ? Ve + C.halo_hi : Planes);
                EXPECT_LE(Le - Lf, C.buffer);
                Next = Ve;
              }
              EXPECT_EQ(Next, Planes);
            }
}

TEST(OutOfCoreTest, RefusesABudgetWithoutRoomForOneStep) {
  an5d_chunks C;
  // Radius 1: a buffer needs 1 + 1 halo planes and one of its own.
  EXPECT_FALSE(an5d_plan_chunks(100, 80, 1, 1, 2, 5, 3 * 2 * 2 * 80, 3, &C));
  EXPECT_TRUE(an5d_plan_chunks(100, 80, 1, 1, 2, 5, 3 * 2 * 3 * 80, 3, &C));
  EXPECT_EQ(C.tbt, 1);
  EXPECT_EQ(C.depth, 1);
  // Radius 3 on one side: the chunk must hold a whole halo.
  EXPECT_FALSE(an5d_plan_chunks(100, 80, 3, 0, 1, 5, 3 * 2 * 5 * 80, 3, &C));
  EXPECT_TRUE(an5d_plan_chunks(100, 80, 3, 0, 1, 5, 3 * 2 * 6 * 80, 3, &C));
}

// A three-point average along the planes (reach 1 / 1), planes `first` ..
// `last` updated, the others boundary; plane (t + 1) % 2 is written.
void referenceSteps(std::vector<double> &Grid, long Planes, long Cells, long First, long Last,
                    long TFirst, long Steps) {
  for (long T = TFirst; T < TFirst + Steps; ++T) {
    const double *In = &Grid[(T % 2) * Planes * Cells];
    double *Out = &Grid[((T + 1) % 2) * Planes * Cells];
    for (long P = First; P <= Last; ++P)
      for (long C = 0; C < Cells; ++C)
        Out[P * Cells + C] =
            (In[(P - 1) * Cells + C] + 2 * In[P * Cells + C] + In[(P + 1) * Cells + C]) / 4 +
            0.001 * C;
  }
}

// The same on a chunk, as the kernels would run there.
long chunkSteps(double *Chunk, long Rows, long Cells, long First, long Last, long TFirst,
                long Steps) {
  std::vector<double> Copy(Chunk, Chunk + 2 * Rows * Cells);
  referenceSteps(Copy, Rows, Cells, First, Last, TFirst, Steps);
  std::memcpy(Chunk, Copy.data(), Copy.size() * sizeof(double));
  return Steps;
}

TEST(OutOfCoreTest, RunsAsThePlainLoop) {
  const long Planes = 57, Cells = 3, First = 1, Last = Planes - 2;
  for (long Steps : {1L, 2L, 3L, 4L, 7L, 12L})
    for (size_t Budget : {size_t(3 * 2 * 3 * 24), size_t(3 * 2 * 10 * 24),
                          size_t(3 * 2 * 30 * 24)}) {
      std::vector<double> Grid(2 * Planes * Cells);
      for (size_t I = 0; I < Grid.size(); ++I)
        Grid[I] = (I * 37 % 101) / 10.0;
      std::vector<double> Want = Grid;
      referenceSteps(Want, Planes, Cells, First, Last, 5, Steps);
      const long Launches = an5d_out_of_core(
          Grid.data(), Grid.data() + Planes * Cells, Planes, Cells, First, Last, 1,
          1, 2, 5, Steps, Budget,
          [&](double *Chunk, long Rows, long F, long L, long T, long N, int *Swapped, int End,
              int Part, long) {
            // Out of core, every pass ends as the C loop does.
            EXPECT_EQ(Swapped, nullptr);
            EXPECT_EQ(End, AN5D_END_AS_C);
            EXPECT_EQ(Part, AN5D_PART_ALL);
            return chunkSteps(Chunk, Rows, Cells, F, L, T, N);
          });
      EXPECT_GT(Launches, 0);
      for (size_t I = 0; I < Grid.size(); ++I)
        ASSERT_EQ(Grid[I], Want[I]) << Steps << " steps, budget " << Budget << ", cell " << I;
    }
}

} // namespace
