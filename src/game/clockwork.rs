//! The game's clock, derived: a [`Ledger`] of the `clock` module rebuilt from the game's
//! answers, plies, penalties and breaks whenever it is needed, so the state stores each fact
//! once and the clock's rules (10.3, 10.4) live in one place.

use chrono::NaiveDate;

use super::model::{Ending, GameState};
use crate::clock::{self, ClockSettings, Ledger, Side, TimeUsed};

/// The game's clock ledger as of its present state.
pub(crate) fn ledger(st: &GameState, settings: &ClockSettings) -> Ledger {
    let mut l = Ledger::new(*settings, st.start, st.end);
    l.breaks = st.breaks.clone();
    l.suspensions = st.suspensions.clone();
    if st.first_mover() == Side::Black
        && let Some(first) = l.answers.first_mut()
    {
        first.side = Side::Black;
    }
    for side in [Side::White, Side::Black] {
        l.start_lists_sent[side] = st.start_list_sent;
        // the list's day (10.3.2), unless a start was set by hand (an import, the arbiter)
        l.starts[side] = st.start_of(side);
    }
    if let Some(imp) = &st.imported {
        // The imported plies: made before the clocks ran again (no days of their own, the
        // days carried in stand for them), counted for the limit (10.3.5); then the side to
        // move thinks from the day he was sent the position.
        l.carried = imp.carried;
        let before = imp.sent.pred_opt().unwrap_or(imp.sent);
        l.answers = st.moves[..imp.plies.min(st.moves.len())]
            .iter()
            .enumerate()
            .map(|(p, m)| clock::Answer {
                side: m.by,
                move_number: st.number_of_ply(p),
                received: before,
                answered: Some(before),
                is_counted: !m.is_from_variant || m.is_forced,
            })
            .collect();
        let next = imp.plies;
        // Nothing is pending after the imported plies, so the receipt is always recorded.
        let _ = l.receive(st.side_of_ply(next), st.number_of_ply(next), imp.sent);
    }
    // The first move counts as received on the first mover's own start (10.3.2).
    if let [first] = &mut l.answers[..] {
        first.received = l.starts[first.side];
    }
    let last = st.answers.len();
    for (i, a) in st.answers.iter().enumerate() {
        let mut has_answered = false;
        for p in a.plies.clone() {
            let m = &st.moves[p];
            let n = st.number_of_ply(p);
            if m.by == a.by && !has_answered {
                // The ledger's pending answer is this side's: the states are built in turn.
                let _ = l.answer(a.by, a.answered);
                has_answered = true;
            } else if m.by == a.by {
                l.record_move(a.by, n, a.answered, true);
            } else {
                l.record_move(m.by, n, a.answered, !m.is_from_variant || m.is_forced);
            }
        }
        // A game ended by the rules on this answer awaits no further answer.
        let is_over = i + 1 == last
            && st
                .result
                .as_ref()
                .is_some_and(|r| matches!(r.how, Ending::Rule | Ending::DrawRule { .. }));
        if !is_over {
            let next = a.plies.end;
            // Nothing is pending after an answer, so the receipt is always recorded.
            let _ = l.receive(st.side_of_ply(next), st.number_of_ply(next), a.answered);
        }
    }
    for p in st.penalties.iter().filter(|p| !p.is_cancelled) {
        l.charge(clock::Penalty {
            side: p.side,
            move_number: p.move_number,
            on: p.on,
            days: p.days,
            clause: p.clause.clone(),
        });
    }
    l
}

/// Both totals at `day` as the fraction of letters (10.3.1).
pub(crate) fn times(l: &Ledger, day: NaiveDate) -> TimeUsed {
    TimeUsed {
        white: l.total(Side::White, day),
        black: l.total(Side::Black, day),
    }
}

impl GameState {
    /// The game's clock ledger (derived from the state; the clock's rules apply).
    pub fn ledger(&self, settings: &ClockSettings) -> Ledger {
        ledger(self, settings)
    }

    /// Both players' totals at `day`, penalties and a pending answer's running days included
    /// (a finished game's clock stopped on the day of its result).
    pub fn times(&self, settings: &ClockSettings, day: NaiveDate) -> TimeUsed {
        times(&ledger(self, settings), self.clock_day(day))
    }

    /// The day the clock stands at on `day`: a finished game's stopped on its end.
    pub fn clock_day(&self, day: NaiveDate) -> NaiveDate {
        self.result.as_ref().map_or(day, |r| day.min(r.on))
    }

    /// Whether no clock of this game runs on `day` because a player is on a break (10.4.2).
    pub fn is_on_break(&self, day: NaiveDate) -> bool {
        self.breaks
            .white
            .iter()
            .chain(&self.breaks.black)
            .any(|b| b.covers(day))
    }

    /// Table 2 of 10.3.6 at `day`.
    pub fn time_chart(&self, settings: &ClockSettings, day: NaiveDate) -> clock::TimeChart {
        ledger(self, settings).time_chart(self.clock_day(day))
    }
}
