#!/usr/bin/env python3
"""The library's public surface, read off its rustdoc pages, against the committed list.

    python3 scripts/public-api.py check   # after `cargo doc --no-deps`: fails on a difference
    python3 scripts/public-api.py bless   # writes the list anew (a change made on purpose)

Each line is one public item: a type, function, constant or trait at the crate's top, or an
inherent method, associated constant, variant or field of one, or a trait it implements.
CI runs `check` after building the documentation, so the surface changes only when the list
in tests/public-api.txt changes with it, in the same commit.
"""

import html
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "target", "doc", "sokuc")
LIST = os.path.join(ROOT, "tests", "public-api.txt")

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


def items():
    index = open(os.path.join(DOC, "all.html"), encoding="utf-8").read()
    out = []
    for href, _ in re.findall(r'<li><a href="([^"]+)">([^<]+)</a></li>', index):
        kind, name = os.path.basename(href)[: -len(".html")].split(".", 1)
        path = href[: -len(os.path.basename(href))].replace("/", "::")
        full = "%s %s%s" % (KINDS.get(kind, kind), path, name)
        out.append(full)
        page = open(os.path.join(DOC, href), encoding="utf-8").read()
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
    if not os.path.exists(os.path.join(DOC, "all.html")):
        sys.exit("public-api: no %s: run `cargo doc --no-deps` first" % os.path.join(DOC, "all.html"))
    now = items()
    if mode == "bless":
        tmp = LIST + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in now))
        os.replace(tmp, LIST)
        print("public-api: %d items written to %s" % (len(now), os.path.relpath(LIST, ROOT)))
        return
    if mode != "check":
        sys.exit("public-api: unknown mode %r (check or bless)" % mode)
    then = open(LIST, encoding="utf-8").read().splitlines() if os.path.exists(LIST) else []
    added = sorted(set(now) - set(then))
    removed = sorted(set(then) - set(now))
    if added or removed:
        for line in added:
            print("+ " + line)
        for line in removed:
            print("- " + line)
        sys.exit(
            "public-api: the public surface changed (%d added, %d removed); if that is meant, "
            "run `python3 scripts/public-api.py bless` and commit tests/public-api.txt" % (len(added), len(removed))
        )
    print("public-api: %d public items, as listed" % len(now))


if __name__ == "__main__":
    main()
