//! `zaochka letter read FILE|-`.

use std::io::Read;

use anyhow::Context;
use serde::Serialize;

use super::{CliResult, refused};
use crate::letter::{Letter, ReadContext};
use crate::mail::mime::{self, AutoReason, MimeError, ParsedMail};

/// What `letter read` prints: the [`Letter`] (issue 3's JSON), then whether the mail is
/// automatic (never answered).
#[derive(Debug, Serialize)]
pub struct Reading<'a> {
    /// The letter as read.
    #[serde(flatten)]
    pub letter: &'a Letter,
    /// Why the mail is automatic, or `null`.
    pub automatic: Option<&'a AutoReason>,
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
    let (mail, letter) = read_raw(raw)?;
    let reading = Reading {
        letter: &letter,
        automatic: mail.automatic.as_ref(),
    };
    // Serialising plain data with string keys cannot fail.
    let mut json = serde_json::to_string_pretty(&reading).unwrap_or_default();
    json.push('\n');
    Ok(json)
}

/// `zaochka letter read FILE|-`: one letter, read without any game, as JSON on stdout.
///
/// # Errors
/// Broken (exit 2) when the file cannot be read; refused (exit 1) when it is not a mail
/// message.
pub fn read(file: &str) -> CliResult {
    let mut raw = Vec::new();
    if file == "-" {
        std::io::stdin()
            .read_to_end(&mut raw)
            .context("cannot read standard input")?;
    } else {
        raw = std::fs::read(file).with_context(|| format!("cannot read '{file}'"))?;
    }
    let json = reading_json(&raw).map_err(|e| refused(format!("{file}: {e}")))?;
    print!("{json}");
    Ok(())
}
