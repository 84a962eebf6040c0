//! Deadlines that fire without a letter: overstep (10.3.6), the 40-day repeat and the 30-day
//! first-move query (10.3.4), a friendly warning, the end-of-play date (10.5.2).
//!
//! Each deadline has the day it falls due and a stable key (kind, player, day): the caller
//! fires it once, on or after its day, and records the key. The 40- and 30-day waits do not
//! count days on which either player is on a break (no clock runs then, 10.4.2).

use chrono::{Days, NaiveDate};
use serde::Serialize;

use super::board::Side;
use super::clockwork::{self, TimeChart};
use super::model::*;

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
    /// Stable key for "fired once": `kind:side:YYYY-MM-DD`.
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
    /// The player's total that day and the limit.
    pub used: i64,
    /// The limit 50 × (⌊m/10⌋ + 1).
    pub limit: i64,
    /// Table 2.
    pub chart: TimeChart,
    /// The record so far.
    pub record: Vec<NumberedMove>,
    /// The position.
    pub fen: String,
    /// For the arbiter: the letters of the player in this game to attach (caller's refs).
    pub attach_letters_of: Side,
    /// For the arbiter: the partner's reply is held (10.3.6), the letters go with it.
    pub is_for_arbiter: bool,
}

/// The deadlines of a game that fall due on or before `today`.
pub fn due(state: &GameState, today: NaiveDate, settings: &Settings) -> Vec<DeadlineNotice> {
    deadlines(state, settings)
        .into_iter()
        .filter(|d| d.day <= today)
        .collect()
}

/// The first day after `after` on which a deadline of the game falls due, so the daemon can
/// sleep until then; `None` if nothing is pending.
pub fn next_due_day(state: &GameState, after: NaiveDate, settings: &Settings) -> Option<NaiveDate> {
    deadlines(state, settings)
        .into_iter()
        .map(|d| d.day)
        .filter(|d| *d > after)
        .min()
}

/// The state after a deadline fired: an overstep suspends the game (10.3.6), the end of play
/// freezes it for adjudication (10.5.2); other deadlines change nothing.
pub fn apply_deadline(state: &GameState, deadline: &DeadlineNotice) -> GameState {
    let mut st = state.clone();
    match deadline.kind {
        DeadlineKind::Overstep => {
            st.status = Status::Suspended {
                side: deadline.side,
                since: deadline.day,
            };
        }
        DeadlineKind::EndOfPlay if st.result.is_none() => st.status = Status::Adjudication,
        _ => {}
    }
    st
}

/// The day `n` clock days after `from` (break days do not count).
fn clock_days_after(st: &GameState, from: NaiveDate, n: u32) -> NaiveDate {
    let mut d = from;
    let mut left = n;
    // A break is at most 30 days (special ones a little more); the bound keeps a corrupt
    // break list from looping for ever.
    let mut guard = 0;
    while left > 0 && guard < 10_000 {
        d = d + Days::new(1);
        guard += 1;
        if !clockwork::is_off_day(st, d) {
            left -= 1;
        }
    }
    d
}

fn key(kind: &str, side: Side, day: NaiveDate) -> String {
    format!("{kind}:{side}:{day}")
}

fn deadlines(st: &GameState, settings: &Settings) -> Vec<DeadlineNotice> {
    let mut out = Vec::new();
    if st.result.is_some() || matches!(st.status, Status::Suspended { .. } | Status::Adjudication) {
        return out;
    }
    let mover = st.side_to_move();
    if let Some(day) = clockwork::overstep_day(st, mover, settings) {
        let mut probe = st.clone();
        out.push(DeadlineNotice {
            key: key("overstep", mover, day),
            kind: DeadlineKind::Overstep,
            side: mover,
            day,
            notices: suspend(&mut probe, mover, day, settings),
        });
        // The warning: the first day with `warn_days_left` or fewer days left.
        let mut d = st.received_by(mover);
        while d < day {
            d = d + Days::new(1);
            if clockwork::days_left(st, mover, d, settings) <= i64::from(settings.warn_days_left) {
                break;
            }
        }
        if d < day {
            let left = clockwork::days_left(st, mover, d, settings);
            out.push(DeadlineNotice {
                key: key("warning", mover, d),
                kind: DeadlineKind::Warning,
                side: mover,
                day: d,
                notices: vec![Notice {
                    to: Recipient::Player(mover),
                    kind: NoticeKind::TimeWarning {
                        days_left: left,
                        overstep_day: day,
                    },
                }],
            });
        }
    }
    if matches!(st.status, Status::Playing) {
        if st.moves.is_empty() {
            let day =
                clock_days_after(st, st.start_of(Side::White), settings.first_move_query_days);
            out.push(DeadlineNotice {
                key: key("first-move", Side::White, day),
                kind: DeadlineKind::FirstMoveQuery,
                side: Side::White,
                day,
                notices: vec![
                    Notice {
                        to: Recipient::Player(Side::White),
                        kind: NoticeKind::FirstMoveQuery { start: st.start },
                    },
                    Notice {
                        to: Recipient::Player(Side::Black),
                        kind: NoticeKind::FirstMoveQuery { start: st.start },
                    },
                ],
            });
        } else if let Some(fw) = st.last_forward.get(mover) {
            let day = clock_days_after(st, fw.sent_on, settings.repeat_after_days);
            out.push(DeadlineNotice {
                key: key("repeat", mover, day),
                kind: DeadlineKind::Repeat,
                side: mover,
                day,
                notices: vec![
                    Notice {
                        to: Recipient::Player(mover),
                        kind: NoticeKind::ForwardMove {
                            forward: fw.clone(),
                            new_moves: st.new_moves_for(mover),
                            is_repeat: true,
                            problems: Vec::new(),
                        },
                    },
                    Notice {
                        to: Recipient::Player(mover.other()),
                        kind: NoticeKind::Repeated {
                            sent_on: fw.sent_on,
                        },
                    },
                ],
            });
        }
    }
    let end = st.end + Days::new(1);
    out.push(DeadlineNotice {
        key: key("end-of-play", mover, end),
        kind: DeadlineKind::EndOfPlay,
        side: mover,
        day: end,
        notices: [Side::White, Side::Black]
            .into_iter()
            .map(|s| Notice {
                to: Recipient::Player(s),
                kind: NoticeKind::EndOfPlay { end: st.end },
            })
            .chain(std::iter::once(Notice {
                to: Recipient::Arbiter,
                kind: NoticeKind::EndOfPlay { end: st.end },
            }))
            .collect(),
    });
    out
}

/// Suspends the game for an overstep and gives the letters of 10.3.6: both players, the
/// arbiter (Table 2, the player's letters to attach) and the secretary.
pub(crate) fn suspend(
    st: &mut GameState,
    side: Side,
    day: NaiveDate,
    settings: &Settings,
) -> Vec<Notice> {
    let used = clockwork::total(st, side) + i64::from(clockwork_running(st, side, day));
    st.status = Status::Suspended { side, since: day };
    let facts = OverstepFacts {
        side,
        day,
        used,
        limit: clockwork::limit(st, side, settings),
        chart: TimeChart::of(st),
        record: st.record(),
        fen: st.fen(),
        attach_letters_of: side,
        is_for_arbiter: false,
    };
    let mut arbiter = facts.clone();
    arbiter.is_for_arbiter = true;
    vec![
        Notice {
            to: Recipient::Player(side),
            kind: NoticeKind::Overstep(facts.clone()),
        },
        Notice {
            to: Recipient::Player(side.other()),
            kind: NoticeKind::Overstep(facts.clone()),
        },
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

fn clockwork_running(st: &GameState, side: Side, day: NaiveDate) -> u32 {
    // Suspended already: count as if still running up to the overstep day.
    if st.side_to_move() == side && st.result.is_none() {
        clockwork::thinking_days(st, st.received_by(side), day)
    } else {
        0
    }
}
