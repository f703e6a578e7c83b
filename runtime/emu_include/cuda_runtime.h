// Stand-in for CUDA's <cuda_runtime.h> in the an5d CPU emulation (tools/an5dc-emucc puts
// this folder first on the include path). Everything lives in an5d_emu.h.
#include "../an5d_emu.h"
