#!/usr/bin/env python3
"""The an5dc benchmark runner: the Table-3 stencils of the AN5D paper.

Two halves, because an5dc runs where it is built and the GPU is elsewhere:

  run.py generate --out DIR [--stencils a,b] [--precisions float,double]
                  [--bT 4,8] [--bS 128,256 | --bS 32x32,64x16] [--sl 128,256]
                  [--scheme n5d,naive]
      writes DIR/<config>.cu for every combination, plus DIR/configs.csv.

  run.py measure --dir DIR --csv OUT.csv [--size2d 16384] [--size3d 512]
                 [--steps 1000] [--repeat 5] [--maxrreg 0,64] [--check]
                 [--hardware benchmarks/devices.csv] [--device H200] [--resume]
      on a machine with a GPU: builds every file with nvcc -O3 -arch=sm_90
      (once per register limit), checks it against the CPU reference on a
      small grid first (-DAN5D_VERIFY), then runs it: one warm-up run and the
      mean of REPEAT runs of kernel time only (the generated program prints it
      when AN5D_TIMING=1). Writes one CSV row per run.

  run.py plot --csv OUT.csv --png OUT.png
      bar chart of GFLOP/s, naive vs N.5D (best configuration) per stencil.

FLOP counts are Table 3's. The roofline bound of a configuration is
min(peak FLOP/s, FLOP per cell * bT / (2 * bytes per cell) * memory bandwidth):
a launch of degree bT reads and writes each cell once.
"""
import argparse, csv, itertools, os, re, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))

def flop_per_cell(name):
    m = re.fullmatch(r"(star|box)(2|3)d(\d)r", name)
    if m:
        kind, dims, r = m.group(1), int(m.group(2)), int(m.group(3))
        if kind == "star":
            return 8 * r + 1 if dims == 2 else 12 * r + 1
        return 2 * (2 * r + 1) ** dims - 1
    return {"j2d5pt": 10, "j2d9pt": 18, "j2d9pt-gol": 18, "gradient2d": 19,
            "j3d27pt": 54}[name]

STENCILS = sorted(os.path.basename(f)[:-2] for f in os.listdir(HERE)
                  if f.endswith(".c")) if os.path.isdir(HERE) else []

def radius_of(name):
    m = re.fullmatch(r"(star|box)[23]d(\d)r", name)
    return int(m.group(2)) if m else (2 if name == "j2d9pt" else 1)

def dims_of(name):
    return 3 if "3d" in name else 2

def split(s):
    return [x for x in s.split(",") if x] if s else []

# --- generate --------------------------------------------------------------

def generate(a):
    an5dc = a.an5dc or os.path.join(HERE, "..", "build", "bin", "an5dc")
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for name in split(a.stencils) or STENCILS:
        d = dims_of(name)
        bss = split(a.bS) or (["128"] if d == 2 else ["32x32"])
        for prec, scheme in itertools.product(split(a.precisions), split(a.scheme)):
            combos = [("1", "na", "na")] if scheme == "naive" else \
                itertools.product(split(a.bT), bss, split(a.sl))
            for bt, bs, sl in combos:
                cfg = f"{name}.{prec}.{scheme}.bT{bt}.bS{bs}.sl{sl}"
                path = os.path.join(a.out, cfg + ".cu")
                cmd = [an5dc, os.path.join(HERE, name + ".c"), "-o", path]
                if scheme == "naive":
                    cmd += ["--scheme=naive"]
                else:
                    cmd += ["-bT", bt, "-bS", bs.replace("x", ","), "--sl", sl]
                if prec == "double":
                    cmd += ["--", "-DUSE_DOUBLE"]
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode != 0:
                    print(f"skip {cfg}: {r.stderr.strip().splitlines()[-1] if r.stderr else 'failed'}")
                    continue
                rows.append(dict(config=cfg, stencil=name, precision=prec,
                                 scheme=scheme, bT=bt, bS=bs, hSN=sl))
    with open(os.path.join(a.out, "configs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["config", "stencil", "precision",
                                          "scheme", "bT", "bS", "hSN"])
        w.writeheader()
        w.writerows(rows)
    print(f"generated {len(rows)} configurations in {a.out}")

# --- measure ---------------------------------------------------------------

def hardware(path, device):
    """Memory bandwidth (GB/s) and FP32/FP64 peaks (GFLOP/s) of DEVICE."""
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["device"].lower() == device.lower():
                return dict(bw=float(r["hbm_gbs"]), fp32=float(r["fp32_gflops"]),
                            fp64=float(r["fp64_gflops"]))
    raise SystemExit(f"{device} not in {path}")

def build(cu, exe, maxrreg, verify):
    cmd = ["nvcc", "-O3", "-arch=sm_90", "-Xptxas", "-v", cu, "-o", exe]
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
    hw = hardware(a.hardware, a.device)
    with open(os.path.join(a.dir, "configs.csv")) as f:
        configs = list(csv.DictReader(f))
    fields = ["stencil", "precision", "scheme", "bT", "bS", "hSN", "maxrreg",
              "registers", "spills", "check", "ms", "GFLOP/s", "GCells/s",
              "roofline_GFLOP/s", "fraction_of_roofline"]
    done = set()
    if a.resume and os.path.exists(a.csv):
        with open(a.csv) as f:
            done = {(r["stencil"], r["precision"], r["scheme"], r["bT"], r["bS"],
                     r["hSN"], r["maxrreg"]) for r in csv.DictReader(f)}
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
            key = (c["stencil"], c["precision"], c["scheme"], c["bT"], c["bS"], c["hSN"], str(rr))
            if key not in done:
                jobs.append((c, rr))
    def build_job(job):
        c, rr = job
        cu = os.path.join(a.dir, c["config"] + ".cu")
        exe = os.path.join(bindir, f"{c['config']}.r{rr}")
        ok, regs, spills, log = build(cu, exe, rr, False)
        okv = (not a.check) or build(cu, exe + ".verify", rr, True)[0]
        return job, exe, ok and okv, regs, spills, log
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as pool:
        built = list(pool.map(build_job, jobs))
    env = dict(os.environ, AN5D_TIMING="1")
    for (c, rr), exe, ok, regs, spills, log in built:
        name, d = c["stencil"], dims_of(c["stencil"])
        row = dict(stencil=name, precision=c["precision"], scheme=c["scheme"],
                   bT=c["bT"], bS=c["bS"], hSN=c["hSN"], maxrreg=rr,
                   registers=regs, spills=spills)
        if not ok:
            row["check"] = "build-failed"
            w.writerow(row); out.flush()
            print(f"{c['config']} r{rr}: build failed\n{log[-300:]}")
            continue
        size = a.size2d if d == 2 else a.size3d
        args = [str(size)] * d + [str(a.steps)]
        check = "skipped"
        if a.check:
            small = [str(200 if d == 2 else 40)] * d + ["23"]
            r = subprocess.run([exe + ".verify"] + small, capture_output=True, text=True)
            check = "pass" if r.returncode == 0 else "FAIL"
        try:
            kernel_ms(exe, args, env)  # warm-up
            ms = sum(kernel_ms(exe, args, env) for _ in range(a.repeat)) / a.repeat
        except RuntimeError as e:
            row["check"] = check + "/run-failed"
            w.writerow(row); out.flush()
            print(f"{c['config']} r{rr}: run failed: {e}")
            continue
        cells = (size - 2 * radius_of(name)) ** d  # the updated (interior) cells
        flops = flop_per_cell(name) * cells * a.steps
        gflops = flops / (ms * 1e-3) / 1e9
        word = 4 if c["precision"] == "float" else 8
        bt = int(c["bT"]) if c["scheme"] != "naive" else 1
        peak = hw["fp32"] if word == 4 else hw["fp64"]
        roof = min(peak, flop_per_cell(name) * bt / (2 * word) * hw["bw"])
        row.update(check=check, ms=f"{ms:.3f}", **{
            "GFLOP/s": f"{gflops:.1f}", "GCells/s": f"{cells * a.steps / (ms * 1e-3) / 1e9:.2f}",
            "roofline_GFLOP/s": f"{roof:.0f}", "fraction_of_roofline": f"{gflops / roof:.3f}"})
        w.writerow(row); out.flush()
        print(f"{c['config']} r{rr}: {gflops:.0f} GFLOP/s ({gflops / roof:.0%} of roofline) regs {regs} spills {spills} check {check}")
    out.close()

# --- plot ------------------------------------------------------------------

def plot(a):
    import matplotlib
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

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--out", required=True); g.add_argument("--an5dc")
    g.add_argument("--stencils", default=""); g.add_argument("--precisions", default="float,double")
    g.add_argument("--bT", default="4"); g.add_argument("--bS", default="")
    g.add_argument("--sl", default="128"); g.add_argument("--scheme", default="n5d")
    m = sub.add_parser("measure")
    m.add_argument("--dir", required=True); m.add_argument("--csv", required=True)
    m.add_argument("--stencils", default="")
    m.add_argument("--size2d", type=int, default=16384); m.add_argument("--size3d", type=int, default=512)
    m.add_argument("--steps", type=int, default=1000); m.add_argument("--repeat", type=int, default=5)
    m.add_argument("--maxrreg", default="0"); m.add_argument("--check", action="store_true")
    m.add_argument("--hardware", default=os.path.join(HERE, "devices.csv"))
    m.add_argument("--device", default="H200"); m.add_argument("--resume", action="store_true")
    p = sub.add_parser("plot")
    p.add_argument("--csv", required=True); p.add_argument("--png", required=True)
    p.add_argument("--title", default="")
    a = ap.parse_args()
    {"generate": generate, "measure": measure, "plot": plot}[a.cmd](a)

if __name__ == "__main__":
    main()
