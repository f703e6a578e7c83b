//===- RuntimeTest.cpp - The host runtime every generated file holds ------===//
//
// runtime/an5d_runtime.h against the CPU emulation's CUDA API: tile ranges
// against their definition, the launch schedules' step counts and parity,
// the read plane, the comparison of AN5D_VERIFY, the autotuner's cache and
// choice, timing, and the split of launches past the grid's limits.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

// What a generated file defines before the runtime (an5dc's Target).
#define AN5D_MAX_GRID_X 2147483647L
#define AN5D_MAX_GRID_YZ 65535L

#include "an5d_emu.h"
#include "an5d_runtime.h"

namespace {

// Whether tile b of a range may go to the interior tiles' kernel: every
// column it reads is interior but for ring_lo / ring_hi boundary columns.
// A partial last tile starts at cols - width.
bool interiorTile(long B, long Cols, long Width, long Halo, long Loaded,
                  long RingLo, long RingHi) {
  long Count = (Cols + Width - 1) / Width;
  long Start = B * Width;
  if (B == Count - 1 && Start + Width > Cols)
    Start = Cols - Width;
  return Start - Halo >= -RingLo && Start - Halo + Loaded <= Cols + RingHi;
}

TEST(RuntimeTest, TileRangeHoldsOnlyInteriorTiles) {
  for (long Cols = 1; Cols <= 70; ++Cols)
    for (long Width = 1; Width <= 12; ++Width)
      for (long Halo = 0; Halo <= 6; Halo += 2)
        for (long Ring = 0; Ring <= 2; ++Ring) {
          long Loaded = Width + 2 * Halo;
          an5d_tile_span S =
              an5d_tile_range(Cols, Width, Halo, Loaded, Ring, Ring);
          ASSERT_EQ(S.count, (Cols + Width - 1) / Width);
          ASSERT_LE(0, S.lo);
          ASSERT_LE(S.lo, S.hi);
          ASSERT_LE(S.hi, S.count);
          for (long B = S.lo; B < S.hi; ++B)
            ASSERT_TRUE(interiorTile(B, Cols, Width, Halo, Loaded, Ring, Ring))
                << "cols " << Cols << " width " << Width << " halo " << Halo
                << " ring " << Ring << " tile " << B;
        }
}

TEST(RuntimeTest, TileRangeTakesEveryInteriorTileOfAWideGrid) {
  // 2^33 columns: counts and offsets past 32 bits.
  const long Cols = 1L << 33, Width = 120, Halo = 4;
  an5d_tile_span S = an5d_tile_range(Cols, Width, Halo, Width + 8, 0, 0);
  EXPECT_EQ(S.count, (Cols + Width - 1) / Width);
  EXPECT_EQ(S.lo, 1);
  // The last, partial tile would read 4 columns past the interior even
  // moved back: it is an edge tile, every one before it interior.
  EXPECT_EQ(S.hi, S.count - 1);
  EXPECT_TRUE(interiorTile(S.hi - 1, Cols, Width, Halo, Width + 8, 0, 0));
  EXPECT_FALSE(interiorTile(S.hi, Cols, Width, Halo, Width + 8, 0, 0));
  // With a ring of 4 boundary columns after the interior it moves back.
  EXPECT_EQ(an5d_tile_range(Cols, Width, Halo, Width + 8, 0, 4).hi, S.count);
}

TEST(RuntimeTest, LaunchScheduleRunsEveryStepWithTheRightParity) {
  for (int BT = 1; BT <= 8; ++BT)
    for (long Steps = 1; Steps <= 100; ++Steps) {
      an5d_schedule S = an5d_launch_schedule(Steps, BT);
      ASSERT_GE(S.full, 0);
      ASSERT_GE(S.tail_count, 1);
      ASSERT_LE(S.tail_count, 4);
      long Total = S.full * BT, Launches = S.full + S.tail_count;
      for (int I = 0; I < S.tail_count; ++I) {
        ASSERT_GE(S.tail[I], 1);
        ASSERT_LE(S.tail[I], BT);
        Total += S.tail[I];
      }
      EXPECT_EQ(Total, Steps) << "bT " << BT;
      // Each launch moves the data to the other plane.
      EXPECT_EQ(Launches % 2, Steps % 2) << "bT " << BT << " steps " << Steps;
      // The last launch is one step, so the other plane holds t_last - 1.
      EXPECT_EQ(S.tail[S.tail_count - 1], 1);
    }
  an5d_schedule Long = an5d_launch_schedule(5000000001L, 4);
  EXPECT_EQ(Long.full, 1250000000L);
}

// Three time levels: the last launch is of at most 2 steps (a launch stores
// its last two levels), with one launch more than the fewest at most.
TEST(RuntimeTest, LevelScheduleEndsWithAtMostTwoSteps) {
  for (int BT = 1; BT <= 8; ++BT)
    for (long Steps = 1; Steps <= 100; ++Steps) {
      an5d_schedule S = an5d_level_schedule(Steps, BT);
      long Total = S.full * BT;
      for (int I = 0; I < S.tail_count; ++I) {
        ASSERT_GE(S.tail[I], 1);
        ASSERT_LE(S.tail[I], BT);
        Total += S.tail[I];
      }
      EXPECT_EQ(Total, Steps) << "bT " << BT;
      int Last = S.tail_count ? S.tail[S.tail_count - 1] : BT;
      EXPECT_LE(Last, 2) << "bT " << BT << " steps " << Steps;
      long Fewest = (Steps + BT - 1) / BT;
      EXPECT_GE(S.full + S.tail_count, Fewest);
      EXPECT_LE(S.full + S.tail_count, Fewest + 1);
    }
}

// A device row's lead puts the interior's first cell on a vector, and the
// row with its lead still fits the kernels' int indices.
TEST(RuntimeTest, RowLeadPutsTheFirstCellOnAVector) {
  for (long Lanes : {2L, 4L})
    for (long First = 0; First < 12; ++First) {
      long Lead = an5d_row_lead(First, 518, Lanes);
      EXPECT_GE(Lead, 0);
      EXPECT_LT(Lead, Lanes);
      EXPECT_EQ((First + Lead) % Lanes, 0) << "first " << First;
    }
  EXPECT_EQ(an5d_row_lead(3, AN5D_MAX_EXTENT, 4), 0);
  EXPECT_EQ(an5d_row_lead(3, AN5D_MAX_EXTENT - 1, 4), 1);
}

// The tiles end at their last whole one exactly when 1 .. max_rest
// columns are left past it, and never leave columns without a whole tile.
TEST(RuntimeTest, TilesLastLeavesOnlyAShortRest) {
  EXPECT_EQ(an5d_tiles_last(0, 511, 128, 16), 511);   // whole tiles
  EXPECT_EQ(an5d_tiles_last(0, 513, 128, 16), 511);   // 2 left: a strip
  EXPECT_EQ(an5d_tiles_last(4, 517, 128, 16), 515);   // from 4: 2 left
  EXPECT_EQ(an5d_tiles_last(0, 528, 128, 16), 528);   // 17 left: shifted back
  EXPECT_EQ(an5d_tiles_last(0, 100, 128, 16), 100);   // no whole tile
  for (long Start = 0; Start < 4; ++Start)
    for (long Last = Start; Last < Start + 300; ++Last) {
      long L = an5d_tiles_last(Start, Last, 32, 4);
      long Rest = Last - L;
      EXPECT_TRUE(Rest == 0 || (Rest <= 4 && (L + 1 - Start) % 32 == 0));
      EXPECT_GE(L, Start);
    }
}

// The schedules of a run whose data may stay in the other plane (slab
// rounds): every step once, the fewest launches, and the plane they end in.
TEST(RuntimeTest, EndScheduleEndsWhereAsked) {
  for (int BT = 1; BT <= 8; ++BT)
    for (long Steps = 1; Steps <= 40; ++Steps)
      for (int Swapped : {0, 1})
        for (int End : {AN5D_END_OPEN, AN5D_END_UNSWAPPED}) {
          if (BT == 1 && Swapped)
            continue; // launches of one step never swap
          an5d_schedule S = an5d_end_schedule(Steps, BT, Swapped, End);
          long Total = S.full * BT, Launches = S.full + S.tail_count;
          for (int I = 0; I < S.tail_count; ++I) {
            ASSERT_GE(S.tail[I], 1);
            ASSERT_LE(S.tail[I], BT);
            Total += S.tail[I];
          }
          ASSERT_EQ(Total, Steps) << BT << " " << Steps;
          const int Out = (Swapped + Launches + Steps) % 2;
          const long Fewest = (Steps + BT - 1) / BT;
          if (End == AN5D_END_OPEN) {
            EXPECT_EQ(Launches, Fewest) << BT << " " << Steps;
          } else if (Steps >= 2 && BT >= 2) {
            EXPECT_EQ(Out, 0) << BT << " " << Steps << " " << Swapped;
            EXPECT_LE(Launches, Fewest + 1);
          }
        }
  // One launch of degree 4 from the C loop's plane ends in the other one.
  an5d_schedule S = an5d_end_schedule(4, 4, 0, AN5D_END_OPEN);
  EXPECT_EQ(S.full, 1);
  EXPECT_EQ(S.tail_count, 0);
  S = an5d_end_schedule(4, 4, 0, AN5D_END_UNSWAPPED);
  EXPECT_EQ(S.full, 0);
  ASSERT_EQ(S.tail_count, 2);
  EXPECT_EQ(S.tail[0], 3);
  EXPECT_EQ(S.tail[1], 1);
}

TEST(RuntimeTest, VectorScheduleEndsWithSingleSteps) {
  for (int BT = 1; BT <= 6; ++BT)
    for (long Steps = 1; Steps <= 50; ++Steps) {
      long Full = an5d_vector_full_launches(Steps, BT);
      long Single = Steps - Full * (BT > 1 ? BT : 0);
      if (BT == 1) {
        EXPECT_EQ(Full, 0);
        continue;
      }
      EXPECT_GE(Single, Steps >= 2 ? 2 : Steps) << BT << " " << Steps;
      EXPECT_LE(Single, BT + 1) << BT << " " << Steps;
    }
}

TEST(RuntimeTest, ReadPlaneIsTheStepParityShifted) {
  EXPECT_EQ(an5d_read_plane(0, 1), 0);
  EXPECT_EQ(an5d_read_plane(1, 1), 1);
  EXPECT_EQ(an5d_read_plane(0, 0), 1);
  EXPECT_EQ(an5d_read_plane(-3, 1), 1);
  EXPECT_EQ(an5d_read_plane(-4, 2), 1);
  EXPECT_EQ(an5d_read_plane(3000000001L, 1), 1);
}

TEST(RuntimeTest, CompareIsRelativeAboveOneAndSeesNaN) {
  const double Ref[3] = {0.5, 100.0, -3.0};
  const double Got[3] = {0.5 + 1e-6, 100.0 + 1e-3, -3.0};
  an5d_errors E = an5d_compare(Ref, Got, 3);
  EXPECT_NEAR(E.max_abs, 1e-3, 1e-9);
  EXPECT_NEAR(E.max_rel, 1e-5, 1e-9);
  const float RefF[2] = {1.0f, 2.0f};
  const float GotF[2] = {1.0f, NAN};
  EXPECT_TRUE(std::isinf(an5d_compare(RefF, GotF, 2).max_rel));
}

TEST(RuntimeTest, VerifyCompareExitsBeyondTheTolerance) {
  const float Got[2] = {1.0f, 2.5f};
  EXPECT_EXIT(
      {
        float *Ref = an5d_verify_copy(Got, 2);
        Ref[1] = 2.0f;
        an5d_verify_compare(Ref, Got, 2, 1e-4);
      },
      ::testing::ExitedWithCode(1), "max rel error 0.25");
}

/// A fresh directory for cache files, removed with its contents.
struct TempDir {
  std::string Path;
  TempDir() {
    char Name[] = "/tmp/an5d-runtime-test-XXXXXX";
    Path = mkdtemp(Name);
  }
  ~TempDir() { std::system(("rm -rf '" + Path + "'").c_str()); }
};

TEST(RuntimeTest, CachePathFollowsTheEnvironment) {
  TempDir Dir;
  char Path[4096];
  setenv("AN5D_TUNE_CACHE", (Dir.Path + "/given.txt").c_str(), 1);
  ASSERT_TRUE(an5d_cache_path(Path, sizeof Path, 0));
  EXPECT_EQ(std::string(Path), Dir.Path + "/given.txt");
  unsetenv("AN5D_TUNE_CACHE");
  setenv("XDG_CACHE_HOME", Dir.Path.c_str(), 1);
  ASSERT_TRUE(an5d_cache_path(Path, sizeof Path, 1));
  EXPECT_EQ(std::string(Path), Dir.Path + "/an5d/autotune.txt");
  EXPECT_EQ(access((Dir.Path + "/an5d").c_str(), F_OK), 0);
  // A path that does not fit is no path.
  char Small[8];
  EXPECT_FALSE(an5d_cache_path(Small, sizeof Small, 0));
  unsetenv("XDG_CACHE_HOME");
}

TEST(RuntimeTest, CacheLookupTakesTheLastKnownLabelOfTheKey) {
  TempDir Dir;
  std::string File = Dir.Path + "/cache.txt";
  const char *Labels[2] = {"bT 2, bS 32, hSN 64", "bT 4, bS 64, hSN 128"};
  EXPECT_EQ(an5d_cache_lookup(File.c_str(), "k 8x8 gpu s", Labels, 2), -1);
  ASSERT_TRUE(an5d_cache_store(File.c_str(), "k 8x8 gpu s", Labels[1]));
  ASSERT_TRUE(an5d_cache_store(File.c_str(), "k 8x8 gpu s", Labels[0]));
  ASSERT_TRUE(an5d_cache_store(File.c_str(), "k 8x8 gpu s", "unknown label"));
  ASSERT_TRUE(an5d_cache_store(File.c_str(), "k 8x8 gpu s2", Labels[1]));
  EXPECT_EQ(an5d_cache_lookup(File.c_str(), "k 8x8 gpu s", Labels, 2), 0);
  EXPECT_EQ(an5d_cache_lookup(File.c_str(), "k 8x8 gpu s2", Labels, 2), 1);
  // A key that is a prefix of a cached one does not match it.
  EXPECT_EQ(an5d_cache_lookup(File.c_str(), "k 8x8 gpu", Labels, 2), -1);
}

TEST(RuntimeTest, TuneKeyNamesStencilSizeGpuAndCandidates) {
  char Key[128];
  const long Ext[3] = {10, 20, 3000000000L};
  an5d_tune_key(Key, sizeof Key, "kernel@f.c float", Ext, 3, "NVIDIA H200 X",
                "4/32,8/64");
  EXPECT_STREQ(Key,
               "kernel@f.c float 10x20x3000000000 NVIDIA_H200_X 4/32,8/64");
  // Truncated to fit a small key buffer.
  volatile size_t Size = 12; // unknown to gcc, which would warn
  std::vector<char> Short(Size);
  an5d_tune_key(Short.data(), Short.size(), "kernel@f.c float", Ext, 3, "gpu",
                "s");
  EXPECT_EQ(std::strlen(Short.data()), Short.size() - 1);
}

TEST(RuntimeTest, ChooseTimesEachCandidateOnceAndRemembers) {
  TempDir Dir;
  setenv("AN5D_TUNE_CACHE", (Dir.Path + "/tune.txt").c_str(), 1);
  float *Grid = nullptr;
  ASSERT_EQ(cudaMalloc(&Grid, 64 * sizeof(float)), cudaSuccess);
  for (int I = 0; I < 64; ++I)
    Grid[I] = 1.0f;
  const char *Labels[3] = {"slow", "fast", "slower"};
  const long Ext[2] = {8, 4};
  int Trials[3] = {0, 0, 0};
  auto Trial = [&](int C, void *Scratch, long Steps) {
    // The trials run on a scratch copy, never on the user's planes.
    EXPECT_NE(Scratch, (void *)Grid);
    static_cast<float *>(Scratch)[0] = -1.0f;
    EXPECT_EQ(Steps, 5);
    ++Trials[C];
    usleep(C == 1 ? 1000 : 20000);
  };
  int Choice = an5d_choose("k@f.c float", Ext, 2, "sig", Labels, 3, Grid,
                           64 * sizeof(float), 5, Trial);
  EXPECT_EQ(Choice, 1);
  EXPECT_EQ(Trials[0], 3); // a warm-up and two timed runs each
  EXPECT_EQ(Trials[1], 3);
  EXPECT_EQ(Grid[0], 1.0f);
  // The same key again: remembered, nothing timed.
  EXPECT_EQ(an5d_choose("k@f.c float", Ext, 2, "sig", Labels, 3, Grid,
                        64 * sizeof(float), 5, Trial),
            1);
  EXPECT_EQ(Trials[1], 3);
  // Another grid size: the cache file answers for this one only, so it is
  // timed (and cached) too.
  const long Other[2] = {8, 5};
  an5d_choose("k@f.c float", Other, 2, "sig", Labels, 3, Grid,
              64 * sizeof(float), 5, Trial);
  EXPECT_EQ(Trials[1], 6);
  char Path[4096];
  ASSERT_TRUE(an5d_cache_path(Path, sizeof Path, 0));
  EXPECT_EQ(an5d_cache_lookup(Path, "k@f.c float 8x4 an5d_CPU_emulation sig",
                              Labels, 3),
            1);
  cudaFree(Grid);
  unsetenv("AN5D_TUNE_CACHE");
}

TEST(RuntimeTest, TimedRunRepeatsFromTheSamePlanes) {
  int *Grid = nullptr;
  ASSERT_EQ(cudaMalloc(&Grid, 4 * sizeof(int)), cudaSuccess);
  for (int I = 0; I < 4; ++I)
    Grid[I] = I;
  int Runs = 0;
  auto Run = [&] {
    // Every run starts from the planes the first one saw.
    EXPECT_EQ(Grid[0], 0);
    Grid[0] += 10;
    ++Runs;
    return 7L;
  };
  unsetenv("AN5D_TIMING");
  EXPECT_EQ(an5d_timed_run(Grid, 4 * sizeof(int), 3, Run), 7);
  EXPECT_EQ(Runs, 1);
  Grid[0] = 0;
  setenv("AN5D_TIMING", "3", 1);
  testing::internal::CaptureStderr();
  EXPECT_EQ(an5d_timed_run(Grid, 4 * sizeof(int), 3, Run), 7);
  std::string Printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(Runs, 5); // a warm-up and three timed runs
  EXPECT_NE(Printed.find("3 steps in 7 launches (mean of 3 runs after a "
                         "warm-up)"),
            std::string::npos)
      << Printed;
  unsetenv("AN5D_TIMING");
  cudaFree(Grid);
}

// A run whose launch 3 of 8 is flagged: the checked pass makes every launch
// (each after the flag sees it and would leave the planes alone), then
// launches 3 .. 7 run again unchecked; without check, one unchecked pass.
TEST(RuntimeTest, CheckedLaunchesRedoFromTheFlaggedLaunch) {
  std::vector<std::pair<long, bool>> Calls; // (from, checked)
  auto Run = [&](long From, unsigned long long *Unproved) {
    Calls.push_back({From, Unproved != nullptr});
    if (Unproved != nullptr)
      for (long L = From; L < 8; ++L)
        if (L == 3 || L == 5) // what a kernel's atomicMin would leave
          *Unproved = *Unproved < (unsigned long long)L ? *Unproved : L;
  };
  EXPECT_EQ(an5d_checked_launches(1, 8, Run), 8 + 5);
  ASSERT_EQ(Calls.size(), 2u);
  EXPECT_EQ(Calls[0], std::make_pair(0L, true));
  EXPECT_EQ(Calls[1], std::make_pair(3L, false));
  Calls.clear();
  EXPECT_EQ(an5d_checked_launches(0, 8, Run), 8);
  ASSERT_EQ(Calls.size(), 1u);
  EXPECT_EQ(Calls[0], std::make_pair(0L, false));
  // No flag: one checked pass.
  Calls.clear();
  auto Clean = [&](long From, unsigned long long *Unproved) {
    Calls.push_back({From, Unproved != nullptr});
  };
  EXPECT_EQ(an5d_checked_launches(1, 8, Clean), 8);
  ASSERT_EQ(Calls.size(), 1u);
  EXPECT_EQ(Calls[0], std::make_pair(0L, true));
}

// One part of a split launch: its grid and first blocks along y and z.
struct Part {
  unsigned X, Y, Z;
  int Y0, Z0;
  bool operator==(const Part &O) const {
    return X == O.X && Y == O.Y && Z == O.Z && Y0 == O.Y0 && Z0 == O.Z0;
  }
};

std::vector<Part> launchParts(long X, long Y, long Z) {
  std::vector<Part> Parts;
  long Count = an5d_launch_parts(X, Y, Z, "x", [&](dim3 B, int Y0, int Z0) {
    Parts.push_back({B.x, B.y, B.z, Y0, Z0});
  });
  EXPECT_EQ(Count, (long)Parts.size());
  return Parts;
}

TEST(RuntimeTest, LaunchPartsCoverTheGridWithinTheLimits) {
  const unsigned Max = 65535;
  EXPECT_EQ(launchParts(7, 65535, 1), (std::vector<Part>{{7, Max, 1, 0, 0}}));
  EXPECT_EQ(launchParts(7, 65536, 1),
            (std::vector<Part>{{7, Max, 1, 0, 0}, {7, 1, 1, 65535, 0}}));
  // z outside, y inside; every part within the limit, their blocks in all
  // the grid's.
  EXPECT_EQ(launchParts(1, 3, 140000),
            (std::vector<Part>{{1, 3, Max, 0, 0},
                               {1, 3, Max, 0, 65535},
                               {1, 3, 140000 - 2 * Max, 0, 131070}}));
  EXPECT_EQ(launchParts(2, 131071, 65536).size(), 6u);
  EXPECT_TRUE(launchParts(0, 5, 5).empty());
  EXPECT_TRUE(launchParts(5, 0, 5).empty());
  EXPECT_TRUE(launchParts(5, 5, 0).empty());
}

TEST(RuntimeTest, LaunchPartsPastTheGridsXStopWithAMessage) {
  EXPECT_EQ(launchParts(2147483647L, 1, 1).size(), 1u);
  EXPECT_EXIT(an5d_launch_parts(2147483648L, 1, 1, "the edge tiles",
                                [](dim3, int, int) {}),
              ::testing::ExitedWithCode(1),
              "the edge tiles is 2147483648, more than the 2147483647");
}

} // namespace

namespace {

// A 1D three-point average over planes 1 .. planes - 2 of a grid of planes
// of `cells` cells (each cell on its own), run `steps` times in place of
// the C loop on both time planes of `grid` (plane q at grid + q * planes *
// cells), the way the generated sample bands run it.
void averageSteps(double *grid, long planes, long cells, long lo, long hi,
                  long steps) {
  const long rows = hi - lo + 1;
  for (long t = 0; t < steps; ++t) {
    double *in = grid + (t % 2) * rows * cells, *out = grid + ((t + 1) % 2) * rows * cells;
    for (long p = (lo + 1 > 1 ? lo + 1 : 1); p <= (hi - 1 < planes - 2 ? hi - 1 : planes - 2); ++p)
      for (long c = 0; c < cells; ++c)
        out[(p - lo) * cells + c] = (in[(p - lo - 1) * cells + c] + in[(p - lo) * cells + c] +
                                     in[(p - lo + 1) * cells + c]) / 3.0;
  }
}

} // namespace

/// Copies an own-sized plane (cell values 1 + index) into a zeroed device
/// plane of Grid's extents and back into a zeroed host plane; checks every
/// device cell (inside own: its value; outside: 0) and the round trip.
void copyBoxRoundTrip(int Dims, const long *Grid, const long *Own) {
  long GridCells = 1, OwnCells = 1;
  for (int D = 0; D < Dims; ++D) {
    GridCells *= Grid[D];
    OwnCells *= Own[D];
  }
  std::vector<float> Host(OwnCells), Back(OwnCells, 0.0f), Seen(GridCells);
  for (long C = 0; C < OwnCells; ++C)
    Host[C] = float(1 + C);
  float *Dev = nullptr;
  ASSERT_EQ(cudaMalloc((void **)&Dev, GridCells * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMemset(Dev, 0, GridCells * sizeof(float)), cudaSuccess);
  an5d_copy_box(Dev, Host.data(), Grid, Own, Dims, sizeof(float),
                cudaMemcpyHostToDevice);
  ASSERT_EQ(cudaMemcpy(Seen.data(), Dev, GridCells * sizeof(float),
                       cudaMemcpyDeviceToHost),
            cudaSuccess);
  long G[3] = {1, 1, 1}, O[3] = {1, 1, 1};
  for (int D = 0; D < Dims; ++D) {
    G[3 - Dims + D] = Grid[D];
    O[3 - Dims + D] = Own[D];
  }
  for (long X = 0; X < G[0]; ++X)
    for (long Y = 0; Y < G[1]; ++Y)
      for (long Z = 0; Z < G[2]; ++Z) {
        bool Inside = X < O[0] && Y < O[1] && Z < O[2];
        float Want = Inside ? float(1 + (X * O[1] + Y) * O[2] + Z) : 0.0f;
        ASSERT_EQ(Seen[(X * G[1] + Y) * G[2] + Z], Want)
            << "dims " << Dims << " cell " << X << " " << Y << " " << Z;
      }
  an5d_copy_box(Back.data(), Dev, Grid, Own, Dims, sizeof(float),
                cudaMemcpyDeviceToHost);
  EXPECT_EQ(Back, Host);
  cudaFree(Dev);
}

TEST(RuntimeTest, CopyBoxPlacesAFieldInTheLargerGrid) {
  const long G1[] = {9}, O1[] = {5};
  copyBoxRoundTrip(1, G1, O1);
  const long G2[] = {5, 7}, Rows[] = {3, 7}, Cols[] = {5, 4}, Both[] = {4, 6};
  copyBoxRoundTrip(2, G2, G2);
  copyBoxRoundTrip(2, G2, Rows); // one copy: rows of the same length
  copyBoxRoundTrip(2, G2, Cols);
  copyBoxRoundTrip(2, G2, Both);
  const long G3[] = {4, 5, 6}, Planes[] = {3, 5, 6}, Inner[] = {4, 5, 4},
             Middle[] = {4, 3, 6}, All[] = {2, 4, 5};
  copyBoxRoundTrip(3, G3, G3);
  copyBoxRoundTrip(3, G3, Planes);
  copyBoxRoundTrip(3, G3, Inner);
  copyBoxRoundTrip(3, G3, Middle);
  copyBoxRoundTrip(3, G3, All);
}

TEST(RuntimeTest, SampleBandsGiveTheWholeGridsPlanes) {
  const long Planes = 30, Cells = 4, Steps = 5;
  std::vector<double> Grid(2 * Planes * Cells);
  for (size_t C = 0; C < Grid.size(); ++C)
    Grid[C] = (double)((C * 7 + 3) % 11);
  an5d_sample_set<double> S;
  an5d_sample_begin(&S, Grid.data(), Planes, Cells, 1, Planes - 2, Steps + 1,
                    Steps + 1, 4);
  ASSERT_EQ(S.count, 4);
  EXPECT_EQ(S.at[0], 1);
  EXPECT_EQ(S.at[3], Planes - 2);
  for (int K = 0; K < S.count; ++K)
    averageSteps(S.band[K], Planes, Cells, S.lo[K], S.lo[K] + S.rows[K] - 1, Steps);
  averageSteps(Grid.data(), Planes, Cells, 0, Planes - 1, Steps);
  // Bands clipped at the grid's ends and bands inside it both match.
  an5d_sample_compare(&S, (const double *)Grid.data(), 1e-12);
}

/// A grid whose sample 1 differs in time plane 1 from its band: the check
/// exits.
void compareDifferentSample() {
  const long Planes = 12;
  const long Cells = 3;
  std::vector<double> Grid(2 * Planes * Cells, 1.0);
  an5d_sample_set<double> S;
  an5d_sample_begin(&S, Grid.data(), Planes, Cells, 1, Planes - 2, 2, 2, 3);
  Grid[(Planes + S.at[1]) * Cells + 2] = 1.5;
  an5d_sample_compare(&S, (const double *)Grid.data(), 1e-4);
}

TEST(RuntimeTest, SampleCompareFailsOnADifferentPlane) {
  EXPECT_EXIT(compareDifferentSample(), ::testing::ExitedWithCode(1),
              "3 sample planes");
}
