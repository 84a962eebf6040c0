//! Time controls of correspondence play (10.3, 10.4): thinking days, breaks, penalty days,
//! the 50-days-per-10-moves limit and the deadlines that follow from them.
//!
//! Pure: dates are calendar dates (`chrono::NaiveDate`) in the tournament's zone, and `now`
//! is always an argument. Knows nothing of letters, mail or storage.
#![warn(missing_docs)]
