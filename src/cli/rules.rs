//! `zaochka rules moves` and `zaochka rules perft`.

use std::io::{BufRead, Write};
use std::time::Instant;

use super::{CliResult, refused};
use crate::rules::{Position, Variant, perft as count_nodes};

fn variant(game: &str) -> Result<Variant, super::CliError> {
    game.parse::<Variant>().map_err(refused)
}

fn position(variant: Variant, fen: Option<&str>) -> Result<Position, super::CliError> {
    match fen {
        Some(f) => Position::from_fen(variant, f).map_err(refused),
        None => Ok(Position::start(variant)),
    }
}

/// The legal moves, space separated: algebraic names sorted as text, or on 10x10 (unless
/// `algebraic`) FMJD numeric notation sorted by the squares' numbers (`31-26 31-27 32-27 …`).
fn moves_line(pos: &Position, algebraic: bool) -> String {
    let moves = pos.legal_moves();
    if algebraic || pos.variant().board_size() != 10 {
        let mut names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        names.sort();
        return names.join(" ");
    }
    let mut numbered: Vec<(Vec<u8>, String)> = moves
        .iter()
        .map(|m| (m.path().iter().map(|s| s.number()).collect(), m.shown()))
        .collect();
    numbered.sort();
    numbered
        .into_iter()
        .map(|(_, text)| text)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `zaochka rules moves --game GAME [--fen FEN] [--algebraic]`.
///
/// Prints the legal moves in full notation, space separated: algebraic on 8x8, sorted as
/// text; FMJD numeric on 10x10 (`32-28`, `19x28`, every landing square), sorted by number,
/// or algebraic with `algebraic`. Without `--fen`, one line for each FEN line read from stdin.
///
/// # Errors
/// Refused for an unknown game or a bad FEN.
pub fn moves(game: &str, fen: Option<&str>, algebraic: bool) -> CliResult {
    let variant = variant(game)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Some(f) = fen {
        let pos = position(variant, Some(f))?;
        writeln!(out, "{}", moves_line(&pos, algebraic))?;
        return Ok(());
    }
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line?;
        let pos = Position::from_fen(variant, &line)
            .map_err(|e| refused(format!("line {}: {e}", n + 1)))?;
        writeln!(out, "{}", moves_line(&pos, algebraic))?;
    }
    Ok(())
}

/// The deepest perft the command runs. A kings-only position has a tree without end, so a
/// depth in the thousands overflowed the stack instead of running forever; the published
/// tables stop near 20.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// `zaochka rules perft --game GAME --depth N [--fen FEN]`.
///
/// Prints `nodes N`, then `seconds S` and `nodes/s R`, one per line.
///
/// # Errors
/// Refused for an unknown game, a bad FEN, or a depth over [`MAX_PERFT_DEPTH`].
pub fn perft(game: &str, depth: u32, fen: Option<&str>) -> CliResult {
    if depth > MAX_PERFT_DEPTH {
        return Err(refused(format!(
            "--depth {depth}: at most {MAX_PERFT_DEPTH} plies (every ply is a level of recursion, \
             and no start position is counted anywhere near that deep)"
        )));
    }
    let variant = variant(game)?;
    let pos = position(variant, fen)?;
    let start = Instant::now();
    let nodes = count_nodes(&pos, depth);
    let secs = start.elapsed().as_secs_f64();
    let rate = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    let mut out = std::io::stdout().lock();
    writeln!(out, "nodes {nodes}")?;
    writeln!(out, "seconds {secs:.3}")?;
    writeln!(out, "nodes/s {rate:.0}")?;
    Ok(())
}
