#!/usr/bin/env python3
"""Market-split files past the hard ratio, for measuring `auto`'s engine choice.

Cornuejols-Dawande market split has m equality rows over n variables, coefficients
0..99, right-hand sides floor(row sum / 2). At n = 10(m-1) (the files of
instances/pb-bench/) almost every instance has no or few solutions; with more variables
than that, solutions are many and primal heuristics find one, while a search over the rows'
encodings still walks a huge tree. These are the files encodings/auto.md measures
("The engine beside HiGHS"); their answers are not known in advance.

Usage: python3 scripts/gen-market-splits.py OUT_DIR
Writes ms-M-N-sS.opb for (M, N) in (2, 60), (3, 50), (4, 60), (5, 40), (6, 50) and S in 1, 2.
"""
import os
import random
import sys


def market_split(m, n, seed):
    r = random.Random(seed)
    a = [[r.randrange(100) for _ in range(n)] for _ in range(m)]
    rows = []
    for i in range(m):
        terms = " ".join(f"+{a[i][j]} x{j + 1}" for j in range(n) if a[i][j])
        rows.append(f"{terms} = {sum(a[i]) // 2} ;")
    return f"* #variable= {n} #constraint= {m}\n" + "\n".join(rows) + "\n"


def main(argv):
    if len(argv) != 1:
        print(__doc__.strip())
        return 2
    out = argv[0]
    os.makedirs(out, exist_ok=True)
    for m, n in [(2, 60), (3, 50), (4, 60), (5, 40), (6, 50)]:
        for seed in (1, 2):
            with open(os.path.join(out, f"ms-{m}-{n}-s{seed}.opb"), "w") as f:
                f.write(market_split(m, n, seed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
