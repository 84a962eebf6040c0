//! Building zaochka's outgoing letters as complete RFC 5322 messages (lettre's builder):
//! a plain-text part and an HTML part (multipart/alternative), the board picture inline in
//! the HTML (multipart/related), attachments (multipart/mixed), threading headers, and the
//! headers that keep other robots from answering (RFC 3834 `Auto-Submitted`).

use std::time::SystemTime;

use lettre::Message;
use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Body, Mailbox, MultiPart, SinglePart};

use super::RenderError;

/// Who a letter is from and to, and how it threads.
#[derive(Clone, Debug)]
pub struct Envelope {
    /// The mailbox's own address with its display name.
    pub from: Mailbox,
    /// Recipients.
    pub to: Vec<Mailbox>,
    /// Copies.
    pub cc: Vec<Mailbox>,
    /// The subject.
    pub subject: String,
    /// The Message-ID, without angle brackets (fixed when the letter is queued, so a resend
    /// after a crash is the same letter).
    pub message_id: String,
    /// The Message-ID answered, without angle brackets.
    pub in_reply_to: Option<String>,
    /// The thread, oldest first, without angle brackets.
    pub references: Vec<String>,
    /// The Date header.
    pub date: SystemTime,
    /// The letter answers a letter of its addressee (a receipt, a refusal, an answer to a
    /// command): `Auto-Submitted: auto-replied`. Otherwise (a start list, a forward, a
    /// deadline, a digest, a report) it is `auto-generated` (RFC 3834 5).
    pub is_answer: bool,
}

/// What a letter says.
#[derive(Clone, Debug, Default)]
pub struct Content {
    /// The plain-text part.
    pub text: String,
    /// The HTML part.
    pub html: String,
    /// The board picture shown in the HTML part (`cid:` [`BOARD_CID`]).
    pub board_png: Option<Vec<u8>>,
    /// Attached files: name, MIME type, bytes (a player's letters for the arbiter, PDN …).
    pub attachments: Vec<(String, String, Vec<u8>)>,
}

/// The Content-ID under which the board picture is referenced from the HTML part.
pub const BOARD_CID: &str = "board@zaochka";

/// Builds the complete message.
///
/// # Errors
/// [`RenderError::Mime`] when an address, a header or a MIME type is malformed.
pub fn build(env: &Envelope, content: &Content) -> Result<Vec<u8>, RenderError> {
    let mut b = Message::builder()
        .from(env.from.clone())
        .subject(env.subject.clone())
        .message_id(Some(format!("<{}>", env.message_id)))
        .date(env.date);
    for to in &env.to {
        b = b.to(to.clone());
    }
    for cc in &env.cc {
        b = b.cc(cc.clone());
    }
    // Ids come from other people's letters: one that is not plain printable ASCII would be
    // written as an encoded word, which no client threads by. Such an id is left out.
    if let Some(parent) = env.in_reply_to.as_deref().filter(|id| is_plain_id(id)) {
        b = b.in_reply_to(format!("<{parent}>"));
    }
    let refs: Vec<String> = env
        .references
        .iter()
        .filter(|id| is_plain_id(id))
        .map(|r| format!("<{r}>"))
        .collect();
    if !refs.is_empty() {
        b = b.references(refs.join(" "));
    }

    // Boundaries derived from the Message-ID: a letter rebuilt after a crash is the same
    // bytes, and golden tests can compare whole messages.
    let boundary = |kind: &str| format!("zaochka-{kind}-{:016x}", fnv1a(&env.message_id));
    // lettre turns bare `\n` into `\r\n` by inserting into the string once per line, which
    // is quadratic (a 2 MB letter of short lines took seconds, 20 MB minutes): hand it CRLF
    // already, made in one pass, and it has nothing to insert.
    let text = crlf(&content.text);
    let html = crlf(&content.html);
    let html_part = match &content.board_png {
        Some(png) => MultiPart::related()
            .boundary(boundary("rel"))
            .singlepart(SinglePart::html(html))
            .singlepart(Attachment::new_inline(BOARD_CID.to_string()).body(
                png.clone(),
                ContentType::parse("image/png").map_err(mime_err)?,
            )),
        None => MultiPart::related()
            .boundary(boundary("rel"))
            .singlepart(SinglePart::html(html)),
    };
    let alternative = MultiPart::alternative()
        .boundary(boundary("alt"))
        .singlepart(SinglePart::plain(text))
        .multipart(html_part);
    let body = if content.attachments.is_empty() {
        alternative
    } else {
        let mut mixed = MultiPart::mixed()
            .boundary(boundary("mix"))
            .multipart(alternative);
        for (name, mime, bytes) in &content.attachments {
            mixed = mixed.singlepart(attachment_part(name, mime, bytes)?);
        }
        mixed
    };
    let mut message = b.multipart(body).map_err(mime_err)?;
    let headers = message.headers_mut();
    headers.insert_raw(HeaderValue::new(
        HeaderName::new_from_ascii_str("Auto-Submitted"),
        if env.is_answer {
            "auto-replied"
        } else {
            "auto-generated"
        }
        .to_string(),
    ));
    headers.insert_raw(HeaderValue::new(
        HeaderName::new_from_ascii_str("X-Auto-Response-Suppress"),
        "All".to_string(),
    ));
    headers.insert_raw(HeaderValue::new(
        HeaderName::new_from_ascii_str("X-Mailer"),
        concat!("zaochka ", env!("CARGO_PKG_VERSION")).to_string(),
    ));
    Ok(message.formatted())
}

/// One attachment. A text part declares its charset (UTF-8 unless the type names one). An
/// attached letter (`message/rfc822`) goes as 7bit or 8bit, never base64 (RFC 2046 5.2.1):
/// its line ends are made CRLF; a letter that still cannot be 8bit (a NUL byte, a line over
/// 998 octets) goes as `application/octet-stream`, base64, so its bytes arrive unchanged.
fn attachment_part(name: &str, mime: &str, bytes: &[u8]) -> Result<SinglePart, RenderError> {
    if mime.eq_ignore_ascii_case("message/rfc822") {
        let buf = crlf_bytes(bytes);
        let fits = !buf.contains(&0) && buf.split(|&b| b == b'\n').all(|line| line.len() <= 999);
        if fits {
            let encoding = if buf.is_ascii() {
                ContentTransferEncoding::SevenBit
            } else {
                ContentTransferEncoding::EightBit
            };
            let ct = ContentType::parse(mime).map_err(mime_err)?;
            return Ok(Attachment::new(name.to_string())
                .body(Body::dangerous_pre_encoded(buf, encoding), ct));
        }
        let ct = ContentType::parse("application/octet-stream").map_err(mime_err)?;
        return Ok(Attachment::new(name.to_string()).body(bytes.to_vec(), ct));
    }
    let mime = if mime.to_ascii_lowercase().starts_with("text/")
        && !mime.to_ascii_lowercase().contains("charset")
    {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_string()
    };
    let ct = ContentType::parse(&mime).map_err(mime_err)?;
    Ok(Attachment::new(name.to_string()).body(bytes.to_vec(), ct))
}

/// `bytes` with every line ending CRLF (bare LF and bare CR become CRLF).
fn crlf_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 32);
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\r' => {
                out.extend_from_slice(b"\r\n");
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
            }
            b'\n' => out.extend_from_slice(b"\r\n"),
            b => out.push(b),
        }
        i += 1;
    }
    out
}

/// Whether a bare message id can be written as it is: printable ASCII, no spaces, no angle
/// brackets.
fn is_plain_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'<' && b != b'>')
}

/// The text with every line ending as CRLF (a lone `\r` or `\n` included), in one pass.
fn crlf(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut rest = text;
    while let Some(i) = rest.find(['\r', '\n']) {
        out.push_str(&rest[..i]);
        out.push_str("\r\n");
        let skip = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
        rest = &rest[i + skip..];
    }
    out.push_str(rest);
    out
}

/// FNV-1a, 64 bits: a stable, dependency-free hash for boundaries (not for security).
fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn mime_err(e: impl std::fmt::Display) -> RenderError {
    RenderError::Mime(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn envelope() -> Envelope {
        Envelope {
            from: "Заочный турнир <zaochka@tournament.test>".parse().unwrap(),
            to: vec!["Иванов Иван <alice@players.test>".parse().unwrap()],
            cc: vec![],
            subject: "ЗШ-2026-1, партия 7: ход 12... f8:d6".into(),
            message_id: "m1.7.12@zaochka".into(),
            in_reply_to: Some("abc@players.test".into()),
            references: vec!["root@zaochka".into(), "abc@players.test".into()],
            date: SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_796_000_000),
            is_answer: true,
        }
    }

    #[test]
    fn a_letter_threads_and_reads_back_with_mail_parser() {
        let content = Content {
            text: "Здравствуйте!\nВаш ход: 12... f8:d6\n".into(),
            html: "<p>Здравствуйте!</p><img src=\"cid:board@zaochka\">".into(),
            board_png: Some(vec![0x89, b'P', b'N', b'G']),
            attachments: vec![(
                "game.pdn".into(),
                "text/plain".into(),
                b"[Event \"x\"]".to_vec(),
            )],
        };
        let raw = build(&envelope(), &content).unwrap();
        let msg = mail_parser::MessageParser::default().parse(&raw).unwrap();
        assert_eq!(msg.subject(), Some("ЗШ-2026-1, партия 7: ход 12... f8:d6"));
        assert_eq!(msg.message_id(), Some("m1.7.12@zaochka"));
        assert_eq!(msg.in_reply_to().as_text(), Some("abc@players.test"));
        let refs: Vec<String> = msg
            .references()
            .as_text_list()
            .unwrap()
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(refs, ["root@zaochka", "abc@players.test"]);
        assert_eq!(
            msg.from().unwrap().first().unwrap().address(),
            Some("zaochka@tournament.test")
        );
        assert_eq!(
            msg.header("Auto-Submitted").unwrap().as_text(),
            Some("auto-replied")
        );
        assert_eq!(
            msg.body_text(0).unwrap().replace("\r\n", "\n").trim_end(),
            "Здравствуйте!\nВаш ход: 12... f8:d6"
        );
        assert!(msg.body_html(0).unwrap().contains("cid:board@zaochka"));
        assert_eq!(msg.attachment_count(), 2, "the inline picture and the PDN");
    }

    #[test]
    fn board_picture_is_written_for_inspection_when_asked() {
        // Run with ZAOCHKA_WRITE_PNG=path to look at the picture; nothing is checked here
        // beyond the picture being a PNG.
        let mut b = crate::render::Board::empty(8);
        b.put(
            5,
            0,
            crate::render::Man {
                is_white: true,
                is_king: false,
            },
        );
        b.put(
            0,
            1,
            crate::render::Man {
                is_white: false,
                is_king: true,
            },
        );
        let png = b.to_png();
        assert_eq!(&png[1..4], b"PNG");
        if let Some(path) = std::env::var_os("ZAOCHKA_WRITE_PNG") {
            std::fs::write(path, &png).unwrap();
        }
    }

    #[test]
    fn the_same_letter_builds_to_the_same_bytes() {
        let content = Content {
            text: "Ход".into(),
            html: "<p>Ход</p>".into(),
            board_png: Some(vec![1, 2, 3]),
            attachments: vec![],
        };
        assert_eq!(
            build(&envelope(), &content).unwrap(),
            build(&envelope(), &content).unwrap()
        );
        let mut other = envelope();
        other.message_id = "m2@zaochka".into();
        assert_ne!(
            build(&envelope(), &content).unwrap(),
            build(&other, &content).unwrap()
        );
    }

    #[test]
    fn text_of_many_short_lines_builds_with_crlf_and_reads_back_whole() {
        let text = "ход\n".repeat(300_000);
        let content = Content {
            html: format!("<p>{}</p>", text.replace('\n', "<br>\n")),
            text,
            ..Content::default()
        };
        let raw = build(&envelope(), &content).unwrap();
        let msg = mail_parser::MessageParser::default().parse(&raw).unwrap();
        let body = msg.body_text(0).unwrap();
        assert_eq!(body.matches("ход\r\n").count(), 300_000);
        assert!(!body.replace("\r\n", "").contains('\n'), "no bare LF");
        assert_eq!(crlf("a\nb\r\nc\rd"), "a\r\nb\r\nc\r\nd");
    }

    #[test]
    fn ids_that_cannot_be_written_plainly_are_left_out_of_the_threading() {
        let mut env = envelope();
        env.in_reply_to = Some("идентификатор@players.test".into());
        env.references = vec!["root@zaochka".into(), "a b@x".into()];
        let raw = String::from_utf8(build(&env, &Content::default()).unwrap()).unwrap();
        assert!(!raw.contains("In-Reply-To"), "{raw}");
        assert!(raw.contains("References: <root@zaochka>\r\n"), "{raw}");
    }

    #[test]
    fn a_letter_without_picture_or_attachments_is_plain_alternative() {
        let content = Content {
            text: "Receipt".into(),
            html: "<p>Receipt</p>".into(),
            ..Content::default()
        };
        let raw = String::from_utf8(build(&envelope(), &content).unwrap()).unwrap();
        assert!(raw.contains("multipart/alternative"));
        assert!(!raw.contains("multipart/mixed"));
    }

    #[test]
    fn an_attached_letter_is_8bit_never_base64_and_text_parts_name_their_charset() {
        let letter = "From: Иванов <a@players.test>\nSubject: ход\n\nМой ход: 1. c3-d4\n";
        let content = Content {
            text: "Текст\n".into(),
            html: "<p>Текст</p>".into(),
            board_png: None,
            attachments: vec![
                (
                    "game.pdn".into(),
                    "text/plain".into(),
                    b"[Event \"x\"]".to_vec(),
                ),
                (
                    "letter-1.eml".into(),
                    "message/rfc822".into(),
                    letter.as_bytes().to_vec(),
                ),
                (
                    "letter-2.eml".into(),
                    "message/rfc822".into(),
                    b"Subject: x\r\n\r\nascii only\r\n".to_vec(),
                ),
            ],
        };
        let raw = String::from_utf8(build(&envelope(), &content).unwrap()).unwrap();
        let head_of = |name: &str| {
            let part = raw[..raw.find(name).unwrap()]
                .rfind("--zaochka-mix-")
                .unwrap();
            let part = &raw[part..];
            part[..part.find("\r\n\r\n").unwrap()].to_ascii_lowercase()
        };
        let pdn = head_of("game.pdn");
        assert!(pdn.contains("text/plain; charset=utf-8"), "{pdn}");
        let head = head_of("letter-1.eml");
        assert!(head.contains("message/rfc822"), "{head}");
        assert!(head.contains("content-transfer-encoding: 8bit"), "{head}");
        assert!(
            raw.contains("Мой ход: 1. c3-d4\r\n"),
            "the letter is readable as it came"
        );
        let head = head_of("letter-2.eml");
        assert!(head.contains("content-transfer-encoding: 7bit"), "{head}");
        for part in raw.split("--zaochka-mix-").skip(1) {
            let head = &part[..part.find("\r\n\r\n").unwrap_or(part.len())].to_ascii_lowercase();
            if head.contains("content-type: text/") {
                assert!(
                    head.contains("charset="),
                    "a text part without charset: {head}"
                );
            }
            if head.contains("message/rfc822") {
                assert!(!head.contains("base64"), "{head}");
            }
        }
        let msg = mail_parser::MessageParser::default()
            .parse(raw.as_bytes())
            .unwrap();
        assert_eq!(msg.attachment_count(), 3);
    }
}
