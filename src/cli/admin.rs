//! The organiser's set-up commands: `init`, `tournament add`, `player add`.
//!
//! Every one is safe to repeat: the same command with the same data says "already" and
//! succeeds; with different data it is refused, saying what differs.
//!
//! A tournament keeps its own copy of the config's `[rules]` section (as
//! [`TournamentSettings`], JSON in the `settings` column), so that editing the config later
//! does not change a tournament already under way.

use std::path::Path;
use std::str::FromStr;

use chrono::NaiveDate;
use chrono_tz::Tz;

use super::{CliError, CliResult, Context, refused};
pub use crate::office::settings::TournamentSettings;
use crate::store::{self, NewTournament, Store, Tournament, TournamentStatus};

/// `zaochka init`: creates the database, or brings it up to the current schema. Says which.
///
/// # Errors
/// Broken when the file cannot be created, opened or migrated.
pub fn init(ctx: &Context) -> CliResult {
    let path = &ctx.config.database;
    let before = schema_version_of(path)?;
    let store = Store::open(path)?;
    let after = store.schema_version()?;
    let shown = path.display();
    match before {
        None => println!("created database {shown} (schema version {after})"),
        Some(v) if v == after => {
            println!("database {shown} is up to date (schema version {after})")
        }
        Some(v) => println!("migrated database {shown} from schema version {v} to {after}"),
    }
    Ok(())
}

/// The schema version of an existing database file, without changing it; `None` when there
/// is no file yet.
fn schema_version_of(path: &Path) -> Result<Option<i64>, CliError> {
    if !path.exists() {
        return Ok(None);
    }
    let conn =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|e| {
                CliError::Broken(anyhow::anyhow!(
                    "cannot open database '{}': {e}",
                    path.display()
                ))
            })?;
    let v: i64 = conn
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .map_err(|e| {
            CliError::Broken(anyhow::anyhow!(
                "'{}' is not a zaochka database: {e}",
                path.display()
            ))
        })?;
    Ok(Some(v))
}

/// Opens the configured database, which must exist and be zaochka's (only `zaochka init`
/// makes one).
///
/// # Errors
/// Broken (exit 2) when there is no database, it is empty or not zaochka's, or it cannot be
/// opened.
pub fn open_store(ctx: &Context) -> Result<Store, CliError> {
    // missing, empty or not zaochka's: refused naming the path and `zaochka init`
    Ok(Store::open_existing(&ctx.config.database)?)
}

/// The arguments of `tournament add`, as typed.
#[derive(Debug, Clone, Copy)]
pub struct TournamentArgs<'a> {
    /// The cipher.
    pub cipher: &'a str,
    /// `russian`, `hundred` or `giveaway`.
    pub game: &'a str,
    /// `YYYY-MM-DD`.
    pub start: &'a str,
    /// `YYYY-MM-DD`.
    pub end: &'a str,
    /// An IANA zone name; default the config's.
    pub tz: Option<&'a str>,
    /// The name; default the cipher.
    pub name: Option<&'a str>,
}

fn date(what: &str, text: &str) -> Result<NaiveDate, CliError> {
    NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d").map_err(|_| {
        refused(format!(
            "{what} date '{text}' is not a date written YYYY-MM-DD"
        ))
    })
}

/// A cipher as players write it: not empty, no line breaks or other control characters.
fn cipher(text: &str) -> Result<&str, CliError> {
    let c = text.trim();
    if c.is_empty() {
        return Err(refused("the tournament cipher is empty"));
    }
    if c.chars().any(char::is_control) {
        return Err(refused(format!(
            "the tournament cipher '{}' contains a control character",
            c.escape_debug()
        )));
    }
    Ok(c)
}

/// `zaochka tournament add CIPHER --game GAME --start DATE --end DATE [--tz ZONE] [--name TEXT]`.
///
/// # Errors
/// Refused for an empty cipher, an unknown game or zone, bad dates, start after end, or a
/// tournament with this cipher and other data; broken when the database fails.
pub fn add_tournament(ctx: &Context, args: &TournamentArgs<'_>) -> CliResult {
    let cipher = cipher(args.cipher)?;
    let variant = crate::rules::Variant::from_str(args.game.trim()).map_err(refused)?;
    let start = date("the start", args.start)?;
    let end = date("the end-of-play", args.end)?;
    if start > end {
        return Err(refused(format!(
            "the start date {start} is after the end-of-play date {end}"
        )));
    }
    let tz = match args.tz {
        Some(z) => Tz::from_str(z.trim()).map_err(|_| {
            refused(format!(
                "unknown time zone '{z}' (a name like Europe/Moscow)"
            ))
        })?,
        None => ctx.config.time_zone,
    };
    let name = args.name.map(str::trim).unwrap_or(cipher);
    if name.is_empty() {
        return Err(refused("the tournament name is empty"));
    }
    let settings = TournamentSettings::from_config(&ctx.config.rules);
    let settings_json = settings.to_json();
    let new = NewTournament {
        cipher,
        variant: variant.name(),
        name,
        start,
        end,
        tz: tz.name(),
        settings: &settings_json,
    };
    let mut store = open_store(ctx)?;
    let added = store.with_transaction(|tx| -> Result<bool, CliError> {
        if let Some(old) = tx.find_tournament(cipher)? {
            let differences = differences(&old, &new, &settings);
            if differences.is_empty() {
                return Ok(false);
            }
            return Err(refused(format!(
                "tournament '{cipher}' already exists with other data: {}",
                differences.join("; ")
            )));
        }
        tx.add_tournament(&new, ctx.now())?;
        Ok(true)
    })?;
    if added {
        println!(
            "added tournament {cipher} ({}, {start} to {end}, {}): registration is open",
            variant.name(),
            tz.name()
        );
    } else {
        println!("tournament {cipher} already exists with the same data");
    }
    Ok(())
}

/// What differs between a stored tournament and the one asked for, as `what: stored, not
/// asked` items.
fn differences(
    old: &Tournament,
    new: &NewTournament<'_>,
    settings: &TournamentSettings,
) -> Vec<String> {
    let mut out = Vec::new();
    let mut check = |what: &str, stored: String, asked: String| {
        if stored != asked {
            out.push(format!("{what} is {stored}, not {asked}"));
        }
    };
    check("the game", old.variant.clone(), new.variant.to_owned());
    check("the name", old.name.clone(), new.name.to_owned());
    check("the start", old.start.to_string(), new.start.to_string());
    check("the end", old.end.to_string(), new.end.to_string());
    check("the time zone", old.tz.clone(), new.tz.to_owned());
    match TournamentSettings::of(old) {
        Ok(stored) if stored == *settings => {}
        _ => out.push(
            "the [rules] settings differ from the config's (the tournament keeps the ones it \
             was added with)"
                .to_owned(),
        ),
    }
    out
}

/// Whether `text` looks like a bare address `local@domain`: one `@`, both sides non-empty,
/// no blanks, brackets or separators (`name@localhost` is fine: the demo and tests use it).
fn is_email(text: &str) -> bool {
    match text.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && !domain.is_empty()
                && !domain.contains('@')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !domain.contains("..")
                && !text.contains(|c: char| {
                    c.is_whitespace() || c.is_control() || "<>,;:\"()[]\\".contains(c)
                })
        }
        None => false,
    }
}

/// A player's address as `player add` and `player set-email` take it: an address, and not
/// the mailbox's, the arbiter's or the secretary's (their letters are never a player's moves).
///
/// # Errors
/// Refused with the reason.
pub fn check_address(ctx: &Context, email: &str) -> Result<(), CliError> {
    if !is_email(email) {
        return Err(refused(format!(
            "'{email}' is not an email address like name@example.org"
        )));
    }
    let c = &ctx.config;
    for (address, whose) in [
        (
            &c.address,
            "the tournament mailbox's own address (mailbox.address)",
        ),
        (
            &c.arbiter,
            "the chief arbiter's address (officials.arbiter)",
        ),
        (
            &c.secretary,
            "the chief secretary's address (officials.secretary)",
        ),
    ] {
        if email.eq_ignore_ascii_case(address) {
            return Err(refused(format!(
                "'{email}' is {whose}: letters from it are never read as a player's moves"
            )));
        }
    }
    Ok(())
}

/// `zaochka player add CIPHER --name "Фамилия Имя" --email ADDRESS`.
///
/// # Errors
/// Refused for an unknown tournament, one already started, an empty or overlong name (bidi
/// controls and other invisible characters are removed first), a bad address, the mailbox's,
/// the arbiter's or the secretary's address, the address registered under another name, or
/// the name registered with another address; broken when the database fails.
pub fn add_player(ctx: &Context, cipher: &str, name: &str, email: &str) -> CliResult {
    let name = crate::tournament::player_name(name).map_err(refused)?;
    let email = email.trim();
    check_address(ctx, email)?;
    let mut store = open_store(ctx)?;
    let added = store.with_transaction(|tx| -> Result<bool, CliError> {
        let t = tx
            .find_tournament(cipher.trim())?
            .ok_or_else(|| refused(format!("no tournament '{}'", cipher.trim())))?;
        if let Some(p) = tx.find_player(t.id, email)? {
            if p.name == name {
                return Ok(false);
            }
            return Err(refused(format!(
                "'{email}' is already registered in {} as '{}', not '{name}'",
                t.cipher, p.name
            )));
        }
        if t.status != TournamentStatus::Registration {
            return Err(refused(format!(
                "tournament {} has started ({}): players are registered before the start",
                t.cipher, t.status
            )));
        }
        // Letters name the partner by surname, and the table by name: two players of one
        // tournament cannot share one.
        if let Some(p) = tx
            .players(t.id)?
            .into_iter()
            .find(|p| p.name.to_lowercase() == name.to_lowercase())
        {
            return Err(refused(format!(
                "'{name}' is already registered in {} with '{}'; two players of a tournament \
                 cannot have the same name (add a first name or an initial)",
                t.cipher, p.email
            )));
        }
        tx.add_player(t.id, &name, email).map_err(|e| match e {
            store::StoreError::PlayerExists { .. } => refused(e),
            e => e.into(),
        })?;
        Ok(true)
    })?;
    if added {
        println!("registered {name} <{email}> in {}", cipher.trim());
    } else {
        println!(
            "{name} <{email}> is already registered in {}",
            cipher.trim()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_need_a_local_part_and_a_domain() {
        assert!(is_email("ivanov@example.org"));
        assert!(is_email("a.b+c@mail.example.ru"));
        assert!(is_email("white@localhost"));
        for bad in [
            "ivanov",
            "@example.org",
            "ivanov@",
            "iv anov@example.org",
            "<ivanov@example.org>",
            "a@b@example.org",
            "ivanov@example..org",
        ] {
            assert!(!is_email(bad), "{bad}");
        }
    }
}
