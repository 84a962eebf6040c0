//! The games: `russian` (8x8), `hundred` (10x10, international rules) and `giveaway`
//! (Russian move rules, reversed goal): squares, pieces, positions, legal moves, notation,
//! game records (semi-short notation and PDN 3.0), draw rules and perft.
//!
//! Pure and std-only (plus `thiserror` for the error types): no I/O, no clock.
//!
//! The move generator works on bitboards with "ghost" squares (see `board`): 8x8 uses 4
//! dark squares a row and the steps 4 and 5, 10x10 uses 5 a row and the steps 5 and 6, with
//! one unused bit after every two rows so that a step off the board lands on a ghost bit.
#![warn(missing_docs)]

mod board;
pub(crate) mod compact;
pub mod draw;
mod fen;
mod movegen;
mod moves;
pub mod notation;
mod perft;
mod position;
pub mod record;
mod resolve;
mod square;

use std::fmt;
use std::str::FromStr;

pub use draw::{DrawReason, GameRecord, NotLegal};
pub use fen::FenError;
pub use moves::Move;
pub use notation::{MoveText, ParseMoveError, SquareText};
pub use perft::{perft, perft_divide};
pub use position::Position;
pub use record::{PdnGame, RecordError};
pub use resolve::{IllegalMove, IllegalReason, Resolution};
pub use square::Square;

/// One of the three games zaochka knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Russian checkers (русские шашки), 8x8.
    Russian,
    /// Hundred-square checkers (стоклеточные шашки), 10x10, international rules.
    Hundred,
    /// Give-away (обратные шашки, поддавки): Russian move rules on 8x8, the side that loses
    /// all its pieces or cannot move wins.
    Giveaway,
}

impl Variant {
    /// All three games.
    pub const ALL: [Variant; 3] = [Variant::Russian, Variant::Hundred, Variant::Giveaway];

    /// The side of the board: 8 or 10.
    pub fn board_size(self) -> u8 {
        match self {
            Variant::Hundred => 10,
            Variant::Russian | Variant::Giveaway => 8,
        }
    }

    /// The number of dark squares: 32 or 50.
    pub fn square_count(self) -> u8 {
        let s = self.board_size();
        s * s / 2
    }

    /// The name used on the command line and in the config: `russian`, `hundred`, `giveaway`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Russian => "russian",
            Variant::Hundred => "hundred",
            Variant::Giveaway => "giveaway",
        }
    }

    /// The PDN `GameType` number: 25 (Russian), 20 (international 10x10); give-away has no
    /// official number, zaochka writes 99, outside the range PDN 3.0 assigns (see [`record`]).
    pub fn pdn_game_type(self) -> u32 {
        match self {
            Variant::Russian => 25,
            Variant::Hundred => 20,
            Variant::Giveaway => 99,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of reading a [`Variant`] name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game '{0}' (russian, hundred or giveaway)")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Reads `russian`, `hundred` (also `international`) or `giveaway`, in any case.
    ///
    /// ```
    /// use zaochka::rules::Variant;
    /// assert_eq!("international".parse(), Ok(Variant::Hundred));
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "russian" => Ok(Variant::Russian),
            "hundred" | "international" => Ok(Variant::Hundred),
            "giveaway" => Ok(Variant::Giveaway),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White moves first and starts on the low ranks.
    White,
    /// Black.
    Black,
}

impl Color {
    /// The other side.
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// A piece kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// A man (простая шашка).
    Man,
    /// A king (дамка).
    King,
}

/// How a game ended by the rules of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won (no move or no pieces for the other side; reversed in give-away).
    Win(Color),
    /// A draw by one of the draw rules.
    Draw(DrawReason),
}

impl Outcome {
    /// The PDN result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn pdn_result(self) -> &'static str {
        match self {
            Outcome::Win(Color::White) => "1-0",
            Outcome::Win(Color::Black) => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }
}
