//! Unit tests of the store: each on `Connection::open_in_memory()` with the migrations run.

use chrono::{DateTime, NaiveDate, TimeDelta, Utc};
use rusqlite::Connection;

use super::*;

fn store() -> Store {
    Store::from_connection(Connection::open_in_memory().unwrap()).unwrap()
}

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&Utc)
}

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

fn count(store: &Store, table: &str) -> i64 {
    store
        .conn
        .query_row(&format!("SELECT count(*) FROM {table}"), [], |row| {
            row.get(0)
        })
        .unwrap()
}

/// A tournament with two players and game 1 between them.
struct Fixture {
    tournament: TournamentId,
    white: PlayerId,
    black: PlayerId,
    game: GameId,
}

fn fixture(store: &mut Store) -> Fixture {
    store
        .with_transaction(|tx| {
            let tournament = tx.add_tournament(
                &NewTournament {
                    cipher: "ЗШ-2026-1",
                    variant: "russian",
                    name: "Кубок федерации",
                    start: day("2026-10-01"),
                    end: day("2027-09-30"),
                    tz: "Europe/Moscow",
                    settings: "{}",
                },
                at("2026-09-01T10:00:00Z"),
            )?;
            let white = tx.add_player(tournament, "Иванов Иван", "ivanov@example.org")?;
            let black = tx.add_player(tournament, "Петров Пётр", "petrov@example.org")?;
            let game = tx.add_game(
                &NewGame {
                    tournament,
                    number: 1,
                    white,
                    black,
                    status: GameStatus::Playing,
                    state: r#"{"moves":[]}"#,
                    next_due: Some(day("2026-10-31")),
                },
                at("2026-10-01T00:00:00Z"),
            )?;
            Ok::<_, StoreError>(Fixture {
                tournament,
                white,
                black,
                game,
            })
        })
        .unwrap()
}

fn letter<'a>(
    transport_id: &'a str,
    message_id: Option<&'a str>,
    sender: &'a str,
) -> NewLetterIn<'a> {
    NewLetterIn {
        transport_id,
        message_id,
        sender,
        subject: "ЗШ-2026-1, партия 1",
        received: at("2026-10-02T08:30:00Z"),
        raw: "From: ivanov@example.org\r\n\r\nМой ход: 1. c3-d4\r\n".as_bytes(),
    }
}

fn outgoing<'a>(
    message_id: &'a str,
    game: Option<GameId>,
    recipients: &'a [String],
) -> NewLetterOut<'a> {
    NewLetterOut {
        message_id,
        kind: "forward",
        game,
        in_reply_to: None,
        envelope_from: "zaochka@localhost",
        recipients,
        raw: b"Subject: move\r\n\r\n1. c3-d4\r\n",
    }
}

#[test]
fn migrations_bring_a_new_database_to_the_latest_version() {
    let store = store();
    assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as i64);
    assert_eq!(store.journal_mode().unwrap(), "memory");
}

#[test]
fn migrate_twice_does_nothing_the_second_time() {
    let mut conn = Connection::open_in_memory().unwrap();
    assert_eq!(migrate(&mut conn).unwrap(), MIGRATIONS.len());
    let schema = |conn: &Connection| -> Vec<String> {
        let mut stmt = conn
            .prepare("SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY name")
            .unwrap();
        stmt.query_map([], |row| row.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    };
    let before = schema(&conn);
    assert_eq!(migrate(&mut conn).unwrap(), 0);
    assert_eq!(schema(&conn), before);
    assert_eq!(user_version(&conn).unwrap(), MIGRATIONS.len() as i64);
}

#[test]
fn a_database_from_a_newer_zaochka_is_refused() {
    let conn = Connection::open_in_memory().unwrap();
    conn.pragma_update(None, "user_version", MIGRATIONS.len() as i64 + 1)
        .unwrap();
    let err = Store::from_connection(conn).unwrap_err();
    assert!(
        matches!(err, StoreError::TooNew { found, known } if found == MIGRATIONS.len() as i64 + 1 && known == MIGRATIONS.len()),
        "{err:?}"
    );
}

#[test]
fn a_failing_migration_leaves_the_database_as_it_was() {
    let mut conn = Connection::open_in_memory().unwrap();
    // A table in the way makes migration 1 fail halfway through its batch.
    conn.execute_batch("CREATE TABLE letters_in (x INTEGER)")
        .unwrap();
    let err = migrate(&mut conn).unwrap_err();
    assert!(
        matches!(err, StoreError::Migration { version: 1, .. }),
        "{err:?}"
    );
    assert_eq!(user_version(&conn).unwrap(), 0);
    let tables: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(tables, 1, "only the table that was in the way is left");
}

#[test]
fn foreign_keys_are_enforced() {
    let mut store = store();
    let err = store
        .with_transaction(|tx| tx.add_player(TournamentId(42), "Никто", "nobody@example.org"))
        .unwrap_err();
    assert!(matches!(err, StoreError::Sql { .. }), "{err:?}");
    assert_eq!(count(&store, "players"), 0);
}

#[test]
fn tournaments_players_and_games_are_stored_and_found() {
    let mut store = store();
    let f = fixture(&mut store);
    let tx = store.transaction().unwrap();
    let t = tx.find_tournament("ЗШ-2026-1").unwrap().unwrap();
    assert_eq!(t.id, f.tournament);
    assert_eq!(t.status, TournamentStatus::Registration);
    assert_eq!(t.start, day("2026-10-01"));
    assert_eq!(t.created, at("2026-09-01T10:00:00Z"));
    assert!(tx.find_tournament("ЗШ-2026-2").unwrap().is_none());
    tx.set_tournament_status(f.tournament, TournamentStatus::Playing)
        .unwrap();
    assert_eq!(
        tx.tournament(f.tournament).unwrap().status,
        TournamentStatus::Playing
    );

    let players = tx.players(f.tournament).unwrap();
    assert_eq!(
        players.iter().map(|p| p.id).collect::<Vec<_>>(),
        [f.white, f.black]
    );
    // Addresses compare without regard to case: that is how mail treats them in practice.
    let found = tx
        .find_player(f.tournament, "IVANOV@Example.org")
        .unwrap()
        .unwrap();
    assert_eq!(found.id, f.white);
    assert_eq!(
        tx.players_by_email("Petrov@example.org").unwrap()[0].id,
        f.black
    );

    let game = tx.find_game(f.tournament, 1).unwrap().unwrap();
    assert_eq!(game.id, f.game);
    assert_eq!((game.white, game.black), (f.white, f.black));
    assert_eq!(game.partner_of(f.white), Some(f.black));
    assert_eq!(game.partner_of(PlayerId(999)), None);
    assert_eq!(game.status, GameStatus::Playing);
    assert_eq!(game.next_due, Some(day("2026-10-31")));
    let state: serde_json::Value = game.state_as().unwrap();
    assert_eq!(state["moves"], serde_json::json!([]));
    assert_eq!(tx.games_of_player(f.black).unwrap()[0].id, f.game);
    assert_eq!(tx.games(f.tournament).unwrap().len(), 1);
}

#[test]
fn duplicates_are_refused_with_what_was_duplicated() {
    let mut store = store();
    let f = fixture(&mut store);
    let tx = store.transaction().unwrap();
    let err = tx
        .add_tournament(
            &NewTournament {
                cipher: "ЗШ-2026-1",
                variant: "hundred",
                name: "",
                start: day("2026-10-01"),
                end: day("2026-10-02"),
                tz: "UTC",
                settings: "{}",
            },
            at("2026-09-02T00:00:00Z"),
        )
        .unwrap_err();
    assert_eq!(err.to_string(), "tournament 'ЗШ-2026-1' already exists");
    let err = tx
        .add_player(f.tournament, "Иванов Иван", "Ivanov@Example.ORG")
        .unwrap_err();
    assert!(matches!(err, StoreError::PlayerExists { .. }), "{err:?}");
    let err = tx
        .add_game(
            &NewGame {
                tournament: f.tournament,
                number: 1,
                white: f.black,
                black: f.white,
                status: GameStatus::Playing,
                state: "{}",
                next_due: None,
            },
            at("2026-10-01T00:00:00Z"),
        )
        .unwrap_err();
    assert!(
        matches!(err, StoreError::GameExists { number: 1, .. }),
        "{err:?}"
    );
}

#[test]
fn a_game_state_that_is_not_json_is_refused() {
    let mut store = store();
    let f = fixture(&mut store);
    let tx = store.transaction().unwrap();
    let err = tx
        .update_game(
            f.game,
            &GameUpdate {
                status: GameStatus::Playing,
                result: None,
                state: "{not json",
                next_due: None,
            },
            at("2026-10-02T00:00:00Z"),
        )
        .unwrap_err();
    assert!(matches!(err, StoreError::Json { .. }), "{err:?}");
    assert_eq!(tx.game(f.game).unwrap().state, r#"{"moves":[]}"#);
}

#[test]
fn games_due_include_deadlines_missed_while_the_daemon_was_down() {
    let mut store = store();
    let f = fixture(&mut store);
    let tx = store.transaction().unwrap();
    let second = tx
        .add_game(
            &NewGame {
                tournament: f.tournament,
                number: 2,
                white: f.black,
                black: f.white,
                status: GameStatus::Playing,
                state: "{}",
                next_due: Some(day("2026-10-15")),
            },
            at("2026-10-01T00:00:00Z"),
        )
        .unwrap();
    assert_eq!(tx.next_due_day().unwrap(), Some(day("2026-10-15")));
    assert!(tx.games_due(day("2026-10-14")).unwrap().is_empty());
    let due: Vec<_> = tx
        .games_due(day("2026-12-01"))
        .unwrap()
        .into_iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(due, [second, f.game], "earliest deadline first");

    tx.update_game_with(
        second,
        GameStatus::Finished,
        Some("0-1"),
        &serde_json::json!({"moves": ["c3-d4"]}),
        None,
        at("2026-10-16T00:00:00Z"),
    )
    .unwrap();
    let game = tx.game(second).unwrap();
    assert_eq!(game.result.as_deref(), Some("0-1"));
    assert_eq!(game.updated, at("2026-10-16T00:00:00Z"));
    assert_eq!(tx.next_due_day().unwrap(), Some(day("2026-10-31")));
    assert_eq!(
        tx.games_with_status(GameStatus::Finished).unwrap()[0].id,
        second
    );
    assert_eq!(
        tx.games_with_status(GameStatus::Playing).unwrap()[0].id,
        f.game
    );
}

#[test]
fn the_sweep_s_cheap_questions_over_and_first_game_changed_since_and_waiting() {
    let mut store = store();
    let f = fixture(&mut store);
    let tx = store.transaction().unwrap();
    let second = tx
        .add_game(
            &NewGame {
                tournament: f.tournament,
                number: 2,
                white: f.black,
                black: f.white,
                status: GameStatus::Finished,
                state: "{}",
                next_due: None,
            },
            at("2026-10-05T00:00:00Z"),
        )
        .unwrap();
    assert_eq!(tx.first_game(f.tournament).unwrap(), Some(f.game));
    assert!(
        !tx.tournament_is_over(f.tournament).unwrap(),
        "game 1 is under way"
    );
    for status in GameStatus::ALL {
        tx.update_game_with(
            f.game,
            *status,
            None,
            &serde_json::json!({}),
            None,
            at("2026-10-06T00:00:00Z"),
        )
        .unwrap();
        assert_eq!(
            tx.tournament_is_over(f.tournament).unwrap(),
            *status == GameStatus::Finished,
            "{status}"
        );
    }
    assert_eq!(
        tx.tournaments_changed_since(at("2026-10-06T00:00:00Z"))
            .unwrap(),
        [f.tournament]
    );
    assert!(
        tx.tournaments_changed_since(at("2026-10-06T00:00:01Z"))
            .unwrap()
            .is_empty()
    );
    assert_eq!(tx.tournament_zones().unwrap(), ["Europe/Moscow"]);
    assert_eq!(
        tx.tournaments_in_zone("Europe/Moscow").unwrap(),
        [f.tournament]
    );
    assert!(tx.tournaments_in_zone("Asia/Omsk").unwrap().is_empty());

    assert_eq!(tx.outbox_waiting().unwrap(), 0);
    let to = ["petrov@example.org".to_owned()];
    let a = tx
        .queue(
            &outgoing("<a@x>", Some(second), &to),
            at("2026-10-06T00:00:00Z"),
        )
        .unwrap();
    tx.queue(
        &outgoing("<b@x>", Some(second), &to),
        at("2026-10-06T00:00:00Z"),
    )
    .unwrap();
    assert_eq!(tx.outbox_waiting().unwrap(), 2);
    tx.mark_sent(a, at("2026-10-06T00:01:00Z")).unwrap();
    assert_eq!(tx.outbox_waiting().unwrap(), 1);
    assert_eq!(
        tx.outbox_waiting().unwrap(),
        tx.mail_summary().unwrap().waiting
    );
}

#[test]
fn status_words_round_trip() {
    for status in GameStatus::ALL {
        assert_eq!(status.as_str().parse::<GameStatus>().unwrap(), *status);
        let json = serde_json::to_string(status).unwrap();
        assert_eq!(json, format!("\"{status}\""));
    }
    for status in TournamentStatus::ALL {
        assert_eq!(
            status.as_str().parse::<TournamentStatus>().unwrap(),
            *status
        );
    }
    let err = "paused".parse::<GameStatus>().unwrap_err();
    assert_eq!(err.to_string(), "invalid game status 'paused'");
}

#[test]
fn a_letter_with_a_transport_id_already_stored_is_seen_and_changes_nothing() {
    let mut store = store();
    let tx = store.transaction().unwrap();
    let first = tx
        .admit_letter(&letter(
            "cur/1.maildir",
            Some("<a@x>"),
            "ivanov@example.org",
        ))
        .unwrap();
    let Admission::New(id) = first else {
        panic!("the first letter is new: {first:?}")
    };
    let again = tx
        .admit_letter(&letter(
            "cur/1.maildir",
            Some("<other@x>"),
            "petrov@example.org",
        ))
        .unwrap();
    assert_eq!(again, Admission::Seen(id));
    tx.commit().unwrap();
    assert_eq!(count(&store, "letters_in"), 1);
}

#[test]
fn a_letter_with_the_same_message_id_from_the_same_sender_is_seen() {
    let mut store = store();
    let tx = store.transaction().unwrap();
    let Admission::New(id) = tx
        .admit_letter(&letter(
            "imap:INBOX:7:1",
            Some("<m1@mail.example.org>"),
            "ivanov@example.org",
        ))
        .unwrap()
    else {
        panic!("the first letter is new")
    };
    // UIDVALIDITY changed, the server renumbered: same letter, new transport id.
    let again = tx
        .admit_letter(&letter(
            "imap:INBOX:8:1",
            Some("m1@mail.example.org"),
            "Ivanov@Example.org",
        ))
        .unwrap();
    assert_eq!(again, Admission::Seen(id));
    // The same Message-ID from someone else is another letter.
    let other = tx
        .admit_letter(&letter(
            "imap:INBOX:8:2",
            Some("<m1@mail.example.org>"),
            "petrov@example.org",
        ))
        .unwrap();
    assert!(matches!(other, Admission::New(_)), "{other:?}");
    // Letters without a Message-ID are told apart by the transport alone.
    let a = tx
        .admit_letter(&letter("new/a", None, "x@example.org"))
        .unwrap();
    let b = tx
        .admit_letter(&letter("new/b", None, "x@example.org"))
        .unwrap();
    assert!(matches!((a, b), (Admission::New(_), Admission::New(_))));
    tx.commit().unwrap();
    assert_eq!(count(&store, "letters_in"), 4);
    let tx = store.transaction().unwrap();
    let stored = tx.letter_in(id).unwrap();
    assert_eq!(stored.message_id.as_deref(), Some("m1@mail.example.org"));
    assert_eq!(stored.received, at("2026-10-02T08:30:00Z"));
    assert!(stored.raw.ends_with("c3-d4\r\n".as_bytes()));
    assert_eq!(stored.outcome, None);
}

#[test]
fn one_letter_is_one_transaction_committed_whole() {
    let mut store = store();
    let f = fixture(&mut store);
    let recipients = vec!["petrov@example.org".to_owned()];
    let processed = store
        .process_letter(
            &letter("new/1", Some("<m1@x>"), "ivanov@example.org"),
            at("2026-10-02T08:31:00Z"),
            |tx, id| {
                tx.update_game(
                    f.game,
                    &GameUpdate {
                        status: GameStatus::Playing,
                        result: None,
                        state: r#"{"moves":["c3-d4"]}"#,
                        next_due: Some(day("2026-11-11")),
                    },
                    at("2026-10-02T08:31:00Z"),
                )?;
                let out = tx.queue(
                    &NewLetterOut {
                        in_reply_to: Some(id),
                        ..outgoing("<fwd1@zaochka>", Some(f.game), &recipients)
                    },
                    at("2026-10-02T08:31:00Z"),
                )?;
                Ok::<_, StoreError>((Outcome::Judged { game: f.game }, out))
            },
        )
        .unwrap();
    let Processed::New { id, value: out } = processed else {
        panic!("a new letter is processed: {processed:?}")
    };
    let tx = store.transaction().unwrap();
    let stored = tx.letter_in(id).unwrap();
    assert_eq!(stored.outcome, Some(Outcome::Judged { game: f.game }));
    assert_eq!(stored.processed_at, Some(at("2026-10-02T08:31:00Z")));
    assert_eq!(tx.game(f.game).unwrap().next_due, Some(day("2026-11-11")));
    let queued = tx.letter_out(out).unwrap();
    assert_eq!(queued.in_reply_to, Some(id));
    assert_eq!(queued.recipients, recipients);
    assert_eq!(tx.letters_of(f.game, f.white).unwrap()[0].id, id);
    assert!(tx.letters_of(f.game, f.black).unwrap().is_empty());
}

#[test]
fn a_letter_seen_again_is_not_handled_twice() {
    let mut store = store();
    let f = fixture(&mut store);
    let handle = |store: &mut Store| {
        store.process_letter(
            &letter("imap:INBOX:1:5", Some("<m5@x>"), "ivanov@example.org"),
            at("2026-10-02T09:00:00Z"),
            |tx, _| {
                tx.queue(
                    &outgoing("<r5@zaochka>", Some(f.game), &[]),
                    at("2026-10-02T09:00:00Z"),
                )?;
                Ok::<_, StoreError>((Outcome::Judged { game: f.game }, ()))
            },
        )
    };
    let first = handle(&mut store).unwrap();
    let Processed::New { id, .. } = first else {
        panic!("new the first time: {first:?}")
    };
    // Had the handler run again, the fixed Message-ID of its letter would collide.
    assert_eq!(handle(&mut store).unwrap(), Processed::Seen(id));
    assert_eq!(count(&store, "letters_in"), 1);
    assert_eq!(count(&store, "letters_out"), 1);
}

#[test]
fn a_transaction_that_fails_midway_leaves_nothing() {
    let mut store = store();
    let f = fixture(&mut store);
    let result = store.process_letter(
        &letter("new/2", Some("<m2@x>"), "ivanov@example.org"),
        at("2026-10-02T10:00:00Z"),
        |tx, _| {
            tx.update_game(
                f.game,
                &GameUpdate {
                    status: GameStatus::Stopped,
                    result: None,
                    state: r#"{"moves":["broken"]}"#,
                    next_due: None,
                },
                at("2026-10-02T10:00:00Z"),
            )?;
            tx.queue(
                &outgoing("<e2@zaochka>", Some(f.game), &[]),
                at("2026-10-02T10:00:00Z"),
            )?;
            tx.fire_notice_once(
                f.game,
                "warning",
                day("2026-10-02"),
                None,
                at("2026-10-02T10:00:00Z"),
            )?;
            Err::<(Outcome, ()), _>(StoreError::Invalid {
                what: "test failure",
                value: "midway".to_owned(),
            })
        },
    );
    assert!(matches!(result, Err(StoreError::Invalid { .. })));
    assert_eq!(count(&store, "letters_in"), 0, "not even the letter");
    assert_eq!(count(&store, "letters_out"), 0);
    assert_eq!(count(&store, "notices"), 0);
    let tx = store.transaction().unwrap();
    let game = tx.game(f.game).unwrap();
    assert_eq!(game.status, GameStatus::Playing);
    assert_eq!(game.state, r#"{"moves":[]}"#);
    drop(tx);
    // And the same letter can then be handled for real.
    let again = store
        .process_letter(
            &letter("new/2", Some("<m2@x>"), "ivanov@example.org"),
            at("2026-10-02T10:01:00Z"),
            |_, _| {
                Ok::<_, StoreError>((
                    Outcome::Ignored {
                        reason: "auto-reply".into(),
                    },
                    (),
                ))
            },
        )
        .unwrap();
    assert!(matches!(again, Processed::New { .. }));
}

#[test]
fn a_dropped_transaction_rolls_back() {
    let mut store = store();
    {
        let tx = store.transaction().unwrap();
        tx.admit_letter(&letter("new/3", None, "x@example.org"))
            .unwrap();
    }
    assert_eq!(count(&store, "letters_in"), 0);
}

#[test]
fn outcomes_are_stored_with_their_reason_and_game() {
    let mut store = store();
    let f = fixture(&mut store);
    let outcomes = [
        Outcome::Judged { game: f.game },
        Outcome::SetAside {
            game: Some(f.game),
            reason: "sender is not a player of this game".into(),
        },
        Outcome::SetAside {
            game: None,
            reason: "unknown sender".into(),
        },
        Outcome::Ignored {
            reason: "auto-submitted".into(),
        },
    ];
    for (i, outcome) in outcomes.iter().enumerate() {
        let transport = format!("new/{i}");
        let processed = store
            .process_letter(
                &letter(&transport, None, "someone@example.org"),
                at("2026-10-03T00:00:00Z"),
                |_, _| Ok::<_, StoreError>((outcome.clone(), ())),
            )
            .unwrap();
        let Processed::New { id, .. } = processed else {
            panic!("new")
        };
        let tx = store.transaction().unwrap();
        assert_eq!(tx.letter_in(id).unwrap().outcome.as_ref(), Some(outcome));
    }
    let tx = store.transaction().unwrap();
    assert_eq!(tx.letters_of_game(f.game).unwrap().len(), 2);
}

#[test]
fn retry_delay_doubles_from_one_minute_up_to_an_hour() {
    let minutes: Vec<i64> = (1..=9).map(|n| retry_delay(n).num_minutes()).collect();
    assert_eq!(minutes, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
    assert_eq!(retry_delay(0), TimeDelta::minutes(1));
    assert_eq!(retry_delay(u32::MAX), TimeDelta::hours(1));
}

#[test]
fn the_outbox_retries_with_backoff_until_sent() {
    let mut store = store();
    let f = fixture(&mut store);
    let to = vec!["petrov@example.org".to_owned()];
    let tx = store.transaction().unwrap();
    let now = at("2026-10-02T12:00:00Z");
    let a = tx
        .queue(&outgoing("<a@zaochka>", Some(f.game), &to), now)
        .unwrap();
    let b = tx
        .queue(
            &outgoing("<b@zaochka>", None, &to),
            now + TimeDelta::seconds(1),
        )
        .unwrap();
    assert_eq!(tx.next_outgoing_at().unwrap(), Some(now));
    let due: Vec<_> = tx
        .due_outgoing(now + TimeDelta::seconds(1), 10)
        .unwrap()
        .into_iter()
        .map(|l| l.id)
        .collect();
    assert_eq!(due, [a, b]);
    assert_eq!(
        tx.due_outgoing(now + TimeDelta::seconds(1), 1)
            .unwrap()
            .len(),
        1
    );

    // The server is down: a waits 1 minute, then 2.
    let next = tx.mark_failed(a, "connection refused", now).unwrap();
    assert_eq!(next, now + TimeDelta::minutes(1));
    let next = tx.mark_failed(a, "connection refused", next).unwrap();
    assert_eq!(next, now + TimeDelta::minutes(3));
    let due: Vec<_> = tx
        .due_outgoing(now + TimeDelta::minutes(2), 10)
        .unwrap()
        .into_iter()
        .map(|l| l.id)
        .collect();
    assert_eq!(due, [b], "a is not due yet");
    let stored = tx.letter_out(a).unwrap();
    assert_eq!(stored.attempts, 2);
    assert_eq!(stored.last_error.as_deref(), Some("connection refused"));

    tx.mark_sent(b, now + TimeDelta::minutes(2)).unwrap();
    tx.mark_sent(b, now + TimeDelta::minutes(9)).unwrap();
    assert_eq!(
        tx.letter_out(b).unwrap().sent_at,
        Some(now + TimeDelta::minutes(2)),
        "the first sending time stays"
    );
    assert_eq!(
        tx.next_outgoing_at().unwrap(),
        Some(now + TimeDelta::minutes(3))
    );
    let due = tx.due_outgoing(now + TimeDelta::minutes(3), 10).unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].id, a);
    assert_eq!(due[0].message_id, "a@zaochka");

    assert_eq!(
        tx.mail_summary().unwrap(),
        MailSummary {
            received: 0,
            sent: 1,
            waiting: 1,
            failing: 1,
            given_up: 0
        }
    );
    tx.give_up(a, "550 no such user", now + TimeDelta::minutes(3))
        .unwrap();
    assert_eq!(
        tx.mail_summary().unwrap(),
        MailSummary {
            received: 0,
            sent: 1,
            waiting: 0,
            failing: 0,
            given_up: 1
        }
    );
    assert!(
        tx.due_outgoing(now + TimeDelta::days(1), 10)
            .unwrap()
            .is_empty()
    );
    assert_eq!(tx.next_outgoing_at().unwrap(), None);
    assert!(matches!(
        tx.mark_sent(LetterOutId(99), now),
        Err(StoreError::NotFound { id: 99, .. })
    ));
}

#[test]
fn a_reply_finds_the_outgoing_letter_and_its_game() {
    let mut store = store();
    let f = fixture(&mut store);
    let tx = store.transaction().unwrap();
    tx.queue(
        &outgoing("<fwd-7@zaochka.localhost>", Some(f.game), &[]),
        at("2026-10-02T12:00:00Z"),
    )
    .unwrap();
    let found = tx
        .find_letter_out(" <fwd-7@zaochka.localhost> ")
        .unwrap()
        .unwrap();
    assert_eq!(found.game, Some(f.game));
    assert!(tx.find_letter_out("<nope@x>").unwrap().is_none());
    assert_eq!(tx.letters_out_of_game(f.game).unwrap().len(), 1);
    let err = tx
        .queue(
            &outgoing("fwd-7@zaochka.localhost", None, &[]),
            at("2026-10-02T12:00:00Z"),
        )
        .unwrap_err();
    assert!(
        matches!(err, StoreError::Sql { .. }),
        "a Message-ID is used once: {err:?}"
    );
}

#[test]
fn a_notice_fires_once_however_often_it_is_asked() {
    let mut store = store();
    let f = fixture(&mut store);
    let tx = store.transaction().unwrap();
    let due = day("2026-11-11");
    let fire = |kind: &str, player, at_text: &str| {
        tx.fire_notice_once(f.game, kind, due, player, at(at_text))
            .unwrap()
    };
    assert!(fire("repeat", Some(f.black), "2026-11-11T00:05:00Z"));
    // Weeks later, after downtime, the sweep asks again: 10.3.4 repeats once.
    assert!(!fire("repeat", Some(f.black), "2026-12-20T00:00:00Z"));
    assert!(
        fire("repeat", Some(f.white), "2026-12-20T00:00:00Z"),
        "another player"
    );
    assert!(fire("overstep", None, "2026-11-11T00:05:00Z"));
    assert!(
        !fire("overstep", None, "2026-11-12T00:05:00Z"),
        "a whole-game notice too"
    );
    assert!(
        tx.fire_notice_once(
            f.game,
            "repeat",
            day("2026-12-21"),
            Some(f.black),
            at("2026-12-21T00:00:00Z")
        )
        .unwrap(),
        "a new due day is a new notice"
    );
    let notices = tx.notices_of(f.game).unwrap();
    assert_eq!(notices.len(), 4);
    assert_eq!(notices[0].fired_at, at("2026-11-11T00:05:00Z"));
}

#[test]
fn an_unknown_sender_gets_one_courtesy_answer_a_day() {
    let store_ = &mut store();
    let tx = store_.transaction().unwrap();
    let now = at("2026-10-02T12:00:00Z");
    assert!(
        tx.courtesy_once("stranger@example.net", day("2026-10-02"), now)
            .unwrap()
    );
    assert!(
        !tx.courtesy_once("stranger@example.net", day("2026-10-02"), now)
            .unwrap()
    );
    assert!(
        !tx.courtesy_once("STRANGER@example.net", day("2026-10-02"), now)
            .unwrap()
    );
    assert!(
        tx.courtesy_once("other@example.net", day("2026-10-02"), now)
            .unwrap()
    );
    assert!(
        tx.courtesy_once("stranger@example.net", day("2026-10-03"), now)
            .unwrap()
    );
}

#[test]
fn mailbox_state_is_kept_per_mailbox() {
    let mut store = store();
    let tx = store.transaction().unwrap();
    assert_eq!(tx.mailbox_state("INBOX").unwrap(), None);
    let now = at("2026-10-02T12:00:00Z");
    let state = MailboxState {
        uidvalidity: u32::MAX,
        last_uid: 17,
    };
    tx.set_mailbox_state("INBOX", state, now).unwrap();
    assert_eq!(tx.mailbox_state("INBOX").unwrap(), Some(state));
    let later = MailboxState {
        uidvalidity: 3,
        last_uid: 1,
    };
    tx.set_mailbox_state("INBOX", later, now).unwrap();
    assert_eq!(tx.mailbox_state("INBOX").unwrap(), Some(later));
    assert_eq!(tx.mailbox_state("Archive").unwrap(), None);
}

#[test]
fn decisions_and_breaks_are_kept_with_their_letters() {
    let mut store = store();
    let f = fixture(&mut store);
    let tx = store.transaction().unwrap();
    let Admission::New(from) = tx
        .admit_letter(&letter("new/arb", None, "arbiter@localhost"))
        .unwrap()
    else {
        panic!("new")
    };
    let now = at("2026-10-05T12:00:00Z");
    let decision = tx
        .record_decision(
            &NewDecision {
                game: Some(f.game),
                author: "arbiter@localhost",
                text: "Особый перерыв Иванову с 01.03 по 20.03",
                action: r#"{"special_break":{"from":"2027-03-01","to":"2027-03-20"}}"#,
                letter: Some(from),
            },
            now,
        )
        .unwrap();
    let decisions = tx.decisions_of(f.game).unwrap();
    assert_eq!(decisions.len(), 1);
    assert_eq!(decisions[0].letter, Some(from));
    assert!(
        tx.record_decision(
            &NewDecision {
                game: None,
                author: "arbiter@localhost",
                text: "?",
                action: "not json",
                letter: None,
            },
            now,
        )
        .is_err()
    );

    // 10.4.5: a special break granted by the arbiter.
    tx.add_break(
        &NewBreak {
            player: f.white,
            first_day: day("2027-03-01"),
            last_day: day("2027-03-20"),
            is_special: true,
            letter: None,
            decision: Some(decision),
        },
        now,
    )
    .unwrap();
    // 10.4.3: the seed's example break, 10.10–25.10.
    tx.add_break(
        &NewBreak {
            player: f.white,
            first_day: day("2026-10-10"),
            last_day: day("2026-10-25"),
            is_special: false,
            letter: Some(from),
            decision: None,
        },
        now,
    )
    .unwrap();
    let breaks = tx.breaks_of(f.white).unwrap();
    assert_eq!(breaks.len(), 2);
    assert_eq!(breaks[0].first_day, day("2026-10-10"), "earliest first");
    assert!(breaks[1].is_special);
    assert_eq!(tx.breaks_of_email("IVANOV@example.org").unwrap().len(), 2);
    assert!(tx.breaks_of(f.black).unwrap().is_empty());
    let backwards = tx.add_break(
        &NewBreak {
            player: f.black,
            first_day: day("2026-10-25"),
            last_day: day("2026-10-10"),
            is_special: false,
            letter: None,
            decision: None,
        },
        now,
    );
    assert!(backwards.is_err(), "a break ends after it starts");
}

#[test]
fn a_file_database_commits_with_full_durability_unless_told_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("z.sqlite")).unwrap();
    let synchronous = |store: &Store| -> i64 {
        store
            .conn
            .pragma_query_value(None, "synchronous", |row| row.get(0))
            .unwrap()
    };
    assert_eq!(synchronous(&store), 2, "FULL");
    store.set_durability(Durability::Normal).unwrap();
    assert_eq!(synchronous(&store), 1, "NORMAL");
    let fk: i64 = store
        .conn
        .pragma_query_value(None, "foreign_keys", |row| row.get(0))
        .unwrap();
    assert_eq!(fk, 1);
}

#[test]
fn a_new_file_gets_16_kb_pages_and_an_old_file_keeps_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let page_size = |store: &Store| -> i64 {
        store
            .conn
            .pragma_query_value(None, "page_size", |row| row.get(0))
            .unwrap()
    };
    let new = dir.path().join("new.sqlite");
    let mut store = Store::open(&new).unwrap();
    assert_eq!(page_size(&store), PAGE_SIZE);
    fixture(&mut store);
    drop(store);
    assert_eq!(page_size(&Store::open_existing(&new).unwrap()), 16_384);

    // a federation's file from before: 4 KB pages, WAL, migrated; it opens as it is
    let old = dir.path().join("old.sqlite");
    {
        let conn = Connection::open(&old).unwrap();
        conn.pragma_update(None, "page_size", 4096).unwrap();
        conn.pragma_update(None, "journal_mode", "wal").unwrap();
        let mut store = Store::from_connection(conn).unwrap();
        fixture(&mut store);
    }
    let store = Store::open_existing(&old).unwrap();
    assert_eq!(page_size(&store), 4096);
    assert_eq!(count(&store, "games"), 1);
}

mod properties {
    use proptest::prelude::*;

    use super::*;

    /// One letter drawn from small alphabets, so that collisions are frequent.
    fn arb_letter() -> impl Strategy<Value = (u8, Option<u8>, u8)> {
        (0u8..6, proptest::option::of(0u8..4), 0u8..3)
    }

    const SENDERS: [&str; 3] = [
        "ivanov@example.org",
        "IVANOV@Example.org",
        "petrov@example.org",
    ];

    proptest! {
        /// Exactly once: a letter is new iff no stored letter has its transport id or its
        /// Message-ID from the same sender; a seen letter names one that does.
        #[test]
        fn a_letter_is_stored_once_by_transport_id_or_message_id_and_sender(
            letters in proptest::collection::vec(arb_letter(), 1..40)
        ) {
            let mut store = store();
            let tx = store.transaction().unwrap();
            let mut stored: Vec<(LetterInId, u8, Option<u8>, String)> = Vec::new();
            for (transport, message, sender) in letters {
                let transport_id = format!("new/{transport}");
                let message_id = message.map(|m| format!("<m{m}@x>"));
                let sender = SENDERS[usize::from(sender)];
                let same = |(_, t, m, s): &&(LetterInId, u8, Option<u8>, String)| {
                    *t == transport
                        || (message.is_some() && *m == message && s.eq_ignore_ascii_case(sender))
                };
                let admission = tx
                    .admit_letter(&letter(&transport_id, message_id.as_deref(), sender))
                    .unwrap();
                match admission {
                    Admission::New(id) => {
                        prop_assert!(!stored.iter().any(|l| same(&l)), "stored twice");
                        stored.push((id, transport, message, sender.to_owned()));
                    }
                    Admission::Seen(id) => {
                        let earlier = stored.iter().find(|l| l.0 == id);
                        prop_assert!(earlier.is_some_and(|l| same(&l)), "seen as the wrong letter");
                    }
                }
            }
            let rows: i64 = tx
                .conn()
                .query_row("SELECT count(*) FROM letters_in", [], |row| row.get(0))
                .unwrap();
            prop_assert_eq!(rows, stored.len() as i64);
        }

        /// The delay never shrinks as failures mount, and stays between a minute and an hour.
        #[test]
        fn retry_delay_grows_and_stays_within_an_hour(failures in 0u32..1000) {
            let delay = retry_delay(failures);
            prop_assert!(delay >= TimeDelta::minutes(1) && delay <= TimeDelta::hours(1));
            prop_assert!(retry_delay(failures + 1) >= delay);
        }
    }
}

#[test]
fn the_sender_check_is_kept_with_the_letter_and_must_be_json() {
    let mut store = Store::open_in_memory().unwrap();
    let json = r#"{"mode":"dkim","result":"fail","domain":"forger.test","reason":"x"}"#;
    let done = store
        .process_letter(
            &letter("memory:1", Some("a@example.org"), "ivanov@example.org"),
            at("2026-10-02T09:00:00Z"),
            |tx, id| {
                tx.record_auth(id, json)?;
                assert!(tx.record_auth(id, "not json").is_err());
                Ok::<_, StoreError>((Outcome::Ignored { reason: "t".into() }, id))
            },
        )
        .unwrap();
    let Processed::New { value: id, .. } = done else {
        panic!("seen")
    };
    let stored = store.read(|tx| tx.letter_in(id)).unwrap();
    assert_eq!(stored.auth.as_deref(), Some(json));
}

#[test]
fn a_batch_keeps_its_letters_together_at_its_commit_and_a_failed_letter_alone_is_undone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("z.sqlite");
    let mut store = Store::open(&path).unwrap();
    let f = fixture(&mut store);
    let other = Store::open(&path).unwrap();
    let handle = |store: &mut Store, n: u32, fail: bool| {
        let transport = format!("new/{n}");
        let message_id = format!("<m{n}@x>");
        let reply = format!("<r{n}@zaochka>");
        store.process_letter(
            &letter(&transport, Some(&message_id), "ivanov@example.org"),
            at("2026-10-02T09:00:00Z"),
            |tx, _| {
                tx.queue(
                    &outgoing(&reply, Some(f.game), &[]),
                    at("2026-10-02T09:00:00Z"),
                )?;
                if fail {
                    return Err(StoreError::Invalid {
                        what: "test failure",
                        value: "midway".to_owned(),
                    });
                }
                Ok((Outcome::Judged { game: f.game }, ()))
            },
        )
    };
    store.begin_batch().unwrap();
    assert!(store.in_batch());
    assert!(matches!(
        handle(&mut store, 1, false),
        Ok(Processed::New { .. })
    ));
    assert!(handle(&mut store, 2, true).is_err());
    assert!(matches!(
        handle(&mut store, 3, false),
        Ok(Processed::New { .. })
    ));
    // The same letter again inside the batch is seen: the batch sees its own letters.
    assert!(matches!(
        handle(&mut store, 1, false),
        Ok(Processed::Seen(_))
    ));
    // Another connection sees none of it before the commit.
    assert_eq!(count(&other, "letters_in"), 0);
    assert_eq!(count(&other, "letters_out"), 0);
    store.commit_batch().unwrap();
    assert!(!store.in_batch());
    // Letters 1 and 3 with their answers; nothing of letter 2.
    assert_eq!(count(&other, "letters_in"), 2);
    assert_eq!(count(&other, "letters_out"), 2);
    // Out of a batch, a transaction is a transaction again, committed alone.
    assert!(matches!(
        handle(&mut store, 4, false),
        Ok(Processed::New { .. })
    ));
    assert_eq!(count(&other, "letters_in"), 3);
    // A commit with no batch open fails and keeps nothing new.
    assert!(store.commit_batch().is_err());
}

#[test]
fn a_batch_left_open_is_undone_when_the_store_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("z.sqlite");
    let mut store = Store::open(&path).unwrap();
    let f = fixture(&mut store);
    store.begin_batch().unwrap();
    store
        .process_letter(
            &letter("new/1", Some("<m1@x>"), "ivanov@example.org"),
            at("2026-10-02T09:00:00Z"),
            |_, _| Ok::<_, StoreError>((Outcome::Judged { game: f.game }, ())),
        )
        .unwrap();
    drop(store);
    let store = Store::open(&path).unwrap();
    assert_eq!(count(&store, "letters_in"), 0);
}

#[test]
fn raw_letters_are_kept_compressed_and_read_back_byte_for_byte_old_ones_as_they_were() {
    let mut store = store();
    let f = fixture(&mut store);
    // A letter as mail clients write it: base64 of Cyrillic, lines that repeat, odd bytes.
    let mut raw = b"From: ivanov@example.org\r\nContent-Transfer-Encoding: base64\r\n\r\n".to_vec();
    for n in 0..200u8 {
        raw.extend_from_slice(b"0JzQvtC5INGF0L7QtDogMS4gYzMtZDQ=\r\n");
        raw.extend_from_slice(&[n, 0, 0xff, b'\r', b'\n']);
    }
    let recipients = vec!["petrov@example.org".to_owned()];
    let (id, out) = store
        .with_transaction(|tx| {
            let Admission::New(id) = tx.admit_letter(&NewLetterIn {
                raw: &raw,
                ..letter("new/z", Some("<z@x>"), "ivanov@example.org")
            })?
            else {
                panic!("a new letter")
            };
            let out = tx.queue(
                &NewLetterOut {
                    raw: &raw,
                    ..outgoing("<z@zaochka>", Some(f.game), &recipients)
                },
                at("2026-10-02T08:31:00Z"),
            )?;
            Ok::<_, StoreError>((id, out))
        })
        .unwrap();
    let (stored_in, stored_out) = store
        .read(|tx| Ok::<_, StoreError>((tx.letter_in(id)?.raw, tx.letter_out(out)?.raw)))
        .unwrap();
    assert_eq!(stored_in, raw);
    assert_eq!(stored_out, raw);
    let kept: (i64, i64) = store
        .conn
        .query_row(
            "SELECT length(raw), raw_zlib FROM letters_in WHERE id = ?1",
            [id.0],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(kept.1, 1);
    assert!(
        (kept.0 as usize) < raw.len() / 3,
        "{} bytes kept of {}",
        kept.0,
        raw.len()
    );
    // A letter stored before compression (raw_zlib = 0) reads as it was.
    store
        .conn
        .execute(
            "UPDATE letters_in SET raw = ?1, raw_zlib = 0 WHERE id = ?2",
            rusqlite::params![&raw[..], id.0],
        )
        .unwrap();
    assert_eq!(store.read(|tx| tx.letter_in(id)).unwrap().raw, raw);
    // A damaged blob is an error, never a wrong letter nor a panic.
    store
        .conn
        .execute(
            "UPDATE letters_in SET raw = x'789c0102', raw_zlib = 1 WHERE id = ?1",
            [id.0],
        )
        .unwrap();
    assert!(store.read(|tx| tx.letter_in(id)).is_err());
}

#[test]
fn the_last_letter_of_a_game_to_an_address_is_found_by_its_recipients() {
    let mut store = store();
    let f = fixture(&mut store);
    let tx = store.transaction().unwrap();
    let white = ["white@players.test".to_owned()];
    let black = ["black@players.test".to_owned()];
    for (id, to) in [("<1@z>", &white), ("<2@z>", &black), ("<3@z>", &white)] {
        tx.queue(&outgoing(id, Some(f.game), to), at("2026-10-02T12:00:00Z"))
            .unwrap();
    }
    tx.queue(&outgoing("<4@z>", None, &white), at("2026-10-02T12:00:00Z"))
        .unwrap();
    let last = |a: &str| tx.last_letter_out_to(f.game, &[a]).unwrap();
    assert_eq!(
        last("White@Players.test").as_deref(),
        Some("3@z"),
        "kept without its brackets"
    );
    assert_eq!(last("black@players.test").as_deref(), Some("2@z"));
    assert_eq!(last("nobody@players.test"), None);
}

/// What `record` makes of each statement SQLite runs on `store` from now on, as it ends.
fn traced<T: Send + 'static>(
    store: &mut Store,
    record: fn(&rusqlite::trace::StmtRef<'_>) -> T,
) -> std::sync::Arc<std::sync::Mutex<Vec<T>>> {
    let ran: std::sync::Arc<std::sync::Mutex<Vec<T>>> = std::sync::Arc::default();
    let log = std::sync::Arc::clone(&ran);
    store
        .conn
        .trace_v2(
            rusqlite::trace::TraceEventCodes::SQLITE_TRACE_PROFILE,
            Some(move |event: rusqlite::trace::TraceEvent<'_>| {
                if let rusqlite::trace::TraceEvent::Profile(stmt, _) = event {
                    log.lock().unwrap().push(record(&stmt));
                }
            }),
        )
        .unwrap();
    ran
}

#[test]
fn the_hot_lookups_use_their_indexes_and_are_not_planned_again_for_each_value() {
    // The query planner stability guarantee is on (issue 14): a plan may not look at the
    // values bound. The partial indexes (`WHERE game IS NOT NULL`, `WHERE next_due IS NOT
    // NULL`) must still serve the lookups the daemon makes for every letter and every pass.
    // The statements checked are the store's own, as SQLite ran them (traced), each run with
    // three different values.
    let mut store = store();
    let f = fixture(&mut store);
    // a statement as it ran: its SQL, with the values bound, full-scan steps, re-prepares
    let ran = traced(&mut store, |stmt| {
        (
            stmt.sql().into_owned(),
            stmt.expanded_sql().unwrap_or_default(),
            stmt.get_status(rusqlite::StatementStatus::FullscanStep),
            stmt.get_status(rusqlite::StatementStatus::RePrepare),
        )
    });
    type Lookup = Box<dyn Fn(&Store, i64)>;
    let lookups: [(&str, Lookup); 5] = [
        (
            "players_by_email",
            Box::new(|s, n| {
                s.read(|tx| tx.players_by_email(&format!("p{n}@x.test")))
                    .unwrap();
            }),
        ),
        (
            "games_by_next_due",
            Box::new(|s, n| {
                s.read(|tx| tx.games_due(day("2026-10-01") + chrono::Days::new(n as u64)))
                    .unwrap();
            }),
        ),
        (
            "decisions_by_game",
            Box::new(move |s, n| {
                s.read(|tx| tx.decisions_of(GameId(f.game.0 + n))).unwrap();
            }),
        ),
        (
            "letters_out_by_game",
            Box::new(move |s, n| {
                s.read(|tx| tx.last_letter_out_to(GameId(f.game.0 + n), &["a@x.test"]))
                    .unwrap();
            }),
        ),
        (
            "letters_in_by_message_id",
            Box::new(|s, n| {
                let id = format!("m{n}@x.test");
                s.read(|tx| tx.admit_letter(&letter(&format!("t{n}"), Some(&id), "a@x.test")))
                    .unwrap();
            }),
        ),
    ];
    for (index, lookup) in &lookups {
        ran.lock().unwrap().clear();
        for n in 0..3 {
            lookup(&store, n);
        }
        let ran = ran.lock().unwrap().clone();
        let (sql, expanded, _, _) = ran
            .iter()
            .find(|(sql, ..)| sql.starts_with("SELECT"))
            .unwrap_or_else(|| panic!("{index}: no lookup ran: {ran:?}"));
        assert_eq!(
            ran.iter().filter(|(s, ..)| s == sql).count(),
            3,
            "{index}: {ran:?}"
        );
        let plan: Vec<String> = store
            .conn
            .prepare(&format!("EXPLAIN QUERY PLAN {expanded}"))
            .unwrap()
            .query_map([], |row| row.get(3))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert!(
            plan.iter().any(|step| step.contains(index)),
            "{sql}: {plan:?}"
        );
        for (sql, _, fullscan, reprepared) in &ran {
            assert_eq!(*fullscan, 0, "{index}: a full scan in {sql}");
            assert_eq!(*reprepared, 0, "{index}: planned again: {sql}");
        }
    }
}

#[test]
fn a_letters_statements_are_prepared_once_and_run_again() {
    // issue 14: the statements a letter runs stay in the connection's cache. SQLite counts
    // the runs of each prepared statement: one prepared again for every call would show 1
    // run each time, one kept shows 1, 2, 3.
    let mut store = store();
    let f = fixture(&mut store);
    let runs = traced(&mut store, |stmt| {
        (
            stmt.sql().into_owned(),
            stmt.get_status(rusqlite::StatementStatus::Run),
        )
    });
    let to = ["white@players.test".to_owned()];
    for n in 0..3 {
        store
            .with_transaction(|tx| {
                tx.tournament(f.tournament)?;
                tx.find_tournament("ЗШ-2026-1")?;
                tx.game(f.game)?;
                tx.find_game(f.tournament, 1)?;
                tx.player(f.white)?;
                tx.find_player(f.tournament, "petrov@example.org")?;
                tx.update_game(
                    f.game,
                    &GameUpdate {
                        status: GameStatus::Playing,
                        result: None,
                        state: r#"{"moves":[]}"#,
                        next_due: Some(day("2026-10-31")),
                    },
                    at("2026-10-02T12:00:00Z"),
                )?;
                let out = tx.queue(
                    &outgoing(&format!("<{n}@z>"), Some(f.game), &to),
                    at("2026-10-02T12:00:00Z"),
                )?;
                tx.letter_out(out)?;
                tx.mark_sent(out, at("2026-10-02T12:01:00Z"))?;
                tx.next_due_day()?;
                Ok::<_, StoreError>(())
            })
            .unwrap();
    }
    let runs = runs.lock().unwrap().clone();
    let mut by_sql: std::collections::BTreeMap<&str, Vec<i32>> = std::collections::BTreeMap::new();
    for (sql, run) in &runs {
        by_sql.entry(sql).or_default().push(*run);
    }
    // the store's statements, not the transactions' (rusqlite runs those as batches)
    by_sql.retain(|sql, _| {
        !["BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE"]
            .iter()
            .any(|word| sql.starts_with(word))
    });
    assert!(by_sql.len() >= 11, "{by_sql:?}");
    for (sql, counts) in by_sql {
        // each call ran the kept statement once more than the call before
        let first = counts[0];
        let expected: Vec<i32> = (first..).take(counts.len()).collect();
        assert!(counts.len() >= 3, "{sql}: {counts:?}");
        assert_eq!(counts, expected, "prepared anew, not kept: {sql}");
    }
}
