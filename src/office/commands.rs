//! Letters from the chief arbiter and the chief secretary: commands (DESIGN.md "Arbiter and
//! secretary commands", issue 6). The office calls [`handle`] only for the configured
//! addresses; nobody else's command is ever executed.
//!
//! Each command of the letter ([`crate::command::read`]) is carried out through the rulings
//! of [`crate::game::arbiter`] and [`crate::tournament::adjudication`], recorded in the
//! store's decisions, and every player it touches is told; the commander gets one answer
//! saying what was done and what was not, and why.
//!
//! Also here, for the players' side of the same business: [`player_papers`] (a protest
//! against an overstep, 10.3.8, or an adjudication, 10.5.6; an analysis for adjudication,
//! 10.5.2) and [`sweep_adjudications`] (the package to the arbiter when the analyses are
//! due, 10.5.5).
//!
//! Choices where the rules are silent: the secretary may give remarks and warnings (10.1.9)
//! and nothing else; every other decision is the chief arbiter's (10.1.7, 10.3.7, 10.4.5).
//! A protest against a confirmed overstep or an arbiter's result counts from the day of the
//! decision (10.1.12).

use std::str::FromStr;

use chrono::{DateTime, NaiveDate, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

use super::{
    Office, OfficeError, Role, board_of, fmt_date, record_text, score_text, state_of, tz_of,
};
use crate::clock::{Break, Side};
use crate::command::{self, Command, CommandContext, FinishedGames, Order, UnfinishedGames};
use crate::game::{self, GameState, Score, Status, arbiter};
use crate::letter::{self, Evaluation};
use crate::mail::mime::ParsedMail;
use crate::render::Lang;
use crate::render::arbiter as ctx;
use crate::render::letters::{GameHeader, Refused};
use crate::render::words::{Noun, count, plural_ru, signed_count};
use crate::store::{
    Game, GameId, GameStatus, LetterInId, NewBreak, NewDecision, Outcome, Player, Tournament,
    TournamentId, TournamentStatus, Tx,
};
use crate::tournament::adjudication::{self as adj, Adjudication};

/// Russian or English, by the office's language.
fn w(lang: Lang, ru: String, en: String) -> String {
    match lang {
        Lang::Ru => ru,
        Lang::En => en,
    }
}

fn side_word(lang: Lang, side: Side) -> &'static str {
    match (lang, side) {
        (Lang::Ru, Side::White) => "белые",
        (Lang::Ru, Side::Black) => "чёрные",
        (Lang::En, Side::White) => "White",
        (Lang::En, Side::Black) => "Black",
    }
}

/// A command not carried out, with why (worded).
struct Refusal(String);

/// What one command carried out did.
struct Done {
    /// The line for the answer.
    line: String,
    /// The game it touched, if it was about one game.
    game: Option<GameId>,
    /// The tournament it touched when it was about a player, not one game.
    tournament: Option<TournamentId>,
}

/// What one command did, or why not.
type Applied = Result<Done, Refusal>;

/// The games for a subject: "ЗШ-2026-5, партия 1" for one, "ЗШ-2026-5, партии 1, 3" for
/// several of one tournament, the ciphers alone for several tournaments or when a command
/// was about a player of the tournament rather than one game.
fn games_named(
    lang: Lang,
    tx: &Tx<'_>,
    games: &[GameId],
    tournaments: &[TournamentId],
) -> Result<String, OfficeError> {
    let mut by_cipher: Vec<(String, Vec<u32>)> = vec![];
    for &id in tournaments {
        let cipher = tx.tournament(id)?.cipher;
        if !by_cipher.iter().any(|(c, _)| *c == cipher) {
            by_cipher.push((cipher, vec![]));
        }
    }
    for &id in games {
        let g = tx.game(id)?;
        let cipher = tx.tournament(g.tournament)?.cipher;
        match by_cipher.iter_mut().find(|(c, _)| *c == cipher) {
            Some((_, numbers)) => numbers.push(g.number),
            None => by_cipher.push((cipher, vec![g.number])),
        }
    }
    Ok(match by_cipher.as_slice() {
        [] => String::new(),
        [(cipher, numbers)] if numbers.is_empty() => cipher.clone(),
        [(cipher, numbers)] => {
            let mut numbers = numbers.clone();
            numbers.sort_unstable();
            let list = numbers
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            match (lang, numbers.len()) {
                (Lang::Ru, 1) => format!("{cipher}, партия {list}"),
                (Lang::Ru, _) => format!("{cipher}, партии {list}"),
                (Lang::En, 1) => format!("{cipher}, game {list}"),
                (Lang::En, _) => format!("{cipher}, games {list}"),
            }
        }
        many => many
            .iter()
            .map(|(c, _)| c.as_str())
            .collect::<Vec<_>>()
            .join(", "),
    })
}

/// Handles one letter from the arbiter or the secretary; `game` is the game found by
/// threading (a reply to zaochka's notice), if any.
///
/// # Errors
/// [`OfficeError`] from the store or the renderer; the whole letter is then rolled back.
pub fn handle(
    office: &Office,
    tx: &Tx<'_>,
    letter: LetterInId,
    mail: &ParsedMail,
    role: Role,
    game: Option<GameId>,
    now: DateTime<Utc>,
) -> Result<Outcome, OfficeError> {
    let lang = office.lang();
    let today = office.today(now, None);
    let orders = command::read(
        &mail.text,
        &CommandContext {
            today,
            subject: Some(mail.subject.clone()),
        },
    );
    let mut done = Vec::new();
    let mut problems: Vec<String> = orders
        .problems
        .iter()
        .map(|p| match lang {
            Lang::Ru => p.ru(),
            Lang::En => p.to_string(),
        })
        .collect();
    let mut touched = None;
    let mut all_touched: Vec<GameId> = game.into_iter().collect();
    let mut tournaments: Vec<TournamentId> = vec![];
    let author = match role {
        Role::Arbiter => office.config.arbiter.clone(),
        Role::Secretary => office.config.secretary.clone(),
    };
    for order in &orders.items {
        match apply(office, tx, letter, order, role, &author, game, now)? {
            Ok(d) => {
                done.push(d.line);
                touched = touched.or(d.game);
                if let Some(g) = d.game.filter(|g| !all_touched.contains(g)) {
                    all_touched.push(g);
                }
                if let Some(t) = d.tournament.filter(|t| !tournaments.contains(t)) {
                    tournaments.push(t);
                }
            }
            Err(Refusal(why)) => problems.push(format!("«{}»: {why}", order.line)),
        }
    }
    let answer = ctx::CommandAnswer {
        about: games_named(lang, tx, &all_touched, &tournaments)?,
        to_name: String::new(),
        done: done.clone(),
        problems,
        federation: office.config.federation.clone(),
    };
    office.queue(
        tx,
        super::kinds::Outgoing::new(&super::kinds::COMMAND_ANSWER, vec![(String::new(), author)])
            .answering(Some((letter, mail))),
        &answer,
        now,
    )?;
    Ok(if done.is_empty() {
        Outcome::SetAside {
            game: touched.or(game),
            reason: format!("a command letter from the {role:?}: nothing carried out"),
        }
    } else {
        match touched.or(game) {
            Some(g) => Outcome::Judged { game: g },
            None => Outcome::SetAside {
                game: None,
                reason: format!("a command letter from the {role:?}: {} done", done.len()),
            },
        }
    })
}

/// The game an order names: cipher and number, the number in the threaded game's
/// tournament, else the threaded game.
fn find_game(
    tx: &Tx<'_>,
    order: &Order,
    thread: Option<GameId>,
) -> Result<Option<(Tournament, Game)>, OfficeError> {
    let threaded = thread.map(|g| tx.game(g)).transpose()?;
    let tournament = match &order.cipher {
        Some(c) => tx.find_tournament(c)?,
        None => match &threaded {
            Some(g) => Some(tx.tournament(g.tournament)?),
            None => only_tournament(tx)?,
        },
    };
    let Some(t) = tournament else {
        return Ok(None);
    };
    let g = match order.game {
        Some(n) => tx.find_game(t.id, n)?,
        None => threaded.filter(|g| g.tournament == t.id),
    };
    Ok(g.map(|g| (t, g)))
}

/// The one tournament in play, when there is exactly one.
fn only_tournament(tx: &Tx<'_>) -> Result<Option<Tournament>, OfficeError> {
    let mut playing: Vec<Tournament> = tx
        .tournaments()?
        .into_iter()
        .filter(|t| t.status != TournamentStatus::Registration)
        .collect();
    Ok(if playing.len() == 1 {
        playing.pop()
    } else {
        None
    })
}

#[allow(clippy::too_many_arguments)]
fn apply(
    office: &Office,
    tx: &Tx<'_>,
    letter: LetterInId,
    order: &Order,
    role: Role,
    author: &str,
    thread: Option<GameId>,
    now: DateTime<Utc>,
) -> Result<Applied, OfficeError> {
    let lang = office.lang();
    let is_remark = matches!(order.command, Command::Warning { .. });
    if role == Role::Secretary && !is_remark {
        return Ok(Err(Refusal(w(
            lang,
            "это решение главного судьи (п. 10.1.7); секретарь объявляет замечания и предупреждения (п. 10.1.9)".into(),
            "this is the chief arbiter's decision (10.1.7); the secretary gives remarks and warnings (10.1.9)".into(),
        ))));
    }
    let applied = if order.command.needs_game() {
        let Some((t, g)) = find_game(tx, order, thread)? else {
            return Ok(Err(Refusal(w(
                lang,
                "партия не найдена: укажите «Шифр …, партия …» или ответьте на письмо почтамта"
                    .into(),
                "no such game: write \"Tournament …, game N\" or reply to the mailbox's letter"
                    .into(),
            ))));
        };
        game_command(office, tx, &t, &g, &order.command, now)?
    } else {
        player_command(office, tx, order, thread, now)?
    };
    if applied.is_ok() {
        let action = serde_json::json!({ "command": &order.command }).to_string();
        tx.record_decision(
            &NewDecision {
                game: applied.as_ref().ok().and_then(|d| d.game),
                author,
                text: &order.line,
                action: &action,
                letter: Some(letter),
            },
            now,
        )?;
    }
    Ok(applied)
}

/// Saves a ruling's state and sends its notices.
fn rule(
    office: &Office,
    tx: &Tx<'_>,
    t: &Tournament,
    g: &Game,
    ruling: &arbiter::Ruling,
    day: NaiveDate,
    now: DateTime<Utc>,
) -> Result<(), OfficeError> {
    let settings = office.settings(t);
    office.save(tx, g, &ruling.state, day, &settings, now)?;
    office.send_notices(tx, t, g, &ruling.state, &ruling.notices, None, now)
}

fn game_command(
    office: &Office,
    tx: &Tx<'_>,
    t: &Tournament,
    g: &Game,
    command: &Command,
    now: DateTime<Utc>,
) -> Result<Applied, OfficeError> {
    let lang = office.lang();
    let day = office.today(now, Some(t));
    let state = state_of(g)?;
    let n = g.number;
    let refuse = |ru: String, en: String| Ok(Err(Refusal(w(lang, ru, en))));
    let side_of = |who: &command::Who| who.side_in(&state);
    let no_side = || {
        refuse(
            format!("в партии {n} нет такого игрока"),
            format!("no such player in game {n}"),
        )
    };
    let done = |ru: String, en: String| {
        Ok(Ok(Done {
            line: w(lang, ru, en),
            game: Some(g.id),
            tournament: None,
        }))
    };
    match command {
        Command::ConfirmOverstep | Command::RejectOverstep { .. } => {
            let Status::Suspended { side, .. } = state.status else {
                return refuse(
                    format!("партия {n} не приостановлена за просрочку"),
                    format!("game {n} is not suspended for an overstep"),
                );
            };
            let name = state.players[side].name.clone();
            if let Command::RejectOverstep { days_left } = command {
                let settings = office.settings(t);
                let ruling = arbiter::reject_overstep(&state, day, *days_left, &settings);
                rule(office, tx, t, g, &ruling, day, now)?;
                // How the clock stands, as the ruling told the players.
                let (left, last) = ruling
                    .notices
                    .iter()
                    .find_map(|n| match &n.kind {
                        game::NoticeKind::OverstepRuling {
                            days_left,
                            last_day,
                            ..
                        } => Some((*days_left, last_day.as_ref().map(|l| fmt_date(l.date)))),
                        _ => None,
                    })
                    .unwrap_or_default();
                done(
                    format!(
                        "партия {n}: просрочки ({name}) нет, игра продолжается (п. 10.3.7); {} {}{}",
                        plural_ru(left, "остался", "осталось", "осталось"),
                        count(Lang::Ru, left, Noun::Day),
                        last.as_ref()
                            .map(|d| format!(", ответ — не позднее {d}"))
                            .unwrap_or_default()
                    ),
                    format!(
                        "game {n}: no overstep ({name}), play resumes (10.3.7); {} left{}",
                        count(Lang::En, left, Noun::Day),
                        last.as_ref()
                            .map(|d| format!(", the answer due by {d}"))
                            .unwrap_or_default()
                    ),
                )
            } else {
                let ruling = arbiter::confirm_overstep(&state, day);
                rule(office, tx, t, g, &ruling, day, now)?;
                done(
                    format!("партия {n}: просрочка подтверждена, {name} — поражение (п. 10.3.7)"),
                    format!("game {n}: overstep confirmed, {name} loses (10.3.7)"),
                )
            }
        }
        Command::SetResult { score, note } => {
            let result = score_text(score);
            if state.is_finished()
                && decide_protest(office, tx, t, g, &state, *score, note, day, now)?
            {
                return done(
                    format!(
                        "партия {n}: по протесту — {result}, решение окончательно (п. 10.5.7); игрокам и главному секретарю сообщено"
                    ),
                    format!(
                        "game {n}: on the protest, {result}, final (10.5.7); the players and the chief secretary are told"
                    ),
                );
            }
            if state.is_finished() {
                return refuse(
                    format!("партия {n} уже окончена"),
                    format!("game {n} is already over"),
                );
            }
            if state.status == Status::Adjudication {
                decide_adjudication(office, tx, t, g, &state, *score, note, day, now)?;
                return done(
                    format!(
                        "партия {n}: присуждено {result}; игрокам сообщено, протест — 10 дней (п. 10.5.6)"
                    ),
                    format!(
                        "game {n}: adjudicated {result}; the players are told, 10 days to protest (10.5.6)"
                    ),
                );
            }
            let ruling = arbiter::set_result(&state, *score, note, day);
            rule(office, tx, t, g, &ruling, day, now)?;
            done(
                format!("партия {n}: результат {result}"),
                format!("game {n}: result {result}"),
            )
        }
        Command::Penalty {
            who,
            days,
            clause,
            reason,
        } => {
            let Some(side) = side_of(who) else {
                return no_side();
            };
            let reason = if reason.is_empty() {
                format!("п. {clause}")
            } else {
                reason.clone()
            };
            let ruling = arbiter::add_penalty(&state, side, *days, clause, &reason, day);
            rule(office, tx, t, g, &ruling, day, now)?;
            let name = &state.players[side].name;
            done(
                format!(
                    "партия {n}: {name} — штраф {} (п. {clause})",
                    count(Lang::Ru, i64::from(*days), Noun::Day)
                ),
                format!(
                    "game {n}: {name} — penalty of {} ({clause})",
                    count(Lang::En, i64::from(*days), Noun::Day)
                ),
            )
        }
        Command::CancelPenalty { who, days, clause } => {
            let Some(side) = side_of(who) else {
                return no_side();
            };
            let Some(i) = command::find_penalty(&state, side, *days, clause.as_deref()) else {
                return refuse(
                    format!("в партии {n} нет такого штрафа"),
                    format!("no such penalty in game {n}"),
                );
            };
            let p = state.penalties[i].clone();
            let ruling = arbiter::cancel_penalty(&state, i);
            rule(office, tx, t, g, &ruling, day, now)?;
            let name = &state.players[side].name;
            done(
                format!(
                    "партия {n}: {name} — штраф {} (п. {}) отменён",
                    count(Lang::Ru, i64::from(p.days), Noun::Day),
                    p.clause
                ),
                format!(
                    "game {n}: {name} — penalty of {} ({}) cancelled",
                    count(Lang::En, i64::from(p.days), Noun::Day),
                    p.clause
                ),
            )
        }
        Command::AddDays { who, days, reason } => {
            let Some(side) = side_of(who) else {
                return no_side();
            };
            let ruling = arbiter::add_days(&state, side, *days, reason, day);
            rule(office, tx, t, g, &ruling, day, now)?;
            let name = &state.players[side].name;
            done(
                format!(
                    "партия {n}: {name} — {} ко времени ({reason})",
                    signed_count(Lang::Ru, i64::from(*days), Noun::Day)
                ),
                format!(
                    "game {n}: {name} — {} on the clock ({reason})",
                    signed_count(Lang::En, i64::from(*days), Noun::Day)
                ),
            )
        }
        Command::Warning {
            who,
            clause,
            reason,
            is_remark,
        } => {
            let Some(side) = side_of(who) else {
                return no_side();
            };
            let p = &state.players[side];
            let what = match (lang, is_remark) {
                (Lang::Ru, true) => "замечание",
                (Lang::Ru, false) => "предупреждение",
                (Lang::En, true) => "a remark",
                (Lang::En, false) => "a warning",
            };
            let why = if reason.is_empty() {
                String::new()
            } else {
                format!(": {reason}")
            };
            let text = w(
                lang,
                format!(
                    "в партии {n} турнира {} вам объявлено {what} за нарушение п. {clause} Правил{why} (пп. 10.1.9, 10.1.10).",
                    t.cipher
                ),
                format!(
                    "in game {n} of tournament {} you are given {what} for breaking clause {clause} of the Rules{why} (10.1.9, 10.1.10).",
                    t.cipher
                ),
            );
            let what_ru = if *is_remark {
                "замечание"
            } else {
                "предупреждение"
            };
            let what_en = if *is_remark { "a remark" } else { "a warning" };
            let subject = match lang {
                Lang::Ru => format!(
                    "{}, партия {n}: {what_ru} {} (п. {clause})",
                    t.cipher,
                    side_dative(side)
                ),
                Lang::En => format!(
                    "{}, game {n}: {what_en} to {} ({clause})",
                    t.cipher,
                    side_name(side)
                ),
            };
            note(
                office,
                tx,
                &subject,
                &p.name,
                &p.email,
                &text,
                Some(g.id),
                now,
            )?;
            let copy = w(
                lang,
                format!("{}: {what} (п. {clause}) в партии {n}{why}.", p.name),
                format!("{}: {what} ({clause}) in game {n}{why}.", p.name),
            );
            let secretary = office.config.secretary.clone();
            note(office, tx, &subject, "", &secretary, &copy, Some(g.id), now)?;
            done(copy.clone(), copy)
        }
        Command::Loss {
            who,
            clause,
            reason,
        } => {
            if state.is_finished() {
                return refuse(
                    format!("партия {n} уже окончена"),
                    format!("game {n} is already over"),
                );
            }
            let Some(side) = side_of(who) else {
                return no_side();
            };
            let note = if reason.is_empty() {
                format!("п. {clause}")
            } else {
                format!("п. {clause}: {reason}")
            };
            let ruling = arbiter::set_result(&state, Score::win(side.other()), &note, day);
            rule(office, tx, t, g, &ruling, day, now)?;
            let name = &state.players[side].name;
            done(
                format!("партия {n}: {name} — поражение (п. {clause})"),
                format!("game {n}: {name} loses ({clause})"),
            )
        }
        Command::SpecialBreak { .. } | Command::Withdraw { .. } => refuse(
            "команда относится к игроку, а не к партии".into(),
            "the command is about a player, not a game".into(),
        ),
    }
}

/// A special break (10.4.5) or a withdrawal (10.5.3): every game of the player.
fn player_command(
    office: &Office,
    tx: &Tx<'_>,
    order: &Order,
    thread: Option<GameId>,
    now: DateTime<Utc>,
) -> Result<Applied, OfficeError> {
    let lang = office.lang();
    let refuse = |ru: &str, en: &str| Ok(Err(Refusal(w(lang, ru.into(), en.into()))));
    let (who, t) = match &order.command {
        Command::SpecialBreak { who, .. } | Command::Withdraw { who, .. } => {
            let named = find_game(tx, order, thread)?;
            let t = match (&order.cipher, &named) {
                (_, Some((t, _))) => Some(t.clone()),
                (Some(c), None) => tx.find_tournament(c)?,
                (None, None) => only_tournament(tx)?,
            };
            let Some(t) = t else {
                return refuse(
                    "турнир не найден: укажите «Шифр …»",
                    "no such tournament: write \"Tournament …\"",
                );
            };
            let player = match (who, &named) {
                (command::Who::Side(s), Some((_, g))) => {
                    let id = match s {
                        Side::White => g.white,
                        Side::Black => g.black,
                    };
                    Some(tx.player(id)?)
                }
                (command::Who::Side(_), None) => None,
                (command::Who::Name(_), _) => {
                    let hits: Vec<Player> = tx
                        .players(t.id)?
                        .into_iter()
                        .filter(|p| who.matches(&p.name))
                        .collect();
                    if hits.len() == 1 {
                        hits.into_iter().next()
                    } else {
                        None
                    }
                }
            };
            let Some(player) = player else {
                return refuse(
                    "игрок не найден (или найдено несколько): укажите фамилию",
                    "no such player (or several): write the surname",
                );
            };
            (player, t)
        }
        _ => return refuse("это команда о партии", "this command is about a game"),
    };
    let day = office.today(now, Some(&t));
    let settings = office.settings(&t);
    let mut numbers = Vec::new();
    match &order.command {
        Command::SpecialBreak { from, to, .. } => {
            let grant = Break::special(*from, *to, day);
            tx.add_break(
                &NewBreak {
                    player: who.id,
                    first_day: *from,
                    last_day: *to,
                    is_special: true,
                    letter: None,
                    decision: None,
                },
                now,
            )?;
            for g in tx.games_of_player(who.id)? {
                if g.status == GameStatus::Finished || g.tournament != t.id {
                    continue;
                }
                let side = if g.white == who.id {
                    Side::White
                } else {
                    Side::Black
                };
                let ruling = arbiter::record_break(&state_of(&g)?, side, grant);
                office.save(tx, &g, &ruling.state, day, &settings, now)?;
                office.send_notices(tx, &t, &g, &ruling.state, &ruling.notices, None, now)?;
                numbers.push(g.number);
            }
            let games = join_numbers(&numbers);
            // A label before a list: one game or several, whatever the count ends in.
            let (noun, noun_en) = if numbers.len() == 1 {
                ("партия", "game")
            } else {
                ("партии", "games")
            };
            Ok(Ok(Done {
                line: w(
                    lang,
                    format!(
                        "{}: особый перерыв с {} по {} (п. 10.4.5), {noun} {games}",
                        who.name,
                        fmt_date(*from),
                        fmt_date(*to)
                    ),
                    format!(
                        "{}: special break {} to {} (10.4.5), {noun_en} {games}",
                        who.name,
                        fmt_date(*from),
                        fmt_date(*to)
                    ),
                ),
                game: None,
                tournament: Some(t.id),
            }))
        }
        Command::Withdraw {
            finished,
            unfinished,
            ..
        } => {
            let mut annulled = Vec::new();
            for g in tx.games_of_player(who.id)? {
                if g.tournament != t.id {
                    continue;
                }
                let side = if g.white == who.id {
                    Side::White
                } else {
                    Side::Black
                };
                let state = state_of(&g)?;
                if state.is_finished() {
                    if *finished == FinishedGames::Annul {
                        let mut st = state.clone();
                        st.is_annulled = true;
                        office.save(tx, &g, &st, day, &settings, now)?;
                        annulled.push(g.number);
                    }
                    continue;
                }
                numbers.push(g.number);
                match unfinished {
                    UnfinishedGames::Lost => {
                        let ruling = arbiter::set_result(
                            &state,
                            Score::win(side.other()),
                            "выбыл из турнира, п. 10.5.3",
                            day,
                        );
                        rule(office, tx, &t, &g, &ruling, day, now)?;
                    }
                    UnfinishedGames::Adjudicated => {
                        let mut st = state.clone();
                        st.status = Status::Adjudication;
                        if let Some(step) = adj::freeze(&st, day) {
                            save_adjudication(tx, &g, &step.adjudication, now)?;
                            send_adjudication(office, tx, &t, &g, &st, &step.notices, now)?;
                        }
                        office.save(tx, &g, &st, day, &settings, now)?;
                    }
                }
            }
            let how = match (lang, unfinished) {
                (Lang::Ru, UnfinishedGames::Lost) => "поражение",
                (Lang::Ru, UnfinishedGames::Adjudicated) => "на присуждение",
                (Lang::En, UnfinishedGames::Lost) => "lost",
                (Lang::En, UnfinishedGames::Adjudicated) => "to adjudication",
            };
            let kept = match (lang, finished) {
                (Lang::Ru, FinishedGames::Count) => "сыгранные засчитаны".to_string(),
                (Lang::Ru, FinishedGames::Annul) => format!(
                    "результаты сыгранных партий {} аннулированы",
                    join_numbers(&annulled)
                ),
                (Lang::En, FinishedGames::Count) => "finished games count".to_string(),
                (Lang::En, FinishedGames::Annul) => format!(
                    "the results of finished games {} are annulled",
                    join_numbers(&annulled)
                ),
            };
            let line = w(
                lang,
                format!(
                    "{} выбыл (п. 10.5.3): {kept}; незаконченные {} — {how}",
                    who.name,
                    join_numbers(&numbers)
                ),
                format!(
                    "{} withdrawn (10.5.3): {kept}; unfinished {} — {how}",
                    who.name,
                    join_numbers(&numbers)
                ),
            );
            let secretary = office.config.secretary.clone();
            let subject = w(
                lang,
                format!("{}: {} выбыл из турнира (п. 10.5.3)", t.cipher, who.name),
                format!("{}: {} withdrawn (10.5.3)", t.cipher, who.name),
            );
            note(office, tx, &subject, "", &secretary, &line, None, now)?;
            note(
                office, tx, &subject, &who.name, &who.email, &line, None, now,
            )?;
            Ok(Ok(Done {
                line,
                game: None,
                tournament: Some(t.id),
            }))
        }
        _ => refuse("это команда о партии", "this command is about a game"),
    }
}

fn join_numbers(n: &[u32]) -> String {
    if n.is_empty() {
        return "—".into();
    }
    n.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
}

/// "белым" / "чёрным": to whom a sanction is given.
fn side_dative(side: Side) -> &'static str {
    match side {
        Side::White => "белым",
        Side::Black => "чёрным",
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// The subject of a note about one game: "ЗШ-2027-1, партия 7: протест получен".
fn game_subject(lang: Lang, t: &Tournament, n: u32, ru: &str, en: &str) -> String {
    w(
        lang,
        format!("{}, партия {n}: {ru}", t.cipher),
        format!("{}, game {n}: {en}", t.cipher),
    )
}

/// A short letter (the `note` template) to one address, with its subject.
#[allow(clippy::too_many_arguments)]
fn note(
    office: &Office,
    tx: &Tx<'_>,
    subject: &str,
    name: &str,
    email: &str,
    text: &str,
    game: Option<GameId>,
    now: DateTime<Utc>,
) -> Result<(), OfficeError> {
    let c = Refused {
        subject: subject.to_string(),
        to_name: name.to_string(),
        reason: text.to_string(),
        federation: office.config.federation.clone(),
    };
    office.queue(
        tx,
        super::kinds::Outgoing::new(
            &super::kinds::NOTE,
            vec![(name.to_string(), email.to_string())],
        )
        .game(game),
        &c,
        now,
    )
}

/// The adjudication record as the decisions table keeps it.
#[derive(Serialize, Deserialize)]
struct Stored {
    adjudication: Adjudication,
}

const ADJUDICATION: &str = "adjudication record";

fn load_adjudication(tx: &Tx<'_>, g: &Game) -> Result<Option<Adjudication>, OfficeError> {
    Ok(tx
        .decisions_of(g.id)?
        .into_iter()
        .rev()
        .filter(|d| d.text == ADJUDICATION)
        .find_map(|d| serde_json::from_str::<Stored>(&d.action).ok())
        .map(|s| s.adjudication))
}

fn save_adjudication(
    tx: &Tx<'_>,
    g: &Game,
    a: &Adjudication,
    now: DateTime<Utc>,
) -> Result<(), OfficeError> {
    let action = serde_json::to_string(&Stored {
        adjudication: a.clone(),
    })
    .map_err(|source| OfficeError::State {
        game: g.id.0,
        source,
    })?;
    tx.record_decision(
        &NewDecision {
            game: Some(g.id),
            author: "zaochka",
            text: ADJUDICATION,
            action: &action,
            letter: None,
        },
        now,
    )?;
    Ok(())
}

const ENGINE_NOTE: &str = "engine verdict";

fn save_engine_note(
    tx: &Tx<'_>,
    g: &Game,
    note: &super::engine::EngineNote,
    now: DateTime<Utc>,
) -> Result<(), OfficeError> {
    let action = serde_json::to_string(note).map_err(|source| OfficeError::State {
        game: g.id.0,
        source,
    })?;
    tx.record_decision(
        &NewDecision {
            game: Some(g.id),
            author: "zaochka",
            text: ENGINE_NOTE,
            action: &action,
            letter: None,
        },
        now,
    )?;
    Ok(())
}

/// The papers of a game's adjudication as the store keeps them: the adjudication record
/// (the players' analyses, the decision) and the engine's last view given to the arbiter.
///
/// # Errors
/// [`OfficeError::Store`] when the store cannot be read.
pub fn adjudication_papers(
    tx: &Tx<'_>,
    g: &Game,
) -> Result<(Option<Adjudication>, Option<super::engine::EngineNote>), OfficeError> {
    let note = tx
        .decisions_of(g.id)?
        .into_iter()
        .rev()
        .filter(|d| d.text == ENGINE_NOTE)
        .find_map(|d| serde_json::from_str(&d.action).ok());
    Ok((load_adjudication(tx, g)?, note))
}

/// The game's adjudication, begun (without letters: the sweep's end-of-play notice asked
/// for the analyses) when there is none yet.
fn adjudication_of(
    tx: &Tx<'_>,
    g: &Game,
    state: &GameState,
) -> Result<Option<Adjudication>, OfficeError> {
    if let Some(a) = load_adjudication(tx, g)? {
        return Ok(Some(a));
    }
    Ok(adj::freeze(state, state.end).map(|s| s.adjudication))
}

fn evaluation_word(lang: Lang, s: Option<Score>) -> String {
    match (lang, s) {
        (_, None) => String::new(),
        (Lang::Ru, Some(Score::WhiteWins)) => "выигрыш белых".into(),
        (Lang::Ru, Some(Score::BlackWins)) => "выигрыш чёрных".into(),
        (Lang::Ru, Some(Score::Draw)) => "ничья".into(),
        (Lang::Ru, Some(Score::BothLose)) => "поражение обоим".into(),
        (Lang::En, Some(Score::WhiteWins)) => "White wins".into(),
        (Lang::En, Some(Score::BlackWins)) => "Black wins".into(),
        (Lang::En, Some(Score::Draw)) => "draw".into(),
        (Lang::En, Some(Score::BothLose)) => "both lose".into(),
    }
}

fn header(office: &Office, t: &Tournament, g: &Game, state: &GameState, to: &str) -> GameHeader {
    GameHeader {
        to_name: to.to_string(),
        cipher: t.cipher.clone(),
        tournament: t.name.clone(),
        game_no: g.number,
        white: state.players.white.name.clone(),
        black: state.players.black.name.clone(),
        federation: office.config.federation.clone(),
    }
}

fn package_ctx(
    office: &Office,
    t: &Tournament,
    g: &Game,
    state: &GameState,
    p: &adj::Package,
    due: NaiveDate,
) -> ctx::AdjudicationPackage {
    let lang = office.lang();
    let line = |side: Side| {
        let a = p.analyses[side].as_ref();
        ctx::AnalysisLine {
            name: state.players[side].name.clone(),
            evaluation: evaluation_word(lang, a.and_then(|a| a.evaluation)),
            text: a.map(|a| a.text.clone()).unwrap_or_default(),
            received: a.map(|a| fmt_date(a.received)).unwrap_or_default(),
            is_late: a.is_some_and(|a| a.is_late),
        }
    };
    ctx::AdjudicationPackage {
        game: header(office, t, g, state, ""),
        fen: p.fen.clone(),
        to_move: match (lang, p.side_to_move) {
            (Lang::Ru, Side::White) => "белых".to_string(),
            (Lang::Ru, Side::Black) => "чёрных".to_string(),
            (Lang::En, s) => side_word(lang, s).to_string(),
        },
        record: record_text(&p.record),
        white: line(Side::White),
        black: line(Side::Black),
        agreed: p
            .agreed
            .map(|s| format!("{} ({})", score_text(&s), evaluation_word(lang, Some(s))))
            .unwrap_or_default(),
        due: fmt_date(due),
        engine: None,
    }
}

/// Words and queues the adjudication's notices.
fn send_adjudication(
    office: &Office,
    tx: &Tx<'_>,
    t: &Tournament,
    g: &Game,
    state: &GameState,
    notices: &[adj::Notice],
    now: DateTime<Utc>,
) -> Result<(), OfficeError> {
    let lang = office.lang();
    let board = board_of(state);
    let a = load_adjudication(tx, g)?;
    let due = a.as_ref().map_or(state.end, |a| a.due);
    for n in notices {
        let (name, email) = match n.to {
            adj::To::Player(s) => (
                state.players[s].name.clone(),
                state.players[s].email.clone(),
            ),
            adj::To::Arbiter => (String::new(), office.config.arbiter.clone()),
            adj::To::Organiser => (String::new(), office.config.organiser().to_string()),
            adj::To::Secretary => (String::new(), office.config.secretary.clone()),
        };
        let to = [(name.clone(), email.clone())];
        match &n.kind {
            adj::NoticeKind::Request { due } => {
                let text = w(
                    lang,
                    format!(
                        "партия {} передана на присуждение (п. 10.5.2). Пришлите, пожалуйста, до {} оценку позиции и анализ («Анализ: … Оценка: …»).",
                        g.number,
                        fmt_date(*due)
                    ),
                    format!(
                        "game {} goes to adjudication (10.5.2). Please send your evaluation and analysis by {} (\"Analysis: … Evaluation: …\").",
                        g.number,
                        fmt_date(*due)
                    ),
                );
                let subject = game_subject(
                    lang,
                    t,
                    g.number,
                    "на присуждение (п. 10.5.2)",
                    "to adjudication (10.5.2)",
                );
                note(office, tx, &subject, &name, &email, &text, Some(g.id), now)?;
            }
            adj::NoticeKind::AnalysisReceived { is_late } => {
                let text = match (lang, is_late) {
                    (Lang::Ru, false) => format!(
                        "анализ партии {} получен и будет передан главному судье (п. 10.5.2).",
                        g.number
                    ),
                    (Lang::Ru, true) => format!(
                        "анализ партии {} получен после срока; он передан главному судье, но права на протест присуждения у вас нет (п. 10.5.6).",
                        g.number
                    ),
                    (Lang::En, false) => format!(
                        "your analysis of game {} is received and goes to the chief arbiter (10.5.2).",
                        g.number
                    ),
                    (Lang::En, true) => format!(
                        "your analysis of game {} came after the deadline; it goes to the chief arbiter, but you have no right to protest the adjudication (10.5.6).",
                        g.number
                    ),
                };
                let subject =
                    game_subject(lang, t, g.number, "анализ получен", "analysis received");
                note(office, tx, &subject, &name, &email, &text, Some(g.id), now)?;
            }
            adj::NoticeKind::Package(p) => {
                let mut c = package_ctx(office, t, g, state, p, due);
                // The engine's view beside the analyses (10.5.4), kept for `game show`.
                let note = super::engine::note_of(&office.config.engine, &office.tables, state);
                save_engine_note(tx, g, &note, now)?;
                c.engine = Some(super::engine::block_of(&note, state, p.agreed, lang));
                office.queue(
                    tx,
                    super::kinds::Outgoing::new(&super::kinds::ADJUDICATION_PACKAGE, to.to_vec())
                        .game(g.id)
                        .board(&board),
                    &c,
                    now,
                )?;
            }
            adj::NoticeKind::LateAnalysis { by, analysis } => {
                let text = w(
                    lang,
                    format!(
                        "партия {}: поздний анализ ({}, {}), оценка — {}:\n{}",
                        g.number,
                        state.players[*by].name,
                        fmt_date(analysis.received),
                        evaluation_word(lang, analysis.evaluation),
                        analysis.text
                    ),
                    format!(
                        "game {}: a late analysis ({}, {}), evaluation {}:\n{}",
                        g.number,
                        state.players[*by].name,
                        fmt_date(analysis.received),
                        evaluation_word(lang, analysis.evaluation),
                        analysis.text
                    ),
                );
                let subject =
                    game_subject(lang, t, g.number, "анализ после срока", "a late analysis");
                note(office, tx, &subject, "", &email, &text, Some(g.id), now)?;
            }
            adj::NoticeKind::Decision {
                ruling,
                may_protest,
                is_final,
            } => {
                let c = ctx::AdjudicationDecision {
                    game: header(office, t, g, state, &name),
                    result: score_text(&ruling.score),
                    note: ruling.note.clone(),
                    protest_until: fmt_date(ruling.protest_until),
                    may_protest: *may_protest,
                    is_final: *is_final,
                    is_player: matches!(n.to, adj::To::Player(_)),
                };
                office.queue(
                    tx,
                    super::kinds::Outgoing::new(&super::kinds::ADJUDICATION_DECISION, to.to_vec())
                        .game(g.id),
                    &c,
                    now,
                )?;
            }
            adj::NoticeKind::ProtestForwarded {
                protest,
                package,
                ruling,
            } => {
                let c = ctx::ProtestPapers {
                    game: header(office, t, g, state, ""),
                    player: state.players[protest.by].name.clone(),
                    against: w(lang, "присуждение".into(), "adjudication".into()),
                    text: protest.text.clone(),
                    received: fmt_date(protest.on),
                    until: fmt_date(ruling.protest_until),
                    record: record_text(&package.record),
                    fen: package.fen.clone(),
                    timechart: String::new(),
                    decided_by: w(
                        lang,
                        "Протест рассматривает организация, проводящая соревнование, и её решение окончательно (п. 10.5.7). Копия письма — главному судье; решение вносится его распоряжением «Результат: …» в ответ на это письмо.".into(),
                        "The protest is decided by the organisation that runs the tournament, and its decision is final (10.5.7). A copy goes to the chief arbiter; the decision is entered by his order \"Result: …\" in reply to this letter.".into(),
                    ),
                };
                // The organisation decides (10.5.7); the arbiter, whose ruling it is, gets
                // the same letter.
                let mut to = to.to_vec();
                if !office.config.arbiter.eq_ignore_ascii_case(&email) {
                    to.push((String::new(), office.config.arbiter.clone()));
                }
                office.queue(
                    tx,
                    super::kinds::Outgoing::new(&super::kinds::PROTEST_PAPERS, to.to_vec())
                        .game(g.id)
                        .board(&board),
                    &c,
                    now,
                )?;
            }
            adj::NoticeKind::ProtestAccepted => {
                let text = w(
                    lang,
                    format!(
                        "ваш протест по присуждению партии {} принят и передан для рассмотрения организации, проводящей соревнование (п. 10.5.7).",
                        g.number
                    ),
                    format!(
                        "your protest against the adjudication of game {} is accepted and passed on to the organiser (10.5.7).",
                        g.number
                    ),
                );
                let subject = game_subject(
                    lang,
                    t,
                    g.number,
                    "протест на присуждение принят (п. 10.5.7)",
                    "protest against the adjudication accepted (10.5.7)",
                );
                note(office, tx, &subject, &name, &email, &text, Some(g.id), now)?;
            }
            adj::NoticeKind::ProtestRefused { why } => {
                let text = match (lang, why) {
                    (Lang::Ru, adj::ProtestRefusal::NotDecided) => format!(
                        "по партии {} решения о присуждении ещё нет; протестовать пока нечего.",
                        g.number
                    ),
                    (Lang::Ru, adj::ProtestRefusal::Late) => format!(
                        "протест по партии {} прислан позже 10 дней после решения и не принят (п. 10.5.6).",
                        g.number
                    ),
                    (Lang::Ru, adj::ProtestRefusal::NoAnalysisInTime) => format!(
                        "ваш анализ партии {} не поступил в срок, поэтому протест не принят (п. 10.5.6).",
                        g.number
                    ),
                    (Lang::Ru, adj::ProtestRefusal::Final) => format!(
                        "по партии {} организация, проводящая соревнование, уже рассмотрела протест; её решение окончательно (п. 10.5.7).",
                        g.number
                    ),
                    (Lang::En, adj::ProtestRefusal::Final) => format!(
                        "in game {} the organisation that runs the tournament has decided a protest already; its decision is final (10.5.7).",
                        g.number
                    ),
                    (Lang::En, adj::ProtestRefusal::NotDecided) => format!(
                        "game {} is not adjudicated yet; there is nothing to protest.",
                        g.number
                    ),
                    (Lang::En, adj::ProtestRefusal::Late) => format!(
                        "the protest in game {} came more than 10 days after the decision and is not accepted (10.5.6).",
                        g.number
                    ),
                    (Lang::En, adj::ProtestRefusal::NoAnalysisInTime) => format!(
                        "your analysis of game {} did not come in time, so the protest is not accepted (10.5.6).",
                        g.number
                    ),
                };
                let subject = game_subject(
                    lang,
                    t,
                    g.number,
                    "протест не принят",
                    "protest not accepted",
                );
                note(office, tx, &subject, &name, &email, &text, Some(g.id), now)?;
            }
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn decide_adjudication(
    office: &Office,
    tx: &Tx<'_>,
    t: &Tournament,
    g: &Game,
    state: &GameState,
    score: Score,
    note_text: &str,
    day: NaiveDate,
    now: DateTime<Utc>,
) -> Result<(), OfficeError> {
    let Some(a) = adjudication_of(tx, g, state)? else {
        return Ok(());
    };
    let step = adj::decide(&a, score, note_text, day);
    save_adjudication(tx, g, &step.adjudication, now)?;
    let note = if note_text.is_empty() {
        "присуждение, п. 10.5.5".to_string()
    } else {
        format!("присуждение, п. 10.5.5: {note_text}")
    };
    let ruling = arbiter::set_result(state, score, &note, day);
    rule(office, tx, t, g, &ruling, day, now)?;
    send_adjudication(office, tx, t, g, &ruling.state, &step.notices, now)
}

/// Whether a game of the tournament is adjudicated and on `day` still open to a protest or
/// waiting for the organiser's decision on one (10.5.6, 10.5.7).
fn awaits_protest(tx: &Tx<'_>, t: TournamentId, day: NaiveDate) -> Result<bool, OfficeError> {
    for g in tx.games(t)? {
        if let Some(a) = load_adjudication(tx, &g)?
            && adj::is_open_to_protest(&a, day)
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The organiser's decision on a protest against an adjudication (10.5.7), entered by the
/// arbiter's «Результат: …»; `false` when no protest of the game waits for one.
#[allow(clippy::too_many_arguments)]
fn decide_protest(
    office: &Office,
    tx: &Tx<'_>,
    t: &Tournament,
    g: &Game,
    state: &GameState,
    score: Score,
    note_text: &str,
    day: NaiveDate,
    now: DateTime<Utc>,
) -> Result<bool, OfficeError> {
    let Some(step) =
        load_adjudication(tx, g)?.and_then(|a| adj::decide_protest(&a, score, note_text, day))
    else {
        return Ok(false);
    };
    save_adjudication(tx, g, &step.adjudication, now)?;
    let note = if note_text.is_empty() {
        adj::PROTEST_DECISION.to_string()
    } else {
        format!("{}: {note_text}", adj::PROTEST_DECISION)
    };
    let ruling = arbiter::set_result(state, score, &note, day);
    rule(office, tx, t, g, &ruling, day, now)?;
    send_adjudication(office, tx, t, g, &ruling.state, &step.notices, now)?;
    Ok(true)
}

fn evaluation_score(e: Evaluation) -> Score {
    match e {
        Evaluation::Draw => Score::Draw,
        Evaluation::White => Score::WhiteWins,
        Evaluation::Black => Score::BlackWins,
    }
}

/// A player's papers for the arbiter, before the judge sees the letter: an analysis for
/// adjudication (10.5.2), a protest against an overstep (10.3.8), a confirmed overstep or
/// another arbiter's result (10.1.12), or an adjudication (10.5.6). Returns the outcome when
/// the letter was such papers, `None` when the judge should read it.
///
/// # Errors
/// [`OfficeError`] from the store or the renderer.
#[allow(clippy::too_many_arguments)]
pub fn player_papers(
    office: &Office,
    tx: &Tx<'_>,
    mail: &ParsedMail,
    read: &letter::Letter,
    g: &Game,
    side: Side,
    received: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<Option<Outcome>, OfficeError> {
    let t = tx.tournament(g.tournament)?;
    let day = received.with_timezone(&tz_of(&t)).date_naive();
    let state = state_of(g)?;
    let lang = office.lang();
    let adjudicated = load_adjudication(tx, g)?;
    let in_adjudication = state.status == Status::Adjudication || adjudicated.is_some();
    if in_adjudication
        && (read.analysis.is_some() || read.evaluation.is_some())
        && read.protest.is_none()
    {
        let Some(a) = adjudication_of(tx, g, &state)? else {
            return Ok(None);
        };
        let text = read
            .analysis
            .clone()
            .unwrap_or_else(|| letter::own_text(&mail.text));
        let step = adj::receive_analysis(
            &a,
            &state,
            side,
            &text,
            read.evaluation.map(evaluation_score),
            day,
        );
        save_adjudication(tx, g, &step.adjudication, now)?;
        send_adjudication(office, tx, &t, g, &state, &step.notices, now)?;
        return Ok(Some(Outcome::Judged { game: g.id }));
    }
    let Some(text) = &read.protest else {
        return Ok(None);
    };
    if let Some(a) = adjudicated.filter(|a| a.ruling.is_some()) {
        let step = adj::protest(&a, &state, side, text, day);
        save_adjudication(tx, g, &step.adjudication, now)?;
        send_adjudication(office, tx, &t, g, &state, &step.notices, now)?;
        return Ok(Some(Outcome::Judged { game: g.id }));
    }
    // An overstep before the arbiter (10.3.8) or the arbiter's result (10.1.12).
    let (against, since) = match (&state.status, &state.result) {
        (Status::Suspended { since, .. }, _) => {
            (w(lang, "просрочку".into(), "overstep".into()), *since)
        }
        (_, Some(r))
            if matches!(
                r.how,
                game::Ending::Overstep { .. } | game::Ending::Arbiter { .. }
            ) =>
        {
            (
                w(
                    lang,
                    "решение главного судьи".into(),
                    "arbiter's decision".into(),
                ),
                r.on,
            )
        }
        _ => return Ok(None),
    };
    let me = &state.players[side];
    let until = since + chrono::Days::new(adj::PROTEST_DAYS);
    if !adj::is_protest_in_time(since, day) {
        let text = w(
            lang,
            format!(
                "протест по партии {} получен {}, а срок протеста истёк {} (10 дней, пп. 10.1.12, 10.3.8); протест не принят.",
                g.number,
                fmt_date(day),
                fmt_date(until)
            ),
            format!(
                "your protest in game {} came on {}, after the 10-day window closed on {} (10.1.12, 10.3.8); it is not accepted.",
                g.number,
                fmt_date(day),
                fmt_date(until)
            ),
        );
        let subject = game_subject(
            lang,
            &t,
            g.number,
            "протест не принят (п. 10.3.8)",
            "protest not accepted (10.3.8)",
        );
        note(
            office,
            tx,
            &subject,
            &me.name,
            &me.email,
            &text,
            Some(g.id),
            now,
        )?;
        return Ok(Some(Outcome::Judged { game: g.id }));
    }
    let settings = office.settings(&t);
    let chart = state.time_chart(&settings, day);
    let labels = match lang {
        Lang::Ru => crate::clock::ChartLabels::ru(),
        Lang::En => crate::clock::ChartLabels::en(),
    };
    let c = ctx::ProtestPapers {
        game: header(office, &t, g, &state, ""),
        player: me.name.clone(),
        against,
        text: text.clone(),
        received: fmt_date(day),
        until: fmt_date(until),
        record: record_text(&state.record()),
        fen: state.fen(),
        timechart: chart.to_text(&labels),
        decided_by: w(
            lang,
            "Протест рассматривает главный судья (п. 10.3.8); решение направляется обоим партнёрам и главному секретарю.".into(),
            "The chief arbiter decides the protest (10.3.8); the decision goes to both players and the chief secretary.".into(),
        ),
    };
    let player_id = match side {
        Side::White => g.white,
        Side::Black => g.black,
    };
    let attachments = tx
        .letters_of(g.id, player_id)?
        .into_iter()
        .map(|l| {
            (
                format!("letter-{}.eml", l.id.0),
                "message/rfc822".to_string(),
                l.raw,
            )
        })
        .collect();
    let arbiter_addr = office.config.arbiter.clone();
    office.queue(
        tx,
        super::kinds::Outgoing::new(
            &super::kinds::PROTEST_PAPERS,
            vec![(String::new(), arbiter_addr)],
        )
        .game(g.id)
        .board(&board_of(&state))
        .attach(attachments),
        &c,
        now,
    )?;
    let ack = w(
        lang,
        format!(
            "ваш протест по партии {} получен в срок и передан главному судье вместе с материалами партии (п. 10.3.8).",
            g.number
        ),
        format!(
            "your protest in game {} came in time and went to the chief arbiter with the game's papers (10.3.8).",
            g.number
        ),
    );
    let subject = game_subject(
        lang,
        &t,
        g.number,
        "протест получен (п. 10.3.8)",
        "protest received (10.3.8)",
    );
    note(
        office,
        tx,
        &subject,
        &me.name,
        &me.email,
        &ack,
        Some(g.id),
        now,
    )?;
    Ok(Some(Outcome::Judged { game: g.id }))
}

/// Sends the arbiter the package of every game whose analyses are due (10.5.5: with
/// whatever came). Safe to repeat: a package goes once. Returns how many went.
///
/// # Errors
/// [`OfficeError`] from the store or the renderer.
pub fn sweep_adjudications(
    office: &Office,
    tx: &Tx<'_>,
    now: DateTime<Utc>,
) -> Result<usize, OfficeError> {
    let mut sent = 0;
    for g in tx.games_with_status(GameStatus::Adjudication)? {
        let t = tx.tournament(g.tournament)?;
        let day = office.today(now, Some(&t));
        let state = state_of(&g)?;
        let Some(a) = adjudication_of(tx, &g, &state)? else {
            continue;
        };
        let step = adj::sweep(&a, &state, day);
        if step.notices.is_empty() {
            continue;
        }
        save_adjudication(tx, &g, &step.adjudication, now)?;
        send_adjudication(office, tx, &t, &g, &state, &step.notices, now)?;
        sent += 1;
    }
    Ok(sent)
}

/// A game, its state, and white's and black's start numbers.
type Numbered = (Game, GameState, u32, u32);

/// The games of a tournament with their players' start numbers (the order the players were
/// registered in, as the pairings use them), and the players' names in that order.
fn entries(tx: &Tx<'_>, t: &Tournament) -> Result<(Vec<Numbered>, Vec<Player>), OfficeError> {
    let players = tx.players(t.id)?;
    let number = |id| {
        players
            .iter()
            .position(|p| p.id == id)
            .map_or(0, |i| i as u32 + 1)
    };
    let mut out = Vec::new();
    for g in tx.games(t.id)? {
        let st = state_of(&g)?;
        let (w, b) = (number(g.white), number(g.black));
        out.push((g, st, w, b));
    }
    Ok((out, players))
}

fn table_text(
    lang: Lang,
    games: &[Numbered],
    players: &[Player],
    settings: &crate::tournament::StandingsSettings,
) -> String {
    use crate::tournament::{CrosstableLabels, digest, standings};
    let results: Vec<_> = games
        .iter()
        .map(|(_, st, w, b)| {
            digest::table_result(&digest::Entry {
                white: *w,
                black: *b,
                state: st,
            })
        })
        .collect();
    let table = standings(players.len() as u32, &results, settings);
    let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    let labels = match lang {
        Lang::Ru => CrosstableLabels::ru(),
        Lang::En => CrosstableLabels::en(),
    };
    table.to_text(&names, &labels)
}

/// The weekly digest (10.1.8) of a tournament: the table, who is on a break, which games
/// wait for whom; to every participant and the secretary. Returns how many letters went.
///
/// # Errors
/// [`OfficeError::Refused`] for an unknown tournament; store and renderer errors.
pub fn weekly(
    office: &Office,
    tx: &Tx<'_>,
    cipher: &str,
    now: DateTime<Utc>,
) -> Result<usize, OfficeError> {
    use crate::tournament::digest::{self, Waits};
    let t = tx
        .find_tournament(cipher)?
        .ok_or_else(|| OfficeError::Refused(format!("no tournament '{cipher}'")))?;
    let lang = office.lang();
    let day = office.today(now, Some(&t));
    let (games, players) = entries(tx, &t)?;
    let mut breaks: Vec<ctx::OnBreak> = Vec::new();
    let mut waiting = Vec::new();
    for (g, st, _, _) in &games {
        for (side, b) in digest::breaks_on(st, day) {
            let name = st.players[side].name.clone();
            let range = b.effective().unwrap_or(b.range);
            if !breaks.iter().any(|x| x.name == name) {
                breaks.push(ctx::OnBreak {
                    name,
                    from: fmt_date(range.from),
                    to: fmt_date(range.to),
                    is_special: b.kind == crate::clock::BreakKind::Special,
                });
            }
        }
        if let Some(wait) = digest::waits_for(st) {
            let (waits_for, status) = match (lang, wait) {
                (_, Waits::Player(s)) => (
                    st.players[s].name.clone(),
                    w(lang, "игра".into(), "in play".into()),
                ),
                (Lang::Ru, Waits::ArbiterOnOverstep) => (
                    "главного судью".into(),
                    "приостановлена (просрочка, п. 10.3.6)".into(),
                ),
                (Lang::En, Waits::ArbiterOnOverstep) => (
                    "the chief arbiter".into(),
                    "suspended (overstep, 10.3.6)".into(),
                ),
                (Lang::Ru, Waits::Adjudication) => {
                    (String::new(), "на присуждении (п. 10.5.2)".into())
                }
                (Lang::En, Waits::Adjudication) => (String::new(), "adjudication (10.5.2)".into()),
            };
            waiting.push(ctx::Waiting {
                game_no: g.number,
                white: st.players.white.name.clone(),
                black: st.players.black.name.clone(),
                waits_for,
                status,
            });
        }
    }
    let finished = games
        .iter()
        .filter(|(_, st, _, _)| st.is_finished())
        .count() as u32;
    let table = table_text(lang, &games, &players, &office.standings_settings(&t));
    let mut to: Vec<(String, String)> = players
        .iter()
        .map(|p| (p.name.clone(), p.email.clone()))
        .collect();
    to.push((String::new(), office.config.secretary.clone()));
    for (name, email) in &to {
        let c = ctx::WeeklyDigest {
            to_name: name.clone(),
            cipher: t.cipher.clone(),
            tournament: t.name.clone(),
            day: fmt_date(day),
            table: table.clone(),
            finished,
            total: games.len() as u32,
            breaks: breaks.clone(),
            waiting: waiting.clone(),
            federation: office.config.federation.clone(),
        };
        office.queue(
            tx,
            super::kinds::Outgoing::new(
                &super::kinds::WEEKLY_DIGEST,
                vec![(name.clone(), email.clone())],
            ),
            &c,
            now,
        )?;
    }
    Ok(to.len())
}

/// The final report for the organiser (10.1.7): the table, every game with its result,
/// the decisions and penalties, and the PDN of every game attached; to the arbiter and the
/// secretary. Returns the PDN file of all the games.
///
/// # Errors
/// [`OfficeError::Refused`] for an unknown tournament; store and renderer errors.
pub fn final_report(
    office: &Office,
    tx: &Tx<'_>,
    cipher: &str,
    now: DateTime<Utc>,
) -> Result<String, OfficeError> {
    use crate::tournament::digest;
    let t = tx
        .find_tournament(cipher)?
        .ok_or_else(|| OfficeError::Refused(format!("no tournament '{cipher}'")))?;
    let lang = office.lang();
    let (games, players) = entries(tx, &t)?;
    let mut report_games = Vec::new();
    let mut decisions = Vec::new();
    let mut penalties = Vec::new();
    let mut pdn = String::new();
    for (g, st, _, _) in &games {
        report_games.push(ctx::ReportGame {
            game_no: g.number,
            white: st.players.white.name.clone(),
            black: st.players.black.name.clone(),
            result: st
                .result
                .as_ref()
                .map(|r| score_text(&r.score))
                .unwrap_or_default(),
            how: st
                .result
                .as_ref()
                .map(|r| super::words::ending(lang, &r.how, st.variant))
                .unwrap_or_default(),
        });
        for d in tx.decisions_of(g.id)? {
            // the stored papers and the engine's view are no decisions of the arbiter
            if d.text != ADJUDICATION && d.text != ENGINE_NOTE {
                decisions.push(format!(
                    "{} {} ({}): {}",
                    w(lang, "партия".into(), "game".into()),
                    g.number,
                    d.at.format("%d.%m.%Y"),
                    d.text
                ));
            }
        }
        for p in st.penalties.iter().filter(|p| !p.is_cancelled) {
            penalties.push(format!(
                "{} {}, {}: {} ({}{}), {} — {}",
                w(lang, "партия".into(), "game".into()),
                g.number,
                st.players[p.side].name,
                signed_count(lang, i64::from(p.days), Noun::Day),
                w(lang, "п. ".into(), String::new()),
                p.clause,
                fmt_date(p.on),
                super::words::recorded_reason(lang, &p.reason)
            ));
        }
    }
    let mut in_pdn: Vec<&GameState> = games.iter().map(|(_, st, _, _)| st).collect();
    in_pdn.sort_by_key(|st| digest::pdn_order(st));
    for st in in_pdn {
        pdn.push_str(&digest::pdn(st, &t.cipher));
        pdn.push('\n');
    }
    let table = table_text(lang, &games, &players, &office.standings_settings(&t));
    for (name, email) in [
        (String::new(), office.config.arbiter.clone()),
        (String::new(), office.config.secretary.clone()),
    ] {
        let c = ctx::FinalReport {
            to_name: name.clone(),
            cipher: t.cipher.clone(),
            tournament: t.name.clone(),
            start: fmt_date(t.start),
            end: fmt_date(t.end),
            table: table.clone(),
            games: report_games.clone(),
            decisions: decisions.clone(),
            penalties: penalties.clone(),
            federation: office.config.federation.clone(),
        };
        office.queue(
            tx,
            super::kinds::Outgoing::new(&super::kinds::FINAL_REPORT, vec![(name, email)]).attach(
                vec![(
                    format!("{}.pdn", t.cipher),
                    "text/plain".to_string(),
                    pdn.clone().into_bytes(),
                )],
            ),
            &c,
            now,
        )?;
    }
    Ok(pdn)
}
/// What the reports' sweep has looked at in this process: the moment of its last look (a
/// tournament none of whose games changed since cannot have become over) and the time zones
/// whose tournaments have all been looked at on their Monday of a week (the weekly digest).
/// A new process looks at everything once.
#[derive(Clone, Debug, Default)]
pub struct ReportsSeen {
    looked_at: Option<DateTime<Utc>>,
    /// (the week's digest key, the zone).
    digests: std::collections::BTreeSet<(String, String)>,
}

/// A game changed this long before the last look is looked at again: the system clock may
/// step back a little between two passes.
const LOOK_BACK: chrono::TimeDelta = chrono::TimeDelta::minutes(10);

/// The periodic letters of every tournament in play, each exactly once: the weekly digest
/// on Mondays (10.1.8), and the final report once every game is over (10.1.7). Only the
/// tournaments whose games changed since the last look are read, and once a week, on its
/// Monday, every tournament of a zone: a pass with nothing to report costs the same at any
/// number of games (issue 14). Returns how many went and what to remember for the next pass.
///
/// # Errors
/// [`OfficeError`] from the store or the renderer.
/// The Monday of `day`'s week.
fn monday_of(day: NaiveDate) -> NaiveDate {
    use chrono::Datelike;
    day - chrono::Days::new(u64::from(day.weekday().num_days_from_monday()))
}

/// Whether the weekly digest of a tournament that started on `start` is due on `day`.
///
/// It is due on Monday. A digest missed on Monday (zaochka was down) goes on the first
/// pass later in the same week, once: one catch-up digest, never one per missed week,
/// as the ledger of fired notices is keyed by the ISO week. The first Monday of play is
/// not caught up: that digest would say no more than the start list did.
fn digest_due(day: NaiveDate, start: NaiveDate) -> bool {
    use chrono::Datelike;
    let monday = monday_of(day);
    let first_monday =
        start + chrono::Days::new(u64::from((7 - start.weekday().num_days_from_monday()) % 7));
    day >= start && (day == monday || monday > first_monday)
}

pub fn sweep_reports(
    office: &Office,
    tx: &Tx<'_>,
    seen: &ReportsSeen,
    now: DateTime<Utc>,
) -> Result<(usize, ReportsSeen), OfficeError> {
    use chrono::Datelike;
    let week_key = |day: NaiveDate| {
        let week = day.iso_week();
        format!("weekly_digest:{}-W{:02}", week.year(), week.week())
    };
    let mut next = seen.clone();
    next.looked_at = Some(now);
    let mut ids: std::collections::BTreeSet<TournamentId> = match seen.looked_at {
        None => tx.tournaments()?.into_iter().map(|t| t.id).collect(),
        Some(at) => tx
            .tournaments_changed_since(at - LOOK_BACK)?
            .into_iter()
            .collect(),
    };
    // Every zone whose tournaments have not had this week's look: on Monday for the
    // digest, later in the week for a digest missed while zaochka was down.
    let mut keys = Vec::new();
    for zone in tx.tournament_zones()? {
        let tz = Tz::from_str(&zone).unwrap_or(chrono_tz::Europe::Moscow);
        let day = now.with_timezone(&tz).date_naive();
        let key = (week_key(day), zone);
        if !seen.digests.contains(&key) {
            ids.extend(tx.tournaments_in_zone(&key.1)?);
            keys.push(key);
        }
    }
    let mut sent = 0;
    for id in ids {
        let t = tx.tournament(id)?;
        if t.status == TournamentStatus::Registration {
            continue;
        }
        // The ledger of fired notices is kept per game: the first game stands for the
        // tournament.
        let Some(first) = tx.first_game(t.id)? else {
            continue;
        };
        let day = office.today(now, Some(&t));
        if tx.tournament_is_over(t.id)? {
            // The table is final only when no adjudication may still be protested or
            // waits for the organiser's decision (10.5.6, 10.5.7).
            let reported = tx
                .notices_of(first)?
                .iter()
                .any(|n| n.kind == "final_report");
            if reported || awaits_protest(tx, t.id, day)? {
                continue;
            }
            if tx.fire_notice_once(first, "final_report", t.end, None, now)? {
                final_report(office, tx, &t.cipher, now)?;
                sent += 1;
            }
        } else if digest_due(day, t.start)
            && tx.fire_notice_once(first, &week_key(day), monday_of(day), None, now)?
        {
            if day.weekday() != chrono::Weekday::Mon {
                tracing::info!(
                    tournament = %t.cipher,
                    day = %day,
                    "the weekly digest missed on Monday goes now"
                );
            }
            sent += weekly(office, tx, &t.cipher, now)?;
        }
    }
    // Only this week's looks are worth remembering.
    let weeks: std::collections::BTreeSet<String> = keys.iter().map(|(w, _)| w.clone()).collect();
    next.digests
        .retain(|(w, _)| weeks.is_empty() || weeks.contains(w));
    next.digests.extend(keys);
    Ok((sent, next))
}
