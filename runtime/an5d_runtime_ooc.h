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

// The interior of one plane along the streaming dimension, seen as rows of
// `width` cells: rows row_first .. row_first + rows - 1, columns
// col_first .. col_first + cols - 1 (a 2D grid's plane is one row).
struct an5d_plane_box {
  long width, row_first, rows, col_first, cols;
};

// --- The out-of-core window --------------------------------------------------
//
// The host grid streams through a device window of `window` planes (both
// time planes) along the streaming dimension, in passes of up to TBT steps.
// In a pass the window slides over the grid one chunk of `depth` planes at a
// time: the chunk is copied in while the previous one computes, then every
// launch of the pass (launch j takes level j - 1 to level j, degree d_j)
// advances over the planes whose level j - 1 is final, a skew of
// d_j * max(lo, hi) + d_j * hi planes behind launch j - 1, and the planes
// whose last level is final go back to the host. No plane is computed twice
// at a level, so a pass costs the device what its steps cost in memory, and
// moves the grid in and out once.
//
// Two planes suffice: launch j reads the plane launch j - 1 wrote and writes
// the one launch j - 1 read. Its stores end d_{j-1} * lo planes below what
// launch j - 1 has made final, the lowest plane launch j - 1 still reads; its
// top d_j * hi planes are not final (past its last plane it reads what is
// there, not level j - 1) and the next chunk redoes them. At the bottom,
// launch j starts exactly at its first plane not yet final: its interior
// begins a whole number of stream blocks below (the guard, at least d_j * lo
// planes, which it never stores: AN5D_PART_FROM), so the first block it runs
// computes its lower planes' levels from level 0 like any stream block.
// Until a launch is that far from the grid's first interior plane it starts
// there (redoing its planes), and the launch after it waits.

// The grid a pass walks over: `planes` planes along the streaming dimension,
// interior planes first .. last, the stencil reaching lo planes back and hi
// ahead, the kernels' stream blocks `stream_block` planes deep (0: kernels
// without stream blocks, which run launches of degree 1 only).
struct an5d_ooc_geometry {
  long planes, first, last, lo, hi, stream_block;
};

// One launch of a pass: `degree` steps from step t.
struct an5d_ooc_launch {
  long t;
  int degree;
};

#define AN5D_OOC_MAX_LAUNCHES 1024

// The planes launch j's first stream block leaves below it (AN5D_PART_FROM's
// guard): whole stream blocks holding at least degree * lo planes.
inline long an5d_ooc_guard(const an5d_ooc_geometry *g, int degree) {
  const long need = degree * g->lo, sb = g->stream_block;
  return sb > 0 ? (need + sb - 1) / sb * sb : 0;
}

// Walks one pass of `count` launches over the grid in chunks of `depth`
// planes through a window of `window` planes. `ops` does the work, in this
// order per chunk: relocate(from, end, old_base, new_base) moves planes
// [from, end) to the window's bottom when the next chunk would not fit;
// wait_loaded() makes the launches wait for the planes loaded so far;
// load(from, to, base) sends planes [from, to) (window plane = grid plane -
// base); run_launch(j, first, last, part, guard, base) runs launch j on
// window planes first .. last (grid plane base in window plane 0); store(from, to, base) returns planes from .. to, final at
// the pass's last level. Returns 0 (when the window cannot hold what a
// chunk needs) or 1.
template <typename Ops>
int an5d_ooc_walk(const an5d_ooc_geometry *g, const an5d_ooc_launch *launch,
                  int count, long depth, long window, Ops &ops) {
  long valid[AN5D_OOC_MAX_LAUNCHES + 1]; // the last plane final at level j
  long guard[AN5D_OOC_MAX_LAUNCHES + 1];
  if (count < 1 || count > AN5D_OOC_MAX_LAUNCHES || depth < 1)
    return 0;
  for (int j = 1; j <= count; ++j) {
    valid[j] = g->first - 1;
    guard[j] = an5d_ooc_guard(g, launch[j - 1].degree);
  }
  // Launch j starts a whole guard above the first interior plane: its first
  // block's warm-up stays in the interior.
  const auto settled = [&](int j) {
    return valid[j] + 1 - guard[j] >= g->first;
  };
  long base = 0, end = 0, stored = g->first - 1;
  while (1) { // chunk by chunk
    const long next = end + depth < g->planes ? end + depth : g->planes;
    if (next - base > window) {
      // The lowest plane a launch still reads: settled launches read from
      // degree * lo below their next plane, the others from the bottom.
      long low = end;
      for (int j = 1; j <= count; ++j) {
        const long from = settled(j)
                              ? valid[j] + 1 - launch[j - 1].degree * g->lo
                              : 0;
        if (from < low)
          low = from;
      }
      if (low > base) {
        ops.relocate(low, end, base, low);
        base = low;
      }
      if (next - base > window)
        return 0;
    }
    ops.wait_loaded();
    if (next > end)
      ops.load(end, next, base);
    const int all = end == g->planes;
    for (int j = 1; j <= count && end > 0; ++j) {
      const long d = launch[j - 1].degree;
      long top = g->last, now = g->last;
      if (!all) {
        // Below the plane launch j - 1 (or the load) made final: reads up
        // to d * hi above it, stores below what launch j - 1 still reads.
        const long below = j == 1 ? end - 1 : valid[j - 1];
        long keep = d * g->hi;
        if (j > 1 && launch[j - 2].degree * g->lo > keep)
          keep = launch[j - 2].degree * g->lo;
        top = below - keep;
        if (top > g->last)
          top = g->last;
        now = top - d * g->hi;
      }
      if (now <= valid[j] || (!all && j > 1 && !settled(j - 1)))
        continue;
      long first = valid[j] + 1 - guard[j];
      int part = guard[j] > 0 ? AN5D_PART_FROM : AN5D_PART_ALL;
      if (first < g->first) { // from the first interior plane
        first = g->first;
        part = AN5D_PART_ALL;
      }
      ops.run_launch(j - 1, first - base, top - base, part,
                     part == AN5D_PART_FROM ? guard[j] : 0L, base);
      valid[j] = now;
    }
    if (valid[count] > stored) {
      ops.store(stored + 1, valid[count], base);
      stored = valid[count];
    }
    if (all)
      return 1;
    end = next;
  }
}

// A walk that only counts (planning).
struct an5d_ooc_count {
  long loads, relocations;
  void relocate(long, long, long, long) { ++relocations; }
  void wait_loaded() {}
  void load(long, long, long) { ++loads; }
  void run_launch(int, long, long, int, long, long) {}
  void store(long, long, long) {}
};

// How the out-of-core path runs: passes of up to `tbt` steps, chunks of
// `depth` planes through a window of `window` planes.
struct an5d_ooc_plan {
  long tbt, depth, window, chunks, relocations;
};

// The launches of a pass of `tbt` steps at degree bt from step t: whole
// launches of bt, the rest in one; returns their count.
inline int an5d_ooc_full_pass(long t, long tbt, int bt, an5d_ooc_launch *launch) {
  int n = 0;
  for (long s = 0; s < tbt && n < AN5D_OOC_MAX_LAUNCHES; ++n) {
    launch[n].t = t + s;
    launch[n].degree = (int)(tbt - s < bt ? tbt - s : bt);
    s += launch[n].degree;
  }
  return n;
}

// Whether passes of `tbt` steps fit a window of `window` planes in chunks of
// `depth`; fills *p. A pass holds at least one whole launch of the
// schedule, so passes shorter than bt do not fit kernels of degree bt (the
// plan then goes one step per launch).
inline int an5d_ooc_try(const an5d_ooc_geometry *g, int bt, long tbt,
                        long depth, long window, an5d_ooc_plan *p) {
  if (tbt < bt)
    return 0;
  an5d_ooc_launch launch[AN5D_OOC_MAX_LAUNCHES];
  const int n = an5d_ooc_full_pass(0, tbt, bt, launch);
  an5d_ooc_count c = {0, 0};
  if ((long)n * bt < tbt || !an5d_ooc_walk(g, launch, n, depth, window, c))
    return 0;
  p->tbt = tbt;
  p->depth = depth;
  p->window = window;
  p->chunks = c.loads;
  p->relocations = c.relocations;
  return 1;
}

// What a plan costs, in units of one time step of the whole grid in
// memory: `ratio`, a pass's copies in and out (the host link is the bound:
// its bytes over its bandwidth); `launch`, the fixed cost of one launch
// (start, and the tail of its last wave); `fill`, the planes a launch must
// cover to keep the GPU busy (a launch over fewer has fewer stream blocks
// than the GPU runs at once, and takes as long as one over `fill`).
struct an5d_ooc_costs {
  double ratio, launch, fill;
};

// The target's device memory and host link bandwidths, bytes per second
// each way (an5dc writes its device table's figures into each file).
#ifndef AN5D_DEVICE_MEMORY_BPS
#define AN5D_DEVICE_MEMORY_BPS 4e12
#endif
#ifndef AN5D_HOST_LINK_BPS
#define AN5D_HOST_LINK_BPS 50e9
#endif

// The costs an5d_out_of_core assumes for a grid of `grid_bytes` (one time
// plane) with `sent` planes crossing the host link per chunk: a step in
// memory moves both planes at AN5D_DEVICE_MEMORY_BPS, the host link
// AN5D_HOST_LINK_BPS each way, a launch about 15 us, and a launch needs
// about 32 Mi cells to fill the GPU (H100 and H200; the fill measured on an
// H200: j2d5pt chunks of 654 planes of 16384 cells ran 6x slower than in
// memory, star3d1r chunks of 9 planes of 1024^2 cells 4x). AN5D_OOC_RATIO
// sets the ratio.
inline an5d_ooc_costs an5d_ooc_default_costs(double grid_bytes, int sent,
                                             double plane_cells) {
  const double step_s = 2.0 * grid_bytes / AN5D_DEVICE_MEMORY_BPS;
  an5d_ooc_costs c;
  c.ratio = sent * grid_bytes / AN5D_HOST_LINK_BPS / step_s;
  c.launch = 15e-6 / step_s;
  c.fill = plane_cells > 0 ? 33554432.0 / plane_cells : 1.0;
  const char *r = getenv("AN5D_OOC_RATIO");
  if (r != NULL && atof(r) > 0)
    c.ratio = atof(r);
  return c;
}

// The estimated cost per step of passes of `tbt` steps in chunks of
// `depth` planes: the larger of the copies (ratio / tbt) and the kernels
// (a launch of degree d over a chunk also streams d * (lo + hi) planes
// around it, takes as long as one over `fill` planes when shallower, and
// pays its fixed cost), plus the copies a relocation stalls
// (about one chunk's).
inline double an5d_ooc_cost(const an5d_ooc_geometry *g, int bt, const an5d_ooc_plan *p,
                            const an5d_ooc_costs *c) {
  const double d = (double)(p->tbt < bt ? p->tbt : bt);
  const double busy = c->fill > p->depth ? c->fill / p->depth : 1.0;
  const double kernels = busy * (1.0 + d * (g->lo + g->hi) / p->depth) +
                         c->launch * p->chunks / d;
  const double copies = c->ratio / p->tbt;
  const double stalls = c->ratio * p->relocations / (double)p->chunks / p->tbt;
  return (copies > kernels ? copies : kernels) + stalls;
}

// The plan for `steps` steps of degree bt through a window of `window`
// planes with the least estimated cost (an5d_ooc_cost; `costs` NULL: a
// ratio of 100 and launches of 1/100 step), among steps per pass from the
// most the window takes down by quarters and the deepest chunks that fit
// down by halves. AN5D_OOC_TBT and AN5D_OOC_DEPTH, when set, fix either as
// far as the window allows. Returns 0 when not even one step fits.
inline int an5d_ooc_plan_window(const an5d_ooc_geometry *g, int bt, long steps,
                                long window, an5d_ooc_plan *p,
                                const an5d_ooc_costs *costs = NULL) {
  if (window > g->planes)
    window = g->planes;
  if (window < 1 || steps < 1)
    return 0;
  const an5d_ooc_costs fallback = {100.0, 0.01, 1.0};
  if (costs == NULL)
    costs = &fallback;
  const char *env_tbt = getenv("AN5D_OOC_TBT");
  const char *env_depth = getenv("AN5D_OOC_DEPTH");
  long cap = steps;
  if ((long)AN5D_OOC_MAX_LAUNCHES * bt < cap)
    cap = (long)AN5D_OOC_MAX_LAUNCHES * bt;
  if (env_tbt != NULL && atol(env_tbt) > 0 && atol(env_tbt) < cap)
    cap = atol(env_tbt);
  const long fixed_depth = env_depth != NULL && atol(env_depth) > 0 ? atol(env_depth) : 0;
  const long wide = g->lo > g->hi ? g->lo : g->hi;
  int found = 0;
  double best = 0;
  an5d_ooc_plan cand;
  for (long tbt = cap; tbt >= 1;) {
    // The deepest chunks the window may take beside this skew, then
    // shallower ones.
    const long skew = tbt * (wide + g->hi) + an5d_ooc_guard(g, bt) + wide * bt;
    long depth = fixed_depth > 0 ? fixed_depth : (window - skew - g->first) / 2;
    if (depth > g->planes)
      depth = g->planes;
    if (depth < 1)
      depth = 1;
    for (int tries = 0; tries < 12; ++tries) {
      if (an5d_ooc_try(g, bt, tbt, depth, window, &cand)) {
        const double cost = an5d_ooc_cost(g, bt, &cand, costs);
        if (!found || cost < best) {
          best = cost;
          *p = cand;
          found = 1;
        }
      }
      if (depth == 1 || fixed_depth > 0)
        break;
      depth /= 2;
    }
    if (env_tbt != NULL && atol(env_tbt) > 0 && found)
      break;
    // Fewer steps per pass: three quarters, whole launches of bt.
    long fewer = tbt * 3 / 4;
    if (fewer >= bt)
      fewer -= fewer % bt;
    tbt = fewer < tbt ? fewer : tbt - 1;
  }
  return found;
}

// The smallest window that passes of one step over `single` (kernels of
// degree 1) fit, searched below `fits`, a window that does (more planes
// always fit): what a budget too small must at least give.
inline long an5d_ooc_smallest_window(const an5d_ooc_geometry *single,
                                     long fits) {
  long fails = 0, need = fits;
  an5d_ooc_plan probe;
  while (need - fails > 1) {
    const long mid = fails + (need - fails) / 2;
    if (an5d_ooc_plan_window(single, 1, 1, mid, &probe))
      need = mid;
    else
      fails = mid;
  }
  return need;
}

// Whether the two time planes agree, bit for bit, on every cell the stencil
// never writes (the planes outside first .. last, and around `box` in the
// others): then a chunk's second plane is a device copy of its first, and
// only one plane crosses the host link per chunk.
template <typename T>
int an5d_ooc_same_boundary(const T *p0, const T *p1, long planes, long cells,
                           long first, long last, an5d_plane_box box) {
  for (long r = 0; r < planes; ++r) {
    const T *a = p0 + r * cells, *b = p1 + r * cells;
    if (r < first || r > last) {
      if (memcmp(a, b, cells * sizeof(T)) != 0)
        return 0;
      continue;
    }
    const long rows = box.width > 0 ? cells / box.width : 0;
    for (long y = 0; y < rows; ++y) {
      const T *ra = a + y * box.width, *rb = b + y * box.width;
      if (y < box.row_first || y >= box.row_first + box.rows) {
        if (memcmp(ra, rb, box.width * sizeof(T)) != 0)
          return 0;
        continue;
      }
      const long after = box.col_first + box.cols;
      if (memcmp(ra, rb, box.col_first * sizeof(T)) != 0 ||
          memcmp(ra + after, rb + after, (box.width - after) * sizeof(T)) != 0)
        return 0;
    }
  }
  return 1;
}

// The cells of a plane the stencil never writes around `box` (a plane of
// `cells` cells as rows of box.width): `head` cells of whole rows before
// the interior rows, `tail` after them, and in each of the `rows` interior
// rows `left` cells before the interior columns and `right` after. Packed
// per plane in this order (`per_plane` cells), the second time plane's
// rim stays on the device, so that a chunk sends one plane and copies it
// into the other before the rim goes back over it.
struct an5d_ooc_rim {
  long head, tail, rows, left, right, per_plane, col_end;
};

inline an5d_ooc_rim an5d_ooc_rim_of(an5d_plane_box box, long cells) {
  an5d_ooc_rim r;
  const long nrows = box.width > 0 ? cells / box.width : 0;
  r.head = box.row_first * box.width;
  r.tail = (nrows - box.row_first - box.rows) * box.width;
  r.rows = box.rows;
  r.left = box.col_first;
  r.right = box.width - box.col_first - box.cols;
  r.col_end = box.col_first + box.cols;
  r.per_plane = r.head + r.tail + r.rows * (r.left + r.right);
  return r;
}

// Packs the rim of `planes` planes of `plane` into `out`.
template <typename T>
void an5d_ooc_rim_pack(const T *plane, long planes, long cells,
                       an5d_plane_box box, const an5d_ooc_rim *r, T *out) {
  for (long p = 0; p < planes; ++p) {
    const T *in = plane + p * cells;
    memcpy(out, in, r->head * sizeof(T));
    out += r->head;
    memcpy(out, in + r->head + r->rows * box.width, r->tail * sizeof(T));
    out += r->tail;
    for (long y = 0; y < r->rows; ++y) {
      const T *row = in + r->head + y * box.width;
      memcpy(out, row, r->left * sizeof(T));
      out += r->left;
      memcpy(out, row + r->col_end, r->right * sizeof(T));
      out += r->right;
    }
  }
}

// A part of the grid one GPU streams when several GPUs run out of core
// (an5d_slabs_out_of_core): the host planes given to an5d_out_of_core are
// grid planes origin .. origin + planes - 1; view planes [0, below_end)
// and [above_from, planes), which neighbouring GPUs own and rewrite during
// the pass, come from copies taken before it (below[q], above[q] for time
// plane q); only view planes [keep_first, keep_end) go back. The pass is
// one pass of `plan` (its TBT the steps given), on a geometry without a
// guard at degree 1 when one_step; the boundaries of the two time planes
// agree when `same`; both planes come back when both_back (the last
// round), else only the data's.
template <typename T> struct an5d_ooc_view {
  long origin, keep_first, keep_end, below_end, above_from;
  const T *below[2], *above[2];
  int same, both_back, one_step;
  an5d_ooc_plan plan;
};

// The device side of a walk (an5d_ooc_walk's ops): the window's two planes
// at `device` (plane q at device + q * window * cells), copies in on `in`,
// launches on stream 0, copies out on `out`.
template <typename T, typename Run> struct an5d_ooc_ops {
  T *host[2], *device;
  long window, cells;
  long w;                       // the C loop writes plane (t + w) % 2
  int read;                     // the physical plane the pass starts from
  int send_both;                // the boundaries differ and no rim: send both planes
  T *rim[2];                    // each plane's packed rim on the device, or NULL
  an5d_ooc_rim r;
  long width, first, last;      // box.width; the interior planes
  int final_pass;               // both planes come back
  const an5d_ooc_launch *launch;
  int count;
  Run *run;
  long launches;
  const an5d_ooc_view<T> *view; // NULL: the whole grid
  cudaStream_t in, out;
  cudaEvent_t loaded, moved, computed;

  T *at(int q, long window_plane) const {
    return device + ((long)q * window + window_plane) * cells;
  }
  void relocate(long from, long end, long old_base, long new_base) {
    // The copies out read the old places: everything in flight ends first.
    AN5D_CHECK(cudaDeviceSynchronize());
    const long shift = (from - old_base) - (from - new_base);
    for (int q = 0; q < 2; ++q)
      // Forward in pieces no longer than the shift: source and destination
      // of one copy never overlap.
      for (long p = from; p < end; p += shift) {
        const long n = end - p < shift ? end - p : shift;
        AN5D_CHECK(cudaMemcpyAsync(at(q, p - new_base), at(q, p - old_base),
                                   n * cells * sizeof(T),
                                   cudaMemcpyDeviceToDevice, 0));
      }
    AN5D_CHECK(cudaEventRecord(moved, 0));
    AN5D_CHECK(cudaStreamWaitEvent(in, moved, 0));
  }
  void wait_loaded() { AN5D_CHECK(cudaStreamWaitEvent(0, loaded, 0)); }
  // Host planes [from, to) of time plane q into the window on `in`: a
  // view's planes that neighbours own from the copies taken before the pass.
  void copy_in(int q, long from, long to, long base) {
    long p = from;
    while (p < to) {
      const T *src = host[q] + p * cells;
      long end = to;
      if (view != NULL && p < view->below_end) {
        src = view->below[q] + p * cells;
        end = to < view->below_end ? to : view->below_end;
      } else if (view != NULL && p >= view->above_from) {
        src = view->above[q] + (p - view->above_from) * cells;
      } else if (view != NULL && end > view->above_from) {
        end = view->above_from;
      }
      AN5D_CHECK(cudaMemcpyAsync(at(q, p - base), src,
                                 (end - p) * cells * sizeof(T),
                                 cudaMemcpyHostToDevice, in));
      p = end;
    }
  }
  void load(long from, long to, long base) {
    const size_t bytes = (to - from) * cells * sizeof(T);
    for (int q = 0; q < 2; ++q)
      if (q == read || send_both)
        copy_in(q, from, to, base);
    if (!send_both)
      AN5D_CHECK(cudaMemcpyAsync(at(read ^ 1, from - base), at(read, from - base),
                                 bytes, cudaMemcpyDeviceToDevice, in));
    if (!send_both && rim[read ^ 1] != NULL)
      restore_rim(read ^ 1, from, to, base);
    AN5D_CHECK(cudaEventRecord(loaded, in));
  }
  // Plane q of planes [from, to), a copy of the other plane: its boundary
  // planes from the host, its interior planes' rim from the device.
  void restore_rim(int q, long from, long to, long base) {
    const long a = from > first ? from : first, b = to < last + 1 ? to : last + 1;
    const size_t sz = sizeof(T);
    for (int side = 0; side < 2; ++side) { // boundary planes below, above
      const long p0 = side == 0 ? from : (b > from ? b : from);
      const long p1 = side == 0 ? (a < to ? a : to) : to;
      if (p1 > p0)
        copy_in(q, p0, p1, base);
    }
    if (b <= a)
      return;
    const long n = b - a, pp = r.per_plane;
    const T *src = rim[q] + a * pp;
    T *dst = at(q, a - base);
    if (r.head > 0)
      AN5D_CHECK(cudaMemcpy2DAsync(dst, cells * sz, src, pp * sz, r.head * sz, n,
                                   cudaMemcpyDeviceToDevice, in));
    if (r.tail > 0)
      AN5D_CHECK(cudaMemcpy2DAsync(dst + r.head + r.rows * width, cells * sz,
                                   src + r.head, pp * sz, r.tail * sz, n,
                                   cudaMemcpyDeviceToDevice, in));
    // The interior rows' sides: one pitched copy over all planes when the
    // planes hold no whole boundary rows, else one per plane.
    const int flat = r.head == 0 && r.tail == 0;
    for (long p = 0; p < (flat ? 1 : n); ++p) {
      const T *s0 = src + p * pp + r.head + r.tail;
      T *d0 = dst + p * cells + r.head;
      const long h = flat ? n * r.rows : r.rows;
      if (r.left > 0)
        AN5D_CHECK(cudaMemcpy2DAsync(d0, width * sz, s0, (r.left + r.right) * sz,
                                     r.left * sz, h, cudaMemcpyDeviceToDevice, in));
      if (r.right > 0)
        AN5D_CHECK(cudaMemcpy2DAsync(d0 + r.col_end, width * sz, s0 + r.left,
                                     (r.left + r.right) * sz, r.right * sz, h,
                                     cudaMemcpyDeviceToDevice, in));
    }
  }
  void run_launch(int j, long first, long last, int part, long guard,
                  long base) {
    const an5d_ooc_launch &l = launch[j];
    // Launch j reads plane read ^ (j % 2); swapped: not the plane the C
    // loop reads step l.t from.
    int swapped = (read ^ (j & 1)) != an5d_read_plane(l.t, w);
    launches += (*run)(device, window, first, last, l.t, (long)l.degree,
                       &swapped, AN5D_END_OPEN, part, guard,
                       base + (view != NULL ? view->origin : 0));
  }
  void store(long from, long to, long base) {
    if (view != NULL) { // only the view's own planes
      from = from > view->keep_first ? from : view->keep_first;
      to = to < view->keep_end - 1 ? to : view->keep_end - 1;
      if (to < from)
        return;
    }
    AN5D_CHECK(cudaEventRecord(computed, 0));
    AN5D_CHECK(cudaStreamWaitEvent(out, computed, 0));
    const int last_plane = read ^ (count & 1);
    for (int q = 0; q < 2; ++q)
      if (q == last_plane || final_pass)
        AN5D_CHECK(cudaMemcpyAsync(host[q] + from * cells, at(q, from - base),
                                   (to - from + 1) * cells * sizeof(T),
                                   cudaMemcpyDeviceToHost, out));
  }
};

// Pins the host planes for asynchronous copies (1), or leaves them pageable
// (0: the copies then do not overlap the kernels) when CUDA refuses;
// `flags`: cudaHostRegisterPortable for copies from several GPUs.
template <typename T>
int an5d_ooc_pin(T *plane0, T *plane1, size_t plane_bytes, int *pinned,
                 unsigned flags = cudaHostRegisterDefault) {
  pinned[0] = pinned[1] = 0;
  if (plane1 == plane0 + plane_bytes / sizeof(T)) {
    pinned[0] = cudaHostRegister(plane0, 2 * plane_bytes, flags) == cudaSuccess;
  } else {
    pinned[0] = cudaHostRegister(plane0, plane_bytes, flags) == cudaSuccess;
    pinned[1] = cudaHostRegister(plane1, plane_bytes, flags) == cudaSuccess;
  }
  cudaGetLastError();
  return pinned[0] && (pinned[1] || plane1 == plane0 + plane_bytes / sizeof(T));
}

// Runs `steps` steps from t_first on the host grid `plane0`, `plane1` (the
// two time planes, each of `planes` planes of `cells` cells, interior planes
// first .. last, reach lo / hi along them, `box` the interior of a plane,
// the C loop writing plane (t + w) % 2) through a device window, passes of
// up to TBT steps (the header's section above). run(window, planes, first,
// last, t, n, swapped, end, part, guard, origin) runs n <= bt steps as one
// launch on window planes first .. last (an5d_slabs_round says what the
// last five mean); stream_block is its kernels' (0: none; then bt is 1). Both planes
// end as the C loop leaves them. Returns the launches made. AN5D_VERBOSE=1
// prints the decision, =2 also a line per pass; AN5D_TIMING the time of the
// whole run, copies included (one run: the host grid changes in place).
// Stops with a message, the arrays unchanged, when the budget holds no
// window. With `view` (several GPUs out of core), the grid is one GPU's
// part of a larger one and the pass its plan: nothing is said, timed or
// pinned here.
template <typename T, typename Run>
long an5d_out_of_core(T *plane0, T *plane1, long planes, long cells,
                      long first, long last, long lo, long hi, long bt, long w,
                      an5d_plane_box box, long stream_block, long t_first,
                      long steps, size_t budget, Run run,
                      const an5d_ooc_view<T> *view = NULL) {
  an5d_ooc_geometry g = {planes, first, last, lo, hi, stream_block};
  // Launches of one step without a guard, for windows too small for a
  // guard of whole stream blocks: they never swap the planes, so what they
  // read below their first plane is there.
  const an5d_ooc_geometry single = {planes, first, last, lo, hi, 0};
  const size_t plane_bytes = (size_t)cells * sizeof(T);
  const int same = view != NULL ? view->same
                                 : an5d_ooc_same_boundary(plane0, plane1, planes,
                                                          cells, first, last, box);
  // Planes whose boundaries differ: each plane's rim on the device (when
  // it takes at most a quarter of the budget), so that one plane crosses
  // the host link per chunk all the same.
  const an5d_ooc_rim rim = an5d_ooc_rim_of(box, cells);
  T *rim_device[2] = {NULL, NULL};
  const size_t rim_bytes = (size_t)planes * rim.per_plane * sizeof(T);
  if (!same && rim.per_plane > 0 && 2 * rim_bytes <= budget / 4) {
    T *packed = (T *)malloc(rim_bytes);
    for (int q = 0; q < 2 && packed != NULL; ++q) {
      if (cudaMalloc((void **)&rim_device[q], rim_bytes) != cudaSuccess) {
        cudaGetLastError();
        rim_device[q] = NULL;
        break;
      }
      an5d_ooc_rim_pack(q == 0 ? plane0 : plane1, planes, cells, box, &rim, packed);
      AN5D_CHECK(cudaMemcpy(rim_device[q], packed, rim_bytes, cudaMemcpyHostToDevice));
    }
    free(packed);
    if (rim_device[0] == NULL || rim_device[1] == NULL) {
      for (int q = 0; q < 2; ++q)
        if (rim_device[q] != NULL)
          AN5D_CHECK(cudaFree(rim_device[q]));
      rim_device[0] = rim_device[1] = NULL;
    } else {
      budget -= 2 * rim_bytes;
    }
  }
  const int one_plane = same || rim_device[0] != NULL;
  const an5d_ooc_costs costs =
      an5d_ooc_default_costs((double)planes * plane_bytes, one_plane ? 1 : 2, (double)cells);
  an5d_ooc_plan plan = {0, 0, 0, 0, 0};
  T *device = NULL;
  if (view != NULL) {
    plan = view->plan;
    if (view->one_step) {
      g = single;
      bt = 1;
    }
    if (cudaMalloc((void **)&device, 2 * (size_t)plan.window * plane_bytes) != cudaSuccess) {
      fprintf(stderr, "an5d: out-of-core: cudaMalloc refused a window of %zu "
                      "bytes within the device budget; give less device memory "
                      "(AN5D_DEVICE_MEMORY)\n",
              2 * (size_t)plan.window * plane_bytes);
      exit(1);
    }
  }
  // A budget the device cannot give after all is halved until it can.
  for (; view == NULL; budget /= 2) {
    const long window = (long)(budget / (2 * plane_bytes));
    int one_step = 0;
    if (!an5d_ooc_plan_window(&g, (int)bt, steps, window, &plan, &costs)) {
      one_step = an5d_ooc_plan_window(&single, 1, steps, window, &plan, &costs);
      if (!one_step) {
        const long need = an5d_ooc_smallest_window(&single, planes);
        fprintf(stderr,
                "an5d: out-of-core: the device budget of %zu bytes is too "
                "small: its window must hold both time planes of at least %ld "
                "planes of %zu bytes (%zu bytes); give more device memory "
                "(AN5D_DEVICE_MEMORY); the arrays were not changed\n",
                budget, need, plane_bytes, 2 * need * plane_bytes);
        exit(1);
      }
    }
    if (cudaMalloc((void **)&device, 2 * (size_t)plan.window * plane_bytes) == cudaSuccess) {
      if (one_step) {
        g = single;
        bt = 1;
      }
      break;
    }
    cudaGetLastError();
  }
  int pinned[2] = {0, 0};
  const int pin = view != NULL || an5d_ooc_pin(plane0, plane1, planes * plane_bytes, pinned);
  an5d_schedule schedule = an5d_launch_schedule(steps, (int)bt);
  const long total = schedule.full + schedule.tail_count;
  const long passes_est = (steps + plan.tbt - 1) / plan.tbt;
  if (an5d_verbose() && view == NULL)
    fprintf(stderr,
            "an5d: out-of-core, %ld chunks of %ld planes, TBT %ld (%ld "
            "pass%s; a window of %ld planes, %zu bytes of a device budget of "
            "%zu; %s per chunk; host planes %s)\n",
            plan.chunks, plan.depth, plan.tbt, passes_est,
            passes_est == 1 ? "" : "es", plan.window,
            2 * (size_t)plan.window * plane_bytes, budget,
            same ? "one plane sent (the planes' boundaries agree)"
                 : one_plane ? "one plane sent (the other's boundary kept on the device)"
                             : "both planes sent",
            pin ? "pinned" : "pageable");
  const char *timing = getenv("AN5D_TIMING");
  cudaEvent_t start = NULL, stop = NULL;
  if (timing != NULL && atoi(timing) > 0 && view == NULL) {
    AN5D_CHECK(cudaEventCreate(&start));
    AN5D_CHECK(cudaEventCreate(&stop));
    AN5D_CHECK(cudaEventRecord(start, 0));
  }
  an5d_ooc_ops<T, Run> ops;
  ops.view = view;
  ops.host[0] = plane0;
  ops.host[1] = plane1;
  ops.device = device;
  ops.window = plan.window;
  ops.cells = cells;
  ops.w = w;
  ops.send_both = !one_plane;
  ops.rim[0] = rim_device[0];
  ops.rim[1] = rim_device[1];
  ops.r = rim;
  ops.width = box.width;
  ops.first = first;
  ops.last = last;
  ops.run = &run;
  ops.launches = 0;
  AN5D_CHECK(cudaStreamCreateWithFlags(&ops.in, cudaStreamNonBlocking));
  AN5D_CHECK(cudaStreamCreateWithFlags(&ops.out, cudaStreamNonBlocking));
  AN5D_CHECK(cudaEventCreateWithFlags(&ops.loaded, cudaEventDisableTiming));
  AN5D_CHECK(cudaEventCreateWithFlags(&ops.moved, cudaEventDisableTiming));
  AN5D_CHECK(cudaEventCreateWithFlags(&ops.computed, cudaEventDisableTiming));
  an5d_ooc_launch launch[AN5D_OOC_MAX_LAUNCHES];
  int swapped = 0; // the data of the next step is not where the C loop reads it
  long t = t_first, done = 0, pass = 0;
  for (long k = 0; k < total; ++pass) {
    // The pass: whole launches of the schedule, at most TBT steps.
    int count = 0;
    long sum = 0;
    const long t_pass = t;
    while (k < total && count < AN5D_OOC_MAX_LAUNCHES) {
      const int d = k < schedule.full ? (int)bt : schedule.tail[k - schedule.full];
      if (count > 0 && sum + d > plan.tbt)
        break;
      launch[count].t = t;
      launch[count].degree = d;
      ++count;
      ++k;
      sum += d;
      t += d;
    }
    if (an5d_verbose() >= 2 && view == NULL)
      fprintf(stderr, "an5d: out-of-core pass %ld: steps %ld .. %ld in %d launches\n",
              pass + 1, t_pass, t - 1, count);
    ops.read = an5d_read_plane(t_pass, w) ^ swapped;
    ops.final_pass = k == total && (view == NULL || view->both_back);
    ops.launch = launch;
    ops.count = count;
    if (!an5d_ooc_walk(&g, launch, count, plan.depth, plan.window, ops)) {
      fprintf(stderr, "an5d: out-of-core: internal error: pass %ld does not fit its window\n", pass + 1);
      abort();
    }
    // The next pass reads what this one sent back.
    AN5D_CHECK(cudaDeviceSynchronize());
    swapped = (ops.read ^ (count & 1)) != an5d_read_plane(t, w);
    done += sum;
  }
  // The schedule ends as the C loop does (a view's in its one pass: the
  // halos it read hold for no more).
  if (swapped != 0 || done != steps || (view != NULL && pass != 1)) {
    fprintf(stderr, "an5d: out-of-core: internal error: the run ended swapped%s\n",
            view != NULL && pass != 1 ? " or a view took more than one pass" : "");
    abort();
  }
  if (start != NULL) {
    float ms = 0.0f;
    AN5D_CHECK(cudaEventRecord(stop, 0));
    AN5D_CHECK(cudaEventSynchronize(stop));
    AN5D_CHECK(cudaEventElapsedTime(&ms, start, stop));
    fprintf(stderr, "an5d timing: %.3f ms out-of-core (copies included), %ld "
                    "steps in %ld launches, %ld passes\n",
            ms, steps, ops.launches, pass);
    AN5D_CHECK(cudaEventDestroy(start));
    AN5D_CHECK(cudaEventDestroy(stop));
  }
  AN5D_CHECK(cudaEventDestroy(ops.loaded));
  AN5D_CHECK(cudaEventDestroy(ops.moved));
  AN5D_CHECK(cudaEventDestroy(ops.computed));
  AN5D_CHECK(cudaStreamDestroy(ops.in));
  AN5D_CHECK(cudaStreamDestroy(ops.out));
  AN5D_CHECK(cudaFree(device));
  for (int q = 0; q < 2; ++q)
    if (rim_device[q] != NULL)
      AN5D_CHECK(cudaFree(rim_device[q]));
  for (int q = 0; q < 2; ++q)
    if (pinned[q])
      AN5D_CHECK(cudaHostUnregister(q == 0 ? (void *)plane0 : (void *)plane1));
  return ops.launches;
}

#endif // AN5D_RUNTIME_OOC_H
