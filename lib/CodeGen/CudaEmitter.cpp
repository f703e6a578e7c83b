//===- CudaEmitter.cpp - The generated CUDA file --------------------------===//
//
// Layout of the output (docs/codegen.md describes it in full):
//   1. header comment: stencil summary, compile-time parameters, phases
//   2. includes, the launch/check macros and the shared-memory layout
//   3. device helpers: boundary value, the update of one cell
//   4. one kernel per degree 1..bT (the general N.5D kernel)
//   5. host code: launch of one degree, the run (schedule of launches),
//      the AN5D_VERIFY helpers
//   6. the user's program text with the scop region replaced by a call
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <set>

using namespace an5d;
using namespace an5d::codegen;


std::string Emitter::sanitize(const std::string &Name) {
  std::string R;
  for (char C : Name)
    R += (std::isalnum(static_cast<unsigned char>(C)) || C == '_') ? C : '_';
  return R;
}

/// A name ending in _c<digits>: the variables of a thread's second and
/// later cells (j_c1, reg_0_2_c3).
static bool cellVariable(const std::string &Name) {
  size_t U = Name.rfind("_c");
  if (U == std::string::npos || U + 2 == Name.size())
    return false;
  for (size_t I = U + 2; I < Name.size(); ++I)
    if (!std::isdigit(static_cast<unsigned char>(Name[I])))
      return false;
  return true;
}

/// Names the generated kernels and host functions declare themselves.
bool Emitter::reserved(const std::string &Name) {
  static const std::set<std::string> Own = {
      "grid",      "in",          "out",        "in_plane",   "bnd_plane",
      "plane",     "plane_index", "smem",       "sm",         "sm_buffer0",
      "sm_buffer1", "col",        "cell",       "value",      "row_first",
      "row_last",  "stream_last", "cell_interior", "cell_stores", "degree",
      "block",     "blocks",      "rows",       "host",       "bytes",
      "steps",     "step",        "rest",       "full",       "part",
      "launches",  "split",       "tail",       "tail_count", "launch",
      "t_first",   "t_last",      "copy",       "data",       "cells",
      "reference", "result",      "tolerance",  "max_abs",    "max_rel",
      "ref",       "got",         "err",        "rel",        "NULL"};
  return Own.count(Name) || Name.rfind("an5d", 0) == 0 ||
         Name.rfind("AN5D", 0) == 0 || Name.rfind("reg_", 0) == 0 ||
         Name.rfind("own_", 0) == 0 || Name.rfind("ext_", 0) == 0 ||
         Name.rfind("tile_", 0) == 0 || Name.rfind("cols_", 0) == 0 ||
         Name.rfind("it_", 0) == 0 || Name.rfind("acc_", 0) == 0 ||
         Name.rfind("nb_", 0) == 0 || Name.rfind("ahead_", 0) == 0 ||
         Name == "incoming" || Name == "own" || Name == "row_stride" ||
         Name == "row_span" || Name == "store_span" || Name == "in_next" ||
         Name == "out_next" || cellVariable(Name) ||
         Name == "columns_interior" || Name == "rows_interior" || Name == "initial" || Name == "runs" ||
         Name == "run" || Name == "repeats" || Name == "total_ms" ||
         Name == "timing" || Name == "ms";
}

/// Kernel parameters keep the user's scalar names unless one collides with
/// a name of the generated code.
void Emitter::nameScalars() {
  std::set<std::string> Taken;
  for (unsigned D = 0; D < N; ++D)
    for (const std::string &X :
         {It[D], Ext[D], First[D], Last[D], "tile_" + It[D],
          It[D] + "_interior", It[D] + "_in_array", "cols_" + It[D]})
      Taken.insert(X);
  for (const ScalarVar &V : S.Scalars) {
    std::string Name = V.Name;
    bool Clash = Taken.count(Name) || reserved(Name);
    if (Clash)
      Name = "scalar_" + Name;
    ScalarName[V.Name] = Name;
  }
}

std::string Emitter::scalarParams() const {
  std::string R;
  for (const ScalarVar &V : S.Scalars)
    R += std::string(", ") + scalarTypeName(V.Type) + " " +
         ScalarName.at(V.Name);
  return R;
}

std::vector<std::string> Emitter::scalarArgList() const {
  std::vector<std::string> R;
  for (const ScalarVar &V : S.Scalars)
    R.push_back(ScalarName.at(V.Name));
  return R;
}

std::string Emitter::scalarArgs() const {
  std::string R;
  for (const ScalarVar &V : S.Scalars)
    R += ", " + ScalarName.at(V.Name);
  return R;
}

/// Extents and interior bounds, as every kernel and host helper takes them:
/// declared with Type ("int "), or passed with none ("").
std::string Emitter::gridList(const std::string &Type) const {
  std::string R;
  for (unsigned D = 0; D < N; ++D)
    R += ", " + Type + Ext[D];
  for (unsigned D = 0; D < N; ++D)
    R += ", " + Type + First[D] + ", " + Type + Last[D];
  return R;
}

std::string Emitter::gridParams() const { return gridList("int "); }

std::string Emitter::gridArgs() const { return gridList(""); }

/// Offset of cell (Row, j[, k]) inside one plane, in 64 bits.
std::string Emitter::globalIndex(const std::string &Row) const {
  std::string R = Row.find(' ') == std::string::npos ? Row : "(" + Row + ")";
  if (N == 2)
    return "(long)" + R + " * " + Ext[1] + " + " + It[1];
  return "((long)" + R + " * " + Ext[1] + " + " + It[1] + ") * " + Ext[2] +
         " + " + It[2];
}

/// Row inside the interior: one unsigned compare against row_span.
std::string Emitter::interiorTest(const std::string &Row) const {
  std::string RowTest = "(unsigned)(" + Row + " - " + First[0] + ") <= row_span";
  return Checks == Tests::Rows ? RowTest
                               : "cell_interior" + cellSuffix() + " && " +
                                     RowTest;
}

// --- 1. Header ---------------------------------------------------------------

std::string Emitter::reachText() const {
  std::string R;
  for (unsigned D = 0; D < N; ++D)
    R += std::string(D ? " " : "") + It[D] + " [-" + str(P.Lo[D]) + ", +" +
         str(P.Hi[D]) + "]";
  return R;
}

void Emitter::header() {
  std::string BS = userBlockSizes(P.BS);
  W.line("// Generated by an5dc from " + Src.FileName + " (scop at line " +
         str(S.ScopLine) + ", function " + S.Function + "). Do not edit.");
  W.line("//");
  W.line("// Stencil: " + S.Array.Name + ", " + str(N) + "D " + Elem +
         ", " + shapeName(A.StencilShape) + ", reach " + reachText());
  W.line("//   time loop " + S.Time.Iter + " = " + S.Time.Lower.str() +
         " .. " + S.Time.Upper.str() + ", writes plane (" + S.Time.Iter +
         " + " + str(P.WriteShift) + ") % 2, reads plane " +
         (P.WriteShift == 1 ? S.Time.Iter : "(" + S.Time.Iter + " + 1)") +
         " % 2");
  // Autotuned candidates differ in their cells; each one's label says.
  std::string CellsText;
  if (Plans.size() == 1)
    CellsText = P.Cells == 1 ? std::string(" (one cell per thread)")
                             : " (" + str(P.Cells) + " cells per thread along " +
                                   It[1] + ", " +
                                   (adjacentCells() ? std::string("adjacent")
                                                    : str(P.BS[0]) + " apart") +
                                   ")";
  W.line("//   streaming along " + It[0] + ", blocked along " +
         (N == 2 ? It[1] : It[1] + " and " + It[2]) + CellsText);
  if (Plans.size() == 1) {
    W.line("// Parameters (compile time): bT " + str(P.BT) + ", bS " + BS +
           " (" + str(P.Threads) + " threads per block), hSN (--sl) " +
           str(P.StreamBlock) + " rows" +
           (P.Cells > 1 ? ", cells (--cells) " + str(P.Cells) : "") +
           (P.HaloRows ? ", halo rows (--halo-rows)" : ""));
    if (!P.Origin.empty())
      W.line("//   " + P.Origin);
    W.line("//   shared memory " + str(P.SharedBytes) + " bytes per block (2 "
           "buffers x " + str(P.SharedRows.size()) +
           " rows), register ring " + str(P.Ring) + " rows per level");
  } else {
    candidateList();
  }
  W.line("//   kernel (--opt): " + kernelDescription() + ";");
  W.line("//   __launch_bounds__ minimum blocks per SM (--min-blocks): " +
         (P.MinBlocks ? str(P.MinBlocks) : std::string("not set")) +
         "; shared-memory reads " +
         (!P.plainSharedLoads() ? std::string("scalar")
                   : adjacentCells()
                         ? "plain loads (adjacent cells share reads)"
                         : "may be vectorized (--sm-vec)"));
  if (Plans.size() == 1) {
    W.line("// Kernels: an5d_kernel_deg1 .. an5d_kernel_deg" + str(P.BT) +
           "; degree D advances D time steps per launch:");
    for (const KernelPlan &K : P.Kernels) {
      std::string Tile;
      for (unsigned D = 1; D < N; ++D)
        Tile += (Tile.empty() ? "" : " x ") + str(K.Tile[D - 1]) + " " +
                It[D];
      W.line("//   degree " + str(K.Degree) + ": output tile " + Tile +
             " x " + str(P.StreamBlock) + " " + It[0] +
             " per block, body unrolled by " + str(K.Unroll) + " rows");
    }
  } else {
    W.line("// Kernels: an5d_config_<c>::an5d_kernel_deg1 .. _deg<bT>; "
           "degree D advances D time steps per launch.");
  }
  W.line("// Phases of a kernel: each block streams along " + It[0] +
         " one row at a time:");
  W.line("//   head: the first D*(reach) rows fill the register pipeline "
         "(nothing is stored);");
  W.line("//   body: per row, load level 0, compute levels 1..D (one "
         "__syncthreads each, double-buffered");
  W.line("//         shared memory), store level D inside the block's tile; "
         "unrolled so register slots");
  W.line("//         and buffer parity are constants;");
  W.line("//   tail: a uniform exit test before each unrolled row.");
  W.line("// Host: launches of degree <= bT, the last one of degree 1, as "
         "many launches as steps modulo 2,");
  W.line("//   so both planes end as the C loop leaves them. Grid sizes and "
         "the step count are run-time values.");
  headerFooter();
}

/// The last lines of the header comment: how to verify and build.
void Emitter::headerFooter() {
  W.line("// Verification: compile with -DAN5D_VERIFY to run the original loop "
         "nest on the CPU first and");
  W.line("//   compare both planes: tolerance relative to max(|ref|, 1), 1e-4 "
         "for float, 1e-10 for double.");
  W.line("// Build: nvcc " + nvccFlags(Plans) +
         " FILE.cu   or   an5dc-emucc FILE.cu -o prog (CPU emulation)");
  const Plan &Build = buildLevelPlan(Plans);
  if (!Build.PtxasReason.empty())
    W.line("//   -Xptxas -O" + str(Build.PtxasOpt) + ": " + Build.PtxasReason);
  W.line("");
}

/// The original loop nest, verbatim, for the CPU reference of AN5D_VERIFY;
/// its outermost spatial loop runs in parallel under OpenMP (the analysis
/// proved the cells of one step independent).
std::string Emitter::referenceNest() const {
  const std::string &T = Src.Text;
  std::string Private;
  for (size_t D = 1; D < S.Space.size(); ++D)
    if (S.Space[D].IterDeclaredOutside)
      Private += (Private.empty() ? "" : ", ") + S.Space[D].Iter;
  std::string Pragma = "\n#ifdef _OPENMP\n#pragma omp parallel for" +
                       (Private.empty() ? "" : " private(" + Private + ")") +
                       "\n#endif\n";
  std::string Body;
  if (Src.SpaceLoop > Src.BodyBegin && Src.SpaceLoop < Src.BodyEnd)
    Body = T.substr(Src.BodyBegin, Src.SpaceLoop - Src.BodyBegin) + Pragma +
           T.substr(Src.SpaceLoop, Src.BodyEnd - Src.SpaceLoop);
  else
    Body = T.substr(Src.BodyBegin, Src.BodyEnd - Src.BodyBegin);
  if (!Body.empty() && Body.back() == '\n')
    Body.pop_back();
  return Body;
}

// --- 2. Prelude ----------------------------------------------------------------

void Emitter::prelude() {
  preludeCommon();
  if (P.Run == Scheme::Naive) {
    naiveParameters();
    return;
  }
  parameters();
  smWrapper();
}

void Emitter::preludeCommon() {
  if (!Src.MacroLines.empty()) {
    W.line("// The macros an5dc was given after '--': the code below was "
           "generated with them.");
    for (const std::string &L : Src.MacroLines)
      W.raw(L);
    W.line("");
  }
  W.line("// C99's restrict, for the user's code: .cu files are C++.");
  W.raw("#ifndef restrict");
  W.raw("#define restrict __restrict__");
  W.raw("#endif");
  W.raw("#include <cuda_runtime.h>");
  W.raw("#include <math.h>");
  W.raw("#include <stdio.h>");
  W.raw("#include <stdlib.h>");
  W.raw("#include <string.h>");
  W.line("");
  W.raw("#ifdef AN5D_EMULATION");
  W.raw("#define AN5D_LAUNCH(kernel, grid, block, smem, stream, ...) "
        "an5d_emu_launch_named(#kernel, kernel, grid, block, smem, "
        "__VA_ARGS__)");
  W.raw("#else");
  W.raw("#define AN5D_LAUNCH(kernel, grid, block, smem, stream, ...) "
        "kernel<<<grid, block, smem, stream>>>(__VA_ARGS__)");
  W.raw("#define AN5D_DYNAMIC_SHARED(T, name) extern __shared__ T name[]");
  if (std::any_of(Plans.begin(), Plans.end(), [](const Plan &Q) {
        return Q.AheadSlots > 0 || Q.vectorCells();
      }))
    W.raw("#include <cuda_pipeline.h>");
  W.raw("#endif");
  W.line("");
  // The user's -D macros must not rename the runtime's own identifiers
  // (a macro `w` met its parameter `w`): they are set aside around it.
  std::vector<std::string> Macros;
  for (const std::string &L : Src.MacroLines) {
    std::string Rest = L.substr(L.find(' ') + 1);
    std::string Name = Rest.substr(0, Rest.find_first_of(" ("));
    if (L.rfind("#define ", 0) == 0 &&
        std::find(Macros.begin(), Macros.end(), Name) == Macros.end())
      Macros.push_back(Name);
  }
  W.raw("// ---- an5d host runtime (an5dc's runtime/an5d_runtime.h) ----");
  for (const std::string &M : Macros)
    W.raw("#pragma push_macro(\"" + M + "\")\n#undef " + M);
  std::string Runtime = RuntimeHeaderText;
  if (!Runtime.empty() && Runtime.back() == '\n')
    Runtime.pop_back();
  W.raw(Runtime);
  for (const std::string &M : Macros)
    W.raw("#pragma pop_macro(\"" + M + "\")");
  W.raw("// ---- end of the an5d host runtime ----");
  W.line("");
}

void Emitter::parameters() {
  ParamMacros = {"AN5D_BT", "AN5D_STREAM_BLOCK", "AN5D_BLOCK_X"};
  if (N == 3)
    ParamMacros.push_back("AN5D_BLOCK_Y");
  ParamMacros.push_back("AN5D_THREADS");
  if (P.MinBlocks)
    ParamMacros.push_back("AN5D_MIN_BLOCKS");
  if (N == 3)
    ParamMacros.push_back("AN5D_SM_HEIGHT");
  for (const char *M : {"AN5D_SM_WIDTH", "AN5D_SM_PLANE", "AN5D_SM_ROWS",
                        "AN5D_SM_BUFFER", "AN5D_SM_BYTES"})
    ParamMacros.push_back(M);
  if (P.AheadSlots)
    ParamMacros.push_back("AN5D_AHEAD_SLOTS");
  if (P.HaloRows) {
    ParamMacros.push_back("AN5D_HALO_THREADS");
    ParamMacros.push_back("AN5D_HALO_SLOTS");
  }
  W.line("// Compile-time parameters.");
  W.raw("#define AN5D_BT " + str(P.BT));
  W.raw("#define AN5D_STREAM_BLOCK " + str(P.StreamBlock));
  if (N == 2) {
    W.raw("#define AN5D_BLOCK_X " + str(P.BS[0]));
  } else {
    W.raw("#define AN5D_BLOCK_X " + str(P.BS[1]) + " /* along " + It[2] +
          " */");
    W.raw("#define AN5D_BLOCK_Y " + str(P.BS[0]) + " /* along " + It[1] +
          " */");
  }
  W.raw("#define AN5D_THREADS " + str(P.Threads));
  if (P.Cells > 1) {
    ParamMacros.push_back("AN5D_CELLS");
    W.raw("#define AN5D_CELLS " + str(P.Cells) + " /* cells per thread along " +
          It[1] + (N == 2 ? ", AN5D_BLOCK_X apart */" : ", adjacent */"));
  }
  minBlocksDefine();
  W.line("");
  W.line("// Shared memory: 2 buffers, each holding the rows of the previous "
         "level that");
  W.line(std::string(P.Kernel == KernelKind::Assoc
                         ? "// a level receives (streaming offsets:"
                         : "// other columns read (streaming offsets:") +
         [&]() {
           std::string R;
           for (int64_t O : P.SharedRows)
             R += " " + str(O);
           return R.empty() ? std::string(" none") : R;
         }() +
         "), each row a plane padded by the reach on both sides.");
  std::string SpanText = str(P.BS[0]) + " threads" +
                         (P.Cells > 1 ? " x " + str(P.Cells) + " cells" : "");
  if (N == 2) {
    W.raw("#define AN5D_SM_WIDTH " + str(P.SharedExtent[0]) + " /* " +
          SpanText + " + " + str(P.Lo[1]) + " + " + str(P.Hi[1]) +
          " pad along " + It[1] + " */");
    W.raw("#define AN5D_SM_PLANE AN5D_SM_WIDTH");
  } else {
    W.raw("#define AN5D_SM_HEIGHT " + str(P.SharedExtent[0]) + " /* " +
          SpanText + " + " + str(P.Lo[1]) + " + " + str(P.Hi[1]) +
          " pad along " + It[1] + " */");
    W.raw("#define AN5D_SM_WIDTH " + str(P.SharedExtent[1]) + " /* " +
          str(P.BS[1]) + " threads + " + str(P.Lo[2]) + " + " + str(P.Hi[2]) +
          " pad along " + It[2] + " */");
    W.raw("#define AN5D_SM_PLANE (AN5D_SM_HEIGHT * AN5D_SM_WIDTH)");
  }
  W.raw("#define AN5D_SM_ROWS " + str(P.SharedRows.size()));
  W.raw("#define AN5D_SM_BUFFER (AN5D_SM_ROWS * AN5D_SM_PLANE)");
  if (P.AheadSlots) {
    W.line("// Read-ahead: after the buffers, AN5D_AHEAD_SLOTS rows of level "
           "0 per thread" + std::string(P.Cells > 1 ? " and cell" : "") +
           ", filled by");
    W.line("// asynchronous copies (cp.async) that __syncthreads does not "
           "wait for.");
    W.raw("#define AN5D_AHEAD_SLOTS " + str(P.AheadSlots));
    if (P.HaloRows) {
      W.line("// Halo rows (--halo-rows): then AN5D_HALO_SLOTS rows of level "
             "0 for each of the");
      W.line("// AN5D_HALO_THREADS threads that copy the rows just outside "
             "the block along " + It[1] + ".");
      W.raw("#define AN5D_HALO_THREADS " + str(P.haloThreads()) + " /* " +
            str(P.Lo[1] + P.Hi[1]) + " rows x AN5D_BLOCK_X */");
      W.raw("#define AN5D_HALO_SLOTS " + str(P.HaloSlots));
    }
    W.raw("#define AN5D_SM_BYTES " + str(P.SharedBytes) +
          " /* (2 * AN5D_SM_BUFFER + AN5D_AHEAD_SLOTS * AN5D_THREADS" +
          (P.Cells > 1 ? " * AN5D_CELLS" : "") +
          (P.HaloRows ? " + AN5D_HALO_SLOTS * AN5D_HALO_THREADS" : "") +
          ") * sizeof(" + Elem + ") */");
  } else {
    W.raw("#define AN5D_SM_BYTES " + str(P.SharedBytes) +
          " /* 2 * AN5D_SM_BUFFER * sizeof(" + Elem + ") */");
  }
  W.line("");
}

void Emitter::smWrapper() {
  W.line("// Shared-memory reads: one scalar volatile load each, which keeps "
         "nvcc from merging");
  W.line("// neighbours into vector loads (they raise register pressure, AN5D "
         "section 4.3);");
  W.line("// AN5D_SM_VEC (an5dc --sm-vec) lets it vectorize.");
  if (adjacentCells()) {
    W.line("// Here plain loads: a thread's cells are adjacent rows, so its "
           "cells read the same");
    W.line("// neighbours, which nvcc loads once only from plain loads.");
  }
  if (P.plainSharedLoads())
    W.raw("#define AN5D_SM_VEC 1");
  W.raw("#ifdef AN5D_SM_VEC");
  W.raw("#define AN5D_SM(buffer, index) ((buffer)[index])");
  W.raw("#else");
  W.raw("#define AN5D_SM(buffer, index) (*(const volatile " + Elem +
        " *)&(buffer)[index])");
  W.raw("#endif");
  W.line("");
}

// --- 3. Device helpers ---------------------------------------------------------

void Emitter::boundaryHelper() {
  std::string Params = "const " + Elem + " *grid, int plane_index, long plane";
  std::string Args = "grid, plane_index, plane";
  for (unsigned D = 0; D < N; ++D) {
    Params += ", int " + It[D];
    Args += ", " + It[D];
  }
  for (unsigned D = 0; D < N; ++D) {
    Params += ", int " + Ext[D];
    Args += ", " + Ext[D];
  }
  W.line("// A cell that is not computed: inside the array it keeps the "
         "boundary value of");
  W.line("// plane `plane_index`, outside the array it is 0 and is never "
         "loaded. Inlined in the");
  W.line("// edge-tile kernels, whose every block has such cells.");
  W.line("__device__ __forceinline__ " + Elem + " an5d_boundary_inline(" +
         Params + ")");
  W.open("");
  std::string In;
  for (unsigned D = 0; D < N; ++D)
    In += std::string(D ? " && " : "") + It[D] + " >= 0 && " + It[D] + " < " +
          Ext[D];
  W.line("if (" + In + ")");
  W.indent();
  W.line("return grid[plane_index * plane + " + globalIndex(It[0]) + "];");
  W.dedent();
  W.line("return " + zero() + ";");
  W.close();
  W.line("");
  W.line("// Where the edge-tile kernels' asynchronous copy of such a cell "
         "reads from, and how");
  W.line("// many of its bytes it fills with zeros instead (all of them "
         "outside the array).");
  W.line("__device__ __forceinline__ const " + Elem +
         " *an5d_boundary_source(" + Params + ", size_t *zeros)");
  W.open("");
  W.line("*zeros = " + In + " ? 0 : sizeof(" + Elem + ");");
  W.line("return *zeros ? grid : grid + plane_index * plane + " +
         globalIndex(It[0]) + ";");
  W.close();
  W.line("");
  W.line("// The same, not inlined, for the interior-tile kernels: only the "
         "blocks at the ends of");
  W.line("// the streamed rows call it, and inlined its address arithmetic "
         "would be hoisted into");
  W.line("// every block's path.");
  W.line("__device__ __noinline__ " + Elem + " an5d_boundary(" + Params +
         ")");
  W.open("");
  W.line("return an5d_boundary_inline(" + Args + ");");
  W.close();
  W.line("");
}

void Emitter::divisionHelpers() {
  Divisors.clear();
  collectConstantDivisors(S.Update, Divisors);
  for (const ConstantDivisor &D : Divisors)
    writeDivisionHelper(W, D);
}

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
         "both.");
  W.line("static void an5d_launch(int degree, const an5d_streams *streams, " +
         Elem + " *grid, int in_plane, int bnd_plane" + gridParams() +
         scalarParams() + ")");
  W.open("");
  W.line("const long rows = (long)" + Last[0] + " - " + First[0] + " + 1;");
  for (unsigned Dm = 1; Dm < N; ++Dm)
    W.line("const long cols_" + It[Dm] + " = (long)" + Last[Dm] + " - " +
           First[Dm] + " + 1;");
  W.line("const unsigned stream_blocks = an5d_grid_yz(an5d_blocks(rows, "
         "AN5D_STREAM_BLOCK), \"the stream blocks (rows / hSN)\");");
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
  if (N == 3)
    W.line("an5d_grid_yz(tiles.hi_" + It[1] + " - tiles.lo_" + It[1] +
           ", \"the interior tiles along " + It[1] + "\");");
  W.line("an5d_edge_begin(streams, edge);");
  std::string InteriorBlocks =
      N == 2 ? "tiles.hi_" + It[1] + " - tiles.lo_" + It[1]
             : "tiles.hi_" + It[2] + " - tiles.lo_" + It[2] + ", tiles.hi_" +
                   It[1] + " - tiles.lo_" + It[1];
  std::string Args = ", grid, in_plane, bnd_plane, tiles" + gridArgs() +
                     scalarArgs() + ");";
  eachDegree([&](const KernelPlan &K) {
    W.line("if (edge > 0)");
    W.indent();
    W.line("AN5D_LAUNCH(" + kernelName(K.Degree, true) +
           ", dim3(edge, stream_blocks), block, AN5D_SM_BYTES, streams->edge" +
           Args);
    W.dedent();
    W.line("if (interior > 0)");
    W.indent();
    W.line("AN5D_LAUNCH(" + kernelName(K.Degree, false) + ", dim3(" +
           InteriorBlocks + ", stream_blocks), block, AN5D_SM_BYTES, 0" +
           Args);
    W.dedent();
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
  return gridParams() + scalarParams();
}

std::string Emitter::stepsArgs() const {
  std::string Args;
  for (unsigned Dm = 0; Dm < N; ++Dm)
    Args += ", (int)" + Ext[Dm];
  for (unsigned Dm = 0; Dm < N; ++Dm)
    Args += ", (int)" + First[Dm] + ", (int)" + Last[Dm];
  return Args + scalarArgs();
}

void Emitter::stepsFunctionHead() {
  W.line("// Runs time steps t_first .. t_first + steps - 1 on the device "
         "planes `grid`;");
  W.line("// returns the number of launches.");
  W.line("static long an5d_steps(" + Elem + " *grid, long t_first, long steps" +
         stepsParams() + ")");
  W.open("");
  sharedMemoryOptIn();
}

void Emitter::planeSizeLine() {
  std::string Plane = "(long)" + Ext[0];
  for (unsigned Dm = 1; Dm < N; ++Dm)
    Plane += " * " + Ext[Dm];
  W.line("const long plane = " + Plane + ";");
}

void Emitter::stepsFunction() {
  stepsFunctionHead();
  std::string Args = gridArgs() + scalarArgs();
  std::string Shift = str(P.WriteShift);
  W.line("// Step s reads plane an5d_read_plane(s, w) = (s + w - 1) mod 2 with "
         "w = " + Shift + " (the write");
  W.line("// plane is (t + w) % 2); the first launch reads its interior from "
         "there.");
  W.line("int in_plane = an5d_read_plane(t_first, " + Shift + ");");
  if (oneStepLaunches()) {
    W.open("for (long launch = 0; launch < steps; ++launch)");
    W.line("an5d_launch_naive(grid, in_plane" + Args + ");");
    W.line("in_plane ^= 1;");
    W.close();
    W.line("return steps;");
  } else {
    W.line("const an5d_schedule schedule = an5d_launch_schedule(steps, "
           "AN5D_BT);");
    W.line("const long launches = schedule.full + schedule.tail_count;");
    W.line("an5d_streams streams;");
    W.line("an5d_streams_create(&streams);");
    W.line("long step = t_first;");
    W.open("for (long launch = 0; launch < launches; ++launch)");
    W.line("const int degree = launch < schedule.full ? AN5D_BT : "
           "schedule.tail[launch - schedule.full];");
    W.line("an5d_launch(degree, &streams, grid, in_plane, an5d_read_plane(step, " +
           Shift + ")" + Args + ");");
    W.line("step += degree;");
    W.line("in_plane ^= 1;");
    W.close();
    W.line("an5d_streams_destroy(&streams);");
    W.line("return launches;");
  }
  W.close();
  W.line("");
}

void Emitter::sharedMemoryOptIn() {
  if (P.SharedBytes <= P.Gpu.DefaultSharedPerBlock)
    return;
  W.line("// More than " + str(P.Gpu.DefaultSharedPerBlock / 1024) +
         " KiB of dynamic shared memory needs an opt-in.");
  for (const std::string &Kernel : kernelNames())
    W.line("AN5D_CHECK(cudaFuncSetAttribute(" + Kernel +
           ", cudaFuncAttributeMaxDynamicSharedMemorySize, AN5D_SM_BYTES));");
}

void Emitter::runFunction() {
  std::string Params = Elem + " *host";
  for (unsigned Dm = 0; Dm < N; ++Dm)
    Params += ", long " + Ext[Dm];
  Params += ", long t_first, long t_last";
  for (unsigned Dm = 0; Dm < N; ++Dm)
    Params += ", long " + First[Dm] + ", long " + Last[Dm];
  Params += scalarParams();
  W.line("// Runs time steps t_first .. t_last of the scop on the GPU: copies "
         "both planes of");
  W.line("// `host` (" + str(N) + " spatial extents each) to the device, "
         "launches, copies both back.");
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
  std::string Cells = "(size_t)" + Ext[0];
  for (unsigned Dm = 1; Dm < N; ++Dm)
    Cells += " * " + Ext[Dm];
  W.line("const size_t bytes = 2 * " + Cells + " * sizeof(" + Elem + ");");
  W.line(Elem + " *grid = NULL;");
  W.line("AN5D_CHECK(cudaMalloc((void **)&grid, bytes));");
  W.line("AN5D_CHECK(cudaMemcpy(grid, host, bytes, cudaMemcpyHostToDevice));");
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
           str(Plans.size()) + ", grid, bytes,");
    W.line("    steps < " + Trial + " ? steps : " + Trial +
           ", [&](int c, void *scratch, long trial) {");
    W.line("      an5d_steps_of(c, (" + Elem + " *)scratch, t_first, trial" +
           stepsArgs() + ");");
    W.line("    });");
    Run = "an5d_steps_of(candidate, grid, t_first, steps" + stepsArgs() + ")";
  }
  W.line("an5d_timed_run(grid, bytes, steps, [&] { return " + Run + "; });");
  W.line("AN5D_CHECK(cudaDeviceSynchronize());");
  W.line("AN5D_CHECK(cudaMemcpy(host, grid, bytes, cudaMemcpyDeviceToHost));");
  W.line("AN5D_CHECK(cudaFree(grid));");
  W.close();
  W.line("");
}


// --- 6. The user's program ----------------------------------------------------------

/// A symbol of an affine bound widened to 64 bits.
static std::string wide(const std::string &Name) { return "(long)" + Name; }

void Emitter::userProgram() {
  const std::string &T = Src.Text;
  W.raw("// ---- " + Src.FileName + ", the scop region replaced ----");
  W.raw("#line 1 \"" + Src.FileName + "\"");
  std::string Before = T.substr(0, Src.ScopBegin);
  // CodeWriter::raw adds the newline of each line; the user's text keeps
  // its own, so append the text in one piece (minus its last newline).
  if (!Before.empty()) {
    if (Before.back() == '\n')
      Before.pop_back();
    W.raw(Before);
  }
  unsigned FirstLine = 1 + std::count(T.begin(), T.begin() + Src.ScopBegin, '\n');
  // Indent the replacement like the pragma line.
  std::string In = Src.Indent;
  auto line = [&](const std::string &L) { W.raw(L.empty() ? L : In + L); };
  line("/* an5dc: the scop region (lines " + str(FirstLine) + "-" +
       str(Src.EndLine) + ") runs on the GPU through an5d_run_" + Fn +
       " */");
  line("{");
  std::string Zeros;
  for (unsigned Dm = 0; Dm <= N; ++Dm)
    Zeros += "[0]";
  std::string Base = "&" + S.Array.Name + Zeros;
  std::string Cells = "(size_t)2";
  for (unsigned Dm = 1; Dm <= N; ++Dm)
    Cells += " * (" + S.Array.ExtentText[Dm] + ")";
  W.raw("#ifdef AN5D_VERIFY");
  line("  " + Elem + " *an5d_reference = an5d_verify_copy((const " + Elem +
       " *)" + Base + ", " + Cells + ");");
  line("  {");
  line("    /* the original loop nest on a copy of both planes */");
  std::string Dims, Shadow;
  for (unsigned Dm = 1; Dm <= N; ++Dm)
    Dims += "[" + S.Array.ExtentText[Dm] + "]";
  line("    " + Elem + " (*" + S.Array.Name + ")" + Dims + " = (" + Elem +
       " (*)" + Dims + ")an5d_reference;");
  W.raw(referenceNest());
  line("  }");
  W.raw("#endif");
  std::string Args = "(" + Elem + " *)" + Base;
  for (unsigned Dm = 1; Dm <= N; ++Dm)
    Args += ", " + S.Array.ExtentText[Dm];
  // Loop bounds in 64 bits: `T - 1` must not wrap where C runs no step.
  Args += ", " + S.Time.Lower.str(wide) + ", " + S.Time.Upper.str(wide);
  for (const Loop &L : S.Space)
    Args += ", " + L.Lower.str(wide) + ", " + L.Upper.str(wide);
  for (const ScalarVar &V : S.Scalars)
    Args += ", " + V.Name;
  line("  an5d_run_" + Fn + "(" + Args + ");");
  // Iterators declared before the nest end as the C loops leave them.
  std::vector<const Loop *> Loops = {&S.Time};
  for (const Loop &L : S.Space)
    Loops.push_back(&L);
  std::string Cond;
  for (size_t I = 0; I < Loops.size(); ++I) {
    const Loop &L = *Loops[I];
    std::string Lo = L.Lower.str(wide), Hi = L.Upper.str(wide);
    std::string Runs = "(" + Lo + ") <= (" + Hi + ")";
    if (L.IterDeclaredOutside) {
      std::string Set = L.Iter + " = " + Runs + " ? (" + Hi + ") + 1 : (" +
                        Lo + ");";
      line("  " + (Cond.empty() ? Set : "if (" + Cond + ") " + Set));
    }
    Cond += (Cond.empty() ? "" : " && ") + Runs;
  }
  W.raw("#ifdef AN5D_VERIFY");
  line("  an5d_verify_compare(an5d_reference, (const " + Elem + " *)" + Base +
       ", " + Cells + std::string(S.Elem == ElemType::Float ? ", 1e-4" : ", 1e-10") + ");");
  W.raw("#endif");
  line("}");
  W.raw("#line " + str(Src.EndLine + 1) + " \"" + Src.FileName + "\"");
  std::string After = T.substr(Src.ScopEnd);
  if (!After.empty() && After.back() == '\n')
    After.pop_back();
  if (!After.empty() || Src.ScopEnd < T.size())
    W.raw(After);
}

std::string Emitter::kernelDescription() const {
  switch (P.Kernel) {
  case KernelKind::Star:
    return "star, rows above and below from registers, the current row "
           "through shared memory";
  case KernelKind::Assoc:
    return "assoc, partial sums per row, the incoming row through shared "
           "memory";
  default:
    return "none (general), every row of the reach through shared memory";
  }
}

void Emitter::minBlocksDefine() {
  if (P.MinBlocks)
    W.raw("#define AN5D_MIN_BLOCKS " + str(P.MinBlocks) +
          " /* __launch_bounds__: blocks per SM the registers must allow */");
}

/// A candidate's parameters as --model labels them.
static std::string planLabel(const Plan &P) {
  return parametersLabel(P.BT, P.BS, P.StreamBlock, P.Cells, P.HaloRows,
                         P.VecK);
}

void Emitter::candidateList() {
  W.line("// Autotuned (an5dc --autotune=" + str(Plans.size()) + "): " +
         str(Plans.size()) + " candidate configurations, each in namespace "
         "an5d_config_<c>;");
  W.line("//   the first run on a GPU and grid size times each on a scratch "
         "copy of the planes and");
  W.line("//   keeps the fastest in the cache file AN5D_TUNE_CACHE (default "
         "$XDG_CACHE_HOME/an5d/autotune.txt");
  W.line("//   or ~/.cache/an5d/autotune.txt); AN5D_VERBOSE=1 prints what "
         "was timed and chosen.");
  for (size_t I = 0; I < Plans.size(); ++I) {
    const Plan &C = Plans[I];
    W.line("//   an5d_config_" + str(I) + ": " + planLabel(C) + " (" +
           str(C.Threads) + " threads per block, " + str(C.SharedBytes) +
           " bytes of shared memory)");
    if (!C.Origin.empty())
      W.line("//     " + C.Origin);
  }
}

void Emitter::n5dDeviceCode() {
  boundaryHelper();
  divisionHelpers();
  updateFunction();
  tileRanges();
  for (const KernelPlan &K : P.Kernels)
    kernel(K);
  launchFunction();
  stepsFunction();
}

void Emitter::candidateSection(size_t Index) {
  W.line("// ---- candidate " + str(Index) + ": " + planLabel(P) + " ----");
  if (P.vectorCells())
    vecParameters();
  else
    parameters();
  W.line("namespace an5d_config_" + str(Index) + " {");
  W.line("");
  if (P.vectorCells())
    vecDeviceCode();
  else
    n5dDeviceCode();
  W.line("} // namespace an5d_config_" + str(Index));
  for (const std::string &M : ParamMacros)
    W.raw("#undef " + M);
  W.line("");
}

void Emitter::tuner() {
  size_t K = Plans.size();
  std::string Signature;
  for (const Plan &C : Plans)
    Signature += (Signature.empty() ? "" : ";") + str(C.BT) + "/" +
                 userBlockSizes(C.BS) + "/" + str(C.StreamBlock) +
                 (C.Cells > 1 ? "/c" + str(C.Cells) : "") +
                 (C.vectorCells() ? "/v" + str(C.VecK) : "") +
                 (C.HaloRows ? "/h" : "");
  // The file name goes into a C string of the cache key.
  std::string File = S.FileName.substr(S.FileName.find_last_of('/') + 1);
  for (char &C : File)
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '.' &&
        C != '-' && C != '_')
      C = '_';
  W.line("// ---- autotuning (an5d_choose) ----");
  W.line("// The cache key's stencil and candidate list, and the candidates' "
         "labels in the order of");
  W.line("// the namespaces.");
  W.line("static const char *const an5d_stencil = \"" + S.Function + "@" +
         File + " " + Elem + "\";");
  W.line("static const char *const an5d_signature = \"" + Signature + "\";");
  W.line("static const char *const an5d_candidates[" + str(K) + "] = {");
  W.indent();
  for (const Plan &C : Plans)
    W.line("\"" + planLabel(C) + "\",");
  W.dedent();
  W.line("};");
  W.line("");
  W.line("static long an5d_steps_of(int candidate, " + Elem +
         " *grid, long t_first, long steps" + stepsParams() + ")");
  W.open("");
  W.line("switch (candidate) {");
  for (size_t I = 0; I < K; ++I)
    W.line("case " + str(I) + ": return an5d_config_" + str(I) +
           "::an5d_steps(grid, t_first, steps" + gridArgs() + scalarArgs() +
           ");");
  W.line("default: break;");
  W.line("}");
  W.line("fprintf(stderr, \"an5d: no candidate %d\\n\", candidate);");
  W.line("exit(1);");
  W.close();
  W.line("");
}

std::string Emitter::run() {
  if (P.Run == Scheme::Naive) {
    naiveHeader();
    prelude();
    coefficientTable();
    divisionHelpers();
    naiveKernel();
    naiveLaunchFunction();
    stepsFunction();
  } else if (Plans.size() == 1 && P.vectorCells()) {
    vecHeader();
    preludeCommon();
    vecParameters();
    coefficientTable();
    vecDeviceCode();
  } else if (Plans.size() == 1) {
    header();
    prelude();
    coefficientTable();
    n5dDeviceCode();
  } else {
    header();
    preludeCommon();
    smWrapper();
    coefficientTable(); // one table for every candidate
    for (size_t I = 0; I < Plans.size(); ++I)
      Emitter(S, A, Plans, I, Src, Kernels, &W).candidateSection(I);
    tuner();
  }
  runFunction();
  userProgram();
  return W.str();
}

std::string an5d::emitCuda(const Stencil &S, const StencilAnalysis &A,
                           const std::vector<Plan> &Plans,
                           const SourceText &Src) {
  GeneratedKernels Kernels;
  return emitCuda(S, A, Plans, Src, Kernels);
}

std::string an5d::emitCuda(const Stencil &S, const StencilAnalysis &A,
                           const std::vector<Plan> &Plans,
                           const SourceText &Src, GeneratedKernels &Kernels) {
  assert(!Plans.empty() && "emitCuda needs a plan");
  return Emitter(S, A, Plans, 0, Src, Kernels).run();
}

// --- Kernel bodies -------------------------------------------------------------

void Emitter::beginKernel(const std::string &Name) {
  assert(!Body && "kernel bodies do not nest");
  Body = std::make_unique<KernelBody>();
  Body->Name = Name;
  Body->Elem = Elem;
  Body->Counter = It[0];
  W.beginCapture();
}

bool Emitter::flushCode() {
  assert(Body && "an operation outside a kernel body");
  assert(W.level() == 0 && "code between operations must close its braces");
  std::string Text = W.endCapture();
  W.beginCapture();
  if (Text.empty())
    return false;
  KernelOp Code;
  Code.Src = std::move(Text);
  Body->Ops.push_back(std::move(Code));
  return true;
}

void Emitter::codeReads(std::vector<Operand> Reads) {
  bool Flushed = flushCode();
  (void)Flushed;
  assert(Flushed && "codeReads follows the code that reads");
  Body->Ops.back().Reads = std::move(Reads);
}

KernelOp &Emitter::op(KernelOpKind Kind) {
  flushCode();
  Body->Ops.emplace_back();
  Body->Ops.back().Kind = Kind;
  return Body->Ops.back();
}

void Emitter::codeOp(const std::string &Line, std::vector<Operand> Writes) {
  KernelOp &C = op(KernelOpKind::Code);
  C.Src = Line + "\n";
  C.Writes = std::move(Writes);
}

void Emitter::endKernel() {
  // Flush the last code into the body, then drop the empty capture.
  op(KernelOpKind::Code);
  W.endCapture();
  Body->Ops.pop_back();
  if (Kernels.Drop) {
    for (auto It = Body->Ops.begin(); It != Body->Ops.end(); ++It)
      if (It->Kind == *Kernels.Drop) {
        Body->Ops.erase(It);
        break;
      }
  }
  std::string Error = verifyKernel(*Body);
  if (!Error.empty())
    Kernels.Errors.push_back(Error);
  printKernel(*Body, W);
  Kernels.Bodies.push_back(std::move(*Body));
  Body.reset();
}
