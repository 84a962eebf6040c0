//! Applies a read [`crate::letter::Letter`] to a game: repetition, legality, variants, the
//! clock and the result, giving a verdict and the notices due (10.2, 10.3, 10.4).
//!
//! Pure: no I/O, no system clock. Knows nothing of mail or storage.
