//! The numbering of a table's positions: every position of one material with White to move
//! gets one index, a Black-to-move position is first turned round (the board rotated half a
//! turn, the colours swapped — the same game from the other side).
//!
//! The index is a mixed-radix number of four combinations (the combinatorial number system):
//! the white men among the squares a white man may stand on (all but White's crown row), the
//! black men likewise, then the white kings among the squares the men left free, then the
//! black kings among the squares still free. Men of both colours are numbered independently,
//! so some indices put a white and a black man on one square: those are no position and are
//! marked so in the table (the price of a simple, fast numbering).

use super::Material;
use crate::rules::{Color, Position, Square, Variant};

/// Binomial coefficients `C(n, k)` for n ≤ 50, k ≤ 5 (`C(n, k) = 0` for k > n).
const fn binomials() -> [[u64; 6]; 51] {
    let mut t = [[0u64; 6]; 51];
    let mut n = 0;
    while n <= 50 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 5 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
}

const C: [[u64; 6]; 51] = binomials();

fn binomial(n: u32, k: u32) -> u64 {
    C[n as usize][k as usize]
}

/// The rank of a set of `k` numbers (bit `a` set = number `a`) in the combinatorial number
/// system: `Σ C(a_i, i)` over the members in increasing order, i from 1.
fn rank(mut set: u64) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        let a = set.trailing_zeros();
        set &= set - 1;
        r += binomial(a, i);
        i += 1;
    }
    r
}

/// The set of `k` numbers below `n` with rank `r` (the inverse of [`rank`]).
fn unrank(mut r: u64, k: u32, n: u32) -> u64 {
    let mut set = 0u64;
    let mut top = n;
    for i in (1..=k).rev() {
        // the largest a < top with C(a, i) <= r
        let mut a = top - 1;
        while binomial(a, i) > r {
            a -= 1;
        }
        r -= binomial(a, i);
        set |= 1u64 << a;
        top = a;
    }
    set
}

/// `m` spread over the zero bits of `occupied`: the i-th set bit of `m` becomes the i-th
/// square not in `occupied` (a software PDEP over the complement).
fn spread(mut m: u64, occupied: u64) -> u64 {
    let free = !occupied;
    let mut out = 0u64;
    while m != 0 {
        let i = m.trailing_zeros();
        m &= m - 1;
        out |= 1u64 << nth_set(free, i);
    }
    out
}

/// The index of the `i`-th (0-based) set bit of `b`.
fn nth_set(mut b: u64, i: u32) -> u32 {
    for _ in 0..i {
        b &= b - 1;
    }
    b.trailing_zeros()
}

/// `m` squeezed past the bits of `occupied`: each set bit moves down by the number of
/// occupied squares below it (the inverse of [`spread`]; `m` and `occupied` are disjoint).
fn squeeze(mut m: u64, occupied: u64) -> u64 {
    let mut out = 0u64;
    while m != 0 {
        let s = m.trailing_zeros();
        m &= m - 1;
        let below = (occupied & ((1u64 << s) - 1)).count_ones();
        out |= 1u64 << (s - below);
    }
    out
}

/// One board's numbering facts.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    pub variant: Variant,
    /// Dark squares.
    pub squares: u32,
    /// Dark squares a row.
    pub row: u32,
    /// White's crown row (the top row, squares 0..row).
    #[cfg_attr(not(test), allow(dead_code))]
    pub top: u64,
    /// Black's crown row.
    #[cfg_attr(not(test), allow(dead_code))]
    pub bottom: u64,
    /// Neighbours by direction: up-left, up-right, down-left, down-right ("up" = towards
    /// Black, White's forward), `u8::MAX` off the board.
    pub next: [[u8; 4]; 50],
}

/// Directions of [`Geometry::next`] that go up (White's men's forward).
pub(crate) const UP: [usize; 2] = [0, 1];

impl Geometry {
    pub(crate) fn new(variant: Variant) -> Geometry {
        let size = variant.board_size();
        let squares = u32::from(variant.square_count());
        let row = u32::from(size / 2);
        let mut next = [[u8::MAX; 4]; 50];
        for s in 0..squares as u8 {
            let Some(sq) = Square::from_number(size, s + 1) else {
                continue;
            };
            let (f, r) = (i32::from(sq.file()), i32::from(sq.rank()));
            for (d, (df, dr)) in [(-1, 1), (1, 1), (-1, -1), (1, -1)].into_iter().enumerate() {
                let (nf, nr) = (f + df, r + dr);
                if (0..i32::from(size)).contains(&nf)
                    && (1..=i32::from(size)).contains(&nr)
                    && let Some(n) = Square::from_coords(size, nf as u8, nr as u8)
                {
                    next[usize::from(s)][d] = n.index();
                }
            }
        }
        Geometry {
            variant,
            squares,
            row,
            top: (1u64 << row) - 1,
            bottom: ((1u64 << row) - 1) << (squares - row),
            next,
        }
    }

    /// The squares a man may stand on (all but its crown row).
    fn man_squares(&self) -> u32 {
        self.squares - self.row
    }

    /// The number of indices of a material.
    pub(crate) fn size(&self, m: Material) -> u64 {
        let men = self.man_squares();
        let free = self.squares - u32::from(m.white_men) - u32::from(m.black_men);
        binomial(men, m.white_men.into())
            * binomial(men, m.black_men.into())
            * binomial(free, m.white_kings.into())
            * binomial(free - u32::from(m.white_kings), m.black_kings.into())
    }

    /// The index of a White-to-move position given as square masks `[white, black, kings]`
    /// of material `m`.
    pub(crate) fn index(&self, m: Material, [white, black, kings]: [u64; 3]) -> u64 {
        let men_n = self.man_squares();
        let free = self.squares - u32::from(m.white_men) - u32::from(m.black_men);
        let (wm, bm) = (white & !kings, black & !kings);
        let (wk, bk) = (white & kings, black & kings);
        let wm_i = rank(wm >> self.row);
        let bm_i = rank(bm);
        let men = wm | bm;
        let wk_i = rank(squeeze(wk, men));
        let bk_i = rank(squeeze(bk, men | wk));
        let r_bm = binomial(men_n, m.black_men.into());
        let r_wk = binomial(free, m.white_kings.into());
        let r_bk = binomial(free - u32::from(m.white_kings), m.black_kings.into());
        ((wm_i * r_bm + bm_i) * r_wk + wk_i) * r_bk + bk_i
    }

    /// The position of an index as square masks `[white, black, kings]`, `None` where the
    /// index puts two men on one square (no position).
    pub(crate) fn unindex(&self, m: Material, index: u64) -> Option<[u64; 3]> {
        let men_n = self.man_squares();
        let free = self.squares - u32::from(m.white_men) - u32::from(m.black_men);
        let r_bm = binomial(men_n, m.black_men.into());
        let r_wk = binomial(free, m.white_kings.into());
        let r_bk = binomial(free - u32::from(m.white_kings), m.black_kings.into());
        let bk_i = index % r_bk;
        let rest = index / r_bk;
        let wk_i = rest % r_wk;
        let rest = rest / r_wk;
        let bm_i = rest % r_bm;
        let wm_i = rest / r_bm;
        let wm = unrank(wm_i, m.white_men.into(), men_n) << self.row;
        let bm = unrank(bm_i, m.black_men.into(), men_n);
        if wm & bm != 0 {
            return None;
        }
        let men = wm | bm;
        let wk = spread(unrank(wk_i, m.white_kings.into(), free), men);
        let bk = spread(
            unrank(bk_i, m.black_kings.into(), free - u32::from(m.white_kings)),
            men | wk,
        );
        Some([wm | wk, bm | bk, wk | bk])
    }

    /// Square masks turned half round (square `s` → `squares − 1 − s`).
    pub(crate) fn rotate(&self, m: u64) -> u64 {
        m.reverse_bits() >> (64 - self.squares)
    }

    /// A position as the table sees it: White to move (a Black-to-move position turned round,
    /// colours swapped), as square masks with its material.
    pub(crate) fn canonical(&self, pos: &Position) -> (Material, [u64; 3]) {
        let [w, b, k] = pos.square_masks();
        let masks = if pos.side_to_move() == Color::White {
            [w, b, k]
        } else {
            [self.rotate(b), self.rotate(w), self.rotate(k)]
        };
        (Material::of_masks(masks), masks)
    }

    /// The White-to-move position of square masks.
    pub(crate) fn position(&self, masks: [u64; 3]) -> Position {
        Position::from_square_masks(self.variant, Color::White, masks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_and_unranks_are_inverse_and_dense() {
        for (n, k) in [(28u32, 2u32), (32, 3), (45, 1), (30, 0), (29, 4)] {
            let total = binomial(n, k);
            for r in (0..total).step_by((total as usize / 997).max(1)) {
                let set = unrank(r, k, n);
                assert_eq!(set.count_ones(), k);
                assert!(set < (1u64 << n));
                assert_eq!(rank(set), r, "n={n} k={k}");
            }
        }
    }

    #[test]
    fn spread_and_squeeze_are_inverse() {
        let occupied = 0b1011_0010u64;
        for m in [0b1u64, 0b110, 0b1_0101, 0b111_0000] {
            let s = spread(m, occupied);
            assert_eq!(s & occupied, 0);
            assert_eq!(squeeze(s, occupied), m);
        }
    }

    #[test]
    fn every_index_of_a_material_is_its_own_position() {
        for variant in [Variant::Russian, Variant::Hundred] {
            let g = Geometry::new(variant);
            for m in [
                Material::new(1, 1, 1, 0),
                Material::new(2, 0, 1, 1),
                Material::new(0, 2, 1, 0),
                Material::new(1, 0, 0, 2),
            ] {
                let n = g.size(m);
                let mut holes = 0;
                for i in (0..n).step_by((n as usize / 5003).max(1)) {
                    match g.unindex(m, i) {
                        Some(masks) => {
                            assert_eq!(Material::of_masks(masks), m);
                            let [w, b, k] = masks;
                            assert_eq!(w & b, 0);
                            assert_eq!(w & !k & g.top, 0, "a white man on its crown row");
                            assert_eq!(b & !k & g.bottom, 0, "a black man on its crown row");
                            assert_eq!(g.index(m, masks), i);
                        }
                        None => holes += 1,
                    }
                }
                assert!(holes * 4 < n, "{m}: too many holes");
            }
        }
    }

    #[test]
    fn a_position_and_the_same_turned_round_share_an_index() {
        let g = Geometry::new(Variant::Russian);
        let w = Position::from_fen(Variant::Russian, "W:W21,K30:B3").unwrap();
        let b = Position::from_fen(Variant::Russian, "B:W30:B12,K3").unwrap();
        assert_eq!(g.canonical(&w), g.canonical(&b));
        let (m, masks) = g.canonical(&b);
        assert_eq!(m, Material::new(1, 1, 1, 0));
        assert_eq!(g.position(masks), w);
    }

    #[test]
    fn neighbours_follow_the_diagonals() {
        let g = Geometry::new(Variant::Russian);
        let sq = |n: &str| Square::from_algebraic(8, n).unwrap().index();
        // c3: up-left b4, up-right d4, down-left b2, down-right d2
        assert_eq!(
            g.next[usize::from(sq("c3"))],
            [sq("b4"), sq("d4"), sq("b2"), sq("d2")]
        );
        assert_eq!(
            g.next[usize::from(sq("a1"))],
            [u8::MAX, sq("b2"), u8::MAX, u8::MAX]
        );
        let h = Geometry::new(Variant::Hundred);
        let k10 = Square::from_algebraic(10, "k10").unwrap().index();
        assert_eq!(h.next[usize::from(k10)][0..2], [u8::MAX, u8::MAX]);
    }
}
