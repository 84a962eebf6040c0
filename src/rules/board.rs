//! Board geometry for the bitboards.
//!
//! Dark squares are numbered as in PDN: 0-based `s` (PDN number − 1) from the top-left dark
//! square seen by White, left to right, row by row towards White. With `n` dark squares a
//! row (4 on 8x8, 5 on 10x10), square `s` sits on bit `s + (s / n) / 2`: one ghost bit after
//! every two rows. Then each diagonal step is a shift by `n` or `n + 1`, up or down, and a
//! step off the board lands on a ghost bit or outside the board mask.

/// The geometry and the capture rules tied to it (8x8: Russian rules; 10x10: international).
pub(crate) trait Geo: Copy + 'static {
    /// Dark squares a row.
    const N: u32;
    /// Number of dark squares.
    const SQUARES: u32;
    /// Majority rule (international rules).
    const MAJORITY: bool;
    /// A man crowned during a capture goes on as a king (Russian rules).
    const CROWN_IN_PASSING: bool;
    /// All real squares.
    const VALID: u64 = valid_mask(Self::N, Self::SQUARES);
    /// The top row (squares 1..=n): White's crown row.
    const TOP: u64 = range_mask(Self::N, 0, Self::N);
    /// The bottom row: Black's crown row.
    const BOTTOM: u64 = range_mask(Self::N, Self::SQUARES - Self::N, Self::SQUARES);
    /// The four steps: up-left, up-right, down-left, down-right.
    const DIRS: [i32; 4] = [
        -(Self::N as i32) - 1,
        -(Self::N as i32),
        Self::N as i32,
        Self::N as i32 + 1,
    ];
    /// Bit index → 0-based square, 255 for ghosts.
    const SQUARE_OF: [u8; 64] = square_table(Self::N, Self::SQUARES);
}

/// 8x8, Russian rules (also give-away).
#[derive(Clone, Copy, Debug)]
pub(crate) struct G8;
impl Geo for G8 {
    const N: u32 = 4;
    const SQUARES: u32 = 32;
    const MAJORITY: bool = false;
    const CROWN_IN_PASSING: bool = true;
}

/// 10x10, international rules.
#[derive(Clone, Copy, Debug)]
pub(crate) struct G10;
impl Geo for G10 {
    const N: u32 = 5;
    const SQUARES: u32 = 50;
    const MAJORITY: bool = true;
    const CROWN_IN_PASSING: bool = false;
}

/// 10x10 without the majority rule: only to explain a capture that the majority rule
/// forbids (resolution), never to generate the legal moves.
#[derive(Clone, Copy, Debug)]
pub(crate) struct G10Free;
impl Geo for G10Free {
    const N: u32 = 5;
    const SQUARES: u32 = 50;
    const MAJORITY: bool = false;
    const CROWN_IN_PASSING: bool = false;
}

/// The bit of 0-based square `s` with `n` squares a row.
pub(crate) const fn bit_of(n: u32, s: u32) -> u32 {
    s + (s / n) / 2
}

const fn range_mask(n: u32, from: u32, to: u32) -> u64 {
    let mut m = 0u64;
    let mut s = from;
    while s < to {
        m |= 1u64 << bit_of(n, s);
        s += 1;
    }
    m
}

const fn valid_mask(n: u32, squares: u32) -> u64 {
    range_mask(n, 0, squares)
}

const fn square_table(n: u32, squares: u32) -> [u8; 64] {
    let mut t = [255u8; 64];
    let mut s = 0;
    while s < squares {
        t[bit_of(n, s) as usize] = s as u8;
        s += 1;
    }
    t
}

/// One diagonal step of every bit of `b`, kept on the board.
#[inline(always)]
pub(crate) fn step<G: Geo>(b: u64, d: i32) -> u64 {
    (if d > 0 { b << d } else { b >> (-d) }) & G::VALID
}

/// The bit of a 0-based square, by board size.
pub(crate) fn bit_for(size: u8, s: u8) -> u32 {
    bit_of(u32::from(size / 2), u32::from(s))
}

/// The 0-based square of a bit, by board size (`None` for a ghost or off the board).
pub(crate) fn square_for(size: u8, bit: u32) -> Option<u8> {
    let t = if size == 8 {
        &G8::SQUARE_OF
    } else {
        &G10::SQUARE_OF
    };
    t.get(bit as usize).copied().filter(|&s| s != 255)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ghost_bits_separate_row_pairs() {
        assert_eq!(G8::VALID.count_ones(), 32);
        assert_eq!(G10::VALID.count_ones(), 50);
        assert_eq!(G8::VALID & (1 << 8), 0);
        assert_eq!(G10::VALID & (1 << 10), 0);
        assert_eq!(G10::TOP.count_ones(), 5);
        assert_eq!(G10::BOTTOM, 0b11111 << bit_of(5, 45));
    }

    #[test]
    fn a_step_off_the_board_is_lost() {
        // 10x10: square 5 (k10) has no down-right neighbour; square 6 (a9) no down-left.
        let k10 = 1u64 << bit_of(5, 4);
        assert_eq!(step::<G10>(k10, 6), 0);
        let a9 = 1u64 << bit_of(5, 5);
        assert_eq!(step::<G10>(a9, 5), 0);
        // and a9's down-right neighbour is 11 (b8) = s 10.
        assert_eq!(step::<G10>(a9, 6), 1u64 << bit_of(5, 10));
    }
}
