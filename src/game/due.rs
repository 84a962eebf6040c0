//! Deadlines that fire without a letter: overstep (10.3.6), the 40-day repeat and the 30-day
//! first-move query (10.3.4), a friendly warning, the end-of-play date (10.5.2).
//!
//! The days come from the clock's [`crate::clock::Ledger::deadlines`] (break days do not count
//! in the 40- and 30-day waits); this module adds the letters each one sends and the state
//! change it makes. Each deadline has a stable key: the caller fires it once, on or after its
//! day, and records the key.

use chrono::{Days, NaiveDate};
use serde::Serialize;

use super::board::Side;
use super::clockwork;
use super::model::*;
use crate::clock::{ClockSettings, Deadline, Ledger, Suspension, TimeChart};

/// Which deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeadlineKind {
    /// The player's total exceeds the limit (10.3.5, 10.3.6): the game is suspended.
    Overstep,
    /// No answer 40 days after the move was forwarded: it is repeated (10.3.4).
    Repeat,
    /// No first move 30 days after the start: white is asked (10.3.4).
    FirstMoveQuery,
    /// Seven days or fewer left before an overstep (beyond the rules).
    Warning,
    /// The end-of-play date has passed: the game goes to adjudication (10.5.2).
    EndOfPlay,
}

/// A deadline that falls due, with the letters it sends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeadlineNotice {
    /// Stable key for "fired once" (the clock's [`Deadline::key`], or `end_of_play`).
    pub key: String,
    /// Which deadline.
    pub kind: DeadlineKind,
    /// The player concerned (the one who must act).
    pub side: Side,
    /// The day it falls due.
    pub day: NaiveDate,
    /// The letters to send when it fires.
    pub notices: Vec<Notice>,
}

/// The facts of an overstep, for the players, the arbiter and the secretary (10.3.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OverstepFacts {
    /// Who overstepped.
    pub side: Side,
    /// The day it happened.
    pub day: NaiveDate,
    /// The player's total that day, penalties included.
    pub used: i64,
    /// The limit 50 × (⌊m/10⌋ + 1).
    pub limit: i64,
    /// Table 2 (10.3.6).
    pub chart: TimeChart,
    /// The record so far.
    pub record: Vec<NumberedMove>,
    /// The position.
    pub fen: String,
    /// For the arbiter: attach every letter of this player in this game (10.3.6).
    pub attach_letters_of: Side,
    /// The references of the player's letters that were played in this game (the store
    /// has the rest, refused ones included).
    pub letters: Vec<String>,
    /// This copy is the arbiter's: the game is suspended until the decision (10.3.6–10.3.7).
    pub is_for_arbiter: bool,
}

/// The deadlines of a game that fall due on or before `today` (the caller skips the keys it
/// already fired, then applies each with [`apply_deadline`]).
pub fn due(state: &GameState, today: NaiveDate, settings: &ClockSettings) -> Vec<DeadlineNotice> {
    deadlines(state, settings, Some(today))
        .into_iter()
        .filter(|d| d.day <= today)
        .collect()
}

/// The first day after `after` on which a deadline of the game falls due, so the daemon can
/// sleep until then; `None` if nothing is pending.
pub fn next_due_day(
    state: &GameState,
    after: NaiveDate,
    settings: &ClockSettings,
) -> Option<NaiveDate> {
    deadlines(state, settings, None)
        .into_iter()
        .map(|d| d.day)
        .filter(|d| *d > after)
        .min()
}

/// The state after a deadline fired: an overstep suspends the game (10.3.6), the end of play
/// freezes it for adjudication (10.5.2); the other deadlines change nothing.
pub fn apply_deadline(state: &GameState, deadline: &DeadlineNotice) -> GameState {
    let mut st = state.clone();
    match deadline.kind {
        DeadlineKind::Overstep => mark_suspended(&mut st, deadline.side, deadline.day),
        DeadlineKind::EndOfPlay if st.result.is_none() => st.status = Status::Adjudication,
        _ => {}
    }
    st
}

fn to(side: Side, kind: NoticeKind) -> Notice {
    Notice {
        to: Recipient::Player(side),
        kind,
    }
}

/// The game's deadlines; the letters are made only for those due by `today` (none without
/// it), so a daemon asking for the next day does not replay the game.
fn deadlines(
    st: &GameState,
    settings: &ClockSettings,
    today: Option<NaiveDate>,
) -> Vec<DeadlineNotice> {
    let mut out = Vec::new();
    let is_frozen = matches!(st.status, Status::Suspended { .. } | Status::Adjudication);
    if st.result.is_some() || is_frozen {
        return out;
    }
    let l = clockwork::ledger(st, settings);
    for d in l.deadlines() {
        if today.is_none_or(|t| d.day() > t) {
            let (kind, side) = match &d {
                Deadline::Overstep { side, .. } => (DeadlineKind::Overstep, *side),
                Deadline::Repeat { side, .. } => (DeadlineKind::Repeat, *side),
                Deadline::FirstMoveQuery { .. } => (DeadlineKind::FirstMoveQuery, Side::White),
                Deadline::Warning { side, .. } => (DeadlineKind::Warning, *side),
            };
            let is_repeat_possible =
                st.last_forward[side].is_some() && matches!(st.status, Status::Playing);
            if kind == DeadlineKind::Repeat && !is_repeat_possible {
                continue;
            }
            out.push(DeadlineNotice {
                key: d.key(),
                kind,
                side,
                day: d.day(),
                notices: Vec::new(),
            });
            continue;
        }
        let (kind, side, day, notices) = match &d {
            Deadline::Overstep { side, day, .. } => {
                let mut probe = st.clone();
                let notices = suspend_with(&mut probe, &l, *side, *day);
                (DeadlineKind::Overstep, *side, *day, notices)
            }
            Deadline::Repeat { side, day, .. } => {
                // Only a move zaochka forwarded can be repeated (and a stopped game waits for
                // the sender's correction, not for an answer).
                let Some(fw) = st.last_forward[*side].clone() else {
                    continue;
                };
                if !matches!(st.status, Status::Playing) {
                    continue;
                }
                let notices = vec![
                    to(
                        *side,
                        NoticeKind::ForwardMove {
                            new_moves: st.new_moves_for(*side),
                            is_repeat: true,
                            problems: Vec::new(),
                            forward: fw.clone(),
                        },
                    ),
                    to(
                        side.other(),
                        NoticeKind::Repeated {
                            sent_on: fw.sent_on,
                        },
                    ),
                ];
                (DeadlineKind::Repeat, *side, *day, notices)
            }
            Deadline::FirstMoveQuery { day } => {
                let notices = [Side::White, Side::Black]
                    .into_iter()
                    .map(|s| {
                        let start = st.start_of(st.first_mover());
                        to(s, NoticeKind::FirstMoveQuery { start })
                    })
                    .collect();
                (DeadlineKind::FirstMoveQuery, Side::White, *day, notices)
            }
            Deadline::Warning {
                side,
                days_left,
                day,
                ..
            } => {
                let overstep_day = l.overstep_day(*side).unwrap_or(st.end);
                let notices = vec![to(
                    *side,
                    NoticeKind::TimeWarning {
                        // a sweep after an outage finds fewer days than on the warning's day
                        days_left: today.map_or(*days_left, |t| l.days_left(*side, t)),
                        overstep_day,
                    },
                )];
                (DeadlineKind::Warning, *side, *day, notices)
            }
        };
        out.push(DeadlineNotice {
            key: d.key(),
            kind,
            side,
            day,
            notices,
        });
    }
    let end = st.end + Days::new(1);
    let mover = st.side_to_move();
    let mut notices: Vec<Notice> = [Side::White, Side::Black]
        .into_iter()
        .map(|s| to(s, NoticeKind::EndOfPlay { end: st.end }))
        .collect();
    notices.push(Notice {
        to: Recipient::Arbiter,
        kind: NoticeKind::EndOfPlay { end: st.end },
    });
    out.push(DeadlineNotice {
        key: "end_of_play".to_string(),
        kind: DeadlineKind::EndOfPlay,
        side: mover,
        day: end,
        notices,
    });
    out
}

/// Suspends the game for an overstep and gives the letters of 10.3.6: both players, the
/// arbiter (Table 2, the player's letters to attach) and the secretary.
pub(crate) fn suspend(
    st: &mut GameState,
    side: Side,
    day: NaiveDate,
    settings: &ClockSettings,
) -> Vec<Notice> {
    let l = clockwork::ledger(st, settings);
    suspend_with(st, &l, side, day)
}

/// The game stops for the arbiter (10.3.6): its status, and a stop of every clock from the
/// next day.
fn mark_suspended(st: &mut GameState, side: Side, day: NaiveDate) {
    st.status = Status::Suspended { side, since: day };
    if st.suspensions.iter().all(|s| s.resumed.is_some()) {
        st.suspensions.push(Suspension {
            suspended: day,
            resumed: None,
        });
    }
}

fn suspend_with(st: &mut GameState, l: &Ledger, side: Side, day: NaiveDate) -> Vec<Notice> {
    mark_suspended(st, side, day);
    let facts = OverstepFacts {
        side,
        day,
        used: l.total(side, day),
        limit: l.limit(side),
        chart: l.time_chart(day),
        record: st.record(),
        fen: st.fen(),
        attach_letters_of: side,
        letters: st
            .answers
            .iter()
            .filter(|a| a.by == side)
            .map(|a| a.letter.clone())
            .collect(),
        is_for_arbiter: false,
    };
    let mut arbiter = facts.clone();
    arbiter.is_for_arbiter = true;
    vec![
        to(side, NoticeKind::Overstep(facts.clone())),
        to(side.other(), NoticeKind::Overstep(facts.clone())),
        Notice {
            to: Recipient::Arbiter,
            kind: NoticeKind::Overstep(arbiter),
        },
        Notice {
            to: Recipient::Secretary,
            kind: NoticeKind::Overstep(facts),
        },
    ]
}
