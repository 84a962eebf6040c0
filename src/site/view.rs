//! What the organiser's commands (`zaochka table`, `game show`) and the public pages
//! (`zaochka export html`, `[site] dir`) show, computed in one place so that both say the
//! same: the players in start-number order, the table's results and standings, a game's
//! record replayed, its clocks, its status in words.
//!
//! Reads a store snapshot handed in ([`Tx`]); writes nothing.

use std::collections::HashMap;
use std::fmt::Write as _;

use chrono::NaiveDate;

use crate::clock::Ledger;
use crate::config::Language;
use crate::game::{Ending, GameState, Side, Status};
use crate::rules::{GameRecord, Position};
use crate::store::{self, Tournament, Tx};
use crate::tournament::{self, GameResult, Standings};

/// A stored game or tournament that cannot be shown.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    /// The database cannot be read.
    #[error(transparent)]
    Store(#[from] store::StoreError),
    /// A stored document that does not read back (a damaged state or settings).
    #[error("{0}")]
    Broken(String),
}

/// The settings of a tournament as stored.
///
/// # Errors
/// [`ViewError::Broken`] when they do not read.
pub fn settings_of(
    t: &Tournament,
) -> Result<crate::office::settings::TournamentSettings, ViewError> {
    crate::office::settings::TournamentSettings::of(t).map_err(|e| {
        ViewError::Broken(format!(
            "the settings of tournament {} cannot be read: {e}",
            t.cipher
        ))
    })
}

/// The state document of a game.
///
/// # Errors
/// [`ViewError::Broken`] when it does not read.
pub fn state_of(t: &Tournament, g: &store::Game) -> Result<GameState, ViewError> {
    g.state_as::<GameState>().map_err(|e| {
        ViewError::Broken(format!(
            "the state of game {} of {} cannot be read: {e}",
            g.number, t.cipher
        ))
    })
}

/// The game's moves replayed by the rules engine, from its start position.
///
/// # Errors
/// [`ViewError::Broken`] when a stored move does not replay (a damaged state document).
pub fn record_of(state: &GameState) -> Result<GameRecord, ViewError> {
    let variant = state.variant;
    let start = match &state.initial {
        Some(fen) => Position::from_fen(variant, fen).map_err(|e| {
            ViewError::Broken(format!(
                "game {} of {}: bad initial position '{fen}': {e}",
                state.number, state.cipher
            ))
        })?,
        None => Position::start(variant),
    };
    let numeric = variant.board_size() == 10;
    let mut record = GameRecord::new(start);
    for m in &state.moves {
        let found = record.position().legal_moves().into_iter().find(|mv| {
            let text = if numeric {
                mv.to_numeric()
            } else {
                mv.to_string()
            };
            text == m.text
        });
        let Some(mv) = found else {
            return Err(ViewError::Broken(format!(
                "game {} of {}: stored move {} '{}' does not replay",
                state.number,
                state.cipher,
                m.ply + 1,
                m.text
            )));
        };
        record.push(mv).map_err(|e| {
            ViewError::Broken(format!(
                "game {} of {}: move '{}': {e}",
                state.number, state.cipher, m.text
            ))
        })?;
    }
    Ok(record)
}

/// The record as the rules write it: semi-short on 8x8 (10.5.1), numeric full notation on
/// 10x10 (`1. 32-28 19-23 2. …`).
pub fn record_text(state: &GameState, record: &GameRecord) -> String {
    use crate::rules::notation::shown;
    if let Ok(text) = record.to_semi_short() {
        return text;
    }
    let mut out = String::new();
    for (i, m) in state.record().iter().enumerate() {
        if !out.is_empty() {
            out.push(' ');
        }
        match m.side {
            Side::White => {
                let _ = write!(out, "{}. {}", m.number, shown(&m.text));
            }
            Side::Black if i == 0 => {
                let _ = write!(out, "{}... {}", m.number, shown(&m.text));
            }
            Side::Black => out.push_str(&shown(&m.text)),
        }
    }
    out
}

/// The status word of `game show --json` (issue 5): `playing`, `stopped`, `suspended`,
/// `break`, `finished`, `adjudication`. A game in play whose clocks stand still today
/// because a player is on a break (10.4.2) is `break`.
pub fn status_word(state: &GameState, today: NaiveDate) -> &'static str {
    match state.status {
        Status::Playing if state.is_on_break(today) => "break",
        Status::Playing => "playing",
        Status::Stopped { .. } => "stopped",
        Status::Suspended { .. } => "suspended",
        Status::Adjudication => "adjudication",
        Status::Finished => "finished",
    }
}

/// A date as the letters write it: `20.12.2026` in Russian, ISO `2026-12-20` in English.
pub fn date_text(d: NaiveDate, lang: Language) -> String {
    match lang {
        Language::Ru => d.format("%d.%m.%Y").to_string(),
        Language::En => d.to_string(),
    }
}

/// The status of a game in words, as `game show` writes it.
pub fn status_text(state: &GameState, today: NaiveDate, lang: Language) -> String {
    let side = |s: Side| match (s, lang) {
        (Side::White, Language::Ru) => "белых",
        (Side::Black, Language::Ru) => "чёрных",
        (Side::White, Language::En) => "White",
        (Side::Black, Language::En) => "Black",
    };
    match (&state.status, lang) {
        (Status::Playing, Language::Ru) if state.is_on_break(today) => {
            "перерыв (п. 10.4), часы стоят".to_owned()
        }
        (Status::Playing, Language::En) if state.is_on_break(today) => {
            "break (10.4), the clocks stand".to_owned()
        }
        (Status::Playing, Language::Ru) => "идёт игра".to_owned(),
        (Status::Playing, Language::En) => "playing".to_owned(),
        (
            Status::Stopped {
                side: s,
                clause,
                since,
            },
            Language::Ru,
        ) => format!(
            "игра остановлена с {} до исправленного письма {} (п. {clause})",
            date_text(*since, lang),
            side(*s)
        ),
        (
            Status::Stopped {
                side: s,
                clause,
                since,
            },
            Language::En,
        ) => format!(
            "stopped since {since} until {} sends a corrected letter ({clause})",
            side(*s)
        ),
        (Status::Suspended { side: s, since }, Language::Ru) => format!(
            "игра приостановлена с {}: просрочка времени {} у главного судьи (п. 10.3.6)",
            date_text(*since, lang),
            side(*s)
        ),
        (Status::Suspended { side: s, since }, Language::En) => format!(
            "suspended since {since}: {}'s overstep is with the chief arbiter (10.3.6)",
            side(*s)
        ),
        (Status::Adjudication, Language::Ru) => {
            "контрольный срок истёк, партия на присуждении (п. 10.5)".to_owned()
        }
        (Status::Adjudication, Language::En) => {
            "past the end-of-play date, for adjudication (10.5)".to_owned()
        }
        (Status::Finished, Language::Ru) => "партия окончена".to_owned(),
        (Status::Finished, Language::En) => "finished".to_owned(),
    }
}

/// How a game ended, in words.
pub fn ending_text(how: &Ending, lang: Language) -> String {
    let side = |s: &Side| match (s, lang) {
        (Side::White, Language::Ru) => "белые",
        (Side::Black, Language::Ru) => "чёрные",
        (Side::White, Language::En) => "White",
        (Side::Black, Language::En) => "Black",
    };
    match (how, lang) {
        (Ending::Rule, Language::Ru) => "по правилам игры".to_owned(),
        (Ending::Rule, Language::En) => "by the rules of play".to_owned(),
        (Ending::Resignation { side: s }, Language::Ru) => format!("{} сдались", side(s)),
        (Ending::Resignation { side: s }, Language::En) => format!("{} resigned", side(s)),
        (Ending::Agreement, Language::Ru) => "ничья по соглашению".to_owned(),
        (Ending::Agreement, Language::En) => "draw by agreement".to_owned(),
        (Ending::DrawRule { rule_ru, .. }, Language::Ru) => rule_ru.clone(),
        (Ending::DrawRule { rule, .. }, Language::En) => rule.clone(),
        (Ending::Arbiter { note }, lang)
            if note.starts_with(crate::tournament::adjudication::PROTEST_DECISION) =>
        {
            crate::tournament::adjudication::protest_decision_words(note, lang == Language::En)
                .unwrap_or_default()
        }
        (Ending::Arbiter { note }, Language::Ru) => format!("решение главного судьи: {note}"),
        (Ending::Arbiter { note }, Language::En) => format!("the chief arbiter's decision: {note}"),
        (Ending::Overstep { side: s }, Language::Ru) => {
            format!("{}: просрочка времени (п. 10.3.7)", side(s))
        }
        (Ending::Overstep { side: s }, Language::En) => {
            format!("{}: overstepped the time limit (10.3.7)", side(s))
        }
    }
}

/// One side's clock as `game show` prints it.
pub struct ClockView {
    /// Days used, penalties included, on the day the clocks are read.
    pub days: i64,
    /// Penalty days among them.
    pub penalty_days: i64,
    /// Moves counted towards the limit.
    pub moves: u32,
    /// The limit for those moves.
    pub limit: i64,
}

/// One side's clock on `today` (stopped where the game stopped it).
pub fn clock_view(ledger: &Ledger, state: &GameState, side: Side, today: NaiveDate) -> ClockView {
    let today = state.clock_day(today);
    ClockView {
        days: ledger.total(side, today),
        penalty_days: ledger.penalty_days(side),
        moves: state.counted_moves(side),
        limit: ledger.limit(side),
    }
}

/// The game, in words.
pub fn variant_text(state: &GameState, lang: Language) -> &'static str {
    use crate::game::Variant;
    match (state.variant, lang) {
        (Variant::Russian, Language::Ru) => "русские шашки",
        (Variant::Hundred, Language::Ru) => "стоклеточные шашки",
        (Variant::Giveaway, Language::Ru) => "обратные шашки (поддавки)",
        (Variant::Russian, Language::En) => "Russian checkers",
        (Variant::Hundred, Language::En) => "hundred-square checkers",
        (Variant::Giveaway, Language::En) => "give-away",
    }
}

/// The players in start-number order. `tournament start` pairs by the Berger tables, so the
/// games tell each player's start number: game `g` of the tables is played by start numbers
/// (white, black). When every game agrees with one assignment that is it; otherwise (no
/// games yet, or games paired some other way) the order of registration.
pub fn by_start_number(players: &[store::Player], games: &[store::Game]) -> Vec<store::Player> {
    let registered = players.to_vec();
    let Ok(rr) = tournament::berger(players.len() as u32) else {
        return registered;
    };
    if games.len() != rr.pairings.len() {
        return registered;
    }
    let mut slot: Vec<Option<store::PlayerId>> = vec![None; players.len()];
    for g in games {
        let Some(p) = rr.pairings.iter().find(|p| p.game == g.number) else {
            return registered;
        };
        for (number, id) in [(p.white, g.white), (p.black, g.black)] {
            let Some(cell) = slot.get_mut(number as usize - 1) else {
                return registered;
            };
            match cell {
                Some(known) if *known != id => return registered,
                _ => *cell = Some(id),
            }
        }
    }
    let mut out = Vec::with_capacity(players.len());
    for id in slot {
        match id.and_then(|id| players.iter().find(|p| p.id == id)) {
            Some(p) if !out.iter().any(|o: &store::Player| o.id == p.id) => out.push(p.clone()),
            _ => return registered,
        }
    }
    out
}

/// A tournament's table as `zaochka table` computes it: the players in start-number order,
/// each game's result for the table (the weekly digest's rule), and the standings with the
/// tournament's points.
#[derive(Debug, Clone)]
pub struct TableView {
    /// The players, start number `i + 1` at `i`.
    pub players: Vec<store::Player>,
    /// The games (by number) with their states and their players' start numbers.
    pub games: Vec<(store::Game, GameState, u32, u32)>,
    /// One result per game whose players are both in the table.
    pub results: Vec<GameResult>,
    /// The standings.
    pub standings: Standings,
}

impl TableView {
    /// How many games are finished (have a result that counts).
    pub fn finished(&self) -> usize {
        self.results.iter().filter(|r| r.score.is_some()).count()
    }
}

/// The table of tournament `t`, read in `tx`.
///
/// # Errors
/// [`ViewError`] when the database or a stored game cannot be read.
pub fn table_of(tx: &Tx<'_>, t: &Tournament) -> Result<TableView, ViewError> {
    let games = tx.games(t.id)?;
    let players = by_start_number(&tx.players(t.id)?, &games);
    let number: HashMap<store::PlayerId, u32> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id, i as u32 + 1))
        .collect();
    let mut results = Vec::new();
    let mut shown = Vec::new();
    for g in games {
        let (Some(&white), Some(&black)) = (number.get(&g.white), number.get(&g.black)) else {
            continue;
        };
        let state = state_of(t, &g)?;
        // The same rule as the weekly digest's, so a game counts alike everywhere.
        results.push(tournament::digest::table_result(
            &tournament::digest::Entry {
                white,
                black,
                state: &state,
            },
        ));
        shown.push((g, state, white, black));
    }
    let settings = settings_of(t)?;
    let standings = tournament::standings(players.len() as u32, &results, &settings.standings);
    Ok(TableView {
        players,
        games: shown,
        results,
        standings,
    })
}
