#!/usr/bin/env python3
"""Makes the "hard-unsat" IcoSoKu batch (instances/batches/hard-unsat50.txt).

Each candidate has the pegs 1..12 in a random order, so the capacities add up to the tiles'
78 dots and presolve's weight check passes, and 4 distinct random tiles fixed on 4 distinct
random faces with random turns. A candidate is kept when the `sat` and the `search` backends
both answer unsat and neither was answered by presolve alone (it left a model: more than 0
variables), so every kept instance needs a search that refutes it. Candidates are drawn from
Python's `random.Random(seed)`, in batches of 200, until enough are kept; the output is the
same for the same seed, sokuc and Python 3.

Usage: scripts/hard-unsat.py SOKUC_BINARY OUTPUT [--count 50] [--seed 1]
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SEED_INSTANCE = os.path.join(HERE, "..", "instances", "icosoku-seed.toml")


def faces(sokuc):
    """The built-in icosahedron's faces as batch lines name them (from a solved instance)."""
    out = subprocess.run(
        [sokuc, "solve", SEED_INSTANCE, "--format", "json"], check=True, capture_output=True, text=True
    ).stdout
    return ["".join(p["face"]) for p in json.loads(out)["placements"]]


def candidate(rng, names):
    pegs = list(range(1, 13))
    rng.shuffle(pegs)
    where = rng.sample(names, 4)
    tiles = rng.sample(range(1, 21), 4)
    turns = [rng.randrange(3) for _ in range(4)]
    return "{}\t{}\t{}\t{}".format(
        " ".join(map(str, pegs)), " ".join(where), " ".join(map(str, tiles)), " ".join(map(str, turns))
    )


def bench(sokuc, lines, backend):
    """Per line: (status, variables of the model), from `sokuc bench`'s per-instance lines."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        path = f.name
    try:
        out = subprocess.run(
            [sokuc, "bench", path, "--backend", backend, "--timeout", "600"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    finally:
        os.unlink(path)
    rows = [r.split() for r in out.splitlines() if r.strip() and r.split()[0].isdigit()]
    assert len(rows) == len(lines), out
    # "  12  unsat   0.5 ms   678 vars   27 clauses ..."
    return [(r[1], int(r[4])) for r in rows]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sokuc")
    ap.add_argument("output")
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    names = faces(a.sokuc)
    kept, tried = [], 0
    while len(kept) < a.count:
        lines = [candidate(rng, names) for _ in range(200)]
        by_sat = bench(a.sokuc, lines, "sat")
        by_search = bench(a.sokuc, lines, "search")
        for line, (s1, v1), (s2, v2) in zip(lines, by_sat, by_search):
            if len(kept) == a.count:
                break
            tried += 1
            if s1 == s2 == "unsat" and v1 > 0 and v2 > 0:
                kept.append(line)
        print(f"{tried} candidates, {len(kept)} kept", file=sys.stderr)
    with open(a.output, "w") as f:
        f.write(
            f"# hard-unsat{a.count}: made by scripts/hard-unsat.py --seed {a.seed} --count {a.count}.\n"
            "# Pegs 1..12 in a random order (the capacities add up to the tiles' 78 dots) and 4\n"
            "# distinct random tiles fixed on 4 distinct random faces with random turns; kept when\n"
            "# the sat and search backends both answer unsat and presolve alone did not (the first\n"
            f"# {a.count} such of {tried} candidates drawn). Every line is unsatisfiable.\n"
        )
        f.write("\n".join(kept) + "\n")


if __name__ == "__main__":
    main()
