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

impl MailStack {
    /// Takes the processed marks (`\\Seen` and zaochka's keyword) off a message, on a separate
    /// plain connection: the letter looks new to a search of the whole mailbox.
    pub async fn unmark(&self, user: &str, mailbox: &str, uid: u32) {
        use futures::TryStreamExt;
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
        let flags = format!(
            "-FLAGS.SILENT (\\Seen {})",
            zaochka::mail::imap::PROCESSED_KEYWORD
        );
        session
            .uid_store(uid.to_string(), &flags)
            .await
            .expect("store")
            .try_collect::<Vec<_>>()
            .await
            .expect("store");
        let _ = session.logout().await;
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

/// A mail stack of one test's own (its own directory and ports), for tests that stop and
/// restart the servers, which would disturb every other test on the shared stack. Needs root
/// and the packages, like the shared one; stopped and deleted on drop.
#[derive(Debug)]
pub struct PrivateStack {
    /// How to reach it.
    pub stack: MailStack,
    dir: PathBuf,
}

impl PrivateStack {
    /// Starts a private stack on the first free port base of 41000, 42000, ... 49000.
    /// `None` (skip) when there is no shared stack either, i.e. not under `scripts/test.sh`;
    /// a failure to start is a panic.
    pub fn start(tag: &str) -> Option<Self> {
        MailStack::from_env()?;
        let dir = PathBuf::from(format!("/tmp/zaochka-{tag}-{}", std::process::id()));
        for base in (41_000..=49_000).step_by(1000) {
            let free = [25, 143, 465, 587, 993]
                .iter()
                .all(|o| std::net::TcpListener::bind(("127.0.0.1", base + o)).is_ok());
            if !free {
                continue;
            }
            let out = script("up.sh")
                .arg(&dir)
                .env("MAILSTACK_PORT_BASE", base.to_string())
                .env("MAILSTACK_QUIET", "1")
                .output()
                .expect("run scripts/mailstack/up.sh");
            if !out.status.success() {
                eprintln!(
                    "private stack on {base}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                let _ = down(&dir, false);
                continue;
            }
            let env = String::from_utf8_lossy(&out.stdout);
            let get = |k: &str| {
                env.lines()
                    .find_map(|l| l.strip_prefix(&format!("{k}=")))
                    .map(|v| v.trim_matches('"').to_owned())
                    .unwrap_or_else(|| panic!("{k} missing from up.sh's output"))
            };
            let port = |k: &str| get(k).parse().expect("a port");
            let stack = MailStack {
                host: get("MAILSTACK_HOST"),
                tls_name: get("MAILSTACK_TLS_NAME"),
                ca_cert: get("MAILSTACK_CA_CERT").into(),
                imap: port("MAILSTACK_IMAP_PORT"),
                imaps: port("MAILSTACK_IMAPS_PORT"),
                smtp: port("MAILSTACK_SMTP_PORT"),
                submission: port("MAILSTACK_SUBMISSION_PORT"),
                smtps: port("MAILSTACK_SMTPS_PORT"),
                users: get("MAILSTACK_USERS")
                    .split_whitespace()
                    .filter_map(|up| up.split_once(':'))
                    .map(|(u, pw)| (u.to_owned(), pw.to_owned()))
                    .collect(),
            };
            return Some(PrivateStack { stack, dir });
        }
        let _ = down(&dir, true);
        panic!("could not start a private mail stack on any port base 41000..49000");
    }

    /// Stops Postfix only (SMTP down, IMAP up).
    pub fn stop_smtp(&self) {
        let status = std::process::Command::new("postfix")
            .arg("-c")
            .arg(self.dir.join("postfix"))
            .arg("stop")
            .output()
            .expect("run postfix stop");
        assert!(status.status.success(), "postfix stop: {status:?}");
    }

    /// Stops both servers (connections drop).
    pub fn stop(&self) {
        assert!(down(&self.dir, false), "down.sh failed");
    }

    /// Starts what is stopped again (up.sh restarts the whole stack when a part is down).
    pub fn restart(&self) {
        let out = script("up.sh")
            .arg(&self.dir)
            .env("MAILSTACK_PORT_BASE", (self.stack.smtp - 25).to_string())
            .env("MAILSTACK_QUIET", "1")
            .output()
            .expect("run scripts/mailstack/up.sh");
        assert!(
            out.status.success(),
            "up.sh: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for PrivateStack {
    fn drop(&mut self) {
        let _ = down(&self.dir, true);
    }
}

/// `bash scripts/mailstack/NAME` without the shared stack's variables (which would override
/// the private stack's ports and directory).
fn script(name: &str) -> std::process::Command {
    let mut cmd = std::process::Command::new("bash");
    cmd.arg(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("scripts/mailstack")
            .join(name),
    );
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("MAILSTACK_") {
            cmd.env_remove(key);
        }
    }
    cmd
}

fn down(dir: &std::path::Path, purge: bool) -> bool {
    let mut cmd = script("down.sh");
    cmd.arg(dir);
    if purge {
        cmd.arg("--purge");
    }
    cmd.output().map(|o| o.status.success()).unwrap_or(false)
}

/// DKIM for the tests: every letter signed by its From domain with a fixed test key (as the
/// sender's provider would), and the published keys as a `dns_records` table or file.
#[derive(Default)]
pub struct Dkim {
    /// The published keys, one per domain signed so far.
    pub table: zaochka::mail::auth::DnsTable,
    records: Vec<String>,
}

/// The players' fixed RSA test key (tests/data/auth).
pub const TEST_KEY: &str = include_str!("data/auth/players.rsa.pem");

impl Dkim {
    /// `raw` signed by the domain of its From address (selector `s1`), in its own line ends.
    pub fn sign(&mut self, raw: &[u8]) -> Vec<u8> {
        let parsed = zaochka::mail::mime::parse(raw).expect("a message");
        let from = parsed.from.expect("one From address").address;
        let domain = from
            .rsplit_once('@')
            .expect("an address")
            .1
            .to_ascii_lowercase();
        let signer = zaochka::mail::auth::Signer::rsa_pem(&domain, "s1", TEST_KEY).unwrap();
        let record = signer.dns_record();
        if !self.records.contains(&record) {
            let (name, text) = record.split_once(' ').unwrap();
            self.table.insert(name, text);
            self.records.push(record);
        }
        signer.sign(raw).unwrap()
    }

    /// Publishes the test key for `domain` without signing anything.
    pub fn publish(&mut self, domain: &str) {
        let signer = zaochka::mail::auth::Signer::rsa_pem(domain, "s1", TEST_KEY).unwrap();
        let record = signer.dns_record();
        if !self.records.contains(&record) {
            let (name, text) = record.split_once(' ').unwrap();
            self.table.insert(name, text);
            self.records.push(record);
        }
    }

    /// The `dns_records` file text of every key published so far.
    pub fn file_text(&self) -> String {
        self.records.iter().map(|r| format!("{r}\n")).collect()
    }

    /// Checks a letter as the daemon would, in `config`'s mode with this table.
    pub fn verify(
        &self,
        config: &zaochka::config::AuthConfig,
        raw: &[u8],
    ) -> zaochka::mail::auth::Authentication {
        let verifier =
            zaochka::mail::auth::Verifier::with_table(config, self.table.clone()).unwrap();
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(verifier.verify(raw))
    }
}

/// `raw` signed by its From domain with [`TEST_KEY`] (selector `s1`): what the sender's
/// provider does before a letter leaves it.
pub fn signed_by_provider(raw: &[u8]) -> Vec<u8> {
    Dkim::default().sign(raw)
}

/// A `dns_records` file (in cargo's test scratch directory) publishing [`TEST_KEY`] for the
/// mail stack's domains: what the daemons of the end-to-end tests use instead of DNS.
pub fn stack_dns_records() -> PathBuf {
    static FILE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    FILE.get_or_init(|| {
        let mut dkim = Dkim::default();
        for d in [
            "tests.test",
            "players.test",
            "federation.test",
            "tournament.test",
        ] {
            dkim.publish(d);
        }
        let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("stack_dns_records");
        std::fs::write(&path, dkim.file_text()).expect("write the dns_records file");
        path
    })
    .clone()
}

/// A raw letter as the database keeps it (`raw`, `raw_zlib`): deflated in the zlib format
/// when `raw_zlib` is 1, as it came when 0 (migration 6).
pub fn stored_raw(blob: Vec<u8>, zlib: bool) -> Vec<u8> {
    use std::io::Read as _;
    if !zlib {
        return blob;
    }
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&blob[..])
        .read_to_end(&mut raw)
        .expect("a stored letter inflates");
    raw
}
