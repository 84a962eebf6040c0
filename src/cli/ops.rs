//! The commands that run the post office: `tournament start`, `run`, `demo` (the lead's file).

use super::{CliResult, refused};

/// `zaochka tournament start CIPHER`.
///
/// # Errors
/// Refused for an unknown tournament.
pub fn start(ctx: &super::Context, cipher: &str) -> CliResult {
    let _ = (ctx, cipher);
    Err(refused("tournament start: not built yet"))
}

/// `zaochka run [--once]`.
///
/// # Errors
/// Broken when the mailbox or the database fails.
pub fn run(ctx: &super::Context, once: bool) -> CliResult {
    let _ = (ctx, once);
    Err(refused("run: not built yet"))
}

/// `zaochka demo [DIR]`.
///
/// # Errors
/// Broken when the directory cannot be written.
pub fn demo(ctx: &super::Context, dir: Option<&std::path::Path>) -> CliResult {
    let _ = (ctx, dir);
    Err(refused("demo: not built yet"))
}
