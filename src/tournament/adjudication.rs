//! Adjudication of unfinished games (10.5.2–10.5.7): a state machine per game.
//!
//! ```text
//!  freeze (end-of-play date) ──► AwaitingAnalyses ──(both analyses in, or the 10 days
//!  passed: sweep)──► WithArbiter ──decide──► Decided ──(a protest in time)──► Protested
//! ```
//! - [`freeze`]: on the end-of-play date every unfinished game stops and both players are
//!   asked for their evaluation and analysis within [`ANALYSIS_DAYS`] days (10.5.2).
//! - [`receive_analysis`]: a player's `Анализ: … Оценка: …`; the arbiter gets the
//!   [`Package`] as soon as both are in, or at the deadline with whatever came ([`sweep`],
//!   10.5.5: a one-sided analysis is still taken into account). A late analysis still goes to
//!   the arbiter, but its author loses the right to protest (10.5.6).
//! - [`Package`]: the final position (FEN, for the diagram), the record, both evaluations
//!   and analyses, and the result both players agree on where they agree (10.5.4).
//! - [`decide`]: the decision goes to both players with the protest window (10.5.6) and to
//!   the secretary.
//! - [`protest`]: in time (within [`PROTEST_DAYS`] days of the decision, and only by a
//!   player whose analysis came in time) it goes to the organiser, whose decision is final
//!   (10.5.7); otherwise the player is told why not.
//!
//! Choices where the rules are silent: a player who sent no analysis at all is treated like
//! one who sent it late (no protest); a second analysis from the same player replaces the
//! first; the decision day counts as the day the players receive it (zaochka sends it that
//! day, 10.3.9).
//!
//! Pure: the day is always an argument; the game's own result is set by the caller with
//! [`crate::game::arbiter::set_result`].

use chrono::{Days, NaiveDate};
use serde::{Deserialize, Serialize};

use crate::clock::{PerSide, Side};
use crate::game::{GameState, NumberedMove, Score, Variant};

/// Days the players have for their analyses after the end of play (10.5.2).
pub const ANALYSIS_DAYS: u64 = 10;
/// Days a player has to protest a decision (10.5.6, 10.1.12, 10.3.8).
pub const PROTEST_DAYS: u64 = 10;

/// How the result of a game decided on a protest begins its note (10.5.7): the decision is
/// the organisation's, so letters do not call it the chief arbiter's.
pub const PROTEST_DECISION: &str = "решение по протесту, п. 10.5.7";

/// The note of a result decided on a protest, worded: `None` for any other note.
#[must_use]
pub fn protest_decision_words(note: &str, english: bool) -> Option<String> {
    let rest = note.strip_prefix(PROTEST_DECISION)?;
    let rest = rest.trim_start_matches(':').trim();
    // written inside the result's brackets: no brackets of its own
    let head = if english {
        "the decision on the protest, 10.5.7"
    } else {
        PROTEST_DECISION
    };
    Some(if rest.is_empty() {
        head.to_string()
    } else {
        format!("{head}: {rest}")
    })
}

/// Whether a protest sent on `day` against a decision received on `received` is in time
/// (10.1.12, 10.3.8, 10.5.6: "не позднее 10 дней").
pub fn is_protest_in_time(received: NaiveDate, day: NaiveDate) -> bool {
    day <= received + Days::new(PROTEST_DAYS)
}

/// One player's analysis (10.5.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Analysis {
    /// The analysis as written.
    pub text: String,
    /// The evaluation (`Оценка: ничья`), if given.
    pub evaluation: Option<Score>,
    /// The day it came.
    pub received: NaiveDate,
    /// Came after the deadline: no right to protest (10.5.6).
    pub is_late: bool,
}

/// The arbiter's decision (10.5.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ruling {
    /// The result.
    pub score: Score,
    /// The arbiter's words.
    pub note: String,
    /// The day it was given (and sent).
    pub on: NaiveDate,
    /// The last day of the protest window (10.5.6).
    pub protest_until: NaiveDate,
}

/// A protest against the decision (10.5.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Protest {
    /// Who.
    pub by: Side,
    /// What they wrote.
    pub text: String,
    /// When.
    pub on: NaiveDate,
    /// Accepted for the organiser (in time and with the right to protest).
    pub is_accepted: bool,
}

/// Where the adjudication stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum Stage {
    /// Waiting for the players' analyses (10.5.2).
    AwaitingAnalyses,
    /// The package is with the arbiter.
    WithArbiter {
        /// The day it was sent.
        since: NaiveDate,
    },
    /// Decided; a protest may come within the window (10.5.6).
    Decided,
    /// A protest went to the organiser (10.5.7).
    Protested,
    /// The organiser decided the protest; the result is final (10.5.7).
    Final,
}

/// One game's adjudication: what the store keeps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudication {
    /// The tournament cipher.
    pub cipher: String,
    /// The game number.
    pub game: u32,
    /// The end-of-play date.
    pub end: NaiveDate,
    /// The last day for the analyses (10.5.2).
    pub due: NaiveDate,
    /// The players' analyses.
    pub analyses: PerSide<Option<Analysis>>,
    /// Where it stands.
    pub stage: Stage,
    /// The decision, once given.
    pub ruling: Option<Ruling>,
    /// Protests received.
    pub protests: Vec<Protest>,
}

/// What the arbiter gets per game (10.5.2, 10.5.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Package {
    /// The tournament cipher.
    pub cipher: String,
    /// The game number.
    pub game: u32,
    /// Which game.
    #[serde(serialize_with = "variant_name")]
    pub variant: Variant,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The final position (for the diagram).
    pub fen: String,
    /// Whose move it is in the final position.
    pub side_to_move: Side,
    /// The record.
    pub record: Vec<NumberedMove>,
    /// The players' analyses, as far as they came.
    pub analyses: PerSide<Option<Analysis>>,
    /// The result both players propose, where their evaluations agree (10.5.4).
    pub agreed: Option<Score>,
}

fn variant_name<S: serde::Serializer>(v: &Variant, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(v.name())
}

/// Who a notice goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum To {
    /// A player of the game.
    Player(Side),
    /// The chief arbiter.
    Arbiter,
    /// The chief secretary.
    Secretary,
    /// The organiser (protests, 10.5.7); the caller sends it where the config says.
    Organiser,
}

/// What a notice says (data for `render`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NoticeKind {
    /// Send the evaluation and analysis by `due` (10.5.2).
    Request {
        /// The last day.
        due: NaiveDate,
    },
    /// The analysis came; `is_late`: no right to protest (10.5.6).
    AnalysisReceived {
        /// After the deadline.
        is_late: bool,
    },
    /// The package for the arbiter.
    Package(Box<Package>),
    /// An analysis that came after the package was sent, for the arbiter.
    LateAnalysis {
        /// Whose.
        by: Side,
        /// The analysis.
        analysis: Analysis,
    },
    /// The decision, with the protest window (10.5.6).
    Decision {
        /// The decision.
        ruling: Ruling,
        /// Whether this addressee may protest (a player whose analysis came in time).
        may_protest: bool,
        /// The organiser's decision on a protest, final (10.5.7): no window follows.
        is_final: bool,
    },
    /// A protest for the organiser (10.5.7), with the package.
    ProtestForwarded {
        /// The protest.
        protest: Protest,
        /// The game's papers.
        package: Box<Package>,
        /// The decision protested.
        ruling: Ruling,
    },
    /// The protest is accepted for the organiser (to its author).
    ProtestAccepted,
    /// The protest cannot be taken, and why.
    ProtestRefused {
        /// Why.
        why: ProtestRefusal,
    },
}

/// Why a protest is not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProtestRefusal {
    /// Nothing decided yet.
    NotDecided,
    /// After the 10-day window (10.5.6).
    Late,
    /// The player's analysis came late or never (10.5.6).
    NoAnalysisInTime,
    /// The organiser has decided a protest already: its decision is final (10.5.7).
    Final,
}

/// A notice due.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Notice {
    /// To whom.
    pub to: To,
    /// What.
    pub kind: NoticeKind,
}

/// A step of the machine: the new record and the notices due.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// The adjudication after the step (store it).
    pub adjudication: Adjudication,
    /// The letters to send.
    pub notices: Vec<Notice>,
}

fn to_players(kind: &NoticeKind) -> Vec<Notice> {
    [Side::White, Side::Black]
        .into_iter()
        .map(|s| Notice {
            to: To::Player(s),
            kind: kind.clone(),
        })
        .collect()
}

/// Freezes an unfinished game on the end-of-play date and asks both players for their
/// analyses (10.5.2). `None` for a finished game.
pub fn freeze(state: &GameState, day: NaiveDate) -> Option<Step> {
    if state.is_finished() {
        return None;
    }
    let end = state.end.min(day);
    let due = end + Days::new(ANALYSIS_DAYS);
    let adjudication = Adjudication {
        cipher: state.cipher.clone(),
        game: state.number,
        end,
        due,
        analyses: PerSide::default(),
        stage: Stage::AwaitingAnalyses,
        ruling: None,
        protests: Vec::new(),
    };
    Some(Step {
        adjudication,
        notices: to_players(&NoticeKind::Request { due }),
    })
}

/// The result both players propose, where both evaluated and agree (10.5.4).
pub fn agreed(adj: &Adjudication) -> Option<Score> {
    let w = adj.analyses.white.as_ref()?.evaluation?;
    let b = adj.analyses.black.as_ref()?.evaluation?;
    (w == b).then_some(w)
}

/// The arbiter's papers for the game (10.5.2, 10.5.4).
pub fn package(adj: &Adjudication, state: &GameState) -> Package {
    Package {
        cipher: adj.cipher.clone(),
        game: adj.game,
        variant: state.variant,
        white: state.players.white.name.clone(),
        black: state.players.black.name.clone(),
        fen: state.fen(),
        side_to_move: state.side_to_move(),
        record: state.record(),
        analyses: adj.analyses.clone(),
        agreed: agreed(adj),
    }
}

fn send_package(adj: &mut Adjudication, state: &GameState, day: NaiveDate) -> Notice {
    adj.stage = Stage::WithArbiter { since: day };
    Notice {
        to: To::Arbiter,
        kind: NoticeKind::Package(Box::new(package(adj, state))),
    }
}

/// A player's analysis and evaluation came (10.5.2). When both are in, the arbiter gets the
/// package; one that comes after the package went is sent on by itself.
pub fn receive_analysis(
    adj: &Adjudication,
    state: &GameState,
    side: Side,
    text: &str,
    evaluation: Option<Score>,
    day: NaiveDate,
) -> Step {
    let mut a = adj.clone();
    let analysis = Analysis {
        text: text.to_string(),
        evaluation,
        received: day,
        is_late: day > a.due,
    };
    let mut notices = vec![Notice {
        to: To::Player(side),
        kind: NoticeKind::AnalysisReceived {
            is_late: analysis.is_late,
        },
    }];
    a.analyses[side] = Some(analysis.clone());
    match a.stage {
        Stage::AwaitingAnalyses => {
            if a.analyses.white.is_some() && a.analyses.black.is_some() {
                notices.push(send_package(&mut a, state, day));
            }
        }
        _ => notices.push(Notice {
            to: To::Arbiter,
            kind: NoticeKind::LateAnalysis { by: side, analysis },
        }),
    }
    Step {
        adjudication: a,
        notices,
    }
}

/// The day after the deadline the arbiter gets the package with whatever came (10.5.5).
/// Nothing happens before, or after the package went.
pub fn sweep(adj: &Adjudication, state: &GameState, day: NaiveDate) -> Step {
    let mut a = adj.clone();
    let mut notices = Vec::new();
    if a.stage == Stage::AwaitingAnalyses && day > a.due {
        notices.push(send_package(&mut a, state, day));
    }
    Step {
        adjudication: a,
        notices,
    }
}

/// The next day [`sweep`] has something to do, if any.
pub fn next_due_day(adj: &Adjudication) -> Option<NaiveDate> {
    (adj.stage == Stage::AwaitingAnalyses).then(|| adj.due + Days::new(1))
}

fn may_protest(adj: &Adjudication, side: Side) -> bool {
    adj.analyses[side].as_ref().is_some_and(|a| !a.is_late)
}

/// The arbiter's decision (10.5.5): to both players with the protest window (10.5.6), and
/// to the secretary. A decision may be given before the deadline (both players agreeing,
/// 10.5.4) or replace an earlier one.
pub fn decide(adj: &Adjudication, score: Score, note: &str, day: NaiveDate) -> Step {
    let mut a = adj.clone();
    let ruling = Ruling {
        score,
        note: note.to_string(),
        on: day,
        protest_until: day + Days::new(PROTEST_DAYS),
    };
    a.ruling = Some(ruling.clone());
    a.stage = Stage::Decided;
    let mut notices: Vec<Notice> = [Side::White, Side::Black]
        .into_iter()
        .map(|s| Notice {
            to: To::Player(s),
            kind: NoticeKind::Decision {
                ruling: ruling.clone(),
                may_protest: may_protest(&a, s),
                is_final: false,
            },
        })
        .collect();
    notices.push(Notice {
        to: To::Secretary,
        kind: NoticeKind::Decision {
            ruling,
            may_protest: false,
            is_final: false,
        },
    });
    Step {
        adjudication: a,
        notices,
    }
}

/// The organiser's decision on a protest (10.5.7), entered by the arbiter: the result,
/// final, to both players and the secretary. `None` when no protest is waiting.
#[must_use]
pub fn decide_protest(
    adj: &Adjudication,
    score: Score,
    note: &str,
    day: NaiveDate,
) -> Option<Step> {
    if adj.stage != Stage::Protested {
        return None;
    }
    let mut a = adj.clone();
    let ruling = Ruling {
        score,
        note: note.to_string(),
        on: day,
        protest_until: day,
    };
    a.ruling = Some(ruling.clone());
    a.stage = Stage::Final;
    let notices = [
        To::Player(Side::White),
        To::Player(Side::Black),
        To::Secretary,
    ]
    .into_iter()
    .map(|to| Notice {
        to,
        kind: NoticeKind::Decision {
            ruling: ruling.clone(),
            may_protest: false,
            is_final: true,
        },
    })
    .collect();
    Some(Step {
        adjudication: a,
        notices,
    })
}

/// Whether the adjudication still waits for a protest or for the organiser's decision on
/// one (10.5.6, 10.5.7) on `day`: the tournament's final report waits for it.
#[must_use]
pub fn is_open_to_protest(adj: &Adjudication, day: NaiveDate) -> bool {
    match adj.stage {
        Stage::Protested => true,
        Stage::Decided => adj.ruling.as_ref().is_some_and(|r| day <= r.protest_until),
        Stage::Final | Stage::AwaitingAnalyses | Stage::WithArbiter { .. } => false,
    }
}

/// A player protests the decision (10.5.6): in time and with the right, it goes to the
/// organiser with the papers (10.5.7); otherwise the player is told why not.
pub fn protest(
    adj: &Adjudication,
    state: &GameState,
    side: Side,
    text: &str,
    day: NaiveDate,
) -> Step {
    let mut a = adj.clone();
    let refuse = |why| Notice {
        to: To::Player(side),
        kind: NoticeKind::ProtestRefused { why },
    };
    let Some(ruling) = a.ruling.clone() else {
        return Step {
            adjudication: a,
            notices: vec![refuse(ProtestRefusal::NotDecided)],
        };
    };
    let why = if a.stage == Stage::Final {
        Some(ProtestRefusal::Final)
    } else if !is_protest_in_time(ruling.on, day) {
        Some(ProtestRefusal::Late)
    } else if !may_protest(&a, side) {
        Some(ProtestRefusal::NoAnalysisInTime)
    } else {
        None
    };
    let record = Protest {
        by: side,
        text: text.to_string(),
        on: day,
        is_accepted: why.is_none(),
    };
    a.protests.push(record.clone());
    let notices = match why {
        Some(why) => vec![refuse(why)],
        None => {
            a.stage = Stage::Protested;
            vec![
                Notice {
                    to: To::Player(side),
                    kind: NoticeKind::ProtestAccepted,
                },
                Notice {
                    to: To::Organiser,
                    kind: NoticeKind::ProtestForwarded {
                        protest: record,
                        package: Box::new(package(&a, state)),
                        ruling,
                    },
                },
            ]
        }
    };
    Step {
        adjudication: a,
        notices,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Player;

    fn day(m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, m, d).expect("a valid date")
    }

    fn game() -> GameState {
        let p = |id, name: &str| Player {
            id,
            name: name.into(),
            email: format!("{id}@example.org"),
        };
        GameState::new(
            "ЗШ-2026-1",
            5,
            Variant::Russian,
            p(1, "Иванов Иван"),
            p(2, "Петров Пётр"),
            day(1, 10),
            day(6, 30),
        )
    }

    fn frozen() -> Adjudication {
        freeze(&game(), day(7, 1)).expect("unfinished").adjudication
    }

    fn kinds(step: &Step) -> Vec<(To, &'static str)> {
        step.notices
            .iter()
            .map(|n| {
                let k = match &n.kind {
                    NoticeKind::Request { .. } => "request",
                    NoticeKind::AnalysisReceived { .. } => "received",
                    NoticeKind::Package(_) => "package",
                    NoticeKind::LateAnalysis { .. } => "late_analysis",
                    NoticeKind::Decision { .. } => "decision",
                    NoticeKind::ProtestForwarded { .. } => "protest_forwarded",
                    NoticeKind::ProtestAccepted => "protest_accepted",
                    NoticeKind::ProtestRefused { .. } => "protest_refused",
                };
                (n.to, k)
            })
            .collect()
    }

    #[test]
    fn freezing_asks_both_players_for_analyses_within_10_days_10_5_2() {
        let step = freeze(&game(), day(7, 1)).expect("unfinished");
        assert_eq!(step.adjudication.end, day(6, 30));
        assert_eq!(step.adjudication.due, day(7, 10));
        assert_eq!(
            kinds(&step),
            [
                (To::Player(Side::White), "request"),
                (To::Player(Side::Black), "request")
            ]
        );
    }

    #[test]
    fn a_finished_game_is_not_adjudicated() {
        let g = crate::game::arbiter::set_result(&game(), Score::Draw, "", day(5, 1)).state;
        assert!(freeze(&g, day(7, 1)).is_none());
    }

    #[test]
    fn the_package_goes_when_both_analyses_are_in_with_the_agreed_result_10_5_4() {
        let g = game();
        let a = frozen();
        let s1 = receive_analysis(&a, &g, Side::White, "Ничья", Some(Score::Draw), day(7, 3));
        assert_eq!(kinds(&s1), [(To::Player(Side::White), "received")]);
        let s2 = receive_analysis(
            &s1.adjudication,
            &g,
            Side::Black,
            "Крепость",
            Some(Score::Draw),
            day(7, 5),
        );
        assert_eq!(
            kinds(&s2),
            [
                (To::Player(Side::Black), "received"),
                (To::Arbiter, "package")
            ]
        );
        let NoticeKind::Package(p) = &s2.notices[1].kind else {
            panic!("a package")
        };
        assert_eq!(p.agreed, Some(Score::Draw));
        assert_eq!(p.fen, g.fen());
        assert_eq!(p.white, "Иванов Иван");
        assert_eq!(
            s2.adjudication.stage,
            Stage::WithArbiter { since: day(7, 5) }
        );
    }

    #[test]
    fn differing_evaluations_propose_nothing() {
        let g = game();
        let a = receive_analysis(
            &frozen(),
            &g,
            Side::White,
            "",
            Some(Score::WhiteWins),
            day(7, 2),
        );
        let a = receive_analysis(
            &a.adjudication,
            &g,
            Side::Black,
            "",
            Some(Score::Draw),
            day(7, 2),
        );
        assert_eq!(agreed(&a.adjudication), None);
    }

    #[test]
    fn at_the_deadline_the_arbiter_gets_a_one_sided_package_10_5_5() {
        let g = game();
        let a = receive_analysis(
            &frozen(),
            &g,
            Side::White,
            "Выигрыш",
            Some(Score::WhiteWins),
            day(7, 2),
        );
        assert!(sweep(&a.adjudication, &g, day(7, 10)).notices.is_empty());
        assert_eq!(next_due_day(&a.adjudication), Some(day(7, 11)));
        let s = sweep(&a.adjudication, &g, day(7, 11));
        assert_eq!(kinds(&s), [(To::Arbiter, "package")]);
        assert_eq!(next_due_day(&s.adjudication), None);
        assert!(sweep(&s.adjudication, &g, day(7, 12)).notices.is_empty());
    }

    #[test]
    fn a_late_analysis_goes_on_but_loses_the_protest_10_5_6() {
        let g = game();
        let a = receive_analysis(&frozen(), &g, Side::White, "", Some(Score::Draw), day(7, 2));
        let a = sweep(&a.adjudication, &g, day(7, 11)).adjudication;
        let late = receive_analysis(
            &a,
            &g,
            Side::Black,
            "Поздно",
            Some(Score::BlackWins),
            day(7, 12),
        );
        assert_eq!(
            kinds(&late),
            [
                (To::Player(Side::Black), "received"),
                (To::Arbiter, "late_analysis")
            ]
        );
        assert!(matches!(
            late.notices[0].kind,
            NoticeKind::AnalysisReceived { is_late: true }
        ));
        let d = decide(&late.adjudication, Score::WhiteWins, "", day(7, 20));
        let may: Vec<_> = d
            .notices
            .iter()
            .map(|n| match n.kind {
                NoticeKind::Decision { may_protest, .. } => may_protest,
                _ => panic!("a decision"),
            })
            .collect();
        assert_eq!(may, [true, false, false]);
        let p = protest(&d.adjudication, &g, Side::Black, "Не согласен", day(7, 21));
        assert_eq!(kinds(&p), [(To::Player(Side::Black), "protest_refused")]);
        assert!(matches!(
            p.notices[0].kind,
            NoticeKind::ProtestRefused {
                why: ProtestRefusal::NoAnalysisInTime
            }
        ));
    }

    #[test]
    fn a_protest_within_10_days_goes_to_the_organiser_whose_decision_is_final_10_5_6_10_5_7() {
        let g = game();
        let a = receive_analysis(
            &frozen(),
            &g,
            Side::White,
            "",
            Some(Score::WhiteWins),
            day(7, 2),
        );
        let d = decide(&a.adjudication, Score::Draw, "крепость", day(7, 20));
        assert_eq!(
            d.adjudication.ruling.as_ref().map(|r| r.protest_until),
            Some(day(7, 30))
        );
        let ok = protest(&d.adjudication, &g, Side::White, "Выигрыш!", day(7, 30));
        assert_eq!(
            kinds(&ok),
            [
                (To::Player(Side::White), "protest_accepted"),
                (To::Organiser, "protest_forwarded")
            ]
        );
        assert_eq!(ok.adjudication.stage, Stage::Protested);
        // Open to protest through the window, and while the organiser has the protest.
        assert!(is_open_to_protest(&d.adjudication, day(7, 30)));
        assert!(!is_open_to_protest(&d.adjudication, day(7, 31)));
        assert!(is_open_to_protest(&ok.adjudication, day(9, 1)));
        assert!(decide_protest(&d.adjudication, Score::WhiteWins, "", day(8, 5)).is_none());
        let fin = decide_protest(&ok.adjudication, Score::WhiteWins, "", day(8, 5)).unwrap();
        assert_eq!(fin.adjudication.stage, Stage::Final);
        assert!(!is_open_to_protest(&fin.adjudication, day(8, 5)));
        assert_eq!(
            kinds(&fin),
            [
                (To::Player(Side::White), "decision"),
                (To::Player(Side::Black), "decision"),
                (To::Secretary, "decision")
            ]
        );
        assert!(fin.notices.iter().all(|n| matches!(
            n.kind,
            NoticeKind::Decision {
                is_final: true,
                may_protest: false,
                ..
            }
        )));
        // The organisation's decision is final (10.5.7): a new protest, even in time, is not.
        let again = protest(&fin.adjudication, &g, Side::Black, "Нет!", day(8, 6));
        assert!(matches!(
            again.notices[0].kind,
            NoticeKind::ProtestRefused {
                why: ProtestRefusal::Final
            }
        ));
        let late = protest(&d.adjudication, &g, Side::White, "Выигрыш!", day(7, 31));
        assert!(matches!(
            late.notices[0].kind,
            NoticeKind::ProtestRefused {
                why: ProtestRefusal::Late
            }
        ));
        assert!(!late.adjudication.protests[0].is_accepted);
    }

    #[test]
    fn a_protest_before_any_decision_is_premature() {
        let p = protest(&frozen(), &game(), Side::White, "?", day(7, 2));
        assert!(matches!(
            p.notices[0].kind,
            NoticeKind::ProtestRefused {
                why: ProtestRefusal::NotDecided
            }
        ));
    }

    #[test]
    fn the_protest_window_is_ten_days_inclusive_10_1_12() {
        assert!(is_protest_in_time(day(3, 1), day(3, 11)));
        assert!(!is_protest_in_time(day(3, 1), day(3, 12)));
    }

    #[test]
    fn the_record_serialises_and_reads_back() {
        let a = frozen();
        let json = serde_json::to_string(&a).expect("serialises");
        let back: Adjudication = serde_json::from_str(&json).expect("reads back");
        assert_eq!(back, a);
    }
}
