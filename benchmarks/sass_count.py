#!/usr/bin/env python3
"""Counts SASS instructions per update in the streaming loop of an an5dc
N.5D file: the interior-tile kernel of the highest degree, its loop with the
most barriers (the unrolled body), divided by rows x levels x cells.

usage: sass_count.py [--nvcc NVCC] [--nvdisasm NVDISASM] [--keep DIR] FILE.cu...

Prints one line per file: instructions per update, shared loads (LDS) per
update, then per loop iteration the counts of branches (BRA), convergence
regions (BSSY), calls (CALL), MUFU and barriers, and ptxas's registers and
spills for that kernel. The count is static: every instruction between the
loop's head and its backward branch once, slow paths placed inside the loop
included, those ptxas moves out of it (subroutines) not. The hot path is
the same less the code that a conditional branch jumps over when that code
calls the slow-path subroutine of a division or sqrt.

It builds each file as its header's build line says (nvcc -O3 -arch=sm_90,
plus the -Xptxas/--use_fast_math flags found there) with -cubin. An nvdisasm
older than CUDA 13 does not read CUDA 13's ELF header (OS/ABI 0x41, ABI
version 8); for such an nvdisasm (--old-elf) the header is rewritten to the
earlier layout for sm_90 first, which leaves the code sections as they are.

Standard library only.
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile


def header_value(text, pattern, default):
    m = re.search(pattern, text)
    return int(m.group(1)) if m else default


def build_flags(text):
    """The extra flags of the header's 'Build:' line (ptxas level, fast math)."""
    m = re.search(r"^// Build: (nvcc [^\n]*?) FILE\.cu", text, re.M)
    if not m:
        return []
    words = m.group(1).split()[1:]
    return [w for w in words if w not in ("-O3", "-arch=sm_90")]


def old_elf(src, dst):
    """Rewrites a CUDA 13 sm_90 cubin's header for a CUDA 11/12 nvdisasm."""
    b = bytearray(open(src, "rb").read())
    b[7] = 0x33                                   # ELFOSABI_CUDA
    b[8] = 7                                      # ABI version
    struct.pack_into("<I", b, 0x30, 0x5A055A)     # SM90, virtual SM90, 64-bit, unified
    open(dst, "wb").write(b)


def functions(sass):
    """{mangled name: [(address, instruction text)]} of a disassembly."""
    out, cur = {}, None
    for line in sass.splitlines():
        m = re.match(r"^\s*\.text\.(\S+):", line)
        if m:
            cur = out.setdefault(m.group(1), [])
            continue
        m = re.match(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if m and cur is not None:
            cur.append((int(m.group(1), 16), m.group(2)))
    return out


def labels(sass, name):
    """{label: address} inside function name (the first instruction after it)."""
    out, inside, pending = {}, False, []
    for line in sass.splitlines():
        m = re.match(r"^\s*\.text\.(\S+):", line)
        if m:
            inside = m.group(1) == name
            continue
        if not inside:
            continue
        m = re.match(r"^(\.L_x_\d+):", line)
        if m:
            pending.append(m.group(1))
            continue
        m = re.match(r"^\s*/\*([0-9a-f]{4,})\*/", line)
        if m:
            for p in pending:
                out[p] = int(m.group(1), 16)
            pending = []
    return out


def branch_target(text, label_at):
    m = re.search(r"\bBRA\b.*`\((\.L_x_\d+)\)", text)
    return label_at.get(m.group(1)) if m else None


def streaming_loop(insns, label_at):
    """The (address, instruction) pairs of the loop with the most BAR.SYNC."""
    best = None
    for addr, text in insns:
        target = branch_target(text, label_at)
        if target is None or target >= addr:
            continue
        body = [(a, t) for a, t in insns if target <= a <= addr]
        bars = sum("BAR.SYNC" in t for a, t in body)
        if best is None or bars > best[0]:
            best = (bars, body)
    return best[1] if best else []


def hot_path(body, label_at):
    """The loop's instructions less the slow paths: the code a conditional
    forward branch jumps over when that code calls the IEEE division's or
    sqrt's slow-path subroutine (or, in an exact division helper's
    fallback, the whole double division) and stores nothing (ptxas may sink a level's
    last update into its store's test), so every division and sqrt counts
    its fast path once; boundary loads, stores and exit tests as written."""
    index = {a: i for i, (a, t) in enumerate(body)}
    skipped = [False] * len(body)
    for i, (addr, text) in enumerate(body):
        target = branch_target(text, label_at)
        if target is None or target not in index or index[target] <= i:
            continue
        if not re.match(r"@!?U?P", text):
            continue
        span = range(i + 1, index[target])
        code = [re.sub(r"^@!?U?P\w+\s+", "", body[j][1]) for j in span]
        if (any(re.match(r"CALL\b.*(slowpath|div_rn_f64_full)", t)
                for t in code) and
                not any(re.match(r"(ST[GS]|BAR)\b", t) for t in code)):
            for j in span:
                skipped[j] = True
    return [t for (a, t), s in zip(body, skipped) if not s]


def count(path, args, tmp):
    text = open(path).read()
    bt = header_value(text, r"Parameters \(compile time\): bT (\d+)", 1)
    unroll = header_value(text, r"degree %d: [^\n]*unrolled by (\d+) rows" % bt, 1)
    cells = header_value(text, r"cells \(--cells\) (\d+)", 1)
    base = os.path.join(tmp, os.path.basename(path)[:-3])
    flags = build_flags(text)
    ptxas = subprocess.run([args.nvcc, "-O3", "-arch=sm_90", "-cubin"] + flags +
                           ["-Xptxas", "-v", path, "-o", base + ".cubin"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, check=True).stdout
    cubin = base + ".cubin"
    if args.old_elf:
        old_elf(cubin, base + ".old.cubin")
        cubin = base + ".old.cubin"
    sass = subprocess.run([args.nvdisasm, "-c", cubin], stdout=subprocess.PIPE,
                          universal_newlines=True, check=True).stdout
    if args.keep:
        open(os.path.join(args.keep, os.path.basename(base) + ".sass"), "w").write(sass)
    # A checked file's kernels are templates: count the fast (checked)
    # instantiation, an5d_kernel_deg<bt><true>.
    named = [n for n in functions(sass)
             if re.match(r"_Z\d+an5d_kernel_deg%d\D" % bt, n)]
    kernel = next((n for n in named if "ILb1E" in n), named[0] if named else None)
    if kernel is None:
        return "%s: no interior kernel of degree %d" % (path, bt)
    label_at = labels(sass, kernel)
    loop = streaming_loop(functions(sass)[kernel], label_at)
    body = [t for a, t in loop]
    hot = hot_path(loop, label_at)
    regs = re.search(r"Function properties for %s\n\s*(\d+) bytes stack frame, "
                     r"(\d+) bytes spill stores, (\d+) bytes spill loads\n"
                     r"[^\n]*Used (\d+) registers" % re.escape(kernel), ptxas)
    updates = unroll * bt * cells
    def n(op, insns=body):
        return sum(bool(re.match(r"(@!?U?P\w+\s+)?%s\b" % op, t)) for t in insns)
    return ("%s: hot path %.2f insns/update, %.2f LDS/update, %.2f BRA/update, "
            "%.2f BSSY/update; whole loop %.2f insns/update (%d insns = %d rows x "
            "%d levels x %d cells; BRA %d BSSY %d CALL %d MUFU %d BAR %d); %s regs, "
            "spill %s/%s B" %
            (os.path.basename(path), len(hot) / updates, n("LDS", hot) / updates,
             n("BRA", hot) / updates, n("BSSY", hot) / updates, len(body) / updates,
             len(body), unroll, bt, cells, n("BRA"), n("BSSY"), n("CALL"),
             n("MUFU"), n("BAR"), regs.group(4) if regs else "?",
             regs.group(2) if regs else "?", regs.group(3) if regs else "?"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--nvdisasm", default="nvdisasm")
    ap.add_argument("--old-elf", action="store_true",
                    help="rewrite the cubin's ELF header for a pre-13 nvdisasm")
    ap.add_argument("--keep", help="write each file's disassembly into this folder")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for f in args.files:
            print(count(f, args, tmp), flush=True)


if __name__ == "__main__":
    sys.exit(main())
