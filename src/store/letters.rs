//! Letters in (raw, kept forever, 10.1.13; exactly once) and letters out (the outbox).

use chrono::{DateTime, TimeDelta, Utc};
use rusqlite::{OptionalExtension, Row, params};

use super::{
    GameId, LetterInId, LetterOutId, Moment, PlayerId, Result, SqlContext, StoreError, Tx,
    bare_message_id,
};

/// A letter as it came from the transport, to be stored before anything else happens.
#[derive(Debug, Clone)]
pub struct NewLetterIn<'a> {
    /// Where it came from, unique for ever: the Maildir file name, or
    /// `imap:<mailbox>:<uidvalidity>:<uid>`.
    pub transport_id: &'a str,
    /// Its Message-ID (angle brackets optional), if it has one.
    pub message_id: Option<&'a str>,
    /// The sender's address.
    pub sender: &'a str,
    /// The subject (empty when there is none).
    pub subject: &'a str,
    /// The postmark: when the mailbox received it (IMAP INTERNALDATE, the Maildir file's
    /// time, or `--now`).
    pub received: DateTime<Utc>,
    /// The whole message as it came.
    pub raw: &'a [u8],
}

/// What storing a letter found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// A letter not seen before, now stored with this id: judge it.
    New(LetterInId),
    /// The same letter is already stored with this id (same transport id, or same
    /// Message-ID from the same sender): do nothing.
    Seen(LetterInId),
}

/// What became of a letter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Read and judged in this game (accepted or rejected with a reply: that is the game's
    /// business), or an arbiter's command about it.
    Judged {
        /// The game.
        game: GameId,
    },
    /// Kept but not judged: unknown sender, unknown game, a letter naming another player's
    /// game, unreadable.
    SetAside {
        /// The game it named, when one could be told.
        game: Option<GameId>,
        /// Why, for the organiser.
        reason: String,
    },
    /// Automatic mail (auto-reply, bounce, mailing list, our own): kept, never answered.
    Ignored {
        /// What kind of automatic mail.
        reason: String,
    },
}

impl Outcome {
    /// The stored word for the outcome.
    fn word(&self) -> &'static str {
        match self {
            Outcome::Judged { .. } => "judged",
            Outcome::SetAside { .. } => "set aside",
            Outcome::Ignored { .. } => "ignored",
        }
    }

    /// The game the letter belongs to, if any.
    pub fn game(&self) -> Option<GameId> {
        match self {
            Outcome::Judged { game } => Some(*game),
            Outcome::SetAside { game, .. } => *game,
            Outcome::Ignored { .. } => None,
        }
    }

    /// The reason, for letters not judged.
    fn reason(&self) -> Option<&str> {
        match self {
            Outcome::Judged { .. } => None,
            Outcome::SetAside { reason, .. } | Outcome::Ignored { reason } => Some(reason),
        }
    }

    /// Reads the stored columns back.
    fn from_columns(
        word: &str,
        reason: Option<String>,
        game: Option<GameId>,
    ) -> std::result::Result<Self, StoreError> {
        match (word, game) {
            ("judged", Some(game)) => Ok(Outcome::Judged { game }),
            ("set aside", game) => Ok(Outcome::SetAside {
                game,
                reason: reason.unwrap_or_default(),
            }),
            ("ignored", _) => Ok(Outcome::Ignored {
                reason: reason.unwrap_or_default(),
            }),
            _ => Err(StoreError::Invalid {
                what: "letter outcome",
                value: word.to_owned(),
            }),
        }
    }
}

/// What [`super::Store::process_letter`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Processed<T> {
    /// The letter was new: stored, handled and committed.
    New {
        /// The stored letter.
        id: LetterInId,
        /// What the handler returned.
        value: T,
    },
    /// The letter was already stored (with this id); nothing was done.
    Seen(LetterInId),
}

/// A stored incoming letter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LetterIn {
    /// Its id.
    pub id: LetterInId,
    /// Where it came from.
    pub transport_id: String,
    /// Its Message-ID, without angle brackets.
    pub message_id: Option<String>,
    /// The sender's address.
    pub sender: String,
    /// The subject.
    pub subject: String,
    /// The postmark.
    pub received: DateTime<Utc>,
    /// The whole message.
    pub raw: Vec<u8>,
    /// What became of it (`None` only inside the transaction that stored it).
    pub outcome: Option<Outcome>,
    /// When it was handled.
    pub processed_at: Option<DateTime<Utc>>,
    /// What the sender check found (JSON: mode, result, domain, reason); `None` for letters
    /// stored before it existed.
    pub auth: Option<String>,
}

/// A letter to put in the outbox.
#[derive(Debug, Clone)]
pub struct NewLetterOut<'a> {
    /// Its Message-ID (angle brackets optional), fixed now so that a retry is the same
    /// letter.
    pub message_id: &'a str,
    /// What it is, for the organiser and the tests: `forward`, `receipt`, `error`, ...
    pub kind: &'a str,
    /// The game it is about, if any.
    pub game: Option<GameId>,
    /// The letter it answers, if any.
    pub in_reply_to: Option<LetterInId>,
    /// The envelope sender (bounces go there).
    pub envelope_from: &'a str,
    /// The envelope recipients.
    pub recipients: &'a [String],
    /// The complete RFC 5322 message.
    pub raw: &'a [u8],
}

/// A letter in the outbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LetterOut {
    /// Its id.
    pub id: LetterOutId,
    /// Its Message-ID, without angle brackets.
    pub message_id: String,
    /// What it is.
    pub kind: String,
    /// The game it is about.
    pub game: Option<GameId>,
    /// The letter it answers.
    pub in_reply_to: Option<LetterInId>,
    /// The envelope sender.
    pub envelope_from: String,
    /// The envelope recipients.
    pub recipients: Vec<String>,
    /// The complete message.
    pub raw: Vec<u8>,
    /// When it was queued.
    pub created: DateTime<Utc>,
    /// When it was sent, once it was.
    pub sent_at: Option<DateTime<Utc>>,
    /// Failed attempts so far.
    pub attempts: u32,
    /// When to try next.
    pub next_attempt: DateTime<Utc>,
    /// The last failure.
    pub last_error: Option<String>,
    /// When sending was abandoned (a permanent failure), if it was.
    pub gave_up_at: Option<DateTime<Utc>>,
}

/// How the mail stands, for the daemon's log and the tests: nothing lost means `waiting`
/// comes back to 0 once the mail server is back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MailSummary {
    /// Letters received and stored.
    pub received: u32,
    /// Outgoing letters sent.
    pub sent: u32,
    /// Outgoing letters waiting to be sent (due now or later).
    pub waiting: u32,
    /// Of those waiting, the ones that failed at least once.
    pub failing: u32,
    /// Outgoing letters abandoned after a permanent failure.
    pub given_up: u32,
}

/// How long to wait after the `failures`-th failed attempt to send a letter: 1 minute, then
/// 2, 4, 8 … doubling, never more than an hour (a mail server down for a day is retried
/// hourly, and nothing is lost).
pub fn retry_delay(failures: u32) -> TimeDelta {
    const CAP_MINUTES: i64 = 60;
    let doublings = failures.saturating_sub(1).min(6); // 2^6 = 64 > the cap already
    TimeDelta::minutes((1_i64 << doublings).min(CAP_MINUTES))
}

/// The letters due to be sent by `?1`, oldest first, at most `?2`: the rest of a `SELECT`.
/// The pending index, not a walk of every letter ever sent in id order (the planner's choice
/// for ORDER BY id without it).
const DUE_OUTGOING: &str = "FROM letters_out INDEXED BY letters_out_pending \
     WHERE sent_at IS NULL AND gave_up_at IS NULL AND next_attempt <= ?1 ORDER BY id LIMIT ?2";

const LETTER_IN_COLUMNS: &str = "id, transport_id, message_id, sender, subject, received, raw, \
     outcome, reason, game, processed_at, auth, raw_zlib";

/// How hard the raw letters are compressed: zlib's level 6 keeps a forward with its board
/// picture at about half its size for a fraction of a millisecond.
const RAW_LEVEL: u32 = 6;

/// A raw letter as it is kept: deflated in the zlib format (`raw_zlib = 1`).
fn pack(raw: &[u8]) -> Vec<u8> {
    crate::zlib::deflate(raw, RAW_LEVEL)
}

/// The most a stored letter may inflate to: 256 MiB, far past what mail servers pass
/// (Postfix's default limit is 10 MB). A blob that inflates further is damaged or hostile,
/// and is refused before it takes the memory.
const RAW_LIMIT: usize = 256 << 20;

/// A raw letter as it was stored: inflated when `zlib`, its checksum checked.
fn unpack(blob: Vec<u8>, zlib: bool, column: usize) -> rusqlite::Result<Vec<u8>> {
    if !zlib {
        return Ok(blob);
    }
    crate::zlib::inflate(&blob, blob.len() * 3, RAW_LIMIT).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(column, rusqlite::types::Type::Blob, Box::new(e))
    })
}

fn letter_in_row(row: &Row<'_>) -> rusqlite::Result<LetterIn> {
    let word: Option<String> = row.get(7)?;
    let outcome = match word {
        None => None,
        Some(word) => Some(
            Outcome::from_columns(&word, row.get(8)?, row.get(9)?).map_err(|e| {
                rusqlite::Error::FromSqlConversionFailure(
                    7,
                    rusqlite::types::Type::Text,
                    Box::new(e),
                )
            })?,
        ),
    };
    Ok(LetterIn {
        id: row.get(0)?,
        transport_id: row.get(1)?,
        message_id: row.get(2)?,
        sender: row.get(3)?,
        subject: row.get(4)?,
        received: row.get::<_, Moment>(5)?.0,
        raw: unpack(row.get(6)?, row.get(12)?, 6)?,
        outcome,
        processed_at: row.get::<_, Option<Moment>>(10)?.map(|m| m.0),
        auth: row.get(11)?,
    })
}

const LETTER_OUT_COLUMNS: &str = "id, message_id, kind, game, in_reply_to, envelope_from, \
     recipients, raw, created, sent_at, attempts, next_attempt, last_error, gave_up_at, raw_zlib";

fn letter_out_row(row: &Row<'_>) -> rusqlite::Result<LetterOut> {
    let recipients: String = row.get(6)?;
    let recipients = serde_json::from_str(&recipients).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(6, rusqlite::types::Type::Text, Box::new(e))
    })?;
    Ok(LetterOut {
        id: row.get(0)?,
        message_id: row.get(1)?,
        kind: row.get(2)?,
        game: row.get(3)?,
        in_reply_to: row.get(4)?,
        envelope_from: row.get(5)?,
        recipients,
        raw: unpack(row.get(7)?, row.get(14)?, 7)?,
        created: row.get::<_, Moment>(8)?.0,
        sent_at: row.get::<_, Option<Moment>>(9)?.map(|m| m.0),
        attempts: row.get(10)?,
        next_attempt: row.get::<_, Moment>(11)?.0,
        last_error: row.get(12)?,
        gave_up_at: row.get::<_, Option<Moment>>(13)?.map(|m| m.0),
    })
}

impl Tx<'_> {
    /// Stores a letter raw, unless it is already stored: same transport id, or same
    /// Message-ID from the same sender (ASCII case ignored). A letter seen again changes
    /// nothing.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn admit_letter(&self, letter: &NewLetterIn<'_>) -> Result<Admission> {
        let message_id = letter
            .message_id
            .map(bare_message_id)
            .filter(|m| !m.is_empty());
        let seen: Option<LetterInId> = self
            .query_row(
                "SELECT id FROM letters_in WHERE transport_id = ?1 \
                 UNION ALL SELECT id FROM letters_in WHERE message_id = ?2 AND sender = ?3 \
                 LIMIT 1",
                params![letter.transport_id, message_id, letter.sender],
                |row| row.get(0),
            )
            .optional()
            .during(|| format!("look for letter '{}'", letter.transport_id))?;
        if let Some(id) = seen {
            return Ok(Admission::Seen(id));
        }
        self.execute(
            "INSERT INTO letters_in (transport_id, message_id, sender, subject, received, raw, \
             raw_zlib) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1)",
            params![
                letter.transport_id,
                message_id,
                letter.sender,
                letter.subject,
                Moment(letter.received),
                pack(letter.raw)
            ],
        )
        .during(|| format!("store letter '{}'", letter.transport_id))?;
        Ok(Admission::New(LetterInId(self.conn().last_insert_rowid())))
    }

    /// Records what became of a letter and when.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when there is no such letter; [`StoreError::Sql`] on failure
    /// (e.g. a game that does not exist).
    pub fn record_outcome(
        &self,
        id: LetterInId,
        outcome: &Outcome,
        at: DateTime<Utc>,
    ) -> Result<()> {
        let n = self
            .execute(
                "UPDATE letters_in SET outcome = ?2, reason = ?3, game = ?4, processed_at = ?5 \
                 WHERE id = ?1",
                params![
                    id,
                    outcome.word(),
                    outcome.reason(),
                    outcome.game(),
                    Moment(at)
                ],
            )
            .during(|| format!("record the outcome of letter {id}"))?;
        if n == 0 {
            return Err(id.not_found());
        }
        Ok(())
    }

    /// Keeps what the sender check found with a stored letter (`json`: an object).
    ///
    /// # Errors
    /// [`StoreError`] when the letter is not stored or the text is not JSON.
    pub fn record_auth(&self, id: LetterInId, json: &str) -> Result<()> {
        let n = self
            .execute(
                "UPDATE letters_in SET auth = ?2 WHERE id = ?1",
                params![id, json],
            )
            .during(|| format!("record the sender check of letter {id}"))?;
        if n == 0 {
            return Err(id.not_found());
        }
        Ok(())
    }

    /// The stored letter with this id.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when there is none; [`StoreError::Sql`] on failure.
    pub fn letter_in(&self, id: LetterInId) -> Result<LetterIn> {
        self.query_row(
            &format!("SELECT {LETTER_IN_COLUMNS} FROM letters_in WHERE id = ?1"),
            [id],
            letter_in_row,
        )
        .optional()
        .during(|| format!("read letter {id}"))?
        .ok_or_else(|| id.not_found())
    }

    /// Every letter of `player` in `game` (sent from his registered address or a former one),
    /// oldest first: what the arbiter's overdue notice attaches (10.3.6).
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when there is no such player; [`StoreError::Sql`] on failure.
    pub fn letters_of(&self, game: GameId, player: PlayerId) -> Result<Vec<LetterIn>> {
        let email = self.player(player)?.email;
        self.collect(
            &format!(
                "SELECT {LETTER_IN_COLUMNS} FROM letters_in WHERE game = ?1 AND (sender = ?2 \
                 OR sender IN (SELECT email FROM former_addresses WHERE player = ?3)) \
                 ORDER BY received, id"
            ),
            params![game, email, player],
            letter_in_row,
            || format!("list the letters of player {player} in game {game}"),
        )
    }

    /// Every stored letter about `game`, from anyone, oldest first.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn letters_of_game(&self, game: GameId) -> Result<Vec<LetterIn>> {
        self.collect(
            &format!(
                "SELECT {LETTER_IN_COLUMNS} FROM letters_in WHERE game = ?1 ORDER BY received, id"
            ),
            [game],
            letter_in_row,
            || format!("list the letters of game {game}"),
        )
    }

    /// Puts a letter in the outbox, due at once. It is sent after the transaction commits.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure (e.g. a Message-ID already used).
    pub fn queue(&self, letter: &NewLetterOut<'_>, now: DateTime<Utc>) -> Result<LetterOutId> {
        let message_id = bare_message_id(letter.message_id);
        let recipients =
            serde_json::to_string(letter.recipients).map_err(|source| StoreError::Json {
                op: format!("write the recipients of letter '{message_id}' as"),
                source,
            })?;
        self.execute(
            "INSERT INTO letters_out (message_id, kind, game, in_reply_to, envelope_from, \
             recipients, raw, created, next_attempt, raw_zlib) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, 1)",
            params![
                message_id,
                letter.kind,
                letter.game,
                letter.in_reply_to,
                letter.envelope_from,
                recipients,
                pack(letter.raw),
                Moment(now)
            ],
        )
        .during(|| format!("queue letter '{message_id}'"))?;
        Ok(LetterOutId(self.conn().last_insert_rowid()))
    }

    /// Up to `limit` letters waiting to be sent whose next attempt is due at `now`, in the
    /// order they were queued (so that a partner's moves arrive in order even after some were
    /// retried). When the server is down, [`Tx::mark_failed`] the letter tried,
    /// [`Tx::defer_outgoing`] the rest, and come back at [`Tx::next_outgoing_at`].
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn due_outgoing(&self, now: DateTime<Utc>, limit: usize) -> Result<Vec<LetterOut>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.collect(
            &format!("SELECT {LETTER_OUT_COLUMNS} {DUE_OUTGOING}"),
            params![Moment(now), limit],
            letter_out_row,
            || format!("list the letters due by {now}"),
        )
    }

    /// The ids of the letters [`Tx::due_outgoing`] lists, without reading the letters: what
    /// the daemon looks at when one of them cannot be read back.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn due_outgoing_ids(&self, now: DateTime<Utc>, limit: usize) -> Result<Vec<LetterOutId>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.collect(
            &format!("SELECT id {DUE_OUTGOING}"),
            params![Moment(now), limit],
            |row| row.get(0),
            || format!("list the ids of the letters due by {now}"),
        )
    }

    /// When the next letter waiting in the outbox is due, if any: the daemon's sender sleeps
    /// until then.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn next_outgoing_at(&self) -> Result<Option<DateTime<Utc>>> {
        self.query_row(
            "SELECT min(next_attempt) FROM letters_out \
             WHERE sent_at IS NULL AND gave_up_at IS NULL",
            [],
            |row| row.get::<_, Option<Moment>>(0),
        )
        .during(|| "read when the next letter is due".to_owned())
        .map(|m| m.map(|m| m.0))
    }

    /// Counts the letters in and out, by where they stand.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn mail_summary(&self) -> Result<MailSummary> {
        self.query_row(
            "SELECT (SELECT count(*) FROM letters_in), count(sent_at), \
             count(*) FILTER (WHERE sent_at IS NULL AND gave_up_at IS NULL), \
             count(*) FILTER (WHERE sent_at IS NULL AND gave_up_at IS NULL AND attempts > 0), \
             count(gave_up_at) FROM letters_out",
            [],
            |row| {
                Ok(MailSummary {
                    received: row.get(0)?,
                    sent: row.get(1)?,
                    waiting: row.get(2)?,
                    failing: row.get(3)?,
                    given_up: row.get(4)?,
                })
            },
        )
        .during(|| "count the letters".to_owned())
    }

    /// How many letters wait in the outbox (neither sent nor given up): read from the
    /// outbox's own index, so it costs the same however many letters were ever sent.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn outbox_waiting(&self) -> Result<u32> {
        self.query_row(
            "SELECT count(*) FROM letters_out INDEXED BY letters_out_pending \
             WHERE sent_at IS NULL AND gave_up_at IS NULL",
            [],
            |row| row.get(0),
        )
        .during(|| "count the letters waiting in the outbox".to_owned())
    }

    /// Marks a letter sent at `at`. Marking it again keeps the first time.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when there is no such letter; [`StoreError::Sql`] on failure.
    pub fn mark_sent(&self, id: LetterOutId, at: DateTime<Utc>) -> Result<()> {
        let n = self
            .execute(
                "UPDATE letters_out SET sent_at = coalesce(sent_at, ?2) WHERE id = ?1",
                params![id, Moment(at)],
            )
            .during(|| format!("mark letter {id} sent"))?;
        if n == 0 {
            return Err(id.not_found());
        }
        Ok(())
    }

    /// Records a failed attempt at `now` with its error, and schedules the next one after
    /// [`retry_delay`]; returns when that is.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when there is no such letter; [`StoreError::Sql`] on failure.
    pub fn mark_failed(
        &self,
        id: LetterOutId,
        error: &str,
        now: DateTime<Utc>,
    ) -> Result<DateTime<Utc>> {
        let attempts: u32 = self
            .query_row(
                "UPDATE letters_out SET attempts = attempts + 1, last_error = ?2 \
                 WHERE id = ?1 RETURNING attempts",
                params![id, error],
                |row| row.get(0),
            )
            .optional()
            .during(|| format!("record a failure of letter {id}"))?
            .ok_or_else(|| id.not_found())?;
        let next = now + retry_delay(attempts);
        self.execute(
            "UPDATE letters_out SET next_attempt = ?2 WHERE id = ?1",
            params![id, Moment(next)],
        )
        .during(|| format!("schedule letter {id}"))?;
        Ok(next)
    }

    /// Puts off every waiting letter due before `until` to `until`, without counting an
    /// attempt: the mail server is down, so nothing is tried before then. Returns how many.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn defer_outgoing(&self, until: DateTime<Utc>) -> Result<usize> {
        self.execute(
            "UPDATE letters_out SET next_attempt = ?1 \
             WHERE sent_at IS NULL AND gave_up_at IS NULL AND next_attempt < ?1",
            params![Moment(until)],
        )
        .during(|| format!("put off the outbox until {until}"))
    }

    /// Stops trying to send a letter (the server refused it for good): it stays in the
    /// outbox with the error, for the organiser.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when there is no such letter; [`StoreError::Sql`] on failure.
    pub fn give_up(&self, id: LetterOutId, error: &str, at: DateTime<Utc>) -> Result<()> {
        let n = self
            .execute(
                "UPDATE letters_out SET attempts = attempts + 1, last_error = ?2, \
                 gave_up_at = ?3 WHERE id = ?1",
                params![id, error, Moment(at)],
            )
            .during(|| format!("give up letter {id}"))?;
        if n == 0 {
            return Err(id.not_found());
        }
        Ok(())
    }

    /// The outbox letter with this id.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when there is none; [`StoreError::Sql`] on failure.
    pub fn letter_out(&self, id: LetterOutId) -> Result<LetterOut> {
        self.query_row(
            &format!("SELECT {LETTER_OUT_COLUMNS} FROM letters_out WHERE id = ?1"),
            [id],
            letter_out_row,
        )
        .optional()
        .during(|| format!("read outgoing letter {id}"))?
        .ok_or_else(|| id.not_found())
    }

    /// The outgoing letter with this Message-ID (angle brackets optional), if any: a
    /// player's reply names it in In-Reply-To/References, which tells the game.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn find_letter_out(&self, message_id: &str) -> Result<Option<LetterOut>> {
        let message_id = bare_message_id(message_id);
        self.query_row(
            &format!("SELECT {LETTER_OUT_COLUMNS} FROM letters_out WHERE message_id = ?1"),
            [message_id],
            letter_out_row,
        )
        .optional()
        .during(|| format!("find outgoing letter '{message_id}'"))
    }

    /// Every outgoing letter about no one game (start lists, digests, reports, notes to
    /// the officials), in the order they were queued.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn letters_out_without_game(&self) -> Result<Vec<LetterOut>> {
        self.collect(
            &format!("SELECT {LETTER_OUT_COLUMNS} FROM letters_out WHERE game IS NULL ORDER BY id"),
            [],
            letter_out_row,
            || "list the outgoing letters about no one game".to_string(),
        )
    }

    /// Every outgoing letter about `game`, in the order they were queued.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn letters_out_of_game(&self, game: GameId) -> Result<Vec<LetterOut>> {
        self.collect(
            &format!("SELECT {LETTER_OUT_COLUMNS} FROM letters_out WHERE game = ?1 ORDER BY id"),
            [game],
            letter_out_row,
            || format!("list the outgoing letters of game {game}"),
        )
    }

    /// The Message-ID of the last letter of `game` sent to any of `addresses` (ASCII case
    /// ignored), to thread the next one after it; reads the addresses, not the letters.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn last_letter_out_to(&self, game: GameId, addresses: &[&str]) -> Result<Option<String>> {
        let rows = self.collect(
            "SELECT message_id, recipients FROM letters_out WHERE game = ?1 ORDER BY id DESC",
            [game],
            |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?)),
            || format!("find the last outgoing letter of game {game}"),
        )?;
        for (id, recipients) in rows {
            // Stored by `queue` as a JSON list: one that does not read is an error, as when
            // the whole letter is read (`letter_out_row`).
            let recipients: Vec<String> =
                serde_json::from_str(&recipients).map_err(|source| StoreError::Json {
                    op: format!("read the recipients of letter {id}"),
                    source,
                })?;
            if recipients
                .iter()
                .any(|r| addresses.iter().any(|a| a.eq_ignore_ascii_case(r)))
            {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }
}
