//===- an5d_runtime.h - The host code every generated file shares ---------===//
//
// The part of a generated program's host code that does not depend on the
// plan: tile ranges, the launch schedule, the streams of a launch, timing,
// AN5D_VERIFY's comparison and the autotuner's cache and trials. an5dc's
// build embeds this text and the emitter writes it once near the top of
// every .cu file, so the output stays one file that plain nvcc builds with
// no include path; only per-plan tables and launches are generated.
//
// Expects the CUDA runtime API (cuda_runtime.h, or the CPU emulation's
// an5d_emu.h) and <stdio.h>, <stdlib.h>, <string.h>, <math.h> included.
// Host sizes are 64-bit throughout: extents, step counts and tile offsets.
// Unit tests: test/Unit/RuntimeTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef AN5D_RUNTIME_H
#define AN5D_RUNTIME_H

#include <stdint.h>
#include <sys/stat.h>

// Every CUDA call is checked; a failure ends the program.
#define AN5D_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t an5d_status = (call);                                          \
    if (an5d_status != cudaSuccess) {                                          \
      fprintf(stderr, "an5d: %s failed: %s\n", #call,                          \
              cudaGetErrorString(an5d_status));                                \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

// --- Sizes ------------------------------------------------------------------

// Kernels index a dimension with int: larger extents are refused before
// any work. AN5D_MAX_GRID_X and AN5D_MAX_GRID_YZ, the target's most blocks
// along a launch's x and along its y and z, come from the generated file
// (an5dc's Target).
#define AN5D_MAX_EXTENT 2147483647L

// Stops the program with a message naming the size that cannot run. Called
// before any result is copied back, so the user's arrays are untouched.
inline void an5d_size_error(const char *what, long value, long limit) {
  fprintf(stderr,
          "an5d: %s is %ld, more than the %ld the generated kernels can "
          "run; the arrays were not changed\n",
          what, value, limit);
  exit(1);
}

// Launches a grid of x * y * z blocks as launch(blocks, y0, z0), in parts of
// at most AN5D_MAX_GRID_YZ blocks along y and z (CUDA refuses a launch with
// more): `blocks` is a part's grid, y0 and z0 the whole grid's indices of its
// first block along y and z, which the kernel adds to blockIdx.y and z.
// Launches nothing when a count is 0; x past AN5D_MAX_GRID_X (`what`) stops
// the program. Returns the number of parts.
template <typename Launch>
long an5d_launch_parts(long x, long y, long z, const char *what,
                       Launch launch) {
  if (x <= 0 || y <= 0 || z <= 0)
    return 0;
  if (x > AN5D_MAX_GRID_X)
    an5d_size_error(what, x, AN5D_MAX_GRID_X);
  long parts = 0;
  for (long z0 = 0; z0 < z; z0 += AN5D_MAX_GRID_YZ)
    for (long y0 = 0; y0 < y; y0 += AN5D_MAX_GRID_YZ, ++parts)
      launch(dim3((unsigned)x,
                  (unsigned)(y - y0 < AN5D_MAX_GRID_YZ ? y - y0
                                                       : AN5D_MAX_GRID_YZ),
                  (unsigned)(z - z0 < AN5D_MAX_GRID_YZ ? z - z0
                                                       : AN5D_MAX_GRID_YZ)),
             (int)y0, (int)z0);
  return parts;
}

// Blocks of `size` covering `count` items (count >= 0, size > 0).
inline long an5d_blocks(long count, long size) {
  return (count + size - 1) / size;
}

// Which stream blocks of a launch run (an5d_steps' `part`), so that a slab
// can run the blocks near its ends, exchange their rows, and run the rest
// meanwhile: all of them; those that store no row within `guard` rows of
// either end of the interior rows (the inner part); or the others. The
// out-of-core window takes the blocks that store no row below `guard` (a
// multiple of the block size): they start at first + guard, and each
// computes its lower rows' levels itself from level 0.
#define AN5D_PART_ALL 0
#define AN5D_PART_INNER 1
#define AN5D_PART_EDGES 2
#define AN5D_PART_FROM 3

// Up to two ranges of stream blocks, [first[i], end[i]).
struct an5d_stream_range {
  long first[2], end[2];
};

// The stream blocks of `part` among `blocks` blocks of `size` rows over
// `rows` rows (block b stores rows b * size .. b * size + size - 1).
inline an5d_stream_range an5d_part_range(long blocks, long size, long rows,
                                         int part, long guard) {
  an5d_stream_range r = {{0, blocks}, {blocks, blocks}};
  if (part == AN5D_PART_ALL)
    return r;
  // Blocks before lo store a row below `guard`; blocks from hi on one at or
  // past rows - guard.
  long lo = an5d_blocks(guard, size);
  long hi = rows - guard > 0 ? (rows - guard) / size : 0;
  if (lo > blocks)
    lo = blocks;
  if (hi < lo)
    hi = lo;
  if (part == AN5D_PART_FROM) {
    r.first[0] = lo;
    return r;
  }
  if (part == AN5D_PART_INNER) {
    r.first[0] = lo, r.end[0] = hi;
    r.first[1] = r.end[1] = hi;
  } else {
    r.first[0] = 0, r.end[0] = lo;
    r.first[1] = hi, r.end[1] = blocks;
  }
  return r;
}

// an5d_launch_parts over the stream blocks of `range` along y (stream_dim
// 1, `other` blocks along z) or z (stream_dim 2, `other` along y): the
// launch's block_y0 or block_z0 includes the range's first block.
template <typename Launch>
long an5d_launch_stream_parts(long x, long other, int stream_dim,
                              const an5d_stream_range *range,
                              const char *what, Launch launch) {
  long parts = 0;
  for (int i = 0; i < 2; ++i) {
    const long first = range->first[i], count = range->end[i] - first;
    parts += an5d_launch_parts(
        x, stream_dim == 1 ? count : other, stream_dim == 1 ? other : count,
        what, [&](dim3 blocks, int y0, int z0) {
          launch(blocks, y0 + (stream_dim == 1 ? (int)first : 0),
                 z0 + (stream_dim == 2 ? (int)first : 0));
        });
  }
  return parts;
}

// The part an5d_steps' launches take when it is asked for `part` and makes
// `launches` launches: one launch splits into parts exactly; of several,
// the edges' part takes them all (AN5D_PART_ALL) and the inner part none
// (-1: no launch).
inline int an5d_launch_part(long launches, int part) {
  if (launches == 1 || part == AN5D_PART_ALL)
    return part;
  return part == AN5D_PART_EDGES ? AN5D_PART_ALL : -1;
}

// The device row pitch of rows of `extent` cells of `elem` bytes: whole
// 128-byte lines (aligned rows), the extent itself when that would not fit
// the kernels' int indices.
inline long an5d_row_pitch(long extent, size_t elem) {
  const long line = (long)(128 / elem);
  const long pitch = (extent + line - 1) / line * line;
  return pitch <= AN5D_MAX_EXTENT ? pitch : extent;
}

// The cells a device row holds before its cell 0 so that cell `first` (the
// interior's first along the rows) starts a vector of `lanes` cells: the
// vector-cell kernels' tiles then begin at the interior, and an interior of a
// multiple of the tile takes no extra column of tiles. 0 where the longer row
// would not fit the kernels' int indices.
inline long an5d_row_lead(long first, long extent, long lanes) {
  const long lead = (lanes - first % lanes) % lanes;
  return extent + lead <= AN5D_MAX_EXTENT ? lead : 0;
}

// --- Tile ranges ------------------------------------------------------------

// The last column that tiles of `tile` columns from `start` take of the
// columns up to `last`: all, or, when 1 .. `max_rest` are left past the
// whole tiles, the last whole tile's (the rest is a strip for a kernel of
// its own instead of a tile shifted back over the one before).
inline long an5d_tiles_last(long start, long last, long tile, long max_rest) {
  const long whole = (last + 1 - start) / tile * tile;
  const long rest = last + 1 - start - whole;
  return whole > 0 && rest > 0 && rest <= max_rest ? start + whole - 1 : last;
}

// One dimension of a launch's tiles: count in all, and lo .. hi - 1 those
// whose columns, halo included, are all interior (the interior tiles'
// kernel's); the others are the edge tiles' kernel's.
struct an5d_tile_span {
  long lo, hi, count;
};

// `cols` interior columns (>= 1) in tiles of `width`, each of whose blocks
// reads from `halo` columns before its tile to `loaded` columns in all. A
// tile is interior when all of them are interior, except at most `ring_lo`
// boundary columns before the interior and `ring_hi` after it, which it
// reads at level 0 only.
inline an5d_tile_span an5d_tile_range(long cols, long width, long halo,
                                      long loaded, long ring_lo, long ring_hi) {
  an5d_tile_span s;
  s.count = an5d_blocks(cols, width);
  // Tile b is interior when b * width - halo >= -ring_lo and
  // b * width - halo + loaded <= cols + ring_hi.
  const long first = an5d_blocks(halo - ring_lo, width);
  const long room = cols + ring_hi + halo - loaded;
  const long end = room < 0 ? 0 : room / width + 1;
  s.lo = first < s.count ? (first < 0 ? 0 : first) : s.count;
  s.hi = end < s.count ? end : s.count;
  if (s.hi < s.lo)
    s.hi = s.lo;
  // A partial last tile moves back to start at cols - width (the interior
  // tiles' kernel starts its tiles at min(b * width, cols - width)) when that
  // makes it interior and the tile before it is interior too: both blocks
  // then store the same values, computed by the same code, into the columns
  // they share.
  const long full = cols - width;
  if (s.hi == s.count - 1 && s.lo <= s.count - 2 && full >= halo - ring_lo &&
      full <= room)
    s.hi = s.count;
  return s;
}

// The int fields of a generated file's an5d_tiles (kernels index with int;
// the extents' check keeps tile counts below 2^31).
inline void an5d_tile_fields(an5d_tile_span s, int *lo, int *hi, int *count) {
  *lo = (int)s.lo;
  *hi = (int)s.hi;
  *count = (int)s.count;
}

// --- Launch schedule --------------------------------------------------------

// The degrees of the N.5D launches of `steps` >= 1 time steps at degree bt:
// `full` launches of bt, then tail[0 .. tail_count - 1].
struct an5d_schedule {
  long full;
  int tail[4];
  int tail_count;
};

// (steps - 1) / bt launches of degree bt, one of the remainder, then one of
// degree 1, so the other plane ends holding step t_last - 1. The data moves
// to the other plane at every launch, so the launch count must have the
// parity of the step count: if it does not, the last launch of degree >= 2
// is split into (d - 1, 1).
inline an5d_schedule an5d_launch_schedule(long steps, int bt) {
  an5d_schedule s;
  const long rest = steps - 1;
  s.full = rest / bt;
  s.tail_count = 0;
  const int part = (int)(rest % bt);
  const long launches = s.full + (part != 0) + 1;
  const int split = (launches % 2) != (steps % 2);
  if (split && part < 2) {
    --s.full;
    s.tail[s.tail_count++] = bt - 1;
    s.tail[s.tail_count++] = 1;
  }
  if (part != 0) {
    if (split && part >= 2) {
      s.tail[s.tail_count++] = part - 1;
      s.tail[s.tail_count++] = 1;
    } else {
      s.tail[s.tail_count++] = part;
    }
  }
  s.tail[s.tail_count++] = 1;
  return s;
}

// Three time levels (each level in a plane of its own, nothing to keep in
// parity): launches of degree bt, then the remainder, the last launch of at
// most 2 steps: a launch stores its last two levels, so the level before
// those (the C loop leaves three) is then the previous launch's last.
inline an5d_schedule an5d_level_schedule(long steps, int bt) {
  an5d_schedule s;
  s.full = steps / bt;
  s.tail_count = 0;
  int part = (int)(steps % bt);
  if (part == 0 && bt > 2 && s.full > 0) {
    --s.full;
    part = bt;
  }
  if (part > 2)
    s.tail[s.tail_count++] = part - 2;
  if (part != 0)
    s.tail[s.tail_count++] = part > 2 ? 2 : part;
  return s;
}

// How a run of steps on a part of the grid may leave the planes, when the
// next steps go on from them on the device (an5d_steps' `end`):
#define AN5D_END_AS_C 0      // both planes as the C loop leaves them
#define AN5D_END_OPEN 1      // the last step in either plane (*swapped says
                             // which); the other plane's interior undefined
#define AN5D_END_UNSWAPPED 2 // the last step in the plane the C loop leaves
                             // it in; the other plane's interior undefined

// The launches of `steps` >= 1 steps at degree bt from data in the plane
// the C loop reads it from (swapped 0) or in the other one (1), ending as
// `end` asks. AN5D_END_AS_C is an5d_launch_schedule (swapped must be 0).
// The others take the fewest launches: steps / bt of bt and one of the
// remainder; AN5D_END_UNSWAPPED then splits one launch (d - 1, 1) when the
// data would end in the other plane. It ends swapped when launches + steps
// + swapped is odd; with every launch of degree 1 (bt 1) it cannot split,
// and it need not: such runs never swap.
inline an5d_schedule an5d_end_schedule(long steps, int bt, int swapped,
                                       int end) {
  if (end == AN5D_END_AS_C)
    return an5d_launch_schedule(steps, bt);
  an5d_schedule s = {steps / bt, {0, 0, 0, 0}, 0};
  const int part = (int)(steps % bt);
  const long launches = s.full + (part != 0);
  if (end == AN5D_END_UNSWAPPED && (launches + steps + swapped) % 2 != 0) {
    if (part >= 2) {
      s.tail[s.tail_count++] = part - 1;
      s.tail[s.tail_count++] = 1;
      return s;
    }
    if (s.full > 0 && bt >= 2) {
      --s.full;
      s.tail[s.tail_count++] = bt - 1;
      s.tail[s.tail_count++] = 1;
    }
  }
  if (part != 0)
    s.tail[s.tail_count++] = part;
  return s;
}

// The vector-cell kernels' schedule: launches of degree bt while more than 2
// steps remain, then one step per launch (at least 2 when steps >= 2), so
// the plane not written last holds step t_last - 1. Returns the launches of
// degree bt; the rest, steps - full * bt, are single steps.
inline long an5d_vector_full_launches(long steps, int bt) {
  return bt > 1 && steps > 2 ? (steps - 2) / bt : 0;
}

// The plane step `step` reads: (step + w - 1) mod 2, where the C loop
// writes plane (t + w) % 2.
inline int an5d_read_plane(long step, long w) {
  return (int)(((step + w - 1) % 2 + 2) % 2);
}

// --- Streams ----------------------------------------------------------------

// An N.5D launch's second stream, for the edge tiles' kernels, and the
// events that order it with stream 0.
struct an5d_streams {
  cudaStream_t edge;
  cudaEvent_t ready;     // stream 0's earlier launches are done
  cudaEvent_t edge_done; // the edge tiles' kernel is done
};

inline void an5d_streams_create(an5d_streams *s) {
  AN5D_CHECK(cudaStreamCreateWithFlags(&s->edge, cudaStreamNonBlocking));
  AN5D_CHECK(cudaEventCreateWithFlags(&s->ready, cudaEventDisableTiming));
  AN5D_CHECK(cudaEventCreateWithFlags(&s->edge_done, cudaEventDisableTiming));
}

// Released once the launches that use them are done.
inline void an5d_streams_destroy(an5d_streams *s) {
  AN5D_CHECK(cudaEventDestroy(s->edge_done));
  AN5D_CHECK(cudaEventDestroy(s->ready));
  AN5D_CHECK(cudaStreamDestroy(s->edge));
}

// Before the launches of one degree: the edge stream waits for stream 0's
// earlier work (when there are edge tiles).
inline void an5d_edge_begin(const an5d_streams *s, long edge) {
  if (edge > 0) {
    AN5D_CHECK(cudaEventRecord(s->ready, 0));
    AN5D_CHECK(cudaStreamWaitEvent(s->edge, s->ready, 0));
  }
}

// After them: stream 0 waits for the edge tiles' kernel.
inline void an5d_edge_end(const an5d_streams *s, long edge) {
  AN5D_CHECK(cudaGetLastError());
  if (edge > 0) {
    AN5D_CHECK(cudaEventRecord(s->edge_done, s->edge));
    AN5D_CHECK(cudaStreamWaitEvent(0, s->edge_done, 0));
  }
}

// --- Running and timing -----------------------------------------------------

// Runs `run()` (all time steps on the device planes `grid` of `bytes`,
// returning the launches it made) once. AN5D_TIMING=1 in the environment
// prints the kernels' time (CUDA events around the launches); AN5D_TIMING=R
// with R > 1 runs all steps R + 1 times from the same initial planes (a
// device copy), the first as a warm-up, and prints the mean of the other R.
template <typename Run>
long an5d_timed_run(void *grid, size_t bytes, long steps, Run run) {
  const char *timing = getenv("AN5D_TIMING");
  const int repeats = timing != NULL && atoi(timing) > 0 ? atoi(timing) : 0;
  const int runs = repeats > 1 ? repeats + 1 : 1;
  void *initial = NULL;
  if (runs > 1) {
    AN5D_CHECK(cudaMalloc(&initial, bytes));
    AN5D_CHECK(cudaMemcpy(initial, grid, bytes, cudaMemcpyDeviceToDevice));
  }
  cudaEvent_t start = NULL, stop = NULL;
  if (repeats > 0) {
    AN5D_CHECK(cudaEventCreate(&start));
    AN5D_CHECK(cudaEventCreate(&stop));
  }
  double total_ms = 0.0;
  long launches = 0;
  for (int r = 0; r < runs; ++r) {
    if (r > 0)
      AN5D_CHECK(cudaMemcpy(grid, initial, bytes, cudaMemcpyDeviceToDevice));
    if (repeats > 0)
      AN5D_CHECK(cudaEventRecord(start, 0));
    launches = run();
    if (repeats > 0) {
      float ms = 0.0f;
      AN5D_CHECK(cudaEventRecord(stop, 0));
      AN5D_CHECK(cudaEventSynchronize(stop));
      AN5D_CHECK(cudaEventElapsedTime(&ms, start, stop));
      if (r > 0 || runs == 1)
        total_ms += ms;
    }
  }
  if (repeats > 0) {
    fprintf(stderr, "an5d timing: %.3f ms kernels, %ld steps in %ld launches",
            total_ms / (runs > 1 ? repeats : 1), steps, launches);
    fprintf(stderr, runs > 1 ? " (mean of %d runs after a warm-up)\n" : "\n",
            repeats);
    AN5D_CHECK(cudaEventDestroy(start));
    AN5D_CHECK(cudaEventDestroy(stop));
  }
  if (initial != NULL)
    AN5D_CHECK(cudaFree(initial));
  return launches;
}

// --- Fields of different extents ---------------------------------------------

// Copies one plane of a field between host and device when the device
// plane has extents `grid` (the largest of the fields' along each
// dimension) and the field its own `own` (each at most grid's): row by row
// into the device's longer rows, or in one copy where they agree. `dims`
// is 1, 2 or 3; the other cells of the device plane are left alone.
inline void an5d_copy_box(void *dst, const void *src, const long *grid,
                          const long *own, int dims, size_t elem,
                          cudaMemcpyKind kind) {
  const int to_device = kind == cudaMemcpyHostToDevice;
  size_t cells = 1;
  int same = 1;
  for (int d = 0; d < dims; ++d) {
    if (own[d] <= 0)
      return;
    cells *= (size_t)own[d];
    same = same && (own[d] == grid[d] || (d == 0 && own[d] <= grid[d]));
  }
  if (same) {
    AN5D_CHECK(cudaMemcpy(dst, src, cells * elem, kind));
    return;
  }
  // The device plane is pitched by grid's extents, the host one by own's.
  const size_t row = (size_t)own[dims - 1] * elem;
  const size_t grid_row = (size_t)grid[dims - 1] * elem;
  const long rows = dims == 1 ? 1 : own[dims - 2];
  const long slices = dims == 3 ? own[0] : 1;
  const size_t grid_slice = dims == 3 ? (size_t)grid[1] * grid_row : 0;
  const size_t own_slice = dims == 3 ? (size_t)own[1] * row : 0;
  for (long s = 0; s < slices; ++s) {
    char *d = (char *)dst + s * (to_device ? grid_slice : own_slice);
    const char *c = (const char *)src + s * (to_device ? own_slice : grid_slice);
    AN5D_CHECK(cudaMemcpy2D(d, to_device ? grid_row : row, c,
                            to_device ? row : grid_row, row, (size_t)rows,
                            kind));
  }
}

// --- Coefficient arrays -----------------------------------------------------

// The rows of a coefficient array the interior cells read: the larger of
// two subscripts' last rows.
inline long an5d_max_rows(long a, long b) { return a > b ? a : b; }

// A read-only device copy of a host array the update reads (a coefficient
// array), freed with its owner. Managed memory, marked read-mostly: every
// GPU of a slab run reads it (each gets its own copy of the pages it
// reads), and out of core it pages instead of failing. Prefetched to the
// current GPU; the advice and prefetch are hints (ignored where refused).
struct an5d_coef_copy {
  void *device;
  an5d_coef_copy(const void *host, size_t bytes) : device(NULL) {
    if (bytes == 0)
      return;
    AN5D_CHECK(cudaMallocManaged(&device, bytes));
    AN5D_CHECK(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice));
    int gpu = 0;
    AN5D_CHECK(cudaGetDevice(&gpu));
#if defined(CUDART_VERSION) && CUDART_VERSION >= 13000
    cudaMemLocation here;
    here.type = cudaMemLocationTypeDevice;
    here.id = gpu;
    (void)cudaMemAdvise(device, bytes, cudaMemAdviseSetReadMostly, here);
    (void)cudaMemPrefetchAsync(device, bytes, here, 0, 0);
#else
    (void)cudaMemAdvise(device, bytes, cudaMemAdviseSetReadMostly, gpu);
    (void)cudaMemPrefetchAsync(device, bytes, gpu, 0);
#endif
    (void)cudaGetLastError(); // a refused hint is not an error
  }
  ~an5d_coef_copy() {
    if (device)
      cudaFree(device);
  }
  an5d_coef_copy(const an5d_coef_copy &) = delete;
  an5d_coef_copy &operator=(const an5d_coef_copy &) = delete;
};

// --- Checked launches -------------------------------------------------------

// Runs `launches` launches through run(from, unproved): run makes launches
// from .. launches - 1 (the ones before only advance its plane and step)
// and passes `unproved` to each. With check, the kernels run in their fast
// form and record in *unproved the first launch where a division met a
// value outside its proved range; the launches after it leave the planes
// alone, so that launch and the rest run again with the exact kernels
// (unproved NULL). Returns the launches made. check 2 (AN5D_CHECK_PART):
// the fast kernels report into the word an5d_part_unproved() names, and
// whoever set it redoes the run (a slab's launches: the host does not wait
// between them); with no word, the exact kernels.
#define AN5D_CHECK_PART 2

// The device word a part's checked launches report into; NULL: its
// launches divide exactly. Set around a part's launches (an5d_slabs).
inline unsigned long long *&an5d_part_unproved() {
  static thread_local unsigned long long *word = NULL;
  return word;
}

// The `check` of a part's an5d_steps: its fast kernels when a word is set.
inline int an5d_part_check() {
  return an5d_part_unproved() != NULL ? AN5D_CHECK_PART : 0;
}

template <typename Run>
long an5d_checked_launches(int check, long launches, Run run) {
  if (check == AN5D_CHECK_PART) {
    run(0L, an5d_part_unproved());
    return launches;
  }
  if (!check || launches <= 0) {
    run(0L, (unsigned long long *)NULL);
    return launches;
  }
  unsigned long long *unproved = NULL;
  AN5D_CHECK(cudaMalloc((void **)&unproved, sizeof *unproved));
  AN5D_CHECK(cudaMemset(unproved, 0xFF, sizeof *unproved)); // none yet
  run(0L, unproved);
  unsigned long long first = 0;
  AN5D_CHECK(cudaMemcpy(&first, unproved, sizeof first,
                        cudaMemcpyDeviceToHost));
  AN5D_CHECK(cudaFree(unproved));
  if (first >= (unsigned long long)launches)
    return launches;
  const char *verbose = getenv("AN5D_VERBOSE");
  if (verbose != NULL && atoi(verbose) > 0)
    fprintf(stderr,
            "an5d: launch %llu of %ld met a value outside a division's fast "
            "range: it and the %ld after it run again, exactly\n",
            first, launches, launches - 1 - (long)first);
  run((long)first, (unsigned long long *)NULL);
  return launches + (launches - (long)first);
}

// A host copy of `cells` cells (a copy-back's second plane; AN5D_VERIFY's
// reference); exits when memory runs out.
template <typename T> T *an5d_host_copy(const T *data, size_t cells) {
  T *copy = (T *)malloc(cells * sizeof(T));
  if (copy == NULL) {
    fprintf(stderr, "an5d: cannot allocate %zu bytes on the host\n",
            cells * sizeof(T));
    exit(1);
  }
  memcpy(copy, data, cells * sizeof(T));
  return copy;
}

// --- AN5D_VERIFY ------------------------------------------------------------

// A copy of both planes for the CPU reference run.
template <typename T> T *an5d_verify_copy(const T *data, size_t cells) {
  return an5d_host_copy(data, cells);
}

// The largest error of `result` against `reference` over `cells` cells,
// absolute and relative to max(|reference|, 1); a NaN counts as infinite.
struct an5d_errors {
  double max_abs, max_rel;
};

template <typename T>
an5d_errors an5d_compare(const T *reference, const T *result, size_t cells) {
  an5d_errors e = {0.0, 0.0};
  for (size_t cell = 0; cell < cells; ++cell) {
    const double ref = reference[cell], got = result[cell];
    double err = fabs(got - ref);
    if (err != err)
      err = HUGE_VAL;
    const double rel = err / (fabs(ref) > 1.0 ? fabs(ref) : 1.0);
    e.max_abs = err > e.max_abs ? err : e.max_abs;
    e.max_rel = rel > e.max_rel ? rel : e.max_rel;
  }
  return e;
}

// Compares every cell of both planes with the CPU reference (and frees it);
// exits beyond the tolerance (relative to max(|reference|, 1)).
template <typename T>
void an5d_verify_compare(T *reference, const T *result, size_t cells,
                         double tolerance) {
  const an5d_errors e = an5d_compare(reference, result, cells);
  fprintf(stderr,
          "an5d verify: max abs error %g, max rel error %g (tolerance %g)\n",
          e.max_abs, e.max_rel, tolerance);
  free(reference);
  if (!(e.max_rel <= tolerance))
    exit(1);
}

// --- AN5D_VERIFY_SAMPLE -----------------------------------------------------

// A check of some planes along the streaming dimension, for grids whose
// full CPU copy does not fit the host: before the run, a band of planes
// around each sample (its dependence cone: (steps + 1) x the reach on each
// side) is copied and the original update runs on it on the CPU; after the
// run, the sample planes of both time planes are compared.
#define AN5D_MAX_SAMPLES 16
template <typename T> struct an5d_sample_set {
  int count;
  long planes, cells;                    // of the grid: planes of cells each
  long at[AN5D_MAX_SAMPLES];             // the sample planes
  long lo[AN5D_MAX_SAMPLES], rows[AN5D_MAX_SAMPLES]; // each band
  T *band[AN5D_MAX_SAMPLES];             // both time planes of the band
};

// Picks `count` planes evenly from first to last (at most
// AN5D_MAX_SAMPLES) and copies their bands from `grid` (both time planes,
// `planes` planes of `cells` cells each).
template <typename T>
void an5d_sample_begin(an5d_sample_set<T> *s, const T *grid, long planes,
                       long cells, long first, long last, long halo_lo,
                       long halo_hi, int count) {
  if (count < 1)
    count = 1;
  if (count > AN5D_MAX_SAMPLES)
    count = AN5D_MAX_SAMPLES;
  if (last < first)
    count = 0;
  s->count = count;
  s->planes = planes;
  s->cells = cells;
  for (int k = 0; k < count; ++k) {
    const long p = count == 1 ? first : first + (last - first) * k / (count - 1);
    const long lo = p - halo_lo > 0 ? p - halo_lo : 0;
    const long hi = p + halo_hi < planes - 1 ? p + halo_hi : planes - 1;
    s->at[k] = p;
    s->lo[k] = lo;
    s->rows[k] = hi - lo + 1;
    s->band[k] = (T *)malloc(sizeof(T) * 2 * s->rows[k] * cells);
    if (s->band[k] == NULL) {
      fprintf(stderr, "an5d verify: cannot allocate a sample's band of %ld planes\n",
              s->rows[k]);
      exit(1);
    }
    for (int q = 0; q < 2; ++q)
      memcpy(s->band[k] + q * s->rows[k] * cells, grid + (q * planes + lo) * cells,
             sizeof(T) * s->rows[k] * cells);
  }
}

// Sample k's band as the grid's planes: the address plane 0 of the band
// would have (the band holds planes lo .. lo + rows - 1).
template <typename T> T *an5d_sample_origin(an5d_sample_set<T> *s, int k) {
  return (T *)((uintptr_t)s->band[k] - (uintptr_t)(s->lo[k] * s->cells * sizeof(T)));
}

// Compares each sample plane of both time planes with the GPU's `grid`;
// frees the bands; exits beyond the tolerance.
template <typename T>
void an5d_sample_compare(an5d_sample_set<T> *s, const T *grid, double tolerance) {
  an5d_errors worst = {0.0, 0.0};
  for (int k = 0; k < s->count; ++k) {
    for (int q = 0; q < 2; ++q) {
      const T *ref = s->band[k] + (q * s->rows[k] + s->at[k] - s->lo[k]) * s->cells;
      const T *got = grid + (q * s->planes + s->at[k]) * s->cells;
      const an5d_errors e = an5d_compare(ref, got, (size_t)s->cells);
      worst.max_abs = e.max_abs > worst.max_abs ? e.max_abs : worst.max_abs;
      worst.max_rel = e.max_rel > worst.max_rel ? e.max_rel : worst.max_rel;
    }
    free(s->band[k]);
  }
  fprintf(stderr, "an5d verify: %d sample planes (", s->count);
  for (int k = 0; k < s->count; ++k)
    fprintf(stderr, k ? " %ld" : "%ld", s->at[k]);
  fprintf(stderr, "), both time planes: max abs error %g, max rel error %g (tolerance %g)\n",
          worst.max_abs, worst.max_rel, tolerance);
  if (!(worst.max_rel <= tolerance))
    exit(1);
}

// --- Autotuning -------------------------------------------------------------

// The cache file: AN5D_TUNE_CACHE, else $XDG_CACHE_HOME/an5d/autotune.txt,
// else $HOME/.cache/an5d/autotune.txt; the directories are made when
// writing (make_dirs). Returns 0 when there is no such path.
inline int an5d_cache_path(char *path, size_t size, int make_dirs) {
  const char *given = getenv("AN5D_TUNE_CACHE");
  if (given != NULL && given[0] != '\0')
    return snprintf(path, size, "%s", given) < (int)size;
  const char *xdg = getenv("XDG_CACHE_HOME");
  const char *home = getenv("HOME");
  char dir[4096];
  if (xdg != NULL && xdg[0] != '\0') {
    if (snprintf(dir, sizeof dir, "%s", xdg) >= (int)sizeof dir)
      return 0;
  } else if (home != NULL && home[0] != '\0') {
    if (snprintf(dir, sizeof dir, "%s/.cache", home) >= (int)sizeof dir)
      return 0;
  } else {
    return 0;
  }
  if (make_dirs)
    mkdir(dir, 0755);
  const int n = snprintf(path, size, "%s/an5d", dir);
  if (n < 0 || n >= (int)size)
    return 0;
  if (make_dirs)
    mkdir(path, 0755);
  return snprintf(path + n, size - n, "/autotune.txt") < (int)(size - n);
}

// The candidate the cache file at `path` holds for `key` (its last line for
// the key) among labels[0 .. count - 1], or -1.
inline int an5d_cache_lookup(const char *path, const char *key,
                             const char *const *labels, int count) {
  FILE *f = fopen(path, "r");
  if (f == NULL)
    return -1;
  int found = -1;
  char line[2048];
  const size_t key_length = strlen(key);
  while (fgets(line, sizeof line, f) != NULL) {
    line[strcspn(line, "\n")] = '\0';
    if (strncmp(line, key, key_length) != 0 ||
        strncmp(line + key_length, " => ", 4) != 0)
      continue;
    for (int c = 0; c < count; ++c)
      if (strcmp(line + key_length + 4, labels[c]) == 0)
        found = c;
  }
  fclose(f);
  return found;
}

// Appends "key => label" to the cache file at `path`; 0 if it cannot.
inline int an5d_cache_store(const char *path, const char *key,
                            const char *label) {
  FILE *f = fopen(path, "a");
  if (f == NULL)
    return 0;
  fprintf(f, "%s => %s\n", key, label);
  return fclose(f) == 0;
}

// The cache key of a run: the stencil ("function@file precision"), the
// extents as AxBxC, the GPU's name (blanks as '_') and the candidate list.
inline void an5d_tune_key(char *key, size_t size, const char *stencil,
                          const long *ext, int dims, const char *gpu,
                          const char *signature) {
  int n = snprintf(key, size, "%s ", stencil);
  for (int d = 0; d < dims && n > 0 && (size_t)n < size; ++d)
    n += snprintf(key + n, size - n, d ? "x%ld" : "%ld", ext[d]);
  if (n > 0 && (size_t)n < size)
    n += snprintf(key + n, size - n, " ");
  for (const char *c = gpu; *c != '\0' && n > 0 && (size_t)n + 1 < size; ++c)
    key[n++] = *c == ' ' ? '_' : *c;
  if (n > 0 && (size_t)n < size)
    snprintf(key + n, size - n, " %s", signature);
}

// The fastest of `count` candidates (labels[c]) for this GPU and grid:
// cached per process and in the cache file, else timed. trial(c, scratch,
// trial_steps) runs candidate c on a scratch copy of the planes `grid`
// (`bytes`; the user's data stays untouched): a warm-up, then the mean of
// two runs, each from the same planes. AN5D_VERBOSE=1 prints what was
// timed and chosen.
template <typename Trial>
int an5d_choose(const char *stencil, const long *ext, int dims,
                const char *signature, const char *const *labels, int count,
                void *grid, size_t bytes, long trial_steps, Trial trial) {
  static char chosen_key[1024];
  static int chosen = -1;
  const char *verbose_env = getenv("AN5D_VERBOSE");
  const int verbose = verbose_env != NULL && atoi(verbose_env) > 0;
  int device = 0;
  cudaDeviceProp prop;
  AN5D_CHECK(cudaGetDevice(&device));
  AN5D_CHECK(cudaGetDeviceProperties(&prop, device));
  char key[1024];
  an5d_tune_key(key, sizeof key, stencil, ext, dims, prop.name, signature);
  if (chosen >= 0 && strcmp(key, chosen_key) == 0)
    return chosen;
  char path[4096];
  int choice = an5d_cache_path(path, sizeof path, 0)
                   ? an5d_cache_lookup(path, key, labels, count)
                   : -1;
  if (choice >= 0) {
    if (verbose)
      fprintf(stderr, "an5d autotune: %s: cached in %s: %s\n", key, path,
              labels[choice]);
  } else {
    void *scratch = NULL;
    AN5D_CHECK(cudaMalloc(&scratch, bytes));
    cudaEvent_t start, stop;
    AN5D_CHECK(cudaEventCreate(&start));
    AN5D_CHECK(cudaEventCreate(&stop));
    double best = 0.0;
    for (int c = 0; c < count; ++c) {
      double total = 0.0;
      for (int r = 0; r < 3; ++r) {
        float ms = 0.0f;
        AN5D_CHECK(cudaMemcpy(scratch, grid, bytes, cudaMemcpyDeviceToDevice));
        AN5D_CHECK(cudaEventRecord(start, 0));
        trial(c, scratch, trial_steps);
        AN5D_CHECK(cudaEventRecord(stop, 0));
        AN5D_CHECK(cudaEventSynchronize(stop));
        AN5D_CHECK(cudaEventElapsedTime(&ms, start, stop));
        if (r > 0) // the first run is a warm-up
          total += ms / 2.0;
      }
      if (verbose)
        fprintf(stderr,
                "an5d autotune: %s: candidate %d (%s): %.3f ms for %ld steps\n",
                key, c, labels[c], total, trial_steps);
      if (choice < 0 || total < best) {
        best = total;
        choice = c;
      }
    }
    AN5D_CHECK(cudaEventDestroy(start));
    AN5D_CHECK(cudaEventDestroy(stop));
    AN5D_CHECK(cudaFree(scratch));
    if (!(an5d_cache_path(path, sizeof path, 1) &&
          an5d_cache_store(path, key, labels[choice])) &&
        verbose)
      fprintf(stderr, "an5d autotune: cannot write the cache file %s\n", path);
    if (verbose)
      fprintf(stderr, "an5d autotune: %s: chose candidate %d (%s)\n", key,
              choice, labels[choice]);
  }
  snprintf(chosen_key, sizeof chosen_key, "%s", key);
  chosen = choice;
  return choice;
}

#endif // AN5D_RUNTIME_H
