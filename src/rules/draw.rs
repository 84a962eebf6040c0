//! A game's history ([`GameRecord`]) and the draw rules that need it.
//!
//! The draw rules follow the Russian rules of the sport "checkers" (Minsport): the 10x10
//! clauses as in the 2013 edition (order No. 722, section 3.5: 25 king moves; three pieces
//! against a king by the 16th move; two pieces or one against a king by the 5th move); the
//! 8x8 clauses in their standard FShR formulation (15 king moves; three kings against one by
//! the 15th move; three pieces against a king on the main road by the 5th move; unchanged
//! balance with kings on both sides 5/30/60 moves) — the 2022 text itself was not at hand.
//! A "move" in these rules is one move of each side (two plies); "by his N-th move" counts
//! the stronger side's moves from the moment the balance of forces arose (with 1 against 1
//! on 10x10, White's). Draws are *claims*: [`GameRecord::draw_claim`] says which rule ends
//! the game now; the rules of play (no move, no pieces) come first in
//! [`GameRecord::outcome`].
//!
//! | rule | russian | hundred | giveaway |
//! |---|---|---|---|
//! | the same position for the third time, the same side to move | yes | yes | yes |
//! | only kings moved, no man moved and no capture, for 15 moves (25 on 10x10) | 15 | 25 | 15 |
//! | three kings or more against a lone king, not taken by the stronger side's 15th move | yes | — | — |
//! | three pieces (3 kings; 2 kings and a man; a king and 2 men) against a lone king, not taken by the 16th move | — | yes | — |
//! | three pieces (as above) against a lone king on the main road (a1-h8), not won by the 5th move (zaochka: not taken) | yes | — | — |
//! | both sides have kings and the balance (pieces of each kind, each side) does not change: 2-3 pieces 5 moves, 4-5 pieces 30 moves, 6-7 pieces 60 moves | yes | — | — |
//! | two pieces or one (2 kings; a king and a man; a king) against a lone king, not taken by the 5th move | (the 2-3 piece case above) | yes | — |
//!
//! Give-away: only repetition and the king-moves rule apply. The endgame counts measure the
//! stronger side's failure to take the last piece; in give-away the goal is to lose one's own
//! pieces, so "stronger" has no meaning there and those rules are left out.

use std::fmt;

use super::{Color, Move, MoveText, Outcome, Piece, Position, Resolution, Square, Variant};

/// Why a game is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The same position, with the same side to move, for the third time.
    Repetition,
    /// Only kings moved, no man moved and no capture, for this many moves (15; 25 on 10x10).
    KingMovesOnly {
        /// The number of moves of each side.
        moves: u32,
    },
    /// Three kings or more (8x8), or three pieces with a king (10x10), against a lone king
    /// that the stronger side did not take by its 15th (8x8) or 16th (10x10) move.
    ThreeAgainstKing {
        /// The stronger side's moves.
        moves: u32,
    },
    /// 8x8: three pieces against a lone king on the main road, not taken by the 5th move.
    MainRoad,
    /// 8x8: both sides have kings and the balance has not changed for this many moves (5 with
    /// 2-3 pieces, 30 with 4-5, 60 with 6-7).
    BalanceUnchanged {
        /// The number of moves of each side.
        moves: u32,
    },
    /// 10x10: two pieces or one (with a king) against a lone king, not taken by the 5th move.
    TwoAgainstKing,
    /// By agreement of the players (not a rule of play; for the game's own use).
    Agreement,
}

impl DrawReason {
    /// The reason in Russian.
    pub fn ru(&self) -> String {
        match self {
            DrawReason::Repetition => "позиция повторилась три раза".into(),
            DrawReason::KingMovesOnly { moves } => format!(
                "в течение {moves} ходов ходили только дамками, без ходов простыми и без взятий"
            ),
            DrawReason::ThreeAgainstKing { moves } => {
                format!("три шашки с дамкой против одинокой дамки: дамка не взята {moves}-м ходом")
            }
            DrawReason::MainRoad => {
                "три шашки против одинокой дамки на большой дороге: не взята 5-м ходом".into()
            }
            DrawReason::BalanceUnchanged { moves } => {
                format!("у обеих сторон дамки, соотношение сил не менялось {moves} ходов")
            }
            DrawReason::TwoAgainstKing => {
                "две шашки с дамкой против одинокой дамки: дамка не взята 5-м ходом".into()
            }
            DrawReason::Agreement => "ничья по соглашению".into(),
        }
    }
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrawReason::Repetition => f.write_str("threefold repetition"),
            DrawReason::KingMovesOnly { moves } => {
                write!(
                    f,
                    "{moves} moves of kings only, no man moved and no capture"
                )
            }
            DrawReason::ThreeAgainstKing { moves } => {
                write!(
                    f,
                    "three pieces against a lone king, not taken by the {moves}th move"
                )
            }
            DrawReason::MainRoad => f.write_str(
                "three pieces against a lone king on the main road, not taken by the 5th move",
            ),
            DrawReason::BalanceUnchanged { moves } => {
                write!(
                    f,
                    "kings on both sides and the balance unchanged for {moves} moves"
                )
            }
            DrawReason::TwoAgainstKing => {
                f.write_str("two pieces against a lone king, not taken by the 5th move")
            }
            DrawReason::Agreement => f.write_str("draw by agreement"),
        }
    }
}

/// Why a move could not be added to a [`GameRecord`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move '{text}' is not legal in {fen}")]
pub struct NotLegal {
    /// The move, full notation.
    pub text: String,
    /// The position, FEN.
    pub fen: String,
}

/// A game's moves from its start position, with every position on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    positions: Vec<Position>,
    moves: Vec<Move>,
}

type Balance = [u32; 4];

fn balance(p: &Position) -> Balance {
    [
        p.count(Color::White, Piece::Man),
        p.count(Color::White, Piece::King),
        p.count(Color::Black, Piece::Man),
        p.count(Color::Black, Piece::King),
    ]
}

const MAIN_ROAD: [&str; 8] = ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"];

impl GameRecord {
    /// A game from a start position, no moves yet.
    pub fn new(start: Position) -> GameRecord {
        GameRecord {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.positions[self.positions.len() - 1]
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position: the start, then the one after each move.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The game's variant.
    pub fn variant(&self) -> Variant {
        self.start().variant()
    }

    /// Plays a move (one of the current position's legal moves).
    ///
    /// # Errors
    /// [`NotLegal`] when the move is not legal now; nothing changes then.
    pub fn push(&mut self, mv: Move) -> Result<(), NotLegal> {
        let pos = *self.position();
        if !pos.legal_moves().contains(&mv) {
            return Err(NotLegal {
                text: mv.to_string(),
                fen: pos.to_fen(),
            });
        }
        self.positions.push(pos.play(&mv));
        self.moves.push(mv);
        Ok(())
    }

    /// Resolves a written move in the current position and plays it when it is legal; the
    /// resolution is returned either way.
    pub fn play_text(&mut self, text: &MoveText) -> Resolution {
        let r = text.to_move(self.position());
        if let Resolution::Legal(m) = &r {
            let next = self.position().play(m);
            self.positions.push(next);
            self.moves.push(m.clone());
        }
        r
    }

    /// Appends a move known to be legal with the position it leads to.
    pub(crate) fn push_unchecked(&mut self, mv: Move, next: Position) {
        self.positions.push(next);
        self.moves.push(mv);
    }

    /// Takes back the last move.
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// The game's end now: a win by the rules of play ([`Position::outcome`]) or a draw by
    /// one of the draw rules ([`GameRecord::draw_claim`]).
    pub fn outcome(&self) -> Option<Outcome> {
        self.position()
            .outcome()
            .or_else(|| self.draw_claim().map(Outcome::Draw))
    }

    /// The draw rule that ends the game now, if any (see the module doc for the table).
    pub fn draw_claim(&self) -> Option<DrawReason> {
        let now = self.position();
        if self.positions.iter().filter(|p| *p == now).count() >= 3 {
            return Some(DrawReason::Repetition);
        }
        let variant = self.variant();
        if variant != Variant::Giveaway
            && let Some(r) = self.endgame_rule(variant)
        {
            return Some(r);
        }
        let limit = if variant == Variant::Hundred { 25 } else { 15 };
        let king_plies = self
            .moves
            .iter()
            .zip(&self.positions)
            .rev()
            .take_while(|(m, p)| {
                !m.is_capture() && p.piece_at(m.from()).map(|(_, k)| k) == Some(Piece::King)
            })
            .count();
        if king_plies >= 2 * limit {
            return Some(DrawReason::KingMovesOnly {
                moves: limit as u32,
            });
        }
        None
    }

    /// The index of the first position of the trailing run whose positions all satisfy
    /// `keep` (the current one included); `None` if the current one does not.
    fn run_start(&self, keep: impl Fn(&Position) -> bool) -> Option<usize> {
        let n = self.positions.len();
        let len = self.positions.iter().rev().take_while(|p| keep(p)).count();
        (len > 0).then(|| n - len)
    }

    /// The moves `side` made from position `from` to now.
    fn moves_of(&self, side: Color, from: usize) -> u32 {
        self.positions[from..self.positions.len() - 1]
            .iter()
            .filter(|p| p.side_to_move() == side)
            .count() as u32
    }

    fn endgame_rule(&self, variant: Variant) -> Option<DrawReason> {
        let now = *self.position();
        let bal = balance(&now);
        let since = self.run_start(|p| balance(p) == bal)?;
        let (wm, wk, bm, bk) = (bal[0], bal[1], bal[2], bal[3]);
        // The stronger side against a lone king, if that is the case.
        let lone = if bm == 0 && bk == 1 && wm + wk >= 1 {
            Some((Color::White, wm, wk))
        } else if wm == 0 && wk == 1 && bm + bk >= 2 {
            Some((Color::Black, bm, bk))
        } else {
            None
        };
        let size = variant.board_size();
        if let Some((strong, men, kings)) = lone {
            let strong_moves = self.moves_of(strong, since);
            if variant == Variant::Hundred {
                if kings >= 1 && men + kings == 3 && strong_moves >= 16 {
                    return Some(DrawReason::ThreeAgainstKing { moves: 16 });
                }
                if kings >= 1 && men + kings <= 2 && strong_moves >= 5 {
                    return Some(DrawReason::TwoAgainstKing);
                }
            } else {
                let weak = strong.opponent();
                let on_road = |p: &Position| {
                    MAIN_ROAD.iter().any(|name| {
                        Square::from_algebraic(size, name)
                            .and_then(|sq| p.piece_at(sq))
                            .is_some_and(|(c, k)| c == weak && k == Piece::King)
                    })
                };
                if kings >= 1 && men + kings == 3 {
                    let road = self.run_start(|p| balance(p) == bal && on_road(p));
                    if let Some(from) = road
                        && self.moves_of(strong, from) >= 5
                    {
                        return Some(DrawReason::MainRoad);
                    }
                }
                if kings >= 3 && strong_moves >= 15 {
                    return Some(DrawReason::ThreeAgainstKing { moves: 15 });
                }
            }
        }
        if variant == Variant::Russian && wk > 0 && bk > 0 {
            let total = wm + wk + bm + bk;
            let limit = match total {
                0..=3 => 5,
                4..=5 => 30,
                6..=7 => 60,
                _ => return None,
            };
            let plies = (self.positions.len() - 1 - since) as u32;
            if plies >= 2 * limit {
                return Some(DrawReason::BalanceUnchanged { moves: limit });
            }
        }
        None
    }
}

#[cfg(test)]
mod tests;
