//! PDN 3.0 FEN: `W:W21,22,K23:B1,2` (side to move, then each colour's pieces).
//!
//! Read: the side to move `W`/`B`, then sections `W…` and `B…` in any order (a missing or
//! empty one means no pieces), items separated by commas: a numeric square (`21`), a numeric
//! range (`31-50`), an algebraic square (`c3`), each optionally prefixed by `K` for kings.
//! An upper-case `K` followed by digits is a king on a numeric square (`K10`); the 10x10
//! file `k` is written in lower case (`k10`, or `Kk10` for a king there). Surrounding spaces,
//! quotes, a `[FEN "…"]` wrapper and a final `.` are ignored.
//!
//! Written: numeric squares sorted by number ([`Position::to_fen`]) or algebraic squares
//! sorted by name ([`Position::to_fen_algebraic`]), kings marked with `K`.

use super::{Color, Piece, Position, Square, Variant};

/// Why a FEN is not a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing to read.
    #[error("empty FEN")]
    Empty,
    /// The first field is not `W` or `B`.
    #[error("FEN '{fen}': the side to move must be W or B, not '{found}'")]
    SideToMove {
        /// The FEN.
        fen: String,
        /// What stood there.
        found: String,
    },
    /// A section does not start with `W` or `B`.
    #[error("FEN '{fen}': section '{section}' must start with W or B")]
    Section {
        /// The FEN.
        fen: String,
        /// The section.
        section: String,
    },
    /// The same colour has two sections.
    #[error("FEN '{fen}': two sections for {color}")]
    RepeatedSection {
        /// The FEN.
        fen: String,
        /// The colour.
        color: Color,
    },
    /// An item is not a square of this board.
    #[error("FEN '{fen}': '{item}' is not a square of the {size}x{size} board")]
    Square {
        /// The FEN.
        fen: String,
        /// The item.
        item: String,
        /// The board side.
        size: u8,
    },
    /// A square is named twice.
    #[error("FEN '{fen}': square {square} is given twice")]
    Duplicate {
        /// The FEN.
        fen: String,
        /// The square.
        square: Square,
    },
    /// A man stands on its own crown row, where it would already be a king.
    #[error("FEN '{fen}': a {color} man on {square}, its crown row")]
    ManOnCrownRow {
        /// The FEN.
        fen: String,
        /// Its colour.
        color: Color,
        /// The square.
        square: Square,
    },
}

fn clean(fen: &str) -> &str {
    let mut s = fen.trim();
    if let Some(rest) = s.strip_prefix('[') {
        s = rest.trim_end_matches(']').trim();
        s = s
            .strip_prefix("FEN")
            .or_else(|| s.strip_prefix("fen"))
            .unwrap_or(s)
            .trim();
    }
    s.trim_matches('"').trim().trim_end_matches('.').trim()
}

impl Position {
    /// Reads a PDN 3.0 FEN for a game (see the module doc for what is accepted).
    ///
    /// ```
    /// use zaochka::rules::{Position, Variant};
    /// let p = Position::from_fen(Variant::Hundred, "W:W31-50:B1-20").unwrap();
    /// assert_eq!(p, Position::start(Variant::Hundred));
    /// assert!(Position::from_fen(Variant::Russian, "W:W33:B1").is_err());
    /// ```
    ///
    /// # Errors
    /// A [`FenError`] saying what is wrong: no side to move, a bad section, an item that is
    /// not a square of this board, a square named twice, a man on its crown row.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Position, FenError> {
        let text = clean(fen);
        if text.is_empty() {
            return Err(FenError::Empty);
        }
        let size = variant.board_size();
        let mut fields = text.split(':').map(str::trim);
        let side_field = fields.next().unwrap_or("");
        let side = match side_field {
            "W" | "w" => Color::White,
            "B" | "b" => Color::Black,
            other => {
                return Err(FenError::SideToMove {
                    fen: fen.to_string(),
                    found: other.to_string(),
                });
            }
        };
        let mut pos = Position::empty(variant, side);
        let mut seen = [false; 2];
        for section in fields {
            if section.is_empty() {
                continue;
            }
            let mut chars = section.chars();
            let color = match chars.next() {
                Some('W' | 'w') => Color::White,
                Some('B' | 'b') => Color::Black,
                _ => {
                    return Err(FenError::Section {
                        fen: fen.to_string(),
                        section: section.to_string(),
                    });
                }
            };
            let seen_slot = &mut seen[usize::from(color == Color::Black)];
            if *seen_slot {
                return Err(FenError::RepeatedSection {
                    fen: fen.to_string(),
                    color,
                });
            }
            *seen_slot = true;
            for item in chars.as_str().split(',').map(str::trim) {
                if item.is_empty() {
                    continue;
                }
                let bad = || FenError::Square {
                    fen: fen.to_string(),
                    item: item.to_string(),
                    size,
                };
                let (kind, rest) = match item.strip_prefix('K') {
                    Some(r) => (Piece::King, r.trim()),
                    None => (Piece::Man, item),
                };
                let squares = parse_item(size, rest).ok_or_else(bad)?;
                for sq in squares {
                    if pos.piece_at(sq).is_some() {
                        return Err(FenError::Duplicate {
                            fen: fen.to_string(),
                            square: sq,
                        });
                    }
                    let crown_rank = if color == Color::White { size } else { 1 };
                    if kind == Piece::Man && sq.rank() == crown_rank {
                        return Err(FenError::ManOnCrownRow {
                            fen: fen.to_string(),
                            color,
                            square: sq,
                        });
                    }
                    pos.put(sq, Some((color, kind)));
                }
            }
        }
        Ok(pos)
    }

    fn write_fen(&self, numeric: bool) -> String {
        let side = match self.side {
            Color::White => "W",
            Color::Black => "B",
        };
        let mut out = String::from(side);
        for color in [Color::White, Color::Black] {
            let mut items: Vec<(String, String)> = self
                .pieces()
                .into_iter()
                .filter(|&(_, c, _)| c == color)
                .map(|(sq, _, kind)| {
                    let name = if numeric {
                        format!("{:03}", sq.number())
                    } else {
                        sq.to_string()
                    };
                    let shown = if numeric {
                        sq.number().to_string()
                    } else {
                        sq.to_string()
                    };
                    let k = if kind == Piece::King { "K" } else { "" };
                    (name, format!("{k}{shown}"))
                })
                .collect();
            items.sort();
            out.push(':');
            out.push(if color == Color::White { 'W' } else { 'B' });
            let list: Vec<String> = items.into_iter().map(|(_, s)| s).collect();
            out.push_str(&list.join(","));
        }
        out
    }

    /// The FEN with numeric squares, sorted: `W:W21,22,K23:B1,2`.
    pub fn to_fen(&self) -> String {
        self.write_fen(true)
    }

    /// The FEN with algebraic squares, sorted by name: `W:Wa1,c1,Ke3:Bb8`.
    pub fn to_fen_algebraic(&self) -> String {
        self.write_fen(false)
    }
}

fn parse_item(size: u8, item: &str) -> Option<Vec<Square>> {
    if item.starts_with(|c: char| c.is_ascii_digit()) {
        if let Some((a, b)) = item.split_once('-') {
            let a: u8 = a.trim().parse().ok()?;
            let b: u8 = b.trim().parse().ok()?;
            if a > b {
                return None;
            }
            return (a..=b).map(|n| Square::from_number(size, n)).collect();
        }
        let n: u8 = item.parse().ok()?;
        return Square::from_number(size, n).map(|s| vec![s]);
    }
    Square::from_algebraic(size, item).map(|s| vec![s])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_read_from_ranges_and_lists() {
        let r = Position::from_fen(
            Variant::Russian,
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        )
        .unwrap();
        assert_eq!(r, Position::start(Variant::Russian));
        assert_eq!(
            Position::from_fen(Variant::Russian, "[FEN \"W:W21-32:B1-12\"]").unwrap(),
            r
        );
    }

    #[test]
    fn fen_writes_sorted_numeric_and_algebraic() {
        let p = Position::from_fen(Variant::Russian, "W:W29,K1,9:B16,4").unwrap();
        assert_eq!(p.to_fen(), "W:WK1,9,29:B4,16");
        assert_eq!(p.to_fen_algebraic(), "W:Wa1,b6,Kb8:Bg5,h8");
        assert_eq!(
            Position::from_fen(Variant::Russian, &p.to_fen_algebraic()).unwrap(),
            p
        );
    }

    #[test]
    fn k_file_on_ten_by_ten_is_lower_case() {
        let p = Position::from_fen(Variant::Hundred, "B:Wk10:BKk10x").ok();
        assert!(p.is_none());
        let p = Position::from_fen(Variant::Hundred, "B:WK10,36:BKk2,1").unwrap();
        let k10 = Square::from_number(10, 10).unwrap();
        assert_eq!(p.piece_at(k10), Some((Color::White, Piece::King)));
        let k2 = Square::from_algebraic(10, "k2").unwrap();
        assert_eq!(p.piece_at(k2), Some((Color::Black, Piece::King)));
    }

    #[test]
    fn bad_fens_say_what_is_wrong() {
        let err = |fen: &str| Position::from_fen(Variant::Russian, fen).unwrap_err();
        assert_eq!(err("   "), FenError::Empty);
        assert!(matches!(err("X:W21:B1"), FenError::SideToMove { .. }));
        assert!(matches!(err("W:Q21:B1"), FenError::Section { .. }));
        assert!(matches!(err("W:W21:W22"), FenError::RepeatedSection { .. }));
        assert!(matches!(err("W:W33:B1"), FenError::Square { .. }));
        assert!(matches!(err("W:Wa2:B1"), FenError::Square { .. }));
        assert!(matches!(err("W:W21:B21"), FenError::Duplicate { .. }));
        assert!(matches!(err("W:W1:B21"), FenError::ManOnCrownRow { .. }));
        assert!(matches!(err("W:W30-25:B1"), FenError::Square { .. }));
        assert_eq!(
            err("W:W33:B1").to_string(),
            "FEN 'W:W33:B1': '33' is not a square of the 8x8 board"
        );
    }
}
