//! The command line (DESIGN.md "The command line", a contract): subcommands, options and
//! exit codes (0 done, 1 refused, 2 broken).

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod admin;
pub mod archive;
pub mod demo;
pub mod engine;
pub mod letter;
pub mod now;
pub mod ops;
pub mod roster;
pub mod rules;
pub mod show;

/// What went wrong in a command, and so which exit code it gets.
#[derive(Debug)]
pub enum CliError {
    /// Bad input: the message says what and why (exit 1).
    Refused(anyhow::Error),
    /// I/O, configuration or anything else broken (exit 2).
    Broken(anyhow::Error),
}

impl From<anyhow::Error> for CliError {
    fn from(e: anyhow::Error) -> Self {
        CliError::Broken(e)
    }
}

impl From<crate::store::StoreError> for CliError {
    fn from(e: crate::store::StoreError) -> Self {
        CliError::Broken(e.into())
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::Broken(e.into())
    }
}

/// What every command gets: the configuration and the clock.
#[derive(Debug)]
pub struct Context {
    /// The configuration (the file, or the built-in defaults).
    pub config: crate::config::Config,
    /// `--now`, when given: the clock reads this instead of the system clock.
    pub now: Option<chrono::DateTime<chrono::Utc>>,
    /// The letters' wording: built in, with the config's `templates` folder over it.
    pub templates: crate::render::Templates,
}

impl Context {
    /// The moment the command runs: `--now`, or the system clock.
    pub fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.now.unwrap_or_else(chrono::Utc::now)
    }

    /// The post office with this configuration and wording.
    pub fn office(&self) -> crate::office::Office {
        crate::office::Office::with_templates(self.config.clone(), self.templates.clone())
    }
}

/// Shorthand for a refusal with a message.
pub fn refused(msg: impl std::fmt::Display) -> CliError {
    CliError::Refused(anyhow::anyhow!("{msg}"))
}

/// The result of one command.
pub type CliResult = Result<(), CliError>;

/// zaochka: the tournament mailbox of a correspondence checkers federation.
#[derive(Debug, Parser)]
#[command(name = "zaochka", version, about)]
pub struct Cli {
    /// Configuration file (default: ./zaochka.toml if present, else built-in defaults).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,
    /// Read the clock as DATETIME: RFC 3339, or a date and minute in the tournament's zone.
    #[arg(
        long,
        global = true,
        value_name = "DATETIME",
        help = "Read the clock as DATETIME (RFC 3339 or YYYY-MM-DD[THH:MM] in the tournament's zone)"
    )]
    pub now: Option<String>,
    /// How log lines on stderr are written: `text` (default) or `json` (one object a line).
    /// `RUST_LOG` picks what is logged (default: `info` for `run`, `warn` otherwise).
    #[arg(long, global = true, value_name = "FORMAT", default_value = "text")]
    pub log_format: LogFormat,
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// How log lines are written (`--log-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// One human-readable line per event.
    Text,
    /// One JSON object per line (for journald's or a collector's parsing).
    Json,
}

/// Installs the log subscriber: stderr (journald keeps it under systemd), the filter from
/// `RUST_LOG` or else `default` (e.g. `info`), in the chosen format.
pub fn init_logging(format: LogFormat, default: &str) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(false);
    // a subscriber set already (a test harness) is left in place
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create or migrate the database (idempotent).
    Init,
    /// Tournaments: add one, start one, list them.
    Tournament {
        /// What to do.
        #[command(subcommand)]
        command: TournamentCommand,
    },
    /// Players: register one, list them, change one's address.
    Player {
        /// What to do.
        #[command(subcommand)]
        command: PlayerCommand,
    },
    /// The daemon: fetch, judge, send, sweep deadlines.
    Run {
        /// One pass, then exit.
        #[arg(long)]
        once: bool,
    },
    /// Games: the position, record and clocks of one game, or its time chart.
    Game {
        /// What to do.
        #[command(subcommand)]
        command: GameCommand,
    },
    /// The crosstable and standings of a tournament.
    Table {
        /// The tournament's cipher.
        cipher: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// An online copy of the database (SQLite's backup API), safe while the daemon runs,
    /// checked (integrity_check) before it is kept; FILE must not exist.
    Backup {
        /// The new file the copy goes to.
        file: std::path::PathBuf,
    },
    /// Exports: game records (PDN), the correspondence (mbox) and the public pages (HTML).
    Export {
        /// What to export.
        #[command(subcommand)]
        command: ExportCommand,
    },
    /// Imports: the running games of a tournament played elsewhere (PDN).
    Import {
        /// What to import.
        #[command(subcommand)]
        command: ImportCommand,
    },
    /// A whole small tournament played through the real pipeline on the embedded default,
    /// with a simulated clock.
    Demo {
        /// Where the demo's database and mail go (default: a new folder).
        dir: Option<std::path::PathBuf>,
    },
    /// The rules engine: legal moves and perft.
    Rules {
        /// What to do.
        #[command(subcommand)]
        command: RulesCommand,
    },
    /// Letters: read one letter without any game and print what was understood (JSON).
    Letter {
        /// What to do.
        #[command(subcommand)]
        command: LetterCommand,
    },
    /// The engine's verdict on a position for the side to move (win, draw or loss, proven
    /// or not) and its line: evidence for the arbiter (10.5.4), not the decision.
    Analyse {
        /// russian, hundred or giveaway.
        #[arg(long)]
        game: String,
        /// The position (PDN FEN).
        #[arg(long)]
        fen: String,
        /// Seconds to think (default: the config's `[engine] seconds`).
        #[arg(long)]
        seconds: Option<u32>,
        /// The deepest search in plies, 1..100 (default: the config's `[engine] depth`); a
        /// depth alone gives the same answer on every run.
        #[arg(long)]
        depth: Option<u32>,
        /// The endgame tables' folder (default: the config's `[engine] tables`).
        #[arg(long, value_name = "DIR")]
        tables: Option<std::path::PathBuf>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Endgame tables: build them.
    Tables {
        /// What to do.
        #[command(subcommand)]
        command: TablesCommand,
    },
}

/// `zaochka tables …`
#[derive(Debug, Subcommand)]
pub enum TablesCommand {
    /// Build (or resume building) the win/draw/loss tables to N pieces by retrograde
    /// analysis, every slice checked before it is written.
    Build {
        /// russian, hundred or giveaway.
        #[arg(long)]
        game: String,
        /// The most pieces on the board, 2..5.
        #[arg(long)]
        pieces: u32,
        /// The folder (the tables go to `DIR/<game>/`).
        #[arg(long, value_name = "DIR")]
        dir: std::path::PathBuf,
    },
}

/// `zaochka tournament …`
#[derive(Debug, Subcommand)]
pub enum TournamentCommand {
    /// Add a tournament (registration opens; safe to repeat with the same data).
    Add {
        /// The cipher players write in their letters (10.2.3), e.g. `ЗШ-2026-1`.
        cipher: String,
        /// russian, hundred or giveaway.
        #[arg(long)]
        game: String,
        /// The start date, YYYY-MM-DD (10.3.2).
        #[arg(long, value_name = "DATE")]
        start: String,
        /// The end-of-play date, YYYY-MM-DD (10.5).
        #[arg(long, value_name = "DATE")]
        end: String,
        /// The time zone days are counted in (default: the config's `time_zone`).
        #[arg(long, value_name = "ZONE")]
        tz: Option<String>,
        /// The tournament's name (default: the cipher).
        #[arg(long, value_name = "TEXT")]
        name: Option<String>,
    },
    /// Start a tournament: round-robin pairings (Berger tables), start lists by mail.
    Start {
        /// The tournament's cipher.
        cipher: String,
    },
    /// Every tournament: cipher, game, status, dates, players, games finished.
    List,
}

/// `zaochka player …`
#[derive(Debug, Subcommand)]
pub enum PlayerCommand {
    /// Register a player in a tournament that has not started (safe to repeat).
    Add {
        /// The tournament's cipher.
        cipher: String,
        /// "Фамилия Имя".
        #[arg(long)]
        name: String,
        /// The address the player writes from.
        #[arg(long, value_name = "ADDRESS")]
        email: String,
    },
    /// A tournament's players: name, address, games, finished, to move, former addresses.
    List {
        /// The tournament's cipher.
        cipher: String,
    },
    /// Change a player's address mid-tournament: his games follow it, only letters from the
    /// new address move them, his old letters stay his; he is told at both addresses.
    SetEmail {
        /// The tournament's cipher.
        cipher: String,
        /// The player's name as registered (letter case and ё/е ignored).
        name: String,
        /// The new address.
        email: String,
    },
}

/// `zaochka game …`
#[derive(Debug, Subcommand)]
pub enum GameCommand {
    /// The position diagram, record, clocks and status of a game.
    Show {
        /// The tournament's cipher.
        cipher: String,
        /// The game's number in the tournament.
        number: u32,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Table 2 of 10.3.6: the game's time chart.
    Timechart {
        /// The tournament's cipher.
        cipher: String,
        /// The game's number in the tournament.
        number: u32,
    },
}

/// `zaochka export …`
#[derive(Debug, Subcommand)]
pub enum ExportCommand {
    /// PDN 3.0 of one game or of all the tournament's games, on stdout.
    Pdn {
        /// The tournament's cipher.
        cipher: String,
        /// One game's number (default: every game).
        number: Option<u32>,
    },
    /// Every letter of the tournament (or of one game), in and out, raw as it was received
    /// or sent, oldest first, as an mbox (mboxrd) on stdout: any mail client opens it.
    Mbox {
        /// The tournament's cipher.
        cipher: String,
        /// One game's number (default: the whole tournament).
        number: Option<u32>,
    },
    /// The tournament's public pages as static, self-contained files in DIR (created when
    /// missing; our own files in it are replaced): index.html (crosstable, standings, games,
    /// breaks, dates) and game-N.html for each game (record, clocks, the board, a
    /// step-through of the moves; game-N.html#ply=K opens the position after ply K). Serve
    /// DIR with any web server, or open the files from disk.
    Html {
        /// The tournament's cipher.
        cipher: String,
        /// The folder the pages go to.
        dir: std::path::PathBuf,
        /// The pages' language (default: the config's `language`).
        #[arg(long, value_name = "ru|en")]
        lang: Option<String>,
    },
}

/// `zaochka import …`
#[derive(Debug, Subcommand)]
pub enum ImportCommand {
    /// The games of a tournament running elsewhere, with their clocks, into a tournament
    /// added with its players but not started: players matched by `[White]`/`[Black]` (case
    /// and ё/е ignored), every move checked, the clock from `[WhiteDays]` `[BlackDays]`
    /// `[WhitePenaltyDays]` `[BlackPenaltyDays]` `[Sent]`; the whole file or nothing; each
    /// player gets one letter with his games. The same file again changes nothing.
    Pdn {
        /// The tournament's cipher.
        cipher: String,
        /// The PDN file (UTF-8).
        file: std::path::PathBuf,
    },
}

/// `zaochka rules …`
#[derive(Debug, Subcommand)]
pub enum RulesCommand {
    /// Legal moves in full notation, sorted, space separated, one line per position: algebraic
    /// on 8x8 (`c3-d4`, `c3:e5:c7`), FMJD numeric on 10x10 (`32-28`, `19x28`).
    Moves {
        /// russian, hundred or giveaway.
        #[arg(long)]
        game: String,
        /// The position (PDN FEN); without it, FENs are read one per line from stdin.
        #[arg(long)]
        fen: Option<String>,
        /// Algebraic squares on 10x10 too (`c3-d4`, files a-k without j).
        #[arg(long)]
        algebraic: bool,
    },
    /// Count the leaf nodes of the move tree to a depth (routes with the same start, end
    /// and captured set count once).
    Perft {
        /// russian, hundred or giveaway.
        #[arg(long)]
        game: String,
        /// Depth in plies.
        #[arg(long)]
        depth: u32,
        /// The position (PDN FEN); default: the start position.
        #[arg(long)]
        fen: Option<String>,
    },
}

/// `zaochka letter …`
#[derive(Debug, Subcommand)]
pub enum LetterCommand {
    /// Read one letter (an RFC 5322 message, or `-` for stdin) and print JSON.
    Read {
        /// The file, or `-` for standard input.
        file: String,
    },
}

/// Parses the command line, runs the command and maps the outcome to an exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help and --version print and succeed; a bad command line is refused (exit 1),
        // as any other bad input (the contract keeps 2 for broken things).
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let default_level = if matches!(cli.command, Command::Run { .. }) {
        "info"
    } else {
        "warn"
    };
    init_logging(cli.log_format, default_level);
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Refused(e)) => {
            eprintln!("zaochka: {e:#}");
            ExitCode::from(1)
        }
        Err(CliError::Broken(e)) => {
            eprintln!("zaochka: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Runs one parsed command.
///
/// # Errors
/// [`CliError::Refused`] for bad input, [`CliError::Broken`] for anything else.
pub fn run(cli: Cli) -> CliResult {
    let config =
        crate::config::Config::load_or_default(cli.config.as_deref()).map_err(|e| match e {
            e @ crate::config::ConfigError::Conflict { .. } => CliError::Refused(e.into()),
            e => CliError::Broken(e.into()),
        })?;
    let now = match cli.now.as_deref() {
        Some(text) => Some(now::parse_now(text, config.time_zone).map_err(refused)?),
        None => None,
    };
    // An edited template is read and checked once, at start, so that a mistake stops here
    // (exit 2, with the file and line) rather than on a letter months later.
    let templates = match &config.templates {
        Some(dir) => crate::render::Templates::load(dir)
            .map_err(|e| CliError::Broken(anyhow::anyhow!("config key 'templates': {e}")))?,
        None => crate::render::Templates::builtin(),
    };
    let ctx = Context {
        config,
        now,
        templates,
    };
    match cli.command {
        Command::Init => admin::init(&ctx),
        Command::Tournament { command } => match command {
            TournamentCommand::Add {
                cipher,
                game,
                start,
                end,
                tz,
                name,
            } => admin::add_tournament(
                &ctx,
                &admin::TournamentArgs {
                    cipher: &cipher,
                    game: &game,
                    start: &start,
                    end: &end,
                    tz: tz.as_deref(),
                    name: name.as_deref(),
                },
            ),
            TournamentCommand::Start { cipher } => ops::start(&ctx, &cipher),
            TournamentCommand::List => roster::list_tournaments(&ctx),
        },
        Command::Player { command } => match command {
            PlayerCommand::Add {
                cipher,
                name,
                email,
            } => admin::add_player(&ctx, &cipher, &name, &email),
            PlayerCommand::List { cipher } => roster::list_players(&ctx, &cipher),
            PlayerCommand::SetEmail {
                cipher,
                name,
                email,
            } => roster::set_email(&ctx, &cipher, &name, &email),
        },
        Command::Run { once } => ops::run(&ctx, once),
        Command::Game { command } => match command {
            GameCommand::Show {
                cipher,
                number,
                json,
            } => show::game(&ctx, &cipher, number, json),
            GameCommand::Timechart { cipher, number } => show::timechart(&ctx, &cipher, number),
        },
        Command::Table { cipher, json } => show::table(&ctx, &cipher, json),
        Command::Export { command } => match command {
            ExportCommand::Pdn { cipher, number } => show::pdn(&ctx, &cipher, number),
            ExportCommand::Mbox { cipher, number } => archive::mbox(&ctx, &cipher, number),
            ExportCommand::Html { cipher, dir, lang } => {
                show::html(&ctx, &cipher, &dir, lang.as_deref())
            }
        },
        Command::Import { command } => match command {
            ImportCommand::Pdn { cipher, file } => ops::import_pdn(&ctx, &cipher, &file),
        },
        Command::Backup { file } => archive::backup(&ctx, &file),
        Command::Demo { dir } => ops::demo(&ctx, dir.as_deref()),
        Command::Rules { command } => match command {
            RulesCommand::Moves {
                game,
                fen,
                algebraic,
            } => rules::moves(&game, fen.as_deref(), algebraic),
            RulesCommand::Perft { game, depth, fen } => rules::perft(&game, depth, fen.as_deref()),
        },
        Command::Letter { command } => match command {
            LetterCommand::Read { file } => letter::read(&ctx.config, &file),
        },
        Command::Analyse {
            game,
            fen,
            seconds,
            depth,
            tables,
            json,
        } => engine::analyse(
            &ctx,
            &engine::AnalyseArgs {
                game: &game,
                fen: &fen,
                seconds,
                depth,
                tables: tables.as_deref(),
                json,
            },
        ),
        Command::Tables { command } => match command {
            TablesCommand::Build { game, pieces, dir } => engine::build_tables(&game, pieces, &dir),
        },
    }
}
