//! The schema, as an append-only list of migrations.
//!
//! Migration `i` (counting from 1) brings a database from `PRAGMA user_version = i - 1` to `i`.
//! NEVER edit or reorder an entry once it is on `main`: databases in the field were built by
//! it, and the frozen-v1 test (`tests/data/store/v1.sql`) fails if migration 1 changes. To
//! change the schema, append a migration. Each one says why it exists.
//!
//! Conventions: `STRICT` tables; days are `TEXT` `YYYY-MM-DD` (calendar dates in the
//! tournament's zone); moments are `TEXT` RFC 3339 in UTC with microseconds and `Z`, so that
//! text order is time order; e-mail addresses are `COLLATE NOCASE`; JSON columns are checked
//! with `json_valid`.

/// Every migration, oldest first. `MIGRATIONS.len()` is the current schema version.
pub const MIGRATIONS: &[&str] = &[
    // 1. The core: what the federation plays (tournaments, players, games) and every letter
    //    in and out, raw and kept forever (10.1.13). A game's full state is one JSON document
    //    owned by the `game` module; the columns beside it are what the daemon queries
    //    (status, the next deadline day). `letters_out` is the outbox: a letter is queued in
    //    the same transaction as the change that caused it and sent after commit, so nothing
    //    is lost and nothing is sent for a change that did not happen.
    r#"
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    cipher TEXT NOT NULL UNIQUE,
    variant TEXT NOT NULL,
    name TEXT NOT NULL,
    start_day TEXT NOT NULL,
    end_day TEXT NOT NULL,
    tz TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
    status TEXT NOT NULL,
    created TEXT NOT NULL,
    CHECK (start_day <= end_day)
) STRICT;

CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    name TEXT NOT NULL,
    email TEXT NOT NULL COLLATE NOCASE,
    UNIQUE (tournament, email)
) STRICT;
CREATE INDEX players_by_email ON players(email);

CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    number INTEGER NOT NULL CHECK (number > 0),
    white INTEGER NOT NULL REFERENCES players(id),
    black INTEGER NOT NULL REFERENCES players(id),
    status TEXT NOT NULL,
    result TEXT,
    state TEXT NOT NULL CHECK (json_valid(state)),
    next_due TEXT,
    updated TEXT NOT NULL,
    UNIQUE (tournament, number),
    CHECK (white <> black)
) STRICT;
CREATE INDEX games_by_status ON games(status);
CREATE INDEX games_by_next_due ON games(next_due) WHERE next_due IS NOT NULL;
CREATE INDEX games_by_white ON games(white);
CREATE INDEX games_by_black ON games(black);

CREATE TABLE letters_in (
    id INTEGER PRIMARY KEY,
    transport_id TEXT NOT NULL UNIQUE,
    message_id TEXT,
    sender TEXT NOT NULL COLLATE NOCASE,
    subject TEXT NOT NULL,
    received TEXT NOT NULL,
    raw BLOB NOT NULL,
    outcome TEXT,
    reason TEXT,
    game INTEGER REFERENCES games(id),
    processed_at TEXT
) STRICT;
CREATE INDEX letters_in_by_message_id ON letters_in(message_id) WHERE message_id IS NOT NULL;
CREATE INDEX letters_in_by_game ON letters_in(game, received) WHERE game IS NOT NULL;

CREATE TABLE letters_out (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    game INTEGER REFERENCES games(id),
    in_reply_to INTEGER REFERENCES letters_in(id),
    envelope_from TEXT NOT NULL,
    recipients TEXT NOT NULL CHECK (json_valid(recipients)),
    raw BLOB NOT NULL,
    created TEXT NOT NULL,
    sent_at TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt TEXT NOT NULL,
    last_error TEXT,
    gave_up_at TEXT
) STRICT;
CREATE INDEX letters_out_pending ON letters_out(next_attempt)
    WHERE sent_at IS NULL AND gave_up_at IS NULL;
CREATE INDEX letters_out_by_game ON letters_out(game) WHERE game IS NOT NULL;
"#,
    // 2. The bookkeeping that makes the daemon safe to stop and restart: each deadline notice
    //    fires once (10.3.4, 10.3.6) even after weeks of downtime (`notices`, unique per
    //    game, kind, day and player); an unknown sender gets at most one short answer a day
    //    (`courtesy`, against mail loops); the arbiter's and secretary's decisions are kept
    //    with the letter that made them (`decisions`); IMAP fetching resumes from the last
    //    UID under the same UIDVALIDITY (`mailbox_state`); breaks (10.4) belong to a player
    //    across all their games, so they are not in any one game's state (`breaks`).
    r#"
CREATE TABLE notices (
    id INTEGER PRIMARY KEY,
    game INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL,
    due_day TEXT NOT NULL,
    player INTEGER REFERENCES players(id),
    fired_at TEXT NOT NULL
) STRICT;
-- A NULL player (a notice about the whole game) must collide with another NULL, which a
-- plain UNIQUE constraint would not do.
CREATE UNIQUE INDEX notices_once ON notices(game, kind, due_day, ifnull(player, 0));

CREATE TABLE courtesy (
    sender TEXT NOT NULL COLLATE NOCASE,
    day TEXT NOT NULL,
    sent_at TEXT NOT NULL,
    PRIMARY KEY (sender, day)
) STRICT, WITHOUT ROWID;

CREATE TABLE decisions (
    id INTEGER PRIMARY KEY,
    game INTEGER REFERENCES games(id),
    author TEXT NOT NULL COLLATE NOCASE,
    text TEXT NOT NULL,
    action TEXT NOT NULL CHECK (json_valid(action)),
    letter INTEGER REFERENCES letters_in(id),
    at TEXT NOT NULL
) STRICT;
CREATE INDEX decisions_by_game ON decisions(game) WHERE game IS NOT NULL;

CREATE TABLE mailbox_state (
    mailbox TEXT PRIMARY KEY,
    uidvalidity INTEGER NOT NULL,
    last_uid INTEGER NOT NULL,
    updated TEXT NOT NULL
) STRICT;

CREATE TABLE breaks (
    id INTEGER PRIMARY KEY,
    player INTEGER NOT NULL REFERENCES players(id),
    first_day TEXT NOT NULL,
    last_day TEXT NOT NULL,
    special INTEGER NOT NULL DEFAULT 0 CHECK (special IN (0, 1)),
    letter INTEGER REFERENCES letters_in(id),
    decision INTEGER REFERENCES decisions(id),
    created TEXT NOT NULL,
    CHECK (first_day <= last_day)
) STRICT;
CREATE INDEX breaks_by_player ON breaks(player, first_day);
"#,
    // 3. What a letter proved of its sender (issue 10): the mode, the result, the signing
    //    domain and why, as the JSON `mail::auth::Authentication` writes, so that an admin
    //    sees why a forged or unsigned letter moved nothing. NULL for letters stored before.
    r#"
ALTER TABLE letters_in ADD COLUMN auth TEXT CHECK (auth IS NULL OR json_valid(auth));
"#,
    // 4. A pass with nothing due costs the same at any number of games (issue 14): whether a
    //    tournament is over is one index seek per unfinished status (`games_by_tournament_status`),
    //    and the reports' sweep looks only at the tournaments whose games changed since its
    //    last look (`games_by_updated`).
    r#"
CREATE INDEX games_by_tournament_status ON games(tournament, status);
CREATE INDEX games_by_updated ON games(updated);
"#,
    // 5. A player's former addresses (issue 12, `player set-email`): only the current one in
    //    `players` moves his games, but the letters he wrote from an older one are still his
    //    (the arbiter's papers of 10.3.6 attach them).
    r#"
CREATE TABLE former_addresses (
    player INTEGER NOT NULL REFERENCES players(id),
    email TEXT NOT NULL COLLATE NOCASE,
    until TEXT NOT NULL,
    PRIMARY KEY (player, email)
) STRICT, WITHOUT ROWID;
"#,
    // 6. The raw letters are kept compressed (issue 14): `raw_zlib = 1` when `raw` holds the
    //    letter deflated in the zlib format (RFC 1950, its checksum checked on reading),
    //    0 for the letters stored before, kept as they came. Either way the letter read back
    //    is byte for byte the one stored.
    r#"
ALTER TABLE letters_in ADD COLUMN raw_zlib INTEGER NOT NULL DEFAULT 0 CHECK (raw_zlib IN (0, 1));
ALTER TABLE letters_out ADD COLUMN raw_zlib INTEGER NOT NULL DEFAULT 0 CHECK (raw_zlib IN (0, 1));
"#,
];
