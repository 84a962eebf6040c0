-- A zaochka database frozen at schema version 1 (migration 1 verbatim, then a few rows).
-- NEVER regenerate or edit this file: it stands for the databases already in the field.
-- tests/store.rs loads it, opens it with today's Store (which runs the later migrations)
-- and checks the data came through; it also checks that migration 1 still builds exactly
-- this schema, which catches an edited migration.

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

-- A few rows, written as zaochka wrote them at schema version 1.
INSERT INTO tournaments (id, cipher, variant, name, start_day, end_day, tz, settings, status, created)
VALUES (1, 'ЗШ-2026-1', 'russian', 'Кубок федерации', '2026-10-01', '2027-09-30', 'Europe/Moscow',
        '{"penalty_days":6}', 'playing', '2026-09-01T10:00:00.000000Z');
INSERT INTO players (id, tournament, name, email) VALUES
    (1, 1, 'Иванов Иван', 'ivanov@example.org'),
    (2, 1, 'Петров Пётр', 'Petrov@Example.org');
INSERT INTO games (id, tournament, number, white, black, status, result, state, next_due, updated)
VALUES (1, 1, 1, 1, 2, 'playing', NULL, '{"moves":["c3-d4"]}', '2026-11-11', '2026-10-02T08:31:00.000000Z');
INSERT INTO letters_in (id, transport_id, message_id, sender, subject, received, raw, outcome, reason, game, processed_at)
VALUES (1, 'imap:INBOX:7:1', 'm1@mail.example.org', 'ivanov@example.org', 'ЗШ-2026-1, партия 1',
        '2026-10-02T08:30:00.000000Z', CAST('From: ivanov@example.org' || char(13, 10, 13, 10) || 'Мой ход: 1. c3-d4' || char(13, 10) AS BLOB),
        'judged', NULL, 1, '2026-10-02T08:31:00.000000Z');
INSERT INTO letters_out (id, message_id, kind, game, in_reply_to, envelope_from, recipients, raw, created, sent_at, attempts, next_attempt, last_error, gave_up_at)
VALUES
    (1, 'fwd-1@zaochka.localhost', 'forward', 1, 1, 'zaochka@localhost', '["Petrov@Example.org"]',
     CAST('Subject: ЗШ-2026-1, партия 1' AS BLOB), '2026-10-02T08:31:00.000000Z', '2026-10-02T08:31:05.000000Z', 0,
     '2026-10-02T08:31:00.000000Z', NULL, NULL),
    (2, 'rcpt-1@zaochka.localhost', 'receipt', 1, 1, 'zaochka@localhost', '["ivanov@example.org"]',
     CAST('Subject: receipt' AS BLOB), '2026-10-02T08:31:00.000000Z', NULL, 1,
     '2026-10-02T08:32:00.000000Z', 'connection refused', NULL);
PRAGMA user_version = 1;
