#!/usr/bin/env python3
"""The random-stencil differential tester on a GPU, in two halves.

emit (here, where an5dc is built): draws programs exactly as
scripts/difftest.py does (program INDEX of seed S from the generator seeded
"S:INDEX", its option sets and runs), runs an5dc on each option set until
--sets are accepted, and writes DIR/manifest.csv (one row per generated
file) and DIR/cases.tar.gz (prog.c and the generated .cu files; with --xz
DIR/cases.tar.xz, one solid stream about 10x smaller, since every file holds
the same runtime: 10,000 programs fit the device tool's carry). Every
--large-every-th program draws its grids up to --large2d / --large3d cells
per side, so that many blocks and tiles exist on the GPU; the others keep
the difftest's small grids, from one cell up, which exercise the edge tiles.

run (on the GPU machine; scripts/gpu_difftest_run.sh is its entry point):
builds every generated file with nvcc (its header's Build flags, -O3
-arch=sm_90, plus -DAN5D_VERIFY) and the C program with cc, runs both on
every run of the manifest and requires (1) exit 0 with the generated
program's "an5d verify:" line within its tolerance (AN5D_VERIFY runs the
original loop nest on the host and compares both planes; it exits 1 beyond
the tolerance), and (2) the output file equal to the C program's within
run_compare.py's tolerance (the whole final state: both planes, and the
iterators a program stores after the loop). --sanitize files (the smallest
of at least --sanitize-min-cells cells, in turn from each kernel and
dimension count) also run, on their largest run of at least one step,
under compute-sanitizer memcheck and racecheck. Results go to
OUTDIR/results.csv (one row per generated file, written as they finish),
OUTDIR/run.log, OUTDIR/summary.txt and OUTDIR/failures.tar.gz (each
failing file's prog.c, .cu and log); DIR/cases/ (emit --folder) replaces
the archive where it exists. No new work starts after --deadline-s seconds
(rows "NOT-RUN"); --set K (each program's Kth option set), --part K/N and
--programs A-B select a share, so that a second call continues. --emu
builds with an5dc-emucc instead of nvcc (the CPU emulation; no sanitizers)
to check the runner without a GPU.

  scripts/gpu_difftest.py emit gpu-difftest --count 500 --seed 1 --sets 2
  scripts/gpu_difftest_run.sh gpu-difftest $OUT --set 0     # 500 programs
  scripts/gpu_difftest_run.sh gpu-difftest $OUT --set 1     # their second sets

Standard library only (python3 >= 3.6).
"""
import argparse
import concurrent.futures
import csv
import gzip
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "test", "Execution"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import run_compare as rc  # noqa: E402

MANIFEST_FIELDS = ["key", "program", "set", "dims", "elem", "decl", "shape", "kernel",
                   "large", "fixed", "grids", "runs", "flags", "both_defines", "c_defines",
                   "an5dc_command", "known", "status", "detail"]
RESULT_FIELDS = ["key", "program", "set", "dims", "elem", "kernel", "large", "flags",
                 "known", "status", "runs_passed", "runs", "max_rel_verify", "max_rel_file",
                 "failed_run", "build_s", "run_s", "memcheck", "racecheck", "detail"]


# --- emit ----------------------------------------------------------------------

def emit_one(args, index):
    """Generates program index under its option sets; returns (files,
    manifest rows): files maps archive paths to text."""
    import difftest  # noqa: E402 (here only: the runner does not need it)
    import difftest_gen as gen  # noqa: E402
    large = args.large_every > 0 and index % args.large_every == args.large_every - 1
    plan_args = types.SimpleNamespace(
        seed=args.seed, sets=args.sets, runs=args.runs, max_steps=args.max_steps,
        max2d=args.large2d if large else args.max2d,
        max3d=args.large3d if large else args.max3d)
    p, sets, runs = difftest.plan(plan_args, index)
    name = "p%04d" % index
    work = os.path.join(args.work, name)
    os.makedirs(work, exist_ok=True)
    src = os.path.join(work, "prog.c")
    text = gen.render(p)
    with open(src, "w") as fh:
        fh.write(text)
    files = {name + "/prog.c": text}
    both, cmdline = gen.defines(p)
    # A PolyBench-style program's header travels in its folder (the runner
    # passes -I with it); an5dc here finds it through the tree's -I.
    shipped = [d for d in both if d != "-I" + gen.POLYBENCH_DIR]
    if len(shipped) != len(both):
        with open(os.path.join(gen.POLYBENCH_DIR, "polybench.h")) as fh:
            files[name + "/polybench.h"] = fh.read()
    run_text = "|".join(" ".join(gen.program_args(p, *r)) for r in runs)
    grids = "|".join("%s t0=%d T=%d" % ("x".join(map(str, p["fixed"] or r[0])), r[1], r[2])
                     for r in runs)
    decl = p["decl"] if p["form"] == "plane" else "%s/%s" % (p["form"], p["decl"])
    base = {"program": index, "dims": p["dims"], "elem": p["elem"], "decl": decl,
            "shape": p["shape"], "large": int(large),
            "fixed": "x".join(map(str, p["fixed"])) if p["fixed"] else "",
            "grids": grids, "runs": run_text, "both_defines": " ".join(shipped),
            "c_defines": " ".join(cmdline)}
    rows = []
    built = 0
    for flags in sets:
        if built == args.sets:
            break
        key = "%s-s%d" % (name, built)
        cu = os.path.join(work, key + ".cu")
        defs = both + cmdline
        cmd = ["an5dc", "prog.c", "-o", key + ".cu"] + flags + (["--"] + defs if defs else [])
        # Classes of failure the CPU tester knows (docs/verification.md).
        known = ",".join(([
            "assoc-rows-above"] if difftest.known_class(p, flags, "mismatch") else []) +
            (["name-clash"] if p["clash"] else []))
        row = dict(base, key=key, set=built, kernel=difftest.kernel_of(p, flags), known=known,
                   flags=" ".join(flags), an5dc_command=" ".join(map(shlex.quote, cmd)),
                   status="ok", detail="")
        try:
            rc.generate(args.an5dc, src, cu, flags, defs, timeout=args.timeout)
        except rc.CommandError as e:
            why = None
            if e.timed_out or e.returncode != 1:
                why = "an5dc %s" % ("timed out" if e.timed_out else "crashed")
            else:
                why = difftest.refusal(p, flags, e.stderr)
            if why is None:
                continue  # a refused option value: the next set replaces it
            row.update(status="an5dc-failed",
                       detail=(why + ": " + e.stderr.strip().splitlines()[0]
                               if e.stderr.strip() else why)[:300])
            rows.append(row)
            built += 1
            continue
        with open(cu) as fh:
            files[name + "/" + key + ".cu"] = fh.read()
        rows.append(row)
        built += 1
    shutil.rmtree(work, ignore_errors=True)
    return files, rows


def add_text(tar, path, text):
    """Adds a file with fixed metadata, so the archive is byte-identical for
    the same programs."""
    data = text.encode()
    info = tarfile.TarInfo(path)
    info.size = len(data)
    info.mtime = 0
    info.mode = 0o644
    tar.addfile(info, io.BytesIO(data))


def emit(args):
    if not os.access(args.an5dc, os.X_OK):
        print("gpu_difftest: cannot run %s (build first, or give --an5dc)" % args.an5dc)
        return 2
    os.makedirs(args.dir, exist_ok=True)
    args.work = os.path.join(os.path.abspath(args.dir), ".work")
    start = time.time()
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
        futs = {pool.submit(emit_one, args, i): i
                for i in range(args.first, args.first + args.count)}
        for fut in concurrent.futures.as_completed(futs):
            results[futs[fut]] = fut.result()
            if len(results) % 50 == 0:
                print("gpu_difftest: emitted %d/%d programs, %.0f s" % (
                    len(results), args.count, time.time() - start), flush=True)
    shutil.rmtree(args.work, ignore_errors=True)
    rows = []
    for i in sorted(results):
        rows += results[i][1]
    if args.folder:
        for i in sorted(results):
            for path, text in results[i][0].items():
                os.makedirs(os.path.join(args.dir, "cases", os.path.dirname(path)),
                            exist_ok=True)
                with open(os.path.join(args.dir, "cases", path), "w") as fh:
                    fh.write(text)
    elif args.xz:
        # One xz stream with a 64 MiB window: the runtime every file embeds
        # is stored about once per window. Deterministic like the gzip one.
        with tarfile.open(os.path.join(args.dir, "cases.tar.xz"), "w:xz", preset=9) as tar:
            for i in sorted(results):
                files = results[i][0]
                for path in sorted(files):
                    add_text(tar, path, files[path])
    else:
        # A plain gzip stream (no name or time in its header): deterministic.
        with open(os.path.join(args.dir, "cases.tar.gz"), "wb") as raw:
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
                with tarfile.open(fileobj=gz, mode="w") as tar:
                    for i in sorted(results):
                        files = results[i][0]
                        for path in sorted(files):
                            add_text(tar, path, files[path])
    with open(os.path.join(args.dir, "manifest.csv"), "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=MANIFEST_FIELDS)
        w.writeheader()
        w.writerows(rows)
    bad = [r for r in rows if r["status"] != "ok"]
    print("gpu_difftest: seed %d, %d programs, %d generated files (%d large grids), "
          "%d an5dc failures%s, %.0f s" % (
              args.seed, args.count, len(rows) - len(bad),
              sum(1 for r in rows if r["large"] and r["status"] == "ok"), len(bad),
              "".join("\n  %s: %s" % (r["key"], r["detail"]) for r in bad),
              time.time() - start))
    return 1 if bad else 0


# --- run -----------------------------------------------------------------------

VERIFY_LINE = re.compile(r"an5d verify: max abs error (\S+), max rel error (\S+) "
                         r"\(tolerance (\S+)\)")
BUILD_LINE = re.compile(r"^// Build: nvcc (.*?) FILE\.cu", re.M)
# The tolerance the generated file verifies with (a double stencil whose
# update computes in float has float's): the file comparison takes it too.
VERIFY_TOLERANCE = re.compile(r"an5d_verify_compare\(.*, (1e-?\d+)\);")


def file_tolerance(cu):
    """The largest tolerance of cu's an5d_verify_compare calls, or None."""
    with open(cu) as fh:
        found = [float(v) for v in VERIFY_TOLERANCE.findall(fh.read())]
    return max(found) if found else None


class Runner:
    def __init__(self, args, cases, out):
        self.a = args
        self.cases = cases
        self.out = out
        self.deadline = args.start + args.deadline_s
        self.lock = threading.Lock()
        self.csv = open(os.path.join(out, "results.csv"), "w", newline="")
        self.writer = csv.DictWriter(self.csv, fieldnames=RESULT_FIELDS)
        self.writer.writeheader()
        self.csv.flush()
        self.logf = open(os.path.join(out, "run.log"), "a")
        self.rows = []
        # At most gpu_jobs runs per GPU at a time (builds are not limited):
        # many processes time-sliced on one GPU made every run slow.
        n = max(1, args.gpus or 1)
        per = args.jobs if args.emu else args.gpu_jobs
        self.gpu_slots = [threading.Semaphore(max(1, per)) for _ in range(n)]

    def gpu_slot(self, row):
        """The semaphore of row's GPU (programs take the GPUs in turn)."""
        return self.gpu_slots[int(row["program"]) % len(self.gpu_slots)]

    def log(self, text):
        with self.lock:
            self.logf.write("[%5.0f s] %s\n" % (time.time() - self.a.start, text))
            self.logf.flush()

    def device_env(self, row):
        """The environment of row's GPU runs: with several GPUs, programs
        take them in turn (one GPU each, so the runtime plans one slab)."""
        if self.a.gpus <= 1:
            return None
        env = dict(os.environ)
        env["CUDA_VISIBLE_DEVICES"] = str(int(row["program"]) % self.a.gpus)
        return env

    def left(self):
        return self.deadline - time.time()

    def cmd(self, argv, log, limit, **kw):
        """Runs argv with a time limit of min(limit, time left + grace);
        appends its command and output to the log list; returns (status,
        stdout+stderr) with status the exit code or "timeout"."""
        limit = max(5.0, min(limit, self.left() + self.a.grace_s))
        log.append("$ " + " ".join(map(shlex.quote, argv)))
        try:
            p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True, errors="replace", timeout=limit, **kw)
        except subprocess.TimeoutExpired as e:
            text = e.output.decode("utf-8", "replace") if isinstance(e.output, bytes) \
                else (e.output or "")
            log.append(text[-4000:] + "\n(timed out after %.0f s)" % limit)
            return "timeout", text
        log.append(p.stdout[-8000:] + "(exit %d)" % p.returncode)
        return p.returncode, p.stdout

    def build(self, row, d, log):
        """Builds the generated file and the C reference; returns None or a
        (status, detail) failure."""
        cu = os.path.join(d, row["key"] + ".cu")
        exe = os.path.join(d, row["key"] + ".exe")
        both = row["both_defines"].split()
        if self.a.emu:
            argv = [self.a.emucc, "-O0", cu, "-o", exe, "-DAN5D_VERIFY", "-I", d] + both
        else:
            with open(cu) as fh:
                m = BUILD_LINE.search(fh.read(8192))
            flags = shlex.split(m.group(1)) if m else ["-O3", "-arch=sm_90"]
            argv = [self.a.nvcc] + flags + ["-DAN5D_VERIFY", "-I", d, cu, "-o", exe] + both
        st, text = self.cmd(argv, log, self.a.build_timeout)
        if st != 0:
            return ("TIMEOUT" if st == "timeout" else "BUILD-FAIL",
                    "build: " + first_error(text))
        if self.a.cc:
            ref = os.path.join(d, row["key"] + ".ref")
            argv = [self.a.cc, "-O1", "-std=gnu11", "-w", "-I", d] + both + row["c_defines"].split() + \
                [os.path.join(d, "prog.c"), "-o", ref, "-lm"]
            st, text = self.cmd(argv, log, 120)
            if st != 0:
                return ("TESTER", "the C program does not build")
        return None

    def run_one(self, row, d, args, log, tag):
        """Runs the generated program and the C program on one run; returns
        (verify rel error or None, file rel error or None, failure or None)."""
        exe = os.path.join(d, row["key"] + ".exe")
        got = os.path.join(d, row["key"] + ".%s.bin" % tag)
        want = os.path.join(d, row["key"] + ".%s.ref.bin" % tag)
        with self.gpu_slot(row):
            st, text = self.cmd([exe] + args + [got], log, self.a.run_timeout,
                                env=self.device_env(row))
        m = VERIFY_LINE.search(text)
        vrel = float(m.group(2)) if m else None
        if st == "timeout":
            return vrel, None, ("TIMEOUT", "run timed out")
        if st != 0:
            if m and not float(m.group(2)) <= float(m.group(3)):
                return vrel, None, ("FAIL", "AN5D_VERIFY: " + m.group(0))
            return vrel, None, ("CRASH", "exit %s: %s" % (
                st, (text.strip().splitlines() or ["no output"])[-1][:200]))
        if not m:
            return vrel, None, ("FAIL", "no 'an5d verify:' line (built without AN5D_VERIFY?)")
        if not self.a.cc:
            return vrel, None, None
        tol = file_tolerance(os.path.join(d, row["key"] + ".cu"))
        st, text = self.cmd([os.path.join(d, row["key"] + ".ref")] + args + [want], log, 120)
        if st != 0:
            return vrel, None, ("TESTER", "the C program fails: exit %s" % st)
        try:
            ok, summary, detail = rc.check_cells(want, got, row["elem"] == "double", tol=tol)
        except (OSError, ValueError) as e:
            return vrel, None, ("FAIL", "output file: %s" % e)
        log.append("compare with the C program: %s%s" % (summary, "\n" + detail if detail else ""))
        frel = float(re.search(r"max rel error (\S+)", summary).group(1)) \
            if "max rel error" in summary else None
        for path in (got, want):
            if os.path.exists(path):
                os.remove(path)
        if not ok:
            return vrel, frel, ("FAIL", "output file vs C: " + summary)
        return vrel, frel, None

    def sanitize(self, row, d, args, tool, log):
        if self.a.emu or not self.a.sanitizer:
            return "n/a"
        if self.left() <= 0:
            return "NOT-RUN"
        exe = os.path.join(d, row["key"] + ".exe")
        with self.gpu_slot(row):
            st, text = self.cmd([self.a.sanitizer, "--tool", tool, "--error-exitcode", "1",
                                 exe] + args + [os.path.join(d, row["key"] + ".san.bin")],
                                log, self.a.sanitizer_timeout, env=self.device_env(row))
        if st == "timeout":
            return "TIMEOUT"
        if st == 0:
            return "PASS"
        if "terminated before first instrumented API call" in text:
            return "NO-CUDA"
        summ = re.search(r"ERROR SUMMARY: (\d+) error", text) or \
            re.search(r"RACECHECK SUMMARY: (\d+) hazard", text)
        return "FAIL(%s)" % (summ.group(1) + " errors" if summ else "exit %s" % st)

    def item(self, row, sanitize):
        """item_checked, but an error of the tester itself is a TESTER row
        rather than the end of the whole run."""
        try:
            return self.item_checked(row, sanitize)
        except Exception as e:  # noqa: B902 (any bug here must not stop the others)
            res = {k: row.get(k, "") for k in RESULT_FIELDS}
            res.update(status="TESTER", detail="%s: %s" % (type(e).__name__, e))
            return self.record(res, None)

    def item_checked(self, row, sanitize):
        """Builds and checks one generated file; records its result row."""
        d = os.path.join(self.cases, "p%04d" % int(row["program"]))
        res = {k: row.get(k, "") for k in RESULT_FIELDS}
        res.update(runs_passed=0, runs=len(row["runs"].split("|")), memcheck="",
                   racecheck="", max_rel_verify="", max_rel_file="", failed_run="")
        if self.left() <= 0:
            res.update(status="NOT-RUN", detail="deadline")
            return self.record(res, None)
        log = ["== %s: %s" % (row["key"], row["flags"])]
        t0 = time.time()
        fail = self.build(row, d, log)
        res["build_s"] = "%.1f" % (time.time() - t0)
        t1 = time.time()
        vmax = fmax = 0.0
        if fail is None:
            for n, spec in enumerate(row["runs"].split("|")):
                args = spec.split()
                vrel, frel, fail = self.run_one(row, d, args, log, "r%d" % n)
                vmax = max(vmax, vrel or 0.0)
                fmax = max(fmax, frel or 0.0)
                if fail:
                    res["failed_run"] = spec
                    break
                res["runs_passed"] += 1
        res.update(max_rel_verify="%.3g" % vmax, max_rel_file="%.3g" % fmax)
        if sanitize:
            if fail is not None and fail[0] in ("BUILD-FAIL", "TESTER"):
                res.update(memcheck="NOT-RUN", racecheck="NOT-RUN")
            else:
                # A run whose loops are empty for its sizes never calls CUDA
                # (compute-sanitizer then exits 255): the next largest run.
                for spec in sanitizer_runs(row):
                    args = spec.split()
                    res["memcheck"] = self.sanitize(row, d, args, "memcheck", log)
                    if res["memcheck"] != "NO-CUDA":
                        res["racecheck"] = self.sanitize(row, d, args, "racecheck", log)
                        break
                else:
                    res["racecheck"] = "NO-CUDA"
        res["run_s"] = "%.1f" % (time.time() - t1)
        if fail:
            res.update(status=fail[0], detail=fail[1])
        elif res["memcheck"].startswith("FAIL") or res["racecheck"].startswith("FAIL"):
            res.update(status="SANITIZER-FAIL", detail="compute-sanitizer reports errors")
        else:
            res["status"] = "PASS"
        return self.record(res, log if res["status"] != "PASS" else None, d)

    def record(self, res, log, d=None):
        with self.lock:
            self.writer.writerow(res)
            self.csv.flush()
            self.rows.append(res)
        if log is not None:
            keep = os.path.join(self.out, ".failures", res["key"])
            os.makedirs(keep, exist_ok=True)
            with open(os.path.join(keep, "log.txt"), "w") as fh:
                fh.write("\n".join(log) + "\n")
            for name in ("prog.c", res["key"] + ".cu"):
                if os.path.exists(os.path.join(d, name)):
                    shutil.copy(os.path.join(d, name), keep)
        self.log("%-10s %s %s%s" % (res["status"], res["key"], res["flags"],
                                    " -- " + res["detail"] if res.get("detail") else ""))
        return res


def first_error(text):
    """The first line of a compiler's output that names an error, else its
    last line."""
    lines = text.strip().splitlines() or ["no output"]
    return next((l for l in lines if "error" in l), lines[-1]).strip()[:200]


def cells_of(row, spec):
    """The cells of a run (its sizes from the manifest or the fixed grid)."""
    if row["fixed"]:
        sizes = [int(v) for v in row["fixed"].split("x")]
    else:
        sizes = [int(v) for v in spec.split()[:int(row["dims"])]]
    n = 1
    for v in sizes:
        n *= v
    return n


def sanitizer_run(row):
    """The run under compute-sanitizer: the largest grid among the runs of
    at least one step (a run's last argument is its step count)."""
    return max(row["runs"].split("|"),
               key=lambda s: (int(s.split()[-1]) > 0, cells_of(row, s)))


def sanitizer_runs(row):
    """The runs of at least one step, largest grid first (sanitizer_run's
    order): compute-sanitizer tries them until one calls CUDA."""
    runs = [s for s in row["runs"].split("|") if int(s.split()[-1]) > 0]
    return sorted(runs, key=lambda s: -cells_of(row, s)) or [sanitizer_run(row)]


def sanitized(rows, count, min_cells):
    """The keys of count files for compute-sanitizer: the smallest whose
    sanitizer run has at least min_cells cells (an interior, several
    threads), taken in turn from each kernel and dimension count."""
    def size(x):
        return cells_of(x, sanitizer_run(x))
    classes = {}
    for x in sorted(rows, key=lambda x: (size(x), x["key"])):
        if size(x) >= min_cells:
            classes.setdefault((x["kernel"], x["dims"]), []).append(x["key"])
    keys = []
    while len(keys) < count and any(classes.values()):
        for c in sorted(classes):
            if classes[c] and len(keys) < count:
                keys.append(classes[c].pop(0))
    return keys


def select(rows, part, programs, only_set):
    """The rows of option set only_set (None: all), of program range A-B,
    then of share K of N (contiguous ranges of programs)."""
    if only_set is not None:
        rows = [r for r in rows if int(r["set"]) == only_set]
    if programs:
        lo, _, hi = programs.partition("-")
        rows = [r for r in rows if int(lo) <= int(r["program"]) <= int(hi or lo)]
    if part:
        k, n = (int(v) for v in part.split("/"))
        progs = sorted({int(r["program"]) for r in rows})
        share = progs[(k - 1) * len(progs) // n:k * len(progs) // n]
        rows = [r for r in rows if int(r["program"]) in set(share)]
    return rows


def run(args):
    args.start = time.time()
    os.makedirs(args.outdir, exist_ok=True)
    with open(os.path.join(args.dir, "manifest.csv"), newline="") as fh:
        manifest = list(csv.DictReader(fh))
    chosen = select(manifest, args.part, args.programs, args.set)
    rows = [r for r in chosen if r["status"] == "ok"]
    if args.work:
        work = os.path.abspath(args.work)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
    else:
        work = tempfile.mkdtemp(prefix="gpu-difftest-")
    wanted = {"p%04d" % int(r["program"]) for r in rows}
    if os.path.isdir(os.path.join(args.dir, "cases")):
        for name in wanted:
            shutil.copytree(os.path.join(args.dir, "cases", name), os.path.join(work, name))
    else:
        archive = os.path.join(args.dir, "cases.tar.xz")
        if not os.path.exists(archive):
            archive = os.path.join(args.dir, "cases.tar.gz")
        with tarfile.open(archive) as tar:
            tar.extractall(work, members=[m for m in tar.getmembers()
                                          if m.name.split("/")[0] in wanted])
    if args.gpus is None:
        args.gpus = 1 if args.emu else count_gpus()
    r = Runner(args, work, args.outdir)
    mode = "emulation (%s)" % args.emucc if args.emu else "nvcc (%s)" % args.nvcc
    r.log("%d generated files of %d programs (part %s, programs %s, set %s), %s, cc %s, "
          "compute-sanitizer %s, %d jobs, %d GPUs, deadline %.0f s" % (
              len(rows), len({x["program"] for x in rows}), args.part or "all",
              args.programs or "all", "all" if args.set is None else args.set, mode,
              args.cc or "none (no file comparison)",
              args.sanitizer or "none", args.jobs, args.gpus, args.deadline_s))
    san = sanitized(rows, args.sanitize, args.sanitize_min_cells)
    # The sanitized files first, so that their results come back whatever
    # the deadline cuts.
    order = [x for x in rows if x["key"] in san] + [x for x in rows if x["key"] not in san]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        list(pool.map(lambda x: r.item(x, x["key"] in san), order))
    r.csv.close()
    # results.csv again, in manifest order.
    got = {x["key"]: x for x in r.rows}
    with open(os.path.join(args.outdir, "results.csv"), "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=RESULT_FIELDS)
        w.writeheader()
        w.writerows(got[x["key"]] for x in rows)
    counts = {}
    for x in r.rows:
        counts[x["status"]] = counts.get(x["status"], 0) + 1
    san_rows = [got[k] for k in san if k in got]
    bad = [x for x in r.rows if x["status"] not in ("PASS", "NOT-RUN")]
    fails = os.path.join(args.outdir, ".failures")
    with tarfile.open(os.path.join(args.outdir, "failures.tar.gz"), "w:gz") as tar:
        if os.path.isdir(fails):
            tar.add(fails, arcname="failures")
    shutil.rmtree(fails, ignore_errors=True)
    def tally(field):
        c = {}
        for x in san_rows:
            c[x[field]] = c.get(x[field], 0) + 1
        return ", ".join("%d %s" % (c[k], k) for k in sorted(c)) or "none"
    summary = "gpu_difftest: %d files: %s; sanitizers on %d: memcheck %s; racecheck %s; %.0f s" % (
        len(rows), ", ".join("%d %s" % (counts[k], k) for k in sorted(counts)),
        len(san_rows), tally("memcheck"), tally("racecheck"), time.time() - args.start)
    for x in chosen:
        if x["status"] != "ok":
            summary += "\nan5dc failed here (emit): %s [%s] %s" % (x["key"], x["flags"],
                                                                  x["detail"])
    if counts.get("NOT-RUN"):
        left = sorted({int(x["program"]) for x in r.rows if x["status"] == "NOT-RUN"})
        summary += "\nnot run (deadline): programs %s; rerun with%s --programs %d-%d" % (
            compact(left), "" if args.set is None else " --set %d" % args.set, left[0], left[-1])
    for x in bad:
        summary += "\n%s %s [%s] %s" % (x["status"], x["key"], x["flags"], x["detail"])
    with open(os.path.join(args.outdir, "summary.txt"), "w") as fh:
        fh.write(summary + "\n")
    r.log(summary)
    print(summary)
    if not args.keep_work:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


def count_gpus():
    """The GPUs nvidia-smi lists (1 when it cannot tell)."""
    try:
        out = subprocess.run(["nvidia-smi", "-L"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, universal_newlines=True,
                             timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return 1
    return max(1, sum(1 for line in out.splitlines() if line.startswith("GPU ")))


def compact(nums):
    """1,2,3,7 -> '1-3,7'."""
    out = []
    for v in nums:
        if out and out[-1][1] == v - 1:
            out[-1][1] = v
        else:
            out.append([v, v])
    return ",".join("%d" % a if a == b else "%d-%d" % (a, b) for a, b in out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.splitlines()[2:]))
    sub = ap.add_subparsers(dest="cmd")
    e = sub.add_parser("emit", help="generate programs and an5dc outputs into DIR")
    e.add_argument("dir")
    e.add_argument("--count", type=int, default=500)
    e.add_argument("--first", type=int, default=0)
    e.add_argument("--seed", type=int, default=1)
    e.add_argument("--sets", type=int, default=1, help="option sets per program (default 1)")
    e.add_argument("--runs", type=int, default=3, help="runs per option set (default 3)")
    e.add_argument("--max2d", type=int, default=40)
    e.add_argument("--max3d", type=int, default=12)
    e.add_argument("--large-every", type=int, default=4,
                   help="every Nth program (index N-1, 2N-1, ...) on large grids (default 4)")
    e.add_argument("--large2d", type=int, default=300)
    e.add_argument("--large3d", type=int, default=64)
    e.add_argument("--max-steps", type=int, default=9)
    e.add_argument("--timeout", type=float, default=60)
    e.add_argument("-j", type=int, default=2)
    e.add_argument("--folder", action="store_true",
                   help="write DIR/cases/ as files instead of DIR/cases.tar.gz")
    e.add_argument("--xz", action="store_true",
                   help="write DIR/cases.tar.xz (one solid xz stream) instead of cases.tar.gz")
    e.add_argument("--an5dc", default=os.path.join(ROOT, "build", "bin", "an5dc"))
    g = sub.add_parser("run", help="build and check DIR's files on the GPU")
    g.add_argument("dir")
    g.add_argument("outdir")
    g.add_argument("--part", help="K/N: the Kth of N contiguous shares of the programs")
    g.add_argument("--programs", help="A-B: program indices A to B only")
    g.add_argument("--set", type=int,
                   help="only the files of option set K (0 = each program's first)")
    g.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    g.add_argument("--gpu-jobs", type=int, default=2,
                   help="runs at a time on each GPU (default 2; the emulation: --jobs)")
    g.add_argument("--gpus", type=int,
                   help="spread the programs over this many GPUs (default: nvidia-smi -L)")
    g.add_argument("--deadline-s", type=float, default=float(os.environ.get("DEADLINE_S", 510)),
                   help="start no work after this many seconds (default $DEADLINE_S or 510)")
    g.add_argument("--grace-s", type=float, default=30,
                   help="a command may run this long past the deadline (default 30; the "
                        "last file ends by about deadline + 2 x grace)")
    g.add_argument("--sanitize", type=int, default=20,
                   help="the N smallest files also run under compute-sanitizer (default 20)")
    g.add_argument("--sanitize-min-cells", type=int, default=256,
                   help="sanitize only files whose largest run of at least one step has this "
                        "many cells (default 256)")
    g.add_argument("--build-timeout", type=float, default=300)
    g.add_argument("--run-timeout", type=float, default=60)
    g.add_argument("--sanitizer-timeout", type=float, default=180)
    g.add_argument("--work", help="folder for the builds (default: a new temporary one)")
    g.add_argument("--keep-work", action="store_true")
    g.add_argument("--nvcc", default="nvcc")
    g.add_argument("--cc", default="cc", help="C compiler of the reference ('' for none)")
    g.add_argument("--sanitizer", default="compute-sanitizer")
    g.add_argument("--emu", action="store_true", help="build with an5dc-emucc (no GPU)")
    g.add_argument("--emucc", default=os.path.join(ROOT, "build", "bin", "an5dc-emucc"))
    args = ap.parse_args()
    if args.cmd == "emit":
        return emit(args)
    if args.cmd == "run":
        return run(args)
    ap.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
