//! The judge's input: what a letter says, as far as the judge cares, and how it came.

use chrono::NaiveDate;

use super::board::Side;
use crate::clock::TimeUsed;
use crate::letter::{self, Letter};
use crate::rules::{MoveText, ParseMoveError};

/// A move as the player wrote it, with its number if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The move number written (`12.`), if any.
    pub number: Option<u32>,
    /// The side the number marks (`12.` white, `12...` black), if written.
    pub side: Option<Side>,
    /// The move, or why it could not be read (short notation 10.2.2, unreadable).
    pub text: Result<MoveText, ParseMoveError>,
}

impl Written {
    /// The text as written, for notices: the normal form, numeric captures with `x` as FMJD
    /// writes them ([`crate::rules::notation::shown`]).
    pub fn shown(&self) -> String {
        match &self.text {
            Ok(t) => crate::rules::notation::shown(&t.to_string()),
            Err(ParseMoveError::Short(s) | ParseMoveError::Unreadable(s)) => s.clone(),
        }
    }
}

/// A proposed variant as written (10.2.7).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct WrittenVariant {
    /// `А`, `B`, …, if labelled.
    pub label: Option<String>,
    /// Its moves in order, starting with the partner's.
    pub moves: Vec<Written>,
}

/// Draw words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawWord {
    /// `Предлагаю ничью`.
    Offer,
    /// `Ничью принимаю`.
    Accept,
}

/// What a letter says, for the judge.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Submission {
    /// The game number written, if any (a reply by thread needs none).
    pub game: Option<u32>,
    /// The repetition of the partner's new moves (`Ваш ход`).
    pub repeated: Vec<Written>,
    /// The sender's moves: any accepted variant part, the partner's forced moves and their own.
    pub moves: Vec<Written>,
    /// The moves came after a bare `Ход:` (neither `Ваш` nor `Мой`): they are the sender's
    /// own only where nothing else can be meant (his turn, a legal move of his side).
    pub moves_unlabelled: bool,
    /// Proposed variants.
    pub variants: Vec<WrittenVariant>,
    /// The three dates as written (10.3.1), in order; fewer if fewer were written.
    pub dates: Vec<NaiveDate>,
    /// The time fraction white/black as written.
    pub time: Option<TimeUsed>,
    /// A draw offer or acceptance.
    pub draw: Option<DrawWord>,
    /// `Сдаюсь`.
    pub is_resignation: bool,
    /// `Протест: …` for the arbiter (10.3.8).
    pub protest: Option<String>,
    /// The letter also carries business that is not the judge's (a break announcement, an
    /// analysis for adjudication): a letter without moves is then not refused.
    pub has_other_business: bool,
    /// The side the sender wants his diagrams drawn from (`Доска: от чёрных`).
    pub board_from: Option<Side>,
}

fn side(s: letter::Side) -> Side {
    match s {
        letter::Side::White => Side::White,
        letter::Side::Black => Side::Black,
    }
}

fn written(item: &letter::MoveItem) -> Written {
    Written {
        number: item.number,
        side: item.side.map(side),
        text: item.parsed.clone(),
    }
}

impl From<&Letter> for Submission {
    /// What the judge needs of a read letter. A variant the reader cut at an unreadable move
    /// keeps that move last, so the judge reports the cut (10.2.12).
    fn from(l: &Letter) -> Submission {
        Submission {
            game: l.game,
            repeated: l.repeated.iter().map(written).collect(),
            moves: l.moves.iter().map(written).collect(),
            moves_unlabelled: l.moves_unlabelled,
            variants: l
                .variants
                .iter()
                .map(|v| WrittenVariant {
                    label: v.label.clone(),
                    moves: v
                        .moves
                        .iter()
                        .chain(v.cut_at.as_ref())
                        .map(written)
                        .collect(),
                })
                .collect(),
            dates: l.dates.clone(),
            time: l.time.map(|t| TimeUsed {
                white: i64::from(t.white),
                black: i64::from(t.black),
            }),
            draw: l.draw.map(|d| match d {
                letter::Draw::Offer => DrawWord::Offer,
                letter::Draw::Accept => DrawWord::Accept,
            }),
            is_resignation: l.resign,
            protest: l.protest.clone(),
            has_other_business: l.break_.is_some()
                || l.analysis.is_some()
                || l.board_from.is_some(),
            board_from: l.board_from.map(side),
        }
    }
}

/// How a letter came: who sent it, when, and the caller's reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Envelope {
    /// The sender's side in this game.
    pub sender: Side,
    /// The postmark's calendar date in the tournament's zone.
    pub received: NaiveDate,
    /// The caller's reference for the letter (stored with the moves).
    pub letter: String,
}
