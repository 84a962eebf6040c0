//! `zaochka letter read FILE|-`.

use super::{CliResult, refused};

/// `zaochka letter read FILE|-`: one letter, read without any game, as JSON on stdout.
///
/// # Errors
/// Broken when the file cannot be read.
pub fn read(file: &str) -> CliResult {
    let _ = file;
    Err(refused("letter read: not built yet"))
}
