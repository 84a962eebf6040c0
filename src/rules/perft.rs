//! Perft: the number of leaf nodes of the move tree to a depth.
//!
//! Convention "drop" (the published one): routes with the same start, end, captured set (and
//! crowning) count once. The last ply is counted in bulk (popcounts when there is no capture).

use super::board::Geo;
use super::movegen::{self, Bb, CMove, DistinctSink};
use super::position::with_geo;
use super::{Color, Move, Position};

fn inner<G: Geo>(bb: &Bb, white: bool, depth: u32, bufs: &mut [Vec<CMove>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (buf, rest) = match bufs.split_first_mut() {
        Some(x) => x,
        None => return 0,
    };
    if depth == 1 {
        return movegen::count_moves::<G>(bb, white, buf);
    }
    buf.clear();
    movegen::generate::<G, _>(bb, white, &mut DistinctSink(buf));
    let mut total = 0;
    for &m in buf.iter() {
        let child = movegen::apply(bb, white, m);
        total += inner::<G>(&child, !white, depth - 1, rest);
    }
    total
}

/// The number of leaf nodes `depth` plies below `pos` (perft(0) = 1).
///
/// ```
/// use zaochka::rules::{perft, Position, Variant};
/// assert_eq!(perft(&Position::start(Variant::Russian), 3), 302);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut bufs: Vec<Vec<CMove>> = (0..=depth).map(|_| Vec::with_capacity(64)).collect();
    let white = pos.side == Color::White;
    with_geo!(pos.variant, G => inner::<G>(&pos.bb, white, depth, &mut bufs))
}

/// Perft split by the first move: each distinct move (one route per "drop" class) with the
/// leaf count below it, for finding where two generators disagree.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out: Vec<(Move, u64)> = Vec::new();
    for m in pos.legal_moves() {
        if out.iter().any(|(seen, _)| seen.same_effect(&m)) {
            continue;
        }
        let n = perft(&pos.play(&m), depth.saturating_sub(1));
        out.push((m, n));
    }
    out
}
