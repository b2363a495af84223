#!/usr/bin/env python3
"""Each published crate's public surface, read off its rustdoc pages, against its committed list.

    python3 scripts/public-api.py check   # after `cargo doc --no-deps`: fails on a difference
    python3 scripts/public-api.py bless   # writes the lists anew (a change made on purpose)

Each line is one public item: a type, function, constant or trait at the crate's top, or an
inherent method, associated constant, variant or field of one, or a trait it implements.
CI runs `check` after building the documentation, so a surface changes only when its list in
tests/public-api/CRATE.txt changes with it, in the same commit.
"""

import html
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The published crates with a library, as rustdoc names their folders.
CRATES = ["sokuc_core", "sokuc_compile", "sokuc_mip_wire", "sokuc_engines", "sokuc_puzzles", "sokuc", "sokuc_cli"]
LISTS = os.path.join(ROOT, "tests", "public-api")

KINDS = {
    "struct": "struct",
    "enum": "enum",
    "fn": "fn",
    "trait": "trait",
    "constant": "const",
    "type": "type",
    "macro": "macro",
    "static": "static",
}
MEMBER = re.compile(r'id="(method|tymethod|associatedconstant|associatedtype|variant|structfield)\.([A-Za-z0-9_]+)"')
TRAIT_IMPL = re.compile(r'<section id="impl-([^"]+)" class="impl">')


def items(doc):
    index = open(os.path.join(doc, "all.html"), encoding="utf-8").read()
    out = []
    for href, _ in re.findall(r'<li><a href="([^"]+)">([^<]+)</a></li>', index):
        kind, name = os.path.basename(href)[: -len(".html")].split(".", 1)
        path = href[: -len(os.path.basename(href))].replace("/", "::")
        full = "%s %s%s" % (KINDS.get(kind, kind), path, name)
        out.append(full)
        page = open(os.path.join(doc, href), encoding="utf-8").read()
        # Inherent members come before the trait implementations; the blanket ones (Any,
        # From<T>, ...) after them are the compiler's, not the crate's.
        inherent, _, rest = page.partition('id="trait-implementations"')
        traits = rest.split('id="synthetic-implementations"')[0]
        for what, member in MEMBER.findall(inherent):
            out.append("%s::%s (%s)" % (full, member, what))
        for impl in TRAIT_IMPL.findall(traits):
            out.append("%s impl %s" % (full, html.unescape(impl)))
    return sorted(set(out))


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "check"
    if mode not in ("check", "bless"):
        sys.exit("public-api: unknown mode %r (check or bless)" % mode)
    failed = False
    for krate in CRATES:
        doc = os.path.join(ROOT, "target", "doc", krate)
        if not os.path.exists(os.path.join(doc, "all.html")):
            sys.exit("public-api: no %s: run `cargo doc --no-deps` first" % os.path.join(doc, "all.html"))
        now = items(doc)
        path = os.path.join(LISTS, krate.replace("_", "-") + ".txt")
        if mode == "bless":
            os.makedirs(LISTS, exist_ok=True)
            tmp = path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                f.write("".join(line + "\n" for line in now))
            os.replace(tmp, path)
            print("public-api: %d items written to %s" % (len(now), os.path.relpath(path, ROOT)))
            continue
        then = open(path, encoding="utf-8").read().splitlines() if os.path.exists(path) else []
        added = sorted(set(now) - set(then))
        removed = sorted(set(then) - set(now))
        for line in added:
            print("+ %s: %s" % (krate, line))
        for line in removed:
            print("- %s: %s" % (krate, line))
        if added or removed:
            print(
                "public-api: the public surface of %s changed (%d added, %d removed)"
                % (krate, len(added), len(removed))
            )
            failed = True
    if failed:
        sys.exit(
            "public-api: if the changes are meant, run `python3 scripts/public-api.py bless` and "
            "commit tests/public-api/"
        )


if __name__ == "__main__":
    main()
