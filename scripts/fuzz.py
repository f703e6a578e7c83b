#!/usr/bin/env python3
"""Mutation fuzzer for an5dc: mutates accepted and rejected inputs and checks
that an5dc never crashes, hangs or asserts (exit status must be 0 or 1).

  scripts/fuzz.py --an5dc build/bin/an5dc --runs 500 --seed 1 [--dump stencil]

Prints one line per failure and ends with "N passed, N failed"."""
import argparse, glob, os, random, shlex, subprocess, sys, tempfile

TOKENS = ["+", "-", "*", "/", "%", "&", "(", ")", "[", "]", "{", "}", ";", "=",
          "t", "i", "j", "k", "n", "0", "1", "2", "-1", "A", "for", "int",
          "float", "double", "#pragma scop", "#pragma endscop", "sqrt(", ",",
          "<", "<=", "++", "+=", "? :", "\\", "\"", "'", "/*", "*/", "#define X",
          "9999999999999999999999", "0x7fffffff", "1e309", "__attribute__"]

def mutate(src, rng):
    s = src
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(7)
        if not s:
            s = rng.choice(TOKENS)
            continue
        p = rng.randrange(len(s))
        q = min(len(s), p + rng.randint(1, 12))
        if op == 0:   s = s[:p] + s[q:]                            # delete a span
        elif op == 1: s = s[:p] + rng.choice(TOKENS) + s[p:]       # insert a token
        elif op == 2: s = s[:p] + rng.choice(TOKENS) + s[q:]       # replace a span
        elif op == 3: s = s[:p] + s[p:q] * rng.randint(2, 5) + s[q:]  # duplicate
        elif op == 4: s = s[:p] + chr(rng.randrange(1, 256)) + s[p + 1:]  # byte flip
        elif op == 5:                                               # swap lines
            lines = s.split("\n")
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            s = "\n".join(lines)
        else:         s = s[:p]                                     # truncate
    return s

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--an5dc", required=True)
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dump", default="stencil",
                    help="stage to dump, or 'cuda' to generate code (-o)")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--options", action="append", default=[],
                    help="an5dc options for a run, e.g. '--opt=assoc -bT 2'; "
                         "given several times, each run picks one at random")
    ap.add_argument("inputs", nargs="*")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    inputs = a.inputs or sorted(
        glob.glob(os.path.join(root, "test", "Diagnostics", "*.c")) +
        glob.glob(os.path.join(root, "test", "Frontend", "*.c")) +
        [os.path.join(root, "benchmarks", b + ".c") for b in
         ("j2d5pt", "star2d1r", "gradient2d", "star3d1r", "j2d9pt-gol")])
    sources = [open(f, encoding="latin-1").read() for f in inputs]
    rng = random.Random(a.seed)
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fuzz.c")
        for run in range(a.runs):
            text = mutate(rng.choice(sources), rng)
            with open(path, "w", encoding="latin-1") as f:
                f.write(text)
            try:
                stage = (["-o", os.path.join(tmp, "fuzz.cu")] if a.dump == "cuda"
                         else ["--dump=" + a.dump])
                extra = shlex.split(rng.choice(a.options)) if a.options else []
                r = subprocess.run([a.an5dc, path] + stage + extra,
                                   capture_output=True, timeout=a.timeout)
                out = r.stderr.decode("latin-1")
                bad = r.returncode not in (0, 1) or "Stack dump" in out or \
                    "Assertion" in out or "PLEASE submit" in out or \
                    "Sanitizer" in out or "runtime error:" in out
                why = "exit %d" % r.returncode
            except subprocess.TimeoutExpired:
                bad, why = True, "timeout"
            if bad:
                failed += 1
                keep = os.path.join(os.getcwd(), "fuzz-failure-%d.c" % run)
                with open(keep, "w", encoding="latin-1") as f:
                    f.write(text)
                print("FAIL run %d (%s): input kept in %s" % (run, why, keep))
            else:
                passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
