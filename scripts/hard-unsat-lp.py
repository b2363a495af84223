#!/usr/bin/env python3
"""How instances/batches/hard-unsat-lp.txt was made: IcoSoKu instances that are unsatisfiable
although the cheap checks pass. Pegs are a permutation of 1..12 (so the capacities add up to
the tiles' 78 dots), and 4 distinct tiles are fixed on 4 distinct faces with a random turn,
which usually leaves no arrangement. Candidates come from Python's `random.Random(15)` (the
same on every platform and version since 3.2); a candidate is kept when `sokuc bench` with
`--lp off` answers unsat with a non-empty model (presolve did not refute it) on the sat
backend, and unsat on the search backend too. The first 50 kept are written.

Usage: scripts/hard-unsat-lp.py [SOKUC] > instances/batches/hard-unsat-lp.txt
(SOKUC defaults to target/release/sokuc; it takes a minute or two.)
"""
import os, random, subprocess, sys, tempfile

FACES = ["ABC", "ACD", "ADE", "AEF", "AFB", "BFK", "BGC", "BKG", "CGH", "CHD",
         "DHI", "DIE", "EIJ", "EJF", "FJK", "GKL", "GLH", "HLI", "ILJ", "JLK"]
SEED, CANDIDATES, KEEP = 15, 1200, 50


def candidates():
    rng = random.Random(SEED)
    for _ in range(CANDIDATES):
        pegs = list(range(1, 13))
        rng.shuffle(pegs)
        faces = rng.sample(FACES, 4)
        tiles = rng.sample(range(1, 21), 4)
        turns = [rng.randrange(3) for _ in range(4)]
        yield "\t".join([" ".join(map(str, pegs)), " ".join(faces),
                         " ".join(map(str, tiles)), " ".join(map(str, turns))])


def unsat_lines(sokuc, lines, backend, nonempty):
    """1-based positions in `lines` that `backend` answers unsat (with a model, if asked)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(lines) + "\n")
    try:
        out = subprocess.run([sokuc, "bench", f.name, "--backend", backend, "--lp", "off",
                              "--timeout", "60"], capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(f.name)
    keep = set()
    for row in out.splitlines():
        cols = row.split()
        # "  12  unsat   3.1 ms   1873 vars  13930 clauses"
        if len(cols) >= 5 and cols[0].isdigit() and cols[1] == "unsat" and (not nonempty or int(cols[4]) > 0):
            keep.add(int(cols[0]))
    return keep


def main():
    sokuc = sys.argv[1] if len(sys.argv) > 1 else "target/release/sokuc"
    lines = list(candidates())
    first = [lines[i - 1] for i in sorted(unsat_lines(sokuc, lines, "sat", True))]
    both = [first[i - 1] for i in sorted(unsat_lines(sokuc, first, "search", False))]
    print("# Hard-unsat IcoSoKu instances: pegs a permutation of 1..12 and 4 tiles fixed with")
    print("# random turns; the cheap checks pass, and sat and search (with --lp off) prove each")
    print(f"# unsat. Made by scripts/hard-unsat-lp.py (seed {SEED}, first {KEEP} of {CANDIDATES} candidates).")
    for line in both[:KEEP]:
        print(line)


main()
