//! Zobrist keys of positions: one random 64-bit key per piece kind and generator bit, and one
//! for Black to move. The keys come from a fixed seed, so a position's key is the same in
//! every run (the search is deterministic for a given depth).

use crate::rules::compact::Bb;
use crate::rules::{Color, Position};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn keys() -> [[u64; 64]; 4] {
    let mut t = [[0u64; 64]; 4];
    let mut state = 0x7A61_6F63_686B_6121; // "zaochka!"
    let mut k = 0;
    while k < 4 {
        let mut b = 0;
        while b < 64 {
            let (s, z) = splitmix(state);
            state = s;
            t[k][b] = z;
            b += 1;
        }
        k += 1;
    }
    t
}

/// Keys by piece kind (white man, white king, black man, black king) and bit.
const KEYS: [[u64; 64]; 4] = keys();
/// Added when Black is to move.
const BLACK_TO_MOVE: u64 = splitmix(0x5A4F_4252_4953_5421).1;

fn fold(mut b: u64, keys: &[u64; 64]) -> u64 {
    let mut h = 0;
    while b != 0 {
        h ^= keys[b.trailing_zeros() as usize];
        b &= b - 1;
    }
    h
}

/// The key of a position.
pub(crate) fn key(pos: &Position) -> u64 {
    let Bb {
        white,
        black,
        kings,
    } = pos.bits();
    let side = if pos.side_to_move() == Color::Black {
        BLACK_TO_MOVE
    } else {
        0
    };
    fold(white & !kings, &KEYS[0])
        ^ fold(white & kings, &KEYS[1])
        ^ fold(black & !kings, &KEYS[2])
        ^ fold(black & kings, &KEYS[3])
        ^ side
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn keys_tell_the_side_to_move_and_the_pieces_apart() {
        let a = Position::from_fen(Variant::Russian, "W:Wc3:Bf6").unwrap();
        let b = Position::from_fen(Variant::Russian, "B:Wc3:Bf6").unwrap();
        let c = Position::from_fen(Variant::Russian, "W:WKc3:Bf6").unwrap();
        let d = Position::from_fen(Variant::Russian, "W:Wf6:Bc3").unwrap();
        let all = [key(&a), key(&b), key(&c), key(&d)];
        for i in 0..4 {
            for j in i + 1..4 {
                assert_ne!(all[i], all[j]);
            }
        }
        assert_eq!(key(&a), key(&a.clone()));
    }
}
