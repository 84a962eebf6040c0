//! Table 2 of 10.3.6, the time chart ("график времени на обдумывание"): for each move of the
//! game, both players' dates received and answered, days, running totals and penalties.

use std::fmt::Write as _;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::{BreakKind, DateRange, Ledger, Side};

/// One player's part of a row of the time chart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChartCell {
    /// The day the partner's move was received.
    pub received: NaiveDate,
    /// The day the answer was sent; `None` while pending.
    pub answered: Option<NaiveDate>,
    /// Thinking days of this move (a pending one: running days at the chart's day).
    pub days: u32,
    /// Penalty days charged on this move (negative: days given back).
    pub penalty_days: i64,
    /// The clauses of those penalties, e.g. `10.2.11`.
    pub penalty_clauses: Vec<String>,
    /// The player's running total after this move, penalties included.
    pub total: i64,
    /// Whether the move counts for the limit (10.3.5).
    pub is_counted: bool,
}

/// One row of the time chart: a move number, white's and black's part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChartRow {
    /// The move number.
    pub move_number: u32,
    /// White's move, if made or pending.
    pub white: Option<ChartCell>,
    /// Black's move, if made or pending.
    pub black: Option<ChartCell>,
}

/// Table 2 of 10.3.6 for one game, at a given day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeChart {
    /// The day the chart was drawn up (running days of a pending answer are counted to it).
    pub as_of: NaiveDate,
    /// One row per move number.
    pub rows: Vec<ChartRow>,
    /// Both players' totals at `as_of`, penalties included.
    pub totals: super::PerSide<i64>,
    /// Both players' limits (10.3.5).
    pub limits: super::PerSide<i64>,
    /// Each player's breaks as they count in this game (10.4.2), with their kind.
    pub breaks: super::PerSide<Vec<(DateRange, BreakKind)>>,
    /// The days play was suspended pending the arbiter's decision (10.3.6).
    pub suspensions: Vec<DateRange>,
}

/// The wording of the plain-text time chart, kept in one place. [`ChartLabels::ru`] is the
/// default; [`ChartLabels::en`] for English.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChartLabels {
    /// The title.
    pub title: &'static str,
    /// "Move".
    pub move_number: &'static str,
    /// "White".
    pub white: &'static str,
    /// "Black".
    pub black: &'static str,
    /// "Received".
    pub received: &'static str,
    /// "Answered".
    pub answered: &'static str,
    /// "Days".
    pub days: &'static str,
    /// "Penalty".
    pub penalty: &'static str,
    /// "Total".
    pub total: &'static str,
    /// "As of".
    pub as_of: &'static str,
    /// "Limit".
    pub limit: &'static str,
    /// The mark of a move that does not count for the limit (10.3.5).
    pub not_counted: &'static str,
    /// "Breaks" (10.4).
    pub breaks: &'static str,
    /// The mark of a special break (10.4.5).
    pub special: &'static str,
    /// "Play suspended" (10.3.6).
    pub suspended: &'static str,
    /// "none".
    pub none: &'static str,
}

impl ChartLabels {
    /// Russian (the default).
    #[must_use]
    pub fn ru() -> Self {
        ChartLabels {
            title: "График времени на обдумывание (таблица 2, п. 10.3.6)",
            move_number: "Ход",
            white: "Белые",
            black: "Чёрные",
            received: "Получен",
            answered: "Ответ",
            days: "Дни",
            penalty: "Штраф",
            total: "Итого",
            as_of: "на",
            limit: "Лимит",
            not_counted: "* ход варианта, не учитывается (п. 10.3.5)",
            breaks: "Перерывы (п. 10.4)",
            special: "особый, п. 10.4.5",
            suspended: "Игра приостановлена (п. 10.3.6)",
            none: "нет",
        }
    }

    /// English.
    #[must_use]
    pub fn en() -> Self {
        ChartLabels {
            title: "Time chart (Table 2, clause 10.3.6)",
            move_number: "Move",
            white: "White",
            black: "Black",
            received: "Received",
            answered: "Answered",
            days: "Days",
            penalty: "Penalty",
            total: "Total",
            as_of: "as of",
            limit: "Limit",
            not_counted: "* variant move, not counted (10.3.5)",
            breaks: "Breaks (10.4)",
            special: "special, 10.4.5",
            suspended: "Play suspended (10.3.6)",
            none: "none",
        }
    }
}

impl Default for ChartLabels {
    fn default() -> Self {
        ChartLabels::ru()
    }
}

const DATE_W: usize = 10;
const NUM_W: usize = 5;
/// Width of one player's half: received, answered, days, penalty, total, separated by spaces.
const HALF_W: usize = DATE_W * 2 + NUM_W * 3 + 4;

fn date(d: Option<NaiveDate>) -> String {
    d.map_or_else(|| "—".to_owned(), |d| d.format("%d.%m.%Y").to_string())
}

fn half(cell: Option<&ChartCell>) -> String {
    let Some(c) = cell else {
        return format!("{:HALF_W$}", "");
    };
    let penalty = if c.penalty_days == 0 {
        String::new()
    } else {
        format!("{:+}", c.penalty_days)
    };
    let days = if c.is_counted {
        c.days.to_string()
    } else {
        format!("{}*", c.days)
    };
    format!(
        "{:<DATE_W$} {:<DATE_W$} {:>NUM_W$} {:>NUM_W$} {:>NUM_W$}",
        date(Some(c.received)),
        date(c.answered),
        days,
        penalty,
        c.total
    )
}

impl TimeChart {
    /// Draws up the chart of `ledger` at `as_of`.
    #[must_use]
    pub fn of(ledger: &Ledger, as_of: NaiveDate) -> Self {
        let mut rows: Vec<ChartRow> = Vec::new();
        // Days used before the game came to zaochka (an import) open each player's total.
        let mut totals = super::PerSide {
            white: ledger.carried[Side::White].total(),
            black: ledger.carried[Side::Black].total(),
        };
        // Penalties not tied to any move of the player still count: put them on the row
        // of their move number or, failing that, on the player's last row.
        for a in &ledger.answers {
            let side = a.side;
            let days = ledger.days_of(a, as_of);
            let (penalty_days, penalty_clauses): (i64, Vec<String>) = {
                let ps: Vec<_> = ledger
                    .penalties
                    .iter()
                    .filter(|p| p.side == side && p.move_number == a.move_number)
                    .collect();
                // Only the first entry of a move number carries its penalties.
                let is_first = ledger
                    .answers
                    .iter()
                    .position(|b| b.side == side && b.move_number == a.move_number)
                    .is_some_and(|i| std::ptr::eq(&ledger.answers[i], a));
                if is_first {
                    (
                        ps.iter().map(|p| i64::from(p.days)).sum(),
                        ps.iter().map(|p| p.clause.clone()).collect(),
                    )
                } else {
                    (0, Vec::new())
                }
            };
            totals[side] += i64::from(days) + penalty_days;
            let cell = ChartCell {
                received: a.received,
                answered: a.answered,
                days,
                penalty_days,
                penalty_clauses,
                total: totals[side],
                is_counted: a.is_counted,
            };
            let row = match rows.iter_mut().find(|r| {
                r.move_number == a.move_number
                    && match side {
                        Side::White => r.white.is_none(),
                        Side::Black => r.black.is_none(),
                    }
            }) {
                Some(r) => r,
                None => {
                    rows.push(ChartRow {
                        move_number: a.move_number,
                        white: None,
                        black: None,
                    });
                    let last = rows.len() - 1;
                    &mut rows[last]
                }
            };
            match side {
                Side::White => row.white = Some(cell),
                Side::Black => row.black = Some(cell),
            }
        }
        // Penalties on a move number the player has no entry for.
        for side in [Side::White, Side::Black] {
            let orphan: i64 = ledger
                .penalties
                .iter()
                .filter(|p| {
                    p.side == side
                        && !ledger
                            .answers
                            .iter()
                            .any(|a| a.side == side && a.move_number == p.move_number)
                })
                .map(|p| i64::from(p.days))
                .sum();
            totals[side] += orphan;
        }
        rows.sort_by_key(|r| r.move_number);
        TimeChart {
            as_of,
            rows,
            totals,
            limits: super::PerSide {
                white: ledger.limit(Side::White),
                black: ledger.limit(Side::Black),
            },
            breaks: super::PerSide {
                white: effective(&ledger.breaks.white),
                black: effective(&ledger.breaks.black),
            },
            suspensions: ledger
                .suspensions
                .iter()
                .filter_map(super::Suspension::days)
                .map(|r| DateRange::new(r.from, r.to.min(as_of)))
                .filter(|r| !r.is_empty())
                .collect(),
        }
    }

    /// The chart as a fixed-width plain-text table in the given wording.
    #[must_use]
    pub fn to_text(&self, labels: &ChartLabels) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}, {} {}",
            labels.title,
            labels.as_of,
            self.as_of.format("%d.%m.%Y")
        );
        let head_half = format!(
            "{:<DATE_W$} {:<DATE_W$} {:>NUM_W$} {:>NUM_W$} {:>NUM_W$}",
            labels.received, labels.answered, labels.days, labels.penalty, labels.total
        );
        let _ = writeln!(
            out,
            "{:>4} | {:<HALF_W$} | {}",
            "", labels.white, labels.black
        );
        let _ = writeln!(
            out,
            "{:>4} | {} | {}",
            labels.move_number, head_half, head_half
        );
        let _ = writeln!(out, "{}", "-".repeat(4 + 3 + HALF_W + 3 + HALF_W));
        let mut has_uncounted = false;
        for r in &self.rows {
            has_uncounted |= [&r.white, &r.black]
                .iter()
                .any(|c| c.as_ref().is_some_and(|c| !c.is_counted));
            let line = format!(
                "{:>4} | {} | {}",
                r.move_number,
                half(r.white.as_ref()),
                half(r.black.as_ref())
            );
            let _ = writeln!(out, "{}", line.trim_end());
        }
        let _ = writeln!(out, "{}", "-".repeat(4 + 3 + HALF_W + 3 + HALF_W));
        let _ = writeln!(
            out,
            "{}: {} {}/{}, {} {}/{}",
            labels.total,
            labels.white,
            self.totals.white,
            self.limits.white,
            labels.black,
            self.totals.black,
            self.limits.black
        );
        let _ = writeln!(
            out,
            "({}/{})",
            labels.total.to_lowercase(),
            labels.limit.to_lowercase()
        );
        let range =
            |r: &DateRange| format!("{}–{}", r.from.format("%d.%m.%Y"), r.to.format("%d.%m.%Y"));
        let breaks = |list: &[(DateRange, BreakKind)]| {
            if list.is_empty() {
                return labels.none.to_owned();
            }
            list.iter()
                .map(|(r, kind)| match kind {
                    BreakKind::Ordinary => range(r),
                    BreakKind::Special => format!("{} ({})", range(r), labels.special),
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !self.breaks.white.is_empty() || !self.breaks.black.is_empty() {
            let _ = writeln!(
                out,
                "{}: {} {}; {} {}",
                labels.breaks,
                labels.white,
                breaks(&self.breaks.white),
                labels.black,
                breaks(&self.breaks.black)
            );
        }
        if !self.suspensions.is_empty() {
            let list: Vec<String> = self.suspensions.iter().map(range).collect();
            let _ = writeln!(out, "{}: {}", labels.suspended, list.join(", "));
        }
        if has_uncounted {
            let _ = writeln!(out, "{}", labels.not_counted);
        }
        out
    }
}

/// The days each break counts, with its kind.
fn effective(breaks: &[super::Break]) -> Vec<(DateRange, BreakKind)> {
    breaks
        .iter()
        .filter_map(|b| b.effective().map(|r| (r, b.kind)))
        .collect()
}

impl Ledger {
    /// Table 2 of 10.3.6 at `as_of` (see [`TimeChart`]).
    #[must_use]
    pub fn time_chart(&self, as_of: NaiveDate) -> TimeChart {
        TimeChart::of(self, as_of)
    }
}
