#!/usr/bin/env python3
"""Side-by-side table: sokuc and the peer PB solvers of scripts/pb-peers.py (Exact,
CP-SAT, HiGHS) on a set of OPB files, with the same wall-clock limit, one run at a time.

Usage:
  python3 scripts/pb-table.py [PATH...] [--timeout SECONDS] [--tools sokuc,exact,cpsat,highs]
                              [--manifest FILE] [--sokuc-args 'ARGS'] [--json FILE] [--limit N]
                              [--jobs N]
  python3 scripts/pb-table.py --merge JSON... [--json FILE]

PATH: OPB files (.opb, also .gz/.bz2/.xz) and folders (searched recursively); default
instances/pb-bench/. --timeout defaults to 60. The sokuc binary is $SOKUC (default
target/release/sokuc, relative to the repository). --sokuc-args are added to
`sokuc solve` (for instance '--backend sat').

Per file and tool, one process in a process group of its own, killed (the group) one
second past the limit; a crash, a kill or unreadable output is a miss, never an abort.
  sokuc   `sokuc solve FILE --timeout T --format json`
  peers   `python3 scripts/pb-peers.py SOLVER FILE --timeout T` (competition output)
Every model (sokuc's own too) is checked by `sokuc check FILE ANSWER`, sokuc's exact
verifier, which also gives its objective value. An answer is WRONG when
  - its model fails the check, or it claims a model without giving one;
  - it says unsat, but the manifest says sat (or gives an optimum), or another tool's
    model passed the check;
  - it claims an optimum different from the manifest's, or worse than another tool's
    checked model, or its `o` line differs from its model's objective.
A wrong answer is not counted as solved. A checked model that contradicts the manifest
is listed as a manifest conflict.

The manifest (--manifest, or else MANIFEST.tsv in the first folder given that has one,
or else instances/pb-bench/MANIFEST.tsv) is tab-separated: path, kind, expected (sat, unsat, unknown
or an integer optimum), more columns ignored; `#` lines and a header line starting with
`path` are skipped; a path is looked up relative to the manifest's folder, the
repository and the current folder (with --manifest, then also by file name alone).

--jobs N (default 1) runs N tool runs at a time, each pinned to a core of its own with
`taskset -c`, for single-threaded tools on a machine with N idle cores. sokuc is pinned
too: its race of two engines then shares one core.

--merge reads the --json files of runs made separately (for instance one tool per core,
each pinned with `taskset`), joins their runs file by file, judges every file again with
all the tools' answers (an unsat is wrong when another run's model passed the check) and
prints the one table. The runs must share their files and their limit.

Output: markdown on standard output (a summary with one row per tool, then one row per
file), progress on standard error. Exit code 1 when any answer is wrong, else 0.
"""
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEERS = os.path.join(ROOT, "scripts", "pb-peers.py")
ALL_TOOLS = ["sokuc", "exact", "cpsat", "highs"]
OPB = re.compile(r".*\.opb(\.(gz|bz2|xz))?$")


def die(msg):
    print("pb-table: " + msg, file=sys.stderr)
    sys.exit(2)


def parse_args(argv):
    a = {"paths": [], "timeout": 60.0, "tools": list(ALL_TOOLS), "manifest": None,
         "sokuc_args": [], "json": None, "limit": None, "merge": False, "jobs": 1}
    i = 0
    while i < len(argv):
        w = argv[i]
        val = argv[i + 1] if i + 1 < len(argv) else None
        if w in ("-h", "--help"):
            print(__doc__.strip())
            sys.exit(0)
        if w in ("--timeout", "--tools", "--manifest", "--sokuc-args", "--json", "--limit",
                 "--jobs"):
            if val is None:
                die("%s takes a value" % w)
            if w == "--timeout":
                try:
                    a["timeout"] = float(val)
                except ValueError:
                    die("--timeout takes seconds")
            elif w == "--tools":
                a["tools"] = [t for t in val.split(",") if t]
                bad = [t for t in a["tools"] if t not in ALL_TOOLS]
                if bad or not a["tools"]:
                    die("--tools takes some of %s" % ",".join(ALL_TOOLS))
            elif w == "--manifest":
                a["manifest"] = val
            elif w == "--sokuc-args":
                a["sokuc_args"] = shlex.split(val)
            elif w == "--json":
                a["json"] = val
            elif w == "--jobs":
                if not val.isdigit() or int(val) < 1:
                    die("--jobs takes a positive count")
                a["jobs"] = int(val)
            else:
                a["limit"] = int(val)
            i += 2
            continue
        if w == "--merge":
            a["merge"] = True
            i += 1
            continue
        if w.startswith("--"):
            die("unknown option %s (see --help)" % w)
        a["paths"].append(w)
        i += 1
    return a


# --------------------------------------------------------------------------------------
# Files and the manifest


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            found = []
            for d, _dirs, names in os.walk(p):
                found += [os.path.join(d, n) for n in names if OPB.match(n)]
            if not found:
                die("%s holds no .opb file" % p)
            files += sorted(found)
        elif os.path.isfile(p):
            if not OPB.match(p):
                die("%s is not an OPB file (.opb, .opb.gz, .opb.bz2, .opb.xz)" % p)
            files.append(p)
        else:
            die("%s: no such file or folder" % p)
    seen, out = set(), []
    for f in files:
        r = os.path.realpath(f)
        if r not in seen:
            seen.add(r)
            out.append(f)
    return out


def read_manifest(path, by_name_too):
    """{realpath or basename: expected} with expected 'sat', 'unsat', 'unknown' or an int."""
    by_path, by_name, dup = {}, {}, set()
    base = os.path.dirname(os.path.abspath(path))
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if cols[0].strip() == "path" or len(cols) < 3:
                continue
            p, exp = cols[0].strip(), cols[2].strip().lower()
            if re.fullmatch(r"[+-]?\d+", exp):
                exp = int(exp)
            elif exp not in ("sat", "unsat", "unknown"):
                print("pb-table: %s: expected %r for %s is not sat, unsat, unknown or an "
                      "integer: read as unknown" % (path, cols[2], p), file=sys.stderr)
                exp = "unknown"
            for cand in (os.path.join(base, p), os.path.join(ROOT, p), os.path.abspath(p)):
                if os.path.exists(cand):
                    by_path[os.path.realpath(cand)] = exp
            name = os.path.basename(p)
            if name in by_name:
                dup.add(name)
            by_name[name] = exp
    for name in dup:
        del by_name[name]
    return by_path, (by_name if by_name_too else {})


def expected_of(manifest, f):
    if manifest is None:
        return None
    by_path, by_name = manifest
    r = os.path.realpath(f)
    if r in by_path:
        return by_path[r]
    return by_name.get(os.path.basename(f))


def objective_sense(f):
    """None (no objective), 'min' or 'max', from the file's first statement."""
    import bz2
    import gzip
    import lzma

    opener = gzip.open if f.endswith(".gz") else bz2.open if f.endswith(".bz2") \
        else lzma.open if f.endswith(".xz") else open
    try:
        with opener(f, "rb") as fh:
            head = b""
            for raw in fh:
                line = raw.split(b"*", 1)[0]
                head += line
                if b";" in line:
                    break
    except Exception:  # noqa: BLE001
        return None
    first = head.split(b";", 1)[0].strip()
    if first.startswith(b"min:"):
        return "min"
    if first.startswith(b"max:"):
        return "max"
    return None


# --------------------------------------------------------------------------------------
# Running


# With --jobs, each worker thread runs its processes on one core (`taskset -c CPU`).
PIN = threading.local()
LIVE = set()  # process groups running, killed on an interrupt
LIVE_LOCK = threading.Lock()


def run_process(cmd, limit):
    """(stdout, stderr, wall seconds, exit code or None, killed)."""
    cpu = getattr(PIN, "cpu", None)
    if cpu is not None:
        cmd = ["taskset", "-c", str(cpu)] + cmd
    t0 = time.monotonic()
    try:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True)
    except OSError as e:
        return "", "cannot start: %s" % e, 0.0, None, False
    with LIVE_LOCK:
        LIVE.add(p.pid)
    killed = False
    try:
        out, err = p.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        killed = True
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            out, err = p.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            out, err = b"", b""
    except KeyboardInterrupt:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        p.wait()
        raise
    finally:
        with LIVE_LOCK:
            LIVE.discard(p.pid)
    wall = time.monotonic() - t0
    return (out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), wall,
            p.returncode, killed)


def last_line(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[-1][:200] if lines else ""


def check_model(sokuc, f, answer_text):
    """('verified', objective or None) or ('wrong', why), by `sokuc check`."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as t:
        t.write(answer_text)
        name = t.name
    try:
        out, err, _wall, code, killed = run_process([sokuc, "check", f, name], 300)
    finally:
        os.unlink(name)
    if code == 0 and out.startswith("valid"):
        m = re.search(r"objective (-?\d+)", out)
        return "verified", int(m.group(1)) if m else None
    return "wrong", last_line(err) or last_line(out) or ("killed" if killed else "exit %s" % code)


def run_sokuc(sokuc, extra, f, timeout):
    cmd = [sokuc, "solve", f, "--timeout", repr(timeout), "--format", "json"] + extra
    out, err, wall, code, killed = run_process(cmd, timeout + 1)
    r = {"tool": "sokuc", "wall": wall, "status": "error", "claimed": None, "objective": None,
         "model": "none", "note": None}
    doc = None
    for line in out.splitlines():
        if line.startswith("{"):
            try:
                doc = json.loads(line)
                break
            except ValueError:
                pass
    if doc is None:
        r["status"] = "unknown" if killed else "error"
        r["note"] = "killed at the limit" if killed else \
            "no JSON (exit %s): %s" % (code, last_line(err) or last_line(out))
        return r, None
    st = doc.get("status")
    if st == "sat":
        r["status"] = "optimum" if doc.get("optimal") else "sat"
        if doc.get("objective") is not None:
            r["claimed"] = int(doc["objective"])
        return r, out
    if st == "unsat":
        r["status"] = "unsat"
        return r, None
    if st == "unknown":
        r["status"] = "unknown"
        r["note"] = (doc.get("reason") or "")[:200] or None
        return r, None
    r["note"] = (doc.get("message") or doc.get("reason") or last_line(err))[:200]
    return r, None


def run_peer(tool, f, timeout):
    cmd = [sys.executable, PEERS, tool, f, "--timeout", repr(timeout)]
    out, err, wall, code, killed = run_process(cmd, timeout + 1)
    r = {"tool": tool, "wall": wall, "status": "error", "claimed": None, "objective": None,
         "model": "none", "note": None}
    status = None
    for line in out.splitlines():
        if line.startswith("s "):
            status = line[2:].strip()
        elif line.startswith("o "):
            try:
                r["claimed"] = int(line[2:].strip())
            except ValueError:
                pass
    comments = [l[2:] for l in out.splitlines() if l.startswith("c ")]
    if status is None:
        r["status"] = "unknown" if killed else "error"
        r["note"] = "killed at the limit" if killed else \
            "no 's' line (exit %s): %s" % (code, last_line(err))
        return r, None
    r["status"] = {"SATISFIABLE": "sat", "OPTIMUM FOUND": "optimum", "UNSATISFIABLE": "unsat",
                   "UNKNOWN": "unknown"}.get(status, "error")
    if r["status"] == "error":
        r["note"] = "status line 's %s'" % status
    elif r["status"] == "unknown" and comments:
        r["note"] = comments[-1][:200]
    if r["status"] in ("sat", "optimum"):
        answer = "".join(l + "\n" for l in out.splitlines() if l.startswith(("s ", "v")))
        return r, answer
    return r, None


# --------------------------------------------------------------------------------------
# Judging


def better(a, b, sense):
    return a > b if sense == "max" else a < b


def judge(rows, expected, sense):
    """Marks each run's `wrong` (a reason or None) and returns the manifest conflicts."""
    conflicts = []
    verified = [r for r in rows if r["model"] == "verified"]
    best = None
    for r in verified:
        if r["objective"] is not None and (best is None or better(r["objective"], best, sense)):
            best = r["objective"]
    feasible = bool(verified) or expected == "sat" or isinstance(expected, int)
    if verified and expected == "unsat":
        conflicts.append("the manifest says unsat, but %s's model passed the check"
                         % ", ".join(r["tool"] for r in verified))
    if isinstance(expected, int) and best is not None and better(best, expected, sense):
        conflicts.append("the manifest's optimum is %d, but %s's checked model reaches %d"
                         % (expected, [r["tool"] for r in verified if r["objective"] == best][0], best))
    for r in rows:
        r["wrong"] = None
        st = r["status"]
        if st in ("sat", "optimum"):
            if r["model"] == "wrong":
                r["wrong"] = "model fails the check: " + (r["model_why"] or "")
            elif r["model"] != "verified":
                r["wrong"] = "claims a model but gives none"
            elif sense and r["claimed"] is not None and r["claimed"] != r["objective"]:
                r["wrong"] = "o %d, but its model's objective is %d" % (r["claimed"], r["objective"])
            elif st == "optimum" and sense:
                if isinstance(expected, int) and r["objective"] != expected \
                        and not better(r["objective"], expected, sense):
                    r["wrong"] = "optimum %d, the manifest says %d" % (r["objective"], expected)
                elif best is not None and better(best, r["objective"], sense):
                    r["wrong"] = "optimum %d, but a checked model reaches %d" % (r["objective"], best)
        elif st == "unsat" and feasible:
            r["wrong"] = "unsat, but " + ("a checked model exists" if verified else
                                          "the manifest says %s" % expected)
    answered = [r for r in rows if r["status"] in ("sat", "optimum", "unsat")]
    if expected not in (None, "unknown") and len(answered) > 1 and all(r["wrong"] for r in answered):
        conflicts.append("every tool that answered (%d) contradicts the manifest's %s: "
                         "check the manifest" % (len(answered), expected))
    return conflicts


def classify(r, sense):
    """solved-dec | proven | infeasible | feasible | unknown | error | wrong."""
    if r["wrong"]:
        return "wrong"
    st = r["status"]
    if sense is None:
        if st in ("sat", "optimum", "unsat"):
            return "solved"
        return st
    if st == "optimum":
        return "proven"
    if st == "unsat":
        return "infeasible"
    if st == "sat":
        return "feasible"
    return st


def cell(r, sense):
    c = classify(r, sense)
    t = "%.1fs" % r["wall"]
    if c == "wrong":
        return "**WRONG** %s" % r["status"]
    if c in ("solved", "proven", "feasible", "infeasible"):
        st = {"sat": "sat", "optimum": "opt", "unsat": "unsat"}[r["status"]]
        if c == "feasible":
            st = "feas"
        obj = " %d" % r["objective"] if r["objective"] is not None and sense else ""
        return "%s%s %s" % (st, obj, t)
    if c == "unknown":
        return "– %s" % t
    return "err %s" % t


def median(xs):
    xs = sorted(xs)
    if not xs:
        return None
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


# --------------------------------------------------------------------------------------


def tool_versions(sokuc, tools):
    v = {}
    if "sokuc" in tools:
        out, _err, _w, _c, _k = run_process([sokuc, "--version"], 30)
        rev, _e, _w2, _c2, _k2 = run_process(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], 30)
        words = out.split()
        v["sokuc"] = (" ".join(words[:2]) or "sokuc ?") + (" (%s)" % rev.strip() if rev.strip() else "")
    peers = [t for t in tools if t != "sokuc"]
    if peers:
        out, _err, _w, _c, _k = run_process([sys.executable, PEERS, "--list"], 120)
        for line in out.splitlines():
            w = line.split(None, 2)
            if len(w) == 3 and w[0] in peers:
                v[w[0]] = "not installed" if w[2] == "not installed" else "%s %s" % (w[1], w[2])
    return v


def merge(a):
    """Joins the runs of several --json files and judges every file again."""
    if len(a["paths"]) < 2:
        die("--merge takes two or more --json files")
    T, tools, versions, by_file, order, sokuc_args = None, [], {}, {}, [], []
    manifest_of, elapsed = None, []
    for path in a["paths"]:
        try:
            with open(path) as fh:
                d = json.load(fh)
        except (OSError, ValueError) as e:
            die("%s: %s" % (path, e))
        if T is not None and d["timeout"] != T:
            die("%s has a limit of %g s, the others %g s" % (path, d["timeout"], T))
        T = d["timeout"]
        for t in d["tools"]:
            if t in tools:
                die("%s: %s is in two of the files" % (path, t))
            tools.append(t)
        versions.update(d["versions"])
        sokuc_args = d.get("sokuc_args", sokuc_args)
        manifest_of = manifest_of or d.get("manifest")
        elapsed.append(d.get("elapsed", 0.0))
        for x in d["files"]:
            key = os.path.realpath(x["file"])
            if key not in by_file:
                by_file[key] = {"file": x["file"], "expected": x["expected"],
                                "sense": x["sense"], "runs": []}
                order.append(key)
            by_file[key]["runs"] += x["runs"]
    results = []
    for key in order:
        x = by_file[key]
        have = {r["tool"] for r in x["runs"]}
        if have != set(tools):
            die("%s was not run by %s" % (x["file"], ", ".join(sorted(set(tools) - have))))
        x["runs"].sort(key=lambda r: tools.index(r["tool"]))
        x["conflicts"] = judge(x["runs"], x["expected"], x["sense"])
        results.append(x)
    manifest = a["manifest"] or manifest_of
    if a["json"]:
        with open(a["json"], "w") as fh:
            json.dump({"timeout": T, "tools": tools, "versions": versions,
                       "sokuc_args": sokuc_args, "files": results}, fh, indent=1)
    how = "Merged from %d runs made separately (%s s each)" % (
        len(elapsed), ", ".join("%.0f" % e for e in elapsed))
    wrong = report(results, tools, versions, T, manifest, sokuc_args, how)
    return 1 if wrong else 0


def main(argv):
    a = parse_args(argv)
    if a["merge"]:
        return merge(a)
    sokuc = os.environ.get("SOKUC") or os.path.join(ROOT, "target", "release", "sokuc")
    if not (os.path.isfile(sokuc) and os.access(sokuc, os.X_OK)):
        die("no sokuc binary at %s (set $SOKUC)" % sokuc)
    sokuc = os.path.abspath(sokuc)
    paths = a["paths"]
    if not paths:
        default = os.path.join(ROOT, "instances", "pb-bench")
        if not os.path.isdir(default):
            die("instances/pb-bench/ does not exist: give files or folders")
        paths = [default]
    files = collect(paths)
    if a["limit"] is not None:
        files = files[:a["limit"]]
    manifest_path = a["manifest"]
    if manifest_path is None:
        for p in paths + [os.path.join(ROOT, "instances", "pb-bench")]:
            cand = os.path.join(p, "MANIFEST.tsv")
            if os.path.isdir(p) and os.path.isfile(cand):
                manifest_path = cand
                break
    # A manifest found in a folder names its files by path; one given with --manifest may
    # also name them by file name alone.
    manifest = read_manifest(manifest_path, a["manifest"] is not None) \
        if manifest_path else None
    versions = tool_versions(sokuc, a["tools"])
    tools = [t for t in a["tools"] if versions.get(t) != "not installed"]
    skipped = [t for t in a["tools"] if t not in tools]
    if skipped:
        print("pb-table: not installed, left out: %s" % ", ".join(skipped), file=sys.stderr)
    T = a["timeout"]

    def run_one(tool, f):
        try:
            if tool == "sokuc":
                r, answer = run_sokuc(sokuc, a["sokuc_args"], f, T)
            else:
                r, answer = run_peer(tool, f, T)
            r["model_why"] = None
            if answer is not None:
                r["model"], x = check_model(sokuc, f, answer)
                if r["model"] == "verified":
                    r["objective"] = x
                else:
                    r["model_why"] = x
        except Exception as e:  # noqa: BLE001
            r = {"tool": tool, "wall": 0.0, "status": "error", "claimed": None,
                 "objective": None, "model": "none", "model_why": None,
                 "note": "pb-table: %s: %s" % (type(e).__name__, e)}
        return r

    results = []  # per file: {file, expected, sense, runs: {tool: run}, conflicts}
    runs_of = {}  # (file index, tool) -> run
    lock = threading.Lock()
    done_files = [0]

    def finish(k, f):
        """Judges file k once every tool has run on it (called under the lock)."""
        runs = [runs_of[(k, t)] for t in tools]
        sense, exp = objective_sense(f), expected_of(manifest, f)
        conflicts = judge(runs, exp, sense)
        results.append({"file": f, "expected": exp, "sense": sense, "runs": runs,
                        "conflicts": conflicts, "index": k})
        done_files[0] += 1
        print("pb-table: [%d/%d] %s: %s" % (done_files[0], len(files), os.path.basename(f),
              " | ".join("%s %s" % (r["tool"], cell(r, sense)) for r in runs)),
              file=sys.stderr)

    items = [(k, f, tool) for k, f in enumerate(files) for tool in tools]
    t_start = time.monotonic()
    stop = threading.Event()

    def worker(cpu, queue):
        PIN.cpu = cpu
        while not stop.is_set():
            with lock:
                if not queue:
                    return
                k, f, tool = queue.pop(0)
            r = run_one(tool, f)
            with lock:
                runs_of[(k, tool)] = r
                if all((k, t) in runs_of for t in tools):
                    finish(k, f)

    queue = list(items)
    try:
        if a["jobs"] == 1:
            worker(None, queue)
        else:
            cpus = sorted(os.sched_getaffinity(0))
            if a["jobs"] > len(cpus):
                die("--jobs %d, but only %d cores are available" % (a["jobs"], len(cpus)))
            threads = [threading.Thread(target=worker, args=(c, queue), daemon=True)
                       for c in cpus[:a["jobs"]]]
            for t in threads:
                t.start()
            while any(t.is_alive() for t in threads):
                for t in threads:
                    t.join(0.2)
    except KeyboardInterrupt:
        stop.set()
        with LIVE_LOCK:
            for pid in list(LIVE):
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass
        print("pb-table: interrupted: the table holds the files done", file=sys.stderr)
    with lock:
        results.sort(key=lambda x: x.pop("index"))

    if a["json"]:
        with open(a["json"], "w") as fh:
            json.dump({"timeout": T, "tools": tools, "versions": versions,
                       "sokuc_args": a["sokuc_args"], "manifest": manifest_path,
                       "elapsed": time.monotonic() - t_start, "files": results}, fh, indent=1)
    wrong = report(results, tools, versions, T, manifest_path, a["sokuc_args"],
                   "One run at a time. Total %.0f s" % (time.monotonic() - t_start))
    return 1 if wrong else 0


def report(results, tools, versions, T, manifest_path, sokuc_args, how):
    p = print
    dec = [x for x in results if x["sense"] is None]
    opt = [x for x in results if x["sense"] is not None]
    p("## PB peers: %d files (%d decision, %d optimisation), %g s wall limit each"
      % (len(results), len(dec), len(opt), T))
    p("")
    listed = sum(1 for x in results if x["expected"] is not None)
    p("%s; every model checked by `sokuc check`. %s."
      % (how, "Expected answers for %d files from %s" % (listed, os.path.relpath(manifest_path))
         if manifest_path else "No manifest"))
    p("")
    p("| tool | version | decision solved (sat+unsat) | optima proven (+infeasible) | "
      "feasible only | unknown | errors | wrong | median s (solved) |")
    p("|---|---|---|---|---|---|---|---|---|")
    total_wrong = 0
    for tool in tools:
        runs = [(x, next(r for r in x["runs"] if r["tool"] == tool)) for x in results]
        cls = [(x, r, classify(r, x["sense"])) for x, r in runs]
        sat = sum(1 for x, r, c in cls if c == "solved" and r["status"] != "unsat")
        uns = sum(1 for x, r, c in cls if c == "solved" and r["status"] == "unsat")
        proven = sum(1 for _x, _r, c in cls if c == "proven")
        infeas = sum(1 for _x, _r, c in cls if c == "infeasible")
        feas = sum(1 for _x, _r, c in cls if c == "feasible")
        unk = sum(1 for _x, _r, c in cls if c == "unknown")
        err = sum(1 for _x, _r, c in cls if c == "error")
        wr = sum(1 for _x, _r, c in cls if c == "wrong")
        total_wrong += wr
        med = median([r["wall"] for _x, r, c in cls if c in ("solved", "proven", "infeasible")])
        name = tool + (" " + " ".join(sokuc_args) if tool == "sokuc" and sokuc_args else "")
        p("| %s | %s | %d/%d (%d+%d) | %d/%d%s | %d | %d | %d | %s | %s |"
          % (name, versions.get(tool, "?"), sat + uns, len(dec), sat, uns, proven + infeas,
             len(opt), " (+%d)" % infeas if infeas else "", feas, unk, err,
             "**%d**" % wr if wr else "0", "%.2f" % med if med is not None else "–"))
    p("")
    p("Cells: sat/unsat/opt VALUE/feas VALUE (a model, no proof) and the wall time; – no "
      "answer in time (or declined); err a failure; **WRONG** see below.")
    p("")
    p("| file | expected | " + " | ".join(tools) + " |")
    p("|---|---|" + "---|" * len(tools))
    # Files by their path below the folder they all share (their name, for files of one folder).
    dirs = [os.path.dirname(os.path.abspath(x["file"])) for x in results]
    top = os.path.commonpath(dirs) if dirs else ""
    for x in results:
        exp = x["expected"]
        exp = "" if exp is None else str(exp)
        if x["sense"] == "max":
            exp += " (max)"
        p("| %s | %s | %s |" % (os.path.relpath(os.path.abspath(x["file"]), top), exp,
                                 " | ".join(cell(r, x["sense"]) for r in x["runs"])))
    notes = []
    for x in results:
        for r in x["runs"]:
            if r["wrong"]:
                notes.append("- WRONG %s on %s: %s" % (r["tool"], x["file"], r["wrong"]))
        for c in x["conflicts"]:
            notes.append("- manifest conflict on %s: %s" % (x["file"], c))
    errs = []
    for x in results:
        for r in x["runs"]:
            if r["status"] == "error" and not r["wrong"]:
                errs.append("- %s on %s: %s" % (r["tool"], os.path.basename(x["file"]), r["note"]))
    if notes:
        p("")
        p("### Wrong answers and conflicts")
        p("")
        for n in notes:
            p(n)
    if errs:
        p("")
        p("### Errors")
        p("")
        for n in errs:
            p(n)
    return total_wrong


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
