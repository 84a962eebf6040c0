//! Tournaments, players and games.

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, NaiveDate, Utc};
use rusqlite::{OptionalExtension, Row, params};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{
    Day, GameId, Moment, PlayerId, Result, SqlContext, StoreError, TournamentId, Tx,
    is_unique_violation,
};

/// Where a tournament stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TournamentStatus {
    /// Added; players are being registered; not started.
    Registration,
    /// Started: pairings made, games under way.
    Playing,
    /// The end-of-play date has passed; unfinished games are with the arbiter (10.5).
    Adjudication,
    /// Every game has its result.
    Finished,
}

/// Where a game stands, as the daemon queries it and `game show --json` prints it. The
/// game's own state document is the authority; this column mirrors it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// Under way.
    Playing,
    /// Waiting for a corrected letter (10.2.9, 10.2.10).
    Stopped,
    /// A player overstepped the time limit; with the arbiter (10.3.6).
    Suspended,
    /// A player is on a break (10.4).
    Break,
    /// Over, with a result.
    Finished,
    /// Frozen at the end-of-play date, for the arbiter to decide (10.5).
    Adjudication,
}

macro_rules! text_enum {
    ($name:ident, $what:literal, $($variant:ident => $text:literal),+ $(,)?) => {
        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The stored (and printed) word.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = StoreError;

            fn from_str(s: &str) -> Result<Self> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err(StoreError::Invalid { what: $what, value: s.to_owned() }),
                }
            }
        }

        impl rusqlite::ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
                Ok(rusqlite::types::ToSqlOutput::from(self.as_str()))
            }
        }

        impl rusqlite::types::FromSql for $name {
            fn column_result(
                value: rusqlite::types::ValueRef<'_>,
            ) -> rusqlite::types::FromSqlResult<Self> {
                value
                    .as_str()?
                    .parse()
                    .map_err(|e| rusqlite::types::FromSqlError::Other(Box::new(e)))
            }
        }
    };
}

text_enum!(TournamentStatus, "tournament status",
    Registration => "registration",
    Playing => "playing",
    Adjudication => "adjudication",
    Finished => "finished",
);

text_enum!(GameStatus, "game status",
    Playing => "playing",
    Stopped => "stopped",
    Suspended => "suspended",
    Break => "break",
    Finished => "finished",
    Adjudication => "adjudication",
);

/// A tournament to add.
#[derive(Debug, Clone)]
pub struct NewTournament<'a> {
    /// The cipher players write in their letters (10.2.3), unique, e.g. `ЗШ-2026-1`.
    pub cipher: &'a str,
    /// The game: `russian`, `hundred` or `giveaway`.
    pub variant: &'a str,
    /// The tournament's name.
    pub name: &'a str,
    /// The start date.
    pub start: NaiveDate,
    /// The end-of-play date (10.5).
    pub end: NaiveDate,
    /// The IANA time zone of its calendar days, e.g. `Europe/Moscow`.
    pub tz: &'a str,
    /// Its settings, a JSON document (`{}` for the defaults).
    pub settings: &'a str,
}

/// A stored tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tournament {
    /// Its id.
    pub id: TournamentId,
    /// The cipher.
    pub cipher: String,
    /// The game: `russian`, `hundred` or `giveaway`.
    pub variant: String,
    /// The name.
    pub name: String,
    /// The start date.
    pub start: NaiveDate,
    /// The end-of-play date.
    pub end: NaiveDate,
    /// The IANA time zone.
    pub tz: String,
    /// Settings, a JSON document.
    pub settings: String,
    /// Where it stands.
    pub status: TournamentStatus,
    /// When it was added.
    pub created: DateTime<Utc>,
}

/// A stored player: one person's entry in one tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// Its id.
    pub id: PlayerId,
    /// The tournament.
    pub tournament: TournamentId,
    /// `Фамилия Имя`.
    pub name: String,
    /// The registered address: only letters from it move in the player's games.
    pub email: String,
}

/// A game to add.
#[derive(Debug, Clone)]
pub struct NewGame<'a> {
    /// The tournament.
    pub tournament: TournamentId,
    /// Its number in the tournament (from 1).
    pub number: u32,
    /// White.
    pub white: PlayerId,
    /// Black.
    pub black: PlayerId,
    /// Where it stands.
    pub status: GameStatus,
    /// The game's full state, a JSON document owned by the `game` module.
    pub state: &'a str,
    /// The next day a deadline of this game falls due, if any.
    pub next_due: Option<NaiveDate>,
}

/// A game's changed columns, written together with its new state.
#[derive(Debug, Clone)]
pub struct GameUpdate<'a> {
    /// Where it stands now.
    pub status: GameStatus,
    /// The result once there is one, e.g. `1-0`.
    pub result: Option<&'a str>,
    /// The full new state, a JSON document owned by the `game` module.
    pub state: &'a str,
    /// The next day a deadline falls due, if any.
    pub next_due: Option<NaiveDate>,
}

/// A stored game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// Its id.
    pub id: GameId,
    /// The tournament.
    pub tournament: TournamentId,
    /// Its number in the tournament.
    pub number: u32,
    /// White.
    pub white: PlayerId,
    /// Black.
    pub black: PlayerId,
    /// Where it stands.
    pub status: GameStatus,
    /// The result, once there is one.
    pub result: Option<String>,
    /// The full state, a JSON document owned by the `game` module.
    pub state: String,
    /// The next day a deadline falls due, if any.
    pub next_due: Option<NaiveDate>,
    /// When it last changed.
    pub updated: DateTime<Utc>,
}

impl Game {
    /// The state document read as `T`.
    ///
    /// # Errors
    /// [`StoreError::Json`] when the document is not a `T`.
    pub fn state_as<T: DeserializeOwned>(&self) -> Result<T> {
        serde_json::from_str(&self.state).map_err(|source| StoreError::Json {
            op: format!("read the state of game {}", self.id),
            source,
        })
    }

    /// The player on the other side of `player`, or `None` when `player` is not in this game.
    pub fn partner_of(&self, player: PlayerId) -> Option<PlayerId> {
        if player == self.white {
            Some(self.black)
        } else if player == self.black {
            Some(self.white)
        } else {
            None
        }
    }
}

const TOURNAMENT_COLUMNS: &str =
    "id, cipher, variant, name, start_day, end_day, tz, settings, status, created";

fn tournament_row(row: &Row<'_>) -> rusqlite::Result<Tournament> {
    Ok(Tournament {
        id: row.get(0)?,
        cipher: row.get(1)?,
        variant: row.get(2)?,
        name: row.get(3)?,
        start: row.get::<_, Day>(4)?.0,
        end: row.get::<_, Day>(5)?.0,
        tz: row.get(6)?,
        settings: row.get(7)?,
        status: row.get(8)?,
        created: row.get::<_, Moment>(9)?.0,
    })
}

const PLAYER_COLUMNS: &str = "id, tournament, name, email";

fn player_row(row: &Row<'_>) -> rusqlite::Result<Player> {
    Ok(Player {
        id: row.get(0)?,
        tournament: row.get(1)?,
        name: row.get(2)?,
        email: row.get(3)?,
    })
}

const GAME_COLUMNS: &str =
    "id, tournament, number, white, black, status, result, state, next_due, updated";

fn game_row(row: &Row<'_>) -> rusqlite::Result<Game> {
    Ok(Game {
        id: row.get(0)?,
        tournament: row.get(1)?,
        number: row.get(2)?,
        white: row.get(3)?,
        black: row.get(4)?,
        status: row.get(5)?,
        result: row.get(6)?,
        state: row.get(7)?,
        next_due: row.get::<_, Option<Day>>(8)?.map(|d| d.0),
        updated: row.get::<_, Moment>(9)?.0,
    })
}

/// Checks that `text` is a JSON document, so that a bad one is named in the error rather
/// than reported as a failed CHECK constraint.
fn check_json(what: &'static str, text: &str) -> Result<()> {
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .map(|_| ())
        .map_err(|source| StoreError::Json {
            op: format!("read the {what} '{text}' as"),
            source,
        })
}

impl Tx<'_> {
    /// Adds a tournament in [`TournamentStatus::Registration`].
    ///
    /// # Errors
    /// [`StoreError::TournamentExists`] when the cipher is taken; [`StoreError::Json`] when
    /// the settings are not JSON; [`StoreError::Sql`] otherwise (e.g. end before start).
    pub fn add_tournament(
        &self,
        t: &NewTournament<'_>,
        now: DateTime<Utc>,
    ) -> Result<TournamentId> {
        check_json("settings", t.settings)?;
        self.execute(
            "INSERT INTO tournaments (cipher, variant, name, start_day, end_day, tz, settings, \
             status, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                t.cipher,
                t.variant,
                t.name,
                Day(t.start),
                Day(t.end),
                t.tz,
                t.settings,
                TournamentStatus::Registration,
                Moment(now)
            ],
        )
        .map_err(|source| {
            if is_unique_violation(&source) {
                StoreError::TournamentExists {
                    cipher: t.cipher.to_owned(),
                }
            } else {
                StoreError::Sql {
                    op: format!("add tournament '{}'", t.cipher),
                    source,
                }
            }
        })?;
        Ok(TournamentId(self.conn().last_insert_rowid()))
    }

    /// The tournament with this id.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when there is none; [`StoreError::Sql`] on failure.
    pub fn tournament(&self, id: TournamentId) -> Result<Tournament> {
        self.query_row(
            &format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?1"),
            [id],
            tournament_row,
        )
        .optional()
        .during(|| format!("read tournament {id}"))?
        .ok_or_else(|| id.not_found())
    }

    /// The tournament with this cipher, if any.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn find_tournament(&self, cipher: &str) -> Result<Option<Tournament>> {
        self.query_row(
            &format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE cipher = ?1"),
            [cipher],
            tournament_row,
        )
        .optional()
        .during(|| format!("find tournament '{cipher}'"))
    }

    /// Every tournament, oldest first.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn tournaments(&self) -> Result<Vec<Tournament>> {
        self.collect(
            &format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments ORDER BY id"),
            [],
            tournament_row,
            || "list tournaments".to_owned(),
        )
    }

    /// Sets a tournament's status.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when there is no such tournament; [`StoreError::Sql`] on
    /// failure.
    pub fn set_tournament_status(&self, id: TournamentId, status: TournamentStatus) -> Result<()> {
        let n = self
            .execute(
                "UPDATE tournaments SET status = ?2 WHERE id = ?1",
                params![id, status],
            )
            .during(|| format!("set tournament {id} to {status}"))?;
        if n == 0 {
            return Err(id.not_found());
        }
        Ok(())
    }

    /// Replaces a tournament's settings (a JSON document).
    ///
    /// # Errors
    /// [`StoreError::Json`] when they are not JSON; [`StoreError::NotFound`] when there is no
    /// such tournament; [`StoreError::Sql`] on failure.
    pub fn set_tournament_settings(&self, id: TournamentId, settings: &str) -> Result<()> {
        check_json("settings", settings)?;
        let n = self
            .execute(
                "UPDATE tournaments SET settings = ?2 WHERE id = ?1",
                params![id, settings],
            )
            .during(|| format!("set the settings of tournament {id}"))?;
        if n == 0 {
            return Err(id.not_found());
        }
        Ok(())
    }

    /// Registers a player in a tournament.
    ///
    /// # Errors
    /// [`StoreError::PlayerExists`] when the address is already registered there (addresses
    /// compare without regard to ASCII case); [`StoreError::Sql`] otherwise (e.g. no such
    /// tournament).
    pub fn add_player(
        &self,
        tournament: TournamentId,
        name: &str,
        email: &str,
    ) -> Result<PlayerId> {
        self.execute(
            "INSERT INTO players (tournament, name, email) VALUES (?1, ?2, ?3)",
            params![tournament, name, email],
        )
        .map_err(|source| {
            if is_unique_violation(&source) {
                StoreError::PlayerExists {
                    tournament,
                    email: email.to_owned(),
                }
            } else {
                StoreError::Sql {
                    op: format!("add player '{email}' to tournament {tournament}"),
                    source,
                }
            }
        })?;
        Ok(PlayerId(self.conn().last_insert_rowid()))
    }

    /// The player with this id.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when there is none; [`StoreError::Sql`] on failure.
    pub fn player(&self, id: PlayerId) -> Result<Player> {
        self.query_row(
            &format!("SELECT {PLAYER_COLUMNS} FROM players WHERE id = ?1"),
            [id],
            player_row,
        )
        .optional()
        .during(|| format!("read player {id}"))?
        .ok_or_else(|| id.not_found())
    }

    /// A tournament's players, in the order they were registered.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn players(&self, tournament: TournamentId) -> Result<Vec<Player>> {
        self.collect(
            &format!("SELECT {PLAYER_COLUMNS} FROM players WHERE tournament = ?1 ORDER BY id"),
            [tournament],
            player_row,
            || format!("list the players of tournament {tournament}"),
        )
    }

    /// The player registered in `tournament` with address `email` (ASCII case ignored).
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn find_player(&self, tournament: TournamentId, email: &str) -> Result<Option<Player>> {
        self.query_row(
            &format!("SELECT {PLAYER_COLUMNS} FROM players WHERE tournament = ?1 AND email = ?2"),
            params![tournament, email],
            player_row,
        )
        .optional()
        .during(|| format!("find player '{email}' in tournament {tournament}"))
    }

    /// Changes a player's address: from now on only letters from `email` move his games. The
    /// old address is kept as a former one ([`Tx::former_addresses`]), so the letters he
    /// wrote from it are still his.
    ///
    /// # Errors
    /// [`StoreError::PlayerExists`] when another player of the tournament has `email`;
    /// [`StoreError::NotFound`] when there is no such player; [`StoreError::Sql`] otherwise.
    pub fn set_player_email(
        &self,
        player: PlayerId,
        email: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let p = self.player(player)?;
        if p.email.eq_ignore_ascii_case(email) {
            return Ok(());
        }
        self.execute(
            "INSERT INTO former_addresses (player, email, until) VALUES (?1, ?2, ?3) \
             ON CONFLICT DO UPDATE SET until = excluded.until",
            params![player, p.email, Moment(now)],
        )
        .during(|| format!("keep the former address of player {player}"))?;
        self.execute(
            "UPDATE players SET email = ?2 WHERE id = ?1",
            params![player, email],
        )
        .map_err(|source| {
            if is_unique_violation(&source) {
                StoreError::PlayerExists {
                    tournament: p.tournament,
                    email: email.to_owned(),
                }
            } else {
                StoreError::Sql {
                    op: format!("change the address of player {player}"),
                    source,
                }
            }
        })?;
        Ok(())
    }

    /// The addresses a player had before his current one, oldest first.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn former_addresses(&self, player: PlayerId) -> Result<Vec<String>> {
        self.collect(
            "SELECT email FROM former_addresses WHERE player = ?1 ORDER BY until",
            [player],
            |row| row.get(0),
            || format!("list the former addresses of player {player}"),
        )
    }

    /// Every entry of the address `email` (ASCII case ignored), in any tournament: who a
    /// letter's sender is.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn players_by_email(&self, email: &str) -> Result<Vec<Player>> {
        self.collect(
            &format!("SELECT {PLAYER_COLUMNS} FROM players WHERE email = ?1 ORDER BY id"),
            [email],
            player_row,
            || format!("find the players with address '{email}'"),
        )
    }

    /// Adds a game.
    ///
    /// # Errors
    /// [`StoreError::GameExists`] when the number is taken in the tournament;
    /// [`StoreError::Json`] when the state is not JSON; [`StoreError::Sql`] otherwise (e.g. a
    /// player who does not exist, or white and black the same).
    pub fn add_game(&self, game: &NewGame<'_>, now: DateTime<Utc>) -> Result<GameId> {
        check_json("game state", game.state)?;
        self.execute(
            "INSERT INTO games (tournament, number, white, black, status, state, next_due, \
             updated) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                game.tournament,
                game.number,
                game.white,
                game.black,
                game.status,
                game.state,
                game.next_due.map(Day),
                Moment(now)
            ],
        )
        .map_err(|source| {
            if is_unique_violation(&source) {
                StoreError::GameExists {
                    tournament: game.tournament,
                    number: game.number,
                }
            } else {
                StoreError::Sql {
                    op: format!("add game {} to tournament {}", game.number, game.tournament),
                    source,
                }
            }
        })?;
        Ok(GameId(self.conn().last_insert_rowid()))
    }

    /// The game with this id.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when there is none; [`StoreError::Sql`] on failure.
    pub fn game(&self, id: GameId) -> Result<Game> {
        self.query_row(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
            [id],
            game_row,
        )
        .optional()
        .during(|| format!("read game {id}"))?
        .ok_or_else(|| id.not_found())
    }

    /// The game with this number in `tournament`, if any.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn find_game(&self, tournament: TournamentId, number: u32) -> Result<Option<Game>> {
        self.query_row(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE tournament = ?1 AND number = ?2"),
            params![tournament, number],
            game_row,
        )
        .optional()
        .during(|| format!("find game {number} of tournament {tournament}"))
    }

    /// A tournament's games, by number.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn games(&self, tournament: TournamentId) -> Result<Vec<Game>> {
        self.collect(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE tournament = ?1 ORDER BY number"),
            [tournament],
            game_row,
            || format!("list the games of tournament {tournament}"),
        )
    }

    /// A player's games (either colour), by number.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn games_of_player(&self, player: PlayerId) -> Result<Vec<Game>> {
        self.collect(
            &format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE white = ?1 \
                 UNION ALL SELECT {GAME_COLUMNS} FROM games WHERE black = ?1 ORDER BY number"
            ),
            [player],
            game_row,
            || format!("list the games of player {player}"),
        )
    }

    /// Every game with this status, in any tournament, by id.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn games_with_status(&self, status: GameStatus) -> Result<Vec<Game>> {
        self.collect(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE status = ?1 ORDER BY id"),
            [status],
            game_row,
            || format!("list the {status} games"),
        )
    }

    /// The games with a deadline due on `day` or before (missed while the daemon was down),
    /// earliest first.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn games_due(&self, day: NaiveDate) -> Result<Vec<Game>> {
        self.collect(
            &format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE next_due IS NOT NULL AND next_due <= ?1 \
                 ORDER BY next_due, id"
            ),
            [Day(day)],
            game_row,
            || format!("list the games due by {day}"),
        )
    }

    /// Whether every game of the tournament is finished (true for one with no games): one
    /// index seek per unfinished status, whatever the number of games.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn tournament_is_over(&self, tournament: TournamentId) -> Result<bool> {
        let unfinished: Vec<String> = GameStatus::ALL
            .iter()
            .filter(|s| **s != GameStatus::Finished)
            .map(|s| format!("'{}'", s.as_str()))
            .collect();
        let sql = format!(
            "SELECT NOT EXISTS (SELECT 1 FROM games WHERE tournament = ?1 AND status IN ({}))",
            unfinished.join(", ")
        );
        self.query_row(&sql, [tournament], |row| row.get(0))
            .during(|| format!("see whether tournament {tournament} is over"))
    }

    /// The tournament's game with the lowest number, which stands for the tournament in the
    /// ledger of fired notices (the weekly digest, the final report).
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn first_game(&self, tournament: TournamentId) -> Result<Option<GameId>> {
        self.query_row(
            "SELECT id FROM games WHERE tournament = ?1 ORDER BY number LIMIT 1",
            [tournament],
            |row| row.get(0),
        )
        .optional()
        .during(|| format!("find the first game of tournament {tournament}"))
    }

    /// The tournaments with a game added or changed at `since` or later, by id.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn tournaments_changed_since(&self, since: DateTime<Utc>) -> Result<Vec<TournamentId>> {
        self.collect(
            // The index on `updated`, not a walk of every game in tournament order (the
            // planner's choice for DISTINCT without it).
            "SELECT DISTINCT tournament FROM games INDEXED BY games_by_updated \
             WHERE updated >= ?1 ORDER BY tournament",
            [Moment(since)],
            |row| row.get(0),
            || format!("list the tournaments changed since {since}"),
        )
    }

    /// The time zones of the tournaments, each once.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn tournament_zones(&self) -> Result<Vec<String>> {
        self.collect(
            "SELECT DISTINCT tz FROM tournaments ORDER BY tz",
            [],
            |row| row.get(0),
            || "list the tournaments' zones".to_owned(),
        )
    }

    /// The tournaments in a time zone, by id.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn tournaments_in_zone(&self, tz: &str) -> Result<Vec<TournamentId>> {
        self.collect(
            "SELECT id FROM tournaments WHERE tz = ?1 ORDER BY id",
            [tz],
            |row| row.get(0),
            || format!("list the tournaments in {tz}"),
        )
    }

    /// The earliest deadline day of any game: the daemon sleeps until then.
    ///
    /// # Errors
    /// [`StoreError::Sql`] on failure.
    pub fn next_due_day(&self) -> Result<Option<NaiveDate>> {
        self.query_row(
            "SELECT min(next_due) FROM games WHERE next_due IS NOT NULL",
            [],
            |row| row.get::<_, Option<Day>>(0),
        )
        .during(|| "read the next deadline day".to_owned())
        .map(|d| d.map(|d| d.0))
    }

    /// Writes a game's new state with its status, result and next deadline.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when there is no such game; [`StoreError::Json`] when the
    /// state is not JSON; [`StoreError::Sql`] on failure.
    pub fn update_game(
        &self,
        id: GameId,
        update: &GameUpdate<'_>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        check_json("game state", update.state)?;
        let n = self
            .execute(
                "UPDATE games SET status = ?2, result = ?3, state = ?4, next_due = ?5, \
                 updated = ?6 WHERE id = ?1",
                params![
                    id,
                    update.status,
                    update.result,
                    update.state,
                    update.next_due.map(Day),
                    Moment(now)
                ],
            )
            .during(|| format!("update game {id}"))?;
        if n == 0 {
            return Err(id.not_found());
        }
        Ok(())
    }

    /// Writes a typed state document (see [`Tx::update_game`]).
    ///
    /// # Errors
    /// [`StoreError::Json`] when `state` cannot be serialised; as [`Tx::update_game`].
    pub fn update_game_with<T: Serialize>(
        &self,
        id: GameId,
        status: GameStatus,
        result: Option<&str>,
        state: &T,
        next_due: Option<NaiveDate>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let state = serde_json::to_string(state).map_err(|source| StoreError::Json {
            op: format!("write the state of game {id} as"),
            source,
        })?;
        self.update_game(
            id,
            &GameUpdate {
                status,
                result,
                state: &state,
                next_due,
            },
            now,
        )
    }
}
