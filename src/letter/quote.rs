//! Cutting what the player did not write: quoted earlier letters and the signature.
//!
//! Cut: `>` lines; the reply headers ("attributions") of Gmail, Outlook, Thunderbird, Apple
//! Mail, Yandex and Mail.ru in Russian and English, with everything after them that is not
//! `>`-quoted (so a bottom-posted answer below a `>` quote is kept); Outlook's
//! "-----Original Message-----" and its `From:`/`Sent:` block; forwarded-message markers; and
//! the signature after a `-- ` line; and, as a last guard, the lines only zaochka's own
//! letters have, should a client paste one without any quote mark. A reply quoting zaochka's
//! own letter therefore never reaches the reader, whatever moves that letter contains.

/// The text the player wrote: `text` without quotes, reply headers and signature.
///
/// ```
/// use zaochka::letter::own_text;
/// let text = "Мой ход: 13. e3-f4\n\nпн, 1 дек. 2026 г. в 10:00, Zaochka <z@x>:\n\
///             > Ваш ход: 12... f8:d6\n";
/// assert_eq!(own_text(text), "Мой ход: 13. e3-f4\n");
/// let outlook = "Сдаюсь\n-----Original Message-----\nFrom: z@x\nМой ход: 1. c3-d4\n";
/// assert_eq!(own_text(outlook), "Сдаюсь\n");
/// ```
pub fn own_text(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<&str> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim();
        if is_signature(line)
            || is_cut_marker(trimmed)
            || is_header_block(&lines[i..])
            || is_zaochka_letter(trimmed)
        {
            break;
        }
        if is_quoted(trimmed) {
            i += 1;
            continue;
        }
        let attribution_len = if is_attribution(trimmed) {
            1
        } else if let Some(next) = lines.get(i + 1)
            && trimmed.chars().any(|c| c.is_ascii_digit())
            && is_attribution_end(next.trim())
            && !has_time(next.trim())
            && is_attribution(&format!("{trimmed} {}", next.trim()))
        {
            2
        } else {
            0
        };
        if attribution_len > 0 {
            i += attribution_len;
            // What follows an attribution is the quote: if it is not marked with `>`, it
            // runs to the end (top-posting with an unmarked quote).
            let next_text = lines[i..].iter().map(|l| l.trim()).find(|l| !l.is_empty());
            if next_text.is_some_and(|l| !is_quoted(l)) {
                break;
            }
            continue;
        }
        out.push(line);
        i += 1;
    }
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    let blank_head = out.iter().take_while(|l| l.trim().is_empty()).count();
    out.drain(..blank_head);
    let mut text = out.join("\n");
    if !text.is_empty() {
        text.push('\n');
    }
    text
}

fn is_quoted(trimmed: &str) -> bool {
    trimmed.starts_with('>') || trimmed.starts_with('|') || has_initials_mark(trimmed)
}

/// The Bat!'s and old FidoNet readers' quote mark: the author's initials and `>` ("ИП> Мой
/// ход: …", "IP>> …"). At most four letters, upper case first, then `>` at once.
fn has_initials_mark(trimmed: &str) -> bool {
    let letters = trimmed.chars().take_while(|c| c.is_alphabetic()).count();
    (1..=4).contains(&letters)
        && trimmed.chars().next().is_some_and(char::is_uppercase)
        && trimmed.chars().nth(letters) == Some('>')
}

/// `-- ` (RFC 3676), also without its trailing space as some clients strip it.
fn is_signature(line: &str) -> bool {
    line == "-- " || line == "--" || line == "—" || line.trim_end() == "-- "
}

/// Lines that start a forwarded or quoted letter, whatever follows.
fn is_cut_marker(trimmed: &str) -> bool {
    let lower = trimmed.to_lowercase();
    let core = lower.trim_matches(|c: char| c == '-' || c == '–' || c == '_' || c.is_whitespace());
    const MARKERS: [&str; 10] = [
        "original message",
        "исходное сообщение",
        "пересылаемое сообщение",
        "переадресованное сообщение",
        "forwarded message",
        "begin forwarded message:",
        "начало переадресованного сообщения:",
        "конец пересылаемого сообщения",
        "reply message",
        "ответное сообщение",
    ];
    (core.len() < lower.len() || core.ends_with(':')) && MARKERS.contains(&core)
        || trimmed.len() >= 20 && trimmed.chars().all(|c| c == '_')
}

/// A line only zaochka's own letters have (templates/*/forward.txt, receipt.txt,
/// start_list.txt): a copy of such a letter pasted without any quote mark is cut there, so
/// its moves are never read as the player's.
fn is_zaochka_letter(trimmed: &str) -> bool {
    trimmed.starts_with("Турнир ") && trimmed.contains("(белые)")
        || trimmed.starts_with("Tournament ") && trimmed.contains("(White)")
        || trimmed.contains("записан и отправлен партнёру")
        || trimmed.contains("is recorded and sent to your partner")
        || trimmed.starts_with("Чтобы ответить, нажмите")
        || trimmed.starts_with("To answer, press")
        || trimmed.starts_with("Ходы посылайте письмом на")
        || trimmed.starts_with("Send your moves by mail to")
}

/// Outlook's header block: `From:`/`От:` followed closely by `Sent:`/`Отправлено:`/`Date:`.
fn is_header_block(lines: &[&str]) -> bool {
    let strip = |l: &str| l.trim().trim_start_matches('*').to_lowercase();
    let first = strip(lines[0]);
    if !(first.starts_with("from:") || first.starts_with("от:") || first.starts_with("от кого:"))
    {
        return false;
    }
    lines.iter().skip(1).take(4).any(|l| {
        let l = strip(l);
        [
            "sent:",
            "отправлено:",
            "date:",
            "дата:",
            "to:",
            "кому:",
            "subject:",
            "тема:",
        ]
        .iter()
        .any(|p| l.starts_with(p))
    })
}

/// The endings of a reply header line.
fn is_attribution_end(trimmed: &str) -> bool {
    let lower = trimmed.to_lowercase();
    const ENDINGS: [&str; 11] = [
        "wrote:",
        "writes:",
        "пишет:",
        "написал:",
        "написала:",
        "написал(а):",
        "писал:",
        "писала:",
        "писал(а):",
        ">:",
        "a écrit :",
    ];
    ENDINGS.iter().any(|e| lower.ends_with(e))
}

/// A reply header: "On … wrote:", "… пишет:", and the date-and-address headers of Gmail (ru),
/// Yandex and Mail.ru that end with `<address>:`.
fn is_attribution(trimmed: &str) -> bool {
    if !trimmed.ends_with(':') || trimmed.len() > 300 {
        return false;
    }
    if is_attribution_end(trimmed) {
        return trimmed.chars().any(|c| c.is_ascii_digit()) || trimmed.contains('@');
    }
    // "Понедельник, 1 декабря 2026, 10:00 +03:00 от Bob:" — a time and a year.
    let has_time = has_time(trimmed);
    let has_year = trimmed
        .as_bytes()
        .windows(4)
        .any(|w| w.starts_with(b"20") && w[2].is_ascii_digit() && w[3].is_ascii_digit());
    has_time && has_year && (trimmed.contains(" от ") || trimmed.contains(" from "))
}

/// Whether the text has a time of day `h:mm`.
fn has_time(text: &str) -> bool {
    text.as_bytes().windows(4).any(|w| {
        w[0].is_ascii_digit() && w[1] == b':' && w[2].is_ascii_digit() && w[3].is_ascii_digit()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bottom_posted_answer_below_a_quote_is_kept() {
        let text = "01.12.2026 10:00, Bob пишет:\n> Мой ход: 1. c3-d4\n\nМой ход: 1... f6-g5\n";
        assert_eq!(own_text(text), "Мой ход: 1... f6-g5\n");
    }

    #[test]
    fn gmail_attribution_wrapped_over_two_lines_is_cut() {
        let text = "Сдаюсь\n\nOn Mon, 1 Dec 2026 at 10:00, Bob Smith <\nbob@x.test> wrote:\n\
                    > Мой ход: 1. c3-d4\n";
        assert_eq!(own_text(text), "Сдаюсь\n");
    }

    #[test]
    fn unmarked_quote_after_attribution_is_cut_to_the_end() {
        let text = "Сдаюсь\n01.12.2026, 10:00, \"Bob\" <b@x>:\nМой ход: 1. c3-d4\n";
        assert_eq!(own_text(text), "Сдаюсь\n");
    }

    #[test]
    fn mail_ru_header_and_forward_marker_are_cut() {
        let text = "Сдаюсь\nПонедельник, 1 декабря 2026, 10:00 +03:00 от Bob <b@x>:\nМой ход\n";
        assert_eq!(own_text(text), "Сдаюсь\n");
        let text = "Сдаюсь\n-------- Пересылаемое сообщение --------\nМой ход\n";
        assert_eq!(own_text(text), "Сдаюсь\n");
    }

    #[test]
    fn russian_outlook_block_is_cut() {
        let text = "Сдаюсь\n\nОт: Zaochka <z@x>\nОтправлено: 1 декабря 2026 г. 10:00\n\
                    Кому: me\nТема: Партия 7\n\nМой ход: 1. c3-d4\n";
        assert_eq!(own_text(text), "Сдаюсь\n");
    }

    #[test]
    fn zaochka_letter_pasted_without_quote_marks_is_cut() {
        let text = "Мой ход: 13. e3-f4\n\nЗдравствуйте, Иван!\n\
                    Турнир ЗШ-2026-1, партия 7: Петрова (белые) — Иванов (чёрные).\n\
                    Ход партнёра: 12... f8:d6\n";
        assert_eq!(
            own_text(text),
            "Мой ход: 13. e3-f4\n\nЗдравствуйте, Иван!\n"
        );
        let receipt =
            "Сдаюсь\nВаш ход 13. e3-f4 в партии 7 (А — Б) записан и отправлен партнёру.\n";
        assert_eq!(own_text(receipt), "Сдаюсь\n");
    }

    #[test]
    fn signature_is_cut() {
        assert_eq!(own_text("Сдаюсь\n-- \nИванов, 1. c3-d4\n"), "Сдаюсь\n");
    }

    #[test]
    fn a_keyword_line_ending_with_a_colon_is_not_an_attribution() {
        assert_eq!(own_text("Мой ход:\n13. e3-f4\n"), "Мой ход:\n13. e3-f4\n");
        assert_eq!(
            own_text("Даты 01.12.2026, 10:00:\nx\n"),
            "Даты 01.12.2026, 10:00:\nx\n"
        );
    }
}
