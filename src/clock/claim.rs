//! A player's own account of the clock (the three dates and the time fraction of 10.3.1)
//! compared with zaochka's clock, which is authoritative.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::{ClockSettings, Ledger, Side};

/// The three dates of 10.3.1 as a player wrote them; any may be missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ThreeDates {
    /// First: the day the partner sent the move being answered.
    pub partner_sent: Option<NaiveDate>,
    /// Second: the day it was received.
    pub received: Option<NaiveDate>,
    /// Third: the day of this answer.
    pub answered: Option<NaiveDate>,
}

/// The time fraction of 10.3.1: white's total days over black's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct TimeUsed {
    /// White's days (the numerator).
    pub white: i64,
    /// Black's days (the denominator).
    pub black: i64,
}

impl std::fmt::Display for TimeUsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.white, self.black)
    }
}

/// What a letter says about the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Claim {
    /// The three dates.
    pub dates: ThreeDates,
    /// The time fraction, if written.
    pub time: Option<TimeUsed>,
}

/// One of the four things a letter should state (10.3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimField {
    /// The first date: when the partner sent the move.
    PartnerSent,
    /// The second date: when it was received.
    Received,
    /// The third date: when the answer was sent.
    Answered,
    /// The time fraction white/black.
    Time,
}

/// A claimed value that differs from the clock's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Difference {
    /// A date differs.
    Date {
        /// Which date.
        field: ClaimField,
        /// As written.
        claimed: NaiveDate,
        /// As the clock has it.
        actual: NaiveDate,
    },
    /// The time fraction differs.
    Time {
        /// As written.
        claimed: TimeUsed,
        /// As the clock has it.
        actual: TimeUsed,
    },
}

/// The result of comparing a [`Claim`] with the clock.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ClaimCheck {
    /// What the letter did not state.
    pub missing: Vec<ClaimField>,
    /// What it stated differently from the clock (the clock is right, 10.3.9).
    pub differences: Vec<Difference>,
    /// The clock's own values: the three dates (the first is `None` for white's first move)
    /// and the time fraction after this answer.
    pub actual: (ThreeDates, TimeUsed),
}

impl ClaimCheck {
    /// Whether the letter stated everything, all as the clock has it.
    #[must_use]
    pub fn is_clean(&self) -> bool {
        self.missing.is_empty() && self.differences.is_empty()
    }

    /// Whether, in strict mode, the letter must be pointed at its missing dates or time
    /// (10.3.3). In the default mode nothing is required and differences only get a polite
    /// correction.
    #[must_use]
    pub fn is_incomplete(&self, settings: &ClockSettings) -> bool {
        settings.is_strict && !self.missing.is_empty()
    }

    /// Penalty days due under 10.3.3: in strict mode, when this letter again leaves out dates
    /// or time after the player was already told (`was_told_before`), the tournament's
    /// penalty days (6); otherwise none.
    #[must_use]
    pub fn penalty_due(&self, settings: &ClockSettings, was_told_before: bool) -> Option<u32> {
        (self.is_incomplete(settings) && was_told_before).then_some(settings.penalty_days)
    }
}

impl Ledger {
    /// Compares what `side`'s letter of `today` says about the clock with the clock itself
    /// (10.3.1, 10.3.3). Call it before or after [`Ledger::answer`] records the letter.
    ///
    /// The clock's dates: the first is the day the partner's letter came (its postmark:
    /// when the mailbox received it; for the first move, the day the start list was sent),
    /// the second the day zaochka forwarded the move, the third `today`. The time fraction is both players' totals after this answer.
    #[must_use]
    pub fn check_claim(&self, side: Side, today: NaiveDate, claim: &Claim) -> ClaimCheck {
        let entry = self
            .answers
            .iter()
            .rev()
            .find(|a| a.side == side && a.answered.is_none())
            .or_else(|| self.answers.iter().rev().find(|a| a.side == side));
        let received = entry.map(|a| a.received);
        let answered = entry.and_then(|a| a.answered).unwrap_or(today);
        let partner_sent = received.and_then(|r| {
            self.answers
                .iter()
                .filter(|a| a.side == side.other())
                .filter_map(|a| a.answered)
                .filter(|d| *d <= r)
                .max()
                // The first move answers the start list: the day it was sent (10.3.2).
                .or(self.start_lists_sent[side])
        });
        let actual_dates = ThreeDates {
            partner_sent,
            received,
            answered: Some(answered),
        };
        let actual_time = TimeUsed {
            white: self.total_on(Side::White, answered),
            black: self.total_on(Side::Black, answered),
        };
        let mut check = ClaimCheck {
            actual: (actual_dates, actual_time),
            ..ClaimCheck::default()
        };
        let pairs = [
            (
                ClaimField::PartnerSent,
                claim.dates.partner_sent,
                actual_dates.partner_sent,
            ),
            (
                ClaimField::Received,
                claim.dates.received,
                actual_dates.received,
            ),
            (
                ClaimField::Answered,
                claim.dates.answered,
                actual_dates.answered,
            ),
        ];
        for (field, claimed, actual) in pairs {
            match (claimed, actual) {
                (None, Some(_)) => check.missing.push(field),
                (Some(claimed), Some(actual)) if claimed != actual => {
                    check.differences.push(Difference::Date {
                        field,
                        claimed,
                        actual,
                    });
                }
                _ => {}
            }
        }
        match claim.time {
            None => check.missing.push(ClaimField::Time),
            Some(claimed) if claimed != actual_time => {
                check.differences.push(Difference::Time {
                    claimed,
                    actual: actual_time,
                });
            }
            Some(_) => {}
        }
        check
    }
}
