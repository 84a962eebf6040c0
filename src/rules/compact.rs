//! What an engine needs from the move generator, without allocating: the distinct legal
//! moves as compact moves in the caller's buffer, playing one, the move counts of both
//! sides, the pieces as bitboards or as masks of 0-based squares, and the squares of the
//! bits. Crate-private: `engine` builds its search and its endgame tables on it.
//!
//! A compact move ([`CMove`]) keeps what perft's "drop" convention keeps (start, end,
//! captured set, crowning): two routes with the same effect are one compact move, and two
//! different compact moves of a position lead to different positions.

use super::board::{bit_for, square_for};
use super::movegen::{self, DistinctSink};
pub(crate) use super::movegen::{Bb, CMove};
use super::position::with_geo;
use super::{Color, Move, Position, Variant};

impl Position {
    /// The distinct legal moves of the side to move into `buf` (cleared first), in the
    /// generator's order (deterministic for a position).
    pub(crate) fn compact_moves(&self, buf: &mut Vec<CMove>) {
        buf.clear();
        let white = self.side == Color::White;
        with_geo!(self.variant, G => movegen::generate::<G, _>(&self.bb, white, &mut DistinctSink(buf)));
    }

    /// The number of distinct legal moves `color` would have if it were to move (the side to
    /// move need not be `color`); `buf` is scratch space.
    pub(crate) fn move_count_of(&self, color: Color, buf: &mut Vec<CMove>) -> u32 {
        let white = color == Color::White;
        with_geo!(self.variant, G => movegen::count_moves::<G>(&self.bb, white, buf)) as u32
    }

    /// The pieces as bitboards (the generator's bit layout, see `board`).
    pub(crate) fn bits(&self) -> Bb {
        self.bb
    }

    /// A position from bitboards in the generator's layout; bits off the board are dropped,
    /// a bit in both colours is White's, and a king bit without a piece is dropped.
    pub(crate) fn from_bits(variant: Variant, side: Color, bb: Bb) -> Position {
        let valid = with_geo!(variant, G => <G as super::board::Geo>::VALID);
        let white = bb.white & valid;
        let black = bb.black & valid & !white;
        Position {
            variant,
            side,
            bb: Bb {
                white,
                black,
                kings: bb.kings & (white | black),
            },
        }
    }

    /// The pieces as masks of 0-based squares (bit `s` = PDN square `s + 1`):
    /// `[white, black, kings]`.
    pub(crate) fn square_masks(&self) -> [u64; 3] {
        let size = self.variant.board_size();
        let squares = |mut b: u64| {
            let mut m = 0u64;
            while b != 0 {
                let bit = b.trailing_zeros();
                b &= b - 1;
                if let Some(s) = square_for(size, bit) {
                    m |= 1u64 << s;
                }
            }
            m
        };
        [
            squares(self.bb.white),
            squares(self.bb.black),
            squares(self.bb.kings),
        ]
    }

    /// A position from masks of 0-based squares (see [`Position::square_masks`]), with the
    /// same clean-up as [`Position::from_bits`].
    pub(crate) fn from_square_masks(
        variant: Variant,
        side: Color,
        [white, black, kings]: [u64; 3],
    ) -> Position {
        let size = variant.board_size();
        let count = u32::from(variant.square_count());
        let bits = |mut m: u64| {
            let mut b = 0u64;
            while m != 0 {
                let s = m.trailing_zeros();
                m &= m - 1;
                if s < count {
                    b |= 1u64 << bit_for(size, s as u8);
                }
            }
            b
        };
        Position::from_bits(
            variant,
            side,
            Bb {
                white: bits(white),
                black: bits(black),
                kings: bits(kings),
            },
        )
    }

    /// The route of a compact move in full: the first legal route (in the order of
    /// [`Position::legal_moves`]) with its effect; `None` when it is not a move here.
    pub(crate) fn move_of(&self, m: CMove) -> Option<Move> {
        self.legal_moves().into_iter().find(|mv| mv.compact() == m)
    }
}

/// The bit of 0-based square `s` on a board of side `size`.
pub(crate) fn bit_of_square(size: u8, s: u8) -> u32 {
    bit_for(size, s)
}

/// The 0-based square of a bit on a board of side `size`, `None` for a ghost bit.
#[cfg(test)]
pub(crate) fn square_of_bit(size: u8, bit: u32) -> Option<u8> {
    square_for(size, bit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::perft;

    /// Perft by compact moves alone: what the engine's search walks.
    fn compact_perft(pos: &Position, depth: u32, bufs: &mut [Vec<CMove>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (buf, rest) = bufs.split_first_mut().unwrap();
        pos.compact_moves(buf);
        let moves = buf.clone();
        moves
            .iter()
            .map(|&m| compact_perft(&pos.play_compact(m), depth - 1, rest))
            .sum()
    }

    #[test]
    fn compact_moves_walk_the_same_tree_as_perft_in_every_game() {
        for (variant, fen, depth) in [
            (Variant::Russian, None, 6),
            (Variant::Hundred, None, 4),
            (Variant::Giveaway, None, 6),
            // kings, multi-captures and crowning in passing (tests/data/perft)
            (Variant::Russian, Some("B:W14,19,21,22,27:B1,15,K32"), 5),
            (Variant::Hundred, Some("W:WK47,K49:BK3,K12,K23,K38"), 3),
        ] {
            let pos = match fen {
                Some(f) => Position::from_fen(variant, f).unwrap(),
                None => Position::start(variant),
            };
            let mut bufs = vec![Vec::new(); depth as usize + 1];
            assert_eq!(
                compact_perft(&pos, depth, &mut bufs),
                perft(&pos, depth),
                "{variant} {fen:?}"
            );
        }
    }

    #[test]
    fn square_masks_round_trip_and_name_pdn_squares() {
        let p = Position::from_fen(Variant::Russian, "W:W21,K32:B1,K5").unwrap();
        let [w, b, k] = p.square_masks();
        assert_eq!(w, (1 << 20) | (1 << 31));
        assert_eq!(b, (1 << 0) | (1 << 4));
        assert_eq!(k, (1 << 31) | (1 << 4));
        assert_eq!(
            Position::from_square_masks(Variant::Russian, Color::White, [w, b, k]),
            p
        );
        let h = Position::start(Variant::Hundred);
        let masks = h.square_masks();
        assert_eq!(masks[0], ((1u64 << 20) - 1) << 30);
        assert_eq!(
            Position::from_square_masks(Variant::Hundred, Color::White, masks),
            h
        );
        for s in 0..50u8 {
            assert_eq!(square_of_bit(10, bit_of_square(10, s)), Some(s));
        }
    }

    #[test]
    fn move_counts_of_either_side_ignore_whose_turn_it_is() {
        let start = Position::start(Variant::Russian);
        let mut buf = Vec::new();
        assert_eq!(start.move_count_of(Color::White, &mut buf), 7);
        assert_eq!(start.move_count_of(Color::Black, &mut buf), 7);
        let p = Position::from_fen(Variant::Russian, "W:Wb2,c3:Bd4,h8").unwrap();
        assert_eq!(p.move_count_of(Color::White, &mut buf), 1);
    }

    #[test]
    fn a_compact_move_names_its_first_route() {
        let p = Position::from_fen(Variant::Russian, "W:WKc3:Bb4,b6,d4,d6").unwrap();
        let mut buf = Vec::new();
        p.compact_moves(&mut buf);
        assert_eq!(buf.len(), 5);
        for &m in &buf {
            let mv = p.move_of(m).unwrap();
            assert_eq!(mv.compact(), m);
            assert_eq!(p.play(&mv), p.play_compact(m));
        }
        let circuit = buf.iter().find(|m| m.from == m.to).unwrap();
        assert_eq!(p.move_of(*circuit).unwrap().to_string(), "c3:a5:c7:e5:c3");
    }
}
