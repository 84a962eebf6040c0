//! A position: the pieces, the side to move and the game whose rules apply.

use super::board::{Geo, bit_for, square_for};
use super::movegen::{self, Bb, CMove, Route, RouteSink};
use super::{Color, Move, Outcome, Piece, Square, Variant};

/// Runs `$body` with `$G` bound to the geometry type of `$variant`.
macro_rules! with_geo {
    ($variant:expr, $G:ident => $body:expr) => {
        match $variant {
            $crate::rules::Variant::Hundred => {
                type $G = $crate::rules::board::G10;
                $body
            }
            $crate::rules::Variant::Russian | $crate::rules::Variant::Giveaway => {
                type $G = $crate::rules::board::G8;
                $body
            }
        }
    };
}
pub(crate) use with_geo;

/// A position of one of the three games: where every piece stands and who moves.
///
/// Built from the start ([`Position::start`]) or a FEN ([`Position::from_fen`]); a FEN that
/// describes no legal set-up is an error, so a `Position` always holds a sane board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) variant: Variant,
    pub(crate) side: Color,
    pub(crate) bb: Bb,
}

impl Position {
    /// The start position: 12 men each on 8x8 (White 21-32), 20 each on 10x10 (White
    /// 31-50), White to move.
    pub fn start(variant: Variant) -> Position {
        let size = variant.board_size();
        let n = size / 2;
        let rows = if size == 8 { 3 } else { 4 };
        let total = variant.square_count();
        let mut bb = Bb::default();
        for s in 0..rows * n {
            bb.black |= 1u64 << bit_for(size, s);
        }
        for s in total - rows * n..total {
            bb.white |= 1u64 << bit_for(size, s);
        }
        Position {
            variant,
            side: Color::White,
            bb,
        }
    }

    /// An empty board (for building positions piece by piece with [`Position::put`]).
    pub fn empty(variant: Variant, side: Color) -> Position {
        Position {
            variant,
            side,
            bb: Bb::default(),
        }
    }

    /// The game.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    fn size(&self) -> u8 {
        self.variant.board_size()
    }

    fn bit(&self, sq: Square) -> Option<u64> {
        (sq.board_size() == self.size()).then(|| 1u64 << bit_for(self.size(), sq.index()))
    }

    pub(crate) fn square_of_bit(&self, bit: u32) -> Square {
        let size = self.size();
        // The generator only yields bits of real squares; 0 is never reached.
        Square::from_valid_index(size, square_for(size, bit).unwrap_or(0))
    }

    /// The piece on a square (`None` for an empty square or a square of the other board).
    pub fn piece_at(&self, sq: Square) -> Option<(Color, Piece)> {
        let b = self.bit(sq)?;
        let piece = if self.bb.kings & b != 0 {
            Piece::King
        } else {
            Piece::Man
        };
        if self.bb.white & b != 0 {
            Some((Color::White, piece))
        } else if self.bb.black & b != 0 {
            Some((Color::Black, piece))
        } else {
            None
        }
    }

    /// Puts a piece on a square (replacing whatever stood there); ignores a square of the
    /// other board.
    pub fn put(&mut self, sq: Square, piece: Option<(Color, Piece)>) {
        let Some(b) = self.bit(sq) else { return };
        self.bb.white &= !b;
        self.bb.black &= !b;
        self.bb.kings &= !b;
        if let Some((color, kind)) = piece {
            match color {
                Color::White => self.bb.white |= b,
                Color::Black => self.bb.black |= b,
            }
            if kind == Piece::King {
                self.bb.kings |= b;
            }
        }
    }

    /// Every piece: square, colour and kind, by square number.
    pub fn pieces(&self) -> Vec<(Square, Color, Piece)> {
        let size = self.size();
        (1..=self.variant.square_count())
            .filter_map(|n| {
                let sq = Square::from_number(size, n)?;
                self.piece_at(sq).map(|(c, p)| (sq, c, p))
            })
            .collect()
    }

    /// How many pieces of a kind a side has.
    pub fn count(&self, color: Color, piece: Piece) -> u32 {
        let mine = match color {
            Color::White => self.bb.white,
            Color::Black => self.bb.black,
        };
        match piece {
            Piece::King => (mine & self.bb.kings).count_ones(),
            Piece::Man => (mine & !self.bb.kings).count_ones(),
        }
    }

    fn routes(&self) -> Vec<Route> {
        let mut sink = RouteSink(Vec::new());
        let white = self.side == Color::White;
        with_geo!(self.variant, G => movegen::generate::<G, _>(&self.bb, white, &mut sink));
        sink.0
    }

    /// On 10x10, the captures the majority rule forbids are among these (resolution uses
    /// them to explain the rule); elsewhere the same as the legal routes.
    pub(crate) fn routes_without_majority(&self) -> Vec<Move> {
        if self.variant != Variant::Hundred {
            return self.legal_moves();
        }
        let mut sink = RouteSink(Vec::new());
        let white = self.side == Color::White;
        movegen::generate::<super::board::G10Free, _>(&self.bb, white, &mut sink);
        self.moves_of_routes(sink.0)
    }

    fn moves_of_routes(&self, routes: Vec<Route>) -> Vec<Move> {
        let mut moves: Vec<Move> = routes
            .into_iter()
            .map(|r| Move {
                path: r
                    .path
                    .iter()
                    .map(|&b| self.square_of_bit(u32::from(b)))
                    .collect(),
                captured: r
                    .caps
                    .iter()
                    .map(|&b| self.square_of_bit(u32::from(b)))
                    .collect(),
                promotes: r.promotes,
            })
            .collect();
        moves.sort_by_cached_key(|m| m.to_string());
        moves
    }

    /// Every legal move, each capture route separately (two routes with the same start,
    /// end and captured set are both listed), sorted by their full algebraic notation.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.moves_of_routes(self.routes())
    }

    /// The legal moves of the piece on `sq` (10.2.10: "the piece on the named square has
    /// exactly one move").
    pub fn moves_from(&self, sq: Square) -> Vec<Move> {
        self.legal_moves()
            .into_iter()
            .filter(|m| m.from() == sq)
            .collect()
    }

    /// Whether the side to move must capture.
    pub fn has_capture(&self) -> bool {
        let white = self.side == Color::White;
        with_geo!(self.variant, G => movegen::has_capture::<G>(&self.bb, white))
    }

    /// The number of distinct legal moves (routes with the same start, end and captured set
    /// count once).
    pub fn distinct_move_count(&self) -> usize {
        let white = self.side == Color::White;
        let mut buf = Vec::new();
        with_geo!(self.variant, G => movegen::count_moves::<G>(&self.bb, white, &mut buf)) as usize
    }

    /// Whether the side to move has exactly one move (10.2.4, 10.3.5: a forced move);
    /// routes with the same effect count as one.
    pub fn is_forced(&self) -> bool {
        self.distinct_move_count() == 1
    }

    /// The only move, when the side to move has exactly one (10.2.4: a forced move may be
    /// answered in the same letter); routes with the same effect count as one.
    pub fn forced_move(&self) -> Option<Move> {
        let moves = self.legal_moves();
        let first = moves.first()?;
        moves
            .iter()
            .all(|m| m.same_effect(first))
            .then(|| first.clone())
    }

    /// The position after `mv`, which should be one of [`Position::legal_moves`] (a move
    /// of another position gives a meaningless but sane board).
    pub fn play(&self, mv: &Move) -> Position {
        self.play_compact(mv.compact())
    }

    pub(crate) fn play_compact(&self, m: CMove) -> Position {
        let white = self.side == Color::White;
        let mut bb = movegen::apply(&self.bb, white, m);
        let valid = with_geo!(self.variant, G => G::VALID);
        bb.white &= valid;
        bb.black &= valid & !bb.white;
        bb.kings &= bb.white | bb.black;
        Position {
            variant: self.variant,
            side: self.side.opponent(),
            bb,
        }
    }

    /// The game's end by the rules of play: the side to move has no piece or no move and
    /// loses — or, in give-away, wins. `None` while the game goes on. Draw rules need the
    /// history: see [`super::GameRecord`].
    pub fn outcome(&self) -> Option<Outcome> {
        if self.distinct_move_count() > 0 {
            return None;
        }
        let winner = match self.variant {
            Variant::Giveaway => self.side,
            Variant::Russian | Variant::Hundred => self.side.opponent(),
        };
        Some(Outcome::Win(winner))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::from_algebraic(8, name).unwrap()
    }

    #[test]
    fn a_single_capture_is_a_forced_move_10_2_4() {
        let p = Position::from_fen(Variant::Russian, "W:Wc3,g3:Bd4").unwrap();
        assert!(p.is_forced());
        assert_eq!(p.forced_move().unwrap().to_string(), "c3:e5");
        let start = Position::start(Variant::Russian);
        assert!(!start.is_forced());
        assert_eq!(start.forced_move(), None);
    }

    #[test]
    fn routes_round_a_circuit_either_way_count_once() {
        // a king going round a circuit of four pieces either way back to c3
        let p = Position::from_fen(Variant::Russian, "W:WKc3:Bb4,b6,d4,d6").unwrap();
        let routes: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(routes.len(), 6);
        assert!(routes.contains(&"c3:a5:c7:e5:c3".to_string()));
        assert!(routes.contains(&"c3:e5:c7:a5:c3".to_string()));
        assert_eq!(p.distinct_move_count(), 5);
    }

    #[test]
    fn moves_from_names_the_moves_of_one_piece() {
        let start = Position::start(Variant::Russian);
        let names: Vec<String> = start
            .moves_from(sq("c3"))
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(names, ["c3-b4", "c3-d4"]);
        assert!(start.moves_from(sq("c1")).is_empty());
        assert_eq!(start.piece_at(sq("c1")), Some((Color::White, Piece::Man)));
        assert_eq!(start.piece_at(sq("d4")), None);
        assert_eq!(start.piece_at(Square::from_number(10, 1).unwrap()), None);
    }

    #[test]
    fn start_positions_have_the_right_pieces() {
        let r = Position::start(Variant::Russian);
        assert_eq!(
            r.to_fen(),
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
        let h = Position::start(Variant::Hundred);
        assert_eq!(h.count(Color::White, Piece::Man), 20);
        assert_eq!(h.count(Color::Black, Piece::Man), 20);
        assert_eq!(Position::start(Variant::Giveaway).legal_moves().len(), 7);
    }
}
