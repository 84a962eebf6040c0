//! Mail transports and MIME reading: the `Inbox`/`Outbox` traits, `IncomingMail`, and the
//! IMAP, SMTP, Maildir and in-memory transports. Knows no domain module.

pub mod mime;
