#!/usr/bin/env bash
# The whole test suite, as CI runs it: install the external tools the tests use, check
# formatting and lints, then run every test including those that need external tools
# (they are #[ignore]d in a plain `cargo test` and say what they need).
set -euo pipefail
# See .ci/run: rustc must never read a runner's stdin.
exec </dev/null
cd "$(dirname "$0")/.."

bash scripts/install-tools.sh
cargo fmt --check
cargo clippy --release --all-targets --all-features -- -D warnings
cargo test --release --all-features -- --include-ignored
# The default build (no native solvers) is what `cargo run --release` gives; its messages for
# backends that are not compiled in are tested there.
cargo test --release --test usage_errors
