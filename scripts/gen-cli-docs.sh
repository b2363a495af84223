#!/usr/bin/env bash
# Regenerates the documentation files that come from the binary itself:
#   docs/src/cli.md           - every command's --help text (from a default build)
#   docs/src/img/vertices.svg - the icosahedron's vertex names (`sokuc render --labels`)
# tests/docs.rs compares both with what the binary prints and fails when they differ.
set -euo pipefail
cd "$(dirname "$0")/.."
SOKUC_UPDATE_DOCS=1 cargo test --profile ci --test docs -- the_cli_reference_is_current the_vertex_map_is_current
