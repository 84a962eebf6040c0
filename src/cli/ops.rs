//! The commands that run the post office: `tournament start`, `import pdn`, `run`, `demo`.

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

/// An office error as the command line reports it: a refusal (exit 1) or broken (exit 2).
pub(super) fn office_error(e: OfficeError) -> CliError {
    match e {
        OfficeError::Refused(m) => refused(m),
        other => CliError::Broken(other.into()),
    }
}

/// The database, which must exist and be zaochka's: only `init` creates one.
fn open_store(config: &Config) -> Result<Store, CliError> {
    Ok(Store::open_existing(&config.database)?)
}

/// One daemon per database: an exclusive lock (`flock`) on `DATABASE.lock`, held while
/// `run` runs and released by the kernel however the process ends; the file holds the
/// holder's process id, for the refusal of a second `run`.
#[derive(Debug)]
pub struct DaemonLock {
    _file: std::fs::File,
}

impl DaemonLock {
    /// The lock file of a database: beside it, `NAME.lock`.
    pub fn path_for(database: &Path) -> PathBuf {
        let mut name = database.as_os_str().to_owned();
        name.push(".lock");
        PathBuf::from(name)
    }

    /// Takes the lock, or says which process holds it.
    ///
    /// # Errors
    /// Broken (exit 2) when another process holds it or the file cannot be written.
    pub fn take(database: &Path) -> Result<DaemonLock, CliError> {
        use std::io::{Read, Seek, Write};
        let path = Self::path_for(database);
        let broken = |e: std::io::Error| {
            CliError::Broken(anyhow::anyhow!(
                "cannot take the daemon's lock '{}': {e}",
                path.display()
            ))
        };
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(broken)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = match holder.trim() {
                    "" => "another process".to_owned(),
                    pid => format!("process {pid}"),
                };
                return Err(CliError::Broken(anyhow::anyhow!(
                    "database '{}' is already served by {holder} (lock '{}'): one daemon per \
                     database; stop that one first",
                    database.display(),
                    path.display()
                )));
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(broken(e)),
        }
        file.set_len(0).map_err(broken)?;
        file.rewind().map_err(broken)?;
        writeln!(file, "{}", std::process::id()).map_err(broken)?;
        Ok(DaemonLock { _file: file })
    }
}

/// `zaochka tournament start CIPHER`: pairings and start lists (safe to repeat).
///
/// # Errors
/// Refused for an unknown tournament or too few players.
pub fn start(ctx: &Context, cipher: &str) -> CliResult {
    let mut store = open_store(&ctx.config)?;
    let office = ctx.office();
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

/// `3 letters`, `1 letter`: a count for the admin's summary lines (English).
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The most a PDN file to import may hold: a tournament's records are a few hundred KB.
const PDN_MAX_BYTES: u64 = 16 << 20;

/// `zaochka import pdn CIPHER FILE`: the games of a tournament running elsewhere become its
/// games (see [`Office::import_pdn`]); the players' letters are queued for `zaochka run`.
///
/// # Errors
/// Refused for a FILE that is not a regular UTF-8 file of at most 16 MB, and whatever the
/// import refuses (nothing is then imported); broken when the database fails.
pub fn import_pdn(ctx: &Context, cipher: &str, file: &Path) -> CliResult {
    let shown = file.display();
    let meta =
        std::fs::metadata(file).map_err(|e| refused(format!("cannot read '{shown}': {e}")))?;
    if !meta.is_file() {
        return Err(refused(format!("'{shown}' is not a regular file")));
    }
    if meta.len() > PDN_MAX_BYTES {
        return Err(refused(format!(
            "'{shown}' is {} bytes, more than a PDN file of a tournament can be (16 MB)",
            meta.len()
        )));
    }
    let raw = std::fs::read(file).map_err(|e| refused(format!("cannot read '{shown}': {e}")))?;
    let text = String::from_utf8(raw).map_err(|e| {
        refused(format!(
            "'{shown}' is not UTF-8 (byte {}): convert it first, e.g. `iconv -f cp1251 -t utf-8`",
            e.utf8_error().valid_up_to()
        ))
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut store = open_store(&ctx.config)?;
    let done = ctx
        .office()
        .import_pdn(&mut store, cipher, text, ctx.now())
        .map_err(office_error)?;
    if done.games == 0 {
        println!("tournament {cipher}: these games were imported before; nothing changed");
    } else {
        println!(
            "tournament {cipher}: {} imported, play goes on by mail; {} to the players queued (sent by `zaochka run`)",
            plural(done.games, "game", "games"),
            plural(done.letters, "letter", "letters")
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
    let _lock = DaemonLock::take(&ctx.config.database)?;
    if let Some(folder) = &ctx.config.templates {
        tracing::info!(
            folder = %folder.display(),
            edited = ?ctx.templates.edited(),
            "wording: the built-in templates, these replaced from the folder"
        );
    }
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
            ctx.office(),
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
            "letters {} (judged {}, seen before {}), deadlines {}, sent {}, send failures {}, \
             waiting to be sent {}, left unhandled {}, not letters {}, waiting for the DNS {}",
            pass.letters,
            pass.judged,
            pass.seen,
            pass.deadlines,
            pass.sent,
            pass.send_failures,
            pass.waiting,
            pass.unhandled,
            pass.skipped,
            pass.waiting_for_dns
        );
        if pass.has_unhandled() {
            let mut left = Vec::new();
            if pass.unhandled > 0 {
                left.push(format!(
                    "{} unhandled (kept in the mailbox, tried again by the next pass)",
                    plural(pass.unhandled, "letter", "letters")
                ));
            }
            if pass.skipped > 0 {
                left.push(format!(
                    "{} in the mailbox that are not readable letters (left where they are)",
                    plural(pass.skipped, "entry", "entries")
                ));
            }
            return Err(refused(format!(
                "the pass left {}; the log above says which and why",
                left.join(" and ")
            )));
        }
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
