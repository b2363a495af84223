#!/usr/bin/env bash
# The whole test suite, as CI runs it: install the external tools the tests use, check
# formatting and lints, then run every test including those that need external tools
# (they are #[ignore]d in a plain `cargo test` and say what they need).
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
cargo clippy --release --all-targets --all-features -- -D warnings
sokuc_dev_null
cargo test --release --all-features -- --include-ignored
# The default build (no native solvers) is what `cargo run --release` gives; its messages for
# backends that are not compiled in are tested there.
sokuc_dev_null
cargo test --release --test usage_errors
