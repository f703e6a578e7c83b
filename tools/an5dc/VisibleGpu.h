//===- VisibleGpu.h - The GPU of this machine, for --gpu's default -*- C++ -*-===//
#ifndef AN5DC_VISIBLEGPU_H
#define AN5DC_VISIBLEGPU_H

#include <optional>
#include <string>

namespace an5dc {

/// The first GPU nvidia-smi lists (found on PATH; 10 s at most), as its
/// name: "NVIDIA H200". None when there is no nvidia-smi or it lists none.
std::optional<std::string> visibleGpuName();

/// The device table's name for a GPU's marketing name ("NVIDIA H100 80GB
/// HBM3" -> "H100"), or empty when the table has no such GPU.
std::string tableNameOf(const std::string &GpuName);

} // namespace an5dc

#endif
