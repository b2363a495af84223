#!/usr/bin/env bash
# Builds drat-trim (Heule et al.'s DRAT checker, one C file, MIT licence) into
# target/tools/drat-trim from vendor/drat-trim/ (drat-trim.c and its two headers, as pumpkin-solver 0.5.0
# ships in its tests; THIRD-PARTY.md). Nothing is downloaded. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/tools/drat-trim
[ -x "$out" ] && exit 0
mkdir -p target/tools
cc -O2 -w -o "$out.tmp" vendor/drat-trim/drat-trim.c
mv "$out.tmp" "$out"
echo "build-drat-trim: built $out" >&2
