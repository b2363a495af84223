#!/usr/bin/env python3
"""Converts a pure 0/1 integer program in (free or fixed) MPS to OPB.

    python3 scripts/mps2opb.py IN.mps [--optimum N] > OUT.opb

Every column must be a binary: integer (between MARKER lines, or by its bounds) with bounds
within [0, 1]. Fractional coefficients are exact decimals in MPS, so each row is multiplied
by the power of ten that makes it integral (the same row, the same 0/1 solutions). The
objective is scaled the same way when it needs to be, and the factor is written in a comment:
the file's optimum is then the published one times that factor.

What the script cannot write exactly (ranges, general integers, continuous columns, other
bounds) is refused with the line, so a converted file never changes the problem.
"""

import sys
from decimal import Decimal


def fail(path, line, why):
    sys.exit(f"{path}:{line}: {why}")


def read(path):
    rows = {}  # name -> (sense, {col: Decimal})
    order = []
    objective = None
    cols = []  # in order of first appearance
    col_set = set()
    rhs = {}
    upper = {}
    lower = {}
    integer = set()
    section = None
    in_int = False
    with open(path) as f:
        for no, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.startswith("*"):
                continue
            if not line[0].isspace():
                word = line.split()[0]
                section = word
                if word not in ("NAME", "ROWS", "COLUMNS", "RHS", "RANGES", "BOUNDS", "ENDATA", "OBJSENSE"):
                    fail(path, no, f"unknown section {word}")
                if word == "RANGES":
                    fail(path, no, "RANGES are not converted")
                if word == "OBJSENSE":
                    fail(path, no, "OBJSENSE is not converted (minimisation only)")
                continue
            t = line.split()
            if section == "ROWS":
                sense, name = t[0], t[1]
                if sense == "N":
                    if objective is None:
                        objective = name
                        rows[name] = ("N", {})
                    continue
                if sense not in ("L", "G", "E"):
                    fail(path, no, f"row sense {sense}")
                rows[name] = (sense, {})
                order.append(name)
            elif section == "COLUMNS":
                if len(t) >= 3 and t[1] == "'MARKER'":
                    if t[2] == "'INTORG'":
                        in_int = True
                    elif t[2] == "'INTEND'":
                        in_int = False
                    continue
                col = t[0]
                if col not in col_set:
                    col_set.add(col)
                    cols.append(col)
                if in_int:
                    integer.add(col)
                pairs = t[1:]
                if len(pairs) % 2:
                    fail(path, no, "a row name without a value")
                for i in range(0, len(pairs), 2):
                    r, v = pairs[i], Decimal(pairs[i + 1])
                    if r not in rows:
                        if r == objective or r in ("",):
                            continue
                        # A second N row is ignored, as solvers do.
                        continue
                    rows[r][1][col] = rows[r][1].get(col, Decimal(0)) + v
            elif section == "RHS":
                pairs = t[1:] if len(t) % 2 == 1 else t
                for i in range(0, len(pairs), 2):
                    r, v = pairs[i], Decimal(pairs[i + 1])
                    if r == objective:
                        fail(path, no, "a constant in the objective is not converted")
                    if r in rows:
                        rhs[r] = v
            elif section == "BOUNDS":
                kind = t[0]
                if kind == "BV":
                    col = t[2]
                    integer.add(col)
                    lower[col], upper[col] = Decimal(0), Decimal(1)
                    continue
                if kind in ("FR", "MI", "PL", "LI", "UI", "SC") or len(t) < 4:
                    fail(path, no, f"bound type {kind} is not converted")
                col, v = t[2], Decimal(t[3])
                if kind == "UP":
                    upper[col] = v
                elif kind == "LO":
                    lower[col] = v
                elif kind == "FX":
                    lower[col] = upper[col] = v
                else:
                    fail(path, no, f"bound type {kind} is not converted")
    for c in cols:
        if c not in integer:
            fail(path, 0, f"column {c} is not integer")
        lo, up = lower.get(c, Decimal(0)), upper.get(c)
        if up is None or lo < 0 or up > 1 or lo > up:
            fail(path, 0, f"column {c} is not a binary (bounds {lo}..{up})")
    return cols, objective, rows, order, rhs, lower, upper


def scale_of(values):
    """The power of ten that makes every value an integer."""
    k = 0
    for v in values:
        e = v.normalize().as_tuple().exponent
        if isinstance(e, int) and e < 0:
            k = max(k, -e)
    return 10**k


def term(c, i):
    return f"{'+' if c >= 0 else '-'}{abs(c)} x{i}"


def main():
    args = sys.argv[1:]
    optimum = None
    if "--optimum" in args:
        j = args.index("--optimum")
        optimum = args[j + 1]
        del args[j : j + 2]
    if len(args) != 1:
        sys.exit(__doc__)
    path = args[0]
    cols, objective, rows, order, rhs, lower, upper = read(path)
    index = {c: i + 1 for i, c in enumerate(cols)}
    out = []
    for name in order:
        sense, coefs = rows[name]
        b = rhs.get(name, Decimal(0))
        s = scale_of(list(coefs.values()) + [b])
        terms = " ".join(term(int(v * s), index[c]) for c, v in coefs.items() if v != 0)
        op = {"L": "<=", "G": ">=", "E": "="}[sense]
        if sense == "L":
            # OPB has no <=: negate.
            terms = " ".join(term(-int(v * s), index[c]) for c, v in coefs.items() if v != 0)
            out.append(f"{terms} >= {-int(b * s)} ;")
        else:
            out.append(f"{terms} {op} {int(b * s)} ;")
    # Bounds that fix a binary.
    for c in cols:
        if upper.get(c) == 0:
            out.append(f"-1 x{index[c]} >= 0 ;")
        if lower.get(c, Decimal(0)) == 1:
            out.append(f"+1 x{index[c]} >= 1 ;")
    obj = rows[objective][1] if objective else {}
    s = scale_of(obj.values())
    name = path.rsplit("/", 1)[-1]
    print(f"* #variable= {len(cols)} #constraint= {len(out)}")
    print(f"* {name}: MIPLIB 3, converted by scripts/mps2opb.py (x<i> is the i-th column of the MPS file)")
    if s != 1:
        print(f"* objective scaled by {s}")
    if optimum is not None:
        print(f"* published optimum: {optimum}" + (f" (x{s} here)" if s != 1 else ""))
    if obj:
        print("min: " + " ".join(term(int(v * s), index[c]) for c, v in obj.items() if v != 0) + " ;")
    for line in out:
        print(line)


if __name__ == "__main__":
    main()
