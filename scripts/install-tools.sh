#!/usr/bin/env bash
# Installs what the build and the test suite need beyond the Rust toolchain:
#   coinor-libcbc-dev - CBC's library (libCbcSolver, with its pkg-config file), linked by
#                       `sokuc-cbc`, the `mip` backend's helper program (feature `mip`)
#   libclang-dev      - bindgen, used by rustsat-cadical to build CaDiCaL (`cadical` feature)
#   cmake             - builds HiGHS from the source the highs-sys crate carries (`highs`
#                       feature: the `sokuc-highs` helper)
#   cadical           - reads sokuc's DIMACS output (round-trip test)
#   coinor-cbc        - reads the LP and MPS exports
#   minisat+          - reads the OPB export
#   minizinc          - reads the MiniZinc export (with its bundled Gecode)
#   parallel          - GNU parallel, runs sweep shards in the sharding test
#   librsvg2-bin      - rsvg-convert, rasterises sokuc's SVG nets in the picture test
#   nodejs            - Node's test runner, for the page's unit tests (`node --test web/tests/`)
#   chromium, chromium-driver, selenium (PyPI)
#                     - headless Chromium driven by Selenium for the page of `sokuc serve`
#                       (tests/browser/run.py; Selenium uses /usr/bin/chromedriver, never a download)
#   highspy (PyPI)    - HiGHS, reads the LP and MPS exports (Debian 12 has no HiGHS package)
#   exact (PyPI)      - Exact, a cutting-planes PB solver: a peer in scripts/pb-peers.py
#   ortools (PyPI)    - OR-Tools' CP-SAT: a peer in scripts/pb-peers.py (pb-table.py compares)
#   pyganak (PyPI)    - Ganak, an exact projected model counter: cross-checks `sokuc count`
#                       on CNFs emitted with their projection (`c p show`)
#   drat-trim         - checks DRAT proofs; built from the pumpkin-solver crate's copy
#                       (scripts/build-drat-trim.sh, into target/tools/drat-trim)
#   mdbook (crates.io) - builds the user guide in docs/ (scripts/test.sh runs `mdbook build
#                       docs`); compiled by `cargo install` when not on PATH, which took
#                       about 6.5 minutes on 2 busy cores (serve and watch left out)
# Idempotent: does nothing when everything is present.
#
# Two parts, for a machine that only builds:
#   install-tools.sh build   what compiling every feature needs (CBC's library, libclang, cmake)
#   install-tools.sh tests   the rest: the tools the tests run, and mdbook
#   install-tools.sh         both
# scripts/test.sh runs `build` first, then `tests` in the background at idle priority while
# it compiles, and waits for it before the first step that runs a tool.
set -euo pipefail
cd "$(dirname "$0")/.."
part="${1:-all}"
case "$part" in
  build | tests | all) ;;
  *) echo "install-tools: unknown part '$part' (build, tests or nothing for both)" >&2; exit 2 ;;
esac

# Debian packages, by the part that needs them; installed with one apt-get call per part.
apt_install() {
  [ $# -eq 0 ] && return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo="sudo"
    else
      echo "install-tools: need root (or sudo) to apt-get install: $*" >&2
      exit 1
    fi
  fi
  echo "install-tools: installing $*" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

pip_install() {
  local module="$1" spec="$2"
  python3 -c "import $module" >/dev/null 2>&1 && return 0
  echo "install-tools: installing $spec from PyPI" >&2
  python3 -m pip install -q --disable-pip-version-check "$spec" ||
    python3 -m pip install -q --disable-pip-version-check --user "$spec"
}

if [ "$part" != tests ]; then
  need=()
  dpkg -s coinor-libcbc-dev >/dev/null 2>&1 || need+=(coinor-libcbc-dev)
  dpkg -s libclang-dev >/dev/null 2>&1 || need+=(libclang-dev)
  command -v cmake >/dev/null 2>&1 || need+=(cmake)
  apt_install "${need[@]+"${need[@]}"}"
fi

if [ "$part" != build ]; then
  need=()
  command -v cadical >/dev/null 2>&1 || need+=(cadical)
  command -v cbc >/dev/null 2>&1 || need+=(coinor-cbc)
  command -v minisat+ >/dev/null 2>&1 || need+=(minisat+)
  command -v minizinc >/dev/null 2>&1 || need+=(minizinc)
  command -v parallel >/dev/null 2>&1 || need+=(parallel)
  command -v rsvg-convert >/dev/null 2>&1 || need+=(librsvg2-bin)
  command -v node >/dev/null 2>&1 || need+=(nodejs)
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  [ -x /usr/bin/chromedriver ] || need+=(chromium-driver)
  apt_install "${need[@]+"${need[@]}"}"

  pip_install highspy highspy==1.15.1
  pip_install exact exact==2.2.1
  pip_install ortools ortools==9.15.6755
  pip_install pyganak pyganak==2.8.0
  pip_install selenium selenium==4.51.0

  bash scripts/build-drat-trim.sh

  MDBOOK_VERSION=0.5.4
  if ! command -v mdbook >/dev/null 2>&1; then
    echo "install-tools: installing mdbook $MDBOOK_VERSION from crates.io" >&2
    # Without optimisation: it builds this guide in well under a second either way, and
    # compiles in about half the time (the book is small; mdbook's speed is not tested).
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_DEBUG=false \
      cargo install mdbook --locked --version "$MDBOOK_VERSION" --no-default-features --features search
  fi
fi
