//===- Device.cpp - The GPUs the performance model knows ------------------===//
#include "an5d/Model.h"

#include <cassert>

using namespace an5d;

namespace {

/// The calibrated figures of DeviceSpec, fitted on the H200 (docs/model.md)
/// and used unchanged on the other GPUs until someone measures them there.
constexpr double CalibratedOverhead = 16.0;
constexpr double CalibratedLatency = 8.0;
constexpr double CalibratedEdge = 3.0;
constexpr double CalibratedVectorOverhead = 8.0;
/// The 2D float kernels' overhead and edge figures, refitted on 2026-11-28
/// to a 2D float sweep at 16384^2 (h200-2026-11-28-2d-sweep-float.csv): the
/// figures above made the model pick one cell per thread and low degrees.
/// Double keeps them: its defaults measured 0.97x-1.03x with these.
constexpr double CalibratedOverhead2DFloat = 12.0;
constexpr double CalibratedEdge2DFloat = 2.0;
/// Refitted on 2026-11-29 with a sweep of the division stencils after exact
/// division stopped falling back (h200-2026-11-29-model-2d-sweep.csv) and
/// the sweep above: with the global-memory time fully hidden the model put
/// bT 2-3 first where bT 4-8 measured up to 16% faster.
constexpr double CalibratedGlobalExposed2DFloat = 0.3;
/// The 3D scalar kernels in float, fitted on 2026-11-29 to a sweep of
/// j3d27pt, box3d1r and box3d4r at 512^3 (h200-2026-11-29-model-3d-sweep-*.csv):
/// with the figure above the model underrated every degree above 1 by
/// 1.2-1.4x and put j3d27pt's bT 1 first at 0.64 of the best. Split on
/// 2026-11-30 into 5 per cell and 8 per thread-row shared by its cells (SASS:
/// box3d1r bT 2, 4 cells 55 instructions per update against 64 with 2): the
/// same sweeps plus box3d1r's 32x8 x 4 against 32x16 x 2 cells
/// (h200-2026-11-30b-fetch-measure.csv): the first choice within 10% of each
/// set's best for 11 of 11 (before: 10; box3d1r 0.85x), rms 0.158 (0.159).
constexpr double CalibratedOverhead3DFloat = 5.0;
constexpr double CalibratedRowOverhead3DFloat = 8.0;
/// The 3D float associative kernels' edge slowdown, fitted the same day to
/// a sweep of box3d2r-4r blocks (h200-2026-11-29-model-3d-blocks-sweep.csv):
/// with 3 the model kept box3d3r at 32x8, 0.76 of its 64x8.
constexpr double CalibratedEdge3DFloat = 2.0;
/// Fitted the same day to gradient2d float's degrees 4-7 (2 cells): its
/// degree-7 loop (126 KB of SASS) ran 0.7x the degree-6 one.
constexpr double CalibratedCodeBudget2DFloat = 64.0 * 1024;
constexpr double CalibratedCodeSlowdown2DFloat = 0.5;
/// Fitted to two H200 kernels whose warps Nsight Compute found waiting
/// for instructions (log-2026-11-30-fetch.md): box3d3r double, 32x8
/// threads (225 KiB loop; 7.2 of 10.2 cycles between issues, issue 77%;
/// 16 warps a block: 2.1, 93%) and box2d4r double, 128 threads x 2 cells
/// (86 KiB, 4 warps: 4.1 of 6.7, 57%).
constexpr double CalibratedCachedCode = 28.0 * 1024;
constexpr double CalibratedFetchBytes = 5.4;

/// Several fields (FieldsModel.cpp), fitted to the H200 fdtd-2d sweep of
/// 2026-11-28 (h200-2026-11-28-fdtd2d-sweep.csv: 24 N.5D files, rms error
/// of the predicted times 4% after their common factor).
constexpr double CalibratedFieldsStage = 12.0;
constexpr double CalibratedFieldsNaive = 10.0;
constexpr double CalibratedFieldsGlobalExposed = 0.5;
constexpr double CalibratedFieldsWarps = 27.0;
/// Refitted with the second H200 sweep of 2026-11-28
/// (h200-2026-11-28-fields-model-sweep.csv: bT 4-8, tiles 128 and 256):
/// without it the model put 256-thread tiles first in double, measured
/// 0.82 of the best (benchmarks/results/log-2026-11-28-fields-model.md).
constexpr double CalibratedFieldsBarrierWait = 0.03;

/// The device of target Name (targetTable) with its speeds.
DeviceSpec make(const char *Name, double Clock, double Fp32, double Fp64,
                double Global, double Shared, double HostLink,
                const char *Source) {
  const Target *T = findTarget(Name);
  assert(T && "every device is a target");
  DeviceSpec D;
  static_cast<Target &>(D) = *T;
  D.ClockMHz = Clock;
  D.Fp32GFlops = Fp32;
  D.Fp64GFlops = Fp64;
  D.GlobalGBs = Global;
  D.SharedGBs = Shared;
  D.HostLinkGBs = HostLink;
  D.OverheadInstr = CalibratedOverhead;
  D.OverheadInstr2DFloat = CalibratedOverhead2DFloat;
  D.OverheadInstr3DFloat = CalibratedOverhead3DFloat;
  D.RowOverheadInstr3DFloat = CalibratedRowOverhead3DFloat;
  D.EdgeSlowdown3DFloat = CalibratedEdge3DFloat;
  D.EdgeSlowdown2DFloat = CalibratedEdge2DFloat;
  D.GlobalExposed2DFloat = CalibratedGlobalExposed2DFloat;
  D.CodeBudget2DFloat = CalibratedCodeBudget2DFloat;
  D.CodeSlowdown2DFloat = CalibratedCodeSlowdown2DFloat;
  D.CachedCodeBytes = CalibratedCachedCode;
  D.FetchBytesPerCycle = CalibratedFetchBytes;
  D.VectorOverheadInstr = CalibratedVectorOverhead;
  D.LatencyCycles = CalibratedLatency;
  D.EdgeSlowdown = CalibratedEdge;
  D.FieldsStageInstr = CalibratedFieldsStage;
  D.FieldsNaiveInstr = CalibratedFieldsNaive;
  D.FieldsGlobalExposed = CalibratedFieldsGlobalExposed;
  D.FieldsWarps = CalibratedFieldsWarps;
  D.FieldsBarrierWait = CalibratedFieldsBarrierWait;
  D.Source = Source;
  return D;
}

std::vector<DeviceSpec> buildTable() {
  std::vector<DeviceSpec> Table = {
      make("H100", 1980, 66900, 33500, 2908, 33400, 55.2,
           "shared/hardware.md: HBM measured (float4 streaming copy), "
           "peaks and shared bandwidth computed from 132 SMs x 1980 MHz; "
           "host link measured (benchmarks/experiments/"
           "host-link-bandwidth.cu)"),
      make("H200", 1980, 66900, 33500, 3976, 33400, 55.0,
           "shared/hardware.md: HBM measured (float4 streaming copy), "
           "peaks and shared bandwidth computed from 132 SMs x 1980 MHz; "
           "host link measured (benchmarks/experiments/"
           "host-link-bandwidth.cu)"),
      make("A100", 1410, 19500, 9700, 1835, 19500, 25.0,
           "public specification: 2039 GB/s HBM at 90% (not measured), "
           "peaks and shared bandwidth from 108 SMs x 1410 MHz, PCIe 4.0 "
           "x16 at 80% (not measured)"),
      make("V100", 1530, 15700, 7850, 791, 10650, 12.0,
           "AN5D Table 4: measured HBM (BabelStream) and shared memory "
           "(gpumembench), float; PCIe 3.0 x16 at 75% (not measured)"),
      make("P100", 1480, 10600, 5300, 535, 9700, 12.0,
           "AN5D Table 4: measured HBM (BabelStream) and shared memory "
           "(gpumembench), float; PCIe 3.0 x16 at 75% (not measured)"),
  };
  assert(Table.size() == targetTable().size() && "a device per target");
  return Table;
}

} // namespace

const std::vector<DeviceSpec> &an5d::deviceTable() {
  static const std::vector<DeviceSpec> Table = buildTable();
  return Table;
}

const DeviceSpec *an5d::findDevice(llvm::StringRef Name) {
  const Target *T = findTarget(Name);
  if (!T)
    return nullptr;
  for (const DeviceSpec &D : deviceTable())
    if (D.Name == T->Name)
      return &D;
  return nullptr;
}
