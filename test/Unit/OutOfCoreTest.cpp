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
#include <algorithm>
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

// A model of the window: each cell holds (grid plane, level) or nothing
// (-1); a launch of degree d stores level j + 1 at window plane r when its
// input plane holds level j at every plane it reads for r (r - d * lo ..
// r + d * hi), past a cut `last` only up to last - d * hi (above it the
// kernels read what is there), and the grid's boundary planes count at
// every level. The walk is right when every interior plane comes back at the
// pass's last level, and on a final pass the other plane one level below.
struct ModelOps {
  const an5d_ooc_geometry *G;
  const an5d_ooc_launch *L;
  long Window;
  int Read = 0;
  bool Final = true;
  std::vector<std::pair<long, long>> Cell[2];
  std::vector<long> Host[2];
  long Loads = 0, Launches = 0, Base = 0;
  void init() {
    for (int Q = 0; Q < 2; ++Q) {
      Cell[Q].assign(Window, {-1, -1});
      Host[Q].assign(G->planes, -1);
    }
  }
  bool boundary(long P) const { return P < G->first || P > G->last; }
  void relocate(long From, long End, long OldBase, long NewBase) {
    for (int Q = 0; Q < 2; ++Q)
      for (long P = From; P < End; ++P)
        Cell[Q][P - NewBase] = Cell[Q][P - OldBase];
    Base = NewBase;
  }
  void wait_loaded() {}
  void load(long From, long To, long Base) {
    ++Loads;
    for (long P = From; P < To; ++P) {
      EXPECT_GE(P - Base, 0);
      EXPECT_LT(P - Base, Window);
      Cell[Read][P - Base] = {P, 0};
      Cell[Read ^ 1][P - Base] = {P, boundary(P) ? 0 : -2}; // interior: don't care
    }
  }
  void run_launch(int J, long First, long Last, int Part, long Guard,
                  long Origin) {
    ++Launches;
    EXPECT_EQ(Origin, Base); // window plane 0 holds grid plane Base
    const long D = L[J].degree;
    const int In = Read ^ (J & 1);
    const long From = Part == AN5D_PART_FROM ? First + Guard : First;
    if (Part == AN5D_PART_FROM) {
      EXPECT_EQ(Guard % (G->stream_block > 0 ? G->stream_block : 1), 0);
      EXPECT_GE(Guard, D * G->lo);
      // The first block's warm-up computes planes First .. From - 1 as
      // interior: they must be.
      EXPECT_GE(First + Base, G->first);
    } else {
      // Without a guard the launch reads below First as boundary.
      EXPECT_TRUE(First + Base == G->first || D * G->lo == 0 || G->stream_block == 0);
    }
    // Window plane R holds grid plane R + Base.
    std::vector<std::pair<long, long>> Out(Cell[In ^ 1]);
    for (long R = From; R <= Last; ++R) {
      ASSERT_GE(R, 0);
      ASSERT_LT(R, Window);
      const long P = R + Base;
      bool Ok = true;
      // The cone of R: interior planes, and the boundary planes the stencil
      // reads beside them.
      const long Lowest = std::max(P - D * G->lo, G->first - G->lo);
      const long Highest = std::min(P + D * G->hi, G->last + G->hi);
      for (long X = Lowest - Base; X <= Highest - Base && Ok; ++X) {
        if (X < 0 || X >= Window) { Ok = false; break; }
        const auto C = Cell[In][X];
        if (C.first != X + Base) { Ok = false; break; }
        if (!(boundary(C.first) || C.second == (long)J)) Ok = false;
      }
      // Past a cut the kernels read what is there at the levels between.
      if (Last + Base != G->last && R > Last - D * G->hi)
        Ok = false;
      Out[R] = Ok ? std::make_pair(P, (long)J + 1) : std::make_pair(-1L, -1L);
    }
    Cell[In ^ 1] = Out;
  }
  void store(long From, long To, long Base) {
    for (long P = From; P <= To; ++P)
      for (int Q = 0; Q < 2; ++Q)
        Host[Q][P] = Cell[Q][P - Base].first == P ? Cell[Q][P - Base].second : -1;
  }
};

// Every walk the planner accepts returns every interior plane once, at the
// last level, over grids, reaches, degrees, stream blocks and windows.
TEST(OutOfCoreTest, WindowWalksAreExact) {
  long Walks = 0, Relocating = 0;
  for (long Planes : {9L, 23L, 61L, 130L})
    for (long Lo = 0; Lo <= 2; ++Lo)
      for (long Hi = 0; Hi <= 2; ++Hi)
        for (int Bt : {1, 2, 3})
          for (long Sb : {0L, 4L, 8L})
            for (long Steps : {1L, 5L, 12L})
              for (long Window = 4; Window <= Planes + 8; Window = Window * 3 / 2 + 1) {
                if (Sb == 0 && Bt > 1)
                  continue;
                if (Lo + Hi == 0)
                  continue;
                const long First = Lo > 0 ? Lo : 1, Last = Planes - 1 - (Hi > 0 ? Hi : 1);
                const an5d_ooc_geometry G = {Planes, First, Last, Lo, Hi, Sb};
                an5d_ooc_plan Plan;
                if (!an5d_ooc_plan_window(&G, Bt, Steps, Window, &Plan))
                  continue;
                SCOPED_TRACE(::testing::Message()
                             << Planes << " planes, reach " << Lo << "/" << Hi << ", bt " << Bt
                             << ", stream block " << Sb << ", " << Steps << " steps, window "
                             << Window << ": TBT " << Plan.tbt << ", depth " << Plan.depth);
                EXPECT_LE(Plan.window, Window);
                EXPECT_GE(Plan.tbt, 1);
                EXPECT_LE(Plan.tbt, Steps);
                an5d_ooc_launch Launch[AN5D_OOC_MAX_LAUNCHES];
                const int Count = an5d_ooc_full_pass(0, Plan.tbt, Bt, Launch);
                ModelOps Ops;
                Ops.G = &G;
                Ops.L = Launch;
                Ops.Window = Plan.window;
                Ops.init();
                ASSERT_TRUE(an5d_ooc_walk(&G, Launch, Count, Plan.depth, Plan.window, Ops));
                ++Walks;
                Relocating += Plan.relocations > 0;
                for (long P = First; P <= Last; ++P) {
                  ASSERT_EQ(Ops.Host[Count & 1][P], Count) << "plane " << P;
                  if (Count > 1) {
                    ASSERT_EQ(Ops.Host[(Count & 1) ^ 1][P], Count - 1) << "plane " << P;
                  }
                }
              }
  EXPECT_GT(Walks, 500);
  EXPECT_GT(Relocating, 50);
}

// A budget whose window holds no pass is refused; one plane more is not.
TEST(OutOfCoreTest, PlansNeedRoomForOneStep) {
  const an5d_ooc_geometry G = {100, 1, 98, 1, 1, 8};
  an5d_ooc_plan Plan;
  long Need = 1;
  while (!an5d_ooc_plan_window(&G, 2, 5, Need, &Plan))
    ++Need;
  EXPECT_GT(Need, 3);
  EXPECT_LT(Need, 40);
  EXPECT_FALSE(an5d_ooc_plan_window(&G, 2, 5, Need - 1, &Plan));
}

// The smallest window an error message names is the first that fits one
// step per pass, for reaches on either side and with or without a rim.
TEST(OutOfCoreTest, SmallestWindowIsTheFirstThatFits) {
  for (long Lo = 0; Lo <= 3; ++Lo)
    for (long Hi = 0; Hi <= 3; ++Hi) {
      if (Lo + Hi == 0)
        continue;
      const an5d_ooc_geometry G = {90, Lo > 0 ? Lo : 1, 88 - Hi, Lo, Hi, 0};
      an5d_ooc_plan Plan;
      long First = 1;
      while (!an5d_ooc_plan_window(&G, 1, 1, First, &Plan))
        ++First;
      EXPECT_EQ(an5d_ooc_smallest_window(&G, G.planes), First)
          << "lo " << Lo << " hi " << Hi;
    }
}

} // namespace
