//! Results from the games themselves: the table's game results (adjudicated and defaulted
//! marked), who each unfinished game waits for, who is on a break (the weekly digest,
//! 10.1.8), and every game's PDN (the final report, 10.1.7).
//!
//! Pure: the games come in as [`GameState`]s with the players' start numbers; the day is an
//! argument.
//!
//! How a result is marked (the rules name the cases, not the data): a confirmed overstep
//! and any other arbiter's result is "by default", except one whose note cites 10.5.5 (an
//! adjudication, as the office writes it), which is "adjudicated".

use chrono::NaiveDate;

use super::standings::{Decision, GameResult, Score as TableScore};
use crate::clock::{Break, Side};
use crate::game::{Ending, GameState, Score, Status};
use crate::rules::{GameRecord, PdnGame, Position};

/// One game of the tournament with its players' start numbers.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'a> {
    /// White's start number.
    pub white: u32,
    /// Black's start number.
    pub black: u32,
    /// The game.
    pub state: &'a GameState,
}

/// The table's view of a game's result.
pub fn table_result(e: &Entry<'_>) -> GameResult {
    let (score, decision) = match &e.state.result {
        // An annulled result (10.5.3) counts as a game not played.
        _ if e.state.is_annulled => (None, Decision::Played),
        None => (None, Decision::Played),
        Some(r) => {
            let score = match r.score {
                Score::WhiteWins => TableScore::WhiteWins,
                Score::BlackWins => TableScore::BlackWins,
                Score::Draw => TableScore::Draw,
                Score::BothLose => TableScore::BothLose,
            };
            let decision = match &r.how {
                Ending::Overstep { .. } => Decision::Defaulted,
                Ending::Arbiter { note } if note.contains("10.5.5") => Decision::Adjudicated,
                Ending::Arbiter { .. } => Decision::Defaulted,
                _ => Decision::Played,
            };
            (Some(score), decision)
        }
    };
    GameResult {
        white: e.white,
        black: e.black,
        score,
        decision,
    }
}

/// Where an unfinished game stands, for the digest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waits {
    /// A player's move (or corrected letter, 10.2.9–10.2.10).
    Player(Side),
    /// The arbiter's decision on an overstep (10.3.6).
    ArbiterOnOverstep,
    /// Adjudication (10.5).
    Adjudication,
}

/// Whom an unfinished game waits for; `None` for a finished one.
pub fn waits_for(state: &GameState) -> Option<Waits> {
    if state.is_finished() {
        return None;
    }
    Some(match &state.status {
        Status::Playing => Waits::Player(state.side_to_move()),
        Status::Stopped { side, .. } => Waits::Player(*side),
        Status::Suspended { .. } => Waits::ArbiterOnOverstep,
        Status::Adjudication => Waits::Adjudication,
        Status::Finished => return None,
    })
}

/// The breaks that cover `day` in a game, per side.
pub fn breaks_on(state: &GameState, day: NaiveDate) -> Vec<(Side, Break)> {
    [Side::White, Side::Black]
        .into_iter()
        .flat_map(|s| {
            state.breaks[s]
                .iter()
                .filter(move |b| b.effective().is_some_and(|r| r.from <= day && day <= r.to))
                .map(move |b| (s, *b))
        })
        .collect()
}

/// Where a game goes in a PDN file of many: by number, but games without a move (a forfeit,
/// 10.5.3) after all the others. pydraughts 0.6.7 stops reading a file at a game with no
/// moves, so a forfeit among the others would hide every game after it from that reader.
pub fn pdn_order(state: &GameState) -> (bool, u32) {
    (state.moves.is_empty(), state.number)
}

/// The game as PDN 3.0: `Event` as given, the players, the result (`*` while unfinished),
/// and `GameNumber` (the game's number in the tournament, as `zaochka export pdn` writes
/// it). A stored move that does not replay ends the record there.
pub fn pdn(state: &GameState, event: &str) -> String {
    let variant = state.variant;
    let start = state
        .initial
        .as_deref()
        .and_then(|f| Position::from_fen(variant, f).ok())
        .unwrap_or_else(|| Position::start(variant));
    let mut record = GameRecord::new(start);
    for m in &state.moves {
        let pos = *record.position();
        let found = pos.legal_moves().into_iter().find(|mv| {
            let text = if state.variant == crate::game::Variant::Hundred {
                mv.to_numeric()
            } else {
                mv.to_string()
            };
            text == m.text
        });
        let Some(mv) = found else { break };
        if record.push(mv).is_err() {
            break;
        }
    }
    let result = match state.result.as_ref().map(|r| r.score) {
        Some(Score::WhiteWins) => "1-0",
        Some(Score::BlackWins) => "0-1",
        Some(Score::Draw) => "1/2-1/2",
        // PDN has no "both lose": each is written as a loss in the table (10.5.8).
        Some(Score::BothLose) => "0-0",
        None => "*",
    };
    let date = state
        .moves
        .first()
        .map_or(state.start, |m| m.answered)
        .format("%Y.%m.%d")
        .to_string();
    PdnGame {
        tags: vec![
            ("Event".into(), event.to_string()),
            ("Site".into(), "zaochka".into()),
            ("Date".into(), date),
            ("White".into(), state.players.white.name.clone()),
            ("Black".into(), state.players.black.name.clone()),
            ("GameNumber".into(), state.number.to_string()),
        ],
        record,
        result: result.to_string(),
    }
    .to_pdn()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Player, Variant, arbiter};

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
            3,
            Variant::Russian,
            p(1, "Иванов Иван"),
            p(2, "Петров Пётр"),
            day(1, 10),
            day(6, 30),
        )
    }

    #[test]
    fn adjudicated_and_defaulted_results_are_marked() {
        let g = game();
        let adj = arbiter::set_result(&g, Score::Draw, "присуждение, п. 10.5.5", day(7, 20)).state;
        let e = Entry {
            white: 1,
            black: 2,
            state: &adj,
        };
        assert_eq!(table_result(&e).decision, Decision::Adjudicated);
        assert_eq!(table_result(&e).score, Some(TableScore::Draw));
        let forfeit = arbiter::set_result(&g, Score::BlackWins, "п. 10.1.11", day(3, 1)).state;
        let e = Entry {
            white: 1,
            black: 2,
            state: &forfeit,
        };
        assert_eq!(table_result(&e).decision, Decision::Defaulted);
        let open = Entry {
            white: 1,
            black: 2,
            state: &g,
        };
        assert_eq!(table_result(&open).score, None);
    }

    #[test]
    fn a_new_game_waits_for_white_and_a_finished_one_for_nobody() {
        let g = game();
        assert_eq!(waits_for(&g), Some(Waits::Player(Side::White)));
        let over = arbiter::set_result(&g, Score::Draw, "", day(2, 1)).state;
        assert_eq!(waits_for(&over), None);
    }

    #[test]
    fn a_break_shows_only_on_its_days() {
        let g = arbiter::record_break(
            &game(),
            Side::Black,
            Break::special(day(3, 1), day(3, 20), day(2, 20)),
        )
        .state;
        assert_eq!(breaks_on(&g, day(3, 5)).len(), 1);
        assert_eq!(breaks_on(&g, day(3, 5))[0].0, Side::Black);
        assert!(breaks_on(&g, day(3, 21)).is_empty());
    }

    /// Ply `ply` (White's when even), received 10.01 and answered 12.01.
    fn played(ply: usize, text: &str) -> crate::game::PlayedMove {
        crate::game::PlayedMove {
            ply,
            by: if ply.is_multiple_of(2) {
                Side::White
            } else {
                Side::Black
            },
            text: text.into(),
            letter: String::new(),
            received: day(1, 10),
            answered: day(1, 12),
            is_from_variant: false,
            is_forced: false,
            substituted_for: None,
        }
    }

    #[test]
    fn the_pdn_of_a_game_reads_back_with_its_moves_and_result() {
        let mut g = game();
        for (i, text) in ["c3-d4", "f6-g5"].into_iter().enumerate() {
            g.moves.push(played(i, text));
        }
        let g = arbiter::set_result(&g, Score::Draw, "", day(2, 1)).state;
        let text = pdn(&g, "ЗШ-2026-1");
        assert!(text.contains("[Event \"ЗШ-2026-1\"]"), "{text}");
        assert!(text.contains("[GameType \"25\"]"), "{text}");
        let back = PdnGame::from_pdn(&text).expect("reads back");
        assert_eq!(back.record.moves().len(), 2);
        assert_eq!(back.result, "1/2-1/2");
        assert_eq!(back.tag("White"), Some("Иванов Иван"));
    }

    #[test]
    fn games_without_a_move_go_last_in_a_pdn_file() {
        let numbered = |n: u32, with_move: bool| {
            let mut g = game();
            g.number = n;
            if with_move {
                g.moves.push(played(0, "c3-d4"));
            }
            g
        };
        let mut games = [
            numbered(1, false),
            numbered(3, true),
            numbered(2, true),
            numbered(4, false),
        ];
        games.sort_by_key(pdn_order);
        let order: Vec<u32> = games.iter().map(|g| g.number).collect();
        assert_eq!(order, [2, 3, 1, 4]);
    }
}
