#!/usr/bin/env python3
"""Writes the public OPB benchmark set in instances/opb/ (issue 17), deterministically.

Every file is generated here from a fixed seed: nothing is copied from elsewhere. Run
`python3 scripts/gen-opb.py` from the repository root; the files are rewritten byte for
byte the same. instances/opb/SOURCE.md says what each family is and which answer it has
by construction where one is known.
"""
import random
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "instances", "opb")


def term(c, v, neg=False):
    return f"{'+' if c >= 0 else '-'}{abs(c)} {'~' if neg else ''}x{v}"


def write(name, nvars, rows, objective=None, comment=""):
    lines = [f"* #variable= {nvars} #constraint= {len(rows)}"]
    for c in comment.splitlines():
        lines.append(f"* {c}")
    if objective is not None:
        lines.append("min: " + " ".join(objective) + " ;")
    lines.extend(rows)
    with open(os.path.join(OUT, name), "w") as f:
        f.write("\n".join(lines) + "\n")


def pigeonhole(n):
    """n+1 pigeons, n holes: unsatisfiable; cardinality rows only."""
    v = lambda p, h: p * n + h + 1
    rows = []
    for p in range(n + 1):
        rows.append(" ".join(term(1, v(p, h)) for h in range(n)) + " >= 1 ;")
    for h in range(n):
        rows.append(" ".join(term(1, v(p, h)) for p in range(n + 1)) + " <= 1 ;")
    write(f"php-{n + 1}-{n}.opb", (n + 1) * n, rows, comment=f"pigeonhole: {n + 1} pigeons, {n} holes (unsat)")


def subset_sum_row(n, seed, sat, lo, hi):
    """One equality over n weights drawn from [lo, hi]; sat: the target is the sum of a
    random subset; unsat: every weight even and the target odd."""
    r = random.Random(seed)
    w = [r.randint(lo, hi) for _ in range(n)]
    if sat:
        target = sum(x for x in w if r.random() < 0.5)
    else:
        w = [x * 2 for x in w]
        target = sum(x for x in w if r.random() < 0.5) + 1
    return [" ".join(term(c, i + 1) for i, c in enumerate(w)) + f" = {target} ;"]


def subset_sum(n, seed, sat):
    """Weights in [10^6, 10^7]."""
    rows = subset_sum_row(n, seed, sat, 10**6, 10**7)
    write(f"subsetsum-{n}-{'sat' if sat else 'unsat'}-s{seed}.opb", n, rows,
          comment=f"subset sum, weights 10^6..10^7, seed {seed} ({'sat: a planted subset' if sat else 'unsat: even weights, odd target'})")


def knapsack(n, seed, big):
    """Decision knapsack: weight <= W and value >= V with V from a planted greedy solution."""
    r = random.Random(seed)
    lo, hi = (10**6, 10**8) if big else (10, 1000)
    w = [r.randint(lo, hi) for _ in range(n)]
    p = [r.randint(lo, hi) for _ in range(n)]
    chosen = [r.random() < 0.4 for _ in range(n)]
    W = sum(x for x, c in zip(w, chosen) if c)
    V = sum(x for x, c in zip(p, chosen) if c)
    rows = [
        " ".join(term(c, i + 1) for i, c in enumerate(w)) + f" <= {W} ;",
        " ".join(term(c, i + 1) for i, c in enumerate(p)) + f" >= {V} ;",
    ]
    write(f"knapsack-{n}-s{seed}.opb", n, rows, comment=f"knapsack decision, coefficients {lo}..{hi}, seed {seed} (sat: planted)")


def knapsack_opt(n, seed):
    """Optimisation: maximise value (minimise its negation) under one weight row."""
    r = random.Random(seed)
    w = [r.randint(10, 100) for _ in range(n)]
    p = [r.randint(10, 100) for _ in range(n)]
    W = sum(w) // 3
    rows = [" ".join(term(c, i + 1) for i, c in enumerate(w)) + f" <= {W} ;"]
    obj = [term(-c, i + 1) for i, c in enumerate(p)]
    write(f"knapsack-opt-{n}-s{seed}.opb", n, rows, objective=obj, comment=f"0/1 knapsack, maximise value, seed {seed}")


def market_split(m, seed):
    """Cornuejols-Dawande market split: m equalities over n = 10(m-1) variables,
    coefficients 0..99, right-hand side half the row sum (rounded down)."""
    r = random.Random(seed)
    n = 10 * (m - 1)
    rows = []
    for _ in range(m):
        a = [r.randint(0, 99) for _ in range(n)]
        rows.append(" ".join(term(c, i + 1) for i, c in enumerate(a) if c) + f" = {sum(a) // 2} ;")
    write(f"marketsplit-{m}-{n}-s{seed}.opb", n, rows, comment=f"market split (Cornuejols and Dawande), seed {seed}")


def planted_cardinality(n, m, seed):
    """Thousands of variables: random rows over 6 literals with weights 1..5, at least a
    third of what a planted assignment gets; sat by construction. A negated literal is
    written as a negative coefficient (c ~x = c - c x), which every OPB reader takes
    (Debian's minisat+ does not read `~`)."""
    r = random.Random(seed)
    x = [r.random() < 0.5 for _ in range(n)]
    rows = []
    for _ in range(m):
        vs = r.sample(range(n), 6)
        lits = [(v, r.random() < 0.5, r.randint(1, 5)) for v in vs]
        got = sum(c for v, neg, c in lits if x[v] != neg)
        t = r.randint(1, max(1, got // 3))
        rhs = t - sum(c for v, neg, c in lits if neg)
        rows.append(" ".join(term(-c if neg else c, v + 1) for v, neg, c in lits) + f" >= {rhs} ;")
    write(f"planted-card-{n}-{m}-s{seed}.opb", n, rows, comment=f"random weighted rows over {n} variables with a planted solution, seed {seed}")


def bigint(n, seed, sat):
    """Subset sum with weights near 2^100 (BIGINT size)."""
    rows = subset_sum_row(n, seed, sat, 2**99, 2**100)
    write(f"bigint-subsetsum-{n}-{'sat' if sat else 'unsat'}-s{seed}.opb", n, rows,
          comment=f"subset sum with ~100-bit weights, seed {seed} ({'sat: planted' if sat else 'unsat: even weights, odd target'})")


def bigint_knapsack(n, seed):
    """Decision knapsack with 255-bit weights and values: weight <= W and value >= V, from a
    planted choice (sat). Both rows are inequalities, so both need a slack when split."""
    r = random.Random(seed)
    w = [r.randint(2**254, 2**255) for _ in range(n)]
    p = [r.randint(2**254, 2**255) for _ in range(n)]
    chosen = [r.random() < 0.4 for _ in range(n)]
    W = sum(x for x, c in zip(w, chosen) if c)
    V = sum(x for x, c in zip(p, chosen) if c)
    rows = [
        " ".join(term(c, i + 1) for i, c in enumerate(w)) + f" <= {W} ;",
        " ".join(term(c, i + 1) for i, c in enumerate(p)) + f" >= {V} ;",
    ]
    write(f"bigint-knapsack-{n}-s{seed}.opb", n, rows, comment=f"knapsack decision, 255-bit coefficients, seed {seed} (sat: planted)")


def bigint_subset_sum_unsat(n, seed):
    """Subset sum with 200-bit weights and a target no subset reaches, checked here over all
    2^n subsets (two halves, meet in the middle). Unlike the even-weights file no gcd or
    parity argument refutes it: a solver has to rule the subsets out."""
    r = random.Random(seed)
    w = [r.randint(2**199, 2**200) for _ in range(n)]
    def sums(ws):
        out = [0]
        for x in ws:
            out += [s + x for s in out]
        return out
    left, right = sums(w[: n // 2]), set(sums(w[n // 2:]))
    while True:
        target = sum(x for x in w if r.random() < 0.5) + r.randint(1, 2**150)
        if not any(target - s in right for s in left):
            break
    rows = [" ".join(term(c, i + 1) for i, c in enumerate(w)) + f" = {target} ;"]
    write(f"bigint-subsetsum-{n}-unsat-s{seed}.opb", n, rows,
          comment=f"subset sum with ~200-bit weights, seed {seed} (unsat: no subset reaches the target, checked by the generator)")


def bigint_planted(n, m, seed):
    """Many wide rows: m rows over 8 of n variables with 255-bit weights, each at least a
    third of what a planted assignment gets (sat), negated literals as negative coefficients."""
    r = random.Random(seed)
    x = [r.random() < 0.5 for _ in range(n)]
    rows = []
    for _ in range(m):
        vs = r.sample(range(n), 8)
        lits = [(v, r.random() < 0.5, r.randint(2**250, 2**255)) for v in vs]
        got = sum(c for v, neg, c in lits if x[v] != neg)
        t = r.randint(1, max(1, got // 3))
        rhs = t - sum(c for v, neg, c in lits if neg)
        rows.append(" ".join(term(-c if neg else c, v + 1) for v, neg, c in lits) + f" >= {rhs} ;")
    write(f"bigint-planted-{n}-{m}-s{seed}.opb", n, rows, comment=f"rows over 8 literals with 255-bit weights and a planted solution, seed {seed}")


def cnf_pigeonhole(n):
    """n+1 pigeons, n holes as clauses: unsatisfiable."""
    v = lambda p, h: p * n + h + 1
    cls = [[v(p, h) for h in range(n)] for p in range(n + 1)]
    for h in range(n):
        for p in range(n + 1):
            for q in range(p + 1, n + 1):
                cls.append([-v(p, h), -v(q, h)])
    write_cnf(f"php-{n + 1}-{n}.cnf", (n + 1) * n, cls, f"pigeonhole: {n + 1} pigeons, {n} holes (unsat)")


def cnf_planted(n, m, seed):
    """Random 3-SAT with a planted solution (each clause keeps one literal it makes true)."""
    r = random.Random(seed)
    x = [r.random() < 0.5 for _ in range(n)]
    cls = []
    while len(cls) < m:
        vs = r.sample(range(n), 3)
        c = [(v + 1) if r.random() < 0.5 else -(v + 1) for v in vs]
        if any((l > 0) == x[abs(l) - 1] for l in c):
            cls.append(c)
    write_cnf(f"planted-3sat-{n}-{m}-s{seed}.cnf", n, cls, f"random 3-SAT with a planted solution, seed {seed} (sat)")


def write_cnf(name, n, clauses, comment):
    out = os.path.join(OUT, "..", "cnf")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, name), "w") as f:
        f.write(f"c {comment}\np cnf {n} {len(clauses)}\n")
        for c in clauses:
            f.write(" ".join(map(str, c)) + " 0\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    cnf_pigeonhole(4)
    cnf_planted(40, 160, 1)
    for n in (5, 7, 8):
        pigeonhole(n)
    for seed in (1, 2):
        subset_sum(24, seed, True)
        subset_sum(24, seed, False)
    for seed in (1, 2):
        knapsack(30, seed, True)
        knapsack(60, seed, False)
    for seed in (1, 2):
        knapsack_opt(25, seed)
    market_split(2, 1)
    market_split(3, 1)
    market_split(3, 2)
    planted_cardinality(2000, 6000, 1)
    planted_cardinality(5000, 15000, 2)
    bigint(12, 1, True)
    bigint(12, 1, False)
    bigint_knapsack(30, 1)
    bigint_subset_sum_unsat(20, 1)
    bigint_planted(400, 300, 1)


if __name__ == "__main__":
    main()
