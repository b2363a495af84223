#!/usr/bin/env bash
# The whole test suite, as CI runs it: install the external tools the tests use, check
# formatting and lints, build the user guide, then run the tests with overflow checks and
# debug assertions on (the `ci` profile in Cargo.toml: release speed, checked arithmetic):
#   1. on the default build (no native solvers), which is what `cargo install` gives, the
#      tests of what the features change (see below);
#   2. on every feature, every test, including those that need external tools (they are
#      #[ignore]d in a plain `cargo test` and say what they need).
# An arithmetic overflow anywhere in the library is then a failing test, not a wrapped number.
set -euo pipefail
cd "$(dirname "$0")/.."
# cargo's rustc probe reads /dev/null: it must be the null device, or at least empty before
# every cargo step (scripts/dev-null.sh says why).
source scripts/dev-null.sh
sokuc_dev_null
exec </dev/null

# Each phase's wall time on standard error at its end, so that a CI log shows where the time
# goes (the phase table of a run is read off these lines).
phase_start=$SECONDS
phase() {
    echo "test.sh: phase '$1' took $((SECONDS - phase_start)) s (total $SECONDS s)" >&2
    phase_start=$SECONDS
}

# What compiling needs first, and drat-trim (one C file: the guide's `certify` commands in
# the default pass run it); the other tools the tests run (Debian's packages, the wheels,
# mdbook's compile) then install beside clippy, the documentation and the default pass, at
# the idle scheduling class (SCHED_IDLE): they get a core only while the build leaves it idle
# (one crate's front end, a link, a build script waiting), so they take no time from it.
# Installed beside clippy at the normal priority, they had competed with HiGHS's compile and
# made clippy 305 s slower on a fresh clone. Where /dev/null cannot be made the null device,
# two processes writing and reading it at once could meet (scripts/dev-null.sh), so
# everything installs first there.
bash scripts/install-tools.sh build
bash scripts/build-drat-trim.sh
phase "install-tools: build"
mkdir -p target
tools_pid=""
if [ -c /dev/null ] && command -v chrt >/dev/null 2>&1; then
    chrt --idle 0 bash scripts/install-tools.sh tests >target/install-tools.log 2>&1 </dev/null &
    tools_pid=$!
else
    bash scripts/install-tools.sh tests
    phase "install-tools: tests"
fi
# Waits for the background install, shows its log, and fails the run if it failed.
tools_ready() {
    [ -n "$tools_pid" ] || return 0
    local rc=0
    wait "$tools_pid" || rc=$?
    tools_pid=""
    sed 's/^/install-tools (background): /' target/install-tools.log >&2
    if [ "$rc" -ne 0 ]; then
        echo "test.sh: installing the test tools failed (exit $rc)" >&2
        exit "$rc"
    fi
    phase "install-tools: tests (waited for)"
}
sokuc_dev_null
cargo fmt --check
phase fmt
sokuc_dev_null
# Clippy, the documentation and the tests all use the `ci` profile: the C++ solvers (HiGHS,
# CaDiCaL) are then compiled once, by the first of them, and their build scripts' output is
# shared by the rest (in three profiles, as before, each compiled them again: ten minutes
# apiece on two cores).
cargo clippy --profile ci --all-targets --all-features -- -D warnings
# The crates and the command as `cargo install` builds them: default features, and so
# without `testing` (which the tests' dev-dependencies turn on in every build that has a test
# in it, the pass above included). Here sokuc's internal modules are private, so the command
# must reach the library through its public surface alone, and code that only the tests use
# is dead and fails the lint.
sokuc_dev_null
cargo clippy --profile ci -p sokuc-core -p sokuc-compile -p sokuc-mip-wire -p sokuc-engines -p sokuc-puzzles -p sokuc -p sokuc-cli --lib --bins -- -D warnings
phase clippy
# Every crate's documentation: no broken or private links, every public item documented.
sokuc_dev_null
# Every feature but `testing`, whose internal modules are no part of the documented surface.
RUSTDOCFLAGS="-D warnings" cargo doc --profile ci --no-deps --features mip,highs,cadical
# Each crate's public surface, read off those pages, is its committed list
# (tests/public-api/): it changes only on purpose (scripts/public-api.py says how to bless
# a change).
python3 scripts/public-api.py check
phase doc
# The crates can be published: every crate of the workspace and the varisat fork
# (vendor/varisat, the package sokuc-varisat) are packaged together, so the manifests, the
# fork's name and the files each ships are checked. Without --no-verify, cargo would also build the
# packages as a user gets them, from nothing at the dev profile: 3 minutes of both cores for
# what the default pass builds again below; it passed when the fork got its name (see
# vendor/varisat/SOKUC-PATCH.md). The tests and the benchmark are not shipped, and cargo
# names each one it leaves out: those lines are expected and not shown.
sokuc_dev_null
cargo package -p sokuc-varisat -p sokuc-core -p sokuc-compile -p sokuc-mip-wire -p sokuc-engines -p sokuc-puzzles -p sokuc -p sokuc-cli --no-verify --allow-dirty 2>&1 |
    sed -E '/^warning: ignoring (test|benchmark) .* is not included in the published package$/d' >&2
phase package
# Both passes run to the end whatever the first finds, so one CI run shows every failure of
# both builds; the script fails if either did.
failed=0
# The default pass. What the features change is the set of backends compiled in
# (crates/engines/src/registry.rs and engines.rs; besides them, cfg(feature) only leaves out
# the native backends' own modules and ignores their unit tests), and what follows from it:
# the message for a backend that is not there, what `auto` picks, races and stages an
# objective for without HiGHS, CBC and CaDiCaL (crates/engines/src/portfolio/), and every printed
# list of backends (`--help`, `compare`'s default, the page's /api/info, docs/src/cli.md, the
# guide's commands). The tests of those have `this_build` or `default_build` in their names
# (and src/main.rs has the help test): they run here. Everything else (encoders, presolve, the
# verifier, the engines sat, cp, mitm and search, the library's unit and doc tests) is the
# same code in both builds and runs in the second pass, where every test over the backends of
# the build runs those engines too. A plain `cargo test` still runs it all on a default build.
# These tests are about lists and choices, not speed (6 s at full optimisation, 14 s
# unoptimised), so sokuc's own crates are compiled here without optimisation, in a third of
# opt-level 3's time (warm: 30 s for the pass, against 62 s at opt-level 1); its dependencies
# are the ones the other phases built, unchanged.
sokuc_dev_null
cargo test --profile ci --no-fail-fast \
    --config 'profile.ci.package.sokuc.opt-level=0' --config 'profile.ci.package.sokuc-cli.opt-level=0' \
    --config 'profile.ci.package.sokuc-engines.opt-level=0' --config 'profile.ci.package.sokuc-puzzles.opt-level=0' \
    --config 'profile.ci.package.sokuc-compile.opt-level=0' --config 'profile.ci.package.sokuc-core.opt-level=0' --bin sokuc --test auto_backend --test backends --test docs --test facade_run \
    --test golden --test pb_files --test serve --test usage_errors --test wide_objective \
    -- this_build default_build every_option_has_help || failed=1
phase "default build: compile and test"
# Everything after this runs the tools installed in the background (mdbook, Node, Chromium, ...).
tools_ready
# The user guide (docs/, an mdBook) must build; it is written to target/book, not committed.
# tests/docs.rs runs its commands and checks its links.
mdbook build docs
phase mdbook
# The page's pure modules (web/modules: rotation, the link, parsing, the TOML it writes, ...)
# under Node's own test runner; the browser test (tests/browser.rs) runs the page as a whole.
node --test web/tests/ || failed=1
phase "page unit tests (node)"
# The second pass: every test on every feature, in one pool of two for all test binaries
# (cargo-nextest, with tests/nextest.toml: the slowest first, the two-thread ones alone),
# where `cargo test` ran the binaries one after another and left a core idle behind each
# binary's last long test; the doc tests, which nextest does not run, by `cargo test --doc`.
sokuc_dev_null
if cargo nextest --version >/dev/null 2>&1; then
    cargo nextest run --cargo-profile ci --all-features --run-ignored all --no-fail-fast \
        --config-file tests/nextest.toml || failed=1
    phase "all features: compile and test (nextest)"
    sokuc_dev_null
    cargo test --profile ci --all-features --doc || failed=1
    phase "all features: doc tests"
else
    echo "scripts/test.sh: cargo-nextest is not installed; running the second pass with cargo test" >&2
    cargo test --profile ci --all-features --no-fail-fast -- --include-ignored || failed=1
    phase "all features: compile and test"
fi
exit "$failed"
