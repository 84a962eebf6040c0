//! A legal move: its route, what it captures, whether it crowns.

use std::fmt;

use super::board::bit_for;
use super::movegen::CMove;
use super::{MoveText, Square};

/// A move as played: the starting square, every landing square, the captured squares in
/// the order they were jumped, and whether the moving man ends the move as a king.
///
/// [`fmt::Display`] writes full algebraic notation (`c3-d4`, `c3:e5:c7`);
/// [`Move::to_numeric`] the numeric one (`22-18`, `22:15:8`) and [`Move::to_pdn`] the PDN
/// move (`22-18`, `22x15x8`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) path: Vec<Square>,
    pub(crate) captured: Vec<Square>,
    pub(crate) promotes: bool,
}

impl Move {
    /// The starting square.
    pub fn from(&self) -> Square {
        self.path[0]
    }

    /// The final square.
    pub fn to(&self) -> Square {
        self.path[self.path.len() - 1]
    }

    /// The starting square and every landing square, in order.
    pub fn path(&self) -> &[Square] {
        &self.path
    }

    /// The captured squares in the order they were jumped (empty for a quiet move).
    pub fn captured(&self) -> &[Square] {
        &self.captured
    }

    /// Whether this is a capture.
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// Whether the moving man ends the move as a king.
    pub fn promotes(&self) -> bool {
        self.promotes
    }

    /// Whether two moves are the same for perft's "drop" convention: same start, end,
    /// captured set and crowning (a king going round a circuit either way, or choosing
    /// between two landing squares).
    pub fn same_effect(&self, other: &Move) -> bool {
        let set = |m: &Move| {
            let mut v: Vec<u8> = m.captured.iter().map(|s| s.index()).collect();
            v.sort_unstable();
            v
        };
        self.from() == other.from()
            && self.to() == other.to()
            && self.promotes == other.promotes
            && set(self) == set(other)
    }

    /// The move as notation text, full route, numeric or algebraic squares.
    pub fn to_text(&self, numeric: bool) -> MoveText {
        MoveText {
            squares: self.path.iter().map(|s| s.to_text(numeric)).collect(),
            is_capture: self.is_capture(),
        }
    }

    fn write(&self, numeric: bool, sep_capture: &str) -> String {
        let sep = if self.is_capture() { sep_capture } else { "-" };
        let names: Vec<String> = self
            .path
            .iter()
            .map(|s| {
                if numeric {
                    s.number().to_string()
                } else {
                    s.to_string()
                }
            })
            .collect();
        names.join(sep)
    }

    /// Full numeric notation: `22-18`, `22:15:8`.
    pub fn to_numeric(&self) -> String {
        self.write(true, ":")
    }

    /// The PDN move: `22-18`, `22x15x8`.
    pub fn to_pdn(&self) -> String {
        self.write(true, "x")
    }

    /// The move as zaochka shows it to a reader of this board: full algebraic notation on
    /// 8x8 (`c3-d4`, `c3:e5:c7`), FMJD numeric notation on 10x10 (`32-28`, `19x28`,
    /// `28x19x10`), every landing square named (10.2.2).
    pub fn shown(&self) -> String {
        if self.from().board_size() == 10 {
            self.to_pdn()
        } else {
            self.to_string()
        }
    }

    pub(crate) fn compact(&self) -> CMove {
        let size = self.from().board_size();
        let bit = |s: Square| bit_for(size, s.index());
        CMove {
            from: bit(self.from()) as u8,
            to: bit(self.to()) as u8,
            promotes: self.promotes,
            captured: self
                .captured
                .iter()
                .fold(0u64, |m, &s| m | (1u64 << bit(s))),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.write(false, ":"))
    }
}
