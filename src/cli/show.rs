//! The organiser's read-only commands: `game show`, `game timechart`, `table`, `export pdn`,
//! `export html`.
//!
//! Each reads one consistent snapshot of the store ([`Store::read`](crate::store::Store::read))
//! and changes nothing. The day the clocks are read on is `ctx.now()` (so `--now`) as a
//! calendar day in the tournament's time zone. Text is in the config's language (Russian by
//! default); JSON keys are English.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::str::FromStr;

use chrono::NaiveDate;
use chrono_tz::Tz;
use serde_json::json;

use super::admin::{TournamentSettings, open_store};
use super::{CliError, CliResult, Context, refused};
use crate::clock::{ChartLabels, ClockSettings};
use crate::config::Language;
use crate::game::{Ending, GameState, Side};
use crate::render::words::{Noun, count};
use crate::render::{Board, Lang};
use crate::rules::PdnGame;
use crate::site::view::{
    self, ClockView, ViewError, clock_view, date_text, ending_text, record_text, status_text,
    status_word, variant_text,
};
use crate::store::{Tournament, Tx};
use crate::tournament::{self, CrosstableLabels};

/// One game as the commands show it.
struct Loaded {
    tournament: Tournament,
    settings: TournamentSettings,
    state: GameState,
    /// The day the clocks are read on.
    today: NaiveDate,
    /// The adjudication record and the engine's view given to the arbiter, if any (10.5).
    papers: (
        Option<crate::tournament::adjudication::Adjudication>,
        Option<crate::office::engine::EngineNote>,
    ),
}

/// The tournament's zone (the config's when the stored one is unknown).
fn zone(ctx: &Context, t: &Tournament) -> Tz {
    Tz::from_str(&t.tz).unwrap_or(ctx.config.time_zone)
}

pub(super) fn find_tournament(tx: &Tx<'_>, cipher: &str) -> Result<Tournament, CliError> {
    tx.find_tournament(cipher.trim())?
        .ok_or_else(|| refused(format!("no tournament '{}'", cipher.trim())))
}

impl From<ViewError> for CliError {
    fn from(e: ViewError) -> Self {
        CliError::Broken(e.into())
    }
}

fn load(ctx: &Context, cipher: &str, number: u32) -> Result<Loaded, CliError> {
    let store = open_store(ctx)?;
    store.read(|tx| -> Result<Loaded, CliError> {
        let t = find_tournament(tx, cipher)?;
        let g = tx
            .find_game(t.id, number)?
            .ok_or_else(|| refused(format!("no game {number} in tournament {}", t.cipher)))?;
        let state = view::state_of(&t, &g)?;
        let settings = view::settings_of(&t)?;
        let today = ctx.now().with_timezone(&zone(ctx, &t)).date_naive();
        let papers = crate::office::commands::adjudication_papers(tx, &g).map_err(|e| {
            CliError::Broken(anyhow::Error::new(e).context("read the adjudication"))
        })?;
        Ok(Loaded {
            tournament: t,
            settings,
            state,
            today,
            papers,
        })
    })
}

fn ending_word(how: &Ending) -> &'static str {
    match how {
        Ending::Rule => "rule",
        Ending::Resignation { .. } => "resignation",
        Ending::Agreement => "agreement",
        Ending::DrawRule { .. } => "draw_rule",
        Ending::Arbiter { .. } => "arbiter",
        Ending::Overstep { .. } => "overstep",
    }
}

/// `zaochka game show CIPHER NUMBER [--json]`: the header, status, result, diagram, record,
/// both clocks and whose move, as of `ctx.now()`.
///
/// # Errors
/// Refused for an unknown tournament or game; broken when the database or the stored game
/// cannot be read.
pub fn game(ctx: &Context, cipher: &str, number: u32, as_json: bool) -> CliResult {
    let l = load(ctx, cipher, number)?;
    let st = &l.state;
    let record = view::record_of(st)?;
    let ledger = st.ledger(&l.settings.clock);
    let clocks = [Side::White, Side::Black].map(|s| clock_view(&ledger, st, s, l.today));
    let to_move = (!st.is_finished()).then(|| st.side_to_move());
    let record_line = record_text(st, &record);
    let fen = record.position().to_fen();
    let mut out = String::new();
    if as_json {
        let side_json = |side: Side, c: &ClockView| {
            let p = &st.players[side];
            json!({
                "name": p.name,
                "email": p.email,
                "days": c.days,
                "penalty_days": c.penalty_days,
                "moves": c.moves,
                "limit": c.limit,
            })
        };
        let value = json!({
            "cipher": l.tournament.cipher,
            "number": st.number,
            "game": st.variant.name(),
            "as_of": l.today.to_string(),
            "start": st.start.to_string(),
            "end": st.end.to_string(),
            "white": side_json(Side::White, &clocks[0]),
            "black": side_json(Side::Black, &clocks[1]),
            "to_move": to_move,
            "status": status_word(st, l.today),
            "result": st.result.as_ref().map(|r| r.score.to_string()),
            "ended_by": st.result.as_ref().map(|r| ending_word(&r.how)),
            "ended_on": st.result.as_ref().map(|r| r.on.to_string()),
            "fen": fen,
            "record": record_line,
            "moves": st.moves.iter().map(|m| m.text.as_str()).collect::<Vec<_>>(),
            "draw_offered_by": st.draw_offer,
            "variants": st.proposals.iter().map(|p| json!({
                "by": p.by,
                "label": p.label,
                "moves": p.moves,
            })).collect::<Vec<_>>(),
            "adjudication": adjudication_json(&l),
        });
        // A `json!` value of strings and numbers: writing it cannot fail.
        out = serde_json::to_string_pretty(&value).unwrap_or_default();
        out.push('\n');
    } else {
        let lang = ctx.config.language;
        let ru = lang == Language::Ru;
        let name = |s: Side| {
            let p = &st.players[s];
            format!("{} <{}>", p.name, p.email)
        };
        let _ = if ru {
            writeln!(
                out,
                "Турнир {}, партия № {} ({})",
                l.tournament.cipher,
                st.number,
                variant_text(st, lang)
            )
        } else {
            writeln!(
                out,
                "Tournament {}, game {} ({})",
                l.tournament.cipher,
                st.number,
                variant_text(st, lang)
            )
        };
        let (w, b, status, result, record_label, none, on) = if ru {
            (
                "Белые",
                "Чёрные",
                "Статус",
                "Результат",
                "Запись",
                "нет",
                "на",
            )
        } else {
            (
                "White", "Black", "Status", "Result", "Record", "none", "as of",
            )
        };
        let _ = if ru {
            writeln!(
                out,
                "Начало {}, контрольный срок {} (п. 10.3.2, 10.5)",
                date_text(st.start, lang),
                date_text(st.end, lang)
            )
        } else {
            writeln!(
                out,
                "Start {}, end of play {} (10.3.2, 10.5)",
                date_text(st.start, lang),
                date_text(st.end, lang)
            )
        };
        let _ = writeln!(out, "{w}: {}", name(Side::White));
        let _ = writeln!(out, "{b}: {}", name(Side::Black));
        let _ = writeln!(out, "{status}: {}", status_text(st, l.today, lang));
        match &st.result {
            Some(r) => {
                let _ = writeln!(
                    out,
                    "{result}: {} ({}, {})",
                    r.score,
                    ending_text(&r.how, lang),
                    date_text(r.on, lang)
                );
            }
            None => {
                let _ = writeln!(out, "{result}: {none}");
            }
        }
        out.push('\n');
        out.push_str(&Board::from(record.position()).to_text(match lang {
            Language::En => crate::render::Lang::En,
            _ => crate::render::Lang::Ru,
        }));
        let _ = writeln!(out, "FEN: {fen}");
        out.push('\n');
        let _ = writeln!(
            out,
            "{record_label}: {}",
            if record_line.is_empty() {
                none
            } else {
                &record_line
            }
        );
        out.push('\n');
        let _ = if ru {
            writeln!(out, "Время {on} {}:", date_text(l.today, lang))
        } else {
            writeln!(out, "Time {on} {}:", date_text(l.today, lang))
        };
        for (side, c) in [(Side::White, &clocks[0]), (Side::Black, &clocks[1])] {
            let label = if side == Side::White { w } else { b };
            let _ = if ru {
                writeln!(
                    out,
                    "  {label}: {} из {} (штраф {}), ходов в зачёт {}",
                    count(Lang::Ru, c.days, Noun::Day),
                    c.limit,
                    count(Lang::Ru, c.penalty_days, Noun::Day),
                    c.moves
                )
            } else {
                writeln!(
                    out,
                    "  {label}: {} of {} ({} penalty), {} counted",
                    count(Lang::En, c.days, Noun::Day),
                    c.limit,
                    count(Lang::En, c.penalty_days, Noun::Day),
                    count(Lang::En, i64::from(c.moves), Noun::Move)
                )
            };
        }
        if let Some(by) = st.draw_offer {
            let _ = match (by, ru) {
                (Side::White, true) => writeln!(out, "Белые предложили ничью"),
                (Side::Black, true) => writeln!(out, "Чёрные предложили ничью"),
                (Side::White, false) => writeln!(out, "White offers a draw"),
                (Side::Black, false) => writeln!(out, "Black offers a draw"),
            };
        }
        for p in &st.proposals {
            let who = match (p.by, ru) {
                (Side::White, true) => "белых",
                (Side::Black, true) => "чёрных",
                (Side::White, false) => "White's",
                (Side::Black, false) => "Black's",
            };
            let label = p.label.as_deref().unwrap_or("—");
            let _ = if ru {
                writeln!(out, "Вариант {who} {label}: {}", p.moves.join(" "))
            } else {
                writeln!(out, "{who} variant {label}: {}", p.moves.join(" "))
            };
        }
        match to_move {
            Some(Side::White) if ru => out.push_str("Ход белых\n"),
            Some(Side::Black) if ru => out.push_str("Ход чёрных\n"),
            Some(Side::White) => out.push_str("White to move\n"),
            Some(Side::Black) => out.push_str("Black to move\n"),
            None => {}
        }
        out.push_str(&adjudication_text(&l, lang));
    }
    print(&out)
}

/// `game show --json`'s `adjudication`: both analyses and the engine's view the arbiter got,
/// or null when the game was never adjudicated.
fn adjudication_json(l: &Loaded) -> serde_json::Value {
    let (adj, note) = &l.papers;
    if adj.is_none() && note.is_none() {
        return serde_json::Value::Null;
    }
    let analysis = |side: Side| {
        adj.as_ref()
            .and_then(|a| a.analyses[side].as_ref())
            .map(|a| {
                json!({
                    "evaluation": a.evaluation.map(|e| e.to_string()),
                    "text": a.text,
                    "received": a.received.to_string(),
                    "late": a.is_late,
                })
            })
    };
    json!({
        "white": analysis(Side::White),
        "black": analysis(Side::Black),
        "engine": note.as_ref().map(|n| json!({
            "verdict": n.verdict,
            "result": n.score_of_game().to_string(),
            "proven": n.proven,
            "basis": n.basis,
            "score": n.score,
            "depth": n.depth,
            "pv": n.pv,
            "fen": n.fen,
        })),
    })
}

/// The adjudication as text: each player's evaluation and analysis, the engine's view beside
/// them, and that the arbiter decides (10.5.4, 10.5.5); empty for a game never adjudicated.
fn adjudication_text(l: &Loaded, lang: Language) -> String {
    let (adj, note) = &l.papers;
    if adj.is_none() && note.is_none() {
        return String::new();
    }
    let ru = lang == Language::Ru;
    let mut out = String::new();
    out.push('\n');
    out.push_str(if ru {
        "Присуждение (п. 10.5):\n"
    } else {
        "Adjudication (10.5):\n"
    });
    for side in [Side::White, Side::Black] {
        let label = match (side, ru) {
            (Side::White, true) => "Белые",
            (Side::Black, true) => "Чёрные",
            (Side::White, false) => "White",
            (Side::Black, false) => "Black",
        };
        match adj.as_ref().and_then(|a| a.analyses[side].as_ref()) {
            Some(a) => {
                let eval = a.evaluation.map_or_else(
                    || {
                        if ru {
                            "не указана".to_owned()
                        } else {
                            "none given".to_owned()
                        }
                    },
                    |e| e.to_string(),
                );
                let late = match (a.is_late, ru) {
                    (true, true) => ", с опозданием",
                    (true, false) => ", late",
                    _ => "",
                };
                let _ = if ru {
                    writeln!(
                        out,
                        "  {label}: оценка {eval} ({}{late}): {}",
                        date_text(a.received, lang),
                        a.text
                    )
                } else {
                    writeln!(
                        out,
                        "  {label}: evaluation {eval} ({}{late}): {}",
                        date_text(a.received, lang),
                        a.text
                    )
                };
            }
            None => {
                let _ = if ru {
                    writeln!(out, "  {label}: анализ не прислан")
                } else {
                    writeln!(out, "  {label}: no analysis")
                };
            }
        }
    }
    if let Some(n) = note {
        let lang_r = if ru {
            crate::render::Lang::Ru
        } else {
            crate::render::Lang::En
        };
        let agreed = adj.as_ref().and_then(|a| {
            let w = a.analyses.white.as_ref()?.evaluation?;
            let b = a.analyses.black.as_ref()?.evaluation?;
            (w == b).then_some(w)
        });
        let b = crate::office::engine::block_of(n, &l.state, agreed, lang_r);
        let line = if b.line.is_empty() {
            "—".to_owned()
        } else {
            b.line.clone()
        };
        let _ = if ru {
            writeln!(
                out,
                "  Программа: {} — {} ({}); вариант: {line}",
                b.verdict,
                if b.proven {
                    "доказано"
                } else {
                    "не доказано"
                },
                b.basis
            )
        } else {
            writeln!(
                out,
                "  Engine: {} — {} ({}); line: {line}",
                b.verdict,
                if b.proven { "proven" } else { "not proven" },
                b.basis
            )
        };
        if b.contradicts_agreed {
            out.push_str(if ru {
                "  Партнёры оценивают позицию одинаково, а программа доказывает другое (п. 10.5.4).\n"
            } else {
                "  Both players evaluate it alike, and the engine proves otherwise (10.5.4).\n"
            });
        }
        out.push_str(if ru {
            "  Программа — лишь довод: решение принимает главный судья (п. 10.5.4, 10.5.5).\n"
        } else {
            "  The engine is evidence, not the judge: the chief arbiter decides (10.5.4, 10.5.5).\n"
        });
    }
    out
}

fn print(text: &str) -> CliResult {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    lock.write_all(text.as_bytes())?;
    lock.flush()?;
    Ok(())
}

/// `zaochka game timechart CIPHER NUMBER`: Table 2 of 10.3.6 as of `ctx.now()`, in the
/// config's language.
///
/// # Errors
/// Refused for an unknown tournament or game; broken when the database or the stored game
/// cannot be read.
pub fn timechart(ctx: &Context, cipher: &str, number: u32) -> CliResult {
    let l = load(ctx, cipher, number)?;
    let st = &l.state;
    let chart = st.time_chart(&l.settings.clock, l.today);
    let (labels, header) = match ctx.config.language {
        Language::Ru => (
            ChartLabels::ru(),
            format!(
                "Турнир {}, партия № {}: {} (белые) — {} (чёрные)\n",
                l.tournament.cipher, st.number, st.players.white.name, st.players.black.name
            ),
        ),
        Language::En => (
            ChartLabels::en(),
            format!(
                "Tournament {}, game {}: {} (White) v {} (Black)\n",
                l.tournament.cipher, st.number, st.players.white.name, st.players.black.name
            ),
        ),
    };
    let mut out = header;
    out.push_str(&chart.to_text(&labels));
    if !out.ends_with('\n') {
        out.push('\n');
    }
    print(&out)
}

/// `zaochka table CIPHER [--json]`: the crosstable and standings from the games' results,
/// with the points of the tournament's stored settings. Start numbers come from the Berger
/// pairings of the games (or the order of registration before there are any).
///
/// # Errors
/// Refused for an unknown tournament; broken when the database or a stored game cannot be
/// read.
pub fn table(ctx: &Context, cipher: &str, as_json: bool) -> CliResult {
    let store = open_store(ctx)?;
    let (t, view) = store.read(|tx| -> Result<_, CliError> {
        let t = find_tournament(tx, cipher)?;
        let view = view::table_of(tx, &t)?;
        Ok((t, view))
    })?;
    let view::TableView {
        players,
        results,
        standings,
        ..
    } = view;
    let out = if as_json {
        let value = json!({
            "cipher": t.cipher,
            "name": t.name,
            "game": t.variant,
            "status": t.status.as_str(),
            "players": players.iter().enumerate().map(|(i, p)| json!({
                "number": i + 1,
                "name": p.name,
                "email": p.email,
            })).collect::<Vec<_>>(),
            "games": results.len(),
            "finished": results.iter().filter(|r| r.score.is_some()).count(),
            "standings": standings,
        });
        let mut s = serde_json::to_string_pretty(&value)
            .map_err(|e| CliError::Broken(anyhow::Error::new(e).context("write the table")))?;
        s.push('\n');
        s
    } else {
        let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
        let (labels, header) = match ctx.config.language {
            Language::Ru => (
                CrosstableLabels::ru(),
                format!(
                    "Турнир {} «{}»: сыграно {} из {}\n\n",
                    t.cipher,
                    t.name,
                    results.iter().filter(|r| r.score.is_some()).count(),
                    of_games_ru(results.len())
                ),
            ),
            Language::En => (
                CrosstableLabels::en(),
                format!(
                    "Tournament {} \"{}\": {} of {} finished\n\n",
                    t.cipher,
                    t.name,
                    results.iter().filter(|r| r.score.is_some()).count(),
                    count(Lang::En, results.len() as i64, Noun::Game)
                ),
            ),
        };
        let mut s = header;
        s.push_str(&standings.to_text(&names, &labels));
        if !s.ends_with('\n') {
            s.push('\n');
        }
        s
    };
    print(&out)
}

/// The PDN result of a game: `1-0`, `0-1`, `1/2-1/2`, `0-0` (a "minus" for both, 10.5.8) or
/// `*` while it is not over.
fn pdn_result(state: &GameState) -> String {
    match &state.result {
        Some(r) => r.score.to_string(),
        None => "*".to_owned(),
    }
}

/// The clock of a game as PDN tags, so that `import pdn` takes it back: both totals as the
/// letters give them, penalties included, on the day the side to move received the last
/// move (`Sent`, from which day on his days run); a finished game's as of its end, without
/// `Sent` but with the day it ended (`Ended`) and how (`Termination`, the word `game show
/// --json` gives as `ended_by`), and a game with no answer yet without `Sent` (its days run
/// from the start).
fn clock_tags(
    st: &GameState,
    clock: &ClockSettings,
    today: NaiveDate,
) -> Vec<(&'static str, String)> {
    let has_moved = !st.answers.is_empty() || st.imported.is_some();
    let sent = (!st.is_finished() && has_moved).then(|| st.received_by(st.side_to_move()));
    let times = st.times(clock, sent.unwrap_or(today));
    let ledger = st.ledger(clock);
    let mut tags = vec![
        ("WhiteDays", times.white.to_string()),
        ("BlackDays", times.black.to_string()),
        (
            "WhitePenaltyDays",
            ledger.penalty_days(Side::White).to_string(),
        ),
        (
            "BlackPenaltyDays",
            ledger.penalty_days(Side::Black).to_string(),
        ),
    ];
    if let Some(day) = sent {
        tags.push(("Sent", day.to_string()));
    }
    if let Some(r) = &st.result {
        tags.push(("Ended", r.on.to_string()));
        tags.push(("Termination", ending_word(&r.how).to_owned()));
    }
    tags
}

/// `zaochka export pdn CIPHER [NUMBER]`: PDN 3.0 of one game or of every game (by number),
/// separated by blank lines, on stdout.
///
/// # Errors
/// Refused for an unknown tournament or game; broken when the database or a stored game
/// cannot be read.
pub fn pdn(ctx: &Context, cipher: &str, number: Option<u32>) -> CliResult {
    let store = open_store(ctx)?;
    let (t, player_count, states) = store.read(|tx| -> Result<_, CliError> {
        let t = find_tournament(tx, cipher)?;
        let player_count = tx.players(t.id)?.len();
        let games = match number {
            Some(n) => vec![
                tx.find_game(t.id, n)?
                    .ok_or_else(|| refused(format!("no game {n} in tournament {}", t.cipher)))?,
            ],
            None => tx.games(t.id)?,
        };
        let mut states = games
            .iter()
            .map(|g| view::state_of(&t, g))
            .collect::<Result<Vec<_>, _>>()?;
        states.sort_by_key(tournament::digest::pdn_order);
        Ok((t, player_count, states))
    })?;
    // The round of each game number in the Berger tables the start paired by.
    let rounds: HashMap<u32, u32> = tournament::berger(player_count as u32)
        .map(|rr| rr.pairings.iter().map(|p| (p.game, p.round)).collect())
        .unwrap_or_default();
    let event = if t.name.trim().is_empty() {
        t.cipher.clone()
    } else {
        t.name.clone()
    };
    let clock = view::settings_of(&t)?.clock;
    let today = ctx.now().with_timezone(&zone(ctx, &t)).date_naive();
    let mut out = String::new();
    for st in &states {
        let record = view::record_of(st)?;
        let round = rounds
            .get(&st.number)
            .map_or_else(|| "?".to_owned(), u32::to_string);
        let game = PdnGame {
            tags: vec![
                ("Event".to_owned(), event.clone()),
                ("Site".to_owned(), ctx.config.federation.clone()),
                ("Date".to_owned(), t.start.format("%Y.%m.%d").to_string()),
                ("Round".to_owned(), round),
                ("White".to_owned(), st.players.white.name.clone()),
                ("Black".to_owned(), st.players.black.name.clone()),
                ("GameNumber".to_owned(), st.number.to_string()),
            ]
            .into_iter()
            .chain(
                clock_tags(st, &clock, today)
                    .into_iter()
                    .map(|(name, value)| (name.to_owned(), value)),
            )
            .collect(),
            record,
            result: pdn_result(st),
        };
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&game.to_pdn());
    }
    print(&out)
}

/// `zaochka export html CIPHER DIR [--lang ru|en]`: the tournament's public pages into DIR
/// (created when missing), as of `ctx.now()`; prints what was written.
///
/// # Errors
/// Refused for an unknown tournament, a language other than ru or en, or a DIR that is a
/// file; broken when the database, a stored game, a template or a file fails.
pub fn html(ctx: &Context, cipher: &str, dir: &std::path::Path, lang: Option<&str>) -> CliResult {
    use crate::site::SiteError;
    let lang = match lang.map(|l| l.trim().to_ascii_lowercase()) {
        None => ctx.config.language,
        Some(l) if l == "ru" => Language::Ru,
        Some(l) if l == "en" => Language::En,
        Some(other) => return Err(refused(format!("unknown language '{other}' (ru or en)"))),
    };
    let store = open_store(ctx)?;
    let written = crate::site::export(
        &store,
        &ctx.templates,
        &ctx.config,
        cipher,
        dir,
        lang,
        ctx.now(),
    )
    .map_err(|e| match e {
        e @ (SiteError::UnknownTournament(_) | SiteError::NotADirectory(_)) => refused(e),
        e => CliError::Broken(anyhow::Error::new(e).context("export html")),
    })?;
    print(&format!(
        "{}: {} pages, {} written\n",
        dir.display(),
        written.pages,
        written.changed
    ))
}

/// "из 3 партий": the count after «из», in the genitive (1, 21 … партии; else партий).
fn of_games_ru(n: usize) -> String {
    let n = n as i64;
    format!(
        "{n} {}",
        crate::render::words::plural_ru(n, "партии", "партий", "партий")
    )
}
