#!/usr/bin/env python3
"""Re-checks a `sokuc sweep` results file without sokuc's code: a second, independent reader.

For every record it checks, from the header's faces and tiles alone, that the arrangement
uses every tile exactly once, turns each by 0..2 clockwise steps, and puts on every vertex
exactly its capacity; that the capacities are an arrangement of the header's multiset; that
the indices run 0, 1, 2, ... with no gaps; and that no capacity vector appears twice. It
prints the counts. (That the records cover every orbit rests on the count: with pairwise
different capacities every orbit has exactly |G| members, so there are n!/|G| of them.)

Usage: scripts/check-sweep.py RESULTS.txt [RESULTS2.txt ...]
"""
import sys


def check(path):
    with open(path) as f:
        header = f.readline().split()
        assert header[:3] == ["#", "sokuc-sweep", "2"], f"{path}: not a sokuc-sweep 2 file"
        h = dict(kv.split("=", 1) for kv in header[3:])
        names = h["vertices"].split(",")
        faces = [[int(v) for v in f.split(".")] for f in h["faces"].split(",")]
        tiles = [tuple(int(x) for x in t.split(".")) for t in h["tiles"].split(",")]
        multiset = sorted(int(x) for x in h["caps"].split(","))
        assert "tiles" in h, "pool sweeps are not covered by this checker"
        assert len(tiles) == len(faces)
        assert h["shard"] == "0/1", "shards: check the merged file (sokuc sweep-merge)"
        total = int(h["total"]) if h["limit"] == "none" else min(int(h["total"]), int(h["limit"]))
        seen = set()
        sat = 0
        expect = 0
        for line in f:
            parts = line.split()
            index, caps, status, arr = int(parts[0]), parts[1], parts[2], parts[3]
            assert index == expect, f"{path}: index {index}, expected {expect}"
            expect += 1
            capv = tuple(int(x) for x in caps.split(","))
            assert sorted(capv) == multiset, f"{path}: #{index} capacities are not the multiset"
            assert capv not in seen, f"{path}: #{index} capacities appear twice"
            seen.add(capv)
            if status != "sat":
                print(f"{path}: #{index} {caps} is {status}")
                continue
            # Arrangement: per face, 1-based tile number then a turn letter a/b/c.
            placed = []
            num = 0
            for ch in arr:
                if ch.isdigit():
                    num = num * 10 + int(ch)
                else:
                    placed.append((num - 1, "abc".index(ch)))
                    num = 0
            assert len(placed) == len(faces), f"{path}: #{index} wrong number of faces"
            assert sorted(t for t, _ in placed) == list(range(len(tiles))), f"{path}: #{index} tiles not used once each"
            sums = [0] * len(names)
            for face, (t, r) in zip(faces, placed):
                w = tiles[t]
                for i in range(3):
                    # turned clockwise r times: corner i shows weight (i - r) mod 3
                    sums[face[i]] += w[(i - r) % 3]
            assert tuple(sums) == capv, f"{path}: #{index} sums {sums} differ from {capv}"
            sat += 1
        assert expect == total, f"{path}: {expect} records, header says {total}"
        print(f"{path}: {expect} records, {sat} sat and re-verified, all capacity vectors distinct, "
              f"symmetries={h['symmetries']}")
        return sat == expect


if __name__ == "__main__":
    ok = all([check(p) for p in sys.argv[1:]])
    sys.exit(0 if ok else 1)
