//! The games: `russian` (8x8), `hundred` (10x10, international rules) and `giveaway`
//! (Russian move rules, reversed goal): squares, pieces, positions, legal moves, notation,
//! game records (semi-short notation and PDN 3.0), draw rules and perft.
//!
//! Pure and std-only: no I/O, no clock, no other crate.
#![warn(missing_docs)]

pub mod notation;

pub use notation::{MoveText, ParseMoveError, SquareText};
