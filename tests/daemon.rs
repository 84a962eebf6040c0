//! The clauses of 10.2–10.4 played end to end through the real binary on the embedded
//! default: `init`, `tournament add`, `player add`, `tournament start`, letters dropped into
//! the Maildir inbox as a mail client delivers them, `run --once` at a `--now` moment, and
//! what zaochka wrote read back from the outbox with mail-parser.
//!
//! In the default sender check (`senders = "dkim"`): each letter is signed by its From domain
//! and stored with LF line ends, as Postfix and Dovecot store mail; the key is read from a
//! `dns_records` file (the config names it).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

pub(crate) const CIPHER: &str = "ЗШ-2027-1";
pub(crate) const W: &str = "white@players.test";
pub(crate) const B: &str = "black@players.test";

pub(crate) struct Scenario {
    _dir: tempfile::TempDir,
    pub(crate) root: PathBuf,
    seen: BTreeSet<String>,
    n: usize,
    pub(crate) dkim: crate::support::Dkim,
}

/// A letter zaochka wrote.
#[derive(Debug)]
pub(crate) struct Out {
    pub(crate) to: String,
    pub(crate) subject: String,
    pub(crate) text: String,
}

impl Scenario {
    /// Two players; game 1 has White = the first registered (Berger, two players).
    pub(crate) fn new() -> Scenario {
        Scenario::with("2027-12-31", None)
    }

    /// As [`Scenario::new`], with the end-of-play date `end` and more of the config file
    /// (after its `[auth]` section).
    pub(crate) fn with(end: &str, config: Option<&str>) -> Scenario {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        let mut s = Scenario {
            _dir: dir,
            root,
            seen: BTreeSet::new(),
            n: 0,
            dkim: crate::support::Dkim::default(),
        };
        std::fs::write(
            s.root.join("zaochka.toml"),
            format!(
                "[auth]\nsenders = \"dkim\"\ndns_records = \"dns_records\"\n{}",
                config.unwrap_or_default()
            ),
        )
        .unwrap();
        s.dkim.publish("players.test");
        std::fs::write(s.root.join("dns_records"), s.dkim.file_text()).unwrap();
        s.ok(&["init"]);
        s.ok(&[
            "tournament",
            "add",
            CIPHER,
            "--game",
            "russian",
            "--start",
            "2027-01-10",
            "--end",
            end,
        ]);
        s.ok(&[
            "player",
            "add",
            CIPHER,
            "--name",
            "Белов Борис",
            "--email",
            W,
        ]);
        s.ok(&[
            "player",
            "add",
            CIPHER,
            "--name",
            "Чернов Чеслав",
            "--email",
            B,
        ]);
        s.ok(&["--now", "2027-01-09", "tournament", "start", CIPHER]);
        let out = s.run("2027-01-09T12:00");
        assert_eq!(out.len(), 2, "two start lists: {out:#?}");
        let json = s.show();
        assert_eq!(
            json["white"]["email"], W,
            "the first registered plays White in game 1"
        );
        s
    }

    pub(crate) fn cmd(&self, args: &[&str]) -> std::process::Output {
        Command::new(env!("CARGO_BIN_EXE_zaochka"))
            .current_dir(&self.root)
            .args(["--config", "zaochka.toml"])
            .args(args)
            .output()
            .unwrap()
    }

    pub(crate) fn ok(&self, args: &[&str]) -> String {
        let o = self.cmd(args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    }

    /// Drops a player's letter into the inbox.
    pub(crate) fn letter(&mut self, from: &str, body: &str) {
        self.n += 1;
        let raw = format!(
            "From: {from}\r\nTo: zaochka@localhost\r\nSubject: {CIPHER}\r\nMessage-ID: <t{}@players.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\nШифр: {CIPHER}\r\nПартия 1\r\n{}\r\n",
            self.n,
            body.replace('\n', "\r\n")
        );
        let signed = self.dkim.sign(raw.replace("\r\n", "\n").as_bytes());
        let new = self.root.join("mail/inbox/new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(new.join(format!("{}.test", self.n)), signed).unwrap();
    }

    /// One daemon pass at `now`; the letters written by it.
    pub(crate) fn run(&mut self, now: &str) -> Vec<Out> {
        self.ok(&["--now", now, "run", "--once"]);
        self.new_out()
    }

    /// The letters in the outbox not looked at before.
    pub(crate) fn new_out(&mut self) -> Vec<Out> {
        let dir = self.root.join("mail/outbox/new");
        let mut out = Vec::new();
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if !self.seen.insert(name) {
                continue;
            }
            let raw = std::fs::read(e.path()).unwrap();
            let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
            out.push(Out {
                to: m
                    .to()
                    .unwrap()
                    .first()
                    .unwrap()
                    .address()
                    .unwrap()
                    .to_string(),
                subject: m.subject().unwrap_or_default().to_string(),
                text: m.body_text(0).unwrap_or_default().replace("\r\n", "\n"),
            });
        }
        out
    }

    /// Drops a letter nobody signed (a forgery of `from`) into the inbox.
    fn forged(&mut self, from: &str, body: &str) {
        self.n += 1;
        let raw = format!(
            "From: {from}\nTo: zaochka@localhost\nSubject: {CIPHER}\nMessage-ID: <f{}@evil.test>\n\
             Authentication-Results: mx.localhost; dkim=pass header.d=players.test\n\
             Content-Type: text/plain; charset=utf-8\n\nШифр: {CIPHER}\nПартия 1\n{body}\n",
            self.n
        );
        let new = self.root.join("mail/inbox/new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(new.join(format!("{}.test", self.n)), raw).unwrap();
    }

    pub(crate) fn show(&self) -> serde_json::Value {
        serde_json::from_str(&self.ok(&["game", "show", CIPHER, "1", "--json"])).unwrap()
    }
}

/// Letters about the game, not the weekly digest that goes to everybody on Mondays (10.1.8).
fn about_game(out: &[Out], to: &str) -> usize {
    out.iter()
        .filter(|o| o.to == to && !o.subject.contains("ход турнира"))
        .count()
}

pub(crate) fn find<'a>(out: &'a [Out], to: &str, subject_part: &str) -> &'a Out {
    out.iter()
        .find(|o| o.to == to && o.subject.contains(subject_part))
        .unwrap_or_else(|| panic!("no letter to {to} with '{subject_part}' in {out:#?}"))
}

#[test]
fn clause_10_3_2_a_first_move_on_the_start_date_costs_nothing_and_reaches_the_partner() {
    let mut s = Scenario::new();
    s.letter(W, "Мой ход: 1. c3-d4");
    let out = s.run("2027-01-10T10:00");
    let fwd = find(&out, B, "ход 1. c3-d4");
    assert!(
        fwd.text.contains("Время (белые/чёрные): 0/0"),
        "{}",
        fwd.text
    );
    find(&out, W, "принят");
    assert_eq!(s.show()["white"]["days"], 0);
}

#[test]
fn clause_10_2_9_and_10_2_11_no_repetition_stops_play_and_costs_six_days() {
    let mut s = Scenario::new();
    s.letter(W, "Мой ход: 1. c3-d4");
    s.run("2027-01-10T10:00");
    s.letter(B, "Мой ход: 1... f6-g5");
    let out = s.run("2027-01-12T10:00");
    let rej = find(&out, B, "не принято");
    assert!(
        rej.text.contains("10.2.9") && rej.text.contains("1. c3-d4"),
        "{}",
        rej.text
    );
    assert!(
        !out.iter().any(|o| o.to == W),
        "nothing forwarded: {out:#?}"
    );
    let json = s.show();
    assert_eq!(json["status"], "stopped");
    assert_eq!(json["black"]["penalty_days"], 6);
    // The corrected letter goes through.
    s.letter(B, "Ваш ход: 1. c3-d4\nМой ход: 1... f6-g5");
    let out = s.run("2027-01-13T10:00");
    find(&out, W, "ход 1... f6-g5");
    assert_eq!(s.show()["status"], "playing");
}

#[test]
fn clause_10_2_2_short_notation_is_an_impossible_move() {
    let mut s = Scenario::new();
    s.letter(W, "Мой ход: 1. cd4");
    let out = s.run("2027-01-10T10:00");
    let rej = find(&out, W, "не принято");
    assert!(
        rej.text.contains("10.2.2") || rej.text.contains("10.2.10"),
        "{}",
        rej.text
    );
    assert_eq!(about_game(&out, B), 0, "{out:#?}");
}

#[test]
fn clause_10_2_8_a_second_letter_for_a_move_already_made_changes_nothing() {
    let mut s = Scenario::new();
    s.letter(W, "Мой ход: 1. c3-d4");
    s.run("2027-01-10T10:00");
    s.letter(W, "Мой ход: 1. c3-b4");
    let out = s.run("2027-01-11T10:00");
    assert_eq!(
        about_game(&out, B),
        0,
        "nothing new to the partner: {out:#?}"
    );
    let answer = out
        .iter()
        .find(|o| o.to == W && !o.subject.contains("ход турнира"))
        .expect("the sender is told");
    assert!(answer.text.contains("10.2.8"), "{}", answer.text);
    assert_eq!(s.show()["moves"], serde_json::json!(["c3-d4"]));
}

#[test]
fn clause_10_4_3_a_break_is_told_to_the_partner_and_its_days_do_not_count() {
    let mut s = Scenario::new();
    s.letter(W, "Мой ход: 1. c3-d4");
    s.run("2027-01-10T10:00");
    s.letter(B, "Беру перерыв с 15.01 по 30.01");
    let out = s.run("2027-01-11T10:00");
    find(&out, W, "перерыв");
    find(&out, "secretary@localhost", "перерыв");
    // Received 10.01, answered 03.02: 24 days less the 16 of the break = 8 (10.4.3).
    s.letter(B, "Ваш ход: 1. c3-d4\nМой ход: 1... f6-g5");
    let out = s.run("2027-02-03T10:00");
    let fwd = find(&out, W, "ход 1... f6-g5");
    assert!(
        fwd.text.contains("Время (белые/чёрные): 0/8"),
        "{}",
        fwd.text
    );
}

#[test]
fn clause_10_3_4_and_10_3_6_silence_brings_a_repeat_then_an_overstep_to_the_arbiter() {
    let mut s = Scenario::new();
    s.letter(W, "Мой ход: 1. c3-d4");
    s.run("2027-01-10T10:00");
    assert!(
        s.run("2027-02-18T10:00")
            .iter()
            .all(|o| !o.subject.contains("ПОВТОР"))
    );
    let out = s.run("2027-02-19T10:00");
    find(&out, B, "ПОВТОР");
    find(&out, W, "повторён");
    let out = s.run("2027-03-05T10:00");
    let notice = find(&out, "arbiter@localhost", "ПРОСРОЧКА");
    assert!(
        notice.text.contains("Чернов Чеслав") && notice.text.contains("10.3.5"),
        "{}",
        notice.text
    );
    find(&out, B, "просрочка");
    find(&out, "secretary@localhost", "просрочка");
    assert_eq!(s.show()["status"], "suspended");
    assert!(
        s.run("2027-03-06T10:00").is_empty(),
        "each deadline fires once"
    );
}

#[test]
fn a_letter_with_nothing_to_act_on_is_answered_with_what_could_not_be_read() {
    let mut s = Scenario::new();
    s.letter(W, "Беру перерыв с 31.02 по 40.02");
    let out = s.run("2027-01-10T10:00");
    let r = find(&out, W, "не принято");
    assert!(
        r.text.contains("не удалось прочитать") && r.text.contains("10.4.3"),
        "{}",
        r.text
    );
    s.letter(W, "Как дела?");
    let out = s.run("2027-01-11T10:00");
    let r = find(&out, W, "не принято");
    assert!(
        r.text.contains("Мой ход:") && r.text.contains("10.2.3"),
        "{}",
        r.text
    );
    assert_eq!(about_game(&out, B), 0, "{out:#?}");
}

#[test]
fn clause_10_5_4_the_arbiters_package_and_game_show_carry_the_engines_verdict() {
    // the engine searches 6 plies: the same verdict on every run
    let mut s = Scenario::with("2027-01-20", Some("[engine]\ndepth = 6\n"));
    s.letter(W, "Мой ход: 1. c3-d4");
    s.run("2027-01-10T10:00");
    s.letter(B, "Ваш ход: 1. c3-d4\nМой ход: 1... f6-g5");
    s.run("2027-01-12T10:00");
    // the end of play: both are asked for their analyses (10.5.2)
    let out = s.run("2027-01-21T10:00");
    find(&out, W, "");
    assert_eq!(s.show()["status"], "adjudication");
    s.letter(W, "Анализ: 2. g3-h4, у белых лучше. Оценка: выигрыш белых");
    s.run("2027-01-22T10:00");
    s.letter(B, "Анализ: шашка отыгрывается. Оценка: ничья");
    let out = s.run("2027-01-23T10:00");
    let package = find(&out, "arbiter@localhost", "присуждение");
    for part in [
        "Белые, Белов Борис: оценка — выигрыш белых",
        "Чёрные, Чернов Чеслав: оценка — ничья",
        "--- Мнение программы (справочно) ---",
        "Вердикт программы: ",
        "Вариант программы: 2. ",
        "решение принимает главный судья (п. 10.5.4, 10.5.5)",
    ] {
        assert!(package.text.contains(part), "{part}: {}", package.text);
    }
    // game show: both analyses and the engine's view, as the arbiter got them
    let text = s.ok(&["game", "show", CIPHER, "1"]);
    for part in [
        "Присуждение (п. 10.5):",
        "Белые: оценка 1-0",
        "Чёрные: оценка 1/2-1/2",
        "Программа: ",
        "вариант: 2. ",
        "решение принимает главный судья",
    ] {
        assert!(text.contains(part), "{part}: {text}");
    }
    let json = s.show();
    let engine = &json["adjudication"]["engine"];
    assert_eq!(engine["depth"], 6);
    assert!(
        engine["pv"].as_array().is_some_and(|pv| pv.len() >= 6),
        "{engine}"
    );
    assert!(["win", "draw", "loss"].contains(&engine["verdict"].as_str().unwrap()));
    assert_eq!(json["adjudication"]["black"]["evaluation"], "1/2-1/2");
}

#[test]
fn a_letter_over_10_mb_is_kept_unread_and_its_sender_told_to_send_a_short_one() {
    let mut s = Scenario::new();
    // As a client sends a photographed score sheet: the move, and a 12 MB attachment.
    let photo: String = (0..12 * 1024 * 1024 / 77)
        .map(|i| format!("{:076}\r\n", i))
        .collect();
    let raw = format!(
        "From: {W}\r\nTo: zaochka@localhost\r\nSubject: {CIPHER}\r\nMessage-ID: <big@players.test>\r\n\
         MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n\
         --b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\
         Шифр: {CIPHER}\r\nПартия 1\r\nМой ход: 1. c3-d4\r\n\
         --b\r\nContent-Type: image/jpeg; name=\"blank.jpg\"\r\nContent-Transfer-Encoding: base64\r\n\r\n\
         {photo}--b--\r\n"
    );
    assert!(raw.len() > 12 * 1024 * 1024);
    let new = s.root.join("mail/inbox/new");
    std::fs::write(new.join("big.test"), &raw).unwrap();
    let out = s.run("2027-01-10T10:00");
    let r = find(&out, W, "не принято");
    assert!(
        r.text
            .contains("письмо слишком большое (12,2 МБ при пределе 10 МБ)")
            && r.text.contains("без вложений")
            && r.text.contains("10.2.3"),
        "{}",
        r.text
    );
    assert_eq!(about_game(&out, B), 0, "not forwarded: {out:#?}");
    assert_eq!(s.show()["record"], "", "not played");
    let store = zaochka::store::Store::open_existing(s.root.join("zaochka.sqlite")).unwrap();
    // The first letter that came in.
    let kept = store
        .read(|tx| tx.letter_in(zaochka::store::LetterInId(1)))
        .unwrap();
    assert_eq!(kept.message_id.as_deref(), Some("big@players.test"));
    assert_eq!(kept.raw.len(), raw.len(), "kept whole");
}

#[test]
fn a_forged_resignation_moves_nothing_and_the_player_is_told_once_a_day() {
    let mut s = Scenario::new();
    s.letter(W, "Мой ход: 1. c3-d4");
    s.run("2027-01-10T10:00");
    s.forged(B, "Сдаюсь");
    s.forged(B, "Сдаюсь");
    let out = s.run("2027-01-11T10:00");
    let notice = find(&out, B, "отправитель не подтверждён");
    assert!(notice.text.contains("10.1.3"), "{}", notice.text);
    assert_eq!(
        (about_game(&out, B), about_game(&out, W)),
        (1, 0),
        "one notice, nothing to the partner: {out:#?}"
    );
    assert_eq!(s.show()["status"], "playing");
    // The real answer, signed, is played.
    s.letter(B, "Ваш ход: 1. c3-d4\nМой ход: 1... f6-g5");
    let out = s.run("2027-01-11T11:00");
    find(&out, W, "ход 1... f6-g5");
}
