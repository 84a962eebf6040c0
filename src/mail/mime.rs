//! Reading a raw RFC 5322 message (mail-parser): headers, the text a player wrote (plain or
//! HTML, any charset and transfer encoding), attachments, and whether it is automatic mail.
//!
//! Knows nothing of letters or games: what the player wrote goes out as text, for
//! `crate::letter::read`.

use chrono::{DateTime, FixedOffset, TimeZone};
use mail_parser::{Address, HeaderName, HeaderValue, MessageParser, MimeHeaders, PartType};

/// One mailbox of an address header: the bare address and the display name, if any.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Mailbox {
    /// The address, e.g. `alice@players.test`, as written (not lower-cased).
    pub address: String,
    /// The display name, decoded from any encoded words (`Иванов Иван`).
    pub name: Option<String>,
}

/// An attachment: kept in the archive by the store, ignored for reading.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Attachment {
    /// The file name, decoded, when the sender gave one.
    pub name: Option<String>,
    /// The MIME type, e.g. `image/png`.
    pub content_type: String,
    /// The decoded size in bytes.
    pub size: usize,
}

/// Where the text of a message came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TextSource {
    /// A text/plain part.
    Plain,
    /// A text/html part converted to text (quoted blocks become `>` lines).
    Html,
    /// The message has no text at all.
    None,
}

/// Why a message counts as automatic mail, which must never be answered (no mail loops).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AutoReason {
    /// `Auto-Submitted` other than `no` (RFC 3834), with its value.
    AutoSubmitted(String),
    /// `Precedence: bulk`, `list`, `junk` or `auto_reply`, with its value.
    Precedence(String),
    /// A mailing list: `List-Id` or `List-Unsubscribe`.
    MailingList,
    /// A delivery report: `multipart/report`, an empty return path or `MAILER-DAEMON`.
    Bounce,
    /// `X-Autoreply`, `X-Autorespond` or a similar header, with its name.
    AutoReplyHeader(String),
    /// A vacation or out-of-office reply recognised by its subject.
    Vacation,
    /// From an address that says it takes no answers (`noreply@`, `do-not-reply@`,
    /// `bounces@` …), with the address: robots, and their plain-text bounces.
    NoReplyAddress(String),
}

/// A raw message read by mail-parser: what the rest of zaochka needs of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedMail {
    /// The sender: `Some` only when the letter has exactly one `From` field holding exactly one
    /// mailbox with an address. A letter with two `From` fields, or a `From` listing several
    /// mailboxes, has `None` here and says how many in [`ParsedMail::from_count`]: nothing
    /// picks one of them (a forger adds his own above or below the real one).
    pub from: Option<Mailbox>,
    /// How many mailboxes the `From` fields hold, all fields together (a field that is not an
    /// address list counts as one).
    pub from_count: usize,
    /// Every `To` mailbox.
    pub to: Vec<Mailbox>,
    /// The subject, decoded; empty when there is none.
    pub subject: String,
    /// The `Date` header, when present and valid.
    pub date: Option<DateTime<FixedOffset>>,
    /// `Message-ID` without the angle brackets (mail-parser drops them; we keep them bare).
    pub message_id: Option<String>,
    /// `In-Reply-To` ids, bare (no angle brackets).
    pub in_reply_to: Vec<String>,
    /// `References` ids, bare (no angle brackets), oldest first.
    pub references: Vec<String>,
    /// The text the player wrote: text/plain parts joined, else HTML converted to text.
    /// Line ends are `\n`; `format=flowed` lines are joined back.
    pub text: String,
    /// Where [`ParsedMail::text`] came from.
    pub text_source: TextSource,
    /// Attachments (names and sizes only).
    pub attachments: Vec<Attachment>,
    /// `Some` when this is automatic mail (auto-reply, bounce, list): never answer it.
    pub automatic: Option<AutoReason>,
}

impl ParsedMail {
    /// Whether the message is automatic mail that must not be answered.
    pub fn is_automatic(&self) -> bool {
        self.automatic.is_some()
    }
}

/// Why a raw message could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MimeError {
    /// mail-parser found no message in the bytes.
    #[error("not a mail message ({len} bytes): {reason}")]
    NotAMessage {
        /// The length of the input.
        len: usize,
        /// What was wrong.
        reason: &'static str,
    },
}

/// Reads a raw RFC 5322 message.
///
/// ```
/// let raw = "From: =?UTF-8?B?0JjQstCw0L3QvtCy?= <ivanov@players.test>\r\n\
///             Subject: =?KOI8-R?B?8MHS1MnRIDc=?=\r\n\
///             Message-ID: <abc@players.test>\r\n\
///             Content-Type: text/plain; charset=utf-8\r\n\r\n\
///             Мой ход: 1. c3-d4\r\n";
/// let mail = zaochka::mail::mime::parse(raw.as_bytes()).unwrap();
/// assert_eq!(mail.from.as_ref().unwrap().name.as_deref(), Some("Иванов"));
/// assert_eq!(mail.subject, "Партия 7");
/// assert_eq!(mail.message_id.as_deref(), Some("abc@players.test"));
/// assert_eq!(mail.text, "Мой ход: 1. c3-d4\n");
/// assert!(!mail.is_automatic());
/// ```
///
/// # Errors
/// [`MimeError::NotAMessage`] when mail-parser cannot read the bytes as a message, or when
/// they have no header at all.
pub fn parse(raw: &[u8]) -> Result<ParsedMail, MimeError> {
    let not_a_message = |reason| MimeError::NotAMessage {
        len: raw.len(),
        reason,
    };
    let message = MessageParser::default()
        .parse(raw)
        .ok_or_else(|| not_a_message("mail-parser cannot parse it"))?;
    if message.headers().is_empty() {
        return Err(not_a_message("no header found"));
    }

    let (from, from_count) = sender(&message);
    let to = message.to().map(mailboxes).unwrap_or_default();
    let subject = message.subject().unwrap_or_default().trim().to_owned();
    let date = message.date().and_then(|d| {
        let offset = (i32::from(d.tz_hour) * 3600 + i32::from(d.tz_minute) * 60)
            * if d.tz_before_gmt { -1 } else { 1 };
        let zone = FixedOffset::east_opt(offset)?;
        let naive = chrono::NaiveDate::from_ymd_opt(
            i32::from(d.year),
            u32::from(d.month),
            u32::from(d.day),
        )?
        .and_hms_opt(u32::from(d.hour), u32::from(d.minute), u32::from(d.second))?;
        zone.from_local_datetime(&naive).single()
    });
    let message_id = message.message_id().and_then(bare_id);
    let in_reply_to = ids(message.in_reply_to());
    let references = ids(message.references());

    let (text, text_source) = body_text(&message);
    let attachments = message
        .attachments()
        .map(|part| Attachment {
            name: part.attachment_name().map(str::to_owned),
            content_type: part
                .content_type()
                .map(|ct| match ct.subtype() {
                    Some(sub) => format!("{}/{}", ct.ctype(), sub),
                    None => ct.ctype().to_owned(),
                })
                .unwrap_or_else(|| "application/octet-stream".to_owned()),
            size: part.body.len(),
        })
        .collect();
    let automatic = automatic(&message, &subject);

    Ok(ParsedMail {
        from,
        from_count,
        to,
        subject,
        date,
        message_id,
        in_reply_to,
        references,
        text,
        text_source,
        attachments,
        automatic,
    })
}

/// The one `From` mailbox, if there is exactly one, and how many there are in all.
fn sender(message: &mail_parser::Message<'_>) -> (Option<Mailbox>, usize) {
    let mut count = 0;
    let mut found = Vec::new();
    for header in message.headers() {
        if header.name != HeaderName::From {
            continue;
        }
        match header.value.as_address() {
            Some(address) => {
                count += address.iter().count();
                found.extend(mailboxes(address));
            }
            None => count += 1,
        }
    }
    let from = match (count, found.len()) {
        (1, 1) => found.pop(),
        _ => None,
    };
    (from, count)
}

/// The Message-ID of a raw message (without angle brackets), reading its header only: for
/// the daemon's log line of a letter.
pub fn message_id(raw: &[u8]) -> Option<String> {
    MessageParser::default()
        .parse_headers(raw)
        .and_then(|m| m.message_id().map(str::to_owned))
}

fn mailboxes(address: &Address<'_>) -> Vec<Mailbox> {
    address
        .iter()
        .filter_map(|a| {
            Some(Mailbox {
                address: a.address()?.trim().to_owned(),
                name: a
                    .name()
                    .map(|n| n.trim().to_owned())
                    .filter(|n| !n.is_empty()),
            })
        })
        .collect()
}

fn ids(value: &HeaderValue<'_>) -> Vec<String> {
    match value {
        HeaderValue::Text(t) => bare_id(t).into_iter().collect(),
        HeaderValue::TextList(list) => list.iter().filter_map(|t| bare_id(t)).collect(),
        _ => Vec::new(),
    }
}

/// A message id as it is compared and echoed: mail-parser keeps the folding (`<abc\r\n
/// @x>`) and any spaces inside the brackets, which no id may contain (RFC 5322 3.6.4).
fn bare_id(id: &str) -> Option<String> {
    let id: String = id
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .collect();
    (!id.is_empty()).then_some(id)
}

/// The most of a letter's head [`parse_head`] reads: a header section longer than this is
/// not a letter anyone wrote.
const MAX_HEAD: usize = 256 * 1024;

/// Reads only the header section of a raw message (up to the first empty line, at most
/// 256 KB): who sent it, its ids and subject, and whether it is automatic mail — for a letter
/// too large to read whole. The text is empty and there are no attachments.
///
/// # Errors
/// As [`parse`].
pub fn parse_head(raw: &[u8]) -> Result<ParsedMail, MimeError> {
    let window = &raw[..raw.len().min(MAX_HEAD)];
    let end = window
        .windows(2)
        .position(|w| w == b"\n\n")
        .map(|i| i + 1)
        .into_iter()
        .chain(
            window
                .windows(4)
                .position(|w| w == b"\r\n\r\n")
                .map(|i| i + 2),
        )
        .min()
        .or_else(|| window.iter().rposition(|b| *b == b'\n').map(|i| i + 1))
        .unwrap_or(window.len());
    let mut head = window[..end].to_vec();
    head.extend_from_slice(b"\r\n");
    let mut mail = parse(&head)?;
    // The head alone reads as a message without a body.
    mail.text_source = TextSource::None;
    Ok(mail)
}

/// The text/plain parts joined; else the HTML parts converted to text.
fn body_text(message: &mail_parser::Message<'_>) -> (String, TextSource) {
    let mut plain = Vec::new();
    for part in message.text_bodies() {
        if let PartType::Text(text) = &part.body {
            let is_flowed = part
                .content_type()
                .and_then(|ct| ct.attribute("format"))
                .is_some_and(|f| f.eq_ignore_ascii_case("flowed"));
            let delsp = part
                .content_type()
                .and_then(|ct| ct.attribute("delsp"))
                .is_some_and(|f| f.eq_ignore_ascii_case("yes"));
            let declared = part.content_type().and_then(|ct| ct.attribute("charset"));
            let repaired = if text.contains('\u{fffd}')
                && declared.is_none_or(|c| c.eq_ignore_ascii_case("utf-8"))
            {
                repair_utf8(message.raw_message(), part)
            } else {
                None
            };
            let text = normalise_newlines(repaired.as_deref().unwrap_or(text));
            plain.push(if is_flowed {
                unflow(&text, delsp)
            } else {
                text
            });
        }
    }
    // Some clients send an empty text/plain beside the real HTML: then the HTML is read.
    if plain.iter().any(|p| !p.trim().is_empty()) {
        return (plain.join("\n"), TextSource::Plain);
    }
    let html: Vec<String> = message
        .html_bodies()
        .filter_map(|part| match &part.body {
            PartType::Html(html) => Some(html_to_text(html)),
            _ => None,
        })
        .collect();
    if html.is_empty() {
        if plain.is_empty() {
            (String::new(), TextSource::None)
        } else {
            (plain.join("\n"), TextSource::Plain)
        }
    } else {
        (html.join("\n"), TextSource::Html)
    }
}

/// Decodes again a text part that is not valid UTF-8 although it says so (or names no
/// charset): old Russian clients send windows-1251 or KOI8-R unlabelled, and some paste such
/// text into a UTF-8 letter. When most of the part's non-ASCII bytes are not UTF-8, the
/// whole part is read in the guessed charset; otherwise only the bytes that are not UTF-8
/// are (one stray byte must not turn a UTF-8 letter, and its move, into mojibake).
fn repair_utf8(raw: &[u8], part: &mail_parser::MessagePart<'_>) -> Option<String> {
    use mail_parser::decoders::{base64::base64_decode, quoted_printable::quoted_printable_decode};
    let body = raw.get(part.offset_body as usize..part.offset_end as usize)?;
    let bytes = match part.encoding {
        mail_parser::Encoding::QuotedPrintable => quoted_printable_decode(body)?,
        mail_parser::Encoding::Base64 => base64_decode(body)?,
        mail_parser::Encoding::None => body.to_vec(),
    };
    if std::str::from_utf8(&bytes).is_ok() {
        return None;
    }
    let (mut utf8, mut stray) = (0usize, Vec::new());
    for chunk in bytes.utf8_chunks() {
        utf8 += chunk.valid().len() - chunk.valid().chars().filter(char::is_ascii).count();
        stray.extend_from_slice(chunk.invalid());
    }
    let decode = legacy_decoder(&stray)?;
    if stray.len() > utf8 {
        return Some(decode(&bytes));
    }
    let mut out = String::with_capacity(bytes.len());
    let mut run: Vec<u8> = Vec::new();
    for chunk in bytes.utf8_chunks() {
        if !chunk.valid().is_empty() && !run.is_empty() {
            out.push_str(&decode(&run));
            run.clear();
        }
        out.push_str(chunk.valid());
        run.extend_from_slice(chunk.invalid());
    }
    if !run.is_empty() {
        out.push_str(&decode(&run));
    }
    Some(out)
}

/// The decoder of the Cyrillic charset `bytes` are most likely in. Lower-case letters
/// dominate Russian text; they sit at 0xE0..=0xFF in windows-1251 and 0xC0..=0xDF in KOI8-R.
fn legacy_decoder(bytes: &[u8]) -> Option<fn(&[u8]) -> String> {
    let high = bytes.iter().filter(|b| **b >= 0xE0).count();
    let middle = bytes.iter().filter(|b| (0xC0..0xE0).contains(*b)).count();
    let charset: &[u8] = if high >= middle {
        b"windows-1251"
    } else {
        b"koi8-r"
    };
    mail_parser::decoders::charsets::map::charset_decoder(charset)
}

fn normalise_newlines(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// Joins `format=flowed` lines (RFC 3676): a line ending in a space goes on with the next,
/// except the signature separator `-- `.
fn unflow(text: &str, delsp: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        if body.ends_with(' ') && body != "-- " && line.ends_with('\n') {
            out.push_str(if delsp { &body[..body.len() - 1] } else { body });
        } else {
            out.push_str(line);
        }
    }
    out
}

/// Whether the message is automatic mail, and why.
fn automatic(message: &mail_parser::Message<'_>, subject: &str) -> Option<AutoReason> {
    let raw = |name: &str| {
        message
            .header_raw(name)
            .map(|v| v.trim().to_ascii_lowercase())
    };
    if let Some(v) = raw("Auto-Submitted").filter(|v| !v.is_empty() && !v.starts_with("no")) {
        return Some(AutoReason::AutoSubmitted(v));
    }
    if let Some(v) = raw("Precedence")
        .filter(|v| ["bulk", "list", "junk", "auto_reply", "auto-reply"].contains(&v.as_str()))
    {
        return Some(AutoReason::Precedence(v));
    }
    if raw("List-Id").is_some() || raw("List-Unsubscribe").is_some() {
        return Some(AutoReason::MailingList);
    }
    let is_report = message.content_type().is_some_and(|ct| {
        ct.ctype().eq_ignore_ascii_case("multipart")
            && ct
                .subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    });
    let return_path = raw("Return-Path");
    let from = message
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let subject = subject.to_lowercase();
    const BOUNCE: [&str; 10] = [
        "undelivered mail",
        "undeliverable",
        "delivery status notification",
        "mail delivery failed",
        "delivery failure",
        "returned mail",
        "failure notice",
        "недоставленное сообщение",
        "не удалось доставить",
        "ошибка доставки",
    ];
    if is_report
        || return_path.as_deref().is_some_and(|r| {
            r.trim_matches(['<', '>', ' ']).is_empty() || r.contains("mailer-daemon")
        })
        || from.starts_with("mailer-daemon@")
        || from.starts_with("postmaster@")
        || raw("X-Failed-Recipients").is_some()
        || BOUNCE.iter().any(|b| subject.contains(b))
    {
        return Some(AutoReason::Bounce);
    }
    if is_no_reply(&from) {
        return Some(AutoReason::NoReplyAddress(from));
    }
    for name in [
        "X-Autoreply",
        "X-Autorespond",
        "X-Autoresponder",
        "X-Auto-Reply",
        "X-Autogenerated",
        "X-Vacation",
    ] {
        if raw(name).is_some() {
            return Some(AutoReason::AutoReplyHeader(name.to_owned()));
        }
    }
    const VACATION: [&str; 12] = [
        "auto:",
        "autoreply",
        "auto-reply",
        "automatic reply",
        "auto response",
        "out of office",
        "out of the office",
        "vacation",
        "автоответ",
        "автоматический ответ",
        "нет на месте",
        "в отпуске",
    ];
    if VACATION.iter().any(|v| subject.contains(v)) {
        return Some(AutoReason::Vacation);
    }
    None
}

/// Whether an address says it takes no answers: its local part, without `-`, `_`, `.`, is
/// `noreply…`, `donotreply…`, `dontreply…` or `bounce…` (`no-reply@`, `do_not_reply@`,
/// `bounces+123@`).
fn is_no_reply(address: &str) -> bool {
    let Some((local, _)) = address.rsplit_once('@') else {
        return false;
    };
    let local: String = local
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | '.'))
        .collect();
    ["noreply", "donotreply", "dontreply", "bounce"]
        .iter()
        .any(|p| local.starts_with(p))
}

/// Converts HTML to the text a reader sees: block elements break lines, `<br>` breaks a
/// line, entities are decoded, `<head>`, `<style>` and `<script>` are dropped, and the
/// contents of `<blockquote>` become `> ` lines (one `>` whatever the depth) so that quoted
/// text is cut like in plain mail.
///
/// ```
/// use zaochka::mail::mime::html_to_text;
/// let text = html_to_text("<p>Мой&nbsp;ход: 1.&nbsp;c3&ndash;d4</p><blockquote>Ваш ход</blockquote>");
/// assert_eq!(text, "Мой ход: 1. c3–d4\n> Ваш ход\n");
/// ```
pub fn html_to_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len() / 2);
    let mut quote_depth = 0usize;
    let mut skip_depth = 0usize;
    let mut at_line_start = true;
    let mut pending_space = false;
    let mut rest = html;

    let newline = |out: &mut String, at_line_start: &mut bool| {
        out.push('\n');
        *at_line_start = true;
    };

    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |i| &after[i + 3..]);
            continue;
        }
        if let Some(after) = rest.strip_prefix('<') {
            let end = after.find('>').unwrap_or(after.len());
            let tag = &after[..end];
            rest = after.get(end + 1..).unwrap_or("");
            let is_close = tag.starts_with('/');
            let name: String = tag
                .trim_start_matches('/')
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .map(|c| c.to_ascii_lowercase())
                .collect();
            match name.as_str() {
                "head" | "style" | "script" | "title" => {
                    if is_close {
                        skip_depth = skip_depth.saturating_sub(1);
                    } else if !tag.ends_with('/') {
                        skip_depth += 1;
                    }
                }
                "br" if skip_depth == 0 => {
                    if at_line_start && quote_depth > 0 {
                        out.push_str("> ");
                    }
                    newline(&mut out, &mut at_line_start);
                    pending_space = false;
                }
                "blockquote" => {
                    if !at_line_start {
                        newline(&mut out, &mut at_line_start);
                    }
                    quote_depth = if is_close {
                        quote_depth.saturating_sub(1)
                    } else {
                        quote_depth + 1
                    };
                    pending_space = false;
                }
                "p" | "div" | "tr" | "li" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "table"
                | "ul" | "ol" | "pre" | "hr" => {
                    if !at_line_start {
                        newline(&mut out, &mut at_line_start);
                    }
                    pending_space = false;
                }
                "td" | "th" => pending_space = true,
                _ => {}
            }
            continue;
        }
        let next_tag = rest.find('<').unwrap_or(rest.len());
        let chunk = &rest[..next_tag];
        rest = &rest[next_tag..];
        if skip_depth > 0 {
            continue;
        }
        for (i, word) in decode_entities(chunk)
            .split(|c: char| c.is_ascii_whitespace())
            .enumerate()
        {
            pending_space |= i > 0;
            if word.is_empty() {
                continue;
            }
            if at_line_start {
                if quote_depth > 0 {
                    out.push_str("> ");
                }
                at_line_start = false;
            } else if pending_space {
                out.push(' ');
            }
            out.push_str(word);
            pending_space = false;
        }
        // A trailing whitespace in the chunk separates it from the next one.
        pending_space = chunk.ends_with(|c: char| c.is_ascii_whitespace());
    }
    if !at_line_start {
        out.push('\n');
    }
    // No-break spaces from &nbsp; read as plain spaces.
    out.replace('\u{a0}', " ")
}

/// Decodes the HTML entities players' clients produce.
fn decode_entities(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('&') {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let end = rest[1..].find(';').map(|e| e + 1).filter(|e| *e <= 10);
        let decoded = end.and_then(|e| {
            let name = &rest[1..e];
            let c = if let Some(num) = name.strip_prefix('#') {
                let code = match num.strip_prefix(['x', 'X']) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                    None => num.parse().ok()?,
                };
                char::from_u32(code)?
            } else {
                match name {
                    "nbsp" => '\u{a0}',
                    "amp" => '&',
                    "lt" => '<',
                    "gt" => '>',
                    "quot" => '"',
                    "apos" => '\'',
                    "ndash" => '–',
                    "mdash" => '—',
                    "minus" => '−',
                    "hellip" => '…',
                    "laquo" => '«',
                    "raquo" => '»',
                    "times" => '×',
                    "numero" => '№',
                    _ => return None,
                }
            };
            Some((c, e + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_without_headers_are_not_a_message() {
        assert!(parse(b"").is_err());
    }

    #[test]
    fn windows_1251_quoted_printable_is_decoded() {
        let raw = b"From: a@b.test\r\nContent-Type: text/plain; charset=windows-1251\r\n\
                    Content-Transfer-Encoding: quoted-printable\r\n\r\n=CC=EE=E9 =F5=EE=E4\r\n";
        assert_eq!(parse(raw).unwrap().text, "Мой ход\n");
    }

    #[test]
    fn vacation_reply_is_automatic() {
        let raw = "From: a@b.test\r\nSubject: Автоответ: Партия 7\r\n\r\nЯ в отпуске\r\n";
        assert_eq!(
            parse(raw.as_bytes()).unwrap().automatic,
            Some(AutoReason::Vacation)
        );
    }

    #[test]
    fn auto_submitted_no_is_a_person() {
        let raw = b"From: a@b.test\r\nAuto-Submitted: no\r\n\r\nhi\r\n";
        assert_eq!(parse(raw).unwrap().automatic, None);
    }

    #[test]
    fn empty_return_path_is_a_bounce() {
        let raw = b"Return-Path: <>\r\nFrom: a@b.test\r\n\r\nhi\r\n";
        assert_eq!(parse(raw).unwrap().automatic, Some(AutoReason::Bounce));
    }

    #[test]
    fn deeply_nested_html_quotes_stay_linear() {
        let html = "<blockquote>".repeat(50_000) + &"x<br>".repeat(50_000);
        assert!(html_to_text(&html).len() < 400_000);
    }

    #[test]
    fn an_empty_plain_part_gives_way_to_the_html() {
        let raw = "From: a@b.test\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n\
                   --b\r\nContent-Type: text/plain\r\n\r\n \r\n\
                   --b\r\nContent-Type: text/html\r\n\r\n<p>Сдаюсь</p>\r\n--b--\r\n";
        let mail = parse(raw.as_bytes()).unwrap();
        assert_eq!(
            (mail.text.as_str(), mail.text_source),
            ("Сдаюсь\n", TextSource::Html)
        );
    }

    #[test]
    fn unlabelled_windows_1251_and_koi8_r_are_guessed() {
        let mut raw = b"From: a@b.test\r\nContent-Type: text/plain\r\n\r\n".to_vec();
        raw.extend_from_slice(&[0xcc, 0xee, 0xe9, b' ', 0xf5, 0xee, 0xe4, b'\n']);
        assert_eq!(parse(&raw).unwrap().text, "Мой ход\n");
        let mut raw = b"From: a@b.test\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n".to_vec();
        raw.extend_from_slice(&[0xed, 0xcf, 0xca, b' ', 0xc8, 0xcf, 0xc4, b'\n']);
        assert_eq!(parse(&raw).unwrap().text, "Мой ход\n");
    }

    #[test]
    fn one_stray_byte_in_a_utf8_letter_leaves_the_rest_utf8() {
        let mut raw = b"From: a@b.test\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n".to_vec();
        raw.extend_from_slice("Шифр: ЗШ-2026-1\nМой ход: 1. c3-d4\nС уважением".as_bytes());
        raw.extend_from_slice(&[0xff, b'\n']);
        let text = parse(&raw).unwrap().text;
        assert_eq!(text, "Шифр: ЗШ-2026-1\nМой ход: 1. c3-d4\nС уважениемя\n");
    }

    #[test]
    fn a_cp1251_line_pasted_into_a_utf8_letter_is_read_as_cp1251() {
        let mut raw = b"From: a@b.test\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n".to_vec();
        raw.extend_from_slice("Мой ход: 1. c3-d4\nВаш ход: нет\n".as_bytes());
        raw.extend_from_slice(&[0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2, b'\n']);
        assert_eq!(
            parse(&raw).unwrap().text,
            "Мой ход: 1. c3-d4\nВаш ход: нет\nПривет\n"
        );
    }

    #[test]
    fn precedence_auto_reply_and_no_reply_senders_are_automatic() {
        let raw = b"From: a@b.test\r\nPrecedence: auto_reply\r\n\r\nI am away\r\n";
        assert_eq!(
            parse(raw).unwrap().automatic,
            Some(AutoReason::Precedence("auto_reply".into()))
        );
        for from in [
            "no-reply@mail.test",
            "NoReply@x.test",
            "do_not_reply@x.test",
            "bounces+7@x.test",
        ] {
            let raw = format!("From: {from}\r\nSubject: hi\r\n\r\nYour message was not sent\r\n");
            assert!(
                matches!(
                    parse(raw.as_bytes()).unwrap().automatic,
                    Some(AutoReason::NoReplyAddress(_))
                ),
                "{from}"
            );
        }
        let raw =
            b"From: admin@x.test\r\nSubject: Undelivered Mail Returned to Sender\r\n\r\nx\r\n";
        assert_eq!(parse(raw).unwrap().automatic, Some(AutoReason::Bounce));
        let raw = b"From: reply.norman@x.test\r\nSubject: move\r\n\r\nx\r\n";
        assert_eq!(parse(raw).unwrap().automatic, None, "a person named Norman");
    }

    #[test]
    fn a_folded_message_id_is_read_without_the_fold() {
        let raw = b"From: a@b.test\r\nMessage-ID:\r\n <abc.123\r\n @players.test>\r\n\
                    In-Reply-To: <x@\r\n\tz.test>\r\n\r\nhi\r\n";
        let mail = parse(raw).unwrap();
        assert_eq!(mail.message_id.as_deref(), Some("abc.123@players.test"));
        assert_eq!(mail.in_reply_to, ["x@z.test"]);
    }

    #[test]
    fn the_head_of_a_letter_is_read_without_its_body() {
        let mut raw = b"From: a@b.test\r\nSubject: big\r\nMessage-ID: <m@b.test>\r\n\r\n".to_vec();
        raw.extend_from_slice("Мой ход: 1. c3-d4\r\n".repeat(1000).as_bytes());
        let mail = parse_head(&raw).unwrap();
        assert_eq!(mail.from.unwrap().address, "a@b.test");
        assert_eq!((mail.subject.as_str(), mail.text.as_str()), ("big", ""));
        assert_eq!(mail.message_id.as_deref(), Some("m@b.test"));
        assert!(parse_head(b"").is_err());
    }

    #[test]
    fn one_from_mailbox_is_the_sender() {
        let mail = parse(b"From: \"Arbiter\" <ARBITER@localhost>\r\n\r\nx\r\n").unwrap();
        assert_eq!(mail.from_count, 1);
        assert_eq!(mail.from.unwrap().address, "ARBITER@localhost");
    }

    #[test]
    fn two_from_fields_or_a_from_list_name_no_sender() {
        for raw in [
            "From: evil@example.net\r\nFrom: arbiter@localhost\r\n\r\nx\r\n",
            "From: arbiter@localhost\r\nFrom: arbiter@localhost\r\n\r\nx\r\n",
            "From: arbiter@localhost, evil@example.net\r\n\r\nx\r\n",
            "From: arbiter@localhost, Evil\r\n\r\nx\r\n",
            "From: Officials: arbiter@localhost, evil@example.net;\r\n\r\nx\r\n",
        ] {
            let mail = parse(raw.as_bytes()).unwrap();
            assert_eq!(mail.from, None, "{raw}");
            assert!(mail.from_count >= 2, "{raw}: {}", mail.from_count);
        }
    }

    #[test]
    fn flowed_lines_are_joined() {
        assert_eq!(unflow("a \nb\n-- \nsig\n", false), "a b\n-- \nsig\n");
    }

    #[test]
    fn html_blockquote_becomes_quoted_lines_and_entities_decode() {
        let text = html_to_text(
            "<html><head><style>p{}</style></head><body><div>Hi&amp;bye<br>x&#1093;y</div>\
             <blockquote><div>old<br>line</div></blockquote>tail</body></html>",
        );
        assert_eq!(text, "Hi&bye\nxхy\n> old\n> line\ntail\n");
    }
}
