//! Applies a read letter to a game: repetition, legality, variants, the clock and the result,
//! giving a verdict and the notices due (10.2, 10.3, 10.4).
//!
//! The game is a [`GameState`]: plain data the store keeps as one JSON document. Derived
//! things stay derived: the position is the replay of the moves played, clock totals are
//! sums over the answers and penalties. [`judge`] takes a state and one letter and returns a
//! [`Verdict`]: the new state, whether the letter was accepted, and the [`Notice`]s due (data
//! for the `render` module, which words them in Russian or English). [`due`] and
//! [`next_due_day`] give the deadlines that fire without a letter (10.3.4, 10.3.6), and the
//! functions of [`arbiter`] are the chief arbiter's decisions.
//!
//! Pure: no I/O, no system clock (the day is always an argument). Knows nothing of mail or
//! storage.
//!
//! ```
//! use chrono::NaiveDate;
//! use zaochka::game::{judge, ClockSettings, Decision, Envelope, GameState, Player, Side, Variant};
//! use zaochka::letter::{read, ReadContext};
//!
//! let day = |s| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
//! let game = GameState::new("ЗШ-2026-1", 7, Variant::Russian, Player::default(),
//!     Player::default(), day("2026-12-01"), day("2027-12-31"));
//! let letter = read("Шифр: ЗШ-2026-1, партия 7\nМой ход: 1. c3-d4\n", &ReadContext::default());
//! let envelope = Envelope { sender: Side::White, received: day("2026-12-01"), letter: "<1@x>".into() };
//! let verdict = judge(&game, &letter, &envelope, &ClockSettings::default());
//! assert_eq!(verdict.decision, Decision::Accepted);
//! assert_eq!(verdict.state.record()[0].to_string(), "1. c3-d4");
//! // Black's letter without the repetition of 1. c3-d4 stops play (10.2.9).
//! let letter = read("Мой ход: 1... f6-g5\n", &ReadContext::default());
//! let envelope = Envelope { sender: Side::Black, received: day("2026-12-02"), letter: "<2@x>".into() };
//! let verdict = judge(&verdict.state, &letter, &envelope, &ClockSettings::default());
//! assert!(matches!(verdict.decision, Decision::Rejected(_)));
//! ```
//!
//! Choices where the rules are silent (each is a test):
//! - A variant binds its proposer (10.2.8): when the partner's written moves follow a variant,
//!   the proposer's next variant moves are played at once, even if the partner stopped
//!   writing; the partner is then told it is their move again.
//! - A variant is valid only for the partner's next accepted letter; then it lapses.
//! - A repetition may repeat more than the new moves (e.g. the whole last move pair); it
//!   must end with the partner's last move. A letter with no `Ваш ход` line whose own moves
//!   begin with exactly the partner's new moves counts as repeating them.
//! - Moves already played written again at the head of the moves line (`Мой ход: 1. c3-d4
//!   f6-g5` from black) are the record, not an impossible move.
//! - The same letter again (same reference, or the sender's last moves again without the
//!   partner's new ones) changes nothing (10.2.8), rather than stopping play under 10.2.9.
//! - A letter stopped under 10.2.9 also names its impossible move, if any: one reply, one
//!   penalty (10.2.11).
//! - 10.2.10 with one legal move for the named piece: the move is played, no penalty (the
//!   game does not stop), anything written after it in the letter is ignored.
//! - A letter that overstepped the limit (10.3.5) is not played: the game is suspended for
//!   the arbiter (10.3.6); if the arbiter finds no overstep the player sends the move again,
//!   and the days of the suspension count for nobody.
//! - zaochka forwards a good move at once, so the day a move reaches the partner is the
//!   postmark day of the letter that carried it (10.3.9: the server's clock counts).
//! - A letter with no move at all is not a 10.2.9 case: a draw offer is passed on, a break
//!   announcement or an analysis is left to the tournament, otherwise "no move found" (no
//!   penalty). A resignation or a draw acceptance counts at any turn, even after the
//!   end-of-play date (10.3.2).
//! - A wrong game number is refused; a letter with none is taken as for this game (the
//!   caller routes letters to games).
//!
//! The clock is the `clock` module's [`crate::clock::Ledger`], rebuilt from the state when
//! needed ([`GameState::ledger`]): the state stores each fact once.

#![warn(missing_docs)]

mod board;
mod clockwork;
mod due;
mod import;
mod judge;
mod model;
mod submission;

pub mod arbiter;

pub use crate::clock::{Break, ClockSettings, PerSide, ThreeDates, TimeChart, TimeUsed};
pub use board::{Side, Variant};
pub use due::{DeadlineKind, DeadlineNotice, OverstepFacts, apply_deadline, due, next_due_day};
pub use import::{GameImport, ImportError, import};
pub use judge::{judge, judge_submission};
pub use model::*;
pub use submission::{DrawWord, Envelope, Submission, Written, WrittenVariant};

#[cfg(test)]
mod tests;
