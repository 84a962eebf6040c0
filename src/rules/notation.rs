//! Move notation as players write it, parsed without any position (10.2.2).
//!
//! [`MoveText`] is pure syntax: the squares in the order written and whether the move was
//! written as a capture. Whether it is legal, impossible or ambiguous is decided later
//! against a position (`MoveText::to_move`, in the rules' resolution code).
//!
//! Normal form (what [`std::fmt::Display`] writes, and what `FromStr` reads back):
//! lower-case Latin letters, `-` between the two squares of a quiet move, `:` between the
//! squares of a capture, each square as the player wrote it (numeric stays numeric).

use std::fmt;

/// One square as written, before any board is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SquareText {
    /// Algebraic: a file letter (`a`..=`h`, or `a`..=`k` without `j` on 10x10) and a rank
    /// (1..=10), e.g. `c3`, `k10`. The file is stored as the lower-case Latin letter.
    Alg {
        /// The file letter, lower-case Latin.
        file: char,
        /// The rank, 1-based.
        rank: u8,
    },
    /// Numeric (PDN / FMJD numbering): 1..=32 on 8x8, 1..=50 on 10x10.
    Num(u8),
}

/// A move as written in full notation: every square named, in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveText {
    /// The starting square, then each landing square (for a quiet move: from, to).
    pub squares: Vec<SquareText>,
    /// Written with `:` (or `x`): a capture.
    pub is_capture: bool,
}

/// Why a text is not a move in full notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// Short or semi-short notation (`cd4`, `c:e5`), which 10.2.2 counts as impossible.
    #[error("short notation '{0}' (10.2.2: moves are written in full notation)")]
    Short(String),
    /// Not a move at all.
    #[error("cannot read move '{0}'")]
    Unreadable(String),
}
