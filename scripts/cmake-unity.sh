#!/bin/sh
# cmake, with unity builds on: .cargo/config.toml names this script as `CMAKE`, which the
# cmake crate runs in place of cmake. Only highs-sys builds with cmake here (HiGHS, for the
# `highs` feature's helper). A unity build compiles HiGHS's sources in batches of eight, one
# translation unit each, so the headers every file includes (the standard library's, HiGHS's
# own) are parsed an eighth as often. Measured on a 2-core machine (HiGHS 1.16.0, highs-sys's
# settings, one job each, both builds side by side): 422 CPU-seconds against 922 for the
# file-by-file build, at the same optimisation (cmake's Release, -O3) and from the same
# sources, so the solver is the same code compiled in larger pieces.
# Only the configure step gets the flag; `cmake --build`, `--version` and the rest pass through.
case "${1:-}" in
    --build | --install | --version | -E | -P | --help) exec cmake "$@" ;;
esac
exec cmake "$@" -DCMAKE_UNITY_BUILD=ON
