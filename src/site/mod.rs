//! The public pages of a tournament: static, self-contained HTML files that any web server
//! can serve (`zaochka export html CIPHER DIR`, and the daemon with `[site] dir`).
//!
//! A tournament's folder gets `index.html` (crosstable, standings, the games with their
//! status and whose move, the breaks, the dates) and `game-N.html` for each game (the record,
//! both clocks, the SVG board of [`crate::render::svg`], and a step-through of the moves by
//! an inline script, with the position of every ply in the page: `game-N.html#ply=N` opens
//! the position after ply N). No file, font or script is fetched from elsewhere.
//!
//! The wording is the minijinja templates under `templates/html/` (built in; the config's
//! `templates` folder may replace them, `DIR/html/…`). What the pages show is computed by
//! [`view`], the same code as `zaochka table` and `zaochka game show`.
//!
//! Each file is written to a temporary name beside it and renamed over the old one, so a
//! web server serves the old page or the new one, never half of one; a page whose text has
//! not changed is left alone. Only our own names are written (`index.html`, `game-N.html`);
//! nothing else in the folder is touched.
//!
//! Players' addresses, their proposed variants (conditional moves, 10.2.7) and the
//! adjudication papers are private to the players and officials: the pages never show them.

pub mod pages;
pub mod view;

use std::io::Write as _;
use std::path::{Path, PathBuf};

use chrono::{DateTime, NaiveDate, Utc};
use chrono_tz::Tz;

use crate::config::Language;
use crate::render::{RenderError, Templates};
use crate::store::{Store, StoreError, Tournament, TournamentId, Tx};

pub use pages::Page;
pub use view::ViewError;

/// What can go wrong while making or writing the pages.
#[derive(Debug, thiserror::Error)]
pub enum SiteError {
    /// No tournament has this cipher.
    #[error("no tournament '{0}'")]
    UnknownTournament(String),
    /// The folder exists and is not a folder.
    #[error("'{0}' is not a directory")]
    NotADirectory(PathBuf),
    /// The database cannot be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored game or tournament that cannot be shown.
    #[error(transparent)]
    View(#[from] ViewError),
    /// A page template failed.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// A file cannot be written.
    #[error("cannot write '{path}': {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
}

/// What a write of the pages did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Written {
    /// Pages made.
    pub pages: usize,
    /// Of those, files written (new or changed); the others were already the same.
    pub changed: usize,
}

/// The day the pages are made on: `now` in the tournament's zone (the config's when the
/// stored one is unknown).
fn today(t: &Tournament, fallback: Tz, now: DateTime<Utc>) -> NaiveDate {
    let tz: Tz = t.tz.parse().unwrap_or(fallback);
    now.with_timezone(&tz).date_naive()
}

/// Every page of tournament `t`, read in `tx`, as of `now`.
///
/// # Errors
/// [`SiteError`] when the store, a stored game or a template fails.
pub fn pages_of(
    tx: &Tx<'_>,
    t: &Tournament,
    templates: &Templates,
    config: &crate::config::Config,
    lang: Language,
    now: DateTime<Utc>,
) -> Result<Vec<Page>, SiteError> {
    let day = today(t, config.time_zone, now);
    let table = view::table_of(tx, t)?;
    let settings = view::settings_of(t)?;
    let mut out = vec![pages::index(
        templates,
        &config.federation,
        t,
        &table,
        day,
        lang,
    )?];
    for (_, state, _, _) in &table.games {
        out.push(pages::game(
            templates,
            &config.federation,
            t,
            &settings.clock,
            state,
            day,
            lang,
        )?);
    }
    Ok(out)
}

/// Makes `dir` a folder we may write in: created when missing, refused when it is a file.
///
/// # Errors
/// [`SiteError::NotADirectory`], or [`SiteError::Io`] when it cannot be created.
pub fn prepare_dir(dir: &Path) -> Result<(), SiteError> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(SiteError::NotADirectory(dir.to_owned())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).map_err(|source| SiteError::Io {
                path: dir.to_owned(),
                source,
            })
        }
        Err(source) => Err(SiteError::Io {
            path: dir.to_owned(),
            source,
        }),
    }
}

/// Writes `text` to `dir/file` atomically: a temporary file beside it, renamed over it, so
/// a reader sees the old file or the new one whole. Returns whether it wrote (a file
/// already holding `text` is left alone).
///
/// # Errors
/// [`SiteError::Io`] naming the file.
pub fn write_atomically(dir: &Path, file: &str, text: &str) -> Result<bool, SiteError> {
    let path = dir.join(file);
    if std::fs::read(&path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(false);
    }
    let io = |path: &Path, source| SiteError::Io {
        path: path.to_owned(),
        source,
    };
    // A dot name a web server does not list, unique to this process.
    let tmp = dir.join(format!(".{file}.{}.tmp", std::process::id()));
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.flush()
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(&tmp, e));
    }
    if let Err(e) = std::fs::rename(&tmp, &path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(&path, e));
    }
    Ok(true)
}

/// Writes the pages into `dir` (which must exist).
///
/// # Errors
/// [`SiteError::Io`] for the first file that cannot be written.
pub fn write_pages(dir: &Path, pages: &[Page]) -> Result<Written, SiteError> {
    let mut w = Written::default();
    for p in pages {
        w.pages += 1;
        w.changed += usize::from(write_atomically(dir, &p.file, &p.html)?);
    }
    Ok(w)
}

/// `zaochka export html CIPHER DIR`: every page of the tournament into `dir` (created when
/// missing), in `lang`, as of `now`.
///
/// # Errors
/// [`SiteError::UnknownTournament`], [`SiteError::NotADirectory`], or the store, a stored
/// game, a template or a file failing.
pub fn export(
    store: &Store,
    templates: &Templates,
    config: &crate::config::Config,
    cipher: &str,
    dir: &Path,
    lang: Language,
    now: DateTime<Utc>,
) -> Result<Written, SiteError> {
    let pages = store.read(|tx| -> Result<_, SiteError> {
        let t = tx
            .find_tournament(cipher.trim())?
            .ok_or_else(|| SiteError::UnknownTournament(cipher.trim().to_owned()))?;
        pages_of(tx, &t, templates, config, lang, now)
    })?;
    prepare_dir(dir)?;
    write_pages(dir, &pages)
}

/// The folder of a tournament under the site's folder: its cipher, with anything a path
/// or a URL would take otherwise (a slash, a leading dot, a space) made `_`.
pub fn folder_name(cipher: &str) -> String {
    let mut name: String = cipher
        .trim()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.starts_with('.') {
        name.insert(0, '_');
    }
    name
}

/// The daemon's `[site] dir`: the pages of the tournaments `ids` (or of every tournament,
/// when `None`) each into `dir/<cipher>/`, as of `now`, in the config's language. Each
/// tournament's pages are read in one snapshot and written after it; one tournament's
/// failure does not keep the others from being written: every failure is returned with
/// its cipher.
///
/// # Errors
/// [`SiteError`] when the list of tournaments cannot be read or `dir` cannot be made.
pub fn publish(
    store: &Store,
    templates: &Templates,
    config: &crate::config::Config,
    dir: &Path,
    ids: Option<&[TournamentId]>,
    now: DateTime<Utc>,
) -> Result<(Written, Vec<(String, SiteError)>), SiteError> {
    let tournaments = store.read(|tx| -> Result<Vec<Tournament>, SiteError> {
        Ok(tx
            .tournaments()?
            .into_iter()
            .filter(|t| ids.is_none_or(|ids| ids.contains(&t.id)))
            .collect())
    })?;
    prepare_dir(dir)?;
    let mut total = Written::default();
    let mut failed = Vec::new();
    for t in tournaments {
        let done = store
            .read(|tx| pages_of(tx, &t, templates, config, config.language, now))
            .and_then(|pages| {
                let sub = dir.join(folder_name(&t.cipher));
                prepare_dir(&sub)?;
                write_pages(&sub, &pages)
            });
        match done {
            Ok(w) => {
                total.pages += w.pages;
                total.changed += w.changed;
            }
            Err(e) => failed.push((t.cipher.clone(), e)),
        }
    }
    Ok((total, failed))
}

#[cfg(test)]
pub(crate) mod tests;
