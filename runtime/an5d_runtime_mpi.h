//===- an5d_runtime_mpi.h - Slabs across MPI ranks (an5dc --mpi) ----------===//
//
// The fourth part of the host runtime, in files generated with --mpi only
// (after an5d_runtime_slabs.h, whose slab plan, spans and rounds it uses;
// the file includes <mpi.h> first). Every rank runs the user's program; in
// the region rank r computes slab r of the grid on one GPU of its node, the
// halos go between neighbouring ranks every bT steps (through pinned host
// buffers, straight from device buffers with a CUDA-aware MPI, or peer to
// peer through CUDA IPC), and at the end every rank holds the whole grid,
// both planes, as the sequential program leaves it.
// Tests: test/Execution/mpi-*.test (mpirun on the CPU emulation).
//
//===----------------------------------------------------------------------===//
#ifndef AN5D_RUNTIME_MPI_H
#define AN5D_RUNTIME_MPI_H

// Open MPI says in <mpi-ext.h> whether it was built CUDA-aware.
#if defined(OPEN_MPI) && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

// --- Slabs across MPI ranks -------------------------------------------------

// Stops every rank on an MPI error, with the call that failed.
#define AN5D_MPI_CHECK(call)                                                   \
  do {                                                                         \
    const int an5d_mpi_e = (call);                                             \
    if (an5d_mpi_e != MPI_SUCCESS) {                                           \
      char an5d_mpi_text[MPI_MAX_ERROR_STRING];                                \
      int an5d_mpi_len = 0;                                                    \
      MPI_Error_string(an5d_mpi_e, an5d_mpi_text, &an5d_mpi_len);              \
      fprintf(stderr, "an5d: MPI error at %s:%d: %s (%s)\n", __FILE__,        \
              __LINE__, an5d_mpi_text, #call);                                 \
      MPI_Abort(MPI_COMM_WORLD, 1);                                            \
    }                                                                          \
  } while (0)

// Ends MPI at exit when the runtime started it (the user's program does not
// know about MPI).
inline void an5d_mpi_finalize() {
  int done = 0;
  MPI_Finalized(&done);
  if (!done)
    MPI_Finalize();
}

// This process's rank and the ranks in all, MPI started first when the
// program has not (a program run without mpirun is one rank).
inline void an5d_mpi_start(int *rank, int *ranks) {
  int started = 0;
  AN5D_MPI_CHECK(MPI_Initialized(&started));
  if (!started) {
    AN5D_MPI_CHECK(MPI_Init(NULL, NULL));
    atexit(an5d_mpi_finalize);
  }
  AN5D_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, rank));
  AN5D_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, ranks));
}

// The rank's GPU: ranks of one node take its visible GPUs in turn.
inline int an5d_mpi_device(int devices) {
  MPI_Comm node;
  int local = 0;
  AN5D_MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                                     MPI_INFO_NULL, &node));
  AN5D_MPI_CHECK(MPI_Comm_rank(node, &local));
  AN5D_MPI_CHECK(MPI_Comm_free(&node));
  return devices > 0 ? local % devices : 0;
}

// The MPI type of `cells` contiguous values of T: one plane, so that counts
// and displacements of whole grids stay small.
template <typename T> MPI_Datatype an5d_mpi_plane_type(long cells) {
  MPI_Datatype plane;
  if (cells > 2147483647L / (long)sizeof(T)) {
    fprintf(stderr, "an5d: MPI: a plane of %ld cells is too large for one "
                    "MPI message; the arrays were not changed\n",
            cells);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  AN5D_MPI_CHECK(MPI_Type_contiguous((int)(cells * sizeof(T)), MPI_BYTE,
                                     &plane));
  AN5D_MPI_CHECK(MPI_Type_commit(&plane));
  return plane;
}

// The halos between one rank and its two neighbours: what it sends (its
// planes a neighbour holds as halo) and receives (its own halo planes), in
// grid plane numbers, and the pinned host buffers they pass through.
template <typename T> struct an5d_mpi_halos {
  long send_at[2], send_rows[2], recv_at[2], recv_rows[2]; // [0]: lower rank
  T *send[2], *recv[2];
  // The messages go from and to the slab's device buffer (a CUDA-aware
  // MPI): no host buffers, no copies.
  int device_direct;
};

// Whether the MPI library reads and writes device memory (CUDA-aware):
// AN5D_MPI_CUDA_AWARE=1 says it does (give it only for such a library:
// another reads a device pointer as host memory and fails), =0 that it
// does not; unset, the library's own answer where it gives one (Open MPI
// built CUDA-aware: MPIX_Query_cuda_support). Collective: the same answer
// on every rank.
inline int an5d_mpi_cuda_aware() {
  int aware = 0;
  const char *given = getenv("AN5D_MPI_CUDA_AWARE");
  if (given != NULL && *given != '\0') {
    aware = strcmp(given, "1") == 0;
  } else {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    aware = MPIX_Query_cuda_support() == 1;
#endif
  }
  int all = 0;
  AN5D_MPI_CHECK(
      MPI_Allreduce(&aware, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
  return all;
}

// The first of `rows` planes from grid plane `at` in time plane q of slab
// o's device buffer.
template <typename T>
T *an5d_slab_planes(an5d_slab<T> *o, long cells, int q, long at) {
  return o->grid + (q * o->rows + at - o->load_first) * cells;
}

// Slab s's halos among `count` slabs (p, planes and the rest as for
// an5d_slab_runs). A slab with no interior plane computes nothing: its
// planes are the C loop's boundary, the same in both time planes for ever,
// so it and its neighbours exchange nothing (both sides know that).
template <typename T>
void an5d_mpi_halos_plan(an5d_mpi_halos<T> *h, const an5d_slab_plan *p,
                         long planes, long s, long count, long first,
                         long last, long lo, long hi) {
  long vf, ve, lf, le, rf, rl;
  an5d_slab_span(p, planes, s, &vf, &ve, &lf, &le);
  an5d_slab_runs(p, planes, s, first, last, lo, hi, &rf, &rl);
  for (int side = 0; side < 2; ++side) {
    const long u = side == 0 ? s - 1 : s + 1;
    h->send_at[side] = h->send_rows[side] = 0;
    h->recv_at[side] = h->recv_rows[side] = 0;
    if (u < 0 || u >= count || rf > rl)
      continue;
    long urf, url;
    an5d_slab_runs(p, planes, u, first, last, lo, hi, &urf, &url);
    if (urf > url)
      continue;
    long uvf, uve, ulf, ule;
    an5d_slab_span(p, planes, u, &uvf, &uve, &ulf, &ule);
    // The neighbour below holds [uve, ule) of this slab as its upper halo;
    // the one above [ulf, uvf) as its lower halo.
    h->send_at[side] = side == 0 ? uve : ulf;
    h->send_rows[side] = side == 0 ? ule - uve : uvf - ulf;
    h->recv_at[side] = side == 0 ? lf : ve;
    h->recv_rows[side] = side == 0 ? vf - lf : le - ve;
  }
}

// Copies the planes this slab's neighbours need (time plane q) into the
// pinned send buffers, on the slab's halo stream after its kernels (device
// buffers sent directly: only the wait for the kernels).
template <typename T>
void an5d_mpi_halos_out(an5d_slab<T> *o, an5d_mpi_halos<T> *h, long cells,
                        int q) {
  AN5D_CHECK(cudaStreamWaitEvent(o->halos, o->computed, 0));
  if (h->device_direct)
    return;
  for (int side = 0; side < 2; ++side)
    if (h->send_rows[side] > 0)
      AN5D_CHECK(cudaMemcpyAsync(
          h->send[side], an5d_slab_planes(o, cells, q, h->send_at[side]),
          (size_t)h->send_rows[side] * cells * sizeof(T),
          cudaMemcpyDeviceToHost, o->halos));
}

// Swaps halos with the neighbouring ranks (the host waits for the send
// buffers, then for the messages) and copies the received planes into time
// plane q of the slab's halo planes, on its halo stream; then, when the
// data is in the other plane (`swapped`), the interior (`box`) of the
// slab's outermost planes into it, as an5d_slabs_round does; records
// `received`. Returns the bytes received.
template <typename T>
double an5d_mpi_halos_in(an5d_slab<T> *o, an5d_mpi_halos<T> *h, long cells,
                         int q, int swapped, long first, long last,
                         an5d_plane_box box, MPI_Datatype plane, int rank) {
  AN5D_CHECK(cudaStreamSynchronize(o->halos));
  MPI_Request req[4];
  int n = 0;
  double bytes = 0.0;
  for (int side = 0; side < 2; ++side) {
    const int peer = side == 0 ? rank - 1 : rank + 1;
    // A CUDA-aware MPI receives into the halo planes (no kernel reads them
    // now: the inner stream blocks that may run keep to the interior).
    T *into = h->device_direct
                  ? an5d_slab_planes(o, cells, q, h->recv_at[side])
                  : h->recv[side];
    T *from = h->device_direct
                  ? an5d_slab_planes(o, cells, q, h->send_at[side])
                  : h->send[side];
    if (h->recv_rows[side] > 0)
      AN5D_MPI_CHECK(MPI_Irecv(into, (int)h->recv_rows[side], plane, peer, 0,
                               MPI_COMM_WORLD, &req[n++]));
    if (h->send_rows[side] > 0)
      AN5D_MPI_CHECK(MPI_Isend(from, (int)h->send_rows[side], plane, peer, 0,
                               MPI_COMM_WORLD, &req[n++]));
  }
  AN5D_MPI_CHECK(MPI_Waitall(n, req, MPI_STATUSES_IGNORE));
  for (int side = 0; side < 2; ++side) {
    if (h->recv_rows[side] <= 0)
      continue;
    const size_t b = (size_t)h->recv_rows[side] * cells * sizeof(T);
    if (!h->device_direct)
      AN5D_CHECK(cudaMemcpyAsync(
          an5d_slab_planes(o, cells, q, h->recv_at[side]), h->recv[side], b,
          cudaMemcpyHostToDevice, o->halos));
    bytes += (double)b;
  }
  // The interior planes before run_first and after run_last (halo planes
  // the kernels read from the C loop's plane).
  for (int side = 0; side < 2 && swapped; ++side)
    if (h->recv_rows[side] > 0)
      an5d_slab_interior_edge(o, side, first, last, cells, box, q);
  AN5D_CHECK(cudaEventRecord(o->received, o->halos));
  return bytes;
}

// --- Ranks of one node: halos peer to peer (CUDA IPC) ------------------------

// When every rank runs on one node, each slab pulls its
// halos straight from its neighbours' device buffers (opened once through
// CUDA IPC) instead of through host memory. Interprocess events order the
// copies with the kernels, and a small MPI message per round and side says
// when an event has been recorded (an event must be recorded before another
// process waits on it, and not recorded again before that wait is
// enqueued). AN5D_MPI_IPC=0 sends them through MPI instead. The CPU
// emulation has no IPC.
template <typename T> struct an5d_mpi_ipc {
  int on;
  cudaEvent_t computed, received;    // this slab's, interprocess
  T *grid[2];                        // the neighbours' buffers, opened
  long rows[2], load_first[2];       // their layout
  cudaEvent_t nb_computed[2], nb_received[2];
  MPI_Request sent[4];
  int tokens[4], pending;
};

#ifndef AN5D_EMULATION
// What a rank tells its neighbour about its slab.
struct an5d_mpi_ipc_info {
  cudaIpcMemHandle_t grid;
  cudaIpcEventHandle_t computed, received;
  long rows, load_first;
};
#endif

// Whether the halos go peer to peer: the ranks share one node, every two
// neighbouring slabs' GPUs are one device or can reach each other, and
// AN5D_MPI_IPC is not 0 (1 or unset). `on[r]` is rank r's GPU, `count`
// the number of slabs (ranks from `count` on run none). The same answer on
// every rank (collective).
inline int an5d_mpi_ipc_wanted(int ranks, const int *on, long count) {
#ifdef AN5D_EMULATION
  (void)ranks, (void)on, (void)count;
  return 0;
#else
  const char *given = getenv("AN5D_MPI_IPC");
  if (given != NULL && strcmp(given, "0") == 0)
    return 0;
  MPI_Comm node;
  int local = 0;
  AN5D_MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                                     MPI_INFO_NULL, &node));
  AN5D_MPI_CHECK(MPI_Comm_size(node, &local));
  AN5D_MPI_CHECK(MPI_Comm_free(&node));
  if (local != ranks)
    return 0;
  // One node: every rank sees the same devices, so each rank can ask
  // about every pair and all reach the same answer.
  int reach = 1;
  for (long s = 0; s + 1 < count && reach; ++s) {
    int ab = 1, ba = 1;
    if (on[s] != on[s + 1]) {
      AN5D_CHECK(cudaDeviceCanAccessPeer(&ab, on[s], on[s + 1]));
      AN5D_CHECK(cudaDeviceCanAccessPeer(&ba, on[s + 1], on[s]));
    }
    reach = ab && ba;
  }
  return reach;
#endif
}

// Opens the neighbours' buffers and events for slab o (halos h) of `rank`;
// every running slab calls it, and exchanges with each neighbour it shares
// halos with.
template <typename T>
void an5d_mpi_ipc_open(an5d_mpi_ipc<T> *x, an5d_slab<T> *o,
                       const an5d_mpi_halos<T> *h, int rank) {
#ifdef AN5D_EMULATION
  (void)x, (void)o, (void)h, (void)rank;
#else
  AN5D_CHECK(cudaEventCreateWithFlags(
      &x->computed, cudaEventDisableTiming | cudaEventInterprocess));
  AN5D_CHECK(cudaEventCreateWithFlags(
      &x->received, cudaEventDisableTiming | cudaEventInterprocess));
  an5d_mpi_ipc_info mine;
  memset(&mine, 0, sizeof mine);
  AN5D_CHECK(cudaIpcGetMemHandle(&mine.grid, o->grid));
  AN5D_CHECK(cudaIpcGetEventHandle(&mine.computed, x->computed));
  AN5D_CHECK(cudaIpcGetEventHandle(&mine.received, x->received));
  mine.rows = o->rows;
  mine.load_first = o->load_first;
  for (int side = 0; side < 2; ++side) {
    if (h->recv_rows[side] <= 0 && h->send_rows[side] <= 0)
      continue;
    const int peer = side == 0 ? rank - 1 : rank + 1;
    an5d_mpi_ipc_info theirs;
    AN5D_MPI_CHECK(MPI_Sendrecv(&mine, (int)sizeof mine, MPI_BYTE, peer, 3,
                                &theirs, (int)sizeof theirs, MPI_BYTE, peer, 3,
                                MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    AN5D_CHECK(cudaIpcOpenMemHandle((void **)&x->grid[side], theirs.grid,
                                    cudaIpcMemLazyEnablePeerAccess));
    AN5D_CHECK(cudaIpcOpenEventHandle(&x->nb_computed[side], theirs.computed));
    AN5D_CHECK(cudaIpcOpenEventHandle(&x->nb_received[side], theirs.received));
    x->rows[side] = theirs.rows;
    x->load_first[side] = theirs.load_first;
  }
#endif
}

// After this slab's kernels of a round: records its interprocess event and
// tells the neighbours that read its planes.
template <typename T>
void an5d_mpi_ipc_computed(an5d_mpi_ipc<T> *x, const an5d_mpi_halos<T> *h,
                           int rank, long round) {
  AN5D_CHECK(cudaEventRecord(x->computed, 0));
  for (int side = 0; side < 2; ++side)
    if (h->send_rows[side] > 0) {
      x->tokens[x->pending] = (int)round;
      AN5D_MPI_CHECK(MPI_Isend(&x->tokens[x->pending], 1, MPI_INT,
                               side == 0 ? rank - 1 : rank + 1, 1,
                               MPI_COMM_WORLD, &x->sent[x->pending]));
      ++x->pending;
    }
}

// The exchange of an5d_mpi_halos_in, peer to peer: once a neighbour's
// kernels are recorded, the halo planes (time plane q) come from its buffer
// on this slab's halo stream, then the interior copy when `swapped`; the
// neighbours hear that their planes were read, and this slab's next
// kernels wait until its own planes have been read by them. Returns the
// bytes pulled.
template <typename T>
double an5d_mpi_ipc_exchange(an5d_mpi_ipc<T> *x, an5d_slab<T> *o,
                             const an5d_mpi_halos<T> *h, long cells, int q,
                             int swapped, long first, long last,
                             an5d_plane_box box, int rank) {
  double bytes = 0.0;
  // After this slab's own kernels too: the interior copy below writes the
  // plane they read.
  AN5D_CHECK(cudaStreamWaitEvent(o->halos, o->computed, 0));
  for (int side = 0; side < 2; ++side) {
    if (h->recv_rows[side] <= 0)
      continue;
    int round = 0;
    AN5D_MPI_CHECK(MPI_Recv(&round, 1, MPI_INT, side == 0 ? rank - 1 : rank + 1,
                            1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    AN5D_CHECK(cudaStreamWaitEvent(o->halos, x->nb_computed[side], 0));
    const size_t b = (size_t)h->recv_rows[side] * cells * sizeof(T);
    AN5D_CHECK(cudaMemcpyAsync(
        o->grid + (q * o->rows + h->recv_at[side] - o->load_first) * cells,
        x->grid[side] +
            (q * x->rows[side] + h->recv_at[side] - x->load_first[side]) *
                cells,
        b, cudaMemcpyDeviceToDevice, o->halos));
    o->pulled += (double)b;
    bytes += (double)b;
  }
  for (int side = 0; side < 2 && swapped; ++side)
    if (h->recv_rows[side] > 0)
      an5d_slab_interior_edge(o, side, first, last, cells, box, q);
  AN5D_CHECK(cudaEventRecord(x->received, o->halos));
  AN5D_CHECK(cudaStreamWaitEvent(0, x->received, 0));
  for (int side = 0; side < 2; ++side)
    if (h->recv_rows[side] > 0) {
      x->tokens[x->pending] = 0;
      AN5D_MPI_CHECK(MPI_Isend(&x->tokens[x->pending], 1, MPI_INT,
                               side == 0 ? rank - 1 : rank + 1, 2,
                               MPI_COMM_WORLD, &x->sent[x->pending]));
      ++x->pending;
    }
  for (int side = 0; side < 2; ++side)
    if (h->send_rows[side] > 0) {
      int done = 0;
      AN5D_MPI_CHECK(MPI_Recv(&done, 1, MPI_INT,
                              side == 0 ? rank - 1 : rank + 1, 2,
                              MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      AN5D_CHECK(cudaStreamWaitEvent(0, x->nb_received[side], 0));
    }
  AN5D_MPI_CHECK(MPI_Waitall(x->pending, x->sent, MPI_STATUSES_IGNORE));
  x->pending = 0;
  return bytes;
}

// Closes what an5d_mpi_ipc_open opened (after the last kernels: the
// caller synchronizes the device and then waits at a barrier before the
// buffers are freed).
template <typename T> void an5d_mpi_ipc_close(an5d_mpi_ipc<T> *x) {
#ifndef AN5D_EMULATION
  AN5D_MPI_CHECK(MPI_Waitall(x->pending, x->sent, MPI_STATUSES_IGNORE));
  for (int side = 0; side < 2; ++side)
    if (x->grid[side] != NULL) {
      AN5D_CHECK(cudaIpcCloseMemHandle(x->grid[side]));
      AN5D_CHECK(cudaEventDestroy(x->nb_computed[side]));
      AN5D_CHECK(cudaEventDestroy(x->nb_received[side]));
    }
  AN5D_CHECK(cudaEventDestroy(x->computed));
  AN5D_CHECK(cudaEventDestroy(x->received));
#else
  (void)x;
#endif
}

// an5d_slabs across MPI ranks: the same arguments and rounds, one slab per
// rank (fewer when slabs would be thinner than a halo: the other ranks
// compute nothing and receive the result). Every rank starts from the same
// host arrays (each ran the program up to here) and ends holding all of
// both planes (MPI_Allgatherv). Returns 0, having done nothing, on one rank
// or one slab, or when a slab does not fit its GPU (then every rank runs
// the whole grid on its own GPU, in memory or out of core, and says so).
template <typename T, typename Run>
int an5d_mpi_slabs(T *plane0, T *plane1, long planes, long cells, long first,
                   long last, long lo, long hi, long bt, int shift,
                   an5d_plane_box box, long t_first, long steps, Run run) {
  int rank = 0, ranks = 1;
  an5d_mpi_start(&rank, &ranks);
  if (ranks <= 1)
    return 0;
  an5d_slab_plan p;
  if (an5d_plan_slabs(planes, lo, hi, bt, ranks, &p) < ranks && rank == 0 &&
      an5d_verbose())
    fprintf(stderr, "an5d: MPI: slabs for %d ranks would be thinner than a "
                    "halo (%ld + %ld planes); %ld slab%s, the other ranks "
                    "wait for the result\n",
            ranks, p.halo_lo, p.halo_hi, p.count, p.count > 1 ? "s" : "");
  int devices = 0;
  AN5D_CHECK(cudaGetDeviceCount(&devices));
  const int device = an5d_mpi_device(devices);
  if (p.count <= 1) { // every rank runs the whole grid, on its own GPU
    AN5D_CHECK(cudaSetDevice(device));
    return 0;
  }
  int home = 0;
  AN5D_CHECK(cudaGetDevice(&home));
  const int mine = rank < p.count;
  an5d_slab<T> slab;
  memset(&slab, 0, sizeof slab);
  an5d_mpi_halos<T> h;
  memset(&h, 0, sizeof h);
  size_t need = 0, budget = 0;
  int fits = 1;
  h.device_direct = an5d_mpi_cuda_aware();
  if (mine) {
    AN5D_CHECK(cudaSetDevice(device));
    long vf, ve, lf, le;
    an5d_slab_span(&p, planes, rank, &vf, &ve, &lf, &le);
    need = 2 * (size_t)(le - lf) * cells * sizeof(T);
    budget = an5d_device_budget();
    fits = need <= budget && an5d_slab_alloc(&slab, &p, planes, cells, first,
                                             last, lo, hi, rank, device,
                                             &need);
    if (fits) {
      an5d_mpi_halos_plan(&h, &p, planes, rank, p.count, first, last, lo, hi);
      // Host buffers, unless the messages use the device's own.
      for (int side = 0; side < 2 && !h.device_direct; ++side) {
        AN5D_CHECK(cudaMallocHost(
            (void **)&h.send[side],
            (size_t)(h.send_rows[side] + 1) * cells * sizeof(T)));
        AN5D_CHECK(cudaMallocHost(
            (void **)&h.recv[side],
            (size_t)(h.recv_rows[side] + 1) * cells * sizeof(T)));
      }
    } else if (an5d_verbose()) {
      fprintf(stderr, "an5d: MPI rank %d: its slab needs %zu bytes, more than "
                      "device %d gives (%s%zu bytes)\n",
              rank, need, device,
              need <= budget ? "cudaMalloc refused; a budget of "
                             : "a budget of ",
              budget);
    }
  }
  int all_fit = 0;
  AN5D_MPI_CHECK(
      MPI_Allreduce(&fits, &all_fit, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
  if (!all_fit) {
    if (mine && fits)
      an5d_slab_free(&slab);
    for (int side = 0; side < 2; ++side) {
      if (h.send[side] != NULL)
        AN5D_CHECK(cudaFreeHost(h.send[side]));
      if (h.recv[side] != NULL)
        AN5D_CHECK(cudaFreeHost(h.recv[side]));
    }
    if (rank == 0)
      fprintf(stderr, "an5d: MPI: a slab does not fit its GPU; every rank "
                      "runs the whole grid on its own GPU\n");
    AN5D_CHECK(cudaSetDevice(device));
    return 0;
  }
  an5d_mpi_ipc<T> ipc;
  memset(&ipc, 0, sizeof ipc);
  // Every rank's GPU: for the peer-to-peer decision and the decision line.
  int *on = (int *)calloc(ranks, sizeof(int));
  if (on == NULL) {
    fprintf(stderr, "an5d: out of host memory for %d ranks\n", ranks);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  AN5D_MPI_CHECK(
      MPI_Allgather(&device, 1, MPI_INT, on, 1, MPI_INT, MPI_COMM_WORLD));
  ipc.on = an5d_mpi_ipc_wanted(ranks, on, p.count);
  if (an5d_verbose()) {
    // `an5d: MPI, 3 ranks, slabs of 171/171/170 planes (on devices 0/1/0
    // of their nodes; ...)`, from rank 0.
    if (rank == 0) {
      fprintf(stderr, "an5d: MPI, %d ranks, slabs of ", ranks);
      for (long s = 0; s < p.count; ++s) {
        long vf, ve, lf, le;
        an5d_slab_span(&p, planes, s, &vf, &ve, &lf, &le);
        fprintf(stderr, s ? "/%ld" : "%ld", ve - vf);
      }
      fprintf(stderr, " planes (on devices ");
      for (long s = 0; s < p.count; ++s)
        fprintf(stderr, s ? "/%d" : "%d", on[s]);
      fprintf(stderr, " of their nodes; halos of %ld + %ld planes %s, "
                      "exchanged every %ld steps)\n",
              p.halo_lo, p.halo_hi,
              ipc.on ? "peer to peer (CUDA IPC, one node)"
              : h.device_direct ? "from device memory (CUDA-aware MPI)"
                                : "through host memory",
              p.exchange);
    }
  }
  free(on);
  MPI_Datatype plane = an5d_mpi_plane_type<T>(cells);
  const char *timing = getenv("AN5D_TIMING");
  const int timed = timing != NULL && atoi(timing) > 0;
  // AN5D_TIMING: the steps (from every slab on its GPU to the last
  // kernel of every rank) apart from the copies in and the gather.
  const double start = MPI_Wtime();
  double steps_from = start, steps_to = start;
  double waited = 0.0, received = 0.0;
  long launches = 0, exchanges = 0;
  // A slab without interior planes computes and exchanges nothing.
  const int runs = mine && slab.run_first <= slab.run_last;
  if (runs) {
    for (long q = 0; q < 2; ++q)
      AN5D_CHECK(cudaMemcpy(slab.grid + q * slab.rows * cells,
                            (q ? plane1 : plane0) + slab.load_first * cells,
                            (size_t)slab.rows * cells * sizeof(T),
                            cudaMemcpyHostToDevice));
  }
  if (timed) {
    AN5D_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    steps_from = MPI_Wtime();
  }
  // AN5D_VERBOSE=2: where a long run is, from each rank.
  if (an5d_verbose() >= 2)
    fprintf(stderr, "an5d: MPI rank %d: its slab on its GPU after %.3f s\n",
            rank, MPI_Wtime() - start);
  if (runs && ipc.on)
    an5d_mpi_ipc_open(&ipc, &slab, &h, rank);
  if (runs) {
    const long rounds = (steps + p.exchange - 1) / p.exchange;
    const long guard = 2 * (p.halo_lo > p.halo_hi ? p.halo_lo : p.halo_hi);
    int swapped = 0, q = 0;
    for (long r = 0; r < rounds; ++r) {
      long t, n;
      int end;
      an5d_slab_round_of(r, rounds, t_first, steps, p.exchange, &t, &n, &end);
      // As in an5d_slabs_round: a round of one launch runs its inner stream
      // blocks while the last round's halos travel.
      const int split = end == AN5D_END_OPEN && r > 0;
      if (split) {
        int scratch = swapped;
        launches += run(slab.grid, slab.rows, slab.run_first, slab.run_last,
                        t, n, &scratch, end, AN5D_PART_INNER, guard,
                        slab.load_first);
      }
      if (r > 0) {
        const double w = MPI_Wtime();
        received += ipc.on ? an5d_mpi_ipc_exchange(&ipc, &slab, &h, cells, q,
                                                   swapped, first, last, box,
                                                   rank)
                           : an5d_mpi_halos_in(&slab, &h, cells, q, swapped,
                                               first, last, box, plane, rank);
        waited += MPI_Wtime() - w;
        ++exchanges;
        AN5D_CHECK(cudaStreamWaitEvent(0, slab.received, 0));
      }
      launches += run(slab.grid, slab.rows, slab.run_first, slab.run_last, t,
                      n, &swapped, end, split ? AN5D_PART_EDGES : AN5D_PART_ALL,
                      guard, slab.load_first);
      AN5D_CHECK(cudaEventRecord(slab.computed, 0));
      if (r + 1 < rounds) {
        q = an5d_read_plane(t + n, shift) ^ swapped;
        if (ipc.on)
          an5d_mpi_ipc_computed(&ipc, &h, rank, r);
        else
          an5d_mpi_halos_out(&slab, &h, cells, q);
      }
    }
    AN5D_CHECK(cudaDeviceSynchronize());
    if (ipc.on)
      an5d_mpi_ipc_close(&ipc);
  }
  // No buffer is freed while a neighbour may still hold it open.
  if (ipc.on)
    AN5D_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
  if (timed) {
    AN5D_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    steps_to = MPI_Wtime();
  }
  if (an5d_verbose() >= 2)
    fprintf(stderr, "an5d: MPI rank %d: steps done after %.3f s\n", rank,
            MPI_Wtime() - start);
  if (runs) {
    for (long qq = 0; qq < 2; ++qq)
      AN5D_CHECK(cudaMemcpy((qq ? plane1 : plane0) + slab.valid_first * cells,
                            slab.grid + (qq * slab.rows + slab.valid_first -
                                         slab.load_first) * cells,
                            (size_t)(slab.valid_end - slab.valid_first) *
                                cells * sizeof(T),
                            cudaMemcpyDeviceToHost));
  }
  if (an5d_verbose() >= 2)
    fprintf(stderr, "an5d: MPI rank %d: its planes back on the host after "
                    "%.3f s\n", rank, MPI_Wtime() - start);
  // Every rank gets every slab's planes: broadcasts from the slab's rank of
  // at most a GiB each, from and into the arrays at the piece's own address.
  // Open MPI's collectives have computed the bytes of messages of several
  // GB in an int (open-mpi/ompi#5383); on four H200s a 2-rank gather of
  // 45 GB per rank and plane stopped at its first MPI_Allgatherv, even in
  // pieces of a GiB (displacements of up to 45 GB into the arrays).
  const char *given = getenv("AN5D_MPI_GATHER_PLANES"); // tests: smaller pieces
  long per = given != NULL && atol(given) > 0
                 ? atol(given)
                 : (long)((1UL << 30) / (cells * sizeof(T)));
  if (per < 1)
    per = 1;
  for (long s = 0; s < p.count; ++s) {
    long vf, ve, lf, le;
    an5d_slab_span(&p, planes, s, &vf, &ve, &lf, &le);
    for (long at = vf; at < ve; at += per) {
      const int n = (int)(ve - at < per ? ve - at : per);
      AN5D_MPI_CHECK(MPI_Bcast(plane0 + at * cells, n, plane, (int)s, MPI_COMM_WORLD));
      AN5D_MPI_CHECK(MPI_Bcast(plane1 + at * cells, n, plane, (int)s, MPI_COMM_WORLD));
    }
    if (an5d_verbose() >= 3)
      fprintf(stderr, "an5d: MPI rank %d: has slab %ld's planes after %.3f s\n",
              rank, s, MPI_Wtime() - start);
  }
  if (an5d_verbose() >= 2)
    fprintf(stderr, "an5d: MPI rank %d: gathered after %.3f s\n", rank,
            MPI_Wtime() - start);
  const double wall = MPI_Wtime() - start;
  AN5D_MPI_CHECK(MPI_Type_free(&plane));
  if (timed) {
    if (runs)
      fprintf(stderr, "an5d timing: rank %d (device %d): %ld launches; %ld "
                      "halo exchanges of %.4g MB, %.3f ms each on the host "
                      "(messages and copies, while the inner stream blocks "
                      "run)\n",
              rank, device, launches, exchanges,
              exchanges ? received / exchanges / 1e6 : 0.0,
              exchanges ? 1e3 * waited / exchanges : 0.0);
    AN5D_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0)
      fprintf(stderr, "an5d timing: %.3f ms on %ld ranks (exchanges "
                      "included), %ld steps; %.3f ms the copies to the GPUs, "
                      "%.3f ms the copies back and the gather\n",
              1e3 * (steps_to - steps_from), p.count, steps,
              1e3 * (steps_from - start), 1e3 * (wall - (steps_to - start)));
  }
  if (mine) {
    for (int side = 0; side < 2; ++side) {
      AN5D_CHECK(cudaFreeHost(h.send[side]));
      AN5D_CHECK(cudaFreeHost(h.recv[side]));
    }
    an5d_slab_free(&slab);
  }
  AN5D_CHECK(cudaSetDevice(home));
  return 1;
}

#endif // AN5D_RUNTIME_MPI_H
