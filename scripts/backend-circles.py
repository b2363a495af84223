#!/usr/bin/env python3
"""Import circles between the files of src/backend/.

An edge F -> G when F names an item of G: a `use super::`/`use crate::backend::` line, an
inline `super::x::`/`crate::backend::x::` path, or (in a mod.rs) a path into a child module.
Module declarations are not edges, nor test-only modules (`#[cfg(test)] mod x;`) and `mod
tests` blocks. With --facade, a mod.rs's `pub use` re-exports are not edges either (they are
the module's face, not what its own code uses). Prints each strongly connected component of
more than one file, with its edges.

    python3 scripts/backend-circles.py src/backend --facade
"""
import os, re, sys
args = [a for a in sys.argv[1:] if not a.startswith('--')]
root = args[0] if args else 'src/backend'
files = {}
for d, _, fs in os.walk(root):
    for f in fs:
        if f.endswith('.rs'):
            p = os.path.join(d, f)
            rel = os.path.relpath(p, root)[:-3].split(os.sep)
            if rel[-1] == 'mod':
                rel = rel[:-1]
            files[tuple(rel)] = p
def module_file(path):
    # longest prefix of `path` that is a module with a file
    for n in range(len(path), -1, -1):
        if tuple(path[:n]) in files:
            return tuple(path[:n])
    return ()
def strip_tests(src):
    i = src.find('#[cfg(test)]\nmod tests')
    return src if i < 0 else src[:i]
# Test-only modules (`#[cfg(test)] mod x;`) are not part of the build's graph.
testonly = set()
for mod, p in files.items():
    for m in re.finditer(r'#\[cfg\(test\)\]\s*(?:pub(?:\(crate\))?\s+)?mod\s+(\w+);', open(p).read()):
        testonly.add(tuple(list(mod) + [m.group(1)]))
files = {m: p for m, p in files.items() if m not in testonly}
FACADE = '--facade' in sys.argv
edges = {m: set() for m in files}
for mod, p in files.items():
    src = strip_tests(open(p).read())
    if FACADE and p.endswith('mod.rs'):
        # A module's `pub use` re-exports are its facade, not a dependency of its own code.
        src = re.sub(r'pub use [^;]*;', '', src)
    src = re.sub(r'//.*', '', src)
    is_modrs = p.endswith('mod.rs')
    here = list(mod)
    parent = here if is_modrs else here[:-1]   # what `super` is relative to... 
    # `super` in a file names the parent of the file's module
    sup = here[:-1]
    paths = []
    for m in re.finditer(r'use\s+((?:super|crate)(?:::[\w{}, \n*:]+))\s*;', src):
        paths.append(m.group(1))
    for m in re.finditer(r'\b((?:super|crate)(?:::\w+)+)', src):
        paths.append(m.group(1))
    def expand(s):
        s = s.replace('\n', ' ')
        m = re.match(r'^(.*?)::\{(.*)\}$', s.strip())
        if not m:
            return [s.strip()]
        pre, inner = m.group(1), m.group(2)
        parts, depth, cur = [], 0, ''
        for ch in inner:
            if ch == ',' and depth == 0:
                parts.append(cur); cur = ''
            else:
                depth += ch == '{'; depth -= ch == '}'; cur += ch
        parts.append(cur)
        out = []
        for q in parts:
            q = q.strip()
            if q:
                out += expand(pre + '::' + q)
        return out
    if is_modrs:
        kids = {k[-1] for k in files if len(k) == len(mod) + 1 and k[:len(mod)] == mod}
        for m in re.finditer(r'(?<![\w:])(\w+)((?:::\w+)+)', src):
            if m.group(1) in kids:
                t = module_file(list(mod) + [m.group(1)] + m.group(2).split('::')[1:])
                if t != mod:
                    edges[mod].add(t)
    for s in paths:
        for q in expand(s):
            segs = [x for x in q.split('::') if x and x != 'self' and not x.startswith(' ')]
            segs = [x.split(' as ')[0].strip() for x in segs]
            if segs[0] == 'crate':
                if len(segs) < 2 or segs[1] != 'backend':
                    continue
                target = segs[2:]
            else:
                base = list(sup)
                segs2 = segs
                while segs2 and segs2[0] == 'super':
                    segs2 = segs2[1:]
                    base = base  # first super already applied
                    if segs2 and segs2[0] == 'super':
                        base = base[:-1]
                target = base + segs2
            t = module_file(target)
            if t != mod:
                edges[mod].add(t)
# Tarjan
idx, low, stack, on, out, n = {}, {}, [], set(), [], [0]
def sc(v):
    idx[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
    for w in edges[v]:
        if w not in idx:
            sc(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], idx[w])
    if low[v] == idx[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        out.append(comp)
sys.setrecursionlimit(10000)
for v in edges:
    if v not in idx: sc(v)
name = lambda m: files[m].replace(root + '/', '')
bad = [c for c in out if len(c) > 1]
for c in bad:
    cs = set(c)
    print('circle:', ', '.join(sorted(name(m) for m in c)))
    for m in sorted(c):
        for t in sorted(edges[m] & cs):
            print('   ', name(m), '->', name(t))
if not bad:
    print('no import circle between files of', root)
