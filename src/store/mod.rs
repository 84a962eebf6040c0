//! The SQLite store: migrations and the one `Store` type that holds all the SQL.
//!
//! The database file is the whole state of a federation's mailbox: tournaments, players,
//! games (each game's full state is one JSON document owned by the `game` module, kept here as
//! text beside the columns the daemon queries), every letter in and out, raw and kept forever
//! (10.1.13), the deadline notices already fired, the arbiter's decisions, breaks and the IMAP
//! bookkeeping. Copy the file (or [`Store::backup`] it) and you have moved the federation.
//!
//! Exactly once: one letter is one transaction ([`Store::process_letter`]). The raw letter is
//! inserted first; a letter already stored (same transport id, or same Message-ID from the
//! same sender) is [`Processed::Seen`] and nothing happens. Everything the letter causes — the
//! game's new state, the outgoing letters queued in the outbox, notices, decisions — is
//! committed with it, or nothing is. The outbox is sent after commit and retried with
//! [`retry_delay`] until it goes.
//!
//! The store knows SQL and nothing of mail transports, templates or the rules of play; it
//! never reads the system clock (`now`/`at` are arguments). The API is synchronous: the daemon
//! calls it from a blocking thread.

mod games;
mod ledger;
mod letters;
pub mod migrations;

#[cfg(test)]
mod tests;

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSqlOutput, ValueRef};
use rusqlite::{Connection, OpenFlags, ToSql, TransactionBehavior};
use serde::{Deserialize, Serialize};

pub use games::{
    Game, GameStatus, GameUpdate, NewGame, NewTournament, Player, Tournament, TournamentStatus,
};
pub use ledger::{Break, Decision, MailboxState, NewBreak, NewDecision, Notice};
pub use letters::{
    Admission, LetterIn, LetterOut, MailSummary, NewLetterIn, NewLetterOut, Outcome, Processed,
    retry_delay,
};
pub use migrations::MIGRATIONS;

/// How long a statement waits for another connection's lock (the CLI beside the daemon)
/// before it fails with "database is locked".
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// What went wrong in the store. A player's mistake is never one of these: those are data.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database file could not be opened or set up.
    #[error("cannot open database '{}'", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// SQLite's reason.
        #[source]
        source: rusqlite::Error,
    },
    /// The database was written by a newer zaochka: its schema is ahead of ours.
    #[error("database schema version {found} is newer than this zaochka knows ({known})")]
    TooNew {
        /// The database's `user_version`.
        found: i64,
        /// The number of migrations this build knows.
        known: usize,
    },
    /// There is no database file at the path (only `zaochka init` creates one).
    #[error("no database '{}': create it with `zaochka init` (or fix `database` in the config)", path.display())]
    Missing {
        /// The path looked at.
        path: PathBuf,
    },
    /// The file is empty, or not a zaochka database (another SQLite file, or not SQLite).
    #[error("'{}' is not a zaochka database ({why}): create one with `zaochka init` (or fix `database` in the config)", path.display())]
    NotADatabase {
        /// The file.
        path: PathBuf,
        /// What was found.
        why: String,
    },
    /// A migration failed; the database is left as it was before any of them ran.
    #[error("migration {version} failed")]
    Migration {
        /// The schema version the migration would have produced.
        version: usize,
        /// SQLite's reason.
        #[source]
        source: rusqlite::Error,
    },
    /// A statement failed.
    #[error("cannot {op}")]
    Sql {
        /// What was being done, with its input.
        op: String,
        /// SQLite's reason.
        #[source]
        source: rusqlite::Error,
    },
    /// A tournament with this cipher already exists.
    #[error("tournament '{cipher}' already exists")]
    TournamentExists {
        /// The cipher.
        cipher: String,
    },
    /// A player with this address is already registered in the tournament.
    #[error("player '{email}' is already registered in tournament {tournament}")]
    PlayerExists {
        /// The tournament.
        tournament: TournamentId,
        /// The address.
        email: String,
    },
    /// A game with this number already exists in the tournament.
    #[error("game {number} already exists in tournament {tournament}")]
    GameExists {
        /// The tournament.
        tournament: TournamentId,
        /// The game's number.
        number: u32,
    },
    /// A row looked up by its id does not exist.
    #[error("no {what} with id {id}")]
    NotFound {
        /// What was looked for (`game`, `player`, ...).
        what: &'static str,
        /// The id.
        id: i64,
    },
    /// A value given to the store, or read back from it, is not what the column holds.
    #[error("invalid {what} '{value}'")]
    Invalid {
        /// Which value.
        what: &'static str,
        /// The value.
        value: String,
    },
    /// A JSON document could not be written or read.
    #[error("cannot {op} JSON")]
    Json {
        /// What was being done, with its input.
        op: String,
        /// serde's reason.
        #[source]
        source: serde_json::Error,
    },
    /// The online backup failed.
    #[error("cannot back up the database to '{}'", path.display())]
    Backup {
        /// The backup file.
        path: PathBuf,
        /// SQLite's reason.
        #[source]
        source: rusqlite::Error,
    },
}

impl StoreError {
    /// Whether a stored value could not be read back as what it should be (a zlib or JSON
    /// column that does not decode, a value of the wrong type): damaged data in the file,
    /// not a failure of SQLite or of the disk, which may pass.
    pub fn is_damaged_value(&self) -> bool {
        matches!(
            self,
            StoreError::Sql {
                source: rusqlite::Error::FromSqlConversionFailure(..)
                    | rusqlite::Error::InvalidColumnType(..),
                ..
            }
        )
    }
}

/// The store's result.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Attaches what was being done to a rusqlite error.
trait SqlContext<T> {
    /// Maps the error to [`StoreError::Sql`] with `op` (only built on error).
    fn during(self, op: impl FnOnce() -> String) -> Result<T>;
}

impl<T> SqlContext<T> for rusqlite::Result<T> {
    fn during(self, op: impl FnOnce() -> String) -> Result<T> {
        self.map_err(|source| StoreError::Sql { op: op(), source })
    }
}

/// Whether `err` is a UNIQUE (or PRIMARY KEY) constraint violation.
fn is_unique_violation(err: &rusqlite::Error) -> bool {
    matches!(
        err,
        rusqlite::Error::SqliteFailure(e, _)
            if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                || e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
    )
}

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        #[allow(dead_code, reason = "not every kind of row is looked up by its id alone")]
        impl $name {
            /// The word for this kind of row in error messages.
            const WHAT: &'static str = $what;

            /// The "no such row" error for this id.
            fn not_found(self) -> StoreError {
                StoreError::NotFound { what: Self::WHAT, id: self.0 }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                self.0.to_sql()
            }
        }

        impl FromSql for $name {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                i64::column_result(value).map(Self)
            }
        }
    };
}

id_type!(
    /// A tournament's row id.
    TournamentId,
    "tournament"
);
id_type!(
    /// A player's row id (one per tournament entry: the same person in two tournaments has two).
    PlayerId,
    "player"
);
id_type!(
    /// A game's row id (not its number in the tournament).
    GameId,
    "game"
);
id_type!(
    /// A stored incoming letter.
    LetterInId,
    "incoming letter"
);
id_type!(
    /// A letter in the outbox.
    LetterOutId,
    "outgoing letter"
);
id_type!(
    /// An arbiter's or secretary's recorded decision.
    DecisionId,
    "decision"
);
id_type!(
    /// A recorded break (10.4).
    BreakId,
    "break"
);

/// A moment as stored: RFC 3339, UTC, microseconds, `Z` — fixed width, so text order is
/// time order.
#[derive(Debug, Clone, Copy)]
struct Moment(DateTime<Utc>);

impl ToSql for Moment {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(
            self.0.to_rfc3339_opts(SecondsFormat::Micros, true),
        ))
    }
}

impl FromSql for Moment {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let text = value.as_str()?;
        DateTime::parse_from_rfc3339(text)
            .map(|t| Moment(t.with_timezone(&Utc)))
            .map_err(|e| FromSqlError::Other(Box::new(e)))
    }
}

/// A calendar day as stored: `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy)]
struct Day(NaiveDate);

impl ToSql for Day {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.0.format("%Y-%m-%d").to_string()))
    }
}

impl FromSql for Day {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let text = value.as_str()?;
        NaiveDate::parse_from_str(text, "%Y-%m-%d")
            .map(Day)
            .map_err(|e| FromSqlError::Other(Box::new(e)))
    }
}

/// A Message-ID as stored: without angle brackets or surrounding blanks.
fn bare_message_id(id: &str) -> &str {
    id.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim()
}

/// How hard a commit is pushed to the disk before it returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Durability {
    /// Every commit is on the disk when it returns (`synchronous = FULL`, one fsync per
    /// letter): a committed letter survives a power cut too, which matters because the mail
    /// server is told the letter is handled once it is committed. The default.
    #[default]
    Full,
    /// Commits reach the disk at the next WAL checkpoint (`synchronous = NORMAL`): safe when
    /// the process is killed, never corrupt, but a power cut may undo the last few letters.
    /// About seven times as many letters a second on a disk with slow fsync.
    Normal,
}

/// The page size of a new database file, in bytes (see [`Store::open`]).
pub const PAGE_SIZE: i64 = 16_384;

/// The whole state of a federation's mailbox: one SQLite database.
///
/// Writes go through a [`Tx`] ([`Store::transaction`], [`Store::with_transaction`],
/// [`Store::process_letter`]); all the queries live on [`Tx`] too, so that a reader sees one
/// consistent snapshot.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
}

impl Store {
    /// Opens (creating if needed) the database file at `path`, turns on WAL, foreign keys
    /// and [`Durability::Full`], and runs the pending migrations. A new file gets pages of
    /// [`PAGE_SIZE`] bytes.
    ///
    /// # Errors
    /// [`StoreError::Open`] when the file cannot be opened or set up;
    /// [`StoreError::TooNew`] or [`StoreError::Migration`] from [`migrate`].
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        Self::open_with(path.as_ref(), OpenFlags::default())
    }

    /// Opens the database file at `path` like [`Store::open`], but refuses to create it:
    /// for the commands that read or change an existing federation (everything but `init`
    /// and `demo`), so that a mistyped path is an error rather than a new empty database.
    ///
    /// # Errors
    /// [`StoreError::Missing`] when there is no such file; [`StoreError::NotADatabase`] when
    /// it is empty or holds no zaochka schema; [`StoreError::Open`] when it cannot be set
    /// up; as [`Store::open`] otherwise.
    pub fn open_existing(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let not_a_database = |why: String| StoreError::NotADatabase {
            path: path.to_owned(),
            why,
        };
        match std::fs::metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(StoreError::Missing {
                    path: path.to_owned(),
                });
            }
            Err(e) => return Err(not_a_database(e.to_string())),
            Ok(m) if !m.is_file() => return Err(not_a_database("not a file".into())),
            Ok(m) if m.len() == 0 => return Err(not_a_database("an empty file".into())),
            Ok(_) => {}
        }
        // Before WAL or migrations touch it: an empty schema (another program's SQLite
        // file, or one left by a mistyped path) is not made into a new federation here.
        {
            let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
                .map_err(|source| StoreError::Open {
                    path: path.to_owned(),
                    source,
                })?;
            let _ = conn.busy_timeout(BUSY_TIMEOUT);
            let version: i64 = conn
                .pragma_query_value(None, "user_version", |row| row.get(0))
                .map_err(|e| not_a_database(e.to_string()))?;
            if version == 0 {
                return Err(not_a_database("no zaochka schema in it".into()));
            }
        }
        Self::open_with(
            path,
            OpenFlags::default().difference(OpenFlags::SQLITE_OPEN_CREATE),
        )
    }

    /// Opens a file with `flags`, then sets it up as [`Store::open`] says.
    fn open_with(path: &Path, flags: OpenFlags) -> Result<Self> {
        let open_error = |source| StoreError::Open {
            path: path.to_owned(),
            source,
        };
        let conn = Connection::open_with_flags(path, flags).map_err(open_error)?;
        // Before anything else touches the file: another process may hold a lock on it.
        conn.busy_timeout(BUSY_TIMEOUT).map_err(open_error)?;
        // A new file gets 16 KB pages (a file that has pages keeps its size: SQLite ignores
        // this then). Most stored letters are 1–4 KB deflated, and SQLite starts a new page
        // for a row that does not fit the last one: with 4 KB pages a forward of 3.6 KB took
        // a page of its own and a third of the letters' pages stood empty (issue 14: 10.7 KB
        // a letter with 4 KB pages, 7.6 KB with 16 KB, at the same CPU within the noise).
        conn.pragma_update(None, "page_size", PAGE_SIZE)
            .map_err(open_error)?;
        // WAL: readers (the CLI) never block the daemon's writes. It persists in the file.
        let mode: String = conn
            .pragma_update_and_check(None, "journal_mode", "wal", |row| row.get(0))
            .map_err(open_error)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Invalid {
                what: "journal mode (wanted wal)",
                value: mode,
            });
        }
        let store = Self::from_connection(conn)?;
        store.set_durability(Durability::Full)?;
        Ok(store)
    }

    /// Opens a fresh database in memory, migrated (tests; nothing is kept).
    ///
    /// # Errors
    /// As [`Store::from_connection`].
    pub fn open_in_memory() -> Result<Self> {
        let conn = Connection::open_in_memory().map_err(|source| StoreError::Open {
            path: PathBuf::from(":memory:"),
            source,
        })?;
        Self::from_connection(conn)
    }

    /// Wraps an open connection: sets the busy timeout, turns on foreign keys and runs the
    /// pending migrations.
    ///
    /// # Errors
    /// [`StoreError::Sql`] when a pragma fails or foreign keys cannot be turned on;
    /// [`StoreError::TooNew`] or [`StoreError::Migration`] from [`migrate`].
    pub fn from_connection(mut conn: Connection) -> Result<Self> {
        // Every statement of the store's stays prepared (the default keeps 16; the store has
        // some 60).
        conn.set_prepared_statement_cache_capacity(128);
        // The query planner stability guarantee: a plan does not depend on the values bound,
        // so a kept statement is not prepared again each time a new value is bound to it
        // (without it, SQLite 3.54 re-planned the games', players' and letters' lookups on
        // every run: a twentieth of a letter's CPU). Our indexes do not need the values.
        conn.set_db_config(
            rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG,
            true,
        )
        .during(|| "turn on the query planner stability guarantee".to_owned())?;
        conn.busy_timeout(BUSY_TIMEOUT)
            .during(|| "set the busy timeout".to_owned())?;
        conn.pragma_update(None, "foreign_keys", true)
            .during(|| "turn on foreign keys".to_owned())?;
        let on: bool = conn
            .pragma_query_value(None, "foreign_keys", |row| row.get(0))
            .during(|| "read the foreign keys pragma".to_owned())?;
        if !on {
            return Err(StoreError::Invalid {
                what: "foreign keys pragma (wanted on)",
                value: "off".to_owned(),
            });
        }
        migrate(&mut conn)?;
        Ok(Self { conn })
    }

    /// Sets how hard each commit is pushed to the disk (`PRAGMA synchronous`) on this
    /// connection. [`Store::open`] starts at [`Durability::Full`].
    ///
    /// # Errors
    /// [`StoreError::Sql`] when the pragma fails.
    pub fn set_durability(&self, durability: Durability) -> Result<()> {
        let value = match durability {
            Durability::Full => "FULL",
            Durability::Normal => "NORMAL",
        };
        self.conn
            .pragma_update(None, "synchronous", value)
            .during(|| format!("set synchronous to {value}"))
    }

    /// The schema version of the open database (`PRAGMA user_version`): after opening, the
    /// number of [`MIGRATIONS`].
    ///
    /// # Errors
    /// [`StoreError::Sql`] when the pragma cannot be read.
    pub fn schema_version(&self) -> Result<i64> {
        user_version(&self.conn)
    }

    /// The journal mode in effect: `wal` for a file, `memory` in memory.
    ///
    /// # Errors
    /// [`StoreError::Sql`] when the pragma cannot be read.
    pub fn journal_mode(&self) -> Result<String> {
        self.conn
            .pragma_query_value(None, "journal_mode", |row| row.get(0))
            .during(|| "read the journal mode".to_owned())
    }

    /// Begins a write transaction (`BEGIN IMMEDIATE`, so that it never has to upgrade a read
    /// lock later and fail). Dropping the [`Tx`] without [`Tx::commit`] rolls it back.
    ///
    /// # Errors
    /// [`StoreError::Sql`] when the transaction cannot begin (e.g. the database stays
    /// locked past the busy timeout).
    ///
    /// Inside a batch ([`Store::begin_batch`]) it is a savepoint of the batch instead: its
    /// commit keeps its changes for the batch's commit, and dropping it undoes only its own.
    pub fn transaction(&mut self) -> Result<Tx<'_>> {
        if self.in_batch() {
            let sp = self
                .conn
                .savepoint()
                .during(|| "begin a savepoint of the batch".to_owned())?;
            return Ok(Tx {
                tx: Inner::Savepoint(sp),
            });
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .during(|| "begin a transaction".to_owned())?;
        Ok(Tx {
            tx: Inner::Transaction(tx),
        })
    }

    /// Begins a batch: one write transaction (`BEGIN IMMEDIATE`) that holds the next
    /// [`Store::transaction`]s, each as a savepoint, until [`Store::commit_batch`]. A backlog
    /// of letters is judged so with one commit, one fsync, for many letters; each letter
    /// still succeeds or fails alone. Nothing of a batch is kept until its commit, and
    /// [`Store::read`] cannot be used inside one.
    ///
    /// # Errors
    /// [`StoreError::Sql`] when the transaction cannot begin, or a batch is already open.
    pub fn begin_batch(&mut self) -> Result<()> {
        self.conn
            .execute_batch("BEGIN IMMEDIATE")
            .during(|| "begin a batch".to_owned())
    }

    /// Whether a batch is open. After some failures (a full disk, an I/O error) SQLite
    /// rolls the whole transaction back by itself: then this is false and the batch is lost.
    pub fn in_batch(&self) -> bool {
        !self.conn.is_autocommit()
    }

    /// Commits the open batch: everything done in it is kept at once, or (on an error)
    /// nothing is.
    ///
    /// # Errors
    /// [`StoreError::Sql`] when SQLite cannot commit, or no batch is open (it was rolled
    /// back by SQLite: nothing of it was kept).
    pub fn commit_batch(&mut self) -> Result<()> {
        let committed = self
            .conn
            .execute_batch("COMMIT")
            .during(|| "commit the batch".to_owned());
        if committed.is_err() && self.in_batch() {
            // A commit that failed leaves the transaction open: undo it, so that the
            // store is usable and nothing half-done is kept.
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        committed
    }

    /// Runs `f` in one transaction: committed when `f` returns `Ok`, rolled back when it
    /// returns `Err` (or panics).
    ///
    /// # Errors
    /// `f`'s error, or a [`StoreError`] when the transaction cannot begin or commit.
    pub fn with_transaction<T, E>(
        &mut self,
        f: impl FnOnce(&Tx<'_>) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let tx = self.transaction()?;
        let value = f(&tx)?;
        tx.commit()?;
        Ok(value)
    }

    /// Runs `f` on a read snapshot (`BEGIN DEFERRED`): it sees one consistent state and, in
    /// WAL mode, neither waits for the daemon's writes nor holds them up (`game show`,
    /// `table`). Anything `f` writes is rolled back.
    ///
    /// # Errors
    /// `f`'s error, or a [`StoreError`] when the transaction cannot begin.
    pub fn read<T, E>(&self, f: impl FnOnce(&Tx<'_>) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let tx = self
            .conn
            .unchecked_transaction()
            .during(|| "begin a read transaction".to_owned())?;
        let tx = Tx {
            tx: Inner::Transaction(tx),
        };
        f(&tx)
        // Dropping `tx` rolls back.
    }

    /// One letter, one transaction, exactly once.
    ///
    /// Stores the raw `letter`; when it is already stored (the same transport id, or the same
    /// Message-ID from the same sender), returns [`Processed::Seen`] and changes nothing.
    /// Otherwise calls `f` with the transaction and the new letter's id: `f` judges it, updates
    /// the game, queues the outgoing letters, fires notices, records decisions, advances the
    /// mailbox state — and returns the letter's [`Outcome`] with its own value. The outcome is
    /// recorded with `now` as the processing time and everything is committed together. When
    /// `f` fails nothing at all is kept, not even the letter: store it again with an outcome
    /// of [`Outcome::SetAside`] (a handler that returns it without judging), so that a letter
    /// that trips a bug is archived rather than retried forever.
    ///
    /// A seen letter writes nothing, not even the mailbox state: when an IMAP letter was
    /// stored but not yet moved before a crash, advance [`Tx::set_mailbox_state`] on its own.
    ///
    /// # Errors
    /// `f`'s error, or a [`StoreError`] from storing the letter or committing.
    pub fn process_letter<T, E>(
        &mut self,
        letter: &NewLetterIn<'_>,
        now: DateTime<Utc>,
        f: impl FnOnce(&Tx<'_>, LetterInId) -> Result<(Outcome, T), E>,
    ) -> Result<Processed<T>, E>
    where
        E: From<StoreError>,
    {
        let tx = self.transaction()?;
        let id = match tx.admit_letter(letter)? {
            Admission::Seen(id) => return Ok(Processed::Seen(id)),
            Admission::New(id) => id,
        };
        let (outcome, value) = f(&tx, id)?;
        tx.record_outcome(id, &outcome, now)?;
        tx.commit()?;
        Ok(Processed::New { id, value })
    }

    /// Copies the whole database to the file `to` (replacing what it held) with SQLite's
    /// online backup API, while the daemon goes on working: the copy holds every committed
    /// transaction up to the moment it was taken. Any connection can take it, e.g. the
    /// CLI's beside the daemon's. The copy is a complete database: open it with [`Store::open`]
    /// (or put it in place of the database file while zaochka is stopped) to restore. The
    /// copy is in rollback-journal mode: one file, nothing beside it.
    ///
    /// # Errors
    /// [`StoreError::Backup`] when the file cannot be written or the copy fails.
    pub fn backup(&self, to: impl AsRef<Path>) -> Result<()> {
        use rusqlite::backup::{Backup, StepResult};
        const TRIES: u32 = 50;
        const PAUSE: Duration = Duration::from_millis(100);

        let to = to.as_ref();
        let error = |source| StoreError::Backup {
            path: to.to_owned(),
            source,
        };
        let mut copy = Connection::open(to).map_err(error)?;
        let backup = Backup::new(&self.conn, &mut copy).map_err(error)?;
        // All pages in one step: one consistent snapshot, which in WAL mode does not hold up
        // the daemon's writes (a step at a time would start over after each of them).
        for _ in 0..TRIES {
            match backup.step(-1).map_err(error)? {
                StepResult::Done => {
                    drop(backup);
                    // The copy is one file, with no -wal or -shm beside it: it can be moved,
                    // mailed or put in place as it is ([`Store::open`] turns WAL on again).
                    copy.pragma_update_and_check(None, "journal_mode", "delete", |_| Ok(()))
                        .map_err(error)?;
                    return Ok(());
                }
                // More (cannot be after -1), Busy, Locked: another connection's lock.
                _ => std::thread::sleep(PAUSE),
            }
        }
        Err(error(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
            Some(format!("still busy after {TRIES} tries")),
        )))
    }
}

/// Runs `PRAGMA integrity_check` on the database file at `path`, opened read-only (nothing
/// is created or migrated): the problems SQLite reports, empty when the file is sound.
///
/// # Errors
/// [`StoreError::Open`] when the file cannot be opened as SQLite; [`StoreError::Sql`] when
/// the check cannot run (e.g. the file is not a database at all).
pub fn integrity_check(path: impl AsRef<Path>) -> Result<Vec<String>> {
    let path = path.as_ref();
    let conn =
        Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(|source| {
            StoreError::Open {
                path: path.to_owned(),
                source,
            }
        })?;
    let mut stmt = conn
        .prepare("PRAGMA integrity_check")
        .during(|| format!("check the integrity of '{}'", path.display()))?;
    let rows = stmt
        .query_map([], |row| row.get::<_, String>(0))
        .and_then(Iterator::collect::<rusqlite::Result<Vec<String>>>)
        .during(|| format!("check the integrity of '{}'", path.display()))?;
    Ok(rows.into_iter().filter(|r| r != "ok").collect())
}

/// The database's `PRAGMA user_version`.
fn user_version(conn: &Connection) -> Result<i64> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
        .during(|| "read the schema version".to_owned())
}

/// Brings the database up to the latest schema: runs the migrations after its
/// `PRAGMA user_version`, all in one exclusive transaction, and sets the version. Running it
/// again does nothing. Returns the number of migrations run.
///
/// # Errors
/// [`StoreError::TooNew`] when the database is ahead of [`MIGRATIONS`];
/// [`StoreError::Migration`] when one fails (then none is kept); [`StoreError::Sql`] when the
/// transaction cannot begin or commit.
pub fn migrate(conn: &mut Connection) -> Result<usize> {
    // Up to date (every open but the first after an upgrade): no write lock needed, so the
    // CLI opening the database never waits for the daemon.
    let found = user_version(conn)?;
    if found == MIGRATIONS.len() as i64 {
        return Ok(0);
    }
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Exclusive)
        .during(|| "begin the migration transaction".to_owned())?;
    // Read again under the lock: another process may have migrated meanwhile.
    let found = user_version(&tx)?;
    let known = MIGRATIONS.len();
    let done = usize::try_from(found).map_err(|_| StoreError::Invalid {
        what: "schema version",
        value: found.to_string(),
    })?;
    if done > known {
        return Err(StoreError::TooNew { found, known });
    }
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(done) {
        let version = index + 1;
        tx.execute_batch(sql)
            .and_then(|()| tx.pragma_update(None, "user_version", version as i64))
            .map_err(|source| StoreError::Migration { version, source })?;
    }
    if done == known {
        // Another process migrated while this one waited for the lock.
        return Ok(0);
    }
    // A migration that rebuilt a table must not leave a dangling reference behind.
    let broken: Option<String> = tx
        .query_row("PRAGMA foreign_key_check", [], |row| row.get(0))
        .map(Some)
        .or_else(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => Ok(None),
            e => Err(e),
        })
        .during(|| "check foreign keys after migrating".to_owned())?;
    if let Some(table) = broken {
        return Err(StoreError::Invalid {
            what: "foreign key after migrating, in table",
            value: table,
        });
    }
    tx.commit().during(|| "commit the migrations".to_owned())?;
    Ok(known - done)
}

/// A transaction on the store: every query and every change goes through one. Dropped
/// without [`Tx::commit`], it rolls back.
#[derive(Debug)]
pub struct Tx<'s> {
    tx: Inner<'s>,
}

/// A transaction of its own, or a savepoint of a batch ([`Store::begin_batch`]).
#[derive(Debug)]
enum Inner<'s> {
    Transaction(rusqlite::Transaction<'s>),
    Savepoint(rusqlite::Savepoint<'s>),
}

impl Tx<'_> {
    /// Commits everything done in this transaction (inside a batch: keeps it for the
    /// batch's commit).
    ///
    /// # Errors
    /// [`StoreError::Sql`] when SQLite cannot commit (nothing is then kept).
    pub fn commit(self) -> Result<()> {
        match self.tx {
            Inner::Transaction(tx) => tx.commit(),
            Inner::Savepoint(sp) => sp.commit(),
        }
        .during(|| "commit".to_owned())
    }

    /// The connection under the transaction.
    fn conn(&self) -> &Connection {
        match &self.tx {
            Inner::Transaction(tx) => tx,
            Inner::Savepoint(sp) => sp,
        }
    }

    /// The first row of `sql`, mapped by `f`; the statement is kept prepared in the
    /// connection's cache, as every statement of the store's is (issue 14: preparing the
    /// games', tournaments' and letters' statements anew for every call took 3 % of a
    /// letter's CPU).
    fn query_row<T, P: rusqlite::Params>(
        &self,
        sql: &str,
        params: P,
        f: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<T> {
        self.conn().prepare_cached(sql)?.query_row(params, f)
    }

    /// Runs `sql` once, kept prepared as [`Tx::query_row`]: the number of rows changed.
    fn execute<P: rusqlite::Params>(&self, sql: &str, params: P) -> rusqlite::Result<usize> {
        self.conn().prepare_cached(sql)?.execute(params)
    }

    /// Runs a query, kept prepared as [`Tx::query_row`], and collects its rows; `op` names
    /// what failed.
    fn collect<T, P: rusqlite::Params>(
        &self,
        sql: &str,
        params: P,
        map: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
        op: impl FnOnce() -> String,
    ) -> Result<Vec<T>> {
        let run = || -> rusqlite::Result<Vec<T>> {
            let mut stmt = self.conn().prepare_cached(sql)?;
            let rows = stmt.query_map(params, map)?;
            rows.collect()
        };
        run().during(op)
    }

    /// How many rows the main tables hold (what `zaochka backup` reports of its copy).
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn totals(&self) -> Result<Totals> {
        self.query_row(
            "SELECT (SELECT count(*) FROM tournaments), (SELECT count(*) FROM players), \
             (SELECT count(*) FROM games), (SELECT count(*) FROM letters_in), \
             (SELECT count(*) FROM letters_out)",
            [],
            |row| {
                Ok(Totals {
                    tournaments: row.get(0)?,
                    players: row.get(1)?,
                    games: row.get(2)?,
                    letters_in: row.get(3)?,
                    letters_out: row.get(4)?,
                })
            },
        )
        .during(|| "count the rows of the database".to_owned())
    }
}

/// How many rows the main tables hold ([`Tx::totals`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// Tournaments.
    pub tournaments: i64,
    /// Players (one row per player and tournament).
    pub players: i64,
    /// Games.
    pub games: i64,
    /// Letters received.
    pub letters_in: i64,
    /// Letters queued or sent.
    pub letters_out: i64,
}
