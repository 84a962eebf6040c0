//! The chief arbiter's decisions on a game (10.1.7, 10.3.7, 10.4.5, 10.5): each takes the
//! state and returns the new state with the notices due.
//!
//! zaochka, not the partner, declares an overstep (its clock is authoritative, 10.3.9), so
//! the 6 penalty days that 10.3.7 gives "the player who wrongly declared an overstep" have
//! nobody to go to by default; the arbiter may still charge them with [`add_penalty`].

use chrono::NaiveDate;
use serde::Serialize;

use super::board::Side;
use super::judge;
use super::model::*;
use crate::clock::{Break, ClockSettings};

/// A decision's effect: the new state and the letters to send.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ruling {
    /// The game after the decision (store it).
    pub state: GameState,
    /// The letters to send.
    pub notices: Vec<Notice>,
}

fn to_all(notices: &mut Vec<Notice>, kind: NoticeKind) {
    for to in [
        Recipient::Player(Side::White),
        Recipient::Player(Side::Black),
        Recipient::Secretary,
    ] {
        notices.push(Notice {
            to,
            kind: kind.clone(),
        });
    }
}

/// The overstep is confirmed: the player loses (10.3.7). Does nothing to a game that is not
/// suspended for an overstep.
pub fn confirm_overstep(state: &GameState, day: NaiveDate) -> Ruling {
    let mut st = state.clone();
    let mut notices = Vec::new();
    if let Status::Suspended { side, .. } = st.status {
        to_all(
            &mut notices,
            NoticeKind::OverstepRuling {
                side,
                is_confirmed: true,
                days_back: 0,
                days_left: 0,
                last_day: None,
            },
        );
        let result = GameResult {
            score: Score::win(side.other()),
            how: Ending::Overstep { side },
            on: day,
        };
        judge::finish(&mut st, result, &mut notices);
    }
    Ruling { state: st, notices }
}

/// There was no overstep (10.3.7): play resumes. The days of the suspension count for
/// nobody (the clock's suspension closes on `day`), and the player is given back the days
/// over the limit and as many more as leave him `days_left` days in the current control on
/// `day` (a negative 10.3.7 penalty; none when he already has that many). So the clock does
/// not declare the same overstep again: with no answer and no break, the next overstep day
/// is `days_left + 1` days after `day`. The partner's forwarded move is sent again.
pub fn reject_overstep(
    state: &GameState,
    day: NaiveDate,
    days_left: u32,
    settings: &ClockSettings,
) -> Ruling {
    let mut st = state.clone();
    let mut notices = Vec::new();
    if let Status::Suspended { side, .. } = st.status {
        st.status = Status::Playing;
        for s in st.suspensions.iter_mut().filter(|s| s.resumed.is_none()) {
            s.resumed = Some(day.max(s.suspended));
        }
        let back = i64::from(days_left) - st.ledger(settings).days_left(side, day);
        if back > 0 {
            st.penalties.push(Penalty {
                side,
                move_number: st.number_of_ply(st.moves.len()),
                days: -i32::try_from(back).unwrap_or(i32::MAX),
                clause: "10.3.7".to_string(),
                reason: "days given back: no overstep".to_string(),
                on: day,
                is_cancelled: false,
            });
        }
        let clock = st.ledger(settings);
        to_all(
            &mut notices,
            NoticeKind::OverstepRuling {
                side,
                is_confirmed: false,
                days_back: back.max(0),
                days_left: clock.days_left(side, day),
                last_day: clock.last_day(side, day),
            },
        );
        if let Some(fw) = st.last_forward[side].clone() {
            notices.push(Notice {
                to: Recipient::Player(side),
                kind: NoticeKind::ForwardMove {
                    forward: fw,
                    new_moves: st.new_moves_for(side),
                    is_repeat: true,
                    problems: Vec::new(),
                },
            });
        }
    }
    Ruling { state: st, notices }
}

/// Sets a result by the arbiter's decision (adjudication 10.5, or any ruling).
pub fn set_result(state: &GameState, score: Score, note: &str, day: NaiveDate) -> Ruling {
    let mut st = state.clone();
    let mut notices = Vec::new();
    let result = GameResult {
        score,
        how: Ending::Arbiter {
            note: note.to_string(),
        },
        on: day,
    };
    judge::finish(&mut st, result, &mut notices);
    Ruling { state: st, notices }
}

/// Charges penalty days (10.2.11, 10.3.3, 10.3.7) with the clause and the reason.
pub fn add_penalty(
    state: &GameState,
    side: Side,
    days: u32,
    clause: &str,
    reason: &str,
    day: NaiveDate,
) -> Ruling {
    let mut st = state.clone();
    st.penalties.push(Penalty {
        side,
        move_number: st.number_of_ply(st.moves.len()),
        days: i32::try_from(days).unwrap_or(i32::MAX),
        clause: clause.to_string(),
        reason: reason.to_string(),
        on: day,
        is_cancelled: false,
    });
    let mut notices = Vec::new();
    to_all(
        &mut notices,
        NoticeKind::ClockRuling {
            side,
            days: i64::from(days),
            clause: clause.to_string(),
            reason: reason.to_string(),
        },
    );
    Ruling { state: st, notices }
}

/// Cancels the penalty at `index` in [`GameState::penalties`]; an unknown index or one already
/// cancelled changes nothing.
pub fn cancel_penalty(state: &GameState, index: usize) -> Ruling {
    let mut st = state.clone();
    let mut notices = Vec::new();
    if let Some(p) = st.penalties.get_mut(index)
        && !p.is_cancelled
    {
        p.is_cancelled = true;
        let kind = NoticeKind::ClockRuling {
            side: p.side,
            days: -i64::from(p.days),
            clause: p.clause.clone(),
            reason: format!("penalty cancelled: {}", p.reason),
        };
        to_all(&mut notices, kind);
    }
    Ruling { state: st, notices }
}

/// Adds days to a player's total (negative: gives days back), e.g. after a mail outage.
pub fn add_days(state: &GameState, side: Side, days: i32, reason: &str, day: NaiveDate) -> Ruling {
    let mut st = state.clone();
    st.penalties.push(Penalty {
        side,
        move_number: st.number_of_ply(st.moves.len()),
        days,
        clause: "10.1.7".to_string(),
        reason: reason.to_string(),
        on: day,
        is_cancelled: false,
    });
    let mut notices = Vec::new();
    to_all(
        &mut notices,
        NoticeKind::ClockRuling {
            side,
            days: i64::from(days),
            clause: "10.1.7".to_string(),
            reason: reason.to_string(),
        },
    );
    Ruling { state: st, notices }
}

/// Records a break in this game: a player's announced break (checked by the tournament,
/// 10.4.1–10.4.3) or a special break granted by the arbiter (10.4.5). No clock runs on its
/// days (10.4.2).
pub fn record_break(state: &GameState, side: Side, grant: Break) -> Ruling {
    let mut st = state.clone();
    st.breaks[side].push(grant);
    let mut notices = Vec::new();
    to_all(&mut notices, NoticeKind::BreakRecorded { side, grant });
    Ruling { state: st, notices }
}
