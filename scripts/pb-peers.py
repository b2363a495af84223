#!/usr/bin/env python3
"""Run a peer pseudo-Boolean solver on an OPB file and print its answer in the PB
competition's format, for `sokuc bench --vs` and scripts/pb-table.py.

Usage:
  python3 scripts/pb-peers.py SOLVER FILE [--timeout SECONDS]
  python3 scripts/pb-peers.py --self-test [--timeout SECONDS]
  python3 scripts/pb-peers.py --list

SOLVER is one of
  exact  Exact, the cutting-planes PB solver (PyPI `exact`); coefficients of any size
  cpsat  OR-Tools CP-SAT (PyPI `ortools`), one worker; coefficients must fit int64
  highs  HiGHS MIP (PyPI `highspy`), one thread, gap 0; coefficients become doubles

FILE is an OPB file (also .gz, .bz2, .xz): `*` comments, an optional `min:` (or `max:`)
objective, rows with >=, <= or =, integer coefficients of any size, literals `x12`, `~x12`
or any name (`iv0_b_0`); product terms (`3 x1 ~x2`) are linearised with one auxiliary
variable per distinct product.

Output on standard output: `c` comments, `o VALUE` (computed exactly from the model, the
objective as the file writes it), `s SATISFIABLE | UNSATISFIABLE | OPTIMUM FOUND | UNKNOWN`,
and `v` lines naming every variable of the file (`x1 -x2 iv0_b_0`), numbered ones
x1..xN (N from the header or the largest index) first, then named ones in the order they
first appear. Exit code: 10 sat, 20 unsat, 30 optimum found, 0 unknown (also for a model a
solver cannot hold exactly, a missing package or a solver failure, explained in a `c` line).

--timeout is the wall-clock limit of the whole process: the solver gets what is left after
reading the file, less a small reserve for printing (a caller such as `sokuc bench` kills
the process at the limit).

A solver that cannot hold the file's numbers exactly is not trusted with them:
  cpsat  refuses (s UNKNOWN) a row or objective whose coefficients or sums pass int64;
  highs  is run on doubles; past 2^53 its model is checked here exactly (one that breaks a
         row is not given: s UNKNOWN), and its `unsat` and `optimum` claims are dropped to
         UNKNOWN / SATISFIABLE (below 2^53 everything it says is passed on as it is);
  exact  takes Python integers of any size.
"""
import bz2
import gzip
import lzma
import os
import pickle
import re
import select
import signal
import sys
import time

START = time.monotonic()

SOLVERS = ("exact", "cpsat", "highs")
MODULES = {"exact": "exact", "cpsat": "ortools", "highs": "highspy"}
EXIT = {"SATISFIABLE": 10, "UNSATISFIABLE": 20, "OPTIMUM FOUND": 30, "UNKNOWN": 0}
INT64_MAX = 2**63 - 1
DOUBLE_EXACT = 2**53


class OpbError(Exception):
    pass


# --------------------------------------------------------------------------------------
# Reading OPB


TOKEN = re.compile(r"min:|max:|>=|<=|=|;|[+-]?\d+|~?[A-Za-z_][\w\[\].\-{}^]*|\S")
NUMBERED = re.compile(r"x(\d+)\Z")


def read_text(path):
    opener = open
    if path.endswith(".gz"):
        opener = gzip.open
    elif path.endswith(".bz2"):
        opener = bz2.open
    elif path.endswith(".xz"):
        opener = lzma.open
    with opener(path, "rb") as f:
        return f.read().decode("utf-8", errors="replace")


class Model:
    """An OPB file as linear rows over 0/1 variables (negations and products removed).

    Variables are indices 0..n-1: the file's own (`index` maps their names) and auxiliary
    ones standing for products, numbered as they first appear. A row is (coefs, vars, lo, hi) with lo/hi None when absent, meaning
    lo <= sum(coefs[k] * vars[k]) <= hi."""

    def __init__(self):
        self.names = []          # the file's variables' canonical names, as they appear
        self.index = {}          # canonical name -> index
        self.max_numbered = 0
        self.declared = 0
        self.n = 0               # all variables, auxiliaries included
        self.products = []       # (aux index, [(var, neg), ...])
        self.product_index = {}
        self.rows = []
        self.empty_violated = None  # a statement number whose row has no terms and fails
        self.objective = None    # (coefs, vars) to minimise, after negations; None: none
        self.obj_terms = None    # the objective as written: [(coef, [(var, neg), ...])]
        self.maximise = False
        self.original = None     # with keep=True: [(terms, rel, rhs)] as written

    # variables ---------------------------------------------------------------------
    def var(self, name):
        m = NUMBERED.match(name)
        if m and int(m.group(1)) >= 1:
            k = int(m.group(1))
            name = "x%d" % k
            if k > self.max_numbered:
                self.max_numbered = k
        v = self.index.get(name)
        if v is None:
            v = self.n
            self.n += 1
            self.names.append(name)
            self.index[name] = v
        return v

    def output_names(self):
        """Every variable of the file, in the order the `v` line lists them."""
        top = max(self.declared, self.max_numbered)
        out = ["x%d" % k for k in range(1, top + 1)]
        out += [s for s in self.names if not (NUMBERED.match(s) and 1 <= int(s[1:]) <= top)]
        return out

    # rows ----------------------------------------------------------------------------
    def linear(self, terms):
        """terms [(coef, [(var, neg)...])] -> ({var: coef}, constant)."""
        acc = {}
        const = 0
        for c, lits in terms:
            if c == 0:
                continue
            lits = sorted(set(lits))
            if any((v, not neg) in lits for v, neg in lits):
                continue  # x and ~x in one product: always 0
            if len(lits) == 1:
                v, neg = lits[0]
            else:
                v, neg = self.product(tuple(lits)), False
            if neg:
                const += c
                acc[v] = acc.get(v, 0) - c
            else:
                acc[v] = acc.get(v, 0) + c
        return acc, const

    def product(self, lits):
        y = self.product_index.get(lits)
        if y is not None:
            return y
        y = self.n
        self.n += 1
        self.product_index[lits] = y
        self.products.append((y, list(lits)))
        # y <= l for every literal l, and y >= sum(l) - (k - 1).
        for v, neg in lits:
            self.add_row([(1, [(v, neg)]), (-1, [(y, False)])], ">=", 0, None)
        self.add_row([(1, [(y, False)])] + [(-1, [(v, neg)]) for v, neg in lits], ">=", 1 - len(lits), None)
        return y

    def add_row(self, terms, rel, rhs, statement):
        acc, const = self.linear(terms)
        rhs -= const
        vs = [v for v, c in acc.items() if c != 0]
        cs = [acc[v] for v in vs]
        lo = rhs if rel in (">=", "=") else None
        hi = rhs if rel in ("<=", "=") else None
        # Bounds past what the row can reach say nothing (or everything): clamp them, so
        # that a solver with bounded integers can hold every row whose sums it can hold.
        least = sum(c for c in cs if c < 0)
        most = sum(c for c in cs if c > 0)
        if lo is not None and lo <= least:
            lo = None
        if hi is not None and hi >= most:
            hi = None
        if lo is not None and lo > most:
            lo = most + 1
        if hi is not None and hi < least:
            hi = least - 1
        if lo is None and hi is None:
            return
        if not vs:
            if self.empty_violated is None:
                self.empty_violated = statement
            return
        self.rows.append((cs, vs, lo, hi))

    # values --------------------------------------------------------------------------
    def objective_value(self, values):
        """The objective as the file writes it, exactly, from the file's variables."""
        if self.obj_terms is None:
            return None
        total = 0
        for c, lits in self.obj_terms:
            if all(values[v] != neg for v, neg in lits):
                total += c
        return total

    def broken_row(self, values):
        """The first row (0-based) the values break, exactly; None when all hold."""
        for k, (cs, vs, lo, hi) in enumerate(self.rows):
            lhs = sum(c for c, v in zip(cs, vs) if values[v])
            if (lo is not None and lhs < lo) or (hi is not None and lhs > hi):
                return k
        return None

    def check_original(self, values):
        """With keep=True: the first statement (1-based) that the values break, or None."""
        for k, (terms, rel, rhs) in enumerate(self.original, 1):
            lhs = sum(c for c, lits in terms if all(values[v] != neg for v, neg in lits))
            ok = lhs >= rhs if rel == ">=" else lhs <= rhs if rel == "<=" else lhs == rhs
            if not ok:
                return k
        return None


def parse_opb(text, keep=False):
    m = Model()
    if keep:
        m.original = []
    first = text.split("\n", 1)[0]
    if first.startswith("*"):
        h = re.search(r"#variable=\s*(\d+)", first)
        if h:
            m.declared = int(h.group(1))
    text = re.sub(r"\*[^\n]*", " ", text)
    toks = TOKEN.findall(text)
    i = 0
    n = len(toks)
    statement = 0
    while i < n:
        statement += 1
        t = toks[i]
        goal = None
        if t in ("min:", "max:"):
            if m.obj_terms is not None or m.rows or statement > 1:
                raise OpbError("statement %d: the objective must come once, first" % statement)
            goal = t
            i += 1
        terms = []
        while i < n:
            t = toks[i]
            c0 = t[0]
            if c0 in "+-" and len(t) == 1 and i + 1 < n and toks[i + 1].isdigit():
                coef = int(t + toks[i + 1])
                i += 2
            elif c0.isdigit() or (c0 in "+-" and len(t) > 1):
                coef = int(t)
                i += 1
            elif c0 == "~" or c0.isalpha() or c0 == "_":
                coef = 1  # a literal without a coefficient (lenient)
            else:
                break
            lits = []
            while i < n and (toks[i][0] == "~" or toks[i][0].isalpha() or toks[i][0] == "_") \
                    and toks[i] not in ("min:", "max:"):
                w = toks[i]
                neg = w[0] == "~"
                lits.append((m.var(w[1:] if neg else w), neg))
                i += 1
            if not lits:
                raise OpbError("statement %d: the coefficient %s has no variable" % (statement, t))
            terms.append((coef, lits))
        if goal is not None:
            if i >= n or toks[i] != ";":
                raise OpbError("statement %d: the objective must end with ';'" % statement)
            i += 1
            m.maximise = goal == "max:"
            m.obj_terms = terms
            continue
        if i >= n or toks[i] not in (">=", "<=", "="):
            raise OpbError("statement %d: expected a term or a relation, found %r"
                           % (statement, toks[i] if i < n else "the end of the file"))
        rel = toks[i]
        i += 1
        if i < n and toks[i] in ("+", "-") and i + 1 < n and toks[i + 1].isdigit():
            rhs = int(toks[i] + toks[i + 1])
            i += 2
        elif i < n and re.fullmatch(r"[+-]?\d+", toks[i]):
            rhs = int(toks[i])
            i += 1
        else:
            raise OpbError("statement %d: expected an integer right-hand side" % statement)
        if i >= n or toks[i] != ";":
            raise OpbError("statement %d: missing ';' after the right-hand side" % statement)
        i += 1
        if keep:
            m.original.append((terms, rel, rhs))
        m.add_row(terms, rel, rhs, statement)
    if m.obj_terms is not None:
        acc, _const = m.linear(m.obj_terms)
        sign = -1 if m.maximise else 1
        vs = [v for v, c in acc.items() if c != 0]
        m.objective = ([sign * acc[v] for v in vs], vs)
    return m


# --------------------------------------------------------------------------------------
# Solvers: each returns (status, values or None, [comments]); status is one of
# "sat", "unsat", "optimum", "unknown"; values a list of 0/1 over all n variables.


def largest(m):
    """The largest magnitude of a coefficient, bound or row sum (objective included)."""
    big = 0
    for cs, _vs, lo, hi in m.rows:
        big = max(big, sum(abs(c) for c in cs), abs(lo or 0), abs(hi or 0))
    if m.objective is not None:
        big = max(big, sum(abs(c) for c in m.objective[0]))
    return big


def time_left(deadline):
    """Seconds the solver may take: to the deadline, less a reserve for its overrun and
    for printing (None: no limit)."""
    if deadline is None:
        return None
    return max(0.01, deadline[0] - time.monotonic() - deadline[1])


def solve_exact(m, deadline):
    from exact import Exact

    s = Exact()
    names = ["v%d" % k for k in range(m.n)]
    for nm in names:
        s.addVariable(nm, 0, 1)
    for cs, vs, lo, hi in m.rows:
        s.addConstraint([(c, names[v]) for c, v in zip(cs, vs)],
                        lo is not None, lo if lo is not None else 0,
                        hi is not None, hi if hi is not None else 0)
    optimise = bool(m.objective and m.objective[0])
    if optimise:
        s.setObjective([(c, names[v]) for c, v in zip(*m.objective)], True, 0)
    limit = time_left(deadline)
    if limit is not None:
        # Exact was seen to pass its limit by up to a tenth on a busy machine.
        limit *= 0.9
    state = s.runFull(optimise, limit if limit is not None else 0)
    comments = ["exact: runFull says %s" % state]
    have = s.hasSolution()
    values = list(s.getLastSolutionFor(names)) if have and m.n else ([] if have else None)
    if optimise:
        # Optimising, Exact answers UNSAT once no better solution exists.
        if state == "UNSAT":
            return ("optimum" if have else "unsat"), values, comments
        return ("sat" if have else "unknown"), values, comments
    if state == "SAT":
        return "sat", values, comments
    if state == "UNSAT":
        return "unsat", None, comments
    return "unknown", None, comments


def solve_cpsat(m, deadline):
    big = largest(m)
    if big > INT64_MAX:
        return "unknown", None, [
            "cpsat: the file needs integers of %d bits (a coefficient, bound or row sum), "
            "past CP-SAT's int64: not solved" % big.bit_length()]
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = [model.NewBoolVar("v%d" % k) for k in range(m.n)]
    for cs, vs, lo, hi in m.rows:
        expr = cp_model.LinearExpr.WeightedSum([x[v] for v in vs], cs)
        least = sum(c for c in cs if c < 0)
        most = sum(c for c in cs if c > 0)
        model.AddLinearConstraint(expr, least if lo is None else lo, most if hi is None else hi)
    if m.objective is not None and m.objective[0]:
        cs, vs = m.objective
        model.Minimize(cp_model.LinearExpr.WeightedSum([x[v] for v in vs], cs))
    invalid = model.Validate()
    if invalid:
        return "unknown", None, ["cpsat: CP-SAT refuses the model: " + " ".join(invalid.split())]
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    limit = time_left(deadline)
    if limit is not None:
        solver.parameters.max_time_in_seconds = limit
    status = solver.Solve(model)
    comments = ["cpsat: status %s" % solver.StatusName(status)]
    values = None
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        values = [int(solver.BooleanValue(v)) for v in x]
    if status == cp_model.OPTIMAL:
        return ("optimum" if m.objective is not None else "sat"), values, comments
    if status == cp_model.FEASIBLE:
        return "sat", values, comments
    if status == cp_model.INFEASIBLE:
        return "unsat", None, comments
    return "unknown", None, comments


def solve_highs(m, deadline):
    import numpy as np
    import highspy

    comments = []
    inexact = largest(m) > DOUBLE_EXACT
    if inexact:
        comments.append("highs: numbers past 2^53 are rounded to doubles: its model is "
                        "checked exactly here, its unsat and optimum claims do not count")
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.setOptionValue("mip_rel_gap", 0.0)
    inf = highspy.kHighsInf
    n = m.n
    if n:
        h.addVars(n, np.zeros(n), np.ones(n))
        h.changeColsIntegrality(n, np.arange(n, dtype=np.int32),
                                np.full(n, highspy.HighsVarType.kInteger))
    if m.rows:
        lower = np.array([float(lo) if lo is not None else -inf for _cs, _vs, lo, _hi in m.rows])
        upper = np.array([float(hi) if hi is not None else inf for _cs, _vs, _lo, hi in m.rows])
        starts = np.zeros(len(m.rows), dtype=np.int32)
        index, value = [], []
        for r, (cs, vs, _lo, _hi) in enumerate(m.rows):
            starts[r] = len(index)
            index.extend(vs)
            value.extend(float(c) for c in cs)
        h.addRows(len(m.rows), lower, upper, len(index), starts,
                  np.array(index, dtype=np.int32), np.array(value, dtype=np.float64))
    has_obj = m.objective is not None and bool(m.objective[0])
    if has_obj:
        cs, vs = m.objective
        h.changeColsCost(len(vs), np.array(vs, dtype=np.int32), np.array([float(c) for c in cs]))
    limit = time_left(deadline)
    if limit is not None:
        h.setOptionValue("time_limit", float(limit))
    h.run()
    st = h.getModelStatus()
    comments.append("highs: model status %s" % h.modelStatusToString(st))
    values = None
    if h.getInfo().primal_solution_status == 2 and n:  # kSolutionStatusFeasible
        values = [1 if c > 0.5 else 0 for c in h.getSolution().col_value]
    elif h.getInfo().primal_solution_status == 2:
        values = []
    if inexact and values is not None:
        broken = m.broken_row(values)
        if broken is not None:
            comments.append("highs: its model breaks row %d of %d when checked exactly: "
                            "not given" % (broken + 1, len(m.rows)))
            return "unknown", None, comments
    MS = highspy.HighsModelStatus
    if st == MS.kOptimal and values is not None:
        if m.objective is None:
            return "sat", values, comments
        return ("sat" if inexact else "optimum"), values, comments
    if st == MS.kInfeasible:
        return ("unknown" if inexact else "unsat"), None, comments
    if values is not None:
        return "sat", values, comments
    return "unknown", None, comments


SOLVE = {"exact": solve_exact, "cpsat": solve_cpsat, "highs": solve_highs}


# --------------------------------------------------------------------------------------


def run(solver, m, deadline):
    """(status, values, comments) without raising: a solver failure is `unknown`.
    deadline: None, or (the time.monotonic() to be done by, the reserve to keep)."""
    if m.empty_violated is not None:
        return "unsat", None, ["statement %d has no terms and cannot hold" % m.empty_violated]
    try:
        __import__(MODULES[solver])
    except Exception as e:  # noqa: BLE001
        return "unknown", None, ["%s: cannot import %s (%s)" % (solver, MODULES[solver], e)]
    if deadline is not None and time.monotonic() + deadline[1] >= deadline[0]:
        return "unknown", None, ["%s: no time left after reading the file" % solver]
    try:
        status, values, comments = SOLVE[solver](m, deadline)
    except Exception as e:  # noqa: BLE001
        return "unknown", None, ["%s failed: %s: %s" % (solver, type(e).__name__, " ".join(str(e).split()))]
    if values is not None and len(values) < m.n:
        return "unknown", None, comments + ["%s: a model of %d values for %d variables"
                                            % (solver, len(values), m.n)]
    if status == "sat" and m.objective is not None and not m.objective[0]:
        status = "optimum"  # an objective with no terms left: every model is optimal
    return status, values, comments


def run_guarded(solver, m, deadline):
    """run() in a forked child, so that a solver that passes its own time limit (Exact was
    seen to, by seconds, inside one LP call) or dies cannot take the answer with it: at the
    deadline, less a moment to print, the child is killed and the answer is UNKNOWN."""
    if deadline is None:
        return run(solver, m, None)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            data = pickle.dumps(run(solver, m, deadline))
        except BaseException as e:  # noqa: BLE001
            data = pickle.dumps(("unknown", None, ["%s failed: %s" % (solver, e)]))
        with os.fdopen(w, "wb") as f:
            f.write(data)
        os._exit(0)
    os.close(w)
    chunks = []
    stop = deadline[0] - 0.1
    late = False
    while True:
        left = stop - time.monotonic()
        if left <= 0:
            late = True
            break
        ready, _, _ = select.select([r], [], [], left)
        if ready:
            data = os.read(r, 1 << 20)
            if not data:
                break
            chunks.append(data)
    os.close(r)
    if late:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    _, how = os.waitpid(pid, 0)
    if late:
        return "unknown", None, ["%s passed its time limit: stopped at the deadline" % solver]
    try:
        return pickle.loads(b"".join(chunks))
    except Exception:  # noqa: BLE001
        why = ("signal %d" % os.WTERMSIG(how)) if os.WIFSIGNALED(how) else ("exit %d" % os.WEXITSTATUS(how))
        return "unknown", None, ["%s died without an answer (%s)" % (solver, why)]


STATUS_LINE = {"sat": "SATISFIABLE", "optimum": "OPTIMUM FOUND", "unsat": "UNSATISFIABLE",
               "unknown": "UNKNOWN"}


def answer_lines(m, status, values, comments):
    out = ["c " + c for c in comments]
    if status in ("sat", "optimum") and m.obj_terms is None:
        status = "sat"
    if status in ("sat", "optimum") and values is not None:
        o = m.objective_value(values)
        if o is not None:
            out.append("o %d" % o)
    elif status in ("sat", "optimum"):
        status = "unknown"
        out.append("c a model was claimed but none was given")
    line = STATUS_LINE[status]
    out.append("s " + line)
    if status in ("sat", "optimum"):
        lits = []
        for name in m.output_names():
            v = m.index.get(name)
            on = v is not None and values[v]
            lits.append(name if on else "-" + name)
        for k in range(0, len(lits), 20):
            out.append("v " + " ".join(lits[k:k + 20]))
        if not lits:
            out.append("v")
    return out, EXIT[line]


def solve_file(solver, path, timeout):
    deadline = None if timeout is None else START + timeout
    try:
        m = parse_opb(read_text(path))
    except (OSError, EOFError, OpbError, lzma.LZMAError, ValueError) as e:
        return ["c cannot read %s: %s" % (path, " ".join(str(e).split())), "s UNKNOWN"], 0
    if deadline is not None:
        deadline = (deadline, min(2.0, 0.4 + 0.03 * timeout))
    comments = ["%s on %d variables (%d auxiliary), %d rows%s, read in %.2f s"
                % (solver, len(m.names), m.n - len(m.names), len(m.rows),
                   ", an objective" if m.obj_terms is not None else "", time.monotonic() - START)]
    status, values, more = run_guarded(solver, m, deadline)
    return answer_lines(m, status, values, comments + more)


# --------------------------------------------------------------------------------------
# Self-test: tiny files with known answers, every installed solver.

BIG = 2**100
SELF_TESTS = [
    # name, text, expected ("sat" | "unsat" | optimum value), needs big integers
    ("sat", "* #variable= 4 #constraint= 3\r\n"
            "* a comment line\r\n"
            "+1 x1 +1 x2 +1 x3 >= 2 ;\r\n"
            "+1 x1 +1 x2 <= 1 ;\r\n"
            "+2 x3 -1 x4 = 1 ;\r\n", "sat", False),
    ("unsat", "* #variable= 6 #constraint= 5\n"
              "* 3 pigeons, 2 holes\n"
              "+1 x1 +1 x2 >= 1 ;\n+1 x3 +1 x4 >= 1 ;\n+1 x5 +1 x6 >= 1 ;\n"
              "+1 x1 +1 x3 +1 x5 <= 1 ;\n+1 x2 +1 x4 +1 x6 <= 1 ;\n", "unsat", False),
    ("optimum", "* #variable= 6 #constraint= 2\n"
                "min: -5 x1 -4 x2 -3 x3 -7 x4 -2 x5 -6 x6 ;\n"
                "+3 x1 +2 x2 +2 x3 +5 x4 +1 x5 +4 x6 <= 9 ;\n"
                "+1 x1 +1 x4 <= 1 ;\n", -15, False),
    ("bigint-names", "* #variable= 3 #constraint= 3\n"
                     "min: +1 x1 +2 iv0_b_0 -1 ~x3 ;\n"
                     "+%d x1 +%d ~iv0_b_0 >= %d ;\n" % (BIG, BIG + 1, BIG + 1)
                     + "+%d x2 -%d ~x3 >= 1 ;\n" % (BIG + 1, BIG)
                     + "+1 x1 +1 x2 +1 iv0_b_0 >= 1 ;\n", -1, True),
    ("product", "* #variable= 3 #constraint= 2\n"
                "min: +3 x1 x2 -1 x3 ;\n"
                "+1 x1 +1 x2 >= 1 ;\n"
                "+2 x1 ~x3 +1 x2 x3 >= 2 ;\n", 0, False),
]


def brute_force(m):
    """The expected answer of a tiny model by enumeration (status, optimum or None)."""
    k = m.n
    best = None
    feasible = False
    for bits in range(1 << k):
        values = [(bits >> j) & 1 for j in range(k)]
        if m.check_original(values) is None:
            feasible = True
            o = m.objective_value(values)
            if o is not None and (best is None or (o > best if m.maximise else o < best)):
                best = o
    return feasible, best


def self_test(timeout):
    """Every installed solver on every file above, each run as `pb-peers.py SOLVER FILE`
    in a process of its own (ortools and highspy each bundle HiGHS: one process cannot
    load both), its output read back and judged against enumeration."""
    import subprocess
    import tempfile

    limit = timeout if timeout is not None else 20.0
    available = [s for s in SOLVERS if importable(MODULES[s])]
    missing = [s for s in SOLVERS if s not in available]
    if missing:
        print("self-test: not installed, skipped: %s" % ", ".join(missing))
    if not available:
        print("self-test: FAIL: no solver installed")
        return 1
    failures = 0
    tmp = tempfile.mkdtemp(prefix="pb-peers-")
    for t, (name, text, expected, big) in enumerate(SELF_TESTS):
        m = parse_opb(text, keep=True)
        feasible, best = brute_force(m)
        want = "unsat" if not feasible else best if m.obj_terms is not None else "sat"
        if want != expected:
            print("self-test: FAIL: %s: enumeration gives %r, the table says %r" % (name, want, expected))
            failures += 1
            continue
        # Every other file compressed, to read those too.
        path = os.path.join(tmp, "%s.opb" % name) + (".gz" if t % 2 else "")
        with (gzip.open if t % 2 else open)(path, "wb") as f:
            f.write(text.encode())
        for solver in available:
            t0 = time.monotonic()
            try:
                p = subprocess.run([sys.executable, os.path.abspath(__file__), solver, path,
                                    "--timeout", str(limit)], capture_output=True, text=True,
                                   timeout=limit + 30)
                stdout, code = p.stdout, p.returncode
            except subprocess.TimeoutExpired:
                stdout, code = "", None
            ms = (time.monotonic() - t0) * 1e3
            status, values, o, wrong = read_answer(m, stdout)
            if wrong is None and code != EXIT.get(STATUS_LINE.get(status, ""), -1):
                wrong = "exit code %s for %s" % (code, status)
            if wrong is not None:
                pass
            elif status in ("sat", "optimum"):
                broken = m.check_original(values)
                if broken is not None:
                    wrong = "the model breaks statement %d" % broken
                elif not feasible:
                    wrong = "a model of an unsat file"
                elif o != m.objective_value(values):
                    wrong = "o %s, but the model's objective is %s" % (o, m.objective_value(values))
                elif status == "optimum" and o != best:
                    wrong = "optimum %s, not %s" % (o, best)
                elif m.obj_terms is not None and status == "sat" and not (big and solver != "exact"):
                    wrong = "no optimum proven on a tiny file"
            elif status == "unsat":
                if feasible:
                    wrong = "unsat, but the file has a model"
            elif not (big and solver != "exact"):
                wrong = "%s on a tiny file" % status
            shown = [l for l in stdout.splitlines() if l[:1] in ("s", "o")]
            print("self-test: %-13s %-6s %-24s %7.1f ms  %s"
                  % (name, solver, " ".join(shown), ms, "ok" if wrong is None else "FAIL: " + wrong))
            if wrong is not None:
                failures += 1
                for line in stdout.splitlines():
                    if line.startswith("c "):
                        print("self-test:     " + line)
    for f in os.listdir(tmp):
        os.remove(os.path.join(tmp, f))
    os.rmdir(tmp)
    print("self-test: %s (%d solvers, %d files)" % ("FAIL, %d wrong" % failures if failures else "all ok",
                                                   len(available), len(SELF_TESTS)))
    return 1 if failures else 0


def read_answer(m, stdout):
    """(status, values, o, problem) from competition output about the model m."""
    status, values, o = None, None, None
    lits = []
    for line in stdout.splitlines():
        if line.startswith("s "):
            if status is not None:
                return None, None, None, "a second 's' line"
            status = {v: k for k, v in STATUS_LINE.items()}.get(line[2:].strip(), "bad")
        elif line.startswith("o "):
            o = int(line[2:])
        elif line.startswith("v"):
            lits += line[1:].split()
    if status is None or status == "bad":
        return None, None, None, "no status line"
    if status in ("sat", "optimum"):
        values = [0] * m.n
        for w in lits:
            name = w.lstrip("-")
            if name not in m.index and not NUMBERED.match(name):
                return status, None, o, "%r names no variable" % w
            if not w.startswith("-") and name in m.index:
                values[m.index[name]] = 1
        missing = [n for n in m.output_names() if n not in {w.lstrip("-") for w in lits}]
        if missing:
            return status, None, o, "the v lines leave out %s" % missing[0]
    return status, values, o, None


def importable(module):
    """Whether a fresh interpreter imports the module (one that is not this one: see the
    self-test about ortools and highspy)."""
    import subprocess

    probe = {"ortools": "from ortools.sat.python import cp_model",
             "highspy": "import highspy", "exact": "from exact import Exact"}[module]
    return subprocess.run([sys.executable, "-c", probe], capture_output=True).returncode == 0


def versions():
    from importlib import metadata

    rows = []
    for s in SOLVERS:
        try:
            v = metadata.version(MODULES[s])
        except Exception:  # noqa: BLE001
            v = None
        ok = importable(MODULES[s])
        rows.append("%-6s %-8s %s" % (s, MODULES[s], (v or "?") if ok else "not installed"))
    return rows


def main(argv):
    args = list(argv)
    timeout = None
    if "--timeout" in args:
        k = args.index("--timeout")
        try:
            timeout = float(args[k + 1])
        except (IndexError, ValueError):
            print("pb-peers: --timeout takes a number of seconds", file=sys.stderr)
            return 2
        del args[k:k + 2]
    if args == ["--list"]:
        print("\n".join(versions()))
        return 0
    if args == ["--self-test"]:
        return self_test(timeout)
    if len(args) != 2 or args[0] not in SOLVERS:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    solver, path = args
    # Only this program's lines go to standard output: a solver library that prints (to
    # file descriptor 1) is sent to standard error instead.
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    lines, code = solve_file(solver, path, timeout)
    out.write("\n".join(lines) + "\n")
    out.flush()
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
