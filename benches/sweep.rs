//! A daemon pass with nothing due, against the number of games (issue 14): 1,000, 10,000 and
//! 100,000 games under way, none of them with a deadline today, an empty Maildir inbox and
//! outbox. The pass must cost the same at every size (< 10 ms): the sweep reads only the
//! games whose next deadline is due (the indexed `games.next_due`), the weekly digest and
//! the final report look at one game per tournament, the outbox count reads its index.
//!
//! ```text
//! cargo bench --bench sweep                  # 1k, 10k, 100k games
//! cargo bench --bench sweep -- --games 1000  # one size
//! ```
//!
//! The games are made as `tournament start` makes them (the same state document and next
//! deadline), in tournaments of 10 players (45 games each), without the start lists, so that
//! setting up 100,000 games takes seconds. The figure is the median of 30 passes after 3
//! warm-up passes, on a fixed clock two days after the start (a Wednesday: no digest due).
//! The last column is the process's peak memory (VmHWM) after that size, the set-up's
//! included: an upper bound on the daemon's with that many games under way.

use std::time::{Duration, Instant};

use chrono::{DateTime, Days, NaiveDate, TimeZone, Utc};
use zaochka::config::{Config, MaildirConfig, Transport};
use zaochka::daemon::{Clock, Daemon};
use zaochka::game::{ClockSettings, GameState, Player, next_due_day};
use zaochka::mail::maildir::Maildir;
use zaochka::mail::{AnyInbox, AnyOutbox};
use zaochka::office::Office;
use zaochka::rules::Variant;
use zaochka::store::{
    Durability, GameStatus, NewGame, NewTournament, Store, StoreError, TournamentStatus,
};

const PLAYERS: usize = 10;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let sizes: Vec<usize> = match args.iter().position(|a| a == "--games") {
        Some(i) => vec![args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(1000)],
        None => vec![1_000, 10_000, 100_000],
    };
    println!(
        "{:>8} {:>12} {:>12} {:>12} {:>10} {:>12}",
        "games", "median ms", "p90 ms", "setup s", "db MB", "peak RSS MB"
    );
    for n in sizes {
        one(n);
    }
}

fn one(n_games: usize) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("zaochka.sqlite");
    let mail = dir.path().join("mail");
    let config = Config {
        database: db.clone(),
        transport: Transport::Maildir(MaildirConfig {
            path: mail.clone(),
            poll: Duration::from_secs(1),
        }),
        ..Config::default()
    };
    let start = NaiveDate::from_ymd_opt(2026, 12, 1).expect("a date");
    let at = |d: NaiveDate| -> DateTime<Utc> {
        chrono_tz::Europe::Moscow
            .from_local_datetime(&d.and_hms_opt(12, 0, 0).expect("noon"))
            .earliest()
            .expect("noon in Moscow")
            .with_timezone(&Utc)
    };
    let now = at(start + Days::new(2));
    let setup = Instant::now();
    let mut store = Store::open(&db).expect("open the store");
    store
        .set_durability(Durability::Normal)
        .expect("synchronous = NORMAL for the set-up");
    let per_tournament = PLAYERS * (PLAYERS - 1) / 2;
    let tournaments = n_games.div_ceil(per_tournament);
    let settings = ClockSettings::default();
    store
        .with_transaction(|tx| {
            let mut made = 0;
            for t in 0..tournaments {
                let cipher = format!("ЗШ-2026-{}", t + 1);
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
                let mut players = Vec::new();
                for i in 0..PLAYERS {
                    let name = format!("Игрок{t} Номер{i}");
                    let email = format!("p{t:05}n{i}@players.test");
                    let pid = tx.add_player(id, &name, &email)?;
                    players.push(Player {
                        id: pid.0,
                        name,
                        email,
                    });
                }
                tx.set_tournament_status(id, TournamentStatus::Playing)?;
                let mut number = 0;
                for w in 0..PLAYERS {
                    for b in w + 1..PLAYERS {
                        if made == n_games {
                            break;
                        }
                        number += 1;
                        made += 1;
                        let state = GameState::new(
                            cipher.clone(),
                            number,
                            Variant::Russian,
                            players[w].clone(),
                            players[b].clone(),
                            start,
                            start + Days::new(365),
                        );
                        let json = serde_json::to_string(&state).expect("a state document");
                        tx.add_game(
                            &NewGame {
                                tournament: id,
                                number,
                                white: zaochka::store::PlayerId(players[w].id),
                                black: zaochka::store::PlayerId(players[b].id),
                                status: GameStatus::Playing,
                                state: &json,
                                next_due: next_due_day(&state, start, &settings),
                            },
                            at(start - Days::new(5)),
                        )?;
                    }
                }
            }
            Ok::<_, StoreError>(())
        })
        .expect("set up the games");
    store
        .set_durability(Durability::Full)
        .expect("synchronous = FULL, as the daemon runs");
    let setup_s = setup.elapsed().as_secs_f64();
    let next = store
        .read(|tx| tx.next_due_day())
        .expect("the next deadline");
    assert!(
        next.is_some_and(|d| d > now.date_naive() + Days::new(1)),
        "nothing may be due on the measured day (next deadline {next:?})"
    );

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let mut times = runtime.block_on(async {
        let maildir = Maildir::open(&mail).expect("the maildir");
        let mut daemon = Daemon::new(
            Office::new(config.clone()),
            store,
            AnyInbox::Maildir(maildir.clone()),
            AnyOutbox::Maildir(maildir),
            Clock::Fixed(now),
            Duration::from_millis(200),
        )
        .expect("the daemon");
        let mut times = Vec::new();
        for i in 0..33 {
            let t = Instant::now();
            let p = daemon
                .run(true, std::future::pending())
                .await
                .expect("a daemon pass");
            let ms = t.elapsed().as_secs_f64() * 1e3;
            assert_eq!(
                p.letters + p.sent + p.deadlines,
                0,
                "the pass found work: {p:?}"
            );
            if i >= 3 {
                times.push(ms);
            }
        }
        times
    });
    times.sort_by(f64::total_cmp);
    let size = std::fs::metadata(&db).map(|m| m.len()).unwrap_or(0) as f64 / 1e6;
    // The process's peak memory so far (sizes run smallest first, the set-up included: an
    // upper bound on the daemon's with this many games).
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let peak_kb: f64 = status
        .lines()
        .find(|l| l.starts_with("VmHWM"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse().ok())
        .unwrap_or(0.0);
    println!(
        "{n_games:>8} {:>12.2} {:>12.2} {setup_s:>12.1} {size:>10.1} {:>12.1}",
        times[times.len() / 2],
        times[times.len() * 9 / 10],
        peak_kb / 1024.0
    );
}
