//! The daemon on a full inbox: letters judged per second through the whole pipeline (Maildir
//! in, MIME, the letter reader, the rules, the store on a real SQLite FILE with one
//! transaction per letter, the outgoing letters rendered and written to the Maildir outbox),
//! the database's size and the process's peak memory. Plain `std::time::Instant` timing.
//!
//! `cargo bench --bench daemon` (`-- --letters N` for a smaller run, `-- --tournaments N` for
//! a bigger federation: 1,000 give 10,000 games and 100,000 letters; `-- --normal` for
//! `synchronous = NORMAL` instead of the default one fsync per letter).
//!
//! The federation: 100 round-robin tournaments of 5 players (500 players, 10 games each,
//! 1,000 games), all started; every game gets 10 letters (5 moves a side, each letter
//! repeating the partner's last move as 10.2.9 asks, legal moves chosen by a fixed
//! pseudo-random sequence), 10,000 letters in all, delivered to `inbox/new` round by round
//! (every game's first letter, then every game's second, ...) as they would come in. The
//! daemon then runs passes (500 letters a fetch) until the inbox is empty, on a fixed clock.
//!
//! Every letter is DKIM-signed (the players' domain's fixed test key) and checked as the
//! default `[auth] senders = "dkim"` asks, the key read from a `dns_records` file.
//!
//! Measured 2026-12-02 on the 2-core build machine under a load average of 5 (other builds):
//! 42 letters/s with the default durability (one fsync per commit; every letter also writes
//! two letters to the Maildir outbox, each synced, and records both as sent), 76 letters/s
//! with `--normal`; about 190–215 letters per CPU-second (the rest is fsync); 10,000 letters
//! in, 20,000 forwards and receipts out; the database 184 MB (every letter kept raw, the
//! forwards with their PNG board); peak RSS (VmHWM) 17 MB.
//!
//! Measured 2026-12-07 on the same machine, quiet (load average 0.1): 270 letters/s, the
//! outbox's `new/` synced once per batch of sent letters and the batch recorded as sent in
//! one transaction (226 letters/s before, one commit per sent letter); database 152 MB; peak
//! RSS 21 MB. With the backlog committed in batches of 100 letters: 292 letters/s, 2.8 ms of
//! CPU a letter (perf: ext4 creating the outbox's files 28 %, the board PNG 22 %, RSA 10 %).
//! With the raw letters kept deflated (zlib level 6): database 86.2 MB for 10,000 letters
//! (8.6 KB a letter, from 15.2), 277–310 letters/s, 311–344 letters per CPU-second.
//!
//! The run also measures SQLite's floor on the same disk (transactions of 3 inserts, the
//! same durability) and prints the daemon's rate over it (`RATIO`), and the database's
//! growth a letter (`GROWTH`, the setup excluded). 2026-12-07, quiet: floor 6,294/s, ratio
//! 0.046, growth 7.9 KB a letter.
//!
//! 2026-12-07, later, load average 1.5: 498 letters/s, 585 per CPU-second, floor 7,029/s,
//! ratio 0.071, growth 7.3 KB a letter (now measured from a checkpointed WAL; the 7.9 KB above
//! read low), peak RSS 21.6 MB: a compressor kept for the thread, the board picture
//! unfiltered, the query planner stability guarantee, 16 KB pages for a new database.
//!
//! 2026-12-08, load average 0.5–1.0, another (faster) machine: 812–958 letters/s, 1,052–1,215
//! per CPU-second (0.82–0.95 ms a letter: 0.56–0.64 ms user, 0.26–0.33 ms system), ratio
//! 0.095–0.106, growth 7.4 KB a letter, peak RSS 22 MB; the build of the day before on the
//! same machine in the same hour: 675–680 letters/s, 806–814 per CPU-second, ratio
//! 0.074–0.085, 7.3 KB a letter. The board picture copied from squares drawn once,
//! flate2 on zlib-rs, every statement of the store's kept prepared. `--tournaments 1000`
//! (100,000 letters): 806 letters/s, 1,019 per CPU-second, ratio 0.094, 7.4 KB a letter,
//! peak RSS 43.9 MB.

use std::path::Path;
use std::time::{Duration, Instant};

use chrono::{DateTime, Days, NaiveDate, TimeZone, Utc};
use zaochka::config::{AuthConfig, Config, MaildirConfig, Senders, Transport};
use zaochka::daemon::{Clock, Daemon, Pass};
use zaochka::mail::AnyInbox;
use zaochka::mail::AnyOutbox;
use zaochka::mail::auth::Signer;
use zaochka::mail::maildir::{Maildir, deliver};
use zaochka::office::Office;
use zaochka::rules::{Position, Variant};
use zaochka::store::{Durability, NewTournament, Store, StoreError};

const PLAYERS: usize = 5;
const LETTERS_PER_GAME: usize = 10;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let max_letters: usize = args
        .iter()
        .position(|a| a == "--letters")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX);
    let normal = args.iter().any(|a| a == "--normal");
    // 1,000 tournaments: 10,000 games and 100,000 letters
    let tournaments: usize = args
        .iter()
        .position(|a| a == "--tournaments")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(100);

    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("zaochka.sqlite");
    let mail = dir.path().join("mail");
    let config = Config {
        address: "zaochka@tournament.test".into(),
        arbiter: "arbiter@federation.test".into(),
        secretary: "secretary@federation.test".into(),
        database: db.clone(),
        transport: Transport::Maildir(MaildirConfig {
            path: mail.clone(),
            poll: Duration::from_secs(1),
        }),
        auth: AuthConfig {
            senders: Senders::Dkim,
            dns_records: Some(dir.path().join("dns_records")),
            ..AuthConfig::default()
        },
        ..Config::default()
    };
    let signer = Signer::rsa_pem(
        "players.test",
        "s1",
        include_str!("../tests/data/auth/players.rsa.pem"),
    )
    .expect("the test key");
    std::fs::write(dir.path().join("dns_records"), signer.dns_record() + "\n")
        .expect("write dns_records");
    let start = NaiveDate::from_ymd_opt(2026, 12, 1).expect("a date");
    let at = |d: NaiveDate| -> DateTime<Utc> {
        chrono_tz::Europe::Moscow
            .from_local_datetime(&d.and_hms_opt(12, 0, 0).expect("noon"))
            .earliest()
            .expect("noon in Moscow")
            .with_timezone(&Utc)
    };
    let now = at(start + Days::new(2));

    // the federation, started
    let office = Office::new(config.clone());
    let mut store = Store::open(&db).expect("open the store");
    if normal {
        store
            .set_durability(Durability::Normal)
            .expect("synchronous = NORMAL");
    }
    let setup = Instant::now();
    let mut games = Vec::new();
    for t in 0..tournaments {
        let cipher = format!("ЗШ-2026-{}", t + 1);
        store
            .with_transaction(|tx| {
                let id = tx.add_tournament(
                    &NewTournament {
                        cipher: &cipher,
                        variant: "russian",
                        name: "Бенчмарк",
                        start,
                        end: start + Days::new(365),
                        tz: "Europe/Moscow",
                        settings: "{}",
                    },
                    at(start - Days::new(10)),
                )?;
                for i in 0..PLAYERS {
                    tx.add_player(
                        id,
                        &format!("Игрок{t} Номер{i}"),
                        &format!("p{t:03}n{i}@players.test"),
                    )?;
                }
                Ok::<_, StoreError>(())
            })
            .expect("seed a tournament");
        office
            .start_tournament(&mut store, &cipher, at(start - Days::new(5)))
            .expect("start a tournament");
        store
            .read(|tx| {
                let id = tx.find_tournament(&cipher)?.expect("the tournament").id;
                for g in tx.games(id)? {
                    games.push((
                        cipher.clone(),
                        g.number,
                        tx.player(g.white)?.email,
                        tx.player(g.black)?.email,
                    ));
                }
                Ok::<_, StoreError>(())
            })
            .expect("read the games");
    }
    println!(
        "federation: {tournaments} tournaments x {PLAYERS} players, {} games (set up in {:.1} s)",
        games.len(),
        setup.elapsed().as_secs_f64()
    );

    // the start lists go out first (not timed)
    let (store, _) = passes(&config, store, &mail, now);

    // the letters, round by round
    let write = Instant::now();
    let inbox = Maildir::open(&mail).expect("the maildir").inbox_dir();
    let mut positions: Vec<Position> = games
        .iter()
        .map(|_| Position::start(Variant::Russian))
        .collect();
    let mut last: Vec<Option<String>> = vec![None; games.len()];
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut n = 0usize;
    'rounds: for ply in 0..LETTERS_PER_GAME {
        for (g, (cipher, number, white, black)) in games.iter().enumerate() {
            if n == max_letters {
                break 'rounds;
            }
            let moves = positions[g].legal_moves();
            if moves.is_empty() {
                continue;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = &moves[(seed % moves.len() as u64) as usize];
            let text = mv.to_text(false).to_string();
            let numbered = if ply.is_multiple_of(2) {
                format!("{}. {text}", ply / 2 + 1)
            } else {
                format!("{}... {text}", ply / 2 + 1)
            };
            let from = if ply.is_multiple_of(2) { white } else { black };
            let mut body = format!("Здравствуйте!\r\nШифр: {cipher}\r\nПартия {number}\r\n");
            if let Some(prev) = &last[g] {
                body.push_str(&format!("Ваш ход: {prev}\r\n"));
            }
            body.push_str(&format!("Мой ход: {numbered}\r\nС уважением\r\n"));
            let raw = format!(
                "From: {from}\r\nTo: zaochka@tournament.test\r\nSubject: ход\r\n\
                 Message-ID: <bench.{n}@players.test>\r\nDate: {}\r\nMIME-Version: 1.0\r\n\
                 Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\
                 \r\n{body}",
                now.to_rfc2822()
            );
            let raw = signer.sign(raw.as_bytes()).expect("sign a letter");
            deliver(&inbox, &raw, Some(&format!("{n:06}.bench"))).expect("deliver a letter");
            positions[g] = positions[g].play(mv);
            last[g] = Some(numbered);
            n += 1;
        }
    }
    println!(
        "inbox: {n} letters written in {:.1} s",
        write.elapsed().as_secs_f64()
    );

    // the measurement
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    // the setup's pages moved into the file and the WAL emptied, so that the growth counts
    // the letters' pages and not what the WAL kept of the setup
    rusqlite::Connection::open(&db)
        .and_then(|c| c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())))
        .expect("checkpoint the setup");
    let db_before = size(&db) + size(&db.with_extension("sqlite-wal"));
    let started = Instant::now();
    let cpu_before = cpu_seconds();
    let (store, total) = passes(&config, store, &mail, now);
    let secs = started.elapsed().as_secs_f64();
    let cpu_after = cpu_seconds();
    let (user, system) = (cpu_after.0 - cpu_before.0, cpu_after.1 - cpu_before.1);
    let cpu = user + system;
    println!(
        "judged {} of {} letters ({} seen before), sent {} letters, {} send failures",
        total.judged, total.letters, total.seen, total.sent, total.send_failures
    );
    println!(
        "RESULT: {:.0} letters/s ({} letters in {secs:.1} s, durability {})",
        total.letters as f64 / secs,
        total.letters,
        if normal { "NORMAL" } else { "FULL" }
    );
    let floor = sqlite_floor(&dir.path().join("floor.sqlite"), normal);
    println!(
        "floor: {floor:.0} SQLite transactions/s (3 inserts each, WAL, the same durability, \
         the same disk, measured now); RATIO {:.3} letters/s per floor transaction/s",
        total.letters as f64 / secs / floor
    );
    println!(
        "cpu: {cpu:.1} s user+system, {:.0} letters per cpu-second, {:.2} ms a letter: {:.2} \
         ms user (the daemon's code and libraries), {:.2} ms system (the kernel: the \
         Maildir's files, fsync); the machine's load average was {}",
        total.letters as f64 / cpu,
        cpu * 1e3 / total.letters as f64,
        user * 1e3 / total.letters as f64,
        system * 1e3 / total.letters as f64,
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split_whitespace()
            .next()
            .unwrap_or("?")
    );
    let summary = store
        .read(|tx| tx.mail_summary())
        .expect("the mail summary");
    println!("outbox: {summary:?}");
    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    store
        .read(|tx| {
            for t in tx.tournaments()? {
                for g in tx.games(t.id)? {
                    for l in tx.letters_out_of_game(g.id)? {
                        *kinds.entry(l.kind).or_default() += 1;
                    }
                }
            }
            Ok::<_, StoreError>(())
        })
        .expect("count the letters out");
    println!("letters out by kind: {kinds:?}");
    drop(store);
    let wal = db.with_extension("sqlite-wal");
    println!(
        "database: {:.1} MB (+ {:.1} MB WAL); GROWTH {:.1} KB a letter (the letter in and \
         the letters out)",
        size(&db) as f64 / 1e6,
        size(&wal) as f64 / 1e6,
        (size(&db) + size(&wal)).saturating_sub(db_before) as f64 / 1e3 / total.letters as f64
    );
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    for key in ["VmHWM", "VmRSS"] {
        if let Some(line) = status.lines().find(|l| l.starts_with(key)) {
            println!(
                "memory: {}",
                line.split_whitespace().collect::<Vec<_>>().join(" ")
            );
        }
    }
}

/// SQLite's own floor on this disk now: committed transactions per second, each of three
/// 1 KB inserts (a letter in and its two letters out), WAL, `synchronous` FULL (NORMAL with
/// `--normal`), for two seconds. The daemon's rate over this is what the machine's noise
/// moves least.
fn sqlite_floor(path: &Path, normal: bool) -> f64 {
    let conn = rusqlite::Connection::open(path).expect("the floor's database");
    conn.pragma_update(None, "journal_mode", "wal")
        .expect("WAL");
    conn.pragma_update(None, "synchronous", if normal { "NORMAL" } else { "FULL" })
        .expect("synchronous");
    conn.execute_batch("CREATE TABLE t (id INTEGER PRIMARY KEY, raw BLOB NOT NULL)")
        .expect("the floor's table");
    let blob = vec![0x5a_u8; 1024];
    let started = Instant::now();
    let mut n = 0_u32;
    while started.elapsed() < Duration::from_secs(2) {
        conn.execute_batch("BEGIN IMMEDIATE").expect("begin");
        for _ in 0..3 {
            conn.execute("INSERT INTO t (raw) VALUES (?1)", [&blob])
                .expect("insert");
        }
        conn.execute_batch("COMMIT").expect("commit");
        n += 1;
    }
    f64::from(n) / started.elapsed().as_secs_f64()
}

/// This process's user and system CPU time so far, in seconds (`/proc/self/stat`, 100 ticks
/// a second).
fn cpu_seconds() -> (f64, f64) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // the fields after the command name, which is in parentheses
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<f64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name
    let tick = |i: usize| f.get(i).copied().unwrap_or(0.0) / 100.0;
    (tick(11), tick(12))
}

/// Daemon passes over the Maildir at a fixed moment until a pass finds nothing to read or
/// send.
fn passes(config: &Config, store: Store, mail: &Path, at: DateTime<Utc>) -> (Store, Pass) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async {
        let maildir = Maildir::open(mail)
            .expect("the maildir")
            .with_received_override(Some(at));
        let mut daemon = Daemon::new(
            Office::new(config.clone()),
            store,
            AnyInbox::Maildir(maildir.clone()),
            AnyOutbox::Maildir(maildir),
            Clock::Fixed(at),
            Duration::from_millis(200),
        )
        .expect("the sender check");
        let mut total = Pass::default();
        loop {
            let p = daemon
                .run(true, std::future::pending())
                .await
                .expect("a daemon pass");
            let idle = p.letters + p.seen + p.sent == 0;
            total += p;
            if idle {
                break;
            }
        }
        (daemon.store, total)
    })
}
