#!/usr/bin/env bash
# scripts/mailstack/down.sh - stop the mail stack that up.sh started in DIR.
#
# usage: down.sh [DIR] [--purge]      (or MAILSTACK_DIR=DIR down.sh)
#
# Stops exactly the two master daemons whose pid files are under DIR
# (DIR/run/dovecot/master.pid, DIR/spool/pid/master.pid), after checking that
# each pid really is that daemon started for DIR, and the OpenDKIM milter
# (DIR/opendkim/opendkim.pid, started with -x DIR/opendkim/opendkim.conf). Both get SIGTERM at once and
# take their children with them (about 2 s). Anything left in their sessions
# after 10 s gets SIGKILL. --purge also deletes DIR. Safe to run when nothing
# is running; exit status 0 unless a daemon could not be stopped.
set -uo pipefail

DIR="" PURGE=0
for a in "$@"; do
  case "$a" in
    --purge) PURGE=1 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) DIR="$a" ;;
  esac
done
DIR="${DIR:-${MAILSTACK_DIR:-}}"
[ -n "$DIR" ] || { echo "usage: $0 DIR [--purge]" >&2; exit 2; }
if [ ! -d "$DIR" ]; then echo "mailstack: $DIR does not exist, nothing to stop" >&2; exit 0; fi
DIR="$(cd "$DIR" && pwd -P)"
if [ -z "${MAILSTACK_LOCKED:-}" ]; then   # up.sh holds the lock when it calls us
  exec 9>"$DIR/.mailstack.lock"
  flock -w 180 9 || { echo "mailstack: timed out waiting for the lock on $DIR" >&2; exit 1; }
fi

# pids of all processes in session $1 (the masters call setsid(), so sid == master pid)
session_pids() { ps -eo pid=,sid= | awk -v s="$1" '$2 == s { printf " %s", $1 }'; }

# verify NAME PIDFILE EXE MARKER -> prints the pid if it is our daemon
verify() {
  local name="$1" pidfile="$2" exe="$3" marker="$4" pid cmd
  [ -f "$pidfile" ] || return 0
  pid="$(tr -d ' \n' < "$pidfile")"
  if ! [[ "$pid" =~ ^[0-9]+$ ]] || ! kill -0 "$pid" 2>/dev/null; then
    rm -f "$pidfile"; return 0            # stale pid file
  fi
  cmd="$(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null)"
  if [[ "$(basename "$(readlink "/proc/$pid/exe" 2>/dev/null)")" != "$exe" ]]; then
    echo "mailstack: pid $pid in $pidfile is not $exe ($cmd); stale, not touching it" >&2
    rm -f "$pidfile"; return 0
  fi
  # Dovecot's cmdline is "dovecot -c DIR/dovecot/dovecot.conf";
  # Postfix's master has MAIL_CONFIG=DIR/postfix in its environment.
  if [[ "$cmd" != *"$marker"* ]] && ! tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qxF "MAIL_CONFIG=$marker"; then
    echo "mailstack: $name pid $pid ($cmd) was not started for $DIR; not touching it" >&2
    return 0
  fi
  echo "$pid"
}

D="$(verify dovecot "$DIR/run/dovecot/master.pid" dovecot "$DIR/dovecot/dovecot.conf")"
P="$(verify postfix "$DIR/spool/pid/master.pid" master "$DIR/postfix")"
MASTERS="$D $P"
MASTERS="$(echo $MASTERS)"
if [ -z "$MASTERS" ]; then
  echo "mailstack: nothing running in $DIR" >&2
else
  t0=$(date +%s%N)
  kill -TERM $MASTERS 2>/dev/null
  rc=0
  termed=""
  for _ in $(seq 1 200); do                # 10 s
    alive=""
    for m in $MASTERS; do
      left="$(session_pids "$m")"
      [ -n "$left" ] || continue
      alive="$alive $m"
      # Once a master is gone, what is left of its session gets SIGTERM once: an IMAP
      # process with a client still connected otherwise lingers for about 10 s.
      if ! kill -0 "$m" 2>/dev/null && [[ " $termed " != *" $m "* ]]; then
        kill -TERM $left 2>/dev/null; termed="$termed $m"
      fi
    done
    [ -z "$alive" ] && break
    sleep 0.05
  done
  for m in $alive; do
    left="$(session_pids "$m")"
    [ -n "$left" ] || continue
    echo "mailstack: session $m still has processes after 10 s:$left; SIGKILL" >&2
    kill -KILL $left 2>/dev/null; sleep 0.2
    [ -z "$(session_pids "$m")" ] || rc=1
  done
  rm -f "$DIR/run/dovecot/master.pid"
  echo "mailstack: stopped${D:+ dovecot (pid $D)}${P:+ postfix (pid $P)} in $(( ($(date +%s%N) - t0) / 1000000 )) ms" >&2
  [ "$rc" = 0 ] || { echo "mailstack: ERROR: could not stop everything" >&2; exit 1; }
fi

# OpenDKIM last: it waits for the milter connections Postfix keeps open.
K="$(verify opendkim "$DIR/opendkim/opendkim.pid" opendkim "$DIR/opendkim/opendkim.conf")"
if [ -n "$K" ]; then
  kill -TERM "$K" 2>/dev/null
  for _ in $(seq 1 100); do kill -0 "$K" 2>/dev/null || break; sleep 0.05; done
  if kill -0 "$K" 2>/dev/null; then
    echo "mailstack: opendkim (pid $K) still running after 5 s; SIGKILL" >&2
    kill -KILL "$K" 2>/dev/null
  fi
  rm -f "$DIR/opendkim/opendkim.pid"
  echo "mailstack: stopped opendkim (pid $K)" >&2
fi

if [ "$PURGE" = 1 ]; then
  rm -rf "$DIR" && echo "mailstack: removed $DIR" >&2
fi
exit 0
