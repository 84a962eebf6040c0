#!/usr/bin/env bash
# scripts/mailstack/boot-units.sh - keep the machine's boot as it was when up.sh installs
# Debian's postfix and dovecot packages: their maintainer scripts enable postfix.service and
# dovecot.service at boot (policy-rc.d only keeps them from starting now). The stack runs
# its own daemons without systemd, so what the packages enabled is disabled again.
#
# usage (sourced by up.sh around apt-get install):
#   . boot-units.sh; boot_units_record; apt-get install ...; boot_units_restore
# or run: boot-units.sh record FILE / boot-units.sh restore FILE  (the state kept in FILE)
#
# Units already enabled before are left alone. Without systemctl nothing is done.

BOOT_UNITS="postfix.service dovecot.service"
BOOT_UNITS_BEFORE=""

boot_units_say() { [ "${MAILSTACK_QUIET:-0}" = 1 ] || echo "mailstack: $*" >&2; }

# remembers which of the units are enabled at boot now
boot_units_record() {
  BOOT_UNITS_BEFORE=""
  command -v systemctl >/dev/null 2>&1 || return 0
  local u
  for u in $BOOT_UNITS; do
    if systemctl is-enabled --quiet "$u" 2>/dev/null; then BOOT_UNITS_BEFORE="$BOOT_UNITS_BEFORE $u"; fi
  done
  return 0
}

# disables at boot each unit that is enabled now but was not when recorded
boot_units_restore() {
  command -v systemctl >/dev/null 2>&1 || return 0
  local u
  for u in $BOOT_UNITS; do
    case " $BOOT_UNITS_BEFORE " in *" $u "*) continue ;; esac
    systemctl is-enabled --quiet "$u" 2>/dev/null || continue
    if systemctl disable --quiet "$u" >/dev/null 2>&1 \
      || { command -v deb-systemd-helper >/dev/null 2>&1 && deb-systemd-helper disable "$u" >/dev/null 2>&1; }; then
      boot_units_say "disabled $u at boot again (its package enabled it; the stack runs without systemd)"
    else
      echo "mailstack: WARNING: could not disable $u at boot; run: systemctl disable $u" >&2
    fi
  done
  return 0
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -uo pipefail
  case "${1:-}" in
    record) boot_units_record; printf '%s\n' "$BOOT_UNITS_BEFORE" > "${2:?usage: $0 record FILE}" ;;
    restore) BOOT_UNITS_BEFORE="$(cat "${2:?usage: $0 restore FILE}")"; boot_units_restore ;;
    *) sed -n '2,12p' "$0"; exit 2 ;;
  esac
fi
