#!/usr/bin/env python3
"""Counts the models of a DIMACS CNF with Ganak (PyPI `pyganak`), projected on the variables
that `c p show ... 0` lines name (all variables when there is none), and prints the count.

sokuc's tests use it as an outside witness for `sokuc count`: sokuc emits the CNF with its
primary variables as the projection set, and the two counts must agree.

Usage: ganak-count.py FILE.cnf
"""

import os
import sys


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: ganak-count.py FILE.cnf", file=sys.stderr)
        return 2
    try:
        import pyganak
    except ImportError:
        print("ganak-count: pyganak is not installed (scripts/install-tools.sh)", file=sys.stderr)
        return 3
    counter = pyganak.Counter()
    show = []
    declared = 0
    clause = []
    empty = False
    with open(sys.argv[1], encoding="ascii") as f:
        for lineno, line in enumerate(f, 1):
            words = line.split()
            if not words:
                continue
            if words[0] == "c":
                if len(words) >= 3 and words[1] == "p" and words[2] == "show":
                    show.extend(int(w) for w in words[3:] if w != "0")
                continue
            if words[0] == "p":
                if len(words) != 4 or words[1] != "cnf":
                    print(f"{sys.argv[1]}:{lineno}: not a 'p cnf V C' header", file=sys.stderr)
                    return 2
                declared = int(words[2])
                continue
            for w in words:
                lit = int(w)
                if lit == 0:
                    # pyganak takes an empty clause as no clause at all; it makes the formula
                    # unsatisfiable, so it is remembered here.
                    empty = empty or not clause
                    counter.add_clause(clause)
                    clause = []
                else:
                    clause.append(lit)
    if clause:
        counter.add_clause(clause)
    if empty:
        print(0)
        return 0
    if declared > counter.nof_vars():
        counter.new_vars(declared - counter.nof_vars())
    if show:
        counter.set_sampling_set(show)
    # Ganak writes its own "c o ..." progress lines to the process's stdout: send them to
    # stderr so that stdout holds the count alone.
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        count = counter.count()
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
    print(count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
