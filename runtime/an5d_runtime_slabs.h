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

#include <time.h>
#ifndef AN5D_EMULATION
#include <thread>
#endif

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
  // With AN5D_TIMING: per round, timed events (an array of one per round
  // for each AN5D_CLOCK_*); NULL otherwise.
  cudaEvent_t *clock[6];
  double pulled; // bytes its halo copies moved in
  // Checked kernels: the word its launches report into (see
  // an5d_checked_launches), and after each round its copy on the host.
  unsigned long long *unproved, *unproved_seen;
  cudaEvent_t seen[2]; // the copies of the last two rounds
};

// A slab's timed events: around its kernels on stream 0 (the inner stream
// blocks, then, after the waits, the rest) and around its halo copies (on
// `halos`, after the waits).
enum {
  AN5D_CLOCK_KERNELS_BEGIN,
  AN5D_CLOCK_INNER_END,
  AN5D_CLOCK_EDGES_BEGIN,
  AN5D_CLOCK_KERNELS_END,
  AN5D_CLOCK_COPIES_BEGIN,
  AN5D_CLOCK_COPIES_END,
  AN5D_CLOCKS
};

// Records slab o's timed event `which` of round r on `stream`, with
// AN5D_TIMING.
template <typename T>
void an5d_slab_clock(an5d_slab<T> *o, int which, long r, cudaStream_t stream) {
  if (o->clock[which] != NULL)
    AN5D_CHECK(cudaEventRecord(o->clock[which][r], stream));
}

// The milliseconds between slab o's timed events `from` and `to` of round r.
template <typename T>
float an5d_slab_clock_ms(const an5d_slab<T> *o, int from, int to, long r) {
  float ms = 0.0f;
  AN5D_CHECK(cudaEventElapsedTime(&ms, o->clock[from][r], o->clock[to][r]));
  return ms;
}

// Copies `rows` planes of time plane q (0 or 1) from slab `from` (its
// plane `at`, grid numbering) into slab `to`, on `to`'s halo stream.
template <typename T>
void an5d_slab_pull(const an5d_slab<T> *from, an5d_slab<T> *to, long at,
                    long rows, long cells, int q) {
  if (rows <= 0)
    return;
  T *dst = to->grid + (q * to->rows + at - to->load_first) * cells;
  const T *src = from->grid + (q * from->rows + at - from->load_first) * cells;
  const size_t bytes = (size_t)rows * cells * sizeof(T);
  to->pulled += (double)bytes;
  if (from->device == to->device)
    AN5D_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice,
                               to->halos));
  else
    AN5D_CHECK(cudaMemcpyPeerAsync(dst, to->device, src, from->device, bytes,
                                   to->halos));
}

// Copies the interior (`box`) of `count` planes from plane `at` (grid
// numbering) of slab o's time plane q into its other time plane, on its
// halo stream: the boundary cells of each time plane are the C loop's own
// and stay.
template <typename T>
void an5d_slab_interior_copy(an5d_slab<T> *o, long at, long count, long cells,
                             an5d_plane_box box, int q) {
  const size_t pitch = (size_t)box.width * sizeof(T);
  for (long e = at; e < at + count; ++e) {
    const long offset = (e - o->load_first) * cells +
                        box.row_first * box.width + box.col_first;
    AN5D_CHECK(cudaMemcpy2DAsync(o->grid + (q ^ 1) * o->rows * cells + offset,
                                 pitch, o->grid + q * o->rows * cells + offset,
                                 pitch, (size_t)box.cols * sizeof(T),
                                 (size_t)box.rows, cudaMemcpyDeviceToDevice,
                                 o->halos));
    o->pulled += (double)box.cols * box.rows * sizeof(T);
  }
}

// an5d_slab_interior_copy of the interior planes (first .. last) among the
// halo planes on one side of the planes the kernels run on: before
// run_first (side 0) or after run_last (side 1).
template <typename T>
void an5d_slab_interior_edge(an5d_slab<T> *o, int side, long first, long last,
                             long cells, an5d_plane_box box, int q) {
  if (side == 0) {
    const long lo = o->load_first > first ? o->load_first : first;
    an5d_slab_interior_copy(o, lo, o->load_first + o->run_first - lo, cells,
                            box, q);
  } else {
    const long hi = o->load_end - 1 < last ? o->load_end - 1 : last;
    an5d_slab_interior_copy(o, o->load_first + o->run_last + 1,
                            hi - (o->load_first + o->run_last), cells, box, q);
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

// Frees one slab's buffer, stream and events (an5d_slab_alloc's).
template <typename T> void an5d_slab_free(an5d_slab<T> *o) {
  AN5D_CHECK(cudaSetDevice(o->device));
  AN5D_CHECK(cudaFree(o->grid));
  AN5D_CHECK(cudaStreamDestroy(o->halos));
  AN5D_CHECK(cudaEventDestroy(o->computed));
  AN5D_CHECK(cudaEventDestroy(o->received));
}

// Frees what an5d_slabs_open allocated of slabs 0 .. n-1.
template <typename T> void an5d_slabs_free(an5d_slab<T> *slab, long n) {
  for (long s = 0; s < n; ++s)
    an5d_slab_free(&slab[s]);
}

// Slab s's interior planes, grid numbering: *run_first .. *run_last (none
// when *run_first > *run_last). The buffer's first lo and last hi planes at
// a cut are the kernels' boundary (an5d_ooc_chunk says why a halo of
// exchange x reach holds).
inline void an5d_slab_runs(const an5d_slab_plan *p, long planes, long s,
                           long first, long last, long lo, long hi,
                           long *run_first, long *run_last) {
  long vf, ve, lf, le;
  an5d_slab_span(p, planes, s, &vf, &ve, &lf, &le);
  *run_first = lf > 0 && lf + lo > first ? lf + lo : first;
  *run_last = le < planes && le - 1 - hi < last ? le - 1 - hi : last;
}

// Slab s of plan p on `device` (the current device): its spans, both time
// planes of its planes, its halo stream and events. Returns 0, holding
// nothing (*need: the bytes), when cudaMalloc refuses the buffer.
template <typename T>
int an5d_slab_alloc(an5d_slab<T> *o, const an5d_slab_plan *p, long planes,
                    long cells, long first, long last, long lo, long hi,
                    long s, int device, size_t *need) {
  o->device = device;
  an5d_slab_span(p, planes, s, &o->valid_first, &o->valid_end,
                 &o->load_first, &o->load_end);
  o->rows = o->load_end - o->load_first;
  long rf, rl;
  an5d_slab_runs(p, planes, s, first, last, lo, hi, &rf, &rl);
  o->run_first = rf - o->load_first;
  o->run_last = rl - o->load_first;
  const size_t bytes = 2 * (size_t)o->rows * cells * sizeof(T);
  if (cudaMalloc((void **)&o->grid, bytes) != cudaSuccess) {
    cudaGetLastError();
    *need = bytes;
    return 0;
  }
  AN5D_CHECK(cudaStreamCreateWithFlags(&o->halos, cudaStreamNonBlocking));
  AN5D_CHECK(cudaEventCreateWithFlags(&o->computed, cudaEventDisableTiming));
  AN5D_CHECK(cudaEventCreateWithFlags(&o->received, cudaEventDisableTiming));
  return 1;
}

// Creates the timed events of every slab for `rounds` rounds.
template <typename T>
void an5d_slabs_clock_open(an5d_slab<T> *slab, long n, long rounds) {
  for (long s = 0; s < n; ++s) {
    AN5D_CHECK(cudaSetDevice(slab[s].device));
    for (int c = 0; c < AN5D_CLOCKS; ++c) {
      slab[s].clock[c] = (cudaEvent_t *)calloc(rounds, sizeof(cudaEvent_t));
      if (slab[s].clock[c] == NULL) {
        fprintf(stderr, "an5d: out of host memory for the slab timing\n");
        exit(1);
      }
      for (long r = 0; r < rounds; ++r)
        AN5D_CHECK(cudaEventCreate(&slab[s].clock[c][r]));
    }
  }
}

// Prints, after the run, each slab's kernel and halo-copy time and how much
// of the wall time `wall_ms` the busiest device's kernels leave uncovered:
// what the exchanges cost that computation did not hide. Frees the events.
template <typename T>
void an5d_slabs_clock_say(an5d_slab<T> *slab, long n, long rounds,
                          long exchanges, float wall_ms) {
  // Slabs go round-robin over the devices, so a device index is below n.
  double *busy = (double *)calloc(n, sizeof(double));
  if (busy == NULL) {
    fprintf(stderr, "an5d: out of host memory for the slab timing\n");
    exit(1);
  }
  double busiest = 0.0;
  for (long s = 0; s < n; ++s) {
    an5d_slab<T> *o = &slab[s];
    AN5D_CHECK(cudaSetDevice(o->device));
    double kernels = 0.0, copies = 0.0;
    for (long r = 0; r < rounds; ++r) {
      kernels += an5d_slab_clock_ms(o, AN5D_CLOCK_KERNELS_BEGIN,
                                    AN5D_CLOCK_INNER_END, r) +
                 an5d_slab_clock_ms(o, AN5D_CLOCK_EDGES_BEGIN,
                                    AN5D_CLOCK_KERNELS_END, r);
      if (r < exchanges)
        copies += an5d_slab_clock_ms(o, AN5D_CLOCK_COPIES_BEGIN,
                                     AN5D_CLOCK_COPIES_END, r);
    }
    fprintf(stderr, "an5d timing: slab %ld (device %d): kernels %.3f ms; "
                    "%ld halo exchanges of %.4g MB, %.3f ms each\n",
            s, o->device, kernels, exchanges,
            exchanges ? o->pulled / exchanges / 1e6 : 0.0,
            exchanges ? copies / exchanges : 0.0);
    busy[o->device] += kernels;
    if (busy[o->device] > busiest)
      busiest = busy[o->device];
    for (int c = 0; c < AN5D_CLOCKS; ++c) {
      for (long r = 0; r < rounds; ++r)
        AN5D_CHECK(cudaEventDestroy(o->clock[c][r]));
      free(o->clock[c]);
    }
  }
  free(busy);
  fprintf(stderr, "an5d timing: %.3f ms of the %.3f ms not covered by the "
                  "busiest device's kernels (exchanges and waits not "
                  "hidden)\n",
          wall_ms - busiest > 0 ? wall_ms - busiest : 0.0, wall_ms);
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
    const int d = (int)(s % devices);
    AN5D_CHECK(cudaSetDevice(d));
    if (!an5d_slab_alloc(&slab[s], p, planes, cells, first, last, lo, hi, s,
                         d, need)) {
      an5d_slabs_free(slab, s);
      *device = d, *budget = 0;
      return 0;
    }
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

// Round r of `rounds` of a slab run of `steps` steps from t_first,
// exchanging every `exchange` steps: its first step *t, its step count *n,
// and how its launches end (*end, AN5D_END_*: the last round as the C loop,
// the one before unswapped, the others open).
inline void an5d_slab_round_of(long r, long rounds, long t_first, long steps,
                               long exchange, long *t, long *n, int *end) {
  *t = t_first + r * exchange;
  *n = steps - r * exchange < exchange ? steps - r * exchange : exchange;
  *end = r + 1 == rounds   ? AN5D_END_AS_C
         : r + 2 == rounds ? AN5D_END_UNSWAPPED
                           : AN5D_END_OPEN;
}

// One round: `n` steps from t on every slab (run(grid, rows, first, last,
// t, n, swapped, end, part, guard, origin): `part` the stream blocks, AN5D_PART_*,
// `guard` rows from the ends of the interior planes first .. last, `origin`
// the grid plane the slab's first plane holds), from
// data in the plane the C loop reads at t (*swapped 0) or the other one
// (1), ending as `end` says (AN5D_END_*; *swapped then says where the data
// of t + n is); each slab's kernels after the halos it reads and after
// its neighbours have read its planes (the previous round's `received`
// events). Then, when `exchange` is set, each slab's halos are pulled from
// its neighbours on its own stream once they and it are done: the plane
// holding t + n (q), and, when that is not the plane the C loop reads at
// t + n, also the interior (`box`) of the slab's outermost planes into the
// other plane, since the kernels read planes outside their interior from
// the C loop's plane.
// Nothing waits on the host: the copies of one slab overlap the kernels of
// the others. `read_plane` is the C loop's plane of t + n; first .. last
// the grid's interior planes.
template <typename T, typename Run>
long an5d_slabs_round(an5d_slab<T> *slab, long count, long cells, long t,
                      long n, long round, int after_exchange, int exchange,
                      int *swapped, int end, int read_plane, long first,
                      long last, an5d_plane_box box, long guard, Run &run) {
  long launches = 0;
  int ran = 0, out = *swapped;
  for (long s = 0; s < count; ++s) {
    an5d_slab<T> *o = &slab[s];
    AN5D_CHECK(cudaSetDevice(o->device));
    const int runs = o->run_first <= o->run_last;
    // A round of one launch (AN5D_END_OPEN) runs its inner stream blocks
    // first, without waiting for the last exchange: they read no halo
    // plane and write no plane a neighbour reads (guard), so the halos move
    // meanwhile; the blocks near the ends follow once the halos are in.
    const int split = end == AN5D_END_OPEN && after_exchange;
    an5d_slab_clock(o, AN5D_CLOCK_KERNELS_BEGIN, round, 0);
    an5d_part_unproved() = o->unproved; // NULL: the exact kernels
    if (split && runs) {
      int scratch = *swapped;
      launches += run(o->grid, o->rows, o->run_first, o->run_last, t, n,
                      &scratch, end, AN5D_PART_INNER, guard, o->load_first);
    }
    an5d_slab_clock(o, AN5D_CLOCK_INNER_END, round, 0);
    if (after_exchange)
      for (long u = s > 0 ? s - 1 : 0; u <= s + 1 && u < count; ++u)
        AN5D_CHECK(cudaStreamWaitEvent(0, slab[u].received, 0));
    an5d_slab_clock(o, AN5D_CLOCK_EDGES_BEGIN, round, 0);
    if (runs) {
      int mine = *swapped;
      launches += run(o->grid, o->rows, o->run_first, o->run_last, t, n,
                      &mine, end, split ? AN5D_PART_EDGES : AN5D_PART_ALL,
                      guard, o->load_first);
      if (ran && mine != out) {
        fprintf(stderr, "an5d: internal error: slabs ended a round in "
                        "different planes\n");
        exit(1);
      }
      out = mine;
      ran = 1;
    }
    an5d_part_unproved() = NULL;
    an5d_slab_clock(o, AN5D_CLOCK_KERNELS_END, round, 0);
    AN5D_CHECK(cudaEventRecord(o->computed, 0));
  }
  *swapped = out;
  if (!exchange)
    return launches;
  const int q = read_plane ^ out;
  for (long s = 0; s < count; ++s) {
    an5d_slab<T> *o = &slab[s];
    AN5D_CHECK(cudaSetDevice(o->device));
    for (long u = s > 0 ? s - 1 : 0; u <= s + 1 && u < count; ++u)
      AN5D_CHECK(cudaStreamWaitEvent(o->halos, slab[u].computed, 0));
    an5d_slab_clock(o, AN5D_CLOCK_COPIES_BEGIN, round, o->halos);
    if (s > 0) {
      an5d_slab_pull(&slab[s - 1], o, o->load_first,
                     o->valid_first - o->load_first, cells, q);
      if (out) // the interior planes before run_first
        an5d_slab_interior_edge(o, 0, first, last, cells, box, q);
    }
    if (s + 1 < count) {
      an5d_slab_pull(&slab[s + 1], o, o->valid_end,
                     o->load_end - o->valid_end, cells, q);
      if (out) // the interior planes after run_last
        an5d_slab_interior_edge(o, 1, first, last, cells, box, q);
    }
    an5d_slab_clock(o, AN5D_CLOCK_COPIES_END, round, o->halos);
    AN5D_CHECK(cudaEventRecord(o->received, o->halos));
  }
  return launches;
}

// --- Checked kernels on slabs ------------------------------------------------

// With checked kernels (an5d_slabs' `checked`) every slab's launches run the
// fast form and report into a word of their own (an5d_part_unproved). The
// host reads the words two rounds behind the kernels; once one flags, the
// planes are no longer what the C loop computes (a flagged slab's halos
// went to its neighbours), and the whole run starts again from the host
// planes with the exact kernels. Allocates the words and their host copies.
template <typename T> void an5d_slabs_check_open(an5d_slab<T> *slab, long n) {
  for (long s = 0; s < n; ++s) {
    an5d_slab<T> *o = &slab[s];
    AN5D_CHECK(cudaSetDevice(o->device));
    AN5D_CHECK(cudaMalloc((void **)&o->unproved, sizeof *o->unproved));
    AN5D_CHECK(cudaMemset(o->unproved, 0xFF, sizeof *o->unproved)); // none
    AN5D_CHECK(cudaMallocHost((void **)&o->unproved_seen,
                              sizeof *o->unproved_seen));
    *o->unproved_seen = ~0ULL;
    for (int i = 0; i < 2; ++i)
      AN5D_CHECK(cudaEventCreateWithFlags(&o->seen[i],
                                          cudaEventDisableTiming));
  }
}

// Frees them; the slabs' launches divide exactly from then on.
template <typename T>
void an5d_slabs_check_close(an5d_slab<T> *slab, long n) {
  for (long s = 0; s < n; ++s) {
    an5d_slab<T> *o = &slab[s];
    AN5D_CHECK(cudaSetDevice(o->device));
    AN5D_CHECK(cudaFree(o->unproved));
    AN5D_CHECK(cudaFreeHost(o->unproved_seen));
    for (int i = 0; i < 2; ++i)
      AN5D_CHECK(cudaEventDestroy(o->seen[i]));
    o->unproved = o->unproved_seen = NULL;
  }
}

// After round r's kernels: each slab's word to the host, on its stream.
template <typename T>
void an5d_slabs_check_copy(an5d_slab<T> *slab, long n, long r) {
  for (long s = 0; s < n; ++s) {
    an5d_slab<T> *o = &slab[s];
    AN5D_CHECK(cudaSetDevice(o->device));
    AN5D_CHECK(cudaMemcpyAsync(o->unproved_seen, o->unproved,
                               sizeof *o->unproved, cudaMemcpyDeviceToHost,
                               0));
    AN5D_CHECK(cudaEventRecord(o->seen[r % 2], 0));
  }
}

// Whether a slab's kernels flagged a value by round r (waits for that
// round's copies; the ring holds the last two rounds').
template <typename T>
int an5d_slabs_check_flagged(an5d_slab<T> *slab, long n, long r) {
  int flagged = 0;
  for (long s = 0; s < n; ++s) {
    an5d_slab<T> *o = &slab[s];
    AN5D_CHECK(cudaSetDevice(o->device));
    AN5D_CHECK(cudaEventSynchronize(o->seen[r % 2]));
    flagged |= *(volatile unsigned long long *)o->unproved_seen != ~0ULL;
  }
  return flagged;
}

// --- Slabs out of core: several GPUs, a grid larger than their memory -------

// Seconds on a monotonic clock.
inline double an5d_wall_seconds() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Runs work(d) for devices d = 0 .. devices - 1, side by side (one host
// thread each). The CPU emulation runs them one after another, from the
// last when `reverse`.
template <typename Work>
void an5d_each_device(int devices, int reverse, const Work &work) {
#ifdef AN5D_EMULATION
  for (int i = 0; i < devices; ++i)
    work(reverse ? devices - 1 - i : i);
#else
  (void)reverse;
  std::thread *workers = new std::thread[devices];
  for (int d = 0; d < devices; ++d)
    workers[d] = std::thread([&work, d] { work(d); });
  for (int d = 0; d < devices; ++d)
    workers[d].join();
  delete[] workers;
#endif
}

// Slab s's part of a round of n steps out of core: the grid planes [*a, *b)
// its GPU streams (its own planes and n x lo below, n x hi above: what is
// computed from the part's ends is wrong by the round's end no further in
// than that) and their interior planes first_v .. last_v (the part's outer
// lo / hi planes stay as they are). 0 when the slab owns no interior plane.
inline int an5d_ooc_part(const an5d_slab_plan *p, long planes, long s,
                         long first, long last, long lo, long hi, long n,
                         long *a, long *b, long *first_v, long *last_v) {
  long vf, ve, lf, le;
  an5d_slab_span(p, planes, s, &vf, &ve, &lf, &le);
  if (ve - 1 < first || vf > last)
    return 0;
  *a = vf - n * lo > 0 ? vf - n * lo : 0;
  *b = ve + n * hi < planes ? ve + n * hi : planes;
  *first_v = *a > 0 && *a + lo > first ? *a + lo : first;
  *last_v = *b < planes && *b - 1 - hi < last ? *b - 1 - hi : last;
  return 1;
}

// The plan of slab s's part for a round of up to *n steps within a device
// budget of `budget` bytes, as an5d_out_of_core divides it (the two planes'
// rims, `rim` cells a plane, on the device beside the window when they
// take at most a quarter of it and the boundaries differ): one pass (its
// TBT, possibly fewer steps than *n: then *n is lowered), on kernels of
// degree bt or, when their guard does not fit, one step per launch
// (*one_step). 0 when not even one step fits.
inline int an5d_ooc_part_plan(const an5d_slab_plan *p, long planes, long s,
                              long first, long last, long lo, long hi, long bt,
                              long stream_block, long cells, size_t elem,
                              int same, long rim, size_t budget, long *n,
                              an5d_ooc_plan *plan, int *one_step) {
  long a, b, fv, lv;
  if (!an5d_ooc_part(p, planes, s, first, last, lo, hi, *n, &a, &b, &fv, &lv))
    return 1;
  const size_t rim_bytes = (size_t)(b - a) * rim * elem;
  const int kept = !same && rim > 0 && 2 * rim_bytes <= budget / 4;
  const int sent = same || kept ? 1 : 2;
  const long window = (long)((budget - (kept ? 2 * rim_bytes : 0)) / (2 * cells * elem));
  const an5d_ooc_geometry g = {b - a, fv - a, lv - a, lo, hi, stream_block};
  const an5d_ooc_geometry single = {b - a, fv - a, lv - a, lo, hi, 0};
  const an5d_ooc_costs costs =
      an5d_ooc_default_costs((double)(b - a) * cells * elem, sent, (double)cells);
  *one_step = 0;
  if (!an5d_ooc_plan_window(&g, (int)bt, *n, window, plan, &costs)) {
    *one_step = 1;
    if (!an5d_ooc_plan_window(&single, 1, *n, window, plan, &costs))
      return 0;
  }
  if (plan->tbt < *n)
    *n = plan->tbt;
  return 1;
}

// Runs `steps` steps as an5d_slabs does, in `count` slabs over `devices`
// GPUs (slab s on device s % devices), when the slabs do not fit the GPUs:
// each GPU streams its slab of the host grid through a window of its own
// (an5d_out_of_core on a view of the grid, stream_block and bt as that
// takes them), in rounds of one pass. A round's view of a slab reaches
// n x lo planes below it and n x hi above (recomputed there, n the round's
// steps); the planes it reads that other slabs own are copied aside before
// the round, since their GPUs rewrite them during it, and only the slab's
// own planes go back. Rounds are as deep as the windows' planner takes,
// their halos at most a quarter of a slab (AN5D_OOC_TBT sets the depth).
// A device's slabs run one after another, the devices side by side (one
// host thread each). Returns the launches made.
template <typename T, typename Run>
long an5d_slabs_out_of_core(T *plane0, T *plane1, long planes, long cells,
                            long first, long last, long lo, long hi, long bt,
                            long w, an5d_plane_box box, long stream_block,
                            long t_first, long steps, long count, int devices,
                            Run &run) {
  an5d_slab_plan p;
  an5d_plan_slabs(planes, lo, hi, 1, count, &p);
  count = p.count;
  if (devices > count)
    devices = (int)count;
  const size_t plane_bytes = (size_t)cells * sizeof(T);
  size_t *budget = (size_t *)calloc(devices, sizeof(size_t));
  long *made = (long *)calloc(devices, sizeof(long));
  an5d_ooc_view<T> *view = (an5d_ooc_view<T> *)calloc(count, sizeof *view);
  T **aside = (T **)calloc(count, sizeof(T *));
  int *pinned_aside = (int *)calloc(count, sizeof(int));
  if (budget == NULL || made == NULL || view == NULL || aside == NULL ||
      pinned_aside == NULL) {
    fprintf(stderr, "an5d: out of host memory for %ld slabs\n", count);
    exit(1);
  }
  int home = 0;
  AN5D_CHECK(cudaGetDevice(&home));
  for (int d = 0; d < devices; ++d) {
    AN5D_CHECK(cudaSetDevice(d));
    budget[d] = an5d_device_budget();
  }
  const int same = an5d_ooc_same_boundary(plane0, plane1, planes, cells, first, last, box);
  // Rounds: halos of at most a quarter of the thinnest slab (each round
  // moves the slabs and their halos through the host link once: deeper
  // rounds move less per step, until the recomputed halos cost more), or
  // AN5D_OOC_TBT steps; the windows' planner may take fewer.
  const long reach = lo + hi > 1 ? lo + hi : 1;
  const char *env_tbt = getenv("AN5D_OOC_TBT");
  long deepest = env_tbt != NULL && atol(env_tbt) > 0
                     ? atol(env_tbt)
                     : (planes / count) / (4 * reach);
  if (deepest < 1)
    deepest = 1;
  if (deepest >= bt)
    deepest -= deepest % bt;
  if (deepest > steps)
    deepest = steps;
  // The copies aside: both time planes of a slab's halos at the deepest round.
  for (long s = 0; s < count; ++s) {
    long a, b, fv, lv, vf, ve, lf, le;
    if (!an5d_ooc_part(&p, planes, s, first, last, lo, hi, deepest, &a, &b, &fv, &lv))
      continue;
    an5d_slab_span(&p, planes, s, &vf, &ve, &lf, &le);
    const size_t bytes = 2 * (size_t)((vf - a) + (b - ve)) * plane_bytes;
    AN5D_CHECK(cudaSetDevice((int)(s % devices)));
    pinned_aside[s] = cudaMallocHost((void **)&aside[s], bytes + 1) == cudaSuccess;
    if (!pinned_aside[s]) {
      cudaGetLastError();
      aside[s] = (T *)malloc(bytes + 1);
      if (aside[s] == NULL) {
        fprintf(stderr, "an5d: out of host memory for the halos of slab %ld "
                        "(%zu bytes)\n", s, bytes);
        exit(1);
      }
    }
  }
  int pinned[2];
  an5d_ooc_pin(plane0, plane1, planes * plane_bytes, pinned,
               cudaHostRegisterPortable);
  const double start = an5d_wall_seconds();
  double *busy = (double *)calloc(devices, sizeof(double)); // per device, AN5D_TIMING
  double aside_s = 0.0;
  long t = t_first, done = 0, rounds = 0;
  while (done < steps) {
    // The round: as many steps as every slab's pass fits.
    long n = steps - done < deepest ? steps - done : deepest;
    for (long tries = 0;; ++tries) {
      const long before = n;
      for (long s = 0; s < count; ++s) {
        const int d = (int)(s % devices);
        if (!an5d_ooc_part_plan(&p, planes, s, first, last, lo, hi, bt,
                                stream_block, cells, sizeof(T), same,
                                an5d_ooc_rim_of(box, cells).per_plane,
                                budget[d], &n, &view[s].plan,
                                &view[s].one_step)) {
          if (rounds > 0) {
            fprintf(stderr, "an5d: out-of-core on %ld GPUs: internal error: "
                            "round %ld fits no window\n", count, rounds + 1);
            abort();
          }
          long a, b, fv, lv;
          an5d_ooc_part(&p, planes, s, first, last, lo, hi, 1, &a, &b, &fv, &lv);
          const an5d_ooc_geometry single = {b - a, fv - a, lv - a, lo, hi, 0};
          const long need = an5d_ooc_smallest_window(&single, planes);
          fprintf(stderr, "an5d: out-of-core on %ld GPUs: the device budget "
                          "of %zu bytes on device %d is too small: slab %ld's "
                          "window must hold both time planes of at least %ld "
                          "planes of %zu bytes (%zu bytes); give more device "
                          "memory (AN5D_DEVICE_MEMORY) or use more GPUs; the "
                          "arrays were not changed\n",
                  count, budget[d], d, s, need, plane_bytes,
                  2 * need * plane_bytes);
          exit(1);
        }
      }
      if (n == before)
        break;
      if (tries > 64) {
        fprintf(stderr, "an5d: out-of-core on %ld GPUs: internal error: no "
                        "round fits every slab\n", count);
        abort();
      }
    }
    // The parts, and the planes they read that other slabs own, set aside.
    long lead = -1;
    for (long s = 0; s < count; ++s) {
      an5d_ooc_view<T> &v = view[s];
      long a, b, fv, lv, vf, ve, lf, le;
      v.keep_end = v.keep_first = 0;
      if (!an5d_ooc_part(&p, planes, s, first, last, lo, hi, n, &a, &b, &fv, &lv))
        continue;
      if (lead < 0)
        lead = s;
      an5d_slab_span(&p, planes, s, &vf, &ve, &lf, &le);
      v.origin = a;
      v.keep_first = vf - a;
      v.keep_end = ve - a;
      v.below_end = vf - a;
      v.above_from = ve - a;
      v.same = same;
      v.both_back = done + n == steps;
      T *into = aside[s];
      for (int q = 0; q < 2; ++q) {
        v.below[q] = into;
        into += (vf - a) * cells;
        v.above[q] = into;
        into += (b - ve) * cells;
      }
    }
    if (rounds == 0 && an5d_verbose()) {
      // What an5d_out_of_core decides for the first slab's part.
      int lead_kept = 0;
      if (lead >= 0) {
        long a, b, fv, lv;
        an5d_ooc_part(&p, planes, lead, first, last, lo, hi, n, &a, &b, &fv, &lv);
        const size_t rim_bytes =
            (size_t)(b - a) * an5d_ooc_rim_of(box, cells).per_plane * sizeof(T);
        lead_kept = rim_bytes > 0 && 2 * rim_bytes <= budget[lead % devices] / 4;
      }
      fprintf(stderr, "an5d: %ld GPUs out of core, slabs of ", count);
      for (long s = 0; s < count; ++s) {
        long vf, ve, lf, le;
        an5d_slab_span(&p, planes, s, &vf, &ve, &lf, &le);
        fprintf(stderr, s ? "/%ld" : "%ld", ve - vf);
      }
      fprintf(stderr, " planes (on device%s ", devices > 1 ? "s" : "");
      for (long s = 0; s < count; ++s)
        fprintf(stderr, s ? "/%ld" : "%ld", s % devices);
      fprintf(stderr, "), rounds of %ld steps: each slab with %ld + %ld "
                      "planes around it streams through its GPU in chunks "
                      "of %ld planes (a window of %ld planes; %s)\n",
              n, n * lo, n * hi, lead >= 0 ? view[lead].plan.depth : 0L,
              lead >= 0 ? view[lead].plan.window : 0L,
              same ? "one plane sent per chunk, the planes' boundaries agreeing"
              : lead_kept ? "one plane sent per chunk, the other's boundary "
                            "kept on the device"
                          : "both planes sent");
    }
    if (an5d_verbose() >= 2)
      fprintf(stderr, "an5d: out-of-core round %ld: steps %ld .. %ld on %ld "
                      "slabs\n", rounds + 1, t, t + n - 1, count);
    // With both planes' boundaries alike a part reads only the data's plane.
    const int data = an5d_read_plane(t, w);
    const auto set_aside = [&, n](int d) {
      for (long s = d; s < count; s += devices) {
        const an5d_ooc_view<T> &v = view[s];
        long a, b, fv, lv;
        if (v.keep_end <= v.keep_first ||
            !an5d_ooc_part(&p, planes, s, first, last, lo, hi, n, &a, &b, &fv, &lv))
          continue;
        for (int q = 0; q < 2; ++q) {
          if (same && q != data)
            continue;
          const T *grid = (q ? plane1 : plane0) + a * cells;
          memcpy((void *)v.below[q], grid, (size_t)v.below_end * plane_bytes);
          memcpy((void *)v.above[q], grid + v.above_from * cells,
                 (size_t)(b - a - v.above_from) * plane_bytes);
        }
      }
    };
    // A device's slabs in turn, from the last in odd rounds (any order
    // gives the same result: the emulation's tests see both).
    const int reverse = (int)(rounds % 2);
    const auto device_work = [&, t, n, reverse](int d) {
      const double from = an5d_wall_seconds();
      AN5D_CHECK(cudaSetDevice(d));
      const long mine = (count - 1 - d) / devices + 1; // slabs d, d + devices, ...
      for (long i = 0; i < mine; ++i) {
        const long s = d + (reverse ? mine - 1 - i : i) * devices;
        const an5d_ooc_view<T> &v = view[s];
        if (v.keep_end <= v.keep_first)
          continue;
        long a, b, fv, lv;
        an5d_ooc_part(&p, planes, s, first, last, lo, hi, n, &a, &b, &fv, &lv);
        made[d] += an5d_out_of_core(plane0 + a * cells, plane1 + a * cells,
                                    b - a, cells, fv - a, lv - a, lo, hi, bt,
                                    w, box, stream_block, t, n, budget[d],
                                    run, &v);
      }
      busy[d] += an5d_wall_seconds() - from;
    };
    // Every GPU's halos are set aside before any GPU writes.
    const double aside_from = an5d_wall_seconds();
    an5d_each_device(devices, 0, set_aside);
    aside_s += an5d_wall_seconds() - aside_from;
    an5d_each_device(devices, reverse, device_work);
    t += n;
    done += n;
    ++rounds;
  }
  long launches = 0;
  for (int d = 0; d < devices; ++d)
    launches += made[d];
  const char *timing = getenv("AN5D_TIMING");
  if (timing != NULL && atoi(timing) > 0) {
    fprintf(stderr, "an5d timing: %.3f ms out-of-core on %ld slabs (copies "
                    "included), %ld steps in %ld launches, %ld rounds; "
                    "%.3f ms setting the halos aside",
            1e3 * (an5d_wall_seconds() - start), count, steps, launches,
            rounds, 1e3 * aside_s);
    for (int d = 0; d < devices; ++d)
      fprintf(stderr, "%s device %d %.3f ms", d ? "," : "; streaming:", d,
              1e3 * busy[d]);
    fprintf(stderr, "\n");
  }
  free(busy);
  for (int q = 0; q < 2; ++q)
    if (pinned[q])
      AN5D_CHECK(cudaHostUnregister(q == 0 ? (void *)plane0 : (void *)plane1));
  for (long s = 0; s < count; ++s) {
    if (aside[s] != NULL && pinned_aside[s])
      AN5D_CHECK(cudaFreeHost(aside[s]));
    else
      free(aside[s]);
  }
  free(aside);
  free(pinned_aside);
  free(view);
  free(made);
  free(budget);
  AN5D_CHECK(cudaSetDevice(home));
  return launches;
}

// Runs `steps` steps from t_first on the host grid `plane0`, `plane1` (as
// for an5d_out_of_core: `planes` planes of `cells` cells, interior planes
// first .. last, reach lo / hi along them, `run` the steps on a part of the
// grid, as an5d_slabs_round calls it) in slabs on every GPU: AN5D_GPUS of
// them, or the default (an5d_default_gpus). Step s reads plane
// an5d_read_plane(s, shift) in the C loop; `box` is the interior of a
// plane. Rounds before the last two end in whichever plane their fewest
// launches leave the data in (AN5D_END_OPEN), the one before the last in
// the C loop's plane, and the last as the C loop leaves both planes.
// When the slabs do not fit their GPUs, every GPU streams its slab through
// its memory instead with AN5D_GPUS set (an5d_slabs_out_of_core, with the
// out-of-core path's degree ooc_bt and its kernels' stream_block); by
// default one GPU does. Returns 0, having done nothing, when that is one
// slab or the default's slabs do not fit (the one-GPU path, in memory or
// out of core, takes over). Sets NCCL_NVLS_ENABLE=0 unless set: NVLink multicast
// can take a host's shared GPUs out of service.
template <typename T, typename Run>
int an5d_slabs(T *plane0, T *plane1, long planes, long cells, long first,
               long last, long lo, long hi, long bt, int shift,
               an5d_plane_box box, long ooc_bt, long stream_block,
               long t_first, long steps, Run run, int checked = 0) {
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
    // By default one GPU streams the grid: on two H200s the slabs out of
    // core ran 1.5x-2.6x slower than one GPU out of core (the halos set
    // aside on the host, the parts' fixed costs per round).
    if (an5d_verbose())
      fprintf(stderr, "an5d: %ld GPUs: the slabs on device %d need %zu "
                      "bytes, more than it gives (%s%zu bytes); %s\n",
              p.count, full, need,
              budget ? "a budget of " : "cudaMalloc refused; ", budget,
              wanted > 0 ? "out of core" : "one GPU, out of core");
    if (wanted <= 0)
      return 0;
    an5d_slabs_out_of_core(plane0, plane1, planes, cells, first, last, lo, hi,
                           ooc_bt, shift, box, stream_block, t_first, steps,
                           gpus, devices, run);
    AN5D_CHECK(cudaSetDevice(home));
    return 1;
  }
  if (an5d_verbose())
    an5d_slabs_say(slab, &p, devices);
  const auto upload = [&]() {
    for (long s = 0; s < p.count; ++s) {
      AN5D_CHECK(cudaSetDevice(slab[s].device));
      for (long q = 0; q < 2; ++q)
        AN5D_CHECK(cudaMemcpy(slab[s].grid + q * slab[s].rows * cells,
                              (q ? plane1 : plane0) +
                                  slab[s].load_first * cells,
                              (size_t)slab[s].rows * cells * sizeof(T),
                              cudaMemcpyHostToDevice));
    }
  };
  upload();
  const char *timing = getenv("AN5D_TIMING");
  cudaEvent_t start = NULL, stop = NULL;
  const long rounds = (steps + p.exchange - 1) / p.exchange;
  if (timing != NULL && atoi(timing) > 0) {
    an5d_slabs_clock_open(slab, p.count, rounds);
    AN5D_CHECK(cudaSetDevice(slab[0].device));
    AN5D_CHECK(cudaEventCreate(&start));
    AN5D_CHECK(cudaEventCreate(&stop));
    AN5D_CHECK(cudaEventRecord(start, 0));
  }
  long launches = 0;
  // Rows from each end of a slab's interior whose stream blocks wait for
  // the halos: a halo, and the rows a launch reads past it (its degree is
  // the exchange period, so as many as a halo again).
  const long guard = 2 * (p.halo_lo > p.halo_hi ? p.halo_lo : p.halo_hi);
  int checking = checked && rounds > 0;
  if (checking)
    an5d_slabs_check_open(slab, p.count);
  while (1) { // once, or with checked kernels until no launch flags
    int swapped = 0, flagged = 0;
    for (long r = 0; r < rounds; ++r) {
      // Checked: stop two rounds after a flag (the host waits for the copy
      // of round r - 2, so two rounds stay queued).
      if (checking && r >= 2 &&
          (flagged = an5d_slabs_check_flagged(slab, p.count, r - 2)))
        break;
      long t, n;
      int end;
      an5d_slab_round_of(r, rounds, t_first, steps, p.exchange, &t, &n, &end);
      if (an5d_verbose() >= 2)
        fprintf(stderr, "an5d: slabs round %ld of %ld: steps %ld .. %ld%s\n",
                r + 1, rounds, t, t + n - 1,
                end == AN5D_END_OPEN && r > 0
                    ? " (the inner stream blocks during the exchange)"
                    : "");
      launches += an5d_slabs_round(slab, p.count, cells, t, n, r, r > 0,
                                   r + 1 < rounds, &swapped, end,
                                   an5d_read_plane(t + n, shift), first, last,
                                   box, guard, run);
      if (end != AN5D_END_OPEN && swapped) {
        fprintf(stderr, "an5d: internal error: slab round %ld ended in the "
                        "other plane\n", r + 1);
        exit(1);
      }
      if (checking)
        an5d_slabs_check_copy(slab, p.count, r);
    }
    // The last round exchanges nothing: each slab's own planes go back.
    for (long s = 0; s < p.count; ++s) {
      AN5D_CHECK(cudaSetDevice(slab[s].device));
      AN5D_CHECK(cudaDeviceSynchronize());
    }
    if (!checking)
      break;
    if (!flagged)
      flagged = an5d_slabs_check_flagged(slab, p.count, rounds - 1);
    an5d_slabs_check_close(slab, p.count);
    checking = 0;
    if (!flagged)
      break;
    if (an5d_verbose())
      fprintf(stderr, "an5d: a slab's launch met a value outside a "
                      "division's fast range: the whole run again, "
                      "exactly\n");
    upload();
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
    an5d_slabs_clock_say(slab, p.count, rounds, rounds - 1, ms);
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
