//! Reading a player's letter: free text (already decoded from MIME) → [`Letter`]: cipher,
//! game, repeated moves, own moves, variants, dates, time used, offers, breaks, protests,
//! and every problem found with its clause. Reading never fails as a whole.
//!
//! Pure: takes `&str`, knows nothing of MIME, mail or storage.
#![warn(missing_docs)]
