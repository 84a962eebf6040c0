//! The contexts of the public pages and their rendering: `index.html` (the crosstable and
//! standings as `zaochka table` computes them, the games with their status and whose move,
//! the breaks, the dates) and one `game-N.html` a game (the record, both clocks as `game
//! show` computes them, the SVG board and the positions of every ply for the step-through).

use chrono::NaiveDate;
use serde::Serialize;

use super::view::{self, TableView};
use crate::config::Language;
use crate::game::{GameState, Side};
use crate::render::{Board, Lang, RenderError, Templates, svg};
use crate::rules::notation::shown;
use crate::store::{Tournament, TournamentStatus};
use crate::tournament::CrosstableLabels;

/// One page to write: its file name in the folder and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// `index.html`, `game-7.html`.
    pub file: String,
    /// The HTML.
    pub html: String,
}

/// The file of game `number`'s page.
pub fn game_file(number: u32) -> String {
    format!("game-{number}.html")
}

#[derive(Serialize)]
struct TournamentCtx {
    cipher: String,
    name: String,
    variant: &'static str,
    start: String,
    end: String,
    status: &'static str,
}

#[derive(Serialize)]
struct CellCtx {
    text: String,
    href: String,
    is_self: bool,
}

#[derive(Serialize)]
struct CrossRow {
    number: u32,
    name: String,
    cells: Vec<CellCtx>,
    points: u32,
    wins: u32,
    coefficient: String,
    place: String,
}

#[derive(Serialize)]
struct StandingRow {
    place: String,
    number: u32,
    name: String,
    points: u32,
    games: u32,
    wins: u32,
    coefficient: String,
}

#[derive(Serialize)]
struct GameRow {
    number: u32,
    href: String,
    white: String,
    black: String,
    result: String,
    status: String,
    to_move: &'static str,
    is_finished: bool,
}

#[derive(Serialize)]
struct BreakRow {
    player: String,
    from: String,
    to: String,
    days: i64,
    is_special: bool,
    is_current: bool,
}

#[derive(Serialize)]
struct IndexCtx {
    lang: &'static str,
    federation: String,
    as_of: String,
    tournament: TournamentCtx,
    finished: usize,
    total: usize,
    numbers: Vec<u32>,
    crosstable: Vec<CrossRow>,
    standings: Vec<StandingRow>,
    legend: Vec<&'static str>,
    games: Vec<GameRow>,
    breaks: Vec<BreakRow>,
}

#[derive(Serialize)]
struct GameCtx {
    number: u32,
    white: String,
    black: String,
    status: String,
    result: String,
    ended: String,
    to_move: &'static str,
    record: String,
}

#[derive(Serialize)]
struct ClockCtx {
    side: &'static str,
    days: i64,
    limit: i64,
    penalty_days: i64,
    moves: u32,
}

#[derive(Serialize)]
struct MoveCtx {
    ply: usize,
    label: String,
}

#[derive(Serialize)]
struct Ply {
    pieces: String,
    caption: String,
}

#[derive(Serialize)]
struct GamePageCtx {
    lang: &'static str,
    federation: String,
    as_of: String,
    index_href: &'static str,
    tournament: TournamentCtx,
    game: GameCtx,
    clocks: Vec<ClockCtx>,
    board: String,
    caption: String,
    moves: Vec<MoveCtx>,
    plies_json: String,
}

fn lang_of(language: Language) -> Lang {
    match language {
        Language::Ru => Lang::Ru,
        Language::En => Lang::En,
    }
}

fn tournament_status(status: TournamentStatus, lang: Language) -> &'static str {
    match (status, lang) {
        (TournamentStatus::Registration, Language::Ru) => "идёт регистрация участников",
        (TournamentStatus::Playing, Language::Ru) => "идёт игра",
        (TournamentStatus::Adjudication, Language::Ru) => {
            "контрольный срок истёк, неоконченные партии на присуждении (п. 10.5)"
        }
        (TournamentStatus::Finished, Language::Ru) => "турнир окончен",
        (TournamentStatus::Registration, Language::En) => "registration is open",
        (TournamentStatus::Playing, Language::En) => "under way",
        (TournamentStatus::Adjudication, Language::En) => {
            "past the end of play, unfinished games are being adjudicated (10.5)"
        }
        (TournamentStatus::Finished, Language::En) => "finished",
    }
}

fn variant_of(t: &Tournament, lang: Language) -> &'static str {
    match (t.variant.as_str(), lang) {
        ("hundred", Language::Ru) => "стоклеточные шашки",
        ("giveaway", Language::Ru) => "обратные шашки (поддавки)",
        (_, Language::Ru) => "русские шашки",
        ("hundred", Language::En) => "hundred-square checkers",
        ("giveaway", Language::En) => "give-away",
        (_, Language::En) => "Russian checkers",
    }
}

fn tournament_ctx(t: &Tournament, lang: Language) -> TournamentCtx {
    TournamentCtx {
        cipher: t.cipher.clone(),
        name: if t.name.trim().is_empty() {
            t.cipher.clone()
        } else {
            t.name.clone()
        },
        variant: variant_of(t, lang),
        start: view::date_text(t.start, lang),
        end: view::date_text(t.end, lang),
        status: tournament_status(t.status, lang),
    }
}

/// Whose move a game waits for, as the pages name it: `white`, `black`, or empty (finished,
/// with the arbiter, or adjudicated).
fn to_move(state: &GameState) -> &'static str {
    use crate::tournament::digest::{Waits, waits_for};
    match waits_for(state) {
        Some(Waits::Player(Side::White)) => "white",
        Some(Waits::Player(Side::Black)) => "black",
        _ => "",
    }
}

fn result_of(state: &GameState, lang: Language) -> (String, String) {
    match &state.result {
        Some(r) => (
            r.score.to_string(),
            format!(
                "{}, {}",
                view::ending_text(&r.how, lang),
                view::date_text(r.on, lang)
            ),
        ),
        None => (String::new(), String::new()),
    }
}

/// The tournament's `index.html`.
///
/// # Errors
/// [`RenderError`] from the template.
pub fn index(
    templates: &Templates,
    federation: &str,
    t: &Tournament,
    table: &TableView,
    today: NaiveDate,
    lang: Language,
) -> Result<Page, RenderError> {
    let labels = match lang {
        Language::Ru => CrosstableLabels::ru(),
        Language::En => CrosstableLabels::en(),
    };
    let n = table.players.len();
    let name = |number: u32| {
        table
            .players
            .get(number as usize - 1)
            .map(|p| p.name.clone())
            .unwrap_or_default()
    };
    // The game between two start numbers, for the crosstable's links (one game a pair in
    // a single round robin; with more than one the cell links to none).
    let game_between = |a: u32, b: u32| {
        let mut found = table
            .games
            .iter()
            .filter(|(_, _, w, bl)| (*w == a && *bl == b) || (*w == b && *bl == a));
        match (found.next(), found.next()) {
            (Some((g, _, _, _)), None) => Some(g.number),
            _ => None,
        }
    };
    let mut by_number: Vec<_> = table.standings.rows.iter().collect();
    by_number.sort_by_key(|r| r.number);
    let crosstable = by_number
        .iter()
        .map(|r| CrossRow {
            number: r.number,
            name: name(r.number),
            cells: (1..=n as u32)
                .map(|j| {
                    if j == r.number {
                        return CellCtx {
                            text: String::new(),
                            href: String::new(),
                            is_self: true,
                        };
                    }
                    let cells = r.results.get(j as usize - 1).map_or(&[][..], |c| c);
                    CellCtx {
                        text: crate::tournament::cell_text(cells, &labels),
                        href: game_between(r.number, j).map(game_file).unwrap_or_default(),
                        is_self: false,
                    }
                })
                .collect(),
            points: r.points,
            wins: r.wins,
            coefficient: table.standings.coefficient(r),
            place: r.place.to_string(),
        })
        .collect();
    let standings = table
        .standings
        .rows
        .iter()
        .map(|r| StandingRow {
            place: r.place.to_string(),
            number: r.number,
            name: name(r.number),
            points: r.points,
            games: r.games,
            wins: r.wins,
            coefficient: table.standings.coefficient(r),
        })
        .collect();
    let mut games: Vec<GameRow> = table
        .games
        .iter()
        .map(|(g, st, _, _)| {
            let (result, _) = result_of(st, lang);
            GameRow {
                number: g.number,
                href: game_file(g.number),
                white: st.players.white.name.clone(),
                black: st.players.black.name.clone(),
                result,
                status: view::status_text(st, today, lang),
                to_move: to_move(st),
                is_finished: st.is_finished(),
            }
        })
        .collect();
    games.sort_by_key(|g| g.number);
    // A player's break is the same in all his games (10.4.3): each is listed once.
    let mut breaks: Vec<(NaiveDate, BreakRow)> = Vec::new();
    for (_, st, _, _) in &table.games {
        for side in [Side::White, Side::Black] {
            for b in &st.breaks[side] {
                let Some(days) = b.effective() else { continue };
                let player = st.players[side].name.clone();
                let (from, to) = (
                    view::date_text(days.from, lang),
                    view::date_text(days.to, lang),
                );
                if breaks
                    .iter()
                    .any(|(_, r)| r.player == player && r.from == from && r.to == to)
                {
                    continue;
                }
                breaks.push((
                    days.from,
                    BreakRow {
                        player,
                        from,
                        to,
                        days: (days.to - days.from).num_days() + 1,
                        is_special: b.kind == crate::clock::BreakKind::Special,
                        is_current: days.from <= today && today <= days.to,
                    },
                ));
            }
        }
    }
    breaks.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.player.cmp(&b.1.player)));
    let ctx = IndexCtx {
        lang: lang_of(lang).code(),
        federation: federation.to_owned(),
        as_of: view::date_text(today, lang),
        tournament: tournament_ctx(t, lang),
        finished: table.finished(),
        total: table.results.len(),
        numbers: (1..=n as u32).collect(),
        crosstable,
        standings,
        legend: labels.legend.to_vec(),
        games,
        breaks: breaks.into_iter().map(|(_, r)| r).collect(),
    };
    Ok(Page {
        file: "index.html".to_owned(),
        html: templates.page(lang_of(lang), "index", &ctx)?,
    })
}

/// JSON for a `<script type="application/json">`: no `<` (so no `</script>`), `>` or `&`
/// in it, as the escapes JSON allows.
fn script_json(value: &impl Serialize) -> String {
    serde_json::to_string(value)
        .unwrap_or_else(|_| "[]".to_owned())
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// The page of one game.
///
/// # Errors
/// [`RenderError`] from the template; a game whose stored moves do not replay is shown up
/// to the move that does not (the command line reports it as broken before this).
pub fn game(
    templates: &Templates,
    federation: &str,
    t: &Tournament,
    clock: &crate::clock::ClockSettings,
    state: &GameState,
    today: NaiveDate,
    lang: Language,
) -> Result<Page, super::SiteError> {
    let record = view::record_of(state)?;
    let ledger = state.ledger(clock);
    let clocks = [Side::White, Side::Black]
        .into_iter()
        .map(|side| {
            let c = view::clock_view(&ledger, state, side, today);
            ClockCtx {
                side: if side == Side::White {
                    "white"
                } else {
                    "black"
                },
                days: c.days,
                limit: c.limit,
                penalty_days: c.penalty_days,
                moves: c.moves,
            }
        })
        .collect();
    let (result, ended) = result_of(state, lang);
    let numbered = state.record();
    let labels: Vec<String> = numbered
        .iter()
        .map(|m| match m.side {
            Side::White => format!("{}. {}", m.number, shown(&m.text)),
            Side::Black => format!("{}... {}", m.number, shown(&m.text)),
        })
        .collect();
    let (start_caption, after) = match lang {
        Language::Ru => ("Начальная позиция", "Позиция после хода"),
        Language::En => ("The starting position", "The position after"),
    };
    let caption = |ply: usize| match ply {
        0 => start_caption.to_owned(),
        p => format!("{after} {}", labels[p - 1]),
    };
    // the start, then the position after each ply
    let plies: Vec<Ply> = record
        .positions()
        .iter()
        .enumerate()
        .map(|(i, p)| Ply {
            pieces: svg::piece_uses(&Board::from(p)),
            caption: caption(i),
        })
        .collect();
    let last = plies.len() - 1;
    let board = svg::to_svg(&Board::from(record.position()), &caption(last));
    let ctx = GamePageCtx {
        lang: lang_of(lang).code(),
        federation: federation.to_owned(),
        as_of: view::date_text(today, lang),
        index_href: "index.html",
        tournament: tournament_ctx(t, lang),
        game: GameCtx {
            number: state.number,
            white: state.players.white.name.clone(),
            black: state.players.black.name.clone(),
            status: view::status_text(state, today, lang),
            result,
            ended,
            to_move: to_move(state),
            record: view::record_text(state, &record),
        },
        clocks,
        board,
        caption: caption(last),
        moves: labels
            .into_iter()
            .enumerate()
            .map(|(i, label)| MoveCtx { ply: i + 1, label })
            .collect(),
        plies_json: script_json(&plies),
    };
    Ok(Page {
        file: game_file(state.number),
        html: templates.page(lang_of(lang), "game", &ctx)?,
    })
}
