#!/usr/bin/env python3
"""Runs a stencil program both as plain C and through an5dc + the CPU
emulation of CUDA, and compares every cell of both planes.

usage: run_compare.py --an5dc AN5DC --emucc EMUCC --tmp PREFIX INPUT.c
                      [--flags "-bT 2 -bS 16"] [--double] [--tsan]
                      --run "n m T" [--run ...]

INPUT.c is a program that takes its sizes and step count as arguments, the
last argument being a file to which it writes the whole array (both planes,
raw float or double values), like the programs in benchmarks/. For every
--run the reference (cc -O1 -std=gnu11 ... -lm) and the generated program
(an5dc INPUT.c FLAGS -o PREFIX.cu; an5dc-emucc PREFIX.cu) run with the same
arguments plus an output file; the two files must have the same size and
agree in every cell within the tolerance: |gpu - ref| <= tol * max(|ref|, 1)
with tol 1e-4 for float and 1e-10 for double; with --bitwise every cell must
hold the same bits (zeros' signs included). Prints one PASS/FAIL line per
run with the maximum errors; exits 1 if any run fails.

Standard library only.
"""
import argparse
import array
import math
import os
import shlex
import subprocess
import sys

FLOAT_TOL = 1e-4
DOUBLE_TOL = 1e-10


def run(cmd, **kw):
    """Runs cmd; on failure prints it with its output and exits 1."""
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)
    if proc.returncode != 0:
        print("FAIL: command failed (exit %d): %s" %
              (proc.returncode, " ".join(shlex.quote(c) for c in cmd)))
        sys.stdout.write(proc.stdout)
        sys.stdout.write(proc.stderr)
        sys.exit(1)
    return proc


def read_cells(path, typecode):
    data = array.array(typecode)
    with open(path, "rb") as f:
        raw = f.read()
    if len(raw) % data.itemsize:
        print("FAIL: %s holds %d bytes, not a whole number of cells" % (path, len(raw)))
        sys.exit(1)
    data.frombytes(raw)
    return data


def compare(ref, got, tol):
    """Max absolute and relative error; relative to max(|ref|, 1)."""
    max_abs = 0.0
    max_rel = 0.0
    worst = -1
    for idx, (r, g) in enumerate(zip(ref, got)):
        err = abs(g - r)
        if math.isnan(err):
            err = math.inf
        rel = err / max(abs(r), 1.0)
        if rel > max_rel or (worst < 0 and rel > tol):
            max_rel = rel
            worst = idx
        max_abs = max(max_abs, err)
    return max_abs, max_rel, worst


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("--an5dc", required=True)
    ap.add_argument("--emucc", required=True)
    ap.add_argument("--tmp", required=True, help="prefix for temporary files")
    ap.add_argument("--flags", default="", help="an5dc options")
    ap.add_argument("--cflags", default="",
                    help="options of the reference C build only (the generated "
                         "file must carry what it needs itself)")
    ap.add_argument("--emuflags", default="",
                    help="options of the emulation build only (an5dc-emucc)")
    ap.add_argument("--double", action="store_true",
                    help="-DUSE_DOUBLE for both builds, double tolerance")
    ap.add_argument("--tsan", action="store_true",
                    help="build the emulation under ThreadSanitizer")
    ap.add_argument("--bitwise", action="store_true",
                    help="every cell must match bit for bit (no tolerance)")
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--run", action="append", required=True,
                    help="program arguments before the output file")
    args = ap.parse_args()

    defines = ["-DUSE_DOUBLE"] if args.double else []
    tol = DOUBLE_TOL if args.double else FLOAT_TOL
    typecode = "d" if args.double else "f"
    name = os.path.basename(args.input)

    ref_exe = args.tmp + ".ref"
    cu = args.tmp + ".cu"
    gpu_exe = args.tmp + ".emu"
    run([args.cc, "-O1", "-std=gnu11", "-w"] + defines +
        shlex.split(args.cflags) + [args.input, "-o", ref_exe, "-lm"])
    if os.path.exists(cu):
        os.remove(cu)
    an5dc_cmd = [args.an5dc, args.input, "-o", cu] + shlex.split(args.flags)
    if defines:
        an5dc_cmd += ["--"] + defines
    run(an5dc_cmd)
    # The generated file keeps the user's '#include "..."' lines; they
    # resolve next to the input, not next to the generated file.
    include = ["-I", os.path.dirname(os.path.abspath(args.input))]
    emucc_cmd = ([args.emucc, cu, "-o", gpu_exe] + defines + include +
                 shlex.split(args.emuflags))
    if args.tsan:
        emucc_cmd.insert(1, "--tsan")
    run(emucc_cmd)

    env = dict(os.environ)
    if args.tsan:
        env["TSAN_OPTIONS"] = "halt_on_error=1 exitcode=66"
    failed = 0
    for spec in args.run:
        prog_args = shlex.split(spec)
        ref_out = args.tmp + ".ref.bin"
        gpu_out = args.tmp + ".emu.bin"
        for path in (ref_out, gpu_out):
            if os.path.exists(path):
                os.remove(path)
        run([ref_exe] + prog_args + [ref_out])
        proc = run([gpu_exe] + prog_args + [gpu_out], env=env)
        if args.tsan and "ThreadSanitizer" in proc.stderr:
            print("FAIL: %s %s [%s]: ThreadSanitizer report" % (name, spec, args.flags))
            sys.stdout.write(proc.stderr)
            failed += 1
            continue
        ref = read_cells(ref_out, typecode)
        got = read_cells(gpu_out, typecode)
        label = "%s %s%s [%s]" % (name, spec, " double" if args.double else "",
                                   args.flags)
        if len(ref) != len(got) or len(ref) == 0:
            print("FAIL: %s: %d cells from the reference, %d from an5dc" %
                  (label, len(ref), len(got)))
            failed += 1
            continue
        if args.bitwise:
            differ = [i for i in range(len(ref))
                      if ref[i:i + 1].tobytes() != got[i:i + 1].tobytes()]
            print("%s: %s: %d cells, %d differ in their bits" %
                  ("FAIL" if differ else "PASS", label, len(ref), len(differ)))
            if differ:
                i = differ[0]
                print("  first cell %d (plane %d): reference %r, an5dc %r" %
                      (i, i * 2 // len(ref), ref[i], got[i]))
                failed += 1
            continue
        max_abs, max_rel, worst = compare(ref, got, tol)
        ok = max_rel <= tol
        print("%s: %s: %d cells, max abs error %.3g, max rel error %.3g (tolerance %g)" %
              ("PASS" if ok else "FAIL", label, len(ref), max_abs, max_rel, tol))
        if not ok:
            print("  worst cell %d (plane %d): reference %r, an5dc %r" %
                  (worst, worst * 2 // len(ref), ref[worst], got[worst]))
            failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
