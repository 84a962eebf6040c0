//! The configuration file (TOML) and its validated form, [`Config`].
//!
//! [`Config::default`] is DESIGN.md's built-in defaults (a fresh machine runs with no file):
//! database `./zaochka.sqlite`, the Maildir transport under `./mail`, mailbox
//! `zaochka@localhost`, arbiter `arbiter@localhost`, secretary `secretary@localhost`, Russian,
//! `Europe/Moscow`, and the rules' own numbers. `config.example.toml` lists every key with its
//! default. Relative paths are relative to the working directory.
//!
//! Passwords are never in the file: `password_env` names an environment variable and
//! `password_command` a shell command whose output is the password. [`Secret`] keeps them
//! out of `Debug` output and logs. Knows no mail or store code: the daemon turns these
//! settings into transports.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use chrono_tz::Tz;
use serde::Deserialize;

/// The file read when no `--config` is given, if it exists.
pub const DEFAULT_PATH: &str = "zaochka.toml";

/// A validated configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The federation's name, as letters sign it.
    pub federation: String,
    /// The language of outgoing letters.
    pub language: Language,
    /// The time zone tournaments count calendar days in, unless a tournament sets its own.
    pub time_zone: Tz,
    /// The SQLite database: the whole state.
    pub database: PathBuf,
    /// The tournament mailbox's address (`From:` of every letter zaochka sends).
    pub address: String,
    /// The display name with that address.
    pub display_name: String,
    /// The chief arbiter's address (overdue notices, adjudication, commands).
    pub arbiter: String,
    /// The chief secretary's address (results, breaks, standings).
    pub secretary: String,
    /// The address of the organisation that runs the tournament, which decides protests
    /// against an adjudication (10.5.7); none: the secretary's. See [`Config::organiser`].
    pub organiser_address: Option<String>,
    /// Where letters come from and go to.
    pub transport: Transport,
    /// Penalties, limits, points and deadlines.
    pub rules: RulesConfig,
    /// The arbiter's engine: endgame tables and thinking time.
    pub engine: EngineConfig,
    /// What the daemon takes on from a letter.
    pub limits: LimitsConfig,
    /// How a letter proves its sender.
    pub auth: AuthConfig,
    /// A folder of templates (`<lang>/<name>.txt`) that replace the built-in wording of the
    /// letters of those names; none: the built-in wording only.
    pub templates: Option<PathBuf>,
    /// The public pages the daemon keeps up to date.
    pub site: SiteConfig,
}

/// `[site]`: the tournaments' public pages (`zaochka export html`) kept up to date by the
/// daemon.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SiteConfig {
    /// The folder the daemon rewrites the pages in (`DIR/<cipher>/index.html`, …) after
    /// every pass that changed something; none: no pages.
    pub dir: Option<PathBuf>,
}

/// `[engine]`: the engine behind `zaochka analyse` and the adjudication package (10.5.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineConfig {
    /// The folder `zaochka tables build` wrote the endgame tables to; none: no tables.
    pub tables: Option<PathBuf>,
    /// Seconds the engine thinks about one position.
    pub seconds: u32,
    /// The deepest search, in plies (1..=100); it stops at `seconds` or this depth,
    /// whichever comes first. A depth alone makes the verdict repeatable.
    pub depth: u32,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            tables: None,
            seconds: 30,
            depth: 100,
        }
    }
}

/// `[limits]`: what the daemon takes on from one letter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitsConfig {
    /// A letter larger than this many bytes (as received, attachments included) is kept in
    /// the archive unread, and its sender is told to send the moves as a short text letter.
    pub letter_bytes: usize,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        LimitsConfig {
            letter_bytes: 10 * 1024 * 1024,
        }
    }
}

/// How a letter proves its sender, on top of coming from the registered address (`[auth]`
/// `senders`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Senders {
    /// A DKIM signature that verifies, made by the From address's domain (`d=` equal to it,
    /// or DMARC-aligned with it), checked inside zaochka (the default).
    #[default]
    Dkim,
    /// The Authentication-Results fields that the federation's own MX adds
    /// ([`AuthConfig::authserv_id`]).
    Authres,
    /// The registered address alone (a closed network, a test rig).
    Address,
}

impl fmt::Display for Senders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Senders::Dkim => "dkim",
            Senders::Authres => "authres",
            Senders::Address => "address",
        })
    }
}

/// `[auth]`: who may move a game.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AuthConfig {
    /// The proof asked of a letter.
    pub senders: Senders,
    /// The authserv-id of the MX's Authentication-Results fields (`senders = "authres"`).
    pub authserv_id: String,
    /// Domains whose players' mail is accepted on the address alone (lower case). Officials'
    /// commands never fall under it.
    pub unsigned_domains: Vec<String>,
    /// A file of DNS TXT records (`NAME TEXT` lines) used instead of DNS; `None`: DNS.
    pub dns_records: Option<PathBuf>,
}

/// The language of outgoing letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Language {
    /// Russian (the default).
    #[default]
    Ru,
    /// English.
    En,
}

/// The transport of the tournament mailbox.
#[derive(Debug, Clone, PartialEq)]
// one value per process: the size difference costs nothing
#[allow(clippy::large_enum_variant)]
pub enum Transport {
    /// The embedded default: Maildir folders, no server.
    Maildir(MaildirConfig),
    /// A real mailbox: read over IMAP, send over SMTP.
    Imap {
        /// Reading.
        imap: ImapConfig,
        /// Sending.
        smtp: SmtpConfig,
    },
}

/// `[maildir]`.
#[derive(Debug, Clone, PartialEq)]
pub struct MaildirConfig {
    /// Holds `inbox/` and `outbox/`.
    pub path: PathBuf,
    /// How often the inbox is looked at.
    pub poll: Duration,
}

/// How a connection is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TlsMode {
    /// No TLS (loopback only).
    None,
    /// STARTTLS, required.
    Starttls,
    /// TLS from the first byte.
    Implicit,
}

/// `[imap]`.
#[derive(Debug, Clone, PartialEq)]
pub struct ImapConfig {
    /// Server host.
    pub host: String,
    /// Server port.
    pub port: u16,
    /// TLS mode.
    pub tls: TlsMode,
    /// Login.
    pub user: String,
    /// Where the password comes from.
    pub password: PasswordSource,
    /// PEM roots to trust instead of the built-in ones.
    pub ca_file: Option<PathBuf>,
    /// The mailbox letters arrive in.
    pub mailbox: String,
    /// Where processed letters are moved; `None` flags them instead.
    pub processed_folder: Option<String>,
    /// How long one IDLE lasts before it is re-issued.
    pub idle: Duration,
    /// The poll interval when the server has no IDLE.
    pub poll: Duration,
    /// Timeout of each network step.
    pub timeout: Duration,
}

/// `[smtp]`.
#[derive(Debug, Clone, PartialEq)]
pub struct SmtpConfig {
    /// Server host.
    pub host: String,
    /// Server port.
    pub port: u16,
    /// TLS mode.
    pub tls: TlsMode,
    /// Login for AUTH; `None` sends without authenticating.
    pub user: Option<String>,
    /// Where the password comes from.
    pub password: PasswordSource,
    /// PEM roots to trust instead of the built-in ones.
    pub ca_file: Option<PathBuf>,
    /// Timeout of each SMTP step.
    pub timeout: Duration,
}

/// Where a password comes from (never the file itself).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum PasswordSource {
    /// No password.
    #[default]
    None,
    /// The value of this environment variable.
    Env(String),
    /// The first line of this shell command's output (`sh -c`).
    Command(String),
}

/// A password read from its source; `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// The password itself, for the login only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

impl PasswordSource {
    /// Reads the password: `Ok(None)` for [`PasswordSource::None`].
    ///
    /// # Errors
    /// [`ConfigError::Password`] when the variable is unset or the command fails; the message
    /// never contains the command's output.
    pub fn resolve(&self, key: &str) -> Result<Option<Secret>, ConfigError> {
        let err = |reason: String| ConfigError::Password {
            key: key.to_owned(),
            reason,
        };
        match self {
            PasswordSource::None => Ok(None),
            PasswordSource::Env(var) => std::env::var(var)
                .map(|p| Some(Secret(p)))
                .map_err(|_| err(format!("environment variable '{var}' is not set"))),
            PasswordSource::Command(cmd) => {
                let out = std::process::Command::new("sh")
                    .arg("-c")
                    .arg(cmd)
                    .stderr(std::process::Stdio::inherit())
                    .output()
                    .map_err(|e| err(format!("cannot run '{cmd}': {e}")))?;
                if !out.status.success() {
                    return Err(err(format!("'{cmd}' failed ({})", out.status)));
                }
                let text = String::from_utf8(out.stdout)
                    .map_err(|_| err(format!("'{cmd}' printed a password that is not utf-8")))?;
                let line = text.lines().next().unwrap_or("");
                if line.is_empty() {
                    return Err(err(format!("'{cmd}' printed no password")));
                }
                Ok(Some(Secret(line.to_owned())))
            }
        }
    }
}

/// `[rules]`: the numbers of Section X, changeable by a tournament's regulations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesConfig {
    /// Penalty days for a letter with errors (10.2.11, 10.3.3).
    pub penalty_days: u32,
    /// Thinking days allowed per 10 moves, accumulated (10.3.5).
    pub days_per_10_moves: u32,
    /// Strict dates: a letter's written dates must agree with the postmarks; off, the
    /// postmarks count and a disagreement is only pointed out.
    pub strict_dates: bool,
    /// Points for a win.
    pub points_win: u32,
    /// Points for a draw.
    pub points_draw: u32,
    /// Points for a loss.
    pub points_loss: u32,
    /// Days without an answer after which a move is repeated to the partner (10.3.4).
    pub repeat_after_days: u32,
    /// Days after the start without a first move before white is asked (10.3.4).
    pub first_move_query_days: u32,
    /// Days before the time limit runs out at which a player is warned.
    pub warning_days: u32,
}

impl Default for RulesConfig {
    fn default() -> Self {
        RulesConfig {
            penalty_days: 6,
            days_per_10_moves: 50,
            strict_dates: false,
            points_win: 2,
            points_draw: 1,
            points_loss: 0,
            repeat_after_days: 40,
            first_move_query_days: 30,
            warning_days: 7,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            federation: "zaochka".into(),
            language: Language::Ru,
            time_zone: chrono_tz::Europe::Moscow,
            database: "./zaochka.sqlite".into(),
            address: "zaochka@localhost".into(),
            display_name: "zaochka".into(),
            arbiter: "arbiter@localhost".into(),
            secretary: "secretary@localhost".into(),
            organiser_address: None,
            transport: Transport::Maildir(MaildirConfig {
                path: "./mail".into(),
                poll: Duration::from_secs(1),
            }),
            rules: RulesConfig::default(),
            engine: EngineConfig::default(),
            limits: LimitsConfig::default(),
            auth: AuthConfig::default(),
            templates: None,
            site: SiteConfig::default(),
        }
    }
}

/// What went wrong with the configuration; always names the file or the key.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read.
    #[error("cannot read the config file '{path}': {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Not TOML, an unknown key, or a value of the wrong type (the message shows the line).
    #[error("config file '{path}': {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// The parser's message, naming the key and the line.
        message: String,
    },
    /// Two keys that must differ name the same address (e.g. the arbiter's is the mailbox's:
    /// the arbiter's commands would be taken for zaochka's own letters). Bad input rather
    /// than a broken setup: the CLI refuses it with exit 1.
    #[error("config keys '{key}' and '{other}' are both '{value}': {reason}")]
    Conflict {
        /// The key refused.
        key: String,
        /// The key it clashes with.
        other: String,
        /// The value both have.
        value: String,
        /// Why they must differ.
        reason: String,
    },
    /// A value of the right type that cannot be used.
    #[error("config key '{key}' = '{value}': {reason}")]
    Invalid {
        /// The key, e.g. `imap.port`.
        key: String,
        /// The value as written.
        value: String,
        /// Why it is refused.
        reason: String,
    },
    /// A password could not be read from its source.
    #[error("config key '{key}': {reason}")]
    Password {
        /// `imap.password_env`, `smtp.password_command`, ...
        key: String,
        /// What failed (never the password).
        reason: String,
    },
}

// ---------------------------------------------------------------- the file as written

#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct RawConfig {
    federation: String,
    language: String,
    time_zone: String,
    database: PathBuf,
    transport: String,
    mailbox: RawMailbox,
    officials: RawOfficials,
    maildir: RawMaildir,
    imap: RawImap,
    smtp: RawSmtp,
    rules: RawRules,
    engine: RawEngine,
    limits: RawLimits,
    auth: RawAuth,
    templates: String,
    site: RawSite,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct RawSite {
    dir: String,
}

#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct RawEngine {
    tables: String,
    seconds: u32,
    depth: u32,
}

impl Default for RawEngine {
    fn default() -> Self {
        let d = EngineConfig::default();
        RawEngine {
            tables: String::new(),
            seconds: d.seconds,
            depth: d.depth,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct RawLimits {
    letter_bytes: u64,
}

impl Default for RawLimits {
    fn default() -> Self {
        RawLimits {
            letter_bytes: LimitsConfig::default().letter_bytes as u64,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct RawAuth {
    senders: String,
    authserv_id: String,
    unsigned_domains: Vec<String>,
    dns_records: String,
}

impl Default for RawAuth {
    fn default() -> Self {
        RawAuth {
            senders: "dkim".into(),
            authserv_id: String::new(),
            unsigned_domains: Vec::new(),
            dns_records: String::new(),
        }
    }
}

impl RawAuth {
    fn validate(self) -> Result<AuthConfig, ConfigError> {
        let senders = match self.senders.trim() {
            "dkim" => Senders::Dkim,
            "authres" => Senders::Authres,
            "address" => Senders::Address,
            other => {
                return Err(invalid(
                    "auth.senders",
                    other,
                    "must be \"dkim\", \"authres\" or \"address\"",
                ));
            }
        };
        let authserv_id = self.authserv_id.trim().to_owned();
        if senders == Senders::Authres && authserv_id.is_empty() {
            return Err(invalid(
                "auth.authserv_id",
                "",
                "senders = \"authres\" needs the authserv-id your MX writes in its \
                 Authentication-Results fields (e.g. its host name)",
            ));
        }
        if authserv_id.contains(|c: char| c.is_whitespace() || c == ';') {
            return Err(invalid(
                "auth.authserv_id",
                &authserv_id,
                "an authserv-id has no spaces or ';'",
            ));
        }
        let mut unsigned_domains = Vec::new();
        for d in &self.unsigned_domains {
            let domain = d.trim().trim_end_matches('.').to_ascii_lowercase();
            if domain.is_empty()
                || domain.contains(|c: char| c.is_whitespace() || "@<>,;\"".contains(c))
                || !domain.contains('.') && domain != "localhost"
            {
                return Err(invalid(
                    "auth.unsigned_domains",
                    d,
                    "not a domain like example.org",
                ));
            }
            unsigned_domains.push(domain);
        }
        Ok(AuthConfig {
            senders,
            authserv_id,
            unsigned_domains,
            dns_records: optional_path(&self.dns_records),
        })
    }
}

#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct RawMailbox {
    address: String,
    name: String,
}

#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct RawOfficials {
    arbiter: String,
    secretary: String,
    organiser: String,
}

#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct RawMaildir {
    path: PathBuf,
    poll_seconds: u64,
}

#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct RawImap {
    host: String,
    port: Option<u16>,
    tls: TlsMode,
    user: String,
    password_env: String,
    password_command: String,
    ca_file: String,
    mailbox: String,
    processed_folder: String,
    idle_seconds: u64,
    poll_seconds: u64,
    timeout_seconds: u64,
}

#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct RawSmtp {
    host: String,
    port: Option<u16>,
    tls: TlsMode,
    user: String,
    password_env: String,
    password_command: String,
    ca_file: String,
    timeout_seconds: u64,
}

#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct RawRules {
    penalty_days: u32,
    days_per_10_moves: u32,
    strict_dates: bool,
    points_win: u32,
    points_draw: u32,
    points_loss: u32,
    repeat_after_days: u32,
    first_move_query_days: u32,
    warning_days: u32,
}

impl Default for RawConfig {
    fn default() -> Self {
        let d = Config::default();
        RawConfig {
            federation: d.federation,
            language: "ru".into(),
            time_zone: d.time_zone.name().into(),
            database: d.database,
            transport: "maildir".into(),
            mailbox: RawMailbox::default(),
            officials: RawOfficials::default(),
            maildir: RawMaildir::default(),
            imap: RawImap::default(),
            smtp: RawSmtp::default(),
            rules: RawRules::default(),
            engine: RawEngine::default(),
            limits: RawLimits::default(),
            auth: RawAuth::default(),
            templates: String::new(),
            site: RawSite::default(),
        }
    }
}

impl Default for RawMailbox {
    fn default() -> Self {
        let d = Config::default();
        RawMailbox {
            address: d.address,
            name: d.display_name,
        }
    }
}

impl Default for RawOfficials {
    fn default() -> Self {
        let d = Config::default();
        RawOfficials {
            arbiter: d.arbiter,
            secretary: d.secretary,
            organiser: String::new(),
        }
    }
}

impl Default for RawMaildir {
    fn default() -> Self {
        RawMaildir {
            path: "./mail".into(),
            poll_seconds: 1,
        }
    }
}

impl Default for RawImap {
    fn default() -> Self {
        RawImap {
            host: String::new(),
            port: None,
            tls: TlsMode::Implicit,
            user: String::new(),
            password_env: String::new(),
            password_command: String::new(),
            ca_file: String::new(),
            mailbox: "INBOX".into(),
            processed_folder: String::new(),
            idle_seconds: 25 * 60,
            poll_seconds: 60,
            timeout_seconds: 30,
        }
    }
}

impl Default for RawSmtp {
    fn default() -> Self {
        RawSmtp {
            host: String::new(),
            port: None,
            tls: TlsMode::Starttls,
            user: String::new(),
            password_env: String::new(),
            password_command: String::new(),
            ca_file: String::new(),
            timeout_seconds: 30,
        }
    }
}

impl Default for RawRules {
    fn default() -> Self {
        let d = RulesConfig::default();
        RawRules {
            penalty_days: d.penalty_days,
            days_per_10_moves: d.days_per_10_moves,
            strict_dates: d.strict_dates,
            points_win: d.points_win,
            points_draw: d.points_draw,
            points_loss: d.points_loss,
            repeat_after_days: d.repeat_after_days,
            first_move_query_days: d.first_move_query_days,
            warning_days: d.warning_days,
        }
    }
}

// ---------------------------------------------------------------- loading and validation

impl Config {
    /// Where protests against an adjudication go (10.5.7): `officials.organiser`, else the
    /// chief secretary, who speaks for the organisation that runs the tournament.
    #[must_use]
    pub fn organiser(&self) -> &str {
        self.organiser_address.as_deref().unwrap_or(&self.secretary)
    }

    /// Reads and validates a TOML file.
    ///
    /// # Errors
    /// [`ConfigError`] naming the file, the key and the reason.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_owned(),
            source,
        })?;
        Config::from_toml(&text).map_err(|e| match e {
            ConfigError::Parse { message, .. } => ConfigError::Parse {
                path: path.to_owned(),
                message,
            },
            other => other,
        })
    }

    /// The CLI's rule: the `--config` file if given, else `./zaochka.toml` if it exists, else
    /// the built-in defaults.
    ///
    /// # Errors
    /// As [`Config::load`].
    pub fn load_or_default(path: Option<&Path>) -> Result<Config, ConfigError> {
        match path {
            Some(path) => Config::load(path),
            None if Path::new(DEFAULT_PATH).exists() => Config::load(Path::new(DEFAULT_PATH)),
            None => Ok(Config::default()),
        }
    }

    /// Parses and validates TOML text (keys left out take their defaults).
    ///
    /// # Errors
    /// [`ConfigError::Parse`] (with an empty path) or [`ConfigError::Invalid`].
    pub fn from_toml(text: &str) -> Result<Config, ConfigError> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: PathBuf::new(),
            message: e.to_string().trim_end().to_owned(),
        })?;
        raw.validate()
    }
}

/// `tls = "none"` sends the password and the letters in clear: only to this machine.
fn clear_only_on_loopback(key: &str, host: &str, tls: TlsMode) -> Result<(), ConfigError> {
    if tls == TlsMode::None && !is_loopback(host) {
        return Err(invalid(
            key,
            "none",
            &format!(
                "no TLS sends the password and the letters in clear: only allowed for a \
                 loopback host (localhost, 127.0.0.0/8, ::1), not '{host}'; use starttls or implicit"
            ),
        ));
    }
    Ok(())
}

/// `localhost` (or a name under `.localhost`), an address in 127.0.0.0/8, or `::1`.
fn is_loopback(host: &str) -> bool {
    let host = host.trim().trim_start_matches('[').trim_end_matches(']');
    let name = host.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

fn invalid(key: &str, value: impl fmt::Display, reason: &str) -> ConfigError {
    ConfigError::Invalid {
        key: key.to_owned(),
        value: value.to_string(),
        reason: reason.to_owned(),
    }
}

/// A bare address `local@domain`: one `@`, both sides non-empty, no spaces or brackets.
fn address(key: &str, value: &str) -> Result<String, ConfigError> {
    let v = value.trim();
    let ok = match v.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && !domain.is_empty()
                && !domain.contains('@')
                && !v.contains(|c: char| c.is_whitespace() || "<>,;\"".contains(c))
        }
        None => false,
    };
    if ok {
        Ok(v.to_owned())
    } else {
        Err(invalid(
            key,
            value,
            "not an email address like name@example.org",
        ))
    }
}

fn positive(key: &str, value: u64) -> Result<Duration, ConfigError> {
    if value == 0 {
        Err(invalid(key, value, "must be at least 1"))
    } else {
        Ok(Duration::from_secs(value))
    }
}

fn password(section: &str, env: &str, command: &str) -> Result<PasswordSource, ConfigError> {
    match (env.trim(), command.trim()) {
        ("", "") => Ok(PasswordSource::None),
        (env, "") => Ok(PasswordSource::Env(env.to_owned())),
        ("", cmd) => Ok(PasswordSource::Command(cmd.to_owned())),
        _ => Err(invalid(
            &format!("{section}.password_command"),
            command,
            "give password_env or password_command, not both",
        )),
    }
}

fn optional_path(value: &str) -> Option<PathBuf> {
    (!value.trim().is_empty()).then(|| PathBuf::from(value.trim()))
}

fn required(key: &str, value: &str) -> Result<String, ConfigError> {
    if value.trim().is_empty() {
        Err(invalid(key, value, "required when transport = \"imap\""))
    } else {
        Ok(value.trim().to_owned())
    }
}

impl RawConfig {
    fn validate(self) -> Result<Config, ConfigError> {
        let language = match self.language.trim() {
            "ru" => Language::Ru,
            "en" => Language::En,
            other => return Err(invalid("language", other, "must be \"ru\" or \"en\"")),
        };
        let time_zone = Tz::from_str(self.time_zone.trim()).map_err(|_| {
            invalid(
                "time_zone",
                &self.time_zone,
                "not a time zone name like Europe/Moscow",
            )
        })?;
        if self.database.as_os_str().is_empty() {
            return Err(invalid("database", "", "must name a file"));
        }
        let transport = match self.transport.trim() {
            "maildir" => {
                if self.maildir.path.as_os_str().is_empty() {
                    return Err(invalid("maildir.path", "", "must name a folder"));
                }
                Transport::Maildir(MaildirConfig {
                    path: self.maildir.path,
                    poll: positive("maildir.poll_seconds", self.maildir.poll_seconds)?,
                })
            }
            "imap" => Transport::Imap {
                imap: self.imap.validate()?,
                smtp: self.smtp.validate()?,
            },
            other => {
                return Err(invalid(
                    "transport",
                    other,
                    "must be \"maildir\" or \"imap\"",
                ));
            }
        };
        let r = self.rules;
        for (key, value) in [
            ("rules.penalty_days", r.penalty_days),
            ("rules.days_per_10_moves", r.days_per_10_moves),
            ("rules.repeat_after_days", r.repeat_after_days),
            ("rules.first_move_query_days", r.first_move_query_days),
        ] {
            if value == 0 {
                return Err(invalid(key, value, "must be at least 1"));
            }
        }
        if r.warning_days >= r.days_per_10_moves {
            return Err(invalid(
                "rules.warning_days",
                r.warning_days,
                "must be less than rules.days_per_10_moves",
            ));
        }
        let e = self.engine;
        if e.seconds == 0 {
            return Err(invalid("engine.seconds", e.seconds, "must be at least 1"));
        }
        if !(1..=100).contains(&e.depth) {
            return Err(invalid("engine.depth", e.depth, "must be 1..100"));
        }
        if !(r.points_win > r.points_draw && r.points_draw >= r.points_loss) {
            return Err(invalid(
                "rules.points_draw",
                r.points_draw,
                "points must rank win > draw >= loss",
            ));
        }
        // Below this even a letter's headers do not fit.
        const LEAST_LETTER: u64 = 1024;
        let letter_bytes = self.limits.letter_bytes;
        if letter_bytes < LEAST_LETTER {
            return Err(invalid(
                "limits.letter_bytes",
                letter_bytes,
                "must be at least 1024 (a letter's headers alone take that)",
            ));
        }
        let site = optional_path(&self.site.dir);
        if let Some(dir) = &site {
            // The pages replace files of their names there: never in a folder of ours.
            let maildir = match &transport {
                Transport::Maildir(m) => Some(m.path.clone()),
                Transport::Imap { .. } => None,
            };
            for (key, path) in [
                ("templates", optional_path(&self.templates)),
                ("maildir.path", maildir),
            ] {
                if path.as_ref() == Some(dir) {
                    return Err(invalid(
                        "site.dir",
                        dir.display(),
                        &format!("is the folder of '{key}': give the pages a folder of their own"),
                    ));
                }
            }
            if dir == &self.database {
                return Err(invalid("site.dir", dir.display(), "is the database file"));
            }
        }
        let mailbox = address("mailbox.address", &self.mailbox.address)?;
        let arbiter = address("officials.arbiter", &self.officials.arbiter)?;
        let secretary = address("officials.secretary", &self.officials.secretary)?;
        let organiser = match self.officials.organiser.trim() {
            "" => None,
            o => Some(address("officials.organiser", o)?),
        };
        for (key, value) in [
            ("officials.arbiter", Some(&arbiter)),
            ("officials.secretary", Some(&secretary)),
            ("officials.organiser", organiser.as_ref()),
        ] {
            let Some(value) = value else { continue };
            if value.eq_ignore_ascii_case(&mailbox) {
                return Err(ConfigError::Conflict {
                    key: key.into(),
                    other: "mailbox.address".into(),
                    value: value.clone(),
                    reason: "letters from the mailbox's own address are never read, so an \
                             official there could give no command"
                        .into(),
                });
            }
        }
        Ok(Config {
            federation: self.federation.trim().to_owned(),
            language,
            time_zone,
            database: self.database,
            address: mailbox,
            display_name: self.mailbox.name.trim().to_owned(),
            arbiter,
            secretary,
            organiser_address: organiser,
            transport,
            rules: RulesConfig {
                penalty_days: r.penalty_days,
                days_per_10_moves: r.days_per_10_moves,
                strict_dates: r.strict_dates,
                points_win: r.points_win,
                points_draw: r.points_draw,
                points_loss: r.points_loss,
                repeat_after_days: r.repeat_after_days,
                first_move_query_days: r.first_move_query_days,
                warning_days: r.warning_days,
            },
            templates: optional_path(&self.templates),
            engine: EngineConfig {
                tables: optional_path(&e.tables),
                seconds: e.seconds,
                depth: e.depth,
            },
            limits: LimitsConfig {
                // A value beyond the address space is no limit at all.
                letter_bytes: usize::try_from(letter_bytes).unwrap_or(usize::MAX),
            },
            auth: self.auth.validate()?,
            site: SiteConfig { dir: site },
        })
    }
}

impl RawImap {
    fn validate(self) -> Result<ImapConfig, ConfigError> {
        let port = self.port.unwrap_or(match self.tls {
            TlsMode::Implicit => 993,
            TlsMode::None | TlsMode::Starttls => 143,
        });
        if port == 0 {
            return Err(invalid("imap.port", port, "must be 1..65535"));
        }
        let mailbox = required("imap.mailbox", &self.mailbox)?;
        let host = required("imap.host", &self.host)?;
        clear_only_on_loopback("imap.tls", &host, self.tls)?;
        Ok(ImapConfig {
            host,
            port,
            tls: self.tls,
            user: required("imap.user", &self.user)?,
            password: password("imap", &self.password_env, &self.password_command)?,
            ca_file: optional_path(&self.ca_file),
            mailbox,
            processed_folder: Some(self.processed_folder.trim().to_owned())
                .filter(|f| !f.is_empty()),
            idle: positive("imap.idle_seconds", self.idle_seconds)?,
            poll: positive("imap.poll_seconds", self.poll_seconds)?,
            timeout: positive("imap.timeout_seconds", self.timeout_seconds)?,
        })
    }
}

impl RawSmtp {
    fn validate(self) -> Result<SmtpConfig, ConfigError> {
        let port = self.port.unwrap_or(match self.tls {
            TlsMode::Implicit => 465,
            TlsMode::Starttls => 587,
            TlsMode::None => 25,
        });
        if port == 0 {
            return Err(invalid("smtp.port", port, "must be 1..65535"));
        }
        let user = Some(self.user.trim().to_owned()).filter(|u| !u.is_empty());
        let password = password("smtp", &self.password_env, &self.password_command)?;
        if user.is_some() != (password != PasswordSource::None) {
            return Err(invalid(
                "smtp.user",
                &self.user,
                "AUTH needs both smtp.user and a password (password_env or password_command)",
            ));
        }
        let host = required("smtp.host", &self.host)?;
        clear_only_on_loopback("smtp.tls", &host, self.tls)?;
        Ok(SmtpConfig {
            host,
            port,
            tls: self.tls,
            user,
            password,
            ca_file: optional_path(&self.ca_file),
            timeout: positive("smtp.timeout_seconds", self.timeout_seconds)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = include_str!("../config.example.toml");

    #[test]
    fn the_site_folder_is_off_by_default_and_never_a_folder_of_ours() {
        assert_eq!(Config::default().site.dir, None);
        let c = Config::from_toml("[site]\ndir = \" /var/www/zaochka \"\n").unwrap();
        assert_eq!(c.site.dir.as_deref(), Some(Path::new("/var/www/zaochka")));
        for (toml, key) in [
            ("[site]\ndir = \"./mail\"\n", "maildir.path"),
            (
                "templates = \"wording\"\n[site]\ndir = \"wording\"\n",
                "templates",
            ),
        ] {
            let err = Config::from_toml(toml).unwrap_err().to_string();
            assert!(
                err.starts_with("config key 'site.dir' = ") && err.contains(key),
                "{err}"
            );
        }
        let err = Config::from_toml("[site]\nfolder = \"x\"\n").unwrap_err();
        assert!(err.to_string().contains("unknown field"), "{err}");
    }

    #[test]
    fn no_tls_is_refused_unless_the_host_is_loopback() {
        let with = |host: &str, tls: &str| {
            Config::from_toml(&format!(
                "transport = \"imap\"\n[imap]\nhost = \"{host}\"\ntls = \"{tls}\"\n\
                 user = \"z\"\npassword_env = \"X\"\n[smtp]\nhost = \"{host}\"\ntls = \"{tls}\"\n"
            ))
        };
        for host in ["mail.example.org", "10.0.0.1", "127.example.org", "::2"] {
            let err = with(host, "none").unwrap_err().to_string();
            assert!(
                err.contains("imap.tls") && err.contains("loopback"),
                "{host}: {err}"
            );
        }
        for host in [
            "localhost",
            "127.0.0.1",
            "127.3.2.1",
            "::1",
            "[::1]",
            "mx.localhost",
        ] {
            assert!(with(host, "none").is_ok(), "{host}");
        }
        assert!(with("mail.example.org", "starttls").is_ok());
        let err = Config::from_toml(
            "transport = \"imap\"\n[imap]\nhost = \"localhost\"\ntls = \"none\"\n\
             user = \"z\"\npassword_env = \"X\"\n[smtp]\nhost = \"smtp.example.org\"\ntls = \"none\"\n",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("smtp.tls"), "{err}");
    }

    #[test]
    fn the_example_file_parses_to_the_built_in_defaults() {
        assert_eq!(Config::from_toml(EXAMPLE).unwrap(), Config::default());
    }

    #[test]
    fn an_empty_file_is_the_built_in_defaults() {
        assert_eq!(Config::from_toml("").unwrap(), Config::default());
    }

    #[test]
    fn the_example_switched_to_imap_uses_its_imap_and_smtp_defaults() {
        let text = EXAMPLE
            .replace("transport = \"maildir\"", "transport = \"imap\"")
            .replace("host = \"\"", "host = \"mail.example.org\"")
            .replace("user = \"\"", "user = \"zaochka@example.org\"")
            .replace("password_env = \"\"", "password_env = \"ZAOCHKA_PASSWORD\"");
        let config = Config::from_toml(&text).unwrap();
        let Transport::Imap { imap, smtp } = config.transport else {
            panic!("not imap: {:?}", config.transport)
        };
        assert_eq!(
            (imap.host.as_str(), imap.port, imap.tls),
            ("mail.example.org", 993, TlsMode::Implicit)
        );
        assert_eq!(imap.mailbox, "INBOX");
        assert_eq!(imap.processed_folder, None);
        assert_eq!(
            imap.password,
            PasswordSource::Env("ZAOCHKA_PASSWORD".into())
        );
        assert!(
            imap.idle < Duration::from_secs(29 * 60),
            "IDLE re-issued before 29 minutes"
        );
        assert_eq!((smtp.port, smtp.tls), (587, TlsMode::Starttls));
        assert_eq!(smtp.user.as_deref(), Some("zaochka@example.org"));
    }

    #[test]
    fn errors_name_the_key() {
        let cases = [
            ("language = \"de\"", "language"),
            ("time_zone = \"Mars/Olympus\"", "time_zone"),
            ("[officials]\narbiter = \"nobody\"", "officials.arbiter"),
            ("[officials]\norganiser = \"nobody\"", "officials.organiser"),
            ("[rules]\npenalty_days = 0", "rules.penalty_days"),
            ("[rules]\npoints_draw = 2", "rules.points_draw"),
            ("transport = \"pop3\"", "transport"),
            ("transport = \"imap\"", "imap.host"),
            ("[maildir]\npoll_seconds = 0", "maildir.poll_seconds"),
            ("[engine]\nseconds = 0", "engine.seconds"),
            ("[engine]\ndepth = 101", "engine.depth"),
        ];
        for (text, key) in cases {
            let err = Config::from_toml(text).unwrap_err().to_string();
            assert!(err.contains(&format!("'{key}'")), "{text}: {err}");
        }
    }

    #[test]
    fn the_letter_size_limit_defaults_to_10_mb_and_refuses_a_tiny_one() {
        assert_eq!(Config::default().limits.letter_bytes, 10_485_760);
        let c = Config::from_toml("[limits]\nletter_bytes = 2000000").unwrap();
        assert_eq!(c.limits.letter_bytes, 2_000_000);
        let err = Config::from_toml("[limits]\nletter_bytes = 10")
            .unwrap_err()
            .to_string();
        assert!(err.contains("'limits.letter_bytes'"), "{err}");
    }

    #[test]
    fn protests_go_to_the_organiser_else_to_the_secretary_10_5_7() {
        let c = Config::from_toml("[officials]\nsecretary = \"s@x.test\"").unwrap();
        assert_eq!(c.organiser(), "s@x.test");
        let c = Config::from_toml("[officials]\norganiser = \" o@x.test \"").unwrap();
        assert_eq!(c.organiser(), "o@x.test");
    }

    #[test]
    fn an_official_at_the_mailbox_address_is_a_conflict() {
        for text in [
            "[mailbox]\naddress = \"z@x.test\"\n[officials]\narbiter = \"Z@x.test\"",
            "[mailbox]\naddress = \"z@x.test\"\n[officials]\nsecretary = \"z@x.test\"",
            "[mailbox]\naddress = \"z@x.test\"\n[officials]\norganiser = \"z@x.test\"",
        ] {
            let err = Config::from_toml(text).unwrap_err();
            assert!(matches!(err, ConfigError::Conflict { .. }), "{text}: {err}");
            assert!(err.to_string().contains("'mailbox.address'"), "{err}");
        }
    }

    #[test]
    fn unknown_keys_and_wrong_types_are_refused_with_the_key_named() {
        let err = Config::from_toml("[rules]\npenalty_dayz = 6")
            .unwrap_err()
            .to_string();
        assert!(err.contains("penalty_dayz"), "{err}");
        let err = Config::from_toml("[rules]\npenalty_days = \"six\"")
            .unwrap_err()
            .to_string();
        assert!(err.contains("penalty_days"), "{err}");
    }

    #[test]
    fn the_engine_section_names_the_tables_folder() {
        let c = Config::from_toml("[engine]\ntables = \"/var/lib/zaochka/tables\"\nseconds = 5")
            .unwrap();
        assert_eq!(
            c.engine.tables.as_deref(),
            Some(Path::new("/var/lib/zaochka/tables"))
        );
        assert_eq!((c.engine.seconds, c.engine.depth), (5, 100));
    }

    #[test]
    fn loading_a_missing_file_names_it() {
        let err = Config::load(Path::new("/nonexistent/zaochka.toml")).unwrap_err();
        assert!(
            err.to_string().contains("/nonexistent/zaochka.toml"),
            "{err}"
        );
    }

    #[test]
    fn passwords_come_from_the_environment_or_a_command_and_are_redacted() {
        let from_cmd = PasswordSource::Command("printf 's3cret\\nrest'".into())
            .resolve("imap.password_command")
            .unwrap()
            .unwrap();
        assert_eq!(from_cmd.expose(), "s3cret");
        assert!(!format!("{from_cmd:?}").contains("s3cret"));
        let err = PasswordSource::Env("ZAOCHKA_TEST_SURELY_UNSET_VARIABLE".into())
            .resolve("imap.password_env")
            .unwrap_err();
        assert!(err.to_string().contains("imap.password_env"), "{err}");
        let err = PasswordSource::Command("exit 3".into())
            .resolve("smtp.password_command")
            .unwrap_err();
        assert!(err.to_string().contains("smtp.password_command"), "{err}");
    }

    #[test]
    fn both_password_sources_at_once_are_refused() {
        let text = "transport = \"imap\"\n[imap]\nhost = \"h\"\nuser = \"u\"\n\
                    password_env = \"A\"\npassword_command = \"b\"\n[smtp]\nhost = \"h\"";
        let err = Config::from_toml(text).unwrap_err().to_string();
        assert!(err.contains("imap.password_command"), "{err}");
    }

    #[test]
    fn senders_default_to_dkim_and_authres_needs_its_authserv_id() {
        assert_eq!(Config::default().auth.senders, Senders::Dkim);
        let err = Config::from_toml("[auth]\nsenders = \"authres\"")
            .unwrap_err()
            .to_string();
        assert!(err.contains("'auth.authserv_id'"), "{err}");
        let c = Config::from_toml(
            "[auth]\nsenders = \"authres\"\nauthserv_id = \"mx.federation.test\"\n\
             unsigned_domains = [\"Old-Mail.Example.\"]\ndns_records = \"/etc/zaochka/dns\"",
        )
        .unwrap();
        assert_eq!(c.auth.senders, Senders::Authres);
        assert_eq!(c.auth.authserv_id, "mx.federation.test");
        assert_eq!(
            c.auth.unsigned_domains,
            vec!["old-mail.example".to_string()]
        );
        assert_eq!(c.auth.dns_records, Some(PathBuf::from("/etc/zaochka/dns")));
        for bad in [
            "[auth]\nsenders = \"spf\"",
            "[auth]\nunsigned_domains = [\"user@example.org\"]",
        ] {
            let err = Config::from_toml(bad).unwrap_err().to_string();
            assert!(err.contains("'auth."), "{bad}: {err}");
        }
    }
}
