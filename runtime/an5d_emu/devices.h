// an5d_emu/devices.h - part of an5d_emu.h: several emulated devices.
//
// AN5D_EMU_DEVICES=<n> (1 to 16, default 1) is what cudaGetDeviceCount
// reports. Each host thread has a current device (cudaSetDevice, initially
// 0), as in CUDA; cudaMalloc takes memory of the current device (each one
// capped by AN5D_EMU_DEVICE_MEMORY), streams and events belong to the device
// current when they were created, and the legacy default stream is one per
// device. Any two devices can access each other's memory
// (cudaDeviceCanAccessPeer), but a kernel may only be given pointers into
// another device's memory after cudaDeviceEnablePeerAccess, as on a GPU
// without it the access faults (the emulation stops with a message).
#pragma once

namespace an5d_emu {
namespace detail {

constexpr int kMaxDevices = 16;

inline int device_count() {
  static const int n = [] {
    const char* s = std::getenv("AN5D_EMU_DEVICES");
    if (!s || !*s) return 1;
    char* end = nullptr;
    const long v = std::strtol(s, &end, 10);
    if (*end != '\0' || v < 1 || v > kMaxDevices) {
      std::fprintf(stderr, "an5d_emu: AN5D_EMU_DEVICES=%s: give a count of 1 to %d devices\n", s,
                   kMaxDevices);
      std::exit(1);
    }
    return static_cast<int>(v);
  }();
  return n;
}

inline bool valid_device(int d) { return d >= 0 && d < device_count(); }

// The host thread's current device.
inline thread_local int current_device = 0;

// peers().on[a][b]: kernels on device a may use device b's memory.
struct Peers {
  std::mutex m;
  bool on[kMaxDevices][kMaxDevices] = {};
};
inline Peers& peers() {
  static Peers* p = new Peers;
  return *p;
}
inline bool peer_enabled(int from, int to) {
  if (from == to) return true;
  std::lock_guard<std::mutex> lk(peers().m);
  return peers().on[from][to];
}

}  // namespace detail
}  // namespace an5d_emu

inline cudaError_t cudaGetDeviceCount(int* n) {
  if (!n) return an5d_emu::detail::record(cudaErrorInvalidValue);
  *n = an5d_emu::detail::device_count();
  return cudaSuccess;
}
inline cudaError_t cudaSetDevice(int d) {
  if (!an5d_emu::detail::valid_device(d))
    return an5d_emu::detail::record(cudaErrorInvalidDevice);
  an5d_emu::detail::current_device = d;
  return cudaSuccess;
}
inline cudaError_t cudaGetDevice(int* d) {
  if (!d) return an5d_emu::detail::record(cudaErrorInvalidValue);
  *d = an5d_emu::detail::current_device;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceCanAccessPeer(int* can, int d, int peer) {
  using namespace an5d_emu::detail;
  if (!can) return record(cudaErrorInvalidValue);
  if (!valid_device(d) || !valid_device(peer)) return record(cudaErrorInvalidDevice);
  *can = d != peer;  // CUDA answers 0 for a device and itself
  return cudaSuccess;
}
// From the current device to `peer`; once only, as in CUDA.
inline cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned flags) {
  using namespace an5d_emu::detail;
  if (flags != 0) return record(cudaErrorInvalidValue);
  if (!valid_device(peer) || peer == current_device) return record(cudaErrorInvalidDevice);
  std::lock_guard<std::mutex> lk(peers().m);
  bool& on = peers().on[current_device][peer];
  if (on) return record(cudaErrorPeerAccessAlreadyEnabled);
  on = true;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceDisablePeerAccess(int peer) {
  using namespace an5d_emu::detail;
  if (!valid_device(peer) || peer == current_device) return record(cudaErrorInvalidDevice);
  std::lock_guard<std::mutex> lk(peers().m);
  bool& on = peers().on[current_device][peer];
  if (!on) return record(cudaErrorPeerAccessNotEnabled);
  on = false;
  return cudaSuccess;
}
