"""Random stencil programs for scripts/difftest.py: a program is plain data
(a dict that json can save), drawn by generate(rng, ...) and printed as C
by render(prog). Standard library only.

Every program is one an5dc accepts (docs/user-guide.md): a 1D, 2D or 3D Jacobi
update of one float or double array, in one of the accepted declaration
forms, with values that stay bounded: the initial cells lie in
[-0.25, 1.25], and every update is a signed sum of terms whose bounds
(each term's "weight", its largest magnitude over cells in [-1.5, 1.5]
divided by 1.5) add up to at most 1, so no cell ever leaves [-1.5, 1.5].
"Exact" programs use dyadic coefficients only (k/8, divisions by 2, 4, 8)
so that every value is exact whatever the summation order; only they use
the discontinuous calls (floor, ceil, round, trunc, fmod, copysign, int
casts), whose results would otherwise flip on a last-bit difference.
The double buffer is one array with a plane index, two arrays in turn
(some of them in PolyBench's macros, with test/Inputs/polybench's header)
or a pointer swap.
"""
import copy
import math
import os
import random

# The stand-in polybench.h the PolyBench-style programs include (-I).
POLYBENCH_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                             "test", "Inputs", "polybench")

SIZE_NAMES = ["n", "m", "l"]
# Iterator, scalar and array names: plain ones, and (CLASH_*, drawn for a
# few programs) names the generated code uses itself or builds from the
# iterators' names ("t" as a spatial iterator: t_first; "row": row_first),
# kernel locals (edge, lane, pos), kernel and host parameters (tiles,
# in_plane, steps) and the autotuner's lambda parameters (c, scratch,
# trial). Scalars of the "macro" and "cmdline" homes make them macros.
ITER_POOL = ["x", "y", "z", "s", "idx", "ii", "jj", "kk", "p", "q", "r", "tt"]
CLASH_ITERS = ["t", "i", "j", "k", "grid", "plane", "col", "row", "level",
               "slot", "tile", "cell", "edge", "lane", "pos", "rank", "block",
               "value", "zeros"]
SCALAR_POOL = ["w", "alpha", "beta", "coef", "c0", "weight", "a1", "b2"]
CLASH_SCALARS = ["step", "full", "in", "value", "halo", "smem", "source",
                 "steps", "ring", "rows", "columns", "in_next", "row_stride",
                 "tiles", "row", "edge", "lane", "zeros", "pos", "plane",
                 "in_plane", "degree", "c", "scratch", "trial", "t_first"]
ARRAY_POOL = ["A", "u", "field", "B"]
# The other array of two in turn, the other pointer of a swap, the swap's
# temporary.
SECOND_POOL = ["Bn", "v", "nxt", "out2"]
TMP_POOL = ["tmp", "swp", "hold"]
# How the double buffer is kept (difftest.py draws one per program, with
# these weights): a plane dimension, two arrays in turn, a pointer swap of
# pointers to rows, a pointer swap of flat pointers.
FORMS = [("plane", 0.6), ("turns", 0.15), ("swap", 0.15), ("swap-flat", 0.1)]
CLASH_ARRAYS = ["grid_a", "out_next", "sm"]
CLASH_RATE = 0.15
DECLS = ["ptr-param", "array-param", "restrict-param", "main-vla",
         "fixed-global", "fixed-local", "fixed-param"]
PARITIES = ["mod", "and", "swap", "swap-and", "mod-k1"]
SHAPES = ["star", "box", "random", "streaming-only", "row-only", "above-only",
          "below-only", "in-plane-diagonal"]

# Smooth calls of one read: (C text with X for the read, weight per unit
# coefficient for |X| <= 1.5).
SMOOTH1 = [("sqrt(fabs(X) + 1e-3)", 0.82), ("exp(-X * X)", 0.67),
           ("sin(X)", 0.67), ("cos(X)", 0.67), ("tanh(X)", 0.61),
           ("atan(X)", 0.66), ("erf(X)", 0.65), ("erfc(X)", 1.33),
           ("sinh(0.5 * X)", 0.55), ("cosh(0.5 * X)", 0.87),
           ("tan(0.5 * X)", 0.63), ("asin(0.5 * X)", 0.57),
           ("acos(0.5 * X)", 1.62), ("atan2(X, 2.0)", 0.44), ("cbrt(X)", 0.77),
           ("log1p(fabs(X))", 0.62), ("log(fabs(X) + 1.0)", 0.62),
           ("log2(fabs(X) + 1.0)", 0.89), ("log10(fabs(X) + 1.0)", 0.27),
           ("exp2(-fabs(X))", 0.67), ("expm1(-fabs(X))", 0.52),
           ("pow(fabs(X), 0.5)", 0.82)]
# Calls of two reads X, Y.
SMOOTH2 = [("fmax(X, Y)", 1.0), ("fmin(X, Y)", 1.0), ("hypot(X, Y)", 1.42),
           ("fma(X, 0.5, Y)", 1.5), ("fdim(X, Y)", 2.0)]
# Exact calls (dyadic in, dyadic out).
EXACT1 = [("fabs(X)", 1.0), ("floor(X * 4.0) / 8", 0.67), ("ceil(X * 4.0) / 8", 0.67),
          ("round(X * 4.0) / 8", 0.67), ("trunc(X * 4.0) / 8", 0.67),
          ("fmod(X, 0.5)", 0.34), ("(int)(X * 8) / 16.0", 0.5)]
EXACT2 = [("fmax(X, Y)", 1.0), ("fmin(X, Y)", 1.0), ("fdim(X, Y)", 2.0),
          ("copysign(X, Y)", 1.0)]
F_FORMS = {"sqrt", "fabs", "exp", "sin", "cos", "tanh", "atan", "erf", "erfc",
           "sinh", "cosh", "tan", "asin", "acos", "atan2", "cbrt", "log1p", "log",
           "log2", "log10", "exp2", "expm1", "pow", "fmax", "fmin", "hypot", "fma",
           "fdim", "floor", "ceil", "round", "trunc", "fmod", "copysign"}


def pick_weighted(rng, table):
    total = sum(w for _, w in table)
    x = rng.uniform(0, total)
    for item, w in table:
        x -= w
        if x <= 0:
            return item
    return table[-1][0]


def draw_offsets(rng, dims, shape):
    """A list of distinct read offsets (tuples, streaming dimension first)."""
    rmax = 3 if dims <= 2 else 2
    def r():
        return rng.choice([0, 1, 1, 1, 2, 2, rmax])
    offs = set()
    want = rng.randint(1, 7 if dims <= 2 else 9)
    tries = 0
    while len(offs) < want and tries < 100:
        tries += 1
        o = [rng.randint(-r(), r()) for _ in range(dims)]
        if shape == "star":
            axis = rng.randrange(dims)
            o = [o[d] if d == axis else 0 for d in range(dims)]
        elif shape == "streaming-only":
            o = [o[0]] + [0] * (dims - 1)
        elif shape == "row-only":
            o[0] = 0
        elif shape == "above-only":
            o[0] = -rng.randint(1, rmax)
        elif shape == "below-only":
            o[0] = rng.randint(1, rmax)
        elif shape == "in-plane-diagonal":
            if o[0] != 0:
                o = [o[0]] + [0] * (dims - 1)
        offs.add(tuple(o))
    return sorted(offs)


def coef_value(rng, exact, budget):
    """A positive coefficient at most budget (0 when none fits)."""
    if exact:
        choices = [k / 8 for k in range(1, 5) if k / 8 <= budget]
        return rng.choice(choices) if choices else 0.0
    if budget < 0.01:
        return 0.0
    scale = 10 ** rng.choice([2, 3, 4])
    # Rounded down, so that the coefficient stays within the budget.
    return math.floor(rng.uniform(0.01, min(budget, 0.6)) * scale) / scale


def make_term(rng, exact, reads, budget):
    """A term over 1 to 3 of the reads, its weight at most budget; None when
    none fits."""
    kinds = [("mul", 6), ("group", 2), ("div", 2), ("cast", 1), ("gdiv", 1),
             ("call1", 3), ("call2", 2), ("const", 0.5)]
    kind = pick_weighted(rng, kinds)
    t = {"kind": kind, "sign": rng.choice(["+", "+", "-"])}
    if kind == "const":
        t["c"] = 0.125 if exact else 0.001
        t["reads"] = []
        return t if t["c"] / 1.5 <= budget else None
    if kind in ("div", "gdiv"):
        n = 1 if kind == "div" else 2
        divs = [2, 4, 8] if exact else [2, 3, 4, 7, 10, 700, 1000, "123.456f", "2.5"]
        d = rng.choice(divs)
        dv = float(str(d).rstrip("f"))
        if n / dv > budget:
            return None
        t["d"] = d
        t["reads"] = [rng.choice(reads) for _ in range(n)]
        t["w"] = n / dv
        return t
    n, gain = 1, 1.0
    if kind == "group":
        n = rng.randint(2, 3)
        gain = n
    elif kind == "call1":
        t["call"], gain = rng.choice(EXACT1 if exact else SMOOTH1)
    elif kind == "call2":
        t["call"], gain = rng.choice(EXACT2 if exact else SMOOTH2)
        n = 2
    elif kind == "cast":
        t["cast"] = rng.choice(["float", "double"])
    c = coef_value(rng, exact, budget / gain)
    if c <= 0:
        return None
    t["c"] = c
    t["reads"] = [rng.choice(reads) for _ in range(n)]
    t["w"] = c * gain
    return t


def term_weight(t):
    if t["kind"] == "const":
        return t["c"] / 1.5
    return t["w"]


def generate(rng, max2d=40, max3d=12, one_d=False, form="plane", frng=None):
    """One random valid program (a dict); one_d turns a 2D draw into a 1D
    program (decided outside rng, so that the other programs stay as they
    were drawn before 1D stencils were accepted). form (FORMS) keeps the
    double buffer as one array with a plane dimension ("plane"), two arrays
    in turn or a pointer swap; its own choices come from frng, so that a
    program's draws from rng do not depend on its form."""
    dims = rng.choice([2, 2, 3])
    if one_d and dims == 2:
        dims = 1
    p = {"dims": dims}
    p["elem"] = rng.choice(["float", "float", "double"])
    p["typedef"] = rng.random() < 0.3
    p["exact"] = rng.random() < 0.3
    p["decl"] = rng.choice(DECLS)
    p["fixed"] = None
    if p["decl"].startswith("fixed"):
        top = max2d if dims <= 2 else max3d
        p["fixed"] = [rng.choice([1, 2, 3, rng.randint(4, top), rng.randint(4, top)])
                      for _ in range(dims)]
    p["planes"] = 3 if p["decl"] == "fixed-global" and rng.random() < 0.3 else 2
    plain = rng.random() < 0.5
    clash = rng.random() < CLASH_RATE
    p["clash"] = clash
    names = ["t", "i", "j", "k"][:dims + 1] if plain else \
        rng.sample(ITER_POOL + (CLASH_ITERS if clash else []), dims + 1)
    p["iters"] = names
    p["array"] = "A" if plain else rng.choice(
        [a for a in ARRAY_POOL + (CLASH_ARRAYS if clash else []) if a not in names])
    p["outer_iters"] = rng.random() < 0.2
    p["heads"] = [[rng.choice(["<", "<", "<="]),
                   rng.choice(["++", "++", "pre", "+=1", "=+1"])]
                  for _ in range(dims + 1)]
    p["t_start"] = rng.choice([0, 0, 0, 1, 2, "param"])
    p["parity"] = rng.choice(PARITIES)
    shape = rng.choice(SHAPES) if dims == 3 or rng.random() < 0.9 else "star"
    if shape == "in-plane-diagonal" and dims == 2:
        shape = "star"
    p["shape"] = shape
    offs = draw_offsets(rng, dims, shape)
    if not offs:
        offs = [tuple([0] * dims)]
    # Loop bounds: the reach, sometimes wider.
    lo = [max([0] + [-o[d] for o in offs]) for d in range(dims)]
    hi = [max([0] + [o[d] for o in offs]) for d in range(dims)]
    p["lo"] = [v + (rng.randint(1, 2) if rng.random() < 0.15 else 0) for v in lo]
    p["hi"] = [v + (rng.randint(1, 2) if rng.random() < 0.15 else 0) for v in hi]
    if p["fixed"]:
        # A fixed grid with no interior would be an empty domain.
        p["fixed"] = [max(v, p["lo"][d] + p["hi"][d] + 1) for d, v in enumerate(p["fixed"])]
    # Scalars: coefficients by name.
    p["scalars"] = []
    used = set(names) | {p["array"]}
    if rng.random() < 0.4:
        homes = ["macro", "global", "const-global", "const-local"]
        if p["decl"] not in ("main-vla", "fixed-local"):
            homes.append("param")
        if not p["typedef"]:
            homes.append("cmdline")
        for _ in range(rng.randint(1, 2)):
            name = rng.choice([s for s in SCALAR_POOL + (CLASH_SCALARS if clash else [])
                               if s not in used])
            used.add(name)
            home = rng.choice(homes)
            typ = rng.choice(["float", "double", "int"]) if home != "macro" else "macro"
            p["scalars"].append({"name": name, "home": home, "type": typ})
    # Terms: the whole budget 1, minus what the outer factor takes.
    p["factor"] = None
    if rng.random() < 0.15:
        p["factor"] = rng.choice([["/", 2], ["/", 4], ["*", 0.5]] if p["exact"] else
                                 [["/", 2], ["/", 81], ["*", 0.5], ["/", 3]])
    budget = 1.0
    terms = []
    for o in offs:
        t = make_term(rng, p["exact"], [o], budget)
        if t is None:
            continue
        terms.append(t)
        budget -= term_weight(t)
    for _ in range(rng.randint(0, 3)):
        t = make_term(rng, p["exact"], offs, budget)
        if t is not None:
            terms.append(t)
            budget -= term_weight(t)
    if not any(t["reads"] for t in terms):
        terms.insert(0, {"kind": "mul", "sign": "+", "c": 0.5 if budget >= 0.5 else 0.125,
                         "reads": [offs[0]], "w": 0.5})
    rng.shuffle(terms)
    # A scalar replaces some coefficients: its value is the coefficient's.
    for s in p["scalars"]:
        cands = [t for t in terms if t["kind"] in ("mul", "group", "cast", "call1",
                                                   "call2", "div") and "scalar" not in t]
        if not cands:
            continue
        t = rng.choice(cands)
        if t["kind"] == "div" and t["d"] not in (2, 4):
            continue
        t["scalar"] = s["name"]
        if t["kind"] == "div":
            s["value"] = t["d"]
        else:
            s["type"] = "float" if s["type"] == "int" else s["type"]
            s["value"] = t["c"]
    p["scalars"] = [s for s in p["scalars"] if "value" in s]
    p["terms"] = terms
    p["suffix_f"] = rng.random() < (0.8 if p["elem"] == "float" else 0.2)
    p["f_forms"] = p["elem"] == "float" and rng.random() < 0.3
    set_form(p, form, frng or random.Random(0))
    return p


def set_form(p, form, frng):
    """How the program keeps its two planes: one array with a plane index,
    two arrays computed from each other in turn (PolyBench's jacobi-2d), or
    a pointer swap through pointers to rows or flat pointers."""
    p["form"] = form
    if form == "plane":
        return
    p["planes"] = 2
    if form == "turns":
        # Both arrays need every extent declared: no pointer to rows.
        if p["decl"] in ("ptr-param", "restrict-param", "main-vla"):
            p["decl"] = "array-param"
    else:
        # The pointers are set up in run() from the harness's two buffers.
        p["decl"] = "fixed-param" if p["fixed"] else "ptr-param"
        if p["dims"] == 1:
            p["form"] = form = "swap-flat"
    used = set(p["iters"]) | {s["name"] for s in p["scalars"]} | {p["array"]}
    p["array2"] = frng.choice([a for a in SECOND_POOL if a not in used])
    used.add(p["array2"])
    p["tmp"] = frng.choice([a for a in TMP_POOL if a not in used])
    p["tmp_outside"] = frng.random() < 0.3
    p["flat_spelling"] = frng.choice([0, 0, 1])
    p["mark_pointers"] = frng.random() < 0.5
    # Two arrays in turn as PolyBench writes them: POLYBENCH_nD array
    # parameters, _PB_ bounds, SCALAR_VAL literals, DATA_TYPE.
    p["polybench"] = form == "turns" and frng.random() < 0.4
    if p["polybench"]:
        p["decl"] = "fixed-param" if p["fixed"] else "array-param"


def facts(p):
    """What the program's form implies for the kernels an5dc may apply:
    diagonal-free (star, --kvec) and associative (assoc)."""
    reads = [o for t in p["terms"] for o in t["reads"]]
    diag_free = all(o[0] == 0 or all(v == 0 for v in o[1:]) for o in reads)
    assoc = all(len({o[0] for o in t["reads"]}) <= 1 for t in p["terms"])
    # The partial sums add constant terms first, then the rows in increasing
    # order: bit for bit C's sums only when C's order is that order (else
    # --opt=assoc reassociates, with a warning, and auto does not choose it).
    exact, seen, last = assoc, False, 0
    for t in p["terms"]:
        if not t["reads"]:
            exact = exact and not seen
            continue
        plane = t["reads"][0][0]
        exact = exact and not (seen and plane < last)
        seen, last = True, plane
    above = bool(reads) and all(o[0] < 0 for o in reads)
    return {"diag_free": diag_free, "assoc": assoc, "assoc_exact": exact,
            "rows_above_only": above}


def steps_bound(p):
    """The largest step count that keeps an exact program exact."""
    if not p["exact"]:
        return None
    bound = 6 if p["elem"] == "float" else 14
    # Two arrays in turn: each iteration of the loop is two steps.
    return bound // 2 if p["form"] == "turns" else bound


# --- Printing ----------------------------------------------------------------

def lit(p, v):
    """A literal of value v in the program's style."""
    if isinstance(v, str):
        return v
    text = "%.12g" % v  # exact for the dyadic coefficients
    if not any(ch in text for ch in ".e"):
        text += ".0"
    if p.get("polybench"):
        return "SCALAR_VAL(%s)" % text  # x##f where the program writes f
    return text + ("f" if p["suffix_f"] else "")


def fname(p, call):
    """The call text with the f forms where the program uses them."""
    if not p["f_forms"]:
        return call
    out = []
    for tok in call.replace("(", " ( ").split(" "):
        out.append(tok + "f" if tok in F_FORMS else tok)
    return " ".join(out).replace(" ( ", "(").replace("( ", "(")


def offset_text(var, v):
    return var if v == 0 else "%s %s %d" % (var, "+" if v > 0 else "-", abs(v))


def flat_index(p, o):
    """A flat pointer's index of offset o: rows of the extents after the
    first, '(i + a) * m + j + b' (or 'm * (i + a) + j + b')."""
    it = p["iters"][1:]
    text = offset_text(it[0], o[0])
    for d in range(1, p["dims"]):
        e = extent(p, d)
        inner = "(%s)" % text if ("+" in text or "-" in text) else text
        if p["flat_spelling"] == 0:
            text = "%s * %s + %s" % (inner, e, offset_text(it[d], o[d]))
        else:
            text = "%s * %s + %s" % (e, inner, offset_text(it[d], o[d]))
    return text


def cell_text(p, name, o):
    """The cell at offset o of array or pointer name (no plane index)."""
    if p["form"] == "swap-flat":
        return "%s[%s]" % (name, flat_index(p, o))
    return name + "".join("[%s]" % offset_text(p["iters"][d + 1], v) for d, v in enumerate(o))


def read_text(p, o, src=None):
    """A read of offset o: of the plane array's read plane, or of src (the
    array or pointer a statement of another form reads)."""
    if src is not None:
        return cell_text(p, src, o)
    it = p["iters"]
    t = it[0]
    plane = {"mod": "%s %% 2" % t, "and": "%s & 1" % t,
             "swap": "(%s + 1) %% 2" % t, "swap-and": "(%s + 1) & 1" % t,
             "mod-k1": "(%s + 1) %% 2" % t}[p["parity"]]
    idx = "".join("[%s]" % (it[d + 1] if v == 0 else "%s %s %d" % (
        it[d + 1], "+" if v > 0 else "-", abs(v))) for d, v in enumerate(o))
    return "%s[%s]%s" % (p["array"], plane, idx)


def write_plane(p):
    t = p["iters"][0]
    return {"mod": "(%s + 1) %% 2" % t, "and": "(%s + 1) & 1" % t,
            "swap": "%s %% 2" % t, "swap-and": "%s & 1" % t,
            "mod-k1": "(%s + 2) %% 2" % t}[p["parity"]]


def coef_text(p, t, scale):
    if "scalar" in t:
        return t["scalar"] if scale == 1 else "(%s * %s)" % (lit(p, scale), t["scalar"])
    return lit(p, t["c"] * scale)


def term_text(p, t, scale, src=None):
    """A term (without its sign); coefficients multiplied by scale, which
    undoes the outer factor; reads of src where given."""
    r = [read_text(p, o, src) for o in t["reads"]]
    k = t["kind"]
    if k == "const":
        return lit(p, t["c"] * scale)
    if k in ("div", "gdiv"):
        d = t["scalar"] if "scalar" in t else (str(t["d"]) if not isinstance(t["d"], float) else lit(p, t["d"]))
        body = r[0] if k == "div" else "(%s + %s)" % (r[0], r[1])
        text = "%s / %s" % (body, d)
        return text if scale == 1 else "%s * %s" % (lit(p, scale), text)
    c = coef_text(p, t, scale)
    if k == "mul":
        return "%s * %s" % (c, r[0]) if hash_order(t) else "%s * %s" % (r[0], c)
    if k == "group":
        return "%s * (%s)" % (c, " + ".join(r))
    if k == "cast":
        return "%s * (%s)%s" % (c, t["cast"], r[0])
    call = fname(p, t["call"]).replace("X", r[0])
    if len(r) > 1:
        call = call.replace("Y", r[1])
    return "%s * %s" % (c, call)


def hash_order(t):
    return sum(sum(o) for o in t["reads"]) % 2 == 0


def update_text(p, src=None):
    scale = 1
    f = p["factor"]
    if f:
        scale = f[1] if f[0] == "/" else 1 / f[1]
    parts = []
    for n, t in enumerate(p["terms"]):
        text = term_text(p, t, scale, src)
        if n == 0:
            parts.append(("-" if t["sign"] == "-" else "") + text)
        else:
            parts.append(" %s %s" % (t["sign"], text))
    body = "".join(parts)
    if f:
        if f[0] == "/":
            return "(%s) / %d" % (body, f[1])
        return "%s * (%s)" % (lit(p, f[1]), body)
    return body


def extent(p, d):
    return ("NMLK"[d]) if p["fixed"] else SIZE_NAMES[d]


def bound(p, d):
    """A loop's extent as the loop spells it: PolyBench's _PB_N."""
    return "_PB_" + "NMLK"[d] if p.get("polybench") else extent(p, d)


def polybench_lines(p):
    """PolyBench's macros before and after its header: run-time sizes
    (POLYBENCH_USE_C99_PROTO, POLYBENCH_USE_SCALAR_LB) unless fixed, the
    element type, the literal macro and the loop bounds."""
    L = [] if p["fixed"] else ["#define POLYBENCH_USE_C99_PROTO", "#define POLYBENCH_USE_SCALAR_LB"]
    L.append("#include <polybench.h>")
    L.append("#define DATA_TYPE %s" % ("real" if p["typedef"] else p["elem"]))
    L.append("#define SCALAR_VAL(x) x##f" if p["suffix_f"] else "#define SCALAR_VAL(x) x")
    for d in range(p["dims"]):
        L.append("#define _PB_%s POLYBENCH_LOOP_BOUND(%s, %s)" % ("NMLK"[d], "NMLK"[d],
                                                                 SIZE_NAMES[d]))
    return L


def polybench_param(p, name):
    """An array parameter in PolyBench's form: DATA_TYPE POLYBENCH_2D(A, N, M, n, m)."""
    dims = p["dims"]
    return "DATA_TYPE POLYBENCH_%dD(%s, %s, %s)" % (
        dims, name, ", ".join("NMLK"[d] for d in range(dims)),
        ", ".join(SIZE_NAMES[:dims]))


def loop_head(p, level, lo, hi_text):
    var = p["iters"][level]
    cond, inc = p["heads"][level]
    decl = "" if p["outer_iters"] else "int "
    test = "%s < %s" % (var, hi_text) if cond == "<" else "%s <= %s - 1" % (var, hi_text)
    step = {"++": var + "++", "pre": "++" + var, "+=1": var + " += 1",
            "=+1": "%s = %s + 1" % (var, var)}[inc]
    return "for (%s%s = %s; %s; %s)" % (decl, var, lo, test, step)


def nest_lines(p, depth, lhs, rhs):
    """The spatial loops at depth (levels of indentation) around lhs = rhs."""
    lines = []
    for d in range(p["dims"]):
        hi = p["hi"][d]
        e = bound(p, d)
        lines.append("  " * (depth + d) + loop_head(p, d + 1, str(p["lo"][d]),
                                                     e if hi == 0 else "%s - %d" % (e, hi)))
    lines.append("  " * (depth + p["dims"]) + "%s = %s;" % (lhs, rhs))
    return lines


def pointer_type(p, name):
    """The declarator of a swapped pointer: to rows, or flat."""
    elem = "real" if p["typedef"] else p["elem"]
    if p["form"] == "swap-flat":
        return "%s *%s" % (elem, name)
    return "%s (*%s)%s" % (elem, name, "".join("[%s]" % extent(p, d)
                                                for d in range(1, p["dims"])))


def scop_text(p, indent):
    it = p["iters"]
    lines = []
    start = {"param": "t0"}.get(p["t_start"], str(p["t_start"]))
    end = "T" if p["t_start"] == 0 else "%s + T" % start
    lines.append(loop_head(p, 0, start, end))
    own = [0] * p["dims"]
    if p["form"] == "plane":
        lhs = "%s[%s]%s" % (p["array"], write_plane(p), "".join("[%s]" % v for v in it[1:]))
        lines += nest_lines(p, 1, lhs, update_text(p))
    elif p["form"] == "turns":
        a, b = p["array"], p["array2"]
        lines[-1] += " {"
        lines += nest_lines(p, 1, cell_text(p, b, own), update_text(p, a))
        lines += nest_lines(p, 1, cell_text(p, a, own), update_text(p, b))
        lines.append("}")
    else:
        src, dst, tmp = p["array"], p["array2"], p["tmp"]
        lines[-1] += " {"
        lines += nest_lines(p, 1, cell_text(p, dst, own), update_text(p, src))
        lines.append("  %s = %s;" % (tmp if p["tmp_outside"] else pointer_type(p, tmp), src))
        lines.append("  %s = %s;" % (src, dst))
        lines.append("  %s = %s;" % (dst, tmp))
        lines.append("}")
    pad = " " * indent
    return "#pragma scop\n" + "".join(pad + l + "\n" for l in lines) + "#pragma endscop\n"


def prelude(p):
    """The program's first lines: includes, types, sizes, scalars."""
    L = []
    form = "" if p["form"] == "plane" else ", " + p["form"] + \
        (" (PolyBench)" if p.get("polybench") else "")
    L.append("/* difftest program: %dD %s, %s, shape %s%s%s. */" % (
        p["dims"], p["elem"], p["decl"], p["shape"], form, ", exact" if p["exact"] else ""))
    L += ["#include <stdio.h>", "#include <stdlib.h>", "#include <math.h>", "",
          '#pragma GCC diagnostic ignored "-Wunknown-pragmas"', ""]
    if p["typedef"]:
        L += ["#ifdef USE_DOUBLE", "typedef double real;", "#else",
              "typedef float real;", "#endif", ""]
    if p["fixed"]:
        for d in range(p["dims"]):
            L.append("#define %s %d" % ("NMLK"[d], p["fixed"][d]))
    if p.get("polybench"):
        L += polybench_lines(p)
    for s in p["scalars"]:
        v = s["value"]
        if s["home"] == "macro":
            L.append("#define %s %s" % (s["name"], lit(p, v)))
        elif s["home"] in ("global", "const-global"):
            L.append("%s%s %s = %s;" % ("static const " if s["home"] == "const-global" else "",
                                       s["type"], s["name"],
                                       v if s["type"] == "int" else repr(float(v))))
    return L


def main_head(p):
    """main's first lines: the arguments (sizes, t0, T, the output file)
    and the cell count."""
    dims, fixed = p["dims"], p["fixed"]
    t0 = p["t_start"] == "param"
    nargs = (0 if fixed else dims) + (1 if t0 else 0) + 2
    L = ["int main(int argc, char **argv)", "{",
         "  if (argc != %d) {" % (nargs + 1),
         '    fprintf(stderr, "usage: %%s%s%s T OUT\\n", argv[0]);' % (
             "" if fixed else " " + " ".join(SIZE_NAMES[:dims]), " t0" if t0 else ""),
         "    return 2;", "  }"]
    a = 1
    if not fixed:
        for d in range(dims):
            L.append("  int %s = atoi(argv[%d]);" % (SIZE_NAMES[d], a))
            a += 1
    if t0:
        L.append("  int t0 = atoi(argv[%d]);" % a)
        a += 1
    L.append("  int T = atoi(argv[%d]);" % a)
    L.append("  const char *out = argv[%d];" % (a + 1))
    L.append("  long cells = %s;" % " * ".join("(long)%s" % extent(p, d) for d in range(dims)))
    return L


def run_function(p, arrays, pre, post):
    """run(T, [t0], sizes, scalar parameters, arrays): pre, the scop, post."""
    plist = ["int T"] + (["int t0"] if p["t_start"] == "param" else []) + \
        ([] if p["fixed"] else ["int %s" % SIZE_NAMES[d] for d in range(p["dims"])]) + \
        ["%s %s" % (s["type"], s["name"]) for s in p["scalars"] if s["home"] == "param"]
    return ["static void run(%s)" % ", ".join(plist + arrays), "{"] + \
        ["  " + x for x in pre] + [scop_text(p, 2).rstrip("\n")] + \
        ["  " + x for x in post] + ["}", ""]


def run_args(p, buffers):
    """main's call of run(): T, t0, the sizes, the scalar parameters' values
    and (unless the arrays are global) the buffers."""
    args = ["T"] + (["t0"] if p["t_start"] == "param" else []) + \
        [SIZE_NAMES[d] for d in range(p["dims"])] * (not p["fixed"])
    for s in p["scalars"]:
        if s["home"] == "param":
            args.append(str(s["value"]) if s["type"] == "int" else repr(float(s["value"])))
    return args + (buffers if p["decl"] != "fixed-global" else [])


def render_two(p):
    """The program of two arrays in turn or a pointer swap: the harness's
    planes are two buffers, buf0 (read first) and buf1, written in that
    order."""
    dims, fixed = p["dims"], p["fixed"]
    elem = "real" if p["typedef"] else p["elem"]
    a, b = p["array"], p["array2"]
    ext = "".join("[%s]" % extent(p, d) for d in range(dims))
    L = prelude(p)
    turns = p["form"] == "turns"
    if turns and p["decl"] == "fixed-global":
        L.append("static %s %s%s, %s%s;" % (elem, a, ext, b, ext))
    L.append("")
    pre, post = [], []
    if not turns:
        # The swapped pointers start at the harness's two buffers.
        cast = "(%s)" % pointer_type(p, "")
        pre.append("%s = %sharness_a, %s = %sharness_b;" % (
            pointer_type(p, a), cast, pointer_type(p, b)[len(elem) + 1:], cast))
        if p["tmp_outside"]:
            pre.append("%s = %s;" % (pointer_type(p, p["tmp"]), a))
    if p["outer_iters"]:
        pre.append("int %s;" % ", ".join("%s = -7" % v for v in p["iters"]))
    for s in p["scalars"]:
        if s["home"] == "const-local":
            pre.append("const %s %s = %s;" % (s["type"], s["name"],
                                             s["value"] if s["type"] == "int" else repr(float(s["value"]))))
    if p["form"] == "swap-flat":
        last_cell = "%s[%s - 1]" % ("%s", " * ".join(extent(p, d) for d in range(dims)))
        corner = lambda name: "%s[0]" % name
        lastc = lambda name: last_cell % name
    else:
        corner = lambda name: name + "[0]" * dims
        lastc = lambda name: name + "".join("[%s - 1]" % extent(p, d) for d in range(dims))
    if p["outer_iters"]:
        it = p["iters"]
        post.append("%s = (%s)%s;" % (corner(a), elem, it[0]))
        post.append("%s = (%s)%s;" % (lastc(b), elem, it[1]))
        post.append("%s = (%s)%s;" % (lastc(a), elem, it[-1]))
    if not turns and p["mark_pointers"]:
        # Where each pointer points after the region: C's answer.
        post.append("%s = %s + (%s)100;" % (corner(a), corner(a), elem))
        post.append("%s = %s - (%s)50;" % (lastc(b), lastc(b), elem))
    in_main = p["decl"] == "fixed-local"
    if not in_main:
        if not turns:
            arrays = ["void *harness_a", "void *harness_b"]
        elif p["polybench"]:
            arrays = [polybench_param(p, a), polybench_param(p, b)]
        elif p["decl"] != "fixed-global":
            arrays = ["%s %s%s" % (elem, a, ext), "%s %s%s" % (elem, b, ext)]
        else:
            arrays = []
        L += run_function(p, arrays, pre, post)
    L += main_head(p)
    zero = "[0]" * dims
    if in_main:
        L.append("  static %s %s%s, %s%s;" % (elem, a, ext, b, ext))
    if turns and p["decl"] in ("fixed-local", "fixed-global"):
        L.append("  %s *buf0 = &%s%s, *buf1 = &%s%s;" % (elem, a, zero, b, zero))
    else:
        L.append("  %s *buf = (%s *)malloc(sizeof(%s) * 2 * cells);" % (elem, elem, elem))
        L.append("  if (buf == NULL)")
        L.append("    return 1;")
        L.append("  %s *buf0 = buf, *buf1 = buf + cells;" % elem)
    L.append("  for (long harness_cell = 0; harness_cell < 2 * cells; harness_cell++) {")
    L.append("    %s v = (%s)(harness_cell < cells ? ((harness_cell * 7 + 3) %% 17) / 16.0 + 0.25"
             " : ((harness_cell * 5 + 1) %% 11) / 16.0 - 0.25);" % (elem, elem))
    L.append("    if (harness_cell < cells)")
    L.append("      buf0[harness_cell] = v;")
    L.append("    else")
    L.append("      buf1[harness_cell - cells] = v;")
    L.append("  }")
    if in_main:
        L += ["  " + x for x in pre]
        L.append(scop_text(p, 2).rstrip("\n"))
        L += ["  " + x for x in post]
    else:
        L.append("  run(%s);" % ", ".join(run_args(p, ["(void *)buf0", "(void *)buf1"])))
    L.append("  FILE *f = fopen(out, \"wb\");")
    L.append("  if (f == NULL || fwrite(buf0, sizeof(%s), cells, f) != (size_t)cells ||" % elem)
    L.append("      fwrite(buf1, sizeof(%s), cells, f) != (size_t)cells || fclose(f) != 0)" % elem)
    L.append("    return 1;")
    L.append("  return 0;")
    L.append("}")
    return "\n".join(L) + "\n"


def render(p):
    """The C program: usage PROG [sizes] [t0] T OUT; writes both planes."""
    if p["form"] != "plane":
        return render_two(p)
    dims = p["dims"]
    elem = "real" if p["typedef"] else p["elem"]
    fixed = p["fixed"]
    L = prelude(p)
    ext = "".join("[%s]" % extent(p, d) for d in range(dims))
    planes = str(p["planes"])
    if p["decl"] == "fixed-global":
        L.append("static %s %s[%s]%s;" % (elem, p["array"], planes, ext))
    L.append("")
    # Iterators declared before the nest; their final values are stored.
    pre = []
    post = []
    if p["outer_iters"]:
        pre.append("int %s;" % ", ".join("%s = -7" % v for v in p["iters"]))
        corner0 = "[0]" * dims
        cornerl = "".join("[%s - 1]" % extent(p, d) for d in range(dims))
        post.append("%s[0]%s = (%s)%s;" % (p["array"], corner0, elem, p["iters"][0]))
        post.append("%s[1]%s = (%s)%s;" % (p["array"], cornerl, elem, p["iters"][1]))
        post.append("%s[0]%s = (%s)%s;" % (p["array"], cornerl, elem, p["iters"][-1]))
    for s in p["scalars"]:
        if s["home"] == "const-local":
            pre.append("const %s %s = %s;" % (s["type"], s["name"],
                                             s["value"] if s["type"] == "int" else repr(float(s["value"]))))
    in_main = p["decl"] in ("main-vla", "fixed-local")
    if not in_main:
        rest = ext
        arr = {"ptr-param": "%s (*%s)%s" % (elem, p["array"], rest),
               "restrict-param": "%s (*restrict %s)%s" % (elem, p["array"], rest),
               "array-param": "%s %s[2]%s" % (elem, p["array"], ext),
               "fixed-param": "%s %s[2]%s" % (elem, p["array"], ext),
               "fixed-global": None}[p["decl"]]
        L += run_function(p, [arr] if arr else [], pre, post)
    # main: arguments, initial values, the run, the file.
    L += main_head(p)
    if p["decl"] in ("fixed-local",):
        L.append("  static %s %s[2]%s;" % (elem, p["array"], ext))
        L.append("  %s *buf = &%s[0]%s;" % (elem, p["array"], "[0]" * dims))
    elif p["decl"] == "fixed-global":
        L.append("  %s *buf = &%s[0]%s;" % (elem, p["array"], "[0]" * dims))
    else:
        L.append("  %s *buf = (%s *)malloc(sizeof(%s) * %s * cells);" % (elem, elem, elem, planes))
        L.append("  if (buf == NULL)")
        L.append("    return 1;")
    # harness_cell, not c: a scalar of the program may be a macro named c.
    L.append("  for (long harness_cell = 0; harness_cell < %s * cells; harness_cell++)" % planes)
    L.append("    buf[harness_cell] = (%s)(harness_cell < cells ? ((harness_cell * 7 + 3) %% 17) / 16.0 + 0.25"
             " : ((harness_cell * 5 + 1) %% 11) / 16.0 - 0.25);" % elem)
    if p["decl"] == "main-vla":
        L.append("  %s (*%s)%s = (%s (*)%s)buf;" % (elem, p["array"], ext, elem, ext))
    if in_main:
        L += ["  " + x for x in pre]
        L.append(scop_text(p, 2).rstrip("\n"))
        L += ["  " + x for x in post]
    else:
        L.append("  run(%s);" % ", ".join(run_args(p, ["(void *)buf"])))
    L.append("  FILE *f = fopen(out, \"wb\");")
    L.append("  if (f == NULL || fwrite(buf, sizeof(%s), %s * cells, f) != (size_t)(%s * cells)"
             " || fclose(f) != 0)" % (elem, planes, planes))
    L.append("    return 1;")
    L.append("  return 0;")
    L.append("}")
    return "\n".join(L) + "\n"


def defines(p):
    """Preprocessor definitions both builds need (-DUSE_DOUBLE for a typedef
    program of doubles) and those only the C build and an5dc see (macros from
    the command line, which the generated file defines itself)."""
    both = ["-DUSE_DOUBLE"] if p["typedef"] and p["elem"] == "double" else []
    if p.get("polybench"):
        both.append("-I" + POLYBENCH_DIR)
    cmdline = ["-D%s=%s" % (s["name"], lit(p, s["value"]))
               for s in p["scalars"] if s["home"] == "cmdline"]
    return both, cmdline


def program_args(p, sizes, t0, steps):
    """The program's arguments (before the output file) for a run."""
    args = [] if p["fixed"] else [str(v) for v in sizes]
    if p["t_start"] == "param":
        args.append(str(t0))
    args.append(str(steps))
    return args


def clone(p):
    return copy.deepcopy(p)
