//===- an5d_runtime_ooc.h - Grids larger than the device's memory ---------===//
//
// The second part of the host runtime every generated file holds (after
// an5d_runtime.h, whose AN5D_CHECK and an5d_read_plane it uses): the device
// budget, and the out-of-core path that streams a host-resident grid
// through the GPU in chunks along the streaming dimension when both planes
// do not fit it. an5dc's build embeds both files, in this order.
// Unit tests: test/Unit/OutOfCoreTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef AN5D_RUNTIME_OOC_H
#define AN5D_RUNTIME_OOC_H

// --- Device budget and the out-of-core path ---------------------------------

// AN5D_VERBOSE's level (0: quiet).
inline int an5d_verbose() {
  const char *v = getenv("AN5D_VERBOSE");
  return v != NULL && atoi(v) > 0 ? atoi(v) : 0;
}

// A size in bytes: digits, then optionally K, M or G (powers of 1024, any
// case, "iB" or "B" after them allowed); -1 for anything else.
inline long long an5d_parse_bytes(const char *text) {
  if (text == NULL || *text < '0' || *text > '9')
    return -1;
  char *end = NULL;
  const unsigned long long v = strtoull(text, &end, 10);
  int shift = 0;
  switch (*end) {
  case 'k': case 'K': shift = 10; ++end; break;
  case 'm': case 'M': shift = 20; ++end; break;
  case 'g': case 'G': shift = 30; ++end; break;
  }
  if (shift != 0 && (*end == 'i' || *end == 'I'))
    ++end;
  if (*end == 'b' || *end == 'B')
    ++end;
  if (*end != '\0' || v > (~0ULL >> 1) >> shift)
    return -1;
  return (long long)(v << shift);
}

// The device memory the planes may take: AN5D_DEVICE_MEMORY when set, else
// the GPU's free memory less a margin for the CUDA context, the streams and
// the kernels' own needs (1/16 of the total, at least 256 MiB).
inline size_t an5d_device_budget() {
  const char *given = getenv("AN5D_DEVICE_MEMORY");
  if (given != NULL && given[0] != '\0') {
    const long long b = an5d_parse_bytes(given);
    if (b < 0) {
      fprintf(stderr, "an5d: AN5D_DEVICE_MEMORY=%s is not a size (bytes, or a "
                      "number with K, M or G); the arrays were not changed\n",
              given);
      exit(1);
    }
    return (size_t)b;
  }
  size_t free_bytes = 0, total = 0;
  AN5D_CHECK(cudaMemGetInfo(&free_bytes, &total));
  size_t margin = total / 16;
  if (margin < ((size_t)256 << 20))
    margin = (size_t)256 << 20;
  return free_bytes > margin ? free_bytes - margin : 0;
}

// Device memory for both planes (`bytes`) of the in-memory path when they
// fit the budget and cudaMalloc gives them; else 0, the error cleared, and
// the caller takes the out-of-core path.
inline int an5d_device_alloc(void **grid, size_t bytes, size_t budget) {
  *grid = NULL;
  if (bytes <= budget && cudaMalloc(grid, bytes) == cudaSuccess) {
    if (an5d_verbose())
      fprintf(stderr, "an5d: in memory, %zu bytes of a device budget of %zu\n",
              bytes, budget);
    return 1;
  }
  cudaGetLastError(); // an allocation failure is not sticky: clear it
  *grid = NULL;
  if (an5d_verbose())
    fprintf(stderr, "an5d: both planes (%zu bytes) do not fit the device "
                    "budget of %zu bytes%s\n",
            bytes, budget, bytes <= budget ? " (cudaMalloc failed)" : "");
  return 0;
}

// How the out-of-core path cuts the grid: chunks of `depth` planes along the
// streaming dimension (the last one the rest), each sent with `halo_lo`
// planes before it and `halo_hi` after it, `tbt` steps per pass over them.
struct an5d_chunks {
  long tbt, depth, count, halo_lo, halo_hi;
  long buffer; // planes a chunk's device buffer holds, per time plane
};

// Chunk k of `planes`: [*valid_first, *valid_end) comes back from the
// device, [*load_first, *load_end) (the halos clipped to the grid) goes.
inline void an5d_chunk_span(const an5d_chunks *c, long planes, long k,
                            long *valid_first, long *valid_end,
                            long *load_first, long *load_end) {
  *valid_first = k * c->depth;
  *valid_end = *valid_first + c->depth < planes ? *valid_first + c->depth
                                                : planes;
  *load_first = *valid_first > c->halo_lo ? *valid_first - c->halo_lo : 0;
  *load_end = *valid_end + c->halo_hi < planes ? *valid_end + c->halo_hi
                                               : planes;
}

// The chunking of `planes` planes of `plane_bytes` (one time plane) whose
// stencil reaches lo planes back and hi ahead, for `steps` steps of a plan
// of degree bt, with `slots` chunk buffers (both time planes each) in
// `budget` bytes. The rule (no model yet): buffers as deep as the budget
// allows (at most the grid); TBT all `steps` if the halos stay within a
// quarter of a buffer, else as many as do, rounded down to a multiple of bt;
// the rest of a buffer is the chunk. Each halo must fit in one neighbouring
// chunk (depth >= both halos), so a chunk is written back only after the
// chunks that read it were sent. Returns 0 when even one step does not fit.
inline int an5d_plan_chunks(long planes, size_t plane_bytes, long lo, long hi,
                            long bt, long steps, size_t budget, int slots,
                            an5d_chunks *c) {
  const size_t per_plane = 2 * (size_t)slots * plane_bytes;
  long buffer = per_plane == 0 ? planes : (long)(budget / per_plane);
  if (buffer > planes)
    buffer = planes;
  const long reach = lo + hi, wide = lo > hi ? lo : hi;
  long tbt = steps > 1 ? steps : 1;
  if (buffer == planes) { // one chunk, no cut: all steps in one pass
    c->tbt = tbt;
    c->halo_lo = c->halo_hi = 0;
    c->depth = c->buffer = planes;
    c->count = 1;
    return planes > 0;
  }
  if (reach > 0) {
    const long quarter = buffer / 4 / reach;
    if (quarter < tbt) { // limited by the halo: whole launches of degree bt
      tbt = quarter;
      if (tbt >= bt && bt > 1)
        tbt -= tbt % bt;
    }
    if (tbt < 1)
      tbt = 1;
  }
  c->tbt = tbt;
  c->halo_lo = tbt * lo;
  c->halo_hi = tbt * hi;
  c->depth = buffer - tbt * reach;
  c->buffer = buffer;
  if (c->depth < 1 || c->depth < tbt * wide)
    return 0;
  c->count = (planes + c->depth - 1) / c->depth;
  return 1;
}

// The buffers and streams of the out-of-core path: AN5D_OOC_SLOTS chunks
// in flight, each with a device buffer and a pinned staging buffer (both
// time planes of `buffer` planes), copies in on one stream, kernels on
// stream 0 (and the launch's edge stream), copies out on a third, so the
// copies of neighbouring chunks overlap the kernels of the one between.
#define AN5D_OOC_SLOTS 3
template <typename T> struct an5d_ooc {
  T *host[2];         // the two time planes (one array, or the user's two)
  long planes, cells; // planes along the streaming dimension, cells of one
  long first, last;   // the interior planes
  an5d_chunks c;
  T *device[AN5D_OOC_SLOTS], *stage[AN5D_OOC_SLOTS];
  int pinned[AN5D_OOC_SLOTS];
  long valid_first[AN5D_OOC_SLOTS], valid_end[AN5D_OOC_SLOTS],
      load_first[AN5D_OOC_SLOTS]; // the chunk in the slot; -1: none
  long rows[AN5D_OOC_SLOTS];
  cudaStream_t in, out;
  cudaEvent_t sent[AN5D_OOC_SLOTS], computed[AN5D_OOC_SLOTS],
      received[AN5D_OOC_SLOTS];
};

// Allocates the slots; 0 (nothing held) if the device refuses a buffer.
template <typename T> int an5d_ooc_open(an5d_ooc<T> *o) {
  const size_t bytes = 2 * (size_t)o->c.buffer * o->cells * sizeof(T);
  int s = 0;
  for (; s < AN5D_OOC_SLOTS; ++s)
    if (cudaMalloc((void **)&o->device[s], bytes) != cudaSuccess)
      break;
  if (s < AN5D_OOC_SLOTS) {
    cudaGetLastError();
    while (s-- > 0)
      AN5D_CHECK(cudaFree(o->device[s]));
    return 0;
  }
  for (s = 0; s < AN5D_OOC_SLOTS; ++s) {
    // Pageable staging still works, with copies that do not overlap.
    o->pinned[s] = cudaMallocHost((void **)&o->stage[s], bytes) == cudaSuccess;
    if (!o->pinned[s]) {
      cudaGetLastError();
      o->stage[s] = (T *)malloc(bytes);
      if (o->stage[s] == NULL) {
        fprintf(stderr, "an5d: cannot allocate %zu bytes of host staging\n",
                bytes);
        exit(1);
      }
    }
    o->valid_first[s] = -1;
    AN5D_CHECK(cudaEventCreateWithFlags(&o->sent[s], cudaEventDisableTiming));
    AN5D_CHECK(cudaEventCreateWithFlags(&o->computed[s], cudaEventDisableTiming));
    AN5D_CHECK(cudaEventCreateWithFlags(&o->received[s], cudaEventDisableTiming));
  }
  AN5D_CHECK(cudaStreamCreateWithFlags(&o->in, cudaStreamNonBlocking));
  AN5D_CHECK(cudaStreamCreateWithFlags(&o->out, cudaStreamNonBlocking));
  return 1;
}

template <typename T> void an5d_ooc_close(an5d_ooc<T> *o) {
  AN5D_CHECK(cudaDeviceSynchronize());
  for (int s = 0; s < AN5D_OOC_SLOTS; ++s) {
    AN5D_CHECK(cudaFree(o->device[s]));
    if (o->pinned[s])
      AN5D_CHECK(cudaFreeHost(o->stage[s]));
    else
      free(o->stage[s]);
    AN5D_CHECK(cudaEventDestroy(o->sent[s]));
    AN5D_CHECK(cudaEventDestroy(o->computed[s]));
    AN5D_CHECK(cudaEventDestroy(o->received[s]));
  }
  AN5D_CHECK(cudaStreamDestroy(o->in));
  AN5D_CHECK(cudaStreamDestroy(o->out));
}

// Waits for slot s's chunk to come back and writes its valid planes, both
// time planes, into the host grid.
template <typename T> void an5d_ooc_finish(an5d_ooc<T> *o, int s) {
  if (o->valid_first[s] < 0)
    return;
  AN5D_CHECK(cudaEventSynchronize(o->received[s]));
  const long n = (o->valid_end[s] - o->valid_first[s]) * o->cells;
  for (long q = 0; q < 2; ++q)
    memcpy(o->host[q] + o->valid_first[s] * o->cells,
           o->stage[s] + (q * o->rows[s] + o->valid_first[s] - o->load_first[s]) *
                             o->cells,
           n * sizeof(T));
  o->valid_first[s] = -1;
}

// Sends chunk k into slot s, runs `n` steps from step t on it (run(chunk,
// rows, first, last, t, n, NULL, AN5D_END_AS_C, AN5D_PART_ALL, 0) with the
// interior planes first .. last of the chunk's `rows`: as the C loop, every
// stream block; an5d_slabs_round says what the last four mean) and queues
// its valid planes' way back. The kernels take the chunk's first lo and
// last hi planes at a cut as boundary (they never write them, and at level
// k read them from the plane of level k's parity). Only reads within reach of the valid planes' cone matter: after
// s steps the planes more than s x reach from a cut are exact, and the
// only level that cone reads the cut planes at is level 0 of the first
// launch, which reads them from the plane step t reads: the values of step
// t the host sent. So the halo of TBT x reach planes suffices, and the
// kernels need no chunk offset (they see the chunk as a grid of `rows`).
template <typename T, typename Run>
long an5d_ooc_chunk(an5d_ooc<T> *o, int s, long k, long t, long n, long lo,
                    long hi, Run &run) {
  long vf, ve, lf, le;
  an5d_chunk_span(&o->c, o->planes, k, &vf, &ve, &lf, &le);
  const long cf = lf > 0 && lf + lo > o->first ? lf + lo : o->first;
  const long cl = le < o->planes && le - 1 - hi < o->last ? le - 1 - hi : o->last;
  if (cf > cl)
    return 0; // no interior plane among the valid ones: nothing changes
  const long rows = le - lf, cells = o->cells;
  T *stage = o->stage[s];
  for (long q = 0; q < 2; ++q)
    memcpy(stage + q * rows * cells, o->host[q] + lf * cells,
           rows * cells * sizeof(T));
  T *device = o->device[s];
  AN5D_CHECK(cudaMemcpyAsync(device, stage, 2 * rows * cells * sizeof(T),
                             cudaMemcpyHostToDevice, o->in));
  AN5D_CHECK(cudaEventRecord(o->sent[s], o->in));
  AN5D_CHECK(cudaStreamWaitEvent(0, o->sent[s], 0));
  const long launches =
      run(device, rows, cf - lf, cl - lf, t, n, (int *)NULL, AN5D_END_AS_C,
          AN5D_PART_ALL, 0L);
  AN5D_CHECK(cudaEventRecord(o->computed[s], 0));
  AN5D_CHECK(cudaStreamWaitEvent(o->out, o->computed[s], 0));
  for (long q = 0; q < 2; ++q) {
    const long at = (q * rows + vf - lf) * cells;
    AN5D_CHECK(cudaMemcpyAsync(stage + at, device + at,
                               (ve - vf) * cells * sizeof(T),
                               cudaMemcpyDeviceToHost, o->out));
  }
  AN5D_CHECK(cudaEventRecord(o->received[s], o->out));
  o->valid_first[s] = vf;
  o->valid_end[s] = ve;
  o->load_first[s] = lf;
  o->rows[s] = rows;
  return launches;
}

// Runs `steps` steps from t_first on the host grid `plane0`, `plane1` (the
// two time planes, each of `planes` planes of `cells` cells, interior planes first ..
// last, reach lo / hi along them) through the device in chunks, TBT steps
// per pass; see an5d_ooc_chunk for `run`. Returns the launches made.
// AN5D_VERBOSE=1 prints the decision, =2 also a line per pass; AN5D_TIMING
// the time of the whole run, copies included (one run: the host grid
// changes in place). Stops with a message, the arrays unchanged, when the
// budget holds no chunk.
template <typename T, typename Run>
long an5d_out_of_core(T *plane0, T *plane1, long planes, long cells,
                      long first, long last,
                      long lo, long hi, long bt, long t_first, long steps,
                      size_t budget, Run run) {
  an5d_ooc<T> o;
  o.host[0] = plane0;
  o.host[1] = plane1;
  o.planes = planes;
  o.cells = cells;
  o.first = first;
  o.last = last;
  const size_t plane_bytes = (size_t)cells * sizeof(T);
  // A budget the device cannot give after all is halved until it can.
  for (;; budget /= 2) {
    if (!an5d_plan_chunks(planes, plane_bytes, lo, hi, bt, steps, budget,
                          AN5D_OOC_SLOTS, &o.c)) {
      const long wide = lo > hi ? lo : hi;
      fprintf(stderr,
              "an5d: out-of-core: the device budget of %zu bytes is too "
              "small: it must hold %d chunk buffers of both time planes of at "
              "least %ld planes (%zu bytes each: halos of %ld + %ld planes and "
              "%ld of the chunk); give more device memory "
              "(AN5D_DEVICE_MEMORY); the arrays were not changed\n",
              budget, AN5D_OOC_SLOTS, lo + hi + (wide > 1 ? wide : 1),
              plane_bytes, lo, hi, wide > 1 ? wide : 1);
      exit(1);
    }
    if (an5d_ooc_open(&o))
      break; // before the halving: the budget the buffers were planned for
  }
  if (an5d_verbose())
    fprintf(stderr,
            "an5d: out-of-core, %ld chunks of %ld planes, TBT %ld (halo %ld + "
            "%ld planes, %d buffers of %ld planes in a device budget of %zu "
            "bytes)\n",
            o.c.count, o.c.depth, o.c.tbt, o.c.halo_lo, o.c.halo_hi,
            AN5D_OOC_SLOTS, o.c.buffer, budget);
  const char *timing = getenv("AN5D_TIMING");
  cudaEvent_t start = NULL, stop = NULL;
  if (timing != NULL && atoi(timing) > 0) {
    AN5D_CHECK(cudaEventCreate(&start));
    AN5D_CHECK(cudaEventCreate(&stop));
    AN5D_CHECK(cudaEventRecord(start, 0));
  }
  long launches = 0;
  const long passes = (steps + o.c.tbt - 1) / o.c.tbt;
  for (long pass = 0; pass < passes; ++pass) {
    const long t = t_first + pass * o.c.tbt;
    const long n = steps - pass * o.c.tbt < o.c.tbt ? steps - pass * o.c.tbt
                                                    : o.c.tbt;
    if (an5d_verbose() >= 2)
      fprintf(stderr, "an5d: out-of-core pass %ld of %ld: steps %ld .. %ld\n",
              pass + 1, passes, t, t + n - 1);
    for (long k = 0; k < o.c.count; ++k) {
      const int s = (int)(k % AN5D_OOC_SLOTS);
      an5d_ooc_finish(&o, s);
      launches += an5d_ooc_chunk(&o, s, k, t, n, lo, hi, run);
    }
    // The next pass reads what this one writes back.
    for (long k = o.c.count; k < o.c.count + AN5D_OOC_SLOTS; ++k)
      an5d_ooc_finish(&o, (int)(k % AN5D_OOC_SLOTS));
  }
  an5d_ooc_close(&o);
  if (start != NULL) {
    float ms = 0.0f;
    AN5D_CHECK(cudaEventRecord(stop, 0));
    AN5D_CHECK(cudaEventSynchronize(stop));
    AN5D_CHECK(cudaEventElapsedTime(&ms, start, stop));
    fprintf(stderr, "an5d timing: %.3f ms out-of-core (copies included), %ld "
                    "steps in %ld launches\n",
            ms, steps, launches);
    AN5D_CHECK(cudaEventDestroy(start));
    AN5D_CHECK(cudaEventDestroy(stop));
  }
  return launches;
}

#endif // AN5D_RUNTIME_OOC_H
