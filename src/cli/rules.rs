//! `zaochka rules moves` and `zaochka rules perft`.

use super::{CliResult, refused};

/// `zaochka rules moves --game GAME [--fen FEN]`.
///
/// # Errors
/// Refused for an unknown game or a bad FEN.
pub fn moves(game: &str, fen: Option<&str>) -> CliResult {
    let _ = (game, fen);
    Err(refused("rules moves: not built yet"))
}

/// `zaochka rules perft --game GAME --depth N [--fen FEN]`.
///
/// # Errors
/// Refused for an unknown game or a bad FEN.
pub fn perft(game: &str, depth: u32, fen: Option<&str>) -> CliResult {
    let _ = (game, depth, fen);
    Err(refused("rules perft: not built yet"))
}
