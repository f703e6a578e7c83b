#!/usr/bin/env python3
"""The an5dc benchmark runner: the Table-3 stencils of the AN5D paper.

One command on a machine with a GPU and an5dc built (build/bin/an5dc):

  run.py all --out DIR [generate and measure options]
      generate, measure and plot: DIR/results.csv and DIR/results.png.

Or in two halves, when an5dc is built on one machine and the GPU is on
another (the files of DIR travel between them):

  run.py generate --out DIR [--stencils a,b] [--precisions float,double]
                  [--scheme n5d,naive] [--opt auto,star,assoc,none]
                  [--bT 4,8] [--bS 128,256 | --bS 32x32,64x16] [--sl 128,256]
                  [--min-blocks 0,2] [--prefetch 2] [--cells 1,2,4] [--halo-rows 0,1]
                  [--tuned FILE]
      writes DIR/<config>.cu for every combination (those an5dc refuses,
      e.g. --opt=star on a box stencil, are listed and skipped), plus
      DIR/configs.csv. --tuned FILE takes the N.5D parameters per stencil
      and precision from FILE (benchmarks/tuned-h200.csv: the best of the
      sweeps in docs/performance.md) instead of the sweep lists; --defaults
      takes the model's choice (an5dc with no parameters, for --gpu).
      --stencils also takes the programs of benchmarks/forms, which the
      default set leaves out: the wave equation (wave2d, wave3d: three time
      levels) and PolyBench's fdtd-2d (fdtd2d: three fields a step).

  run.py measure --dir DIR --csv OUT.csv [--size2d 16384] [--size3d 512]
                 [--steps 1000] [--repeat 5] [--maxrreg 0,64] [--check]
                 [--hardware benchmarks/devices.csv] [--device H200] [--resume]
      on a machine with a GPU: builds every file with the flags of its
      header's build line (nvcc -O3 -arch=sm_90, with -Xptxas -O1 where
      an5dc asks for it) (once per register limit, in parallel), checks it against the CPU
      reference on a small grid first (--check: -DAN5D_VERIFY, 200^2 or 40^3,
      23 steps), then runs it once with AN5D_TIMING=REPEAT: one warm-up and
      the mean of REPEAT runs of kernel time only, each from the same initial
      data. Writes one CSV row per configuration (its last column, config,
      names the generated file).

  run.py plot --csv OUT.csv --png OUT.png
      bar chart of GFLOP/s, naive vs N.5D (best configuration) per stencil.

  run.py table --csv OUT.csv
      Markdown table of the best configuration per stencil and precision,
      its speedup over naive and the geometric means.

  run.py profile --dir DIR --csv PROF.csv --reports REPORTS [--stencils a,b]
                 [--steps 2bT+2] [--skip 0] [--ncu ncu] [--reparse]
      on a machine with a GPU and Nsight Compute: one ncu report per file
      (one launch of the interior tiles' kernel of degree bT, or of the naive
      kernel, at the protocol grid) in REPORTS, and per file in PROF.csv how busy the
      load/store unit, the L1 data pipe, L2, DRAM, the FMA and FP64 pipes and
      instruction issue were, and which of them was busiest ("limit").
      --reparse reads the reports again without a GPU.

With --quick, measure and all run 200 steps and the mean of 3 runs instead:
the whole set (21 stencils, float and double, N.5D and naive, all checked)
fits in 10 minutes on an H200 (514 s measured), where the full protocol
needs an estimated 25 (about 1,150 s of kernel time alone).

The paper's protocol (section 6.1) is the default: 16384^2 or 512^3 cells,
1000 steps, a warm-up, the mean of 5 runs, kernel time only. FLOP counts are
Table 3's. The roofline bound of a configuration is
min(peak FLOP/s, FLOP per cell * bT / (2 * bytes per cell) * memory bandwidth):
a launch of degree bT reads and writes each cell once (three time levels:
it reads two planes and writes two levels, 4 words; at bT 1, 3).
"""
import argparse, csv, itertools, math, os, re, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor, as_completed

# --quick: on the H200, 200 steps measured 0.96x-1.09x the 1000-step rate
# (j2d5pt 0.78x; docs/performance.md), at a fifth of the time.
QUICK_STEPS, QUICK_REPEAT = 200, 3

HERE = os.path.dirname(os.path.abspath(__file__))

def flop_per_cell(name):
    m = re.fullmatch(r"(star|box)(2|3)d(\d)r", name)
    if m:
        kind, dims, r = m.group(1), int(m.group(2)), int(m.group(3))
        if kind == "star":
            return 8 * r + 1 if dims == 2 else 12 * r + 1
        return 2 * (2 * r + 1) ** dims - 1
    if name in FORMS:
        return FORMS[name]
    return {"j2d5pt": 10, "j2d9pt": 18, "j2d9pt-gol": 18, "gradient2d": 19,
            "j3d27pt": 54}[name]

STENCILS = sorted(os.path.basename(f)[:-2] for f in os.listdir(HERE)
                  if f.endswith(".c")) if os.path.isdir(HERE) else []

# Programs of benchmarks/forms/ that --stencils also takes (not in the
# default set, which is Table 3's): FLOP per cell, from their headers.
# Three time levels: a launch of degree bT > 1 reads two planes and writes
# two levels per cell (bT 1 and naive: reads two, writes one).
FORMS = {"wave2d": 9, "wave3d": 11, "fdtd2d": 11}
THREE_LEVELS = {"wave2d", "wave3d"}
# Several fields (their count): a launch reads and writes every field once
# (N.5D; the bound counts the same for the naive scheme, whose statements
# move 10 words a cell and step, partly caught by the caches).
FIELDS = {"fdtd2d": 3}

def source_of(name):
    """The C program of benchmark NAME: benchmarks/NAME.c or forms/NAME.c."""
    return os.path.join(HERE, "forms" if name in FORMS else "", name + ".c")

def words_per_cell(name, bt):
    """Words one launch of degree BT reads and writes per cell."""
    if name in THREE_LEVELS:
        return 3 if bt == 1 else 4
    if name in FIELDS:
        return 2 * FIELDS[name]
    return 2

def radius_of(name):
    m = re.fullmatch(r"(star|box)[23]d(\d)r", name)
    return int(m.group(2)) if m else (2 if name == "j2d9pt" else 1)

def dims_of(name):
    return 3 if "3d" in name else 2

def grid_size(a, name):
    """The grid's edge (--size2d or --size3d) for stencil NAME."""
    return a.size2d if dims_of(name) == 2 else a.size3d

def interior_cells(name, size):
    """Cells one step updates on a grid of edge SIZE (the boundary excluded)."""
    return (size - 2 * radius_of(name)) ** dims_of(name)

def degree_of(c):
    """Steps one launch of configuration C advances: bT, or 1 for naive."""
    return 1 if c["scheme"] == "naive" else int(c["bT"])

def split(s):
    return [x for x in s.split(",") if x] if s else []

# --- generate --------------------------------------------------------------

CONFIG_FIELDS = ["config", "stencil", "precision", "scheme", "opt", "bT", "bS",
                 "hSN", "min_blocks", "prefetch", "cells", "halo_rows", "kvec"]

def generate(a):
    an5dc = a.an5dc or os.path.join(HERE, "..", "build", "bin", "an5dc")
    os.makedirs(a.out, exist_ok=True)
    todo = []
    if a.tuned:
        todo = tuned_jobs(a, an5dc)
    elif a.defaults:
        todo = default_jobs(a, an5dc)
    for name in ([] if a.tuned or a.defaults else
                 split(a.stencils) or STENCILS):
        d = dims_of(name)
        bss = split(a.bS) or (["128"] if d == 2 else ["32x32"])
        if d == 3:
            bss = [b for b in bss if "x" in b] or ["32x32"]
        else:
            bss = [b for b in bss if "x" not in b] or ["128"]
        for prec, scheme in itertools.product(split(a.precisions), split(a.scheme)):
            if scheme == "naive":
                combos = [("na", "1", "na", "na", mb, "na", "1", "0", "1") for mb in split(a.min_blocks)[:1]]
            else:
                combos = itertools.product(split(a.opt), split(a.bT), bss, split(a.sl),
                                           split(a.min_blocks), split(a.prefetch),
                                           split(a.cells), split(a.halo_rows),
                                           split(a.kvec))
            for opt, bt, bs, sl, mb, pf, cl, hr, kv in combos:
                if (hr != "0" or kv != "1") and d == 2:
                    continue  # an5dc --halo-rows and --kvec are for 3D stencils
                if scheme != "naive":
                    todo.append(n5d_job(a, an5dc, name, prec, opt, bt, bs, sl, mb,
                                        pf, cl, hr, kv))
                    continue
                cfg = f"{name}.{prec}.naive"
                cmd = [an5dc, source_of(name), "-o",
                       os.path.join(a.out, cfg + ".cu"), "--scheme=naive"]
                if prec == "double":
                    cmd += ["--", "-DUSE_DOUBLE"]
                todo.append((cmd, dict(config=cfg, stencil=name, precision=prec,
                                       scheme=scheme, opt=opt, bT=bt, bS=bs, hSN=sl,
                                       min_blocks=mb, prefetch=pf, cells=cl,
                                       halo_rows=hr, kvec="1")))
    if a.model_top:
        todo += model_jobs(a, an5dc)
    if (a.tuned or a.defaults) and "naive" in split(a.scheme):
        for name in sorted({j[1]["stencil"] for j in todo}):
            for prec in sorted({j[1]["precision"] for j in todo if j[1]["stencil"] == name}):
                cfg = f"{name}.{prec}.naive"
                cmd = [an5dc, source_of(name), "-o",
                       os.path.join(a.out, cfg + ".cu"), "--scheme=naive"]
                if prec == "double":
                    cmd += ["--", "-DUSE_DOUBLE"]
                todo.append((cmd, dict(config=cfg, stencil=name, precision=prec,
                                       scheme="naive", opt="na", bT="1", bS="na",
                                       hSN="na", min_blocks="0", prefetch="na",
                                       cells="1", halo_rows="0", kvec="1")))
    def run_an5dc(job):
        cmd, row = job
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            why = r.stderr.strip().splitlines()[0] if r.stderr else "failed"
            print(f"skip {row['config']}: {why}")
            return None
        return row
    unique = {}
    for job in todo:
        unique.setdefault(job[1]["config"], job)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        rows = [r for r in pool.map(run_an5dc, unique.values()) if r]
    with open(os.path.join(a.out, "configs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CONFIG_FIELDS)
        w.writeheader()
        w.writerows(rows)
    print(f"generated {len(rows)} configurations in {a.out}")

def cells_of(row):
    """A row's cells per thread; rows written before --cells have none."""
    return row.get("cells") or "1"

def cells_suffix(cells):
    """The config-name part of --cells: none for one cell per thread."""
    return "" if cells in ("", "1") else f".c{cells}"

def halo_of(row):
    """A row's --halo-rows (1) or not (0); rows written before it have none."""
    return row.get("halo_rows") or "0"

def kvec_of(row):
    """A row's vector cells (an5dc --kvec); rows written before it have none."""
    return row.get("kvec") or "1"

def kvec_suffix(kvec):
    """The config-name part of --kvec: none without vector cells."""
    return "" if kvec in ("", "1") else f".v{kvec}"

def halo_suffix(halo):
    """The config-name part of --halo-rows."""
    return ".halo" if halo == "1" else ""

def model_ranking(an5dc, name, prec, gpu, size, extra=()):
    """an5dc --model-csv rows for a benchmark at SIZE on GPU."""
    d = dims_of(name)
    cmd = [an5dc, source_of(name), "--model-csv", "--gpu", gpu,
           "--size", "x".join([str(size)] * d)] + list(extra)
    if prec == "double":
        cmd += ["--", "-DUSE_DOUBLE"]
    r = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return list(csv.DictReader(r.stdout.splitlines()))

def model_jobs(a, an5dc):
    """N.5D jobs for the model's top --model-top configurations per stencil
    and precision (for --gpu at the --size2d/--size3d grid)."""
    jobs = []
    for name in split(a.stencils) or STENCILS:
        size = grid_size(a, name)
        for prec in split(a.precisions):
            ranked = [r for r in model_ranking(an5dc, name, prec, a.gpu, size)
                      if r["spills"] == "0"][:a.model_top]
            jobs += [n5d_job(a, an5dc, name, prec, "auto", r["bT"], r["bS"],
                             r["hSN"], "0", a.prefetch, cells_of(r), halo_of(r))
                     for r in ranked]
    return jobs

def default_jobs(a, an5dc):
    """N.5D jobs for what a user gets with no parameters: an5dc chooses
    (its model for --gpu; the grid is the paper's, as in the measurement).
    The parameters recorded are those of the model's first rank, the
    configuration an5dc then generates."""
    jobs = []
    for name in split(a.stencils) or STENCILS:
        size = grid_size(a, name)
        for prec in split(a.precisions):
            r = model_ranking(an5dc, name, prec, a.gpu, size)[0]
            cl, hr = cells_of(r), halo_of(r)
            cfg = f"{name}.{prec}.default"
            cmd = [an5dc, source_of(name), "-o",
                   os.path.join(a.out, cfg + ".cu"), "--gpu", a.gpu]
            if prec == "double":
                cmd += ["--", "-DUSE_DOUBLE"]
            jobs.append((cmd, dict(config=cfg, stencil=name, precision=prec,
                                   scheme="n5d", opt="default", bT=r["bT"],
                                   bS=r["bS"], hSN=r["hSN"], min_blocks="0",
                                   prefetch="2", cells=cl, halo_rows=hr,
                                kvec=kvec_of(r))))
    return jobs

def tuned_jobs(a, an5dc):
    """N.5D jobs for the rows of a tuned-parameter file (stencil, precision,
    opt, bT, bS, hSN, min_blocks), restricted by --stencils/--precisions."""
    jobs = []
    want = set(split(a.stencils))
    precs = set(split(a.precisions))
    with open(a.tuned) as f:
        for r in csv.DictReader(f):
            if (want and r["stencil"] not in want) or r["precision"] not in precs:
                continue
            jobs.append(n5d_job(a, an5dc, r["stencil"], r["precision"], r["opt"],
                                r["bT"], r["bS"], r["hSN"], r["min_blocks"],
                                a.prefetch, cells_of(r), halo_of(r), kvec_of(r)))
    return jobs

def n5d_job(a, an5dc, name, prec, opt, bt, bs, sl, mb, pf, cl, hr, kv="1"):
    """The (an5dc command, configs.csv row) of one N.5D configuration with
    explicit parameters; its file is DIR/<config>.cu, named by them."""
    cfg = (f"{name}.{prec}.{opt}.bT{bt}.bS{bs}.sl{sl}.mb{mb}.pf{pf}"
           + cells_suffix(cl) + halo_suffix(hr) + kvec_suffix(kv))
    cmd = [an5dc, source_of(name), "-o",
           os.path.join(a.out, cfg + ".cu"), "--opt=" + opt, "-bT", bt,
           "-bS", bs.replace("x", ","), "--sl", sl, "--prefetch", pf]
    if mb != "0":
        cmd += ["--min-blocks", mb]
    if cl != "1" or kv != "1":  # --kvec alone defaults to --cells 2
        cmd += ["--cells", cl]
    if hr != "0":
        cmd += ["--halo-rows"]
    if kv != "1":
        cmd += ["--kvec", kv]
    if prec == "double":
        cmd += ["--", "-DUSE_DOUBLE"]
    return cmd, dict(config=cfg, stencil=name, precision=prec, scheme="n5d",
                     opt=opt, bT=bt, bS=bs, hSN=sl, min_blocks=mb, prefetch=pf,
                     cells=cl, halo_rows=hr, kvec=kv)

# --- measure ---------------------------------------------------------------

def hardware(path, device):
    """Memory bandwidth (GB/s) and FP32/FP64 peaks (GFLOP/s) of DEVICE."""
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["device"].lower() == device.lower():
                return dict(bw=float(r["hbm_gbs"]), fp32=float(r["fp32_gflops"]),
                            fp64=float(r["fp64_gflops"]))
    raise SystemExit(f"{device} not in {path}")

def build_flags(cu):
    """The nvcc flags of the file's header line '// Build: nvcc <flags> FILE.cu'
    (an5dc asks for -Xptxas -O1 where ptxas -O3 would spill coefficients)."""
    with open(cu) as f:
        for line in f:
            m = re.match(r"// Build: nvcc (.*?) FILE\.cu", line)
            if m:
                return m.group(1).split()
            if not line.startswith("//"):
                break
    return ["-O3", "-arch=sm_90"]

def build(cu, exe, maxrreg, verify, nvcc="nvcc"):
    cmd = [nvcc] + build_flags(cu) + ["-Xptxas", "-v", cu, "-o", exe]
    if maxrreg:
        cmd += ["-maxrregcount", str(maxrreg)]
    if verify:
        cmd += ["-DAN5D_VERIFY", "-Xcompiler", "-fopenmp", "-lgomp"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    regs = [int(x) for x in re.findall(r"Used (\d+) registers", r.stderr)]
    spills = [int(x) for x in re.findall(r"(\d+) bytes spill stores", r.stderr)]
    return r.returncode == 0, max(regs, default=0), max(spills, default=0), r.stderr

def kernel_ms(exe, args, env):
    r = subprocess.run([exe] + args, capture_output=True, text=True, env=env)
    m = re.search(r"an5d timing: ([\d.eE+-]+) ms", r.stdout + r.stderr)
    if r.returncode != 0 or not m:
        raise RuntimeError((r.stdout + r.stderr)[-400:])
    return float(m.group(1))

def measure(a):
    if a.quick:  # the protocol's grids and checks, fewer steps and runs
        a.steps, a.repeat = QUICK_STEPS, QUICK_REPEAT
    started = time.time()
    hw = hardware(a.hardware, a.device)
    with open(os.path.join(a.dir, "configs.csv")) as f:
        configs = list(csv.DictReader(f))
    fields = ["stencil", "precision", "scheme", "opt", "bT", "bS", "hSN", "cells",
              "halo_rows", "kvec", "min_blocks", "prefetch", "maxrreg",
              "registers", "spills", "check", "ms", "GFLOP/s", "GCells/s",
              "roofline_GFLOP/s", "fraction_of_roofline", "config"]
    done = set()
    if a.resume and os.path.exists(a.csv):
        with open(a.csv) as f:
            done = {(r["stencil"], r["precision"], r["scheme"], r["opt"], r["bT"],
                     r["bS"], r["hSN"], cells_of(r), halo_of(r), kvec_of(r),
                     r["min_blocks"], r["prefetch"], r["maxrreg"])
                    for r in csv.DictReader(f)}
    new = not (a.resume and os.path.exists(a.csv))
    out = open(a.csv, "a" if not new else "w", newline="")
    w = csv.DictWriter(out, fieldnames=fields)
    if new:
        w.writeheader()
    bindir = os.path.join(a.dir, "bin")
    os.makedirs(bindir, exist_ok=True)
    jobs = []
    for c in configs:
        if a.stencils and c["stencil"] not in split(a.stencils):
            continue
        for rr in [int(x) for x in split(a.maxrreg)]:
            key = (c["stencil"], c["precision"], c["scheme"], c["opt"], c["bT"],
                   c["bS"], c["hSN"], cells_of(c), halo_of(c), kvec_of(c),
                   c["min_blocks"], c["prefetch"], str(rr))
            if key not in done:
                jobs.append((c, rr))
    def build_job(job):
        c, rr = job
        cu = os.path.join(a.dir, c["config"] + ".cu")
        exe = os.path.join(bindir, f"{c['config']}.r{rr}")
        ok, regs, spills, log = build(cu, exe, rr, False, a.nvcc)
        okv = (not a.check) or build(cu, exe + ".verify", rr, True, a.nvcc)[0]
        return job, exe, ok and okv, regs, spills, log
    env = dict(os.environ, AN5D_TIMING=str(max(a.repeat, 1)))
    # Runs start as builds finish: compiling (CPU) overlaps the timed runs
    # (GPU), which time kernels only.
    pool = ThreadPoolExecutor(max_workers=max((os.cpu_count() or 4) - 1, 1))
    for fut in as_completed([pool.submit(build_job, j) for j in jobs]):
        (c, rr), exe, ok, regs, spills, log = fut.result()
        name, d = c["stencil"], dims_of(c["stencil"])
        row = dict(stencil=name, precision=c["precision"], scheme=c["scheme"],
                   opt=c["opt"], bT=c["bT"], bS=c["bS"], hSN=c["hSN"],
                   cells=cells_of(c), halo_rows=halo_of(c), kvec=kvec_of(c),
                   min_blocks=c["min_blocks"], prefetch=c["prefetch"], maxrreg=rr,
                   registers=regs, spills=spills, config=c["config"])
        if not ok:
            row["check"] = "build-failed"
            w.writerow(row); out.flush()
            print(f"{c['config']} r{rr}: build failed\n{log[-300:]}")
            continue
        size = grid_size(a, name)
        args = [str(size)] * d + [str(a.steps)]
        check = "skipped"
        if a.check:
            small = [str(200 if d == 2 else 40)] * d + ["23"]
            r = subprocess.run([exe + ".verify"] + small, capture_output=True, text=True)
            check = "pass" if r.returncode == 0 else "FAIL"
        try:
            ms = kernel_ms(exe, args, env)  # a warm-up, then the mean of REPEAT
        except RuntimeError as e:
            row["check"] = check + "/run-failed"
            w.writerow(row); out.flush()
            print(f"{c['config']} r{rr}: run failed: {e}")
            continue
        cells = interior_cells(name, size)
        flops = flop_per_cell(name) * cells * a.steps
        gflops = flops / (ms * 1e-3) / 1e9
        word = 4 if c["precision"] == "float" else 8
        bt = degree_of(c)
        peak = hw["fp32"] if word == 4 else hw["fp64"]
        roof = min(peak, flop_per_cell(name) * bt /
                   (words_per_cell(name, bt) * word) * hw["bw"])
        row.update(check=check, ms=f"{ms:.3f}", **{
            "GFLOP/s": f"{gflops:.1f}", "GCells/s": f"{cells * a.steps / (ms * 1e-3) / 1e9:.2f}",
            "roofline_GFLOP/s": f"{roof:.0f}", "fraction_of_roofline": f"{gflops / roof:.3f}"})
        w.writerow(row); out.flush()
        print(f"{c['config']} r{rr}: {gflops:.0f} GFLOP/s ({gflops / roof:.0%} of roofline) regs {regs} spills {spills} check {check}", flush=True)
    pool.shutdown()
    out.close()
    print(f"measured {len(jobs)} configurations ({a.steps} steps, warm-up + mean of "
          f"{max(a.repeat, 1)}) in {time.time() - started:.0f} s", flush=True)

# --- profile ---------------------------------------------------------------

# What `profile` reads from an ncu report (--print-details all): column name,
# the metric's label in the report. The units compared for "limit" are those
# a stencil kernel saturates first.
NCU_FIELDS = [
    ("duration_us", "Duration"),
    ("lsu_pct", "SM: Inst Executed Pipe Lsu"),
    ("l1_wavefronts_pct", "L1: Data Pipe Lsu Wavefronts"),
    ("l2_pct", "L2 Cache Throughput"),
    ("dram_pct", "DRAM Throughput"),
    ("fma_pct", "SM: Pipe Fma Cycles Active"),
    ("fp64_pct", "SM: Pipe Fp64 Cycles Active"),
    ("issue_pct", "Issue Slots Busy"),
    ("barrier_stall", "Stall Barrier"),
]
NCU_UNITS = {"lsu_pct": "load/store unit", "l1_wavefronts_pct": "L1 data pipe",
             "l2_pct": "L2", "dram_pct": "DRAM", "fma_pct": "FMA pipe",
             "fp64_pct": "FP64 pipe", "issue_pct": "instruction issue"}

def ncu_fields(report):
    """The NCU_FIELDS of one kernel's ncu report text (first occurrence of
    each label, "" when absent), and the busiest of NCU_UNITS as "limit"."""
    row = {}
    scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}  # durations in us
    for key, label in NCU_FIELDS:
        m = re.search(r"^\s*" + re.escape(label) + r"\s+(?:(\S+)\s+)?([\d,.]+)\s*$",
                      report, re.M)
        value = m.group(2).replace(",", "") if m else ""
        if value and key == "duration_us":
            value = f"{float(value) * scale.get(m.group(1), 1.0):.2f}"
        row[key] = value
    busy = [(float(row[k]), k) for k in NCU_UNITS if row[k]]
    row["limit"] = NCU_UNITS[max(busy)[1]] if busy else ""
    return row

def ncu_command(a, c, exe):
    """ncu on one launch of configuration C's kernel at the protocol grid:
    the interior tiles' kernel of degree bT (the edge-tile kernel, when one
    runs, is an5d_edge_kernel_...), the vector-cell kernel of degree bT
    (an5d_kernel_vec or _vec_bt) or the naive kernel, with enough steps
    that a launch of degree bT runs."""
    bt = degree_of(c)
    d = dims_of(c["stencil"])
    vec = "vec$" if bt == 1 else "vec_bt$"
    kernel = "regex:^an5d_kernel_" + ("naive$" if c["scheme"] == "naive" else
                                      vec if kvec_of(c) != "1" else f"deg{bt}$")
    return [a.ncu, "--clock-control", "none", "--print-details", "all",
           "--section", "SpeedOfLight", "--section", "ComputeWorkloadAnalysis",
           "--section", "MemoryWorkloadAnalysis_Tables", "--section", "WarpStateStats",
           "-k", kernel, "-s", str(a.skip), "-c", "1",
           exe] + [str(grid_size(a, c["stencil"]))] * d + [str(a.steps or 2 * bt + 2)]

def ncu_report(a, c, exe):
    """Configuration C's report text, and whether ncu failed: run now and
    kept in --reports, or read from there with --reparse."""
    path = os.path.join(a.reports, c["config"] + ".ncu.txt")
    if a.reparse:
        with open(path) as f:
            return f.read(), False
    r = subprocess.run(ncu_command(a, c, exe), capture_output=True, text=True)
    with open(path, "w") as f:
        f.write(r.stdout + r.stderr)
    return r.stdout + r.stderr, r.returncode != 0

def profile(a):
    """ncu one launch of each configuration's kernel at the protocol grid:
    the report per configuration in --reports, the units' load in --csv."""
    with open(os.path.join(a.dir, "configs.csv")) as f:
        configs = [c for c in csv.DictReader(f)
                   if not a.stencils or c["stencil"] in split(a.stencils)]
    os.makedirs(a.reports, exist_ok=True)
    bindir = os.path.join(a.dir, "bin")
    os.makedirs(bindir, exist_ok=True)
    def build_one(c):
        exe = os.path.join(bindir, c["config"] + ".prof")
        if a.reparse:  # the reports are there already: no build, no ncu
            return exe, (True, "", "", "")
        return exe, build(os.path.join(a.dir, c["config"] + ".cu"), exe, 0, False, a.nvcc)
    # Builds run in parallel; ncu runs one kernel at a time.
    with ThreadPoolExecutor(max_workers=max((os.cpu_count() or 4) - 1, 1)) as pool:
        built = list(pool.map(build_one, configs))
    fields = ["config", "stencil", "precision", "scheme", "kernel", "registers",
              "spills", "cells_per_launch", "GCells/s"] + [k for k, _ in NCU_FIELDS] + ["limit"]
    with open(a.csv, "w", newline="") as out:
        w = csv.DictWriter(out, fieldnames=fields)
        w.writeheader()
        for c, (exe, (ok, regs, spills, log)) in zip(configs, built):
            if not ok:
                print(f"{c['config']}: build failed\n{log[-300:]}")
                continue
            report, failed = ncu_report(a, c, exe)
            m = re.search(r"^\s*(an5d_\w+)\(", report, re.M)
            row = dict(config=c["config"], stencil=c["stencil"], precision=c["precision"],
                       scheme=c["scheme"], registers=regs, spills=spills,
                       kernel=m.group(1) if m else "", **ncu_fields(report))
            if failed or not row["duration_us"]:
                print(f"{c['config']}: ncu failed (report in {a.reports})")
                w.writerow(row); out.flush()
                continue
            # Cell updates per second as if this launch advanced every interior
            # cell bT steps: exact where no edge-tile kernel runs beside it
            # (degree 1, naive), an upper bound otherwise.
            cells = interior_cells(c["stencil"], grid_size(a, c["stencil"]))
            row["cells_per_launch"] = cells
            row["GCells/s"] = (f"{cells * degree_of(c) / (float(row['duration_us']) * 1e-6) / 1e9:.2f}")
            w.writerow(row); out.flush()
            print(f"{c['config']}: {row['kernel']} {row['duration_us']} us, limit "
                  f"{row['limit'] or '?'} (LSU {row['lsu_pct']}%, L1 {row['l1_wavefronts_pct']}%, "
                  f"L2 {row['l2_pct']}%, DRAM {row['dram_pct']}%)", flush=True)

# --- plot ------------------------------------------------------------------

def plot(a):
    try:
        import matplotlib
    except ImportError:
        sys.exit("run.py plot: drawing the chart needs matplotlib, which this "
                 "Python cannot import (Debian: apt-get install "
                 "python3-matplotlib; the CSV and `run.py table` need nothing)")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    best = {}
    with open(a.csv) as f:
        for r in csv.DictReader(f):
            if not r.get("GFLOP/s"):
                continue
            key = (r["stencil"], r["precision"], "naive" if r["scheme"] == "naive" else "N.5D")
            best[key] = max(best.get(key, 0.0), float(r["GFLOP/s"]))
    precs = sorted({k[1] for k in best})
    fig, axes = plt.subplots(len(precs), 1, figsize=(14, 4 * len(precs)), squeeze=False)
    for ax, prec in zip(axes[:, 0], precs):
        names = sorted({k[0] for k in best if k[1] == prec})
        xs = range(len(names))
        for off, scheme in ((-0.2, "naive"), (0.2, "N.5D")):
            ax.bar([x + off for x in xs], [best.get((n, prec, scheme), 0) for n in names],
                   width=0.4, label=scheme)
        ax.set_xticks(list(xs)); ax.set_xticklabels(names, rotation=45, ha="right")
        ax.set_ylabel("GFLOP/s"); ax.set_title(f"{prec} ({a.title})"); ax.legend()
    fig.tight_layout(); fig.savefig(a.png, dpi=100)
    print(f"wrote {a.png}")

def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else 0.0

def best_rows(path):
    """Best measured N.5D row and naive row per (stencil, precision)."""
    best = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            if not r.get("GFLOP/s"):
                continue
            kind = "naive" if r["scheme"] == "naive" else "n5d"
            key = (r["stencil"], r["precision"], kind)
            if key not in best or float(r["GFLOP/s"]) > float(best[key]["GFLOP/s"]):
                best[key] = r
    return best

def table(a):
    best = best_rows(a.csv)
    for prec in sorted({k[1] for k in best}):
        print(f"\n{prec}\n")
        print("| stencil | opt | bT | bS | hSN | cells | halo rows | vector | min blocks | registers | spills | "
              "GFLOP/s | fraction of roofline | naive GFLOP/s | speedup |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        n5d, speed = [], []
        for name in sorted({k[0] for k in best if k[1] == prec}):
            r, nv = best.get((name, prec, "n5d")), best.get((name, prec, "naive"))
            g = float(r["GFLOP/s"]) if r else 0.0
            ng = float(nv["GFLOP/s"]) if nv else 0.0
            n5d.append(g)
            if g and ng:
                speed.append(g / ng)
            cols = [r.get(k, "1") for k in ("opt", "bT", "bS", "hSN", "cells")
                    ] + [halo_of(r), kvec_of(r)] + [r.get(k, "1") for k in (
                        "min_blocks", "registers", "spills", "GFLOP/s",
                        "fraction_of_roofline")] if r else [""] * 12
            print(f"| {name} | " + " | ".join(cols) +
                  f" | {ng:.0f} | " + (f"{g / ng:.2f}x |" if g and ng else " |"))
        print(f"\ngeomean {prec}: N.5D {geomean(n5d):.0f} GFLOP/s, "
              f"speedup over naive {geomean(speed):.2f}x (min "
              f"{min(speed, default=0):.2f}x)")

def model_report(a):
    """Predicted against measured: per stencil and precision, the model's
    accuracy (measured / predicted GFLOP/s, geomean over the measured
    configurations), the sweep's best, and the measured speed of the model's
    top choice and of the best of its top 5 (ranked over the measured
    configurations, and over the whole search space when those were
    measured)."""
    an5dc = a.an5dc or os.path.join(HERE, "..", "build", "bin", "an5dc")
    # A configuration is (bT, bS, hSN, cells): the model ranks one and two
    # cells per thread, and the sweeps measure both. Several CSVs may be
    # given (comma-separated); a stencil's rows should come from one run.
    measured = {}
    for path in split(a.csv):
        with open(path) as f:
            for r in csv.DictReader(f):
                if (r["scheme"] != "n5d" or r["opt"] != "auto" or not r.get("GFLOP/s")
                        or r["min_blocks"] != "0" or r["maxrreg"] != "0"
                        or r["prefetch"] != "2" or halo_of(r) != "0"
                        or kvec_of(r) != "1"):
                    continue
                if split(a.precisions) and r["precision"] not in split(a.precisions):
                    continue
                if split(a.stencils) and r["stencil"] not in split(a.stencils):
                    continue
                key = (r["stencil"], r["precision"])
                cfg = (r["bT"], r["bS"], r["hSN"], cells_of(r))
                measured.setdefault(key, {})[cfg] = float(r["GFLOP/s"])
    out_rows = []
    print("| stencil | precision | sweep best (bT, bS, hSN, cells) | GFLOP/s | model top 1 | "
          "its GFLOP/s | best of top 5 | accuracy (measured/predicted) |")
    print("|---|---|---|---|---|---|---|---|")
    top1_ok = top5_ok = space1_ok = space5_ok = space_n = 0
    accs, firsts = [], []
    for (name, prec), runs in sorted(measured.items()):
        size = grid_size(a, name)
        cells = interior_cells(name, size)
        ranking = model_ranking(an5dc, name, prec, a.gpu, size,
                                ["--model-calibration", a.calibration] if a.calibration else [])
        pred = {}
        for r in ranking:
            ms = float(r["ms_per_step"])
            pred[(r["bT"], r["bS"], r["hSN"], cells_of(r))] = (
                flop_per_cell(name) * cells / (ms * 1e-3) / 1e9, r["spills"] == "1")
        best_cfg = max(runs, key=runs.get)
        best = runs[best_cfg]
        ranked = sorted((c for c in runs if c in pred),
                        key=lambda c: (pred[c][1], -pred[c][0]))
        t1 = runs[ranked[0]] if ranked else 0.0
        t5 = max((runs[c] for c in ranked[:5]), default=0.0)
        top1_ok += t1 >= 0.9 * best
        firsts.append(t1 / best)
        top5_ok += t5 >= 0.9 * best
        ratio = [runs[c] / pred[c][0] for c in runs if c in pred]
        acc = geomean(ratio)
        accs.append(acc)
        space = [(r["bT"], r["bS"], r["hSN"], cells_of(r))
                 for r in ranking if r["spills"] == "0" and halo_of(r) == "0"
                 and kvec_of(r) == "1"][:5]
        note = ""
        if space and all(c in runs for c in space):
            space_n += 1
            space1_ok += runs[space[0]] >= 0.9 * best
            space5_ok += max(runs[c] for c in space) >= 0.9 * best
            note = " (whole space)"
        fmt = lambda c: f"{c[0]}, {c[1]}, {c[2]}" + (f", {c[3]} cells" if c[3] != "1" else "")
        print(f"| {name} | {prec} | {fmt(best_cfg)} | {best:.0f} | "
              f"{fmt(ranked[0]) if ranked else '-'} | {t1:.0f} ({t1 / best:.0%}) | "
              f"{t5:.0f} ({t5 / best:.0%}){note} | {acc:.2f} |")
        out_rows.append(dict(stencil=name, precision=prec, best=fmt(best_cfg),
                             best_gflops=f"{best:.1f}",
                             predicted_best=f"{pred.get(best_cfg, (0, 0))[0]:.1f}",
                             top1=fmt(ranked[0]) if ranked else "",
                             top1_gflops=f"{t1:.1f}", top5_gflops=f"{t5:.1f}",
                             accuracy=f"{acc:.3f}", configs=len(runs)))
    n = len(measured)
    print(f"\nmodel top 1 within 10% of the sweep's best: {top1_ok}/{n}; "
          f"best of top 5 within 10%: {top5_ok}/{n} (ranking the measured "
          f"configurations); accuracy geomean {geomean(accs):.2f}; top 1 "
          f"over best: geomean {geomean(firsts):.3f}, lowest {min(firsts):.3f}")
    if space_n:
        print(f"over the whole search space, where the model's top 5 were all "
              f"measured ({space_n} stencils): top 1 within 10%: {space1_ok}, "
              f"top 5: {space5_ok}")
    if a.out:
        with open(a.out, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(out_rows[0]))
            w.writeheader(); w.writerows(out_rows)

def run_all(a):
    generate(a)
    a.dir = a.out
    a.csv = os.path.join(a.out, "results.csv")
    measure(a)
    a.png = os.path.join(a.out, "results.png")
    plot(a)
    table(a)

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    def gen_args(g):
        g.add_argument("--out", required=True); g.add_argument("--an5dc")
        g.add_argument("--stencils", default=""); g.add_argument("--precisions", default="float,double")
        g.add_argument("--scheme", default="n5d,naive"); g.add_argument("--opt", default="auto")
        g.add_argument("--bT", default="4"); g.add_argument("--bS", default="")
        g.add_argument("--sl", default="128"); g.add_argument("--min-blocks", default="0")
        g.add_argument("--prefetch", default="2")
        g.add_argument("--cells", default="1",
                       help="cells per thread along the outer blocked "
                            "dimension (an5dc --cells), a sweep list")
        g.add_argument("--halo-rows", default="0",
                       help="3D: 1 copies level 0's halo rows along Y instead "
                            "of computing them (an5dc --halo-rows); a sweep "
                            "list of 0 and 1")
        g.add_argument("--kvec", default="1",
                       help="3D star stencils: vector cells along "
                            "the innermost dimension (an5dc --kvec), a "
                            "sweep list")
        g.add_argument("--model-top", type=int, default=0,
                       help="also generate the model's top K configurations "
                            "per stencil and precision (an5dc --model-csv)")
        g.add_argument("--gpu", default="H200")
        g.add_argument("--defaults", action="store_true",
                       help="generate what an5dc chooses with no parameters "
                            "(its model for --gpu) instead of sweeps")
        g.add_argument("--tuned", default="",
                       help="CSV of chosen parameters per stencil and precision "
                            "(e.g. benchmarks/tuned-h200.csv) instead of sweeps")
    def measure_args(m):
        m.add_argument("--size2d", type=int, default=16384); m.add_argument("--size3d", type=int, default=512)
        m.add_argument("--steps", type=int, default=1000); m.add_argument("--repeat", type=int, default=5)
        m.add_argument("--maxrreg", default="0"); m.add_argument("--check", action="store_true")
        m.add_argument("--hardware", default=os.path.join(HERE, "devices.csv"))
        m.add_argument("--device", default="H200"); m.add_argument("--resume", action="store_true")
        m.add_argument("--nvcc", default="nvcc", help="the CUDA compiler to build with")
        m.add_argument("--quick", action="store_true",
                       help=f"{QUICK_STEPS} steps and the mean of {QUICK_REPEAT} runs "
                            "(same grids, same checks) instead of --steps/--repeat: "
                            "the whole set in under 10 minutes on an H200")
    g = sub.add_parser("generate"); gen_args(g)
    g.add_argument("--size2d", type=int, default=16384); g.add_argument("--size3d", type=int, default=512)
    m = sub.add_parser("measure")
    m.add_argument("--dir", required=True); m.add_argument("--csv", required=True)
    m.add_argument("--stencils", default=""); measure_args(m)
    p = sub.add_parser("plot")
    p.add_argument("--csv", required=True); p.add_argument("--png", required=True)
    p.add_argument("--title", default="")
    t = sub.add_parser("table"); t.add_argument("--csv", required=True)
    mo = sub.add_parser("model")
    mo.add_argument("--csv", required=True,
                    help="measured CSVs, comma-separated"); mo.add_argument("--an5dc")
    mo.add_argument("--stencils", default="")
    mo.add_argument("--gpu", default="H200"); mo.add_argument("--out", default="")
    mo.add_argument("--precisions", default="")
    mo.add_argument("--calibration", default="",
                    help="OVERHEAD,LATENCY passed to an5dc --model-calibration")
    mo.add_argument("--size2d", type=int, default=16384); mo.add_argument("--size3d", type=int, default=512)
    pr = sub.add_parser("profile")
    pr.add_argument("--dir", required=True); pr.add_argument("--csv", required=True)
    pr.add_argument("--reports", required=True, help="folder for one ncu report per configuration")
    pr.add_argument("--stencils", default=""); pr.add_argument("--nvcc", default="nvcc")
    pr.add_argument("--ncu", default="ncu")
    pr.add_argument("--steps", type=int, default=0,
                    help="time steps of each run (default 2 bT + 2, so that a launch of degree bT runs)")
    pr.add_argument("--reparse", action="store_true",
                    help="read the reports already in --reports again (no GPU needed)")
    pr.add_argument("--skip", type=int, default=0,
                    help="launches of the kernel to skip before the one profiled")
    pr.add_argument("--size2d", type=int, default=16384); pr.add_argument("--size3d", type=int, default=512)
    al = sub.add_parser("all"); gen_args(al); measure_args(al)
    al.add_argument("--title", default="")
    a = ap.parse_args()
    {"generate": generate, "measure": measure, "plot": plot, "table": table,
     "model": model_report, "profile": profile, "all": run_all}[a.cmd](a)

if __name__ == "__main__":
    main()
