//! Sending over SMTP with lettre (tokio, rustls with the `ring` provider): STARTTLS, implicit
//! TLS or plain, optional AUTH, a private CA as the only root when one is configured.
//!
//! The message goes out byte for byte as built (`send_raw` with an explicit envelope). After
//! any error the transport is dropped and built afresh on the next send: pooled connections
//! do not survive a server restart.

use std::path::PathBuf;
use std::time::Duration;

use lettre::address::{Address, Envelope};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, CertificateStore, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

use super::{MailError, Outbox, OutgoingMail, Password, TlsMode};

/// Where and how to send.
#[derive(Debug, Clone)]
pub struct SmtpSettings {
    /// Server host name or IP address.
    pub host: String,
    /// Server port (587 submission, 465 SMTPS, 25).
    pub port: u16,
    /// How the connection is secured.
    pub tls: TlsMode,
    /// The name the certificate must carry; defaults to `host`.
    pub tls_name: Option<String>,
    /// Login and password for AUTH; `None` sends without authenticating.
    pub auth: Option<(String, Password)>,
    /// A PEM file of root certificates to trust instead of the built-in Mozilla roots.
    pub ca_file: Option<PathBuf>,
    /// Timeout of each SMTP step.
    pub timeout: Duration,
}

/// An [`Outbox`] that sends over SMTP.
pub struct SmtpOutbox {
    settings: SmtpSettings,
    transport: Option<AsyncSmtpTransport<Tokio1Executor>>,
}

impl std::fmt::Debug for SmtpOutbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpOutbox")
            .field("settings", &self.settings)
            .field("connected", &self.transport.is_some())
            .finish()
    }
}

impl SmtpOutbox {
    /// An outbox for these settings; nothing is connected until the first send.
    ///
    /// # Errors
    /// [`MailError::Tls`] when the CA file is unusable (checked now, not at the first letter).
    pub fn new(settings: SmtpSettings) -> Result<Self, MailError> {
        let outbox = SmtpOutbox {
            settings,
            transport: None,
        };
        // the transport itself is built at the first send: lettre's pool needs the runtime
        outbox.tls()?;
        Ok(outbox)
    }

    fn server(&self) -> String {
        format!("{}:{}", self.settings.host, self.settings.port)
    }

    fn transport(&mut self) -> Result<&AsyncSmtpTransport<Tokio1Executor>, MailError> {
        if self.transport.is_none() {
            self.transport = Some(self.build()?);
        }
        // just built or kept: always Some here
        self.transport
            .as_ref()
            .ok_or_else(|| MailError::Settings("no transport".into()))
    }

    fn tls(&self) -> Result<Tls, MailError> {
        let s = &self.settings;
        let tls_error = |e: lettre::transport::smtp::Error| MailError::Tls {
            server: self.server(),
            reason: e.to_string(),
        };
        let params = || -> Result<TlsParameters, MailError> {
            let name = s.tls_name.clone().unwrap_or_else(|| s.host.clone());
            let mut builder = TlsParameters::builder(name);
            if let Some(ca) = &s.ca_file {
                let pem = std::fs::read(ca).map_err(|e| MailError::Tls {
                    server: ca.display().to_string(),
                    reason: format!("cannot read the ca file: {e}"),
                })?;
                let cert = Certificate::from_pem(&pem).map_err(|e| MailError::Tls {
                    server: ca.display().to_string(),
                    reason: e.to_string(),
                })?;
                builder = builder
                    .certificate_store(CertificateStore::None)
                    .add_root_certificate(cert);
            }
            builder.build_rustls().map_err(tls_error)
        };
        Ok(match s.tls {
            TlsMode::None => Tls::None,
            TlsMode::StartTls => Tls::Required(params()?),
            TlsMode::Implicit => Tls::Wrapper(params()?),
        })
    }

    fn build(&self) -> Result<AsyncSmtpTransport<Tokio1Executor>, MailError> {
        let s = &self.settings;
        let tls = self.tls()?;
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(s.host.clone())
            .port(s.port)
            .tls(tls)
            .timeout(Some(s.timeout));
        if let Some((user, password)) = &s.auth {
            builder =
                builder.credentials(Credentials::new(user.clone(), password.expose().to_owned()));
        }
        Ok(builder.build())
    }

    /// The transport's error, classified ([`MailError::send_failure`]): a 5xx reply refuses
    /// the letter; an authentication failure (530, 534, 535, 538) is [`MailError::Auth`]; a
    /// refused certificate [`MailError::Tls`]; 4xx, connection, i/o and client errors are
    /// transient. The server's words are redacted ([`super::redact`]).
    fn error(&self, e: &lettre::transport::smtp::Error) -> MailError {
        let code = e.status().map(|c| {
            // a Code displays as its three digits
            c.to_string().parse().unwrap_or(0)
        });
        let (user, password) = match &self.settings.auth {
            Some((user, password)) => (user.as_str(), password.clone()),
            None => ("", Password::default()),
        };
        let reason = super::redact(&e.to_string(), user, &password);
        if matches!(code, Some(530 | 534 | 535 | 538)) {
            return MailError::Auth {
                server: self.server(),
                user: user.to_owned(),
                reason,
            };
        }
        if is_certificate_problem(e) || e.is_tls() {
            return MailError::Tls {
                server: self.server(),
                reason,
            };
        }
        MailError::Smtp {
            server: self.server(),
            code,
            reason,
            // only a 5xx reply is final; a garbled answer or a dropped connection may pass
            transient: !e.is_permanent(),
        }
    }
}

/// With implicit TLS lettre reports a refused certificate as a connection error; the rustls
/// error (or the `InvalidData` i/o error carrying it) down the source chain tells them apart.
fn is_certificate_problem(e: &lettre::transport::smtp::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(e);
    while let Some(err) = source {
        if err.downcast_ref::<rustls::Error>().is_some() {
            return true;
        }
        if let Some(io) = err.downcast_ref::<std::io::Error>()
            && io.kind() == std::io::ErrorKind::InvalidData
        {
            return true;
        }
        source = err.source();
    }
    false
}

impl Drop for SmtpOutbox {
    fn drop(&mut self) {
        // lettre's connection pool spawns a tokio task when dropped, and panics outside a
        // runtime; an outbox dropped after its runtime is gone leaks the pool instead (the
        // process is ending anyway)
        if tokio::runtime::Handle::try_current().is_err()
            && let Some(transport) = self.transport.take()
        {
            std::mem::forget(transport);
        }
    }
}

fn address(text: &str) -> Result<Address, MailError> {
    text.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .parse()
        .map_err(|e: lettre::address::AddressError| MailError::BadAddress {
            address: text.to_owned(),
            reason: e.to_string(),
        })
}

impl Outbox for SmtpOutbox {
    async fn send(&mut self, mail: &OutgoingMail) -> Result<(), MailError> {
        let from = if mail.envelope_from.trim().is_empty() {
            None // the null sender <>, as bounces use
        } else {
            Some(address(&mail.envelope_from)?)
        };
        let to = mail
            .recipients
            .iter()
            .map(|r| address(r))
            .collect::<Result<Vec<_>, _>>()?;
        let envelope = Envelope::new(from, to).map_err(|e| MailError::BadAddress {
            address: mail.recipients.join(", "),
            reason: e.to_string(),
        })?;
        // lettre appends "\r\n.\r\n" itself: without this the body would gain an empty line
        let raw = mail.raw.strip_suffix(b"\r\n").unwrap_or(&mail.raw);
        let result = self.transport()?.send_raw(&envelope, raw).await;
        match result {
            Ok(_) => Ok(()),
            Err(e) => {
                let err = self.error(&e);
                tracing::warn!(server = %self.server(), message_id = %mail.message_id, error = %err, "smtp send failed");
                self.transport = None;
                Err(err)
            }
        }
    }
}
