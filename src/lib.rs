//! zaochka: the tournament mailbox of a correspondence checkers federation.
//!
//! Players send their moves by email; zaochka reads each letter, checks it against the game
//! and Section X of the Russian rules of the sport "checkers" (2022), answers errors with the
//! clause, forwards good moves to the partner, and keeps the clocks in days.
//!
//! # Architecture map
//!
//! | module | owns | may use |
//! |---|---|---|
//! | [`rules`] | squares, pieces, moves for `russian`, `hundred`, `giveaway`; notation; records (PDN); perft | std only |
//! | [`clock`] | time controls: thinking days, breaks, penalties, deadlines | `chrono` |
//! | [`letter`] | free text → [`letter::Letter`] (move texts, offers, dates, time used, unknown lines) | `rules` (notation syntax), `clock` (types) |
//! | [`game`] | applies a `Letter` to a game: repetition, legality, clock, result → verdict + notices due | `rules`, `clock`, `letter` |
//! | [`command`] | the arbiter's and secretary's command letters → [`command::Orders`] | `clock`, `letter`, `game` (types) |
//! | [`tournament`] | pairings (Berger tables), standings and tie-breaks, breaks across games, adjudication | `rules`, `clock`, `game` |
//! | [`engine`] | search, evaluation, endgame tables (built and probed), verdicts for the arbiter | `rules` |
//! | [`store`] | rusqlite: migrations, and one `Store` type that holds all the SQL | the five above, `zlib` |
//! | [`mail`] | `Inbox`/`Outbox` traits, `IncomingMail`; IMAP, SMTP, Maildir, memory; MIME reading; [`mail::auth`]: who sent a letter (DKIM with mail-auth, the MX's Authentication-Results) | no domain module (`auth`: mail types and `[auth]` only) |
//! | [`render`] | outgoing letters from `templates/` (ru, en) | `rules`, `clock`, `game`, `zlib` |
//! | [`config`] | TOML → validated `Config` | `clock` |
//! | [`office`] | one letter = one transaction: route, judge, word, queue; deadline sweeps; tournament start; the engine's tables and clock (`office::engine`) | all but `daemon`, `cli` |
//! | [`site`] | the public pages: `export html` and `[site] dir` (index, one page a game, SVG boards, written atomically); [`site::view`]: what `table`, `game show` and the pages show, computed once | all but `daemon`, `cli` |
//! | [`zlib`] | deflating and inflating with a compressor and a decompressor kept for the thread (the stored raw letters, written and read back; the board picture) | `flate2` only |
//! | [`daemon`] | tokio loop: fetch → letter → game → store → render → send | all |
//! | [`cli`] | subcommands, exit codes | all |
//!
//! `rules`, `clock`, `letter`, `game`, `tournament` and `engine` are pure: no I/O, no async,
//! no system clock (`now` is an argument; the engine's time box is a `Deadline` the caller
//! implements, its tables come in as bytes), and they never name the I/O crates. Nothing
//! depends on `daemon` or `cli`.

pub mod cli;
pub mod clock;
pub mod command;
pub mod config;
pub mod daemon;
pub mod engine;
pub mod game;
pub mod letter;
pub mod mail;
pub mod office;
pub mod render;
pub mod rules;
pub mod site;
pub mod store;
pub mod tournament;
pub mod zlib;
