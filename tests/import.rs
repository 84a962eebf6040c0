//! `import pdn` (issue 12) through the real binary: a paper tournament of four players with
//! six games taken over, its players told, play going on by (DKIM-signed) mail with the
//! right days, the same file again changing nothing, refusals that import nothing, and
//! export → import reproducing `game show --json` of every game.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::{Command, Output};

const CIPHER: &str = "ЗП-2026-3";

const PLAYERS: [(&str, &str); 4] = [
    ("Александров Алексей", "alexandrov@players.test"),
    ("Борисов Борис", "borisov@players.test"),
    ("Васильев Василий", "vasiliev@players.test"),
    ("Семёнов Пётр", "semenov@players.test"),
];

/// The secretary's file, as kept by hand: names as he writes them (case, е for ё), clocks
/// as the players' last letters gave them.
const PAPER: &str = r#"[Event "Заочное первенство, полуфинал 3"]
[White "Александров Алексей"]
[Black "борисов борис"]
[Result "*"]
[GameNumber "1"]
[WhiteDays "12"]
[BlackDays "20"]
[BlackPenaltyDays "6"]
[Sent "2026-11-01"]

1. c3-d4 f6-g5 2. b2-c3 g7-f6 *

[White "Васильев Василий"]
[Black "Семенов Петр"]
[Result "*"]
[GameNumber "2"]
[WhiteDays "15"]
[BlackDays "9"]
[Sent "10.11.2026"]

1. c3-d4 b6-a5 2. d4-c5 d6:b4 3. a3:c5 *

[White "Александров Алексей"]
[Black "Васильев Василий"]
[Result "*"]
[GameNumber "3"]
[WhiteDays "3"]
[BlackDays "5"]
[Sent "2026-11-20"]

1. e3-f4 f6-g5 *

[White "Борисов Борис"]
[Black "Семёнов Пётр"]
[Result "1-0"]
[GameNumber "4"]
[WhiteDays "10"]
[BlackDays "20"]
[Ended "2026-10-15"]
[Termination "resignation"]

1. c3-b4 f6-e5 2. g3-h4 1-0

[White "Борисов Борис"]
[Black "Васильев Василий"]
[Result "*"]
[GameNumber "5"]
[WhiteDays "40"]
[BlackDays "0"]
[Sent "2026-12-01"]

*

[White "Семёнов Пётр"]
[Black "Александров Алексей"]
[Result "1/2-1/2"]
[GameNumber "6"]
[WhiteDays "7"]
[BlackDays "8"]
[Ended "2026-11-25"]
[Termination "agreement"]

1. c3-d4 f6-g5 1/2-1/2
"#;

/// A federation in a temporary folder, on the embedded default (Maildir), letters signed.
struct Office {
    _dir: tempfile::TempDir,
    root: PathBuf,
    dkim: crate::support::Dkim,
    seen: BTreeSet<String>,
    n: usize,
}

/// A letter zaochka wrote: to, subject, text.
type Out = (String, String, String);

impl Office {
    /// init, the tournament (from 01.09.2026) and its four players, not started.
    fn new() -> Office {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        let mut o = Office {
            _dir: dir,
            root,
            dkim: crate::support::Dkim::default(),
            seen: BTreeSet::new(),
            n: 0,
        };
        std::fs::write(
            o.root.join("zaochka.toml"),
            "[auth]\nsenders = \"dkim\"\ndns_records = \"dns_records\"\n",
        )
        .unwrap();
        o.dkim.publish("players.test");
        std::fs::write(o.root.join("dns_records"), o.dkim.file_text()).unwrap();
        o.ok(&["init"]);
        o.ok(&[
            "tournament",
            "add",
            CIPHER,
            "--game",
            "russian",
            "--start",
            "2026-09-01",
            "--end",
            "2027-09-01",
        ]);
        for (name, email) in PLAYERS {
            o.ok(&["player", "add", CIPHER, "--name", name, "--email", email]);
        }
        o
    }

    fn cmd(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_zaochka"))
            .current_dir(&self.root)
            .args(["--config", "zaochka.toml"])
            .args(args)
            .output()
            .unwrap()
    }

    fn ok(&self, args: &[&str]) -> String {
        let o = self.cmd(args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    }

    /// Runs a command that must be refused (exit 1); its stderr.
    fn refused(&self, args: &[&str]) -> String {
        let o = self.cmd(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {o:?}");
        String::from_utf8(o.stderr).unwrap()
    }

    fn file(&self, name: &str, text: &str) -> String {
        let path = self.root.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    }

    fn import(&self, now: &str, text: &str) -> String {
        let file = self.file("paper.pdn", text);
        self.ok(&["--now", now, "import", "pdn", CIPHER, &file])
    }

    fn show(&self, now: &str, game: u32) -> serde_json::Value {
        let n = game.to_string();
        serde_json::from_str(&self.ok(&["--now", now, "game", "show", CIPHER, &n, "--json"]))
            .unwrap()
    }

    /// Drops a signed letter of `from` about game `game` into the inbox.
    fn letter(&mut self, from: &str, game: u32, body: &str) {
        self.n += 1;
        let raw = format!(
            "From: {from}\nTo: zaochka@localhost\nSubject: {CIPHER}\nMessage-ID: <i{}@players.test>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\nШифр: {CIPHER}\nПартия {game}\n{body}\n",
            self.n
        );
        let signed = self.dkim.sign(raw.as_bytes());
        let new = self.root.join("mail/inbox/new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(new.join(format!("{}.test", self.n)), signed).unwrap();
    }

    /// One daemon pass at `now`; the letters it wrote, but the weekly digest that goes to
    /// everybody (10.1.8).
    fn run(&mut self, now: &str) -> Vec<Out> {
        self.ok(&["--now", now, "run", "--once"]);
        let dir = self.root.join("mail/outbox/new");
        let mut out = Vec::new();
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            if !self
                .seen
                .insert(e.file_name().to_string_lossy().into_owned())
            {
                continue;
            }
            let raw = std::fs::read(e.path()).unwrap();
            let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
            if m.subject().unwrap_or_default().contains("ход турнира") {
                continue;
            }
            out.push((
                m.to()
                    .unwrap()
                    .first()
                    .unwrap()
                    .address()
                    .unwrap()
                    .to_string(),
                m.subject().unwrap_or_default().to_string(),
                m.body_text(0).unwrap_or_default().replace("\r\n", "\n"),
            ));
        }
        out
    }
}

fn to<'a>(out: &'a [Out], address: &str) -> Vec<&'a Out> {
    out.iter().filter(|o| o.0 == address).collect()
}

#[test]
fn a_paper_tournament_is_imported_its_players_told_and_play_goes_on_by_mail_with_the_right_days() {
    let mut o = Office::new();
    let said = o.import("2026-12-03", PAPER);
    assert!(said.contains("6 games imported"), "{said}");
    // Game 1 on 03.12: White thinks from 02.11 (the day after Sent, 10.3.2): 12 + 32 days.
    let g1 = o.show("2026-12-03", 1);
    assert_eq!(g1["status"], "playing");
    assert_eq!(g1["to_move"], "white");
    assert_eq!(g1["white"]["days"], 44, "{g1}");
    assert_eq!(g1["black"]["days"], 20);
    assert_eq!(g1["black"]["penalty_days"], 6);
    assert_eq!(
        g1["black"]["name"], "Борисов Борис",
        "matched, as registered"
    );
    assert_eq!(g1["moves"].as_array().unwrap().len(), 4);
    // Game 2: Black (Семёнов, written Семенов) to move from 11.11: 9 + 23 days on 03.12.
    let g2 = o.show("2026-12-03", 2);
    assert_eq!(g2["to_move"], "black");
    assert_eq!(g2["black"]["email"], "semenov@players.test");
    assert_eq!(
        (&g2["white"]["days"], &g2["black"]["days"]),
        (&15.into(), &32.into())
    );
    // Game 4 ended 15.10 by Black's resignation; game 6 drawn by agreement on 25.11.
    let g4 = o.show("2026-12-03", 4);
    assert_eq!(
        (&g4["result"], &g4["ended_by"], &g4["ended_on"]),
        (&"1-0".into(), &"resignation".into(), &"2026-10-15".into())
    );
    assert_eq!(
        (&g4["white"]["days"], &g4["black"]["days"]),
        (&10.into(), &20.into())
    );
    let g6 = o.show("2026-12-03", 6);
    assert_eq!(
        (&g6["result"], &g6["ended_by"]),
        (&"1/2-1/2".into(), &"agreement".into())
    );
    // Game 5, no move yet: White's 40 days, and two more from 02.12.
    assert_eq!(o.show("2026-12-03", 5)["white"]["days"], 42);
    let table: serde_json::Value =
        serde_json::from_str(&o.ok(&["table", CIPHER, "--json"])).unwrap();
    assert_eq!(
        (&table["games"], &table["finished"]),
        (&6.into(), &2.into()),
        "{table}"
    );

    // Each player gets one letter with his games.
    let out = o.run("2026-12-03T15:00");
    assert_eq!(out.len(), 4, "{out:#?}");
    for (_, email) in PLAYERS {
        assert_eq!(to(&out, email).len(), 1, "{email}: {out:#?}");
    }
    let a = to(&out, "alexandrov@players.test")[0];
    assert_eq!(
        a.1,
        format!("{CIPHER}: партии продолжаются по электронной почте")
    );
    for part in [
        "Партия 1: Александров Алексей (белые) — Борисов Борис (чёрные)",
        "Запись: 1. c3-d4 1... f6-g5 2. b2-c3 2... g7-f6",
        "Ход белых, то есть ваш.",
        "Время (белые/чёрные): 44/20",
        // 50 days for moves 1–10: the 51st (12 + 39) would fall on 10.12 (10.3.5).
        "Ответить не позднее 09.12.2026 (осталось 6 дней на ходы 1–10, п. 10.3.5).",
        "Партия 3:",
        "Партия 6: Семёнов Пётр (белые) — Александров Алексей (чёрные)",
        "Партия окончена: 1/2-1/2.",
        "Ваш ход: 2... g7-f6",
    ] {
        assert!(a.2.contains(part), "'{part}' missing in:\n{}", a.2);
    }
    assert!(!a.2.contains("Партия 2:"), "not his game:\n{}", a.2);
    let s = to(&out, "semenov@players.test")[0];
    assert!(s.2.contains("Ход чёрных, то есть ваш."), "{}", s.2);
    assert!(s.2.contains("Ваш ход: 3. a3:c5"), "{}", s.2);

    // The same file again changes nothing and tells nobody.
    let again = o.import("2026-12-04", PAPER);
    assert!(again.contains("nothing changed"), "{again}");
    let later = o.run("2026-12-04T15:00");
    // The only letter is the clock's own: on 04.12 Борисов has used 40 + 3 of game 5's 50
    // days, 7 left (10.3.5): the 51st would fall on 12.12.
    assert_eq!(later.len(), 1, "{later:#?}");
    assert_eq!(later[0].0, "borisov@players.test");
    assert!(
        later[0].2.contains("вы затратили 43 из 50 дней") && later[0].2.contains("12.12.2026"),
        "{later:#?}"
    );

    // Александров answers game 1 on 05.12, repeating Black's last move (10.2.9).
    o.letter(
        "alexandrov@players.test",
        1,
        "Ваш ход: 2... g7-f6\nМой ход: 3. c3-b4",
    );
    let out = o.run("2026-12-05T15:00");
    let forward = to(&out, "borisov@players.test");
    assert_eq!(forward.len(), 1, "{out:#?}");
    // 12 + 02.11–05.12 (34 days) = 46; Black's 20 as imported.
    assert!(
        forward[0].2.contains("Время (белые/чёрные): 46/20"),
        "{}",
        forward[0].2
    );
    let g1 = o.show("2026-12-08", 1);
    assert_eq!(g1["to_move"], "black");
    assert_eq!(
        (&g1["white"]["days"], &g1["black"]["days"]),
        (&46.into(), &23.into())
    );
}

#[test]
fn an_import_that_names_a_stranger_or_an_illegal_move_refuses_the_file_and_imports_nothing() {
    let o = Office::new();
    let file = o.file(
        "bad.pdn",
        &PAPER.replace("[Black \"Семенов Петр\"]", "[Black \"Смирнов Павел\"]"),
    );
    let err = o.refused(&["--now", "2026-12-03", "import", "pdn", CIPHER, &file]);
    assert!(
        err.contains("game 2")
            && err.contains("Смирнов Павел")
            && err.contains("nothing was imported"),
        "{err}"
    );
    // After 2. d4-c5 Black must take (d6:b4): 2... d6-e5 is a move against the rules.
    let file = o.file("illegal.pdn", &PAPER.replace("d6:b4", "d6-e5"));
    let err = o.refused(&["--now", "2026-12-03", "import", "pdn", CIPHER, &file]);
    assert!(err.contains("game 2") && err.contains("d6-e5"), "{err}");
    // Nothing of game 1 (before the bad ones in the file) was kept: the tournament has not
    // started and has no game.
    let err = o.refused(&["game", "show", CIPHER, "1"]);
    assert!(err.contains('1'), "{err}");
    // A file that is no file.
    let dir = o.root.join("a-folder.pdn");
    std::fs::create_dir(&dir).unwrap();
    let err = o.refused(&["import", "pdn", CIPHER, &dir.display().to_string()]);
    assert!(err.contains("not a regular file"), "{err}");
    // Then the good file imports.
    assert!(o.import("2026-12-03", PAPER).contains("6 games imported"));
}

fn export_all(o: &Office, now: &str) -> String {
    o.ok(&["--now", now, "export", "pdn", CIPHER])
}

#[test]
fn export_then_import_of_a_running_tournament_reproduces_game_show_of_every_game() {
    let mut o = Office::new();
    o.import("2026-12-03", PAPER);
    o.run("2026-12-03T15:00");
    o.letter(
        "alexandrov@players.test",
        1,
        "Ваш ход: 2... g7-f6\nМой ход: 3. c3-b4",
    );
    o.letter(
        "semenov@players.test",
        2,
        "Ваш ход: 3. a3:c5\nМой ход: 3... c7-d6",
    );
    o.run("2026-12-06T15:00");
    assert_eq!(o.show("2026-12-06", 2)["to_move"], "white");
    let pdn = export_all(&o, "2026-12-07");
    let copy = Office::new();
    copy.import("2026-12-07", &pdn);
    for day in ["2026-12-07", "2026-12-31"] {
        for game in 1..=6 {
            assert_eq!(
                copy.show(day, game),
                o.show(day, game),
                "game {game} on {day}, from:\n{pdn}"
            );
        }
    }
    // The copy exports the same file.
    assert_eq!(export_all(&copy, "2026-12-07"), pdn);
}
