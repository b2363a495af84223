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
set -euo pipefail

need=()
command -v cadical >/dev/null 2>&1 || need+=(cadical)
dpkg -s coinor-libcbc-dev >/dev/null 2>&1 || need+=(coinor-libcbc-dev)
dpkg -s libclang-dev >/dev/null 2>&1 || need+=(libclang-dev)
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v cbc >/dev/null 2>&1 || need+=(coinor-cbc)
command -v minisat+ >/dev/null 2>&1 || need+=(minisat+)
command -v minizinc >/dev/null 2>&1 || need+=(minizinc)
command -v parallel >/dev/null 2>&1 || need+=(parallel)
command -v rsvg-convert >/dev/null 2>&1 || need+=(librsvg2-bin)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -x /usr/bin/chromedriver ] || need+=(chromium-driver)

if ! python3 -c "import highspy" >/dev/null 2>&1; then
  echo "install-tools: installing highspy from PyPI" >&2
  python3 -m pip install -q --disable-pip-version-check highspy==1.15.1 ||
    python3 -m pip install -q --disable-pip-version-check --user highspy==1.15.1
fi

if ! python3 -c "import exact" >/dev/null 2>&1; then
  echo "install-tools: installing exact from PyPI" >&2
  python3 -m pip install -q --disable-pip-version-check exact==2.2.1 ||
    python3 -m pip install -q --disable-pip-version-check --user exact==2.2.1
fi

if ! python3 -c "import ortools" >/dev/null 2>&1; then
  echo "install-tools: installing ortools from PyPI" >&2
  python3 -m pip install -q --disable-pip-version-check ortools==9.15.6755 ||
    python3 -m pip install -q --disable-pip-version-check --user ortools==9.15.6755
fi

if ! python3 -c "import pyganak" >/dev/null 2>&1; then
  echo "install-tools: installing pyganak from PyPI" >&2
  python3 -m pip install -q --disable-pip-version-check pyganak==2.8.0 ||
    python3 -m pip install -q --disable-pip-version-check --user pyganak==2.8.0
fi

if ! python3 -c "import selenium" >/dev/null 2>&1; then
  echo "install-tools: installing selenium from PyPI" >&2
  python3 -m pip install -q --disable-pip-version-check selenium==4.51.0 ||
    python3 -m pip install -q --disable-pip-version-check --user selenium==4.51.0
fi

bash "$(dirname "$0")/build-drat-trim.sh"

MDBOOK_VERSION=0.5.4
if ! command -v mdbook >/dev/null 2>&1; then
  echo "install-tools: installing mdbook $MDBOOK_VERSION from crates.io" >&2
  cargo install mdbook --locked --version "$MDBOOK_VERSION" --no-default-features --features search
fi

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "install-tools: need root (or sudo) to apt-get install: ${need[*]}" >&2
  exit 1
fi
echo "install-tools: installing ${need[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
