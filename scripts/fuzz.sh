#!/usr/bin/env bash
# Runs every cargo-fuzz target for SECONDS each (default 60), starting from the seed inputs
# in fuzz/seeds/<target>/ plus the growing corpus in fuzz/corpus/<target>/ (not committed).
# Needs cargo-fuzz (`cargo install cargo-fuzz`); the targets need nightly-only flags, which
# RUSTC_BOOTSTRAP=1 allows on the stable toolchain. No sanitizer: the code is safe Rust, and
# what the fuzzer hunts is panics (libFuzzer turns each into a crash file under
# fuzz/artifacts/<target>/). Copy a crash into tests/fuzz-regressions/<target>/ after fixing it.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
export RUSTC_BOOTSTRAP=1
# Every file in fuzz/fuzz_targets is a target: the list comes from the directory so that a new
# target cannot be left out. Each must also be a [[bin]] of fuzz/Cargo.toml (cargo fuzz builds
# only those), which is checked here rather than found missing after the build.
targets=()
for f in fuzz/fuzz_targets/*.rs; do
    t=$(basename "$f" .rs)
    grep -qx "path = \"fuzz_targets/$t.rs\"" fuzz/Cargo.toml ||
        { echo "fuzz.sh: $f is not a [[bin]] in fuzz/Cargo.toml" >&2; exit 1; }
    targets+=("$t")
done
cargo fuzz build -O --sanitizer none
for t in "${targets[@]}"; do
    mkdir -p "fuzz/corpus/$t" "fuzz/seeds/$t"
    echo "== $t ($secs s)"
    cargo fuzz run -O --sanitizer none "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
        -max_total_time="$secs" -max_len=4096 -print_final_stats=1 2>&1 |
        grep -E "stat::number_of_executed_units|stat::peak_rss|Done|ERROR|panicked|SUMMARY|crash-" || true
done
