//! Dark squares of an 8x8 or 10x10 board: PDN numbers and algebraic names.

use std::fmt;

use super::SquareText;

/// The files of the 10x10 board as the Russian rules of the sport write them: no `j`.
const FILES_10: [char; 10] = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'k'];
const FILES_8: [char; 8] = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

/// A dark square of an 8x8 or 10x10 board.
///
/// Numbered as PDN does: 1 is the top-left dark square seen by White (b8 / b10), left to
/// right, row by row towards White (32 = g1 on 8x8, 50 = i1 on 10x10). [`fmt::Display`]
/// writes the algebraic name (`c3`; 10x10 files `a b c d e f g h i k`, no `j`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    size: u8,
    index: u8,
}

impl Square {
    /// The square with PDN number `number` (1-based) on a board of side `size` (8 or 10),
    /// or `None` when there is no such square.
    pub fn from_number(size: u8, number: u8) -> Option<Square> {
        if (size == 8 || size == 10) && number >= 1 && number <= size * size / 2 {
            Some(Square {
                size,
                index: number - 1,
            })
        } else {
            None
        }
    }

    /// The square at file `file` (0-based, a = 0) and rank `rank` (1-based) on a board of
    /// side `size`, or `None` when it is off the board or a light square.
    pub fn from_coords(size: u8, file: u8, rank: u8) -> Option<Square> {
        if !(size == 8 || size == 10) || file >= size || rank == 0 || rank > size {
            return None;
        }
        let row = size - rank; // 0 = top
        let offset = u8::from(row.is_multiple_of(2));
        if file < offset || !(file - offset).is_multiple_of(2) {
            return None;
        }
        let col = (file - offset) / 2;
        Some(Square {
            size,
            index: row * (size / 2) + col,
        })
    }

    /// The square named by an algebraic name such as `c3` or `k10`.
    pub fn from_algebraic(size: u8, name: &str) -> Option<Square> {
        let mut chars = name.chars();
        let f = chars.next()?.to_ascii_lowercase();
        let rank: u8 = chars.as_str().parse().ok()?;
        let file = Self::file_index(size, f)?;
        Self::from_coords(size, file, rank)
    }

    fn file_index(size: u8, f: char) -> Option<u8> {
        let files: &[char] = if size == 10 { &FILES_10 } else { &FILES_8 };
        files.iter().position(|&c| c == f).map(|i| i as u8)
    }

    /// A square from a board side and a 0-based index the caller knows to be valid (the
    /// move generator's tables).
    pub(crate) fn from_valid_index(size: u8, index: u8) -> Square {
        Square { size, index }
    }

    /// The square a [`SquareText`] names on a board of side `size`, or `None` when it is
    /// not a dark square of that board.
    pub fn from_text(size: u8, text: SquareText) -> Option<Square> {
        match text {
            SquareText::Num(n) => Self::from_number(size, n),
            SquareText::Alg { file, rank } => Self::from_coords(
                size,
                Self::file_index(size, file.to_ascii_lowercase())?,
                rank,
            ),
        }
    }

    /// The board side: 8 or 10.
    pub fn board_size(self) -> u8 {
        self.size
    }

    /// The PDN number, 1-based (1..=32 or 1..=50).
    pub fn number(self) -> u8 {
        self.index + 1
    }

    /// The 0-based index (PDN number − 1).
    pub fn index(self) -> u8 {
        self.index
    }

    /// The 0-based file (a = 0).
    pub fn file(self) -> u8 {
        let n = self.size / 2;
        let row = self.index / n;
        let col = self.index % n;
        2 * col + u8::from(row.is_multiple_of(2))
    }

    /// The 1-based rank (1 is White's back rank).
    pub fn rank(self) -> u8 {
        self.size - self.index / (self.size / 2)
    }

    /// The file letter (`a`..`h`, or `a`..`k` without `j`).
    pub fn file_char(self) -> char {
        let f = usize::from(self.file());
        if self.size == 10 {
            FILES_10[f]
        } else {
            FILES_8[f]
        }
    }

    /// The square as written text, numeric or algebraic.
    pub fn to_text(self, numeric: bool) -> SquareText {
        if numeric {
            SquareText::Num(self.number())
        } else {
            SquareText::Alg {
                file: self.file_char(),
                rank: self.rank(),
            }
        }
    }
}

impl Square {
    /// The square as zaochka shows it to a reader of this board: its algebraic name on 8x8
    /// (`c3`), its FMJD number on 10x10 (`32`).
    pub fn shown(self) -> String {
        if self.size == 10 {
            self.number().to_string()
        } else {
            self.to_string()
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdn_numbers_match_the_vectors_readme() {
        let name = |size, n| Square::from_number(size, n).unwrap().to_string();
        assert_eq!(name(8, 1), "b8");
        assert_eq!(name(8, 5), "a7");
        assert_eq!(name(8, 29), "a1");
        assert_eq!(name(8, 32), "g1");
        assert_eq!(name(10, 1), "b10");
        assert_eq!(name(10, 5), "k10");
        assert_eq!(name(10, 46), "a1");
        assert_eq!(name(10, 50), "i1");
    }

    #[test]
    fn algebraic_names_round_trip_on_both_boards() {
        for size in [8u8, 10] {
            for n in 1..=size * size / 2 {
                let sq = Square::from_number(size, n).unwrap();
                assert_eq!(Square::from_algebraic(size, &sq.to_string()), Some(sq));
            }
        }
    }

    #[test]
    fn squares_are_shown_by_number_on_ten_by_ten_and_by_name_on_eight_by_eight() {
        assert_eq!(Square::from_number(10, 32).unwrap().shown(), "32");
        assert_eq!(Square::from_number(8, 22).unwrap().shown(), "c3");
    }

    #[test]
    fn light_squares_and_j_are_not_squares() {
        assert_eq!(Square::from_algebraic(8, "a2"), None);
        assert_eq!(Square::from_algebraic(10, "j1"), None);
        assert_eq!(Square::from_algebraic(8, "i1"), None);
        assert_eq!(Square::from_number(8, 33), None);
        assert_eq!(Square::from_number(10, 0), None);
    }
}
