//! The game's clock (10.3, 10.4) computed from its ledger: thinking days of each answer,
//! totals with penalties, the limit 50 × (⌊m/10⌋ + 1), the overstep day, and Table 2.
//!
//! Thinking days of an answer are the days d with received < d <= answered, none after the
//! end-of-play date, less every day on which either player of the game is on a break
//! (10.3.1, 10.4.2, 10.4.4). Penalty days and the arbiter's added days go to the total.

use chrono::{Days, NaiveDate};
use serde::Serialize;

use super::board::Side;
use super::model::{GameState, Penalty, Settings, Status, Times};

/// Whether a day is inside a break of either player (no clock runs on it, 10.4.2).
pub(crate) fn is_off_day(st: &GameState, d: NaiveDate) -> bool {
    st.breaks.iter().any(|b| b.from <= d && d <= b.to)
}

/// Thinking days between receiving a move and answering it.
pub(crate) fn thinking_days(st: &GameState, received: NaiveDate, answered: NaiveDate) -> u32 {
    let last = answered.min(st.end);
    let mut d = received;
    let mut n = 0;
    while d < last {
        d = d + Days::new(1);
        if !is_off_day(st, d) {
            n += 1;
        }
    }
    n
}

/// Penalty days in force against a side.
pub(crate) fn penalty_days(st: &GameState, side: Side) -> i64 {
    st.penalties
        .iter()
        .filter(|p| p.side == side && !p.is_cancelled)
        .map(|p| i64::from(p.days))
        .sum()
}

/// A side's total of finished answers, penalties and added days.
pub(crate) fn total(st: &GameState, side: Side) -> i64 {
    let answers: i64 = st
        .answers
        .iter()
        .filter(|a| a.by == side)
        .map(|a| i64::from(thinking_days(st, a.received, a.answered)))
        .sum();
    answers + penalty_days(st, side) + st.days_added.get(side)
}

/// Both totals as the fraction of letters (10.3.1).
pub(crate) fn times(st: &GameState) -> Times {
    let clamp = |v: i64| u32::try_from(v.max(0)).unwrap_or(u32::MAX);
    Times {
        white: clamp(total(st, Side::White)),
        black: clamp(total(st, Side::Black)),
    }
}

/// The most days a side may have used with its counted moves (10.3.1, 10.3.5).
pub(crate) fn limit(st: &GameState, side: Side, settings: &Settings) -> i64 {
    i64::from(settings.days_per_ten) * (i64::from(st.counted_moves(side)) / 10 + 1)
}

/// Whether the side's clock runs now (its move, the game in play).
pub(crate) fn is_running(st: &GameState, side: Side) -> bool {
    let in_play = matches!(st.status, Status::Playing | Status::Stopped { .. });
    in_play && st.result.is_none() && st.side_to_move() == side
}

/// The days a side's pending answer has run by `today`.
pub(crate) fn running_days(st: &GameState, side: Side, today: NaiveDate) -> u32 {
    if is_running(st, side) {
        thinking_days(st, st.received_by(side), today)
    } else {
        0
    }
}

/// Days left before the side oversteps, at `today` (negative once overstepped).
pub(crate) fn days_left(st: &GameState, side: Side, today: NaiveDate, settings: &Settings) -> i64 {
    limit(st, side, settings) - total(st, side) - i64::from(running_days(st, side, today))
}

/// The first day on which the side's total would exceed its limit if no answer comes;
/// `None` if its clock does not run or the end-of-play date comes first.
pub(crate) fn overstep_day(st: &GameState, side: Side, settings: &Settings) -> Option<NaiveDate> {
    if !is_running(st, side) {
        return None;
    }
    let lim = limit(st, side, settings);
    let mut used = total(st, side);
    let mut d = st.received_by(side);
    if used > lim {
        return Some(d + Days::new(1));
    }
    while d < st.end {
        d = d + Days::new(1);
        if !is_off_day(st, d) {
            used += 1;
            if used > lim {
                return Some(d);
            }
        }
    }
    None
}

/// One player's answer in Table 2.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AnswerDays {
    /// Date the partner's move was received (or the start).
    pub received: NaiveDate,
    /// Date answered.
    pub answered: NaiveDate,
    /// Thinking days.
    pub days: u32,
    /// Running total of thinking days after this answer (penalties apart).
    pub total: u32,
}

/// One line of Table 2 (10.3.6): a move number and both players' answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TimeChartRow {
    /// The move number.
    pub number: u32,
    /// White's answer that made this move.
    pub white: Option<AnswerDays>,
    /// Black's answer that made this move.
    pub black: Option<AnswerDays>,
}

/// Table 2 of 10.3.6 as data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TimeChart {
    /// Each move that began an answer.
    pub rows: Vec<TimeChartRow>,
    /// Penalties, with clause and reason.
    pub penalties: Vec<Penalty>,
    /// Both totals, penalties included.
    pub totals: Times,
}

impl TimeChart {
    /// Table 2 of a game.
    pub fn of(st: &GameState) -> TimeChart {
        let mut rows: Vec<TimeChartRow> = Vec::new();
        let mut run = Times::default();
        for a in &st.answers {
            let days = thinking_days(st, a.received, a.answered);
            let total = match a.by {
                Side::White => {
                    run.white += days;
                    run.white
                }
                Side::Black => {
                    run.black += days;
                    run.black
                }
            };
            let ad = AnswerDays {
                received: a.received,
                answered: a.answered,
                days,
                total,
            };
            // The answer's own first move: skip the partner's variant moves it accepted.
            let first = (a.plies.start..a.plies.end)
                .find(|&p| st.moves[p].by == a.by)
                .unwrap_or(a.plies.start);
            let number = st.number_of_ply(first);
            let row = match rows.iter_mut().find(|r| r.number == number) {
                Some(r) => r,
                None => {
                    rows.push(TimeChartRow {
                        number,
                        white: None,
                        black: None,
                    });
                    let last = rows.len() - 1;
                    &mut rows[last]
                }
            };
            match a.by {
                Side::White => row.white = Some(ad),
                Side::Black => row.black = Some(ad),
            }
        }
        TimeChart {
            rows,
            penalties: st.penalties.clone(),
            totals: times(st),
        }
    }

    /// The table as fixed-width text (Russian headers; `english` for English).
    pub fn to_text(&self, english: bool) -> String {
        let (h, pen, tot) = if english {
            (
                "move | white: received  answered   days total | black: received  answered   days total",
                "penalties",
                "totals",
            )
        } else {
            (
                "ход  | белые: получен    ответ      дни  итог | чёрные: получен   ответ      дни  итог",
                "штрафы",
                "итого",
            )
        };
        let cell = |a: &Option<AnswerDays>| match a {
            Some(a) => format!(
                "{} {} {:>4} {:>5}",
                a.received.format("%d.%m.%Y"),
                a.answered.format("%d.%m.%Y"),
                a.days,
                a.total
            ),
            None => format!("{:37}", ""),
        };
        let mut out = format!("{h}\n");
        for r in &self.rows {
            out.push_str(&format!(
                "{:>4} | {} | {}\n",
                r.number,
                cell(&r.white),
                cell(&r.black)
            ));
        }
        for p in self.penalties.iter().filter(|p| !p.is_cancelled) {
            out.push_str(&format!(
                "{pen}: {} {} ({}, {})\n",
                p.side,
                p.days,
                p.clause,
                p.on.format("%d.%m.%Y")
            ));
        }
        out.push_str(&format!(
            "{tot}: {}/{}\n",
            self.totals.white, self.totals.black
        ));
        out
    }
}
