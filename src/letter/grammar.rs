//! The letter grammar: keywords (Russian and English, any case, any order, with or without a
//! colon) and what each one reads after it.
//!
//! Keywords are found by one regex over a lower-cased copy of the text that keeps every byte
//! offset (so values such as the cipher are cut from the original by the same offsets), with
//! word boundaries checked by hand (Unicode `\b` would push the regex off its fast engine).

use std::sync::LazyLock;

use chrono::{Datelike, NaiveDate};
use regex::Regex;

use super::{
    Break, Draw, Evaluation, Letter, MoveItem, Place, Problem, ReadContext, Side, TimeUsed, Variant,
};
use crate::rules::{MoveText, ParseMoveError};

/// What a keyword announces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kw {
    Decline,
    Accept,
    Offer,
    NoResign,
    Resign,
    Propose,
    Label,
    Cipher,
    Game,
    Repeated,
    Own,
    Bare,
    If,
    On,
    Dates,
    Time,
    TakeBreak,
    Break,
    Protest,
    Analysis,
    Eval,
    Board,
}

/// Group names of [`KEYWORDS`], in the order of the alternation.
const GROUPS: [(&str, Kw); 22] = [
    ("decline", Kw::Decline),
    ("accept", Kw::Accept),
    ("offer", Kw::Offer),
    ("noresign", Kw::NoResign),
    ("resign", Kw::Resign),
    ("propose", Kw::Propose),
    ("label", Kw::Label),
    ("cipher", Kw::Cipher),
    ("game", Kw::Game),
    ("repeated", Kw::Repeated),
    ("own", Kw::Own),
    ("bare", Kw::Bare),
    ("if", Kw::If),
    ("on", Kw::On),
    ("dates", Kw::Dates),
    ("time", Kw::Time),
    ("takebreak", Kw::TakeBreak),
    ("brk", Kw::Break),
    ("protest", Kw::Protest),
    ("analysis", Kw::Analysis),
    ("eval", Kw::Eval),
    ("board", Kw::Board),
];

/// The keywords, over lower-cased text in which `ё` is `е`. Longer phrases come first where
/// they start alike (leftmost-first alternation).
static KEYWORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?P<decline>не\s+принимаю\s+ничью|ничью\s+не\s+принимаю|не\s+соглас(?:ен|на)\s+на\s+ничью",
        r"|отклоняю\s+(?:ваше\s+)?(?:предложение\s+)?ничь(?:ю|ей)|i\s+decline\s+(?:the|your)\s+draw",
        r"|i\s+do\s+not\s+accept\s+the\s+draw|i\s+don'?t\s+accept\s+the\s+draw)",
        r"|(?P<accept>ничью\s+принимаю|принимаю\s+(?:ваше\s+)?(?:предложение\s+)?ничь(?:ю|ей)",
        r"|соглас(?:ен|на)\s+на\s+ничью|i\s+accept\s+(?:the\s+|your\s+)?draw(?:\s+offer)?",
        r"|draw\s+accepted|i\s+agree\s+to\s+(?:a|the)\s+draw)",
        r"|(?P<offer>предлагаю\s+ничью|ничью\s+предлагаю|i\s+offer\s+(?:you\s+)?a\s+draw",
        r"|i\s+propose\s+a\s+draw|draw\s+offer(?:ed)?)",
        r"|(?P<noresign>не\s+сдаюсь|i\s+do\s+not\s+resign|i\s+don'?t\s+resign|i\s+won'?t\s+resign)",
        r"|(?P<resign>сдаюсь|признаю\s+(?:свое\s+)?поражение|i\s+resign)",
        r"|(?P<propose>предлагаю\s+(?:следующий\s+)?вариант|i\s+propose\s+(?:the\s+|a\s+)?variant)",
        r"|(?P<label>варианты|вариант|variants|variant)",
        r"|(?P<cipher>шифр(?:\s+турнира)?|tournament|cipher)",
        r"|(?P<game>парти[яию]|game)",
        r"|(?P<repeated>ваш[иа]?\s+ход[ыа]?|ходы?\s+партнера|your\s+moves?)",
        r"|(?P<own>мо[йи]\s+ход[ыа]?|мой\s+ответ|ответный\s+ход|отвечаю|my\s+moves?|my\s+reply|i\s+reply)",
        r"|(?P<bare>ходы|ход|moves|move)",
        r"|(?P<if>если|if)",
        r"|(?P<on>на|on)",
        r"|(?P<dates>три\s+даты|даты|дата|dates)",
        r"|(?P<time>затраченное\s+время|время|time\s+used|time)",
        r"|(?P<takebreak>беру\s+перерыв|i\s+take\s+a\s+break|i\s+am\s+taking\s+a\s+break",
        r"|i'm\s+taking\s+a\s+break)",
        r"|(?P<brk>перерыв|break)",
        r"|(?P<protest>протест|protest)",
        r"|(?P<analysis>анализ|analysis)",
        r"|(?P<eval>оценка|evaluation)",
        r"|(?P<board>доска|board)",
    ))
    .expect("the keyword regex is a constant and compiles") // checked by every test
});

static DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\A(\d{1,2})\.(\d{1,2})(?:\.(\d{4}|\d{2}))?(?:\s*г\.?)?")
        .expect("constant regex compiles")
});

static TIME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(\d{1,4})\s*(?:дн\S*\s*)?[/\\]\s*(\d{1,4})").expect("constant regex compiles")
});

/// `белые 23, чёрные 17`, `white 23, black 17` (over lower-cased text).
static TIME_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\A(?:бел|white)\S*\s*[:\-–—]?\s*(\d{1,4})\D{1,20}?",
        r"(?:черн|black)\S*\s*[:\-–—]?\s*(\d{1,4})",
    ))
    .expect("constant regex compiles")
});

static BREAK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\A[\s:\-–—]*(?:(?:с|со|from)\s+)?(\d{1,2}\.\d{1,2}(?:\.\d{2,4})?)\s*",
        r"(?:по|до|to|till|until|[-–—])\s*(\d{1,2}\.\d{1,2}(?:\.\d{2,4})?)",
    ))
    .expect("constant regex compiles")
});

/// A numbered move: `12. c3-d4`, `12... f8:d6`, `12…f8:d6`.
static UNLABELLED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\d{1,3}\s*(?:\.{1,3}|…)\s*[\p{L}\d]{1,3}[-:x–—][\p{L}\d]{1,3}")
        .expect("constant regex compiles")
});

/// What follows `Доска` / `Board`: the side the player wants to see the board from
/// (`от чёрных`, `со стороны белых`, `from black`, `from Black's side`, `чёрные`), over
/// lower-cased text in which `ё` is `е`.
static BOARD_SIDE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\A[\s:\-–—]*(?:(?:от|со\s+стороны|с\s+стороны|from(?:\s+the\s+side\s+of)?|as)\s+)?",
        r"(?:the\s+)?(бел|черн|white|black)",
    ))
    .expect("constant regex compiles")
});

static OPPONENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\A[\s:]*(?i:с|со|против|with|vs\.?|against)\s+(\p{Lu}[\p{L}\-]*)")
        .expect("constant regex compiles")
});

static SUBJECT_CIPHER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\A\p{Lu}\p{L}{1,7}[-–][\p{L}\d]+(?:[-–/][\p{L}\d]+)*\z")
        .expect("constant regex compiles")
});

/// Lower-cases without changing any byte offset: a char whose lower case has another length
/// stays as it is; `ё` reads as `е`.
fn lower_same_len(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else if c == 'ё' || c == 'Ё' {
            out.push('е');
        } else {
            let mut lower = c.to_lowercase();
            match (lower.next(), lower.next()) {
                (Some(l), None) if l.len_utf8() == c.len_utf8() => out.push(l),
                _ => out.push(c),
            }
        }
    }
    out
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// One keyword found: what, and where (byte offsets, the same in the original text).
#[derive(Clone, Copy, Debug)]
struct Found {
    kw: Kw,
    start: usize,
    end: usize,
}

fn find_keywords(lower: &str) -> Vec<Found> {
    let mut found = Vec::new();
    let mut pos = 0;
    while pos < lower.len() {
        let Some(caps) = KEYWORDS.captures_at(lower, pos) else {
            break;
        };
        let whole = caps.get(0).expect("group 0 is always there"); // regex API guarantee
        let before_ok = !lower[..whole.start()]
            .chars()
            .next_back()
            .is_some_and(is_word_char);
        let after_ok = !lower[whole.end()..]
            .chars()
            .next()
            .is_some_and(is_word_char);
        if before_ok && after_ok {
            if let Some(kw) = GROUPS
                .iter()
                .find(|(name, _)| caps.name(name).is_some())
                .map(|(_, kw)| *kw)
            {
                found.push(Found {
                    kw,
                    start: whole.start(),
                    end: whole.end(),
                });
            }
            pos = whole.end();
        } else {
            // Try again one character further: a longer word only began like a keyword.
            pos = whole.start()
                + lower[whole.start()..]
                    .chars()
                    .next()
                    .map_or(1, char::len_utf8);
        }
    }
    found
}

/// The end of the paragraph that starts at `from`: the next blank line, or the end.
fn paragraph_end(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = from;
    // A keyword alone on its line ("Протест:\n…") runs on to the next line.
    while i < bytes.len() {
        if bytes[i] == b'\n' {
            let rest = &text[i + 1..];
            let line_end = rest.find('\n').map_or(rest.len(), |e| e);
            if rest[..line_end].trim().is_empty() && text[from..i].trim().len() > 1 {
                return i;
            }
        }
        i += 1;
    }
    text.len()
}

/// A move as it stands in the text, before numbers are carried on.
#[derive(Clone, Debug)]
struct Written {
    number: Option<(u32, Side)>,
    text: String,
    parsed: Result<MoveText, ParseMoveError>,
}

fn is_move_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '-' | '\u{2010}'..='\u{2015}' | '\u{2212}' | ':' | '×')
}

/// Whether a token is meant as a move (readable or not): letters, digits and move
/// separators only, with a digit and a letter or a separator (`c3-d4`, `cd4`, `32-28`,
/// `c:e5`, and also `е3-ф4`, which is then unreadable), or two Latin file letters (`cd`,
/// semi-short notation).
fn is_move_like(core: &str) -> bool {
    if core.is_empty() || core.len() > 40 || !core.chars().all(is_move_char) {
        return false;
    }
    let has_digit = core.chars().any(|c| c.is_ascii_digit());
    let has_other = core.chars().any(|c| !c.is_ascii_digit());
    if has_digit {
        return has_other;
    }
    let has_sep = core.chars().any(|c| !c.is_alphanumeric());
    has_sep
        || core.len() == 2
            && core
                .chars()
                .all(|c| matches!(c.to_ascii_lowercase(), 'a'..='h' | 'i' | 'k'))
}

/// A move number token: `12.`, `12...`, `12…`, `12..`, and what follows it in the token.
fn split_number(token: &str) -> Option<(u32, Option<Side>, &str)> {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 3 {
        return None;
    }
    let n: u32 = token[..digits].parse().ok()?;
    let rest = &token[digits..];
    let marks = rest
        .char_indices()
        .take_while(|(_, c)| *c == '.' || *c == '…')
        .last()
        .map_or(0, |(i, c)| i + c.len_utf8());
    let (mark, after) = rest.split_at(marks);
    let side = match mark {
        "" => None,
        "." => Some(Side::White),
        _ => Some(Side::Black),
    };
    if side.is_none() && !after.is_empty() {
        return None;
    }
    Some((n, side, after))
}

fn is_black_mark(token: &str) -> bool {
    !token.is_empty() && token.chars().all(|c| c == '.' || c == '…') && token != "."
}

/// Reads moves from the start of `text` (numbers, moves), stopping at the first word that is
/// neither. Returns the moves and the byte offset where reading stopped.
fn parse_moves(text: &str) -> (Vec<Written>, usize) {
    let mut moves = Vec::new();
    let mut pending: Option<(u32, Side)> = None;
    let mut bare: Option<u32> = None;
    let mut consumed = 0;
    let mut pos = 0;
    let bytes = text.as_bytes();
    while pos < text.len() {
        // Skip separators between tokens.
        while pos < text.len()
            && (bytes[pos].is_ascii_whitespace() || bytes[pos] == b',' || bytes[pos] == b';')
        {
            pos += 1;
        }
        let rest = &text[pos..];
        let Some(first) = rest.chars().next() else {
            break;
        };
        if first.is_whitespace() {
            // A non-ASCII space (no-break space).
            pos += first.len_utf8();
            continue;
        }
        let len = rest
            .find(|c: char| c.is_whitespace() || c == ',' || c == ';')
            .unwrap_or(rest.len());
        let token = &rest[..len];
        let token_end = pos + len;

        if is_black_mark(token) {
            if let Some((n, _)) = pending {
                pending = Some((n, Side::Black));
            } else if let Some(n) = bare.take() {
                pending = Some((n, Side::Black));
            }
            pos = token_end;
            continue;
        }
        let mut core = token;
        if let Some((n, side, after)) = split_number(token) {
            match side {
                None => {
                    bare = Some(n);
                    pos = token_end;
                    continue;
                }
                Some(side) => {
                    pending = Some((n, side));
                    bare = None;
                    if after.is_empty() {
                        pos = token_end;
                        continue;
                    }
                    core = after;
                }
            }
        }
        let core = core
            .trim_start_matches(['(', '«', '"', '\''])
            .trim_end_matches([
                '.', ',', ';', '!', '?', ')', '»', '"', '\'', '+', '*', ':', '-', '–', '—',
            ]);
        if !is_move_like(core) {
            break;
        }
        let number = pending
            .take()
            .or_else(|| bare.take().map(|n| (n, Side::White)));
        let mut written = core.to_owned();
        let mut parsed: Result<MoveText, ParseMoveError> = core.parse();
        let mut end = token_end;
        if parsed.is_err() {
            // "c3 - d4", "c3- d4", "c3 : e5 : g7": spaces around the separators.
            let trailing = token.trim_end_matches(['.', ',', ';', '!', '?', ')']);
            let first_sep = trailing.chars().next_back().filter(|c| is_separator(*c));
            if let Some((glued, glued_end)) = glue_squares(text, token_end, core, first_sep) {
                written = glued;
                parsed = written.parse();
                end = glued_end;
            }
        }
        moves.push(Written {
            number,
            text: written,
            parsed,
        });
        pos = end;
        consumed = end;
    }
    (moves, consumed)
}

fn is_separator(c: char) -> bool {
    matches!(
        c,
        '-' | '\u{2010}'..='\u{2015}' | '\u{2212}' | ':' | '×' | 'x' | 'х'
    )
}

/// Joins a square with the separators and squares written after it with spaces, on the same
/// line, as long as the result reads as a move. Returns the move text and where it ends.
fn glue_squares(
    text: &str,
    mut at: usize,
    first: &str,
    mut sep: Option<char>,
) -> Option<(String, usize)> {
    let mut glued = first.to_owned();
    let mut best = None;
    loop {
        let rest = text[at..].trim_start_matches([' ', '\t', '\u{a0}']);
        let sep_char = match sep.take() {
            Some(c) => c,
            None => {
                let Some(c) = rest.chars().next().filter(|c| is_separator(*c)) else {
                    return best;
                };
                at = text.len() - rest.len() + c.len_utf8();
                c
            }
        };
        let after = text[at..].trim_start_matches([' ', '\t', '\u{a0}']);
        let len = after
            .find(|c: char| c.is_whitespace() || c == ',' || c == ';')
            .unwrap_or(after.len());
        let next = after[..len].trim_end_matches(['.', ',', ';', '!', '?', ')']);
        if next.is_empty() || !next.chars().all(is_move_char) {
            return best;
        }
        glued.push(sep_char);
        glued.push_str(next);
        at = text.len() - after.len() + len;
        if glued.parse::<MoveText>().is_ok() {
            best = Some((glued.clone(), at));
        } else if best.is_some() {
            return best;
        }
    }
}

fn next_number((n, side): (u32, Side)) -> (u32, Side) {
    match side {
        Side::White => (n, Side::Black),
        Side::Black => (n + 1, Side::White),
    }
}

/// Carries move numbers on through `written`, from `prev`, reporting numbers that do not
/// follow (10.2.14).
fn number_moves(
    written: Vec<Written>,
    prev: &mut Option<(u32, Side)>,
    problems: &mut Vec<Problem>,
) -> Vec<MoveItem> {
    written
        .into_iter()
        .map(|w| {
            let expected = prev.map(next_number);
            let current = match (w.number, expected) {
                (Some(found), Some(expected)) if found != expected => {
                    problems.push(Problem::Numbering {
                        text: w.text.clone(),
                        expected,
                        found,
                    });
                    Some(found)
                }
                (Some(found), _) => Some(found),
                (None, expected) => expected,
            };
            *prev = current;
            MoveItem {
                number: current.map(|c| c.0),
                side: current.map(|c| c.1),
                text: w.text,
                parsed: w.parsed,
            }
        })
        .collect()
}

/// Skips spaces and the punctuation that may stand between a keyword and its value.
fn skip_punct(text: &str) -> &str {
    text.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, ':' | '-' | '–' | '—' | '.'))
}

/// Where the value of a dates or time line starts: at the first digit or word of white's
/// time on the keyword's line, or on the next line when the keyword ends its line. At most
/// 80 characters are skipped.
fn value_start(after_keyword: &str) -> &str {
    let line_end = after_keyword.find('\n').unwrap_or(after_keyword.len());
    let (line, from) = if after_keyword[..line_end]
        .trim()
        .trim_matches(':')
        .is_empty()
    {
        let next = &after_keyword[(line_end + 1).min(after_keyword.len())..];
        (next, after_keyword.len() - next.len())
    } else {
        (&after_keyword[..line_end], 0)
    };
    let lower = lower_same_len(line);
    let digit = line.find(|c: char| c.is_ascii_digit());
    let word = ["бел", "white"].iter().filter_map(|w| lower.find(w)).min();
    match digit.into_iter().chain(word).min() {
        Some(i) if line[..i].chars().count() <= 80 => &after_keyword[from + i..],
        _ => &after_keyword[from..],
    }
}

/// A date as written (`01.12.2026`, `1.12.26`, `01.12`): day, month, and year if given.
fn parse_date_text(text: &str) -> Option<(u32, u32, Option<i32>, usize)> {
    let caps = DATE.captures(text)?;
    let day = caps[1].parse().ok()?;
    let month = caps[2].parse().ok()?;
    let year = caps.get(3).and_then(|y| {
        let y: i32 = y.as_str().parse().ok()?;
        Some(if y < 100 { 2000 + y } else { y })
    });
    Some((day, month, year, caps.get(0)?.end()))
}

/// How a year-less date is placed around the letter's date.
#[derive(Clone, Copy)]
enum Lean {
    /// A date already passed (the three dates): a date more than a month after the letter
    /// is last year's.
    Past,
    /// A date to come (a break): a date more than a month before the letter is next year's.
    Future,
}

fn resolve_date(
    day: u32,
    month: u32,
    year: Option<i32>,
    letter: Option<NaiveDate>,
    lean: Lean,
) -> Option<NaiveDate> {
    if let Some(y) = year {
        return NaiveDate::from_ymd_opt(y, month, day);
    }
    let letter = letter?;
    let this_year = NaiveDate::from_ymd_opt(letter.year(), month, day)?;
    let (shifted, is_far) = match lean {
        Lean::Past => (
            NaiveDate::from_ymd_opt(letter.year() - 1, month, day),
            (this_year - letter).num_days() > 31,
        ),
        Lean::Future => (
            NaiveDate::from_ymd_opt(letter.year() + 1, month, day),
            (letter - this_year).num_days() > 31,
        ),
    };
    if is_far { shifted } else { Some(this_year) }
}

/// Reads the cipher value after its keyword.
///
/// Without a colon the value must have a digit (`ЗШ-2026-1`), so that prose such as "thanks
/// for the tournament. My move…" gives no cipher.
fn read_cipher(segment: &str) -> Option<String> {
    let has_colon = segment.trim_start().starts_with([':', '-', '–', '—']);
    let value = skip_punct(segment);
    let value = value
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .next()?;
    let value = value.trim_end_matches(['.', ',', ';', ')']);
    let is_cipher = value.chars().any(|c| c.is_ascii_digit())
        || has_colon && value.chars().any(char::is_alphanumeric);
    is_cipher.then(|| value.to_owned())
}

/// Reads `7`, `№ 7`, `N7`, `#7`, `no. 7` after `Партия`/`Game`.
fn read_game_number(segment: &str) -> Option<u32> {
    let mut rest = segment.trim_start_matches(|c: char| c.is_whitespace() || c == ':');
    for prefix in ["№", "n", "N", "#", "no.", "No.", "номер"] {
        if let Some(r) = rest.strip_prefix(prefix) {
            rest = r.trim_start();
            break;
        }
    }
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 6 || rest[digits..].chars().next().is_some_and(is_word_char) {
        return None;
    }
    rest[..digits].parse().ok()
}

fn read_evaluation(lower_segment: &str) -> Option<Evaluation> {
    let line = skip_punct(lower_segment).lines().next().unwrap_or_default();
    if line.contains("ничь")
        || line.contains("ничейн")
        || line.contains("draw")
        || line.contains("1/2")
    {
        Some(Evaluation::Draw)
    } else if line.contains("бел") || line.contains("white") || line.starts_with("1-0") {
        Some(Evaluation::White)
    } else if line.contains("черн") || line.contains("black") || line.starts_with("0-1") {
        Some(Evaluation::Black)
    } else {
        None
    }
}

/// Strips a leading `then`-word (`то`, `тогда`, `then`) or propose-word; returns the rest.
fn strip_word(lower: &str, words: &[&str]) -> Option<usize> {
    let trimmed = lower.trim_start_matches(|c: char| {
        c.is_whitespace() || matches!(c, ',' | ';' | ':' | '-' | '–' | '—')
    });
    let skipped = lower.len() - trimmed.len();
    for w in words {
        if let Some(after) = trimmed.strip_prefix(w)
            && !after.chars().next().is_some_and(is_word_char)
        {
            return Some(skipped + w.len());
        }
    }
    None
}

fn cut_variant(
    label: Option<String>,
    written: Vec<Written>,
    index: usize,
    problems: &mut Vec<Problem>,
) -> (Option<String>, Vec<Written>, Option<Written>) {
    let mut written = written;
    if let Some(bad) = written.iter().position(|w| w.parsed.is_err()) {
        let cut = written.split_off(bad).into_iter().next();
        if let Some(c) = &cut {
            problems.push(Problem::VariantCut {
                label: label.clone(),
                index,
                text: c.text.clone(),
                is_short: matches!(c.parsed, Err(ParseMoveError::Short(_))),
            });
        }
        (label, written, cut)
    } else {
        (label, written, None)
    }
}

/// A label standing alone at the end of a text: `…; б)`, `… Б:`.
fn tail_label(segment: &str) -> Option<String> {
    let trimmed = segment.trim_end();
    let rest = trimmed.strip_suffix([')', ':'])?;
    let label = rest.chars().next_back()?;
    let before = rest[..rest.len() - label.len_utf8()].chars().next_back();
    (label.is_alphanumeric()
        && before.is_none_or(|b| b.is_whitespace() || matches!(b, ';' | ',' | '.' | ':' | '(')))
    .then(|| label.to_string())
}

/// Reads the label after `Вариант`: one letter or digit followed by `:`, `.`, `)` or a space.
fn read_label(segment: &str) -> (Option<String>, usize) {
    let trimmed = segment.trim_start();
    let skipped = segment.len() - trimmed.len();
    let mut chars = trimmed.char_indices();
    if let Some((_, c)) = chars.next()
        && c.is_alphanumeric()
    {
        let after = trimmed[c.len_utf8()..].chars().next();
        if after.is_none_or(|a| a.is_whitespace() || matches!(a, ':' | '.' | ')' | '-' | '–' | '—'))
        {
            let mut end = skipped + c.len_utf8();
            let rest = &segment[end..];
            end += rest.len() - skip_punct(rest.trim_start_matches(')')).len();
            return (Some(c.to_string()), end);
        }
    }
    let rest = skip_punct(segment);
    (None, segment.len() - rest.len())
}

/// Reads the own text of a letter (quotes already cut).
pub(super) fn read_own_text(text: &str, ctx: &ReadContext) -> Letter {
    let lower = lower_same_len(text);
    let found = find_keywords(&lower);
    let letter_date = ctx.date.map(|d| d.date_naive());

    let mut letter = Letter {
        from: ctx.from.clone(),
        subject: ctx.subject.clone(),
        date: ctx.date,
        ..Letter::default()
    };
    let mut problems = Vec::new();
    let mut repeated: Option<Vec<Written>> = None;
    let mut own: Option<Vec<Written>> = None;
    // `Ход: 1. c3-d4` with neither `Ваш` nor `Мой`: whose moves is for the judge to tell.
    let mut bare: Option<Vec<Written>> = None;
    let mut variants: Vec<(Option<String>, Vec<Written>, Option<Written>)> = Vec::new();
    let mut pending_label: Option<String> = None;
    let mut dates_seen = false;
    let mut skip_until = 0;

    // For each keyword, where the next `Оценка` after it ends (an analysis runs to there).
    let mut next_eval = vec![None; found.len() + 1];
    for j in (0..found.len()).rev() {
        next_eval[j] = if found[j].kw == Kw::Eval {
            Some(found[j].end)
        } else {
            next_eval[j + 1]
        };
    }

    let mut i = 0;
    while i < found.len() {
        let Found { kw, end, start } = found[i];
        i += 1;
        if start < skip_until && kw != Kw::Eval {
            continue;
        }
        let next_start = found[i..]
            .iter()
            .find(|f| f.start >= skip_until || f.kw == Kw::Eval)
            .map_or(text.len(), |f| f.start);
        let segment = &text[end..next_start.max(end)];
        let lower_segment = &lower[end..next_start.max(end)];
        let label = if matches!(kw, Kw::If | Kw::On | Kw::Propose) {
            pending_label.take()
        } else {
            None
        };
        pending_label = None;

        match kw {
            Kw::Cipher => {
                if let Some(c) = read_cipher(segment) {
                    match &letter.cipher {
                        None => letter.cipher = Some(c),
                        Some(old) if *old != c => {
                            problems.push(Problem::Duplicate { what: "cipher" })
                        }
                        Some(_) => {}
                    }
                }
            }
            Kw::Game => {
                if let Some(n) = read_game_number(segment) {
                    letter.game.get_or_insert(n);
                } else if let Some(caps) = OPPONENT.captures(segment) {
                    letter.opponent.get_or_insert_with(|| caps[1].to_owned());
                }
            }
            Kw::Repeated | Kw::Own => {
                let (mut moves, _) = parse_moves(skip_punct(segment));
                if moves.is_empty() {
                    // "Ваш ход получен: 12... f8:d6": a few words before the moves.
                    let first_digit = segment
                        .char_indices()
                        .take(50)
                        .find(|(_, c)| c.is_ascii_digit())
                        .map(|(i, _)| i);
                    if let Some(i) = first_digit {
                        moves = parse_moves(&segment[i..]).0;
                    }
                }
                if !moves.is_empty() {
                    let (slot, what) = if kw == Kw::Repeated {
                        (&mut repeated, "repetition")
                    } else {
                        (&mut own, "moves")
                    };
                    let texts =
                        |l: &[Written]| l.iter().map(|w| w.text.clone()).collect::<Vec<_>>();
                    match slot {
                        None => *slot = Some(moves),
                        Some(first) if texts(first) != texts(&moves) => {
                            problems.push(Problem::Duplicate { what });
                        }
                        Some(_) => {}
                    }
                }
            }
            Kw::Bare => {
                // Only moves right after the word: "ход за вами, 12. c3-d4" is prose.
                let (moves, _) = parse_moves(skip_punct(segment));
                if !moves.is_empty() && bare.is_none() {
                    bare = Some(moves);
                }
            }
            Kw::Label | Kw::Propose => {
                let (written_label, offset) = read_label(segment);
                let (moves, _) = parse_moves(&segment[offset..]);
                let label = written_label.or(label);
                if moves.is_empty() {
                    pending_label = label;
                } else {
                    let index = variants.len();
                    variants.push(cut_variant(label, moves, index, &mut problems));
                }
            }
            Kw::If | Kw::On => {
                let (mut first, consumed) = parse_moves(segment);
                if !first.is_empty() {
                    let words: &[&str] = if kw == Kw::If {
                        &["тогда", "то", "then"]
                    } else {
                        &["предлагаю", "i propose", "i suggest", "propose"]
                    };
                    let after = strip_word(&lower_segment[consumed..], words)
                        .map(|o| parse_moves(&segment[consumed + o..]).0);
                    let is_variant = match after {
                        Some(second) => {
                            first.extend(second);
                            true
                        }
                        None => kw == Kw::If,
                    };
                    if is_variant {
                        let index = variants.len();
                        variants.push(cut_variant(label, first, index, &mut problems));
                    }
                }
            }
            Kw::Dates => {
                // Words may stand between the keyword and the dates ("Даты получения,
                // ответа и отправки: …"), and other keywords too ("на"): read on from the
                // first digit of the line (or of the next line, when this one ends here).
                let mut rest = value_start(&text[end..]);
                let mut count = 0;
                loop {
                    let trimmed = rest.trim_start_matches(|c: char| {
                        c.is_whitespace()
                            || matches!(c, '/' | ',' | ';' | '|' | ':' | '-' | '–' | '—')
                    });
                    let Some((d, m, y, len)) = parse_date_text(trimmed) else {
                        break;
                    };
                    count += 1;
                    match resolve_date(d, m, y, letter_date, Lean::Past) {
                        Some(date) => letter.dates.push(date),
                        None => problems.push(Problem::UnreadableDate {
                            text: trimmed[..len].trim().to_owned(),
                        }),
                    }
                    rest = &trimmed[len..];
                }
                if count > 0 {
                    if dates_seen {
                        problems.push(Problem::Duplicate { what: "dates" });
                    } else if count != 3 {
                        problems.push(Problem::DatesCount { found: count });
                    }
                    dates_seen = true;
                }
            }
            Kw::Time => {
                // As for dates: "Время на обдумывание: 23/17" has words (and "на") between.
                let line = value_start(&text[end..]).lines().next().unwrap_or_default();
                let lower_line = lower_same_len(line);
                let caps = TIME
                    .captures(line)
                    .or_else(|| TIME_WORDS.captures(&lower_line));
                if let Some(caps) = caps
                    && let (Ok(white), Ok(black)) = (caps[1].parse(), caps[2].parse())
                {
                    letter.time.get_or_insert(TimeUsed { white, black });
                }
            }
            Kw::Decline | Kw::NoResign => {}
            Kw::Accept => letter.draw = Some(Draw::Accept),
            Kw::Offer => {
                letter.draw.get_or_insert(Draw::Offer);
            }
            Kw::Resign => letter.resign = true,
            Kw::TakeBreak | Kw::Break => match BREAK.captures(segment) {
                Some(caps) => {
                    let from = parse_date_text(&caps[1]);
                    let to = parse_date_text(&caps[2]);
                    let from = from
                        .and_then(|(d, m, y, _)| resolve_date(d, m, y, letter_date, Lean::Future));
                    let to = from.zip(to).and_then(|(from, (d, m, y, _))| {
                        let to = resolve_date(d, m, y.or(Some(from.year())), None, Lean::Future)?;
                        if to < from && y.is_none() {
                            NaiveDate::from_ymd_opt(from.year() + 1, m, d)
                        } else {
                            Some(to)
                        }
                    });
                    match from.zip(to) {
                        Some((from, to)) => {
                            letter.break_.get_or_insert(Break { from, to });
                        }
                        None => problems.push(Problem::UnreadableBreak {
                            text: text[start..end + caps.get(0).map_or(0, |m| m.end())]
                                .trim()
                                .to_owned(),
                        }),
                    }
                }
                None if kw == Kw::TakeBreak => problems.push(Problem::UnreadableBreak {
                    text: text[start..]
                        .lines()
                        .next()
                        .unwrap_or_default()
                        .trim()
                        .to_owned(),
                }),
                None => {}
            },
            Kw::Protest => {
                let stop = paragraph_end(text, end);
                let body = skip_punct(&text[end..stop]).trim();
                if !body.is_empty() {
                    letter.protest.get_or_insert_with(|| body.to_owned());
                    skip_until = stop;
                }
            }
            Kw::Analysis => {
                let eval_at = next_eval[i];
                let stop = eval_at.map_or(text.len(), |e| paragraph_end(text, e));
                let body = skip_punct(&text[end..stop]).trim();
                if !body.is_empty() {
                    letter.analysis.get_or_insert_with(|| body.to_owned());
                    skip_until = stop;
                }
            }
            Kw::Eval => {
                if let Some(e) = read_evaluation(lower_segment) {
                    letter.evaluation.get_or_insert(e);
                }
            }
            Kw::Board => {
                // Only `Доска: от чёрных` and the like: "доска у меня стоит" is prose.
                if let Some(caps) = BOARD_SIDE.captures(lower_segment) {
                    let side = match &caps[1] {
                        "бел" | "white" => Side::White,
                        _ => Side::Black,
                    };
                    letter.board_from.get_or_insert(side);
                }
            }
        }
        // "Варианты: а) если …, то …; б) на … предлагаю …": a label at the end of one
        // segment belongs to the variant that follows.
        if pending_label.is_none() && skip_until <= end {
            pending_label = tail_label(segment);
        }
    }

    // Numbers run on from the repetition to the own moves, and from them into each variant.
    let mut prev = None;
    if own.is_none()
        && let Some(b) = bare
    {
        own = Some(b);
        letter.moves_unlabelled = true;
    }
    letter.repeated = number_moves(repeated.unwrap_or_default(), &mut prev, &mut problems);
    letter.moves = number_moves(own.unwrap_or_default(), &mut prev, &mut problems);
    for (place, list) in [
        (Place::Repeated, &letter.repeated),
        (Place::Own, &letter.moves),
    ] {
        for m in list {
            match &m.parsed {
                Ok(_) => {}
                Err(ParseMoveError::Short(t)) => problems.push(Problem::ShortNotation {
                    text: t.clone(),
                    place,
                }),
                Err(ParseMoveError::Unreadable(t)) => problems.push(Problem::UnreadableMove {
                    text: t.clone(),
                    place,
                }),
            }
        }
    }
    let after_own = prev;
    for (label, written, cut) in variants {
        let mut prev = after_own;
        let moves = number_moves(written, &mut prev, &mut problems);
        let cut_at = cut.map(|c| number_moves(vec![c], &mut prev, &mut Vec::new()).remove(0));
        letter.variants.push(Variant {
            label,
            moves,
            cut_at,
        });
    }

    if letter.repeated.is_empty()
        && letter.moves.is_empty()
        && letter.variants.is_empty()
        && letter.protest.is_none()
        && letter.analysis.is_none()
        && let Some(m) = UNLABELLED.find(text)
    {
        problems.push(Problem::MovesWithoutKeyword {
            text: m.as_str().trim().to_owned(),
        });
    }
    if !letter.moves.is_empty() {
        if !dates_seen {
            problems.push(Problem::DatesMissing);
        }
        if letter.time.is_none() {
            problems.push(Problem::TimeMissing);
        }
    }

    if let Some(subject) = &ctx.subject {
        read_subject(subject, &mut letter);
    }
    letter.problems = problems;
    letter
}

/// The cipher and the game from the subject, where the text did not give them.
fn read_subject(subject: &str, letter: &mut Letter) {
    let lower = lower_same_len(subject);
    let found = find_keywords(&lower);
    for (i, f) in found.iter().enumerate() {
        let next = found.get(i + 1).map_or(subject.len(), |n| n.start);
        let segment = &subject[f.end..next.max(f.end)];
        match f.kw {
            Kw::Cipher if letter.cipher.is_none() => letter.cipher = read_cipher(segment),
            Kw::Game if letter.game.is_none() && letter.opponent.is_none() => {
                letter.game = read_game_number(segment);
                if letter.game.is_none() {
                    letter.opponent = OPPONENT.captures(segment).map(|c| c[1].to_owned());
                }
            }
            _ => {}
        }
    }
    if letter.cipher.is_none() {
        letter.cipher = subject
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '[' | ']'))
            .map(|t| t.trim_end_matches(['.', ':']))
            .find(|t| SUBJECT_CIPHER.is_match(t) && t.chars().any(|c| c.is_ascii_digit()))
            .map(str::to_owned);
    }
}
