#!/usr/bin/env python3
"""Regenerates the CHECK lines of --dump=kernel tests.

A test names what it checks in one line:

    # KERNEL-SECTION: <kernel name> <first phase> <phases>

and its first RUN line runs `%an5dc <args> --dump=kernel | FileCheck %s`.
This script runs build/bin/an5dc ($AN5DC if set) with those arguments, cuts the named
kernel's dump from the start of phase <first phase> for <phases> phases and
rewrites the CHECK lines (CHECK-LABEL on the kernel, CHECK on the phase,
CHECK-NEXT for each operation after it). Everything above the first CHECK
line is kept.

    scripts/update_kernel_checks.py test/CodeGen/kernel-dump-*.test
"""
import os
import pathlib
import re
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def section(dump, kernel, first, phases):
    lines = dump.splitlines()
    start = lines.index("kernel " + kernel)
    out, inside, seen = [], False, 0
    for line in lines[start + 1:]:
        if line.startswith("kernel "):
            break
        m = re.match(r"\s*phase (\d+):", line)
        if m:
            if int(m.group(1)) == first and not inside:
                inside = True
            elif inside:
                seen += 1
                if seen == phases:
                    break
        if inside:
            out.append(line)
    if not out:
        # A kernel without a streaming loop (naive): all of it.
        body = []
        for line in lines[start + 1:]:
            if line.startswith("kernel "):
                break
            body.append(line)
        if any(re.match(r"\s*phase ", l) for l in body):
            sys.exit(f"phase {first} of {kernel} not found")
        return body
    return out


def update(path, an5dc):
    text = path.read_text().splitlines()
    spec = next(l for l in text if l.startswith("# KERNEL-SECTION:"))
    kernel, first, phases = spec.split(":", 1)[1].split()
    run = next(l for l in text if l.startswith("# RUN:"))
    args = shlex.split(run.split("%an5dc", 1)[1].split("|", 1)[0])
    args = [a.replace("%benchmarks", str(ROOT / "benchmarks"))
            .replace("%inputs", str(path.parent / "Inputs")) for a in args]
    dump = subprocess.run([an5dc] + args, check=True, capture_output=True,
                          text=True).stdout
    body = section(dump, kernel, int(first), int(phases))
    keep = []
    for l in text:
        if l.startswith("# CHECK"):
            break
        keep.append(l)
    while keep and keep[-1] == "":
        keep.pop()
    checks = [f"# CHECK-LABEL: kernel {kernel}", f"# CHECK: {body[0].strip()}"]
    checks += [f"# CHECK-NEXT: {l.strip()}" for l in body[1:]]
    path.write_text("\n".join(keep + [""] + checks) + "\n")


if __name__ == "__main__":
    an5dc = os.environ.get("AN5DC") or str(ROOT / "build" / "bin" / "an5dc")
    for p in sys.argv[1:]:
        update(pathlib.Path(p), an5dc)
