//===- SlabsTest.cpp - The slab path of the host runtime ------------------===//
//
// runtime/an5d_runtime_slabs.h on the CPU emulation's CUDA API (one
// emulated device: the slabs share it, so the whole exchange runs): the
// slab arithmetic against its contract, AN5D_GPUS, the default's
// threshold, and whole runs of small stencils against the plain loop.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// What a generated file defines before the runtime (an5dc's Target).
#define AN5D_MAX_GRID_X 2147483647L
#define AN5D_MAX_GRID_YZ 65535L

#include "an5d_emu.h"
#include "an5d_runtime.h"
#include "an5d_runtime_ooc.h"
#include "an5d_runtime_slabs.h"

namespace {

// Sets an environment variable for one scope.
struct ScopedEnv {
  std::string Name;
  ScopedEnv(const char *N, const char *V) : Name(N) { setenv(N, V, 1); }
  ~ScopedEnv() { unsetenv(Name.c_str()); }
};

TEST(SlabsTest, SpansSplitThePlanesUnevenly) {
  an5d_slab_plan P;
  ASSERT_EQ(an5d_plan_slabs(512, 1, 1, 2, 3, &P), 3);
  long Vf, Ve, Lf, Le;
  const long Want[3] = {171, 171, 170};
  for (long S = 0; S < 3; ++S) {
    an5d_slab_span(&P, 512, S, &Vf, &Ve, &Lf, &Le);
    EXPECT_EQ(Ve - Vf, Want[S]);
  }
  an5d_slab_span(&P, 512, 1, &Vf, &Ve, &Lf, &Le);
  EXPECT_EQ(Lf, 171 - 2);
  EXPECT_EQ(Le, 342 + 2);
}

// Every plan: the slabs cover the planes once, in order, depths differing
// by at most one plane (the deeper first); halos of exchange x reach,
// clipped to the grid; each at least as deep as either halo, so a halo
// comes from one neighbour.
TEST(SlabsTest, SlabsKeepTheirContract) {
  for (long Planes = 1; Planes <= 80; Planes += 3)
    for (long Lo = 0; Lo <= 3; ++Lo)
      for (long Hi = 0; Hi <= 2; ++Hi)
        for (long Bt = 1; Bt <= 4; ++Bt)
          for (long Wanted = 2; Wanted <= 9; ++Wanted) {
            an5d_slab_plan P;
            const long Count = an5d_plan_slabs(Planes, Lo, Hi, Bt, Wanted, &P);
            SCOPED_TRACE(::testing::Message() << Planes << " planes, reach " << Lo << "/"
                                              << Hi << ", bt " << Bt << ", " << Wanted
                                              << " wanted");
            EXPECT_EQ(P.count, Count);
            EXPECT_GE(Count, 1);
            EXPECT_LE(Count, Wanted);
            EXPECT_EQ(P.exchange, Bt);
            EXPECT_EQ(P.halo_lo, Bt * Lo);
            EXPECT_EQ(P.halo_hi, Bt * Hi);
            const long Wide = std::max(std::max(P.halo_lo, P.halo_hi), 1L);
            // Merged only as far as the halos need.
            if (Count < Wanted) {
              EXPECT_LT(Planes / (Count + 1), Wide);
            }
            long Next = 0, Deepest = -1;
            for (long S = 0; S < Count; ++S) {
              long Vf, Ve, Lf, Le;
              an5d_slab_span(&P, Planes, S, &Vf, &Ve, &Lf, &Le);
              EXPECT_EQ(Vf, Next);
              if (Count > 1) {
                EXPECT_GE(Ve - Vf, Wide);
              }
              if (Deepest >= 0) {
                EXPECT_TRUE(Ve - Vf == Deepest || Ve - Vf == Deepest - 1);
              }
              if (S == 0)
                Deepest = Ve - Vf;
              EXPECT_EQ(Lf, std::max(Vf - P.halo_lo, 0L));
              EXPECT_EQ(Le, std::min(Ve + P.halo_hi, Planes));
              Next = Ve;
            }
            EXPECT_EQ(Next, Planes);
          }
}

TEST(SlabsTest, ThinSlabsMerge) {
  an5d_slab_plan P;
  // Radius 1, bT 2: halos of 2 planes, so slabs of at least 2.
  EXPECT_EQ(an5d_plan_slabs(10, 1, 1, 2, 5, &P), 5);
  EXPECT_EQ(an5d_plan_slabs(9, 1, 1, 2, 5, &P), 4);
  EXPECT_EQ(an5d_plan_slabs(3, 1, 1, 2, 5, &P), 1);
  // One-sided reach: only that halo counts.
  EXPECT_EQ(an5d_plan_slabs(12, 0, 2, 3, 5, &P), 2);
  // No reach along the planes: slabs of one plane.
  EXPECT_EQ(an5d_plan_slabs(4, 0, 0, 2, 9, &P), 4);
}

TEST(SlabsTest, DefaultTakesEveryGpuForLargeGrids) {
  EXPECT_EQ(an5d_default_gpus(1, 4096, 4096 * 4096), 1);
  EXPECT_EQ(an5d_default_gpus(4, 4096, 4096 * 4096), 4);
  EXPECT_EQ(an5d_default_gpus(4, 256, 256 * 256), 4);       // 4 Mi cells each
  EXPECT_EQ(an5d_default_gpus(4, 255, 256 * 256), 1);
  EXPECT_EQ(an5d_default_gpus(2, 100, 100), 1);
}

TEST(SlabsTest, ReadsGpus) {
  unsetenv("AN5D_GPUS");
  EXPECT_EQ(an5d_gpus_wanted(), 0);
  {
    ScopedEnv E("AN5D_GPUS", "3");
    EXPECT_EQ(an5d_gpus_wanted(), 3);
  }
  {
    ScopedEnv E("AN5D_GPUS", "");
    EXPECT_EQ(an5d_gpus_wanted(), 0);
  }
  for (const char *Bad : {"0", "-2", "two", "3x"}) {
    ScopedEnv E("AN5D_GPUS", Bad);
    EXPECT_EXIT(an5d_gpus_wanted(), ::testing::ExitedWithCode(1), "is not a count of GPUs");
  }
}

// The stencil of these runs: reach lo back and hi ahead along the planes,
// planes lo .. planes - 1 - hi updated, the others boundary; step t reads
// plane t % 2 and writes the other.
struct Stencil {
  long Lo, Hi, Cells;
  void steps(double *Grid, long Planes, long First, long Last, long TFirst, long Steps) const {
    for (long T = TFirst; T < TFirst + Steps; ++T) {
      const double *In = Grid + (T % 2) * Planes * Cells;
      double *Out = Grid + ((T + 1) % 2) * Planes * Cells;
      for (long P = First; P <= Last; ++P)
        for (long C = 0; C < Cells; ++C) {
          double Sum = 2 * In[P * Cells + C];
          for (long D = 1; D <= Lo; ++D)
            Sum += In[(P - D) * Cells + C] / D;
          for (long D = 1; D <= Hi; ++D)
            Sum += In[(P + D) * Cells + C] / (D + 1);
          Out[P * Cells + C] = Sum / 4 + 0.001 * C;
        }
    }
  }
};

// Runs `Steps` steps in `Gpus` slabs and in the plain loop; true when both
// planes agree in every cell.
void expectSlabsAsPlainLoop(const Stencil &St, long Planes, long Gpus, long Bt, long Steps) {
  SCOPED_TRACE(::testing::Message() << Planes << " planes, reach " << St.Lo << "/" << St.Hi
                                    << ", " << Gpus << " slabs, bt " << Bt << ", " << Steps
                                    << " steps");
  const long Cells = St.Cells, First = St.Lo, Last = Planes - 1 - St.Hi;
  std::vector<double> Grid(2 * Planes * Cells);
  for (size_t I = 0; I < Grid.size(); ++I)
    Grid[I] = (I * 37 % 101) / 10.0;
  std::vector<double> Want = Grid;
  St.steps(Want.data(), Planes, First, Last, 5, Steps);
  const std::string Count = std::to_string(Gpus);
  ScopedEnv E("AN5D_GPUS", Count.c_str());
  long Calls = 0, SwappedRuns = 0, Parts = 0;
  const double Undefined = std::nan("");
  const int Taken = an5d_slabs(
      Grid.data(), Grid.data() + Planes * Cells, Planes, Cells, First, Last, St.Lo, St.Hi, Bt,
      /*shift=*/1, an5d_plane_box{Cells, 0, 1, 0, Cells}, Bt, 0, 5, Steps,
      [&](double *Part, long Rows, long F, long L, long T, long N, int *Swapped, int End,
          int Which, long Guard, long Origin) {
        // The slab's first plane is a grid plane at or below its interior.
        EXPECT_GE(Origin, 0);
        EXPECT_LE(Origin + F, Last);
        // The slab's buffer is device memory: the emulation's is the host's.
        EXPECT_GE(F, 0);
        EXPECT_LT(L, Rows);
        EXPECT_LE(N, Bt);
        ++Calls;
        const int Entry = Swapped != nullptr ? *Swapped : 0;
        if (End == AN5D_END_AS_C) {
          EXPECT_EQ(Entry, 0);
        }
        // A part of a launch (slab rounds of one launch): computed whole on a
        // copy, then only its rows stored into the plane the launch writes;
        // the inner part comes first and must not need the halos.
        std::vector<double> Copy;
        double *Buf = Part;
        if (Which != AN5D_PART_ALL) {
          EXPECT_EQ(End, AN5D_END_OPEN);
          Copy.assign(Part, Part + 2 * Rows * Cells);
          Buf = Copy.data();
          ++Parts;
        }
        // As the N.5D launches do: the interior from the plane the data is
        // in, the other planes from the C loop's plane (T % 2 here).
        double *Plane[2] = {Buf, Buf + Rows * Cells};
        if (Entry)
          std::copy(Plane[(T + 1) % 2] + F * Cells, Plane[(T + 1) % 2] + (L + 1) * Cells,
                    Plane[T % 2] + F * Cells);
        St.steps(Buf, Rows, F, L, T, N);
        if (Swapped == nullptr || End == AN5D_END_AS_C)
          return N;
        // Like one launch of degree N: the data moves to the other plane once,
        // so it ends in the other plane than the C loop's when N is even
        // (AN5D_END_UNSWAPPED would split the launch instead). The other
        // plane's interior is then undefined: NaN, which the comparison sees.
        const int Out = End == AN5D_END_OPEN ? Entry ^ (N % 2 == 0) : 0;
        const int Data = (T + N) % 2 ^ Out;
        if (Out)
          std::copy(Plane[(T + N) % 2] + F * Cells, Plane[(T + N) % 2] + (L + 1) * Cells,
                    Plane[Data] + F * Cells);
        *Swapped = Out;
        if (Which == AN5D_PART_ALL) {
          std::fill(Plane[Data ^ 1] + F * Cells, Plane[Data ^ 1] + (L + 1) * Cells, Undefined);
          SwappedRuns += Out;
          return N;
        }
        double *Into = Part + Data * Rows * Cells;
        for (long R = F; R <= L; ++R) {
          const bool Inner = R >= F + Guard && R <= L - Guard;
          if (Inner == (Which == AN5D_PART_INNER))
            std::copy(Plane[Data] + R * Cells, Plane[Data] + (R + 1) * Cells, Into + R * Cells);
        }
        if (Which == AN5D_PART_EDGES) {
          std::fill(Part + (Data ^ 1) * Rows * Cells + F * Cells,
                    Part + (Data ^ 1) * Rows * Cells + (L + 1) * Cells, Undefined);
          SwappedRuns += Out;
        }
        return Which == AN5D_PART_EDGES ? N : 0;
      });
  if (Bt % 2 == 0 && Steps > 2 * Bt) {
    EXPECT_GT(SwappedRuns, 0);
  }
  if (Steps > 3 * Bt) {
    EXPECT_GT(Parts, 0);
  }
  ASSERT_EQ(Taken, 1);
  EXPECT_GT(Calls, 0);
  for (size_t I = 0; I < Grid.size(); ++I)
    ASSERT_EQ(Grid[I], Want[I]) << "cell " << I;
}

TEST(SlabsTest, RunsAsThePlainLoop) {
  const Stencil Star{1, 1, 3};
  for (long Gpus : {2L, 3L, 5L})
    for (long Steps : {1L, 2L, 3L, 4L, 7L, 12L})
      expectSlabsAsPlainLoop(Star, 57, Gpus, 2, Steps);
  // Degree 3, several rounds, slabs just as deep as the halo.
  expectSlabsAsPlainLoop(Star, 15, 5, 3, 10);
}

TEST(SlabsTest, RunsAsThePlainLoopWithOneSidedReach) {
  for (const Stencil &St : {Stencil{2, 0, 2}, Stencil{0, 1, 2}, Stencil{2, 1, 1}})
    for (long Steps : {1L, 3L, 5L, 8L})
      expectSlabsAsPlainLoop(St, 41, 3, 3, Steps);
}

TEST(SlabsTest, OneSlabLeavesItToTheOneGpuPath) {
  std::vector<double> Grid(2 * 20 * 2, 1.0);
  auto Run = [](double *, long, long, long, long, long N, int *, int, int, long, long) { return N; };
  unsetenv("AN5D_GPUS");
  EXPECT_EQ(an5d_slabs(Grid.data(), Grid.data() + 40, 20, 2, 1, 18, 1, 1, 2, 1, an5d_plane_box{2, 0, 1, 0, 2}, 2, 4, 0, 4, Run), 0);
  ScopedEnv E("AN5D_GPUS", "1");
  EXPECT_EQ(an5d_slabs(Grid.data(), Grid.data() + 40, 20, 2, 1, 18, 1, 1, 2, 1, an5d_plane_box{2, 0, 1, 0, 2}, 2, 4, 0, 4, Run), 0);
  EXPECT_STREQ(getenv("NCCL_NVLS_ENABLE"), "0");
}

// By default, slabs that do not fit their GPUs leave the run to one GPU
// (out of core there, faster today than several GPUs out of core): the
// default's slab count needs 4 Mi cells a GPU, so this grid is that large.
TEST(SlabsTest, DefaultSlabsOverTheBudgetLeaveItToOneGpu) {
  const long Planes = 64, Cells = 1L << 17; // 8 Mi cells a time plane
  std::vector<float> Grid(2 * Planes * Cells, 1.0f);
  long Calls = 0;
  auto Run = [&](float *, long, long, long, long, long N, int *, int, int, long, long) {
    ++Calls;
    return N;
  };
  unsetenv("AN5D_GPUS");
  ScopedEnv D("AN5D_EMU_DEVICES", "2");
  ScopedEnv M("AN5D_DEVICE_MEMORY", "1M");
  EXPECT_EQ(an5d_slabs(Grid.data(), Grid.data() + Planes * Cells, Planes, Cells, 1, Planes - 2, 1, 1, 2, 1,
                       an5d_plane_box{Cells, 0, 1, 0, Cells}, 2, 4, 0, 4, Run),
            0);
  EXPECT_EQ(Calls, 0);
}

} // namespace
