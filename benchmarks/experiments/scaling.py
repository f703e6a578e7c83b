#!/usr/bin/env python3
"""Strong and weak scaling of the slab path (AN5D_GPUS) on one node.

  scaling.py prepare --out DIR [--an5dc PATH] [--tuned CSV]
      Writes, per stencil of the scaling set, DIR/<stencil>.<precision>.c
      (the benchmark's scop function with a main for large grids: the same
      initial values, filled and summed by OpenMP threads, and the wall time
      of the stencil call) and its an5dc output DIR/<...>.cu with the tuned
      parameters, plus DIR/build.sh (nvcc -O3 -arch=sm_90, with and without
      -DAN5D_VERIFY) and DIR/run.sh, which on the GPU machine checks every
      file against the C loop on a small grid on 1, 2 and 4 GPUs and then
      runs the strong and weak points, one log line set per point. Each
      stencil also gets DIR/<...>.mpi.cu (an5dc --mpi, built with -ccbin
      mpicxx) for run.sh's mpi-verify and mpi-strong phases: one rank per
      GPU under mpirun ($MPIRUN).
  scaling.py report --log LOG --csv OUT.csv
      Reads run.sh's log into one CSV row per point: GFLOP/s from the slab
      or kernel time, the speedup over one GPU, and the slab timing lines
      (kernels per slab, time per exchange, time not hidden).

Grids: the strong grid's two time planes take STRONG_FRACTION of one GPU's
memory (cross-section 1536 x 1536, planes along the streaming dimension i);
weak scaling gives each GPU half that (1/WEAK_DIV of it), so its 2- and
4-GPU grids have 2x and 4x the planes of its one-GPU grid. Both as the one-GPU path and the slab path time them:
AN5D_TIMING=1, kernel time in memory (one GPU), the whole run with its
exchanges for slabs; host copies excluded from both.
"""
import argparse, csv, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
sys.path.insert(0, BENCH)
import run as bench  # noqa: E402  (benchmarks/run.py: FLOP counts, tuned rows)

SET = [("star3d1r", "float"), ("star3d4r", "float"), ("box3d2r", "float"),
       ("j3d27pt", "double")]
CROSS = 1536
STRONG_FRACTION = 0.6
STEPS = 100

MAIN = r'''
#include <sys/time.h>

static double scaling_now(void) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return tv.tv_sec + tv.tv_usec * 1e-6;
}

/* Scaling harness (benchmarks/experiments/scaling.py): the benchmark's
   initial values and checksum, filled and summed by OpenMP threads. */
int main(int argc, char **argv)
{
  if (argc != 5) {
    fprintf(stderr, "usage: %s n m l T\n", argv[0]);
    return 1;
  }
  const int n = atoi(argv[1]), m = atoi(argv[2]), l = atoi(argv[3]), T = atoi(argv[4]);
  if (n < 1 || m < 1 || l < 1 || T < 0)
    return 1;
  real *buf = (real *)malloc(sizeof(real) * 2 * n * m * l);
  if (buf == NULL) {
    fprintf(stderr, "%s: cannot allocate 2 x %d x %d x %d cells\n", argv[0], n, m, l);
    return 1;
  }
  real (*A)[n][m][l] = (real (*)[n][m][l])buf;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < l; k++) {
FILL
      }
  const double start = scaling_now();
  STENCIL(T, n, m, l, A);
  const double seconds = scaling_now() - start;
  double sum0 = 0.0, sum1 = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : sum0, sum1)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < l; k++) {
        sum0 += (double)A[0][i][j][k];
        sum1 += (double)A[1][i][j][k];
      }
  printf("checksum: %.10g %.10g\n", sum0, sum1);
  printf("scaling: %.3f s for the stencil call, copies included\n", seconds);
  free(buf);
  return 0;
}
'''


def tuned_row(path, name, prec):
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["stencil"] == name and r["precision"] == prec:
                return r
    sys.exit(f"scaling.py: no {name} {prec} row in {path}")


def prepare(a):
    os.makedirs(a.out, exist_ok=True)
    an5dc = a.an5dc or os.path.join(BENCH, "..", "build", "bin", "an5dc")
    names = []
    for name, prec in SET:
        src = open(os.path.join(BENCH, name + ".c")).read()
        head = src[:src.index("int main(")]
        base = f"{name}.{prec}"
        # the benchmark's own initial values, both planes
        fill = [ln for ln in src[len(head):].splitlines()
                if re.match(r"\s*A\[[01]\]\[i\]\[j\]\[k\] = ", ln)]
        if len(fill) != 2:
            sys.exit(f"scaling.py: {name}.c: its main's two fill lines not found")
        with open(os.path.join(a.out, base + ".c"), "w") as f:
            f.write(head + "#define STENCIL " + name + "\n" +
                    MAIN.replace("FILL", "\n".join(fill)))
        r = tuned_row(a.tuned, name, prec)
        cmd, _ = bench.n5d_job(argparse.Namespace(out=a.out), an5dc, name, prec,
                               r["opt"], r["bT"], r["bS"], r["hSN"],
                               r["min_blocks"], "2", bench.cells_of(r),
                               bench.halo_of(r), bench.kvec_of(r))
        cmd[1] = os.path.join(a.out, base + ".c")
        cmd[3] = os.path.join(a.out, base + ".cu")
        cmd[4:4] = ["--gpu", "H200"]
        subprocess.run(cmd, check=True)
        cmd[3] = os.path.join(a.out, base + ".mpi.cu")
        at = cmd.index("--") if "--" in cmd else len(cmd)
        subprocess.run(cmd[:at] + ["--mpi"] + cmd[at:], check=True)
        names.append((base, name, prec, r))
    with open(os.path.join(a.out, "build.sh"), "w") as f:
        f.write("#!/bin/bash\n# nvcc builds, all at once\ncd \"$(dirname \"$0\")\"\n")
        for base, *_ in names:
            for tag, flag in (("", ""), (".verify", " -DAN5D_VERIFY")):
                f.write(f"nvcc -O3 -arch=sm_90 -Xcompiler -fopenmp{flag} {base}.cu "
                        f"-o {base}{tag} -lgomp &\n")
                f.write(f"nvcc -O3 -arch=sm_90 -ccbin mpicxx -Xcompiler -fopenmp{flag} "
                        f"{base}.mpi.cu -o {base}.mpi{tag} -lgomp &\n")
        f.write("wait\n")
    with open(os.path.join(a.out, "run.sh"), "w") as f:
        f.write(RUN_SH.format(
            cross=CROSS, fraction=STRONG_FRACTION, steps=STEPS,
            sets=" ".join(f"{b}:{int(r['bT'])}:{8 if p == 'double' else 4}"
                          for b, _, p, r in names)))
    print(f"scaling.py: {len(names)} files in {a.out}")


RUN_SH = r'''#!/bin/bash
# Usage: run.sh verify|strong|weak [stencil.precision ...]   (log on stdout)
# The GPU count each point uses is AN5D_GPUS (GPUS="1 2 4" by default);
# NVLink multicast stays off. BIN=dir runs the programs built in another
# folder (an earlier an5dc's), TAG=x names the points kind-x. The mpi-*
# phases run one rank per GPU count of GPUS under $MPIRUN. Weak points give
# each GPU 1/WEAK_DIV (default 2) of the strong grid's planes. The ranks
# run without OMP_PROC_BIND: under --bind-to none every rank would bind its
# OpenMP threads to the same cores, all ranks' first threads to core 0.
cd "$(dirname "$0")"
mpirun=${{MPIRUN:-mpirun --allow-run-as-root --oversubscribe --bind-to none}}
bin=${{BIN:-.}}
gpus=${{GPUS:-1 2 4}}
export NCCL_NVLS_ENABLE=0 AN5D_VERBOSE=1 OMP_PROC_BIND=spread
phase=$1; shift
only=" $* "
mem=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits -i 0)
for set in {sets}; do
  IFS=: read base bt bytes <<< "$set"
  [ "$only" != "  " ] && [[ "$only" != *" $base "* ]] && continue
  # planes so that both time planes of the strong grid take {fraction} of one GPU
  strong=$(python3 -c "print(int($mem * 1048576 * {fraction} / (2 * $bytes * {cross} * {cross})))")
  case $phase in
  verify)
    for g in $gpus; do
      echo "== point $base verify$TAG gpus=$g grid=203x96x80 steps=$((2 * bt + 3))"
      AN5D_GPUS=$g $bin/$base.verify 203 96 80 $((2 * bt + 3)) 2>&1
    done ;;
  strong)
    for g in $gpus; do
      echo "== point $base strong$TAG gpus=$g grid=${{strong}}x{cross}x{cross} steps={steps}"
      AN5D_GPUS=$g AN5D_TIMING=1 $bin/$base $strong {cross} {cross} {steps} 2>&1
    done ;;
  mpi-verify)
    for g in $gpus; do
      echo "== point $base mpi-verify$TAG gpus=$g grid=203x96x80 steps=$((2 * bt + 3))"
      env -u OMP_PROC_BIND OMP_NUM_THREADS=$(( $(nproc) / g )) $mpirun -np $g $bin/$base.mpi.verify 203 96 80 $((2 * bt + 3)) 2>&1
    done ;;
  mpi-strong)
    for g in $gpus; do
      echo "== point $base mpi-strong$TAG gpus=$g grid=${{strong}}x{cross}x{cross} steps={steps}"
      env -u OMP_PROC_BIND OMP_NUM_THREADS=$(( $(nproc) / g )) AN5D_TIMING=1 $mpirun -np $g $bin/$base.mpi $strong {cross} {cross} {steps} 2>&1
    done ;;
  weak)
    for g in $gpus; do
      n=$((strong * g / ${{WEAK_DIV:-2}}))
      echo "== point $base weak$TAG gpus=$g grid=${{n}}x{cross}x{cross} steps={steps}"
      AN5D_GPUS=$g AN5D_TIMING=1 $bin/$base $n {cross} {cross} {steps} 2>&1
    done ;;
  esac
done
'''


def report(a):
    rows, cur = [], None
    point = re.compile(r"== point (\S+) ([\w-]+) gpus=(\d+) grid=(\d+)x(\d+)x(\d+) steps=(\d+)")
    for line in open(a.log):
        m = point.match(line)
        if m:
            base, kind, g, n, mm, l, steps = m.groups()
            name, prec = base.split(".")
            cur = dict(stencil=name, precision=prec, kind=kind, gpus=int(g),
                       grid=f"{n}x{mm}x{l}", steps=int(steps), ms="",
                       gflops="", speedup="", call_s="", verify="",
                       exchange_ms="", exchange_mb="", not_hidden_ms="",
                       slowest_slab_ms="", path="")
            cur["_cells"] = ((int(n) - 2 * bench.radius_of(name))
                             * (int(mm) - 2 * bench.radius_of(name))
                             * (int(l) - 2 * bench.radius_of(name)))
            rows.append(cur)
            continue
        if line.startswith("=="):  # another header ends the point's lines
            cur = None
            continue
        if cur is None:
            continue
        if m := re.match(r"an5d timing: ([\d.]+) ms (kernels|on \d+ slabs|on \d+ ranks)", line):
            cur["ms"] = float(m.group(1))
            cur["path"] = {"kernels": "in memory"}.get(m.group(2), m.group(2).split()[-1])
        elif m := re.match(r"an5d timing: rank \d+ .*; \d+ halo exchanges of ([\d.e+-]+) MB, ([\d.]+) ms each", line):
            cur["exchange_ms"] = max(float(m.group(2)), cur["exchange_ms"] or 0.0)
            cur["exchange_mb"] = max(float(m.group(1)), cur["exchange_mb"] or 0.0)
        elif m := re.match(r"an5d timing: slab \d+ .*kernels ([\d.]+) ms; \d+ halo exchanges of ([\d.e+-]+) MB, ([\d.]+) ms each", line):
            cur["slowest_slab_ms"] = max(float(m.group(1)), cur["slowest_slab_ms"] or 0.0)
            cur["exchange_ms"] = max(float(m.group(3)), cur["exchange_ms"] or 0.0)
            cur["exchange_mb"] = max(float(m.group(2)), cur["exchange_mb"] or 0.0)
        elif m := re.match(r"an5d timing: ([\d.]+) ms of the [\d.]+ ms not covered", line):
            cur["not_hidden_ms"] = float(m.group(1))
        elif m := re.match(r"an5d verify: (.*)", line):
            cur["verify"] = m.group(1).strip()
        elif m := re.match(r"scaling: ([\d.]+) s", line):
            cur["call_s"] = float(m.group(1))
        elif "an5d: out-of-core" in line:
            cur["path"] = "out of core"
    # points whose program did not run (no timing, no verify line) are left out
    rows = [r for r in rows if r["ms"] or r["verify"]]
    for r in rows:
        if r["ms"]:
            r["gflops"] = round(bench.flop_per_cell(r["stencil"]) * r["_cells"]
                                * r["steps"] / (r["ms"] * 1e-3) / 1e9, 1)
    for r in rows:
        one = [o for o in rows if o["stencil"] == r["stencil"] and o["kind"] == r["kind"]
               and o["gpus"] == 1 and o["gflops"]]
        if one and r["gflops"]:
            # strong: the speedup in time; weak: in throughput (work grows)
            r["speedup"] = round(r["gflops"] / one[0]["gflops"], 3)
    fields = [k for k in rows[0] if not k.startswith("_")] if rows else []
    with open(a.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    for r in rows:
        print(",".join(str(r[k]) for k in fields))


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    q = sub.add_parser("prepare")
    q.add_argument("--out", required=True)
    q.add_argument("--an5dc")
    q.add_argument("--tuned", default=os.path.join(BENCH, "tuned-h200.csv"))
    q = sub.add_parser("report")
    q.add_argument("--log", required=True)
    q.add_argument("--csv", required=True)
    a = p.parse_args()
    prepare(a) if a.cmd == "prepare" else report(a)


if __name__ == "__main__":
    main()
