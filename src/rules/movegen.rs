//! Bitboard move generation for both boards.
//!
//! Captures follow the rules both games share: capture is compulsory; men capture forwards
//! and backwards; kings fly; captured pieces stay on the board until the move ends (they
//! block, and none is jumped twice — the "Turkish strike" rule); a capture goes on to the
//! end; after a king's jump it must land on a square from which it can go on capturing if
//! there is one. The geometry decides the rest: on 8x8 (Russian rules) a man crowned during
//! a capture goes on as a king and any capture sequence may be chosen; on 10x10
//! (international rules) the majority rule holds and a man only crowns if it ends its move
//! on the crown row.

use std::marker::PhantomData;

use super::board::{Geo, step};

/// The pieces of a position as bitboards (see `board` for the bit layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Bb {
    pub white: u64,
    pub black: u64,
    pub kings: u64,
}

/// A compact move: enough to play it and to tell duplicates apart (perft's "drop").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CMove {
    pub from: u8,
    pub to: u8,
    pub promotes: bool,
    pub captured: u64,
}

/// Receives generated moves (bit indices).
pub(crate) trait Sink {
    /// A quiet move.
    fn quiet(&mut self, from: u32, to: u32, promotes: bool);
    /// A capture: the start and every landing bit, the captured bits in order, their mask.
    fn capture(&mut self, path: &[u8], caps: &[u8], captured: u64, promotes: bool);
    /// Forget what was received (the majority rule found a longer capture).
    fn clear(&mut self);
}

/// Collects compact moves, dropping routes with the same start, end, captured set and
/// crowning (perft's usual convention).
pub(crate) struct DistinctSink<'a>(pub &'a mut Vec<CMove>);

impl Sink for DistinctSink<'_> {
    #[inline]
    fn quiet(&mut self, from: u32, to: u32, promotes: bool) {
        self.0.push(CMove {
            from: from as u8,
            to: to as u8,
            promotes,
            captured: 0,
        });
    }

    #[inline]
    fn capture(&mut self, path: &[u8], _caps: &[u8], captured: u64, promotes: bool) {
        let m = CMove {
            from: path[0],
            to: path[path.len() - 1],
            promotes,
            captured,
        };
        if !self.0.contains(&m) {
            self.0.push(m);
        }
    }

    fn clear(&mut self) {
        self.0.clear();
    }
}

/// One full route in bit indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Route {
    pub path: Vec<u8>,
    pub caps: Vec<u8>,
    pub promotes: bool,
}

/// Collects every route.
pub(crate) struct RouteSink(pub Vec<Route>);

impl Sink for RouteSink {
    fn quiet(&mut self, from: u32, to: u32, promotes: bool) {
        self.0.push(Route {
            path: vec![from as u8, to as u8],
            caps: Vec::new(),
            promotes,
        });
    }

    fn capture(&mut self, path: &[u8], caps: &[u8], _captured: u64, promotes: bool) {
        self.0.push(Route {
            path: path.to_vec(),
            caps: caps.to_vec(),
            promotes,
        });
    }

    fn clear(&mut self) {
        self.0.clear();
    }
}

#[inline(always)]
fn sides(bb: &Bb, white: bool) -> (u64, u64) {
    if white {
        (bb.white, bb.black)
    } else {
        (bb.black, bb.white)
    }
}

#[inline(always)]
fn forward<G: Geo>(white: bool) -> [i32; 2] {
    if white {
        [G::DIRS[0], G::DIRS[1]]
    } else {
        [G::DIRS[2], G::DIRS[3]]
    }
}

#[inline(always)]
fn crown_row<G: Geo>(white: bool) -> u64 {
    if white { G::TOP } else { G::BOTTOM }
}

/// The squares a king's ray covers in direction `d` (the kings excluded), for all kings.
#[inline(always)]
fn ray_fill<G: Geo>(kings: u64, empty: u64, d: i32) -> u64 {
    let mut f = step::<G>(kings, d) & empty;
    let mut fill = f;
    while f != 0 {
        f = step::<G>(f, d) & empty;
        fill |= f;
    }
    fill
}

/// The men of the side to move that can capture, and whether any of its kings can.
#[inline(always)]
fn capturers<G: Geo>(bb: &Bb, white: bool) -> (u64, bool) {
    let (me, opp) = sides(bb, white);
    let empty = G::VALID & !(me | opp);
    let men = me & !bb.kings;
    let kings = me & bb.kings;
    let mut men_cap = 0u64;
    let mut kings_cap = false;
    for d in G::DIRS {
        men_cap |= step::<G>(step::<G>(empty, -d) & opp, -d) & men;
        if kings != 0 && !kings_cap {
            let reach = ray_fill::<G>(kings, empty, d) | kings;
            kings_cap = step::<G>(step::<G>(reach, d) & opp, d) & empty != 0;
        }
    }
    (men_cap, kings_cap)
}

/// Whether the side to move has a capture.
#[inline]
pub(crate) fn has_capture<G: Geo>(bb: &Bb, white: bool) -> bool {
    let (men, kings) = capturers::<G>(bb, white);
    men != 0 || kings
}

struct Captures<'a, G: Geo, S: Sink> {
    opp: u64,
    empty: u64,
    crown: u64,
    path: [u8; 32],
    caps: [u8; 32],
    len: usize,
    best: usize,
    sink: &'a mut S,
    _g: PhantomData<G>,
}

impl<G: Geo, S: Sink> Captures<'_, G, S> {
    #[inline]
    fn emit(&mut self, promotes: bool, captured: u64) {
        let n = self.len;
        if G::MAJORITY {
            if n < self.best {
                return;
            }
            if n > self.best {
                self.sink.clear();
                self.best = n;
            }
        }
        self.sink
            .capture(&self.path[..=n], &self.caps[..n], captured, promotes);
    }

    #[inline]
    fn push(&mut self, land: u32, cap: u32) {
        self.len += 1;
        self.path[self.len] = land as u8;
        self.caps[self.len - 1] = cap as u8;
    }

    /// Captures of a man on bit `sq`; returns whether it had any (and emitted them).
    #[inline(always)]
    fn man(&mut self, sq: u32, captured: u64) -> bool {
        let b = 1u64 << sq;
        let opp = self.opp & !captured;
        // Most landing squares have no opponent next to them: say so without a call.
        let n = G::N;
        if ((b >> (n + 1)) | (b >> n) | (b << n) | (b << (n + 1))) & opp == 0 {
            return false;
        }
        self.man_jumps(b, opp, captured)
    }

    fn man_jumps(&mut self, b: u64, opp: u64, captured: u64) -> bool {
        // The four directions written out, so that each step is a constant shift.
        let any0 = self.man_jump(b, opp, captured, G::DIRS[0]);
        let any1 = self.man_jump(b, opp, captured, G::DIRS[1]);
        let any2 = self.man_jump(b, opp, captured, G::DIRS[2]);
        let any3 = self.man_jump(b, opp, captured, G::DIRS[3]);
        any0 | any1 | any2 | any3
    }

    #[inline(always)]
    fn man_jump(&mut self, b: u64, opp: u64, captured: u64, d: i32) -> bool {
        let mid = step::<G>(b, d) & opp;
        if mid == 0 {
            return false;
        }
        let land = step::<G>(mid, d) & self.empty;
        if land == 0 {
            return false;
        }
        let l = land.trailing_zeros();
        self.push(l, mid.trailing_zeros());
        let c2 = captured | mid;
        let crowned = land & self.crown != 0;
        if crowned && G::CROWN_IN_PASSING {
            if !self.king(l, c2, true) {
                self.emit(true, c2);
            }
        } else if !self.man(l, c2) {
            self.emit(crowned, c2);
        }
        self.len -= 1;
        true
    }

    /// Captures of a king on bit `sq` (`crowned`: a man crowned during this move).
    fn king(&mut self, sq: u32, captured: u64, crowned: bool) -> bool {
        let mut any = false;
        for d in G::DIRS {
            let mut t = step::<G>(1u64 << sq, d);
            while t & self.empty != 0 {
                t = step::<G>(t, d);
            }
            if t & self.opp & !captured == 0 {
                continue;
            }
            let mut l = step::<G>(t, d) & self.empty;
            if l == 0 {
                continue;
            }
            any = true;
            let m = t.trailing_zeros();
            let c2 = captured | t;
            let mut continued = false;
            let mut stops = 0u64;
            while l != 0 {
                let li = l.trailing_zeros();
                self.push(li, m);
                if self.king(li, c2, crowned) {
                    continued = true;
                } else {
                    stops |= l;
                }
                self.len -= 1;
                l = step::<G>(l, d) & self.empty;
            }
            if !continued {
                while stops != 0 {
                    let li = stops.trailing_zeros();
                    stops &= stops - 1;
                    self.push(li, m);
                    self.emit(crowned, c2);
                    self.len -= 1;
                }
            }
        }
        any
    }
}

/// Generates every legal move of the side to move into `sink` (captures: every route).
pub(crate) fn generate<G: Geo, S: Sink>(bb: &Bb, white: bool, sink: &mut S) {
    let (men_cap, kings_cap) = capturers::<G>(bb, white);
    generate_with::<G, S>(bb, white, sink, men_cap, kings_cap);
}

#[inline(always)]
fn generate_with<G: Geo, S: Sink>(
    bb: &Bb,
    white: bool,
    sink: &mut S,
    men_cap: u64,
    kings_cap: bool,
) {
    let (me, opp) = sides(bb, white);
    let empty = G::VALID & !(me | opp);
    let men = me & !bb.kings;
    let kings = me & bb.kings;
    let crown = crown_row::<G>(white);
    if men_cap != 0 || kings_cap {
        let mut c = Captures::<G, S> {
            opp,
            empty,
            crown,
            path: [0; 32],
            caps: [0; 32],
            len: 0,
            best: 0,
            sink,
            _g: PhantomData,
        };
        let mut m = men_cap;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            c.path[0] = sq as u8;
            c.empty = empty | (1u64 << sq);
            c.man(sq, 0);
        }
        let mut k = if kings_cap { kings } else { 0 };
        while k != 0 {
            let sq = k.trailing_zeros();
            k &= k - 1;
            c.path[0] = sq as u8;
            c.empty = empty | (1u64 << sq);
            c.king(sq, 0, false);
        }
        return;
    }
    for d in forward::<G>(white) {
        let mut t = step::<G>(men, d) & empty;
        while t != 0 {
            let to = t.trailing_zeros();
            t &= t - 1;
            let from = (to as i32 - d) as u32;
            sink.quiet(from, to, (1u64 << to) & crown != 0);
        }
    }
    let mut k = kings;
    while k != 0 {
        let sq = k.trailing_zeros();
        k &= k - 1;
        for d in G::DIRS {
            let mut t = step::<G>(1u64 << sq, d) & empty;
            while t != 0 {
                sink.quiet(sq, t.trailing_zeros(), false);
                t = step::<G>(t, d) & empty;
            }
        }
    }
}

/// The number of distinct legal moves (perft(1) with the "drop" convention); `buf` is
/// scratch space.
#[inline]
pub(crate) fn count_moves<G: Geo>(bb: &Bb, white: bool, buf: &mut Vec<CMove>) -> u64 {
    let (men_cap, kings_cap) = capturers::<G>(bb, white);
    if men_cap != 0 || kings_cap {
        buf.clear();
        generate_with::<G, _>(bb, white, &mut DistinctSink(buf), men_cap, kings_cap);
        return buf.len() as u64;
    }
    let (me, opp) = sides(bb, white);
    let empty = G::VALID & !(me | opp);
    let men = me & !bb.kings;
    let kings = me & bb.kings;
    let mut n = 0u32;
    for d in forward::<G>(white) {
        n += (step::<G>(men, d) & empty).count_ones();
    }
    if kings != 0 {
        for d in G::DIRS {
            n += ray_fill::<G>(kings, empty, d).count_ones();
        }
    }
    u64::from(n)
}

/// The position after a move (the side to move changes with the caller's flag).
#[inline]
pub(crate) fn apply(bb: &Bb, white: bool, m: CMove) -> Bb {
    let from = 1u64 << m.from;
    let to = 1u64 << m.to;
    let was_king = bb.kings & from != 0;
    let mut kings = bb.kings & !from & !m.captured;
    if was_king || m.promotes {
        kings |= to;
    }
    let (mut me, mut opp) = sides(bb, white);
    me = (me & !from) | to;
    opp &= !m.captured;
    if white {
        Bb {
            white: me,
            black: opp,
            kings,
        }
    } else {
        Bb {
            white: opp,
            black: me,
            kings,
        }
    }
}
