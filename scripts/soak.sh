#!/usr/bin/env bash
# The soak (issue 13, README "Soak"): the real `zaochka run` on a private Postfix + Dovecot,
# 5,000 letters, the daemon SIGKILLed at 50 random moments, Postfix stopped for a while,
# Dovecot restarted once; then every letter is checked judged exactly once and every answer
# found in its recipient's IMAP mailbox (duplicates counted). Not part of scripts/test.sh
# (it takes minutes); run it by hand:
#
# usage: bash scripts/soak.sh [--letters N] [--kills K] [--players P] [--seed S] [--outage SECS]
#        (defaults 5000, 50, 20, 1, 45)
#
# Needs root (or sudo) like the tests' mail stack. SOAK_KEEP=1 keeps the stack and the work
# folder (the database and the daemon's log); on a failure the work folder is always kept.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "soak.sh: $*" >&2; }
[ "$(id -u)" = 0 ] || { say "ERROR: must run as root (it starts and stops Postfix and Dovecot)"; exit 1; }

players=20
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  [ "${args[$i]}" = --players ] && players="${args[$((i + 1))]}"
done
extra=""
for ((i = 0; i < players; i++)); do
  printf -v u 'p%02d@players.soak:p%02dpass' "$i" "$i"
  extra="$extra $u"
done

nice -n 19 cargo build --release --locked --bin zaochka --example soak

DIR="$(mktemp -d /tmp/zaochka-soak.XXXXXX)"
chmod 755 "$DIR"   # the mail daemons drop privileges and must reach the stack under it
STACK="$DIR/stack"
rc=1
cleanup() {
  trap - EXIT INT TERM
  bash scripts/mailstack/down.sh "$STACK" >/dev/null 2>&1 || true
  if [ "${SOAK_KEEP:-0}" = 1 ] || [ "$rc" != 0 ]; then
    say "kept $DIR (work/zaochka.sqlite, work/daemon.log)"
  else
    rm -rf "$DIR"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
base_free() { for o in 25 143 465 587 993; do port_busy $(($1 + o)) && return 1; done; return 0; }
started=0
for base in 35000 36000 37000 38000 39000; do
  base_free "$base" || continue
  if env -u MAILSTACK_DIR -u MAILSTACK_LOCKED MAILSTACK_PORT_BASE="$base" MAILSTACK_QUIET=1 \
    MAILSTACK_EXTRA_USERS="$extra" bash scripts/mailstack/up.sh "$STACK" >/dev/null; then
    started=1; break
  fi
done
[ "$started" = 1 ] || { say "ERROR: could not start the mail stack"; exit 1; }
set -a
# shellcheck disable=SC1091
. "$STACK/mailstack.env"
set +a

rc=0
SOAK_DIR="$DIR/work" ZAOCHKA_BIN=target/release/zaochka \
  target/release/examples/soak "$@" || rc=$?
exit "$rc"
