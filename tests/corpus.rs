//! The golden corpus of outgoing letters (issue 11): every kind of letter the office sends,
//! in Russian and in English, rendered from fixed scenarios played through the real post
//! office (in-memory store, in-memory letters, a fixed clock) and kept, decoded and
//! readable, in `tests/data/letters/out/<lang>/<scenario>.<kind>.<recipient>.txt`.
//!
//! `every_letter_is_as_in_the_corpus` fails when a letter changes, appears or disappears;
//! `UPDATE_EXPECT=1 cargo test --locked --test main corpus` writes the corpus anew (and
//! removes the files no scenario makes any more): read the diff before committing it.
//!
//! `the_corpus_passes_the_lint` reads every letter as a careful Russian secretary would: no
//! Latin word in Russian text (notation, names, addresses, PDN and FEN aside), the cipher
//! in every subject, numbers agreeing with their nouns, no clause cited twice in a row, and
//! the last day named in every letter that hands a player the move. Known faults that other
//! work is fixing are listed in [`KNOWN`], each with its reason; an entry that no longer
//! fails is itself a failure, so that the list only shrinks.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use mail_parser::{MessageParser, MimeHeaders, PartType};
use zaochka::config::{Config, Language, Senders};
use zaochka::mail::auth::{AuthResult, Authentication};
use zaochka::mail::{IncomingMail, MailId};
use zaochka::office::{Office, commands};
use zaochka::store::{LetterOut, NewTournament, Store, StoreError};

const CIPHER: &str = "ЗШ-2026-5";
const IVANOV: &str = "ivanov@players.test";
const PETROV: &str = "petrov@players.test";
const SIDOROVA: &str = "sidorova@players.test";
const ARBITER: &str = "arbiter@federation.test";
const SECRETARY: &str = "secretary@federation.test";
const STRANGER: &str = "stranger@example.net";

/// 09:00 UTC (noon in Moscow) on a day of 2026.
fn at(m: u32, d: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, m, d, 9, 0, 0).unwrap()
}

/// One outgoing letter as the corpus keeps it.
#[derive(Clone, Debug)]
struct Letter {
    lang: &'static str,
    kind: String,
    subject: String,
    /// The plain text of the letter (the attached letters' and files' text aside).
    body: String,
    /// The whole file: headers that matter, the parts, the text, text attachments.
    file: String,
}

/// Every letter of every scenario, by its path under `tests/data/letters/out`.
type Corpus = BTreeMap<String, Letter>;

struct World {
    lang: &'static str,
    office: Office,
    store: Store,
    seq: u64,
    /// Outgoing Message-IDs (volatile: time and randomness) → stable names.
    ids: HashMap<String, String>,
    reports: commands::ReportsSeen,
    corpus: Corpus,
}

fn person(address: &str) -> &'static str {
    match address {
        IVANOV => "ivanov",
        PETROV => "petrov",
        SIDOROVA => "sidorova",
        ARBITER => "arbiter",
        SECRETARY => "secretary",
        STRANGER => "stranger",
        _ => "someone",
    }
}

impl World {
    /// A russian tournament, 10.01–30.06.2026, of Иванов Иван and Петров Пётр (and
    /// Сидорова Анна when `three`), started on 05.01.2026. The engine searches 8 plies:
    /// the same verdict on every run.
    fn new(lang: &'static str, three: bool) -> World {
        let mut w = World::unstarted(lang, three);
        w.office
            .start_tournament(&mut w.store, CIPHER, at(1, 5))
            .unwrap();
        w
    }

    /// As [`World::new`], with the tournament not started.
    fn unstarted(lang: &'static str, three: bool) -> World {
        let mut config = Config {
            address: "zaochka@tournament.test".into(),
            arbiter: ARBITER.into(),
            secretary: SECRETARY.into(),
            federation: "Федерация заочных шашек".into(),
            language: if lang == "ru" {
                Language::Ru
            } else {
                Language::En
            },
            ..Config::default()
        };
        config.auth.senders = Senders::Address;
        config.engine.depth = 8;
        let office = Office::new(config);
        let mut store = Store::open_in_memory().unwrap();
        store
            .with_transaction(|tx| {
                let t = tx.add_tournament(
                    &NewTournament {
                        cipher: CIPHER,
                        variant: "russian",
                        name: "Кубок зимы",
                        start: NaiveDate::from_ymd_opt(2026, 1, 10).unwrap(),
                        end: NaiveDate::from_ymd_opt(2026, 6, 30).unwrap(),
                        tz: "Europe/Moscow",
                        settings: "{}",
                    },
                    at(1, 4),
                )?;
                tx.add_player(t, "Иванов Иван", IVANOV)?;
                tx.add_player(t, "Петров Пётр", PETROV)?;
                if three {
                    tx.add_player(t, "Сидорова Анна", SIDOROVA)?;
                }
                Ok::<_, StoreError>(())
            })
            .unwrap();
        World {
            lang,
            office,
            store,
            seq: 0,
            ids: HashMap::new(),
            reports: Default::default(),
            corpus: Corpus::new(),
        }
    }

    /// A letter from `from` received at `when`, its sender proven (or not).
    fn send_as(&mut self, from: &str, body: &str, when: DateTime<Utc>, proven: bool) {
        self.seq += 1;
        let raw = format!(
            "From: {from}\r\nTo: zaochka@tournament.test\r\nSubject: letter {n}\r\nMessage-ID: <m{n}@players.test>\r\nDate: {date}\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{body}\r\n",
            n = self.seq,
            date = when.to_rfc2822(),
        );
        let auth = if proven {
            Authentication::address_only()
        } else {
            Authentication {
                mode: Senders::Dkim,
                result: AuthResult::None,
                domain: None,
                reason: "no DKIM signature".into(),
            }
        };
        let mail = IncomingMail {
            id: MailId::Memory(self.seq),
            raw: raw.into_bytes(),
            received: when,
        };
        self.office
            .handle(&mut self.store, &mail, &auth, when)
            .unwrap();
    }

    fn send(&mut self, from: &str, body: &str, when: DateTime<Utc>) {
        self.send_as(from, body, when, true);
    }

    /// A letter about game `n` of the tournament.
    fn play(&mut self, from: &str, n: u32, text: &str, when: DateTime<Utc>) {
        self.send(from, &format!("Шифр: {CIPHER}, партия {n}\n{text}"), when);
    }

    /// The daemon's deadline pass and its reports' pass at `now`.
    fn sweep(&mut self, now: DateTime<Utc>) {
        self.office.sweep(&mut self.store, now).unwrap();
        let office = &self.office;
        let seen = &self.reports;
        let (_, next) = self
            .store
            .with_transaction(|tx| commands::sweep_reports(office, tx, seen, now))
            .unwrap();
        self.reports = next;
    }

    /// Everything queued since the last call, marked sent, its Message-IDs named.
    fn take(&mut self) -> Vec<LetterOut> {
        let far = at(12, 31);
        let due: Vec<LetterOut> = self.store.read(|tx| tx.due_outgoing(far, 10_000)).unwrap();
        self.store
            .with_transaction(|tx| {
                for l in &due {
                    tx.mark_sent(l.id, far)?;
                }
                Ok::<_, StoreError>(())
            })
            .unwrap();
        for l in &due {
            self.ids.insert(
                l.message_id.clone(),
                format!("{}.{}@zaochka", l.kind, l.id.0),
            );
        }
        due
    }

    /// Drops what was queued since the last call (the scenario's setting up).
    fn skip(&mut self) {
        self.take();
    }

    /// Keeps what was queued since the last call as the scenario's step `step`.
    fn keep(&mut self, step: &str) {
        let due = self.take();
        assert!(!due.is_empty(), "{}: step {step} sent nothing", self.lang);
        for l in due {
            let who: Vec<&str> = l.recipients.iter().map(|r| person(r)).collect();
            let base = format!("{}/{step}.{}.{}", self.lang, l.kind, who.join("+"));
            let mut name = format!("{base}.txt");
            let mut n = 1;
            while self.corpus.contains_key(&name) {
                n += 1;
                name = format!("{base}.{n}.txt");
            }
            let letter = self.letter(&l);
            self.corpus.insert(name, letter);
        }
    }

    /// The letter as a reader sees it.
    fn letter(&self, l: &LetterOut) -> Letter {
        let msg = MessageParser::default().parse(&l.raw).unwrap();
        let mut file = String::new();
        let addresses = |a: Option<&mail_parser::Address>| -> String {
            a.map(|a| {
                a.iter()
                    .map(|m| match m.name() {
                        Some(n) => format!("{n} <{}>", m.address().unwrap_or_default()),
                        None => m.address().unwrap_or_default().to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default()
        };
        let id = |s: &str| -> String {
            match self.ids.get(s) {
                Some(n) => format!("<{n}>"),
                None => format!("<{s}>"),
            }
        };
        let subject = msg.subject().unwrap_or_default().to_string();
        file.push_str(&format!("Kind: {}\n", l.kind));
        file.push_str(&format!("Envelope-To: {}\n", l.recipients.join(", ")));
        file.push_str(&format!("From: {}\n", addresses(msg.from())));
        file.push_str(&format!("To: {}\n", addresses(msg.to())));
        if msg.cc().is_some() {
            file.push_str(&format!("Cc: {}\n", addresses(msg.cc())));
        }
        file.push_str(&format!("Subject: {subject}\n"));
        if let Some(d) = msg.date() {
            file.push_str(&format!("Date: {}\n", d.to_rfc822()));
        }
        file.push_str(&format!(
            "Message-ID: {}\n",
            id(msg.message_id().unwrap_or_default())
        ));
        if let Some(r) = msg.in_reply_to().as_text() {
            file.push_str(&format!("In-Reply-To: {}\n", id(r)));
        }
        let refs: Vec<String> = match msg.references() {
            mail_parser::HeaderValue::Text(t) => vec![id(t)],
            mail_parser::HeaderValue::TextList(l) => l.iter().map(|t| id(t)).collect(),
            _ => vec![],
        };
        if !refs.is_empty() {
            file.push_str(&format!("References: {}\n", refs.join(" ")));
        }
        for h in ["Auto-Submitted", "Precedence", "Reply-To"] {
            if let Some(v) = msg.header_raw(h) {
                file.push_str(&format!("{h}: {}\n", v.trim()));
            }
        }
        // The MIME structure, one line a part (the root's children indented).
        for part in msg.parts.iter() {
            let ct = part
                .content_type()
                .map(|c| {
                    let mut s = format!("{}/{}", c.ctype(), c.subtype().unwrap_or_default());
                    if let Some(cs) = c.attribute("charset") {
                        s.push_str(&format!("; charset={cs}"));
                    }
                    s
                })
                .unwrap_or_else(|| "text/plain (default)".into());
            let mut line = format!("Part: {ct}");
            if let Some(e) = part.content_transfer_encoding() {
                line.push_str(&format!(", {e}"));
            }
            if let Some(n) = part.attachment_name() {
                line.push_str(&format!(", name {n}"));
            }
            if let Some(d) = part.content_disposition() {
                line.push_str(&format!(", {}", d.ctype()));
            }
            file.push_str(&line);
            file.push('\n');
        }
        let body = msg
            .body_text(0)
            .unwrap_or_default()
            .replace("\r\n", "\n")
            .trim_end()
            .to_string();
        file.push('\n');
        file.push_str(&body);
        file.push('\n');
        // Attachments: a text file in full, an attached letter by its heading.
        for a in msg.attachments() {
            let name = a.attachment_name().unwrap_or("(no name)");
            match &a.body {
                PartType::Message(m) => file.push_str(&format!(
                    "\n=== attached letter: {} from {} ===\n",
                    m.subject().unwrap_or_default(),
                    addresses(m.from())
                )),
                PartType::Text(t) => file.push_str(&format!(
                    "\n=== attached file {name} ===\n{}\n",
                    t.replace("\r\n", "\n").trim_end()
                )),
                PartType::Binary(b) | PartType::InlineBinary(b) => {
                    file.push_str(&format!("\n=== attached {name}: {} bytes ===\n", b.len()))
                }
                _ => {}
            }
        }
        Letter {
            lang: self.lang,
            kind: l.kind.clone(),
            subject,
            body,
            file,
        }
    }
}

// ---------------------------------------------------------------------------------------
// The scenarios: each plays one story through the office and keeps the letters of its
// steps. Days are of 2026; play runs 10.01–30.06.

/// Start lists for three players, the first Monday's digest, a move in another's game.
fn start(lang: &'static str) -> Corpus {
    let mut w = World::new(lang, true);
    w.keep("start");
    // 12.01.2026 is a Monday.
    w.sweep(at(1, 12));
    w.keep("digest");
    // Сидорова writes about a game that is not hers.
    let games = w
        .store
        .read(|tx| {
            let t = tx.find_tournament(CIPHER)?.unwrap();
            let mut out = vec![];
            for g in tx.games(t.id)? {
                out.push((
                    g.number,
                    tx.player(g.white)?.email,
                    tx.player(g.black)?.email,
                ));
            }
            Ok::<_, StoreError>(out)
        })
        .unwrap();
    let (not_hers, ..) = games
        .iter()
        .find(|(_, w, b)| w != SIDOROVA && b != SIDOROVA)
        .unwrap()
        .clone();
    w.play(SIDOROVA, not_hers, "Мой ход: 1. c3-d4", at(1, 13));
    w.keep("not_your_game");
    w.corpus
}

/// A game played by good letters: first move, an answer with dates, a variant with a draw
/// offer, the variant's part accepted, then a resignation.
fn play(lang: &'static str) -> Corpus {
    let mut w = World::new(lang, false);
    w.skip();
    w.play(IVANOV, 1, "Мой ход: 1. c3-d4\nУдачи в турнире!", at(1, 10));
    w.keep("first_move");
    w.play(
        PETROV,
        1,
        "Ваш ход: 1. c3-d4\nМой ход: 1... f6-g5\nДаты: 10.01.2026 / 10.01.2026 / 12.01.2026\nВремя: 0/2",
        at(1, 12),
    );
    w.keep("answer");
    w.play(
        IVANOV,
        1,
        "Ваш ход: 1... f6-g5\nМой ход: 2. g3-f4\nЕсли 2... g7-f6, то 3. b2-c3\nПредлагаю ничью",
        at(1, 15),
    );
    w.keep("variant");
    w.play(
        PETROV,
        1,
        "Ваш ход: 2. g3-f4\nМой ход: 2... g7-f6 3. b2-c3 3... b6-a5",
        at(1, 20),
    );
    w.keep("variant_accepted");
    w.play(IVANOV, 1, "Ваш ход: 3... b6-a5\nСдаюсь", at(1, 22));
    w.keep("resignation");
    // another tournament's game: a draw offered with a move and accepted
    let mut d = World::new(lang, false);
    d.skip();
    d.play(IVANOV, 1, "Мой ход: 1. c3-d4\nПредлагаю ничью", at(1, 10));
    d.keep("draw_offer");
    d.play(PETROV, 1, "Ваш ход: 1. c3-d4\nНичью принимаю", at(1, 11));
    d.keep("draw_agreed");
    w.corpus.append(&mut d.corpus);
    w.corpus
}

/// Letters with mistakes: a missing repetition, an impossible move with one legal move of
/// its piece, an impossible move to replace, short notation, a wrong move number, a move
/// for a turn already made, no move at all.
fn mistakes(lang: &'static str) -> Corpus {
    let mut w = World::new(lang, false);
    w.skip();
    w.play(IVANOV, 1, "Мой ход: 1. c3-d4", at(1, 10));
    w.skip();
    w.play(PETROV, 1, "Мой ход: 1... f6-g5", at(1, 11));
    w.keep("no_repetition");
    w.play(
        PETROV,
        1,
        "Ваш ход: 1. c3-d4\nМой ход: 1... f6-e4",
        at(1, 12),
    );
    w.keep("impossible_move");
    // h6 has one legal move, h6-g5: it is played (10.2.10)
    w.play(
        PETROV,
        1,
        "Ваш ход: 1. c3-d4\nМой ход: 1... h6-f4",
        at(1, 13),
    );
    w.keep("substituted_move");
    w.play(
        IVANOV,
        1,
        "Ваш ход: 1... h6-g5\nМой ход: 2. b2-c3",
        at(1, 13),
    );
    w.skip();
    w.play(PETROV, 1, "Ваш ход: 2. b2-c3\nМой ход: 2... fe5", at(1, 14));
    w.keep("short_notation");
    w.play(
        PETROV,
        1,
        "Ваш ход: 2. b2-c3\nМой ход: 5... f6-e5",
        at(1, 15),
    );
    w.keep("wrong_number");
    w.play(
        PETROV,
        1,
        "Ваш ход: 2. b2-c3\nМой ход: 2... g7-f6",
        at(1, 16),
    );
    w.keep("changed_move");
    w.play(IVANOV, 1, "Добрый день! Как дела?", at(1, 17));
    w.keep("no_move");
    // a bare «Ход:» line when it is the sender's turn: his own move
    w.play(IVANOV, 1, "Ход: 3. d4:f6", at(1, 18));
    w.keep("bare_move");
    w.corpus
}

/// Letters from those who may not write: a stranger, a player whose letter is not proven,
/// a stranger's command, an unreadable command.
fn strangers(lang: &'static str) -> Corpus {
    let mut w = World::new(lang, false);
    w.skip();
    w.send(STRANGER, "Здравствуйте! Можно сыграть?", at(1, 11));
    w.keep("unknown_sender");
    w.send_as(
        IVANOV,
        &format!("Шифр: {CIPHER}, партия 1\nМой ход: 1. c3-d4"),
        at(1, 11),
        false,
    );
    w.keep("unproven");
    w.send(
        STRANGER,
        &format!("Шифр: {CIPHER}, партия 1\nРезультат: 1-0"),
        at(1, 12),
    );
    w.skip();
    w.play(PETROV, 1, "Результат: 0-1", at(1, 12));
    w.keep("player_command");
    w.play(ARBITER, 1, "Сделайте что-нибудь", at(1, 13));
    w.keep("unreadable_command");
    w.corpus
}

/// Breaks: an ordinary one, a late-announced one, one too long, a second one in a year;
/// the arbiter's special break.
fn breaks(lang: &'static str) -> Corpus {
    let mut w = World::new(lang, false);
    w.skip();
    w.play(IVANOV, 1, "Мой ход: 1. c3-d4", at(1, 10));
    w.skip();
    w.play(PETROV, 1, "Беру перерыв с 20.01 по 31.01", at(1, 12));
    w.keep("break");
    w.play(IVANOV, 1, "Беру перерыв с 10.02 по 25.03", at(1, 14));
    w.keep("break_too_long");
    w.play(PETROV, 1, "Беру перерыв с 10.03 по 15.03", at(1, 14));
    w.keep("break_second");
    w.play(IVANOV, 1, "Беру перерыв с 01.02 по 10.02", at(1, 14));
    w.skip();
    let mut w2 = World::new(lang, false);
    w2.skip();
    w2.play(PETROV, 1, "Беру перерыв с 15.01 по 25.01", at(1, 18));
    w2.keep("break_late");
    w2.send(
        ARBITER,
        &format!("Шифр: {CIPHER}\nОсобый перерыв Иванову с 01.03 по 20.03"),
        at(2, 20),
    );
    w2.keep("special_break");
    w.corpus.append(&mut w2.corpus);
    w.corpus
}

/// The clock: no first move (the query), an unanswered move repeated after 40 days, the
/// friendly warning, the overstep and the arbiter's rulings, protests.
fn clock(lang: &'static str) -> Corpus {
    let mut out = Corpus::new();
    // White never moves: the query after 30 days.
    let mut w = World::new(lang, false);
    w.skip();
    w.sweep(at(2, 10));
    w.keep("no_first_move");
    out.append(&mut w.corpus);

    // Black never answers the first move: repeated after 40 days, warned, overstepped.
    let mut w = World::new(lang, false);
    w.skip();
    w.play(IVANOV, 1, "Мой ход: 1. c3-d4", at(1, 10));
    w.skip();
    w.sweep(at(2, 20));
    w.keep("forty_days");
    w.sweep(at(2, 24));
    w.keep("warning");
    // 02.03 is a Monday: the overstep is seen on the Tuesday, the digest kept out of it.
    w.sweep(at(3, 3));
    w.keep("overstep");
    w.play(
        PETROV,
        1,
        "Протест: мой ход был отправлен 20.01, письмо потерялось",
        at(3, 5),
    );
    w.keep("protest");
    w.play(ARBITER, 1, "Просрочки нет, вернуть 5 дней", at(3, 6));
    w.keep("no_overstep");
    w.sweep(at(3, 7));
    w.skip();
    out.append(&mut w.corpus);

    // White never moves; the overstep confirmed; a late protest.
    let mut w = World::new(lang, false);
    w.skip();
    w.sweep(at(3, 5));
    w.skip();
    w.play(ARBITER, 1, "Просрочка подтверждена", at(3, 6));
    w.keep("overstep_confirmed");
    w.play(IVANOV, 1, "Протест: не согласен", at(4, 1));
    w.keep("late_protest");
    out.append(&mut w.corpus);
    out
}

/// The arbiter's commands: a penalty, its cancellation, a result by decision.
fn arbiter(lang: &'static str) -> Corpus {
    let mut w = World::new(lang, false);
    w.skip();
    w.play(ARBITER, 1, "Штраф 6 дней белым: п. 10.3.3", at(1, 20));
    w.keep("penalty");
    w.play(ARBITER, 1, "Результат: 0-1", at(1, 25));
    w.keep("result_by_arbiter");
    w.corpus
}

/// The end of play: the frozen game, the analyses, the package, the decision, protests,
/// the final report.
fn adjudication(lang: &'static str) -> Corpus {
    let mut w = World::new(lang, false);
    w.skip();
    w.play(IVANOV, 1, "Мой ход: 1. c3-d4", at(1, 10));
    w.play(
        PETROV,
        1,
        "Ваш ход: 1. c3-d4\nМой ход: 1... f6-g5\nДаты: 10.01.2026 / 10.01.2026 / 12.01.2026\nВремя: 0/2",
        at(1, 12),
    );
    w.send(
        ARBITER,
        &format!("Шифр: {CIPHER}\nОсобый перерыв Иванову с 13.01 по 30.06"),
        at(1, 13),
    );
    w.skip();
    w.sweep(at(7, 1));
    w.keep("end_of_play");
    w.play(
        IVANOV,
        1,
        "Анализ: позиция равная, 2. g3-h4 b6-a5. Оценка: ничья",
        at(7, 3),
    );
    w.keep("analysis");
    w.sweep(at(7, 11));
    w.keep("package");
    w.play(
        PETROV,
        1,
        "Анализ: у чёрных лучше. Оценка: выигрыш чёрных",
        at(7, 13),
    );
    w.keep("late_analysis");
    w.play(ARBITER, 1, "Результат: ничья", at(7, 20));
    w.keep("decision");
    w.play(IVANOV, 1, "Протест: не согласен, у белых лучше", at(7, 22));
    w.keep("decision_protest");
    // No final report while the organiser has the protest (10.5.7).
    w.sweep(at(8, 3));
    let pending = w.take();
    assert!(
        pending.iter().all(|l| l.kind != "final_report"),
        "the final report went with a protest pending"
    );
    w.play(
        ARBITER,
        1,
        "Результат: 1-0 (белые выигрывают, 35. c5-d6)",
        at(8, 5),
    );
    w.keep("protest_decided");
    w.sweep(at(8, 6));
    w.keep("final");
    w.corpus
}

/// A tournament played on paper since 10.01 taken over on 02.03 (`import pdn`): each
/// player's letter with his games, two in play and one finished.
fn import(lang: &'static str) -> Corpus {
    let mut w = World::unstarted(lang, true);
    let pdn = r#"[White "Иванов Иван"]
[Black "Петров Петр"]
[WhiteDays "12"]
[BlackDays "20"]
[BlackPenaltyDays "6"]
[Sent "2026-02-20"]

1. c3-d4 f6-g5 2. b2-c3 g7-f6 *

[White "Петров Пётр"]
[Black "сидорова анна"]
[WhiteDays "15"]
[BlackDays "9"]
[Sent "2026-02-25"]

1. c3-d4 b6-a5 2. d4-c5 d6:b4 3. a3:c5 *

[White "Сидорова Анна"]
[Black "Иванов Иван"]
[Result "1-0"]
[WhiteDays "10"]
[BlackDays "20"]
[Ended "2026-02-01"]
[Termination "resignation"]

1. c3-b4 f6-e5 2. g3-h4 1-0
"#;
    let done = w
        .office
        .import_pdn(&mut w.store, CIPHER, pdn, at(3, 2))
        .unwrap();
    assert_eq!((done.games, done.letters), (3, 3));
    w.keep("import");
    w.corpus
}

/// The whole corpus, made once for both tests.
fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut all = Corpus::new();
        for lang in ["ru", "en"] {
            for scenario in [
                start,
                play,
                mistakes,
                strangers,
                breaks,
                clock,
                arbiter,
                adjudication,
                import,
            ] {
                for (name, letter) in scenario(lang) {
                    assert!(
                        all.insert(name.clone(), letter).is_none(),
                        "two letters named {name}"
                    );
                }
            }
        }
        all
    })
}

fn out_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/letters/out")
}

fn files_under(dir: &Path) -> Vec<String> {
    let mut out = vec![];
    for lang in ["ru", "en"] {
        let Ok(entries) = std::fs::read_dir(dir.join(lang)) else {
            continue;
        };
        for e in entries {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if name.ends_with(".txt") {
                out.push(format!("{lang}/{name}"));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_letter_is_as_in_the_corpus() {
    let corpus = corpus();
    let dir = out_dir();
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut faults = vec![];
    for (name, letter) in corpus {
        let path = dir.join(name);
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        if old == letter.file {
            continue;
        }
        if update {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &letter.file).unwrap();
            continue;
        }
        let first = old
            .lines()
            .zip(letter.file.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(old.lines().count().min(letter.file.lines().count()));
        faults.push(format!(
            "{name}: changed at line {}:\n  was: {}\n  now: {}",
            first + 1,
            old.lines().nth(first).unwrap_or("(nothing)"),
            letter.file.lines().nth(first).unwrap_or("(nothing)")
        ));
    }
    for name in files_under(&dir) {
        if !corpus.contains_key(&name) {
            if update {
                std::fs::remove_file(dir.join(&name)).unwrap();
            } else {
                faults.push(format!("{name}: no scenario sends this letter any more"));
            }
        }
    }
    assert!(
        faults.is_empty(),
        "{} letters differ from tests/data/letters/out (UPDATE_EXPECT=1 accepts them; read the diff):\n{}",
        faults.len(),
        faults.join("\n")
    );
}

// ---------------------------------------------------------------------------------------
// The lint.

/// Faults the lint finds today that other work is fixing: (part of the file's name, rule,
/// why). An entry matches every file of the corpus (`<lang>/<step>.<kind>.<recipient>.txt`)
/// whose name contains it; an entry that matches no fault any more makes the test fail, so
/// remove it with the fix.
const KNOWN: &[(&str, &str, &str)] = &[(
    "unreadable_command.command_answer.",
    "cipher",
    "the orders could not be read and the letter answers no notice: no game to name",
)];

/// Letters that tell of no tournament the office can trust, so their subjects cannot name
/// the cipher: an address no tournament knows, and a letter whose sender is not proven.
const NO_CIPHER: &[&str] = &["unknown_sender", "unauthenticated"];

/// Letters that hand their reader the move, besides every forward and repeat and the start
/// list of a player who has White in some game (name prefix: `<step>.<kind>.<recipient>`).
const HANDS_MOVE: &[&str] = &["no_overstep.note.petrov"];

/// Latin words a Russian letter may use: the names of the record formats.
const LATIN_OK: &[&str] = &["PDN", "FEN"];

fn plural_class(n: u64) -> usize {
    match (n % 10, n % 100) {
        (1, r) if r != 11 => 0,
        (2..=4, r) if !(12..=14).contains(&r) => 1,
        _ => 2,
    }
}

/// The faults of one letter, each as (rule, what).
fn lint(name: &str, l: &Letter) -> Vec<(&'static str, String)> {
    use regex::Regex;
    static RE: OnceLock<[Regex; 9]> = OnceLock::new();
    let [email, token, fen, ru_count, en_count, citation, last_day_ru, last_day_en, empty] = RE.get_or_init(|| {
        [
            Regex::new(r"[\w.+-]+@[\w-]+(\.[\w-]+)*").unwrap(),
            Regex::new(r"[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*").unwrap(),
            Regex::new(r"\b[WB]:[WB][^\s]*").unwrap(),
            Regex::new(
                r"(?m)(?:^|[^\d.,:/])(\d+)([,.]5|½)?\s+(?:штрафн\w+\s+)?(день|дня|дней|партия|партии|партий|очко|очка|очков|ход|хода|ходов)\b",
            )
            .unwrap(),
            Regex::new(r"(?m)(?:^|[^\d.,:/])(\d+)(\.5|½)?\s+(?:penalty\s+)?(days?|games?|points?|moves?)\b").unwrap(),
            Regex::new(r"\bп\.\s*\d+\.\d+(?:\.\d+)*|(?:^|[\s(])\d{1,2}\.\d{1,2}\.\d{1,2}\b").unwrap(),
            Regex::new(r"не позднее \d\d\.\d\d\.\d{4}").unwrap(),
            Regex::new(r"\bby \d\d\.\d\d\.\d{4}").unwrap(),
            Regex::new(r"(?m):[ \t]*\)|\([ \t]*\)|:[ \t]+/|/[ \t]+/|/[ \t]*$").unwrap(),
        ]
    });
    let mut faults = vec![];
    let stem = name
        .split_once('/')
        .map(|(_, n)| n)
        .unwrap_or(name)
        .trim_end_matches(".txt");
    let text = format!("{}\n{}", l.subject, l.body);
    // the cipher in every subject
    if !NO_CIPHER.contains(&l.kind.as_str()) && !l.subject.contains(CIPHER) {
        faults.push((
            "cipher",
            format!("the subject «{}» names no cipher", l.subject),
        ));
    }
    if l.lang == "ru" {
        // no Latin word in Russian text, except notation, names, addresses, PDN and FEN
        for line in text.lines() {
            let t = line.trim();
            if t.starts_with('[') && t.ends_with(']') {
                continue; // a PDN tag
            }
            let line = email.replace_all(line, " ");
            let line = fen.replace_all(&line, " ");
            for m in token.find_iter(&line) {
                let w = m.as_str();
                let notation = w
                    .chars()
                    .all(|c| c.is_ascii_digit() || ('a'..='k').contains(&c));
                if notation && (w.len() == 1 || w.chars().any(|c| c.is_ascii_digit())) {
                    continue;
                }
                if LATIN_OK.contains(&w) {
                    continue;
                }
                faults.push(("latin", format!("«{w}» in «{}»", line.trim())));
            }
        }
        // numbers agree with nouns
        for c in ru_count.captures_iter(&text) {
            let n: u64 = c[1].parse().unwrap();
            let form = match &c[3] {
                "день" | "партия" | "очко" | "ход" => 0,
                "дня" | "партии" | "очка" | "хода" => 1,
                _ => 2,
            };
            let ok = if c.get(2).is_some() {
                form == 1
            } else {
                match plural_class(n) {
                    0 => form != 2,
                    1 => form != 0,
                    _ => form == 2,
                }
            };
            if !ok {
                faults.push(("plural", format!("«{}»", c[0].trim())));
            }
        }
    } else {
        for c in en_count.captures_iter(&text) {
            let n: u64 = c[1].parse().unwrap();
            let plural = c[3].ends_with('s');
            if plural == (n == 1 && c.get(2).is_none()) {
                faults.push(("plural", format!("«{}»", c[0].trim())));
            }
        }
    }
    // no clause cited twice in a row: two citations with nothing but brackets, spaces or
    // a colon between them ("(п. 10.2.2) (п. 10.2.10)", "(п. 10.3.3): п. 10.3.3"); a list
    // or a range ("п. 10.2.3, 10.2.9", "п. 10.4.1–10.4.3") is one citation
    let cites: Vec<_> = citation.find_iter(&text).collect();
    for pair in cites.windows(2) {
        let between = &text[pair[0].end()..pair[1].start()];
        if between
            .chars()
            .all(|c| c.is_whitespace() || "():".contains(c))
        {
            let from = text[..pair[0].start()]
                .char_indices()
                .rev()
                .nth(20)
                .map_or(0, |(i, _)| i);
            let to = text[pair[1].end()..]
                .char_indices()
                .nth(3)
                .map_or(text.len(), |(i, _)| pair[1].end() + i);
            faults.push(("clause", format!("«…{}…»", &text[from..to])));
        }
    }
    // no two brackets in a row: "(таблица 2, п. 10.3.6) (на 02.03.2026)"
    for (i, _) in text.match_indices(')') {
        let rest = text[i + 1..].trim_start_matches([' ', '\t']);
        if rest.starts_with('(') {
            let line = text[..i].rsplit('\n').next().unwrap_or_default();
            faults.push(("brackets", format!("«{line}) (…»")));
        }
    }
    // no empty value: "Даты:  / 10.01.2026", "решение главного судьи: )", "()"
    for m in empty.find_iter(&text) {
        let line = text[..m.start()].rsplit('\n').next().unwrap_or_default();
        let rest = text[m.start()..].split('\n').next().unwrap_or_default();
        faults.push(("empty", format!("«{line}{rest}»")));
    }
    // the last day in every letter that hands over the move
    let hands = matches!(l.kind.as_str(), "forward" | "repeat")
        || (l.kind == "start_list"
            && (l.body.contains("вы играете белыми") || l.body.contains(": White against")))
        || HANDS_MOVE.iter().any(|h| stem.starts_with(h));
    let names_day = if l.lang == "ru" {
        last_day_ru.is_match(&l.body)
    } else {
        last_day_en.is_match(&l.body)
    };
    if hands && !names_day {
        faults.push((
            "last_day",
            "hands over the move and names no last day".into(),
        ));
    }
    // as the table of kinds says: threading, Auto-Submitted, the picture
    faults.extend(as_its_kind(l).into_iter().map(|f| ("kind", f)));
    faults
}

/// How a letter differs from its row in the table of kinds (`office::kinds`).
fn as_its_kind(l: &Letter) -> Vec<String> {
    use zaochka::office::kinds::{self, Thread};
    let Some(kind) = kinds::of_template(&l.kind) else {
        return vec![format!("'{}' is no kind of the table", l.kind)];
    };
    let headers = l.file.split("\n\n").next().unwrap_or_default();
    let has = |line: &str| headers.lines().any(|h| h.starts_with(line));
    let replied = has("Auto-Submitted: auto-replied");
    let mut faults = vec![];
    if replied && !kind.thread.contains(&Thread::Answer) {
        faults.push("auto-replied, but its kind answers no letter".into());
    }
    if !has("Auto-Submitted: auto-") {
        faults.push("no Auto-Submitted".into());
    }
    if !has("In-Reply-To:") && kind.thread == [Thread::Answer] {
        faults.push("answers a letter but is not in reply to it".into());
    }
    if has("In-Reply-To:") && kind.thread == [Thread::Own] {
        faults.push("starts its own thread but is in reply to a letter".into());
    }
    if kind.thread == [Thread::Answer] && !replied {
        faults.push("an answer to the sender not marked auto-replied".into());
    }
    if has("Part: image/png") != kind.board {
        faults.push(format!(
            "the picture: the table says {}, the letter {}",
            kind.board,
            has("Part: image/png")
        ));
    }
    faults
}

#[test]
fn the_corpus_passes_the_lint() {
    let mut found: Vec<(String, &'static str, String)> = vec![];
    for (name, letter) in corpus() {
        for (rule, what) in lint(name, letter) {
            found.push((name.clone(), rule, what));
        }
    }
    let known =
        |name: &str, rule: &str| KNOWN.iter().any(|(f, r, _)| *r == rule && name.contains(f));
    let faults: Vec<String> = found
        .iter()
        .filter(|(n, r, _)| !known(n, r))
        .map(|(n, r, w)| format!("{n}: {r}: {w}"))
        .collect();
    let stale: Vec<String> = KNOWN
        .iter()
        .filter(|(f, r, _)| !found.iter().any(|(n, rule, _)| rule == r && n.contains(f)))
        .map(|(f, r, why)| format!("{f}: {r} ({why})"))
        .collect();
    assert!(
        faults.is_empty() && stale.is_empty(),
        "{} faults in the letters:\n{}\n\n{} entries of KNOWN no longer fail (remove them):\n{}",
        faults.len(),
        faults.join("\n"),
        stale.len(),
        stale.join("\n")
    );
}
