//===- an5d_runtime_slabs.h - Every GPU of a node, one process ------------===//
//
// The third part of the host runtime every generated file holds (after
// an5d_runtime.h and an5d_runtime_ooc.h, whose AN5D_CHECK, an5d_verbose and
// an5d_device_budget it uses): the grid split into slabs along the streaming
// dimension, one per GPU (AN5D_GPUS), each slab with halos of bT x reach
// planes that its neighbours refresh every bT steps by device-to-device
// copies. an5dc's build embeds the three files, in this order.
// Unit tests: test/Unit/SlabsTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef AN5D_RUNTIME_SLABS_H
#define AN5D_RUNTIME_SLABS_H

// --- Slabs: every GPU of a node ---------------------------------------------

// The default takes every visible GPU when each would get at least this many
// cells of one time plane (4 Mi: 16 MiB of floats, about 160^3 cells);
// smaller grids run on one GPU, where the exchanges would cost more than the
// extra GPUs give.
#define AN5D_SLAB_MIN_CELLS (1L << 22)

// AN5D_GPUS: the slabs wanted (a positive count), or 0 when it is unset (the
// default decides). Anything else stops the program, arrays unchanged.
inline long an5d_gpus_wanted() {
  const char *given = getenv("AN5D_GPUS");
  if (given == NULL || given[0] == '\0')
    return 0;
  char *end = NULL;
  const long n = strtol(given, &end, 10);
  if (*end != '\0' || n < 1 || n > 4096) {
    fprintf(stderr, "an5d: AN5D_GPUS=%s is not a count of GPUs (1 to 4096); "
                    "the arrays were not changed\n",
            given);
    exit(1);
  }
  return n;
}

// How the slab path cuts `planes` planes: `count` slabs, the first
// planes % count one plane deeper than the others; each keeps halos of
// halo_lo planes before it and halo_hi after it (the steps between two
// exchanges, `exchange`, times the stencil's reach), refreshed from its
// neighbours every `exchange` steps.
struct an5d_slab_plan {
  long count, exchange, halo_lo, halo_hi;
};

// Slab s: it owns [*valid_first, *valid_end) and holds [*load_first,
// *load_end) (its halos clipped to the grid) in its device buffer.
inline void an5d_slab_span(const an5d_slab_plan *p, long planes, long s,
                           long *valid_first, long *valid_end,
                           long *load_first, long *load_end) {
  const long depth = planes / p->count, extra = planes % p->count;
  *valid_first = s * depth + (s < extra ? s : extra);
  *valid_end = *valid_first + depth + (s < extra ? 1 : 0);
  *load_first = *valid_first > p->halo_lo ? *valid_first - p->halo_lo : 0;
  *load_end = *valid_end + p->halo_hi < planes ? *valid_end + p->halo_hi
                                               : planes;
}

// The slabs for `wanted` of them on `planes` planes whose stencil reaches lo
// planes back and hi ahead, exchanging every bt steps (the N.5D degree:
// one launch between exchanges). Each halo must come from one neighbour, so
// every slab is at least as deep as the wider halo (and one plane): fewer,
// deeper slabs when `wanted` would make them thinner. Returns the count
// (1: one slab, the one-GPU path).
inline long an5d_plan_slabs(long planes, long lo, long hi, long bt,
                            long wanted, an5d_slab_plan *p) {
  p->exchange = bt > 1 ? bt : 1;
  p->halo_lo = p->exchange * lo;
  p->halo_hi = p->exchange * hi;
  long wide = p->halo_lo > p->halo_hi ? p->halo_lo : p->halo_hi;
  if (wide < 1)
    wide = 1;
  long count = wanted < planes / wide ? wanted : planes / wide;
  p->count = count > 1 ? count : 1;
  return p->count;
}

// The slab count when AN5D_GPUS is unset: every one of `devices` GPUs when
// each gets at least AN5D_SLAB_MIN_CELLS cells, else 1.
inline long an5d_default_gpus(int devices, long planes, long cells) {
  return devices > 1 && planes * cells / devices >= AN5D_SLAB_MIN_CELLS
             ? devices
             : 1;
}

// One slab's device state: its device (slabs go round-robin over the visible
// ones), both time planes of its `rows` planes, the stream its halos arrive
// on, and the events that order the exchanges with the kernels.
template <typename T> struct an5d_slab {
  int device;
  long valid_first, valid_end, load_first, load_end, rows;
  long run_first, run_last; // its interior planes, buffer-relative
  T *grid;
  cudaStream_t halos;
  cudaEvent_t computed; // this round's kernels are done
  cudaEvent_t received; // this round's halos have arrived
};

// Copies `rows` planes of both time planes from slab `from` (its plane
// `at`, grid numbering) into slab `to`, on `to`'s halo stream.
template <typename T>
void an5d_slab_pull(const an5d_slab<T> *from, an5d_slab<T> *to, long at,
                    long rows, long cells) {
  if (rows <= 0)
    return;
  for (long q = 0; q < 2; ++q) {
    T *dst = to->grid + (q * to->rows + at - to->load_first) * cells;
    const T *src = from->grid + (q * from->rows + at - from->load_first) * cells;
    const size_t bytes = (size_t)rows * cells * sizeof(T);
    if (from->device == to->device)
      AN5D_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice,
                                 to->halos));
    else
      AN5D_CHECK(cudaMemcpyPeerAsync(dst, to->device, src, from->device,
                                     bytes, to->halos));
  }
}

// Lets kernels on device a use device b's memory where the two can (the
// halo copies then go peer to peer instead of through the host).
inline void an5d_enable_peer(int a, int b) {
  int can = 0;
  if (a == b || cudaDeviceCanAccessPeer(&can, a, b) != cudaSuccess || !can) {
    cudaGetLastError();
    return;
  }
  AN5D_CHECK(cudaSetDevice(a));
  const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
  if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled)
    AN5D_CHECK(e);
  cudaGetLastError(); // already enabled is not an error here
}

// Frees what an5d_slabs_open allocated of slabs 0 .. n-1.
template <typename T> void an5d_slabs_free(an5d_slab<T> *slab, long n) {
  for (long s = 0; s < n; ++s) {
    AN5D_CHECK(cudaSetDevice(slab[s].device));
    AN5D_CHECK(cudaFree(slab[s].grid));
    AN5D_CHECK(cudaStreamDestroy(slab[s].halos));
    AN5D_CHECK(cudaEventDestroy(slab[s].computed));
    AN5D_CHECK(cudaEventDestroy(slab[s].received));
  }
}

// Places the slabs on the devices and allocates their buffers, streams and
// events. Returns 0 (nothing held, *need and *device say where) when the
// slabs of a device exceed its budget or cudaMalloc refuses one.
template <typename T>
int an5d_slabs_open(an5d_slab<T> *slab, const an5d_slab_plan *p, long planes,
                    long cells, long first, long last, long lo, long hi,
                    int devices, size_t *need, int *device, size_t *budget) {
  for (int d = 0; d < devices && d < p->count; ++d) {
    size_t bytes = 0;
    for (long s = d; s < p->count; s += devices) {
      long vf, ve, lf, le;
      an5d_slab_span(p, planes, s, &vf, &ve, &lf, &le);
      bytes += 2 * (size_t)(le - lf) * cells * sizeof(T);
    }
    AN5D_CHECK(cudaSetDevice(d));
    const size_t b = an5d_device_budget();
    if (bytes > b) {
      *need = bytes, *device = d, *budget = b;
      return 0;
    }
  }
  for (long s = 0; s < p->count; ++s) {
    an5d_slab<T> *o = &slab[s];
    o->device = (int)(s % devices);
    an5d_slab_span(p, planes, s, &o->valid_first, &o->valid_end,
                   &o->load_first, &o->load_end);
    o->rows = o->load_end - o->load_first;
    // The buffer's first lo and last hi planes at a cut are the kernels'
    // boundary (an5d_ooc_chunk says why a halo of exchange x reach holds).
    const long lf = o->load_first, le = o->load_end;
    const long rf = lf > 0 && lf + lo > first ? lf + lo : first;
    const long rl = le < planes && le - 1 - hi < last ? le - 1 - hi : last;
    o->run_first = rf - lf;
    o->run_last = rl - lf;
    AN5D_CHECK(cudaSetDevice(o->device));
    const size_t bytes = 2 * (size_t)o->rows * cells * sizeof(T);
    if (cudaMalloc((void **)&o->grid, bytes) != cudaSuccess) {
      cudaGetLastError();
      an5d_slabs_free(slab, s);
      *need = bytes, *device = o->device, *budget = 0;
      return 0;
    }
    AN5D_CHECK(cudaStreamCreateWithFlags(&o->halos, cudaStreamNonBlocking));
    AN5D_CHECK(cudaEventCreateWithFlags(&o->computed, cudaEventDisableTiming));
    AN5D_CHECK(cudaEventCreateWithFlags(&o->received, cudaEventDisableTiming));
  }
  for (long s = 1; s < p->count; ++s) {
    an5d_enable_peer(slab[s - 1].device, slab[s].device);
    an5d_enable_peer(slab[s].device, slab[s - 1].device);
  }
  return 1;
}

// Prints the decision: `an5d: 3 GPUs, slabs of 171/171/170 planes (...)`.
template <typename T>
void an5d_slabs_say(const an5d_slab<T> *slab, const an5d_slab_plan *p,
                    int devices) {
  fprintf(stderr, "an5d: %ld GPUs, slabs of ", p->count);
  for (long s = 0; s < p->count; ++s)
    fprintf(stderr, s ? "/%ld" : "%ld", slab[s].valid_end - slab[s].valid_first);
  fprintf(stderr, " planes (on device%s ", devices > 1 ? "s" : "");
  for (long s = 0; s < p->count; ++s)
    fprintf(stderr, s ? "/%d" : "%d", slab[s].device);
  fprintf(stderr, "; halos of %ld + %ld planes, exchanged every %ld steps)\n",
          p->halo_lo, p->halo_hi, p->exchange);
}

// One round: `n` steps from t on every slab (run as in an5d_out_of_core),
// each slab's kernels after the halos it reads and after its neighbours
// have read its planes (the previous round's `received` events), then, when
// `exchange` is set, each slab's halos pulled from its neighbours on its own
// stream once they and it are done. Nothing waits on the host: the copies
// of one slab overlap the kernels of the others.
template <typename T, typename Run>
long an5d_slabs_round(an5d_slab<T> *slab, long count, long cells, long t,
                      long n, int after_exchange, int exchange, Run &run) {
  long launches = 0;
  for (long s = 0; s < count; ++s) {
    an5d_slab<T> *o = &slab[s];
    AN5D_CHECK(cudaSetDevice(o->device));
    if (after_exchange)
      for (long u = s > 0 ? s - 1 : 0; u <= s + 1 && u < count; ++u)
        AN5D_CHECK(cudaStreamWaitEvent(0, slab[u].received, 0));
    if (o->run_first <= o->run_last)
      launches += run(o->grid, o->rows, o->run_first, o->run_last, t, n);
    AN5D_CHECK(cudaEventRecord(o->computed, 0));
  }
  if (!exchange)
    return launches;
  for (long s = 0; s < count; ++s) {
    an5d_slab<T> *o = &slab[s];
    AN5D_CHECK(cudaSetDevice(o->device));
    for (long u = s > 0 ? s - 1 : 0; u <= s + 1 && u < count; ++u)
      AN5D_CHECK(cudaStreamWaitEvent(o->halos, slab[u].computed, 0));
    if (s > 0)
      an5d_slab_pull(&slab[s - 1], o, o->load_first,
                     o->valid_first - o->load_first, cells);
    if (s + 1 < count)
      an5d_slab_pull(&slab[s + 1], o, o->valid_end,
                     o->load_end - o->valid_end, cells);
    AN5D_CHECK(cudaEventRecord(o->received, o->halos));
  }
  return launches;
}

// Runs `steps` steps from t_first on the host grid `plane0`, `plane1` (as
// for an5d_out_of_core: `planes` planes of `cells` cells, interior planes
// first .. last, reach lo / hi along them, `run` the steps on a part of the
// grid) in slabs on every GPU: AN5D_GPUS of them, or the default
// (an5d_default_gpus). Returns 0, having done nothing, when that is one
// slab, or when the default's slabs do not fit the devices (the one-GPU
// path, in memory or out of core, takes over); stops with a message, the
// arrays unchanged, when AN5D_GPUS's slabs do not fit (out of core across
// several GPUs is not done yet). Sets NCCL_NVLS_ENABLE=0 unless set: NVLink
// multicast can take a host's shared GPUs out of service.
template <typename T, typename Run>
int an5d_slabs(T *plane0, T *plane1, long planes, long cells, long first,
               long last, long lo, long hi, long bt, long t_first, long steps,
               Run run) {
  setenv("NCCL_NVLS_ENABLE", "0", 0);
  const long wanted = an5d_gpus_wanted();
  int devices = 0;
  AN5D_CHECK(cudaGetDeviceCount(&devices));
  const long gpus = wanted > 0 ? wanted
                               : an5d_default_gpus(devices, planes, cells);
  if (gpus <= 1)
    return 0;
  an5d_slab_plan p;
  if (an5d_plan_slabs(planes, lo, hi, bt, gpus, &p) < gpus &&
      (wanted > 0 || an5d_verbose()))
    fprintf(stderr, "an5d: AN5D_GPUS=%ld: slabs of %ld planes would be "
                    "thinner than a halo (%ld + %ld planes: bT %ld x the "
                    "reach); merged into %ld slab%s\n",
            gpus, planes / gpus, p.halo_lo, p.halo_hi, p.exchange, p.count,
            p.count > 1 ? "s" : "");
  if (p.count <= 1)
    return 0;
  int home = 0;
  AN5D_CHECK(cudaGetDevice(&home));
  an5d_slab<T> *slab = (an5d_slab<T> *)calloc(p.count, sizeof *slab);
  if (slab == NULL) {
    fprintf(stderr, "an5d: out of host memory for %ld slabs\n", p.count);
    exit(1);
  }
  size_t need = 0, budget = 0;
  int full = 0;
  if (!an5d_slabs_open(slab, &p, planes, cells, first, last, lo, hi, devices,
                       &need, &full, &budget)) {
    free(slab);
    AN5D_CHECK(cudaSetDevice(home));
    if (wanted <= 0) {
      if (an5d_verbose())
        fprintf(stderr, "an5d: %ld GPUs: the slabs do not fit device %d; "
                        "one GPU\n", p.count, full);
      return 0;
    }
    fprintf(stderr,
            "an5d: AN5D_GPUS=%ld: the slabs on device %d need %zu bytes, "
            "more than it gives (%s%zu bytes); slabs out of core are not "
            "supported yet: use more GPUs, AN5D_GPUS=1 (out of core on one "
            "GPU) or more device memory (AN5D_DEVICE_MEMORY); the arrays "
            "were not changed\n",
            wanted, full, need, budget ? "a budget of " : "cudaMalloc refused; ",
            budget);
    exit(1);
  }
  if (an5d_verbose())
    an5d_slabs_say(slab, &p, devices);
  for (long s = 0; s < p.count; ++s) {
    AN5D_CHECK(cudaSetDevice(slab[s].device));
    for (long q = 0; q < 2; ++q)
      AN5D_CHECK(cudaMemcpy(slab[s].grid + q * slab[s].rows * cells,
                            (q ? plane1 : plane0) + slab[s].load_first * cells,
                            (size_t)slab[s].rows * cells * sizeof(T),
                            cudaMemcpyHostToDevice));
  }
  const char *timing = getenv("AN5D_TIMING");
  cudaEvent_t start = NULL, stop = NULL;
  if (timing != NULL && atoi(timing) > 0) {
    AN5D_CHECK(cudaSetDevice(slab[0].device));
    AN5D_CHECK(cudaEventCreate(&start));
    AN5D_CHECK(cudaEventCreate(&stop));
    AN5D_CHECK(cudaEventRecord(start, 0));
  }
  long launches = 0;
  const long rounds = (steps + p.exchange - 1) / p.exchange;
  for (long r = 0; r < rounds; ++r) {
    const long t = t_first + r * p.exchange;
    const long n = steps - r * p.exchange < p.exchange ? steps - r * p.exchange
                                                       : p.exchange;
    if (an5d_verbose() >= 2)
      fprintf(stderr, "an5d: slabs round %ld of %ld: steps %ld .. %ld\n",
              r + 1, rounds, t, t + n - 1);
    launches += an5d_slabs_round(slab, p.count, cells, t, n, r > 0,
                                 r + 1 < rounds, run);
  }
  // The last round exchanges nothing: each slab's own planes go back.
  for (long s = 0; s < p.count; ++s) {
    AN5D_CHECK(cudaSetDevice(slab[s].device));
    AN5D_CHECK(cudaDeviceSynchronize());
  }
  if (start != NULL) {
    float ms = 0.0f;
    AN5D_CHECK(cudaSetDevice(slab[0].device));
    AN5D_CHECK(cudaEventRecord(stop, 0));
    AN5D_CHECK(cudaEventSynchronize(stop));
    AN5D_CHECK(cudaEventElapsedTime(&ms, start, stop));
    fprintf(stderr, "an5d timing: %.3f ms on %ld slabs (exchanges included), "
                    "%ld steps in %ld launches\n",
            ms, p.count, steps, launches);
    AN5D_CHECK(cudaEventDestroy(start));
    AN5D_CHECK(cudaEventDestroy(stop));
  }
  for (long s = 0; s < p.count; ++s) {
    const an5d_slab<T> *o = &slab[s];
    AN5D_CHECK(cudaSetDevice(o->device));
    for (long q = 0; q < 2; ++q)
      AN5D_CHECK(cudaMemcpy((q ? plane1 : plane0) + o->valid_first * cells,
                            o->grid + (q * o->rows + o->valid_first -
                                       o->load_first) * cells,
                            (size_t)(o->valid_end - o->valid_first) * cells *
                                sizeof(T),
                            cudaMemcpyDeviceToHost));
  }
  an5d_slabs_free(slab, p.count);
  free(slab);
  AN5D_CHECK(cudaSetDevice(home));
  return 1;
}

#endif // AN5D_RUNTIME_SLABS_H
