#!/usr/bin/env bash
# scripts/mailstack/up.sh - start a private, loopback-only mail stack for zaochka's tests:
#   Postfix (SMTP, submission, SMTPS) -> LMTP -> Dovecot (IMAP, IMAPS), virtual users.
#
#   OpenDKIM (Debian's package) is Postfix's milter on the submission port: it signs mail
#   from the domain dkim.test (selector "mailstack", a key made once per DIR) as a player's
#   provider would; the public key is in DIR/opendkim/dns_records (MAILSTACK_DKIM_RECORDS).
#
# usage: up.sh [DIR]            (or MAILSTACK_DIR=DIR up.sh)
#
# Everything (config, TLS certificate, queue, mail, logs, pid files, sockets)
# lives under DIR. Installs the Debian packages if missing (needs root, which is
# also needed to run the daemons). Idempotent: if the stack in DIR is already
# running with the same config, it only re-checks the ports and prints the info.
# Writes DIR/mailstack.env (shell syntax, sourceable) for test harnesses.
#
# Optional environment:
#   MAILSTACK_PORT_BASE   default 10000; ports are BASE+143 (IMAP), BASE+993 (IMAPS),
#                         BASE+25 (SMTP), BASE+587 (submission), BASE+465 (SMTPS)
#   MAILSTACK_IMAP_PORT, MAILSTACK_IMAPS_PORT, MAILSTACK_SMTP_PORT,
#   MAILSTACK_SUBMISSION_PORT, MAILSTACK_SMTPS_PORT   override single ports
#   MAILSTACK_DKIM_PORT   the OpenDKIM milter (default BASE+891, loopback)
#   MAILSTACK_EXTRA_USERS "carol@players.test:carolpass dave@other.test:pw" (new
#                         domains become local domains too)
#   MAILSTACK_WAIT        seconds to wait for the ports (default 30)
#   MAILSTACK_QUIET=1     print only the env lines
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
say() { [ "${MAILSTACK_QUIET:-0}" = 1 ] || echo "mailstack: $*" >&2; }
die() { echo "mailstack: ERROR: $*" >&2; exit 1; }

DIR="${1:-${MAILSTACK_DIR:-}}"
[ -n "$DIR" ] || die "usage: $0 DIR   (or set MAILSTACK_DIR)"
[ "$(id -u)" = 0 ] || die "must run as root (installs packages, daemons drop privileges themselves)"
mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd -P)"
# serialize concurrent up/down on the same DIR (e.g. several test binaries)
if [ -z "${MAILSTACK_LOCKED:-}" ]; then
  exec 9>"$DIR/.mailstack.lock"
  flock -w 180 9 || die "timed out waiting for the lock on $DIR"
  export MAILSTACK_LOCKED=1
fi
# Unix socket paths are limited to 107 bytes; Dovecot's longest is ~DIR/run/dovecot/login/imap-urlauth-worker
[ "${#DIR}" -le 70 ] || die "DIR path too long (${#DIR} > 70 chars; unix sockets live under it): $DIR"
case "$DIR" in *[[:space:]]* | *[\;\,\=\<\>\'\"\$]*) die "DIR must not contain spaces or shell/config metacharacters: $DIR" ;; esac

BASE="${MAILSTACK_PORT_BASE:-10000}"
IMAP_PORT="${MAILSTACK_IMAP_PORT:-$((BASE + 143))}"
IMAPS_PORT="${MAILSTACK_IMAPS_PORT:-$((BASE + 993))}"
SMTP_PORT="${MAILSTACK_SMTP_PORT:-$((BASE + 25))}"
SUBMISSION_PORT="${MAILSTACK_SUBMISSION_PORT:-$((BASE + 587))}"
SMTPS_PORT="${MAILSTACK_SMTPS_PORT:-$((BASE + 465))}"
DKIM_PORT="${MAILSTACK_DKIM_PORT:-$((BASE + 891))}"
PORTS="$IMAP_PORT $IMAPS_PORT $SMTP_PORT $SUBMISSION_PORT $SMTPS_PORT $DKIM_PORT"
HOST=127.0.0.1
WAIT="${MAILSTACK_WAIT:-30}"

# zaochka's mailbox, players, the federation's officials, and private mailboxes
# box01..box16@tests.test so that tests running in parallel never read each other's mail
USERS="zaochka@tournament.test:zaochkapass alice@players.test:alicepass bob@players.test:bobpass carol@players.test:carolpass dave@players.test:davepass arbiter@federation.test:arbiterpass secretary@federation.test:secretarypass"
for i in $(seq -w 1 16); do USERS="$USERS box$i@tests.test:box${i}pass"; done
for i in $(seq 17 24); do USERS="$USERS box$i@tests.test:box${i}pass"; done  # e2e tests (tests/e2e.rs)
for i in $(seq 25 28); do USERS="$USERS box$i@tests.test:box${i}pass"; done  # faults (tests/faults.rs)
# players whose provider signs with DKIM (OpenDKIM on the submission port)
USERS="$USERS box30@tests.test:box30pass box31@tests.test:box31pass"  # resume point (tests/mail.rs), bench
USERS="$USERS box29@tests.test:box29pass white@dkim.test:whitepass black@dkim.test:blackpass"
USERS="$USERS ${MAILSTACK_EXTRA_USERS:-}"

# ---------------------------------------------------------------- packages
PKGS="dovecot-imapd dovecot-lmtpd postfix opendkim opendkim-tools openssl procps"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing="$missing $p"
done
if [ -n "$missing" ]; then
  say "installing Debian packages:$missing"
  t0=$(date +%s)
  # keep the package scripts from starting the system-wide daemons (ports 25/143/993)
  made_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d && made_policy=1
  fi
  trap '[ "$made_policy" = 1 ] && rm -f /usr/sbin/policy-rc.d' EXIT
  # the packages enable their services at boot: what they enable is disabled again below
  # shellcheck source=boot-units.sh
  . "$SCRIPT_DIR/boot-units.sh"
  boot_units_record
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
  export DEBIAN_FRONTEND=noninteractive
  apt_opts=(-y -q --no-install-recommends -o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
  # shellcheck disable=SC2086
  # a fresh machine may have no package lists at all: on failure update them and retry
  # (twice more, with a pause: mirrors fail transiently)
  ok=0
  : > "$DIR/apt-install.log"
  for attempt in 1 2 3; do
    # shellcheck disable=SC2086
    if apt-get install "${apt_opts[@]}" $missing >>"$DIR/apt-install.log" 2>&1 9>&-; then ok=1; break; fi
    [ "$attempt" = 1 ] || sleep 5
    apt-get update -q -o DPkg::Lock::Timeout=300 >>"$DIR/apt-install.log" 2>&1 9>&- || true
  done
  [ "$ok" = 1 ] || { tail -20 "$DIR/apt-install.log" >&2; die "apt-get install failed (log: $DIR/apt-install.log)"; }
  [ "$made_policy" = 1 ] && rm -f /usr/sbin/policy-rc.d
  boot_units_restore
  trap - EXIT
  say "packages installed in $(( $(date +%s) - t0 ))s"
fi

MAIL_USER=mail                      # Debian's uid 8; owns the Maildirs
MAIL_UID="$(id -u "$MAIL_USER")"
MAIL_GID="$(id -g "$MAIL_USER")"

# ---------------------------------------------------------------- layout
mkdir -p "$DIR"/{tls,dovecot,postfix,spool,postfix-data,run,lib/dovecot,mail,log,opendkim}
chmod 755 "$DIR" "$DIR/run" "$DIR/log" "$DIR/postfix" "$DIR/dovecot"
chown "$MAIL_USER:$MAIL_USER" "$DIR/mail"; chmod 770 "$DIR/mail"
chown postfix "$DIR/postfix-data"
# The daemons drop privileges; every parent directory must be traversable by them.
if ! setpriv --reuid=postfix --regid=postfix --clear-groups test -x "$DIR/run"; then
  die "$DIR is not reachable by unprivileged users (a parent directory lacks o+x); use e.g. /tmp/..."
fi

pid_alive() { [ -f "$1" ] && kill -0 "$(tr -d ' \n' < "$1")" 2>/dev/null; }
DOVECOT_PID="$DIR/run/dovecot/master.pid"
POSTFIX_PID="$DIR/spool/pid/master.pid"
OPENDKIM_PID="$DIR/opendkim/opendkim.pid"

# ---------------------------------------------------------------- TLS (CA + leaf)
T="$DIR/tls"
if ! { [ -s "$T/server.pem" ] && [ -s "$T/ca.pem" ] && openssl x509 -checkend 86400 -noout -in "$T/server.pem" >/dev/null 2>&1; }; then
  say "generating test CA and server certificate"
  cat > "$T/openssl.cnf" <<'EOF'
[req]
distinguished_name = dn
prompt = no
[dn]
CN = mailstack
[v3_ca]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[v3_server]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, DNS:mail.mailstack.test, IP:127.0.0.1, IP:::1
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid, issuer
EOF
  umask_old=$(umask); umask 077
  openssl req -x509 -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:P-256 -sha256 -days 3650 \
    -config "$T/openssl.cnf" -extensions v3_ca -subj "/CN=mailstack test CA" \
    -keyout "$T/ca.key" -out "$T/ca.pem" 2>/dev/null
  openssl req -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:P-256 -sha256 \
    -config "$T/openssl.cnf" -subj "/CN=localhost" -keyout "$T/server.key" -out "$T/server.csr" 2>/dev/null
  openssl x509 -req -in "$T/server.csr" -CA "$T/ca.pem" -CAkey "$T/ca.key" -set_serial "0x$(openssl rand -hex 16)" \
    -days 825 -sha256 -extfile "$T/openssl.cnf" -extensions v3_server -out "$T/server.pem" 2>/dev/null
  umask "$umask_old"
  cat "$T/server.pem" "$T/ca.pem" > "$T/server-chain.pem"
  chmod 644 "$T/ca.pem" "$T/server.pem" "$T/server-chain.pem"; chmod 600 "$T/ca.key" "$T/server.key"
  rm -f "$T/server.csr"
fi

# ---------------------------------------------------------------- OpenDKIM (signing milter)
K="$DIR/opendkim"
if [ ! -s "$K/mailstack.private" ]; then
  opendkim-genkey -b 2048 -h sha256 -d dkim.test -s mailstack -D "$K" \
    || die "opendkim-genkey failed"
fi
chown -R opendkim:opendkim "$K"; chmod 750 "$K"; chmod 600 "$K/mailstack.private"
# The published key as one line of a zaochka dns_records file ("NAME TEXT").
printf 'mailstack._domainkey.dkim.test %s\n' \
  "$(tr -d '\n' < "$K/mailstack.txt" | sed -E 's/^[^(]*\( *//; s/ *\).*$//; s/"[[:space:]]*"//g; s/"//g; s/[[:space:]]+/ /g')" \
  > "$K/dns_records.new"
cat > "$K/opendkim.conf.new" <<EOF
# generated by mailstack/up.sh - do not edit, rerun up.sh
Syslog                  no
Mode                    s
Domain                  dkim.test
Selector                mailstack
KeyFile                 $K/mailstack.private
Canonicalization        relaxed/simple
OversignHeaders         From
Socket                  inet:$DKIM_PORT@$HOST
PidFile                 $OPENDKIM_PID
UserID                  opendkim:opendkim
UMask                   007
Background              yes
InternalHosts           127.0.0.1
# the stack lives under /tmp (world-writable): its key is still readable by opendkim only
RequireSafeKeys         no
EOF

# ---------------------------------------------------------------- users
DOMAINS=""
: > "$DIR/dovecot/users.new"; : > "$DIR/postfix/vmailbox.new"
for up in $USERS; do
  u="${up%%:*}"; pw="${up#*:}"
  [[ "$u" == *@* && "$up" == *:* && -n "$pw" ]] || die "bad user spec '$up' (want user@domain:password)"
  u="${u,,}"; d="${u#*@}"
  echo "$u:{PLAIN}$pw::::::" >> "$DIR/dovecot/users.new"
  echo "$u OK" >> "$DIR/postfix/vmailbox.new"
  case " $DOMAINS " in *" $d "*) ;; *) DOMAINS="$DOMAINS $d" ;; esac
done
DOMAINS="${DOMAINS# }"
FIRST_DOMAIN="${DOMAINS%% *}"

# ---------------------------------------------------------------- dovecot.conf
cat > "$DIR/dovecot/dovecot.conf.new" <<EOF
# generated by mailstack/up.sh - do not edit, rerun up.sh
instance_name = mailstack
base_dir = $DIR/run/dovecot
state_dir = $DIR/lib/dovecot
protocols = imap lmtp
listen = $HOST
log_path = $DIR/log/dovecot.log
info_log_path = $DIR/log/dovecot.log
log_timestamp = "%Y-%m-%d %H:%M:%S "
default_internal_user = dovecot
default_login_user = dovenull
shutdown_clients = yes

ssl = yes
ssl_cert = <$T/server-chain.pem
ssl_key = <$T/server.key
ssl_dh = </usr/share/dovecot/dh.pem
ssl_min_protocol = TLSv1.2

# plain-text logins are allowed without TLS (loopback only)
disable_plaintext_auth = no
auth_mechanisms = plain login
# tests try wrong passwords: no 2 s failure delay
auth_failure_delay = 0
auth_username_format = %Lu
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%Lu $DIR/dovecot/users
}
userdb {
  driver = passwd-file
  args = username_format=%Lu $DIR/dovecot/users
  default_fields = uid=$MAIL_UID gid=$MAIL_GID home=$DIR/mail/%Ld/%Ln
}

mail_location = maildir:~/Maildir
first_valid_uid = $MAIL_UID
first_valid_gid = $MAIL_GID
recipient_delimiter = +
# IDLE uses inotify; this is the fallback poll if inotify is unavailable
mailbox_idle_check_interval = 1 secs
imap_idle_notify_interval = 2 mins
namespace inbox {
  inbox = yes
  separator = /
  mailbox Drafts {
    special_use = \\Drafts
    auto = subscribe
  }
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Junk {
    special_use = \\Junk
    auto = subscribe
  }
  mailbox Trash {
    special_use = \\Trash
    auto = subscribe
  }
}
protocol imap {
  mail_max_userip_connections = 100
}
protocol lmtp {
  postmaster_address = postmaster@$FIRST_DOMAIN
}
service imap-login {
  inet_listener imap {
    address = $HOST
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = $HOST
    port = $IMAPS_PORT
    ssl = yes
  }
}
service lmtp {
  unix_listener lmtp {
    mode = 0666
  }
}
# no auth penalty: otherwise a failed login makes the next logins from
# 127.0.0.1 wait 2-15 s (for ~30 s), which makes tests slow and flaky
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service auth {
  unix_listener auth-postfix {
    mode = 0666
  }
}
EOF

# ---------------------------------------------------------------- postfix
cat > "$DIR/postfix/main.cf.new" <<EOF
# generated by mailstack/up.sh - do not edit, rerun up.sh
compatibility_level = 3.6
queue_directory = $DIR/spool
data_directory = $DIR/postfix-data
meta_directory = /etc/postfix
daemon_directory = /usr/lib/postfix/sbin
command_directory = /usr/sbin
shlib_directory = /usr/lib/postfix
mail_owner = postfix
setgid_group = postdrop
maillog_file = $DIR/log/postfix.log
maillog_file_prefixes = $DIR/log
myhostname = mail.mailstack.test
mydomain = mailstack.test
myorigin = \$myhostname
mydestination =
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
alias_maps =
alias_database =
local_recipient_maps =
local_transport = error:5.1.1 mailstack has no local delivery
relay_domains =
virtual_mailbox_domains = $DOMAINS
virtual_mailbox_maps = texthash:$DIR/postfix/vmailbox
virtual_transport = lmtp:unix:$DIR/run/dovecot/lmtp
# nothing ever leaves the machine
default_transport = error:5.7.1 mailstack delivers only to its own test domains
relay_transport = error:5.7.1 mailstack delivers only to its own test domains
smtp_dns_support_level = disabled
smtpd_peername_lookup = no
recipient_delimiter = +
biff = no
append_dot_mydomain = no
smtputf8_enable = yes
message_size_limit = 52428800
mailbox_size_limit = 0
smtpd_banner = \$myhostname ESMTP mailstack
smtpd_error_sleep_time = 0
smtpd_soft_error_limit = 1000
smtpd_hard_error_limit = 1000
smtpd_client_connection_count_limit = 0
in_flow_delay = 0
queue_run_delay = 5s
minimal_backoff_time = 5s
maximal_backoff_time = 15s
delay_warning_time = 0
# TLS: STARTTLS offered on SMTP/submission, implicit TLS on SMTPS
smtpd_tls_security_level = may
smtpd_tls_chain_files = $T/server.key, $T/server-chain.pem
smtpd_tls_auth_only = no
smtpd_tls_loglevel = 0
smtp_tls_security_level = none
# AUTH via Dovecot, plain text allowed (loopback only)
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = $DIR/run/dovecot/auth-postfix
smtpd_sasl_security_options = noanonymous
smtpd_sasl_tls_security_options = noanonymous
smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination
smtpd_recipient_restrictions = reject_unlisted_recipient
EOF

cat > "$DIR/postfix/master.cf.new" <<EOF
# generated by mailstack/up.sh - do not edit, rerun up.sh
# service type  private unpriv  chroot  wakeup  maxproc command
$HOST:$SMTP_PORT inet n - n - - smtpd
$HOST:$SUBMISSION_PORT inet n - n - - smtpd
  -o syslog_name=postfix/submission
  -o smtpd_milters=inet:$HOST:$DKIM_PORT
  -o milter_default_action=accept
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
$HOST:$SMTPS_PORT inet n - n - - smtpd
  -o syslog_name=postfix/smtps
  -o smtpd_tls_wrappermode=yes
  -o smtpd_tls_security_level=encrypt
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
tlsmgr    unix  -       -       n       1000?   1       tlsmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
proxywrite unix -       -       n       -       1       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
lmtp      unix  -       -       n       -       -       lmtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
EOF

# install new config files; remember whether anything changed
changed=0
for f in dovecot/users dovecot/dovecot.conf postfix/vmailbox postfix/main.cf postfix/master.cf opendkim/opendkim.conf opendkim/dns_records; do
  if cmp -s "$DIR/$f.new" "$DIR/$f"; then rm -f "$DIR/$f.new"; else mv -f "$DIR/$f.new" "$DIR/$f"; changed=1; fi
done
chmod 644 "$DIR/postfix/"*.cf "$DIR/postfix/vmailbox" "$DIR/dovecot/dovecot.conf"
chown root:dovecot "$DIR/dovecot/users"; chmod 640 "$DIR/dovecot/users"
chmod 644 "$K/opendkim.conf" "$K/dns_records"

# ---------------------------------------------------------------- env file
ENVF="$DIR/mailstack.env"
cat > "$ENVF.new" <<EOF
MAILSTACK_DIR=$DIR
MAILSTACK_HOST=$HOST
MAILSTACK_TLS_NAME=localhost
MAILSTACK_CA_CERT=$T/ca.pem
MAILSTACK_IMAP_PORT=$IMAP_PORT
MAILSTACK_IMAPS_PORT=$IMAPS_PORT
MAILSTACK_SMTP_PORT=$SMTP_PORT
MAILSTACK_SUBMISSION_PORT=$SUBMISSION_PORT
MAILSTACK_SMTPS_PORT=$SMTPS_PORT
MAILSTACK_DKIM_PORT=$DKIM_PORT
MAILSTACK_DKIM_RECORDS=$K/dns_records
MAILSTACK_USERS="$(echo $USERS)"
MAILSTACK_BOT_USER=zaochka@tournament.test
MAILSTACK_BOT_PASSWORD=zaochkapass
EOF
mv -f "$ENVF.new" "$ENVF"; chmod 644 "$ENVF"

port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }
greeting() { timeout 5 bash -c "exec 3<>/dev/tcp/$HOST/$1; head -n1 <&3" 2>/dev/null | tr -d '\r' || true; }

print_info() {
  if [ "${MAILSTACK_QUIET:-0}" = 1 ]; then cat "$ENVF"; return; fi
  cat >&2 <<EOF
mailstack: up in $DIR (host $HOST, TLS name localhost, CA $T/ca.pem)
  IMAP        $IMAP_PORT  (STARTTLS optional, plain-text LOGIN allowed)
  IMAPS       $IMAPS_PORT  (implicit TLS)
  SMTP        $SMTP_PORT  (STARTTLS optional, AUTH optional; accepts mail for the local domains)
  submission  $SUBMISSION_PORT  (STARTTLS optional, AUTH required)
  SMTPS       $SMTPS_PORT  (implicit TLS, AUTH required)
  OpenDKIM    $DKIM_PORT  (milter of the submission port: signs mail from dkim.test)
  users (login = address):
EOF
  for up in $USERS; do echo "    ${up%%:*}  password: ${up#*:}" >&2; done
  echo "  env: $ENVF   logs: $DIR/log/   stop: $SCRIPT_DIR/down.sh $DIR" >&2
  cat "$ENVF"
}

all_ports_open() { for p in $PORTS; do port_open "$p" || return 1; done; }

# ---------------------------------------------------------------- already running?
if pid_alive "$DOVECOT_PID" && pid_alive "$POSTFIX_PID" && pid_alive "$OPENDKIM_PID"; then
  if [ "$changed" = 0 ] && all_ports_open; then
    say "already running (dovecot pid $(cat "$DOVECOT_PID"), postfix pid $(tr -d ' ' < "$POSTFIX_PID"))"
    print_info; exit 0
  fi
  say "config changed or ports not answering: restarting"
fi
if pid_alive "$DOVECOT_PID" || pid_alive "$POSTFIX_PID" || pid_alive "$OPENDKIM_PID"; then
  "$SCRIPT_DIR/down.sh" "$DIR" >&2
fi

for p in $PORTS; do
  port_open "$p" && die "port $p on $HOST is already in use by another process (set MAILSTACK_PORT_BASE)"
done

# ---------------------------------------------------------------- start
t0=$(date +%s%N)
# Postfix refuses files it does not own strictly; make the queue tree right.
# Pre-create Postfix's queue tree: "postfix start" would do it too, but takes ~2 s for it.
for q in active bounce corrupt defer deferred flush hold incoming private saved trace; do
  [ -d "$DIR/spool/$q" ] || install -d -o postfix -g root -m 700 "$DIR/spool/$q"
done
[ -d "$DIR/spool/maildrop" ] || install -d -o postfix -g postdrop -m 730 "$DIR/spool/maildrop"
[ -d "$DIR/spool/public" ] || install -d -o postfix -g postdrop -m 710 "$DIR/spool/public"
[ -d "$DIR/spool/pid" ] || install -d -o root -g root -m 755 "$DIR/spool/pid"
doveconf -c "$DIR/dovecot/dovecot.conf" -n >/dev/null 2>"$DIR/log/doveconf.err" \
  || { cat "$DIR/log/doveconf.err" >&2; die "dovecot config invalid"; }
# The daemons must not inherit our stdout/stderr: a caller that reads our output
# through a pipe (cmd | tee, Command::output()) would otherwise wait forever.
# (fd 9, the lock, must not be inherited either)
if ! dovecot -c "$DIR/dovecot/dovecot.conf" </dev/null >"$DIR/log/dovecot-start.out" 2>&1 9>&-; then
  cat "$DIR/log/dovecot-start.out" >&2; tail -20 "$DIR/log/dovecot.log" >&2 2>/dev/null
  die "dovecot failed to start"
fi
if ! opendkim -x "$K/opendkim.conf" </dev/null >"$DIR/log/opendkim-start.out" 2>&1 9>&-; then
  cat "$DIR/log/opendkim-start.out" >&2
  die "opendkim failed to start"
fi
if ! postfix -c "$DIR/postfix" start </dev/null >"$DIR/log/postfix-start.out" 2>&1 9>&-; then
  cat "$DIR/log/postfix-start.out" >&2; tail -20 "$DIR/log/postfix.log" >&2 2>/dev/null
  die "postfix failed to start"
fi

deadline=$(( $(date +%s) + WAIT ))
until all_ports_open; do
  [ "$(date +%s)" -lt "$deadline" ] || { tail -20 "$DIR/log/dovecot.log" "$DIR/log/postfix.log" >&2 2>/dev/null; die "ports did not open within ${WAIT}s"; }
  sleep 0.05
done
# a real greeting proves the daemons behind the listeners work
g1="$(greeting "$IMAP_PORT")"; g2="$(greeting "$SMTP_PORT")"
[[ "$g1" == "* OK"* ]] || die "IMAP greeting unexpected: '$g1'"
[[ "$g2" == 220* ]] || die "SMTP greeting unexpected: '$g2'"
t1=$(date +%s%N)
say "started in $(( (t1 - t0) / 1000000 )) ms"
print_info
