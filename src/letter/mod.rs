//! Reading a player's letter: free text (already decoded from MIME) → [`Letter`]: cipher,
//! game, repeated moves, own moves, variants, dates, time used, offers, breaks, protests,
//! and every problem found with its clause. Reading never fails as a whole.
//!
//! Pure: takes `&str`, knows nothing of MIME, mail or storage. What the text alone cannot
//! know (the sender, the subject, the letter's date for year-less dates) comes in a
//! [`ReadContext`].
//!
//! The steps: [`own_text`] cuts quotes, reply headers and the signature; then the lines of
//! DESIGN.md's table are found by keyword, Russian or English, in any order, with or without
//! a colon, in any case; each keyword reads what follows it.
#![warn(missing_docs)]

mod grammar;
mod quote;

use std::fmt;

use chrono::{DateTime, FixedOffset, NaiveDate};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use crate::rules::{MoveText, ParseMoveError};

pub use quote::own_text;

/// What the text of a letter alone cannot tell: taken from the mail headers by the caller.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadContext {
    /// The sender's address.
    pub from: Option<String>,
    /// The subject (the cipher and the game may be there).
    pub subject: Option<String>,
    /// The letter's `Date`: its year is the year of dates written without one.
    pub date: Option<DateTime<FixedOffset>>,
}

/// White or black, as a move number writes it (`12.` white, `12...` black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The side that moves first.
    White,
    /// The other side.
    Black,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::White => "white",
            Side::Black => "black",
        })
    }
}

/// One move as written in a letter, with its number and side when the letter gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveItem {
    /// The move number: as written, or carried on from the move before; `None` when the
    /// letter numbers nothing up to here.
    pub number: Option<u32>,
    /// The side: from the number's form (`12.` / `12...`) or carried on; `None` if unknown.
    pub side: Option<Side>,
    /// The text as the player wrote it.
    pub text: String,
    /// The move read without any position, or why it could not be read.
    pub parsed: Result<MoveText, ParseMoveError>,
}

impl MoveItem {
    /// The normal form of the move (`MoveText` Display), or the raw text when unreadable.
    pub fn normalised(&self) -> String {
        match &self.parsed {
            Ok(m) => m.to_string(),
            Err(_) => self.text.clone(),
        }
    }
}

impl Serialize for MoveItem {
    /// `{"number": 12, "side": "black", "move": "f8:d6"}`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("number", &self.number)?;
        map.serialize_entry("side", &self.side)?;
        map.serialize_entry("move", &self.normalised())?;
        map.end()
    }
}

/// A proposed variant (10.2.7): the partner's reply first, then the sender's answer, and so on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Variant {
    /// The label as written (`А`, `Б`, `A`, `1`), if any.
    pub label: Option<String>,
    /// The moves up to (not including) the first unreadable one (10.2.12).
    pub moves: Vec<MoveItem>,
    /// The move at which the variant was cut (10.2.12), if any.
    #[serde(skip)]
    pub cut_at: Option<MoveItem>,
}

/// Time used so far, in days (10.3.1: white's over black's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TimeUsed {
    /// White's days.
    pub white: u32,
    /// Black's days.
    pub black: u32,
}

/// A draw offer or its acceptance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Draw {
    /// `Предлагаю ничью`, `I offer a draw`.
    Offer,
    /// `Ничью принимаю`, `Согласен на ничью`, `I accept the draw`.
    Accept,
}

/// A break (10.4.3): both days included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Break {
    /// The first day.
    pub from: NaiveDate,
    /// The last day.
    pub to: NaiveDate,
}

/// An evaluation of the final position for adjudication (10.5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Evaluation {
    /// `Оценка: ничья`.
    Draw,
    /// `Оценка: выигрыш белых`.
    White,
    /// `Оценка: выигрыш чёрных`.
    Black,
}

/// Where in a letter a move stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The repetition of the partner's moves (`Ваш ход`).
    Repeated,
    /// The sender's own moves (`Мой ход`).
    Own,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Place::Repeated => "the repetition",
            Place::Own => "the own moves",
        })
    }
}

/// Something wrong in a letter: the judge and the renderer word it for the player (the
/// [`fmt::Display`] text is English, for logs and `letter read`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A move in short or semi-short notation: impossible (10.2.2).
    ShortNotation {
        /// The move as written.
        text: String,
        /// Where it was.
        place: Place,
    },
    /// A move that cannot be read: illegible repetition (10.2.9) or an impossible own move
    /// (10.2.10).
    UnreadableMove {
        /// The move as written.
        text: String,
        /// Where it was.
        place: Place,
    },
    /// A variant cut before an unreadable or short-notation move (10.2.12).
    VariantCut {
        /// The variant's label, if any.
        label: Option<String>,
        /// The variant's index in the letter, from 0.
        index: usize,
        /// The move as written.
        text: String,
        /// Whether it was short notation (10.2.2) rather than unreadable.
        is_short: bool,
    },
    /// A move number that does not follow from the one before (10.2.14).
    Numbering {
        /// The move as written.
        text: String,
        /// The number and side the letter's own order gives.
        expected: (u32, Side),
        /// The number and side written.
        found: (u32, Side),
    },
    /// Moves but no three dates (10.3.3).
    DatesMissing,
    /// Fewer or more than three dates (10.3.1).
    DatesCount {
        /// How many dates were read.
        found: usize,
    },
    /// A date that cannot be read (10.3.1).
    UnreadableDate {
        /// The text as written.
        text: String,
    },
    /// Moves but no time used (10.3.3).
    TimeMissing,
    /// `Беру перерыв` without two readable dates (10.4.3).
    UnreadableBreak {
        /// The text as written.
        text: String,
    },
    /// Numbered moves with neither `Ваш ход` nor `Мой ход` (nor a variant) before them:
    /// not read, since whose moves they are is unknown (10.2.3).
    MovesWithoutKeyword {
        /// The first such move as written.
        text: String,
    },
    /// A line given twice with different content: the first one is read.
    Duplicate {
        /// What line (`moves`, `repeated`, `cipher`, …).
        what: &'static str,
    },
}

impl Problem {
    /// The clause of the rules the problem is about, if any.
    pub fn clause(&self) -> Option<&'static str> {
        Some(match self {
            Problem::ShortNotation { .. } => "10.2.2",
            Problem::UnreadableMove {
                place: Place::Repeated,
                ..
            } => "10.2.9",
            Problem::UnreadableMove {
                place: Place::Own, ..
            } => "10.2.10",
            // A short-notation move is impossible (10.2.2), so the variant stops (10.2.12).
            Problem::VariantCut { is_short: true, .. } => "10.2.2, 10.2.12",
            Problem::VariantCut { .. } => "10.2.12",
            Problem::Numbering { .. } => "10.2.14",
            Problem::DatesMissing | Problem::TimeMissing => "10.3.3",
            Problem::DatesCount { .. } | Problem::UnreadableDate { .. } => "10.3.1",
            Problem::UnreadableBreak { .. } => "10.4.3",
            Problem::MovesWithoutKeyword { .. } => "10.2.3",
            Problem::Duplicate { .. } => return None,
        })
    }
}

impl Place {
    /// Where in the letter, in Russian ("в повторении ходов партнёра").
    fn ru(self) -> &'static str {
        match self {
            Place::Repeated => "в повторении ходов партнёра",
            Place::Own => "в вашем ходе",
        }
    }
}

impl Problem {
    /// The problem in Russian, for the player (the clause is not included: the letter
    /// cites it beside the text). [`fmt::Display`] is the English text.
    pub fn text_ru(&self) -> String {
        match self {
            Problem::ShortNotation { text, place } => format!(
                "«{text}» {} записан сокращённо; ходы записываются полной нотацией (например, c3-d4, c3:e5), поэтому такой ход считается невозможным",
                place.ru()
            ),
            Problem::UnreadableMove { text, place } => {
                format!("не удалось прочитать ход «{text}» {}", place.ru())
            }
            Problem::VariantCut {
                label,
                index,
                text,
                is_short,
            } => {
                let name = match label {
                    Some(l) => l.clone(),
                    None => (index + 1).to_string(),
                };
                let why = if *is_short {
                    "он записан сокращённо, а не полной нотацией"
                } else {
                    "его не удалось прочитать"
                };
                format!("вариант {name} принят только до хода «{text}»: {why}")
            }
            Problem::Numbering {
                text,
                expected,
                found,
            } => format!(
                "ход «{text}» записан под номером {}, а по порядку это {}",
                number_text(*found),
                number_text(*expected)
            ),
            Problem::DatesMissing => "не указаны три даты (получения, ответа, отправки)".into(),
            Problem::DatesCount { found } => {
                format!("нужны три даты, а в письме прочитано дат: {found}")
            }
            Problem::UnreadableDate { text } => format!("не удалось прочитать дату «{text}»"),
            Problem::TimeMissing => {
                "не указано затраченное время (белые/чёрные, например «Время: 23/17»)".into()
            }
            Problem::UnreadableBreak { text } => format!(
                "не удалось прочитать даты перерыва в строке «{text}»; пишите, например, «Беру перерыв с 10.10 по 25.10»"
            ),
            Problem::MovesWithoutKeyword { text } => format!(
                "ходы вроде «{text}» записаны без слов «Мой ход:» или «Ваш ход:», и не ясно, чьи они. Свой ход пишите после слов «Мой ход:», а повторение хода партнёра — после слов «Ваш ход:»"
            ),
            Problem::Duplicate { what } => {
                let line = match *what {
                    "moves" => "«Мой ход»",
                    "repetition" => "«Ваш ход»",
                    "cipher" => "«Шифр»",
                    "dates" => "«Даты»",
                    _ => "одна из строк",
                };
                format!("строка {line} указана дважды по-разному; прочитана первая")
            }
        }
    }
}

fn number_text((n, side): (u32, Side)) -> String {
    match side {
        Side::White => format!("{n}."),
        Side::Black => format!("{n}..."),
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::ShortNotation { text, place } => write!(
                f,
                "'{text}' in {place} is short notation: moves are written in full notation, \
                 so it counts as impossible"
            ),
            Problem::UnreadableMove { text, place } => {
                write!(f, "cannot read the move '{text}' in {place}")
            }
            Problem::VariantCut {
                label,
                index,
                text,
                is_short,
            } => {
                match label {
                    Some(l) => write!(f, "variant {l}")?,
                    None => write!(f, "variant {}", index + 1)?,
                }
                let why = if *is_short {
                    "short notation (10.2.2)"
                } else {
                    "unreadable"
                };
                write!(f, " is proposed only up to '{text}', which is {why}")
            }
            Problem::Numbering {
                text,
                expected,
                found,
            } => write!(
                f,
                "'{text}' is numbered {} but follows as {}",
                number_text(*found),
                number_text(*expected)
            ),
            Problem::DatesMissing => write!(f, "the three dates are missing"),
            Problem::DatesCount { found } => {
                write!(f, "three dates are required, {found} given")
            }
            Problem::UnreadableDate { text } => write!(f, "cannot read the date '{text}'"),
            Problem::TimeMissing => write!(f, "the time used (white/black) is missing"),
            Problem::UnreadableBreak { text } => {
                write!(f, "cannot read the break's dates in '{text}'")
            }
            Problem::MovesWithoutKeyword { text } => write!(
                f,
                "moves such as '{text}' are written without 'Ваш ход' or 'Мой ход' \
                 ('Your move', 'My move'), so they are not read"
            ),
            Problem::Duplicate { what } => {
                write!(f, "the {what} line is given twice; the first one is read")
            }
        }
    }
}

impl Serialize for Problem {
    /// `{"clause": "10.2.2", "text": "…"}`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("clause", &self.clause())?;
        map.serialize_entry("text", &self.to_string())?;
        map.end()
    }
}

/// A letter as read: what the player asked for, and every problem found.
///
/// Serialises to the JSON of `zaochka letter read` (issue 3), plus `opponent` and
/// `evaluation`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Letter {
    /// The sender's address (from the context).
    pub from: Option<String>,
    /// The subject (from the context).
    pub subject: Option<String>,
    /// The letter's date (from the context).
    #[serde(serialize_with = "serialize_datetime")]
    pub date: Option<DateTime<FixedOffset>>,
    /// The tournament cipher (10.2.3), from the text or else the subject.
    pub cipher: Option<String>,
    /// The game number, from the text or else the subject.
    pub game: Option<u32>,
    /// The partner named instead of a number (`Партия с Ивановым`), as written.
    pub opponent: Option<String>,
    /// The repetition of the partner's new moves (10.2.9).
    pub repeated: Vec<MoveItem>,
    /// The sender's moves, after any accepted part of a variant (10.2.13).
    pub moves: Vec<MoveItem>,
    /// The moves came after a bare `Ход:` / `Ходы:` / `Move:`, with neither `Ваш` nor `Мой`:
    /// the judge reads them as the sender's own only where they can mean nothing else (his
    /// turn, a legal move of his side).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub moves_unlabelled: bool,
    /// Proposed variants (10.2.7).
    pub variants: Vec<Variant>,
    /// The three dates (10.3.1), as many as could be read.
    pub dates: Vec<NaiveDate>,
    /// The time used (10.3.1).
    pub time: Option<TimeUsed>,
    /// A draw offer or acceptance.
    pub draw: Option<Draw>,
    /// `Сдаюсь`.
    pub resign: bool,
    /// A break (10.4.3).
    #[serde(rename = "break")]
    pub break_: Option<Break>,
    /// A protest (10.3.8), as written.
    pub protest: Option<String>,
    /// An analysis for adjudication (10.5.2), as written.
    pub analysis: Option<String>,
    /// The evaluation in an analysis (`Оценка: ничья`).
    pub evaluation: Option<Evaluation>,
    /// The side the sender wants his diagrams drawn from (`Доска: от чёрных`, `Board: from
    /// black`); from then on in this game.
    #[serde(rename = "board", skip_serializing_if = "Option::is_none")]
    pub board_from: Option<Side>,
    /// What is wrong, with clauses. Reading never fails: problems are data.
    pub problems: Vec<Problem>,
}

impl Letter {
    /// Whether the letter asks for anything: moves, a repetition, variants, a draw offer or
    /// acceptance, a resignation, a break, a protest, an analysis, an evaluation or the side
    /// to draw the board from. A letter
    /// without any (a greeting, a scan in an attachment) is "not a letter at all" for the
    /// daemon; the cipher and game alone do not count.
    pub fn has_content(&self) -> bool {
        !self.repeated.is_empty()
            || !self.moves.is_empty()
            || !self.variants.is_empty()
            || self.draw.is_some()
            || self.resign
            || self.break_.is_some()
            || self.protest.is_some()
            || self.analysis.is_some()
            || self.evaluation.is_some()
            || self.board_from.is_some()
    }
}

fn serialize_datetime<S: Serializer>(
    date: &Option<DateTime<FixedOffset>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match date {
        Some(d) => s.serialize_str(&d.to_rfc3339_opts(chrono::SecondsFormat::Secs, false)),
        None => s.serialize_none(),
    }
}

/// Reads a letter: cuts quotes and the signature ([`own_text`]), then finds every line of
/// DESIGN.md's table by keyword. Never fails: what cannot be read becomes a [`Problem`].
///
/// ```
/// use zaochka::letter::{read, Draw, ReadContext, Side};
/// let letter = read(
///     "Здравствуйте!\nШифр: ЗШ-2026-1, партия 7\nВаш ход: 12... f8:d6\n\
///      Мой ход: 13. e3-f4\nЕсли 13... g7-h6, то 14. f4-e5\n\
///      Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17\nПредлагаю ничью\n",
///     &ReadContext::default(),
/// );
/// assert_eq!(letter.cipher.as_deref(), Some("ЗШ-2026-1"));
/// assert_eq!(letter.game, Some(7));
/// assert_eq!(letter.repeated[0].side, Some(Side::Black));
/// assert_eq!(letter.moves[0].normalised(), "e3-f4");
/// assert_eq!(letter.variants[0].moves.len(), 2);
/// assert_eq!(letter.dates.len(), 3);
/// assert_eq!(letter.time.map(|t| (t.white, t.black)), Some((23, 17)));
/// assert_eq!(letter.draw, Some(Draw::Offer));
/// assert!(letter.problems.is_empty());
/// ```
pub fn read(text: &str, ctx: &ReadContext) -> Letter {
    let own = own_text(text);
    grammar::read_own_text(&own, ctx)
}

#[cfg(test)]
mod tests;
