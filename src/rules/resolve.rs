//! Resolution of a written move ([`MoveText`]) against a position: a legal move, an
//! impossible one with the reason (10.2.10), or an ambiguous one with the candidates.
//!
//! How a text is matched, in order:
//! 1. Every square must be a dark square of this board (numeric 1..=32 / 1..=50, or
//!    algebraic; on 10x10 the files are `a`..`k` without `j`).
//! 2. The starting square must hold a piece of the side to move.
//! 3. A text naming every square of a legal move's route is that move. The separator is not
//!    held against the player: a capture written with `-` (`c3-e5-c7`, or `c3-e5` for a
//!    single capture) or a quiet move written with `:` is accepted when it names exactly one
//!    legal move — a slip of notation, not a breach of the rules of play.
//! 4. A text of two squares (`c3:g7`) is accepted where exactly one route joins them; routes
//!    with the same captured set (a king going round a circuit either way, a choice of landing
//!    between two captured pieces) count as one, as in perft. Several routes with different
//!    captured pieces make it [`Resolution::Ambiguous`].
//! 5. Otherwise the move is impossible, and the reason says why: a capture is compulsory
//!    (and which captures there are), the majority rule (10x10), a capture not finished, no
//!    such route, no such move, the piece cannot move.

use std::fmt;

use super::{Move, MoveText, ParseMoveError, Position, Square, SquareText};

/// What a written move is in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// The legal move the text names.
    Legal(Move),
    /// An impossible move (10.2.10), with the reason.
    Impossible(IllegalMove),
    /// Several legal moves fit the text (`c3:g7` with different captured pieces); one per
    /// kind, sorted.
    Ambiguous(Vec<Move>),
}

impl Resolution {
    /// The legal move, if the text names one.
    pub fn legal(&self) -> Option<&Move> {
        match self {
            Resolution::Legal(m) => Some(m),
            _ => None,
        }
    }
}

/// An impossible move: the text as written (normal form) and why it is impossible.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("impossible move '{text}': {reason}")]
pub struct IllegalMove {
    /// The move text (normal form: lower-case, `-` or `:`).
    pub text: String,
    /// Why.
    pub reason: IllegalReason,
}

/// Why a move is impossible. [`fmt::Display`] is English; [`IllegalReason::ru`] Russian;
/// both cite the clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// Written in short or semi-short notation (10.2.2).
    ShortNotation,
    /// Not a move at all.
    Unreadable,
    /// A square that is not a dark square of this board.
    NotOnBoard(SquareText),
    /// No piece on the starting square.
    NoPiece(Square),
    /// The piece on the starting square is the opponent's.
    NotYourPiece(Square),
    /// A capture is compulsory and the text is not one of the captures (listed).
    CaptureCompulsory(Vec<Move>),
    /// 10x10: the capture takes fewer pieces than the majority rule demands (the legal
    /// captures listed).
    MajorityRule(Vec<Move>),
    /// The capture stops before its end: a capture is finished to the end (the legal routes
    /// that go on listed).
    CaptureNotFinished(Vec<Move>),
    /// A capture that no legal route of this piece follows (its legal captures listed).
    NoSuchRoute(Vec<Move>),
    /// The piece cannot go to that square (its legal moves listed).
    NoSuchMove(Vec<Move>),
    /// The piece on the starting square has no legal move.
    PieceCannotMove(Square),
}

/// The moves in the board's own notation ([`Move::shown`]: numeric on 10x10).
fn list(moves: &[Move]) -> String {
    let mut names: Vec<String> = moves.iter().map(Move::shown).collect();
    names.dedup();
    names.join(", ")
}

impl IllegalReason {
    /// The reason in Russian, with the clause.
    pub fn ru(&self) -> String {
        match self {
            IllegalReason::ShortNotation => {
                "ход записан сокращённой нотацией, а нужно полной (п. 10.2.2)".into()
            }
            IllegalReason::Unreadable => "ход не удаётся прочитать (п. 10.2.2)".into(),
            IllegalReason::NotOnBoard(sq) => {
                format!("поля {} нет на доске (п. 10.2.10)", square_text(*sq))
            }
            IllegalReason::NoPiece(sq) => {
                format!("на поле {} нет шашки (п. 10.2.10)", sq.shown())
            }
            IllegalReason::NotYourPiece(sq) => {
                format!("на поле {} шашка соперника (п. 10.2.10)", sq.shown())
            }
            IllegalReason::CaptureCompulsory(m) => {
                format!("бить обязательно: {} (п. 10.2.10)", list(m))
            }
            IllegalReason::MajorityRule(m) => format!(
                "бить нужно наибольшее число шашек: {} (п. 10.2.10)",
                list(m)
            ),
            IllegalReason::CaptureNotFinished(m) => format!(
                "взятие не закончено, бить нужно до конца: {} (п. 10.2.10)",
                list(m)
            ),
            IllegalReason::NoSuchRoute(m) => {
                format!("такого пути взятия нет; возможно: {} (п. 10.2.10)", list(m))
            }
            IllegalReason::NoSuchMove(m) => {
                format!("так эта шашка не ходит; возможно: {} (п. 10.2.10)", list(m))
            }
            IllegalReason::PieceCannotMove(sq) => {
                format!("шашка на поле {} не имеет хода (п. 10.2.10)", sq.shown())
            }
        }
    }
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalReason::ShortNotation => {
                f.write_str("written in short notation, full notation is required (10.2.2)")
            }
            IllegalReason::Unreadable => f.write_str("cannot read the move (10.2.2)"),
            IllegalReason::NotOnBoard(sq) => {
                write!(
                    f,
                    "{} is not a square of this board (10.2.10)",
                    square_text(*sq)
                )
            }
            IllegalReason::NoPiece(sq) => {
                write!(f, "there is no piece on {} (10.2.10)", sq.shown())
            }
            IllegalReason::NotYourPiece(sq) => {
                write!(f, "the piece on {} is the opponent's (10.2.10)", sq.shown())
            }
            IllegalReason::CaptureCompulsory(m) => {
                write!(f, "a capture is compulsory: {} (10.2.10)", list(m))
            }
            IllegalReason::MajorityRule(m) => {
                write!(f, "the most pieces must be taken: {} (10.2.10)", list(m))
            }
            IllegalReason::CaptureNotFinished(m) => write!(
                f,
                "the capture is not finished, it goes on to the end: {} (10.2.10)",
                list(m)
            ),
            IllegalReason::NoSuchRoute(m) => {
                write!(f, "no such capture route; possible: {} (10.2.10)", list(m))
            }
            IllegalReason::NoSuchMove(m) => {
                write!(
                    f,
                    "this piece cannot move so; possible: {} (10.2.10)",
                    list(m)
                )
            }
            IllegalReason::PieceCannotMove(sq) => {
                write!(f, "the piece on {} has no move (10.2.10)", sq.shown())
            }
        }
    }
}

fn square_text(sq: SquareText) -> String {
    match sq {
        SquareText::Alg { file, rank } => format!("{file}{rank}"),
        SquareText::Num(n) => n.to_string(),
    }
}

/// The normal form of a move text (the same as `MoveText`'s `Display`, written here so
/// that resolution does not depend on the parser's module).
fn text_of(t: &MoveText) -> String {
    let sep = if t.is_capture { ":" } else { "-" };
    t.squares
        .iter()
        .map(|&s| square_text(s))
        .collect::<Vec<_>>()
        .join(sep)
}

/// One move of each kind: routes with the same effect count once.
fn distinct(moves: &[Move]) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::new();
    for m in moves {
        if !out.iter().any(|o| o.same_effect(m)) {
            out.push(m.clone());
        }
    }
    out
}

impl IllegalMove {
    /// An impossible move from a text the parser refused (10.2.2: short notation is an
    /// impossible move).
    pub fn from_parse_error(err: &ParseMoveError) -> IllegalMove {
        match err {
            ParseMoveError::Short(t) => IllegalMove {
                text: t.clone(),
                reason: IllegalReason::ShortNotation,
            },
            ParseMoveError::Unreadable(t) => IllegalMove {
                text: t.clone(),
                reason: IllegalReason::Unreadable,
            },
        }
    }

    /// The starting square the text names, if it is a square of the board.
    fn start(&self, pos: &Position) -> Option<Square> {
        match &self.reason {
            IllegalReason::ShortNotation
            | IllegalReason::Unreadable
            | IllegalReason::NotOnBoard(_) => None,
            IllegalReason::NoPiece(sq)
            | IllegalReason::NotYourPiece(sq)
            | IllegalReason::PieceCannotMove(sq) => Some(*sq),
            _ => {
                let size = pos.variant().board_size();
                let first = self.text.split(['-', ':']).next()?;
                match first.parse::<u8>() {
                    Ok(n) => Square::from_number(size, n),
                    Err(_) => Square::from_algebraic(size, first),
                }
            }
        }
    }

    /// 10.2.10: "if the piece on the named square has a single move, the receiver names it
    /// and answers it" — that move, when the starting square holds a piece of the side to
    /// move with exactly one move (routes with the same effect count once).
    pub fn single_move_of_named_piece(&self, pos: &Position) -> Option<Move> {
        let sq = self.start(pos)?;
        let (color, _) = pos.piece_at(sq)?;
        if color != pos.side_to_move() {
            return None;
        }
        let moves = distinct(&pos.moves_from(sq));
        match moves.as_slice() {
            [only] => Some(only.clone()),
            _ => None,
        }
    }
}

impl MoveText {
    /// Resolves the text against a position (see the module doc for the matching rules).
    ///
    /// ```
    /// use zaochka::rules::{MoveText, Position, Resolution, SquareText, Variant};
    /// let text = MoveText {
    ///     squares: vec![SquareText::Num(22), SquareText::Num(18)],
    ///     is_capture: false,
    /// };
    /// let pos = Position::start(Variant::Russian);
    /// assert!(matches!(text.to_move(&pos), Resolution::Legal(m) if m.to_string() == "c3-d4"));
    /// ```
    pub fn to_move(&self, pos: &Position) -> Resolution {
        let text = text_of(self);
        let impossible = |reason| {
            Resolution::Impossible(IllegalMove {
                text: text.clone(),
                reason,
            })
        };
        if self.squares.len() < 2 {
            return impossible(IllegalReason::Unreadable);
        }
        let size = pos.variant().board_size();
        let mut squares = Vec::with_capacity(self.squares.len());
        for &st in &self.squares {
            match Square::from_text(size, st) {
                Some(sq) => squares.push(sq),
                None => return impossible(IllegalReason::NotOnBoard(st)),
            }
        }
        let from = squares[0];
        let to = squares[squares.len() - 1];
        match pos.piece_at(from) {
            None => return impossible(IllegalReason::NoPiece(from)),
            Some((c, _)) if c != pos.side_to_move() => {
                return impossible(IllegalReason::NotYourPiece(from));
            }
            Some(_) => {}
        }
        let legal = pos.legal_moves();
        if let Some(m) = legal.iter().find(|m| m.path() == squares.as_slice()) {
            return Resolution::Legal(m.clone());
        }
        let mine: Vec<Move> = legal.iter().filter(|m| m.from() == from).cloned().collect();
        if squares.len() == 2 {
            let ends: Vec<Move> = mine.iter().filter(|m| m.to() == to).cloned().collect();
            let kinds = distinct(&ends);
            match kinds.len() {
                0 => {}
                1 => return Resolution::Legal(ends[0].clone()),
                _ => return Resolution::Ambiguous(kinds),
            }
        }
        let captures_due = legal.first().is_some_and(Move::is_capture);
        if captures_due {
            let all = distinct(&legal);
            // 10x10: a capture that only the majority rule forbids.
            let free = pos.routes_without_majority();
            let fits = |m: &Move| {
                m.from() == from
                    && if squares.len() == 2 {
                        m.to() == to
                    } else {
                        m.path() == squares.as_slice()
                    }
            };
            if free.iter().any(|m| fits(m) && m.is_capture()) {
                return impossible(IllegalReason::MajorityRule(all));
            }
            if mine.is_empty() {
                return impossible(IllegalReason::CaptureCompulsory(all));
            }
            let goes_on: Vec<Move> = mine
                .iter()
                .filter(|m| m.path().len() > squares.len() && m.path().starts_with(&squares))
                .cloned()
                .collect();
            if !goes_on.is_empty() {
                return impossible(IllegalReason::CaptureNotFinished(goes_on));
            }
            if !self.is_capture && squares.len() == 2 {
                return impossible(IllegalReason::CaptureCompulsory(all));
            }
            return impossible(IllegalReason::NoSuchRoute(distinct(&mine)));
        }
        if mine.is_empty() {
            return impossible(IllegalReason::PieceCannotMove(from));
        }
        impossible(IllegalReason::NoSuchMove(mine))
    }
}

#[cfg(test)]
mod tests;
