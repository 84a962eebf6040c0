//! `zaochka demo [DIR]`: a whole small tournament played through the real pipeline on the
//! embedded default (Maildir), with a simulated clock. Players' letters are dropped into
//! `DIR/mail/inbox/new` as a mail client would deliver them; each step is one pass of the
//! real daemon at a fixed moment; every letter zaochka writes lands in `DIR/mail/outbox/new`.
//!
//! The story: four players, six games; a good first move forwarded; short notation refused
//! (10.2.2, 10.2.10) and corrected; a missing repetition refused (10.2.9, 10.2.11); a break
//! (10.4); a resignation and a draw by agreement with their records (10.5.1); an unknown
//! sender answered once; a forged arbiter's letter refused; a move left unanswered repeated
//! after 40 days (10.3.4); and the same silence running into an overstep, with the notice to
//! the chief arbiter (10.3.6).
//!
//! Senders are checked as the default `[auth] senders = "dkim"` says: the demo signs its
//! players' letters (and the stranger's) with its own fixed key, as their mail servers would,
//! and writes `DIR/dns_records` with the published key, used instead of DNS. The arbiter's
//! domain signs nothing here, so a letter claiming to come from it is a forgery.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::Context as _;
use chrono::NaiveDate;

use super::ops::{Step, moscow_noon, pass_at, seed_tournament};
use super::{CliError, CliResult, Context, refused};
use crate::config::{AuthConfig, MaildirConfig, Senders, Transport};
use crate::mail::auth::Signer;
use crate::mail::maildir::deliver;
use crate::office::Office;
use crate::store::Store;

const CIPHER: &str = "ДЕМО-2027";

/// The demo's own DKIM key (made once with `openssl genrsa 2048`; public on purpose: it signs
/// nothing but the demo's letters).
const DKIM_KEY: &str = include_str!("demo_dkim.pem");
/// The domains whose letters the demo signs, as their providers would.
const SIGNED_DOMAINS: [&str; 2] = ["players.test", "example.com"];
const MARK: &str = ".zaochka-demo";

const PLAYERS: &[(&str, &str)] = &[
    ("Иванов Иван", "ivanov@players.test"),
    ("Петров Пётр", "petrov@players.test"),
    ("Сидорова Анна", "sidorova@players.test"),
    ("Кузнецов Олег", "kuznetsov@players.test"),
];

fn day(m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2027, m, d).unwrap_or_default()
}

/// Runs the demo in `dir`.
pub fn run(ctx: &Context, dir: &Path) -> CliResult {
    prepare(dir)?;
    let mut config = ctx.config.clone();
    config.database = dir.join("zaochka.sqlite");
    let signers = SIGNED_DOMAINS
        .iter()
        .map(|d| Signer::rsa_pem(d, "demo", DKIM_KEY).map(|s| (*d, s)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| CliError::Broken(e.into()))?;
    let records: String = signers.iter().map(|(_, s)| s.dns_record() + "\n").collect();
    let dns_records = dir.join("dns_records");
    std::fs::write(&dns_records, records).map_err(|e| CliError::Broken(e.into()))?;
    config.auth = AuthConfig {
        senders: Senders::Dkim,
        dns_records: Some(dns_records),
        ..AuthConfig::default()
    };
    let maildir = dir.join("mail");
    config.transport = Transport::Maildir(MaildirConfig {
        path: maildir.clone(),
        poll: std::time::Duration::from_secs(1),
    });
    let mut store = Store::open(&config.database).map_err(|e| CliError::Broken(e.into()))?;
    let start = day(1, 11);
    seed_tournament(
        &mut store,
        CIPHER,
        "Демонстрационный турнир",
        start,
        day(12, 31),
        PLAYERS,
        moscow_noon(day(1, 5)),
    )?;
    let office = Office::new(config.clone());
    let games = office
        .start_tournament(&mut store, CIPHER, moscow_noon(day(1, 10)))
        .map_err(|e| CliError::Broken(e.into()))?;
    println!("zaochka demo in {}", dir.display());
    println!(
        "tournament {CIPHER}: {} players, {games} games, start {start}",
        PLAYERS.len()
    );

    // Who plays white and black in each game, as the Berger table paired them.
    let pairs: Vec<(u32, &str, &str)> = store
        .read(|tx| {
            let t = tx
                .find_tournament(CIPHER)?
                .ok_or(crate::store::StoreError::NotFound {
                    what: "tournament",
                    id: 0,
                })?;
            let mut out = Vec::new();
            for g in tx.games(t.id)? {
                let w = tx.player(g.white)?;
                let b = tx.player(g.black)?;
                let email = |e: &str| PLAYERS.iter().map(|p| p.1).find(|p| *p == e).unwrap_or("");
                out.push((g.number, email(&w.email), email(&b.email)));
            }
            Ok(out)
        })
        .map_err(|e: crate::store::StoreError| CliError::Broken(e.into()))?;
    let game = |n: u32| {
        pairs
            .iter()
            .find(|p| p.0 == n)
            .copied()
            .unwrap_or((n, "", ""))
    };
    let (g1, w1, b1) = game(1);
    let (g2, w2, _) = game(2);
    let (g3, w3, b3) = game(3);
    let (g4, w4, _) = game(4);
    let (g5, w5, b5) = game(5);
    let head = |n: u32| format!("Здравствуйте!\nШифр: {CIPHER}\nПартия {n}\n");

    let steps = vec![
        Step {
            at: moscow_noon(day(1, 10)),
            title: "the start lists go out",
            letters: vec![],
        },
        Step {
            at: moscow_noon(day(1, 11)),
            title: "first moves: one good, one in short notation",
            letters: vec![
                (
                    w1,
                    format!(
                        "{}Мой ход: 1. c3-d4\nДаты: 11.01.2027 / 11.01.2027 / 11.01.2027\nВремя: 0/0\nС уважением",
                        head(g1)
                    ),
                ),
                (w2, format!("{}Мой ход: 1. cd4\nС уважением", head(g2))),
                (w3, format!("{}Мой ход: 1. e3-f4", head(g3))),
                (w4, format!("{}Мой ход: 1. g3-h4", head(g4))),
                (
                    w5,
                    format!("{}Мой ход: 1. a3-b4\nПредлагаю ничью", head(g5)),
                ),
            ],
        },
        Step {
            at: moscow_noon(day(1, 13)),
            title: "black answers without repeating; the short notation is corrected; a stranger writes; a forged arbiter's result",
            letters: vec![
                (b1, format!("{}Мой ход: 1... f6-g5", head(g1))),
                (w2, format!("{}Мой ход: 1. c3-d4", head(g2))),
                (
                    "stranger@example.com",
                    "Добрый день! Можно сыграть?".to_string(),
                ),
                (
                    "arbiter@localhost",
                    format!("{}Результат: 0-1\nГлавный судья", head(g1)),
                ),
            ],
        },
        Step {
            at: moscow_noon(day(1, 14)),
            title: "the corrected answer; a resignation; a draw accepted",
            letters: vec![
                (
                    b1,
                    format!(
                        "{}Ваш ход: 1. c3-d4\nМой ход: 1... f6-g5\nДаты: 11.01.2027 / 11.01.2027 / 14.01.2027\nВремя: 0/3",
                        head(g1)
                    ),
                ),
                (b3, format!("{}Ваш ход: 1. e3-f4\nСдаюсь", head(g3))),
                (b5, format!("{}Ваш ход: 1. a3-b4\nНичью принимаю", head(g5))),
            ],
        },
        Step {
            at: moscow_noon(day(1, 20)),
            title: "a break is announced",
            letters: vec![(
                w1,
                "Здравствуйте!\nБеру перерыв с 01.02 по 15.02\nИванов".to_string(),
            )],
        },
        Step {
            at: moscow_noon(day(2, 22)),
            title: "40 days of silence in one game: the move is repeated (10.3.4)",
            letters: vec![],
        },
        Step {
            at: moscow_noon(day(3, 5)),
            title: "the silence runs past the limit: overstep, the arbiter is told (10.3.6)",
            letters: vec![],
        },
    ];

    let outbox = maildir.join("outbox").join("new");
    // The demo's clock ends on its last day: the closing hint reads the games as of then.
    let last_at = steps
        .last()
        .map_or_else(|| moscow_noon(day(1, 10)), |s| s.at);
    for step in steps {
        println!(
            "\n== {} — {}",
            step.at
                .with_timezone(&chrono_tz::Europe::Moscow)
                .format("%d.%m.%Y"),
            step.title
        );
        for (from, body) in &step.letters {
            let mut raw = letter(from, body, step.at).into_bytes();
            let domain = from.rsplit_once('@').map(|(_, d)| d).unwrap_or_default();
            let signer = signers.iter().find(|(d, _)| *d == domain);
            if let Some((_, signer)) = signer {
                raw = signer.sign(&raw).map_err(|e| CliError::Broken(e.into()))?;
            }
            deliver(&maildir.join("inbox"), &raw, None)
                .with_context(|| format!("deliver into {}", maildir.display()))
                .map_err(CliError::Broken)?;
            let first = body
                .lines()
                .filter(|l| !l.starts_with("Здравствуйте") && !l.starts_with("Шифр"))
                .collect::<Vec<_>>()
                .join(" / ");
            let forged = if signer.is_none() {
                " (forged: not signed)"
            } else {
                ""
            };
            println!("  in : {from:<24} {first}{forged}");
        }
        let before = files(&outbox);
        let (s, pass) = pass_at(&config, store, &maildir, step.at)?;
        store = s;
        for name in files(&outbox).difference(&before) {
            let raw = std::fs::read(outbox.join(name)).map_err(|e| CliError::Broken(e.into()))?;
            if let Ok(m) = crate::mail::mime::parse(&raw) {
                let to: Vec<String> = m.to.iter().map(|a| a.address.clone()).collect();
                println!("  out: {:<24} {}", to.join(", "), m.subject);
            }
        }
        if pass.letters + pass.deadlines + pass.sent == 0 {
            println!("  (nothing)");
        }
    }

    let finished = store
        .read(|tx| {
            let t = tx.find_tournament(CIPHER)?;
            Ok(t.map(|t| tx.games(t.id)).transpose()?.unwrap_or_default())
        })
        .map_err(|e: crate::store::StoreError| CliError::Broken(e.into()))?;
    println!("\ngames:");
    for g in &finished {
        println!(
            "  game {}: {:<12} {}",
            g.number,
            g.status.as_str(),
            g.result.as_deref().unwrap_or("")
        );
    }
    println!(
        "\nThe letters zaochka wrote are in {}, one complete message each.\nLook at the games as of the demo's last day with (zaochka on PATH: cargo install --path .):\n  cd {} && zaochka --now {} game show {CIPHER} 1\n  (or: table {CIPHER}, export pdn {CIPHER}, or export html {CIPHER} site: the public pages, site/index.html in a browser)",
        outbox.display(),
        dir.display(),
        last_at.format("%Y-%m-%dT%H:%M:%SZ")
    );
    Ok(())
}

/// Makes `dir` ready: created, or emptied when it holds an earlier demo; refused when it
/// holds anything else (the demo never deletes what it did not make).
fn prepare(dir: &Path) -> CliResult {
    if dir.exists() {
        let is_empty = std::fs::read_dir(dir)
            .map(|mut d| d.next().is_none())
            .unwrap_or(false);
        if !is_empty && !dir.join(MARK).exists() {
            return Err(refused(format!(
                "{} exists and is not an earlier demo; name another directory",
                dir.display()
            )));
        }
        for sub in [
            "mail",
            "dns_records",
            "zaochka.sqlite",
            "zaochka.sqlite-wal",
            "zaochka.sqlite-shm",
        ] {
            let p = dir.join(sub);
            let r = if p.is_dir() {
                std::fs::remove_dir_all(&p)
            } else {
                std::fs::remove_file(&p)
            };
            if let Err(e) = r
                && e.kind() != std::io::ErrorKind::NotFound
            {
                return Err(CliError::Broken(e.into()));
            }
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| CliError::Broken(e.into()))?;
    std::fs::write(dir.join(MARK), "made by `zaochka demo`\n")
        .map_err(|e| CliError::Broken(e.into()))?;
    Ok(())
}

fn files(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A player's letter as a mail client writes it (UTF-8, quoted-printable would do as well).
fn letter(from: &str, body: &str, at: chrono::DateTime<chrono::Utc>) -> String {
    let n = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!(
        "From: {from}\r\nTo: zaochka@localhost\r\nSubject: {CIPHER}\r\nDate: {}\r\nMessage-ID: <demo-{n}-{}@players.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}\r\n",
        at.to_rfc2822(),
        at.timestamp(),
        body.replace('\n', "\r\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The subjects of every letter the demo wrote, read back from the Maildir outbox.
    fn outbox_subjects(dir: &Path) -> Vec<(String, String)> {
        let out = dir.join("mail/outbox/new");
        let mut v: Vec<(String, String)> = files(&out)
            .into_iter()
            .filter_map(|n| {
                let raw = std::fs::read(out.join(n)).ok()?;
                let m = crate::mail::mime::parse(&raw).ok()?;
                let to =
                    m.to.iter()
                        .map(|a| a.address.clone())
                        .collect::<Vec<_>>()
                        .join(",");
                Some((to, m.subject))
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn the_demo_plays_every_scene_through_the_real_pipeline() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = Context {
            config: crate::config::Config::default(),
            now: None,
            templates: crate::render::Templates::builtin(),
        };
        run(&ctx, dir.path()).unwrap();
        let subjects = outbox_subjects(dir.path());
        let has = |to: &str, part: &str| {
            subjects
                .iter()
                .any(|(t, s)| t.contains(to) && s.contains(part))
        };
        assert!(
            has("ivanov@players.test", "стартовый лист"),
            "{subjects:#?}"
        );
        assert!(
            has("", "письмо не принято"),
            "an error answered: {subjects:#?}"
        );
        assert!(has("", ": ход 1. c3-d4"), "a move forwarded: {subjects:#?}");
        assert!(
            has("stranger@example.com", "не распознано"),
            "{subjects:#?}"
        );
        assert!(
            has("arbiter@localhost", "отправитель не подтверждён"),
            "the forged arbiter's letter refused, the arbiter told: {subjects:#?}"
        );
        assert!(
            !has("", "0-1"),
            "the forged result decided nothing: {subjects:#?}"
        );
        assert!(dir.path().join("dns_records").exists());
        assert!(has("", "перерыв"), "a break told: {subjects:#?}");
        assert!(
            has("secretary@localhost", "1-0"),
            "a result with its record: {subjects:#?}"
        );
        assert!(has("", "1/2-1/2"), "a draw by agreement: {subjects:#?}");
        assert!(has("", "ПОВТОР"), "a repeat after 40 days: {subjects:#?}");
        assert!(
            has("arbiter@localhost", "ПРОСРОЧКА"),
            "an overstep notice: {subjects:#?}"
        );
        assert!(
            has("petrov@players.test", "ваш ход 1. c3-d4 повторён"),
            "{subjects:#?}"
        );
        assert!(
            !has("sidorova@players.test", "до просрочки"),
            "no warning sent together with the overstep it warned of: {subjects:#?}"
        );

        // Safe to repeat: the same directory is reused, nothing else is touched.
        run(&ctx, dir.path()).unwrap();
        assert_eq!(outbox_subjects(dir.path()).len(), subjects.len());
    }

    #[test]
    fn the_demo_never_wipes_a_directory_it_did_not_make() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("precious.txt"), "keep").unwrap();
        let ctx = Context {
            config: crate::config::Config::default(),
            now: None,
            templates: crate::render::Templates::builtin(),
        };
        assert!(matches!(run(&ctx, dir.path()), Err(CliError::Refused(_))));
        assert!(dir.path().join("precious.txt").exists());
    }
}
