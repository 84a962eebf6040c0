//! Reading the tournament mailbox over IMAP (async-imap, tokio, rustls with `ring`).
//!
//! - TLS: implicit (IMAPS), STARTTLS, or none (loopback tests); a private CA file as the only
//!   root, or the Mozilla roots of `webpki-roots`.
//! - Fetch by UID: the mailbox's UIDVALIDITY and its *resume point* are kept here: the lowest
//!   UID that may still be unprocessed (every letter below it was marked processed; a letter
//!   returned by a fetch but not marked yet, e.g. one whose sender check waits for the DNS,
//!   holds the point at its UID). The point is exposed ([`Inbox::resume_point`]) for the store
//!   to persist and given back after a restart ([`Inbox::resume_from`]). After a
//!   (re)connection the mailbox is searched from the resume point, not from UID 1, so a
//!   mailbox keeping years of processed letters costs only its new ones; letters returned
//!   before but not marked come again (a crash between storing a letter and marking it loses
//!   nothing). A changed UIDVALIDITY forgets the point: the mailbox is read from the start and
//!   the store recognises letters it already has by Message-ID. `UID FETCH n:*` returns the
//!   last message even when `n` is beyond it, so results are filtered.
//! - The postmark is the message's INTERNALDATE; the body is fetched with `BODY.PEEK[]`, byte
//!   for byte, without setting `\Seen`.
//! - Processed letters get `\Seen` and the keyword [`PROCESSED_KEYWORD`]; with a processed
//!   folder configured they are then moved there (`MOVE`, or copy + expunge without it). The
//!   folder is created when missing.
//! - Waiting uses IDLE, re-issued well before the 29 minutes after which servers may drop it
//!   (RFC 2177), and a poll when the server has no IDLE.
//! - A broken connection is dropped; the next call reconnects, after a backoff (1 s doubling
//!   to 60 s) that [`Inbox::wait_for_mail`] sleeps through.

use std::collections::BTreeSet;
use std::io;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use async_imap::Session;
use async_imap::error::Error as ImapError;
use chrono::Utc;
use futures::TryStreamExt;
use rustls::pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Instant;

use super::{Inbox, IncomingMail, MailError, MailId, Password, ResumePoint, TlsMode};

/// The keyword set on every processed letter (besides `\Seen`).
pub const PROCESSED_KEYWORD: &str = "ZaochkaProcessed";

/// How many messages one `UID FETCH` asks for.
const FETCH_CHUNK: usize = 100;

/// Where and how to read.
#[derive(Debug, Clone)]
pub struct ImapSettings {
    /// Server host name or IP address.
    pub host: String,
    /// Server port (993 IMAPS, 143 IMAP).
    pub port: u16,
    /// How the connection is secured.
    pub tls: TlsMode,
    /// The name the certificate must carry; defaults to `host`.
    pub tls_name: Option<String>,
    /// Login name.
    pub user: String,
    /// Password (redacted in `Debug`).
    pub password: Password,
    /// A PEM file of root certificates to trust instead of the built-in Mozilla roots.
    pub ca_file: Option<PathBuf>,
    /// The mailbox letters arrive in (usually `INBOX`).
    pub mailbox: String,
    /// Where processed letters go; `None` leaves them in the mailbox, flagged.
    pub processed_folder: Option<String>,
    /// How long one IDLE lasts before it is re-issued (at most 28 minutes is used).
    pub idle_renew: Duration,
    /// How often to look when the server has no IDLE.
    pub poll: Duration,
    /// Timeout of each network step.
    pub timeout: Duration,
    /// At most this many letters per [`Inbox::fetch_new`]: a full mailbox is read in parts
    /// rather than all in memory at once.
    pub max_per_fetch: usize,
}

impl ImapSettings {
    /// Settings with the usual defaults: `INBOX`, no processed folder, IDLE renewed every 25
    /// minutes, a 60 s poll, a 30 s timeout, 500 letters per fetch.
    pub fn new(
        host: impl Into<String>,
        port: u16,
        tls: TlsMode,
        user: impl Into<String>,
        password: Password,
    ) -> Self {
        ImapSettings {
            host: host.into(),
            port,
            tls,
            tls_name: None,
            user: user.into(),
            password,
            ca_file: None,
            mailbox: "INBOX".into(),
            processed_folder: None,
            idle_renew: Duration::from_secs(25 * 60),
            poll: Duration::from_secs(60),
            timeout: Duration::from_secs(30),
            max_per_fetch: 500,
        }
    }
}

/// The stream under the IMAP client: plain TCP or TLS over TCP.
#[derive(Debug)]
enum Stream {
    Plain(TcpStream),
    Tls(Box<tokio_rustls::client::TlsStream<TcpStream>>),
}

impl AsyncRead for Stream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_flush(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

/// An [`Inbox`] on an IMAP mailbox.
pub struct ImapInbox {
    settings: ImapSettings,
    tls_config: Arc<rustls::ClientConfig>,
    session: Option<Session<Stream>>,
    uid_validity: Option<u32>,
    next_uid: u32,
    /// UIDs returned by a fetch and not marked processed since.
    outstanding: BTreeSet<u32>,
    /// Where the next search starts: the resume point after every new connection, the rest
    /// of a search cut at `max_per_fetch`, else `next_uid`.
    scan_from: u32,
    has_idle: bool,
    has_move: bool,
    failures: u32,
    retry_at: Option<Instant>,
}

impl std::fmt::Debug for ImapInbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImapInbox")
            .field("settings", &self.settings)
            .field("connected", &self.session.is_some())
            .field("uid_validity", &self.uid_validity)
            .field("next_uid", &self.next_uid)
            .finish_non_exhaustive()
    }
}

impl ImapInbox {
    /// An inbox for these settings; nothing is connected until the first call.
    ///
    /// # Errors
    /// [`MailError::Tls`] when the CA file is unusable.
    pub fn new(settings: ImapSettings) -> Result<Self, MailError> {
        let tls_config = super::rustls_config(settings.ca_file.as_deref())?;
        Ok(ImapInbox {
            settings,
            tls_config,
            session: None,
            uid_validity: None,
            next_uid: 1,
            outstanding: BTreeSet::new(),
            scan_from: 1,
            has_idle: false,
            has_move: false,
            failures: 0,
            retry_at: None,
        })
    }

    /// The lowest UID that may still be unprocessed (see the module docs).
    fn low_water(&self) -> u32 {
        self.outstanding
            .first()
            .copied()
            .unwrap_or(self.next_uid)
            .min(self.next_uid)
    }

    /// The key under which the store keeps this mailbox's resume point: the account and the
    /// mailbox, so that pointing the daemon at another server or mailbox starts afresh.
    fn key(&self) -> String {
        format!(
            "imap://{}@{}:{}/{}",
            self.settings.user, self.settings.host, self.settings.port, self.settings.mailbox
        )
    }

    /// Connects and logs in now (the first fetch would do it anyway): lets a caller check the
    /// settings at start-up.
    ///
    /// # Errors
    /// As [`Inbox::fetch_new`].
    pub async fn connect(&mut self) -> Result<(), MailError> {
        self.ensure_connected().await
    }

    /// Logs out and closes the connection, if there is one.
    pub async fn logout(&mut self) {
        if let Some(mut session) = self.session.take() {
            let _ = tokio::time::timeout(self.settings.timeout, session.logout()).await;
        }
    }

    fn server(&self) -> String {
        format!("{}:{}", self.settings.host, self.settings.port)
    }

    /// A server's words made safe to show: a server that echoes the LOGIN line would
    /// otherwise put the password in the log.
    fn redact(&self, text: &str) -> String {
        super::redact(text, &self.settings.user, &self.settings.password)
    }

    fn timeout_error(&self, what: &str) -> MailError {
        MailError::Timeout {
            server: self.server(),
            what: what.to_owned(),
            seconds: self.settings.timeout.as_secs(),
        }
    }

    fn imap_error(&self, command: &str, e: ImapError) -> MailError {
        let transient = match &e {
            ImapError::Io(_) | ImapError::ConnectionLost | ImapError::Parse(_) => true,
            // RFC 5530 codes for "try again later" (e.g. the server's auth process is down)
            ImapError::No(text) | ImapError::Bad(text) => {
                text.contains("[INUSE]") || text.contains("[UNAVAILABLE]")
            }
            _ => false,
        };
        MailError::Imap {
            server: self.server(),
            command: command.to_owned(),
            reason: self.redact(&e.to_string()),
            transient,
        }
    }

    async fn ensure_connected(&mut self) -> Result<(), MailError> {
        if self.session.is_some() {
            return Ok(());
        }
        match self.open_session().await {
            Ok(session) => {
                self.session = Some(session);
                self.failures = 0;
                self.retry_at = None;
                self.scan_from = self.low_water();
                Ok(())
            }
            Err(e) => {
                self.failures = self.failures.saturating_add(1);
                // 1 s, 2 s, 4 s ... 60 s
                let wait = Duration::from_secs(1 << (self.failures - 1).min(6))
                    .min(Duration::from_secs(60));
                self.retry_at = Some(Instant::now() + wait);
                tracing::warn!(server = %self.server(), error = %e, retry_in_s = wait.as_secs(), "imap connection failed");
                Err(e)
            }
        }
    }

    async fn tls_handshake(
        &self,
        tcp: TcpStream,
    ) -> Result<tokio_rustls::client::TlsStream<TcpStream>, MailError> {
        let name = self
            .settings
            .tls_name
            .clone()
            .unwrap_or_else(|| self.settings.host.clone());
        let server_name = ServerName::try_from(name.clone()).map_err(|e| MailError::Tls {
            server: self.server(),
            reason: format!("bad tls name '{name}': {e}"),
        })?;
        let connector = tokio_rustls::TlsConnector::from(self.tls_config.clone());
        match tokio::time::timeout(self.settings.timeout, connector.connect(server_name, tcp)).await
        {
            Err(_) => Err(self.timeout_error("the tls handshake")),
            Ok(Err(e)) => {
                // certificate problems come as InvalidData; a reset during the handshake is not
                // the certificate's fault
                let transient = !matches!(e.kind(), io::ErrorKind::InvalidData);
                if transient {
                    Err(MailError::Connect {
                        server: self.server(),
                        source: e,
                    })
                } else {
                    Err(MailError::Tls {
                        server: self.server(),
                        reason: e.to_string(),
                    })
                }
            }
            Ok(Ok(tls)) => Ok(tls),
        }
    }

    async fn open_session(&mut self) -> Result<Session<Stream>, MailError> {
        let t = self.settings.timeout;
        let server = self.server();
        let tcp = match tokio::time::timeout(
            t,
            TcpStream::connect((self.settings.host.as_str(), self.settings.port)),
        )
        .await
        {
            Err(_) => return Err(self.timeout_error("the connection")),
            Ok(Err(source)) => return Err(MailError::Connect { server, source }),
            Ok(Ok(tcp)) => tcp,
        };
        let _ = tcp.set_nodelay(true);
        let stream = match self.settings.tls {
            TlsMode::None => Stream::Plain(tcp),
            TlsMode::Implicit => Stream::Tls(Box::new(self.tls_handshake(tcp).await?)),
            TlsMode::StartTls => {
                let mut client = async_imap::Client::new(tcp);
                self.read_greeting(&mut client).await?;
                match tokio::time::timeout(t, client.run_command_and_check_ok("STARTTLS", None))
                    .await
                {
                    Err(_) => return Err(self.timeout_error("STARTTLS")),
                    Ok(Err(e)) => {
                        let mut err = self.imap_error("STARTTLS", e);
                        if let MailError::Imap { transient, .. } = &mut err {
                            // a server without STARTTLS will not grow it by waiting
                            *transient = false;
                        }
                        return Err(err);
                    }
                    Ok(Ok(())) => {}
                }
                Stream::Tls(Box::new(self.tls_handshake(client.into_inner()).await?))
            }
        };
        let mut client = async_imap::Client::new(stream);
        if self.settings.tls != TlsMode::StartTls {
            // after STARTTLS the server sends no second greeting
            self.read_greeting(&mut client).await?;
        }
        let login = client.login(&self.settings.user, self.settings.password.expose());
        let mut session = match tokio::time::timeout(t, login).await {
            Err(_) => return Err(self.timeout_error("LOGIN")),
            Ok(Err((ImapError::No(reason) | ImapError::Bad(reason), _)))
                if !reason.contains("[UNAVAILABLE]") && !reason.contains("[INUSE]") =>
            {
                return Err(MailError::Auth {
                    server,
                    user: self.settings.user.clone(),
                    reason: self.redact(&reason),
                });
            }
            Ok(Err((e, _))) => return Err(self.imap_error("LOGIN", e)),
            Ok(Ok(session)) => session,
        };
        let caps = match tokio::time::timeout(t, session.capabilities()).await {
            Err(_) => return Err(self.timeout_error("CAPABILITY")),
            Ok(Err(e)) => return Err(self.imap_error("CAPABILITY", e)),
            Ok(Ok(caps)) => caps,
        };
        self.has_idle = caps.has_str("IDLE");
        self.has_move = caps.has_str("MOVE");
        if let Some(folder) = self.settings.processed_folder.clone() {
            // NO [ALREADYEXISTS] is the usual answer and fine; a real problem shows at MOVE
            match tokio::time::timeout(t, session.create(&folder)).await {
                Err(_) => return Err(self.timeout_error("CREATE")),
                Ok(Err(ImapError::No(_))) | Ok(Ok(())) => {}
                Ok(Err(e)) => return Err(self.imap_error("CREATE", e)),
            }
        }
        let mailbox = match tokio::time::timeout(t, session.select(&self.settings.mailbox)).await {
            Err(_) => return Err(self.timeout_error("SELECT")),
            Ok(Err(e)) => return Err(self.imap_error("SELECT", e)),
            Ok(Ok(mailbox)) => mailbox,
        };
        let validity = mailbox.uid_validity.unwrap_or(0);
        if self.uid_validity.is_some_and(|v| v != validity) {
            tracing::warn!(
                mailbox = %self.settings.mailbox,
                old = ?self.uid_validity,
                new = validity,
                "UIDVALIDITY changed: reading the mailbox from the start"
            );
            self.next_uid = 1;
            self.outstanding.clear();
        }
        self.uid_validity = Some(validity);
        tracing::debug!(server = %self.server(), user = %self.settings.user, uid_validity = validity, "imap connected");
        Ok(session)
    }

    async fn read_greeting<T>(&self, client: &mut async_imap::Client<T>) -> Result<(), MailError>
    where
        T: AsyncRead + AsyncWrite + Unpin + std::fmt::Debug + Send,
    {
        match tokio::time::timeout(self.settings.timeout, client.read_response()).await {
            Err(_) => Err(self.timeout_error("the greeting")),
            Ok(Err(source)) => Err(MailError::Connect {
                server: self.server(),
                source,
            }),
            Ok(Ok(None)) => Err(MailError::Connect {
                server: self.server(),
                source: io::ErrorKind::UnexpectedEof.into(),
            }),
            Ok(Ok(Some(_))) => Ok(()),
        }
    }

    /// UIDs at or after `from` not marked processed, ascending.
    async fn search_from(&mut self, from: u32) -> Result<Vec<u32>, MailError> {
        let query = format!("UID {from}:* NOT DELETED UNKEYWORD {PROCESSED_KEYWORD}");
        let t = self.settings.timeout;
        let Some(session) = self.session.as_mut() else {
            return Err(self.imap_error("UID SEARCH", ImapError::ConnectionLost));
        };
        let found = tokio::time::timeout(t, session.uid_search(&query)).await;
        let found = match found {
            Err(_) => return Err(self.timeout_error("UID SEARCH")),
            Ok(Err(e)) => return Err(self.imap_error("UID SEARCH", e)),
            Ok(Ok(found)) => found,
        };
        let mut uids: Vec<u32> = found.into_iter().filter(|&u| u >= from).collect();
        uids.sort_unstable();
        Ok(uids)
    }

    async fn fetch_uids(&mut self, uids: &[u32]) -> Result<Vec<IncomingMail>, MailError> {
        let t = self.settings.timeout;
        let mailbox = self.settings.mailbox.clone();
        let uid_validity = self.uid_validity.unwrap_or(0);
        let mut out = Vec::with_capacity(uids.len());
        for chunk in uids.chunks(FETCH_CHUNK) {
            let set = chunk
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",");
            let Some(session) = self.session.as_mut() else {
                return Err(self.imap_error("UID FETCH", ImapError::ConnectionLost));
            };
            let fetched = tokio::time::timeout(t, async {
                session
                    .uid_fetch(&set, "(UID INTERNALDATE BODY.PEEK[])")
                    .await?
                    .try_collect::<Vec<_>>()
                    .await
            })
            .await;
            let fetched = match fetched {
                Err(_) => return Err(self.timeout_error("UID FETCH")),
                Ok(Err(e)) => return Err(self.imap_error("UID FETCH", e)),
                Ok(Ok(f)) => f,
            };
            for f in fetched {
                let (Some(uid), Some(body)) = (f.uid, f.body()) else {
                    continue; // an unsolicited FLAGS update, not a message
                };
                if !chunk.contains(&uid) {
                    continue;
                }
                let received = match f.internal_date() {
                    Some(d) => d.with_timezone(&Utc),
                    None => {
                        tracing::warn!(uid, "no INTERNALDATE; using the current time");
                        Utc::now()
                    }
                };
                out.push(IncomingMail {
                    id: MailId::Imap {
                        mailbox: mailbox.clone(),
                        uid_validity,
                        uid,
                    },
                    raw: body.to_vec(),
                    received,
                });
            }
        }
        out.sort_by_key(|m| match m.id {
            MailId::Imap { uid, .. } => uid,
            _ => 0,
        });
        Ok(out)
    }

    async fn fetch_connected(&mut self) -> Result<Vec<IncomingMail>, MailError> {
        let uids = self.search_from(self.scan_from).await?;
        let batch = &uids[..uids.len().min(self.settings.max_per_fetch.max(1))];
        let letters = self.fetch_uids(batch).await?;
        for m in &letters {
            if let MailId::Imap { uid, .. } = m.id {
                self.outstanding.insert(uid);
            }
        }
        match batch.last() {
            Some(&last) => {
                self.next_uid = self.next_uid.max(last.saturating_add(1));
                self.scan_from = if uids.len() > batch.len() {
                    last.saturating_add(1) // the rest on the next call
                } else {
                    self.next_uid
                };
            }
            None => self.scan_from = self.next_uid,
        }
        Ok(letters)
    }

    async fn mark_connected(&mut self, uid: u32) -> Result<(), MailError> {
        let t = self.settings.timeout;
        let folder = self.settings.processed_folder.clone();
        let has_move = self.has_move;
        let Some(session) = self.session.as_mut() else {
            return Err(self.imap_error("UID STORE", ImapError::ConnectionLost));
        };
        let uid = uid.to_string();
        let result: Result<(), (&str, ImapError)> = tokio::time::timeout(t, async {
            let flags = format!("+FLAGS.SILENT (\\Seen {PROCESSED_KEYWORD})");
            session
                .uid_store(&uid, &flags)
                .await
                .map_err(|e| ("UID STORE", e))?
                .try_collect::<Vec<_>>()
                .await
                .map_err(|e| ("UID STORE", e))?;
            let Some(folder) = folder else {
                return Ok(());
            };
            if has_move {
                session
                    .uid_mv(&uid, &folder)
                    .await
                    .map_err(|e| ("UID MOVE", e))?;
            } else {
                session
                    .uid_copy(&uid, &folder)
                    .await
                    .map_err(|e| ("UID COPY", e))?;
                session
                    .uid_store(&uid, "+FLAGS.SILENT (\\Deleted)")
                    .await
                    .map_err(|e| ("UID STORE", e))?
                    .try_collect::<Vec<_>>()
                    .await
                    .map_err(|e| ("UID STORE", e))?;
                session
                    .uid_expunge(&uid)
                    .await
                    .map_err(|e| ("UID EXPUNGE", e))?
                    .try_collect::<Vec<_>>()
                    .await
                    .map_err(|e| ("UID EXPUNGE", e))?;
            }
            Ok(())
        })
        .await
        .unwrap_or(Err(("timeout", ImapError::ConnectionLost)));
        match result {
            Ok(()) => Ok(()),
            Err(("timeout", _)) => Err(self.timeout_error("marking a letter processed")),
            Err((command, e)) => Err(self.imap_error(command, e)),
        }
    }

    async fn idle_connected(&mut self, max: Duration) -> Result<(), MailError> {
        let t = self.settings.timeout;
        let Some(session) = self.session.take() else {
            return Ok(());
        };
        let mut idle = session.idle();
        match tokio::time::timeout(t, idle.init()).await {
            Err(_) => return Err(self.timeout_error("IDLE")),
            Ok(Err(e)) => return Err(self.imap_error("IDLE", e)),
            Ok(Ok(())) => {}
        }
        // RFC 2177: servers may drop an IDLE after 29 minutes; stay well below
        let span = max
            .min(self.settings.idle_renew)
            .min(Duration::from_secs(28 * 60));
        {
            let (wait, _stop) = idle.wait_with_timeout(span);
            // keepalives ("* OK Still here") restart the inner timeout: bound it from outside
            match tokio::time::timeout(span, wait).await {
                Err(_) | Ok(Ok(_)) => {}
                Ok(Err(e)) => return Err(self.imap_error("IDLE", e)),
            }
        }
        match tokio::time::timeout(t, idle.done()).await {
            Err(_) => Err(self.timeout_error("DONE")),
            Ok(Err(e)) => Err(self.imap_error("DONE", e)),
            Ok(Ok(session)) => {
                self.session = Some(session);
                Ok(())
            }
        }
    }

    /// Drops the connection after an error that may have left it unusable.
    fn after_error(&mut self, e: &MailError) {
        if !matches!(e, MailError::NotFound { .. }) {
            self.session = None;
        }
    }
}

impl Inbox for ImapInbox {
    async fn fetch_new(&mut self) -> Result<Vec<IncomingMail>, MailError> {
        self.ensure_connected().await?;
        let result = self.fetch_connected().await;
        if let Err(e) = &result {
            self.after_error(e);
        }
        result
    }

    async fn mark_processed(&mut self, id: &MailId) -> Result<(), MailError> {
        let MailId::Imap {
            mailbox,
            uid_validity,
            uid,
        } = id
        else {
            return Err(MailError::NotFound { id: id.clone() });
        };
        self.ensure_connected().await?;
        if *mailbox != self.settings.mailbox || Some(*uid_validity) != self.uid_validity {
            return Err(MailError::NotFound { id: id.clone() });
        }
        let result = self.mark_connected(*uid).await;
        match &result {
            Ok(()) => {
                self.outstanding.remove(uid);
            }
            Err(e) => self.after_error(e),
        }
        result
    }

    fn resume_point(&self) -> Option<ResumePoint> {
        Some(ResumePoint {
            key: self.key(),
            uid_validity: self.uid_validity?,
            last_uid: self.low_water() - 1,
        })
    }

    fn resume_key(&self) -> Option<String> {
        Some(self.key())
    }

    fn resume_from(&mut self, point: &ResumePoint) {
        if point.key != self.key() || self.session.is_some() {
            return;
        }
        self.uid_validity = Some(point.uid_validity);
        self.next_uid = point.last_uid.saturating_add(1).max(1);
        self.outstanding.clear();
        self.scan_from = self.next_uid;
        tracing::info!(mailbox = %point.key, uid_validity = point.uid_validity, from_uid = self.next_uid, "imap: resuming where the last run stopped");
    }

    async fn wait_for_mail(&mut self, max: Duration) -> Result<(), MailError> {
        let deadline = Instant::now() + max;
        if self.session.is_none() {
            if let Some(at) = self.retry_at
                && at > Instant::now()
            {
                tokio::time::sleep_until(at.min(deadline)).await;
                return Ok(());
            }
            self.ensure_connected().await?;
        }
        // mail that came since the last fetch (or that is waiting after a reconnect)
        let pending = match self.search_from(self.scan_from).await {
            Ok(uids) => !uids.is_empty(),
            Err(e) => {
                self.after_error(&e);
                return Err(e);
            }
        };
        if pending {
            return Ok(());
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if !self.has_idle {
            tokio::time::sleep(left.min(self.settings.poll)).await;
            return Ok(());
        }
        let result = self.idle_connected(left).await;
        if let Err(e) = &result {
            self.after_error(e);
        }
        result
    }
}
