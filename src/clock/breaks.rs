//! A player's break (10.4): "беру перерыв с A по B", both days included.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::{ClockSettings, DateRange};

/// Who granted a break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BreakKind {
    /// Announced by the player (10.4.1–10.4.3): at most 30 days, one per calendar year, and
    /// announced late it counts from the day of the announcement.
    Ordinary,
    /// Granted by the chief arbiter in special cases (10.4.5: sudden illness, a natural
    /// disaster): exempt from the limits of 10.4.1 and counted in full even when announced
    /// after its first day.
    Special,
}

/// A player's break: the announced days, the day it was announced, and its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Break {
    /// The days as announced, both ends included (10.4.3).
    pub range: DateRange,
    /// The day the announcement was received (its postmark, 10.4.2).
    pub announced_on: NaiveDate,
    /// Ordinary (the player's own) or special (granted by the arbiter, 10.4.5).
    pub kind: BreakKind,
}

impl Break {
    /// An ordinary break from `from` to `to`, announced on `announced_on`.
    #[must_use]
    pub fn ordinary(from: NaiveDate, to: NaiveDate, announced_on: NaiveDate) -> Self {
        Break {
            range: DateRange::new(from, to),
            announced_on,
            kind: BreakKind::Ordinary,
        }
    }

    /// A special break granted by the arbiter (10.4.5).
    #[must_use]
    pub fn special(from: NaiveDate, to: NaiveDate, granted_on: NaiveDate) -> Self {
        Break {
            range: DateRange::new(from, to),
            announced_on: granted_on,
            kind: BreakKind::Special,
        }
    }

    /// The days on which the break stops the clocks of the games it applies to.
    ///
    /// An ordinary break announced after its first day counts from the day of the
    /// announcement (10.4.2); announced after its last day it counts not at all (`None`).
    /// A special break counts in full (10.4.5).
    #[must_use]
    pub fn effective(&self) -> Option<DateRange> {
        let range = match self.kind {
            BreakKind::Special => self.range,
            BreakKind::Ordinary => {
                DateRange::new(self.range.from.max(self.announced_on), self.range.to)
            }
        };
        (!range.is_empty()).then_some(range)
    }

    /// Whether the break stops the clocks on `day`.
    #[must_use]
    pub fn covers(&self, day: NaiveDate) -> bool {
        self.effective().is_some_and(|r| r.contains(day))
    }
}

/// Why a break cannot be taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BreakError {
    /// The last day is before the first.
    #[error("break {range} ends before it begins (10.4.3)")]
    Reversed {
        /// The announced days.
        range: DateRange,
    },
    /// Longer than the limit (30 days, both ends included).
    #[error("break {range} is {days} days, more than {max} (10.4.1)")]
    TooLong {
        /// The announced days.
        range: DateRange,
        /// Its length.
        days: u32,
        /// The limit.
        max: u32,
    },
    /// Announced after its last day: nothing of it can count.
    #[error("break {range} announced on {announced_on}, after its last day (10.4.2)")]
    AnnouncedAfterEnd {
        /// The announced days.
        range: DateRange,
        /// The day of the announcement.
        announced_on: NaiveDate,
    },
    /// The player already has an ordinary break beginning in that calendar year.
    #[error("break {range} would be a second break in {year}, after {earlier} (10.4.1)")]
    SecondInYear {
        /// The announced days.
        range: DateRange,
        /// The calendar year of its first day.
        year: i32,
        /// The break already taken that year.
        earlier: DateRange,
    },
    /// Overlaps another break of the same player.
    #[error("break {range} overlaps the break {other}")]
    Overlaps {
        /// The announced days.
        range: DateRange,
        /// The break it overlaps.
        other: DateRange,
    },
    /// Not the same days in all the player's unfinished games.
    #[error("break {range} differs from {other} in another game: one break for all games (10.4.1)")]
    DifferentDates {
        /// The days in one game.
        range: DateRange,
        /// The days in another.
        other: DateRange,
    },
}

/// Checks a new break against the limits of 10.4.1–10.4.3 and the player's `earlier` breaks
/// in the tournament (in any of their games).
///
/// - Both days are included; the last may not precede the first (10.4.3).
/// - An ordinary break is at most `settings.max_break_days` (30) days long, as announced.
/// - One ordinary break per player per calendar year (10.4.1). A break spanning New Year
///   belongs to the year of its first announced day: 20.12–10.01 is that December's break,
///   and the player may take another one beginning in the new year (not overlapping it).
/// - An ordinary break announced after its last day is refused; announced after its first
///   day it is accepted and counts from the announcement ([`Break::effective`], 10.4.2).
/// - Special breaks granted by the arbiter (10.4.5) are exempt from the length, the yearly
///   limit and the announcement day, and do not use up the year's ordinary break; they may
///   not be reversed.
/// - No break may overlap another of the same player.
///
/// # Errors
/// The first rule the break breaks, as a [`BreakError`] naming the days.
pub fn check_break(
    new: &Break,
    earlier: &[Break],
    settings: &ClockSettings,
) -> Result<(), BreakError> {
    let range = new.range;
    if range.is_empty() {
        return Err(BreakError::Reversed { range });
    }
    if let Some(other) = earlier
        .iter()
        .find(|b| b.range.intersection(&range).is_some())
    {
        return Err(BreakError::Overlaps {
            range,
            other: other.range,
        });
    }
    if new.kind == BreakKind::Special {
        return Ok(());
    }
    let days = range.len_days();
    if days > settings.max_break_days {
        return Err(BreakError::TooLong {
            range,
            days,
            max: settings.max_break_days,
        });
    }
    if new.announced_on > range.to {
        return Err(BreakError::AnnouncedAfterEnd {
            range,
            announced_on: new.announced_on,
        });
    }
    if let Some(other) = earlier
        .iter()
        .find(|b| b.kind == BreakKind::Ordinary && b.range.year() == range.year())
    {
        return Err(BreakError::SecondInYear {
            range,
            year: range.year(),
            earlier: other.range,
        });
    }
    Ok(())
}

/// Checks that a player's break has the same days in every unfinished game (10.4.1: "в один
/// и тот же срок и одновременно во всех партиях"). `per_game` holds the break as recorded in
/// each of the player's unfinished games; the announcement day may differ (a partner told
/// late counts from the day he was told, 10.4.2), the days may not.
///
/// # Errors
/// [`BreakError::DifferentDates`] with the first two differing ranges.
pub fn check_same_dates(per_game: &[Break]) -> Result<(), BreakError> {
    let Some(first) = per_game.first() else {
        return Ok(());
    };
    match per_game.iter().find(|b| b.range != first.range) {
        Some(other) => Err(BreakError::DifferentDates {
            range: first.range,
            other: other.range,
        }),
        None => Ok(()),
    }
}
