//! `import pdn`: the running games of a tournament played elsewhere (on paper, by hand-kept
//! mail) become games of a tournament added with its players but not started. The whole
//! file in one transaction: any game that does not read, names a player the tournament does
//! not have or carries a move against the rules refuses the file, and nothing is imported.
//! Each player then gets one letter with his imported games.

use chrono::{DateTime, NaiveDate, Utc};

use super::kinds::{self, Outgoing};
use super::{Office, OfficeError, board_of, fmt_date, last_day_of, status_of};
use crate::clock::{Carried, PerSide};
use crate::game::{self, Ending, GameImport, GameResult, GameState, Score, Side};
use crate::render::letters as out;
use crate::rules::PdnGame;
use crate::rules::record::pdn_games;
use crate::store::{GameUpdate, NewGame, Player, Store, Tournament, TournamentStatus, Tx};

/// What an import did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// Games imported (0 when the same file was imported before).
    pub games: usize,
    /// Letters queued to the players.
    pub letters: usize,
}

/// A game of the file, read and checked, before it is stored.
struct Read {
    number: u32,
    white: Player,
    black: Player,
    state: GameState,
}

/// The registered player a PDN name means: the same name, else the same with case, `ё`/`е`
/// ignored (as `set-email` matches them).
fn player_named<'p>(players: &'p [Player], name: &str) -> Result<&'p Player, String> {
    let shown = crate::tournament::shown_name(name);
    if let Some(p) = players
        .iter()
        .find(|p| crate::tournament::shown_name(&p.name) == shown)
    {
        return Ok(p);
    }
    let key = super::roster::folded(name);
    let found: Vec<&Player> = players
        .iter()
        .filter(|p| super::roster::folded(&p.name) == key)
        .collect();
    match found.as_slice() {
        [p] => Ok(p),
        [] => Err(format!("'{name}' is not a player of the tournament")),
        _ => Err(format!("'{name}' fits several players of the tournament")),
    }
}

/// A date tag: `2026-11-01`, `2026.11.01` or `01.11.2026`.
fn date_of(text: &str) -> Option<NaiveDate> {
    ["%Y-%m-%d", "%Y.%m.%d", "%d.%m.%Y"]
        .iter()
        .find_map(|f| NaiveDate::parse_from_str(text.trim(), f).ok())
}

/// The ending a `Termination` tag names (as `export pdn` writes it).
fn ending_of(word: Option<&str>, score: Score) -> Ending {
    let loser = match score {
        Score::WhiteWins => Some(Side::Black),
        Score::BlackWins => Some(Side::White),
        _ => None,
    };
    match (word.map(str::trim), loser) {
        (Some("rule"), _) => Ending::Rule,
        (Some("resignation"), Some(side)) => Ending::Resignation { side },
        (Some("agreement"), None) => Ending::Agreement,
        (Some("draw_rule"), None) => Ending::DrawRule {
            rule: "a draw rule of the game".to_owned(),
            rule_ru: "ничья по правилам игры".to_owned(),
        },
        (Some("overstep"), Some(side)) => Ending::Overstep { side },
        _ => Ending::Arbiter {
            note: "результат перенесён из прежней записи партии".to_owned(),
        },
    }
}

fn score_of(result: &str) -> Option<Score> {
    match result {
        "1-0" | "2-0" => Some(Score::WhiteWins),
        "0-1" | "0-2" => Some(Score::BlackWins),
        "1/2-1/2" | "1-1" => Some(Score::Draw),
        "0-0" => Some(Score::BothLose),
        _ => None,
    }
}

impl Office {
    /// `zaochka import pdn CIPHER FILE`: every game of `text` becomes a game of the
    /// tournament, which starts; each player is sent his games. The same file again changes
    /// nothing.
    ///
    /// # Errors
    /// [`OfficeError::Refused`] naming the game (its number and first line) and what is wrong:
    /// an unknown tournament, one already started with other games, a game that does not
    /// read, an unknown player, an illegal move, a clock tag that does not read; nothing is
    /// then imported. The store's and the renderer's errors.
    pub fn import_pdn(
        &self,
        store: &mut Store,
        cipher: &str,
        text: &str,
        now: DateTime<Utc>,
    ) -> Result<Imported, OfficeError> {
        store.with_transaction(|tx| {
            let t = tx
                .find_tournament(cipher)?
                .ok_or_else(|| OfficeError::Refused(format!("no tournament '{cipher}'")))?;
            let today = self.today(now, Some(&t));
            let games = self.read_file(tx, &t, text, today)?;
            if t.status != TournamentStatus::Registration {
                return self.same_as_stored(tx, &t, &games);
            }
            let settings = self.settings(&t);
            for g in &games {
                let json = serde_json::to_string(&g.state)
                    .map_err(|source| OfficeError::State { game: 0, source })?;
                let status = status_of(&g.state, today);
                let next_due =
                    game::next_due_day(&g.state, today.pred_opt().unwrap_or(today), &settings);
                let id = tx.add_game(
                    &NewGame {
                        tournament: t.id,
                        number: g.number,
                        white: g.white.id,
                        black: g.black.id,
                        status,
                        state: &json,
                        next_due,
                    },
                    now,
                )?;
                if let Some(r) = &g.state.result {
                    tx.update_game(
                        id,
                        &GameUpdate {
                            status,
                            result: Some(&r.score.to_string()),
                            state: &json,
                            next_due,
                        },
                        now,
                    )?;
                }
            }
            let letters = self.tell_players(tx, &t, &games, today, now)?;
            tx.set_tournament_status(t.id, TournamentStatus::Playing)?;
            Ok(Imported {
                games: games.len(),
                letters,
            })
        })
    }

    /// Reads and checks every game of the file.
    fn read_file(
        &self,
        tx: &Tx<'_>,
        t: &Tournament,
        text: &str,
        today: NaiveDate,
    ) -> Result<Vec<Read>, OfficeError> {
        let players = tx.players(t.id)?;
        let variant: crate::rules::Variant = t
            .variant
            .parse()
            .map_err(|e| OfficeError::Refused(format!("tournament '{}': {e}", t.cipher)))?;
        let mut out: Vec<Read> = Vec::new();
        let file = pdn_games(text);
        if file.is_empty() {
            return Err(OfficeError::Refused("the file holds no game".to_owned()));
        }
        for (i, (line, text)) in file.iter().enumerate() {
            let fallback = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let refuse = |number: u32, why: String| {
                OfficeError::Refused(format!(
                    "game {number} (line {line}): {why}; nothing was imported"
                ))
            };
            let pdn = PdnGame::from_pdn(text).map_err(|e| refuse(fallback, e.to_string()))?;
            let number =
                match pdn.tag("GameNumber") {
                    Some(n) => n.trim().parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                        refuse(fallback, format!("GameNumber '{n}' is no number"))
                    })?,
                    None => fallback,
                };
            let refuse = |why: String| refuse(number, why);
            if out.iter().any(|g| g.number == number) {
                return Err(refuse("a second game with this number".to_owned()));
            }
            let named = |tag: &str| {
                let name = pdn.tag(tag).unwrap_or("");
                player_named(&players, name).map_err(|e| refuse(format!("[{tag}] {e}")))
            };
            let (white, black) = (named("White")?, named("Black")?);
            if white.id == black.id {
                return Err(refuse(format!("'{}' plays himself", white.name)));
            }
            if out.iter().any(|g| {
                (g.white.id, g.black.id) == (white.id, black.id)
                    || (g.white.id, g.black.id) == (black.id, white.id)
            }) {
                return Err(refuse(format!(
                    "{} and {} have a game already in this file",
                    white.name, black.name
                )));
            }
            let days = |tag: &str| -> Result<i64, OfficeError> {
                match pdn.tag(tag) {
                    None => Ok(0),
                    Some(v) => v
                        .trim()
                        .parse()
                        .map_err(|_| refuse(format!("[{tag} \"{v}\"] is no number of days"))),
                }
            };
            let carried = |side: &str| -> Result<Carried, OfficeError> {
                let total = days(&format!("{side}Days"))?;
                let penalty_days = days(&format!("{side}PenaltyDays"))?;
                Ok(Carried {
                    days: total - penalty_days,
                    penalty_days,
                })
            };
            let score = score_of(&pdn.result);
            let date_tag = |tag: &str| -> Result<Option<NaiveDate>, OfficeError> {
                pdn.tag(tag)
                    .map(|v| {
                        date_of(v).ok_or_else(|| refuse(format!("[{tag} \"{v}\"] is no date")))
                    })
                    .transpose()
            };
            let base = super::new_game(t, variant, number, white, black);
            let sent = match (score, date_tag("Sent")?, date_tag("Ended")?) {
                (Some(_), _, ended) => ended.unwrap_or(today),
                (None, Some(sent), _) => sent,
                (None, None, _) if pdn.record.moves().is_empty() => {
                    // Nothing played yet: an ordinary game from the start (10.3.2).
                    out.push(Read {
                        number,
                        white: white.clone(),
                        black: black.clone(),
                        state: base,
                    });
                    continue;
                }
                (None, None, _) => {
                    return Err(refuse(
                        "a game in play with moves needs [Sent], the day its last move was sent"
                            .to_owned(),
                    ));
                }
            };
            let import = GameImport {
                record: &pdn.record,
                carried: PerSide {
                    white: carried("White")?,
                    black: carried("Black")?,
                },
                sent,
                result: score.map(|score| GameResult {
                    score,
                    how: ending_of(pdn.tag("Termination"), score),
                    on: sent,
                }),
            };
            let state = game::import(base, &import, today).map_err(|e| refuse(e.to_string()))?;
            out.push(Read {
                number,
                white: white.clone(),
                black: black.clone(),
                state,
            });
        }
        Ok(out)
    }

    /// A tournament already started: the file is the one imported before (the same games,
    /// players and moves), and nothing changes; else it is refused.
    fn same_as_stored(
        &self,
        tx: &Tx<'_>,
        t: &Tournament,
        games: &[Read],
    ) -> Result<Imported, OfficeError> {
        let stored = tx.games(t.id)?;
        for g in games {
            let same = stored
                .iter()
                .find(|s| s.number == g.number)
                .is_some_and(|s| {
                    s.white == g.white.id
                        && s.black == g.black.id
                        && super::state_of(s).is_ok_and(|st| {
                            st.moves.len() >= g.state.moves.len()
                                && st
                                    .moves
                                    .iter()
                                    .zip(&g.state.moves)
                                    .all(|(a, b)| a.text == b.text)
                        })
                });
            if !same {
                return Err(OfficeError::Refused(format!(
                    "tournament '{}' has started, and its game {} is not the file's; nothing was imported",
                    t.cipher, g.number
                )));
            }
        }
        Ok(Imported {
            games: 0,
            letters: 0,
        })
    }

    /// One letter to each player with his imported games.
    fn tell_players(
        &self,
        tx: &Tx<'_>,
        t: &Tournament,
        games: &[Read],
        today: NaiveDate,
        now: DateTime<Utc>,
    ) -> Result<usize, OfficeError> {
        let settings = self.settings(t);
        let mut letters = 0;
        for p in tx.players(t.id)? {
            let mine: Vec<out::ImportGame> = games
                .iter()
                .filter_map(|g| {
                    let side = if g.white.id == p.id {
                        Side::White
                    } else if g.black.id == p.id {
                        Side::Black
                    } else {
                        return None;
                    };
                    Some(self.import_game(&g.state, side, &settings, today))
                })
                .collect();
            if mine.is_empty() {
                continue;
            }
            let variant = games[0].state.variant;
            let ctx = out::ImportList {
                about: self.tournament_facts(t, variant, &crate::tournament::shown_name(&p.name)),
                as_of: fmt_date(today),
                example: mine.iter().find(|g| g.is_to_move).cloned(),
                games: mine,
            };
            self.queue(
                tx,
                Outgoing::new(
                    &kinds::IMPORT_LIST,
                    vec![(crate::tournament::shown_name(&p.name), p.email.clone())],
                ),
                &ctx,
                now,
            )?;
            letters += 1;
        }
        Ok(letters)
    }

    fn import_game(
        &self,
        st: &GameState,
        side: Side,
        settings: &crate::clock::ClockSettings,
        today: NaiveDate,
    ) -> out::ImportGame {
        let partner = &st.players[side.other()];
        let times = st.times(settings, today);
        let is_to_move = !st.is_finished() && st.side_to_move() == side;
        let board = board_of(st);
        out::ImportGame {
            game_no: st.number,
            white: st.players.white.name.clone(),
            black: st.players.black.name.clone(),
            is_white: side == Side::White,
            partner: partner.name.clone(),
            partner_email: partner.email.clone(),
            record: super::join(&st.record()),
            result: st.result.as_ref().map(|r| r.score.to_string()),
            is_to_move,
            white_to_move: st.side_to_move() == Side::White,
            repeat: if is_to_move {
                super::join(&st.new_moves_for(side))
            } else {
                String::new()
            },
            next_number: st.number_of_ply(st.moves.len()),
            time_white: times.white,
            time_black: times.black,
            last_day: if is_to_move {
                last_day_of(st, settings, side, today)
            } else {
                None
            },
            diagram: board.to_text(self.lang()),
        }
    }
}
