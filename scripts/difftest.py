#!/usr/bin/env python3
"""Random-stencil differential tester for an5dc.

Generates valid stencil programs over the accepted input forms
(scripts/difftest_gen.py: declaration forms, iterator and loop-header forms,
parities, reaches and shapes, coefficients, scalars, math calls), runs each
as plain C and through an5dc + the CPU emulation (an5dc-emucc) under a few
random option sets (--opt, --scheme=naive, -bT, -bS, --sl, --cells,
--halo-rows, --kvec, --prefetch, --async-prefetch, --sm-vec), on grids from
1 cell wide and 0 steps up, and compares both planes of every cell with
test/Execution/run_compare.py's tolerance (1e-4 float, 1e-10 double,
relative to max(|ref|, 1)).

  scripts/difftest.py --smoke            # fixed seed, 24 programs, ~2-3 min on 2 cores
  scripts/difftest.py --long 1000 -j1    # 1000 programs, seed 1 unless --seed
  scripts/difftest.py --count 50 --seed 7 -j2 --out failures/
  scripts/difftest.py --seed 7 --only 12 --print   # print program 12 of seed 7
  scripts/difftest.py --count 50 --seed 7 --bitwise  # every cell bit for bit
  scripts/difftest.py --count 50 --slabs --max-steps 20  # runs also in 2-4 slabs
  scripts/difftest.py --count 50 --mpi --max-steps 20    # and with --mpi on 2-3 ranks

A failure is a mismatch, a crash (an5dc exiting other than 0 or 1, the
generated program dying), a hang (--timeout), generated code that does not
compile, or an unexpected refusal: an5dc rejecting a generated program, or
refusing --opt=star, --opt=assoc or --kvec where the program's form says
they apply (refusals of option values, say a -bS too small for -bT, are
counted and skipped). Each failure is minimized (smaller grid and step
count, fewer options, fewer terms, the simplest forms) and written to
--out/SEED-INDEX-KIND/ as prog.c with failure.txt (what failed, the exact
commands) and repro.sh (the run_compare.py command). Failures in the class
of the associative kernel's known bug (every read on rows above the cell)
are labelled "known class".

Program INDEX of seed S is drawn from its own generator seeded "S:INDEX",
so a run is deterministic for a seed whatever -j is, and --only INDEX
replays one program. The emulation is built at -O0 (--emu-opt) to keep a
program's cost near 2 s per option set. Prints one line per failure and a
summary line; exits 1 when anything failed.

Standard library only (python3 >= 3.6).
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shlex
import shutil
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "test", "Execution"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import run_compare as rc  # noqa: E402
import difftest_gen as gen  # noqa: E402

SMOKE_SEED = 197  # passes today; see docs/verification.md for seeds that do not
SMOKE_COUNT = 24
SPARE_SETS = 3  # option sets drawn to replace refused ones


class Failure(Exception):
    """What went wrong with one program, option set and run."""

    def __init__(self, kind, detail, flags, run=None):
        Exception.__init__(self, kind)
        self.kind = kind
        self.detail = detail
        self.flags = flags
        self.run = run


# --- Option sets and runs ------------------------------------------------------

def draw_flags(rng, p, f):
    """One random option set (a list of an5dc arguments) for program p with
    facts f; only kernels the form allows."""
    if rng.random() < 0.12:
        return ["--scheme=naive"]
    if rng.random() < 0.04:
        return []  # the defaults: every degree, the model's choices
    flags = []
    kernels = ["auto", "none"] + (["star"] if f["diag_free"] else []) + \
        (["assoc"] if f["assoc"] else [])
    k = rng.choice(kernels + ["omit"])
    if k != "omit":
        flags.append("--opt=" + k)
    bt = rng.choice([1, 1, 2, 2, 3, 4])
    flags += ["-bT", str(bt)]
    if p["dims"] <= 2:
        if rng.random() < 0.8:
            flags += ["-bS", str(rng.choice([8, 16, 16, 24, 32, 64]))]
    elif rng.random() < 0.8:
        flags += ["-bS", "%d,%d" % (rng.choice([8, 16, 32]), rng.choice([4, 8, 16]))]
    if rng.random() < 0.5:
        flags += ["--sl", str(rng.randint(1, 8))]
    if rng.random() < 0.4:
        flags.append("--cells=%d" % rng.choice([1, 2] + ([4] if p["dims"] == 3 else [])))
    if p["dims"] == 3 and rng.random() < 0.3:
        flags.append(rng.choice(["--halo-rows", "--halo-rows=false"]))
    if p["dims"] == 3 and f["diag_free"] and k in ("auto", "star", "omit") and \
            rng.random() < 0.3:
        flags.append("--kvec=%d" % (4 if p["elem"] == "float" else 2))
    if rng.random() < 0.25:
        flags.append("--prefetch=%d" % rng.randint(0, 3))
    if rng.random() < 0.2:
        flags.append("--async-prefetch=false")
    if rng.random() < 0.1:
        flags.append("--sm-vec")
    return flags


def draw_runs(rng, p, count, max2d, max3d, max_steps):
    """count runs (sizes, t0, steps): the first on a tiny grid, the step
    counts 0, 1, 2 and odd and even larger ones."""
    top = max2d if p["dims"] <= 2 else max3d
    bound = gen.steps_bound(p)
    limit = min(max_steps, bound) if bound else max_steps
    runs = []
    for r in range(count):
        if p["fixed"]:
            sizes = list(p["fixed"])
        elif r == 0:
            sizes = [rng.randint(1, 3) if rng.random() < 0.6 else rng.randint(1, top)
                     for _ in range(p["dims"])]
        else:
            sizes = [rng.choice([1, 2, 3]) if rng.random() < 0.1 else rng.randint(4, top)
                     for _ in range(p["dims"])]
        steps = rng.choice([0, 1, 2, rng.randint(3, limit), rng.randint(3, limit)])
        runs.append([sizes, rng.randint(0, 3), min(steps, limit)])
    return runs


def kernel_of(p, flags):
    """The kernel an option set asks for ("naive", "star", "assoc", "none"
    or what auto picks by the form: star when diagonal-free, else assoc)."""
    if "--scheme=naive" in flags:
        return "naive"
    for a in flags:
        if a.startswith("--opt=") and a != "--opt=auto":
            return a[len("--opt="):]
    return "star" if gen.facts(p)["diag_free"] else "assoc"


def known_class(p, flags, kind):
    """The associative kernel's known bug: every read on rows above."""
    return kind == "mismatch" and gen.facts(p)["rows_above_only"] and \
        kernel_of(p, flags) == "assoc"


# --- Running one program -------------------------------------------------------

class Tools:
    def __init__(self, args):
        self.an5dc = args.an5dc
        self.emucc = args.emucc
        self.cc = args.cc
        self.timeout = args.timeout
        self.emu_opt = args.emu_opt
        self.bitwise = getattr(args, "bitwise", False)
        self.slabs = getattr(args, "slabs", False)
        self.mpi = getattr(args, "mpi", False)


CLANG_ERROR = re.compile(r"^\S+:\d+:\d+: error: .*\[([a-z-]+)\]$", re.M)


def refusal(p, flags, err):
    """None when an exit 1 of an5dc under flags is an expected refusal of an
    option value, else why it is a failure."""
    f = gen.facts(p)
    if not flags:
        return "an5dc refused the program with its default options"
    tags = CLANG_ERROR.findall(err)
    if tags and set(tags) != {"opt-not-applicable"}:
        return "an5dc rejected a valid program"
    if tags:
        if ("--opt=assoc" in flags and f["assoc"]) or \
                ("--opt=star" in flags and f["diag_free"]) or \
                (any(a.startswith("--kvec") for a in flags) and f["diag_free"]):
            return "an5dc refused a kernel that the form allows"
        return None
    if "an5dc: error:" in err:
        return None
    return "an5dc exited 1 without a diagnostic"


class Builder:
    """Builds a program's reference once and its generated code once per
    option set, in its own folder; runs and compares."""

    def __init__(self, tools, p, work):
        self.t = tools
        self.p = p
        self.work = work
        os.makedirs(work, exist_ok=True)
        self.src = os.path.join(work, "prog.c")
        with open(self.src, "w") as fh:
            fh.write(gen.render(p))
        self.both, self.cmdline = gen.defines(p)
        self.double = p["elem"] == "double"
        self.ref = None
        self.emus = {}

    def check_accepted(self):
        """The program itself must be accepted (no -o: an5dc stops after the
        analysis)."""
        try:
            rc.run([self.t.an5dc, self.src, "--"] + self.both + self.cmdline,
                   timeout=self.t.timeout)
        except rc.CommandError as e:
            kind = "timeout" if e.timed_out else ("rejected" if e.returncode == 1 else "crash")
            raise Failure(kind, e.report(), [])

    def reference(self):
        if self.ref is None:
            exe = os.path.join(self.work, "ref")
            try:
                rc.build_reference(self.t.cc, self.src, exe, self.both, self.cmdline,
                                   timeout=self.t.timeout)
            except rc.CommandError as e:
                raise Failure("tester", "the reference does not build:\n" + e.report(), [])
            self.ref = exe
        return self.ref

    def emulation(self, flags, mpi=False):
        """The emulated program for flags (built with --mpi and mpicxx when
        mpi); None for a refused option value."""
        key = " ".join(flags) + (" --mpi" if mpi else "")
        if key in self.emus:
            return self.emus[key]
        n = len(self.emus)
        cu = os.path.join(self.work, "gen%d.cu" % n)
        exe = os.path.join(self.work, "emu%d" % n)
        try:
            rc.generate(self.t.an5dc, self.src, cu, flags + (["--mpi"] if mpi else []),
                        self.both + self.cmdline, timeout=self.t.timeout)
        except rc.CommandError as e:
            if e.timed_out:
                raise Failure("timeout", e.report(), flags)
            if e.returncode != 1:
                raise Failure("crash", e.report(), flags)
            why = refusal(self.p, flags, e.stderr)
            if why:
                raise Failure("refused", why + "\n" + e.report(), flags)
            self.emus[key] = None
            return None
        try:
            rc.build_emulation(self.t.emucc, cu, exe, self.src, self.both,
                               options=[self.t.emu_opt], timeout=4 * self.t.timeout,
                               env=dict(rc.mpi_env(os.environ), CXX="mpicxx") if mpi
                               else None)
        except rc.CommandError as e:
            raise Failure("timeout" if e.timed_out else "compile", e.report(), flags)
        self.emus[key] = exe
        return exe

    def check_run(self, flags, run):
        """Runs both programs for one run and compares; raises Failure."""
        ref = self.reference()
        emu = self.emulation(flags)
        if emu is None:
            return False
        args = gen.program_args(self.p, *run)
        ref_out = os.path.join(self.work, "ref.bin")
        emu_out = os.path.join(self.work, "emu.bin")
        for path in (ref_out, emu_out):
            if os.path.exists(path):
                os.remove(path)
        try:
            rc.run([ref] + args + [ref_out], timeout=self.t.timeout)
        except rc.CommandError as e:
            raise Failure("tester", "the reference fails:\n" + e.report(), flags, run)
        # With --slabs, each run also in 2 to 4 slabs on two emulated devices
        # (the count from the run, so a replay takes the same one).
        envs = [None]
        if self.t.slabs:
            gpus = 2 + (sum(run[0]) + run[1] + run[2]) % 3
            envs.append({"AN5D_GPUS": str(gpus), "AN5D_EMU_DEVICES": "2"})
        for extra in envs:
            where = "" if extra is None else " (with %s)" % " ".join(
                "%s=%s" % kv for kv in sorted(extra.items()))
            env = None if extra is None else dict(os.environ, **extra)
            if os.path.exists(emu_out):
                os.remove(emu_out)
            try:
                rc.run([emu] + args + [emu_out], timeout=self.t.timeout, env=env)
            except rc.CommandError as e:
                raise Failure("timeout" if e.timed_out else "crash", e.report() + where,
                              flags, run)
            try:
                ok, summary, detail = rc.check_cells(ref_out, emu_out, self.double,
                                                     bitwise=self.t.bitwise)
            except ValueError as e:
                raise Failure("mismatch", str(e) + where, flags, run)
            if not ok:
                raise Failure("mismatch", summary + where + ("\n" + detail if detail else ""),
                              flags, run)
        if self.t.mpi:
            self.check_mpi_run(flags, run, args, ref_out)
        return True

    def check_mpi_run(self, flags, run, args, ref_out):
        """The run again from the file built with --mpi, on 2 or 3 ranks
        under mpirun (the count from the run, as for --slabs): every rank's
        output must match the C program's."""
        emu = self.emulation(flags, mpi=True)
        ranks = 2 + (sum(run[0]) + run[1] + run[2]) % 2
        where = " (with --mpi on %d ranks)" % ranks
        out = os.path.join(self.work, "mpi.bin")
        outs = ["%s.%d" % (out, r) for r in range(ranks)]
        for path in outs:
            if os.path.exists(path):
                os.remove(path)
        try:
            rc.run(rc.mpi_command(ranks, emu, args, out), timeout=self.t.timeout,
                   env=rc.mpi_env(os.environ))
        except rc.CommandError as e:
            raise Failure("timeout" if e.timed_out else "crash", e.report() + where,
                          flags, run)
        for rank, path in enumerate(outs):
            try:
                ok, summary, detail = rc.check_cells(ref_out, path, self.double,
                                                     bitwise=self.t.bitwise)
            except ValueError as e:
                raise Failure("mismatch", str(e) + where, flags, run)
            if not ok:
                raise Failure("mismatch", "rank %d: %s%s%s" % (
                    rank, summary, where, "\n" + detail if detail else ""), flags, run)


def check(tools, p, sets, runs, work, stats=None, want=None):
    """Builds p under the option sets in order until want of them (default
    all) are built, runs and compares every run under each; raises Failure
    at the first failure. A refused option set is replaced by the next.
    stats counts option sets built and refused and runs compared."""
    b = Builder(tools, p, work)
    b.check_accepted()
    want = len(sets) if want is None else want
    built = refused = compared = 0
    for flags in sets:
        if built == want:
            break
        if b.emulation(flags) is None:
            refused += 1
            continue
        built += 1
        for run in runs:
            if b.check_run(flags, run):
                compared += 1
    if stats is not None:
        with stats["lock"]:
            stats["runs"] += compared
            stats["sets"] += built
            stats["refused"] += refused
    return b


# --- Minimization --------------------------------------------------------------

def simpler_programs(p):
    """Smaller or plainer variants of p, most promising first."""
    out = []
    terms = p["terms"]
    for n in range(len(terms)):
        q = gen.clone(p)
        del q["terms"][n]
        if any(t["reads"] for t in q["terms"]):
            out.append(q)
    for n, t in enumerate(terms):
        if t["kind"] != "mul" and t["reads"]:
            q = gen.clone(p)
            q["terms"][n] = {"kind": "mul", "sign": t["sign"], "c": 0.5,
                             "reads": [t["reads"][0]], "w": 0.5}
            out.append(q)
    plain_decl = "array-param" if p["form"] == "turns" else "ptr-param"
    for key, plain in (("form", "plane"), ("factor", None), ("scalars", []), ("decl", plain_decl),
                       ("outer_iters", False), ("t_start", 0), ("parity", "mod"),
                       ("typedef", False), ("f_forms", False),
                       ("array", "A"), ("iters", ["t", "i", "j", "k"][:p["dims"] + 1]),
                       ("heads", [["<", "++"]] * (p["dims"] + 1))):
        if p[key] != plain:
            q = gen.clone(p)
            q[key] = plain
            if key == "scalars":
                for t in q["terms"]:
                    t.pop("scalar", None)
            if key == "decl" and p["fixed"]:
                q["fixed"] = None
                q["planes"] = 2
            if key == "form":
                q["decl"] = "ptr-param" if q["fixed"] is None else "fixed-param"
            out.append(q)
    plain = ["t", "i", "j", "k"][:p["dims"] + 1]
    for d, name in enumerate(p["iters"]):
        if name != plain[d] and plain[d] not in p["iters"] and plain[d] != p["array"]:
            q = gen.clone(p)
            q["iters"][d] = plain[d]
            out.append(q)
    reads = [o for t in terms for o in t["reads"]]
    lo = [max([0] + [-o[d] for o in reads]) for d in range(p["dims"])]
    hi = [max([0] + [o[d] for o in reads]) for d in range(p["dims"])]
    if (lo, hi) != (p["lo"], p["hi"]):
        q = gen.clone(p)
        q["lo"], q["hi"] = lo, hi
        out.append(q)
    return out


def simpler_flags(flags):
    out = []
    groups = []
    i = 0
    while i < len(flags):
        if flags[i] in ("-bT", "-bS", "--sl") and i + 1 < len(flags):
            groups.append(flags[i:i + 2])
            i += 2
        else:
            groups.append(flags[i:i + 1])
            i += 1
    for n, g in enumerate(groups):
        if g[0] == "-bT":
            if g[1] != "1":
                out.append(sum(groups[:n], []) + ["-bT", "1"] + sum(groups[n + 1:], []))
            continue  # keep a degree: without one every degree is compiled
        out.append(sum(groups[:n] + groups[n + 1:], []))
    return out


def simpler_runs(p, run):
    sizes, t0, steps = run
    out = []
    for s in sorted({0, 1, 2, steps // 2, steps - 1}):
        if 0 <= s < steps:
            out.append([sizes, t0, s])
    if t0:
        out.append([sizes, 0, steps])
    if not p["fixed"]:
        for d in range(len(sizes)):
            for v in sorted({1, 2, 3, p["lo"][d] + p["hi"][d] + 1, sizes[d] // 2,
                             sizes[d] - 1}):
                if 1 <= v < sizes[d]:
                    out.append([sizes[:d] + [v] + sizes[d + 1:], t0, steps])
    else:
        for d in range(len(sizes)):
            v = p["lo"][d] + p["hi"][d] + 1
            for w in sorted({v, sizes[d] // 2, sizes[d] - 1}):
                if v <= w < sizes[d]:
                    out.append(("fixed", d, w))
    return out


def minimize(tools, p, fail, work, budget):
    """Shrinks (p, flags, run) while the same kind of failure remains;
    budget: the most builds to try. Returns (p, flags, run, detail)."""
    flags, run, detail = fail.flags, fail.run, fail.detail
    attempts = [0]

    def fails(q, fl, rn):
        attempts[0] += 1
        d = os.path.join(work, "m%d" % attempts[0])
        try:
            check(tools, q, [fl], [rn] if rn else [], d)
        except Failure as e:
            return e if e.kind == fail.kind else None
        finally:
            shutil.rmtree(d, ignore_errors=True)
        return None

    if run is None:  # an5dc or the build failed: no run to shrink
        changed = True
        while changed and attempts[0] < budget:
            changed = False
            for q in simpler_programs(p):
                e = fails(q, flags, None) if attempts[0] < budget else None
                if e:
                    p, detail, changed = q, e.detail, True
                    break
        return p, flags, run, detail
    # Runs first: they reuse the binaries.
    b = Builder(tools, p, os.path.join(work, "runs"))
    changed = True
    while changed:
        changed = False
        for r in simpler_runs(p, run):
            if r[0] == "fixed":
                continue
            try:
                b.check_run(flags, r)
            except Failure as e:
                if e.kind == fail.kind:
                    run, detail, changed = r, e.detail, True
                    break
    changed = True
    while changed and attempts[0] < budget:
        changed = False
        cands = [(p, fl) for fl in simpler_flags(flags)] + \
            [(q, flags) for q in simpler_programs(p)]
        for r in simpler_runs(p, run):
            if r[0] == "fixed":
                q = gen.clone(p)
                q["fixed"][r[1]] = r[2]
                cands.append((q, flags))
        for q, fl in cands:
            if attempts[0] >= budget:
                break
            rn = run
            if q["fixed"] is None and p["fixed"]:
                rn = [list(p["fixed"]), run[1], run[2]]
            elif q["fixed"]:
                rn = [list(q["fixed"]), run[1], run[2]]
            e = fails(q, fl, rn)
            if e:
                p, flags, run, detail, changed = q, fl, rn, e.detail, True
                break
        if changed and attempts[0] < budget:
            b = Builder(tools, p, os.path.join(work, "runs%d" % attempts[0]))
            for r in simpler_runs(p, run):
                if r[0] == "fixed":
                    continue
                try:
                    b.check_run(flags, r)
                except Failure as e:
                    if e.kind == fail.kind:
                        run, detail = r, e.detail
    return p, flags, run, detail


def write_failure(out, seed, index, kind, p, flags, run, detail, original, tools):
    """Writes the minimized program and how to reproduce it; returns the folder."""
    d = os.path.join(out, "%d-%d-%s" % (seed, index, kind))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "prog.c"), "w") as fh:
        fh.write(gen.render(p))
    with open(os.path.join(d, "original.c"), "w") as fh:
        fh.write(gen.render(original))
    with open(os.path.join(d, "prog.json"), "w") as fh:
        json.dump(p, fh, indent=1, sort_keys=True)
    both, cmdline = gen.defines(p)
    defs = both + cmdline
    # A failure of the --mpi file: its repro builds and runs that one.
    ranks = re.search(r"\(with --mpi on (\d+) ranks\)", detail or "")
    if ranks:
        flags = flags + ["--mpi"]
    an5dc = [tools.an5dc, "prog.c", "-o", "prog.cu"] + flags + (["--"] + defs if defs else [])
    args = gen.program_args(p, *run) if run else []
    compare = ["python3", os.path.join(ROOT, "test", "Execution", "run_compare.py"),
               "--an5dc", tools.an5dc, "--emucc", tools.emucc, "--tmp", "/tmp/difftest-repro",
               "prog.c", "--flags=" + " ".join(flags + (["--"] + cmdline if cmdline else []))]
    if cmdline:
        compare.append("--cflags=" + " ".join(cmdline))
    if p["elem"] == "double":
        compare.append("--double")
    if ranks:
        compare += ["--mpi", ranks.group(1)]
    if run:
        compare += ["--run", " ".join(args)]
    else:  # it fails before it runs: an5dc, then the emulation's build
        compare = an5dc + ["&&", tools.emucc, "prog.cu", "-o", "prog.emu"] + both
    with open(os.path.join(d, "repro.sh"), "w") as fh:
        fh.write("#!/bin/sh\n# %s (seed %d, program %d)\ncd \"$(dirname \"$0\")\"\n%s\n" % (
            kind, seed, index, " ".join(c if c == "&&" else shlex.quote(c) for c in compare)))
    with open(os.path.join(d, "failure.txt"), "w") as fh:
        fh.write("kind: %s%s\nseed %d, program %d (scripts/difftest.py --seed %d --only %d)\n"
                 % (kind, " (known class: assoc kernel, rows above only)"
                    if known_class(p, flags, kind) else "", seed, index, seed, index))
        fh.write("an5dc: %s\n" % " ".join(shlex.quote(c) for c in an5dc))
        fh.write("program arguments: %s\n\n%s\n" % (
            " ".join(args) + " OUT" if run else "(fails before it runs)", detail))
    return d


# --- Driver --------------------------------------------------------------------

def plan(args, index):
    """Program index of the seed, its option sets and runs."""
    rng = random.Random("%d:%d" % (args.seed, index))
    # One 2D program in five becomes 1D (its own stream: the others are
    # drawn as before 1D stencils were accepted).
    one_d = random.Random("%d:%d:1d" % (args.seed, index)).random() < 0.2
    # The form of the double buffer, and its own choices, from a stream of
    # their own: the program's other draws stay those of a plane program.
    frng = random.Random("%d:%d:form" % (args.seed, index))
    form = gen.pick_weighted(frng, gen.FORMS)
    p = gen.generate(rng, args.max2d, args.max3d, one_d, form, frng)
    f = gen.facts(p)
    if getattr(args, "bitwise", False):
        # --opt=assoc reassociates sums written out of row order.
        f = dict(f, assoc=f["assoc_exact"])
    sets = []
    for _ in range(args.sets + SPARE_SETS):
        fl = draw_flags(rng, p, f)
        if fl not in sets:
            sets.append(fl)
    # The defaults last: a program whose drawn sets are all refused for
    # their values (a reach too wide for the blocks drawn) is still run.
    if [] not in sets:
        sets.append([])
    runs = draw_runs(rng, p, args.runs, args.max2d, args.max3d, args.max_steps)
    if (getattr(args, "slabs", False) or getattr(args, "mpi", False)) and not p["fixed"]:
        # Two more runs deep along the streaming dimension and long enough
        # for slab rounds between the first and the last two (their own
        # stream: the runs above stay those of a plain run).
        srng = random.Random("%d:%d:slabs" % (args.seed, index))
        top = args.max2d if p["dims"] <= 2 else args.max3d
        bound = gen.steps_bound(p)
        limit = min(args.max_steps, bound) if bound else args.max_steps
        for _ in range(2):
            sizes = [srng.randint(2 * top, 4 * top)] + \
                [srng.randint(4, top) for _ in range(p["dims"] - 1)]
            runs.append([sizes, srng.randint(0, 3), srng.randint(min(4, limit), limit)])
    return p, sets, runs


def test_one(args, tools, index, stats, work):
    """Tests program index; returns a report line, or None when it passed."""
    p, sets, runs = plan(args, index)
    d = os.path.join(work, "p%d" % index)
    try:
        check(tools, p, sets, runs, d, stats, args.sets)
        return None
    except Failure as e:
        fail = e
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if args.no_minimize:
        q, flags, run, detail = p, fail.flags, fail.run, fail.detail
    else:
        q, flags, run, detail = minimize(tools, p, fail, os.path.join(work, "min%d" % index),
                                         args.min_budget)
        shutil.rmtree(os.path.join(work, "min%d" % index), ignore_errors=True)
    folder = write_failure(args.out, args.seed, index, fail.kind, q, flags, run, detail, p, tools)
    known = known_class(q, flags, fail.kind)
    with stats["lock"]:
        stats["known" if known else "new"] += 1
    return "FAIL %s%s: seed %d program %d [%s] %s -> %s\n  %s" % (
        fail.kind, " (known class)" if known else "", args.seed, index, " ".join(flags),
        " ".join(gen.program_args(q, *run)) if run else "", folder,
        detail.strip().splitlines()[0] if detail.strip() else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.splitlines()[2:]))
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--smoke", action="store_true",
                      help="seed %d, %d programs (the lit test's run)" % (SMOKE_SEED, SMOKE_COUNT))
    mode.add_argument("--long", type=int, metavar="N", help="N programs")
    mode.add_argument("--count", type=int, metavar="N", help="N programs (as --long)")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--first", type=int, default=0, help="index of the first program")
    ap.add_argument("--only", type=int, action="append", help="test only this program index")
    ap.add_argument("--print", action="store_true", help="print the programs (with --only) and stop")
    ap.add_argument("-j", type=int, default=2, help="programs tested at once (default 2)")
    ap.add_argument("--sets", type=int, default=2, help="option sets per program (default 2)")
    ap.add_argument("--runs", type=int, default=3, help="runs per option set (default 3)")
    ap.add_argument("--max2d", type=int, default=40, help="largest 2D extent (default 40)")
    ap.add_argument("--max3d", type=int, default=12, help="largest 3D extent (default 12)")
    ap.add_argument("--max-steps", type=int, default=9, help="most steps (default 9)")
    ap.add_argument("--timeout", type=float, default=60, help="seconds per command (default 60)")
    ap.add_argument("--min-budget", type=int, default=40,
                    help="most builds a minimization tries (default 40)")
    ap.add_argument("--no-minimize", action="store_true")
    ap.add_argument("--out", default="difftest-failures", help="folder for failures")
    ap.add_argument("--work", default=None, help="folder for temporary files")
    ap.add_argument("--an5dc", default=os.path.join(ROOT, "build", "bin", "an5dc"))
    ap.add_argument("--emucc", default=os.path.join(ROOT, "build", "bin", "an5dc-emucc"))
    ap.add_argument("--emu-opt", default="-O0", help="optimisation of the emulation build")
    ap.add_argument("--bitwise", action="store_true",
                    help="every cell must match bit for bit (the emulation "
                         "contracts no FMA on x86-64, so exact code must)")
    ap.add_argument("--slabs", action="store_true",
                    help="also run each run in 2-4 slabs (AN5D_GPUS) on two emulated devices")
    ap.add_argument("--mpi", action="store_true",
                    help="also run each run from a file built with --mpi on 2-3 ranks "
                         "(mpirun, OpenMPI), every rank's output compared")
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    ap.add_argument("--form", action="append", choices=[f for f, _ in gen.FORMS],
                    help="only the programs drawn in this form of the double buffer "
                         "(repeatable; default all)")
    args = ap.parse_args()
    if args.smoke:
        count, args.seed = SMOKE_COUNT, SMOKE_SEED if args.seed is None else args.seed
    else:
        count = args.long or args.count or 10
    if args.seed is None:
        args.seed = 1
    indices = args.only or list(range(args.first, args.first + count))
    if args.form:
        indices = [i for i in indices if plan(args, i)[0]["form"] in args.form]
    if args.print:
        for i in indices:
            p, sets, runs = plan(args, i)
            print("/* seed %d program %d\n   option sets (the first %d that an5dc accepts): %s\n"
                  "   runs (sizes, t0, steps): %s */" % (
                      args.seed, i, args.sets, json.dumps(sets), json.dumps(runs)))
            print(gen.render(p))
        return 0
    tools = Tools(args)
    for tool in (args.an5dc, args.emucc):
        if not os.access(tool, os.X_OK):
            print("difftest: cannot run %s (build first, or give --an5dc/--emucc)" % tool)
            return 2
    args.out = os.path.abspath(args.out)
    work = args.work or tempfile.mkdtemp(prefix="difftest-")
    os.makedirs(work, exist_ok=True)
    stats = {"lock": threading.Lock(), "sets": 0, "runs": 0, "refused": 0,
             "known": 0, "new": 0}
    start = time.time()
    done = 0
    lines = {}
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
            futs = {pool.submit(test_one, args, tools, i, stats, work): i for i in indices}
            for fut in concurrent.futures.as_completed(futs):
                i = futs[fut]
                line = fut.result()
                done += 1
                if line:
                    lines[i] = line
                    print(line, flush=True)
                elif not args.quiet and (done % 10 == 0 or done == len(indices)):
                    print("difftest: %d/%d programs, %d failed, %.0f s" % (
                        done, len(indices), len(lines), time.time() - start), flush=True)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    failed = stats["known"] + stats["new"]
    print("difftest: seed %d, %d programs, %d option sets, %d runs compared, "
          "%d option sets refused, %d failed (%d known class, %d new)%s, %.0f s" % (
              args.seed, len(indices), stats["sets"], stats["runs"], stats["refused"],
              failed, stats["known"], failed - stats["known"],
              "" if not failed else ": " + ", ".join(str(i) for i in sorted(lines)),
              time.time() - start))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
