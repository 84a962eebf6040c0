//! Mail transports and MIME reading: the [`Inbox`]/[`Outbox`] traits, [`IncomingMail`] and
//! [`OutgoingMail`], and the IMAP, SMTP, Maildir and in-memory transports.
//!
//! Knows no domain module: a letter here is raw bytes with an id and a postmark. Reading what
//! a letter says is [`mime`]'s job; judging it is the daemon's.
//!
//! The contract every [`Inbox`] keeps (the daemon's "exactly once" rests on it):
//! - [`Inbox::fetch_new`] returns letters not yet marked processed that this inbox has not
//!   returned before, oldest first, each with a [`MailId`] that is stable for that letter in
//!   that mailbox. A new inbox (a restart; for IMAP also a reconnection) returns every
//!   unprocessed letter again, so the caller deduplicates by id, and a letter whose processing
//!   was cut short is never lost. A letter never marked processed does not block the others.
//!   An IMAP inbox may be given a [`ResumePoint`] a previous run kept: it then reads only from
//!   there (every letter before it is processed), which keeps a restart's cost that of the
//!   new letters however many old ones the mailbox holds.
//! - [`Inbox::mark_processed`] is called after the letter is safely stored; it is idempotent.
//!
//! [`open_transports`] turns the configuration's `[maildir]` or `[imap]`+`[smtp]` into an
//! [`AnyInbox`] and an [`AnyOutbox`] (the one place this module reads [`crate::config`]).

pub mod auth;
pub mod imap;
pub mod maildir;
pub mod memory;
pub mod mime;
pub mod smtp;

use std::fmt;
use std::future::Future;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use chrono::{DateTime, Utc};

/// The identity of a letter in the mailbox it came from; stable across fetches and restarts.
///
/// Its [`Display`](fmt::Display) form is what the store keeps, and [`FromStr`] reads it back:
/// `maildir:<unique name>`, `imap:<UIDVALIDITY>:<UID>:<mailbox>`, `memory:<n>`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MailId {
    /// A Maildir file: its unique name (the file name without the `:2,` info part).
    Maildir {
        /// The unique part of the file name.
        unique: String,
    },
    /// An IMAP message: the mailbox, its UIDVALIDITY and the message's UID.
    Imap {
        /// The mailbox name (e.g. `INBOX`).
        mailbox: String,
        /// The mailbox's UIDVALIDITY when the message was fetched.
        uid_validity: u32,
        /// The message's UID.
        uid: u32,
    },
    /// A letter of the in-memory transport (tests).
    Memory(u64),
}

impl fmt::Display for MailId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MailId::Maildir { unique } => write!(f, "maildir:{unique}"),
            MailId::Imap {
                mailbox,
                uid_validity,
                uid,
            } => write!(f, "imap:{uid_validity}:{uid}:{mailbox}"),
            MailId::Memory(n) => write!(f, "memory:{n}"),
        }
    }
}

/// A [`MailId`] text that is not one of the three forms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot parse mail id '{0}'")]
pub struct ParseMailIdError(pub String);

impl FromStr for MailId {
    type Err = ParseMailIdError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseMailIdError(s.to_owned());
        let (kind, rest) = s.split_once(':').ok_or_else(err)?;
        match kind {
            "maildir" if !rest.is_empty() && !rest.contains('/') => Ok(MailId::Maildir {
                unique: rest.to_owned(),
            }),
            "imap" => {
                let mut parts = rest.splitn(3, ':');
                let uid_validity = parts.next().and_then(|p| p.parse().ok()).ok_or_else(err)?;
                let uid = parts.next().and_then(|p| p.parse().ok()).ok_or_else(err)?;
                let mailbox = parts.next().filter(|m| !m.is_empty()).ok_or_else(err)?;
                Ok(MailId::Imap {
                    mailbox: mailbox.to_owned(),
                    uid_validity,
                    uid,
                })
            }
            "memory" => rest.parse().map(MailId::Memory).map_err(|_| err()),
            _ => Err(err()),
        }
    }
}

/// A letter as it arrived: the raw RFC 5322 bytes, untouched, and its postmark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IncomingMail {
    /// Stable id in its mailbox.
    pub id: MailId,
    /// The message exactly as the server stored it (any charset, any line endings).
    pub raw: Vec<u8>,
    /// The postmark: when the mailbox received it (IMAP INTERNALDATE, Maildir file mtime, or
    /// the Maildir's received override, i.e. the CLI's `--now`).
    pub received: DateTime<Utc>,
}

/// A letter to send: a complete RFC 5322 message built elsewhere, and its SMTP envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMail {
    /// The envelope sender (`MAIL FROM`), usually the tournament mailbox's address.
    pub envelope_from: String,
    /// The envelope recipients (`RCPT TO`), bare addresses.
    pub recipients: Vec<String>,
    /// The complete message, headers and body.
    pub raw: Vec<u8>,
    /// The message's `Message-ID` (without angle brackets), fixed when it was queued so that a
    /// resend is recognisably the same letter.
    pub message_id: String,
}

/// Where letters come from.
///
/// The futures are `Send` so that the daemon can run them on tokio's multi-threaded runtime.
pub trait Inbox {
    /// Letters not yet marked processed and not yet returned by this inbox (see the module
    /// docs: after a restart they come again).
    ///
    /// # Errors
    /// [`MailError`]; on a transient one, back off and call again.
    fn fetch_new(&mut self) -> impl Future<Output = Result<Vec<IncomingMail>, MailError>> + Send;

    /// Marks a letter as done with (moved to the processed folder, flagged, or moved to
    /// Maildir's `cur` with the `S` flag). Marking an already processed letter is not an error.
    ///
    /// # Errors
    /// [`MailError::NotFound`] when the letter is not in the mailbox; transport errors.
    fn mark_processed(&mut self, id: &MailId)
    -> impl Future<Output = Result<(), MailError>> + Send;

    /// Waits until new mail may have arrived, or `max` has passed (IMAP IDLE, or polling).
    /// Returning early without new mail is allowed; the caller fetches and waits again.
    ///
    /// # Errors
    /// Transport errors; the connection is dropped and rebuilt on the next call.
    fn wait_for_mail(
        &mut self,
        max: Duration,
    ) -> impl Future<Output = Result<(), MailError>> + Send;

    /// How many entries of the mailbox the last fetch skipped because they are not letters
    /// it can read (a directory or FIFO in a Maildir, an unreadable file); each is logged
    /// once by the inbox. `run --once` reports them as left unhandled.
    fn skipped(&self) -> usize {
        0
    }

    /// Where a later inbox on the same mailbox may start reading (every letter before it is
    /// marked processed), for the store to keep: `None` when the inbox needs none (a Maildir
    /// moves what it processed out of `new/`) or does not know it yet.
    fn resume_point(&self) -> Option<ResumePoint> {
        None
    }

    /// The key [`Inbox::resume_point`] will carry, known before the first fetch, so that the
    /// caller can look the kept point up.
    fn resume_key(&self) -> Option<String> {
        None
    }

    /// Starts from a point a previous run kept (before the first fetch; ignored when its key
    /// is not this inbox's). A mailbox whose UIDVALIDITY has changed since is read from the
    /// start.
    fn resume_from(&mut self, point: &ResumePoint) {
        let _ = point;
    }
}

/// Where reading a mailbox stands: under `uid_validity`, every letter up to `last_uid` is
/// marked processed (see [`imap`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResumePoint {
    /// The account and mailbox, e.g. `imap://zaochka@mail.example.org:993/INBOX`.
    pub key: String,
    /// The mailbox's UIDVALIDITY.
    pub uid_validity: u32,
    /// Every UID up to this one is processed.
    pub last_uid: u32,
}

/// Where letters go.
pub trait Outbox {
    /// Sends one letter to all its envelope recipients.
    ///
    /// # Errors
    /// [`MailError`]; transient ones (server down, 4xx) are retried by the caller, permanent
    /// ones (5xx, bad address, authentication) are not.
    fn send(&mut self, mail: &OutgoingMail) -> impl Future<Output = Result<(), MailError>> + Send;

    /// Whether a letter [`Outbox::send`] took is safe from a crash only after the next
    /// [`Outbox::sync`] (a Maildir syncs its folder once for all the letters of a pass):
    /// the caller then records the letters as sent only after `sync` succeeds.
    fn holds_until_sync(&self) -> bool {
        false
    }

    /// Makes every letter sent since the last call durable; nothing to do by default.
    ///
    /// # Errors
    /// [`MailError`], transient: the letters since the last sync are to be sent again.
    fn sync(&mut self) -> impl Future<Output = Result<(), MailError>> + Send {
        async { Ok(()) }
    }
}

/// Any of the inboxes, chosen at run time (the traits' `impl Future` methods are not
/// object-safe, so the daemon takes this instead of a `Box<dyn Inbox>`).
#[derive(Debug)]
// One inbox per daemon: the size of the smaller variant is no concern.
#[allow(clippy::large_enum_variant)]
pub enum AnyInbox {
    /// The embedded Maildir.
    Maildir(maildir::Maildir),
    /// A real mailbox over IMAP.
    Imap(Box<imap::ImapInbox>),
    /// Tests.
    Memory(memory::MemoryMailbox),
}

impl Inbox for AnyInbox {
    async fn fetch_new(&mut self) -> Result<Vec<IncomingMail>, MailError> {
        match self {
            AnyInbox::Maildir(m) => m.fetch_new().await,
            AnyInbox::Imap(m) => m.fetch_new().await,
            AnyInbox::Memory(m) => m.fetch_new().await,
        }
    }

    async fn mark_processed(&mut self, id: &MailId) -> Result<(), MailError> {
        match self {
            AnyInbox::Maildir(m) => m.mark_processed(id).await,
            AnyInbox::Imap(m) => m.mark_processed(id).await,
            AnyInbox::Memory(m) => m.mark_processed(id).await,
        }
    }

    async fn wait_for_mail(&mut self, max: Duration) -> Result<(), MailError> {
        match self {
            AnyInbox::Maildir(m) => m.wait_for_mail(max).await,
            AnyInbox::Imap(m) => m.wait_for_mail(max).await,
            AnyInbox::Memory(m) => m.wait_for_mail(max).await,
        }
    }

    fn skipped(&self) -> usize {
        match self {
            AnyInbox::Maildir(m) => m.skipped(),
            AnyInbox::Imap(m) => m.skipped(),
            AnyInbox::Memory(m) => m.skipped(),
        }
    }
    fn resume_point(&self) -> Option<ResumePoint> {
        match self {
            AnyInbox::Imap(m) => m.resume_point(),
            AnyInbox::Maildir(_) | AnyInbox::Memory(_) => None,
        }
    }

    fn resume_key(&self) -> Option<String> {
        match self {
            AnyInbox::Imap(m) => m.resume_key(),
            AnyInbox::Maildir(_) | AnyInbox::Memory(_) => None,
        }
    }

    fn resume_from(&mut self, point: &ResumePoint) {
        if let AnyInbox::Imap(m) = self {
            m.resume_from(point);
        }
    }
}

/// Any of the outboxes, chosen at run time.
#[derive(Debug)]
// One outbox per daemon: the size of the smaller variant is no concern.
#[allow(clippy::large_enum_variant)]
pub enum AnyOutbox {
    /// The embedded Maildir (`outbox/new`).
    Maildir(maildir::Maildir),
    /// A real server over SMTP.
    Smtp(Box<smtp::SmtpOutbox>),
    /// Tests.
    Memory(memory::MemoryMailbox),
}

impl Outbox for AnyOutbox {
    async fn send(&mut self, mail: &OutgoingMail) -> Result<(), MailError> {
        match self {
            AnyOutbox::Maildir(m) => m.send(mail).await,
            AnyOutbox::Smtp(m) => m.send(mail).await,
            AnyOutbox::Memory(m) => m.send(mail).await,
        }
    }

    fn holds_until_sync(&self) -> bool {
        match self {
            AnyOutbox::Maildir(m) => m.holds_until_sync(),
            AnyOutbox::Smtp(m) => m.holds_until_sync(),
            AnyOutbox::Memory(m) => m.holds_until_sync(),
        }
    }

    async fn sync(&mut self) -> Result<(), MailError> {
        match self {
            AnyOutbox::Maildir(m) => m.sync().await,
            AnyOutbox::Smtp(m) => m.sync().await,
            AnyOutbox::Memory(m) => m.sync().await,
        }
    }
}

/// The transports a configuration names: the Maildir (inbox and outbox in one), or IMAP and
/// SMTP with their passwords read now. `received_override` is the CLI's `--now` (Maildir
/// only: an IMAP letter's postmark is always the server's INTERNALDATE). Nothing connects yet.
///
/// # Errors
/// [`MailError::Settings`] when a password cannot be read, [`MailError::Tls`] for an unusable
/// CA file, [`MailError::Io`] when the Maildir folders cannot be created.
pub fn open_transports(
    transport: &crate::config::Transport,
    received_override: Option<DateTime<Utc>>,
) -> Result<(AnyInbox, AnyOutbox), MailError> {
    use crate::config::{self, Transport};
    let tls = |mode: config::TlsMode| match mode {
        config::TlsMode::None => TlsMode::None,
        config::TlsMode::Starttls => TlsMode::StartTls,
        config::TlsMode::Implicit => TlsMode::Implicit,
    };
    let secret = |source: &config::PasswordSource, key: &str| {
        source
            .resolve(key)
            .map(|s| s.map(|s| Password::new(s.expose())))
            .map_err(|e| MailError::Settings(e.to_string()))
    };
    match transport {
        Transport::Maildir(m) => {
            let maildir = maildir::Maildir::open(&m.path)?
                .with_received_override(received_override)
                .with_poll_interval(m.poll);
            Ok((
                AnyInbox::Maildir(maildir.clone()),
                AnyOutbox::Maildir(maildir),
            ))
        }
        Transport::Imap { imap: i, smtp: s } => {
            let password = secret(&i.password, "imap.password")?.unwrap_or_default();
            let mut settings =
                imap::ImapSettings::new(&i.host, i.port, tls(i.tls), &i.user, password);
            settings.ca_file = i.ca_file.clone();
            settings.mailbox = i.mailbox.clone();
            settings.processed_folder = i.processed_folder.clone();
            settings.idle_renew = i.idle;
            settings.poll = i.poll;
            settings.timeout = i.timeout;
            let inbox = imap::ImapInbox::new(settings)?;
            let auth = match (&s.user, secret(&s.password, "smtp.password")?) {
                (Some(user), Some(password)) => Some((user.clone(), password)),
                _ => None,
            };
            let outbox = smtp::SmtpOutbox::new(smtp::SmtpSettings {
                host: s.host.clone(),
                port: s.port,
                tls: tls(s.tls),
                tls_name: None,
                auth,
                ca_file: s.ca_file.clone(),
                timeout: s.timeout,
            })?;
            Ok((
                AnyInbox::Imap(Box::new(inbox)),
                AnyOutbox::Smtp(Box::new(outbox)),
            ))
        }
    }
}

/// Errors of the mail transports. [`MailError::is_transient`] tells the daemon whether to
/// back off and retry or to give up on the letter or the configuration.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// A file operation of the Maildir transport failed.
    #[error("maildir i/o on '{path}': {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// No connection to the server (refused, reset, unreachable, DNS).
    #[error("cannot connect to {server}: {source}")]
    Connect {
        /// `host:port`.
        server: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The server did not answer in time.
    #[error("{server} did not answer {what} within {seconds} s")]
    Timeout {
        /// `host:port`.
        server: String,
        /// The step that timed out (e.g. `LOGIN`).
        what: String,
        /// The timeout.
        seconds: u64,
    },
    /// The TLS handshake or the certificate check failed, or the CA file is unusable.
    #[error("tls with {server}: {reason}")]
    Tls {
        /// `host:port`, or the CA file.
        server: String,
        /// What went wrong.
        reason: String,
    },
    /// The server refused the credentials.
    #[error("{server} refused the login of '{user}': {reason}")]
    Auth {
        /// `host:port`.
        server: String,
        /// The login name (never the password).
        user: String,
        /// The server's answer.
        reason: String,
    },
    /// An IMAP command failed.
    #[error("imap {command} on {server}: {reason}")]
    Imap {
        /// `host:port`.
        server: String,
        /// The command (e.g. `UID FETCH`).
        command: String,
        /// The server's answer or the client's error.
        reason: String,
        /// Whether retrying later may help (connection lost, server busy).
        transient: bool,
    },
    /// The SMTP server refused the letter or the session failed.
    #[error("smtp to {server}: {reason}")]
    Smtp {
        /// `host:port`.
        server: String,
        /// The reply code, when the server gave one.
        code: Option<u16>,
        /// The server's answer or the client's error.
        reason: String,
        /// 4xx, connection and timeout errors are transient; 5xx and TLS errors are not.
        transient: bool,
    },
    /// An address that cannot be used in an envelope.
    #[error("bad address '{address}': {reason}")]
    BadAddress {
        /// The address as given.
        address: String,
        /// Why it was refused.
        reason: String,
    },
    /// The letter is not (or no longer) in the mailbox, or its mailbox was recreated (another
    /// UIDVALIDITY).
    #[error("no letter {id} in the mailbox")]
    NotFound {
        /// The id asked for.
        id: MailId,
    },
    /// The transport was given settings it cannot use.
    #[error("bad mail settings: {0}")]
    Settings(String),
    /// A letter could not be written into a Maildir's folders (missing, full, not
    /// writable): transient, the letter waits until an admin puts it right.
    #[error("cannot deliver into '{path}': {source}")]
    Deliver {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
}

/// What a failed send means for the letter and for the rest of the outbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SendFailure {
    /// The server refused this letter for good (a 5xx reply to it, an address that cannot
    /// be used): give it up; the other letters are not concerned.
    Refused,
    /// This letter could not go now (a 4xx reply to it): retry it later, go on with the rest.
    Later,
    /// The server cannot be used now (down, unreachable, refused the login, a TLS problem, a
    /// full disk): nothing goes until it can; retry with backoff, never give up.
    ServerDown,
}

impl MailError {
    /// True when retrying later may succeed: connection refused or lost, timeouts, SMTP 4xx,
    /// authentication failures (a rotated password is put right by the admin, and nothing
    /// queued meanwhile is lost), a Maildir delivery that failed, and Maildir i/o errors
    /// other than a missing file or a permission problem (a full disk is cleared by an
    /// admin). False for 5xx, TLS and certificate problems, bad addresses, missing letters
    /// and bad settings.
    pub fn is_transient(&self) -> bool {
        match self {
            MailError::Io { source, .. } => !matches!(
                source.kind(),
                std::io::ErrorKind::NotFound
                    | std::io::ErrorKind::PermissionDenied
                    | std::io::ErrorKind::InvalidInput
            ),
            MailError::Connect { .. }
            | MailError::Timeout { .. }
            | MailError::Auth { .. }
            | MailError::Deliver { .. } => true,
            MailError::Imap { transient, .. } | MailError::Smtp { transient, .. } => *transient,
            MailError::Tls { .. }
            | MailError::BadAddress { .. }
            | MailError::NotFound { .. }
            | MailError::Settings(_) => false,
        }
    }

    /// What this error, from [`Outbox::send`], means for the letter and the outbox: only a
    /// refusal of the letter itself gives it up; whatever is wrong with the server or the
    /// settings keeps every letter waiting (and is logged) until it is put right.
    pub fn send_failure(&self) -> SendFailure {
        match self {
            MailError::Smtp {
                code: Some(code),
                transient: false,
                ..
            } if (500..600).contains(code) => SendFailure::Refused,
            MailError::BadAddress { .. } => SendFailure::Refused,
            // 421: the server is closing the session, not refusing this letter
            MailError::Smtp {
                code: Some(code), ..
            } if (400..500).contains(code) && *code != 421 => SendFailure::Later,
            _ => SendFailure::ServerDown,
        }
    }
}

/// A server's answer made fit for an error message and the log: the password, and the forms
/// it takes in `AUTH PLAIN` and `AUTH LOGIN` (base64), replaced by `<redacted>` wherever the
/// server echoed them; control characters as spaces (one line); at most 300 characters.
pub fn redact(text: &str, user: &str, password: &Password) -> String {
    let mut out = text.to_owned();
    let pw = password.expose();
    if !pw.is_empty() {
        use base64::Engine as _;
        let base64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
        let secrets = [
            base64(format!("\0{user}\0{pw}").as_bytes()),
            base64(format!("{user}\0{user}\0{pw}").as_bytes()),
            base64(pw.as_bytes()),
            pw.to_owned(),
        ];
        for secret in secrets {
            out = out.replace(&secret, "<redacted>");
        }
    }
    let mut out: String = out
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if let Some((cut, _)) = out.char_indices().nth(300) {
        out.truncate(cut);
        out.push('…');
    }
    out
}

/// How a client secures its connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TlsMode {
    /// No TLS at all (loopback tests only: the password travels in clear).
    None,
    /// Plain connection upgraded with STARTTLS; refuses to continue without it.
    StartTls,
    /// TLS from the first byte (IMAPS 993, SMTPS 465).
    #[default]
    Implicit,
}

/// A password that never shows in `Debug` output or logs.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Password(String);

impl Password {
    /// Wraps a password.
    pub fn new(password: impl Into<String>) -> Self {
        Password(password.into())
    }

    /// The password itself, for the login command only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(<redacted>)")
    }
}

/// The rustls client configuration both network transports use: the roots from `ca_file`
/// (PEM, e.g. a private CA) when given, else the Mozilla roots of `webpki-roots`. Always the
/// `ring` provider, so that no process-wide default provider is needed.
///
/// # Errors
/// [`MailError::Tls`] when the CA file cannot be read or holds no certificate.
pub fn rustls_config(
    ca_file: Option<&std::path::Path>,
) -> Result<std::sync::Arc<rustls::ClientConfig>, MailError> {
    let roots = root_store(ca_file)?;
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| MailError::Tls {
            server: "rustls".into(),
            reason: e.to_string(),
        })?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(std::sync::Arc::new(config))
}

fn root_store(ca_file: Option<&std::path::Path>) -> Result<rustls::RootCertStore, MailError> {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    match ca_file {
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
        Some(path) => {
            let bad = |reason: String| MailError::Tls {
                server: path.display().to_string(),
                reason,
            };
            let certs = CertificateDer::pem_file_iter(path)
                .map_err(|e| bad(format!("cannot read the ca file: {e}")))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| bad(format!("cannot read the ca file: {e}")))?;
            if certs.is_empty() {
                return Err(bad("the ca file holds no certificate".into()));
            }
            for cert in certs {
                roots
                    .add(cert)
                    .map_err(|e| bad(format!("unusable certificate: {e}")))?;
            }
        }
    }
    Ok(roots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mail_ids_round_trip_through_their_text_form() {
        for id in [
            MailId::Maildir {
                unique: "1700000000.M1P2Q3.host".into(),
            },
            MailId::Imap {
                mailbox: "Archive:2026/Done".into(),
                uid_validity: 1_700_000_000,
                uid: 42,
            },
            MailId::Memory(7),
        ] {
            assert_eq!(id.to_string().parse::<MailId>(), Ok(id.clone()), "{id}");
        }
    }

    #[test]
    fn malformed_mail_ids_are_refused() {
        for text in [
            "",
            "maildir:",
            "imap:1:2:",
            "imap:x:2:INBOX",
            "memory:-1",
            "pop:1",
        ] {
            assert!(text.parse::<MailId>().is_err(), "{text}");
        }
    }

    #[test]
    fn refused_connections_and_auth_failures_are_transient_and_a_missing_letter_is_not() {
        let refused = MailError::Connect {
            server: "127.0.0.1:1".into(),
            source: std::io::ErrorKind::ConnectionRefused.into(),
        };
        assert!(refused.is_transient());
        let auth = MailError::Auth {
            server: "s".into(),
            user: "u".into(),
            reason: "no".into(),
        };
        assert!(
            auth.is_transient(),
            "a rotated password is put right by the admin"
        );
        let missing = MailError::Io {
            path: "x".into(),
            source: std::io::ErrorKind::NotFound.into(),
        };
        assert!(!missing.is_transient());
        let outbox_gone = MailError::Deliver {
            path: "outbox/tmp/x".into(),
            source: std::io::ErrorKind::NotFound.into(),
        };
        assert!(outbox_gone.is_transient());
    }

    fn smtp(code: Option<u16>, transient: bool) -> MailError {
        MailError::Smtp {
            server: "s".into(),
            code,
            reason: "r".into(),
            transient,
        }
    }

    #[test]
    fn only_a_refusal_of_the_letter_itself_gives_it_up() {
        assert_eq!(smtp(Some(550), false).send_failure(), SendFailure::Refused);
        assert_eq!(smtp(Some(552), false).send_failure(), SendFailure::Refused);
        let bad = MailError::BadAddress {
            address: "x".into(),
            reason: "r".into(),
        };
        assert_eq!(bad.send_failure(), SendFailure::Refused);
        assert_eq!(smtp(Some(451), true).send_failure(), SendFailure::Later);
        assert_eq!(
            smtp(Some(421), true).send_failure(),
            SendFailure::ServerDown
        );
        assert_eq!(smtp(None, true).send_failure(), SendFailure::ServerDown);
        for e in [
            MailError::Auth {
                server: "s".into(),
                user: "u".into(),
                reason: "535".into(),
            },
            MailError::Tls {
                server: "s".into(),
                reason: "expired".into(),
            },
            MailError::Deliver {
                path: "outbox".into(),
                source: std::io::ErrorKind::NotFound.into(),
            },
            MailError::Settings("x".into()),
        ] {
            assert_eq!(e.send_failure(), SendFailure::ServerDown, "{e}");
        }
    }

    #[test]
    fn a_password_echoed_by_the_server_is_redacted_in_every_form() {
        let pw = Password::new("s3cret!");
        let plain = "AHpAeC50ZXN0AHMzY3JldCE="; // base64 of "\0z@x.test\0s3cret!"
        let login = "czNjcmV0IQ=="; // base64 of "s3cret!"
        let text = format!(
            "BAD [PARSE] a1 LOGIN z@x.test s3cret! | AUTH PLAIN {plain} | {login}\r\n+ more"
        );
        let shown = redact(&text, "z@x.test", &pw);
        assert!(!shown.contains("s3cret"), "{shown}");
        assert!(!shown.contains(plain) && !shown.contains(login), "{shown}");
        assert_eq!(shown.matches("<redacted>").count(), 3, "{shown}");
        assert!(!shown.contains('\r') && !shown.contains('\n'), "{shown}");
        assert!(
            shown.contains("LOGIN z@x.test"),
            "the rest is kept: {shown}"
        );
        let long = "x".repeat(1000);
        assert!(redact(&long, "u", &pw).chars().count() <= 301);
    }

    #[tokio::test]
    async fn any_inbox_and_outbox_run_on_a_spawned_task() {
        let dir = tempfile::tempdir().unwrap();
        let maildir = maildir::Maildir::open(dir.path()).unwrap();
        maildir
            .deliver_to_inbox(b"Subject: x\r\n\r\ny\r\n")
            .unwrap();
        let mut inbox = AnyInbox::Maildir(maildir.clone());
        let mut outbox = AnyOutbox::Maildir(maildir);
        let task = tokio::spawn(async move {
            let letters = inbox.fetch_new().await?;
            let mail = OutgoingMail {
                envelope_from: "zaochka@localhost".into(),
                recipients: vec!["a@b.test".into()],
                raw: letters[0].raw.clone(),
                message_id: "echo@zaochka".into(),
            };
            outbox.send(&mail).await?;
            inbox.mark_processed(&letters[0].id).await?;
            inbox.fetch_new().await
        });
        assert!(task.await.unwrap().unwrap().is_empty());
        assert_eq!(
            std::fs::read_dir(dir.path().join("outbox/new"))
                .unwrap()
                .count(),
            1
        );
    }

    #[test]
    fn the_default_config_opens_the_maildir_and_imap_settings_carry_through() {
        let dir = tempfile::tempdir().unwrap();
        let mut config = crate::config::Config::default();
        let crate::config::Transport::Maildir(m) = &mut config.transport else {
            panic!("the default is not maildir")
        };
        m.path = dir.path().join("mail");
        let (inbox, outbox) = open_transports(&config.transport, None).unwrap();
        assert!(matches!(
            (inbox, outbox),
            (AnyInbox::Maildir(_), AnyOutbox::Maildir(_))
        ));
        assert!(dir.path().join("mail/inbox/new").is_dir());

        let text = "transport = \"imap\"\n[imap]\nhost = \"mail.example.org\"\n\
                    user = \"z@example.org\"\npassword_command = \"echo pw\"\n\
                    processed_folder = \"Done\"\n[smtp]\nhost = \"mail.example.org\"";
        let config = crate::config::Config::from_toml(text).unwrap();
        let (inbox, outbox) = open_transports(&config.transport, None).unwrap();
        let shown = format!("{inbox:?} {outbox:?}");
        assert!(shown.contains("Done") && shown.contains("993"), "{shown}");
        assert!(!shown.contains("\"pw\""), "{shown}");
    }

    #[test]
    fn passwords_are_redacted_in_debug_output() {
        let shown = format!("{:?}", Password::new("hunter2"));
        assert!(!shown.contains("hunter2"), "{shown}");
    }
}
