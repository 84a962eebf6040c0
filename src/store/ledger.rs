//! The daemon's bookkeeping: deadline notices fired once, one courtesy answer a day, the
//! arbiter's decisions, breaks, and where IMAP fetching stands.

use chrono::{DateTime, NaiveDate, Utc};
use rusqlite::{OptionalExtension, Row, params};

use super::{
    BreakId, Day, DecisionId, GameId, LetterInId, Moment, PlayerId, Result, SqlContext, StoreError,
    Tx,
};

/// A deadline notice that has fired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// The game.
    pub game: GameId,
    /// What it was: `overstep`, `repeat`, `query`, `warning`, ... (the `game` module's word).
    pub kind: String,
    /// The day it was due.
    pub due_day: NaiveDate,
    /// Whom it was about, when it was about one player.
    pub player: Option<PlayerId>,
    /// When it fired (possibly long after `due_day`, after downtime).
    pub fired_at: DateTime<Utc>,
}

/// A decision to record: an arbiter's or secretary's command.
#[derive(Debug, Clone)]
pub struct NewDecision<'a> {
    /// The game it is about, if one.
    pub game: Option<GameId>,
    /// Who decided (the address the command came from, or `cli`).
    pub author: &'a str,
    /// The command as written, e.g. `Просрочка подтверждена`.
    pub text: &'a str,
    /// What it does, a JSON document (the `game` or `tournament` module's action).
    pub action: &'a str,
    /// The letter that carried it, if any.
    pub letter: Option<LetterInId>,
}

/// A recorded decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// Its id.
    pub id: DecisionId,
    /// The game.
    pub game: Option<GameId>,
    /// Who decided.
    pub author: String,
    /// The command as written.
    pub text: String,
    /// What it does, a JSON document.
    pub action: String,
    /// The letter that carried it.
    pub letter: Option<LetterInId>,
    /// When it was recorded.
    pub at: DateTime<Utc>,
}

/// Where fetching from one IMAP mailbox stands: the letters up to `last_uid` under this
/// `uidvalidity` are stored. A different UIDVALIDITY means the UIDs start again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MailboxState {
    /// The mailbox's UIDVALIDITY.
    pub uidvalidity: u32,
    /// The highest UID stored.
    pub last_uid: u32,
}

/// A break to record (10.4).
#[derive(Debug, Clone)]
pub struct NewBreak {
    /// The player.
    pub player: PlayerId,
    /// The first day of the break (the day of announcement when announced late, 10.4.3).
    pub first_day: NaiveDate,
    /// The last day, included.
    pub last_day: NaiveDate,
    /// Granted by the arbiter (10.4.5) rather than taken by the player.
    pub is_special: bool,
    /// The player's letter announcing it.
    pub letter: Option<LetterInId>,
    /// The arbiter's decision granting it.
    pub decision: Option<DecisionId>,
}

/// A recorded break.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Break {
    /// Its id.
    pub id: BreakId,
    /// The player.
    pub player: PlayerId,
    /// The first day.
    pub first_day: NaiveDate,
    /// The last day, included.
    pub last_day: NaiveDate,
    /// Granted by the arbiter (10.4.5).
    pub is_special: bool,
    /// The announcing letter.
    pub letter: Option<LetterInId>,
    /// The granting decision.
    pub decision: Option<DecisionId>,
    /// When it was recorded.
    pub created: DateTime<Utc>,
}

fn notice_row(row: &Row<'_>) -> rusqlite::Result<Notice> {
    Ok(Notice {
        game: row.get(0)?,
        kind: row.get(1)?,
        due_day: row.get::<_, Day>(2)?.0,
        player: row.get(3)?,
        fired_at: row.get::<_, Moment>(4)?.0,
    })
}

fn decision_row(row: &Row<'_>) -> rusqlite::Result<Decision> {
    Ok(Decision {
        id: row.get(0)?,
        game: row.get(1)?,
        author: row.get(2)?,
        text: row.get(3)?,
        action: row.get(4)?,
        letter: row.get(5)?,
        at: row.get::<_, Moment>(6)?.0,
    })
}

fn break_row(row: &Row<'_>) -> rusqlite::Result<Break> {
    Ok(Break {
        id: row.get(0)?,
        player: row.get(1)?,
        first_day: row.get::<_, Day>(2)?.0,
        last_day: row.get::<_, Day>(3)?.0,
        is_special: row.get(4)?,
        letter: row.get(5)?,
        decision: row.get(6)?,
        created: row.get::<_, Moment>(7)?.0,
    })
}

impl Tx<'_> {
    /// Fires the notice `kind` of `game` due on `due_day` (about `player`, or the whole game
    /// when `None`) unless it has fired already: `true` the first time, `false` ever after.
    /// Send the notice only on `true`, in the same transaction, so that a deadline fires once
    /// even when the daemon comes back after weeks (10.3.4, 10.3.6).
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure (e.g. no such game).
    pub fn fire_notice_once(
        &self,
        game: GameId,
        kind: &str,
        due_day: NaiveDate,
        player: Option<PlayerId>,
        at: DateTime<Utc>,
    ) -> Result<bool> {
        let n = self
            .execute(
                "INSERT INTO notices (game, kind, due_day, player, fired_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
                params![game, kind, Day(due_day), player, Moment(at)],
            )
            .during(|| format!("fire notice '{kind}' of game {game} due {due_day}"))?;
        Ok(n == 1)
    }

    /// The notices of `game` that have fired, in order.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn notices_of(&self, game: GameId) -> Result<Vec<Notice>> {
        self.collect(
            "SELECT game, kind, due_day, player, fired_at FROM notices WHERE game = ?1 \
             ORDER BY id",
            [game],
            notice_row,
            || format!("list the notices of game {game}"),
        )
    }

    /// Claims today's one short answer to an unknown `sender` (ASCII case ignored): `true` the
    /// first time on `day`, `false` after, so that no sender gets more than one a day and no
    /// mail loop can start.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn courtesy_once(&self, sender: &str, day: NaiveDate, at: DateTime<Utc>) -> Result<bool> {
        let n = self
            .execute(
                "INSERT INTO courtesy (sender, day, sent_at) VALUES (?1, ?2, ?3) \
                 ON CONFLICT DO NOTHING",
                params![sender, Day(day), Moment(at)],
            )
            .during(|| format!("claim the courtesy answer to '{sender}' on {day}"))?;
        Ok(n == 1)
    }

    /// Records an arbiter's or secretary's decision.
    ///
    /// # Errors
    /// [`StoreError::Json`] when the action is not JSON; [`StoreError::Sql`] on failure.
    pub fn record_decision(&self, d: &NewDecision<'_>, at: DateTime<Utc>) -> Result<DecisionId> {
        serde_json::from_str::<serde::de::IgnoredAny>(d.action).map_err(|source| {
            StoreError::Json {
                op: format!("read the decision action '{}' as", d.action),
                source,
            }
        })?;
        self.execute(
            "INSERT INTO decisions (game, author, text, action, letter, at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![d.game, d.author, d.text, d.action, d.letter, Moment(at)],
        )
        .during(|| format!("record the decision '{}'", d.text))?;
        Ok(DecisionId(self.conn().last_insert_rowid()))
    }

    /// The decisions about `game`, in order.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn decisions_of(&self, game: GameId) -> Result<Vec<Decision>> {
        self.collect(
            "SELECT id, game, author, text, action, letter, at FROM decisions WHERE game = ?1 \
             ORDER BY id",
            [game],
            decision_row,
            || format!("list the decisions about game {game}"),
        )
    }

    /// Where fetching from `mailbox` stands, if it ever started.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn mailbox_state(&self, mailbox: &str) -> Result<Option<MailboxState>> {
        self.query_row(
            "SELECT uidvalidity, last_uid FROM mailbox_state WHERE mailbox = ?1",
            [mailbox],
            |row| {
                Ok(MailboxState {
                    uidvalidity: row.get(0)?,
                    last_uid: row.get(1)?,
                })
            },
        )
        .optional()
        .during(|| format!("read the state of mailbox '{mailbox}'"))
    }

    /// Sets where fetching from `mailbox` stands; do it in the transaction that stores the
    /// letter with `last_uid`.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn set_mailbox_state(
        &self,
        mailbox: &str,
        state: MailboxState,
        at: DateTime<Utc>,
    ) -> Result<()> {
        self.execute(
            "INSERT INTO mailbox_state (mailbox, uidvalidity, last_uid, updated) \
             VALUES (?1, ?2, ?3, ?4) ON CONFLICT (mailbox) DO UPDATE SET \
             uidvalidity = excluded.uidvalidity, last_uid = excluded.last_uid, \
             updated = excluded.updated",
            params![mailbox, state.uidvalidity, state.last_uid, Moment(at)],
        )
        .during(|| format!("set the state of mailbox '{mailbox}'"))?;
        Ok(())
    }

    /// Records a break (10.4). Whether it is allowed (30 days at most, one a calendar year)
    /// is the `tournament` module's business.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure (e.g. last day before first, no such player).
    pub fn add_break(&self, b: &NewBreak, at: DateTime<Utc>) -> Result<BreakId> {
        self.execute(
            "INSERT INTO breaks (player, first_day, last_day, special, letter, decision, \
             created) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                b.player,
                Day(b.first_day),
                Day(b.last_day),
                b.is_special,
                b.letter,
                b.decision,
                Moment(at)
            ],
        )
        .during(|| {
            format!(
                "record a break of player {} from {} to {}",
                b.player, b.first_day, b.last_day
            )
        })?;
        Ok(BreakId(self.conn().last_insert_rowid()))
    }

    /// A player's breaks, earliest first.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn breaks_of(&self, player: PlayerId) -> Result<Vec<Break>> {
        self.collect(
            "SELECT id, player, first_day, last_day, special, letter, decision, created \
             FROM breaks WHERE player = ?1 ORDER BY first_day, id",
            [player],
            break_row,
            || format!("list the breaks of player {player}"),
        )
    }

    /// Every break of any entry of the address `email` (ASCII case ignored), in any
    /// tournament, earliest first: a break holds in all the player's unfinished games (10.4).
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn breaks_of_email(&self, email: &str) -> Result<Vec<Break>> {
        self.collect(
            "SELECT b.id, b.player, b.first_day, b.last_day, b.special, b.letter, b.decision, \
             b.created FROM breaks b JOIN players p ON p.id = b.player WHERE p.email = ?1 \
             ORDER BY b.first_day, b.id",
            [email],
            break_row,
            || format!("list the breaks of '{email}'"),
        )
    }
}
