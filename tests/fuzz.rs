//! The fuzz campaign (issue 13), on stable Rust: mutated real letters (the corpus's and the
//! template goldens' `.eml` files), letter texts, command letters, and notation, FEN and PDN
//! strings, fed to the letter reader (MIME + grammar), the command grammar, the rules'
//! parsers, and the whole office on an in-memory store with three running tournaments.
//!
//! The office's letters go through the sender check first, as the daemon does: federations
//! take turns in `[auth] senders = "dkim"` (letters signed with DKIM as the sender's provider
//! would — Ed25519 and RSA — others signed by a forger's key, tampered with after signing,
//! or not signed), `"dkim"` with `unsigned_domains`, `"authres"` (an MX's
//! Authentication-Results field that passes, fails, names another MX, or is missing) and
//! `"address"`; so both the judging paths and the refusal of unproven senders are covered.
//!
//! What must hold for every input: nothing panics; every letter the office is given is
//! stored exactly once with its outcome (a second delivery of the same letter is `Seen`, the
//! same id); a letter whose sender is not proven changes no game; every letter it queues
//! reads back with mail-parser and has a recipient; the deadline sweep never fails.
//!
//! `cargo test --test main fuzz::` runs the short campaign CI runs (inside
//! `scripts/test.sh`); the long one is
//! `ZAOCHKA_FUZZ_INPUTS=10000000 nice -n 19 cargo test --release --test main fuzz:: -- --nocapture`
//! (`ZAOCHKA_FUZZ_SEED=N` for another seed). A failing input is written to
//! `target/tmp/fuzz-failure-…` and the test fails naming its seed and number; inputs are a
//! pure function of the seed, so the same command finds it again.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::str::FromStr;
use std::time::{Duration, Instant};

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use zaochka::command::CommandContext;
use zaochka::config::{AuthConfig, Config, Senders};
use zaochka::game::{GameState, Side};
use zaochka::letter::ReadContext;
use zaochka::mail::auth::{DnsTable, Signer, Verifier};
use zaochka::mail::{IncomingMail, MailId};
use zaochka::office::{Handled, Office};
use zaochka::rules::{MoveText, PdnGame, Position, Variant};
use zaochka::store::{NewTournament, Outcome, Store, StoreError};

/// The short campaign's size: about a minute in the test profile on the 2-core machine.
const CI_INPUTS: u64 = 100_000;
/// The short campaign's seed, fixed so that CI is repeatable.
const CI_SEED: u64 = 20_261_201;
/// The longest input made by mutation: large enough for every MIME structure, small enough
/// that a campaign of millions runs in hours.
const MAX_INPUT: usize = 64 * 1024;
/// A fresh federation after this many letters, so that the in-memory store stays small.
const LETTERS_PER_FEDERATION: u32 = 400;

#[test]
fn a_fuzz_campaign_finds_no_panic_and_leaves_no_letter_unstored() {
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.trim().parse().ok());
    let inputs: u64 = env("ZAOCHKA_FUZZ_INPUTS").unwrap_or(CI_INPUTS);
    let seed: u64 = env("ZAOCHKA_FUZZ_SEED").unwrap_or(CI_SEED);
    let report = Campaign::new(seed).run(inputs);
    println!("{report}");
    assert_eq!(report.total(), inputs);
    assert!(report.office_letters > 0 && report.outgoing_checked > 0);
    assert!(
        report.proven > 0 && report.unproven > 0 && report.forwards > 0,
        "both sides of the sender check, and moves played"
    );
}

// ---------------------------------------------------------------- randomness

/// SplitMix64: small, fast, and the same sequence on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    /// True `per_mille` times in a thousand.
    fn chance(&mut self, per_mille: u64) -> bool {
        self.next() % 1000 < per_mille
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

// ---------------------------------------------------------------- the corpus

struct Corpus {
    /// Raw messages: players' letters, zaochka's own letters.
    letters: Vec<Vec<u8>>,
    /// Free texts: the letters' bodies and the command letters.
    texts: Vec<String>,
    /// Command letters of the arbiter.
    commands: Vec<String>,
    /// Notation: moves in full notation, FENs, PDN games.
    notation: Vec<String>,
}

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    out.sort();
    out
}

impl Corpus {
    fn load() -> Corpus {
        let mut letters: Vec<Vec<u8>> = Vec::new();
        for dir in ["tests/data/letters", "tests/data/templates"] {
            for p in files(dir, "eml") {
                letters.push(std::fs::read(&p).expect("a corpus letter"));
            }
        }
        assert!(
            letters.len() >= 100,
            "the corpus: {} letters",
            letters.len()
        );
        let commands: Vec<String> = files("tests/data/commands", "txt")
            .iter()
            .map(|p| std::fs::read_to_string(p).expect("a command letter"))
            .collect();
        let mut texts: Vec<String> = letters
            .iter()
            .filter_map(|raw| zaochka::mail::mime::parse(raw).ok())
            .map(|m| m.text)
            .filter(|t| !t.trim().is_empty())
            .collect();
        texts.extend(commands.iter().cloned());

        // Notation from games played at random to their end, in all three games.
        let mut notation = Vec::new();
        let mut rng = Rng(7);
        for variant in [Variant::Russian, Variant::Hundred, Variant::Giveaway] {
            for _ in 0..6 {
                let mut pos = Position::start(variant);
                let mut record = zaochka::rules::GameRecord::new(pos);
                for _ in 0..rng.below(120) {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let mv = rng.pick(&moves).clone();
                    notation.push(mv.to_string());
                    pos = pos.play(&mv);
                    if record.push(mv).is_err() {
                        break;
                    }
                }
                notation.push(pos.to_fen());
                let game = PdnGame {
                    tags: vec![("Event".into(), "Заочный турнир".into())],
                    record,
                    result: "*".into(),
                };
                notation.push(game.to_pdn());
            }
        }
        notation.extend(
            [
                "c3-d4",
                "c3:e5:c7",
                "C3—D4",
                "с3-д4",
                "32-28",
                "19:30",
                "cd4",
                "c:e5",
                "a1-h8",
                "1. c3-d4 f6-g5 2. d4:f6",
                "W:W31,32,K1:B1,2,K50",
                "B:W21,22:B11,12",
            ]
            .map(String::from),
        );
        Corpus {
            letters,
            texts,
            commands,
            notation,
        }
    }
}

/// Pieces a mutation inserts: the MIME structures, the grammar's keywords, notation and the
/// characters that have broken readers before.
const TOKENS: &[&str] = &[
    "\r\n",
    "\n",
    "\r\n\r\n",
    "\r\n ",
    "\r",
    "=?utf-8?B?0JzQvtC5INGF0L7QtA==?=",
    "=?koi8-r?Q?=ED=CF=CA?=",
    "=?",
    "?=",
    "=\r\n",
    "=D0=",
    "=FF",
    "--b\r\n",
    "--b--\r\n",
    "boundary=b",
    "Content-Type: multipart/mixed; boundary=b\r\n",
    "Content-Type: multipart/alternative; boundary=\"b\"\r\n",
    "Content-Type: text/html; charset=windows-1251\r\n",
    "Content-Type: text/plain; charset=koi8-r\r\n",
    "Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\r\n",
    "Content-Type: message/rfc822\r\n",
    "Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n",
    "Content-Transfer-Encoding: base64\r\n",
    "Content-Transfer-Encoding: quoted-printable\r\n",
    "Content-Disposition: attachment; filename=\"партия.pdn\"\r\n",
    "From: ",
    "From: \"a b\"@x.test\r\n",
    "From: <>\r\n",
    "Message-ID: <",
    "In-Reply-To: <",
    "References: ",
    "Subject: Re: ",
    "Auto-Submitted: no\r\n",
    "Precedence: auto_reply\r\n",
    "<blockquote>",
    "</blockquote>",
    "<br>",
    "<p>",
    "&nbsp;",
    "&#x",
    "&#1093;",
    "&#99999999;",
    "<!--",
    "> ",
    "-- \n",
    "Мой ход:",
    "Ваш ход:",
    "Шифр: ЗШ-2026-1",
    "Партия ",
    "Если 1... f6-g5, то 2. g3-h4",
    "На ",
    "предлагаю",
    "Вариант А:",
    "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026",
    "Время: 3/2",
    "Предлагаю ничью",
    "Ничью принимаю",
    "Сдаюсь",
    "Беру перерыв с 10.12 по 25.12",
    "Протест: ",
    "Анализ: ",
    "Оценка: ничья",
    "Просрочка подтверждена",
    "Просрочки нет",
    "Результат: 1-0",
    "Штраф 6 дней белым: п. 10.3.3",
    "Особый перерыв Иванову с 01.03 по 20.03",
    "Выбыл Иванов: сыгранные засчитать, несыгранные — присуждение",
    "Отменить штраф",
    "1. c3-d4",
    "1... f6-g5",
    "c3:e5:c7",
    "32-28",
    "x",
    "…",
    "—",
    "\u{202E}",
    "\u{FEFF}",
    "\u{0}",
    "ё",
    "99999999999999999999",
    "31.02.2026",
    "29.02.2027",
    "00.00.0000",
    "0/0",
    "-1",
    "12.",
    "...",
    "On Mon, 1 Dec 2026 at 10:00, Bob <bob@x.test> wrote:\n",
    "-----Original Message-----\n",
    "Турнир ЗШ-2026-1, партия 1: Иванов Иван (белые)",
];

// ---------------------------------------------------------------- mutation

fn mutate(rng: &mut Rng, data: &mut Vec<u8>, pool: &[Vec<u8>]) {
    let rounds = 1 + rng.below(4) + if rng.chance(200) { rng.below(16) } else { 0 };
    for _ in 0..rounds {
        let len = data.len();
        let at = rng.below(len + 1);
        match rng.below(11) {
            0 if len > 0 => {
                let i = rng.below(len);
                data[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                data[i] = *rng.pick(&[
                    0, 0xff, 0x80, 0xc0, 0xd0, 0xe0, 0xed, b'\r', b'\n', b'=', b'<', b'>', b':',
                    b'-', b' ', b'"', b'\\', b'?', b'.',
                ]);
            }
            2 if len > 0 => {
                let n = 1 + rng.below(64.min(len - at.min(len - 1)));
                let start = at.min(len - 1);
                data.drain(start..(start + n).min(len));
            }
            3 => {
                let n = 1 + rng.below(16);
                let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                data.splice(at..at, bytes);
            }
            4 | 5 => {
                let token = rng.pick(TOKENS).as_bytes().to_vec();
                data.splice(at..at, token);
            }
            6 if len > 0 => {
                let start = rng.below(len);
                let n = 1 + rng.below((len - start).min(512));
                let copy = data[start..start + n].to_vec();
                let times = if rng.chance(100) {
                    1 + rng.below(50)
                } else {
                    1
                };
                for _ in 0..times {
                    data.splice(at..at, copy.iter().copied());
                }
            }
            7 => {
                // Splice: our head, another letter's tail.
                let other = rng.pick(pool);
                let from = rng.below(other.len() + 1);
                data.truncate(at);
                data.extend_from_slice(&other[from..]);
            }
            8 => {
                let other = rng.pick(pool);
                let from = rng.below(other.len() + 1);
                let n = rng.below((other.len() - from).min(2048) + 1);
                data.splice(at..at, other[from..from + n].iter().copied());
            }
            9 if len > 0 => {
                data.truncate(at);
            }
            _ => {
                // A line swapped with another.
                let lines: Vec<usize> = data
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| **b == b'\n')
                    .map(|(i, _)| i + 1)
                    .collect();
                if lines.len() >= 2 {
                    let a = *rng.pick(&lines);
                    let end = data[a..]
                        .iter()
                        .position(|b| *b == b'\n')
                        .map(|e| a + e + 1);
                    if let Some(end) = end {
                        let line: Vec<u8> = data.drain(a..end).collect();
                        let to = rng.below(data.len() + 1);
                        data.splice(to..to, line);
                    }
                }
            }
        }
        if data.len() > MAX_INPUT {
            data.truncate(MAX_INPUT);
        }
    }
}

fn mutated_text(rng: &mut Rng, text: &str, pool: &[Vec<u8>]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    mutate(rng, &mut bytes, pool);
    if rng.chance(700) {
        String::from_utf8_lossy(&bytes).into_owned()
    } else {
        // Mostly valid text stays valid: cut at the last whole character.
        match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                let mut b = e.into_bytes();
                b.truncate(valid);
                String::from_utf8(b).unwrap_or_default()
            }
        }
    }
}

// ---------------------------------------------------------------- the sender check

/// The MX whose Authentication-Results fields an `"authres"` federation believes.
const AUTHSERV_ID: &str = "mx.federation.test";

/// DKIM keys as the senders' providers hold them, and the DNS records that publish them.
struct Keys {
    /// An Ed25519 signer for every domain the corpus and the campaign send from
    /// (selector `ed`).
    ed25519: std::collections::HashMap<String, Signer>,
    /// `players.test`'s RSA key (selector `s1`).
    rsa: Signer,
    /// Another domain's real key signing as `players.test` `s1`: a signature that fails.
    forger: Signer,
    /// What the DNS answers: every key above but the forger's.
    table: DnsTable,
}

impl Keys {
    fn new(letters: &[Vec<u8>]) -> Keys {
        let mut domains: Vec<String> = letters
            .iter()
            .filter_map(|raw| zaochka::mail::mime::parse_head(raw).ok()?.from)
            .filter_map(|m| Some(m.address.rsplit_once('@')?.1.to_ascii_lowercase()))
            .filter(|d| !d.is_empty() && !d.contains(|c: char| c.is_whitespace() || c == ';'))
            .chain(
                [
                    "players.test",
                    "federation.test",
                    "tournament.test",
                    "example.net",
                    "mail.example.net",
                    "mx.example.net",
                ]
                .map(String::from),
            )
            .collect();
        domains.sort();
        domains.dedup();
        let mut table = DnsTable::default();
        let mut publish = |s: &Signer| {
            let record = s.dns_record();
            let (name, text) = record.split_once(' ').expect("NAME TEXT");
            table.insert(name, text);
        };
        let mut ed25519 = std::collections::HashMap::new();
        for d in domains {
            let signer = Signer::ed25519(
                &d,
                "ed",
                include_str!("data/auth/federation.ed25519.seed"),
                include_str!("data/auth/federation.ed25519.pub"),
            )
            .expect("the Ed25519 test key");
            publish(&signer);
            ed25519.insert(d, signer);
        }
        let rsa = Signer::rsa_pem(
            "players.test",
            "s1",
            include_str!("data/auth/players.rsa.pem"),
        )
        .expect("the RSA test key");
        publish(&rsa);
        let forger = Signer::rsa_pem(
            "players.test",
            "s1",
            include_str!("data/auth/forger.rsa.pem"),
        )
        .expect("the forger's key");
        Keys {
            ed25519,
            rsa,
            forger,
            table,
        }
    }
}

/// The sender's domain, as the verifier will find it (the letter's head, lower case).
fn from_address(raw: &[u8]) -> Option<String> {
    let from = zaochka::mail::mime::parse_head(raw).ok()?.from?;
    Some(from.address.to_ascii_lowercase())
}

// ---------------------------------------------------------------- the federation

const START: (i32, u32, u32) = (2026, 12, 1);

fn noon(d: NaiveDate) -> DateTime<Utc> {
    chrono_tz::Europe::Moscow
        .from_local_datetime(&d.and_hms_opt(12, 0, 0).expect("noon"))
        .earliest()
        .expect("noon in Moscow")
        .with_timezone(&Utc)
}

fn start_day() -> NaiveDate {
    NaiveDate::from_ymd_opt(START.0, START.1, START.2).expect("the start")
}

const CIPHERS: [(&str, &str); 3] = [
    ("ЗШ-2026-1", "russian"),
    ("ЗШ-2026-С", "hundred"),
    ("ЗШ-2026-П", "giveaway"),
];

/// Players: `p{t}{i}@players.test`, and `both@players.test` in the first and last
/// tournament (a player with several games in several tournaments).
fn players(t: usize) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = ["Иванов Иван", "Петров Пётр", "Сидоров Сидор"]
        .iter()
        .enumerate()
        .map(|(i, n)| (format!("{n} {t}"), format!("p{t}{i}@players.test")))
        .collect();
    if t != 1 {
        out.push(("Кузнецов Кузьма".into(), "both@players.test".into()));
    }
    out
}

struct Federation {
    office: Office,
    store: Store,
    /// The sender check of this federation's `[auth]`.
    verifier: Verifier,
    now: DateTime<Utc>,
    letters: u32,
    /// The latest letters zaochka sent (Message-ID, subject), to reply to.
    sent: Vec<(String, String)>,
}

/// The `[auth]` of the `n`th federation: the modes take turns.
fn auth_of(n: u64) -> AuthConfig {
    match n % 4 {
        0 => AuthConfig::default(),
        1 => AuthConfig {
            senders: Senders::Address,
            ..AuthConfig::default()
        },
        2 => AuthConfig {
            senders: Senders::Authres,
            authserv_id: AUTHSERV_ID.into(),
            ..AuthConfig::default()
        },
        _ => AuthConfig {
            // The admin's choice for players whose provider signs nothing; never officials.
            unsigned_domains: vec!["players.test".into(), "federation.test".into()],
            ..AuthConfig::default()
        },
    }
}

impl Federation {
    fn new(auth: AuthConfig, table: &DnsTable) -> Federation {
        let config = Config {
            address: "zaochka@tournament.test".into(),
            arbiter: "arbiter@federation.test".into(),
            secretary: "secretary@federation.test".into(),
            federation: "Федерация заочных шашек".into(),
            auth,
            ..Config::default()
        };
        let verifier = Verifier::with_table(&config.auth, table.clone()).expect("the sender check");
        let office = Office::new(config);
        let mut store = Store::open_in_memory().expect("an in-memory store");
        let start = start_day();
        for (t, (cipher, variant)) in CIPHERS.iter().enumerate() {
            store
                .with_transaction(|tx| {
                    let id = tx.add_tournament(
                        &NewTournament {
                            cipher,
                            variant,
                            name: "Кубок",
                            start,
                            end: NaiveDate::from_ymd_opt(2027, 11, 30).expect("a date"),
                            tz: "Europe/Moscow",
                            settings: "{}",
                        },
                        noon(start - chrono::Days::new(10)),
                    )?;
                    for (name, email) in players(t) {
                        tx.add_player(id, &name, &email)?;
                    }
                    Ok::<_, StoreError>(())
                })
                .expect("seed a tournament");
            office
                .start_tournament(&mut store, cipher, noon(start - chrono::Days::new(5)))
                .expect("start a tournament");
        }
        Federation {
            office,
            store,
            verifier,
            now: noon(start),
            letters: 0,
            sent: Vec::new(),
        }
    }

    /// Every game as stored (status, result, state, deadline, last change), to compare.
    fn snapshot(&self) -> Vec<String> {
        self.store
            .read(|tx| {
                let mut out = Vec::new();
                for (cipher, _) in CIPHERS {
                    let t = tx.find_tournament(cipher)?.expect("the tournament");
                    for g in tx.games(t.id)? {
                        out.push(format!(
                            "{:?} {:?} {:?} {} {}",
                            g.status, g.result, g.next_due, g.updated, g.state
                        ));
                    }
                }
                Ok::<_, StoreError>(out)
            })
            .expect("the games")
    }

    /// Every game's state.
    fn games(&self) -> Vec<(String, GameState)> {
        self.store
            .read(|tx| {
                let mut out = Vec::new();
                for (cipher, _) in CIPHERS {
                    let t = tx.find_tournament(cipher)?.expect("the tournament");
                    for g in tx.games(t.id)? {
                        let state: GameState =
                            serde_json::from_str(&g.state).expect("a stored state reads back");
                        out.push((cipher.to_string(), state));
                    }
                }
                Ok::<_, StoreError>(out)
            })
            .expect("the games")
    }
}

// ---------------------------------------------------------------- the campaign

#[derive(Default)]
struct Report {
    seed: u64,
    reader: u64,
    texts: u64,
    commands: u64,
    notation: u64,
    office: u64,
    office_letters: u64,
    seen_again: u64,
    outgoing_checked: u64,
    sweeps: u64,
    federations: u64,
    /// Letters whose sender the check proved (or the federation accepts on the address).
    proven: u64,
    /// Letters whose sender was not proven: each must leave every game as it was.
    unproven: u64,
    judged: u64,
    set_aside: u64,
    ignored: u64,
    forwards: u64,
    seconds: f64,
    slowest: Vec<(&'static str, Duration, usize)>,
}

impl Report {
    fn total(&self) -> u64 {
        self.reader + self.texts + self.commands + self.notation + self.office
    }

    fn note_time(&mut self, target: &'static str, took: Duration, len: usize) {
        match self.slowest.iter_mut().find(|(t, _, _)| *t == target) {
            Some(entry) if entry.1 < took => *entry = (target, took, len),
            Some(_) => {}
            None => self.slowest.push((target, took, len)),
        }
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "fuzz: seed {}, {} inputs in {:.0} s ({:.0}/s), no panic, every letter stored once",
            self.seed,
            self.total(),
            self.seconds,
            self.total() as f64 / self.seconds.max(1e-9)
        )?;
        writeln!(
            f,
            "  letter reader (MIME + grammar) {}, letter texts {}, command grammar {}, \
             notation/FEN/PDN {}, office {} ({} letters stored, {} delivered twice and Seen, \
             {} outgoing letters read back, {} sweeps, {} federations)",
            self.reader,
            self.texts,
            self.commands,
            self.notation,
            self.office,
            self.office_letters,
            self.seen_again,
            self.outgoing_checked,
            self.sweeps,
            self.federations
        )?;
        writeln!(
            f,
            "  office outcomes: {} judged ({} moves forwarded), {} set aside, {} ignored; \
             senders proven {}, not proven {} (no game changed by them)",
            self.judged, self.forwards, self.set_aside, self.ignored, self.proven, self.unproven
        )?;
        for (target, took, len) in &self.slowest {
            writeln!(
                f,
                "  slowest {target}: {:.1} ms ({len} bytes)",
                took.as_secs_f64() * 1e3
            )?;
        }
        Ok(())
    }
}

struct Campaign {
    rng: Rng,
    corpus: Corpus,
    keys: Keys,
    /// The verifier is async (it may ask the DNS); its table answers at once.
    runtime: tokio::runtime::Runtime,
    federation: Federation,
    report: Report,
    next_mail: u64,
}

impl Campaign {
    fn new(seed: u64) -> Campaign {
        let corpus = Corpus::load();
        let keys = Keys::new(&corpus.letters);
        let federation = Federation::new(auth_of(0), &keys.table);
        Campaign {
            rng: Rng(seed),
            corpus,
            keys,
            runtime: tokio::runtime::Builder::new_current_thread()
                .build()
                .expect("a runtime"),
            federation,
            report: Report {
                seed,
                federations: 1,
                ..Report::default()
            },
            next_mail: 0,
        }
    }

    fn run(mut self, inputs: u64) -> Report {
        let started = Instant::now();
        for n in 0..inputs {
            let target = self.rng.below(100);
            let (name, input, outcome) = match target {
                0..=49 => self.one_reader(),
                50..=64 => self.one_text(),
                65..=76 => self.one_command(),
                77..=88 => self.one_notation(),
                _ => self.one_office(),
            };
            if let Err(why) = outcome {
                let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
                    "fuzz-failure-seed{}-input{n}.bin",
                    self.report.seed
                ));
                let _ = std::fs::write(&path, &input);
                panic!(
                    "fuzz input {n} (seed {}, {name}) failed: {why}\nthe input is in {}",
                    self.report.seed,
                    path.display()
                );
            }
            if n % 1_000_000 == 999_999 {
                eprintln!(
                    "fuzz: {} inputs, {:.0} s",
                    n + 1,
                    started.elapsed().as_secs_f64()
                );
            }
        }
        self.report.seconds = started.elapsed().as_secs_f64();
        self.report
    }

    /// Runs `f` on the input, catching a panic as a failure, and times it.
    fn guarded(
        &mut self,
        name: &'static str,
        input: Vec<u8>,
        f: impl FnOnce(&mut Self, &[u8]) -> Result<(), String>,
    ) -> (&'static str, Vec<u8>, Result<(), String>) {
        let t0 = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| f(self, &input)))
            .unwrap_or_else(|p| Err(format!("panic: {}", panic_text(&p))));
        self.report.note_time(name, t0.elapsed(), input.len());
        (name, input, outcome)
    }

    fn one_reader(&mut self) -> (&'static str, Vec<u8>, Result<(), String>) {
        let mut raw = self.rng.pick(&self.corpus.letters).clone();
        mutate(&mut self.rng, &mut raw, &self.corpus.letters);
        self.report.reader += 1;
        self.guarded("letter reader", raw, |_, raw| {
            if let Ok((mail, letter)) = zaochka::cli::letter::read_raw(raw) {
                std::hint::black_box((&mail, &letter));
                let _ = zaochka::letter::own_text(&mail.text);
                let _ = zaochka::mail::mime::parse_head(raw);
            }
            Ok(())
        })
    }

    fn one_text(&mut self) -> (&'static str, Vec<u8>, Result<(), String>) {
        let base = if self.rng.chance(300) {
            self.rng.pick(&self.corpus.notation).clone()
        } else {
            self.rng.pick(&self.corpus.texts).clone()
        };
        let text = mutated_text(&mut self.rng, &base, &self.corpus.letters);
        self.report.texts += 1;
        self.guarded("letter text", text.into_bytes(), |_, bytes| {
            let text = String::from_utf8_lossy(bytes);
            let ctx = ReadContext {
                from: Some("p00@players.test".into()),
                subject: Some(text.lines().next().unwrap_or_default().to_owned()),
                date: None,
            };
            std::hint::black_box(zaochka::letter::read(&text, &ctx));
            std::hint::black_box(zaochka::letter::own_text(&text));
            Ok(())
        })
    }

    fn one_command(&mut self) -> (&'static str, Vec<u8>, Result<(), String>) {
        let base = if self.rng.chance(200) {
            self.rng.pick(&self.corpus.texts).clone()
        } else {
            self.rng.pick(&self.corpus.commands).clone()
        };
        let text = mutated_text(&mut self.rng, &base, &self.corpus.letters);
        self.report.commands += 1;
        self.guarded("command grammar", text.into_bytes(), |_, bytes| {
            let text = String::from_utf8_lossy(bytes);
            let ctx = CommandContext {
                today: start_day(),
                subject: text.lines().last().map(str::to_owned),
            };
            std::hint::black_box(zaochka::command::read(&text, &ctx));
            Ok(())
        })
    }

    fn one_notation(&mut self) -> (&'static str, Vec<u8>, Result<(), String>) {
        let base = self.rng.pick(&self.corpus.notation).clone();
        let text = mutated_text(&mut self.rng, &base, &self.corpus.letters);
        self.report.notation += 1;
        self.guarded("notation", text.into_bytes(), |_, bytes| {
            let text = String::from_utf8_lossy(bytes);
            for variant in [Variant::Russian, Variant::Hundred, Variant::Giveaway] {
                if let Ok(pos) = Position::from_fen(variant, &text) {
                    let fen = pos.to_fen();
                    let again = Position::from_fen(variant, &fen)
                        .map_err(|e| format!("the FEN written back '{fen}' does not read: {e}"))?;
                    if again != pos {
                        return Err(format!("FEN round trip changed the position: {fen}"));
                    }
                    std::hint::black_box(pos.legal_moves());
                }
            }
            for word in text.split_whitespace().take(200) {
                if let Ok(mv) = MoveText::from_str(word) {
                    let pos = Position::start(Variant::Russian);
                    std::hint::black_box(mv.to_move(&pos));
                }
            }
            if text.contains('[')
                && let Ok(game) = PdnGame::from_pdn(&text)
            {
                let pdn = game.to_pdn();
                let again = PdnGame::from_pdn(&pdn)
                    .map_err(|e| format!("the PDN written back does not read: {e}\n{pdn}"))?;
                if again.record.moves() != game.record.moves() {
                    return Err(format!("the PDN round trip changed the moves:\n{pdn}"));
                }
            }
            Ok(())
        })
    }

    fn one_office(&mut self) -> (&'static str, Vec<u8>, Result<(), String>) {
        if self.federation.letters >= LETTERS_PER_FEDERATION
            || self.federation.now > noon(NaiveDate::from_ymd_opt(2027, 12, 20).expect("a day"))
        {
            self.federation = Federation::new(auth_of(self.report.federations), &self.keys.table);
            self.report.federations += 1;
        }
        // The clock: most letters the same day, some after days, a few after weeks.
        let step = match self.rng.below(1000) {
            0..=699 => 0,
            700..=979 => 1,
            980..=994 => 2 + self.rng.below(5),
            _ => 10 + self.rng.below(40),
        };
        self.federation.now += chrono::TimeDelta::days(step as i64);
        let raw = if self.rng.chance(250) {
            let mut raw = self.rng.pick(&self.corpus.letters).clone();
            if self.rng.chance(600) {
                raw = with_from(&raw, self.pick_sender(None));
            }
            // Signed before the mutation (the signature mostly breaks) or after it (the
            // mutated letter passes the check and reaches the judge).
            let before = self.rng.chance(300);
            if before {
                raw = self.as_delivered(raw);
            }
            mutate(&mut self.rng, &mut raw, &self.corpus.letters);
            if !before {
                raw = self.as_delivered(raw);
            }
            raw
        } else {
            let raw = self.made_letter();
            self.as_delivered(raw)
        };
        self.report.office += 1;
        self.guarded("office", raw, |c, raw| c.handle(raw))
    }

    /// The letter as the federation's mailbox receives it: in `"dkim"` mode signed by its
    /// From domain's provider (Ed25519, sometimes RSA), or by a forger's key, or tampered
    /// with after signing, or not signed; in `"authres"` mode with the field an MX adds.
    fn as_delivered(&mut self, raw: Vec<u8>) -> Vec<u8> {
        match self.federation.office.config.auth.senders {
            Senders::Address => raw,
            Senders::Authres => {
                let domain = from_address(&raw)
                    .and_then(|a| Some(a.rsplit_once('@')?.1.to_owned()))
                    .unwrap_or_else(|| "players.test".into());
                let field = match self.rng.below(10) {
                    0..=6 => format!("{AUTHSERV_ID}; dkim=pass header.d={domain}"),
                    7 => format!("{AUTHSERV_ID}; dkim=fail header.d={domain}"),
                    8 => format!("mx.elsewhere.test; dkim=pass header.d={domain}"),
                    _ => return raw,
                };
                let mut out = format!("Authentication-Results: {field}\r\n").into_bytes();
                out.extend_from_slice(&raw);
                out
            }
            Senders::Dkim => {
                let domain = from_address(&raw)
                    .and_then(|a| Some(a.rsplit_once('@')?.1.to_owned()))
                    .unwrap_or_default();
                let signer = match self.rng.below(100) {
                    0..=64 => self.keys.ed25519.get(&domain),
                    65..=69 if domain == "players.test" => Some(&self.keys.rsa),
                    70..=79 => Some(&self.keys.forger),
                    80..=84 => {
                        // Signed, then changed on the way: the body hash fails.
                        let mut signed = self
                            .keys
                            .ed25519
                            .get(&domain)
                            .and_then(|s| s.sign(&raw).ok())
                            .unwrap_or(raw);
                        signed.extend_from_slice("\r\nP.S. Сдаюсь\r\n".as_bytes());
                        return signed;
                    }
                    _ => None,
                };
                // A letter without any of the signed fields cannot be signed: it goes as it is.
                signer.and_then(|s| s.sign(&raw).ok()).unwrap_or(raw)
            }
        }
    }

    /// Hands one letter to the office and checks what became of it.
    fn handle(&mut self, raw: &[u8]) -> Result<(), String> {
        self.next_mail += 1;
        let fed = &mut self.federation;
        let mail = IncomingMail {
            id: MailId::Memory(self.next_mail),
            raw: raw.to_vec(),
            received: fed.now,
        };
        let now = fed.now;
        // The daemon's order: the sender check, then the office.
        let auth = self.runtime.block_on(fed.verifier.verify(raw));
        let config = &fed.office.config;
        let may_act = auth.is_pass()
            || !config.auth.unsigned_domains.is_empty() && {
                // A player's domain the admin accepts on the address alone; never an official.
                let from = zaochka::mail::mime::parse(raw)
                    .ok()
                    .and_then(|p| p.from)
                    .map(|m| m.address.to_ascii_lowercase())
                    .unwrap_or_default();
                let domain = from.rsplit_once('@').map(|(_, d)| d).unwrap_or_default();
                !from.eq_ignore_ascii_case(&config.arbiter)
                    && !from.eq_ignore_ascii_case(&config.secretary)
                    && config
                        .auth
                        .unsigned_domains
                        .iter()
                        .any(|d| d.eq_ignore_ascii_case(domain))
            };
        let before = (!may_act).then(|| fed.snapshot());
        let handled = fed
            .office
            .handle(&mut fed.store, &mail, &auth, now)
            .map_err(|e| format!("the office failed, the letter is not stored: {e}"))?;
        if let Some(before) = before {
            self.report.unproven += 1;
            if fed.snapshot() != before {
                return Err(format!(
                    "a letter whose sender is not proven ({}) changed a game: {handled:?}",
                    auth.summary()
                ));
            }
        } else {
            self.report.proven += 1;
        }
        fed.letters += 1;
        self.report.office_letters += 1;
        // Seen: the same Message-ID from the same sender came before (its bytes may differ).
        let (id, is_new) = match &handled {
            Handled::New { id, outcome } => {
                match outcome {
                    Outcome::Judged { .. } => self.report.judged += 1,
                    Outcome::SetAside { .. } => self.report.set_aside += 1,
                    Outcome::Ignored { .. } => self.report.ignored += 1,
                }
                (*id, true)
            }
            Handled::Seen(id) => (*id, false),
        };
        let stored = fed
            .store
            .read(|tx| tx.letter_in(id))
            .map_err(|e| format!("letter {id:?} is not in the store: {e}"))?;
        if stored.outcome.is_none() || is_new && stored.raw != raw {
            return Err(format!(
                "letter {id:?} is stored without its outcome or bytes"
            ));
        }
        if self.rng.chance(50) {
            // The same letter delivered again (an IMAP resend, a restart): Seen, nothing done.
            let again = fed
                .office
                .handle(&mut fed.store, &mail, &auth, now)
                .map_err(|e| format!("the second delivery failed: {e}"))?;
            if again != Handled::Seen(id) {
                return Err(format!(
                    "the second delivery gave {again:?}, not Seen({id:?})"
                ));
            }
            self.report.seen_again += 1;
        }
        if self.rng.chance(100) {
            fed.office
                .sweep(&mut fed.store, now)
                .map_err(|e| format!("the sweep failed: {e}"))?;
            self.report.sweeps += 1;
        }
        // Everything queued reads back as a letter with a recipient; then it is "sent".
        let far = now + chrono::TimeDelta::days(3650);
        let due = fed
            .store
            .read(|tx| tx.due_outgoing(far, 10_000))
            .map_err(|e| e.to_string())?;
        for l in &due {
            let m = mail_parser::MessageParser::default()
                .parse(&l.raw)
                .ok_or_else(|| format!("queued letter {} does not parse", l.message_id))?;
            if l.recipients.is_empty()
                || m.to().is_none()
                || m.message_id() != Some(l.message_id.as_str())
            {
                return Err(format!(
                    "queued letter {} lacks a recipient or its Message-ID",
                    l.message_id
                ));
            }
            self.report.forwards += u64::from(l.kind == "forward");
            if l.game.is_some() {
                let subject = m.subject().unwrap_or_default().to_owned();
                fed.sent.push((l.message_id.clone(), subject));
            }
        }
        let keep = fed.sent.len().saturating_sub(50);
        fed.sent.drain(..keep);
        self.report.outgoing_checked += due.len() as u64;
        fed.store
            .with_transaction(|tx| {
                for l in &due {
                    tx.mark_sent(l.id, now)?;
                }
                Ok::<_, StoreError>(())
            })
            .map_err(|e| e.to_string())?;
        Ok(())
    }

    /// A sender: mostly a game's player (the one to move), sometimes anyone.
    fn pick_sender(&mut self, game: Option<&GameState>) -> String {
        if let Some(g) = game
            && self.rng.chance(850)
        {
            let side = if self.rng.chance(900) {
                g.side_to_move()
            } else {
                g.side_to_move().other()
            };
            return g.players[side].email.clone();
        }
        let mut all: Vec<String> = (0..CIPHERS.len())
            .flat_map(players)
            .map(|(_, e)| e)
            .collect();
        all.extend(
            [
                "arbiter@federation.test",
                "secretary@federation.test",
                "zaochka@tournament.test",
                "stranger@example.net",
                "no-reply@mail.example.net",
                "MAILER-DAEMON@mx.example.net",
                "P00@PLAYERS.TEST",
            ]
            .map(String::from),
        );
        self.rng.pick(&all).clone()
    }

    /// A letter as a player (or the arbiter) would write it about one of the games: the
    /// partner's moves repeated, a legal move (or a wrong one), variants, dates, offers …,
    /// built by lettre as a mail client would, then sometimes mutated.
    fn made_letter(&mut self) -> Vec<u8> {
        let games = self.federation.games();
        let (cipher, g) = self.rng.pick(&games).clone();
        let from = self.pick_sender(Some(&g));
        let side = g.side_of_email(&from).unwrap_or(Side::White);
        let mut lines: Vec<String> = Vec::new();
        if self.rng.chance(700) {
            lines.push("Здравствуйте!".into());
        }
        if self.rng.chance(600) {
            lines.push(format!("Шифр: {cipher}"));
        }
        if self.rng.chance(600) {
            let n = if self.rng.chance(900) {
                g.number
            } else {
                self.rng.below(20) as u32
            };
            lines.push(format!("Партия {n}"));
        }
        let repeated: Vec<String> = g
            .new_moves_for(side)
            .iter()
            .map(|m| m.to_string())
            .collect();
        if !repeated.is_empty() && self.rng.chance(850) {
            lines.push(format!("Ваш ход: {}", repeated.join(" ")));
        }
        let pos = Position::from_fen(g.variant, &g.fen()).expect("a stored game's FEN reads");
        let moves = pos.legal_moves();
        let ply = g.moves.len();
        let number = g.number_of_ply(ply);
        let numbered = |text: String, s: Side| match s {
            Side::White => format!("{number}. {text}"),
            Side::Black => format!("{number}... {text}"),
        };
        if !moves.is_empty() && self.rng.chance(900) {
            let mv = if self.rng.chance(900) {
                self.rng.pick(&moves).to_string()
            } else {
                self.rng.pick(&self.corpus.notation).clone()
            };
            lines.push(format!("Мой ход: {}", numbered(mv, g.side_of_ply(ply))));
            if self.rng.chance(200) {
                let after = pos.play(self.rng.pick(&moves));
                let replies = after.legal_moves();
                if !replies.is_empty() {
                    lines.push(format!("Если {}, то …", self.rng.pick(&replies)));
                }
            }
        }
        if self.rng.chance(500) {
            lines.push("Даты: 01.12.2026 / 03.12.2026 / 05.12.2026".into());
            lines.push(format!(
                "Время: {}/{}",
                self.rng.below(60),
                self.rng.below(60)
            ));
        }
        for (per_mille, line) in [
            (30, "Предлагаю ничью"),
            (30, "Ничью принимаю"),
            (8, "Сдаюсь"),
            (15, "Беру перерыв с 10.01 по 25.01"),
            (15, "Протест: время посчитано неверно"),
            (15, "Анализ: позиция равна. Оценка: ничья"),
        ] {
            if self.rng.chance(per_mille) {
                lines.push(line.into());
            }
        }
        if from.starts_with("arbiter") || from.starts_with("secretary") {
            let command = self.rng.pick(&self.corpus.commands).clone();
            lines.push(format!("Шифр {cipher}, партия {}", g.number));
            lines.extend(command.lines().map(str::to_owned));
        }
        if self.rng.chance(100) {
            let text = self.rng.pick(&self.corpus.texts).clone();
            lines.push(mutated_text(&mut self.rng, &text, &self.corpus.letters));
        }
        let body = lines.join(if self.rng.chance(500) { "\r\n" } else { "\n" });

        let sent = &self.federation.sent;
        let reply_to =
            (!sent.is_empty() && self.rng.chance(450)).then(|| self.rng.pick(sent).clone());
        let subject = match &reply_to {
            Some((_, s)) => format!("Re: {s}"),
            None => format!("{cipher}, партия {}", g.number),
        };
        let message_id = if self.rng.chance(20) {
            "same@players.test".to_string()
        } else {
            format!(
                "fuzz{}.{}@players.test",
                self.report.seed,
                self.next_mail + 1
            )
        };
        let mut b = lettre::Message::builder()
            .from(
                from.parse()
                    .unwrap_or_else(|_| "p00@players.test".parse().expect("an address")),
            )
            .to("zaochka@tournament.test".parse().expect("an address"))
            .subject(subject)
            .message_id(Some(format!("<{message_id}>")))
            .date(std::time::SystemTime::from(self.federation.now));
        if let Some((id, _)) = &reply_to {
            b = b
                .in_reply_to(format!("<{id}>"))
                .references(format!("<{id}>"));
        }
        if self.rng.chance(20) {
            b = b.header(lettre::message::header::ContentTransferEncoding::Base64);
        }
        let message = if self.rng.chance(250) {
            let html = format!("<div>{}</div>", body.replace('\n', "<br>"));
            b.multipart(lettre::message::MultiPart::alternative_plain_html(
                body, html,
            ))
        } else {
            b.body(body)
        };
        let mut raw = message.map(|m| m.formatted()).unwrap_or_default();
        if self.rng.chance(150) {
            mutate(&mut self.rng, &mut raw, &self.corpus.letters);
        }
        raw
    }
}

/// The raw letter with its `From:` header (and its folded lines) replaced.
fn with_from(raw: &[u8], from: String) -> Vec<u8> {
    let head_end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n"))
        .unwrap_or(raw.len());
    let mut out = format!("From: {from}\r\n").into_bytes();
    let mut in_from = false;
    for line in raw[..head_end].split_inclusive(|b| *b == b'\n') {
        let is_folded = line.first().is_some_and(|b| *b == b' ' || *b == b'\t');
        in_from =
            (in_from && is_folded) || line.len() >= 5 && line[..5].eq_ignore_ascii_case(b"from:");
        if !in_from {
            out.extend_from_slice(line);
        }
    }
    out.extend_from_slice(&raw[head_end..]);
    out
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(no message)".into())
}

#[test]
fn the_mutator_is_a_pure_function_of_the_seed() {
    let pool = vec![
        "From: a@b.test\r\n\r\nМой ход: 1. c3-d4\r\n"
            .as_bytes()
            .to_vec(),
    ];
    let run = |seed| {
        let mut rng = Rng(seed);
        let mut data = pool[0].clone();
        for _ in 0..100 {
            mutate(&mut rng, &mut data, &pool);
        }
        data
    };
    assert_eq!(run(1), run(1));
    assert_ne!(run(1), run(2));
}
