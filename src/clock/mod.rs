//! Time controls of correspondence play (10.3, 10.4): thinking days, breaks, penalty days,
//! the 50-days-per-10-moves limit and the deadlines that follow from them.
//!
//! Pure: dates are calendar dates (`chrono::NaiveDate`) in the tournament's zone, and `now`
//! is always an argument. Knows nothing of letters, mail or storage.
//!
//! The pieces:
//! - [`DateRange`] and [`thinking_days`]: the days `d` with `received < d <= answered`, less
//!   every day on which either player of the game is on a break (10.3.1, 10.4.3);
//! - [`Break`] and [`check_break`]: a player's break and its limits (10.4.1–10.4.5);
//! - [`Ledger`]: one game's clock — every answer of both players, penalties, breaks,
//!   suspensions, the start and the end-of-play date; it gives totals (now and as they stood
//!   on any day), the limit, days left, the exact day a player oversteps or would overstep,
//!   and the [`Deadline`]s of the game (overstep, 40-day repeat, 30-day first-move query,
//!   7-day warning), each with its day, so the daemon sleeps until the next one;
//! - [`LastDay`] ([`Ledger::last_day`]): the last day a pending answer is in time, the day
//!   before the overstep day, named in every letter that hands a player the move;
//! - [`TimeChart`]: Table 2 of 10.3.6, as data and as plain text;
//! - [`Claim`] and [`Ledger::check_claim`]: a player's three dates and time fraction
//!   compared with the clock's own (10.3.1, 10.3.3; zaochka's clock is authoritative).

#![warn(missing_docs)]

mod breaks;
mod chart;
mod claim;
mod ledger;

pub use breaks::{Break, BreakError, BreakKind, check_break, check_same_dates};
pub use chart::{ChartCell, ChartLabels, ChartRow, TimeChart};
pub use claim::{Claim, ClaimCheck, ClaimField, Difference, ThreeDates, TimeUsed};
pub use ledger::{
    Answer, Carried, ClockError, Deadline, LastDay, Ledger, Penalty, Suspension, own_start,
};

use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Serialize};

/// One of the two players of a game: the one with the white pieces or the one with black.
///
/// The `game` module maps its colour to this; the clock needs nothing else about the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The player with the white pieces (moves first).
    White,
    /// The player with the black pieces.
    Black,
}

impl Side {
    /// The partner's side.
    #[must_use]
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

/// A value for each side of a game, white first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct PerSide<T> {
    /// White's value.
    pub white: T,
    /// Black's value.
    pub black: T,
}

impl<T> PerSide<T> {
    /// The same value for both sides.
    pub fn both(value: T) -> Self
    where
        T: Clone,
    {
        PerSide {
            white: value.clone(),
            black: value,
        }
    }
}

impl<T> std::ops::Index<Side> for PerSide<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        match side {
            Side::White => &self.white,
            Side::Black => &self.black,
        }
    }
}

impl<T> std::ops::IndexMut<Side> for PerSide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::White => &mut self.white,
            Side::Black => &mut self.black,
        }
    }
}

/// The settings of a tournament's clock. The defaults are the rules' numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClockSettings {
    /// Days allowed for every period of moves: 50 (10.3.1).
    pub days_per_period: u32,
    /// Moves in a period: 10 (10.3.1, 10.3.5).
    pub moves_per_period: u32,
    /// Penalty days for a stop of play or a repeated missing date (10.2.11, 10.3.3, 10.3.7): 6.
    pub penalty_days: u32,
    /// Days without an answer before a move is repeated to the silent partner: 40 (10.3.4).
    pub repeat_after_days: u32,
    /// Days after the start with no first move before white is queried: 30 (10.3.4).
    pub first_move_query_after_days: u32,
    /// The longest ordinary break, in days, both ends included: 30 (10.4.1).
    pub max_break_days: u32,
    /// A friendly warning goes out when this many days or fewer are left (beyond the rules): 7.
    pub warning_days_left: u32,
    /// Strict mode: letters must carry the three dates and the time fraction (10.3.3).
    /// Off by default: zaochka's own clock is authoritative and wrong dates only get a polite
    /// correction.
    pub is_strict: bool,
}

impl Default for ClockSettings {
    fn default() -> Self {
        ClockSettings {
            days_per_period: 50,
            moves_per_period: 10,
            penalty_days: 6,
            repeat_after_days: 40,
            first_move_query_after_days: 30,
            max_break_days: 30,
            warning_days_left: 7,
            is_strict: false,
        }
    }
}

impl ClockSettings {
    /// The most days a player with `counted_moves` counted moves may have used:
    /// `days_per_period × (⌊m / moves_per_period⌋ + 1)`, i.e. 50 × (⌊m/10⌋ + 1) (10.3.5).
    ///
    /// With m counted moves made, the answer being thought over is move m + 1; the first ten
    /// moves share 50 days, the first twenty 100, and so on.
    #[must_use]
    pub fn limit(&self, counted_moves: u32) -> i64 {
        let period = self.moves_per_period.max(1);
        i64::from(self.days_per_period) * (i64::from(counted_moves / period) + 1)
    }
}

/// A span of calendar days, both ends included (10.4.3: "с 10.10 по 25.10" is 16 days).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct DateRange {
    /// The first day.
    pub from: NaiveDate,
    /// The last day (included).
    pub to: NaiveDate,
}

impl DateRange {
    /// The days from `from` to `to`, both included.
    #[must_use]
    pub fn new(from: NaiveDate, to: NaiveDate) -> Self {
        DateRange { from, to }
    }

    /// Whether `day` is one of the range's days.
    #[must_use]
    pub fn contains(&self, day: NaiveDate) -> bool {
        self.from <= day && day <= self.to
    }

    /// The number of days, both ends included; 0 when `to` is before `from`.
    #[must_use]
    pub fn len_days(&self) -> u32 {
        days_between(self.from, self.to)
            .checked_add(1)
            .map_or(0, |n| u32::try_from(n).unwrap_or(0))
    }

    /// Whether the range has no day (`to` before `from`).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.to < self.from
    }

    /// The days in both ranges, if any.
    #[must_use]
    pub fn intersection(&self, other: &DateRange) -> Option<DateRange> {
        let r = DateRange::new(self.from.max(other.from), self.to.min(other.to));
        (!r.is_empty()).then_some(r)
    }

    /// The calendar year of the first day.
    #[must_use]
    pub fn year(&self) -> i32 {
        self.from.year()
    }
}

impl std::fmt::Display for DateRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}–{}",
            self.from.format("%d.%m.%Y"),
            self.to.format("%d.%m.%Y")
        )
    }
}

/// `to − from` in days (negative when `to` is earlier).
fn days_between(from: NaiveDate, to: NaiveDate) -> i64 {
    (to - from).num_days()
}

/// The off days sorted and merged into disjoint ranges, empty ones dropped.
fn merge(off: &[DateRange]) -> Vec<DateRange> {
    let mut ranges: Vec<DateRange> = off.iter().copied().filter(|r| !r.is_empty()).collect();
    ranges.sort();
    let mut merged: Vec<DateRange> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match merged.last_mut() {
            Some(last) if r.from <= last.to.succ_opt().unwrap_or(last.to) => {
                last.to = last.to.max(r.to);
            }
            _ => merged.push(r),
        }
    }
    merged
}

/// Thinking days of one answer (10.3.1, 10.4.2, 10.4.3): the days `d` with
/// `received < d <= answered`, less every day inside one of the `off` ranges (the breaks of
/// either player of the game). An answer on the day of receipt, or before it, costs 0.
///
/// ```
/// use chrono::NaiveDate;
/// use zaochka::clock::{DateRange, thinking_days};
/// let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
/// // 10.4.3: break 10.10–25.10, moves received 08.10, answer sent 27.10: 27 − 8 − 16 = 3.
/// let brk = [DateRange::new(d(10, 10), d(10, 25))];
/// assert_eq!(thinking_days(d(10, 8), d(10, 27), &brk), 3);
/// ```
#[must_use]
pub fn thinking_days(received: NaiveDate, answered: NaiveDate, off: &[DateRange]) -> u32 {
    days_outside(received, answered, &merge(off))
}

/// [`thinking_days`] with the off days already merged (sorted, disjoint).
fn days_outside(received: NaiveDate, answered: NaiveDate, merged: &[DateRange]) -> u32 {
    if answered <= received {
        return 0;
    }
    let Some(first) = received.succ_opt() else {
        return 0;
    };
    let window = DateRange::new(first, answered);
    let off_days: u32 = merged
        .iter()
        .filter_map(|r| r.intersection(&window))
        .map(|r| r.len_days())
        .sum();
    window.len_days().saturating_sub(off_days)
}

/// The `n`-th day after `after` that is not inside an `off` range: the day on which an
/// answer received on `after` reaches `n` thinking days. `n = 0` gives `after` itself.
///
/// Returns `None` only past the end of the calendar chrono can represent.
#[must_use]
pub fn nth_thinking_day(after: NaiveDate, n: u32, off: &[DateRange]) -> Option<NaiveDate> {
    let merged = merge(off);
    let mut day = after;
    let mut left = n;
    // Walk the off ranges in order; between them every day counts.
    let mut ranges = merged.iter().filter(|r| r.to > after).peekable();
    while left > 0 {
        let next = day.succ_opt()?;
        match ranges.peek() {
            Some(r) if r.contains(next) => {
                day = r.to;
                ranges.next();
            }
            Some(r) if r.from > next => {
                // Days next ..= r.from − 1 all count.
                let free = u32::try_from(days_between(next, r.from)).unwrap_or(u32::MAX);
                let step = free.min(left);
                day = day.checked_add_days(chrono::Days::new(u64::from(step)))?;
                left -= step;
            }
            Some(_) => {
                // A range wholly before `next` cannot stay in the iterator (filtered, merged).
                ranges.next();
            }
            None => {
                return day.checked_add_days(chrono::Days::new(u64::from(left)));
            }
        }
    }
    Some(day)
}

#[cfg(test)]
mod tests;
