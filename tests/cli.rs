//! The organiser's commands, run as the real binary in a temporary folder (DESIGN.md "The
//! command line": names, options and exit codes 0 done, 1 refused, 2 broken).
//!
//! Games are put in the database through the library (the judge plays real letters), since
//! `tournament start` and the daemon are tested elsewhere.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use chrono::{NaiveDate, TimeZone, Utc};
use zaochka::game::{
    ClockSettings, Decision, Envelope, GameState, Player, Side, Status, Submission, Variant,
    Written, judge_submission,
};
use zaochka::rules::PdnGame;
use zaochka::store::{GameStatus, NewGame, Store, TournamentStatus};

const CIPHER: &str = "ЗШ-2026-1";

/// A federation in a temporary folder: its config file names a database there.
struct Federation {
    dir: tempfile::TempDir,
}

impl Federation {
    fn new() -> Self {
        Self::with_config("")
    }

    fn with_config(extra: &str) -> Self {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let config = format!(
            "federation = \"ФШР, заочные соревнования\"\ndatabase = \"{}\"\n{extra}",
            dir.path().join("zaochka.sqlite").display()
        );
        std::fs::write(dir.path().join("zaochka.toml"), config).expect("write the config");
        Federation { dir }
    }

    fn database(&self) -> PathBuf {
        self.dir.path().join("zaochka.sqlite")
    }

    /// Runs `zaochka --config … ARGS` in the folder.
    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_zaochka"))
            .current_dir(self.dir.path())
            .arg("--config")
            .arg(self.dir.path().join("zaochka.toml"))
            .args(args)
            .output()
            .expect("run zaochka")
    }

    /// Runs and expects exit code `code`; gives stdout and stderr.
    fn expect(&self, code: i32, args: &[&str]) -> (String, String) {
        let out = self.run(args);
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(
            out.status.code(),
            Some(code),
            "zaochka {args:?}\nstdout:\n{stdout}\nstderr:\n{stderr}"
        );
        (stdout, stderr)
    }

    fn ok(&self, args: &[&str]) -> String {
        self.expect(0, args).0
    }

    fn refused(&self, args: &[&str]) -> String {
        self.expect(1, args).1
    }

    /// init, a Russian tournament and three players.
    fn with_tournament(self) -> Self {
        self.ok(&["init"]);
        self.ok(&[
            "tournament",
            "add",
            CIPHER,
            "--game",
            "russian",
            "--start",
            "2026-12-01",
            "--end",
            "2027-12-01",
            "--name",
            "Кубок федерации",
        ]);
        for (name, email) in PLAYERS {
            self.ok(&["player", "add", CIPHER, "--name", name, "--email", email]);
        }
        self
    }
}

const PLAYERS: [(&str, &str); 3] = [
    ("Иванов Иван", "ivanov@example.org"),
    ("Петров Пётр", "petrov@example.org"),
    ("Сидоров Сидор", "sidorov@example.org"),
];

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").expect("a test date")
}

fn written(number: u32, side: Side, text: &str) -> Written {
    Written {
        number: Some(number),
        side: Some(side),
        text: Ok(text.parse().expect("a move in full notation")),
    }
}

/// One letter that the judge must accept.
fn send(st: GameState, sender: Side, on: &str, sub: &Submission) -> GameState {
    let env = Envelope {
        sender,
        received: day(on),
        letter: format!("<{}-{on}@test>", st.moves.len()),
    };
    let v = judge_submission(&st, sub, &env, &ClockSettings::default());
    assert_eq!(v.decision, Decision::Accepted, "{sub:?}: {:#?}", v.notices);
    v.state
}

fn status_column(st: &GameState) -> GameStatus {
    match st.status {
        Status::Playing => GameStatus::Playing,
        Status::Stopped { .. } => GameStatus::Stopped,
        Status::Suspended { .. } => GameStatus::Suspended,
        Status::Adjudication => GameStatus::Adjudication,
        Status::Finished => GameStatus::Finished,
    }
}

/// The start numbers drawn by lot in [`play_games`]: start number k is the player registered
/// `DRAWN[k - 1]`-th (0-based), so not the order of registration.
const DRAWN: [usize; 3] = [2, 0, 1];

/// One letter, accepted or not; gives the state after.
fn send_any(st: GameState, sender: Side, on: &str, sub: &Submission) -> GameState {
    let env = Envelope {
        sender,
        received: day(on),
        letter: format!("<{}-{on}@test>", st.moves.len()),
    };
    judge_submission(&st, sub, &env, &ClockSettings::default()).state
}

/// Starts the tournament by hand (Berger pairings, start numbers as [`DRAWN`]) and plays:
/// game 1 three moves (1.c3-d4 f6-g5 2.b2-c3 with variant А 2... g5-h4 3.c3-b4, black to
/// move), game 2 black resigns after
/// 1.c3-d4, game 3 stopped: white's first letter has an impossible move (10.2.10).
fn play_games(database: &Path) {
    let mut store = Store::open_existing(database).expect("the database");
    let now = Utc.with_ymd_and_hms(2026, 12, 1, 9, 0, 0).unwrap();
    store
        .with_transaction(|tx| -> Result<(), zaochka::store::StoreError> {
            let t = tx.find_tournament(CIPHER)?.expect("the tournament");
            let players = tx.players(t.id)?;
            let rr = zaochka::tournament::berger(players.len() as u32).expect("pairings");
            for p in &rr.pairings {
                let (w, b) = (
                    &players[DRAWN[p.white as usize - 1]],
                    &players[DRAWN[p.black as usize - 1]],
                );
                let as_player = |p: &zaochka::store::Player| Player {
                    id: p.id.0,
                    name: p.name.clone(),
                    email: p.email.clone(),
                };
                let mut st = GameState::new(
                    CIPHER,
                    p.game,
                    Variant::Russian,
                    as_player(w),
                    as_player(b),
                    t.start,
                    t.end,
                );
                let first = Submission {
                    moves: vec![written(1, Side::White, "c3-d4")],
                    ..Submission::default()
                };
                match p.game {
                    1 => {
                        st = send(st, Side::White, "2026-12-05", &first);
                        let reply = Submission {
                            repeated: vec![written(1, Side::White, "c3-d4")],
                            moves: vec![written(1, Side::Black, "f6-g5")],
                            ..Submission::default()
                        };
                        st = send(st, Side::Black, "2026-12-09", &reply);
                        let again = Submission {
                            repeated: vec![written(1, Side::Black, "f6-g5")],
                            moves: vec![written(2, Side::White, "b2-c3")],
                            variants: vec![zaochka::game::WrittenVariant {
                                label: Some("А".to_owned()),
                                moves: vec![
                                    written(2, Side::Black, "g5-h4"),
                                    written(3, Side::White, "c3-b4"),
                                ],
                            }],
                            ..Submission::default()
                        };
                        st = send(st, Side::White, "2026-12-12", &again);
                    }
                    2 => {
                        st = send(st, Side::White, "2026-12-03", &first);
                        let resign = Submission {
                            repeated: vec![written(1, Side::White, "c3-d4")],
                            is_resignation: true,
                            ..Submission::default()
                        };
                        st = send(st, Side::Black, "2026-12-06", &resign);
                        assert!(st.is_finished(), "black resigned: {:?}", st.status);
                    }
                    _ => {
                        let wrong = Submission {
                            moves: vec![written(1, Side::White, "c3-e5")],
                            ..Submission::default()
                        };
                        st = send_any(st, Side::White, "2026-12-04", &wrong);
                    }
                }
                let state = serde_json::to_string(&st).expect("state as JSON");
                tx.add_game(
                    &NewGame {
                        tournament: t.id,
                        number: p.game,
                        white: w.id,
                        black: b.id,
                        status: status_column(&st),
                        state: &state,
                        next_due: None,
                    },
                    now,
                )?;
            }
            tx.set_tournament_status(t.id, TournamentStatus::Playing)
        })
        .expect("start the tournament by hand");
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
}

// ---------------------------------------------------------------- init and set-up

#[test]
fn init_creates_the_database_and_a_second_init_changes_nothing() {
    let f = Federation::new();
    let first = f.ok(&["init"]);
    assert!(first.contains("created"), "{first}");
    assert!(f.database().exists());
    let second = f.ok(&["init"]);
    assert!(second.contains("up to date"), "{second}");
}

#[test]
fn init_on_a_file_that_is_not_a_database_is_broken() {
    let f = Federation::new();
    std::fs::write(
        f.database(),
        "not a database, just some text that is long enough ....",
    )
    .unwrap();
    let (_, err) = f.expect(2, &["init"]);
    assert!(
        err.contains("zaochka.sqlite"),
        "the message names the file: {err}"
    );
}

#[test]
fn commands_before_init_are_broken_and_say_to_run_init() {
    let f = Federation::new();
    let (_, err) = f.expect(2, &["table", CIPHER]);
    assert!(err.contains("zaochka init"), "{err}");
    assert!(
        !f.database().exists(),
        "a read command must not create the database"
    );
}

#[test]
fn a_bad_command_line_is_refused_with_exit_1_and_help_succeeds() {
    let f = Federation::new();
    let err = f.refused(&["tournament", "add", CIPHER, "--game", "russian"]);
    assert!(err.contains("--start"), "{err}");
    let help = f.ok(&["--help"]);
    for command in [
        "init",
        "tournament",
        "player",
        "run",
        "game",
        "table",
        "export",
        "demo",
        "backup",
    ] {
        assert!(help.contains(command), "{command} missing from:\n{help}");
    }
}

#[test]
fn the_same_tournament_added_twice_is_fine_and_other_data_is_refused() {
    let f = Federation::new().with_tournament();
    let again = f.ok(&[
        "tournament",
        "add",
        CIPHER,
        "--game",
        "russian",
        "--start",
        "2026-12-01",
        "--end",
        "2027-12-01",
        "--name",
        "Кубок федерации",
    ]);
    assert!(again.contains("already exists"), "{again}");
    let err = f.refused(&[
        "tournament",
        "add",
        CIPHER,
        "--game",
        "hundred",
        "--start",
        "2026-12-01",
        "--end",
        "2027-12-01",
        "--name",
        "Кубок федерации",
    ]);
    assert!(err.contains("russian, not hundred"), "{err}");
}

#[test]
fn tournament_add_refuses_bad_games_dates_and_zones_saying_why() {
    let f = Federation::new();
    f.ok(&["init"]);
    let add = |extra: &[&str]| {
        let mut args = vec!["tournament", "add"];
        args.extend_from_slice(extra);
        f.refused(&args)
    };
    let base = ["--start", "2026-12-01", "--end", "2027-12-01"];
    let with = |first: &[&'static str], rest: &[&'static str]| {
        let mut v: Vec<&str> = first.to_vec();
        v.extend_from_slice(rest);
        v
    };
    let err = add(&with(&["T", "--game", "chess"], &base));
    assert!(err.contains("unknown game 'chess'"), "{err}");
    let err = add(&with(&["  ", "--game", "russian"], &base));
    assert!(err.contains("cipher is empty"), "{err}");
    let err = add(&[
        "T",
        "--game",
        "russian",
        "--start",
        "01.12.2026",
        "--end",
        "2027-12-01",
    ]);
    assert!(err.contains("YYYY-MM-DD"), "{err}");
    let err = add(&[
        "T",
        "--game",
        "russian",
        "--start",
        "2027-12-01",
        "--end",
        "2026-12-01",
    ]);
    assert!(err.contains("after the end-of-play date"), "{err}");
    let err = add(&with(
        &["T", "--game", "russian", "--tz", "Mars/Olympus"],
        &base,
    ));
    assert!(err.contains("unknown time zone 'Mars/Olympus'"), "{err}");
    let table = f.refused(&["table", "T"]);
    assert!(
        table.contains("no tournament 'T'"),
        "nothing was added: {table}"
    );
}

#[test]
fn a_tournament_keeps_the_rules_settings_it_was_added_with() {
    let f = Federation::with_config("[rules]\npoints_win = 3\n");
    f.ok(&["init"]);
    f.ok(&[
        "tournament",
        "add",
        CIPHER,
        "--game",
        "russian",
        "--start",
        "2026-12-01",
        "--end",
        "2027-12-01",
        "--tz",
        "Asia/Vladivostok",
    ]);
    let store = Store::open_existing(f.database()).unwrap();
    let t = store
        .read(|tx| tx.find_tournament(CIPHER))
        .unwrap()
        .unwrap();
    assert_eq!(t.tz, "Asia/Vladivostok");
    assert_eq!(t.name, CIPHER, "the name defaults to the cipher");
    let settings: serde_json::Value = serde_json::from_str(&t.settings).unwrap();
    assert_eq!(settings["standings"]["points"]["win"], 3);
    assert_eq!(settings["clock"]["days_per_period"], 50, "10.3.5");
    assert_eq!(settings["clock"]["penalty_days"], 6, "10.2.11");
}

#[test]
fn a_player_added_twice_is_fine_but_not_under_another_name() {
    let f = Federation::new().with_tournament();
    let again = f.ok(&[
        "player",
        "add",
        CIPHER,
        "--name",
        "Иванов  Иван",
        "--email",
        "IVANOV@example.org",
    ]);
    assert!(again.contains("already registered"), "{again}");
    let err = f.refused(&[
        "player",
        "add",
        CIPHER,
        "--name",
        "Кузнецов Кузьма",
        "--email",
        "ivanov@example.org",
    ]);
    assert!(err.contains("already registered"), "{err}");
    let store = Store::open_existing(f.database()).unwrap();
    let players = store
        .read(|tx| {
            let t = tx.find_tournament(CIPHER)?.unwrap();
            tx.players(t.id)
        })
        .unwrap();
    assert_eq!(players.len(), 3);
}

#[test]
fn player_add_refuses_bad_addresses_unknown_and_started_tournaments() {
    let f = Federation::new().with_tournament();
    let err = f.refused(&[
        "player",
        "add",
        CIPHER,
        "--name",
        "Козлов Коля",
        "--email",
        "kozlov",
    ]);
    assert!(err.contains("'kozlov' is not an email address"), "{err}");
    let err = f.refused(&[
        "player",
        "add",
        "ЗШ-1999",
        "--name",
        "Козлов Коля",
        "--email",
        "k@example.org",
    ]);
    assert!(err.contains("no tournament 'ЗШ-1999'"), "{err}");
    play_games(&f.database());
    let err = f.refused(&[
        "player",
        "add",
        CIPHER,
        "--name",
        "Козлов Коля",
        "--email",
        "k@example.org",
    ]);
    assert!(err.contains("has started"), "{err}");
}

#[test]
fn player_add_refuses_the_officials_and_mailbox_addresses_and_a_name_taken() {
    let f = Federation::with_config(
        "[mailbox]\naddress = \"zaochka@fed.test\"\n\
         [officials]\narbiter = \"arbiter@fed.test\"\nsecretary = \"secretary@fed.test\"\n",
    )
    .with_tournament();
    for (email, whose) in [
        ("ZAOCHKA@fed.test", "mailbox.address"),
        ("arbiter@fed.test", "officials.arbiter"),
        ("secretary@FED.test", "officials.secretary"),
    ] {
        let err = f.refused(&[
            "player",
            "add",
            CIPHER,
            "--name",
            "Козлов Коля",
            "--email",
            email,
        ]);
        assert!(err.contains(whose), "{email}: {err}");
    }
    let err = f.refused(&[
        "player",
        "add",
        CIPHER,
        "--name",
        "иванов иван",
        "--email",
        "other@example.org",
    ]);
    assert!(
        err.contains("already registered") && err.contains("ivanov@example.org"),
        "{err}"
    );
    let err = f.refused(&[
        "player",
        "add",
        CIPHER,
        "--name",
        &"Я".repeat(81),
        "--email",
        "long@example.org",
    ]);
    assert!(err.contains("81 characters"), "{err}");
    f.ok(&[
        "player",
        "add",
        CIPHER,
        "--name",
        "\u{202E}Козлов\u{202C} Коля",
        "--email",
        "kozlov@example.org",
    ]);
    let store = Store::open_existing(f.database()).unwrap();
    let names: Vec<String> = store
        .read(|tx| {
            let t = tx.find_tournament(CIPHER)?.unwrap();
            tx.players(t.id)
        })
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(
        names,
        ["Иванов Иван", "Петров Пётр", "Сидоров Сидор", "Козлов Коля"]
    );
}

#[test]
fn a_config_with_the_arbiter_at_the_mailbox_address_is_refused_with_exit_1() {
    let f = Federation::with_config(
        "[mailbox]\naddress = \"zaochka@fed.test\"\n[officials]\narbiter = \"zaochka@fed.test\"\n",
    );
    let err = f.refused(&["init"]);
    assert!(
        err.contains("officials.arbiter") && err.contains("mailbox.address"),
        "{err}"
    );
    assert!(!f.database().exists());
}

#[test]
fn perft_deeper_than_the_bound_is_refused_with_exit_1() {
    let f = Federation::new();
    let err = f.refused(&["rules", "perft", "--game", "russian", "--depth", "50000"]);
    assert!(err.contains("50000"), "{err}");
    let err = f.refused(&[
        "rules",
        "perft",
        "--game",
        "russian",
        "--depth",
        "65",
        "--fen",
        "W:WK29:BK4",
    ]);
    assert!(err.contains("at most 64"), "{err}");
    let out = f.ok(&["rules", "perft", "--game", "russian", "--depth", "3"]);
    assert!(out.starts_with("nodes 302\n"), "{out}");
}

// ---------------------------------------------------------------- game show and timechart

#[test]
fn game_show_json_gives_players_clocks_status_fen_and_record() {
    let f = Federation::new().with_tournament();
    play_games(&f.database());
    let out = f.ok(&["--now", "2026-12-20", "game", "show", CIPHER, "1", "--json"]);
    let v = json(&out);
    assert_eq!(v["cipher"], CIPHER);
    assert_eq!(v["number"], 1);
    assert_eq!(v["game"], "russian");
    assert_eq!(v["status"], "playing");
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["result"], serde_json::Value::Null);
    assert_eq!(
        v["record"], "1.cd4 fg5 2.bc3",
        "semi-short notation (10.5.1)"
    );
    // 10.3.1: white thought 12-02..12-05 (4 days) and 12-10..12-12 (3); black 12-06..12-09
    // (4) and is thinking since 12-12: 8 running days on 12-20.
    assert_eq!(v["white"]["days"], 7, "{out}");
    assert_eq!(v["black"]["days"], 12, "{out}");
    assert_eq!(v["white"]["moves"], 2);
    assert_eq!(v["black"]["moves"], 1);
    assert_eq!(v["white"]["penalty_days"], 0);
    assert_eq!(v["white"]["limit"], 50, "10.3.5");
    for side in ["white", "black"] {
        assert!(v[side]["name"].is_string() && v[side]["email"].is_string());
    }
    let fen = v["fen"].as_str().unwrap();
    assert!(fen.starts_with("B:"), "black to move: {fen}");
    assert_eq!(v["variants"][0]["by"], "white", "10.2.7: {v}");
    assert_eq!(v["variants"][0]["label"], "А");
    assert_eq!(
        v["variants"][0]["moves"],
        serde_json::json!(["g5-h4", "c3-b4"])
    );
}

#[test]
fn game_show_text_has_the_diagram_record_clocks_and_whose_move() {
    let f = Federation::new().with_tournament();
    play_games(&f.database());
    let out = f.ok(&["--now", "2026-12-20", "game", "show", CIPHER, "1"]);
    assert!(
        out.contains(&format!("Турнир {CIPHER}, партия № 1")),
        "{out}"
    );
    assert!(out.contains("Запись: 1.cd4 fg5 2.bc3"), "{out}");
    assert!(
        out.contains("Начало 01.12.2026, контрольный срок 01.12.2027"),
        "{out}"
    );
    assert!(out.contains("Ход чёрных"), "{out}");
    assert!(out.contains("Вариант белых А: g5-h4 c3-b4"), "{out}");
    assert!(out.contains("7 дней из 50"), "{out}");
    assert!(out.contains("12 дней из 50"), "{out}");
    // The diagram: rank 4 has the white man on d4 and b2 is empty after 2.b2-c3.
    assert!(out.contains(" 4 |   .   б   .   . |"), "{out}");
    assert!(out.contains(" 2 |   .   б   б   б |"), "{out}");
    assert!(out.contains("Время на 20.12.2026"), "{out}");
}

#[test]
fn a_resigned_game_shows_its_result_and_no_side_to_move() {
    let f = Federation::new().with_tournament();
    play_games(&f.database());
    let v = json(&f.ok(&["game", "show", CIPHER, "2", "--json"]));
    assert_eq!(v["status"], "finished");
    assert_eq!(v["result"], "1-0");
    assert_eq!(v["ended_by"], "resignation");
    assert_eq!(v["to_move"], serde_json::Value::Null);
}

#[test]
fn a_letter_with_an_impossible_move_shows_the_game_stopped_with_penalty_days() {
    let f = Federation::new().with_tournament();
    play_games(&f.database());
    let v = json(&f.ok(&["--now", "2026-12-10", "game", "show", CIPHER, "3", "--json"]));
    assert_eq!(v["status"], "stopped", "10.2.10: {v}");
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["white"]["penalty_days"], 6, "10.2.11");
    // 9 thinking days since the start (12-02..12-10) and the 6 penalty days.
    assert_eq!(v["white"]["days"], 15, "{v}");
    assert_eq!(v["white"]["moves"], 0);
    assert_eq!(v["record"], "");
    let text = f.ok(&["--now", "2026-12-10", "game", "show", CIPHER, "3"]);
    assert!(text.contains("игра остановлена с 04.12.2026"), "{text}");
}

#[test]
fn a_game_whose_player_is_on_a_break_shows_break_and_the_clock_stands() {
    let f = Federation::new().with_tournament();
    play_games(&f.database());
    let mut store = Store::open_existing(f.database()).unwrap();
    store
        .with_transaction(|tx| -> Result<(), zaochka::store::StoreError> {
            let t = tx.find_tournament(CIPHER)?.unwrap();
            let g = tx.find_game(t.id, 1)?.unwrap();
            let mut st: GameState = g.state_as()?;
            // Black announces a break 15..24 December on the 14th (10.4.1, 10.4.2).
            st.breaks.black.push(zaochka::clock::Break::ordinary(
                day("2026-12-15"),
                day("2026-12-24"),
                day("2026-12-14"),
            ));
            tx.update_game_with(g.id, GameStatus::Break, None, &st, None, Utc::now())
        })
        .unwrap();
    let v = json(&f.ok(&["--now", "2026-12-20", "game", "show", CIPHER, "1", "--json"]));
    assert_eq!(v["status"], "break", "{v}");
    // Black has thought 12-13 and 12-14 since 12-12; the break days do not count (10.4.3).
    assert_eq!(v["black"]["days"], 6, "{v}");
    let after = json(&f.ok(&["--now", "2026-12-26", "game", "show", CIPHER, "1", "--json"]));
    assert_eq!(after["status"], "playing");
    assert_eq!(after["black"]["days"], 8, "{after}");
}

#[test]
fn a_hundred_square_game_shows_its_record_in_numeric_notation() {
    let f = Federation::new();
    f.ok(&["init"]);
    f.ok(&[
        "tournament",
        "add",
        "СТ-1",
        "--game",
        "hundred",
        "--start",
        "2026-12-01",
        "--end",
        "2027-12-01",
    ]);
    f.ok(&[
        "player",
        "add",
        "СТ-1",
        "--name",
        "Белов Борис",
        "--email",
        "b@example.org",
    ]);
    f.ok(&[
        "player",
        "add",
        "СТ-1",
        "--name",
        "Чернов Чеслав",
        "--email",
        "c@example.org",
    ]);
    let mut store = Store::open_existing(f.database()).unwrap();
    store
        .with_transaction(|tx| -> Result<(), zaochka::store::StoreError> {
            let t = tx.find_tournament("СТ-1")?.unwrap();
            let p = tx.players(t.id)?;
            let as_player = |p: &zaochka::store::Player| Player {
                id: p.id.0,
                name: p.name.clone(),
                email: p.email.clone(),
            };
            let mut st = GameState::new(
                "СТ-1",
                1,
                Variant::Hundred,
                as_player(&p[0]),
                as_player(&p[1]),
                t.start,
                t.end,
            );
            let first = Submission {
                moves: vec![written(1, Side::White, "32-28")],
                ..Submission::default()
            };
            st = send(st, Side::White, "2026-12-03", &first);
            let reply = Submission {
                repeated: vec![written(1, Side::White, "32-28")],
                moves: vec![written(1, Side::Black, "19-23")],
                ..Submission::default()
            };
            st = send(st, Side::Black, "2026-12-05", &reply);
            let state = serde_json::to_string(&st).unwrap();
            tx.add_game(
                &NewGame {
                    tournament: t.id,
                    number: 1,
                    white: p[0].id,
                    black: p[1].id,
                    status: GameStatus::Playing,
                    state: &state,
                    next_due: None,
                },
                Utc::now(),
            )?;
            Ok(())
        })
        .unwrap();
    let v = json(&f.ok(&["game", "show", "СТ-1", "1", "--json"]));
    assert_eq!(v["game"], "hundred");
    assert_eq!(v["record"], "1. 32-28 19-23");
    let text = f.ok(&["game", "show", "СТ-1", "1"]);
    assert!(text.contains("10 |"), "a 10x10 diagram: {text}");
    assert!(text.contains("a b c d e f g h i k"), "{text}");
    let pdn = f.ok(&["export", "pdn", "СТ-1"]);
    assert!(pdn.contains("[GameType \"20\"]"), "{pdn}");
    assert!(pdn.contains("1. 32-28 19-23 *"), "{pdn}");
}

#[test]
fn game_show_refuses_an_unknown_game() {
    let f = Federation::new().with_tournament();
    let err = f.refused(&["game", "show", CIPHER, "9"]);
    assert!(err.contains("no game 9"), "{err}");
}

#[test]
fn game_show_speaks_english_when_the_config_says_so() {
    let f = Federation::with_config("language = \"en\"\n").with_tournament();
    play_games(&f.database());
    let out = f.ok(&["--now", "2026-12-20", "game", "show", CIPHER, "1"]);
    assert!(out.contains("Black to move"), "{out}");
    assert!(out.contains("7 days of 50"), "{out}");
}

#[test]
fn the_timechart_is_table_2_of_10_3_6_in_russian() {
    let f = Federation::new().with_tournament();
    play_games(&f.database());
    let out = f.ok(&["--now", "2026-12-20", "game", "timechart", CIPHER, "1"]);
    assert!(out.contains("таблица 2, п. 10.3.6"), "{out}");
    assert!(
        out.contains("Иванов Иван (белые) — Петров Пётр (чёрные)"),
        "{out}"
    );
    // Black's pending answer runs: received 12.12, 8 days by 20.12 (10.3.1).
    assert!(
        out.contains("12.12.2026 —              8          12"),
        "{out}"
    );
    assert!(out.contains("Белые 7/50, Чёрные 12/50"), "{out}");
}

// ---------------------------------------------------------------- table and export

#[test]
fn the_table_counts_the_resigned_game_with_the_tournament_points() {
    let f = Federation::new().with_tournament();
    play_games(&f.database());
    let v = json(&f.ok(&["table", CIPHER, "--json"]));
    assert_eq!(v["games"], 3);
    assert_eq!(v["finished"], 1);
    let rows = v["standings"]["rows"].as_array().unwrap();
    let total: u64 = rows.iter().map(|r| r["points"].as_u64().unwrap()).sum();
    assert_eq!(total, 2, "one win at 2 points (the default)");
    assert_eq!(rows[0]["points"], 2, "the winner leads: {v}");
    // Start number 1 was drawn for the third registered player: the table reads the start
    // numbers back from the Berger pairings of the games.
    let names: Vec<&str> = (0..3)
        .map(|i| v["players"][i]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Сидоров Сидор", "Иванов Иван", "Петров Пётр"]);
    let text = f.ok(&["table", CIPHER]);
    assert!(text.contains("сыграно 1 из 3 партий"), "{text}");
    assert!(text.contains("Место"), "{text}");
}

#[test]
fn export_pdn_writes_every_game_with_the_tags_and_reads_back() {
    let f = Federation::new().with_tournament();
    play_games(&f.database());
    let all = f.ok(&["export", "pdn", CIPHER]);
    assert_eq!(
        all.matches("[Event \"Кубок федерации\"]").count(),
        3,
        "{all}"
    );
    assert!(
        all.contains("[Site \"ФШР, заочные соревнования\"]"),
        "{all}"
    );
    assert!(all.contains("[Date \"2026.12.01\"]"), "{all}");
    assert!(all.contains("[GameType \"25\"]"), "{all}");
    assert!(!all.contains("[Round \"?\"]"), "{all}");
    let one = f.ok(&["export", "pdn", CIPHER, "1"]);
    let game = PdnGame::from_pdn(&one).expect("our own PDN reads back");
    assert_eq!(game.record.moves().len(), 3);
    assert_eq!(game.result, "*");
    let two = PdnGame::from_pdn(&f.ok(&["export", "pdn", CIPHER, "2"])).unwrap();
    assert_eq!(two.result, "1-0");
    let err = f.refused(&["export", "pdn", CIPHER, "7"]);
    assert!(err.contains("no game 7"), "{err}");
}

#[test]
fn export_pdn_writes_each_games_clock_as_game_show_has_it_on_the_day_the_move_was_sent() {
    let f = Federation::new().with_tournament();
    play_games(&f.database());
    let tags = |pdn: &str| -> std::collections::BTreeMap<String, String> {
        PdnGame::from_pdn(pdn)
            .expect("our own PDN reads back")
            .tags
            .into_iter()
            .collect()
    };
    // Game 1: White's third letter went to Black on 12.12; Black's days run from 13.12.
    let one = tags(&f.ok(&["--now", "2026-12-20", "export", "pdn", CIPHER, "1"]));
    assert_eq!(one["Sent"], "2026-12-12", "{one:?}");
    let shown = json(&f.ok(&["--now", "2026-12-12", "game", "show", CIPHER, "1", "--json"]));
    assert_eq!(
        one["WhiteDays"],
        shown["white"]["days"].to_string(),
        "{shown}"
    );
    assert_eq!(
        one["BlackDays"],
        shown["black"]["days"].to_string(),
        "{shown}"
    );
    // White thought 5.12 − 1.12 and 12.12 − 9.12, Black 9.12 − 5.12 (10.3.1).
    assert_eq!(
        (one["WhiteDays"].as_str(), one["BlackDays"].as_str()),
        ("7", "4")
    );
    assert_eq!(one["WhitePenaltyDays"], "0");
    // The export does not depend on the day it is made.
    assert_eq!(
        one,
        tags(&f.ok(&["--now", "2027-01-20", "export", "pdn", CIPHER, "1"]))
    );
    // Game 2 ended (Black resigned): its totals as of the end, and no Sent.
    let two = tags(&f.ok(&["--now", "2026-12-20", "export", "pdn", CIPHER, "2"]));
    assert!(!two.contains_key("Sent"), "{two:?}");
    let ended = json(&f.ok(&["--now", "2026-12-20", "game", "show", CIPHER, "2", "--json"]));
    assert_eq!(two["BlackDays"], ended["black"]["days"].to_string());
    // Black thought 3.12 to 6.12, and `game show` stops the clock at the end (it ran on).
    assert_eq!(two["BlackDays"], "3");
    // Game 3: White's move was refused with penalty days (10.2.11), no answer yet.
    let three = tags(&f.ok(&["--now", "2026-12-20", "export", "pdn", CIPHER, "3"]));
    let shown = json(&f.ok(&["--now", "2026-12-20", "game", "show", CIPHER, "3", "--json"]));
    assert_eq!(
        three["WhitePenaltyDays"],
        shown["white"]["penalty_days"].to_string()
    );
    assert!(!three.contains_key("Sent"), "{three:?}");
}

#[test]
fn commands_of_the_lead_are_wired_to_the_command_line() {
    let f = Federation::new().with_tournament();
    // Their outcome is the lead's; here only that they parse and reach a function (no
    // usage error, which clap would print with "Usage:").
    for args in [
        &["tournament", "start", "ЗШ-1999"][..],
        &["run", "--once"][..],
    ] {
        let out = f.run(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("Usage:"), "{args:?}: {err}");
    }
}

#[test]
fn games_made_by_the_offices_start_show_and_export() {
    let f = Federation::new().with_tournament();
    let config = zaochka::config::Config::load(&f.dir.path().join("zaochka.toml")).unwrap();
    let mut store = Store::open_existing(f.database()).unwrap();
    let now = Utc.with_ymd_and_hms(2026, 12, 1, 9, 0, 0).unwrap();
    let games = zaochka::office::Office::new(config)
        .start_tournament(&mut store, CIPHER, now)
        .expect("the start");
    assert_eq!(games, 3, "three players: three games, one bye a round");
    drop(store);
    let v = json(&f.ok(&["--now", "2026-12-11", "game", "show", CIPHER, "1", "--json"]));
    assert_eq!(v["status"], "playing");
    assert_eq!(v["to_move"], "white");
    assert_eq!(
        v["white"]["days"], 10,
        "10.3.2: counted from the start: {v}"
    );
    assert_eq!(v["black"]["days"], 0);
    let table = json(&f.ok(&["table", CIPHER, "--json"]));
    assert_eq!(table["games"], 3);
    assert_eq!(table["finished"], 0);
    let pdn = f.ok(&["export", "pdn", CIPHER]);
    assert_eq!(pdn.matches("[Result \"*\"]").count(), 3, "{pdn}");
}

#[test]
fn analyse_prints_the_verdict_the_line_and_the_figures_as_json() {
    let f = Federation::new();
    let out = f.ok(&[
        "analyse",
        "--game",
        "russian",
        "--fen",
        "W:Wc3:Bd4",
        "--depth",
        "4",
        "--json",
    ]);
    let v = json(&out);
    assert_eq!(v["verdict"], "win");
    assert_eq!(v["proven"], true);
    assert_eq!(v["pv"], serde_json::json!(["c3:e5"]));
    assert_eq!(v["basis"], "search");
    for key in ["score", "depth", "nodes", "nodes_per_second"] {
        assert!(v[key].is_u64() || v[key].is_i64(), "{key}: {out}");
    }
    // 10x10: the line in numbers; an unproven verdict from the start position
    let v = json(&f.ok(&[
        "analyse",
        "--game",
        "hundred",
        "--fen",
        "W:W31-50:B1-20",
        "--depth",
        "3",
        "--json",
    ]));
    assert_eq!(v["proven"], false);
    assert_eq!(v["depth"], 3);
    let first = v["pv"][0].as_str().unwrap();
    assert!(first.split('-').all(|n| n.parse::<u8>().is_ok()), "{first}");
    // the text form, in the config's language
    let text = f.ok(&[
        "analyse",
        "--game",
        "giveaway",
        "--fen",
        "W:Wc3:Bd4",
        "--depth",
        "2",
    ]);
    assert!(
        text.contains("Ход белых: выигрыш чёрных (доказано"),
        "{text}"
    );
    assert!(text.contains("Вариант: c3:e5"), "{text}");
}

#[test]
fn analyse_refuses_a_bad_position_or_game() {
    let f = Federation::new();
    let err = f.refused(&["analyse", "--game", "russian", "--fen", "W:W33:B1"]);
    assert!(err.contains("33"), "{err}");
    let err = f.refused(&["analyse", "--game", "chess", "--fen", "W:W21:B1"]);
    assert!(err.contains("chess"), "{err}");
    f.refused(&[
        "analyse", "--game", "russian", "--fen", "W:W21:B1", "--depth", "0",
    ]);
}

#[test]
fn tables_build_writes_checked_slices_resumes_and_analyse_reads_them() {
    let f = Federation::new();
    let dir = f.dir.path().join("tables");
    let d = dir.to_str().unwrap();
    let out = f.ok(&[
        "tables", "build", "--game", "russian", "--pieces", "3", "--dir", d,
    ]);
    assert!(
        out.contains("16 slices (16 built, 0 already there)"),
        "{out}"
    );
    assert!(dir.join("russian/0-2-0-1.ztb").exists());
    // resumed: nothing is built again
    let (out, progress) = f.expect(
        0,
        &[
            "tables", "build", "--game", "russian", "--pieces", "3", "--dir", d,
        ],
    );
    assert!(out.contains("(0 built, 16 already there)"), "{out}");
    assert!(
        progress.contains("already built, checksum good"),
        "{progress}"
    );
    // a damaged file is built again
    let file = dir.join("russian/1-0-0-2.ztb");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&file, bytes).unwrap();
    let out = f.ok(&[
        "tables", "build", "--game", "russian", "--pieces", "3", "--dir", d,
    ]);
    assert!(out.contains("(2 built, 14 already there)"), "{out}");
    // analyse with the tables: a proven verdict from them
    let v = json(&f.ok(&[
        "analyse",
        "--game",
        "russian",
        "--fen",
        "W:WKc1,Ke1:BKh8",
        "--depth",
        "4",
        "--tables",
        d,
        "--json",
    ]));
    assert_eq!(
        (v["verdict"].as_str(), v["proven"].as_bool()),
        (Some("draw"), Some(true))
    );
    assert_eq!(v["basis"], "tables");
    assert!(v["move_count_rule"]["moves"].is_u64(), "{v}");
    f.refused(&[
        "tables", "build", "--game", "russian", "--pieces", "9", "--dir", d,
    ]);
}

#[test]
fn letter_read_shows_what_the_sender_check_found() {
    let mut dkim = crate::support::Dkim::default();
    dkim.publish("example.org");
    let fed =
        Federation::with_config("[auth]\nsenders = \"dkim\"\ndns_records = \"dns_records\"\n");
    std::fs::write(fed.dir.path().join("dns_records"), dkim.file_text()).unwrap();
    let letter = "From: ivanov@example.org\r\nTo: zaochka@localhost\r\nSubject: x\r\n\
                  Message-ID: <r1@example.org>\r\n\r\nМой ход: 1. c3-d4\r\n";
    let signed = dkim.sign(letter.as_bytes());
    std::fs::write(fed.dir.path().join("signed.eml"), &signed).unwrap();
    let shown = json(&fed.ok(&["letter", "read", "signed.eml"]));
    let auth = &shown["authentication"];
    assert_eq!(
        (&auth["mode"], &auth["result"], &auth["domain"]),
        (&"dkim".into(), &"pass".into(), &"example.org".into()),
        "{shown}"
    );
    // The same letter with its move changed after signing.
    let forged = String::from_utf8(signed).unwrap().replace("c3-d4", "a3-b4");
    std::fs::write(fed.dir.path().join("forged.eml"), forged).unwrap();
    let shown = json(&fed.ok(&["letter", "read", "forged.eml"]));
    assert_eq!(shown["authentication"]["result"], "fail", "{shown}");
    assert!(
        shown["authentication"]["reason"]
            .as_str()
            .unwrap()
            .contains("body was changed"),
        "{shown}"
    );
    assert_eq!(shown["moves"][0]["move"], "a3-b4", "{shown}");
}

#[test]
fn tournament_list_player_list_and_a_new_address() {
    let f = Federation::new().with_tournament();
    let list = f.ok(&["tournament", "list"]);
    assert!(list.contains(CIPHER), "{list}");
    assert!(list.contains("3 players"), "{list}");
    assert!(list.contains("Кубок федерации"), "{list}");
    f.ok(&["tournament", "start", CIPHER]);
    let list = f.ok(&["tournament", "list"]);
    assert!(list.contains("0/3 games finished"), "{list}");
    let out = f.ok(&[
        "player",
        "set-email",
        CIPHER,
        "петров пётр",
        "petrov@new.example.org",
    ]);
    assert!(
        out.contains("petrov@example.org -> petrov@new.example.org"),
        "{out}"
    );
    let players = f.ok(&["player", "list", CIPHER]);
    let petrov = players
        .lines()
        .find(|l| l.starts_with("Петров Пётр"))
        .unwrap_or_else(|| panic!("{players}"));
    assert!(petrov.contains("petrov@new.example.org"), "{petrov}");
    assert!(petrov.contains("2 games"), "{petrov}");
    assert!(petrov.contains("formerly petrov@example.org"), "{petrov}");
    // Refused: another player's address, an official's, no such player or tournament.
    for args in [
        [
            "player",
            "set-email",
            CIPHER,
            "Петров Пётр",
            "ivanov@example.org",
        ],
        [
            "player",
            "set-email",
            CIPHER,
            "Петров Пётр",
            "not an address",
        ],
        [
            "player",
            "set-email",
            CIPHER,
            "Никто Никак",
            "n@example.org",
        ],
        [
            "player",
            "set-email",
            "НЕТ-1",
            "Петров Пётр",
            "n@example.org",
        ],
    ] {
        assert!(!f.refused(&args).is_empty(), "{args:?}");
    }
    assert!(!f.refused(&["player", "list", "НЕТ-1"]).is_empty());
}

#[test]
fn the_demos_closing_hint_runs_as_printed() {
    let f = Federation::new();
    let dir = f.dir.path().join("demo");
    let out = f.ok(&["demo", dir.to_str().unwrap()]);
    let hint = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("cd "))
        .unwrap_or_else(|| panic!("no hint in:\n{out}"));
    let (at, command) = hint
        .split_once(" && zaochka ")
        .expect("cd DIR && zaochka …");
    assert_eq!(Path::new(at), dir);
    let shown = Command::new(env!("CARGO_BIN_EXE_zaochka"))
        .current_dir(at)
        .args(command.split_whitespace())
        .output()
        .expect("run the hint");
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(
        shown.status.success(),
        "{command}: {text}\n{}",
        String::from_utf8_lossy(&shown.stderr)
    );
    // The clock is read on the demo's last day (05.03.2027), not today's: a game of the
    // demo has used weeks, not years.
    assert!(command.contains("--now 2027-03-05"), "{command}");
    assert!(text.contains("Время на 05.03.2027"), "{text}");
}

#[test]
fn an_edited_template_replaces_the_wording_and_a_broken_one_stops_zaochka_at_start() {
    let f = Federation::with_config("templates = \"wording\"\n");
    let ru = f.dir.path().join("wording/ru");
    std::fs::create_dir_all(&ru).unwrap();
    std::fs::write(
        ru.join("start_list.txt"),
        "{{ cipher }}: стартовый лист федерации\n\nУважаемый {{ to_name }}!\n\nСвой текст федерации.\n",
    )
    .unwrap();
    let f = f.with_tournament();
    f.ok(&[
        "--now",
        "2026-12-01T09:00:00Z",
        "tournament",
        "start",
        CIPHER,
    ]);
    let (_, log) = f.expect(0, &["--now", "2026-12-01T09:00:00Z", "run", "--once"]);
    assert!(
        log.contains("wording") && log.contains("ru/start_list"),
        "{log}"
    );
    let mut texts = Vec::new();
    for dir in ["mail/outbox/new", "mail/outbox/cur"] {
        let Ok(entries) = std::fs::read_dir(f.dir.path().join(dir)) else {
            continue;
        };
        for entry in entries {
            let raw = std::fs::read(entry.unwrap().path()).unwrap();
            let msg = mail_parser::MessageParser::default().parse(&raw).unwrap();
            texts.push((
                msg.subject().unwrap_or("").to_string(),
                msg.body_text(0).unwrap_or_default().into_owned(),
            ));
        }
    }
    let start_lists: Vec<_> = texts
        .iter()
        .filter(|(s, _)| s.contains("стартовый лист"))
        .collect();
    assert_eq!(start_lists.len(), 3, "{texts:?}");
    for (subject, body) in start_lists {
        assert_eq!(subject, &format!("{CIPHER}: стартовый лист федерации"));
        assert!(body.contains("Свой текст федерации."), "{body}");
        assert!(body.starts_with("Уважаемый "), "{body}");
    }

    // A mistake in the wording stops every command at start, naming the file and line.
    std::fs::write(ru.join("receipt.txt"), "Тема\n\n{% if x %}\nнет конца\n").unwrap();
    let (_, err) = f.expect(2, &["tournament", "list"]);
    assert!(err.contains("config key 'templates'"), "{err}");
    assert!(
        err.contains("wording/ru/receipt.txt:4: syntax error"),
        "{err}"
    );
}

#[test]
fn export_mbox_gives_every_letter_of_the_demo_byte_for_byte_oldest_first() {
    let f = Federation::new();
    let dir = f.dir.path().join("demo");
    f.ok(&["demo", dir.to_str().unwrap()]);
    let export = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_zaochka"))
            .current_dir(&dir)
            .args(["export", "mbox", "ДЕМО-2027"])
            .args(args)
            .output()
            .expect("run export mbox");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let read: Vec<_> = mail_parser::mailbox::mbox::MessageIterator::new(&out.stdout[..])
            .map(|m| m.expect("an mbox letter"))
            .collect();
        (read, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let conn = rusqlite::Connection::open(dir.join("zaochka.sqlite")).unwrap();
    let raws = |sql: &str| -> Vec<Vec<u8>> {
        let mut stmt = conn.prepare(sql).unwrap();
        stmt.query_map([], |r| Ok(crate::support::stored_raw(r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    let ours = "(SELECT g.id FROM games g JOIN tournaments t ON t.id = g.tournament \
                WHERE t.cipher = 'ДЕМО-2027')";
    let letters_in = raws(&format!(
        "SELECT raw, raw_zlib FROM letters_in WHERE game IN {ours}"
    ));
    let letters_out = raws(&format!(
        "SELECT raw, raw_zlib FROM letters_out WHERE sent_at IS NOT NULL AND game IN {ours}"
    ));
    // zaochka's letters about no one game: the subject names the tournament
    let start_lists = raws(
        "SELECT raw, raw_zlib FROM letters_out WHERE game IS NULL \
         AND kind IN ('start_list', 'weekly_digest', 'break_notice')",
    );
    assert!(letters_in.len() >= 10 && letters_out.len() > 10 && start_lists.len() >= 10);

    let (all, log) = export(&[]);
    // the reader keeps the blank line that ends each letter in the mbox
    let got: Vec<Vec<u8>> = all
        .iter()
        .map(|m| m.contents().strip_suffix(b"\n").unwrap().to_vec())
        .collect();
    for raw in letters_in.iter().chain(&letters_out).chain(&start_lists) {
        assert_eq!(
            got.iter().filter(|g| *g == raw).count(),
            1,
            "a stored letter is not in the mbox exactly once:\n{}",
            String::from_utf8_lossy(raw)
        );
    }
    assert_eq!(log.trim(), format!("{} letters written", all.len()));
    let dates: Vec<u64> = all.iter().map(|m| m.internal_date()).collect();
    assert!(dates.windows(2).all(|w| w[0] <= w[1]), "{dates:?}");
    for (m, raw) in all.iter().zip(&got) {
        let parsed = mail_parser::MessageParser::default().parse(raw).unwrap();
        assert!(parsed.subject().is_some_and(|s| !s.is_empty()));
        assert!(m.from().contains('@'), "{}", m.from());
    }

    // One game: its letters only, and fewer.
    let (one, _) = export(&["1"]);
    let game_1 = raws(
        "SELECT raw, raw_zlib FROM letters_in WHERE game = (SELECT id FROM games WHERE number = 1) \
         UNION ALL SELECT raw, raw_zlib FROM letters_out WHERE sent_at IS NOT NULL \
         AND game = (SELECT id FROM games WHERE number = 1)",
    );
    assert_eq!(one.len(), game_1.len());
    assert!(one.len() < all.len());
    for m in &one {
        let raw = m.contents().strip_suffix(b"\n").unwrap();
        assert!(game_1.iter().any(|g| g == raw));
    }
    let out = Command::new(env!("CARGO_BIN_EXE_zaochka"))
        .current_dir(&dir)
        .args(["export", "mbox", "НЕТ-1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no tournament 'НЕТ-1'"));
    assert!(out.stdout.is_empty());
}

#[test]
fn export_html_writes_the_index_and_a_page_a_game_into_the_folder_and_refuses_a_file() {
    let f = Federation::new().with_tournament();
    play_games(&f.database());
    let now = ["--now", "2026-12-20T12:00"];
    let out = f.ok(&[now[0], now[1], "export", "html", CIPHER, "site"]);
    assert!(out.contains("4 pages, 4 written"), "{out}");
    let site = f.dir.path().join("site");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        index.starts_with("<!DOCTYPE html>\n<html lang=\"ru\">"),
        "{index}"
    );
    for (name, _) in PLAYERS {
        assert!(index.contains(name), "{name} in {index}");
    }
    let table = json(&f.ok(&[now[0], now[1], "table", CIPHER, "--json"]));
    for number in 1..=3 {
        let page = std::fs::read_to_string(site.join(format!("game-{number}.html"))).unwrap();
        assert!(index.contains(&format!("href=\"game-{number}.html\"")));
        let show = json(&f.ok(&[
            now[0],
            now[1],
            "game",
            "show",
            CIPHER,
            &number.to_string(),
            "--json",
        ]));
        for side in ["white", "black"] {
            let name = show[side]["name"].as_str().unwrap();
            assert!(page.contains(name), "game {number}: {name}");
            let days = show[side]["days"].as_i64().unwrap();
            assert!(
                page.contains(&format!("<td class=\"num\">{days} ")),
                "game {number}: {side}'s {days} days as game show has them"
            );
            assert!(!page.contains(show[side]["email"].as_str().unwrap()));
        }
        let record = show["record"].as_str().unwrap();
        if !record.is_empty() {
            assert!(
                page.contains(&format!("<p class=\"record\">{record}</p>")),
                "game {number}: {record}"
            );
        }
    }
    // the table's points as `zaochka table` has them
    for row in table["standings"]["rows"].as_array().unwrap() {
        let number = row["number"].as_u64().unwrap() as usize;
        let name = table["players"][number - 1]["name"].as_str().unwrap();
        let points = row["points"].as_u64().unwrap();
        assert!(
            index.contains(&format!("<td>{name}</td><td class=\"num\">{points}</td>")),
            "{name}: {points} in {index}"
        );
    }
    // again: nothing changed, nothing written; in English on request
    let out = f.ok(&[now[0], now[1], "export", "html", CIPHER, "site"]);
    assert!(out.contains("4 pages, 0 written"), "{out}");
    f.ok(&[
        now[0], now[1], "export", "html", CIPHER, "en", "--lang", "en",
    ]);
    let en = std::fs::read_to_string(f.dir.path().join("en/index.html")).unwrap();
    assert!(
        en.contains("<html lang=\"en\">") && en.contains("Crosstable"),
        "{en}"
    );
    // refused: a file for the folder, an unknown tournament, an unknown language
    std::fs::write(f.dir.path().join("plain"), "").unwrap();
    assert!(
        f.refused(&["export", "html", CIPHER, "plain"])
            .contains("is not a directory")
    );
    assert!(
        f.refused(&["export", "html", "НЕТ-1", "site"])
            .contains("no tournament 'НЕТ-1'")
    );
    assert!(
        f.refused(&["export", "html", CIPHER, "site", "--lang", "de"])
            .contains("unknown language 'de'")
    );
    let help = f.ok(&["export", "html", "--help"]);
    assert!(help.contains("--lang"), "{help}");
}
