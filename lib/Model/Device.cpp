//===- Device.cpp - The GPUs the performance model knows ------------------===//
#include "an5d/Model.h"

#include "llvm/ADT/StringExtras.h"

using namespace an5d;

namespace {

/// The calibrated figures of DeviceSpec, fitted on the H200 (docs/model.md)
/// and used unchanged on the other GPUs until someone measures them there.
constexpr double CalibratedOverhead = 16.0;
constexpr double CalibratedLatency = 8.0;
constexpr double CalibratedEdge = 3.0;

DeviceSpec make(const char *Name, const char *Full, int64_t SMs, double Clock,
                double Fp32, double Fp64, double Global, double Shared,
                int64_t SharedPerSM, int64_t SharedPerBlock,
                const char *Source) {
  DeviceSpec D;
  D.Name = Name;
  D.FullName = Full;
  D.SMs = SMs;
  D.ClockMHz = Clock;
  D.Fp32GFlops = Fp32;
  D.Fp64GFlops = Fp64;
  D.GlobalGBs = Global;
  D.SharedGBs = Shared;
  D.SharedPerSM = SharedPerSM;
  D.SharedPerBlock = SharedPerBlock;
  D.OverheadInstr = CalibratedOverhead;
  D.LatencyCycles = CalibratedLatency;
  D.EdgeSlowdown = CalibratedEdge;
  D.Source = Source;
  return D;
}

std::vector<DeviceSpec> buildTable() {
  const int64_t KiB = 1024;
  return {
      make("H100", "NVIDIA H100 80GB HBM3", 132, 1980, 66900, 33500, 2908,
           33400, 228 * KiB, 227 * KiB,
           "shared/hardware.md: HBM measured (float4 streaming copy), "
           "peaks and shared bandwidth computed from 132 SMs x 1980 MHz"),
      make("H200", "NVIDIA H200", 132, 1980, 66900, 33500, 3976, 33400,
           228 * KiB, 227 * KiB,
           "shared/hardware.md: HBM measured (float4 streaming copy), "
           "peaks and shared bandwidth computed from 132 SMs x 1980 MHz"),
      make("A100", "NVIDIA A100-SXM4-80GB", 108, 1410, 19500, 9700, 1835,
           19500, 164 * KiB, 163 * KiB,
           "public specification: 2039 GB/s HBM at 90% (not measured), "
           "peaks and shared bandwidth from 108 SMs x 1410 MHz"),
      make("V100", "Tesla V100-SXM2", 80, 1530, 15700, 7850, 791, 10650,
           96 * KiB, 96 * KiB,
           "AN5D Table 4: measured HBM (BabelStream) and shared memory "
           "(gpumembench), float"),
      make("P100", "Tesla P100-SXM2", 56, 1480, 10600, 5300, 535, 9700,
           64 * KiB, 48 * KiB,
           "AN5D Table 4: measured HBM (BabelStream) and shared memory "
           "(gpumembench), float"),
  };
}

} // namespace

const std::vector<DeviceSpec> &an5d::deviceTable() {
  static const std::vector<DeviceSpec> Table = buildTable();
  return Table;
}

const DeviceSpec *an5d::findDevice(llvm::StringRef Name) {
  Name = Name.trim();
  if (Name.size() > 7 && Name.take_front(7).equals_insensitive("nvidia "))
    Name = Name.drop_front(7).ltrim();
  for (const DeviceSpec &D : deviceTable())
    if (Name.equals_insensitive(D.Name))
      return &D;
  return nullptr;
}
