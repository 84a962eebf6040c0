//! `zaochka letter read FILE|-`.

use std::io::Read;

use anyhow::Context;
use serde::Serialize;

use super::{CliResult, refused};
use crate::letter::{Letter, ReadContext};
use crate::mail::auth::{Authentication, Verifier};
use crate::mail::mime::{self, AutoReason, MimeError, ParsedMail};

/// What `letter read` prints: the [`Letter`] (issue 3's JSON), then whether the mail is
/// automatic (never answered), then what the sender check found (issue 10).
#[derive(Debug, Serialize)]
pub struct Reading<'a> {
    /// The letter as read.
    #[serde(flatten)]
    pub letter: &'a Letter,
    /// Why the mail is automatic, or `null`.
    pub automatic: Option<&'a AutoReason>,
    /// The sender check as `[auth]` says (mode, result, signing domain, reason); left out
    /// when not checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authentication: Option<&'a Authentication>,
}

/// Reads a raw message: MIME first, then the letter in its text, with the sender, subject
/// and date from the headers as the [`ReadContext`].
///
/// # Errors
/// [`MimeError`] when the bytes are not a mail message.
pub fn read_raw(raw: &[u8]) -> Result<(ParsedMail, Letter), MimeError> {
    let mail = mime::parse(raw)?;
    let ctx = ReadContext {
        from: mail.from.as_ref().map(|m| m.address.clone()),
        subject: Some(mail.subject.clone()).filter(|s| !s.is_empty()),
        date: mail.date,
    };
    let letter = crate::letter::read(&mail.text, &ctx);
    Ok((mail, letter))
}

/// The pretty JSON that `letter read` prints for a raw message (with a final newline).
///
/// # Errors
/// [`MimeError`] when the bytes are not a mail message.
pub fn reading_json(raw: &[u8]) -> Result<String, MimeError> {
    checked_json(raw, None)
}

/// [`reading_json`] with what the sender check found.
///
/// # Errors
/// [`MimeError`] when the bytes are not a mail message.
pub fn checked_json(raw: &[u8], auth: Option<&Authentication>) -> Result<String, MimeError> {
    let (mail, letter) = read_raw(raw)?;
    let reading = Reading {
        letter: &letter,
        automatic: mail.automatic.as_ref(),
        authentication: auth,
    };
    // Serialising plain data with string keys cannot fail.
    let mut json = serde_json::to_string_pretty(&reading).unwrap_or_default();
    json.push('\n');
    Ok(json)
}

/// `zaochka letter read FILE|-`: one letter, read without any game, as JSON on stdout, with
/// the sender check of the configuration's `[auth]` (DNS or its `dns_records` file).
///
/// # Errors
/// Broken (exit 2) when the file cannot be read or the sender check cannot be set up;
/// refused (exit 1) when it is not a mail message.
pub fn read(config: &crate::config::Config, file: &str) -> CliResult {
    let mut raw = Vec::new();
    if file == "-" {
        std::io::stdin()
            .read_to_end(&mut raw)
            .context("cannot read standard input")?;
    } else {
        raw = std::fs::read(file).with_context(|| format!("cannot read '{file}'"))?;
    }
    let verifier = Verifier::new(&config.auth).context("[auth]")?;
    let auth = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("tokio runtime")?
        .block_on(verifier.verify(&raw));
    let json = checked_json(&raw, Some(&auth)).map_err(|e| refused(format!("{file}: {e}")))?;
    print!("{json}");
    Ok(())
}
