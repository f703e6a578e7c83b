#!/usr/bin/env python3
"""Runs a stencil program both as plain C and through an5dc + the CPU
emulation of CUDA, and compares every cell of both planes.

usage: run_compare.py --an5dc AN5DC --emucc EMUCC --tmp PREFIX INPUT.c
                      [--flags "-bT 2 -bS 16"] [--double] [--tsan] [--tol T]
                      [--define NAME=VALUE ...] [--include DIR ...]
                      --run "[NAME=VALUE ...] n m T" [--run ...]

INPUT.c is a program that takes its sizes and step count as arguments, the
last argument being a file to which it writes the whole array (both planes,
raw float or double values), like the programs in benchmarks/. For every
--run the reference (cc -O1 -std=gnu11 ... -lm) and the generated program
(an5dc INPUT.c FLAGS -o PREFIX.cu; an5dc-emucc PREFIX.cu) run with the same
arguments plus an output file (the generated program also with the run's
leading NAME=VALUE environment settings); the two files must have the same size and
agree in every cell within the tolerance: |gpu - ref| <= tol * max(|ref|, 1)
with tol 1e-4 for float and 1e-10 for double (--tol sets another, e.g. the
one an5dc's header states under --fast-math); with --bitwise every cell must
hold the same bits (zeros' signs included), except that two NaNs match
whatever their sign and payload: IEEE 754 leaves those to the operation
order (x86 returns the first operand's NaN, and FMA contraction reorders
them; a GPU returns one canonical NaN). Prints one PASS/FAIL line per
run with the maximum errors; exits 1 if any run fails.

Also a module: scripts/difftest.py builds and compares through the same
functions (run, build_reference, generate, build_emulation, check_cells).

Standard library only.
"""
import argparse
import array
import math
import os
import re
import shlex
import subprocess
import sys

FLOAT_TOL = 1e-4
DOUBLE_TOL = 1e-10


class CommandError(Exception):
    """A command that exited with a non-zero status or ran past its limit."""

    def __init__(self, cmd, returncode, stdout, stderr, timed_out=False):
        Exception.__init__(self, "command failed")
        self.cmd = cmd
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        self.timed_out = timed_out

    def report(self):
        """The FAIL line naming the command, then its output."""
        status = "timed out" if self.timed_out else "exit %d" % self.returncode
        return ("FAIL: command failed (%s): %s\n" %
                (status, " ".join(shlex.quote(c) for c in self.cmd)) +
                self.stdout + self.stderr)


def run(cmd, timeout=None, **kw):
    """Runs cmd and returns the finished process; raises CommandError when
    it exits non-zero or runs longer than timeout seconds."""
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, errors="replace",
                              timeout=timeout, **kw)
    except subprocess.TimeoutExpired as e:
        def text(out):
            if isinstance(out, bytes):
                return out.decode("utf-8", "replace")
            return out or ""
        raise CommandError(cmd, None, text(e.stdout), text(e.stderr), True)
    if proc.returncode != 0:
        raise CommandError(cmd, proc.returncode, proc.stdout, proc.stderr)
    return proc


def build_reference(cc, source, exe, defines=(), cflags=(), timeout=None):
    """Builds the C program as the reference (cc -O1 -std=gnu11 ... -lm)."""
    run([cc, "-O1", "-std=gnu11", "-w"] + list(defines) + list(cflags) +
        [source, "-o", exe, "-lm"], timeout=timeout)


def generate(an5dc, source, cu, flags=(), defines=(), timeout=None):
    """an5dc SOURCE -o CU FLAGS [-- DEFINES]; returns the finished process
    (its stderr holds the warnings). FLAGS may hold their own '--' and
    parser flags after it (-- -fopenmp): DEFINES join those."""
    if os.path.exists(cu):
        os.remove(cu)
    cmd = [an5dc, source, "-o", cu] + list(flags)
    if defines:
        cmd += ([] if "--" in flags else ["--"]) + list(defines)
    return run(cmd, timeout=timeout)


def build_emulation(emucc, cu, exe, source, defines=(), tsan=False,
                    options=(), timeout=None, env=None):
    """Builds CU for the CPU emulation. The generated file keeps the user's
    '#include "..."' lines, which resolve next to SOURCE, not next to CU."""
    include = ["-I", os.path.dirname(os.path.abspath(source))]
    cmd = [emucc] + (["--tsan"] if tsan else []) + list(options) + \
        [cu, "-o", exe] + list(defines) + include
    run(cmd, timeout=timeout, env=env)


def mpi_env(env):
    """ENV for mpirun: OpenMPI refuses to start as root without these (CI
    machines run as root)."""
    env = dict(env)
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    return env


def mpi_command(ranks, exe, args, out):
    """Runs EXE ARGS OUT.<rank> on RANKS ranks (mpirun --oversubscribe):
    each rank writes its own output file."""
    return ["mpirun", "--oversubscribe", "-np", str(ranks), "sh", "-c",
            'exec "$0" "$@" "%s.$OMPI_COMM_WORLD_RANK"' % out, exe] + list(args)


def read_cells(path, typecode):
    """The cells of a raw file; ValueError when its size is not a whole
    number of cells."""
    data = array.array(typecode)
    with open(path, "rb") as f:
        raw = f.read()
    if len(raw) % data.itemsize:
        raise ValueError("%s holds %d bytes, not a whole number of cells" %
                         (path, len(raw)))
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


def check_cells(ref_out, gpu_out, double=False, bitwise=False, tol=None):
    """Compares two output files cell by cell (tol: the relative tolerance,
    by default FLOAT_TOL or DOUBLE_TOL). Returns (ok, summary, detail):
    the summary counts cells and errors, the detail (None when ok) names the
    worst or first differing cell. ValueError from read_cells."""
    typecode = "d" if double else "f"
    ref = read_cells(ref_out, typecode)
    got = read_cells(gpu_out, typecode)
    if len(ref) != len(got) or len(ref) == 0:
        return False, "%d cells from the reference, %d from an5dc" % (
            len(ref), len(got)), None
    if bitwise:
        differ = [i for i in range(len(ref))
                  if ref[i:i + 1].tobytes() != got[i:i + 1].tobytes()
                  and not (math.isnan(ref[i]) and math.isnan(got[i]))]
        summary = "%d cells, %d differ in their bits" % (len(ref), len(differ))
        if not differ:
            return True, summary, None
        i = differ[0]
        return False, summary, "  first cell %d (plane %d): reference %r, an5dc %r" % (
            i, i * 2 // len(ref), ref[i], got[i])
    if tol is None:
        tol = DOUBLE_TOL if double else FLOAT_TOL
    max_abs, max_rel, worst = compare(ref, got, tol)
    summary = "%d cells, max abs error %.3g, max rel error %.3g (tolerance %g)" % (
        len(ref), max_abs, max_rel, tol)
    if max_rel <= tol:
        return True, summary, None
    return False, summary, "  worst cell %d (plane %d): reference %r, an5dc %r" % (
        worst, worst * 2 // len(ref), ref[worst], got[worst])


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
                    help="options of the emulation build only (an5dc-emucc); "
                         "it builds at -Og unless they say otherwise (40%% "
                         "less compile time than -O1 and about the same run "
                         "time, the race check's hooks being built at -O2: "
                         "most of the suite's time is these builds)")
    ap.add_argument("--double", action="store_true",
                    help="-DUSE_DOUBLE for both builds, double tolerance")
    ap.add_argument("--define", action="append", default=[],
                    help="NAME[=VALUE]: -D for the reference build and for "
                         "an5dc (after '--'), which writes it into its output")
    ap.add_argument("--include", action="append", default=[],
                    help="DIR: -I for the reference build, for an5dc (after "
                         "'--') and for the emulation build")
    ap.add_argument("--tsan", action="store_true",
                    help="build the emulation under ThreadSanitizer")
    ap.add_argument("--tol", type=float, default=None,
                    help="relative tolerance (default 1e-4 for float, 1e-10 "
                         "for double)")
    ap.add_argument("--bitwise", action="store_true",
                    help="every cell must match bit for bit (no tolerance; "
                         "NaNs match whatever their sign and payload)")
    ap.add_argument("--show-stderr", action="store_true",
                    help="print the generated program's stderr before each "
                    "result (AN5D_VERBOSE lines)")
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--mpi", type=int, default=0, metavar="RANKS",
                    help="build the emulation with CXX=mpicxx and run it under "
                    "mpirun -np RANKS; every rank's output file must match")
    ap.add_argument("--run", action="append", required=True,
                    help="program arguments before the output file, after "
                    "NAME=VALUE words that set the generated program's "
                    "environment for this run")
    args = ap.parse_args()
    try:
        sys.exit(compare_runs(args))
    except (CommandError, ValueError) as e:
        print(e.report() if isinstance(e, CommandError) else "FAIL: %s" % e,
              end="" if isinstance(e, CommandError) else "\n")
        sys.exit(1)


def compare_runs(args):
    """Builds both programs and compares every --run; the exit status."""
    defines = ["-DUSE_DOUBLE"] if args.double else []
    includes = ["-I" + d for d in args.include]
    user_defines = defines + ["-D" + d for d in args.define]
    name = os.path.basename(args.input)
    ref_exe = args.tmp + ".ref"
    cu = args.tmp + ".cu"
    gpu_exe = args.tmp + ".emu"
    build_reference(args.cc, args.input, ref_exe, user_defines + includes,
                    shlex.split(args.cflags))
    generate(args.an5dc, args.input, cu, shlex.split(args.flags),
             user_defines + includes)
    env = dict(os.environ)
    if args.mpi:
        env = mpi_env(env)
        env["CXX"] = "mpicxx"
    build_emulation(args.emucc, cu, gpu_exe, args.input, defines + includes,
                    args.tsan, options=["-Og"] + shlex.split(args.emuflags),
                    env=env)

    if args.tsan:
        env["TSAN_OPTIONS"] = "halt_on_error=1 exitcode=66"
    failed = 0
    for spec in args.run:
        prog_args = shlex.split(spec)
        # Leading NAME=VALUE words set the environment of this run only.
        run_env = dict(env)
        while prog_args and re.match(r"[A-Za-z_][A-Za-z0-9_]*=", prog_args[0]):
            key, value = prog_args.pop(0).split("=", 1)
            run_env[key] = value
        ref_out = args.tmp + ".ref.bin"
        gpu_out = args.tmp + ".emu.bin"
        outs = ["%s.%d" % (gpu_out, r) for r in range(args.mpi)] if args.mpi \
            else [gpu_out]
        for path in [ref_out] + outs:
            if os.path.exists(path):
                os.remove(path)
        run([ref_exe] + prog_args + [ref_out])
        if args.mpi:
            proc = run(mpi_command(args.mpi, gpu_exe, prog_args, gpu_out), env=run_env)
        else:
            proc = run([gpu_exe] + prog_args + [gpu_out], env=run_env)
        if args.tsan and "ThreadSanitizer" in proc.stderr:
            print("FAIL: %s %s [%s]: ThreadSanitizer report" % (name, spec, args.flags))
            sys.stdout.write(proc.stderr)
            failed += 1
            continue
        if args.show_stderr:
            sys.stdout.write(proc.stderr)
        for rank, out in enumerate(outs):
            label = "%s %s%s [%s]%s" % (name, spec, " double" if args.double else "",
                                         args.flags,
                                         " rank %d of %d" % (rank, args.mpi) if args.mpi
                                         else "")
            ok, summary, detail = check_cells(ref_out, out, args.double,
                                              args.bitwise, args.tol)
            print("%s: %s: %s" % ("PASS" if ok else "FAIL", label, summary))
            if detail:
                print(detail)
            failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    main()
