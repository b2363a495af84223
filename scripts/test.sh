#!/usr/bin/env bash
# The whole test suite, as CI runs it: install the external tools the tests use, check
# formatting and lints, build the user guide, then run the tests with overflow checks and
# debug assertions on (the `ci` profile in Cargo.toml: release speed, checked arithmetic):
#   1. the default build (no native solvers), which is what `cargo install` gives, over what
#      differs by feature (see DEFAULT_PASS below);
#   2. every feature, the whole suite, including the tests that need external tools (they are
#      #[ignore]d in a plain `cargo test` and say what they need).
# An arithmetic overflow anywhere in the library is then a failing test, not a wrapped number.
set -euo pipefail
cd "$(dirname "$0")/.."
# cargo's rustc probe reads /dev/null: it must be the null device, or at least empty before
# every cargo step (scripts/dev-null.sh says why).
source scripts/dev-null.sh
sokuc_dev_null
exec </dev/null

bash scripts/install-tools.sh
sokuc_dev_null
cargo fmt --check
sokuc_dev_null
# Clippy, the documentation and the tests all use the `ci` profile: the C++ solvers (HiGHS,
# CaDiCaL) are then compiled once, by the first of them, and their build scripts' output is
# shared by the rest (in three profiles, as before, each compiled them again: ten minutes
# apiece on two cores).
cargo clippy --profile ci --all-targets --all-features -- -D warnings
# The library's documentation: no broken or private links, every public item documented.
sokuc_dev_null
RUSTDOCFLAGS="-D warnings" cargo doc --profile ci --no-deps --all-features
# The user guide (docs/, an mdBook) must build; it is written to target/book, not committed.
# tests/docs.rs runs its commands and checks its links.
mdbook build docs
# Both suites run to the end (--no-fail-fast) whatever the first finds, so one CI run shows
# every failure of both builds; the script fails if either did.
failed=0
# What a build without features does differently is which engines exist: the library's only
# feature-gated code is the engines' registration (src/backend/{engines,registry}.rs,
# sat/mod.rs, mip/mod.rs), and everything that asks the registry: `auto`'s field and its
# second opinion, `compare`'s list, the messages for a backend that is not compiled in, and
# the goldens, schema and docs that show them. The default pass runs the tests of exactly
# those (and the unit tests and doc-tests, which hold cfg'd cases of their own); every other
# test runs the same code in both builds and runs once, in the all-features pass. A plain
# `cargo test` still runs (and passes) the whole suite on the default build.
DEFAULT_PASS=(
  --lib --bins
  --test auto_backend --test backends --test certify --test cli --test compare --test docs
  --test enumerate --test golden --test highs_backend --test limits --test mip_cardinality
  --test mip_limits --test optimise --test pb_presolve --test schema --test strict
  --test usage_errors --test wide_objective
)
sokuc_dev_null
cargo test --profile ci --no-fail-fast "${DEFAULT_PASS[@]}" || failed=1
sokuc_dev_null
cargo test --profile ci --no-fail-fast --doc || failed=1
sokuc_dev_null
cargo test --profile ci --all-features --no-fail-fast -- --include-ignored || failed=1
exit "$failed"
