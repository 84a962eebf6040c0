//! The commands that run the post office: `tournament start`, `run`, `demo`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, TimeZone, Utc};

use super::{CliError, CliResult, Context, refused};
use crate::config::{Config, Transport};
use crate::daemon::{Clock, Daemon, Pass};
use crate::mail::maildir::Maildir;
use crate::mail::{AnyInbox, AnyOutbox, open_transports};
use crate::office::{Office, OfficeError};
use crate::store::{NewTournament, Store, StoreError};

fn office_error(e: OfficeError) -> CliError {
    match e {
        OfficeError::Refused(m) => refused(m),
        other => CliError::Broken(other.into()),
    }
}

fn open_store(config: &Config) -> Result<Store, CliError> {
    Store::open(&config.database)
        .with_context(|| format!("database {}", config.database.display()))
        .map_err(CliError::Broken)
}

/// `zaochka tournament start CIPHER`: pairings and start lists (safe to repeat).
///
/// # Errors
/// Refused for an unknown tournament or too few players.
pub fn start(ctx: &Context, cipher: &str) -> CliResult {
    let mut store = open_store(&ctx.config)?;
    let office = Office::new(ctx.config.clone());
    let games = office
        .start_tournament(&mut store, cipher, ctx.now())
        .map_err(office_error)?;
    if games == 0 {
        println!("tournament {cipher} was already started; nothing changed");
    } else {
        println!(
            "tournament {cipher} started: {games} games; start lists queued (sent by `zaochka run`)"
        );
    }
    Ok(())
}

/// `zaochka run [--once]`: the daemon (stops on SIGTERM or Ctrl-C after the letter in hand).
///
/// # Errors
/// Broken when the mailbox or the database fails for good.
pub fn run(ctx: &Context, once: bool) -> CliResult {
    let store = open_store(&ctx.config)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("tokio runtime")
        .map_err(CliError::Broken)?;
    let pass = runtime.block_on(async {
        let (inbox, outbox) = open_transports(&ctx.config.transport, ctx.now)
            .context("mail transport")
            .map_err(CliError::Broken)?;
        let mut daemon = Daemon::new(
            Office::new(ctx.config.clone()),
            store,
            inbox,
            outbox,
            ctx.now.map(Clock::Fixed).unwrap_or(Clock::System),
            poll_of(&ctx.config),
        )
        .context("[auth]")
        .map_err(CliError::Broken)?;
        daemon
            .run(once, shutdown_signal())
            .await
            .map_err(CliError::Broken)
    })?;
    if once {
        println!(
            "letters {} (judged {}, seen before {}), deadlines {}, sent {}, send failures {}, waiting for the DNS {}",
            pass.letters,
            pass.judged,
            pass.seen,
            pass.deadlines,
            pass.sent,
            pass.send_failures,
            pass.waiting
        );
    }
    Ok(())
}

fn poll_of(config: &Config) -> Duration {
    match &config.transport {
        Transport::Maildir(m) => m.poll,
        Transport::Imap { imap, .. } => imap.poll,
    }
}

/// SIGTERM or Ctrl-C.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// `zaochka demo [DIR]`: a small tournament played through the real pipeline (Maildir
/// letters in, the office, the store, letters out) on a simulated clock.
///
/// # Errors
/// Broken when the directory cannot be written; refused when DIR holds something that is
/// not an earlier demo.
pub fn demo(ctx: &Context, dir: Option<&Path>) -> CliResult {
    let dir = dir
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("zaochka-demo"));
    super::demo::run(ctx, &dir)
}

/// One simulated step of the demo: letters delivered to the inbox, then one daemon pass at
/// `at`.
pub(crate) struct Step<'a> {
    pub at: DateTime<Utc>,
    pub title: &'a str,
    pub letters: Vec<(&'a str, String)>,
}

/// Runs one pass of the daemon over a Maildir at a fixed moment.
pub(crate) fn pass_at(
    config: &Config,
    store: Store,
    maildir: &Path,
    at: DateTime<Utc>,
) -> Result<(Store, Pass), CliError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("tokio runtime")
        .map_err(CliError::Broken)?;
    runtime.block_on(async {
        let inbox = Maildir::open(maildir)
            .map_err(|e| CliError::Broken(e.into()))?
            .with_received_override(Some(at));
        let outbox = Maildir::open(maildir).map_err(|e| CliError::Broken(e.into()))?;
        let mut daemon = Daemon::new(
            Office::new(config.clone()),
            store,
            AnyInbox::Maildir(inbox),
            AnyOutbox::Maildir(outbox),
            Clock::Fixed(at),
            Duration::from_millis(200),
        )
        .context("[auth]")
        .map_err(CliError::Broken)?;
        let pass = daemon
            .run(true, std::future::pending())
            .await
            .map_err(CliError::Broken)?;
        Ok((daemon.store, pass))
    })
}

/// Adds a tournament straight into the store (the demo's and tests' shortcut for
/// `tournament add` + `player add`).
pub(crate) fn seed_tournament(
    store: &mut Store,
    cipher: &str,
    name: &str,
    start: NaiveDate,
    end: NaiveDate,
    players: &[(&str, &str)],
    now: DateTime<Utc>,
) -> Result<(), CliError> {
    store
        .with_transaction(|tx| {
            if tx.find_tournament(cipher)?.is_some() {
                return Ok(());
            }
            let t = tx.add_tournament(
                &NewTournament {
                    cipher,
                    variant: "russian",
                    name,
                    start,
                    end,
                    tz: "Europe/Moscow",
                    settings: "{}",
                },
                now,
            )?;
            for (n, e) in players {
                tx.add_player(t, n, e)?;
            }
            Ok::<_, StoreError>(())
        })
        .map_err(|e| CliError::Broken(e.into()))
}

/// Noon in Moscow on a day.
pub(crate) fn moscow_noon(d: NaiveDate) -> DateTime<Utc> {
    chrono_tz::Europe::Moscow
        .from_local_datetime(&d.and_hms_opt(12, 0, 0).unwrap_or_default())
        .earliest()
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_else(|| d.and_hms_opt(9, 0, 0).unwrap_or_default().and_utc())
}
