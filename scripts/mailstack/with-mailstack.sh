#!/usr/bin/env bash
# scripts/mailstack/with-mailstack.sh - run a command against a fresh private mail stack
# (scripts/test.sh is the test command; this is for running anything else against one).
#
# usage: with-mailstack.sh COMMAND [ARGS...]      e.g.  with-mailstack.sh cargo test
#
# Starts the stack in a new directory (MAILSTACK_DIR if set, else a mktemp dir
# under /tmp), exports the MAILSTACK_* variables (see README.md), runs COMMAND,
# prints the tails of the mail logs if COMMAND failed, stops the stack, removes
# the directory (unless MAILSTACK_KEEP=1) and exits with COMMAND's status.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
[ $# -gt 0 ] || { sed -n '2,10p' "$0"; exit 2; }
DIR="${MAILSTACK_DIR:-$(mktemp -d /tmp/mailstack.XXXXXX)}"
if ! bash "$HERE/up.sh" "$DIR" >/dev/null; then
  echo "mailstack: up.sh failed" >&2
  [ -n "${MAILSTACK_DIR:-}" ] || bash "$HERE/down.sh" "$DIR" --purge
  exit 1
fi
set -a; . "$DIR/mailstack.env"; set +a
"$@"
rc=$?
if [ "$rc" != 0 ]; then
  for f in "$DIR/log/postfix.log" "$DIR/log/dovecot.log"; do
    echo "----- last lines of $f" >&2; tail -n 40 "$f" >&2 2>/dev/null
  done
fi
if [ "${MAILSTACK_KEEP:-0}" = 1 ]; then
  bash "$HERE/down.sh" "$DIR"; echo "mailstack: kept $DIR" >&2
else
  bash "$HERE/down.sh" "$DIR" --purge
fi
exit "$rc"
