//! The correspondence archive as an mbox file (the mboxrd variant), which every mail client
//! opens: each letter after a `From ` line, its lines that begin with `From ` (after any
//! number of `>`) quoted with one more `>`, so that a reader gives back the letter byte for
//! byte, and a blank line after it.

use std::io::{self, Write};

use chrono::{DateTime, Utc};

/// Writes one letter: the `From ` line with `sender` (the envelope sender; blanks, which the
/// line cannot hold, become `_`, and an empty one is `MAILER-DAEMON`) and `at` in UTC, then
/// `raw` quoted. A letter that does not end with a line break gets one (mbox cannot keep it
/// otherwise).
///
/// # Errors
/// The writer's.
pub fn write_letter(
    out: &mut impl Write,
    sender: &str,
    at: DateTime<Utc>,
    raw: &[u8],
) -> io::Result<()> {
    let sender: String = sender
        .trim()
        .chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect();
    let sender = if sender.is_empty() {
        "MAILER-DAEMON"
    } else {
        &sender
    };
    writeln!(out, "From {sender} {}", at.format("%a %b %e %H:%M:%S %Y"))?;
    for line in raw.split_inclusive(|&b| b == b'\n') {
        let quotes = line.iter().take_while(|&&b| b == b'>').count();
        if line[quotes..].starts_with(b"From ") {
            out.write_all(b">")?;
        }
        out.write_all(line)?;
    }
    if !raw.ends_with(b"\n") {
        out.write_all(b"\n")?;
    }
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn from_lines_are_quoted_and_read_back_byte_for_byte() {
        let at = Utc.with_ymd_and_hms(2026, 12, 6, 9, 5, 3).unwrap();
        let one =
            b"Subject: a\r\n\r\nFrom here\r\n>From there\r\n>>From  x\r\n> From y\r\n".to_vec();
        let two = b"Subject: b\n\nFromage\nFrom\n".to_vec();
        let mut out = Vec::new();
        write_letter(&mut out, "ivanov@example.org", at, &one).unwrap();
        write_letter(&mut out, " \"a b\"@x ", at, &two).unwrap();
        write_letter(&mut out, "", at, b"no end").unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        assert!(
            text.starts_with("From ivanov@example.org Sun Dec  6 09:05:03 2026\n"),
            "{text}"
        );
        assert!(text.contains("\r\n>From here\r\n>>From there\r\n>>>From  x\r\n> From y\r\n"));
        assert!(text.contains("\nFrom \"a_b\"@x Sun Dec  6 09:05:03 2026\n"));
        assert!(text.contains("\nFrom MAILER-DAEMON Sun"));
        let read: Vec<_> = mail_parser::mailbox::mbox::MessageIterator::new(&out[..])
            .map(|m| m.unwrap())
            .collect();
        assert_eq!(read.len(), 3);
        assert_eq!(read[0].from(), "ivanov@example.org");
        assert_eq!(read[0].internal_date(), at.timestamp() as u64);
        // the reader keeps the blank line that ends each letter
        assert_eq!(read[0].contents(), [&one[..], b"\n"].concat());
        assert_eq!(read[1].contents(), [&two[..], b"\n"].concat());
        assert_eq!(read[2].contents(), b"no end\n\n");
    }
}
