//! The post office: the synchronous heart of the daemon. One incoming letter is handled in
//! one store transaction — stored raw, read, routed to its game, judged, and every state
//! change and outgoing letter queued together, or nothing. The clock's deadlines fire from
//! the stored state ([`Office::sweep`]), and a tournament starts with its start lists
//! ([`Office::start_tournament`]).
//!
//! No network here: the [`crate::daemon`] fetches and sends around it, and the CLI calls it
//! directly. Knows the domain modules, the store and the renderer; mail only as bytes and
//! [`crate::mail::mime`].
//!
//! Routing a letter (in this order):
//! 1. unreadable as a message, or not exactly one `From` mailbox → set aside with the reason
//!    (two `From` fields or a `From` list are never a command nor a move);
//! 2. automatic mail (bounces, auto-replies, lists) and zaochka's own letters → ignored,
//!    never answered (no mail loops);
//! 3. the sender not proven ([`crate::mail::auth`], `[auth]` in the config; a player of an
//!    `unsigned_domains` domain on the address alone, never an official) → set aside, moves
//!    nothing; a registered player or official gets one notice a day at most, an unknown
//!    address no answer at all;
//! 4. the arbiter's or secretary's address → [`commands`];
//! 5. an address no tournament knows → kept, and one short notice a day at most;
//! 6. the game: a reply to zaochka's letter (In-Reply-To/References), else the cipher and
//!    game number, else the number alone, else the partner's surname, else the sender's only
//!    unfinished game; none or several → a polite refusal naming the sender's games;
//! 7. a game that is not the sender's → refused (only a game's own players move in it);
//! 8. a break announcement (10.4) → recorded in all the sender's unfinished games;
//! 9. the judge ([`crate::game::judge`]) → the new state and the notices, worded and queued.

pub mod commands;
pub mod engine;
mod import;
pub mod kinds;
pub use import::Imported;
pub use roster::AddressChange;
mod roster;
pub mod settings;
mod words;

use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};

use chrono::{DateTime, NaiveDate, Utc};
use chrono_tz::Tz;
use serde::Serialize;

use crate::clock::ClockSettings;
use crate::config::{Config, Language};
use crate::game::{self, GameState, Notice, NoticeKind, Recipient, Side};
use crate::letter::{self, ReadContext};
use crate::mail::IncomingMail;
use crate::mail::auth::Authentication;
use crate::mail::mime::{self, ParsedMail};
use crate::render::letters::{self as out, GameHeader};
use crate::render::mime::Envelope;
use crate::render::{Board, Lang, RenderError, Templates};
use crate::rules::Position;
use crate::store::{
    Game, GameId, GameStatus, GameUpdate, LetterInId, NewGame, NewLetterIn, NewLetterOut, Outcome,
    Player, Processed, Store, StoreError, Tournament, TournamentStatus, Tx,
};
use kinds::Outgoing;

/// What went wrong while handling a letter or a deadline. A player's mistake is never one of
/// these: it is an answer to the player.
#[derive(Debug, thiserror::Error)]
pub enum OfficeError {
    /// The database.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Wording or building a letter.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// A stored game state that does not read back.
    #[error("game state of game {game}: {source}")]
    State {
        /// The game's id.
        game: i64,
        /// Why.
        source: serde_json::Error,
    },
    /// Something the organiser asked for that cannot be done.
    #[error("{0}")]
    Refused(String),
}

/// Who a command letter is from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The chief arbiter (главный судья).
    Arbiter,
    /// The chief secretary (главный секретарь).
    Secretary,
}

/// What became of one incoming letter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Handled {
    /// Handled now: the stored letter's id and what became of it.
    New {
        /// The stored letter.
        id: LetterInId,
        /// Judged, set aside (why) or ignored (why).
        outcome: Outcome,
    },
    /// Already handled before (the same mailbox id, or the same Message-ID and sender):
    /// nothing was done.
    Seen(LetterInId),
}

/// The post office: configuration and wording.
pub struct Office {
    /// The configuration.
    pub config: Config,
    /// The wording of outgoing letters.
    pub templates: Templates,
    /// The engine's endgame tables, read from `[engine] tables` when first needed.
    tables: engine::TableCache,
    /// What the reports' sweep already looked at in this process, so that a pass with
    /// nothing due does not read every tournament (issue 14).
    reports: std::sync::Mutex<commands::ReportsSeen>,
}

/// Distinguishes Message-IDs made by one process in the same microsecond.
static SEQUENCE: AtomicU64 = AtomicU64::new(0);

/// The address as lettre can write it in a To header and read it back for the envelope
/// (lettre takes an address literal as an address but not in a header).
fn answerable(email: &str) -> Result<lettre::Address, String> {
    let addr: lettre::Address = email.parse().map_err(|e| format!("{e}"))?;
    match email.parse::<lettre::message::Mailbox>() {
        Ok(m) if m.email == addr => Ok(addr),
        Ok(_) => Err("the address does not read back the same".into()),
        Err(e) => Err(format!("{e}")),
    }
}

/// A Message-ID for a new outgoing letter: `KIND.GAME.MICROS.SEQ.RANDOM@DOMAIN`. The kind and
/// game keep it readable (and searchable: `forward.`); 64 random bits make it unique across
/// processes, restarts and restored backups even at the same `--now`. It is made once, when
/// the letter is queued, and stored with it: every resend carries the same id.
fn new_message_id(
    template: &str,
    game: Option<GameId>,
    now: DateTime<Utc>,
    address: &str,
) -> String {
    use std::hash::{BuildHasher, Hasher};
    let domain = address
        .rsplit_once('@')
        .map(|(_, d)| d)
        .filter(|d| !d.is_empty())
        .unwrap_or("zaochka.invalid");
    let seq = SEQUENCE.fetch_add(1, Ordering::Relaxed);
    // std's RandomState is seeded from the operating system's randomness for each process
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(seq);
    hasher.write_u32(std::process::id());
    let random = hasher.finish();
    format!(
        "{template}.{}.{}.{seq}.{random:016x}@{domain}",
        game.map(|g| g.0).unwrap_or(0),
        now.timestamp_micros()
    )
}

impl Office {
    /// An office with the built-in wording.
    pub fn new(config: Config) -> Office {
        Office::with_templates(config, Templates::builtin())
    }

    /// An office with this wording (the built-in one with the config's `templates` folder
    /// over it: [`Templates::load`]).
    pub fn with_templates(config: Config, templates: Templates) -> Office {
        Office {
            config,
            templates,
            tables: engine::TableCache::default(),
            reports: std::sync::Mutex::default(),
        }
    }

    fn lang(&self) -> Lang {
        match self.config.language {
            Language::En => Lang::En,
            _ => Lang::Ru,
        }
    }

    /// Handles one incoming letter, exactly once, with what the sender check
    /// ([`crate::mail::auth::Verifier::verify`]) found; that is kept with the letter.
    ///
    /// # Errors
    /// [`OfficeError`] when the store or the renderer fails; nothing is then kept and the
    /// letter stays in the mailbox to be tried again.
    pub fn handle(
        &self,
        store: &mut Store,
        mail: &IncomingMail,
        auth: &Authentication,
        now: DateTime<Utc>,
    ) -> Result<Handled, OfficeError> {
        // A letter over the limit is kept whole but only its head is read: who sent it and
        // whether it is automatic mail, enough to answer it.
        let oversize = mail.raw.len() > self.config.limits.letter_bytes;
        let parsed = if oversize {
            mime::parse_head(&mail.raw)
        } else {
            mime::parse(&mail.raw)
        };
        let transport_id = mail.id.to_string();
        let (sender, message_id, subject) = match &parsed {
            Ok(p) => (
                p.from
                    .as_ref()
                    .map(|m| m.address.to_ascii_lowercase())
                    .unwrap_or_default(),
                p.message_id.clone(),
                p.subject.clone(),
            ),
            Err(_) => (String::new(), None, String::new()),
        };
        let new = NewLetterIn {
            transport_id: &transport_id,
            message_id: message_id.as_deref(),
            sender: &sender,
            subject: &subject,
            received: mail.received,
            raw: &mail.raw,
        };
        let done = store.process_letter(&new, now, |tx, id| {
            tx.record_auth(id, &auth.to_json())?;
            let outcome = if oversize {
                self.too_large(tx, id, parsed, auth, mail.raw.len(), now)?
            } else {
                self.route(tx, id, parsed, auth, mail.received, now)?
            };
            Ok::<_, OfficeError>((outcome.clone(), outcome))
        })?;
        Ok(match done {
            Processed::New { id, value } => Handled::New { id, outcome: value },
            Processed::Seen(id) => Handled::Seen(id),
        })
    }

    fn route(
        &self,
        tx: &Tx<'_>,
        id: LetterInId,
        parsed: Result<ParsedMail, mime::MimeError>,
        auth: &Authentication,
        received: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<Outcome, OfficeError> {
        let p = match parsed {
            Ok(p) => p,
            Err(e) => {
                return Ok(Outcome::SetAside {
                    game: None,
                    reason: format!("not a readable message: {e}"),
                });
            }
        };
        if p.from_count > 1 {
            return Ok(Outcome::SetAside {
                game: None,
                reason: format!(
                    "{} From addresses: a letter with several senders is never a command nor a move",
                    p.from_count
                ),
            });
        }
        let Some(from) = p.from.as_ref().map(|m| m.address.to_ascii_lowercase()) else {
            return Ok(Outcome::SetAside {
                game: None,
                reason: "no sender address".into(),
            });
        };
        if let Some(reason) = &p.automatic {
            return Ok(Outcome::Ignored {
                reason: format!("automatic mail ({reason:?}): never answered"),
            });
        }
        if from.eq_ignore_ascii_case(&self.config.address) {
            return Ok(Outcome::Ignored {
                reason: "zaochka's own letter".into(),
            });
        }
        let thread = self.thread_game(tx, &p)?;
        let role = if from.eq_ignore_ascii_case(&self.config.arbiter) {
            Some(Role::Arbiter)
        } else if from.eq_ignore_ascii_case(&self.config.secretary) {
            Some(Role::Secretary)
        } else {
            None
        };
        let me = match role {
            Some(_) => Vec::new(),
            None => tx.players_by_email(&from)?,
        };
        if !self.is_proven(auth, &from, role.is_some(), !me.is_empty()) {
            return self.unproven(tx, id, &p, &from, role, &me, auth, thread, now);
        }
        if let Some(role) = role {
            return commands::handle(self, tx, id, &p, role, thread, now);
        }
        if me.is_empty() {
            let day = self.today(now, None);
            if tx.courtesy_once(&from, day, now)? {
                let ctx = out::UnknownSender {
                    sender: from.clone(),
                    federation: self.config.federation.clone(),
                };
                self.queue(
                    tx,
                    Outgoing::new(&kinds::UNKNOWN_SENDER, vec![(String::new(), from.clone())])
                        .answering(Some((id, &p))),
                    &ctx,
                    now,
                )?;
            }
            return Ok(Outcome::SetAside {
                game: None,
                reason: "unknown sender".into(),
            });
        }
        // Year-less dates take the letter's year: its Date header, else the postmark.
        let postmark = received
            .with_timezone(&self.config.time_zone)
            .fixed_offset();
        let letter = letter::read(
            &p.text,
            &ReadContext {
                from: Some(from.clone()),
                subject: Some(p.subject.clone()),
                date: p.date.or(Some(postmark)),
            },
        );
        if !letter.has_content() {
            // Vacation replies without any auto-reply field look like this too: one answer a
            // day at most, or two robots would write to each other all day.
            if !tx.courtesy_once(&from, self.today(now, None), now)? {
                return Ok(Outcome::SetAside {
                    game: None,
                    reason: "no move or other business found in the letter; not answered \
                             (one such answer a day)"
                        .into(),
                });
            }
            let problems: Vec<String> = letter
                .problems
                .iter()
                .map(|pr| match (self.lang(), pr.clause()) {
                    (Lang::Ru, Some(c)) => format!("{} (п. {c})", pr.text_ru()),
                    (Lang::Ru, None) => pr.text_ru(),
                    (Lang::En, Some(c)) => format!("{pr} ({c})"),
                    (Lang::En, None) => pr.to_string(),
                })
                .collect();
            let reason = words::nothing_read(self.lang(), &problems);
            let subject = self.refusal_subject(tx, &me, &letter)?;
            self.refuse(tx, &me[0], &from, &subject, &reason, id, &p, now)?;
            return Ok(Outcome::SetAside {
                game: None,
                reason: "no move or other business found in the letter".into(),
            });
        }
        if let Some(b) = &letter.break_ {
            let day = self.today(received, None);
            let told = self.record_break(tx, &me, b, day, (id, &p), now)?;
            let has_more = !letter.moves.is_empty()
                || !letter.repeated.is_empty()
                || letter.draw.is_some()
                || letter.resign
                || letter.board_from.is_some();
            if !has_more {
                return Ok(Outcome::SetAside {
                    game: None,
                    reason: format!("a break announcement, recorded in {told} game(s)"),
                });
            }
        }
        let game = match self.find_game(tx, &me, &letter, thread)? {
            Found::One(g) => g,
            Found::NotYours(g) => {
                let reason = words::not_your_game(self.lang(), g.number);
                let cipher = tx.tournament(g.tournament)?.cipher;
                let subject = words::refused_subject(self.lang(), &[cipher], Some(g.number));
                self.refuse(tx, &me[0], &from, &subject, &reason, id, &p, now)?;
                return Ok(Outcome::SetAside {
                    game: Some(g.id),
                    reason: format!("game {} is not the sender's", g.number),
                });
            }
            Found::Unknown(mine) => {
                let reason = words::which_game(self.lang(), &mine);
                let subject = self.refusal_subject(tx, &me, &letter)?;
                self.refuse(tx, &me[0], &from, &subject, &reason, id, &p, now)?;
                return Ok(Outcome::SetAside {
                    game: None,
                    reason: "the game could not be found".into(),
                });
            }
        };
        let t = tx.tournament(game.tournament)?;
        let tz = tz_of(&t);
        let received_day = received.with_timezone(&tz).date_naive();
        let player_id = if me.iter().any(|m| m.id == game.white) {
            game.white
        } else {
            game.black
        };
        let side = if player_id == game.white {
            Side::White
        } else {
            Side::Black
        };
        // Read after any break was recorded, so the judge sees it.
        let game = tx.game(game.id)?;
        // Analyses, and protests against the arbiter's decisions, go to the arbiter (issue 6).
        if let Some(outcome) =
            commands::player_papers(self, tx, &p, &letter, &game, side, received, now)?
        {
            return Ok(outcome);
        }
        let state: GameState = state_of(&game)?;
        let settings = self.settings(&t);

        let verdict = game::judge(
            &state,
            &letter,
            &game::Envelope {
                sender: side,
                received: received_day,
                letter: id.0.to_string(),
            },
            &settings,
        );
        self.save(tx, &game, &verdict.state, received_day, &settings, now)?;
        self.send_notices(
            tx,
            &t,
            &game,
            &verdict.state,
            &verdict.notices,
            Some((id, &p, side)),
            now,
        )?;
        Ok(Outcome::Judged { game: game.id })
    }

    /// A letter larger than `[limits] letter_bytes`, of which only the head was read: kept,
    /// never judged; its sender (unless it is automatic mail or zaochka's own) is told, once a
    /// day at most, to send the moves as a short text letter.
    fn too_large(
        &self,
        tx: &Tx<'_>,
        id: LetterInId,
        parsed: Result<ParsedMail, mime::MimeError>,
        auth: &Authentication,
        bytes: usize,
        now: DateTime<Utc>,
    ) -> Result<Outcome, OfficeError> {
        let limit = self.config.limits.letter_bytes;
        let reason = format!("{bytes} bytes, more than limits.letter_bytes = {limit}: not read");
        let set_aside = |why: &str| Outcome::SetAside {
            game: None,
            reason: format!("{reason}; {why}"),
        };
        let Ok(p) = parsed else {
            return Ok(set_aside("no readable head, not answered"));
        };
        let Some(from) = p.from.as_ref().map(|m| m.address.to_ascii_lowercase()) else {
            return Ok(set_aside("no sender address, not answered"));
        };
        if let Some(auto) = &p.automatic {
            return Ok(Outcome::Ignored {
                reason: format!("{reason}; automatic mail ({auto:?}): never answered"),
            });
        }
        if from.eq_ignore_ascii_case(&self.config.address) {
            return Ok(Outcome::Ignored {
                reason: format!("{reason}; zaochka's own letter"),
            });
        }
        // Like every other answer: an unknown address whose letter proves nothing is most
        // likely forged, and is never written to (no backscatter).
        let is_official = from.eq_ignore_ascii_case(&self.config.arbiter)
            || from.eq_ignore_ascii_case(&self.config.secretary);
        let me = tx.players_by_email(&from)?;
        if !is_official && me.is_empty() && !auth.is_pass() {
            return Ok(set_aside(&format!(
                "unknown sender, not proven ({}): not answered",
                auth.summary()
            )));
        }
        if !tx.courtesy_once(&from, self.today(now, None), now)? {
            return Ok(set_aside("not answered (one such answer a day)"));
        }
        let subject = words::refused_subject(self.lang(), &self.ciphers_of(tx, &me)?, None);
        let name = me.into_iter().next().map(|p| p.name).unwrap_or_default();
        let ctx = out::Refused {
            subject,
            to_name: name.clone(),
            reason: words::too_large(self.lang(), bytes, limit),
            federation: self.config.federation.clone(),
        };
        self.queue(
            tx,
            Outgoing::new(&kinds::REFUSED, vec![(name, from)]).answering(Some((id, &p))),
            &ctx,
            now,
        )?;
        Ok(set_aside("answered"))
    }

    /// Whether a letter from `from` may act: its sender proven, or (a player only, never an
    /// official nor an unknown address) its domain one the admin accepts on the address alone.
    fn is_proven(
        &self,
        auth: &Authentication,
        from: &str,
        is_official: bool,
        is_player: bool,
    ) -> bool {
        if auth.is_pass() {
            return true;
        }
        let domain = from.rsplit_once('@').map(|(_, d)| d).unwrap_or_default();
        !is_official
            && is_player
            && self
                .config
                .auth
                .unsigned_domains
                .iter()
                .any(|d| d.eq_ignore_ascii_case(domain))
    }

    /// A letter whose sender is not proven: kept, moves nothing. The registered player or
    /// official it claims to be from is told once a day at most, at the registered address
    /// (it may be their own letter sent the wrong way); an unknown address is never answered
    /// (it is most likely forged: no backscatter).
    #[allow(clippy::too_many_arguments)]
    fn unproven(
        &self,
        tx: &Tx<'_>,
        id: LetterInId,
        p: &ParsedMail,
        from: &str,
        role: Option<Role>,
        me: &[Player],
        auth: &Authentication,
        thread: Option<GameId>,
        now: DateTime<Utc>,
    ) -> Result<Outcome, OfficeError> {
        let (to_name, address) = match (role, me.first()) {
            (Some(Role::Arbiter), _) => (String::new(), self.config.arbiter.clone()),
            (Some(Role::Secretary), _) => (String::new(), self.config.secretary.clone()),
            (None, Some(player)) => (player.name.clone(), player.email.clone()),
            (None, None) => {
                return Ok(Outcome::SetAside {
                    game: None,
                    reason: format!(
                        "unknown sender, not proven ({}): not answered",
                        auth.summary()
                    ),
                });
            }
        };
        let day = self.today(now, None);
        if tx.courtesy_once(from, day, now)? {
            let ctx = out::Unauthenticated {
                to_name: to_name.clone(),
                sender: address.clone(),
                reason: words::unauthenticated(self.lang(), auth),
                federation: self.config.federation.clone(),
            };
            self.queue(
                tx,
                Outgoing::new(&kinds::UNAUTHENTICATED, vec![(to_name, address)])
                    .answering(Some((id, p))),
                &ctx,
                now,
            )?;
        }
        let who = match role {
            Some(Role::Arbiter) => "the arbiter's address",
            Some(Role::Secretary) => "the secretary's address",
            None => "a player's address",
        };
        Ok(Outcome::SetAside {
            game: thread,
            reason: format!(
                "sender not proven ({}): from {who}, moves nothing",
                auth.summary()
            ),
        })
    }

    /// The game a reply belongs to: a Message-ID of zaochka's own letters in In-Reply-To or
    /// References.
    fn thread_game(&self, tx: &Tx<'_>, p: &ParsedMail) -> Result<Option<GameId>, OfficeError> {
        for id in p.in_reply_to.iter().chain(p.references.iter().rev()) {
            if let Some(sent) = tx.find_letter_out(id)?
                && let Some(g) = sent.game
            {
                return Ok(Some(g));
            }
        }
        Ok(None)
    }

    fn find_game(
        &self,
        tx: &Tx<'_>,
        me: &[Player],
        letter: &letter::Letter,
        thread: Option<GameId>,
    ) -> Result<Found, OfficeError> {
        let mine_ids: Vec<_> = me.iter().map(|p| p.id).collect();
        let is_mine = |g: &Game| mine_ids.contains(&g.white) || mine_ids.contains(&g.black);
        let mut all: Vec<Game> = Vec::new();
        for p in me {
            for g in tx.games_of_player(p.id)? {
                if !all.iter().any(|x| x.id == g.id) {
                    all.push(g);
                }
            }
        }
        // The cipher and number name the game outright, whoever's it is.
        if let (Some(cipher), Some(n)) = (&letter.cipher, letter.game)
            && let Some(t) = tx.find_tournament(cipher)?
            && let Some(g) = tx.find_game(t.id, n)?
        {
            return Ok(if is_mine(&g) {
                Found::One(g)
            } else {
                Found::NotYours(g)
            });
        }
        if let Some(gid) = thread {
            let g = tx.game(gid)?;
            if letter.game.is_none_or(|n| n == g.number) {
                return Ok(if is_mine(&g) {
                    Found::One(g)
                } else {
                    Found::NotYours(g)
                });
            }
        }
        let open: Vec<&Game> = all
            .iter()
            .filter(|g| g.status != GameStatus::Finished)
            .collect();
        if let Some(n) = letter.game {
            let hits: Vec<&Game> = all.iter().filter(|g| g.number == n).collect();
            if hits.len() == 1 {
                return Ok(Found::One(hits[0].clone()));
            }
            if hits.is_empty() {
                // A number that is not the sender's: is it someone else's game in the
                // sender's tournament?
                if let Some(g) = me
                    .iter()
                    .find_map(|p| tx.find_game(p.tournament, n).ok().flatten())
                {
                    return Ok(Found::NotYours(g));
                }
            }
        }
        if let Some(name) = &letter.opponent {
            let stem: String = name.to_lowercase().chars().take(4).collect();
            let mut hits = Vec::new();
            for g in &open {
                let partner = if mine_ids.contains(&g.white) {
                    g.black
                } else {
                    g.white
                };
                let partner = tx.player(partner)?;
                if !stem.is_empty() && partner.name.to_lowercase().contains(&stem) {
                    hits.push((*g).clone());
                }
            }
            if hits.len() == 1 {
                return Ok(Found::One(hits.remove(0)));
            }
        }
        if open.len() == 1 {
            return Ok(Found::One(open[0].clone()));
        }
        let mut list = Vec::new();
        for g in &open {
            let partner = if mine_ids.contains(&g.white) {
                g.black
            } else {
                g.white
            };
            let t = tx.tournament(g.tournament)?;
            list.push((t.cipher, g.number, tx.player(partner)?.name));
        }
        Ok(Found::Unknown(list))
    }

    /// The subject of a refusal to `me`: the cipher the letter names when it is one of
    /// theirs (and its game, if named), else all of their tournaments' ciphers.
    fn refusal_subject(
        &self,
        tx: &Tx<'_>,
        me: &[Player],
        letter: &letter::Letter,
    ) -> Result<String, OfficeError> {
        let mut ciphers = self.ciphers_of(tx, me)?;
        let named = letter.cipher.as_ref().and_then(|c| {
            ciphers
                .iter()
                .find(|m| m.eq_ignore_ascii_case(c.trim()))
                .cloned()
        });
        let number = match named {
            Some(c) => {
                ciphers = vec![c];
                letter.game
            }
            None => None,
        };
        Ok(words::refused_subject(self.lang(), &ciphers, number))
    }

    /// The distinct ciphers of the tournaments `me` plays in, in the order of `me`.
    fn ciphers_of(&self, tx: &Tx<'_>, me: &[Player]) -> Result<Vec<String>, OfficeError> {
        let mut ciphers: Vec<String> = vec![];
        for p in me {
            let c = tx.tournament(p.tournament)?.cipher;
            if !ciphers.contains(&c) {
                ciphers.push(c);
            }
        }
        Ok(ciphers)
    }

    #[allow(clippy::too_many_arguments)]
    fn refuse(
        &self,
        tx: &Tx<'_>,
        who: &Player,
        email: &str,
        subject: &str,
        reason: &str,
        id: LetterInId,
        p: &ParsedMail,
        now: DateTime<Utc>,
    ) -> Result<(), OfficeError> {
        let ctx = out::Refused {
            subject: subject.to_string(),
            to_name: who.name.clone(),
            reason: reason.to_string(),
            federation: self.config.federation.clone(),
        };
        self.queue(
            tx,
            Outgoing::new(&kinds::REFUSED, vec![(who.name.clone(), email.to_string())])
                .answering(Some((id, p))),
            &ctx,
            now,
        )
    }

    /// A break announced in a letter (10.4.1–10.4.3): the same dates in all the player's
    /// unfinished games, each partner, the player and the secretary told; a break the rules
    /// do not allow is refused with the reason. Returns the number of games it applies to.
    fn record_break(
        &self,
        tx: &Tx<'_>,
        me: &[Player],
        b: &letter::Break,
        announced: NaiveDate,
        letter: (LetterInId, &ParsedMail),
        now: DateTime<Utc>,
    ) -> Result<usize, OfficeError> {
        let grant = crate::clock::Break::ordinary(b.from, b.to, announced);
        // A break announced after its first day counts from the announcement (10.4.2): the
        // letters give the days the clock stops, and say why when they differ from the
        // announced ones.
        let from = grant.effective().map_or(b.from, |r| r.from);
        let late = words::late_break(self.lang(), b.from, announced, from);
        let mut told = 0;
        for player in me {
            let t = tx.tournament(player.tournament)?;
            let settings = self.settings(&t);
            let open: Vec<Game> = tx
                .games_of_player(player.id)?
                .into_iter()
                .filter(|g| g.status != GameStatus::Finished)
                .collect();
            let side_in = |g: &Game| {
                if g.white == player.id {
                    Side::White
                } else {
                    Side::Black
                }
            };
            // The player's earlier breaks: the same in every game, so any game tells them.
            let earlier: Vec<crate::clock::Break> = match open.first() {
                Some(g) => state_of(g)?.breaks[side_in(g)].clone(),
                None => Vec::new(),
            };
            if let Err(e) = crate::clock::check_break(&grant, &earlier, &settings) {
                let ctx = out::Refused {
                    subject: words::refused_subject(
                        self.lang(),
                        std::slice::from_ref(&t.cipher),
                        None,
                    ),
                    to_name: player.name.clone(),
                    reason: words::break_refused(self.lang(), &words::break_error(self.lang(), &e)),
                    federation: self.config.federation.clone(),
                };
                let to = [(player.name.clone(), player.email.clone())];
                self.queue(
                    tx,
                    Outgoing::new(&kinds::REFUSED, to.to_vec()).answering(Some(letter)),
                    &ctx,
                    now,
                )?;
                continue;
            }
            tx.add_break(
                &crate::store::NewBreak {
                    player: player.id,
                    first_day: b.from,
                    last_day: b.to,
                    is_special: false,
                    letter: None,
                    decision: None,
                },
                now,
            )?;
            let mut numbers = Vec::new();
            for g in &open {
                let ruling = game::arbiter::record_break(&state_of(g)?, side_in(g), grant);
                self.save(tx, g, &ruling.state, announced, &settings, now)?;
                let partner = tx.player(g.partner_of(player.id).unwrap_or(g.white))?;
                let ctx = out::BreakNotice {
                    to_name: partner.name.clone(),
                    cipher: t.cipher.clone(),
                    player: player.name.clone(),
                    from: fmt_date(from),
                    to: fmt_date(b.to),
                    games: vec![g.number],
                    is_special: false,
                    late: late.clone(),
                    federation: self.config.federation.clone(),
                };
                let to = [(partner.name.clone(), partner.email.clone())];
                self.queue(
                    tx,
                    Outgoing::new(&kinds::BREAK_NOTICE, to.to_vec()).game(g.id),
                    &ctx,
                    now,
                )?;
                numbers.push(g.number);
            }
            for (name, email) in [
                (player.name.clone(), player.email.clone()),
                (String::new(), self.config.secretary.clone()),
            ] {
                let ctx = out::BreakNotice {
                    to_name: name.clone(),
                    cipher: t.cipher.clone(),
                    player: player.name.clone(),
                    from: fmt_date(from),
                    to: fmt_date(b.to),
                    games: numbers.clone(),
                    is_special: false,
                    late: late.clone(),
                    federation: self.config.federation.clone(),
                };
                self.queue(
                    tx,
                    Outgoing::new(&kinds::BREAK_NOTICE, vec![(name, email)]),
                    &ctx,
                    now,
                )?;
            }
            told += open.len();
        }
        Ok(told)
    }

    /// Stores a game's new state with its status, result and next deadline day.
    fn save(
        &self,
        tx: &Tx<'_>,
        game: &Game,
        state: &GameState,
        today: NaiveDate,
        settings: &ClockSettings,
        now: DateTime<Utc>,
    ) -> Result<(), OfficeError> {
        let json = serde_json::to_string(state).map_err(|source| OfficeError::State {
            game: game.id.0,
            source,
        })?;
        let result = state.result.as_ref().map(|r| score_text(&r.score));
        let next_due = game::due(state, today, settings)
            .first()
            .map(|d| d.day)
            .or_else(|| game::next_due_day(state, today, settings));
        tx.update_game(
            game.id,
            &GameUpdate {
                status: status_of(state, today),
                result: result.as_deref(),
                state: &json,
                next_due,
            },
            now,
        )?;
        Ok(())
    }

    /// Fires every deadline due by `now` in every game (10.3.4, 10.3.6, the warning, the
    /// end of play), each exactly once, also after the daemon was down for weeks. Returns how
    /// many fired.
    ///
    /// # Errors
    /// [`OfficeError`] from the store or the renderer; the game's deadlines then stay due.
    pub fn sweep(&self, store: &mut Store, now: DateTime<Utc>) -> Result<usize, OfficeError> {
        // The latest day any zone has reached: games in zones still on the previous day
        // see their own date below.
        let horizon = (now + chrono::TimeDelta::days(1)).date_naive();
        let games = store.read(|tx| tx.games_due(horizon))?;
        let mut fired = 0;
        for g in games {
            fired += store.with_transaction(|tx| self.sweep_game(tx, g.id, now))?;
        }
        // Adjudication packages whose analyses are due (10.5.5).
        fired += store.with_transaction(|tx| commands::sweep_adjudications(self, tx, now))?;
        // The weekly digest (10.1.8) and the final report (10.1.7), each once.
        let seen = self.reports.lock().map(|s| s.clone()).unwrap_or_default();
        let (n, seen) =
            store.with_transaction(|tx| commands::sweep_reports(self, tx, &seen, now))?;
        fired += n;
        if let Ok(mut s) = self.reports.lock() {
            *s = seen;
        }
        Ok(fired)
    }

    fn sweep_game(
        &self,
        tx: &Tx<'_>,
        id: GameId,
        now: DateTime<Utc>,
    ) -> Result<usize, OfficeError> {
        let g = tx.game(id)?;
        let t = tx.tournament(g.tournament)?;
        let today = self.today(now, Some(&t));
        let settings = self.settings(&t);
        let mut state = state_of(&g)?;
        let mut fired = 0;
        let due = game::due(&state, today, &settings);
        let overstepped: Vec<Side> = due
            .iter()
            .filter(|d| d.kind == game::DeadlineKind::Overstep)
            .map(|d| d.side)
            .collect();
        for d in due {
            // After a long downtime a warning and the overstep it warned of come due
            // together: the warning is recorded as fired but not sent.
            let is_stale = d.kind == game::DeadlineKind::Warning && overstepped.contains(&d.side);
            let player = match d.side {
                Side::White => g.white,
                Side::Black => g.black,
            };
            if !tx.fire_notice_once(g.id, &d.key, d.day, Some(player), now)? {
                continue;
            }
            if is_stale {
                continue;
            }
            state = game::apply_deadline(&state, &d);
            self.send_notices(tx, &t, &g, &state, &d.notices, None, now)?;
            fired += 1;
        }
        self.save(tx, &g, &state, today, &settings, now)?;
        Ok(fired)
    }

    /// Starts a tournament: round-robin pairings by Berger tables, a game for each pairing,
    /// and the start list to every participant (10.3.2). Safe to repeat: a started
    /// tournament is left as it is.
    ///
    /// # Errors
    /// [`OfficeError::Refused`] for an unknown tournament or fewer than two players.
    pub fn start_tournament(
        &self,
        store: &mut Store,
        cipher: &str,
        now: DateTime<Utc>,
    ) -> Result<usize, OfficeError> {
        store.with_transaction(|tx| {
            let t = tx
                .find_tournament(cipher)?
                .ok_or_else(|| OfficeError::Refused(format!("no tournament '{cipher}'")))?;
            if t.status != TournamentStatus::Registration {
                return Ok(0);
            }
            // Names go into every partner's letters: shown as `tournament::shown_name`
            // makes them, whatever was stored.
            let players: Vec<Player> = tx
                .players(t.id)?
                .into_iter()
                .map(|mut p| {
                    p.name = crate::tournament::shown_name(&p.name);
                    p
                })
                .collect();
            let rr = crate::tournament::berger(players.len() as u32)
                .map_err(|e| OfficeError::Refused(format!("tournament '{cipher}': {e}")))?;
            let variant = crate::rules::Variant::from_str(&t.variant)
                .map_err(|e| OfficeError::Refused(format!("tournament '{cipher}': {e}")))?;
            let settings = self.settings(&t);
            let today = self.today(now, Some(&t));
            let mut games_of: Vec<Vec<out::StartGame>> = vec![Vec::new(); players.len()];
            for pairing in &rr.pairings {
                let (wi, bi) = (pairing.white as usize - 1, pairing.black as usize - 1);
                let (w, b) = (&players[wi], &players[bi]);
                let mut state = new_game(&t, variant, pairing.game, w, b);
                // The start list goes out today: white's first date, and sent late, the
                // day before both players' own start (10.3.2).
                state.start_list_sent = Some(today);
                let json = serde_json::to_string(&state)
                    .map_err(|source| OfficeError::State { game: 0, source })?;
                tx.add_game(
                    &NewGame {
                        tournament: t.id,
                        number: pairing.game,
                        white: w.id,
                        black: b.id,
                        status: GameStatus::Playing,
                        state: &json,
                        next_due: game::next_due_day(
                            &state,
                            today.pred_opt().unwrap_or(today),
                            &settings,
                        ),
                    },
                    now,
                )?;
                games_of[wi].push(out::StartGame {
                    game_no: pairing.game,
                    partner: b.name.clone(),
                    partner_email: b.email.clone(),
                    is_white: true,
                    last_day: last_day_of(&state, &settings, Side::White, today),
                });
                games_of[bi].push(out::StartGame {
                    game_no: pairing.game,
                    partner: w.name.clone(),
                    partner_email: w.email.clone(),
                    is_white: false,
                    last_day: None,
                });
            }
            for (p, games) in players.iter().zip(games_of) {
                let ctx = out::StartList {
                    about: self.tournament_facts(&t, variant, &p.name),
                    games,
                    example_white: words::example_moves(variant).0.into(),
                    example_black: words::example_moves(variant).1.into(),
                };
                self.queue(
                    tx,
                    Outgoing::new(&kinds::START_LIST, vec![(p.name.clone(), p.email.clone())]),
                    &ctx,
                    now,
                )?;
            }
            tx.set_tournament_status(t.id, TournamentStatus::Playing)?;
            Ok(rr.pairings.len())
        })
    }

    /// What a letter to `to_name` about his games says of tournament `t`.
    fn tournament_facts(
        &self,
        t: &Tournament,
        variant: crate::rules::Variant,
        to_name: &str,
    ) -> out::TournamentFacts {
        out::TournamentFacts {
            to_name: to_name.to_owned(),
            cipher: t.cipher.clone(),
            tournament: t.name.clone(),
            variant: words::variant_name(self.lang(), variant),
            start: fmt_date(t.start),
            end: fmt_date(t.end),
            mailbox: self.config.address.clone(),
            federation: self.config.federation.clone(),
        }
    }

    /// A tournament's settings: those stored when it was added (read as the command line
    /// reads them), else the configuration's, with a log line, when the stored ones do not
    /// read.
    pub fn tournament_settings(&self, t: &Tournament) -> settings::TournamentSettings {
        settings::TournamentSettings::of(t).unwrap_or_else(|e| {
            tracing::warn!(
                cipher = %t.cipher,
                error = %e,
                "the tournament's stored settings do not read; the configuration's [rules] apply"
            );
            settings::TournamentSettings::from_config(&self.config.rules)
        })
    }

    /// The clock settings of a tournament (see [`Office::tournament_settings`]).
    pub fn settings(&self, t: &Tournament) -> ClockSettings {
        self.tournament_settings(t).clock
    }

    /// How a tournament's table is worked out (see [`Office::tournament_settings`]).
    pub fn standings_settings(&self, t: &Tournament) -> crate::tournament::StandingsSettings {
        self.tournament_settings(t).standings
    }

    /// The calendar day `now` is in the tournament's zone (the configuration's without one).
    pub fn today(&self, now: DateTime<Utc>, t: Option<&Tournament>) -> NaiveDate {
        let tz = t.map(tz_of).unwrap_or(self.config.time_zone);
        now.with_timezone(&tz).date_naive()
    }

    /// Words and queues the notices of a verdict, a deadline or a ruling.
    #[allow(clippy::too_many_arguments)]
    pub fn send_notices(
        &self,
        tx: &Tx<'_>,
        t: &Tournament,
        g: &Game,
        state: &GameState,
        notices: &[Notice],
        answering: Option<(LetterInId, &ParsedMail, Side)>,
        now: DateTime<Utc>,
    ) -> Result<(), OfficeError> {
        let lang = self.lang();
        let board = board_of(state);
        // Remarks that ride along with the forwarded move and the receipt.
        let mut notes: Vec<String> = Vec::new();
        for n in notices {
            // Both players get a Substituted notice; the remark is said once in each letter.
            if let NoticeKind::Substituted { written, played } = &n.kind {
                let note = words::substituted(
                    lang,
                    &crate::rules::notation::shown(written),
                    &played.to_string(),
                );
                if !notes.contains(&note) {
                    notes.push(note);
                }
            }
        }
        for n in notices {
            // The diagram as its addressee asked to see it («Доска: от чёрных»).
            let board = board.clone().seen_from_black(matches!(
                n.to,
                Recipient::Player(s) if state.board_from[s] == Some(Side::Black)
            ));
            let recipients = self.recipients(state, n.to);
            let header = |to_name: &str| GameHeader {
                to_name: to_name.to_string(),
                cipher: t.cipher.clone(),
                tournament: t.name.clone(),
                game_no: g.number,
                white: state.players.white.name.clone(),
                black: state.players.black.name.clone(),
                federation: self.config.federation.clone(),
            };
            let to_name = recipients.first().map(|r| r.0.clone()).unwrap_or_default();
            let reply = answering
                .and_then(|(id, p, side)| (n.to == Recipient::Player(side)).then_some((id, p)));
            match &n.kind {
                NoticeKind::ForwardMove {
                    forward,
                    new_moves,
                    is_repeat,
                    problems,
                } => {
                    let receiver = forward.from.other();
                    let mut these_notes = notes.clone();
                    these_notes.extend(problems.iter().map(|p| problem_note(lang, p)));
                    let dates = dates_of(forward);
                    let accepted: Vec<String> = forward
                        .moves
                        .iter()
                        .filter(|m| m.is_from_variant)
                        .map(|m| m.to_string())
                        .collect();
                    let variants: Vec<out::VariantLine> = forward
                        .variants
                        .iter()
                        .map(|v| out::VariantLine {
                            label: v.label.clone().unwrap_or_default(),
                            moves: join(&v.moves),
                        })
                        .collect();
                    if *is_repeat {
                        let ctx = out::Repeat {
                            game: header(&to_name),
                            moves: join(new_moves),
                            variants,
                            dates,
                            first_sent: fmt_date(forward.sent_on),
                            days_waiting: (self.today(now, Some(t)) - forward.sent_on)
                                .num_days()
                                .max(0) as u32,
                            last_day: last_day_of(
                                state,
                                &self.settings(t),
                                receiver,
                                self.today(now, Some(t)),
                            ),
                        };
                        self.queue(
                            tx,
                            Outgoing::new(&kinds::REPEAT, recipients)
                                .game(g.id)
                                .board(&board),
                            &ctx,
                            now,
                        )?;
                    } else {
                        let ctx = out::Forward {
                            game: header(&to_name),
                            repeated: join(&own_last_moves(state, receiver, new_moves)),
                            accepted: accepted.join(" "),
                            moves: join(new_moves),
                            variants,
                            dates,
                            draw_offer: forward.is_draw_offered,
                            notes: these_notes,
                            sender_words: answering
                                .map(|(_, p, _)| {
                                    words::quoted_words(lang, &letter::own_text(&p.text))
                                })
                                .unwrap_or_default(),
                            last_day: last_day_of(
                                state,
                                &self.settings(t),
                                receiver,
                                self.today(now, Some(t)),
                            ),
                        };
                        self.queue(
                            tx,
                            Outgoing::new(&kinds::FORWARD, recipients)
                                .game(g.id)
                                .board(&board),
                            &ctx,
                            now,
                        )?;
                    }
                }
                NoticeKind::Receipt {
                    moves,
                    continued,
                    times,
                    problems,
                    penalty_days: _,
                } => {
                    let mut these_notes = notes.clone();
                    these_notes.extend(problems.iter().map(|p| problem_note(lang, p)));
                    if !continued.is_empty() {
                        these_notes.push(words::continued(lang, &join(continued)));
                    }
                    // The dates of the letter acknowledged: the sender's own, as forwarded.
                    let last = state.last_forward[n_side(n.to).other()].as_ref();
                    let ctx = out::Receipt {
                        game: header(&to_name),
                        moves: join(moves),
                        variants: vec![],
                        dates: out::Dates {
                            time_white: times.white,
                            time_black: times.black,
                            ..last.map(dates_of).unwrap_or_default()
                        },
                        notes: these_notes,
                    };
                    self.queue(
                        tx,
                        Outgoing::new(&kinds::RECEIPT, recipients)
                            .game(g.id)
                            .answering(reply),
                        &ctx,
                        now,
                    )?;
                }
                NoticeKind::Refused {
                    reason,
                    problems,
                    partner_moves,
                    penalty_days,
                } => {
                    let ctx = out::Rejected {
                        game: header(&to_name),
                        problems: problems
                            .iter()
                            .map(|p| out::Problem {
                                clause: p.clause.clone(),
                                text: problem_text(lang, p),
                            })
                            .collect(),
                        // Only when the repetition was wrong or whose moves were meant is
                        // unclear: a right repetition needs no "moves to repeat" line.
                        partner_moves: if problems.iter().any(|p| {
                            matches!(
                                p.kind,
                                game::ProblemKind::RepetitionMissing
                                    | game::ProblemKind::RepetitionIncomplete
                                    | game::ProblemKind::RepetitionWrong
                                    | game::ProblemKind::UnlabelledMoves
                            )
                        }) {
                            join(partner_moves)
                        } else {
                            String::new()
                        },
                        penalty_days: *penalty_days,
                        penalty_clause: "10.2.11".into(),
                        play_stopped: matches!(
                            reason,
                            game::Reason::Repetition | game::Reason::Impossible
                        ),
                    };
                    self.queue(
                        tx,
                        Outgoing::new(&kinds::REJECTED, recipients)
                            .game(g.id)
                            .answering(reply),
                        &ctx,
                        now,
                    )?;
                }
                NoticeKind::GameOver {
                    result,
                    record,
                    semi_short,
                    ..
                } => {
                    let ctx = out::Result {
                        game: header(&to_name),
                        result: score_text(&result.score),
                        reason: words::ending(lang, &result.how, state.variant),
                        record: semi_short.clone().unwrap_or_else(|| record_text(record)),
                    };
                    self.queue(
                        tx,
                        Outgoing::new(&kinds::RESULT, recipients)
                            .game(g.id)
                            .board(&board),
                        &ctx,
                        now,
                    )?;
                }
                NoticeKind::Overstep(facts) => {
                    let offender = &state.players[facts.side];
                    let ctx = out::Overstep {
                        game: header(&to_name),
                        player: offender.name.clone(),
                        is_offender: n.to == Recipient::Player(facts.side),
                        used: facts.used.max(0) as u32,
                        limit: facts.limit.max(0) as u32,
                        moves_counted: state.counted_moves(facts.side),
                        day: fmt_date(facts.day),
                        protest_until: fmt_date(facts.day + chrono::TimeDelta::days(10)),
                        timechart: facts.chart.to_text(&chart_labels(lang)),
                        record: record_text(&facts.record),
                    };
                    if facts.is_for_arbiter || n.to == Recipient::Arbiter {
                        let player = match facts.attach_letters_of {
                            Side::White => g.white,
                            Side::Black => g.black,
                        };
                        let attachments = tx
                            .letters_of(g.id, player)?
                            .into_iter()
                            .map(|l| {
                                (
                                    format!("letter-{}.eml", l.id.0),
                                    "message/rfc822".to_string(),
                                    l.raw,
                                )
                            })
                            .collect();
                        self.queue(
                            tx,
                            Outgoing::new(&kinds::OVERSTEP_ARBITER, recipients)
                                .game(g.id)
                                .board(&board)
                                .attach(attachments),
                            &ctx,
                            now,
                        )?;
                    } else {
                        self.queue(
                            tx,
                            Outgoing::new(&kinds::OVERSTEP_PLAYER, recipients).game(g.id),
                            &ctx,
                            now,
                        )?;
                    }
                }
                NoticeKind::TimeWarning {
                    days_left,
                    overstep_day,
                } => {
                    let side = n_side(n.to);
                    let ledger = state.ledger(&self.settings(t));
                    let ctx = out::Warning {
                        game: header(&to_name),
                        used: ledger.total(side, self.today(now, Some(t))).max(0) as u32,
                        limit: ledger.limit(side).max(0) as u32,
                        left: (*days_left).max(0) as u32,
                        overstep_day: fmt_date(*overstep_day),
                    };
                    self.queue(
                        tx,
                        Outgoing::new(&kinds::WARNING, recipients).game(g.id),
                        &ctx,
                        now,
                    )?;
                }
                NoticeKind::FirstMoveQuery { start } => {
                    let ctx = out::FirstMoveQuery {
                        game: header(&to_name),
                        start: fmt_date(*start),
                        days: self.settings(t).first_move_query_after_days,
                        to_white: n.to == Recipient::Player(Side::White),
                    };
                    self.queue(
                        tx,
                        Outgoing::new(&kinds::FIRST_MOVE_QUERY, recipients).game(g.id),
                        &ctx,
                        now,
                    )?;
                }
                NoticeKind::Repeated { sent_on } => {
                    // Told to the sender: what was forwarded to the partner.
                    let last = state.last_forward[n_side(n.to).other()].as_ref();
                    let ctx = out::Repeat {
                        game: header(&to_name),
                        moves: last.map(|f| join(&f.moves)).unwrap_or_default(),
                        variants: vec![],
                        dates: last.map(dates_of).unwrap_or_default(),
                        first_sent: fmt_date(*sent_on),
                        days_waiting: (self.today(now, Some(t)) - *sent_on).num_days().max(0)
                            as u32,
                        last_day: None,
                    };
                    self.queue(
                        tx,
                        Outgoing::new(&kinds::REPEAT_SENDER, recipients).game(g.id),
                        &ctx,
                        now,
                    )?;
                }
                NoticeKind::Substituted { .. } => {}
                other => {
                    // Short notices with no template of their own: worded here, sent as a
                    // refusal-shaped note ("Письмо …").
                    let to_arbiter = n.to == Recipient::Arbiter;
                    if let Some(text) = words::short_notice(lang, other, state, to_arbiter) {
                        let ctx = out::Refused {
                            subject: words::short_subject(lang, &t.cipher, other, state),
                            to_name: to_name.clone(),
                            reason: text,
                            federation: self.config.federation.clone(),
                        };
                        let template = if matches!(
                            other,
                            NoticeKind::AlreadyMade { .. }
                                | NoticeKind::NotInPlay { .. }
                                | NoticeKind::WrongGame { .. }
                        ) {
                            &kinds::REFUSED
                        } else {
                            &kinds::NOTE
                        };
                        self.queue(
                            tx,
                            Outgoing::new(template, recipients)
                                .game(g.id)
                                .answering(reply),
                            &ctx,
                            now,
                        )?;
                    }
                }
            }
        }
        Ok(())
    }

    fn recipients(&self, state: &GameState, to: Recipient) -> Vec<(String, String)> {
        match to {
            Recipient::Player(side) => {
                let p = &state.players[side];
                vec![(p.name.clone(), p.email.clone())]
            }
            Recipient::Arbiter => vec![(String::new(), self.config.arbiter.clone())],
            Recipient::Secretary => vec![(String::new(), self.config.secretary.clone())],
        }
    }

    /// Words one letter and puts it in the outbox with a fixed Message-ID; threads it to the
    /// letter it answers, or to the last letter sent to the same address in the same game.
    pub fn queue(
        &self,
        tx: &Tx<'_>,
        letter: Outgoing<'_>,
        ctx: &impl Serialize,
        now: DateTime<Utc>,
    ) -> Result<(), OfficeError> {
        if let Some(fault) = letter.fault() {
            // A fault of zaochka's own code, never of a letter: the tests stop on it; a
            // running daemon still sends the letter, as it is, and says so.
            debug_assert!(false, "{fault}");
            tracing::error!(%fault, "a letter is not as the table of kinds says");
        }
        let Outgoing {
            kind,
            to,
            game,
            board,
            answering,
            attachments,
        } = letter;
        let template = kind.template;
        // An address mail-parser read but lettre cannot write (`"a b"@x`, an address literal,
        // a trailing dot, a route) cannot be answered: the letter is still stored and judged,
        // and whoever else is to be told is told.
        let to: Vec<(&str, &str, lettre::Address)> = to
            .iter()
            .filter(|(_, e)| !e.is_empty())
            .filter_map(|(n, e)| match answerable(e) {
                Ok(addr) => Some((n.as_str(), e.as_str(), addr)),
                Err(err) => {
                    tracing::warn!(address = %e, template, error = %err, "cannot write to this address; that letter is not sent");
                    None
                }
            })
            .collect();
        if to.is_empty() {
            return Ok(());
        }
        let message_id = new_message_id(template, game, now, &self.config.address);
        let (in_reply_to, references) = match answering {
            Some((_, p)) => {
                let mut refs = p.references.clone();
                if let Some(id) = &p.message_id {
                    refs.push(id.clone());
                }
                (p.message_id.clone(), refs)
            }
            None => match game {
                Some(g) => {
                    let addresses: Vec<&str> = to.iter().map(|(_, e, _)| *e).collect();
                    match tx.last_letter_out_to(g, &addresses)? {
                        Some(id) => (Some(id.clone()), vec![id]),
                        None => (None, vec![]),
                    }
                }
                None => (None, vec![]),
            },
        };
        let mailbox = |name: &str, addr: lettre::Address| {
            lettre::message::Mailbox::new((!name.is_empty()).then(|| name.to_string()), addr)
        };
        let from = self.config.address.parse().map_err(|e| {
            RenderError::Mime(format!(
                "the mailbox's address '{}': {e}",
                self.config.address
            ))
        })?;
        let envelope = Envelope {
            from: mailbox(&self.config.display_name, from),
            to: to
                .iter()
                .map(|(n, _, addr)| mailbox(n, addr.clone()))
                .collect(),
            cc: vec![],
            subject: String::new(),
            message_id: message_id.clone(),
            in_reply_to,
            references,
            date: std::time::SystemTime::from(now),
            is_answer: answering.is_some_and(|(_, p)| {
                p.from.as_ref().is_some_and(|m| {
                    to.iter()
                        .any(|(_, e, _)| e.eq_ignore_ascii_case(&m.address))
                })
            }),
        };
        let (_, raw) = out::compose(
            &self.templates,
            self.lang(),
            template,
            ctx,
            board,
            envelope,
            attachments,
        )?;
        let recipients: Vec<String> = to.iter().map(|(_, e, _)| (*e).to_owned()).collect();
        tx.queue(
            &NewLetterOut {
                message_id: &message_id,
                kind: template,
                game,
                in_reply_to: answering.map(|(id, _)| id),
                envelope_from: &self.config.address,
                recipients: &recipients,
                raw: &raw,
            },
            now,
        )?;
        Ok(())
    }
}

/// How a letter's game was found.
enum Found {
    One(Game),
    NotYours(Game),
    /// The sender's unfinished games: (cipher, number, partner).
    Unknown(Vec<(String, u32, String)>),
}

fn state_of(g: &Game) -> Result<GameState, OfficeError> {
    g.state_as::<GameState>().map_err(|e| match e {
        StoreError::Json { source, .. } => OfficeError::State {
            game: g.id.0,
            source,
        },
        other => OfficeError::Store(other),
    })
}

fn tz_of(t: &Tournament) -> Tz {
    Tz::from_str(&t.tz).unwrap_or(chrono_tz::Europe::Moscow)
}

/// The store's status word for a game state on a day.
pub fn status_of(state: &GameState, today: NaiveDate) -> GameStatus {
    use game::Status;
    match &state.status {
        _ if state.result.is_some() => GameStatus::Finished,
        Status::Finished => GameStatus::Finished,
        Status::Adjudication => GameStatus::Adjudication,
        Status::Suspended { .. } => GameStatus::Suspended,
        Status::Stopped { .. } => GameStatus::Stopped,
        Status::Playing if state.is_on_break(today) => GameStatus::Break,
        Status::Playing => GameStatus::Playing,
    }
}

/// `1-0`, `0-1`, `1/2-1/2`, or `0-0` when both lose (10.5.8).
pub fn score_text(score: &game::Score) -> String {
    match score {
        game::Score::WhiteWins => "1-0",
        game::Score::BlackWins => "0-1",
        game::Score::Draw => "1/2-1/2",
        game::Score::BothLose => "0-0",
    }
    .to_string()
}

/// The board picture of a game's current position.
pub fn board_of(state: &GameState) -> Board {
    let variant = state.variant;
    let pos =
        Position::from_fen(variant, &state.fen()).unwrap_or_else(|_| Position::start(variant));
    Board::from(&pos)
}

fn n_side(to: Recipient) -> Side {
    match to {
        Recipient::Player(s) => s,
        _ => Side::White,
    }
}

/// The receiver's own moves just before the new ones: what the sender repeated.
fn own_last_moves(
    state: &GameState,
    receiver: Side,
    new_moves: &[game::NumberedMove],
) -> Vec<game::NumberedMove> {
    let record = state.record();
    let first_new = new_moves
        .first()
        .and_then(|m| {
            record
                .iter()
                .position(|r| r.number == m.number && r.side == m.side && r.text == m.text)
        })
        .unwrap_or(record.len());
    let mut out: Vec<game::NumberedMove> = record[..first_new]
        .iter()
        .rev()
        .take_while(|m| m.side == receiver || m.is_from_variant)
        .cloned()
        .collect();
    out.reverse();
    out
}

fn join(moves: &[game::NumberedMove]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The record as a letter shows it: `1. c3-d4 f6-g5 2. …`, FMJD notation on 10x10.
fn record_text(record: &[game::NumberedMove]) -> String {
    use crate::rules::notation::shown;
    let mut out = String::new();
    for m in record {
        if m.side == Side::White {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&format!("{}. {}", m.number, shown(&m.text)));
        } else if out.is_empty() {
            out.push_str(&format!("{}... {}", m.number, shown(&m.text)));
        } else {
            out.push(' ');
            out.push_str(&shown(&m.text));
        }
    }
    out
}

fn dates_of(f: &game::Forward) -> out::Dates {
    out::Dates {
        sent_to_sender: f.dates.partner_sent.map(fmt_date).unwrap_or_default(),
        received: f.dates.received.map(fmt_date).unwrap_or_default(),
        answered: f.dates.answered.map(fmt_date).unwrap_or_default(),
        time_white: f.times.white,
        time_black: f.times.black,
    }
}

/// A problem as a remark in a receipt or a forward: the text with its clause.
fn problem_note(lang: Lang, p: &game::Problem) -> String {
    let text = problem_text(lang, p);
    match (lang, p.clause.is_empty()) {
        (_, true) => text,
        (Lang::Ru, false) => format!("{text} (п. {})", p.clause),
        (Lang::En, false) => format!("{text} ({})", p.clause),
    }
}

fn problem_text(lang: Lang, p: &game::Problem) -> String {
    match lang {
        Lang::Ru => p.text_ru.clone().unwrap_or_else(|| p.text.clone()),
        Lang::En => p.text.clone(),
    }
}

fn chart_labels(lang: Lang) -> crate::clock::ChartLabels {
    match lang {
        Lang::Ru => crate::clock::ChartLabels::ru(),
        Lang::En => crate::clock::ChartLabels::en(),
    }
}

/// Dates in letters: `05.12.2026`, as players write them.
/// A new game of tournament `t` between two of its players, at the tournament's start; the
/// names as `tournament::shown_name` makes them (they go into every partner's letters).
fn new_game(
    t: &Tournament,
    variant: crate::rules::Variant,
    number: u32,
    white: &Player,
    black: &Player,
) -> GameState {
    let as_player = |p: &Player| game::Player {
        id: p.id.0,
        name: crate::tournament::shown_name(&p.name),
        email: p.email.clone(),
    };
    GameState::new(
        t.cipher.clone(),
        number,
        variant,
        as_player(white),
        as_player(black),
        t.start,
        t.end,
    )
}

/// The last day `side`'s answer is in time, as a letter handing `side` the move names it:
/// [`crate::clock::Ledger::last_day`], the same rule the deadline sweep declares an overstep
/// by. `None` when `side` is not to move or play is suspended.
pub fn last_day_of(
    state: &GameState,
    settings: &ClockSettings,
    side: Side,
    today: NaiveDate,
) -> Option<out::LastDay> {
    if state.result.is_some() {
        return None;
    }
    let l = state.ledger(settings).last_day(side, today)?;
    Some(out::LastDay {
        date: fmt_date(l.date),
        days_left: l.days_left,
        moves: format!("{}\u{2013}{}", l.moves.start(), l.moves.end()),
        is_end_of_play: l.is_end_of_play,
    })
}

pub fn fmt_date(d: NaiveDate) -> String {
    d.format("%d.%m.%Y").to_string()
}

#[cfg(test)]
mod tests;
