//! The store on real files: a frozen v1 database upgraded, WAL, reopening, a process that dies
//! in the middle of a letter, and the online backup.

use chrono::{DateTime, NaiveDate, Utc};
use rusqlite::Connection;
use zaochka::store::{
    GameStatus, MIGRATIONS, NewGame, NewLetterIn, NewLetterOut, NewTournament, Outcome, Processed,
    Store, StoreError, TournamentStatus,
};

const V1_SQL: &str = include_str!("data/store/v1.sql");

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&Utc)
}

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

/// The schema as SQLite keeps it, sorted by name.
fn schema(conn: &Connection) -> Vec<(String, String)> {
    let mut stmt = conn
        .prepare("SELECT name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY name")
        .unwrap();
    stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
}

/// Adds a tournament `cipher` with two players and game 1 between them.
fn add_tournament(store: &mut Store, cipher: &str) {
    store
        .with_transaction(|tx| {
            let t = tx.add_tournament(
                &NewTournament {
                    cipher,
                    variant: "hundred",
                    name: "Открытое первенство",
                    start: day("2026-10-01"),
                    end: day("2027-09-30"),
                    tz: "Europe/Moscow",
                    settings: "{}",
                },
                at("2026-09-01T10:00:00Z"),
            )?;
            let white = tx.add_player(t, "Сидоров Сидор", "sidorov@example.org")?;
            let black = tx.add_player(t, "Козлов Козьма", "kozlov@example.org")?;
            tx.add_game(
                &NewGame {
                    tournament: t,
                    number: 1,
                    white,
                    black,
                    status: GameStatus::Playing,
                    state: "{}",
                    next_due: Some(day("2026-10-31")),
                },
                at("2026-10-01T00:00:00Z"),
            )?;
            Ok::<_, StoreError>(())
        })
        .unwrap();
}

fn has_tournament(store: &mut Store, cipher: &str) -> bool {
    store
        .with_transaction(|tx| tx.find_tournament(cipher))
        .unwrap()
        .is_some()
}

#[test]
fn migration_1_still_builds_the_frozen_v1_schema() {
    let frozen = Connection::open_in_memory().unwrap();
    frozen.execute_batch(V1_SQL).unwrap();
    let built = Connection::open_in_memory().unwrap();
    built.execute_batch(MIGRATIONS[0]).unwrap();
    assert_eq!(
        schema(&built),
        schema(&frozen),
        "migration 1 was edited: append a migration instead"
    );
}

#[test]
fn a_frozen_v1_database_opens_and_migrates_with_its_data_intact() {
    let conn = Connection::open_in_memory().unwrap();
    conn.execute_batch(V1_SQL).unwrap();
    let mut store = Store::from_connection(conn).unwrap();
    assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as i64);

    let tx = store.transaction().unwrap();
    let t = tx.find_tournament("ЗШ-2026-1").unwrap().unwrap();
    assert_eq!(t.status, TournamentStatus::Playing);
    assert_eq!(t.settings, r#"{"penalty_days":6}"#);
    assert_eq!(t.end, day("2027-09-30"));
    let players = tx.players(t.id).unwrap();
    assert_eq!(players.len(), 2);
    let black = tx.find_player(t.id, "petrov@example.org").unwrap().unwrap();
    let game = tx.find_game(t.id, 1).unwrap().unwrap();
    assert_eq!(game.black, black.id);
    assert_eq!(game.state, r#"{"moves":["c3-d4"]}"#);
    assert_eq!(game.next_due, Some(day("2026-11-11")));

    let letters = tx.letters_of(game.id, game.white).unwrap();
    assert_eq!(letters.len(), 1);
    assert_eq!(letters[0].outcome, Some(Outcome::Judged { game: game.id }));
    assert_eq!(letters[0].received, at("2026-10-02T08:30:00Z"));
    assert!(
        String::from_utf8(letters[0].raw.clone())
            .unwrap()
            .ends_with("Мой ход: 1. c3-d4\r\n")
    );
    let forwarded = tx
        .find_letter_out("<fwd-1@zaochka.localhost>")
        .unwrap()
        .unwrap();
    assert_eq!(forwarded.sent_at, Some(at("2026-10-02T08:31:05Z")));
    let due = tx.due_outgoing(at("2026-10-02T08:32:00Z"), 10).unwrap();
    assert_eq!(due.len(), 1, "the unsent receipt is still waiting");
    assert_eq!(due[0].attempts, 1);
    assert_eq!(due[0].recipients, ["ivanov@example.org"]);

    // The tables of later migrations work on the old rows.
    assert!(
        tx.fire_notice_once(
            game.id,
            "repeat",
            day("2026-11-11"),
            Some(black.id),
            at("2026-11-11T00:00:00Z")
        )
        .unwrap()
    );
    // A letter seen before the upgrade is still seen after it.
    let again = tx
        .admit_letter(&NewLetterIn {
            transport_id: "imap:INBOX:9:1",
            message_id: Some("<m1@mail.example.org>"),
            sender: "IVANOV@example.org",
            subject: "",
            received: at("2026-10-05T00:00:00Z"),
            raw: b"",
        })
        .unwrap();
    assert_eq!(again, zaochka::store::Admission::Seen(letters[0].id));
    tx.commit().unwrap();
}

#[test]
fn a_file_database_is_in_wal_mode_and_keeps_its_data_when_reopened() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zaochka.sqlite");
    {
        let mut store = Store::open(&path).unwrap();
        assert_eq!(store.journal_mode().unwrap(), "wal");
        add_tournament(&mut store, "СТ-2026");
    }
    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.journal_mode().unwrap(), "wal");
    assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as i64);
    assert!(has_tournament(&mut store, "СТ-2026"));
    // Opening is `init`: safe to repeat.
    drop(store);
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as i64);
}

#[test]
fn a_process_that_dies_in_the_middle_of_a_letter_leaves_nothing_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zaochka.sqlite");
    let mut store = Store::open(&path).unwrap();
    add_tournament(&mut store, "СТ-2026");
    let letter = NewLetterIn {
        transport_id: "new/1733140000.M1P1.host",
        message_id: Some("<crash@example.org>"),
        sender: "sidorov@example.org",
        subject: "СТ-2026, партия 1",
        received: at("2026-10-02T08:30:00Z"),
        raw: b"32-28",
    };
    let tx = store.transaction().unwrap();
    tx.admit_letter(&letter).unwrap();
    tx.queue(
        &NewLetterOut {
            message_id: "<fwd@zaochka>",
            kind: "forward",
            game: None,
            in_reply_to: None,
            envelope_from: "zaochka@localhost",
            recipients: &["kozlov@example.org".to_owned()],
            raw: b"32-28",
        },
        at("2026-10-02T08:31:00Z"),
    )
    .unwrap();
    // The process dies: no commit, no rollback, the connection just goes away.
    std::mem::forget(tx);
    drop(store);

    let mut store = Store::open(&path).unwrap();
    let processed = store
        .process_letter(&letter, at("2026-10-02T09:00:00Z"), |tx, _| {
            assert!(tx.find_letter_out("fwd@zaochka").unwrap().is_none());
            Ok::<_, StoreError>((
                Outcome::SetAside {
                    game: None,
                    reason: "test".into(),
                },
                (),
            ))
        })
        .unwrap();
    assert!(
        matches!(processed, Processed::New { .. }),
        "the letter is judged after the restart: {processed:?}"
    );
}

#[test]
fn a_backup_restores_the_database_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zaochka.sqlite");
    let backup = dir.path().join("backup.sqlite");
    let mut store = Store::open(&path).unwrap();
    add_tournament(&mut store, "СТ-2026");
    store.backup(&backup).unwrap();
    add_tournament(&mut store, "СТ-2027");

    let mut restored = Store::open(&backup).unwrap();
    assert!(has_tournament(&mut restored, "СТ-2026"));
    assert!(
        !has_tournament(&mut restored, "СТ-2027"),
        "made after the backup"
    );
    assert_eq!(restored.schema_version().unwrap(), MIGRATIONS.len() as i64);
    // The live database is untouched by the backup.
    assert!(has_tournament(&mut store, "СТ-2027"));

    let err = store
        .backup(dir.path().join("no/such/dir/backup.sqlite"))
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("cannot back up the database to '"),
        "{err}"
    );
}

#[test]
fn open_existing_refuses_a_missing_empty_or_foreign_file_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("typo.sqlite");
    let err = Store::open_existing(&path).unwrap_err();
    assert!(matches!(err, StoreError::Missing { .. }), "{err:?}");
    assert!(err.to_string().contains("typo.sqlite"), "{err}");
    assert!(err.to_string().contains("zaochka init"), "{err}");
    assert!(!path.exists());
    // an empty file, or another program's SQLite file, is not made into a federation
    std::fs::write(&path, b"").unwrap();
    let err = Store::open_existing(&path).unwrap_err();
    assert!(matches!(err, StoreError::NotADatabase { .. }), "{err:?}");
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 0, "left as it was");
    std::fs::remove_file(&path).unwrap();
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("CREATE TABLE t (x)")
        .unwrap();
    let err = Store::open_existing(&path).unwrap_err();
    assert!(matches!(err, StoreError::NotADatabase { .. }), "{err:?}");
    std::fs::write(&path, b"not sqlite at all, just text").unwrap();
    let err = Store::open_existing(&path).unwrap_err();
    assert!(err.to_string().contains("zaochka init"), "{err}");
    std::fs::remove_file(&path).unwrap();
    drop(Store::open(&path).unwrap());
    let store = Store::open_existing(&path).unwrap();
    assert_eq!(store.journal_mode().unwrap(), "wal");
}

#[test]
fn a_reader_sees_a_snapshot_and_keeps_no_writes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zaochka.sqlite");
    let mut daemon = Store::open(&path).unwrap();
    add_tournament(&mut daemon, "СТ-2026");
    let cli = Store::open_existing(&path).unwrap();
    cli.read(|tx| {
        assert!(tx.find_tournament("СТ-2026")?.is_some());
        // The daemon commits while the reader is in its snapshot: neither waits.
        add_tournament(&mut daemon, "СТ-2027");
        assert!(
            tx.find_tournament("СТ-2027")?.is_none(),
            "not in the snapshot"
        );
        tx.courtesy_once(
            "x@example.org",
            day("2026-10-02"),
            at("2026-10-02T00:00:00Z"),
        )
        .map(|_| ())
        .or_else(|e| match e {
            // A reader that saw an older snapshot cannot write: either way nothing stays.
            StoreError::Sql { .. } => Ok(()),
            e => Err(e),
        })
    })
    .unwrap();
    let fresh = cli
        .read(|tx| {
            Ok::<_, StoreError>((
                tx.find_tournament("СТ-2027")?.is_some(),
                tx.courtesy_once(
                    "x@example.org",
                    day("2026-10-02"),
                    at("2026-10-02T00:00:00Z"),
                )?,
            ))
        })
        .unwrap();
    assert_eq!(
        fresh,
        (true, true),
        "a new read sees the commit; the write was not kept"
    );
}

#[test]
fn a_backup_taken_beside_a_running_daemon_holds_only_what_was_committed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zaochka.sqlite");
    let backup = dir.path().join("backup.sqlite");
    let mut daemon = Store::open(&path).unwrap();
    add_tournament(&mut daemon, "СТ-2026");
    let cli = Store::open_existing(&path).unwrap();
    // The daemon is in the middle of a letter when the organiser takes the backup.
    let tx = daemon.transaction().unwrap();
    tx.courtesy_once(
        "x@example.org",
        day("2026-10-02"),
        at("2026-10-02T00:00:00Z"),
    )
    .unwrap();
    cli.backup(&backup).unwrap();
    tx.commit().unwrap();

    let restored = Store::open_existing(&backup).unwrap();
    let (has_tournament, courtesy_free) = restored
        .read(|tx| {
            Ok::<_, StoreError>((
                tx.find_tournament("СТ-2026")?.is_some(),
                // Claimable again in the copy: the daemon had not committed it.
                tx.courtesy_once(
                    "x@example.org",
                    day("2026-10-02"),
                    at("2026-10-02T00:00:00Z"),
                )?,
            ))
        })
        .unwrap();
    assert!(has_tournament);
    assert!(courtesy_free, "an uncommitted change is not in the backup");
}

#[test]
fn the_outbox_and_fired_notices_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zaochka.sqlite");
    let due_day = day("2026-11-11");
    let game = {
        let mut store = Store::open(&path).unwrap();
        add_tournament(&mut store, "СТ-2026");
        store
            .with_transaction(|tx| {
                let t = tx.find_tournament("СТ-2026")?.unwrap();
                let game = tx.find_game(t.id, 1)?.unwrap();
                assert!(tx.fire_notice_once(
                    game.id,
                    "repeat",
                    due_day,
                    Some(game.black),
                    at("2026-11-11T00:01:00Z")
                )?);
                tx.queue(
                    &NewLetterOut {
                        message_id: "<repeat-1@zaochka>",
                        kind: "repeat",
                        game: Some(game.id),
                        in_reply_to: None,
                        envelope_from: "zaochka@localhost",
                        recipients: &["kozlov@example.org".to_owned()],
                        raw: b"10.3.4",
                    },
                    at("2026-11-11T00:01:00Z"),
                )?;
                Ok::<_, StoreError>(game)
            })
            .unwrap()
        // The mail server is down; then the daemon is stopped.
    };
    let mut store = Store::open_existing(&path).unwrap();
    store
        .with_transaction(|tx| {
            let due = tx.due_outgoing(at("2026-12-01T00:00:00Z"), 10)?;
            assert_eq!(due.len(), 1, "the letter waits for the restarted daemon");
            assert_eq!(due[0].message_id, "repeat-1@zaochka");
            // The sweep after the restart asks again: the repeat is not sent twice.
            assert!(!tx.fire_notice_once(
                game.id,
                "repeat",
                due_day,
                Some(game.black),
                at("2026-12-01T00:00:00Z")
            )?);
            Ok::<_, StoreError>(())
        })
        .unwrap();
}
