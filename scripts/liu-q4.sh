#!/usr/bin/env bash
# Liu's open questions Q4/Q5: does a set of 20 distinct triangle types (out of the 24 over
# 0..3) solve *every* peg arrangement on the icosahedron, like the real IcoSoKu tile set?
#
# Only the 8 subsets whose weights add up to 78 can (`sokuc adts --subsets`). Each is swept
# as a plain 3SoKu sweep with the subset as the tile set: every canonical arrangement is
# solved, the answer decoded and verified, and the record written; an unsat record would be
# the counterexample. c5 and c6 are the mirror images of c3 and c4 (132 in place of 123), and
# a set solves every arrangement exactly when its mirror image does (reflect the arrangement,
# solve, reflect the answer back), so they are implied; they are swept anyway as a check.
#
# Usage: scripts/liu-q4.sh [OUTDIR]   (default q4-sweeps; rerun to resume after a stop)
# CANDIDATES="c3 c5" picks some; extra sweep options (e.g. --threads 1) go in SWEEP_OPTS.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-q4-sweeps}
mkdir -p "$out"
sokuc=${SOKUC:-target/release/sokuc}
[ -x "$sokuc" ] || cargo build --release --quiet
all=(000 001 002 003 011 012 013 021 022 023 031 032 033 111 112 113 122 123 132 133 222 223 233 333)
tiles_without() { # the 20 types left after removing the four given ones, as a --tiles list
    local t keep=() list
    for t in "${all[@]}"; do
        case " $* " in *" $t "*) ;; *) keep+=("${t:0:1},${t:1:1},${t:2:1}") ;; esac
    done
    list=$(IFS=';'; echo "${keep[*]}")
    echo "$list"
}
# name: the four types left out. Mirror pairs: c3/c5 and c4/c6 (123 <-> 132).
declare -A cands=(
    [c1]="033 133 233 333" [c2]="033 223 233 333" [c3]="123 133 233 333" [c4]="123 223 233 333"
    [c5]="132 133 233 333" [c6]="132 223 233 333" [c7]="133 222 233 333" [c8]="222 223 233 333"
)
for c in ${CANDIDATES:-c1 c2 c7 c8 c3 c4 c5 c6}; do
    [ -n "${cands[$c]:-}" ] || { echo "unknown candidate $c (c1..c8)" >&2; exit 2; }
    f="$out/$c.txt"
    resume=()
    [ -e "$f" ] && resume=(--resume)
    echo "== $c: without ${cands[$c]}"
    # shellcheck disable=SC2086
    "$sokuc" sweep icosahedron --tiles "$(tiles_without ${cands[$c]})" -o "$f" "${resume[@]}" \
        --progress off ${SWEEP_OPTS:-} | tee "$out/$c.summary"
done
