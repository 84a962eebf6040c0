//! The secretary's archive: `backup FILE` (an online, checked copy of the database).

use std::path::{Path, PathBuf};

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
