//! The command line (DESIGN.md "The command line", a contract): subcommands, options and
//! exit codes (0 done, 1 refused, 2 broken).

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod demo;
pub mod letter;
pub mod now;
pub mod ops;
pub mod rules;

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
}

impl Context {
    /// The moment the command runs: `--now`, or the system clock.
    pub fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.now.unwrap_or_else(chrono::Utc::now)
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
    /// Read the clock as DATETIME (RFC 3339 or YYYY-MM-DD[THH:MM] in the tournament's zone).
    #[arg(long, global = true, value_name = "DATETIME")]
    pub now: Option<String>,
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
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
}

/// `zaochka rules …`
#[derive(Debug, Subcommand)]
pub enum RulesCommand {
    /// Legal moves in full notation, sorted, space separated, one line per position.
    Moves {
        /// russian, hundred or giveaway.
        #[arg(long)]
        game: String,
        /// The position (PDN FEN); without it, FENs are read one per line from stdin.
        #[arg(long)]
        fen: Option<String>,
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
    let cli = Cli::parse();
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
    let config = crate::config::Config::load_or_default(cli.config.as_deref())
        .map_err(|e| CliError::Broken(e.into()))?;
    let now = match cli.now.as_deref() {
        Some(text) => Some(now::parse_now(text, config.time_zone).map_err(refused)?),
        None => None,
    };
    let ctx = Context { config, now };
    let _ = &ctx;
    match cli.command {
        Command::Rules { command } => match command {
            RulesCommand::Moves { game, fen } => rules::moves(&game, fen.as_deref()),
            RulesCommand::Perft { game, depth, fen } => rules::perft(&game, depth, fen.as_deref()),
        },
        Command::Letter { command } => match command {
            LetterCommand::Read { file } => letter::read(&file),
        },
    }
}
