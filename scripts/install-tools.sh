#!/usr/bin/env bash
# Installs the external tools the test suite runs against real programs:
#   cadical  - reads sokuc's DIMACS output (round-trip test)
# Idempotent: does nothing when everything is present.
set -euo pipefail

need=()
command -v cadical >/dev/null 2>&1 || need+=(cadical)

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
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
