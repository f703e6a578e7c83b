//===- VisibleGpu.cpp - The GPU of this machine, for --gpu's default ------===//
//
// an5dc does not link CUDA: it asks nvidia-smi, which every driver install
// has, so that `an5dc x.c -o x.cu` on a GPU machine plans for that GPU.
//
//===----------------------------------------------------------------------===//
#include "VisibleGpu.h"

#include "an5d/Model.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

using namespace an5dc;

std::optional<std::string> an5dc::visibleGpuName() {
  llvm::ErrorOr<std::string> Smi = llvm::sys::findProgramByName("nvidia-smi");
  if (!Smi)
    return std::nullopt;
  llvm::SmallString<128> OutPath;
  if (llvm::sys::fs::createTemporaryFile("an5dc-gpu", "txt", OutPath))
    return std::nullopt;
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(OutPath), llvm::StringRef("")};
  llvm::StringRef Args[] = {*Smi, "--query-gpu=name", "--format=csv,noheader"};
  int Status = llvm::sys::ExecuteAndWait(*Smi, Args, std::nullopt, Redirects,
                                         /*SecondsToWait=*/10);
  std::optional<std::string> Name;
  if (Status == 0)
    if (auto Buf = llvm::MemoryBuffer::getFile(OutPath)) {
      llvm::StringRef First = (*Buf)->getBuffer().split('\n').first.trim();
      if (!First.empty())
        Name = First.str();
    }
  llvm::sys::fs::remove(OutPath);
  return Name;
}

std::string an5dc::tableNameOf(const std::string &GpuName) {
  // H200 before H100: "GH200" holds "H200", no H100 name holds it.
  for (const char *Known : {"H200", "H100", "A100", "V100", "P100"})
    if (llvm::StringRef(GpuName).contains(Known) && an5d::findDevice(Known))
      return Known;
  return "";
}
