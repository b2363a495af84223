#!/usr/bin/env bash
# Makes sure /dev/null is the null device. Sourced by .ci/run and scripts/test.sh; safe to run
# by hand.
#
# Why: some container images start with /dev/null as an ordinary file. Output that programs
# "discard" then lands in that file, and whatever reads /dev/null reads it back. cargo runs
# rustc's target probe (`rustc - --print=cfg ...`) with stdin from /dev/null, so rustc compiled
# earlier build-script chatter as if it were Rust (CI runs of af204ee and 6c96a66, exit 101:
# "failed to run `rustc` to learn about target-specific information"). Closing stdin did not
# help: cargo reopens /dev/null itself.
#
# When we may (root, CAP_MKNOD) we put the real device back, atomically by rename. Otherwise we
# empty the file; callers call `sokuc_dev_null` again before each cargo step so a probe never
# reads what the previous step discarded.
sokuc_dev_null() {
  [ -c /dev/null ] && return 0
  local tmp="/dev/.null.sokuc.$$"
  if mknod -m 666 "$tmp" c 1 3 2>/dev/null && mv -f "$tmp" /dev/null 2>/dev/null && [ -c /dev/null ]; then
    echo "dev-null: /dev/null was an ordinary file; replaced it with the null device (1,3)" >&2
  else
    rm -f "$tmp" 2>/dev/null || true
    : >/dev/null
    echo "dev-null: warning: /dev/null is an ordinary file and cannot be replaced; emptied it" >&2
  fi
}
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  sokuc_dev_null
fi
