//! A [`Board`] picture of a `rules` [`Position`]: the bridge from the rules engine to the
//! diagrams (text and PNG).

use super::{Board, Man};
use crate::rules::{Color, Piece, Position};

impl From<&Position> for Board {
    /// The position seen from White: rank `size` at the top, file `a` on the left.
    fn from(pos: &Position) -> Board {
        let size = usize::from(pos.variant().board_size());
        let mut board = Board::empty(size);
        for (sq, color, piece) in pos.pieces() {
            let row = size - usize::from(sq.rank());
            let col = usize::from(sq.file());
            board.put(
                row,
                col,
                Man {
                    is_white: color == Color::White,
                    is_king: piece == Piece::King,
                },
            );
        }
        board
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn the_russian_start_has_white_men_on_the_lower_three_ranks() {
        let board = Board::from(&Position::start(Variant::Russian));
        let text = board.to_text(crate::render::Lang::En);
        let rows: Vec<&str> = text.lines().collect();
        // rows[0] is the border; rows[1] is rank 8, rows[8] is rank 1.
        assert_eq!(rows[1], " 8 |   b   b   b   b |");
        assert_eq!(rows[4], " 5 | .   .   .   .   |");
        assert_eq!(rows[8], " 1 | w   w   w   w   |");
        // a1 is dark and holds a white man (10.1: the board's long diagonal a1-h8).
        assert_eq!(
            board.cells[7 * 8],
            Some(Man {
                is_white: true,
                is_king: false
            })
        );
    }

    #[test]
    fn the_hundred_start_has_twenty_men_a_side_on_ten_by_ten() {
        let board = Board::from(&Position::start(Variant::Hundred));
        assert_eq!(board.size, 10);
        let whites = board.cells.iter().flatten().filter(|m| m.is_white).count();
        let blacks = board.cells.iter().flatten().filter(|m| !m.is_white).count();
        assert_eq!((whites, blacks), (20, 20));
        assert!(board.cells[0].is_none(), "a10 is a light square");
    }

    #[test]
    fn kings_are_drawn_as_kings() {
        let pos = Position::from_fen(Variant::Russian, "W:WK1:B21").unwrap();
        let board = Board::from(&pos);
        let kings = board.cells.iter().flatten().filter(|m| m.is_king).count();
        assert_eq!(kings, 1);
    }
}
