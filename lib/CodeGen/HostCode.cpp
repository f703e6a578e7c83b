//===- HostCode.cpp - The generated file's per-plan host code -------------===//
//
// Section 5 of the output (CudaEmitter.cpp lists them): the tile ranges,
// the launch of one degree, an5d_steps and the run function that replaces
// the scop; the plan-independent part is runtime/an5d_runtime.h.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include <algorithm>
#include <cassert>

using namespace an5d;
using namespace an5d::codegen;

// --- 5. Host code ----------------------------------------------------------------

void Emitter::tileRanges() {
  W.line("// The tiles of one launch along each dimension of the plane: count "
         "in all, and lo .. hi - 1");
  W.line("// those whose columns, halo included, are all interior (the "
         "interior-tile kernel's);");
  W.line("// the others are the edge-tile kernel's (an5d_tile_range).");
  W.line("struct an5d_tiles {");
  W.indent();
  for (unsigned Dm = 1; Dm < N; ++Dm)
    W.line("int lo_" + It[Dm] + ", hi_" + It[Dm] + ", count_" + It[Dm] + ";");
  W.dedent();
  W.line("};");
  W.line("");
}

void Emitter::launchFunction() {
  W.line("// Launches the kernels of one degree over the whole interior: the "
         "edge tiles' kernel on");
  W.line("// streams->edge and the interior tiles' kernel on stream 0, both "
         "after stream 0's earlier");
  W.line("// work, so that they run side by side; stream 0 then waits for "
         "both. Only the stream blocks of");
  W.line("// `part` run (AN5D_PART_*, `guard` rows from the ends of " + It[0] +
         ": an5d_part_range).");
  W.line("static void an5d_launch(int degree, const an5d_streams *streams, " +
         Elem + " *grid, int in_plane, int bnd_plane, int part, long guard" +
         gridParams() + scalarParams() + checkedKernelParams() + ")");
  W.open("");
  W.line("const long rows = (long)" + Last[0] + " - " + First[0] + " + 1;");
  for (unsigned Dm = 1; Dm < N; ++Dm)
    W.line("const long cols_" + It[Dm] + " = (long)" + Last[Dm] + " - " +
           First[Dm] + " + 1;");
  W.line("const an5d_stream_range stream = an5d_part_range(an5d_blocks(rows, "
         "AN5D_STREAM_BLOCK), AN5D_STREAM_BLOCK, rows, part, guard);");
  W.line(N == 2 ? "const dim3 block(AN5D_BLOCK_X);"
                : "const dim3 block(AN5D_BLOCK_X, AN5D_BLOCK_Y);");
  W.line("an5d_tiles tiles;");
  auto eachDegree = [&](const auto &Body) {
    W.line("switch (degree) {");
    for (const KernelPlan &K : P.Kernels) {
      W.line("case " + str(K.Degree) + ":");
      W.indent();
      Body(K);
      W.line("break;");
      W.dedent();
    }
    W.line("default:");
    W.indent();
    W.line("fprintf(stderr, \"an5d: no kernel of degree %d\\n\", degree);");
    W.line("exit(1);");
    W.dedent();
    W.line("}");
  };
  W.line("// Level 0 may read boundary columns beside the interior from "
         "in_plane when that is the");
  W.line("// plane the C loop reads them from: the interior tiles' kernel "
         "takes those tiles too.");
  for (unsigned Dm = 1; Dm < N; ++Dm)
    for (bool Lo : {true, false})
      W.line("const int ring_" + std::string(Lo ? "lo_" : "hi_") + It[Dm] +
             " = " + ringColumns(Dm, Lo) + ";");
  W.line("// Tile widths, halos and loaded columns per degree (the kernels' "
         "own).");
  eachDegree([&](const KernelPlan &K) {
    for (unsigned Dm = 1; Dm < N; ++Dm) {
      const std::string &I = It[Dm];
      W.line("an5d_tile_fields(an5d_tile_range(cols_" + I + ", " +
             str(K.Tile[Dm - 1]) + ", " + str(K.Degree * P.Lo[Dm]) + ", " +
             str(loadedColumns(Dm)) + ", ring_lo_" + I + ", ring_hi_" + I +
             "), &tiles.lo_" + I + ", &tiles.hi_" + I + ", &tiles.count_" + I +
             ");");
    }
  });
  std::string Interior, All;
  for (unsigned Dm = 1; Dm < N; ++Dm) {
    Interior += std::string(Dm > 1 ? " * " : "(long)") + "(tiles.hi_" +
                It[Dm] + " - tiles.lo_" + It[Dm] + ")";
    All += std::string(Dm > 1 ? " * " : "(long)") + "tiles.count_" + It[Dm];
  }
  W.line("const long interior = " + Interior + ";");
  W.line("const long edge = " + All + " - interior;");
  W.line("an5d_edge_begin(streams, edge);");
  // The interior tiles' grid: x along the innermost dimension, then the
  // other dimension's tiles (3D) and the stream blocks.
  const std::string &Inner = It[N - 1];
  std::string InteriorBlocks =
      "tiles.hi_" + Inner + " - tiles.lo_" + Inner + ", " +
      (N == 2 ? std::string("1, 1")
              : "tiles.hi_" + It[1] + " - tiles.lo_" + It[1] + ", 2");
  std::string Flag = Checked ? ", an5d_unproved_launch, an5d_launch" : "";
  std::string Args = ", grid, in_plane, bnd_plane, tiles, block_y0" +
                     std::string(N == 3 ? ", block_z0" : "") + gridArgs() +
                     scalarArgs() + Flag + ");";
  std::string EdgeArgs = ", grid, in_plane, bnd_plane, tiles, block_y0" +
                         gridArgs() + scalarArgs() + Flag + ");";
  W.line("// A grid of more than AN5D_MAX_GRID_YZ blocks along y or z runs in "
         "parts (an5d_launch_parts):");
  W.line("// the kernels add block_y0 and block_z0 to blockIdx.y and z.");
  eachDegree([&](const KernelPlan &K) {
    W.line("an5d_launch_stream_parts(edge, 1, 1, &stream, \"the edge tiles\", "
           "[&](dim3 blocks, int block_y0, int) {");
    launchChecked(kernelName(K.Degree, true),
                  ", blocks, block, AN5D_SM_BYTES, streams->edge" + EdgeArgs);
    W.line("});");
    W.line("an5d_launch_stream_parts(" + InteriorBlocks + ", &stream, \"the "
           "interior tiles along " + Inner + "\", [&](dim3 blocks, int "
           "block_y0, int" +
           (N == 3 ? " block_z0" : "") + ") {");
    launchChecked(kernelName(K.Degree, false),
                  ", blocks, block, AN5D_SM_BYTES, 0" + Args);
    W.line("});");
  });
  W.line("an5d_edge_end(streams, edge);");
  W.close();
  W.line("");
}

std::vector<std::string> Emitter::kernelNames() const {
  std::vector<std::string> Names;
  if (P.vectorCells()) {
    for (const KernelPlan &K : P.Kernels)
      Names.push_back(vecKernelName(K.Degree));
    return Names;
  }
  for (const KernelPlan &K : P.Kernels)
    for (bool Edge : {false, true})
      Names.push_back(kernelName(K.Degree, Edge));
  return Names;
}

std::string Emitter::stepsParams() const {
  return gridParams() + scalarParams() + (fileChecks() ? ", int check" : "") +
         ", int *swapped, int end, int part, long guard";
}

std::string Emitter::stepsArgs() const {
  std::string Args;
  // The device grid's rows are `pitch` cells long (runFunction).
  for (unsigned Dm = 0; Dm < N; ++Dm)
    Args += ", (int)" + (Dm + 1 == N ? std::string("pitch") : Ext[Dm]);
  // With a row lead the kernels see every row `lead` cells longer.
  for (unsigned Dm = 0; Dm < N; ++Dm)
    Args += Dm + 1 == N && rowLeadLanes()
                ? ", (int)(" + First[Dm] + " + lead), (int)(" + Last[Dm] +
                      " + lead)"
                : ", (int)" + First[Dm] + ", (int)" + Last[Dm];
  // The in-memory run checks (an5d_checked_launches) and ends as C does.
  return Args + scalarArgs() + (fileChecks() ? ", 1" : "") +
         ", (int *)NULL, AN5D_END_AS_C, AN5D_PART_ALL, 0L";
}

void Emitter::stepsFunctionHead() {
  W.line("// Runs time steps t_first .. t_first + steps - 1 on the device "
         "planes `grid`;");
  W.line("// returns the number of launches.");
  if (fileChecks())
    W.line("// check: run the checked kernels, and the launches they flag "
           "again exactly (an5d_checked_launches).");
  if (swapsPlanes()) {
    W.line("// swapped: NULL, or *swapped 1 when step t_first's data is in the "
           "plane the C loop does not");
    W.line("// read it from; on return the same for t_first + steps, the run "
           "having ended as `end` asks");
    W.line("// (AN5D_END_*). NULL: both planes as the C loop has them at both "
           "ends.");
  } else {
    W.line("// swapped, end: unused; these launches keep both planes as the C "
           "loop has them (*swapped");
    W.line("// must be, and stays, 0).");
  }
  W.line("static long an5d_steps(" + Elem + " *grid, long t_first, long steps" +
         stepsParams() + ")");
  W.open("");
  if (fileChecks() && !checkedPlan())
    W.line("(void)check; // this plan's kernels divide exactly: nothing to "
           "check");
  sharedMemoryOptIn();
}

void Emitter::planeSizeLine() {
  std::string Plane = "(long)" + Ext[0];
  for (unsigned Dm = 1; Dm < N; ++Dm)
    Plane += " * " + Ext[Dm];
  W.line("const long plane = " + Plane + ";");
}

void Emitter::launchPartOrReturn(const std::string &Launches) {
  W.line("const int launch_part = an5d_launch_part(" + Launches + ", part);");
  W.line("if (launch_part < 0)");
  W.indent();
  W.line("return 0;");
  W.dedent();
}

void Emitter::keepsPlanes() {
  W.line("(void)end;");
  W.line("if (swapped != NULL)");
  W.indent();
  W.line("*swapped = 0;");
  W.dedent();
}

void Emitter::stepsFunction() {
  stepsFunctionHead();
  std::string Args = gridArgs() + scalarArgs();
  std::string Shift = str(P.WriteShift);
  if (threeLevels()) {
    threeLevelSteps();
    return;
  }
  W.line("// Step s reads plane an5d_read_plane(s, w) = (s + w - 1) mod 2 with "
         "w = " + Shift + " (the write");
  W.line("// plane is (t + w) % 2); the first launch reads its interior from "
         "there.");
  if (oneStepLaunches()) {
    W.line("int in_plane = an5d_read_plane(t_first, " + Shift + ");");
    keepsPlanes();
    W.line("(void)guard;");
    W.line("if (part == AN5D_PART_INNER)");
    W.indent();
    W.line("return 0; // these launches run whole, with the edges");
    W.dedent();
    W.open("for (long launch = 0; launch < steps; ++launch)");
    if (passesCoefStruct())
      W.line("coef_arrays.an5d_step = t_first + launch;");
    W.line("an5d_launch_naive(grid, in_plane" + Args + ");");
    W.line("in_plane ^= 1;");
    W.close();
    W.line("return steps;");
  } else {
    W.line("int in_plane = an5d_read_plane(t_first, " + Shift +
           ") ^ (swapped != NULL ? *swapped : 0);");
    W.line("const an5d_schedule schedule = swapped != NULL ? "
           "an5d_end_schedule(steps, AN5D_BT, *swapped, end) : "
           "an5d_launch_schedule(steps, AN5D_BT);");
    W.line("const long launches = schedule.full + schedule.tail_count;");
    W.line("const int launch_part = an5d_launch_part(launches, part);");
    W.line("an5d_streams streams;");
    W.line("an5d_streams_create(&streams);");
    // The launch loop; checked, it runs in an5d_checked_launches' lambda
    // from launch `from` on (the ones before only advance plane and step).
    std::string Plane = Checked ? "launch_plane" : "in_plane";
    if (Checked) {
      W.line("// Launches from .. launches - 1; the ones before only advance "
             "the plane and the step.");
      W.line("const long made = an5d_checked_launches(check, launches, "
             "[&](long from, unsigned long long *an5d_unproved_launch) {");
      W.indent();
      W.line("int launch_plane = in_plane;");
    }
    W.line("long step = t_first;");
    W.open("for (long launch = 0; launch < launches; ++launch)");
    W.line("const int degree = launch < schedule.full ? AN5D_BT : "
           "schedule.tail[launch - schedule.full];");
    if (passesCoefStruct())
      W.line("coef_arrays.an5d_step = step; // the step of level 1");
    W.line(Checked ? "if (launch >= from && launch_part >= 0)"
                   : "if (launch_part >= 0)");
    W.indent();
    W.line("an5d_launch(degree, &streams, grid, " + Plane +
           ", an5d_read_plane(step, " + Shift + "), launch_part, guard" +
           Args + (Checked ? ", an5d_unproved_launch, launch" : "") + ");");
    W.dedent();
    W.line("step += degree;");
    W.line(Plane + " ^= 1;");
    W.close();
    if (Checked) {
      W.dedent();
      W.line("});");
    }
    W.line("an5d_streams_destroy(&streams);");
    W.line("// Every launch moves the data to the other plane.");
    W.line("if (swapped != NULL)");
    W.indent();
    W.line(std::string("*swapped = ") +
           (Checked ? "(in_plane ^ (int)(launches & 1))" : "in_plane") +
           " != an5d_read_plane(t_first + steps, " + Shift + ");");
    W.dedent();
    W.line("// A launch split into parts counts once, with the edges' part.");
    W.line(std::string("return launch_part < 0 || part == AN5D_PART_INNER ? "
                       "0 : ") +
           (Checked ? "made;" : "launches;"));
  }
  W.close();
  W.line("");
}

std::string Emitter::threeLevelStepsHead() {
  std::string Shift = str(P.WriteShift);
  W.line("// Step s writes level s + " + Shift + " (the C loop's plane (s + " +
         Shift + ") % " + str(P.Planes) + ", the device's plane (s + " +
         Shift + ") mod AN5D_PLANES);");
  W.line("// a launch from step s reads levels s + " + str(P.WriteShift - 2) +
         " and s + " + str(P.WriteShift - 1) + " and writes its last two.");
  keepsPlanes();
  // Level l: what step l - w writes (the C loop's plane l mod 3).
  return "(int)(((step + " + str(P.WriteShift - 1) +
         ") % AN5D_PLANES + AN5D_PLANES) % AN5D_PLANES)";
}

void Emitter::threeLevelSteps() {
  std::string Args = gridArgs() + scalarArgs();
  std::string Plane = threeLevelStepsHead();
  if (oneStepLaunches()) {
    W.line("(void)guard;");
    W.line("if (part == AN5D_PART_INNER)");
    W.indent();
    W.line("return 0; // these launches run whole, with the edges");
    W.dedent();
    W.open("for (long step = t_first; step < t_first + steps; ++step)");
    if (passesCoefStruct())
      W.line("coef_arrays.an5d_step = step;");
    W.line("an5d_launch_naive(grid, " + Plane + Args + ");");
    W.close();
    W.line("return steps;");
    W.close();
    W.line("");
    return;
  }
  W.line("const an5d_schedule schedule = an5d_level_schedule(steps, "
         "AN5D_BT);");
  W.line("const long launches = schedule.full + schedule.tail_count;");
  W.line("const int launch_part = an5d_launch_part(launches, part);");
  W.line("an5d_streams streams;");
  W.line("an5d_streams_create(&streams);");
  W.line("long step = t_first;");
  W.open("for (long launch = 0; launch < launches; ++launch)");
  W.line("const int degree = launch < schedule.full ? AN5D_BT : "
         "schedule.tail[launch - schedule.full];");
  if (passesCoefStruct())
    W.line("coef_arrays.an5d_step = step; // the step of level 1");
  W.line("const int in_plane = " + Plane + ";");
  W.line("if (launch_part >= 0)");
  W.indent();
  W.line("an5d_launch(degree, &streams, grid, in_plane, in_plane, "
         "launch_part, guard" + Args + ");");
  W.dedent();
  W.line("step += degree;");
  W.close();
  W.line("an5d_streams_destroy(&streams);");
  W.line("// A launch split into parts counts once, with the edges' part.");
  W.line("return launch_part < 0 || part == AN5D_PART_INNER ? 0 : launches;");
  W.close();
  W.line("");
}

void Emitter::threeLevelRun() {
  std::string Rows = deviceRows();
  std::string Plane = Rows + " * pitch";
  std::string HostPlane = Rows + " * " + Ext[N - 1];
  // The user's plane P (an expression): of the one array, or one of the
  // arrays (two arrays in turn, a pointer swap).
  auto hostPlane = [&](const std::string &Index) {
    return S.planesAreArrays() ? "host_planes[" + Index + "]"
                               : "host + (size_t)(" + Index + ") * " +
                                     HostPlane;
  };
  if (S.planesAreArrays()) {
    std::string List;
    for (size_t Pl = 0; Pl < S.PlaneArrays.size(); ++Pl)
      List += (Pl ? ", host_" : "host_") + str(Pl);
    W.line(Elem + " *const host_planes[" + str(S.PlaneArrays.size()) +
           "] = {" + List + "};");
  }
  W.line("// Every level in device memory: out of core, slabs on several "
         "GPUs and --mpi handle two");
  W.line("// time levels only.");
  W.line(Elem + " *grid = NULL;");
  W.line("if (!an5d_device_alloc((void **)&grid, device_bytes, "
         "an5d_device_budget())) {");
  W.indent();
  W.line("fprintf(stderr, \"an5d: a scheme of three time levels keeps its %d "
         "planes (%zu bytes) in device memory, and they do not fit\\n\", "
         "AN5D_PLANES, device_bytes);");
  W.line("exit(1);");
  W.dedent();
  W.line("}");
  W.line("if (pitch != " + Ext[N - 1] + ")");
  W.indent();
  W.line("AN5D_CHECK(cudaMemset(grid, 0, device_bytes));");
  W.dedent();
  const std::string Row = Ext[N - 1] + " * sizeof(" + Elem + ")";
  const std::string Pitch = "pitch * sizeof(" + Elem + ")";
  std::string U = str(P.Planes);
  W.line("// Device plane d holds the levels the C loop keeps in plane d % " +
         U + "; each starts as that plane");
  W.line("// (its boundary cells never change).");
  W.line("for (int d = 0; d < AN5D_PLANES; ++d)");
  W.indent();
  W.line("AN5D_CHECK(cudaMemcpy2D(" + deviceBase() + " + (size_t)d * " + Plane + ", " + Pitch +
         ", " + hostPlane("d % " + U) + ", " + Row + ", " + Row +
         ", " + Rows + ", cudaMemcpyHostToDevice));");
  W.dedent();
  W.line("an5d_timed_run(grid, device_bytes, steps, [&] { return "
         "an5d_steps(grid, t_first, steps" + stepsArgs() + "); });");
  W.line("AN5D_CHECK(cudaDeviceSynchronize());");
  W.line("// The C loop ends with the last " + U + " levels in its planes.");
  W.line("const long level_last = t_last + " + str(P.WriteShift) + ";");
  W.line("for (long level = level_last - " + str(P.Planes - 1) +
         "; level <= level_last; ++level)");
  W.indent();
  W.line("AN5D_CHECK(cudaMemcpy2D(" + hostPlane("level % " + U) + ", " + Row + ", " + deviceBase() + " + (size_t)(level % AN5D_PLANES) * " + Plane +
         ", " + Pitch + ", " + Row + ", " + Rows +
         ", cudaMemcpyDeviceToHost));");
  W.dedent();
  W.line("AN5D_CHECK(cudaFree(grid));");
}

void Emitter::sharedMemoryOptIn() {
  if (P.SharedBytes <= P.Gpu.DefaultSharedPerBlock)
    return;
  W.line("// More than " + str(P.Gpu.DefaultSharedPerBlock / 1024) +
         " KiB of dynamic shared memory needs an opt-in.");
  for (const std::string &Kernel : kernelNames())
    for (const char *Form : {"<true>", "<false>"}) {
      W.line("AN5D_CHECK(cudaFuncSetAttribute(" + Kernel +
             (Checked ? Form : "") +
             ", cudaFuncAttributeMaxDynamicSharedMemorySize, AN5D_SM_BYTES));");
      if (!Checked)
        break;
    }
}

/// Both time planes between the host and `grid`: one copy of `host`, or
/// one per user array when the planes are the user's two arrays (two
/// arrays in turn, a pointer swap). Rows (the innermost extent) are
/// `pitch` cells apart on the device, `Rows` rows per plane.
void Emitter::copyPlanes(const std::string &Rows, bool ToDevice) {
  const std::string Row = Ext[N - 1] + " * sizeof(" + Elem + ")";
  const std::string Pitch = "pitch * sizeof(" + Elem + ")";
  auto copy = [&](const std::string &Host, const std::string &Device,
                  const std::string &Count) {
    W.line("AN5D_CHECK(cudaMemcpy2D(" +
           (ToDevice ? Device + ", " + Pitch + ", " + Host + ", " + Row
                     : Host + ", " + Row + ", " + Device + ", " + Pitch) +
           ", " + Row + ", " + Count + ", " +
           (ToDevice ? "cudaMemcpyHostToDevice" : "cudaMemcpyDeviceToHost") +
           "));");
  };
  if (!S.planesAreArrays()) {
    copy("host", deviceBase(), "2 * " + Rows);
    return;
  }
  copy("host_0", deviceBase(), Rows);
  copy("host_1", deviceBase() + " + " + Rows + " * pitch", Rows);
}

int64_t Emitter::rowLeadLanes() const {
  int64_t Lanes = 0;
  for (const Plan &C : Plans)
    if (C.vectorCells())
      Lanes = std::max(Lanes, C.vector().Lanes);
  return Lanes;
}

std::string Emitter::deviceBase() const {
  return rowLeadLanes() ? "grid + lead" : "grid";
}

std::string Emitter::deviceRows() const {
  std::string Rows = "(size_t)" + Ext[0];
  for (unsigned Dm = 1; Dm + 1 < N; ++Dm)
    Rows += " * " + Ext[Dm];
  return Rows;
}

void Emitter::runFunction() {
  // Two arrays in turn: plane 0 and plane 1 are two user arrays.
  const bool TwoArrays = S.planesAreArrays();
  std::string Params = Elem + " *host";
  if (TwoArrays) {
    Params.clear();
    for (size_t Pl = 0; Pl < S.PlaneArrays.size(); ++Pl)
      Params += (Pl ? ", " : "") + Elem + " *host_" + str(Pl);
  }
  for (unsigned Dm = 0; Dm < N; ++Dm)
    Params += ", long " + Ext[Dm];
  Params += ", long t_first, long t_last";
  for (unsigned Dm = 0; Dm < N; ++Dm)
    Params += ", long " + First[Dm] + ", long " + Last[Dm];
  Params += userScalarParams() + coefRunParams();
  if (TwoArrays) {
    W.line("// Runs Jacobi steps t_first .. t_last of the scop on the GPU: "
           "copies the arrays `host_0`");
    W.line("// (plane 0) and `host_1` (plane 1) to the device, launches, "
           "copies both back.");
  } else {
    W.line("// Runs time steps t_first .. t_last of the scop on the GPU: "
           "copies both planes of");
    W.line("// `host` (" + str(N) + " spatial extents each) to the device, "
           "launches, copies both back.");
  }
  W.line("// Bounds are 64-bit: loops that C would not run do nothing.");
  W.line("static void an5d_run_" + Fn + "(" + Params + ")");
  W.open("");
  W.line("if (t_first > t_last)");
  W.indent();
  W.line("return; // the C loop would not change the array");
  W.dedent();
  W.line("const long steps = t_last - t_first + 1;");
  std::string Empty;
  for (unsigned Dm = 0; Dm < N; ++Dm)
    Empty += std::string(Dm ? " || " : "") + First[Dm] + " > " + Last[Dm];
  W.line("if (" + Empty + ")");
  W.indent();
  W.line("return;");
  W.dedent();
  W.line("// The kernels index each dimension with int.");
  for (unsigned Dm = 0; Dm < N; ++Dm)
    W.line("if (" + Ext[Dm] + " > AN5D_MAX_EXTENT) an5d_size_error(\"the "
           "extent along " + It[Dm] + "\", " + Ext[Dm] +
           ", AN5D_MAX_EXTENT);");
  std::string Rows = deviceRows();
  W.line("// In memory the device rows along " + It[N - 1] + " are `pitch` "
         "cells apart, whole 128-byte lines");
  W.line("// (aligned rows: coalesced loads and whole vectors); the padding "
         "is zero, and only cells the");
  W.line("// kernels discard read it.");
  if (int64_t Lanes = rowLeadLanes()) {
    // Tiles that start mid-sector would share their edge sectors' stores
    // with the tile beside them (measured 5-12% slower on an H200).
    const int64_t Sector = 32 / elemTypeBytes(P.Elem);
    W.line("// Each device row holds `lead` cells (zero) before its cell 0, so "
           "that the interior's first");
    W.line("// cell along " + It[N - 1] + " starts a 32-byte sector: the "
           "vector-cell kernels' tiles start there,");
    W.line("// and no two blocks store into one sector.");
    W.line("long lead = an5d_row_lead(" + First[N - 1] + ", " + Ext[N - 1] +
           ", " + str(std::max(Lanes, Sector)) + ");");
  }
  W.line("long pitch = an5d_row_pitch(" + Ext[N - 1] +
         (rowLeadLanes() ? " + lead" : "") + ", sizeof(" + Elem + "));");
  W.line("size_t device_bytes = " +
         std::string(threeLevels() ? "AN5D_PLANES" : "2") + " * " + Rows +
         " * pitch * sizeof(" + Elem + ");");
  coefUpload();
  if (threeLevels()) {
    threeLevelRun();
    W.close();
    W.line("");
    return;
  }
  outOfCore();
  W.line("if (pitch != " + Ext[N - 1] + ")");
  W.indent();
  W.line("AN5D_CHECK(cudaMemset(grid, 0, device_bytes));");
  W.dedent();
  copyPlanes(Rows, /*ToDevice=*/true);
  std::string Run = "an5d_steps(grid, t_first, steps" + stepsArgs() + ")";
  if (Plans.size() > 1) {
    int64_t MaxBT = 1;
    for (const Plan &C : Plans)
      MaxBT = std::max(MaxBT, C.BT);
    std::string Trial = str(std::max<int64_t>(16, 8 * MaxBT));
    std::string Exts;
    for (unsigned Dm = 0; Dm < N; ++Dm)
      Exts += std::string(Dm ? ", " : "") + Ext[Dm];
    W.line("// The fastest candidate for this GPU and grid: cached, or timed "
           "on a scratch copy over");
    W.line("// min(steps, " + Trial + ") steps.");
    W.line("const long extents[" + str(N) + "] = {" + Exts + "};");
    W.line("const int candidate = an5d_choose(an5d_stencil, extents, " +
           str(N) + ", an5d_signature, an5d_candidates, " +
           str(Plans.size()) + ", grid, device_bytes,");
    W.line("    steps < " + Trial + " ? steps : " + Trial +
           ", [&](int c, void *scratch, long trial) {");
    W.line("      an5d_steps_of(c, (" + Elem + " *)scratch, t_first, trial" +
           stepsArgs() + ");");
    W.line("    });");
    Run = "an5d_steps_of(candidate, grid, t_first, steps" + stepsArgs() + ")";
  }
  W.line("an5d_timed_run(grid, device_bytes, steps, [&] { return " + Run +
         "; });");
  W.line("AN5D_CHECK(cudaDeviceSynchronize());");
  copyPlanes(Rows, /*ToDevice=*/false);
  W.line("AN5D_CHECK(cudaFree(grid));");
  W.close();
  W.line("");
}

std::vector<std::string> an5d::runPaths(const Plan &P) {
  const std::string Lo = std::to_string(P.Lo[0]), Hi = std::to_string(P.Hi[0]);
  const std::string BT = std::to_string(P.BT);
  // Out of core a launch of degree d stores d * max(lo, hi) below what the
  // one before made final and reads d * hi above (an5d_ooc_walk); the
  // vector-cell and naive kernels go one step per launch there.
  const int64_t OocDegree = P.naive() || P.vectorCells() ? 1 : P.BT;
  const std::string Skew = std::to_string(
      OocDegree * (std::max(P.Lo[0], P.Hi[0]) + P.Hi[0]));
  if (P.TimeLevels == 3)
    return {"Run time: three time levels keep their " +
                std::to_string(P.DevicePlanes) +
                " planes in the memory of one GPU (level l in plane l mod " +
                std::to_string(P.DevicePlanes) + "); a grid",
            "  whose planes do not fit stops with an error (out of core and "
            "several GPUs take two time levels only)."};
  std::vector<std::string> Paths;
  if (P.Mpi)
    Paths = {
        "Under mpirun (--mpi): one slab per rank along the streaming "
        "dimension, each on a GPU of its node",
        "  (the ranks of a node take its GPUs in turn), halos of " + BT +
            " x " + Lo + " + " + BT + " x " + Hi + " planes through MPI and "
            "pinned host",
        "  buffers every " + BT + " steps; every rank ends with the whole "
        "grid (MPI_Allgatherv). One rank, too thin",
        "  a grid for two slabs, or a slab over its GPU's budget: every rank "
        "runs the whole grid as below."};
  std::vector<std::string> OneProcess = {
      "Run time: slabs along the streaming dimension, one per GPU, when "
      "AN5D_GPUS=N asks for N > 1 (several",
      "  slabs may share a GPU) or, unset, when several GPUs are visible and "
      "each gets 4 Mi cells of a",
      "  plane; halos of " + BT + " x " + Lo + " + " + BT + " x " + Hi +
          " planes, refreshed every " + BT +
          " steps by device-to-device copies; slabs",
      "  over their GPUs' budgets stream through them out of core with "
      "AN5D_GPUS set, in rounds of",
      "  one pass with halos of the round's steps x the reach, recomputed "
      "(by default one GPU). On one GPU:",
      "  both planes in device memory when they fit the device budget "
      "(AN5D_DEVICE_MEMORY, else",
      "  free memory less 1/16 of the total, at least 256 MiB) and cudaMalloc "
      "gives them; else out of core:",
      "  the host grid slides through a device window along the streaming "
      "dimension, TBT steps per",
      "  pass, each launch " + Skew + " planes behind the one before, "
      "each plane computed once per step (one",
      "  GPU; AN5D_VERBOSE=1 prints the choice)."};
  Paths.insert(Paths.end(), OneProcess.begin(), OneProcess.end());
  return Paths;
}

void Emitter::outOfCore() {
  std::string Cells = "(long)" + (N > 1 ? Ext[1] : std::string("1"));
  for (unsigned Dm = 2; Dm < N; ++Dm)
    Cells += " * " + Ext[Dm];
  // The part's own planes along the streaming dimension; the rest as in
  // memory.
  std::string Args = ", (int)chunk_planes";
  for (unsigned Dm = 1; Dm < N; ++Dm)
    Args += ", (int)" + Ext[Dm];
  Args += ", (int)chunk_first, (int)chunk_last";
  for (unsigned Dm = 1; Dm < N; ++Dm)
    Args += ", (int)" + First[Dm] + ", (int)" + Last[Dm];
  Args += scalarArgs("chunk_coefs");
  // A slab's launches report into the word the slab runtime sets (and it
  // redoes the run); out-of-core chunks and MPI slabs set none and run the
  // exact kernels: a redo would need the host's sync.
  if (fileChecks())
    Args += ", an5d_part_check()";
  Args += ", chunk_swapped, chunk_end, chunk_part, chunk_guard";
  std::string Steps = Plans.size() > 1 ? "an5d_steps_of(0, " : "an5d_steps(";
  std::string Planes = S.planesAreArrays() ? std::string("host_0, host_1")
                                 : "host, host + (size_t)" + Ext[0] + " * " +
                                       Cells;
  std::string Head = Planes + ", " + Ext[0] + ", " + Cells + ", " + First[0] +
                     ", " + Last[0] + ", " + str(P.Lo[0]) + ", " +
                     str(P.Hi[0]) + ", " + str(P.BT);
  W.line("// Steps on a part of the grid along " + It[0] + " (a slab, or a "
         "chunk out of core) as on a grid of");
  W.line("// its own: its planes chunk_first .. chunk_last are the interior.");
  W.line("// chunk_origin: the grid's plane along " + It[0] + " that the "
         "part's first plane holds.");
  W.line("const auto an5d_part = [&](" + Elem + " *chunk, long chunk_planes, "
         "long chunk_first, long chunk_last, long chunk_t, long chunk_steps, "
         "int *chunk_swapped, int chunk_end, int chunk_part, long chunk_guard, "
         "long chunk_origin) {");
  if (passesCoefStruct()) {
    W.line("  an5d_coef_arrays chunk_coefs = coef_arrays;");
    W.line("  chunk_coefs.an5d_origin = chunk_origin;");
  } else {
    W.line("  (void)chunk_origin; // no coefficient array to place");
  }
  if (Plans.size() > 1)
    W.line("  // The first candidate: the autotuner's trials need the whole "
           "grid on one device.");
  W.line("  return " + Steps + "chunk, chunk_t, chunk_steps" + Args + ");");
  W.line("};");
  W.line("// Slabs along " + It[0] + ", one per GPU, when AN5D_GPUS asks for "
         "more than one or several GPUs");
  W.line("// are visible and the grid is large enough (an5d_slabs); each GPU "
         "streams its slab out of core");
  W.line("// when the slabs do not fit their GPUs.");
  // The interior of a plane along the streaming dimension, as rows of the
  // innermost extent (an5d_plane_box).
  std::string Box = "an5d_plane_box{1L, 0, 1, 0, 1}"; // one cell
  if (N >= 2)
    Box = "an5d_plane_box{(long)" + Ext[N - 1] + ", " +
          (N == 3 ? First[1] + ", " + Last[1] + " - " + First[1] + " + 1, "
                  : std::string("0, 1, ")) +
          First[N - 1] + ", " + Last[N - 1] + " - " + First[N - 1] + " + 1}";
  if (P.Mpi) {
    W.line("// Under mpirun: one slab per rank (an5d_mpi_slabs); every rank "
           "ends with the whole grid.");
    W.line("if (an5d_mpi_slabs(" + Head + ", " + str(P.WriteShift) + ", " +
           Box + ", t_first, steps, an5d_part))");
    W.indent();
    W.line("return;");
    W.dedent();
  }
  // Out of core every launch is one kernel launch of at most the degree
  // given: the vector-cell kernels' launches of bT alternate with a third
  // plane, so they go one step at a time there; the naive kernel has no
  // stream blocks (0).
  const bool OneStep = P.naive() || P.vectorCells();
  const std::string OocBt = str(OneStep ? 1 : P.BT);
  const std::string StreamBlock =
      P.naive() ? std::string("0") : str(P.StreamBlock);
  if (checkedPlan())
    W.line("// 1: the slabs run the checked kernels, and the whole run again "
           "exactly when one flags.");
  W.line("if (an5d_slabs(" + Head + ", " + str(P.WriteShift) + ", " + Box +
         ", " + OocBt + ", " + StreamBlock +
         ", t_first, steps, an5d_part" + (checkedPlan() ? ", 1" : "") +
         "))");
  W.indent();
  W.line("return;");
  W.dedent();
  W.line("// Both planes go to the device when they fit its budget "
         "(AN5D_DEVICE_MEMORY, else its free");
  W.line("// memory less a margin) and cudaMalloc gives them; otherwise the "
         "host grid streams through");
  W.line("// it in chunks along " + It[0] + ", TBT steps per pass "
         "(an5d_out_of_core; AN5D_VERBOSE=1 says which).");
  W.line("const size_t budget = an5d_device_budget();");
  W.line("if (device_bytes > budget && pitch != " + Ext[N - 1] + ") { // "
         "unpadded rows where the padding would not fit");
  W.line("  pitch = " + Ext[N - 1] + ";");
  if (rowLeadLanes())
    W.line("  lead = 0;");
  W.line("  device_bytes = 2 * " + deviceRows() + " * pitch * sizeof(" +
         Elem + ");");
  W.line("}");
  W.line(Elem + " *grid = NULL;");
  W.open("if (!an5d_device_alloc((void **)&grid, device_bytes, budget))");
  W.line("an5d_out_of_core(" + Planes + ", " + Ext[0] + ", " + Cells + ", " +
         First[0] + ", " + Last[0] + ", " + str(P.Lo[0]) + ", " +
         str(P.Hi[0]) + ", " + OocBt + ", " + str(P.WriteShift) + ", " + Box +
         ", " + StreamBlock + ", t_first, steps, budget, an5d_part);");
  W.line("return;");
  W.close();
}

// --- Vector cells ---------------------------------------------------------------

void Emitter::vecLaunchFunction(const KernelPlan &K) {
  const int64_t D = K.Degree;
  std::string Name = D == 1 ? "an5d_launch_vec" : "an5d_launch_vec_bt";
  W.line(D == 1 ? "// Launches one time step over the whole interior: reads "
                  "`in`, writes the interior of"
                : "// Launches AN5D_BT time steps over the whole interior: "
                  "reads `in`, writes the interior of");
  W.line("// `out` (its boundary stays as the C loop leaves it)." +
         std::string(D > 1 ? " `other`: the plane" : ""));
  if (D > 1)
    W.line("// the odd steps of the launch read in the C loop (boundary "
           "values of odd levels).");
  W.line("// Only the stream blocks of `part` run (AN5D_PART_*, `guard` rows "
         "from the ends of " + It[0] + ").");
  if (threeLevels())
    W.line("// Three time levels: `older` holds level -1" +
           std::string(D > 1 ? ", `out1` takes level AN5D_BT - 1, and level "
                               "L keeps the boundary of plane (in_plane + L) "
                               "mod AN5D_PLANES of `planes`."
                             : "."));
  std::string LevelParams, LevelArgs;
  if (threeLevels()) {
    LevelParams = ", const " + Elem + " *older";
    LevelArgs = "older, ";
    if (D > 1) {
      LevelParams += ", " + Elem + " *out1, const " + Elem +
                     " *planes, int in_plane";
      LevelArgs += "out1, planes, in_plane, ";
    }
  } else if (D > 1) {
    LevelParams = ", const " + Elem + " *other";
    LevelArgs = "other, ";
  }
  W.line("static void " + Name + "(const " + Elem + " *in, " + Elem + " *out" +
         LevelParams + ", int part, long guard" + gridParams() +
         scalarParams() + ")");
  W.open("");
  W.line("// Vector copies and stores need rows whose length is a multiple of "
         "AN5D_VEC (cudaMalloc");
  W.line("// aligns the grid, so every row then starts on a vector).");
  W.line("const int aligned = " + Ext[2] + " % AN5D_VEC == 0;");
  W.line("const int k_start = " + First[2] + " - " + First[2] +
         " % AN5D_VEC;");
  std::string TileJ = vecTileMacro(K, "J"), TileK = vecTileMacro(K, "K");
  W.line("// Tiles along " + It[2] + " and " + It[1] + ", then stream blocks; "
         "more than AN5D_MAX_GRID_YZ along " + It[1]);
  W.line("// or " + It[0] + " run in parts (an5d_launch_parts), the kernel "
         "adding block_y0 and block_z0 to blockIdx.y and z.");
  W.line("const long rows = (long)" + Last[0] + " - " + First[0] + " + 1;");
  W.line("const an5d_stream_range stream = an5d_part_range(an5d_blocks(rows, "
         "AN5D_STREAM_BLOCK), AN5D_STREAM_BLOCK, rows, part, guard);");
  // The last cells the tiles take along j and k: at degree 1 a short rest
  // past the whole tiles goes to the strip kernel.
  std::string TilesLastJ = Last[1], TilesLastK = Last[2];
  if (D == 1) {
    TilesLastJ = "tiles_last_" + It[1];
    TilesLastK = "tiles_last_" + It[2];
    W.line("// The tiles end at the last whole tile when at most AN5D_STRIP_" +
           std::string("K cells (AN5D_STRIP_J rows) remain;"));
    W.line("// those go to an5d_kernel_strip after them.");
    W.line("const int " + TilesLastK + " = (int)an5d_tiles_last(k_start, " +
           Last[2] + ", " + TileK + ", AN5D_STRIP_K);");
    W.line("const int " + TilesLastJ + " = (int)an5d_tiles_last(" + First[1] +
           ", " + Last[1] + ", " + TileJ + ", AN5D_STRIP_J);");
  }
  std::string TileGrid = extList("");
  for (unsigned Dm = 0; Dm < N; ++Dm)
    TileGrid += ", " + First[Dm] + ", " +
                (Dm == 1 ? TilesLastJ : Dm == 2 ? TilesLastK : Last[Dm]);
  W.line("an5d_launch_stream_parts(an5d_blocks((long)" + TilesLastK +
         " + 1 - k_start, " + TileK + "), an5d_blocks((long)" + TilesLastJ +
         " - " + First[1] + " + 1, " + TileJ + "), 2,");
  W.line("    &stream, \"the tiles along " + It[2] +
         "\", [&](dim3 blocks, int block_y0, int block_z0) {");
  W.line("      AN5D_LAUNCH(" + vecKernelName(D) + ", blocks, "
         "dim3(AN5D_BLOCK_X, AN5D_BLOCK_Y), AN5D_SM_BYTES, 0, in, out, " +
         LevelArgs + "aligned, block_y0, block_z0" +
         TileGrid + scalarArgs() + ");");
  W.line("    });");
  if (D == 1) {
    const std::string Exts = extList("");
    const std::string Head = "an5d_launch_strip(in, out, " +
                             std::string(threeLevels() ? "older, " : "");
    W.line("// The strips, over the rows of the part's stream blocks: the "
           "rest along " + It[2] + " of every row");
    W.line("// along " + It[1] + ", then the rest along " + It[1] +
           " of the tiles' columns.");
    W.line("for (int r = 0; r < 2; ++r) {");
    W.indent();
    W.line("const long row_lo = " + First[0] +
           " + stream.first[r] * AN5D_STREAM_BLOCK;");
    W.line("const long row_end = " + First[0] +
           " + stream.end[r] * AN5D_STREAM_BLOCK - 1;");
    W.line("const long row_hi = row_end < " + Last[0] + " ? row_end : " +
           Last[0] + ";");
    W.line(Head + "row_lo, row_hi, " + First[1] + ", " + Last[1] + ", " +
           TilesLastK + " + 1L, " + Last[2] + Exts + scalarArgs() + ");");
    W.line(Head + "row_lo, row_hi, " + TilesLastJ + " + 1L, " + Last[1] +
           ", " + First[2] + ", " + TilesLastK + Exts + scalarArgs() + ");");
    W.dedent();
    W.line("}");
  }
  W.line("AN5D_CHECK(cudaGetLastError());");
  W.close();
  W.line("");
}

void Emitter::vecThreeLevelSteps() {
  std::string Args = gridArgs() + scalarArgs();
  // Device plane of the level step `step` reads last, and of K levels on.
  std::string InPlane = threeLevelStepsHead();
  auto at = [](const std::string &K) {
    return "grid + (long)((in_plane + " + K + ") % AN5D_PLANES) * plane";
  };
  W.line("long step = t_first;");
  if (P.BT > 1) {
    W.line("// Launches of AN5D_BT steps while more than 2 steps remain: the "
           "last ones go one step per");
    W.line("// launch, so the run's last three levels are each some launch's "
           "last two.");
    W.line("const long full = an5d_vector_full_launches(steps, AN5D_BT);");
    launchPartOrReturn("full + steps - full * AN5D_BT");
    W.open("for (long launch = 0; launch < full; ++launch, step += AN5D_BT)");
    W.line("const int in_plane = " + InPlane + ";");
    W.line("an5d_launch_vec_bt(grid + (long)in_plane * plane, " +
           at("AN5D_BT") + ", " + at("AN5D_PLANES - 1") + ", " +
           at("AN5D_BT - 1") + ", grid, in_plane, launch_part, guard" + Args +
           ");");
    W.close();
  } else {
    launchPartOrReturn("steps");
  }
  W.open("for (; step < t_first + steps; ++step)");
  W.line("const int in_plane = " + InPlane + ";");
  W.line("an5d_launch_vec(grid + (long)in_plane * plane, " + at("1") + ", " +
         at("AN5D_PLANES - 1") + ", launch_part, guard" + Args + ");");
  W.close();
  W.line("// A launch split into parts counts once, with the edges' part.");
  W.line("return part == AN5D_PART_INNER ? 0 : " +
         (P.BT > 1 ? std::string("full + steps - full * AN5D_BT;")
                   : std::string("steps;")));
  W.close();
  W.line("");
}

void Emitter::vecStepsFunction() {
  stepsFunctionHead();
  planeSizeLine();
  if (threeLevels()) {
    vecThreeLevelSteps();
    return;
  }
  W.line("// Step s reads plane an5d_read_plane(s, w) = (s + w - 1) mod 2 with "
         "w = " + str(P.WriteShift) + " (the write");
  W.line("// plane is (t + w) % 2).");
  W.line("int in_plane = an5d_read_plane(t_first, " + str(P.WriteShift) +
         ");");
  keepsPlanes();
  W.line("const " + Elem + " *in = grid + in_plane * plane; // the data of "
         "the next step");
  std::string Args = gridArgs() + scalarArgs();
  std::string Single = "steps";
  if (P.BT > 1) {
    W.line("// Launches of AN5D_BT steps while more than 2 steps remain: the "
           "last ones go one");
    W.line("// step per launch, so the plane not written last holds step "
           "t_last - 1.");
    W.line("const long full = an5d_vector_full_launches(steps, AN5D_BT);");
    launchPartOrReturn("full + steps - full * AN5D_BT");
    if (P.BT % 2 == 0) {
      W.line("// An even degree ends on the parity it starts from, so its "
             "launches alternate between");
      W.line("// plane in_plane and a copy of it (whose boundary is the one "
             "even levels keep).");
      W.line(Elem + " *third = NULL;");
      W.open("if (full > 0)");
      W.line("AN5D_CHECK(cudaMalloc((void **)&third, plane * sizeof(" + Elem +
             ")));");
      W.line("AN5D_CHECK(cudaMemcpy(third, in, plane * sizeof(" + Elem +
             "), cudaMemcpyDeviceToDevice));");
      W.close();
    }
    W.open("for (long launch = 0; launch < full; ++launch)");
    W.line(Elem + " *const out = " +
           (P.BT % 2 == 0 ? std::string("in == third ? grid + in_plane * "
                                        "plane : third")
                          : std::string("grid + (in_plane ^ 1) * plane")) +
           ";");
    W.line("an5d_launch_vec_bt(in, out, grid + (in_plane ^ 1) * plane, "
           "launch_part, guard" + Args + ");");
    W.line("in = out;");
    if (P.BT % 2)
      W.line("in_plane ^= 1;");
    W.close();
    Single = "steps - full * AN5D_BT";
  }
  if (P.BT == 1)
    launchPartOrReturn("steps");
  W.open("for (long left = " + Single + "; left > 0; --left)");
  W.line("an5d_launch_vec(in, grid + (in_plane ^ 1) * plane, launch_part, "
         "guard" + Args + ");");
  W.line("in_plane ^= 1;");
  W.line("in = grid + in_plane * plane;");
  W.close();
  if (P.BT > 1 && P.BT % 2 == 0) {
    W.line("if (third != NULL)");
    W.indent();
    W.line("AN5D_CHECK(cudaFree(third)); // waits for the launches");
    W.dedent();
  }
  W.line("// A launch split into parts counts once, with the edges' part.");
  W.line(P.BT > 1 ? "return part == AN5D_PART_INNER ? 0 : full + steps - full "
                    "* AN5D_BT;"
                  : "return part == AN5D_PART_INNER ? 0 : steps;");
  W.close();
  W.line("");
}
