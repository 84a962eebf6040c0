//! Shared helpers for the integration tests: the real mail stack (Dovecot + Postfix on
//! loopback, started by `scripts/test.sh`) and letters to send through it.
// Each test module uses its own part of these helpers.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use zaochka::mail::imap::ImapSettings;
use zaochka::mail::smtp::SmtpSettings;
use zaochka::mail::{OutgoingMail, Password, TlsMode};

/// The reason given to `#[ignore]` on tests that need the real mail stack.
pub const NEEDS_STACK: &str = "needs the mail stack: scripts/test.sh runs them";

/// The mail stack `scripts/mailstack/up.sh` started, as its `MAILSTACK_*` variables describe it.
#[derive(Debug, Clone)]
pub struct MailStack {
    /// The address everything listens on (127.0.0.1).
    pub host: String,
    /// The name the server certificate carries (`localhost`).
    pub tls_name: String,
    /// The stack's own test CA.
    pub ca_cert: PathBuf,
    /// IMAP (STARTTLS optional).
    pub imap: u16,
    /// IMAPS (implicit TLS).
    pub imaps: u16,
    /// SMTP like an MX (no AUTH needed for local domains).
    pub smtp: u16,
    /// Submission (AUTH required, STARTTLS optional).
    pub submission: u16,
    /// SMTPS (implicit TLS, AUTH required).
    pub smtps: u16,
    /// address → password.
    pub users: HashMap<String, String>,
}

impl MailStack {
    /// The stack from the environment. `None` when it is not configured: the caller skips,
    /// except under `MAILSTACK_REQUIRED=1` (set by `scripts/test.sh`), where a missing stack
    /// PANICS so that a test never passes without having run.
    pub fn from_env() -> Option<Self> {
        let v = |k: &str| std::env::var(k).ok().filter(|s| !s.is_empty());
        let p = |k: &str| v(k).and_then(|s| s.parse().ok());
        let stack = (|| {
            Some(MailStack {
                host: v("MAILSTACK_HOST")?,
                tls_name: v("MAILSTACK_TLS_NAME")?,
                ca_cert: v("MAILSTACK_CA_CERT")?.into(),
                imap: p("MAILSTACK_IMAP_PORT")?,
                imaps: p("MAILSTACK_IMAPS_PORT")?,
                smtp: p("MAILSTACK_SMTP_PORT")?,
                submission: p("MAILSTACK_SUBMISSION_PORT")?,
                smtps: p("MAILSTACK_SMTPS_PORT")?,
                users: v("MAILSTACK_USERS")?
                    .split_whitespace()
                    .filter_map(|up| up.split_once(':'))
                    .map(|(u, pw)| (u.to_owned(), pw.to_owned()))
                    .collect(),
            })
        })();
        if stack.is_none() {
            assert!(
                std::env::var_os("MAILSTACK_REQUIRED").is_none(),
                "MAILSTACK_REQUIRED is set but the MAILSTACK_* variables are missing or incomplete"
            );
            eprintln!("no mail stack; skipping (bash scripts/test.sh runs these tests)");
        }
        stack
    }

    /// The password of a stack user.
    pub fn password(&self, user: &str) -> Password {
        let pw = self
            .users
            .get(user)
            .unwrap_or_else(|| panic!("{user} is not a mail stack user (scripts/mailstack/up.sh)"));
        Password::new(pw.clone())
    }

    /// IMAP settings for `user`: `TlsMode::Implicit` uses IMAPS, the others the IMAP port.
    pub fn imap(&self, user: &str, tls: TlsMode) -> ImapSettings {
        let port = if tls == TlsMode::Implicit {
            self.imaps
        } else {
            self.imap
        };
        let mut s = ImapSettings::new(&self.host, port, tls, user, self.password(user));
        s.tls_name = Some(self.tls_name.clone());
        s.ca_file = Some(self.ca_cert.clone());
        s.timeout = Duration::from_secs(10);
        s
    }

    /// SMTP settings authenticating as `user`: `StartTls` → submission, `Implicit` → SMTPS,
    /// `None` → the MX-like port without AUTH.
    pub fn smtp(&self, user: &str, tls: TlsMode) -> SmtpSettings {
        let (port, auth) = match tls {
            TlsMode::None => (self.smtp, None),
            TlsMode::StartTls => (
                self.submission,
                Some((user.to_owned(), self.password(user))),
            ),
            TlsMode::Implicit => (self.smtps, Some((user.to_owned(), self.password(user)))),
        };
        SmtpSettings {
            host: self.host.clone(),
            port,
            tls,
            tls_name: Some(self.tls_name.clone()),
            auth,
            ca_file: Some(self.ca_cert.clone()),
            timeout: Duration::from_secs(10),
        }
    }

    /// UIDs in `mailbox` of `user` matching an IMAP SEARCH `query`, looked up on a separate
    /// plain connection (loopback allows plain LOGIN): an independent check of what a
    /// transport did.
    pub async fn search(&self, user: &str, mailbox: &str, query: &str) -> Vec<u32> {
        let tcp = tokio::net::TcpStream::connect((self.host.as_str(), self.imap))
            .await
            .expect("connect to IMAP");
        let mut client = async_imap::Client::new(tcp);
        client.read_response().await.expect("greeting");
        let mut session = client
            .login(user, self.password(user).expose())
            .await
            .map_err(|(e, _)| e)
            .expect("login");
        session.select(mailbox).await.expect("select");
        let mut uids: Vec<u32> = session
            .uid_search(query)
            .await
            .expect("search")
            .into_iter()
            .collect();
        uids.sort_unstable();
        let _ = session.logout().await;
        uids
    }
}

/// A Message-ID (without brackets) no other test or run uses.
pub fn unique_message_id(tag: &str) -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!(
        "{tag}.{nanos}.{}.{}@tests.zaochka",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// A complete letter from `from` to `to` with this Message-ID; `body` is put in as bytes,
/// declared as `charset` and sent as 8bit.
pub fn letter(from: &str, to: &str, message_id: &str, charset: &str, body: &[u8]) -> OutgoingMail {
    let mut raw = format!(
        "From: {from}\r\nTo: {to}\r\nSubject: test {message_id}\r\nMessage-ID: <{message_id}>\r\n\
         Date: {}\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset={charset}\r\n\
         Content-Transfer-Encoding: 8bit\r\n\r\n",
        chrono::Utc::now().to_rfc2822()
    )
    .into_bytes();
    raw.extend_from_slice(body);
    raw.extend_from_slice(b"\r\n");
    OutgoingMail {
        envelope_from: from.to_owned(),
        recipients: vec![to.to_owned()],
        raw,
        message_id: message_id.to_owned(),
    }
}
