//! Big letters through the whole office on an in-memory store: a player's good move followed
//! by megabytes of short lines (a pasted log, a forwarded thread), handled in one
//! transaction — read, judged, the forward to the partner worded and built, the receipt,
//! everything stored. Reports the time of each size, the size of the forward built, and the
//! time per megabyte, so that a cost growing faster than the letter shows at once.
//!
//! `cargo bench --bench big_letters` (`-- --sizes 1,2,5` for other sizes in MB;
//! `-- --lines-of N` for lines of N characters, default 20).
//!
//! Letters above `[limits] letter_bytes` (default 10 MB) are set aside unread and answered;
//! the bench raises the limit to 1 GB so that the reading and building are what is measured.
//! The sender check (DKIM, done by the daemon before the office) is not part of it: the
//! office is handed an `address`-mode pass; `cargo bench --bench letters` measures the check.
//!
//! Measured 2026-12 on the 2-core build machine (load average 7–9, other builds), lines of 20
//! characters. Before (b78743c: lettre's per-line CR insertion, the whole letter quoted in the
//! forward): 0.25 MB 0.12 s, 0.5 MB 0.41 s, 1 MB 1.52 s, 2 MB 6.39 s — four times the time
//! for twice the letter; the forward built was 2.2 times the letter (4.4 MB for 2 MB).
//! After: 1 MB 0.044 s, 2 MB 0.098 s, 5 MB 0.20 s, 10 MB 0.50 s, 20 MB 0.99 s, 40 MB 2.3 s,
//! 100 MB 7.1 s — about 0.05 s per MB whatever the size; the forward is 15.5 KB at every size
//! (100 lines of the sender's words quoted).

use std::time::Instant;

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use zaochka::config::Config;
use zaochka::mail::{IncomingMail, MailId};
use zaochka::office::{Handled, Office};
use zaochka::store::{NewTournament, Outcome, Store, StoreError};

fn at(d: NaiveDate) -> DateTime<Utc> {
    chrono_tz::Europe::Moscow
        .from_local_datetime(&d.and_hms_opt(12, 0, 0).expect("noon"))
        .earliest()
        .expect("noon in Moscow")
        .with_timezone(&Utc)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let sizes: Vec<f64> = arg("--sizes")
        .unwrap_or_else(|| "0.5,1,2,5,20".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let line_len: usize = arg("--lines-of")
        .and_then(|n| n.parse().ok())
        .unwrap_or(20)
        .max(2);
    let start = NaiveDate::from_ymd_opt(2026, 12, 1).expect("a date");
    let mut config = Config {
        address: "zaochka@tournament.test".into(),
        arbiter: "arbiter@federation.test".into(),
        secretary: "secretary@federation.test".into(),
        ..Config::default()
    };
    config.limits.letter_bytes = 1 << 30;
    config.auth.senders = zaochka::config::Senders::Address;
    let auth = zaochka::mail::auth::Authentication::address_only();

    println!("size MB | lines | seconds | s per MB | forward built, bytes | outcome");
    for (n, mb) in sizes.iter().enumerate() {
        let office = Office::new(config.clone());
        let mut store = Store::open_in_memory().expect("an in-memory store");
        store
            .with_transaction(|tx| {
                let t = tx.add_tournament(
                    &NewTournament {
                        cipher: "ЗШ-2026-1",
                        variant: "russian",
                        name: "Бенчмарк",
                        start,
                        end: NaiveDate::from_ymd_opt(2027, 11, 30).expect("a date"),
                        tz: "Europe/Moscow",
                        settings: "{}",
                    },
                    at(start - chrono::Days::new(10)),
                )?;
                tx.add_player(t, "Иванов Иван", "white@players.test")?;
                tx.add_player(t, "Петров Пётр", "black@players.test")?;
                Ok::<_, StoreError>(())
            })
            .expect("seed the tournament");
        office
            .start_tournament(&mut store, "ЗШ-2026-1", at(start - chrono::Days::new(5)))
            .expect("start it");
        let now = at(start);
        let queued_before = store
            .read(|tx| tx.due_outgoing(now, 100_000))
            .expect("the outbox")
            .len();

        let target = (mb * 1_000_000.0) as usize;
        let mut body = String::with_capacity(target + 200);
        body.push_str("Шифр: ЗШ-2026-1\r\nПартия 1\r\nМой ход: 1. c3-d4\r\n\r\n");
        let line = format!("{}\r\n", "x".repeat(line_len - 2));
        let mut lines = 0usize;
        while body.len() + line.len() <= target {
            body.push_str(&line);
            lines += 1;
        }
        let raw = format!(
            "From: white@players.test\r\nTo: zaochka@tournament.test\r\nSubject: ход\r\n\
             Message-ID: <big{n}@players.test>\r\nDate: Tue, 01 Dec 2026 10:00:00 +0300\r\n\
             MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\
             Content-Transfer-Encoding: 8bit\r\n\r\n{body}"
        );
        let mail = IncomingMail {
            id: MailId::Memory(n as u64 + 1),
            raw: raw.into_bytes(),
            received: now,
        };
        let t0 = Instant::now();
        let handled = office
            .handle(&mut store, &mail, &auth, now)
            .expect("handled");
        let secs = t0.elapsed().as_secs_f64();
        let out = store
            .read(|tx| tx.due_outgoing(now, 100_000))
            .expect("the outbox");
        let forward = out
            .iter()
            .skip(queued_before)
            .filter(|l| l.kind == "forward")
            .map(|l| l.raw.len())
            .max()
            .unwrap_or(0);
        let outcome = match handled {
            Handled::New {
                outcome: Outcome::Judged { .. },
                ..
            } => "judged".to_string(),
            Handled::New { outcome, .. } => format!("{outcome:?}"),
            Handled::Seen(_) => "seen".into(),
        };
        let real_mb = mail.raw.len() as f64 / 1e6;
        println!(
            "{real_mb:7.2} | {lines:>8} | {secs:7.3} | {:8.3} | {forward:>10} | {outcome}",
            secs / real_mb
        );
    }
}
