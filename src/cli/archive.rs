//! The secretary's archive: `backup FILE` (an online, checked copy of the database) and
//! `export mbox` (the correspondence of 10.1.13 as every mail client reads it).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use super::{CliError, CliResult, Context, admin::open_store, refused};
use crate::store::{self, Store, StoreError};

/// `zaochka backup FILE`: an online copy of the database by SQLite's backup API, safe while
/// the daemon runs (the copy holds every transaction committed when it was taken). The copy
/// is written beside FILE under a temporary name, checked (`PRAGMA integrity_check`, and it
/// must open as a zaochka database of this schema), and only then given the name FILE; FILE
/// must not exist (a backup never replaces a file). Restore: stop zaochka, put the copy in
/// place of the database file, delete the old `-wal` and `-shm` files beside it, start.
///
/// # Errors
/// Refused when FILE exists or its folder does not; broken when the database cannot be
/// read, the copy cannot be written, or the copy fails its check (then nothing is kept).
pub fn backup(ctx: &Context, file: &Path) -> CliResult {
    if file.symlink_metadata().is_ok() {
        return Err(refused(format!(
            "'{}' exists: a backup never replaces a file (give a new name)",
            file.display()
        )));
    }
    let name = file
        .file_name()
        .ok_or_else(|| refused(format!("'{}' is not a file name", file.display())))?;
    let folder = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    if !folder.is_dir() {
        return Err(refused(format!(
            "no folder '{}' to write the backup in",
            folder.display()
        )));
    }
    let mut partial_name = std::ffi::OsString::from(".");
    partial_name.push(name);
    partial_name.push(format!(".partial-{}", std::process::id()));
    let partial = folder.join(partial_name);
    let result = copy_and_check(ctx, &partial, file);
    // whatever happened, no temporary file is left behind
    let _ = std::fs::remove_file(&partial);
    let totals = result?;
    println!(
        "backed up {} to {} (integrity ok): tournaments {}, games {}, letters in {}, out {}",
        ctx.config.database.display(),
        file.display(),
        totals.tournaments,
        totals.games,
        totals.letters_in,
        totals.letters_out
    );
    Ok(())
}

/// Copies the database to `partial`, checks the copy, and links it as `file`.
fn copy_and_check(ctx: &Context, partial: &Path, file: &Path) -> Result<store::Totals, CliError> {
    let live = open_store(ctx)?;
    live.backup(partial)?;
    drop(live);
    let problems = store::integrity_check(partial)?;
    if !problems.is_empty() {
        return Err(CliError::Broken(anyhow::anyhow!(
            "the copy failed its integrity check, nothing kept: {}",
            problems.join("; ")
        )));
    }
    // Read-only: the copy stays one file, nothing made beside it.
    let open_error = |source| StoreError::Open {
        path: partial.to_owned(),
        source,
    };
    let conn =
        rusqlite::Connection::open_with_flags(partial, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(open_error)?;
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .map_err(open_error)?;
    if version != store::MIGRATIONS.len() as i64 {
        return Err(CliError::Broken(anyhow::anyhow!(
            "the copy has schema version {version}, not {}: nothing kept",
            store::MIGRATIONS.len()
        )));
    }
    let totals = Store::from_connection(conn)?.read(|tx| tx.totals())?;
    // A hard link never replaces a file made meanwhile (rename would).
    std::fs::hard_link(partial, file).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            refused(format!(
                "'{}' appeared while the backup was made: nothing replaced",
                file.display()
            ))
        } else {
            CliError::Broken(anyhow::anyhow!(
                "cannot name the backup '{}': {e}",
                file.display()
            ))
        }
    })?;
    Ok(totals)
}

/// One letter of the archive, for sorting: when, in before out at the same moment, its id.
struct Archived {
    at: DateTime<Utc>,
    is_out: bool,
    id: i64,
    sender: String,
    raw: Vec<u8>,
}

/// Whether our own letter about no one game is about tournament `cipher`: its subject
/// begins with the cipher (`ЗШ-2027-1: стартовый лист`, `ЗШ-2027-1, партия 7: …`).
fn names_tournament(raw: &[u8], cipher: &str) -> bool {
    let subject = mail_parser::MessageParser::new()
        .parse_headers(raw)
        .and_then(|m| m.subject().map(str::to_owned))
        .unwrap_or_default();
    subject
        .strip_prefix(cipher)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([':', ',', ' ']))
}

/// `zaochka export mbox CIPHER [NUMBER]`: every letter of the tournament (or of one game),
/// in and out, raw as it was received or sent, oldest first, as mboxrd on stdout. A letter
/// in belongs to a game when it was judged in it (moves, the arbiter's commands) or set
/// aside naming it; a letter out when it is about the game, and for the whole tournament
/// also zaochka's letters about no one game whose subject names the cipher (start lists,
/// digests, the final report). Letters out not sent yet (waiting, or given up) are left out
/// and counted on stderr. Each `From ` line has the sender (the player's address, or the
/// envelope sender of ours) and the postmark or the time it was sent.
///
/// # Errors
/// Refused for an unknown tournament or game; broken when the database or stdout fails.
pub fn mbox(ctx: &Context, cipher: &str, number: Option<u32>) -> CliResult {
    let store = open_store(ctx)?;
    let (letters, unsent) = store.read(|tx| -> Result<_, CliError> {
        let t = super::show::find_tournament(tx, cipher)?;
        let games = match number {
            Some(n) => vec![
                tx.find_game(t.id, n)?
                    .ok_or_else(|| refused(format!("no game {n} in tournament {}", t.cipher)))?,
            ],
            None => tx.games(t.id)?,
        };
        let mut letters = Vec::new();
        let mut outgoing = Vec::new();
        for g in &games {
            for l in tx.letters_of_game(g.id)? {
                letters.push(Archived {
                    at: l.received,
                    is_out: false,
                    id: l.id.0,
                    sender: l.sender,
                    raw: l.raw,
                });
            }
            outgoing.extend(tx.letters_out_of_game(g.id)?);
        }
        if number.is_none() {
            outgoing.extend(
                tx.letters_out_without_game()?
                    .into_iter()
                    .filter(|l| names_tournament(&l.raw, &t.cipher)),
            );
        }
        let mut unsent = 0;
        for l in outgoing {
            let Some(sent) = l.sent_at else {
                unsent += 1;
                continue;
            };
            letters.push(Archived {
                at: sent,
                is_out: true,
                id: l.id.0,
                sender: l.envelope_from,
                raw: l.raw,
            });
        }
        letters.sort_by_key(|l| (l.at, l.is_out, l.id));
        Ok((letters, unsent))
    })?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for l in &letters {
        crate::render::mbox::write_letter(&mut out, &l.sender, l.at, &l.raw)
            .map_err(|e| CliError::Broken(anyhow::anyhow!("write the mbox to stdout: {e}")))?;
    }
    out.flush()
        .map_err(|e| CliError::Broken(anyhow::anyhow!("write the mbox to stdout: {e}")))?;
    eprintln!(
        "{} letters written{}",
        letters.len(),
        if unsent > 0 {
            format!("; {unsent} not sent yet left out")
        } else {
            String::new()
        }
    );
    Ok(())
}
