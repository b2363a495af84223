#!/usr/bin/env python3
"""Writes the public pseudo-Boolean tuning set in instances/pb-bench/, deterministically.

    python3 scripts/gen-pb-bench.py [--miplib3 DIR]

Run from anywhere; paths are relative to the repository. Three kinds of file are written:

* crafted families, each instance from a fixed seed (random.Random(seed) only, so every
  Python 3 writes the same bytes);
* decision pairs derived from the MIPLIB 3 problems of instances/miplib/ (objective turned
  into `obj <= v` and `obj <= v-1`, v the published optimum);
* MIPLIB 3 problems converted from COIN-OR's Data-miplib3 MPS files. Those are only
  rewritten when --miplib3 points at a checkout of that repository (commit in MIPLIB3_COMMIT);
  the MPS files' sha256 are checked first. Without it they are left as they are.

Finally MANIFEST.tsv is written from the table each family fills in. Expected answers come
from the construction (planted solutions, counting arguments, exhaustive meet-in-the-middle
enumeration done here), from MIPLIB 3's published optima, or from the table SOLVED below,
which records answers that two independent solvers agreed on (see SOURCE.md).

Files over GZ_OVER bytes are written gzipped (mtime 0, so the bytes are reproducible).
"""
import bisect
import gzip
import hashlib
import io
import os
import random
import sys
from decimal import Decimal

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "instances", "pb-bench")
GZ_OVER = 50_000
MIPLIB3_REPO = "coin-or-tools/Data-miplib3"
MIPLIB3_COMMIT = "36c786b3274f75d9a0062471589813b92d3da91b"

MANIFEST = []  # (path, kind, expected, family, size, origin, source)

# Answers no construction gives, established by two independent solvers agreeing, each
# run once with a 60 s limit on one core (see SOURCE.md): HiGHS (highspy, one thread, gaps 0),
# sokuc's default backend choice (CBC on all of these), sokuc --backend cp (Pumpkin).
# name -> (expected, evidence); an instance missing here, or "unknown", was not proven twice.
H, C, P = "HiGHS", "sokuc/CBC", "sokuc/Pumpkin"
SOLVED = {
    "randpb-50-90-k6-s1": ("sat", (H, C)),
    "randpb-60-120-k6-s2": ("unsat", (H, C)),
    "randpb-60-130-k6-s6": ("unsat", (H, C)),
    "randpb-70-150-k6-s3": ("unsat", (H, C)),
    "randpb-80-140-k8-s4": ("unsat", (H, C)),
    "randpb-100-170-k8-s5": ("sat", (H, C)),
    "colouring-min-30-s1": (6, (H, C)),
    "colouring-min-40-s2": (6, (H, P)),  # CBC found 6 without proving it in 60 s
    "colouring-min-50-s3": (6, (H, P)),  # likewise
    "knapsack-small-30-m3-s7": (-6720, (H, C)),
    # knapsack-small-40-m5-s8: CBC proved -9602 in 9 s; HiGHS and Pumpkin did not in 60 s.
    "knapsack-small-40-m5-s8": ("unknown", (C,)),
    # knapsack-small-50-m5-s9: nothing proved an optimum in 60 s (best found -12456).
    "maxclique-40-s1": (-7, (H, C)),
    "maxclique-60-s2": (-8, (H, C)),
    "maxclique-80-s3": (-7, (H, C)),
    "setcover-30-40-s1": (60, (H, C)),
    "setcover-50-80-s2": (61, (H, C)),
    "setcover-80-120-s3": (140, (H, C)),
    "setcover-100-200-s4": (117, (H, C)),
    "vertexcover-u-40-s1": (27, (H, C)),
    "vertexcover-u-60-s2": (41, (H, C)),
    "vertexcover-u-80-s3": (52, (H, C)),
    "vertexcover-u-100-s4": (70, (H, C)),
    "vertexcover-w-50-s5": (328, (H, C)),
    "vertexcover-w-80-s6": (493, (H, C)),
    "vertexcover-w-120-s7": (668, (H, C)),
}


# ---------------------------------------------------------------- writing


def term(c, v):
    return f"{'+' if c >= 0 else '-'}{abs(c)} x{v}"


def row(terms, op, rhs):
    """terms: [(coef, var)]; op '>=', '<=' or '='. A '<=' row is written negated as '>='."""
    terms = [(c, v) for c, v in terms if c != 0]
    if op == "<=":
        terms, op, rhs = [(-c, v) for c, v in terms], ">=", -rhs
    return " ".join(term(c, v) for c, v in terms) + f" {op} {rhs} ;"


def write(kind, name, nvars, rows, objective=None, comment="", *, expected, family,
          origin="crafted", source=None):
    """Writes instances/pb-bench/KIND/NAME.opb (or .opb.gz) and records its manifest line."""
    lines = [f"* #variable= {nvars} #constraint= {len(rows)}"]
    for c in comment.splitlines():
        lines.append(f"* {c}")
    if objective is not None:
        lines.append("min: " + " ".join(term(c, v) for c, v in objective if c != 0) + " ;")
    lines.extend(rows)
    data = ("\n".join(lines) + "\n").encode()
    big = max((abs(int(t.split()[0])) for r in rows for t in _coefs(r)), default=0)
    if objective is not None:
        big = max([big] + [abs(c) for c, _ in objective])
    size = "big-int" if big >= 2**63 else "small-int"
    os.makedirs(os.path.join(OUT, kind), exist_ok=True)
    rel = f"{kind}/{name}.opb"
    path = os.path.join(OUT, rel)
    for old in (path, path + ".gz"):
        if os.path.exists(old):
            os.remove(old)
    if len(data) > GZ_OVER:
        rel += ".gz"
        buf = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as g:
            g.write(data)
        data = buf.getvalue()
    with open(os.path.join(OUT, rel), "wb") as f:
        f.write(data)
    if name in SOLVED and expected == "?":
        expected = SOLVED[name][0]
    elif expected == "?":
        expected = "unknown"
    MANIFEST.append((rel, kind, str(expected), family, size, origin,
                     source or "scripts/gen-pb-bench.py"))


def _coefs(r):
    """The 'coef var' pairs of a written row (for the size class)."""
    t = r.split()
    return [" ".join(t[i:i + 2]) for i in range(0, len(t) - 2, 2) if t[i + 1].startswith("x")]


# ---------------------------------------------------------------- exact helpers


def subset_sums(ws):
    s = [0]
    for w in ws:
        s = s + [x + w for x in s]
    return s


def subset_sum_exists(ws, target):
    """Meet in the middle: is there a subset of ws summing to target?"""
    h = len(ws) // 2
    left = set(subset_sums(ws[:h]))
    return any(target - x in left for x in subset_sums(ws[h:]))


def min_sum_at_least(ws, target):
    """Meet in the middle: the least subset sum >= target."""
    h = len(ws) // 2
    left = sorted(set(subset_sums(ws[:h])))
    best = None
    for x in subset_sums(ws[h:]):
        i = bisect.bisect_left(left, target - x)
        if i < len(left):
            s = x + left[i]
            if best is None or s < best:
                best = s
    return best


def knapsack_mitm(ws, vs, cap):
    """Meet in the middle: the largest value of a subset of weight <= cap."""
    h = len(ws) // 2

    def pairs(w, v):
        p = [(0, 0)]
        for a, b in zip(w, v):
            p = p + [(x + a, y + b) for x, y in p]
        return p

    right = sorted(pairs(ws[h:], vs[h:]))
    rw = [w for w, _ in right]
    best_upto = []
    m = -1
    for _, v in right:
        m = max(m, v)
        best_upto.append(m)
    best = 0
    for w, v in pairs(ws[:h], vs[:h]):
        if w > cap:
            continue
        i = bisect.bisect_right(rw, cap - w) - 1
        if i >= 0:
            best = max(best, v + best_upto[i])
    return best


def knapsack_dp(ws, vs, cap):
    """Dynamic programme over the capacity (small weights)."""
    dp = [0] * (cap + 1)
    for w, v in zip(ws, vs):
        for c in range(cap, w - 1, -1):
            if dp[c - w] + v > dp[c]:
                dp[c] = dp[c - w] + v
    return dp[cap]


# ---------------------------------------------------------------- crafted: decision


def pigeonhole(n, extra=1, cap=1):
    """cap*n+extra pigeons, n holes of capacity cap: unsat iff extra >= 1."""
    p_n = cap * n + extra
    v = lambda p, h: p * n + h + 1
    rows = [row([(1, v(p, h)) for h in range(n)], ">=", 1) for p in range(p_n)]
    rows += [row([(1, v(p, h)) for p in range(p_n)], "<=", cap) for h in range(n)]
    ans = "unsat" if extra >= 1 else "sat"
    write("decision", f"php-{p_n}-{n}" + (f"-cap{cap}" if cap > 1 else ""), p_n * n, rows,
          comment=f"pigeonhole: {p_n} pigeons, {n} holes of capacity {cap} ({ans} by counting)",
          expected=ans, family="pigeonhole")


def subset_sum(n, seed, sat, bits):
    """One equality; weights of `bits` bits. sat: a planted subset's sum; unsat: a target
    close to a planted sum that the exhaustive meet-in-the-middle check finds no subset for."""
    r = random.Random(seed)
    w = [r.randrange(2 ** (bits - 1), 2**bits) for _ in range(n)]
    target = sum(x for x in w if r.random() < 0.5)
    if not sat:
        step = 0
        while subset_sum_exists(w, target):
            step += 1
            target += r.randrange(1, 2 ** max(1, bits // 3))
    ok = subset_sum_exists(w, target)
    assert ok == sat
    ans = "sat" if sat else "unsat"
    write("decision", f"subsetsum-{n}-b{bits}-{ans}-s{seed}", n,
          [row([(c, i + 1) for i, c in enumerate(w)], "=", target)],
          comment=f"subset sum: {n} weights of {bits} bits, seed {seed}; {ans} "
                  "(checked by exhaustive meet-in-the-middle enumeration)",
          expected=ans, family="subsetsum")


def market_split(m, seed, aggregate=False):
    """Cornuejols-Dawande market split: m rows over n = 10(m-1) variables, coefficients
    0..99, right-hand side floor(row sum / 2). aggregate: the m rows folded into one equality
    with base B = 2^24 > every row sum (same 0/1 solutions; coefficients past 2^63)."""
    n = 10 * (m - 1)
    r = random.Random(seed)
    a = [[r.randrange(100) for _ in range(n)] for _ in range(m)]
    d = [sum(ai) // 2 for ai in a]
    # exhaustive check by meet in the middle over the vector of row sums
    h = n // 2

    def vecs(lo, hi):
        out = [tuple([0] * m)]
        for j in range(lo, hi):
            col = [a[i][j] for i in range(m)]
            out = out + [tuple(x + c for x, c in zip(t, col)) for t in out]
        return out

    left = set(vecs(0, h))
    sat = any(tuple(di - x for di, x in zip(d, t)) in left for t in vecs(h, n))
    ans = "sat" if sat else "unsat"
    if aggregate:
        base = 2**24
        coef = [sum(a[i][j] * base**i for i in range(m)) for j in range(n)]
        rhs = sum(d[i] * base**i for i in range(m))
        rows = [row([(c, j + 1) for j, c in enumerate(coef)], "=", rhs)]
        name = f"marketsplit-agg-{m}-{n}-s{seed}"
        what = f"market split {m}x{n} (seed {seed}) folded into one equality, base 2^24"
    else:
        rows = [row([(a[i][j], j + 1) for j in range(n)], "=", d[i]) for i in range(m)]
        name = f"marketsplit-{m}-{n}-s{seed}"
        what = f"market split {m}x{n}, coefficients 0..99, seed {seed}"
    write("decision", name, n, rows,
          comment=f"{what}; {ans} (checked by exhaustive meet-in-the-middle enumeration)",
          expected=ans, family="marketsplit")


def knapsack_decision(n, seed, sat, big):
    """weight <= W and value >= V where V is the exact optimum (sat) or one more (unsat).
    small: weights/values 10..1000, W half the weight sum, optimum by dynamic programming;
    big: 90..100-bit weights and values, optimum by meet-in-the-middle (n <= 34)."""
    r = random.Random(seed)
    if big:
        w = [r.randrange(2**90, 2**100) for _ in range(n)]
        v = [r.randrange(2**90, 2**100) for _ in range(n)]
        cap = sum(w) // 2
        best = knapsack_mitm(w, v, cap)
    else:
        w = [r.randrange(10, 1001) for _ in range(n)]
        v = [x + r.randrange(-5, 6) for x in w]  # strongly correlated
        cap = sum(w) // 2
        best = knapsack_dp(w, v, cap)
    target = best if sat else best + 1
    rows = [row([(c, i + 1) for i, c in enumerate(w)], "<=", cap),
            row([(c, i + 1) for i, c in enumerate(v)], ">=", target)]
    ans = "sat" if sat else "unsat"
    how = "meet-in-the-middle" if big else "dynamic programming"
    write("decision", f"knapsack-dec-{n}-{'big' if big else 'small'}-{ans}-s{seed}", n, rows,
          comment=f"knapsack decision, seed {seed}: value >= the optimum{'' if sat else ' + 1'} "
                  f"({ans}; optimum {best} by {how})",
          expected=ans, family="knapsack-dec")


def regular_graph(n, d, r):
    """A random connected d-regular simple graph (configuration model with restarts)."""
    while True:
        pts = [v for v in range(n) for _ in range(d)]
        r.shuffle(pts)
        edges = set()
        ok = True
        for i in range(0, len(pts), 2):
            a, b = sorted((pts[i], pts[i + 1]))
            if a == b or (a, b) in edges:
                ok = False
                break
            edges.add((a, b))
        if not ok:
            continue
        edges = sorted(edges)
        adj = {v: [] for v in range(n)}
        for a, b in edges:
            adj[a].append(b)
            adj[b].append(a)
        seen, stack = {0}, [0]
        while stack:
            for u in adj[stack.pop()]:
                if u not in seen:
                    seen.add(u)
                    stack.append(u)
        if len(seen) == n:
            return edges


def tseitin(n, d, seed, sat):
    """Tseitin parity on a random connected d-regular graph: edge variables, each vertex's
    incident sum = charge + 2k (k in binary auxiliaries). Unsat iff the charges' sum is odd."""
    r = random.Random(seed)
    edges = regular_graph(n, d, r)
    charge = [r.randrange(2) for _ in range(n)]
    if (sum(charge) % 2 == 0) != sat:
        charge[0] ^= 1
    nv = len(edges)
    rows = []
    kbits = (d // 2).bit_length()
    for v in range(n):
        terms = [(1, i + 1) for i, (a, b) in enumerate(edges) if v in (a, b)]
        for j in range(kbits):
            nv += 1
            terms.append((-(2 ** (j + 1)), nv))
        rows.append(row(terms, "=", charge[v]))
    ans = "sat" if sat else "unsat"
    write("decision", f"tseitin-{n}-d{d}-{ans}-s{seed}", nv, rows,
          comment=f"Tseitin parity on a random connected {d}-regular graph of {n} vertices, "
                  f"seed {seed}; charge sum {'even: sat' if sat else 'odd: unsat'}",
          expected=ans, family="tseitin")


def colouring(n, k, seed, p, clique=False):
    """Graph with a planted k-colouring (edges between classes with probability p); k colours:
    sat. clique: a (k+1)-clique is added, which makes it unsat."""
    r = random.Random(seed)
    cls = [r.randrange(k) for _ in range(n)]
    edges = {(a, b) for a in range(n) for b in range(a + 1, n) if cls[a] != cls[b] and r.random() < p}
    if clique:
        vs = sorted(r.sample(range(n), k + 1))
        edges |= {(a, b) for i, a in enumerate(vs) for b in vs[i + 1:]}
    edges = sorted(edges)
    v = lambda x, c: x * k + c + 1
    rows = [row([(1, v(x, c)) for c in range(k)], "=", 1) for x in range(n)]
    for a, b in edges:
        for c in range(k):
            rows.append(row([(1, v(a, c)), (1, v(b, c))], "<=", 1))
    ans = "unsat" if clique else "sat"
    write("decision", f"colouring-{n}-k{k}-{ans}-s{seed}", n * k, rows,
          comment=f"{k}-colouring of a random graph ({n} vertices, {len(edges)} edges) with a planted "
                  f"{k}-colouring" + (f" and a {k + 1}-clique added: unsat" if clique else ": sat")
                  + f", seed {seed}",
          expected=ans, family="colouring")


def queens(n, extra=0):
    """n+extra queens on an n x n board: rows at most one, columns at most one, diagonals
    at most one, n+extra queens in all. extra=0: sat (n >= 4); extra=1: unsat (n rows)."""
    v = lambda i, j: i * n + j + 1
    rows = [row([(1, v(i, j)) for i in range(n) for j in range(n)], ">=", n + extra)]
    for i in range(n):
        rows.append(row([(1, v(i, j)) for j in range(n)], "<=", 1))
        rows.append(row([(1, v(j, i)) for j in range(n)], "<=", 1))
    for s in range(1, 2 * n - 2):
        cells = [(i, s - i) for i in range(n) if 0 <= s - i < n]
        rows.append(row([(1, v(i, j)) for i, j in cells], "<=", 1))
    for dd in range(-(n - 2), n - 1):
        cells = [(i, i - dd) for i in range(n) if 0 <= i - dd < n]
        rows.append(row([(1, v(i, j)) for i, j in cells], "<=", 1))
    ans = "sat" if extra == 0 else "unsat"
    write("decision", f"queens-{n}" + (f"-plus{extra}-unsat" if extra else "-sat"), n * n, rows,
          comment=f"{n + extra} non-attacking queens on a {n}x{n} board ({ans})",
          expected=ans, family="queens")


def bins_items(b, cap, per, r):
    """Items that fill b bins of capacity cap exactly, about `per` per bin, shuffled."""
    items = []
    for _ in range(b):
        cuts = sorted(r.sample(range(1, cap), per - 1))
        items += [y - x for x, y in zip([0] + cuts, cuts + [cap])]
    r.shuffle(items)
    return items


def binpacking(b, cap, per, seed, sat):
    """Items filling b bins exactly; b bins (sat) or b-1 bins (unsat: total size > (b-1)cap)."""
    r = random.Random(seed)
    items = bins_items(b, cap, per, r)
    nb = b if sat else b - 1
    v = lambda i, k: i * nb + k + 1
    rows = [row([(1, v(i, k)) for k in range(nb)], "=", 1) for i in range(len(items))]
    rows += [row([(s, v(i, k)) for i, s in enumerate(items)], "<=", cap) for k in range(nb)]
    ans = "sat" if sat else "unsat"
    write("decision", f"binpacking-{len(items)}-b{nb}-{ans}-s{seed}", len(items) * nb, rows,
          comment=f"bin packing: {len(items)} items filling {b} bins of capacity {cap} exactly, "
                  f"{nb} bins offered ({ans}), seed {seed}",
          expected=ans, family="binpacking")


def planted(n, m, k, seed, bits, frac=0.5):
    """m '>=' rows over k random literals of n variables, coefficients of `bits` bits; the
    right-hand side is frac of what a planted assignment reaches on the row: sat."""
    r = random.Random(seed)
    sol = [r.randrange(2) for _ in range(n)]
    rows = []
    for _ in range(m):
        vs = r.sample(range(n), k)
        terms, const, reach = [], 0, 0
        for x in vs:
            c = r.randrange(2 ** (bits - 1), 2**bits)
            if r.random() < 0.5:  # literal x
                terms.append((c, x + 1))
                reach += c * sol[x]
            else:  # literal ~x = 1 - x
                terms.append((-c, x + 1))
                const += c
                reach += c * (1 - sol[x])
        rhs = int(reach * frac) - const if reach > 0 else -const
        rows.append(row(terms, ">=", rhs))
    write("decision", f"planted-{n}-{m}-k{k}-b{bits}-s{seed}", n, rows,
          comment=f"{m} random rows over {k} of {n} variables, {bits}-bit coefficients, each at most "
                  f"{frac} of what a planted assignment reaches (sat), seed {seed}",
          expected="sat", family="planted")


def random_rows(n, m, k, seed, ratio):
    """Unplanted random '>=' rows over k literals, right-hand side ratio * row maximum.
    The answer is not known by construction (SOLVED table, or unknown)."""
    r = random.Random(seed)
    rows = []
    for _ in range(m):
        vs = r.sample(range(n), k)
        cs = [r.randrange(1, 100) for _ in vs]
        terms, const = [], 0
        for x, c in zip(vs, cs):
            if r.random() < 0.5:
                terms.append((c, x + 1))
            else:
                terms.append((-c, x + 1))
                const += c
        rows.append(row(terms, ">=", int(sum(cs) * ratio) - const))
    write("decision", f"randpb-{n}-{m}-k{k}-s{seed}", n, rows,
          comment=f"{m} random rows over {k} of {n} variables, coefficients 1..99, right-hand side "
                  f"{ratio} of the row's maximum, seed {seed} (answer from two solvers)",
          expected="?", family="random-pb")


# ---------------------------------------------------------------- crafted: optimisation


def knapsack_opt(n, seed, big, m=1):
    """0/1 knapsack, maximise value (min: of its negation). m=1: optimum by DP (small) or
    meet in the middle (big); m>1: multidimensional, optimum from the SOLVED table."""
    r = random.Random(seed)
    if big == "weights":  # big-int capacity row, small values (a 64-bit objective)
        w = [[r.randrange(2**80, 2**100) for _ in range(n)]]
        v = [r.randrange(10, 1001) for _ in range(n)]
    elif big:
        w = [[r.randrange(2**80, 2**100) for _ in range(n)]]
        v = [r.randrange(2**80, 2**100) for _ in range(n)]
    else:
        w = [[r.randrange(10, 1001) for _ in range(n)] for _ in range(m)]
        v = [max(1, sum(wi[j] for wi in w) // m + r.randrange(-20, 21)) for j in range(n)]
    caps = [sum(wi) // 2 for wi in w]
    rows = [row([(c, j + 1) for j, c in enumerate(wi)], "<=", cap) for wi, cap in zip(w, caps)]
    name = f"knapsack-{'bigw' if big == 'weights' else 'big' if big else 'small'}-{n}" + (f"-m{m}" if m > 1 else "") + f"-s{seed}"
    if m == 1:
        best = knapsack_mitm(w[0], v, caps[0]) if big else knapsack_dp(w[0], v, caps[0])
        expected, how = -best, ("meet-in-the-middle" if big else "dynamic programming")
    else:
        expected, how = "?", "two solvers"
    write("optimisation", name, n, rows, objective=[(-c, j + 1) for j, c in enumerate(v)],
          comment=f"0/1 knapsack ({m} capacity rows), maximise value, seed {seed}; optimum by {how}",
          expected=expected, family="knapsack" if m == 1 else "mknapsack")


def knapsack_correlated(n, seed, kind, spread=10_000):
    """A correlated 0/1 knapsack in Pisinger's classes: `strong`, value = weight + spread/10;
    `invstrong`, weight = value + spread/10. The capacity is half the total weight. These are
    the knapsacks whose LP bound is loosest. Optimum by dynamic programming over the capacity
    (numpy, as a whole array per item)."""
    import numpy as np
    r = random.Random(seed)
    if kind == "strong":
        w = [r.randint(1, spread) for _ in range(n)]
        v = [wi + spread // 10 for wi in w]
    else:
        v = [r.randint(1, spread) for _ in range(n)]
        w = [vi + spread // 10 for vi in v]
    cap = sum(w) // 2
    best = np.zeros(cap + 1, dtype=np.int64)
    for wi, vi in zip(w, v):
        best[wi:] = np.maximum(best[wi:], best[:-wi] + vi)
    write("optimisation", f"knapsack-{kind}-{n}-s{seed}", n,
          [row([(c, j + 1) for j, c in enumerate(w)], "<=", cap)],
          objective=[(-c, j + 1) for j, c in enumerate(v)],
          comment=f"0/1 knapsack, {'strongly' if kind == 'strong' else 'inverse strongly'} correlated "
                  f"(Pisinger's class), weights to {spread}, seed {seed}; optimum by dynamic programming",
          expected=-int(best[cap]), family="knapsack-corr")


def subset_sum_min(n, seed, bits):
    """Least subset sum of n `bits`-bit weights reaching a target (min: the sum; optimum by
    meet-in-the-middle)."""
    r = random.Random(seed)
    w = [r.randrange(2 ** (bits - 1), 2**bits) for _ in range(n)]
    target = sum(w) // 3 + r.randrange(2**bits)
    best = min_sum_at_least(w, target)
    write("optimisation", f"subsetsum-min-{n}-b{bits}-s{seed}", n,
          [row([(c, i + 1) for i, c in enumerate(w)], ">=", target)],
          objective=[(c, i + 1) for i, c in enumerate(w)],
          comment=f"least subset sum >= a target, {n} weights of {bits} bits, seed {seed}; "
                  "optimum by meet-in-the-middle",
          expected=best, family="subsetsum-min")


def binpacking_opt(b, cap, per, seed):
    """Minimise the bins used; items fill b bins exactly, b+2 offered: optimum b
    (total size = b*cap is a lower bound, the planted packing reaches it)."""
    r = random.Random(seed)
    items = bins_items(b, cap, per, r)
    nb = b + 2
    ni = len(items)
    v = lambda i, k: i * nb + k + 1
    y = lambda k: ni * nb + k + 1
    rows = [row([(1, v(i, k)) for k in range(nb)], "=", 1) for i in range(ni)]
    rows += [row([(s, v(i, k)) for i, s in enumerate(items)] + [(-cap, y(k))], "<=", 0)
             for k in range(nb)]
    write("optimisation", f"binpacking-min-{ni}-s{seed}", ni * nb + nb, rows,
          objective=[(1, y(k)) for k in range(nb)],
          comment=f"bin packing: {ni} items filling {b} bins of capacity {cap} exactly, {nb} bins "
                  f"offered, minimise the bins used; optimum {b} by construction, seed {seed}",
          expected=b, family="binpacking-min")


def gnp(n, p, r):
    return [(a, b) for a in range(n) for b in range(a + 1, n) if r.random() < p]


def vertex_cover(n, p, seed, weighted):
    r = random.Random(seed)
    edges = gnp(n, p, r)
    wts = [r.randrange(1, 21) if weighted else 1 for _ in range(n)]
    rows = [row([(1, a + 1), (1, b + 1)], ">=", 1) for a, b in edges]
    write("optimisation", f"vertexcover-{'w' if weighted else 'u'}-{n}-s{seed}", n, rows,
          objective=[(w, i + 1) for i, w in enumerate(wts)],
          comment=f"minimum {'weighted ' if weighted else ''}vertex cover of G({n}, {p}), seed {seed} "
                  f"({len(edges)} edges)",
          expected="?", family="vertexcover")


def set_cover(nelem, nsets, seed, density):
    r = random.Random(seed)
    sets = [[e for e in range(nelem) if r.random() < density] for _ in range(nsets)]
    for e in range(nelem):  # every element coverable
        if not any(e in s for s in sets):
            sets[r.randrange(nsets)].append(e)
    cost = [r.randrange(1, 11) + len(s) // 2 for s in sets]
    rows = [row([(1, j + 1) for j, s in enumerate(sets) if e in s], ">=", 1) for e in range(nelem)]
    write("optimisation", f"setcover-{nelem}-{nsets}-s{seed}", nsets, rows,
          objective=[(c, j + 1) for j, c in enumerate(cost)],
          comment=f"weighted set cover: {nelem} elements, {nsets} random sets (density {density}), seed {seed}",
          expected="?", family="setcover")


def max_clique(n, p, seed):
    r = random.Random(seed)
    es = set(gnp(n, p, r))
    rows = [row([(1, a + 1), (1, b + 1)], "<=", 1)
            for a in range(n) for b in range(a + 1, n) if (a, b) not in es]
    write("optimisation", f"maxclique-{n}-s{seed}", n, rows,
          objective=[(-1, i + 1) for i in range(n)],
          comment=f"maximum clique of G({n}, {p}) (min: minus the size), seed {seed}",
          expected="?", family="maxclique")


def colouring_opt(n, p, seed, k):
    """Minimum colouring with at most k colours: x_vc, colour-used u_c, u_c >= u_{c+1}."""
    r = random.Random(seed)
    edges = gnp(n, p, r)
    v = lambda x, c: x * k + c + 1
    u = lambda c: n * k + c + 1
    rows = [row([(1, v(x, c)) for c in range(k)], "=", 1) for x in range(n)]
    for a, b in edges:
        for c in range(k):
            rows.append(row([(1, v(a, c)), (1, v(b, c)), (-1, u(c))], "<=", 0))
    for c in range(k - 1):
        rows.append(row([(1, u(c)), (-1, u(c + 1))], ">=", 0))
    write("optimisation", f"colouring-min-{n}-s{seed}", n * k + k, rows,
          objective=[(1, u(c)) for c in range(k)],
          comment=f"minimum colouring of G({n}, {p}) with up to {k} colours, seed {seed}",
          expected="?", family="colouring-min")


# ---------------------------------------------------------------- MIPLIB


def read_opb_text(path):
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".gz"):
        data = gzip.decompress(data)
    return data.decode()


def miplib_pairs():
    """For each problem of instances/miplib/ (minimise, published optimum v in its header):
    `obj <= v` (sat) and `obj <= v-1` (unsat). Rows are copied, the min: line becomes a '>='
    row of the negated objective; rows without terms are dropped (all are '>= 0' or '= 0')."""
    d = os.path.join(ROOT, "instances", "miplib")
    for fn in sorted(os.listdir(d)):
        if ".opb" not in fn:
            continue
        text = read_opb_text(os.path.join(d, fn))
        name = fn.split(".opb")[0]
        emit_pair(name, text, "instances/miplib/" + fn, origin_note="instances/miplib/" + fn)


def emit_pair(name, text, src, origin_note):
    opt = None
    obj = None
    rows = []
    nvars = None
    for line in text.splitlines():
        if line.startswith("* #variable="):
            nvars = int(line.split()[2])
        elif line.startswith("* published optimum:"):
            assert "here" not in line, line  # an objective scaled by the converter
            opt = int(line.split(":")[1].split()[0])
        elif line.startswith("*"):
            continue
        elif line.startswith("min:"):
            t = line[4:].rstrip(" ;").split()
            obj = [(int(t[i]), int(t[i + 1][1:])) for i in range(0, len(t), 2)]
        elif line.strip():
            body = line.rstrip(" ;").split()
            if len(body) == 2:  # no terms
                op, rhs = body
                assert (op == ">=" and int(rhs) <= 0) or (op == "=" and int(rhs) == 0), line
                continue
            rows.append(line)
    assert opt is not None and obj is not None
    for bound, ans in ((opt, "sat"), (opt - 1, "unsat")):
        write("decision", f"miplib-{name}-le{'opt' if ans == 'sat' else 'opt-1'}", nvars,
              rows + [row(obj, "<=", bound)],
              comment=f"{name} (MIPLIB 3) with its objective turned into a constraint: objective "
                      f"<= {bound}, the published optimum{'' if ans == 'sat' else ' - 1'} ({ans}).\n"
                      f"Rows from {origin_note}; the last row is the objective.",
              expected=ans, family="miplib-pair", origin="industrial", source=src)


# MIPLIB 3 problems of Data-miplib3 that are pure 0/1 and not in instances/miplib:
# name -> (published optimum from miplib3.cat "INT SOLN", sha256 of the uncompressed MPS)
MIPLIB3 = {
    "air03": (340160,
              "2346f74b150a39aef68378c9e576346ecfe9e175fa5f7538977e9d8224c393a1"),
    "air04": (56137,
              "364f229be10401a476c06c3b42ff91aff3996d4c8c55c5ba2c6d9f8d0b02ad01"),
    "air05": (26374,
              "1ca185a7d8d6eaa48d959a8b4c00e3b0d6faf0f9e4ec4411c3228224dca074e3"),
    "cap6000": (-2451377,
              "b9fb72f2d0354c1609457f4e1e4c69c83879a1601dfba4c6894c0b6d5357fddc"),
    "fast0507": (174,
              "5d27d3474d016e827c360a5c621a802edd5d5c8c163b7f782bb5ecf3083d0275"),
    "harp2": (-73899798,
              "c37a4883625984b9c73224bd819bc543a7933bdb8c3594aa7e2706e4e87031b9"),
    "mitre": (115155,
              "8fa9e44b18b34e4a91f53c451730fad0a76e713a7f51151f9a506c728978bb30"),
    "nw04": (16862,
              "d860a0ec0684bdfc131171a16c59d298c1d31da1e02d5f9053762d6970b33a6d"),
    "seymour": (423,
              "48bcd17a805be73c68e0af115d7fcbc520a5e52da2fb81dde51beaa4d396aa69"),
}


def mps_to_rows(text, where):
    """A pure 0/1 MPS (minimise, no RANGES, no objective constant) as (ncols, objective, rows).
    Column i (in order of first appearance) is x<i>. Decimal coefficients are scaled per row
    by the power of ten that makes the row integral; a scaled objective is refused."""
    rows, order, cols, colset = {}, [], [], set()
    obj_name = None
    rhs, lo, up, ints = {}, {}, {}, set()
    section, in_int = None, False
    for no, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or raw.startswith("*"):
            continue
        t = raw.split()
        if not raw[0].isspace():
            section = t[0]
            if section not in ("NAME", "ROWS", "COLUMNS", "RHS", "BOUNDS", "ENDATA"):
                raise SystemExit(f"{where}:{no}: section {section} is not converted")
            continue
        if section == "ROWS":
            if t[0] == "N":
                if obj_name is None:
                    obj_name = t[1]
                continue
            rows[t[1]] = (t[0], {})
            order.append(t[1])
        elif section == "COLUMNS":
            if len(t) >= 3 and t[1] == "'MARKER'":
                in_int = t[2] == "'INTORG'"
                continue
            c = t[0]
            if c not in colset:
                colset.add(c)
                cols.append(c)
            if in_int:
                ints.add(c)
            for i in range(1, len(t), 2):
                r, val = t[i], Decimal(t[i + 1])
                if r == obj_name:
                    rows.setdefault(obj_name, ("N", {}))[1][c] = val
                elif r in rows:
                    rows[r][1][c] = rows[r][1].get(c, Decimal(0)) + val
        elif section == "RHS":
            p = t[1:] if len(t) % 2 else t
            for i in range(0, len(p), 2):
                if p[i] == obj_name:
                    raise SystemExit(f"{where}:{no}: objective constant")
                rhs[p[i]] = Decimal(p[i + 1])
        elif section == "BOUNDS":
            kind, c = t[0], t[2]
            if kind == "BV":
                ints.add(c)
                lo[c], up[c] = Decimal(0), Decimal(1)
            elif kind in ("UP", "LO", "FX"):
                val = Decimal(t[3])
                if kind in ("UP", "FX"):
                    up[c] = val
                if kind in ("LO", "FX"):
                    lo[c] = val
            else:
                raise SystemExit(f"{where}:{no}: bound {kind} is not converted")
    for c in cols:
        l, u = lo.get(c, Decimal(0)), up.get(c)
        if c not in ints or u is None or l < 0 or u > 1:
            raise SystemExit(f"{where}: column {c} is not a binary")
    idx = {c: i + 1 for i, c in enumerate(cols)}

    def scale(vals):
        k = 0
        for x in vals:
            e = x.normalize().as_tuple().exponent
            if e < 0:
                k = max(k, -e)
        return 10**k

    out = []
    for name in order:
        sense, coefs = rows[name]
        b = rhs.get(name, Decimal(0))
        s = scale(list(coefs.values()) + [b])
        terms = [(int(x * s), idx[c]) for c, x in coefs.items() if x != 0]
        if not terms:
            continue
        out.append(row(terms, {"L": "<=", "G": ">=", "E": "="}[sense], int(b * s)))
    for c in cols:
        if up.get(c) == 0:
            out.append(row([(1, idx[c])], "<=", 0))
        if lo.get(c, Decimal(0)) == 1:
            out.append(row([(1, idx[c])], ">=", 1))
    objc = rows.get(obj_name, ("N", {}))[1]
    assert scale(objc.values()) == 1, "scaled objective"
    objective = [(int(x), idx[c]) for c, x in objc.items() if x != 0]
    return len(cols), objective, out


def miplib3(repo_dir):
    """Converts the MIPLIB3 table's problems from a Data-miplib3 checkout: each as an
    optimisation instance and as a decision pair (objective <= v, <= v-1)."""
    import subprocess
    for name, (opt, _) in MIPLIB3.items():
        blob = subprocess.run(["git", "-C", repo_dir, "show", f"{MIPLIB3_COMMIT}:{name}.gz"],
                              check=True, capture_output=True).stdout
        text = gzip.decompress(blob).decode("latin-1")
        sha = hashlib.sha256(text.encode("latin-1")).hexdigest()
        assert sha == MIPLIB3[name][1], f"{name}.gz differs from the one converted ({sha})"
        n, objective, rows = mps_to_rows(text, name)
        src = f"{MIPLIB3_REPO}@{MIPLIB3_COMMIT[:12]}:{name}.gz"
        write("optimisation", f"miplib3-{name}", n, rows, objective=objective,
              comment=f"{name}: MIPLIB 3, from {MIPLIB3_REPO} {name}.gz (commit {MIPLIB3_COMMIT}),\n"
                      f"converted by scripts/gen-pb-bench.py (x<i> is the i-th column of the MPS file)\n"
                      f"published optimum: {opt}",
              expected=opt, family="miplib3", origin="industrial", source=src)
        text_opb = "\n".join([f"* #variable= {n}", f"* published optimum: {opt}",
                              "min: " + " ".join(term(c, v) for c, v in objective) + " ;"] + rows)
        emit_pair(name, text_opb, src, origin_note=f"{MIPLIB3_REPO} {name}.gz")


def keep_miplib3_manifest():
    """Without --miplib3, the converted files stay; their manifest lines are rebuilt."""
    for name, (opt, _) in MIPLIB3.items():
        src = f"{MIPLIB3_REPO}@{MIPLIB3_COMMIT[:12]}:{name}.gz"
        for kind, fn, exp, fam in (
            ("optimisation", f"miplib3-{name}", opt, "miplib3"),
            ("decision", f"miplib-{name}-leopt", "sat", "miplib-pair"),
            ("decision", f"miplib-{name}-leopt-1", "unsat", "miplib-pair"),
        ):
            rel = f"{kind}/{fn}.opb"
            if os.path.exists(os.path.join(OUT, rel + ".gz")):
                rel += ".gz"
            elif not os.path.exists(os.path.join(OUT, rel)):
                continue
            MANIFEST.append((rel, kind, str(exp), fam, "small-int", "industrial", src))


# ---------------------------------------------------------------- all


def crafted():
    # decision
    for n in (7, 8, 9, 10, 11, 12):
        pigeonhole(n)
    pigeonhole(10, extra=0)
    pigeonhole(6, extra=1, cap=2)
    pigeonhole(8, extra=1, cap=2)
    for n, bits, seed in ((20, 24, 1), (26, 30, 2), (30, 40, 3), (24, 80, 4), (30, 100, 5), (34, 128, 6)):
        subset_sum(n, seed, True, bits)
        subset_sum(n, seed + 100, False, bits)
    for seed in (1, 2, 3):
        market_split(3, seed)
    for seed in (1, 2, 3, 4):
        market_split(4, seed)
    for seed in (5, 6, 7):
        market_split(3, seed, aggregate=True)
    market_split(4, 8, aggregate=True)
    for n, seed in ((40, 1), (60, 2), (80, 3)):
        knapsack_decision(n, seed, True, False)
        knapsack_decision(n, seed, False, False)
    for n, seed in ((24, 4), (32, 5)):
        knapsack_decision(n, seed, True, True)
        knapsack_decision(n, seed, False, True)
    for n, d, seed in ((12, 3, 1), (16, 4, 2), (20, 3, 3), (24, 4, 4), (30, 3, 5), (40, 3, 6)):
        tseitin(n, d, seed, False)
    for n, d, seed in ((20, 4, 7), (40, 3, 8), (60, 4, 9)):
        tseitin(n, d, seed, True)
    for n, k, seed, p in ((40, 4, 1, 0.4), (60, 5, 2, 0.5), (80, 6, 3, 0.5), (120, 8, 4, 0.6)):
        colouring(n, k, seed, p)
    for n, k, seed, p in ((30, 4, 5, 0.3), (40, 5, 6, 0.3), (50, 6, 7, 0.3), (40, 7, 8, 0.2)):
        colouring(n, k, seed, p, clique=True)
    for n in (8, 16, 24, 32, 50):
        queens(n)
    for n in (6, 8, 10):
        queens(n, extra=1)
    for b, cap, per, seed in ((4, 100, 4, 1), (5, 200, 4, 2), (6, 1000, 4, 3), (8, 1000, 3, 4), (10, 10000, 4, 5)):
        binpacking(b, cap, per, seed, True)
        binpacking(b, cap, per, seed, False)
    for n, m, k, seed, bits in ((200, 300, 6, 1, 10), (500, 900, 8, 2, 16), (1000, 2500, 5, 3, 7),
                                (3000, 8000, 6, 4, 20)):
        planted(n, m, k, seed, bits)
    for n, m, k, seed, bits in ((100, 120, 8, 5, 100), (300, 500, 6, 6, 160), (800, 1600, 5, 7, 80)):
        planted(n, m, k, seed, bits, frac=0.6)
    for n, m, k, seed, ratio in ((50, 90, 6, 1, 0.35), (60, 120, 6, 2, 0.35), (70, 150, 6, 3, 0.35),
                                 (80, 140, 8, 4, 0.4), (100, 170, 8, 5, 0.4), (60, 130, 6, 6, 0.35)):
        random_rows(n, m, k, seed, ratio)
    # optimisation
    for n, seed in ((50, 1), (100, 2), (200, 3)):
        knapsack_opt(n, seed, False)
    for n, seed in ((24, 4), (30, 5), (34, 6)):
        knapsack_opt(n, seed, True)
    for n, seed in ((26, 10), (30, 11), (34, 12)):
        knapsack_opt(n, seed, "weights")
    for n, seed, m in ((30, 7, 3), (40, 8, 5), (50, 9, 5)):
        knapsack_opt(n, seed, False, m)
    for n, seed, bits in ((26, 1, 64), (30, 2, 90), (34, 3, 120)):
        subset_sum_min(n, seed, bits)
    for n, seed in ((300, 21), (1000, 22), (1000, 23)):
        knapsack_correlated(n, seed, "strong")
        knapsack_correlated(n, seed, "invstrong")
    for b, cap, per, seed in ((3, 100, 3, 1), (4, 150, 4, 2), (5, 1000, 3, 3), (6, 500, 3, 4)):
        binpacking_opt(b, cap, per, seed)
    for n, p, seed in ((40, 0.2, 1), (60, 0.15, 2), (80, 0.1, 3), (100, 0.1, 4)):
        vertex_cover(n, p, seed, False)
    for n, p, seed in ((50, 0.2, 5), (80, 0.1, 6), (120, 0.05, 7)):
        vertex_cover(n, p, seed, True)
    for ne, ns, seed, dens in ((30, 40, 1, 0.1), (50, 80, 2, 0.08), (80, 120, 3, 0.05), (100, 200, 4, 0.05)):
        set_cover(ne, ns, seed, dens)
    for n, p, seed in ((40, 0.5, 1), (60, 0.5, 2), (80, 0.4, 3)):
        max_clique(n, p, seed)
    for n, p, seed, k in ((30, 0.4, 1, 9), (40, 0.3, 2, 9), (50, 0.25, 3, 9)):
        colouring_opt(n, p, seed, k)


def main():
    args = sys.argv[1:]
    repo = None
    if args[:1] == ["--miplib3"] and len(args) == 2:
        repo = args[1]
    elif args:
        raise SystemExit(__doc__)
    crafted()
    miplib_pairs()
    if repo:
        miplib3(repo)
    else:
        keep_miplib3_manifest()
    MANIFEST.sort()
    with open(os.path.join(OUT, "MANIFEST.tsv"), "w") as f:
        f.write("path\tkind\texpected\tfamily\tsize\torigin\tsource\n")
        for line in MANIFEST:
            f.write("\t".join(line) + "\n")
    print(f"{len(MANIFEST)} files", file=sys.stderr)


if __name__ == "__main__":
    main()
