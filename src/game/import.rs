//! A game brought in from where it was played before zaochka (`import pdn`): its record,
//! checked move by move by the rules, and its clock as the players' letters gave it.
//!
//! The imported plies have no letters of zaochka's: their days are carried in as totals
//! ([`crate::clock::Carried`]), they count for the limit (10.3.5), and both clocks run again
//! from the day the side to move was sent the position (its days run from the next day,
//! 10.3.2). The side to move repeats the partner's last move as in any letter (10.2.9).

use chrono::NaiveDate;

use super::board::{self, Side};
use super::model::{GameResult, GameState, Imported, PlayedMove, Status};
use crate::clock::{Carried, PerSide};
use crate::rules::GameRecord;

/// The `letter` reference of an imported ply: it came with no letter of zaochka's.
const IMPORTED_LETTER: &str = "import";

/// A game as it stood where it was played before.
#[derive(Clone, Debug)]
pub struct GameImport<'a> {
    /// The record: the start position and the moves (legal: the record checked them).
    pub record: &'a GameRecord,
    /// Each side's days: thinking and penalty days.
    pub carried: PerSide<Carried>,
    /// The day the last move was sent to the side to move (for a finished game, its end).
    pub sent: NaiveDate,
    /// The result, for a finished game.
    pub result: Option<GameResult>,
}

/// Why a game cannot be imported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// The record is of another game than the tournament's.
    #[error("the record is {found}, the tournament plays {expected}")]
    Variant {
        /// The tournament's.
        expected: &'static str,
        /// The record's.
        found: &'static str,
    },
    /// The last position is over by the rules, but the record gives no result.
    #[error("the game is over by the rules after its last move, but its result is '*'")]
    OverByRule,
    /// The day of sending is before the tournament's start or after today.
    #[error(
        "the day the last move was sent, {sent}, is not between the start {start} and today {today}"
    )]
    Sent {
        /// The day given.
        sent: NaiveDate,
        /// The tournament's start.
        start: NaiveDate,
        /// Today.
        today: NaiveDate,
    },
    /// Negative days.
    #[error("{side:?}'s days are negative ({days}, of them {penalty_days} penalty days)")]
    Days {
        /// Whose.
        side: Side,
        /// Thinking days.
        days: i64,
        /// Penalty days.
        penalty_days: i64,
    },
}

/// `base` (a new game of the tournament: its number, players and dates) with the imported
/// record, clock and result, as of `today`.
///
/// # Errors
/// [`ImportError`]: another game's record, a game over by the rules without a result, a day
/// of sending outside the tournament, negative days.
pub fn import(
    mut base: GameState,
    game: &GameImport<'_>,
    today: NaiveDate,
) -> Result<GameState, ImportError> {
    let variant = game.record.variant();
    if variant != base.variant {
        return Err(ImportError::Variant {
            expected: base.variant.name(),
            found: variant.name(),
        });
    }
    if game.sent < base.start || game.sent > today {
        return Err(ImportError::Sent {
            sent: game.sent,
            start: base.start,
            today,
        });
    }
    for side in [Side::White, Side::Black] {
        let c = game.carried[side];
        if c.days < 0 || c.days + c.penalty_days < 0 {
            return Err(ImportError::Days {
                side,
                days: c.days,
                penalty_days: c.penalty_days,
            });
        }
    }
    let start = game.record.start();
    if *start != crate::rules::Position::start(variant) {
        base.initial = Some(start.to_fen());
    }
    let (plies, last) = board::record_plies(game.record);
    if game.result.is_none() && last.winner().is_some() {
        return Err(ImportError::OverByRule);
    }
    base.moves = plies
        .into_iter()
        .enumerate()
        .map(|(ply, p)| PlayedMove {
            ply,
            by: p.by,
            text: p.text,
            letter: IMPORTED_LETTER.to_owned(),
            received: game.sent,
            answered: game.sent,
            is_from_variant: false,
            is_forced: p.is_forced,
            substituted_for: None,
        })
        .collect();
    // Days before are carried in; both clocks run again from the day of sending (10.3.2).
    base.late_start = PerSide::both(Some(game.sent));
    base.imported = Some(Imported {
        plies: base.moves.len(),
        carried: game.carried,
        sent: game.sent,
    });
    base.status = if game.result.is_some() {
        Status::Finished
    } else {
        Status::Playing
    };
    base.result = game.result.clone();
    Ok(base)
}
