//! Tournaments: round-robin pairings (Berger tables), standings and tie-breaks, breaks across
//! all of a player's games, adjudication (10.5).
//!
//! Pure: no I/O, no system clock.
