//! Tournaments: round-robin pairings (Berger tables), standings and tie-breaks, breaks across
//! all of a player's games, adjudication (10.5).
//!
//! Pure: no I/O, no system clock.
//!
//! - [`berger`]: the pairings of a round robin by the Berger tables (FIDE Handbook C.05,
//!   Annex 1, the same tables as Appendix 1 of the Russian rules of the sport): rounds,
//!   boards, colours, game numbers; a bye for odd numbers of players.
//! - [`standings`]: points (2/1/0 by default), places with ties, the tie-breaks of Russian
//!   checkers tournaments (Sonneborn–Berger, wins, the result between the tied players),
//!   adjudicated and defaulted results marked, "minus" for both (10.5.8); a crosstable as
//!   plain text ([`Standings::to_text`]) and as serde data.
//! - [`player_name`]: a name fit to show partners (no bidi controls, at most
//!   [`NAME_MAX_CHARS`] characters).
//!
//! Players are known here by their start numbers 1..=n (drawn by lot before the start).

#![warn(missing_docs)]

pub mod adjudication;
pub mod digest;
mod name;
mod pairing;
mod standings;

pub use name::{NAME_MAX_CHARS, NameError, player_name, shown_name};
pub use pairing::{Bye, Pairing, PairingError, RoundRobin, berger};
pub use standings::{
    Cell, CrosstableLabels, Decision, GameResult, Outcome, Place, PointsSystem, Score, Standing,
    Standings, StandingsSettings, TieBreak, cell_text, standings,
};
