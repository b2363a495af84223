#!/usr/bin/env bash
# Builds drat-trim (Heule et al.'s DRAT checker, one C file, MIT licence) into
# target/tools/drat-trim from the copy that the pumpkin-solver crate ships in its tests.
# The crate is a dependency, so `cargo fetch` brings its source from crates.io; nothing
# else is downloaded. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/tools/drat-trim
[ -x "$out" ] && exit 0
cargo fetch --quiet
manifest=$(cargo metadata --format-version 1 --locked | python3 -c '
import json, sys
m = json.load(sys.stdin)
print(next(p["manifest_path"] for p in m["packages"] if p["name"] == "pumpkin-solver"))')
src="$(dirname "$manifest")/tests/cnf/checkers/drat-trim.c"
[ -f "$src" ] || { echo "build-drat-trim: $src is missing" >&2; exit 1; }
mkdir -p target/tools
cc -O2 -w -o "$out.tmp" "$src"
mv "$out.tmp" "$out"
echo "build-drat-trim: built $out" >&2
